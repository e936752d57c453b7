/*
 * make bench: the time of one query in process, for any table. Positions are drawn by random play
 * from the start (seeded), then looked up many times; medians of 9 rounds.
 *   oxo-bench-query TABLE
 * Prints: value ns (the entry of one position) and moves ns (every legal move's value: what a
 * player asks before it moves).
 */
#include "player.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NPOS 4096
#define ROUNDS 9

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: oxo-bench-query TABLE\n");
        return 2;
    }
    oxo_error err;
    oxo_player *pl = oxo_player_open(argv[1], &err);
    if (!pl) {
        fprintf(stderr, "oxo-bench-query: %s: %s\n", argv[1], err.msg);
        return 1;
    }
    const oxo_game *g = pl->game;
    static oxo_pos pos[NPOS];
    uint64_t rng = oxo_rng_stream(7, 0);
    for (int i = 0; i < NPOS; i++) {
        oxo_pos p = oxo_start(g);
        int stop = (int)oxo_rng_below(&rng, (uint32_t)g->max_plies);
        for (int k = 0; k < stop && oxo_legal(g, p); k++) {
            uint64_t legal = oxo_legal(g, p);
            int n = oxo_popcount(legal), j = (int)oxo_rng_below(&rng, (uint32_t)n);
            while (j--)
                legal &= legal - 1;
            p = oxo_play(g, p, __builtin_ctzll(legal));
        }
        pos[i] = p;
    }
    double tv[ROUNDS], tm[ROUNDS];
    volatile int sink = 0;
    oxo_move_info mi[OXO_MAX_MOVES];
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < NPOS; i++) {
            int v, d;
            sink += oxo_player_value(pl, pos[i], &v, &d) + v;
        }
        double t1 = now();
        for (int i = 0; i < NPOS; i++)
            sink += oxo_player_moves(pl, pos[i], mi);
        double t2 = now();
        tv[r] = (t1 - t0) / NPOS * 1e9;
        tm[r] = (t2 - t1) / NPOS * 1e9;
    }
    qsort(tv, ROUNDS, sizeof *tv, cmp);
    qsort(tm, ROUNDS, sizeof *tm, cmp);
    printf("%s: value %.0f ns, moves %.0f ns\n", g->spec, tv[ROUNDS / 2], tm[ROUNDS / 2]);
    oxo_player_close(pl);
    return sink == 42 ? 3 : 0;
}
