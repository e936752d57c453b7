/*
 * oxo-train: trains a model by self-play, grades it against the solved table as it goes, writes
 * versioned model files; --sweep runs a grid of settings as independent runs. This file applies
 * what the command line gave (args.c) to a run's settings, checks them against each other, opens
 * the game and what grades it (a table, a judged set, a book), and hands over to run.c or sweep.c.
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
static int configure(train_args *a, run_opts *o)
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
            set_param(&o->cfg, a->learn_key[i], a->learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    for (int i = 0; i < a->nlearn; i++)
        if (strcmp(a->learn_key[i], "alpha-end") &&
            set_param(&o->cfg, a->learn_key[i], a->learn_val[i], &alpha_end_set))
            return OXO_EXIT_USAGE;
    if (o->cfg.replay_capacity && !a->replay_ratio_given && o->cfg.replay_ratio == 0)
        o->cfg.replay_ratio = 1;
    int rc = algo == OXO_ALGO_NTUPLE ? configure_ntuple(a, o) : 0;
    if (rc)
        return rc;
    if (algo != OXO_ALGO_NTUPLE && (a->nt_count || a->nt_len || a->nt_horizon || a->nt_sets ||
                                    a->nt_depth != UINT64_MAX || a->nt_target || a->tuple_file ||
                                    a->average >= 0 || a->defend >= 0 || a->tuple_lines >= 0)) {
        fprintf(stderr,
                "%s: --tuples, --tuple-len, --tuple-file, --tuple-lines, --horizon, --weight-sets, "
                "--exploring-depth, --td-target, --average, --defend and --no-defend go with "
                "--algo ntuple\n",
                prog);
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
    if (a->opponent && parse_opponent(a->opponent, &o->cfg))
        return OXO_EXIT_USAGE;
    if (algo == OXO_ALGO_NTUPLE && (o->cfg.opp_self < 1.0 || a->nosym)) {
        fprintf(
            stderr,
            "%s: --algo ntuple learns by self-play from the start (no --opponent other than self "
            "or --no-symmetry)\n",
            prog);
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

/* What a run is graded with, and the game it is of. */
typedef struct grading {
    oxo_game *want;    /* --game, else the resumed model's, else tictactoe */
    oxo_player *truth; /* the solved table, when there is one */
    oxo_judge *judge;  /* ntuple: the judged set */
    oxo_player *book;  /* Connect-4 without a table: the shipped opening book */
} grading;

static void grading_free(grading *gr)
{
    oxo_player_close(gr->truth);
    oxo_judge_free(gr->judge);
    oxo_player_close(gr->book);
    oxo_game_free(gr->want);
}

/* The search phase's options go with n-tuple runs, and --perfect-games and --judge with their
 * grading: checked once the algorithm is known (a resumed run takes it from the model). */
static int check_network_options(const train_args *a, int nt)
{
    if ((a->search_games || a->search_iter != UINT64_MAX || a->search_alpha > 0) && !nt) {
        fprintf(
            stderr,
            "%s: --search-games, --search-iterations and --search-alpha go with --algo ntuple\n",
            prog);
        return OXO_EXIT_USAGE;
    }
    if ((a->search_iter != UINT64_MAX || a->search_alpha > 0) && !a->search_games) {
        fprintf(stderr, "%s: --search-iterations and --search-alpha go with --search-games\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    if (a->perfect_games != UINT64_MAX && !nt) {
        fprintf(stderr,
                "%s: --perfect-games goes with --algo ntuple, which is graded on a judged set\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    if (a->judge_path && !nt) {
        fprintf(stderr, "%s: --judge goes with --algo ntuple, which is graded on a judged set\n",
                prog);
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

/* The truth: the solved table (--table, else the game's shipped one) grades the tabular runs; an
 * n-tuple run is graded on a judged set (drawn from the table when there is one, else read from
 * --judge or the game's shipped set) and needs no table. 0, else the exit status. */
static int open_truth(const train_args *a, int nt, grading *gr)
{
    char found[4096], name[80];
    const char *table = a->table;
    const oxo_game *want = gr->want;
    oxo_error err;
    oxo_table_name(want->spec, name, sizeof name);
    if (!table && !oxo_find_data(name, found, sizeof found))
        table = found;
    if (!table && !nt) {
        fprintf(stderr,
                "%s: grading needs the solved table and %s was not found; make it with "
                "oxo-gen --game %s and pass --table FILE\n",
                prog, name, want->spec);
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
    if (!nt)
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
        oxo_player *sv = oxo_player_open_solver(game, gr->book, &err);
        gr->judge = sv ? oxo_judge_from_truth(sv, OXO_JUDGE_SIZE, OXO_JUDGE_SOLVER_STONES,
                                              OXO_JUDGE_SEED, &err)
                       : NULL;
        oxo_player_close(sv);
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

/* The game and what grades the run: 0, else the exit status. */
static int open_grading(const train_args *a, run_opts *o, grading *gr)
{
    char mgame[48] = "tictactoe";
    int nt = a->algo == OXO_ALGO_NTUPLE;
    oxo_error err;
    if (o->resume) {
        oxo_model *m;
        if (oxo_model_read(o->resume, &m, &err)) {
            fprintf(stderr, "%s: %s: %s\n", prog, o->resume, err.msg);
            return OXO_EXIT_FAIL;
        }
        nt = !strcmp(m->algo, "ntuple");
        snprintf(mgame, sizeof mgame, "%s", m->game);
        oxo_model_free(m);
    }
    int rc = check_network_options(a, nt);
    if (rc)
        return rc;
    o->search_alpha = a->search_alpha;
    o->search_games = (uint32_t)a->search_games;
    o->search_iterations =
        a->search_iter == UINT64_MAX ? OXO_SEARCH_ITERATIONS : (uint32_t)a->search_iter;
    if (!(gr->want = oxo_game_open(a->spec ? a->spec : mgame, &err))) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    if (nt && !o->resume)
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
    if ((rc = open_truth(a, nt, gr)))
        return rc;
    o->game = gr->truth ? oxo_player_game(gr->truth) : gr->want;
    o->judge = gr->judge;
    return 0;
}

int main(int argc, char **argv)
{
    static train_args a; /* large (the sweep's grid): not on the stack */
    a.episodes = 20000;
    a.seed = 1;
    a.workers = 1;
    a.nt_depth = a.perfect_games = a.search_iter = UINT64_MAX; /* not given */
    a.average = a.tuple_lines = -1;
    a.defend = -1;
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
    const char *inputs[] = {a.table, o.resume, a.judge_path};
    oxo_cli_signals(&stop_signal, oxo_atomic_abort);
    if (a.naxes) {
        rc = sweep(&o, gr.truth, a.axes, a.naxes, inputs, 3);
        grading_free(&gr);
        return oxo_cli_finish(prog, rc);
    }
    const char *outs[3] = {o.output};
    int nouts = 1;
    if (o.curve)
        outs[nouts++] = o.curve;
    if (o.plot)
        outs[nouts++] = o.plot;
    if ((rc = check_outputs(outs, nouts, inputs, 3))) {
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
