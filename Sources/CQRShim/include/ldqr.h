// libqrencode from Swift: the QR code of a room's viewer link (GET /api/rooms/ROOM/qr.svg).
//
// Why this shim exists: QRcode_encodeString returns a struct the library allocates (freed with
// QRcode_free) whose `data` packs several flags into each module's byte (bit 0 is "dark", the
// others tell finder patterns from data), and it reports failures through errno. One call here
// encodes, copies only the dark bit of each module into the caller's buffer and frees the
// struct, so Swift never holds a libqrencode pointer and never reads its flag layout. The SVG
// (policy: sizes, quiet zone) is drawn in Swift.
//
// Every symbol is prefixed `ldqr_` (live-draw QR) so it never clashes with libqrencode's names.
#ifndef LDQR_H
#define LDQR_H

#include <stddef.h>

/** The largest QR code (version 40) has 177 modules per side. */
#define LDQR_MAX_WIDTH 177

/** Error correction levels, as in QR_ECLEVEL_*: L 7 %, M 15 %, Q 25 %, H 30 % recoverable. */
typedef enum { LDQR_LEVEL_L = 0, LDQR_LEVEL_M, LDQR_LEVEL_Q, LDQR_LEVEL_H } ldqr_level;

/** Encodes `text` (UTF-8, 8-bit mode, the smallest version that fits) and writes width × width
 *  bytes into `modules`, row by row, 1 for a dark module and 0 for a light one.  Returns the
 *  width; -1 when the text cannot be encoded (too long for version 40, or no memory); -2 when
 *  `capacity` is smaller than width × width. */
int ldqr_encode(const char *text, ldqr_level level, unsigned char *modules, size_t capacity);

#endif
