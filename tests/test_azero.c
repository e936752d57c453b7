/*
 * AlphaZero-lite (lookup/azero.c, train/learners/azero.c, azero_net.c): a network computes by
 * hand what FORMAT.md states, with the cells alone and with the lines' patterns; the batched
 * gradient agrees with finite differences, through OpenBLAS and through the plain loops, and the
 * two forward passes agree; the PUCT search takes a win and blocks a loss with a network that knows
 * nothing; a run is the same bytes on 1, 2 and 3 threads and resumed from its file as straight; the
 * model file plays through the player as in the trainer and is refused when altered; a run learns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "azero.h"
#include "learners/azero_net.h"
#include "rng.h"
#include "train.h"
#include "train_util.h"

static oxo_player *truth;

static int setup(void **state)
{
    (void)state;
    oxo_error err;
    oxo_table *t;
    if (oxo_table_read(OXO_DATA "/tictactoe.oxt", &t, &err))
        return -1;
    truth = oxo_player_from_table(t, &err);
    return truth ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    oxo_player_close(truth);
    return 0;
}

/* X at cells 0 and 4, O at 8: the side to move is O. */
static oxo_pos some_position(const oxo_game *g)
{
    oxo_pos p = oxo_start(g);
    p = oxo_play(g, p, 0);
    p = oxo_play(g, p, 8);
    return oxo_play(g, p, 4);
}

static float *random_weights(uint64_t n, uint64_t seed, double scale)
{
    float *w = malloc(n * sizeof *w);
    uint64_t rng = seed;
    for (uint64_t i = 0; i < n; i++)
        w[i] = (float)((oxo_rng_unit(&rng) * 2 - 1) * scale);
    return w;
}

/* One hidden layer of 2 units on tic-tac-toe, computed in double from the stated layout. */
static void forward_by_hand(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    const uint32_t width[] = {2};
    oxo_az_net n;
    oxo_error err;
    assert_int_equal(oxo_az_shape_of(&n.s, g, width, 1, 0, &err), 0);
    assert_int_equal(oxo_az_params(&n.s), 2 * 19 + 9 * 3 + 3);
    float *w = random_weights(oxo_az_params(&n.s), 5, 1.0);
    n.w = w;
    const oxo_pos p = some_position(g);
    /* inputs: O to move, so its stone (cell 8) is "mine", X's (0, 4) "theirs" */
    double x[18] = {0};
    x[8] = 1, x[9 + 0] = 1, x[9 + 4] = 1;
    double h[2];
    for (int j = 0; j < 2; j++) {
        double s = w[2 * 18 + j];
        for (int i = 0; i < 18; i++)
            s += w[j * 18 + i] * x[i];
        h[j] = s > 0 ? s : 0;
    }
    const float *wp = w + 2 * 19, *wv = wp + 9 * 3;
    float logits[OXO_MAX_MOVES];
    const float v = oxo_az_forward(&n, g, p, logits);
    for (int m = 0; m < 9; m++)
        assert_float_equal(logits[m], wp[m * 2] * h[0] + wp[m * 2 + 1] * h[1] + wp[18 + m], 1e-5);
    assert_float_equal(v, tanh(wv[0] * h[0] + wv[1] * h[1] + wv[2]), 1e-6);
    /* the softmax over the legal moves only, and the bare policy's move its highest logit */
    float prior[OXO_MAX_MOVES];
    const uint64_t legal = oxo_legal(g, p);
    oxo_az_softmax(9, legal, logits, prior);
    double sum = 0;
    int best = -1;
    for (int m = 0; m < 9; m++) {
        if (!(legal >> m & 1))
            assert_float_equal(prior[m], 0, 0);
        else if (best < 0 || logits[m] > logits[best])
            best = m;
        sum += prior[m];
    }
    assert_float_equal(sum, 1, 1e-6);
    assert_int_equal(oxo_az_pick(&n, g, p), best);
    free(w);
}

/* With lines: one hidden layer of 2 units on tic-tac-toe, the inputs worked out here from the
 * line's cells, the first layer a row an input (FORMAT.md). */
static void forward_with_lines_by_hand(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    const uint32_t width[] = {2};
    oxo_az_net n;
    oxo_error err;
    assert_int_equal(oxo_az_shape_of(&n.s, g, width, 1, 1, &err), 0);
    const int I = 18 + 8 * 15; /* a line of 3: empty, 7 fillings by mine, 7 by theirs */
    assert_int_equal(n.s.inputs, I);
    assert_int_equal(oxo_az_params(&n.s), 2 * (I + 1) + 9 * 3 + 3);
    float *w = random_weights(oxo_az_params(&n.s), 5, 1.0);
    n.w = w;
    const oxo_pos p = some_position(g); /* O to move: mine {8}, theirs {0, 4} */
    double x[18 + 8 * 15] = {0};
    x[8] = 1, x[9 + 0] = 1, x[9 + 4] = 1;
    uint64_t lines[OXO_MAX_LINES];
    assert_int_equal(oxo_cell_lines(g, lines), 8);
    int dead = 0;
    for (int l = 0; l < 8; l++) {
        int mine = 0, theirs = 0, j = 0;
        for (int c = 0; c < 9; c++)
            if (lines[l] >> c & 1) {
                mine |= (c == 8) << j;
                theirs |= (c == 0 || c == 4) << j;
                j++;
            }
        if (mine && theirs)
            dead++;
        else
            x[18 + 15 * l + (mine ? mine : theirs ? 7 + theirs : 0)] = 1;
    }
    assert_int_equal(dead, 1); /* the diagonal 0, 4, 8 */
    double h[2];
    for (int j = 0; j < 2; j++) {
        double s = w[2 * I + j];
        for (int i = 0; i < I; i++)
            s += w[i * 2 + j] * x[i];
        h[j] = s > 0 ? s : 0;
    }
    const float *wp = w + 2 * (I + 1), *wv = wp + 9 * 3;
    float logits[OXO_MAX_MOVES];
    const float v = oxo_az_forward(&n, g, p, logits);
    for (int m = 0; m < 9; m++)
        assert_float_equal(logits[m], wp[m * 2] * h[0] + wp[m * 2 + 1] * h[1] + wp[18 + m], 1e-5);
    assert_float_equal(v, tanh(wv[0] * h[0] + wv[1] * h[1] + wv[2]), 1e-6);
    /* lines of more than 8 cells are refused, with the game named */
    oxo_game *big = oxo_game_open("mnk:9,1,9", &err);
    assert_non_null(big);
    oxo_az_shape s;
    assert_int_not_equal(oxo_az_shape_of(&s, big, width, 1, 1, &err), 0);
    assert_non_null(strstr(err.msg, "mnk:9,1,9"));
    oxo_game_free(big);
    free(w);
}

/* With threats: along random games of connect4:5,4 and tic-tac-toe, the inputs after the lines'
 * patterns are the threats worked out here from the board alone: for each side, the empty cells
 * that complete a line whose other cells are all that side's, split by whether a move fills them
 * now (the lowest empty cell of a column with gravity, any empty cell without). */
static void threat_inputs_by_hand(void **state)
{
    (void)state;
    const char *specs[] = {"connect4:5,4", "tictactoe"};
    for (int gi = 0; gi < 2; gi++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[gi], &err);
        assert_non_null(g);
        const uint32_t width[] = {4};
        oxo_az_shape s;
        assert_int_equal(oxo_az_shape_of(&s, g, width, 1, OXO_AZ_THREATS, &err), 0);
        const int C = g->cells, W = g->cols, base = 2 * C + s.lines * ((2 << s.k) - 1);
        assert_int_equal(s.inputs, base + 4 * C);
        uint64_t lines[OXO_MAX_LINES];
        const int nl = oxo_cell_lines(g, lines);
        uint64_t rng = 21;
        int seen[4] = {0};
        oxo_pos p = oxo_start(g);
        for (int i = 0; i < 400; i++, p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
            if (oxo_status_of(g, p) != OXO_ONGOING)
                p = oxo_start(g);
            uint64_t xs, os;
            oxo_cells(g, p, &xs, &os);
            const uint64_t side[2] = {oxo_x_to_move(g, p) ? xs : os, oxo_x_to_move(g, p) ? os : xs};
            const uint64_t occ = xs | os;
            int want[4 * 64], nw = 0;
            for (int q = 0; q < 4; q++)
                for (int c = 0; c < C; c++) {
                    if (occ >> c & 1)
                        continue;
                    /* with gravity, cell r * W + c is filled now when it is on the bottom row
                     * or the cell below it is taken */
                    const int now = !g->gravity || c + W >= C || (occ >> (c + W) & 1);
                    int threat = 0;
                    for (int l = 0; l < nl; l++)
                        threat |= (lines[l] >> c & 1) &&
                                  (lines[l] & ~((uint64_t)1 << c) & ~side[q / 2]) == 0;
                    if (threat && now == !(q & 1))
                        want[nw++] = base + q * C + c, seen[q]++;
                }
            int act[4 * 64 + 64 * 4 + 64], na = oxo_az_active(&s, g, p, act), first = 0;
            while (first < na && act[first] < base)
                first++;
            assert_int_equal(na - first, nw);
            for (int j = 0; j < nw; j++)
                assert_int_equal(act[first + j], want[j]);
        }
        /* the walk met threats of both sides, and with gravity some not yet playable */
        assert_true(seen[0] > 0 && seen[2] > 0);
        if (gi == 0)
            assert_true(seen[1] > 0 && seen[3] > 0);
        oxo_game_free(g);
    }
}

/* The loss of a batch (its mean) at weights w. */
static double batch_loss(az_batch *b, const float *w, int n, const float *pi, const float *z,
                         const uint64_t *legal, float *scratch, size_t np)
{
    memset(scratch, 0, np * sizeof *scratch);
    az_forward(b, w, n);
    return az_backward(b, w, n, pi, z, legal, scratch);
}

static void gradient_matches(int blas, int lines)
{
    az_use_blas(blas);
    const oxo_game *g = oxo_tictactoe();
    const uint32_t width[] = {6, 5};
    oxo_az_shape s;
    oxo_error err;
    assert_int_equal(oxo_az_shape_of(&s, g, width, 2, lines, &err), 0);
    const size_t np = (size_t)oxo_az_params(&s);
    float *w = random_weights(np, 11, 0.5), *grad = calloc(np, sizeof *grad),
          *scratch = calloc(np, sizeof *scratch);
    az_batch b;
    assert_int_equal(az_batch_new(&b, &s, 3), 0);
    float pi[3 * 9] = {0}, z[3] = {1, -1, 0};
    uint64_t legal[3], rng = 3;
    oxo_pos p = oxo_start(g);
    for (int i = 0; i < 3; i++) {
        az_batch_set(&b, i, g, p);
        legal[i] = oxo_legal(g, p);
        double sum = 0;
        for (int m = 0; m < 9; m++)
            if (legal[i] >> m & 1)
                sum += pi[i * 9 + m] = (float)(oxo_rng_unit(&rng) + 0.1);
        for (int m = 0; m < 9; m++)
            pi[i * 9 + m] = (float)(pi[i * 9 + m] / sum);
        p = oxo_play(g, p, oxo_rng_bit(&rng, legal[i]));
    }
    az_forward(&b, w, 3);
    az_backward(&b, w, 3, pi, z, legal, grad);
    int checked = 0;
    for (size_t k = 0; k < np; k++) {
        const float keep = w[k], eps = 1e-2f;
        w[k] = keep + eps;
        const double up = batch_loss(&b, w, 3, pi, z, legal, scratch, np);
        w[k] = keep - eps;
        const double down = batch_loss(&b, w, 3, pi, z, legal, scratch, np);
        w[k] = keep;
        const double num = (up - down) / (2 * eps);
        if (fabs(num - grad[k]) > 2e-3 + 0.03 * fabs(grad[k]))
            fail_msg("%s%s: parameter %zu: gradient %g, finite differences %g",
                     blas ? "BLAS" : "loops", lines ? " with lines" : "", k, grad[k], num);
        checked += fabs(grad[k]) > 1e-3;
    }
    assert_true(checked > 40); /* the check saw real gradients (empty cells give none) */
    az_batch_free(&b);
    free(w), free(grad), free(scratch);
    az_use_blas(1);
}

static void gradient_by_finite_differences(void **state)
{
    (void)state;
    gradient_matches(0, 0);
    gradient_matches(1, 0);
    gradient_matches(0, OXO_AZ_LINES);
    gradient_matches(1, OXO_AZ_LINES);
    gradient_matches(0, OXO_AZ_THREATS);
    gradient_matches(1, OXO_AZ_THREATS);
}

/* OpenBLAS and the plain loops compute the same forward pass, to rounding, on positions along a
 * game of Connect-4, and so does the player's one-position pass; with lines the batches' first
 * layer is the trainer's own sums of the inputs' rows. */
static void passes_agree(int inputs)
{
    const int lines = inputs != OXO_AZ_CELLS;
    oxo_error err;
    oxo_game *g = oxo_game_open("connect4", &err);
    assert_non_null(g);
    const uint32_t width[] = {64, 64};
    oxo_az_shape s;
    assert_int_equal(oxo_az_shape_of(&s, g, width, 2, inputs, &err), 0);
    assert_int_equal(s.lines, lines ? 69 : 0);
    assert_int_equal(s.inputs, 84 + (lines ? 69 * 31 : 0) + (inputs == OXO_AZ_THREATS ? 168 : 0));
    float *w = random_weights(oxo_az_params(&s), 17, 0.3);
    az_batch a, b;
    assert_int_equal(az_batch_new(&a, &s, 12), 0);
    assert_int_equal(az_batch_new(&b, &s, 12), 0);
    uint64_t rng = 9;
    oxo_pos p = oxo_start(g), at[12];
    for (int i = 0; i < 12 && inputs == OXO_AZ_THREATS; i++) /* later positions: threats */
        p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
    for (int i = 0; i < 12; i++, p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
        if (oxo_status_of(g, p) != OXO_ONGOING) /* a new game where one ends */
            p = oxo_start(g);
        at[i] = p;
        az_batch_set(&a, i, g, p);
        az_batch_set(&b, i, g, p);
    }
    az_use_blas(1);
    az_forward(&a, w, 12);
    az_use_blas(0);
    az_forward(&b, w, 12);
    az_use_blas(1);
    oxo_az_net n = {s, w};
    int threats = 0; /* positions with a threat among their inputs */
    for (int i = 0; i < 12 && inputs == OXO_AZ_THREATS; i++) {
        int act[84 + 69 + 84];
        const int na = oxo_az_active(&s, g, at[i], act);
        threats += na > 0 && act[na - 1] >= 84 + 69 * 31;
    }
    assert_true(inputs != OXO_AZ_THREATS || threats > 0);
    for (int i = 0; i < 12; i++) {
        float logits[OXO_MAX_MOVES];
        assert_float_equal(a.value[i], b.value[i], 1e-5);
        assert_float_equal(oxo_az_forward(&n, g, at[i], logits), a.value[i], 1e-5);
        for (int m = 0; m < 7; m++) {
            assert_float_equal(a.logits[i * 7 + m], b.logits[i * 7 + m], 1e-4);
            assert_float_equal(logits[m], a.logits[i * 7 + m], 1e-4);
        }
    }
    az_batch_free(&a), az_batch_free(&b);
    free(w);
    oxo_game_free(g);
}

static void blas_and_loops_agree(void **state)
{
    (void)state;
    passes_agree(OXO_AZ_CELLS);
}

static void blas_and_loops_agree_with_lines(void **state)
{
    (void)state;
    passes_agree(OXO_AZ_LINES);
    passes_agree(OXO_AZ_THREATS);
}

/* With a network that knows nothing (every logit 0, every value 0), the search's results alone
 * find the win in one and the only block. */
static void search_wins_and_blocks(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    const uint32_t width[] = {4};
    oxo_az_net n;
    oxo_error err;
    assert_int_equal(oxo_az_shape_of(&n.s, g, width, 1, 0, &err), 0);
    float *w = calloc(oxo_az_params(&n.s), sizeof *w);
    n.w = w;
    oxo_az_tree *t = oxo_az_tree_new(g, 300);
    assert_non_null(t);
    /* X: 0, 1; O: 3, 4; X to move wins at 2 */
    oxo_pos p = oxo_start(g);
    const int line[] = {0, 3, 1, 4};
    for (int i = 0; i < 4; i++)
        p = oxo_play(g, p, line[i]);
    assert_int_equal(oxo_az_search(t, &n, g, p, 1.5), 2);
    /* X: 0, 1; O: 4; O to move must block at 2 */
    p = oxo_start(g);
    const int line2[] = {0, 4, 1};
    for (int i = 0; i < 3; i++)
        p = oxo_play(g, p, line2[i]);
    assert_int_equal(oxo_az_search(t, &n, g, p, 1.5), 2);
    float visits[OXO_MAX_MOVES];
    assert_float_equal(oxo_az_tree_visits(t, visits), 300, 0);
    oxo_az_tree_free(t);
    free(w);
}

/* The search values each position once, however many orders of the moves reach it: on
 * connect4:4,4 from the empty board, where two moves in two columns commute from the third ply,
 * no leaf it asks for is one it asked for before (a search over a tree asks again: tried), and
 * the simulations through a position reached again go on through it, so the root's visits are
 * still the simulations. */
static void search_values_a_position_once(void **state)
{
    (void)state;
    oxo_error err;
    oxo_game *g = oxo_game_open("connect4:4,4", &err);
    assert_non_null(g);
    enum { SIMS = 600 };
    oxo_az_tree *t = oxo_az_tree_new(g, SIMS);
    assert_non_null(t);
    oxo_az_tree_start(t, oxo_start(g), 1.5, NULL, 0);
    oxo_pos seen[SIMS + 1], leaf;
    int asked = 0;
    while (oxo_az_tree_want(t, &leaf)) {
        assert_true(asked <= SIMS);
        for (int i = 0; i < asked; i++)
            assert_false(seen[i].me == leaf.me && seen[i].opp == leaf.opp);
        seen[asked++] = leaf;
        float logits[OXO_MAX_MOVES] = {0};
        /* values that differ by position, so the search goes deep along some lines */
        oxo_az_tree_feed(t, logits, (float)(leaf.me % 7) / 7.0f - 0.4f);
    }
    assert_true(asked > SIMS / 2);
    float visits[OXO_MAX_MOVES];
    assert_float_equal(oxo_az_tree_visits(t, visits), SIMS, 0);
    oxo_az_tree_free(t);
    oxo_game_free(g);
}

static oxo_train_config config(void)
{
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_AZERO);
    c.az_games = 20;
    c.az_sims = 24;
    c.az_layers = 1;
    c.az_width = 32;
    c.az_window = 400;
    c.az_batch = 32;
    c.az_random = 0.3; /* in 3 games of 4: drawn the same on any thread */
    c.az_rgames = 0.75;
    return c;
}

static oxo_model *run(const oxo_train_config *c, uint64_t episodes)
{
    return train_run(c, truth, episodes);
}

static void deterministic_across_threads(void **state)
{
    (void)state;
    oxo_train_config c = config();
    omp_set_num_threads(1);
    oxo_model *one = run(&c, 4);
    omp_set_num_threads(2);
    oxo_model *two = run(&c, 4);
    omp_set_num_threads(3);
    oxo_model *three = run(&c, 4);
    same_bytes(one, two);
    same_bytes(one, three);
    /* 80 games of 5 moves or more: the window of 400 is full */
    assert_int_equal(one->az_count, 400);
    /* another seed, other games: the comparison can fail */
    c.seed = 2;
    oxo_model *other = run(&c, 4);
    assert_memory_not_equal(other->values, one->values, one->nvalues * sizeof *one->values);
    oxo_model_free(one);
    oxo_model_free(two);
    oxo_model_free(three);
    oxo_model_free(other);
}

static void resume_equals_straight(void **state)
{
    (void)state;
    oxo_train_config c = config();
    assert_resume_equals_straight(&c, truth, 3, 6);
}

/* Re-encodes m with one change made by alter, and expects the reader to refuse it naming what. */
static void refused(const uint8_t *file, size_t len, void (*alter)(oxo_model *), const char *what)
{
    oxo_error err;
    oxo_model *m;
    assert_int_equal(oxo_model_decode(file, len, &m, &err), OXO_OK);
    alter(m);
    uint8_t *bad;
    size_t blen;
    assert_int_equal(oxo_model_encode_body(m, &bad, &blen, &err), OXO_OK);
    oxo_model *bm = NULL;
    if (oxo_model_decode_body(bad, blen, 10, &bm, &err) == OXO_OK)
        fail_msg("an altered model (%s) was read", what);
    if (!strstr(err.msg, what))
        fail_msg("refused with '%s', expected it to name '%s'", err.msg, what);
    free(bad);
    oxo_model_free(m);
}
static void bad_share(oxo_model *m)
{
    m->az_targets[0] = 0.9f; /* the first position's shares no longer sum to 1 */
}
static void bad_width(oxo_model *m)
{
    m->az_width[0] = 5000;
}
static void bad_head(oxo_model *m)
{
    m->az_head = m->az_window;
}
static void bad_moment(oxo_model *m)
{
    m->az_adam[m->nvalues] = -1; /* a second moment below 0 */
}
static void bad_value_q(oxo_model *m)
{
    m->az_value_q = 1.5;
}
static void bad_random(oxo_model *m)
{
    m->az_random = 1.5;
}
static void bad_rgames(oxo_model *m)
{
    m->az_rgames = -0.5;
}
static void bad_rmargin(oxo_model *m)
{
    m->az_rmargin = 2.5;
}

static void bad_lines(oxo_model *m)
{
    m->az_lines = m->az_threats = 0; /* its 174 inputs are then too many for any board's cells */
}
static void bad_threats(oxo_model *m)
{
    m->az_lines = 0; /* threats without the lines they are found on */
}

static void model_plays_and_alterations_refused(void **state)
{
    (void)state;
    oxo_train_config c = config();
    oxo_error err;
    oxo_trainer *t = oxo_trainer_new(&c, truth, &err);
    assert_non_null(t);
    oxo_trainer_run(t, 3);
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    uint8_t *file;
    size_t len;
    assert_int_equal(oxo_model_encode(m, &file, &len, &err), OXO_OK);
    oxo_model *back;
    assert_int_equal(oxo_model_decode(file, len, &back, &err), OXO_OK);
    assert_int_equal(back->minor, 14); /* the default network reads the lines and threats */
    assert_true(back->az_lines && back->az_threats);
    assert_true(back->az_random == 0.3 && back->az_rgames == 0.75 && back->az_rmargin < 0);
    assert_int_equal(back->az_inputs, 18 + 8 * 15 + 4 * 9);
    oxo_player *from_file = oxo_player_from_model(back, &err);
    assert_non_null(from_file);
    assert_string_equal(oxo_player_source(from_file), "azero");
    oxo_player *own = oxo_trainer_player(t);
    players_agree(from_file, own, oxo_tictactoe());
    oxo_player_close(from_file);
    oxo_player_close(own);
    refused(file, len, bad_share, "window position 0");
    refused(file, len, bad_width, "hidden layer 1 of 5000 units");
    refused(file, len, bad_head, "window");
    refused(file, len, bad_moment, "adam");
    refused(file, len, bad_value_q, "value_q");
    refused(file, len, bad_random, "random_moves");
    refused(file, len, bad_rgames, "random_games");
    refused(file, len, bad_rmargin, "random_margin");
    refused(file, len, bad_lines, "128 inputs without lines");
    refused(file, len, bad_threats, "threats are inputs only beside the lines");
    /* a changed weight: the hash */
    file[len / 2] ^= 1;
    oxo_model *m2;
    assert_int_not_equal(oxo_model_decode(file, len, &m2, &err), OXO_OK);
    free(file);
    oxo_model_free(m);
    oxo_trainer_free(t);
}

/* The value targets in the window: with --value-q 0 the games' results (-1, 0 or 1) and a model
 * of minor 9; with the default, mixed with the search's value (some strictly between), minor 10. */
static void value_target_mixes_the_search(void **state)
{
    (void)state;
    for (int mix = 0; mix < 2; mix++) {
        oxo_train_config c = config();
        c.az_inputs = OXO_AZ_CELLS; /* minor 14 otherwise, as with random moves */
        c.az_random = 0;
        if (!mix)
            c.az_value_q = 0;
        oxo_model *m = run(&c, 2);
        const uint32_t O = m->az_outputs + 1;
        uint32_t between = 0;
        for (uint32_t i = 0; i < m->az_count; i++) {
            const float z = m->az_targets[(size_t)i * O + O - 1];
            between += z != -1 && z != 0 && z != 1;
        }
        assert_true(m->az_count > 0);
        if (mix)
            assert_true(between > m->az_count / 2);
        else
            assert_int_equal(between, 0);
        uint8_t *file;
        size_t len;
        oxo_error err;
        assert_int_equal(oxo_model_encode(m, &file, &len, &err), OXO_OK);
        oxo_model *back;
        assert_int_equal(oxo_model_decode(file, len, &back, &err), OXO_OK);
        assert_int_equal(back->minor, mix ? 10 : 9);
        assert_true(back->az_value_q == c.az_value_q);
        free(file);
        oxo_model_free(back);
        oxo_model_free(m);
    }
}

/* A position before a random move worse than the search's best by more than --random-margin
 * takes the search's value alone as its target, whatever --value-q: the game's result there
 * judges the random move. With every move random and every one counted (a margin below 0, as
 * minor 14 read back) the window (and so the network) is the same under --value-q 0 as under 1;
 * with a margin, the random moves near the best leave some results in; with random moves in some
 * moves, --value-q 0 leaves results (-1, 0, 1) after a game's last random move and the search's
 * values before it. */
static void random_moves_keep_the_search_value(void **state)
{
    (void)state;
    oxo_train_config c = config();
    c.az_random = 1;
    c.az_rgames = 1;
    c.az_rmargin = -1;
    c.az_value_q = 0;
    oxo_model *results = run(&c, 2);
    c.az_value_q = 1;
    oxo_model *search = run(&c, 2);
    const uint32_t O = results->az_outputs + 1;
    const size_t targets = (size_t)results->az_count * O * sizeof *results->az_targets;
    assert_int_equal(results->az_count, search->az_count);
    assert_memory_equal(results->az_targets, search->az_targets, targets);
    assert_memory_equal(results->values, search->values,
                        results->nvalues * sizeof *results->values);
    c.az_rmargin = 0.1;
    c.az_value_q = 0;
    oxo_model *margin = run(&c, 2);
    assert_int_equal(margin->az_count, results->az_count);
    assert_memory_not_equal(margin->az_targets, results->az_targets, targets);
    uint8_t *file;
    size_t len;
    oxo_error err;
    assert_int_equal(oxo_model_encode(margin, &file, &len, &err), OXO_OK);
    oxo_model *back;
    assert_int_equal(oxo_model_decode(file, len, &back, &err), OXO_OK);
    assert_int_equal(back->minor, 15);
    assert_true(back->az_rmargin == 0.1);
    free(file);
    oxo_model_free(back);
    oxo_model_free(results);
    oxo_model_free(search);
    oxo_model_free(margin);
    c.az_random = 0.3;
    c.az_value_q = 0;
    oxo_model *m = run(&c, 2);
    uint32_t between = 0, ends = 0;
    for (uint32_t i = 0; i < m->az_count; i++) {
        const float z = m->az_targets[(size_t)i * O + O - 1];
        if (z == -1 || z == 0 || z == 1)
            ends++;
        else
            between++;
    }
    assert_true(between > 0);
    assert_true(ends > 0);
    oxo_model_free(m);
}

/* Self-play pays: after 30 iterations the bare policy keeps the value in more positions of the
 * table than after the first (58.6% and 84.9% when this was written). */
static void a_run_learns(void **state)
{
    (void)state;
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_AZERO);
    c.az_games = 32;
    c.az_sims = 50;
    assert_learns(&c, truth, 30, 0.04);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forward_by_hand),
        cmocka_unit_test(forward_with_lines_by_hand),
        cmocka_unit_test(threat_inputs_by_hand),
        cmocka_unit_test(gradient_by_finite_differences),
        cmocka_unit_test(blas_and_loops_agree),
        cmocka_unit_test(blas_and_loops_agree_with_lines),
        cmocka_unit_test(search_wins_and_blocks),
        cmocka_unit_test(search_values_a_position_once),
        cmocka_unit_test(deterministic_across_threads),
        cmocka_unit_test(resume_equals_straight),
        cmocka_unit_test(model_plays_and_alterations_refused),
        cmocka_unit_test(value_target_mixes_the_search),
        cmocka_unit_test(random_moves_keep_the_search_value),
        cmocka_unit_test(a_run_learns),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
