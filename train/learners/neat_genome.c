/*
 * What NEAT does to genomes (neat_genome.h): copies, the compatibility distance, the mutations
 * with the generation's list of innovations, crossover aligned by innovation. The settings are
 * the paper's where it gives them (train/learners/neat.c says which).
 */
#include "neat_genome.h"

#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C_EXCESS   1.0
#define C_WEIGHT   0.4
#define P_WEIGHTS  0.8
#define P_REPLACE  0.1
#define PERTURB    0.5
#define WEIGHT_MAX 8.0f
#define P_NODE     0.03
#define P_LINK     0.1
#define P_DISABLED 0.75

void neat_genome_free(genome *g)
{
    free(g->hid);
    free(g->l);
    memset(g, 0, sizeof *g);
}

void neat_species_free(species *sp)
{
    neat_genome_free(&sp->rep);
    free(sp->members);
}

int neat_genome_copy(genome *to, const genome *from)
{
    genome c = *from;
    c.hid = malloc((from->nh ? from->nh : 1) * sizeof *c.hid);
    c.l = malloc((from->nl ? from->nl : 1) * sizeof *c.l);
    if (!c.hid || !c.l) {
        free(c.hid);
        free(c.l);
        return -1;
    }
    memcpy(c.hid, from->hid, from->nh * sizeof *c.hid);
    memcpy(c.l, from->l, from->nl * sizeof *c.l);
    *to = c;
    return 0;
}

double neat_gauss(uint64_t *rng)
{
    double u = oxo_rng_unit(rng), v = oxo_rng_unit(rng);
    return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

/* The compatibility distance: excess and disjoint genes (c1 = c2), and the mean weight difference
 * of the matching ones. */
double neat_distance(const genome *a, const genome *b)
{
    uint32_t i = 0, j = 0, unmatched = 0, matched = 0;
    double wd = 0;
    while (i < a->nl && j < b->nl) {
        if (a->l[i].innov == b->l[j].innov) {
            wd += fabs((double)a->l[i].w - (double)b->l[j].w);
            matched++;
            i++, j++;
        } else if (a->l[i].innov < b->l[j].innov)
            i++, unmatched++;
        else
            j++, unmatched++;
    }
    unmatched += (a->nl - i) + (b->nl - j);
    const uint32_t big = a->nl > b->nl ? a->nl : b->nl;
    const double N = big < 20 ? 1 : big;
    return C_EXCESS * unmatched / N + (matched ? C_WEIGHT * wd / matched : 0);
}

/* Structural mutations */

/* The innovation of a structural change this generation, the same for every genome making it
 * (the paper's list of the generation's innovations): kind 0 a link (a, b) -> innovation r[0];
 * kind 1 the split of link innovation a -> a new node r[0] and the links r[1], r[2]. -1 out of
 * memory. */
static int innovation(neat_state *s, uint32_t kind, uint32_t a, uint32_t b, uint32_t r[3])
{
    for (uint32_t i = 0; i < s->nmade; i++)
        if (s->made[i][0] == (kind << 31 | a) && s->made[i][1] == b) {
            if (kind) {
                r[0] = s->made[i][2];
                r[1] = s->made[i][3];
                r[2] = s->made[i][3] + 1;
            } else
                r[0] = s->made[i][2];
            return 0;
        }
    if (s->nmade == s->capmade) {
        uint32_t cap = s->capmade ? 2 * s->capmade : 64;
        void *m = realloc(s->made, cap * sizeof *s->made);
        if (!m)
            return -1;
        s->made = m;
        s->capmade = cap;
    }
    uint32_t *e = s->made[s->nmade++];
    e[0] = kind << 31 | a;
    e[1] = b;
    if (kind) {
        e[2] = r[0] = s->next_node++;
        e[3] = r[1] = s->next_innov;
        r[2] = s->next_innov + 1;
        s->next_innov += 2;
    } else {
        e[2] = r[0] = s->next_innov++;
        e[3] = 0;
    }
    return 0;
}

/* Inserts link l keeping the innovations ascending (a new one is the largest but for links
 * made earlier this generation by other genomes). */
static int add_link_gene(genome *g, oxo_neat_link l)
{
    oxo_neat_link *m = realloc(g->l, (g->nl + 1) * sizeof *m);
    if (!m)
        return -1;
    g->l = m;
    uint32_t i = g->nl;
    while (i > 0 && g->l[i - 1].innov > l.innov) {
        g->l[i] = g->l[i - 1];
        i--;
    }
    g->l[i] = l;
    g->nl++;
    return 0;
}

/* Whether node `to` reaches node `from` along the genome's links (enabled or not: any gene may
 * be enabled again in a child), so that a link from -> to would close a cycle. */
static int reaches(const genome *g, uint32_t to, uint32_t from, uint32_t *stack, uint8_t *seen,
                   int I, int O)
{
    int top = 0;
    memset(seen, 0, (size_t)I + O + g->nh);
    stack[top++] = to;
    while (top) {
        uint32_t v = stack[--top];
        if (v == from)
            return 1;
        for (uint32_t k = 0; k < g->nl; k++)
            if (g->l[k].from == v) {
                int d = oxo_neat_dense(I, O, g->hid, g->nh, g->l[k].to);
                if (d >= 0 && !seen[d]) {
                    seen[d] = 1;
                    stack[top++] = g->l[k].to;
                }
            }
    }
    return 0;
}

static int mutate_link(neat_state *s, genome *g, uint64_t *rng)
{
    const int I = (int)s->inputs, O = (int)s->outputs;
    const uint32_t nsrc = (uint32_t)I + g->nh, ndst = (uint32_t)O + g->nh;
    uint32_t *stack = malloc(((size_t)I + O + g->nh + 1) * sizeof *stack);
    uint8_t *seen = malloc((size_t)I + O + g->nh);
    int rc = stack && seen ? 0 : -1;
    for (int tries = 0; !rc && tries < 20; tries++) {
        uint32_t a = (uint32_t)oxo_rng_below(rng, nsrc), b = (uint32_t)oxo_rng_below(rng, ndst);
        uint32_t from = a < (uint32_t)I ? a : g->hid[a - I];
        uint32_t to = b < (uint32_t)O ? (uint32_t)I + b : g->hid[b - O];
        int exists = from == to;
        for (uint32_t k = 0; k < g->nl && !exists; k++)
            exists = g->l[k].from == from && g->l[k].to == to;
        if (exists || reaches(g, to, from, stack, seen, I, O))
            continue;
        uint32_t r[3];
        rc = innovation(s, 0, from, to, r);
        if (!rc)
            rc = add_link_gene(g, (oxo_neat_link){from, to, r[0], 1, (float)neat_gauss(rng)});
        break;
    }
    free(stack);
    free(seen);
    return rc;
}

static int mutate_node(neat_state *s, genome *g, uint64_t *rng)
{
    uint32_t on = 0;
    for (uint32_t k = 0; k < g->nl; k++)
        on += g->l[k].on;
    if (!on || g->nh >= OXO_NEAT_MAX_HIDDEN)
        return 0;
    uint32_t pick = (uint32_t)oxo_rng_below(rng, on), k = 0;
    for (;; k++)
        if (g->l[k].on && !pick--)
            break;
    uint32_t r[3];
    if (innovation(s, 1, g->l[k].innov, 0, r))
        return -1;
    for (uint32_t i = 0; i < g->nh; i++)
        if (g->hid[i] == r[0])
            return 0; /* this genome split that link before (its gene since enabled again) */
    uint32_t *h = realloc(g->hid, (g->nh + 1) * sizeof *h);
    if (!h)
        return -1;
    g->hid = h;
    uint32_t i = g->nh;
    while (i > 0 && g->hid[i - 1] > r[0]) {
        g->hid[i] = g->hid[i - 1];
        i--;
    }
    g->hid[i] = r[0];
    g->nh++;
    const oxo_neat_link old = g->l[k];
    g->l[k].on = 0;
    if (add_link_gene(g, (oxo_neat_link){old.from, r[0], r[1], 1, 1.0f}) ||
        add_link_gene(g, (oxo_neat_link){r[0], old.to, r[2], 1, old.w}))
        return -1;
    return 0;
}

int neat_mutate(neat_state *s, genome *g, uint64_t *rng)
{
    if (oxo_rng_unit(rng) < P_WEIGHTS)
        for (uint32_t k = 0; k < g->nl; k++) {
            float w = oxo_rng_unit(rng) < P_REPLACE
                          ? (float)neat_gauss(rng)
                          : g->l[k].w + (float)(PERTURB * neat_gauss(rng));
            g->l[k].w = w > WEIGHT_MAX ? WEIGHT_MAX : w < -WEIGHT_MAX ? -WEIGHT_MAX : w;
        }
    if (oxo_rng_unit(rng) < P_NODE && mutate_node(s, g, rng))
        return -1;
    if (oxo_rng_unit(rng) < P_LINK && mutate_link(s, g, rng))
        return -1;
    return 0;
}

/* A child of a (the fitter, or the first on a tie) and b: genes aligned by innovation, a matching
 * gene's weight from either parent at random, disjoint and excess genes from a; so the child's
 * genes and nodes are a's, and no gene makes a cycle. */
int neat_crossover(const genome *a, const genome *b, genome *c, uint64_t *rng)
{
    if (neat_genome_copy(c, a))
        return -1;
    for (uint32_t i = 0, j = 0; i < c->nl; i++) {
        while (j < b->nl && b->l[j].innov < c->l[i].innov)
            j++;
        if (j < b->nl && b->l[j].innov == c->l[i].innov) {
            if (oxo_rng_bit(rng, 3) == 1)
                c->l[i].w = b->l[j].w;
            const int off = !a->l[i].on || !b->l[j].on;
            c->l[i].on = off ? oxo_rng_unit(rng) >= P_DISABLED : 1;
        }
    }
    return 0;
}
