/*
 * The explicit state space of a small game: every position reachable from the start, numbered.
 *
 * Numbering (the "indexing scheme" named in files, "ply-code"): positions are ordered by ply
 * (stones on the board), then by ascending raw code. With symmetry on, each position stands for its
 * canonical image (smallest code of its symmetric images) and moves are numbered on that canonical
 * board. For tic-tac-toe: 5,478 positions raw, 765 canonical.
 *
 * Edges are stored flat (CSR): the moves of node i are edges first[i] .. first[i+1]-1, in ascending
 * move order. Learners keep one Q value per edge and one V value per node, so these arrays are the
 * layout of a model's values too.
 */
#ifndef OXO_SPACE_H
#define OXO_SPACE_H

#include "game.h"

#include <stddef.h>
#include <stdint.h>

typedef struct oxo_space {
    const oxo_game *game;
    int symmetric; /* 1: nodes are canonical positions */
    uint32_t n;    /* nodes */
    uint32_t nedges;
    oxo_pos *pos;        /* the board of each node (canonical when symmetric) */
    uint64_t *code;      /* raw code of pos[i] */
    uint8_t *ply;        /* stones on the board */
    uint8_t *status;     /* oxo_status */
    uint32_t *first;     /* n + 1 entries */
    uint8_t *emove;      /* move of each edge, on the node's board */
    uint32_t *echild;    /* node reached by each edge */
    uint32_t *ply_first; /* nodes of ply k are ply_first[k] .. ply_first[k+1]-1 */
    int max_ply;
    uint32_t *hkey_idx; /* open-addressing hash: code -> node (UINT32_MAX empty) */
    uint32_t hmask;
} oxo_space;

/* Enumerates the space; NULL when memory runs out. */
oxo_space *oxo_space_build(const oxo_game *g, int symmetric);
void oxo_space_free(oxo_space *s);

/* The node of a board whose code is given (a canonical code when symmetric); -1 when
 * unreachable. */
int64_t oxo_space_find(const oxo_space *s, uint64_t code);

/* The node standing for any board: canonicalises first when symmetric. *sym receives the symmetry
 * that maps the board onto the node's board (0 when not symmetric). -1 when unreachable. */
int64_t oxo_space_locate(const oxo_space *s, oxo_pos p, int *sym);

/* The figures of the game that a space holds (formats/table.h's counts), by path counting over its
 * edges: the tree nodes reaching a position are the move sequences that reach it. Over a canonical
 * space a node stands for its whole orbit: a move of any board of the orbit is a move of the
 * node's board under one symmetry, so the paths into an orbit add up over the edges into its node,
 * and the positions of an orbit are its distinct images. Returns -1 when out of memory, 1 when a
 * tree figure does not fit in 64 bits (those are then left at 0). */
struct oxo_table_counts;
int oxo_space_count(const oxo_space *s, struct oxo_table_counts *c);

/* The edge of node i that plays move m (on the node's board); -1 if m is not legal there. */
int64_t oxo_space_edge(const oxo_space *s, uint32_t node, int move);

#endif
