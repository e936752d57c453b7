/*
 * oxo-gen: enumerates a game chosen at run time, solves every position on every core (gen/retro.c)
 * and writes the solved table; with --search, solves one position with one of the reference search
 * solvers instead.
 */
#include "cli.h"
#include "clock.h"
#include "search.h"
#include "plies.h"
#include "plytable.h"
#include "retro.h"
#include "solve.h"
#include "book.h"

#include "boardio.h"
#include "player.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static const char *prog = "oxo-gen";

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: oxo-gen [OPTION]...\n"
        "Enumerate every position of a game, solve each one (value and distance to the end) on\n"
        "every core, and write the solved lookup table.\n"
        "\n"
        "  -g, --game SPEC       tictactoe (the default, = mnk:3,3,3), mnk:W,H,K (W x H cells, K "
        "in\n"
        "                        a row), connect4:W,H or connect4 (= connect4:7,6)\n"
        "  -o, --output FILE     where to write the table (default: tictactoe.oxt, or the spec\n"
        "                        with - for : and ,, e.g. connect4-4-4.oxt; - for standard\n"
        "                        output, the figures then on standard error)\n"
        "  -n, --no-write        print the figures, write nothing\n"
        "      --no-tree         skip the tree figures (nodes, games, wins): 8 bytes a position "
        "less\n"
        "      --by-ply          Connect-4: solve a ply at a time over the ply index, holding\n"
        "                        bitmaps of each ply's boards and two plies of entries, into a\n"
        "                        table read a block at a time (chosen by itself when the codes'\n"
        "                        bitmap would not fit, as on 6x5); each ply is saved as it is\n"
        "                        solved (FILE.ply-N), so --resume takes up a killed run; under\n"
        "                        mpirun each rank holds a share of every ply\n"
        "      --estimate        Connect-4: what a solve a ply at a time would take (positions,\n"
        "                        memory, disk, time here), from 65,536 boards drawn in each ply,\n"
        "                        without solving; the same estimate refuses a game too large\n"
        "      --ranks N         with --estimate: per rank of N under mpirun (default: 1)\n"
        "      --check-plies K   with --estimate: then solve the last K plies alone (a forward\n"
        "                        pass over every ply holding two bitmaps at a time, those\n"
        "                        plies kept) and set what each took beside the estimate: a\n"
        "                        check on a board this machine cannot solve whole\n"
        "      --json            print the figures as one JSON object\n"
        "  -q, --quiet           no progress line (it is shown only on a terminal anyway)\n"
        "      --search VARIANT  solve one position by search instead: minimax, alphabeta,\n"
        "                        alphabeta-ordered, alphabeta-dynamic, memo, memo-canonical, or\n"
        "                        solve (Connect-4: the score of the position and of each column)\n"
        "      --weak            with --search solve: only win, draw or loss (faster)\n"
        "      --book-file FILE  with --search solve: look positions up in this opening book\n"
        "                        (default: the game's shipped book, connect4-W-H-book.oxt, when\n"
        "                        there is one); the solver searches only past its depth\n"
        "      --no-book         with --search solve: search every position, use no book\n"
        "      --tt-mb N         with --search solve, --judge-set or --book: transposition table\n"
        "                        megabytes (default: 64): one table of N shared by the threads\n"
        "                        with --search solve, N per thread with --judge-set and --book\n"
        "      --position BOARD  the position for --search (default: the start); for m,n,k the\n"
        "                        cells row by row (X, O or .), for Connect-4 the columns played\n"
        "                        (digits 1..W, e.g. 4453)\n"
        "      --judge-set N     Connect-4: write N positions drawn by random play with each\n"
        "                        move's value (win, draw, loss) by the solver, on every core,\n"
        "                        to -o FILE: the judged set oxo-train --algo ntuple grades on\n"
        "      --min-stones M    with --judge-set: stones on the board at least (default: 10)\n"
        "      --seed S          with --judge-set or --sample: the random seed (default: 1)\n"
        "      --book DEPTH      Connect-4: the opening book, every position with up to DEPTH\n"
        "                        stones and its exact score, to -o FILE (a partial table that\n"
        "                        oxo-play uses); on every core, and every rank under mpirun\n"
        "      --resume          with --book: take up an interrupted run from its checkpoints\n"
        "                        (FILE.ckpt, or FILE.ckpt.RANK under MPI); a table solved a\n"
        "                        ply at a time: from the plies it saved (FILE.ply-N, or each\n"
        "                        rank's share FILE.ply-N.rank-R under mpirun, on as many ranks)\n"
        "      --checkpoint-every SECONDS  with --book: save the work done (default: 300)\n"
        "      --sample N        with --book: write no book; solve N of its leaves drawn at "
        "random\n"
        "                        and project the cost of them all (0: only count them)\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "Threads: OMP_NUM_THREADS (default: every core). The table is the same bytes whatever\n"
        "their number. A game whose space would not fit in memory is refused before any work.\n"
        "\n"
        "Exit status: 0 ok, 1 failure (e.g. the table cannot be written), 2 bad usage.\n");
}

/* Under mpirun, the ranks of a solve a ply at a time and the bytes they sent one another. */
typedef struct rank_figures {
    int ranks;
    uint64_t exchanged;
} rank_figures;

static void print_figures(FILE *f, const oxo_table *t, int json, const char *out, long long bytes,
                          double secs, const rank_figures *rf)
{
    const oxo_table_counts *c = &t->counts;
    if (json) {
        fprintf(f, "{\"game\":");
        oxo_json_str(f, t->game);
        fprintf(
            f,
            ",\"positions\":%llu,\"terminal_positions\":%llu,\"canonical_positions\":%llu,"
            "\"canonical_nonterminal_positions\":%llu,\"root_value\":\"%s\",\"positions_by_ply\":[",
            (unsigned long long)c->positions, (unsigned long long)c->terminal_positions,
            (unsigned long long)c->canonical_positions,
            (unsigned long long)c->canonical_nonterminal_positions, t->root_value);
        for (uint32_t i = 0; i < t->nplies; i++)
            fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)t->by_ply[i]);
        fprintf(f, "]");
        if (t->tree)
            fprintf(f,
                    ",\"nodes\":%llu,\"games\":%llu,\"x_wins\":%llu,\"o_wins\":%llu,\"draws\":%llu",
                    (unsigned long long)c->nodes, (unsigned long long)c->games,
                    (unsigned long long)c->x_wins, (unsigned long long)c->o_wins,
                    (unsigned long long)c->draws);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(f, ",\"seconds\":%.3f,\"threads\":%d,\"peak_bytes\":%lld", secs,
                omp_get_max_threads(), (long long)ru.ru_maxrss * 1024);
        if (rf && rf->ranks > 1)
            fprintf(f, ",\"ranks\":%d,\"exchanged_bytes\":%llu", rf->ranks,
                    (unsigned long long)rf->exchanged);
        if (out) {
            fprintf(f, ",\"output\":");
            oxo_json_str(f, out);
            fprintf(f, ",\"bytes\":%lld", bytes);
        }
        fprintf(f, "}\n");
        return;
    }
    char a[32], b[32], d[32], e[32];
    fprintf(f, "%s, %ux%u board\n", t->game, t->cols, t->rows);
    if (t->tree) {
        fprintf(f, "  tree nodes      %15s\n", oxo_group(c->nodes, a));
        fprintf(f, "  games           %15s  (X wins %s, O wins %s, draws %s)\n",
                oxo_group(c->games, a), oxo_group(c->x_wins, b), oxo_group(c->o_wins, d),
                oxo_group(c->draws, e));
    }
    fprintf(f, "  positions       %15s  (%s terminal, %s not)\n", oxo_group(c->positions, a),
            oxo_group(c->terminal_positions, b),
            oxo_group(c->positions - c->terminal_positions, d));
    fprintf(f, "  up to symmetry  %15s  (%s not terminal)\n", oxo_group(c->canonical_positions, a),
            oxo_group(c->canonical_nonterminal_positions, b));
    fprintf(f, "  root value      %15s  (for the first player)\n", t->root_value);
    fprintf(f, "  solved in       %13.3f s\n", secs);
    if (rf && rf->ranks > 1)
        fprintf(f, "  on %d ranks      %13.3f GB sent between them\n", rf->ranks,
                (double)rf->exchanged / 1e9);
    if (out && bytes >= 0)
        fprintf(f, "wrote %s (%lld bytes, %.2f per canonical position)\n", out, bytes,
                (double)bytes / (double)(c->canonical_positions ? c->canonical_positions : 1));
    else if (out)
        fprintf(f, "wrote %s\n", out);
}

static uint64_t physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* What the command line gives. */
typedef struct gen_args {
    const char *out, *search, *position, *spec, *book_file;
    int json, write, tree, quiet, weak, judge_opts, book_opts, seed_given, no_book, by_ply,
        estimate;
    uint64_t tt_mb, judge_n, min_stones, seed, ranks, check_plies;
    long book_depth; /* -1: no --book */
    oxo_book_opts bo;
} gen_args;

/* Reads the command line into a: -1 go on, else the exit status to leave with. */
static int parse_args(int argc, char **argv, gen_args *a)
{
    enum {
        O_SEARCH = 256,
        O_POSITION,
        O_JSON,
        O_NOTREE,
        O_WEAK,
        O_TTMB,
        O_JUDGE,
        O_MINST,
        O_SEED,
        O_BOOK,
        O_RESUME,
        O_CKPT,
        O_SAMPLE,
        O_BOOKFILE,
        O_NOBOOK,
        O_BYPLY,
        O_ESTIMATE,
        O_RANKS,
        O_CHECK
    };
    /* clang-format off */
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"no-write", no_argument, 0, 'n'},
        {"json", no_argument, 0, O_JSON}, {"search", required_argument, 0, O_SEARCH},
        {"position", required_argument, 0, O_POSITION}, {"help", no_argument, 0, 'h'},
        {"game", required_argument, 0, 'g'}, {"no-tree", no_argument, 0, O_NOTREE},
        {"quiet", no_argument, 0, 'q'}, {"version", no_argument, 0, 'V'},
        {"weak", no_argument, 0, O_WEAK}, {"tt-mb", required_argument, 0, O_TTMB},
        {"judge-set", required_argument, 0, O_JUDGE}, {"min-stones", required_argument, 0, O_MINST},
        {"seed", required_argument, 0, O_SEED}, {"book", required_argument, 0, O_BOOK},
        {"book-file", required_argument, 0, O_BOOKFILE}, {"no-book", no_argument, 0, O_NOBOOK},
        {"resume", no_argument, 0, O_RESUME}, {"checkpoint-every", required_argument, 0, O_CKPT},
        {"sample", required_argument, 0, O_SAMPLE}, {"by-ply", no_argument, 0, O_BYPLY},
        {"estimate", no_argument, 0, O_ESTIMATE}, {"ranks", required_argument, 0, O_RANKS},
        {"check-plies", required_argument, 0, O_CHECK},
        {0, 0, 0, 0},
    };
    /* clang-format on */
    uint64_t u;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:g:nqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "%s: --output: empty file name\n", prog);
                return OXO_EXIT_USAGE;
            }
            a->out = optarg;
            break;
        case 'g':
            a->spec = optarg;
            break;
        case 'n':
            a->write = 0;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case O_JSON:
            a->json = 1;
            break;
        case O_NOTREE:
            a->tree = 0;
            break;
        case O_WEAK:
            a->weak = 1;
            break;
        case O_TTMB:
            if (oxo_cli_u64(prog, "--tt-mb", optarg, 1, 65536, &a->tt_mb))
                return OXO_EXIT_USAGE;
            break;
        case O_JUDGE:
            if (oxo_cli_u64(prog, "--judge-set", optarg, 1, 10000000, &a->judge_n))
                return OXO_EXIT_USAGE;
            break;
        case O_MINST:
            if (oxo_cli_u64(prog, "--min-stones", optarg, 1, 63, &a->min_stones))
                return OXO_EXIT_USAGE;
            a->judge_opts = 1;
            break;
        case O_SEED:
            if (oxo_cli_u64(prog, "--seed", optarg, 0, UINT64_MAX, &a->seed))
                return OXO_EXIT_USAGE;
            a->seed_given = 1;
            break;
        case O_BOOK:
            if (oxo_cli_u64(prog, "--book", optarg, 0, 63, &u))
                return OXO_EXIT_USAGE;
            a->book_depth = (long)u;
            break;
        case O_RESUME:
            a->bo.resume = 1; /* a book's, or a solve a ply at a time's */
            break;
        case O_CKPT:
            if (oxo_cli_u64(prog, "--checkpoint-every", optarg, 1, 1000000, &u))
                return OXO_EXIT_USAGE;
            a->bo.checkpoint_secs = (double)u;
            a->book_opts = 1;
            break;
        case O_SAMPLE:
            if (oxo_cli_u64(prog, "--sample", optarg, 0, 100000000, &u))
                return OXO_EXIT_USAGE;
            a->bo.sample = (long)u;
            a->book_opts = 1;
            break;
        case O_BOOKFILE:
            a->book_file = optarg;
            break;
        case O_NOBOOK:
            a->no_book = 1;
            break;
        case O_BYPLY:
            a->by_ply = 1;
            break;
        case O_ESTIMATE:
            a->estimate = 1;
            break;
        case O_RANKS:
            if (oxo_cli_u64(prog, "--ranks", optarg, 1, 1u << 20, &a->ranks))
                return OXO_EXIT_USAGE;
            break;
        case O_CHECK:
            if (oxo_cli_u64(prog, "--check-plies", optarg, 1, OXO_MAX_MOVES + 1, &a->check_plies))
                return OXO_EXIT_USAGE;
            break;
        case O_SEARCH:
            a->search = optarg;
            break;
        case O_POSITION:
            a->position = optarg;
            break;
        default:
            return oxo_cli_other(prog, c, argv, opts, usage);
        }
    }
    return oxo_cli_no_operands(prog, argc, argv) ? OXO_EXIT_USAGE : -1;
}

/* The options that go with another: 0, else the exit status. */
static int check_modes(const gen_args *a, const oxo_game *g)
{
    const char *why = NULL;
    if (a->position && !a->search)
        why = "--position goes with --search";
    else if ((a->by_ply || a->estimate) && (a->search || a->judge_n || a->book_depth >= 0))
        why = "--by-ply and --estimate go with a whole game: no --search, --judge-set or --book";
    else if (a->ranks && !a->estimate)
        why = "--ranks goes with --estimate (under mpirun the ranks are mpirun's -np)";
    else if (a->estimate && (a->out || !a->write))
        why = "--estimate writes nothing: no -o or --no-write";
    else if (a->check_plies && (!a->estimate || a->ranks))
        why = "--check-plies goes with --estimate, in one process (no --ranks)";
    else if (a->check_plies > (uint64_t)g->max_plies + 1) {
        fprintf(stderr, "%s: --check-plies %llu: %s has %d plies (0 to %d stones)\n", prog,
                (unsigned long long)a->check_plies, g->spec, g->max_plies + 1, g->max_plies);
        return OXO_EXIT_USAGE;
    } else if (a->bo.resume && a->book_depth < 0 && (a->search || a->judge_n || !a->write))
        why = "--resume goes with --book, or with a whole game's table written a ply at a time";
    else if (a->seed_given && !a->judge_n && a->bo.sample < 0)
        why = "--seed and --min-stones go with --judge-set (--seed also with --book --sample)";
    else if (a->book_opts && a->book_depth < 0)
        why = "--resume, --checkpoint-every and --sample go with --book";
    else if (a->out && !strcmp(a->out, "-") && (a->book_depth >= 0 || a->judge_n)) {
        fprintf(stderr, "%s: -o -: %s goes to a file (standard output is only for a whole table)\n",
                prog,
                a->book_depth >= 0 ? "a book, with its checkpoints beside it," : "a judged set");
        return OXO_EXIT_USAGE;
    } else if (a->book_depth >= 0 &&
               (a->search || a->position || a->weak || a->judge_n ||
                (!a->out && a->bo.sample < 0) || (a->out && a->bo.sample >= 0) ||
                (a->bo.resume && a->bo.sample >= 0)))
        why = "--book DEPTH takes -o FILE (and --resume, --checkpoint-every, --tt-mb), or --sample "
              "N instead of -o; "
              "no --search or --judge-set";
    else if (a->book_depth < 0 && a->judge_opts && !a->judge_n)
        why = "--min-stones goes with --judge-set";
    else if (a->book_depth < 0 && a->judge_n && (a->search || a->position || a->weak || !a->out))
        why = "--judge-set N takes -o FILE (and --min-stones, --seed, --tt-mb), no --search";
    else if (a->book_depth < 0 && !a->judge_n && (a->weak || a->tt_mb != 64) &&
             (!a->search || strcmp(a->search, "solve")))
        why = "--weak and --tt-mb go with --search solve, --judge-set or --book";
    else if (a->book_depth < 0 && !a->judge_n && (a->book_file || a->no_book) &&
             (!a->search || strcmp(a->search, "solve") || !g->solver ||
              (a->book_file && a->no_book)))
        why = "--book-file or --no-book (not both) go with --search solve on Connect-4";
    if (why)
        fprintf(stderr, "%s: %s\n", prog, why);
    return why ? OXO_EXIT_USAGE : 0;
}

/* --search: one position solved by search. The Connect-4 solver answers from the game's opening
 * book where the position is in it, as the player does: the first moves of 7x6 take minutes to
 * search and no time to look up. The exit status. */
static int run_search(const gen_args *a, const oxo_game *g)
{
    const char *book_file = a->book_file, *search = a->search;
    char found[4200];
    if (!strcmp(search, "solve") && g->solver && !a->no_book && !book_file &&
        oxo_find_book(g->spec, found, sizeof found) == 0)
        book_file = found;
    int rc = !strcmp(search, "solve") ? oxo_c4_solve_main(prog, g, a->position, a->json, a->weak,
                                                          (unsigned)a->tt_mb, book_file)
                                      : oxo_search_main(prog, g, search, a->position, a->json);
    return oxo_cli_finish(prog, rc);
}

/* What a signal during a solve a ply at a time says, written by the handler (write(2) alone). */
static char stopped_msg[4200];

static void stopped_by_ply(void)
{
    oxo_atomic_abort();
    ssize_t n = write(STDERR_FILENO, stopped_msg, strlen(stopped_msg));
    (void)n;
}

/* The whole game solved a ply at a time (gen/plies.c) into a table of format 3 (gen/plytable.c),
 * written to out (NULL: -n, nothing written), its figures printed. The exit status. */
static int solve_by_ply(const gen_args *a, const oxo_game *g, const char *out)
{
    oxo_error err;
    oxo_plytable *w = NULL;
    int rank, ranks;
    /* Under mpirun each rank solves its share of every ply (gen/plies_mpi.c). */
    oxo_plies_mpi_start(&rank, &ranks);
    /* Under mpirun the plies of one process are refused by oxo_plytable_share, which says to take
     * them up without mpirun, --resume or not. */
    int bad = out && (oxo_atomic_probe(out, &err) ||
                      !(w = oxo_plytable_open(g, out, 0, a->bo.resume || ranks > 1, &err)));
    if (bad && !rank)
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    if (ranks > 1 && oxo_plies_mpi_any(bad)) {
        oxo_plytable_close(w);
        oxo_plies_mpi_end();
        return OXO_EXIT_FAIL;
    }
    if (bad)
        return OXO_EXIT_FAIL;
    /* Under mpirun the ranks agree on the shares to take up (every rank calls it); what one finds
     * wrong names its own file, so it says it. One process refuses the shares of ranks. */
    if (w) {
        bad = oxo_plytable_share(w, rank, ranks, a->bo.resume, &err);
        if (bad)
            fprintf(stderr, "%s: %s\n", prog, err.msg);
        if (ranks > 1 ? oxo_plies_mpi_any(bad) : bad) {
            oxo_plytable_close(w);
            oxo_plies_mpi_end();
            return OXO_EXIT_FAIL;
        }
    }
    /* A signal during a save removes its temporary file; the plies saved stay for --resume. */
    snprintf(stopped_msg, sizeof stopped_msg,
             "\n%s: stopped; the plies solved are saved as %s.ply-N: run the same command with "
             "--resume to go on\n",
             prog, out ? out : "");
    oxo_cli_signals(NULL, out ? stopped_by_ply : oxo_atomic_abort);
    const double t0 = oxo_seconds();
    oxo_plies_sink sink = w ? oxo_plytable_sink(w) : (oxo_plies_sink){0};
    oxo_plies *s =
        oxo_plies_solve(g, !rank && !a->quiet && isatty(STDERR_FILENO), w ? &sink : NULL, &err);
    uint64_t bytes = 0;
    int rc = !s || (w && oxo_plytable_finish(w, s, &bytes, &err));
    const double secs = oxo_seconds() - t0;
    oxo_plytable_close(w);
    if (rc) {
        fprintf(stderr, "%s: %s%s\n", prog, err.msg,
                out && s ? "; the plies solved are kept for --resume" : "");
        oxo_plies_free(s);
        oxo_plies_mpi_end();
        return OXO_EXIT_FAIL;
    }
    oxo_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.game, sizeof t.game, "%s", g->spec);
    t.rows = (uint32_t)g->rows;
    t.cols = (uint32_t)g->cols;
    t.counts = s->counts;
    snprintf(t.root_value, sizeof t.root_value, "%s",
             oxo_value_name(OXO_ENTRY_VALUE(s->root_entry)));
    t.nplies = (uint32_t)s->max_ply + 1;
    memcpy(t.by_ply, s->by_ply, sizeof t.by_ply);
    const rank_figures rf = {ranks, s->exchanged};
    if (!rank)
        print_figures(stdout, &t, a->json, out, out ? (long long)bytes : -1, secs, &rf);
    oxo_plies_free(s);
    oxo_plies_mpi_end();
    return oxo_cli_finish(prog, OXO_EXIT_OK);
}

/* Boards drawn in each ply for an estimate: 0.8 s for connect4:6,5, within 0.5% of its counts. */
#define ESTIMATE_SAMPLES 65536

/* The estimate of a solve a ply at a time (oxo_plies_cost_of), as text or JSON (left open for
 * more keys when `open`). */
static void print_cost(const oxo_game *g, const oxo_plies_cost *c, int json, int threads, int open)
{
    if (json) {
        printf("{\"game\":\"%s\",\"samples\":%d,\"positions\":%.0f,\"canonical_positions\":%.0f,"
               "\"memory_bytes\":%.0f,\"disk_bytes\":%.0f,\"core_seconds\":%.0f,\"threads\":%d,"
               "\"seconds\":%.0f,\"ranks\":%d,\"rank_memory_bytes\":%.0f,\"rank_seconds\":%.0f,"
               "\"rank_exchange_bytes\":%.0f,\"canonical_by_ply\":[",
               g->spec, c->samples, c->positions, c->canonical, c->memory, c->disk, c->core_seconds,
               threads, c->core_seconds / threads, c->ranks, c->rank_memory, c->rank_seconds,
               c->rank_exchange);
        for (int n = 0; n <= g->max_plies; n++)
            printf("%s%.0f", n ? "," : "", c->canon_by_ply[n]);
        printf(open ? "]" : "]}\n");
        return;
    }
    printf(
        "%s a ply at a time, estimated from %d boards drawn in each ply:\n"
        "  positions          %.4g (%.4g up to symmetry)\n"
        "  memory             %.1f GB (every ply's bitmap, two plies of entries)\n"
        "  disk               %.1f GB (the table, and as much again for its plies at the end)\n"
        "  time               %.2g core-hours at this machine's speed: %.2g hours on %d threads\n",
        g->spec, c->samples, c->positions, c->canonical, c->memory / 1e9, c->disk / 1e9,
        c->core_seconds / 3600, c->core_seconds / 3600 / threads, threads);
    if (c->ranks > 1) {
        char label[32];
        snprintf(label, sizeof label, "on %d ranks", c->ranks);
        /* the exchanges' time depends on the network: stated at 10 Gbit/s, each rank sending
         * and receiving at once */
        printf("  %-18s %.1f GB and %.2g core-hours each (shared by the threads a rank runs, "
               "OMP_NUM_THREADS),\n"
               "  %-18s and %.1f GB sent to the others (%.2g hours at 10 Gbit/s)\n",
               label, c->rank_memory / 1e9, c->rank_seconds / 3600, "", c->rank_exchange / 1e9,
               c->rank_exchange / 1.25e9 / 3600);
    }
}

/* --check-plies: the estimate, then the last plies solved alone (oxo_plies_last) beside it: each
 * ply's positions counted against those estimated, and its seconds as a rate (nanoseconds a
 * position on one core) against the estimate's (OXO_PLIES_CORE_SECONDS, both passes); the memory
 * the run held against the model of it. Refused, with the figures, where the bitmaps it holds
 * would not fit this machine. The exit status. */
static int check_plies(const oxo_game *g, const oxo_plies_cost *c, int last, int json, int progress,
                       int threads)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (size && atoi(size) > 1) {
        fprintf(stderr, "%s: --check-plies runs in one process, not under mpirun\n", prog);
        return OXO_EXIT_USAGE;
    }
    const double need = oxo_plies_last_bytes(g, last, c->canon_by_ply);
    const uint64_t have = physical_memory();
    if (have && need > (double)(have / 10 * 9)) {
        fprintf(stderr,
                "%s: the last %d plies of %s would need about %.1f GB (two plies' bitmaps and "
                "the last plies'), more than this machine's %.1f GB; check fewer plies\n",
                prog, last, g->spec, need / 1e9, (double)have / 1e9);
        return OXO_EXIT_FAIL;
    }
    oxo_error err;
    oxo_plies_timing t;
    oxo_plies *s =
        oxo_plies_last(g, last, progress && isatty(STDERR_FILENO), c->canon_by_ply, &t, &err);
    if (!s) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    struct rusage ru;
    const double rss = getrusage(RUSAGE_SELF, &ru) ? 0 : (double)ru.ru_maxrss * 1024;
    const double model = OXO_PLIES_CORE_SECONDS * 1e9;
    print_cost(g, c, json, threads, 1);
    if (json) {
        printf(",\"check\":{\"first_ply\":%d,\"threads\":%d,\"memory_model_bytes\":%.0f,"
               "\"peak_bytes\":%llu,\"max_rss_bytes\":%.0f,\"forward_seconds\":%.3f,"
               "\"seconds\":%.3f,\"positions_by_ply\":[",
               t.first, threads, need, (unsigned long long)s->peak_bytes, rss, t.forward_seconds,
               t.seconds_all);
        for (int n = 0; n <= s->max_ply; n++)
            printf("%s%llu", n ? "," : "", (unsigned long long)s->by_ply[n]);
        printf("],\"canonical_by_ply\":[");
        for (int n = 0; n <= s->max_ply; n++)
            printf("%s%llu", n ? "," : "", (unsigned long long)s->canon_by_ply[n]);
        printf("],\"ply_seconds\":[");
        for (int n = t.first; n <= s->max_ply; n++)
            printf("%s%.3f", n > t.first ? "," : "", t.seconds[n]);
        printf("]}}\n");
    } else {
        printf("measured here: the last %d plies (%d to %d stones) solved alone on %d threads, "
               "after a\n"
               "forward pass over every ply (%.1f s); %.1f s in all\n"
               "  ply   estimated      counted   off by   seconds   ns a position a core "
               "(estimate %.0f)\n",
               last, t.first, s->max_ply, threads, t.forward_seconds, t.seconds_all, model);
        for (int n = t.first; n <= s->max_ply; n++) {
            const double k = (double)s->canon_by_ply[n];
            printf("  %3d  %10.4g  %11llu  %+6.2f%%  %8.2f  %8.0f\n", n, c->canon_by_ply[n],
                   (unsigned long long)s->canon_by_ply[n],
                   k ? 100 * (c->canon_by_ply[n] - k) / k : 0, t.seconds[n],
                   k ? t.seconds[n] * threads / k * 1e9 : 0);
        }
        printf("  memory held at most  %.2f GB (the model of this run: %.2f GB); the process's "
               "peak %.2f GB\n",
               (double)s->peak_bytes / 1e9, need / 1e9, rss / 1e9);
    }
    oxo_plies_free(s);
    return oxo_cli_finish(prog, OXO_EXIT_OK);
}

/* The bytes free in the folder of path (-1 when unknown). */
static double free_disk(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = 0;
    struct statvfs v;
    return statvfs(dir, &v) ? -1 : (double)v.f_bavail * (double)v.f_frsize;
}

/* The whole game enumerated and solved into a table (written to -o, or the game's own name, or
 * standard output), its figures printed. The exit status. */
static int solve_table(const gen_args *a, const oxo_game *g)
{
    /* The memory the solve needs, from an upper bound on its positions, against this machine's. */
    uint64_t bound, need = oxo_retro_estimate(g, &bound), have = physical_memory();
    /* Where the codes' bitmap would not fit, a ply at a time, if the estimate of it does
     * (connect4:6,5). */
    const int threads = omp_get_max_threads(),
              bitmap_fits = need && (!have || need <= have / 10 * 9);
    /* Under mpirun, what each rank holds, against this machine's memory shared by its ranks. */
    const char *size = getenv("OMPI_COMM_WORLD_SIZE"),
               *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const int ranks = a->ranks ? (int)a->ranks
                      : size   ? atoi(size)
                               : 1,
              here = local && atoi(local) > 0 ? atoi(local) : 1;
    oxo_plies_cost cost;
    const int costed = (a->estimate || a->by_ply || !bitmap_fits) &&
                       !oxo_plies_cost_of(g, ESTIMATE_SAMPLES, 1, ranks > 0 ? ranks : 1, &cost);
    if (a->estimate) {
        if (!costed) {
            fprintf(stderr, "%s: %s has no ply index to estimate a solve a ply at a time\n", prog,
                    g->spec);
            return OXO_EXIT_FAIL;
        }
        if (a->check_plies)
            return check_plies(g, &cost, (int)a->check_plies, a->json, !a->quiet, threads);
        print_cost(g, &cost, a->json, threads, 0);
        return oxo_cli_finish(prog, OXO_EXIT_OK);
    }
    const uint64_t by_ply = costed ? (uint64_t)(cost.rank_memory * here) : 0;
    const int ply_path =
        a->by_ply || (!bitmap_fits && by_ply && (!have || by_ply <= have / 10 * 9));
    if (!ply_path && (!need || (have && need > have / 10 * 9))) {
        if (by_ply)
            fprintf(stderr,
                    "%s: %s would need about %.1f GB to solve a ply at a time, more than this "
                    "machine's %.1f GB (about %.4g positions, %.1f GB of disk and %.2g core-hours: "
                    "--estimate)\n",
                    prog, g->spec, (double)by_ply / 1e9, (double)have / 1e9, cost.positions,
                    cost.disk / 1e9, cost.core_seconds / 3600);
        else if (need)
            fprintf(stderr,
                    "%s: %s would need about %.1f GB to solve (up to %.3g positions), more than "
                    "this machine's %.1f GB\n",
                    prog, g->spec, (double)need / 1e9, (double)bound, (double)have / 1e9);
        else
            fprintf(stderr,
                    "%s: %s is too large to enumerate: its codes take %d bits (at most 40 fit a "
                    "bitmap in memory); solve its positions one by one with --search\n",
                    prog, g->spec, g->code_bits);
        return OXO_EXIT_FAIL;
    }
    char defname[64];
    const char *out = a->out;
    const int to_stdout = out && !strcmp(out, "-");
    if (to_stdout && ply_path && a->write) {
        fprintf(stderr,
                "%s: -o -: %s is solved a ply at a time, and its table goes to a file (each ply is "
                "saved beside it as it is solved)\n",
                prog, g->spec);
        return OXO_EXIT_USAGE;
    }
    if (to_stdout) {
        /* A table is binary: never onto a terminal. A pipe or a file gets it as written, in one
         * go (no temporary file: there is nothing to replace). */
        if (isatty(STDOUT_FILENO)) {
            fprintf(
                stderr,
                "%s: -o -: standard output is a terminal, and a table is binary; redirect it or "
                "name a file\n",
                prog);
            return OXO_EXIT_USAGE;
        }
        out = "/dev/stdout";
    }
    if (!out) {
        oxo_table_name(g->spec, defname, sizeof defname);
        out = defname;
    }
    if (ply_path && a->write && costed && free_disk(out) >= 0 && cost.disk > free_disk(out)) {
        fprintf(stderr,
                "%s: %s's table and its plies would take about %.1f GB of disk, more than the %.1f "
                "GB free where %s goes\n",
                prog, g->spec, cost.disk / 1e9, free_disk(out) / 1e9, out);
        return OXO_EXIT_FAIL;
    }
    if (ply_path)
        return solve_by_ply(a, g, a->write ? out : NULL);
    if (a->bo.resume) {
        fprintf(stderr,
                "%s: --resume goes with --book, or with a table solved a ply at a time (--by-ply, "
                "or a board whose codes are too many for a bitmap); %s is solved in one go\n",
                prog, g->spec);
        return OXO_EXIT_USAGE;
    }
    oxo_error err;
    if (a->write && oxo_atomic_probe(out, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    /* A signal during the save removes the temporary file before the process ends. */
    oxo_cli_signals(NULL, oxo_atomic_abort);
    const double t0 = oxo_seconds();
    oxo_retro *r = oxo_retro_solve(g, !a->quiet && isatty(STDERR_FILENO), a->tree, &err);
    const double secs = oxo_seconds() - t0; /* the solve, not the write */
    if (!r) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    oxo_table t;
    oxo_retro_table(r, &t);
    uint8_t *small = oxo_retro_table_small(r, &t);
    long long bytes = -1;
    int rc = OXO_EXIT_OK;
    if (a->write) {
        struct stat st;
        if (oxo_table_write(out, &t, &err) != OXO_OK) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
            rc = OXO_EXIT_FAIL;
        }
        bytes = stat(out, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
    }
    /* With -o - the table goes to standard output and the figures to standard error. */
    if (!rc)
        print_figures(to_stdout ? stderr : stdout, &t, a->json,
                      a->write ? (to_stdout ? "standard output" : out) : NULL, bytes, secs, NULL);
    free(small);
    oxo_retro_free(r);
    return rc ? rc : oxo_cli_finish(prog, OXO_EXIT_OK);
}

int main(int argc, char **argv)
{
    static gen_args a = {.spec = "tictactoe",
                         .write = 1,
                         .tree = 1,
                         .tt_mb = 64,
                         .min_stones = 10,
                         .seed = 1,
                         .book_depth = -1,
                         .bo = {.tt_mb = 64, .checkpoint_secs = 300, .sample = -1, .seed = 1}};
    oxo_cli_init();
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    oxo_error err;
    oxo_game *g = oxo_game_open(a.spec, &err);
    if (!g) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    if ((rc = check_modes(&a, g)))
        ;
    else if (a.book_depth >= 0) {
        a.bo.depth = (int)a.book_depth;
        a.bo.out = a.out;
        a.bo.tt_mb = (unsigned)a.tt_mb;
        a.bo.seed = a.seed;
        a.bo.json = a.json;
        a.bo.progress = !a.quiet && isatty(STDERR_FILENO);
        rc = oxo_cli_finish(prog, oxo_book_main(prog, g, &a.bo));
    } else if (a.judge_n) {
        oxo_cli_signals(NULL, oxo_atomic_abort);
        rc = oxo_cli_finish(
            prog, oxo_judge_set_main(prog, g, (uint32_t)a.judge_n, (int)a.min_stones, a.seed, a.out,
                                     (unsigned)a.tt_mb, !a.quiet && isatty(STDERR_FILENO)));
    } else if (a.search)
        rc = run_search(&a, g);
    else
        rc = solve_table(&a, g);
    oxo_game_free(g);
    return rc;
}
