/*
 * The monotonic clock in seconds, for deadlines, progress lines and timings: one definition for
 * every part (the solver's deadlines, the agents' budgets, the generators' and the trainer's
 * reports, the tests' timings); and the calling thread's CPU time, with which the trainer sees
 * whether its team of threads pays.
 */
#ifndef OXO_CLOCK_H
#define OXO_CLOCK_H

#include <time.h>

static inline double oxo_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The CPU time the calling thread has used, in seconds (0 where the system cannot say: the
 * trainer then plays its rounds on one thread). */
static inline double oxo_thread_seconds(void)
{
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
