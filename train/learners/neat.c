/*
 * NEAT (--algo neat): NeuroEvolution of Augmenting Topologies, as Stanley and Miikkulainen
 * published it (Evolutionary Computation 10(2), 2002), evolving feed-forward networks that score
 * the moves of a position (lookup/neat.h). An episode of the trainer is a generation: every genome
 * of the population is evaluated (on every thread: OpenMP over the genomes), then the next
 * population is bred and speciated on one thread, from a random stream of the seed and the
 * generation. So a run is the same bytes whatever the number of threads, and a generation is
 * what a checkpoint, a stop and --resume fall between.
 *
 * Fitness, from 0 to 1, a weighted mean of:
 * - the share of value-keeping moves over a training set of positions drawn from the game's solved
 *   table (positions where some move loses the value, met along random games of a stream of their
 *   own; with oriented inputs, each class of images once), or where there is no table taken from a
 *   judged set (--train-set, its positions that the grading set holds left out by train/main.c);
 * - where there is a table, the games against the perfect player, every reply keeping its value
 *   tried: 1 less the chance that such a game meets a move of the genome that loses the value, as
 *   X and as O. The goal on tic-tac-toe is no such line at all, and the random games'
 *   positions alone left the last of them (blocks in O's games) unlearnt: train/RECORD.md;
 * - where there is no table, the score of games against a fixed panel (the random player,
 *   alpha-beta of depth 2, and the champion of the generation before), each genome meeting the
 *   same games.
 * Unless the run is --no-symmetry, a network sees each board in one orientation of its class
 * (lookup/neat.h, oxo_neat_orient), so one network answers for every image of a board. By default
 * (--inputs tactics) a network reads the cells and three inputs a move (whether it wins, blocks a
 * win, or lets the other side win: lookup/neat.h), an output a move; --inputs afterstate scores
 * each move apart, by one output on the board after the move with the move's three tactics, so
 * that one set of weights scores every move alike; --inputs cells reads the cells alone. With the
 * tactics, the first population links them and the bias alone (first_population).
 * The model is graded as the tabular learners are (train/grade.c): on every position of the table
 * and against every line of the opponent, which no training set leaves out; from a judged
 * training set, on the held-out judged set, as the n-tuple learner is.
 */
#include "trainer.h"

#include "neat_genome.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paper's settings where it gives them (its Table of parameters for small populations), and
 * neat-python's where it does not: compatibility c1 = c2 = 1, c3 = 0.4, genomes of fewer than 20
 * genes not normalised by their size; weights mutated in 80% of offspring, each weight perturbed
 * (90%) or drawn anew (10%); a new node in 3% of offspring, a new link in 10% (twice the
 * paper's 5%, not tuned); a disabled gene stays disabled in 75% of children; 25% of
 * offspring by mutation alone; one interspecies mating in 1,000; the best of every species of 5
 * or more copied unchanged, and the generation's champion whatever the size of its species (with
 * species of fewer than 5 the best genome was otherwise lost, and the champion's fitness fell back
 * from one generation to the next); the compatibility threshold moved by 0.1 a generation toward
 * the target number of species (by 0.3, the count swung between 3 and 70 species); the worst 80% of
 * a species breeding no offspring; a species that has not improved in 15 generations removed (but
 * the two best species are kept). */
#define P_MUTATE_ONLY  0.25
#define P_INTERSPECIES 0.001
#define ELITE_SIZE     5
#define SURVIVAL       0.2
#define STAGNATION     15
#define THRESHOLD0     3.0
#define THRESHOLD_STEP 0.1
/* The fitness's weights (fitness(); train/RECORD.md, session 48, measured them). Where the game
 * has a table: 0.1 the share of value-keeping moves, 0.9 the lines against the perfect player,
 * and no panel games (the perfect player is the panel there: with games against the others at 1
 * in 7, whose draws change every generation, 16 and 24 lines were still lost after 2 minutes,
 * against none without them). Where it has none: 0.75 the share, 0.25 the panel's games. */
#define W_TABLE_KEEP 0.1
#define W_KEEP       0.75
#define PANEL        3 /* random, alpha-beta, the last champion */

/* streams apart from the trainer's: "NEATBRED", "NEATGAME" ("NEATPOPS": neat_positions.c) */
#define SEED_BREED 0x4e45415442524544ull
#define SEED_GAMES 0x4e45415447414d45ull

static neat_state *state_of(const oxo_trainer *t)
{
    return (neat_state *)t->learner_state;
}

/* The network of a genome; oriented (the board's symmetries) unless the run is --no-symmetry. */
static int net_of(const oxo_trainer *t, const genome *ge, oxo_neat_net *n, oxo_error *err)
{
    if (oxo_neat_build(n, t->g, t->c.ne_inputs, ge->hid, ge->nh, ge->l, ge->nl, err))
        return -1;
    if (t->c.symmetric)
        oxo_neat_orient(n, t->g);
    return 0;
}

/* Fitness */

/* A game between the network (X when as_x) and panel member `who`: 1 won, 0.5 drawn, 0 lost. */
static double panel_game(const oxo_game *g, const oxo_neat_net *n, float *act, int who,
                         oxo_agent *ab, const oxo_neat_net *champ, int as_x, uint64_t *rng)
{
    oxo_pos p = oxo_start(g);
    for (int me = as_x; oxo_status_of(g, p) == OXO_ONGOING; me = !me) {
        int m;
        if (me)
            m = oxo_neat_pick(n, g, p, act);
        else if (who == 0 || (who == 1 && !ab))
            m = oxo_rng_bit(rng, oxo_legal(g, p));
        else if (who == 1)
            m = oxo_agent_pick(ab, p, rng);
        else
            m = oxo_neat_pick(champ, g, p, act);
        p = oxo_play(g, p, m);
        if (oxo_status_of(g, p) == OXO_OVER_LOSS)
            return me ? 1.0 : 0.0; /* the mover won */
    }
    return 0.5;
}

/* The chance that a game from p against the perfect player meets a move of the network that loses
 * the value the table gives, the perfect player's replies (every move keeping its value) equally
 * likely; mine: the network moves in p. Every position it reaches is one a game against that
 * player can reach, which is what the goal counts (never a line lost against it). */
static double lines_lost(const oxo_game *g, const oxo_player *truth, const oxo_neat_net *n,
                         float *act, oxo_pos p, int mine)
{
    if (oxo_status_of(g, p) != OXO_ONGOING)
        return 0;
    uint64_t keep, legal;
    if (neat_keep_moves(truth, p, &keep, &legal) <= 0)
        return 0;
    if (mine) {
        const int m = oxo_neat_pick(n, g, p, act);
        if (!(keep >> m & 1))
            return 1;
        return lines_lost(g, truth, n, act, oxo_play(g, p, m), 0);
    }
    double sum = 0;
    int ties = 0;
    for (uint64_t k = keep; k; k &= k - 1, ties++)
        sum += lines_lost(g, truth, n, act, oxo_play(g, p, __builtin_ctzll(k)), 1);
    return ties ? sum / ties : 0;
}

/* Genome i's fitness in generation k: a weighted mean (W_TABLE_KEEP where the game has a table,
 * else W_KEEP). */
static double fitness(const oxo_trainer *t, const neat_state *s, const oxo_neat_net *n,
                      const oxo_neat_net *champ, oxo_agent *ab, float *act, uint64_t k)
{
    const oxo_game *g = t->g;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->npos; i++)
        kept += (uint32_t)(s->pos[i].keep >> oxo_neat_pick(n, g, s->pos[i].p, act) & 1);
    const double keep = s->npos ? (double)kept / s->npos : 0;
    if (t->truth) {
        const double lost = lines_lost(g, t->truth, n, act, oxo_start(g), 1) +
                            lines_lost(g, t->truth, n, act, oxo_start(g), 0);
        return W_TABLE_KEEP * keep + (1 - W_TABLE_KEEP) * (1 - lost / 2);
    }
    const uint32_t games = t->c.ne_games;
    if (!games)
        return keep;
    double score = 0;
    for (int who = 0; who < PANEL; who++)
        for (uint32_t j = 0; j < 2 * games; j++) {
            /* the same stream for every genome of the generation: the same games */
            uint64_t rng =
                oxo_rng_stream(t->c.seed ^ SEED_GAMES, k * 4096 + (uint64_t)who * 1024 + j);
            score += panel_game(g, n, act, who, ab, champ, (int)(j & 1), &rng);
        }
    return W_KEEP * keep + (1 - W_KEEP) * score / (PANEL * 2.0 * games);
}

/* Every genome's fitness, on every thread; -1 when a network could not be built. */
static int evaluate(oxo_trainer *t, neat_state *s, uint64_t k)
{
    const oxo_game *g = t->g;
    oxo_neat_net champ;
    oxo_error e;
    if (net_of(t, &s->champ, &champ, &e))
        return -1;
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        oxo_error te;
        /* the panel's alpha-beta, where panel games are played */
        oxo_agent *ab = t->truth || !t->c.ne_games ? NULL : oxo_agent_open(g, "alphabeta:2", &te);
        float *act = malloc(OXO_NEAT_MAX_NODES * sizeof *act);
        failed = !act;
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < (int64_t)s->P; i++) {
            oxo_neat_net n;
            if (failed || net_of(t, &s->pop[i], &n, &te)) {
                failed = 1;
                continue;
            }
            s->pop[i].fitness = fitness(t, s, &n, &champ, ab, act, k);
            oxo_neat_free(&n);
        }
        free(act);
        oxo_agent_free(ab);
    }
    oxo_neat_free(&champ);
    return failed ? -1 : 0;
}

/* Breeding and speciation */

static int by_fitness_ctx_cmp(const genome *pop, uint32_t a, uint32_t b)
{
    if (pop[a].fitness != pop[b].fitness)
        return pop[a].fitness > pop[b].fitness ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Members of a species, fittest first (insertion sort: species are small). */
static void sort_members(const genome *pop, uint32_t *m, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = m[i], j = i;
        while (j > 0 && by_fitness_ctx_cmp(pop, v, m[j - 1]) < 0) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = v;
    }
}

/* Puts each genome of pop in the first species whose representative is within the threshold,
 * else in a new species it represents; then each species' representative becomes its member
 * closest to the old one, species left empty are dropped, and the threshold moves toward the
 * target number of species. -1 out of memory. */
static int speciate(neat_state *s, uint32_t target)
{
    for (uint32_t j = 0; j < s->nsp; j++)
        s->sp[j].n = 0;
    for (uint32_t i = 0; i < s->P; i++) {
        uint32_t j = 0;
        while (j < s->nsp && neat_distance(&s->pop[i], &s->sp[j].rep) >= s->threshold)
            j++;
        if (j == s->nsp) {
            species *sp = realloc(s->sp, (s->nsp + 1) * sizeof *sp);
            if (!sp)
                return -1;
            s->sp = sp;
            memset(&s->sp[j], 0, sizeof s->sp[j]);
            s->sp[j].id = s->next_species++;
            if (neat_genome_copy(&s->sp[j].rep, &s->pop[i]))
                return -1;
            s->sp[j].rep_at = i;
            s->sp[j].best = -1; /* below every fitness (0 to 1): not evaluated yet */
            s->nsp++;
        }
        species *sp = &s->sp[j];
        uint32_t *m = realloc(sp->members, (sp->n + 1) * sizeof *m);
        if (!m)
            return -1;
        sp->members = m;
        sp->members[sp->n++] = i;
        s->pop[i].species = sp->id;
    }
    uint32_t kept = 0;
    for (uint32_t j = 0; j < s->nsp; j++) {
        species *sp = &s->sp[j];
        if (!sp->n) {
            neat_species_free(sp);
            continue;
        }
        uint32_t best = sp->members[0];
        double bd = INFINITY;
        for (uint32_t q = 0; q < sp->n; q++) {
            double d = neat_distance(&s->pop[sp->members[q]], &sp->rep);
            if (d < bd)
                bd = d, best = sp->members[q];
        }
        neat_genome_free(&sp->rep);
        if (neat_genome_copy(&sp->rep, &s->pop[best]))
            return -1;
        sp->rep_at = best;
        s->sp[kept++] = *sp;
    }
    s->nsp = kept;
    if (s->nsp < target)
        s->threshold =
            s->threshold > 2 * THRESHOLD_STEP ? s->threshold - THRESHOLD_STEP : THRESHOLD_STEP;
    else if (s->nsp > target)
        s->threshold += THRESHOLD_STEP;
    return 0;
}

/* Offspring a species: in proportion to its mean fitness (fitness sharing: each member's fitness
 * over the species' size, summed), the remainders by the largest fractions. Stagnant species get
 * none, but the two best are kept. */
static void share_offspring(neat_state *s, uint64_t k, double *frac)
{
    double total = 0;
    uint32_t live = 0;
    for (uint32_t j = 0; j < s->nsp; j++) {
        species *sp = &s->sp[j];
        double sum = 0;
        float top = -INFINITY;
        for (uint32_t q = 0; q < sp->n; q++) {
            sum += s->pop[sp->members[q]].fitness;
            top = (float)s->pop[sp->members[q]].fitness > top
                      ? (float)s->pop[sp->members[q]].fitness
                      : top;
        }
        if (top > sp->best) {
            sp->best = top;
            sp->improved = (uint32_t)k;
        }
        sp->mean = sum / sp->n;
        sp->offspring = 0;
    }
    /* the two best species by their best fitness (ties: the older) never stagnate */
    uint32_t b1 = 0, b2 = s->nsp > 1 ? 1 : 0;
    for (uint32_t j = 0; j < s->nsp; j++)
        if (s->sp[j].best > s->sp[b1].best)
            b1 = j;
    if (b2 == b1)
        b2 = b1 ? 0 : (s->nsp > 1 ? 1 : 0);
    for (uint32_t j = 0; j < s->nsp; j++)
        if (j != b1 && s->sp[j].best > s->sp[b2].best)
            b2 = j;
    for (uint32_t j = 0; j < s->nsp; j++) {
        species *sp = &s->sp[j];
        const int stale = k - sp->improved >= STAGNATION && j != b1 && j != b2;
        if (stale)
            sp->mean = -1;
        else {
            total += sp->mean;
            live++;
        }
    }
    uint32_t given = 0;
    for (uint32_t j = 0; j < s->nsp; j++) {
        species *sp = &s->sp[j];
        if (sp->mean < 0) {
            frac[j] = -1;
            continue;
        }
        double want = total > 0 ? s->P * sp->mean / total : (double)s->P / live;
        sp->offspring = (uint32_t)floor(want);
        given += sp->offspring;
        frac[j] = want - floor(want);
    }
    while (given < s->P) { /* the largest remainders, the first species on ties */
        uint32_t best = UINT32_MAX;
        for (uint32_t j = 0; j < s->nsp; j++)
            if (frac[j] >= 0 && (best == UINT32_MAX || frac[j] > frac[best]))
                best = j;
        if (best == UINT32_MAX)
            break;
        s->sp[best].offspring++;
        frac[best] = -0.5; /* taken: below every remainder, above the stagnant */
        given++;
        int any = 0;
        for (uint32_t j = 0; j < s->nsp; j++)
            any |= frac[j] >= 0;
        if (!any)
            for (uint32_t j = 0; j < s->nsp; j++)
                if (frac[j] == -0.5)
                    frac[j] = 0;
    }
}

/* Generation k: evaluated, then the next population bred and speciated. -1 out of memory. */
static int generation(oxo_trainer *t, uint64_t k)
{
    neat_state *s = state_of(t);
    if (evaluate(t, s, k))
        return -1;
    /* the champion: the fittest of this generation (the first on a tie) */
    uint32_t top = 0;
    for (uint32_t i = 1; i < s->P; i++)
        if (s->pop[i].fitness > s->pop[top].fitness)
            top = i;
    neat_genome_free(&s->champ);
    if (neat_genome_copy(&s->champ, &s->pop[top]))
        return -1;
    s->champ_fit = s->pop[top].fitness;
    /* the species as speciate left them: members by index, now fittest first */
    for (uint32_t j = 0; j < s->nsp; j++)
        sort_members(s->pop, s->sp[j].members, s->sp[j].n);
    double *frac = malloc(s->nsp * sizeof *frac);
    genome *next = calloc(s->P, sizeof *next);
    if (!frac || !next) {
        free(frac);
        free(next);
        return -1;
    }
    share_offspring(s, k, frac);
    free(frac);
    uint64_t rng = oxo_rng_stream(t->c.seed ^ SEED_BREED, k);
    uint32_t made = 0;
    s->nmade = 0;
    int rc = 0;
    for (uint32_t j = 0; j < s->nsp && !rc; j++) {
        species *sp = &s->sp[j];
        uint32_t left = sp->offspring;
        const int has_top = sp->members[0] == top;
        if (left && (sp->n >= ELITE_SIZE || has_top)) {
            rc = neat_genome_copy(&next[made++], &s->pop[sp->members[0]]);
            left--;
        }
        uint32_t survivors = (uint32_t)ceil(SURVIVAL * sp->n);
        survivors = survivors < 1 ? 1 : survivors;
        for (; left && !rc; left--) {
            genome *c = &next[made++];
            const genome *a = &s->pop[sp->members[oxo_rng_below(&rng, survivors)]];
            if (oxo_rng_unit(&rng) < P_MUTATE_ONLY || survivors == 1)
                rc = neat_genome_copy(c, a);
            else {
                const genome *b;
                if (oxo_rng_unit(&rng) < P_INTERSPECIES)
                    b = &s->pop[oxo_rng_below(&rng, s->P)];
                else
                    b = &s->pop[sp->members[oxo_rng_below(&rng, survivors)]];
                const int afirst = a->fitness > b->fitness || (a->fitness == b->fitness && a <= b);
                rc = neat_crossover(afirst ? a : b, afirst ? b : a, c, &rng);
            }
            if (!rc)
                rc = neat_mutate(s, c, &rng);
        }
    }
    if (rc || made != s->P) { /* the population stays the one evaluated */
        for (uint32_t i = 0; i < s->P; i++)
            neat_genome_free(&next[i]);
        free(next);
        return -1;
    }
    for (uint32_t i = 0; i < s->P; i++)
        neat_genome_free(&s->pop[i]);
    free(s->pop);
    s->pop = next;
    /* species left without offspring (stagnant) are gone; the others take the new genomes */
    uint32_t kept = 0;
    for (uint32_t j = 0; j < s->nsp; j++)
        if (s->sp[j].offspring)
            s->sp[kept++] = s->sp[j];
        else {
            neat_species_free(&s->sp[j]);
        }
    s->nsp = kept;
    return speciate(s, t->c.ne_species);
}

/* Out of memory in a generation: the population stays the one evaluated, and the generations
 * after it are not played (the episode has no way to fail; the model saved says how far the
 * population went by its champion's fitness and its species' generations). */
static void neat_episode(oxo_trainer *t, worker *w, uint64_t k)
{
    neat_state *s = state_of(t);
    if (!s->failed && generation(t, k))
        s->failed = 1;
    w->moves++;
}

/* Setting up, saving and loading */

static void state_free(neat_state *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->pop && i < s->P; i++)
        neat_genome_free(&s->pop[i]);
    free(s->pop);
    neat_genome_free(&s->champ);
    for (uint32_t j = 0; j < s->nsp; j++) {
        neat_species_free(&s->sp[j]);
    }
    free(s->sp);
    free(s->pos);
    free(s->made);
    free(s);
}

static void neat_free_values(oxo_trainer *t)
{
    state_free(state_of(t));
    t->learner_state = NULL;
}

/* The first population: every input linked to every output, weights drawn from N(0, 1), all of
 * one structure, so one species at first. With the tactics' inputs, only they and the bias are
 * linked, and the cells join by add-link mutations: the networks start as players of the tactics
 * alone, which the cells' 42 links of N(0, 1) each drowned (on 7x6 after 5 minutes, 76.0% of the
 * judged set kept where every input linked kept 47.1% after 15; train/RECORD.md, session 53).
 * Innovation numbers stay those of the full structure (input a to output b: a x outputs + b). */
static int first_population(oxo_trainer *t, neat_state *s)
{
    const oxo_game *g = t->g;
    const uint32_t I = s->inputs, O = s->outputs;
    uint64_t rng = oxo_rng_stream(t->c.seed ^ SEED_BREED, UINT64_MAX);
    s->next_node = I + O;
    s->next_innov = I * O;
    s->threshold = THRESHOLD0;
    const uint32_t from = t->c.ne_inputs ? (uint32_t)g->cells : 0; /* the first input linked */
    for (uint32_t i = 0; i < s->P; i++) {
        genome *ge = &s->pop[i];
        ge->nl = (I - from) * O;
        ge->l = malloc(ge->nl * sizeof *ge->l);
        ge->hid = malloc(sizeof *ge->hid);
        if (!ge->l || !ge->hid)
            return -1;
        for (uint32_t a = from; a < I; a++)
            for (uint32_t b = 0; b < O; b++)
                ge->l[(a - from) * O + b] =
                    (oxo_neat_link){a, I + b, a * O + b, 1, (float)neat_gauss(&rng)};
    }
    if (neat_genome_copy(&s->champ, &s->pop[0]))
        return -1;
    return speciate(s, t->c.ne_species);
}

static oxo_trainer *neat_create(const oxo_train_config *c, const oxo_game *g,
                                const oxo_player *truth, oxo_error *err)
{
    if (!truth && !c->ne_train) {
        oxo_fail(err, OXO_E_ARG,
                 "algo neat learns from the solved table of its game (--table), which %s lacks, "
                 "or from judged positions (--train-set FILE, from oxo-gen --judge-set)",
                 g->name);
        return NULL;
    }
    if (c->workers != 1 || c->opp_self < 1.0 || c->replay_capacity) {
        oxo_fail(err, OXO_E_ARG,
                 "algo neat evaluates each generation on every thread (OMP_NUM_THREADS): no "
                 "--workers, --opponent or --replay");
        return NULL;
    }
    oxo_trainer *t = trainer_alloc(c, g, truth);
    neat_state *s = calloc(1, sizeof *s);
    if (!t || !s) {
        free(t);
        free(s);
        oxo_fail(err, OXO_E_NOMEM, "a population of %u", c->ne_population);
        return NULL;
    }
    t->learner_state = s;
    s->P = c->ne_population;
    s->inputs = (uint32_t)oxo_neat_inputs(g, c->ne_inputs);
    s->outputs = (uint32_t)oxo_neat_outputs(g, c->ne_inputs);
    s->pop = calloc(s->P, sizeof *s->pop);
    /* The space grades a run that learns from the table (every position); one from judged
     * positions (--train-set) is graded on a judged set, as the n-tuple learner is. */
    if (!c->ne_train)
        t->space = oxo_space_build(g, 1);
    if (!s->pop || (!c->ne_train && !t->space)) {
        oxo_fail(err, OXO_E_NOMEM, "a population of %u", c->ne_population);
        oxo_trainer_free(t);
        return NULL;
    }
    if (c->ne_train ? neat_judged_positions(s, g, c->ne_train, c->ne_positions, err)
                    : neat_draw_positions(s, t, c->ne_positions, err)) {
        oxo_trainer_free(t);
        return NULL;
    }
    if (c->ne_train)
        neat_positions_hash(s, s->train_hash);
    if (first_population(t, s)) {
        oxo_fail(err, OXO_E_NOMEM, "a population of %u", c->ne_population);
        oxo_trainer_free(t);
        return NULL;
    }
    if (trainer_workers(t, err))
        return NULL;
    return t;
}

/* A player over the champion's network, which it owns. */
static oxo_player *neat_player(const oxo_trainer *t)
{
    neat_state *s = state_of(t);
    oxo_error e;
    oxo_neat_net *n = calloc(1, sizeof *n);
    if (!n || net_of(t, &s->champ, n, &e)) {
        free(n);
        return NULL;
    }
    oxo_player *p = oxo_player_of_neat(t->g, n, 1);
    if (!p) {
        oxo_neat_free(n);
        free(n);
    }
    return p;
}

/* On every position and line of the table's space, or after judged positions (--train-set) on
 * the judged set, as the n-tuple learner is graded. */
static int neat_grade(const oxo_trainer *t, const float *w, int solve, oxo_grade *g)
{
    (void)w;
    return trainer_grade_player(t, neat_player(t), solve, g);
}

/* The model's arrays: genome 0 the champion, then the population. */
static int neat_to_model(const oxo_trainer *t, oxo_model *m)
{
    const neat_state *s = state_of(t);
    snprintf(m->index, sizeof m->index, "neat");
    m->symmetric = t->c.symmetric; /* the network's inputs oriented */
    m->ne_inputs = t->c.ne_inputs;
    m->ne_genomes = s->P + 1;
    m->ne_nspecies = s->nsp;
    m->ne_next_node = s->next_node;
    m->ne_next_innov = s->next_innov;
    m->ne_next_species = s->next_species;
    m->ne_population = s->P;
    m->ne_target_species = t->c.ne_species;
    m->ne_positions = t->c.ne_positions;
    m->ne_games = t->c.ne_games;
    m->ne_threshold = s->threshold;
    m->ne_fitness = s->champ_fit;
    snprintf(m->ne_train_set, sizeof m->ne_train_set, "%s", s->train_hash);
    uint64_t nh = s->champ.nh, nl = s->champ.nl;
    for (uint32_t i = 0; i < s->P; i++)
        nh += s->pop[i].nh, nl += s->pop[i].nl;
    m->ne_genome = malloc(3 * (size_t)m->ne_genomes * sizeof *m->ne_genome);
    m->ne_hidden = malloc((nh ? nh : 1) * sizeof *m->ne_hidden);
    m->ne_links = malloc(4 * (nl ? nl : 1) * sizeof *m->ne_links);
    m->values = malloc((nl ? nl : 1) * sizeof *m->values);
    m->ne_species = malloc(4 * (size_t)(s->nsp ? s->nsp : 1) * sizeof *m->ne_species);
    if (!m->ne_genome || !m->ne_hidden || !m->ne_links || !m->values || !m->ne_species)
        return -1;
    m->ne_nhidden = (uint32_t)nh;
    m->nvalues = (uint32_t)nl;
    uint32_t ah = 0, al = 0;
    for (uint32_t i = 0; i <= s->P; i++) {
        const genome *ge = i ? &s->pop[i - 1] : &s->champ;
        m->ne_genome[3 * i] = ge->nh;
        m->ne_genome[3 * i + 1] = ge->nl;
        m->ne_genome[3 * i + 2] = ge->species;
        memcpy(m->ne_hidden + ah, ge->hid, ge->nh * sizeof *ge->hid);
        ah += ge->nh;
        for (uint32_t k = 0; k < ge->nl; k++, al++) {
            uint32_t *l = m->ne_links + 4 * (size_t)al;
            l[0] = ge->l[k].from;
            l[1] = ge->l[k].to;
            l[2] = ge->l[k].innov;
            l[3] = ge->l[k].on;
            m->values[al] = ge->l[k].w;
        }
    }
    for (uint32_t j = 0; j < s->nsp; j++) {
        uint32_t *sp = m->ne_species + 4 * j;
        sp[0] = s->sp[j].id;
        sp[1] = s->sp[j].rep_at + 1; /* genome 0 is the champion */
        sp[2] = s->sp[j].improved;
        memcpy(&sp[3], &s->sp[j].best, 4);
    }
    return 0;
}

static uint64_t neat_model_extra(const oxo_trainer *t)
{
    const neat_state *s = state_of(t);
    uint64_t n = 12 * (uint64_t)(s->P + 1) + 16 * (uint64_t)s->nsp + 1024;
    n += 4 * (uint64_t)s->champ.nh + 20 * (uint64_t)s->champ.nl;
    for (uint32_t i = 0; i < s->P; i++)
        n += 4 * (uint64_t)s->pop[i].nh + 20 * (uint64_t)s->pop[i].nl;
    return n;
}

/* Genome i of model m (0 the champion), checked by building its network. */
static int genome_from(const oxo_trainer *t, const oxo_model *m, uint32_t i, uint32_t ah,
                       uint32_t al, genome *ge, oxo_error *err)
{
    ge->nh = m->ne_genome[3 * i];
    ge->nl = m->ne_genome[3 * i + 1];
    ge->species = m->ne_genome[3 * i + 2];
    ge->hid = malloc((ge->nh ? ge->nh : 1) * sizeof *ge->hid);
    ge->l = malloc((ge->nl ? ge->nl : 1) * sizeof *ge->l);
    if (!ge->hid || !ge->l)
        return oxo_fail(err, OXO_E_NOMEM, "genome %u", i);
    memcpy(ge->hid, m->ne_hidden + ah, ge->nh * sizeof *ge->hid);
    for (uint32_t k = 0; k < ge->nl; k++) {
        const uint32_t *l = m->ne_links + 4 * (size_t)(al + k);
        ge->l[k] = (oxo_neat_link){l[0], l[1], l[2], l[3], m->values[al + k]};
        if (k && ge->l[k].innov <= ge->l[k - 1].innov)
            return oxo_fail(err, OXO_E_FIELD, "neat genome %u: innovations do not rise", i);
    }
    oxo_neat_net n;
    oxo_error e;
    if (net_of(t, ge, &n, &e))
        return oxo_fail(err, OXO_E_FIELD, "neat genome %u: %.300s", i, e.msg);
    oxo_neat_free(&n);
    return 0;
}

static int neat_load(oxo_trainer *t, const oxo_model *m, oxo_error *err)
{
    neat_state *s = state_of(t);
    if (m->ne_population != s->P)
        return oxo_fail(err, OXO_E_ARG, "a population of %u, the run's %u", m->ne_population, s->P);
    if (strcmp(m->ne_train_set, s->train_hash))
        return oxo_fail(err, OXO_E_ARG,
                        "the model learned from %s%s, and this run's positions are %s%s: resume "
                        "it with the same --train-set",
                        m->ne_train_set[0] ? "the training set of hash " : "the table",
                        m->ne_train_set, s->train_hash[0] ? "of hash " : "the table's",
                        s->train_hash);
    for (uint32_t i = 0; i < s->P; i++)
        neat_genome_free(&s->pop[i]);
    neat_genome_free(&s->champ);
    for (uint32_t j = 0; j < s->nsp; j++) {
        neat_species_free(&s->sp[j]);
    }
    s->nsp = 0;
    uint32_t ah = 0, al = 0;
    for (uint32_t i = 0; i <= s->P; i++) {
        genome *ge = i ? &s->pop[i - 1] : &s->champ;
        if (genome_from(t, m, i, ah, al, ge, err))
            return -1;
        ah += ge->nh;
        al += ge->nl;
    }
    species *sp = realloc(s->sp, m->ne_nspecies * sizeof *sp);
    if (!sp)
        return oxo_fail(err, OXO_E_NOMEM, "%u species", m->ne_nspecies);
    s->sp = sp;
    for (uint32_t j = 0; j < m->ne_nspecies; j++) {
        const uint32_t *r = m->ne_species + 4 * j;
        species *q = &s->sp[j];
        memset(q, 0, sizeof *q);
        s->nsp = j + 1;
        q->id = r[0];
        q->improved = r[2];
        memcpy(&q->best, &r[3], 4);
        q->rep_at = r[1] - 1;
        if (neat_genome_copy(&q->rep, &s->pop[q->rep_at]))
            return oxo_fail(err, OXO_E_NOMEM, "species %u", j);
        for (uint32_t i = 0; i < s->P; i++)
            if (s->pop[i].species == q->id) {
                uint32_t *mm = realloc(q->members, (q->n + 1) * sizeof *mm);
                if (!mm)
                    return oxo_fail(err, OXO_E_NOMEM, "species %u", j);
                q->members = mm;
                q->members[q->n++] = i;
            }
    }
    s->next_node = m->ne_next_node;
    s->next_innov = m->ne_next_innov;
    s->next_species = m->ne_next_species;
    s->threshold = m->ne_threshold;
    s->champ_fit = m->ne_fitness;
    return 0;
}

static void neat_defaults(oxo_train_config *c)
{
    c->ne_population = 150; /* the paper's */
    c->ne_species = 10;
    c->ne_positions = 4096;
    c->ne_games = 10;
    /* the tactics' inputs, an output a move: on tic-tac-toe after 5 minutes 96.9-97.5% of the
     * positions and no line lost against the perfect player (seeds 1-3), where the cells kept
     * 84.7-86.4% (train/RECORD.md, session 53). Afterstates (--inputs afterstate) lose 72 lines as
     * O on seed 2 there, but on 7x6 keep 86.8-87.6% of the judged set after 15 minutes where the
     * tactics keep 71-76% (session 54): Connect-4's commands (data/make.sh, train/study.sh) ask
     * for them. */
    c->ne_inputs = OXO_NEAT_TACTICS;
}

/* clang-format off */
const oxo_learner oxo_learner_neat = {
    .name = "neat", .algo = OXO_ALGO_NEAT, .graded = OXO_GRADED_TRAIN_SET, .defaults = neat_defaults, .create = neat_create,
    .episode = neat_episode, .free_values = neat_free_values, .player = neat_player,
    .grade = neat_grade, .load = neat_load, .to_model = neat_to_model,
    .model_extra = neat_model_extra,
    .cli = {.episodes = OXO_NEAT_GENERATIONS, .inputs = oxo_neat_input_names,
            .inputs_field = offsetof(oxo_train_config, ne_inputs)},
};
/* clang-format on */
