/*
 * oxo-train: trains a model by self-play, grades it against the solved table as it goes, writes
 * versioned model files; --sweep runs a grid of settings as independent runs. This file takes the
 * run's settings from the command line (args.c reads it, configure.c applies it), opens the game
 * and what grades it (a table, a judged set, a book), and hands over to run.c or sweep.c.
 */
#include "agent.h"
#include "cli.h"
#include "clock.h"
#include "settings.h"
#include "train.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "run.h"

static const char *prog = "oxo-train";

/* What a run is graded with, and the game it is of. */
typedef struct grading {
    oxo_game *want;    /* --game, else the resumed model's, else tictactoe */
    oxo_player *truth; /* the solved table, when there is one */
    oxo_judge *judge;  /* ntuple, and neat without a table: the judged set */
    oxo_judge *train;  /* neat: --train-set, the set's positions left out */
    oxo_player *book;  /* Connect-4 without a table: the shipped opening book */
} grading;

static void grading_free(grading *gr)
{
    oxo_player_close(gr->truth);
    oxo_judge_free(gr->judge);
    oxo_judge_free(gr->train);
    oxo_player_close(gr->book);
    oxo_game_free(gr->want);
}

/* The search phase's options go with n-tuple runs, and --perfect-games and --judge with grading
 * on a judged set (judged: as the learner's row says, oxo_graded); --train-set with the learners
 * that take one: checked once the algorithm is known (a resumed run takes it from the model). */
static int check_network_options(const train_args *a, oxo_algo algo, int judged)
{
    char names[160];
    if (a->train_set && oxo_algo_graded(algo) != OXO_GRADED_TRAIN_SET) {
        fprintf(stderr, "%s: --train-set goes with --algo %s\n", prog,
                oxo_algo_names_graded(OXO_GRADED_TRAIN_SET, names, sizeof names));
        return OXO_EXIT_USAGE;
    }
    if ((a->search_games || a->search_iter != UINT64_MAX || a->search_alpha > 0) &&
        !oxo_algo_cli(algo)->search_phase) {
        fprintf(stderr,
                "%s: --search-games, --search-iterations and --search-alpha go with --algo %s\n",
                prog,
                oxo_algo_names_with(offsetof(oxo_learner_cli, search_phase), names, sizeof names));
        return OXO_EXIT_USAGE;
    }
    if ((a->search_iter != UINT64_MAX || a->search_alpha > 0) && !a->search_games) {
        fprintf(stderr, "%s: --search-iterations and --search-alpha go with --search-games\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    if ((a->perfect_games != UINT64_MAX || a->judge_path) && !judged) {
        fprintf(stderr, "%s: %s goes with --algo %s, which are graded on a judged set\n", prog,
                a->judge_path ? "--judge" : "--perfect-games",
                oxo_algo_names_judged(names, sizeof names));
        return OXO_EXIT_USAGE;
    }
    return 0;
}

/* The n-tuple defaults the game states (game.h, oxo_learn_defaults), each measured on its family.
 * On Connect-4: 30% of the games begin after up to 11 random moves (self-play alone seldom leaves
 * the network's own main lines, where the perfect player goes; on 7x6, 1,000,000 games, seeds 1-8,
 * the judged positions kept rose from 82-86% to 88-91%, the wins stayed alike); each worker
 * replays one of its last 2,000 games after each game it plays (GBG's agents learn from each game
 * once; Lin's experience replay, over whole games as the tabular TD replays its episodes: on 7x6,
 * seeds 1-24, 70 tuples, the median network won 92% bare against 88.75% without, and under
 * puct:1000 the mean rose from 90.3% to 98.5%, for about 1.8x the time); and twice GBG's 70
 * tuples, which replay feeds (the median network won 97.5% bare with 140 and replay, 92% with 70
 * and replay, 92.25% with 140 and no replay, for about twice the time). */
static void game_defaults(const train_args *a, const oxo_game *want, run_opts *o)
{
    const oxo_learn_defaults *ld = &want->learn;
    if (!a->starts_given && ld->starts > 0)
        o->cfg.starts = ld->starts;
    if (a->nt_depth == UINT64_MAX && ld->start_depth)
        o->cfg.nt_start_depth = (uint32_t)ld->start_depth;
    if (!a->replay_given && ld->replay) {
        o->cfg.replay_capacity = (uint32_t)ld->replay;
        if (!a->replay_ratio_given)
            o->cfg.replay_ratio = 1;
    }
    if (!a->nt_count && !a->tuple_file && ld->tuples)
        o->cfg.nt_count = (uint32_t)ld->tuples;
}

/* The truth: the solved table (--table, else the game's shipped one) grades the tabular runs and
 * NEAT's from the table; an n-tuple run, and a NEAT run from --train-set (judged), are graded on a
 * judged set (drawn from the table when there is one, else read from --judge or the game's
 * shipped set) and need no table. 0, else the exit status. */
static int open_truth(const train_args *a, int judged, oxo_graded graded, grading *gr)
{
    char found[4096], name[80];
    const char *table = a->table;
    const oxo_game *want = gr->want;
    oxo_error err;
    oxo_table_name(want->spec, name, sizeof name);
    if (!table && !oxo_find_data(name, found, sizeof found))
        table = found;
    if (!table && !judged) {
        fprintf(stderr,
                "%s: grading needs the solved table and %s was not found; make it with "
                "oxo-gen --game %s and pass --table FILE%s\n",
                prog, name, want->spec,
                graded == OXO_GRADED_TRAIN_SET ? ", or let it learn from judged positions "
                                                 "(--train-set FILE, from oxo-gen --judge-set)"
                                               : "");
        return OXO_EXIT_FAIL;
    }
    if (table) {
        /* through the player's opener, which bounds the body by its game before decompressing */
        if (!(gr->truth = oxo_player_open(table, &err))) {
            fprintf(stderr, "%s: %s: %s\n", prog, table, err.msg);
            return OXO_EXIT_FAIL;
        }
        if (oxo_player_takes(gr->truth, table, OXO_TAKE_TABLE, &err)) {
            fprintf(stderr, "%s: --table: %s\n", prog, err.msg);
            return OXO_EXIT_FAIL;
        }
        if (!oxo_game_same(oxo_player_game(gr->truth), want)) {
            fprintf(stderr, "%s: %s is a table of %s, not of %s\n", prog, table,
                    oxo_player_game(gr->truth)->spec, want->spec);
            return OXO_EXIT_FAIL;
        }
    }
    if (!judged)
        return 0;
    const oxo_game *game = gr->truth ? oxo_player_game(gr->truth) : want;
    const int by_solver = a->judge_path && !strcmp(a->judge_path, "solver");
    if (by_solver && !want->solver) {
        fprintf(stderr, "%s: --judge solver: the solver does not serve %s (it solves Connect-4)\n",
                prog, want->name);
        return OXO_EXIT_USAGE;
    }
    /* Connect-4 without a table: the game's shipped opening book, when there is one, lets the
     * solver value the set's positions and play the games against the perfect player at once
     * (oxo-gen --book); with neither it is not opened (checking it costs most of a second on 6x5).
     */
    uint64_t perfect = a->perfect_games != UINT64_MAX ? a->perfect_games : OXO_GRADE_PERFECT_GAMES;
    if (!gr->truth && want->solver && (by_solver || perfect) &&
        oxo_find_book(want->spec, found, sizeof found) == 0 &&
        !(gr->book = oxo_player_open_book(want, found, &err))) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    char jname[96];
    oxo_data_name(want->spec, ".judge", jname, sizeof jname);
    if (by_solver) {
        /* The truth interface served by the solver: the set drawn as from a table (the seed and
         * size the same), from 10 stones on, where a solve takes milliseconds past the book. */
        /* One solver a thread, sharing the book: the positions are valued in parallel (2.5 min
         * on 7x6 on one thread), the set the same whatever their number. */
        int threads = omp_get_max_threads(), ok = 0;
        threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
        oxo_player *sv[64] = {0};
        while (ok < threads && (sv[ok] = oxo_player_open_solver(game, gr->book, &err)))
            ok++;
        gr->judge = ok == threads ? oxo_judge_from_truths((const oxo_player *const *)sv, threads,
                                                          OXO_JUDGE_SIZE, OXO_JUDGE_SOLVER_STONES,
                                                          OXO_JUDGE_SEED, &err)
                                  : NULL;
        for (int t = 0; t < ok; t++)
            oxo_player_close(sv[t]);
    } else if (a->judge_path || !gr->truth) {
        if (!a->judge_path && oxo_find_data(jname, found, sizeof found)) {
            fprintf(stderr,
                    "%s: grading needs a table or a judged set of %s, and neither %s nor %s was "
                    "found; make one with oxo-gen --game %s --judge-set N -o FILE and pass --judge "
                    "FILE\n",
                    prog, want->name, name, jname, want->spec);
            return OXO_EXIT_FAIL;
        }
        gr->judge = oxo_judge_read(game, a->judge_path ? a->judge_path : found, &err);
    } else {
        gr->judge = oxo_judge_from_truth(gr->truth, OXO_JUDGE_SIZE, 0, OXO_JUDGE_SEED, &err);
    }
    if (!gr->judge) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    gr->judge->perfect_games = (uint32_t)perfect;
    gr->judge->book = gr->book;
    return 0;
}

/* --train-set: NEAT's training positions, those of the set that grades the run left out (the
 * held-out set is never trained on). 0, else the exit status. */
static int open_train_set(const char *path, run_opts *o, grading *gr)
{
    oxo_error err;
    if (!(gr->train = oxo_judge_read(o->game, path, &err))) {
        fprintf(stderr, "%s: --train-set %s: %s\n", prog, path, err.msg);
        return OXO_EXIT_FAIL;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < gr->train->n; i++) {
        const oxo_pos p = gr->train->pos[i].pos;
        int held = 0;
        for (uint32_t j = 0; gr->judge && j < gr->judge->n && !held; j++)
            held = gr->judge->pos[j].pos.me == p.me && gr->judge->pos[j].pos.opp == p.opp;
        if (!held)
            gr->train->pos[kept++] = gr->train->pos[i];
    }
    if (kept < gr->train->n)
        fprintf(stderr,
                "%s: note: %u of the %u positions of %s are in the judged set that grades the "
                "run, and are left out\n",
                prog, gr->train->n - kept, gr->train->n, path);
    if (!kept) {
        fprintf(stderr, "%s: --train-set %s: no position is left to train on\n", prog, path);
        return OXO_EXIT_FAIL;
    }
    gr->train->n = kept;
    o->cfg.ne_train = gr->train;
    return 0;
}

/* The game and what grades the run: 0, else the exit status. */
static int open_grading(const train_args *a, run_opts *o, grading *gr)
{
    char mgame[48] = "tictactoe";
    oxo_algo algo = a->algo;
    oxo_error err;
    if (o->resume) {
        oxo_model *m;
        if (oxo_model_read(o->resume, &m, &err)) {
            fprintf(stderr, "%s: %s: %s\n", prog, o->resume, err.msg);
            return OXO_EXIT_FAIL;
        }
        oxo_algo_named(m->algo, &algo); /* the reader knows it */
        snprintf(mgame, sizeof mgame, "%s", m->game);
        oxo_model_free(m);
    }
    if (!(gr->want = oxo_game_open(a->spec ? a->spec : mgame, &err))) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    char name[80], found[4096];
    oxo_table_name(gr->want->spec, name, sizeof name);
    const oxo_graded graded = oxo_algo_graded(algo);
    const int judged =
        graded == OXO_GRADED_JUDGED || (graded == OXO_GRADED_TRAIN_SET && a->train_set) ||
        (graded == OXO_GRADED_EITHER && !a->table && oxo_find_data(name, found, sizeof found) != 0);
    int rc = check_network_options(a, algo, judged);
    if (rc)
        return rc;
    o->search_alpha = a->search_alpha;
    o->search_games = (uint32_t)a->search_games;
    o->search_iterations =
        a->search_iter == UINT64_MAX ? OXO_SEARCH_ITERATIONS : (uint32_t)a->search_iter;
    if (oxo_algo_cli(algo)->tuple_options && !o->resume)
        game_defaults(a, gr->want, o);
    /* a bad agent (a usage error, or a file it names), found before any work */
    if (o->cfg.opp_agent_spec[0]) {
        int file_failed;
        oxo_agent *ag = oxo_agent_open_ex(gr->want, o->cfg.opp_agent_spec, &file_failed, &err);
        if (!ag) {
            fprintf(stderr, "%s: --opponent: %s\n", prog, err.msg);
            return file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
        }
        oxo_agent_free(ag);
    }
    if ((rc = open_truth(a, judged, graded, gr)))
        return rc;
    o->game = gr->truth ? oxo_player_game(gr->truth) : gr->want;
    o->judge = gr->judge;
    return a->train_set ? open_train_set(a->train_set, o, gr) : 0;
}

int main(int argc, char **argv)
{
    static train_args a; /* large (the sweep's grid): not on the stack */
    train_args_defaults(&a);
    oxo_cli_init();
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.strip) {
        if (!a.output || a.resume || a.naxes || a.learning_given) {
            fprintf(stderr, "%s: --strip FILE takes -o OUT and nothing else\n", prog);
            return OXO_EXIT_USAGE;
        }
        const char *in[] = {a.strip};
        rc = check_outputs(&a.output, 1, in, 1);
        return rc ? rc : oxo_cli_finish(prog, strip_model(a.strip, a.output, a.json));
    }
    run_opts o;
    memset(&o, 0, sizeof o);
    if ((rc = configure(&a, &o)))
        return rc;
    grading gr = {0};
    if ((rc = open_grading(&a, &o, &gr))) {
        grading_free(&gr);
        return rc;
    }
    /* Inputs are read whole before any output is written; still, no output may be an input. */
    const char *inputs[] = {a.table, o.resume, a.judge_path, a.train_set};
    oxo_cli_signals(&stop_signal, oxo_atomic_abort);
    if (a.naxes) {
        rc = sweep(&o, gr.truth, a.axes, a.naxes, inputs, 4);
        grading_free(&gr);
        return oxo_cli_finish(prog, rc);
    }
    const char *outs[3] = {o.output};
    int nouts = 1;
    if (o.curve)
        outs[nouts++] = o.curve;
    if (o.plot)
        outs[nouts++] = o.plot;
    if ((rc = check_outputs(outs, nouts, inputs, 4))) {
        grading_free(&gr);
        return rc;
    }
    run_result r;
    curve_buf curve = {0};
    run(&o, gr.truth, &r, o.curve || o.plot ? &curve : NULL);
    oxo_player_close(gr.truth); /* before the report, as before: the truth's memory is large */
    gr.truth = NULL;
    rc = finish_run(&o, &r, &curve);
    grading_free(&gr);
    return rc;
}
