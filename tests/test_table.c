/*
 * The table file: round trip, deterministic bytes equal to the shipped data/tictactoe.oxt, size,
 * atomic writes, and every refusal of the reader on the broken fixtures of tests/fixtures/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "player.h"
#include "retro.h"
#include "solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/oxo-test-table-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    return system(cmd);
}

static void round_trip(void **state)
{
    (void)state;
    oxo_table *t = oxo_build_table(oxo_tictactoe()), *back;
    char path[300];
    oxo_error err;
    snprintf(path, sizeof path, "%s/t.oxt", tmpdir);
    assert_int_equal(oxo_table_write(path, t, &err), OXO_OK);
    assert_int_equal(oxo_table_read(path, &back, &err), OXO_OK);
    assert_string_equal(back->game, "tictactoe");
    assert_int_equal(back->rows, 3);
    assert_int_equal(back->cols, 3);
    assert_string_equal(back->index, "ply-code");
    assert_true(back->symmetric);
    assert_int_equal(back->n, 765);
    assert_memory_equal(back->entries, t->entries, 765);
    assert_memory_equal(&back->counts, &t->counts, sizeof t->counts);
    assert_string_equal(back->root_value, "draw");
    assert_int_equal(back->minor, 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size <= 1024);
    oxo_table_free(back);
    oxo_table_free(t);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *d;
    assert_int_equal(oxo_read_file(path, 1 << 20, &d, len, NULL), OXO_OK);
    return d;
}

/* Format 2, as oxo-gen writes it: bitmap and entries read back as written, and the file small
 * (at most 3 bytes per canonical position). */
static void round_trip_bitmap(void **state)
{
    (void)state;
    char path[300];
    oxo_error fault;
    oxo_error err;
    oxo_retro *r = oxo_retro_solve(oxo_tictactoe(), 0, 1, &fault);
    assert_non_null(r);
    oxo_table t, *back;
    oxo_retro_table(r, &t);
    snprintf(path, sizeof path, "%s/t2.oxt", tmpdir);
    assert_int_equal(oxo_table_write(path, &t, &err), OXO_OK);
    assert_int_equal(oxo_table_read(path, &back, &err), OXO_OK);
    assert_int_equal(back->major, 2);
    assert_string_equal(back->index, "code-bitmap");
    assert_int_equal(back->n, 765);
    assert_int_equal(back->code_space, 19683);
    assert_memory_equal(back->keys, t.keys, 8 * t.nwords);
    assert_memory_equal(back->entries, t.entries, 765);
    assert_memory_equal(&back->counts, &t.counts, sizeof t.counts);
    assert_int_equal(back->nplies, 10);
    assert_true(back->tree);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size <= 3 * 765);
    oxo_table_free(back);
    oxo_retro_free(r);
}

/* A format 2 table cannot be checked entry by entry without solving the game, but a table of
 * another game with the same board and codes (4x3, 3 in a row, relabelled 4 in a row), or with
 * one entry changed on the way of the sampled games, is refused. */
static void bitmap_tables_are_sampled(void **state)
{
    (void)state;
    char path[300];
    oxo_error fault;
    oxo_error err;
    oxo_game *g = oxo_game_open("mnk:4,3,3", &fault);
    oxo_retro *r = oxo_retro_solve(g, 0, 1, &fault);
    assert_non_null(r);
    oxo_table t;
    oxo_retro_table(r, &t);
    snprintf(path, sizeof path, "%s/k.oxt", tmpdir);
    assert_int_equal(oxo_table_write(path, &t, &err), OXO_OK);
    oxo_player *pl = oxo_player_open(path, &err);
    assert_non_null(pl);
    oxo_player_close(pl);
    snprintf(t.game, sizeof t.game, "mnk:4,3,4");
    assert_int_equal(oxo_table_write(path, &t, &err), OXO_OK);
    assert_null(oxo_player_open(path, &err));
    assert_int_equal(err.code, OXO_E_GAME);
    /* Games of 4 in a row go on where those of 3 ended: positions the table lacks. */
    if (!strstr(err.msg, "is not in the table") && !strstr(err.msg, "the rules give"))
        fail_msg("a table of mnk:4,3,3 read as mnk:4,3,4: %s", err.msg);
    /* One wrong entry: the start's (rank 0: the empty board has code 0). */
    snprintf(t.game, sizeof t.game, "mnk:4,3,3");
    t.entries[0] ^= 1 << 2; /* its distance, off by one */
    assert_int_equal(oxo_table_write(path, &t, &err), OXO_OK);
    assert_null(oxo_player_open(path, &err));
    assert_non_null(strstr(err.msg, "the rules give"));
    oxo_retro_free(r);
    oxo_game_free(g);
}

static void shipped_table_is_reproduced(void **state)
{
    (void)state;
    oxo_error fault;
    oxo_retro *r = oxo_retro_solve(oxo_tictactoe(), 0, 1, &fault);
    assert_non_null(r);
    oxo_table tt, *t = &tt;
    oxo_retro_table(r, t);
    uint8_t *small = oxo_retro_table_small(r, t); /* format 1, as oxo-gen writes it */
    assert_non_null(small);
    char path[300];
    snprintf(path, sizeof path, "%s/again.oxt", tmpdir);
    assert_int_equal(oxo_table_write(path, t, NULL), OXO_OK);
    free(small);
    size_t a, b;
    uint8_t *mine = slurp(path, &a), *shipped = slurp(OXO_DATA "/tictactoe.oxt", &b);
    assert_int_equal(a, b);
    assert_memory_equal(mine, shipped, a);
    free(mine);
    free(shipped);
    oxo_retro_free(r);
}

static void atomic_write_keeps_old_file(void **state)
{
    (void)state;
    oxo_table *t = oxo_build_table(oxo_tictactoe());
    char path[300];
    oxo_error err;
    /* A destination that is a directory, and one in a folder that does not exist. */
    snprintf(path, sizeof path, "%s/dir.oxt", tmpdir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(oxo_table_write(path, t, &err), OXO_E_IO);
    assert_non_null(strstr(err.msg, "directory"));
    snprintf(path, sizeof path, "%s/missing/t.oxt", tmpdir);
    assert_int_equal(oxo_table_write(path, t, &err), OXO_E_IO);
    /* Overwriting replaces the file whole, and leaves no temporary file behind. */
    snprintf(path, sizeof path, "%s/over.oxt", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("old", f);
    fclose(f);
    assert_int_equal(oxo_table_write(path, t, &err), OXO_OK);
    oxo_table *back;
    assert_int_equal(oxo_table_read(path, &back, &err), OXO_OK);
    oxo_table_free(back);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", tmpdir);
    assert_int_not_equal(system(cmd), 0);
    oxo_table_free(t);
}

typedef struct {
    const char *file;
    oxo_errcode code;
    const char *says;
} refusal;

static const refusal refusals[] = {
    {"empty.oxt", OXO_E_EMPTY, "0 bytes"},
    {"short-header.oxt", OXO_E_TRUNCATED, "10 bytes, shorter than the 16-byte header"},
    {"truncated.oxt", OXO_E_TRUNCATED, "the header announces"},
    {"bad-magic.oxt", OXO_E_MAGIC, "found 50 4f 58 4f, expected 89 4f 58 4f"},
    {"future-major.oxt", OXO_E_VERSION,
     "table format 4.0 unsupported (this build reads 1.x to 3.x)"},
    {"kind-model.oxt", OXO_E_KIND, "this file is a model, expected a table"},
    {"trailing.oxt", OXO_E_TRAILING, "2 bytes after the"},
    {"bad-checksum.oxt", OXO_E_CHECKSUM, "checksum"},
    {"bad-size.oxt", OXO_E_FRAME, "the header says"},
    {"no-checksum.oxt", OXO_E_FRAME, "no content checksum"},
    {"count-bomb.oxt", OXO_E_BODY, "claims 4278190080 elements, only 0 bytes remain"},
    {"body-not-map.oxt", OXO_E_BODY, "expected a map"},
    {"body-cut.oxt", OXO_E_BODY, "needs 765 bytes, only 764 remain"},
    {"bad-value.oxt", OXO_E_FIELD, "entry 0 is 0x03"},
    {"bad-counts.oxt", OXO_E_FIELD,
     "x_wins 131184 + o_wins 77904 + draws 46080 is not games 255169"},
    {"wrong-count.oxt", OXO_E_GAME, "764 entries, expected 765"},
    {"wrong-entry.oxt", OXO_E_GAME, "says win in 5, the rules give draw in 9"},
    {"wrong-game.oxt", OXO_E_GAME, "game \"chess\" unknown"},
    {"wrong-dims.oxt", OXO_E_GAME, "board 4x3, expected 3x3"},
    {"lie-root.oxt", OXO_E_GAME, "root_value says win, the entry of the empty board is draw"},
    {"lie-wrap.oxt", OXO_E_FIELD, "x_wins 18446744073709551605 + o_wins"},
    {"lie-positions.oxt", OXO_E_GAME, "counts: positions is 5479, the game has 5478"},
    {"escape.oxt", OXO_E_FIELD, "\"generator\" holds byte 0x1b at 0, expected printable ASCII"},
    {"nil-bomb.oxt", OXO_E_BODY, "more than 1024 objects"},
};

/* A string with quotes and a backslash is printable, and read as it is: printing it is the job of
 * the JSON writers, which escape it (tests/e2e_play.sh). */
static void quotes_are_read(void **state)
{
    (void)state;
    oxo_table *t;
    oxo_error err;
    assert_int_equal(oxo_table_read(OXO_TEST_DIR "/fixtures/quotes.oxt", &t, &err), OXO_OK);
    assert_string_equal(t->generator, "x\",\"pwned\":true,\"y\":\"\\");
    oxo_table_free(t);
}

static void reader_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
        char path[512];
        oxo_error err = {0};
        snprintf(path, sizeof path, "%s/fixtures/%s", OXO_TEST_DIR, refusals[i].file);
        oxo_table *t = NULL;
        oxo_player *pl = NULL;
        if (oxo_table_read(path, &t, &err) == OXO_OK)
            pl = oxo_player_from_table(t, &err);
        oxo_player_close(pl);
        if (pl || err.code != refusals[i].code || !strstr(err.msg, refusals[i].says))
            fail_msg("%s: got code %d \"%s\", expected code %d with \"%s\"", refusals[i].file,
                     err.code, err.msg, refusals[i].code, refusals[i].says);
    }
    /* The messages are distinct: one failure, one message. */
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++)
        for (size_t j = 0; j < i; j++)
            assert_true(strcmp(refusals[i].says, refusals[j].says) != 0);
}

static void newer_minor_is_read(void **state)
{
    (void)state;
    oxo_error err;
    oxo_player *pl = oxo_player_open(OXO_TEST_DIR "/fixtures/newer-minor.oxt", &err);
    assert_non_null(pl);
    assert_int_equal(oxo_player_table(pl)->minor, 9);
    int v, d;
    assert_int_equal(oxo_player_value(pl, oxo_start(oxo_player_game(pl)), &v, &d), 0);
    assert_int_equal(v, OXO_DRAW);
    oxo_player_close(pl);
}

static void mp_check_walks(void **state)
{
    (void)state;
    oxo_error err;
    static const uint8_t ok[] = {0x82, 0xa1, 'a', 0x01, 0xa1, 'b', 0x92, 0xc3, 0xcb,
                                 0,    0,    0,   0,    0,    0,   0,    0};
    assert_int_equal(oxo_mp_check(ok, sizeof ok, 7, &err), OXO_OK);
    /* Seven objects: the map, two keys, 1, the array and its two items. One fewer is refused. */
    assert_int_equal(oxo_mp_check(ok, sizeof ok, 6, &err), OXO_E_BODY);
    assert_non_null(strstr(err.msg, "more than 6 objects"));
    assert_int_equal(oxo_mp_check(ok, sizeof ok - 1, 1000, &err), OXO_E_BODY);
    static const uint8_t map_bomb[] = {0xdf, 0x7f, 0xff, 0xff, 0xff, 0x01};
    assert_int_equal(oxo_mp_check(map_bomb, sizeof map_bomb, 1000, &err), OXO_E_BODY);
    static const uint8_t str_bomb[] = {0xdb, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(oxo_mp_check(str_bomb, sizeof str_bomb, 1000, &err), OXO_E_BODY);
    static const uint8_t never[] = {0xc1};
    assert_int_equal(oxo_mp_check(never, 1, 1000, &err), OXO_E_BODY);
    assert_non_null(strstr(err.msg, "0xc1"));
    uint8_t deep[40];
    memset(deep, 0x91, sizeof deep);
    deep[39] = 0x00;
    assert_int_equal(oxo_mp_check(deep, sizeof deep, 1000, &err), OXO_E_BODY);
    assert_non_null(strstr(err.msg, "deeper"));
    /* An array of 65,535 nils is 65 KB of body and would cost 1.5 MB unpacked: refused by count. */
    uint8_t *nils = malloc(3 + 65535);
    assert_non_null(nils);
    nils[0] = 0xdc, nils[1] = 0xff, nils[2] = 0xff;
    memset(nils + 3, 0xc0, 65535);
    assert_int_equal(oxo_mp_check(nils, 3 + 65535, 65536, &err), OXO_OK);
    assert_int_equal(oxo_mp_check(nils, 3 + 65535, OXO_TABLE_MAX_OBJECTS, &err), OXO_E_BODY);
    free(nils);
    static const uint8_t two[] = {0x01, 0x02};
    assert_int_equal(oxo_mp_check(two, 2, 1000, &err), OXO_E_BODY);
}

static void missing_file(void **state)
{
    (void)state;
    oxo_error err;
    oxo_table *t;
    assert_int_equal(oxo_table_read("/nonexistent/x.oxt", &t, &err), OXO_E_IO);
    assert_non_null(strstr(err.msg, "No such file"));
    assert_int_equal(oxo_table_read("/tmp", &t, &err), OXO_E_IO);
    assert_non_null(strstr(err.msg, "not a regular file"));
    assert_string_equal(oxo_strerror(OXO_E_CHECKSUM), "checksum mismatch");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(round_trip_bitmap),
        cmocka_unit_test(bitmap_tables_are_sampled),
        cmocka_unit_test(shipped_table_is_reproduced),
        cmocka_unit_test(atomic_write_keeps_old_file),
        cmocka_unit_test(reader_refusals),
        cmocka_unit_test(quotes_are_read),
        cmocka_unit_test(newer_minor_is_read),
        cmocka_unit_test(mp_check_walks),
        cmocka_unit_test(missing_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
