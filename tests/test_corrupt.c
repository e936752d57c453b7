/*
 * Corruption sweeps over the shipped files (data/tictactoe.oxt, data/q.oxm, data/td.oxm): every
 * truncation and every single-bit flip is refused with a message, or, where the spec lets a byte
 * be ignored (the minor version, a zstd header field that does not change the output), reads
 * back exactly the original content. Never a crash, never different content accepted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player.h"
#include "cli.h"
#include "readme.h"

static oxo_space *can;

static int setup(void **state)
{
    (void)state;
    can = oxo_space_build(oxo_tictactoe(), 1);
    return can ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    oxo_space_free(can);
    return 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *d;
    oxo_error err;
    if (oxo_read_file(path, 1 << 24, &d, len, &err))
        fail_msg("%s", err.msg);
    return d;
}

/* Decodes and checks a file's bytes as the player would: 0 and the player, or an error code. */
static int load(const uint8_t *d, size_t n, int kind, oxo_player **out, oxo_error *err)
{
    *out = NULL;
    if (kind == OXO_KIND_TABLE) {
        oxo_table *t;
        int rc = oxo_table_decode(d, n, &t, err);
        if (rc)
            return rc;
        *out = oxo_player_from_table_in(t, can, err);
    } else {
        oxo_model *m;
        int rc = oxo_model_decode(d, n, &m, err);
        if (rc)
            return rc;
        *out = oxo_player_from_model_in(m, can, err);
    }
    return *out ? 0 : err->code;
}

static int same_table(const oxo_table *a, const oxo_table *b)
{
    return a->n == b->n && !memcmp(a->entries, b->entries, a->n) && !strcmp(a->game, b->game) &&
           a->rows == b->rows && a->cols == b->cols && !strcmp(a->index, b->index) &&
           a->symmetric == b->symmetric && !memcmp(&a->counts, &b->counts, sizeof a->counts) &&
           !strcmp(a->root_value, b->root_value) && !strcmp(a->generator, b->generator) &&
           a->major == b->major && a->code_space == b->code_space && a->nwords == b->nwords &&
           (!a->nwords || !memcmp(a->keys, b->keys, 8 * a->nwords)) && a->nplies == b->nplies &&
           !memcmp(a->by_ply, b->by_ply, sizeof a->by_ply) && a->tree == b->tree;
}

static int same_model(const oxo_model *a, const oxo_model *b)
{
    if (a->nvalues != b->nvalues || memcmp(a->values, b->values, 4 * (size_t)a->nvalues) ||
        strcmp(a->hash, b->hash) || strcmp(a->parent, b->parent) || strcmp(a->algo, b->algo) ||
        a->episodes != b->episodes || a->seed != b->seed || a->workers != b->workers ||
        a->gamma != b->gamma || a->lambda != b->lambda || a->init != b->init ||
        memcmp(&a->alpha, &b->alpha, sizeof a->alpha) ||
        memcmp(&a->epsilon, &b->epsilon, sizeof a->epsilon) || a->accuracy != b->accuracy ||
        a->replay_capacity != b->replay_capacity || a->nrings != b->nrings)
        return 0;
    for (uint32_t r = 0; r < a->nrings; r++)
        if (a->rings[r].head != b->rings[r].head || a->rings[r].count != b->rings[r].count ||
            memcmp(a->rings[r].items, b->rings[r].items, 4 * (size_t)a->rings[r].nitems))
            return 0;
    return 1;
}

static unsigned long long total_damaged, total_refused, total_same;

static void sweep(const char *path, int kind)
{
    size_t n;
    uint8_t *orig = slurp(path, &n), *d = malloc(n);
    oxo_player *ref, *p;
    oxo_error err;
    assert_int_equal(load(orig, n, kind, &ref, &err), 0);
    unsigned refused = 0, same = 0;
    /* Every truncation, the empty file included. */
    for (size_t len = 0; len < n; len++) {
        if (load(orig, len, kind, &p, &err) == 0)
            fail_msg("%s cut to %zu bytes was accepted", path, len);
        assert_true(strlen(err.msg) > 10);
        refused++;
    }
    /* Every single-bit flip. */
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) {
            memcpy(d, orig, n);
            d[i] ^= (uint8_t)(1u << b);
            memset(&err, 0, sizeof err);
            if (load(d, n, kind, &p, &err) != 0) {
                assert_true(err.code > 0 && strlen(err.msg) > 10);
                refused++;
                continue;
            }
            int ok = kind == OXO_KIND_TABLE
                         ? same_table(oxo_player_table(p), oxo_player_table(ref))
                         : same_model(oxo_player_model(p), oxo_player_model(ref));
            if (!ok)
                fail_msg("%s with bit %d of byte %zu flipped was accepted with other content", path,
                         b, i);
            same++;
            oxo_player_close(p);
        }
    printf("%s: %zu truncations and %zu bit flips: %u refused, %u read back the same content\n",
           path, n, 8 * n, refused, same);
    assert_true(refused > 8 * n * 9 / 10); /* nearly every flip is caught */
    total_damaged += 9 * n;
    total_refused += refused;
    total_same += same;
    oxo_player_close(ref);
    free(orig);
    free(d);
}

static void sweep_table(void **state)
{
    (void)state;
    sweep(OXO_DATA "/tictactoe.oxt", OXO_KIND_TABLE);
}

static void sweep_td_model(void **state)
{
    (void)state;
    sweep(OXO_DATA "/td.oxm", OXO_KIND_MODEL);
}

static void sweep_q_model(void **state)
{
    (void)state;
    sweep(OXO_DATA "/q.oxm", OXO_KIND_MODEL);
}

static void readme_is_current(void **state)
{
    (void)state;
    char a[32], b[32], c[32], text[160];
    snprintf(text, sizeof text, "%s damaged files: %s refused with a message; the %s accepted",
             oxo_group(total_damaged, a), oxo_group(total_refused, b), oxo_group(total_same, c));
    readme_quotes(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_table),
        cmocka_unit_test(sweep_td_model),
        cmocka_unit_test(sweep_q_model),
        cmocka_unit_test(readme_is_current),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
