/*
 * The agents of agent.h: parsing specs, and the searches that have no other home (alpha-beta with
 * the alignment heuristic, MCTS, the exact-by-table or Connect-4 solver as a player).
 */
#include "agent.h"

#include "c4solve.h"
#include "cli.h"
#include "clock.h"
#include "player.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { A_RANDOM, A_PLAYER, A_SOLVER, A_ALPHABETA, A_MCTS, A_PUCT } kind;

/* Winning lines over the cells of the board as people see it (oxo_cells), with each cell's
 * weight: the number of lines through it. */
typedef struct lines {
    int n;
    uint64_t line[OXO_MAX_LINES];
    int weight[OXO_MAX_MOVES];
} lines;

struct oxo_agent {
    const oxo_game *g;
    kind kind;
    const char *kind_name;
    char name[160];
    oxo_player *player;     /* table, model, or the solver's table on enumerable games */
    oxo_player *value;      /* :value=FILE: values MCTS leaves, or chooses where the solver's budget runs out */
    const oxo_player *book; /* an opening book (Connect-4), looked up before solving */
    oxo_player *own_book;   /* ... opened from solver:...:book=FILE */
    oxo_c4solver *c4;       /* the solver on Connect-4 */
    int depth;              /* alphabeta */
    long playouts;          /* mcts, puct: iterations a move */
    double c;               /* mcts, puct: exploration */
    lines *lines;
    long budget_ms;         /* solver:MS on Connect-4: a time budget per move (0: none) */
    uint64_t budget_nodes;  /* solver:nodes=N: a budget of nodes per move instead (0: none) */
    int outcome;            /* solver:outcome: any move of the best outcome, whatever the distance */
    char note[120];         /* what the last pick was, when it was not exact */
    const char *chosen;     /* what chose the last move of a Connect-4 solver: "solver", "proven win", ... */
};

static void lines_init(lines *L, const oxo_game *g)
{
    memset(L, 0, sizeof *L);
    L->n = oxo_cell_lines(g, L->line);
    for (int i = 0; i < L->n; i++)
        for (uint64_t b = L->line[i]; b; b &= b - 1)
            L->weight[__builtin_ctzll(b)]++;
}

/* VALUE_SCALE: a value file's -1..1 as alpha-beta scores, far from the wins (WIN less a ply count). */
enum { THREAT = 16, WIN = 1000000, VALUE_SCALE = 100000 };

static int align_eval(const lines *L, const oxo_game *g, oxo_pos p)
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    int xm = oxo_x_to_move(g, p);
    uint64_t me = xm ? x : o, op = xm ? o : x, mine = 0, theirs = 0;
    int score = 0;
    for (uint64_t b = me; b; b &= b - 1)
        score += L->weight[__builtin_ctzll(b)];
    for (uint64_t b = op; b; b &= b - 1)
        score -= L->weight[__builtin_ctzll(b)];
    for (int i = 0; i < L->n; i++) {
        uint64_t l = L->line[i];
        if (!(l & op) && oxo_popcount(l & ~me) == 1)
            mine |= l & ~me;
        if (!(l & me) && oxo_popcount(l & ~op) == 1)
            theirs |= l & ~op;
    }
    return score + THREAT * (oxo_popcount(mine) - oxo_popcount(theirs));
}

int oxo_align_eval(const oxo_game *g, oxo_pos p)
{
    static _Thread_local lines L;
    static _Thread_local const oxo_game *for_game;
    if (for_game != g) {
        lines_init(&L, g);
        for_game = g;
    }
    return align_eval(&L, g, p);
}

/* The value a value file (`:value=FILE`) gives a move for its mover: a table's exact value, a
 * model's estimate clipped to -1..1. */
static double file_value(const oxo_agent *a, const oxo_move_info *mi)
{
    double v = a->value->source == OXO_SRC_TABLE ? mi->value : mi->score;
    return v > 1 ? 1 : v < -1 ? -1 : v;
}

/* A learned or solved value of p for the side to move (alphabeta:DEPTH:value=FILE): its best move
 * by the file's values of its moves (a model's estimate clipped to -1..1, a table's exact value),
 * scaled under the win scores; a move that ends the game scores its result. The file values
 * afterstates, the positions after each move, so a leaf is worth its best afterstate: one ply
 * more than the search, at the cost of one position's sum per move. */
static int value_eval(const oxo_agent *a, oxo_pos p, int ply)
{
    const oxo_game *g = a->g;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(a->value, p, mi), best = -2 * WIN;
    if (n <= 0) /* a table that lacks the position */
        return align_eval(a->lines, g, p);
    for (int i = 0; i < n; i++) {
        oxo_status st = oxo_status_of(g, oxo_play(g, p, mi[i].move));
        int v = 0;
        if (st == OXO_OVER_LOSS) /* the side to move at the child lost: this move wins */
            v = WIN - (ply + 1);
        else if (st == OXO_ONGOING)
            v = (int)lround(file_value(a, &mi[i]) * VALUE_SCALE);
        best = v > best ? v : best;
    }
    return best;
}

/* Negamax with alpha-beta to a depth, the heuristic (or a value file) at the leaves; a win scores
 * WIN less the plies to it, so the faster win (and the slower loss) is preferred. */
static int alphabeta(const oxo_agent *a, oxo_pos p, int depth, int ply, int alpha, int beta)
{
    const oxo_game *g = a->g;
    oxo_status st = oxo_status_of(g, p);
    if (st == OXO_OVER_LOSS)
        return -(WIN - ply);
    if (st == OXO_OVER_DRAW)
        return 0;
    if (depth == 0)
        return a->value ? value_eval(a, p, ply) : align_eval(a->lines, g, p);
    uint64_t legal = oxo_legal(g, p);
    int best = -2 * WIN;
    for (int i = 0; i < g->moves; i++) {
        int m = g->order[i];
        if (!(legal >> m & 1))
            continue;
        int v = -alphabeta(a, oxo_play(g, p, m), depth - 1, ply + 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* The moves of the best value so far, for a pick at random among them. */
typedef struct ties {
    int best, n, move[OXO_MAX_MOVES];
} ties;

static void ties_add(ties *t, int move, int value)
{
    if (t->n == 0 || value > t->best) {
        t->best = value;
        t->n = 0;
    }
    if (value == t->best)
        t->move[t->n++] = move;
}

static int ties_pick(const ties *t, uint64_t *rng)
{
    return t->n ? t->move[oxo_rng_below(rng, (uint32_t)t->n)] : -1;
}

/* Picks at random among the moves whose value equals the best one. Each root move is searched
 * with alpha just below the best so far: values at or above it are exact, so ties are found. */
static int pick_alphabeta(const oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    ties t = { 0 };
    for (int m = 0; m < g->moves; m++)
        if (legal >> m & 1)
            ties_add(&t, m, -alphabeta(a, oxo_play(g, p, m), a->depth - 1, 1, -2 * WIN,
                                       t.n ? -(t.best - 1) : 2 * WIN));
    return ties_pick(&t, rng);
}

static int random_move(const oxo_game *g, oxo_pos p, uint64_t *rng)
{
    uint64_t legal = oxo_legal(g, p);
    int n = oxo_popcount(legal);
    if (!n)
        return -1;
    for (int k = (int)oxo_rng_below(rng, (uint32_t)n); k; k--)
        legal &= legal - 1;
    return __builtin_ctzll(legal);
}

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
            double r = st == OXO_OVER_DRAW ? 0.5 : 1.0; /* the side to move lost: the last mover won */
            return flips & 1 ? 1.0 - r : r;
        }
        p = oxo_play(g, p, random_move(g, p, rng));
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
        double v = file_value(a, &mi[i]);
        best = v > best ? v : best;
    }
    return (1.0 - best) / 2.0; /* good for the side to move is bad for the one who moved in */
}

/* PUCT (puct:N[:C]:value=FILE): the tree search of AlphaZero, with a value file in place of its
 * network, as GBG wraps its trained n-tuple agents at test time (Scheiermann and Konen, 2022).
 * Unlike UCT above, each move starts from what the file knows of it: its prior is a softmax of the
 * file's values of the moves (temperature PUCT_TAU), and until visited its value is the file's.
 * A new node is valued one ply deeper than the move into it, by the best of its side to move's
 * moves (the opponent's own weights, on a network with a set a player). So the search spends its
 * iterations on the moves the file thinks best and leaves them only when deeper values disagree;
 * UCT with the same leaves spread its iterations over every move and found the file's
 * overestimates (README: against the perfect player the 7x6 network won 40-43% of its games as X
 * under UCT, 70.5% alone, 91.6% under puct:1000). Selection maximises Q + C * P * sqrt(N) / (1 + n);
 * the move played is the most visited, ties by value then by the lower move: no random draw, so a
 * pick depends on the position only. */
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
        e->q0 = e->ends ? (st == OXO_OVER_LOSS ? 1.0 : 0.0) : file_value(a, &mi[i]);
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
    return nb ? best[0] : random_move(a->g, root, rng);
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
static int puct_search(const oxo_agent *a, oxo_pos root, uint64_t among, long iterations, double c,
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
    tree[0] = (pnode){ root, 0, 0, 0 };
    puct_expand(a, &tree[0], edge, &edges);
    int kept = 0;
    double sum = 0;
    for (int i = 0; i < tree[0].ne; i++) /* the root's moves set aside; the others' priors renormalised */
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
        pedge *ed = t ? puct_room(edge, &ecap, (size_t)edges + (size_t)g->moves, most_edges, sizeof *edge) : NULL;
        if (!ed)
            break;
        edge = ed;
        int cur = 0, np = 0;
        double v; /* the result of the iteration for the player who made the last move of the path */
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
                tree[id] = (pnode){ oxo_play(g, nd->pos, e->move), 0, 0, 0 };
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
            out[i - tree[0].e0] = (oxo_puct_move){ e->move, e->ends, e->n, q };
        if (e->n > bn || (e->n == bn && q > bq)) {
            bn = e->n;
            bq = q;
            move = e->move;
        }
    }
    free(tree), free(edge);
    return move;
}

int oxo_puct_root(const oxo_game *g, oxo_player *value, oxo_pos p, long iterations, double c, oxo_puct_move *out,
                  int *n)
{
    oxo_agent a = { .g = g, .value = value };
    *n = 0;
    return puct_search(&a, p, ~0ull, iterations, c, out, n);
}

static int pick_puct(const oxo_agent *a, oxo_pos root, uint64_t *rng)
{
    int move = puct_search(a, root, ~0ull, a->playouts, a->c, NULL, NULL);
    return move >= 0 ? move : puct_fallback(a, root, rng);
}

static int pick_mcts(const oxo_agent *a, oxo_pos root, uint64_t *rng)
{
    const oxo_game *g = a->g;
    size_t cap = (size_t)a->playouts + 1;
    node *t = malloc(cap * sizeof *t);
    if (!t)
        return random_move(g, root, rng);
    size_t used = 1;
    t[0] = (node){ root, -1, -1, 0, oxo_legal(g, root), 0, 0, -1 };
    /* Each expanded node's children: a row of node indexes in child[], found through slot[]. */
    int (*child)[OXO_MAX_MOVES] = NULL;
    size_t child_cap = 0;
    int *slot = malloc(cap * sizeof *slot); /* node -> its row in child[], or -1 */
    if (!slot) {
        free(t);
        return random_move(g, root, rng);
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
            t[id] = (node){ np, cur, -1, 0, oxo_legal(g, np), 0, 0, m };
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
    int move = best >= 0 ? t[best].move : random_move(g, root, rng);
    free(child);
    free(slot);
    free(t);
    return move;
}

void oxo_agent_borrow_book(oxo_agent *a, const oxo_player *book)
{
    a->book = book;
}

const oxo_player *oxo_agent_book(const oxo_agent *a)
{
    return a->book;
}

double oxo_agent_budget(const oxo_agent *a)
{
    return (double)a->budget_ms / 1000.0;
}

/* The solver as a player on Connect-4: the moves' exact scores, the best one (fastest win,
 * slowest loss), ties at random. best_only: what a player needs of the moves, no more, the best
 * ones' exact scores. The first move (centre first) is solved; each other one is only asked whether it reaches the best score so far, one
 * null-window search that a worse move fails quickly, and solved when it does. known[m] is 1 when
 * score[m] is exact, 2 when it bounds the score from above. Side by side against solving every
 * move (make bench, 7x6 judged-set positions): 1.76x faster at 10-13 stones, 1.53x at 14-20, the
 * same moves picked. 1 when done, 0 when the deadline or budget stopped it. */
static int move_scores(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known, int best_only)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    int stones = oxo_ply(p), have = 0, best = 0;
    for (int m = 0; m < g->moves; m++)
        known[m] = 0;
    oxo_c4solver_deadline(a->c4, seconds);
    oxo_c4solver_node_budget(a->c4, a->budget_nodes);
    for (int i = 0; i < g->moves; i++) { /* centre first: the columns most worth knowing */
        int m = g->order[i], v, bs;
        if (!(legal >> m & 1))
            continue;
        oxo_pos c = oxo_play(g, p, m);
        oxo_status st = oxo_status_of(g, c);
        if (a->book && oxo_player_book_score(a->book, c, &bs)) /* in the book: its exact score */
            v = -bs;
        else if (st != OXO_ONGOING)
            v = st == OXO_OVER_LOSS ? oxo_c4_win_score(g, stones) : 0;
        else {
            /* The mover's score reaches best when the child's is -best or less. */
            int below = best_only && have ? oxo_c4solve_at_least(a->c4, c, 1 - best) : 0;
            if (below < 0)
                break;
            if (below) {
                score[m] = best - 1;
                known[m] = 2;
                continue;
            }
            v = -oxo_c4solve(a->c4, c, 0);
            if (oxo_c4solver_aborted(a->c4))
                break;
        }
        score[m] = v;
        known[m] = 1;
        if (!have || v > best)
            best = v, have = 1;
    }
    int done = !oxo_c4solver_aborted(a->c4);
    oxo_c4solver_deadline(a->c4, 0);
    oxo_c4solver_node_budget(a->c4, 0);
    return done;
}

int oxo_agent_scores(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known)
{
    if (!a->c4) {
        for (int m = 0; m < a->g->moves; m++)
            known[m] = 0;
        return -1;
    }
    return move_scores(a, p, seconds, score, known, 0);
}

/* The iterations of the search over the value model where the solver's budget runs out. */
#define SOLVER_PUCT_ITERATIONS 1000

/* Where the solver's budget ran out before every move was scored (known[], score[] as
 * move_scores leaves them): moves proven to lose are set aside, a proven win is played, and
 * otherwise the value model leads puct among the others or, without one, alpha-beta with the
 * alignment heuristic deepens one ply at a time while the next depth is expected to fit in
 * `seconds` (each depth costing about seven times the one before). The note says which; the move
 * is always one of p's legal moves. */
static int choose_c4(oxo_agent *a, oxo_pos p, const int *score, const int *known, double seconds, uint64_t *rng)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    int stones = oxo_ply(p);
    double t0 = oxo_seconds();
    ties t = { 0 };
    for (int m = 0; m < g->moves; m++)
        if (known[m] == 1 && score[m] > 0)
            ties_add(&t, m, score[m]);
    if (t.n) {
        snprintf(a->note, sizeof a->note, "not exact: a win was proven, the solve of the other moves ran out of its budget");
        a->chosen = "proven win";
        return ties_pick(&t, rng);
    }
    uint64_t cand = 0;
    for (int m = 0; m < g->moves; m++)
        if ((legal >> m & 1) && !(known[m] && score[m] < 0)) /* exact, or bounded, below 0: lost */
            cand |= 1ull << m;
    if (!cand)
        cand = legal; /* every move loses: search them all for the slowest */
    if (a->value) {
        /* A learned value (an n-tuple network plays far better than the heuristic at any depth
         * the budget allows), among the columns not proven to lose: led by a short search over it
         * (puct:1000, under a millisecond on 7x6), which mends many of the network's own wrong
         * moves (README: the shipped network keeps the value in 97% of the judged positions so
         * led, 91.5% alone); alone when the search cannot run. */
        int move = puct_search(a, p, cand, SOLVER_PUCT_ITERATIONS, OXO_PUCT_C, NULL, NULL);
        if (move >= 0) {
            snprintf(a->note, sizeof a->note, "not exact: the budget ran out; chosen by the value model under puct:%d",
                     SOLVER_PUCT_ITERATIONS);
            a->chosen = "value model under puct";
            return move;
        }
        oxo_move_info mi[OXO_MAX_MOVES];
        int n = oxo_player_moves(a->value, p, mi);
        ties vt = { 0 };
        for (int i = 0; i < n; i++)
            if (cand >> mi[i].move & 1)
                ties_add(&vt, mi[i].move, (int)lround(mi[i].score * 1e6)); /* values within [-1, 1] */
        if (vt.n) {
            snprintf(a->note, sizeof a->note, "not exact: the budget ran out; chosen by the value model");
            a->chosen = "value model";
            return ties_pick(&vt, rng);
        }
    }
    int best = -1, depth = 0;
    double last = 0;
    for (int d = 1; d <= g->cells - stones; d++) {
        double left = seconds - (oxo_seconds() - t0);
        /* With a node budget, a fixed depth, so that the move does not depend on the machine. */
        if (a->budget_nodes ? d > 6 : d > 1 && 7 * last > left)
            break;
        double s0 = oxo_seconds();
        ties dt = { 0 };
        for (int m = 0; m < g->moves; m++)
            if (cand >> m & 1)
                ties_add(&dt, m, -alphabeta(a, oxo_play(g, p, m), d - 1, 1, -2 * WIN,
                                            dt.n ? -(dt.best - 1) : 2 * WIN));
        best = ties_pick(&dt, rng);
        depth = d;
        last = oxo_seconds() - s0;
    }
    snprintf(a->note, sizeof a->note, "not exact: the budget ran out; chosen by alpha-beta to depth %d", depth);
    a->chosen = "alphabeta";
    return best;
}

/* Every move scored: one of the best exact scores (known[m] == 1), ties at random. */
static int pick_scored(const oxo_game *g, const int *score, const int *known, uint64_t *rng)
{
    ties t = { 0 };
    for (int m = 0; m < g->moves; m++)
        if (known[m] == 1)
            ties_add(&t, m, score[m]);
    return ties_pick(&t, rng);
}

/* With a budget (solver:MS): half of it for the best moves' scores; when that is not enough, the
 * other half for choose_c4. */
static int pick_c4(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES];
    double t0 = oxo_seconds(), total = (double)a->budget_ms / 1000.0;
    a->note[0] = 0;
    a->chosen = "solver";
    if (move_scores(a, p, total / 2, score, known, 1))
        return pick_scored(a->g, score, known, rng);
    return choose_c4(a, p, score, known, total - (oxo_seconds() - t0), rng);
}

int oxo_agent_answer(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known, int *exact, uint64_t *rng)
{
    *exact = oxo_agent_scores(a, p, seconds, score, known);
    if (*exact < 0 || oxo_status_of(a->g, p) != OXO_ONGOING)
        return -1;
    a->note[0] = 0;
    a->chosen = "solver";
    if (*exact)
        return pick_scored(a->g, score, known, rng);
    /* The scores took the whole budget: the fallback gets half as much again, as a player's pick
     * splits its budget in two. */
    return choose_c4(a, p, score, known, seconds / 2, rng);
}

/* solver:outcome: a move at random among those that keep the best outcome (win, draw or loss),
 * whatever the distance: a perfect player that keeps the game value but neither hurries a win nor
 * prolongs a loss. Beside the best-score solver it tells apart a player that loses won games to
 * any perfect defence from one that loses them only to the longest (the 7x6 n-tuple network wins
 * 195 of 200 games as X against this player, 151 against the best-score one: see the README). */
static int pick_outcome(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    ties t = { 0 };
    if (a->c4) {
        /* Each move's outcome by at most two null-window searches of its child (is the child's
         * score 0 or more, 1 or more?) instead of its exact score: 7x6 games ran several times
         * faster. The book answers first where it holds the child. */
        const oxo_game *g = a->g;
        for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
            int m = __builtin_ctzll(legal), bs, out;
            oxo_pos c = oxo_play(g, p, m);
            oxo_status st = oxo_status_of(g, c);
            if (st != OXO_ONGOING)
                out = st == OXO_OVER_LOSS ? OXO_WIN : OXO_DRAW; /* the child's side to move lost */
            else if (a->book && oxo_player_book_score(a->book, c, &bs))
                out = (bs < 0) - (bs > 0);
            else
                out = !oxo_c4solve_at_least(a->c4, c, 0) ? OXO_WIN : oxo_c4solve_at_least(a->c4, c, 1) ? OXO_LOSS : OXO_DRAW;
            ties_add(&t, m, out);
        }
    } else {
        oxo_move_info mi[OXO_MAX_MOVES];
        int n = oxo_player_moves(a->player, p, mi);
        for (int i = 0; i < n; i++)
            ties_add(&t, mi[i].move, mi[i].value);
    }
    return ties_pick(&t, rng);
}

int oxo_agent_pick(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    if (oxo_status_of(a->g, p) != OXO_ONGOING)
        return -1;
    switch (a->kind) {
    case A_RANDOM: return random_move(a->g, p, rng);
    case A_PLAYER: return oxo_player_pick(a->player, p, 10, rng);
    case A_SOLVER:
        if (a->outcome)
            return pick_outcome(a, p, rng);
        return a->c4 ? pick_c4(a, p, rng) : oxo_player_pick(a->player, p, 10, rng);
    case A_ALPHABETA: return pick_alphabeta(a, p, rng);
    case A_MCTS: return pick_mcts(a, p, rng);
    case A_PUCT: return pick_puct(a, p, rng);
    }
    return -1;
}

/* Copies an agent's argument into buf and cuts ":value=FILE" (and ":book=FILE", when book is not
 * NULL) off it, in either order: returns the value FILE (in buf) or NULL, *book the book's; what
 * is left stays in buf. */
static char *split_value2(const char *arg, char *buf, size_t cap, char **book)
{
    snprintf(buf, cap, "%s", arg ? arg : "");
    char *vfile = strstr(buf, ":value="), *bfile = book ? strstr(buf, ":book=") : NULL;
    if (vfile)
        *vfile = 0;
    if (bfile)
        *bfile = 0;
    if (book)
        *book = bfile ? bfile + 6 : NULL;
    return vfile ? vfile + 7 : NULL;
}

static char *split_value(const char *arg, char *buf, size_t cap)
{
    return split_value2(arg, buf, cap, NULL);
}

/* The value file of an agent spec (`:value=FILE`), checked to be of the agent's game. */
static oxo_player *open_value(const oxo_game *g, const char *spec, const char *vfile, int *failed, char *msg,
                              size_t cap)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open_as(vfile, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err);
    if (!pl) {
        snprintf(msg, cap, "agent '%.80s': %s", spec, err.msg);
        *failed = 1;
        return NULL;
    }
    if (!oxo_game_same(pl->game, g)) {
        snprintf(msg, cap, "agent '%.80s': %s is a file of %s, not of %s", spec, vfile, pl->game->name, g->name);
        oxo_player_close(pl);
        *failed = 1; /* as a --table or --book of another game: the file cannot serve, a failure */
        return NULL;
    }
    return pl;
}

static oxo_player *open_player(const oxo_game *g, const char *path, int want_table, int *failed, char *msg,
                               size_t cap)
{
    char found[4096];
    if (!path) {
        char name[128];
        oxo_table_name(g->spec, name, sizeof name);
        if (oxo_find_data(name, found, sizeof found)) {
            snprintf(msg, cap, "no table of %s found (%s, looked in $OXO_DATA_DIR, the current folder and share/oxo beside the "
                     "program): make it with oxo-gen --game %s, or name it with table:FILE", g->name, name, g->spec);
            *failed = 1;
            return NULL;
        }
        path = found;
    }
    oxo_error err;
    oxo_player *pl = want_table ? oxo_player_open(path, &err) : oxo_player_open_joined(path, &err);
    if (pl && oxo_player_takes(pl, path, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err)) {
        snprintf(msg, cap, "%s", err.msg);
        oxo_player_close(pl);
        *failed = 1;
        return NULL;
    }
    if (!pl) {
        snprintf(msg, cap, "%s: %s", path, err.msg);
        *failed = 1;
        return NULL;
    }
    if (!oxo_game_same(pl->game, g)) {
        snprintf(msg, cap, "%s is a file of %s, not of %s", path, pl->game->name, g->name);
        oxo_player_close(pl);
        *failed = 1;
        return NULL;
    }
    if (want_table != (pl->source == OXO_SRC_TABLE)) {
        snprintf(msg, cap, "%s is a %s, not a %s", path, want_table ? "model" : "table", want_table ? "table" : "model");
        oxo_player_close(pl);
        return NULL;
    }
    return pl;
}

static int number(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

oxo_agent *oxo_agent_open(const oxo_game *g, const char *spec, char *msg, size_t cap)
{
    int failed;
    return oxo_agent_open_ex(g, spec, &failed, msg, cap);
}

oxo_agent *oxo_agent_open_ex(const oxo_game *g, const char *spec, int *failed, char *msg, size_t cap)
{
    *failed = 0;
    oxo_agent *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(msg, cap, "out of memory");
        *failed = 1;
        return NULL;
    }
    a->g = g;
    const char *eq = strchr(spec, '='), *body = spec;
    if (eq && (!strchr(spec, ':') || eq < strchr(spec, ':'))) {
        size_t n = (size_t)(eq - spec);
        if (n == 0 || n >= sizeof a->name) {
            snprintf(msg, cap, "agent '%.80s': the name before '=' must be 1 to %zu characters", spec, sizeof a->name - 1);
            free(a);
            return NULL;
        }
        memcpy(a->name, spec, n);
        body = eq + 1;
    }
    else {
        /* The spec itself, cut to the room at a character's start (never inside one). */
        size_t n = strlen(spec);
        if (n >= sizeof a->name)
            for (n = sizeof a->name - 1; n && ((unsigned char)spec[n] & 0xc0) == 0x80; n--)
                ;
        memcpy(a->name, spec, n);
    }
    /* A name is printed in rankings, SVG and JSON: text, no control character (a newline forged a
     * ranking row, invalid UTF-8 broke the SVG and the JSON). */
    size_t bad = oxo_text_bad(a->name);
    if (bad) {
        snprintf(msg, cap, "agent name: byte %zu is %s; a name is UTF-8 text without control characters "
                 "(give one with NAME=SPEC)", bad, (unsigned char)a->name[bad - 1] < 0x20 ||
                 a->name[bad - 1] == 0x7f ? "a control character" : "not valid UTF-8");
        free(a);
        return NULL;
    }
    const char *colon = strchr(body, ':'), *arg = colon ? colon + 1 : NULL;
    size_t klen = colon ? (size_t)(colon - body) : strlen(body);
    long v = 0; /* set before every use; gcc -O3 (Release) cannot see it */
#define IS(word) (klen == strlen(word) && !strncmp(body, word, klen))
    if (IS("random") && !arg) {
        a->kind = A_RANDOM;
        a->kind_name = "random";
    }
    else if (IS("table") || IS("model")) {
        int table = IS("table");
        if (!table && !arg) {
            snprintf(msg, cap, "agent '%.80s': model needs a file: model:FILE", spec);
            goto bad;
        }
        a->kind = A_PLAYER;
        a->kind_name = table ? "table" : "model";
        if (!(a->player = open_player(g, arg, table, failed, msg, cap)))
            goto bad;
    }
    else if (IS("solver")) {
        /* solver[:MS|:nodes=N][:value=FILE][:book=FILE], solver:outcome[:book=FILE] */
        char buf[8500], *bfile;
        char *vfile = split_value2(arg, buf, sizeof buf, &bfile);
        /* solver:outcome is exact: no budget, so no value file either */
        const int outcome = arg && !strcmp(buf, "outcome");
        int nodes = !outcome && !strncmp(buf, "nodes=", 6), bare = arg && (outcome || !*buf); /* solver:book=FILE has no budget */
        if (arg && !bare && !strncmp(buf, "book=", 5))
            bfile = buf + 5, bare = 1;
        if (arg && ((!bare && number(buf + (nodes ? 6 : 0), 1, nodes ? 1000000000000 : 3600000, &v)) ||
                    (!g->solver && !(outcome && !vfile && !bfile)) || (vfile && (!*vfile || outcome)) ||
                    (bfile && !*bfile))) {
            snprintf(msg, cap, "agent '%.80s': solver, solver:outcome[:book=FILE] (any move of the best outcome, "
                     "whatever the distance), solver:MS[:value=FILE][:book=FILE] or "
                     "solver:nodes=N[:value=FILE][:book=FILE] (a budget per move of 1 to 3600000 ms or of nodes, on Connect-4, a model "
                     "that chooses when it runs out, an opening book of oxo-gen --book looked up first)", spec);
            goto bad;
        }
        a->outcome = outcome;
        if (bare)
            arg = NULL;
        a->kind = A_SOLVER;
        a->kind_name = "solver";
        a->budget_ms = arg && !nodes ? v : 0;
        a->budget_nodes = arg && nodes ? (uint64_t)v : 0;
        if (vfile && !(a->value = open_value(g, spec, vfile, failed, msg, cap)))
            goto bad;
        oxo_error err;
        if (bfile && !(a->book = a->own_book = oxo_player_open_book(g, bfile, &err))) {
            snprintf(msg, cap, "agent '%.80s': %s", spec, err.msg);
            *failed = 1;
            goto bad;
        }
        if (g->solver) {
            if (!(a->c4 = oxo_c4solver_new(g, 16))) {
                snprintf(msg, cap, "agent 'solver': out of memory");
                *failed = 1;
                goto bad;
            }
        }
        else if (!(a->player = open_player(g, NULL, 1, failed, msg, cap)))
            goto bad;
    }
    else if (IS("alphabeta")) {
        /* alphabeta:DEPTH[:value=FILE] */
        char buf[4200];
        char *vfile = split_value(arg, buf, sizeof buf);
        if (number(buf, 1, 20, &v) || (vfile && !*vfile)) {
            snprintf(msg, cap, "agent '%.80s': alphabeta:DEPTH[:value=FILE], a depth from 1 to 20, the "
                     "leaves valued by a model or table FILE instead of the alignment heuristic", spec);
            goto bad;
        }
        a->kind = A_ALPHABETA;
        a->kind_name = "alphabeta";
        a->depth = (int)v;
        if (vfile && !(a->value = open_value(g, spec, vfile, failed, msg, cap)))
            goto bad;
    }
    else if (IS("mcts") || IS("puct")) {
        /* mcts:PLAYOUTS[:C][:value=FILE], puct:ITERATIONS[:C]:value=FILE (its priors need values) */
        const int puct = IS("puct");
        char buf[4200];
        char *vfile = split_value(arg, buf, sizeof buf);
        char *c2 = strchr(buf, ':');
        if (c2)
            *c2++ = 0;
        a->c = puct ? OXO_PUCT_C : 1.4;
        char *end = NULL;
        if (number(buf, 1, puct ? 1000000 : 10000000, &v) ||
            (c2 && (!*c2 || (a->c = strtod(c2, &end), *end) || !(a->c >= 0 && a->c <= 100))) ||
            (vfile && !*vfile) || (puct && !vfile)) {
            if (puct)
                snprintf(msg, cap, "agent '%.80s': puct:ITERATIONS[:C]:value=FILE, 1 to 1000000 iterations, "
                         "C from 0 to 100, a model or table FILE giving the priors and the leaves' values", spec);
            else
                snprintf(msg, cap, "agent '%.80s': mcts:PLAYOUTS[:C][:value=FILE], 1 to 10000000 playouts, "
                         "C from 0 to 100", spec);
            goto bad;
        }
        a->kind = puct ? A_PUCT : A_MCTS;
        a->kind_name = puct ? "puct" : "mcts";
        a->playouts = v;
        if (vfile && !(a->value = open_value(g, spec, vfile, failed, msg, cap)))
            goto bad;
    }
    else {
        snprintf(msg, cap, "agent '%.80s': expected %s", spec, OXO_AGENT_SPECS);
        goto bad;
    }
#undef IS
    if (a->kind == A_ALPHABETA || a->budget_ms || a->budget_nodes) { /* a budgeted solver falls back on alpha-beta */
        if (!(a->lines = malloc(sizeof *a->lines))) {
            snprintf(msg, cap, "out of memory");
            *failed = 1;
            goto bad;
        }
        lines_init(a->lines, g);
    }
    return a;
bad:
    oxo_agent_free(a);
    return NULL;
}

void oxo_agent_free(oxo_agent *a)
{
    if (!a)
        return;
    oxo_player_close(a->player);
    oxo_player_close(a->value);
    oxo_player_close(a->own_book);
    oxo_c4solver_free(a->c4);
    free(a->lines);
    free(a);
}

const char *oxo_agent_name(const oxo_agent *a)
{
    return a->name;
}

const oxo_game *oxo_agent_game(const oxo_agent *a)
{
    return a->g;
}

const char *oxo_agent_chosen(const oxo_agent *a)
{
    return a->chosen ? a->chosen : "solver";
}

const char *oxo_agent_note(const oxo_agent *a)
{
    return a->note;
}

const char *oxo_agent_kind(const oxo_agent *a)
{
    return a->kind_name;
}
