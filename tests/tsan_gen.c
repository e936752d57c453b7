/*
 * ThreadSanitizer (with LLVM's Archer OpenMP tool) over the generator's parallel passes
 * (gen/retro.c): connect4:4,4 and mnk:3,4,3 solved by a team of 2 threads, with the bar for a
 * team lowered so that small games use one, and checked equal to a solve on 1 thread. Any race
 * makes TSan fail the run (halt_on_error).
 */
#include "retro.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    static const char *const specs[] = {"connect4:4,4", "mnk:3,4,3"};
    setenv("OXO_RETRO_PARALLEL_WORDS", "1", 1);
    for (int i = 0; i < 2; i++) {
        char msg[200];
        oxo_game *g = oxo_game_open(specs[i], msg, sizeof msg);
        if (!g)
            return 1;
        omp_set_num_threads(2);
        oxo_retro *two = oxo_retro_solve(g, 0, 1, msg, sizeof msg);
        omp_set_num_threads(1);
        oxo_retro *one = oxo_retro_solve(g, 0, 1, msg, sizeof msg);
        if (!two || !one || two->keys.count != one->keys.count ||
            memcmp(two->entries, one->entries, one->keys.count) ||
            memcmp(&two->counts, &one->counts, sizeof one->counts)) {
            fprintf(stderr, "tsan_gen: %s differs between 1 and 2 threads\n", specs[i]);
            return 1;
        }
        printf("%s: %llu positions, same on 1 and 2 threads\n", specs[i],
               (unsigned long long)one->counts.positions);
        oxo_retro_free(one);
        oxo_retro_free(two);
        oxo_game_free(g);
    }
    return 0;
}
