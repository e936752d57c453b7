/*
 * NEAT networks as they play: a genome of node and link genes (Stanley and Miikkulainen, 2002)
 * made into a feed-forward network that scores the moves of a position. The trainer
 * (train/learners/neat.c) evolves the genomes; the player (lookup/sources/neat.c) and every program
 * after it only read the network this file builds.
 *
 * Inputs: one a cell of the board (oxo_cells: r * cols + c), 1 for a stone of the side to move, -1
 * for the other side's, 0 when empty (in an oriented network, of the board's image that
 * oxo_neat_orient says), then a bias input that is always 1, then in a network of tactics three
 * inputs a move (whether it wins, blocks, or lets the other side win: freestanding/neat.c,
 * oxp_neat_tactics): so `cells + 1` inputs, or `cells + 1 + 3 moves` (oxo_neat_inputs), nodes 0
 * on. Outputs: one a move number (g->moves), the nodes after the inputs. A network of afterstates
 * instead has one output and 3 tactics' inputs, and is evaluated once a legal move, on the board
 * after it (the mover's stones 1) with that move's tactics: its output is the move's. The move
 * played is the legal move of the highest output, the lowest move on a tie, compared by the
 * output nodes' sums before the sigmoid: the same order, without the ties the sigmoid's rounding
 * makes once it saturates (in float, 1 / (1 + e^(-4.9 x)) is exactly 1 for every x above about
 * 3.5, and an evolved network's outputs were mostly there, each such position played as its lowest
 * move).
 * Hidden nodes are numbered after the outputs, in the order the run made them. Every hidden and
 * output node computes sigmoid(4.9 x), x the sum of its enabled incoming links' weights times their
 * sources' outputs, the steepened sigmoid of the NEAT paper (1 / (1 + exp(-4.9 x))), computed as
 * (1 + tanh(2.45 x)) / 2 in single precision from oxo's own tanh (lookup/freestanding/tanh.c), so
 * that no system library's exponential enters the values. No link enters
 * an input; no link leaves an output; the enabled links make no cycle (the trainer adds none, the
 * reader refuses one).
 */
#ifndef OXO_NEAT_H
#define OXO_NEAT_H

#include "game.h"

#include <stdint.h>

/* What a network reads (its model's neat.tactics and neat.afterstate, FORMAT.md): the cells
 * alone; the cells and three tactics a move, an output a move; or each move's afterstate and
 * tactics, one output scoring each move in turn (freestanding/neat.c, oxp_neat_afterstates). */
enum { OXO_NEAT_CELLS, OXO_NEAT_TACTICS, OXO_NEAT_AFTERSTATE };
/* Their names (`oxo-train --inputs`, `oxo-play --info`), in that order, then NULL. */
extern const char *const oxo_neat_input_names[];

/* The most a genome holds (a reader refuses more): enough for any board of 64 cells. */
#define OXO_NEAT_MAX_HIDDEN 4096
#define OXO_NEAT_MAX_LINKS  65536
/* The most nodes of a network: inputs (cells, the bias, three a move of tactics), outputs, hidden.
 */
#define OXO_NEAT_MAX_NODES (OXO_MAX_MOVES + 1 + 4 * OXO_MAX_MOVES + OXO_NEAT_MAX_HIDDEN)

/* A link gene: from node `from` to node `to`, its innovation number, whether enabled, its weight.
 */
typedef struct oxo_neat_link {
    uint32_t from, to, innov;
    uint32_t on;
    float w;
} oxo_neat_link;

/* The network of a genome, in evaluation order. */
typedef struct oxo_neat_net {
    int inputs, outputs; /* oxo_neat_inputs; oxo_neat_outputs */
    int nodes;           /* inputs + outputs + hidden */
    int ncomp;           /* the nodes computed: hidden and outputs, sources before targets */
    uint32_t *comp;      /* ncomp dense node indexes, in order */
    uint32_t *first;     /* ncomp + 1: node comp[i]'s links are first[i] .. first[i + 1] - 1 */
    uint32_t *src;       /* the links' dense sources */
    float *w;            /* and weights */
    /* Oriented inputs (neat.orientation "canonical", oxo_neat_orient): the board's symmetries as
     * maps of cells and of moves (oxo_cell_maps); nsym 0: the board as it is. */
    int nsym;
    uint8_t perm[OXO_MAX_SYM * 64], mperm[OXO_MAX_SYM * 64];
    /* Tactics' inputs: the board's lines (oxo_cell_lines), kept so that no forward pass makes
     * them again; tactics 0: none. afterstate: a network of afterstates (it reads tactics). */
    int tactics, afterstate, nlines;
    uint64_t lines[OXO_MAX_LINES];
} oxo_neat_net;

/* The inputs of a network for game g reading `inputs` (OXO_NEAT_CELLS...): cells + 1, and 3 a
 * move more with tactics, 3 in all for afterstates. */
int oxo_neat_inputs(const oxo_game *g, int inputs);
/* Its outputs: one a move of g, one for afterstates. */
int oxo_neat_outputs(const oxo_game *g, int inputs);

/* The dense index of node id among the genome's (inputs, outputs, then hidden ascending), -1 when
 * the genome has no such node. */
int oxo_neat_dense(int inputs, int outputs, const uint32_t *hidden, uint32_t nhidden, uint32_t id);

/* Builds the network of a genome for game g, reading `inputs` (OXO_NEAT_CELLS...): nhidden hidden
 * node ids (ascending, each above the outputs), nlinks links (disabled ones skipped). 0, or -1 with
 * err saying what is wrong (a link to an unknown node, into an input, out of an output, a cycle) or
 * that memory ran out. */
int oxo_neat_build(oxo_neat_net *n, const oxo_game *g, int inputs, const uint32_t *hidden,
                   uint32_t nhidden, const oxo_neat_link *links, uint32_t nlinks, oxo_error *err);
void oxo_neat_free(oxo_neat_net *n);
/* Makes n a network of oriented inputs: it sees each board of g in one orientation of its class
 * (the image whose other side's cells are least, then the mover's; freestanding/neat.c), so that
 * it plays the images of a board alike. A game without symmetries leaves it as it is. */
void oxo_neat_orient(oxo_neat_net *n, const oxo_game *g);

/* The sums (before their sigmoid) scoring the moves of position p into out (g->moves floats: the
 * output nodes', or an afterstate network's output after each move; 0 for an output nothing
 * enters, or a move not legal), computed by lookup/freestanding/neat.c, as an exported player
 * computes them; act: scratch of n->nodes floats, each node's output (the inputs first). */
void oxo_neat_forward(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act, float *out);
/* The legal moves of p (not finished), ascending, and their scores x / (1 + |x|), x the output's
 * sum: in (-1, 1), in the order of the outputs;
 * act: scratch of n->nodes floats. The number of moves. */
int oxo_neat_moves(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act, int *moves,
                   float *score);
/* The move the network plays in p (not finished): the legal move of highest output sum, the
 * lowest on a tie. */
int oxo_neat_pick(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act);

#endif
