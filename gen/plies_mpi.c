/*
 * Solving a ply at a time under mpirun (see plies.h): each rank holds its share of every ply's
 * numbers (a contiguous range, cut at multiples of OXO_PLIES_ALIGN) and the entries of its
 * members. Forward, a rank sets the bits of the children it holds and sends the others to their
 * ranks; backward, it asks the ranks that hold its members' children for their entries. Both go
 * in rounds of at most CHUNK blocks of members, every rank taking part in as many rounds as the
 * rank with the most, so that the collectives match. Each entry is the negamax of its children's
 * whichever rank computes it, and every figure a sum of integers, so the result is the same bytes
 * on any number of ranks and threads.
 *
 * A rank runs its threads (OMP_NUM_THREADS) over the members of a round, and only its main thread
 * talks to the other ranks (MPI_THREAD_FUNNELED): forward, each thread fills its own boxes (the
 * bits a child sets do not depend on the order the numbers arrive in); backward, the threads find
 * the children and their owners, the main thread numbers the questions in member order, and the
 * threads fold the answers. So a machine runs one rank of many threads, sharing its memory, rather
 * than a rank a core each holding its own exchange buffers.
 */
#include "plies.h"

#include "player.h"
#include "retro.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OXO_HAVE_MPI
#include <mpi.h>

/* Blocks of members a round: 2 M members, some 120 MB of children's numbers on 7-column boards. */
#define CHUNK 4096

static int launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

void oxo_plies_mpi_start(int *rank, int *ranks)
{
    int on = 0;
    *rank = 0;
    *ranks = 1;
    if (!launched_by_mpi())
        return;
    MPI_Initialized(&on);
    if (!on) {
        int provided;
        MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, ranks);
}

void oxo_plies_mpi_end(void)
{
    int on = 0, off = 0;
    MPI_Initialized(&on);
    MPI_Finalized(&off);
    if (on && !off)
        MPI_Finalize();
}

uint64_t oxo_plies_mpi_sum(const oxo_plies *s, uint64_t v)
{
    uint64_t all = v;
    if (s->ranks > 1)
        MPI_Allreduce(&v, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

int oxo_plies_mpi_max(const oxo_plies *s, int v)
{
    int all = v;
    if (s->ranks > 1)
        MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int oxo_plies_mpi_any(int v)
{
    /* set or not, whatever its sign: the largest of -1 (a failure) and 0 would be 0 */
    int on = 0, set = v != 0, all = set;
    MPI_Initialized(&on);
    if (on)
        MPI_Allreduce(&set, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

/* The rank that holds number c of ply n. */
static int owner(const oxo_plies *s, int n, uint64_t c)
{
    return oxo_plies_owner(s->g, n, c, s->ranks);
}

/* Memory a pass over the ranks cannot go on without: every rank is in collectives with the
 * others, which would wait forever for one that stopped, so running out ends the whole run with
 * a reason (MPI_Abort, exit 1). */
static void *need(void *p)
{
    if (!p) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "oxo-gen: rank %d ran out of memory exchanging plies: every rank stops\n",
                rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Numbers bound for each rank: a growing array per rank. */
typedef struct outbox {
    uint64_t *v;
    size_t n, cap;
} outbox;

/* Appends x; -1 when out of memory (a thread may not stop the ranks: its caller says it, from
 * the main thread). */
static int push(outbox *o, uint64_t x)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        uint64_t *v = realloc(o->v, cap * sizeof *v);
        if (!v)
            return -1;
        o->v = v, o->cap = cap;
    }
    o->v[o->n++] = x;
    return 0;
}

/* Numbers and places in a reference to a child: below 2^40 each (a ply of 7x6 numbers about
 * 3.5e11), the rank above. */
#define LOW40 ((1ull << 40) - 1)

/* Sends each rank its boxes (T of them: box[t * R + r] for rank r, one after the other) and
 * receives what every rank sent this one: *in (malloc'd), from rank r at (*at)[r] to
 * (*at)[r + 1]. */
static int exchange(int R, int T, outbox *box, uint64_t **in, int **at)
{
    int *sc = need(calloc((size_t)R, sizeof *sc)), *sd = need(calloc((size_t)R, sizeof *sd)),
        *rc = need(calloc((size_t)R, sizeof *rc)), *rd = need(calloc((size_t)R + 1, sizeof *rd));
    size_t total = 0;
    for (int i = 0; i < R * T; i++)
        total += box[i].n;
    uint64_t *send = need(malloc((total ? total : 1) * sizeof *send));
    int ok = sc && sd && rc && rd && send;
    for (int r = 0, k = 0; ok && r < R; r++) {
        sd[r] = k;
        for (int t = 0; t < T; t++) {
            const outbox *b = &box[(size_t)t * (size_t)R + (size_t)r];
            if (b->n)
                memcpy(send + k, b->v, b->n * sizeof *send);
            k += (int)b->n;
        }
        sc[r] = k - sd[r];
    }
    if (ok)
        MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; ok && r < R; r++)
        rd[r + 1] = rd[r] + rc[r];
    *in = ok ? need(malloc(((size_t)rd[R] ? (size_t)rd[R] : 1) * sizeof **in)) : NULL;
    if (*in)
        MPI_Alltoallv(send, sc, sd, MPI_UINT64_T, *in, rc, rd, MPI_UINT64_T, MPI_COMM_WORLD);
    free(sc), free(sd), free(rc), free(send);
    *at = rd;
    return *in ? 0 : -1;
}

void oxo_plies_forward_mpi(oxo_plies *s, int n, uint64_t *images, uint64_t *term, uint64_t *cterm)
{
    const oxo_game *g = s->g;
    oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const int R = s->ranks, T = omp_get_max_threads() > 0 ? omp_get_max_threads() : 1;
    const int64_t nblocks = s->hi[n] > s->lo[n] ? (int64_t)(k->nwords / OXO_KEYSET_BLOCK) : 0;
    const int big = (int64_t)k->nwords >= oxo_retro_parallel_words();
    int64_t rounds = (nblocks + CHUNK - 1) / CHUNK, most = rounds;
    MPI_Allreduce(&rounds, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    outbox *box = need(calloc((size_t)R * (size_t)T, sizeof *box)); /* box[t * R + r] */
    uint64_t im = 0, t = 0, ct = 0;
    for (int64_t round = 0; round < most; round++) {
        for (int i = 0; i < R * T; i++)
            box[i].n = 0;
        int failed = 0;
        const int64_t b0 = round * CHUNK, b1 = b0 + CHUNK < nblocks ? b0 + CHUNK : nblocks;
#pragma omp parallel reduction(+ : im, t, ct) reduction(| : failed) if (big)
        {
            outbox *mine = box + (size_t)omp_get_thread_num() * (size_t)R;
#pragma omp for schedule(dynamic, 16)
            for (int64_t blk = b0; blk < b1; blk++) {
                oxo_ply_hint hint = {.ply = -1};
                OXO_KEYSET_MEMBERS(k, blk, num, idx, {
                    (void)idx;
                    oxo_pos p = g->ops->ply_unrank(g, n, num + s->lo[n], &hint);
                    int o = oxo_orbit_size(g, p);
                    uint64_t legal = oxo_legal(g, p), nums[OXO_MAX_MOVES];
                    im += (uint64_t)o;
                    if (!legal) {
                        t += (uint64_t)o;
                        ct++;
                    }
                    const int kids = oxo_plies_children(g, p, legal, nums);
                    for (int i = 0; i < kids; i++) {
                        const uint64_t c = nums[i];
                        if (c >= s->lo[n + 1] && c < s->hi[n + 1]) {
                            const uint64_t w = (c - s->lo[n + 1]) >> 6,
                                           bit = 1ull << ((c - s->lo[n + 1]) & 63);
                            if (!(__atomic_load_n(&next->words[w], __ATOMIC_RELAXED) & bit))
                                __atomic_fetch_or(&next->words[w], bit, __ATOMIC_RELAXED);
                        } else
                            failed |= push(&mine[owner(s, n + 1, c)], c);
                    }
                });
            }
        }
        if (failed)
            need(NULL); /* out of memory: every rank stops, with the reason */
        for (int i = 0; i < R * T; i++)
            s->exchanged += 8 * box[i].n;
        uint64_t *in;
        int *at;
        if (!exchange(R, T, box, &in, &at))
            for (int i = 0; i < at[R]; i++) {
                const uint64_t c = in[i] - s->lo[n + 1];
                next->words[c >> 6] |= 1ull << (c & 63);
            }
        free(in);
        free(at);
    }
    for (int i = 0; i < R * T; i++)
        free(box[i].v);
    free(box);
    *images = oxo_plies_mpi_sum(s, im);
    *term += oxo_plies_mpi_sum(s, t);
    *cterm += oxo_plies_mpi_sum(s, ct);
}

int oxo_plies_backward_mpi(oxo_plies *s, int n)
{
    const oxo_game *g = s->g;
    const oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const uint8_t *below = s->entries[n + 1];
    uint8_t *e = s->entries[n];
    /* The most moves a board has: the start's (every column, or every cell). */
    const int R = s->ranks, W = __builtin_popcountll(oxo_legal(g, oxo_start(g)));
    const int64_t nblocks = s->hi[n] > s->lo[n] ? (int64_t)(k->nwords / OXO_KEYSET_BLOCK) : 0;
    const int big = (int64_t)k->nwords >= oxo_retro_parallel_words();
    int64_t rounds = (nblocks + CHUNK - 1) / CHUNK, most = rounds;
    MPI_Allreduce(&rounds, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    outbox *box = need(calloc((size_t)R, sizeof *box));
    /* Per member of a round (numbered from the round's first): its children, each its entry
     * (held here: the high bit set) or, once the main thread has asked for it, its rank and its
     * place in what was asked of that rank (before, its rank and its number). */
    const size_t cap = (size_t)CHUNK * OXO_KEYSET_BLOCK * 64;
    uint64_t *ref = need(malloc(cap * (size_t)W * sizeof *ref));
    int8_t *nk = need(malloc(cap));
    int failed = !box || !ref || !nk;
    for (int64_t round = 0; round < most; round++) {
        for (int r = 0; r < R; r++)
            box[r].n = 0;
        const int64_t b0 = round * CHUNK, b1 = b0 + CHUNK < nblocks ? b0 + CHUNK : nblocks;
        const uint64_t base = b0 < b1 ? k->rank[b0] : 0, members = b0 < b1 ? k->rank[b1] - base : 0;
        /* The threads: each member's children, and the owners of those held elsewhere. */
#pragma omp parallel for schedule(dynamic, 16) reduction(| : failed) if (big)
        for (int64_t blk = b0; blk < b1; blk++) {
            oxo_ply_hint hint = {.ply = -1};
            OXO_KEYSET_MEMBERS(k, blk, num, idx, {
                const size_t m = idx - base;
                oxo_pos p = g->ops->ply_unrank(g, n, num + s->lo[n], &hint);
                uint64_t legal = oxo_legal(g, p), nums[OXO_MAX_MOVES];
                if (!legal) {
                    nk[m] = -1; /* finished: its entry from the rules */
                    ref[m * (size_t)W] =
                        OXO_ENTRY(oxo_status_of(g, p) == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
                    continue;
                }
                const int kids = oxo_plies_children(g, p, legal, nums);
                nk[m] = (int8_t)kids;
                for (int i = 0; i < kids; i++) {
                    const uint64_t c = nums[i];
                    if (c >= s->lo[n + 1] && c < s->hi[n + 1])
                        ref[m * (size_t)W + (size_t)i] =
                            1ull << 63 | below[oxo_keyset_rank(next, c - s->lo[n + 1])];
                    else {
                        failed |= c > LOW40;
                        ref[m * (size_t)W + (size_t)i] = (uint64_t)owner(s, n + 1, c) << 40 | c;
                    }
                }
            });
        }
        /* The main thread: the questions to each rank, in member order. */
        for (size_t m = 0; !failed && m < members; m++)
            for (int i = 0; i < nk[m]; i++) {
                uint64_t *x = &ref[m * (size_t)W + (size_t)i];
                if (!(*x >> 63)) {
                    const int o = (int)(*x >> 40);
                    const uint64_t c = *x & LOW40;
                    *x = (uint64_t)o << 40 | box[o].n;
                    failed |= push(&box[o], c);
                }
            }
        /* A rank that cannot go on stops them all here, before the exchanges: every rank would
         * otherwise wait for answers it never gets. */
        if ((failed = oxo_plies_mpi_max(s, failed)))
            break;
        /* The questions, answered by their ranks, and the answers back, in the same order: an
         * entry is a byte, and each rank knows how many it asked of each other (its boxes), so
         * the answers go as bytes with no counts exchanged first. */
        uint64_t *in = NULL;
        int *at = NULL;
        failed |= exchange(R, 1, box, &in, &at);
        uint8_t *answers = need(malloc((size_t)at[R] ? (size_t)at[R] : 1));
#pragma omp parallel for schedule(static) if (big)
        for (int i = 0; i < at[R]; i++)
            answers[i] = below[oxo_keyset_rank(next, in[i] - s->lo[n + 1])];
        int *ac = need(malloc((size_t)R * sizeof *ac)), *bc = need(malloc((size_t)R * sizeof *bc)),
            *bat = need(malloc(((size_t)R + 1) * sizeof *bat));
        bat[0] = 0;
        for (int r = 0; r < R; r++) {
            ac[r] = at[r + 1] - at[r];
            bc[r] = (int)box[r].n;
            bat[r + 1] = bat[r] + bc[r];
        }
        uint8_t *back = need(malloc((size_t)bat[R] ? (size_t)bat[R] : 1));
        s->exchanged += 8 * (uint64_t)bat[R] + (uint64_t)at[R]; /* questions, and answers */
        MPI_Alltoallv(answers, ac, at, MPI_UINT8_T, back, bc, bat, MPI_UINT8_T, MPI_COMM_WORLD);
        /* The threads: the entries of this round's members. */
#pragma omp parallel for schedule(dynamic, 16) if (big)
        for (int64_t blk = b0; blk < b1; blk++)
            OXO_KEYSET_MEMBERS(k, blk, num, idx, {
                (void)num;
                const size_t m = idx - base;
                if (nk[m] < 0)
                    e[idx] = (uint8_t)ref[m * (size_t)W];
                else {
                    int bv = -2, bd = 0;
                    for (int i = 0; i < nk[m]; i++) {
                        const uint64_t x = ref[m * (size_t)W + (size_t)i];
                        oxo_entry_fold(x >> 63 ? (uint8_t)x : back[bat[x >> 40] + (int)(x & LOW40)],
                                       &bv, &bd);
                    }
                    e[idx] = OXO_ENTRY(bv, bd);
                }
            });
        free(answers), free(in), free(at), free(ac), free(bc), free(back), free(bat);
    }
    for (int r = 0; box && r < R; r++)
        free(box[r].v);
    free(box), free(ref), free(nk);
    return oxo_plies_mpi_max(s, failed) ? -1 : 0;
}

#else

void oxo_plies_mpi_start(int *rank, int *ranks)
{
    *rank = 0;
    *ranks = 1;
}

void oxo_plies_mpi_end(void)
{
}

uint64_t oxo_plies_mpi_sum(const oxo_plies *s, uint64_t v)
{
    (void)s;
    return v;
}

int oxo_plies_mpi_max(const oxo_plies *s, int v)
{
    (void)s;
    return v;
}

int oxo_plies_mpi_any(int v)
{
    return v != 0;
}

void oxo_plies_forward_mpi(oxo_plies *s, int n, uint64_t *images, uint64_t *term, uint64_t *cterm)
{
    (void)s, (void)n, (void)images, (void)term, (void)cterm;
}

int oxo_plies_backward_mpi(oxo_plies *s, int n)
{
    (void)s, (void)n;
    return -1;
}

#endif
