/*
 * oxo-play for scripts: --position (each move's value and the best ones, from a table, a model,
 * the Connect-4 solver within its budget, or any agent's move) and --batch (one board a line, one
 * answer a line), as text or JSON.
 */
#include "play.h"

#include "boardio.h"
#include "c4solve.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "oxo-play";

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
int evaluate_solver(oxo_agent *sv, const oxo_game *g, const char *text, int json, uint64_t *rng)
{
    oxo_pos p;
    oxo_error err;
    if (oxo_board_parse(g, text, &p, &err)) {
        return board_error(err.msg, json);
    }
    const char *side = oxo_x_to_move(g, p) ? "X" : "O";
    int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES] = {0}, exact = 1, best = -1000, move = -1;
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
                   oxo_value_name(best > 0   ? OXO_WIN
                                  : best < 0 ? OXO_LOSS
                                             : OXO_DRAW),
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
int evaluate(const oxo_player *pl, const char *text, int json)
{
    const oxo_game *g = oxo_player_game(pl);
    oxo_pos p;
    oxo_error err;
    oxo_move_info mi[OXO_MAX_MOVES];
    int best[OXO_MAX_MOVES], n = -1;
    if (oxo_board_parse(g, text, &p, &err) == 0) {
        n = oxo_player_moves(pl, p, mi);
        if (n < 0 && oxo_player_book_depth(pl) >= 0 && oxo_ply(p) >= oxo_player_book_depth(pl))
            oxo_fail(&err, OXO_E_ARG,
                     "board \"%.80s\" has %d stones: an opening book of up to %d holds its moves "
                     "only below that (oxo-play --game %s --book FILE searches past it)",
                     text, oxo_ply(p), oxo_player_book_depth(pl), g->spec);
        else if (n < 0)
            oxo_fail(&err, OXO_E_ARG,
                     "board \"%.80s\" cannot arise in a game (play stops at a win)", text);
    }
    if (n < 0) {
        return board_error(err.msg, json);
    }
    int k = oxo_best_moves(mi, n, best);
    int table = oxo_player_exact(pl);
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
        } else
            printf("\"value\":null,\"status\":\"%s\"", over_status(g, p));
        json_best(best, k);
        printf(",\"moves\":[");
        for (int i = 0; i < n; i++) {
            printf("%s{\"move\":%d,\"label\":%d,\"cell\":%d,", i ? "," : "", mi[i].move,
                   mi[i].move + 1, oxo_cell_of_move(g, p, mi[i].move));
            if (table)
                printf("\"value\":\"%s\",\"distance\":%d}", oxo_value_name(mi[i].value),
                       mi[i].distance);
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

/* --agent SPEC (any agent but the solver, which scores every column) with --position or --batch:
 * the move the agent plays there, so that a script or another program can have any agent play,
 * e.g. puct over a model, one position at a time. Returns 0, or 1 after reporting a bad board. */
int evaluate_agent(oxo_agent *a, const oxo_game *g, const char *text, int json, uint64_t *rng)
{
    oxo_pos p;
    oxo_error err;
    if (oxo_board_parse(g, text, &p, &err))
        return board_error(err.msg, json);
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
int run_batch(const oxo_player *pl, oxo_agent *sv, oxo_agent *ag, const oxo_game *g, uint64_t *rng)
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
            snprintf(msg, sizeof msg, "line %lu is %zu bytes long, longer than any board", lineno,
                     len);
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
