/*
 * Reference search solvers, written against the game interface: they need no table, so they are
 * the judge for boards too big to tabulate. All score positions the same way (distance-carrying
 * negamax, see search.c) and count the positions they visit below the root.
 */
#ifndef OXO_SEARCH_H
#define OXO_SEARCH_H

#include "c4solve.h"
#include "player.h"
#include "game.h"

#include <stdint.h>

typedef enum oxo_variant {
    OXO_MINIMAX = 0,
    OXO_ALPHABETA,
    OXO_ALPHABETA_ORDERED,
    OXO_ALPHABETA_DYNAMIC,
    OXO_MEMO,
    OXO_MEMO_CANONICAL,
    OXO_VARIANT_NB
} oxo_variant;

typedef struct oxo_search_result {
    int value;    /* OXO_WIN/DRAW/LOSS for the side to move */
    int distance; /* plies to the end under optimal play */
    int nbest;
    int best[OXO_MAX_MOVES]; /* every move that keeps value and distance, ascending */
    uint64_t nodes;          /* positions visited below the root */
    double seconds;
} oxo_search_result;

const char *oxo_variant_name(int v);
int oxo_variant_find(const char *name); /* -1 when unknown */

/* Solves p; returns 0, or -1 when the transposition table cannot be allocated. A finished
 * position has no best move and distance 0. */
int oxo_search(const oxo_game *g, oxo_pos p, int variant, oxo_search_result *r);

/* oxo-gen --search: parses the board, searches, prints; returns the exit code. */
/* oxo-gen --search solve: the Connect-4 solver (lookup/c4solve.h) on a position; prints the
 * position's score and each column's (null for a full column), or only their signs with weak.
 * book_file (or NULL): an opening book that answers the columns whose positions it holds (the
 * solver searches the others), opened once the position is known to be good: a mistyped position
 * is refused at once, not after the book's check. */
int oxo_c4_solve_main(const char *prog, const oxo_game *g, const char *board, int json, int weak,
                      unsigned tt_mb, const char *book_file);

/* One position on every thread (lazy SMP): the main solver sv on thread 0, helpers[1..threads-1]
 * (oxo_c4solver_helper of sv) on the others, all in sv's table; when the main search has the
 * score, the helpers are told to stop. The score is the main search's, exact whatever the helpers
 * did; only the time and the nodes vary. With one thread, oxo_c4solve. */
int oxo_c4solve_smp(oxo_c4solver *sv, oxo_c4solver **helpers, int threads, oxo_pos p, int weak);

/* oxo-gen --judge-set: a judged set of n Connect-4 positions (train/judge.h) written to out. */
int oxo_judge_set_main(const char *prog, const oxo_game *g, uint32_t n, int min_stones,
                       uint64_t seed, const char *out, unsigned tt_mb, int progress);

int oxo_search_main(const char *prog, const oxo_game *g, const char *variant, const char *board,
                    int json);

#endif
