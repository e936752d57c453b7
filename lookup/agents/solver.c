/*
 * solver[:MS|:nodes=N][:value=FILE][:book=FILE] and solver:outcome[:book=FILE]: the perfect player.
 * On a game the exact search solver serves (c4solve.c) it scores the moves by search, an opening
 * book answering first, within a budget of time or nodes if given, and where the budget runs out a
 * fallback chooses (a proven win, the value model under puct, or alpha-beta); on the enumerable
 * games it plays from the game's table. Also the scores and answers oxo-play --position asks of it.
 */
#include "kind.h"

#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oxo_agent_borrow_book(oxo_agent *a, const oxo_player *book)
{
    a->book = book;
}

const oxo_player *oxo_agent_book(const oxo_agent *a)
{
    return a->book;
}

int oxo_agent_wants_book(const oxo_agent *a)
{
    return !strcmp(oxo_agent_kind(a), "solver") && !a->book;
}

double oxo_agent_budget(const oxo_agent *a)
{
    return (double)a->budget_ms / 1000.0;
}

/* The solver as a player on Connect-4: the moves' exact scores, the best one (fastest win,
 * slowest loss), ties at random. best_only: what a player needs of the moves, no more, the best
 * ones' exact scores. The first move (centre first) is solved; each other one is only asked whether
 * it reaches the best score so far, one null-window search that a worse move fails quickly, and
 * solved when it does. known[m] is 1 when score[m] is exact, 2 when it bounds the score from above.
 * Side by side against solving every move (make bench, 7x6 judged-set positions): 1.76x faster at
 * 10-13 stones, 1.53x at 14-20, the same moves picked. 1 when done, 0 when the deadline or budget
 * stopped it. */
static int move_scores(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known,
                       int best_only)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    int stones = oxo_ply(p), have = 0, best = 0;
    for (int m = 0; m < g->moves; m++)
        known[m] = 0;
    oxo_c4solver_deadline(a->c4, seconds);
    oxo_c4solver_node_budget(a->c4, a->budget_nodes);
    for (int i = 0; i < g->moves; i++) { /* centre first: the columns most worth knowing */
        int m = g->order[i], v, bs;
        if (!(legal >> m & 1))
            continue;
        oxo_pos c = oxo_play(g, p, m);
        oxo_status st = oxo_status_of(g, c);
        if (a->book && oxo_player_book_score(a->book, c, &bs)) /* in the book: its exact score */
            v = -bs;
        else if (st != OXO_ONGOING)
            v = st == OXO_OVER_LOSS ? oxo_c4_win_score(g, stones) : 0;
        else {
            /* The mover's score reaches best when the child's is -best or less. */
            int below = best_only && have ? oxo_c4solve_at_least(a->c4, c, 1 - best) : 0;
            if (below < 0)
                break;
            if (below) {
                score[m] = best - 1;
                known[m] = 2;
                continue;
            }
            v = -oxo_c4solve(a->c4, c, 0);
            if (oxo_c4solver_aborted(a->c4))
                break;
        }
        score[m] = v;
        known[m] = 1;
        if (!have || v > best)
            best = v, have = 1;
    }
    int done = !oxo_c4solver_aborted(a->c4);
    oxo_c4solver_deadline(a->c4, 0);
    oxo_c4solver_node_budget(a->c4, 0);
    return done;
}

int oxo_agent_scores(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known)
{
    if (!a->c4) {
        for (int m = 0; m < a->g->moves; m++)
            known[m] = 0;
        return -1;
    }
    return move_scores(a, p, seconds, score, known, 0);
}

/* The iterations of the search over the value model where the solver's budget runs out. */
#define SOLVER_PUCT_ITERATIONS 1000

/* Where the solver's budget ran out before every move was scored (known[], score[] as
 * move_scores leaves them): moves proven to lose are set aside, a proven win is played, and
 * otherwise the value model leads puct among the others or, without one, alpha-beta with the
 * alignment heuristic deepens one ply at a time while the next depth is expected to fit in
 * `seconds` (each depth costing about seven times the one before). The note says which; the move
 * is always one of p's legal moves. */
static int choose_c4(oxo_agent *a, oxo_pos p, const int *score, const int *known, double seconds,
                     uint64_t *rng)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    int stones = oxo_ply(p);
    double t0 = oxo_seconds();
    ties t = {0};
    for (int m = 0; m < g->moves; m++)
        if (known[m] == 1 && score[m] > 0)
            ties_add(&t, m, score[m]);
    if (t.n) {
        snprintf(a->note, sizeof a->note,
                 "not exact: a win was proven, the solve of the other moves ran out of its budget");
        a->chosen = "proven win";
        return ties_pick(&t, rng);
    }
    uint64_t cand = 0;
    for (int m = 0; m < g->moves; m++)
        if ((legal >> m & 1) && !(known[m] && score[m] < 0)) /* exact, or bounded, below 0: lost */
            cand |= 1ull << m;
    if (!cand)
        cand = legal; /* every move loses: search them all for the slowest */
    if (a->value) {
        /* A learned value (an n-tuple network plays far better than the heuristic at any depth
         * the budget allows), among the columns not proven to lose: led by a short search over it
         * (puct:1000, under a millisecond on 7x6), which mends many of the network's own wrong
         * moves (train/RECORD.md: the shipped network keeps the value in 97% of the judged
         * positions so led, 91.5% alone); alone when the search cannot run. */
        int move = agent_puct_search(a, p, cand, SOLVER_PUCT_ITERATIONS, OXO_PUCT_C, NULL, NULL);
        if (move >= 0) {
            snprintf(a->note, sizeof a->note,
                     "not exact: the budget ran out; chosen by the value model under puct:%d",
                     SOLVER_PUCT_ITERATIONS);
            a->chosen = "value model under puct";
            return move;
        }
        oxo_move_info mi[OXO_MAX_MOVES];
        int n = oxo_player_moves(a->value, p, mi);
        ties vt = {0};
        for (int i = 0; i < n; i++)
            if (cand >> mi[i].move & 1)
                /* values within [-1, 1] */
                ties_add(&vt, mi[i].move, (int)lround(mi[i].score * 1e6));
        if (vt.n) {
            snprintf(a->note, sizeof a->note,
                     "not exact: the budget ran out; chosen by the value model");
            a->chosen = "value model";
            return ties_pick(&vt, rng);
        }
    }
    int best = -1, depth = 0;
    double last = 0;
    for (int d = 1; d <= g->cells - stones; d++) {
        double left = seconds - (oxo_seconds() - t0);
        /* With a node budget, a fixed depth, so that the move does not depend on the machine. */
        if (a->budget_nodes ? d > 6 : d > 1 && 7 * last > left)
            break;
        double s0 = oxo_seconds();
        ties dt = {0};
        for (int m = 0; m < g->moves; m++)
            if (cand >> m & 1)
                ties_add(&dt, m,
                         -agent_alphabeta(a, oxo_play(g, p, m), d - 1, 1, -2 * WIN,
                                          dt.n ? -(dt.best - 1) : 2 * WIN));
        best = ties_pick(&dt, rng);
        depth = d;
        last = oxo_seconds() - s0;
    }
    snprintf(a->note, sizeof a->note,
             "not exact: the budget ran out; chosen by alpha-beta to depth %d", depth);
    a->chosen = "alphabeta";
    return best;
}

/* Every move scored: one of the best exact scores (known[m] == 1), ties at random. */
static int pick_scored(const oxo_game *g, const int *score, const int *known, uint64_t *rng)
{
    ties t = {0};
    for (int m = 0; m < g->moves; m++)
        if (known[m] == 1)
            ties_add(&t, m, score[m]);
    return ties_pick(&t, rng);
}

/* With a budget (solver:MS): half of it for the best moves' scores; when that is not enough, the
 * other half for choose_c4. */
static int pick_c4(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES];
    double t0 = oxo_seconds(), total = (double)a->budget_ms / 1000.0;
    a->note[0] = 0;
    a->chosen = "solver";
    if (move_scores(a, p, total / 2, score, known, 1))
        return pick_scored(a->g, score, known, rng);
    return choose_c4(a, p, score, known, total - (oxo_seconds() - t0), rng);
}

int oxo_agent_answer(oxo_agent *a, oxo_pos p, double seconds, int *score, int *known, int *exact,
                     uint64_t *rng)
{
    *exact = oxo_agent_scores(a, p, seconds, score, known);
    if (*exact < 0 || oxo_status_of(a->g, p) != OXO_ONGOING)
        return -1;
    a->note[0] = 0;
    a->chosen = "solver";
    if (*exact)
        return pick_scored(a->g, score, known, rng);
    /* The scores took the whole budget: the fallback gets half as much again, as a player's pick
     * splits its budget in two. */
    return choose_c4(a, p, score, known, seconds / 2, rng);
}

/* solver:outcome: a move at random among those that keep the best outcome (win, draw or loss),
 * whatever the distance: a perfect player that keeps the game value but neither hurries a win nor
 * prolongs a loss. Beside the best-score solver it tells apart a player that loses won games to
 * any perfect defence from one that loses them only to the longest (the 7x6 n-tuple network wins
 * 195 of 200 games as X against this player, 151 against the best-score one: see train/RECORD.md).
 */
static int pick_outcome(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    ties t = {0};
    if (a->c4) {
        /* Each move's outcome by at most two null-window searches of its child (is the child's
         * score 0 or more, 1 or more?) instead of its exact score: 7x6 games ran several times
         * faster. The book answers first where it holds the child. */
        const oxo_game *g = a->g;
        for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
            int m = __builtin_ctzll(legal), bs, out;
            oxo_pos c = oxo_play(g, p, m);
            oxo_status st = oxo_status_of(g, c);
            if (st != OXO_ONGOING)
                out = st == OXO_OVER_LOSS ? OXO_WIN : OXO_DRAW; /* the child's side to move lost */
            else if (a->book && oxo_player_book_score(a->book, c, &bs))
                out = (bs < 0) - (bs > 0);
            else
                out = !oxo_c4solve_at_least(a->c4, c, 0)  ? OXO_WIN
                      : oxo_c4solve_at_least(a->c4, c, 1) ? OXO_LOSS
                                                          : OXO_DRAW;
            ties_add(&t, m, out);
        }
    } else {
        oxo_move_info mi[OXO_MAX_MOVES];
        int n = oxo_player_moves(a->player, p, mi);
        for (int i = 0; i < n; i++)
            ties_add(&t, mi[i].move, mi[i].value);
    }
    return ties_pick(&t, rng);
}

static int open_solver(oxo_agent *a, const char *word, const char *spec, const char *arg,
                       int *failed, oxo_error *err)
{
    (void)word;
    const oxo_game *g = a->g;
    long long v = 0; /* set before every use; gcc -O3 (Release) cannot see it */
    /* solver[:MS|:nodes=N][:value=FILE][:book=FILE], solver:outcome[:book=FILE] */
    char buf[8500], *bfile;
    char *vfile = agent_split_value(arg, buf, sizeof buf, &bfile);
    /* solver:outcome is exact: no budget, so no value file either */
    const int outcome = arg && !strcmp(buf, "outcome");
    /* solver:book=FILE has no budget */
    int nodes = !outcome && !strncmp(buf, "nodes=", 6), bare = arg && (outcome || !*buf);
    if (arg && !bare && !strncmp(buf, "book=", 5))
        bfile = buf + 5, bare = 1;
    if (arg &&
        ((!bare && agent_number(buf + (nodes ? 6 : 0), 1, nodes ? 1000000000000 : 3600000, &v)) ||
         (!g->solver && !(outcome && !vfile && !bfile)) || (vfile && (!*vfile || outcome)) ||
         (bfile && !*bfile))) {
        oxo_fail(
            err, OXO_E_ARG,
            "agent '%.80s': solver, solver:outcome[:book=FILE] (any move of the best outcome, "
            "whatever the distance), solver:MS[:value=FILE][:book=FILE] or "
            "solver:nodes=N[:value=FILE][:book=FILE] (a budget per move of 1 to 3600000 ms or of "
            "nodes, on Connect-4, a model "
            "that chooses when it runs out, an opening book of oxo-gen --book looked up first)",
            spec);
        return -1;
    }
    a->outcome = outcome;
    if (bare)
        arg = NULL;
    a->budget_ms = arg && !nodes ? v : 0;
    a->budget_nodes = arg && nodes ? (uint64_t)v : 0;
    if (vfile && !(a->value = agent_open_value(g, spec, vfile, failed, err)))
        return -1;
    if (bfile && !(a->book = a->own_book = oxo_player_open_book(g, bfile, err))) {
        oxo_context(err, "agent '%.80s'", spec);
        *failed = 1;
        return -1;
    }
    if (g->solver) {
        if (!(a->c4 = oxo_c4solver_new(g, 16))) {
            oxo_fail(err, OXO_E_NOMEM, "agent 'solver'");
            *failed = 1;
            return -1;
        }
    } else if (!(a->player = agent_open_player(g, NULL, 1, failed, err)))
        return -1;
    /* A budgeted solver falls back on alpha-beta (choose_c4). */
    if (a->budget_ms || a->budget_nodes)
        return agent_lines(a, failed, err);
    return 0;
}

static int pick_solver(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    if (a->outcome)
        return pick_outcome(a, p, rng);
    return a->c4 ? pick_c4(a, p, rng) : oxo_player_pick(a->player, p, 10, rng);
}

static void free_solver(oxo_agent *a)
{
    oxo_c4solver_free(a->c4);
}

const char *oxo_agent_chosen(const oxo_agent *a)
{
    return a->chosen ? a->chosen : "solver";
}

/* clang-format off */
const agent_kind oxo_agent_solver = {
    .name = "solver", .open = open_solver, .pick = pick_solver, .free = free_solver,
    .usage = "solver[:MS|:nodes=N][:value=FILE][:book=FILE], solver:outcome[:book=FILE]",
    .about = "the exact solver; on Connect-4 a budget per move of time or of nodes, a model FILE "
             "that chooses (leading puct:1000) when it runs out, an opening book looked up "
             "first; solver:outcome plays any move of the best outcome, whatever the distance",
};
/* clang-format on */
