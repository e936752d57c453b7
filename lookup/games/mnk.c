/*
 * m,n,k-games behind the game interface: a board W cells wide and H high, two players place
 * stones in turn, K in a row (across, down or diagonally) wins. Tic-tac-toe is mnk:3,3,3.
 *
 * Bit layout: cell r * W + c is bit r * W + c, row by row from the top left, the numbering of
 * every interface (shown to people as 1..W*H). Tic-tac-toe:
 *
 *      0 | 1 | 2        example: X at 0 and 4, O at 2, X to move
 *     ---+---+---                 me  (X) = 0b000010001 = 0x011
 *      3 | 4 | 5                  opp (O) = 0b000000100 = 0x004
 *     ---+---+---
 *      6 | 7 | 8
 *
 * Everything that depends on the shape is derived here from W, H and K: the winning lines, the
 * symmetries (8 for a square, 4 for other rectangles), the base-3 code (cell i weighs 3^i, empty
 * 0, X 1, O 2; unique up to 40 cells) and the search order (cells on more lines first). Masks are
 * transformed and coded 8 bits at a time through tables, because canonicalisation sits in every
 * lookup of the player. A line is found with one table lookup on boards of up to 16 cells, and
 * otherwise by shifts: for each direction, the cells from which K cells in a row fit are ANDed
 * with the mask shifted K - 1 times.
 *
 * Figures: mnk:3,3,3 has 5,478 positions reachable with X first, 765 up to the 8 symmetries;
 * mnk:4,4,4 has 9,722,011 (1,217,977 canonical), a draw.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN_TABLE_CELLS 16

typedef struct mnk {
    uint64_t full;
    int chunks;
    int nlines;
    uint64_t lines[4 * OXO_MAX_MOVES];
    int shift[4];       /* bit distance between neighbours in each direction */
    uint64_t starts[4]; /* cells from which K cells in a row fit in that direction */
    int perm[OXO_MAX_SYM][OXO_MAX_MOVES];
    uint64_t sym_table[OXO_MAX_SYM][8][256];
    uint64_t code_table[8][256];
    uint64_t sym_code[OXO_MAX_SYM][8][256]; /* code of a chunk's stones after symmetry s */
    uint16_t digits[6561]; /* 8 base-3 digits: the X cells (low byte) and the O cells (high) */
    uint8_t *win;          /* boards of up to 16 cells: bit m says whether mask m holds a line */
} mnk;

static const mnk *M(const oxo_game *g)
{
    return (const mnk *)g->data;
}

static int has_line(const oxo_game *g, uint64_t m)
{
    const mnk *d = M(g);
    if (d->win)
        return d->win[m >> 3] >> (m & 7) & 1;
    for (int dir = 0; dir < 4; dir++) {
        uint64_t x = m & d->starts[dir];
        for (int i = 1; i < g->k && x; i++)
            x &= m >> (i * d->shift[dir]);
        if (x)
            return 1;
    }
    return 0;
}

static oxo_pos mnk_start(const oxo_game *g)
{
    (void)g;
    return (oxo_pos){0, 0};
}

static oxo_status mnk_status(const oxo_game *g, oxo_pos p)
{
    if (has_line(g, p.opp))
        return OXO_OVER_LOSS;
    return ((p.me | p.opp) == M(g)->full) ? OXO_OVER_DRAW : OXO_ONGOING;
}

static uint64_t mnk_legal(const oxo_game *g, oxo_pos p)
{
    if (mnk_status(g, p) != OXO_ONGOING)
        return 0;
    return ~(p.me | p.opp) & M(g)->full;
}

static oxo_pos mnk_play(const oxo_game *g, oxo_pos p, int move)
{
    (void)g;
    return (oxo_pos){p.opp, p.me | (1ull << move)};
}

/* The last stone played is any stone of the side that just moved. */
static uint64_t mnk_unmoves(const oxo_game *g, oxo_pos p)
{
    (void)g;
    return p.opp;
}

static oxo_pos mnk_unplay(const oxo_game *g, oxo_pos p, int move)
{
    (void)g;
    return (oxo_pos){p.opp & ~(1ull << move), p.me};
}

static uint64_t transform_mask(const mnk *d, uint64_t m, int sym)
{
    uint64_t r = 0;
    for (int c = 0; c < d->chunks; c++)
        r |= d->sym_table[sym][c][(m >> (8 * c)) & 0xff];
    return r;
}

static oxo_pos mnk_transform(const oxo_game *g, oxo_pos p, int sym)
{
    return (oxo_pos){transform_mask(M(g), p.me, sym), transform_mask(M(g), p.opp, sym)};
}

static int mnk_transform_move(const oxo_game *g, int move, int sym)
{
    return M(g)->perm[sym][move];
}

static int mnk_cell_of_move(const oxo_game *g, oxo_pos p, int move)
{
    (void)g, (void)p;
    return move;
}

static void mnk_cells(const oxo_game *g, oxo_pos p, uint64_t *x, uint64_t *o)
{
    int xm = oxo_x_to_move(g, p);
    *x = xm ? p.me : p.opp;
    *o = xm ? p.opp : p.me;
}

static uint64_t mask_code(const mnk *d, uint64_t m)
{
    uint64_t r = 0;
    for (int c = 0; c < d->chunks; c++)
        r += d->code_table[c][(m >> (8 * c)) & 0xff];
    return r;
}

static uint64_t mnk_code(const oxo_game *g, oxo_pos p)
{
    uint64_t x, o;
    mnk_cells(g, p, &x, &o);
    return mask_code(M(g), x) + 2 * mask_code(M(g), o);
}

/* Base 3, 8 cells at a time: each group of 8 digits (a number below 3^8) is looked up. */
static oxo_pos mnk_decode(const oxo_game *g, uint64_t code)
{
    const mnk *d = M(g);
    uint64_t x = 0, o = 0;
    for (int c = 0; c < d->chunks && code; c++, code /= 6561) {
        uint32_t t = d->digits[code % 6561];
        x |= (uint64_t)(t & 0xff) << (8 * c);
        o |= (uint64_t)(t >> 8) << (8 * c);
    }
    return oxo_popcount(x) == oxo_popcount(o) ? (oxo_pos){x, o} : (oxo_pos){o, x};
}

/* Codes of the images straight from the chunks of the masks: one table lookup a chunk a mask
 * for each symmetry, instead of building each image and coding it. Boards of up to 40 cells. */
static uint64_t mnk_canonical_code(const oxo_game *g, oxo_pos p, int *sym)
{
    const mnk *d = M(g);
    uint64_t x, o, best = UINT64_MAX;
    int bs = 0;
    if (!g->code_bits) /* codes are not unique: the images are compared by their masks */
        return mnk_code(g, oxo_canonical(g, p, sym));
    mnk_cells(g, p, &x, &o);
    for (int s = 0; s < g->nsym; s++) {
        uint64_t c = 0;
        for (int k = 0; k < d->chunks; k++)
            c += d->sym_code[s][k][(x >> (8 * k)) & 0xff] +
                 2 * d->sym_code[s][k][(o >> (8 * k)) & 0xff];
        if (c < best)
            best = c, bs = s;
    }
    if (sym)
        *sym = bs;
    return best;
}

static void mnk_free(oxo_game *g)
{
    mnk *d = g->data;
    if (d)
        free(d->win);
    free(d);
}

/* Positions of `ply` stones: the cells they fill, times the ways to colour them with X's
 * ceil(ply / 2). An upper bound: it counts boards that play would have ended earlier. */
static uint64_t mnk_positions_most(const oxo_game *g, int ply)
{
    uint64_t r;
    return __builtin_mul_overflow(oxo_choose_sat(g->cells, ply), oxo_choose_sat(ply, (ply + 1) / 2),
                                  &r)
               ? UINT64_MAX
               : r;
}

/* clang-format off */
static const oxo_game_ops mnk_ops = {
    .start = mnk_start, .legal = mnk_legal, .play = mnk_play, .unmoves = mnk_unmoves,
    .unplay = mnk_unplay, .status = mnk_status, .transform = mnk_transform,
    .transform_move = mnk_transform_move, .code = mnk_code, .decode = mnk_decode,
    .canonical_code = mnk_canonical_code, .cell_of_move = mnk_cell_of_move, .cells = mnk_cells,
    .positions_most = mnk_positions_most, .free = mnk_free,
};
/* clang-format on */

static void add_lines(oxo_game *g, mnk *d)
{
    const int(*dirs)[2] = oxo_line_dirs;
    const int W = g->width, H = g->height, K = g->k;
    for (int dir = 0; dir < 4; dir++) {
        d->shift[dir] = dirs[dir][0] * W + dirs[dir][1];
        for (int r = 0; r < H; r++)
            for (int c = 0; c < W; c++) {
                int er = r + (K - 1) * dirs[dir][0], ec = c + (K - 1) * dirs[dir][1];
                if (er < 0 || er >= H || ec < 0 || ec >= W)
                    continue;
                uint64_t m = 0;
                for (int i = 0; i < K; i++)
                    m |= 1ull << ((r + i * dirs[dir][0]) * W + c + i * dirs[dir][1]);
                d->lines[d->nlines++] = m;
                /* Every direction goes toward higher bits (down-left is + W - 1): a line is its
                 * first cell and K - 1 shifts. */
                d->starts[dir] |= 1ull << (r * W + c);
            }
    }
}

/* Symmetry s: bit 2 transposes (square boards only), then bit 0 mirrors the columns, bit 1 the
 * rows. */
static void add_symmetries(oxo_game *g, mnk *d)
{
    const int W = g->width, H = g->height;
    for (int s = 0; s < g->nsym; s++)
        for (int cell = 0; cell < g->cells; cell++) {
            int r = cell / W, c = cell % W;
            if (s & 4) {
                int t = r;
                r = c;
                c = t;
            }
            if (s & 1)
                c = W - 1 - c;
            if (s & 2)
                r = H - 1 - r;
            d->perm[s][cell] = r * W + c;
        }
    for (int s = 0; s < g->nsym; s++)
        for (int c = 0; c < d->chunks; c++)
            for (int byte = 0; byte < 256; byte++) {
                uint64_t m = 0;
                for (int b = 0; b < 8; b++) {
                    int cell = 8 * c + b;
                    if ((byte >> b & 1) && cell < g->cells)
                        m |= 1ull << d->perm[s][cell];
                }
                d->sym_table[s][c][byte] = m;
            }
}

static void add_codes(oxo_game *g, mnk *d)
{
    uint64_t pow3[OXO_MAX_MOVES];
    pow3[0] = 1;
    for (int i = 1; i < g->cells; i++)
        pow3[i] = pow3[i - 1] * 3; /* wraps past 40 cells, where codes are not used as keys */
    for (int c = 0; c < d->chunks; c++)
        for (int byte = 0; byte < 256; byte++) {
            uint64_t v = 0;
            for (int b = 0; b < 8; b++)
                if ((byte >> b & 1) && 8 * c + b < g->cells)
                    v += pow3[8 * c + b];
            d->code_table[c][byte] = v;
            for (int s = 0; s < g->nsym; s++) {
                uint64_t w = 0;
                for (int b = 0; b < 8; b++)
                    if ((byte >> b & 1) && 8 * c + b < g->cells)
                        w += pow3[d->perm[s][8 * c + b]];
                d->sym_code[s][c][byte] = w;
            }
        }
    for (int v = 0; v < 6561; v++) {
        int x = 0, o = 0;
        for (int b = 0, r = v; b < 8; b++, r /= 3) {
            x |= (r % 3 == 1) << b;
            o |= (r % 3 == 2) << b;
        }
        d->digits[v] = (uint16_t)(x | o << 8);
    }
    /* The largest code is 3^cells - 1: its bit length. */
    g->code_bits = 0;
    if (g->cells <= 40) {
        uint64_t top = 2 * (pow3[g->cells - 1] + (pow3[g->cells - 1] - 1) / 2);
        while (g->code_bits < 64 && (top >> g->code_bits))
            g->code_bits++;
    }
}

/* Cells through which more winning lines pass come first; ties keep cell order. */
static void add_order(oxo_game *g, const mnk *d)
{
    int weight[OXO_MAX_MOVES] = {0};
    for (int c = 0; c < g->cells; c++) {
        g->order[c] = c;
        for (int l = 0; l < d->nlines; l++)
            weight[c] += (int)(d->lines[l] >> c & 1);
    }
    for (int i = 1; i < g->cells; i++)
        for (int j = i; j > 0 && weight[g->order[j]] > weight[g->order[j - 1]]; j--) {
            int t = g->order[j];
            g->order[j] = g->order[j - 1];
            g->order[j - 1] = t;
        }
}

static int mnk_claims(const char *spec)
{
    return !strcmp(spec, "tictactoe") || !strncmp(spec, "mnk:", 4);
}

static int mnk_init(oxo_game *g, const char *spec, oxo_error *err)
{
    int v[3] = {3, 3, 3};
    if (strcmp(spec, "tictactoe") && oxo_spec_numbers(spec + 4, v, 3)) {
        oxo_fail(err, OXO_E_ARG, "game '%s': expected mnk:W,H,K with whole numbers, e.g. mnk:4,4,4",
                 spec);
        return -1;
    }
    const int W = g->width = v[0], H = g->height = v[1], K = g->k = v[2];
    if (W < 1 || H < 1 || W * H > 64 || K < 1 || (K > W && K > H)) {
        char specs[400];
        oxo_fail(err, OXO_E_ARG,
                 "game 'mnk:%d,%d,%d' out of range: W x H must be 1 to 64 cells and K at most "
                 "the longer side; expected %s",
                 W, H, K, oxo_game_specs(specs, sizeof specs));
        return -1;
    }
    mnk *d = calloc(1, sizeof *d);
    if (!d) {
        oxo_fail(err, OXO_E_NOMEM, "game '%s'", spec);
        return -1;
    }
    g->data = d;
    g->ops = &mnk_ops;
    g->move_noun = "cell";
    g->move_unplayable = "is taken; choose a free cell";
    g->cell_states = 3; /* empty, a stone of the side an afterstate belongs to, the other's */
    /* GBG's n-tuple defaults, tuned on m,n,k boards (train/RECORD.md, n-tuple networks): on
     * mnk:4,4,4 the second player's defence did not pay. */
    g->learn = (oxo_learn_defaults){.tuples = 70, .weight_sets = 1};
    /* Tic-tac-toe keeps its name as its spec: the files made before other games existed say
     * "tictactoe", and stay the same bytes. */
    if (W == 3 && H == 3 && K == 3) {
        snprintf(g->spec, sizeof g->spec, "tictactoe");
        snprintf(g->name, sizeof g->name, "tictactoe");
    } else {
        snprintf(g->spec, sizeof g->spec, "mnk:%d,%d,%d", W, H, K);
        snprintf(g->name, sizeof g->name, "mnk %dx%d, %d in a row", W, H, K);
    }
    g->rows = H;
    g->cols = W;
    g->cells = g->moves = g->max_plies = W * H;
    g->nsym = W == H ? 8 : 4;
    d->full = g->cells == 64 ? ~0ull : (1ull << g->cells) - 1;
    d->chunks = (g->cells + 7) / 8;
    add_lines(g, d);
    add_symmetries(g, d);
    add_codes(g, d);
    add_order(g, d);
    if (g->code_bits && g->code_bits < 64) {
        g->code_space = 1;
        for (int i = 0; i < g->cells; i++)
            g->code_space *= 3;
    }
    if (g->cells <= WIN_TABLE_CELLS) {
        d->win = calloc(((size_t)1 << g->cells) / 8 + 1, 1);
        if (!d->win) {
            oxo_fail(err, OXO_E_NOMEM, "the winning lines of %s", spec);
            return -1;
        }
        for (uint64_t m = 0; m < (1ull << g->cells); m++)
            for (int i = 0; i < d->nlines; i++)
                if ((m & d->lines[i]) == d->lines[i]) {
                    d->win[m >> 3] |= (uint8_t)(1u << (m & 7));
                    break;
                }
    }
    return 0;
}

/* clang-format off */
const oxo_family oxo_family_mnk = {
    .name = "mnk",
    .specs = "tictactoe (= mnk:3,3,3), mnk:W,H,K (W x H cells, at most 64, K in a row)",
    .claims = mnk_claims, .init = mnk_init,
};
/* clang-format on */
