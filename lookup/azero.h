/*
 * AlphaZero-lite networks as they play, and the PUCT search they lead (Silver et al., "A general
 * reinforcement learning algorithm that masters chess, shogi and Go through self-play", Science
 * 2018). The trainer (train/learners/azero.c) learns the weights by self-play through this same
 * search; the player (lookup/sources/azero.c) plays the bare policy, and the agent kind azero
 * (lookup/agents/azero.c) searches with it.
 *
 * The network is a multilayer perceptron read from the game interface alone, so every game oxo
 * plays has one: 2 * cells inputs (1 where the side to move has a stone, then 1 where the other
 * side has one: oxo_cells, bit r * cols + c) and, in a network with lines, one input for each
 * pattern of stones each of the game's winning lines can hold (oxo_cell_lines), and in a network
 * with threats, four for each cell: a threat of either side (the one cell a line lacks), which a
 * move fills now or not (the inputs are lookup/freestanding/azero.c's oxp_azero_active, the cells
 * a move fills taken from oxo_play), `layers` hidden layers of rectified linear
 * units, then two heads on the last: a policy of g->moves logits (a softmax over the legal moves)
 * and a value tanh(v) of the position for its side to move, in (-1, 1). The parameters, in the
 * model's order (FORMAT.md): for each hidden layer, its weights (width x inputs, a row a unit; with
 * lines, the first layer's inputs x width, a row an input, summed over the inputs that are 1) then
 * its biases; the policy's weights (moves x width) and biases; the value's weights (width) and
 * bias. tanh and the softmax's exponential are oxo's own (lookup/freestanding/tanh.c), so no system
 * library's rounding enters a value.
 */
#ifndef OXO_AZERO_H
#define OXO_AZERO_H

#include "game.h"

#include <stdint.h>

#define OXO_AZ_MAX_LAYERS 4
#define OXO_AZ_MAX_WIDTH  1024

#define OXO_AZ_MAX_K      8     /* cells a line, for a network with lines */
#define OXO_AZ_MAX_INPUTS 65536 /* with lines */

typedef struct oxo_az_shape {
    int inputs; /* 2 * cells, with lines 2^(k+1) - 1 a line, with threats 4 * cells */
    int moves;  /* the policy's outputs: g->moves */
    int layers; /* hidden layers, 1 to OXO_AZ_MAX_LAYERS */
    int width[OXO_AZ_MAX_LAYERS];
    int cells;
    int lines, k; /* 0 lines: the cells alone; else the game's lines of k cells */
    uint8_t line[OXO_MAX_LINES * OXO_AZ_MAX_K]; /* lines x k: their cells, in increasing order */
    int threats; /* with lines: 1 when each side's threats are inputs too */
} oxo_az_shape;

/* What a network reads (oxo_az_shape_of): the cells alone; the lines' patterns too; the threats
 * too (lookup/freestanding/azero.c, oxp_azero_active). */
enum { OXO_AZ_CELLS, OXO_AZ_LINES, OXO_AZ_THREATS };

/* What a model's network reads, from its `lines` and `threats` flags (FORMAT.md). */
static inline int oxo_az_inputs_of(int with_lines, int with_threats)
{
    return with_threats ? OXO_AZ_THREATS : with_lines ? OXO_AZ_LINES : OXO_AZ_CELLS;
}

/* The shape of a network for game g with `layers` hidden layers of the given widths (1 to
 * OXO_AZ_MAX_WIDTH each), reading what `inputs` says (OXO_AZ_CELLS, OXO_AZ_LINES or
 * OXO_AZ_THREATS): 0, or -1 with err saying what is out of range (lines of more than
 * OXO_AZ_MAX_K cells, too many inputs). */
int oxo_az_shape_of(oxo_az_shape *s, const oxo_game *g, const uint32_t *width, int layers,
                    int inputs, oxo_error *err);
/* The number of parameters of a shape. */
uint64_t oxo_az_params(const oxo_az_shape *s);

typedef struct oxo_az_net {
    oxo_az_shape s;
    const float *w; /* oxo_az_params(&s) of them, in the order above (borrowed) */
} oxo_az_net;

/* The inputs of position p of a network without lines (2 * cells floats). */
void oxo_az_inputs(const oxo_game *g, oxo_pos p, float *x);
/* The inputs of position p that are 1, in increasing order, into act (at most cells + lines of
 * them, and 2 * cells more with threats): what a network with lines reads. Returns how many. */
int oxo_az_active(const oxo_az_shape *s, const oxo_game *g, oxo_pos p, int *act);
/* The policy's logits (g->moves floats) and the value of p for its side to move. */
float oxo_az_forward(const oxo_az_net *n, const oxo_game *g, oxo_pos p, float *logits);
/* The softmax of the logits over the legal moves of p (legal: a mask of move numbers) into prior
 * (g->moves floats, 0 for the other moves). */
void oxo_az_softmax(int moves, uint64_t legal, const float *logits, float *prior);
/* The move the bare policy plays in p (not finished): the legal move of highest logit, the
 * lowest on a tie. */
int oxo_az_pick(const oxo_az_net *n, const oxo_game *g, oxo_pos p);

/* The PUCT search, over a graph where every position has one node however many orders of the
 * moves reach it: from a root, simulations each follow the move of highest
 * Q + c * P * sqrt(N) / (1 + n) (Q the value of the position the move leads to, 0 until the move
 * is followed; P its prior; N the visits of its position, n the move's own) down to a position
 * not yet valued, which the caller evaluates (oxo_az_tree_want, then oxo_az_tree_feed: so a
 * trainer can evaluate the leaves of many searches in one batch), or to the end of the game,
 * whose result counts at once. A position's value is its network's value and its moves' values
 * weighted by their visits (azero.c says why). */
typedef struct oxo_az_tree oxo_az_tree;
/* A search of at most `sims` simulations on game g (NULL when memory runs out). */
oxo_az_tree *oxo_az_tree_new(const oxo_game *g, int sims);
void oxo_az_tree_free(oxo_az_tree *t);
/* Starts a search from p (not finished) with exploration c; noise (NULL: none) is a
 * distribution over the moves (g->moves floats) mixed into the root's priors with weight eps once
 * the root is valued: AlphaZero's Dirichlet noise, drawn by the caller. */
void oxo_az_tree_start(oxo_az_tree *t, oxo_pos p, double c, const float *noise, double eps);
/* 1 with *leaf the position to evaluate next; 0 once the simulations are done. */
int oxo_az_tree_want(oxo_az_tree *t, oxo_pos *leaf);
/* The evaluation of the leaf last given: its logits (g->moves) and its value for its side to
 * move. */
void oxo_az_tree_feed(oxo_az_tree *t, const float *logits, float value);
/* The visits of each root move (g->moves floats, 0 for illegal moves); returns their sum. */
double oxo_az_tree_visits(const oxo_az_tree *t, float *visits);
/* The root's moves' values weighted by their visits, for its side to move (0 before any): on a
 * tree, the mean result of the simulations through the root. */
double oxo_az_tree_q(const oxo_az_tree *t);
/* The value of root move `move` (on a tree, the mean result of its simulations), for the root's
 * side to move; -2, below every result, when it has none. */
float oxo_az_tree_mean(const oxo_az_tree *t, int move);
/* The most visited root move, ties by the higher value, then the lower move. */
int oxo_az_tree_best(const oxo_az_tree *t);

/* A whole search from p with network n (one evaluation at a time): the move it plays. */
int oxo_az_search(oxo_az_tree *t, const oxo_az_net *n, const oxo_game *g, oxo_pos p, double c);

#endif
