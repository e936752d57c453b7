/*
 * Symmetries: each of the 8 transforms is a bijection of the cells, inverse_sym undoes it,
 * transform_move agrees with transform, and the 8 images of every reachable position share one
 * canonical form, whose symmetry id maps the position onto it; a game's orbit sizes are the
 * images counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdlib.h>
#include <string.h>

#include "space.h"

static void bijections(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    assert_int_equal(g->nsym, 8);
    int images[8] = {0};
    for (int s = 0; s < 8; s++) {
        int seen = 0;
        for (int c = 0; c < 9; c++) {
            int t = oxo_transform_move(g, c, s);
            assert_in_range(t, 0, 8);
            seen |= 1 << t;
            assert_int_equal(oxo_transform_move(g, t, oxo_inverse_sym(g, s)), c);
            oxo_pos one = oxo_transform(g, (oxo_pos){1ull << c, 0}, s);
            assert_int_equal(one.me, 1ull << t);
        }
        assert_int_equal(seen, 0x1ff);
        /* The 8 symmetries are distinct: their images of a cell pair differ. */
        images[s] = oxo_transform_move(g, 0, s) * 9 + oxo_transform_move(g, 1, s);
        for (int t = 0; t < s; t++)
            assert_int_not_equal(images[s], images[t]);
        assert_int_equal(oxo_transform_move(g, 4, s), 4); /* the centre stays */
    }
    /* Identity is 0; every mask maps 1:1. */
    for (int s = 0; s < 8; s++) {
        int hit[512] = {0};
        for (uint64_t m = 0; m < 512; m++) {
            uint64_t t = oxo_transform(g, (oxo_pos){m, 0}, s).me;
            assert_true(t < 512);
            assert_int_equal(hit[t]++, 0);
            if (s == 0)
                assert_int_equal(t, m);
        }
    }
}

static void canonical_shared(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_space *raw = oxo_space_build(g, 0);
    assert_non_null(raw);
    for (uint32_t i = 0; i < raw->n; i++) {
        int sym;
        oxo_pos p = raw->pos[i];
        oxo_pos c = oxo_canonical(g, p, &sym);
        oxo_pos back = oxo_transform(g, p, sym);
        assert_int_equal(back.me, c.me);
        assert_int_equal(back.opp, c.opp);
        for (int s = 0; s < 8; s++) {
            oxo_pos img = oxo_transform(g, p, s);
            oxo_pos ci = oxo_canonical(g, img, NULL);
            assert_int_equal(ci.me, c.me);
            assert_int_equal(ci.opp, c.opp);
            assert_true(oxo_code(g, c) <= oxo_code(g, img));
            assert_int_equal(oxo_status_of(g, img), oxo_status_of(g, p));
        }
    }
    oxo_space_free(raw);
}

static void locate_maps_moves(void **state)
{
    (void)state;
    /* A move on a real board, mapped to the canonical node, leads to the canonical child of the
     * real child: the map of stored moves back to real boards is right. */
    const oxo_game *g = oxo_tictactoe();
    oxo_space *raw = oxo_space_build(g, 0), *can = oxo_space_build(g, 1);
    assert_non_null(raw);
    assert_non_null(can);
    assert_int_equal(can->n, 765);
    for (uint32_t i = 0; i < raw->n; i++) {
        int sym;
        int64_t node = oxo_space_locate(can, raw->pos[i], &sym);
        assert_true(node >= 0);
        uint64_t legal = oxo_legal(g, raw->pos[i]);
        while (legal) {
            int m = __builtin_ctzll(legal);
            legal &= legal - 1;
            int64_t e = oxo_space_edge(can, (uint32_t)node, oxo_transform_move(g, m, sym));
            assert_true(e >= 0);
            int64_t want = oxo_space_locate(can, oxo_play(g, raw->pos[i], m), NULL);
            assert_int_equal(can->echild[e], want);
        }
    }
    oxo_space_free(raw);
    oxo_space_free(can);
}

/* A game's own orbit size (Connect-4's, from the mirror of the code) against the images counted
 * here, transform by transform; and the orbits of the canonical positions add up to every
 * position, on boards of odd and even width. */
static void orbits_counted(void **state)
{
    (void)state;
    const char *specs[] = {"connect4:4,4", "connect4:5,3", "tictactoe"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        oxo_game *g = oxo_game_open(specs[i], NULL);
        assert_non_null(g);
        oxo_space *raw = oxo_space_build(g, 0), *can = oxo_space_build(g, 1);
        assert_non_null(raw);
        assert_non_null(can);
        int ones = 0;
        for (uint32_t k = 0; k < raw->n; k++) {
            uint64_t codes[8];
            int n = 0;
            for (int y = 0; y < g->nsym; y++) {
                uint64_t c = oxo_code(g, oxo_transform(g, raw->pos[k], y));
                int dup = 0;
                for (int j = 0; j < n; j++)
                    dup |= codes[j] == c;
                if (!dup)
                    codes[n++] = c;
            }
            assert_int_equal(oxo_orbit_size(g, raw->pos[k]), n);
            ones += n == 1;
        }
        assert_true(ones > 1); /* the symmetric boards were met, not only pairs */
        uint64_t sum = 0;
        for (uint32_t k = 0; k < can->n; k++)
            sum += (uint64_t)oxo_orbit_size(g, can->pos[k]);
        assert_int_equal(sum, raw->n);
        oxo_space_free(raw);
        oxo_space_free(can);
        oxo_game_free(g);
    }
}

OXO_TEST_MAIN(cmocka_unit_test(bijections), cmocka_unit_test(canonical_shared),
              cmocka_unit_test(locate_maps_moves), cmocka_unit_test(orbits_counted))
