/*
 * Solving a game a ply at a time over its ply index (see plies.h).
 *
 * 1. Forward, ply by ply: each thread takes blocks of ply n's bitmap, plays every move of every
 *    board that is not over, and sets the canonical child's number in ply n + 1's bitmap (an
 *    atomic OR after a plain read). The bitmap's directory then numbers ply n's members.
 * 2. Backward, from the last ply to the first: each member's entry is the negamax of its
 *    children's (oxo_entry_fold), all of them members of ply n + 1, solved in the pass before.
 * Every entry is a function of its children and every figure a sum of integers, so the result is
 * the same bytes for any number of threads. oxo_plies_last runs the same two steps for a check of
 * the estimate: forward over every ply with two bitmaps held, backward over the last plies alone.
 */
#include "plies.h"

#include "cli.h"
#include "clock.h"
#include "player.h"
#include "retro.h"
#include "rng.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK OXO_KEYSET_BLOCK

static uint64_t ply_size(const oxo_game *g, int n)
{
    return g->ops->ply_size(g, n);
}

/* The number of p's canonical image in its ply. */
static uint64_t canonical_number(const oxo_game *g, oxo_pos p)
{
    int sym;
    return g->ops->ply_rank(g, p, &sym);
}

/* The numbers of the canonical images of p's children, one per move of legal in ascending order:
 * their count. */
int oxo_plies_children(const oxo_game *g, oxo_pos p, uint64_t legal, uint64_t *nums)
{
    if (g->ops->ply_children)
        return g->ops->ply_children(g, p, legal, nums);
    int k = 0;
    for (; legal; legal &= legal - 1)
        nums[k++] = canonical_number(g, oxo_play(g, p, __builtin_ctzll(legal)));
    return k;
}

/* The bitmaps and directories of every ply, and two neighbouring plies of entries, the largest,
 * from the positions of each (canon[n], or at most its numbers / nsym when canon is NULL). */
static double memory_of(const oxo_game *g, const double *canon)
{
    double bytes = 16u << 20, two = 0, prev = 0;
    for (int n = 0; n <= g->max_plies; n++) {
        uint64_t a = ply_size(g, n);
        if (a == UINT64_MAX)
            return 0;
        double e = canon ? canon[n] : (double)a / g->nsym + 1;
        bytes += (double)oxo_keyset_bytes(a);
        two = prev + e > two ? prev + e : two;
        prev = e;
    }
    return bytes + two;
}

uint64_t oxo_plies_estimate(const oxo_game *g)
{
    return g->ops->ply_size ? (uint64_t)memory_of(g, NULL) : 0;
}

/* Boards found not to be reached, by code: an open-addressing set stamped by the board it was
 * filled for, so that it is never cleared. A board's sub-boards are its column heights below its
 * own (at most 7^6 on 6x6), so 2^20 slots hold them. */
#define SEEN_BITS 20
typedef struct oxo_reacher {
    uint64_t *code;
    uint32_t *stamp, now, held; /* held: the slots the current board fills */
} seen_set;

static int seen(seen_set *s, uint64_t code, int add)
{
    if (add && s->held >= (3u << SEEN_BITS) / 4)
        return 0; /* full: what is not remembered is searched again, never wrongly answered */
    uint64_t h = (code * 0x9E3779B97F4A7C15ull) >> (64 - SEEN_BITS);
    for (;; h = (h + 1) & ((1u << SEEN_BITS) - 1)) {
        if (s->stamp[h] != s->now) {
            if (add) {
                s->stamp[h] = s->now;
                s->code[h] = code;
                s->held++;
            }
            return 0;
        }
        if (s->code[h] == code)
            return 1;
    }
}

static int reaches(const oxo_game *g, oxo_pos p, seen_set *s)
{
    if (!(p.me | p.opp))
        return 1;
    const uint64_t code = oxo_code(g, p);
    if (seen(s, code, 0))
        return 0;
    for (uint64_t un = oxo_unmoves(g, p); un; un &= un - 1) {
        oxo_pos q = oxo_unplay(g, p, __builtin_ctzll(un));
        if (oxo_status_of(g, q) == OXO_ONGOING && reaches(g, q, s))
            return 1;
    }
    seen(s, code, 1);
    return 0;
}

static int seen_init(seen_set *s)
{
    s->code = malloc(sizeof *s->code << SEEN_BITS);
    s->stamp = calloc((size_t)1 << SEEN_BITS, sizeof *s->stamp);
    s->now = 0;
    return s->code && s->stamp ? 0 : -1;
}

static void seen_free(seen_set *s)
{
    free(s->code);
    free(s->stamp);
}

oxo_reacher *oxo_reacher_new(void)
{
    oxo_reacher *r = malloc(sizeof *r);
    if (r && seen_init(r)) {
        seen_free(r);
        free(r);
        return NULL;
    }
    return r;
}

void oxo_reacher_free(oxo_reacher *r)
{
    if (r)
        seen_free(r);
    free(r);
}

int oxo_plies_reaches(oxo_reacher *r, const oxo_game *g, oxo_pos p)
{
    r->now++;
    r->held = 0;
    return reaches(g, p, r);
}

static void cost_share(const oxo_game *g, oxo_plies_cost *c, int ranks)
{
    /* A round of exchanges (gen/plies_mpi.c) holds, for 2 M members, their children's places,
     * the numbers of those asked of other ranks (sent, and as many received), and a byte for each
     * answer sent and received: about 26 bytes a child. */
    const double moves = __builtin_popcountll(oxo_legal(g, oxo_start(g))),
                 buffers = ranks > 1 ? 26.0 * 4096 * 512 * moves : 0, fixed = 16u << 20;
    c->ranks = ranks;
    c->rank_memory = (c->memory - fixed) / ranks + fixed + buffers;
    c->rank_seconds = c->core_seconds / ranks;
    c->rank_exchange = c->remote_children * 17 / ranks;
}

int oxo_plies_cost_of(const oxo_game *g, int samples, uint64_t seed, int ranks, oxo_plies_cost *c)
{
    memset(c, 0, sizeof *c);
    if (!oxo_plies_estimate(g) || samples < 1 || ranks < 1)
        return -1;
    c->samples = samples;
    double images[OXO_MAX_MOVES + 1] = {0}, remote[OXO_MAX_MOVES + 1] = {0};
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        seen_set s;
        failed |= seen_init(&s);
#pragma omp for schedule(dynamic, 1)
        for (int n = 0; n <= g->max_plies; n++) {
            if (failed)
                continue;
            const uint64_t size = ply_size(g, n),
                           draws = size < (uint64_t)samples ? size : (uint64_t)samples;
            uint64_t rng = oxo_rng_stream(seed, (uint64_t)n), all = 0, canon = 0, kids = 0;
            for (uint64_t i = 0; i < draws; i++) {
                /* Every number of a small ply; numbers drawn at random in a large one. */
                uint64_t num = draws == size ? i : (uint64_t)(oxo_rng_unit(&rng) * (double)size);
                oxo_ply_hint hint = {.ply = -1};
                oxo_pos p = g->ops->ply_unrank(g, n, num, &hint);
                int sym;
                s.now++;
                s.held = 0;
                if (!reaches(g, p, &s))
                    continue;
                all++;
                if (g->ops->ply_rank(g, p, &sym) != num)
                    continue;
                canon++;
                if (ranks > 1) { /* its children that another rank holds */
                    uint64_t nums[OXO_MAX_MOVES];
                    const int mine = oxo_plies_owner(g, n, num, ranks),
                              k = oxo_plies_children(g, p, oxo_legal(g, p), nums);
                    for (int j = 0; j < k; j++)
                        kids += oxo_plies_owner(g, n + 1, nums[j], ranks) != mine;
                }
            }
            images[n] = (double)size * (double)all / (double)draws;
            remote[n] = (double)size * (double)kids / (double)draws;
            c->canon_by_ply[n] = (double)size * (double)canon / (double)draws;
        }
        seen_free(&s);
    }
    if (failed)
        return -1;
    for (int n = 0; n <= g->max_plies; n++) {
        c->positions += images[n];
        c->canonical += c->canon_by_ply[n];
        c->remote_children += remote[n];
    }
    c->memory = memory_of(g, c->canon_by_ply);
    c->disk = 2 * OXO_PLIES_TABLE_BYTES * c->canonical;
    c->core_seconds = OXO_PLIES_CORE_SECONDS * c->canonical;
    cost_share(g, c, ranks);
    return 0;
}

/* What a pass says on the progress line from within a ply (NULL: only the line after each ply):
 * the stage, the work done before this ply and the whole (0: unknown, no ETA), and the ply's
 * members, a share of which is done as its blocks go. A ply of 6x6 takes minutes. */
typedef struct pass_say {
    oxo_progress *pr;
    const char *stage;
    double before, total, members;
} pass_say;

/* Once a second at most, from the first thread, as it starts block blk of nblocks of ply n. */
static void say_within(const pass_say *say, int n, int64_t blk, int64_t nblocks)
{
    if (!say || !say->pr->on || (blk & 63) || omp_get_thread_num() ||
        oxo_seconds() - say->pr->last < 1)
        return;
    oxo_say(say->pr, say->stage, say->before + say->members * (double)blk / (double)nblocks,
            say->total, "ply %d", n);
}

/* Step 1 for ply n: the members of ply n + 1 from those of ply n; the figures of ply n. It reads
 * ply n's bitmap alone, not its directory (a measured run of the last plies builds none for the
 * plies before them). */
static void forward(oxo_plies *s, int n, int big, uint64_t *terminal, uint64_t *canon_terminal,
                    const pass_say *say)
{
    const oxo_game *g = s->g;
    oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const int64_t nblocks = (int64_t)(k->nwords / BLOCK);
    uint64_t images = 0, term = 0, cterm = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : images, term, cterm) if (big)
    for (int64_t blk = 0; blk < nblocks; blk++) {
        say_within(say, n, blk, nblocks);
        oxo_ply_hint hint = {.ply = -1};
        for (uint64_t w = (uint64_t)blk * BLOCK; w < (uint64_t)(blk + 1) * BLOCK; w++)
            for (uint64_t bits = k->words[w]; bits; bits &= bits - 1) {
                const uint64_t num = w * 64 + (uint64_t)__builtin_ctzll(bits);
                oxo_pos p = g->ops->ply_unrank(g, n, num, &hint);
                int o = oxo_orbit_size(g, p);
                images += (uint64_t)o;
                uint64_t legal = oxo_legal(g, p);
                if (!legal) {
                    term += (uint64_t)o;
                    cterm++;
                }
                uint64_t nums[OXO_MAX_MOVES];
                for (int i = 0, kids = oxo_plies_children(g, p, legal, nums); i < kids; i++) {
                    uint64_t c = nums[i], bit = 1ull << (c & 63);
                    if (!(__atomic_load_n(&next->words[c >> 6], __ATOMIC_RELAXED) & bit))
                        __atomic_fetch_or(&next->words[c >> 6], bit, __ATOMIC_RELAXED);
                }
            }
    }
    s->by_ply[n] = images;
    *terminal += term;
    *canon_terminal += cterm;
}

/* Step 2 for ply n: the entries of its members from those of ply n + 1. */
static void backward(oxo_plies *s, int n, int big, const pass_say *say)
{
    const oxo_game *g = s->g;
    const oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const uint8_t *below = s->entries[n + 1];
    uint8_t *e = s->entries[n];
    const int64_t nblocks = (int64_t)(k->nwords / BLOCK);
#pragma omp parallel for schedule(dynamic, 64) if (big)
    for (int64_t blk = 0; blk < nblocks; blk++) {
        say_within(say, n, blk, nblocks);
        oxo_ply_hint hint = {.ply = -1};
        OXO_KEYSET_MEMBERS(k, blk, num, idx, {
            oxo_pos p = g->ops->ply_unrank(g, n, num, &hint);
            uint64_t legal = oxo_legal(g, p);
            if (!legal) {
                e[idx] = OXO_ENTRY(oxo_status_of(g, p) == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
                continue;
            }
            int bv = -2, bd = 0;
            uint64_t nums[OXO_MAX_MOVES];
            for (int i = 0, kids = oxo_plies_children(g, p, legal, nums); i < kids; i++)
                oxo_entry_fold(below[oxo_keyset_rank(next, nums[i])], &bv, &bd);
            e[idx] = OXO_ENTRY(bv, bd);
        });
    }
}

/* Step 2 for every ply, the last first. With a sink, each ply solved is handed to it and the
 * entries two plies up freed; a run resumed takes the plies the sink saved before, loading only
 * the lowest of them, which the next ply down is solved from. */
static int solve_back(oxo_plies *s, const oxo_plies_sink *sink, oxo_progress *pr, double total,
                      uint64_t *held, oxo_error *err)
{
    int low = s->max_ply + 1; /* the plies from low up were saved by an earlier run */
    while (sink && low > 0 && sink->saved(sink->ctx, low - 1))
        low--;
    double done = 0;
    for (int n = s->max_ply; n >= 0; n--) {
        if (n > low)
            continue;
        const uint64_t count = s->keys[n].count;
        if (!(s->entries[n] = malloc(count ? count : 1)))
            return oxo_fail(err, OXO_E_NOMEM, "solving %s a ply at a time", s->g->spec);
        *held += count;
        s->peak_bytes = *held > s->peak_bytes ? *held : s->peak_bytes;
        if (n == low && n <= s->max_ply) {
            /* each rank its share; one that cannot stops them all */
            int failed = sink->load(sink->ctx, n, &s->keys[n], s->entries[n], err);
            if (oxo_plies_mpi_max(s, failed))
                return failed
                           ? -1
                           : oxo_fail(err, OXO_E_GAME, "another rank could not take up ply %d", n);
            s->resumed = s->max_ply + 1 - n;
        } else {
            if (s->ranks > 1
                    ? oxo_plies_backward_mpi(s, n)
                    : (backward(s, n, (int64_t)s->keys[n].nwords >= oxo_retro_parallel_words(),
                                &(pass_say){pr, "solving", done, total, (double)count}),
                       0))
                return oxo_fail(err, OXO_E_NOMEM, "solving %s a ply at a time", s->g->spec);
            /* Every rank saves its share; a failure anywhere stops every rank. */
            int failed = sink && sink->save(sink->ctx, n, s->lo[n], s->hi[n], &s->keys[n],
                                            s->entries[n], err);
            if (oxo_plies_mpi_max(s, failed))
                return failed ? -1
                              : oxo_fail(err, OXO_E_IO, "another rank failed to save ply %d", n);
        }
        if (sink && n + 2 <= s->max_ply && s->entries[n + 2]) {
            *held -= s->keys[n + 2].count;
            free(s->entries[n + 2]);
            s->entries[n + 2] = NULL;
        }
        done += (double)count;
        oxo_say(pr, "solving", done, total, "ply %d", n);
    }
    /* The start's entry, from the rank that holds it. */
    uint8_t root;
    int have = !oxo_plies_entry(s, oxo_start(s->g), &root);
    s->root_entry = (uint8_t)oxo_plies_mpi_max(s, have ? root + 1 : 0) - 1;
    return 0;
}

void oxo_plies_share(const oxo_game *g, int n, int rank, int ranks, uint64_t *lo, uint64_t *hi)
{
    /* Equal shares, each cut at a multiple of OXO_PLIES_ALIGN below: the last takes the rest. */
    const uint64_t size = ply_size(g, n), R = (uint64_t)ranks, r = (uint64_t)rank;
    *lo = size / R * r / OXO_PLIES_ALIGN * OXO_PLIES_ALIGN;
    *hi = r + 1 == R ? size : size / R * (r + 1) / OXO_PLIES_ALIGN * OXO_PLIES_ALIGN;
}

int oxo_plies_owner(const oxo_game *g, int n, uint64_t c, int ranks)
{
    int lo = 0, hi = ranks - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        uint64_t from, to;
        oxo_plies_share(g, n, mid, ranks, &from, &to);
        if (from <= c)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

oxo_plies *oxo_plies_solve(const oxo_game *g, int progress, const oxo_plies_sink *sink,
                           oxo_error *err)
{
    if (!oxo_plies_estimate(g)) {
        oxo_fail(err, OXO_E_ARG, "%s has no ply index to solve it a ply at a time", g->spec);
        return NULL;
    }
    oxo_plies *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->g = g;
    oxo_plies_mpi_start(&s->rank, &s->ranks);
    uint64_t held = 0;
    for (int n = 0; n <= g->max_plies; n++) {
        oxo_plies_share(g, n, s->rank, s->ranks, &s->lo[n], &s->hi[n]);
        const uint64_t mine = s->hi[n] > s->lo[n] ? s->hi[n] - s->lo[n] : 1;
        if (oxo_keyset_init(&s->keys[n], mine))
            goto nomem;
        held += oxo_keyset_bytes(mine);
    }
    s->peak_bytes = held;

    const int64_t bar = oxo_retro_parallel_words();
    oxo_progress pr = {progress, NULL, 0, 0};
    double total = 0;
    uint64_t root = canonical_number(g, oxo_start(g)), terminal = 0, canon_terminal = 0;
    if (root >= s->lo[0] && root < s->hi[0]) {
        root -= s->lo[0];
        s->keys[0].words[root >> 6] |= 1ull << (root & 63);
    }
    for (int n = 0; n <= g->max_plies; n++) {
        if (oxo_keyset_build_rank(&s->keys[n]))
            goto nomem;
        const uint64_t count = oxo_plies_mpi_sum(s, s->keys[n].count);
        if (!count)
            break;
        s->max_ply = n;
        s->canon_by_ply[n] = count;
        if (s->ranks > 1)
            oxo_plies_forward_mpi(s, n, &s->by_ply[n], &terminal, &canon_terminal);
        else
            forward(s, n, (int64_t)s->keys[n].nwords >= bar, &terminal, &canon_terminal,
                    &(pass_say){&pr, "enumerating", 0, 0, (double)count});
        total += (double)count;
        oxo_say(&pr, "enumerating", 0, 0, "ply %d", n);
    }
    if (solve_back(s, sink, &pr, total, &held, err)) {
        oxo_plies_free(s);
        return NULL;
    }
    if (progress)
        fprintf(stderr, "\n");
    oxo_table_counts *c = &s->counts;
    for (int n = 0; n <= s->max_ply; n++) {
        c->positions += s->by_ply[n];
        c->canonical_positions += s->canon_by_ply[n];
    }
    c->terminal_positions = terminal;
    c->canonical_nonterminal_positions = c->canonical_positions - canon_terminal;
    s->exchanged = oxo_plies_mpi_sum(s, s->exchanged);
    return s;
nomem:
    oxo_fail(err, OXO_E_NOMEM, "solving %s a ply at a time", g->spec);
    oxo_plies_free(s);
    return NULL;
}

void oxo_plies_free(oxo_plies *s)
{
    if (!s)
        return;
    for (int n = 0; n <= OXO_MAX_MOVES; n++) {
        oxo_keyset_free(&s->keys[n]);
        free(s->entries[n]);
    }
    free(s);
}

int oxo_plies_entry(const oxo_plies *s, oxo_pos p, uint8_t *entry)
{
    const int n = oxo_ply(p);
    if (n > s->max_ply || !s->entries[n])
        return -1;
    const uint64_t num = canonical_number(s->g, p);
    if (num < s->lo[n] || num >= s->hi[n])
        return -1;
    int64_t i = oxo_keyset_rank(&s->keys[n], num - s->lo[n]);
    if (i < 0)
        return -1;
    *entry = s->entries[n][i];
    return 0;
}

/* The members of a bitmap without its directory. */
static uint64_t members(const oxo_keyset *k, int big)
{
    uint64_t c = 0;
    const int64_t nw = (int64_t)k->nwords;
#pragma omp parallel for reduction(+ : c) if (big)
    for (int64_t w = 0; w < nw; w++)
        c += (uint64_t)__builtin_popcountll(k->words[w]);
    return c;
}

oxo_plies *oxo_plies_last(const oxo_game *g, int last, int progress, const double *expect,
                          oxo_plies_timing *t, oxo_error *err)
{
    memset(t, 0, sizeof *t);
    if (!oxo_plies_estimate(g)) {
        oxo_fail(err, OXO_E_ARG, "%s has no ply index to solve it a ply at a time", g->spec);
        return NULL;
    }
    if (last < 1 || last > g->max_plies + 1) {
        oxo_fail(err, OXO_E_ARG, "%d last plies: %s has %d", last, g->spec, g->max_plies + 1);
        return NULL;
    }
    oxo_plies *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->g = g;
    s->ranks = 1;
    for (int n = 0; n <= g->max_plies; n++)
        s->hi[n] = ply_size(g, n);
    const int first = g->max_plies + 1 - last;
    const int64_t bar = oxo_retro_parallel_words();
    oxo_progress pr = {progress, NULL, 0, 0};
    /* The work, in members: every ply forward, the last plies backward (as expected: no ETA
     * without it) */
    double done = 0, total = 0;
    for (int n = 0; expect && n <= g->max_plies; n++)
        total += expect[n] * (n >= first ? 2 : 1);
    uint64_t held = 0, terminal = 0, canon_terminal = 0;
    /* Forward: ply n's bitmap and ply n + 1's; the bitmaps of the plies before `first` go once
     * their children are set, those from `first` on stay, with their directories, for the
     * backward pass. */
    if (oxo_keyset_init(&s->keys[0], s->hi[0]))
        goto nomem;
    held += oxo_keyset_bitmap_bytes(s->keys[0].nbits);
    const uint64_t root = canonical_number(g, oxo_start(g));
    s->keys[0].words[root >> 6] |= 1ull << (root & 63);
    const double t0 = oxo_seconds();
    for (int n = 0; n <= g->max_plies; n++) {
        oxo_keyset *k = &s->keys[n];
        const int big = (int64_t)k->nwords >= bar;
        const uint64_t count = members(k, big);
        if (!count)
            break;
        s->max_ply = n;
        s->canon_by_ply[n] = count;
        if (n >= first) {
            if (oxo_keyset_build_rank(k))
                goto nomem;
            held += oxo_keyset_bytes(k->nbits) - oxo_keyset_bitmap_bytes(k->nbits);
        }
        if (n < g->max_plies) {
            if (oxo_keyset_init(&s->keys[n + 1], s->hi[n + 1]))
                goto nomem;
            held += oxo_keyset_bitmap_bytes(s->keys[n + 1].nbits);
        }
        s->peak_bytes = held > s->peak_bytes ? held : s->peak_bytes;
        const double f0 = oxo_seconds();
        forward(s, n, big, &terminal, &canon_terminal,
                &(pass_say){&pr, "checking", done, total, (double)count});
        done += (double)count;
        t->seconds[n] = oxo_seconds() - f0;
        if (n < first) {
            held -= oxo_keyset_bitmap_bytes(k->nbits);
            oxo_keyset_free(k);
        }
        oxo_say(&pr, "checking", done, total, "ply %d forward", n);
    }
    t->forward_seconds = oxo_seconds() - t0;
    /* Backward over the last plies alone, each from the one after it. */
    for (int n = s->max_ply; n >= first; n--) {
        const uint64_t count = s->keys[n].count;
        if (!(s->entries[n] = malloc(count ? count : 1)))
            goto nomem;
        held += count;
        s->peak_bytes = held > s->peak_bytes ? held : s->peak_bytes;
        const double b0 = oxo_seconds();
        backward(s, n, (int64_t)s->keys[n].nwords >= bar,
                 &(pass_say){&pr, "checking", done, total, (double)count});
        t->seconds[n] += oxo_seconds() - b0;
        done += (double)count;
        oxo_say(&pr, "checking", done, total, "ply %d solved", n);
    }
    t->first = first;
    t->seconds_all = oxo_seconds() - t0;
    if (progress)
        fprintf(stderr, "\n");
    for (int n = 0; n <= s->max_ply; n++)
        s->counts.canonical_positions += s->canon_by_ply[n];
    return s;
nomem:
    oxo_fail(err, OXO_E_NOMEM, "solving the last %d plies of %s", last, g->spec);
    oxo_plies_free(s);
    return NULL;
}

double oxo_plies_last_bytes(const oxo_game *g, int last, const double *canon)
{
    const int first = g->max_plies + 1 - last;
    double kept = 0, peak = 0;
    for (int n = 0; n <= g->max_plies; n++) {
        const double bits = (double)oxo_keyset_bitmap_bytes(ply_size(g, n)),
                     next =
                         n < g->max_plies ? (double)oxo_keyset_bitmap_bytes(ply_size(g, n + 1)) : 0,
                     here = n >= first ? (double)oxo_keyset_bytes(ply_size(g, n)) : bits;
        peak = kept + here + next > peak ? kept + here + next : peak;
        if (n >= first)
            kept += here;
    }
    for (int n = first < 0 ? 0 : first; n <= g->max_plies; n++)
        kept += canon[n];
    return kept > peak ? kept : peak;
}
