/*
 * The interface of an exported AlphaZero-lite network (--form c of an azero model: its bare
 * policy): its board and network from the arrays above, and the functions a program calls, scored,
 * ranked and tied as liboxo's player of the model does (every legal move scored 2 p - 1 from its
 * share p of the policy over the legal moves); the best moves and levels from the scores are
 * play_scored.c's. Written after board.c, the_board.c, stream.c, play_scored.c, tanh.c and azero.c.
 */
#include "host.h"

static const oxp_azero oxp_the_azero = {oxp_CELLS,  oxp_MOVES,   oxp_LAYERS,
                                        oxp_widths, oxp_weights, oxp_AZ_LINES,
                                        oxp_AZ_K,   oxp_az_line, oxp_AZ_THREATS};

/* Each move's score for the side that plays it: 2 p - 1 from the move's share p of the policy over
 * the legal moves, in [-1, 1], or -2 for a move that is not legal. Returns the number of legal
 * moves (0 when the game is over), -1 when the board cannot arise (stones on one cell, counts that
 * do not alternate, cells beyond the board, a stone above an empty cell with gravity). */
int oxp_moves(oxp_mask x, oxp_mask o, float value[oxp_MOVES])
{
    int second;
    const int start = oxp_scored_start(x, o, value, &second);
    if (start <= 0)
        return start;
    const oxp_mask occ = x | o;
    uint64_t legal = 0;
    oxp_mask playable = 0; /* the cells the moves fill */
    for (int m = 0; m < oxp_MOVES; m++) {
        const int c = oxp_cell(occ, m);
        if (c >= 0) {
            legal |= (uint64_t)1 << m;
            playable |= (oxp_mask)1 << c;
        }
    }
    float logits[oxp_MOVES], prior[oxp_MOVES];
    oxp_azero_forward(&oxp_the_azero, second ? o : x, second ? x : o, playable, logits);
    oxp_azero_softmax(oxp_MOVES, legal, logits, prior);
    int n = 0;
    for (int m = 0; m < oxp_MOVES; m++)
        if (legal >> m & 1) {
            value[m] = oxp_azero_score(prior[m]);
            n++;
        }
    return n;
}
