/*
 * ldsys — the few Linux system calls the server uses that Swift cannot call safely as they are.
 *
 * Why it exists: `struct epoll_event` is declared __attribute__((packed)) on x86_64, and Swift's
 * importer lays packed structs out by the natural alignment of their fields, so an array of
 * them built in Swift would not match what the kernel writes.  These wrappers take and return
 * plain ints instead.  Every symbol is prefixed ldsys_.
 *
 * Threading: none of these keep state; callers own the descriptors they pass.
 */
#ifndef LDSYS_H
#define LDSYS_H

#include <stdint.h>
#include <sys/socket.h>

/** Interest and result bits, the same values as EPOLLIN/EPOLLOUT/EPOLLHUP/EPOLLERR/EPOLLRDHUP. */
enum {
    LDSYS_READABLE = 0x001,
    LDSYS_WRITABLE = 0x004,
    LDSYS_ERROR = 0x008,
    LDSYS_HANGUP = 0x010,
    LDSYS_PEER_SHUTDOWN = 0x2000,
};

/** A close-on-exec epoll set; -1 and errno on failure. */
int ldsys_epoll_create(void);
/** Adds fd with the given LDSYS_ interest bits (level-triggered); 0 or -1 and errno. */
int ldsys_epoll_add(int epfd, int fd, uint32_t events);
/** Changes fd's interest bits; 0 or -1 and errno. */
int ldsys_epoll_modify(int epfd, int fd, uint32_t events);
/** Removes fd; 0 or -1 and errno (ENOENT/EBADF when it was never added or is closed). */
int ldsys_epoll_remove(int epfd, int fd);
/** Waits at most timeout_ms (0 = poll) and fills up to max ready (fd, events) pairs; the count,
 *  or -1 and errno (EINTR is returned as 0). */
int ldsys_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms);

/** Puts the calling thread (not the process) under SCHED_FIFO at `priority` (1-99), with
 *  SCHED_RESET_ON_FORK so that threads and processes it starts later run as normal ones do.
 *  0, or the errno (EPERM without CAP_SYS_NICE or a high enough RLIMIT_RTPRIO; EINVAL).
 *  Why here: SCHED_RESET_ON_FORK is declared only under _GNU_SOURCE. */
int ldsys_set_realtime(int priority);
/** The calling thread's policy (0 normal, 1 FIFO, 2 round robin, ...) with its static priority
 *  in *priority and whether it resets on fork in *reset_on_fork; -1 and errno on failure. */
int ldsys_scheduling(int *priority, int *reset_on_fork);

/** accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC): glibc declares accept4 only under
 *  _GNU_SOURCE, which Swift's Glibc module does not define.  The new fd, or -1 and errno. */
int ldsys_accept(int fd, struct sockaddr *addr, socklen_t *len);

/** malloc_trim(0): gives the pages of freed heap memory (every arena's, not only the top of
 *  the heap) back to the kernel; 1 if any was given back.  Why here: <malloc.h> is not in
 *  Swift's Glibc module. */
int ldsys_release_free_memory(void);

#endif
