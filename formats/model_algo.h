/*
 * What the model reader asks of each algorithm a model may hold (formats/model_read.c keeps the
 * list): its name, the reading of its own key before the common keys and the values, and the
 * checks of the values against it (and anything read after them). One file and one row a kind:
 * model_ntuple.c, model_neat.c, model_azero.c.
 */
#ifndef OXO_MODEL_ALGO_H
#define OXO_MODEL_ALGO_H

#include "model.h"
#include "mpread.h"

typedef struct oxo_model_algo {
    const char *name; /* the "algo" key */
    /* Its own key, read into m before the hyper-parameters and the values; NULL: none. */
    int (*read)(const msgpack_object *root, oxo_model *m, oxo_error *err);
    /* Once the values are read (m->nvalues): whether their number is the algorithm's, and what
     * follows from them; NULL: any number. */
    int (*values)(const msgpack_object *root, oxo_model *m, oxo_error *err);
} oxo_model_algo;

extern const oxo_model_algo oxo_model_algo_ntuple, oxo_model_algo_neat, oxo_model_algo_azero;

static inline uint32_t oxo_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The bin `key` of map (an algorithm's own key, named `algo` in errors) holding exactly n
 * little-endian u32s, into a new array (*out, freed by the caller even on failure). */
int oxo_model_u32s(const msgpack_object *map, const char *algo, const char *key, uint64_t n,
                   uint32_t **out, oxo_error *err);

/* A bin of n little-endian float32 values, each a number within OXO_MODEL_VALUE_MAX, into a new
 * array (*out, freed by the caller even on failure). */
int oxo_model_floats(const uint8_t *bin, uint32_t n, const char *what, float **out, oxo_error *err);

#endif
