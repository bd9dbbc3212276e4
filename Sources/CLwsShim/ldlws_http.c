/*
 * ldlws — HTTP requests and responses, and the peer's address (see include/ldlws.h for why
 * this layer exists).  No policy here.
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

/* Copies complete header lines ("name: value\r\n"…) into a head being built; lws writes
 * HTTP/1 headers the same way (by_name is name, space, value, CRLF).  Nonzero: no room. */
static int add_lines(const char *lines, unsigned char **p, unsigned char *end) {
    size_t len = lines ? strlen(lines) : 0;
    if (!len) return 0;
    if (len + 2 >= (size_t)(end - *p)) return 1; /* keep room for the blank line */
    memcpy(*p, lines, len);
    *p += len;
    return 0;
}

/* Builds status line, lws' security headers, Content-Type, Content-Length, Cache-Control, the
 * caller's lines and the body into one buffer and sends it with one lws_write. */
static int respond(struct lws *wsi, unsigned int status, const char *content_type,
                   const char *extra_name, const char *extra_value, const char *cache_control,
                   const char *lines, const unsigned char *body, size_t len, int refusing_upgrade,
                   unsigned int flags) {
    /* Headers are at most ~1 KiB (lws' security headers are the bulk); the body follows them
     * in the same buffer so the whole response is one lws_write. */
    const size_t header_room = 2048;
    unsigned char *buf = malloc(LWS_PRE + header_room + len);
    if (!buf) return -1;
    unsigned char *start = buf + LWS_PRE, *p = start, *end = start + header_room;
    int rc = -1;

    if (lws_add_http_common_headers(wsi, status, content_type, (lws_filepos_t)len, &p, end)) goto out;
    if (add_lines(ldlws_security_headers(wsi), &p, end)) goto out;
    if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, (const unsigned char *)cache_control,
                                     (int)strlen(cache_control), &p, end)) goto out;
    if (add_lines(lines, &p, end)) goto out;
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

int ldlws_http_respond_with(struct lws *wsi, unsigned int status, const char *content_type,
                            const char *header_name, const char *header_value,
                            const unsigned char *body, size_t len, unsigned int flags) {
    return respond(wsi, status, content_type, header_name, header_value, "no-store", NULL, body, len, 0, flags);
}

int ldlws_http_respond_cacheable(struct lws *wsi, unsigned int status, const char *content_type,
                                 const char *cache_control, const char *lines,
                                 const unsigned char *body, size_t len, unsigned int flags) {
    return respond(wsi, status, content_type, NULL, NULL, cache_control, lines, body, len, 0, flags);
}

int ldlws_http_refuse_upgrade(struct lws *wsi, unsigned int status, const char *content_type,
                              const unsigned char *body, size_t len) {
    return respond(wsi, status, content_type, NULL, NULL, "no-store", NULL, body, len, 1, 0);
}

int ldlws_http_serve_file_with(struct lws *wsi, const char *path, const char *content_type,
                               const char *headers, unsigned int flags) {
    /* lws copies these bytes among its headers as they are. */
    static const char close_header[] = "connection: close\x0d\x0a";
    const char *security = ldlws_security_headers(wsi);
    char lines[2048];
    int n = snprintf(lines, sizeof(lines), "%s%s%s", security ? security : "", headers ? headers : "",
                     (flags & LDLWS_RESPOND_CLOSE) ? close_header : "");
    if (n < 0 || (size_t)n >= sizeof(lines)) return -1;
    return lws_serve_http_file(wsi, path, content_type, n ? lines : NULL, n);
}

int ldlws_http_not_modified(struct lws *wsi, const char *headers, unsigned int flags) {
    unsigned char buf[LWS_PRE + 2048];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf);
    size_t len = headers ? strlen(headers) : 0;
    if (lws_add_http_header_status(wsi, 304, &p, end)) return -1;
    if (add_lines(ldlws_security_headers(wsi), &p, end)) return -1;
    if ((flags & LDLWS_RESPOND_CLOSE) &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, (const unsigned char *)"close", 5, &p, end)) return -1;
    /* The lines are complete ("name: value\r\n"): copied before the blank line that ends the head. */
    if (len >= (size_t)(end - p) - 2) return -1;
    if (len) memcpy(p, headers, len);
    p += len;
    if (lws_finalize_http_header(wsi, &p, end)) return -1;
    {
        int total = lws_ptr_diff(p, start);
        return lws_write(wsi, start, (size_t)total, LWS_WRITE_HTTP_FINAL) == total ? 0 : -1;
    }
}

int ldlws_http_transaction_completed(struct lws *wsi) { return lws_http_transaction_completed(wsi); }

void ldlws_set_timeout(struct lws *wsi, int secs) {
    lws_set_timeout(wsi, secs > 0 ? PENDING_TIMEOUT_USER_OK : NO_PENDING_TIMEOUT, secs > 0 ? secs : 0);
}

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
