/*
 * random: a legal move drawn uniformly, the floor every rating is anchored to.
 */
#include "kind.h"

static int open_random(oxo_agent *a, const char *word, const char *spec, const char *arg,
                       int *failed, oxo_error *err)
{
    (void)a, (void)word, (void)failed;
    if (arg) { /* random takes no argument: the spec is none of the forms */
        agent_expected(spec, err);
        return -1;
    }
    return 0;
}

static int pick_random(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    return agent_random_move(a->g, p, rng);
}

/* clang-format off */
const agent_kind oxo_agent_random = {
    .name = "random", .open = open_random, .pick = pick_random,
    .usage = "random",
    .about = "a legal move at random",
};
/* clang-format on */
