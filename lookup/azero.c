/*
 * AlphaZero-lite networks evaluated one position at a time (the player, the agent, the trainer's
 * grading) through lookup/freestanding/azero.c, as an exported player evaluates them, and the PUCT
 * search the trainer and the agent share (see azero.h). The trainer's batched evaluation
 * (train/learners/azero_net.c) computes the same function through a BLAS.
 */
#include "azero.h"

#include "freestanding/azero.c"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The freestanding network over shape s's arrays and weights w. */
static oxp_azero fs_of(const oxo_az_shape *s, const float *w)
{
    return (oxp_azero){s->cells, s->moves, s->layers, s->width,  w,
                       s->lines, s->k,     s->line,   s->threats};
}

/* The cells of the side to move of p (mine) and of the other side (theirs), as networks read them.
 */
static void sides(const oxo_game *g, oxo_pos p, uint64_t *mine, uint64_t *theirs)
{
    uint64_t xs, os;
    oxo_cells(g, p, &xs, &os);
    const int x_moves = oxo_x_to_move(g, p);
    *mine = x_moves ? xs : os, *theirs = x_moves ? os : xs;
}

/* The cells the moves of p fill (what a network with threats reads), as the game places them
 * (oxo_cell_of_move); 0 for a network without threats. */
static uint64_t playable(const oxo_az_shape *s, const oxo_game *g, oxo_pos p)
{
    uint64_t cells = 0;
    for (uint64_t l = s->threats ? oxo_legal(g, p) : 0; l; l &= l - 1)
        cells |= 1ull << oxo_cell_of_move(g, p, __builtin_ctzll(l));
    return cells;
}

int oxo_az_shape_of(oxo_az_shape *s, const oxo_game *g, const uint32_t *width, int layers,
                    int inputs, oxo_error *err)
{
    memset(s, 0, sizeof *s);
    if (layers < 1 || layers > OXO_AZ_MAX_LAYERS)
        return oxo_fail(err, OXO_E_FIELD, "%d hidden layers, expected 1 to %d", layers,
                        OXO_AZ_MAX_LAYERS);
    for (int l = 0; l < layers; l++) {
        if (width[l] < 1 || width[l] > OXO_AZ_MAX_WIDTH)
            return oxo_fail(err, OXO_E_FIELD, "hidden layer %d of %u units, expected 1 to %d",
                            l + 1, width[l], OXO_AZ_MAX_WIDTH);
        s->width[l] = (int)width[l];
    }
    s->cells = g->cells;
    s->inputs = 2 * g->cells;
    s->moves = g->moves;
    s->layers = layers;
    if (inputs == OXO_AZ_CELLS)
        return 0;
    uint64_t mask[OXO_MAX_LINES];
    const int n = oxo_cell_lines(g, mask), k = n ? oxo_popcount(mask[0]) : 0;
    if (!n || k > OXO_AZ_MAX_K || 2 * g->cells + (uint64_t)n * ((2u << k) - 1) > OXO_AZ_MAX_INPUTS)
        return oxo_fail(err, OXO_E_FIELD,
                        "%s's %d lines of %d cells: a network with lines takes lines of 1 to %d "
                        "cells and at most %d inputs",
                        g->spec, n, k, OXO_AZ_MAX_K, OXO_AZ_MAX_INPUTS);
    for (int l = 0; l < n; l++) {
        int j = 0;
        for (uint64_t r = mask[l]; r; r &= r - 1)
            s->line[l * k + j++] = (uint8_t)__builtin_ctzll(r);
    }
    s->lines = n, s->k = k;
    s->threats = inputs == OXO_AZ_THREATS;
    const oxp_azero fs = fs_of(s, NULL);
    s->inputs = oxp_azero_ninputs(&fs);
    return 0;
}

uint64_t oxo_az_params(const oxo_az_shape *s)
{
    uint64_t n = 0;
    int in = s->inputs;
    for (int l = 0; l < s->layers; l++) {
        n += (uint64_t)s->width[l] * (uint64_t)(in + 1);
        in = s->width[l];
    }
    return n + (uint64_t)s->moves * (uint64_t)(in + 1) + (uint64_t)(in + 1);
}

void oxo_az_inputs(const oxo_game *g, oxo_pos p, float *x)
{
    uint64_t mine, theirs;
    sides(g, p, &mine, &theirs);
    oxp_azero_inputs(g->cells, mine, theirs, x);
}

int oxo_az_active(const oxo_az_shape *s, const oxo_game *g, oxo_pos p, int *act)
{
    const oxp_azero fs = fs_of(s, NULL);
    uint64_t mine, theirs;
    sides(g, p, &mine, &theirs);
    return oxp_azero_active(&fs, mine, theirs, playable(s, g, p), act);
}

float oxo_az_forward(const oxo_az_net *n, const oxo_game *g, oxo_pos p, float *logits)
{
    const oxp_azero fs = fs_of(&n->s, n->w);
    uint64_t mine, theirs;
    sides(g, p, &mine, &theirs);
    return oxp_azero_forward(&fs, mine, theirs, playable(&n->s, g, p), logits);
}

void oxo_az_softmax(int moves, uint64_t legal, const float *logits, float *prior)
{
    oxp_azero_softmax(moves, legal, logits, prior);
}

int oxo_az_pick(const oxo_az_net *n, const oxo_game *g, oxo_pos p)
{
    float logits[OXO_MAX_MOVES];
    oxo_az_forward(n, g, p, logits);
    int best = -1;
    for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
        int m = __builtin_ctzll(legal);
        if (best < 0 || logits[m] > logits[best])
            best = m;
    }
    return best;
}

/* The search
 *
 * A graph, not a tree: the positions that several orders of the same moves reach share one node
 * (on Connect-4, two moves in two columns commute from the third ply, so a search of 800
 * simulations meets the same position again and again). Its statistics are kept as KataGo's
 * "Monte-Carlo Graph Search from First Principles" (D. Wu) derives them from MCTS seen as policy
 * optimisation: an edge counts the simulations its node sent through it (its visits, the policy
 * the search learns there), a node's value is its own evaluation and its edges' values weighted by
 * their visits, Q(n) = (U(n) + sum N(n,a) Q(n,a)) / (1 + sum N(n,a)), worked out again each time
 * a simulation passes (a running mean of the simulations through a shared node would mix in what
 * other parents sent it). A simulation goes on through a node reached before, to a new leaf, as
 * on a tree: stopping where the node has more visits than the edge it came by (KataGo's default)
 * kept as much or less of the 7x6 judged set on both networks measured (train/RECORD.md). On them
 * the graph kept 0.1 to 0.3 points more than the tree at 200, 400 and 800 simulations. */

typedef struct az_edge {
    float prior;
    int n;           /* the simulations its node sent through it */
    int move, child; /* child: its node, -1 until reached */
    int ends;        /* 1 when the move ends the game; result: its value for the mover */
    float result;
} az_edge;

typedef struct az_node {
    oxo_pos pos;
    int e0, ne; /* edges e0 .. e0 + ne - 1; ne -1 until valued */
    int n;      /* 1 + its edges' visits */
    float u;    /* the network's value, for the side that moved into it */
    double q;   /* Q(n), for the side that moved into it */
} az_node;

struct oxo_az_tree {
    const oxo_game *g;
    int sims, done;
    az_node *node;
    az_edge *edge;
    int nnodes, nedges, max_nodes;
    int *path;      /* the edges of the simulation under way */
    int *slot;      /* the nodes by position (-1: empty), open addressing */
    uint32_t slots; /* a power of two, at least twice max_nodes */
    int depth;
    int leaf; /* the node waiting for its evaluation, -1 when none */
    double c;
    float noise[OXO_MAX_MOVES];
    double eps;
};

oxo_az_tree *oxo_az_tree_new(const oxo_game *g, int sims)
{
    oxo_az_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->g = g;
    t->sims = sims;
    t->max_nodes = sims + 2;
    for (t->slots = 4; t->slots < 2u * (uint32_t)t->max_nodes;)
        t->slots *= 2;
    t->node = malloc((size_t)t->max_nodes * sizeof *t->node);
    t->edge = malloc((size_t)t->max_nodes * (size_t)g->moves * sizeof *t->edge);
    t->path = malloc(((size_t)g->cells + 2) * sizeof *t->path);
    t->slot = malloc(t->slots * sizeof *t->slot);
    if (!t->node || !t->edge || !t->path || !t->slot) {
        oxo_az_tree_free(t);
        return NULL;
    }
    return t;
}

void oxo_az_tree_free(oxo_az_tree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t->edge);
    free(t->path);
    free(t->slot);
    free(t);
}

/* The node of p, made when the search has none; *made says which. */
static int node_of(oxo_az_tree *t, oxo_pos p, int *made)
{
    const uint64_t h = p.me * 0x9e3779b97f4a7c15u ^ p.opp * 0xc2b2ae3d27d4eb4fu;
    uint32_t i = (uint32_t)(h >> 32) & (t->slots - 1);
    for (; t->slot[i] >= 0; i = (i + 1) & (t->slots - 1)) {
        const az_node *o = &t->node[t->slot[i]];
        if (o->pos.me == p.me && o->pos.opp == p.opp) {
            *made = 0;
            return t->slot[i];
        }
    }
    t->node[t->nnodes] = (az_node){.pos = p, .ne = -1};
    t->slot[i] = t->nnodes;
    *made = 1;
    return t->nnodes++;
}

void oxo_az_tree_start(oxo_az_tree *t, oxo_pos p, double c, const float *noise, double eps)
{
    t->nnodes = t->nedges = 0;
    t->done = 0;
    t->depth = 0;
    t->c = c;
    t->eps = noise ? eps : 0;
    if (noise)
        memcpy(t->noise, noise, (size_t)t->g->moves * sizeof *noise);
    memset(t->slot, 0xff, t->slots * sizeof *t->slot);
    int made;
    t->leaf = node_of(t, p, &made);
}

/* An edge's value for its mover: the result of a move that ends the game, else its position's Q
 * (the edge has been followed, so its position is valued). */
static double edge_q(const oxo_az_tree *t, const az_edge *e)
{
    return e->ends ? e->result : t->node[e->child].q;
}

/* Node i's visits and Q from its edges, after one of them gained a visit. */
static void revalue(oxo_az_tree *t, int i)
{
    az_node *nd = &t->node[i];
    double sum = nd->u;
    nd->n = 1;
    for (int k = nd->e0; k < nd->e0 + nd->ne; k++)
        if (t->edge[k].n) {
            nd->n += t->edge[k].n;
            sum -= t->edge[k].n * edge_q(t, &t->edge[k]);
        }
    nd->q = sum / nd->n;
}

/* The simulation under way is done: each edge of its path gains a visit, each node of its path
 * its value again, from the deepest up (the node an edge leaves is the root or the one the edge
 * before it reached). */
static void finish(oxo_az_tree *t)
{
    for (int k = t->depth - 1; k >= 0; k--) {
        t->edge[t->path[k]].n++;
        revalue(t, k ? t->edge[t->path[k - 1]].child : 0);
    }
    t->done++;
}

/* The edge of node nd that PUCT follows; an edge not yet followed is worth 0. */
static int select_edge(const oxo_az_tree *t, const az_node *nd)
{
    const double sq = sqrt((double)nd->n);
    double best = -INFINITY;
    int at = nd->e0;
    for (int i = nd->e0; i < nd->e0 + nd->ne; i++) {
        const az_edge *e = &t->edge[i];
        double u = (e->n ? edge_q(t, e) : 0.0) + t->c * e->prior * sq / (1.0 + e->n);
        if (u > best)
            best = u, at = i;
    }
    return at;
}

int oxo_az_tree_want(oxo_az_tree *t, oxo_pos *leaf)
{
    if (t->leaf >= 0) { /* the root, before anything */
        *leaf = t->node[t->leaf].pos;
        return 1;
    }
    while (t->done < t->sims) {
        int at = 0;
        t->depth = 0;
        for (;;) {
            const int ei = select_edge(t, &t->node[at]);
            az_edge *e = &t->edge[ei];
            t->path[t->depth++] = ei;
            if (e->ends)
                break;
            if (e->child < 0) {
                if (t->nnodes == t->max_nodes) { /* never: a simulation adds one node at most */
                    t->done = t->sims;
                    return 0;
                }
                int made;
                const int c = node_of(t, oxo_play(t->g, t->node[at].pos, e->move), &made);
                e->child = c;
                if (made) {
                    t->leaf = c;
                    *leaf = t->node[c].pos;
                    return 1;
                }
                /* reached before by another order of the moves, so valued already (a search
                 * waits for one leaf at a time): the simulation goes on through it */
            }
            at = e->child;
        }
        finish(t);
    }
    return 0;
}

void oxo_az_tree_feed(oxo_az_tree *t, const float *logits, float value)
{
    const oxo_game *g = t->g;
    az_node *nd = &t->node[t->leaf];
    const uint64_t legal = oxo_legal(g, nd->pos);
    float prior[OXO_MAX_MOVES];
    oxo_az_softmax(g->moves, legal, logits, prior);
    const int root = t->leaf == 0;
    if (root && t->eps > 0)
        for (int m = 0; m < g->moves; m++)
            if (legal >> m & 1)
                prior[m] = (float)((1 - t->eps) * prior[m] + t->eps * t->noise[m]);
    nd->e0 = t->nedges;
    nd->ne = 0;
    for (uint64_t l = legal; l; l &= l - 1) {
        const int m = __builtin_ctzll(l);
        az_edge *e = &t->edge[t->nedges++];
        const oxo_status st = oxo_status_of(g, oxo_play(g, nd->pos, m));
        *e = (az_edge){.prior = prior[m], .move = m, .child = -1, .ends = st != OXO_ONGOING};
        e->result = st == OXO_OVER_LOSS ? 1.0f : 0.0f; /* the mover won, or drew */
        nd->ne++;
    }
    nd->u = -value; /* value is for the leaf's side to move: its mover gets the opposite */
    nd->n = 1;
    nd->q = nd->u;
    t->leaf = -1;
    if (!root)
        finish(t);
}

double oxo_az_tree_visits(const oxo_az_tree *t, float *visits)
{
    double sum = 0;
    memset(visits, 0, (size_t)t->g->moves * sizeof *visits);
    const az_node *r = &t->node[0];
    for (int i = r->e0; i < r->e0 + (r->ne > 0 ? r->ne : 0); i++) {
        visits[t->edge[i].move] = (float)t->edge[i].n;
        sum += t->edge[i].n;
    }
    return sum;
}

double oxo_az_tree_q(const oxo_az_tree *t)
{
    const az_node *r = &t->node[0];
    double w = 0, n = 0;
    for (int i = r->e0; i < r->e0 + (r->ne > 0 ? r->ne : 0); i++)
        if (t->edge[i].n)
            w += t->edge[i].n * edge_q(t, &t->edge[i]), n += t->edge[i].n;
    return n > 0 ? w / n : 0;
}

float oxo_az_tree_mean(const oxo_az_tree *t, int move)
{
    const az_node *r = &t->node[0];
    for (int i = r->e0; i < r->e0 + (r->ne > 0 ? r->ne : 0); i++)
        if (t->edge[i].move == move)
            return t->edge[i].n ? (float)edge_q(t, &t->edge[i]) : -2.0f;
    return -2.0f;
}

int oxo_az_tree_best(const oxo_az_tree *t)
{
    const az_node *r = &t->node[0];
    int best = -1;
    for (int i = r->e0; i < r->e0 + (r->ne > 0 ? r->ne : 0); i++) {
        const az_edge *e = &t->edge[i];
        if (best < 0)
            best = i;
        const az_edge *b = &t->edge[best];
        const double qe = e->n ? edge_q(t, e) : -2, qb = b->n ? edge_q(t, b) : -2;
        if (e->n > b->n || (e->n == b->n && qe > qb))
            best = i;
    }
    return best < 0 ? -1 : t->edge[best].move;
}

int oxo_az_search(oxo_az_tree *t, const oxo_az_net *n, const oxo_game *g, oxo_pos p, double c)
{
    float logits[OXO_MAX_MOVES];
    oxo_pos leaf;
    oxo_az_tree_start(t, p, c, NULL, 0);
    while (oxo_az_tree_want(t, &leaf)) {
        float v = oxo_az_forward(n, g, leaf, logits);
        oxo_az_tree_feed(t, logits, v);
    }
    return oxo_az_tree_best(t);
}
