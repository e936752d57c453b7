/*
 * The n-tuple learner (--algo ntuple): TD(lambda) on afterstates over an n-tuple network
 * (ntuple.h), by self-play, as GBG's agents learn; on boards of any size, graded on a judged set
 * where there is no table. Also the search phase after a run (oxo-train --search-games) and the
 * learner's defaults that depend on the game (game.h, oxo_learn_defaults).
 */
#include "trainer.h"

#include "clock.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two weight sets on Connect-4, where the same stones mean different things to the two players
 * (ntuple.h); one on m,n,k boards, where both players' afterstates teach the same weights: the
 * game says (its learn.weight_sets). Measured: see train/RECORD.md (n-tuple networks). */
uint32_t oxo_train_weight_sets(const oxo_game *g)
{
    return (uint32_t)g->learn.weight_sets;
}

/* Each player's weight set learns from its own afterstates on Connect-4: 7x6, 1,000,000 games,
 * seeds 1-8, games won as X against the perfect player 51-165 of 200 (median 140.5), against 0-155
 * (median 124.5) learning toward the opponent's next afterstate, whose values come from the other
 * set. Not measured on m,n,k boards, which keep the target they were tuned with. */
uint32_t oxo_train_target(const oxo_game *g)
{
    return g->learn.target_own ? OXO_NT_TARGET_OWN : OXO_NT_TARGET_NEXT;
}

/* The second player defends where it thinks itself lost (--defend) where the game says so: on
 * Connect-4 7x6, 1,000,000 games with the weights averaged over the last half, training seeds 1-24,
 * the median network won 183 of 200 games as X against the perfect player under puct:1000 (the
 * plain learner 169) and 163 bare (111), for 1.2x the time. On mnk:4,4,4 it did not pay
 * (train/RECORD.md, n-tuple networks). */
int oxo_train_defend(const oxo_game *g)
{
    return g->learn.defend;
}

uint32_t oxo_train_horizon(double lambda)
{
    uint32_t h = 1;
    for (double w = lambda; w >= 0.1 && h < 64; w *= lambda)
        h++;
    return h;
}

/* Adds a to the weights at idx (an afterstate's A active weights). */
static void nt_write(worker *w, const uint32_t *idx, int A, float a)
{
    float *wt = w->local;
    uint64_t *m = w->touched;
    if (!m) {
        for (int i = 0; i < A; i++)
            wt[idx[i]] += a;
        return;
    }
    /* Marks only, no lists: the network's weights are merged by their marks (merge_marks). */
    for (int i = 0; i < A; i++) {
        wt[idx[i]] += a;
        bit_set(m, idx[i]);
    }
}

/* Target "own" (nt_pass): adds step to the pending steps of the afterstate at slot, the j-th newest
 * of the history's hn (of a ring of H), and of the same player's older ones (every other slot),
 * the step decaying by f from one to the next. */
static inline void own_chain(float *pend, const float *hgrad, int slot, int j, int hn, int H,
                             float step, float f)
{
    for (; j < hn; j += 2) {
        pend[slot] += step * hgrad[slot];
        step *= f;
        slot = slot >= 2 ? slot - 2 : slot - 2 + H;
    }
}

/* One pass of afterstate TD(lambda) of an n-tuple network along a game, negamax form. The value of
 * a move is that of its afterstate for the mover (its result when it ends the game). The target of
 * an afterstate is minus gamma times the value of the best move the opponent then has, so the
 * traces of earlier afterstates decay by -gamma * lambda per move (the sign alternates with the
 * player), and are kept only for the active weights of the last nt_horizon afterstates: beyond
 * that lambda^h is negligible and the cost of an update stays bounded. That is the target "next".
 * With the target "own" an afterstate learns instead toward gamma times the value of the best move
 * its own player has two moves later, and the traces decay by gamma * lambda per move of that
 * player (the history holds both players' afterstates, every other one the mover's); when the game
 * ends, the other player's last afterstate learns minus the result. So with a weight set for each
 * player each set learns from its own values only, never from the other's (7x6: more games won
 * against the perfect player, see oxo_train_target). As in the tabular TD, an exploratory move cuts
 * the traces. Afterstates that end the game are never learned: their value is their result.
 * Each step changes all the active weights of an afterstate by one amount (the gradient of tanh of
 * the sum is the same for each), so the steps an afterstate receives while in the history are
 * added up and written to its weights once, when it leaves (the horizon, a cut, the end of the
 * game): one pass over its weights instead of one a move, which halved the time of a move (1.6x
 * to 1.9x more moves a second, measured side by side). The values read meanwhile miss those
 * pending steps, as if the updates came a few moves late; that changed nothing measurable in what
 * is learned (7x6, 1,000,000 games on 2 workers, seeds 1-3: 86.2%, 84.2% and 85.7% of moves keep
 * the value, against 86.1%, 85.0% and 85.2% with every step written at once), and small boards
 * learn faster at first. A move's value is the one it was chosen by. Every move of a position is
 * valued from the position's own sum and the slots the move changes (oxo_ntuple_walk_after_sum).
 * rec NULL: a game played now, epsilon-greedy, from an exploring start or the empty board; when
 * out is not NULL the game is written there as the replay ring records it (item 0 the opening's
 * moves, which are not learned, then every move, padded with UINT32_MAX). rec: a recorded game
 * replayed with the current weights; a move that is not the best under them cuts the traces as an
 * exploratory one does. */
static void nt_pass(oxo_trainer *t, worker *w, uint64_t *rng, uint64_t eps32, float alpha,
                    const uint32_t *rec, uint32_t *out)
{
    const oxo_train_config *c = &t->c;
    const oxo_game *g = t->g;
    const oxo_ntuple *net = &w->net;
    const float gamma = (float)c->gamma, decay = -gamma * (float)c->lambda;
    const int A = net->count * net->nsym, H = (int)c->nt_horizon;
    int hn = 0, head = 0; /* afterstates in the history; the slot of the next one */
    /* the steps each afterstate of the history has received (horizon <= 64) */
    float pend[64];
    float hval[64]; /* and the value each was chosen by */
    const int own = c->nt_target == OXO_NT_TARGET_OWN;
    float yprev = 0;
    uint32_t ply = 0;
    oxo_pos p = oxo_start(g);
    if (rec) {
        for (; ply < rec[0]; ply++)
            p = oxo_play(g, p, (int)rec[1 + ply]);
    } else if (c->starts > 0 && oxo_rng_unit(rng) < c->starts) {
        /* An exploring start: a random number of random moves (below the start depth, if one is
         * set), stopping before the end. */
        const uint32_t depth = c->nt_start_depth;
        int plies = (int)oxo_rng_below(
            rng, depth && depth < (uint32_t)g->max_plies ? depth : (uint32_t)g->max_plies);
        for (int i = 0; i < plies; i++) {
            int m = oxo_rng_bit(rng, oxo_legal(g, p));
            oxo_pos q = oxo_play(g, p, m);
            if (oxo_status_of(g, q) != OXO_ONGOING)
                break;
            p = q;
            if (out)
                out[1 + ply] = (uint32_t)m;
            ply++;
        }
    }
    if (out)
        out[0] = ply;
    oxo_ntuple_walk_start(net, &w->walk, p);
    for (;;) {
        int moves[OXO_MAX_MOVES], cand[OXO_MAX_MOVES], nc = 0, n = 0, ch = 0;
        float v[OXO_MAX_MOVES], sum[OXO_MAX_MOVES], best = -INFINITY, smax = -INFINITY;
        uint64_t ongoing = 0; /* the moves valued by the network, not by their result */
        const float base = oxo_ntuple_walk_base(net, &w->walk, p);
        for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
            int m = __builtin_ctzll(legal);
            oxo_status st = oxo_status_of(g, oxo_play(g, p, m));
            moves[n] = m;
            if (st == OXO_ONGOING) {
                sum[n] = oxo_ntuple_walk_after_sum(net, &w->walk, p, m, base);
                smax = sum[n] > smax ? sum[n] : smax;
                ongoing |= 1ull << n;
            } else
                v[n] = st == OXO_OVER_LOSS ? 1.0f : 0.0f;
            if (rec && (uint32_t)m == rec[1 + ply])
                ch = n;
            n++;
        }
        /* tanh only where it can matter (it was a tenth of the run's time, for every move): the
         * best sums, and every sum when the best is where tanh saturates (beyond 4 either way:
         * there distinct sums round to the same float, near 1 or -1, and tie). A sum 0.01 under
         * the best one, when the best is within -4..4, has a tanh lower by at least 1.3e-5,
         * hundreds of float steps, so it is neither the best nor tied with it, nor with a result
         * (1 needs a sum near 9; 0 a sum of 0, above the best when the best is negative). Such a
         * move's value is computed only if it is played (exploration). The same values where
         * computed, the same best moves and ties, so the same bytes. */
        uint64_t lazy = 0;
        for (int i = 0; i < n; i++) {
            if (ongoing >> i & 1) {
                if (fabsf(smax) > 4 || sum[i] >= smax - 0.01f)
                    v[i] = oxo_ntuple_tanh(sum[i]);
                else {
                    lazy |= 1ull << i;
                    continue;
                }
            }
            if (v[i] > best) {
                best = v[i];
                nc = 0;
            }
            if (v[i] == best)
                cand[nc++] = i;
        }
        if (!rec) {
            uint64_t r = oxo_rng_next(rng);
            const int explored = (r >> 32) < eps32;
            if (explored)
                ch = (int)(((r & 0xffffffffu) * (uint64_t)n) >> 32);
            else
                ch = cand[nc == 1 ? 0 : oxo_rng_below(rng, (uint32_t)nc)];
            if (!explored && c->nt_defend && (oxo_ply(p) & 1) && best < OXO_NT_DEFEND_BELOW) {
                /* The second player, thinking itself lost, resists as the perfect player does,
                 * so that the first learns the lines where the win must be found, not given:
                 * self-play's loser otherwise plays any move, and the first player's values
                 * of the lines a resisting defender steers into stay unlearned. A move other
                 * than the greedy one cuts the traces below, as an exploratory one does. */
                const int m = oxo_ntuple_walk_least_reply(net, &w->walk, p);
                for (int i = 0; i < n; i++)
                    if (moves[i] == m)
                        ch = i;
            }
        }
        if (lazy >> ch & 1)
            v[ch] = oxo_ntuple_tanh(sum[ch]);
        const int explore = v[ch] != best;
        if (own) {
            /* The mover's previous afterstate's error, spread over the mover's afterstates of the
             * history (from the second newest). */
            if (hn >= 2) {
                const int slot = head >= 2 ? head - 2 : head - 2 + H;
                own_chain(pend, w->hgrad, slot, 1, hn, H, alpha * (gamma * best - hval[slot]),
                          -decay);
            }
        } else if (hn) {
            /* The previous afterstate's error, spread over the history, newest first. */
            float step = alpha * (-gamma * best - yprev);
            for (int j = 0, slot = head; j < hn; j++) {
                slot = slot ? slot - 1 : H - 1;
                pend[slot] += step * w->hgrad[slot];
                step *= decay;
            }
        }
        if (!rec)
            w->moves++;
        if (out)
            out[1 + ply] = (uint32_t)moves[ch];
        ply++;
        oxo_pos q = oxo_play(g, p, moves[ch]);
        const int over = oxo_status_of(g, q) != OXO_ONGOING;
        if (own && over && hn) {
            /* The other player moves no more: its last afterstate learns the result, for it. */
            const int slot = head ? head - 1 : H - 1;
            own_chain(pend, w->hgrad, slot, 0, hn, H, alpha * (-v[ch] - hval[slot]), -decay);
        }
        if (explore || over) {
            for (int j = 0, slot = head; j < hn; j++) {
                slot = slot ? slot - 1 : H - 1;
                nt_write(w, w->hist + (size_t)slot * A, A, pend[slot]);
            }
            hn = 0;
        }
        if (over)
            break;
        if (hn == H) /* the oldest leaves: its slot is the next one */
            nt_write(w, w->hist + (size_t)head * A, A, pend[head]);
        oxo_ntuple_walk_indexes(net, &w->walk, p, moves[ch], w->hist + (size_t)head * A);
        yprev = v[ch];
        hval[head] = yprev;
        w->hgrad[head] = 1 - yprev * yprev;
        pend[head] = 0;
        head = head + 1 == H ? 0 : head + 1;
        hn = hn < H ? hn + 1 : H;
        oxo_ntuple_walk_play(net, &w->walk, p, moves[ch]);
        p = q;
    }
    if (out)
        for (uint32_t j = 1 + ply; j < w->ring.record; j++)
            out[j] = UINT32_MAX;
}

/* One self-play episode; with replay, the game joins the worker's ring and replay_ratio recorded
 * games (on average) are learned again, as the tabular TD replays its episodes. */
static void nt_episode(oxo_trainer *t, worker *w, uint64_t k)
{
    const oxo_train_config *c = &t->c;
    uint64_t rng = oxo_rng_stream(c->seed, k);
    const uint64_t eps32 = (uint64_t)(oxo_schedule_at(&c->epsilon, k) * 4294967296.0);
    const float alpha = (float)oxo_schedule_at(&c->alpha, k);
    uint32_t rec[OXO_MAX_MOVES + 2];
    nt_pass(t, w, &rng, eps32, alpha, NULL, w->ring.capacity ? rec : NULL);
    if (w->ring.capacity) {
        oxo_replay_push(&w->ring, rec);
        for (int r = replays(c->replay_ratio, &rng); r > 0; r--)
            nt_pass(t, w, &rng, eps32, alpha, oxo_replay_sample(&w->ring, &rng), NULL);
    }
}

/* The search phase (oxo-train --search-games): self-play led by puct over the network, the
 * apprentice learning from its own search (expert iteration, Anthony et al. 2017; as TD-Leaf and
 * Veness et al.'s search bootstrapping, but from the root of a tree search). In each position of
 * each game the move the search plays has its afterstate learn toward the search's value of it
 * (the mean of the results backed up through it), a step of alpha (by default the run's last)
 * with the gradient of tanh, as TD does; the game goes on with that move, or in the first
 * SEARCH_PLIES plies with probability SEARCH_EXPLORE with a move drawn at random, so that the games
 * leave the search's main lines (the exploring starts' share and depth on Connect-4). Measured with
 * 5,000 games of puct:200 after the defaults' 1,000,000 on 7x6 over 24 training seeds:
 * train/RECORD.md.
 *
 * The games are played in rounds of SEARCH_ROUND, as AlphaZero's self-play plays with the network
 * of the moment and learns after: every game of a round searches the weights as the round found
 * them (read only, so the workers' threads share them), each from its own random stream, and at the
 * round's end its afterstates learn toward their targets game after game, in the games' order. So
 * the bytes are the same whatever the number of threads, and the searches, nearly all of the
 * phase's time, run on as many threads as workers. A round of 50 games is about 0.4 s of one
 * thread on 7x6, a hundredth of 5,000 games. */
#define SEARCH_PLIES   12
#define SEARCH_EXPLORE 0.3
#define SEARCH_ROUND   50

/* A position the search phase learns from: the afterstate of the search's move and the target. */
typedef struct {
    oxo_pos after;
    float target;
} search_step;

/* Plays game k of the phase over the weights as they are (read only), writing its steps to out
 * (room for one a ply); the number of steps, or -1 when memory ran out. */
static int search_game(const oxo_trainer *t, oxo_player *value, uint32_t k, uint32_t iterations,
                       oxo_puct_move *pm, search_step *out)
{
    const oxo_game *g = t->g;
    /* "SEARCH": a stream apart */
    uint64_t rng = oxo_rng_stream(t->c.seed ^ 0x5345415243480000ull, k);
    int steps = 0;
    for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
        int n = 0, move = oxo_puct_root(g, value, p, iterations, OXO_PUCT_C, pm, &n);
        if (move < 0)
            return -1;
        for (int i = 0; i < n; i++)
            if (pm[i].move == move && !pm[i].ends)
                out[steps++] =
                    (search_step){oxo_play(g, p, move), (float)(pm[i].value > 1    ? 1
                                                                : pm[i].value < -1 ? -1
                                                                                   : pm[i].value)};
        if (oxo_ply(p) < SEARCH_PLIES && oxo_rng_unit(&rng) < SEARCH_EXPLORE)
            move = oxo_rng_bit(&rng, oxo_legal(g, p));
        p = oxo_play(g, p, move);
    }
    return steps;
}

int oxo_trainer_search(oxo_trainer *t, uint32_t games, uint32_t iterations, double rate)
{
    if (!t->net || !games)
        return 0;
    const oxo_game *g = t->g;
    const int nact = t->net->count * t->net->nsym, plies = g->cells + 1;
    const double a = rate > 0 ? rate : oxo_schedule_at(&t->c.alpha, t->episodes);
    const float alpha = (float)a;
    const int threads =
        omp_get_max_threads() < (int)t->c.workers ? omp_get_max_threads() : (int)t->c.workers;
    float *before = malloc(t->nvalues * sizeof *before);
    uint32_t *idx = malloc((size_t)nact * sizeof *idx);
    search_step *steps = malloc((size_t)SEARCH_ROUND * (size_t)plies * sizeof *steps);
    int count[SEARCH_ROUND];
    int rc = before && idx && steps ? 0 : -1;
    if (!rc)
        memcpy(before, t->values, t->nvalues * sizeof *before);
    for (uint32_t r = 0; !rc && r < games; r += SEARCH_ROUND) {
        if (t->stop && *t->stop) { /* stopped: the weights as they were, no half phase */
            rc = 1;
            break;
        }
        const uint32_t round = games - r < SEARCH_ROUND ? games - r : SEARCH_ROUND;
        int failed = 0;
#pragma omp parallel num_threads(threads) reduction(| : failed)
        {
            /* Each thread its own player and root (puct keeps no state across picks). */
            oxo_player *value = oxo_player_borrow_net(t->net);
            oxo_puct_move *pm = malloc((size_t)g->moves * sizeof *pm);
            failed = !value || !pm;
#pragma omp for schedule(dynamic, 1)
            for (uint32_t k = 0; k < round; k++)
                count[k] = failed ? -1
                                  : search_game(t, value, r + k, iterations, pm,
                                                steps + (size_t)k * plies);
            free(pm);
            oxo_player_close(value);
        }
        for (uint32_t k = 0; k < round && !failed; k++)
            failed = count[k] < 0;
        if (failed) {
            rc = -1;
            break;
        }
        for (uint32_t k = 0; k < round; k++)
            for (int i = 0; i < count[k]; i++) {
                const search_step *st = steps + (size_t)k * plies + i;
                oxo_ntuple_active(t->net, st->after, idx);
                const float v = oxo_ntuple_tanh(oxo_ntuple_sum(t->net, idx));
                const float step = alpha * (st->target - v) * (1 - v * v);
                for (int j = 0; j < nact; j++)
                    t->values[idx[j]] += step;
            }
        if (t->search_progress)
            t->search_progress(t->search_ctx, r + round, games);
    }
    if (rc && before)
        memcpy(t->values, before, t->nvalues * sizeof *before);
    if (!rc) {
        t->searched_games = games;
        t->searched_iterations = iterations;
        t->searched_alpha = a;
    }
    trainer_sync(t);
    free(before);
    free(idx);
    free(steps);
    return rc;
}

/* An n-tuple trainer: the network's tuples (given or drawn by random walks from the seed), zero
 * weights, no state space: it learns on boards of any size. */
static oxo_trainer *nt_create(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth,
                              oxo_error *err)
{
    if (c->opp_self < 1.0) {
        oxo_fail(err, OXO_E_ARG, "algo ntuple learns by self-play only (use --opponent self)");
        return NULL;
    }
    const uint32_t sets = c->nt_sets ? c->nt_sets : oxo_train_weight_sets(g);
    /* Checked before the tuples are drawn (a walk longer than the board has no cells to take). */
    if (!oxo_ntuple_check(g, c->nt_count, c->nt_len, sets, err))
        return NULL;
    if (c->nt_horizon < 1 || c->nt_horizon > 64) {
        oxo_fail(err, OXO_E_ARG, "horizon %u, expected 1 to 64 moves", c->nt_horizon);
        return NULL;
    }
    if (c->nt_target > OXO_NT_TARGET_OWN) {
        oxo_fail(err, OXO_E_ARG, "TD target %u, expected %d (next) or %d (own)", c->nt_target,
                 OXO_NT_TARGET_NEXT, OXO_NT_TARGET_OWN);
        return NULL;
    }
    if (!(c->nt_lines >= 0 && c->nt_lines <= 1)) {
        oxo_fail(err, OXO_E_ARG, "a share of tuples from lines of %g, expected 0 to 1",
                 c->nt_lines);
        return NULL;
    }
    oxo_trainer *t = trainer_alloc(c, g, truth);
    uint8_t *cells = malloc((size_t)c->nt_count * c->nt_len);
    if (!t || !cells) {
        free(t);
        free(cells);
        oxo_fail(err, OXO_E_NOMEM, "a network of %u tuples of %u cells", c->nt_count, c->nt_len);
        return NULL;
    }
    t->c.nt_cells = NULL; /* borrowed from the caller: the network keeps its own copy */
    t->c.nt_sets = sets;
    t->c.nt_target = c->nt_target ? c->nt_target : oxo_train_target(g);
    t->c.nt_defend = c->nt_defend < 0 ? oxo_train_defend(g) : c->nt_defend;
    if (c->nt_cells)
        memcpy(cells, c->nt_cells, (size_t)c->nt_count * c->nt_len);
    else if (oxo_ntuple_random_walks(g, (int)c->nt_count, (int)c->nt_len, c->nt_lines, c->seed,
                                     cells)) {
        oxo_fail(err, OXO_E_ARG, "no random walk of %u cells fits the board", c->nt_len);
        free(cells);
        free(t);
        return NULL;
    }
    t->net = oxo_ntuple_new(g, (int)c->nt_count, (int)c->nt_len, (int)sets, cells, NULL, err);
    free(cells);
    if (!t->net) {
        free(t);
        return NULL;
    }
    t->nvalues = t->net->nweights;
    t->values = t->net->w;
    if (c->avg_every) {
        if (c->avg_every % c->sync || c->avg_from % c->avg_every)
            oxo_fail(
                err, OXO_E_ARG,
                "averaging every %u episodes from episode %llu: the interval must be a multiple of "
                "sync (%u), the start a multiple of the interval",
                c->avg_every, (unsigned long long)c->avg_from, c->sync);
        else if (!(t->avg = malloc(t->nvalues * sizeof *t->avg)))
            oxo_fail(err, OXO_E_NOMEM, "averaging %u weights", t->nvalues);
        if (!t->avg) {
            oxo_ntuple_free(t->net);
            free(t);
            return NULL;
        }
    }
    if (trainer_workers(t, err))
        return NULL;
    return t;
}

/* The reader checked that each item is in range and padded the way the algorithm pads. Here, with
 * the state space at hand: an episode recorded by td is a path of moves from a position to the end
 * of the game, as play_episode records it; replaying anything else would teach values of moves
 * that do not exist. */
static int nt_check_ring(const oxo_trainer *t, const oxo_replay_ring *r, uint32_t k, oxo_error *err)
{
    const oxo_game *g = t->g;
    const uint32_t rec = t->w[k].ring.record;
    for (uint32_t i = 0; i < r->count; i++) {
        const uint32_t *ep = r->items + (size_t)i * rec;
        oxo_pos p = oxo_start(g);
        uint32_t j = 1;
        int ok = ep[0] < rec - 1;
        for (; ok && j < rec && ep[j] != UINT32_MAX; j++) {
            ok = oxo_status_of(g, p) == OXO_ONGOING && ep[j] < 64 && (oxo_legal(g, p) >> ep[j] & 1);
            if (ok)
                p = oxo_play(g, p, (int)ep[j]);
            /* the opening does not end it */
            ok = ok && (j > ep[0] || oxo_status_of(g, p) == OXO_ONGOING);
        }
        if (!ok || j - 1 <= ep[0] || oxo_status_of(g, p) == OXO_ONGOING) {
            oxo_fail(
                err, OXO_E_ARG,
                "replay ring %u game %u is not a game of %s played to its end after an opening "
                "of %u moves (move %u)",
                k, i, g->spec, ep[0], j);
            return -1;
        }
    }
    return 0;
}

static int nt_worker_init(oxo_trainer *t, worker *w)
{
    const oxo_train_config *c = &t->c;
    w->net = net_view(t->net, w->local);
    /* Written at every move, so on pages of their own (worker_alloc): from malloc, one worker's
     * history and the next worker's arrays could share cache lines, which the two threads then
     * wrote in turn (so could the walk's indexes: oxo_ntuple_walk_init). */
    w->hist = worker_alloc((size_t)c->nt_horizon * t->net->count * t->net->nsym * sizeof *w->hist);
    w->hgrad = worker_alloc(c->nt_horizon * sizeof *w->hgrad);
    return !w->hist || !w->hgrad || oxo_ntuple_walk_init(t->net, &w->walk) ? -1 : 0;
}

static void nt_worker_free(worker *w)
{
    free(w->hist);
    free(w->hgrad);
    oxo_ntuple_walk_free(&w->walk);
}

static void nt_free_values(oxo_trainer *t)
{
    oxo_ntuple_free(t->net); /* it owns the shared weights */
}

static oxo_player *nt_player(const oxo_trainer *t)
{
    return oxo_player_borrow_net(t->net);
}

/* Grades the network with the weights w (the current values or the mean so far) on the judged set
 * (judge.h). */
static int nt_grade(const oxo_trainer *t, const float *w, int solve, oxo_grade *g)
{
    oxo_ntuple view = net_view(t->net, (float *)w);
    oxo_player *p = oxo_player_borrow_net(&view);
    if (!p)
        return -1;
    if (!t->judge) {
        oxo_player_close(p);
        return -1;
    }
    int rc = oxo_grade_judged(t->judge, t->truth, p, t->c.seed ^ 0x5eed, solve, g);
    oxo_player_close(p);
    return rc;
}

/* The weights copied, or packed from a file of every filling (minor 3 and before); and the mean so
 * far, in the weights' layout as they are. */
static int nt_load(oxo_trainer *t, const oxo_model *m, oxo_error *err)
{
    if (oxo_ntuple_load(t->net, m, m->values, t->values, err))
        return -1;
    if (m->avg_count && t->avg) {
        if (oxo_ntuple_load(t->net, m, m->avg_values, t->avg, err))
            return -1;
        t->avg_count = m->avg_count;
    }
    return 0;
}

static int nt_to_model(const oxo_trainer *t, oxo_model *m)
{
    const oxo_train_config *c = &t->c;
    snprintf(m->index, sizeof m->index, "ntuple");
    m->symmetric = 1;
    m->nt_count = (uint32_t)t->net->count;
    m->nt_len = (uint32_t)t->net->len;
    m->nt_states = (uint32_t)t->net->states;
    m->nt_sets = (uint32_t)t->net->sets;
    m->nt_horizon = c->nt_horizon;
    m->nt_start_depth = c->nt_start_depth;
    m->nt_target = c->nt_target;
    m->nt_defend = c->nt_defend;
    m->nt_cells = malloc((size_t)m->nt_count * m->nt_len);
    if (!m->nt_cells)
        return -1;
    memcpy(m->nt_cells, t->net->cells, (size_t)m->nt_count * m->nt_len);
    return 0;
}

/* The tuples' cells. */
static uint64_t nt_model_extra(const oxo_trainer *t)
{
    return (uint64_t)t->net->count * (uint64_t)t->net->len;
}

static float *nt_copy_alloc(size_t n)
{
    return oxo_ntuple_weights_alloc((uint32_t)n);
}

static void nt_defaults(oxo_train_config *c)
{
    /* The settings of GBG's Connect-4 agent: 70 tuples of 8 cells, a per-weight learning rate
     * decaying from 0.004 to 0.002 and epsilon from 0.1 to 0 over the run (oxo-train sets
     * both lengths to --episodes unless given), lambda 0.5, no discount. */
    snprintf(c->alpha.kind, sizeof c->alpha.kind, "exponential");
    c->alpha.start = 0.004;
    c->alpha.end = 0.002;
    snprintf(c->epsilon.kind, sizeof c->epsilon.kind, "linear");
    c->epsilon.start = 0.1;
    c->epsilon.end = 0.0;
    c->gamma = 1.0;
    c->lambda = 0.5;
    c->init = 0;
    c->nt_count = 70;
    c->nt_len = 8;
    c->nt_horizon = 0; /* from lambda: oxo_train_horizon */
    c->nt_defend = -1; /* the game's: oxo_train_defend */
    c->nt_lines = OXO_NT_LINES;
}

/* clang-format off */
const oxo_learner oxo_learner_ntuple = {
    .name = "ntuple", .algo = OXO_ALGO_NTUPLE, .graded = OXO_GRADED_JUDGED, .defaults = nt_defaults, .create = nt_create,
    .episode = nt_episode, .check_ring = nt_check_ring, .merge_marks = 1,
    .copy_alloc = nt_copy_alloc, .worker_init = nt_worker_init, .worker_free = nt_worker_free,
    .free_values = nt_free_values, .player = nt_player, .grade = nt_grade, .load = nt_load,
    .to_model = nt_to_model, .model_extra = nt_model_extra,
    .cli = {.network_rounds = 1, .self_play = 1, .search_phase = 1, .tuple_options = 1},
};
/* clang-format on */
