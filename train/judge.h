/*
 * A judged set: a fixed list of positions with the exact value of each of their moves, against
 * which a learner's decisions are graded where the whole space cannot be walked (Connect-4 7x6,
 * 4x4 boards with function learners). It comes from a solved table (positions drawn by random
 * play from a documented seed) or from a file that `oxo-gen --judge-set` wrote with the solver.
 *
 * File (text, one position a line after the header):
 *   # any comment lines
 *   game SPEC
 *   BOARD VALUES
 * BOARD as oxo_board_parse reads it (Connect-4: the columns played, e.g. 4453); VALUES one
 * character per move number: '+' the move wins, '=' it draws, '-' it loses (for the side to move,
 * under perfect play after it), '.' the move is not legal.
 */
#ifndef OXO_JUDGE_H
#define OXO_JUDGE_H

#include "grade.h"
#include "player.h"

typedef struct oxo_judge {
    const oxo_game *g;
    uint32_t n;
    oxo_judged *pos;
    char what[200]; /* where the set came from, for reports */
    /* Connect-4 without a table: an opening book, when the game has one (borrowed). Grading then
     * plays the games against the perfect player with the solver, looking the book up first. */
    const oxo_player *book;
    /* Games a colour against the perfect player at each grading (OXO_GRADE_PERFECT_GAMES unless
     * set; 0: none): past a 7x6 book each of the perfect player's answers is a solve. */
    uint32_t perfect_games;
} oxo_judge;

/* The seed and size of the sets drawn from tables, as train/RECORD.md documents them; the least
 * stones of a set drawn by the solver (oxo-train --judge solver), as oxo-gen --judge-set's. */
#define OXO_JUDGE_SEED          0x6a75646765ull
#define OXO_JUDGE_SIZE          2000
#define OXO_JUDGE_SOLVER_STONES 10

/* n positions from random games (each game stopped at a uniformly drawn ply of at least
 * min_stones stones, the position kept when the game is still on and its moves do not all have
 * the same value: elsewhere any move keeps the value), valued by the truth: any exact player (a
 * table, or the solver: oxo_player_open_solver). NULL on failure with err. */
oxo_judge *oxo_judge_from_truth(const oxo_player *truth, uint32_t n, int min_stones, uint64_t seed,
                                oxo_error *err);
/* The same valued by nt threads, thread t asking truths[t] (players of one game, each used by one
 * thread only: a solver is not shared); the set is the same whatever nt. */
oxo_judge *oxo_judge_from_truths(const oxo_player *const *truths, int nt, uint32_t n,
                                 int min_stones, uint64_t seed, oxo_error *err);
/* Reads a judged-set file of game g (the player's source, lookup/sources/judged.c). */
oxo_judge *oxo_judge_read(const oxo_game *g, const char *path, oxo_error *err);
/* The same from a player already open (p, opened from path): NULL with err when p is not a
 * judged set of g. */
oxo_judge *oxo_judge_of(const oxo_game *g, const oxo_player *p, const char *path, oxo_error *err);
void oxo_judge_free(oxo_judge *j);

/* The share of the set's positions where every best-scored move of cand keeps the value. */
double oxo_judge_accuracy(const oxo_judge *j, const oxo_player *cand);

/* Grades a function learner: accuracy over the judged set, games against the perfect player
 * (truth, when there is one, else, when `solve` is set, the solver with the set's book when it
 * has one: its best-scored moves, ties at random; j->perfect_games a colour) and against random
 * play. */
int oxo_grade_judged(const oxo_judge *j, const oxo_player *truth, const oxo_player *cand,
                     uint64_t seed, int solve, oxo_grade *out);

#endif
