/*
 * The monotonic clock in seconds, for deadlines, progress lines and timings: one definition for
 * every part (the solver's deadlines, the agents' budgets, the generators' and the trainer's
 * reports, the tests' timings).
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

#endif
