/*
 * The page's learner: oxo-train's own tabular learners (q, td) compiled to WebAssembly against
 * wasi-libc, with zstd and msgpack-c built from Debian's sources, behind a few functions of plain
 * numbers that the page's worker calls (learn.js). A run is set up from an oxo-train command line
 * (args.c and configure.c, the program's own reading of it), trained by the same trainer, graded
 * by the same grader and saved as the same model file, so that the page and `oxo-train` given the
 * same settings and seed make the same bytes (tests/e2e_web.sh compares them). What oxo-train
 * prints (its report, --json, its errors) goes to standard output and error, which the worker
 * collects. No threads (a browser worker is one), no files: the solved table comes in as bytes
 * and the model goes out as bytes.
 */
#include "learn.h"

#include "agent.h"
#include "args.h"
#include "clock.h"
#include "export.h"
#include "grade.h"
#include "run.h"
#include "train.h"

#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* oxo-train's stop flag (run.c's, which the page does not link): never set here. */
volatile int stop_signal;

static struct {
    uint8_t *table; /* the solved table's bytes, as the page fetched them */
    size_t table_len;
    oxo_player *truth;
    run_opts o;
    train_args a;
    oxo_trainer *t;
    oxo_player *learned; /* the trainer's values as a player (hints, the computer's moves) */
    oxo_grade g;
    int graded;
    int stopped;    /* the person stopped the run before its end */
    double seconds; /* spent training, for the report's rates */
    uint8_t *out;   /* the last bytes made for the page (a model, a JSON table) */
    size_t out_len;
    float scores[OXO_MAX_MOVES];
} L;

WEB void *learn_alloc(size_t n)
{
    return malloc(n);
}

WEB void learn_free(void *p)
{
    free(p);
}

static void close_run(void)
{
    oxo_player_close(L.learned);
    oxo_trainer_free(L.t);
    L.learned = NULL;
    L.t = NULL;
    L.graded = 0;
    L.stopped = 0;
    L.seconds = 0;
}

/* The run becomes t, with the player over its values (hints, the computer's moves): 0, or -1
 * after a message, the run closed. */
static int take_run(oxo_trainer *t)
{
    close_run();
    L.t = t;
    if (!(L.learned = oxo_trainer_player(t))) {
        fprintf(stderr, "oxo-train: out of memory\n");
        close_run();
        return -1;
    }
    return 0;
}

/* The run's values graded as oxo-train grades at a run's end (what a model saved now carries):
 * 0, or -1 after a message. */
static int grade_run(void)
{
    if (oxo_trainer_grade_mean(L.t, 1, &L.g)) {
        fprintf(stderr, "oxo-train: out of memory (grading)\n");
        return -1;
    }
    L.graded = 1;
    return 0;
}

static int fail(const oxo_error *err)
{
    fprintf(stderr, "oxo-train: %s\n", err->msg);
    return 1;
}

/* The solved table of the game the page plays (its bytes, copied): the truth every run is graded
 * against. 0, or 1 after a message. */
WEB int learn_table(const uint8_t *data, size_t len)
{
    close_run();
    oxo_player_close(L.truth);
    free(L.table);
    L.truth = NULL;
    L.table = malloc(len ? len : 1);
    if (!L.table) {
        fprintf(stderr, "oxo-train: out of memory (the table's %zu bytes)\n", len);
        return 1;
    }
    memcpy(L.table, data, len);
    L.table_len = len;
    oxo_error err;
    L.truth = oxo_player_open_memory(L.table, len, &err);
    if (L.truth && oxo_player_takes(L.truth, "the page's table", OXO_TAKE_TABLE, &err)) {
        oxo_player_close(L.truth);
        L.truth = NULL;
    }
    return L.truth ? 0 : fail(&err);
}

static int refuse(const char *what)
{
    fprintf(stderr, "oxo-train: %s: not in the page (the command line has it)\n", what);
    return 2;
}

/* A run set up by an oxo-train command line (argv[0] "oxo-train"), over the table given before:
 * 0, else oxo-train's exit status after its message (2 for a bad option). The options that name
 * files other than the output, or ask for more than one run, are the command line's only. */
WEB int learn_setup(int argc, char **argv)
{
    close_run();
    if (!L.truth) {
        fprintf(stderr, "oxo-train: no table (learn_table first)\n");
        return 1;
    }
    train_args_defaults(&L.a);
    optind = 0; /* getopt starts over (musl and glibc both take 0 as "reset") */
    int rc = parse_args(argc, argv, &L.a);
    if (rc >= 0)
        return rc;
    if (L.a.table || L.a.resume || L.a.judge_path || L.a.tuple_file)
        return refuse("--table, --resume, --judge and --tuple-file");
    if (L.a.naxes || L.a.strip || L.a.curve || L.a.plot)
        return refuse("--sweep, --strip, --curve and --plot");
    if (L.a.algo == OXO_ALGO_NTUPLE)
        return refuse("--algo ntuple");
    memset(&L.o, 0, sizeof L.o);
    if ((rc = configure(&L.a, &L.o)))
        return rc;
    const oxo_game *g = oxo_player_game(L.truth);
    if (L.a.spec && strcmp(L.a.spec, g->spec)) {
        fprintf(stderr, "oxo-train: --game %s: the page's table is of %s\n", L.a.spec, g->spec);
        return 2;
    }
    L.o.game = g;
    L.o.progress = 0;
    oxo_error err;
    oxo_trainer *t = oxo_trainer_new_on(&L.o.cfg, g, L.truth, &err);
    if (!t)
        return fail(&err);
    return take_run(t) ? 1 : 0;
}

WEB double learn_episodes(void)
{
    return L.t ? (double)oxo_trainer_episodes(L.t) : 0;
}

WEB double learn_goal(void)
{
    return L.t ? (double)L.o.episodes : 0;
}

WEB double learn_epsilon(void)
{
    return L.t ? oxo_schedule_at(&oxo_trainer_config(L.t)->epsilon, oxo_trainer_episodes(L.t)) : 0;
}

/* Trains on for about `episodes` more (to the run's end at most; on round ends with several
 * workers, as oxo-train's progress does), then, at the end, grades as oxo-train does at its end.
 * The episodes done so far; -1 when grading ran out of memory. */
WEB double learn_run(double episodes)
{
    if (!L.t)
        return -1;
    const uint64_t k = oxo_trainer_episodes(L.t), goal = L.o.episodes;
    const uint32_t W = oxo_trainer_config(L.t)->workers, sync = oxo_trainer_config(L.t)->sync;
    uint64_t next = k + (episodes < 1 ? 1 : (uint64_t)episodes);
    if (W > 1)
        next = (next + sync - 1) / sync * sync;
    next = next < goal ? next : goal;
    const double t0 = oxo_seconds();
    oxo_trainer_run(L.t, next);
    L.seconds += oxo_seconds() - t0;
    if (next == goal && !L.graded) {
        oxo_trainer_average_finish(L.t);
        if (grade_run())
            return -1;
    }
    return (double)oxo_trainer_episodes(L.t);
}

/* Stops the run where it is, as oxo-train stops on a signal: its end becomes the episodes done,
 * graded as at an end (the model is then that of --episodes N, N the episodes done, with one
 * worker). The episodes done; -1 for no run or when grading ran out of memory. */
WEB double learn_stop(void)
{
    if (!L.t)
        return -1;
    if (!L.graded) {
        L.o.episodes = oxo_trainer_episodes(L.t);
        L.stopped = 1;
        if (grade_run())
            return -1;
    }
    return (double)oxo_trainer_episodes(L.t);
}

/* The model file of the run (oxo-train's bytes), into learn_bytes(); its length, 0 on failure. */
WEB size_t learn_model(void)
{
    if (!L.t || !L.graded)
        return 0;
    free(L.out);
    L.out = NULL;
    L.out_len = 0;
    oxo_model *m = oxo_trainer_model(L.t, &L.g, NULL);
    oxo_error err;
    if (!m)
        fprintf(stderr, "oxo-train: out of memory (the model)\n");
    else if (oxo_model_encode(m, &L.out, &L.out_len, &err))
        fail(&err);
    oxo_model_free(m);
    return L.out_len;
}

WEB const uint8_t *learn_bytes(void)
{
    return L.out;
}

/* oxo-train's report of the finished run on standard output (--json as its option says), with
 * the model named as the page downloads it and its hash (of the values and replay state, as the
 * model file's). */
WEB int learn_report(int json)
{
    if (!L.t || !L.graded)
        return 1;
    oxo_model *m = oxo_trainer_model(L.t, &L.g, NULL);
    if (!m)
        return 1;
    run_result r;
    memset(&r, 0, sizeof r);
    r.cfg = *oxo_trainer_config(L.t);
    r.grade = L.g;
    r.episodes = oxo_trainer_episodes(L.t);
    r.episodes_to_perfect = oxo_grade_perfect(&L.g) && !L.stopped ? r.episodes : UINT64_MAX;
    r.stopped = L.stopped;
    r.eps_per_sec = L.seconds > 0 ? (double)r.episodes / L.seconds : 0;
    r.moves_per_sec = L.seconds > 0 ? (double)oxo_trainer_moves(L.t) / L.seconds : 0;
    oxo_model_hash(m, r.hash);
    snprintf(r.output, sizeof r.output, "%s", L.o.output);
    r.ok = 1;
    oxo_model_free(m);
    print_result(&L.o, &r, json, NULL);
    fflush(stdout);
    return 0;
}

/* The position after the moves given (numbered from 0), or -1 when one is not legal there. */
static int replay(const uint8_t *moves, int n, oxo_pos *p)
{
    const oxo_game *g = oxo_player_game(L.truth);
    *p = oxo_start(g);
    for (int i = 0; i < n; i++) {
        if (oxo_status_of(g, *p) != OXO_ONGOING || !(oxo_legal(g, *p) >> moves[i] & 1))
            return -1;
        *p = oxo_play(g, *p, moves[i]);
    }
    return 0;
}

/* The learned value of each move after the moves given, into learn_score(m) (NaN where m is not
 * legal): the Q value (q) or the move's worth by the position values (td), for the side to move.
 * The number of legal moves, -1 for no run or a position the moves do not reach. */
WEB int learn_scores(const uint8_t *moves, int n)
{
    oxo_pos p;
    if (!L.learned || replay(moves, n, &p))
        return -1;
    for (int m = 0; m < OXO_MAX_MOVES; m++)
        L.scores[m] = NAN;
    oxo_move_info mi[OXO_MAX_MOVES];
    int k = oxo_player_moves(L.learned, p, mi);
    for (int i = 0; i < k; i++)
        L.scores[mi[i].move] = (float)mi[i].score;
    return k;
}

WEB double learn_score(int move)
{
    return move >= 0 && move < OXO_MAX_MOVES ? L.scores[move] : NAN;
}

/* The computer's move by the learned values after the moves given, at a level from 1 to 10 as
 * oxo-play's (10: a best one, ties drawn; L: a random move with probability (10 - L) / 9), drawn
 * from a stream keyed by seed; -1 when there is none. */
WEB int learn_pick(const uint8_t *moves, int n, int level, double seed)
{
    oxo_pos p;
    if (!L.learned || replay(moves, n, &p) || level < 1 || level > 10)
        return -1;
    uint64_t rng = (uint64_t)seed;
    return oxo_player_pick(L.learned, p, level, &rng);
}

/* Learns from a game the person played against the learned player (the moves from the start,
 * numbered from 0, to its end), as an episode of the run's own (oxo_trainer_learn_game), then
 * grades the values as they now are, as a model saved now would carry. 0, or 1 after a message. */
WEB int learn_played(const uint8_t *moves, int n)
{
    oxo_pos line[OXO_MAX_MOVES + 1], p;
    oxo_error err;
    if (!L.t || n < 0 || n > OXO_MAX_MOVES || replay(moves, n, &p)) {
        fprintf(stderr, "oxo-train: no run, or not a game of it\n");
        return 1;
    }
    for (int i = 0; i <= n; i++)
        replay(moves, i, &line[i]);
    if (oxo_trainer_learn_game(L.t, line, n + 1, &err))
        return fail(&err);
    return grade_run() ? 1 : 0;
}

/* The learned table in the browser app's JSON form (oxo-export -f qtable), into learn_bytes();
 * its length, 0 when there is none (tic-tac-toe only) or memory ran out. */
WEB size_t learn_json(void)
{
    if (!L.learned || strcmp(oxo_player_game(L.truth)->spec, "tictactoe"))
        return 0;
    free(L.out);
    L.out = NULL;
    L.out_len = 0;
    char *text = NULL;
    size_t len = 0, count = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 0;
    int bad = oxo_export_json(f, L.learned, 1, &count);
    if (fclose(f) || bad) {
        free(text);
        return 0;
    }
    L.out = (uint8_t *)text;
    L.out_len = len;
    return len;
}

/* The values of the app's JSON Q-table (its text) into the run's: q takes each state's values of
 * its free cells, td each position the value of its best free cell (what a position is worth to
 * the side to move); states the file lacks keep theirs. The run goes on from them (its
 * episodes, settings and replay kept), graded as it stands. 0, or 1 after a message naming what
 * was refused. */
WEB int learn_import(const char *text, size_t len)
{
    if (!L.t || strcmp(oxo_player_game(L.truth)->spec, "tictactoe")) {
        fprintf(stderr, "oxo-train: a Q-table of the app is tic-tac-toe's: set up a tic-tac-toe "
                        "run first\n");
        return 1;
    }
    float *q = calloc((size_t)OXO_QTABLE_STATES * 9, sizeof *q);
    uint8_t *have = calloc(OXO_QTABLE_STATES, 1);
    oxo_model *m = oxo_trainer_model(L.t, &L.g, NULL);
    oxo_error err;
    int rc = 1;
    if (!q || !have || !m) {
        fprintf(stderr, "oxo-train: out of memory (a Q-table)\n");
        goto done;
    }
    if (oxo_qtable_parse(text, len, "the imported table", q, have, &err)) {
        fail(&err);
        goto done;
    }
    const oxo_space *s = oxo_trainer_space(L.t);
    const int tabular_q = oxo_trainer_config(L.t)->algo == OXO_ALGO_Q;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t x, o;
        oxo_cells(s->game, s->pos[i], &x, &o);
        const uint32_t code = oxo_qtable_code(x, o);
        if (!have[code] || s->first[i] == s->first[i + 1])
            continue;
        const float *row = q + (size_t)code * 9;
        float best = -INFINITY;
        for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++) {
            if (tabular_q)
                m->values[e] = row[s->emove[e]];
            best = row[s->emove[e]] > best ? row[s->emove[e]] : best;
        }
        if (!tabular_q)
            m->values[i] = best;
    }
    oxo_trainer *t = oxo_trainer_resume_on(m, oxo_player_game(L.truth), L.truth, NULL, &err);
    if (!t) {
        fail(&err);
        goto done;
    }
    const uint64_t goal = L.o.episodes;
    /* graded as it stands, so that it can be saved as a model */
    if (take_run(t) || grade_run())
        goto done;
    L.o.episodes = goal > oxo_trainer_episodes(t) ? goal : oxo_trainer_episodes(t);
    rc = 0;
done:
    oxo_model_free(m);
    free(q);
    free(have);
    return rc;
}
