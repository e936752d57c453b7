/*
 * A reference Connect-4 solver, written apart from lookup/c4solve.c and sharing nothing with it
 * (not the game interface, not the bitboard code): the published method of Pons' tutorial, step by
 * step and nothing more. Negamax with alpha-beta over a column bitboard, the side to move's stones
 * and the mask; moves that hand the opponent a win dropped before searching; moves ranked by the
 * winning cells they make, the centre first among equals; one transposition table of 2^23 slots
 * that always replaces, holding an upper bound (a node that failed low) or a lower bound (a cut);
 * null windows that bisect the score range, tried near 0 first.
 *
 * It has two uses. `make bench` runs it on the same random positions as the oxo solver, so that
 * the node counts of the published method and of ours are compared on one set (the published
 * files are not at hand, and sets drawn the same way differ in hardness), and checks that the two
 * agree on every score; test_c4solve checks it on 200 random 7x6 positions, an independent check
 * where no table exists.
 */
#include "c4ref.h"

#include <stdlib.h>

#define TT_SLOTS 8388593u /* a prime near 2^23, as the method suggests, so keys spread evenly */

struct c4ref {
    int w, h, cells;
    uint64_t bottom, board, *key;
    int8_t *val; /* 0: empty; u + 64: an upper bound u; -(l + 64): a lower bound l */
    uint64_t nodes;
};

/* Key k in slot i (k % TT_SLOTS, which the search computes once a node for the probe and the
 * store). */
static inline void tt_put(c4ref *r, uint32_t i, uint64_t k, int value, int lower)
{
    r->key[i] = k;
    r->val[i] = (int8_t)(lower ? -(value + 64) : value + 64);
}

/* 1 and the bound of key k in slot i (which kind in *lower), or 0 when the slot holds another
 * key. */
static inline int tt_get(const c4ref *r, uint32_t i, uint64_t k, int *value, int *lower)
{
    if (r->key[i] != k || !r->val[i])
        return 0;
    *lower = r->val[i] < 0;
    *value = *lower ? -r->val[i] - 64 : r->val[i] - 64;
    return 1;
}

static uint64_t column_cells(const c4ref *r, int c)
{
    return (((uint64_t)1 << r->h) - 1) << (c * (r->h + 1));
}

/* Empty cells where one more stone of pos would make four in a row. */
static uint64_t winning(const c4ref *r, uint64_t pos, uint64_t mask)
{
    uint64_t w = (pos << 1) & (pos << 2) & (pos << 3); /* vertical: only the cell above three */
    const int steps[3] = {r->h + 1, r->h, r->h + 2};   /* horizontal and the two diagonals */
    for (int i = 0; i < 3; i++) {
        int s = steps[i];
        uint64_t two = (pos << s) & (pos << 2 * s);
        w |= two & (pos << 3 * s);
        w |= two & (pos >> s);
        two = (pos >> s) & (pos >> 2 * s);
        w |= two & (pos >> 3 * s);
        w |= two & (pos << s);
    }
    return w & (r->board ^ mask);
}

static uint64_t possible(const c4ref *r, uint64_t mask)
{
    return (mask + r->bottom) & r->board;
}

static uint64_t non_losing(const c4ref *r, uint64_t cur, uint64_t mask)
{
    uint64_t moves = possible(r, mask), threat = winning(r, cur ^ mask, mask);
    uint64_t forced = moves & threat;
    if (forced) {
        if (forced & (forced - 1))
            return 0; /* two threats to block: lost */
        moves = forced;
    }
    return moves & ~(threat >> 1);
}

static int negamax(c4ref *r, uint64_t cur, uint64_t mask, int n, int alpha, int beta)
{
    r->nodes++;
    uint64_t next = non_losing(r, cur, mask);
    if (!next)
        return -(r->cells - n) / 2;
    if (n >= r->cells - 2)
        return 0;
    int lo = -(r->cells - 2 - n) / 2;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    int hi = (r->cells - 1 - n) / 2;
    const uint64_t k = cur + mask;
    const uint32_t slot = (uint32_t)(k % TT_SLOTS);
    int v, lower;
    if (tt_get(r, slot, k, &v, &lower)) {
        if (lower) {
            if (alpha < v) {
                alpha = v;
                if (alpha >= beta)
                    return alpha;
            }
        } else if (hi > v)
            hi = v;
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta)
            return beta;
    }
    /* Centre-first columns, then a stable sort by winning cells made, most first. */
    uint64_t move[16];
    int score[16], m = 0;
    for (int j = 0; j < r->w; j++) {
        int c = r->w / 2 + (1 - 2 * (j % 2)) * (j + 1) / 2;
        uint64_t mv = next & column_cells(r, c);
        if (!mv)
            continue;
        int s = __builtin_popcountll(winning(r, cur | mv, mask));
        int at = m++;
        while (at > 0 && score[at - 1] < s) {
            move[at] = move[at - 1];
            score[at] = score[at - 1];
            at--;
        }
        move[at] = mv;
        score[at] = s;
    }
    for (int i = 0; i < m; i++) {
        v = -negamax(r, cur ^ mask, mask | move[i], n + 1, -beta, -alpha);
        if (v >= beta) {
            tt_put(r, slot, k, v, 1);
            return v;
        }
        if (v > alpha)
            alpha = v;
    }
    tt_put(r, slot, k, alpha, 0);
    return alpha;
}

c4ref *c4ref_new(int w, int h)
{
    if (w < 1 || h < 1 || w * (h + 1) > 64 || w > 16)
        return NULL;
    c4ref *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->w = w, r->h = h, r->cells = w * h;
    for (int c = 0; c < w; c++) {
        r->bottom |= (uint64_t)1 << (c * (h + 1));
        r->board |= column_cells(r, c);
    }
    r->key = calloc(TT_SLOTS, sizeof *r->key);
    r->val = calloc(TT_SLOTS, sizeof *r->val);
    if (!r->key || !r->val) {
        c4ref_free(r);
        return NULL;
    }
    return r;
}

void c4ref_free(c4ref *r)
{
    if (r) {
        free(r->key);
        free(r->val);
        free(r);
    }
}

void c4ref_clear(c4ref *r)
{
    for (uint32_t i = 0; i < TT_SLOTS; i++)
        r->val[i] = 0;
}

uint64_t c4ref_nodes(const c4ref *r)
{
    return r->nodes;
}

int c4ref_solve(c4ref *r, const int *cols, int n, int *score)
{
    uint64_t cur = 0, mask = 0;
    for (int i = 0; i < n; i++) {
        if (cols[i] < 0 || cols[i] >= r->w)
            return -1;
        uint64_t mv = (mask + r->bottom) & column_cells(r, cols[i]);
        if (!mv || (winning(r, cur, mask) & mv))
            return -1; /* a full column, or a game already won by this move */
        cur ^= mask;
        mask |= mv;
    }
    if (winning(r, cur, mask) & possible(r, mask)) {
        *score = (r->cells + 1 - n) / 2;
        return 0;
    }
    if (n >= r->cells) {
        *score = 0;
        return 0;
    }
    int lo = -(r->cells - n) / 2, hi = (r->cells + 1 - n) / 2;
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        int v = negamax(r, cur, mask, n, med, med + 1);
        if (v <= med)
            hi = v;
        else
            lo = v;
    }
    *score = lo;
    return 0;
}
