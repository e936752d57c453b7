/*
 * Solving a game a ply at a time over its ply index (game.h: ply_size, ply_rank, ply_unrank), for
 * boards whose codes are too many for a bitmap of codes (retro.h): connect4:6,5 has 2^36 codes
 * but 2.8 billion positions. Each ply is a bitmap of its canonical reachable boards by their
 * numbers in the ply, with a rank directory, and an entry per member; a ply is solved from the next
 * one alone. Every ply's entries are kept for the table (1.4 GB on 6x5).
 */
#ifndef OXO_PLIES_H
#define OXO_PLIES_H

#include "game.h"
#include "keyset.h"
#include "table.h"

typedef struct oxo_plies {
    const oxo_game *g;
    int max_ply;
    oxo_keyset keys[OXO_MAX_MOVES + 1]; /* canonical reachable boards of each ply, by number */
    uint8_t
        *entries[OXO_MAX_MOVES + 1];    /* OXO_ENTRY(value, distance) per member, in number order */
    uint64_t by_ply[OXO_MAX_MOVES + 1]; /* positions of each ply (all images) */
    uint64_t canon_by_ply[OXO_MAX_MOVES + 1];
    oxo_table_counts counts; /* the position figures (no tree figures on this path) */
    uint64_t peak_bytes;     /* the most memory the run held at once */
    int resumed;             /* plies a sink had saved before, not solved again */
    uint64_t exchanged;      /* under mpirun, the bytes the ranks sent one another, all ranks */
    uint8_t root_entry;      /* the start's entry (on every rank) */
    /* Under mpirun, rank `rank` of `ranks` holds numbers lo[n] to hi[n] - 1 of each ply n (keys[n]
     * and entries[n] number them from lo[n]); one process holds every number (lo 0, hi the ply's
     * size). The ranges are cut at multiples of OXO_PLIES_ALIGN, so that each rank writes whole
     * blocks of the table. */
    int rank, ranks;
    uint64_t lo[OXO_MAX_MOVES + 1], hi[OXO_MAX_MOVES + 1];
} oxo_plies;

/* Where the ranks' shares of a ply are cut: a multiple of the table's blocks (gen/plytable.h). */
#define OXO_PLIES_ALIGN 16384u

/* Where each solved ply goes as it is done (a table written ply by ply, gen/plytable.h), and
 * where a run resumed finds the plies an earlier run saved. */
typedef struct oxo_plies_sink {
    void *ctx;
    /* Whether ply n was saved by an earlier run. */
    int (*saved)(void *ctx, int n);
    /* The entries of saved ply n, one per member of k: 0, or non-zero with err set. */
    int (*load)(void *ctx, int n, const oxo_keyset *k, uint8_t *entries, oxo_error *err);
    /* Saves solved ply n, or this rank's share of it (numbers lo to hi - 1, which k numbers from
     * lo): 0, or non-zero with err set (the solve stops). */
    int (*save)(void *ctx, int n, uint64_t lo, uint64_t hi, const oxo_keyset *k,
                const uint8_t *entries, oxo_error *err);
} oxo_plies_sink;

/* Whether g has a ply index, and the memory a solve of it takes at most, in bytes (0: g has no
 * ply index, or its plies cannot be numbered in 64 bits): every ply's bitmap and directory, and
 * the entries of the two largest neighbouring plies were every number canonical and reachable. */
uint64_t oxo_plies_estimate(const oxo_game *g);

/* What a solve of g a ply at a time would cost, before any of it is done: each ply's positions
 * drawn at random from its numbers (`samples` of them, every number of a smaller ply), each
 * tested for whether play reaches it (oxo_plies_reaches) and is its own canonical image. */
typedef struct oxo_plies_cost {
    double positions, canonical; /* all images, and up to symmetry */
    double canon_by_ply[OXO_MAX_MOVES + 1];
    double memory;       /* bytes held at most: the bitmaps, two plies of entries */
    double disk;         /* bytes: the table, and as much again for the ply files at the end */
    double core_seconds; /* at this machine's measured speed on connect4:6,5 (gen/RECORD.md) */
    int samples;
    /* Spread over `ranks` processes: each rank's memory (its share of every bitmap and of two
     * plies of entries, and its exchange buffers), seconds on one core (its threads share them;
     * the exchanges not counted) and bytes sent to the other ranks: for each child of its
     * positions that another rank holds, its number forward (8 bytes), and backward its number
     * and a byte of answer. The children held elsewhere are counted on the boards drawn, with
     * the shares of `ranks` (the ply index keeps most children near their parents' share). */
    int ranks;
    double remote_children; /* all ranks' */
    double rank_memory, rank_seconds, rank_exchange;
} oxo_plies_cost;
/* The cost of solving g a ply at a time on `ranks` processes (1: one process): 0, or -1 when g
 * has no ply index or memory ran out. Same figures for a seed on any threads. */
int oxo_plies_cost_of(const oxo_game *g, int samples, uint64_t seed, int ranks, oxo_plies_cost *c);
/* Whether play from the start reaches board p: the start does, and any other board that some
 * stone the last mover may have played last leaves as a game still going on that play reaches.
 * The boards found not reached on the way are remembered in r (12 MB), for one board at a time;
 * 1 or 0. */
typedef struct oxo_reacher oxo_reacher;
oxo_reacher *oxo_reacher_new(void);
void oxo_reacher_free(oxo_reacher *r);
int oxo_plies_reaches(oxo_reacher *r, const oxo_game *g, oxo_pos p);

/* Calibration of the cost (connect4:6,5 on this machine, gen/RECORD.md): core-seconds and table
 * bytes per canonical position. */
#define OXO_PLIES_CORE_SECONDS 2.1e-7
#define OXO_PLIES_TABLE_BYTES  0.42

/* Solves g ply by ply. progress: a progress line with an ETA on stderr. sink: NULL to keep every
 * ply's entries (oxo_plies_entry answers for every position); otherwise each ply goes to the
 * sink when solved and only the two plies a solve needs stay in memory (oxo_plies_entry then
 * answers for ply 0 and 1 alone). NULL with a sentence in err. */
oxo_plies *oxo_plies_solve(const oxo_game *g, int progress, const oxo_plies_sink *sink,
                           oxo_error *err);
void oxo_plies_free(oxo_plies *s);

/* A measured solve of g's last `last` plies alone, to check the estimate (oxo_plies_cost_of) on a
 * board whose whole solve this machine cannot hold (oxo-gen --estimate --check-plies): the
 * forward pass goes over every ply holding two bitmaps at a time (no directory) beside the
 * bitmaps of the last plies, which it keeps; the backward pass solves the last plies from one
 * another. The oxo_plies it gives holds every ply's canonical count (canon_by_ply), the entries
 * of the last plies (oxo_plies_entry answers for them), and peak_bytes, what it held at most.
 * progress: a progress line, with an ETA when expect gives each ply's canonical positions as
 * estimated (NULL: none). NULL with a sentence in err. */
typedef struct oxo_plies_timing {
    int first;                           /* the first ply solved */
    double seconds[OXO_MAX_MOVES + 1];   /* each ply's forward pass, plus its backward one when
                                          * solved (wall seconds) */
    double forward_seconds, seconds_all; /* the forward pass over every ply; the whole run */
} oxo_plies_timing;
oxo_plies *oxo_plies_last(const oxo_game *g, int last, int progress, const double *expect,
                          oxo_plies_timing *t, oxo_error *err);
/* What oxo_plies_last holds at most, in bytes, from each ply's canonical positions (canon, as
 * estimated): the model the run's peak_bytes is checked against. */
double oxo_plies_last_bytes(const oxo_game *g, int last, const double *canon);

/* The entry of board p (any image): 0, or -1 when p is not a reachable position (or, under
 * mpirun, not this rank's). */
int oxo_plies_entry(const oxo_plies *s, oxo_pos p, uint8_t *entry);

/* The numbers of the canonical images of p's children, one per move of legal in ascending order
 * (the game's ply_children, or each child ranked alone): their count. */
int oxo_plies_children(const oxo_game *g, oxo_pos p, uint64_t legal, uint64_t *nums);

/* The share of ply n's numbers that rank `rank` of `ranks` holds: lo to hi - 1. */
void oxo_plies_share(const oxo_game *g, int n, int rank, int ranks, uint64_t *lo, uint64_t *hi);
/* The rank of `ranks` that holds number c of ply n. */
int oxo_plies_owner(const oxo_game *g, int n, uint64_t c, int ranks);

/* Under mpirun (gen/plies_mpi.c): MPI set up when the run was started by mpirun (this rank and
 * the ranks in *rank, *ranks: 0 and 1 otherwise, or in a build without MPI), and the passes of a
 * ply over the ranks' shares, exchanging the children each needs. */
void oxo_plies_mpi_start(int *rank, int *ranks);
void oxo_plies_mpi_end(void);
uint64_t oxo_plies_mpi_sum(const oxo_plies *s, uint64_t v);
int oxo_plies_mpi_max(const oxo_plies *s, int v);
/* Whether v is set on any rank (before a solve holds the ranks; v alone without mpirun). */
int oxo_plies_mpi_any(int v);
void oxo_plies_forward_mpi(oxo_plies *s, int n, uint64_t *images, uint64_t *term, uint64_t *cterm);
int oxo_plies_backward_mpi(oxo_plies *s, int n);

#endif
