/*
 * oxo-train: trains a model by self-play, grades it against the solved table as it goes, writes
 * versioned model files; --sweep runs a grid of settings as independent runs.
 */
#include "agent.h"
#include "cli.h"
#include "clock.h"
#include "settings.h"
#include "train.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "oxo-train";

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: oxo-train [OPTION]...\n"
            "Learn a game by self-play with tabular Q-learning, TD(lambda) or an n-tuple network,\n"
            "grade the model against the solved table (or a judged set) and write it.\n"
            "\n"
            "Run:\n"
            "  -a, --algo q|td|ntuple     learner: tabular Q-learning, tabular TD(lambda), or a TD(lambda)\n"
            "                             n-tuple network for boards too large for a table (default: q)\n"
            "  -e, --episodes N           total episodes over all workers; with --resume, the total\n"
            "                             to reach (default: 20000)\n"
            "  -s, --seed N               seed (default: 1)\n"
            "  -o, --output FILE          model to write (default: q.oxm or td.oxm; a file, not -)\n"
            "  -w, --workers N            self-play workers, run on OpenMP threads; the model depends\n"
            "                             on N, never on the thread count (default: 1)\n"
            "      --sync N               episodes per synchronisation round of the workers (default:\n"
            "                             1000; with several workers, for ntuple a 100th of the run\n"
            "                             up to 2000, for q and td a 50th of the run from 1000 to\n"
            "                             20000, either dividing --eval-every and --checkpoint-every)\n"
            "  -g, --game SPEC            tictactoe (default), mnk:W,H,K or connect4:W,H: any game\n"
            "                             small enough to enumerate (tabular learners)\n"
            "  -t, --table FILE           the solved table of the game, for grading and the table\n"
            "                             opponent (default: the game's, e.g. the shipped tictactoe.oxt)\n"
            "      --resume FILE          continue from a saved model with its settings\n"
            "      --checkpoint-every K   save the model every K episodes (default: 0, never)\n"
            "      --strip FILE           write FILE without its replay rings to --output, for shipping\n"
            "                             (it plays the same; it can no longer be resumed)\n"
            "\n"
            "Learning (defaults: the values of a plain run, which learns perfect play):\n");
    oxo_settings_help(out);
    fprintf(out,
            "\n"
            "n-tuple networks (--algo ntuple; self-play; defaults: GBG's Connect-4 agent):\n"
            "      --tuples N             tuples, made by random walks over neighbouring cells drawn\n"
            "                             from the seed (default: 140 with gravity, as Connect-4,\n"
            "                             else 70)\n"
            "      --tuple-len L          cells per tuple, 1 to 12 (default: 8); a network holds at\n"
            "                             most 16777216 weights (with gravity, of the fillings a\n"
            "                             board can have: 140 tuples of 8 cells on 7x6 take 3.3 M)\n"
            "      --tuple-lines F        the share of the walks, 0 to 1, that start from a whole line\n"
            "                             of the game's k cells in a row, the four directions in turn,\n"
            "                             instead of one cell; 0: GBG's walks (default: 1)\n"
            "      --tuple-file FILE      the tuples instead: one a line, its cells as numbers\n"
            "                             row * columns + column, row 0 on top\n"
            "      --horizon H            afterstates whose traces are kept (default: while lambda^j is\n"
            "                             10%% or more, 4 for lambda 0.5)\n"
            "      --weight-sets S        2: a set of weights for each player, 1: one set that both\n"
            "                             players' afterstates read (default: 2 with gravity, else 1)\n"
            "      --exploring-depth D    an exploring start (--exploring-starts) plays fewer than D\n"
            "                             random moves, 0: any number up to the end (default: 12 on\n"
            "                             Connect-4, else 0)\n"
            "      --td-target T          what an afterstate learns toward: own, the same player's next\n"
            "                             afterstate (each weight set from its own values), or next,\n"
            "                             the opponent's, negated (default: own with gravity, else next)\n"
            "      --average F            save the mean of the network's weights over the last F of the\n"
            "                             run, 0 to 1, taken every hundredth of the run; 0: the last\n"
            "                             weights (default: 0.3)\n"
            "      --defend, --no-defend  self-play's second player, valuing every move below -0.5,\n"
            "                             plays the one after which the first player's best reply is\n"
            "                             worth least (two plies over the network), as a perfect\n"
            "                             player resists; 1.2x-1.4x the time (default: on with\n"
            "                             gravity, as Connect-4, else off)\n"
            "      --search-games N       then N games of self-play led by puct over the network, the\n"
            "                             move the search plays in each position learning toward the\n"
            "                             search's value of it (30%% of the moves of the first 12 plies\n"
            "                             drawn at random); with --resume at the model's own\n"
            "                             episodes, the phase alone (default: 0, none)\n"
            "      --search-iterations K  the search's iterations a move (default: 200)\n"
            "      --search-alpha A       the phase's learning rate (default: the run's last alpha)\n"
            "      --judge FILE           the judged set to grade on, from oxo-gen --judge-set (default:\n"
            "                             2,000 positions drawn from the game's table, else the game's\n"
            "                             shipped set, e.g. connect4-7-6.judge)\n"
            "      --perfect-games N      games a colour against the perfect player at each grading,\n"
            "                             where there is one (the table, or the solver with the game's\n"
            "                             opening book); 0: none (default: 200)\n"
            "      with ntuple, --alpha defaults to 0.004 decaying exponentially to 0.002, --epsilon to\n"
            "      0.1 falling linearly to 0, both over --episodes; --gamma 1; on Connect-4\n"
            "      --exploring-starts to 0.3 (a share of games begun after a few random moves)\n"
            "\n"
            "Grading and output:\n"
            "      --eval-every K         grade every K episodes (default: 0, only at the end)\n"
            "      --curve FILE.csv       write the learning curve; with --average, a point from the\n"
            "                             averaging's start grades the mean of the weights so far\n"
            "      --plot FILE            draw the curve (.png or .svg) with gnuplot, if installed\n"
            "      --sweep KEY=V1,V2,...  run every combination as an independent run (repeatable);\n"
            "                             keys: alpha gamma lambda epsilon epsilon-end epsilon-length\n"
            "                             init replay replay-ratio exploring-starts seed, and for\n"
            "                             ntuple average and tuple-lines (0 to 1) and defend (0 or 1);\n"
            "                             models go to OUTPUT-KEYVALUE...\n"
            "      --json                 print a JSON summary (one object; an array with --sweep)\n"
            "  -q, --quiet                no progress line (it is shown only on a terminal anyway)\n"
            "  -h, --help                 show this help and exit\n"
            "  -V, --version              show the version and exit\n"
            "\n"
            "Exit status: 0 ok, 1 failure, 2 bad usage.\n");
}

typedef struct run_opts {
    oxo_train_config cfg;
    const oxo_game *game;    /* the game of the run (the table's when there is one) */
    const oxo_judge *judge;  /* ntuple: the judged set it is graded on */
    uint64_t episodes, eval_every, checkpoint_every;
    uint32_t search_games, search_iterations; /* --search-games: the phase after the run (0: none) */
    double search_alpha;                      /* its step (0: the run's last alpha) */
    const char *output, *curve, *plot, *resume;
    int quiet, json, progress;
    int implied_eval; /* grade at 100 points when --curve, --plot or --sweep needs a curve */
} run_opts;

/* Set by SIGINT, SIGTERM or SIGHUP: runs stop at the next round and save what they learned. */
static volatile int stop_signal;

/* A curve kept in memory and saved like a model (atomically), at checkpoints and at the end: a
 * FIFO or a device given as --curve is written in place, never waited on or replaced. */
typedef struct curve_buf {
    char *text;
    size_t len, cap;
    int failed;
} curve_buf;

static void curve_add(curve_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void curve_add(curve_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->failed || n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? 2 * b->cap : 4096) + (size_t)n;
        char *t = realloc(b->text, cap);
        if (!t) {
            b->failed = 1;
            return;
        }
        b->text = t;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

typedef struct run_result {
    oxo_train_config cfg; /* the run's settings: the model's own when resumed */
    oxo_grade grade;
    uint64_t episodes, episodes_to_perfect; /* UINT64_MAX: not reached */
    double eps_per_sec, moves_per_sec;
    char hash[17];
    char output[1024];
    int ok;
    int stopped; /* by a signal, before the end */
    uint32_t averaged; /* weights averaged into the saved network (--average) */
    uint32_t searched; /* games of the search phase the saved network went through (--search-games) */
    double search_time, search_alpha; /* its seconds and its step */
    char err[600];
} run_result;

static int save(oxo_trainer *t, const oxo_grade *g, const char *parent, const char *path, char *hash,
                char *err, size_t cap)
{
    oxo_model *m = oxo_trainer_model(t, g, parent);
    oxo_error e;
    if (!m) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    int rc = oxo_model_write(path, m, &e);
    if (rc)
        snprintf(err, cap, "%s", e.msg);
    else
        memcpy(hash, m->hash, 17);
    oxo_model_free(m);
    return rc ? -1 : 0;
}

/* The search phase's progress line (a terminal only): games, their rate and what is left. */
static void search_progress(void *ctx, uint32_t done, uint32_t games)
{
    const double el = oxo_seconds() - *(const double *)ctx;
    fprintf(stderr, "\r%s: search phase %u/%u games, %.0f games/s, ETA %.0f s   ", prog, done, games,
            el > 0 ? done / el : 0, done ? el * (games - done) / done : 0);
}

/* The search phase at the end of the run (--search-games): 0 done, else the run stops there with
 * the network as the TD run left it (stopped by a signal: r->stopped; out of memory: r->err). */
static int search_phase(oxo_trainer *t, const run_opts *o, run_result *r)
{
    double t0 = oxo_seconds();
    oxo_trainer_set_search_progress(t, o->progress ? search_progress : NULL, &t0);
    const int rc = oxo_trainer_search(t, o->search_games, o->search_iterations, o->search_alpha);
    oxo_trainer_set_search_progress(t, NULL, NULL);
    r->search_time = oxo_seconds() - t0;
    if (rc < 0)
        snprintf(r->err, sizeof r->err, "out of memory in the search phase");
    r->stopped = rc > 0;
    r->searched = rc ? 0 : o->search_games;
    oxo_trainer_searched(t, NULL, &r->search_alpha);
    return rc;
}

/* One point of the curve; `averaged`: how many snapshots of the weights the graded mean holds (0:
 * the weights of the moment). */
static void curve_row(curve_buf *f, const oxo_trainer *t, const oxo_grade *g, double eps, uint32_t averaged)
{
    const oxo_train_config *c = oxo_trainer_config(t);
    uint64_t k = oxo_trainer_episodes(t);
    curve_add(f, "%llu,%.6f,%.6f,%.6f,%.6f,%llu,%llu,%u,%u,%u,%u,%u,%u,%.0f,%u,%u,%u,%u,%u,%u\n", (unsigned long long)k,
            oxo_schedule_at(&c->epsilon, k), oxo_schedule_at(&c->alpha, k), g->accuracy,
            g->accuracy_distance, (unsigned long long)g->losses_as_x,
            (unsigned long long)g->losses_as_o, g->random_as_x[0], g->random_as_x[1],
            g->random_as_x[2], g->random_as_o[0], g->random_as_o[1], g->random_as_o[2], eps,
            g->perfect_games, g->perfect_as_x[0], g->perfect_as_x[1], g->perfect_as_o[0], g->perfect_as_o[1],
            averaged);
}

/* The next multiple of step after k, when it comes before limit (step 0: no stops). */
static uint64_t stop_before(uint64_t k, uint64_t step, uint64_t limit)
{
    if (!step)
        return limit;
    uint64_t next = (k / step + 1) * step;
    return next < limit ? next : limit;
}

static int save_curve(const char *path, const curve_buf *b, char *err, size_t cap)
{
    oxo_error e;
    if (b->failed) {
        snprintf(err, cap, "out of memory keeping the curve");
        return -1;
    }
    if (oxo_atomic_write(path, b->text, b->len, &e)) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    return 0;
}

/* Grading points when none were asked for but a curve is wanted: 100 along the run, on round
 * ends when rounds matter. */
static uint64_t implied_eval_every(uint64_t episodes, const oxo_train_config *c)
{
    uint64_t k = (episodes + 99) / 100;
    if (c->workers > 1)
        k = (k + c->sync - 1) / c->sync * c->sync;
    return k ? k : 1;
}

/* One training run from start (or resume) to the end: the heart of the program. */
static void run(const run_opts *o, const oxo_player *truth, run_result *r, curve_buf *curve)
{
    oxo_trainer *t;
    char parent[17] = "";
    memset(r, 0, sizeof *r);
    r->cfg = o->cfg;
    r->episodes_to_perfect = UINT64_MAX;
    snprintf(r->output, sizeof r->output, "%s", o->output);
    if (o->resume) {
        oxo_model *m;
        oxo_error e;
        if (oxo_model_read(o->resume, &m, &e)) {
            snprintf(r->err, sizeof r->err, "%s: %s", o->resume, e.msg);
            return;
        }
        t = oxo_trainer_resume_on(m, o->game, truth, r->err, sizeof r->err);
        memcpy(parent, m->hash, 17);
        if (t && m->workers > 1 && m->episodes % m->sync)
            fprintf(stderr, "%s: warning: %s stopped inside a round of %u episodes; the continued run "
                    "will not equal an uninterrupted one\n", prog, o->resume, m->sync);
        if (t && m->episodes > o->episodes) {
            snprintf(r->err, sizeof r->err, "%s already has %llu episodes, more than --episodes %llu",
                     o->resume, (unsigned long long)m->episodes, (unsigned long long)o->episodes);
            oxo_trainer_free(t);
            t = NULL;
        }
        oxo_model_free(m);
    } else {
        t = oxo_trainer_new_on(&o->cfg, o->game, truth, r->err, sizeof r->err);
    }
    if (!t)
        return;
    oxo_trainer_set_judge(t, o->judge);
    const oxo_train_config *c = oxo_trainer_config(t);
    r->cfg = *c;
    /* A model that could never be saved is refused before any work, not after it. */
    uint64_t bound = oxo_trainer_model_bound(t, o->episodes);
    if (bound > OXO_MAX_BODY) {
        const int avg = c->avg_every > 0; /* a checkpoint holds the mean so far beside the weights */
        snprintf(r->err, sizeof r->err, "the model would take up to %llu MB (the values%s, %u replay rings "
                 "of %u records), more than the %u MB a model file may hold; lower --replay or --workers%s",
                 (unsigned long long)(bound >> 20), avg ? " and their mean so far" : "", c->workers,
                 c->replay_capacity, OXO_MAX_BODY >> 20, avg ? ", or --average 0" : "");
        oxo_trainer_free(t);
        return;
    }
    oxo_trainer_set_stop(t, &stop_signal);
    uint64_t eval_every = o->eval_every;
    if (!eval_every && o->implied_eval)
        eval_every = implied_eval_every(o->episodes, c);
    if (curve)
        curve_add(curve, "episode,epsilon,alpha,accuracy,accuracy_distance,exhaustive_losses_as_x,"
                  "exhaustive_losses_as_o,random_as_x_wins,random_as_x_draws,random_as_x_losses,"
                  "random_as_o_wins,random_as_o_draws,random_as_o_losses,episodes_per_second,perfect_games,"
                  "perfect_as_x_wins,perfect_as_x_draws,perfect_as_o_wins,perfect_as_o_draws,averaged\n");
    /* Progress and resume chunks must fall on round boundaries when rounds matter. */
    const uint64_t unit = c->workers > 1 ? c->sync : 1000;
    uint64_t chunk = unit * ((10000 + unit - 1) / unit); /* then about a second's worth (below) */
    uint64_t start_ep = oxo_trainer_episodes(t);
    double train_time = 0, last_eps = 0;
    oxo_grade g = {0};
    int graded_at_end = 0, graded = 0;
    double grade_secs = -1; /* how long a full grading took, for the ETA of the one at the end */
    /* A model resumed at its end (--episodes its own) with --search-games: the phase alone. */
    if (o->search_games && oxo_trainer_episodes(t) >= o->episodes) {
        uint32_t it, done = oxo_trainer_searched(t, &it, NULL);
        if (done)
            snprintf(r->err, sizeof r->err, "%s went through a search phase already (%u games of puct:%u); "
                     "resume it to more episodes first", o->resume, done, it);
        else
            search_phase(t, o, r);
    }
    while (!r->err[0] && oxo_trainer_episodes(t) < o->episodes && !stop_signal) {
        uint64_t k = oxo_trainer_episodes(t), next = o->episodes;
        next = stop_before(k, eval_every, next);
        next = stop_before(k, o->checkpoint_every, next);
        next = stop_before(k, o->progress ? chunk : 0, next);
        double t0 = oxo_seconds();
        oxo_trainer_run(t, next);
        double dt = oxo_seconds() - t0;
        train_time += dt;
        if (oxo_trainer_episodes(t) != next) /* stopped by a signal at a round boundary */
            break;
        if (next == o->episodes) { /* the network becomes the mean of the weights averaged (--average) */
            r->averaged = oxo_trainer_average_finish(t);
            if (o->search_games && search_phase(t, o, r))
                break;
        }
        last_eps = dt > 0 ? (double)(next - k) / dt : 0;
        int at_eval = eval_every && next % eval_every == 0;
        int at_ckpt = o->checkpoint_every && next % o->checkpoint_every == 0 && next < o->episodes;
        /* A point of the curve, a checkpoint and the end grade the network the run is building,
         * the one a file saved there plays: once the averaging (--average) has begun, the mean of
         * the weights so far, as the run saves the mean at its end (the weights of the moment
         * move around it: train/RECORD.md, the n-tuple networks). */
        const uint32_t mean = oxo_trainer_averaged(t);
        if (at_eval || at_ckpt || next == o->episodes) {
            /* Points nobody asked for (a sweep's, or --curve's without --eval-every) skip the
             * solver's games: a hundred of them would cost a Connect-4 run minutes each. */
            const int light = !o->eval_every && next < o->episodes && !at_ckpt;
            double g0 = oxo_seconds();
            if (oxo_trainer_grade_mean(t, !light, &g)) {
                snprintf(r->err, sizeof r->err, "out of memory while grading");
                break;
            }
            if (!light)
                grade_secs = oxo_seconds() - g0;
            graded = 1;
            graded_at_end = next == o->episodes;
        }
        if (at_eval) {
            if (curve)
                curve_row(curve, t, &g, last_eps, next == o->episodes ? r->averaged : mean);
            if (oxo_grade_perfect(&g) && r->episodes_to_perfect == UINT64_MAX)
                r->episodes_to_perfect = next;
        }
        if (at_ckpt && save(t, &g, parent[0] ? parent : NULL, o->output, parent, r->err, sizeof r->err))
            break;
        if (at_ckpt && o->curve && save_curve(o->curve, curve, r->err, sizeof r->err))
            break;
        if (o->progress) {
            /* The ETA of the whole run: the training left at the rate so far, and the grading at
             * the end (as long as the last full one took; said when none has been timed yet). A
             * grade is shown once there is one. */
            double left = next > start_ep && next < o->episodes
                ? train_time * (double)(o->episodes - next) / (double)(next - start_ep) : 0;
            int grade_left = next < o->episodes;
            char acc[48] = "";
            if (graded)
                snprintf(acc, sizeof acc, ", %s %.2f%%", g.judged ? "value kept" : "accuracy", 100 * g.accuracy);
            fprintf(stderr, "\r%s: %llu/%llu episodes, %.0f episodes/s, epsilon %.3f%s, ETA %.0f s%s   ", prog,
                    (unsigned long long)next, (unsigned long long)o->episodes, last_eps,
                    oxo_schedule_at(&c->epsilon, next), acc,
                    left + (grade_left && grade_secs > 0 ? grade_secs : 0),
                    grade_left && grade_secs < 0 ? " and the grading" : "");
            /* At least a line a second: the next chunk is about a second of training at the rate
             * seen (50,000 games were 3 s on 7x6), on round boundaries. */
            if (last_eps > 0) {
                uint64_t want = (uint64_t)last_eps;
                chunk = want < unit ? unit : want / unit * unit;
            }
        }
    }
    if (o->progress)
        fprintf(stderr, "\n");
    r->stopped = r->stopped || (stop_signal && oxo_trainer_episodes(t) < o->episodes);
    if (!r->err[0] && !graded_at_end && oxo_trainer_grade_mean(t, 1, &g)) /* stopped: what it saves plays */
        snprintf(r->err, sizeof r->err, "out of memory while grading");
    if (!r->err[0] && !eval_every && oxo_grade_perfect(&g) && r->episodes_to_perfect == UINT64_MAX &&
        oxo_trainer_episodes(t) > start_ep && !r->stopped)
        r->episodes_to_perfect = oxo_trainer_episodes(t); /* graded only at the end: an upper bound */
    if (!r->err[0] && save(t, &g, parent[0] ? parent : NULL, o->output, r->hash, r->err, sizeof r->err) == 0)
        r->ok = 1;
    if (r->ok && o->curve && save_curve(o->curve, curve, r->err, sizeof r->err))
        r->ok = 0;
    r->grade = g;
    r->episodes = oxo_trainer_episodes(t);
    r->eps_per_sec = train_time > 0 ? (double)(r->episodes - start_ep) / train_time : 0;
    r->moves_per_sec = train_time > 0 ? (double)oxo_trainer_moves(t) / train_time : 0;
    oxo_trainer_free(t);
}

/* A path inside a single-quoted gnuplot string, where a quote is written twice. */
static void gp_quoted(FILE *gp, const char *path)
{
    fputc('\'', gp);
    for (; *path; path++) {
        if (*path == '\'')
            fputc('\'', gp);
        fputc(*path, gp);
    }
    fputc('\'', gp);
}

static int temp_file(char *path, size_t cap, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, cap, "%s/oxo-plot.XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
    return mkstemps(path, (int)strlen(suffix));
}

/* Draws the curve with gnuplot into a temporary file, then saves it at `out` the way models are
 * saved (atomically; a FIFO or a device written in place). The kind (png or svg) was checked
 * when the options were read. A plot that cannot be drawn is said on stderr, not an error of
 * the run: the model and the curve are saved by then. */
static void plot(const curve_buf *curve, const char *out, const char *algo)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "%s: plot skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n", prog);
        return;
    }
    const char *dot = strrchr(out, '.');
    int svg = dot && strcmp(dot, ".svg") == 0;
    char csv[4200], img[4200];
    int cfd = temp_file(csv, sizeof csv, ".csv"), ifd = temp_file(img, sizeof img, svg ? ".svg" : ".png");
    FILE *gp = NULL;
    if (cfd < 0 || ifd < 0 || curve->failed ||
        write(cfd, curve->text, curve->len) != (ssize_t)curve->len || !(gp = popen("gnuplot", "w"))) {
        fprintf(stderr, "%s: plot skipped: cannot prepare the files for gnuplot\n", prog);
    } else {
        fprintf(gp, "set terminal %s size 900,540\nset output ", svg ? "svg" : "png");
        gp_quoted(gp, img);
        fprintf(gp, "\nset datafile separator ','\nset key bottom right\nset xlabel 'episodes'\n"
                "set ylabel 'share'\nset yrange [0:1.05]\n"
                "set title 'oxo-train --algo %s: learning curve'\nplot ", algo);
        gp_quoted(gp, csv);
        fprintf(gp, " using 1:4 skip 1 with lines lw 2 title 'accuracy', "
                "'' using 1:5 skip 1 with lines lw 2 title 'accuracy (distance)', "
                "'' using 1:2 skip 1 with lines dt 2 title 'epsilon'\n");
        uint8_t *data;
        size_t len;
        oxo_error e;
        if (pclose(gp) != 0)
            fprintf(stderr, "%s: gnuplot failed to draw %s\n", prog, out);
        else if (oxo_read_file(img, OXO_MAX_FILE, &data, &len, &e) == 0) {
            if (oxo_atomic_write(out, data, len, &e))
                fprintf(stderr, "%s: %s\n", prog, e.msg);
            free(data);
        } else
            fprintf(stderr, "%s: %s\n", prog, e.msg);
    }
    if (cfd >= 0) {
        close(cfd);
        unlink(csv);
    }
    if (ifd >= 0) {
        close(ifd);
        unlink(img);
    }
}

static void print_result(const run_opts *o, const run_result *r, int json, const char *label)
{
    const oxo_train_config *c = &r->cfg;
    const oxo_grade *g = &r->grade;
    if (json) {
        printf("{\"algo\":\"%s\",", oxo_algo_name(c->algo));
        if (label) {
            printf("\"settings\":");
            oxo_json_str(stdout, label);
            printf(",");
        }
        printf("\"episodes\":%llu,\"workers\":%u,\"seed\":%llu,\"accuracy\":%.6f,"
               "\"accuracy_distance\":%.6f,\"exhaustive_losses_as_x\":%llu,\"exhaustive_losses_as_o\":%llu,"
               "\"random_as_x\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},"
               "\"random_as_o\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},\"episodes_to_perfect\":",
               (unsigned long long)r->episodes, c->workers, (unsigned long long)c->seed, g->accuracy,
               g->accuracy_distance, (unsigned long long)g->losses_as_x,
               (unsigned long long)g->losses_as_o, g->random_as_x[0], g->random_as_x[1],
               g->random_as_x[2], g->random_as_o[0], g->random_as_o[1], g->random_as_o[2]);
        if (r->episodes_to_perfect == UINT64_MAX)
            printf("null");
        else
            printf("%llu", (unsigned long long)r->episodes_to_perfect);
        printf(",\"episodes_per_second\":%.0f,\"moves_per_second\":%.0f,\"stopped\":%s,\"graded_on\":",
               r->eps_per_sec, r->moves_per_sec, r->stopped ? "true" : "false");
        oxo_json_str(stdout, g->judged && o->judge ? o->judge->what : "every reachable position");
        if (g->perfect_games)
            printf(",\"perfect_as_x\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},"
                   "\"perfect_as_o\":{\"wins\":%u,\"draws\":%u,\"losses\":%u}", g->perfect_as_x[0],
                   g->perfect_as_x[1], g->perfect_as_x[2], g->perfect_as_o[0], g->perfect_as_o[1],
                   g->perfect_as_o[2]);
        if (c->avg_every)
            printf(",\"averaged\":%u", r->averaged);
        if (r->searched)
            printf(",\"search\":{\"games\":%u,\"iterations\":%u,\"alpha\":%g,\"seconds\":%.1f}", r->searched,
                   o->search_iterations, r->search_alpha, r->search_time);
        printf(",\"model\":");
        oxo_json_str(stdout, r->output);
        printf(",\"model_hash\":\"%s\"}", r->hash);
        return;
    }
    printf("%s: %llu episodes, %u worker%s, seed %llu, %.0f episodes/s\n", r->output,
           (unsigned long long)r->episodes, c->workers, c->workers > 1 ? "s" : "",
           (unsigned long long)c->seed, r->eps_per_sec);
    if (r->searched)
        printf("  then %u games led by puct:%u, the network learning from the search at alpha %g (%.1f s)\n",
               r->searched, o->search_iterations, r->search_alpha, r->search_time);
    if (g->judged) {
        printf("  value kept in %.2f%% of %s\n", 100 * g->accuracy, o->judge ? o->judge->what : "a judged set");
        if (g->perfect_games)
            printf("  vs the perfect player: as X %u won %u drawn %u lost, as O %u won %u drawn %u lost\n",
                   g->perfect_as_x[0], g->perfect_as_x[1], g->perfect_as_x[2], g->perfect_as_o[0],
                   g->perfect_as_o[1], g->perfect_as_o[2]);
        else if (o->judge && !o->judge->perfect_games)
            printf("  no games against the perfect player (--perfect-games 0)\n");
        else
            printf("  no games against the perfect player (no table or opening book of %s)\n", o->game->name);
    } else {
        printf("  accuracy %.2f%% (distance-optimal %.2f%%) of %u positions\n", 100 * g->accuracy,
               100 * g->accuracy_distance, g->positions);
        printf("  exhaustive check: %llu games lost as X, %llu as O\n", (unsigned long long)g->losses_as_x,
               (unsigned long long)g->losses_as_o);
    }
    printf("  vs random: as X %u won %u drawn %u lost, as O %u won %u drawn %u lost\n",
           g->random_as_x[0], g->random_as_x[1], g->random_as_x[2], g->random_as_o[0],
           g->random_as_o[1], g->random_as_o[2]);
    if (r->episodes_to_perfect != UINT64_MAX && o->eval_every)
        printf("  perfect after %llu episodes\n", (unsigned long long)r->episodes_to_perfect);
    else if (r->episodes_to_perfect != UINT64_MAX) /* not "after 950 episodes": it was never graded before */
        printf("  perfect at the end (%llu episodes; graded only there: --eval-every N tells when)\n",
               (unsigned long long)r->episodes_to_perfect);
    printf("  model hash %s\n", r->hash);
}

/* --strip: the model without its replay rings, for shipping; the original becomes its parent. It
 * plays the same and can no longer be resumed (its settings ask for rings it does not have). A
 * model without rings has nothing to strip and is written unchanged, so stripping twice gives the
 * bytes of stripping once. */
static int strip_model(const char *in, const char *out, int json)
{
    oxo_model *m;
    oxo_error err;
    if (oxo_model_read(in, &m, &err)) {
        fprintf(stderr, "%s: %s: %s\n", prog, in, err.msg);
        return OXO_EXIT_FAIL;
    }
    uint32_t rings = m->nrings;
    if (rings) {
        for (uint32_t r = 0; r < m->nrings; r++)
            free(m->rings[r].items);
        free(m->rings);
        m->rings = NULL;
        m->nrings = 0;
        memcpy(m->parent, m->hash, sizeof m->parent);
    }
    if (oxo_model_write(out, m, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        oxo_model_free(m);
        return OXO_EXIT_FAIL;
    }
    if (json) {
        printf("{\"model\":");
        oxo_json_str(stdout, out);
        printf(",\"model_hash\":\"%s\",\"parent\":", m->hash);
        oxo_json_str(stdout, m->parent[0] ? m->parent : NULL);
        printf(",\"rings_removed\":%u}\n", rings);
    } else if (rings) {
        printf("%s: %s without its %u replay ring%s (hash %s, parent %s); it plays the same and can "
               "no longer be resumed\n", out, in, rings, rings == 1 ? "" : "s", m->hash, m->parent);
    } else {
        printf("%s: %s has no replay rings, nothing to strip: written unchanged (hash %s)\n", out, in,
               m->hash);
    }
    oxo_model_free(m);
    return OXO_EXIT_OK;
}

/* One opponent of --opponent: self, random and table are the trainer's own; anything else is an
 * agent spec (lookup/agents/agent.h: alphabeta:2, mcts:200, model:FILE...), at most one agent. */
static int opponent_share(const char *name, double v, oxo_train_config *c)
{
    if (!strcmp(name, "self")) c->opp_self = v;
    else if (!strcmp(name, "random")) c->opp_random = v;
    else if (!strcmp(name, "table")) c->opp_table = v;
    else {
        if (c->opp_agent_spec[0]) {
            fprintf(stderr, "%s: --opponent: two agents ('%s' and '%s'); at most one\n", prog,
                    c->opp_agent_spec, name);
            return -1;
        }
        if (strlen(name) >= sizeof c->opp_agent_spec) {
            fprintf(stderr, "%s: --opponent: agent spec longer than %zu characters\n", prog,
                    sizeof c->opp_agent_spec - 1);
            return -1;
        }
        snprintf(c->opp_agent_spec, sizeof c->opp_agent_spec, "%s", name);
        c->opp_agent = v;
    }
    return 0;
}

/* --opponent: "self", "random", "table", an agent spec, or "k=v,..." shares adding up to 1 (the
 * share is after the last '=': an agent spec may hold '=' in its name). The agent is checked when
 * the trainer opens it, against the game. */
static int parse_opponent(const char *s, oxo_train_config *c)
{
    c->opp_self = c->opp_random = c->opp_table = c->opp_agent = 0;
    c->opp_agent_spec[0] = 0;
    char buf[1024];
    if (strlen(s) >= sizeof buf) {
        fprintf(stderr, "%s: --opponent: longer than %zu characters\n", prog, sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", s);
    if (!strchr(buf, ','))  {
        char *eq = strrchr(buf, '=');
        char *end;
        int share = eq && eq[1] && (strtod(eq + 1, &end), !*end);
        if (eq && (!strncmp(buf, "self=", 5) || !strncmp(buf, "random=", 7) || !strncmp(buf, "table=", 6)))
            share = 1;
        if (!share)
            return opponent_share(buf, 1.0, c);
    }
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strrchr(tok, '=');
        double v;
        if (!eq || eq == tok)
            goto bad;
        *eq = 0;
        if (oxo_cli_double(prog, "--opponent", eq + 1, 0, 1, &v) || opponent_share(tok, v, c))
            return -1;
    }
    if (fabs(c->opp_self + c->opp_random + c->opp_table + c->opp_agent - 1) > 1e-9) {
        fprintf(stderr, "%s: --opponent: shares add up to %g, expected 1\n", prog,
                c->opp_self + c->opp_random + c->opp_table + c->opp_agent);
        return -1;
    }
    return 0;
bad:
    fprintf(stderr, "%s: --opponent: '%s', expected self, random, table, an agent spec (alphabeta:2, "
            "mcts:200, ...) or shares like self=0.6,random=0.2,alphabeta:2=0.2\n", prog, s);
    return -1;
}

static int parse_schedule_kind(const char *opt, const char *arg, oxo_schedule *s)
{
    if (strcmp(arg, "constant") && strcmp(arg, "linear") && strcmp(arg, "exponential")) {
        fprintf(stderr, "%s: %s: '%s', expected constant, linear or exponential\n", prog, opt, arg);
        return -1;
    }
    snprintf(s->kind, sizeof s->kind, "%s", arg);
    return 0;
}

/* Applies one learning setting by its option name (shared by the options and --sweep), from the
 * table of settings (settings.c). */
static int set_param(oxo_train_config *c, const char *key, const char *val, int *alpha_end_set)
{
    const oxo_setting *s = oxo_setting_named(key);
    if (!s) {
        char keys[400];
        fprintf(stderr, "%s: --sweep: unknown key '%s' (%s, and with --algo ntuple average defend tuple-lines)\n",
                prog, key, oxo_settings_sweep_keys(keys, sizeof keys));
        return -1;
    }
    return oxo_setting_set(s, c, val, alpha_end_set);
}

/* --average F on an n-tuple run: the mean of the weights taken every hundredth of the run, in
 * whole rounds, from the first such episode within the last share F (0: the last weights). */
static int set_average(run_opts *o, double average)
{
    o->cfg.avg_every = 0;
    o->cfg.avg_from = 0;
    if (average <= 0)
        return 0;
    const uint64_t rs = o->cfg.sync, every = ((o->episodes + 99) / 100 + rs - 1) / rs * rs;
    const uint64_t span = (uint64_t)(average * (double)o->episodes);
    const uint64_t from = o->episodes - (span < o->episodes ? span : o->episodes);
    if (every > UINT32_MAX) {
        fprintf(stderr, "%s: --average: a hundredth of %llu episodes is more rounds than it can count "
                "(--average 0: the last weights)\n", prog,
                (unsigned long long)o->episodes);
        return -1;
    }
    o->cfg.avg_every = (uint32_t)every;
    o->cfg.avg_from = (from + every - 1) / every * every;
    return 0;
}

/* A setting of one run of a sweep: the learning settings as set_param has them, and the n-tuple
 * learner's --average, --tuple-lines (shares) and --defend (0 or 1), which only go with --algo
 * ntuple. */
static int set_sweep_param(run_opts *o, const char *key, const char *val, int *alpha_end_set)
{
    const int avg = !strcmp(key, "average"), def = !strcmp(key, "defend"), lines = !strcmp(key, "tuple-lines");
    if (!avg && !def && !lines)
        return set_param(&o->cfg, key, val, alpha_end_set);
    if (o->cfg.algo != OXO_ALGO_NTUPLE) {
        fprintf(stderr, "%s: --sweep: '%s' goes with --algo ntuple\n", prog, key);
        return -1;
    }
    double d;
    if (avg)
        return oxo_cli_double(prog, "--average", val, 0, 1, &d) || set_average(o, d) ? -1 : 0;
    if (lines) {
        if (o->cfg.nt_cells) {
            fprintf(stderr, "%s: --sweep: tuple-lines goes without --tuple-file\n", prog);
            return -1;
        }
        return oxo_cli_double(prog, "--tuple-lines", val, 0, 1, &o->cfg.nt_lines) ? -1 : 0;
    }
    if (strcmp(val, "0") && strcmp(val, "1")) {
        fprintf(stderr, "%s: --sweep: defend='%s', expected 0 (off) or 1 (--defend)\n", prog, val);
        return -1;
    }
    o->cfg.nt_defend = val[0] == '1';
    return 0;
}

#define MAX_SWEEP 8
#define MAX_VALUES 16

typedef struct {
    char key[32];
    int n;
    char val[MAX_VALUES][32];
} sweep_axis;

static int parse_sweep(const char *arg, sweep_axis *ax)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof ax->key || !eq[1]) {
        fprintf(stderr, "%s: --sweep: '%s', expected KEY=V1,V2,...\n", prog, arg);
        return -1;
    }
    snprintf(ax->key, sizeof ax->key, "%.*s", (int)(eq - arg), arg);
    ax->n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", eq + 1);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (ax->n == MAX_VALUES || strlen(tok) >= sizeof ax->val[0]) {
            fprintf(stderr, "%s: --sweep: at most %d values of at most 31 characters per key\n", prog,
                    MAX_VALUES);
            return -1;
        }
        snprintf(ax->val[ax->n++], sizeof ax->val[0], "%s", tok);
    }
    return 0;
}

/* Labels and names hold every key and value of the grid (MAX_SWEEP keys and values of at most 31
 * characters each), so they are never cut. */
#define LABEL_MAX (MAX_SWEEP * (32 + 1 + 32 + 1))
/* Runs of a sweep, at most: each is a model file and a line of the table. */
#define MAX_RUNS 4096

typedef struct {
    run_opts opts;
    run_result res;
    char label[LABEL_MAX];
    char out[1024 + LABEL_MAX];
} sweep_run;

/* Appends to a string of capacity cap, never past it: returns -1 when it would not fit. */
static int append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap - len ? -1 : 0;
}

static int rank_cmp(const void *a, const void *b)
{
    const run_result *x = &((const sweep_run *)a)->res, *y = &((const sweep_run *)b)->res;
    if (x->grade.accuracy != y->grade.accuracy)
        return x->grade.accuracy < y->grade.accuracy ? 1 : -1;
    uint64_t lx = x->grade.losses_as_x + x->grade.losses_as_o, ly = y->grade.losses_as_x + y->grade.losses_as_o;
    if (lx != ly)
        return lx > ly ? 1 : -1;
    if (x->episodes_to_perfect != y->episodes_to_perfect)
        return x->episodes_to_perfect > y->episodes_to_perfect ? 1 : -1;
    if (x->grade.accuracy_distance != y->grade.accuracy_distance)
        return x->grade.accuracy_distance < y->grade.accuracy_distance ? 1 : -1;
    return strcmp(((const sweep_run *)a)->label, ((const sweep_run *)b)->label);
}

static int check_outputs(const char *const *outs, int nouts, const char *const *ins, int nins);

/* The size of a grid, or 0 when it has more than MAX_RUNS runs. */
static int grid_size(const sweep_axis *axes, int naxes)
{
    int total = 1;
    for (int i = 0; i < naxes; i++) {
        if (axes[i].n > MAX_RUNS / total)
            return 0;
        total *= axes[i].n;
    }
    return total;
}

static int sweep(const run_opts *base, const oxo_player *truth, sweep_axis *axes, int naxes,
                 const char *const *inputs, int ninputs)
{
    int total = grid_size(axes, naxes);
    sweep_run *runs = calloc((size_t)total, sizeof *runs);
    if (!runs) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return OXO_EXIT_FAIL;
    }
    const char *dot = strrchr(base->output, '.');
    int has_ext = dot && !strchr(dot, '/');
    int stem = has_ext ? (int)(dot - base->output) : (int)strlen(base->output);
    const char **outs = calloc((size_t)total, sizeof *outs);
    if (!outs) {
        free(runs);
        fprintf(stderr, "%s: out of memory\n", prog);
        return OXO_EXIT_FAIL;
    }
    for (int r = 0; r < total; r++) {
        sweep_run *s = &runs[r];
        s->opts = *base;
        s->opts.curve = s->opts.plot = NULL;
        s->opts.progress = 0;
        s->opts.implied_eval = 1; /* ranked by episodes to perfect: grade along the way */
        int idx = r, alpha_end_set = 0, cut = 0;
        char fname[LABEL_MAX] = "";
        for (int a = 0, div = total; a < naxes; a++) {
            div /= axes[a].n;
            int v = (idx / div) % axes[a].n;
            if (set_sweep_param(&s->opts, axes[a].key, axes[a].val[v], &alpha_end_set)) {
                free(runs);
                free(outs);
                return OXO_EXIT_USAGE;
            }
            cut |= append(s->label, sizeof s->label, "%s%s=%s", a ? "," : "", axes[a].key, axes[a].val[v]);
            cut |= append(fname, sizeof fname, "-%s%s", axes[a].key, axes[a].val[v]);
        }
        cut |= snprintf(s->out, sizeof s->out, "%.*s%s%s", stem, base->output, fname,
                        has_ext ? dot : "") >= (int)sizeof s->out;
        if (cut) { /* cannot happen with the sizes above; refused rather than cut if it ever does */
            fprintf(stderr, "%s: --sweep: a model name would be too long\n", prog);
            free(runs);
            free(outs);
            return OXO_EXIT_USAGE;
        }
        s->opts.output = outs[r] = s->out;
    }
    int rc = check_outputs(outs, total, inputs, ninputs);
    free(outs);
    if (rc) {
        free(runs);
        return rc;
    }
    /* Runs are independent; each is deterministic by itself, so their order does not matter. */
#pragma omp parallel for schedule(dynamic, 1)
    for (int r = 0; r < total; r++)
        run(&runs[r].opts, truth, &runs[r].res, NULL);
    int failed = 0;
    for (int r = 0; r < total; r++)
        if (!runs[r].res.ok) {
            fprintf(stderr, "%s: %s: %s\n", prog, runs[r].label, runs[r].res.err);
            failed = 1;
        }
    qsort(runs, (size_t)total, sizeof *runs, rank_cmp);
    if (base->json) {
        printf("[");
        for (int r = 0; r < total; r++) {
            printf("%s\n", r ? "," : "");
            print_result(&runs[r].opts, &runs[r].res, 1, runs[r].label);
        }
        printf("\n]\n");
    } else {
        /* A table grades every position (accuracy, distance-optimal, exhaustive losses); a judged
         * set the value kept on its positions and the games lost to the perfect player, with no
         * distance: each row says which. */
        printf("| rank | settings | value kept | distance-optimal | losses X/O | episodes to perfect | model |\n");
        printf("|---:|---|---:|---:|---:|---:|---|\n");
        for (int r = 0; r < total; r++) {
            const run_result *x = &runs[r].res;
            char etp[32];
            if (x->episodes_to_perfect == UINT64_MAX)
                snprintf(etp, sizeof etp, "-");
            else
                snprintf(etp, sizeof etp, "%llu", (unsigned long long)x->episodes_to_perfect);
            char dist[32];
            if (x->grade.judged)
                snprintf(dist, sizeof dist, "- (judged set)");
            else
                snprintf(dist, sizeof dist, "%.2f%%", 100 * x->grade.accuracy_distance);
            printf("| %d | %s | %.2f%% | %s | %llu/%llu%s | %s | %s |\n", r + 1, runs[r].label,
                   100 * x->grade.accuracy, dist,
                   (unsigned long long)(x->grade.judged ? x->grade.perfect_as_x[2] : x->grade.losses_as_x),
                   (unsigned long long)(x->grade.judged ? x->grade.perfect_as_o[2] : x->grade.losses_as_o),
                   x->grade.judged ? " to the perfect player" : " exhaustive", etp, runs[r].out);
        }
    }
    free(runs);
    if (stop_signal) {
        fprintf(stderr, "%s: stopped by signal %d; each model holds what its run learned so far and "
                "resumes with --resume\n", prog, stop_signal);
        return oxo_cli_signal_status(stop_signal);
    }
    return failed ? OXO_EXIT_FAIL : OXO_EXIT_OK;
}

/* Before any work: no output may be an input or another output (it would destroy what is read, or
 * what another output wrote), and each must be writable. Exit code, 0 when all is well. */
static int check_outputs(const char *const *outs, int nouts, const char *const *ins, int nins)
{
    for (int i = 0; i < nouts; i++) {
        for (int j = 0; j < nins; j++)
            if (ins[j] && (!strcmp(outs[i], ins[j]) || oxo_same_file(outs[i], ins[j]))) {
                fprintf(stderr, "%s: %s would overwrite the input file %s; choose another output\n",
                        prog, outs[i], ins[j]);
                return OXO_EXIT_USAGE;
            }
        for (int j = 0; j < i; j++)
            if (!strcmp(outs[i], outs[j]) || oxo_same_file(outs[i], outs[j])) {
                fprintf(stderr, "%s: %s is given as two outputs\n", prog, outs[i]);
                return OXO_EXIT_USAGE;
            }
        oxo_error e;
        if (oxo_atomic_probe(outs[i], &e)) {
            fprintf(stderr, "%s: %s\n", prog, e.msg);
            return OXO_EXIT_FAIL;
        }
    }
    return 0;
}

static int finish_run(const run_opts *op, const run_result *rp, curve_buf *cp);

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The rounds of several workers. The tabular learners': a tic-tac-toe episode takes well under a
 * microsecond, so a round of 1000 costs little more than the barrier and the merge that end it, and
 * two workers gained 1.1x-1.5x; rounds of a 50th of the run (at most 20,000 episodes) give
 * 1.6x-1.7x. Runs of 50,000 episodes or fewer keep rounds of 1000 (the shipped models are of
 * those). A network's: rounds of 2000 games (OXO_NT_SYNC), or of a hundredth of a shorter run:
 * --average takes its snapshots at round ends every hundredth of the run, so that rounds of 2000
 * would leave a run of 5000 games a single snapshot, at game 4000, the last 1000 games' learning
 * lost (and one under 3000 no mean at all). Either way the rounds divide the grading and
 * checkpoint intervals, which must fall on round ends. */
static uint32_t default_sync(const run_opts *o, oxo_algo algo)
{
    uint64_t s;
    if (algo == OXO_ALGO_NTUPLE) {
        s = (o->episodes + 99) / 100;
        s = s < 1 ? 1 : s > OXO_NT_SYNC ? OXO_NT_SYNC : s;
    } else {
        s = o->episodes / 50;
        s = s < 1000 ? 1000 : s > 20000 ? 20000 : s;
    }
    if (o->eval_every)
        s = gcd64(s, o->eval_every);
    if (o->checkpoint_every)
        s = gcd64(s, o->checkpoint_every);
    return (uint32_t)s;
}

/* --tuple-file: one tuple a line, its cells as numbers r * cols + c (row 0 on top), every line as
 * long as the first; '#' starts a comment. Whether the cells fit the game is checked when the
 * network is made. */
static int read_tuples(const char *path, uint8_t *cells, uint32_t *count, uint32_t *len)
{
    oxo_error err;
    uint8_t *data;
    size_t n;
    if (oxo_read_file(path, 1u << 20, &data, &n, &err)) {
        fprintf(stderr, "%s: --tuple-file %s: %s\n", prog, path, err.msg);
        return -1;
    }
    char *text = malloc(n + 1);
    if (!text) {
        free(data);
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    memcpy(text, data, n);
    text[n] = 0;
    free(data);
    uint32_t c = 0, l = 0;
    int line = 0, rc = 0;
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln && !rc; ln = strtok_r(NULL, "\n", &save)) {
        line++;
        char *hash = strchr(ln, '#');
        if (hash)
            *hash = 0;
        uint32_t k = 0;
        for (char *p = ln, *end; !rc; p = end) {
            while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r')
                p++;
            if (!*p)
                break;
            unsigned long v = strtoul(p, &end, 10);
            if (end == p || v > 63 || k == OXO_NTUPLE_MAX_LEN || c == OXO_NTUPLE_MAX_COUNT) {
                fprintf(stderr, "%s: --tuple-file %s line %d: expected at most %d cell numbers from 0 to 63 a "
                        "line and at most %d lines\n", prog, path, line, OXO_NTUPLE_MAX_LEN, OXO_NTUPLE_MAX_COUNT);
                rc = -1;
                break;
            }
            cells[c * OXO_NTUPLE_MAX_LEN + k++] = (uint8_t)v;
        }
        if (rc || !k)
            continue;
        if (l && k != l) {
            fprintf(stderr, "%s: --tuple-file %s line %d: %u cells, the tuples before have %u\n", prog, path,
                    line, k, l);
            rc = -1;
        }
        l = k;
        c++;
    }
    free(text);
    if (!rc && !c) {
        fprintf(stderr, "%s: --tuple-file %s holds no tuple\n", prog, path);
        rc = -1;
    }
    /* Packed: tuple t's cells at t * len. */
    for (uint32_t t = 0; !rc && t < c; t++)
        memmove(cells + t * l, cells + t * OXO_NTUPLE_MAX_LEN, l);
    *count = c;
    *len = l;
    return rc;
}

int main(int argc, char **argv)
{
    enum {
        O_SYNC = 256, O_TUPLES, O_TUPLE_LEN, O_HORIZON, O_SETS, O_START_DEPTH, O_TARGET, O_JUDGE, O_TUPLE_FILE,
        O_RESUME, O_CKPT, O_ALPHA_SCHED, O_EPS_SCHED, O_TRACE, O_NOSYM, O_OPP, O_EVAL, O_CURVE, O_PLOT, O_SWEEP,
        O_JSON, O_STRIP, O_GAME, O_PERFECT, O_AVERAGE, O_DEFEND, O_NO_DEFEND, O_LINES,
        O_SEARCH_GAMES, O_SEARCH_ITER, O_SEARCH_ALPHA
    };
    static const struct option fixed[] = {
        {"algo", required_argument, 0, 'a'}, {"episodes", required_argument, 0, 'e'},
        {"seed", required_argument, 0, 's'}, {"output", required_argument, 0, 'o'},
        {"workers", required_argument, 0, 'w'}, {"sync", required_argument, 0, O_SYNC},
        {"tuples", required_argument, 0, O_TUPLES}, {"tuple-len", required_argument, 0, O_TUPLE_LEN},
        {"horizon", required_argument, 0, O_HORIZON}, {"judge", required_argument, 0, O_JUDGE},
        {"weight-sets", required_argument, 0, O_SETS}, {"exploring-depth", required_argument, 0, O_START_DEPTH},
        {"td-target", required_argument, 0, O_TARGET}, {"average", required_argument, 0, O_AVERAGE},
        {"defend", no_argument, 0, O_DEFEND}, {"no-defend", no_argument, 0, O_NO_DEFEND},
        {"tuple-file", required_argument, 0, O_TUPLE_FILE}, {"perfect-games", required_argument, 0, O_PERFECT},
        {"tuple-lines", required_argument, 0, O_LINES}, {"search-games", required_argument, 0, O_SEARCH_GAMES},
        {"search-iterations", required_argument, 0, O_SEARCH_ITER}, {"search-alpha", required_argument, 0, O_SEARCH_ALPHA},
        {"table", required_argument, 0, 't'}, {"resume", required_argument, 0, O_RESUME},
        {"checkpoint-every", required_argument, 0, O_CKPT}, {"alpha-schedule", required_argument, 0, O_ALPHA_SCHED},
        {"epsilon-schedule", required_argument, 0, O_EPS_SCHED}, {"trace", required_argument, 0, O_TRACE},
        {"no-symmetry", no_argument, 0, O_NOSYM},
        {"opponent", required_argument, 0, O_OPP}, {"eval-every", required_argument, 0, O_EVAL},
        {"curve", required_argument, 0, O_CURVE}, {"plot", required_argument, 0, O_PLOT},
        {"sweep", required_argument, 0, O_SWEEP}, {"json", no_argument, 0, O_JSON},
        {"strip", required_argument, 0, O_STRIP}, {"game", required_argument, 0, 'g'},
        {"quiet", no_argument, 0, 'q'}, {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'}, {0, 0, 0, 0}};
    /* The options above, then the learning settings of the table (settings.c), each its row's
     * index above O_SETTING. */
    enum { O_SETTING = 1000 };
    static struct option opts[sizeof fixed / sizeof *fixed + 64];
    size_t nopts = 0;
    for (const struct option *p = fixed; p->name; p++)
        opts[nopts++] = *p;
    for (int i = 0; oxo_settings[i].name; i++)
        if (oxo_settings[i].type != OXO_SET_OTHER && !(oxo_settings[i].flags & OXO_SET_HIDDEN))
            opts[nopts++] = (struct option){oxo_settings[i].name, required_argument, 0, O_SETTING + i};
    opts[nopts] = (struct option){0, 0, 0, 0};
    /* Options are collected first and applied after --algo is known, since defaults depend on it. */
    const char *learn_key[64], *learn_val[64];
    int nlearn = 0, c, learning_given = 0, replay_ratio_given = 0, replay_given = 0, starts_given = 0;
    double average = -1; /* --average: the share of the run averaged (-1: not given, 0.5) */
    int defend = -1;      /* --defend 1, --no-defend 0, -1 the game's (oxo_train_defend) */
    double tuple_lines = -1; /* --tuple-lines: the share of walks from a line (-1: OXO_NT_LINES) */
    run_opts o;
    memset(&o, 0, sizeof o);
    oxo_algo algo = OXO_ALGO_Q;
    const char *table = NULL, *opponent = NULL, *trace = NULL, *alpha_sched = NULL, *eps_sched = NULL;
    const char *strip = NULL, *spec = NULL;
    uint64_t workers = 1, sync = 0, seed = 1, nt_count = 0, nt_len = 0, nt_horizon = 0, nt_sets = 0, nt_depth = UINT64_MAX;
    uint32_t nt_target = 0;
    uint64_t perfect_games = UINT64_MAX; /* unset: OXO_GRADE_PERFECT_GAMES */
    uint64_t search_games = 0, search_iter = UINT64_MAX; /* --search-iterations unset: OXO_SEARCH_ITERATIONS */
    double search_alpha = 0; /* --search-alpha unset: the run's last alpha */
    const char *judge_path = NULL, *tuple_file = NULL;
    static uint8_t tuple_cells[OXO_NTUPLE_MAX_COUNT * OXO_NTUPLE_MAX_LEN];
    int seed_given = 0, workers_given = 0, nosym = 0;
    sweep_axis axes[MAX_SWEEP];
    int naxes = 0;
    oxo_cli_init();
    o.episodes = 20000;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:e:s:o:w:t:g:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'a':
            if (oxo_algo_named(optarg, &algo)) {
                char names[200];
                fprintf(stderr, "%s: --algo: '%s', expected %s\n", prog, optarg, oxo_algo_names(names, sizeof names));
                return OXO_EXIT_USAGE;
            }
            break;
        case 'e':
            if (oxo_cli_u64(prog, "--episodes", optarg, 1, UINT64_MAX / 2, &o.episodes)) return OXO_EXIT_USAGE;
            break;
        case 's':
            if (oxo_cli_u64(prog, "--seed", optarg, 0, UINT64_MAX, &seed)) return OXO_EXIT_USAGE;
            seed_given = 1;
            break;
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "%s: --output: empty file name\n", prog);
                return OXO_EXIT_USAGE;
            }
            if (!strcmp(optarg, "-")) {
                /* A model is saved at each checkpoint and resumed from: a file, never a stream. */
                fprintf(stderr, "%s: -o -: a model goes to a file (saved again at each checkpoint, resumed from), "
                        "not to standard output; name a file\n", prog);
                return OXO_EXIT_USAGE;
            }
            o.output = optarg;
            break;
        case 'w':
            if (oxo_cli_u64(prog, "--workers", optarg, 1, 4096, &workers)) return OXO_EXIT_USAGE;
            workers_given = 1;
            break;
        case O_TUPLES:
            if (oxo_cli_u64(prog, "--tuples", optarg, 1, OXO_NTUPLE_MAX_COUNT, &nt_count)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_TUPLE_LEN:
            if (oxo_cli_u64(prog, "--tuple-len", optarg, 1, OXO_NTUPLE_MAX_LEN, &nt_len)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_HORIZON:
            if (oxo_cli_u64(prog, "--horizon", optarg, 1, 64, &nt_horizon)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_SETS:
            if (oxo_cli_u64(prog, "--weight-sets", optarg, 1, 2, &nt_sets)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_START_DEPTH:
            if (oxo_cli_u64(prog, "--exploring-depth", optarg, 0, 64, &nt_depth)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_TARGET:
            if (strcmp(optarg, "next") && strcmp(optarg, "own")) {
                fprintf(stderr, "%s: --td-target: '%s', expected next or own\n", prog, optarg);
                return OXO_EXIT_USAGE;
            }
            nt_target = strcmp(optarg, "own") ? OXO_NT_TARGET_NEXT : OXO_NT_TARGET_OWN;
            learning_given = 1;
            break;
        case O_AVERAGE:
            if (oxo_cli_double(prog, "--average", optarg, 0, 1, &average)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_LINES:
            if (oxo_cli_double(prog, "--tuple-lines", optarg, 0, 1, &tuple_lines)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case O_DEFEND: defend = 1; learning_given = 1; break;
        case O_NO_DEFEND: defend = 0; learning_given = 1; break;
        case O_JUDGE: judge_path = optarg; break;
        case O_TUPLE_FILE: tuple_file = optarg; learning_given = 1; break;
        case O_SEARCH_GAMES:
            if (oxo_cli_u64(prog, "--search-games", optarg, 0, OXO_MAX_SEARCH_GAMES, &search_games))
                return OXO_EXIT_USAGE;
            break;
        case O_SEARCH_ITER:
            if (oxo_cli_u64(prog, "--search-iterations", optarg, 1, OXO_MAX_SEARCH_ITERATIONS, &search_iter))
                return OXO_EXIT_USAGE;
            break;
        case O_SEARCH_ALPHA:
            if (oxo_cli_double(prog, "--search-alpha", optarg, 1e-9, 1, &search_alpha)) return OXO_EXIT_USAGE;
            break;
        case O_PERFECT:
            if (oxo_cli_u64(prog, "--perfect-games", optarg, 0, 100000, &perfect_games)) return OXO_EXIT_USAGE;
            break;
        case O_SYNC:
            if (oxo_cli_u64(prog, "--sync", optarg, 1, UINT32_MAX, &sync)) return OXO_EXIT_USAGE;
            learning_given = 1;
            break;
        case 't': table = optarg; break;
        case O_RESUME: o.resume = optarg; break;
        case O_STRIP: strip = optarg; break;
        case 'g': spec = optarg; break;
        case O_CKPT:
            if (oxo_cli_u64(prog, "--checkpoint-every", optarg, 0, UINT64_MAX, &o.checkpoint_every)) return OXO_EXIT_USAGE;
            break;
        case O_EVAL:
            if (oxo_cli_u64(prog, "--eval-every", optarg, 0, UINT64_MAX, &o.eval_every)) return OXO_EXIT_USAGE;
            break;
        case O_ALPHA_SCHED: alpha_sched = optarg; learning_given = 1; break;
        case O_EPS_SCHED: eps_sched = optarg; learning_given = 1; break;
        case O_TRACE: trace = optarg; learning_given = 1; break;
        case O_NOSYM: nosym = 1; learning_given = 1; break;
        case O_OPP: opponent = optarg; learning_given = 1; break;
        case O_CURVE: o.curve = optarg; break;
        case O_PLOT: o.plot = optarg; break;
        case O_SWEEP:
            if (naxes == MAX_SWEEP) {
                fprintf(stderr, "%s: --sweep: at most %d keys\n", prog, MAX_SWEEP);
                return OXO_EXIT_USAGE;
            }
            if (parse_sweep(optarg, &axes[naxes++])) return OXO_EXIT_USAGE;
            for (int a = 0; a + 1 < naxes; a++)
                if (!strcmp(axes[a].key, axes[naxes - 1].key)) {
                    fprintf(stderr, "%s: --sweep: key '%s' given twice; list all its values once\n", prog,
                            axes[a].key);
                    return OXO_EXIT_USAGE;
                }
            break;
        case O_JSON: o.json = 1; break;
        case 'q': o.quiet = 1; break;
        case 'h': usage(stdout); return oxo_cli_finish(prog, OXO_EXIT_OK);
        case 'V': printf("oxo-train %s\n", OXO_VERSION); return oxo_cli_finish(prog, OXO_EXIT_OK);
        default:
            if (c < O_SETTING)
                return oxo_cli_bad_option(prog, c, argv, opts);
            /* A learning setting of the table (settings.c), applied once --algo is known. */
            if (nlearn == 64) {
                fprintf(stderr, "%s: too many options\n", prog);
                return OXO_EXIT_USAGE;
            }
            learn_key[nlearn] = oxo_settings[c - O_SETTING].name;
            learn_val[nlearn++] = optarg;
            learning_given = 1;
            replay_ratio_given |= !strcmp(learn_key[nlearn - 1], "replay-ratio");
            replay_given |= !strcmp(learn_key[nlearn - 1], "replay");
            starts_given |= !strcmp(learn_key[nlearn - 1], "exploring-starts");
            break;
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (strip) {
        if (!o.output || o.resume || naxes || learning_given) {
            fprintf(stderr, "%s: --strip FILE takes -o OUT and nothing else\n", prog);
            return OXO_EXIT_USAGE;
        }
        const char *in[] = {strip};
        int rc = check_outputs(&o.output, 1, in, 1);
        return rc ? rc : oxo_cli_finish(prog, strip_model(strip, o.output, o.json));
    }
    if (naxes && !grid_size(axes, naxes)) {
        fprintf(stderr, "%s: --sweep: the grid has more than %d runs\n", prog, MAX_RUNS);
        return OXO_EXIT_USAGE;
    }
    if (naxes && (o.curve || o.plot)) {
        fprintf(stderr, "%s: --curve and --plot draw one run; a --sweep prints its table instead\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (o.plot) {
        const char *dot = strrchr(o.plot, '.');
        if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg"))) {
            fprintf(stderr, "%s: --plot: '%s', expected a file name ending in .png or .svg\n", prog, o.plot);
            return OXO_EXIT_USAGE;
        }
    }
    if (o.resume && (learning_given || seed_given || workers_given || naxes)) {
        fprintf(stderr, "%s: --resume continues with the model's own settings; learning options, "
                "--seed, --workers and --sweep cannot be combined with it\n", prog);
        return OXO_EXIT_USAGE;
    }
    oxo_train_defaults(&o.cfg, algo);
    o.cfg.seed = seed;
    o.cfg.workers = (uint32_t)workers;
    if (sync) o.cfg.sync = (uint32_t)sync;
    else if (workers > 1) o.cfg.sync = default_sync(&o, algo);
    if (nosym) o.cfg.symmetric = 0;
    int alpha_end_set = 0;
    for (int i = 0; i < nlearn; i++)
        if (!strcmp(learn_key[i], "alpha-end") && set_param(&o.cfg, learn_key[i], learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    for (int i = 0; i < nlearn; i++)
        if (strcmp(learn_key[i], "alpha-end") && set_param(&o.cfg, learn_key[i], learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    if (o.cfg.replay_capacity && !replay_ratio_given && o.cfg.replay_ratio == 0)
        o.cfg.replay_ratio = 1;
    if (algo == OXO_ALGO_NTUPLE) {
        int alen = 0, elen = 0;
        for (int i = 0; i < nlearn; i++) {
            alen |= !strcmp(learn_key[i], "alpha-length");
            elen |= !strcmp(learn_key[i], "epsilon-length");
        }
        if (!alen) o.cfg.alpha.length = o.episodes;
        if (!elen) o.cfg.epsilon.length = o.episodes;
        if (nt_count) o.cfg.nt_count = (uint32_t)nt_count;
        if (nt_len) o.cfg.nt_len = (uint32_t)nt_len;
        o.cfg.nt_horizon = nt_horizon ? (uint32_t)nt_horizon : oxo_train_horizon(o.cfg.lambda);
        o.cfg.nt_sets = (uint32_t)nt_sets;
        o.cfg.nt_start_depth = nt_depth == UINT64_MAX ? 0 : (uint32_t)nt_depth;
        o.cfg.nt_target = nt_target;
        o.cfg.nt_defend = defend;
        if (set_average(&o, average < 0 ? OXO_NT_AVERAGE : average))
            return OXO_EXIT_USAGE;
        if (tuple_lines >= 0)
            o.cfg.nt_lines = tuple_lines;
        if (tuple_file) {
            if (nt_count || nt_len || tuple_lines >= 0) {
                fprintf(stderr, "%s: --tuple-file gives the tuples; --tuples, --tuple-len and --tuple-lines go "
                        "without it\n", prog);
                return OXO_EXIT_USAGE;
            }
            if (read_tuples(tuple_file, tuple_cells, &o.cfg.nt_count, &o.cfg.nt_len))
                return OXO_EXIT_FAIL;
            o.cfg.nt_cells = tuple_cells;
        }
    } else if (nt_count || nt_len || nt_horizon || nt_sets || nt_depth != UINT64_MAX || nt_target || tuple_file ||
               average >= 0 || defend >= 0 || tuple_lines >= 0) {
        fprintf(stderr, "%s: --tuples, --tuple-len, --tuple-file, --tuple-lines, --horizon, --weight-sets, "
                "--exploring-depth, --td-target, --average, --defend and --no-defend go with --algo ntuple\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (alpha_sched && parse_schedule_kind("--alpha-schedule", alpha_sched, &o.cfg.alpha)) return OXO_EXIT_USAGE;
    if (eps_sched && parse_schedule_kind("--epsilon-schedule", eps_sched, &o.cfg.epsilon)) return OXO_EXIT_USAGE;
    if (trace) {
        if (strcmp(trace, "accumulating") && strcmp(trace, "replacing")) {
            fprintf(stderr, "%s: --trace: '%s', expected accumulating or replacing\n", prog, trace);
            return OXO_EXIT_USAGE;
        }
        o.cfg.replacing = !strcmp(trace, "replacing");
    }
    if (opponent && parse_opponent(opponent, &o.cfg)) return OXO_EXIT_USAGE;
    if (algo == OXO_ALGO_NTUPLE && (o.cfg.opp_self < 1.0 || nosym)) {
        fprintf(stderr, "%s: --algo ntuple learns by self-play from the start (no --opponent other than self "
                "or --no-symmetry)\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (!strcmp(o.cfg.epsilon.kind, "exponential") && (o.cfg.epsilon.start <= 0 || o.cfg.epsilon.end <= 0)) {
        fprintf(stderr, "%s: an exponential epsilon schedule needs --epsilon and --epsilon-end above 0\n", prog);
        return OXO_EXIT_USAGE;
    }
    char default_output[64]; /* NAME.oxm: q.oxm, td.oxm, ntuple.oxm */
    snprintf(default_output, sizeof default_output, "%s.oxm", oxo_algo_name(algo));
    if (!o.output)
        o.output = default_output;
    /* With several workers, rounds matter: grading and saving must fall on round ends. */
    if (!o.resume && o.cfg.workers > 1 &&
        ((o.eval_every && o.eval_every % o.cfg.sync) || (o.checkpoint_every && o.checkpoint_every % o.cfg.sync))) {
        fprintf(stderr, "%s: with %u workers, --eval-every and --checkpoint-every must be multiples of "
                "--sync (%u)\n", prog, o.cfg.workers, o.cfg.sync);
        return OXO_EXIT_USAGE;
    }
    o.progress = !o.quiet && isatty(STDERR_FILENO) && !naxes;
    /* A curve or a plot without grading points would be empty: grade at 100 points. */
    o.implied_eval = o.curve || o.plot;

    /* The game: --game, else the resumed model's, else tictactoe. Its solved table grades the
     * tabular runs; an n-tuple run is graded on a judged set (drawn from the table when there is
     * one, else read from --judge or the game's shipped set) and needs no table. */
    char found[4096], name[80], msg[400], mgame[48] = "tictactoe";
    int nt = algo == OXO_ALGO_NTUPLE;
    oxo_error err;
    if (o.resume) {
        oxo_model *m;
        if (oxo_model_read(o.resume, &m, &err)) {
            fprintf(stderr, "%s: %s: %s\n", prog, o.resume, err.msg);
            return OXO_EXIT_FAIL;
        }
        nt = !strcmp(m->algo, "ntuple");
        snprintf(mgame, sizeof mgame, "%s", m->game);
        oxo_model_free(m);
    }
    if ((search_games || search_iter != UINT64_MAX || search_alpha > 0) && !nt) {
        fprintf(stderr, "%s: --search-games, --search-iterations and --search-alpha go with --algo ntuple\n", prog);
        return OXO_EXIT_USAGE;
    }
    if ((search_iter != UINT64_MAX || search_alpha > 0) && !search_games) {
        fprintf(stderr, "%s: --search-iterations and --search-alpha go with --search-games\n", prog);
        return OXO_EXIT_USAGE;
    }
    o.search_alpha = search_alpha;
    o.search_games = (uint32_t)search_games;
    o.search_iterations = search_iter == UINT64_MAX ? OXO_SEARCH_ITERATIONS : (uint32_t)search_iter;
    if (perfect_games != UINT64_MAX && !nt) {
        fprintf(stderr, "%s: --perfect-games goes with --algo ntuple, which is graded on a judged set\n", prog);
        return OXO_EXIT_USAGE;
    }
    /* Like --perfect-games, checked once the algorithm is known: a resumed run takes it from the
     * model, and a resumed network is graded on --judge's set as a new one is. */
    if (judge_path && !nt) {
        fprintf(stderr, "%s: --judge goes with --algo ntuple, which is graded on a judged set\n", prog);
        return OXO_EXIT_USAGE;
    }
    oxo_game *want = oxo_game_open(spec ? spec : mgame, msg, sizeof msg);
    if (!want) {
        fprintf(stderr, "%s: --game: %s\n", prog, msg);
        return OXO_EXIT_USAGE;
    }
    /* The n-tuple defaults the game states (game.h, oxo_learn_defaults), each measured on its family.
     * On Connect-4: 30% of the games begin after up to 11 random moves (self-play alone seldom
     * leaves the network's own main lines, where the perfect player goes; on 7x6, 1,000,000 games,
     * seeds 1-8, the judged positions kept rose from 82-86% to 88-91%, the wins stayed alike); each
     * worker replays one of its last 2,000 games after each game it plays (GBG's agents learn from
     * each game once; Lin's experience replay, over whole games as the tabular TD replays its
     * episodes: on 7x6, seeds 1-24, 70 tuples, the median network won 92% bare against 88.75%
     * without, and under puct:1000 the mean rose from 90.3% to 98.5%, for about 1.8x the time); and
     * twice GBG's 70 tuples, which replay feeds (the median network won 97.5% bare with 140 and
     * replay, 92% with 70 and replay, 92.25% with 140 and no replay, for about twice the time). */
    const oxo_learn_defaults *ld = &want->learn;
    if (nt && !o.resume) {
        if (!starts_given && ld->starts > 0)
            o.cfg.starts = ld->starts;
        if (nt_depth == UINT64_MAX && ld->start_depth)
            o.cfg.nt_start_depth = (uint32_t)ld->start_depth;
        if (!replay_given && ld->replay) {
            o.cfg.replay_capacity = (uint32_t)ld->replay;
            if (!replay_ratio_given)
                o.cfg.replay_ratio = 1;
        }
        if (!nt_count && !tuple_file && ld->tuples)
            o.cfg.nt_count = (uint32_t)ld->tuples;
    }
    if (o.cfg.opp_agent_spec[0]) { /* a bad agent (a usage error, or a file it names), found before any work */
        int file_failed;
        oxo_agent *a = oxo_agent_open_ex(want, o.cfg.opp_agent_spec, &file_failed, msg, sizeof msg);
        if (!a) {
            fprintf(stderr, "%s: --opponent: %s\n", prog, msg);
            oxo_game_free(want);
            return file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
        }
        oxo_agent_free(a);
    }
    oxo_table_name(want->spec, name, sizeof name);
    if (!table && !oxo_find_data(name, found, sizeof found))
        table = found;
    if (!table && !nt) {
        fprintf(stderr, "%s: grading needs the solved table and %s was not found; make it with "
                "oxo-gen --game %s and pass --table FILE\n", prog, name, want->spec);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    oxo_player *truth = NULL;
    if (table) {
        oxo_table *tab;
        if (oxo_table_read(table, &tab, &err)) {
            fprintf(stderr, "%s: %s: %s\n", prog, table, err.msg);
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
        truth = oxo_player_from_table(tab, &err);
        if (!truth) {
            fprintf(stderr, "%s: %s: %s\n", prog, table, err.msg);
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
        if (oxo_player_takes(truth, table, OXO_TAKE_TABLE, &err)) {
            fprintf(stderr, "%s: --table: %s\n", prog, err.msg);
            oxo_player_close(truth);
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
        if (!oxo_game_same(truth->game, want)) {
            fprintf(stderr, "%s: %s is a table of %s, not of %s\n", prog, table, truth->game->spec, want->spec);
            oxo_player_close(truth);
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
    }
    o.game = truth ? truth->game : want;
    oxo_judge *judge = NULL;
    if (nt) {
        char jname[96];
        oxo_data_name(want->spec, ".judge", jname, sizeof jname);
        if (judge_path || !truth) {
            if (!judge_path && oxo_find_data(jname, found, sizeof found)) {
                fprintf(stderr, "%s: grading needs a table or a judged set of %s, and neither %s nor %s was "
                        "found; make one with oxo-gen --game %s --judge-set N -o FILE and pass --judge FILE\n",
                        prog, want->name, name, jname, want->spec);
                oxo_player_close(truth);
                oxo_game_free(want);
                return OXO_EXIT_FAIL;
            }
            judge = oxo_judge_read(o.game, judge_path ? judge_path : found, msg, sizeof msg);
        } else {
            judge = oxo_judge_from_table(truth, OXO_JUDGE_SIZE, 0, OXO_JUDGE_SEED, msg, sizeof msg);
        }
        if (!judge) {
            fprintf(stderr, "%s: %s\n", prog, msg);
            oxo_player_close(truth);
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
        if (perfect_games != UINT64_MAX)
            judge->perfect_games = (uint32_t)perfect_games;
        o.judge = judge;
    }
    /* Connect-4 without a table: the game's shipped opening book, when there is one, lets the
     * solver play the games against the perfect player at once (oxo-gen --book); with no such
     * games it is not opened (checking it costs most of a second on 6x5). */
    oxo_player *book = NULL;
    if (judge && !truth && want->solver && judge->perfect_games) {
        char bfound[4096];
        oxo_error berr;
        if (oxo_find_book(want->spec, bfound, sizeof bfound) == 0) {
            if (!(book = oxo_player_open_book(want, bfound, &berr))) {
                fprintf(stderr, "%s: %s\n", prog, berr.msg);
                oxo_judge_free(judge);
                oxo_game_free(want);
                return OXO_EXIT_FAIL;
            }
            judge->book = book;
        }
    }
    /* Inputs are read whole before any output is written; still, no output may be an input. */
    const char *inputs[] = {table, o.resume, judge_path};
    oxo_cli_signals(&stop_signal, oxo_atomic_abort);
    if (naxes) {
        int rc = sweep(&o, truth, axes, naxes, inputs, 3);
        oxo_player_close(truth);
        oxo_judge_free(judge);
        oxo_player_close(book);
        oxo_game_free(want);
        return oxo_cli_finish(prog, rc);
    }
    const char *outs[3] = {o.output};
    int nouts = 1;
    if (o.curve)
        outs[nouts++] = o.curve;
    if (o.plot)
        outs[nouts++] = o.plot;
    int rc = check_outputs(outs, nouts, inputs, 3);
    if (rc) {
        oxo_player_close(truth);
        oxo_judge_free(judge);
        oxo_player_close(book);
        oxo_game_free(want);
        return rc;
    }
    run_result r;
    curve_buf curve = {0};
    run(&o, truth, &r, o.curve || o.plot ? &curve : NULL);
    oxo_player_close(truth);
    rc = finish_run(&o, &r, &curve);
    oxo_judge_free(judge);
    oxo_player_close(book);
    oxo_game_free(want);
    return rc;
}

/* Reports a finished run (or why it failed, or where a signal stopped it) and the exit status. */
static int finish_run(const run_opts *op, const run_result *rp, curve_buf *cp)
{
    const run_opts o = *op;
    const run_result r = *rp;
    curve_buf curve = *cp;
    int rc;
    if (!r.ok) {
        free(curve.text);
        fprintf(stderr, "%s: %s\n", prog, r.err);
        return OXO_EXIT_FAIL;
    }
    if (r.stopped && r.episodes >= o.episodes) { /* in the search phase, which is not kept half done */
        free(curve.text);
        fprintf(stderr, "%s: stopped by signal %d in the search phase; the model saved in %s is the network "
                "before it, and the phase runs with: oxo-train --resume %s -o OTHER.oxm --episodes %llu "
                "--search-games %u\n", prog, stop_signal, r.output, r.output, (unsigned long long)o.episodes,
                o.search_games);
        print_result(&o, &r, o.json, NULL);
        if (o.json)
            printf("\n");
        oxo_cli_finish(prog, OXO_EXIT_OK);
        return oxo_cli_signal_status(stop_signal);
    }
    if (r.stopped) {
        free(curve.text);
        fprintf(stderr, "%s: stopped by signal %d at episode %llu of %llu; the model is saved in %s and "
                "continues with: oxo-train --resume %s -o OTHER.oxm --episodes %llu\n", prog, stop_signal,
                (unsigned long long)r.episodes, (unsigned long long)o.episodes, r.output, r.output,
                (unsigned long long)o.episodes);
        print_result(&o, &r, o.json, NULL);
        if (o.json)
            printf("\n");
        oxo_cli_finish(prog, OXO_EXIT_OK);
        return oxo_cli_signal_status(stop_signal);
    }
    if (o.plot && !stop_signal)
        plot(&curve, o.plot, oxo_algo_name(r.cfg.algo));
    free(curve.text);
    print_result(&o, &r, o.json, NULL);
    if (o.json)
        printf("\n");
    rc = oxo_cli_finish(prog, OXO_EXIT_OK);
    /* A signal that came after the last episode (during the grading or the save) let the work
     * finish; the exit status still says the process was signalled. */
    return stop_signal ? oxo_cli_signal_status(stop_signal) : rc;
}
