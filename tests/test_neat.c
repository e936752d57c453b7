/*
 * NEAT (lookup/neat.c, train/learners/neat.c): a network built from genes computes what the
 * activation stated in FORMAT.md gives by hand; genomes a network cannot be made of (cycles, links
 * into inputs or out of outputs, unknown nodes) are refused; a run is the same bytes on 1, 2 and 3
 * threads and resumed from its file as straight; the model file round-trips, plays through the
 * player as in the trainer, and is refused when altered; a run learns.
 */
#define _GNU_SOURCE /* memmem */
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

#include "neat.h"
#include "space.h"
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

static double sig(double x)
{
    return 1 / (1 + exp(-4.9 * x));
}

/* Tic-tac-toe: inputs 0-8 and the bias 9, outputs 10-18 (move m at 10 + m), hidden from 19. */
static void forward_by_hand(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    const uint32_t hidden[] = {19, 25};
    /* cell 0 -> 19 -> output 4; bias -> 25 -> 19 (25 computed before 19, though its id is
     * higher); cell 8 -> output 4; 19 -> output 0; a disabled link ignored */
    const oxo_neat_link l[] = {
        {0, 19, 0, 1, 0.5f}, {19, 14, 1, 1, -1.25f}, {9, 25, 2, 1, 0.75f},  {25, 19, 3, 1, 2.0f},
        {8, 14, 4, 1, 0.3f}, {19, 10, 5, 1, 1.0f},   {1, 10, 6, 0, 100.0f},
    };
    oxo_neat_net n;
    oxo_error err;
    assert_int_equal(oxo_neat_build(&n, g, 0, hidden, 2, l, 7, &err), 0);
    /* X in cell 0, O in cell 8, X to move: cell 0 is 1, cell 8 is -1 */
    oxo_pos p = oxo_play(g, oxo_play(g, oxo_start(g), 0), 8);
    float act[64], out[9];
    oxo_neat_forward(&n, g, p, act, out);
    /* the inputs, the first nodes */
    assert_float_equal(act[0], 1, 0);
    assert_float_equal(act[8], -1, 0);
    assert_float_equal(act[4], 0, 0);
    assert_float_equal(act[9], 1, 0);
    const double h25 = sig(0.75), h19 = sig(0.5 * 1 + 2.0 * h25);
    /* the outputs' sums, before their sigmoid; the hidden nodes' values after it */
    assert_float_equal(out[4], -1.25 * h19 + 0.3 * -1, 1e-6);
    assert_float_equal(out[0], h19, 1e-6);
    assert_float_equal(out[1], 0, 0); /* nothing enters it */
    assert_float_equal(act[10 + 4], sig(out[4]), 1e-6);
    /* O to move sees the stones the other way round */
    float out2[9];
    oxo_neat_forward(&n, g, oxo_play(g, p, 4), act, out2);
    assert_float_equal(act[0], -1, 0);
    assert_float_equal(act[4], -1, 0);
    assert_float_equal(act[8], 1, 0);
    /* the move played: the legal one of highest output */
    int best = 1;
    for (int m = 2; m < 8; m++) /* cells 0 and 8 are taken */
        if (out[m] > out[best])
            best = m;
    assert_int_equal(oxo_neat_pick(&n, g, p, act), best);
    oxo_neat_free(&n);
}

/* A network of every input linked to every output and two hidden nodes, weights from a stream. */
static void some_network(const oxo_game *g, uint64_t seed, oxo_neat_net *n)
{
    const uint32_t I = (uint32_t)g->cells + 1, O = (uint32_t)g->moves, h = I + O;
    const uint32_t hidden[] = {h, h + 1};
    oxo_neat_link l[65 * 64 + 8];
    uint32_t k = 0;
    uint64_t rng = oxo_rng_stream(seed, 0);
    for (uint32_t a = 0; a < I; a++)
        for (uint32_t b = 0; b < O; b++, k++)
            l[k] = (oxo_neat_link){a, I + b, k, 1, (float)(oxo_rng_unit(&rng) * 4 - 2)};
    for (uint32_t a = 0; a < 3; a++, k++) /* cells 0..2 into the first hidden node */
        l[k] = (oxo_neat_link){a, h, k, 1, (float)(oxo_rng_unit(&rng) * 4 - 2)};
    l[k] = (oxo_neat_link){h, h + 1, k, 1, 1.5f}, k++;
    for (uint32_t b = 0; b < O; b++, k++)
        l[k] = (oxo_neat_link){h + 1, I + b, k, 1, (float)(oxo_rng_unit(&rng) * 4 - 2)};
    oxo_error err;
    assert_int_equal(oxo_neat_build(n, g, 0, hidden, 2, l, k, &err), 0);
}

/* The least image of p under the game's own symmetries (its transform, not the cell maps the
 * network was oriented by), compared as the oriented network compares them: the other side's cell
 * mask, then the mover's. */
static oxo_pos least_image(const oxo_game *g, oxo_pos p, uint64_t *mine, uint64_t *theirs)
{
    oxo_pos best = p;
    for (int s = 0; s < g->nsym; s++) {
        oxo_pos q = oxo_transform(g, p, s);
        uint64_t x, o;
        oxo_cells(g, q, &x, &o);
        const uint64_t me = oxo_ply(q) & 1 ? o : x, op = oxo_ply(q) & 1 ? x : o;
        if (!s || op < *theirs || (op == *theirs && me < *mine))
            *mine = me, *theirs = op, best = q;
    }
    return best;
}

/* An oriented network (oxo_neat_orient) scores a board as the plain network scores the board's
 * least image, each move by the best of its images there, worked out here from the game's own
 * transforms; so every image of a board gets the same scores, move for move, and a board's twin
 * moves score alike. Every reachable position of tic-tac-toe, of connect4:4,4 (the mirror alone)
 * and of mnk:4,3,3 (a board that is not square: 4 symmetries). */
static void oriented_network_sees_the_least_image(void **state)
{
    (void)state;
    const char *specs[] = {"tictactoe", "connect4:4,4", "mnk:4,3,3"};
    for (size_t gi = 0; gi < sizeof specs / sizeof *specs; gi++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[gi], &err);
        assert_non_null(g);
        oxo_neat_net plain, or ;
        some_network(g, 7 + gi, &plain);
        some_network(g, 7 + gi, & or);
        oxo_neat_orient(& or, g);
        assert_int_equal(or.nsym, g->nsym);
        oxo_space *sp = oxo_space_build(g, 0);
        assert_non_null(sp);
        float act[64 + 64 + 8], out[64], want[64], raw[64], img[64];
        uint32_t differ = 0; /* positions the plain network scores otherwise: orienting does work */
        for (uint32_t i = 0; i < sp->n; i++) {
            const oxo_pos p = sp->pos[i];
            if (oxo_status_of(g, p) != OXO_ONGOING)
                continue;
            uint64_t me = 0, op = 0;
            const oxo_pos q = least_image(g, p, &me, &op);
            oxo_neat_forward(&plain, g, q, act, raw);
            for (int m = 0; m < g->moves; m++) {
                int any = 0;
                for (int s = 0; s < g->nsym; s++) {
                    oxo_pos t = oxo_transform(g, p, s);
                    if (t.me != q.me || t.opp != q.opp)
                        continue;
                    const float x = raw[oxo_transform_move(g, m, s)];
                    want[m] = !any || x > want[m] ? x : want[m];
                    any = 1;
                }
            }
            oxo_neat_forward(& or, g, p, act, out);
            oxo_neat_forward(&plain, g, p, act, raw);
            for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                const int m = __builtin_ctzll(legal);
                assert_memory_equal(&out[m], &want[m], sizeof out[m]);
                differ += out[m] != raw[m];
            }
            for (int s = 1; s < g->nsym; s++) { /* every image alike */
                oxo_neat_forward(& or, g, oxo_transform(g, p, s), act, img);
                for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                    const int m = __builtin_ctzll(legal);
                    assert_memory_equal(&img[oxo_transform_move(g, m, s)], &out[m], sizeof out[m]);
                }
            }
        }
        assert_true(differ > 0);
        oxo_space_free(sp);
        oxo_neat_free(&plain);
        oxo_neat_free(& or);
        oxo_game_free(g);
    }
}

/* Whether the side that holds mask `side` completes a line by a stone on cell c: from the game's
 * lines, one by one (the network finds it through each side's threats instead). */
static int completes(const uint64_t *lines, int nlines, uint64_t side, int c)
{
    const uint64_t with = side | (uint64_t)1 << c;
    for (int l = 0; l < nlines; l++)
        if ((with & lines[l]) == lines[l])
            return 1;
    return 0;
}

/* Move m's three tactics in p, from moves played through the game: m wins when the game ends with
 * the mover's line; m blocks when the other side's stone on m's cell would complete a line of
 * theirs; m lets the other side win when m does not win and some reply then wins. */
static void tactics_by_play(const oxo_game *g, const uint64_t *lines, int nlines, oxo_pos p, int m,
                            float t[3])
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    const uint64_t theirs = oxo_ply(p) & 1 ? x : o;
    const oxo_pos q = oxo_play(g, p, m);
    t[0] = oxo_status_of(g, q) == OXO_OVER_LOSS;
    t[1] = (float)completes(lines, nlines, theirs, oxo_cell_of_move(g, p, m));
    t[2] = 0;
    for (uint64_t r = oxo_status_of(g, q) == OXO_ONGOING ? oxo_legal(g, q) : 0; r; r &= r - 1)
        if (oxo_status_of(g, oxo_play(g, q, __builtin_ctzll(r))) == OXO_OVER_LOSS)
            t[2] = 1;
}

/* The tactics' inputs (FORMAT.md, `tactics`) as the game itself plays: a network whose only links
 * take tactic j of each move to that move's output (weight 1) outputs the tactic's 0 or 1 as the
 * move's sum; over the positions of random games of tic-tac-toe, connect4:5,4 (gravity) and
 * mnk:5,4,4, each is checked against moves played through the game (tactics_by_play). */
static void tactics_inputs_as_the_game_plays(void **state)
{
    (void)state;
    const char *specs[] = {"tictactoe", "connect4:5,4", "mnk:5,4,4"};
    for (int gi = 0; gi < 3; gi++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[gi], &err);
        assert_non_null(g);
        uint64_t lines[OXO_MAX_LINES];
        const int nlines = oxo_cell_lines(g, lines);
        const uint32_t I = (uint32_t)oxo_neat_inputs(g, OXO_NEAT_TACTICS), O = (uint32_t)g->moves;
        assert_int_equal(I, g->cells + 1 + 3 * g->moves);
        oxo_neat_net n[3];
        for (uint32_t j = 0; j < 3; j++) {
            oxo_neat_link l[64];
            for (uint32_t m = 0; m < O; m++)
                l[m] = (oxo_neat_link){(uint32_t)g->cells + 1 + 3 * m + j, I + m, m, 1, 1.0f};
            assert_int_equal(oxo_neat_build(&n[j], g, OXO_NEAT_TACTICS, NULL, 0, l, O, &err), 0);
            assert_int_equal(n[j].inputs, (int)I);
        }
        uint64_t rng = oxo_rng_stream(7, (uint64_t)gi);
        int seen[3] = {0, 0, 0};
        float act[OXO_NEAT_MAX_NODES], out[OXO_MAX_MOVES];
        for (int game = 0; game < 300; game++)
            for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
                 p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
                float want[3][OXO_MAX_MOVES] = {{0}};
                for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                    const int m = __builtin_ctzll(legal);
                    float t[3];
                    tactics_by_play(g, lines, nlines, p, m, t);
                    for (int j = 0; j < 3; j++)
                        want[j][m] = t[j];
                }
                for (int j = 0; j < 3; j++) {
                    oxo_neat_forward(&n[j], g, p, act, out);
                    for (uint32_t m = 0; m < O; m++) {
                        assert_true(out[m] == want[j][m]);
                        seen[j] += want[j][m] != 0;
                    }
                }
            }
        for (int j = 0; j < 3; j++) {
            assert_true(seen[j] > 0); /* each tactic was there to find */
            oxo_neat_free(&n[j]);
        }
        oxo_game_free(g);
    }
}

/* An afterstate network (FORMAT.md, `afterstate`) scores each legal move m of p by its one output
 * on the board after m, seen by the side that played m, with m's tactics: checked against the
 * network worked out by hand (every input into the output, three cells and the bias into a
 * hidden node, the hidden node into the output) on inputs made from the game itself (the position
 * after m through oxo_play, its tactics by tactics_by_play), over random games of tic-tac-toe,
 * connect4:5,4 and mnk:5,4,4. Oriented, every image of a board gets the same scores, move for
 * move, and twin moves score alike. */
static void afterstate_scores_each_move_apart(void **state)
{
    (void)state;
    const char *specs[] = {"tictactoe", "connect4:5,4", "mnk:5,4,4"};
    for (int gi = 0; gi < 3; gi++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[gi], &err);
        assert_non_null(g);
        uint64_t lines[OXO_MAX_LINES];
        const int nlines = oxo_cell_lines(g, lines);
        const uint32_t I = (uint32_t)oxo_neat_inputs(g, OXO_NEAT_AFTERSTATE), h = I + 1;
        assert_int_equal(I, g->cells + 4);
        assert_int_equal(oxo_neat_outputs(g, OXO_NEAT_AFTERSTATE), 1);
        oxo_neat_link l[80];
        double w[80];
        uint32_t k = 0;
        uint64_t rng = oxo_rng_stream(11, (uint64_t)gi);
        for (uint32_t a = 0; a < I; a++, k++) /* every input into the output, node I */
            l[k] = (oxo_neat_link){a, I, k, 1, (float)(oxo_rng_unit(&rng) * 2 - 1)};
        const uint32_t into_h[] = {0, 1, 2, (uint32_t)g->cells};
        for (int j = 0; j < 4; j++, k++)
            l[k] = (oxo_neat_link){into_h[j], h, k, 1, (float)(oxo_rng_unit(&rng) * 2 - 1)};
        l[k] = (oxo_neat_link){h, I, k, 1, 1.5f}, k++;
        for (uint32_t j = 0; j < k; j++)
            w[j] = l[j].w;
        oxo_neat_net n, or ;
        assert_int_equal(oxo_neat_build(&n, g, OXO_NEAT_AFTERSTATE, &h, 1, l, k, &err), 0);
        assert_int_equal(oxo_neat_build(& or, g, OXO_NEAT_AFTERSTATE, &h, 1, l, k, &err), 0);
        oxo_neat_orient(& or, g);
        assert_int_equal(n.outputs, 1);
        float act[OXO_NEAT_MAX_NODES], out[OXO_MAX_MOVES], img[OXO_MAX_MOVES];
        int twins = 0, tactics = 0;
        for (int game = 0; game < 100; game++)
            for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
                 p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
                oxo_neat_forward(&n, g, p, act, out);
                for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                    const int m = __builtin_ctzll(legal);
                    const oxo_pos q = oxo_play(g, p, m);
                    uint64_t qx, qo;
                    oxo_cells(g, q, &qx, &qo);
                    /* q's side to move is the other side: the mover's stones are q's other's */
                    const uint64_t mover = oxo_ply(q) & 1 ? qx : qo, other = mover == qx ? qo : qx;
                    double in[68];
                    for (int c = 0; c < g->cells; c++)
                        in[c] = (double)(mover >> c & 1) - (double)(other >> c & 1);
                    in[g->cells] = 1;
                    float t[3];
                    tactics_by_play(g, lines, nlines, p, m, t);
                    for (int j = 0; j < 3; j++)
                        in[g->cells + 1 + j] = t[j];
                    tactics += in[g->cells + 1] + in[g->cells + 2] + in[g->cells + 3] > 0;
                    double hid = 0, sum = 0;
                    for (int j = 0; j < 4; j++)
                        hid += w[I + (uint32_t)j] * in[into_h[j]];
                    for (uint32_t a = 0; a < I; a++)
                        sum += w[a] * in[a];
                    sum += 1.5 * sig(hid);
                    assert_float_equal(out[m], sum, 1e-4);
                }
                /* oriented: every image alike, move for move */
                oxo_neat_forward(& or, g, p, act, out);
                for (int s = 1; s < g->nsym; s++) {
                    oxo_neat_forward(& or, g, oxo_transform(g, p, s), act, img);
                    for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                        const int m = __builtin_ctzll(legal), t = oxo_transform_move(g, m, s);
                        assert_memory_equal(&img[t], &out[m], sizeof out[m]);
                        twins += t != m && oxo_transform(g, p, s).me == p.me &&
                                 oxo_transform(g, p, s).opp == p.opp;
                    }
                }
            }
        assert_true(tactics > 0);
        if (g->nsym > 1)
            assert_true(twins > 0); /* boards the maps leave as they are were met */
        oxo_neat_free(&n);
        oxo_neat_free(& or);
        oxo_game_free(g);
    }
}

static void bad_genomes_refused(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    const uint32_t hidden[] = {19, 20};
    oxo_neat_net n;
    oxo_error err;
    struct {
        oxo_neat_link l[3];
        int n;
        const char *says;
    } bad[] = {
        {{{19, 20, 0, 1, 1}, {20, 19, 1, 1, 1}}, 2, "cycle"},
        {{{19, 3, 0, 1, 1}}, 1, "enters input"},
        {{{12, 19, 0, 1, 1}}, 1, "leaves output"},
        {{{0, 21, 0, 1, 1}}, 1, "lacks"},
        {{{0, 19, 0, 1, NAN}}, 1, "finite"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_not_equal(
            oxo_neat_build(&n, g, 0, hidden, 2, bad[i].l, (uint32_t)bad[i].n, &err), 0);
        assert_non_null(strstr(err.msg, bad[i].says));
    }
    /* the cycle through a disabled link is no cycle */
    const oxo_neat_link ok[] = {{19, 20, 0, 1, 1}, {20, 19, 1, 0, 1}};
    assert_int_equal(oxo_neat_build(&n, g, 0, hidden, 2, ok, 2, &err), 0);
    oxo_neat_free(&n);
    const uint32_t unsorted[] = {20, 19};
    assert_int_not_equal(oxo_neat_build(&n, g, 0, unsorted, 2, ok, 2, &err), 0);
}

static oxo_train_config config(void)
{
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_NEAT);
    c.ne_population = 40;
    c.ne_positions = 300;
    c.ne_games = 2;
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
    oxo_model *one = run(&c, 12);
    omp_set_num_threads(2);
    oxo_model *two = run(&c, 12);
    omp_set_num_threads(3);
    oxo_model *three = run(&c, 12);
    same_bytes(one, two);
    same_bytes(one, three);
    /* another seed, another population: the comparison can fail */
    c.seed = 2;
    oxo_model *other = run(&c, 12);
    assert_true(other->nvalues != one->nvalues ||
                memcmp(other->values, one->values, one->nvalues * sizeof *one->values));
    oxo_model_free(one);
    oxo_model_free(two);
    oxo_model_free(three);
    oxo_model_free(other);
}

/* Of the cells alone, of the tactics' inputs, and of afterstates, which the file says (minors 12,
 * 16 and 17) and a resumed run takes up from it. */
static void resume_equals_straight(void **state)
{
    (void)state;
    for (int inputs = OXO_NEAT_CELLS; inputs <= OXO_NEAT_AFTERSTATE; inputs++) {
        oxo_train_config c = config();
        c.ne_inputs = inputs;
        assert_resume_equals_straight(&c, truth, 7, 14);
        oxo_model *m = run(&c, 3);
        uint8_t *file;
        size_t len;
        oxo_model *back;
        assert_int_equal(oxo_model_encode(m, &file, &len, NULL), OXO_OK);
        assert_int_equal(oxo_model_decode(file, len, &back, NULL), OXO_OK);
        assert_int_equal(back->ne_inputs, inputs);
        const int minor[] = {12, 16, 17};
        assert_int_equal(back->minor, minor[inputs]);
        if (inputs == OXO_NEAT_AFTERSTATE) { /* an afterstate network without its tactics */
            uint8_t *body;
            size_t blen;
            assert_int_equal(oxo_model_encode_body(m, &body, &blen, NULL), OXO_OK);
            uint8_t *at = memmem(body, blen, "\xa7tactics\xc3", 9);
            assert_non_null(at);
            at[8] = 0xc2; /* false */
            oxo_model *bm;
            oxo_error err;
            assert_int_not_equal(oxo_model_decode_body(body, blen, 17, &bm, &err), OXO_OK);
            assert_non_null(strstr(err.msg, "afterstate without tactics"));
            free(body);
        }
        free(file);
        oxo_model_free(m);
        oxo_model_free(back);
    }
}

/* The file's champion plays through the player as the trainer's does, every position of a few
 * random games; an altered file is refused by the reader or the player, with a reason. */
static void model_plays_and_alterations_refused(void **state)
{
    (void)state;
    oxo_train_config c = config();
    oxo_error err;
    oxo_trainer *t = oxo_trainer_new(&c, truth, &err);
    assert_non_null(t);
    oxo_trainer_run(t, 10);
    oxo_grade gr = {0};
    oxo_model *m = oxo_trainer_model(t, &gr, NULL);
    uint8_t *file;
    size_t len;
    assert_int_equal(oxo_model_encode(m, &file, &len, &err), OXO_OK);
    oxo_model *back;
    assert_int_equal(oxo_model_decode(file, len, &back, &err), OXO_OK);
    oxo_player *from_file = oxo_player_from_model(back, &err);
    assert_non_null(from_file);
    assert_string_equal(oxo_player_source(from_file), "neat");
    oxo_player *own = oxo_trainer_player(t);
    players_agree(from_file, own, oxo_tictactoe());
    oxo_player_close(from_file);
    oxo_player_close(own);
    /* a link of the champion turned back on itself: the reader takes it, the player refuses it */
    m->ne_links[1] = m->ne_links[0]; /* link 0 from an input to an input */
    uint8_t *bad;
    size_t blen;
    assert_int_equal(oxo_model_encode_body(m, &bad, &blen, &err), OXO_OK);
    oxo_model *bm;
    assert_int_equal(oxo_model_decode_body(bad, blen, 8, &bm, &err), OXO_OK);
    free(bad);
    assert_null(oxo_player_from_model(bm, &err)); /* it frees bm */
    assert_non_null(strstr(err.msg, "neat champion"));
    /* a genome in a species the table lacks, and a cut population */
    oxo_model *m2;
    assert_int_equal(oxo_model_decode(file, len, &m2, &err), OXO_OK);
    m2->ne_genome[3 * 2 + 2] = m2->ne_next_species + 5;
    assert_int_equal(oxo_model_encode_body(m2, &bad, &blen, &err), OXO_OK);
    assert_int_not_equal(oxo_model_decode_body(bad, blen, 8, &bm, &err), OXO_OK);
    assert_non_null(strstr(err.msg, "species"));
    free(bad);
    oxo_model_free(m2);
    /* a changed weight: the hash */
    file[len / 2] ^= 1;
    assert_int_not_equal(oxo_model_decode(file, len, &m2, &err), OXO_OK);
    free(file);
    oxo_model_free(m);
    oxo_trainer_free(t);
}

/* Evolution pays: after 60 generations the champion keeps the value in more positions of the
 * table than the first generation's champion (60.6% and 68.5% when this was written). */
static void a_run_learns(void **state)
{
    (void)state;
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_NEAT);
    c.ne_positions = 1000;
    assert_learns(&c, truth, 60, 0.02);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forward_by_hand),
        cmocka_unit_test(oriented_network_sees_the_least_image),
        cmocka_unit_test(tactics_inputs_as_the_game_plays),
        cmocka_unit_test(afterstate_scores_each_move_apart),
        cmocka_unit_test(bad_genomes_refused),
        cmocka_unit_test(deterministic_across_threads),
        cmocka_unit_test(resume_equals_straight),
        cmocka_unit_test(model_plays_and_alterations_refused),
        cmocka_unit_test(a_run_learns),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
