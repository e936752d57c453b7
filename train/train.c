/*
 * The trainer (see train.h): the settings every learner shares, the workers and their rounds,
 * the ordered merge of their copies, replay rings, schedules, grading, resuming and models. What a
 * learner owns (its values, its episode, its checks) is in learners/ (trainer.h: the interface,
 * learners/registry.c: the list); this file names none of them.
 */
#include "trainer.h"
#include "settings.h"

#include "azero.h"

#include "cli.h"
#include "clock.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oxo_train_defaults(oxo_train_config *c, oxo_algo algo)
{
    memset(c, 0, sizeof *c);
    c->algo = algo;
    c->symmetric = 1;
    snprintf(c->alpha.kind, sizeof c->alpha.kind, "constant");
    snprintf(c->epsilon.kind, sizeof c->epsilon.kind, "exponential");
    /* The tabular learners learn from play that keeps exploring (epsilon from 1 down to 0.5):
     * tic-tac-toe is graded on every reachable position, also those only bad play reaches. See
     * train/RECORD.md for the measurements behind these values. */
    c->epsilon.start = 1.0;
    c->epsilon.end = 0.5;
    c->epsilon.length = 5000;
    c->gamma = 0.9;
    c->init = 0.5;
    c->alpha.length = 0;
    const oxo_learner *l = oxo_learner_of(algo);
    if (l && l->defaults)
        l->defaults(c);
    c->opp_self = 1;
    c->sync = 1000;
    c->seed = 1;
    c->workers = 1;
}

double oxo_schedule_at(const oxo_schedule *s, uint64_t k)
{
    if (s->kind[0] == 'c' || s->length == 0 || k >= s->length)
        return s->kind[0] == 'c' ? s->start : s->end;
    double f = (double)k / (double)s->length;
    if (s->kind[0] == 'l')
        return s->start + (s->end - s->start) * f;
    return s->start * pow(s->end / s->start, f);
}

void oxo_replay_push(oxo_replay *r, const uint32_t *record)
{
    memcpy(r->items + (size_t)r->head * r->record, record, r->record * sizeof *record);
    r->head = (r->head + 1) % r->capacity;
    if (r->count < r->capacity)
        r->count++;
}

const uint32_t *oxo_replay_sample(const oxo_replay *r, uint64_t *rng)
{
    return r->items + (size_t)oxo_rng_below(rng, r->count) * r->record;
}

/* Worker k's episodes of the round [start, end): episode e belongs to worker (e - start) mod W. */
/* Returns the episode the round ended at: end, or with one worker the first episode not played
 * when a signal asked to stop. A lone worker's episodes are the same whatever the rounds (each
 * draws from its own stream, and there is no merge), so a run stopped there and resumed makes the
 * same bytes as a straight one; several workers stop at the round's end, where their copies merge
 * (issue 49: a round against a slow opponent took minutes to answer SIGTERM). */
static uint64_t play_round(oxo_trainer *t, uint32_t k, uint64_t start, uint64_t end)
{
    for (uint64_t e = start + k; e < end; e += t->c.workers) {
        if (t->c.workers == 1 && t->stop && *t->stop)
            return e;
        t->learner->episode(t, &t->w[k], e);
    }
    return end;
}

void oxo_trainer_set_stop(oxo_trainer *t, volatile int *stop)
{
    t->stop = stop;
}

/* The weights at the end of this round join the running mean (incremental, in float, so that a run
 * resumed from the mean a model holds continues it bit for bit). Weight averaging (Polyak and
 * Juditsky; SWA in deep learning): the weights of one run wander around what self-play settles
 * on, the steps still at a learning rate of 0.002, and on 7x6 the mean of the last half's weights
 * wins more games bare than the last weights do, on 15 training seeds of 24, the mean of the last
 * 30% (the default) more than the last half's on 18 (train/RECORD.md, n-tuple networks). */
static void average_take(oxo_trainer *t)
{
    const uint32_t n = ++t->avg_count;
    if (n == 1)
        memcpy(t->avg, t->values, t->nvalues * sizeof *t->avg);
    else
        for (uint32_t i = 0; i < t->nvalues; i++)
            t->avg[i] += (t->values[i] - t->avg[i]) / (float)n;
}

void oxo_trainer_run(oxo_trainer *t, uint64_t until)
{
    const uint32_t W = t->c.workers;
    if (until > t->episodes) /* the weights learn on: no longer those the search phase left */
        t->searched_games = t->searched_iterations = 0, t->searched_alpha = 0;
    /* No more threads than workers: an idle thread only costs. */
    const int threads = omp_get_max_threads() < (int)W ? omp_get_max_threads() : (int)W;
    /* Which thread plays a worker changes nothing in what it plays, so the number of threads can
     * follow the machine: a round is played by the team, or by one thread when the team does not
     * pay. Each thread of a team round measures the CPU time its workers took: their sum is what
     * one thread running undisturbed would have needed, so the round's efficiency (that sum over
     * the round's wall time) says whether the team paid without playing rounds alone only to
     * compare (an idle 2-core machine gives about 1.8). On a busy machine a thread of the team is
     * often not running when its round starts, and the round waits for it (a woken thread waits for
     * the next scheduler tick, 4 ms here): the efficiency falls under what one thread does alone
     * (1 idle, 1/2 to 1 busy: lone rounds measure it the same way), and the rounds go to one
     * thread, the team being tried again after as many rounds as keep the tries under 5% of the
     * time, and after twice as many as the last time when a try fails (a machine that stays busy
     * stops paying for tries: 2 workers over 1 on busy cores, td, medians of 9 interleaved runs,
     * 0.95x with a fixed gap, 1.03x with the doubling; q 1.02x and 1.01x; idle unchanged). A
     * round far under (half: it waited milliseconds for a thread) sets the team aside at once;
     * otherwise the average of the last rounds decides, so that one round the system interrupted
     * does not. Judged against 1 instead, the team was set aside on two busy cores
     * where it was as fast as one thread or faster (1,000,000 and 10,000,000 tabular episodes,
     * both cores busy with two other processes, medians of 5-7 interleaved runs, 2 workers over
     * 1: q 0.95-0.99x before and 0.99-1.04x after, td 0.94-0.99x and 0.96-1.00x). The first team
     * round after lone ones pays for waking the threads and is not judged. Rounds of
     * `sync` episodes are played also with one worker (where they change nothing): the stop flag is
     * looked at between rounds, so a signal is answered within one round. */
    while (t->episodes < until && !(t->stop && *t->stop)) {
        uint64_t start = t->episodes;
        uint64_t end = (start / t->c.sync + 1) * t->c.sync;
        end = end < until ? end : until;
        uint64_t round = t->rounds;
        int probe = t->team_off && (round == t->next_probe || round == t->next_probe + 1);
        int team = threads > 1 && (!t->team_off || probe);
        double t0 = omp_get_wtime(), cpu = 0;
        /* Each thread plays its own workers (k = thread, thread + threads, ...), round after round,
         * so that a worker's copy stays in the caches of the core that plays on it; a thread that
         * has played its own then takes any worker not yet claimed, so that a thread the system
         * has not run yet finds its workers played by another instead of holding the round up.
         * Workers went to threads first come, first served before: the pairing changed in about
         * half of the rounds, and each change moved a worker's copy (4 MB for 7x6's network) to
         * the other core (train/RECORD.md, the speed of the n-tuple learner). Which thread plays a
         * worker changes nothing in what it plays. */
        if (team) {
            for (uint32_t k = 0; k < W; k++)
                t->w[k].claimed = 0;
            /* The whole round in one parallel region: the episodes, then the merge and the
             * workers' copies refreshed, slice by slice, by the team. With one slice (the
             * tabular learners on small games: 2,270 Q values on tic-tac-toe) the merge is
             * microseconds and its four barriers cost more, each a wait for a thread the system
             * may not be running on a busy machine: it follows the region, on this thread. */
            const int split = W > 1 && t->nslices > 1, pair = merges_pairwise(t);
#pragma omp parallel num_threads(threads)
            {
                const int me = omp_get_thread_num(), T = omp_get_num_threads();
                for (uint32_t pass = 0; pass < 2; pass++) /* its own workers, then any left */
                    for (uint32_t k = pass ? 0 : (uint32_t)me; k < W; k += pass ? 1 : (uint32_t)T) {
                        int taken;
#pragma omp atomic capture
                        {
                            taken = t->w[k].claimed;
                            t->w[k].claimed = 1;
                        }
                        if (taken)
                            continue;
                        double c0 = oxo_thread_seconds();
                        play_round(t, k, start, end);
                        t->w[k].cpu = oxo_thread_seconds() - c0;
                        t->w[k].thread = me;
                    }
#pragma omp barrier
                if (pair) { /* each thread merges into the copy it played on */
                    for (uint32_t k = 0; k < 2; k++)
                        if (t->w[k].thread == me)
                            merge_post(t, k);
#pragma omp barrier
                    for (uint32_t k = 0; k < 2; k++)
                        if (t->w[k].thread == me)
                            merge_pair(t, k);
                } else if (split && !t->vmax) { /* td, ntuple */
                    const int64_t S = t->nslices;
#pragma omp for schedule(dynamic, 1)
                    for (int64_t q = 0; q < S; q++)
                        merge_values(t, (uint32_t)q);
                } else if (split) { /* q: the best Q of the nodes touched, between */
                    const int64_t S = t->nslices;
#pragma omp for schedule(dynamic, 1)
                    for (int64_t q = 0; q < S; q++)
                        merge_slice(t, (uint32_t)q);
#pragma omp single
                    merge_union_max(t);
#pragma omp for schedule(static)
                    for (int64_t k = 0; k < (int64_t)W; k++)
                        merge_worker_max(t, k);
#pragma omp for schedule(dynamic, 1)
                    for (int64_t q = 0; q < S; q++)
                        merge_reset_slice(t, (uint32_t)q);
                }
            }
            if (!split && !pair)
                merge_round(t); /* nothing with one worker */
            for (uint32_t k = 0; k < W; k++)
                cpu += t->w[k].cpu;
        } else { /* no OpenMP call at all: even a team of one costs a round's worth of time */
            double c0 = threads > 1 ? oxo_thread_seconds() : 0;
            uint64_t reached = end;
            for (uint32_t k = 0; k < W; k++)
                reached = play_round(t, k, start, end); /* short of end with one worker only */
            if (threads > 1)
                cpu = oxo_thread_seconds() - c0;
            merge_round(t);
            end = reached;
        }
        const double wall = omp_get_wtime() - t0;
        if (!team && threads > 1 && wall > 0) {
            const double eff = fmin(cpu / wall, 1);
            t->lone = t->lone > 0 ? 0.75 * t->lone + 0.25 * eff : eff;
            t->lone_round = round;
        }
        if (team && team == t->last_team && wall > 0) {
            const double eff = cpu / wall;
            /* The team is judged against what one thread does in the same time, lately: its share
             * of a core (1 on an idle machine; on two cores kept busy by two other processes 1/2
             * to 1, where a team at 0.9 still pays), taken as 1 until lone rounds are seen. */
            const double bar = t->lone > 0 ? t->lone : 1;
            t->efficiency = t->efficiency > 0 ? 0.75 * t->efficiency + 0.25 * eff : eff;
            const int lost = (eff < 0.5 * bar && t->judged > 1) || t->efficiency < bar;
            t->judged++;
            if (lost && (!t->team_off || round == t->next_probe + 1)) {
                /* A try costs (bar/eff - 1) rounds more than one thread would have taken. When
                 * the lone measure is missing or old (the load may have changed since), the lone
                 * rounds measure it afresh and the team is tried again after four. */
                const int stale = t->lone <= 0 || round - t->lone_round > 8;
                if (stale)
                    t->lone = 0;
                t->team_off = 1;
                t->efficiency = 0;
                /* Every setting aside on a fresh lone measure doubles the last gap at least (the
                 * machine stays busy). Once the team has paid for more than 8 rounds the lone
                 * measure is stale, so the next setting aside starts again from 4 rounds: the
                 * doubling only goes on while tries fail or pay for a few rounds at most. */
                uint64_t gap = (uint64_t)fmin(fmax(20 * bar / fmax(eff, 1e-6), 16), 1e6);
                if (!stale && gap < 2 * t->probe_gap)
                    gap = t->probe_gap < 500000 ? 2 * t->probe_gap : 1000000;
                t->probe_gap = stale ? 4 : gap;
                t->next_probe = round + t->probe_gap;
            } else if (!lost)
                t->team_off = 0;
        }
        t->last_team = team;
        t->episodes = end;
        t->rounds++;
        if (t->avg && end > start && end >= t->c.avg_from && end % t->c.avg_every == 0)
            average_take(t);
    }
}

uint32_t oxo_trainer_average_finish(oxo_trainer *t)
{
    const uint32_t n = t->avg_count;
    if (n) {
        memcpy(t->values, t->avg, t->nvalues * sizeof *t->values);
        t->avg_count = 0;
        trainer_sync(t);
    }
    return n;
}

/* What a model of this trainer may weigh when saved, at most: its values and its replay rings as
 * full as `episodes` episodes can fill them (q records one transition per move, td one episode),
 * plus the settings. */
uint64_t oxo_trainer_model_bound(const oxo_trainer *t, uint64_t episodes)
{
    const oxo_train_config *c = &t->c;
    uint64_t per_worker = (episodes + c->workers - 1) / c->workers;
    uint64_t pushes = t->learner->ring_moves ? per_worker * (uint64_t)t->g->max_plies : per_worker;
    uint64_t records = pushes < c->replay_capacity ? pushes : c->replay_capacity;
    uint64_t record = t->learner->ring_moves ? 1 : (uint64_t)t->g->max_plies + 1;
    uint64_t bound =
        4096 + 4 * (uint64_t)t->nvalues + (uint64_t)c->workers * (records * record * 4 + 64);
    if (t->avg)
        bound += 4 * (uint64_t)t->nvalues + 64; /* the mean so far */
    return t->learner->model_extra ? bound + t->learner->model_extra(t) : bound;
}

/* Derived state from the shared values: the best Q of each node, and the workers' copies. */
void trainer_sync(oxo_trainer *t)
{
    if (t->vmax)
        merge_all_max(t->space, t->values, t->vmax);
    if (t->c.workers > 1)
        for (uint32_t k = 1; k < t->c.workers; k++) { /* the first plays on the shared values */
            memcpy(t->w[k].local, t->values, t->nvalues * sizeof *t->values);
            if (t->vmax)
                memcpy(t->w[k].vmax, t->vmax, t->space->n * sizeof *t->vmax);
        }
}

void oxo_trainer_free(oxo_trainer *t)
{
    if (!t)
        return;
    if (t->w)
        for (uint32_t k = 0; k < t->c.workers; k++) {
            if (t->w[k].local != t->values)
                free(t->w[k].local);
            if (t->w[k].vmax != t->vmax)
                free(t->w[k].vmax);
            free(t->w[k].touched);
            free(t->w[k].tlist);
            free(t->w[k].tcnt);
            free(t->w[k].ring.items);
            free(t->w[k].outbox);
            if (t->learner->worker_free)
                t->learner->worker_free(&t->w[k]);
            oxo_agent_free(t->w[k].agent);
        }
    free(t->w);
    free(t->avg);
    if (t->learner->free_values)
        t->learner->free_values(t);
    else
        free(t->values);
    free(t->table_best);
    free(t->open_nodes);
    free(t->twin);
    free(t->enode);
    free(t->ulist);
    free(t->ucnt);
    free(t->umark);
    free(t->vmax);
    oxo_space_free(t->space);
    free(t);
}

/* A worker's array, zeroed, on pages of its own: where one worker's array ended and another's
 * began in one cache line (the root's moves are learned at every episode), two threads wrote
 * that line in turn; page-aligned, q's team rounds ran 5% faster (measured side by side). */
void *worker_alloc(size_t n)
{
    const size_t page = 4096, bytes = (n + page - 1) / page * page;
    void *p = aligned_alloc(page, bytes ? bytes : page);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* What every trainer starts from: its settings, game and truth. */
oxo_trainer *trainer_alloc(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth)
{
    oxo_trainer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->c = *c;
    t->learner = oxo_learner_of(c->algo);
    t->last_team = -1; /* the first round, whatever its mode, pays for starting it */
    /* The team starts trusted, as if it had just played a round at 1.5, and the first two rounds
     * it is judged on cannot set it aside at once: on an idle machine one run in ten had a slow
     * first judged round (0.38-0.59: a thread late to run) and then played nearly all its 50
     * rounds on one thread (1.3x instead of 1.9x over one worker). On a busy machine the team
     * now goes aside after three slow rounds instead of one, a round at about 0.6 costing about
     * what a lone round does there. */
    t->efficiency = 1.5;
    t->g = g;
    t->truth = truth;
    return t;
}

int trainer_grade_player(const oxo_trainer *t, oxo_player *p, int solve, oxo_grade *g)
{
    if (!p || (!t->space && !t->judge)) {
        oxo_player_close(p);
        return -1;
    }
    int rc = t->space ? oxo_grade_run(t->truth, p, t->space, t->c.seed ^ 0x5eed, g)
                      : oxo_grade_judged(t->judge, t->truth, p, t->c.seed ^ 0x5eed, solve, g);
    oxo_player_close(p);
    return rc;
}

int trainer_workers(oxo_trainer *t, oxo_error *err)
{
    const oxo_train_config *c = &t->c;
    /* Worker is aligned to 64 bytes, so its size is a multiple of 64 as aligned_alloc asks. */
    t->w = aligned_alloc(64, c->workers * sizeof *t->w);
    if (!t->w)
        goto nomem;
    memset(t->w, 0, c->workers * sizeof *t->w);
    if (c->workers > 1) {
        t->nslices = (uint32_t)(((size_t)t->nvalues + (1u << SLICE_SHIFT) - 1) >> SLICE_SHIFT);
        if (t->vmax) { /* q's merge lists the entries touched once, for the best Q of their nodes */
            t->ulist = malloc(t->nvalues * sizeof *t->ulist);
            t->ucnt = calloc(t->nslices, sizeof *t->ucnt);
            t->umark = calloc(((size_t)t->nvalues + 63) / 64, sizeof *t->umark);
            if (!t->ulist || !t->ucnt || !t->umark)
                goto nomem;
        }
    }
    uint32_t record = t->learner->ring_moves ? 1 : (uint32_t)t->g->max_plies + 1;
    for (uint32_t k = 0; k < c->workers; k++) {
        worker *w = &t->w[k];
        if (k == 0) {
            /* The first worker plays on the shared values themselves: a round's merge (the mean
             * of the values of the workers that touched an entry) needs only the workers' values,
             * never the round's starting ones, so there is one copy fewer to read, write and keep
             * in cache (7x6's n-tuple network: 37 MB a copy). */
            w->local = t->values;
            w->vmax = t->vmax;
        } else {
            w->local = t->learner->copy_alloc ? t->learner->copy_alloc(t->nvalues)
                                              : worker_alloc(t->nvalues * sizeof *w->local);
            if (t->vmax)
                w->vmax = worker_alloc(t->space->n * sizeof *w->vmax);
            if (!w->local || (t->vmax && !w->vmax))
                goto nomem;
            memcpy(w->local, t->values, t->nvalues * sizeof *w->local);
        }
        if (c->workers > 1) {
            w->touched = worker_alloc(((size_t)t->nvalues + 63) / 64 * sizeof *w->touched);
            /* A network's weights are merged by their marks alone (nt_write): no lists. */
            if (!t->learner->merge_marks) {
                w->tlist = worker_alloc(t->nvalues * sizeof *w->tlist);
                w->tcnt = worker_alloc(t->nslices * sizeof *w->tcnt);
            }
            if (!w->touched || (!t->learner->merge_marks && (!w->tlist || !w->tcnt)))
                goto nomem;
        }
        w->ring.record = record;
        w->ring.capacity = c->replay_capacity;
        if (c->replay_capacity) {
            w->ring.items =
                worker_alloc((size_t)c->replay_capacity * record * sizeof *w->ring.items);
            if (!w->ring.items)
                goto nomem;
        }
        if (c->opp_agent > 0) {
            if (!(w->agent = oxo_agent_open(t->g, c->opp_agent_spec, err))) {
                oxo_context(err, "opponent");
                oxo_trainer_free(t);
                return -1;
            }
        }
        if (t->learner->worker_init && t->learner->worker_init(t, w))
            goto nomem;
        /* Room for every weight; the pages are taken as rounds fill them (a quarter of 7x6's). */
        if (merges_pairwise(t) && !(w->outbox = malloc(2 * (size_t)t->nvalues * sizeof *w->outbox)))
            goto nomem;
    }
    trainer_sync(t);
    return 0;
nomem:
    oxo_fail(err, OXO_E_NOMEM, "the workers' copies of %u values", t->nvalues);
    oxo_trainer_free(t);
    return -1;
}

oxo_trainer *oxo_trainer_new(const oxo_train_config *c, const oxo_player *truth, oxo_error *err)
{
    return oxo_trainer_new_on(c, oxo_player_game(truth), truth, err);
}

oxo_trainer *oxo_trainer_new_on(const oxo_train_config *c, const oxo_game *g,
                                const oxo_player *truth, oxo_error *err)
{
    const oxo_learner *l = oxo_learner_of(c->algo);
    if (!l) {
        oxo_fail(err, OXO_E_ARG, "no learner %d", (int)c->algo);
        return NULL;
    }
    return l->create(c, g, truth, err);
}

const oxo_ntuple *oxo_trainer_net(const oxo_trainer *t)
{
    return t->net;
}

uint64_t oxo_trainer_moves(const oxo_trainer *t)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < t->c.workers; k++)
        n += t->w[k].moves;
    return n;
}

oxo_trainer *oxo_trainer_resume(const oxo_model *m, const oxo_player *truth, oxo_error *err)
{
    return oxo_trainer_resume_on(m, oxo_player_game(truth), truth, NULL, err);
}

oxo_trainer *oxo_trainer_resume_on(const oxo_model *m, const oxo_game *g, const oxo_player *truth,
                                   const struct oxo_judge *train_set, oxo_error *err)
{
    oxo_train_config c;
    memset(&c, 0, sizeof c);
    oxo_game *mg = oxo_game_open(m->game, NULL);
    int same = mg && oxo_game_same(mg, g);
    oxo_game_free(mg);
    if (!same) {
        oxo_fail(err, OXO_E_ARG, "the model is for %s, the run for %s", m->game, g->spec);
        return NULL;
    }
    const oxo_learner *l = oxo_learner_named(m->algo);
    if (!l) { /* the reader takes only the registry's; a caller's model may say anything */
        oxo_fail(err, OXO_E_ARG, "the model's algo '%s' is no learner of this trainer", m->algo);
        return NULL;
    }
    c.algo = l->algo;
    c.nt_count = m->nt_count;
    c.nt_len = m->nt_len;
    c.nt_horizon = m->nt_horizon;
    c.nt_sets = m->nt_sets;
    c.nt_start_depth = m->nt_start_depth;
    c.nt_target = m->nt_target;
    c.nt_defend = m->nt_defend;
    c.nt_cells = m->nt_cells;
    c.ne_population = m->ne_population;
    c.ne_species = m->ne_target_species;
    c.ne_positions = m->ne_positions;
    c.ne_games = m->ne_games;
    c.ne_train = train_set;
    c.ne_inputs = m->ne_inputs;
    c.az_sims = m->az_sims, c.az_games = m->az_games, c.az_layers = m->az_layers;
    c.az_width = m->az_width[0], c.az_batch = m->az_batch, c.az_window = m->az_window;
    c.az_temp_moves = m->az_temp_moves, c.az_ratio = m->az_ratio, c.az_value_q = m->az_value_q;
    c.az_random = m->az_random, c.az_rgames = m->az_rgames, c.az_rmargin = m->az_rmargin;
    c.az_inputs = oxo_az_inputs_of(m->az_lines, m->az_threats);
    c.avg_from = m->avg_from;
    c.avg_every = m->avg_every;
    c.symmetric = m->symmetric;
    oxo_settings_load(m, &c); /* the learning settings' table: those the model stores */
    c.replacing = strcmp(m->trace, "replacing") == 0;
    c.opp_self = m->opp_self;
    c.opp_random = m->opp_random;
    c.opp_table = m->opp_table;
    c.opp_agent = m->opp_agent;
    snprintf(c.opp_agent_spec, sizeof c.opp_agent_spec, "%s", m->opp_agent_spec);
    c.sync = m->sync;
    c.workers = m->workers;
    if (c.replay_capacity && m->nrings != c.workers) {
        oxo_fail(err, OXO_E_ARG,
                 "the model uses replay but holds %u replay rings for %u workers; it cannot "
                 "be resumed exactly",
                 m->nrings, c.workers);
        return NULL;
    }
    oxo_trainer *t = oxo_trainer_new_on(&c, g, truth, err);
    if (!t)
        return NULL;
    t->searched_games = m->nt_search_games;
    t->searched_iterations = m->nt_search_iterations;
    t->searched_alpha = m->nt_search_alpha;
    if (t->learner->load(t, m, err)) {
        oxo_trainer_free(t);
        return NULL;
    }
    trainer_sync(t);
    for (uint32_t k = 0; k < c.workers; k++) {
        if (c.replay_capacity) {
            const oxo_replay_ring *r = &m->rings[k];
            if (r->nitems != r->count * t->w[k].ring.record) {
                oxo_fail(err, OXO_E_ARG, "replay ring %u has %u items for %u records", k, r->nitems,
                         r->count);
                oxo_trainer_free(t);
                return NULL;
            }
            if (t->learner->check_ring(t, r, k, err)) {
                oxo_trainer_free(t);
                return NULL;
            }
            memcpy(t->w[k].ring.items, r->items, r->nitems * sizeof *r->items);
            t->w[k].ring.head = r->head;
            t->w[k].ring.count = r->count;
        }
    }
    t->episodes = m->episodes;
    return t;
}

const oxo_train_config *oxo_trainer_config(const oxo_trainer *t)
{
    return &t->c;
}
uint64_t oxo_trainer_episodes(const oxo_trainer *t)
{
    return t->episodes;
}
const oxo_space *oxo_trainer_space(const oxo_trainer *t)
{
    return t->space;
}
const float *oxo_trainer_values(const oxo_trainer *t)
{
    return t->values;
}

oxo_player *oxo_trainer_player(const oxo_trainer *t)
{
    return t->learner->player(t);
}

void oxo_trainer_set_judge(oxo_trainer *t, const oxo_judge *j)
{
    t->judge = j;
}

int oxo_trainer_grade(const oxo_trainer *t, oxo_grade *g)
{
    return t->learner->grade(t, t->values, 1, g);
}

uint32_t oxo_trainer_averaged(const oxo_trainer *t)
{
    return t->avg_count;
}

void oxo_trainer_set_search_progress(oxo_trainer *t, oxo_search_progress *fn, void *ctx)
{
    t->search_progress = fn;
    t->search_ctx = ctx;
}

uint32_t oxo_trainer_searched(const oxo_trainer *t, uint32_t *iterations, double *alpha)
{
    if (iterations)
        *iterations = t->searched_iterations;
    if (alpha)
        *alpha = t->searched_alpha;
    return t->searched_games;
}

int oxo_trainer_learn_game(oxo_trainer *t, const oxo_pos *line, int n, oxo_error *err)
{
    if (!t->learner->played)
        return oxo_fail(err, OXO_E_ARG, "--algo %s does not learn from games played elsewhere",
                        t->learner->name);
    if (t->c.workers != 1)
        return oxo_fail(err, OXO_E_ARG,
                        "a game played elsewhere is learned with one worker (not %u)",
                        t->c.workers);
    return t->learner->played(t, line, n, err);
}

int oxo_trainer_grade_mean(const oxo_trainer *t, int solve, oxo_grade *g)
{
    return t->learner->grade(t, t->avg_count ? t->avg : t->values, solve, g);
}

oxo_model *oxo_trainer_model(const oxo_trainer *t, const oxo_grade *g, const char *parent)
{
    oxo_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    const oxo_train_config *c = &t->c;
    snprintf(m->game, sizeof m->game, "%s", t->g->spec);
    m->rows = (uint32_t)t->g->rows;
    m->cols = (uint32_t)t->g->cols;
    snprintf(m->algo, sizeof m->algo, "%s", t->learner->name);
    if (t->learner->to_model(t, m))
        goto fail;
    oxo_settings_store(c, m); /* the learning settings' table: those the model stores */
    snprintf(m->trace, sizeof m->trace, "%s", c->replacing ? "replacing" : "accumulating");
    m->replay_record = c->replay_capacity ? t->w[0].ring.record : 0;
    m->opp_self = c->opp_self;
    m->opp_random = c->opp_random;
    m->opp_table = c->opp_table;
    m->opp_agent = c->opp_agent;
    snprintf(m->opp_agent_spec, sizeof m->opp_agent_spec, "%s", c->opp_agent_spec);
    m->sync = c->sync;
    m->workers = c->workers;
    m->episodes = t->episodes;
    m->accuracy = g->accuracy;
    m->accuracy_distance = g->accuracy_distance;
    m->losses_as_x = g->losses_as_x;
    m->losses_as_o = g->losses_as_o;
    /* A judged grade's losses are games against the perfect player: where none were played the
     * model says so (minor 11), so that its losses are not read as a result; where some were, it
     * keeps the minor of its own keys, the bytes it had before. */
    m->perfect_known = g->judged && !g->perfect_games;
    m->perfect_games = 0;
    memcpy(m->random_as_x, g->random_as_x, sizeof m->random_as_x);
    memcpy(m->random_as_o, g->random_as_o, sizeof m->random_as_o);
    snprintf(m->trainer, sizeof m->trainer, "oxo-train %s", OXO_VERSION);
    if (parent)
        snprintf(m->parent, sizeof m->parent, "%s", parent);
    m->minor = OXO_MODEL_MINOR; /* a network's weights in its own layout */
    if (!m->values) { /* unless the learner's to_model gave its own (neat: the links' weights) */
        m->nvalues = t->nvalues;
        m->values = malloc(t->nvalues * sizeof *m->values);
        if (!m->values)
            goto fail;
        memcpy(m->values, t->values, t->nvalues * sizeof *m->values);
    }
    m->avg_from = c->avg_from;
    m->avg_every = c->avg_every;
    m->avg_count = t->avg_count;
    m->nt_search_games = t->searched_games;
    m->nt_search_iterations = t->searched_iterations;
    m->nt_search_alpha = t->searched_alpha;
    if (t->avg_count) {
        if (!(m->avg_values = malloc(t->nvalues * sizeof *m->avg_values)))
            goto fail;
        memcpy(m->avg_values, t->avg, t->nvalues * sizeof *m->avg_values);
    }
    if (c->replay_capacity) {
        m->rings = calloc(c->workers, sizeof *m->rings);
        if (!m->rings)
            goto fail;
        m->nrings = c->workers; /* only now: oxo_model_free walks nrings rings */
        for (uint32_t k = 0; k < c->workers; k++) {
            const oxo_replay *r = &t->w[k].ring;
            m->rings[k].head = r->head;
            m->rings[k].count = r->count;
            m->rings[k].nitems = r->count * r->record;
            uint32_t nitems = r->count * r->record;
            m->rings[k].items = malloc((nitems ? nitems : 1) * sizeof(uint32_t));
            if (!m->rings[k].items)
                goto fail;
            memcpy(m->rings[k].items, r->items, (size_t)r->count * r->record * sizeof(uint32_t));
        }
    }
    return m;
fail:
    oxo_model_free(m);
    return NULL;
}
