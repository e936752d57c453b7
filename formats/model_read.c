/*
 * Model reader: container, body fields, the values and replay rings checked against their declared
 * sizes, and the content hash recomputed.
 */
#include "model.h"
#include "model_algo.h"

#include "mpread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oxo_model_free(oxo_model *m)
{
    if (!m)
        return;
    free(m->values);
    free(m->avg_values);
    free(m->nt_cells);
    free(m->ne_genome);
    free(m->ne_hidden);
    free(m->ne_links);
    free(m->ne_species);
    free(m->az_adam);
    free(m->az_codes);
    free(m->az_targets);
    for (uint32_t i = 0; i < m->nrings; i++)
        free(m->rings[i].items);
    free(m->rings);
    free(m);
}

static uint64_t hash_u32s(const uint32_t *p, uint32_t n, uint64_t h)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t b[4] = {(uint8_t)p[i], (uint8_t)(p[i] >> 8), (uint8_t)(p[i] >> 16),
                        (uint8_t)(p[i] >> 24)};
        h = oxo_fnv1a(b, 4, h);
    }
    return h;
}

void oxo_model_hash(const oxo_model *m, char out[17])
{
    uint64_t h = OXO_FNV_SEED;
    for (uint32_t i = 0; i < m->nvalues; i++) {
        uint32_t u;
        memcpy(&u, &m->values[i], 4);
        h = hash_u32s(&u, 1, h);
    }
    for (uint32_t i = 0; i < (uint32_t)(m->nt_cells ? m->nt_count * m->nt_len : 0); i++)
        h = oxo_fnv1a(&m->nt_cells[i], 1, h); /* the tuples give the weights their meaning */
    /* a NEAT population: the genomes the weights belong to, and its species */
    if (m->ne_genome) {
        h = hash_u32s(m->ne_genome, 3 * m->ne_genomes, h);
        h = hash_u32s(m->ne_hidden, m->ne_nhidden, h);
        h = hash_u32s(m->ne_links, 4 * m->nvalues, h);
        h = hash_u32s(m->ne_species, 4 * m->ne_nspecies, h);
        /* oriented inputs give the weights another meaning: a reader of minor 11 and before,
         * which would play them on the board as it is, refuses the file by its hash */
        if (m->symmetric)
            h = hash_u32s(&(const uint32_t){1}, 1, h);
        /* so do the tactics' inputs, numbered before the outputs (minor 16) */
        if (m->ne_inputs)
            h = hash_u32s(&(const uint32_t){2}, 1, h);
        if (m->ne_inputs > 1) /* and afterstates, one output scoring each move (minor 17) */
            h = hash_u32s(&(const uint32_t){4}, 1, h);
    }
    /* an azero network: its shape, its optimiser and its window */
    if (m->az_layers) {
        h = hash_u32s(m->az_width, m->az_layers, h);
        /* the lines' inputs give the first layer's weights another order and meaning */
        if (m->az_lines)
            h = hash_u32s(&(const uint32_t){2}, 1, h);
        if (m->az_threats) /* and the threats' */
            h = hash_u32s(&(const uint32_t){3}, 1, h);
        uint32_t cw[4] = {m->az_count, m->az_head, (uint32_t)m->az_steps,
                          (uint32_t)(m->az_steps >> 32)};
        h = hash_u32s(cw, 4, h);
        h = hash_u32s((const uint32_t *)(const void *)m->az_adam, 2 * m->nvalues, h);
        for (uint32_t i = 0; i < m->az_count; i++) {
            uint32_t c[2] = {(uint32_t)m->az_codes[i], (uint32_t)(m->az_codes[i] >> 32)};
            h = hash_u32s(c, 2, h);
        }
        h = hash_u32s((const uint32_t *)(const void *)m->az_targets,
                      m->az_count * (m->az_outputs + 1), h);
    }
    for (uint32_t r = 0; r < m->nrings; r++) {
        uint32_t hc[2] = {m->rings[r].head, m->rings[r].count};
        h = hash_u32s(hc, 2, h);
        h = hash_u32s(m->rings[r].items, m->rings[r].nitems, h);
    }
    /* the state a resumed run continues */
    for (uint32_t i = 0; m->avg_count && m->avg_values && i < m->nvalues; i++) {
        uint32_t u;
        memcpy(&u, &m->avg_values[i], 4);
        h = hash_u32s(&u, 1, h);
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static int read_schedule(const msgpack_object *root, const char *key, oxo_schedule *s,
                         oxo_error *err)
{
    const msgpack_object *m;
    int rc = oxo_mp_map(root, key, &m, err);
    if (!rc)
        rc = oxo_mp_str(m, "kind", s->kind, sizeof s->kind, err);
    if (!rc && strcmp(s->kind, "constant") && strcmp(s->kind, "linear") &&
        strcmp(s->kind, "exponential"))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "%s schedule \"%s\", expected constant, linear or exponential", key, s->kind);
    if (!rc)
        rc = oxo_mp_num(m, "start", 0, 1, &s->start, err);
    if (!rc)
        rc = oxo_mp_num(m, "end", 0, 1, &s->end, err);
    if (!rc)
        rc = oxo_mp_uint(m, "length", UINT64_MAX, &s->length, err);
    if (!rc && !strcmp(s->kind, "exponential") && (s->start <= 0 || s->end <= 0))
        rc = oxo_fail(err, OXO_E_FIELD, "%s: an exponential schedule needs start and end above 0",
                      key);
    return rc;
}

/* Every item of a ring must be one the model's algorithm writes: q records one edge (a value
 * index), td one episode of nodes (value indexes) padded at the end with 0xffffffff, ntuple one
 * game as moves (item 0: how many opening moves were not learned, at most the board's cells; then
 * at least one move, each below the cells, padded at the end). The trainer indexes its arrays
 * with these, so anything else would be read out of bounds; it checks the moves against the
 * rules when it resumes. */
static int check_items(const oxo_model *m, uint32_t ring, const uint8_t *bin, uint32_t count,
                       oxo_error *err)
{
    const uint32_t rec = m->replay_record, pad = UINT32_MAX;
    const int td = !strcmp(m->algo, "td"), nt = !strcmp(m->algo, "ntuple");
    const uint32_t cells = m->rows * m->cols;
    for (uint32_t r = 0; r < count; r++) {
        int padded = 0;
        for (uint32_t j = 0; j < rec; j++) {
            uint32_t v = oxo_le32(bin + 4 * ((size_t)r * rec + j));
            if (v == pad && (td || nt) && j >= 2) {
                padded = 1;
                continue;
            }
            if ((nt ? v > cells || (j > 0 && v == cells) : v >= m->nvalues) || padded)
                return oxo_fail(
                    err, OXO_E_FIELD, "replay ring %u, record %u, item %u is 0x%08x; expected %s",
                    ring, r, j, v,
                    nt   ? "the opening's length (at most the cells), one move or more below the "
                           "cells, then 0xffffffff to the end"
                    : td ? "a node below the number of values, the first two always, then "
                           "0xffffffff to the end"
                         : "an edge below the number of values");
        }
    }
    return OXO_OK;
}

static int read_rings(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *a = oxo_mp_get(root, "replay");
    if (!a)
        return oxo_fail(err, OXO_E_FIELD, "key \"replay\" is missing");
    if (a->type != MSGPACK_OBJECT_ARRAY)
        return oxo_fail(err, OXO_E_FIELD, "\"replay\" is MessagePack type %d, expected an array",
                        (int)a->type);
    uint32_t n = a->via.array.size;
    if (n != 0 && n != m->workers)
        return oxo_fail(err, OXO_E_FIELD,
                        "\"replay\" holds %u rings, expected 0 or one per worker (%u)", n,
                        m->workers);
    if (n && m->replay_capacity == 0)
        return oxo_fail(err, OXO_E_FIELD, "\"replay\" holds rings but replay_capacity is 0");
    m->rings = calloc(n ? n : 1, sizeof *m->rings);
    if (!m->rings)
        return oxo_fail(err, OXO_E_NOMEM, "replay rings");
    m->nrings = n;
    for (uint32_t i = 0; i < n; i++) {
        const msgpack_object *r = &a->via.array.ptr[i];
        oxo_replay_ring *ring = &m->rings[i];
        uint64_t head, count;
        const uint8_t *bin;
        uint32_t blen;
        if (r->type != MSGPACK_OBJECT_MAP)
            return oxo_fail(err, OXO_E_FIELD, "replay ring %u is not a map", i);
        int rc = oxo_mp_uint(r, "head", m->replay_capacity - 1, &head, err);
        if (!rc)
            rc = oxo_mp_uint(r, "count", m->replay_capacity, &count, err);
        if (!rc)
            rc = oxo_mp_bin(r, "items", &bin, &blen, err);
        if (rc)
            return rc;
        if ((uint64_t)blen != count * m->replay_record * 4)
            return oxo_fail(err, OXO_E_FIELD,
                            "replay ring %u: %u bytes of items, expected %llu * %u * 4", i, blen,
                            (unsigned long long)count, m->replay_record);
        if (count < m->replay_capacity && head != count % m->replay_capacity)
            return oxo_fail(
                err, OXO_E_FIELD, "replay ring %u: head %llu with %llu of %u slots filled", i,
                (unsigned long long)head, (unsigned long long)count, m->replay_capacity);
        if ((rc = check_items(m, i, bin, (uint32_t)count, err)))
            return rc;
        ring->head = (uint32_t)head;
        ring->count = (uint32_t)count;
        ring->nitems = blen / 4;
        ring->items = malloc(blen ? blen : 1);
        if (!ring->items)
            return oxo_fail(err, OXO_E_NOMEM, "replay ring %u", i);
        for (uint32_t k = 0; k < ring->nitems; k++)
            ring->items[k] = oxo_le32(bin + 4 * k);
    }
    return OXO_OK;
}

static int read_grade(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *g;
    uint64_t u[6];
    static const char *const keys[6] = {"random_as_x_wins",   "random_as_x_draws",
                                        "random_as_x_losses", "random_as_o_wins",
                                        "random_as_o_draws",  "random_as_o_losses"};
    int rc = oxo_mp_map(root, "grade", &g, err);
    if (!rc)
        rc = oxo_mp_num(g, "accuracy", 0, 1, &m->accuracy, err);
    if (!rc)
        rc = oxo_mp_num(g, "accuracy_distance", 0, 1, &m->accuracy_distance, err);
    if (!rc)
        rc = oxo_mp_uint(g, "exhaustive_losses_as_x", UINT64_MAX, &m->losses_as_x, err);
    if (!rc)
        rc = oxo_mp_uint(g, "exhaustive_losses_as_o", UINT64_MAX, &m->losses_as_o, err);
    for (int i = 0; i < 6 && !rc; i++)
        rc = oxo_mp_uint(g, keys[i], UINT32_MAX, &u[i], err);
    if (!rc)
        for (int i = 0; i < 3; i++) {
            m->random_as_x[i] = (uint32_t)u[i];
            m->random_as_o[i] = (uint32_t)u[3 + i];
        }
    /* minor 11; absent: not recorded */
    if (!rc && oxo_mp_get(g, "perfect_games")) {
        uint64_t n = 0;
        rc = oxo_mp_uint(g, "perfect_games", UINT32_MAX, &n, err);
        if (!rc && (m->losses_as_x > n || m->losses_as_o > n))
            rc = oxo_fail(err, OXO_E_FIELD,
                          "\"grade\": %llu and %llu games lost to the perfect player of %llu a "
                          "colour",
                          (unsigned long long)m->losses_as_x, (unsigned long long)m->losses_as_o,
                          (unsigned long long)n);
        m->perfect_known = !rc;
        m->perfect_games = (uint32_t)n;
    }
    return rc;
}

/* A bin of n little-endian float32 values, each a number within the bound, into a new array. */
int oxo_model_u32s(const msgpack_object *map, const char *algo, const char *key, uint64_t n,
                   uint32_t **out, oxo_error *err)
{
    const uint8_t *bin;
    uint32_t blen;
    int rc = oxo_mp_bin(map, key, &bin, &blen, err);
    if (rc)
        return rc;
    if ((uint64_t)blen != 4 * n)
        return oxo_fail(err, OXO_E_FIELD, "%s %s: %u bytes, expected %llu numbers of 4", algo, key,
                        blen, (unsigned long long)n);
    if (!(*out = malloc(n ? 4 * (size_t)n : 1)))
        return oxo_fail(err, OXO_E_NOMEM, "%s %s", algo, key);
    for (uint64_t i = 0; i < n; i++)
        (*out)[i] = oxo_le32(bin + 4 * i);
    return 0;
}

int oxo_model_floats(const uint8_t *bin, uint32_t n, const char *what, float **out, oxo_error *err)
{
    if (!(*out = malloc(n ? 4 * (size_t)n : 1)))
        return oxo_fail(err, OXO_E_NOMEM, "%u %s", n, what);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = oxo_le32(bin + 4 * i);
        memcpy(&(*out)[i], &w, 4);
        if (!(fabsf((*out)[i]) <= OXO_MODEL_VALUE_MAX)) /* also NaN */
            return oxo_fail(err, OXO_E_FIELD, "%s %u is %g, expected a number from %g to %g", what,
                            i, (double)(*out)[i], -OXO_MODEL_VALUE_MAX, OXO_MODEL_VALUE_MAX);
    }
    return OXO_OK;
}

/* Weight averaging (minor 5, n-tuple networks only): where it starts and how often it takes the
 * weights, how many it has taken, and their mean so far, one per value (empty when none). */
static int read_average(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *a;
    const uint8_t *bin;
    uint32_t blen;
    uint64_t every, count;
    int rc = oxo_mp_map(root, "average", &a, err);
    if (!rc && strcmp(m->algo, "ntuple"))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "\"average\" in a model of algo %s: only n-tuple networks average", m->algo);
    if (!rc)
        rc = oxo_mp_uint(a, "from", UINT64_MAX, &m->avg_from, err);
    if (!rc)
        rc = oxo_mp_uint(a, "every", UINT32_MAX, &every, err);
    if (!rc)
        rc = oxo_mp_uint(a, "count", UINT32_MAX, &count, err);
    if (!rc)
        rc = oxo_mp_bin(a, "values", &bin, &blen, err);
    if (rc)
        return rc;
    if (!every || every % m->sync)
        return oxo_fail(err, OXO_E_FIELD,
                        "average every %llu episodes, expected a multiple of sync (%u)",
                        (unsigned long long)every, m->sync);
    if (m->avg_from % every)
        return oxo_fail(err, OXO_E_FIELD, "average from episode %llu, expected a multiple of %llu",
                        (unsigned long long)m->avg_from, (unsigned long long)every);
    /* The weights taken so far: those of the multiples of every from avg_from to episodes. */
    const uint64_t can = m->episodes < m->avg_from ? 0 : (m->episodes - m->avg_from) / every + 1;
    if (count > can)
        return oxo_fail(err, OXO_E_FIELD, "average count %llu, but %llu episodes give at most %llu",
                        (unsigned long long)count, (unsigned long long)m->episodes,
                        (unsigned long long)can);
    const uint64_t want = count ? 4 * (uint64_t)m->nvalues : 0; /* no mean until one is taken */
    if (blen != want)
        return oxo_fail(err, OXO_E_FIELD,
                        "average values: %u bytes, expected %llu (%llu taken, %u values)", blen,
                        (unsigned long long)want, (unsigned long long)count, m->nvalues);
    m->avg_every = (uint32_t)every;
    m->avg_count = (uint32_t)count;
    return count ? oxo_model_floats(bin, m->nvalues, "average value", &m->avg_values, err) : OXO_OK;
}

static int is_hex16(const char *s)
{
    if (strlen(s) != 16)
        return 0;
    for (int i = 0; i < 16; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

/* The opponents' shares: self, random, table, and an agent's share and spec (both or neither:
 * files without them have no agent); they add up to 1. */
static int read_opponent(const msgpack_object *h, oxo_model *m, oxo_error *err)
{
    const msgpack_object *o;
    int rc = oxo_mp_map(h, "opponent", &o, err);
    if (!rc)
        rc = oxo_mp_num(o, "self", 0, 1, &m->opp_self, err);
    if (!rc)
        rc = oxo_mp_num(o, "random", 0, 1, &m->opp_random, err);
    if (!rc)
        rc = oxo_mp_num(o, "table", 0, 1, &m->opp_table, err);
    if (!rc && (oxo_mp_get(o, "agent") || oxo_mp_get(o, "agent_spec"))) {
        rc = oxo_mp_num(o, "agent", 0, 1, &m->opp_agent, err);
        if (!rc)
            rc = oxo_mp_str(o, "agent_spec", m->opp_agent_spec, sizeof m->opp_agent_spec, err);
        if (!rc && !m->opp_agent_spec[0])
            rc = oxo_fail(err, OXO_E_FIELD, "opponent agent_spec is empty");
    }
    if (!rc && fabs(m->opp_self + m->opp_random + m->opp_table + m->opp_agent - 1) > 1e-9)
        rc = oxo_fail(err, OXO_E_FIELD, "opponent shares add up to %g, expected 1",
                      m->opp_self + m->opp_random + m->opp_table + m->opp_agent);
    return rc;
}

/* What a stored setting must be beyond its range, checked as soon as it is read (FORMAT.md). */
static int check_hyper(const oxo_hyper_field *f, const oxo_model *m, oxo_error *err)
{
    if (f->type == OXO_HYPER_TRACE && strcmp(m->trace, "accumulating") &&
        strcmp(m->trace, "replacing"))
        return oxo_fail(err, OXO_E_FIELD, "trace \"%s\", expected accumulating or replacing",
                        m->trace);
    if (f->offset == offsetof(oxo_model, replay_record) && m->replay_capacity) {
        /* What the trainer records: one edge (q), or an episode of up to rows * cols moves (td,
         * ntuple). */
        uint32_t want = !strcmp(m->algo, "q") ? 1 : m->rows * m->cols + 1;
        if (m->replay_record != want)
            return oxo_fail(err, OXO_E_FIELD, "replay_record is %u, algo %s records %u items",
                            m->replay_record, m->algo, want);
    }
    if (f->offset == offsetof(oxo_model, sync) && m->sync == 0)
        return oxo_fail(err, OXO_E_FIELD, "sync is 0, expected at least 1 episode per round");
    return 0;
}

/* One row of the hyper map (model.h: oxo_hyper_fields) into its field of m. */
static int read_hyper(const msgpack_object *h, const oxo_hyper_field *f, oxo_model *m,
                      oxo_error *err)
{
    char *field = (char *)m + f->offset;
    uint64_t u;
    double d;
    int rc = 0;
    switch (f->type) {
    case OXO_HYPER_SCHEDULE:
        rc = read_schedule(h, f->key, (oxo_schedule *)(void *)field, err);
        break;
    case OXO_HYPER_REAL:
        if (!(rc = oxo_mp_num(h, f->key, f->lo, f->hi, &d, err)))
            memcpy(field, &d, sizeof d);
        break;
    case OXO_HYPER_COUNT:
        if (!(rc = oxo_mp_uint(h, f->key, (uint64_t)f->hi, &u, err))) {
            uint32_t v = (uint32_t)u;
            memcpy(field, &v, sizeof v);
        }
        break;
    case OXO_HYPER_TRACE:
        rc = oxo_mp_str(h, f->key, field, sizeof m->trace, err);
        break;
    case OXO_HYPER_OPPONENT:
        rc = read_opponent(h, m, err);
        break;
    }
    return rc ? rc : check_hyper(f, m, err);
}

/* The algorithms a model may hold: one row each (model_algo.h); the tabular ones keep nothing
 * beyond the common keys. */
static const oxo_model_algo algo_q = {"q", NULL, NULL}, algo_td = {"td", NULL, NULL};
static const oxo_model_algo *const algos[] = {&algo_q, &algo_td, &oxo_model_algo_ntuple,
                                              &oxo_model_algo_neat, &oxo_model_algo_azero};

int oxo_model_decode_body(const uint8_t *body, size_t len, int minor, oxo_model **out,
                          oxo_error *err)
{
    msgpack_unpacked up;
    oxo_model *m = calloc(1, sizeof *m);
    const msgpack_object *h = NULL;
    const uint8_t *bin;
    uint32_t blen;
    uint64_t u;
    *out = NULL;
    if (!m)
        return oxo_fail(err, OXO_E_NOMEM, "model");
    m->minor = minor;
    int rc = oxo_mp_unpack(body, len, OXO_MODEL_MAX_OBJECTS, &up, err);
    const msgpack_object *root = &up.data;
    if (!rc)
        rc = oxo_mp_str(root, "game", m->game, sizeof m->game, err);
    if (!rc && !(rc = oxo_mp_uint(root, "rows", 64, &u, err)))
        m->rows = (uint32_t)u;
    if (!rc && !(rc = oxo_mp_uint(root, "cols", 64, &u, err)))
        m->cols = (uint32_t)u;
    if (!rc && (m->rows == 0 || m->cols == 0 || m->rows * m->cols > 64))
        rc = oxo_fail(err, OXO_E_FIELD, "board %ux%u, expected 1 to 64 cells", m->rows, m->cols);
    if (!rc)
        rc = oxo_mp_str(root, "index", m->index, sizeof m->index, err);
    if (!rc)
        rc = oxo_mp_bool(root, "symmetric", &m->symmetric, err);
    if (!rc)
        rc = oxo_mp_str(root, "algo", m->algo, sizeof m->algo, err);
    const oxo_model_algo *algo = NULL;
    for (size_t i = 0; !rc && !algo && i < sizeof algos / sizeof *algos; i++)
        if (!strcmp(m->algo, algos[i]->name))
            algo = algos[i];
    if (!rc && !algo) { /* the rows' names: "q, td, ntuple, neat or azero" */
        char names[128] = "";
        const size_t n = sizeof algos / sizeof *algos;
        for (size_t i = 0, at = 0; i < n && at < sizeof names; i++) {
            int w = snprintf(names + at, sizeof names - at, "%s%s",
                             i == 0       ? ""
                             : i + 1 == n ? " or "
                                          : ", ",
                             algos[i]->name);
            at += w > 0 ? (size_t)w : 0;
        }
        rc = oxo_fail(err, OXO_E_FIELD, "algo \"%s\", expected %s", m->algo, names);
    }
    if (!rc && algo->read)
        rc = algo->read(root, m, err);
    if (!rc)
        rc = oxo_mp_map(root, "hyper", &h, err);
    for (const oxo_hyper_field *f = oxo_hyper_fields; !rc && f->key; f++)
        rc = read_hyper(h, f, m, err);
    if (!rc)
        rc = oxo_mp_uint(root, "seed", UINT64_MAX, &m->seed, err);
    if (!rc && !(rc = oxo_mp_uint(root, "workers", 4096, &u, err)))
        m->workers = (uint32_t)u;
    if (!rc && m->workers == 0)
        rc = oxo_fail(err, OXO_E_FIELD, "workers is 0, expected 1 to 4096");
    if (!rc)
        rc = oxo_mp_uint(root, "episodes", UINT64_MAX, &m->episodes, err);
    if (!rc)
        rc = read_grade(root, m, err);
    if (!rc)
        rc = oxo_mp_str(root, "trainer", m->trainer, sizeof m->trainer, err);
    if (!rc)
        rc = oxo_mp_str(root, "hash", m->hash, sizeof m->hash, err);
    if (!rc && !is_hex16(m->hash))
        rc = oxo_fail(err, OXO_E_FIELD, "hash \"%s\", expected 16 lowercase hex digits", m->hash);
    if (!rc) {
        const msgpack_object *p = oxo_mp_get(root, "parent");
        if (!p)
            rc = oxo_fail(err, OXO_E_FIELD, "key \"parent\" is missing");
        else if (p->type != MSGPACK_OBJECT_NIL) {
            rc = oxo_mp_str(root, "parent", m->parent, sizeof m->parent, err);
            if (!rc && !is_hex16(m->parent))
                rc = oxo_fail(err, OXO_E_FIELD,
                              "parent \"%s\", expected 16 lowercase hex digits or nil", m->parent);
        }
    }
    if (!rc)
        rc = oxo_mp_bin(root, "values", &bin, &blen, err);
    if (!rc && (blen == 0 || blen % 4))
        rc = oxo_fail(err, OXO_E_FIELD, "\"values\" is %u bytes, expected a non-zero multiple of 4",
                      blen);
    if (!rc) {
        m->nvalues = blen / 4;
        rc = oxo_model_floats(bin, m->nvalues, "value", &m->values, err);
    }
    if (!rc && algo->values)
        rc = algo->values(root, m, err);
    if (!rc)
        rc = read_rings(root, m, err);
    if (!rc && oxo_mp_get(root, "average"))
        rc = read_average(root, m, err);
    if (!rc) {
        char want[17];
        oxo_model_hash(m, want);
        if (strcmp(want, m->hash))
            rc =
                oxo_fail(err, OXO_E_HASH, "the values hash to %s, the file says %s", want, m->hash);
    }
    msgpack_unpacked_destroy(&up);
    if (rc) {
        oxo_model_free(m);
        return rc;
    }
    *out = m;
    return OXO_OK;
}

int oxo_model_decode(const uint8_t *data, size_t len, oxo_model **out, oxo_error *err)
{
    uint8_t *body;
    size_t blen;
    int minor;
    *out = NULL;
    int rc = oxo_container_decode(data, len, OXO_KIND_MODEL, NULL, NULL, &minor, &body, &blen, err);
    if (rc)
        return rc;
    rc = oxo_model_decode_body(body, blen, minor, out, err);
    free(body);
    return rc;
}

int oxo_model_read(const char *path, oxo_model **out, oxo_error *err)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    int rc = oxo_read_file(path, OXO_MAX_FILE, &data, &len, err);
    if (rc)
        return rc;
    rc = oxo_model_decode(data, len, out, err);
    free(data);
    return rc;
}
