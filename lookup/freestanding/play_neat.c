/*
 * The interface of an exported NEAT network (--form c of a NEAT model: its champion): its board and
 * network from the arrays above, and the functions a program calls, scored, ranked and tied as
 * liboxo's player of the model does (every legal move scored by its output, no shortcut for a
 * winning move: the network is what was trained); the best moves and levels from the scores are
 * play_scored.c's. Written after board.c, the_board.c, stream.c, play_scored.c, tanh.c and neat.c.
 */
#include "host.h"

/* oxp_NEAT_NSYM: the board's symmetries when the network's inputs are oriented, else 0;
 * oxp_NEAT_TACTICS: 1 when it reads the tactics' inputs (neat.c), which ask the board;
 * oxp_NEAT_AFTERSTATE: 1 when it scores each move's afterstate (one output, oxp_NEAT_OUTPUTS). */
static const oxp_neat oxp_the_neat = {
    oxp_CELLS, oxp_NEAT_OUTPUTS, oxp_NODES,      oxp_NCOMP,          oxp_comp,
    oxp_first, oxp_src,          oxp_weights,    oxp_NEAT_NSYM,      oxp_perm,
    oxp_mperm, oxp_NEAT_TACTICS, &oxp_the_board, oxp_NEAT_AFTERSTATE};

/* Each move's score for the side that plays it: x / (1 + |x|), x the network's output for the
 * move, in (-1, 1), or -2 for a move that is not legal. Returns the number of legal moves (0 when
 * the game is over), -1 when the board cannot arise (stones on one cell, counts that do not
 * alternate, cells beyond the board, a stone above an empty cell with gravity). */
int oxp_moves(oxp_mask x, oxp_mask o, float value[oxp_MOVES])
{
    int second;
    const int start = oxp_scored_start(x, o, value, &second);
    if (start <= 0)
        return start;
    const oxp_mask occ = x | o;
    float act[oxp_NODES], tmp[oxp_MOVES], out[oxp_MOVES];
    oxp_neat_board(&oxp_the_neat, second ? o : x, second ? x : o, act, tmp, out);
    int n = 0;
    for (int m = 0; m < oxp_MOVES; m++)
        if (oxp_cell(occ, m) >= 0) {
            value[m] = oxp_neat_score(out[m]);
            n++;
        }
    return n;
}
