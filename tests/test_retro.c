/*
 * The parallel generator (gen/retro.c) against an independent walker: a plain grid of characters,
 * its own win test (every line of K cells scanned), its own gravity, a hash of every position
 * reached and a memoised negamax with distance. On small boards of each family the two must agree
 * on every figure (positions by ply, finished positions) and on the value and distance of every
 * reachable position, read back through the table player from a format 2 table. The generator
 * must also give the same bytes on 1 and 2 threads. Games with a ply index (Connect-4) are solved
 * a ply at a time too (gen/plies.c), and that solve must agree with the walker the same way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "player.h"
#include "plies.h"
#include "plytable.h"
#include "retro.h"
#include "rng.h"
#include "solve.h"

typedef struct {
    uint64_t key; /* base 3 of the grid, + 1 (0: empty slot) */
    int8_t value, dist;
    uint8_t ply, terminal;
    oxo_pos pos;
} seen;

typedef struct {
    int W, H, K, gravity;
    char grid[8][8]; /* [row from the top][column]: '.', 'X' or 'O' */
    seen *slots;
    uint64_t mask; /* slots - 1 */
    uint64_t count, by_ply[65], terminal;
    const oxo_game *g;
} walker;

static uint64_t grid_key(const walker *w)
{
    uint64_t k = 0;
    for (int r = 0; r < w->H; r++)
        for (int c = 0; c < w->W; c++)
            k = 3 * k + (w->grid[r][c] == 'X' ? 1 : w->grid[r][c] == 'O' ? 2 : 0);
    return k + 1;
}

static seen *find(walker *w, uint64_t key, int *fresh)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 20;
    for (;; h++) {
        seen *s = &w->slots[h & w->mask];
        if (s->key == key) {
            *fresh = 0;
            return s;
        }
        if (!s->key) {
            s->key = key;
            *fresh = 1;
            return s;
        }
    }
}

/* K cells of one colour in a row, across, down or diagonally, anywhere on the grid. */
static int has_line(const walker *w, char who)
{
    static const int d[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < w->H; r++)
        for (int c = 0; c < w->W; c++)
            for (int k = 0; k < 4; k++) {
                int n = 0;
                while (n < w->K) {
                    int rr = r + n * d[k][0], cc = c + n * d[k][1];
                    if (rr < 0 || rr >= w->H || cc < 0 || cc >= w->W || w->grid[rr][cc] != who)
                        break;
                    n++;
                }
                if (n == w->K)
                    return 1;
            }
    return 0;
}

/* Value and distance for the side to move; every position reached is counted once. */
static void solve(walker *w, oxo_pos p, int ply, int *value, int *dist)
{
    int fresh;
    seen *s = find(w, grid_key(w), &fresh);
    if (!fresh) {
        *value = s->value, *dist = s->dist;
        return;
    }
    w->count++;
    w->by_ply[ply]++;
    s->ply = (uint8_t)ply;
    s->pos = p;
    char me = ply % 2 ? 'O' : 'X', they = ply % 2 ? 'X' : 'O';
    int v = -2, d = 0, term = 1;
    if (has_line(w, they)) {
        v = -1, d = 0;
    } else if (ply == w->W * w->H) {
        v = 0, d = 0;
    } else {
        term = 0;
        for (int c = 0; c < w->W; c++)
            for (int r = w->H - 1; r >= 0; r--) {
                if (w->grid[r][c] != '.')
                    continue;
                if (w->gravity && r + 1 < w->H && w->grid[r + 1][c] == '.')
                    continue; /* not the lowest free cell of its column */
                int move = w->gravity ? c : r * w->W + c, cv, cd;
                w->grid[r][c] = me;
                solve(w, oxo_play(w->g, p, move), ply + 1, &cv, &cd);
                w->grid[r][c] = '.';
                cv = -cv, cd++;
                if (cv > v || (cv == v && (cv < 0 ? cd > d : cd < d)))
                    v = cv, d = cd;
                if (w->gravity)
                    break;
            }
    }
    /* Slots never move (no resizing), so s is still this position's. */
    s->value = (int8_t)v, s->dist = (int8_t)d;
    s->terminal = (uint8_t)term;
    w->terminal += (uint64_t)term;
    *value = v, *dist = d;
}

/* A sink that saves plies as the table's does but fails at ply `stop`: a run killed there. */
typedef struct {
    oxo_plies_sink inner;
    int stop;
} failing;

static int fail_saved(void *ctx, int n)
{
    const failing *f = ctx;
    return f->inner.saved(f->inner.ctx, n);
}

static int fail_load(void *ctx, int n, const oxo_keyset *k, uint8_t *e, oxo_error *err)
{
    const failing *f = ctx;
    return f->inner.load(f->inner.ctx, n, k, e, err);
}

static int fail_save(void *ctx, int n, uint64_t lo, uint64_t hi, const oxo_keyset *k,
                     const uint8_t *e, oxo_error *err)
{
    const failing *f = ctx;
    if (n == f->stop)
        return oxo_fail(err, OXO_E_IO, "killed at ply %d", n);
    return f->inner.save(f->inner.ctx, n, lo, hi, k, e, err);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *d;
    oxo_error err;
    if (oxo_read_file(path, 1u << 30, &d, len, &err))
        fail_msg("%s", err.msg);
    return d;
}

static void spill(const char *path, const uint8_t *d, size_t len)
{
    FILE *o = fopen(path, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(d, 1, len, o), len);
    fclose(o);
}

/* A table in blocks damaged: cut short or with bytes after its blocks, refused when it opens; a
 * block altered, refused when it is read (its checksum), by the reader and by the player, which
 * then has no entry rather than a wrong one. */
static void hostile_ply_table(const char *path)
{
    size_t len;
    uint8_t *d = slurp(path, &len);
    char bad[96];
    snprintf(bad, sizeof bad, "%s.bad", path);
    oxo_table *t;
    oxo_error err;
    spill(bad, d, len - 3);
    assert_int_equal(oxo_table_open(bad, &t, &err), OXO_E_TRUNCATED);
    assert_non_null(strstr(err.msg, "the head places its blocks up to byte"));
    assert_null(oxo_player_open(bad, &err));
    uint8_t *more = malloc(len + 2);
    assert_non_null(more);
    memcpy(more, d, len);
    more[len] = more[len + 1] = 0;
    spill(bad, more, len + 2);
    free(more);
    assert_int_equal(oxo_table_open(bad, &t, &err), OXO_E_TRAILING);
    /* The last block's content (before its 4-byte checksum) altered. */
    d[len - 6] ^= 0x40;
    spill(bad, d, len);
    assert_int_equal(oxo_table_open(bad, &t, &err), OXO_OK);
    const uint32_t last = t->nplies - 1;
    const uint64_t num = t->ply_numbers[last] - 1;
    uint8_t e;
    int rc = oxo_table_entry_at(t, last, num, &e, &err);
    assert_true(rc == OXO_E_CHECKSUM || rc == OXO_E_FRAME);
    assert_non_null(strstr(err.msg, "block"));
    assert_int_equal(oxo_table_entry_at(t, last, num + 1, &e, &err), OXO_E_ARG);
    oxo_table_free(t);
    free(d);
    /* A head of 8 MiB (random bytes after the game: a frame too large for the ratio to refuse)
     * claimed by a table of connect4:4,4, whose blocks' places take a few kilobytes: refused by
     * the player before it is decompressed. */
    const size_t blen = 8u << 20;
    uint8_t *body = calloc(1, blen), *file;
    size_t flen;
    assert_non_null(body);
    memcpy(body,
           "\x81\xa4"
           "game"
           "\xac"
           "connect4:4,4",
           19);
    uint64_t rng = 5;
    for (size_t i = 19; i < (64u << 10); i++)
        body[i] = (uint8_t)oxo_rng_next(&rng);
    assert_int_equal(oxo_container_encode(OXO_KIND_TABLE, 3, 0, body, blen, &file, &flen, &err), 0);
    spill(bad, file, flen);
    assert_null(oxo_player_open(bad, &err));
    if (err.code != OXO_E_GAME)
        fail_msg("%s", err.msg);
    assert_non_null(strstr(err.msg, "refused before it is decompressed"));
    free(body);
    free(file);
    unlink(bad);
}

/* The table a ply at a time (format 3, gen/plytable.c), in small blocks so that plies span
 * several and end inside one: read back through the player, every position the walker reached
 * has the walker's value and distance; a run killed at a middle ply and resumed gives the same
 * bytes as a straight run; the plies a run left are refused without --resume, and one that was
 * altered is refused with it. */
static void check_ply_table(const oxo_game *g, const walker *w)
{
    char dir[] = "/tmp/oxo-test-plies-XXXXXX", path[64], again[80], ply[96];
    if (!mkdtemp(dir))
        fail_msg("mkdtemp");
    snprintf(path, sizeof path, "%s/t.oxt", dir);
    snprintf(again, sizeof again, "%s/resumed.oxt", dir);
    oxo_error err;
    uint64_t bytes;
    oxo_plytable *pt = oxo_plytable_open(g, path, 256, 0, &err);
    assert_non_null(pt);
    oxo_plies_sink sink = oxo_plytable_sink(pt);
    oxo_plies *s = oxo_plies_solve(g, 0, &sink, &err);
    assert_non_null(s);
    if (oxo_plytable_finish(pt, s, &bytes, &err))
        fail_msg("%s: %s", g->spec, err.msg);
    oxo_plytable_close(pt);
    oxo_plies_free(s);
    snprintf(ply, sizeof ply, "%s.ply-0", path);
    assert_int_not_equal(access(ply, F_OK), 0); /* the ply files are gone */
    oxo_player *pl = oxo_player_open(path, &err);
    if (!pl)
        fail_msg("%s: %s", g->spec, err.msg);
    assert_string_equal(oxo_player_source(pl), "ply table");
    for (uint64_t i = 0; i <= w->mask; i++) {
        const seen *v = &w->slots[i];
        if (!v->key)
            continue;
        int e = oxo_player_entry(pl, v->pos);
        if (e < 0 || OXO_ENTRY_VALUE(e) != v->value || OXO_ENTRY_DISTANCE(e) != v->dist)
            fail_msg("%s: a position of ply %d: the table %d (%d in %d), the walker %d in %d",
                     g->spec, v->ply, e, OXO_ENTRY_VALUE(e), OXO_ENTRY_DISTANCE(e), v->value,
                     v->dist);
    }
    oxo_player_close(pl);
    hostile_ply_table(path);

    /* Killed at the middle ply, then resumed. */
    const int mid = g->max_plies / 2;
    pt = oxo_plytable_open(g, again, 256, 0, &err);
    assert_non_null(pt);
    failing f = {oxo_plytable_sink(pt), mid};
    oxo_plies_sink dying = {&f, fail_saved, fail_load, fail_save};
    assert_null(oxo_plies_solve(g, 0, &dying, &err));
    oxo_plytable_close(pt);
    assert_null(oxo_plytable_open(g, again, 256, 0, &err)); /* no --resume: refused */
    assert_non_null(strstr(err.msg, "--resume"));
    pt = oxo_plytable_open(g, again, 256, 1, &err);
    assert_non_null(pt);
    sink = oxo_plytable_sink(pt);
    s = oxo_plies_solve(g, 0, &sink, &err);
    assert_non_null(s);
    assert_int_equal(s->resumed, g->max_plies - mid);
    assert_int_equal(oxo_plytable_finish(pt, s, &bytes, &err), 0);
    oxo_plytable_close(pt);
    oxo_plies_free(s);
    size_t la, lb;
    uint8_t *a = slurp(path, &la), *b = slurp(again, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    free(a);
    free(b);

    /* A ply file altered (one byte of its last block) is refused when resumed. */
    pt = oxo_plytable_open(g, again, 256, 0, &err);
    f = (failing){oxo_plytable_sink(pt), mid};
    assert_null(oxo_plies_solve(g, 0, &dying, &err));
    oxo_plytable_close(pt);
    snprintf(ply, sizeof ply, "%s.ply-%d", again, mid + 1);
    size_t lp;
    uint8_t *d = slurp(ply, &lp);
    d[lp - 6] ^= 0x40;
    spill(ply, d, lp);
    free(d);
    pt = oxo_plytable_open(g, again, 256, 1, &err);
    sink = oxo_plytable_sink(pt);
    assert_null(oxo_plies_solve(g, 0, &sink, &err));
    assert_non_null(strstr(err.msg, "is not ply"));
    oxo_plytable_close(pt);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The estimate's test of reachability (oxo_plies_reaches) on every number of every ply, against
 * the walker's positions: a board is reached exactly when the walker met it. Then the estimate's
 * figures, with every number of each ply drawn (as many samples as the largest ply), are the
 * walker's counts. */
static void check_reaches(const oxo_game *g, const walker *w)
{
    uint64_t *codes = malloc(w->count * sizeof *codes), n = 0, largest = 0;
    assert_non_null(codes);
    for (uint64_t i = 0; i <= w->mask; i++)
        if (w->slots[i].key)
            codes[n++] = oxo_code(g, w->slots[i].pos);
    qsort(codes, n, sizeof *codes, cmp_u64);
    oxo_reacher *r = oxo_reacher_new();
    assert_non_null(r);
    for (int ply = 0; ply <= g->max_plies; ply++) {
        const uint64_t size = g->ops->ply_size(g, ply);
        largest = size > largest ? size : largest;
        for (uint64_t num = 0; num < size; num++) {
            oxo_pos p = g->ops->ply_unrank(g, ply, num, NULL);
            uint64_t c = oxo_code(g, p);
            int walked = oxo_sorted_find(codes, 0, n, c) >= 0;
            if (oxo_plies_reaches(r, g, p) != walked)
                fail_msg("%s: number %llu of ply %d: reached %d, the walker %d", g->spec,
                         (unsigned long long)num, ply, !walked, walked);
        }
    }
    free(codes);
    oxo_reacher_free(r);
    oxo_plies_cost c;
    assert_int_equal(oxo_plies_cost_of(g, (int)largest, 1, 1, &c), 0);
    assert_true(c.positions == (double)w->count);
}

/* The solve a ply at a time against the walker: every figure, every position's entry, and the
 * same bytes on 1 and 2 threads. */
static void check_plies(const oxo_game *g, const walker *w)
{
    oxo_error err;
    oxo_plies *s = oxo_plies_solve(g, 0, NULL, &err);
    if (!s)
        fail_msg("%s: %s", g->spec, err.msg);
    assert_int_equal(s->counts.positions, w->count);
    assert_int_equal(s->counts.terminal_positions, w->terminal);
    for (int i = 0; i <= 64; i++)
        if (s->by_ply[i] != w->by_ply[i])
            fail_msg("%s: ply %d: %llu positions a ply at a time, the walker finds %llu", g->spec,
                     i, (unsigned long long)s->by_ply[i], (unsigned long long)w->by_ply[i]);
    for (uint64_t i = 0; i <= w->mask; i++) {
        const seen *v = &w->slots[i];
        uint8_t e;
        if (!v->key)
            continue;
        if (oxo_plies_entry(s, v->pos, &e) != 0 || OXO_ENTRY_VALUE(e) != v->value ||
            OXO_ENTRY_DISTANCE(e) != v->dist)
            fail_msg("%s: a position of ply %d: a ply at a time %d in %d, the walker %d in %d",
                     g->spec, v->ply, OXO_ENTRY_VALUE(e), OXO_ENTRY_DISTANCE(e), v->value, v->dist);
    }
    /* Small boards stay on one thread unless the bar for a team is lowered: a team of 2 here. */
    int threads = omp_get_max_threads();
    setenv("OXO_RETRO_PARALLEL_WORDS", "1", 1);
    omp_set_num_threads(2);
    oxo_plies *s2 = oxo_plies_solve(g, 0, NULL, &err);
    omp_set_num_threads(threads);
    unsetenv("OXO_RETRO_PARALLEL_WORDS");
    assert_non_null(s2);
    for (int n = 0; n <= s->max_ply; n++) {
        assert_int_equal(s2->keys[n].count, s->keys[n].count);
        assert_memory_equal(s2->keys[n].words, s->keys[n].words, 8 * s->keys[n].nwords);
        assert_memory_equal(s2->entries[n], s->entries[n], s->keys[n].count);
    }
    oxo_plies_free(s2);
    oxo_plies_free(s);
    check_ply_table(g, w);
    check_reaches(g, w);
}

static void check_game(const char *spec, uint64_t published)
{
    oxo_error fault;
    oxo_game *g = oxo_game_open(spec, &fault);
    assert_non_null(g);
    walker *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->W = g->width, w->H = g->height, w->K = g->k, w->gravity = g->gravity, w->g = g;
    w->mask = (1u << 21) - 1;
    w->slots = calloc(w->mask + 1, sizeof *w->slots);
    assert_non_null(w->slots);
    memset(w->grid, '.', sizeof w->grid);
    int v, d;
    solve(w, oxo_start(g), 0, &v, &d);
    if (published)
        assert_int_equal(w->count, published);

    oxo_retro *r = oxo_retro_solve(g, 0, 1, &fault);
    assert_non_null(r);
    assert_int_equal(r->counts.positions, w->count);
    assert_int_equal(r->counts.terminal_positions, w->terminal);
    for (int i = 0; i <= 64; i++)
        if (r->by_ply[i] != w->by_ply[i])
            fail_msg("%s: ply %d: %llu positions, the walker finds %llu", spec, i,
                     (unsigned long long)r->by_ply[i], (unsigned long long)w->by_ply[i]);
    /* Every position through the table player, from a format 2 table written and read back. */
    oxo_table t;
    oxo_retro_table(r, &t);
    char path[128];
    snprintf(path, sizeof path, "/tmp/oxo-test-retro-%d.oxt", (int)getpid());
    oxo_error err;
    assert_int_equal(oxo_table_write(path, &t, &err), OXO_OK);
    oxo_player *pl = oxo_player_open(path, &err);
    if (!pl)
        fail_msg("%s: %s", spec, err.msg);
    for (uint64_t i = 0; i <= w->mask; i++) {
        const seen *s = &w->slots[i];
        int tv, td;
        if (!s->key)
            continue;
        if (oxo_player_value(pl, s->pos, &tv, &td) != 0 || tv != s->value || td != s->dist)
            fail_msg("%s: a position of ply %d: the table says %d in %d, the walker %d in %d", spec,
                     s->ply, tv, td, s->value, s->dist);
    }
    oxo_player_close(pl);
    remove(path);

    /* The same bytes whatever the number of threads. */
    int threads = omp_get_max_threads();
    omp_set_num_threads(threads > 1 ? 1 : 2);
    oxo_retro *r2 = oxo_retro_solve(g, 0, 1, &fault);
    omp_set_num_threads(threads);
    assert_non_null(r2);
    assert_int_equal(r2->keys.count, r->keys.count);
    assert_memory_equal(r2->keys.words, r->keys.words, 8 * r->keys.nwords);
    assert_memory_equal(r2->entries, r->entries, r->keys.count);
    assert_memory_equal(&r2->counts, &r->counts, sizeof r->counts);
    oxo_retro_free(r2);
    oxo_retro_free(r);
    if (g->ops->ply_size)
        check_plies(g, w);
    free(w->slots);
    free(w);
    oxo_game_free(g);
}

static void tictactoe(void **state)
{
    (void)state;
    check_game("tictactoe", 5478);
}

static void connect4_4x4(void **state)
{
    (void)state;
    check_game("connect4:4,4", 161029);
}

static void connect4_small(void **state)
{
    (void)state;
    check_game("connect4:3,4", 0);
    check_game("connect4:5,3", 0);
}

static void mnk_rectangles(void **state)
{
    (void)state;
    check_game("mnk:3,4,3", 0);
    check_game("mnk:4,3,3", 0);
    check_game("mnk:2,5,2", 0);
}

/* The format 1 solver (over an enumerated space, gen/solve.c) and the parallel one agree. */
static void both_solvers_agree(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_error err;
    oxo_error fault;
    oxo_player *one = oxo_player_from_table(oxo_build_table(g), &err);
    oxo_retro *r = oxo_retro_solve(g, 0, 1, &fault);
    assert_non_null(one);
    assert_non_null(r);
    oxo_space *raw = oxo_space_build(g, 0);
    assert_non_null(raw);
    oxo_table t;
    oxo_retro_table(r, &t);
    assert_memory_equal(&t.counts, &oxo_player_table(one)->counts, sizeof t.counts);
    for (uint32_t i = 0; i < raw->n; i++) {
        int64_t k = oxo_keyset_rank(&r->keys, oxo_code(g, oxo_canonical(g, raw->pos[i], NULL)));
        int v, d;
        assert_true(k >= 0);
        assert_int_equal(oxo_player_value(one, raw->pos[i], &v, &d), 0);
        assert_int_equal(OXO_ENTRY_VALUE(r->entries[k]), v);
        assert_int_equal(OXO_ENTRY_DISTANCE(r->entries[k]), d);
    }
    oxo_space_free(raw);
    oxo_retro_free(r);
    oxo_player_close(one);
}

/* The ply index numbers every board of a legal count of stones once: unranking and ranking again
 * gives the number back on every number of every ply, the board has the ply's stones with X's
 * share of them and no stone above a gap, and the sizes are the boards counted another way
 * (positions_most, column heights times colourings). */
static void ply_index_round_trip(void **state)
{
    (void)state;
    /* 2,10: columns too tall for the colour rank's table (the loop instead). */
    const char *specs[] = {"connect4:4,4", "connect4:5,3", "connect4:3,5",
                           "connect4:1,1", "connect4:2,2", "connect4:2,10"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[i], &err);
        assert_non_null(g);
        for (int n = 0; n <= g->cells; n++) {
            uint64_t size = g->ops->ply_size(g, n);
            assert_int_equal(size, g->ops->positions_most(g, n));
            oxo_ply_hint hint = {.ply = -1};
            for (uint64_t k = 0; k < size; k++) {
                /* Every number alone, and walking upwards with a hint, one step or three. */
                oxo_pos p = g->ops->ply_unrank(g, n, k, NULL);
                if (k % 3 == 0 || k % 7 < 3) {
                    oxo_pos q = g->ops->ply_unrank(g, n, k, &hint);
                    assert_memory_equal(&q, &p, sizeof p);
                }
                uint64_t x = oxo_x_to_move(g, p) ? p.me : p.opp;
                if (oxo_ply(p) != n || oxo_popcount(x) != (n + 1) / 2 || (p.me & p.opp) ||
                    g->ops->ply_rank(g, p, NULL) != k)
                    fail_msg("%s: ply %d, number %llu: a wrong board", specs[i], n,
                             (unsigned long long)k);
                /* Gravity: every column's stones are its lowest cells (mask + bottoms carries
                 * one bit per column just above them). */
                oxo_pos back = oxo_decode(g, oxo_code(g, p));
                assert_memory_equal(&back, &p, sizeof p);
                /* The canonical number is the number of oxo_canonical's image. */
                int sym, want;
                oxo_pos c = oxo_canonical(g, p, &want);
                if (g->ops->ply_rank(g, p, &sym) != g->ops->ply_rank(g, c, NULL) || sym != want)
                    fail_msg("%s: ply %d, number %llu: a wrong canonical number", specs[i], n,
                             (unsigned long long)k);
                /* All children at once equal each child ranked alone. */
                uint64_t legal = oxo_legal(g, p), nums[64];
                if (g->ops->ply_children && legal) {
                    int kids = g->ops->ply_children(g, p, legal, nums);
                    assert_int_equal(kids, oxo_popcount(legal));
                    for (int j = 0; legal; legal &= legal - 1, j++)
                        if (nums[j] !=
                            g->ops->ply_rank(g, oxo_play(g, p, __builtin_ctzll(legal)), &sym))
                            fail_msg("%s: ply %d, number %llu: child %d numbered wrong", specs[i],
                                     n, (unsigned long long)k, j);
                }
            }
        }
        oxo_game_free(g);
    }
    /* A game without one is refused by the solve a ply at a time. */
    oxo_error err;
    assert_null(oxo_plies_solve(oxo_tictactoe(), 0, NULL, &err));
}

/* Boards past the walker's reach: the ply path's entry of every position equals the bitmap of
 * codes' (the path of today's tables), position by position, on 5x4 and 4x5. */
static void both_paths_agree(void **state)
{
    (void)state;
    static const char *const specs[] = {"connect4:5,4", "connect4:4,5"};
    for (int k = 0; k < 2; k++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[k], &err);
        assert_non_null(g);
        oxo_retro *r = oxo_retro_solve(g, 0, 0, &err);
        oxo_plies *s = oxo_plies_solve(g, 0, NULL, &err);
        assert_non_null(r);
        assert_non_null(s);
        assert_int_equal(s->counts.canonical_positions, r->counts.canonical_positions);
        const int64_t nblocks = (int64_t)(r->keys.nwords / OXO_KEYSET_BLOCK);
        uint64_t differ = 0, checked = 0;
        for (int64_t blk = 0; blk < nblocks; blk++)
            OXO_KEYSET_MEMBERS(&r->keys, blk, code, idx, {
                uint8_t e;
                checked++;
                if (oxo_plies_entry(s, oxo_decode(g, code), &e) || e != r->entries[idx])
                    differ++;
            });
        if (differ || checked != r->counts.canonical_positions)
            fail_msg("%s: %llu of %llu positions differ between the two paths", specs[k],
                     (unsigned long long)differ, (unsigned long long)checked);
        oxo_plies_free(s);
        oxo_retro_free(r);
        oxo_game_free(g);
    }
}

/* The measured run of the last plies (oxo-gen --estimate --check-plies) against the whole solve:
 * every ply's counts, and the last plies' members and entries byte for byte, down to every ply;
 * and on 1 and 2 threads. A count of plies the game has not is refused. */
static void last_plies_agree(void **state)
{
    (void)state;
    static const char *const specs[] = {"connect4:4,4", "connect4:5,4"};
    for (int k = 0; k < 2; k++) {
        oxo_error err;
        oxo_game *g = oxo_game_open(specs[k], &err);
        assert_non_null(g);
        oxo_plies *s = oxo_plies_solve(g, 0, NULL, &err);
        assert_non_null(s);
        const int lasts[] = {1, 3, g->max_plies + 1};
        for (int j = 0; j < 3; j++) {
            oxo_plies_timing t;
            const int threads = omp_get_max_threads();
            if (j == 1 && k == 1) { /* a team of 2 threads on the small plies */
                setenv("OXO_RETRO_PARALLEL_WORDS", "1", 1);
                omp_set_num_threads(2);
            }
            oxo_plies *l = oxo_plies_last(g, lasts[j], 0, NULL, &t, &err);
            unsetenv("OXO_RETRO_PARALLEL_WORDS");
            omp_set_num_threads(threads);
            if (!l)
                fail_msg("%s, last %d: %s", specs[k], lasts[j], err.msg);
            assert_int_equal(l->max_ply, s->max_ply);
            assert_int_equal(t.first, g->max_plies + 1 - lasts[j]);
            for (int n = 0; n <= s->max_ply; n++) {
                assert_int_equal(l->canon_by_ply[n], s->canon_by_ply[n]);
                assert_int_equal(l->by_ply[n], s->by_ply[n]);
                if (n < t.first) {
                    assert_null(l->entries[n]);
                    continue;
                }
                assert_int_equal(l->keys[n].count, s->keys[n].count);
                assert_memory_equal(l->keys[n].words, s->keys[n].words, 8 * s->keys[n].nwords);
                assert_memory_equal(l->entries[n], s->entries[n], s->keys[n].count);
                assert_true(t.seconds[n] >= 0);
            }
            /* what it held at most is its model's figure, given the counts */
            double canon[OXO_MAX_MOVES + 1] = {0};
            for (int n = 0; n <= s->max_ply; n++)
                canon[n] = (double)s->canon_by_ply[n];
            assert_int_equal(l->peak_bytes, (uint64_t)oxo_plies_last_bytes(g, lasts[j], canon));
            oxo_plies_free(l);
        }
        oxo_plies_timing t;
        assert_null(oxo_plies_last(g, 0, 0, NULL, &t, &err));
        assert_null(oxo_plies_last(g, g->max_plies + 2, 0, NULL, &t, &err));
        assert_non_null(strstr(err.msg, "last plies"));
        oxo_plies_free(s);
        oxo_game_free(g);
    }
}

OXO_TEST_MAIN(cmocka_unit_test(ply_index_round_trip), cmocka_unit_test(tictactoe),
              cmocka_unit_test(connect4_4x4), cmocka_unit_test(connect4_small),
              cmocka_unit_test(mnk_rectangles), cmocka_unit_test(both_solvers_agree),
              cmocka_unit_test(both_paths_agree), cmocka_unit_test(last_plies_agree))
