/*
 * ThreadSanitizer (with LLVM's Archer OpenMP tool) over the generator's parallel passes
 * (gen/retro.c): connect4:4,4 and mnk:3,4,3 solved by a team of 2 threads, with the bar for a
 * team lowered so that small games use one, and checked equal to a solve on 1 thread; the same
 * for connect4:4,4 solved a ply at a time (gen/plies.c). Any race
 * makes TSan fail the run (halt_on_error). Then the Connect-4 solver's lazy SMP: a main search and
 * a helper sharing one transposition table on 2 threads, on positions of connect4:5,4, checked
 * equal to one thread alone.
 */
#include "c4solve.h"
#include "plies.h"
#include "player.h"
#include "plytable.h"
#include "retro.h"
#include "search.h"
#include "rng.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    static const char *const specs[] = {"connect4:4,4", "mnk:3,4,3"};
    setenv("OXO_RETRO_PARALLEL_WORDS", "1", 1);
    for (int i = 0; i < 2; i++) {
        oxo_error fault;
        oxo_game *g = oxo_game_open(specs[i], &fault);
        if (!g)
            return 1;
        omp_set_num_threads(2);
        oxo_retro *two = oxo_retro_solve(g, 0, 1, &fault);
        omp_set_num_threads(1);
        oxo_retro *one = oxo_retro_solve(g, 0, 1, &fault);
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
    oxo_error fault;
    oxo_game *p4 = oxo_game_open("connect4:4,4", &fault);
    if (!p4)
        return 1;
    omp_set_num_threads(2);
    oxo_plies *ptwo = oxo_plies_solve(p4, 0, NULL, &fault);
    omp_set_num_threads(1);
    oxo_plies *pone = oxo_plies_solve(p4, 0, NULL, &fault);
    if (!ptwo || !pone || memcmp(&ptwo->counts, &pone->counts, sizeof pone->counts))
        return 1;
    for (int n = 0; n <= pone->max_ply; n++)
        if (ptwo->keys[n].count != pone->keys[n].count ||
            memcmp(ptwo->entries[n], pone->entries[n], pone->keys[n].count)) {
            fprintf(stderr, "tsan_gen: ply %d a ply at a time differs between 1 and 2 threads\n",
                    n);
            return 1;
        }
    printf("connect4:4,4 a ply at a time: %llu positions, same on 1 and 2 threads\n",
           (unsigned long long)pone->counts.positions);
    oxo_plies_free(pone);
    oxo_plies_free(ptwo);
    /* Its table in blocks, written on 2 threads (each compressing blocks), then read by 2 threads
     * at once through the player's few blocks kept (formats/table_blocks.c). */
    char path[] = "/tmp/oxo-tsan-plies-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    omp_set_num_threads(2);
    oxo_plytable *w = oxo_plytable_open(p4, path, 256, 0, &fault);
    oxo_plies_sink sink = w ? oxo_plytable_sink(w) : (oxo_plies_sink){0};
    oxo_plies *pt = w ? oxo_plies_solve(p4, 0, &sink, &fault) : NULL;
    uint64_t bytes;
    oxo_player *pl = NULL;
    if (!pt || oxo_plytable_finish(w, pt, &bytes, &fault) ||
        !(pl = oxo_player_open(path, &fault))) {
        fprintf(stderr, "tsan_gen: the table in blocks: %s\n", fault.msg);
        return 1;
    }
    oxo_plies_free(pt);
    oxo_plytable_close(w);
    int differ = 0;
#pragma omp parallel for reduction(| : differ)
    for (int i = 0; i < 2000; i++) {
        uint64_t rng = (uint64_t)i + 1;
        oxo_pos q = oxo_start(p4);
        for (int k = 0; k < i % 14 && oxo_legal(p4, q); k++)
            q = oxo_play(p4, q, oxo_rng_bit(&rng, oxo_legal(p4, q)));
        differ |= oxo_player_entry(pl, q) < 0;
    }
    oxo_player_close(pl);
    unlink(path);
    if (differ) {
        fprintf(stderr, "tsan_gen: a position without an entry in the table in blocks\n");
        return 1;
    }
    printf("connect4:4,4 in blocks: written and read on 2 threads\n");
    oxo_game_free(p4);
    oxo_game *g = oxo_game_open("connect4:5,4", &fault);
    oxo_c4solver *one = oxo_c4solver_new(g, 4), *s = oxo_c4solver_new(g, 4),
                 *h = s ? oxo_c4solver_helper(s, 1) : NULL;
    if (!g || !one || !s || !h)
        return 1;
    uint64_t rng = oxo_rng_stream(1, 2);
    int solved = 0;
    for (int k = 0; k < 40; k++) {
        oxo_pos p = oxo_start(g);
        for (int i = 0; i < 4 && oxo_status_of(g, p) == OXO_ONGOING; i++)
            p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
        if (oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        oxo_c4solver *helpers[2] = {NULL, h};
        if (oxo_c4solve_smp(s, helpers, 2, p, 0) != oxo_c4solve(one, p, 0)) {
            fprintf(stderr, "tsan_gen: the lazy SMP solver gives another score\n");
            return 1;
        }
        solved++;
    }
    printf("connect4:5,4: %d positions solved by 2 threads sharing a table, same as 1\n", solved);
    oxo_c4solver_free(h);
    oxo_c4solver_free(s);
    oxo_c4solver_free(one);
    oxo_game_free(g);
    return 0;
}
