/*
 * The trainer: tabular Q-learning (negamax form) and TD(lambda) on afterstate values, by self-play
 * or against the random player or the solved table, and TD(lambda) n-tuple networks by self-play
 * (ntuple), on many workers.
 *
 * Reproducibility: episode k of a run draws its random numbers from a stream keyed by (seed, k),
 * and is played by worker (k - round start) mod W. Workers learn on private copies of the values
 * during a round of `sync` episodes; at the end of the round each entry touched by any worker
 * becomes the mean of the workers' values for it, summed in worker order. Nothing depends on which
 * thread runs which worker, so the same seed and W give the same bytes for any OMP_NUM_THREADS.
 * Rounds start at multiples of `sync` (with one worker rounds change nothing and may be cut
 * anywhere), and schedules depend on the absolute episode number, so a run resumed from a model
 * saved at a round boundary continues exactly as if it had never stopped.
 */
#ifndef OXO_TRAIN_H
#define OXO_TRAIN_H

#include "grade.h"
#include "judge.h"
#include "model.h"
#include "ntuple.h"
#include "player.h"
#include "space.h"

typedef enum {
    OXO_ALGO_Q = 0,
    OXO_ALGO_TD = 1,
    OXO_ALGO_NTUPLE = 2,
    OXO_ALGO_NEAT = 3,
    OXO_ALGO_AZERO = 4
} oxo_algo;

/* The learners by name, as --algo and a model's `algo` spell them (train/learners/registry.c):
 * the algo of a name (0, or -1 when no learner has it), the name of an algo, and the names of them
 * all, "q, td or ntuple", for messages, written into buf. */
int oxo_algo_named(const char *name, oxo_algo *algo);
const char *oxo_algo_name(oxo_algo algo);
const char *oxo_algo_names(char *buf, size_t cap);

/* What grades a learner's runs (its row's `graded`). */
typedef enum {
    OXO_GRADED_TABLE = 0, /* the game's solved table, which the run needs */
    OXO_GRADED_JUDGED,    /* a judged set: the learner needs no table */
    OXO_GRADED_TRAIN_SET, /* a judged set when it learns from one (--train-set), else the table */
    OXO_GRADED_EITHER,    /* the table where there is one, else a judged set */
} oxo_graded;
oxo_graded oxo_algo_graded(oxo_algo algo);
/* The learners graded on a judged set, "ntuple, neat with --train-set, or azero without a
 * table"; and those of one kind of grading, "neat": for messages, written into buf. */
const char *oxo_algo_names_judged(char *buf, size_t cap);
const char *oxo_algo_names_graded(oxo_graded graded, char *buf, size_t cap);

/* What a learner's row tells oxo-train's command line (train/configure.c, main.c, sweep.c), so
 * that the options a learner takes, and the defaults it changes, are its row's and not branches
 * on its name. */
typedef struct oxo_learner_cli {
    uint64_t episodes;  /* --episodes when it is not given (an episode of the learner's own: a
                         * generation, an iteration); 0: the shared default */
    int network_rounds; /* several workers meet in rounds of a hundredth of the run, at most
                         * OXO_NT_SYNC games (a network's --average snapshots), not the tabular
                         * learners' 1000 to 20,000 */
    int self_play;      /* learns by self-play alone: no --opponent but self, no --no-symmetry */
    int search_phase;   /* takes --search-games, --search-iterations and --search-alpha */
    int tuple_options;  /* takes the n-tuple network's options (--tuples, --tuple-len,
                         * --tuple-file, --tuple-lines, --horizon, --weight-sets,
                         * --exploring-depth, --td-target, --average, --defend) and the game's
                         * learning defaults (oxo_game.learn) */
    /* What --inputs takes (NULL: no --inputs): its names, NULL-ended; the index of the one given
     * goes into the int of oxo_train_config at byte offset inputs_field. */
    const char *const *inputs;
    size_t inputs_field;
} oxo_learner_cli;
/* The row's traits of a learner (all zero for an unknown algo). */
const oxo_learner_cli *oxo_algo_cli(oxo_algo algo);
/* The names of the learners whose row sets the trait at byte offset `trait` of oxo_learner_cli
 * (offsetof), "ntuple" or "a or b", for messages, written into buf. */
const char *oxo_algo_names_with(size_t trait, char *buf, size_t cap);
/* The same for the learners that take --inputs. */
const char *oxo_algo_names_inputs(char *buf, size_t cap);

typedef struct oxo_train_config {
    oxo_algo algo;
    int symmetric;
    oxo_schedule alpha, epsilon;
    double gamma, lambda;
    int replacing; /* td traces: replacing instead of accumulating */
    double init;
    uint32_t replay_capacity;
    double replay_ratio;
    double opp_self, opp_random, opp_table;
    double opp_agent; /* share of episodes against the agent of opp_agent_spec */
    char opp_agent_spec[256];
    double starts; /* exploring starts: share of episodes begun at a random non-terminal position */
    uint32_t sync;
    uint64_t seed;
    uint32_t workers;
    /* ntuple: nt_count tuples of nt_len cells, from nt_cells (borrowed until the trainer is made)
     * or, when NULL, by random walks drawn from the seed; traces cut after nt_horizon moves;
     * nt_sets weight sets (1 or 2; 0: the game's default, oxo_train_weight_sets). */
    uint32_t nt_count, nt_len, nt_horizon, nt_sets;
    /* ntuple, random walks: the share of them that start from a whole line of the game's k cells
     * (oxo_ntuple_random_walks; OXO_NT_LINES by default, 0: every walk from one cell, GBG's). */
    double nt_lines;
    /* ntuple: an exploring start plays fewer than nt_start_depth random moves (0: any number, up to
     * the end of the game), so that its share of games begins in the opening. */
    uint32_t nt_start_depth;
    /* ntuple: OXO_NT_TARGET_NEXT or OXO_NT_TARGET_OWN (model.h), 0: the game's default
     * (oxo_train_target). */
    uint32_t nt_target;
    /* ntuple: self-play's second player, when it values every move below OXO_NT_DEFEND_BELOW
     * (it thinks itself lost), plays oxo_ntuple_least_reply's move, as a perfect player makes
     * the winner find the win instead of letting it win by any move. 1 on, 0 off, -1 the game's
     * default (oxo_train_defend; oxo_train_defaults sets -1). */
    int nt_defend;
    const uint8_t *nt_cells;
    /* neat (train/learners/neat.c): genomes in the population, the number of species the
     * compatibility threshold aims at, the training positions drawn from the table, and the games
     * a colour against each member of the panel */
    uint32_t ne_population, ne_species, ne_positions, ne_games;
    /* neat: the judged positions it learns from where there is no table (oxo-train --train-set;
     * borrowed until the trainer is made), NULL: positions drawn from the table */
    const struct oxo_judge *ne_train;
    /* neat: the networks read the tactics' inputs too (lookup/neat.h), 0 the cells alone */
    int ne_inputs;
    /* azero (train/learners/azero.c): simulations a move in self-play, games an iteration, the
     * network's hidden layers and their width, samples a training batch, positions the window
     * keeps, samples trained per new position, opening moves played in proportion to the visits
     * (the rest: the most visited) */
    uint32_t az_sims, az_games, az_layers, az_width, az_batch, az_window, az_temp_moves;
    double az_ratio;
    double az_value_q; /* the share of the search's value in the value target */
    double az_random;  /* the share of self-play moves played at random */
    double az_rgames;  /* the share of self-play games that play them */
    double az_rmargin; /* a random move this much worse than the best decides the value target */
    int az_inputs;     /* what the network reads: OXO_AZ_CELLS, _LINES or _THREATS (azero.h) */
    /* ntuple, weight averaging (avg_every 0: none): the weights at every episode from avg_from on
     * that is a multiple of avg_every (itself a multiple of sync, so always a round's end) are
     * averaged, and oxo_trainer_average_finish makes their mean the network. */
    uint64_t avg_from;
    uint32_t avg_every;
} oxo_train_config;

void oxo_train_defaults(oxo_train_config *c, oxo_algo algo);
/* The generations (episodes) of a neat run when --episodes is not given. */
#define OXO_NEAT_GENERATIONS 300
/* az_temp_moves of the game: every move, its cells (azero's default). */
#define OXO_AZ_TEMP_GAME UINT32_MAX
/* The iterations (episodes) of an azero run when --episodes is not given. */
#define OXO_AZERO_ITERATIONS 100

/* The traces an n-tuple run keeps by default: the afterstates whose weight lambda^j is still 10%
 * or more (GBG's horizon cut; 4 for lambda 0.5). Each kept afterstate costs an update of all its
 * active weights at every move, the larger part of the time of a move. */
uint32_t oxo_train_horizon(double lambda);
/* The n-tuple learner's weight sets on game g when none are asked for: the game's (2 on Connect-4,
 * else 1; game.h, oxo_learn_defaults). */
uint32_t oxo_train_weight_sets(const oxo_game *g);
/* Its TD target when none is asked for: the game's (the mover's own next afterstate on Connect-4,
 * else the next afterstate). */
uint32_t oxo_train_target(const oxo_game *g);
/* Whether its second player defends (nt_defend) when not asked: the game's (1 on Connect-4). */
int oxo_train_defend(const oxo_game *g);
/* The share of an n-tuple run whose weights oxo-train averages when --average is not given (the
 * library's callers set avg_every themselves). Measured: train/RECORD.md, n-tuple networks. */
#define OXO_NT_AVERAGE 0.3
/* The share of tuples whose random walk starts from a whole line (oxo-train --tuple-lines). */
#define OXO_NT_LINES 1.0
/* Games a round of an n-tuple run on several workers when --sync is not given (the library's
 * callers set sync themselves; oxo_train_defaults gives 1000): half the merges of rounds of 1000,
 * measured faster and no weaker (train/RECORD.md, n-tuple networks). */
#define OXO_NT_SYNC 2000

/* The value of a schedule at episode k. */
double oxo_schedule_at(const oxo_schedule *s, uint64_t k);

typedef struct oxo_replay {
    uint32_t capacity, record, head, count;
    uint32_t *items; /* capacity * record */
} oxo_replay;

void oxo_replay_push(oxo_replay *r, const uint32_t *record);
/* A uniformly drawn record. */
const uint32_t *oxo_replay_sample(const oxo_replay *r, uint64_t *rng);

typedef struct oxo_trainer oxo_trainer;

/* truth: the solved table (for grading and the table opponent), borrowed; for ntuple it may be
 * NULL (a game without a table), and c->game names the game then. */
oxo_trainer *oxo_trainer_new(const oxo_train_config *c, const oxo_player *truth, oxo_error *err);
/* ntuple on a game given by itself (borrowed; it must outlive the trainer), with or without a
 * truth. */
oxo_trainer *oxo_trainer_new_on(const oxo_train_config *c, const oxo_game *g,
                                const oxo_player *truth, oxo_error *err);
/* train_set: a NEAT model's training positions where there is no table (it must be the set the
 * run was made with: the model holds its hash), else NULL. */
oxo_trainer *oxo_trainer_resume_on(const oxo_model *m, const oxo_game *g, const oxo_player *truth,
                                   const struct oxo_judge *train_set, oxo_error *err);
/* ntuple: the network over the shared weights (NULL for the tabular learners). */
const oxo_ntuple *oxo_trainer_net(const oxo_trainer *t);
/* Moves played by this process's episodes so far (for speed figures, not saved). */
uint64_t oxo_trainer_moves(const oxo_trainer *t);
/* Continues from a saved model (values, replay rings, episodes, settings). */
oxo_trainer *oxo_trainer_resume(const oxo_model *m, const oxo_player *truth, oxo_error *err);
void oxo_trainer_free(oxo_trainer *t);

const oxo_train_config *oxo_trainer_config(const oxo_trainer *t);
uint64_t oxo_trainer_episodes(const oxo_trainer *t);
const oxo_space *oxo_trainer_space(const oxo_trainer *t);
const float *oxo_trainer_values(const oxo_trainer *t);

/* Weight averaging (avg_every): the network becomes the mean of the weights taken so far (nothing
 * when none were), and the averaging starts again from there. Returns how many were averaged. */
uint32_t oxo_trainer_average_finish(oxo_trainer *t);
/* Plays episodes up to the total `until` (a round boundary is placed there), or until *stop (see
 * oxo_trainer_set_stop) is set, at a round boundary. */
void oxo_trainer_run(oxo_trainer *t, uint64_t until);
void oxo_trainer_set_stop(oxo_trainer *t, volatile int *stop);
/* The most bytes the body of a model of this run may take after `episodes` episodes in all. */
uint64_t oxo_trainer_model_bound(const oxo_trainer *t, uint64_t episodes);

/* A player over the current values (borrowing them). */
oxo_player *oxo_trainer_player(const oxo_trainer *t);

/* Grades the current values against the truth; an n-tuple network against the judged set (which
 * must be set first, borrowed) and, when there is a truth, in games against it. */
int oxo_trainer_grade(const oxo_trainer *t, oxo_grade *g);
/* How many snapshots of the weights the averaging (--average) has taken so far: 0 before it begins
 * and once oxo_trainer_average_finish has made their mean the network. */
uint32_t oxo_trainer_averaged(const oxo_trainer *t);
/* Grades the mean of those snapshots (the current values when there are none): the network the run
 * is building, which a model saved now plays. With the games against the truth (solve 1, as
 * oxo_trainer_grade) or without those a perfect player that the solver must play would need
 * (0; Connect-4 past its book: up to seconds a game): for the many gradings of a curve nobody
 * asked points of. */
int oxo_trainer_grade_mean(const oxo_trainer *t, int solve, oxo_grade *g);
/* Learns from a game played elsewhere (a person against the learned player): the n positions
 * from the start to its end, each a move after the one before. The episode count and the random
 * streams do not move, so the run's own episodes go on as they would have. One worker only (its
 * copy is the shared values); the tabular learners only. 0, or -1 with a sentence in err. */
int oxo_trainer_learn_game(oxo_trainer *t, const oxo_pos *line, int n, oxo_error *err);
void oxo_trainer_set_judge(oxo_trainer *t, const oxo_judge *j);

/* The search phase of an n-tuple network (oxo-train --search-games; train.c says what it does):
 * `games` games of self-play led by puct:`iterations` over the network, which learns from the
 * search with step `alpha` (0: the run's last alpha). 0 done, 1 stopped by the stop flag, -1 out
 * of memory (both leave the weights as they were before it); nothing for other learners or 0
 * games. The model records it until the weights learn on (oxo_trainer_run). */
int oxo_trainer_search(oxo_trainer *t, uint32_t games, uint32_t iterations, double alpha);
/* Called after each round of the search phase with the games played so far (progress lines). */
typedef void oxo_search_progress(void *ctx, uint32_t done, uint32_t games);
void oxo_trainer_set_search_progress(oxo_trainer *t, oxo_search_progress *fn, void *ctx);
/* --search-iterations when not given: puct:200, about 0.15 ms a move on 7x6. */
#define OXO_SEARCH_ITERATIONS 200
/* The search phase the weights went through last: its games (0: none), iterations and step. */
uint32_t oxo_trainer_searched(const oxo_trainer *t, uint32_t *iterations, double *alpha);

/* Fills a model (values and rings are copied; free with oxo_model_free). */
oxo_model *oxo_trainer_model(const oxo_trainer *t, const oxo_grade *g, const char *parent);

/* Single-update primitives, exposed for the tests. */
void oxo_q_update(const oxo_space *s, float *q, uint32_t edge, float alpha, float gamma);
/* TD(lambda) over one finished episode (nodes[0..len-1], the last one finished), online with
 * sparse traces. */
void oxo_td_episode_update(const oxo_space *s, float *v, const uint32_t *nodes, int len,
                           float alpha, float gamma, float lambda, int replacing);

#endif
