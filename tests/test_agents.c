/*
 * Agents and ratings: the Bradley-Terry fit recovers known strengths (from exact expected results,
 * and within its bootstrap intervals from sampled games), draws count half each way, the anchor is
 * 0; agents always play legal moves; alpha-beta takes an immediate win and blocks an immediate
 * loss; a plain MCTS beats the random player (the sign of its values is right), and more playouts
 * beat fewer; the solver agent never loses on connect4:4,4; solver:outcome keeps the best outcome
 * and only that; specs are checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "boardio.h"
#include "player.h"
#include "rating.h"
#include "rng.h"

/* Results in proportion to the Bradley-Terry probabilities of known ratings, as many fractional
 * games as wanted: the fit must give the ratings back. */
static void fit_recovers_exact_strengths(void **state)
{
    (void)state;
    const double truth[4] = {0, 200, 350, -150};
    enum { PER = 1000 };
    static oxo_game_result g[4 * 3 / 2 * PER];
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            double p = 1.0 / (1.0 + pow(10, (truth[j] - truth[i]) / 400));
            int wins = (int)lround(p * PER);
            for (int k = 0; k < PER; k++)
                g[n++] = (oxo_game_result){i, j, k < wins ? 1.0 : 0.0};
        }
    double elo[4];
    assert_true(oxo_bt_fit(4, g, n, 0, elo) > 0);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(elo[i] - truth[i]) < 3.0);
    assert_true(elo[0] == 0.0);
}

/* A draw is half a win each way: two agents that only draw are equal; one that wins every other
 * game and draws the rest is rated as one that scores 75%. */
static void draws_count_half(void **state)
{
    (void)state;
    oxo_game_result g[400], h[400];
    for (int k = 0; k < 400; k++) {
        g[k] = (oxo_game_result){0, 1, 0.5};
        h[k] = (oxo_game_result){0, 1, k % 2 ? 1.0 : 0.5};
    }
    double elo[2], elo75[2];
    oxo_bt_fit(2, g, 400, 0, elo);
    assert_true(fabs(elo[1]) < 1e-6);
    oxo_bt_fit(2, h, 400, 1, elo75);
    assert_true(fabs(elo75[0] - 400 * log10(3.0)) < 1.0); /* 75% = odds 3 */
}

/* Sampled games from known ratings: the truth lies inside the bootstrap intervals. */
static void bootstrap_covers_truth(void **state)
{
    (void)state;
    const double truth[3] = {0, 300, 150};
    static oxo_game_result g[3 * 600];
    size_t n = 0;
    uint64_t rng = 7;
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            for (int k = 0; k < 600; k++) {
                double p = 1.0 / (1.0 + pow(10, (truth[j] - truth[i]) / 400));
                g[n++] = (oxo_game_result){i, j, oxo_rng_unit(&rng) < p ? 1.0 : 0.0};
            }
    double elo[3], lo[3], hi[3];
    oxo_bt_fit(3, g, n, 0, elo);
    assert_int_equal(oxo_bt_bootstrap(3, g, n, 0, 200, 1, lo, hi), 0);
    for (int i = 1; i < 3; i++) {
        assert_true(lo[i] <= elo[i] && elo[i] <= hi[i]);
        assert_true(lo[i] <= truth[i] && truth[i] <= hi[i]);
        assert_true(hi[i] - lo[i] < 150);
    }
    assert_true(elo[1] > elo[2] && elo[2] > elo[0]);
}

/* Plays a game between two agents; returns 1 if X won, 0 draw, -1 O won. */
static int game(const oxo_game *g, oxo_agent *x, oxo_agent *o, uint64_t seed)
{
    oxo_pos p = oxo_start(g);
    uint64_t rng = seed;
    while (oxo_status_of(g, p) == OXO_ONGOING) {
        int m = oxo_agent_pick(oxo_x_to_move(g, p) ? x : o, p, &rng);
        assert_true(m >= 0 && (oxo_legal(g, p) >> m & 1));
        p = oxo_play(g, p, m);
    }
    if (oxo_status_of(g, p) == OXO_OVER_DRAW)
        return 0;
    return oxo_x_to_move(g, p) ? -1 : 1;
}

/* The shipped tic-tac-toe table, the truth the agents' picks are checked against. */
static oxo_player *truth(void)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open(OXO_DATA "/tictactoe.oxt", &err);
    if (!pl)
        fail_msg("%s: %s", OXO_DATA "/tictactoe.oxt", err.msg);
    return pl;
}

static oxo_agent *agent(const oxo_game *g, const char *spec)
{
    oxo_error fault;
    oxo_agent *a = oxo_agent_open(g, spec, &fault);
    if (!a)
        fail_msg("%s: %s", spec, fault.msg);
    return a;
}

static void mcts_beats_random(void **state)
{
    (void)state;
    oxo_error fault;
    const oxo_game *g = oxo_tictactoe();
    oxo_game *c4 = oxo_game_open("connect4:5,4", &fault);
    oxo_agent *m = agent(g, "mcts:300"), *r = agent(g, "random");
    int score = 0, lost = 0;
    for (int k = 0; k < 40; k++) {
        int a = game(g, m, r, (uint64_t)k), b = -game(g, r, m, 1000 + (uint64_t)k);
        score += a + b;
        lost += (a < 0) + (b < 0);
    }
    assert_true(score > 40); /* a sign-flipped MCTS loses most of these */
    assert_true(lost <= 4);
    oxo_agent *m2 = agent(c4, "mcts:400"), *r2 = agent(c4, "random"), *few = agent(c4, "mcts:20");
    int wins = 0, more = 0;
    for (int k = 0; k < 10; k++) {
        wins += game(c4, m2, r2, (uint64_t)k) > 0;
        wins += game(c4, r2, m2, 50 + (uint64_t)k) < 0;
        more += game(c4, m2, few, 100 + (uint64_t)k) - game(c4, few, m2, 150 + (uint64_t)k);
    }
    assert_true(wins >= 18);
    assert_true(more > 0);
    oxo_agent_free(m), oxo_agent_free(r), oxo_agent_free(m2), oxo_agent_free(r2),
        oxo_agent_free(few);
    oxo_game_free(c4);
}

/* alphabeta at depth 1 takes a win in one; at depth 2 it blocks the opponent's. */
static void alphabeta_wins_and_blocks(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_error fault;
    oxo_pos p;
    oxo_agent *a1 = agent(g, "alphabeta:1"), *a2 = agent(g, "alphabeta:2");
    uint64_t rng = 3;
    assert_int_equal(oxo_board_parse(g, "XX.OO....", &p, &fault), 0);
    for (int k = 0; k < 10; k++)
        assert_int_equal(oxo_agent_pick(a1, p, &rng), 2);
    assert_int_equal(oxo_board_parse(g, "XX..O....", &p, &fault), 0);
    for (int k = 0; k < 10; k++)
        assert_int_equal(oxo_agent_pick(a2, p, &rng), 2);
    /* The heuristic is antisymmetric: the same board seen by the other side is its negative. */
    oxo_pos q = {p.opp, p.me};
    assert_int_equal(oxo_align_eval(g, p), -oxo_align_eval(g, q));
    oxo_agent_free(a1), oxo_agent_free(a2);
}

/* The position after up to `plies` random moves from the start (fewer when the game ends). */
static oxo_pos random_position(const oxo_game *g, int plies, uint64_t *rng)
{
    oxo_pos p = oxo_start(g);
    for (int i = 0; i < plies && oxo_status_of(g, p) == OXO_ONGOING; i++) {
        uint64_t legal = oxo_legal(g, p);
        for (int r = (int)oxo_rng_below(rng, (uint32_t)oxo_popcount(legal)); r; r--)
            legal &= legal - 1;
        p = oxo_play(g, p, __builtin_ctzll(legal));
    }
    return p;
}

/* MCTS valuing its leaves by a table: on positions where exactly one move wins but not at once,
 * 1,000 iterations find it, for every seed; a value of the wrong sign would avoid it. */
static void mcts_with_values(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_player *pl = truth();
    oxo_agent *m = agent(g, "mcts:1000:1.4:value=" OXO_DATA "/tictactoe.oxt");
    int found = 0;
    for (uint64_t k = 0; k < 2000 && found < 10; k++) {
        uint64_t rng = k;
        oxo_pos p = random_position(g, 1 + (int)oxo_rng_below(&rng, 5), &rng);
        oxo_move_info mi[OXO_MAX_MOVES];
        int n = oxo_player_moves(pl, p, mi), wins = 0, win = -1, slow = 1;
        for (int i = 0; i < n; i++)
            if (mi[i].value > 0) {
                wins++;
                win = mi[i].move;
                slow = mi[i].distance >= 3;
            }
        if (wins != 1 || !slow)
            continue;
        found++;
        for (uint64_t seed = 1; seed <= 5; seed++) {
            uint64_t r = seed;
            int got = oxo_agent_pick(m, p, &r);
            if (got != win) {
                char b[16];
                oxo_board_format(g, p, b);
                fail_msg("board %s: picked %d, the one win is %d", b, got, win);
            }
        }
    }
    assert_true(found >= 5);
    oxo_agent_free(m);
    oxo_player_close(pl);
}

/* The exact value of each move of p by the table (in value[move]); returns the best. */
static int table_values(const oxo_player *pl, oxo_pos p, int *value)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(pl, p, mi), best = -2;
    for (int i = 0; i < n; i++) {
        value[mi[i].move] = mi[i].value;
        best = mi[i].value > best ? mi[i].value : best;
    }
    return best;
}

/* alphabeta:1:value=TABLE searches one ply and values each leaf by the table's best move there:
 * on tic-tac-toe every pick keeps the position's value (a value of the wrong sign would throw it
 * away), where the alignment heuristic at the same depth does not always (the test would pass if
 * the value file were ignored, but for that check). */
static void alphabeta_with_values(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_player *pl = truth();
    oxo_agent *v = agent(g, "alphabeta:1:value=" OXO_DATA "/tictactoe.oxt"),
              *h = agent(g, "alphabeta:1");
    int checked = 0, heuristic_lost = 0;
    for (uint64_t k = 0; k < 400; k++) {
        uint64_t rng = k;
        oxo_pos p = random_position(g, (int)oxo_rng_below(&rng, 7), &rng);
        if (oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        int value[OXO_MAX_MOVES], best = table_values(pl, p, value);
        int got = oxo_agent_pick(v, p, &rng), hg = oxo_agent_pick(h, p, &rng);
        if (value[got] != best) {
            char b[16];
            oxo_board_format(g, p, b);
            fail_msg("board %s: picked %d of value %d, the best is %d", b, got, value[got], best);
        }
        heuristic_lost += value[hg] != best;
        checked++;
    }
    assert_true(checked > 300);
    assert_true(heuristic_lost > 0);
    oxo_agent_free(v), oxo_agent_free(h);
    oxo_player_close(pl);
}

/* puct:N:value=TABLE: led by the exact table, every pick keeps the position's value, and it is
 * the same whatever the random stream (the search draws nothing: a pick depends on the position
 * alone). That the search corrects a wrong file, and the sign of its backup, is e2e_train's check:
 * with a model of 300 episodes that loses most games to the perfect player, it loses none. */
static void puct_with_values(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_player *pl = truth();
    oxo_agent *v = agent(g, "puct:300:value=" OXO_DATA "/tictactoe.oxt");
    assert_string_equal(oxo_agent_kind(v), "puct");
    int checked = 0;
    for (uint64_t k = 0; k < 300; k++) {
        uint64_t rng = k;
        oxo_pos p = random_position(g, (int)oxo_rng_below(&rng, 7), &rng);
        if (oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        int value[OXO_MAX_MOVES], best = table_values(pl, p, value);
        uint64_t r1 = 1, r2 = 0x9e3779b97f4a7c15ull;
        int got = oxo_agent_pick(v, p, &r1), again = oxo_agent_pick(v, p, &r2);
        char b[16];
        oxo_board_format(g, p, b);
        if (got < 0 || value[got] != best)
            fail_msg("board %s: picked %d of value %d, the best is %d", b, got,
                     got < 0 ? -9 : value[got], best);
        if (again != got)
            fail_msg("board %s: picked %d, then %d with another stream", b, got, again);
        checked++;
    }
    assert_true(checked > 200);
    oxo_agent_free(v);
    oxo_player_close(pl);
}

/* solver:nodes=1:value=NET on 7x6, where its budget runs out at once: the move is the one the
 * search puct:1000 over the network plays among the columns the solver has not proven to lose (not
 * the network's own best, which the search overrules on many positions). Where the two differ, the
 * search's column must be lost (an exact solve says so; positions of random play, 12-21 stones,
 * whose threats make it quick). */
static void solver_falls_back_on_puct(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault);
    const char *net = OXO_DATA "/connect4-7-6-ntuple.oxm";
    char spec[300];
    snprintf(spec, sizeof spec, "solver:nodes=1:value=%s", net);
    oxo_agent *s = agent(g, spec), *exact = agent(g, "solver");
    snprintf(spec, sizeof spec, "puct:1000:value=%s", net);
    oxo_agent *pu = agent(g, spec);
    snprintf(spec, sizeof spec, "model:%s", net);
    oxo_agent *bare = agent(g, spec);
    int chosen = 0, same = 0, overruled = 0;
    for (uint64_t k = 0; k < 200; k++) {
        uint64_t rng = 1000 + k;
        oxo_pos p = random_position(g, 12 + (int)oxo_rng_below(&rng, 10), &rng);
        if (oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        uint64_t r = 1;
        int m = oxo_agent_pick(s, p, &r);
        if (!strstr(oxo_agent_note(s), "chosen by the value model"))
            continue;
        chosen++;
        char b[64];
        oxo_board_format(g, p, b);
        if (!strstr(oxo_agent_note(s), "under puct:1000"))
            fail_msg("board %s: the note '%s' names no search", b, oxo_agent_note(s));
        int want = oxo_agent_pick(pu, p, &r), score[OXO_MAX_MOVES], known[OXO_MAX_MOVES];
        overruled += oxo_agent_pick(bare, p, &r) != want;
        if (m == want) {
            same++;
            continue;
        }
        assert_int_equal(oxo_agent_scores(exact, p, 0, score, known), 1);
        if (score[want] >= 0)
            fail_msg("board %s: played %d where puct:1000 plays %d, which does not lose (%d)", b, m,
                     want, score[want]);
    }
    assert_true(chosen >= 20 && same >= chosen / 2 && overruled > 0);
    oxo_agent_free(s), oxo_agent_free(exact), oxo_agent_free(pu), oxo_agent_free(bare);
    oxo_game_free(g);
}

static void solver_never_loses_connect4(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:4,4", &fault);
    oxo_agent *s = agent(g, "solver"), *r = agent(g, "random"), *ab = agent(g, "alphabeta:2");
    for (int k = 0; k < 10; k++) {
        assert_true(game(g, s, r, (uint64_t)k) >= 0);
        assert_true(game(g, r, s, 20 + (uint64_t)k) <= 0);
        assert_true(game(g, s, ab, 40 + (uint64_t)k) >= 0);
        assert_true(game(g, ab, s, 60 + (uint64_t)k) <= 0);
    }
    oxo_agent_free(s), oxo_agent_free(r), oxo_agent_free(ab);
    oxo_game_free(g);
}

/* solver:outcome on a table game and on Connect-4: at every position of random games, each of 64
 * picks keeps the best outcome (checked against the table's values, or the best-score solver's
 * exact scores), the picks cover every move of that outcome, and some are not best-score moves (a
 * slower win, a faster loss): the agent keeps the value and nothing more. */
static void solver_outcome(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_game *c4 = oxo_game_open("connect4:5,4", &fault);
    const oxo_game *games[2] = {oxo_tictactoe(), c4};
    oxo_player *table = truth();
    assert_non_null(c4);
    for (int gi = 0; gi < 2; gi++) {
        const oxo_game *g = games[gi];
        oxo_agent *out = agent(g, "solver:outcome"), *ref = agent(g, "solver"),
                  *r = agent(g, "random");
        int positions = 0, not_best = 0;
        for (uint64_t k = 0; k < 30; k++) {
            uint64_t rng = 1000 + k;
            for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
                 p = oxo_play(g, p, oxo_agent_pick(r, p, &rng))) {
                int outc[OXO_MAX_MOVES], score[OXO_MAX_MOVES], known[OXO_MAX_MOVES], best = -2,
                                                                                     top = -1000;
                for (int m = 0; m < g->moves; m++)
                    known[m] = 0;
                if (gi == 0) {
                    oxo_move_info mi[OXO_MAX_MOVES];
                    int n = oxo_player_moves(table, p, mi);
                    for (int i = 0; i < n; i++) {
                        int m = mi[i].move;
                        known[m] = 1, outc[m] = mi[i].value;
                        /* sooner wins, later losses */
                        score[m] = mi[i].value * (100 - mi[i].distance);
                    }
                } else {
                    assert_int_equal(oxo_agent_scores(ref, p, 0, score, known), 1);
                    for (int m = 0; m < g->moves; m++)
                        if (known[m])
                            outc[m] = (score[m] > 0) - (score[m] < 0);
                }
                uint64_t want = 0, got = 0;
                for (int m = 0; m < g->moves; m++)
                    if (known[m] && outc[m] > best)
                        best = outc[m];
                for (int m = 0; m < g->moves; m++)
                    if (known[m] && outc[m] == best) {
                        want |= 1ull << m;
                        top = score[m] > top ? score[m] : top;
                    }
                for (uint64_t j = 0; j < 64; j++) {
                    uint64_t prng = j * 7919 + k;
                    int m = oxo_agent_pick(out, p, &prng);
                    if (m < 0 || !(want >> m & 1))
                        fail_msg("%s: picked %d, not of the best outcome %d", g->name, m, best);
                    got |= 1ull << m;
                    not_best += score[m] != top;
                }
                assert_true(got == want);
                positions++;
            }
        }
        assert_true(positions > 100);
        assert_true(not_best > 0);
        oxo_agent_free(out), oxo_agent_free(ref), oxo_agent_free(r);
    }
    oxo_player_close(table);
    oxo_game_free(c4);
}

static void specs_checked(void **state)
{
    (void)state;
    oxo_error fault;
    const oxo_game *g = oxo_tictactoe();
    const char *bad[] = {"",
                         "rand",
                         "random:3",
                         "alphabeta",
                         "alphabeta:0",
                         "alphabeta:x",
                         "mcts",
                         "mcts:0",
                         "mcts:10:",
                         "mcts:10:-1",
                         "mcts:10:1:value=",
                         "mcts:10:1:value=/nonexistent.oxm",
                         "alphabeta:2:value=",
                         "alphabeta:value=x.oxm",
                         "alphabeta:2:value=/nonexistent.oxm",
                         "model",
                         "table:/nonexistent.oxt",
                         "=random",
                         "model:" OXO_DATA "/tictactoe.oxt",
                         "table:" OXO_DATA "/q.oxm",
                         "solver:outcomes",
                         "solver:outcome:100",
                         "solver:outcome:book=x.oxt",
                         "solver:100",
                         "puct",
                         "puct:100",
                         "puct:0:value=" OXO_DATA "/tictactoe.oxt",
                         "puct:10:-1:value=" OXO_DATA "/tictactoe.oxt",
                         "puct:10::value=" OXO_DATA "/tictactoe.oxt",
                         "puct:10:value=",
                         "puct:1000001:value=" OXO_DATA "/tictactoe.oxt",
                         "puct:10:value=/nonexistent.oxm"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fault.msg[0] = 0;
        oxo_agent *a = oxo_agent_open(g, bad[i], &fault);
        if (a)
            fail_msg("spec '%s' was accepted", bad[i]);
        assert_true(strlen(fault.msg) > 0);
    }
    oxo_game *c4 = oxo_game_open("connect4:4,4", NULL);
    const char *bad4[] = {"solver:outcome:100", "solver:outcome:nodes=5",
                          "solver:outcome:value=x.oxm", "solver:100:outcome",
                          "solver:outcome:book="};
    for (size_t i = 0; i < sizeof bad4 / sizeof *bad4; i++) {
        fault.msg[0] = 0;
        oxo_agent *a = oxo_agent_open(c4, bad4[i], &fault);
        if (a)
            fail_msg("spec '%s' was accepted on connect4:4,4", bad4[i]);
        if (!strstr(fault.msg, "solver:outcome[:book=FILE]"))
            fail_msg("spec '%s': %s", bad4[i], fault.msg);
    }
    oxo_agent_free(agent(c4, "solver:outcome"));
    oxo_game_free(c4);
    oxo_agent *a = agent(g, "best=table:" OXO_DATA "/tictactoe.oxt");
    assert_string_equal(oxo_agent_name(a), "best");
    assert_string_equal(oxo_agent_kind(a), "table");
    oxo_agent_free(a);
    a = agent(g, "mcts:100:0.5");
    assert_string_equal(oxo_agent_name(a), "mcts:100:0.5");
    oxo_agent_free(a);
}

OXO_TEST_MAIN(cmocka_unit_test(fit_recovers_exact_strengths), cmocka_unit_test(draws_count_half),
              cmocka_unit_test(bootstrap_covers_truth), cmocka_unit_test(mcts_beats_random),
              cmocka_unit_test(alphabeta_wins_and_blocks), cmocka_unit_test(mcts_with_values),
              cmocka_unit_test(alphabeta_with_values), cmocka_unit_test(puct_with_values),
              cmocka_unit_test(solver_falls_back_on_puct),
              cmocka_unit_test(solver_never_loses_connect4), cmocka_unit_test(solver_outcome),
              cmocka_unit_test(specs_checked))
