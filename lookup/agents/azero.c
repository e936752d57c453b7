/*
 * azero:SIMULATIONS[:C]:model=FILE: the PUCT search of AlphaZero, over a graph of positions
 * (lookup/azero.c), led by an AlphaZero-lite network (oxo-train --algo azero; lookup/azero.h):
 * each new position valued by the network's value head, its moves' priors its policy,
 * SIMULATIONS simulations a move, exploration C (default 1.5, the trainer's), no noise; the move
 * played is the most visited, ties by the higher value then the lower move, so a pick depends
 * on the position only. The bare policy is model:FILE.
 */
#include "kind.h"

#include "azero.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AZ_C 1.5

static int open_azero(oxo_agent *a, const char *word, const char *spec, const char *arg,
                      int *failed, oxo_error *err)
{
    (void)word;
    char buf[4200];
    snprintf(buf, sizeof buf, "%s", arg ? arg : "");
    char *mf = strstr(buf, ":model=");
    long long v = 0;
    char *end = NULL;
    a->c = AZ_C;
    if (mf)
        *mf = 0, mf += 7;
    char *c2 = strchr(buf, ':');
    if (c2)
        *c2++ = 0;
    if (!mf || !*mf || agent_number(buf, 1, 1000000, &v) ||
        (c2 && (!*c2 || (a->c = strtod(c2, &end), *end) || !(a->c >= 0 && a->c <= 100)))) {
        oxo_fail(err, OXO_E_ARG,
                 "agent '%.80s': azero:SIMULATIONS[:C]:model=FILE, 1 to 1000000 simulations, C "
                 "from 0 to 100, an azero model FILE (oxo-train --algo azero)",
                 spec);
        return -1;
    }
    a->playouts = v;
    if (!(a->value = agent_open_value(a->g, spec, mf, failed, err)))
        return -1;
    if (!oxo_player_azero(a->value)) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': %s is a %s file, not an azero model", spec, mf,
                 oxo_player_source(a->value));
        *failed = 1;
        return -1;
    }
    if (!(a->state = oxo_az_tree_new(a->g, (int)v))) {
        oxo_fail(err, OXO_E_NOMEM, "agent '%.80s': a search of %lld simulations", spec, v);
        *failed = 1;
        return -1;
    }
    return 0;
}

static int pick_azero(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    (void)rng;
    return oxo_az_search(a->state, oxo_player_azero(a->value), a->g, p, a->c);
}

static void free_azero(oxo_agent *a)
{
    oxo_az_tree_free(a->state);
    a->state = NULL;
}

/* clang-format off */
const agent_kind oxo_agent_azero = {
    .name = "azero", .open = open_azero, .pick = pick_azero, .free = free_azero,
    .usage = "azero:SIMULATIONS[:C]:model=FILE",
    .about = "AlphaZero-lite's search over a graph of positions, 1-1000000 simulations, C "
             "default 1.5, led by an azero network's policy and value (model:FILE plays its "
             "policy bare)",
};
/* clang-format on */
