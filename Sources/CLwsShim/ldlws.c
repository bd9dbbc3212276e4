/*
 * ldlws — see include/ldlws.h for why this layer exists.  Keep it free of policy: no routing,
 * no limits, no JSON; those are Swift's job.
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

struct ldlws_server {
    struct lws_context *context;
    struct lws_vhost *vhost;
    /* lws keeps pointers into these for the context's lifetime, so they live here. */
    struct lws_protocols protocols[3];
    lws_retry_bo_t idle_policy;
    char *iface, *subprotocol, *cert, *key;
    int adopt_only, external_port;
};

struct ldlws_timer {
    lws_sorted_usec_list_t sul; /* lws links this into its sorted list: address must not move */
    struct lws_context *context;
    ldlws_timer_fn fn;
    void *owner;
};

static char *dup_or_null(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static void free_server(ldlws_server *s) {
    free(s->iface);
    free(s->subprotocol);
    free(s->cert);
    free(s->key);
    free(s);
}

ldlws_server *ldlws_create(const ldlws_config *cfg) {
    struct lws_context_creation_info info;
    ldlws_server *s = calloc(1, sizeof(*s));
    if (!s) return NULL;

    s->iface = dup_or_null(cfg->iface);
    s->subprotocol = dup_or_null(cfg->subprotocol);
    s->cert = dup_or_null(cfg->tls_cert_path);
    s->key = dup_or_null(cfg->tls_key_path);
    /* A failed copy must not silently widen the bind (NULL iface = all interfaces) or drop TLS. */
    if ((cfg->iface && !s->iface) || (cfg->subprotocol && !s->subprotocol) ||
        (cfg->tls_cert_path && !s->cert) || (cfg->tls_key_path && !s->key)) {
        free_server(s);
        return NULL;
    }

    /* protocols[0] is the vhost default: it gets plain HTTP and every ws upgrade that names no
     * subprotocol.  protocols[1] is the named subprotocol, so lws echoes it when offered.
     * rx_buffer_size is what lws mallocs per ws connection for receiving (0 = 4096); the Swift
     * side reads WebSocket input itself, so the caller keeps it tiny. */
    s->protocols[0].name = "http";
    s->protocols[0].callback = cfg->callback;
    s->protocols[0].per_session_data_size = sizeof(ldlws_session);
    s->protocols[0].rx_buffer_size = cfg->rx_buffer_size;
    /* Must be set with it: a tx_packet_size of 0 makes lws cut every send() to rx_buffer_size,
     * so a small receive buffer would split each bigger message into many sends and leave the
     * rest buffered until the socket is writeable again (measured: `started` then delayed every
     * round behind it with 10,000 viewers). */
    s->protocols[0].tx_packet_size = cfg->tx_packet_size;
    s->protocols[1] = s->protocols[0];
    s->protocols[1].name = s->subprotocol ? s->subprotocol : "live-draw.v1";

    /* Idle ws connections get a PING after idle_ping_secs and are dropped after
     * idle_timeout_secs without a valid frame (lws 4.1 replaced ws_ping_pong_interval). */
    s->idle_policy.secs_since_valid_ping = (uint16_t)cfg->idle_ping_secs;
    s->idle_policy.secs_since_valid_hangup = (uint16_t)cfg->idle_timeout_secs;

    memset(&info, 0, sizeof(info));
    info.port = cfg->port;
    info.iface = s->iface;
    info.protocols = s->protocols;
    info.user = cfg->user;
    info.count_threads = 1;          /* one service thread owns everything */
    info.timeout_secs = cfg->timeout_secs;
    info.retry_and_idle_policy = &s->idle_policy;
    info.server_string = "live-draw";
    info.alpn = "http/1.1";          /* keep ws on HTTP/1.1 framing, also under TLS */
    info.max_http_header_pool2 = cfg->header_tables;
    info.max_http_header_data = (unsigned short)(cfg->header_data_bytes > 65535 ? 65535 : cfg->header_data_bytes);
    if (cfg->adopt_only) {
        /* No listener of lws' own; TLS is still set up for the vhost (lws does that for every
         * port but CONTEXT_PORT_NO_LISTEN). */
        info.port = CONTEXT_PORT_NO_LISTEN_SERVER;
        info.iface = NULL;
        s->adopt_only = 1;
        s->external_port = cfg->port;
    }
    /* pt_serv_buf_size stays at lws' default (4096); tuning it is a later perf concern. */
    info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE |
                   LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (cfg->ipv4_only) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (s->cert && s->key) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = s->cert;
        info.ssl_private_key_filepath = s->key;
    }

    s->context = lws_create_context(&info);
    if (!s->context) {
        free_server(s);
        return NULL;
    }
    s->vhost = lws_get_vhost_by_name(s->context, "default");
    return s;
}

void ldlws_destroy(ldlws_server *s) {
    if (!s) return;
    lws_context_destroy(s->context);
    free_server(s);
}

int ldlws_port(const ldlws_server *s) {
    if (s->adopt_only) return s->external_port;
    return s->vhost ? lws_get_vhost_listen_port(s->vhost) : -1;
}

int ldlws_service(ldlws_server *s) { return lws_service(s->context, 0); }

void ldlws_cancel_service(ldlws_server *s) { lws_cancel_service(s->context); }

void *ldlws_user(struct lws *wsi) { return lws_context_user(lws_get_context(wsi)); }

struct lws *ldlws_adopt_file(ldlws_server *s, int fd) {
    lws_sock_file_fd_type desc;
    desc.filefd = fd;
    /* NULL protocol name: the vhost's default protocol, i.e. the one callback of the server. */
    return lws_adopt_descriptor_vhost(s->vhost, LWS_ADOPT_RAW_FILE_DESC, desc, NULL, NULL);
}

struct lws *ldlws_adopt_socket(ldlws_server *s, int fd, const unsigned char *bytes, size_t len) {
    if (!len) return lws_adopt_socket_vhost(s->vhost, fd);
    return lws_adopt_socket_vhost_readbuf(s->vhost, fd, (const char *)bytes, len);
}

/* ldlws_set_log_level: ldlws_log.c */

/* ---- WebSocket ---------------------------------------------------------------------------- */

size_t ldlws_pre(void) { return LWS_PRE; }

int ldlws_write_text(struct lws *wsi, unsigned char *payload, size_t len) {
    /* lws either sends everything or keeps the unsent tail in its own buffer (and then does not
     * call WRITEABLE again until it is flushed), so a short count here is a real failure. */
    int n = lws_write(wsi, payload, len, LWS_WRITE_TEXT);
    return n < (int)len ? -1 : 0;
}

void ldlws_request_writable(struct lws *wsi) { lws_callback_on_writable(wsi); }

void ldlws_close_deadline(struct lws *wsi, int secs) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, secs);
}

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

void ldlws_validity_confirmed(struct lws *wsi) { lws_validity_confirmed(wsi); }

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
    int n = lws_write(wsi, buf + LWS_PRE, len,
                      kind == LDLWS_CONTROL_PONG ? LWS_WRITE_PONG : LDLWS_WRITE_CLOSE);
    return n < (int)len ? -1 : 0;
}

/* ---- HTTP --------------------------------------------------------------------------------- */

ldlws_method ldlws_http_method(struct lws *wsi) {
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI)) return LDLWS_METHOD_GET;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI)) return LDLWS_METHOD_POST;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_PUT_URI)) return LDLWS_METHOD_PUT;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_PATCH_URI)) return LDLWS_METHOD_PATCH;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI)) return LDLWS_METHOD_DELETE;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_OPTIONS_URI)) return LDLWS_METHOD_OPTIONS;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI)) return LDLWS_METHOD_HEAD;
    return LDLWS_METHOD_OTHER;
}

int ldlws_uri(struct lws *wsi, char *buf, int len) {
    static const enum lws_token_indexes tokens[] = {
        WSI_TOKEN_GET_URI, WSI_TOKEN_POST_URI, WSI_TOKEN_PUT_URI, WSI_TOKEN_PATCH_URI,
        WSI_TOKEN_DELETE_URI, WSI_TOKEN_OPTIONS_URI, WSI_TOKEN_HEAD_URI,
    };
    for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++)
        if (lws_hdr_total_length(wsi, tokens[i])) return ldlws_header(wsi, tokens[i], buf, len);
    return -1;
}

int ldlws_header(struct lws *wsi, enum lws_token_indexes token, char *buf, int len) {
    int total = lws_hdr_total_length(wsi, token);
    if (total <= 0 || total >= len) return -1;
    return lws_hdr_copy(wsi, buf, len, token);
}

int ldlws_header_length(struct lws *wsi, enum lws_token_indexes token) {
    return lws_hdr_total_length(wsi, token);
}

int ldlws_uri_arg(struct lws *wsi, int index, char *buf, int len) {
    int n = lws_hdr_copy_fragment(wsi, buf, len, WSI_TOKEN_HTTP_URI_ARGS, index);
    if (n >= 0) return n;
    /* lws_hdr_copy_fragment says -1 both for "no such fragment" and "does not fit". */
    return lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index) > 0 ? -2 : -1;
}

/* Builds status line, lws' security headers, Content-Type, Content-Length, Cache-Control and the
 * body into one buffer and sends it with one lws_write. */
static int respond(struct lws *wsi, unsigned int status, const char *content_type,
                   const char *extra_name, const char *extra_value,
                   const unsigned char *body, size_t len, int refusing_upgrade, unsigned int flags) {
    /* Headers are at most ~1 KiB (lws' security headers are the bulk); the body follows them
     * in the same buffer so the whole response is one lws_write. */
    const size_t header_room = 2048;
    unsigned char *buf = malloc(LWS_PRE + header_room + len);
    if (!buf) return -1;
    unsigned char *start = buf + LWS_PRE, *p = start, *end = start + header_room;
    int rc = -1;

    if (lws_add_http_common_headers(wsi, status, content_type, (lws_filepos_t)len, &p, end)) goto out;
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-store", 8, &p, end)) goto out;
    if (extra_name && extra_value) {
        /* lws writes the name as given, so it needs its colon; 64 bytes is plenty for the
         * header names the server sends (a longer one fails the response rather than truncating). */
        char name[64];
        int n = snprintf(name, sizeof(name), "%s:", extra_name);
        if (n < 0 || (size_t)n >= sizeof(name)) goto out;
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)extra_value,
                                        (int)strlen(extra_value), &p, end)) goto out;
    }
    if (refusing_upgrade) {
        /* lws learns the request's HTTP version only after the upgrade decision, so its status
         * line says HTTP/1.0 here; a WebSocket handshake is always HTTP/1.1, and clients
         * (browsers, Python websockets) reject a 1.0 answer as malformed instead of reading the
         * status.  The connection is not reused after a refusal. */
        if (!memcmp(start, "HTTP/1.0 ", 9)) start[7] = '1';
        if (lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
                                         (const unsigned char *)"close", 5, &p, end)) goto out;
    }
    if ((flags & LDLWS_RESPOND_CLOSE) && !refusing_upgrade &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, (const unsigned char *)"close", 5, &p, end)) goto out;
    if (lws_finalize_http_header(wsi, &p, end)) goto out;
    if (flags & LDLWS_RESPOND_HEAD_ONLY) len = 0; /* Content-Length above still says the body's size */
    if (len) memcpy(p, body, len);
    p += len;
    {
        int total = lws_ptr_diff(p, start);
        rc = lws_write(wsi, start, (size_t)total, LWS_WRITE_HTTP_FINAL) == total ? 0 : -1;
    }
out:
    free(buf);
    return rc;
}

int ldlws_http_respond(struct lws *wsi, unsigned int status, const char *content_type,
                       const unsigned char *body, size_t len) {
    return respond(wsi, status, content_type, NULL, NULL, body, len, 0, 0);
}

int ldlws_http_respond_with_header(struct lws *wsi, unsigned int status, const char *content_type,
                                   const char *header_name, const char *header_value,
                                   const unsigned char *body, size_t len) {
    return respond(wsi, status, content_type, header_name, header_value, body, len, 0, 0);
}

int ldlws_http_respond_with(struct lws *wsi, unsigned int status, const char *content_type,
                            const char *header_name, const char *header_value,
                            const unsigned char *body, size_t len, unsigned int flags) {
    return respond(wsi, status, content_type, header_name, header_value, body, len, 0, flags);
}

int ldlws_http_refuse_upgrade(struct lws *wsi, unsigned int status, const char *content_type,
                              const unsigned char *body, size_t len) {
    return respond(wsi, status, content_type, NULL, NULL, body, len, 1, 0);
}

int ldlws_http_serve_file(struct lws *wsi, const char *path, const char *content_type) {
    return lws_serve_http_file(wsi, path, content_type, NULL, 0);
}

int ldlws_http_serve_file_with(struct lws *wsi, const char *path, const char *content_type, unsigned int flags) {
    /* lws copies these bytes among its headers as they are. */
    static const char close_header[] = "connection: close\x0d\x0a";
    if (flags & LDLWS_RESPOND_CLOSE)
        return lws_serve_http_file(wsi, path, content_type, close_header, (int)sizeof(close_header) - 1);
    return lws_serve_http_file(wsi, path, content_type, NULL, 0);
}

int ldlws_http_transaction_completed(struct lws *wsi) { return lws_http_transaction_completed(wsi); }

/* ---- peer --------------------------------------------------------------------------------- */

int ldlws_peer_address(struct lws *wsi, char *buf, int len) {
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    const void *addr;
    int family;
    struct lws *net = lws_get_network_wsi(wsi);
    int fd = net ? (int)lws_get_socket_fd(net) : -1;

    if (fd < 0 || len <= 0 || getpeername(fd, (struct sockaddr *)&ss, &sl) < 0) return -1;
    if (ss.ss_family == AF_INET) {
        family = AF_INET;
        addr = &((const struct sockaddr_in *)&ss)->sin_addr;
    } else if (ss.ss_family == AF_INET6) {
        const struct in6_addr *a6 = &((const struct sockaddr_in6 *)&ss)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a6)) {
            family = AF_INET;
            addr = &a6->s6_addr[12]; /* the IPv4 address is the last 4 bytes */
        } else {
            family = AF_INET6;
            addr = a6;
        }
    } else {
        return -1;
    }
    if (!inet_ntop(family, addr, buf, (socklen_t)len)) return -1;
    return (int)strlen(buf);
}

/* ---- timers ------------------------------------------------------------------------------- */

static void timer_fired(lws_sorted_usec_list_t *sul) {
    struct ldlws_timer *t = lws_container_of(sul, struct ldlws_timer, sul);
    t->fn(t->owner);
}

ldlws_timer *ldlws_timer_create(ldlws_server *server, ldlws_timer_fn fn, void *owner) {
    struct ldlws_timer *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    t->context = server->context;
    t->fn = fn;
    t->owner = owner;
    return t;
}

void ldlws_timer_schedule(ldlws_timer *t, int64_t delay_us) {
    lws_sul_schedule(t->context, 0, &t->sul, timer_fired, delay_us < 1 ? 1 : (lws_usec_t)delay_us);
}

void ldlws_timer_cancel(ldlws_timer *t) { lws_sul_cancel(&t->sul); }

void ldlws_timer_destroy(ldlws_timer *t) {
    if (!t) return;
    lws_sul_cancel(&t->sul);
    free(t);
}
