/*
 * OpenMP's functions for the page's one-threaded build (WebAssembly in a browser worker has no
 * OpenMP): one thread, and its wall clock. The pragmas are ignored, so every parallel region runs
 * on the one thread, which the trainer's results do not depend on (the same bytes whatever the
 * thread count).
 */
#ifndef OXO_WEB_OMP_H
#define OXO_WEB_OMP_H
#include "clock.h"

static inline int omp_get_thread_num(void)
{
    return 0;
}
static inline int omp_get_num_threads(void)
{
    return 1;
}
static inline int omp_get_max_threads(void)
{
    return 1;
}
static inline double omp_get_wtime(void)
{
    return oxo_seconds();
}
#endif
