/*
 * The search solver as a source of exact values (c4solve.c), for the games it serves (Connect-4
 * boards too large to enumerate): a position's entry is its opening book's where the book holds
 * it, the rules' when it is finished, and otherwise the solver's score turned into a value and a
 * distance, as a table would hold them. So it answers what a whole table answers (each move's
 * value and distance), slower, with no file: the judge of a board no table exists for.
 *
 * A solver player searches with its own transposition table: one thread at a time asks it
 * (a program with threads opens one a thread).
 */
#include "source.h"

#include "c4solve.h"

#include <stdlib.h>

/* The transposition table: the solver agent's size and more, since a judge is asked about every
 * position of every game and keeps what it learned between them. */
#define SOLVER_TT_MB 64

static int entry(const oxo_player *p, oxo_pos pos)
{
    const oxo_game *g = p->game;
    const oxo_status st = oxo_status_of(g, pos);
    if (st != OXO_ONGOING)
        return OXO_ENTRY(st == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
    int e = p->book ? oxo_player_entry(p->book, pos) : -1;
    if (e >= 0)
        return e;
    const int score = oxo_c4solve(p->c4, pos, 0);
    const int value = score > 0 ? OXO_WIN : score < 0 ? OXO_LOSS : OXO_DRAW;
    return OXO_ENTRY(value, oxo_c4_score_distance(g, score, oxo_ply(pos)));
}

oxo_player *oxo_player_open_solver(const oxo_game *g, const oxo_player *book, oxo_error *err)
{
    if (!g->solver) {
        oxo_fail(err, OXO_E_GAME, "the solver does not serve %s (it solves Connect-4 boards)",
                 g->name);
        return NULL;
    }
    if (book && (oxo_player_book_depth(book) < 0 || !oxo_game_same(oxo_player_game(book), g))) {
        oxo_fail(err, OXO_E_GAME, "the solver's book must be an opening book of %s", g->name);
        return NULL;
    }
    oxo_player *p = calloc(1, sizeof *p);
    if (p)
        p->c4 = oxo_c4solver_new(g, SOLVER_TT_MB);
    if (!p || !p->c4) {
        free(p);
        oxo_fail(err, OXO_E_NOMEM, "a solver of %s", g->name);
        return NULL;
    }
    p->ops = &oxo_source_solver;
    p->game = g;
    p->book = book;
    return p;
}

static void release(oxo_player *p)
{
    oxo_c4solver_free(p->c4);
}

/* Made by oxo_player_open_solver only: no file is a solver, so it is no row of the registry, and
 * a program that never opens one (liboxo) links neither this nor the search. */
/* clang-format off */
const oxo_source_ops oxo_source_solver = {
    .name = "solver", .takes = OXO_TAKE_TABLE, .exact = 1, .any_board = 1,
    .moves = oxo_source_entry_moves, .entry = entry, .release = release,
};
/* clang-format on */
