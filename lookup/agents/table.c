/*
 * table[:FILE] and model:FILE: the lookup player (player.h) as an agent, at its best level: the
 * solved table (the game's own when no FILE is named) or a trained model, n-tuple networks joined
 * by '+' playing on the mean of their values.
 */
#include "kind.h"

#include <stdio.h>
#include <string.h>

static int open_table(oxo_agent *a, const char *word, const char *spec, const char *arg,
                      int *failed, oxo_error *err)
{
    const int table = !strcmp(word, "table");
    if (!table && !arg) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': model needs a file: model:FILE", spec);
        return -1;
    }
    return (a->player = agent_open_player(a->g, arg, table, failed, err)) ? 0 : -1;
}

static int pick_table(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    return oxo_player_pick(a->player, p, 10, rng);
}

/* clang-format off */
const agent_kind oxo_agent_table = {
    .name = "table", .alias = "model", .open = open_table, .pick = pick_table,
    .usage = "table[:FILE], model:FILE",
    .about = "the best move of the game's solved table or of FILE, or greedily on a trained "
             "model's values",
};
/* clang-format on */
