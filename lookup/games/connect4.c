/*
 * Connect-4 behind the game interface: W columns of height H, a stone drops to the lowest free
 * cell of the column played, four in a row (across, down or diagonally) wins. The standard game
 * is connect4:7,6; any W x (H + 1) up to 64 bits works.
 *
 * Bit layout: a column bitboard. Column c holds bits c * (H + 1) .. c * (H + 1) + H - 1, bottom
 * to top, and one sentinel bit above them that no stone ever sets, so that shifts never carry a
 * line from one column into the next. connect4:7,6:
 *
 *      5 12 19 26 33 40 47      (row 6 of each column, bits 6 13 20 ..., is the sentinel)
 *      4 11 18 25 32 39 46
 *      3 10 17 24 31 38 45
 *      2  9 16 23 30 37 44
 *      1  8 15 22 29 36 43
 *      0  7 14 21 28 35 42
 *
 * A move is a column; the stone lands on (mask + bottom of the column) & the column, the one bit
 * above the column's stones. Four in a row is found with two shifts a direction (x = m & m >> s;
 * x & x >> 2s). The code is the first player's stones plus mask + bottom, which sets one bit just
 * above each column's stones: unique, and below 2^(W * (H + 1)). Symmetries: the identity and
 * the mirror. Search order: the centre columns first.
 *
 * Figures: connect4:4,4 has 161,029 positions, connect4:5,4 3,945,711 and connect4:6,4
 * 94,910,577 (all draws but 6,4, a win for the second player); connect4:7,6 has
 * 4,531,985,219,092.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct c4 {
    int h1;          /* H + 1 bits per column */
    uint64_t bottom; /* the lowest bit of every column */
    uint64_t column[OXO_MAX_MOVES];
    /* The ply index (below): ways[c][s], the height vectors of columns c..W-1 adding up to s
     * (UINT64_MAX when too many to count), and the binomial coefficients C(n, k) for n <= 64. */
    uint64_t ways[33][65];
    uint64_t choose[65][65];
    /* What a rank adds up, column by column: heights[(c * (cells + 1) + left) * (H + 1) + h], the
     * height vectors before column c's height h with `left` stones in columns c..W-1; and, up to
     * H = 8, colours[(at * (nx + 1) + ones) * 2^H + xs], the colour rank's terms of a column whose
     * X stones are xs above `at` stones holding `ones` X's (NULL above H = 8: a loop instead). */
    uint64_t *heights, *colours;
} c4;

static const c4 *C(const oxo_game *g)
{
    return (const c4 *)g->data;
}

static int aligned(const oxo_game *g, uint64_t m)
{
    const int h1 = C(g)->h1;
    const int shifts[4] = {1, h1, h1 + 1, h1 - 1};
    for (int i = 0; i < 4; i++) {
        uint64_t x = m & (m >> shifts[i]);
        if (x & (x >> (2 * shifts[i])))
            return 1;
    }
    return 0;
}

static oxo_pos c4_start(const oxo_game *g)
{
    (void)g;
    return (oxo_pos){0, 0};
}

static oxo_status c4_status(const oxo_game *g, oxo_pos p)
{
    if (aligned(g, p.opp))
        return OXO_OVER_LOSS;
    return oxo_popcount(p.me | p.opp) == g->cells ? OXO_OVER_DRAW : OXO_ONGOING;
}

static uint64_t c4_legal(const oxo_game *g, oxo_pos p)
{
    if (c4_status(g, p) != OXO_ONGOING)
        return 0;
    const c4 *d = C(g);
    uint64_t mask = p.me | p.opp, legal = 0;
    for (int c = 0; c < g->width; c++)
        if (!(mask & (1ull << (c * d->h1 + g->height - 1))))
            legal |= 1ull << c;
    return legal;
}

static oxo_pos c4_play(const oxo_game *g, oxo_pos p, int col)
{
    const c4 *d = C(g);
    uint64_t mask = p.me | p.opp;
    uint64_t land = (mask + (1ull << (col * d->h1))) & d->column[col];
    return (oxo_pos){p.opp, p.me | land};
}

/* Column c of m moves to column W - 1 - c; each column is H + 1 bits (its sentinel too, which the
 * code uses). */
/* The top stone of a column, when it is the last mover's, may have been the last one played. */
static uint64_t c4_top(const oxo_game *g, uint64_t mask, int col)
{
    uint64_t m = mask & C(g)->column[col];
    return m ? 1ull << (63 - __builtin_clzll(m)) : 0;
}

static uint64_t c4_unmoves(const oxo_game *g, oxo_pos p)
{
    uint64_t mask = p.me | p.opp, cols = 0;
    for (int c = 0; c < g->width; c++)
        if (c4_top(g, mask, c) & p.opp)
            cols |= 1ull << c;
    return cols;
}

static oxo_pos c4_unplay(const oxo_game *g, oxo_pos p, int col)
{
    return (oxo_pos){p.opp & ~c4_top(g, p.me | p.opp, col), p.me};
}

static uint64_t mirror(const oxo_game *g, uint64_t m)
{
    const c4 *d = C(g);
    const uint64_t col = (d->h1 == 64 ? 0 : 1ull << d->h1) - 1;
    uint64_t r = 0;
    for (int c = 0; c < g->width; c++)
        r |= ((m >> (c * d->h1)) & col) << ((g->width - 1 - c) * d->h1);
    return r;
}

static oxo_pos c4_transform(const oxo_game *g, oxo_pos p, int sym)
{
    return sym ? (oxo_pos){mirror(g, p.me), mirror(g, p.opp)} : p;
}

static int c4_transform_move(const oxo_game *g, int col, int sym)
{
    return sym ? g->width - 1 - col : col;
}

static uint64_t c4_code(const oxo_game *g, oxo_pos p)
{
    uint64_t x = oxo_x_to_move(g, p) ? p.me : p.opp;
    return x + (p.me | p.opp) + C(g)->bottom;
}

/* The code is the first player's stones with one bit set just above each column's stones: the
 * highest set bit of each column gives its height. */
static oxo_pos c4_decode(const oxo_game *g, uint64_t code)
{
    const c4 *d = C(g);
    uint64_t mask = 0;
    for (int c = 0; c < g->width; c++) {
        uint64_t col = (code >> (c * d->h1)) & (((uint64_t)2 << g->height) - 1);
        int h = col ? 63 - __builtin_clzll(col) : 0; /* the sentinel's row: the column's height */
        mask |= ((1ull << h) - 1) << (c * d->h1);
    }
    uint64_t x = code & mask, o = mask & ~x;
    return oxo_popcount(mask) % 2 == 0 ? (oxo_pos){x, o} : (oxo_pos){o, x};
}

static int c4_cell_of_move(const oxo_game *g, oxo_pos p, int col)
{
    int row = oxo_popcount((p.me | p.opp) & C(g)->column[col]);
    return (g->height - 1 - row) * g->width + col;
}

static void c4_cells(const oxo_game *g, oxo_pos p, uint64_t *x, uint64_t *o)
{
    uint64_t xs = oxo_x_to_move(g, p) ? p.me : p.opp, os = oxo_x_to_move(g, p) ? p.opp : p.me;
    *x = *o = 0;
    for (int c = 0; c < g->width; c++)
        for (int r = 0; r < g->height; r++) {
            int bit = c * C(g)->h1 + r, cell = (g->height - 1 - r) * g->width + c;
            *x |= (xs >> bit & 1) << cell;
            *o |= (os >> bit & 1) << cell;
        }
}

/* The code sets bits only inside columns (the stones and one bit above them), so the code of the
 * mirror image is the mirror of the code: one pass over the columns of one word. */
static uint64_t c4_canonical_code(const oxo_game *g, oxo_pos p, int *sym)
{
    uint64_t c = c4_code(g, p), m = mirror(g, c);
    if (sym)
        *sym = m < c;
    return m < c ? m : c;
}

/* The mirror image is p itself exactly when its code is its own mirror (as above): 1 image, else 2.
 */
static int c4_orbit_size(const oxo_game *g, oxo_pos p)
{
    const uint64_t c = c4_code(g, p);
    return mirror(g, c) == c ? 1 : 2;
}

/* Positions of `ply` stones: the column heights adding up to ply (counted column by column), times
 * the ways to colour the stones with X's ceil(ply / 2) of them. An upper bound: it counts boards
 * that play would have ended earlier. */
static uint64_t c4_positions_most(const oxo_game *g, int ply)
{
    uint64_t ways[65] = {1}; /* ways[s]: heights of the columns so far adding up to s */
    for (int c = 0; c < g->width; c++) {
        uint64_t next[65] = {0};
        for (int s = 0; s <= ply; s++)
            for (int h = 0; h <= g->height && s + h <= ply; h++)
                if (__builtin_add_overflow(next[s + h], ways[s], &next[s + h]))
                    next[s + h] = UINT64_MAX;
        memcpy(ways, next, sizeof ways);
    }
    uint64_t r;
    return __builtin_mul_overflow(ways[ply], oxo_choose_sat(ply, (ply + 1) / 2), &r) ? UINT64_MAX
                                                                                     : r;
}

/* The ply index: the positions of ply n numbered densely, 0 .. ply_size - 1, so that a solve can
 * hold a ply as an array however sparse its codes are (2^(W(H+1)) codes against 1.3 billion boards
 * in 6x5's largest ply). A board of n stones is its column heights (h0 .. hW-1, adding up to n) and
 * which of its n stones are X's (ceil(n / 2) of them); its number is
 *     heights rank * C(n, ceil(n / 2)) + colour rank.
 * The heights rank counts the height vectors adding up to n that come before (h0 .. hW-1) in
 * lexicographic order, column 0 first. The stones are read column by column, each bottom to top,
 * and the colour rank is the colex rank of the places s1 < s2 < ... of X's stones in that order:
 * C(s1, 1) + C(s2, 2) + .... Every board with a legal count of stones has a number, also those that
 * play cannot reach (a solve keeps a bitmap of the reachable ones beside it): at most 3.5 times the
 * reachable positions on 6x5 and 15 times on 7x6. FORMAT.md works an example through. */
static uint64_t c4_ply_size(const oxo_game *g, int ply)
{
    const c4 *d = C(g);
    if (ply < 0 || ply > g->cells)
        return 0;
    uint64_t r;
    return __builtin_mul_overflow(d->ways[0][ply], d->choose[ply][(ply + 1) / 2], &r) ? UINT64_MAX
                                                                                      : r;
}

/* With sym, the number of p's canonical image (the smaller code, as c4_canonical_code) and which
 * image that is: the codes compare column against mirrored column from the most significant, and
 * the mirror image is ranked by reading p's columns from the right, without building it. */
static uint64_t c4_ply_rank(const oxo_game *g, oxo_pos p, int *sym)
{
    const c4 *d = C(g);
    const uint64_t mask = p.me | p.opp, x = oxo_x_to_move(g, p) ? p.me : p.opp;
    const int n = oxo_popcount(mask), H = g->height, W = g->width, nx1 = (g->cells + 1) / 2 + 1;
    const uint64_t *hp = d->heights, ones_col = (2ull << H) - 1;
    int flip = 0;
    if (sym) {
        const uint64_t code = x + mask + d->bottom;
        for (int j = 0; j < W / 2; j++) {
            uint64_t a = (code >> ((W - 1 - j) * d->h1)) & ones_col,
                     b = (code >> (j * d->h1)) & ones_col;
            if (a != b) {
                flip = b < a;
                break;
            }
        }
        *sym = flip;
    }
    uint64_t hr = 0, cr = 0;
    int left = n, at = 0, ones = 0;
    for (int c = 0; c < W; c++, hp += (g->cells + 1) * (H + 1)) {
        const int shift = (flip ? W - 1 - c : c) * d->h1;
        const uint64_t col = (mask >> shift) & ((1ull << H) - 1), xs = (x >> shift) & col;
        const int h = oxo_popcount(col);
        hr += hp[left * (H + 1) + h];
        left -= h;
        if (d->colours)
            cr += d->colours[((uint64_t)at * (uint64_t)nx1 + (uint64_t)ones) << H | xs];
        else
            for (uint64_t b = xs, o = (uint64_t)ones; b; b &= b - 1)
                cr += d->choose[at + __builtin_ctzll(b)][++o];
        ones += oxo_popcount(xs);
        at += h;
    }
    return hr * d->choose[n][(n + 1) / 2] + cr;
}

/* The sums a child's number is made of, for one reading of p's columns (o = 1: from the right,
 * the mirror image's): a child differs from p in one column jj (in that reading), so its number is
 * the columns before jj as they are (with one stone more left after them), column jj with its new
 * stone, and the columns after jj one place later (and one X more before them when X played). */
typedef struct c4_sums {
    uint64_t ha[32], hb[32], ca[32], cb[32], hj[32], cj[32];
} c4_sums;

static void child_sums(const oxo_game *g, uint64_t mask, uint64_t x, int o, int bx, c4_sums *u)
{
    const c4 *d = C(g);
    const int W = g->width, H = g->height, cells = g->cells, nx1 = (cells + 1) / 2 + 1;
    const size_t hstride = (size_t)(cells + 1) * (size_t)(H + 1);
    int hs[32], left[32], at[32], ones[32];
    uint64_t xs[32];
    int total = oxo_popcount(mask), a = 0, on = 0;
    for (int c = 0; c < W; c++) {
        const int shift = (o ? W - 1 - c : c) * d->h1;
        const uint64_t col = (mask >> shift) & ((1ull << H) - 1);
        xs[c] = (x >> shift) & col;
        hs[c] = oxo_popcount(col);
        left[c] = total - a;
        at[c] = a;
        ones[c] = on;
        a += hs[c];
        on += oxo_popcount(xs[c]);
    }
#define CT(at_, ones_, xs_)                                                                        \
    d->colours[((uint64_t)(at_) * (uint64_t)nx1 + (uint64_t)(ones_)) << H | (xs_)]
    uint64_t ha = 0, ca = 0;
    for (int c = 0; c < W; c++) {
        const uint64_t *hp = d->heights + (size_t)c * hstride;
        u->ha[c] = ha;
        u->ca[c] = ca;
        ha += hp[(left[c] + 1) * (H + 1) + hs[c]];
        ca += CT(at[c], ones[c], xs[c]);
        if (hs[c] < H) {
            u->hj[c] = hp[(left[c] + 1) * (H + 1) + hs[c] + 1];
            u->cj[c] = CT(at[c], ones[c], xs[c] | (uint64_t)bx << hs[c]);
        }
    }
    uint64_t hb = 0, cb = 0;
    for (int c = W - 1; c >= 0; c--) {
        const uint64_t *hp = d->heights + (size_t)c * hstride;
        u->hb[c] = hb;
        u->cb[c] = cb;
        hb += hp[left[c] * (H + 1) + hs[c]];
        cb += CT(at[c] + 1, ones[c] + bx, xs[c]);
    }
#undef CT
}

/* The numbers of the canonical images of p's children, for each legal move in ascending order:
 * every child ranked from p's column sums in both readings (above), where ranking each child alone
 * reads all its columns again. Without the colour table (H > 8), one child at a time. */
static int c4_ply_children(const oxo_game *g, oxo_pos p, uint64_t legal, uint64_t *nums)
{
    const c4 *d = C(g);
    const int W = g->width, H = g->height;
    int k = 0;
    if (!d->colours) {
        for (; legal; legal &= legal - 1) {
            int sym;
            nums[k++] = c4_ply_rank(g, c4_play(g, p, __builtin_ctzll(legal)), &sym);
        }
        return k;
    }
    const uint64_t mask = p.me | p.opp, x = oxo_x_to_move(g, p) ? p.me : p.opp;
    const int n = oxo_popcount(mask), bx = n % 2 == 0; /* X plays the child's stone */
    const uint64_t per = d->choose[n + 1][(n + 2) / 2], ones_col = (2ull << H) - 1,
                   code = x + mask + d->bottom;
    uint64_t cc[32];
    for (int c = 0; c < W; c++)
        cc[c] = (code >> (c * d->h1)) & ones_col;
    c4_sums u[2];
    int have[2] = {0, 0};
    for (; legal; legal &= legal - 1) {
        const int j = __builtin_ctzll(legal);
        const int h = oxo_popcount(mask & d->column[j]);
        /* The child's column j: its X stones with the new one, and the marker one higher. */
        const uint64_t old = cc[j];
        cc[j] = (old & ((1ull << h) - 1)) + ((uint64_t)bx << h) + (2ull << h);
        int o = 0;
        for (int i = 0; i < W / 2; i++)
            if (cc[W - 1 - i] != cc[i]) {
                o = cc[i] < cc[W - 1 - i];
                break;
            }
        cc[j] = old;
        if (!have[o]) {
            child_sums(g, mask, x, o, bx, &u[o]);
            have[o] = 1;
        }
        const int jj = o ? W - 1 - j : j;
        const c4_sums *v = &u[o];
        nums[k++] = (v->ha[jj] + v->hj[jj] + v->hb[jj]) * per + v->ca[jj] + v->cj[jj] + v->cb[jj];
    }
    return k;
}

/* The next set of as many places in colex order (Gosper's hack). */
static uint64_t next_colours(uint64_t v)
{
    uint64_t t = v | (v - 1);
    return (t + 1) | (((~t & (t + 1)) - 1) >> (__builtin_ctzll(v) + 1));
}

/* The hint holds the last board's heights rank (a), colour rank (b), places of X's stones (c) and
 * stones (d): a walk upwards through a ply mostly stays in one height vector, where the next
 * board's colours are a few steps of Gosper's hack away. */
static oxo_pos c4_ply_unrank(const oxo_game *g, int ply, uint64_t i, oxo_ply_hint *hint)
{
    const c4 *d = C(g);
    const int nx = (ply + 1) / 2;
    const uint64_t per = d->choose[ply][nx];
    uint64_t hr, cr, colours = 0, mask = 0;
    if (hint && hint->ply == ply && i >= hint->num && i - hint->num <= 64 &&
        hint->b + (i - hint->num) < per) {
        hr = hint->a;
        cr = hint->b + (i - hint->num);
        colours = hint->c;
        for (uint64_t k = hint->num; k < i; k++)
            colours = next_colours(colours);
        mask = hint->d;
    } else {
        hr = i / per;
        cr = i % per;
        uint64_t h_left = hr;
        int left = ply;
        for (int c = 0; c < g->width; c++) {
            int h = 0;
            while (h < g->height && h < left && h_left >= d->ways[c + 1][left - h])
                h_left -= d->ways[c + 1][left - h++];
            mask |= ((1ull << h) - 1) << (c * d->h1);
            left -= h;
        }
        /* Colex unranking: the place of the j-th X stone is the largest s with C(s, j) <= what
         * is left of the rank. */
        uint64_t c_left = cr;
        int s = ply;
        for (int j = nx; j > 0; j--) {
            while (d->choose[--s][j] > c_left)
                ;
            colours |= 1ull << s;
            c_left -= d->choose[s][j];
        }
    }
    if (hint)
        *hint = (oxo_ply_hint){.ply = ply, .num = i, .a = hr, .b = cr, .c = colours, .d = mask};
    uint64_t x = 0;
    for (int c = 0, at = 0; c < g->width; c++) {
        const uint64_t col = mask & d->column[c];
        x |= ((colours >> at) << (c * d->h1)) & col;
        at += oxo_popcount(col);
    }
    return ply % 2 ? (oxo_pos){mask & ~x, x} : (oxo_pos){x, mask & ~x};
}

static void c4_free(oxo_game *g)
{
    free(C(g)->heights);
    free(C(g)->colours);
    free(g->data);
}

/* clang-format off */
static const oxo_game_ops c4_ops = {
    .start = c4_start, .legal = c4_legal, .play = c4_play, .unmoves = c4_unmoves,
    .unplay = c4_unplay, .status = c4_status, .transform = c4_transform,
    .transform_move = c4_transform_move, .code = c4_code, .decode = c4_decode,
    .canonical_code = c4_canonical_code, .orbit_size = c4_orbit_size, .cell_of_move = c4_cell_of_move, .cells = c4_cells,
    .positions_most = c4_positions_most, .ply_size = c4_ply_size, .ply_rank = c4_ply_rank,
    .ply_unrank = c4_ply_unrank, .ply_children = c4_ply_children, .free = c4_free,
};
/* clang-format on */

/* The rank's tables (c4 above). The sums saturate like ways: a ply too large to number in 64 bits
 * has ply_size UINT64_MAX, and nothing ranks its boards. */
static int ply_tables(const oxo_game *g, c4 *d)
{
    const int W = g->width, H = g->height, cells = g->cells, nx1 = (cells + 1) / 2 + 1;
    d->heights = calloc((size_t)W * (size_t)(cells + 1) * (size_t)(H + 1), sizeof *d->heights);
    if (!d->heights)
        return -1;
    for (int c = 0; c < W; c++)
        for (int left = 0; left <= cells; left++) {
            uint64_t *row =
                d->heights + ((size_t)c * (size_t)(cells + 1) + (size_t)left) * (size_t)(H + 1);
            for (int h = 1; h <= H; h++) {
                uint64_t w = h - 1 <= left ? d->ways[c + 1][left - (h - 1)] : 0;
                if (__builtin_add_overflow(row[h - 1], w, &row[h]))
                    row[h] = UINT64_MAX;
            }
        }
    if (H > 8)
        return 0;
    d->colours = calloc((size_t)(cells + 1) * (size_t)nx1 << H, sizeof *d->colours);
    if (!d->colours)
        return -1;
    for (int at = 0; at <= cells; at++)
        for (int ones = 0; ones < nx1; ones++)
            for (uint64_t xs = 0; xs < 1ull << H; xs++) {
                uint64_t sum = 0;
                int o = ones;
                for (uint64_t b = xs; b; b &= b - 1) {
                    int place = at + __builtin_ctzll(b);
                    ++o;
                    sum += place <= 64 && o <= 64 ? d->choose[place][o] : 0;
                }
                d->colours[((uint64_t)at * (uint64_t)nx1 + (uint64_t)ones) << H | xs] = sum;
            }
    return 0;
}

static int c4_claims(const char *spec)
{
    return !strcmp(spec, "connect4") || !strncmp(spec, "connect4:", 9);
}

static int c4_init(oxo_game *g, const char *spec, oxo_error *err)
{
    int v[2] = {7, 6};
    if (spec[8] && oxo_spec_numbers(spec + 9, v, 2)) {
        oxo_fail(err, OXO_E_ARG,
                 "game '%s': expected connect4:W,H with whole numbers, e.g. connect4:7,6", spec);
        return -1;
    }
    const int W = g->width = v[0], H = g->height = v[1];
    g->k = 4;
    if (W < 1 || H < 1 || W * (H + 1) > 64) {
        char specs[400];
        oxo_fail(err, OXO_E_ARG,
                 "game 'connect4:%d,%d' out of range: W x (H + 1) must be at most 64; expected %s",
                 W, H, oxo_game_specs(specs, sizeof specs));
        return -1;
    }
    c4 *d = calloc(1, sizeof *d);
    if (!d) {
        oxo_fail(err, OXO_E_NOMEM, "game '%s'", spec);
        return -1;
    }
    g->data = d;
    g->ops = &c4_ops;
    g->gravity = 1;
    g->move_noun = "column";
    g->move_unplayable = "is full; choose another column";
    /* and "empty and playable now": a free cell resting on a stone (ntuple.h) */
    g->cell_states = 4;
    g->solver = 1; /* c4solve.c: the column bitboard above, four in a row */
    /* The n-tuple learner's defaults on Connect-4, each measured on 7x6 (1,000,000 games, several
     * training seeds, graded against the perfect player; train/RECORD.md, n-tuple networks): 140
     * tuples (GBG's 70 twice), a weight set for each player learning toward its own next
     * afterstate, the second player's defence where it thinks itself lost, 30% of the games begun
     * after fewer than 12 random moves, and each worker replaying one of its last 2,000 games a
     * game. */
    g->learn = (oxo_learn_defaults){.tuples = 140,
                                    .weight_sets = 2,
                                    .target_own = 1,
                                    .defend = 1,
                                    .starts = 0.3,
                                    .start_depth = 12,
                                    .replay = 2000};
    snprintf(g->spec, sizeof g->spec, "connect4:%d,%d", W, H);
    snprintf(g->name, sizeof g->name, "connect4 %dx%d", W, H);
    g->rows = H;
    g->cols = W;
    g->cells = g->max_plies = W * H;
    g->moves = W;
    g->nsym = 2;
    g->code_bits = W * (H + 1);
    g->code_space = g->code_bits < 64 ? 1ull << g->code_bits : 0;
    d->h1 = H + 1;
    for (int c = 0; c < W; c++) {
        d->bottom |= 1ull << (c * d->h1);
        d->column[c] = ((1ull << H) - 1) << (c * d->h1);
    }
    for (int n = 0; n <= 64; n++)
        for (int k = 0; k <= n; k++)
            d->choose[n][k] = k == 0 || k == n ? 1 : d->choose[n - 1][k - 1] + d->choose[n - 1][k];
    d->ways[W][0] = 1;
    for (int c = W - 1; c >= 0; c--)
        for (int s = 0; s <= W * H; s++)
            for (int h = 0; h <= H && h <= s; h++)
                if (__builtin_add_overflow(d->ways[c][s], d->ways[c + 1][s - h], &d->ways[c][s]))
                    d->ways[c][s] = UINT64_MAX;
    if (ply_tables(g, d)) {
        free(d);
        g->data = NULL;
        oxo_fail(err, OXO_E_NOMEM, "game '%s'", spec);
        return -1;
    }
    /* Centre first, then outward, the left one first at equal distance. */
    for (int i = 0; i < W; i++)
        g->order[i] = i;
    for (int i = 1; i < W; i++)
        for (int j = i; j > 0; j--) {
            int a = g->order[j], b = g->order[j - 1];
            int da = abs(2 * a - (W - 1)), db = abs(2 * b - (W - 1));
            if (da > db || (da == db && a > b))
                break;
            g->order[j] = b;
            g->order[j - 1] = a;
        }
    return 0;
}

/* clang-format off */
const oxo_family oxo_family_connect4 = {
    .name = "connect4",
    .specs = "connect4:W,H (W x (H + 1) at most 64) or connect4 (= connect4:7,6)",
    .claims = c4_claims, .init = c4_init,
};
/* clang-format on */
