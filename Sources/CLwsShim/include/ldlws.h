/*
 * ldlws — the thin C layer between the Swift server and libwebsockets (lws 4.1.x).
 *
 * Why it exists: a good part of the lws API cannot be used from Swift directly, or only
 * unsafely.  LWS_PRE is a macro (Swift cannot see computed macros); lws_write() needs LWS_PRE
 * bytes of writable headroom *before* the payload; the context and vhost are configured through
 * large structs that must be zeroed and whose strings and policies must outlive the context;
 * the sorted-usec-list timers embed a struct lws_sorted_usec_list that must stay at a fixed
 * address; HTTP headers are built with pointer-to-pointer cursors; and reading WebSocket input
 * ourselves takes flow control, TLS reads and control frames with headroom.  Each of those is
 * one small function here, prefixed ldlws_.  Everything else — routing, rooms, draws, limits —
 * lives in Swift.
 *
 * Threading: every function here must be called on the lws service thread, except
 * ldlws_cancel_service(), which lws documents as safe from any thread.
 */
#ifndef LDLWS_H
#define LDLWS_H

#include <libwebsockets.h>
#include <stddef.h>
#include <stdint.h>

/* ---- context ------------------------------------------------------------------------------ */

/** Which loop runs lws.  POLL is lws' built-in loop: one poll() over every socket on every
 *  wake-up, so each wake-up costs in proportion to the connections, idle ones included.  LIBEV
 *  is lws' libev plugin on a libev loop of ours on epoll: a wake-up costs what is ready.  The
 *  plugin and libev are loaded at run time, so a host without them still runs POLL.  (lws' glib
 *  plugin was measured and left out: GLib's loop polls every source with poll() as well.) */
typedef enum ldlws_event_loop {
    LDLWS_LOOP_POLL = 0,
    LDLWS_LOOP_LIBEV = 1,
} ldlws_event_loop;

/** NULL when `kind` can run here, else why not (a static string: what is missing). */
const char *ldlws_event_loop_problem(ldlws_event_loop kind);

/** Flat server configuration; strings are copied, so they need only live during the call. */
typedef struct ldlws_config {
    int port;                        /* 0 = let the kernel pick (read back with ldlws_port) */
    const char *iface;               /* address to bind, NULL = all */
    int ipv4_only;                   /* sets LWS_SERVER_OPTION_DISABLE_IPV6 */
    const char *tls_cert_path;       /* both or neither */
    const char *tls_key_path;
    const char *subprotocol;         /* offered ws subprotocol, e.g. "live-draw.v2" */
    const char *older_subprotocol;   /* a second one lws accepts too (an older version still
                                        served), or NULL; ldlws_protocol_name tells them apart */
    unsigned int timeout_secs;       /* lws network round-trip timeouts (handshakes) */
    size_t rx_buffer_size;           /* per-connection ws receive buffer lws mallocs; 0 = 4096 */
    size_t tx_packet_size;           /* most bytes one send() gets; 0 = rx_buffer_size (!) */
    unsigned int header_tables;      /* handshakes parsed at once (lws ah pool); 0 = one per fd */
    lws_callback_function *callback; /* one callback serves every protocol */
    void *user;                      /* returned by ldlws_user(); not owned */
    int adopt_only;                  /* 1: lws opens no listening socket (CONTEXT_PORT_NO_LISTEN_SERVER);
                                        the caller accepts and hands sockets over with
                                        ldlws_adopt_socket, and port is the caller's bound port,
                                        which ldlws_port reports */
    size_t header_data_bytes;        /* bytes of one header table (max_http_header_data); 0 = 4096 */
    const char *security_headers;    /* NULL: lws' best-practice security headers (CSP with
                                        frame-ancestors 'none', x-frame-options: deny).  Else
                                        complete header lines ("name: value\r\n"…) sent instead
                                        on every response the shim writes: lws' set is one fixed
                                        string per vhost, so a page that may be framed by listed
                                        origins needs its own (copied; at most 1 KiB). */
    ldlws_event_loop event_loop;     /* which loop services the context (see ldlws_event_loop) */
} ldlws_config;

/** The name of the protocol lws chose for `wsi`'s WebSocket ("http" when the client offered no
 *  subprotocol); valid as long as the server. */
const char *ldlws_protocol_name(struct lws *wsi);

/** Owns the lws context plus the protocol table and idle policy it points into. */
typedef struct ldlws_server ldlws_server;

/** The security header lines of the server `wsi` belongs to (ldlws_config), or NULL for lws' own. */
const char *ldlws_security_headers(struct lws *wsi);
/** Creates the context and binds.  NULL on failure (lws logs the detail). */
ldlws_server *ldlws_create(const ldlws_config *config);
/** Closes every connection (their CLOSED callbacks run on the calling thread) and frees. */
void ldlws_destroy(ldlws_server *server);
/** The bound port (meaningful with config.port == 0). */
int ldlws_port(const ldlws_server *server);
/** One turn of the loop (poll: lws_service; libev: one iteration of our loop, which blocks
 *  until something is ready or a timer is due); < 0 means the context is unusable. */
int ldlws_service(ldlws_server *server);
/** Wakes the service loop: LWS_CALLBACK_EVENT_WAIT_CANCELLED follows.  Any thread. */
void ldlws_cancel_service(ldlws_server *server);
/** The config.user pointer of the context that owns wsi (also for lws' fake broadcast wsi). */
void *ldlws_user(struct lws *wsi);
/** Adopts a descriptor that is not a socket lws reads (an epoll set, say) as a raw file: lws
 *  polls it with the rest and calls LWS_CALLBACK_RAW_RX_FILE when it is readable; the callback
 *  reads it.  lws closes fd when the returned wsi closes (at the latest in ldlws_destroy).
 *  NULL on failure (fd is then still the caller's). */
struct lws *ldlws_adopt_file(ldlws_server *server, int fd);
/** Hands an accepted socket to lws, with the bytes already read from it (a complete request
 *  head, and its body if any; may be empty): lws parses them as if it had read them itself,
 *  then serves the connection as any other (HTTP, WebSocket upgrade, TLS when configured).
 *  lws_adopt_socket_vhost_readbuf, which lws does not hold back: it starts parsing at once when a
 *  header table is free, and when none is, keeps the bytes and services the connection on every
 *  turn of the loop until one is (a busy loop): the caller should hand over only while tables
 *  are free.  fd is lws' from this call on, whatever happens: NULL means lws already closed it
 *  (adoption failed, or the request was answered and closed during the call).
 *  LWS_CALLBACK_WSI_CREATE for the new connection runs during the call. */
struct lws *ldlws_adopt_socket(ldlws_server *server, int fd, const unsigned char *bytes, size_t len);
/** Where lws' log lines go: its level (LLL_ERR, LLL_WARN, ...) and the line, NUL-terminated,
 *  usually ending in a newline. Called on whichever thread lws logs from. */
typedef void (*ldlws_log_sink)(int level, const char *line);
/** Sets lws' own log level (LLL_ERR | LLL_WARN by default) and its log line filter: lws 4.1 logs
 *  every ldlws_adopt_socket at error level ("adopt_socket_readbuf: calling service"), and those
 *  lines are dropped; every other line goes to `sink` (the server's logger, so that JSON logs
 *  stay one object per line), or to stderr when it is NULL. */
void ldlws_set_log_level(int levels, ldlws_log_sink sink);

/* ---- per-connection slot ------------------------------------------------------------------ */

/** The per-session user space lws allocates (zeroed) for every connection. */
typedef struct ldlws_session {
    void *object; /* a retained Swift object (Unmanaged), or NULL */
    int kind;     /* which Swift type object is; 0 = none */
} ldlws_session;

/* ---- WebSocket ---------------------------------------------------------------------------- */

/** Headroom lws needs before every payload passed to lws_write. */
size_t ldlws_pre(void);
/** What ldlws_write_text did with a message. */
typedef enum ldlws_write_result {
    LDLWS_WRITE_FAILED = -1,  /* the connection failed: close it */
    LDLWS_WRITE_SENT = 0,     /* all of it went out on the socket: lws holds none of it */
    LDLWS_WRITE_HANDED = 1,   /* lws sent it or holds (part of) it in its output buffer */
} ldlws_write_result;

/** Sends one text message; payload must have ldlws_pre() writable bytes before it, where the
 *  frame header is written.  With fd >= 0 (from ldlws_direct_socket) the shim frames and sends
 *  it itself when lws holds no earlier output (`settled`: the caller knows so without asking):
 *  on a plain socket at most `chunk` bytes in one send(), handing lws only the rest; under TLS
 *  (`tls` from ldlws_tls_session) in one SSL_write when the frame fits in `chunk`, handing lws
 *  the frame when the socket is full.  Otherwise lws_write does it all.  Says which way it went
 *  (ldlws_write_result). */
ldlws_write_result ldlws_write_text(struct lws *wsi, int fd, void *tls, int settled, size_t chunk,
                                    unsigned char *payload, size_t len);
/** The socket of a WebSocket connection, for ldlws_write_text; -1 for a stream inside another
 *  connection, where every write goes through lws. */
int ldlws_direct_socket(struct lws *wsi);
/** The connection's TLS session (an OpenSSL SSL *) for ldlws_write_text, or NULL on a plain
 *  connection.  lws frees it when the connection closes: forget it before then. */
void *ldlws_tls_session(struct lws *wsi);
/** Whether lws still holds unsent bytes of an earlier write on wsi (lws_partial_buffered): only
 *  when it holds none may the next message be written outside WRITEABLE. */
int ldlws_output_buffered(struct lws *wsi);
/** Asks for one LWS_CALLBACK_SERVER_WRITEABLE / HTTP_WRITEABLE. */
void ldlws_request_writable(struct lws *wsi);

/* ---- WebSocket input, read by the server itself ------------------------------------------- */
/* lws 4.1 does not check what RFC 6455 requires of frames a server receives (mask bit, close
 * codes, control frame sizes), so after the upgrade the Swift side reads each connection's
 * bytes itself and lws only writes.  These functions are that hand-over. */

/** Stops lws from reading wsi (rx flow control; takes effect when the current callback
 *  returns) and returns the socket to read instead, or -1 when there is none. */
int ldlws_ws_take_over_input(struct lws *wsi);
/** Reads up to len bytes of wsi's input from fd, decrypting through the connection's TLS
 *  session when it has one (lws_get_ssl).  Returns the count (> 0), 0 when the peer closed,
 *  -1 when nothing can be read now (wait for readability), -2 on an error.  *more is set when
 *  TLS still holds decrypted bytes: read again before waiting, the socket will not say so. */
long ldlws_ws_read(struct lws *wsi, int fd, void *buf, size_t len, int *more);
/** Closes wsi from outside its own callbacks: lws drops it on its next service turn, without
 *  a close frame of its own (LWS_CALLBACK_CLOSED follows). */
void ldlws_kill(struct lws *wsi);

typedef enum ldlws_control {
    LDLWS_CONTROL_CLOSE = 0,
    LDLWS_CONTROL_PONG = 1,
    LDLWS_CONTROL_PING = 2,
} ldlws_control;
/** Sends one control frame (at most 125 bytes of payload, copied).  The close frame is sent
 *  like any frame: lws adds none of its own as long as lws_close_reason is never called and
 *  the connection is closed by returning -1 or ldlws_kill.  Returns 0 when lws took it all. */
int ldlws_write_control(struct lws *wsi, ldlws_control kind, const unsigned char *payload, size_t len);

/* ---- HTTP --------------------------------------------------------------------------------- */

typedef enum ldlws_method {
    LDLWS_METHOD_OTHER = 0,
    LDLWS_METHOD_GET,
    LDLWS_METHOD_POST,
    LDLWS_METHOD_PUT,
    LDLWS_METHOD_PATCH,
    LDLWS_METHOD_DELETE,
    LDLWS_METHOD_OPTIONS,
    LDLWS_METHOD_HEAD,
} ldlws_method;

/** Which request method the current transaction uses. */
ldlws_method ldlws_http_method(struct lws *wsi);
/** The request path (decoded and dot-collapsed by lws), copied into buf; length or -1. */
int ldlws_uri(struct lws *wsi, char *buf, int len);
/** Copies a header into buf (NUL-terminated); its length, or -1 when absent or too long. */
int ldlws_header(struct lws *wsi, enum lws_token_indexes token, char *buf, int len);
/** Length of a header, 0 when absent. */
int ldlws_header_length(struct lws *wsi, enum lws_token_indexes token);
/** Copies URL argument number index (0-based) of the request, "name=value" as lws urldecoded it,
 *  into buf (NUL-terminated); its length, -1 when there is no such argument, -2 when it does
 *  not fit in len bytes. */
int ldlws_uri_arg(struct lws *wsi, int index, char *buf, int len);
/** Flags of ldlws_http_respond_with and ldlws_http_serve_file_with. */
enum {
    LDLWS_RESPOND_HEAD_ONLY = 1, /* a HEAD request: every header (Content-Length of the body), no body */
    LDLWS_RESPOND_CLOSE = 2,     /* adds "Connection: close": the connection ends after this response */
};
/** Status line, lws' security headers, Content-Type, Content-Length, Cache-Control: no-store,
 *  one optional extra header "name: value" (e.g. "Retry-After", "5"; NULL name, none), then the
 *  body: all in one lws_write, shaped by LDLWS_RESPOND_ flags.  0 on success.  lws builds the
 *  headers with pointer cursors, so Swift passes the pair and the shim writes it in place. */
int ldlws_http_respond_with(struct lws *wsi, unsigned int status, const char *content_type,
                            const char *header_name, const char *header_value,
                            const unsigned char *body, size_t len, unsigned int flags);
/** The same (no extra header, no flags), from HTTP_CONFIRM_UPGRADE: answers a refused WebSocket
 *  handshake with an HTTP/1.1 status and "Connection: close" (then return 1 from the callback). */
/** As ldlws_http_respond_with, with the caller's Cache-Control value instead of no-store and
 *  complete header lines ("name: value\r\n"…, e.g. an ETag) after it. */
int ldlws_http_respond_cacheable(struct lws *wsi, unsigned int status, const char *content_type,
                                 const char *cache_control, const char *lines,
                                 const unsigned char *body, size_t len, unsigned int flags);
int ldlws_http_refuse_upgrade(struct lws *wsi, unsigned int status, const char *content_type,
                              const unsigned char *body, size_t len);
/** Streams a file with lws' own file server (security headers included).  `headers` are extra
 *  complete header lines ("name: value\r\n"…, NULL for none) the server built itself; lws sends
 *  its own "cache-control: no-store" only when they carry no cache-control.  Of the flags only
 *  LDLWS_RESPOND_CLOSE applies (lws itself already sends no body to a HEAD request).  Returns
 *  lws' value: < 0 close, > 0 finished, 0 in progress. */
int ldlws_http_serve_file_with(struct lws *wsi, const char *path, const char *content_type,
                               const char *headers, unsigned int flags);
/** "304 Not Modified": status line, lws' security headers, then the header lines in `headers`
 *  (the validators and cache-control of the file that did not change) and no body, in one
 *  lws_write.  Unlike ldlws_http_respond_with it adds no Content-Length and no
 *  "cache-control: no-store" (a 304's headers update the browser's cached copy).  0 on success. */
int ldlws_http_not_modified(struct lws *wsi, const char *headers, unsigned int flags);
/** Ends the transaction (keep-alive).  Nonzero means: close the connection (return -1). */
int ldlws_http_transaction_completed(struct lws *wsi);
/** Replaces lws' pending timeout of the connection (for instance the context's `timeout_secs`,
 *  armed while a request is in its parser) by `secs` seconds of our own; 0 clears it.  When it
 *  runs out lws closes the connection.  Issue 31, finding 3: an API answer that comes later must
 *  not be cut off by lws' 10 s handshake timeout. */
void ldlws_set_timeout(struct lws *wsi, int secs);

/* ---- peer --------------------------------------------------------------------------------- */

/** The numeric address of the peer of wsi's socket ("203.0.113.7", "2001:db8::1"), copied into
 *  buf (NUL-terminated); its length, or -1 when it cannot be had (or does not fit).  An IPv4
 *  client of a dual-stack socket comes back as plain IPv4 ("::ffff:" dropped), so one client has
 *  one address whichever way it came in.  Why here and not lws_get_peer_simple(): that one
 *  answers a getpeername() failure with an error text in place of an address, which a caller
 *  could only tell apart by parsing it; and sockaddr handling is C's job. */
int ldlws_peer_address(struct lws *wsi, char *buf, int len);

/* ---- timers ------------------------------------------------------------------------------- */

typedef void (*ldlws_timer_fn)(void *owner);
/** A one-shot timer on the service loop: an lws_sul (poll), or a libev timer on our loop
 *  (libev: lws 4.1.6's libev plugin misses sul timers scheduled earlier than the one its own
 *  libev timer is armed for; ldlws_loop.c).  Fixed address, so either can point into it. */
typedef struct ldlws_timer ldlws_timer;
ldlws_timer *ldlws_timer_create(ldlws_server *server, ldlws_timer_fn fn, void *owner);
/** (Re)arms the timer delay_us microseconds from now; replaces any earlier schedule. */
void ldlws_timer_schedule(ldlws_timer *timer, int64_t delay_us);
void ldlws_timer_cancel(ldlws_timer *timer);
/** Cancels and frees. */
void ldlws_timer_destroy(ldlws_timer *timer);

#endif
