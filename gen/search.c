/*
 * Minimax, alpha-beta (plain, statically ordered, dynamically ordered) and memoised alpha-beta.
 *
 * Scores carry the distance: a win in d plies scores WIN_SCORE - d, a loss in d plies -(WIN_SCORE
 * - d), a draw 0; a parent's score is minus its child's, moved one step toward 0. So a fast win is
 * worth more than a slow one and a slow loss more than a fast one, and one integer orders moves
 * exactly as the table does. A draw's distance is not in the score: in placement games a draw lasts
 * until the board is full, so it is the number of empty moves left (max_plies - ply).
 *
 * The transposition table stores, per position code, a score with its bound (exact, lower, upper),
 * the usual way alpha-beta memoises; the canonical variant keys it by the canonical code, so the 8
 * images of a position share one entry.
 */
#include "search.h"

#include "boardio.h"
#include "c4solve.h"
#include "cli.h"
#include "clock.h"
#include "player.h"
#include "rng.h"
#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN_SCORE 1000
#define INF       100000

static const char *const names[OXO_VARIANT_NB] = {
    "minimax", "alphabeta", "alphabeta-ordered", "alphabeta-dynamic", "memo", "memo-canonical"};

const char *oxo_variant_name(int v)
{
    return v >= 0 && v < OXO_VARIANT_NB ? names[v] : "?";
}

int oxo_variant_find(const char *name)
{
    for (int v = 0; v < OXO_VARIANT_NB; v++)
        if (strcmp(names[v], name) == 0)
            return v;
    return -1;
}

enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t code; /* code + 1; 0 marks an empty slot */
    int16_t score;
    uint8_t flag;
} tt_entry;

typedef struct {
    const oxo_game *g;
    int variant;
    uint64_t nodes;
    int order[OXO_MAX_MOVES];
    tt_entry *tt;
    uint32_t tt_mask;
} ctx;

static int step_back(int child)
{
    int s = -child;
    return s > 0 ? s - 1 : s < 0 ? s + 1 : 0;
}

/* Moves of p in the order the variant searches them. */
static int order_moves(ctx *c, oxo_pos p, int *moves)
{
    uint64_t legal = oxo_legal(c->g, p);
    int n = 0;
    if (c->variant == OXO_MINIMAX || c->variant == OXO_ALPHABETA) {
        while (legal) {
            moves[n++] = __builtin_ctzll(legal);
            legal &= legal - 1;
        }
        return n;
    }
    for (int i = 0; i < c->g->moves; i++)
        if (legal >> c->order[i] & 1)
            moves[n++] = c->order[i];
    if (c->variant == OXO_ALPHABETA_ORDERED)
        return n;
    /* Dynamic (and memo): a winning move first, then a move that blocks the opponent's win. */
    oxo_pos swapped = {p.opp, p.me};
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = k; i < n; i++) {
            int m = moves[i];
            int hit = pass == 0 ? oxo_status_of(c->g, oxo_play(c->g, p, m)) == OXO_OVER_LOSS
                                : oxo_status_of(c->g, oxo_play(c->g, swapped, m)) == OXO_OVER_LOSS;
            if (hit) {
                memmove(moves + k + 1, moves + k, (size_t)(i - k) * sizeof *moves);
                moves[k++] = m;
            }
        }
    return n;
}

static int terminal_score(oxo_status st)
{
    return st == OXO_OVER_LOSS ? -WIN_SCORE : 0;
}

static int minimax(ctx *c, oxo_pos p)
{
    oxo_status st = oxo_status_of(c->g, p);
    if (st != OXO_ONGOING)
        return terminal_score(st);
    int moves[OXO_MAX_MOVES], n = order_moves(c, p, moves), best = -INF;
    for (int i = 0; i < n; i++) {
        c->nodes++;
        int s = step_back(minimax(c, oxo_play(c->g, p, moves[i])));
        if (s > best)
            best = s;
    }
    return best;
}

static uint64_t tt_key(ctx *c, oxo_pos p)
{
    if (c->variant == OXO_MEMO_CANONICAL)
        p = oxo_canonical(c->g, p, NULL);
    return oxo_code(c->g, p) + 1;
}

/* The slot of a key: its own among 4 neighbours if stored, else an empty one, else the first of
 * the 4, which is replaced. The table has a fixed size and never fills up: a search of any size
 * runs in it, with fewer hits once it is full. */
static tt_entry *tt_slot(ctx *c, uint64_t key)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & c->tt_mask;
    tt_entry *empty = NULL;
    for (uint32_t i = 0; i < 4; i++) {
        tt_entry *e = &c->tt[(h + i) & c->tt_mask];
        if (e->code == key)
            return e;
        if (!e->code && !empty)
            empty = e;
    }
    return empty ? empty : &c->tt[h];
}

/* Fail-soft negamax alpha-beta; with a transposition table for the memo variants. A score carried
 * through step_back shifts by one per ply, so window bounds are shifted the same way when passed
 * down (a child must beat step_back^-1 of our bound). */
static int child_bound(int b)
{
    /* Inverse of step_back for window bounds: the child score x gives parent step_back(x); we need
     * x such that step_back(x) == b, i.e. x = -(b + 1) for b > 0, -(b - 1) for b < 0, 0 for 0. */
    return b > 0 ? -(b + 1) : b < 0 ? -(b - 1) : 0;
}

static int alphabeta(ctx *c, oxo_pos p, int alpha, int beta)
{
    oxo_status st = oxo_status_of(c->g, p);
    if (st != OXO_ONGOING)
        return terminal_score(st);
    tt_entry *e = NULL;
    uint64_t key = 0;
    int alpha0 = alpha;
    if (c->tt) {
        key = tt_key(c, p);
        e = tt_slot(c, key);
        if (e->code == key) {
            if (e->flag == EXACT)
                return e->score;
            if (e->flag == LOWER && e->score >= beta)
                return e->score;
            if (e->flag == UPPER && e->score <= alpha)
                return e->score;
        }
    }
    int moves[OXO_MAX_MOVES], n = order_moves(c, p, moves), best = -INF;
    for (int i = 0; i < n; i++) {
        c->nodes++;
        int a = alpha > best ? alpha : best;
        int s =
            step_back(alphabeta(c, oxo_play(c->g, p, moves[i]), child_bound(beta), child_bound(a)));
        if (s > best)
            best = s;
        if (best >= beta)
            break;
    }
    if (e) {
        e->code = key;
        e->score = (int16_t)best;
        e->flag = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    }
    return best;
}

int oxo_search(const oxo_game *g, oxo_pos p, int variant, oxo_search_result *r)
{
    ctx c = {.g = g, .variant = variant};
    const double t0 = oxo_seconds();
    memcpy(c.order, g->order, sizeof c.order);
    if (variant == OXO_MEMO || variant == OXO_MEMO_CANONICAL) {
        /* 16,384 slots (3 times the 5,478 tic-tac-toe positions) for boards of up to 9 cells,
         * 2^20 (16 MB) beyond, where entries are replaced once it is full. */
        c.tt_mask = (g->cells <= 9 ? 1u << 14 : 1u << 20) - 1;
        c.tt = calloc((size_t)c.tt_mask + 1, sizeof *c.tt);
        if (!c.tt)
            return -1;
    }
    memset(r, 0, sizeof *r);
    oxo_status st = oxo_status_of(g, p);
    int score;
    if (st != OXO_ONGOING) {
        score = terminal_score(st);
    } else {
        /* Every root move is searched with a window just below the best so far, so moves that tie
         * with the best are recognised (scores are integers), and only those. */
        int moves[OXO_MAX_MOVES], scores[OXO_MAX_MOVES], n = order_moves(&c, p, moves);
        score = -INF;
        for (int i = 0; i < n; i++) {
            c.nodes++;
            oxo_pos child = oxo_play(g, p, moves[i]);
            int s = variant == OXO_MINIMAX
                        ? step_back(minimax(&c, child))
                        : step_back(alphabeta(&c, child, -INF,
                                              child_bound(score > -INF ? score - 1 : -INF + 2)));
            scores[i] = s;
            if (s > score)
                score = s;
        }
        for (int i = 0; i < n; i++)
            if (scores[i] == score)
                r->best[r->nbest++] = moves[i];
        for (int i = 1; i < r->nbest; i++)
            for (int j = i; j > 0 && r->best[j] < r->best[j - 1]; j--) {
                int t = r->best[j];
                r->best[j] = r->best[j - 1];
                r->best[j - 1] = t;
            }
    }
    free(c.tt);
    r->value = score > 0 ? OXO_WIN : score < 0 ? OXO_LOSS : OXO_DRAW;
    r->distance = score > 0   ? WIN_SCORE - score
                  : score < 0 ? WIN_SCORE + score
                              : g->max_plies - oxo_ply(p);
    r->nodes = c.nodes;
    r->seconds = oxo_seconds() - t0;
    return 0;
}

/* --position (the start when absent); -1 after a message on stderr. */
static int read_position(const char *prog, const oxo_game *g, const char *board, oxo_pos *p)
{
    oxo_error err;
    *p = oxo_start(g);
    if (board && oxo_board_parse(g, board, p, &err) != 0) {
        fprintf(stderr, "%s: --position: %s\n", prog, err.msg);
        return -1;
    }
    return 0;
}

int oxo_c4solve_smp(oxo_c4solver *sv, oxo_c4solver **helpers, int threads, oxo_pos p, int weak)
{
    if (threads < 2)
        return oxo_c4solve(sv, p, weak);
    volatile int done = 0;
    int score = 0;
    for (int t = 1; t < threads; t++)
        oxo_c4solver_stop_flag(helpers[t], &done);
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num();
        if (t == 0) {
            score = oxo_c4solve(sv, p, weak);
            __atomic_store_n(&done, 1, __ATOMIC_RELAXED);
        } else {
            oxo_c4solve(helpers[t], p, weak);
        }
    }
    for (int t = 1; t < threads; t++) /* the flag lives on this stack: let no helper keep it */
        oxo_c4solver_stop_flag(helpers[t], NULL);
    return score;
}

int oxo_c4_solve_main(const char *prog, const oxo_game *g, const char *board, int json, int weak,
                      unsigned tt_mb, const char *book_file)
{
    if (!g->solver) {
        fprintf(stderr,
                "%s: --search solve is the Connect-4 solver; %s is not Connect-4 (use memo)\n",
                prog, g->spec);
        return OXO_EXIT_USAGE;
    }
    oxo_pos p;
    if (read_position(prog, g, board, &p))
        return OXO_EXIT_USAGE;
    if (oxo_status_of(g, p) != OXO_ONGOING) {
        fprintf(stderr, "%s: --position: the game is over\n", prog);
        return OXO_EXIT_USAGE;
    }
    oxo_player *book = NULL;
    oxo_error berr;
    if (book_file && !(book = oxo_player_open_book(g, book_file, &berr))) {
        fprintf(stderr, "%s: %s\n", prog, berr.msg);
        return OXO_EXIT_FAIL;
    }
    oxo_c4solver *sv = oxo_c4solver_new(g, tt_mb);
    if (!sv) {
        fprintf(stderr, "%s: out of memory for a %u MB transposition table\n", prog, tt_mb);
        oxo_player_close(book);
        return OXO_EXIT_FAIL;
    }
    /* Every core on the one position, sharing one table (OMP_NUM_THREADS sets how many). */
    int threads = omp_get_max_threads() < 64 ? omp_get_max_threads() : 64;
    oxo_c4solver *helpers[64] = {0};
    for (int t = 1; t < threads; t++)
        if (!(helpers[t] = oxo_c4solver_helper(sv, t))) {
            fprintf(stderr, "%s: out of memory\n", prog);
            for (int u = 1; u < t; u++)
                oxo_c4solver_free(helpers[u]);
            oxo_c4solver_free(sv);
            oxo_player_close(book);
            return OXO_EXIT_FAIL;
        }
    const double t0 = oxo_seconds();
    const int moves = oxo_ply(p);
    int scores[OXO_MAX_MOVES], legal[OXO_MAX_MOVES], best = -1000, from_book = 0;
    uint64_t lm = oxo_legal(g, p);
    for (int c = 0; c < g->width; c++) {
        legal[c] = (int)(lm >> c & 1);
        if (!legal[c])
            continue;
        oxo_pos child = oxo_play(g, p, c);
        oxo_status st = oxo_status_of(g, child);
        /* A move that wins at once scores the win; one that fills the board draws; a position the
         * book holds has its score there. */
        int bs;
        if (book && oxo_player_book_score(book, child, &bs)) {
            scores[c] = weak ? (bs < 0) - (bs > 0) : -bs;
            from_book++;
        } else
            scores[c] = st == OXO_OVER_LOSS   ? (weak ? 1 : oxo_c4_win_score(g, moves))
                        : st == OXO_OVER_DRAW ? 0
                                              : -oxo_c4solve_smp(sv, helpers, threads, child, weak);
        best = scores[c] > best ? scores[c] : best;
    }
    double secs = oxo_seconds() - t0;
    int value = best > 0 ? OXO_WIN : best < 0 ? OXO_LOSS : OXO_DRAW;
    if (json) {
        printf("{\"score\":%d,\"scores\":[", best);
        for (int c = 0; c < g->width; c++)
            legal[c] ? printf("%s%d", c ? "," : "", scores[c]) : printf("%snull", c ? "," : "");
        printf("],\"value\":\"%s\",", oxo_value_name(value));
        if (weak)
            printf("\"distance\":null");
        else
            printf("\"distance\":%d", oxo_c4_score_distance(g, best, moves));
        printf(",\"best\":[");
        for (int c = 0, k = 0; c < g->width; c++)
            if (legal[c] && scores[c] == best)
                printf("%s%d", k++ ? "," : "", c);
        uint64_t nodes = oxo_c4solver_nodes(sv);
        for (int t = 1; t < threads; t++)
            nodes += oxo_c4solver_nodes(helpers[t]);
        printf("],\"weak\":%s,\"nodes\":%llu,\"threads\":%d,\"seconds\":%.6f,\"from_book\":%d}\n",
               weak ? "true" : "false", (unsigned long long)nodes, threads, secs, from_book);
    } else {
        for (int c = 0; c < g->width; c++)
            legal[c] ? printf("%s%d", c ? " " : "", scores[c]) : printf("%s-", c ? " " : "");
        printf("\n");
    }
    for (int t = 1; t < threads; t++)
        oxo_c4solver_free(helpers[t]);
    oxo_c4solver_free(sv);
    oxo_player_close(book);
    return OXO_EXIT_OK;
}

int oxo_search_main(const char *prog, const oxo_game *g, const char *variant, const char *board,
                    int json)
{
    int v = oxo_variant_find(variant);
    if (v < 0) {
        fprintf(stderr,
                "%s: --search: unknown variant '%s' (minimax, alphabeta, alphabeta-ordered, "
                "alphabeta-dynamic, memo, memo-canonical)\n",
                prog, variant);
        return OXO_EXIT_USAGE;
    }
    oxo_pos p;
    if (read_position(prog, g, board, &p))
        return OXO_EXIT_USAGE;
    oxo_search_result r;
    if (oxo_search(g, p, v, &r) != 0) {
        fprintf(stderr, "%s: out of memory for the transposition table\n", prog);
        return OXO_EXIT_FAIL;
    }
    if (json) {
        printf("{\"variant\":\"%s\",\"value\":\"%s\",\"distance\":%d,\"best\":[", names[v],
               oxo_value_name(r.value), r.distance);
        for (int i = 0; i < r.nbest; i++)
            printf("%s%d", i ? "," : "", r.best[i]);
        printf("],\"nodes\":%llu,\"seconds\":%.9f}\n", (unsigned long long)r.nodes, r.seconds);
    } else {
        printf("%s: %s in %d, best %ss (0-%d):", names[v], oxo_value_name(r.value), r.distance,
               g->move_noun, g->moves - 1);
        for (int i = 0; i < r.nbest; i++)
            printf(" %d", r.best[i]);
        printf("%s\n  %llu nodes, %.6f s\n", r.nbest ? "" : " none (game over)",
               (unsigned long long)r.nodes, r.seconds);
    }
    return OXO_EXIT_OK;
}

/* oxo-gen --judge-set: positions drawn by random play, each game stopped at a ply drawn uniformly
 * from min_stones to the last, kept when still on; every move of each weakly solved (win, draw or
 * loss) on every core (each thread its own solver). Only positions where the choice matters are
 * kept, those whose moves do not all have the same value: where every move wins or every move
 * loses, any player keeps the value, and random play reaches many such positions. Candidates are
 * drawn and solved in batches and kept in the order drawn, so the file depends only on the seed. */
int oxo_judge_set_main(const char *prog, const oxo_game *g, uint32_t n, int min_stones,
                       uint64_t seed, const char *out, unsigned tt_mb, int progress)
{
    if (!g->solver) {
        fprintf(stderr,
                "%s: --judge-set uses the Connect-4 solver; %s is not Connect-4 (its table judges "
                "it)\n",
                prog, g->spec);
        return OXO_EXIT_USAGE;
    }
    if (min_stones >= g->max_plies) {
        fprintf(stderr, "%s: --min-stones %d: %s ends within %d stones\n", prog, min_stones,
                g->spec, g->max_plies);
        return OXO_EXIT_USAGE;
    }
    if (min_stones > g->cells - 2) {
        /* One empty cell left is one move: never a choice, so never kept (it ran forever). */
        fprintf(
            stderr,
            "%s: --min-stones %d: a position of %s with %d stones or more has at most one move, so "
            "no choice to judge (at most %d)\n",
            prog, min_stones, g->spec, min_stones, g->cells - 2);
        return OXO_EXIT_USAGE;
    }
    oxo_error err;
    if (oxo_atomic_probe(out, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return OXO_EXIT_FAIL;
    }
    enum { BATCH = 256 };
    typedef struct {
        oxo_pos pos;
        char text[3 * OXO_MAX_MOVES + 1], vals[OXO_MAX_MOVES + 1];
        int useful;
    } cand;
    cand *c = malloc(BATCH * sizeof *c);
    size_t cap = 512 + (size_t)n * (4 * OXO_MAX_MOVES + 4), len = 0;
    char *buf = malloc(cap);
    oxo_c4solver **sv = calloc((size_t)omp_get_max_threads(), sizeof *sv);
    int rc = OXO_EXIT_OK;
    if (!c || !buf || !sv) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = OXO_EXIT_FAIL;
    }
    for (int i = 0; !rc && i < omp_get_max_threads(); i++)
        if (!(sv[i] = oxo_c4solver_new(g, tt_mb))) {
            fprintf(stderr, "%s: out of memory for a %u MB transposition table per thread\n", prog,
                    tt_mb);
            rc = OXO_EXIT_FAIL;
        }
    if (!rc)
        len += (size_t)snprintf(
            buf, cap,
            "# oxo judged set: %u positions of %s, %d or more stones, from random play (seed "
            "%llu), kept where the moves do not all have the same value; each move weakly "
            "solved by the Connect-4 solver: + wins, = draws, - loses, . not legal\n"
            "game %s\n",
            n, g->name, min_stones, (unsigned long long)seed, g->spec);
    uint64_t rng = oxo_rng_stream(seed, 0x6a75646765ull), drawn = 0, games = 0;
    /* Near the end of the game random play rarely leaves a position on with moves of different
     * values: past this many random games the run stops and says so rather than run on (by a count,
     * not a time, so that the file still depends only on the seed). */
    const uint64_t most_games = 100000 + 1000 * (uint64_t)n;
    uint32_t kept = 0;
    const double t0 = oxo_seconds();
    while (!rc && kept < n) {
        if (games >= most_games) {
            fprintf(
                stderr,
                "%s: only %u of %u positions kept after %llu random games: positions of %s with %d "
                "stones or more where the moves differ are too rare; lower --min-stones\n",
                prog, kept, n, (unsigned long long)games, g->spec, min_stones);
            rc = OXO_EXIT_FAIL;
            break;
        }
        int nb = 0;
        while (nb < BATCH && games < most_games) {
            int moves[OXO_MAX_MOVES];
            int ply = oxo_random_position(g, min_stones, &rng, &c[nb].pos, moves);
            games++;
            if (ply < 0)
                continue;
            /* The moves as --position takes them: digits, or from 10 columns on, numbers
             * separated by commas (a digit per move would write ':' for column 10). */
            size_t at = 0;
            c[nb].text[0] = 0;
            for (int i = 0; i < ply; i++)
                at += (size_t)snprintf(c[nb].text + at, sizeof c[nb].text - at,
                                       g->moves >= 10 && i ? ",%d" : "%d", moves[i] + 1);
            nb++;
        }
#pragma omp parallel for schedule(dynamic, 1)
        for (int k = 0; k < nb; k++) {
            oxo_c4solver *s = sv[omp_get_thread_num()];
            uint64_t legal = oxo_legal(g, c[k].pos);
            int lo = 2, hi = -2;
            for (int m = 0; m < g->moves; m++) {
                char v = '.';
                if (legal >> m & 1) {
                    oxo_pos ch = oxo_play(g, c[k].pos, m);
                    oxo_status st = oxo_status_of(g, ch);
                    int r = st == OXO_OVER_LOSS   ? 1
                            : st == OXO_OVER_DRAW ? 0
                                                  : -oxo_c4solve(s, ch, 1);
                    r = r > 0 ? 1 : r < 0 ? -1 : 0;
                    lo = r < lo ? r : lo;
                    hi = r > hi ? r : hi;
                    v = r > 0 ? '+' : r < 0 ? '-' : '=';
                }
                c[k].vals[m] = v;
            }
            c[k].vals[g->moves] = 0;
            c[k].useful = lo != hi;
        }
        drawn += (uint64_t)nb;
        for (int k = 0; k < nb && kept < n; k++)
            if (c[k].useful) {
                len += (size_t)snprintf(buf + len, cap - len, "%s %s\n", c[k].text, c[k].vals);
                kept++;
            }
        if (progress) {
            double el = oxo_seconds() - t0;
            fprintf(stderr, "\r%s: %u/%u positions kept (of %llu drawn), ETA %.0f s   ", prog, kept,
                    n, (unsigned long long)drawn,
                    el * (double)(n - kept) / (double)(kept ? kept : 1));
        }
    }
    if (progress)
        fprintf(stderr, "\n");
    if (!rc && oxo_atomic_write(out, buf, len, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = OXO_EXIT_FAIL;
    }
    for (int i = 0; sv && i < omp_get_max_threads(); i++)
        oxo_c4solver_free(sv[i]);
    free(sv), free(c), free(buf);
    return rc;
}
