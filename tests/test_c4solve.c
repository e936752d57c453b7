/*
 * The Connect-4 solver (lookup/c4solve.c) against the exact tables of the generator: on
 * connect4:4,4 every position that is not over, on 5,4 and 4,5 every 11th; the score must be the
 * one the table's value and distance give (the winner's stones still unplayed when the winning
 * stone lands, plus one), and the weak solver its sign.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "c4solve.h"
#include "retro.h"

static void check(const char *spec, uint64_t every)
{
    char msg[200];
    oxo_game *g = oxo_game_open(spec, msg, sizeof msg);
    assert_non_null(g);
    oxo_retro *r = oxo_retro_solve(g, 0, 0, msg, sizeof msg);
    assert_non_null(r);
    oxo_c4solver *s = oxo_c4solver_new(g, 16);
    assert_non_null(s);
    uint64_t idx = 0, checked = 0;
    for (uint64_t w = 0; w < r->keys.nwords; w++)
        for (uint64_t bits = r->keys.words[w]; bits; bits &= bits - 1, idx++) {
            if (idx % every)
                continue;
            oxo_pos p = oxo_decode(g, w * 64 + (uint64_t)__builtin_ctzll(bits));
            if (oxo_status_of(g, p) != OXO_ONGOING)
                continue;
            int v = OXO_ENTRY_VALUE(r->entries[idx]), d = OXO_ENTRY_DISTANCE(r->entries[idx]);
            int want = v ? v * oxo_c4_win_score(g, oxo_ply(p) + d - 1) : 0;
            int got = oxo_c4solve(s, p, 0), weak = oxo_c4solve(s, p, 1);
            if (got != want || weak != (want > 0) - (want < 0))
                fail_msg("%s: a position of %d stones: the solver says %d (weak %d), the table %s in %d (score %d)",
                         spec, oxo_ply(p), got, weak, v > 0 ? "win" : v < 0 ? "loss" : "draw", d, want);
            checked++;
        }
    printf("%s: %llu positions agree\n", spec, (unsigned long long)checked);
    assert_true(checked > 1000);
    oxo_c4solver_free(s);
    oxo_retro_free(r);
    oxo_game_free(g);
}

static void connect4_4x4(void **state)
{
    (void)state;
    check("connect4:4,4", 1);
}

static void connect4_5x4_and_4x5(void **state)
{
    (void)state;
    check("connect4:5,4", 11);
    check("connect4:4,5", 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(connect4_4x4),
        cmocka_unit_test(connect4_5x4_and_4x5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
