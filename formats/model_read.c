/*
 * Model reader: container, body fields, the values and replay rings checked against their declared
 * sizes, and the content hash recomputed.
 */
#include "model.h"

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

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
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
            uint32_t v = le32(bin + 4 * ((size_t)r * rec + j));
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
            ring->items[k] = le32(bin + 4 * k);
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
    return rc;
}

void oxo_ntuple_chains_of(uint32_t rows, uint32_t cols, const uint8_t *cells, uint32_t len,
                          oxo_ntuple_chains *ch)
{
    const int C = (int)cols, N = (int)(rows * cols);
    int at[64];
    for (int c = 0; c < N; c++)
        at[c] = -1;
    for (uint32_t i = 0; i < len; i++)
        at[cells[i]] = (int)i;
    ch->nc = 0;
    for (uint32_t i = 0; i < len; i++) {
        const int c = cells[i], k = ch->nc;
        if (c + C < N && at[c + C] >= 0)
            continue; /* not the bottom of its chain */
        ch->len[k] = 0;
        ch->bottom[k] = c + C >= N;
        for (int cc = c; cc >= 0 && at[cc] >= 0; cc -= C)
            ch->pos[k][ch->len[k]++] = at[cc];
        ch->nc++;
    }
}

uint32_t oxo_ntuple_span(uint32_t rows, uint32_t cols, uint32_t states, const uint8_t *cells,
                         uint32_t len)
{
    uint32_t span = 1;
    if (states != 4) {
        for (uint32_t i = 0; i < len; i++)
            span *= 3;
        return span;
    }
    oxo_ntuple_chains ch;
    oxo_ntuple_chains_of(rows, cols, cells, len, &ch);
    for (int j = 0; j < ch.nc; j++)
        span *= 2u << ch.len[j];
    return span;
}

int oxo_model_every_filling(const oxo_model *m)
{
    return !strcmp(m->algo, "ntuple") && m->nt_states == 4 && m->minor < 4;
}

uint32_t oxo_ntuple_weights_of(const oxo_model *m)
{
    uint64_t n = (uint64_t)m->nt_count * m->nt_sets;
    /* without gravity, one layout */
    if (oxo_model_every_filling(m) || m->nt_states != 4 || !m->nt_cells) {
        for (uint32_t i = 0; i < m->nt_len && n <= OXO_MODEL_MAX_WEIGHTS; i++)
            n *= m->nt_states;
    } else {
        uint64_t per_set = 0; /* a span is at most 4^12, and there are at most 1024 tuples */
        for (uint32_t t = 0; t < m->nt_count; t++)
            per_set += oxo_ntuple_span(m->rows, m->cols, m->nt_states,
                                       m->nt_cells + (size_t)t * m->nt_len, m->nt_len);
        n = per_set * m->nt_sets;
    }
    return n > OXO_MODEL_MAX_WEIGHTS ? 0 : (uint32_t)n;
}

/* The tuples of an n-tuple network: their count, length and states in range, each cell on the
 * board and no cell twice in a tuple, so that the weight indexes a player computes stay inside
 * the weights. */
static int read_ntuple(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *n;
    const uint8_t *bin;
    uint32_t blen;
    uint64_t u[6] = {0, 0, 0, 0, 1, 0};
    int rc = oxo_mp_map(root, "ntuple", &n, err);
    if (!rc)
        rc = oxo_mp_uint(n, "count", 1024, &u[0], err);
    if (!rc)
        rc = oxo_mp_uint(n, "len", 12, &u[1], err);
    if (!rc)
        rc = oxo_mp_uint(n, "states", 4, &u[2], err);
    /* Absent from models of minor version 0, which had one set. */
    if (!rc && oxo_mp_get(n, "sets"))
        rc = oxo_mp_uint(n, "sets", 2, &u[4], err);
    if (!rc)
        rc = oxo_mp_uint(n, "horizon", 64, &u[3], err);
    /* Absent from models before minor version 2, whose exploring starts went up to the end. */
    if (!rc && oxo_mp_get(n, "exploring_depth"))
        rc = oxo_mp_uint(n, "exploring_depth", 64, &u[5], err);
    /* Absent from models before minor version 3, which learned toward the next afterstate. */
    char target[8] = "next";
    if (!rc && oxo_mp_get(n, "target"))
        rc = oxo_mp_str(n, "target", target, sizeof target, err);
    if (!rc && strcmp(target, "next") && strcmp(target, "own"))
        rc = oxo_fail(err, OXO_E_FIELD, "ntuple target '%s', expected next or own", target);
    /* Absent before minor version 6 and from networks whose second player did not defend. */
    int defend = 0;
    if (!rc && oxo_mp_get(n, "defend"))
        rc = oxo_mp_bool(n, "defend", &defend, err);
    /* Absent before minor version 7 and from networks with no search phase since they last
     * learned. */
    uint64_t sg = 0, si = 0;
    double sa = 0;
    const msgpack_object *sm;
    if (!rc && oxo_mp_get(n, "search")) {
        rc = oxo_mp_map(n, "search", &sm, err);
        if (!rc)
            rc = oxo_mp_uint(sm, "games", OXO_MAX_SEARCH_GAMES, &sg, err);
        if (!rc)
            rc = oxo_mp_uint(sm, "iterations", OXO_MAX_SEARCH_ITERATIONS, &si, err);
        if (!rc)
            rc = oxo_mp_num(sm, "alpha", 0, 1, &sa, err);
        if (!rc && (!sg || !si || !(sa > 0)))
            rc = oxo_fail(err, OXO_E_FIELD,
                          "ntuple search: %llu games of %llu iterations, alpha %g; expected 1 or "
                          "more of each, alpha above 0",
                          (unsigned long long)sg, (unsigned long long)si, sa);
    }
    if (!rc)
        rc = oxo_mp_bin(n, "cells", &bin, &blen, err);
    if (rc)
        return rc;
    if (!u[0] || !u[1] || u[2] < 3 || !u[3] || !u[4])
        return oxo_fail(
            err, OXO_E_FIELD,
            "ntuple: %llu tuples of %llu cells over %llu states, horizon %llu, "
            "%llu weight sets; expected at least 1 tuple of 1 cell, 3 or 4 states, a horizon of 1 "
            "or more, 1 or 2 sets",
            (unsigned long long)u[0], (unsigned long long)u[1], (unsigned long long)u[2],
            (unsigned long long)u[3], (unsigned long long)u[4]);
    m->nt_count = (uint32_t)u[0];
    m->nt_len = (uint32_t)u[1];
    m->nt_states = (uint32_t)u[2];
    m->nt_horizon = (uint32_t)u[3];
    m->nt_sets = (uint32_t)u[4];
    m->nt_start_depth = (uint32_t)u[5];
    m->nt_target = strcmp(target, "own") ? OXO_NT_TARGET_NEXT : OXO_NT_TARGET_OWN;
    m->nt_defend = defend;
    m->nt_search_games = (uint32_t)sg;
    m->nt_search_iterations = (uint32_t)si;
    m->nt_search_alpha = sa;
    if (blen != m->nt_count * m->nt_len)
        return oxo_fail(err, OXO_E_FIELD, "ntuple cells: %u bytes, expected %u tuples of %u", blen,
                        m->nt_count, m->nt_len);
    for (uint32_t t = 0; t < m->nt_count; t++)
        for (uint32_t i = 0; i < m->nt_len; i++) {
            uint8_t c = bin[t * m->nt_len + i];
            if (c >= m->rows * m->cols)
                return oxo_fail(err, OXO_E_FIELD, "ntuple %u cell %u is %u, beyond the %ux%u board",
                                t, i, c, m->rows, m->cols);
            for (uint32_t j = 0; j < i; j++)
                if (bin[t * m->nt_len + j] == c)
                    return oxo_fail(err, OXO_E_FIELD, "ntuple %u holds cell %u twice", t, c);
        }
    if (!(m->nt_cells = malloc(blen)))
        return oxo_fail(err, OXO_E_NOMEM, "ntuple cells");
    memcpy(m->nt_cells, bin, blen);
    /* Bounded on the layout the file holds (with gravity from minor 4, the fillings a board can
     * have), which needs the cells. */
    if (!oxo_ntuple_weights_of(m))
        return oxo_fail(err, OXO_E_FIELD,
                        "ntuple: %u tuples of %u cells over %u states, %u weight set%s: more "
                        "than %u weights",
                        m->nt_count, m->nt_len, m->nt_states, m->nt_sets,
                        m->nt_sets == 1 ? "" : "s", OXO_MODEL_MAX_WEIGHTS);
    return OXO_OK;
}

/* A bin of n little-endian float32 values, each a number within the bound, into a new array. */
/* A bin of n little-endian u32s (n * 4 bytes exactly) into a new array. */
static int read_u32s(const msgpack_object *map, const char *key, uint32_t n, uint32_t **out,
                     oxo_error *err)
{
    const uint8_t *bin;
    uint32_t blen;
    int rc = oxo_mp_bin(map, key, &bin, &blen, err);
    if (rc)
        return rc;
    if ((uint64_t)blen != 4 * (uint64_t)n)
        return oxo_fail(err, OXO_E_FIELD, "neat %s: %u bytes, expected %u numbers of 4", key, blen,
                        n);
    if (!(*out = malloc(n ? 4 * (size_t)n : 1)))
        return oxo_fail(err, OXO_E_NOMEM, "neat %s", key);
    for (uint32_t i = 0; i < n; i++)
        (*out)[i] = le32(bin + 4 * i);
    return 0;
}

/* A NEAT population (FORMAT.md): its counters and settings, its genomes and species, each number
 * checked against the others; the links, which the values count, after them (read_neat_links).
 * Whether the links make a network without cycles is the player's and the trainer's check
 * (lookup/neat.c), which know the game's inputs and outputs. */
static int read_neat(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *n;
    uint64_t u[8];
    static const char *const keys[8] = {"genomes",         "species",      "next_node",
                                        "next_innovation", "next_species", "population",
                                        "target_species",  "positions"};
    static const uint64_t most[8] = {OXO_MODEL_NEAT_MAX_GENOMES,
                                     OXO_MODEL_NEAT_MAX_GENOMES,
                                     OXO_MODEL_NEAT_MAX_NODES,
                                     UINT32_MAX,
                                     UINT32_MAX,
                                     OXO_MODEL_NEAT_MAX_GENOMES - 1,
                                     OXO_MODEL_NEAT_MAX_GENOMES,
                                     1u << 20};
    int rc = oxo_mp_map(root, "neat", &n, err);
    for (int i = 0; !rc && i < 8; i++)
        rc = oxo_mp_uint(n, keys[i], most[i], &u[i], err);
    uint64_t games = 0;
    if (!rc)
        rc = oxo_mp_uint(n, "games", 1u << 20, &games, err);
    char act[32];
    if (!rc && !(rc = oxo_mp_str(n, "activation", act, sizeof act, err)) &&
        strcmp(act, "sigmoid(4.9x)"))
        rc = oxo_fail(err, OXO_E_FIELD, "neat activation '%s', expected sigmoid(4.9x)", act);
    if (!rc)
        rc = oxo_mp_num(n, "threshold", 1e-6, 1e6, &m->ne_threshold, err);
    if (!rc)
        rc = oxo_mp_num(n, "fitness", -1e6, 1e6, &m->ne_fitness, err);
    if (rc)
        return rc;
    m->ne_genomes = (uint32_t)u[0];
    m->ne_nspecies = (uint32_t)u[1];
    m->ne_next_node = (uint32_t)u[2];
    m->ne_next_innov = (uint32_t)u[3];
    m->ne_next_species = (uint32_t)u[4];
    m->ne_population = (uint32_t)u[5];
    m->ne_target_species = (uint32_t)u[6];
    m->ne_positions = (uint32_t)u[7];
    m->ne_games = (uint32_t)games;
    if (m->ne_population < 2 || m->ne_genomes != m->ne_population + 1 || !m->ne_nspecies ||
        m->ne_nspecies > m->ne_population || !m->ne_target_species)
        return oxo_fail(err, OXO_E_FIELD,
                        "neat: %u genomes, %u species for a population of %u (target %u species); "
                        "expected the population and its champion, 1 species or more",
                        m->ne_genomes, m->ne_nspecies, m->ne_population, m->ne_target_species);
    if ((rc = read_u32s(n, "genome", 3 * m->ne_genomes, &m->ne_genome, err)))
        return rc;
    uint64_t hidden = 0, links = 0;
    for (uint32_t i = 0; i < m->ne_genomes; i++) {
        const uint32_t *gi = m->ne_genome + 3 * i;
        hidden += gi[0];
        links += gi[1];
        if (gi[2] >= m->ne_next_species)
            return oxo_fail(err, OXO_E_FIELD, "neat genome %u: species %u, the run made %u", i,
                            gi[2], m->ne_next_species);
    }
    if (hidden > UINT32_MAX || links > UINT32_MAX)
        return oxo_fail(err, OXO_E_FIELD, "neat: too many nodes or links");
    m->ne_nhidden = (uint32_t)hidden;
    m->nvalues = (uint32_t)links; /* the values must then hold as many weights */
    if ((rc = read_u32s(n, "hidden", m->ne_nhidden, &m->ne_hidden, err)))
        return rc;
    for (uint32_t g = 0, at = 0; g < m->ne_genomes; at += m->ne_genome[3 * g], g++)
        for (uint32_t i = 0; i < m->ne_genome[3 * g]; i++)
            if (m->ne_hidden[at + i] >= m->ne_next_node ||
                (i && m->ne_hidden[at + i] <= m->ne_hidden[at + i - 1]))
                return oxo_fail(err, OXO_E_FIELD,
                                "neat genome %u: hidden node %u (ids rise, below %u)", g,
                                m->ne_hidden[at + i], m->ne_next_node);
    if ((rc = read_u32s(n, "species_table", 4 * m->ne_nspecies, &m->ne_species, err)))
        return rc;
    for (uint32_t s = 0; s < m->ne_nspecies; s++) {
        const uint32_t *sp = m->ne_species + 4 * s;
        float best;
        memcpy(&best, &sp[3], 4);
        if (sp[0] >= m->ne_next_species || (s && sp[0] <= m->ne_species[4 * (s - 1)]) ||
            sp[1] == 0 || sp[1] >= m->ne_genomes || m->ne_genome[3 * sp[1] + 2] != sp[0] ||
            !isfinite(best))
            return oxo_fail(err, OXO_E_FIELD,
                            "neat species %u: id %u, representative %u; expected ids rising below "
                            "%u, a representative of the population in the species, a finite "
                            "best fitness",
                            s, sp[0], sp[1], m->ne_next_species);
    }
    /* every genome of the population in a species of the table */
    for (uint32_t g = 1; g < m->ne_genomes; g++) {
        uint32_t s = 0;
        while (s < m->ne_nspecies && m->ne_species[4 * s] != m->ne_genome[3 * g + 2])
            s++;
        if (s == m->ne_nspecies)
            return oxo_fail(err, OXO_E_FIELD, "neat genome %u: species %u is not in the table", g,
                            m->ne_genome[3 * g + 2]);
    }
    return 0;
}

/* The links of the genomes, as many as the values. */
static int read_neat_links(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *n;
    int rc = oxo_mp_map(root, "neat", &n, err);
    if (!rc)
        rc = read_u32s(n, "links", 4 * m->nvalues, &m->ne_links, err);
    for (uint32_t i = 0; !rc && i < m->nvalues; i++) {
        const uint32_t *l = m->ne_links + 4 * i;
        if (l[0] >= m->ne_next_node || l[1] >= m->ne_next_node || l[2] >= m->ne_next_innov ||
            l[3] > 1)
            rc = oxo_fail(err, OXO_E_FIELD,
                          "neat link %u: from %u to %u, innovation %u, enabled %u; expected "
                          "nodes below %u, innovations below %u, enabled 0 or 1",
                          i, l[0], l[1], l[2], l[3], m->ne_next_node, m->ne_next_innov);
    }
    return rc;
}

static int read_floats(const uint8_t *bin, uint32_t n, const char *what, float **out,
                       oxo_error *err)
{
    if (!(*out = malloc(n ? 4 * (size_t)n : 1)))
        return oxo_fail(err, OXO_E_NOMEM, "%u %s", n, what);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = le32(bin + 4 * i);
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
    return count ? read_floats(bin, m->nvalues, "average value", &m->avg_values, err) : OXO_OK;
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
    if (!rc && strcmp(m->algo, "q") && strcmp(m->algo, "td") && strcmp(m->algo, "ntuple") &&
        strcmp(m->algo, "neat"))
        rc = oxo_fail(err, OXO_E_FIELD, "algo \"%s\", expected q, td, ntuple or neat", m->algo);
    const int nt = !rc && !strcmp(m->algo, "ntuple");
    const int ne = !rc && !strcmp(m->algo, "neat");
    if (nt)
        rc = read_ntuple(root, m, err);
    uint32_t ne_links = 0; /* the links of the genomes, which the values must match */
    if (ne && !(rc = read_neat(root, m, err)))
        ne_links = m->nvalues;
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
        rc = read_floats(bin, m->nvalues, "value", &m->values, err);
    }
    if (!rc && ne && m->nvalues != ne_links)
        rc = oxo_fail(err, OXO_E_FIELD, "%u values, expected one a link of the genomes (%u)",
                      m->nvalues, ne_links);
    if (!rc && nt && m->nvalues != oxo_ntuple_weights_of(m))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "%u values, expected %u (%u tuples of %u cells over %u states, %u "
                      "weight set%s)",
                      m->nvalues, oxo_ntuple_weights_of(m), m->nt_count, m->nt_len, m->nt_states,
                      m->nt_sets, m->nt_sets == 1 ? "" : "s");
    if (!rc && ne)
        rc = read_neat_links(root, m, err);
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
