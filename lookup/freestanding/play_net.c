/*
 * The interface of an exported n-tuple network (--form c of a network): its board and network
 * from the arrays above, and the functions a program calls, valued, ranked and tied as liboxo's
 * player does (twin moves, which a symmetry of the board itself maps onto each other, take the
 * greatest of their values, as its tie_twins does). Written after board.c, the_board.c,
 * stream.c and net.c.
 */
#include "host.h"

static const oxp_net oxp_the_net = {
    oxp_CELLS, oxp_WIDTH, oxp_GRAVITY,   oxp_TUPLES,  oxp_SLOTS,    oxp_SETS,   oxp_PER_SET,
    oxp_off,   oxp_dig,   oxp_occ_first, oxp_occ_dig, oxp_occ_slot, oxp_weights};

static inline int oxp_count(oxp_mask m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* Each move's value for the side that plays it: value[m] is 1 for a move that wins, 0 for one
 * that fills the board, else the network's value of the board after it, in (-1, 1), or -2 for a
 * move that is not legal. Moves that a symmetry of the board itself maps onto each other get the
 * greatest of their values (they are worth the same). Returns the number of legal moves (0 when
 * the game is over), -1 when the board cannot arise (stones on one cell, counts that do not
 * alternate, cells beyond the board, a stone above an empty cell with gravity). */
int oxp_moves(oxp_mask x, oxp_mask o, float value[oxp_MOVES])
{
    const oxp_board *b = &oxp_the_board;
    const oxp_mask occ = x | o, all = oxp_board_all(b), bottom = all & ~(all >> oxp_WIDTH);
    const int nx = oxp_count(x), no = oxp_count(o), second = nx > no;
    for (int m = 0; m < oxp_MOVES; m++)
        value[m] = -2;
    if ((x & o) || (occ & ~all) || (nx != no && nx != no + 1) ||
        (oxp_GRAVITY && (occ & ~bottom & ~(occ >> oxp_WIDTH))))
        return -1;
    if (oxp_wins(x) || oxp_wins(o) || occ == all)
        return 0;
    const oxp_mask me = second ? o : x, op = second ? x : o;
    int n = 0;
    for (int m = 0; m < oxp_MOVES; m++) {
        const int c = oxp_cell(occ, m);
        if (c < 0)
            continue;
        const oxp_mask after = me | (oxp_mask)1 << c;
        n++;
        value[m] = oxp_wins(after)       ? 1.0f
                   : (after | op) == all ? 0.0f
                                         : oxp_net_value(&oxp_the_net, after, op, second);
    }
    float v[oxp_MOVES];
    for (int m = 0; m < oxp_MOVES; m++)
        v[m] = value[m];
    for (int s = 1; s < b->nsym; s++)
        if (oxp_board_img(b, x, s) == x && oxp_board_img(b, o, s) == o)
            for (int m = 0; m < oxp_MOVES; m++)
                if (v[m] > -2 && v[b->mperm[s * oxp_MOVES + m]] > value[m])
                    value[m] = v[b->mperm[s * oxp_MOVES + m]];
    return n;
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
