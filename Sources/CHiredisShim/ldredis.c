// See include/ldredis.h for why these wrappers exist. None adds behaviour beyond converting
// milliseconds to a timeval and reaching fields Swift cannot name comfortably.
#define _GNU_SOURCE
#include "ldredis.h"
#include <pthread.h>
#include <sys/time.h>

static struct timeval ldredis_timeval(long ms) {
    if (ms < 0) ms = 0;
    struct timeval tv;
    tv.tv_sec = ms / 1000;
    tv.tv_usec = (ms % 1000) * 1000;
    return tv;
}

int ldredis_has_tls(void) {
    return 0;
}

redisContext *ldredis_connect(const char *host, int port, long connect_timeout_ms) {
    return redisConnectWithTimeout(host, port, ldredis_timeval(connect_timeout_ms));
}

int ldredis_set_timeout(redisContext *c, long timeout_ms) {
    return redisSetTimeout(c, ldredis_timeval(timeout_ms));
}

int ldredis_enable_keepalive(redisContext *c) {
    return redisEnableKeepAlive(c);
}

int ldredis_error(const redisContext *c) {
    return c->err;
}

const char *ldredis_errstr(const redisContext *c) {
    return c->errstr;
}

int ldredis_fd(const redisContext *c) {
    return c->fd;
}

redisReply *ldredis_command_argv(redisContext *c, int argc, const char **argv, const size_t *argvlen) {
    return (redisReply *)redisCommandArgv(c, argc, argv, argvlen);
}

int ldredis_append_argv(redisContext *c, int argc, const char **argv, const size_t *argvlen) {
    return redisAppendCommandArgv(c, argc, argv, argvlen);
}

int ldredis_flush(redisContext *c) {
    int done = 0;
    do {
        if (redisBufferWrite(c, &done) == REDIS_ERR) return REDIS_ERR;
    } while (!done);
    return REDIS_OK;
}

int ldredis_read(redisContext *c) {
    return redisBufferRead(c);
}

int ldredis_next_reply(redisContext *c, redisReply **reply) {
    void *out = NULL;
    int status = redisGetReplyFromReader(c, &out);
    *reply = (redisReply *)out;
    return status;
}

void ldredis_free_reply(redisReply *reply) {
    freeReplyObject(reply);
}

void ldredis_free(redisContext *c) {
    redisFree(c);
}

int ldredis_name_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
