/*
 * N-tuple networks (oxo-train --algo ntuple) and ensembles of them. A network values each move's
 * afterstate (lookup/ntuple.h) on any board of its game: no space is enumerated. An ensemble joins
 * 2 to OXO_PLAYER_MAX_MEMBERS networks of one game (A.oxm+B.oxm, oxo_player_open_joined) and
 * scores a move by the mean of their values: networks trained apart misjudge different positions,
 * so their mean plays better than any of them (train/RECORD.md, n-tuple networks).
 */
#include "source.h"

#include <stdlib.h>
#include <string.h>

/* The model's network over its weights, on the model's game. */
static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    oxo_model *m = p->model;
    oxo_error e;
    if ((int)m->nt_states != oxo_ntuple_states(p->game))
        return oxo_fail(err, OXO_E_GAME, "the network reads %u cell states, %s has %d",
                        m->nt_states, p->game->name, oxo_ntuple_states(p->game));
    p->net = p->own_net = oxo_ntuple_new(p->game, (int)m->nt_count, (int)m->nt_len, (int)m->nt_sets,
                                         m->nt_cells, NULL, &e);
    if (!p->net)
        return oxo_fail(err, OXO_E_GAME, "%.300s", e.msg);
    /* A file saved in the middle of its run's averaging (a checkpoint, a stopped run) plays the
     * mean taken so far, the network the run would save if it ended there and the one its grade
     * is of; its values, the weights of the moment, are what a resumed run goes on from. The
     * network keeps its own copy, in its layout: the file's are let go (from a file of minor 3,
     * most of them fillings no board has). */
    const float *src = m->avg_count && m->avg_values ? m->avg_values : m->values;
    if (oxo_ntuple_load(p->net, m, src, p->net->w, &e))
        return oxo_fail(err, OXO_E_FIELD, "%s%.300s", src == m->values ? "" : "average: ", e.msg);
    free(m->values);
    free(m->avg_values);
    m->values = m->avg_values = NULL;
    return 0;
}

/* Twin moves, which a symmetry of the position itself maps onto each other, are worth the same to
 * a network (it sums over the board's symmetric images), but in floats the images are summed in
 * another order, so the twins' values can differ in their last bits and one of them would be the
 * only best move. Each move takes the greatest value of its twins, so that they tie exactly, as
 * the tables' twins do: hints list both, and an export, which stores a move per canonical board,
 * plays a best move on each of its images. */
static void tie_twins(const oxo_game *g, oxo_pos pos, oxo_move_info *out, int n)
{
    double v[OXO_MAX_MOVES];
    for (int i = 0; i < n; i++)
        v[i] = out[i].score;
    for (int s = 1; s < g->nsym; s++) {
        const oxo_pos q = oxo_transform(g, pos, s);
        if (q.me != pos.me || q.opp != pos.opp)
            continue;
        for (int i = 0; i < n; i++) {
            const int t = oxo_transform_move(g, out[i].move, s);
            for (int j = 0; j < n; j++)
                if (out[j].move == t && v[j] > out[i].score)
                    out[i].score = v[j];
        }
    }
}

/* The moves of pos and their values by the network net, in out (score only). */
static int net_moves(const oxo_ntuple *net, oxo_pos pos, oxo_move_info *out)
{
    int moves[OXO_MAX_MOVES];
    float v[OXO_MAX_MOVES];
    int n = oxo_ntuple_moves(net, pos, moves, v);
    for (int i = 0; i < n; i++)
        out[i] = (oxo_move_info){.move = moves[i], .score = v[i]};
    return n;
}

static int moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    int n = net_moves(p->net, pos, out);
    tie_twins(p->game, pos, out, n);
    return n;
}

/* The mean of the members' values (they value the same moves, in the same order), summed in the
 * members' order. */
static int ensemble_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    int n = net_moves(p->members[0]->net, pos, out);
    for (int k = 1; k < p->nmembers; k++) {
        oxo_move_info mi[OXO_MAX_MOVES];
        net_moves(p->members[k]->net, pos, mi);
        for (int i = 0; i < n; i++)
            out[i].score += mi[i].score;
    }
    for (int i = 0; i < n; i++)
        out[i].score /= p->nmembers;
    tie_twins(p->game, pos, out, n);
    return n;
}

/* clang-format off */
const oxo_source_ops oxo_source_ntuple = {
    .name = "ntuple", .takes = OXO_TAKE_MODEL, .any_board = 1, .attach = attach, .moves = moves,
};
/* clang-format on */

/* Made by oxo_player_open_joined only (no file is an ensemble). */
/* clang-format off */
const oxo_source_ops oxo_source_ensemble = {
    .name = "ensemble", .takes = OXO_TAKE_MODEL, .any_board = 1, .moves = ensemble_moves,
};
/* clang-format on */
