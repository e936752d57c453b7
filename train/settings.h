/*
 * oxo-train's table of learning settings (settings.c): what each option sets, its range, its
 * help, whether --sweep takes it, the model field that stores it.
 */
#ifndef OXO_SETTINGS_H
#define OXO_SETTINGS_H

#include "train.h"

#include <stddef.h>
#include <stdio.h>

/* The program named in the settings' messages. */
#define OXO_SETTINGS_PROG "oxo-train"

typedef enum {
    /* parsed elsewhere (a schedule kind, a trace, opponents): a line of --help */
    OXO_SET_OTHER = 0,
    OXO_SET_REAL,  /* a number from lo to hi, into a double */
    OXO_SET_COUNT, /* a whole number from lo to hi, into a uint64_t or a uint32_t */
} oxo_setting_type;

enum {
    OXO_SET_SWEEP = 1,     /* --sweep KEY=... takes it */
    OXO_SET_ALPHA = 2,     /* sets the end of the learning rate's schedule too, unless given */
    OXO_SET_ALPHA_END = 4, /* the end of that schedule, given */
    OXO_SET_HIDDEN = 8,    /* not a line of the Learning section (an option of another) */
    OXO_SET_STORED = 16,   /* the model stores it, in the field at `model` (model.h's hyper map) */
};

typedef struct oxo_setting {
    const char *name; /* the option without "--", and the --sweep key */
    oxo_setting_type type;
    double lo, hi; /* the range */
    size_t offset; /* the field of oxo_train_config it sets, and its size */
    size_t size;
    size_t model; /* OXO_SET_STORED: the field of oxo_model (of the same size) that stores it */
    int flags;
    const char *arg;  /* the argument's name in --help ("A"), NULL for a flag */
    const char *help; /* its help: the first line beside the option, the others under it */
    const char *algo; /* the one learner that reads it (its --algo name), NULL for every one */
} oxo_setting;

/* Every row, in --help's order, ended by a row whose name is NULL. */
extern const oxo_setting oxo_settings[];

/* The numeric setting of a name (an option or a --sweep key), NULL when none. */
const oxo_setting *oxo_setting_named(const char *name);
/* Parses val into c's field of s: 0, or -1 after a message naming the option. *alpha_end_set
 * says whether the learning rate's end was given (see OXO_SET_ALPHA). */
int oxo_setting_set(const oxo_setting *s, oxo_train_config *c, const char *val, int *alpha_end_set);
/* The same by name: -1 after a message for a name the table lacks (a --sweep key). */
int oxo_setting_set_named(oxo_train_config *c, const char *key, const char *val,
                          int *alpha_end_set);
/* Every stored setting of the table from a run's settings into a model, and back (a resumed run
 * takes them from its model). */
void oxo_settings_store(const oxo_train_config *c, oxo_model *m);
void oxo_settings_load(const oxo_model *m, oxo_train_config *c);
/* The Learning section of --help, one option a line (its help's further lines under it). */
void oxo_settings_help(FILE *out);
/* The --sweep keys of the table, space-separated, into buf. */
const char *oxo_settings_sweep_keys(char *buf, size_t cap);

#endif
