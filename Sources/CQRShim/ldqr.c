/* ldqr — libqrencode behind one call (see include/ldqr.h for why this layer exists). No policy. */
#include "ldqr.h"

#include <qrencode.h>

static QRecLevel level_of(ldqr_level level) {
    switch (level) {
    case LDQR_LEVEL_L: return QR_ECLEVEL_L;
    case LDQR_LEVEL_Q: return QR_ECLEVEL_Q;
    case LDQR_LEVEL_H: return QR_ECLEVEL_H;
    default: return QR_ECLEVEL_M;
    }
}

int ldqr_encode(const char *text, ldqr_level level, unsigned char *modules, size_t capacity) {
    /* Version 0: the smallest that fits.  8-bit mode, case-sensitive: a URL stays as it is. */
    QRcode *code = QRcode_encodeString8bit(text, 0, level_of(level));
    if (!code) return -1;
    int width = code->width;
    size_t count = (size_t)width * (size_t)width;
    if (width <= 0 || width > LDQR_MAX_WIDTH) {
        QRcode_free(code);
        return -1;
    }
    if (count > capacity) {
        QRcode_free(code);
        return -2;
    }
    for (size_t i = 0; i < count; i++) modules[i] = code->data[i] & 1;
    QRcode_free(code);
    return width;
}
