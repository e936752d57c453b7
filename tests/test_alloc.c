/*
 * Allocation faults: the Nth allocation fails, for N = 1, 2, ... until a run needs fewer, in the
 * readers (tables and models, zstd and msgpack-c included: they are linked statically here and
 * malloc is wrapped at link time) and in the trainer (create, train, grade, save). Each failure
 * must give a clean error; under the sanitizer build LeakSanitizer checks at exit that nothing
 * leaked on any of those paths. The puct agent, whose tree grows as it searches, still plays a
 * legal move when any of its allocations fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oxotest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "readme.h"
#include "train.h"

/* The range of allocations seen, for the check of tests/TESTING.md. */
static long reader_min, reader_max, trainer_min, trainer_max;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);

static long fail_at = -1, calls;

static int fail_now(void)
{
    return fail_at >= 0 && ++calls == fail_at;
}
void *__wrap_malloc(size_t n)
{
    return fail_now() ? NULL : __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t m)
{
    return fail_now() ? NULL : __real_calloc(n, m);
}
void *__wrap_realloc(void *p, size_t n)
{
    return fail_now() ? NULL : __real_realloc(p, n);
}
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return fail_now() ? NULL : __real_aligned_alloc(align, n);
}

static void arm(long n)
{
    calls = 0;
    fail_at = n;
}

/* True when the run just made used fewer than fail_at allocations: nothing was failed. */
static int untouched(void)
{
    int done = calls < fail_at;
    fail_at = -1;
    return done;
}

static void reader_faults(const char *path)
{
    long n;
    int failures = 0;
    for (n = 1;; n++) {
        oxo_error err = {0};
        arm(n);
        oxo_player *p = oxo_player_open(path, &err);
        int done = untouched();
        if (!p) {
            if (err.code == OXO_OK || strlen(err.msg) < 5)
                fail_msg("%s: allocation %ld failed without a message", path, n);
            failures++;
        } else {
            oxo_player_close(p);
        }
        if (done)
            break;
        if (n > 100000)
            fail_msg("%s: never done", path);
    }
    printf("%s: %ld allocations, %d refused cleanly when one failed\n", path, n - 1, failures);
    reader_min = reader_min && reader_min < n - 1 ? reader_min : n - 1;
    reader_max = reader_max > n - 1 ? reader_max : n - 1;
    assert_true(failures > 5);
}

static void readers(void **state)
{
    (void)state;
    oxo_tictactoe();
    reader_faults(OXO_DATA "/tictactoe.oxt");
    reader_faults(OXO_DATA "/td.oxm");
    reader_faults(OXO_DATA "/q.oxm");
}

static void trainer(void **state)
{
    (void)state;
    oxo_error err;
    oxo_player *truth = oxo_player_open(OXO_DATA "/tictactoe.oxt", &err);
    assert_non_null(truth);
    char path[128];
    snprintf(path, sizeof path, "/tmp/oxo-test-alloc-%d.oxm", (int)getpid());
    for (int algo = 0; algo < 2; algo++) {
        long n;
        int failures = 0;
        for (n = 1;; n++) {
            oxo_train_config c;
            oxo_error fault = {0};
            oxo_train_defaults(&c, (oxo_algo)algo);
            c.workers = 2;
            c.replay_capacity = 50;
            c.replay_ratio = 1;
            arm(n);
            int failed = 0;
            oxo_trainer *t = oxo_trainer_new(&c, truth, &fault);
            if (!t) {
                assert_int_equal(fault.code, OXO_E_NOMEM);
                failed = 1;
            } else {
                oxo_trainer_run(t, 300);
                oxo_grade g;
                if (oxo_trainer_grade(t, &g) != 0) {
                    failed = 1;
                } else {
                    oxo_model *m = oxo_trainer_model(t, &g, NULL);
                    if (!m) {
                        failed = 1;
                    } else {
                        oxo_error e = {0};
                        if (oxo_model_write(path, m, &e) != OXO_OK) {
                            assert_true(e.code != OXO_OK && strlen(e.msg) > 5);
                            failed = 1;
                        }
                        oxo_model_free(m);
                    }
                }
                oxo_trainer_free(t);
            }
            int done = untouched();
            failures += failed;
            if (done)
                break;
            assert_true(failed); /* an allocation failed: the run must have said so */
        }
        printf("trainer (%s): %ld allocations, %d failures reported cleanly\n", algo ? "td" : "q",
               n - 1, failures);
        assert_true(failures > 20);
        trainer_min = trainer_min && trainer_min < n - 1 ? trainer_min : n - 1;
        trainer_max = trainer_max > n - 1 ? trainer_max : n - 1;
    }
    remove(path);
    oxo_player_close(truth);
}

/* puct grows its tree as the search uses it (doubling from 256 nodes): a failure before the search
 * plays the file's best move, one in the middle plays from the tree searched so far; either way a
 * legal move, and nothing leaks. Unfailed, the pick is the one of an unarmed run. */
static void puct_tree(void **state)
{
    (void)state;
    const oxo_game *g = oxo_tictactoe();
    oxo_error fault;
    oxo_agent *a = oxo_agent_open(g, "puct:3000:value=" OXO_DATA "/tictactoe.oxt", &fault);
    assert_non_null(a);
    oxo_pos p = oxo_start(g);
    uint64_t rng = 1;
    int want = oxo_agent_pick(a, p, &rng);
    long n;
    for (n = 1;; n++) {
        arm(n);
        uint64_t r = 1;
        int m = oxo_agent_pick(a, p, &r);
        int done = untouched();
        if (m < 0 || m >= g->moves || !(oxo_legal(g, p) >> m & 1))
            fail_msg("allocation %ld failed: move %d is not legal", n, m);
        if (done) {
            assert_int_equal(m, want);
            break;
        }
    }
    printf("puct:3000: %ld allocations a pick\n", n - 1);
    assert_true(n - 1 >= 6); /* the two arrays, each grown at least twice */
    oxo_agent_free(a);
}

static void readme_is_current(void **state)
{
    (void)state;
    char text[160];
    snprintf(text, sizeof text, "readers: %ld-%ld allocations per file; trainer: %ld-%ld per run",
             reader_min, reader_max, trainer_min, trainer_max);
    readme_quotes(text);
}

OXO_TEST_MAIN(cmocka_unit_test(readers), cmocka_unit_test(trainer), cmocka_unit_test(puct_tree),
              cmocka_unit_test(readme_is_current))
