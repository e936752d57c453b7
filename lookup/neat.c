/*
 * A NEAT genome made into a feed-forward network, and its forward pass (neat.h): what the player,
 * the trainer's fitness and grading, and the checks of a model file share.
 */
#include "neat.h"

#include "freestanding/board.c"
#include "freestanding/neat.c"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int oxo_neat_dense(int inputs, int outputs, const uint32_t *hidden, uint32_t nhidden, uint32_t id)
{
    const uint32_t io = (uint32_t)(inputs + outputs);
    if (id < io)
        return (int)id;
    uint32_t lo = 0, hi = nhidden;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (hidden[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nhidden && hidden[lo] == id ? (int)(io + lo) : -1;
}

void oxo_neat_free(oxo_neat_net *n)
{
    free(n->comp);
    free(n->first);
    free(n->src);
    free(n->w);
    memset(n, 0, sizeof *n);
}

const char *const oxo_neat_input_names[] = {"cells", "tactics", "afterstate", NULL};

int oxo_neat_inputs(const oxo_game *g, int inputs)
{
    return g->cells + 1 +
           (inputs == OXO_NEAT_AFTERSTATE ? 3
            : inputs == OXO_NEAT_TACTICS  ? 3 * g->moves
                                          : 0);
}

int oxo_neat_outputs(const oxo_game *g, int inputs)
{
    return inputs == OXO_NEAT_AFTERSTATE ? 1 : g->moves;
}

/* Kahn's order over the enabled links: each computed node after every node that feeds it. */
int oxo_neat_build(oxo_neat_net *n, const oxo_game *g, int inputs, const uint32_t *hidden,
                   uint32_t nhidden, const oxo_neat_link *links, uint32_t nlinks, oxo_error *err)
{
    memset(n, 0, sizeof *n);
    const int I = oxo_neat_inputs(g, inputs), O = oxo_neat_outputs(g, inputs);
    if (inputs != OXO_NEAT_CELLS) {
        n->tactics = 1;
        n->afterstate = inputs == OXO_NEAT_AFTERSTATE;
        n->nlines = oxo_cell_lines(g, n->lines);
    }
    if (nhidden > OXO_NEAT_MAX_HIDDEN || nlinks > OXO_NEAT_MAX_LINKS)
        return oxo_fail(err, OXO_E_FIELD,
                        "a genome of %u hidden nodes and %u links, at most %u and %u", nhidden,
                        nlinks, OXO_NEAT_MAX_HIDDEN, OXO_NEAT_MAX_LINKS);
    for (uint32_t i = 0; i < nhidden; i++)
        if (hidden[i] < (uint32_t)(I + O) || (i && hidden[i] <= hidden[i - 1]))
            return oxo_fail(err, OXO_E_FIELD,
                            "hidden node %u: ids must rise above the outputs (%d)", hidden[i],
                            I + O - 1);
    const int N = I + O + (int)nhidden;
    n->inputs = I;
    n->outputs = O;
    n->nodes = N;
    int *from = malloc((nlinks ? nlinks : 1) * sizeof *from);
    int *to = malloc((nlinks ? nlinks : 1) * sizeof *to);
    uint32_t *indeg = calloc((size_t)N, sizeof *indeg);
    uint32_t *outdeg = calloc((size_t)N + 1, sizeof *outdeg);
    uint32_t *adj = malloc((nlinks ? nlinks : 1) * sizeof *adj);
    uint32_t *queue = malloc((size_t)N * sizeof *queue);
    uint32_t *pos = malloc((size_t)N * sizeof *pos);
    n->comp = malloc((size_t)N * sizeof *n->comp);
    n->first = calloc((size_t)N + 1, sizeof *n->first);
    n->src = malloc((nlinks ? nlinks : 1) * sizeof *n->src);
    n->w = malloc((nlinks ? nlinks : 1) * sizeof *n->w);
    int rc = 0;
    if (!from || !to || !indeg || !outdeg || !adj || !queue || !pos || !n->comp || !n->first ||
        !n->src || !n->w) {
        rc = oxo_fail(err, OXO_E_NOMEM, "a network of %d nodes and %u links", N, nlinks);
        goto out;
    }
    uint32_t m = 0; /* enabled links */
    for (uint32_t i = 0; i < nlinks && !rc; i++) {
        const oxo_neat_link *l = &links[i];
        if (!l->on)
            continue;
        int a = oxo_neat_dense(I, O, hidden, nhidden, l->from);
        int b = oxo_neat_dense(I, O, hidden, nhidden, l->to);
        if (a < 0 || b < 0)
            rc = oxo_fail(err, OXO_E_FIELD,
                          "link %u: from node %u to node %u, a node the genome lacks", i, l->from,
                          l->to);
        else if (b < I)
            rc = oxo_fail(err, OXO_E_FIELD, "link %u enters input %u", i, l->to);
        else if (a >= I && a < I + O)
            rc = oxo_fail(err, OXO_E_FIELD, "link %u leaves output %u", i, l->from);
        else if (!isfinite(l->w))
            rc = oxo_fail(err, OXO_E_FIELD, "link %u: weight is not a finite number", i);
        else {
            from[m] = a;
            to[m] = b;
            indeg[b]++;
            outdeg[a + 1]++;
            m++;
        }
    }
    if (rc)
        goto out;
    for (int v = 0; v < N; v++)
        outdeg[v + 1] += outdeg[v];
    for (uint32_t i = 0; i < m; i++)
        adj[outdeg[from[i]]++] = i;
    for (int v = N; v > 0; v--) /* back to starts */
        outdeg[v] = outdeg[v - 1];
    outdeg[0] = 0;
    /* Kahn: inputs first (never computed), then every node whose sources are all done. Among the
     * ready nodes the lowest dense index first, so that one genome gives one order. */
    uint32_t qh = 0, qt = 0;
    for (int v = 0; v < N; v++)
        if (!indeg[v])
            queue[qt++] = (uint32_t)v;
    int done = 0;
    while (qh < qt) {
        uint32_t v = queue[qh++];
        done++;
        if (v >= (uint32_t)I)
            n->comp[n->ncomp++] = v;
        for (uint32_t e = outdeg[v]; e < outdeg[v + 1]; e++)
            if (--indeg[to[adj[e]]] == 0)
                queue[qt++] = (uint32_t)to[adj[e]];
    }
    if (done < N) {
        rc = oxo_fail(err, OXO_E_FIELD, "the enabled links make a cycle");
        goto out;
    }
    /* Each computed node's incoming links, in the genome's order. */
    for (int i = 0; i < n->ncomp; i++)
        pos[n->comp[i]] = (uint32_t)i;
    for (uint32_t i = 0; i < m; i++)
        n->first[pos[to[i]] + 1]++;
    for (int i = 0; i < n->ncomp; i++)
        n->first[i + 1] += n->first[i];
    uint32_t *fill = queue; /* reused: the next free slot of each computed node */
    for (int i = 0; i < n->ncomp; i++)
        fill[i] = n->first[i];
    for (uint32_t i = 0, k = 0; i < nlinks; i++) {
        if (!links[i].on)
            continue;
        uint32_t at = fill[pos[to[k]]]++;
        n->src[at] = (uint32_t)from[k];
        n->w[at] = links[i].w;
        k++;
    }
out:
    free(from);
    free(to);
    free(indeg);
    free(outdeg);
    free(adj);
    free(queue);
    free(pos);
    if (rc)
        oxo_neat_free(n);
    return rc;
}

void oxo_neat_orient(oxo_neat_net *n, const oxo_game *g)
{
    n->nsym = oxo_cell_maps(g, n->perm, n->mperm);
    if (n->nsym <= 1)
        n->nsym = 0;
}

/* The freestanding form of the network: the arrays, seen through oxp_neat, and the board its
 * tactics read (only the fields oxp_neat_tactics asks for). */
static oxp_neat view(const oxo_neat_net *n, const oxo_game *g, oxp_board *b)
{
    *b = (oxp_board){g->cells, g->moves,  g->width, g->height, g->gravity,
                     0,        n->nlines, NULL,     NULL,      n->lines};
    return (oxp_neat){g->cells, n->outputs, n->nodes, n->ncomp,     n->comp,
                      n->first, n->src,     n->w,     n->nsym,      n->perm,
                      n->mperm, n->tactics, b,        n->afterstate};
}

void oxo_neat_forward(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act, float *out)
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    const int second = oxo_ply(p) & 1; /* X moves at even plies */
    oxp_board b;
    const oxp_neat v = view(n, g, &b);
    float tmp[OXO_MAX_MOVES];
    oxp_neat_board(&v, second ? o : x, second ? x : o, act, tmp, out);
}

int oxo_neat_moves(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act, int *moves,
                   float *score)
{
    float out[OXO_MAX_MOVES];
    oxo_neat_forward(n, g, p, act, out);
    int k = 0;
    for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
        int m = __builtin_ctzll(legal);
        moves[k] = m;
        score[k++] = oxp_neat_score(out[m]);
    }
    return k;
}

int oxo_neat_pick(const oxo_neat_net *n, const oxo_game *g, oxo_pos p, float *act)
{
    int moves[OXO_MAX_MOVES], best = -1;
    float score[OXO_MAX_MOVES], top = -INFINITY;
    int k = oxo_neat_moves(n, g, p, act, moves, score);
    for (int i = 0; i < k; i++)
        if (score[i] > top) {
            top = score[i];
            best = moves[i];
        }
    return best;
}
