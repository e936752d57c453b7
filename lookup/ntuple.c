/*
 * n-tuple networks (see ntuple.h): the tuples' cells on each image of the board, the weight
 * indexes a board selects and what each move changes in them, tanh, a board's value, the
 * value of each move, and the two-ply defence of a player who thinks itself lost.
 */
#include "ntuple.h"

#include "model.h"

#include "rng.h"

#include "freestanding/host.h"
#include "freestanding/net.c"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Weights are read and written at random all over their tens of megabytes: on 4 KB pages nearly
 * every access also misses the TLB, so they go on 2 MB pages where the system allows it. Zeroed. */
float *oxo_ntuple_weights_alloc(uint32_t n)
{
    size_t align = (size_t)2 << 20, bytes = ((size_t)n * sizeof(float) + align - 1) / align * align;
    float *w = aligned_alloc(align, bytes);
#if defined(MADV_HUGEPAGE) && !defined(__wasi__) /* wasi-libc names it, has no madvise */
    if (w)
        madvise(w, bytes, MADV_HUGEPAGE);
#endif
    if (w)
        memset(w, 0, bytes);
    return w;
}

uint32_t oxo_ntuple_weights(int count, int len, int states)
{
    if (count < 1 || len < 1 || states < 2)
        return 0;
    uint64_t span = 1;
    for (int i = 0; i < len; i++)
        if ((span *= (uint64_t)states) > OXO_NTUPLE_MAX_WEIGHTS)
            return 0;
    uint64_t n = span * (uint64_t)count;
    return n > OXO_NTUPLE_MAX_WEIGHTS ? 0 : (uint32_t)n;
}

int oxo_ntuple_states(const oxo_game *g)
{
    return g->cell_states;
}

/* The cell maps of the board's symmetries, worked out from its shape, not from the family's bit
 * layout: the eight maps of a square that take a rows x cols board onto itself, and with gravity
 * only those that keep the bottom at the bottom (the identity and the mirror). */
static int cell_maps(const oxo_game *g, uint8_t map[OXO_MAX_SYM][OXO_MAX_MOVES])
{
    const int R = g->rows, C = g->cols;
    int n = 0;
    for (int s = 0; s < 8; s++) {
        int transpose = s >= 4, flip_r = s & 1, flip_c = (s >> 1) & 1;
        if (transpose && R != C)
            continue;
        if (g->gravity && (transpose || flip_r))
            continue;
        for (int r = 0; r < R; r++)
            for (int c = 0; c < C; c++) {
                int rr = flip_r ? R - 1 - r : r, cc = flip_c ? C - 1 - c : c;
                if (transpose) {
                    int t = rr;
                    rr = cc;
                    cc = t;
                }
                map[n][r * C + c] = (uint8_t)(rr * C + cc);
            }
        n++;
    }
    return n;
}

int oxo_ntuple_check(const oxo_game *g, long count, long len, long sets, oxo_error *err)
{
    if (count >= 1 && count <= OXO_NTUPLE_MAX_COUNT && len >= 1 && len <= OXO_NTUPLE_MAX_LEN &&
        len <= g->cells && (sets == 1 || sets == 2))
        return 1;
    oxo_fail(
        err, OXO_E_ARG,
        "%ld tuples of %ld cells, %ld weight set%s: expected 1 to %d tuples of 1 to %d cells (at "
        "most the %d of the board) and 1 or 2 sets",
        count, len, sets, sets == 1 ? "" : "s", OXO_NTUPLE_MAX_COUNT, OXO_NTUPLE_MAX_LEN, g->cells);
    return 0;
}

/* The network's layout. Without gravity a tuple's index is its cells' states as digits in base 3,
 * as in the file. With gravity the cells of a tuple that lie one above the other in a column make
 * chains (bottom to top), and a column fills from the bottom: a chain of L cells is h stones (a
 * colour each) under one playable cell under empty ones, or, with no stone, its bottom cell
 * playable or not; 2^(L+1) fillings against 4^L. A chain's rank is a sum over its cells: the
 * bottom cell adds its state as the file numbers it (0 empty, 1 the owner's, 2 the other's, 3
 * playable), the one above it 3 or 5 for a stone of the owner or of the other, the k-th above
 * (k >= 2) 2^k or 2^(k+1), and an empty or playable cell above the bottom nothing. Ranks 0-3 are
 * then the bottom cell's states, and h >= 2 stones give 2^h plus their colours as bits. So the
 * index stays a sum of one term a cell (dig), a move changes it by a constant (mv_delta), as
 * before, and a chain of one cell is read as the file reads it: a tuple with no cell above
 * another has the file's layout (FORMAT.md). The tuple's index is its chains' ranks in mixed
 * radix, chains in the order of their bottom cells in the tuple. */

/* The chains of tuple t (formats' oxo_ntuple_chains_of: the reader counts a file's weights by
 * them). */
typedef oxo_ntuple_chains chain_set;

static void chains(const oxo_ntuple *n, int t, chain_set *ch)
{
    oxo_ntuple_chains_of((uint32_t)n->g->rows, (uint32_t)n->g->cols, n->cells + (size_t)t * n->len,
                         (uint32_t)n->len, ch);
}

/* Fills dig and off; returns the weights of one set (beyond the bound only for a network refused:
 * off is then of no use). */
static uint64_t layout(oxo_ntuple *n)
{
    uint64_t total = 0;
    for (int t = 0; t < n->count; t++) {
        uint32_t span = 1;
        uint32_t *d = n->dig + (size_t)t * n->len * 4;
        if (!n->g->gravity) {
            for (int i = 0; i < n->len; i++, span *= 3)
                for (uint32_t s = 0; s < 4; s++)
                    d[i * 4 + s] = s < 3 ? s * span : 0;
        } else {
            chain_set ch;
            chains(n, t, &ch);
            for (int j = 0; j < ch.nc; j++) {
                for (int k = 0; k < ch.len[j]; k++) {
                    uint32_t *e = d + ch.pos[j][k] * 4;
                    e[0] = 0;
                    e[3] = k ? 0 : 3 * span;
                    e[1] = (k > 1 ? 1u << k : k ? 3u : 1u) * span;
                    e[2] = (k > 1 ? 2u << k : k ? 5u : 2u) * span;
                }
                span *= 2u << ch.len[j];
            }
        }
        n->off[t] = (uint32_t)total;
        total += span;
    }
    return total;
}

/* The states of chain j's cells at its rank, into st; 0 when no board gives that rank (an empty,
 * unplayable cell on the bottom row). */
static int chain_states(const chain_set *ch, int j, uint32_t rank, uint8_t *st)
{
    const int *pos = ch->pos[j], len = ch->len[j];
    for (int k = 0; k < len; k++)
        st[pos[k]] = 0;
    if (rank < 4) { /* the bottom cell's state as in the file; a stone makes the next playable */
        st[pos[0]] = (uint8_t)rank;
        if ((rank == 1 || rank == 2) && len > 1)
            st[pos[1]] = 3;
        return rank || !ch->bottom[j];
    }
    const int h = 31 - __builtin_clz(rank);
    for (int k = 0; k < h; k++)
        st[pos[k]] = (uint8_t)(rank >> k & 1 ? 2 : 1);
    if (h < len)
        st[pos[h]] = 3;
    return 1;
}

/* The states of a tuple's cells at its local index r (with gravity; ch: the tuple's chains). */
static int decode(const chain_set *ch, uint32_t r, uint8_t *st)
{
    int ok = 1;
    for (int j = 0; j < ch->nc; j++) {
        const uint32_t size = 2u << ch->len[j];
        ok &= chain_states(ch, j, r % size, st);
        r /= size;
    }
    return ok;
}

/* Copies every weight a board can read from the file's layout (full) to the network's (w);
 * returns how many of them are not 0. With gravity only. The file index of a tuple's local index
 * is the sum of its chains' parts, each from a table of its ranks, and the ranks are counted
 * through like an odometer (the first chain turning fastest). */
static uint64_t transfer(const oxo_ntuple *n, const float *full, float *w)
{
    const uint32_t F = n->nfull / (uint32_t)(n->sets * n->count), bad = UINT32_MAX;
    uint64_t nonzero = 0;
    chain_set ch;
    uint8_t st[OXO_NTUPLE_MAX_LEN];
    uint32_t part[2u << OXO_NTUPLE_MAX_LEN], *at[OXO_NTUPLE_MAX_LEN]; /* the chains' tables */
    for (int t = 0; t < n->count; t++) {
        const uint32_t span = (t + 1 < n->count ? n->off[t + 1] : n->per_set) - n->off[t];
        chains(n, t, &ch);
        uint32_t used = 0, rank[OXO_NTUPLE_MAX_LEN] = {0};
        for (int j = 0; j < ch.nc; j++) {
            at[j] = part + used;
            for (uint32_t r = 0; r < 2u << ch.len[j]; r++) {
                memset(st, 0, sizeof st);
                uint32_t f = 0, mult = 1;
                const int ok = chain_states(&ch, j, r, st);
                for (int i = 0; i < n->len; i++, mult *= (uint32_t)n->states)
                    f += st[i] * mult;
                at[j][r] = ok ? f : bad;
            }
            used += 2u << ch.len[j];
        }
        for (uint32_t r = 0; r < span; r++) {
            uint32_t f = 0;
            int ok = 1;
            for (int j = 0; j < ch.nc; j++) {
                ok &= at[j][rank[j]] != bad;
                f += at[j][rank[j]];
            }
            for (int j = 0; j < ch.nc && ++rank[j] == 2u << ch.len[j]; j++)
                rank[j] = 0;
            if (!ok)
                continue;
            for (int s = 0; s < n->sets; s++) {
                const float v = full[((size_t)s * n->count + t) * F + f];
                w[(size_t)s * n->per_set + n->off[t] + r] = v;
                nonzero += v != 0;
            }
        }
    }
    return nonzero;
}

int64_t oxo_ntuple_pack(const oxo_ntuple *n, const float *full, float *w)
{
    if (!n->g->gravity) {
        memcpy(w, full, (size_t)n->nweights * sizeof *w);
        return -1;
    }
    memset(w, 0, (size_t)n->nweights * sizeof *w);
    const uint64_t kept = transfer(n, full, w);
    uint32_t nonzero = 0; /* a count the compiler can vectorize */
    for (uint32_t i = 0; i < n->nfull; i++)
        nonzero += full[i] != 0;
    if (nonzero == kept)
        return -1;
    /* Some weight lies where no board reads: find the first (only on a file being refused). */
    const uint32_t F = n->nfull / (uint32_t)(n->sets * n->count);
    uint8_t st[OXO_NTUPLE_MAX_LEN], back[OXO_NTUPLE_MAX_LEN];
    chain_set ch;
    for (uint32_t i = 0; i < n->nfull; i++) {
        if (full[i] == 0)
            continue;
        const int t = (int)(i / F % (uint32_t)n->count);
        uint32_t f = i % F, r = 0;
        for (int k = 0; k < n->len; k++, f /= (uint32_t)n->states) {
            st[k] = (uint8_t)(f % (uint32_t)n->states);
            r += n->dig[((size_t)t * n->len + k) * 4 + st[k]];
        }
        chains(n, t, &ch);
        if (!decode(&ch, r, back) || memcmp(st, back, (size_t)n->len))
            return i;
    }
    return -1; /* not reached: the counts differ only for such a weight */
}

int oxo_ntuple_load(const oxo_ntuple *n, const oxo_model *m, const float *src, float *w,
                    oxo_error *err)
{
    const int full = oxo_model_every_filling(m);
    const uint32_t want = full ? n->nfull : n->nweights;
    if (m->nvalues != want) {
        oxo_fail(err, OXO_E_ARG, "%u weights, the network's tuples need %u", m->nvalues, want);
        return -1;
    }
    const int64_t bad = full ? oxo_ntuple_pack(n, src, w) : -1;
    if (!full)
        memcpy(w, src, (size_t)want * sizeof *w);
    if (bad < 0)
        return 0;
    const uint32_t per = m->nvalues / (uint32_t)(n->sets * n->count);
    oxo_fail(
        err, OXO_E_ARG,
        "weight %lld (tuple %u of weight set %u) is %g, for a filling of the tuple's cells that no "
        "board has (a stone above an empty cell, or an empty unplayable cell on the bottom row)",
        (long long)bad, (uint32_t)(bad / per % (uint32_t)n->count),
        (uint32_t)(bad / per / (uint32_t)n->count), (double)src[bad]);
    return -1;
}

oxo_ntuple *oxo_ntuple_new(const oxo_game *g, int count, int len, int sets, const uint8_t *cells,
                           float *weights, oxo_error *err)
{
    const int states = oxo_ntuple_states(g);
    if (!oxo_ntuple_check(g, count, len, sets, err))
        return NULL;
    for (int t = 0; t < count; t++)
        for (int i = 0; i < len; i++) {
            int c = cells[t * len + i];
            if (c >= g->cells) {
                oxo_fail(err, OXO_E_ARG, "tuple %d cell %d is %d, beyond the %d cells of %s", t, i,
                         c, g->cells, g->name);
                return NULL;
            }
            for (int j = 0; j < i; j++)
                if (cells[t * len + j] == c) {
                    oxo_fail(err, OXO_E_ARG, "tuple %d holds cell %d twice", t, c);
                    return NULL;
                }
        }
    oxo_ntuple *n = calloc(1, sizeof *n);
    uint8_t map[OXO_MAX_SYM][OXO_MAX_MOVES];
    if (!n)
        goto nomem;
    n->g = g;
    n->count = count;
    n->len = len;
    n->states = states;
    n->sets = sets;
    /* 0: more than any file of every filling held */
    n->nfull = oxo_ntuple_weights(count * sets, len, states);
    n->nsym = cell_maps(g, map);
    n->cells = malloc((size_t)count * len);
    n->images = malloc((size_t)n->nsym * count * len);
    n->off = malloc((size_t)count * sizeof *n->off);
    n->dig = malloc((size_t)count * len * 4 * sizeof *n->dig);
    if (!n->cells || !n->images || !n->off || !n->dig)
        goto nomem;
    memcpy(n->cells, cells, (size_t)count * len);
    /* The bound is on the weights held, not on every filling: with gravity a tuple of 9 to 12 cells
     * mostly stacked in columns holds a fraction of its 4^len fillings. */
    const uint64_t per_set = layout(n);
    if (per_set * (uint64_t)sets > OXO_NTUPLE_MAX_WEIGHTS) {
        oxo_fail(
            err, OXO_E_ARG,
            "%d tuples of %d cells, %d weight set%s: %llu weights (the fillings a board can give "
            "them), more than the %u allowed",
            count, len, sets, sets > 1 ? "s" : "", (unsigned long long)(per_set * (uint64_t)sets),
            OXO_NTUPLE_MAX_WEIGHTS);
        oxo_ntuple_free(n);
        return NULL;
    }
    n->per_set = (uint32_t)per_set;
    n->nweights = n->per_set * (uint32_t)sets;
    for (int s = 0; s < n->nsym; s++)
        for (int k = 0; k < count * len; k++)
            n->images[(size_t)s * count * len + k] = map[s][cells[k]];
    /* The slots that read each cell, counted, then listed cell by cell. */
    const int A = n->nsym * count;
    n->occ_first = calloc((size_t)g->cells + 1, sizeof *n->occ_first);
    n->occ_slot = malloc((size_t)A * len * sizeof *n->occ_slot);
    n->occ_dig = malloc((size_t)A * len * sizeof *n->occ_dig);
    if (!n->occ_first || !n->occ_slot || !n->occ_dig)
        goto nomem;
    for (int k = 0; k < A * len; k++)
        n->occ_first[n->images[k] + 1]++;
    for (int c = 0; c < g->cells; c++)
        n->occ_first[c + 1] += n->occ_first[c];
    {
        uint32_t fill[OXO_MAX_MOVES];
        memcpy(fill, n->occ_first, sizeof(uint32_t) * (size_t)g->cells);
        for (int slot = 0; slot < A; slot++)
            for (int i = 0; i < len; i++) {
                int cell = n->images[slot * len + i];
                n->occ_slot[fill[cell]] = (uint16_t)slot;
                n->occ_dig[fill[cell]++] = (uint32_t)(slot % count * len + i);
            }
    }
    /* Each cell's move list: its own slots, and with gravity the slots of the cell above, merged
     * by slot. The mover's cell goes from playable (3) or empty (0) to its own (1), the cell above
     * from empty to playable. */
    n->mv_first = calloc((size_t)g->cells + 1, sizeof *n->mv_first);
    n->mv_slot = malloc((size_t)2 * A * len * sizeof *n->mv_slot);
    n->mv_delta = malloc((size_t)2 * A * len * sizeof *n->mv_delta);
    uint32_t *acc = calloc((size_t)A, sizeof *acc);
    uint8_t *hit = calloc((size_t)A, 1);
    if (!n->mv_first || !n->mv_slot || !n->mv_delta || !acc || !hit) {
        free(acc);
        free(hit);
        goto nomem;
    }
    for (int c = 0, k = 0; c < g->cells; c++) {
        const int above = g->gravity && c >= g->cols ? c - g->cols : -1;
        const int empty = g->gravity ? 3 : 0;
        for (uint32_t e = n->occ_first[c]; e < n->occ_first[c + 1]; e++) {
            const uint32_t *d = n->dig + (size_t)n->occ_dig[e] * 4;
            acc[n->occ_slot[e]] += d[1] - d[empty];
            hit[n->occ_slot[e]] = 1;
        }
        if (above >= 0)
            for (uint32_t e = n->occ_first[above]; e < n->occ_first[above + 1]; e++) {
                const uint32_t *d = n->dig + (size_t)n->occ_dig[e] * 4;
                acc[n->occ_slot[e]] += d[3] - d[0];
                hit[n->occ_slot[e]] = 1;
            }
        for (int slot = 0; slot < A; slot++)
            if (hit[slot]) {
                n->mv_slot[k] = (uint16_t)slot;
                n->mv_delta[k++] = acc[slot];
                acc[slot] = 0;
                hit[slot] = 0;
            }
        n->mv_first[c + 1] = (uint32_t)k;
    }
    free(acc);
    free(hit);
    if (weights) {
        n->w = weights;
    } else {
        n->w = oxo_ntuple_weights_alloc(n->nweights);
        n->own_w = 1;
        if (!n->w)
            goto nomem;
    }
    return n;
nomem:
    oxo_fail(err, OXO_E_ARG, "out of memory for a network of %d tuples of %d cells", count, len);
    oxo_ntuple_free(n);
    return NULL;
}

void oxo_ntuple_free(oxo_ntuple *n)
{
    if (!n)
        return;
    if (n->own_w)
        free(n->w);
    free(n->cells);
    free(n->images);
    free(n->occ_first);
    free(n->occ_slot);
    free(n->occ_dig);
    free(n->off);
    free(n->dig);
    free(n->mv_first);
    free(n->mv_slot);
    free(n->mv_delta);
    free(n);
}

/* How many of tuples 0..t-1 start from a line when a share `lines` of them do, spread evenly. */
static int lines_before(int t, double lines)
{
    return (int)ceil(t * lines - 1e-9);
}

int oxo_ntuple_random_walks(const oxo_game *g, int count, int len, double lines, uint64_t seed,
                            uint8_t *cells)
{
    const int R = g->rows, C = g->cols, K = g->k;
    if (len > g->cells)
        return -1;
    /* The directions in which a whole line of K cells fits on the board (all four on square
     * boards and 7x6; not down on a board of fewer than K rows). */
    /* and the rows and columns a line can start in */
    int fit[4], fit_rows[4], fit_cols[4], nfit = 0;
    if (lines > 0 && len >= K)
        for (int d = 0; d < 4; d++) {
            const int rows = R - oxo_line_dirs[d][0] * (K - 1),
                      cols = C - abs(oxo_line_dirs[d][1]) * (K - 1);
            if (rows > 0 && cols > 0)
                fit[nfit] = d, fit_rows[nfit] = rows, fit_cols[nfit++] = cols;
        }
    uint64_t rng = oxo_rng_stream(seed, 0x7475706c65ull);
    for (int t = 0; t < count; t++) {
        uint8_t *tu = cells + (size_t)t * len;
        const int before = lines_before(t, lines),
                  from_line = nfit && lines_before(t + 1, lines) > before;
        /* A walk that runs into a corner of cells it has visited starts again: on boards of 16
         * cells or more with 8-cell tuples that is rare, and it keeps every tuple connected. */
        for (int tries = 0;; tries++) {
            int have = 0, cur;
            if (from_line) {
                /* The walk starts with a whole line of K cells, the directions in turn, placed
                 * at random where it fits, and goes on from the line's last cell. */
                const int f = before % nfit, d = fit[f], dr = oxo_line_dirs[d][0],
                          dc = oxo_line_dirs[d][1];
                const int cols = fit_cols[f];
                const int at = (int)oxo_rng_below(&rng, (uint32_t)(fit_rows[f] * cols));
                const int r = at / cols, c = at % cols + (dc < 0 ? K - 1 : 0);
                for (int j = 0; j < K; j++)
                    tu[have++] = (uint8_t)((r + dr * j) * C + c + dc * j);
                cur = tu[have - 1];
            } else {
                cur = (int)oxo_rng_below(&rng, (uint32_t)g->cells);
                tu[have++] = (uint8_t)cur;
            }
            for (int steps = 0; have < len && steps < 64 * len; steps++) {
                int dr = (int)oxo_rng_below(&rng, 3) - 1, dc = (int)oxo_rng_below(&rng, 3) - 1;
                int r = cur / C + dr, c = cur % C + dc;
                if ((dr == 0 && dc == 0) || r < 0 || r >= R || c < 0 || c >= C)
                    continue;
                cur = r * C + c;
                int seen = 0;
                for (int j = 0; j < have; j++)
                    seen |= tu[j] == cur;
                if (!seen)
                    tu[have++] = (uint8_t)cur;
            }
            if (have == len)
                break;
            if (tries > 1000)
                return -1;
        }
    }
    return 0;
}

/* The network's arrays as the freestanding code reads them (lookup/freestanding/net.c, which
 * owns the index, the sum and tanh for liboxo and for the exported player alike). */
_Static_assert(oxp_SLOTS == OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM,
               "net.c's index arrays hold every slot");

static inline oxp_net view(const oxo_ntuple *n)
{
    return (oxp_net){n->g->cells, n->g->cols,  n->g->gravity, n->count, n->count * n->nsym,
                     n->sets,     n->per_set,  n->off,        n->dig,   n->occ_first,
                     n->occ_dig,  n->occ_slot, n->w};
}

float oxo_ntuple_tanh(float x)
{
    return oxp_tanh(x);
}

static inline float sum_at(const float *w, const uint32_t *idx, int k)
{
    return oxp_net_sum(w, idx, k);
}

/* The indexes of a board read from the side of the owner of `mine` (net.c). */
static void indexes(const oxo_ntuple *n, uint64_t mine, uint64_t theirs, int second, uint32_t *idx)
{
    const oxp_net v = view(n);
    oxp_net_indexes(&v, mine, theirs, second, idx);
}

/* The indexes of board p read from X's side (second 0) or O's (second 1). */
static void side_indexes(const oxo_ntuple *n, oxo_pos p, int second, uint32_t *idx)
{
    uint64_t x, o;
    oxo_cells(n->g, p, &x, &o);
    if (second)
        indexes(n, o, x, 1, idx);
    else
        indexes(n, x, o, 0, idx);
}

/* The mover's indexes after a move at cell c, from its indexes before it (from), into out. */
static void after_indexes(const oxo_ntuple *n, const uint32_t *from, int c, uint32_t *out)
{
    memcpy(out, from, (size_t)n->count * n->nsym * sizeof *out);
    for (uint32_t e = n->mv_first[c]; e < n->mv_first[c + 1]; e++)
        out[n->mv_slot[e]] += n->mv_delta[e];
}

void oxo_ntuple_active(const oxo_ntuple *n, oxo_pos after, uint32_t *idx)
{
    /* after.opp just moved: X when an odd number of stones is on the board. */
    side_indexes(n, after, !(oxo_ply(after) & 1), idx);
}

int oxo_ntuple_walk_init(const oxo_ntuple *n, oxo_ntuple_walk *w)
{
    const size_t A = (size_t)n->count * n->nsym;
    /* Lines of their own (128 bytes: a pair of lines, which the hardware may fetch together):
     * the indexes change at every move, and a trainer's workers each hold a walk, written by
     * different threads, which must not share a line with another worker's data. */
    const size_t line = 128, bytes = (2 * A * sizeof *w->idx[0] + line - 1) / line * line;
    w->idx[0] = aligned_alloc(line, bytes);
    w->idx[1] = w->idx[0] ? w->idx[0] + A : NULL;
    return w->idx[0] ? 0 : -1;
}

void oxo_ntuple_walk_free(oxo_ntuple_walk *w)
{
    free(w->idx[0]);
    w->idx[0] = w->idx[1] = NULL;
}

void oxo_ntuple_walk_start(const oxo_ntuple *n, oxo_ntuple_walk *w, oxo_pos p)
{
    side_indexes(n, p, 0, w->idx[0]);
    side_indexes(n, p, 1, w->idx[1]);
}

/* Moves cell c from state `from` to `to` at every place it is read, in idx. */
static inline void shift(const oxo_ntuple *n, uint32_t *idx, int c, int from, int to)
{
    for (uint32_t e = n->occ_first[c]; e < n->occ_first[c + 1]; e++) {
        const uint32_t *d = n->dig + (size_t)n->occ_dig[e] * 4;
        idx[n->occ_slot[e]] += d[to] - d[from]; /* wraps for a lower term: the sum stays right */
    }
}

/* The cells a move changes: the one it fills, and with gravity the one above, now playable. */
static inline int move_cells(const oxo_ntuple *n, oxo_pos p, int m, int *above)
{
    const oxo_game *g = n->g;
    int c = oxo_cell_of_move(g, p, m);
    *above = g->gravity && c >= g->cols ? c - g->cols : -1;
    return c;
}

void oxo_ntuple_walk_indexes(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                             uint32_t *out)
{
    after_indexes(n, w->idx[oxo_ply(p) & 1], oxo_cell_of_move(n->g, p, m), out);
}

float oxo_ntuple_walk_after(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                            uint32_t *out)
{
    oxo_ntuple_walk_indexes(n, w, p, m, out);
    return sum_at(n->w, out, n->count * n->nsym);
}

float oxo_ntuple_walk_base(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p)
{
    return sum_at(n->w, w->idx[oxo_ply(p) & 1], n->count * n->nsym);
}

/* The change a move at cell c makes to the sum of the weights of indexes idx (read from the
 * mover's side): the few slots the move changes, not the whole sum. */
static inline float move_delta(const oxo_ntuple *n, const uint32_t *idx, int c)
{
    const uint32_t *delta = n->mv_delta;
    const uint16_t *slot = n->mv_slot;
    const float *wt = n->w;
    /* Two partial sums, for the same reason as sum_at's four (these lists are shorter). */
    float d0 = 0, d1 = 0;
    uint32_t e = n->mv_first[c], end = n->mv_first[c + 1];
    for (; e + 2 <= end; e += 2) {
        uint32_t i0 = idx[slot[e]], i1 = idx[slot[e + 1]];
        d0 += wt[i0 + delta[e]] - wt[i0];
        d1 += wt[i1 + delta[e + 1]] - wt[i1];
    }
    if (e < end) {
        uint32_t i0 = idx[slot[e]];
        d0 += wt[i0 + delta[e]] - wt[i0];
    }
    return d0 + d1;
}

float oxo_ntuple_walk_after_sum(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p, int m,
                                float base)
{
    return base + move_delta(n, w->idx[oxo_ply(p) & 1], oxo_cell_of_move(n->g, p, m));
}

void oxo_ntuple_walk_play(const oxo_ntuple *n, oxo_ntuple_walk *w, oxo_pos p, int m)
{
    const int side = oxo_ply(p) & 1, empty = n->g->gravity ? 3 : 0;
    int above, c = move_cells(n, p, m, &above);
    shift(n, w->idx[side], c, empty, 1);
    shift(n, w->idx[!side], c, empty, 2);
    if (above >= 0) {
        shift(n, w->idx[0], above, 0, 3);
        shift(n, w->idx[1], above, 0, 3);
    }
}

float oxo_ntuple_sum(const oxo_ntuple *n, const uint32_t *idx)
{
    return sum_at(n->w, idx, n->count * n->nsym);
}

float oxo_ntuple_value(const oxo_ntuple *n, oxo_pos after)
{
    uint32_t idx[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    oxo_ntuple_active(n, after, idx);
    return oxo_ntuple_tanh(oxo_ntuple_sum(n, idx));
}

/* The network's value of move m of p (a move that does not end the game), from p's indexes read
 * from the mover's side (base): the few slots the move changes (as a walk does), then summed in
 * full as oxo_ntuple_value sums, so the same value bit for bit. (The defence ranks replies by
 * sums instead, from the changed slots alone, as the trainer does: least_reply.) */
static inline float after_value(const oxo_ntuple *n, const uint32_t *base, oxo_pos p, int m)
{
    uint32_t idx[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    after_indexes(n, base, oxo_cell_of_move(n->g, p, m), idx);
    return oxo_ntuple_tanh(sum_at(n->w, idx, n->count * n->nsym));
}

int oxo_ntuple_moves(const oxo_ntuple *n, oxo_pos p, int *moves, float *values)
{
    /* The position's indexes from the mover's side once (a seventh of the index work of each
     * move's own on 7x6: puct asks at every node it adds). */
    const oxo_game *g = n->g;
    uint32_t base[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    side_indexes(n, p, oxo_ply(p) & 1, base);
    int k = 0;
    for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
        const int m = __builtin_ctzll(legal);
        const oxo_status st = oxo_status_of(g, oxo_play(g, p, m));
        moves[k] = m;
        values[k++] = st == OXO_ONGOING     ? after_value(n, base, p, m)
                      : st == OXO_OVER_LOSS ? 1.0f
                                            : 0.0f;
    }
    return k;
}

/* oxo_ntuple_least_reply, and with a walk at p its walk_ form: the opponent's indexes after each
 * move taken from the walk and the move's two cells instead of worked out from every cell (the
 * same integers, so the same sums and the same move).
 *
 * The replies are weighed by their sums, not their values: tanh is increasing, so the move whose
 * best reply has the least sum has the least value too, and where tanh saturates (a lost position,
 * the defence's only use, often has every reply near 1) the sums still tell the replies apart.
 * A reply's sum is the sum after the move plus the few slots the reply changes, as the trainer
 * values its own moves (oxo_ntuple_walk_after_sum), not a fresh sum of every slot: a defending
 * run 1.45x faster.
 *
 * Each move's best reply is only worked out as far as it decides (a two-ply alpha-beta, exact):
 * once a reply's sum is as high as the least best one found so far, the move cannot be taken
 * (ties go to the lower move, met first), so the rest of its replies need no sums. A reply that
 * wins at once ranks above every sum, so the replies that end the game are looked at first, with
 * no sums (a draw ranks as a sum of 0, whose tanh is a draw's value); then the reply that was
 * best against the previous move (the same threat usually answers every move of a lost
 * position), then the others. The order changes which replies are summed, never the maximum of
 * those that decide, so the move is the one every reply summed would give, bit for bit. */
static int least_reply(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p)
{
    const oxo_game *g = n->g;
    const int opp = !(oxo_ply(p) & 1), empty = g->gravity ? 3 : 0;
    const int A = n->count * n->nsym;
    uint32_t base[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    int best = -1, killer = -1;
    float least = INFINITY;
    for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
        const int m = __builtin_ctzll(legal);
        const oxo_pos q = oxo_play(g, p, m);
        if (oxo_status_of(g, q) != OXO_ONGOING)
            continue;
        float top = -INFINITY;
        uint64_t open = 0;
        for (uint64_t r = oxo_legal(g, q); r; r &= r - 1) {
            const int x = __builtin_ctzll(r);
            const oxo_status st = oxo_status_of(g, oxo_play(g, q, x));
            if (st == OXO_ONGOING)
                open |= 1ull << x;
            else if (st == OXO_OVER_LOSS) {
                top = INFINITY;
                break;
            } else if (top < 0.0f)
                top = 0.0f;
        }
        if (top == INFINITY) { /* lost at once: taken only if every move is */
            if (best < 0)
                best = m;
            continue;
        }
        if (top >= least)
            continue;
        if (w) {
            int above;
            const int c = move_cells(n, p, m, &above);
            memcpy(base, w->idx[opp], (size_t)A * sizeof *base);
            shift(n, base, c, empty, 2); /* the other's stone, from the opponent's side */
            if (above >= 0)
                shift(n, base, above, 0, 3);
        } else
            side_indexes(n, q, opp, base);
        const float sum = sum_at(n->w, base, A);
        int arg = -1, first = killer >= 0 && (open >> killer & 1) ? killer : -1;
        if (first >= 0)
            open &= ~(1ull << first);
        for (int x = first; x >= 0 || open; x = -1) {
            if (x < 0) {
                x = __builtin_ctzll(open);
                open &= open - 1;
            }
            const float v = sum + move_delta(n, base, oxo_cell_of_move(g, q, x));
            if (v > top) {
                top = v;
                arg = x;
                if (top >= least)
                    break;
            }
        }
        if (top < least) {
            least = top;
            best = m;
            killer = arg;
        }
    }
    return best;
}

int oxo_ntuple_least_reply(const oxo_ntuple *n, oxo_pos p)
{
    return least_reply(n, NULL, p);
}

int oxo_ntuple_walk_least_reply(const oxo_ntuple *n, const oxo_ntuple_walk *w, oxo_pos p)
{
    return least_reply(n, w, p);
}
