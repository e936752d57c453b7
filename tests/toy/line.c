/*
 * A toy game family, for the test that proves a new family is one file plus one registry row
 * (tests/e2e_toy.sh copies this file into lookup/games/ and adds its row to registry.c, and
 * nothing else): "line:N,K", one row of N cells (2 to 20), K of a player's stones in a row win,
 * the mirror image its one symmetry. Written from the game interface alone (game.h); it names
 * nothing of the other families. Codes are base 3 over the cells, as people read the row.
 */
#include "game.h"

#include <stdio.h>
#include <string.h>

static uint64_t full_mask(const oxo_game *g)
{
    return (1ull << g->cells) - 1;
}

static int has_run(const oxo_game *g, uint64_t m)
{
    uint64_t x = m;
    for (int i = 1; i < g->k; i++)
        x &= m >> i;
    return x != 0;
}

static oxo_pos line_start(const oxo_game *g)
{
    (void)g;
    return (oxo_pos){0, 0};
}

static oxo_status line_status(const oxo_game *g, oxo_pos p)
{
    if (has_run(g, p.opp))
        return OXO_OVER_LOSS;
    return (p.me | p.opp) == full_mask(g) ? OXO_OVER_DRAW : OXO_ONGOING;
}

static uint64_t line_legal(const oxo_game *g, oxo_pos p)
{
    return line_status(g, p) == OXO_ONGOING ? full_mask(g) & ~(p.me | p.opp) : 0;
}

static oxo_pos line_play(const oxo_game *g, oxo_pos p, int m)
{
    (void)g;
    return (oxo_pos){p.opp, p.me | 1ull << m};
}

static uint64_t line_unmoves(const oxo_game *g, oxo_pos p)
{
    (void)g;
    return p.opp;
}

static oxo_pos line_unplay(const oxo_game *g, oxo_pos p, int m)
{
    (void)g;
    return (oxo_pos){p.opp & ~(1ull << m), p.me};
}

static uint64_t mirror(const oxo_game *g, uint64_t m)
{
    uint64_t r = 0;
    for (int i = 0; i < g->cells; i++)
        r |= (m >> i & 1) << (g->cells - 1 - i);
    return r;
}

static oxo_pos line_transform(const oxo_game *g, oxo_pos p, int s)
{
    return s ? (oxo_pos){mirror(g, p.me), mirror(g, p.opp)} : p;
}

static int line_transform_move(const oxo_game *g, int m, int s)
{
    return s ? g->cells - 1 - m : m;
}

static void line_cells(const oxo_game *g, oxo_pos p, uint64_t *x, uint64_t *o)
{
    int xm = oxo_x_to_move(g, p);
    *x = xm ? p.me : p.opp;
    *o = xm ? p.opp : p.me;
}

static uint64_t line_code(const oxo_game *g, oxo_pos p)
{
    uint64_t x, o, c = 0;
    line_cells(g, p, &x, &o);
    for (int i = g->cells - 1; i >= 0; i--)
        c = 3 * c + (x >> i & 1) + 2 * (o >> i & 1);
    return c;
}

static oxo_pos line_decode(const oxo_game *g, uint64_t c)
{
    uint64_t x = 0, o = 0;
    for (int i = 0; i < g->cells; i++, c /= 3)
        x |= (uint64_t)(c % 3 == 1) << i, o |= (uint64_t)(c % 3 == 2) << i;
    return oxo_popcount(x) == oxo_popcount(o) ? (oxo_pos){x, o} : (oxo_pos){o, x};
}

static int line_cell_of_move(const oxo_game *g, oxo_pos p, int m)
{
    (void)g, (void)p;
    return m;
}

static uint64_t line_positions_most(const oxo_game *g, int ply)
{
    uint64_t r;
    return __builtin_mul_overflow(oxo_choose_sat(g->cells, ply), oxo_choose_sat(ply, (ply + 1) / 2),
                                  &r)
               ? UINT64_MAX
               : r;
}

/* clang-format off */
static const oxo_game_ops line_ops = {
    .start = line_start, .legal = line_legal, .play = line_play, .unmoves = line_unmoves,
    .unplay = line_unplay, .status = line_status, .transform = line_transform,
    .transform_move = line_transform_move, .code = line_code, .decode = line_decode,
    .cell_of_move = line_cell_of_move, .cells = line_cells, .positions_most = line_positions_most,
};
/* clang-format on */

static int line_claims(const char *spec)
{
    return !strncmp(spec, "line:", 5);
}

static int line_init(oxo_game *g, const char *spec, oxo_error *err)
{
    int v[2];
    if (oxo_spec_numbers(spec + 5, v, 2) || v[0] < 2 || v[0] > 20 || v[1] < 1 || v[1] > v[0]) {
        oxo_fail(err, OXO_E_ARG, "game '%s': expected line:N,K with N from 2 to 20 and K at most N",
                 spec);
        return -1;
    }
    g->ops = &line_ops;
    g->width = g->cols = g->cells = g->moves = g->max_plies = v[0];
    g->height = g->rows = 1;
    g->k = v[1];
    snprintf(g->spec, sizeof g->spec, "line:%d,%d", v[0], v[1]);
    snprintf(g->name, sizeof g->name, "line of %d, %d in a row", v[0], v[1]);
    g->nsym = 2;
    g->code_space = 1;
    for (int i = 0; i < g->cells; i++)
        g->code_space *= 3;
    while ((g->code_space - 1) >> g->code_bits)
        g->code_bits++;
    g->move_noun = "cell";
    g->move_unplayable = "is taken; choose a free cell";
    g->cell_states = 3;
    g->learn = (oxo_learn_defaults){.tuples = 10, .weight_sets = 1};
    for (int i = 0; i < g->cells; i++) /* the middle first */
        g->order[i] = g->cells / 2 + (i & 1 ? -(i + 1) / 2 : i / 2);
    return 0;
}

/* clang-format off */
const oxo_family oxo_family_line = {
    .name = "line", .specs = "line:N,K (a row of N cells, K in a row)", .claims = line_claims,
    .init = line_init,
};
/* clang-format on */
