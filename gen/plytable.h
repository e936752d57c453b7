/*
 * The table of a solve a ply at a time (FORMAT.md, table format 3), written ply by ply: each ply
 * solved is saved at once as its own file beside the table (OUT.ply-N, its blocks of entries
 * compressed), so a run killed at any moment resumes from the last ply it finished; the table is
 * put together from those files at the end, and they are then removed.
 */
#ifndef OXO_PLYTABLE_H
#define OXO_PLYTABLE_H

#include "plies.h"

typedef struct oxo_plytable oxo_plytable;

/* The table of g at path out, in blocks of `block` numbers (a power of 2, 256 to 2^24; 0 for the
 * default). resume: take up the plies an earlier run saved; without it such files are refused
 * (naming them) rather than overwritten. NULL with err set. */
oxo_plytable *oxo_plytable_open(const oxo_game *g, const char *out, uint32_t block, int resume,
                                oxo_error *err);
/* This process is rank `rank` of `ranks` (1: a plain process). Under mpirun each rank saves its
 * share of each ply as its own file (OUT.ply-N.rank-R); rank 0 puts the table together from all of
 * them. Called by every rank (it agrees with the others: a ply counts as saved when every rank
 * saved its share), with open's resume: 0, or -1 with err set when this rank found a share of an
 * interrupted run and resume is off, or plies saved by a run on another number of ranks (every
 * rank must then stop: oxo_plies_mpi_any). */
int oxo_plytable_share(oxo_plytable *w, int rank, int ranks, int resume, oxo_error *err);
/* The sink to hand oxo_plies_solve (its ctx is w). */
oxo_plies_sink oxo_plytable_sink(oxo_plytable *w);
/* Writes the table from the plies saved and the figures of s, removes the ply files: 0, or
 * non-zero with err set (the ply files are then kept). *bytes: the table's size. */
int oxo_plytable_finish(oxo_plytable *w, const oxo_plies *s, uint64_t *bytes, oxo_error *err);
void oxo_plytable_close(oxo_plytable *w);

/* The default numbers of a block: 16 K, a lookup that reads one taking about 30 microseconds. On
 * connect4:6,4, blocks of 4 K made the file 30% larger for lookups of 16 us, blocks of 64 K 11%
 * smaller for 80 us (gen/RECORD.md). */
#define OXO_PLYTABLE_BLOCK 16384u

#endif
