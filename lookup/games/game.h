/*
 * The game interface that every part of oxo is written against, and the registry's types.
 *
 * A game is a value: oxo_game_open("mnk:4,4,4") builds one from its spec, every operation takes it,
 * and two games live side by side in one process. Each family derives its rules, its symmetries
 * and its move order from its dimensions (mnk.c: W x H boards, K in a row; connect4.c: W columns of
 * height H, stones drop, four in a row), and answers what the rest of oxo asks of a game (what a
 * move is called, whether the solver serves it, the n-tuple learner's defaults). The families are
 * listed in registry.c; nothing outside the family files names one.
 *
 * A position is two bit masks relative to the side to move ({ me, opp }), so playing a move is
 * "set a bit, swap" and every value is negamax (from the point of view of the player to move).
 * Where the bits sit is the family's business (mnk: cell r * W + c; Connect-4: a column bitboard
 * with a sentinel bit per column). A move is a number below g->moves: a cell for m,n,k, a column
 * for Connect-4, whose landing cell depends on the position (oxo_cell_of_move).
 *
 * Symmetries are numbered 0..nsym-1, 0 being the identity. oxo_canonical() picks the image with
 * the smallest code and returns which symmetry produced it, so a move chosen on the canonical
 * board maps back to the real board with oxo_transform_move(g, move, oxo_inverse_sym(g, sym)).
 */
#ifndef OXO_GAME_H
#define OXO_GAME_H

#include <stddef.h>
#include <stdint.h>
#include "format.h"

#define OXO_MAX_MOVES 64 /* upper bound on move numbers and cells of any game (bits of a mask) */
#define OXO_MAX_SYM   8  /* the symmetries of a square */

typedef struct oxo_pos {
    uint64_t me;  /* stones of the side to move */
    uint64_t opp; /* stones of the side that just moved */
} oxo_pos;

/* How a position stands for the side to move. A finished game with a winner is always a loss
 * for the side to move: only the player who just moved can have completed a line. */
typedef enum oxo_status { OXO_ONGOING = 0, OXO_OVER_LOSS = 1, OXO_OVER_DRAW = 2 } oxo_status;

/* Game values for the side to move, ordered so that a larger number is better. */
enum { OXO_LOSS = -1, OXO_DRAW = 0, OXO_WIN = 1 };

typedef struct oxo_game oxo_game;

/* What ply_unrank keeps from one call to the next (the family's business); ply -1 when empty. */
typedef struct oxo_ply_hint {
    int ply;
    uint64_t num, a, b, c, d;
} oxo_ply_hint;

/* What a family implements. */
typedef struct oxo_game_ops {
    oxo_pos (*start)(const oxo_game *g);
    uint64_t (*legal)(const oxo_game *g, oxo_pos p); /* bit m: move m is legal (0 when over) */
    oxo_pos (*play)(const oxo_game *g, oxo_pos p, int move);
    /* The moves that may have led to p (bit m: undoing move m is possible), and the board before
     * such a move: for counting the move sequences into a position from its parents. */
    uint64_t (*unmoves)(const oxo_game *g, oxo_pos p);
    oxo_pos (*unplay)(const oxo_game *g, oxo_pos p, int move);
    oxo_status (*status)(const oxo_game *g, oxo_pos p);
    oxo_pos (*transform)(const oxo_game *g, oxo_pos p, int sym);
    int (*transform_move)(const oxo_game *g, int move, int sym);
    uint64_t (*code)(const oxo_game *g, oxo_pos p);      /* unique key of the absolute board */
    oxo_pos (*decode)(const oxo_game *g, uint64_t code); /* the board of a code (code_bits > 0) */
    /* Optional: the smallest code of p's images, and the symmetry giving it, without building the
     * images (oxo_canonical_code falls back to transform and code). */
    uint64_t (*canonical_code)(const oxo_game *g, oxo_pos p, int *sym);
    /* Optional: oxo_orbit_size without building the images (the fall-back transforms p under
     * each symmetry and codes each image: on Connect-4, two bitboards mirrored and two codes, where
     * mirroring the one code answers; a ply-at-a-time solve asks it of every member). */
    int (*orbit_size)(const oxo_game *g, oxo_pos p);
    int (*cell_of_move)(const oxo_game *g, oxo_pos p, int move);
    /* The board's cells, row by row from the top left: bit i of *x / *o is cell i. */
    void (*cells)(const oxo_game *g, oxo_pos p, uint64_t *x, uint64_t *o);
    /* At least the number of positions with `ply` stones (every image, the finished ones too),
     * saturating at UINT64_MAX: what a reader lets a file of the game hold before it allocates. */
    uint64_t (*positions_most)(const oxo_game *g, int ply);
    /* Optional: a dense numbering of the boards of each ply, for solving a game a ply at a time
     * (gen/plies.c). ply_size: the numbers of ply n are below it (UINT64_MAX: too many to number);
     * ply_rank: p's number in its ply, or with sym the number of its canonical image (the one
     * oxo_canonical gives) and the symmetry giving it in *sym; ply_unrank: the board numbered i in
     * ply n, faster when the caller walks a ply upwards and passes the same hint each time (or
     * NULL). Every board with a legal count of stones has a number, reachable or not. */
    uint64_t (*ply_size)(const oxo_game *g, int ply);
    uint64_t (*ply_rank)(const oxo_game *g, oxo_pos p, int *sym);
    oxo_pos (*ply_unrank)(const oxo_game *g, int ply, uint64_t i, struct oxo_ply_hint *hint);
    /* With the ply index, optional: the numbers of the canonical images of p's children, one for
     * each move of legal in ascending order, into nums; returns their count. Faster than ranking
     * each child alone (ply_rank), which it must equal. */
    int (*ply_children)(const oxo_game *g, oxo_pos p, uint64_t legal, uint64_t *nums);
    void (*free)(oxo_game *g);
} oxo_game_ops;

/* What the n-tuple learner does on a game when it is not told otherwise (oxo-train's defaults):
 * measured on the game's family, so the family says; a new family starts from GBG's (70 tuples,
 * one weight set, the opponent's afterstate, no replay) until it measures its own. */
typedef struct oxo_learn_defaults {
    int tuples;      /* tuples when neither --tuples nor --tuple-file is given */
    int weight_sets; /* 2: a set for each player; 1: one set both players' afterstates read */
    /* 1: an afterstate learns toward the same player's next one; 0: the opponent's */
    int target_own;
    int defend;      /* the second player defends where it thinks itself lost (--defend) */
    double starts;   /* share of exploring starts when --exploring-starts is not given (0: none) */
    int start_depth; /* an exploring start plays fewer than this many random moves (0: any) */
    int replay;      /* games in each worker's replay ring when --replay is not given (0: none) */
} oxo_learn_defaults;

struct oxo_game {
    const oxo_game_ops *ops;
    char spec[48]; /* canonical spec, stored in files: "mnk:3,3,3", "connect4:7,6" */
    char name[64]; /* for people: "tictactoe", "connect4 7x6", "mnk 4x4, 4 in a row" */
    int width, height, k;
    /* A rule, not a family: stones drop to the lowest free cell of a column, so a move is a column
     * and a free cell is playable only above a stone (geometry reads it: the board notation, the
     * n-tuple states, the exported player's symmetries). */
    int gravity;
    int rows, cols;      /* the board as people see it: height rows of width cells */
    int cells;           /* squares on the board */
    int moves;           /* distinct move numbers: cells, or columns with gravity */
    int nsym;            /* symmetries of the board, 0 is the identity */
    int max_plies;       /* longest game */
    int code_bits;       /* codes are below 2^code_bits (at most 64) */
    uint64_t code_space; /* codes are below this (0: 2^64 or more, or codes are not unique) */
    /* What the game answers about itself, set by its family: nothing outside the family files
     * decides these by asking which family a game is. */
    const char *move_noun;       /* what a move is called: "cell", "column" */
    const char *move_unplayable; /* after "<noun> N ": why a move on the board is refused */
    int cell_states; /* states of a cell for n-tuple indexing: 3, or 4 with "empty and playable" */
    int solver;      /* the exact search solver (c4solve.c) serves the game: any position's score,
                      * opening books, judged sets, the solver agent */
    oxo_learn_defaults learn;
    int inverse[OXO_MAX_SYM];
    int order[OXO_MAX_MOVES]; /* static move order for searches, best first */
    void *data;               /* the family's tables */
};

/* A family of games, a row of the registry (registry.c). A new family is a file that defines one
 * of these and a row in the registry's list; nothing else names it. */
typedef struct oxo_family {
    const char *name;  /* "mnk", "connect4" */
    const char *specs; /* the forms its specs take, for messages */
    /* Whether spec names a game of this family (its prefix, or an alias such as "tictactoe"). */
    int (*claims)(const char *spec);
    /* Builds the game of a claimed spec into g (zeroed): 0, or -1 with a sentence in err. */
    int (*init)(oxo_game *g, const char *spec, oxo_error *err);
} oxo_family;

/* The registry: every family, NULL-terminated, in the order messages list them. */
extern const oxo_family *const oxo_families[];

/* The forms every family's specs take, for messages ("tictactoe (= mnk:3,3,3), ..., or connect4
 * (= connect4:7,6)"), written into buf, which is returned. */
const char *oxo_game_specs(char *buf, size_t cap);
/* Reads n whole numbers "a,b[,c]", each 1 to 64: a spec's dimensions. 0, or -1 when malformed. */
int oxo_spec_numbers(const char *s, int *v, int n);

/* Builds the game of a spec; NULL with a sentence in err when the spec is unknown or out of range.
 * Free with oxo_game_free. */
oxo_game *oxo_game_open(const char *spec, oxo_error *err);
void oxo_game_free(oxo_game *g);
/* 1 when a and b are the same game. */
int oxo_game_same(const oxo_game *a, const oxo_game *b);

/* Tic-tac-toe (mnk:3,3,3), opened once on the first call and kept: a convenience for the tests. */
const oxo_game *oxo_tictactoe(void);

static inline oxo_pos oxo_start(const oxo_game *g)
{
    return g->ops->start(g);
}
static inline uint64_t oxo_legal(const oxo_game *g, oxo_pos p)
{
    return g->ops->legal(g, p);
}
static inline oxo_pos oxo_play(const oxo_game *g, oxo_pos p, int m)
{
    return g->ops->play(g, p, m);
}
static inline uint64_t oxo_unmoves(const oxo_game *g, oxo_pos p)
{
    return g->ops->unmoves(g, p);
}
static inline oxo_pos oxo_unplay(const oxo_game *g, oxo_pos p, int m)
{
    return g->ops->unplay(g, p, m);
}
static inline oxo_status oxo_status_of(const oxo_game *g, oxo_pos p)
{
    return g->ops->status(g, p);
}
static inline oxo_pos oxo_transform(const oxo_game *g, oxo_pos p, int s)
{
    return g->ops->transform(g, p, s);
}
static inline int oxo_transform_move(const oxo_game *g, int m, int s)
{
    return g->ops->transform_move(g, m, s);
}
static inline int oxo_inverse_sym(const oxo_game *g, int s)
{
    return g->inverse[s];
}
static inline uint64_t oxo_code(const oxo_game *g, oxo_pos p)
{
    return g->ops->code(g, p);
}
static inline oxo_pos oxo_decode(const oxo_game *g, uint64_t c)
{
    return g->ops->decode(g, c);
}
static inline int oxo_cell_of_move(const oxo_game *g, oxo_pos p, int m)
{
    return g->ops->cell_of_move(g, p, m);
}
static inline void oxo_cells(const oxo_game *g, oxo_pos p, uint64_t *x, uint64_t *o)
{
    g->ops->cells(g, p, x, o);
}
static inline int oxo_popcount(uint64_t x)
{
    return __builtin_popcountll(x);
}
static inline int oxo_ply(oxo_pos p)
{
    return oxo_popcount(p.me | p.opp);
}
static inline int oxo_x_to_move(const oxo_game *g, oxo_pos p)
{
    (void)g;
    return (oxo_ply(p) & 1) == 0;
}

/* Codes are below this number (3^cells for m,n,k, 2^(W (H + 1)) for Connect-4); 0 when that is
 * 2^64 or more, or codes are not unique. */
static inline uint64_t oxo_code_space(const oxo_game *g)
{
    return g->code_space;
}
/* At least the number of positions with up to `depth` stones (the sum of the family's per-ply
 * bound, saturating at UINT64_MAX). */
uint64_t oxo_positions_most(const oxo_game *g, int depth);
/* n choose k, saturating at UINT64_MAX: for the families' bounds. */
uint64_t oxo_choose_sat(int n, int k);

/* Canonical image: the image with the smallest code; *sym (if not NULL) receives its symmetry. */
oxo_pos oxo_canonical(const oxo_game *g, oxo_pos p, int *sym);
/* The number of distinct images of p under the game's symmetries (1 to nsym): the positions a
 * canonical position stands for. */
int oxo_orbit_size(const oxo_game *g, oxo_pos p);
/* The code of the canonical image (what tables are keyed by); faster than coding oxo_canonical. */
uint64_t oxo_canonical_code(const oxo_game *g, oxo_pos p, int *sym);

/* The winning lines over the cells of the board as people see them (oxo_cells: bit r * cols + c),
 * K in a row (four on Connect-4) across, down and along both diagonals: at most OXO_MAX_LINES
 * masks into lines; returns how many. For players that reason about lines whatever the family
 * (the alignment heuristic, the exported C player). */
#define OXO_MAX_LINES (4 * OXO_MAX_MOVES)
int oxo_cell_lines(const oxo_game *g, uint64_t lines[OXO_MAX_LINES]);
/* The board's symmetries as maps of the cells (oxo_cells: bit r * cols + c) and of the move
 * numbers, worked out from the board's shape, not from the family's bit layout: of the eight maps
 * of a square (bit 2 of s transposes, then bit 0 mirrors the columns and bit 1 the rows), those
 * that take the rows x cols board onto itself, and with gravity only those that keep the bottom
 * down (the identity and the mirror). cell[s * cells + c]: where map s takes cell c; move[s *
 * moves + m]: the same for move m. The maps are numbered in that order, the identity first; they
 * are the game's symmetries, though not in its own numbering. Returns how many (g->nsym). For
 * code that sees boards as cell masks (the exported player, a NEAT network's oriented inputs). */
int oxo_cell_maps(const oxo_game *g, uint8_t cell[OXO_MAX_SYM * 64],
                  uint8_t move[OXO_MAX_SYM * 64]);
/* The directions of those lines, as a step in rows and one in columns, in this order: across,
 * down, down-right, down-left (every one toward higher cell numbers). */
extern const int oxo_line_dirs[4][2];

/* A position of random play, as judged sets draw them: a game from the start, each move drawn
 * uniformly from *rng, stopped after a number of stones drawn uniformly from min_stones to the
 * last ply, or earlier where the game ends. Returns the stones played when the game is still on
 * there with at least min_stones of them (*out the position, moves[] the moves, if not NULL), or
 * -1 when it is not (the draws from *rng were made either way). */
int oxo_random_position(const oxo_game *g, int min_stones, uint64_t *rng, oxo_pos *out, int *moves);

#endif
