/*
 * Enumeration and retrograde analysis over a bitmap of codes, on every core (see retro.h).
 *
 * 1. Forward, ply by ply: the codes of the canonical positions of ply k are the set bits of one
 *    bitmap; each thread takes blocks of it, plays every move of every position that is not over,
 *    and sets the canonical child's code in the bitmap of ply k + 1 (an atomic OR, after a plain
 *    read that skips codes already there). Ply k then joins the bitmap of all positions.
 * 2. The rank directory numbers the positions in code order. One pass gives each its ply and, for
 *    the finished ones, their entry (lost or drawn in 0), and counts the images of each position
 *    (its orbit under the symmetries) to give the figures of the whole space.
 * 3. Backward, from the last ply to the first: each position's entry is the negamax of its
 *    children's entries (oxo_entry_fold: the best value, the fastest win, the slowest loss).
 *    The children of ply k are all of ply k + 1, solved in the pass before, so the threads of a
 *    pass never wait on each other.
 * 4. Forward again for the tree figures: the paths (move sequences) into each position, added to
 *    its children's with atomic adds, and summed over the finished positions.
 * Every figure is a sum of integers and every entry a function of its children, so the result is
 * the same bytes for any number of threads.
 */
#include "retro.h"

#include "cli.h"
#include "clock.h"
#include "player.h"
#include "space.h"

#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK  OXO_KEYSET_BLOCK
#define REGION 512 /* words of a region of the enumeration's bitmaps */
int64_t oxo_retro_parallel_words(void)
{
    const char *e = getenv("OXO_RETRO_PARALLEL_WORDS");
    return e && *e ? strtoll(e, NULL, 10) : 65536;
}

/* Blocks of 8 words (512 codes) are the unit of work: a thread owns whole blocks, so it knows the
 * rank of its first member from the directory. */
static uint64_t binom(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    double r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return (uint64_t)(r + 0.5);
}

uint64_t oxo_retro_estimate(const oxo_game *g, uint64_t *positions)
{
    uint64_t space = oxo_code_space(g);
    *positions = 0;
    if (!space || g->code_bits > 40 || g->cells > 63)
        return 0;
    /* Boards with a legal count of stones: any k cells (or, with gravity, any column heights
     * adding up to k) holding ceil(k/2) X and floor(k/2) O. */
    double bound = 0;
    if (!g->gravity) {
        for (int k = 0; k <= g->cells; k++)
            bound += (double)binom(g->cells, k) * (double)binom(k, k / 2);
    } else {
        double ways[OXO_MAX_MOVES + 1] = {1}; /* height vectors of the columns so far, by stones */
        for (int c = 0; c < g->width; c++) {
            double next[OXO_MAX_MOVES + 1] = {0};
            for (int k = 0; k <= g->cells; k++)
                for (int h = 0; h <= g->height && k + h <= g->cells; h++)
                    next[k + h] += ways[k];
            memcpy(ways, next, sizeof ways);
        }
        for (int k = 0; k <= g->cells; k++)
            bound += ways[k] * (double)binom(k, k / 2);
    }
    *positions = bound > 1.8e19 ? UINT64_MAX : (uint64_t)bound;
    double canon = bound / g->nsym + 1;
    /* Enumeration holds three bitmaps; the solve one, its directory, and a ply, an entry and a
     * path count (8 bytes) per canonical position. */
    double bitmap = (double)oxo_keyset_bytes(space);
    double forward = 3 * bitmap, solve = bitmap + canon * (1 + 1 + 8);
    return (uint64_t)(forward > solve ? forward : solve) + (16u << 20);
}

void oxo_say(oxo_progress *p, const char *stage, double done, double total, const char *fmt, ...)
{
    if (!p->on)
        return;
    if (p->stage != stage) {
        p->stage = stage;
        p->t0 = oxo_seconds();
    }
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    p->last = oxo_seconds();
    double el = p->last - p->t0;
    if (total > 0 && done > 0)
        fprintf(stderr, "\roxo-gen: %s: %s, %.0f%%, ETA %.0f s      ", stage, what,
                100 * done / total, el * (total - done) / done);
    else
        fprintf(stderr, "\roxo-gen: %s: %s      ", stage, what);
}

/* Step 1: the canonical codes of every reachable position into r->keys. */
static int enumerate(oxo_retro *r, oxo_progress *pr, uint64_t space)
{
    const oxo_game *g = r->g;
    oxo_keyset cur, next;
    if (oxo_keyset_init(&cur, space) || oxo_keyset_init(&next, space)) {
        oxo_keyset_free(&cur);
        return -1;
    }
    const int64_t nwords = (int64_t)cur.nwords;
    /* Small games stay on one thread: waking a team costs more than tic-tac-toe's whole solve. */
    const int big = nwords >= oxo_retro_parallel_words();
    /* Regions of 512 words (32,768 codes) that hold a position of the ply, for the current and
     * the next ply: a ply touches only its own regions of the bitmaps, not all of them. */
    const int64_t nregions = (nwords + REGION - 1) / REGION;
    uint8_t *held = calloc((size_t)nregions, 1), *held_next = calloc((size_t)nregions, 1);
    if (!held || !held_next) {
        free(held);
        free(held_next);
        oxo_keyset_free(&cur);
        oxo_keyset_free(&next);
        return -1;
    }
    uint64_t start = oxo_canonical_code(g, oxo_start(g), NULL), total = 0;
    cur.words[start >> 6] |= 1ull << (start & 63);
    held[(start >> 6) / REGION] = 1;
    for (int ply = 0;; ply++) {
        uint64_t members = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : members) if (big)
        for (int64_t reg = 0; reg < nregions; reg++) {
            if (!held[reg])
                continue;
            held[reg] = 0; /* the region's only reader clears it, as it clears its words */
            const int64_t end = (reg + 1) * REGION < nwords ? (reg + 1) * REGION : nwords;
            for (int64_t w = reg * REGION; w < end; w++) {
                uint64_t bits = cur.words[w];
                if (!bits)
                    continue;
                /* Ply k joins all positions, and its bitmap is cleared for ply k + 2, in this same
                 * pass: the thread that reads word w is the only one to touch it in both. */
                r->keys.words[w] |= bits;
                cur.words[w] = 0;
                members += (uint64_t)__builtin_popcountll(bits);
                while (bits) {
                    uint64_t code = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(bits);
                    bits &= bits - 1;
                    oxo_pos p = oxo_decode(g, code);
                    uint64_t legal = oxo_legal(g, p);
                    while (legal) {
                        int m = __builtin_ctzll(legal);
                        legal &= legal - 1;
                        uint64_t c = oxo_canonical_code(g, oxo_play(g, p, m), NULL),
                                 bit = 1ull << (c & 63);
                        if (!(__atomic_load_n(&next.words[c >> 6], __ATOMIC_RELAXED) & bit)) {
                            __atomic_fetch_or(&next.words[c >> 6], bit, __ATOMIC_RELAXED);
                            if (!__atomic_load_n(&held_next[(c >> 6) / REGION], __ATOMIC_RELAXED))
                                __atomic_store_n(&held_next[(c >> 6) / REGION], 1,
                                                 __ATOMIC_RELAXED);
                        }
                    }
                }
            }
        }
        if (!members)
            break;
        r->max_ply = ply;
        r->canon_by_ply[ply] = members;
        total += members;
        oxo_keyset t = cur;
        cur = next;
        next = t;
        uint8_t *h = held;
        held = held_next;
        held_next = h;
        oxo_say(pr, "enumerating", 0, 0, "ply %d, %llu canonical positions", ply,
                (unsigned long long)total);
    }
    oxo_keyset_free(&cur);
    oxo_keyset_free(&next);
    free(held);
    free(held_next);
    return 0;
}

oxo_retro *oxo_retro_solve(const oxo_game *g, int show, int tree, oxo_error *err)
{
    uint64_t bound, space = oxo_code_space(g);
    if (!oxo_retro_estimate(g, &bound)) {
        oxo_fail(err, OXO_E_ARG, "%s is too large to enumerate (codes of %d bits)", g->spec,
                 g->code_bits);
        return NULL;
    }
    oxo_retro *r = calloc(1, sizeof *r);
    uint8_t *ply = NULL;
    uint64_t *plies = NULL; /* per block: bit p set when a member of the block has ply p */
    uint64_t *paths = NULL;
    oxo_progress pr = {show, NULL, 0, 0};
    if (!r || oxo_keyset_init(&r->keys, space))
        goto nomem;
    r->g = g;
    if (enumerate(r, &pr, space) || oxo_keyset_build_rank(&r->keys))
        goto nomem;
    const oxo_keyset *k = &r->keys;
    const int64_t nblocks = (int64_t)(k->nwords / BLOCK);
    const uint64_t n = k->count;
    const int big = (int64_t)k->nwords >= oxo_retro_parallel_words();
    if (n > UINT32_MAX) {
        oxo_fail(err, OXO_E_ARG, "%s has %llu canonical positions, more than a table holds (2^32)",
                 g->spec, (unsigned long long)n);
        goto fail;
    }
    r->entries = malloc(n);
    ply = malloc(n);
    plies = calloc((size_t)nblocks + 1, sizeof *plies);
    if (!plies)
        goto nomem;
    if (!r->entries || !ply)
        goto nomem;
    r->peak_bytes = 3 * 8 * k->nwords;

    /* Step 2: plies, finished positions, orbits. */
    uint64_t by_ply[OXO_MAX_MOVES + 1] = {0}, terminal = 0, canon_terminal = 0;
#pragma omp parallel if (big)
    {
        uint64_t mine[OXO_MAX_MOVES + 1] = {0}, term = 0, cterm = 0;
#pragma omp for schedule(dynamic, 64)
        for (int64_t blk = 0; blk < nblocks; blk++)
            OXO_KEYSET_MEMBERS(k, blk, code, idx, {
                oxo_pos p = oxo_decode(g, code);
                int o = oxo_orbit_size(g, p), pl = oxo_ply(p);
                oxo_status st = oxo_status_of(g, p);
                /* The ply (at most 63) and, above it, log2 of the orbit (1, 2, 4 or 8 images). */
                ply[idx] = (uint8_t)(pl | (__builtin_ctz((unsigned)o) << 6));
                plies[blk] |= 1ull << pl;
                mine[pl] += (uint64_t)o;
                if (st != OXO_ONGOING) {
                    term += (uint64_t)o;
                    cterm++;
                    r->entries[idx] = OXO_ENTRY(st == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
                }
            });
#pragma omp critical
        {
            for (int i = 0; i <= OXO_MAX_MOVES; i++)
                by_ply[i] += mine[i];
            terminal += term;
            canon_terminal += cterm;
        }
    }
    memcpy(r->by_ply, by_ply, sizeof by_ply);
    oxo_table_counts *c = &r->counts;
    for (int i = 0; i <= r->max_ply; i++)
        c->positions += by_ply[i];
    c->terminal_positions = terminal;
    c->canonical_positions = n;
    c->canonical_nonterminal_positions = n - canon_terminal;

    /* Step 3: entries, from the last ply to the first. */
    double done = 0;
    for (int pl = r->max_ply; pl >= 0; pl--) {
#pragma omp parallel for schedule(dynamic, 64) if (big)
        for (int64_t blk = 0; blk < nblocks; blk++)
            if (plies[blk] >> pl & 1) /* most blocks hold a few plies: skip the others whole */
                OXO_KEYSET_MEMBERS(k, blk, code, idx, {
                    if ((ply[idx] & 63) != pl)
                        continue;
                    oxo_pos p = oxo_decode(g, code);
                    uint64_t legal = oxo_legal(g, p);
                    int bv = -2, bd = 0;
                    if (!legal)
                        continue; /* finished: its entry is set */
                    while (legal) {
                        int m = __builtin_ctzll(legal);
                        legal &= legal - 1;
                        oxo_entry_fold(r->entries[oxo_keyset_rank(
                                           k, oxo_canonical_code(g, oxo_play(g, p, m), NULL))],
                                       &bv, &bd);
                    }
                    r->entries[idx] = OXO_ENTRY(bv, bd);
                });
        done += (double)r->canon_by_ply[pl];
        oxo_say(&pr, "solving", done, (double)n, "ply %d", pl);
    }

    /* Step 4: the move sequences into every position, ply by ply from the start, pulled from its
     * parents (the boards one un-move before it that were still in play), so each thread writes
     * only its own positions: no atomics. paths[i] counts the sequences into the board of
     * position i itself; its images have as many, so the orbit multiplies it in the sums. */
    r->tree_fits = 0;
    if (tree && (paths = calloc(n, sizeof *paths))) {
        int wrapped = 0;
        uint64_t sums[5] = {0}; /* nodes, games, x wins, o wins, draws */
        done = 0;
        for (int pl = 0; pl <= r->max_ply; pl++) {
#pragma omp parallel if (big)
            {
                uint64_t mine[5] = {0};
                int over = 0;
#pragma omp for schedule(dynamic, 64)
                for (int64_t blk = 0; blk < nblocks; blk++)
                    if (plies[blk] >> pl & 1)
                        OXO_KEYSET_MEMBERS(k, blk, code, idx, {
                            if ((ply[idx] & 63) != pl)
                                continue;
                            oxo_pos p = oxo_decode(g, code);
                            uint64_t np = pl == 0, un = oxo_unmoves(g, p);
                            while (un) {
                                int m = __builtin_ctzll(un);
                                un &= un - 1;
                                oxo_pos b = oxo_unplay(g, p, m);
                                int64_t bi = oxo_keyset_rank(k, oxo_canonical_code(g, b, NULL));
                                if (bi >= 0 && oxo_status_of(g, b) == OXO_ONGOING)
                                    over |= __builtin_add_overflow(np, paths[bi], &np);
                            }
                            paths[idx] = np;
                            uint64_t all;
                            over |=
                                __builtin_mul_overflow(np, (uint64_t)1 << (ply[idx] >> 6), &all);
                            oxo_status st = oxo_status_of(g, p);
                            over |= __builtin_add_overflow(mine[0], all, &mine[0]);
                            if (st != OXO_ONGOING) {
                                int which = st == OXO_OVER_DRAW ? 4 : oxo_x_to_move(g, p) ? 3 : 2;
                                over |= __builtin_add_overflow(mine[1], all, &mine[1]);
                                over |= __builtin_add_overflow(mine[which], all, &mine[which]);
                            }
                        });
#pragma omp critical
                {
                    wrapped |= over;
                    for (int i = 0; i < 5; i++)
                        wrapped |= __builtin_add_overflow(sums[i], mine[i], &sums[i]);
                }
            }
            done += (double)r->canon_by_ply[pl];
            oxo_say(&pr, "counting the tree", done, (double)n, "ply %d", pl);
        }
        uint64_t *out[5] = {&c->nodes, &c->games, &c->x_wins, &c->o_wins, &c->draws};
        for (int i = 0; i < 5; i++)
            *out[i] = wrapped ? 0 : sums[i];
        r->tree_fits = !wrapped;
        uint64_t held = 8 * k->nwords + 2 * k->nwords + 8 * (uint64_t)(nblocks + 1) + 10 * n;
        r->peak_bytes = held > r->peak_bytes ? held : r->peak_bytes;
    }
    if (pr.on)
        fprintf(stderr, "\n");
    free(paths);
    free(ply);
    free(plies);
    return r;
nomem:
    oxo_fail(err, OXO_E_ARG, "out of memory solving %s", g->spec);
fail:
    free(paths);
    free(ply);
    free(plies);
    oxo_retro_free(r);
    return NULL;
}

void oxo_retro_free(oxo_retro *r)
{
    if (!r)
        return;
    oxo_keyset_free(&r->keys);
    free(r->entries);
    free(r);
}

void oxo_retro_table(const oxo_retro *r, oxo_table *t)
{
    const oxo_game *g = r->g;
    memset(t, 0, sizeof *t);
    t->major = OXO_TABLE_MAJOR_BITMAP;
    snprintf(t->game, sizeof t->game, "%s", g->spec);
    t->rows = (uint32_t)g->rows;
    t->cols = (uint32_t)g->cols;
    snprintf(t->index, sizeof t->index, "code-bitmap");
    t->symmetric = 1;
    t->counts = r->counts;
    t->tree = r->tree_fits;
    int64_t root = oxo_keyset_rank(&r->keys, oxo_canonical_code(g, oxo_start(g), NULL));
    snprintf(t->root_value, sizeof t->root_value, "%s",
             oxo_value_name(OXO_ENTRY_VALUE(r->entries[root])));
    snprintf(t->generator, sizeof t->generator, "oxo-gen %s", OXO_VERSION);
    t->n = (uint32_t)r->keys.count;
    t->entries = r->entries;
    t->code_space = r->keys.nbits;
    t->nwords = (r->keys.nbits + 63) / 64;
    t->keys = r->keys.words;
    t->nplies = (uint32_t)r->max_ply + 1;
    memcpy(t->by_ply, r->by_ply, sizeof t->by_ply);
    t->borrowed = 1;
}

uint8_t *oxo_retro_table_small(const oxo_retro *r, oxo_table *t)
{
    if (t->n > OXO_SMALL_TABLE || !t->tree)
        return NULL;
    oxo_space *sp = oxo_space_build(r->g, 1);
    uint8_t *e = sp && sp->n == t->n ? malloc(t->n) : NULL;
    for (uint32_t i = 0; e && i < sp->n; i++) {
        int64_t k = oxo_keyset_rank(&r->keys, sp->code[i]);
        if (k < 0) { /* the enumeration and the solve disagree: keep format 2 */
            free(e);
            e = NULL;
        } else
            e[i] = r->entries[k];
    }
    oxo_space_free(sp);
    if (!e)
        return NULL;
    t->major = 1;
    snprintf(t->index, sizeof t->index, "ply-code");
    t->entries = e;
    t->keys = NULL;
    t->nwords = 0;
    /* positions_by_ply stays: the figures print it; format 1 does not store it */
    t->code_space = 0;
    return e;
}
