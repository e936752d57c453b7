/*
 * What the freestanding sources take from whoever compiles them, as liboxo and oxo-export compile
 * them: the integer types of masks and keys (64 bits here; an exported player defines the
 * narrowest that holds its board), how a weight is read (a float here; an exported network keeps
 * each weight's bits), and the largest arrays. An exported player defines the same names at its
 * top (oxo-export writes them), and this file is not part of it.
 */
#ifndef OXO_FREESTANDING_HOST_H
#define OXO_FREESTANDING_HOST_H

#include <stdint.h>

typedef uint64_t oxp_mask; /* a set of cells */
typedef uint64_t oxp_key;  /* a board: the mover's cells, the other's above them */
typedef uint64_t oxp_ekey; /* c-small: a canonical key << 6 | move */
typedef float oxp_weight;
#define oxp_W(w, i) ((w)[i])
#define oxp_WRAP    static inline      /* board.c's thin wrappers */
#define oxp_CTZ(m)  __builtin_ctzll(m) /* net.c: the lowest set bit, by the instruction */
#define oxp_SLOTS   8192 /* (image, tuple) slots of a network: OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM */

#endif
