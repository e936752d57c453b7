/*
 * oxo-gen --book: the opening book of a Connect-4 game, every position up to a number of stones
 * with its exact score, written as a partial table (format 2, "sorted-codes", FORMAT.md 2.1).
 *
 * Only the positions at the book's depth (the leaves) are searched, by the strong solver of
 * lookup/c4solve.h; every shallower position is the negamax of its children. The leaves are
 * solved on every core (one solver a thread, all in one transposition table), the quick ones
 * first by a probe with a small node budget, then the rest with those whose score the probe left
 * widest open first (hardest first, so that no long solve starts last). Work is saved to a
 * checkpoint every few minutes and on SIGINT/SIGTERM; --resume takes it up. Built with MPI and
 * started by mpirun, every rank solves its share of the leaves (OpenMP inside), the scores are
 * gathered, and rank 0 writes the book: the same bytes as one process, since every score is
 * exact.
 */
#ifndef OXO_BOOK_H
#define OXO_BOOK_H

#include "game.h"

typedef struct oxo_book_opts {
    int depth;              /* stones: every position with up to depth stones */
    const char *out;        /* the book file (checkpoints beside it: OUT.ckpt, OUT.ckpt.RANK) */
    int resume;             /* take up the checkpoints of an interrupted run */
    unsigned tt_mb;         /* transposition table per thread */
    double checkpoint_secs; /* between checkpoints */
    /* >= 0: no book; solve this many leaves drawn at random, project the cost */
    long sample;
    uint64_t seed; /* of the sample */
    int json, progress;
} oxo_book_opts;

/* Runs oxo-gen --book (or --book --sample); returns the exit status. MPI, when built in, is set
 * up and torn down inside, and only when the process was started by mpirun. */
int oxo_book_main(const char *prog, const oxo_game *g, const oxo_book_opts *o);

#endif
