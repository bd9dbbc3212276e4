/*
 * ldlws — see include/ldlws.h for why this layer exists.  Keep it free of policy: no routing,
 * no limits, no JSON; those are Swift's job.
 */
#include "ldlws.h"
#include "ldlws_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* No idle policy in lws: a zeroed one (not NULL, which would mean lws' 300/310 s default) arms
 * no per-connection validity timer.  lws inserts each such timer by walking its one sorted timer
 * list from the head, O(connections) per join and per pong; the Swift side pings idle WebSockets
 * and lets silent ones go itself, in O(1) (IdleTracker, issue 17).  lws keeps the pointer for the
 * context's lifetime: static. */
static const lws_retry_bo_t no_idle_policy;

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
    free(s->older_subprotocol);
    free(s->cert);
    free(s->key);
    free(s->security_headers);
    free(s);
}

ldlws_server *ldlws_create(const ldlws_config *cfg) {
    struct lws_context_creation_info info;
    ldlws_server *s = calloc(1, sizeof(*s));
    if (!s) return NULL;

    s->iface = dup_or_null(cfg->iface);
    s->subprotocol = dup_or_null(cfg->subprotocol);
    s->older_subprotocol = dup_or_null(cfg->older_subprotocol);
    s->cert = dup_or_null(cfg->tls_cert_path);
    s->key = dup_or_null(cfg->tls_key_path);
    s->security_headers = dup_or_null(cfg->security_headers);
    /* A failed copy must not silently widen the bind (NULL iface = all interfaces) or drop TLS
     * or the security headers. */
    if ((cfg->iface && !s->iface) || (cfg->subprotocol && !s->subprotocol) ||
        (cfg->older_subprotocol && !s->older_subprotocol) ||
        (cfg->tls_cert_path && !s->cert) || (cfg->tls_key_path && !s->key) ||
        (cfg->security_headers && (!s->security_headers || strlen(s->security_headers) > 1024))) {
        free_server(s);
        return NULL;
    }

    /* protocols[0] is the vhost default: it gets plain HTTP and every ws upgrade that names no
     * subprotocol.  protocols[1] (and [2], an older version still served) are the named
     * subprotocols, so lws echoes the one it chose (the client's first offer it knows).
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
    if (s->older_subprotocol) {
        s->protocols[2] = s->protocols[0];
        s->protocols[2].name = s->older_subprotocol;
    }

    memset(&info, 0, sizeof(info));
    info.port = cfg->port;
    info.iface = s->iface;
    info.protocols = s->protocols;
    /* The context's user is this server, so responses find its security headers; the caller's
     * pointer is one step further (ldlws_user). Set before lws_create_context, which already
     * calls back. */
    s->user = cfg->user;
    info.user = s;
    info.count_threads = 1;          /* one service thread owns everything */
    info.timeout_secs = cfg->timeout_secs;
    info.retry_and_idle_policy = &no_idle_policy;
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
    info.options = (s->security_headers ? 0 : LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE) |
                   LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (cfg->ipv4_only) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    if (s->cert && s->key) {
        info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        info.ssl_cert_filepath = s->cert;
        info.ssl_private_key_filepath = s->key;
    }

    if (ldlws_loop_prepare(s, cfg->event_loop, &info)) {
        free_server(s);
        return NULL;
    }
    s->context = lws_create_context(&info);
    if (!s->context) {
        ldlws_loop_free(s);
        free_server(s);
        return NULL;
    }
    ldlws_loop_started(s);
    s->vhost = lws_get_vhost_by_name(s->context, "default");
    return s;
}

void ldlws_destroy(ldlws_server *s) {
    if (!s) return;
    lws_context_destroy(s->context);
    ldlws_loop_free(s);
    free_server(s);
}

int ldlws_port(const ldlws_server *s) {
    if (s->adopt_only) return s->external_port;
    return s->vhost ? lws_get_vhost_listen_port(s->vhost) : -1;
}

int ldlws_service(ldlws_server *s) {
    if (s->loop_kind != LDLWS_LOOP_POLL) return ldlws_loop_turn(s);
    return lws_service(s->context, 0);
}

void ldlws_cancel_service(ldlws_server *s) { lws_cancel_service(s->context); }

void *ldlws_user(struct lws *wsi) {
    ldlws_server *s = lws_context_user(lws_get_context(wsi));
    return s ? s->user : NULL;
}

const char *ldlws_protocol_name(struct lws *wsi) {
    const struct lws_protocols *p = lws_get_protocol(wsi);
    return p && p->name ? p->name : "";
}

const char *ldlws_security_headers(struct lws *wsi) {
    ldlws_server *s = lws_context_user(lws_get_context(wsi));
    return s ? s->security_headers : NULL;
}

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

/* ldlws_set_log_level: ldlws_log.c.  WebSocket: ldlws_ws.c.  HTTP and peers: ldlws_http.c. */

/* Event loops and timers: ldlws_loop.c. */
