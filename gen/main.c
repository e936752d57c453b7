/*
 * oxo-gen: enumerates the game, solves every position, writes the solved table; with --search,
 * solves one position with one of the reference search solvers instead.
 */
#include "cli.h"
#include "search.h"
#include "solve.h"

#include "boardio.h"
#include "player.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *prog = "oxo-gen";

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: oxo-gen [OPTION]...\n"
            "Enumerate the whole tic-tac-toe game tree, solve every position (value and distance to\n"
            "the end) and write the solved lookup table.\n"
            "\n"
            "  -o, --output FILE     where to write the table (default: tictactoe.oxt)\n"
            "  -n, --no-write        print the figures, write nothing\n"
            "      --json            print the figures as one JSON object\n"
            "      --search VARIANT  solve one position by search instead: minimax, alphabeta,\n"
            "                        alphabeta-ordered, alphabeta-dynamic, memo, memo-canonical\n"
            "      --position BOARD  the position for --search (default: the empty board);\n"
            "                        9 characters X, O or . row by row from the top left\n"
            "  -h, --help            show this help and exit\n"
            "  -V, --version         show the version and exit\n"
            "\n"
            "Exit status: 0 ok, 1 failure (e.g. the table cannot be written), 2 bad usage.\n");
}

static void print_figures(const oxo_table *t, int json, const char *out, long long bytes)
{
    const oxo_table_counts *c = &t->counts;
    if (json) {
        printf("{\"game\":\"%s\",\"nodes\":%llu,\"games\":%llu,\"x_wins\":%llu,\"o_wins\":%llu,"
               "\"draws\":%llu,\"positions\":%llu,\"terminal_positions\":%llu,"
               "\"canonical_positions\":%llu,\"canonical_nonterminal_positions\":%llu,"
               "\"root_value\":\"%s\"",
               t->game, (unsigned long long)c->nodes, (unsigned long long)c->games,
               (unsigned long long)c->x_wins, (unsigned long long)c->o_wins,
               (unsigned long long)c->draws, (unsigned long long)c->positions,
               (unsigned long long)c->terminal_positions, (unsigned long long)c->canonical_positions,
               (unsigned long long)c->canonical_nonterminal_positions, t->root_value);
        if (out) {
            printf(",\"output\":");
            oxo_json_str(stdout, out);
            printf(",\"bytes\":%lld", bytes);
        }
        printf("}\n");
        return;
    }
    char a[32], b[32], d[32], e[32];
    printf("%s, %ux%u board\n", t->game, t->rows, t->cols);
    printf("  tree nodes      %9s\n", oxo_group(c->nodes, a));
    printf("  games           %9s  (X wins %s, O wins %s, draws %s)\n", oxo_group(c->games, a),
           oxo_group(c->x_wins, b), oxo_group(c->o_wins, d), oxo_group(c->draws, e));
    printf("  positions       %9s  (%s terminal, %s not)\n", oxo_group(c->positions, a),
           oxo_group(c->terminal_positions, b), oxo_group(c->positions - c->terminal_positions, d));
    printf("  up to symmetry  %9s  (%s not terminal)\n", oxo_group(c->canonical_positions, a),
           oxo_group(c->canonical_nonterminal_positions, b));
    printf("  root value      %9s\n", t->root_value);
    if (out)
        printf("wrote %s (%lld bytes)\n", out, bytes);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"no-write", no_argument, 0, 'n'},
        {"json", no_argument, 0, 'j'},         {"search", required_argument, 0, 's'},
        {"position", required_argument, 0, 'p'}, {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'},      {0, 0, 0, 0}};
    const char *out = "tictactoe.oxt", *search = NULL, *position = NULL;
    int json = 0, write = 1, c;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:nhV", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "%s: --output: empty file name\n", prog);
                return OXO_EXIT_USAGE;
            }
            out = optarg;
            break;
        case 'n': write = 0; break;
        case 'j': json = 1; break;
        case 's': search = optarg; break;
        case 'p': position = optarg; break;
        case 'h': usage(stdout); return oxo_cli_finish(prog, OXO_EXIT_OK);
        case 'V': printf("oxo-gen %s\n", OXO_VERSION); return oxo_cli_finish(prog, OXO_EXIT_OK);
        default:
            return oxo_cli_bad_option(prog, c, argv);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    const oxo_game *g = oxo_tictactoe();
    if (position && !search) {
        fprintf(stderr, "%s: --position goes with --search\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (search)
        return oxo_cli_finish(prog, oxo_search_main(prog, g, search, position, json));

    oxo_table *t = oxo_build_table(g);
    if (!t) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return OXO_EXIT_FAIL;
    }
    long long bytes = -1;
    /* A signal during the save removes the temporary file before the process ends. */
    oxo_cli_signals(NULL, oxo_atomic_abort);
    if (write) {
        oxo_error err;
        struct stat st;
        if (oxo_table_write(out, t, &err) != OXO_OK) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
            oxo_table_free(t);
            return OXO_EXIT_FAIL;
        }
        bytes = stat(out, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
    }
    print_figures(t, json, write ? out : NULL, bytes);
    oxo_table_free(t);
    return oxo_cli_finish(prog, OXO_EXIT_OK);
}
