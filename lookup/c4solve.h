/*
 * A strong solver for Connect-4 positions of any connect4:W,H game, by search (no table): the
 * judge for boards too large to enumerate. It sits below the player, so a player may link it.
 *
 * Score convention, the one Connect-4 solvers print: positive when the side to move wins, 0 for a
 * draw, negative when it loses; its size is floor((W*H + 1 - p) / 2), where p is the number of
 * stones on the board just before the winning stone (on 7x6: 22 minus the winner's stones at the
 * win). A faster win scores more, a slower loss less badly.
 *
 * Method (after Pascal Pons' tutorial, written from its description): negamax with alpha-beta on
 * the column bitboard; moves that hand the opponent an immediate win are dropped at once, and a
 * position with no other move is lost; an immediate win is found before searching; moves are
 * tried centre first, then ordered by the number of winning cells they create; a transposition
 * table of a fixed size keeps upper bounds and replaces entries; the root is solved by
 * null-window searches that bisect the score range.
 */
#ifndef OXO_C4SOLVE_H
#define OXO_C4SOLVE_H

#include "game.h"

typedef struct oxo_c4solver oxo_c4solver;

/* A solver for a connect4:W,H game with a transposition table of about tt_mb megabytes; NULL
 * when out of memory or g is not a Connect-4 game. */
oxo_c4solver *oxo_c4solver_new(const oxo_game *g, unsigned tt_mb);
void oxo_c4solver_free(oxo_c4solver *s);

/* The score of p (see above); weak: only its sign (1, 0 or -1), which is faster. The position
 * must not be finished. */
int oxo_c4solve(oxo_c4solver *s, oxo_pos p, int weak);
/* Whether p's score is v or more (1) or less (0), by one null-window search: what a player that
 * only wants the best moves asks of all but the first. -1 when a deadline or budget stopped it. */
int oxo_c4solve_at_least(oxo_c4solver *s, oxo_pos p, int v);
/* A time limit for the solves that follow, in seconds from now (0: none). A solve that reaches it
 * stops, returns 0 and oxo_c4solver_aborted says so; the table keeps only finished results. */
void oxo_c4solver_deadline(oxo_c4solver *s, double seconds);
int oxo_c4solver_aborted(const oxo_c4solver *s);
/* A budget of nodes instead (0: none), counted in steps of 1,024: the same position and budget
 * always stop at the same node, whatever the machine's speed or load. */
void oxo_c4solver_node_budget(oxo_c4solver *s, uint64_t nodes);
/* Lazy SMP: a solver that searches in s's transposition table (s must outlive it), for another
 * thread to solve the same position beside s; variant (1, 2, ...) makes it order ties between
 * moves and pick its null windows differently, so that it fills the table ahead of s instead of
 * walking the same tree in step. The table's entries are single 64-bit words read and written
 * atomically, so threads share it without locks. */
oxo_c4solver *oxo_c4solver_helper(const oxo_c4solver *s, int variant);
/* Solves stop (return 0, oxo_c4solver_aborted says so) once *flag is non-zero, as at a deadline:
 * the main thread raises it when it has its answer. NULL: no flag. */
void oxo_c4solver_stop_flag(oxo_c4solver *s, const volatile int *flag);
/* The bounds on the score that the last solve had reached when it ended (lo == hi when it
 * finished; for a weak solve, bounds on the score's sign): how far a stopped solve got. */
void oxo_c4solver_range(const oxo_c4solver *s, int *lo, int *hi);
/* Nodes searched since the solver was made. */
uint64_t oxo_c4solver_nodes(const oxo_c4solver *s);

/* The conversions between scores and values are inline: a player that only looks a book up
 * (liboxo) needs them without the solver's search.
 *
 * The score of a win whose winning stone is played with stones_before stones on the board:
 * floor((W*H + 1 - stones_before) / 2). */
static inline int oxo_c4_win_score(const oxo_game *g, int stones_before)
{
    return (g->cells + 1 - stones_before) / 2;
}
/* The plies to the end under perfect play of a position with `moves` stones whose score is
 * `score` (the whole board for a draw). */
static inline int oxo_c4_score_distance(const oxo_game *g, int score, int moves)
{
    if (!score)
        return g->cells - moves;
    /* The winner plays the winning stone on its own turns, so the stones before it have the
     * winner's parity. */
    int s = score > 0 ? score : -score, parity = (moves + (score < 0)) & 1;
    int p = g->cells + 1 - 2 * s;
    if ((p & 1) != parity)
        p--;
    return p - moves + 1;
}
/* The other way: the score of a position with `moves` stones whose value for the side to move is
 * value (OXO_WIN, OXO_DRAW, OXO_LOSS) in `distance` plies, as a table or a book holds it. */
static inline int oxo_c4_distance_score(const oxo_game *g, int value, int distance, int moves)
{
    /* The winning stone is the last of the distance: moves + distance - 1 stones before it. */
    return value ? value * oxo_c4_win_score(g, moves + distance - 1) : 0;
}

#endif
