/*
 * AlphaZero-lite models (oxo-train --algo azero): the network (lookup/azero.h) plays its bare
 * policy, each legal move scored 2 p - 1 from its share p of the policy over the legal moves, so
 * the best score is the policy's choice; no space is enumerated, so it plays boards of any size.
 * The optimiser's moments and the self-play window are the run's, for --resume, and are left
 * alone here. The agent kind azero (lookup/agents/azero.c) searches with the same network.
 */
#include "source.h"

#include "azero.h"
#include "freestanding/azero.c"

#include <stdlib.h>

static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    const oxo_model *m = p->model;
    oxo_az_net *net = calloc(1, sizeof *net);
    if (!net)
        return oxo_fail(err, OXO_E_NOMEM, "a network");
    int rc = oxo_az_shape_of(&net->s, p->game, m->az_width, (int)m->az_layers,
                             oxo_az_inputs_of(m->az_lines, m->az_threats), err);
    if (!rc && (m->az_inputs != (uint32_t)net->s.inputs || m->az_outputs != (uint32_t)net->s.moves))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "azero: %u inputs and %u outputs, where a network %s on %s has %d inputs "
                      "and %d moves",
                      m->az_inputs, m->az_outputs,
                      m->az_threats ? "with threats"
                      : m->az_lines ? "with lines"
                                    : "of cells",
                      p->game->spec, net->s.inputs, p->game->moves);
    if (rc) {
        free(net);
        return rc;
    }
    net->w = m->values;
    p->az = net;
    p->own_az = 1;
    return 0;
}

static int moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    const oxo_game *g = p->game;
    float logits[OXO_MAX_MOVES], prior[OXO_MAX_MOVES];
    oxo_az_forward(p->az, g, pos, logits);
    const uint64_t legal = oxo_legal(g, pos);
    oxo_az_softmax(g->moves, legal, logits, prior);
    int n = 0;
    for (uint64_t l = legal; l; l &= l - 1) {
        const int m = __builtin_ctzll(l);
        out[n++] = (oxo_move_info){.move = m, .score = oxp_azero_score(prior[m])};
    }
    return n;
}

static void release(oxo_player *p)
{
    if (p->az && p->own_az)
        free(p->az);
    p->az = NULL;
}

/* clang-format off */
const oxo_source_ops oxo_source_azero = {
    .name = "azero", .takes = OXO_TAKE_MODEL, .any_board = 1, .attach = attach, .moves = moves,
    .release = release,
};
/* clang-format on */
