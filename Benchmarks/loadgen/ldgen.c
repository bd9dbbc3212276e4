/* ldgen: live-draw's own WebSocket fan-out load generator (libc only, one epoll thread).
 *
 * Opens N client connections to ws://HOST:PORT/PATH (room i % K when --path has a %d), runs a
 * trigger command once all handshakes are done (or first, with --trigger-first), then measures every
 * message that contains --match: delivery latency = receipt wall clock - the JSON number --ts-field
 * (epoch ms), the spread of receipt times across clients per (room, round), and loss against
 * --expect. With --server-pid it also samples the server's RSS and CPU (RSS --settle-ms after the
 * last handshake, CPU from then to the end). Prints one JSON object.
 *
 * With --gap-ms G it also measures the gaps viewers see: for each client, the time between
 * consecutive steps of the draw (`started`, each `round`, `finished`), on receipt and by the
 * server's own stamps (startedAt, sentAt, finishedAt), against G. A client is then done at
 * `finished`. --gaps-out FILE writes one line per gap: "receipt_gap_ms stamp_gap_ms k" (k = 1 for
 * started -> round 1, ..., the last for the last round -> finished), and the receipt time of each
 * `started` as "started T".
 *
 * --start-keys FILE starts the draws itself instead of a trigger command: line j is the host key
 * of room j, and once every client is connected the first client of each room sends
 * {"type":"start","hostKey":...} (a masked text frame), the rooms spread evenly over
 * --start-spread-ms. Cheap enough not to disturb the timing it measures, unlike a swarm of curls.
 * --extra-path PATH adds one client in a room of its own (say /ws/lobby), the last room index.
 *
 * Two nodes (cluster scenario): --port2 P2 sends every odd-numbered client to P2 instead of
 * --port, and the output adds the latency percentiles per port (lat_p99_ms_port1/2).
 * --server-pid takes a comma-separated list (up to 8): RSS and CPU are summed over them, and
 * server_cpu_each_s lists each one's CPU. --aux-pid PID (say redis-server) is sampled over the
 * same window but reported apart, as aux_cpu_s.
 *
 * --tls speaks wss (issue 29): OpenSSL, non-blocking, the TLS handshake between the TCP connect
 * and the WebSocket upgrade; the certificate is not verified (the bench's own, self-signed). Each
 * client makes a full handshake: session resumption is off (no ticket or session cache) unless
 * --tls-resume, which offers every client after the first the first client's session. The
 * output states what was negotiated (tls_version, tls_cipher, tls_group) and how long the TLS
 * handshakes took (tls_hs_p50_ms / p99: from connect() to the TLS Finished, queueing included).
 * --tls-ciphers / --tls-ciphersuites narrow the offer (TLS 1.2 list / TLS 1.3 suites).
 *
 * Deliberately small: RFC 6455 client handshake (status 101 checked), unmasked server frames with
 * 7/16/64-bit lengths, fragmentation, ping -> masked pong, close. No extensions.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

enum { ST_CONNECTING, ST_TLS, ST_HANDSHAKE, ST_OPEN, ST_DONE, ST_FAILED };
#define MAX_ROUNDS 64

typedef struct {
    int fd, state, room, got, first_checked, grp;   /* grp 1: connected to --port2 */
    double last_step, last_stamp;    /* --gap-ms: receipt time and server stamp of the last step */
    int steps;                       /* --gap-ms: gaps seen so far (1: started -> round 1) */
    char *buf; size_t len, cap;      /* unparsed bytes (handshake or frames) */
    char *msg; size_t mlen, mcap;    /* fragmented message being assembled */
    SSL *ssl;                        /* --tls: the client's session, NULL on plain ws */
    double t_connect;                /* --tls: when connect() was called (for tls_hs_*_ms) */
} client_t;

static const char *host = "127.0.0.1", *path = "/ws/r", *match = "\"type\":\"round\"";
static const char *ts_field = "sentAt", *round_field = "round", *trigger = NULL, *first_type = NULL;
static const char *subprotocol = NULL;
static int port = 0, nclients = 1000, expect = 10, rooms = 1, inflight = 1000, timeout_s = 60;
static int trigger_first = 0, trigger_delay_ms = 0;
static int settle_ms = 200;  /* after the last handshake: then RSS is sampled and the trigger runs */
static double spin_us = 0;   /* keep polling without sleeping this long after the last event */
static double gap_ms = 0;    /* > 0: measure the gaps between a draw's steps against this */
static FILE *gaps_out;
static const char *extra_path = NULL;   /* one more client, in room index `rooms` */
static char **start_keys; static int nstart_keys;
static double start_spread_ms = 0;
static long server_pid = 0;   /* the first of server_pids: nonzero when any is given */
static long server_pids[8]; static int nserver_pids;
static long aux_pid = 0;
static int port2 = 0;
/* --tls (see the top of the file) */
static int use_tls = 0, tls_resume = 0, ntls_resumed = 0;
static const char *tls_ciphers = NULL, *tls_ciphersuites = NULL;
static SSL_CTX *tls_ctx;
static SSL_SESSION *tls_session;     /* --tls-resume: the session later clients offer */
static char tls_version[32], tls_cipher[64], tls_group[32];
static float *tls_hs; static size_t ntls_hs;   /* per client: connect() -> TLS Finished, ms */

static client_t *cl;
static int epfd, nopen, nfailed, ndone_expect, nfirst_ok, nfirst_bad, nclosed_early;
static long long nmatched, nother, nother_window;
static int in_window;   /* set once all clients are connected (the server-CPU window) */
static float *lat; static size_t nlat, latcap;
static float *latg[2]; static size_t nlatg[2], latgcap[2];   /* the same samples, by port */
static double *rmin, *rmax;      /* per (room, round) receipt extremes */
static double rsum[MAX_ROUNDS], rlmax[MAX_ROUNDS]; static long rcnt[MAX_ROUNDS]; /* per-round latency */

static double now_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static double mono_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static void append(char **b, size_t *len, size_t *cap, const char *src, size_t n) {
    if (*len + n > *cap) {
        size_t c = *cap ? *cap : 512;
        while (c < *len + n) c *= 2;
        char *p = realloc(*b, c);
        if (!p) { perror("realloc"); exit(2); }
        *b = p; *cap = c;
    }
    memcpy(*b + *len, src, n); *len += n;
}

/* Writes n bytes of c's output, through its TLS session under --tls. The generator's writes are
 * small (the upgrade request, a pong, a start) and the socket's buffer is empty then, so a short
 * write is treated as a failure by the callers, as it always was on plain sockets. */
static ssize_t cwrite(client_t *c, const void *b, size_t n) {
    if (!c->ssl) return write(c->fd, b, n);
    ERR_clear_error();
    int w = SSL_write(c->ssl, b, (int)n);
    return w > 0 ? w : -1;
}

static void room_name(int room, char *out, size_t n) {
    if (extra_path && room == rooms) snprintf(out, n, "%s", extra_path);
    else snprintf(out, n, path, room);
}

/* Sends {"type":"start","hostKey":KEY} from c, masked as a client must. */
static void send_start(client_t *c, const char *key) {
    char payload[200]; unsigned char f[2 + 4 + 200];
    int n = snprintf(payload, sizeof payload, "{\"type\":\"start\",\"hostKey\":\"%s\"}", key);
    if (n <= 0 || n > 125) return;
    unsigned char mask[4] = {0x5a, 0xc3, 0x17, 0x88};
    f[0] = 0x81; f[1] = 0x80 | (unsigned char)n; memcpy(f + 2, mask, 4);
    for (int i = 0; i < n; i++) f[6 + i] = (unsigned char)payload[i] ^ mask[i & 3];
    ssize_t w = cwrite(c, f, 6 + n); (void)w;
}

static void read_keys(const char *file) {
    FILE *f = fopen(file, "r"); if (!f) { perror(file); exit(2); }
    char line[256];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, " \r\n")] = 0;
        if (!line[0]) continue;
        start_keys = realloc(start_keys, sizeof *start_keys * (nstart_keys + 1));
        start_keys[nstart_keys++] = strdup(line);
    }
    fclose(f);
}

static void fail(client_t *c) {
    if (c->state == ST_FAILED || c->state == ST_DONE) return;
    if (c->state == ST_OPEN) nclosed_early++; else nfailed++;
    c->state = ST_FAILED;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    if (c->ssl) { SSL_free(c->ssl); c->ssl = NULL; }
    close(c->fd);
}

/* Find "field": and parse the number after it; NAN-free: returns 0 on success. */
static int json_num(const char *m, size_t n, const char *field, double *out) {
    char key[96]; int kl = snprintf(key, sizeof key, "\"%s\":", field);
    const char *p = memmem(m, n, key, kl);
    if (!p) return -1;
    p += kl;
    while (p < m + n && *p == ' ') p++;
    char tmp[48]; size_t i = 0;
    while (p + i < m + n && i < sizeof tmp - 1 && strchr("0123456789.-+eE", p[i])) { tmp[i] = p[i]; i++; }
    if (!i) return -1;
    tmp[i] = 0; *out = strtod(tmp, NULL);
    return 0;
}

/* --gap-ms: one step of a draw (`started`, `round` or `finished`) reached client c at t. */
static void on_step(client_t *c, const char *m, size_t n, double t) {
    static const char *steps[][2] = {{"\"type\":\"started\"", "startedAt"}, {"\"type\":\"round\"", "sentAt"},
                                     {"\"type\":\"finished\"", "finishedAt"}};
    for (int k = 0; k < 3; k++) {
        if (!memmem(m, n, steps[k][0], strlen(steps[k][0]))) continue;
        double stamp = 0;
        json_num(m, n, steps[k][1], &stamp);
        if (k == 0) { if (gaps_out) fprintf(gaps_out, "started %.3f\n", t); }
        else if (c->last_step > 0 && gaps_out)
            fprintf(gaps_out, "%.3f %.3f %d\n", t - c->last_step, stamp - c->last_stamp, ++c->steps);
        c->last_step = t; c->last_stamp = stamp;
        if (k == 2 && c->state == ST_OPEN) { ndone_expect++; c->state = ST_DONE; }
        return;
    }
}

static void on_message(client_t *c, const char *m, size_t n, double t) {
    if (!c->first_checked) {
        c->first_checked = 1;
        if (first_type) {
            char want[160], rn[160], pth[128];
            snprintf(want, sizeof want, "\"type\":\"%s\"", first_type);
            room_name(c->room, pth, sizeof pth);
            const char *slash = strrchr(pth, '/');
            snprintf(rn, sizeof rn, "\"room\":\"%s\"", slash ? slash + 1 : pth);
            if (memmem(m, n, want, strlen(want)) && memmem(m, n, rn, strlen(rn))) nfirst_ok++; else nfirst_bad++;
        }
    }
    if (gap_ms > 0) on_step(c, m, n, t);
    if (!memmem(m, n, match, strlen(match))) { nother++; if (in_window) nother_window++; return; }
    nmatched++;
    double ts, rnd;
    int have_ts = json_num(m, n, ts_field, &ts) == 0;
    if (have_ts) {
        if (nlat == latcap) { latcap = latcap ? latcap * 2 : 65536; lat = realloc(lat, latcap * sizeof *lat); }
        lat[nlat++] = (float)(t - ts);
        if (port2) {
            int g = c->grp;
            if (nlatg[g] == latgcap[g]) {
                latgcap[g] = latgcap[g] ? latgcap[g] * 2 : 65536;
                latg[g] = realloc(latg[g], latgcap[g] * sizeof *latg[g]);
            }
            latg[g][nlatg[g]++] = (float)(t - ts);
        }
    }
    if (json_num(m, n, round_field, &rnd) == 0 && rnd >= 1 && rnd <= MAX_ROUNDS) {
        int ri = (int)rnd - 1;
        if (have_ts) { rsum[ri] += t - ts; rcnt[ri]++; if (t - ts > rlmax[ri]) rlmax[ri] = t - ts; }
        size_t k = (size_t)c->room * MAX_ROUNDS + (size_t)rnd - 1;
        if (rmin[k] == 0 || t < rmin[k]) rmin[k] = t;
        if (t > rmax[k]) rmax[k] = t;
    }
    if (++c->got == expect && gap_ms <= 0) {
        ndone_expect++;
        c->state = ST_DONE;               /* keep the socket open: closing would disturb the others */
    }
}

static void send_pong(client_t *c, const unsigned char *pl, size_t n) {
    unsigned char f[2 + 4 + 125]; if (n > 125) n = 125;
    f[0] = 0x8A; f[1] = 0x80 | (unsigned char)n; memset(f + 2, 0, 4); /* zero mask key */
    memcpy(f + 6, pl, n);
    ssize_t w = cwrite(c, f, 6 + n); (void)w;
}

static void parse_frames(client_t *c, double t) {
    size_t off = 0;
    while (c->len - off >= 2) {
        unsigned char *p = (unsigned char *)c->buf + off;
        int fin = p[0] & 0x80, op = p[0] & 0x0f, masked = p[1] & 0x80;
        uint64_t pl = p[1] & 0x7f; size_t hl = 2;
        if (pl == 126) { if (c->len - off < 4) break; pl = (p[2] << 8) | p[3]; hl = 4; }
        else if (pl == 127) {
            if (c->len - off < 10) break;
            pl = 0; for (int i = 0; i < 8; i++) pl = (pl << 8) | p[2 + i];
            hl = 10;
        }
        if (masked) hl += 4;
        if (c->len - off < hl + pl) break;
        unsigned char *d = p + hl;
        if (op == 0x8) { fail(c); return; }
        else if (op == 0x9) send_pong(c, d, pl);
        else if (op == 0x1 || op == 0x2 || op == 0x0) {
            if (fin && op != 0 && c->mlen == 0) on_message(c, (char *)d, pl, t);
            else {
                append(&c->msg, &c->mlen, &c->mcap, (char *)d, pl);
                if (fin) { on_message(c, c->msg, c->mlen, t); c->mlen = 0; }
            }
        }
        off += hl + pl;
        if (c->state == ST_FAILED) return;
    }
    if (off) { memmove(c->buf, c->buf + off, c->len - off); c->len -= off; }
}

static void start_connect(int i) {
    client_t *c = &cl[i];
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) { perror("socket"); c->state = ST_FAILED; nfailed++; return; }
    int one = 1; setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(c->grp ? port2 : port) };
    inet_pton(AF_INET, host, &a.sin_addr);
    c->state = ST_CONNECTING;
    c->t_connect = mono_ms();
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) {
        close(c->fd); c->state = ST_FAILED; nfailed++; return;
    }
    struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN, .data.u32 = (uint32_t)i };
    epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev);
}

static void send_handshake(int i) {
    client_t *c = &cl[i];
    char rp[128], req[512];
    room_name(c->room, rp, sizeof rp);
    int n = snprintf(req, sizeof req,
        "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: bGl2ZS1kcmF3LWJlbmNoIQ==\r\nSec-WebSocket-Version: 13\r\n%s%s%s\r\n",
        rp, host, c->grp ? port2 : port, subprotocol ? "Sec-WebSocket-Protocol: " : "", subprotocol ? subprotocol : "",
        subprotocol ? "\r\n" : "");
    if (cwrite(c, req, n) != n) { fail(c); return; }
    c->state = ST_HANDSHAKE;
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* --tls: a new session (TLS 1.3 sends it after the handshake); the first one is kept for
 * --tls-resume. Returns 1: the session is ours to keep (OpenSSL's reference is taken). */
static int on_new_session(SSL *ssl, SSL_SESSION *sess) {
    (void)ssl;
    if (tls_session || !tls_resume) return 0;
    tls_session = sess;
    return 1;
}

static void tls_setup(void) {
    tls_ctx = SSL_CTX_new(TLS_client_method());
    if (!tls_ctx) { fprintf(stderr, "ldgen: SSL_CTX_new failed\n"); exit(2); }
    SSL_CTX_set_verify(tls_ctx, SSL_VERIFY_NONE, NULL);  /* the bench's self-signed certificate */
    /* The generator holds 10,000 sessions: their idle buffers go back between messages. */
    SSL_CTX_set_mode(tls_ctx, SSL_MODE_RELEASE_BUFFERS);
    if (tls_resume) {
        SSL_CTX_set_session_cache_mode(tls_ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
        SSL_CTX_sess_set_new_cb(tls_ctx, on_new_session);
    } else {
        /* Every client a full handshake: no ticket asked for, nothing cached or offered. */
        SSL_CTX_set_session_cache_mode(tls_ctx, SSL_SESS_CACHE_OFF);
        SSL_CTX_set_options(tls_ctx, SSL_OP_NO_TICKET);
    }
    if ((tls_ciphers && !SSL_CTX_set_cipher_list(tls_ctx, tls_ciphers)) ||
        (tls_ciphersuites && !SSL_CTX_set_ciphersuites(tls_ctx, tls_ciphersuites))) {
        fprintf(stderr, "ldgen: unknown --tls-ciphers / --tls-ciphersuites\n"); exit(2);
    }
}

static void want_events(client_t *c, int i, uint32_t ev) {
    struct epoll_event e = { .events = ev, .data.u32 = (uint32_t)i };
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &e);
}

/* --tls: one step of the client's TLS handshake; once it is done, the WebSocket upgrade. */
static void tls_step(int i) {
    client_t *c = &cl[i];
    ERR_clear_error();
    int r = SSL_do_handshake(c->ssl);
    if (r == 1) {
        if (!tls_version[0]) {
            int nid = SSL_get_negotiated_group(c->ssl);
            snprintf(tls_version, sizeof tls_version, "%s", SSL_get_version(c->ssl));
            snprintf(tls_cipher, sizeof tls_cipher, "%s", SSL_get_cipher_name(c->ssl));
            snprintf(tls_group, sizeof tls_group, "%s", nid > 0 ? OBJ_nid2sn(nid) : "?");
        }
        if (SSL_session_reused(c->ssl)) ntls_resumed++;
        tls_hs[ntls_hs++] = (float)(mono_ms() - c->t_connect);
        send_handshake(i);
        return;
    }
    switch (SSL_get_error(c->ssl, r)) {
    case SSL_ERROR_WANT_READ: want_events(c, i, EPOLLIN); return;
    case SSL_ERROR_WANT_WRITE: want_events(c, i, EPOLLIN | EPOLLOUT); return;
    default: fail(c); return;
    }
}

/* The TCP connect finished: the TLS handshake next, or the upgrade right away on plain ws. */
static void on_connected(int i) {
    client_t *c = &cl[i];
    int err = 0; socklen_t el = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el);
    if (err) { fail(c); return; }
    if (!use_tls) { send_handshake(i); return; }
    c->ssl = SSL_new(tls_ctx);
    if (!c->ssl || !SSL_set_fd(c->ssl, c->fd)) { fail(c); return; }
    SSL_set_connect_state(c->ssl);
    SSL_set_tlsext_host_name(c->ssl, "localhost");
    if (tls_resume && tls_session) SSL_set_session(c->ssl, tls_session);
    c->state = ST_TLS;
    tls_step(i);
}

/* Reads what is there: plain, or decrypted through the client's TLS session. > 0 bytes, 0 end of
 * input, -1 nothing now, -2 error. */
static ssize_t cread(client_t *c, char *b, size_t n) {
    if (!c->ssl) {
        ssize_t r = read(c->fd, b, n);
        if (r < 0) return (errno == EAGAIN || errno == EINTR) ? -1 : -2;
        return r;
    }
    ERR_clear_error();
    int r = SSL_read(c->ssl, b, (int)n);
    if (r > 0) return r;
    switch (SSL_get_error(c->ssl, r)) {
    case SSL_ERROR_WANT_READ: case SSL_ERROR_WANT_WRITE: return -1;
    case SSL_ERROR_ZERO_RETURN: return 0;
    default: return -2;
    }
}

static void on_readable(int i) {
    client_t *c = &cl[i];
    static char rb[1 << 16];
    for (int loops = 0; loops < 64; loops++) {
        ssize_t r = cread(c, rb, sizeof rb);
        if (r == -1) return;
        if (r <= 0) { fail(c); return; }
        double t = now_ms();
        append(&c->buf, &c->len, &c->cap, rb, (size_t)r);
        if (c->state == ST_HANDSHAKE) {
            char *e = memmem(c->buf, c->len, "\r\n\r\n", 4);
            if (!e) continue;
            if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 101", 12)) { fail(c); return; }
            size_t hl = (size_t)(e + 4 - c->buf);
            memmove(c->buf, c->buf + hl, c->len - hl); c->len -= hl;
            c->state = ST_OPEN; nopen++;
        }
        parse_frames(c, t);
        if (c->state == ST_FAILED) return;
        /* A short plain read emptied the socket; SSL_read returns one record at a time, so
         * under TLS read on until it wants more input. */
        if (!c->ssl && (size_t)r < sizeof rb) return;
    }
}

static long proc_rss_kib(long pid) {
    char p[64], line[256]; long v = -1;
    snprintf(p, sizeof p, "/proc/%ld/status", pid);
    FILE *f = fopen(p, "r"); if (!f) return -1;
    while (fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) v = atol(line + 6);
    fclose(f); return v;
}
/* Server CPU seconds: the sum of every thread's on-CPU time from /proc/PID/task/TID/schedstat
 * (nanoseconds), finer than the 10 ms ticks of /proc/PID/stat; falls back to stat if unreadable. */
static double proc_cpu_s(long pid) {
    char p[320], b[2048];
    snprintf(p, sizeof p, "/proc/%ld/task", pid);
    DIR *d = opendir(p);
    if (d) {
        struct dirent *e; double ns = 0; int ok = 0;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            snprintf(p, sizeof p, "/proc/%ld/task/%s/schedstat", pid, e->d_name);
            FILE *f = fopen(p, "r"); if (!f) continue;
            unsigned long long run = 0;
            if (fscanf(f, "%llu", &run) == 1) { ns += (double)run; ok = 1; }
            fclose(f);
        }
        closedir(d);
        if (ok) return ns / 1e9;
    }
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    FILE *f = fopen(p, "r"); if (!f) return -1;
    size_t n = fread(b, 1, sizeof b - 1, f); fclose(f); b[n] = 0;
    char *s = strrchr(b, ')'); if (!s) return -1;
    unsigned long ut = 0, st = 0;
    sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st);
    return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}
/* Sums over --server-pid's list (each -1 if unreadable is skipped). */
static long servers_rss_kib(void) {
    long sum = 0; for (int k = 0; k < nserver_pids; k++) { long v = proc_rss_kib(server_pids[k]); if (v > 0) sum += v; }
    return nserver_pids ? sum : -1;
}
static double servers_cpu_s(double *each) {
    double sum = 0;
    for (int k = 0; k < nserver_pids; k++) { each[k] = proc_cpu_s(server_pids[k]); if (each[k] > 0) sum += each[k]; }
    return sum;
}
static void parse_pids(const char *v) {
    char buf[256]; snprintf(buf, sizeof buf, "%s", v);
    for (char *tok = strtok(buf, ","); tok && nserver_pids < 8; tok = strtok(NULL, ","))
        server_pids[nserver_pids++] = atol(tok);
    server_pid = nserver_pids ? server_pids[0] : 0;
}
static double self_cpu_s(void) {
    struct rusage ru; getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static pid_t run_trigger(void) {
    if (!trigger) return 0;
    pid_t p = fork();
    if (p == 0) {
        int dn = open("/dev/null", O_WRONLY); if (dn >= 0) dup2(dn, 1);
        execl("/bin/sh", "sh", "-c", trigger, (char *)NULL); _exit(127);
    }
    return p;
}

static int cmpf(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double pct_f(float *v, size_t n, double q) { if (!n) return -1; size_t k = (size_t)(q * (n - 1) + 0.5); return v[k]; }
static double pct_d(double *v, size_t n, double q) { if (!n) return -1; size_t k = (size_t)(q * (n - 1) + 0.5); return v[k]; }

static void usage(void) {
    fprintf(stderr,
      "usage: ldgen --port P [--host 127.0.0.1] [--path /ws/r%%d --rooms K] [--clients N]\n"
      "  [--expect M] [--match STR] [--ts-field sentAt] [--round-field round] [--inflight 1000]\n"
      "  [--trigger-cmd CMD] [--trigger-first] [--trigger-delay-ms MS] [--settle-ms 200] [--first-type snapshot]\n"
      "  [--subprotocol NAME] [--server-pid PID[,PID...]] [--aux-pid PID] [--port2 P2] [--timeout S] [--spin-us US]\n"
      "  [--gap-ms G [--gaps-out FILE]] [--start-keys FILE [--start-spread-ms MS]] [--extra-path PATH]\n"
      "  [--tls [--tls-resume] [--tls-ciphers LIST] [--tls-ciphersuites LIST]]\n"
      "Latency = receipt wall clock - JSON --ts-field (epoch ms). Output: one JSON object on stdout.\n");
    exit(2);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i]; const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && ++i)
        if (OPT("--host")) host = v;
        else if (OPT("--port")) port = atoi(v);
        else if (OPT("--path")) path = v;
        else if (OPT("--rooms")) rooms = atoi(v);
        else if (OPT("--clients")) nclients = atoi(v);
        else if (OPT("--expect")) expect = atoi(v);
        else if (OPT("--match")) match = v;
        else if (OPT("--ts-field")) ts_field = v;
        else if (OPT("--round-field")) round_field = v;
        else if (OPT("--inflight")) inflight = atoi(v);
        else if (OPT("--trigger-cmd")) trigger = v;
        else if (!strcmp(a, "--trigger-first")) trigger_first = 1;
        else if (OPT("--trigger-delay-ms")) trigger_delay_ms = atoi(v);
        else if (OPT("--settle-ms")) settle_ms = atoi(v);
        else if (OPT("--first-type")) first_type = v;
        else if (OPT("--subprotocol")) subprotocol = v;
        else if (OPT("--server-pid")) parse_pids(v);
        else if (OPT("--aux-pid")) aux_pid = atol(v);
        else if (OPT("--port2")) port2 = atoi(v);
        else if (OPT("--timeout")) timeout_s = atoi(v);
        else if (OPT("--spin-us")) spin_us = atof(v);
        else if (OPT("--gap-ms")) gap_ms = atof(v);
        else if (OPT("--gaps-out")) { gaps_out = fopen(v, "w"); if (!gaps_out) { perror(v); return 2; } }
        else if (OPT("--start-keys")) read_keys(v);
        else if (OPT("--start-spread-ms")) start_spread_ms = atof(v);
        else if (OPT("--extra-path")) extra_path = v;
        else if (!strcmp(a, "--tls")) use_tls = 1;
        else if (!strcmp(a, "--tls-resume")) tls_resume = 1;
        else if (OPT("--tls-ciphers")) tls_ciphers = v;
        else if (OPT("--tls-ciphersuites")) tls_ciphersuites = v;
        else usage();
    }
    if (!port || nclients < 1 || rooms < 1) usage();
    int base_clients = nclients, all_rooms = rooms + (extra_path ? 1 : 0);
    if (extra_path) nclients++;
    if (start_keys && nstart_keys < all_rooms) {
        fprintf(stderr, "ldgen: %d start keys for %d rooms\n", nstart_keys, all_rooms);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl; getrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = rl.rlim_max; setrlimit(RLIMIT_NOFILE, &rl);
    if ((rlim_t)nclients + 64 > rl.rlim_cur) {
        fprintf(stderr, "ldgen: RLIMIT_NOFILE %lu too low for %d clients\n", (unsigned long)rl.rlim_cur, nclients);
        return 2;
    }
    if (use_tls) { tls_setup(); tls_hs = calloc(nclients, sizeof *tls_hs); }
    cl = calloc(nclients, sizeof *cl);
    rmin = calloc((size_t)all_rooms * MAX_ROUNDS, sizeof *rmin);
    rmax = calloc((size_t)all_rooms * MAX_ROUNDS, sizeof *rmax);
    for (int i = 0; i < nclients; i++) {
        cl[i].room = i < base_clients ? i % rooms : rooms, cl[i].fd = -1;
        cl[i].grp = port2 && (i & 1);
    }
    /* With --start-keys, room j's draw is started by its first client: j, or the extra one. */
    int next_start = start_keys ? 0 : all_rooms; double starts_at = 0, first_start = 0, last_start = 0;
    epfd = epoll_create1(EPOLL_CLOEXEC);

    long rss0 = servers_rss_kib();
    double scpu_each0[8] = {0}, scpu_each1[8] = {0}, aux0 = 0, aux1 = 0;
    double cpu_self0 = self_cpu_s(), cpu_self_win0 = 0;
    pid_t trig = 0; double trig_at = 0;
    if (trigger_first) {
        trig = run_trigger(); int st; waitpid(trig, &st, 0); trig = 0;
        if (trigger_delay_ms) usleep(trigger_delay_ms * 1000);
    }
    double t0 = mono_ms(), connected_at = 0, deadline = t0 + timeout_s * 1e3;
    int next = 0, triggered = trigger_first;
    long rss1 = -1; double scpu0 = 0, scpu1 = 0, tdone = 0;
    struct epoll_event evs[1024];
    double last_event = 0;
    for (;;) {
        int pending = next - nopen - nfailed - nclosed_early - 0;
        while (next < nclients && pending < inflight) { start_connect(next++); pending++; }
        if (!connected_at && next == nclients && nopen + nfailed + 0 >= nclients - 0 &&
            nopen + nfailed == nclients) {
            connected_at = mono_ms(); in_window = 1; cpu_self_win0 = self_cpu_s();
            if (server_pid) { usleep(settle_ms * 1000); rss1 = servers_rss_kib(); scpu0 = servers_cpu_s(scpu_each0); }
            if (aux_pid) aux0 = proc_cpu_s(aux_pid);
            if (!triggered) { trig = run_trigger(); trig_at = mono_ms(); triggered = 1; }
            starts_at = mono_ms();
            deadline = mono_ms() + timeout_s * 1e3;
        }
        if (connected_at && ndone_expect >= nopen - nclosed_early) { tdone = mono_ms(); break; }
        if (connected_at && ndone_expect + nclosed_early >= nopen) { tdone = mono_ms(); break; }
        if (mono_ms() > deadline) { tdone = mono_ms(); break; }
        /* Sleeping in epoll_wait makes every loopback send wake us up, and that wake-up is charged
         * to the sending server. With --spin-us we poll (timeout 0) for a while after each event,
         * as a client machine with its own cores would be awake anyway. */
        double tnow = mono_ms();
        int wait_ms = (spin_us > 0 && tnow - last_event < spin_us / 1e3) ? 0 : 20;
        while (connected_at && next_start < all_rooms) {
            double due = starts_at + (all_rooms > 1 ? start_spread_ms * next_start / (all_rooms - 1) : 0);
            if (tnow < due) { if (due - tnow < wait_ms) wait_ms = (int)(due - tnow); break; }
            int who = next_start < rooms ? next_start : nclients - 1;
            if (cl[who].state == ST_OPEN || cl[who].state == ST_DONE) send_start(&cl[who], start_keys[next_start]);
            if (!first_start) first_start = tnow;
            last_start = tnow;
            next_start++;
        }
        int n = epoll_wait(epfd, evs, 1024, wait_ms);
        if (n > 0) last_event = mono_ms();
        for (int k = 0; k < n; k++) {
            int i = (int)evs[k].data.u32; client_t *c = &cl[i];
            if (c->state == ST_FAILED) continue;
            if (c->state == ST_CONNECTING) {
                if (evs[k].events & (EPOLLERR | EPOLLHUP)) { fail(c); continue; }
                on_connected(i); continue;
            }
            if (c->state == ST_TLS) { tls_step(i); continue; }
            if (evs[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) on_readable(i);
        }
    }
    if (server_pid) scpu1 = servers_cpu_s(scpu_each1);
    if (aux_pid) aux1 = proc_cpu_s(aux_pid);
    double cpu_self = self_cpu_s() - cpu_self0, cpu_self_win = connected_at ? self_cpu_s() - cpu_self_win0 : -1;
    double win_ms = connected_at ? tdone - connected_at : -1;
    if (trig) { int st; waitpid(trig, &st, 0); }

    qsort(lat, nlat, sizeof *lat, cmpf);
    size_t nsp = 0; double *sp = malloc(sizeof(double) * (size_t)rooms * MAX_ROUNDS + 1);
    for (size_t k = 0; k < (size_t)rooms * MAX_ROUNDS; k++) if (rmax[k] > 0) sp[nsp++] = rmax[k] - rmin[k];
    qsort(sp, nsp, sizeof *sp, cmpd);
    long long want = (long long)nopen * expect;
    long long delivered = nmatched;
    printf("{\"clients\":%d,\"rooms\":%d,\"connected\":%d,\"failed_connects\":%d,\"closed_early\":%d,"
           "\"connect_ms\":%.1f,\"expected\":%lld,\"delivered\":%lld,\"lost\":%lld,\"other_msgs\":%lld,\"other_msgs_window\":%lld,"
           "\"lat_p50_ms\":%.2f,\"lat_p99_ms\":%.2f,\"lat_max_ms\":%.2f,"
           "\"spread_p50_ms\":%.2f,\"spread_max_ms\":%.2f,\"first_ok\":%d,\"first_bad\":%d,"
           "\"server_rss0_kib\":%ld,\"server_rss1_kib\":%ld,\"server_cpu_s\":%.3f,"
           "\"gen_cpu_s\":%.3f,\"gen_cpu_window_s\":%.3f,\"window_ms\":%.1f,\"run_ms\":%.1f,\"timed_out\":%s}\n",
           nclients, rooms, nopen, nfailed, nclosed_early,
           connected_at ? connected_at - t0 : -1.0, want, delivered, want > delivered ? want - delivered : 0, nother, nother_window,
           pct_f(lat, nlat, .5), pct_f(lat, nlat, .99), nlat ? lat[nlat - 1] : -1.0,
           pct_d(sp, nsp, .5), nsp ? sp[nsp - 1] : -1.0, nfirst_ok, nfirst_bad,
           rss0, rss1, server_pid ? scpu1 - scpu0 : -1.0,
           cpu_self, cpu_self_win, win_ms, tdone - t0, (ndone_expect + nclosed_early >= nopen && connected_at) ? "false" : "true");
    (void)trig_at;
    if (gaps_out) fclose(gaps_out);
    /* Per-round latency (mean/max over all clients), appended as a second JSON line. */
    printf("{\"round_lat_mean_ms\":[");
    for (int r = 0, first = 1; r < MAX_ROUNDS; r++) if (rcnt[r]) { printf("%s%.1f", first ? "" : ",", rsum[r] / rcnt[r]); first = 0; }
    printf("],\"round_lat_max_ms\":[");
    for (int r = 0, first = 1; r < MAX_ROUNDS; r++) if (rcnt[r]) { printf("%s%.1f", first ? "" : ",", rlmax[r]); first = 0; }
    printf("],\"starts_sent\":%d,\"starts_spread_ms\":%.1f", start_keys ? next_start : 0, last_start - first_start);
    printf(",\"server_cpu_each_s\":[");
    for (int k = 0; k < nserver_pids; k++) printf("%s%.3f", k ? "," : "", scpu_each1[k] - scpu_each0[k]);
    printf("],\"aux_cpu_s\":%.3f", aux_pid ? aux1 - aux0 : -1.0);
    if (use_tls) {
        qsort(tls_hs, ntls_hs, sizeof *tls_hs, cmpf);
        printf(",\"tls_version\":\"%s\",\"tls_cipher\":\"%s\",\"tls_group\":\"%s\",\"tls_handshakes\":%zu,"
               "\"tls_resumed\":%d,\"tls_hs_p50_ms\":%.2f,\"tls_hs_p99_ms\":%.2f",
               tls_version, tls_cipher, tls_group, ntls_hs, ntls_resumed, pct_f(tls_hs, ntls_hs, .5),
               pct_f(tls_hs, ntls_hs, .99));
    }
    if (port2) {
        for (int g = 0; g < 2; g++) {
            qsort(latg[g], nlatg[g], sizeof *latg[g], cmpf);
            printf(",\"lat_p50_ms_port%d\":%.2f,\"lat_p99_ms_port%d\":%.2f,\"lat_max_ms_port%d\":%.2f,\"delivered_port%d\":%zu",
                   g + 1, pct_f(latg[g], nlatg[g], .5), g + 1, pct_f(latg[g], nlatg[g], .99),
                   g + 1, nlatg[g] ? latg[g][nlatg[g] - 1] : -1.0, g + 1, nlatg[g]);
        }
    }
    printf("}\n");
    return 0;
}
