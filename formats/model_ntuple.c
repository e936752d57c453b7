/*
 * The model reader's n-tuple networks (algo "ntuple"; FORMAT.md): the tuples' key checked so that
 * every weight index a player computes stays inside the weights, and the number of weights each
 * layout of tuples holds, which the values must match.
 */
#include "model_algo.h"

#include <string.h>

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

/* The values: exactly the weights the tuples index. */
static int ntuple_values(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    (void)root;
    if (m->nvalues != oxo_ntuple_weights_of(m))
        return oxo_fail(err, OXO_E_FIELD,
                        "%u values, expected %u (%u tuples of %u cells over %u states, %u "
                        "weight set%s)",
                        m->nvalues, oxo_ntuple_weights_of(m), m->nt_count, m->nt_len, m->nt_states,
                        m->nt_sets, m->nt_sets == 1 ? "" : "s");
    return OXO_OK;
}

const oxo_model_algo oxo_model_algo_ntuple = {"ntuple", read_ntuple, ntuple_values};
