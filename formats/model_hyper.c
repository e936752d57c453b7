/*
 * The learning settings a model stores, as one table (model.h: oxo_hyper_fields): the `hyper` map
 * of FORMAT.md in the body's order, each key with its type, the range a reader takes and its field
 * of oxo_model. A new stored setting is a row here, its field in oxo_model and a line in
 * FORMAT.md; the writer, the reader and oxo-play --info --json follow the row.
 */
#include "model.h"

#include <stddef.h>
#include <string.h>

#define M(field) offsetof(oxo_model, field)

/* clang-format off */
const oxo_hyper_field oxo_hyper_fields[] = {
    {"alpha", OXO_HYPER_SCHEDULE, 0, 0, M(alpha), 0},
    {"epsilon", OXO_HYPER_SCHEDULE, 0, 0, M(epsilon), 0},
    {"gamma", OXO_HYPER_REAL, 1, 0, M(gamma), 0},
    {"lambda", OXO_HYPER_REAL, 1, 0, M(lambda), 0},
    {"trace", OXO_HYPER_TRACE, 0, 0, M(trace), 0},
    {"init", OXO_HYPER_REAL, 1, -1, M(init), 0},
    {"replay_capacity", OXO_HYPER_COUNT, 1u << 24, 0, M(replay_capacity), 0},
    {"replay_ratio", OXO_HYPER_REAL, 64, 0, M(replay_ratio), 0},
    {"replay_record", OXO_HYPER_COUNT, 65, 0, M(replay_record), 1},
    {"opponent", OXO_HYPER_OPPONENT, 0, 0, 0, 0},
    {"exploring_starts", OXO_HYPER_REAL, 1, 0, M(starts), 0},
    {"sync", OXO_HYPER_COUNT, UINT32_MAX, 0, M(sync), 0},
    {NULL, 0, 0, 0, 0, 0},
};
/* clang-format on */

const oxo_hyper_field *oxo_hyper_named(const char *key)
{
    for (const oxo_hyper_field *f = oxo_hyper_fields; f->key; f++)
        if (!strcmp(f->key, key))
            return f;
    return NULL;
}
