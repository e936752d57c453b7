/*
 * The Connect-4 solver (lookup/c4solve.c) against the exact tables of the generator: on
 * connect4:4,4 every position that is not over, on 5,4 and 4,5 every 11th; the score must be the
 * one the table's value and distance give (the winner's stones still unplayed when the winning
 * stone lands, plus one), and the weak solver its sign. The same with two threads sharing one table
 * (lazy SMP: a helper that orders ties and picks windows its own way, stopped when the main search
 * is done), and with a helper searching alone: its variations must not change a score. One null
 * window (oxo_c4solve_at_least) must tell a score from the one above it. On 7x6, where no table
 * exists, it must agree with the reference solver (tests/c4ref.c, written apart: the published
 * method alone), which first gives the published scores of three positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdio.h>

#include "c4ref.h"
#include "c4solve.h"
#include "rng.h"
#include "retro.h"
#include "search.h"

/* mode 0: one solver; 1: main and helper on two threads; 2: a helper alone. */
static int solve(oxo_c4solver *s, oxo_c4solver *h, int mode, oxo_pos p, int weak)
{
    if (mode == 2)
        return oxo_c4solve(h, p, weak);
    oxo_c4solver *helpers[2] = {NULL, h};
    return oxo_c4solve_smp(s, helpers, mode == 0 ? 1 : 2, p, weak);
}

static void check_mode(const char *spec, uint64_t every, int mode)
{
    oxo_error fault;
    oxo_game *g = oxo_game_open(spec, &fault);
    assert_non_null(g);
    oxo_retro *r = oxo_retro_solve(g, 0, 0, &fault);
    assert_non_null(r);
    oxo_c4solver *s = oxo_c4solver_new(g, 16), *h = oxo_c4solver_helper(s, 1);
    assert_non_null(s);
    assert_non_null(h);
    uint64_t idx = 0, checked = 0;
    for (uint64_t w = 0; w < r->keys.nwords; w++)
        for (uint64_t bits = r->keys.words[w]; bits; bits &= bits - 1, idx++) {
            if (idx % every)
                continue;
            oxo_pos p = oxo_decode(g, w * 64 + (uint64_t)__builtin_ctzll(bits));
            if (oxo_status_of(g, p) != OXO_ONGOING)
                continue;
            int v = OXO_ENTRY_VALUE(r->entries[idx]), d = OXO_ENTRY_DISTANCE(r->entries[idx]);
            int want = oxo_c4_distance_score(g, v, d, oxo_ply(p));
            int got = solve(s, h, mode, p, 0), weak = solve(s, h, mode, p, 1);
            if (got != want || weak != (want > 0) - (want < 0))
                fail_msg("%s: a position of %d stones: the solver says %d (weak %d), the table %s "
                         "in %d (score %d)",
                         spec, oxo_ply(p), got, weak,
                         v > 0   ? "win"
                         : v < 0 ? "loss"
                                 : "draw",
                         d, want);
            /* The player's one question to a move: does it reach a score? */
            if (mode == 0 && (oxo_c4solve_at_least(s, p, want) != 1 ||
                              oxo_c4solve_at_least(s, p, want + 1) != 0 ||
                              oxo_c4solve_at_least(s, p, want - 2) != 1))
                fail_msg("%s: a position of score %d: at least %d, %d, %d says %d, %d, %d", spec,
                         want, want, want + 1, want - 2, oxo_c4solve_at_least(s, p, want),
                         oxo_c4solve_at_least(s, p, want + 1),
                         oxo_c4solve_at_least(s, p, want - 2));
            checked++;
        }
    printf("%s: %llu positions agree (%s)\n", spec, (unsigned long long)checked,
           mode == 0   ? "one thread"
           : mode == 1 ? "two threads, one table"
                       : "a helper alone");
    assert_true(checked > 1000);
    oxo_c4solver_free(h);
    oxo_c4solver_free(s);
    oxo_retro_free(r);
    oxo_game_free(g);
}

static void check(const char *spec, uint64_t every)
{
    check_mode(spec, every, 0);
}

static void shared_table(void **state)
{
    (void)state;
    check_mode("connect4:4,4", 3, 1);
    check_mode("connect4:4,4", 3, 2);
    check_mode("connect4:5,4", 41, 1);
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

static int ref_score(c4ref *r, const char *moves)
{
    int cols[64], n = 0, score;
    for (; moves[n]; n++)
        cols[n] = moves[n] - '1';
    assert_int_equal(c4ref_solve(r, cols, n, &score), 0);
    return score;
}

static void reference_7x6(void **state)
{
    (void)state;
    c4ref *r = c4ref_new(7, 6);
    assert_non_null(r);
    /* Scores published with the method (Pons' tutorial, part 2, and the first line of its end-easy
     * test set). */
    assert_int_equal(ref_score(r, "4455"), 18);
    assert_int_equal(ref_score(r, "44455554221"), -15);
    assert_int_equal(ref_score(r, "2252576253462244111563365343671351441"), -1);
    int cols[64] = {0};
    /* a seventh stone in a full column */
    assert_int_equal(c4ref_solve(r, cols, 7, &(int){0}), -1);

    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault);
    assert_non_null(g);
    oxo_c4solver *s = oxo_c4solver_new(g, 16);
    assert_non_null(s);
    uint64_t rng = 2026;
    int checked = 0, nonzero = 0;
    while (checked < 200) {
        int stones = 18 + (int)oxo_rng_below(&rng, 17), k = 0;
        oxo_pos p = oxo_start(g);
        for (; k < stones && oxo_status_of(g, p) == OXO_ONGOING; k++) {
            cols[k] = oxo_rng_bit(&rng, oxo_legal(g, p)); /* a Connect-4 move is its column */
            p = oxo_play(g, p, cols[k]);
        }
        if (k < stones || oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        int want, got = oxo_c4solve(s, p, 0);
        assert_int_equal(c4ref_solve(r, cols, k, &want), 0);
        if (got != want)
            fail_msg("a 7x6 position of %d stones: the solver says %d, the reference %d", k, got,
                     want);
        nonzero += got != 0;
        checked++;
    }
    printf("connect4: %d positions of 18-34 stones agree with the reference (%d not draws)\n",
           checked, nonzero);
    assert_true(nonzero > 50);
    oxo_c4solver_free(s);
    oxo_game_free(g);
    c4ref_free(r);
}

OXO_TEST_MAIN(cmocka_unit_test(connect4_4x4), cmocka_unit_test(connect4_5x4_and_4x5),
              cmocka_unit_test(shared_table), cmocka_unit_test(reference_7x6))
