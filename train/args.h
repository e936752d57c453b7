/*
 * oxo-train's command line: what it gives, collected in train_args before anything is applied
 * (defaults depend on --algo, which may come last), and the reading of it (args.c).
 */
#ifndef OXO_TRAIN_ARGS_H
#define OXO_TRAIN_ARGS_H

#include "run.h"

/* What the command line gives, collected before anything is applied: defaults depend on --algo,
 * which may come last. */
typedef struct train_args {
    oxo_algo algo;
    uint64_t episodes, seed, workers, sync, nt_count, nt_len, nt_horizon, nt_sets, nt_depth,
        perfect_games;
    uint64_t search_games, search_iter, checkpoint_every, eval_every;
    double average;      /* --average: the share of the run averaged (-1: not given, 0.5) */
    double tuple_lines;  /* --tuple-lines: the share of walks from a line (-1: OXO_NT_LINES) */
    double search_alpha; /* --search-alpha (0: the run's last alpha) */
    const char *inputs;  /* azero: --inputs cells|lines */
    const char *output, *table, *opponent, *trace, *alpha_sched, *eps_sched, *strip, *spec,
        *judge_path;
    const char *tuple_file, *resume, *curve, *plot;
    const char *train_set; /* neat: --train-set FILE */
    int json, quiet, nosym;
    int defend; /* --defend 1, --no-defend 0, -1 the game's (oxo_train_defend) */
    uint32_t nt_target;
    int learning_given, seed_given, workers_given, episodes_given, replay_ratio_given, replay_given,
        starts_given;
    const char *learn_key[64], *learn_val[64]; /* the settings of settings.c, applied by name */
    int nlearn;
    sweep_axis axes[MAX_SWEEP];
    int naxes;
} train_args;

/* What a command line without options gives. */
void train_args_defaults(train_args *a);
/* Reads the command line into a (zeroed but for its defaults: train_args_defaults): -1 go on, else
 * the exit status to leave with (--help and --version print and give 0). */
int parse_args(int argc, char **argv, train_args *a);
/* Applies what the command line gave to a run's settings (configure.c): 0, else the exit status to
 * leave with after a message on stderr. */
int configure(train_args *a, run_opts *o);
/* Whether a learning setting of settings.c was given by name. */
int learned(const train_args *a, const char *key);

#endif
