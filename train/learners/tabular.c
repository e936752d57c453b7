/*
 * The tabular learners, q and td: a value for every move (q) or every position (td) of the game's
 * enumerated space of canonical positions (space.h), learned by self-play or against opponents.
 *
 * Q-learning, negamax form: Q(s, a) is from the point of view of the player to move at s, and the
 * target of a move is its reward (1 for a win, 0 for a draw) when it ends the game, otherwise
 * -gamma * max Q of the opponent's position. Any transition teaches Q, whoever chose it
 * (Q-learning is off-policy), so the opponent's moves are learned from too.
 *
 * TD(lambda) on afterstates, negamax form: V(s) is from the point of view of the player to move
 * at s; a move is worth its reward when it ends the game, otherwise -gamma * V(child). The TD
 * error of step t is the worth of the best move at s_t minus V(s_t) (for a greedy move, the worth
 * of the move taken), and eligibility traces decay by -gamma * lambda per ply (the sign
 * alternates with the player). As in Watkins's Q(lambda), an exploratory move cuts the traces:
 * what follows it says nothing about the values of the greedy policy, so exploration does not
 * bias the values toward those of a random player. On a greedy episode this is plain TD(lambda):
 * lambda = 0 is TD(0), lambda = 1 gives the Monte Carlo return. Traces are kept only for the
 * positions of the current episode. In placement games an episode never visits a position twice,
 * so no trace or value is touched before its position is visited and the online updates can be
 * applied at the end of the episode with the same result (accumulating and replacing traces
 * coincide there; they differ in games that revisit positions).
 */
#include "trainer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float reward(const oxo_space *s, uint32_t child)
{
    return s->status[child] == OXO_OVER_LOSS ? 1.0f : 0.0f;
}

/* Inlined into the episode loop: it is most of the work of an episode. */
static inline void q_update(const oxo_space *s, float *q, uint32_t edge, float alpha, float gamma)
{
    uint32_t c = s->echild[edge];
    float target;
    if (s->status[c] != OXO_ONGOING) {
        target = reward(s, c);
    } else {
        float m = q[s->first[c]];
        for (uint32_t e = s->first[c] + 1; e < s->first[c + 1]; e++)
            m = q[e] > m ? q[e] : m;
        target = -gamma * m;
    }
    q[edge] += alpha * (target - q[edge]);
}

void oxo_q_update(const oxo_space *s, float *q, uint32_t edge, float alpha, float gamma)
{
    q_update(s, q, edge, alpha, gamma);
}

/* The worth of moving from a position to child c, for the mover. */
static inline float worth(const oxo_space *s, const float *v, uint32_t c, float gamma)
{
    return s->status[c] != OXO_ONGOING ? reward(s, c) : -gamma * v[c];
}

void oxo_td_episode_update(const oxo_space *s, float *v, const uint32_t *nodes, int len,
                           float alpha, float gamma, float lambda, int replacing)
{
    float trace[OXO_MAX_MOVES + 1] = {0};
    const float decay = -gamma * lambda;
    for (int t = 0; t + 1 < len; t++) {
        uint32_t st = nodes[t];
        float taken = worth(s, v, nodes[t + 1], gamma), best = taken;
        for (uint32_t e = s->first[st]; e < s->first[st + 1]; e++) {
            float w = worth(s, v, s->echild[e], gamma);
            best = w > best ? w : best;
        }
        float delta = best - v[st];
        trace[t] = replacing ? 1.0f : trace[t] + 1.0f;
        for (int j = 0; j <= t; j++)
            v[nodes[j]] += alpha * delta * trace[j];
        /* A greedy move carries the traces on (with the sign of the next player), an exploratory
         * one cuts them: what follows it says nothing about the value of the earlier positions. */
        float keep = taken == best ? decay : 0.0f;
        for (int j = 0; j <= t; j++)
            trace[j] *= keep;
    }
}

/* Epsilon-greedy over the moves of a node; ties between best moves broken uniformly. One draw
 * gives both the coin (high 32 bits) and the random move (low 32 bits): this loop is the hot path
 * of self-play. eps32 is epsilon scaled to 2^32. */
static uint32_t egreedy(const oxo_trainer *t, const float *vals, uint32_t node, uint64_t eps32,
                        uint64_t *rng)
{
    const oxo_space *s = t->space;
    uint32_t lo = s->first[node], hi = s->first[node + 1];
    uint64_t r = oxo_rng_next(rng);
    if ((r >> 32) < eps32)
        return lo + (uint32_t)(((r & 0xffffffffu) * (hi - lo)) >> 32);
    uint32_t cand[OXO_MAX_MOVES];
    int nc = 0;
    float bv = -INFINITY;
    const int q = t->c.algo == OXO_ALGO_Q;
    const float gamma = (float)t->c.gamma;
    for (uint32_t e = lo; e < hi; e++) {
        float sc;
        if (q) {
            sc = vals[e];
        } else {
            uint32_t c = s->echild[e];
            sc = s->status[c] != OXO_ONGOING ? reward(s, c) : -gamma * vals[c];
        }
        if (sc > bv) {
            bv = sc;
            nc = 0;
        }
        if (sc == bv)
            cand[nc++] = e;
    }
    return nc == 1 ? cand[0] : cand[oxo_rng_below(rng, (uint32_t)nc)];
}

static uint32_t table_move(const oxo_trainer *t, uint32_t node, uint64_t *rng)
{
    const oxo_space *s = t->space;
    return (uint32_t)oxo_space_edge(s, node, oxo_rng_bit(rng, t->table_best[node]));
}

/* One Q update, copied to the twins of the edge: moves that a symmetry of the position maps onto
 * each other reach the same canonical child, so their values are equal by construction. The
 * target reads the child's best Q from vmax, which gives the same number as scanning the child's
 * moves (oxo_q_update) without the scan; vmax of the edge's own node is then brought up to date,
 * with a rescan only when the update lowered the move that held the maximum. */
static inline void q_learn(const oxo_trainer *t, worker *w, uint32_t e, float alpha, float gamma)
{
    const oxo_space *s = t->space;
    float *q = w->local;
    uint32_t c = s->echild[e], u = t->enode[e];
    float target = s->status[c] != OXO_ONGOING ? reward(s, c) : -gamma * w->vmax[c];
    float old = q[e];
    q[e] = old + alpha * (target - old);
    touch(w, e);
    /* Twins first: the rescan below must see them with their new value. */
    for (uint32_t f = t->twin[e]; f != e; f = t->twin[f]) {
        q[f] = q[e];
        touch(w, f);
    }
    if (q[e] >= w->vmax[u])
        w->vmax[u] = q[e];
    else if (old == w->vmax[u])
        w->vmax[u] = node_max(s, q, u);
}

static void tabular_episode(oxo_trainer *t, worker *w, uint64_t k)
{
    const oxo_space *s = t->space;
    const oxo_train_config *c = &t->c;
    uint64_t rng = oxo_rng_stream(c->seed, k);
    const double eps = oxo_schedule_at(&c->epsilon, k);
    const uint64_t eps32 = (uint64_t)(eps * 4294967296.0);
    const float alpha = (float)oxo_schedule_at(&c->alpha, k), gamma = (float)c->gamma;
    float *vals = w->local;
    int opp = OPP_SELF, learner_x = 0;
    if (c->opp_self < 1.0) {
        double u = oxo_rng_unit(&rng);
        opp = u < c->opp_self                                  ? OPP_SELF
              : u < c->opp_self + c->opp_random                ? OPP_RANDOM
              : u < c->opp_self + c->opp_random + c->opp_table ? OPP_TABLE
                                                               : OPP_AGENT;
        learner_x = (int)(oxo_rng_next(&rng) & 1);
    }
    uint32_t nodes[OXO_MAX_MOVES + 1];
    int len = 0;
    uint32_t node = 0;
    if (c->starts > 0 && oxo_rng_unit(&rng) < c->starts)
        node = t->open_nodes[oxo_rng_below(&rng, t->nopen)];
    nodes[len++] = node;
    while (s->status[node] == OXO_ONGOING) {
        uint32_t e;
        int x_moves = (s->ply[node] & 1) == 0;
        if (opp == OPP_SELF || x_moves == learner_x)
            e = egreedy(t, vals, node, eps32, &rng);
        else if (opp == OPP_RANDOM)
            e = s->first[node] + oxo_rng_below(&rng, s->first[node + 1] - s->first[node]);
        else if (opp == OPP_TABLE)
            e = table_move(t, node, &rng);
        else /* the agent moves on the node's board: its move names the edge */
            e = (uint32_t)oxo_space_edge(s, node, oxo_agent_pick(w->agent, s->pos[node], &rng));
        if (c->algo == OXO_ALGO_Q) {
            q_learn(t, w, e, alpha, gamma);
            if (w->ring.capacity) {
                oxo_replay_push(&w->ring, &e);
                for (int r = replays(c->replay_ratio, &rng); r > 0; r--) {
                    uint32_t re = *oxo_replay_sample(&w->ring, &rng);
                    q_learn(t, w, re, alpha, gamma);
                }
            }
        }
        node = s->echild[e];
        nodes[len++] = node;
    }
    w->moves += (uint64_t)len - 1;
    if (c->algo == OXO_ALGO_TD) {
        oxo_td_episode_update(s, vals, nodes, len, alpha, gamma, (float)c->lambda, t->c.replacing);
        for (int j = 0; j + 1 < len; j++)
            touch(w, nodes[j]);
        if (w->ring.capacity) {
            uint32_t rec[OXO_MAX_MOVES + 1];
            for (uint32_t j = 0; j < w->ring.record; j++)
                rec[j] = (int)j < len ? nodes[j] : UINT32_MAX;
            oxo_replay_push(&w->ring, rec);
            for (int r = replays(c->replay_ratio, &rng); r > 0; r--) {
                const uint32_t *ep = oxo_replay_sample(&w->ring, &rng);
                int n = 0;
                while (n < (int)w->ring.record && ep[n] != UINT32_MAX)
                    n++;
                oxo_td_episode_update(s, vals, ep, n, alpha, gamma, (float)c->lambda,
                                      t->c.replacing);
                for (int j = 0; j + 1 < n; j++)
                    touch(w, ep[j]);
            }
        }
    }
}

/* A game played outside the trainer, learned as an episode of the learner's own: each move's Q
 * update in turn (q), or the episode's TD(lambda) update (td), at the learning rate of the episode
 * the run is at. A move is the edge from a position's node to the next one's (any of its twins:
 * q_learn updates them all). The replay ring is left alone: it holds the run's own play. */
static int tabular_played(oxo_trainer *t, const oxo_pos *line, int n, oxo_error *err)
{
    const oxo_space *s = t->space;
    worker *w = &t->w[0];
    uint32_t nodes[OXO_MAX_MOVES + 1];
    if (n < 1 || n > OXO_MAX_MOVES + 1)
        return oxo_fail(err, OXO_E_ARG, "a game of %d positions", n);
    for (int i = 0; i < n; i++) {
        int sym;
        int64_t v = oxo_space_locate(s, line[i], &sym);
        if (v < 0)
            return oxo_fail(err, OXO_E_ARG, "position %d of the game is not one of %s", i + 1,
                            t->g->name);
        nodes[i] = (uint32_t)v;
    }
    uint32_t edges[OXO_MAX_MOVES];
    for (int i = 0; i + 1 < n; i++) {
        uint32_t e = s->first[nodes[i]];
        while (e < s->first[nodes[i] + 1] && s->echild[e] != nodes[i + 1])
            e++;
        if (e == s->first[nodes[i] + 1])
            return oxo_fail(err, OXO_E_ARG, "position %d of the game does not follow by a move",
                            i + 2);
        edges[i] = e;
    }
    const float alpha = (float)oxo_schedule_at(&t->c.alpha, t->episodes);
    const float gamma = (float)t->c.gamma;
    if (t->c.algo == OXO_ALGO_Q)
        for (int i = 0; i + 1 < n; i++)
            q_learn(t, w, edges[i], alpha, gamma);
    else
        oxo_td_episode_update(s, w->local, nodes, n, alpha, gamma, (float)t->c.lambda,
                              t->c.replacing);
    return 0;
}

static oxo_trainer *tabular_create(const oxo_train_config *c, const oxo_game *g,
                                   const oxo_player *truth, oxo_error *err)
{
    if (!truth) {
        oxo_fail(err, OXO_E_ARG, "the tabular learners need the game's solved table");
        return NULL;
    }
    (void)g; /* the truth's game: the table's positions are the space's */
    oxo_trainer *t = trainer_alloc(c, oxo_player_game(truth), truth);
    if (!t) {
        oxo_fail(err, OXO_E_NOMEM, "a trainer of %s", oxo_player_game(truth)->spec);
        return NULL;
    }
    t->space = oxo_space_build(t->g, c->symmetric);
    if (!t->space)
        goto nomem;
    t->nvalues = c->algo == OXO_ALGO_Q ? t->space->nedges : t->space->n;
    t->values = malloc(t->nvalues * sizeof *t->values);
    t->table_best = calloc(t->space->n, sizeof *t->table_best);
    t->open_nodes = malloc(t->space->n * sizeof *t->open_nodes);
    t->twin = malloc((t->space->nedges ? t->space->nedges : 1) * sizeof *t->twin);
    t->enode = malloc((t->space->nedges ? t->space->nedges : 1) * sizeof *t->enode);
    if (c->algo == OXO_ALGO_Q)
        t->vmax = malloc(t->space->n * sizeof *t->vmax);
    if (!t->values || !t->table_best || !t->open_nodes || !t->twin || !t->enode ||
        (c->algo == OXO_ALGO_Q && !t->vmax))
        goto nomem;
    for (uint32_t i = 0; i < t->space->n; i++)
        for (uint32_t e = t->space->first[i]; e < t->space->first[i + 1]; e++)
            t->enode[e] = i;
    for (uint32_t i = 0; i < t->space->n; i++)
        for (uint32_t e = t->space->first[i]; e < t->space->first[i + 1]; e++) {
            /* Link e after the last earlier twin, closing the cycle at the first one. */
            uint32_t first = e;
            for (uint32_t f = t->space->first[i]; f < e; f++)
                if (t->space->echild[f] == t->space->echild[e]) {
                    first = f;
                    break;
                }
            if (first == e) {
                t->twin[e] = e;
            } else {
                uint32_t last = first;
                while (t->twin[last] != first)
                    last = t->twin[last];
                t->twin[last] = e;
                t->twin[e] = first;
            }
        }
    for (uint32_t i = 0; i < t->space->n; i++)
        if (t->space->status[i] == OXO_ONGOING)
            t->open_nodes[t->nopen++] = i;
    for (uint32_t i = 0; i < t->nvalues; i++)
        t->values[i] = (float)c->init;
    for (uint32_t i = 0; i < t->space->n; i++) {
        oxo_move_info mi[OXO_MAX_MOVES];
        int best[OXO_MAX_MOVES];
        /* The node's own board: moves come back in its frame. */
        int k = oxo_best_moves(mi, oxo_player_moves(truth, t->space->pos[i], mi), best);
        for (int j = 0; j < k; j++)
            t->table_best[i] |= 1ull << best[j];
    }
    if (trainer_workers(t, err))
        return NULL;
    return t;
nomem:
    oxo_fail(err, OXO_E_NOMEM, "the tables of a trainer of %s", t->g->spec);
    oxo_trainer_free(t);
    return NULL;
}

static int tabular_check_ring(const oxo_trainer *t, const oxo_replay_ring *r, uint32_t k,
                              oxo_error *err)
{
    const oxo_space *s = t->space;
    const uint32_t rec = t->w[k].ring.record, lim = t->nvalues;
    for (uint32_t i = 0; i < r->nitems; i++)
        if ((t->c.algo != OXO_ALGO_TD || r->items[i] != UINT32_MAX) && r->items[i] >= lim) {
            oxo_fail(err, OXO_E_ARG, "replay ring %u item %u is %u, beyond %u", k, i, r->items[i],
                     lim);
            return -1;
        }
    if (t->c.algo != OXO_ALGO_TD)
        return 0;
    for (uint32_t i = 0; i < r->count; i++) {
        const uint32_t *ep = r->items + (size_t)i * rec;
        uint32_t n = 0;
        while (n < rec && ep[n] != UINT32_MAX)
            n++;
        for (uint32_t j = 0; j < n; j++) {
            int ok = j + 1 < n ? 0 : s->status[ep[j]] != OXO_ONGOING;
            for (uint32_t e = s->first[ep[j]]; j + 1 < n && e < s->first[ep[j] + 1] && !ok; e++)
                ok = s->echild[e] == ep[j + 1];
            if (!ok || n < 2) {
                oxo_fail(err, OXO_E_ARG,
                         "replay ring %u episode %u is not a game played to its end (node %u "
                         "at step %u)",
                         k, i, ep[j], j);
                return -1;
            }
        }
    }
    return 0;
}

static oxo_player *tabular_player(const oxo_trainer *t)
{
    return oxo_player_borrow(t->space, t->learner->algo == OXO_ALGO_Q ? "q" : "td", t->values,
                             t->c.gamma);
}

/* Graded against the solved table on every position of the space (grade.h); the values graded are
 * the shared ones (the tabular learners keep no mean). */
static int tabular_grade(const oxo_trainer *t, const float *w, int solve, oxo_grade *g)
{
    (void)w, (void)solve;
    oxo_player *p = tabular_player(t);
    if (!p)
        return -1;
    int rc = oxo_grade_run(t->truth, p, t->space, t->c.seed ^ 0x5eed, g);
    oxo_player_close(p);
    return rc;
}

static int tabular_load(oxo_trainer *t, const oxo_model *m, oxo_error *err)
{
    if (m->nvalues != t->nvalues) {
        oxo_fail(err, OXO_E_ARG, "the model has %u values, its settings need %u", m->nvalues,
                 t->nvalues);
        return -1;
    }
    memcpy(t->values, m->values, t->nvalues * sizeof *t->values);
    return 0;
}

static int tabular_to_model(const oxo_trainer *t, oxo_model *m)
{
    snprintf(m->index, sizeof m->index, "ply-code");
    m->symmetric = t->c.symmetric;
    return 0;
}

static void q_defaults(oxo_train_config *c)
{
    c->alpha.start = c->alpha.end = 1.0; /* the game is deterministic: the target is exact */
    c->lambda = 0;
    c->replay_capacity = 10000;
    c->replay_ratio = 8;
}

static void td_defaults(oxo_train_config *c)
{
    c->alpha.start = c->alpha.end = 0.5;
    c->lambda = 0.5;
}

/* clang-format off */
const oxo_learner oxo_learner_q = {
    .name = "q", .algo = OXO_ALGO_Q, .defaults = q_defaults, .create = tabular_create,
    .episode = tabular_episode, .ring_moves = 1, .check_ring = tabular_check_ring,
    .player = tabular_player, .grade = tabular_grade, .load = tabular_load,
    .to_model = tabular_to_model, .played = tabular_played,
};
/* clang-format on */

/* clang-format off */
const oxo_learner oxo_learner_td = {
    .name = "td", .algo = OXO_ALGO_TD, .defaults = td_defaults, .create = tabular_create,
    .episode = tabular_episode, .check_ring = tabular_check_ring, .player = tabular_player,
    .grade = tabular_grade, .load = tabular_load, .to_model = tabular_to_model,
    .played = tabular_played,
};
/* clang-format on */
