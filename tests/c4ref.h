/*
 * The reference Connect-4 solver of the tests and the benchmark (tests/c4ref.c): the published
 * method alone, written apart from the oxo solver, positions given as columns played.
 */
#ifndef OXO_C4REF_H
#define OXO_C4REF_H

#include <stdint.h>

typedef struct c4ref c4ref;

/* A solver of the W x H board (W * (H + 1) <= 64) with its own 72 MB table; NULL when that does
 * not fit or memory runs out. */
c4ref *c4ref_new(int w, int h);
void c4ref_free(c4ref *r);
/* Forgets every entry of the table (the node count stays). */
void c4ref_clear(c4ref *r);
/* Nodes searched so far: calls of the negamax, over every solve. */
uint64_t c4ref_nodes(const c4ref *r);
/* The score of the position after cols[0..n-1] (columns from 0) for the side to move, in the
 * usual convention (positive: it wins, its size the winner's stones left plus one); -1 when the
 * columns are not a game that is still going on (a full column, a move after a win). */
int c4ref_solve(c4ref *r, const int *cols, int n, int *score);

#endif
