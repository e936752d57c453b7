/*
 * Agents: anything that picks a move in a position of any game, given a random stream. One
 * interface served by the random player, the table and model players (player.h), depth-limited
 * alpha-beta with an alignment heuristic, MCTS (UCT with random playouts), and the solver (the
 * Connect-4 search solver, or an exact table for the enumerable games), the searches led by
 * trained models (puct, azero) and more. oxo-play --agent, oxo-arena and oxo-train --opponent take
 * the same specs, [NAME=]KIND[:ARGUMENTS]; each kind's forms are its row's in the registry
 * (registry.c), which oxo_agent_usage lists.
 *
 * An agent keeps scratch memory (a solver's transposition table, an MCTS tree), so one agent is
 * used by one thread at a time; threads open their own from the same spec. A pick depends only on
 * the position and the stream, never on what the agent saw before, so games are reproducible
 * whatever the thread that plays them.
 */
#ifndef OXO_AGENT_H
#define OXO_AGENT_H

#include "game.h"

#include <stddef.h>
#include <stdio.h>

typedef struct oxo_agent oxo_agent;

/* Lists the kinds' spec forms for --help, each at column indent, with what it does below it. */
void oxo_agent_usage(FILE *out, int indent);

/* Opens the agent of a spec for game g (which must outlive it); NULL with a sentence in err. A
 * table or model of another game is refused. */
oxo_agent *oxo_agent_open(const oxo_game *g, const char *spec, oxo_error *err);
/* The same, and when it fails *file_failed says why: 1 when the spec was right but a file it names
 * (or finds: the game's table) could not be read, is of another game (as a --table or --book of
 * another game is a failure in every program), or memory ran out, a failure; 0 when the spec
 * itself was wrong (unknown agent, a number out of range, a table where a model goes), bad usage.
 */
oxo_agent *oxo_agent_open_ex(const oxo_game *g, const char *spec, int *file_failed, oxo_error *err);
void oxo_agent_free(oxo_agent *a);

/* The agent's name: the NAME= prefix, or the spec itself. */
const char *oxo_agent_name(const oxo_agent *a);
/* The game the agent plays. */
const oxo_game *oxo_agent_game(const oxo_agent *a);
/* What the last pick was when it was not exact ("" otherwise): solver:MS when its budget ran out.
 * A budgeted pick depends on the machine's speed, so it is not reproducible. */
const char *oxo_agent_note(const oxo_agent *a);
/* The kind: "random", "table", "model", "solver", "alphabeta", "mcts" or "puct". */
const char *oxo_agent_kind(const oxo_agent *a);

/* A move for the side to move in p (not finished), drawing from *rng; -1 when p is finished or
 * cannot be answered (a table that lacks the position). */
int oxo_agent_pick(oxo_agent *a, oxo_pos p, uint64_t *rng);
/* A solver agent on Connect-4 looks positions up in this opening book (borrowed: it must outlive
 * the agent, which does not free it) before it searches; an opened book is read-only, so many
 * agents on many threads may share one. */
struct oxo_player;
void oxo_agent_borrow_book(oxo_agent *a, const struct oxo_player *book);
/* Whether a is a solver agent without an opening book of its own (:book=FILE): the one a
 * program's --book, or the game's shipped book, is lent to. */
int oxo_agent_wants_book(const oxo_agent *a);
/* The book a solver agent looks positions up in (its own, from :book=FILE, or a borrowed one);
 * NULL without one. */
const struct oxo_player *oxo_agent_book(const oxo_agent *a);

/* A solver agent on Connect-4: the exact score of each legal move (score[m], known[m] = 1), centre
 * first, within `seconds` (0: no limit); returns 1 when every legal move was solved, 0 when time
 * ran out first (the moves solved so far are known), -1 for other agents. */
int oxo_agent_scores(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known);
/* A solver agent on Connect-4 asked about one position (oxo-play --position, --batch): the scores
 * as oxo_agent_scores within `seconds` (*exact 1 when every legal move was solved, 0 when not, -1
 * for other agents), and the move it would play: one of the best when exact, otherwise the
 * fallback's choice (a proven win, the value model, or alpha-beta within a further seconds / 2),
 * which oxo_agent_chosen and oxo_agent_note then name. A legal move of p, or -1 when p is finished
 * or the agent is not such a solver: an answer never lacks a move. */
int oxo_agent_answer(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known, int *exact,
                     uint64_t *rng);
/* What chose a Connect-4 solver's last move: "solver" (exact), "proven win", "value model under
 * puct", "value model" or "alphabeta". */
const char *oxo_agent_chosen(const oxo_agent *a);
/* solver:MS: MS / 1000; 0 without a budget. */
double oxo_agent_budget(const oxo_agent *a);

/* puct's exploration C when none is given (puct:N:value=FILE). */
#define OXO_PUCT_C 1.0
/* A move at the root of a puct search: how often the search visited it and its value for the side
 * to move (the mean of the results backed up through it; the file's value while unvisited, its
 * result when it ends the game). */
typedef struct oxo_puct_move {
    int move, ends;
    double visits, value;
} oxo_puct_move;
/* The search of puct:ITERATIONS:C over the values of `value` (a model or table of g's game) from p,
 * not finished: the move the agent would play (-1 when it cannot search: out of memory, or the
 * file knows no move of p), and each root move's visits and value into out[0 .. *n - 1] (at most
 * g->moves), in the order of the file's moves. The oxo-train --search-games phase reads these. */
int oxo_puct_root(const oxo_game *g, struct oxo_player *value, oxo_pos p, long iterations, double c,
                  oxo_puct_move *out, int *n);

/* Grading on a judged set (player.h: oxo_judged; oxo-play --judge, oxo-arena --judge): whether
 * a's move in d, the index-th position of the set, keeps the value (its value is d's best). The
 * move is picked from the stream (seed, index), so a grade is the same whatever the thread that
 * asks and the order the positions are asked in. */
struct oxo_judged;
int oxo_agent_keeps(oxo_agent *a, const struct oxo_judged *d, uint32_t index, uint64_t seed);
/* The 95% Wilson score interval of a share of k in n (n > 0). */
void oxo_share_interval(long k, long n, double *low, double *high);

/* The alignment heuristic of alphabeta, for the side to move: its stones weighted by the number
 * of winning lines through their cells, less the opponent's, plus a bonus per empty cell that
 * would complete a line for it, less the same for the opponent. */
int oxo_align_eval(const oxo_game *g, oxo_pos p);

/* The browser app's Q-table of tic-tac-toe (qtable:FILE, oxo-export -f qtable): a row of 9 values
 * (cell by cell, row by row from the top left) for each of the 3^9 states, indexed by
 * oxo_qtable_code of its X and O masks (cell i the i-th base-3 digit from the lowest, X 1 and O 2).
 * oxo_qtable_parse reads the JSON text into q (OXO_QTABLE_STATES x 9, zeroed) and have (the states
 * it holds), naming name and the byte offset of what it refuses. The page's import reads it too. */
#define OXO_QTABLE_STATES 19683
int oxo_qtable_parse(const char *text, size_t len, const char *name, float *q, uint8_t *have,
                     oxo_error *err);
uint32_t oxo_qtable_code(uint64_t x, uint64_t o);

#endif
