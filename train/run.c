/*
 * One run of oxo-train from start (or resume) to the end: the trainer's rounds with grading at
 * intervals, checkpoints, the search phase, the learning curve and its plot, the report (text or
 * JSON) and the exit status, and --strip. main.c reads the command line into a run_opts.
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
#include "run.h"

static const char *prog = "oxo-train";

volatile int stop_signal;

void curve_add(curve_buf *b, const char *fmt, ...)
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

static int save(oxo_trainer *t, const oxo_grade *g, const char *parent, const char *path,
                char *hash, oxo_error *err)
{
    oxo_model *m = oxo_trainer_model(t, g, parent);
    if (!m) {
        oxo_fail(err, OXO_E_NOMEM, "the model to save at %s", path);
        return -1;
    }
    int rc = oxo_model_write(path, m, err);
    if (!rc)
        memcpy(hash, m->hash, 17);
    oxo_model_free(m);
    return rc ? -1 : 0;
}

/* The search phase's progress line (a terminal only): games, their rate and what is left. */
static void search_progress(void *ctx, uint32_t done, uint32_t games)
{
    const double el = oxo_seconds() - *(const double *)ctx;
    fprintf(stderr, "\r%s: search phase %u/%u games, %.0f games/s, ETA %.0f s   ", prog, done,
            games, el > 0 ? done / el : 0, done ? el * (games - done) / done : 0);
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
        oxo_fail(&r->err, OXO_E_NOMEM, "the search phase");
    r->stopped = rc > 0;
    r->searched = rc ? 0 : o->search_games;
    oxo_trainer_searched(t, NULL, &r->search_alpha);
    return rc;
}

/* One point of the curve; `averaged`: how many snapshots of the weights the graded mean holds (0:
 * the weights of the moment). */
static void curve_row(curve_buf *f, const oxo_trainer *t, const oxo_grade *g, double eps,
                      uint32_t averaged, double secs)
{
    const oxo_train_config *c = oxo_trainer_config(t);
    uint64_t k = oxo_trainer_episodes(t);
    curve_add(f,
              "%llu,%.6f,%.6f,%.6f,%.6f,%llu,%llu,%u,%u,%u,%u,%u,%u,%.0f,%u,%u,%u,%u,%u,%u,%.1f\n",
              (unsigned long long)k, oxo_schedule_at(&c->epsilon, k), oxo_schedule_at(&c->alpha, k),
              g->accuracy, g->accuracy_distance, (unsigned long long)g->losses_as_x,
              (unsigned long long)g->losses_as_o, g->random_as_x[0], g->random_as_x[1],
              g->random_as_x[2], g->random_as_o[0], g->random_as_o[1], g->random_as_o[2], eps,
              g->perfect_games, g->perfect_as_x[0], g->perfect_as_x[1], g->perfect_as_o[0],
              g->perfect_as_o[1], averaged, secs);
}

/* The next multiple of step after k, when it comes before limit (step 0: no stops). */
static uint64_t stop_before(uint64_t k, uint64_t step, uint64_t limit)
{
    if (!step)
        return limit;
    uint64_t next = (k / step + 1) * step;
    return next < limit ? next : limit;
}

static int save_curve(const char *path, const curve_buf *b, oxo_error *err)
{
    if (b->failed) {
        oxo_fail(err, OXO_E_NOMEM, "keeping the curve");
        return -1;
    }
    return oxo_atomic_write(path, b->text, b->len, err) ? -1 : 0;
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
void run(const run_opts *o, const oxo_player *truth, run_result *r, curve_buf *curve)
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
            r->err = e;
            oxo_context(&r->err, "%s", o->resume);
            return;
        }
        t = oxo_trainer_resume_on(m, o->game, truth, o->cfg.ne_train, &r->err);
        memcpy(parent, m->hash, 17);
        if (t && m->workers > 1 && m->episodes % m->sync)
            fprintf(stderr,
                    "%s: warning: %s stopped inside a round of %u episodes; the continued run "
                    "will not equal an uninterrupted one\n",
                    prog, o->resume, m->sync);
        if (t && m->episodes > o->episodes) {
            oxo_fail(&r->err, OXO_E_ARG, "%s already has %llu episodes, more than --episodes %llu",
                     o->resume, (unsigned long long)m->episodes, (unsigned long long)o->episodes);
            oxo_trainer_free(t);
            t = NULL;
        }
        oxo_model_free(m);
    } else {
        t = oxo_trainer_new_on(&o->cfg, o->game, truth, &r->err);
    }
    if (!t)
        return;
    oxo_trainer_set_judge(t, o->judge);
    const oxo_train_config *c = oxo_trainer_config(t);
    r->cfg = *c;
    /* A model that could never be saved is refused before any work, not after it. */
    uint64_t bound = oxo_trainer_model_bound(t, o->episodes);
    if (bound > OXO_MAX_BODY) {
        /* a checkpoint holds the mean so far beside the weights */
        const int avg = c->avg_every > 0;
        oxo_fail(&r->err, OXO_E_ARG,
                 "the model would take up to %llu MB (the values%s, %u replay rings "
                 "of %u records), more than the %u MB a model file may hold; lower --replay or "
                 "--workers%s",
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
        curve_add(
            curve,
            "episode,epsilon,alpha,accuracy,accuracy_distance,exhaustive_losses_as_x,"
            "exhaustive_losses_as_o,random_as_x_wins,random_as_x_draws,random_as_x_losses,"
            "random_as_o_wins,random_as_o_draws,random_as_o_losses,episodes_per_second,perfect_"
            "games,"
            "perfect_as_x_wins,perfect_as_x_draws,perfect_as_o_wins,perfect_as_o_draws,averaged,"
            "train_seconds\n");
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
            oxo_fail(&r->err, OXO_E_ARG,
                     "%s went through a search phase already (%u games of puct:%u); "
                     "resume it to more episodes first",
                     o->resume, done, it);
        else
            search_phase(t, o, r);
    }
    while (!r->err.code && oxo_trainer_episodes(t) < o->episodes && !stop_signal) {
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
        /* the network becomes the mean of the weights averaged (--average) */
        if (next == o->episodes) {
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
                oxo_fail(&r->err, OXO_E_NOMEM, "grading");
                break;
            }
            if (!light)
                grade_secs = oxo_seconds() - g0;
            graded = 1;
            graded_at_end = next == o->episodes;
        }
        if (at_eval) {
            if (curve)
                curve_row(curve, t, &g, last_eps, next == o->episodes ? r->averaged : mean,
                          train_time);
            if (oxo_grade_perfect(&g) && r->episodes_to_perfect == UINT64_MAX)
                r->episodes_to_perfect = next;
        }
        if (at_ckpt && save(t, &g, parent[0] ? parent : NULL, o->output, parent, &r->err))
            break;
        if (at_ckpt && o->curve && save_curve(o->curve, curve, &r->err))
            break;
        if (o->progress) {
            /* The ETA of the whole run: the training left at the rate so far, and the grading at
             * the end (as long as the last full one took; said when none has been timed yet). A
             * grade is shown once there is one. */
            double left =
                next > start_ep && next < o->episodes
                    ? train_time * (double)(o->episodes - next) / (double)(next - start_ep)
                    : 0;
            int grade_left = next < o->episodes;
            char acc[48] = "";
            if (graded)
                snprintf(acc, sizeof acc, ", %s %.2f%%", g.judged ? "value kept" : "accuracy",
                         100 * g.accuracy);
            fprintf(stderr,
                    "\r%s: %llu/%llu episodes, %.0f episodes/s, epsilon %.3f%s, ETA %.0f s%s   ",
                    prog, (unsigned long long)next, (unsigned long long)o->episodes, last_eps,
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
    /* stopped: what it saves plays */
    if (!r->err.code && !graded_at_end && oxo_trainer_grade_mean(t, 1, &g))
        oxo_fail(&r->err, OXO_E_NOMEM, "grading");
    if (!r->err.code && !eval_every && oxo_grade_perfect(&g) &&
        r->episodes_to_perfect == UINT64_MAX && oxo_trainer_episodes(t) > start_ep && !r->stopped)
        /* graded only at the end: an upper bound */
        r->episodes_to_perfect = oxo_trainer_episodes(t);
    if (!r->err.code && save(t, &g, parent[0] ? parent : NULL, o->output, r->hash, &r->err) == 0)
        r->ok = 1;
    if (r->ok && o->curve && save_curve(o->curve, curve, &r->err))
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
void plot(const curve_buf *curve, const char *out, const char *algo)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr,
                "%s: plot skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n", prog);
        return;
    }
    const char *dot = strrchr(out, '.');
    int svg = dot && strcmp(dot, ".svg") == 0;
    char csv[4200], img[4200];
    int cfd = temp_file(csv, sizeof csv, ".csv"),
        ifd = temp_file(img, sizeof img, svg ? ".svg" : ".png");
    FILE *gp = NULL;
    if (cfd < 0 || ifd < 0 || curve->failed ||
        write(cfd, curve->text, curve->len) != (ssize_t)curve->len ||
        !(gp = popen("gnuplot", "w"))) {
        fprintf(stderr, "%s: plot skipped: cannot prepare the files for gnuplot\n", prog);
    } else {
        fprintf(gp, "set terminal %s size 900,540\nset output ", svg ? "svg" : "png");
        gp_quoted(gp, img);
        fprintf(gp,
                "\nset datafile separator ','\nset key bottom right\nset xlabel 'episodes'\n"
                "set ylabel 'share'\nset yrange [0:1.05]\n"
                "set title 'oxo-train --algo %s: learning curve'\nplot ",
                algo);
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

/* An AlphaZero-lite network without its window of self-play positions and with Adam's moments
 * zeroed (they then weigh nothing compressed): the number of positions dropped. Its steps stay, so
 * that the trainer knows such a network (steps without a window) and refuses to resume it. */
static uint32_t strip_azero(oxo_model *m)
{
    uint32_t dropped = m->az_count;
    int moments = 0;
    for (uint64_t i = 0; m->az_adam && i < 2 * (uint64_t)m->nvalues; i++)
        moments |= m->az_adam[i] != 0;
    if (!dropped && !moments)
        return 0;
    free(m->az_codes), free(m->az_targets);
    m->az_codes = NULL, m->az_targets = NULL;
    m->az_count = m->az_head = 0;
    if (m->az_adam)
        memset(m->az_adam, 0, 2 * (size_t)m->nvalues * sizeof *m->az_adam);
    return dropped ? dropped : 1;
}

/* --strip: the model without its replay rings (an AlphaZero-lite network: its window and its
 * optimiser's state), for shipping; the original becomes its parent. It plays the same and can no
 * longer be resumed (its settings ask for rings it does not have). A model without them has
 * nothing to strip and is written unchanged, so stripping twice gives the bytes of stripping
 * once. */
int strip_model(const char *in, const char *out, int json)
{
    oxo_model *m;
    oxo_error err;
    if (oxo_model_read(in, &m, &err)) {
        fprintf(stderr, "%s: %s: %s\n", prog, in, err.msg);
        return OXO_EXIT_FAIL;
    }
    uint32_t rings = m->nrings;
    const uint32_t window = m->az_layers ? m->az_count : 0;
    const int az = m->az_layers && strip_azero(m);
    if (rings) {
        for (uint32_t r = 0; r < m->nrings; r++)
            free(m->rings[r].items);
        free(m->rings);
        m->rings = NULL;
        m->nrings = 0;
    }
    if (rings || az)
        memcpy(m->parent, m->hash, sizeof m->parent);
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
        printf(",\"rings_removed\":%u,\"window_removed\":%u}\n", rings, window);
    } else if (az) {
        printf("%s: %s without its window of %u self-play positions and its optimiser's state "
               "(hash %s, parent %s); it plays the same and can no longer be resumed\n",
               out, in, window, m->hash, m->parent);
    } else if (rings) {
        printf(
            "%s: %s without its %u replay ring%s (hash %s, parent %s); it plays the same and can "
            "no longer be resumed\n",
            out, in, rings, rings == 1 ? "" : "s", m->hash, m->parent);
    } else {
        printf("%s: %s has no replay rings, nothing to strip: written unchanged (hash %s)\n", out,
               in, m->hash);
    }
    oxo_model_free(m);
    return OXO_EXIT_OK;
}

/* Before any work: no output may be an input or another output (it would destroy what is read, or
 * what another output wrote), and each must be writable. Exit code, 0 when all is well. */
int check_outputs(const char *const *outs, int nouts, const char *const *ins, int nins)
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

/* Reports a finished run (or why it failed, or where a signal stopped it) and the exit status. */
int finish_run(const run_opts *op, const run_result *rp, curve_buf *cp)
{
    const run_opts o = *op;
    const run_result r = *rp;
    curve_buf curve = *cp;
    int rc;
    if (!r.ok) {
        free(curve.text);
        fprintf(stderr, "%s: %s\n", prog, r.err.msg);
        return OXO_EXIT_FAIL;
    }
    /* in the search phase, which is not kept half done */
    if (r.stopped && r.episodes >= o.episodes) {
        free(curve.text);
        fprintf(
            stderr,
            "%s: stopped by signal %d in the search phase; the model saved in %s is the network "
            "before it, and the phase runs with: oxo-train --resume %s -o OTHER.oxm --episodes "
            "%llu "
            "--search-games %u\n",
            prog, stop_signal, r.output, r.output, (unsigned long long)o.episodes, o.search_games);
        print_result(&o, &r, o.json, NULL);
        if (o.json)
            printf("\n");
        oxo_cli_finish(prog, OXO_EXIT_OK);
        return oxo_cli_signal_status(stop_signal);
    }
    if (r.stopped) {
        free(curve.text);
        fprintf(stderr,
                "%s: stopped by signal %d at episode %llu of %llu; the model is saved in %s and "
                "continues with: oxo-train --resume %s -o OTHER.oxm --episodes %llu\n",
                prog, stop_signal, (unsigned long long)r.episodes, (unsigned long long)o.episodes,
                r.output, r.output, (unsigned long long)o.episodes);
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
