/*
 * oxo-train --sweep: every combination of the swept settings as an independent run (its own model
 * file, OUTPUT-KEYVALUE...), ranked in one table.
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
#include "run.h"

static const char *prog = "oxo-train";

/* A setting of one run of a sweep: the learning settings as oxo_setting_set_named has them, and the
 * n-tuple learner's --average, --tuple-lines (shares) and --defend (0 or 1), which only go with
 * --algo ntuple. */
static int set_sweep_param(run_opts *o, const char *key, const char *val, int *alpha_end_set)
{
    const int avg = !strcmp(key, "average"), def = !strcmp(key, "defend"),
              lines = !strcmp(key, "tuple-lines");
    if (!avg && !def && !lines)
        return oxo_setting_set_named(&o->cfg, key, val, alpha_end_set);
    if (!oxo_algo_cli(o->cfg.algo)->tuple_options) {
        char names[160];
        fprintf(stderr, "%s: --sweep: '%s' goes with --algo %s\n", prog, key,
                oxo_algo_names_with(offsetof(oxo_learner_cli, tuple_options), names, sizeof names));
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

/* Labels and names hold every key and value of the grid (MAX_SWEEP keys and values of at most 31
 * characters each), so they are never cut. */
#define LABEL_MAX (MAX_SWEEP * (32 + 1 + 32 + 1))

typedef struct {
    run_opts opts;
    run_result res;
    char label[LABEL_MAX];
    char out[1024 + LABEL_MAX];
} sweep_run;

/* Appends to a string of capacity cap, never past it: returns -1 when it would not fit. */
static int append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
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
    uint64_t lx = x->grade.losses_as_x + x->grade.losses_as_o,
             ly = y->grade.losses_as_x + y->grade.losses_as_o;
    if (lx != ly)
        return lx > ly ? 1 : -1;
    if (x->episodes_to_perfect != y->episodes_to_perfect)
        return x->episodes_to_perfect > y->episodes_to_perfect ? 1 : -1;
    if (x->grade.accuracy_distance != y->grade.accuracy_distance)
        return x->grade.accuracy_distance < y->grade.accuracy_distance ? 1 : -1;
    return strcmp(((const sweep_run *)a)->label, ((const sweep_run *)b)->label);
}

int sweep(const run_opts *base, const oxo_player *truth, sweep_axis *axes, int naxes,
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
            cut |= append(s->label, sizeof s->label, "%s%s=%s", a ? "," : "", axes[a].key,
                          axes[a].val[v]);
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
            fprintf(stderr, "%s: %s: %s\n", prog, runs[r].label, runs[r].res.err.msg);
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
        printf("| rank | settings | value kept | distance-optimal | losses X/O | episodes to "
               "perfect | model |\n");
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
                   (unsigned long long)(x->grade.judged ? x->grade.perfect_as_x[2]
                                                        : x->grade.losses_as_x),
                   (unsigned long long)(x->grade.judged ? x->grade.perfect_as_o[2]
                                                        : x->grade.losses_as_o),
                   x->grade.judged ? " to the perfect player" : " exhaustive", etp, runs[r].out);
        }
    }
    free(runs);
    if (stop_signal) {
        fprintf(stderr,
                "%s: stopped by signal %d; each model holds what its run learned so far and "
                "resumes with --resume\n",
                prog, stop_signal);
        return oxo_cli_signal_status(stop_signal);
    }
    return failed ? OXO_EXIT_FAIL : OXO_EXIT_OK;
}
