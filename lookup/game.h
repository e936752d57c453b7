/*
 * The small game interface that gen/ and train/ are written against.
 *
 * A game is a table of function pointers over one position type: two bit masks relative to the
 * side to move ({ me, opp }), so playing a move is "set a bit, swap" and every value is negamax
 * (from the point of view of the player to move). Tic-tac-toe (ttt.c) is the first game; 4x4 boards
 * fit the same masks unchanged, Connect-4 (42 cells, moves are columns) fits in 64-bit masks.
 *
 * Symmetries are numbered 0..nsym-1, 0 being the identity. oxo_canonical() picks the image with the
 * smallest code and returns which symmetry produced it, so a move chosen on the canonical board
 * maps back to the real board with transform_move(move, inverse_sym(sym)).
 */
#ifndef OXO_GAME_H
#define OXO_GAME_H

#include <stdint.h>

#define OXO_MAX_MOVES 64 /* upper bound on move numbers of any game (bits of a mask) */
#define OXO_MAX_SYM 8    /* the symmetries of a square */

typedef struct oxo_pos {
    uint64_t me;  /* stones of the side to move */
    uint64_t opp; /* stones of the side that just moved */
} oxo_pos;

/* How a position stands for the side to move. A finished game with a winner is always a loss
 * for the side to move: only the player who just moved can have completed a line. */
typedef enum oxo_status { OXO_ONGOING = 0, OXO_OVER_LOSS = 1, OXO_OVER_DRAW = 2 } oxo_status;

/* Game values for the side to move, ordered so that a larger number is better. */
enum { OXO_LOSS = -1, OXO_DRAW = 0, OXO_WIN = 1 };

typedef struct oxo_game {
    const char *name; /* stored in files: "tictactoe" */
    int rows, cols;
    int cells;     /* squares on the board */
    int moves;     /* distinct move numbers: cells for placement games */
    int nsym;      /* symmetries of the board, 0 is the identity */
    int max_plies; /* longest game */
    oxo_pos (*start)(void);
    uint64_t (*legal)(oxo_pos p); /* bit m set when move m is legal (empty on finished games) */
    oxo_pos (*play)(oxo_pos p, int move);
    oxo_status (*status)(oxo_pos p);
    oxo_pos (*transform)(oxo_pos p, int sym);
    int (*transform_move)(int move, int sym);
    int (*inverse_sym)(int sym);
    uint64_t (*code)(oxo_pos p); /* raw code of the absolute board (X and O, not me and opp) */
    int (*x_to_move)(oxo_pos p); /* 1 when the first player (X) is to move */
    int (*cell_of_move)(int move);
    /* The game's static move order for searches, best first (tic-tac-toe: cells on the most
     * winning lines first, i.e. centre, corners, edges). Fills moves[0..moves-1]. */
    void (*static_order)(int *moves);
} oxo_game;

/* The registry: every game this build knows. NULL for an unknown name. */
const oxo_game *oxo_game_find(const char *name);
const oxo_game *oxo_tictactoe(void);

/* Canonical image: the image with the smallest code; *sym (if not NULL) receives its symmetry. */
oxo_pos oxo_canonical(const oxo_game *g, oxo_pos p, int *sym);

static inline int oxo_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int oxo_ply(oxo_pos p) { return oxo_popcount(p.me | p.opp); }

#endif
