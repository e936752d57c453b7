/*
 * Model writer: fixed key order; floats as their little-endian bit patterns so a value reads back
 * bit for bit. Every body is decoded by the reader before it is saved.
 */
#include "model.h"

#include "mpwrite.h"

#include <stdlib.h>
#include <string.h>

static void pack_schedule(msgpack_packer *pk, const char *key, const oxo_schedule *s)
{
    oxo_pk_str(pk, key);
    msgpack_pack_map(pk, 4);
    oxo_pk_kv_str(pk, "kind", s->kind);
    oxo_pk_kv_f64(pk, "start", s->start);
    oxo_pk_kv_f64(pk, "end", s->end);
    oxo_pk_kv_u64(pk, "length", s->length);
}

/* One row of the hyper map (model.h: oxo_hyper_fields) from its field of m. */
static void pack_hyper(msgpack_packer *pk, const oxo_hyper_field *f, const oxo_model *m)
{
    const char *field = (const char *)m + f->offset;
    double d;
    uint32_t u;
    switch (f->type) {
    case OXO_HYPER_SCHEDULE:
        pack_schedule(pk, f->key, (const oxo_schedule *)(const void *)field);
        break;
    case OXO_HYPER_REAL:
        memcpy(&d, field, sizeof d);
        oxo_pk_kv_f64(pk, f->key, d);
        break;
    case OXO_HYPER_COUNT:
        memcpy(&u, field, sizeof u);
        oxo_pk_kv_u64(pk, f->key, u);
        break;
    case OXO_HYPER_TRACE:
        oxo_pk_kv_str(pk, f->key, field);
        break;
    case OXO_HYPER_OPPONENT:
        oxo_pk_str(pk, f->key);
        /* The agent's keys only when there is one: models without stay the bytes they were. */
        msgpack_pack_map(pk, m->opp_agent_spec[0] ? 5 : 3);
        oxo_pk_kv_f64(pk, "self", m->opp_self);
        oxo_pk_kv_f64(pk, "random", m->opp_random);
        oxo_pk_kv_f64(pk, "table", m->opp_table);
        if (m->opp_agent_spec[0]) {
            oxo_pk_kv_f64(pk, "agent", m->opp_agent);
            oxo_pk_kv_str(pk, "agent_spec", m->opp_agent_spec);
        }
        break;
    }
}

/* An n-tuple network whose run averages its weights: the `average` key, and minor 5. */
static int averages(const oxo_model *m)
{
    return m->nt_cells && m->avg_every;
}

/* An n-tuple network whose second player defends when lost: the `defend` key, and minor 6. */
static int defends(const oxo_model *m)
{
    return m->nt_cells && m->nt_defend;
}

/* An n-tuple network after a search phase: the `search` key, and minor 7. */
static int searched(const oxo_model *m)
{
    return m->nt_cells && m->nt_search_games;
}

static uint8_t *le32_bytes(const uint32_t *p, uint32_t n)
{
    uint8_t *b = malloc(n ? 4 * (size_t)n : 1);
    if (b)
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 4; k++)
                b[4 * i + k] = (uint8_t)(p[i] >> (8 * k));
    return b;
}

/* A bin of n u32s, little-endian: 0, or -1 when memory ran out. */
static int pack_u32s(msgpack_packer *pk, const char *key, const uint32_t *p, uint32_t n)
{
    uint8_t *b = le32_bytes(p, n);
    if (!b)
        return -1;
    oxo_pk_kv_bin(pk, key, b, 4 * (size_t)n);
    free(b);
    return 0;
}

/* An azero network's shape, settings, optimiser and window (FORMAT.md: `azero`), its parameters
 * being the values. */
static int pack_azero(msgpack_packer *pk, const oxo_model *m, oxo_error *err)
{
    oxo_pk_str(pk, "azero");
    msgpack_pack_map(pk, 18 + (m->az_value_q > 0) + (m->az_lines != 0) + (m->az_threats != 0) +
                             (m->az_random > 0) + (m->az_random > 0 && m->az_rgames < 1) +
                             (m->az_random > 0 && m->az_rmargin >= 0));
    oxo_pk_kv_u64(pk, "inputs", m->az_inputs);
    if (m->az_lines) { /* minor 13 */
        oxo_pk_str(pk, "lines");
        msgpack_pack_true(pk);
    }
    if (m->az_threats) { /* minor 14 */
        oxo_pk_str(pk, "threats");
        msgpack_pack_true(pk);
    }
    oxo_pk_str(pk, "judged");
    m->az_judged ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    oxo_pk_kv_u64(pk, "outputs", m->az_outputs);
    oxo_pk_kv_str(pk, "hidden", "relu");
    oxo_pk_kv_str(pk, "value", "tanh");
    if (pack_u32s(pk, "widths", m->az_width, m->az_layers))
        return oxo_fail(err, OXO_E_NOMEM, "encoding a network");
    oxo_pk_kv_u64(pk, "simulations", m->az_sims);
    oxo_pk_kv_u64(pk, "games", m->az_games);
    oxo_pk_kv_u64(pk, "batch", m->az_batch);
    oxo_pk_kv_u64(pk, "window", m->az_window);
    oxo_pk_kv_u64(pk, "temperature_moves", m->az_temp_moves);
    oxo_pk_kv_f64(pk, "train_ratio", m->az_ratio);
    if (m->az_value_q > 0) /* minor 10 */
        oxo_pk_kv_f64(pk, "value_q", m->az_value_q);
    if (m->az_random > 0) /* minor 14 */
        oxo_pk_kv_f64(pk, "random_moves", m->az_random);
    if (m->az_random > 0 && m->az_rgames < 1) /* minor 14 */
        oxo_pk_kv_f64(pk, "random_games", m->az_rgames);
    if (m->az_random > 0 && m->az_rmargin >= 0) /* minor 15 */
        oxo_pk_kv_f64(pk, "random_margin", m->az_rmargin);
    oxo_pk_kv_u64(pk, "steps", m->az_steps);
    oxo_pk_kv_u64(pk, "count", m->az_count);
    oxo_pk_kv_u64(pk, "head", m->az_head);
    uint32_t *codes = malloc(2 * (size_t)(m->az_count ? m->az_count : 1) * sizeof *codes);
    int rc = !codes;
    for (uint32_t i = 0; !rc && i < m->az_count; i++)
        codes[2 * i] = (uint32_t)m->az_codes[i],
                  codes[2 * i + 1] = (uint32_t)(m->az_codes[i] >> 32);
    rc = rc || pack_u32s(pk, "adam", (const uint32_t *)(const void *)m->az_adam, 2 * m->nvalues) ||
         pack_u32s(pk, "codes", codes, 2 * m->az_count) ||
         pack_u32s(pk, "targets", (const uint32_t *)(const void *)m->az_targets,
                   m->az_count * (m->az_outputs + 1));
    free(codes);
    return rc ? oxo_fail(err, OXO_E_NOMEM, "encoding a window of %u positions", m->az_count) : 0;
}

/* An n-tuple network's tuples and settings (FORMAT.md: `ntuple`), its weights being the values. */
static int pack_ntuple(msgpack_packer *pk, const oxo_model *m, oxo_error *err)
{
    (void)err;
    oxo_pk_str(pk, "ntuple");
    msgpack_pack_map(pk, 8 + defends(m) + searched(m));
    oxo_pk_kv_u64(pk, "count", m->nt_count);
    oxo_pk_kv_u64(pk, "len", m->nt_len);
    oxo_pk_kv_u64(pk, "states", m->nt_states);
    oxo_pk_kv_u64(pk, "sets", m->nt_sets);
    oxo_pk_kv_u64(pk, "horizon", m->nt_horizon);
    oxo_pk_kv_u64(pk, "exploring_depth", m->nt_start_depth);
    oxo_pk_kv_str(pk, "target", oxo_nt_target_name(m->nt_target));
    if (defends(m)) {
        oxo_pk_str(pk, "defend");
        msgpack_pack_true(pk);
    }
    if (searched(m)) {
        oxo_pk_str(pk, "search");
        msgpack_pack_map(pk, 3);
        oxo_pk_kv_u64(pk, "games", m->nt_search_games);
        oxo_pk_kv_u64(pk, "iterations", m->nt_search_iterations);
        oxo_pk_kv_f64(pk, "alpha", m->nt_search_alpha);
    }
    oxo_pk_kv_bin(pk, "cells", m->nt_cells, (size_t)m->nt_count * m->nt_len);
    return 0;
}

/* The lowest minor version that holds each: a network that neither defends nor averages nor went
 * through a search phase stays minor 4, the bytes it was before those existed. */
static int ntuple_minor(const oxo_model *m)
{
    return searched(m) ? 7 : defends(m) ? 6 : averages(m) ? 5 : 4;
}

static int neat_minor(const oxo_model *m)
{
    return m->ne_inputs > 1 ? 17 : m->ne_inputs ? 16 : m->symmetric ? 12 : 8;
}

static int azero_minor(const oxo_model *m)
{
    return m->az_random > 0 && m->az_rmargin >= 0 ? 15
           : m->az_threats || m->az_random > 0    ? 14
           : m->az_lines                          ? 13
           : m->az_value_q > 0                    ? 10
                                                  : 9;
}

static int holds_ntuple(const oxo_model *m)
{
    return m->nt_cells != NULL;
}

static int holds_neat(const oxo_model *m)
{
    return m->ne_genome != NULL;
}

static int holds_azero(const oxo_model *m)
{
    return m->az_layers > 0;
}

/* A network's own key (the reader's rows are formats/model_algo.h's; the writer's are here, apart,
 * since the player links the readers only): whether a model holds it, its packing, the minor
 * version it needs. One row a kind. */
typedef struct algo_key {
    int (*holds)(const oxo_model *m);
    int (*pack)(msgpack_packer *pk, const oxo_model *m, oxo_error *err);
    int (*minor)(const oxo_model *m);
} algo_key;

static int pack_neat(msgpack_packer *pk, const oxo_model *m, oxo_error *err);

static const algo_key algo_keys[] = {
    {holds_ntuple, pack_ntuple, ntuple_minor},
    {holds_neat, pack_neat, neat_minor},
    {holds_azero, pack_azero, azero_minor},
};

/* The row of m's own key, NULL for a table of values (q, td). */
static const algo_key *own_key(const oxo_model *m)
{
    for (size_t i = 0; i < sizeof algo_keys / sizeof *algo_keys; i++)
        if (algo_keys[i].holds(m))
            return &algo_keys[i];
    return NULL;
}

/* A NEAT population (FORMAT.md: `neat`), the links' weights being the values. */
static int pack_neat(msgpack_packer *pk, const oxo_model *m, oxo_error *err)
{
    oxo_pk_str(pk, "neat");
    msgpack_pack_map(pk, 17 + (m->ne_inputs != 0) + (m->ne_inputs > 1));
    oxo_pk_kv_u64(pk, "genomes", m->ne_genomes);
    oxo_pk_kv_u64(pk, "species", m->ne_nspecies);
    oxo_pk_kv_u64(pk, "next_node", m->ne_next_node);
    oxo_pk_kv_u64(pk, "next_innovation", m->ne_next_innov);
    oxo_pk_kv_u64(pk, "next_species", m->ne_next_species);
    oxo_pk_kv_u64(pk, "population", m->ne_population);
    oxo_pk_kv_u64(pk, "target_species", m->ne_target_species);
    oxo_pk_kv_u64(pk, "positions", m->ne_positions);
    oxo_pk_kv_u64(pk, "games", m->ne_games);
    oxo_pk_kv_f64(pk, "threshold", m->ne_threshold);
    oxo_pk_kv_f64(pk, "fitness", m->ne_fitness);
    oxo_pk_kv_str(pk, "train_set", m->ne_train_set);
    if (m->ne_inputs) { /* absent: the cells alone, the bytes of minor 15 and before */
        oxo_pk_str(pk, "tactics");
        msgpack_pack_true(pk);
    }
    if (m->ne_inputs > 1) { /* absent: an output a move, the bytes of minor 16 and before */
        oxo_pk_str(pk, "afterstate");
        msgpack_pack_true(pk);
    }
    if (pack_u32s(pk, "genome", m->ne_genome, 3 * m->ne_genomes) ||
        pack_u32s(pk, "hidden", m->ne_hidden, m->ne_nhidden) ||
        pack_u32s(pk, "links", m->ne_links, 4 * m->nvalues) ||
        pack_u32s(pk, "species_table", m->ne_species, 4 * m->ne_nspecies))
        return oxo_fail(err, OXO_E_NOMEM, "encoding a population of %u genomes", m->ne_genomes);
    /* one key more than the 15 above: the activation, for people reading the file */
    oxo_pk_kv_str(pk, "activation", "sigmoid(4.9x)");
    return 0;
}

int oxo_model_encode_body(oxo_model *m, uint8_t **body, size_t *len, oxo_error *err)
{
    oxo_pkbuf buf;
    msgpack_packer pk;
    int rc = OXO_OK;
    oxo_model_hash(m, m->hash);
    oxo_pk_init(&buf, &pk);
    const int avg = averages(m);
    msgpack_pack_map(&pk, 16 + (own_key(m) != NULL) + avg);
    oxo_pk_kv_str(&pk, "game", m->game);
    oxo_pk_kv_u64(&pk, "rows", m->rows);
    oxo_pk_kv_u64(&pk, "cols", m->cols);
    oxo_pk_kv_str(&pk, "index", m->index);
    oxo_pk_str(&pk, "symmetric");
    m->symmetric ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
    oxo_pk_kv_str(&pk, "algo", m->algo);
    const algo_key *own = own_key(m);
    if (own)
        rc = own->pack(&pk, m, err);
    oxo_pk_str(&pk, "hyper");
    int nhyper = 0;
    while (oxo_hyper_fields[nhyper].key)
        nhyper++;
    msgpack_pack_map(&pk, (size_t)nhyper);
    for (const oxo_hyper_field *f = oxo_hyper_fields; f->key; f++)
        pack_hyper(&pk, f, m);
    oxo_pk_kv_u64(&pk, "seed", m->seed);
    oxo_pk_kv_u64(&pk, "workers", m->workers);
    oxo_pk_kv_u64(&pk, "episodes", m->episodes);
    oxo_pk_str(&pk, "grade");
    msgpack_pack_map(&pk, 10 + (m->perfect_known != 0));
    oxo_pk_kv_f64(&pk, "accuracy", m->accuracy);
    oxo_pk_kv_f64(&pk, "accuracy_distance", m->accuracy_distance);
    oxo_pk_kv_u64(&pk, "exhaustive_losses_as_x", m->losses_as_x);
    oxo_pk_kv_u64(&pk, "exhaustive_losses_as_o", m->losses_as_o);
    oxo_pk_kv_u64(&pk, "random_as_x_wins", m->random_as_x[0]);
    oxo_pk_kv_u64(&pk, "random_as_x_draws", m->random_as_x[1]);
    oxo_pk_kv_u64(&pk, "random_as_x_losses", m->random_as_x[2]);
    oxo_pk_kv_u64(&pk, "random_as_o_wins", m->random_as_o[0]);
    oxo_pk_kv_u64(&pk, "random_as_o_draws", m->random_as_o[1]);
    oxo_pk_kv_u64(&pk, "random_as_o_losses", m->random_as_o[2]);
    if (m->perfect_known) /* minor 11 */
        oxo_pk_kv_u64(&pk, "perfect_games", m->perfect_games);
    oxo_pk_kv_str(&pk, "trainer", m->trainer);
    oxo_pk_kv_str(&pk, "hash", m->hash);
    oxo_pk_str(&pk, "parent");
    m->parent[0] ? oxo_pk_str(&pk, m->parent) : msgpack_pack_nil(&pk);
    uint8_t *vb = rc ? NULL : le32_bytes((const uint32_t *)(const void *)m->values, m->nvalues);
    if (!vb && !rc)
        rc = oxo_fail(err, OXO_E_NOMEM, "encoding %u values", m->nvalues);
    else if (vb)
        oxo_pk_kv_bin(&pk, "values", vb, 4 * (size_t)m->nvalues);
    free(vb);
    oxo_pk_str(&pk, "replay");
    msgpack_pack_array(&pk, m->nrings);
    for (uint32_t r = 0; r < m->nrings && !rc; r++) {
        const oxo_replay_ring *ring = &m->rings[r];
        msgpack_pack_map(&pk, 3);
        oxo_pk_kv_u64(&pk, "head", ring->head);
        oxo_pk_kv_u64(&pk, "count", ring->count);
        uint8_t *ib = le32_bytes(ring->items, ring->nitems);
        if (!ib)
            rc = oxo_fail(err, OXO_E_NOMEM, "encoding replay ring %u", r);
        else
            oxo_pk_kv_bin(&pk, "items", ib, 4 * (size_t)ring->nitems);
        free(ib);
    }
    if (avg && !rc) {
        oxo_pk_str(&pk, "average");
        msgpack_pack_map(&pk, 4);
        oxo_pk_kv_u64(&pk, "from", m->avg_from);
        oxo_pk_kv_u64(&pk, "every", m->avg_every);
        oxo_pk_kv_u64(&pk, "count", m->avg_count);
        const uint32_t n = m->avg_count ? m->nvalues : 0;
        uint8_t *ab = le32_bytes((const uint32_t *)(const void *)m->avg_values, n);
        if (!ab)
            rc = oxo_fail(err, OXO_E_NOMEM, "encoding %u average values", n);
        else
            oxo_pk_kv_bin(&pk, "values", ab, 4 * (size_t)n);
        free(ab);
    }
    if (!rc && (buf.failed || !buf.sb.data))
        rc = oxo_fail(err, OXO_E_NOMEM, "encoding the model");
    if (rc) {
        msgpack_sbuffer_destroy(&buf.sb);
        return rc;
    }
    *body = (uint8_t *)buf.sb.data;
    *len = buf.sb.size;
    return OXO_OK;
}

/* The file's bytes, what names the output in a refusal (a path, or "the model"). */
static int model_file(const char *what, oxo_model *m, uint8_t **file, size_t *file_len,
                      oxo_error *err)
{
    uint8_t *body;
    size_t len;
    oxo_model *check;
    /* A network read from a file of minor 3 or before still holds that file's layout (every
     * filling; oxo-train --strip writes it back): it is written as minor 3, whose keys the
     * writer's all are. */
    /* Each file is written in the lowest minor version that holds it (its own key's row says). */
    const algo_key *own = own_key(m);
    int minor = oxo_model_every_filling(m) ? 3 : own ? own->minor(m) : 4;
    if (m->perfect_known && minor < 11) /* the games against the perfect player */
        minor = 11;
    int rc = oxo_model_encode_body(m, &body, &len, err);
    if (rc)
        return rc;
    /* A writer never saves what its reader would refuse (a value beyond the bound, a ring item
     * the algorithm cannot write...): the body is read back first. */
    if ((rc = oxo_model_decode_body(body, len, minor, &check, err)) == OXO_OK)
        oxo_model_free(check);
    else
        oxo_refuse_write(what, rc, err);
    if (!rc)
        rc = oxo_container_encode(OXO_KIND_MODEL, OXO_FORMAT_MAJOR, minor, body, len, file,
                                  file_len, err);
    free(body);
    return rc;
}

int oxo_model_encode(oxo_model *m, uint8_t **file, size_t *len, oxo_error *err)
{
    return model_file("the model", m, file, len, err);
}

int oxo_model_write(const char *path, oxo_model *m, oxo_error *err)
{
    uint8_t *file;
    size_t len;
    int rc = model_file(path, m, &file, &len, err);
    if (rc)
        return rc;
    rc = oxo_atomic_write(path, file, len, err);
    free(file);
    return rc;
}
