/*
 * Solving a whole game on every core: enumeration of the canonical positions ply by ply into a
 * bitmap of codes, then retrograde analysis from the last ply to the first, and the tree figures
 * by path counting. The positions are never stored one by one: the bitmap of their codes with its
 * rank directory (lookup/keyset.h) numbers them, and a few bytes per position hold their ply,
 * their entry and their path count. This is what lets oxo-gen solve connect4:6,4 (94,910,577
 * positions) in well under 16 bytes per position, and what a table stores.
 */
#ifndef OXO_RETRO_H
#define OXO_RETRO_H

#include "game.h"
#include "keyset.h"
#include "table.h"

typedef struct oxo_retro {
    const oxo_game *g;
    oxo_keyset keys;  /* codes of the canonical positions */
    uint8_t *entries; /* per member, in code order: OXO_ENTRY(value, distance) */
    int max_ply;
    uint64_t by_ply[OXO_MAX_MOVES + 1];       /* positions of each ply (all images) */
    uint64_t canon_by_ply[OXO_MAX_MOVES + 1]; /* canonical positions of each ply */
    oxo_table_counts counts;
    int tree_fits;       /* the tree figures (nodes, games, wins, draws) fit in 64 bits */
    uint64_t peak_bytes; /* the most memory the run held at once */
} oxo_retro;

/* The memory a solve of g needs at most, in bytes, from an upper bound on its positions (boards
 * with a legal count of stones); *positions receives that bound. 0 when the game cannot be
 * solved this way at all (codes beyond 2^40, boards of 64 cells). */
uint64_t oxo_retro_estimate(const oxo_game *g, uint64_t *positions);

/* Solves g. progress: show a progress line with an ETA on stderr. tree: count the tree figures
 * too (8 more bytes per position). Returns NULL with a sentence in err. */
oxo_retro *oxo_retro_solve(const oxo_game *g, int progress, int tree, oxo_error *err);
void oxo_retro_free(oxo_retro *r);

/* The table of a solve (format 2: the key bitmap and the entries); r keeps its arrays, the table
 * borrows them until oxo_retro_free. */
void oxo_retro_table(const oxo_retro *r, oxo_table *t);
/* Up to this many canonical positions a table is written in format 1 (oxo_retro_table_small). */
#define OXO_SMALL_TABLE 10000
/* A small game's table in format 1 (index "ply-code": the positions numbered by the enumeration the
 * reader repeats, so no keys are stored): tic-tac-toe in 543 bytes, where format 2's bitmap of
 * codes took 1,155 (the first issue asked for at most 1,024). Up to OXO_SMALL_TABLE canonical
 * positions, where enumerating them when the table opens takes no time; bigger tables keep format
 * 2, which opens without enumerating. Turns t (from oxo_retro_table) into it and returns its
 * entries in the enumeration's order (the caller frees them, after t); NULL, t unchanged, when the
 * table stays in format 2. */
uint8_t *oxo_retro_table_small(const oxo_retro *r, oxo_table *t);

/* Shared by the solvers of gen/ (retro.c, plies.c). */

/* The words of a bitmap from which a pass is worth a team of threads: 65,536 (4 M codes), or
 * OXO_RETRO_PARALLEL_WORDS, which the thread checks of the tests (tests/tsan_gen.c) lower to
 * solve small games on several threads. */
int64_t oxo_retro_parallel_words(void);

/* A progress line on stderr, when on: the stage, what is being done, and once some of a known
 * total is done, the share and an ETA from the time since the stage began. */
typedef struct oxo_progress {
    int on;
    const char *stage;
    double t0;
    double last; /* when the line was last written (a pass that reports from within a ply says
                  * something once a second) */
} oxo_progress;
void oxo_say(oxo_progress *p, const char *stage, double done, double total, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
