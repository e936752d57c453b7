/*
 * Grading (see grade.h). The candidate's greedy choice at a position is the set of moves of its
 * highest learned value: when several tie, all of them must keep the game value, since the player
 * breaks ties at random.
 */
#include "grade.h"

#include "rng.h"

#include <omp.h>
#include <stdlib.h>

typedef struct {
    const oxo_player *cand;
    const oxo_space *raw;
    const oxo_player *perfect; /* the opponent plays only its best moves; NULL: every move */
    int64_t *memo;
    int as_x;
} walk;

/* Games lost by the candidate below raw node i, over every opponent move (or every tied best move
 * of the perfect opponent) and every tied greedy move of the candidate; memoised per node. */
static uint64_t lost_games(walk *w, uint32_t i)
{
    const oxo_space *s = w->raw;
    if (w->memo[i] >= 0)
        return (uint64_t)w->memo[i];
    uint64_t lost = 0;
    if (s->status[i] != OXO_ONGOING) {
        lost = s->status[i] == OXO_OVER_LOSS && oxo_x_to_move(s->game, s->pos[i]) == w->as_x;
    } else {
        /* The side whose best moves alone are followed: the candidate (its ties), or the perfect
         * opponent (its ties); with none, every move of the opponent. */
        const oxo_player *by = oxo_x_to_move(s->game, s->pos[i]) == w->as_x ? w->cand : w->perfect;
        if (by) {
            oxo_move_info mi[OXO_MAX_MOVES];
            int best[OXO_MAX_MOVES];
            int k = oxo_best_moves(mi, oxo_player_moves(by, s->pos[i], mi), best);
            for (int b = 0; b < k; b++)
                lost += lost_games(w, s->echild[oxo_space_edge(s, i, best[b])]);
        } else
            for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++)
                lost += lost_games(w, s->echild[e]);
    }
    w->memo[i] = (int64_t)lost;
    return lost;
}

static void random_games(const oxo_player *cand, int as_x, uint64_t seed, uint32_t out[3])
{
    oxo_grade_games(cand, NULL, as_x, seed, OXO_GRADE_RANDOM_GAMES, out);
}

/* Game k of the series: 0 when cand won it, 1 drawn, 2 lost. Its moves depend on k and the seed
 * only, so the series can be played on any number of threads. */
static int one_game(const oxo_player *cand, const oxo_player *opp, oxo_agent *agent, int as_x,
                    uint64_t seed, uint64_t k)
{
    const oxo_game *g = oxo_player_game(cand);
    uint64_t rng = oxo_rng_stream(seed, 2 * k + (uint64_t)as_x);
    oxo_pos p = oxo_start(g);
    while (oxo_status_of(g, p) == OXO_ONGOING) {
        int m;
        if (oxo_x_to_move(g, p) == as_x) {
            m = oxo_player_pick(cand, p, 10, &rng);
        } else if (opp) {
            m = oxo_player_pick(opp, p, 10, &rng);
        } else if (agent) {
            m = oxo_agent_pick(agent, p, &rng);
        } else {
            m = oxo_rng_bit(&rng, oxo_legal(g, p));
        }
        /* a side without an answer loses; none is played */
        if (m < 0 || !(oxo_legal(g, p) >> m & 1))
            return oxo_x_to_move(g, p) == as_x ? 2 : 0;
        p = oxo_play(g, p, m);
    }
    if (oxo_status_of(g, p) == OXO_OVER_DRAW)
        return 1;
    return oxo_x_to_move(g, p) == as_x ? 2 : 0; /* the side to move lost */
}

void oxo_grade_games_against(const oxo_player *cand, const oxo_player *opp,
                             oxo_agent *const *agents, int nagents, int as_x, uint64_t seed,
                             uint32_t games, uint32_t out[3])
{
    uint32_t won = 0, drawn = 0, lost = 0;
    /* Players only read their tables and networks; an agent (its transposition table is scratch
     * memory) serves one thread. Past a Connect-4 book each of the solver's answers is a search:
     * there the threads pay. */
    const int threads = agents ? nagents : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : won, drawn, lost) if (threads > 1)
    for (int64_t k = 0; k < (int64_t)games; k++) {
        const int r = one_game(cand, opp, agents ? agents[omp_get_thread_num()] : NULL, as_x, seed,
                               (uint64_t)k);
        won += r == 0, drawn += r == 1, lost += r == 2;
    }
    out[0] = won, out[1] = drawn, out[2] = lost;
}

void oxo_grade_games(const oxo_player *cand, const oxo_player *opp, int as_x, uint64_t seed,
                     uint32_t games, uint32_t out[3])
{
    oxo_grade_games_against(cand, opp, NULL, 0, as_x, seed, games, out);
}

int oxo_grade_run(const oxo_player *truth, const oxo_player *cand, const oxo_space *raw,
                  uint64_t seed, oxo_grade *out)
{
    /* Over a canonical space, each node stands for its orbit: weighted by the orbit's size, the
     * figures are those of the whole space, and the games below a node are counted move by move
     * (a canonical node keeps one edge per move of its board), so they are the same too. */
    *out = (oxo_grade){0}; /* every figure, the ones a table's grade has none of too */
    uint32_t total = 0, keep = 0, exact = 0;
    for (uint32_t i = 0; i < raw->n; i++) {
        if (raw->status[i] != OXO_ONGOING)
            continue;
        oxo_move_info mc[OXO_MAX_MOVES], mt[OXO_MAX_MOVES];
        int best[OXO_MAX_MOVES], v, d;
        int n = oxo_player_moves(cand, raw->pos[i], mc);
        int k = oxo_best_moves(mc, n, best);
        oxo_player_moves(truth, raw->pos[i], mt); /* same moves, same order */
        oxo_player_value(truth, raw->pos[i], &v, &d);
        int ok_value = 1, ok_dist = 1;
        for (int b = 0; b < k; b++)
            for (int j = 0; j < n; j++)
                if (mt[j].move == best[b]) {
                    ok_value &= mt[j].value == v;
                    ok_dist &= mt[j].value == v && mt[j].distance == d;
                }
        uint32_t weight = raw->symmetric ? (uint32_t)oxo_orbit_size(raw->game, raw->pos[i]) : 1;
        total += weight;
        keep += weight * (uint32_t)ok_value;
        exact += weight * (uint32_t)ok_dist;
    }
    out->positions = total;
    out->accuracy = total ? (double)keep / total : 0;
    out->accuracy_distance = total ? (double)exact / total : 0;
    walk w = {cand, raw, NULL, malloc(raw->n * sizeof(int64_t)), 1};
    if (!w.memo)
        return -1;
    /* Against every opponent line, then against the perfect player's (every tie of its best
     * moves tried): the first is the stricter, the second what a game against it can meet. */
    for (int perfect = 0; perfect < 2; perfect++)
        for (int as_x = 1; as_x >= 0; as_x--) {
            for (uint32_t i = 0; i < raw->n; i++)
                w.memo[i] = -1;
            w.as_x = as_x;
            w.perfect = perfect ? truth : NULL;
            uint64_t *to =
                perfect ? as_x ? &out->perfect_lines_lost_as_x : &out->perfect_lines_lost_as_o
                : as_x  ? &out->losses_as_x
                        : &out->losses_as_o;
            *to = lost_games(&w, 0);
        }
    free(w.memo);
    random_games(cand, 1, seed, out->random_as_x);
    random_games(cand, 0, seed, out->random_as_o);
    return 0;
}
