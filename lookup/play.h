/*
 * What oxo-play's files share: --info (play_info.c), --position and --batch (play_query.c), and
 * the helpers of play.c they use.
 */
#ifndef OXO_PLAY_H
#define OXO_PLAY_H

/* Prints what the file at path holds (text, or JSON when json is set); the exit status. */
int print_info(const char *path, int json);

#include "agent.h"
#include "player.h"

#include <stddef.h>
#include <stdio.h>

/* play_query.c: --position by the solver (each column's score), by a table or a model, or by an
 * agent's move; --batch, a board a line. The exit status (0, or 1 for a board refused). */
int evaluate_solver(oxo_agent *sv, const oxo_game *g, const char *text, int json, uint64_t *rng);
int evaluate(const oxo_player *pl, const char *text, int json);
int evaluate_agent(oxo_agent *a, const oxo_game *g, const char *text, int json, uint64_t *rng);
int run_batch(const oxo_player *pl, oxo_agent *sv, oxo_agent *ag, const oxo_game *g, uint64_t *rng);

/* play_judge.c: --judge, an agent graded on a judged set; the exit status. */
int grade_on_set(const char *path, const char *spec, const char *agent_spec, const char *book,
                 int no_book, uint64_t seed, int json);

/* play.c: what a move is called; a refused board said (as JSON too); the solver's column scores
 * as text; one line of input (see play.c). */
const char *move_word(const oxo_game *g);
int board_error(const char *msg, int json);
void print_column_scores(const oxo_game *g, const int *score, const int *known, int exact);
int read_line(FILE *in, char *buf, size_t cap, size_t *len, int *nul, int *cr);

#endif
