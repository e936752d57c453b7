/*
 * The registry of learners: the one list that names them. A new learner is a file in this folder
 * that defines its `const oxo_learner` (trainer.h: its name, defaults, create, episode, replay
 * record, ring check) plus its declaration and its row here (and its oxo_algo in train.h, for the
 * library's callers).
 */
#include "trainer.h"

#include <stdio.h>
#include <string.h>

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

const oxo_learner_cli *oxo_algo_cli(oxo_algo algo)
{
    static const oxo_learner_cli none;
    const oxo_learner *l = oxo_learner_of(algo);
    return l ? &l->cli : &none;
}

oxo_graded oxo_algo_graded(oxo_algo algo)
{
    const oxo_learner *l = oxo_learner_of(algo);
    return l ? l->graded : OXO_GRADED_TABLE;
}

/* The names of the learners that `keep` keeps, "a, b or c", each followed by what `how` says of
 * it ("a, b with x, or c with y"), into buf. */
static const char *names_of(int (*keep)(const oxo_learner *, const void *), const void *arg,
                            const char *(*how)(const oxo_learner *), char *buf, size_t cap)
{
    size_t n = 0;
    int count = 0, kept = 0;
    for (int i = 0; oxo_learners[i]; i++)
        count += keep(oxo_learners[i], arg);
    if (cap)
        buf[0] = 0;
    for (int i = 0; oxo_learners[i] && n < cap; i++) {
        if (!keep(oxo_learners[i], arg))
            continue;
        kept++;
        int w = snprintf(buf + n, cap - n, "%s%s%s",
                         kept == 1       ? ""
                         : kept == count ? (how && count > 2 ? ", or " : " or ")
                                         : ", ",
                         oxo_learners[i]->name, how ? how(oxo_learners[i]) : "");
        n += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

static int keep_all(const oxo_learner *l, const void *arg)
{
    (void)l, (void)arg;
    return 1;
}

static int keep_graded(const oxo_learner *l, const void *arg)
{
    return l->graded == *(const oxo_graded *)arg;
}

static int keep_judged(const oxo_learner *l, const void *arg)
{
    (void)arg;
    return l->graded != OXO_GRADED_TABLE;
}

static const char *when_judged(const oxo_learner *l)
{
    return l->graded == OXO_GRADED_TRAIN_SET ? " with --train-set"
           : l->graded == OXO_GRADED_EITHER  ? " without a table"
                                             : "";
}

static int keep_with(const oxo_learner *l, const void *arg)
{
    int on;
    memcpy(&on, (const char *)&l->cli + *(const size_t *)arg, sizeof on);
    return on;
}

const char *oxo_algo_names_with(size_t trait, char *buf, size_t cap)
{
    return names_of(keep_with, &trait, NULL, buf, cap);
}

static int keep_inputs(const oxo_learner *l, const void *arg)
{
    (void)arg;
    return l->cli.inputs != NULL;
}

const char *oxo_algo_names_inputs(char *buf, size_t cap)
{
    return names_of(keep_inputs, NULL, NULL, buf, cap);
}

const char *oxo_algo_names(char *buf, size_t cap)
{
    return names_of(keep_all, NULL, NULL, buf, cap);
}

const char *oxo_algo_names_judged(char *buf, size_t cap)
{
    return names_of(keep_judged, NULL, when_judged, buf, cap);
}

const char *oxo_algo_names_graded(oxo_graded graded, char *buf, size_t cap)
{
    return names_of(keep_graded, &graded, NULL, buf, cap);
}

const oxo_learner *oxo_learner_named(const char *name)
{
    for (int i = 0; oxo_learners[i]; i++)
        if (!strcmp(oxo_learners[i]->name, name))
            return oxo_learners[i];
    return NULL;
}
