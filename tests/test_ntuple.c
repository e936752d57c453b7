/*
 * n-tuple networks and their learner: the incremental indexes equal those computed from the cells
 * at every move of random games (tic-tac-toe, 4x4 boards, Connect-4 4x4 and 7x6), and so do the
 * trainer's sums from each move's changes; the weight a board reads in the network's layout is the
 * one at its place in the file's, and a file with a weight no board reads is refused; the network's
 * own tanh rounds as libm's; the value of a board is that of its mirror images; tuples from random
 * walks are connected and reproducible; a trained model reads back and plays the same moves; the
 * reader refuses tuples that do not fit and weights that do not match the weight sets (one a player
 * on Connect-4, or one shared); training on connect4:4,4 raises the share of value-keeping moves
 * far above the untrained network's; two workers give the same bytes on one thread or two; --defend
 * plays the move whose best reply is worth least; the bound on a network's size is on the weights
 * it holds.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "judge.h"
#include "ntuple.h"
#include "player.h"
#include "retro.h"
#include "rng.h"
#include "train.h"

static oxo_ntuple *random_net_sets(const oxo_game *g, int count, int len, int sets, uint64_t seed)
{
    uint8_t cells[64 * 12];
    oxo_error fault;
    assert_int_equal(oxo_ntuple_random_walks(g, count, len, 0, seed, cells), 0);
    oxo_ntuple *n = oxo_ntuple_new(g, count, len, sets, cells, NULL, &fault);
    assert_non_null(n);
    uint64_t rng = oxo_rng_stream(seed, 7);
    for (uint32_t i = 0; i < n->nweights; i++)
        n->w[i] = (float)(oxo_rng_unit(&rng) - 0.5) * 0.1f;
    return n;
}

static oxo_ntuple *random_net(const oxo_game *g, int count, int len, uint64_t seed)
{
    return random_net_sets(g, count, len, 1, seed);
}

/* The indexes kept move by move equal those computed from the cells, with one weight set and with
 * two; with two, each player's afterstates read only their own set. */
static void walk_matches_cells(void **state)
{
    (void)state;
    static const char *const specs[] = {"tictactoe", "mnk:4,4,4", "connect4:4,4", "connect4:7,6"};
    for (size_t s = 0; s < 2 * sizeof specs / sizeof *specs; s++) {
        oxo_error fault;
        const int sets = 1 + (int)(s & 1);
        oxo_game *g = oxo_game_open(specs[s / 2], &fault);
        assert_non_null(g);
        int len = g->cells < 12 ? 4 : 6;
        oxo_ntuple *n = random_net_sets(g, 12, len, sets, 3 + s / 2);
        assert_int_equal(n->nweights, (uint32_t)sets * n->per_set);
        const uint32_t half = n->per_set;
        int in_first = 0, in_second = 0;
        oxo_ntuple_walk w;
        assert_int_equal(oxo_ntuple_walk_init(n, &w), 0);
        const int A = n->count * n->nsym;
        uint32_t *a = malloc(A * sizeof *a), *b = malloc(A * sizeof *b);
        uint64_t rng = oxo_rng_stream(11, s);
        int checked = 0, changed = 0;
        for (int game = 0; game < 50; game++) {
            oxo_pos p = oxo_start(g);
            oxo_ntuple_walk_start(n, &w, p);
            while (oxo_status_of(g, p) == OXO_ONGOING) {
                uint64_t legal = oxo_legal(g, p);
                for (uint64_t l = legal; l; l &= l - 1) {
                    int m = __builtin_ctzll(l);
                    float sum = oxo_ntuple_walk_after(n, &w, p, m, a);
                    oxo_ntuple_active(n, oxo_play(g, p, m), b);
                    assert_memory_equal(a, b, A * sizeof *a);
                    assert_true(sum == oxo_ntuple_sum(n, b));
                    for (int i = 0; i < A; i++) {
                        assert_true(b[i] < n->nweights);
                        if (sets == 2 && (b[i] < half) != !(oxo_ply(p) & 1))
                            fail_msg(
                                "%s: the %s player's afterstate reads weight %u of the other's set",
                                specs[s / 2], oxo_ply(p) & 1 ? "second" : "first", b[i]);
                        in_first += b[i] < half;
                        in_second += b[i] >= half;
                    }
                    /* The trainer's way: the indexes alone, and the sum from the position's
                     * own sum and the slots the move changes (equal but for rounding). */
                    oxo_ntuple_walk_indexes(n, &w, p, m, a);
                    assert_memory_equal(a, b, A * sizeof *a);
                    float base = oxo_ntuple_walk_base(n, &w, p);
                    float delta = oxo_ntuple_walk_after_sum(n, &w, p, m, base);
                    assert_true(fabsf(delta - sum) <= 1e-5f);
                    changed += delta != base;
                    checked++;
                }
                int m = oxo_rng_bit(&rng, legal);
                oxo_ntuple_walk_play(n, &w, p, m);
                p = oxo_play(g, p, m);
            }
        }
        assert_true(checked > 200);
        assert_true(changed > checked / 2); /* the moves' lists are not empty */
        assert_true(in_first > 0 && (in_second > 0) == (sets == 2));
        free(a);
        free(b);
        oxo_ntuple_walk_free(&w);
        oxo_ntuple_free(n);
        oxo_game_free(g);
    }
}

/* The file's layout, written out here from FORMAT.md as an older reader had it: tuple t's weight
 * for its cells' states s_i (0 empty, 1 the owner's, 2 the other's, 3 playable) at
 * (set * count + t) * states^len + sum s_i states^i. */
static uint32_t file_index(const oxo_ntuple *n, oxo_pos after, int slot)
{
    const oxo_game *g = n->g;
    uint64_t x, o;
    oxo_cells(g, after, &x, &o);
    const int second = !(oxo_ply(after) & 1); /* O just moved */
    const uint64_t mine = second ? o : x, theirs = second ? x : o, occ = x | o;
    const int t = slot % n->count;
    const uint8_t *im = n->images + (size_t)slot * n->len;
    uint32_t f = 0, F = 1;
    for (int i = 0; i < n->len; i++)
        F *= (uint32_t)n->states;
    for (int i = n->len - 1; i >= 0; i--) {
        const int c = im[i];
        const int below = c + g->cols;
        const int free_here = !(occ >> c & 1);
        const int playable = g->gravity && free_here && (below >= g->cells || (occ >> below & 1));
        const uint32_t st = mine >> c & 1 ? 1 : theirs >> c & 1 ? 2 : playable ? 3 : 0;
        f = f * (uint32_t)n->states + st;
    }
    return ((uint32_t)(second && n->sets == 2) * (uint32_t)n->count + (uint32_t)t) * F + f;
}

/* The network keeps only the fillings a board can have, and a model file of minor 3 every filling:
 * a file's weights, placed where the file's layout puts the boards of 40 random games, come into
 * the network where those boards read them; the network's layout is far smaller with gravity (70
 * tuples of 8 cells on 7x6) and the file's itself without, and the reader of minor 4 counts it as
 * the network does; a file with a weight at a filling no board has (a stone above an empty cell)
 * is refused, naming that weight. */
static void layouts_agree(void **state)
{
    (void)state;
    /* 3x8: columns of 8 cells, where tuples of 9 hold long runs of one column (checked below). */
    static const char *const specs[] = {"connect4:7,6", "connect4:4,4", "connect4:3,8", "mnk:4,4,4",
                                        "tictactoe"};
    static const int counts[] = {70, 12, 8, 12, 12}, lens[] = {8, 4, 9, 4, 4};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        oxo_error fault;
        oxo_game *g = oxo_game_open(specs[s], &fault);
        assert_non_null(g);
        const int big = g->cells >= 42, count = counts[s], len = lens[s];
        oxo_ntuple *n = random_net_sets(g, count, len, 1 + g->gravity, 5 + s);
        int run = 0; /* the longest run of a tuple's cells one above another */
        for (int t = 0; t < count; t++)
            for (int i = 0; i < len; i++) {
                int r = 1;
                for (int c = n->cells[t * len + i] - g->cols;
                     c >= 0 && memchr(n->cells + t * len, c, (size_t)len); c -= g->cols)
                    r++;
                run = r > run ? r : run;
            }
        if (g->rows == 8)
            assert_true(run >= 5);
        if (big)
            assert_true((uint64_t)n->nweights * 5 < n->nfull);
        else if (!g->gravity)
            assert_int_equal(n->nweights, n->nfull);
        oxo_model mm = {.algo = "ntuple",
                        .rows = (uint32_t)g->rows,
                        .cols = (uint32_t)g->cols,
                        .minor = 4,
                        .nt_count = (uint32_t)count,
                        .nt_len = (uint32_t)len,
                        .nt_states = (uint32_t)n->states,
                        .nt_sets = (uint32_t)n->sets,
                        .nt_cells = n->cells};
        assert_int_equal(oxo_ntuple_weights_of(&mm), n->nweights);
        mm.minor = 3;
        assert_int_equal(oxo_ntuple_weights_of(&mm), n->nfull);
        /* The boards of random games, each slot's weight written where the file's layout puts it
         * (the network's random weights, so that a wrong place reads another value). */
        float *full = calloc((size_t)n->nfull, sizeof *full),
              *w = malloc((size_t)n->nweights * sizeof *w);
        assert_true(full && w);
        const int A = n->count * n->nsym;
        enum { MAXSEEN = 40 * 64 };
        static oxo_pos seen[MAXSEEN];
        int nseen = 0;
        uint32_t idx[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
        uint64_t rng = oxo_rng_stream(17, s);
        for (int game = 0; game < 40; game++)
            for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
                p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
                oxo_ntuple_active(n, p, idx);
                for (int k = 0; k < A; k++)
                    full[file_index(n, p, k)] = n->w[idx[k]];
                seen[nseen++] = p;
            }
        assert_int_equal(oxo_ntuple_pack(n, full, w), -1);
        int checked = 0;
        for (int i = 0; i < nseen; i++) {
            oxo_ntuple_active(n, seen[i], idx);
            for (int k = 0; k < A; k++, checked++)
                if (w[idx[k]] != n->w[idx[k]])
                    fail_msg(
                        "%s: slot %d reads weight %u, %g from the file where the network has %g",
                        specs[s], k, idx[k], (double)w[idx[k]], (double)n->w[idx[k]]);
        }
        assert_true(checked > 10000);
        if (g->gravity) {
            /* A stone above an empty cell: find a tuple with a cell right above another. */
            uint32_t F = n->nfull / (uint32_t)(n->sets * n->count), bad = UINT32_MAX;
            for (int t = 0; t < n->count && bad == UINT32_MAX; t++)
                for (int i = 0; i < len && bad == UINT32_MAX; i++)
                    for (int j = 0; j < len; j++)
                        if (n->cells[t * len + j] == n->cells[t * len + i] - g->cols) {
                            uint32_t f = 1; /* cell j holds a stone, cell i (below) is empty */
                            for (int k = 0; k < j; k++)
                                f *= (uint32_t)n->states;
                            bad = (uint32_t)(n->sets - 1) * n->count * F + (uint32_t)t * F + f;
                            break;
                        }
            assert_int_not_equal(bad, UINT32_MAX);
            assert_true(full[bad] == 0);
            full[bad] = 0.25f;
            assert_int_equal(oxo_ntuple_pack(n, full, w), (int64_t)bad);
        }
        free(full);
        free(w);
        oxo_ntuple_free(n);
        oxo_game_free(g);
    }
    /* Tuples with no cell above another: the network's layout is the file's, weight for weight, so
     * that a reader of minor 3 reads such a file of minor 4 as it was meant. */
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault);
    assert_non_null(g);
    static const uint8_t rows[] = {35, 36, 37, 38, 22, 23, 24, 25, 28, 30, 15, 3};
    oxo_ntuple *n = oxo_ntuple_new(g, 3, 4, 2, rows, NULL, &fault);
    assert_non_null(n);
    assert_int_equal(n->nweights, n->nfull);
    uint32_t idx[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    uint64_t rng = oxo_rng_stream(19, 0);
    for (int game = 0; game < 20; game++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
            p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
            oxo_ntuple_active(n, p, idx);
            for (int k = 0; k < n->count * n->nsym; k++)
                assert_int_equal(idx[k], file_index(n, p, k));
        }
    oxo_ntuple_free(n);
    oxo_game_free(g);
}

/* The network's tanh is libm's, correctly rounded to float, on a million arguments spread over
 * every binade that matters (the float bit patterns from 0 up to 10, in steps), and odd. */
static void tanh_is_correctly_rounded(void **state)
{
    (void)state;
    const uint32_t top = 0x41200000u; /* 10.0f */
    int checked = 0;
    for (uint32_t b = 0; b < top; b += 1061) {
        float x;
        memcpy(&x, &b, sizeof x);
        float mine = oxo_ntuple_tanh(x);
        if (mine != (float)tanh((double)x))
            fail_msg("tanh(%a) = %a, libm's rounds to %a", (double)x, (double)mine,
                     (double)(float)tanh((double)x));
        assert_true(oxo_ntuple_tanh(-x) == -mine);
        checked++;
    }
    assert_true(checked > 1000000);
    assert_true(oxo_ntuple_tanh(50.0f) == 1.0f && oxo_ntuple_tanh(-INFINITY) == -1.0f);
}

/* The sum runs over the board's symmetric images: every image of a board has its value (up to the
 * order of the float additions). */
static void value_is_symmetric(void **state)
{
    (void)state;
    static const char *const specs[] = {"tictactoe", "connect4:7,6", "mnk:4,3,3"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        oxo_error fault;
        oxo_game *g = oxo_game_open(specs[s], &fault);
        oxo_ntuple *n = random_net(g, 20, 4, 5);
        assert_int_equal(n->nsym, g->nsym);
        uint64_t rng = oxo_rng_stream(2, s);
        int asymmetric = 0;
        for (int game = 0; game < 30; game++) {
            oxo_pos p = oxo_start(g);
            while (oxo_status_of(g, p) == OXO_ONGOING) {
                p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
                float v = oxo_ntuple_value(n, p);
                for (int y = 1; y < g->nsym; y++) {
                    oxo_pos q = oxo_transform(g, p, y);
                    assert_true(fabsf(oxo_ntuple_value(n, q) - v) < 1e-5f);
                    asymmetric |= q.me != p.me || q.opp != p.opp;
                }
            }
        }
        assert_true(asymmetric); /* the images were not all the board itself */
        oxo_ntuple_free(n);
        oxo_game_free(g);
    }
}

/* Twin moves (a symmetry of the position maps one onto the other) score exactly the same in a
 * network's player, alone or joined, though the network's sums of the twins' afterstates add the
 * same weights in other orders: a hint lists both, and an export (one move per canonical board)
 * plays a best move on every image. */
static void twins_tie(void **state)
{
    (void)state;
    static const char *const specs[] = {"tictactoe", "connect4:4,4", "mnk:4,4,4"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        oxo_error fault;
        oxo_game *g = oxo_game_open(specs[s], &fault);
        oxo_ntuple *n = random_net(g, 20, 4, 11);
        oxo_player *p1 = oxo_player_borrow_net(n);
        uint64_t rng = oxo_rng_stream(3, s);
        int twins = 0, raw_differ = 0;
        for (int game = 0; game < 400; game++)
            for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
                 p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
                oxo_move_info mi[OXO_MAX_MOVES];
                int moves[OXO_MAX_MOVES];
                float raw[OXO_MAX_MOVES];
                const int k = oxo_player_moves(p1, p, mi);
                assert_int_equal(oxo_ntuple_moves(n, p, moves, raw), k);
                for (int y = 1; y < g->nsym; y++) {
                    const oxo_pos q = oxo_transform(g, p, y);
                    if (q.me != p.me || q.opp != p.opp)
                        continue;
                    for (int i = 0; i < k; i++)
                        for (int j = 0; j < k; j++)
                            if (i != j && mi[j].move == oxo_transform_move(g, mi[i].move, y)) {
                                assert_true(mi[i].score == mi[j].score);
                                twins++;
                                raw_differ += raw[i] != raw[j];
                            }
                }
            }
        print_message("%s: %d twin moves, of which the network's own values differ in %d\n",
                      specs[s], twins, raw_differ);
        assert_true(twins > 50);
        oxo_player_close(p1);
        oxo_ntuple_free(n);
        oxo_game_free(g);
    }
}

/* The directions (bit 0 across, 1 down, 2 and 3 the diagonals, as oxo_ntuple_random_walks orders
 * them) of the whole lines of k cells among the tuple's cells. */
static int lines_in(const oxo_game *g, const uint8_t *tu, int len)
{
    static const int dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    uint64_t has = 0;
    int found = 0;
    for (int i = 0; i < len; i++)
        has |= 1ull << tu[i];
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < g->rows; r++)
            for (int c = 0; c < g->cols; c++) {
                int k = 0;
                while (k < g->k) {
                    const int rr = r + dir[d][0] * k, cc = c + dir[d][1] * k;
                    if (rr >= g->rows || cc < 0 || cc >= g->cols ||
                        !(has >> (rr * g->cols + cc) & 1))
                        break;
                    k++;
                }
                if (k == g->k)
                    found |= 1 << d;
            }
    return found;
}

static void random_walks_are_connected(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault);
    uint8_t a[70 * 8], b[70 * 8];
    for (int half = 0; half <= 2; half++) {
        const double lines = half / 2.0;
        assert_int_equal(oxo_ntuple_random_walks(g, 70, 8, lines, 9, a), 0);
        assert_int_equal(oxo_ntuple_random_walks(g, 70, 8, lines, 9, b), 0);
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(oxo_ntuple_random_walks(g, 70, 8, lines, 10, b), 0);
        assert_memory_not_equal(a, b, sizeof a);
        int whole = 0, diagonal = 0;
        for (int t = 0; t < 70; t++) {
            const uint8_t *tu = a + 8 * t;
            for (int i = 0; i < 8; i++) {
                assert_true(tu[i] < 42);
                for (int j = 0; j < i; j++)
                    assert_int_not_equal(tu[i], tu[j]);
                /* each cell after the first neighbours an earlier one of its walk */
                int near = i == 0;
                for (int j = 0; j < i; j++)
                    near |= abs(tu[i] / 7 - tu[j] / 7) <= 1 && abs(tu[i] % 7 - tu[j] % 7) <= 1;
                assert_true(near);
            }
            const int d = lines_in(g, tu, 8);
            whole += d != 0;
            diagonal += (d & 12) != 0;
            if (half == 2) /* each walk from a line, the directions in turn */
                assert_true(d >> (t % 4) & 1);
            else if (half == 1 && t % 2 == 0)
                assert_true(d >> (t / 2 % 4) & 1);
        }
        if (half == 0) /* walks from one cell seldom hold a whole diagonal (the reason for lines) */
            assert_true(diagonal < 10);
        print_message("share %.1f from lines: %d of 70 tuples hold a whole line, %d a diagonal\n",
                      lines, whole, diagonal);
    }
    /* too long a tuple for the board, a cell off the board, a cell twice: refused */
    assert_int_equal(oxo_ntuple_random_walks(g, 1, 43, 0, 1, a), -1);
    uint8_t bad[4] = {1, 2, 42, 3}, twice[4] = {1, 2, 2, 3};
    assert_null(oxo_ntuple_new(g, 1, 4, 1, bad, NULL, &fault));
    assert_non_null(strstr(fault.msg, "beyond the 42 cells"));
    assert_null(oxo_ntuple_new(g, 1, 4, 1, twice, NULL, &fault));
    assert_non_null(strstr(fault.msg, "twice"));
    uint8_t ok[4] = {0, 1, 2, 3};
    assert_null(oxo_ntuple_new(g, 1, 4, 3, ok, NULL, &fault));
    assert_non_null(strstr(fault.msg, "1 or 2 sets"));
    oxo_game_free(g);
    /* A board of 3 rows where 4 in a row runs only across: every walk from such a line; and tuples
     * shorter than a line start from one cell. */
    g = oxo_game_open("mnk:7,3,4", &fault);
    assert_non_null(g);
    assert_int_equal(oxo_ntuple_random_walks(g, 30, 6, 1, 3, a), 0);
    for (int t = 0; t < 30; t++) {
        const int d = lines_in(g, a + 6 * t, 6);
        assert_true(d & 1);
    }
    assert_int_equal(oxo_ntuple_random_walks(g, 30, 3, 1, 3, a), 0);
    assert_int_equal(oxo_ntuple_random_walks(g, 30, 3, 0, 3, b), 0);
    assert_memory_equal(a, b, 30 * 3);
    oxo_game_free(g);
}

/* The solved table of a game, written to path. */
static void write_solved(const oxo_game *g, const char *path)
{
    oxo_error err;
    oxo_retro *r = oxo_retro_solve(g, 0, 0, &err);
    assert_non_null(r);
    oxo_table t;
    oxo_retro_table(r, &t);
    oxo_error e;
    assert_int_equal(oxo_table_write(path, &t, &e), OXO_OK);
    oxo_retro_free(r);
}

/* The solved table of a game, through a file as users get it. */
static oxo_player *solved(const oxo_game *g)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/oxo-test-ntuple-%d.oxt", (int)getpid());
    write_solved(g, path);
    oxo_error e;
    oxo_player *p = oxo_player_open(path, &e);
    remove(path);
    assert_non_null(p);
    return p;
}

static oxo_train_config nt_config(uint32_t workers)
{
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_NTUPLE);
    c.nt_count = 30;
    c.nt_len = 6;
    c.nt_horizon = oxo_train_horizon(c.lambda);
    c.alpha.length = c.epsilon.length = 30000;
    c.workers = workers;
    c.sync = 500;
    return c;
}

/* Encodes m anew into *body (the old body freed) and checks that the reader refuses it, with a
 * message holding `why` when one is given. */
static void refused_when_encoded(oxo_model *m, uint8_t **body, size_t *len, const char *why)
{
    oxo_error e;
    oxo_model *back;
    free(*body);
    assert_int_equal(oxo_model_encode_body(m, body, len, &e), OXO_OK);
    assert_int_not_equal(oxo_model_decode_body(*body, *len, OXO_MODEL_MINOR, &back, &e), OXO_OK);
    if (why)
        assert_non_null(strstr(e.msg, why));
}

/* m through the writer's encoding and the reader, which must take it back. */
static oxo_model *reread(oxo_model *m)
{
    uint8_t *body;
    size_t len;
    oxo_error e;
    oxo_model *back;
    assert_int_equal(oxo_model_encode_body(m, &body, &len, &e), OXO_OK);
    if (oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &e) != OXO_OK)
        fail_msg("the reader refuses what the writer wrote: %s", e.msg);
    free(body);
    return back;
}

/* Cuts a key and its value (the n bytes kv, found once in the body) out of a model body, as a
 * writer of an earlier minor version would not have written them. */
static void cut_key(uint8_t *body, size_t *len, const uint8_t *kv, size_t n)
{
    uint8_t *at = memmem(body, *len, kv, n);
    assert_non_null(at);
    memmove(at, at + n, *len - (size_t)(at - body) - n);
    *len -= n;
}

static void learns_connect4_4x4(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault);
    oxo_player *truth = solved(g);
    oxo_judge *j = oxo_judge_from_truth(truth, 1000, 0, OXO_JUDGE_SEED, &fault);
    assert_non_null(j);
    assert_int_equal(j->n, 1000);
    /* The same set drawn with the solver as the truth (oxo-train --judge solver): the same
     * positions and values as the table's, from 10 stones on. */
    oxo_player *sv = oxo_player_open_solver(g, NULL, &fault);
    assert_non_null(sv);
    oxo_judge *by_table = oxo_judge_from_truth(truth, 300, 10, 7, &fault),
              *by_solver = oxo_judge_from_truth(sv, 300, 10, 7, &fault);
    assert_non_null(by_table);
    assert_non_null(by_solver);
    assert_int_equal(by_table->n, 300);
    assert_int_equal(by_solver->n, 300);
    for (uint32_t i = 0; i < 300; i++) {
        assert_true(oxo_ply(by_table->pos[i].pos) >= 10);
        const oxo_judged *x = &by_table->pos[i], *y = &by_solver->pos[i];
        assert_true(x->pos.me == y->pos.me && x->pos.opp == y->pos.opp && x->best == y->best);
        assert_memory_equal(x->value, y->value, sizeof x->value);
    }
    assert_non_null(strstr(by_solver->what, "valued by the solver"));
    /* Valued by three threads, each its own solver (oxo-train --judge solver): the same set, and
     * the set a plain loop makes, drawing and valuing one position at a time in the stream's
     * order. */
    oxo_player *svs[3] = {sv, oxo_player_open_solver(g, NULL, &fault),
                          oxo_player_open_solver(g, NULL, &fault)};
    oxo_judge *by_three =
        oxo_judge_from_truths((const oxo_player *const *)svs, 3, 300, 10, 7, &fault);
    assert_non_null(by_three);
    assert_int_equal(by_three->n, 300);
    uint64_t rng = oxo_rng_stream(7, 0);
    uint32_t kept = 0;
    while (kept < 300) {
        oxo_pos p;
        if (oxo_random_position(g, 10, &rng, &p, NULL) < 0)
            continue;
        oxo_move_info mi[OXO_MAX_MOVES];
        int nm = oxo_player_moves(truth, p, mi), lo = OXO_WIN, hi = OXO_LOSS;
        for (int m = 0; m < nm; m++)
            lo = mi[m].value < lo ? mi[m].value : lo, hi = mi[m].value > hi ? mi[m].value : hi;
        if (nm <= 0 || lo == hi)
            continue;
        const oxo_judged *y = &by_three->pos[kept], *z = &by_solver->pos[kept++];
        assert_true(p.me == y->pos.me && p.opp == y->pos.opp && y->best == hi);
        assert_true(z->pos.me == y->pos.me && z->pos.opp == y->pos.opp && z->best == y->best);
        assert_memory_equal(z->value, y->value, sizeof y->value);
        for (int m = 0; m < nm; m++)
            assert_int_equal(y->value[mi[m].move], mi[m].value);
    }
    oxo_judge_free(by_three);
    oxo_player_close(svs[1]);
    oxo_player_close(svs[2]);
    oxo_judge_free(by_table);
    oxo_judge_free(by_solver);
    oxo_player_close(sv);
    oxo_train_config c = nt_config(1);
    oxo_trainer *t = oxo_trainer_new_on(&c, oxo_player_game(truth), truth, &fault);
    assert_non_null(t);
    oxo_trainer_set_judge(t, j);
    oxo_grade before, after;
    assert_int_equal(oxo_trainer_grade(t, &before), 0);
    oxo_trainer_run(t, 30000);
    assert_int_equal(oxo_trainer_grade(t, &after), 0);
    print_message(
        "value kept: %.3f untrained, %.3f after 30,000 games; vs perfect as X %u/%u/%u; vs random "
        "%u/%u/%u as X, %u/%u/%u as O\n",
        before.accuracy, after.accuracy, after.perfect_as_x[0], after.perfect_as_x[1],
        after.perfect_as_x[2], after.random_as_x[0], after.random_as_x[1], after.random_as_x[2],
        after.random_as_o[0], after.random_as_o[1], after.random_as_o[2]);
    assert_true(after.judged && after.perfect_games == OXO_GRADE_PERFECT_GAMES);
    /* The set holds only positions where moves differ in value: chance keeps few of them. */
    assert_true(before.accuracy < 0.3);
    assert_true(after.accuracy > before.accuracy + 0.4);
    assert_true(after.accuracy > 0.7);
    /* against random play it loses few games with either colour, and as O wins most (untrained:
     * 402/393/205 wins, draws and losses as X, 334/409/257 as O; connect4:4,4 is a draw, and as X
     * the trained network wins 367 and draws 623) */
    print_message("untrained vs random %u/%u/%u as X, %u/%u/%u as O\n", before.random_as_x[0],
                  before.random_as_x[1], before.random_as_x[2], before.random_as_o[0],
                  before.random_as_o[1], before.random_as_o[2]);
    assert_true(after.random_as_x[2] < 30 && after.random_as_o[2] < 30);
    assert_true(after.random_as_x[0] > 300 && after.random_as_o[0] > 600);

    /* The model reads back and plays what the trainer's network plays. */
    oxo_model *m = oxo_trainer_model(t, &after, NULL);
    uint8_t *body;
    size_t len;
    oxo_error e;
    assert_int_equal(oxo_model_encode_body(m, &body, &len, &e), OXO_OK);
    oxo_model *back;
    assert_int_equal(oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &e), OXO_OK);
    assert_string_equal(back->algo, "ntuple");
    oxo_player *mp = oxo_player_from_model(back, &e), *tp = oxo_trainer_player(t);
    assert_non_null(mp);
    for (uint32_t i = 0; i < j->n; i++) {
        oxo_move_info a[OXO_MAX_MOVES], b[OXO_MAX_MOVES];
        int na = oxo_player_moves(mp, j->pos[i].pos, a),
            nb = oxo_player_moves(tp, j->pos[i].pos, b);
        assert_int_equal(na, nb);
        for (int k = 0; k < na; k++)
            assert_true(a[k].move == b[k].move && a[k].score == b[k].score);
    }
    oxo_player_close(mp);
    oxo_player_close(tp);
    assert_int_equal(m->nt_defend, 1); /* the default with gravity */
    /* The keys cut below are those of older minors, which knew no defence: from here the model is
     * encoded as one that did not defend, whose map holds no "defend" key. */
    m->nt_defend = 0;
    /* In a file of minor 3 (every filling), a weight at a filling no board has is refused by the
     * player and by --resume, named: all the cells of a tuple that holds a bottom cell empty and
     * unplayable (index 0 of its block). */
    assert_int_equal(oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &e), OXO_OK);
    uint32_t bt = 0;
    for (int found = 0; !found; bt += !found) {
        assert_true(bt < back->nt_count);
        for (uint32_t i = 0; i < back->nt_len; i++)
            found |= back->nt_cells[bt * back->nt_len + i] >= 12; /* the bottom row of 4x4 */
    }
    back->minor = 3;
    back->nvalues = oxo_ntuple_weights_of(back);
    free(back->values);
    assert_non_null(back->values = calloc(back->nvalues, sizeof *back->values));
    back->values[bt * (back->nvalues / back->nt_sets / back->nt_count)] = 0.5f;
    /* --resume */
    assert_null(oxo_trainer_resume_on(back, oxo_player_game(truth), truth, NULL, &fault));
    assert_non_null(strstr(fault.msg, "no board has"));
    assert_null(oxo_player_from_model(back, &e));
    assert_non_null(strstr(e.msg, "no board has"));

    /* The reader refuses tuples that do not fit: a cell off the board, a cell twice, weights
     * that do not match the tuples. */
    const uint8_t first = m->nt_cells[0];
    m->nt_cells[0] = 16;
    refused_when_encoded(m, &body, &len, "beyond the 4x4 board");
    m->nt_cells[0] = m->nt_cells[1];
    refused_when_encoded(m, &body, &len, "twice");
    m->nt_cells[0] = first;
    m->nt_len = 5; /* the cells no longer make whole tuples */
    refused_when_encoded(m, &body, &len, NULL);
    m->nt_len = 6;
    /* Connect-4 learns with a set a player: read as one set, the weights are twice too many; three
     * sets are not a thing. */
    assert_int_equal(m->nt_sets, 2);
    m->nt_sets = 1;
    refused_when_encoded(m, &body, &len, "1 weight set)");
    m->nt_sets = 3;
    refused_when_encoded(m, &body, &len, "\"sets\"");
    /* The exploring depth goes up to 64 moves and comes back as written. */
    m->nt_sets = 2;
    m->nt_start_depth = 65;
    refused_when_encoded(m, &body, &len, "exploring_depth");
    m->nt_start_depth = 12;
    free(body);
    assert_int_equal(oxo_model_encode_body(m, &body, &len, &e), OXO_OK);
    assert_int_equal(oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &e), OXO_OK);
    assert_int_equal(back->nt_start_depth, 12);
    /* Connect-4 learns toward the same player's next afterstate by default; the target comes back
     * as written, and a target the reader does not know is refused. */
    assert_int_equal(back->nt_target, OXO_NT_TARGET_OWN);
    oxo_model_free(back);
    /* Read as minor 3, this body's weights (the network's layout) are too few: a file of minor 3
     * holds every filling. The older minors below get such a body: the same model, its weights
     * in the layout of every filling (zeros: only their number is read here). */
    assert_int_not_equal(oxo_model_decode_body(body, len, 3, &back, &e), OXO_OK);
    assert_non_null(strstr(e.msg, "values, expected"));
    {
        oxo_model old = *m;
        old.minor = 3;
        const uint32_t nfull = oxo_ntuple_weights_of(&old);
        assert_true(nfull > m->nvalues);
        free(m->values);
        assert_non_null(m->values = calloc(nfull, sizeof *m->values));
        m->nvalues = nfull;
        m->minor = 3;
        free(body);
        assert_int_equal(oxo_model_encode_body(m, &body, &len, &e), OXO_OK);
        assert_int_equal(oxo_model_decode_body(body, len, 3, &back, &e), OXO_OK);
        oxo_model_free(back);
    }
    static const uint8_t tkey[] = {0xa6, 't', 'a', 'r', 'g', 'e', 't', 0xa3, 'o', 'w', 'n'},
                         map8[] = {0x88, 0xa5, 'c', 'o', 'u', 'n', 't'};
    uint8_t *at = memmem(body, len, tkey, sizeof tkey), *map = memmem(body, len, map8, sizeof map8);
    assert_non_null(at);
    assert_non_null(map); /* the ntuple map's header, before every key cut below */
    at[sizeof tkey - 1] = 'l';
    assert_int_not_equal(oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &e), OXO_OK);
    assert_non_null(strstr(e.msg, "ntuple target 'owl'"));
    at[sizeof tkey - 1] = 'n';
    /* A file of model minor 2 has no "target" key: it learned toward the next afterstate. Each key
     * cut out leaves the map one pair fewer. */
    cut_key(body, &len, tkey, sizeof tkey);
    *map = 0x87;
    assert_int_equal(oxo_model_decode_body(body, len, 2, &back, &e), OXO_OK);
    assert_int_equal(back->nt_target, OXO_NT_TARGET_NEXT);
    oxo_model_free(back);
    /* A file of model minor 1 has no "exploring_depth" key either: its exploring starts went
     * anywhere (0). */
    static const uint8_t dkey[] = {0xaf, 'e', 'x', 'p', 'l', 'o', 'r', 'i', 'n',
                                   'g',  '_', 'd', 'e', 'p', 't', 'h', 0x0c};
    cut_key(body, &len, dkey, sizeof dkey);
    *map = 0x86;
    assert_int_equal(oxo_model_decode_body(body, len, 1, &back, &e), OXO_OK);
    assert_int_equal(back->nt_start_depth, 0);
    oxo_model_free(back);
    /* A file of model minor 0 has no "sets" key either: one set. The two-set body with that key
     * cut out too is read as one set, and refused for its weights. */
    static const uint8_t key[] = {0xa4, 's', 'e', 't', 's', 0x02};
    cut_key(body, &len, key, sizeof key);
    *map = 0x85;
    assert_int_not_equal(oxo_model_decode_body(body, len, 0, &back, &e), OXO_OK);
    assert_non_null(strstr(e.msg, "1 weight set)"));
    free(body);
    oxo_model_free(m);
    oxo_trainer_free(t);
    oxo_judge_free(j);
    oxo_player_close(truth);
    oxo_game_free(g);
}

/* The target of the opponent's next afterstate (the default on m,n,k boards) learns Connect-4 4x4
 * as well, into other weights than the default target. */
static void next_target_learns_too(void **state)
{
    (void)state;
    char h[2][17];
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault);
    oxo_player *truth = solved(g);
    oxo_judge *j = oxo_judge_from_truth(truth, 1000, 0, OXO_JUDGE_SEED, &fault);
    assert_non_null(j);
    for (uint32_t target = OXO_NT_TARGET_NEXT; target <= OXO_NT_TARGET_OWN; target++) {
        oxo_train_config c = nt_config(1);
        c.nt_target = target;
        oxo_trainer *t = oxo_trainer_new_on(&c, oxo_player_game(truth), truth, &fault);
        assert_non_null(t);
        assert_int_equal(oxo_trainer_config(t)->nt_target, target);
        oxo_trainer_set_judge(t, j);
        oxo_trainer_run(t, 30000);
        oxo_grade gr;
        assert_int_equal(oxo_trainer_grade_mean(t, 0, &gr), 0);
        print_message("target %s: value kept %.3f after 30,000 games\n",
                      target == OXO_NT_TARGET_OWN ? "own" : "next", gr.accuracy);
        assert_true(gr.accuracy > 0.7);
        oxo_model *m = oxo_trainer_model(t, &gr, NULL);
        assert_int_equal(m->nt_target, target);
        oxo_model_hash(m, h[target - 1]);
        oxo_model_free(m);
        oxo_trainer_free(t);
    }
    assert_string_not_equal(h[0], h[1]);
    oxo_judge_free(j);
    oxo_player_close(truth);
    oxo_game_free(g);
}

/* The model depends on the workers, never on the threads that play them. */
static void threads_do_not_change_the_model(void **state)
{
    (void)state;
    char h[2][17];
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:5,4", &fault);
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        oxo_train_config c = nt_config(2);
        oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
        assert_non_null(t);
        oxo_trainer_run(t, 6000);
        oxo_grade gr = {0};
        oxo_model *m = oxo_trainer_model(t, &gr, NULL);
        oxo_model_hash(m, h[threads - 1]);
        oxo_model_free(m);
        oxo_trainer_free(t);
    }
    assert_string_equal(h[0], h[1]);
    oxo_game_free(g);
}

/* Replay of whole games: the rings go with the model, a resumed run continues them, and rings that
 * hold anything but games of the model's game, played to their end, are refused: by the reader
 * when an item is out of range, by the trainer when a move breaks the rules. */
static void replay_rings_are_games(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:5,4", &fault);
    oxo_train_config c = nt_config(2);
    c.replay_capacity = 300;
    c.replay_ratio = 1;
    c.starts = 0.3;
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    assert_non_null(t);
    oxo_trainer_run(t, 1000);
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    assert_non_null(m);
    assert_int_equal(m->nrings, 2);
    assert_int_equal(m->rings[0].count, 300);
    oxo_trainer *r = oxo_trainer_resume_on(m, g, NULL, NULL, &fault);
    if (!r)
        fail_msg("a model with replay rings does not resume: %s", fault.msg);
    oxo_trainer_free(r);
    /* Through the writer's encoding and the reader. */
    oxo_model_free(reread(m));
    uint8_t *body;
    size_t len;
    oxo_error err;
    oxo_model *back;
    /* A move past the board's cells: the reader. */
    const uint32_t rec = m->replay_record;
    uint32_t *item = &m->rings[1].items[5 * rec + 1], keep = *item;
    *item = 20;
    assert_int_equal(oxo_model_encode_body(m, &body, &len, &err), 0);
    assert_int_not_equal(oxo_model_decode_body(body, len, OXO_MODEL_MINOR, &back, &err), 0);
    assert_non_null(strstr(err.msg, "replay ring 1, record 5, item 1"));
    free(body);
    /* A column that is on the board but breaks the game (the same column six times on a board
     * four high): the trainer. */
    *item = keep;
    for (uint32_t j = 1; j < rec; j++)
        m->rings[0].items[7 * rec + j] = j <= 6 ? 2 : UINT32_MAX;
    m->rings[0].items[7 * rec] = 0;
    assert_null(oxo_trainer_resume_on(m, g, NULL, NULL, &fault));
    assert_non_null(strstr(fault.msg, "replay ring 0 game 7 is not a game of connect4:5,4"));
    oxo_model_free(m);
    oxo_trainer_free(t);
    oxo_game_free(g);
}

/* The search phase: the move puct plays from the empty board has its afterstate learn toward the
 * search's value of it (puct has no random draw, so the phase's first search is this one), the
 * trainer records the phase, and a stopped phase leaves the weights as they were. */
static void search_phase_learns_from_the_search(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault);
    oxo_train_config c = nt_config(1);
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    assert_non_null(t);
    oxo_trainer_run(t, 3000);
    const oxo_ntuple *net = oxo_trainer_net(t);
    oxo_player *value = oxo_player_borrow_net(net);
    oxo_puct_move pm[OXO_MAX_MOVES];
    int n = 0;
    const oxo_pos start = oxo_start(g);
    const int move = oxo_puct_root(g, value, start, 50, OXO_PUCT_C, pm, &n);
    assert_true(move >= 0 && n == 4);
    double q = 0, visits = 0;
    for (int i = 0; i < n; i++) {
        visits += pm[i].visits;
        if (pm[i].move == move)
            q = pm[i].value;
    }
    assert_true(visits == 50);
    const float v0 = oxo_ntuple_value(net, oxo_play(g, start, move));
    assert_true(fabs(v0 - q) > 1e-3);
    /* Stopped before its first game: nothing changes, nothing is recorded. */
    const uint32_t nw = net->nweights;
    float *before = malloc(nw * sizeof *before);
    memcpy(before, oxo_trainer_values(t), nw * sizeof *before);
    volatile int stop = 1;
    oxo_trainer_set_stop(t, &stop);
    assert_int_equal(oxo_trainer_search(t, 1, 50, 0), 1);
    assert_memory_equal(before, oxo_trainer_values(t), nw * sizeof *before);
    assert_int_equal(oxo_trainer_searched(t, NULL, NULL), 0);
    stop = 0;
    assert_int_equal(oxo_trainer_search(t, 1, 50, 0), 0);
    const float v1 = oxo_ntuple_value(net, oxo_play(g, start, move));
    print_message("the search's move %d: %.4f, the network's %.4f before the phase, %.4f after\n",
                  move, q, v0, v1);
    assert_true(fabs(v1 - q) < fabs(v0 - q));
    uint32_t it = 0;
    double sa = 0;
    assert_int_equal(oxo_trainer_searched(t, &it, &sa), 1);
    assert_int_equal(it, 50);
    assert_float_equal(sa, oxo_schedule_at(&c.alpha, 3000), 1e-12); /* the run's alpha at its end */
    /* The record through the writer and the reader, and what the reader refuses of it. */
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    oxo_model *back = reread(m);
    assert_int_equal(back->nt_search_games, 1);
    assert_int_equal(back->nt_search_iterations, 50);
    oxo_model_free(back);
    uint8_t *body = NULL;
    size_t len;
    m->nt_search_iterations = 0;
    refused_when_encoded(m, &body, &len, "ntuple search: 1 games of 0 iterations");
    m->nt_search_iterations = 50;
    m->nt_search_alpha = 0;
    refused_when_encoded(m, &body, &len, "alpha 0; expected");
    m->nt_search_iterations = OXO_MAX_SEARCH_ITERATIONS + 1;
    refused_when_encoded(m, &body, &len, "iterations");
    free(body);
    oxo_model_free(m);
    oxo_trainer_run(t, 3500); /* learning on: the record goes */
    assert_int_equal(oxo_trainer_searched(t, NULL, NULL), 0);
    free(before);
    oxo_player_close(value);
    oxo_trainer_free(t);
    oxo_game_free(g);
}

/* A model saved in the middle of its averaging (m) plays the mean taken so far: every move's score
 * over the positions of random games is the one of the same model with that mean as its values and
 * no average, and the weights of the moment (the model with its average dropped) play otherwise. */
static void plays_the_mean(const oxo_game *g, const oxo_model *m)
{
    oxo_model *as_is = reread((oxo_model *)m), *mean = reread((oxo_model *)m),
              *now = reread((oxo_model *)m);
    memcpy(mean->values, mean->avg_values, 4 * (size_t)mean->nvalues);
    free(mean->avg_values);
    free(now->avg_values);
    mean->avg_values = now->avg_values = NULL;
    mean->avg_count = now->avg_count = 0;
    oxo_error e;
    oxo_player *pa = oxo_player_from_model(as_is, &e), *pm = oxo_player_from_model(mean, &e),
               *pn = oxo_player_from_model(now, &e);
    assert_non_null(pa);
    assert_non_null(pm);
    assert_non_null(pn);
    uint64_t rng = 11;
    int differ = 0, checked = 0;
    for (int game = 0; game < 30; game++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
            oxo_move_info ma[OXO_MAX_MOVES], mm[OXO_MAX_MOVES], mn[OXO_MAX_MOVES];
            const int n = oxo_player_moves(pa, p, ma);
            assert_int_equal(oxo_player_moves(pm, p, mm), n);
            assert_int_equal(oxo_player_moves(pn, p, mn), n);
            for (int i = 0; i < n; i++) {
                assert_int_equal(ma[i].move, mm[i].move);
                assert_true(ma[i].score == mm[i].score);
                differ += fabs(ma[i].score - mn[i].score) > 1e-4;
                checked++;
            }
            p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
        }
    assert_true(checked > 300);
    assert_true(differ > checked / 10); /* the mean is not the weights of the moment */
    oxo_player_close(pa);
    oxo_player_close(pm);
    oxo_player_close(pn);
}

/* Weight averaging: the network saved at the end is the mean of the weights at every multiple of
 * avg_every from avg_from on (checked against a mean the test keeps in double); a run saved
 * midway, through the writer and the reader, resumes to the same bytes as the run that never
 * stopped and plays the mean taken so far; and the reader refuses an average that does not fit its
 * model. */
static void averaging_takes_the_mean(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:5,4", &fault);
    oxo_train_config c = nt_config(2);
    c.avg_from = 3000;
    c.avg_every = 1000;
    /* The mean kept here, round by round, and the weights at the end before averaging. */
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    assert_non_null(t);
    const uint32_t n = oxo_trainer_net(t)->nweights;
    double *mean = calloc(n, sizeof *mean);
    float *last = malloc(n * sizeof *last);
    int taken = 0;
    for (uint64_t e = 500; e <= 6000; e += 500) {
        oxo_trainer_run(t, e);
        if (e >= 3000 && e % 1000 == 0) {
            taken++;
            for (uint32_t i = 0; i < n; i++)
                mean[i] += oxo_trainer_values(t)[i];
        }
    }
    memcpy(last, oxo_trainer_values(t), n * sizeof *last);
    assert_int_equal(oxo_trainer_average_finish(t), 4);
    assert_int_equal(taken, 4);
    uint32_t moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float v = oxo_trainer_values(t)[i];
        assert_true(fabs(v - mean[i] / taken) < 1e-6);
        moved += v != last[i];
    }
    assert_true(moved > n / 10);                        /* averaging changed the network */
    assert_int_equal(oxo_trainer_average_finish(t), 0); /* nothing more to average */
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    char straight[17];
    oxo_model_hash(m, straight);
    oxo_model_free(m);
    oxo_trainer_free(t);
    /* Saved at 4,500 episodes (two weights taken), written, read back, resumed to the end. */
    t = oxo_trainer_new_on(&c, g, NULL, &fault);
    oxo_trainer_run(t, 4500);
    m = oxo_trainer_model(t, &gr, NULL);
    assert_int_equal(m->avg_count, 2);
    oxo_model *back = reread(m);
    oxo_trainer *r = oxo_trainer_resume_on(back, g, NULL, NULL, &fault);
    if (!r)
        fail_msg("a model that averages does not resume: %s", fault.msg);
    oxo_trainer_run(r, 6000);
    assert_int_equal(oxo_trainer_average_finish(r), 4);
    oxo_model *rm = oxo_trainer_model(r, &gr, NULL);
    char resumed[17];
    oxo_model_hash(rm, resumed);
    assert_string_equal(resumed, straight);
    oxo_model_free(rm);
    oxo_trainer_free(r);
    oxo_model_free(back);
    plays_the_mean(g, m);
    /* What the reader refuses: more weights taken than the episodes allow, an interval that is no
     * multiple of the rounds. */
    uint8_t *body = NULL;
    size_t len;
    m->avg_count = 3;
    refused_when_encoded(m, &body, &len, "average count 3, but 4500 episodes give at most 2");
    m->avg_count = 2;
    m->avg_every = 700;
    refused_when_encoded(m, &body, &len,
                         "average every 700 episodes, expected a multiple of sync (500)");
    free(body);
    oxo_model_free(m);
    oxo_trainer_free(t);
    free(mean);
    free(last);
    /* The trainer refuses an interval that is no multiple of its rounds. */
    c.avg_every = 700;
    assert_null(oxo_trainer_new_on(&c, g, NULL, &fault));
    assert_non_null(strstr(fault.msg, "the interval must be a multiple of sync (500)"));
    oxo_game_free(g);
}

/* The opponent's best reply to move m of p as the defence ranks replies, worked out here from
 * each reply's afterstate in full (oxo_ntuple_active, oxo_ntuple_sum) or its result (a win above
 * every sum, a draw 0), not from the changed slots as the defence does. */
static float best_reply(const oxo_ntuple *n, oxo_pos p, int m)
{
    const oxo_game *g = n->g;
    const oxo_pos q = oxo_play(g, p, m);
    uint32_t idx[OXO_NTUPLE_MAX_COUNT * OXO_MAX_SYM];
    float top = -INFINITY;
    for (uint64_t legal = oxo_legal(g, q); legal; legal &= legal - 1) {
        const oxo_pos r = oxo_play(g, q, __builtin_ctzll(legal));
        const oxo_status st = oxo_status_of(g, r);
        float v = st == OXO_OVER_LOSS ? INFINITY : 0.0f;
        if (st == OXO_ONGOING) {
            oxo_ntuple_active(n, r, idx);
            v = oxo_ntuple_sum(n, idx);
        }
        top = v > top ? v : top;
    }
    return top;
}

/* --defend: the defence is the move whose best reply is worth least (the lowest such move), on
 * every position of random games of a random network, and none where every move ends the game;
 * a run that defends learns another network, the same on one thread or two, saved midway and
 * resumed to the same bytes (the setting goes with the file; a file without the key does not
 * defend). */
static void defence_resists(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:5,4", &fault);
    oxo_ntuple *n = random_net_sets(g, 20, 6, 2, 3);
    uint64_t rng = oxo_rng_stream(21, 0);
    int positions = 0, ends = 0, lost = 0;
    oxo_ntuple_walk walk;
    assert_int_equal(oxo_ntuple_walk_init(n, &walk), 0);
    for (int game = 0; game < 50; game++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
            if (oxo_ply(p) == 0)
                oxo_ntuple_walk_start(n, &walk, p);
            const int d = oxo_ntuple_least_reply(n, p);
            assert_int_equal(oxo_ntuple_walk_least_reply(n, &walk, p), d); /* the trainer's */
            int open = 0;
            for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                const int m = __builtin_ctzll(legal);
                if (oxo_status_of(g, oxo_play(g, p, m)) != OXO_ONGOING)
                    continue;
                open++;
                assert_true(d >= 0);
                /* The sums here and the defence's differ by the order of their additions. */
                const float mine = best_reply(n, p, d), other = best_reply(n, p, m);
                assert_true(mine <= other + 1e-4f * (1 + fabsf(other)));
                if (mine == INFINITY) /* every move lets the opponent win at once */
                    assert_true(other == INFINITY && d <= m);
                else
                    lost += other == INFINITY;
            }
            if (!open) {
                assert_int_equal(d, -1);
                ends++;
            }
            positions++;
            const int m = oxo_rng_bit(&rng, oxo_legal(g, p));
            oxo_ntuple_walk_play(n, &walk, p, m);
            p = oxo_play(g, p, m);
        }
    oxo_ntuple_walk_free(&walk);
    assert_true(positions > 500);
    assert_true(ends > 0); /* the last empty cell of a full board */
    assert_true(lost > 0); /* moves that let the opponent win, passed over */
    oxo_ntuple_free(n);
    /* The trainer: another network than without; threads do not change it; resumed exactly. By
     * default it defends with gravity (Connect-4), not on m,n,k boards. */
    char plain[17], dflt[17], h[2][17];
    oxo_grade gr = {0};
    oxo_train_config c = nt_config(2);
    assert_int_equal(c.nt_defend, -1);
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    oxo_trainer_run(t, 4000);
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    oxo_model_hash(m, dflt);
    assert_int_equal(m->nt_defend, 1);
    oxo_model_free(m);
    oxo_trainer_free(t);
    c.nt_defend = 0;
    t = oxo_trainer_new_on(&c, g, NULL, &fault);
    oxo_trainer_run(t, 4000);
    m = oxo_trainer_model(t, &gr, NULL);
    oxo_model_hash(m, plain);
    assert_int_equal(m->nt_defend, 0);
    oxo_model_free(m);
    oxo_trainer_free(t);
    {
        oxo_game *mnk = oxo_game_open("mnk:4,4,4", &fault);
        assert_int_equal(oxo_train_defend(mnk), 0);
        assert_int_equal(oxo_train_defend(g), 1);
        oxo_game_free(mnk);
    }
    c.nt_defend = 1;
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        t = oxo_trainer_new_on(&c, g, NULL, &fault);
        assert_non_null(t);
        oxo_trainer_run(t, 4000);
        m = oxo_trainer_model(t, &gr, NULL);
        oxo_model_hash(m, h[threads - 1]);
        oxo_model_free(m);
        oxo_trainer_free(t);
    }
    assert_string_equal(h[0], h[1]);
    assert_string_not_equal(h[0], plain);
    assert_string_equal(h[0], dflt);
    t = oxo_trainer_new_on(&c, g, NULL, &fault);
    oxo_trainer_run(t, 2000);
    m = oxo_trainer_model(t, &gr, NULL);
    oxo_model *back = reread(m);
    assert_int_equal(back->nt_defend, 1);
    oxo_trainer *r = oxo_trainer_resume_on(back, g, NULL, NULL, &fault);
    if (!r)
        fail_msg("a model that defends does not resume: %s", fault.msg);
    oxo_trainer_run(r, 4000);
    oxo_model *rm = oxo_trainer_model(r, &gr, NULL);
    char resumed[17];
    oxo_model_hash(rm, resumed);
    assert_string_equal(resumed, h[0]);
    oxo_model_free(rm);
    oxo_trainer_free(r);
    oxo_model_free(back);
    /* Without the key (a file of minor 5 and before), the network did not defend. */
    uint8_t *body;
    size_t len;
    oxo_error e;
    assert_int_equal(oxo_model_encode_body(m, &body, &len, &e), OXO_OK);
    static const uint8_t kv[] = {0xa6, 'd', 'e', 'f', 'e', 'n', 'd', 0xc3};
    cut_key(body, &len, kv, sizeof kv);
    uint8_t *map = memmem(body, len, "\xa6ntuple\x89", 8); /* the ntuple map held 9 keys */
    assert_non_null(map);
    map[7] = 0x88;
    assert_int_equal(oxo_model_decode_body(body, len, 5, &back, &e), OXO_OK);
    assert_int_equal(back->nt_defend, 0);
    oxo_model_free(back);
    free(body);
    oxo_model_free(m);
    oxo_trainer_free(t);
    oxo_game_free(g);
}

/* The bound on a network's size is on the weights it holds: on 7x6, 70 tuples of 10 cells hold
 * far fewer than the 2^24 allowed though their every filling is beyond it, and train, write and
 * read back (the reader bounds the layout the file has); 11 cells are beyond it, and so are 1,024
 * tuples of 9 cells on tic-tac-toe (every filling, there being no gravity). */
static void bound_is_on_the_weights_held(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault), *ttt = oxo_game_open("tictactoe", &fault);
    oxo_train_config c = nt_config(1);
    c.nt_count = 70;
    c.nt_len = 10;
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    if (!t)
        fail_msg("70 tuples of 10 cells refused: %s", fault.msg);
    const oxo_ntuple *n = oxo_trainer_net(t);
    assert_true(n->nweights <= OXO_NTUPLE_MAX_WEIGHTS);
    assert_true(70ull * 2 * (1u << 20) > OXO_NTUPLE_MAX_WEIGHTS); /* every filling: 4^10 a tuple */
    assert_int_equal(n->nfull, 0);
    oxo_trainer_run(t, 200);
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    assert_int_equal(m->nvalues, n->nweights);
    assert_int_equal(oxo_ntuple_weights_of(m), n->nweights);
    oxo_model *back = reread(m);
    assert_int_equal(back->nvalues, m->nvalues);
    assert_string_equal(back->hash, m->hash);
    /* The same tuples in the layout of every filling (a file of minor 3) are beyond the bound. */
    back->minor = 3;
    assert_int_equal(oxo_ntuple_weights_of(back), 0);
    oxo_model_free(back);
    oxo_model_free(m);
    oxo_trainer_free(t);
    c.nt_len = 11;
    assert_null(oxo_trainer_new_on(&c, g, NULL, &fault));
    assert_non_null(strstr(fault.msg, "more than the 16777216 allowed"));
    uint8_t cells[1024 * 9];
    for (int i = 0; i < 1024 * 9; i++)
        cells[i] = (uint8_t)(i % 9);
    assert_null(oxo_ntuple_new(ttt, 1024, 9, 1, cells, NULL, &fault));
    assert_non_null(strstr(fault.msg, "20155392 weights"));
    /* 15,746,400 */
    oxo_ntuple *small = oxo_ntuple_new(ttt, 800, 9, 1, cells, NULL, &fault);
    assert_non_null(small);
    assert_int_equal(small->nweights, small->nfull);
    oxo_ntuple_free(small);
    oxo_game_free(ttt);
    oxo_game_free(g);
}

/* A network of g trained briefly with seed, written to path. */
static void small_network(const oxo_game *g, uint64_t seed, const char *path)
{
    oxo_error fault;
    oxo_train_config c = nt_config(1);
    c.seed = seed;
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &fault);
    assert_non_null(t);
    oxo_trainer_run(t, 2000);
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    assert_non_null(m);
    oxo_error e;
    assert_int_equal(oxo_model_write(path, m, &e), OXO_OK);
    oxo_model_free(m);
    oxo_trainer_free(t);
}

/* Networks joined by '+' (oxo_player_open_joined): each move's score is the mean of the members'
 * scores, on every position of random games; a path that names a file is opened whole; what cannot
 * join is refused, naming the member. */
static void ensembles_average_their_networks(void **state)
{
    (void)state;
    char a[64], b[64], c5[64], plus[64], spec[700];
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault),
             *g5 = oxo_game_open("connect4:5,4", &fault);
    const int pid = (int)getpid();
    snprintf(a, sizeof a, "/tmp/oxo-test-ens-a-%d.oxm", pid);
    snprintf(b, sizeof b, "/tmp/oxo-test-ens-b-%d.oxm", pid);
    snprintf(c5, sizeof c5, "/tmp/oxo-test-ens-c-%d.oxm", pid);
    snprintf(plus, sizeof plus, "/tmp/oxo-test-ens-a+b-%d.oxm", pid);
    small_network(g, 1, a);
    small_network(g, 2, b);
    small_network(g5, 1, c5);
    oxo_error e;
    oxo_player *pa = oxo_player_open(a, &e), *pb = oxo_player_open(b, &e);
    snprintf(spec, sizeof spec, "%s+%s", a, b);
    oxo_player *pj = oxo_player_open_joined(spec, &e);
    assert_non_null(pa);
    assert_non_null(pb);
    if (!pj)
        fail_msg("%s: %s", spec, e.msg);
    assert_int_equal(oxo_player_members(pj), 2);
    uint64_t rng = 7;
    int differ = 0, checked = 0;
    for (int game = 0; game < 40; game++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;) {
            oxo_move_info ma[OXO_MAX_MOVES], mb[OXO_MAX_MOVES], mj[OXO_MAX_MOVES];
            int n = oxo_player_moves(pa, p, ma);
            assert_int_equal(oxo_player_moves(pb, p, mb), n);
            assert_int_equal(oxo_player_moves(pj, p, mj), n);
            for (int i = 0; i < n; i++) {
                assert_int_equal(mj[i].move, ma[i].move);
                assert_float_equal(mj[i].score, (ma[i].score + mb[i].score) / 2, 1e-6);
                differ += fabs(mj[i].score - ma[i].score) > 1e-3;
                checked++;
            }
            p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
        }
    assert_true(checked > 300);
    assert_true(differ > checked / 10); /* the second network counts */
    oxo_player_close(pj);
    /* A path holding '+' that names a file: that file alone. */
    assert_int_equal(rename(a, plus), 0);
    pj = oxo_player_open_joined(plus, &e);
    assert_non_null(pj);
    assert_int_equal(oxo_player_members(pj), 1);
    oxo_player_close(pj);
    assert_int_equal(rename(plus, a), 0);
    /* Refused, naming what: another game, a missing member, an empty name, a table, nine
     * networks. */
    snprintf(spec, sizeof spec, "%s+%s", a, c5);
    assert_null(oxo_player_open_joined(spec, &e));
    assert_int_equal(e.code, OXO_E_GAME);
    if (!strstr(e.msg, "is a network of") || !strstr(e.msg, "the first of"))
        fail_msg("%s", e.msg);
    snprintf(spec, sizeof spec, "%s+%s.missing", a, b);
    assert_null(oxo_player_open_joined(spec, &e));
    assert_non_null(strstr(e.msg, ".missing: "));
    snprintf(spec, sizeof spec, "%s+", a);
    assert_null(oxo_player_open_joined(spec, &e));
    assert_non_null(strstr(e.msg, "network 2 of the ensemble has an empty name"));
    char tp[64];
    snprintf(tp, sizeof tp, "/tmp/oxo-test-ens-t-%d.oxt", pid);
    write_solved(g, tp);
    snprintf(spec, sizeof spec, "%s+%s", a, tp);
    assert_null(oxo_player_open_joined(spec, &e));
    assert_int_equal(e.code, OXO_E_KIND);
    assert_non_null(strstr(e.msg, "is not an n-tuple network"));
    remove(tp);
    snprintf(spec, sizeof spec, "%s+%s+%s+%s+%s+%s+%s+%s+%s", a, b, a, b, a, b, a, b, a);
    assert_null(oxo_player_open_joined(spec, &e));
    assert_non_null(strstr(e.msg, "more than 8 networks"));
    snprintf(spec, sizeof spec, "%s+%s+%s+%s+%s+%s+%s+%s", a, b, a, b, a, b, a, b);
    pj = oxo_player_open_joined(spec, &e);
    assert_non_null(pj);
    assert_int_equal(oxo_player_members(pj), 8);
    oxo_player_close(pj);
    oxo_player_close(pa);
    oxo_player_close(pb);
    remove(a);
    remove(b);
    remove(c5);
    oxo_game_free(g);
    oxo_game_free(g5);
}

OXO_TEST_MAIN(cmocka_unit_test(walk_matches_cells), cmocka_unit_test(layouts_agree),
              cmocka_unit_test(value_is_symmetric), cmocka_unit_test(twins_tie),
              cmocka_unit_test(tanh_is_correctly_rounded),
              cmocka_unit_test(random_walks_are_connected), cmocka_unit_test(learns_connect4_4x4),
              cmocka_unit_test(next_target_learns_too),
              cmocka_unit_test(threads_do_not_change_the_model),
              cmocka_unit_test(replay_rings_are_games),
              cmocka_unit_test(ensembles_average_their_networks),
              cmocka_unit_test(search_phase_learns_from_the_search),
              cmocka_unit_test(averaging_takes_the_mean),
              cmocka_unit_test(bound_is_on_the_weights_held), cmocka_unit_test(defence_resists))
