/*
 * The learners, the workers and their synchronisation (see train.h).
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
#include "train.h"

#include "agent.h"
#include "player.h"
#include "cli.h"
#include "clock.h"
#include "judge.h"
#include "rng.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPP_SELF = 0, OPP_RANDOM, OPP_TABLE, OPP_AGENT };

/* Each worker on cache lines of its own: a worker writes its ring's head and count at every move,
 * and two workers sharing a line made each episode twice as slow on 2 threads (false sharing). */
typedef struct worker {
    _Alignas(64) float *local; /* the worker's copy; the first worker's are the shared values */
    float *vmax;      /* q: the best Q of each node, kept equal to the max of its edges (the
                       * first worker's are the shared ones) */
    uint64_t *touched; /* entries updated this round, a bit each (NULL with one worker) */
    uint32_t *tlist;  /* the same entries listed by slice (see SLICE_SHIFT), so that a round's merge
                       * costs what it touched: slice q's at tlist[q << SLICE_SHIFT], tcnt[q] of them */
    uint32_t *tcnt;
    oxo_replay ring;
    oxo_agent *agent; /* the worker's own agent opponent (agents keep scratch memory), or NULL */
    oxo_ntuple net;   /* ntuple: the shared network's tuples over the worker's weights */
    uint32_t *hist;   /* ntuple: the active weights of the last nt_horizon afterstates */
    float *hgrad;     /* ntuple: their gradient factor, 1 - value^2 */
    oxo_ntuple_walk walk; /* ntuple: the indexes of the episode's position, move by move */
    uint64_t moves;   /* moves played, for the speed figures */
    double cpu;       /* CPU seconds its last team round took, for the team's efficiency */
    int thread;       /* the thread that played its last team round */
    int claimed;      /* taken by a thread this round */
    uint32_t *outbox; /* a network on 2 workers: the weights it wrote this round, (index, bits) pairs,
                       * nout of them, for the other worker's thread to read (merge_pair) */
    uint32_t nout;
} worker;

struct oxo_trainer {
    oxo_train_config c;
    const oxo_game *g;
    oxo_space *space;
    const oxo_player *truth;
    uint64_t *table_best; /* per node: the truth's best moves, on the node's board */
    uint32_t *open_nodes; /* the non-terminal nodes, for exploring starts */
    uint32_t *twin;       /* q: next edge of the same node reaching the same child (a cycle) */
    uint32_t *enode;      /* q: the node each edge leaves */
    uint32_t *ulist;      /* q with several workers: the entries touched in a round, each once, by slice */
    uint32_t *ucnt;       /* how many in each slice */
    uint64_t *umark;      /* the same entries, a bit each */
    uint32_t nslices;
    float *vmax;          /* q: best Q of each node for the shared values */
    uint32_t nopen;
    uint32_t nvalues;
    float *values;
    worker *w;
    uint64_t episodes;
    volatile int *stop; /* set by a signal handler: stop at the next round boundary */
    uint64_t rounds, next_probe; /* rounds played by this process; the next try of the team */
    uint64_t probe_gap;          /* rounds between tries of the team while it does not pay */
    int last_team;               /* the mode of the last round */
    int team_off;                /* the team did not pay: lone rounds until a try shows it does */
    double efficiency;           /* of the team lately: its threads' CPU time over the wall time */
    double lone;                 /* of one thread lately, the same measure (0: not measured yet) */
    uint64_t lone_round;         /* the last round that measured it */
    uint64_t judged;             /* team rounds judged so far */
    oxo_ntuple *net;    /* ntuple: the network over the shared weights (values) */
    float *avg;         /* ntuple with averaging: the mean of the avg_count weights taken so far */
    uint32_t avg_count;
    uint32_t searched_games, searched_iterations; /* the search phase the weights went through last */
    double searched_alpha;
    oxo_search_progress *search_progress; /* told of each round of the search phase (NULL: nobody) */
    void *search_ctx;
    const oxo_judge *judge; /* ntuple: the judged set it is graded on (borrowed) */
};

void oxo_train_defaults(oxo_train_config *c, oxo_algo algo)
{
    memset(c, 0, sizeof *c);
    c->algo = algo;
    c->symmetric = 1;
    snprintf(c->alpha.kind, sizeof c->alpha.kind, "constant");
    snprintf(c->epsilon.kind, sizeof c->epsilon.kind, "exponential");
    /* Both learn from play that keeps exploring (epsilon from 1 down to 0.5): tic-tac-toe is
     * graded on every reachable position, also those only bad play reaches. See train/RECORD.md for
     * the measurements behind these values. */
    c->epsilon.start = 1.0;
    c->epsilon.end = 0.5;
    c->epsilon.length = 5000;
    c->gamma = 0.9;
    c->init = 0.5;
    if (algo == OXO_ALGO_Q) {
        c->alpha.start = c->alpha.end = 1.0; /* the game is deterministic: the target is exact */
        c->lambda = 0;
        c->replay_capacity = 10000;
        c->replay_ratio = 8;
    } else {
        c->alpha.start = c->alpha.end = 0.5;
        c->lambda = 0.5;
    }
    c->alpha.length = 0;
    if (algo == OXO_ALGO_NTUPLE) {
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
    c->opp_self = 1;
    c->sync = 1000;
    c->seed = 1;
    c->workers = 1;
}

/* Two weight sets on Connect-4, where the same stones mean different things to the two players
 * (ntuple.h); one on m,n,k boards, where both players' afterstates teach the same weights: the
 * game says (its learn.weight_sets). Measured: see train/RECORD.md (n-tuple networks). */
uint32_t oxo_train_weight_sets(const oxo_game *g)
{
    return (uint32_t)g->learn.weight_sets;
}

/* Each player's weight set learns from its own afterstates on Connect-4: 7x6, 1,000,000 games, seeds
 * 1-8, games won as X against the perfect player 51-165 of 200 (median 140.5), against 0-155
 * (median 124.5) learning toward the opponent's next afterstate, whose values come from the other
 * set. Not measured on m,n,k boards, which keep the target they were tuned with. */
uint32_t oxo_train_target(const oxo_game *g)
{
    return g->learn.target_own ? OXO_NT_TARGET_OWN : OXO_NT_TARGET_NEXT;
}

/* The second player defends where it thinks itself lost (--defend) where the game says so: on Connect-4 7x6,
 * 1,000,000 games with the weights averaged over the last half, training seeds 1-24, the median
 * network won 183 of 200 games as X against the perfect player under puct:1000 (the plain learner
 * 169) and 163 bare (111), for 1.2x the time. On mnk:4,4,4 it did not pay (train/RECORD.md, n-tuple
 * networks). */
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

void oxo_td_episode_update(const oxo_space *s, float *v, const uint32_t *nodes, int len, float alpha,
                           float gamma, float lambda, int replacing)
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

static int replays(double ratio, uint64_t *rng)
{
    double whole = floor(ratio);
    return (int)whole + (oxo_rng_unit(rng) < ratio - whole);
}

static float node_max(const oxo_space *s, const float *q, uint32_t node)
{
    float m = q[s->first[node]];
    for (uint32_t e = s->first[node] + 1; e < s->first[node + 1]; e++)
        m = q[e] > m ? q[e] : m;
    return m;
}

static void all_max(const oxo_space *s, const float *q, float *vmax)
{
    for (uint32_t i = 0; i < s->n; i++)
        vmax[i] = s->first[i] < s->first[i + 1] ? node_max(s, q, i) : 0.0f;
}

/* Marks of entries, a bit each: the n-tuple learner marks an entry at every weight it writes,
 * all over millions of entries, and a bitmap eight times smaller than bytes stays in cache far
 * more often. */
static inline int bit_get(const uint64_t *m, uint32_t i) { return (int)(m[i >> 6] >> (i & 63)) & 1; }
static inline void bit_set(uint64_t *m, uint32_t i) { m[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *m, uint32_t i) { m[i >> 6] &= ~(1ull << (i & 63)); }

/* The entries are cut into slices of 2^16 for the merge: each slice is merged by one thread, the
 * slices by the whole team, so that the end of a round does not grow with the number of workers
 * on one thread (a slice is a multiple of 64 entries: its marks are words of its own). */
#define SLICE_SHIFT 16

/* Marks entry i as updated this round (several workers only). Each slice's list has room for
 * every entry of the slice. */
static inline void touch(worker *w, uint32_t i)
{
    if (w->touched && !bit_get(w->touched, i)) {
        bit_set(w->touched, i);
        const uint32_t q = i >> SLICE_SHIFT;
        w->tlist[((size_t)q << SLICE_SHIFT) + w->tcnt[q]++] = i;
    }
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

static void nt_episode(oxo_trainer *t, worker *w, uint64_t k);
static void sync_workers(oxo_trainer *t);

static void play_episode(oxo_trainer *t, worker *w, uint64_t k)
{
    if (t->c.algo == OXO_ALGO_NTUPLE) {
        nt_episode(t, w, k);
        return;
    }
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
                oxo_td_episode_update(s, vals, ep, n, alpha, gamma, (float)c->lambda, t->c.replacing);
                for (int j = 0; j + 1 < n; j++)
                    touch(w, ep[j]);
            }
        }
    }
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
static inline void own_chain(float *pend, const float *hgrad, int slot, int j, int hn, int H, float step, float f)
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
static void nt_pass(oxo_trainer *t, worker *w, uint64_t *rng, uint64_t eps32, float alpha, const uint32_t *rec,
                    uint32_t *out)
{
    const oxo_train_config *c = &t->c;
    const oxo_game *g = t->g;
    const oxo_ntuple *net = &w->net;
    const float gamma = (float)c->gamma, decay = -gamma * (float)c->lambda;
    const int A = net->count * net->nsym, H = (int)c->nt_horizon;
    int hn = 0, head = 0; /* afterstates in the history; the slot of the next one */
    float pend[64];       /* the steps each afterstate of the history has received (horizon <= 64) */
    float hval[64];       /* and the value each was chosen by */
    const int own = c->nt_target == OXO_NT_TARGET_OWN;
    float yprev = 0;
    uint32_t ply = 0;
    oxo_pos p = oxo_start(g);
    if (rec) {
        for (; ply < rec[0]; ply++)
            p = oxo_play(g, p, (int)rec[1 + ply]);
    }
    else if (c->starts > 0 && oxo_rng_unit(rng) < c->starts) {
        /* An exploring start: a random number of random moves (below the start depth, if one is
         * set), stopping before the end. */
        const uint32_t depth = c->nt_start_depth;
        int plies = (int)oxo_rng_below(rng, depth && depth < (uint32_t)g->max_plies ? depth : (uint32_t)g->max_plies);
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
                own_chain(pend, w->hgrad, slot, 1, hn, H, alpha * (gamma * best - hval[slot]), -decay);
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

static inline void merge_entry(oxo_trainer *t, int64_t i)
{
    double sum = 0;
    int cnt = 0;
    for (uint32_t k = 0; k < t->c.workers; k++)
        if (bit_get(t->w[k].touched, (uint32_t)i)) {
            sum += t->w[k].local[i];
            cnt++;
        }
    if (cnt)
        t->values[i] = (float)(sum / cnt);
}

/* merge_entry, then the merged value written to every worker's copy (the first worker's is the
 * shared one). */
static inline void merge_refresh(oxo_trainer *t, uint32_t i)
{
    merge_entry(t, i);
    for (uint32_t k = 1; k < t->c.workers; k++)
        t->w[k].local[i] = t->values[i];
}

/* Slice q at the end of a round: the entries some worker touched, each once, become the mean of
 * those workers' values (merge_entry). Only this slice's marks and lists are written. */
static void merge_slice(oxo_trainer *t, uint32_t q)
{
    const size_t base = (size_t)q << SLICE_SHIFT;
    uint32_t *u = t->ulist + base, n = 0;
    for (uint32_t k = 0; k < t->c.workers; k++) {
        const uint32_t *l = t->w[k].tlist + base;
        for (uint32_t j = 0; j < t->w[k].tcnt[q]; j++)
            if (!bit_get(t->umark, l[j])) {
                bit_set(t->umark, l[j]);
                u[n++] = l[j];
            }
    }
    t->ucnt[q] = n;
    for (uint32_t j = 0; j < n; j++)
        merge_entry(t, u[j]);
}

/* The merge of slice q for an n-tuple network, whose workers mark the weights they write and list
 * none (nt_write): the marks are read a word at a time, so the weights are merged in the order of their
 * addresses. A round of 7x6's network on 2 workers writes about a quarter of its million weights;
 * their lists, in the order the weights were first written, made nearly every read of the merge a
 * cache miss, and each first write of a round appended to them. Each weight is merged as
 * merge_lists merges it (merge_refresh: the mean of the values of the workers that wrote it, copied
 * to every copy), so the same bytes: 2 workers over the run made 1.17x more games a second
 * (63,211 against 54,016, medians of 5 interleaved pairs of 1,000,000 games), the merge 0.3 s of a
 * 6 s run of 500,000 games. */
static void merge_marks(oxo_trainer *t, uint32_t q)
{
    const uint32_t W = t->c.workers;
    const size_t words = (t->nvalues + 63) / 64, lo = ((size_t)q << SLICE_SHIFT) >> 6;
    const size_t end = ((size_t)(q + 1) << SLICE_SHIFT) >> 6, hi = end < words ? end : words;
    float *val = t->values;
    for (size_t j = lo; j < hi; j++) {
        uint64_t any = 0;
        for (uint32_t k = 0; k < W; k++)
            any |= t->w[k].touched[j];
        if (!any)
            continue;
        if (W == 2) {
            /* The common case written out (the first worker's values are the shared ones): the
             * same sums as merge_entry's, in the same order. */
            const uint64_t a = t->w[0].touched[j], b = t->w[1].touched[j];
            float *other = t->w[1].local;
            for (uint64_t m = any; m; m &= m - 1) {
                const uint32_t i = (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m));
                const uint64_t bit = m & -m;
                if ((a & bit) && (b & bit))
                    val[i] = (float)(((double)val[i] + (double)other[i]) / 2);
                else if (b & bit)
                    val[i] = other[i];
                other[i] = val[i];
            }
        } else
            for (uint64_t m = any; m; m &= m - 1)
                merge_refresh(t, (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m)));
        for (uint32_t k = 0; k < W; k++)
            t->w[k].touched[j] = 0;
    }
}

/* Slice q at the end of a round when no best Q is kept, for td (a network's: merge_marks): the
 * merge and the refresh of the workers' copies in one pass over each worker's list, with no union
 * list. An entry is merged
 * where it first appears, in the list of the first worker that touched it (merge_entry: the mean
 * of the values of the workers that touched it), and written to every copy at once; the first
 * worker's values are the shared ones, so an entry only it touched is only copied. The marks are cleared last. Against a union list built first
 * and three passes over it (the merge, the copies, the marks), 7x6's n-tuple network on 2 workers
 * made 14% more moves a second (1,000,000 games, medians of 4 interleaved runs: 1.62x one worker
 * instead of 1.42x), with the same bytes. */
static void merge_lists(oxo_trainer *t, uint32_t q)
{
    const uint32_t W = t->c.workers;
    const size_t base = (size_t)q << SLICE_SHIFT;
    for (uint32_t k = 0; k < W; k++) {
        const uint32_t *l = t->w[k].tlist + base, n = t->w[k].tcnt[q];
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t i = l[j];
            uint32_t first = 0;
            while (!bit_get(t->w[first].touched, i))
                first++;
            if (first < k)
                continue; /* merged with an earlier worker's list */
            merge_refresh(t, i);
        }
    }
    for (uint32_t k = 0; k < W; k++) {
        worker *w = &t->w[k];
        const uint32_t *l = w->tlist + base, n = w->tcnt[q];
        if (n > 1024) { /* a slice's marks are 1024 words of their own */
            const size_t lo = base >> 6, hi = ((size_t)(q + 1) << SLICE_SHIFT) >> 6, words = (t->nvalues + 63) / 64;
            memset(w->touched + lo, 0, ((hi < words ? hi : words) - lo) * sizeof *w->touched);
        } else
            for (uint32_t j = 0; j < n; j++)
                bit_clear(w->touched, l[j]);
        w->tcnt[q] = 0;
    }
}

/* Slice q at the end of a round when no best Q is kept: a network's by its marks, td's by its
 * lists (td's merge was 2.6% of the CPU time of 3,000,000 episodes on mnk:4,4,4 with 2 workers,
 * under perf: marks would gain little there). */
static void merge_values(oxo_trainer *t, uint32_t q)
{
    if (t->net)
        merge_marks(t, q);
    else
        merge_lists(t, q);
}

/* The merge of a network's round on 2 workers played by a team, in two steps for each worker,
 * taken by the thread that played it (a barrier between them): merge_post lists the weights the
 * worker wrote, with their values, in its outbox; merge_pair then reads the other worker's outbox
 * and brings its own copy up to date: a weight both wrote becomes the mean of the two values, one
 * only the other wrote takes the other's value (merge_marks's sums: (double)a + b is b + a, so
 * the same bytes as the merge by slices, which lone rounds still use). Each thread thus writes
 * only the weights its own worker plays on and reads the other's only from the outbox, in order.
 * The merge by slices writes both copies from whichever thread merges a slice, so after it each
 * worker finds many of its lines in the other core's cache, modified, and its next round fetches
 * them back one random read at a time (a round of 1,000 games writes a quarter of 7x6's weights):
 * on some spells of this host the workers' play took about a quarter longer than with no merge at
 * all (train/RECORD.md, the speed of the n-tuple learner). */
static void merge_post(oxo_trainer *t, uint32_t k)
{
    worker *w = &t->w[k];
    const size_t words = (t->nvalues + 63) / 64;
    uint32_t n = 0;
    for (size_t j = 0; j < words; j++)
        for (uint64_t m = w->touched[j]; m; m &= m - 1) {
            const uint32_t i = (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m));
            w->outbox[2 * (size_t)n] = i;
            memcpy(&w->outbox[2 * (size_t)n + 1], &w->local[i], sizeof(float));
            n++;
        }
    w->nout = n;
}

static void merge_pair(oxo_trainer *t, uint32_t k)
{
    worker *w = &t->w[k];
    const worker *o = &t->w[1 - k];
    float *own = w->local;
    for (uint32_t j = 0; j < o->nout; j++) {
        const uint32_t i = o->outbox[2 * (size_t)j];
        float v;
        memcpy(&v, &o->outbox[2 * (size_t)j + 1], sizeof v);
        own[i] = bit_get(w->touched, i) ? (float)(((double)own[i] + (double)v) / 2) : v;
    }
    /* Only this thread reads these marks (the other reads the outbox), so it clears them. */
    memset(w->touched, 0, (t->nvalues + 63) / 64 * sizeof *w->touched);
}

/* Whether a team round merges by outboxes (merge_post, merge_pair): a network on 2 workers. */
static int merges_pairwise(const oxo_trainer *t)
{
    return t->net && t->c.workers == 2;
}

/* q: the best Q of the nodes whose moves changed (a node's moves may lie in two slices, so after
 * all of them), and each worker's copy of those. */
static void union_max(oxo_trainer *t)
{
    for (uint32_t q = 0; q < t->nslices; q++)
        for (uint32_t j = 0; j < t->ucnt[q]; j++) {
            uint32_t e = t->ulist[((size_t)q << SLICE_SHIFT) + j];
            t->vmax[t->enode[e]] = node_max(t->space, t->values, t->enode[e]);
        }
}

static void worker_max(oxo_trainer *t, int64_t k)
{
    if (t->w[k].vmax == t->vmax) /* the first worker's are the shared ones */
        return;
    for (uint32_t q = 0; q < t->nslices; q++)
        for (uint32_t j = 0; j < t->ucnt[q]; j++) {
            uint32_t u = t->enode[t->ulist[((size_t)q << SLICE_SHIFT) + j]];
            t->w[k].vmax[u] = t->vmax[u];
        }
}

/* Slice q of every worker starts the next round from the shared values: only the entries touched
 * this round (by any worker) can differ. */
static void reset_slice(oxo_trainer *t, uint32_t q)
{
    const uint32_t *u = t->ulist + ((size_t)q << SLICE_SHIFT);
    for (uint32_t k = 0; k < t->c.workers; k++) {
        worker *w = &t->w[k];
        if (w->local != t->values)
            for (uint32_t j = 0; j < t->ucnt[q]; j++)
                w->local[u[j]] = t->values[u[j]];
        for (uint32_t j = 0; j < t->ucnt[q]; j++)
            bit_clear(w->touched, u[j]);
        w->tcnt[q] = 0;
    }
    for (uint32_t j = 0; j < t->ucnt[q]; j++)
        bit_clear(t->umark, u[j]);
    t->ucnt[q] = 0;
}

/* End of a round on one thread: each entry some worker touched becomes the mean of those workers'
 * values, summed in worker order; then every worker starts the next round from the shared values.
 * The cost is that of the entries touched, not of all (millions on 4x4 boards). */
static void merge(oxo_trainer *t)
{
    const uint32_t W = t->c.workers;
    if (W == 1)
        return;
    if (!t->vmax) {
        for (uint32_t q = 0; q < t->nslices; q++)
            merge_values(t, q);
        return;
    }
    for (uint32_t q = 0; q < t->nslices; q++)
        merge_slice(t, q);
    union_max(t);
    for (uint32_t k = 0; k < W; k++)
        worker_max(t, k);
    for (uint32_t q = 0; q < t->nslices; q++)
        reset_slice(t, q);
}

/* Worker k's episodes of the round [start, end): episode e belongs to worker (e - start) mod W. */
static void play_round(oxo_trainer *t, uint32_t k, uint64_t start, uint64_t end)
{
    for (uint64_t e = start + k; e < end; e += t->c.workers)
        play_episode(t, &t->w[k], e);
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
         * the other core (train/RECORD.md, the speed of the n-tuple learner). Which thread plays a worker
         * changes nothing in what it plays. */
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
                    union_max(t);
#pragma omp for schedule(static)
                    for (int64_t k = 0; k < (int64_t)W; k++)
                        worker_max(t, k);
#pragma omp for schedule(dynamic, 1)
                    for (int64_t q = 0; q < S; q++)
                        reset_slice(t, (uint32_t)q);
                }
            }
            if (!split && !pair)
                merge(t); /* nothing with one worker */
            for (uint32_t k = 0; k < W; k++)
                cpu += t->w[k].cpu;
        } else { /* no OpenMP call at all: even a team of one costs a round's worth of time */
            double c0 = threads > 1 ? oxo_thread_seconds() : 0;
            for (uint32_t k = 0; k < W; k++)
                play_round(t, k, start, end);
            if (threads > 1)
                cpu = oxo_thread_seconds() - c0;
            merge(t);
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
        if (t->avg && end >= t->c.avg_from && end % t->c.avg_every == 0)
            average_take(t);
    }
}

uint32_t oxo_trainer_average_finish(oxo_trainer *t)
{
    const uint32_t n = t->avg_count;
    if (n) {
        memcpy(t->values, t->avg, t->nvalues * sizeof *t->values);
        t->avg_count = 0;
        sync_workers(t);
    }
    return n;
}

/* The search phase (oxo-train --search-games): self-play led by puct over the network, the
 * apprentice learning from its own search (expert iteration, Anthony et al. 2017; as TD-Leaf and
 * Veness et al.'s search bootstrapping, but from the root of a tree search). In each position of
 * each game the move the search plays has its afterstate learn toward the search's value of it
 * (the mean of the results backed up through it), a step of alpha (by default the run's last)
 * with the gradient of tanh, as TD does; the game goes on with that move, or in the first
 * SEARCH_PLIES plies with probability SEARCH_EXPLORE with a move drawn at random, so that the games
 * leave the search's main lines (the exploring starts' share and depth on Connect-4). Measured with 5,000
 * games of puct:200 after the defaults' 1,000,000 on 7x6 over 24 training seeds: train/RECORD.md.
 *
 * The games are played in rounds of SEARCH_ROUND, as AlphaZero's self-play plays with the network
 * of the moment and learns after: every game of a round searches the weights as the round found
 * them (read only, so the workers' threads share them), each from its own random stream, and at the
 * round's end its afterstates learn toward their targets game after game, in the games' order. So
 * the bytes are the same whatever the number of threads, and the searches, nearly all of the
 * phase's time, run on as many threads as workers. A round of 50 games is about 0.4 s of one
 * thread on 7x6, a hundredth of 5,000 games. */
#define SEARCH_PLIES 12
#define SEARCH_EXPLORE 0.3
#define SEARCH_ROUND 50

/* A position the search phase learns from: the afterstate of the search's move and the target. */
typedef struct {
    oxo_pos after;
    float target;
} search_step;

/* Plays game k of the phase over the weights as they are (read only), writing its steps to out
 * (room for one a ply); the number of steps, or -1 when memory ran out. */
static int search_game(const oxo_trainer *t, oxo_player *value, uint32_t k, uint32_t iterations, oxo_puct_move *pm,
                       search_step *out)
{
    const oxo_game *g = t->g;
    uint64_t rng = oxo_rng_stream(t->c.seed ^ 0x5345415243480000ull, k); /* "SEARCH": a stream apart */
    int steps = 0;
    for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
        int n = 0, move = oxo_puct_root(g, value, p, iterations, OXO_PUCT_C, pm, &n);
        if (move < 0)
            return -1;
        for (int i = 0; i < n; i++)
            if (pm[i].move == move && !pm[i].ends)
                out[steps++] = (search_step){ oxo_play(g, p, move),
                                              (float)(pm[i].value > 1 ? 1 : pm[i].value < -1 ? -1 : pm[i].value) };
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
    const int threads = omp_get_max_threads() < (int)t->c.workers ? omp_get_max_threads() : (int)t->c.workers;
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
                count[k] = failed ? -1 : search_game(t, value, r + k, iterations, pm, steps + (size_t)k * plies);
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
    sync_workers(t);
    free(before);
    free(idx);
    free(steps);
    return rc;
}

/* What a model of this trainer may weigh when saved, at most: its values and its replay rings as
 * full as `episodes` episodes can fill them (q records one transition per move, td one episode),
 * plus the settings. */
uint64_t oxo_trainer_model_bound(const oxo_trainer *t, uint64_t episodes)
{
    const oxo_train_config *c = &t->c;
    uint64_t per_worker = (episodes + c->workers - 1) / c->workers;
    uint64_t pushes = c->algo == OXO_ALGO_Q ? per_worker * (uint64_t)t->g->max_plies : per_worker;
    uint64_t records = pushes < c->replay_capacity ? pushes : c->replay_capacity;
    uint64_t record = c->algo == OXO_ALGO_Q ? 1 : (uint64_t)t->g->max_plies + 1;
    uint64_t bound = 4096 + 4 * (uint64_t)t->nvalues + (uint64_t)c->workers * (records * record * 4 + 64);
    if (t->avg)
        bound += 4 * (uint64_t)t->nvalues + 64; /* the mean so far */
    return t->net ? bound + (uint64_t)t->net->count * (uint64_t)t->net->len : bound; /* + the tuples' cells */
}

/* Derived state from the shared values: the best Q of each node, and the workers' copies. */
static void sync_workers(oxo_trainer *t)
{
    if (t->vmax)
        all_max(t->space, t->values, t->vmax);
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
            free(t->w[k].hist);
            free(t->w[k].hgrad);
            free(t->w[k].outbox);
            oxo_ntuple_walk_free(&t->w[k].walk);
            oxo_agent_free(t->w[k].agent);
        }
    free(t->w);
    free(t->avg);
    if (t->net)
        oxo_ntuple_free(t->net); /* it owns the shared weights */
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

/* The workers' copies, marks and lists of touched entries (several workers) and replay rings. */
static int make_workers(oxo_trainer *t, char *err, size_t cap);

/* The network n reading the weights w instead of its own (owning none of its arrays: freed with
 * n): a worker's copy, or the mean of the weights for grading. */
static oxo_ntuple net_view(const oxo_ntuple *n, float *w)
{
    oxo_ntuple v = *n;
    v.w = w;
    v.own_w = 0;
    return v;
}

/* A worker's array, zeroed, on pages of its own: where one worker's array ended and another's
 * began in one cache line (the root's moves are learned at every episode), two threads wrote
 * that line in turn; page-aligned, q's team rounds ran 5% faster (measured side by side). */
static void *worker_alloc(size_t n)
{
    const size_t page = 4096, bytes = (n + page - 1) / page * page;
    void *p = aligned_alloc(page, bytes ? bytes : page);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* What every trainer starts from: its settings, game and truth. */
static oxo_trainer *trainer_alloc(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth)
{
    oxo_trainer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->c = *c;
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

/* An n-tuple trainer: the network's tuples (given or drawn by random walks from the seed), zero
 * weights, no state space: it learns on boards of any size. */
static oxo_trainer *create_nt(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth,
                              char *err, size_t cap)
{
    char msg[300];
    if (c->opp_self < 1.0) {
        snprintf(err, cap, "algo ntuple learns by self-play only (use --opponent self)");
        return NULL;
    }
    const uint32_t sets = c->nt_sets ? c->nt_sets : oxo_train_weight_sets(g);
    /* Checked before the tuples are drawn (a walk longer than the board has no cells to take). */
    if (!oxo_ntuple_check(g, c->nt_count, c->nt_len, sets, err, cap))
        return NULL;
    if (c->nt_horizon < 1 || c->nt_horizon > 64) {
        snprintf(err, cap, "horizon %u, expected 1 to 64 moves", c->nt_horizon);
        return NULL;
    }
    if (c->nt_target > OXO_NT_TARGET_OWN) {
        snprintf(err, cap, "TD target %u, expected %d (next) or %d (own)", c->nt_target, OXO_NT_TARGET_NEXT,
                 OXO_NT_TARGET_OWN);
        return NULL;
    }
    if (!(c->nt_lines >= 0 && c->nt_lines <= 1)) {
        snprintf(err, cap, "a share of tuples from lines of %g, expected 0 to 1", c->nt_lines);
        return NULL;
    }
    oxo_trainer *t = trainer_alloc(c, g, truth);
    uint8_t *cells = malloc((size_t)c->nt_count * c->nt_len);
    if (!t || !cells) {
        free(t);
        free(cells);
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    t->c.nt_cells = NULL; /* borrowed from the caller: the network keeps its own copy */
    t->c.nt_sets = sets;
    t->c.nt_target = c->nt_target ? c->nt_target : oxo_train_target(g);
    t->c.nt_defend = c->nt_defend < 0 ? oxo_train_defend(g) : c->nt_defend;
    if (c->nt_cells)
        memcpy(cells, c->nt_cells, (size_t)c->nt_count * c->nt_len);
    else if (oxo_ntuple_random_walks(g, (int)c->nt_count, (int)c->nt_len, c->nt_lines, c->seed, cells)) {
        snprintf(err, cap, "no random walk of %u cells fits the board", c->nt_len);
        free(cells);
        free(t);
        return NULL;
    }
    t->net = oxo_ntuple_new(g, (int)c->nt_count, (int)c->nt_len, (int)sets, cells, NULL, msg, sizeof msg);
    free(cells);
    if (!t->net) {
        snprintf(err, cap, "%s", msg);
        free(t);
        return NULL;
    }
    t->nvalues = t->net->nweights;
    t->values = t->net->w;
    if (c->avg_every) {
        if (c->avg_every % c->sync || c->avg_from % c->avg_every)
            snprintf(err, cap, "averaging every %u episodes from episode %llu: the interval must be a multiple of "
                     "sync (%u), the start a multiple of the interval", c->avg_every, (unsigned long long)c->avg_from,
                     c->sync);
        else if (!(t->avg = malloc(t->nvalues * sizeof *t->avg)))
            snprintf(err, cap, "out of memory");
        if (!t->avg) {
            oxo_ntuple_free(t->net);
            free(t);
            return NULL;
        }
    }
    if (make_workers(t, err, cap))
        return NULL;
    return t;
}

static oxo_trainer *create(const oxo_train_config *c, const oxo_player *truth, char *err, size_t cap)
{
    oxo_trainer *t = trainer_alloc(c, truth->game, truth);
    if (!t) {
        snprintf(err, cap, "out of memory");
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
    if (make_workers(t, err, cap))
        return NULL;
    return t;
nomem:
    snprintf(err, cap, "out of memory");
    oxo_trainer_free(t);
    return NULL;
}

static int make_workers(oxo_trainer *t, char *err, size_t cap)
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
    uint32_t record = c->algo == OXO_ALGO_Q ? 1 : (uint32_t)t->g->max_plies + 1;
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
            w->local = t->net ? oxo_ntuple_weights_alloc(t->nvalues) : worker_alloc(t->nvalues * sizeof *w->local);
            if (t->vmax)
                w->vmax = worker_alloc(t->space->n * sizeof *w->vmax);
            if (!w->local || (t->vmax && !w->vmax))
                goto nomem;
            memcpy(w->local, t->values, t->nvalues * sizeof *w->local);
        }
        if (c->workers > 1) {
            w->touched = worker_alloc(((size_t)t->nvalues + 63) / 64 * sizeof *w->touched);
            /* The network's weights are merged by their marks alone (nt_write): no lists. */
            if (!t->net) {
                w->tlist = worker_alloc(t->nvalues * sizeof *w->tlist);
                w->tcnt = worker_alloc(t->nslices * sizeof *w->tcnt);
            }
            if (!w->touched || (!t->net && (!w->tlist || !w->tcnt)))
                goto nomem;
        }
        w->ring.record = record;
        w->ring.capacity = c->replay_capacity;
        if (c->replay_capacity) {
            w->ring.items = worker_alloc((size_t)c->replay_capacity * record * sizeof *w->ring.items);
            if (!w->ring.items)
                goto nomem;
        }
        if (c->opp_agent > 0) {
            char msg[300];
            if (!(w->agent = oxo_agent_open(t->g, c->opp_agent_spec, msg, sizeof msg))) {
                snprintf(err, cap, "opponent: %s", msg);
                oxo_trainer_free(t);
                return -1;
            }
        }
        if (t->net) {
            w->net = net_view(t->net, w->local);
            /* Written at every move, so on pages of their own (worker_alloc): from malloc, one
             * worker's history and the next worker's arrays could share cache lines, which the two
             * threads then wrote in turn (so could the walk's indexes: oxo_ntuple_walk_init). */
            w->hist = worker_alloc((size_t)c->nt_horizon * t->net->count * t->net->nsym * sizeof *w->hist);
            w->hgrad = worker_alloc(c->nt_horizon * sizeof *w->hgrad);
            if (!w->hist || !w->hgrad || oxo_ntuple_walk_init(t->net, &w->walk))
                goto nomem;
            /* Room for every weight; the pages are taken as rounds fill them (a quarter of 7x6's). */
            if (merges_pairwise(t) && !(w->outbox = malloc(2 * (size_t)t->nvalues * sizeof *w->outbox)))
                goto nomem;
        }
    }
    sync_workers(t);
    return 0;
nomem:
    snprintf(err, cap, "out of memory");
    oxo_trainer_free(t);
    return -1;
}

oxo_trainer *oxo_trainer_new(const oxo_train_config *c, const oxo_player *truth, char *err, size_t cap)
{
    if (c->algo == OXO_ALGO_NTUPLE)
        return create_nt(c, truth->game, truth, err, cap);
    return create(c, truth, err, cap);
}

oxo_trainer *oxo_trainer_new_on(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth,
                                char *err, size_t cap)
{
    if (c->algo != OXO_ALGO_NTUPLE) {
        if (!truth) {
            snprintf(err, cap, "the tabular learners need the game's solved table");
            return NULL;
        }
        return create(c, truth, err, cap);
    }
    return create_nt(c, g, truth, err, cap);
}

const oxo_ntuple *oxo_trainer_net(const oxo_trainer *t) { return t->net; }

uint64_t oxo_trainer_moves(const oxo_trainer *t)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < t->c.workers; k++)
        n += t->w[k].moves;
    return n;
}

/* The reader checked that each item is in range and padded the way the algorithm pads. Here, with
 * the state space at hand: an episode recorded by td is a path of moves from a position to the end
 * of the game, as play_episode records it; replaying anything else would teach values of moves
 * that do not exist. */
static int check_nt_ring(const oxo_trainer *t, const oxo_replay_ring *r, uint32_t k, char *err, size_t cap)
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
            ok = ok && (j > ep[0] || oxo_status_of(g, p) == OXO_ONGOING); /* the opening does not end it */
        }
        if (!ok || j - 1 <= ep[0] || oxo_status_of(g, p) == OXO_ONGOING) {
            snprintf(err, cap, "replay ring %u game %u is not a game of %s played to its end after an opening "
                     "of %u moves (move %u)", k, i, g->spec, ep[0], j);
            return -1;
        }
    }
    return 0;
}

static int check_ring(const oxo_trainer *t, const oxo_replay_ring *r, uint32_t k, char *err, size_t cap)
{
    if (t->net)
        return check_nt_ring(t, r, k, err, cap);
    const oxo_space *s = t->space;
    const uint32_t rec = t->w[k].ring.record, lim = t->nvalues;
    for (uint32_t i = 0; i < r->nitems; i++)
        if ((t->c.algo != OXO_ALGO_TD || r->items[i] != UINT32_MAX) && r->items[i] >= lim) {
            snprintf(err, cap, "replay ring %u item %u is %u, beyond %u", k, i, r->items[i], lim);
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
                snprintf(err, cap, "replay ring %u episode %u is not a game played to its end (node %u "
                         "at step %u)", k, i, ep[j], j);
                return -1;
            }
        }
    }
    return 0;
}

oxo_trainer *oxo_trainer_resume(const oxo_model *m, const oxo_player *truth, char *err, size_t cap)
{
    return oxo_trainer_resume_on(m, truth->game, truth, err, cap);
}

oxo_trainer *oxo_trainer_resume_on(const oxo_model *m, const oxo_game *g, const oxo_player *truth,
                                   char *err, size_t cap)
{
    oxo_train_config c;
    memset(&c, 0, sizeof c);
    char msg[200];
    oxo_game *mg = oxo_game_open(m->game, msg, sizeof msg);
    int same = mg && oxo_game_same(mg, g);
    oxo_game_free(mg);
    if (!same) {
        snprintf(err, cap, "the model is for %s, the run for %s", m->game, g->spec);
        return NULL;
    }
    c.algo = strcmp(m->algo, "q") == 0 ? OXO_ALGO_Q : strcmp(m->algo, "td") == 0 ? OXO_ALGO_TD : OXO_ALGO_NTUPLE;
    c.nt_count = m->nt_count;
    c.nt_len = m->nt_len;
    c.nt_horizon = m->nt_horizon;
    c.nt_sets = m->nt_sets;
    c.nt_start_depth = m->nt_start_depth;
    c.nt_target = m->nt_target;
    c.nt_defend = m->nt_defend;
    c.nt_cells = m->nt_cells;
    c.avg_from = m->avg_from;
    c.avg_every = m->avg_every;
    c.symmetric = m->symmetric;
    c.alpha = m->alpha;
    c.epsilon = m->epsilon;
    c.gamma = m->gamma;
    c.lambda = m->lambda;
    c.replacing = strcmp(m->trace, "replacing") == 0;
    c.init = m->init;
    c.replay_capacity = m->replay_capacity;
    c.replay_ratio = m->replay_ratio;
    c.opp_self = m->opp_self;
    c.opp_random = m->opp_random;
    c.opp_table = m->opp_table;
    c.opp_agent = m->opp_agent;
    snprintf(c.opp_agent_spec, sizeof c.opp_agent_spec, "%s", m->opp_agent_spec);
    c.starts = m->starts;
    c.sync = m->sync;
    c.seed = m->seed;
    c.workers = m->workers;
    if (c.replay_capacity && m->nrings != c.workers) {
        snprintf(err, cap, "the model uses replay but holds %u replay rings for %u workers; it cannot "
                 "be resumed exactly", m->nrings, c.workers);
        return NULL;
    }
    oxo_trainer *t = oxo_trainer_new_on(&c, g, truth, err, cap);
    if (!t)
        return NULL;
    int bad = 0;
    if (t->net) /* copied, or packed from a file of every filling (minor 3 and before) */
        bad = oxo_ntuple_load(t->net, m, m->values, t->values, err, cap);
    else if ((bad = m->nvalues != t->nvalues))
        snprintf(err, cap, "the model has %u values, its settings need %u", m->nvalues, t->nvalues);
    else
        memcpy(t->values, m->values, t->nvalues * sizeof *t->values);
    t->searched_games = m->nt_search_games;
    t->searched_iterations = m->nt_search_iterations;
    t->searched_alpha = m->nt_search_alpha;
    if (!bad && m->avg_count && t->avg) { /* the mean so far, in the weights' layout as they are */
        if (!(bad = oxo_ntuple_load(t->net, m, m->avg_values, t->avg, err, cap)))
            t->avg_count = m->avg_count;
    }
    if (bad) {
        oxo_trainer_free(t);
        return NULL;
    }
    sync_workers(t);
    for (uint32_t k = 0; k < c.workers; k++) {
        if (c.replay_capacity) {
            const oxo_replay_ring *r = &m->rings[k];
            if (r->nitems != r->count * t->w[k].ring.record) {
                snprintf(err, cap, "replay ring %u has %u items for %u records", k, r->nitems, r->count);
                oxo_trainer_free(t);
                return NULL;
            }
            if (check_ring(t, r, k, err, cap)) {
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

const oxo_train_config *oxo_trainer_config(const oxo_trainer *t) { return &t->c; }
uint64_t oxo_trainer_episodes(const oxo_trainer *t) { return t->episodes; }
const oxo_space *oxo_trainer_space(const oxo_trainer *t) { return t->space; }
const float *oxo_trainer_values(const oxo_trainer *t) { return t->values; }

oxo_player *oxo_trainer_player(const oxo_trainer *t)
{
    if (t->net)
        return oxo_player_borrow_net(t->net);
    return oxo_player_borrow(t->space, t->c.algo == OXO_ALGO_Q ? OXO_SRC_Q : OXO_SRC_TD, t->values,
                             t->c.gamma);
}

void oxo_trainer_set_judge(oxo_trainer *t, const oxo_judge *j)
{
    t->judge = j;
}

/* Grades the network with the weights w (the current values or the mean so far), else the table. */
static int grade(const oxo_trainer *t, const float *w, int solve, oxo_grade *g)
{
    oxo_ntuple view = {0};
    if (t->net)
        view = net_view(t->net, (float *)w);
    oxo_player *p = t->net ? oxo_player_borrow_net(&view) : oxo_trainer_player(t);
    if (!p)
        return -1;
    if (t->net && !t->judge) {
        oxo_player_close(p);
        return -1;
    }
    int rc = t->net ? oxo_grade_judged(t->judge, t->truth, p, t->c.seed ^ 0x5eed, solve, g)
                    : oxo_grade_run(t->truth, p, t->space, t->c.seed ^ 0x5eed, g);
    oxo_player_close(p);
    return rc;
}

int oxo_trainer_grade(const oxo_trainer *t, oxo_grade *g)
{
    return grade(t, t->values, 1, g);
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

int oxo_trainer_grade_mean(const oxo_trainer *t, int solve, oxo_grade *g)
{
    return grade(t, t->avg_count ? t->avg : t->values, solve, g);
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
    snprintf(m->index, sizeof m->index, "%s", t->net ? "ntuple" : "ply-code");
    m->symmetric = t->net ? 1 : c->symmetric;
    snprintf(m->algo, sizeof m->algo, "%s", c->algo == OXO_ALGO_Q ? "q" : c->algo == OXO_ALGO_TD ? "td" : "ntuple");
    if (t->net) {
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
            goto fail;
        memcpy(m->nt_cells, t->net->cells, (size_t)m->nt_count * m->nt_len);
    }
    m->alpha = c->alpha;
    m->epsilon = c->epsilon;
    m->gamma = c->gamma;
    m->lambda = c->lambda;
    snprintf(m->trace, sizeof m->trace, "%s", c->replacing ? "replacing" : "accumulating");
    m->init = c->init;
    m->replay_capacity = c->replay_capacity;
    m->replay_ratio = c->replay_ratio;
    m->replay_record = c->replay_capacity ? t->w[0].ring.record : 0;
    m->opp_self = c->opp_self;
    m->opp_random = c->opp_random;
    m->opp_table = c->opp_table;
    m->opp_agent = c->opp_agent;
    snprintf(m->opp_agent_spec, sizeof m->opp_agent_spec, "%s", c->opp_agent_spec);
    m->starts = c->starts;
    m->sync = c->sync;
    m->seed = c->seed;
    m->workers = c->workers;
    m->episodes = t->episodes;
    m->accuracy = g->accuracy;
    m->accuracy_distance = g->accuracy_distance;
    m->losses_as_x = g->losses_as_x;
    m->losses_as_o = g->losses_as_o;
    memcpy(m->random_as_x, g->random_as_x, sizeof m->random_as_x);
    memcpy(m->random_as_o, g->random_as_o, sizeof m->random_as_o);
    snprintf(m->trainer, sizeof m->trainer, "oxo-train %s", OXO_VERSION);
    if (parent)
        snprintf(m->parent, sizeof m->parent, "%s", parent);
    m->minor = OXO_MODEL_MINOR; /* a network's weights in its own layout */
    m->nvalues = t->nvalues;
    m->values = malloc(t->nvalues * sizeof *m->values);
    if (!m->values)
        goto fail;
    memcpy(m->values, t->values, t->nvalues * sizeof *m->values);
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
