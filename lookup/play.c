/*
 * oxo-play: a tiny player that picks moves by lookup only, from a solved table or a learned model.
 * Interactive against a person, against itself (--self-play), or for scripts (--position,
 * --batch, --json). Links the game core and the readers of formats/, nothing else.
 */
#include "boardio.h"
#include "c4solve.h"
#include "cli.h"
#include "play.h"
#include "agent.h"
#include "player.h"
#include "rng.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "oxo-play";

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: oxo-play [OPTION]...\n"
        "Play tic-tac-toe, m,n,k games or Connect-4 against a lookup-only player that reads its\n"
        "moves from a solved table or from a trained model.\n"
        "\n"
        "Source of moves (default: the game's table, tictactoe.oxt for tic-tac-toe, found in\n"
        "$OXO_DATA_DIR or share/oxo beside the program):\n"
        "  -g, --game SPEC       tictactoe (default), mnk:W,H,K, connect4:W,H or connect4; a file\n"
        "                        of another game is refused\n"
        "  -t, --table FILE      a solved table (*.oxt)\n"
        "  -m, --model FILE      a trained model (*.oxm); plays greedily on its values; n-tuple\n"
        "                        networks of one game joined by '+' (A.oxm+B.oxm, here and\n"
        "                        wherever an agent takes a model) play as one, on the mean\n"
        "                        of their values\n"
        "  -a, --agent SPEC      the computer plays as this agent instead (in --self-play, X; no\n"
        "                        table needed, e.g. on Connect-4 7x6); with --position or\n"
        "                        --batch, the move it plays (the solver: each column's score).\n"
        "                        SPEC is one of:\n");
    oxo_agent_usage(out, 26);
    fprintf(
        out,
        "      --versus-agent SPEC  with --self-play: O plays as this agent\n"
        "      --budget-ms N     Connect-4 without a table (7x6): the solver plays, exact when\n"
        "                        it finishes within N ms per move, else by alpha-beta, and says\n"
        "                        so (default: 1000; also for --agent solver)\n"
        "      --book FILE       Connect-4: the solver (the player, --agent or --versus-agent\n"
        "                        solver or solver:outcome) looks positions up in this opening\n"
        "                        book (oxo-gen --book)\n"
        "                        before it searches (default: the game's shipped book,\n"
        "                        connect4-W-H-book.oxt, when there is one)\n"
        "      --no-book         Connect-4: the solver searches from the first move, without\n"
        "                        the shipped opening book\n"
        "\n"
        "Modes (default: an interactive game in the terminal):\n"
        "      --human x|o       your side in the interactive game (default: x, X moves first)\n"
        "      --hints           show the value of every free cell before each of your moves\n"
        "      --self-play       the player plays both sides; every board is shown\n"
        "      --versus FILE     with --self-play: O plays from FILE (a table or a model)\n"
        "      --versus-level N  with --self-play: O's level, 1..10 (default: 10 with --versus;\n"
        "                        without it, O is the same player as X and plays at --level)\n"
        "      --games N         with --self-play: play N games, print only the tally (default: "
        "1)\n"
        "  -p, --position BOARD  evaluate one position: for m,n,k the cells (X, O or .) row by\n"
        "                        row from the top left, the side to move following from the\n"
        "                        counts; for Connect-4 the columns played, digits 1..W (4453)\n"
        "  -b, --batch           evaluate one BOARD per line of standard input\n"
        "      --json            with --position/--batch/--info: JSON, one object per line;\n"
        "                        with --self-play, each game's moves and result, then the tally\n"
        "  -i, --info FILE       print the metadata of a table, a model (of each network of A+B)\n"
        "                        or a judged set\n"
        "      --judge FILE      grade --agent on a judged set (oxo-gen --judge-set; the shipped\n"
        "                        connect4-7-6.judge): its share of value-keeping moves with a\n"
        "                        95%% interval, as oxo-arena --judge (--seed, default 1)\n"
        "\n"
        "Play:\n"
        "  -l, --level N         1..10 (default: 10, perfect play). The player plays a uniformly\n"
        "                        random legal move with probability (10 - N) / 9 and its best\n"
        "                        move otherwise: level 1 is random, level 10 never errs.\n"
        "                        In --self-play, the level of X\n"
        "  -s, --seed N          seed of the tie-breaks and random moves (default: from the "
        "clock)\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "Exit status: 0 ok, 1 failure (bad file, illegal board, end of input), 2 bad usage.\n");
}

/* What a move is called, for people: moves are shown 1-based. */
const char *move_word(const oxo_game *g)
{
    return g->move_noun;
}

int board_error(const char *msg, int json)
{
    if (json) {
        printf("{\"error\":");
        oxo_json_str(stdout, msg);
        printf("}\n");
    }
    fprintf(stderr, "%s: %s\n", prog, msg);
    return 1;
}

/* The solver's column scores as text: "-" where a column was not solved in time, or is full. */
void print_column_scores(const oxo_game *g, const int *score, const int *known, int exact)
{
    printf("column scores%s:", exact ? "" : " (not exact: the budget ran out; - unknown)");
    for (int m = 0; m < g->moves; m++)
        known[m] ? printf(" %d", score[m]) : printf(" -");
    printf("\n");
}

/* One line of the batch input: up to and without its end ('\n', '\r' or "\r\n"). At most cap - 1
 * bytes are kept; *len receives the line's true length, so that a line of any length is one line.
 * Returns 0, or -1 at the end of input with no line. A "\r\n" is seen as one end without waiting
 * for the byte after '\r': *cr remembers to drop a '\n' that comes next, so that a client that
 * ends its line with '\r' gets its answer at once. */
int read_line(FILE *in, char *buf, size_t cap, size_t *len, int *nul, int *cr)
{
    int ch;
    size_t n = 0;
    *nul = 0;
    while ((ch = getc(in)) != EOF) {
        if (ch == '\n' && *cr && n == 0) {
            *cr = 0;
            continue;
        }
        *cr = ch == '\r';
        if (ch == '\n' || ch == '\r')
            break;
        *nul |= ch == 0;
        if (n + 1 < cap)
            buf[n] = (char)ch;
        n++;
    }
    if (ch == EOF && n == 0)
        return -1;
    buf[n + 1 < cap ? n : cap - 1] = 0;
    *len = n;
    return 0;
}

/* The value of a position (table) or its best learned score (model) after the game ended. */
static const char *outcome(const oxo_game *g, oxo_pos p)
{
    if (oxo_status_of(g, p) == OXO_OVER_DRAW)
        return "draw";
    return oxo_x_to_move(g, p) ? "O wins" : "X wins";
}

static void show_hints(const oxo_player *pl, oxo_pos p)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(pl, p, mi);
    printf(oxo_player_exact(pl) ? "hints:" : "hints (learned scores, higher is better):");
    for (int i = 0; i < n; i++) {
        if (oxo_player_exact(pl))
            printf("  %d %s", mi[i].move + 1, oxo_value_name(mi[i].value));
        else
            printf("  %d %+.2f", mi[i].move + 1, mi[i].score);
    }
    printf("\n");
}

/* Reads the person's move; returns the cell (0-based), or -1 at end of input. */
static int ask_move(const oxo_game *g, oxo_pos p)
{
    char line[256];
    static int cr; /* a "\r\n" seen across two prompts is one end of line */
    for (;;) {
        printf("your move (%s 1-%d, q to quit): ", move_word(g), g->moves);
        fflush(stdout);
        size_t len;
        int nul;
        if (read_line(stdin, line, sizeof line, &len, &nul, &cr))
            return -1;
        if (len >= sizeof line - 1) {
            printf("that line is too long; type a %s number from 1 to %d\n", move_word(g),
                   g->moves);
            continue;
        }
        if (nul) { /* fgets took "4<NUL>junk" for 4 */
            printf("that line holds a NUL byte; type a %s number from 1 to %d\n", move_word(g),
                   g->moves);
            continue;
        }
        char *s = line, *end;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t word = strcspn(s, " \t\r\n");
        if (word == 0) {
            printf("type a %s number from 1 to %d, or q to quit\n", move_word(g), g->moves);
            continue;
        }
        if ((word == 1 && (*s == 'q' || *s == 'Q')) || (word == 4 && !strncasecmp(s, "quit", 4))) {
            const char *rest = s + word + strspn(s + word, " \t\r\n");
            if (!*rest)
                return -2;
        }
        long v = strtol(s, &end, 10);
        while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
            end++;
        if (end == s || *end) {
            printf("'%.*s' is not a number; type a %s number from 1 to %d\n",
                   (int)strcspn(s, "\r\n"), s, move_word(g), g->moves);
            continue;
        }
        if (v < 1 || v > g->moves) {
            printf("%ld is out of range; type a %s number from 1 to %d\n", v, move_word(g),
                   g->moves);
            continue;
        }
        if (!(oxo_legal(g, p) >> (v - 1) & 1)) {
            printf("%s %ld %s\n", g->move_noun, v, g->move_unplayable);
            continue;
        }
        return (int)(v - 1);
    }
}

/* Plays one game. In self-play, X moves from px at `level` and O from po at `olevel`; otherwise
 * the person plays one side and px the other, at `level`. Returns 0 when the game ended, 1 at end
 * of input, 2 when abandoned, 3 when a side had no move to play (reported); *result receives +1 (X
 * won), 0 (draw) or -1 (O won). */
/* Who moves for one side: an agent (--agent), or the player of a file at a level. */
typedef struct side {
    const oxo_player *pl;
    oxo_agent *agent;
    int level;
} side;

/* An agent (the Connect-4 solver without a table among them) plays at a level as a table player
 * does: a uniformly random move with probability (10 - level) / 9, its own move otherwise. At
 * level 10 no coin is drawn, so an agent's games stay those of its own stream. */
static int pick(const side *s, oxo_pos p, uint64_t *rng)
{
    if (!s->agent)
        return oxo_player_pick(s->pl, p, s->level, rng);
    if (s->level < 10 && oxo_rng_unit(rng) < (10 - s->level) / 9.0)
        return oxo_rng_bit(rng, oxo_legal(oxo_agent_game(s->agent), p));
    return oxo_agent_pick(s->agent, p, rng);
}

/* hints: the player whose values are shown (NULL: none). */
/* hint_solver: Connect-4 without a table, the hints are the solver's column scores. */
/* moves: the moves played (room for OXO_MAX_MOVES), *nmoves how many. */
static int play_game(const oxo_game *g, const side *sx, const side *so, int human_x, int self,
                     const oxo_player *hints, oxo_agent *hint_solver, uint64_t *rng, int quiet,
                     int *result, int *moves, int *nmoves)
{
    oxo_pos p = oxo_start(g);
    int turn = 0;
    if (!self)
        printf(g->gravity ? "You play %s. Columns are numbered 1-%d from the left.\n"
                          : "You play %s. Cells are numbered 1-%d, row by row from the top left.\n",
               human_x ? "X" : "O", g->moves);
    while (oxo_status_of(g, p) == OXO_ONGOING) {
        int xm = oxo_x_to_move(g, p);
        int move;
        if (!self && xm == human_x) {
            printf("\n");
            oxo_board_draw(g, p, 1, stdout);
            if (hints)
                show_hints(hints, p);
            else if (hint_solver) {
                int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES];
                int exact = oxo_agent_scores(hint_solver, p, oxo_agent_budget(hint_solver), score,
                                             known) == 1;
                print_column_scores(g, score, known, exact);
            }
            move = ask_move(g, p);
            if (move == -2) {
                printf("game abandoned\n");
                return 2;
            }
            if (move < 0) {
                fprintf(stderr, "%s: end of input before the game ended\n", prog);
                return 1;
            }
        } else {
            const side *me = self && !xm ? so : sx;
            move = pick(me, p, rng);
            if (move < 0 || !(oxo_legal(g, p) >> move & 1)) {
                /* Never played: a source without an answer here ends the run with the reason. */
                fprintf(stderr, "%s: %s has no move for %s in this position (%d stones)\n", prog,
                        me->agent ? oxo_agent_name(me->agent) : "the player", xm ? "X" : "O",
                        oxo_ply(p));
                return 3;
            }
            if (self && !quiet)
                printf("%s%d. %s plays %d\n", turn ? "\n" : "", turn + 1, xm ? "X" : "O", move + 1);
            else if (!self) {
                printf("\nI play %s %d", move_word(g), move + 1);
                if (me->agent && *oxo_agent_note(me->agent))
                    printf(" (%s)", oxo_agent_note(me->agent));
                printf("\n");
            }
        }
        p = oxo_play(g, p, move);
        if (self && !quiet)
            oxo_board_draw(g, p, 0, stdout);
        moves[turn++] = move;
    }
    if (!self) {
        printf("\n");
        oxo_board_draw(g, p, 0, stdout);
    }
    if (!quiet)
        printf("result: %s\n", outcome(g, p));
    *result = oxo_status_of(g, p) == OXO_OVER_DRAW ? 0 : oxo_x_to_move(g, p) ? -1 : 1;
    *nmoves = turn;
    return 0;
}

/* A self-played game as one JSON line: its moves numbered as the players number them (columns on
 * Connect-4, so that the digits joined are the position --position reads; cells elsewhere), for
 * scripts that trace where a game was lost. */
static void game_json(uint64_t k, const int *moves, int n, int result)
{
    printf("{\"game\":%llu,\"moves\":[", (unsigned long long)k);
    for (int i = 0; i < n; i++)
        printf("%s%d", i ? "," : "", moves[i] + 1);
    printf("],\"result\":\"%s\"}\n", result > 0 ? "X" : result < 0 ? "O" : "draw");
}

/* What the command line gives. */
typedef struct play_args {
    const char *spec, *table, *model, *position, *info, *versus, *agent_spec, *vagent_spec, *book,
        *judge;
    uint64_t budget, games, level, seed, vlevel; /* vlevel 0: not given */
    int human_x, hints, self, batch, json, no_book, seeded;
    char budget_spec[8500]; /* "solver:MS", and two paths of up to 4,096 bytes */
    char vbook_spec[4200], xbook_spec[4200], book_found[4096];
} play_args;

/* Reads the command line into a: -1 go on, else the exit status to leave with. */
static int parse_args(int argc, char **argv, play_args *a)
{
    enum {
        O_HUMAN = 256,
        O_HINTS,
        O_SELF,
        O_JSON,
        O_VERSUS,
        O_GAMES,
        O_VLEVEL,
        O_VAGENT,
        O_BUDGET,
        O_BOOK,
        O_NOBOOK,
        O_JUDGE
    };
    /* clang-format off */
    static const struct option opts[] = {
        {"table", required_argument, 0, 't'}, {"model", required_argument, 0, 'm'},
        {"human", required_argument, 0, O_HUMAN}, {"hints", no_argument, 0, O_HINTS},
        {"self-play", no_argument, 0, O_SELF}, {"position", required_argument, 0, 'p'},
        {"batch", no_argument, 0, 'b'}, {"json", no_argument, 0, O_JSON},
        {"info", required_argument, 0, 'i'}, {"level", required_argument, 0, 'l'},
        {"seed", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},
        {"versus", required_argument, 0, O_VERSUS}, {"games", required_argument, 0, O_GAMES},
        {"versus-level", required_argument, 0, O_VLEVEL}, {"game", required_argument, 0, 'g'},
        {"agent", required_argument, 0, 'a'}, {"versus-agent", required_argument, 0, O_VAGENT},
        {"budget-ms", required_argument, 0, O_BUDGET}, {"book", required_argument, 0, O_BOOK},
        {"no-book", no_argument, 0, O_NOBOOK}, {"version", no_argument, 0, 'V'}, {"judge", required_argument, 0, O_JUDGE}, {0, 0, 0, 0},
    };
    /* clang-format on */
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:m:p:bi:l:s:g:a:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            a->spec = optarg;
            break;
        case 'a':
            a->agent_spec = optarg;
            break;
        case O_VAGENT:
            a->vagent_spec = optarg;
            break;
        case O_BUDGET:
            if (oxo_cli_u64(prog, "--budget-ms", optarg, 1, 3600000, &a->budget))
                return OXO_EXIT_USAGE;
            break;
        case O_BOOK:
            a->book = optarg;
            break;
        case O_NOBOOK:
            a->no_book = 1;
            break;
        case 't':
            a->table = optarg;
            break;
        case 'm':
            a->model = optarg;
            break;
        case O_HUMAN:
            if (strcmp(optarg, "x") && strcmp(optarg, "X") && strcmp(optarg, "o") &&
                strcmp(optarg, "O")) {
                fprintf(stderr, "%s: --human: '%s', expected x or o\n", prog, optarg);
                return OXO_EXIT_USAGE;
            }
            a->human_x = optarg[0] == 'x' || optarg[0] == 'X';
            break;
        case O_HINTS:
            a->hints = 1;
            break;
        case O_SELF:
            a->self = 1;
            break;
        case 'p':
            a->position = optarg;
            break;
        case 'b':
            a->batch = 1;
            break;
        case O_JSON:
            a->json = 1;
            break;
        case O_VERSUS:
            a->versus = optarg;
            break;
        case O_GAMES:
            if (oxo_cli_u64(prog, "--games", optarg, 1, 100000000, &a->games))
                return OXO_EXIT_USAGE;
            break;
        case O_VLEVEL:
            if (oxo_cli_u64(prog, "--versus-level", optarg, 1, 10, &a->vlevel))
                return OXO_EXIT_USAGE;
            break;
        case 'i':
            a->info = optarg;
            break;
        case O_JUDGE:
            a->judge = optarg;
            break;
        case 'l':
            if (oxo_cli_u64(prog, "--level", optarg, 1, 10, &a->level))
                return OXO_EXIT_USAGE;
            break;
        case 's':
            if (oxo_cli_u64(prog, "--seed", optarg, 0, UINT64_MAX, &a->seed))
                return OXO_EXIT_USAGE;
            a->seeded = 1;
            break;
        default:
            return oxo_cli_other(prog, c, argv, opts, usage);
        }
    }
    return oxo_cli_no_operands(prog, argc, argv) ? OXO_EXIT_USAGE : -1;
}

/* The options that exclude each other or go with another: 0, else the exit status. */
static int check_modes(const play_args *a)
{
    const char *why = NULL;
    if (a->table && a->model)
        why = "--table and --model exclude each other";
    else if ((a->position != NULL) + a->batch + a->self + (a->info != NULL) + (a->judge != NULL) >
             1)
        why = "choose one of --position, --batch, --self-play, --info, --judge";
    else if (a->judge && (!a->agent_spec || a->table || a->model))
        why = "--judge grades an --agent (table:FILE or model:FILE for a file's own moves)";
    else if ((a->versus || a->games > 1 || a->vlevel || a->vagent_spec) && !a->self)
        why = "--versus, --versus-level, --versus-agent and --games go with --self-play";
    else if (a->versus && a->vagent_spec)
        why = "--versus and --versus-agent exclude each other";
    else if (a->json && !a->position && !a->batch && !a->info && !a->self && !a->judge)
        why = "--json goes with --position, --batch, --info, --self-play or --judge";
    if (why)
        fprintf(stderr, "%s: %s\n", prog, why);
    return why ? OXO_EXIT_USAGE : 0;
}

/* The Connect-4 solver's specs: as the player (--agent solver, or the default on a board without
 * a table) within --budget-ms a move, and as the perfect opponent of --self-play, each answering
 * the first moves from --book or the game's shipped book. 0, else the exit status. */
static int solver_specs(play_args *a, const oxo_game *want, const char *path, int have_table)
{
    /* Connect-4 without a table (7x6): the solver plays, within --budget-ms per move. */
    if (want->solver && !path && !have_table && !a->agent_spec)
        a->agent_spec = "solver";
    const int outcome_x = a->agent_spec && !strcmp(a->agent_spec, "solver:outcome");
    const int solver_x = (a->agent_spec && !strcmp(a->agent_spec, "solver")) || outcome_x;
    const int outcome_o = a->vagent_spec && !strcmp(a->vagent_spec, "solver:outcome");
    const int solver_o = (a->vagent_spec && !strcmp(a->vagent_spec, "solver")) || outcome_o;
    if ((a->book || a->no_book) &&
        (!want->solver || !(solver_x || solver_o) || (a->book && a->no_book))) {
        fprintf(
            stderr,
            "%s: --book or --no-book (not both) go with the Connect-4 solver player (--game "
            "connect4:W,H without a table, --agent or --versus-agent solver or solver:outcome)\n",
            prog);
        return OXO_EXIT_USAGE;
    }
    const char *book = a->book;
    if (!book && !a->no_book && want->solver && (solver_x || solver_o) &&
        oxo_find_book(want->spec, a->book_found, sizeof a->book_found) == 0)
        book = a->book_found;
    if (solver_o && want->solver && book) {
        /* Without the book each of the opponent's first answers on 7x6 is a solve of seconds to
         * minutes. Exact, no budget, as the trainer's perfect player. */
        if (snprintf(a->vbook_spec, sizeof a->vbook_spec,
                     outcome_o ? "solver:outcome:book=%s" : "solver:book=%s",
                     book) < (int)sizeof a->vbook_spec)
            a->vagent_spec = a->vbook_spec;
    }
    if (outcome_x && want->solver) {
        /* Exact, no budget: the book only. */
        if (book && snprintf(a->xbook_spec, sizeof a->xbook_spec, "solver:outcome:book=%s", book) <
                        (int)sizeof a->xbook_spec)
            a->agent_spec = a->xbook_spec;
    } else if (solver_x && want->solver) {
        /* The game's shipped n-tuple model, when there is one, chooses where the budget runs
         * out. */
        char name[128], vfound[4096];
        oxo_data_name(want->spec, "-ntuple.oxm", name, sizeof name);
        const size_t cap = sizeof a->budget_spec;
        int n = snprintf(a->budget_spec, cap, "solver:%llu", (unsigned long long)a->budget);
        if (oxo_find_data(name, vfound, sizeof vfound) == 0)
            n += snprintf(a->budget_spec + n, cap - (size_t)n, ":value=%s", vfound);
        if (book && n > 0 && (size_t)n < cap)
            snprintf(a->budget_spec + n, cap - (size_t)n, ":book=%s", book);
        a->agent_spec = a->budget_spec;
    }
    return 0;
}

/* The file played (a table, a model or networks joined by '+'), checked against --game and
 * against the option that named it: 0 with *out set, else the exit status. */
static int open_source(const play_args *a, const oxo_game *want, const char *path, oxo_player **out)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open_joined(path, &err);
    int rc = OXO_EXIT_FAIL;
    if (!pl) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, err.msg);
        return rc;
    }
    if (oxo_player_takes(pl, path, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err))
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    else if (a->spec && !oxo_game_same(oxo_player_game(pl), want))
        fprintf(stderr, "%s: %s is a %s of %s, not of %s (--game)\n", prog, path,
                oxo_player_table(pl) ? "table" : "model", oxo_player_game(pl)->spec, a->spec);
    else if ((oxo_player_exact(pl)) != !a->model) {
        fprintf(stderr, "%s: %s is a %s; use %s\n", prog, path,
                oxo_player_table(pl) ? "table" : "model",
                oxo_player_table(pl) ? "--table" : "--model");
        rc = OXO_EXIT_USAGE;
    } else {
        *out = pl;
        return 0;
    }
    oxo_player_close(pl);
    return rc;
}

/* --self-play, or games against a person: X's side (the file, or --agent) against O's (--versus,
 * --versus-agent, or the same); a tally when more than one. 0 ok, else 1. */
static int play_games(const play_args *a, const oxo_game *g, oxo_player *pl, oxo_agent *ax,
                      oxo_agent *ao, uint64_t *rng)
{
    oxo_error err;
    oxo_player *po = pl;
    int rc = 0;
    if (a->versus && !(po = oxo_player_open_as(a->versus, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err))) {
        fprintf(stderr, "%s: %s%s%s\n", prog, err.code == OXO_E_KIND ? "" : a->versus,
                err.code == OXO_E_KIND ? "" : ": ", err.msg);
        return 1;
    }
    if (po && !oxo_game_same(oxo_player_game(po), g)) {
        fprintf(stderr, "%s: %s is of %s, not of %s\n", prog, a->versus, oxo_player_game(po)->spec,
                g->spec);
        if (po != pl)
            oxo_player_close(po);
        return 1;
    }
    /* Each side has its own level: "level 1 against the table" is --level 1 --versus TABLE. */
    uint64_t olevel = a->vlevel ? a->vlevel : a->versus ? 10 : a->level;
    side sx = {pl, ax, (int)a->level}, so = {po, ao ? ao : a->versus ? NULL : ax, (int)olevel};
    uint64_t tally[3] = {0, 0, 0};
    int moves[OXO_MAX_MOVES], nmoves = 0;
    for (uint64_t k = 0; k < a->games && !rc; k++) {
        int result = 0;
        /* Hints from the file played: a table's exact values, a model's learned scores (a model's
         * hints showed nothing before). */
        rc = play_game(g, &sx, &so, a->human_x, a->self, a->hints && pl ? pl : NULL,
                       a->hints && !pl && ax && !strcmp(oxo_agent_kind(ax), "solver") ? ax : NULL,
                       rng, a->games > 1 || a->json, &result, moves, &nmoves);
        if (!rc && a->json)
            game_json(k + 1, moves, nmoves, result);
        tally[1 - result]++;
        if (rc == 2)
            rc = 0;
    }
    if (a->json && !rc)
        printf("{\"games\":%llu,\"x_wins\":%llu,\"draws\":%llu,\"o_wins\":%llu}\n",
               (unsigned long long)a->games, (unsigned long long)tally[0],
               (unsigned long long)tally[1], (unsigned long long)tally[2]);
    else if (a->games > 1)
        printf("%llu games: X won %llu, drawn %llu, O won %llu\n", (unsigned long long)a->games,
               (unsigned long long)tally[0], (unsigned long long)tally[1],
               (unsigned long long)tally[2]);
    if (po != pl)
        oxo_player_close(po);
    return rc;
}

int main(int argc, char **argv)
{
    static play_args a = {.budget = 1000, .games = 1, .level = 10, .human_x = 1};
    oxo_cli_init();
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if ((rc = check_modes(&a)))
        return rc;
    if (a.info)
        return oxo_cli_finish(prog, print_info(a.info, a.json));
    if (a.judge)
        return oxo_cli_finish(prog, grade_on_set(a.judge, a.spec, a.agent_spec, a.book, a.no_book,
                                                 a.seeded ? a.seed : 1, a.json));
    /* The game: --game, or the game of the file given; the default table is the game's own. */
    char found[4096];
    oxo_error err;
    oxo_game *want = oxo_game_open(a.spec ? a.spec : "tictactoe", &err);
    if (!want) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    /* A position of --game's game is read before any file is opened: a mistyped one is refused at
     * once, not after the opening book's check (most of a second on 6x5). */
    oxo_pos given;
    if (a.position && a.spec && oxo_board_parse(want, a.position, &given, &err)) {
        oxo_game_free(want);
        return oxo_cli_finish(prog, board_error(err.msg, a.json));
    }
    const char *path = a.model ? a.model : a.table;
    /* The game's own table, looked for once: the default source, and the hints of agents. */
    int have_table = 0;
    if (!path) {
        char name[128];
        oxo_table_name(want->spec, name, sizeof name);
        have_table = oxo_find_data(name, found, sizeof found) == 0;
    }
    oxo_player *pl = NULL;
    oxo_agent *ax = NULL, *ao = NULL;
    if ((rc = solver_specs(&a, want, path, have_table)))
        goto out;
    int agents_only = a.agent_spec && !path;
    if (!path && have_table)
        path = found;
    else if (!path && !agents_only) {
        /* Not found: say where it was looked for and how to make it. */
        oxo_cli_default_table(prog, want->spec, found, sizeof found);
        rc = OXO_EXIT_FAIL;
        goto out;
    }
    if (path && (rc = open_source(&a, want, path, &pl)))
        goto out;
    int solver_hints = want->solver && a.agent_spec && !strncmp(a.agent_spec, "solver", 6);
    if (a.hints && (!pl || !oxo_player_exact(pl)) && agents_only && !solver_hints) {
        fprintf(stderr,
                "%s: --hints needs the game's table (%s has none here; make it with oxo-gen "
                "--game %s)\n",
                prog, want->name, want->spec);
        rc = OXO_EXIT_FAIL;
        goto out;
    }
    /* The game of the file when no --game was given, else --game's. */
    const oxo_game *g = pl ? oxo_player_game(pl) : want;
    int file_failed = 0;
    if ((a.agent_spec && !(ax = oxo_agent_open_ex(g, a.agent_spec, &file_failed, &err))) ||
        (a.vagent_spec && !(ao = oxo_agent_open_ex(g, a.vagent_spec, &file_failed, &err)))) {
        fprintf(stderr, "%s: --%s: %s\n", prog, ax || !a.agent_spec ? "versus-agent" : "agent",
                err.msg);
        rc = file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
        goto out;
    }
    if (!a.seeded)
        a.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    uint64_t rng = oxo_rng_stream(a.seed, 0);
    /* With --position and --batch the solver scores every column (Connect-4); any other agent
     * answers with the move it plays there (the game's table, when open beside it, is not asked).
     */
    oxo_agent *ag = ax && strcmp(oxo_agent_kind(ax), "solver") ? ax : NULL;
    if (a.position)
        rc = ag          ? evaluate_agent(ag, g, a.position, a.json, &rng)
             : ax && !pl ? evaluate_solver(ax, g, a.position, a.json, &rng)
                         : evaluate(pl, a.position, a.json);
    else if (a.batch)
        rc = run_batch(pl, ax && !pl && !ag ? ax : NULL, ag, g, &rng);
    else
        rc = play_games(&a, g, pl, ax, ao, &rng);
    rc = oxo_cli_finish(prog, rc ? OXO_EXIT_FAIL : OXO_EXIT_OK);
out:
    oxo_agent_free(ax);
    oxo_agent_free(ao);
    oxo_player_close(pl);
    oxo_game_free(want);
    return rc;
}
