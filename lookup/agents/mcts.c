/*
 * mcts:PLAYOUTS[:C][:value=FILE]: Monte Carlo tree search with UCT, each new leaf valued by a
 * random playout or by a value file; and the spec parser it shares with puct (puct.c), whose
 * arguments take the same form.
 */
#include "kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MCTS (UCT). A node's wins are counted for the player who made the move into it, so that the
 * parent, whose side moves, picks the child best for itself (the sign is where MCTS usually goes
 * wrong: an MCTS that loses to the random player has it backwards). */
typedef struct node {
    oxo_pos pos;
    int parent, unused, n; /* n: children expanded so far */
    uint64_t untried;
    double visits, wins;
    int move;
} node;

static double playout(const oxo_game *g, oxo_pos p, uint64_t *rng)
{
    /* The result for the player who moved into p: 1 win, 0.5 draw, 0 loss. */
    int flips = 0;
    for (;;) {
        oxo_status st = oxo_status_of(g, p);
        if (st != OXO_ONGOING) {
            /* the side to move lost: the last mover won */
            double r = st == OXO_OVER_DRAW ? 0.5 : 1.0;
            return flips & 1 ? 1.0 - r : r;
        }
        p = oxo_play(g, p, agent_random_move(g, p, rng));
        flips++;
    }
}

/* With a value file (mcts:N:C:value=FILE), a new leaf is valued by the file instead of a random
 * playout: the side to move's best move score (a table's exact value, a model's estimate clipped
 * to -1..1), as a result in 0..1 for the player who moved into the leaf. */
static double leaf_value(const oxo_agent *a, oxo_pos p)
{
    oxo_status st = oxo_status_of(a->g, p);
    if (st != OXO_ONGOING)
        return st == OXO_OVER_DRAW ? 0.5 : 1.0;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(a->value, p, mi);
    double best = -1;
    for (int i = 0; i < n; i++) {
        double v = agent_file_value(a, &mi[i]);
        best = v > best ? v : best;
    }
    return (1.0 - best) / 2.0; /* good for the side to move is bad for the one who moved in */
}

static int pick_mcts(oxo_agent *a, oxo_pos root, uint64_t *rng)
{
    const oxo_game *g = a->g;
    size_t cap = (size_t)a->playouts + 1;
    node *t = malloc(cap * sizeof *t);
    if (!t)
        return agent_random_move(g, root, rng);
    size_t used = 1;
    t[0] = (node){root, -1, -1, 0, oxo_legal(g, root), 0, 0, -1};
    /* Each expanded node's children: a row of node indexes in child[], found through slot[]. */
    int(*child)[OXO_MAX_MOVES] = NULL;
    size_t child_cap = 0;
    int *slot = malloc(cap * sizeof *slot); /* node -> its row in child[], or -1 */
    if (!slot) {
        free(t);
        return agent_random_move(g, root, rng);
    }
    slot[0] = -1;
    size_t rows = 0;
    for (long it = 0; it < a->playouts; it++) {
        int cur = 0;
        /* Selection: down fully expanded nodes by UCB1. */
        while (!t[cur].untried && t[cur].n > 0) {
            double lv = log(t[cur].visits);
            int best = -1;
            double bv = -1;
            for (int i = 0; i < t[cur].n; i++) {
                node *c = &t[child[slot[cur]][i]];
                double v = c->wins / c->visits + a->c * sqrt(lv / c->visits);
                if (v > bv) {
                    bv = v;
                    best = child[slot[cur]][i];
                }
            }
            cur = best;
        }
        /* Expansion: one untried move. */
        if (t[cur].untried && used < cap) {
            if (slot[cur] < 0) {
                if (rows == child_cap) {
                    size_t nc = child_cap ? 2 * child_cap : 64;
                    void *nr = realloc(child, nc * sizeof *child);
                    if (!nr)
                        break;
                    child = nr;
                    child_cap = nc;
                }
                slot[cur] = (int)rows++;
            }
            uint64_t u = t[cur].untried;
            int k = (int)oxo_rng_below(rng, (uint32_t)oxo_popcount(u));
            for (; k; k--)
                u &= u - 1;
            int m = __builtin_ctzll(u);
            t[cur].untried &= ~(1ull << m);
            oxo_pos np = oxo_play(g, t[cur].pos, m);
            int id = (int)used++;
            t[id] = (node){np, cur, -1, 0, oxo_legal(g, np), 0, 0, m};
            slot[id] = -1;
            child[slot[cur]][t[cur].n++] = id;
            cur = id;
        }
        /* Simulation from the new node, and backpropagation with the result flipped at each
         * level (the players alternate). */
        double r = a->value ? leaf_value(a, t[cur].pos) : playout(g, t[cur].pos, rng);
        for (int n = cur; n >= 0; n = t[n].parent) {
            t[n].visits += 1;
            t[n].wins += r;
            r = 1.0 - r;
        }
    }
    /* The most visited move; ties (rare) by the lower move number. */
    int best = -1;
    double bv = -1;
    for (int i = 0; slot[0] >= 0 && i < t[0].n; i++) {
        node *c = &t[child[slot[0]][i]];
        if (c->visits > bv || (c->visits == bv && c->move < t[best].move)) {
            bv = c->visits;
            best = child[slot[0]][i];
        }
    }
    int move = best >= 0 ? t[best].move : agent_random_move(g, root, rng);
    free(child);
    free(slot);
    free(t);
    return move;
}

int agent_open_search(oxo_agent *a, const char *word, const char *spec, const char *arg,
                      int *failed, oxo_error *err)
{
    /* mcts:PLAYOUTS[:C][:value=FILE], puct:ITERATIONS[:C]:value=FILE (its priors need values) */
    const int puct = !strcmp(word, "puct");
    char buf[4200];
    long long v;
    char *vfile = agent_split_value(arg, buf, sizeof buf, NULL);
    char *c2 = strchr(buf, ':');
    if (c2)
        *c2++ = 0;
    a->c = puct ? OXO_PUCT_C : 1.4;
    char *end = NULL;
    if (agent_number(buf, 1, puct ? 1000000 : 10000000, &v) ||
        (c2 && (!*c2 || (a->c = strtod(c2, &end), *end) || !(a->c >= 0 && a->c <= 100))) ||
        (vfile && !*vfile) || (puct && !vfile)) {
        if (puct)
            oxo_fail(
                err, OXO_E_ARG,
                "agent '%.80s': puct:ITERATIONS[:C]:value=FILE, 1 to 1000000 iterations, "
                "C from 0 to 100, a model or table FILE giving the priors and the leaves' values",
                spec);
        else
            oxo_fail(err, OXO_E_ARG,
                     "agent '%.80s': mcts:PLAYOUTS[:C][:value=FILE], 1 to 10000000 playouts, "
                     "C from 0 to 100",
                     spec);
        return -1;
    }
    a->playouts = v;
    if (vfile && !(a->value = agent_open_value(a->g, spec, vfile, failed, err)))
        return -1;
    return 0;
}

/* clang-format off */
const agent_kind oxo_agent_mcts = {
    .name = "mcts", .open = agent_open_search, .pick = pick_mcts,
    .usage = "mcts:PLAYOUTS[:C][:value=FILE]",
    .about = "Monte Carlo tree search with UCT, 1-10000000 playouts, exploration C (default "
             "1.4), leaves valued by random playouts or by a model or table FILE",
};
/* clang-format on */
