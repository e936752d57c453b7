/*
 * oxo-train's command line applied to a run's settings (run_opts): the defaults of --algo, the
 * learning settings by name, opponents, schedules, n-tuple networks, and the checks of the options
 * against each other. Shared by the program (main.c) and the page that trains in the browser
 * (train/web/learn.c), so that a run set up in the page is the command line's run.
 */
#include "agent.h"
#include "cli.h"
#include "settings.h"
#include "train.h"

#include "azero.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "run.h"

static const char *prog = "oxo-train";

/* One opponent of --opponent: self, random and table are the trainer's own; anything else is an
 * agent spec (lookup/agents/agent.h: alphabeta:2, mcts:200, model:FILE...), at most one agent. */
static int opponent_share(const char *name, double v, oxo_train_config *c)
{
    if (!strcmp(name, "self"))
        c->opp_self = v;
    else if (!strcmp(name, "random"))
        c->opp_random = v;
    else if (!strcmp(name, "table"))
        c->opp_table = v;
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
    if (!strchr(buf, ',')) {
        char *eq = strrchr(buf, '=');
        char *end;
        int share = eq && eq[1] && (strtod(eq + 1, &end), !*end);
        if (eq && (!strncmp(buf, "self=", 5) || !strncmp(buf, "random=", 7) ||
                   !strncmp(buf, "table=", 6)))
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
    fprintf(stderr,
            "%s: --opponent: '%s', expected self, random, table, an agent spec (alphabeta:2, "
            "mcts:200, ...) or shares like self=0.6,random=0.2,alphabeta:2=0.2\n",
            prog, s);
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
    if (oxo_algo_cli(algo)->network_rounds) {
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
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln && !rc;
         ln = strtok_r(NULL, "\n", &save)) {
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
                fprintf(
                    stderr,
                    "%s: --tuple-file %s line %d: expected at most %d cell numbers from 0 to 63 a "
                    "line and at most %d lines\n",
                    prog, path, line, OXO_NTUPLE_MAX_LEN, OXO_NTUPLE_MAX_COUNT);
                rc = -1;
                break;
            }
            cells[c * OXO_NTUPLE_MAX_LEN + k++] = (uint8_t)v;
        }
        if (rc || !k)
            continue;
        if (l && k != l) {
            fprintf(stderr, "%s: --tuple-file %s line %d: %u cells, the tuples before have %u\n",
                    prog, path, line, k, l);
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

/* --average F on an n-tuple run: the mean of the weights taken every hundredth of the run, in
 * whole rounds, from the first such episode within the last share F (0: the last weights). */
int set_average(run_opts *o, double average)
{
    o->cfg.avg_every = 0;
    o->cfg.avg_from = 0;
    if (average <= 0)
        return 0;
    const uint64_t rs = o->cfg.sync, every = ((o->episodes + 99) / 100 + rs - 1) / rs * rs;
    const uint64_t span = (uint64_t)(average * (double)o->episodes);
    const uint64_t from = o->episodes - (span < o->episodes ? span : o->episodes);
    if (every > UINT32_MAX) {
        fprintf(stderr,
                "%s: --average: a hundredth of %llu episodes is more rounds than it can count "
                "(--average 0: the last weights)\n",
                prog, (unsigned long long)o->episodes);
        return -1;
    }
    o->cfg.avg_every = (uint32_t)every;
    o->cfg.avg_from = (from + every - 1) / every * every;
    return 0;
}

/* The n-tuple learner's settings from the arguments: 0, else the exit status. */
static int configure_ntuple(const train_args *a, run_opts *o)
{
    static uint8_t tuple_cells[OXO_NTUPLE_MAX_COUNT * OXO_NTUPLE_MAX_LEN];
    if (!learned(a, "alpha-length"))
        o->cfg.alpha.length = o->episodes;
    if (!learned(a, "epsilon-length"))
        o->cfg.epsilon.length = o->episodes;
    if (a->nt_count)
        o->cfg.nt_count = (uint32_t)a->nt_count;
    if (a->nt_len)
        o->cfg.nt_len = (uint32_t)a->nt_len;
    o->cfg.nt_horizon = a->nt_horizon ? (uint32_t)a->nt_horizon : oxo_train_horizon(o->cfg.lambda);
    o->cfg.nt_sets = (uint32_t)a->nt_sets;
    o->cfg.nt_start_depth = a->nt_depth == UINT64_MAX ? 0 : (uint32_t)a->nt_depth;
    o->cfg.nt_target = a->nt_target;
    o->cfg.nt_defend = a->defend;
    if (set_average(o, a->average < 0 ? OXO_NT_AVERAGE : a->average))
        return OXO_EXIT_USAGE;
    if (a->tuple_lines >= 0)
        o->cfg.nt_lines = a->tuple_lines;
    if (a->tuple_file) {
        if (a->nt_count || a->nt_len || a->tuple_lines >= 0) {
            fprintf(stderr,
                    "%s: --tuple-file gives the tuples; --tuples, --tuple-len and --tuple-lines go "
                    "without it\n",
                    prog);
            return OXO_EXIT_USAGE;
        }
        if (read_tuples(a->tuple_file, tuple_cells, &o->cfg.nt_count, &o->cfg.nt_len))
            return OXO_EXIT_FAIL;
        o->cfg.nt_cells = tuple_cells;
    }
    return 0;
}

/* The run's settings from the arguments, checked against each other: 0, else the exit status. */
int configure(train_args *a, run_opts *o)
{
    if (a->naxes && !grid_size(a->axes, a->naxes)) {
        fprintf(stderr, "%s: --sweep: the grid has more than %d runs\n", prog, MAX_RUNS);
        return OXO_EXIT_USAGE;
    }
    if (a->naxes && (a->curve || a->plot)) {
        fprintf(stderr, "%s: --curve and --plot draw one run; a --sweep prints its table instead\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    if (a->plot) {
        const char *dot = strrchr(a->plot, '.');
        if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg"))) {
            fprintf(stderr, "%s: --plot: '%s', expected a file name ending in .png or .svg\n", prog,
                    a->plot);
            return OXO_EXIT_USAGE;
        }
    }
    if (a->resume && (a->learning_given || a->seed_given || a->workers_given || a->naxes)) {
        fprintf(stderr,
                "%s: --resume continues with the model's own settings; learning options, "
                "--seed, --workers and --sweep cannot be combined with it\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    o->episodes = a->episodes;
    const oxo_learner_cli *cli = oxo_algo_cli(a->algo);
    if (cli->episodes && !a->episodes_given)
        o->episodes = cli->episodes; /* a generation of neat, an iteration of azero */
    o->eval_every = a->eval_every;
    o->checkpoint_every = a->checkpoint_every;
    o->output = a->output;
    o->resume = a->resume;
    o->curve = a->curve;
    o->plot = a->plot;
    o->json = a->json;
    o->quiet = a->quiet;
    const oxo_algo algo = a->algo;
    oxo_train_defaults(&o->cfg, algo);
    o->cfg.seed = a->seed;
    o->cfg.workers = (uint32_t)a->workers;
    if (a->sync)
        o->cfg.sync = (uint32_t)a->sync;
    else if (a->workers > 1)
        o->cfg.sync = default_sync(o, algo);
    if (a->nosym)
        o->cfg.symmetric = 0;
    int alpha_end_set = 0;
    for (int i = 0; i < a->nlearn; i++)
        if (!strcmp(a->learn_key[i], "alpha-end") &&
            oxo_setting_set_named(&o->cfg, a->learn_key[i], a->learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    for (int i = 0; i < a->nlearn; i++)
        if (strcmp(a->learn_key[i], "alpha-end") &&
            oxo_setting_set_named(&o->cfg, a->learn_key[i], a->learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    if (o->cfg.replay_capacity && !a->replay_ratio_given && o->cfg.replay_ratio == 0)
        o->cfg.replay_ratio = 1;
    int rc = cli->tuple_options ? configure_ntuple(a, o) : 0;
    if (rc)
        return rc;
    char names[160];
    if (!cli->tuple_options && (a->nt_count || a->nt_len || a->nt_horizon || a->nt_sets ||
                                a->nt_depth != UINT64_MAX || a->nt_target || a->tuple_file ||
                                a->average >= 0 || a->defend >= 0 || a->tuple_lines >= 0)) {
        fprintf(stderr,
                "%s: --tuples, --tuple-len, --tuple-file, --tuple-lines, --horizon, --weight-sets, "
                "--exploring-depth, --td-target, --average, --defend and --no-defend go with "
                "--algo %s\n",
                prog,
                oxo_algo_names_with(offsetof(oxo_learner_cli, tuple_options), names, sizeof names));
        return OXO_EXIT_USAGE;
    }
    if (a->alpha_sched && parse_schedule_kind("--alpha-schedule", a->alpha_sched, &o->cfg.alpha))
        return OXO_EXIT_USAGE;
    if (a->eps_sched && parse_schedule_kind("--epsilon-schedule", a->eps_sched, &o->cfg.epsilon))
        return OXO_EXIT_USAGE;
    if (a->trace) {
        if (strcmp(a->trace, "accumulating") && strcmp(a->trace, "replacing")) {
            fprintf(stderr, "%s: --trace: '%s', expected accumulating or replacing\n", prog,
                    a->trace);
            return OXO_EXIT_USAGE;
        }
        o->cfg.replacing = !strcmp(a->trace, "replacing");
    }
    if (a->inputs) {
        const char *const *kinds = cli->inputs;
        int k = 0;
        while (kinds && kinds[k] && strcmp(a->inputs, kinds[k]))
            k++;
        if (!kinds) {
            char algos[64];
            fprintf(stderr, "%s: --inputs goes with --algo %s\n", prog,
                    oxo_algo_names_inputs(algos, sizeof algos));
            return OXO_EXIT_USAGE;
        }
        if (!kinds[k]) {
            fprintf(stderr, "%s: --inputs: '%s', expected", prog, a->inputs);
            for (int i = 0; kinds[i]; i++)
                fprintf(stderr, "%s %s", i == 0 ? "" : kinds[i + 1] ? "," : " or", kinds[i]);
            fprintf(stderr, " with --algo %s\n", oxo_algo_name(algo));
            return OXO_EXIT_USAGE;
        }
        *(int *)((char *)&o->cfg + cli->inputs_field) = k;
    }
    if (a->opponent && parse_opponent(a->opponent, &o->cfg))
        return OXO_EXIT_USAGE;
    if (cli->self_play && (o->cfg.opp_self < 1.0 || a->nosym)) {
        fprintf(stderr,
                "%s: --algo %s learns by self-play from the start (no --opponent other than self "
                "or --no-symmetry)\n",
                prog, oxo_algo_name(algo));
        return OXO_EXIT_USAGE;
    }
    if (!strcmp(o->cfg.epsilon.kind, "exponential") &&
        (o->cfg.epsilon.start <= 0 || o->cfg.epsilon.end <= 0)) {
        fprintf(stderr,
                "%s: an exponential epsilon schedule needs --epsilon and --epsilon-end above 0\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    static char default_output[64]; /* NAME.oxm: q.oxm, td.oxm, ntuple.oxm */
    snprintf(default_output, sizeof default_output, "%s.oxm", oxo_algo_name(algo));
    if (!o->output)
        o->output = default_output;
    /* With several workers, rounds matter: grading and saving must fall on round ends. */
    if (!o->resume && o->cfg.workers > 1 &&
        ((o->eval_every && o->eval_every % o->cfg.sync) ||
         (o->checkpoint_every && o->checkpoint_every % o->cfg.sync))) {
        fprintf(stderr,
                "%s: with %u workers, --eval-every and --checkpoint-every must be multiples of "
                "--sync (%u)\n",
                prog, o->cfg.workers, o->cfg.sync);
        return OXO_EXIT_USAGE;
    }
    o->progress = !o->quiet && isatty(STDERR_FILENO) && !a->naxes;
    /* A curve or a plot without grading points would be empty: grade at 100 points. */
    o->implied_eval = o->curve || o->plot;
    return 0;
}
