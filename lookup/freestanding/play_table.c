/*
 * The interface of an exported table player (--form c): its board and table from the arrays
 * above, and the functions a program calls. Written after board.c, the_board.c, stream.c and
 * table.c.
 */
#include "host.h"

static const oxp_table oxp_the_table = {&oxp_the_board, oxp_keys, oxp_entries,
                                        (unsigned)(sizeof oxp_keys / sizeof oxp_keys[0])};

/* The value (1 win, 0 draw, -1 loss for the side to move) and the distance (plies to the end
 * under best play) of a position. Returns 0, 1 when the game is over (*value is then -1 or 0 and
 * *distance 0), -1 when the board cannot arise. */
int oxp_value(oxp_mask x, oxp_mask o, int *value, int *distance)
{
    return oxp_table_value(&oxp_the_table, x, o, value, distance);
}

/* Each move's value for the side that plays it: value[m] is 1, 0 or -1 and distance[m] the plies
 * to the end counting the move, or value[m] = -2 for a move that is not legal. Returns the number
 * of legal moves (0 when the game is over), -1 when the board cannot arise. */
int oxp_moves(oxp_mask x, oxp_mask o, int8_t value[oxp_MOVES], uint8_t distance[oxp_MOVES])
{
    return oxp_table_moves(&oxp_the_table, x, o, value, distance);
}

/* The best moves (ascending) into best[]; returns how many (0 when over, -1 unknown). */
int oxp_best_moves(oxp_mask x, oxp_mask o, int best[oxp_MOVES])
{
    int8_t v[oxp_MOVES];
    uint8_t d[oxp_MOVES];
    int n = oxp_moves(x, o, v, d);
    return n < 0 ? -1 : oxp_table_best(oxp_MOVES, v, d, best);
}

/* A move at level 1..10 with the random stream *rng: with probability (10 - level) / 9 a random
 * legal move, else a best move, ties at random (the move oxo-play and liboxo pick for the same
 * stream). -1 when the game is over or the board cannot arise. */
int oxp_pick(oxp_mask x, oxp_mask o, int level, uint64_t *rng)
{
    int8_t v[oxp_MOVES];
    uint8_t d[oxp_MOVES];
    int legal[oxp_MOVES], best[oxp_MOVES], n = oxp_moves(x, o, v, d), k = 0;
    for (int m = 0; m < oxp_MOVES; m++)
        if (v[m] > -2)
            legal[k++] = m;
    return oxp_level_pick(oxp_coin, legal, n, best,
                          n > 0 ? oxp_table_best(oxp_MOVES, v, d, best) : 0, level, rng);
}
