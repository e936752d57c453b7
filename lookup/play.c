/*
 * oxo-play: a tiny player that picks moves by lookup only, from a solved table or a learned model.
 * Interactive against a person, against itself (--self-play), or for scripts (--position,
 * --batch, --json). Links the game core and the readers of formats/, nothing else.
 */
#include "boardio.h"
#include "c4solve.h"
#include "cli.h"
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
    fprintf(out,
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
            "  -a, --agent SPEC      the computer plays as this agent instead (in --self-play, X):\n"
            "                        random, table[:FILE], model:FILE, solver,\n"
            "                        alphabeta:DEPTH[:value=FILE], mcts:PLAYOUTS[:C][:value=FILE],\n"
            "                        puct:ITERATIONS[:C]:value=FILE (a search led by a\n"
            "                        model) or qtable:FILE (the JSON Q-table of a tic-tac-toe\n"
            "                        Q-learning app) (no table needed, e.g. on Connect-4 7x6); with\n"
            "                        --position or --batch, the move it plays (the solver: each\n"
            "                        column's score)\n"
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
            "      --games N         with --self-play: play N games, print only the tally (default: 1)\n"
            "  -p, --position BOARD  evaluate one position: for m,n,k the cells (X, O or .) row by\n"
            "                        row from the top left, the side to move following from the\n"
            "                        counts; for Connect-4 the columns played, digits 1..W (4453)\n"
            "  -b, --batch           evaluate one BOARD per line of standard input\n"
            "      --json            with --position/--batch/--info: JSON, one object per line;\n"
            "                        with --self-play, each game's moves and result, then the tally\n"
            "  -i, --info FILE       print the metadata of a table or a model (of each network of A+B)\n"
            "\n"
            "Play:\n"
            "  -l, --level N         1..10 (default: 10, perfect play). The player plays a uniformly\n"
            "                        random legal move with probability (10 - N) / 9 and its best\n"
            "                        move otherwise: level 1 is random, level 10 never errs.\n"
            "                        In --self-play, the level of X\n"
            "  -s, --seed N          seed of the tie-breaks and random moves (default: from the clock)\n"
            "  -h, --help            show this help and exit\n"
            "  -V, --version         show the version and exit\n"
            "\n"
            "Exit status: 0 ok, 1 failure (bad file, illegal board, end of input), 2 bad usage.\n");
}

/* What a move is called, for people: moves are shown 1-based. */
static const char *move_word(const oxo_game *g)
{
    return g->move_noun;
}

/* A finished game as --position and --batch show it: "draw" or who won (the side to move lost),
 * and as JSON's status, for the side to move: "draw" or "loss". */
static const char *over_text(const oxo_game *g, oxo_pos p)
{
    return oxo_status_of(g, p) == OXO_OVER_DRAW ? "draw" : oxo_x_to_move(g, p) ? "O won" : "X won";
}

static const char *over_status(const oxo_game *g, oxo_pos p)
{
    return oxo_status_of(g, p) == OXO_OVER_DRAW ? "draw" : "loss";
}

/* A board that cannot be evaluated: the sentence on stderr, and as JSON too with --json. */
static int board_error(const char *msg, int json)
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
static void print_column_scores(const oxo_game *g, const int *score, const int *known, int exact)
{
    printf("column scores%s:", exact ? "" : " (not exact: the budget ran out; - unknown)");
    for (int m = 0; m < g->moves; m++)
        known[m] ? printf(" %d", score[m]) : printf(" -");
    printf("\n");
}

/* ,"best":[...],"best_labels":[...]: the moves numbered from 0, as programs have read them, and
 * the same moves as a person types them (--position's column digits), from 1. */
static void json_best(const int *moves, int n)
{
    for (int add = 0; add < 2; add++) {
        printf(add ? "],\"best_labels\":[" : ",\"best\":[");
        for (int i = 0; i < n; i++)
            printf("%s%d", i ? "," : "", moves[i] + add);
    }
    printf("]");
}

/* Connect-4 without a table: each column's score from the solver within its budget, and always a
 * move: the best when every column was solved, otherwise the fallback's (the value model, or
 * alpha-beta), named in the answer, the columns solved kept. */
static int evaluate_solver(oxo_agent *sv, const oxo_game *g, const char *text, int json, uint64_t *rng)
{
    oxo_pos p;
    char msg[300];
    if (oxo_board_parse(g, text, &p, msg, sizeof msg)) {
        return board_error(msg, json);
    }
    const char *side = oxo_x_to_move(g, p) ? "X" : "O";
    int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES] = { 0 }, exact = 1, best = -1000, move = -1;
    int over = oxo_status_of(g, p) != OXO_ONGOING;
    if (!over)
        move = oxo_agent_answer(sv, p, oxo_agent_budget(sv), score, known, &exact, rng);
    for (int m = 0; m < g->moves; m++)
        if (known[m] && score[m] > best)
            best = score[m];
    /* The moves it names: every best one when exact, else the one the fallback chose. */
    int named[OXO_MAX_MOVES], nn = 0;
    for (int m = 0; exact && m < g->moves; m++)
        if (known[m] && score[m] == best)
            named[nn++] = m;
    if (!exact && move >= 0)
        named[nn++] = move;
    if (json) {
        printf("{\"to_move\":\"%s\",\"exact\":%s,\"scores\":[", side, exact ? "true" : "false");
        for (int m = 0; m < g->moves; m++)
            known[m] ? printf("%s%d", m ? "," : "", score[m]) : printf("%snull", m ? "," : "");
        printf("]");
        if (over)
            printf(",\"value\":null,\"status\":\"%s\"", over_status(g, p));
        else if (exact)
            printf(",\"score\":%d,\"value\":\"%s\",\"distance\":%d", best,
                   oxo_value_name(best > 0 ? OXO_WIN : best < 0 ? OXO_LOSS : OXO_DRAW),
                   oxo_c4_score_distance(g, best, oxo_ply(p)));
        json_best(named, nn);
        if (!over && !exact) {
            printf(",\"chosen_by\":");
            oxo_json_str(stdout, oxo_agent_chosen(sv));
        }
        printf("}\n");
        return 0;
    }
    oxo_board_draw(g, p, 0, stdout);
    if (over) {
        printf("game over: %s\n", over_text(g, p));
        return 0;
    }
    printf("%s to move, ", side);
    print_column_scores(g, score, known, exact);
    if (exact) {
        printf("best:");
        for (int i = 0; i < nn; i++)
            printf(" %d", named[i] + 1);
        printf("\n");
    } else
        printf("plays %s %d (%s)\n", move_word(g), move + 1, oxo_agent_note(sv));
    return 0;
}

/* Evaluates one board; returns 0, or 1 after reporting an illegal board. */
static int evaluate(const oxo_player *pl, const char *text, int json)
{
    const oxo_game *g = pl->game;
    oxo_pos p;
    char msg[300];
    oxo_move_info mi[OXO_MAX_MOVES];
    int best[OXO_MAX_MOVES], n = -1;
    if (oxo_board_parse(g, text, &p, msg, sizeof msg) == 0) {
        n = oxo_player_moves(pl, p, mi);
        if (n < 0 && pl->book && oxo_ply(p) >= pl->book_depth)
            snprintf(msg, sizeof msg, "board \"%.80s\" has %d stones: an opening book of up to %d holds its moves "
                     "only below that (oxo-play --game %s --book FILE searches past it)", text, oxo_ply(p),
                     pl->book_depth, g->spec);
        else if (n < 0)
            snprintf(msg, sizeof msg, "board \"%.80s\" cannot arise in a game (play stops at a win)", text);
    }
    if (n < 0) {
        return board_error(msg, json);
    }
    int k = oxo_best_moves(mi, n, best);
    int table = pl->source == OXO_SRC_TABLE;
    int value = 0, distance = 0;
    if (table)
        oxo_player_value(pl, p, &value, &distance);
    const char *side = oxo_x_to_move(g, p) ? "X" : "O";
    if (json) {
        printf("{\"to_move\":\"%s\",", side);
        if (table)
            printf("\"value\":\"%s\",\"distance\":%d", oxo_value_name(value), distance);
        else if (n) {
            double top = mi[0].score;
            for (int i = 1; i < n; i++)
                top = mi[i].score > top ? mi[i].score : top;
            printf("\"value\":%.6g", top);
        }
        else
            printf("\"value\":null,\"status\":\"%s\"", over_status(g, p));
        json_best(best, k);
        printf(",\"moves\":[");
        for (int i = 0; i < n; i++) {
            printf("%s{\"move\":%d,\"label\":%d,\"cell\":%d,", i ? "," : "", mi[i].move, mi[i].move + 1,
                   oxo_cell_of_move(g, p, mi[i].move));
            if (table)
                printf("\"value\":\"%s\",\"distance\":%d}", oxo_value_name(mi[i].value), mi[i].distance);
            else
                printf("\"value\":%.6g}", mi[i].score);
        }
        printf("]}\n");
        return 0;
    }
    oxo_board_draw(g, p, 0, stdout);
    if (!n) {
        printf("game over: %s\n", over_text(g, p));
        return 0;
    }
    if (table)
        printf("%s to move: %s in %d\n", side, oxo_value_name(value), distance);
    else
        printf("%s to move\n", side);
    for (int i = 0; i < n; i++) {
        if (table)
            printf("  %s %d: %s in %d\n", move_word(g), mi[i].move + 1, oxo_value_name(mi[i].value),
                   mi[i].distance);
        else
            printf("  %s %d: %+.4f\n", move_word(g), mi[i].move + 1, mi[i].score);
    }
    printf("best:");
    for (int i = 0; i < k; i++)
        printf(" %d", best[i] + 1);
    printf("\n");
    return 0;
}

/* One line of the batch input: up to and without its end ('\n', '\r' or "\r\n"). At most cap - 1
 * bytes are kept; *len receives the line's true length, so that a line of any length is one line.
 * Returns 0, or -1 at the end of input with no line. A "\r\n" is seen as one end without waiting
 * for the byte after '\r': *cr remembers to drop a '\n' that comes next, so that a client that
 * ends its line with '\r' gets its answer at once. */
static int read_line(FILE *in, char *buf, size_t cap, size_t *len, int *nul, int *cr)
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

/* --agent SPEC (any agent but the solver, which scores every column) with --position or --batch:
 * the move the agent plays there, so that a script or another program can have any agent play,
 * e.g. puct over a model, one position at a time. Returns 0, or 1 after reporting a bad board. */
static int evaluate_agent(oxo_agent *a, const oxo_game *g, const char *text, int json, uint64_t *rng)
{
    oxo_pos p;
    char msg[300];
    if (oxo_board_parse(g, text, &p, msg, sizeof msg))
        return board_error(msg, json);
    const char *side = oxo_x_to_move(g, p) ? "X" : "O";
    int over = oxo_status_of(g, p) != OXO_ONGOING;
    int m = over ? -1 : oxo_agent_pick(a, p, rng);
    if (json) {
        printf("{\"to_move\":\"%s\",\"agent\":", side);
        oxo_json_str(stdout, oxo_agent_name(a));
        if (over)
            printf(",\"move\":null,\"status\":\"%s\"}\n", over_status(g, p));
        else
            printf(",\"move\":%d,\"label\":%d,\"cell\":%d}\n", m, m + 1, oxo_cell_of_move(g, p, m));
        return 0;
    }
    oxo_board_draw(g, p, 0, stdout);
    if (over)
        printf("game over: %s\n", over_text(g, p));
    else
        printf("%s to move: %s plays %s %d\n", side, oxo_agent_name(a), move_word(g), m + 1);
    return 0;
}

/* --batch: one answer per input line, written as soon as the line is read. */
static int run_batch(const oxo_player *pl, oxo_agent *sv, oxo_agent *ag, const oxo_game *g, uint64_t *rng)
{
    char line[4 * OXO_MAX_MOVES + 64]; /* moves of two digits and a comma each, on wide boards */
    size_t len;
    unsigned long lineno = 0;
    int nul, cr = 0, rc = 0;
    while (read_line(stdin, line, sizeof line, &len, &nul, &cr) == 0) {
        lineno++;
        char msg[200];
        msg[0] = 0;
        if (nul)
            snprintf(msg, sizeof msg, "line %lu holds a NUL byte", lineno);
        else if (len >= sizeof line - 1)
            snprintf(msg, sizeof msg, "line %lu is %zu bytes long, longer than any board", lineno, len);
        if (msg[0]) {
            printf("{\"error\":");
            oxo_json_str(stdout, msg);
            printf("}\n");
            fprintf(stderr, "%s: %s\n", prog, msg);
            rc = 1;
        } else if (ag   ? evaluate_agent(ag, g, line, 1, rng)
                   : sv ? evaluate_solver(sv, g, line, 1, rng)
                        : evaluate(pl, line, 1)) {
            fprintf(stderr, "%s: (line %lu of the batch)\n", prog, lineno);
            rc = 1;
        }
        if (fflush(stdout) != 0)
            break; /* reported by oxo_cli_finish */
    }
    return rc;
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
    printf(pl->source == OXO_SRC_TABLE ? "hints:" : "hints (learned scores, higher is better):");
    for (int i = 0; i < n; i++) {
        if (pl->source == OXO_SRC_TABLE)
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
            printf("that line is too long; type a %s number from 1 to %d\n", move_word(g), g->moves);
            continue;
        }
        if (nul) { /* fgets took "4<NUL>junk" for 4 */
            printf("that line holds a NUL byte; type a %s number from 1 to %d\n", move_word(g), g->moves);
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
            printf("%ld is out of range; type a %s number from 1 to %d\n", v, move_word(g), g->moves);
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
 * the person plays one side and px the other, at `level`. Returns 0 when the game ended, 1 at end of input, 2 when abandoned,
 * 3 when a side had no move to play (reported);
 * *result receives +1 (X won), 0 (draw) or -1 (O won). */
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
                int exact = oxo_agent_scores(hint_solver, p, oxo_agent_budget(hint_solver), score, known) == 1;
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
                        me->agent ? oxo_agent_name(me->agent) : "the player", xm ? "X" : "O", oxo_ply(p));
                return 3;
            }
            if (self && !quiet)
                printf("%s%d. %s plays %d\n", turn ? "\n" : "", turn + 1, xm ? "X" : "O", move + 1);
            else if (!self)
            {
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

/* JSON fields of --info: every string escaped, whatever the file holds (the readers already refuse
 * strings that are not printable ASCII; this keeps the output well-formed regardless). */
static void jstr(const char *key, const char *val, int last)
{
    printf("\"%s\":", key);
    oxo_json_str(stdout, val);
    fputs(last ? "" : ",", stdout);
}

static void jschedule(const char *key, const oxo_schedule *s)
{
    printf("\"%s\":{", key);
    jstr("kind", s->kind, 0);
    printf("\"start\":%g,\"end\":%g,\"length\":%llu},", s->start, s->end, (unsigned long long)s->length);
}

static void info_json(const oxo_player *pl)
{
    char format[16];
    printf("{");
    if (pl->table) {
        const oxo_table *t = pl->table;
        const oxo_table_counts *c = &t->counts;
        snprintf(format, sizeof format, "%d.%d", t->major, t->minor);
        jstr("kind", "table", 0);
        jstr("format", format, 0);
        jstr("game", t->game, 0);
        printf("\"rows\":%u,\"cols\":%u,", t->rows, t->cols);
        jstr("index", t->index, 0);
        if (pl->book)
            printf("\"book_depth\":%d,", pl->book_depth);
        printf("\"symmetric\":%s,\"entries\":%u,\"nodes\":%llu,\"games\":%llu,\"x_wins\":%llu,"
               "\"o_wins\":%llu,\"draws\":%llu,\"positions\":%llu,\"terminal_positions\":%llu,"
               "\"canonical_positions\":%llu,\"canonical_nonterminal_positions\":%llu,",
               t->symmetric ? "true" : "false", t->n, (unsigned long long)c->nodes,
               (unsigned long long)c->games, (unsigned long long)c->x_wins, (unsigned long long)c->o_wins,
               (unsigned long long)c->draws, (unsigned long long)c->positions,
               (unsigned long long)c->terminal_positions, (unsigned long long)c->canonical_positions,
               (unsigned long long)c->canonical_nonterminal_positions);
        jstr("root_value", t->root_value, 0);
        jstr("generator", t->generator, 1);
        printf("}\n");
        return;
    }
    const oxo_model *m = pl->model;
    snprintf(format, sizeof format, "%d.%d", OXO_FORMAT_MAJOR, m->minor);
    jstr("kind", "model", 0);
    jstr("format", format, 0);
    jstr("game", m->game, 0);
    printf("\"rows\":%u,\"cols\":%u,", m->rows, m->cols);
    jstr("index", m->index, 0);
    printf("\"symmetric\":%s,", m->symmetric ? "true" : "false");
    jstr("algo", m->algo, 0);
    printf("\"values\":%u,", m->nvalues);
    jschedule("alpha", &m->alpha);
    jschedule("epsilon", &m->epsilon);
    printf("\"gamma\":%g,\"lambda\":%g,", m->gamma, m->lambda);
    jstr("trace", m->trace, 0);
    printf("\"init\":%g,\"replay_capacity\":%u,\"replay_ratio\":%g,\"replay_rings\":%u,"
           "\"opponent\":{\"self\":%g,\"random\":%g,\"table\":%g",
           m->init, m->replay_capacity, m->replay_ratio, m->nrings, m->opp_self, m->opp_random,
           m->opp_table);
    if (m->opp_agent_spec[0]) {
        printf(",\"agent\":%g,", m->opp_agent);
        jstr("agent_spec", m->opp_agent_spec, 1);
    }
    printf("},\"exploring_starts\":%g,\"sync\":%u,\"seed\":%llu,"
           "\"workers\":%u,\"episodes\":%llu,\"accuracy\":%.6f,\"accuracy_distance\":%.6f,"
           "\"exhaustive_losses_as_x\":%llu,\"exhaustive_losses_as_o\":%llu,",
           m->starts, m->sync, (unsigned long long)m->seed, m->workers,
           (unsigned long long)m->episodes, m->accuracy, m->accuracy_distance,
           (unsigned long long)m->losses_as_x, (unsigned long long)m->losses_as_o);
    if (m->nt_cells) {
        printf("\"ntuple\":{\"count\":%u,\"len\":%u,\"states\":%u,\"sets\":%u,\"horizon\":%u,"
               "\"exploring_depth\":%u,\"target\":\"%s\",\"defend\":%s,", m->nt_count, m->nt_len,
               m->nt_states, m->nt_sets, m->nt_horizon, m->nt_start_depth, oxo_nt_target_name(m->nt_target),
               m->nt_defend ? "true" : "false");
        if (m->nt_search_games) /* the search phase (oxo-train --search-games) */
            printf("\"search\":{\"games\":%u,\"iterations\":%u,\"alpha\":%g},", m->nt_search_games,
                   m->nt_search_iterations, m->nt_search_alpha);
        printf("\"tuples\":[");
        /* The cells of each tuple (row * columns + column, row 0 on top, as --tuple-file reads them). */
        for (uint32_t t = 0; t < m->nt_count; t++)
            for (uint32_t i = 0; i < m->nt_len; i++)
                printf("%s%u%s", i ? "," : t ? ",[" : "[", m->nt_cells[(size_t)t * m->nt_len + i],
                       i + 1 == m->nt_len ? "]" : "");
        printf("]},");
    }
    if (m->avg_every)
        printf("\"average\":{\"from\":%llu,\"every\":%u,\"count\":%u},", (unsigned long long)m->avg_from,
               m->avg_every, m->avg_count);
    jstr("trainer", m->trainer, 0);
    jstr("hash", m->hash, 0);
    printf("\"parent\":");
    oxo_json_str(stdout, m->parent[0] ? m->parent : NULL);
    printf("}\n");
}

/* Text of --info. The strings come from the file; the readers accept only printable ASCII, so no
 * terminal escape sequence can reach the screen. */
static void info_text(const char *path, const oxo_player *pl)
{
    if (pl->table) {
        const oxo_table *t = pl->table;
        const oxo_table_counts *c = &t->counts;
        printf("%s: solved table, format %d.%d\n  game %s %ux%u, index %s%s, %u entries\n"
               "  root value %s; %llu tree nodes, %llu games, %llu positions (%llu canonical)\n"
               "  made by %s\n",
               path, t->major, t->minor, t->game, t->rows, t->cols, t->index,
               t->symmetric ? " (canonical)" : "", t->n, t->root_value, (unsigned long long)c->nodes,
               (unsigned long long)c->games, (unsigned long long)c->positions,
               (unsigned long long)c->canonical_positions, t->generator);
        if (pl->book)
            printf("  an opening book: every position with up to %d stones, each checked against its children\n",
                   pl->book_depth);
        return;
    }
    const oxo_model *m = pl->model;
    char agent[300] = "";
    if (m->opp_agent_spec[0])
        snprintf(agent, sizeof agent, " %s %g", m->opp_agent_spec, m->opp_agent);
    printf("%s: model, format %d.%d, hash %s%s%s\n"
           "  game %s %ux%u, index %s%s, algo %s, %u values, %u replay ring%s\n"
           "  %llu episodes, %u worker%s, seed %llu, made by %s\n"
           "  alpha %s %g..%g over %llu, epsilon %s %g..%g over %llu, gamma %g, lambda %g (%s)\n"
           "  init %g, replay %u x %g, opponents self %g random %g table %g%s, exploring starts %g, sync %u\n",
           path, OXO_FORMAT_MAJOR, m->minor, m->hash, m->parent[0] ? ", parent " : "", m->parent,
           m->game, m->rows, m->cols, m->index, m->symmetric ? " (canonical)" : "", m->algo,
           m->nvalues, m->nrings, m->nrings == 1 ? "" : "s", (unsigned long long)m->episodes,
           m->workers, m->workers == 1 ? "" : "s", (unsigned long long)m->seed, m->trainer, m->alpha.kind, m->alpha.start,
           m->alpha.end, (unsigned long long)m->alpha.length, m->epsilon.kind, m->epsilon.start,
           m->epsilon.end, (unsigned long long)m->epsilon.length, m->gamma, m->lambda, m->trace,
           m->init, m->replay_capacity, m->replay_ratio, m->opp_self, m->opp_random, m->opp_table,
           agent, m->starts, m->sync);
    if (m->nt_cells) /* graded on a judged set: no distance, and the losses are games against the perfect player */
        printf("  grade: value kept in %.2f%% of the judged positions, games lost to the perfect player %llu as X, "
               "%llu as O\n", 100 * m->accuracy, (unsigned long long)m->losses_as_x,
               (unsigned long long)m->losses_as_o);
    else
        printf("  grade: accuracy %.2f%% (distance %.2f%%), exhaustive losses %llu as X, %llu as O\n",
               100 * m->accuracy, 100 * m->accuracy_distance, (unsigned long long)m->losses_as_x,
               (unsigned long long)m->losses_as_o);
    if (m->nt_cells) { /* a network is graded on a judged set, and its losses are games against the perfect player */
        char depth[64] = "";
        if (m->starts > 0 && m->nt_start_depth)
            snprintf(depth, sizeof depth, ", exploring starts within %u moves", m->nt_start_depth);
        printf("  network: %u tuples of %u cells, %u cell states, %s, traces over %u moves%s,\n"
               "  learned toward %s; the grade is the share of value-keeping moves on a judged set and\n"
               "  the games lost against the perfect player\n",
               m->nt_count, m->nt_len, m->nt_states,
               m->nt_sets == 2 ? "a weight set for each player" : "one weight set", m->nt_horizon, depth,
               m->nt_target == OXO_NT_TARGET_OWN ? "the same player's next afterstate"
                                                 : "the opponent's next afterstate");
        if (m->nt_defend)
            printf("  self-play's second player, thinking itself lost (every move below %g), played the move\n"
                   "  leaving the first player's best reply worth least (--defend)\n", (double)OXO_NT_DEFEND_BELOW);
        if (m->avg_every && m->avg_count) /* saved in the middle of the averaging */
            printf("  weights: the mean of the %u taken so far, every %u episodes from episode %llu\n"
                   "  (--average; it plays and is graded as that mean, and a resumed run goes on from\n"
                   "  the weights as at episode %llu, also held)\n", m->avg_count, m->avg_every,
                   (unsigned long long)m->avg_from, (unsigned long long)m->episodes);
        else if (m->avg_every && m->avg_from > m->episodes) /* stopped before the averaging began */
            printf("  weights as at episode %llu; averaged every %u episodes from episode %llu on (--average)\n",
                   (unsigned long long)m->episodes, m->avg_every, (unsigned long long)m->avg_from);
        else if (m->avg_every)
            printf("  weights: the mean of those every %u episodes from episode %llu (--average)\n", m->avg_every,
                   (unsigned long long)m->avg_from);
        if (m->nt_search_games)
            printf("  then %u games of self-play led by puct:%u, each move the search played learning\n"
                   "  toward the search's value of it at alpha %g (--search-games)\n", m->nt_search_games,
                   m->nt_search_iterations, m->nt_search_alpha);
    }
}

/* An ensemble (A.oxm+B.oxm) prints each network's metadata in the order joined, one JSON object a
 * line with --json. */
static int print_info(const char *path, int json)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open_joined(path, &err);
    if (!pl) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, err.msg);
        return OXO_EXIT_FAIL;
    }
    const char *name = path;
    for (int k = 0; k <= pl->nmembers; k++) {
        const oxo_player *m = k ? pl->members[k - 1] : pl;
        const char *end = pl->nmembers ? strchr(name, '+') : NULL;
        int len = end ? (int)(end - name) : (int)strlen(name);
        if (json)
            info_json(m);
        else {
            char member[4096];
            snprintf(member, sizeof member, "%.*s", len, name);
            info_text(member, m);
        }
        name += len + (end != NULL);
    }
    oxo_player_close(pl);
    return OXO_EXIT_OK;
}

int main(int argc, char **argv)
{
    enum { O_HUMAN = 256, O_HINTS, O_SELF, O_JSON, O_VERSUS, O_GAMES, O_VLEVEL, O_VAGENT, O_BUDGET, O_BOOK, O_NOBOOK };
    const char *spec = NULL;
    static const struct option opts[] = {
        {"table", required_argument, 0, 't'},  {"model", required_argument, 0, 'm'},
        {"human", required_argument, 0, O_HUMAN}, {"hints", no_argument, 0, O_HINTS},
        {"self-play", no_argument, 0, O_SELF}, {"position", required_argument, 0, 'p'},
        {"batch", no_argument, 0, 'b'},        {"json", no_argument, 0, O_JSON},
        {"info", required_argument, 0, 'i'},   {"level", required_argument, 0, 'l'},
        {"seed", required_argument, 0, 's'},   {"help", no_argument, 0, 'h'},
        {"versus", required_argument, 0, O_VERSUS}, {"games", required_argument, 0, O_GAMES},
        {"versus-level", required_argument, 0, O_VLEVEL}, {"game", required_argument, 0, 'g'},
        {"agent", required_argument, 0, 'a'},  {"versus-agent", required_argument, 0, O_VAGENT},
        {"budget-ms", required_argument, 0, O_BUDGET}, {"book", required_argument, 0, O_BOOK},
        {"no-book", no_argument, 0, O_NOBOOK},
        {"version", no_argument, 0, 'V'},      {0, 0, 0, 0}};
    const char *table = NULL, *model = NULL, *position = NULL, *info = NULL, *versus = NULL;
    const char *agent_spec = NULL, *vagent_spec = NULL, *book = NULL;
    uint64_t budget = 1000;
    char budget_spec[8500]; /* "solver:MS", and two paths of up to 4,096 bytes */
    uint64_t games = 1;
    int human_x = 1, hints = 0, self = 0, batch = 0, json = 0, no_book = 0, c;
    uint64_t level = 10, seed = 0, vlevel = 0; /* vlevel 0: not given */
    int seeded = 0;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:m:p:bi:l:s:g:a:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g': spec = optarg; break;
        case 'a': agent_spec = optarg; break;
        case O_VAGENT: vagent_spec = optarg; break;
        case O_BUDGET:
            if (oxo_cli_u64(prog, "--budget-ms", optarg, 1, 3600000, &budget))
                return OXO_EXIT_USAGE;
            break;
        case O_BOOK: book = optarg; break;
        case O_NOBOOK: no_book = 1; break;
        case 't': table = optarg; break;
        case 'm': model = optarg; break;
        case O_HUMAN:
            if (strcmp(optarg, "x") && strcmp(optarg, "X") && strcmp(optarg, "o") && strcmp(optarg, "O")) {
                fprintf(stderr, "%s: --human: '%s', expected x or o\n", prog, optarg);
                return OXO_EXIT_USAGE;
            }
            human_x = optarg[0] == 'x' || optarg[0] == 'X';
            break;
        case O_HINTS: hints = 1; break;
        case O_SELF: self = 1; break;
        case 'p': position = optarg; break;
        case 'b': batch = 1; break;
        case O_JSON: json = 1; break;
        case O_VERSUS: versus = optarg; break;
        case O_GAMES:
            if (oxo_cli_u64(prog, "--games", optarg, 1, 100000000, &games))
                return OXO_EXIT_USAGE;
            break;
        case O_VLEVEL:
            if (oxo_cli_u64(prog, "--versus-level", optarg, 1, 10, &vlevel))
                return OXO_EXIT_USAGE;
            break;
        case 'i': info = optarg; break;
        case 'l':
            if (oxo_cli_u64(prog, "--level", optarg, 1, 10, &level))
                return OXO_EXIT_USAGE;
            break;
        case 's':
            if (oxo_cli_u64(prog, "--seed", optarg, 0, UINT64_MAX, &seed))
                return OXO_EXIT_USAGE;
            seeded = 1;
            break;
        case 'h': usage(stdout); return oxo_cli_finish(prog, OXO_EXIT_OK);
        case 'V': printf("oxo-play %s\n", OXO_VERSION); return oxo_cli_finish(prog, OXO_EXIT_OK);
        default:
            return oxo_cli_bad_option(prog, c, argv, opts);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (table && model) {
        fprintf(stderr, "%s: --table and --model exclude each other\n", prog);
        return OXO_EXIT_USAGE;
    }
    if ((position != NULL) + batch + self + (info != NULL) > 1) {
        fprintf(stderr, "%s: choose one of --position, --batch, --self-play, --info\n", prog);
        return OXO_EXIT_USAGE;
    }
    if ((versus || games > 1 || vlevel || vagent_spec) && !self) {
        fprintf(stderr, "%s: --versus, --versus-level, --versus-agent and --games go with --self-play\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (versus && vagent_spec) {
        fprintf(stderr, "%s: --versus and --versus-agent exclude each other\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (json && !position && !batch && !info && !self) {
        fprintf(stderr, "%s: --json goes with --position, --batch, --info or --self-play\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (info)
        return oxo_cli_finish(prog, print_info(info, json));

    /* The game: --game, or the game of the file given; the default table is the game's own. */
    char msg[400], found[4096];
    oxo_game *want = oxo_game_open(spec ? spec : "tictactoe", msg, sizeof msg);
    if (!want) {
        fprintf(stderr, "%s: --game: %s\n", prog, msg);
        return OXO_EXIT_USAGE;
    }
    /* A position of --game's game is read before any file is opened: a mistyped one is refused at
     * once, not after the opening book's check (most of a second on 6x5). */
    oxo_pos given;
    if (position && spec && oxo_board_parse(want, position, &given, msg, sizeof msg)) {
        oxo_game_free(want);
        return oxo_cli_finish(prog, board_error(msg, json));
    }
    const char *path = model ? model : table;
    /* The game's own table, looked for once: the default source, and the hints of agents. */
    int have_table = 0;
    if (!path) {
        char name[128];
        oxo_table_name(want->spec, name, sizeof name);
        have_table = oxo_find_data(name, found, sizeof found) == 0;
    }
    /* Connect-4 without a table (7x6): the solver plays, within --budget-ms per move. */
    if (want->solver && !path && !have_table && !agent_spec)
        agent_spec = "solver";
    const int outcome_x = agent_spec && !strcmp(agent_spec, "solver:outcome");
    const int solver_x = (agent_spec && !strcmp(agent_spec, "solver")) || outcome_x;
    const int outcome_o = vagent_spec && !strcmp(vagent_spec, "solver:outcome");
    const int solver_o = (vagent_spec && !strcmp(vagent_spec, "solver")) || outcome_o;
    if ((book || no_book) && (!want->solver || !(solver_x || solver_o) || (book && no_book))) {
        fprintf(stderr, "%s: --book or --no-book (not both) go with the Connect-4 solver player (--game "
                "connect4:W,H without a table, --agent or --versus-agent solver or solver:outcome)\n", prog);
        oxo_game_free(want);
        return OXO_EXIT_USAGE;
    }
    /* The solver, as the player or as the perfect opponent of --self-play, answers the first moves
     * from --book, or the game's shipped book when there is one. */
    char bfound[4096], vbook_spec[4200], xbook_spec[4200];
    if (!book && !no_book && want->solver && (solver_x || solver_o) &&
        oxo_find_book(want->spec, bfound, sizeof bfound) == 0)
        book = bfound;
    if (solver_o && want->solver && book) {
        /* Without the book each of the opponent's first answers on 7x6 is a solve of seconds to
         * minutes. Exact, no budget, as the trainer's perfect player. */
        if (snprintf(vbook_spec, sizeof vbook_spec, outcome_o ? "solver:outcome:book=%s" : "solver:book=%s", book) <
            (int)sizeof vbook_spec)
            vagent_spec = vbook_spec;
    }
    if (outcome_x && want->solver) {
        /* Exact, no budget: the book only. */
        if (book && snprintf(xbook_spec, sizeof xbook_spec, "solver:outcome:book=%s", book) < (int)sizeof xbook_spec)
            agent_spec = xbook_spec;
    } else if (solver_x && want->solver) {
        /* The game's shipped n-tuple model, when there is one, chooses where the budget runs out. */
        char name[128], vfound[4096];
        oxo_data_name(want->spec, "-ntuple.oxm", name, sizeof name);
        int n = snprintf(budget_spec, sizeof budget_spec, "solver:%llu", (unsigned long long)budget);
        if (oxo_find_data(name, vfound, sizeof vfound) == 0)
            n += snprintf(budget_spec + n, sizeof budget_spec - (size_t)n, ":value=%s", vfound);
        if (book && n > 0 && (size_t)n < sizeof budget_spec)
            snprintf(budget_spec + n, sizeof budget_spec - (size_t)n, ":book=%s", book);
        agent_spec = budget_spec;
    }
    int agents_only = agent_spec && !path;
    if (!path && have_table)
        path = found;
    else if (!path && !agents_only) {
        /* Not found: say where it was looked for and how to make it. */
        oxo_cli_default_table(prog, want->spec, found, sizeof found);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    oxo_error err;
    oxo_player *pl = NULL;
    if (path && !(pl = oxo_player_open_joined(path, &err))) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, err.msg);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    if (pl && oxo_player_takes(pl, path, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        oxo_player_close(pl);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    if (pl && spec && !oxo_game_same(pl->game, want)) {
        fprintf(stderr, "%s: %s is a %s of %s, not of %s (--game)\n", prog, path,
                pl->table ? "table" : "model", pl->game->spec, spec);
        oxo_player_close(pl);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    if (pl && (pl->source == OXO_SRC_TABLE) != !model) {
        fprintf(stderr, "%s: %s is a %s; use %s\n", prog, path, pl->table ? "table" : "model",
                pl->table ? "--table" : "--model");
        oxo_player_close(pl);
        oxo_game_free(want);
        return OXO_EXIT_USAGE;
    }
    int solver_hints = want->solver && agent_spec && !strncmp(agent_spec, "solver", 6);
    if (hints && (!pl || pl->source != OXO_SRC_TABLE) && agents_only && !solver_hints) {
        fprintf(stderr, "%s: --hints needs the game's table (%s has none here; make it with oxo-gen "
                "--game %s)\n", prog, want->name, want->spec);
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    /* The game of the file when no --game was given, else --game's. */
    const oxo_game *g = pl ? pl->game : want;
    oxo_agent *ax = NULL, *ao = NULL;
    int file_failed = 0;
    if ((agent_spec && !(ax = oxo_agent_open_ex(g, agent_spec, &file_failed, msg, sizeof msg))) ||
        (vagent_spec && !(ao = oxo_agent_open_ex(g, vagent_spec, &file_failed, msg, sizeof msg)))) {
        fprintf(stderr, "%s: --%s: %s\n", prog, ax || !agent_spec ? "versus-agent" : "agent", msg);
        oxo_agent_free(ax);
        oxo_player_close(pl);
        oxo_game_free(want);
        return file_failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
    }
    if (!seeded)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    uint64_t rng = oxo_rng_stream(seed, 0);
    int rc = 0;
    /* With --position and --batch the solver scores every column (Connect-4); any other agent
     * answers with the move it plays there (the game's table, when open beside it, is not asked). */
    oxo_agent *ag = ax && strcmp(oxo_agent_kind(ax), "solver") ? ax : NULL;
    if (position) {
        rc = ag          ? evaluate_agent(ag, g, position, json, &rng)
             : ax && !pl ? evaluate_solver(ax, g, position, json, &rng)
                         : evaluate(pl, position, json);
    } else if (batch) {
        rc = run_batch(pl, ax && !pl && !ag ? ax : NULL, ag, g, &rng);
    } else {
        oxo_player *po = pl;
        if (versus && !(po = oxo_player_open_as(versus, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err))) {
            fprintf(stderr, "%s: %s%s%s\n", prog, err.code == OXO_E_KIND ? "" : versus, err.code == OXO_E_KIND ? "" : ": ", err.msg);
            rc = 1;
            goto played;
        }
        if (po && !oxo_game_same(po->game, g)) {
            fprintf(stderr, "%s: %s is of %s, not of %s\n", prog, versus, po->game->spec, g->spec);
            rc = 1;
            goto played;
        }
        /* Each side has its own level: "level 1 against the table" is --level 1 --versus TABLE. */
        uint64_t olevel = vlevel ? vlevel : versus ? 10 : level;
        side sx = { pl, ax, (int)level }, so = { po, ao ? ao : versus ? NULL : ax, (int)olevel };
        uint64_t tally[3] = {0, 0, 0};
        int moves[OXO_MAX_MOVES], nmoves = 0;
        for (uint64_t k = 0; k < games && !rc; k++) {
            int result = 0;
            /* Hints from the file played: a table's exact values, a model's learned scores (a
             * model's hints showed nothing before). */
            rc = play_game(g, &sx, &so, human_x, self, hints && pl ? pl : NULL,
                           hints && !pl && ax && !strcmp(oxo_agent_kind(ax), "solver") ? ax : NULL, &rng,
                           games > 1 || json, &result, moves, &nmoves);
            if (!rc && json)
                game_json(k + 1, moves, nmoves, result);
            tally[1 - result]++;
            if (rc == 2)
                rc = 0;
        }
        if (json && !rc)
            printf("{\"games\":%llu,\"x_wins\":%llu,\"draws\":%llu,\"o_wins\":%llu}\n", (unsigned long long)games,
                   (unsigned long long)tally[0], (unsigned long long)tally[1], (unsigned long long)tally[2]);
        else if (games > 1)
            printf("%llu games: X won %llu, drawn %llu, O won %llu\n", (unsigned long long)games,
                   (unsigned long long)tally[0], (unsigned long long)tally[1], (unsigned long long)tally[2]);
played:
        if (po != pl)
            oxo_player_close(po);
    }
    oxo_agent_free(ax);
    oxo_agent_free(ao);
    oxo_game_free(want);
    oxo_player_close(pl);
    return oxo_cli_finish(prog, rc ? OXO_EXIT_FAIL : OXO_EXIT_OK);
}
