/*
 * What the players of networks share (--form c of an n-tuple or a NEAT network): moves scored as
 * floats by the form's oxp_moves (play_net.c, play_neat.c, written after this file), and from those
 * scores the best moves, the greedy move and the move at a level, ranked and tied as liboxo's
 * player ranks and ties them. Written after board.c, the_board.c and stream.c.
 */
#include "host.h"

/* The form's: each move's score for the side that plays it, -2 for a move that is not legal; the
 * number of legal moves, 0 when the game is over, -1 when the board cannot arise. */
int oxp_moves(oxp_mask x, oxp_mask o, float value[oxp_MOVES]);

static inline int oxp_count(oxp_mask m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The start of every oxp_moves: every value -2 (not legal), then -1 when the board cannot arise
 * (stones on one cell, counts that do not alternate, cells beyond the board, a stone above an
 * empty cell with gravity), 0 when the game is over, else 1 with *second set when the second
 * player (O) is to move. */
static inline int oxp_scored_start(oxp_mask x, oxp_mask o, float value[oxp_MOVES], int *second)
{
    const oxp_board *b = &oxp_the_board;
    const oxp_mask occ = x | o, all = oxp_board_all(b), bottom = all & ~(all >> oxp_WIDTH);
    const int nx = oxp_count(x), no = oxp_count(o);
    for (int m = 0; m < oxp_MOVES; m++)
        value[m] = -2;
    *second = nx > no;
    if ((x & o) || (occ & ~all) || (nx != no && nx != no + 1) ||
        (oxp_GRAVITY && (occ & ~bottom & ~(occ >> oxp_WIDTH))))
        return -1;
    return oxp_wins(x) || oxp_wins(o) || occ == all ? 0 : 1;
}

/* The best moves (ascending) into best[]; returns how many (0 when over, -1 when the board cannot
 * arise). */
int oxp_best_moves(oxp_mask x, oxp_mask o, int best[oxp_MOVES])
{
    float v[oxp_MOVES], top = -3;
    int n = oxp_moves(x, o, v), k = 0;
    for (int m = 0; n > 0 && m < oxp_MOVES; m++)
        if (v[m] > -2) {
            if (v[m] > top)
                top = v[m], k = 0;
            if (v[m] == top)
                best[k++] = m;
        }
    return n < 0 ? -1 : k;
}

/* The first of the best moves, -1 when there is none: the greedy player. */
int oxp_best(oxp_mask x, oxp_mask o)
{
    int best[oxp_MOVES];
    return oxp_best_moves(x, o, best) > 0 ? best[0] : -1;
}

/* A move at level 1..10 with the random stream *rng: with probability (10 - level) / 9 a random
 * legal move, else a best move, ties at random (the move oxo-play and liboxo pick for the same
 * stream). -1 when the game is over or the board cannot arise. */
int oxp_pick(oxp_mask x, oxp_mask o, int level, uint64_t *rng)
{
    float v[oxp_MOVES];
    int legal[oxp_MOVES], best[oxp_MOVES], n = oxp_moves(x, o, v), k = 0;
    for (int m = 0; m < oxp_MOVES; m++)
        if (v[m] > -2)
            legal[k++] = m;
    return oxp_level_pick(oxp_coin, legal, n, best, n > 0 ? oxp_best_moves(x, o, best) : 0, level,
                          rng);
}
