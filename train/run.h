/*
 * oxo-train's pieces shared by its files: what a run is given (run_opts) and gives back
 * (run_result), its curve, the stop flag the signals set, and the sweep's grid. main.c reads the
 * command line into them; run.c trains, grades, saves and reports one run; sweep.c runs a grid.
 */
#ifndef OXO_TRAIN_RUN_H
#define OXO_TRAIN_RUN_H

#include "settings.h"
#include "train.h"

#include <stdio.h>

typedef struct run_opts {
    oxo_train_config cfg;
    const oxo_game *game;   /* the game of the run (the table's when there is one) */
    const oxo_judge *judge; /* ntuple: the judged set it is graded on */
    uint64_t episodes, eval_every, checkpoint_every;
    /* --search-games: the phase after the run (0: none) */
    uint32_t search_games, search_iterations;
    double search_alpha; /* its step (0: the run's last alpha) */
    const char *output, *curve, *plot, *resume;
    int quiet, json, progress;
    int implied_eval; /* grade at 100 points when --curve, --plot or --sweep needs a curve */
} run_opts;

/* Set by SIGINT, SIGTERM or SIGHUP: runs stop at the next round and save what they learned. */
extern volatile int stop_signal;

/* A curve kept in memory and saved like a model (atomically), at checkpoints and at the end: a
 * FIFO or a device given as --curve is written in place, never waited on or replaced. */
typedef struct curve_buf {
    char *text;
    size_t len, cap;
    int failed;
} curve_buf;

typedef struct run_result {
    oxo_train_config cfg; /* the run's settings: the model's own when resumed */
    oxo_grade grade;
    uint64_t episodes, episodes_to_perfect; /* UINT64_MAX: not reached */
    double eps_per_sec, moves_per_sec;
    char hash[17];
    char output[1024];
    int ok;
    int stopped;       /* by a signal, before the end */
    uint32_t averaged; /* weights averaged into the saved network (--average) */
    /* games of the search phase the saved network went through (--search-games) */
    uint32_t searched;
    double search_time, search_alpha; /* its seconds and its step */
    oxo_error err;                    /* code OXO_OK while the run goes well */
} run_result;

#define MAX_SWEEP  8
#define MAX_VALUES 16

typedef struct {
    char key[32];
    int n;
    char val[MAX_VALUES][32];
} sweep_axis;
/* Runs of a sweep, at most: each is a model file and a line of the table. */
#define MAX_RUNS 4096

/* run.c */
void curve_add(curve_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run(const run_opts *o, const oxo_player *truth, run_result *r, curve_buf *curve);
void plot(const curve_buf *curve, const char *out, const char *algo);
int strip_model(const char *in, const char *out, int json);
/* Before any work: no output may be an input or another output; 0, else the exit status. */
int check_outputs(const char *const *outs, int nouts, const char *const *ins, int nins);
/* Reports a finished run (or why it failed, or where a signal stopped it); the exit status. */
int finish_run(const run_opts *op, const run_result *rp, curve_buf *cp);

/* report.c */
void print_result(const run_opts *o, const run_result *r, int json, const char *label);
/* configure.c: --average F on an n-tuple run (0, or -1 after a message) */
int set_average(run_opts *o, double average);
/* args.c: --sweep's axes */
int parse_sweep(const char *arg, sweep_axis *ax);
/* The size of a grid, or 0 when it has more than MAX_RUNS runs. */
int grid_size(const sweep_axis *axes, int naxes);
/* sweep.c */
int sweep(const run_opts *base, const oxo_player *truth, sweep_axis *axes, int naxes,
          const char *const *inputs, int ninputs);

#endif
