/*
 * The registry of learners: the one list that names them. A new learner is a file in this folder
 * that defines its `const oxo_learner` (trainer.h: its name, defaults, create, episode, replay
 * record, ring check) plus its declaration and its row here (and its oxo_algo in train.h, for the
 * library's callers).
 */
#include "trainer.h"

#include <stdio.h>

extern const oxo_learner oxo_learner_q;      /* tabular.c */
extern const oxo_learner oxo_learner_td;     /* tabular.c */
extern const oxo_learner oxo_learner_ntuple; /* ntuple.c */
extern const oxo_learner oxo_learner_neat;   /* neat.c */
extern const oxo_learner oxo_learner_azero;  /* azero.c */

/* One row a line, as a new one adds a line. */
/* clang-format off */
const oxo_learner *const oxo_learners[] = {
    &oxo_learner_q,
    &oxo_learner_td,
    &oxo_learner_ntuple,
    &oxo_learner_neat,
    &oxo_learner_azero,
    NULL,
};
/* clang-format on */

const oxo_learner *oxo_learner_of(oxo_algo algo)
{
    for (int i = 0; oxo_learners[i]; i++)
        if (oxo_learners[i]->algo == algo)
            return oxo_learners[i];
    return NULL;
}

int oxo_algo_named(const char *name, oxo_algo *algo)
{
    const oxo_learner *l = oxo_learner_named(name);
    if (l)
        *algo = l->algo;
    return l ? 0 : -1;
}

const char *oxo_algo_name(oxo_algo algo)
{
    const oxo_learner *l = oxo_learner_of(algo);
    return l ? l->name : "?";
}

const char *oxo_algo_names(char *buf, size_t cap)
{
    size_t n = 0;
    int count = 0;
    while (oxo_learners[count])
        count++;
    if (cap)
        buf[0] = 0;
    for (int i = 0; i < count && n < cap; i++) {
        int w = snprintf(buf + n, cap - n, "%s%s",
                         i == 0           ? ""
                         : i + 1 == count ? " or "
                                          : ", ",
                         oxo_learners[i]->name);
        n += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const oxo_learner *oxo_learner_named(const char *name)
{
    for (int i = 0; oxo_learners[i]; i++)
        if (!strcmp(oxo_learners[i]->name, name))
            return oxo_learners[i];
    return NULL;
}
