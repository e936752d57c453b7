/*
 * Rules of tic-tac-toe through the game interface: every winning line, the full board, legality,
 * and the relative (side to move) board representation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdlib.h>
#include <string.h>

#include "boardio.h"
#include "game.h"

static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static void every_line_wins(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    for (int l = 0; l < 8; l++) {
        uint64_t m = 1ull << lines[l][0] | 1ull << lines[l][1] | 1ull << lines[l][2];
        /* The side that just moved (opp) holds the line: the side to move has lost. */
        assert_int_equal(oxo_status_of(g, (oxo_pos){0, m}), OXO_OVER_LOSS);
        assert_int_equal(oxo_legal(g, (oxo_pos){0, m}), 0);
        /* Two stones of the line are not a win. */
        assert_int_equal(oxo_status_of(g, (oxo_pos){0, m & (m - 1)}), OXO_ONGOING);
    }
}

static void only_lines_win(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    /* Every set of 3 cells: a win exactly when it is one of the 8 lines. */
    int wins = 0;
    for (uint64_t m = 0; m < 512; m++) {
        if (__builtin_popcountll(m) != 3)
            continue;
        wins += oxo_status_of(g, (oxo_pos){0, m}) == OXO_OVER_LOSS;
    }
    assert_int_equal(wins, 8);
}

static void full_board_draw(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_pos p;
    oxo_error fault;
    assert_int_equal(oxo_board_parse(g, "XOXXOOOXX", &p, &fault), 0);
    assert_int_equal(oxo_status_of(g, p), OXO_OVER_DRAW);
    assert_int_equal(oxo_legal(g, p), 0);
    /* A full board with a line is a win, not a draw. */
    assert_int_equal(oxo_board_parse(g, "XXXOOXXOO", &p, &fault), 0);
    assert_int_equal(oxo_status_of(g, p), OXO_OVER_LOSS);
}

static void play_swaps_sides(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_pos p = oxo_start(g);
    assert_int_equal(oxo_legal(g, p), 0x1ff);
    assert_true(oxo_x_to_move(g, p));
    p = oxo_play(g, p, 4);
    assert_false(oxo_x_to_move(g, p));
    assert_int_equal(p.opp, 1u << 4);
    assert_int_equal(p.me, 0);
    assert_int_equal(oxo_legal(g, p), 0x1ff & ~(1u << 4));
    char b[16];
    oxo_board_format(g, oxo_play(g, p, 0), b);
    assert_string_equal(b, "O...X....");
}

static void parse_refuses(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_pos p;
    oxo_error fault;
    assert_int_equal(oxo_board_parse(g, "XX.......", &p, &fault), -1); /* counts */
    assert_int_equal(oxo_board_parse(g, "O........", &p, &fault), -1); /* O first */
    assert_int_equal(oxo_board_parse(g, "XXXOOO...", &p, &fault), -1); /* both lines */
    assert_int_equal(oxo_board_parse(g, "XXXOO.O..", &p, &fault), -1); /* X won, O moved */
    assert_int_equal(oxo_board_parse(g, "X..O..Z..", &p, &fault), -1);
    assert_non_null(strstr(fault.msg, "'Z'"));
    assert_int_equal(oxo_board_parse(g, "X..", &p, &fault), -1);
    assert_int_equal(oxo_board_parse(g, "", &p, &fault), -1);
    assert_int_equal(oxo_board_parse(g, "x.o......", &p, &fault), 0);
}

OXO_TEST_MAIN(cmocka_unit_test(every_line_wins), cmocka_unit_test(only_lines_win),
              cmocka_unit_test(full_board_draw), cmocka_unit_test(play_swaps_sides),
              cmocka_unit_test(parse_refuses))
