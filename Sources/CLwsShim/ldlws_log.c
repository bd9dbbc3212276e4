/*
 * ldlws — lws' log output (see include/ldlws.h, ldlws_set_log_level): the level, and a filter
 * for the lines lws 4.1 logs as errors although nothing is wrong.
 */
#include "ldlws.h"

#include <string.h>

static void log_line(int level, const char *line) {
    /* lws' own error-level chatter for every readbuf adoption (see ldlws_adopt_socket). */
    static const char noise[] = "adopt_socket_readbuf: ";
    if (!strncmp(line, noise, sizeof(noise) - 1)) return;
    lwsl_emit_stderr(level, line);
}

void ldlws_set_log_level(int levels) { lws_set_log_level(levels, log_line); }
