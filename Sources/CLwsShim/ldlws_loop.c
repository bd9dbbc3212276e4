/*
 * ldlws — the loop that runs lws (ldlws_event_loop in include/ldlws.h) and the timers on it.
 *
 * A loop of our own ("foreign loop" in lws' terms): with an event-library plugin, lws_service()
 * runs the library's loop until something breaks it, whereas the service thread takes one turn
 * at a time (it checks for its exit between turns).  With our own loop a turn is
 * ev_run(EVRUN_ONCE); lws' watchers live in it, and
 * lws_cancel_service() still wakes it (lws watches its event pipe there like any socket).
 *
 * libev is dlopen()ed, as lws loads its plugins: a host without libwebsockets-evlib-ev
 * still runs the poll loop.  The plugin links the same libev.so.4, so one copy serves both.
 *
 * Timers under libev.  lws 4.1.6's libev plugin (lib/event-libs/libev/libev.c) keeps one libev
 * timer armed for lws' earliest sul timer.  It re-arms it in that timer's callback and in its
 * idle callback after I/O, with ev_timer_set + ev_timer_start on a watcher that may still be
 * active; libev ignores ev_timer_start on an active watcher, so a sul scheduled earlier than the
 * armed one waits for the armed one.  That was the earlier attempt's "lost timers": a round due
 * in 100 ms fired when a 1 s (or 10 s) timer armed before it came due.  Hence:
 *  - our own timers are libev timers on our loop, not suls;
 *  - the shim keeps a 1 s sul of its own (`keeper`), so lws' timer is never armed more than 1 s
 *    ahead, which bounds how late lws' own timers (timeouts, idle pings) can come;
 *  - creation wakes the loop once, whose idle callback then arms lws' timer at all.
 */
#include "ldlws_internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>

static struct {
    const char *problem;
    struct ev_loop *(*loop_new)(unsigned int flags);
    void (*loop_destroy)(struct ev_loop *);
    int (*run)(struct ev_loop *, int flags);
    void (*now_update)(struct ev_loop *);
    void (*timer_start)(struct ev_loop *, ev_timer *);
    void (*timer_stop)(struct ev_loop *, ev_timer *);
} evl;

static pthread_once_t evl_once = PTHREAD_ONCE_INIT;

#define LOAD(table, lib, field, name) \
    if (!((table).field = (__typeof__((table).field))dlsym(lib, name))) { (table).problem = name " is missing"; return; }

static void load_libev(void) {
    if (access(LWS_INSTALL_LIBDIR "/libwebsockets-evlib_ev.so", R_OK)) {
        evl.problem = "lws' libev plugin " LWS_INSTALL_LIBDIR "/libwebsockets-evlib_ev.so is not installed "
                      "(Debian: libwebsockets-evlib-ev)";
        return;
    }
    void *lib = dlopen("libev.so.4", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        evl.problem = "libev.so.4 cannot be loaded (Debian: libev4)";
        return;
    }
    LOAD(evl, lib, loop_new, "ev_loop_new");
    LOAD(evl, lib, loop_destroy, "ev_loop_destroy");
    LOAD(evl, lib, run, "ev_run");
    LOAD(evl, lib, now_update, "ev_now_update");
    LOAD(evl, lib, timer_start, "ev_timer_start");
    LOAD(evl, lib, timer_stop, "ev_timer_stop");
}

const char *ldlws_event_loop_problem(ldlws_event_loop kind) {
    switch (kind) {
    case LDLWS_LOOP_POLL: return NULL;
    case LDLWS_LOOP_LIBEV: pthread_once(&evl_once, load_libev); return evl.problem;
    }
    return "unknown event loop";
}

int ldlws_loop_prepare(ldlws_server *s, ldlws_event_loop kind, struct lws_context_creation_info *info) {
    s->loop_kind = LDLWS_LOOP_POLL;
    if (kind == LDLWS_LOOP_POLL) return 0;
    const char *problem = ldlws_event_loop_problem(kind);
    if (problem) {
        lwsl_err("event loop: %s\n", problem);
        return -1;
    }
    /* epoll, explicitly (libev would pick it anyway on Linux); no LIBEV_FLAGS from the
     * environment; the signal mask stays ours (signals are taken by a sigwait thread). */
    s->foreign_loops[0] = evl.loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV | EVFLAG_NOSIGMASK);
    if (!s->foreign_loops[0]) return -1;
    info->options |= LWS_SERVER_OPTION_LIBEV;
    s->loop_kind = kind;
    info->foreign_loops = s->foreign_loops;
    return 0;
}

static void keeper_fired(lws_sorted_usec_list_t *sul) {
    ldlws_server *s = lws_container_of(sul, ldlws_server, keeper);
    lws_sul_schedule(s->context, 0, &s->keeper, keeper_fired, LWS_US_PER_SEC);
}

void ldlws_loop_started(ldlws_server *s) {
    if (s->loop_kind == LDLWS_LOOP_POLL) return;
    lws_sul_schedule(s->context, 0, &s->keeper, keeper_fired, LWS_US_PER_SEC);
    lws_cancel_service(s->context);
}

int ldlws_loop_turn(ldlws_server *s) {
    if (!s->foreign_loops[0]) return -1;
    evl.run(s->foreign_loops[0], EVRUN_ONCE);
    return 0;
}

void ldlws_loop_free(ldlws_server *s) {
    if (!s->foreign_loops[0]) return;
    evl.loop_destroy(s->foreign_loops[0]);
    s->foreign_loops[0] = NULL;
}

/* ---- timers ------------------------------------------------------------------------------- */

static void sul_fired(lws_sorted_usec_list_t *sul) {
    struct ldlws_timer *t = lws_container_of(sul, struct ldlws_timer, sul);
    t->fn(t->owner);
}

static void ev_fired(struct ev_loop *loop, ev_timer *w, int revents) {
    struct ldlws_timer *t = lws_container_of(w, struct ldlws_timer, ev);
    t->fn(t->owner);
}

ldlws_timer *ldlws_timer_create(ldlws_server *server, ldlws_timer_fn fn, void *owner) {
    struct ldlws_timer *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    t->context = server->context;
    t->fn = fn;
    t->owner = owner;
    if (server->loop_kind == LDLWS_LOOP_LIBEV) {
        t->loop = server->foreign_loops[0];
        ev_timer_init(&t->ev, ev_fired, 0., 0.);
    }
    return t;
}

void ldlws_timer_schedule(ldlws_timer *t, int64_t delay_us) {
    if (delay_us < 1) delay_us = 1;
    if (!t->loop) {
        lws_sul_schedule(t->context, 0, &t->sul, sul_fired, (lws_usec_t)delay_us);
        return;
    }
    evl.timer_stop(t->loop, &t->ev);
    /* libev counts from the time it read when this turn began; the turn may have run a while. */
    evl.now_update(t->loop);
    ev_timer_set(&t->ev, (ev_tstamp)delay_us / 1e6, 0.);
    evl.timer_start(t->loop, &t->ev);
}

void ldlws_timer_cancel(ldlws_timer *t) {
    if (!t->loop) {
        lws_sul_cancel(&t->sul);
        return;
    }
    /* Only an armed (or fired, not yet run) watcher touches the loop: once every timer is
     * cancelled before the context goes, freeing one later never reaches the freed loop. */
    if (ev_is_active(&t->ev) || ev_is_pending(&t->ev)) evl.timer_stop(t->loop, &t->ev);
}

void ldlws_timer_destroy(ldlws_timer *t) {
    if (!t) return;
    ldlws_timer_cancel(t);
    free(t);
}
