/*
 * Checks an exported C player (oxo-export) against liboxo on every position of its game: built by
 * tests/e2e_export.sh with -DOXP_FILE="the exported file" (and -DOXP_SMALL for --form c-small) and
 * linked with the build's liboxo. For the full form: the value and distance of every position, each
 * move's value and distance, the best-move set, and the move picked at every level for several
 * seeds (the same move, the same random stream afterwards). For c-small: the move is in the set.
 * For a network's --form c (-DOXP_NET): every move's value, bit for bit, the best-move set and the
 * moves picked at the levels, along GAMES random games (boards up to 7x6 are not walked whole).
 * Usage: driver FILE [GAMES]   (prints "N positions (M not finished): all agree", exit 0, or the
 * first disagreements and exit 1)
 */
#include OXP_FILE

#include <oxo/oxo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static oxo_handle *h;
static long positions, ongoing, fails;
static uint64_t *seen;
static size_t seen_cap = 1u << 22;

static int visit(oxp_mask x, oxp_mask o)
{
    uint64_t k = (uint64_t)x << 32 | o, i = (k * 0x9e3779b97f4a7c15u) >> 42;
    for (;; i = (i + 1) & (seen_cap - 1)) {
        if (seen[i] == k + 1)
            return 0;
        if (!seen[i]) {
            seen[i] = k + 1;
            return 1;
        }
    }
}

static void fail(const char *board, const char *what)
{
    if (fails++ < 10)
        fprintf(stderr, "driver: board \"%s\": %s\n", board, what);
}

#ifndef OXP_SMALL
/* The best moves, and the move picked at every level for several streams (and the stream after
 * it), are liboxo's. */
static void same_best(oxp_mask x, oxp_mask o, const char *board, const oxo_query_result *q)
{
    int best[oxp_MOVES];
    int k = oxp_best_moves(x, o, best);
    if (k != q->nbest || memcmp(best, q->best, (size_t)k * sizeof *best))
        fail(board, "best moves differ");
    if (q->over)
        return;
    for (int level = 1; level <= 10; level++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            uint64_t r1 = seed * 0x1234567u, r2 = r1;
            int a = oxp_pick(x, o, level, &r1), b = -1;
            oxo_pick(h, board, level, &r2, &b);
            if (a != b || r1 != r2)
                fail(board, "the move picked at a level differs from liboxo's");
        }
}
#endif

static void check(oxp_mask x, oxp_mask o, const char *board)
{
    oxo_query_result q;
    if (oxo_query(h, board, &q) != OXO_RC_OK) {
        fail(board, oxo_last_error());
        return;
    }
    positions++;
    ongoing += !q.over;
#if defined OXP_NET
    float v[oxp_MOVES];
    int n = oxp_moves(x, o, v);
    if (n != (q.over ? 0 : q.nmoves))
        fail(board, "number of moves differs");
    for (int i = 0; i < q.nmoves && i < n; i++)
        if ((double)v[q.moves[i].move] != q.moves[i].score)
            fail(board, "a move's value differs");
    same_best(x, o, board, &q);
#elif defined OXP_SMALL
    int m = oxp_best(x, o);
    int in = 0;
    for (int i = 0; i < q.nbest; i++)
        in |= q.best[i] == m;
    if (q.over ? m != -1 : !in)
        fail(board, "the exported move is not a best move");
#else
    int v, d, r = oxp_value(x, o, &v, &d);
    if (r != q.over || (!q.over && (v != q.value || d != q.distance)))
        fail(board, "value or distance differ");
    int8_t mv[oxp_MOVES];
    uint8_t md[oxp_MOVES];
    int n = oxp_moves(x, o, mv, md);
    if (n != q.nmoves)
        fail(board, "number of moves differs");
    for (int i = 0; i < q.nmoves && i < n; i++) {
        int m = q.moves[i].move;
        if (mv[m] != q.moves[i].value || md[m] != q.moves[i].distance)
            fail(board, "a move's value differs");
    }
    same_best(x, o, board, &q);
#endif
}

#if defined OXP_NET
/* A network's export holds any board of its game, up to 7x6: checked along random games (argv[2] of
 * them, from a fixed stream), every position of each, rather than on every position. */
static void games(long n)
{
    uint64_t rng = 0x6578706f7274u;
    char board[2 * oxp_CELLS + 2];
    for (long i = 0; i < n; i++) {
        oxp_mask x = 0, o = 0;
        int len = 0;
        for (int ply = 0;; ply++) {
            if (oxp_GRAVITY)
                board[len] = 0;
            else {
                for (int c = 0; c < oxp_CELLS; c++)
                    board[c] = x >> c & 1 ? 'X' : o >> c & 1 ? 'O' : '.';
                board[oxp_CELLS] = 0;
            }
            check(x, o, board);
            float v[oxp_MOVES];
            int k = oxp_moves(x, o, v), legal[oxp_MOVES], nl = 0;
            if (k <= 0)
                break;
            for (int m = 0; m < oxp_MOVES; m++)
                if (v[m] > -2)
                    legal[nl++] = m;
            int m = legal[oxp_below(&rng, (unsigned)nl)];
            int c = oxp_cell(x | o, m);
            if (ply & 1)
                o |= (oxp_mask)1 << c;
            else
                x |= (oxp_mask)1 << c;
            if (oxp_GRAVITY)
                board[len++] = (char)('1' + m);
        }
    }
}
#else
static void walk(oxp_mask x, oxp_mask o, char *board, int len)
{
    if (!visit(x, o))
        return;
    board[len] = 0;
    if (!oxp_GRAVITY) {
        for (int c = 0; c < oxp_CELLS; c++)
            board[c] = x >> c & 1 ? 'X' : o >> c & 1 ? 'O' : '.';
        board[oxp_CELLS] = 0;
    }
    check(x, o, board);
    oxp_mask me, op;
    if (!oxp_sides(x, o, &me, &op))
        return;
    int xm = me == x && op == o;
    for (int m = 0; m < oxp_MOVES; m++) {
        int c = oxp_cell(x | o, m);
        if (c < 0)
            continue;
        oxp_mask bit = (oxp_mask)((oxp_mask)1 << c);
        char next[2 * oxp_CELLS + 2];
        memcpy(next, board, (size_t)len + 1);
        if (oxp_GRAVITY) {
            next[len] = (char)('1' + m);
            next[len + 1] = 0;
        }
        if (xm && (x & o) == 0 && !(x >> c & 1))
            walk((oxp_mask)(x | bit), o, next, len + 1);
        else
            walk(x, (oxp_mask)(o | bit), next, len + 1);
    }
}

#endif

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || oxo_open(argv[1], &h) != OXO_RC_OK) {
        fprintf(stderr, "driver: %s\n",
                argc >= 2 && argc <= 3 ? oxo_last_error() : "usage: driver FILE [GAMES]");
        return 2;
    }
#if defined OXP_NET
    games(argc == 3 ? atol(argv[2]) : 1000);
#else
    seen = calloc(seen_cap, sizeof *seen);
    char board[2 * oxp_CELLS + 2] = "";
    walk(0, 0, board, 0);
#endif
    printf("%ld positions (%ld not finished): %s\n", positions, ongoing,
           fails ? "DISAGREE" : "all agree");
    oxo_close(h);
    free(seen);
    return fails ? 1 : 0;
}
