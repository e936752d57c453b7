/*
 * The enumeration figures, two ways: oxo_count (paths through the state space) and an independent
 * walk of the whole tree node by node with its own win test, base-3 codes and symmetry table.
 * Both must give the known figures of tic-tac-toe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include "solve.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t nodes, games, xw, ow, draws;
    uint8_t seen[19683];
} walk;

static int has_line(int m)
{
    static const int l[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int i = 0; i < 8; i++)
        if ((m & l[i]) == l[i])
            return 1;
    return 0;
}

static int code3(int x, int o)
{
    int c = 0;
    for (int i = 8; i >= 0; i--)
        c = c * 3 + ((x >> i & 1) ? 1 : (o >> i & 1) ? 2 : 0);
    return c;
}

static void walk_tree(walk *w, int x, int o, int xturn)
{
    w->nodes++;
    w->seen[code3(x, o)] = 1;
    if (has_line(x)) {
        w->games++;
        w->xw++;
        return;
    }
    if (has_line(o)) {
        w->games++;
        w->ow++;
        return;
    }
    if ((x | o) == 0777) {
        w->games++;
        w->draws++;
        return;
    }
    for (int c = 0; c < 9; c++)
        if (!((x | o) >> c & 1))
            walk_tree(w, xturn ? x | 1 << c : x, xturn ? o : o | 1 << c, !xturn);
}

/* The 8 symmetries as literal cell permutations. */
static const int sym[8][9] = {{0, 1, 2, 3, 4, 5, 6, 7, 8}, {2, 5, 8, 1, 4, 7, 0, 3, 6},
                              {8, 7, 6, 5, 4, 3, 2, 1, 0}, {6, 3, 0, 7, 4, 1, 8, 5, 2},
                              {2, 1, 0, 5, 4, 3, 8, 7, 6}, {6, 7, 8, 3, 4, 5, 0, 1, 2},
                              {0, 3, 6, 1, 4, 7, 2, 5, 8}, {8, 5, 2, 7, 4, 1, 6, 3, 0}};

static void figures_by_walk(void **state)
{
    (void)state;
    walk *w = calloc(1, sizeof *w);
    assert_non_null(w);
    walk_tree(w, 0, 0, 1);
    assert_int_equal(w->nodes, 549946);
    assert_int_equal(w->games, 255168);
    assert_int_equal(w->xw, 131184);
    assert_int_equal(w->ow, 77904);
    assert_int_equal(w->draws, 46080);
    int positions = 0, terminal = 0, canon = 0, canon_nt = 0;
    for (int c = 0; c < 19683; c++) {
        if (!w->seen[c])
            continue;
        int x = 0, o = 0, t = c;
        for (int i = 0; i < 9; i++, t /= 3)
            x |= (t % 3 == 1) << i, o |= (t % 3 == 2) << i;
        int term = has_line(x) || has_line(o) || (x | o) == 0777;
        positions++;
        terminal += term;
        int smallest = 1;
        for (int s = 1; s < 8; s++) {
            int sx = 0, so = 0;
            for (int i = 0; i < 9; i++)
                sx |= (x >> i & 1) << sym[s][i], so |= (o >> i & 1) << sym[s][i];
            if (code3(sx, so) < c)
                smallest = 0;
        }
        canon += smallest;
        canon_nt += smallest && !term;
    }
    assert_int_equal(positions, 5478);
    assert_int_equal(terminal, 958);
    assert_int_equal(positions - terminal, 4520);
    assert_int_equal(canon, 765);
    assert_int_equal(canon_nt, 627);
    free(w);
}

static void figures_by_count(void **state)
{
    (void)state;
    oxo_table_counts c;
    assert_int_equal(oxo_count(oxo_tictactoe(), &c), 0);
    assert_int_equal(c.nodes, 549946);
    assert_int_equal(c.games, 255168);
    assert_int_equal(c.x_wins, 131184);
    assert_int_equal(c.o_wins, 77904);
    assert_int_equal(c.draws, 46080);
    assert_int_equal(c.positions, 5478);
    assert_int_equal(c.terminal_positions, 958);
    assert_int_equal(c.canonical_positions, 765);
    assert_int_equal(c.canonical_nonterminal_positions, 627);
}

static void space_order(void **state)
{
    (void)state;
    /* The indexing scheme: by ply, then by code, every child one ply deeper. */
    oxo_space *s = oxo_space_build(oxo_tictactoe(), 1);
    assert_non_null(s);
    for (uint32_t i = 1; i < s->n; i++) {
        assert_true(s->ply[i] > s->ply[i - 1] ||
                    (s->ply[i] == s->ply[i - 1] && s->code[i] > s->code[i - 1]));
        for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++)
            assert_int_equal(s->ply[s->echild[e]], s->ply[i] + 1);
        assert_int_equal(oxo_space_find(s, s->code[i]), i);
    }
    assert_true(oxo_space_find(s, 1) >= 0);        /* X in the top left corner: canonical */
    assert_int_equal(oxo_space_find(s, 6561), -1); /* X in the bottom right: an image of it */
    oxo_space_free(s);
}

OXO_TEST_MAIN(cmocka_unit_test(figures_by_walk), cmocka_unit_test(figures_by_count),
              cmocka_unit_test(space_order))
