/*
 * The interface of an exported n-tuple network (--form c of a network): its board and network
 * from the arrays above, and the functions a program calls, valued, ranked and tied as liboxo's
 * player does (twin moves, which a symmetry of the board itself maps onto each other, take the
 * greatest of their values, as its tie_twins does); the best moves and levels from the values are
 * play_scored.c's. Written after board.c, the_board.c, stream.c, play_scored.c, tanh.c and net.c.
 */
#include "host.h"

static const oxp_net oxp_the_net = {
    oxp_CELLS, oxp_WIDTH, oxp_GRAVITY,   oxp_TUPLES,  oxp_SLOTS,    oxp_SETS,   oxp_PER_SET,
    oxp_off,   oxp_dig,   oxp_occ_first, oxp_occ_dig, oxp_occ_slot, oxp_weights};

/* Each move's value for the side that plays it: value[m] is 1 for a move that wins, 0 for one
 * that fills the board, else the network's value of the board after it, in (-1, 1), or -2 for a
 * move that is not legal. Moves that a symmetry of the board itself maps onto each other get the
 * greatest of their values (they are worth the same). Returns the number of legal moves (0 when
 * the game is over), -1 when the board cannot arise (stones on one cell, counts that do not
 * alternate, cells beyond the board, a stone above an empty cell with gravity). */
int oxp_moves(oxp_mask x, oxp_mask o, float value[oxp_MOVES])
{
    const oxp_board *b = &oxp_the_board;
    int second;
    const int start = oxp_scored_start(x, o, value, &second);
    if (start <= 0)
        return start;
    const oxp_mask occ = x | o, all = oxp_board_all(b);
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
