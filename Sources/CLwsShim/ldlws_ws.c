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

int ldlws_write_text(struct lws *wsi, unsigned char *payload, size_t len) {
    /* lws either sends everything or keeps the unsent tail in its own buffer (and then does not
     * call WRITEABLE again until it is flushed), so a short count here is a real failure. */
    int n = lws_write(wsi, payload, len, LWS_WRITE_TEXT);
    return n < (int)len ? -1 : 0;
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
