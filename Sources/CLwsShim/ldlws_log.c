/*
 * ldlws — lws' log output (see include/ldlws.h, ldlws_set_log_level): the level, and a filter
 * for the lines lws 4.1 logs as errors although nothing is wrong.
 */
#include "ldlws.h"

#include <string.h>

/* Set before lws logs anything (context creation), read on whichever thread lws logs from. */
static ldlws_log_sink log_sink;

static void log_line(int level, const char *line) {
    /* lws' own error-level chatter for every readbuf adoption (see ldlws_adopt_socket). */
    static const char noise[] = "adopt_socket_readbuf: ";
    if (!strncmp(line, noise, sizeof(noise) - 1)) return;
    if (log_sink) log_sink(level, line);
    else lwsl_emit_stderr(level, line);
}

void ldlws_set_log_level(int levels, ldlws_log_sink sink) {
    log_sink = sink;
    lws_set_log_level(levels, log_line);
}
