/*
 * oxo-train's command line read into train_args: --help's text, the table of options (a number in
 * a range, a file name or a flag into a field, in getopt's order), the few options read by hand,
 * and the learning settings of settings.c, collected by name.
 */
#include "args.h"
#include "cli.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *prog = "oxo-train";

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: oxo-train [OPTION]...\n"
        "Learn a game by self-play with tabular Q-learning, TD(lambda) or an n-tuple network,\n"
        "grade the model against the solved table (or a judged set) and write it.\n"
        "\n"
        "Run:\n"
        "  -a, --algo q|td|ntuple|neat|azero\n"
        "                             learner: tabular Q-learning, tabular TD(lambda), a "
        "TD(lambda)\n"
        "                             n-tuple network for boards too large for a table, NEAT\n"
        "                             (evolved networks; an episode is a generation, default 300)\n"
        "                             or AlphaZero-lite (a policy-value network learned by PUCT\n"
        "                             self-play; an episode is an iteration, default 100)\n"
        "                             (default: q)\n"
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
        "                             opponent (default: the game's, e.g. the shipped "
        "tictactoe.oxt)\n"
        "      --resume FILE          continue from a saved model with its settings\n"
        "      --checkpoint-every K   save the model every K episodes (default: 0, never)\n"
        "      --strip FILE           write FILE without its replay rings (azero: its window\n"
        "                             and optimiser state) to --output, for shipping\n"
        "                             (it plays the same; it can no longer be resumed)\n"
        "\n"
        "Learning (defaults: the values of a plain run, which learns perfect play):\n");
    oxo_settings_help(out);
    fprintf(
        out,
        "\n"
        "n-tuple networks (--algo ntuple; self-play; defaults: GBG's Connect-4 agent):\n"
        "      --tuples N             tuples, made by random walks over neighbouring cells drawn\n"
        "                             from the seed (default: 140 with gravity, as Connect-4,\n"
        "                             else 70)\n"
        "      --tuple-len L          cells per tuple, 1 to 12 (default: 8); a network holds at\n"
        "                             most 16777216 weights (with gravity, of the fillings a\n"
        "                             board can have: 140 tuples of 8 cells on 7x6 take 3.3 M)\n"
        "      --tuple-lines F        the share of the walks, 0 to 1, that start from a whole "
        "line\n"
        "                             of the game's k cells in a row, the four directions in "
        "turn,\n"
        "                             instead of one cell; 0: GBG's walks (default: 1)\n"
        "      --tuple-file FILE      the tuples instead: one a line, its cells as numbers\n"
        "                             row * columns + column, row 0 on top\n"
        "      --horizon H            afterstates whose traces are kept (default: while lambda^j "
        "is\n"
        "                             10%% or more, 4 for lambda 0.5)\n"
        "      --weight-sets S        2: a set of weights for each player, 1: one set that both\n"
        "                             players' afterstates read (default: 2 with gravity, else 1)\n"
        "      --exploring-depth D    an exploring start (--exploring-starts) plays fewer than D\n"
        "                             random moves, 0: any number up to the end (default: 12 on\n"
        "                             Connect-4, else 0)\n"
        "      --td-target T          what an afterstate learns toward: own, the same player's "
        "next\n"
        "                             afterstate (each weight set from its own values), or next,\n"
        "                             the opponent's, negated (default: own with gravity, else "
        "next)\n"
        "      --average F            save the mean of the network's weights over the last F of "
        "the\n"
        "                             run, 0 to 1, taken every hundredth of the run; 0: the last\n"
        "                             weights (default: 0.3)\n"
        "      --defend, --no-defend  self-play's second player, valuing every move below -0.5,\n"
        "                             plays the one after which the first player's best reply is\n"
        "                             worth least (two plies over the network), as a perfect\n"
        "                             player resists; 1.2x-1.4x the time (default: on with\n"
        "                             gravity, as Connect-4, else off)\n"
        "      --search-games N       then N games of self-play led by puct over the network, the\n"
        "                             move the search plays in each position learning toward the\n"
        "                             search's value of it (30%% of the moves of the first 12 "
        "plies\n"
        "                             drawn at random); with --resume at the model's own\n"
        "                             episodes, the phase alone (default: 0, none)\n"
        "      --search-iterations K  the search's iterations a move (default: 200)\n"
        "      --search-alpha A       the phase's learning rate (default: the run's last alpha)\n"
        "      --judge FILE           the judged set to grade on, from oxo-gen --judge-set "
        "(default:\n"
        "                             2,000 positions drawn from the game's table, else the "
        "game's\n"
        "                             shipped set, e.g. connect4-7-6.judge); solver: 2,000 "
        "positions\n"
        "                             of 10 stones or more drawn the same way, valued by the "
        "solver\n"
        "                             (Connect-4; minutes on 7x6, over all threads)\n"
        "      --perfect-games N      games a colour against the perfect player at each grading,\n"
        "                             where there is one (the table, or the solver with the "
        "game's\n"
        "                             opening book); 0: none (default: 200)\n"
        "      with ntuple, --alpha defaults to 0.004 decaying exponentially to 0.002, --epsilon "
        "to\n"
        "      0.1 falling linearly to 0, both over --episodes; --gamma 1; on Connect-4\n"
        "      --exploring-starts to 0.3 (a share of games begun after a few random moves)\n"
        "\n"
        "NEAT (--algo neat; its settings --population, --species, --positions and --panel-games\n"
        "are above):\n"
        "      --train-set FILE       the judged positions it learns from (oxo-gen --judge-set,\n"
        "                             drawn with another seed than the set that grades the run;\n"
        "                             positions of that set are left out), for games without a\n"
        "                             table such as Connect-4 7x6; --judge and --perfect-games\n"
        "                             then grade it as an n-tuple run (default: positions drawn\n"
        "                             from the game's table)\n"
        "\n"
        "Grading and output:\n"
        "      --eval-every K         grade every K episodes (default: 0, only at the end)\n"
        "      --curve FILE.csv       write the learning curve; with --average, a point from the\n"
        "                             averaging's start grades the mean of the weights so far\n"
        "      --plot FILE            draw the curve (.png or .svg) with gnuplot, if installed\n"
        "      --sweep KEY=V1,V2,...  run every combination as an independent run (repeatable);\n"
        "                             keys: alpha gamma lambda epsilon epsilon-end epsilon-length\n"
        "                             init replay replay-ratio exploring-starts seed, and for\n"
        "                             ntuple average and tuple-lines (0 to 1) and defend (0 or "
        "1);\n"
        "                             models go to OUTPUT-KEYVALUE...\n"
        "      --json                 print a JSON summary (one object; an array with --sweep)\n"
        "  -q, --quiet                no progress line (it is shown only on a terminal anyway)\n"
        "  -h, --help                 show this help and exit\n"
        "  -V, --version              show the version and exit\n"
        "\n"
        "Exit status: 0 ok, 1 failure, 2 bad usage.\n");
}

/* The options with a value of their own kind: a number in a range or a file name into a field of
 * train_args, a flag setting a field to `lo`; `learning` marks the settings --resume refuses. The
 * others (TA_OTHER) are read in parse_args. The order is getopt's (ambiguous abbreviations list
 * their candidates in it). */
typedef enum { TA_U64, TA_DOUBLE, TA_STR, TA_FLAG, TA_OTHER } train_arg_kind;
typedef struct train_opt {
    const char *name;
    int val; /* getopt's: a letter, or 256 + the row */
    train_arg_kind kind;
    uint64_t lo, hi;
    double dlo, dhi;
    size_t field;
    int learning;
} train_opt;

#define TO(f) offsetof(train_args, f)
static const train_opt train_opts[] = {
    {"algo", 'a', TA_OTHER, 0, 0, 0, 0, 0, 0},
    {"episodes", 'e', TA_U64, 1, UINT64_MAX / 2, 0, 0, TO(episodes), 0},
    {"seed", 's', TA_U64, 0, UINT64_MAX, 0, 0, TO(seed), 0},
    {"output", 'o', TA_OTHER, 0, 0, 0, 0, 0, 0},
    {"workers", 'w', TA_U64, 1, 4096, 0, 0, TO(workers), 0},
    {"sync", 0, TA_U64, 1, UINT32_MAX, 0, 0, TO(sync), 1},
    {"tuples", 0, TA_U64, 1, OXO_NTUPLE_MAX_COUNT, 0, 0, TO(nt_count), 1},
    {"tuple-len", 0, TA_U64, 1, OXO_NTUPLE_MAX_LEN, 0, 0, TO(nt_len), 1},
    {"horizon", 0, TA_U64, 1, 64, 0, 0, TO(nt_horizon), 1},
    {"judge", 0, TA_STR, 0, 0, 0, 0, TO(judge_path), 0},
    {"weight-sets", 0, TA_U64, 1, 2, 0, 0, TO(nt_sets), 1},
    {"exploring-depth", 0, TA_U64, 0, 64, 0, 0, TO(nt_depth), 1},
    {"td-target", 0, TA_OTHER, 0, 0, 0, 0, 0, 1},
    {"average", 0, TA_DOUBLE, 0, 0, 0, 1, TO(average), 1},
    {"defend", 0, TA_FLAG, 1, 0, 0, 0, TO(defend), 1},
    {"no-defend", 0, TA_FLAG, 0, 0, 0, 0, TO(defend), 1},
    {"tuple-file", 0, TA_STR, 0, 0, 0, 0, TO(tuple_file), 1},
    {"train-set", 0, TA_STR, 0, 0, 0, 0, TO(train_set), 0},
    {"perfect-games", 0, TA_U64, 0, 100000, 0, 0, TO(perfect_games), 0},
    {"tuple-lines", 0, TA_DOUBLE, 0, 0, 0, 1, TO(tuple_lines), 1},
    {"search-games", 0, TA_U64, 0, OXO_MAX_SEARCH_GAMES, 0, 0, TO(search_games), 0},
    {"search-iterations", 0, TA_U64, 1, OXO_MAX_SEARCH_ITERATIONS, 0, 0, TO(search_iter), 0},
    {"search-alpha", 0, TA_DOUBLE, 0, 0, 1e-9, 1, TO(search_alpha), 0},
    {"table", 't', TA_STR, 0, 0, 0, 0, TO(table), 0},
    {"resume", 0, TA_STR, 0, 0, 0, 0, TO(resume), 0},
    {"checkpoint-every", 0, TA_U64, 0, UINT64_MAX, 0, 0, TO(checkpoint_every), 0},
    {"alpha-schedule", 0, TA_STR, 0, 0, 0, 0, TO(alpha_sched), 1},
    {"epsilon-schedule", 0, TA_STR, 0, 0, 0, 0, TO(eps_sched), 1},
    {"trace", 0, TA_STR, 0, 0, 0, 0, TO(trace), 1},
    {"inputs", 0, TA_STR, 0, 0, 0, 0, TO(inputs), 1},
    {"no-symmetry", 0, TA_FLAG, 1, 0, 0, 0, TO(nosym), 1},
    {"opponent", 0, TA_STR, 0, 0, 0, 0, TO(opponent), 1},
    {"eval-every", 0, TA_U64, 0, UINT64_MAX, 0, 0, TO(eval_every), 0},
    {"curve", 0, TA_STR, 0, 0, 0, 0, TO(curve), 0},
    {"plot", 0, TA_STR, 0, 0, 0, 0, TO(plot), 0},
    {"sweep", 0, TA_OTHER, 0, 0, 0, 0, 0, 0},
    {"json", 0, TA_FLAG, 1, 0, 0, 0, TO(json), 0},
    {"strip", 0, TA_STR, 0, 0, 0, 0, TO(strip), 0},
    {"game", 'g', TA_STR, 0, 0, 0, 0, TO(spec), 0},
    {"quiet", 'q', TA_FLAG, 1, 0, 0, 0, TO(quiet), 0},
    {"help", 'h', TA_OTHER, 0, 0, 0, 0, 0, 0},
    {"version", 'V', TA_OTHER, 0, 0, 0, 0, 0, 0},
    {NULL, 0, TA_OTHER, 0, 0, 0, 0, 0, 0}};
#undef TO

/* One option of the table read into a (row r): 0, or the exit status of a usage error. */
static int take_option(train_args *a, int r, const char *arg)
{
    const train_opt *t = &train_opts[r];
    char *field = (char *)a + t->field, opt[48];
    snprintf(opt, sizeof opt, "--%s", t->name);
    a->learning_given |= t->learning;
    switch (t->kind) {
    case TA_U64:
        return oxo_cli_u64(prog, opt, arg, t->lo, t->hi, (uint64_t *)(void *)field) ? OXO_EXIT_USAGE
                                                                                    : 0;
    case TA_DOUBLE:
        return oxo_cli_double(prog, opt, arg, t->dlo, t->dhi, (double *)(void *)field)
                   ? OXO_EXIT_USAGE
                   : 0;
    case TA_STR:
        *(const char **)(void *)field = arg;
        return 0;
    case TA_FLAG:
        *(int *)(void *)field = (int)t->lo;
        return 0;
    case TA_OTHER:
        break;
    }
    return 0;
}

/* The options that are not a plain value: --algo, -o, --td-target, --sweep, --help, --version.
 * 0 go on, -1 done (help or version printed), else the exit status of a usage error. */
static int take_other(train_args *a, const char *name, const char *arg)
{
    if (!strcmp(name, "algo") && oxo_algo_named(arg, &a->algo)) {
        char names[200];
        fprintf(stderr, "%s: --algo: '%s', expected %s\n", prog, arg,
                oxo_algo_names(names, sizeof names));
        return OXO_EXIT_USAGE;
    }
    if (!strcmp(name, "output")) {
        if (!*arg) {
            fprintf(stderr, "%s: --output: empty file name\n", prog);
            return OXO_EXIT_USAGE;
        }
        if (!strcmp(arg, "-")) { /* a model is saved at each checkpoint and resumed from: a file */
            fprintf(
                stderr,
                "%s: -o -: a model goes to a file (saved again at each checkpoint, resumed from), "
                "not to standard output; name a file\n",
                prog);
            return OXO_EXIT_USAGE;
        }
        a->output = arg;
    }
    if (!strcmp(name, "td-target")) {
        if (strcmp(arg, "next") && strcmp(arg, "own")) {
            fprintf(stderr, "%s: --td-target: '%s', expected next or own\n", prog, arg);
            return OXO_EXIT_USAGE;
        }
        a->nt_target = strcmp(arg, "own") ? OXO_NT_TARGET_NEXT : OXO_NT_TARGET_OWN;
    }
    if (!strcmp(name, "sweep")) {
        if (a->naxes == MAX_SWEEP) {
            fprintf(stderr, "%s: --sweep: at most %d keys\n", prog, MAX_SWEEP);
            return OXO_EXIT_USAGE;
        }
        if (parse_sweep(arg, &a->axes[a->naxes++]))
            return OXO_EXIT_USAGE;
        for (int i = 0; i + 1 < a->naxes; i++)
            if (!strcmp(a->axes[i].key, a->axes[a->naxes - 1].key)) {
                fprintf(stderr, "%s: --sweep: key '%s' given twice; list all its values once\n",
                        prog, a->axes[i].key);
                return OXO_EXIT_USAGE;
            }
    }
    if (!strcmp(name, "help")) {
        usage(stdout);
        return -1;
    }
    if (!strcmp(name, "version")) {
        printf("oxo-train %s\n", OXO_VERSION);
        return -1;
    }
    return 0;
}

/* Reads the command line into a: -1 go on, else the exit status to leave with. */
/* --sweep KEY=V1,V2,...: one axis of the grid. */
int parse_sweep(const char *arg, sweep_axis *ax)
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
            fprintf(stderr, "%s: --sweep: at most %d values of at most 31 characters per key\n",
                    prog, MAX_VALUES);
            return -1;
        }
        snprintf(ax->val[ax->n++], sizeof ax->val[0], "%s", tok);
    }
    return 0;
}

/* The size of a grid, or 0 when it has more than MAX_RUNS runs. */
int grid_size(const sweep_axis *axes, int naxes)
{
    int total = 1;
    for (int i = 0; i < naxes; i++) {
        if (axes[i].n > MAX_RUNS / total)
            return 0;
        total *= axes[i].n;
    }
    return total;
}

void train_args_defaults(train_args *a)
{
    memset(a, 0, sizeof *a);
    a->episodes = 20000;
    a->seed = 1;
    a->workers = 1;
    a->nt_depth = a->perfect_games = a->search_iter = UINT64_MAX; /* not given */
    a->average = a->tuple_lines = -1;
    a->defend = -1;
}

int parse_args(int argc, char **argv, train_args *a)
{
    /* The options of the table, then the learning settings of settings.c, each its row's index
     * above O_SETTING. */
    enum { O_ROW = 256, O_SETTING = 1000 };
    static struct option opts[sizeof train_opts / sizeof *train_opts + 64];
    size_t nopts = 0;
    char letters[64] = ":";
    for (int r = 0; train_opts[r].name; r++) {
        const train_opt *t = &train_opts[r];
        int has_arg = t->kind == TA_FLAG || !strcmp(t->name, "help") || !strcmp(t->name, "version")
                          ? no_argument
                          : required_argument;
        opts[nopts++] = (struct option){t->name, has_arg, 0, t->val ? t->val : O_ROW + r};
        if (t->val)
            snprintf(letters + strlen(letters), sizeof letters - strlen(letters), "%c%s", t->val,
                     has_arg == required_argument ? ":" : "");
    }
    for (int i = 0; oxo_settings[i].name; i++)
        if (oxo_settings[i].type != OXO_SET_OTHER && !(oxo_settings[i].flags & OXO_SET_HIDDEN))
            opts[nopts++] =
                (struct option){oxo_settings[i].name, required_argument, 0, O_SETTING + i};
    opts[nopts] = (struct option){0, 0, 0, 0};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
        int r = -1;
        for (int k = 0; train_opts[k].name && r < 0; k++)
            if (train_opts[k].val ? train_opts[k].val == c : O_ROW + k == c)
                r = k;
        if (r >= 0) {
            int rc = train_opts[r].kind == TA_OTHER ? take_other(a, train_opts[r].name, optarg)
                                                    : take_option(a, r, optarg);
            if (train_opts[r].kind == TA_OTHER)
                a->learning_given |= train_opts[r].learning;
            if (rc)
                return rc < 0 ? oxo_cli_finish(prog, OXO_EXIT_OK) : rc;
            a->seed_given |= c == 's';
            a->workers_given |= c == 'w';
            a->episodes_given |= c == 'e';
            continue;
        }
        if (c < O_SETTING)
            return oxo_cli_bad_option(prog, c, argv, opts);
        /* A learning setting of the table (settings.c), applied once --algo is known. */
        if (a->nlearn == 64) {
            fprintf(stderr, "%s: too many options\n", prog);
            return OXO_EXIT_USAGE;
        }
        const char *key = oxo_settings[c - O_SETTING].name;
        a->learn_key[a->nlearn] = key;
        a->learn_val[a->nlearn++] = optarg;
        a->learning_given = 1;
        a->replay_ratio_given |= !strcmp(key, "replay-ratio");
        a->replay_given |= !strcmp(key, "replay");
        a->starts_given |= !strcmp(key, "exploring-starts");
    }
    return oxo_cli_no_operands(prog, argc, argv) ? OXO_EXIT_USAGE : -1;
}

/* Whether a setting was given by name. */
int learned(const train_args *a, const char *key)
{
    for (int i = 0; i < a->nlearn; i++)
        if (!strcmp(a->learn_key[i], key))
            return 1;
    return 0;
}
