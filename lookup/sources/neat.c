/*
 * NEAT models (oxo-train --algo neat): the population's champion, genome 0 of the file, made into
 * its feed-forward network (lookup/neat.h), scores each legal move by its output; no space is
 * enumerated, so it plays boards of any size. The rest of the population is the run's, for
 * --resume, and is let go here.
 */
#include "source.h"

#include "neat.h"

#include <stdlib.h>
#include <string.h>

/* Genome 0's hidden nodes and links are the first of the file's. */
static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    const oxo_model *m = p->model;
    const uint32_t nh = m->ne_genome[0], nl = m->ne_genome[1];
    oxo_neat_link *links = malloc((nl ? nl : 1) * sizeof *links);
    oxo_neat_net *net = calloc(1, sizeof *net);
    if (!links || !net) {
        free(links);
        free(net);
        return oxo_fail(err, OXO_E_NOMEM, "a network of %u links", nl);
    }
    for (uint32_t i = 0; i < nl; i++) {
        const uint32_t *l = m->ne_links + 4 * i;
        links[i] = (oxo_neat_link){l[0], l[1], l[2], l[3], m->values[i]};
    }
    oxo_error e;
    int rc = oxo_neat_build(net, p->game, m->ne_inputs, m->ne_hidden, nh, links, nl, &e);
    free(links);
    if (rc) {
        free(net);
        return oxo_fail(err, OXO_E_FIELD, "neat champion: %.300s", e.msg);
    }
    if (m->symmetric) /* the inputs in the board's orientation (FORMAT.md) */
        oxo_neat_orient(net, p->game);
    p->neat = net;
    p->own_neat = 1;
    return 0;
}

static int moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    float act[OXO_NEAT_MAX_NODES], score[OXO_MAX_MOVES];
    int mv[OXO_MAX_MOVES];
    int n = oxo_neat_moves(p->neat, p->game, pos, act, mv, score);
    for (int i = 0; i < n; i++)
        out[i] = (oxo_move_info){.move = mv[i], .score = score[i]};
    return n;
}

static void release(oxo_player *p)
{
    if (p->neat && p->own_neat) {
        oxo_neat_free(p->neat);
        free(p->neat);
        p->neat = NULL;
    }
}

/* clang-format off */
const oxo_source_ops oxo_source_neat = {
    .name = "neat", .takes = OXO_TAKE_MODEL, .any_board = 1, .attach = attach, .moves = moves,
    .release = release,
};
/* clang-format on */
