// Doors into hiredis for Swift (the Redis client of cluster mode, issue 14).
//
// Why this shim exists:
// - `redisCommand` and `redisAppendCommand` are variadic (a printf-like format), which Swift cannot
//   call. We never use formats anyway: every command goes as an argv of byte strings with explicit
//   lengths (`redisCommandArgv`, `redisAppendCommandArgv`), so a value is never parsed as a format
//   and may contain any byte. The wrappers fix `argc` to a checked `int`.
// - The timeouts take a `struct timeval` by value; the wrappers take milliseconds.
// - The reply types, `REDIS_OK`/`REDIS_ERR` and the context's error codes are macros; they are
//   exported here as one enum so that Swift sees typed constants whatever the importer does with
//   macros, and `redisContext.errstr` (a char array, a tuple in Swift) is reached through a getter.
// - TLS: Debian 12 ships hiredis 0.14.1, which has no `hiredis_ssl` (TLS came with hiredis 1.0).
//   `ldredis_has_tls()` says so, and the Swift side refuses `rediss://` with a clear error instead
//   of silently sending the password in the clear.
// - `ldredis_name_thread`: the subscriber thread's name for ps/top/gdb. `pthread_setname_np` is a
//   GNU extension that Glibc's Swift module does not declare, and Foundation's `Thread.name` reaches
//   the kernel only by a race (it needs the thread's handle, which the creator stores after start).
//
// Every symbol is prefixed `ldredis_` (live-draw redis). No policy (reconnects, backoff, what to
// subscribe) is written in C; that is all in DrawData/Redis.
#ifndef LDREDIS_H
#define LDREDIS_H

#include <hiredis/hiredis.h>
#include <stddef.h>

/// hiredis' macros as typed constants.
enum ldredis_constant {
    LDREDIS_OK = REDIS_OK,
    LDREDIS_ERR = REDIS_ERR,

    LDREDIS_REPLY_STRING = REDIS_REPLY_STRING,
    LDREDIS_REPLY_ARRAY = REDIS_REPLY_ARRAY,
    LDREDIS_REPLY_INTEGER = REDIS_REPLY_INTEGER,
    LDREDIS_REPLY_NIL = REDIS_REPLY_NIL,
    LDREDIS_REPLY_STATUS = REDIS_REPLY_STATUS,
    LDREDIS_REPLY_ERROR = REDIS_REPLY_ERROR,

    LDREDIS_ERR_IO = REDIS_ERR_IO,
    LDREDIS_ERR_EOF = REDIS_ERR_EOF,
    LDREDIS_ERR_PROTOCOL = REDIS_ERR_PROTOCOL,
    LDREDIS_ERR_OOM = REDIS_ERR_OOM,
    LDREDIS_ERR_OTHER = REDIS_ERR_OTHER,
};

/// Whether this hiredis can speak TLS (`rediss://`). Always 0 with Debian 12's hiredis 0.14.
int ldredis_has_tls(void);

/// A blocking TCP connection to `host:port`, giving up after `connect_timeout_ms`. Never NULL
/// except when out of memory; check `ldredis_error` (non-zero: failed, see `ldredis_errstr`) and
/// free it with `ldredis_free` either way.
redisContext *ldredis_connect(const char *host, int port, long connect_timeout_ms);

/// Send and receive timeout of the socket (SO_SNDTIMEO/SO_RCVTIMEO): a blocking command that gets
/// no answer within it fails with LDREDIS_ERR_IO, and the context is unusable afterwards.
int ldredis_set_timeout(redisContext *c, long timeout_ms);

/// TCP keepalive, so that a peer gone without a FIN is noticed by the kernel eventually.
int ldredis_enable_keepalive(redisContext *c);

/// The context's error code (0: none; else one of LDREDIS_ERR_*).
int ldredis_error(const redisContext *c);

/// The context's error text (hiredis' own buffer; copy it before the next call).
const char *ldredis_errstr(const redisContext *c);

/// The socket, for poll().
int ldredis_fd(const redisContext *c);

/// Sends one command and waits for its reply: `argc` strings of `argvlen[i]` bytes each (any
/// bytes). NULL on an I/O or protocol error (see `ldredis_error`); else a reply to free with
/// `ldredis_free_reply`.
redisReply *ldredis_command_argv(redisContext *c, int argc, const char **argv, const size_t *argvlen);

/// Queues one command in the output buffer without sending it (`ldredis_flush` sends).
int ldredis_append_argv(redisContext *c, int argc, const char **argv, const size_t *argvlen);

/// Writes the output buffer until it is empty (blocking, bounded by the send timeout).
int ldredis_flush(redisContext *c);

/// Reads what the socket has (one read(2); call it when poll says readable) into the reader.
int ldredis_read(redisContext *c);

/// The next complete reply already read, without touching the socket: LDREDIS_OK with `*reply`
/// NULL when none is complete yet.
int ldredis_next_reply(redisContext *c, redisReply **reply);

/// Names the calling thread (at most 15 bytes are kept). Returns 0 or an errno.
int ldredis_name_thread(const char *name);

void ldredis_free_reply(redisReply *reply);
void ldredis_free(redisContext *c);

#endif
