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
#include "arena.h"
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

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: oxo-arena --agent SPEC --agent SPEC [OPTION]...\n"
            "Play a round-robin tournament between agents on one game, every pair with both\n"
            "colours, and rank them by a Bradley-Terry fit on the Elo scale.\n"
            "\n"
            "  -g, --game SPEC       tictactoe (default), mnk:W,H,K, connect4:W,H or connect4\n"
            "  -a, --agent SPEC      an agent, given 2 to 64 times: [NAME=]SPEC, its name in the\n"
            "                        rankings (default: SPEC), SPEC one of:\n");
    oxo_agent_usage(out, 26);
    fprintf(
        out,
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
        "                        95%% interval; or solver (Connect-4): every move graded\n"
        "                        exactly by the search solver, the game's shipped book first\n"
        "                        (no table needed; slower)\n"
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
    double score;       /* for the first agent of the pair */
    int first_moves[2]; /* moves graded: [0] agent a, [1] agent b */
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
    /* the judge's value of p, when it was asked it as the last child */
    int known = 0, v = 0, d = 0;
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
        int cv, cd;
        if (judge && (known || oxo_player_value(judge, p, &v, &d) == 0) &&
            oxo_player_value(judge, c, &cv, &cd) == 0) {
            out->first_moves[side]++;
            out->kept[side] += -cv == v;
            known = 1; /* the solver judge is asked each position once */
            v = cv;
            d = cd;
        } else
            known = 0;
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

/* Each thread its own agents, opened from the same specs (the first set checks the specs), under
 * names told apart. 0, else the exit status. */
static int open_agents(arena *A, const char *const *specs)
{
    oxo_error err;
    int file_failed = 0;
    if (!(A->ag = calloc((size_t)A->nthreads * (size_t)A->nagents, sizeof *A->ag)))
        return OXO_EXIT_FAIL;
    for (int t = 0; t < A->nthreads; t++)
        for (int i = 0; i < A->nagents; i++)
            if (!(A->ag[t * A->nagents + i] =
                      oxo_agent_open_ex(A->g, specs[i], &file_failed, &err))) {
                fprintf(stderr, "%s: --agent: %s\n", prog, err.msg);
                return file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
            }
    for (int i = 0; i < A->nagents; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(oxo_agent_name(A->ag[i]), oxo_agent_name(A->ag[j]))) {
                fprintf(stderr,
                        "%s: --agent: two agents are called '%s'; name them with NAME=SPEC\n", prog,
                        oxo_agent_name(A->ag[i]));
                return OXO_EXIT_USAGE;
            }
    return 0;
}

/* The solver agents take the opening book as oxo-play's do: without it each of a solver's first
 * moves on 7x6 is a search of minutes (102 s for the empty board here), and within a budget
 * (solver:MS) they would play the opening by the fallback, not exactly. One book, opened once,
 * read-only, lent to every thread's agents that have none of their own. 0, else the exit status. */
static int open_book(arena *A, const char *book_file, int no_book)
{
    int want_book = 0;
    for (int i = 0; i < A->nagents; i++)
        want_book |= oxo_agent_wants_book(A->ag[i]);
    if ((book_file || no_book) && !want_book) {
        fprintf(stderr,
                "%s: --book or --no-book go with a solver agent (--agent solver...) without a "
                ":book=FILE of its "
                "own\n",
                prog);
        return OXO_EXIT_USAGE;
    }
    if (!book_file && !no_book && A->g->solver && want_book &&
        oxo_find_book(A->g->spec, A->book_found, sizeof A->book_found) == 0)
        book_file = A->book_found;
    A->book_file = book_file;
    if (book_file && want_book) {
        oxo_error err;
        if (!(A->book = oxo_player_open_book(A->g, book_file, &err))) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
            return OXO_EXIT_FAIL;
        }
        for (int i = 0; i < A->nthreads * A->nagents; i++)
            if (oxo_agent_wants_book(A->ag[i]))
                oxo_agent_borrow_book(A->ag[i], A->book);
    }
    return 0;
}

/* The agent rated 0: --anchor's, else the first random agent, else the first. 0, else the exit
 * status. */
static int find_anchor(arena *A, const char *anchor_name)
{
    A->anchor = 0;
    for (int i = A->nagents - 1; i >= 0; i--)
        if (!strcmp(oxo_agent_kind(A->ag[i]), "random"))
            A->anchor = i;
    if (!anchor_name)
        return 0;
    A->anchor = -1;
    for (int i = 0; i < A->nagents; i++)
        if (!strcmp(oxo_agent_name(A->ag[i]), anchor_name))
            A->anchor = i;
    if (A->anchor < 0) {
        fprintf(stderr, "%s: --anchor: no agent is called '%s'\n", prog, anchor_name);
        return OXO_EXIT_USAGE;
    }
    return 0;
}

/* --judge solver: the search solver as the judge, one a thread (each searches with its own
 * table), asking the solvers' book first, or the game's shipped book. 0, else the exit status. */
static int open_solver_judges(arena *A)
{
    oxo_error err;
    const oxo_player *book = A->book;
    char found[4096];
    if (!A->g->solver) {
        fprintf(stderr, "%s: --judge solver: the solver does not serve %s; give a table\n", prog,
                A->g->name);
        return OXO_EXIT_USAGE;
    }
    if (!book && oxo_find_book(A->g->spec, found, sizeof found) == 0) {
        if (!(A->judge_book = oxo_player_open_book(A->g, found, &err))) {
            fprintf(stderr, "%s: --judge solver: %s\n", prog, err.msg);
            return OXO_EXIT_FAIL;
        }
        book = A->judge_book;
    }
    if (!(A->judges = calloc((size_t)A->nthreads, sizeof *A->judges)))
        return OXO_EXIT_FAIL;
    for (int t = 0; t < A->nthreads; t++)
        if (!(A->judges[t] = oxo_player_open_solver(A->g, book, &err))) {
            fprintf(stderr, "%s: --judge solver: %s\n", prog, err.msg);
            return OXO_EXIT_FAIL;
        }
    snprintf(A->judge_path, sizeof A->judge_path, "solver");
    return 0;
}

/* The judge: an exact table, the game's own unless told otherwise, or a judged set (--judge FILE
 * is a judged set when it reads as one, else a table), or the solver. 0, else the exit status. */
static int open_judge(arena *A, const char *judge_spec)
{
    const oxo_game *g = A->g;
    if (judge_spec && !strcmp(judge_spec, "solver"))
        return open_solver_judges(A);
    if (judge_spec && !strcmp(judge_spec, "none"))
        return 0;
    /* table[:FILE] takes a whole table; a bare FILE a table or a judged set, which the player's
     * readers tell apart (its source), opened once. */
    int takes = OXO_TAKE_TABLE;
    const char *file = judge_spec;
    if (judge_spec && !strncmp(judge_spec, "table", 5))
        file = judge_spec[5] == ':' ? judge_spec + 6 : NULL;
    else if (judge_spec)
        takes |= OXO_TAKE_JUDGED;
    if (!file) {
        char name[128];
        oxo_table_name(g->spec, name, sizeof name);
        if (oxo_find_data(name, A->judge_path, sizeof A->judge_path) == 0)
            file = A->judge_path;
        else if (judge_spec) {
            fprintf(stderr, "%s: --judge: no table of %s found (%s); give table:FILE\n", prog,
                    g->name, name);
            return OXO_EXIT_FAIL;
        }
    }
    if (!file)
        return 0;
    oxo_error err;
    if (file != A->judge_path)
        snprintf(A->judge_path, sizeof A->judge_path, "%s", file);
    oxo_player *p = oxo_player_open_as(file, takes, &err);
    if (p && !strcmp(oxo_player_source(p), "judged set")) {
        A->jset = oxo_judge_of(g, p, file, &err);
        oxo_player_close(p);
        if (!A->jset) {
            fprintf(stderr, "%s: --judge: %s\n", prog, err.msg);
            return OXO_EXIT_FAIL;
        }
        return 0;
    }
    A->judge = p;
    if (!A->judge || !oxo_player_exact(A->judge) || !oxo_game_same(oxo_player_game(A->judge), g)) {
        fprintf(stderr, "%s: --judge: %s%s%s\n", prog,
                !A->judge && err.code == OXO_E_KIND ? "" : file,
                !A->judge && err.code == OXO_E_KIND ? "" : ": ",
                !A->judge                     ? err.msg
                : !oxo_player_exact(A->judge) ? "a model, not a table"
                                              : "a table of another game");
        return OXO_EXIT_FAIL;
    }
    return 0;
}

/* Every game of the round robin, on every thread, each into its own slot; progress on a
 * terminal. */
static void play_all(const arena *A, const task *tasks, game_out *outs, size_t ntasks)
{
    int tty = isatty(2);
    long done = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double last = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(A->nthreads)
    for (size_t q = 0; q < ntasks; q++) {
        int t = omp_get_thread_num();
        play(A->g, A->ag + (size_t)t * (size_t)A->nagents, &tasks[q], A->seed, q,
             A->judges ? A->judges[t] : A->judge, &outs[q]);
        long d;
#pragma omp atomic capture
        d = ++done;
        if (tty && t == 0) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            double el =
                (double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec);
            if (el - last > 0.5) {
                last = el;
                fprintf(stderr, "\r%s: %ld of %zu games, %.0f s, about %.0f s left   ", prog, d,
                        ntasks, el, el / (double)d * (double)(ntasks - (size_t)d));
            }
        }
    }
    if (tty)
        fprintf(stderr, "\r%*s\r", 70, "");
}

/* A judged set: each agent's move in each of its positions, from the stream of (seed, the
 * position's number), on every thread (a pick depends on the position and the stream only); the
 * share kept with its 95% Wilson interval. */
static void grade_on_set(const arena *A, tally *T)
{
    const oxo_judge *js = A->jset;
    for (int i = 0; i < A->nagents; i++) {
        long kept_i = 0;
#pragma omp parallel for schedule(dynamic, 4) num_threads(A->nthreads) reduction(+ : kept_i)
        for (uint32_t p = 0; p < js->n; p++)
            kept_i += oxo_agent_keeps(
                A->ag[(size_t)omp_get_thread_num() * (size_t)A->nagents + (size_t)i], &js->pos[p],
                p, A->seed);
        T->graded[i] = (long)js->n;
        T->kept[i] = kept_i;
        oxo_share_interval(kept_i, (long)js->n, &T->klow[i], &T->khigh[i]);
    }
}

/* The totals in game order (the same bytes whatever the thread count), the ratings and the
 * ranking. 0, or -1 out of memory. */
static int sum_up(const arena *A, const task *tasks, const game_out *outs, oxo_game_result *res,
                  tally *T)
{
    for (size_t q = 0; q < T->ntasks; q++) {
        int a = tasks[q].a, b = tasks[q].b;
        double s = outs[q].score;
        res[q] = (oxo_game_result){a, b, s};
        T->score[a] += s;
        T->score[b] += 1 - s;
        T->ngames[a]++, T->ngames[b]++;
        T->pair_score[a][b] += s, T->pair_score[b][a] += 1 - s;
        T->pair_games[a][b]++, T->pair_games[b][a]++;
        if (s == 0.5)
            T->draws[a]++, T->draws[b]++;
        else if (s == 1)
            T->wins[a]++, T->losses[b]++;
        else
            T->wins[b]++, T->losses[a]++;
        if (!A->jset) {
            T->graded[a] += outs[q].first_moves[0], T->graded[b] += outs[q].first_moves[1];
            T->kept[a] += outs[q].kept[0], T->kept[b] += outs[q].kept[1];
        }
    }
    if (A->jset)
        grade_on_set(A, T);
    if (oxo_bt_fit(A->nagents, res, T->ntasks, A->anchor, T->elo) < 0 ||
        (A->boot && oxo_bt_bootstrap(A->nagents, res, T->ntasks, A->anchor, (int)A->boot, A->seed,
                                     T->low, T->high)))
        return -1;
    for (int i = 0; i < A->nagents; i++)
        T->rank[i] = i;
    for (int i = 1; i < A->nagents; i++)
        for (int j = i; j > 0 && T->elo[T->rank[j]] > T->elo[T->rank[j - 1]]; j--) {
            int tmp = T->rank[j];
            T->rank[j] = T->rank[j - 1];
            T->rank[j - 1] = tmp;
        }
    return 0;
}

/* The tournament itself: every game, the totals, the report. 0, else the exit status. */
static int tournament(arena *A, int json, const char *svg)
{
    static tally T; /* large: not on the stack */
    size_t npairs = (size_t)A->nagents * (size_t)(A->nagents - 1) / 2,
           ntasks = npairs * 2 * A->games;
    task *tasks = malloc(ntasks * sizeof *tasks);
    game_out *outs = malloc(ntasks * sizeof *outs);
    oxo_game_result *res = malloc(ntasks * sizeof *res);
    int rc = OXO_EXIT_FAIL;
    if (!tasks || !outs || !res) {
        fprintf(stderr, "%s: out of memory for %zu games\n", prog, ntasks);
        goto out;
    }
    size_t k = 0;
    for (int i = 0; i < A->nagents; i++)
        for (int j = i + 1; j < A->nagents; j++)
            for (uint64_t r = 0; r < 2 * A->games; r++)
                tasks[k++] = (task){i, j, (int)(r & 1) == 0};
    play_all(A, tasks, outs, ntasks);
    memset(&T, 0, sizeof T);
    T.ntasks = ntasks;
    if (sum_up(A, tasks, outs, res, &T)) {
        fprintf(stderr, "%s: out of memory fitting the ratings\n", prog);
        goto out;
    }
    if (json)
        arena_print_json(A, &T);
    else
        arena_print_text(A, &T);
    rc = svg && arena_write_svg(A, &T, svg) ? OXO_EXIT_FAIL : OXO_EXIT_OK;
out:
    free(tasks);
    free(outs);
    free(res);
    return rc;
}

int main(int argc, char **argv)
{
    enum { O_JSON = 256, O_SVG, O_JUDGE, O_BOOT, O_ANCHOR, O_BOOK, O_NOBOOK };
    /* clang-format off */
    static const struct option opts[] = {
        {"game", required_argument, 0, 'g'}, {"agent", required_argument, 0, 'a'},
        {"games", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 'j'}, {"json", no_argument, 0, O_JSON},
        {"svg", required_argument, 0, O_SVG}, {"judge", required_argument, 0, O_JUDGE},
        {"bootstrap", required_argument, 0, O_BOOT}, {"anchor", required_argument, 0, O_ANCHOR},
        {"book", required_argument, 0, O_BOOK}, {"no-book", no_argument, 0, O_NOBOOK},
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, {0, 0, 0, 0},
    };
    /* clang-format on */
    const char *spec = "tictactoe", *specs[MAX_AGENTS], *svg = NULL, *judge_spec = NULL,
               *anchor_name = NULL;
    const char *book_file = NULL;
    int nagents = 0, json = 0, no_book = 0, c;
    uint64_t games = 10, seed = 1, threads = 0, boot = 200;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:a:n:s:j:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            spec = optarg;
            break;
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
        case O_JSON:
            json = 1;
            break;
        case O_SVG:
            svg = optarg;
            break;
        case O_JUDGE:
            judge_spec = optarg;
            break;
        case O_ANCHOR:
            anchor_name = optarg;
            break;
        case O_BOOK:
            book_file = optarg;
            break;
        case O_NOBOOK:
            no_book = 1;
            break;
        default:
            return oxo_cli_other(prog, c, argv, opts, usage);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (nagents < 2) {
        fprintf(stderr,
                "%s: give at least two agents (--agent SPEC, twice or more)\nTry '%s --help'.\n",
                prog, prog);
        return OXO_EXIT_USAGE;
    }
    if (judge_spec && (!*judge_spec || (!strncmp(judge_spec, "table", 5) && judge_spec[5] &&
                                        judge_spec[5] != ':'))) {
        fprintf(stderr,
                "%s: --judge: '%s', expected table[:FILE], FILE (a table or a judged set), solver "
                "or none\n",
                prog, judge_spec);
        return OXO_EXIT_USAGE;
    }
    static arena A;
    oxo_error err;
    oxo_game *g = oxo_game_open(spec, &err);
    if (!g) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    if ((book_file || no_book) && (!g->solver || (book_file && no_book))) {
        fprintf(
            stderr,
            "%s: --book or --no-book (not both) go with a Connect-4 game (--game connect4...)\n",
            prog);
        oxo_game_free(g);
        return OXO_EXIT_USAGE;
    }
    A.g = g;
    A.nagents = nagents;
    A.nthreads = threads ? (int)threads : omp_get_max_threads();
    A.games = games;
    A.seed = seed;
    A.boot = boot;
    int rc = open_agents(&A, specs);
    if (!rc)
        rc = open_book(&A, book_file, no_book);
    if (!rc)
        rc = find_anchor(&A, anchor_name);
    if (!rc)
        rc = open_judge(&A, judge_spec);
    if (!rc)
        rc = tournament(&A, json, svg);
    if (A.ag)
        for (int i = 0; i < A.nthreads * A.nagents; i++)
            oxo_agent_free(A.ag[i]);
    free(A.ag);
    oxo_player_close(A.judge);
    for (int t = 0; A.judges && t < A.nthreads; t++)
        oxo_player_close(A.judges[t]);
    free(A.judges);
    oxo_player_close(A.judge_book);
    oxo_judge_free(A.jset);
    oxo_player_close(A.book);
    oxo_game_free(g);
    return oxo_cli_finish(prog, rc);
}
