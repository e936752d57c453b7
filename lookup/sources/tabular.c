/*
 * Tabular models (oxo-train --algo q, td): one learned value per move (Q) or per position (TD's
 * V) of an enumerated state space, raw or canonical. A Q model scores a move by its value; a TD
 * model by its child's value, discounted and seen from the mover, a finished child being worth
 * its result. The values are checked against the space when the model opens: one per move or
 * position, and every replay item within them.
 */
#include "source.h"

#include <string.h>

static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    const oxo_model *m = p->model;
    const int q = p->ops == &oxo_source_q;
    p->values = m->values;
    p->gamma = m->gamma;
    if (oxo_source_use_space(p, space, m->symmetric, err))
        return -1;
    const uint32_t want = q ? p->space->nedges : p->space->n;
    if (m->nvalues != want)
        return oxo_fail(err, OXO_E_GAME, "%u values, expected %u (one per %s of the %s %s space)",
                        m->nvalues, want, q ? "move" : "position",
                        m->symmetric ? "canonical" : "raw", p->game->name);
    for (uint32_t r = 0; r < m->nrings; r++)
        for (uint32_t k = 0; k < m->rings[r].nitems; k++) {
            uint32_t it = m->rings[r].items[k];
            if (it != UINT32_MAX && it >= want)
                return oxo_fail(err, OXO_E_GAME, "replay ring %u item %u is %u, beyond the %u %s",
                                r, k, it, want, q ? "moves" : "positions");
        }
    return 0;
}

static void score_q(const oxo_player *p, uint32_t edge, uint32_t child, oxo_move_info *mi)
{
    (void)child;
    mi->score = p->values[edge];
}

static void score_td(const oxo_player *p, uint32_t edge, uint32_t child, oxo_move_info *mi)
{
    (void)edge;
    const oxo_status st = p->space->status[child];
    mi->score = st == OXO_OVER_LOSS   ? 1.0
                : st == OXO_OVER_DRAW ? 0.0
                                      : -p->gamma * p->values[child];
}

static int moves_q(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    return oxo_source_space_moves(p, pos, out, score_q);
}

static int moves_td(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    return oxo_source_space_moves(p, pos, out, score_td);
}

/* clang-format off */
const oxo_source_ops oxo_source_q = {
    .name = "q", .takes = OXO_TAKE_MODEL, .attach = attach, .moves = moves_q,
};
/* clang-format on */

/* clang-format off */
const oxo_source_ops oxo_source_td = {
    .name = "td", .takes = OXO_TAKE_MODEL, .attach = attach, .moves = moves_td,
};
/* clang-format on */
