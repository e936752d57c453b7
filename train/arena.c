/*
 * oxo-arena: round-robin tournaments between agents (lookup/agents/agent.h) on any game, rated by a
 * Bradley-Terry fit (rating.h) and, where an exact table exists, each agent's moves graded
 * against it (the share of moves that keep the game value).
 *
 * Every pair plays N games with each colour. Game k draws its moves from the stream (seed, k) and
 * is played by whichever thread takes it, with that thread's own agents (agents keep scratch
 * memory); results are kept per game and summed in game order, so the output is the same bytes
 * for a seed whatever the thread count.
 */
#include "agent.h"
#include "cli.h"
#include "format.h"
#include "datadir.h"
#include "judge.h"
#include "player.h"
#include "rating.h"
#include "rng.h"

#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "oxo-arena";

#define MAX_AGENTS 64

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: oxo-arena --agent SPEC --agent SPEC [OPTION]...\n"
            "Play a round-robin tournament between agents on one game, every pair with both\n"
            "colours, and rank them by a Bradley-Terry fit on the Elo scale.\n"
            "\n"
            "  -g, --game SPEC       tictactoe (default), mnk:W,H,K, connect4:W,H or connect4\n"
            "  -a, --agent SPEC      an agent, given 2 to 64 times: [NAME=]random, table[:FILE],\n"
            "                        model:FILE, solver[:MS|:nodes=N][:value=FILE][:book=FILE],\n"
            "                        solver:outcome[:book=FILE], alphabeta:DEPTH[:value=FILE],\n"
            "                        mcts:PLAYOUTS[:C][:value=FILE],\n"
            "                        puct:ITERATIONS[:C]:value=FILE (a search led by a model),\n"
            "                        qtable:FILE (the JSON Q-table of a tic-tac-toe Q-learning app)\n"
            "      --book FILE       Connect-4: the solver agents without a :book=FILE of their\n"
            "                        own look positions up in this opening book (oxo-gen --book)\n"
            "                        before they search (default: the game's shipped book,\n"
            "                        connect4-W-H-book.oxt, when there is one)\n"
            "      --no-book         Connect-4: those solver agents search from the first move\n"
            "  -n, --games N         games per pair and colour (default: 10)\n"
            "  -s, --seed N          seed of every game's random stream (default: 1)\n"
            "  -j, --threads N       games played in parallel (default: every core)\n"
            "      --anchor NAME     the agent rated 0 (default: the first random agent, else the\n"
            "                        first agent)\n"
            "      --bootstrap N     resamples for the 95%% intervals (default: 200; 0: none)\n"
            "      --judge SPEC      grade every move against this table: table[:FILE], or none\n"
            "                        (default: the game's table when it is found); or FILE, a\n"
            "                        table or a judged set (oxo-gen --judge-set, e.g. the shipped\n"
            "                        connect4-7-6.judge): each agent then picks a move in each of\n"
            "                        its positions, the share that keeps the value reported with a\n"
            "                        95%% interval\n"
            "      --svg FILE        draw the pairwise score matrix as an SVG heat map\n"
            "      --json            print the ratings and the matrix as JSON\n"
            "  -h, --help            show this help and exit\n"
            "  -V, --version         show the version and exit\n"
            "\n"
            "Output: a ranked Markdown table (Elo, 95%% interval, games, score, share of moves that\n"
            "keep the game value) and the matrix of scores, row against column. Exit status: 0\n"
            "done, 1 failure, 2 bad usage.\n");
}

typedef struct game_out {
    double score;          /* for the first agent of the pair */
    int first_moves[2];    /* moves graded: [0] agent a, [1] agent b */
    int kept[2];
} game_out;

typedef struct task {
    int a, b, a_is_x;
} task;

/* Plays one game; fills out. */
static void play(const oxo_game *g, oxo_agent **ag, const task *t, uint64_t seed, uint64_t k,
                 const oxo_player *judge, game_out *out)
{
    uint64_t rng = oxo_rng_stream(seed, k);
    oxo_pos p = oxo_start(g);
    memset(out, 0, sizeof *out);
    while (oxo_status_of(g, p) == OXO_ONGOING) {
        int x_moves = oxo_x_to_move(g, p);
        int side = (x_moves == t->a_is_x) ? 0 : 1; /* 0: agent a moves */
        oxo_agent *who = ag[side ? t->b : t->a];
        int m = oxo_agent_pick(who, p, &rng);
        if (m < 0 || !(oxo_legal(g, p) >> m & 1)) { /* an agent without an answer loses */
            out->score = side ? 1.0 : 0.0;
            return;
        }
        oxo_pos c = oxo_play(g, p, m);
        int v, d, cv, cd;
        if (judge && oxo_player_value(judge, p, &v, &d) == 0 && oxo_player_value(judge, c, &cv, &cd) == 0) {
            out->first_moves[side]++;
            out->kept[side] += -cv == v;
        }
        p = c;
    }
    oxo_status st = oxo_status_of(g, p);
    if (st == OXO_OVER_DRAW)
        out->score = 0.5;
    else { /* the side to move lost */
        int x_won = !oxo_x_to_move(g, p);
        out->score = x_won == t->a_is_x ? 1.0 : 0.0;
    }
}

/* A solver agent without an opening book of its own (:book=FILE): the one --book or the shipped
 * book goes to. */
static int wants_book(const oxo_agent *a)
{
    return !strcmp(oxo_agent_kind(a), "solver") && !oxo_agent_book(a);
}

static void json_num(double v)
{
    if (isfinite(v))
        printf("%.1f", v);
    else
        printf("null");
}

/* The heat map's colour of a score v in 0..1: orange (241, 163, 64) at 0 through white at 0.5 to
 * blue (103, 169, 207) at 1, a scale that readers who cannot tell red from green can read. */
static void heat_colour(double v, int *R, int *G, int *B)
{
    const double t = v < 0.5 ? (0.5 - v) * 2 : (v - 0.5) * 2;
    const int end[2][3] = { { 241, 163, 64 }, { 103, 169, 207 } }, *e = end[v >= 0.5];
    *R = (int)lround(255 - t * (255 - e[0]));
    *G = (int)lround(255 - t * (255 - e[1]));
    *B = (int)lround(255 - t * (255 - e[2]));
}

int main(int argc, char **argv)
{
    enum { O_JSON = 256, O_SVG, O_JUDGE, O_BOOT, O_ANCHOR, O_BOOK, O_NOBOOK };
    static const struct option opts[] = {
        { "game", required_argument, 0, 'g' },   { "agent", required_argument, 0, 'a' },
        { "games", required_argument, 0, 'n' },  { "seed", required_argument, 0, 's' },
        { "threads", required_argument, 0, 'j' }, { "json", no_argument, 0, O_JSON },
        { "svg", required_argument, 0, O_SVG },  { "judge", required_argument, 0, O_JUDGE },
        { "bootstrap", required_argument, 0, O_BOOT }, { "anchor", required_argument, 0, O_ANCHOR },
        { "book", required_argument, 0, O_BOOK }, { "no-book", no_argument, 0, O_NOBOOK },
        { "help", no_argument, 0, 'h' },         { "version", no_argument, 0, 'V' },
        { 0, 0, 0, 0 } };
    const char *spec = "tictactoe", *specs[MAX_AGENTS], *svg = NULL, *judge_spec = NULL, *anchor_name = NULL;
    const char *book_file = NULL;
    int nagents = 0, json = 0, no_book = 0, c;
    uint64_t games = 10, seed = 1, threads = 0, boot = 200;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:a:n:s:j:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g': spec = optarg; break;
        case 'a':
            if (nagents == MAX_AGENTS) {
                fprintf(stderr, "%s: --agent: at most %d agents\n", prog, MAX_AGENTS);
                return OXO_EXIT_USAGE;
            }
            specs[nagents++] = optarg;
            break;
        case 'n':
            if (oxo_cli_u64(prog, "--games", optarg, 1, 1000000, &games))
                return OXO_EXIT_USAGE;
            break;
        case 's':
            if (oxo_cli_u64(prog, "--seed", optarg, 0, UINT64_MAX, &seed))
                return OXO_EXIT_USAGE;
            break;
        case 'j':
            if (oxo_cli_u64(prog, "--threads", optarg, 1, 1024, &threads))
                return OXO_EXIT_USAGE;
            break;
        case O_BOOT:
            if (oxo_cli_u64(prog, "--bootstrap", optarg, 0, 100000, &boot))
                return OXO_EXIT_USAGE;
            break;
        case O_JSON: json = 1; break;
        case O_SVG: svg = optarg; break;
        case O_JUDGE: judge_spec = optarg; break;
        case O_ANCHOR: anchor_name = optarg; break;
        case O_BOOK: book_file = optarg; break;
        case O_NOBOOK: no_book = 1; break;
        case 'h': usage(stdout); return oxo_cli_finish(prog, OXO_EXIT_OK);
        case 'V': printf("oxo-arena %s\n", OXO_VERSION); return oxo_cli_finish(prog, OXO_EXIT_OK);
        default: return oxo_cli_bad_option(prog, c, argv, opts);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (nagents < 2) {
        fprintf(stderr, "%s: give at least two agents (--agent SPEC, twice or more)\nTry '%s --help'.\n", prog, prog);
        return OXO_EXIT_USAGE;
    }
    if (judge_spec && (!*judge_spec || (!strncmp(judge_spec, "table", 5) && judge_spec[5] && judge_spec[5] != ':'))) {
        fprintf(stderr, "%s: --judge: '%s', expected table[:FILE], FILE (a table or a judged set) or none\n", prog,
                judge_spec);
        return OXO_EXIT_USAGE;
    }
    char msg[400];
    oxo_game *g = oxo_game_open(spec, msg, sizeof msg);
    if (!g) {
        fprintf(stderr, "%s: --game: %s\n", prog, msg);
        return OXO_EXIT_USAGE;
    }
    if ((book_file || no_book) && (!g->solver || (book_file && no_book))) {
        fprintf(stderr, "%s: --book or --no-book (not both) go with a Connect-4 game (--game connect4...)\n", prog);
        oxo_game_free(g);
        return OXO_EXIT_USAGE;
    }
    int nthreads = threads ? (int)threads : omp_get_max_threads();
    int rc = OXO_EXIT_FAIL;
    oxo_player *book = NULL;
    oxo_agent **ag = calloc((size_t)nthreads * (size_t)nagents, sizeof *ag);
    task *tasks = NULL;
    game_out *outs = NULL;
    oxo_game_result *res = NULL;
    oxo_player *judge = NULL;
    oxo_judge *jset = NULL; /* --judge FILE of a judged set */
    char judge_path[4096] = "";
    if (!ag)
        goto out;
    /* Each thread its own agents, opened from the same specs (the first set checks the specs). */
    int file_failed = 0;
    for (int t = 0; t < nthreads; t++)
        for (int i = 0; i < nagents; i++)
            if (!(ag[t * nagents + i] = oxo_agent_open_ex(g, specs[i], &file_failed, msg, sizeof msg))) {
                fprintf(stderr, "%s: --agent: %s\n", prog, msg);
                rc = file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
                goto out;
            }
    for (int i = 0; i < nagents; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(oxo_agent_name(ag[i]), oxo_agent_name(ag[j]))) {
                fprintf(stderr, "%s: --agent: two agents are called '%s'; name them with NAME=SPEC\n", prog,
                        oxo_agent_name(ag[i]));
                rc = OXO_EXIT_USAGE;
                goto out;
            }
    /* The solver agents take the opening book as oxo-play's do: without it each of a solver's
     * first moves on 7x6 is a search of minutes (102 s for the empty board here), and within a
     * budget (solver:MS) they would play the opening by the fallback, not exactly. One book, opened
     * once, read-only, lent to every thread's agents that have none of their own. */
    int want_book = 0;
    for (int i = 0; i < nagents; i++)
        want_book |= wants_book(ag[i]);
    if ((book_file || no_book) && !want_book) {
        fprintf(stderr, "%s: --book or --no-book go with a solver agent (--agent solver...) without a :book=FILE of its "
                "own\n", prog);
        rc = OXO_EXIT_USAGE;
        goto out;
    }
    char bfound[4096];
    if (!book_file && !no_book && g->solver && want_book && oxo_find_book(g->spec, bfound, sizeof bfound) == 0)
        book_file = bfound;
    if (book_file && want_book) {
        oxo_error err;
        if (!(book = oxo_player_open_book(g, book_file, &err))) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
            goto out;
        }
        for (int i = 0; i < nthreads * nagents; i++)
            if (wants_book(ag[i]))
                oxo_agent_borrow_book(ag[i], book);
    }
    int anchor = 0;
    for (int i = nagents - 1; i >= 0; i--)
        if (!strcmp(oxo_agent_kind(ag[i]), "random"))
            anchor = i;
    if (anchor_name) {
        anchor = -1;
        for (int i = 0; i < nagents; i++)
            if (!strcmp(oxo_agent_name(ag[i]), anchor_name))
                anchor = i;
        if (anchor < 0) {
            fprintf(stderr, "%s: --anchor: no agent is called '%s'\n", prog, anchor_name);
            rc = OXO_EXIT_USAGE;
            goto out;
        }
    }
    /* The judge: an exact table, the game's own unless told otherwise, or a judged set. */
    /* --judge FILE: a judged set (text) when it reads as one, else a table. */
    char judge_found[4096];
    if (judge_spec && strcmp(judge_spec, "none") && strncmp(judge_spec, "table", 5)) {
        judge_spec = oxo_data_path(judge_spec, judge_found, sizeof judge_found); /* a shipped set by name */
        char jmsg[400];
        FILE *jf = fopen(judge_spec, "rb");
        int text = 0;
        if (jf) {
            int ch = fgetc(jf);
            text = ch == '#' || ch == 'g'; /* a judged set's comment or "game" line; a table starts \x89OXO */
            fclose(jf);
        }
        if (text && !(jset = oxo_judge_read(g, judge_spec, jmsg, sizeof jmsg))) {
            fprintf(stderr, "%s: --judge: %s\n", prog, jmsg);
            goto out;
        }
        snprintf(judge_path, sizeof judge_path, "%s", judge_spec);
    }
    if (!jset && (!judge_spec || strcmp(judge_spec, "none"))) {
        const char *file = judge_spec && !strncmp(judge_spec, "table", 5) ? (judge_spec[5] == ':' ? judge_spec + 6 : NULL)
                                                                          : judge_spec;
        if (!file) {
            char name[128];
            oxo_table_name(g->spec, name, sizeof name);
            if (oxo_find_data(name, judge_path, sizeof judge_path) == 0)
                file = judge_path;
            else if (judge_spec) {
                fprintf(stderr, "%s: --judge: no table of %s found (%s); give table:FILE\n", prog, g->name, name);
                goto out;
            }
        }
        if (file) {
            oxo_error err;
            if (file != judge_path)
                snprintf(judge_path, sizeof judge_path, "%s", file);
            judge = oxo_player_open_as(file, OXO_TAKE_TABLE, &err);
            if (!judge || judge->source != OXO_SRC_TABLE || !oxo_game_same(judge->game, g)) {
                fprintf(stderr, "%s: --judge: %s%s%s\n", prog, !judge && err.code == OXO_E_KIND ? "" : file,
                        !judge && err.code == OXO_E_KIND ? "" : ": ", !judge ? err.msg : judge->source != OXO_SRC_TABLE ? "a model, not a table" : "a table of another game");
                goto out;
            }
        }
    }
    size_t npairs = (size_t)nagents * (size_t)(nagents - 1) / 2;
    size_t ntasks = npairs * 2 * games;
    if (!(tasks = malloc(ntasks * sizeof *tasks)) || !(outs = malloc(ntasks * sizeof *outs)) ||
        !(res = malloc(ntasks * sizeof *res))) {
        fprintf(stderr, "%s: out of memory for %zu games\n", prog, ntasks);
        goto out;
    }
    size_t k = 0;
    for (int i = 0; i < nagents; i++)
        for (int j = i + 1; j < nagents; j++)
            for (uint64_t r = 0; r < 2 * games; r++)
                tasks[k++] = (task){ i, j, (int)(r & 1) == 0 };
    int tty = isatty(2);
    long done = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double last = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
    for (size_t q = 0; q < ntasks; q++) {
        int t = omp_get_thread_num();
        play(g, ag + (size_t)t * (size_t)nagents, &tasks[q], seed, q, judge, &outs[q]);
        long d;
#pragma omp atomic capture
        d = ++done;
        if (tty && t == 0) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            double el = (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
            if (el - last > 0.5) {
                last = el;
                fprintf(stderr, "\r%s: %ld of %zu games, %.0f s, about %.0f s left   ", prog, d, ntasks, el,
                        el / (double)d * (double)(ntasks - (size_t)d));
            }
        }
    }
    if (tty)
        fprintf(stderr, "\r%*s\r", 70, "");
    /* A judged set: each agent's move in each of its positions, from the stream of (seed, the
     * position's number), on every thread (a pick depends on the position and the stream only). */
    long jkept[MAX_AGENTS] = { 0 };
    if (jset)
        for (int i = 0; i < nagents; i++) {
            long kept_i = 0;
#pragma omp parallel for schedule(dynamic, 4) num_threads(nthreads) reduction(+ : kept_i)
            for (uint32_t p = 0; p < jset->n; p++) {
                uint64_t rng = oxo_rng_stream(seed ^ 0x6a7564676564ull, p);
                int m = oxo_agent_pick(ag[(size_t)omp_get_thread_num() * (size_t)nagents + (size_t)i], jset->pos[p].pos, &rng);
                kept_i += m >= 0 && m < g->moves && jset->pos[p].value[m] == jset->pos[p].best;
            }
            jkept[i] = kept_i;
        }

    /* Totals in game order. */
    double score[MAX_AGENTS] = { 0 }, pair_score[MAX_AGENTS][MAX_AGENTS] = { { 0 } };
    long ngames_of[MAX_AGENTS] = { 0 }, wins[MAX_AGENTS] = { 0 }, draws[MAX_AGENTS] = { 0 }, losses[MAX_AGENTS] = { 0 };
    long pair_games[MAX_AGENTS][MAX_AGENTS] = { { 0 } }, graded[MAX_AGENTS] = { 0 }, kept[MAX_AGENTS] = { 0 };
    for (size_t q = 0; q < ntasks; q++) {
        int a = tasks[q].a, b = tasks[q].b;
        double s = outs[q].score;
        res[q] = (oxo_game_result){ a, b, s };
        score[a] += s;
        score[b] += 1 - s;
        ngames_of[a]++, ngames_of[b]++;
        pair_score[a][b] += s, pair_score[b][a] += 1 - s;
        pair_games[a][b]++, pair_games[b][a]++;
        if (s == 0.5)
            draws[a]++, draws[b]++;
        else if (s == 1)
            wins[a]++, losses[b]++;
        else
            wins[b]++, losses[a]++;
        graded[a] += outs[q].first_moves[0], graded[b] += outs[q].first_moves[1];
        kept[a] += outs[q].kept[0], kept[b] += outs[q].kept[1];
    }
    /* With a judged set, the value kept is each agent's share of its positions, with the 95%
     * Wilson interval of that share. */
    double klow[MAX_AGENTS] = { 0 }, khigh[MAX_AGENTS] = { 0 };
    for (int i = 0; jset && i < nagents; i++) {
        graded[i] = (long)jset->n;
        kept[i] = jkept[i];
        const double n = (double)jset->n, ph = (double)kept[i] / n, z = 1.959964, d = 1 + z * z / n;
        const double mid = (ph + z * z / (2 * n)) / d, h = z * sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / d;
        klow[i] = mid - h;
        khigh[i] = mid + h;
    }
    double elo[MAX_AGENTS], low[MAX_AGENTS], high[MAX_AGENTS];
    if (oxo_bt_fit(nagents, res, ntasks, anchor, elo) < 0 ||
        (boot && oxo_bt_bootstrap(nagents, res, ntasks, anchor, (int)boot, seed, low, high))) {
        fprintf(stderr, "%s: out of memory fitting the ratings\n", prog);
        goto out;
    }
    int rank[MAX_AGENTS];
    for (int i = 0; i < nagents; i++)
        rank[i] = i;
    for (int i = 1; i < nagents; i++)
        for (int j = i; j > 0 && elo[rank[j]] > elo[rank[j - 1]]; j--) {
            int tmp = rank[j];
            rank[j] = rank[j - 1];
            rank[j - 1] = tmp;
        }
    if (json) {
        printf("{\"game\":");
        oxo_json_str(stdout, g->spec);
        printf(",\"games_per_pair_and_colour\":%llu,\"seed\":%llu,\"anchor\":", (unsigned long long)games,
               (unsigned long long)seed);
        oxo_json_str(stdout, oxo_agent_name(ag[anchor]));
        printf(",\"judge\":");
        oxo_json_str(stdout, judge || jset ? judge_path : NULL);
        printf(",\"book\":");
        oxo_json_str(stdout, book ? book_file : NULL);
        printf(",\"ratings\":[");
        for (int r = 0; r < nagents; r++) {
            int i = rank[r];
            printf("%s{\"agent\":", r ? "," : "");
            oxo_json_str(stdout, oxo_agent_name(ag[i]));
            printf(",\"kind\":\"%s\",\"elo\":", oxo_agent_kind(ag[i]));
            json_num(elo[i]);
            printf(",\"low\":");
            json_num(boot ? low[i] : NAN);
            printf(",\"high\":");
            json_num(boot ? high[i] : NAN);
            printf(",\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,\"value_kept\":", ngames_of[i],
                   wins[i], draws[i], losses[i], score[i] / (double)ngames_of[i]);
            if (graded[i])
                printf(jset ? "%.4f,\"value_kept_low\":%.4f,\"value_kept_high\":%.4f,\"judged_positions\":%ld" : "%.4f",
                       (double)kept[i] / (double)graded[i], klow[i], khigh[i], graded[i]);
            else
                printf("null");
            printf("}");
        }
        printf("],\"matrix\":{\"agents\":[");
        for (int r = 0; r < nagents; r++) {
            printf("%s", r ? "," : "");
            oxo_json_str(stdout, oxo_agent_name(ag[rank[r]]));
        }
        printf("],\"score\":[");
        for (int r = 0; r < nagents; r++) {
            printf("%s[", r ? "," : "");
            for (int s = 0; s < nagents; s++) {
                int i = rank[r], j = rank[s];
                if (i == j)
                    printf("%snull", s ? "," : "");
                else
                    printf("%s%.4f", s ? "," : "", pair_score[i][j] / (double)pair_games[i][j]);
            }
            printf("]");
        }
        printf("]}}\n");
    }
    else {
        printf("%s: %d agents, %zu games (%llu per pair and colour), seed %llu%s%s%s%s\n\n", g->name, nagents, ntasks,
               (unsigned long long)games, (unsigned long long)seed, judge || jset ? ", judged by " : "",
               judge || jset ? judge_path : "", book ? ", the solvers' opening book " : "", book ? book_file : "");
        printf("| rank | agent | Elo | 95%% interval | games | won | drawn | lost | score | value kept |\n");
        printf("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (int r = 0; r < nagents; r++) {
            int i = rank[r];
            printf("| %d | %s | %.0f | ", r + 1, oxo_agent_name(ag[i]), elo[i]);
            if (boot)
                printf("%.0f to %.0f", low[i], high[i]);
            else
                printf("-");
            printf(" | %ld | %ld | %ld | %ld | %.1f%% | ", ngames_of[i], wins[i], draws[i], losses[i],
                   100.0 * score[i] / (double)ngames_of[i]);
            if (graded[i] && jset)
                printf("%.1f%% (%.1f-%.1f) |\n", 100.0 * (double)kept[i] / (double)graded[i], 100 * klow[i],
                       100 * khigh[i]);
            else if (graded[i])
                printf("%.1f%% |\n", 100.0 * (double)kept[i] / (double)graded[i]);
            else
                printf("- |\n");
        }
        printf("\nElo: Bradley-Terry fit over all games (a draw half a win each way), %s = 0.\n",
               oxo_agent_name(ag[anchor]));
        printf("\nScore of the row against the column:\n\n|  |");
        for (int s = 0; s < nagents; s++)
            printf(" %s |", oxo_agent_name(ag[rank[s]]));
        printf("\n|---|");
        for (int s = 0; s < nagents; s++)
            printf("---:|");
        printf("\n");
        for (int r = 0; r < nagents; r++) {
            printf("| %s |", oxo_agent_name(ag[rank[r]]));
            for (int s = 0; s < nagents; s++) {
                int i = rank[r], j = rank[s];
                if (i == j)
                    printf(" - |");
                else
                    printf(" %.0f%% |", 100.0 * pair_score[i][j] / (double)pair_games[i][j]);
            }
            printf("\n");
        }
    }
    if (svg) {
        /* The heat map: orange (0) through white (0.5) to blue (1), the row's score against the
         * column (red against green could not be told apart by many readers), and its key. */
        char *buf = NULL;
        size_t blen = 0;
        FILE *f = open_memstream(&buf, &blen);
        if (!f)
            goto out;
        int cell = 56, left = 170, top = 150, n = nagents;
        fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n",
                left + n * cell + 20 > 420 ? left + n * cell + 20 : 420, top + n * cell + 90);
        fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
        fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">%s: score of the row against the column</text>\n", g->name);
        for (int r = 0; r < n; r++) {
            const char *nm = oxo_agent_name(ag[rank[r]]);
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8, top + r * cell + cell / 2 + 4);
            for (const char *q = nm; *q; q++)
                fprintf(f, *q == '<' ? "&lt;" : *q == '&' ? "&amp;" : *q == '>' ? "&gt;" : "%c", *q);
            fprintf(f, "</text>\n<text transform=\"translate(%d,%d) rotate(-50)\">", left + r * cell + cell / 2,
                    top - 8);
            for (const char *q = nm; *q; q++)
                fprintf(f, *q == '<' ? "&lt;" : *q == '&' ? "&amp;" : *q == '>' ? "&gt;" : "%c", *q);
            fprintf(f, "</text>\n");
            for (int s = 0; s < n; s++) {
                int i = rank[r], j = rank[s];
                int x = left + s * cell, y = top + r * cell;
                if (i == j) {
                    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ddd\"/>\n", x, y, cell, cell);
                    continue;
                }
                double v = pair_score[i][j] / (double)pair_games[i][j];
                int R, G, B;
                heat_colour(v, &R, &G, &B);
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" stroke=\"white\"/>\n", x,
                        y, cell, cell, R, G, B);
                fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.0f%%</text>\n", x + cell / 2, y + cell / 2 + 4,
                        100 * v);
            }
        }
        /* The key: the scale in eleven steps, 0% to 100%. */
        int ky = top + n * cell + 30;
        fprintf(f, "<text x=\"10\" y=\"%d\">key: the row's score against the column</text>\n", ky - 8);
        for (int step = 0; step <= 10; step++) {
            int R, G, B;
            heat_colour(step / 10.0, &R, &G, &B);
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" fill=\"rgb(%d,%d,%d)\" stroke=\"#999\"/>\n",
                    10 + 30 * step, ky, R, G, B);
        }
        fprintf(f, "<text x=\"10\" y=\"%d\">0%%</text>\n", ky + 30);
        fprintf(f, "<text x=\"175\" y=\"%d\" text-anchor=\"middle\">50%%</text>\n", ky + 30);
        fprintf(f, "<text x=\"340\" y=\"%d\" text-anchor=\"end\">100%%</text>\n", ky + 30);
        fprintf(f, "<text x=\"10\" y=\"%d\">0%%: the row lost every game; 100%%: it won every game</text>\n",
                ky + 46);
        fprintf(f, "</svg>\n");
        fclose(f);
        oxo_error err;
        if (oxo_atomic_write(svg, buf, blen, &err)) {
            fprintf(stderr, "%s: %s: %s\n", prog, svg, err.msg);
            free(buf);
            goto out;
        }
        free(buf);
    }
    rc = OXO_EXIT_OK;
out:
    if (ag)
        for (int i = 0; i < nthreads * nagents; i++)
            oxo_agent_free(ag[i]);
    free(ag);
    free(tasks);
    free(outs);
    free(res);
    oxo_player_close(judge);
    oxo_judge_free(jset);
    oxo_player_close(book);
    oxo_game_free(g);
    return oxo_cli_finish(prog, rc);
}
