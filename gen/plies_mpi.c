/*
 * Solving a ply at a time under mpirun (see plies.h): each rank holds its share of every ply's
 * numbers (a contiguous range, cut at multiples of OXO_PLIES_ALIGN) and the entries of its
 * members. Forward, a rank sets the bits of the children it holds and sends the others to their
 * ranks; backward, it asks the ranks that hold its members' children for their entries. Both go
 * in rounds of at most CHUNK blocks of members, every rank taking part in as many rounds as the
 * rank with the most, so that the collectives match. Each entry is the negamax of its children's
 * whichever rank computes it, and every figure a sum of integers, so the result is the same bytes
 * on any number of ranks. A rank runs one thread: ranks are the unit of parallelism here.
 */
#include "plies.h"

#include "player.h"

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
    int lo = 0, hi = s->ranks - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        uint64_t from, to;
        oxo_plies_share(s->g, n, mid, s->ranks, &from, &to);
        if (from <= c)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
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

static int push(outbox *o, uint64_t x)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        uint64_t *v = need(realloc(o->v, cap * sizeof *v));
        o->v = v, o->cap = cap;
    }
    o->v[o->n++] = x;
    return 0;
}

/* Sends each rank its box and receives what every rank sent this one: *in (malloc'd), from rank r
 * at (*at)[r] to (*at)[r + 1]. */
static int exchange(int R, outbox *box, uint64_t **in, int **at)
{
    int *sc = need(calloc((size_t)R, sizeof *sc)), *sd = need(calloc((size_t)R, sizeof *sd)),
        *rc = need(calloc((size_t)R, sizeof *rc)), *rd = need(calloc((size_t)R + 1, sizeof *rd));
    size_t total = 0;
    for (int r = 0; r < R; r++)
        total += box[r].n;
    uint64_t *send = need(malloc((total ? total : 1) * sizeof *send));
    int ok = sc && sd && rc && rd && send;
    for (int r = 0, k = 0; ok && r < R; r++) {
        sc[r] = (int)box[r].n;
        sd[r] = k;
        memcpy(send + k, box[r].v, box[r].n * sizeof *send);
        k += sc[r];
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
    const int R = s->ranks;
    const int64_t nblocks = s->hi[n] > s->lo[n] ? (int64_t)(k->nwords / OXO_KEYSET_BLOCK) : 0;
    int64_t rounds = (nblocks + CHUNK - 1) / CHUNK, most = rounds;
    MPI_Allreduce(&rounds, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    outbox *box = need(calloc((size_t)R, sizeof *box));
    uint64_t im = 0, t = 0, ct = 0;
    for (int64_t round = 0; round < most; round++) {
        for (int r = 0; r < R; r++)
            box[r].n = 0;
        for (int64_t blk = round * CHUNK; blk < nblocks && blk < (round + 1) * CHUNK; blk++) {
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
                    if (c >= s->lo[n + 1] && c < s->hi[n + 1])
                        next->words[(c - s->lo[n + 1]) >> 6] |= 1ull << ((c - s->lo[n + 1]) & 63);
                    else
                        push(&box[owner(s, n + 1, c)], c);
                }
            });
        }
        uint64_t *in;
        int *at;
        if (!exchange(R, box, &in, &at))
            for (int i = 0; i < at[R]; i++) {
                const uint64_t c = in[i] - s->lo[n + 1];
                next->words[c >> 6] |= 1ull << (c & 63);
            }
        free(in);
        free(at);
    }
    for (int r = 0; r < R; r++)
        free(box[r].v);
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
    int64_t rounds = (nblocks + CHUNK - 1) / CHUNK, most = rounds;
    MPI_Allreduce(&rounds, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    outbox *box = need(calloc((size_t)R, sizeof *box));
    /* Per member of a round: its children, each its entry (held here) or where its answer will be
     * (a rank and a place in what was asked of it); the high bit tells which. */
    const size_t cap = (size_t)CHUNK * OXO_KEYSET_BLOCK * 64;
    uint64_t *ref = need(malloc(cap * (size_t)W * sizeof *ref));
    int8_t *nk = need(malloc(cap));
    int failed = !box || !ref || !nk;
    for (int64_t round = 0; round < most; round++) {
        for (int r = 0; r < R; r++)
            box[r].n = 0;
        size_t m = 0;
        const int64_t b0 = round * CHUNK;
        for (int64_t blk = b0; !failed && blk < nblocks && blk < b0 + CHUNK; blk++) {
            oxo_ply_hint hint = {.ply = -1};
            OXO_KEYSET_MEMBERS(k, blk, num, idx, {
                (void)idx;
                oxo_pos p = g->ops->ply_unrank(g, n, num + s->lo[n], &hint);
                uint64_t legal = oxo_legal(g, p), nums[OXO_MAX_MOVES];
                int kids = 0;
                if (!legal) {
                    nk[m] = -1; /* finished: its entry from the rules */
                    ref[m * (size_t)W] =
                        OXO_ENTRY(oxo_status_of(g, p) == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
                    m++;
                    continue;
                }
                kids = oxo_plies_children(g, p, legal, nums);
                nk[m] = (int8_t)kids;
                for (int i = 0; i < kids; i++) {
                    const uint64_t c = nums[i];
                    if (c >= s->lo[n + 1] && c < s->hi[n + 1])
                        ref[m * (size_t)W + (size_t)i] =
                            1ull << 63 | below[oxo_keyset_rank(next, c - s->lo[n + 1])];
                    else {
                        const int o = owner(s, n + 1, c);
                        ref[m * (size_t)W + (size_t)i] = (uint64_t)o << 40 | box[o].n;
                        failed |= push(&box[o], c);
                    }
                }
                m++;
            });
        }
        /* The questions, answered by their ranks, and the answers back, in the same order. */
        uint64_t *in = NULL, *back = NULL;
        int *at = NULL, *bat = NULL;
        failed |= exchange(R, box, &in, &at);
        outbox *reply = need(calloc((size_t)R, sizeof *reply));
        for (int r = 0; !failed && r < R; r++)
            for (int i = at[r]; i < at[r + 1]; i++)
                failed |= push(&reply[r], below[oxo_keyset_rank(next, in[i] - s->lo[n + 1])]);
        failed |= exchange(R, reply, &back, &bat);
        /* The entries of this round's members, in member order. */
        size_t member = 0;
        for (int64_t blk = b0; !failed && blk < nblocks && blk < b0 + CHUNK; blk++)
            OXO_KEYSET_MEMBERS(k, blk, num, idx, {
                (void)num;
                if (nk[member] < 0)
                    e[idx] = (uint8_t)ref[member * (size_t)W];
                else {
                    int bv = -2, bd = 0;
                    for (int i = 0; i < nk[member]; i++) {
                        const uint64_t x = ref[member * (size_t)W + (size_t)i];
                        oxo_entry_fold(
                            x >> 63 ? (uint8_t)x
                                    : (uint8_t)back[bat[x >> 40] + (int)(x & ((1ull << 40) - 1))],
                            &bv, &bd);
                    }
                    e[idx] = OXO_ENTRY(bv, bd);
                }
                member++;
            });
        for (int r = 0; reply && r < R; r++)
            free(reply[r].v);
        free(reply), free(in), free(at), free(back), free(bat);
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
