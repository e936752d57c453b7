/*
 * The Connect-4 solver (see c4solve.h). The position is the side to move's stones and the mask of
 * all stones, in the column bitboard of connect4.c (bit c * (H + 1) + r, row 0 at the bottom, a
 * sentinel row above each column), so a move is one bit and "mask + bottom" finds every column's
 * landing cell at once.
 */
#include "c4solve.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { UPPER = 1, LOWER = 2 };
/* Enhanced transposition cut-offs only where more than this many moves are left: there a cut-off
 * saves a large subtree, while near the end the probes cost more than the nodes they save (on 30
 * random 7x6 leaves of 8 stones: 17% fewer nodes and 6-8% less time at 14, more time at 8 and at
 * 22 or more). */
enum { ETC_MIN = 14 };

/* 8 bytes: twice the entries of a full key in the same memory (44% fewer nodes on hard 7x6
 * positions). The key is first multiplied by an odd constant, a bijection of 64-bit words; the
 * slot is the top k bits of the product (k >= 17) and the entry keeps its low 48 bits, so slot and
 * entry together hold the whole product, hence the key: no two positions are ever confused. An
 * entry is one 64-bit word, bits 0-47 the key, 48-55 the value, 56-57 the flag (0: empty), 58-63
 * the stones of the position, read and written whole with relaxed atomics: threads that share the
 * table (lazy SMP) can never see a key with another position's value, so no lock is needed.
 * Entries go in buckets of two (tt_store): one keeps the position with the fewest stones, whose
 * subtree is the costliest to search again, the other the latest; on the weak solve of 44444 that
 * halved the nodes (363 M -> 197 M) against one entry a slot always replaced. The bucket takes
 * the slot's top bits but one, so the table has at least 2^17 entries. */
typedef uint64_t entry;
#define KEY_MASK 0xffffffffffffull
/* Positions with fewer empty cells than near_left (18, or the board's cells - 12 on small boards)
 * go to a small table of each thread's own, 2^NEAR_BITS entries (2 MB), that stays in the caches:
 * they are most of the nodes and the cheapest to search again, and in the big table their probes
 * missed the caches and their entries pushed out the costly ones. Side by side on one build (2
 * threads, 300 7x6 leaves of 8 stones in the book's order): 20.0 s instead of 34.2 s for 6% more
 * nodes; middle-medium positions 1.75x faster for 5% more nodes. */
#define NEAR_BITS 18

struct oxo_c4solver {
    int W, H, h1, cells;
    uint64_t bottom, board;
    uint64_t column[OXO_MAX_MOVES];
    int order[OXO_MAX_MOVES];
    entry *tt;
    int tt_bits;   /* 2^tt_bits entries, at least 2^16 */
    entry *near;   /* this thread's own small table for the positions near the end (NEAR_BITS) */
    int near_left; /* positions with fewer empty cells than this go to near */
    int own_tt;    /* 0 for a helper, which searches in the table of another solver */
    int variant;   /* helpers: how their move order and windows differ from the main search */
    uint64_t nodes;
    double deadline;          /* CLOCK_MONOTONIC seconds; 0: none */
    uint64_t node_limit;      /* stop when nodes reaches it; 0: none */
    const volatile int *stop; /* set by another thread: unwind as at a deadline */
    int aborted;
    int last_lo, last_hi; /* the score's bounds when the last solve ended (equal once solved) */
};

static inline uint64_t shl(uint64_t x, int n)
{
    return n >= 64 ? 0 : x << n;
}
static inline uint64_t shr(uint64_t x, int n)
{
    return n >= 64 ? 0 : x >> n;
}

#define ALWAYS_INLINE inline __attribute__((always_inline))
/* The empty-or-not cells that complete four for pos along the direction of d bits (the cell is one
 * end of three in a row, or between two and one). */
static ALWAYS_INLINE uint64_t line_cells(uint64_t pos, const int d)
{
    uint64_t p = shl(pos, d) & shl(pos, 2 * d);
    uint64_t r = (p & shl(pos, 3 * d)) | (p & shr(pos, d));
    p = shr(pos, d) & shr(pos, 2 * d);
    return r | (p & shl(pos, d)) | (p & shr(pos, 3 * d));
}

/* The empty cells that would complete four in a row for the stones `pos`, on columns of h1 bits
 * (always inlined: the searches below pass h1 as a constant where they can, and the shifts then
 * take immediate counts and the guards against shifts of 64 or more fold away). */
static ALWAYS_INLINE uint64_t winning_cells_h(const oxo_c4solver *s, uint64_t pos, uint64_t mask,
                                              const int h1)
{
    /* down (three below), across, one diagonal, the other */
    uint64_t r = shl(pos, 1) & shl(pos, 2) & shl(pos, 3);
    r |= line_cells(pos, h1) | line_cells(pos, h1 - 1) | line_cells(pos, h1 + 1);
    return r & (s->board ^ mask);
}

static uint64_t winning_cells(const oxo_c4solver *s, uint64_t pos, uint64_t mask)
{
    return winning_cells_h(s, pos, mask, s->h1);
}

static inline uint64_t playable(const oxo_c4solver *s, uint64_t mask)
{
    return (mask + s->bottom) & s->board;
}

/* Playable cells that do not let the opponent win at once: 0 when every move loses. A single
 * threat of the opponent must be blocked; two cannot be. */
static ALWAYS_INLINE uint64_t non_losing(const oxo_c4solver *s, uint64_t cur, uint64_t mask,
                                         const int h1)
{
    uint64_t moves = playable(s, mask), threats = winning_cells_h(s, cur ^ mask, mask, h1);
    uint64_t forced = moves & threats;
    if (forced) {
        if (forced & (forced - 1))
            return 0;
        moves = forced;
    }
    return moves & ~(threats >> 1); /* never play just below an opponent's winning cell */
}

/* A bucket holds two entries: the first keeps the position nearest the root seen there (the
 * fewest stones: the biggest subtree to search again), the second whatever came last. */
static inline void tt_store(entry *b, uint64_t word, int moves)
{
    const uint64_t g0 = __atomic_load_n(b, __ATOMIC_RELAXED);
    const int keep0 =
        ((g0 >> 56) & 3) && (g0 & KEY_MASK) != (word & KEY_MASK) && (int)(g0 >> 58) < moves;
    __atomic_store_n(b + keep0, word | (uint64_t)moves << 58, __ATOMIC_RELAXED);
}

/* The bucket of the position (cur: the side to move's stones; moves: the stones of mask, which the
 * caller has counted) and its key in h. */
static inline entry *tt_bucket(const oxo_c4solver *s, uint64_t cur, uint64_t mask, int moves,
                               uint64_t *h)
{
    *h = (cur + mask) * 0x9E3779B97F4A7C15ull;
    if (s->cells - moves < s->near_left)
        return &s->near[(*h >> (64 - NEAR_BITS)) & ~(uint64_t)1];
    return &s->tt[(*h >> (64 - s->tt_bits)) & ~(uint64_t)1];
}

/* The entry of key in bucket b, or 0 (an empty entry: flag 0) when neither holds it. */
static inline uint64_t tt_find(const entry *b, uint64_t key)
{
    const uint64_t g0 = __atomic_load_n(b, __ATOMIC_RELAXED);
    if ((g0 & KEY_MASK) == key)
        return g0;
    const uint64_t g1 = __atomic_load_n(b + 1, __ATOMIC_RELAXED);
    return (g1 & KEY_MASK) == key ? g1 : 0;
}

typedef int negamax_fn(oxo_c4solver *s, uint64_t cur, uint64_t mask, int alpha, int beta);

/* The search, written once for any column height (h1 bits a column) and instantiated below for
 * the standard 6 rows (negamax_h7) and for the rest (negamax_any, h1 read from the solver). With
 * h1 a constant, the shifts of winning_cells take immediate counts and lose their guards: 22%
 * fewer instructions, 8-13% less time on middle-medium 7x6 positions, 2-9% on 8-stone leaves. */
static ALWAYS_INLINE int negamax_h(oxo_c4solver *s, uint64_t cur, uint64_t mask, int alpha,
                                   int beta, const int h1, negamax_fn *self)
{
    s->nodes++;
    /* Past the deadline every search unwinds at once, storing nothing: a bound from a cut-short
     * subtree would be wrong. */
    if ((s->nodes & 1023) == 0 && ((s->deadline > 0 && oxo_seconds() > s->deadline) ||
                                   (s->node_limit && s->nodes >= s->node_limit) ||
                                   (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED))))
        s->aborted = 1;
    if (s->aborted)
        return 0;
    const int moves = __builtin_popcountll(mask);
    uint64_t next = non_losing(s, cur, mask, h1);
    if (!next)
        return -(s->cells - moves) / 2;
    if (moves >= s->cells - 2)
        return 0; /* no one can win in the last two moves without a threat now */
    int lo = -(s->cells - 2 - moves) / 2, hi = (s->cells - 1 - moves) / 2;
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    uint64_t h;
    entry *e = tt_bucket(s, cur, mask, moves, &h);
    const uint64_t key = h & KEY_MASK, got = tt_find(e, key);
    const int gflag = (int)(got >> 56) & 3, gvalue = (int8_t)(uint8_t)(got >> 48);
    if (gflag) {
        if (gflag == UPPER && gvalue < hi)
            hi = gvalue;
        if (gflag == LOWER && gvalue > lo) {
            lo = gvalue;
            if (alpha < lo) {
                alpha = lo;
                if (alpha >= beta)
                    return alpha;
            }
        }
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta)
            return beta;
    }
    /* Moves by the number of winning cells they make, the centre first among equals. */
    uint64_t cand[OXO_MAX_MOVES];
    int rank[OXO_MAX_MOVES], n = 0;
    for (int i = 0; i < s->W; i++) {
        uint64_t m = next & s->column[s->order[i]];
        if (!m)
            continue;
        /* The child's bucket is fetched now, while the moves are ranked: the table is far larger
         * than the caches, and its probe would otherwise wait out a miss at every node. */
        uint64_t ch;
        __builtin_prefetch(tt_bucket(s, cur ^ mask, mask | m, moves + 1, &ch));
        int score = __builtin_popcountll(winning_cells_h(s, cur | m, mask | m, h1));
        /* A helper breaks ties between equal moves the other way on some plies, so that it does
         * not walk the main search's tree in step and brings it results it has not reached. */
        score = 2 * score + (s->variant && ((moves + s->variant) & 1) ? 1 : 0) * (i & 1);
        int j = n++;
        for (; j > 0 && rank[j - 1] < score; j--) {
            cand[j] = cand[j - 1];
            rank[j] = rank[j - 1];
        }
        cand[j] = m;
        rank[j] = score;
    }
    /* Enhanced transposition cut-off: a child whose entry already bounds it low enough refutes
     * this node without a search (its bucket was fetched while the moves were ranked); a child's
     * upper bound u makes this node worth at least -u. */
    for (int i = 0; i < n && s->cells - moves > ETC_MIN; i++) {
        uint64_t ch;
        const entry *ce = tt_bucket(s, cur ^ mask, mask | cand[i], moves + 1, &ch);
        const uint64_t cg = tt_find(ce, ch & KEY_MASK);
        if (((cg >> 56) & 3) == UPPER) {
            const int v = -(int)(int8_t)(uint8_t)(cg >> 48);
            if (v >= beta) {
                tt_store(e, key | (uint64_t)(uint8_t)(int8_t)v << 48 | (uint64_t)LOWER << 56,
                         moves);
                return v;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        uint64_t m = cand[i];
        int score = -self(s, cur ^ mask, mask | m, -beta, -alpha);
        if (s->aborted)
            return 0;
        if (score >= beta) {
            tt_store(e, key | (uint64_t)(uint8_t)(int8_t)score << 48 | (uint64_t)LOWER << 56,
                     moves);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    tt_store(e, key | (uint64_t)(uint8_t)(int8_t)alpha << 48 | (uint64_t)UPPER << 56, moves);
    return alpha;
}

static int negamax_h7(oxo_c4solver *s, uint64_t cur, uint64_t mask, int alpha, int beta)
{
    return negamax_h(s, cur, mask, alpha, beta, 7, negamax_h7);
}

static int negamax_any(oxo_c4solver *s, uint64_t cur, uint64_t mask, int alpha, int beta)
{
    return negamax_h(s, cur, mask, alpha, beta, s->h1, negamax_any);
}

static int negamax(oxo_c4solver *s, uint64_t cur, uint64_t mask, int alpha, int beta)
{
    return s->h1 == 7 ? negamax_h7(s, cur, mask, alpha, beta)
                      : negamax_any(s, cur, mask, alpha, beta);
}

int oxo_c4solve(oxo_c4solver *s, oxo_pos p, int weak)
{
    uint64_t cur = p.me, mask = p.me | p.opp;
    const int moves = __builtin_popcountll(mask);
    if (winning_cells(s, cur, mask) & playable(s, mask))
        return weak ? 1 : (s->cells + 1 - moves) / 2;
    if (moves >= s->cells)
        return 0;
    int lo = -(s->cells - moves) / 2, hi = (s->cells + 1 - moves) / 2;
    if (weak)
        lo = -1, hi = 1;
    /* Null windows that bisect the range, tried first near 0, where most positions lie. */
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        /* Helpers probe other windows: their bounds serve the main search when it gets there. */
        if (s->variant && hi - lo > 2)
            med = s->variant & 1 ? med + 1 : med - 1;
        med = med < lo ? lo : med >= hi ? hi - 1 : med; /* a window inside the range: progress */
        s->last_lo = lo, s->last_hi = hi;
        int r = negamax(s, cur, mask, med, med + 1);
        if (s->aborted)
            return 0;
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    s->last_lo = s->last_hi = lo;
    /* A weak search's bounds may land past -1..1 (the window is only a null window around 0). */
    return weak ? (lo > 0) - (lo < 0) : lo;
}

int oxo_c4solve_at_least(oxo_c4solver *s, oxo_pos p, int v)
{
    uint64_t cur = p.me, mask = p.me | p.opp;
    const int moves = __builtin_popcountll(mask);
    if (winning_cells(s, cur, mask) & playable(s, mask))
        return (s->cells + 1 - moves) / 2 >= v;
    if (moves >= s->cells)
        return 0 >= v;
    const int lo = -(s->cells - moves) / 2, hi = (s->cells + 1 - moves) / 2;
    s->last_lo = lo, s->last_hi = hi;
    if (v <= lo || v > hi)
        return v <= lo;
    const int r = negamax(s, cur, mask, v - 1, v);
    if (s->aborted)
        return -1;
    if (r >= v)
        s->last_lo = v;
    else
        s->last_hi = v - 1;
    return r >= v;
}

oxo_c4solver *oxo_c4solver_new(const oxo_game *g, unsigned tt_mb)
{
    if (!g->solver)
        return NULL;
    oxo_c4solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->W = g->width, s->H = g->height, s->h1 = g->height + 1, s->cells = g->cells;
    for (int c = 0; c < s->W; c++) {
        s->bottom |= 1ull << (c * s->h1);
        s->column[c] = ((1ull << s->H) - 1) << (c * s->h1);
        s->board |= s->column[c];
    }
    memcpy(s->order, g->order, sizeof s->order);
    s->tt_bits = 17; /* the fewest that keep keys whole (see entry: a bucket of two drops a bit) */
    while (((uint64_t)sizeof(entry) << (s->tt_bits + 1)) <= (uint64_t)(tt_mb ? tt_mb : 1) << 20)
        s->tt_bits++;
    /* On huge pages where the system offers them: the table is probed at random, and with 4 KB
     * pages nearly every probe also misses the TLB. Written out at once, so that no solve pays
     * for the first touch of its pages. */
    size_t bytes = ((size_t)1 << s->tt_bits) * sizeof *s->tt, align = (size_t)2 << 20;
    s->tt = aligned_alloc(align, (bytes + align - 1) / align * align);
#if defined(MADV_HUGEPAGE) && !defined(__wasi__) /* wasi-libc names it, has no madvise */
    if (s->tt)
        madvise(s->tt, (bytes + align - 1) / align * align, MADV_HUGEPAGE);
#endif
    if (s->tt)
        memset(s->tt, 0, bytes);
    if (!s->tt) {
        free(s);
        return NULL;
    }
    s->own_tt = 1;
    s->near_left = s->cells - 12 < 18 ? s->cells - 12 : 18;
    s->near = calloc((size_t)1 << NEAR_BITS, sizeof *s->near);
    if (!s->near) {
        free(s->tt);
        free(s);
        return NULL;
    }
    return s;
}

oxo_c4solver *oxo_c4solver_helper(const oxo_c4solver *s, int variant)
{
    oxo_c4solver *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    *h = *s;
    h->own_tt = 0;
    h->near = calloc((size_t)1 << NEAR_BITS, sizeof *h->near);
    if (!h->near) {
        free(h);
        return NULL;
    }
    h->variant = variant;
    h->nodes = 0;
    h->aborted = 0;
    h->stop = NULL;
    return h;
}

void oxo_c4solver_stop_flag(oxo_c4solver *s, const volatile int *flag)
{
    s->stop = flag;
    s->aborted = 0;
}

void oxo_c4solver_free(oxo_c4solver *s)
{
    if (s && s->own_tt)
        free(s->tt);
    if (s)
        free(s->near);
    free(s);
}

void oxo_c4solver_deadline(oxo_c4solver *s, double seconds)
{
    s->deadline = seconds > 0 ? oxo_seconds() + seconds : 0;
    s->aborted = 0;
}

void oxo_c4solver_node_budget(oxo_c4solver *s, uint64_t nodes)
{
    s->node_limit = nodes ? s->nodes + nodes : 0;
    s->aborted = 0;
}

int oxo_c4solver_aborted(const oxo_c4solver *s)
{
    return s->aborted;
}

void oxo_c4solver_range(const oxo_c4solver *s, int *lo, int *hi)
{
    *lo = s->last_lo;
    *hi = s->last_hi;
}

uint64_t oxo_c4solver_nodes(const oxo_c4solver *s)
{
    return s->nodes;
}
