/*
 * The benchmark of `make bench`: wall time of the whole oxo-gen process, the lookup player's query
 * and load times, the search solvers' table, training throughput and speed-up, and episodes to
 * perfect over 10 seeds. Medians of repeated runs, in-process timing with CLOCK_MONOTONIC. Figures,
 * not tests: nothing here fails on a slow machine.
 * The perfect player's pick against every move's score (c4pick).
 *   oxo-bench OXO_GEN TABLE
 */
#include "agent.h"
#include "boardio.h"
#include "c4ref.h"
#include "c4solve.h"
#include "clock.h"
#include "player.h"
#include "rng.h"
#include "judge.h"
#include "search.h"
#include "train.h"

#include <fcntl.h>
#include <omp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *fmt_time(double s, char *buf)
{
    if (s < 1e-6)
        snprintf(buf, 32, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, 32, "%.1f µs", s * 1e6);
    else if (s < 1)
        snprintf(buf, 32, "%.2f ms", s * 1e3);
    else
        snprintf(buf, 32, "%.2f s", s);
    return buf;
}

static void bench_gen(const char *gen)
{
    enum { RUNS = 31 };
    double t[RUNS];
    char out[] = "/tmp/oxo-bench-XXXXXX";
    if (!mkdtemp(out))
        return;
    char path[64];
    snprintf(path, sizeof path, "%s/t.oxt", out);
    for (int r = 0; r < RUNS; r++) {
        /* posix_spawn, as a shell starts a program: the figure is what a user waits for. */
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        char *args[] = {(char *)gen, "-o", path, NULL};
        pid_t pid;
        double t0 = oxo_seconds();
        if (posix_spawn(&pid, gen, &fa, NULL, args, environ) != 0) {
            fprintf(stderr, "oxo-bench: cannot run %s\n", gen);
            exit(1);
        }
        int st;
        waitpid(pid, &st, 0);
        t[r] = oxo_seconds() - t0;
        posix_spawn_file_actions_destroy(&fa);
    }
    unlink(path);
    rmdir(out);
    char b[32];
    printf("## oxo-gen\n\nWhole process (enumerate, solve, compress, write, fsync), median of %d "
           "runs: "
           "**%s**\n\n",
           RUNS, fmt_time(median(t, RUNS), b));
}

static void bench_lookup(const char *table)
{
    oxo_error err;
    enum { REPS = 15 };
    double t[REPS];
    char b[32];
    for (int r = 0; r < REPS; r++) {
        double t0 = oxo_seconds();
        oxo_player *p = oxo_player_open(table, &err);
        t[r] = oxo_seconds() - t0;
        oxo_player_close(p);
    }
    double load = median(t, REPS);
    oxo_player *p = oxo_player_open(table, &err);
    if (!p) {
        fprintf(stderr, "oxo-bench: %s\n", err.msg);
        exit(1);
    }
    oxo_space *raw = oxo_space_build(oxo_player_game(p), 0);
    /* Queries over every reachable non-terminal position, in a shuffled order. */
    uint32_t *order = malloc(raw->n * sizeof *order), n = 0;
    for (uint32_t i = 0; i < raw->n; i++)
        if (raw->status[i] == OXO_ONGOING)
            order[n++] = i;
    uint64_t rng = 1;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = oxo_rng_below(&rng, i + 1), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    volatile int sink = 0;
    for (int r = 0; r < REPS; r++) {
        double t0 = oxo_seconds();
        for (int rep = 0; rep < 20; rep++)
            for (uint32_t i = 0; i < n; i++)
                sink += oxo_player_pick(p, raw->pos[order[i]], 10, &rng);
        t[r] = (oxo_seconds() - t0) / (20.0 * n);
    }
    printf("## Lookup player (oxo-play's path)\n\n");
    printf("| what | median |\n|---|---:|\n");
    printf("| one query: values of every move of a position, best move picked | %s |\n",
           fmt_time(median(t, REPS), b));
    printf("| loading the table (read, check header, decompress, unpack, build the rank directory "
           "of its %u positions) | %s |\n\n",
           oxo_player_table(p)->n, fmt_time(load, b));
    (void)sink;
    free(order);
    oxo_space_free(raw);
    oxo_player_close(p);
}

static void bench_search(const char *table)
{
    const oxo_game *g = oxo_tictactoe();
    static const char *const mid[3] = {"X...O....", "XO..X...O", "X.O.XO..."};
    oxo_space *raw = oxo_space_build(g, 0);
    oxo_error err;
    oxo_player *p = oxo_player_open(table, &err);
    printf("## Choosing a move: search vs lookup\n\n");
    printf("Nodes are positions visited below the root; times are medians of repeated runs.\n\n");
    printf("| method | empty board: nodes | time | mid-game (3 positions): nodes | time | all "
           "4,520 positions one by one: nodes | time |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int v = 0; v < OXO_VARIANT_NB; v++) {
        char b1[32], b2[32], b3[32];
        double t[9];
        oxo_search_result r;
        uint64_t n0 = 0, n1 = 0, n2 = 0;
        for (int k = 0; k < 9; k++) {
            oxo_search(g, oxo_start(g), v, &r);
            t[k] = r.seconds;
            n0 = r.nodes;
        }
        double t0 = median(t, 9);
        for (int k = 0; k < 9; k++) {
            double sum = 0;
            n1 = 0;
            for (int m = 0; m < 3; m++) {
                oxo_pos pos;
                oxo_board_parse(g, mid[m], &pos, NULL);
                oxo_search(g, pos, v, &r);
                sum += r.seconds;
                n1 += r.nodes;
            }
            t[k] = sum;
        }
        double t1 = median(t, 9);
        int reps = v == OXO_MINIMAX ? 3 : 5;
        for (int k = 0; k < reps; k++) {
            double t2 = oxo_seconds();
            n2 = 0;
            for (uint32_t i = 0; i < raw->n; i++)
                if (raw->status[i] == OXO_ONGOING) {
                    oxo_search(g, raw->pos[i], v, &r);
                    n2 += r.nodes;
                }
            t[k] = oxo_seconds() - t2;
        }
        printf("| %s | %llu | %s | %llu | %s | %llu | %s |\n", oxo_variant_name(v),
               (unsigned long long)n0, fmt_time(t0, b1), (unsigned long long)n1, fmt_time(t1, b2),
               (unsigned long long)n2, fmt_time(median(t, reps), b3));
    }
    if (p) {
        double t[9];
        char b1[32], b2[32], b3[32];
        oxo_move_info mi[OXO_MAX_MOVES];
        for (int k = 0; k < 9; k++) {
            double t0 = oxo_seconds();
            for (int rep = 0; rep < 10000; rep++)
                oxo_player_moves(p, oxo_start(g), mi);
            t[k] = (oxo_seconds() - t0) / 10000;
        }
        double e = median(t, 9);
        for (int k = 0; k < 9; k++) {
            double t0 = oxo_seconds();
            for (int rep = 0; rep < 10000; rep++)
                for (int m = 0; m < 3; m++) {
                    oxo_pos pos;
                    oxo_board_parse(g, mid[m], &pos, NULL);
                    oxo_player_moves(p, pos, mi);
                }
            t[k] = (oxo_seconds() - t0) / 10000;
        }
        double mg = median(t, 9);
        for (int k = 0; k < 5; k++) {
            double t0 = oxo_seconds();
            for (uint32_t i = 0; i < raw->n; i++)
                if (raw->status[i] == OXO_ONGOING)
                    oxo_player_moves(p, raw->pos[i], mi);
            t[k] = oxo_seconds() - t0;
        }
        printf("| table lookup | 0 | %s | 0 | %s | 0 | %s |\n\n", fmt_time(e, b1), fmt_time(mg, b2),
               fmt_time(median(t, 5), b3));
    }
    oxo_player_close(p);
    oxo_space_free(raw);
}

static double throughput(const oxo_player *truth, oxo_train_config *c, uint64_t episodes,
                         int threads)
{
    oxo_error err;
    double t[5];
    omp_set_num_threads(threads);
    for (int k = 0; k < 5; k++) {
        oxo_trainer *tr = oxo_trainer_new(c, truth, &err);
        double t0 = oxo_seconds();
        oxo_trainer_run(tr, episodes);
        t[k] = (double)episodes / (oxo_seconds() - t0);
        oxo_trainer_free(tr);
    }
    return median(t, 5);
}

static void bench_train(const char *table)
{
    oxo_error err;
    oxo_player *truth = oxo_player_open(table, &err);
    if (!truth)
        return;
    int cores = omp_get_num_procs();
    printf("## Training throughput (episodes per second, median of 5 runs)\n\n");
    printf("Same work on 1 and %d threads: %d workers, rounds of 100,000 episodes.\n\n", cores,
           cores);
    printf("| learner | 1 worker, 1 thread | %d workers, 1 thread | %d workers, %d threads | "
           "speed-up |\n",
           cores, cores, cores);
    printf("|---|---:|---:|---:|---:|\n");
    const char *names[4] = {"Q-learning, no replay", "Q-learning, default (replay 10,000 x 8)",
                            "TD(lambda), default", "TD(lambda), replay 1,000 x 2"};
    for (int k = 0; k < 4; k++) {
        oxo_train_config c;
        oxo_train_defaults(&c, k < 2 ? OXO_ALGO_Q : OXO_ALGO_TD);
        if (k == 0)
            c.replay_capacity = 0, c.replay_ratio = 0;
        if (k == 3)
            c.replay_capacity = 1000, c.replay_ratio = 2;
        uint64_t eps = k == 0 ? 4000000 : k == 2 ? 2000000 : 400000;
        c.workers = 1;
        double one = throughput(truth, &c, eps, 1);
        c.workers = (uint32_t)cores;
        c.sync = 100000;
        double w1 = throughput(truth, &c, eps, 1), wn = throughput(truth, &c, eps, cores);
        printf("| %s | %.2f M | %.2f M | %.2f M | %.2fx |\n", names[k], one / 1e6, w1 / 1e6,
               wn / 1e6, wn / w1);
    }
    omp_set_num_threads(cores);
    printf("\n## Episodes to perfect (100%% accuracy, 0 exhaustive losses), seeds 1-10, graded "
           "every 100\n\n");
    printf("| learner | median | worst | perfect runs |\n|---|---:|---:|---:|\n");
    for (int k = 0; k < 4; k++) {
        double etp[10];
        int perfect = 0;
        for (int seed = 1; seed <= 10; seed++) {
            oxo_train_config c;
            oxo_error e;
            oxo_train_defaults(&c, k < 2 ? OXO_ALGO_Q : OXO_ALGO_TD);
            if (k == 0)
                c.replay_capacity = 0, c.replay_ratio = 0;
            if (k == 3)
                c.replay_capacity = 1000, c.replay_ratio = 2;
            c.seed = (uint64_t)seed;
            oxo_trainer *tr = oxo_trainer_new(&c, truth, &e);
            etp[seed - 1] = 1e9;
            for (uint64_t ep = 100; ep <= 30000; ep += 100) {
                oxo_grade g;
                oxo_trainer_run(tr, ep);
                oxo_trainer_grade(tr, &g);
                if (oxo_grade_perfect(&g)) {
                    etp[seed - 1] = (double)ep;
                    perfect++;
                    break;
                }
            }
            oxo_trainer_free(tr);
        }
        double worst = 0;
        for (int i = 0; i < 10; i++)
            worst = etp[i] > worst ? etp[i] : worst;
        printf("| %s | %.0f | %s%.0f | %d/10 |\n", names[k], median(etp, 10),
               worst >= 1e9 ? ">" : "", worst >= 1e9 ? 30000.0 : worst, perfect);
    }
    printf("\n");
    oxo_player_close(truth);
}

#define QPOS    4096
#define QROUNDS 9

/* oxo-bench query TABLE: the time of one query in process, for any table. Positions are drawn by
 * random play from the start (seeded), then looked up many times; medians of 9 rounds. Prints
 * value ns (the entry of one position) and moves ns (every legal move's value: what a player
 * asks before it moves). */
static int bench_query(const char *path)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open(path, &err);
    if (!pl) {
        fprintf(stderr, "oxo-bench query: %s: %s\n", path, err.msg);
        return 1;
    }
    const oxo_game *g = oxo_player_game(pl);
    static oxo_pos pos[QPOS];
    uint64_t rng = oxo_rng_stream(7, 0);
    for (int i = 0; i < QPOS; i++) {
        oxo_pos p = oxo_start(g);
        int stop = (int)oxo_rng_below(&rng, (uint32_t)g->max_plies);
        for (int k = 0; k < stop && oxo_legal(g, p); k++) {
            p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)));
        }
        pos[i] = p;
    }
    double tv[QROUNDS], tm[QROUNDS];
    volatile int sink = 0;
    oxo_move_info mi[OXO_MAX_MOVES];
    for (int r = 0; r < QROUNDS; r++) {
        double t0 = oxo_seconds();
        for (int i = 0; i < QPOS; i++) {
            int v, d;
            sink += oxo_player_value(pl, pos[i], &v, &d) + v;
        }
        double t1 = oxo_seconds();
        for (int i = 0; i < QPOS; i++)
            sink += oxo_player_moves(pl, pos[i], mi);
        double t2 = oxo_seconds();
        tv[r] = (t1 - t0) / QPOS * 1e9;
        tm[r] = (t2 - t1) / QPOS * 1e9;
    }
    printf("%s: value %.0f ns, moves %.0f ns\n", g->spec, median(tv, QROUNDS), median(tm, QROUNDS));
    oxo_player_close(pl);
    return sink == 42 ? 3 : 0;
}

/* A table of Connect-4 against the reference solver (tests/c4ref.c, sharing nothing with oxo-gen):
 * `count` positions of at least `min_stones` stones drawn by random play (seed 1), each one's
 * score from the table's entry against the reference's. Exit 0 when every one agrees. */
static int bench_plycheck(const char *path, int count, int min_stones)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open(path, &err);
    if (!pl) {
        fprintf(stderr, "oxo-bench plycheck: %s: %s\n", path, err.msg);
        return 1;
    }
    const oxo_game *g = oxo_player_game(pl);
    c4ref *r = g->gravity ? c4ref_new(g->width, g->height) : NULL;
    if (!r) {
        fprintf(stderr, "oxo-bench plycheck: %s is no Connect-4 table\n", path);
        oxo_player_close(pl);
        return 1;
    }
    uint64_t rng = 1;
    int checked = 0, wrong = 0, nonzero = 0;
    while (checked < count) {
        int cols[64],
            k = 0,
            stop = min_stones + (int)oxo_rng_below(&rng, (uint32_t)(g->max_plies - min_stones));
        oxo_pos p = oxo_start(g);
        for (; k < stop && oxo_status_of(g, p) == OXO_ONGOING; k++) {
            int m = oxo_rng_bit(&rng, oxo_legal(g, p));
            cols[k] = m;
            p = oxo_play(g, p, m);
        }
        if (k < stop || oxo_status_of(g, p) != OXO_ONGOING)
            continue;
        int v, d, want;
        checked++;
        if (oxo_player_value(pl, p, &v, &d) || c4ref_solve(r, cols, k, &want)) {
            fprintf(stderr, "oxo-bench plycheck: a position of %d stones has no entry\n", k);
            wrong++;
            continue;
        }
        int got = oxo_c4_distance_score(g, v, d, k);
        if (got != want && wrong++ < 5)
            fprintf(stderr,
                    "oxo-bench plycheck: after %d stones the table says %d, the reference %d\n", k,
                    got, want);
        nonzero += want != 0;
    }
    printf("%s: %d positions of %d to %d stones, %d of them not drawn: the table and the reference "
           "solver agree on %d\n",
           g->spec, checked, min_stones, g->max_plies - 1, nonzero, checked - wrong);
    c4ref_free(r);
    oxo_player_close(pl);
    return wrong ? 1 : 0;
}

/* A mean time in s, ms or µs, three digits. */
static const char *fmt_secs(double t, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.3g %s",
             t >= 1      ? t
             : t >= 1e-3 ? t * 1e3
                         : t * 1e6,
             t >= 1      ? "s"
             : t >= 1e-3 ? "ms"
                         : "µs");
    return buf;
}

/* The Connect-4 solver on test sets built like the published ones (Pons): positions reached by
 * random play on 7x6 (not finished, no immediate win for the side to move), grouped by stones
 * played and by moves left to the end under perfect play, which the solve itself tells. Each
 * generator (end: 29-41 stones, middle: 15-28, begin: 12-14) fills its sets until they hold `cap`
 * positions or its seconds run out; nodes and time are those of the strong solve of each set's
 * positions, one transposition table of 64 MB kept from position to position. With `ref`, each
 * position is also solved by the reference solver (tests/c4ref.c: the published method alone),
 * its table kept across positions too, so that the two node counts compare on the same positions;
 * the scores must agree. */
static int bench_c4sets(int cap, double secs_end, double secs_mid, double secs_begin, int ref)
{
    char msg[200];
    oxo_game *g = oxo_game_open("connect4", NULL);
    oxo_c4solver *sv = oxo_c4solver_new(g, 64);
    c4ref *rs = ref ? c4ref_new(7, 6) : NULL;
    if (!g || !sv || (ref && !rs)) {
        fprintf(stderr, "oxo-bench c4sets: out of memory\n");
        return 1;
    }
    static const struct {
        const char *name;
        int lo, hi, left_lo, left_hi, band;
    } sets[6] = {{"end-easy", 29, 41, 0, 13, 0},       {"middle-easy", 15, 28, 0, 13, 1},
                 {"middle-medium", 15, 28, 14, 27, 1}, {"begin-easy", 12, 14, 0, 13, 2},
                 {"begin-medium", 12, 14, 14, 27, 2},  {"begin-hard", 12, 14, 28, 99, 2}};
    /* Begin positions are drawn from 12-14 stones: the earlier ones take minutes each here, and
     * a generator only looks at its clock between positions. */
    static const int band_lo[3] = {29, 15, 12}, band_hi[3] = {41, 28, 14};
    const double budget[3] = {secs_end, secs_mid, secs_begin};
    long count[6] = {0}, differ = 0;
    double nodes[6] = {0}, secs[6] = {0}, rnodes[6] = {0}, rsecs[6] = {0};
    uint64_t rng = 12345;
    /* The table's pages are touched once before any timing (calloc maps them lazily). */
    for (int i = 0; i < 200; i++) {
        oxo_pos p = oxo_start(g);
        int cols[64], k = 0, v;
        for (; k < 30 && oxo_status_of(g, p) == OXO_ONGOING; k++) {
            cols[k] = oxo_rng_bit(&rng, oxo_legal(g, p));
            p = oxo_play(g, p, cols[k]);
        }
        if (oxo_status_of(g, p) == OXO_ONGOING) {
            oxo_c4solve(sv, p, 0);
            if (rs)
                c4ref_solve(rs, cols, k, &v);
        }
    }
    for (int band = 0; band < 3; band++) {
        double start = oxo_seconds();
        for (;;) {
            int full = 1;
            for (int k = 0; k < 6; k++)
                full &= sets[k].band != band || count[k] >= cap;
            if (full || oxo_seconds() - start > budget[band])
                break;
            int stones = band_lo[band] +
                         (int)oxo_rng_below(&rng, (uint32_t)(band_hi[band] - band_lo[band] + 1));
            oxo_pos p = oxo_start(g);
            int k = 0, cols[64];
            for (; k < stones && oxo_status_of(g, p) == OXO_ONGOING; k++) {
                /* a move on Connect-4 is its column */
                cols[k] = oxo_rng_bit(&rng, oxo_legal(g, p));
                p = oxo_play(g, p, cols[k]);
            }
            if (k < stones || oxo_status_of(g, p) != OXO_ONGOING)
                continue;
            uint64_t legal = oxo_legal(g, p);
            int wins_now = 0;
            for (uint64_t l = legal; l; l &= l - 1)
                wins_now |= oxo_status_of(g, oxo_play(g, p, __builtin_ctzll(l))) == OXO_OVER_LOSS;
            if (wins_now)
                continue;
            uint64_t n0 = oxo_c4solver_nodes(sv);
            double t0 = oxo_seconds();
            int score = oxo_c4solve(sv, p, 0);
            double dt = oxo_seconds() - t0, rdt = 0;
            uint64_t rn = 0;
            if (rs) {
                int rscore = 0;
                uint64_t r0 = c4ref_nodes(rs);
                double t1 = oxo_seconds();
                differ += c4ref_solve(rs, cols, k, &rscore) || rscore != score;
                rdt = oxo_seconds() - t1;
                rn = c4ref_nodes(rs) - r0;
            }
            int left = oxo_c4_score_distance(g, score, stones);
            for (int s = 0; s < 6; s++)
                if (sets[s].band == band && left >= sets[s].left_lo && left <= sets[s].left_hi &&
                    count[s] < cap) {
                    count[s]++;
                    nodes[s] += (double)(oxo_c4solver_nodes(sv) - n0);
                    secs[s] += dt;
                    rnodes[s] += (double)rn;
                    rsecs[s] += rdt;
                }
        }
    }
    printf(
        "| set | stones played | moves left | positions | mean nodes | mean time | nodes/s |%s\n",
        rs ? " published method: nodes | time | oxo's nodes / its |" : "");
    printf("|---|---|---|---:|---:|---:|---:|%s\n", rs ? "---:|---:|---:|" : "");
    for (int s = 0; s < 6; s++) {
        if (!count[s]) {
            printf("| %s | %d-%d | %d-%d | 0 | - | - | - |%s\n", sets[s].name, sets[s].lo,
                   sets[s].hi, sets[s].left_lo, sets[s].left_hi, rs ? " - | - | - |" : "");
            continue;
        }
        double mn = nodes[s] / (double)count[s], mt = secs[s] / (double)count[s];
        printf("| %s | %d-%d | %d-%d | %ld | %.0f | %s | %.2f M |", sets[s].name, sets[s].lo,
               sets[s].hi, sets[s].left_lo, sets[s].left_hi, count[s], mn,
               fmt_secs(mt, msg, sizeof msg), secs[s] > 0 ? nodes[s] / secs[s] / 1e6 : 0.0);
        if (rs) {
            double rn = rnodes[s] / (double)count[s];
            printf(" %.0f | %s | %.2f |", rn,
                   fmt_secs(rsecs[s] / (double)count[s], msg, sizeof msg), rn > 0 ? mn / rn : 0.0);
        }
        printf("\n");
    }
    if (rs)
        printf("\nScores that differ between oxo's solver and the reference: %ld\n", differ);
    c4ref_free(rs);
    oxo_c4solver_free(sv);
    oxo_game_free(g);
    return differ ? 1 : 0;
}

/* The perfect player's move on 7x6: positions of lo to hi stones from a judged set (read by
 * oxo_judge_read, as oxo-train reads it), each timed twice in separate solvers, side by side: every
 * move's exact score (oxo_agent_scores, what --hints shows) and the pick (the best moves' scores
 * only). */
static int bench_c4pick(const char *judged, int lo, int hi, int count)
{
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4", &fault);
    oxo_agent *all = g ? oxo_agent_open(g, "solver", &fault) : NULL;
    oxo_agent *pick = g ? oxo_agent_open(g, "solver", &fault) : NULL;
    oxo_judge *j = all && pick ? oxo_judge_read(g, judged, &fault) : NULL;
    if (!j) {
        fprintf(stderr, "oxo-bench: c4pick: %s\n", fault.msg);
        return 1;
    }
    double t_all = 0, t_pick = 0;
    int n = 0, same = 0;
    for (uint32_t i = 0; n < count && i < j->n; i++) {
        oxo_pos p = j->pos[i].pos;
        if (oxo_ply(p) < lo || oxo_ply(p) > hi)
            continue;
        int score[OXO_MAX_MOVES], known[OXO_MAX_MOVES], best = -1;
        uint64_t rng = 1;
        double t0 = oxo_seconds();
        oxo_agent_scores(all, p, 0, score, known);
        double t1 = oxo_seconds();
        int m = oxo_agent_pick(pick, p, &rng);
        t_pick += oxo_seconds() - t1;
        t_all += t1 - t0;
        for (int c = 0; c < g->moves; c++)
            if (known[c] && (best < 0 || score[c] > score[best]))
                best = c;
        same += known[m] && score[m] == score[best];
        n++;
    }
    printf("  %d positions of %d-%d stones: every move's score %.3f s a position, the pick %.3f s: "
           "%.2fx"
           " (the pick a best move in %d of %d)\n",
           n, lo, hi, n ? t_all / n : 0, n ? t_pick / n : 0, t_pick > 0 ? t_all / t_pick : 0, same,
           n);
    oxo_judge_free(j);
    oxo_agent_free(all);
    oxo_agent_free(pick);
    oxo_game_free(g);
    return 0;
}

/* Agents' moves on the positions of a judged set of game spec: for each agent spec, the time of a
 * pick and the share of picks that keep the position's value by the set. So a search over a
 * network shows what it costs a move and what it buys, on the same positions. */
static int bench_agents(const char *spec, const char *judged, int count, int nspecs, char **specs)
{
    oxo_error fault;
    oxo_game *g = oxo_game_open(spec, &fault);
    oxo_judge *j = g ? oxo_judge_read(g, judged, &fault) : NULL;
    if (!j) {
        fprintf(stderr, "oxo-bench: agents: %s\n", fault.msg);
        oxo_game_free(g);
        return 1;
    }
    for (int k = 0; k < nspecs; k++) {
        oxo_agent *a = oxo_agent_open(g, specs[k], &fault);
        if (!a) {
            fprintf(stderr, "oxo-bench: agents: %s\n", fault.msg);
            oxo_judge_free(j);
            oxo_game_free(g);
            return 1;
        }
        double t = 0;
        int n = 0, kept = 0;
        for (uint32_t i = 0; n < count && i < j->n; i++, n++) {
            const oxo_judged *d = &j->pos[i];
            uint64_t rng = 1;
            double t0 = oxo_seconds();
            int m = oxo_agent_pick(a, d->pos, &rng);
            t += oxo_seconds() - t0;
            kept += m >= 0 && d->value[m] == d->best;
        }
        /* The spec with its files' folders cut, to fit a line (each file of an ensemble's). */
        char shown[200];
        size_t o = 0, seg = 0;
        for (const char *c = specs[k]; *c && o + 1 < sizeof shown; c++) {
            if (*c == '/') {
                o = seg;
                continue;
            }
            shown[o++] = *c;
            if (*c == '=' || *c == ':' || *c == '+')
                seg = o;
        }
        shown[o] = 0;
        printf("  %-44s %9.3f ms a move, the value kept in %5.1f%% of %d positions\n", shown,
               n ? 1000 * t / n : 0, n ? 100.0 * kept / n : 0, n);
        fflush(stdout);
        oxo_agent_free(a);
    }
    oxo_judge_free(j);
    oxo_game_free(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 6 && !strcmp(argv[1], "agents"))
        return bench_agents(argv[2], argv[3], atoi(argv[4]), argc - 5, argv + 5);
    if (argc == 6 && !strcmp(argv[1], "c4pick"))
        return bench_c4pick(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if ((argc == 6 || (argc == 7 && !strcmp(argv[6], "ref"))) && !strcmp(argv[1], "c4sets"))
        return bench_c4sets(atoi(argv[2]), atof(argv[3]), atof(argv[4]), atof(argv[5]), argc == 7);
    if (argc == 3 && !strcmp(argv[1], "query"))
        return bench_query(argv[2]);
    if (argc == 5 && !strcmp(argv[1], "plycheck"))
        return bench_plycheck(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc != 3) {
        fprintf(stderr, "usage: oxo-bench OXO_GEN TABLE | oxo-bench query TABLE | "
                        "oxo-bench c4sets CAP SECONDS_END SECONDS_MIDDLE SECONDS_BEGIN [ref] | "
                        "oxo-bench c4pick JUDGED_SET MIN_STONES MAX_STONES COUNT | "
                        "oxo-bench agents GAME JUDGED_SET COUNT SPEC...\n");
        return 2;
    }
    oxo_tictactoe();
    printf("# oxo bench (%d cores)\n\n", omp_get_num_procs());
    bench_gen(argv[1]);
    fflush(stdout);
    bench_lookup(argv[2]);
    fflush(stdout);
    bench_search(argv[2]);
    fflush(stdout);
    bench_train(argv[2]);
    return 0;
}
