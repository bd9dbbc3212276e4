/*
 * ldlws — WebSocket writes, and the connection input the server reads itself (see
 * include/ldlws.h for why this layer exists).  No policy here.
 */
#include "ldlws.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
#include <openssl/err.h>
#include <openssl/ssl.h>
#endif

/* ---- WebSocket ---------------------------------------------------------------------------- */

size_t ldlws_pre(void) { return LWS_PRE; }

/* The longest server frame header (opcode byte, 127, 64-bit length) fits in the headroom. */
_Static_assert(LWS_PRE >= 10, "LWS_PRE leaves room for a 10-byte frame header");

/* Writes the header of an unmasked, final text frame of len bytes into the bytes just before
 * payload (RFC 6455 5.2: 7-, 16- or 64-bit length); returns its size. */
static size_t text_frame_header(unsigned char *payload, size_t len) {
    if (len < 126) {
        payload[-2] = 0x81;
        payload[-1] = (unsigned char)len;
        return 2;
    }
    if (len < 65536) {
        payload[-4] = 0x81;
        payload[-3] = 126;
        payload[-2] = (unsigned char)(len >> 8);
        payload[-1] = (unsigned char)len;
        return 4;
    }
    payload[-10] = 0x81;
    payload[-9] = 127;
    for (int i = 0; i < 8; i++) payload[-8 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
    return 10;
}

#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
/* The TLS leg of ldlws_write_text: the whole frame (at most one lws send cut, see there) in one
 * SSL_write, as lws_ssl_capable_write would do it, without lws_write's path around it.  lws
 * creates every session with SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER and without partial writes,
 * so SSL_write takes the whole frame or, on a full socket, wants to be called again with the
 * same bytes: it has encrypted them and holds the record.  lws does exactly that when handed
 * the frame as raw bytes: it calls SSL_write again with all of it at once (its send cut is
 * larger than the frame) and keeps what is still not taken in its output buffer, retried
 * from the same bytes when the socket is writeable, as after its own short write. */
static ldlws_write_result tls_write(struct lws *wsi, SSL *ssl, unsigned char *frame, size_t total) {
    ERR_clear_error();
    int n = SSL_write(ssl, frame, (int)total);
    if (n == (int)total) return LDLWS_WRITE_SENT;
    if (n > 0) { /* only in partial-write mode, which lws never sets: the rest is new bytes */
        int m = lws_write(wsi, frame + n, total - (size_t)n, LWS_WRITE_RAW);
        return m < (int)(total - (size_t)n) ? LDLWS_WRITE_FAILED : LDLWS_WRITE_HANDED;
    }
    switch (SSL_get_error(ssl, n)) {
    case SSL_ERROR_WANT_WRITE:
    case SSL_ERROR_WANT_READ: {
        int m = lws_write(wsi, frame, total, LWS_WRITE_RAW);
        return m < (int)total ? LDLWS_WRITE_FAILED : LDLWS_WRITE_HANDED;
    }
    default:
        return LDLWS_WRITE_FAILED; /* the peer is gone, or the session broke */
    }
}
#endif

/* Why the shim frames and sends the message itself instead of calling lws_write: lws_write
 * runs the extension hooks, the ws role's state, the buffered-output checks and the send-size
 * cut on every message, and with no extension negotiated and nothing buffered all of that ends
 * in the one send() done here (Benchmarks/README.md, "Event loop, session 9"), or under TLS in
 * the one SSL_write of tls_write ("Fan-out over TLS").
 *
 * It is only taken on a socket the caller names (ldlws_direct_socket: not a stream inside
 * another connection; with its TLS session, ldlws_tls_session, under TLS) and only when lws holds no unsent
 * bytes of an earlier write, which must go first.  `settled` says the caller knows that already
 * (its last write here went out whole), so lws' per-connection state is not even read: that
 * read was a cache miss per viewer per message.  Whatever send() does not take, and anything
 * past `chunk` bytes (lws' own cut, tx_packet_size), is handed to lws as raw bytes, already
 * framed: lws keeps it in its output buffer and flushes it before the next WRITEABLE, exactly
 * as when lws_write itself sends short, so nothing else changes. */
ldlws_write_result ldlws_write_text(struct lws *wsi, int fd, void *tls, int settled, size_t chunk,
                                    unsigned char *payload, size_t len) {
    /* lws_write takes an int-sized length; nothing the server sends comes near it. */
    if (len > (size_t)INT_MAX - LWS_PRE) return LDLWS_WRITE_FAILED;
    /* Under TLS only frames within one lws send cut (chunk) go direct: a retry through lws must
     * offer SSL_write the same length, and lws offers at most its cut at once. */
    if (fd < 0 || (tls && len + 10 > chunk) || (!settled && lws_partial_buffered(wsi))) {
        /* lws either sends everything or keeps the unsent tail in its own buffer (and then does
         * not call WRITEABLE again until it is flushed), so a short count is a real failure. */
        int n = lws_write(wsi, payload, len, LWS_WRITE_TEXT);
        return n < (int)len ? LDLWS_WRITE_FAILED : LDLWS_WRITE_HANDED;
    }
    size_t header = text_frame_header(payload, len);
    unsigned char *frame = payload - header;
    size_t total = len + header;
#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
    if (tls) return tls_write(wsi, (SSL *)tls, frame, total);
#else
    if (tls) return LDLWS_WRITE_FAILED; /* ldlws_tls_session never hands one out here */
#endif
    size_t first = chunk && total > chunk ? chunk : total;
    ssize_t sent;
    do {
        sent = send(fd, frame, first, MSG_NOSIGNAL | MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    if (sent == (ssize_t)total) return LDLWS_WRITE_SENT;
    if (sent < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK) return LDLWS_WRITE_FAILED; /* the peer is gone */
        sent = 0;
    }
    size_t rest = total - (size_t)sent;
    int n = lws_write(wsi, frame + sent, rest, LWS_WRITE_RAW);
    return n < (int)rest ? LDLWS_WRITE_FAILED : LDLWS_WRITE_HANDED;
}

int ldlws_direct_socket(struct lws *wsi) {
    if (lws_get_network_wsi(wsi) != wsi) return -1;
    return (int)lws_get_socket_fd(wsi);
}

void *ldlws_tls_session(struct lws *wsi) {
#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
    if (lws_is_ssl(wsi)) return lws_get_ssl(wsi);
#endif
    return NULL;
}

int ldlws_output_buffered(struct lws *wsi) { return lws_partial_buffered(wsi); }

void ldlws_request_writable(struct lws *wsi) { lws_callback_on_writable(wsi); }

/* ---- WebSocket input, read by the server itself ------------------------------------------- */

int ldlws_ws_take_over_input(struct lws *wsi) {
    lws_sockfd_type fd = lws_get_socket_fd(wsi);
    if (fd < 0) return -1;
    /* Inside a callback lws applies this when the callback returns, before it looks at the
     * socket again; from then on it neither reads nor asks poll() for input on it. */
    lws_rx_flow_control(wsi, 0);
    return (int)fd;
}

long ldlws_ws_read(struct lws *wsi, int fd, void *buf, size_t len, int *more) {
    *more = 0;
    if (len > INT_MAX) len = INT_MAX;
#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
    if (lws_is_ssl(wsi)) {
        SSL *ssl = lws_get_ssl(wsi);
        if (!ssl) return -2;
        ERR_clear_error();
        int n = SSL_read(ssl, buf, (int)len);
        if (n > 0) {
            *more = SSL_pending(ssl) > 0;
            return n;
        }
        switch (SSL_get_error(ssl, n)) {
        case SSL_ERROR_WANT_READ:
        case SSL_ERROR_WANT_WRITE: /* a TLS message to send first; retried on the next input */
            return -1;
        case SSL_ERROR_ZERO_RETURN: /* close_notify */
            return 0;
        case SSL_ERROR_SYSCALL:
            return (n == 0 && ERR_peek_error() == 0) ? 0 : -2; /* EOF without close_notify */
        default:
            return -2;
        }
    }
#endif
    for (;;) {
        ssize_t n = read(fd, buf, len);
        if (n >= 0) return (long)n;
        if (errno == EINTR) continue;
        return (errno == EAGAIN || errno == EWOULDBLOCK) ? -1 : -2;
    }
}

void ldlws_kill(struct lws *wsi) {
    /* An immediate timeout: the documented way to close a connection from outside its own
     * callbacks.  lws treats a timed-out connection as dead, so it sends no close frame. */
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* lws 4.1's public enum leaves out its close opcode (4) and points at lws_close_reason(), which
 * also sends the close but then takes reading back (lws_rx_flow_control(wsi, 1) in the
 * closing states) and closes on its own schedule.  The ws role's writer still frames 4 as a
 * close (lws_write -> rops_write_role_protocol_ws, LWS_WRITE_CLOSE), as lws itself does. */
#define LDLWS_WRITE_CLOSE ((enum lws_write_protocol)4)

int ldlws_write_control(struct lws *wsi, ldlws_control kind, const unsigned char *payload, size_t len) {
    unsigned char buf[LWS_PRE + 125];
    if (len > 125) return -1;
    if (len) memcpy(buf + LWS_PRE, payload, len);
    enum lws_write_protocol how = kind == LDLWS_CONTROL_PONG ? LWS_WRITE_PONG
                                 : kind == LDLWS_CONTROL_PING ? LWS_WRITE_PING : LDLWS_WRITE_CLOSE;
    int n = lws_write(wsi, buf + LWS_PRE, len, how);
    return n < (int)len ? -1 : 0;
}
