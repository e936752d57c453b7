/*
 * The NEAT learner's training positions (train/learners/neat.c): drawn from the solved table along
 * random games, or taken from a judged set (--train-set) where there is no table; and the hash of
 * them a model records, which --resume checks.
 */
#include "trainer.h"

#include "neat_genome.h"

#include <stdio.h>
#include <stdlib.h>

/* its own stream, apart from the trainer's and the breeding's: "NEATPOPS" */
#define SEED_POSITIONS 0x4e45415450505053ull

/* A move's value class (win 1, draw 0, loss -1) from its score. */
static int class_of(double score)
{
    return score > 0 ? 1 : score < 0 ? -1 : 0;
}

int neat_keep_moves(const oxo_player *truth, oxo_pos p, uint64_t *keep, uint64_t *legal)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    const int n = oxo_player_moves(truth, p, mi);
    int cls = -1;
    for (int i = 0; i < n; i++)
        cls = class_of(mi[i].score) > cls ? class_of(mi[i].score) : cls;
    *keep = *legal = 0;
    for (int i = 0; i < n; i++) {
        *legal |= 1ull << mi[i].move;
        *keep |= (uint64_t)(class_of(mi[i].score) == cls) << mi[i].move;
    }
    return n;
}

/* The training positions: along random games (their own stream), every position where some
 * move loses the value the table gives it, each once, until `want` (or 64 games a position
 * tried). */
int neat_draw_positions(neat_state *s, const oxo_trainer *t, uint32_t want, oxo_error *err)
{
    const oxo_game *g = t->g;
    uint64_t rng = oxo_rng_stream(t->c.seed ^ SEED_POSITIONS, 0);
    uint32_t cap = 1;
    while (cap < 2 * want)
        cap <<= 1;
    oxo_pos *set = calloc(cap, sizeof *set);
    uint8_t *used = calloc(cap, 1);
    s->pos = malloc((want ? want : 1) * sizeof *s->pos);
    if (!set || !used || !s->pos) {
        free(set);
        free(used);
        return oxo_fail(err, OXO_E_NOMEM, "%u training positions", want);
    }
    for (uint64_t games = 0; s->npos < want && games < 64 * (uint64_t)want; games++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
             p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
            if (t->c.symmetric) /* an oriented network plays a board's images alike */
                p = oxo_canonical(g, p, NULL);
            uint64_t h = (p.me * 0x9e3779b97f4a7c15ull ^ p.opp * 0xc2b2ae3d27d4eb4full);
            uint32_t k = (uint32_t)(h >> 32) & (cap - 1);
            while (used[k] && (set[k].me != p.me || set[k].opp != p.opp))
                k = (k + 1) & (cap - 1);
            if (used[k])
                continue;
            used[k] = 1;
            set[k] = p;
            uint64_t keep, legal;
            if (neat_keep_moves(t->truth, p, &keep, &legal) <= 0)
                continue;
            if (keep != legal && s->npos < want)
                s->pos[s->npos++] = (neat_pos){p, keep};
        }
    free(set);
    free(used);
    return 0;
}

/* The training positions from a judged set (--train-set, where there is no table): its first
 * `want` positions, in the file's order, each move keeping the value when its value is the
 * position's best. */
int neat_judged_positions(neat_state *s, const oxo_game *g, const oxo_judge *j, uint32_t want,
                          oxo_error *err)
{
    const uint32_t n = j->n < want ? j->n : want;
    if (!(s->pos = malloc((n ? n : 1) * sizeof *s->pos)))
        return oxo_fail(err, OXO_E_NOMEM, "%u training positions", n);
    for (uint32_t i = 0; i < n; i++) {
        const oxo_judged *d = &j->pos[i];
        uint64_t keep = 0;
        for (int m = 0; m < g->moves; m++) /* the set says nothing of move numbers past them */
            keep |= (uint64_t)(d->value[m] != -2 && d->value[m] == d->best) << m;
        s->pos[s->npos++] = (neat_pos){d->pos, keep};
    }
    return 0;
}

/* The hash of the training positions a model records (FORMAT.md, neat.train_set): FNV-1a 64 over
 * each position's masks and moves kept, as 3 little-endian u64. */
void neat_positions_hash(const neat_state *s, char out[17])
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < s->npos; i++) {
        const uint64_t v[3] = {s->pos[i].p.me, s->pos[i].p.opp, s->pos[i].keep};
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < 8; b++)
                h = (h ^ (uint8_t)(v[k] >> (8 * b))) * 0x100000001b3ull;
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}
