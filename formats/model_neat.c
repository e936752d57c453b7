/*
 * The model reader's NEAT populations (algo "neat"; FORMAT.md): counters, settings, genomes and
 * species, each number checked against the others, then the links, one for each value (its
 * weight). Whether the links make a network without cycles is the player's and the trainer's
 * check (lookup/neat.c), which know the game's inputs and outputs.
 */
#include "model_algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    /* Absent from the first files of minor 8: positions drawn from the table. */
    if (!rc && oxo_mp_get(n, "train_set") &&
        !(rc = oxo_mp_str(n, "train_set", m->ne_train_set, sizeof m->ne_train_set, err))) {
        size_t k = strlen(m->ne_train_set), hex = strspn(m->ne_train_set, "0123456789abcdef");
        if ((k != 0 && k != 16) || hex != k)
            rc = oxo_fail(err, OXO_E_FIELD, "neat train_set \"%s\", expected \"\" or 16 hex digits",
                          m->ne_train_set);
    }
    /* minor 16: the networks read the tactics' inputs; absent, the cells alone. minor 17: they
     * score each move's afterstate, with its tactics (which it cannot go without) */
    int tactics = 0, afterstate = 0;
    if (!rc && oxo_mp_get(n, "tactics"))
        rc = oxo_mp_bool(n, "tactics", &tactics, err);
    if (!rc && oxo_mp_get(n, "afterstate"))
        rc = oxo_mp_bool(n, "afterstate", &afterstate, err);
    if (!rc && afterstate && !tactics)
        rc = oxo_fail(err, OXO_E_FIELD,
                      "neat afterstate without tactics: an afterstate network "
                      "reads its move's tactics");
    m->ne_inputs = afterstate ? 2 : tactics; /* OXO_NEAT_AFTERSTATE, OXO_NEAT_TACTICS */
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
    if ((rc = oxo_model_u32s(n, "neat", "genome", 3 * m->ne_genomes, &m->ne_genome, err)))
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
    if ((rc = oxo_model_u32s(n, "neat", "hidden", m->ne_nhidden, &m->ne_hidden, err)))
        return rc;
    for (uint32_t g = 0, at = 0; g < m->ne_genomes; at += m->ne_genome[3 * g], g++)
        for (uint32_t i = 0; i < m->ne_genome[3 * g]; i++)
            if (m->ne_hidden[at + i] >= m->ne_next_node ||
                (i && m->ne_hidden[at + i] <= m->ne_hidden[at + i - 1]))
                return oxo_fail(err, OXO_E_FIELD,
                                "neat genome %u: hidden node %u (ids rise, below %u)", g,
                                m->ne_hidden[at + i], m->ne_next_node);
    if ((rc = oxo_model_u32s(n, "neat", "species_table", 4 * m->ne_nspecies, &m->ne_species, err)))
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
        rc = oxo_model_u32s(n, "neat", "links", 4 * m->nvalues, &m->ne_links, err);
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

/* The values: one a link of the genomes; then the links themselves. */
static int neat_values(const msgpack_object *root, oxo_model *m, oxo_error *err)
{
    uint64_t links = 0;
    for (uint32_t g = 0; g < m->ne_genomes; g++)
        links += m->ne_genome[3 * g + 1];
    if (m->nvalues != links)
        return oxo_fail(err, OXO_E_FIELD, "%u values, expected one a link of the genomes (%llu)",
                        m->nvalues, (unsigned long long)links);
    return read_neat_links(root, m, err);
}

const oxo_model_algo oxo_model_algo_neat = {"neat", read_neat, neat_values};
