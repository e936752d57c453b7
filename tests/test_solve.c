/*
 * The solver against an independent plain negamax (no memo, no symmetry, its own rules) over every
 * one of the 5,478 reachable positions: value and distance, looked up through the table player,
 * which exercises canonicalisation too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player.h"
#include "solve.h"

static int has_line(uint64_t m)
{
    static const int l[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int i = 0; i < 8; i++)
        if ((m & (uint64_t)l[i]) == (uint64_t)l[i])
            return 1;
    return 0;
}

/* Negamax with distance: the winner picks the shortest win, the loser the longest loss; a draw
 * takes the shortest drawn line. */
static void negamax(uint64_t me, uint64_t opp, int *value, int *dist)
{
    if (has_line(opp)) {
        *value = -1;
        *dist = 0;
        return;
    }
    if ((me | opp) == 0777) {
        *value = 0;
        *dist = 0;
        return;
    }
    int bv = -2, bd = 0;
    for (int c = 0; c < 9; c++) {
        if ((me | opp) >> c & 1)
            continue;
        int v, d;
        negamax(opp, me | 1ull << c, &v, &d);
        v = -v;
        d++;
        if (v > bv || (v == bv && (v < 0 ? d > bd : d < bd))) {
            bv = v;
            bd = d;
        }
    }
    *value = bv;
    *dist = bd;
}

static void table_matches_negamax(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_error err;
    oxo_player *pl = oxo_player_from_table(oxo_build_table(g), &err);
    assert_non_null(pl);
    oxo_space *raw = oxo_space_build(g, 0);
    assert_non_null(raw);
    int wins = 0, losses = 0, draws = 0;
    for (uint32_t i = 0; i < raw->n; i++) {
        int v, d, tv, td;
        negamax(raw->pos[i].me, raw->pos[i].opp, &v, &d);
        assert_int_equal(oxo_player_value(pl, raw->pos[i], &tv, &td), 0);
        assert_int_equal(tv, v);
        assert_int_equal(td, d);
        wins += v > 0, losses += v < 0, draws += v == 0;
    }
    assert_int_equal(wins + losses + draws, 5478);
    assert_true(wins > 0 && losses > 0 && draws > 0);
    int v, d;
    assert_int_equal(oxo_player_value(pl, oxo_start(g), &v, &d), 0);
    assert_int_equal(v, OXO_DRAW);
    assert_int_equal(d, 9);
    oxo_space_free(raw);
    oxo_player_close(pl);
}

/* The search solver as a player (lookup/sources/solver.c) answers what the enumerated table
 * answers, move by move (value and distance), on every reachable position of Connect-4 4x4: two
 * independent solvers, the retrograde one and the alpha-beta search. It serves only the games the
 * search solver does, and takes only an opening book as its book. */
static void solver_source_matches_table(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault);
    assert_non_null(g);
    oxo_error err;
    oxo_player *table = oxo_player_from_table(oxo_build_table(g), &err);
    assert_non_null(table);
    oxo_player *solver = oxo_player_open_solver(g, NULL, &err);
    assert_non_null(solver);
    assert_true(oxo_player_exact(solver));
    assert_string_equal(oxo_player_source(solver), "solver");
    oxo_space *raw = oxo_space_build(g, 0);
    assert_non_null(raw);
    uint32_t wins = 0, losses = 0;
    for (uint32_t i = 0; i < raw->n; i++) {
        oxo_move_info a[OXO_MAX_MOVES], b[OXO_MAX_MOVES];
        int n = oxo_player_moves(table, raw->pos[i], a);
        assert_int_equal(oxo_player_moves(solver, raw->pos[i], b), n);
        for (int k = 0; k < n; k++) {
            assert_int_equal(b[k].move, a[k].move);
            assert_int_equal(b[k].value, a[k].value);
            assert_int_equal(b[k].distance, a[k].distance);
            wins += a[k].value > 0, losses += a[k].value < 0;
        }
        int tv, td, sv, sd;
        assert_int_equal(oxo_player_value(table, raw->pos[i], &tv, &td), 0);
        assert_int_equal(oxo_player_value(solver, raw->pos[i], &sv, &sd), 0);
        assert_int_equal(sv, tv);
        assert_int_equal(sd, td);
    }
    assert_int_equal(raw->n, 161029); /* connect4:4,4's reachable positions */
    assert_true(wins > 0 && losses > 0);
    assert_null(oxo_player_open_solver(g, table, &err)); /* a whole table is no opening book */
    assert_int_equal(err.code, OXO_E_GAME);
    /* not a game the solver serves */
    assert_null(oxo_player_open_solver(oxo_tictactoe(), NULL, &err));
    assert_non_null(strstr(err.msg, "does not serve"));
    oxo_space_free(raw);
    oxo_player_close(solver);
    oxo_player_close(table);
    oxo_game_free(g);
}

/* A judged set (lookup/sources/judged.c) read back answers what was written: 300 positions of
 * random games of connect4:4,4 valued by the table and written as oxo-gen --judge-set writes them
 * (the columns played, a character a move), each move's value equal to the table's at those
 * positions, none elsewhere; and a set is never taken for a whole table. */
static void judged_source_answers_its_positions(void **state)
{
    (void)state;
    oxo_game *g = oxo_game_open("connect4:4,4", NULL);
    assert_non_null(g);
    oxo_error err;
    oxo_player *table = oxo_player_from_table(oxo_build_table(g), &err);
    assert_non_null(table);
    size_t cap = 1 << 16, len = (size_t)snprintf(NULL, 0, "# test\ngame %s\n", g->spec);
    char *text = malloc(cap);
    assert_non_null(text);
    snprintf(text, cap, "# test\ngame %s\n", g->spec);
    oxo_pos kept[300];
    uint64_t rng = 12345;
    int n = 0;
    while (n < 300) {
        oxo_pos p = oxo_start(g);
        char moves[20];
        int plies =
            1 + (int)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 33) % 12;
        for (int k = 0; k < plies && oxo_status_of(g, p) == OXO_ONGOING; k++) {
            uint64_t legal = oxo_legal(g, p);
            int m;
            do
                m = (int)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 33) % 4;
            while (!(legal >> m & 1));
            moves[k] = (char)('1' + m);
            moves[k + 1] = 0;
            p = oxo_play(g, p, m);
        }
        oxo_move_info mi[OXO_MAX_MOVES];
        int nm = oxo_status_of(g, p) == OXO_ONGOING ? oxo_player_moves(table, p, mi) : 0;
        if (nm <= 0)
            continue;
        char vals[5] = "....";
        for (int k = 0; k < nm; k++)
            vals[mi[k].move] = mi[k].value > 0 ? '+' : mi[k].value < 0 ? '-' : '=';
        len += (size_t)snprintf(text + len, cap - len, "%s %s\n", moves, vals);
        kept[n++] = p;
    }
    oxo_player *set = oxo_player_open_memory((const uint8_t *)text, len, &err);
    if (!set)
        fail_msg("%s", err.msg);
    assert_string_equal(oxo_player_source(set), "judged set");
    assert_true(oxo_game_same(oxo_player_game(set), g));
    const oxo_judged *pos;
    assert_int_equal(oxo_player_judged(set, &pos), 300);
    for (int i = 0; i < n; i++) {
        oxo_move_info a[OXO_MAX_MOVES], b[OXO_MAX_MOVES];
        assert_true(pos[i].pos.me == kept[i].me && pos[i].pos.opp == kept[i].opp);
        int na = oxo_player_moves(table, kept[i], a);
        assert_int_equal(oxo_player_moves(set, kept[i], b), na);
        for (int k = 0; k < na; k++) {
            assert_int_equal(b[k].move, a[k].move);
            assert_int_equal(b[k].value, a[k].value);
        }
    }
    oxo_move_info mi[OXO_MAX_MOVES];
    assert_int_equal(oxo_player_moves(set, oxo_start(g), mi), -1); /* no game of 0 plies kept */
    assert_int_not_equal(oxo_player_takes(set, "s.judge", OXO_TAKE_TABLE, &err), 0);
    assert_non_null(strstr(err.msg, "is a judged set of connect4:4,4"));
    assert_int_equal(oxo_player_takes(set, "s.judge", OXO_TAKE_JUDGED, &err), 0);
    oxo_player_close(set);
    /* what is wrong is named by its line */
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"game connect4:4,4\n2332 +-+\n", "line 2: expected a board and 4 move values"},
        {"# x\ngame connect4:4,4\n2222 ++++\n", "line 3: move 2 is '+', expected . (not legal)"},
        {"game connect4:4,4\n1212121 ++++\n", "line 2: the game is over"},
        {"game nim\n", "line 1: unknown game 'nim'"},
        {"# only a comment\n", "no 'game SPEC' line"},
        {"game connect4:4,4\n", "no position"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_null(
            oxo_player_open_memory((const uint8_t *)bad[k].text, strlen(bad[k].text), &err));
        if (!strstr(err.msg, bad[k].says))
            fail_msg("case %zu: \"%s\", expected \"%s\"", k, err.msg, bad[k].says);
    }
    free(text);
    oxo_player_close(table);
    oxo_game_free(g);
}

static void table_check_refuses_wrong_entry(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_table *t = oxo_build_table(g);
    assert_non_null(t);
    oxo_space *s = oxo_space_build(g, 1);
    oxo_error err;
    assert_int_equal(oxo_table_check(s, t->entries, t->n, &err), OXO_OK);
    t->entries[0] = OXO_ENTRY(OXO_WIN, 5); /* the root is a draw in 9 */
    assert_int_equal(oxo_table_check(s, t->entries, t->n, &err), OXO_E_GAME);
    assert_non_null(strstr(err.msg, "says win in 5"));
    t->entries[0] = OXO_ENTRY(OXO_DRAW, 9);
    t->entries[s->n - 1] ^= 1; /* a finished position with a wrong value */
    assert_int_equal(oxo_table_check(s, t->entries, t->n, &err), OXO_E_GAME);
    assert_int_equal(oxo_table_check(s, t->entries, t->n - 1, &err), OXO_E_GAME);
    assert_non_null(strstr(err.msg, "764 entries, expected 765"));
    oxo_space_free(s);
    oxo_table_free(t);
}

OXO_TEST_MAIN(cmocka_unit_test(table_matches_negamax),
              cmocka_unit_test(table_check_refuses_wrong_entry),
              cmocka_unit_test(solver_source_matches_table),
              cmocka_unit_test(judged_source_answers_its_positions))
