/* timer_probe: how late does a thread that does nothing but sleep wake up on this core?
 *
 * Why: round lateness in scenarios b and b2 is a timer firing late. Part of that is our server
 * being busy, part is the machine: the scheduler, other processes, a host that does not run this
 * virtual CPU for a while. This probe measures the second part in the same run: it sleeps to
 * absolute deadlines every PERIOD_US on the server's core (bench.py pins it there) and records
 * how late each deadline was met. It does no other work, so its lateness is the floor for any timer
 * on that core during the run, the way the epoll broadcaster is the floor for CPU per delivery.
 *
 * Usage: timer_probe SECONDS [PERIOD_US]   (SIGTERM ends it early, and it still reports)
 * Prints one line of JSON on exit: deadlines, p50/p99/max lateness in ms, how many were later
 * than 5 ms, and the start times (epoch ms) of the stalls longer than 5 ms.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* SIGTERM/SIGINT end the run early; what was measured is still printed. */
static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static long long ns_of(struct timespec t) { return (long long)t.tv_sec * 1000000000LL + t.tv_nsec; }

static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: timer_probe SECONDS [PERIOD_US]\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    long period_us = argc > 2 ? atol(argv[2]) : 1000;
    if (seconds <= 0 || seconds > 3600 || period_us < 100 || period_us > 1000000) {
        fprintf(stderr, "timer_probe: SECONDS in (0, 3600], PERIOD_US in [100, 1000000]\n");
        return 2;
    }
    size_t cap = (size_t)(seconds * 1e6 / period_us) + 2;
    long long *late = malloc(cap * sizeof *late);
    if (!late) return 1;
    /* Burst starts: a wake-up later than 5 ms after one that was not. */
    enum { MAX_BURSTS = 64 };
    double bursts[MAX_BURSTS];
    int nbursts = 0, in_burst = 0;

    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    struct timespec now, deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    long long end = ns_of(deadline) + (long long)(seconds * 1e9);
    /* Deadlines on a fixed grid, every PERIOD_US. After a late wake-up, every grid point it
     * passed counts, each as late as it is: a stall of D ms then reads as timers due across those
     * D ms, late by D down to 0, which is what a server's many round timers, due at scattered
     * instants, see (re-arming from the wake-up would count a 50 ms stall as one late timer). */
    long long next = ns_of(deadline) + period_us * 1000LL;
    size_t n = 0;
    while (n < cap && !stop && next <= end) {
        deadline.tv_sec = next / 1000000000LL;
        deadline.tv_nsec = next % 1000000000LL;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) != 0 && !stop) {}
        if (stop) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long woke = ns_of(now), first = woke - next;
        for (; next <= woke && n < cap; next += period_us * 1000LL) late[n++] = woke - next;
        if (first > 5000000LL) {
            if (!in_burst && nbursts < MAX_BURSTS) {
                struct timespec wall;
                clock_gettime(CLOCK_REALTIME, &wall);
                bursts[nbursts++] = ns_of(wall) / 1e6 - first / 1e6;
            }
            in_burst = 1;
        } else {
            in_burst = 0;
        }
    }
    if (n == 0) {
        printf("{\"deadlines\": 0}\n");
        return 0;
    }
    size_t over5 = 0;
    for (size_t i = 0; i < n; i++) over5 += late[i] > 5000000LL;
    qsort(late, n, sizeof *late, cmp_ll);
    printf("{\"deadlines\": %zu, \"p50_ms\": %.3f, \"p99_ms\": %.3f, \"max_ms\": %.3f, \"over_5ms\": %zu, \"bursts_ms\": [",
           n, late[n / 2] / 1e6, late[(size_t)((n - 1) * 0.99)] / 1e6, late[n - 1] / 1e6, over5);
    for (int i = 0; i < nbursts; i++) printf("%s%.1f", i ? ", " : "", bursts[i]);
    printf("]}\n");
    free(late);
    return 0;
}
