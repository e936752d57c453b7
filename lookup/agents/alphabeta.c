/*
 * alphabeta:DEPTH[:value=FILE]: negamax with alpha-beta to a fixed depth, the leaves valued by the
 * alignment heuristic (stones weighted by the winning lines through their cells, and the open
 * lines one stone short) or by a value file's best afterstate. The lines, the heuristic and the
 * search also serve the budgeted solver's fallback (solver.c) and oxo_align_eval.
 */
#include "kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lines_init(lines *L, const oxo_game *g)
{
    memset(L, 0, sizeof *L);
    L->n = oxo_cell_lines(g, L->line);
    for (int i = 0; i < L->n; i++)
        for (uint64_t b = L->line[i]; b; b &= b - 1)
            L->weight[__builtin_ctzll(b)]++;
}

int agent_lines(oxo_agent *a, int *failed, oxo_error *err)
{
    if (!(a->lines = malloc(sizeof *a->lines))) {
        oxo_fail(err, OXO_E_NOMEM, "the table of alignments");
        *failed = 1;
        return -1;
    }
    lines_init(a->lines, a->g);
    return 0;
}

int agent_align_eval(const lines *L, const oxo_game *g, oxo_pos p)
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    int xm = oxo_x_to_move(g, p);
    uint64_t me = xm ? x : o, op = xm ? o : x, mine = 0, theirs = 0;
    int score = 0;
    for (uint64_t b = me; b; b &= b - 1)
        score += L->weight[__builtin_ctzll(b)];
    for (uint64_t b = op; b; b &= b - 1)
        score -= L->weight[__builtin_ctzll(b)];
    for (int i = 0; i < L->n; i++) {
        uint64_t l = L->line[i];
        if (!(l & op) && oxo_popcount(l & ~me) == 1)
            mine |= l & ~me;
        if (!(l & me) && oxo_popcount(l & ~op) == 1)
            theirs |= l & ~op;
    }
    return score + THREAT * (oxo_popcount(mine) - oxo_popcount(theirs));
}

int oxo_align_eval(const oxo_game *g, oxo_pos p)
{
    static _Thread_local lines L;
    static _Thread_local const oxo_game *for_game;
    if (for_game != g) {
        lines_init(&L, g);
        for_game = g;
    }
    return agent_align_eval(&L, g, p);
}

/* A learned or solved value of p for the side to move (alphabeta:DEPTH:value=FILE): its best move
 * by the file's values of its moves (a model's estimate clipped to -1..1, a table's exact value),
 * scaled under the win scores; a move that ends the game scores its result. The file values
 * afterstates, the positions after each move, so a leaf is worth its best afterstate: one ply
 * more than the search, at the cost of one position's sum per move. */
static int value_eval(const oxo_agent *a, oxo_pos p, int ply)
{
    const oxo_game *g = a->g;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n = oxo_player_moves(a->value, p, mi), best = -2 * WIN;
    if (n <= 0) /* a table that lacks the position */
        return agent_align_eval(a->lines, g, p);
    for (int i = 0; i < n; i++) {
        oxo_status st = oxo_status_of(g, oxo_play(g, p, mi[i].move));
        int v = 0;
        if (st == OXO_OVER_LOSS) /* the side to move at the child lost: this move wins */
            v = WIN - (ply + 1);
        else if (st == OXO_ONGOING)
            v = (int)lround(agent_file_value(a, &mi[i]) * VALUE_SCALE);
        best = v > best ? v : best;
    }
    return best;
}

/* Negamax with alpha-beta to a depth, the heuristic (or a value file) at the leaves; a win scores
 * WIN less the plies to it, so the faster win (and the slower loss) is preferred. */
int agent_alphabeta(const oxo_agent *a, oxo_pos p, int depth, int ply, int alpha, int beta)
{
    const oxo_game *g = a->g;
    oxo_status st = oxo_status_of(g, p);
    if (st == OXO_OVER_LOSS)
        return -(WIN - ply);
    if (st == OXO_OVER_DRAW)
        return 0;
    if (depth == 0)
        return a->value ? value_eval(a, p, ply) : agent_align_eval(a->lines, g, p);
    uint64_t legal = oxo_legal(g, p);
    int best = -2 * WIN;
    for (int i = 0; i < g->moves; i++) {
        int m = g->order[i];
        if (!(legal >> m & 1))
            continue;
        int v = -agent_alphabeta(a, oxo_play(g, p, m), depth - 1, ply + 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* Picks at random among the moves whose value equals the best one. Each root move is searched
 * with alpha just below the best so far: values at or above it are exact, so ties are found. */
static int pick_alphabeta(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    ties t = {0};
    for (int m = 0; m < g->moves; m++)
        if (legal >> m & 1)
            ties_add(&t, m,
                     -agent_alphabeta(a, oxo_play(g, p, m), a->depth - 1, 1, -2 * WIN,
                                      t.n ? -(t.best - 1) : 2 * WIN));
    return ties_pick(&t, rng);
}

static int open_alphabeta(oxo_agent *a, const char *word, const char *spec, const char *arg,
                          int *failed, oxo_error *err)
{
    /* alphabeta:DEPTH[:value=FILE] */
    (void)word;
    char buf[4200];
    long long v;
    char *vfile = agent_split_value(arg, buf, sizeof buf, NULL);
    if (agent_number(buf, 1, 20, &v) || (vfile && !*vfile)) {
        oxo_fail(err, OXO_E_ARG,
                 "agent '%.80s': alphabeta:DEPTH[:value=FILE], a depth from 1 to 20, the "
                 "leaves valued by a model or table FILE instead of the alignment heuristic",
                 spec);
        return -1;
    }
    a->depth = (int)v;
    if (vfile && !(a->value = agent_open_value(a->g, spec, vfile, failed, err)))
        return -1;
    return agent_lines(a, failed, err);
}

/* clang-format off */
const agent_kind oxo_agent_alphabeta = {
    .name = "alphabeta", .open = open_alphabeta, .pick = pick_alphabeta,
    .usage = "alphabeta:DEPTH[:value=FILE]",
    .about = "alpha-beta to DEPTH (1-20) plies, leaves valued by the winning lines or by a model "
             "or table FILE",
};
/* clang-format on */
