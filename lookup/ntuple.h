/*
 * n-tuple networks: a value function for boards too large for a table (Connect-4 7x6), after the
 * TD n-tuple agents of the GBG framework (Thill, Konen et al.), written from the method.
 *
 * An n-tuple is a sequence of n board cells; its weight table has one entry per way of filling
 * those cells with cell states. The states are read from the point of view of one player P: 0
 * empty, 1 P's stone, 2 the other's stone and, in games with gravity, 3 "empty and playable now"
 * (the lowest free cell of its column), so 3 or 4 states. The network sums, over the tuples and
 * over the images of the board under the game's symmetries, the weight that each tuple's cells
 * select, and the value is tanh of that sum: a number in (-1, 1), the value for P.
 *
 * The network values afterstates: P is the player who just moved, so the value of a move is the
 * value of the board it leads to, read from the mover's side, without turning the board around.
 * Read that way, the same stones mean different things for the two players: in Connect-4 a threat
 * on an odd row is the first player's strength and not the second's (zugzwang decides who must
 * fill the cell below). With one weight set both players' afterstates share every weight and the
 * network cannot tell them apart; with two (the default with gravity) each player has its own:
 * on 7x6 it took the games won as the first player against the perfect player from 15 of 200 to
 * 164 (train/RECORD.md). A move that ends the game is worth its result (1 for a win, 0 for a draw)
 * and never asks the network. Cells are numbered as people see the board (oxo_cells: r * cols + c,
 * row 0 on top).
 */
#ifndef OXO_NTUPLE_H
#define OXO_NTUPLE_H

#include "game.h"

#include <stddef.h>
#include <stdint.h>

#define OXO_NTUPLE_MAX_LEN     12         /* cells per tuple */
#define OXO_NTUPLE_MAX_COUNT   1024       /* tuples per network */
#define OXO_NTUPLE_MAX_WEIGHTS (1u << 24) /* 64 MiB of float weights */

typedef struct oxo_ntuple {
    const oxo_game *g;
    int count, len, states;
    int nsym;          /* board images the sum runs over (the game's symmetries) */
    uint8_t *cells;    /* count * len cells, tuple by tuple */
    uint8_t *images;   /* nsym * count * len: the cells each tuple reads on each image */
    int sets;          /* weight sets: 1, both players', or 2, one for each player */
    uint32_t nweights; /* sets * per_set: the weights held (the network's layout, below) */
    uint32_t per_set;  /* weights of one set: the tuples' spans added up */
    /* sets * count * states^len: the weights of a model file of minor 3 or before (every
     * filling); 0 when beyond the bound, as no such file was */
    uint32_t nfull;
    uint32_t *off; /* count: where tuple t's weights start within a set */
    uint32_t *dig; /* count * len * 4: what cell i of tuple t adds to its index in state s, at
                    * (t * len + i) * 4 + s */
    float *w;      /* the weights, tuple t's at off[t], the second player's set after the
                    * first's (per_set further) (owned unless borrowed) */
    int own_w;
    /* Where each cell is read, for incremental indexes: cell c's entries are occ_slot/occ_dig
     * [occ_first[c], occ_first[c + 1]): the (image, tuple) slot and the row of dig (t * len + i).
     */
    uint32_t *occ_first, *occ_dig;
    uint16_t *occ_slot;
    /* What a move at cell c does to the indexes read from the mover's side: the slots it changes,
     * each once, and by how much (mod 2^32), for mv_first[c] <= e < mv_first[c + 1]. With gravity
     * a move fills c and makes the cell above playable, and both are often read by one slot. */
    uint32_t *mv_first, *mv_delta;
    uint16_t *mv_slot;
} oxo_ntuple;

/* The number of weights of count tuples of len cells over `states` states, one for every filling
 * (the network's layout without gravity, a file's of minor 3 and before); 0 when above
 * OXO_NTUPLE_MAX_WEIGHTS. */
uint32_t oxo_ntuple_weights(int count, int len, int states);
/* n zeroed weights on huge pages where possible; free with free(). */
float *oxo_ntuple_weights_alloc(uint32_t n);
/* The states a game's cells take: 4 with gravity, else 3. */
int oxo_ntuple_states(const oxo_game *g);

/* 1 when a network of count tuples of len cells with `sets` weight sets (1 or 2) is within the
 * limits above and the board; else 0 with a sentence in err. The bound on the weights is
 * oxo_ntuple_new's: it needs the tuples' cells (with gravity, their columns). */
int oxo_ntuple_check(const oxo_game *g, long count, long len, long sets, oxo_error *err);
/* A network over given tuples (count * len cells; checked: each below g->cells, distinct within a
 * tuple, and at most OXO_NTUPLE_MAX_WEIGHTS weights in the network's layout) with `sets` weight
 * sets (1 or 2). weights: borrowed when not NULL (nweights of them, in
 * the network's layout), else zeros owned by the network. NULL with a sentence in err when the
 * tuples do not fit the game. */
oxo_ntuple *oxo_ntuple_new(const oxo_game *g, int count, int len, int sets, const uint8_t *cells,
                           float *weights, oxo_error *err);
void oxo_ntuple_free(oxo_ntuple *n);

/* A model file of minor 3 or before holds each tuple's states^len weights, one for every way of
 * filling its cells (formats/FORMAT.md); with gravity most of those fillings cannot happen (a
 * stone never floats above an empty cell), and the network keeps only the ones that can (nweights,
 * not nfull: on 7x6 with 70 tuples of 8 cells about a ninth), as files from minor 4 do. pack takes
 * such a file's nfull weights into the network's layout at w; it returns -1, or the index in full
 * of a weight that is not 0 at a filling no board reaches (w is then incomplete: the file is
 * refused). On boards without gravity the two layouts are one. */
int64_t oxo_ntuple_pack(const oxo_ntuple *n, const float *full, float *w);
/* Weights of model m (its values, or the mean its averaging has taken so far: src, m->nvalues of
 * them), a network of n's tuples, into n's layout at w: copied from a file of minor 4 and later,
 * packed from one of every filling (formats' oxo_model_every_filling). 0, or -1 with a sentence in
 * err: a count that is not the tuples', or a weight at a filling no board has (the player and
 * oxo-train --resume refuse the file). */
struct oxo_model;
int oxo_ntuple_load(const oxo_ntuple *n, const struct oxo_model *m, const float *src, float *w,
                    oxo_error *err);

/* Tuples made by random walks over neighbouring cells (the 8 around a cell), each of len distinct
 * cells, drawn from the stream `seed`: the way GBG makes its Connect-4 tuples. A share `lines`
 * (0 to 1, spread evenly over the tuples) of the walks start from a whole line of the game's k
 * cells in a row instead of one cell, the four directions (across, down, the two diagonals) in
 * turn, each placed at random where it fits: a tuple then holds a whole line, which one that
 * wanders from a cell rarely does on a diagonal (when len < k, or no line fits, every walk starts
 * from one cell). cells receives count * len cells. 0, or -1 when the board has fewer than len
 * cells. */
int oxo_ntuple_random_walks(const oxo_game *g, int count, int len, double lines, uint64_t seed,
                            uint8_t *cells);

/* The weight indexes a board selects, read from the side of the player who owns `mine`: one per
 * tuple and image, count * nsym of them into idx (absolute, into w). */
void oxo_ntuple_active(const oxo_ntuple *n, oxo_pos after, uint32_t *idx);
/* tanh, the same bits on every machine (not libm's tanhf): the value of a sum. */
float oxo_ntuple_tanh(float x);
/* The sum of the weights at idx (count * nsym indexes), and the value tanh of it. */
float oxo_ntuple_sum(const oxo_ntuple *n, const uint32_t *idx);
/* The value of an afterstate for the player who just made it (after.opp): tanh of the sum. */
float oxo_ntuple_value(const oxo_ntuple *n, oxo_pos after);

/* The value of each legal move of p for the side to move: its result when it ends the game (1 a
 * win, 0 a draw), else the network's value of the board it leads to. Returns the number of legal
 * moves; moves[i] and values[i] in ascending move order. */
int oxo_ntuple_moves(const oxo_ntuple *n, oxo_pos p, int *moves, float *values);

/* The defence of a player who thinks itself lost (oxo-train --defend): of p's legal moves that do
 * not end the game, the one after which the opponent's best move is worth least, the lowest such
 * move on ties; -1 when every move ends it. A reply that wins ranks above all, a draw as 0, the
 * others by the sum of their afterstate's weights (the sum after the move plus the slots the
 * reply changes), so that saturated values (tanh of 1) still rank. */
int oxo_ntuple_least_reply(const oxo_ntuple *n, oxo_pos p);

/* Incremental evaluation along a game: the weight indexes of the current position read from each
 * player's side (0: X's, 1: O's), brought up to date move by move (a move changes one or two
 * cells, read by a few dozen slots) instead of recomputed from every cell of every tuple. */
typedef struct oxo_ntuple_walk {
    uint32_t *idx[2];
} oxo_ntuple_walk;

int oxo_ntuple_walk_init(const oxo_ntuple *n, oxo_ntuple_walk *w); /* 0, or -1 out of memory */
void oxo_ntuple_walk_free(oxo_ntuple_walk *w);
/* Sets the walk to position p. */
void oxo_ntuple_walk_start(const oxo_ntuple *n, oxo_ntuple_walk *w, oxo_pos p);
/* The indexes of move m's afterstate from the mover's side into out (count * nsym); returns the
 * sum of their weights. The walk is unchanged. */
float oxo_ntuple_walk_after(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                            uint32_t *out);
/* The same indexes without their sum. */
void oxo_ntuple_walk_indexes(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                             uint32_t *out);
/* The sum of the weights of p's own indexes read from the side to move, and, given that sum, the
 * sum of move m's afterstate as oxo_ntuple_walk_after has it, from the few slots the move changes:
 * a trainer that values every move of a position reads each slot the moves share once. Equal to
 * oxo_ntuple_walk_after's up to the order of the additions. */
float oxo_ntuple_walk_base(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p);
float oxo_ntuple_walk_after_sum(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                                float base);
/* Plays move m of p on the walk. */
void oxo_ntuple_walk_play(const oxo_ntuple *n, oxo_ntuple_walk *w, oxo_pos p, int m);
/* oxo_ntuple_least_reply of the walk's position p, the same move, from the walk's indexes. */
int oxo_ntuple_walk_least_reply(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p);

#endif
