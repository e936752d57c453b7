/*
 * The model reader's AlphaZero-lite networks (algo "azero"; FORMAT.md): the shape, which the
 * values must fill exactly, the settings of the self-play, Adam's moments, and the window of
 * self-play positions with their targets, each checked against the others. Whether the inputs and
 * outputs are the game's is the player's and the trainer's check (lookup/azero.c), which know the
 * game.
 */
#include "model_algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int read_azero(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    const msgpack_object *a;
    static const char *const keys[] = {"inputs", "outputs", "simulations",       "games", "batch",
                                       "window", "count",   "temperature_moves", "head"};
    static const uint64_t most[] = {OXO_MODEL_AZ_MAX_INPUTS,
                                    64,
                                    1u << 20,
                                    1u << 20,
                                    1u << 16,
                                    OXO_MODEL_AZ_MAX_WINDOW,
                                    OXO_MODEL_AZ_MAX_WINDOW,
                                    64,
                                    OXO_MODEL_AZ_MAX_WINDOW};
    uint64_t u[9], steps = 0;
    int rc = oxo_mp_map(root, "azero", &a, err);
    for (int i = 0; !rc && i < 9; i++)
        rc = oxo_mp_uint(a, keys[i], most[i], &u[i], err);
    if (!rc)
        rc = oxo_mp_uint(a, "steps", UINT64_MAX, &steps, err);
    if (!rc)
        rc = oxo_mp_num(a, "train_ratio", 0, 1024, &m->az_ratio, err);
    if (!rc)
        rc = oxo_mp_bool(a, "judged", &m->az_judged, err);
    m->az_value_q = 0; /* minor 10; absent: the result alone */
    if (!rc && oxo_mp_get(a, "value_q"))
        rc = oxo_mp_num(a, "value_q", 0, 1, &m->az_value_q, err);
    m->az_lines = 0; /* minor 13; absent: the cells alone */
    if (!rc && oxo_mp_get(a, "lines"))
        rc = oxo_mp_bool(a, "lines", &m->az_lines, err);
    m->az_random = 0; /* minor 14; absent: none */
    if (!rc && oxo_mp_get(a, "random_moves"))
        rc = oxo_mp_num(a, "random_moves", 0, 1, &m->az_random, err);
    m->az_rgames = 1; /* minor 14; absent: every game */
    if (!rc && oxo_mp_get(a, "random_games"))
        rc = oxo_mp_num(a, "random_games", 0, 1, &m->az_rgames, err);
    m->az_rmargin = -1; /* minor 15; absent: every random move decides the value target */
    if (!rc && oxo_mp_get(a, "random_margin"))
        rc = oxo_mp_num(a, "random_margin", 0, 2, &m->az_rmargin, err);
    m->az_threats = 0; /* minor 14; absent: none */
    if (!rc && oxo_mp_get(a, "threats"))
        rc = oxo_mp_bool(a, "threats", &m->az_threats, err);
    if (!rc && m->az_threats && !m->az_lines)
        rc = oxo_fail(err, OXO_E_FIELD, "azero: threats are inputs only beside the lines");
    char hidden[16], value[16];
    if (!rc && !(rc = oxo_mp_str(a, "hidden", hidden, sizeof hidden, err)) &&
        strcmp(hidden, "relu"))
        rc = oxo_fail(err, OXO_E_FIELD, "azero hidden units '%s', expected relu", hidden);
    if (!rc && !(rc = oxo_mp_str(a, "value", value, sizeof value, err)) && strcmp(value, "tanh"))
        rc = oxo_fail(err, OXO_E_FIELD, "azero value head '%s', expected tanh", value);
    if (rc)
        return rc;
    m->az_inputs = (uint32_t)u[0], m->az_outputs = (uint32_t)u[1], m->az_sims = (uint32_t)u[2];
    m->az_games = (uint32_t)u[3], m->az_batch = (uint32_t)u[4], m->az_window = (uint32_t)u[5];
    m->az_count = (uint32_t)u[6], m->az_temp_moves = (uint32_t)u[7], m->az_head = (uint32_t)u[8];
    m->az_steps = steps;
    if (!m->az_inputs || (!m->az_lines && m->az_inputs > 128) || !m->az_outputs || !m->az_sims ||
        !m->az_games || !m->az_batch || !m->az_window || m->az_count > m->az_window ||
        m->az_head >= m->az_window || (m->az_count < m->az_window && m->az_head != m->az_count))
        return oxo_fail(err, OXO_E_FIELD,
                        "azero: %u inputs, %u outputs, %u simulations, %u games, batch %u, a "
                        "window of %u holding %u (next slot %u); expected each above 0 (at most "
                        "128 inputs without lines), and the window's count and slot within it",
                        m->az_inputs, m->az_outputs, m->az_sims, m->az_games, m->az_batch,
                        m->az_window, m->az_count, m->az_head);
    const msgpack_object *w = oxo_mp_get(a, "widths");
    if (!w || w->type != MSGPACK_OBJECT_BIN || w->via.bin.size % 4 || w->via.bin.size < 4 ||
        w->via.bin.size > 4 * OXO_MODEL_AZ_MAX_LAYERS)
        return oxo_fail(err, OXO_E_FIELD, "azero widths: expected 1 to %d numbers of 4 bytes",
                        OXO_MODEL_AZ_MAX_LAYERS);
    m->az_layers = w->via.bin.size / 4;
    uint64_t params = 0, in = m->az_inputs;
    for (uint32_t l = 0; l < m->az_layers; l++) {
        m->az_width[l] = oxo_le32((const uint8_t *)w->via.bin.ptr + 4 * l);
        if (!m->az_width[l] || m->az_width[l] > OXO_MODEL_AZ_MAX_WIDTH) {
            const uint32_t bad = m->az_width[l];
            m->az_layers = 0;
            return oxo_fail(err, OXO_E_FIELD, "azero hidden layer %u of %u units, expected 1 to %u",
                            l + 1, bad, OXO_MODEL_AZ_MAX_WIDTH);
        }
        params += m->az_width[l] * (in + 1);
        in = m->az_width[l];
    }
    params += (uint64_t)m->az_outputs * (in + 1) + in + 1;
    m->nvalues = (uint32_t)params; /* the values must then hold as many parameters */
    return 0;
}

/* Once the values are read: one a parameter; then Adam's moments (finite) and the window. */
static int azero_values(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    uint64_t params = 0, in = m->az_inputs;
    for (uint32_t l = 0; l < m->az_layers; l++)
        params += m->az_width[l] * (in + 1), in = m->az_width[l];
    params += (uint64_t)m->az_outputs * (in + 1) + in + 1;
    if (m->nvalues != params)
        return oxo_fail(err, OXO_E_FIELD, "%u values, expected the network's %llu parameters",
                        m->nvalues, (unsigned long long)params);
    const msgpack_object *a;
    uint32_t *adam = NULL, *codes = NULL, *targets = NULL;
    const uint64_t O = (uint64_t)m->az_outputs + 1;
    int rc = oxo_mp_map(root, "azero", &a, err);
    if (!rc)
        rc = oxo_model_u32s(a, "azero", "adam", 2 * (uint64_t)m->nvalues, &adam, err);
    if (!rc)
        rc = oxo_model_u32s(a, "azero", "codes", 2 * (uint64_t)m->az_count, &codes, err);
    if (!rc)
        rc = oxo_model_u32s(a, "azero", "targets", m->az_count * O, &targets, err);
    m->az_adam = (float *)(void *)adam;
    m->az_targets = (float *)(void *)targets;
    for (uint64_t i = 0; !rc && i < 2 * (uint64_t)m->nvalues; i++)
        if (!isfinite(m->az_adam[i]) || (i >= m->nvalues && m->az_adam[i] < 0))
            rc = oxo_fail(err, OXO_E_FIELD,
                          "azero adam %llu: expected a finite number (a second moment: not below "
                          "0)",
                          (unsigned long long)i);
    for (uint32_t i = 0; !rc && i < m->az_count; i++) {
        const float *t = m->az_targets + i * O;
        double sum = 0;
        int bad = !(t[O - 1] >= -1 && t[O - 1] <= 1);
        for (uint64_t k = 0; k + 1 < O; k++)
            bad |= !(t[k] >= 0 && t[k] <= 1), sum += t[k];
        if (bad || fabs(sum - 1) > 1e-3)
            rc = oxo_fail(err, OXO_E_FIELD,
                          "azero window position %u: expected shares of the visits from 0 to 1 "
                          "summing to 1 and a result from -1 to 1",
                          i);
    }
    if (!rc && !(m->az_codes = malloc((m->az_count ? m->az_count : 1) * sizeof *m->az_codes)))
        rc = oxo_fail(err, OXO_E_NOMEM, "azero window");
    for (uint32_t i = 0; !rc && i < m->az_count; i++)
        m->az_codes[i] = codes[2 * i] | (uint64_t)codes[2 * i + 1] << 32;
    free(codes);
    return rc;
}

const oxo_model_algo oxo_model_algo_azero = {"azero", read_azero, azero_values};
