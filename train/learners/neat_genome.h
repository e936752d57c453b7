/*
 * Inside the NEAT learner (train/learners/neat.c): its genomes, species and population, what
 * neat_genome.c does to genomes (copies, the compatibility distance, mutation, crossover, the
 * generation's list of innovations), and its training positions (neat_positions.c).
 */
#ifndef OXO_NEAT_GENOME_H
#define OXO_NEAT_GENOME_H

#include "neat.h"

#include <stdint.h>

typedef struct genome {
    uint32_t nh, nl;
    uint32_t *hid;    /* hidden node ids, ascending */
    oxo_neat_link *l; /* links, by innovation ascending */
    uint32_t species; /* its species' id */
    double fitness;
} genome;

typedef struct species {
    uint32_t id;
    genome rep;      /* a copy: the next generation's genomes are compared with it */
    uint32_t rep_at; /* the member it was copied from (the model's representative) */
    uint32_t improved;
    float best;
    /* during a generation: its members (indexes), how many, its offspring */
    uint32_t *members, n, offspring;
    double mean;
} species;

/* A training position: the stones, and the moves that keep its value (the table's). */
typedef struct neat_pos {
    oxo_pos p;
    uint64_t keep;
} neat_pos;

typedef struct neat_state {
    genome *pop;
    uint32_t P;
    uint32_t inputs;  /* the networks' (oxo_neat_inputs) */
    uint32_t outputs; /* and outputs (oxo_neat_outputs) */
    genome champ;
    double champ_fit;
    species *sp;
    uint32_t nsp;
    uint32_t next_node, next_innov, next_species;
    double threshold;
    neat_pos *pos; /* the training positions: drawn along random games, or --train-set's */
    uint32_t npos;
    char train_hash[17]; /* --train-set's positions' hash (the model's neat.train_set), "" */
    /* this generation's structural innovations: a link (from, to) and a split link */
    uint32_t (*made)[4];
    uint32_t nmade, capmade;
    int failed; /* memory ran out in a generation: none is played after it */
} neat_state;

/* A species' representative and members freed. */
void neat_species_free(species *sp);
/* A copy of from into to (0, or -1 out of memory); a genome's arrays freed. */
int neat_genome_copy(genome *to, const genome *from);
void neat_genome_free(genome *g);
/* A draw from N(0, 1). */
double neat_gauss(uint64_t *rng);
/* The compatibility distance of two genomes. */
double neat_distance(const genome *a, const genome *b);
/* Mutates g (weights, a new node, a new link), numbering new structure through s's
 * list of the generation's innovations: 0, or -1 out of memory. */
int neat_mutate(neat_state *s, genome *g, uint64_t *rng);
/* A child c of a (the fitter) and b: 0, or -1 out of memory. */
int neat_crossover(const genome *a, const genome *b, genome *c, uint64_t *rng);

struct oxo_trainer;
struct oxo_judge;
struct oxo_player;
/* The moves of p (not finished) that keep the value the table truth gives it, and its legal moves,
 * as masks of move numbers (neat_positions.c); returns the number of moves, 0 or less when the
 * table answers none. */
int neat_keep_moves(const struct oxo_player *truth, oxo_pos p, uint64_t *keep, uint64_t *legal);
/* The training positions (neat_positions.c), into s->pos: `want` at most, drawn from t's table
 * along random games, or the first of the judged set j; 0, or -1 with err. */
int neat_draw_positions(neat_state *s, const struct oxo_trainer *t, uint32_t want, oxo_error *err);
int neat_judged_positions(neat_state *s, const oxo_game *g, const struct oxo_judge *j,
                          uint32_t want, oxo_error *err);
/* The hash of s's training positions (the model's neat.train_set). */
void neat_positions_hash(const neat_state *s, char out[17]);

#endif
