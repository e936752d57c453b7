/*
 * oxo-train's learning settings as one table (in the manner of redis's static_configs[]): each
 * row names the option, which is also its --sweep key, its type and range, the field of the run's
 * settings it sets, the argument and the help text of --help. oxo-train's getopt entries, its
 * "Learning" section of --help, the parsing of these options and of --sweep's values, and the
 * list of keys --sweep takes are all made from it, and the copies of the stored ones between a
 * run's settings and its model (a row's model field, formats/model_hyper.c's table); a new
 * numeric setting is a row here (and its field in oxo_train_config, and in oxo_model when the
 * model stores it). The rows without a field are the section's other options, parsed
 * where their forms are (schedules, traces, opponents), listed here so that --help keeps one order.
 */
#include "settings.h"

#include "cli.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define F(field) offsetof(oxo_train_config, field), sizeof(((oxo_train_config *)0)->field), 0
/* A setting the model stores: the run's field and the model's, which must be of one size (an
 * array of negative size stops the build otherwise). */
#define FM(field, mfield)                                                                          \
    offsetof(oxo_train_config, field),                                                             \
        sizeof(((oxo_train_config *)0)->field) +                                                   \
            0 * sizeof(char[sizeof(((oxo_train_config *)0)->field) ==                              \
                                    sizeof(((oxo_model *)0)->mfield)                               \
                                ? 1                                                                \
                                : -1]),                                                            \
        offsetof(oxo_model, mfield)
#define S(field) FM(field, field)

const oxo_setting oxo_settings[] = {
    {"alpha", OXO_SET_REAL, 1e-9, 1, S(alpha.start), OXO_SET_SWEEP | OXO_SET_ALPHA | OXO_SET_STORED,
     "A", "learning rate (default: q 1, td 0.5)", NULL},
    {"alpha-end", OXO_SET_REAL, 1e-9, 1, S(alpha.end),
     OXO_SET_SWEEP | OXO_SET_ALPHA_END | OXO_SET_STORED, "A",
     "final learning rate of a decaying schedule (default: alpha)", NULL},
    {"alpha-schedule", OXO_SET_OTHER, 0, 0, S(alpha.kind), OXO_SET_STORED, "S",
     "constant, linear or exponential (default: constant)", NULL},
    {"alpha-length", OXO_SET_COUNT, 0, (double)UINT64_MAX, S(alpha.length),
     OXO_SET_SWEEP | OXO_SET_STORED, "N", "episodes from alpha to alpha-end (default: 0)", NULL},
    {"epsilon", OXO_SET_REAL, 0, 1, S(epsilon.start), OXO_SET_SWEEP | OXO_SET_STORED, "E",
     "exploration at the start (default: 1)", NULL},
    {"epsilon-end", OXO_SET_REAL, 0, 1, S(epsilon.end), OXO_SET_SWEEP | OXO_SET_STORED, "E",
     "exploration at the end (default: 0.5)", NULL},
    {"epsilon-schedule", OXO_SET_OTHER, 0, 0, S(epsilon.kind), OXO_SET_STORED, "S",
     "constant, linear or exponential (default: exponential)", NULL},
    {"epsilon-length", OXO_SET_COUNT, 0, (double)UINT64_MAX, S(epsilon.length),
     OXO_SET_SWEEP | OXO_SET_STORED, "N", "episodes from start to end (default: 5000)", NULL},
    {"gamma", OXO_SET_REAL, 0, 1, S(gamma), OXO_SET_SWEEP | OXO_SET_STORED, "G",
     "discount (default: 0.9)", NULL},
    {"lambda", OXO_SET_REAL, 0, 1, S(lambda), OXO_SET_SWEEP | OXO_SET_STORED, "L",
     "td: trace decay, 0 is TD(0), 1 Monte Carlo (default: 0.5)", NULL},
    {"trace", OXO_SET_OTHER, 0, 0, 0, 0, 0, 0, "T",
     "td: accumulating or replacing (default: accumulating)", NULL},
    {"init", OXO_SET_REAL, -1, 1, S(init), OXO_SET_SWEEP | OXO_SET_STORED, "V",
     "initial value of every entry, -1 to 1 (default: 0.5)", NULL},
    {"no-symmetry", OXO_SET_OTHER, 0, 0, 0, 0, 0, 0, NULL,
     "learn over raw positions instead of canonical ones (neat:\n"
     "the network sees the board as it is, not oriented)",
     NULL},
    {"replay", OXO_SET_COUNT, 0, 1u << 24, S(replay_capacity), OXO_SET_SWEEP | OXO_SET_STORED, "N",
     "experience replay ring of N transitions (q) or episodes (td,\n"
     "ntuple: whole games)\n"
     "per worker, 0 for none (default: q 10000, td 0, ntuple\n"
     "2000 with gravity, as Connect-4, else 0)",
     NULL},
    {"replay-ratio", OXO_SET_REAL, 0, 64, S(replay_ratio), OXO_SET_SWEEP | OXO_SET_STORED, "R",
     "replayed updates per new transition or episode\n"
     "(default: q 8, else 1 when replay is on)",
     NULL},
    {"exploring-starts", OXO_SET_REAL, 0, 1, S(starts), OXO_SET_SWEEP | OXO_SET_STORED, "P",
     "share of episodes that start at a uniformly drawn reachable\n"
     "position instead of the empty board (default: 0)",
     NULL},
    {"opponent", OXO_SET_OTHER, 0, 0, 0, 0, 0, 0, "SPEC",
     "self, random, table, an agent (alphabeta:DEPTH,\n"
     "mcts:PLAYOUTS[:C], model:FILE, solver...), or shares\n"
     "such as self=0.6,random=0.2,alphabeta:2=0.2 (default: self)",
     NULL},
    {"population", OXO_SET_COUNT, 2, 100000, F(ne_population), OXO_SET_SWEEP, "N",
     "genomes in the population (default: 150)", "neat"},
    {"species", OXO_SET_COUNT, 1, 100000, F(ne_species), OXO_SET_SWEEP, "N",
     "species the compatibility threshold aims at (default: 10)", "neat"},
    {"positions", OXO_SET_COUNT, 1, 1u << 20, F(ne_positions), OXO_SET_SWEEP, "N",
     "training positions drawn from the table, where some\n"
     "move loses the value, or the first of --train-set (default: 4096)",
     "neat"},
    {"panel-games", OXO_SET_COUNT, 0, 1u << 20, F(ne_games), OXO_SET_SWEEP, "N",
     "games a colour against each of the panel (random,\n"
     "alphabeta:2, the last champion) where the game has no\n"
     "table; with one, its lines against the perfect player\n"
     "instead (default: 10)",
     "neat"},
    {"inputs", OXO_SET_OTHER, 0, 0, 0, 0, 0, 0, "I",
     "what the networks read: cells, an input a cell and an\noutput a move; tactics, those and "
     "three inputs a move:\nwhether it wins, blocks a win, or lets the other side\nwin; or "
     "afterstate, each move's board after it and\nits three tactics, one output scoring each "
     "move\n(default: tactics; afterstate is stronger on\nConnect-4)",
     "neat"},
    {"simulations", OXO_SET_COUNT, 2, 1u << 20, F(az_sims), OXO_SET_SWEEP, "N",
     "PUCT simulations a move in self-play (default: 100)", "azero"},
    {"games", OXO_SET_COUNT, 1, 1u << 20, F(az_games), OXO_SET_SWEEP, "N",
     "self-play games an iteration (default: 64)", "azero"},
    {"layers", OXO_SET_COUNT, 1, 4, F(az_layers), OXO_SET_SWEEP, "N",
     "hidden layers of the network (default: 2)", "azero"},
    {"width", OXO_SET_COUNT, 1, 1024, F(az_width), OXO_SET_SWEEP, "N",
     "units a hidden layer (default: 256)", "azero"},
    {"batch", OXO_SET_COUNT, 1, 1u << 16, F(az_batch), OXO_SET_SWEEP, "N",
     "positions a training batch (default: 128)", "azero"},
    {"window", OXO_SET_COUNT, 1, 1u << 22, F(az_window), OXO_SET_SWEEP, "N",
     "the latest self-play positions trained from\n(default: 100000)", "azero"},
    {"train-ratio", OXO_SET_REAL, 0, 1024, F(az_ratio), OXO_SET_SWEEP, "R",
     "positions trained a new position (default: 4)", "azero"},
    {"value-q", OXO_SET_REAL, 0, 1, F(az_value_q), OXO_SET_SWEEP, "Q",
     "share of the root's search value in the value target, the\nrest the game's result "
     "(default: 0.5)",
     "azero"},
    {"random-moves", OXO_SET_REAL, 0, 1, F(az_random), OXO_SET_SWEEP, "P",
     "share of self-play moves played at random (their\npositions still take the search's "
     "visits, and those\nbefore a random move worse than --random-margin its\nvalue alone; "
     "default: 0.2)",
     "azero"},
    {"random-games", OXO_SET_REAL, 0, 1, F(az_rgames), OXO_SET_SWEEP, "F",
     "share of each iteration's self-play games that play\n--random-moves, the others none "
     "(default: 0.75)",
     "azero"},
    {"random-margin", OXO_SET_REAL, -1, 2, F(az_rmargin), OXO_SET_SWEEP, "M",
     "a random move whose mean result in the search is\nwithin M of the best move's leaves the "
     "game's result\nin the value target of the positions before it; below 0,\nnone does "
     "(default: -1)",
     "azero"},
    {"inputs", OXO_SET_OTHER, 0, 0, 0, 0, 0, 0, "I",
     "what the network reads: cells, an input a cell and side;\nlines, "
     "the cells and each winning line's pattern of stones;\nor threats, those and each "
     "side's threats (cells that\ncomplete a line), playable now or not (default: threats)",
     "azero"},
    {"temperature-moves", OXO_SET_COUNT, 0, 64, F(az_temp_moves), OXO_SET_SWEEP, "N",
     "opening moves drawn in proportion to the visits, the\nrest the most visited "
     "(default: every move)",
     "azero"},
    /* Not in the section (-s, --seed is a run option), a sweep key all the same. */
    {"seed", OXO_SET_COUNT, 0, (double)UINT64_MAX, S(seed),
     OXO_SET_SWEEP | OXO_SET_HIDDEN | OXO_SET_STORED, "N", NULL, NULL},
    {NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, NULL},
};

const oxo_setting *oxo_setting_named(const char *name)
{
    for (const oxo_setting *s = oxo_settings; s->name; s++)
        if (s->type != OXO_SET_OTHER && !strcmp(s->name, name))
            return s;
    return NULL;
}

int oxo_setting_set(const oxo_setting *s, oxo_train_config *c, const char *val, int *alpha_end_set)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", s->name);
    if (s->algo && strcmp(s->algo, oxo_algo_name(c->algo))) {
        fprintf(stderr, "%s: %s goes with --algo %s\n", OXO_SETTINGS_PROG, opt, s->algo);
        return -1;
    }
    char *field = (char *)c + s->offset;
    if (s->type == OXO_SET_REAL) {
        double d;
        if (oxo_cli_double(OXO_SETTINGS_PROG, opt, val, s->lo, s->hi, &d))
            return -1;
        memcpy(field, &d, sizeof d);
        /* A constant schedule's end is its start, unless the end was given. */
        if ((s->flags & OXO_SET_ALPHA) && !*alpha_end_set)
            c->alpha.end = d;
        if (s->flags & OXO_SET_ALPHA_END)
            *alpha_end_set = 1;
        return 0;
    }
    uint64_t u;
    if (oxo_cli_u64(OXO_SETTINGS_PROG, opt, val, (uint64_t)s->lo,
                    s->hi >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)s->hi, &u))
        return -1;
    if (s->size == sizeof(uint32_t)) {
        uint32_t v = (uint32_t)u;
        memcpy(field, &v, sizeof v);
    } else
        memcpy(field, &u, sizeof u);
    return 0;
}

void oxo_settings_store(const oxo_train_config *c, oxo_model *m)
{
    for (const oxo_setting *s = oxo_settings; s->name; s++)
        if (s->flags & OXO_SET_STORED)
            memcpy((char *)m + s->model, (const char *)c + s->offset, s->size);
}

void oxo_settings_load(const oxo_model *m, oxo_train_config *c)
{
    for (const oxo_setting *s = oxo_settings; s->name; s++)
        if (s->flags & OXO_SET_STORED)
            memcpy((char *)c + s->offset, (const char *)m + s->model, s->size);
}

void oxo_settings_help(FILE *out)
{
    for (const oxo_setting *s = oxo_settings; s->name; s++) {
        if (s->flags & OXO_SET_HIDDEN)
            continue;
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
        fprintf(out, "      --%-21s", left);
        /* the first line beside the option (after the learner's name, for a learner's own
         * setting), the rest under it */
        for (const char *p = s->help; *p;) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            if (p == s->help && s->algo)
                fprintf(out, "%s: ", s->algo);
            fprintf(out, "%s%.*s\n", p == s->help ? "" : "                             ", (int)n,
                    p);
            p += n + (nl != NULL);
        }
    }
}

const char *oxo_settings_sweep_keys(char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = 0;
    for (const oxo_setting *s = oxo_settings; s->name && n < cap; s++)
        if (s->flags & OXO_SET_SWEEP) {
            int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", s->name);
            n += w > 0 ? (size_t)w : 0;
        }
    return buf;
}

/* Applies one learning setting by its option name (shared by the options and --sweep), from the
 * table. */
int oxo_setting_set_named(oxo_train_config *c, const char *key, const char *val, int *alpha_end_set)
{
    const oxo_setting *s = oxo_setting_named(key);
    if (!s) {
        char keys[400];
        fprintf(stderr,
                "%s: --sweep: unknown key '%s' (%s, and with --algo ntuple average defend "
                "tuple-lines)\n",
                OXO_SETTINGS_PROG, key, oxo_settings_sweep_keys(keys, sizeof keys));
        return -1;
    }
    return oxo_setting_set(s, c, val, alpha_end_set);
}
