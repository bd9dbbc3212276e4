/*
 * ldlws — what the shim's C files share and Swift never sees: the server and timer structs, and
 * the event-loop hooks of ldlws_loop.c that ldlws.c calls while it creates, services and
 * destroys the context.
 */
#ifndef LDLWS_INTERNAL_H
#define LDLWS_INTERNAL_H

#include "ldlws.h"

#define EV_COMPAT3 0
#include <ev.h>

struct ldlws_server {
    struct lws_context *context;
    struct lws_vhost *vhost;
    /* lws keeps pointers into these for the context's lifetime, so they live here. */
    struct lws_protocols protocols[4];
    char *iface, *subprotocol, *older_subprotocol, *cert, *key;
    int adopt_only, external_port;
    void *user;              /* the caller's (ldlws_user); the context's own user is this server */
    char *security_headers;  /* NULL: lws' own set (see ldlws_config) */
    ldlws_event_loop loop_kind;
    void *foreign_loops[1];  /* the loop we made and lws runs on (LDLWS_LOOP_LIBEV) */
    lws_sorted_usec_list_t keeper; /* libev: keeps lws' own timer armed (see ldlws_loop.c) */
};

struct ldlws_timer {
    lws_sorted_usec_list_t sul; /* poll: lws links this into its sorted list: address must not move */
    ev_timer ev;                /* libev: a watcher on our own loop (ldlws_loop.c says why) */
    struct lws_context *context;
    struct ev_loop *loop;       /* libev: the loop of `ev`; NULL: a sul timer */
    ldlws_timer_fn fn;
    void *owner;
};

/* Before lws_create_context: makes the loop `kind` needs and sets info's options and foreign
 * loop for it. 0, or -1 when the library is missing (nothing to undo then). */
int ldlws_loop_prepare(ldlws_server *s, ldlws_event_loop kind, struct lws_context_creation_info *info);
/* After lws_create_context succeeded. */
void ldlws_loop_started(ldlws_server *s);
/* One turn of the loop; < 0 when it cannot run. */
int ldlws_loop_turn(ldlws_server *s);
/* After lws_context_destroy (or a failed create): frees the loop. */
void ldlws_loop_free(ldlws_server *s);

#endif
