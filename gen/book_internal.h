/*
 * What the book's files share (book.c builds, book_ckpt.c keeps its checkpoints): the levels of
 * positions by stones and the checkpoints' interface.
 */
#ifndef OXO_BOOK_INTERNAL_H
#define OXO_BOOK_INTERNAL_H

#include "game.h"
#include "keyset.h"

#include <stddef.h>
#include <stdint.h>

#define UNSOLVED INT8_MIN /* no score is below -32 (connect4 boards hold at most 64 cells) */
/* The probe's budget: most leaves of a deep book finish within it (a few milliseconds each), and
 * the others get their order from how far the probe got. */
#define PROBE_NODES 100000

typedef struct level {
    /* canonical codes of the unfinished positions with this many stones, ascending */
    uint64_t *code;
    int8_t *score;
    size_t n;
} level;

/* The index of code in level l, or -1. */
static inline int64_t find(const level *l, uint64_t code)
{
    return oxo_sorted_find(l->code, 0, l->n, code);
}

/* The checkpoints of an output: OUT.ckpt, and OUT.ckpt.R for a rank R in decimal: exactly those
 * names, found by reading the folder rather than by a pattern (the output's own name may hold * or
 * [ ], and a person's OUT.ckpt.bak, another run's files or a save's temporary OUT.ckpt.1.tmp.XXXXXX
 * are none of them), in the order of their names. */
typedef struct ckpt_list {
    char **v;
    size_t n;
} ckpt_list;

/* The checkpoint of rank `rank` of `ranks` beside out: OUT.ckpt, or OUT.ckpt.R under MPI. */
void ckpt_name(const char *out, int rank, int ranks, char *buf, size_t cap);
/* The leaves' scores and probe verdicts (open) saved at path, atomically: 0, or -1 said. */
int ckpt_write(const char *prog, const char *path, const oxo_game *g, int depth,
               const level *leaves, const int *open);
/* One checkpoint read into the leaves' scores and probe verdicts: the number of solved leaves it
 * gave, or -1 said (naming the line). */
long ckpt_read(const char *prog, const char *path, const oxo_game *g, int depth, level *leaves,
               int *open);
void ckpt_list_free(ckpt_list *l);
/* Every checkpoint of out (of any number of ranks): their count, or -1 out of memory. */
int ckpt_find(const char *out, ckpt_list *l);
/* Removes the checkpoints of out: exactly the names ckpt_find finds. */
void ckpt_remove(const char *out);

#endif
