/*
 * puct:ITERATIONS[:C]:value=FILE: the tree search of AlphaZero led by a value file (a model or a
 * table) instead of a network; also the search oxo-train's search phase reads (oxo_puct_root) and
 * the budgeted solver's fallback over its value model (solver.c).
 */
#include "kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PUCT (puct:N[:C]:value=FILE): the tree search of AlphaZero, with a value file in place of its
 * network, as GBG wraps its trained n-tuple agents at test time (Scheiermann and Konen, 2022).
 * Unlike UCT above, each move starts from what the file knows of it: its prior is a softmax of the
 * file's values of the moves (temperature PUCT_TAU), and until visited its value is the file's.
 * A new node is valued one ply deeper than the move into it, by the best of its side to move's
 * moves (the opponent's own weights, on a network with a set a player). So the search spends its
 * iterations on the moves the file thinks best and leaves them only when deeper values disagree;
 * UCT with the same leaves spread its iterations over every move and found the file's
 * overestimates (train/RECORD.md: against the perfect player the 7x6 network won 40-43% of its
 * games as X under UCT, 70.5% alone, 91.6% under puct:1000). Selection maximises Q + C * P *
 * sqrt(N) / (1 + n); the move played is the most visited, ties by value then by the lower move: no
 * random draw, so a pick depends on the position only. */
#define PUCT_TAU 0.2

typedef struct pedge {
    double prior, q0, n, w; /* q0: the file's value of the move (a result when it ends the game) */
    int move, child, ends;  /* child: its node, -1 until expanded */
} pedge;

typedef struct pnode {
    oxo_pos pos;
    int e0, ne; /* edges e0 .. e0 + ne - 1 */
    double n;
} pnode;

/* A move's value so far: the mean of its backed-up results, the file's value until it has one. */
static double pedge_q(const pedge *e)
{
    return e->n > 0 ? e->w / e->n : e->q0;
}

/* Lists a node's moves with their priors and first values; returns the value of the node for its
 * side to move (its best move's), or 0 when the file does not know the position. */
static double puct_expand(const oxo_agent *a, pnode *nd, pedge *edge, int *edges)
{
    const oxo_game *g = a->g;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(a->value, nd->pos, mi);
    nd->e0 = *edges;
    nd->ne = n > 0 ? n : 0;
    double best = -1, sum = 0;
    for (int i = 0; i < nd->ne; i++) {
        pedge *e = &edge[nd->e0 + i];
        oxo_status st = oxo_status_of(g, oxo_play(g, nd->pos, mi[i].move));
        e->move = mi[i].move;
        e->child = -1;
        e->n = e->w = 0;
        e->ends = st != OXO_ONGOING;
        /* A move that ends the game wins it or draws it (the side to move at the child lost). */
        e->q0 = e->ends ? (st == OXO_OVER_LOSS ? 1.0 : 0.0) : agent_file_value(a, &mi[i]);
        best = e->q0 > best ? e->q0 : best;
    }
    for (int i = 0; i < nd->ne; i++) { /* exp of differences from the best: no overflow */
        pedge *e = &edge[nd->e0 + i];
        e->prior = exp((e->q0 - best) / PUCT_TAU);
        sum += e->prior;
    }
    for (int i = 0; i < nd->ne; i++)
        edge[nd->e0 + i].prior /= sum;
    *edges += nd->ne;
    return nd->ne ? best : 0;
}

/* The file's best move, when the search cannot run (out of memory). */
static int puct_fallback(const oxo_agent *a, oxo_pos root, uint64_t *rng)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(a->value, root, mi), best[OXO_MAX_MOVES];
    int nb = n > 0 ? oxo_best_moves(mi, n, best) : 0;
    return nb ? best[0] : agent_random_move(a->g, root, rng);
}

/* The array `arr` (capacity *cap, at most `most` items of `size` bytes) with room for `need`,
 * doubling: the tree grows as the search uses it, so that a large N costs memory only if the
 * search gets there (N nodes of N x moves edges up front was gigabytes for 1,000,000 iterations on
 * 8x8). NULL when it cannot, `arr` then still valid. */
static void *puct_room(void *arr, size_t *cap, size_t need, size_t most, size_t size)
{
    if (need <= *cap)
        return arr;
    size_t c = *cap * 2 > need ? *cap * 2 : need;
    c = c < most ? c : most;
    void *p = need <= c ? realloc(arr, c * size) : NULL;
    if (p)
        *cap = c;
    return p;
}

/* The search from root over the moves in `among` (all others set aside at the root only), with
 * `iterations` iterations and exploration c: the move it plays, -1 when it cannot search (out of
 * memory, or the file knows none of those moves); with `out`, the root's moves as searched. */
int agent_puct_search(const oxo_agent *a, oxo_pos root, uint64_t among, long iterations, double c,
                      oxo_puct_move *out, int *nout)
{
    const oxo_game *g = a->g;
    /* At most one node an iteration, and a node's moves: the caps of the two arrays. */
    size_t most_nodes = (size_t)iterations + 1, most_edges = most_nodes * (size_t)g->moves;
    size_t ncap = most_nodes < 256 ? most_nodes : 256, ecap = ncap * (size_t)g->moves;
    pnode *tree = malloc(ncap * sizeof *tree);
    pedge *edge = malloc(ecap * sizeof *edge);
    if (!tree || !edge) {
        free(tree), free(edge);
        return -1;
    }
    int nodes = 1, edges = 0;
    tree[0] = (pnode){root, 0, 0, 0};
    puct_expand(a, &tree[0], edge, &edges);
    int kept = 0;
    double sum = 0;
    /* the root's moves set aside; the others' priors renormalised */
    for (int i = 0; i < tree[0].ne; i++)
        if (among >> edge[i].move & 1) {
            edge[kept++] = edge[i];
            sum += edge[i].prior;
        }
    for (int i = 0; i < kept && kept < tree[0].ne; i++)
        edge[i].prior /= sum;
    tree[0].ne = edges = kept;
    int path[OXO_MAX_MOVES + 1];
    for (long it = 0; tree[0].ne && it < iterations; it++) {
        /* Room for the node this iteration may add, before any pointer into the arrays is taken;
         * out of memory, the search stops and plays from what it has seen. */
        pnode *t = puct_room(tree, &ncap, (size_t)nodes + 1, most_nodes, sizeof *tree);
        if (t)
            tree = t;
        pedge *ed =
            t ? puct_room(edge, &ecap, (size_t)edges + (size_t)g->moves, most_edges, sizeof *edge)
              : NULL;
        if (!ed)
            break;
        edge = ed;
        int cur = 0, np = 0;
        /* the result of the iteration for the player who made the last move of the path */
        double v;
        for (;;) {
            pnode *nd = &tree[cur];
            if (!nd->ne) { /* the file lacks this position: its move's own value stands */
                v = edge[path[np - 1]].q0;
                break;
            }
            double sq = sqrt(nd->n + 1), bu = -HUGE_VAL;
            int be = nd->e0;
            for (int i = nd->e0; i < nd->e0 + nd->ne; i++) {
                const pedge *e = &edge[i];
                double u = pedge_q(e) + c * e->prior * sq / (1 + e->n);
                if (u > bu) {
                    bu = u;
                    be = i;
                }
            }
            path[np++] = be;
            pedge *e = &edge[be];
            if (e->ends) {
                v = e->q0;
                break;
            }
            if (e->child < 0) {
                int id = nodes++; /* at most one an iteration: puct_room made room for it */
                tree[id] = (pnode){oxo_play(g, nd->pos, e->move), 0, 0, 0};
                e->child = id;
                double b = puct_expand(a, &tree[id], edge, &edges);
                v = tree[id].ne ? -b : e->q0;
                break;
            }
            cur = e->child;
        }
        /* Back up, the sign flipping with the player at each ply; the nodes on the path count the
         * visit. */
        tree[0].n += 1;
        for (int k = np - 1; k >= 0; k--, v = -v) {
            edge[path[k]].n += 1;
            edge[path[k]].w += v;
        }
        for (int k = 0; k < np && edge[path[k]].child >= 0; k++)
            tree[edge[path[k]].child].n += 1;
    }
    int move = -1;
    double bn = -1, bq = -HUGE_VAL;
    if (out)
        *nout = tree[0].ne;
    for (int i = tree[0].e0; i < tree[0].e0 + tree[0].ne; i++) {
        const pedge *e = &edge[i];
        double q = pedge_q(e);
        if (out)
            out[i - tree[0].e0] = (oxo_puct_move){e->move, e->ends, e->n, q};
        if (e->n > bn || (e->n == bn && q > bq)) {
            bn = e->n;
            bq = q;
            move = e->move;
        }
    }
    free(tree), free(edge);
    return move;
}

int oxo_puct_root(const oxo_game *g, oxo_player *value, oxo_pos p, long iterations, double c,
                  oxo_puct_move *out, int *n)
{
    oxo_agent a = {.g = g, .value = value};
    *n = 0;
    return agent_puct_search(&a, p, ~0ull, iterations, c, out, n);
}

static int pick_puct(oxo_agent *a, oxo_pos root, uint64_t *rng)
{
    int move = agent_puct_search(a, root, ~0ull, a->playouts, a->c, NULL, NULL);
    return move >= 0 ? move : puct_fallback(a, root, rng);
}

/* clang-format off */
const agent_kind oxo_agent_puct = {
    .name = "puct", .open = agent_open_search, .pick = pick_puct, /* open: mcts.c's, the same forms */
    .usage = "puct:ITERATIONS[:C]:value=FILE",
    .about = "AlphaZero's search, 1-1000000 iterations, C default 1.0, led by a model or table "
             "FILE's values of the moves",
};
/* clang-format on */
