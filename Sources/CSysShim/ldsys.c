/* ldsys — see include/ldsys.h for why this layer exists.  No policy here. */
#define _GNU_SOURCE /* accept4 */
#include "ldsys.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>

/* The header promises the kernel's values, so the bits pass through unchanged. */
_Static_assert(LDSYS_READABLE == EPOLLIN, "EPOLLIN");
_Static_assert(LDSYS_WRITABLE == EPOLLOUT, "EPOLLOUT");
_Static_assert(LDSYS_ERROR == EPOLLERR, "EPOLLERR");
_Static_assert(LDSYS_HANGUP == EPOLLHUP, "EPOLLHUP");
_Static_assert(LDSYS_PEER_SHUTDOWN == EPOLLRDHUP, "EPOLLRDHUP");

int ldsys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static int control(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.events = events;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev);
}

int ldsys_epoll_add(int epfd, int fd, uint32_t events) { return control(epfd, EPOLL_CTL_ADD, fd, events); }

int ldsys_epoll_modify(int epfd, int fd, uint32_t events) { return control(epfd, EPOLL_CTL_MOD, fd, events); }

int ldsys_epoll_remove(int epfd, int fd) { return control(epfd, EPOLL_CTL_DEL, fd, 0); }

int ldsys_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event ready[256];
    if (max > 256) max = 256;
    if (max < 1) return 0;
    int n = epoll_wait(epfd, ready, max, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        fds[i] = ready[i].data.fd;
        events[i] = ready[i].events;
    }
    return n;
}

int ldsys_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/* pid 0 is the calling thread: Linux schedules threads, and sched_setscheduler acts on one. */
int ldsys_set_realtime(int priority) {
    struct sched_param param;
    memset(&param, 0, sizeof(param));
    param.sched_priority = priority;
    return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param) == 0 ? 0 : errno;
}

int ldsys_scheduling(int *priority, int *reset_on_fork) {
    int policy = sched_getscheduler(0);
    if (policy < 0) return -1;
    struct sched_param param;
    if (sched_getparam(0, &param) != 0) return -1;
    *priority = param.sched_priority;
    *reset_on_fork = (policy & SCHED_RESET_ON_FORK) != 0;
    return policy & ~SCHED_RESET_ON_FORK;
}

int ldsys_release_free_memory(void) {
    return malloc_trim(0);
}
