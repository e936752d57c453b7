/*
 * Solving a game a ply at a time over its ply index (see plies.h).
 *
 * 1. Forward, ply by ply: each thread takes blocks of ply n's bitmap, plays every move of every
 *    board that is not over, and sets the canonical child's number in ply n + 1's bitmap (an
 *    atomic OR after a plain read). The bitmap's directory then numbers ply n's members.
 * 2. Backward, from the last ply to the first: each member's entry is the negamax of its
 *    children's (oxo_entry_fold), all of them members of ply n + 1, solved in the pass before.
 * Every entry is a function of its children and every figure a sum of integers, so the result is
 * the same bytes for any number of threads.
 */
#include "plies.h"

#include "cli.h"
#include "clock.h"
#include "player.h"
#include "retro.h"

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
static int children(const oxo_game *g, oxo_pos p, uint64_t legal, uint64_t *nums)
{
    if (g->ops->ply_children)
        return g->ops->ply_children(g, p, legal, nums);
    int k = 0;
    for (; legal; legal &= legal - 1)
        nums[k++] = canonical_number(g, oxo_play(g, p, __builtin_ctzll(legal)));
    return k;
}

uint64_t oxo_plies_estimate(const oxo_game *g)
{
    if (!g->ops->ply_size)
        return 0;
    /* Every ply's bitmap and directory (10 bits a number), and an entry for each canonical board
     * the solve keeps: at most one for every nsym numbers (the reachable boards are fewer). */
    double bytes = 16u << 20;
    for (int n = 0; n <= g->max_plies; n++) {
        uint64_t a = ply_size(g, n);
        if (a == UINT64_MAX)
            return 0;
        bytes += (double)oxo_keyset_bytes(a) + (double)a / g->nsym + 1;
    }
    return (uint64_t)bytes;
}

/* Step 1 for ply n: the members of ply n + 1 from those of ply n; the figures of ply n. */
static void forward(oxo_plies *s, int n, int big, uint64_t *terminal, uint64_t *canon_terminal)
{
    const oxo_game *g = s->g;
    oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const int64_t nblocks = (int64_t)(k->nwords / BLOCK);
    uint64_t images = 0, term = 0, cterm = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : images, term, cterm) if (big)
    for (int64_t blk = 0; blk < nblocks; blk++) {
        oxo_ply_hint hint = {.ply = -1};
        OXO_KEYSET_MEMBERS(k, blk, num, idx, {
            (void)idx;
            oxo_pos p = g->ops->ply_unrank(g, n, num, &hint);
            int o = oxo_orbit_size(g, p);
            images += (uint64_t)o;
            uint64_t legal = oxo_legal(g, p);
            if (!legal) {
                term += (uint64_t)o;
                cterm++;
            }
            uint64_t nums[OXO_MAX_MOVES];
            for (int i = 0, kids = children(g, p, legal, nums); i < kids; i++) {
                uint64_t c = nums[i], bit = 1ull << (c & 63);
                if (!(__atomic_load_n(&next->words[c >> 6], __ATOMIC_RELAXED) & bit))
                    __atomic_fetch_or(&next->words[c >> 6], bit, __ATOMIC_RELAXED);
            }
        });
    }
    s->by_ply[n] = images;
    *terminal += term;
    *canon_terminal += cterm;
}

/* Step 2 for ply n: the entries of its members from those of ply n + 1. */
static void backward(oxo_plies *s, int n, int big)
{
    const oxo_game *g = s->g;
    const oxo_keyset *k = &s->keys[n], *next = &s->keys[n + 1];
    const uint8_t *below = s->entries[n + 1];
    uint8_t *e = s->entries[n];
    const int64_t nblocks = (int64_t)(k->nwords / BLOCK);
#pragma omp parallel for schedule(dynamic, 64) if (big)
    for (int64_t blk = 0; blk < nblocks; blk++) {
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
            for (int i = 0, kids = children(g, p, legal, nums); i < kids; i++)
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
            if (sink->load(sink->ctx, n, &s->keys[n], s->entries[n], err))
                return -1;
            s->resumed = s->max_ply + 1 - n;
        } else {
            backward(s, n, (int64_t)s->keys[n].nwords >= oxo_retro_parallel_words());
            if (sink && sink->save(sink->ctx, n, &s->keys[n], s->entries[n], err))
                return -1;
        }
        if (sink && n + 2 <= s->max_ply && s->entries[n + 2]) {
            *held -= s->keys[n + 2].count;
            free(s->entries[n + 2]);
            s->entries[n + 2] = NULL;
        }
        done += (double)count;
        oxo_say(pr, "solving", done, total, "ply %d", n);
    }
    return 0;
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
    for (int n = 0; n <= g->max_plies; n++)
        if (oxo_keyset_init(&s->keys[n], ply_size(g, n)))
            goto nomem;
    uint64_t held = 0;
    for (int n = 0; n <= g->max_plies; n++)
        held += oxo_keyset_bytes(ply_size(g, n));
    s->peak_bytes = held;

    const int64_t bar = oxo_retro_parallel_words();
    oxo_progress pr = {progress, NULL, 0};
    double total = 0;
    uint64_t root = canonical_number(g, oxo_start(g)), terminal = 0, canon_terminal = 0;
    s->keys[0].words[root >> 6] |= 1ull << (root & 63);
    for (int n = 0; n <= g->max_plies; n++) {
        if (oxo_keyset_build_rank(&s->keys[n]))
            goto nomem;
        if (!s->keys[n].count)
            break;
        s->max_ply = n;
        s->canon_by_ply[n] = s->keys[n].count;
        forward(s, n, (int64_t)s->keys[n].nwords >= bar, &terminal, &canon_terminal);
        total += (double)s->keys[n].count;
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
    int64_t i = oxo_keyset_rank(&s->keys[n], canonical_number(s->g, p));
    if (i < 0)
        return -1;
    *entry = s->entries[n][i];
    return 0;
}
