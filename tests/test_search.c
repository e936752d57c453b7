/*
 * The reference searches: plain minimax visits the whole tree below the empty board (549,945
 * positions), pruning visits fewer, and every variant agrees with the solved table on the value,
 * the distance and the set of best moves of all 4,520 non-terminal positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdlib.h>
#include <string.h>

#include "player.h"
#include "search.h"
#include "solve.h"

static void minimax_counts_tree(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_search_result r[OXO_VARIANT_NB];
    for (int v = 0; v < OXO_VARIANT_NB; v++) {
        assert_int_equal(oxo_search(g, oxo_start(g), v, &r[v]), 0);
        assert_int_equal(r[v].value, OXO_DRAW);
        assert_int_equal(r[v].distance, 9);
        assert_int_equal(r[v].nbest, 9);
    }
    assert_int_equal(r[OXO_MINIMAX].nodes, 549945);
    assert_true(r[OXO_ALPHABETA].nodes < r[OXO_MINIMAX].nodes / 4);
    assert_true(r[OXO_ALPHABETA_ORDERED].nodes < r[OXO_ALPHABETA].nodes);
    assert_true(r[OXO_MEMO].nodes < r[OXO_ALPHABETA_DYNAMIC].nodes);
    assert_true(r[OXO_MEMO_CANONICAL].nodes < r[OXO_MEMO].nodes);
    assert_int_equal(oxo_variant_find("memo-canonical"), OXO_MEMO_CANONICAL);
    assert_int_equal(oxo_variant_find("nope"), -1);
}

static void variants_agree_with_table(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_error err;
    oxo_player *pl = oxo_player_from_table(oxo_build_table(g), &err);
    oxo_space *raw = oxo_space_build(g, 0);
    assert_non_null(pl);
    assert_non_null(raw);
    int checked = 0;
    for (uint32_t i = 0; i < raw->n; i++) {
        if (raw->status[i] != OXO_ONGOING)
            continue;
        checked++;
        oxo_move_info mi[OXO_MAX_MOVES];
        int best[OXO_MAX_MOVES], tv, td;
        int n = oxo_player_moves(pl, raw->pos[i], mi);
        int k = oxo_best_moves(mi, n, best);
        oxo_player_value(pl, raw->pos[i], &tv, &td);
        for (int v = 0; v < OXO_VARIANT_NB; v++) {
            /* Plain minimax on every position costs seconds under the sanitizers: every 7th. */
            if (v == OXO_MINIMAX && i % 7)
                continue;
            oxo_search_result r;
            assert_int_equal(oxo_search(g, raw->pos[i], v, &r), 0);
            assert_int_equal(r.value, tv);
            assert_int_equal(r.distance, td);
            assert_int_equal(r.nbest, k);
            for (int j = 0; j < k; j++)
                assert_int_equal(r.best[j], best[j]);
        }
    }
    assert_int_equal(checked, 4520);
    oxo_space_free(raw);
    oxo_player_close(pl);
}

OXO_TEST_MAIN(cmocka_unit_test(minimax_counts_tree), cmocka_unit_test(variants_agree_with_table))
