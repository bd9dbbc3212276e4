// The system SQLite (Debian: libsqlite3-dev), plus the one helper Swift cannot write itself.
//
// Why the helper exists: SQLITE_TRANSIENT, which tells sqlite3_bind_text to copy the string before
// the call returns, is the macro `((sqlite3_destructor_type)-1)`. Swift does not import a cast
// macro, and rebuilding it with unsafeBitCast hides a pointer-from-integer trick in Swift code.
// `static inline` keeps it in this header, so no separate C target is needed.
// Prefixed `ldsql_` (live-draw SQLite) so it never clashes with SQLite's own names.
#ifndef LDSQL_SHIM_H
#define LDSQL_SHIM_H

#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies `text` (`byteCount` UTF-8 bytes), so the
/// caller's buffer may go away as soon as the call returns.
static inline int ldsql_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byteCount) {
    return sqlite3_bind_text(stmt, index, text, byteCount, SQLITE_TRANSIENT);
}

#endif
