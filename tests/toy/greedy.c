/*
 * A toy agent kind, for the test that proves a new kind is one file plus one registry row
 * (tests/e2e_toy.sh copies this file into lookup/agents/ and adds its row to registry.c, and
 * nothing else): "greedy[:first|:last]" plays a move that wins at once when there is one, else
 * one that stops the opponent's win at once, else the lowest (or highest) legal move number.
 * Written from kind.h alone.
 */
#include "kind.h"

#include <stdio.h>
#include <string.h>

static int open_greedy(oxo_agent *a, const char *word, const char *spec, const char *arg,
                       int *failed, oxo_error *err)
{
    (void)word, (void)failed;
    if (arg && strcmp(arg, "first") && strcmp(arg, "last")) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': greedy[:first|:last]", spec);
        return -1;
    }
    a->depth = arg && !strcmp(arg, "last"); /* a shared field, as the kinds may use them */
    return 0;
}

/* Whether playing m in p ends the game with a win for the side to move in p. */
static int wins(const oxo_game *g, oxo_pos p, int m)
{
    return oxo_status_of(g, oxo_play(g, p, m)) == OXO_OVER_LOSS;
}

static int pick_greedy(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    (void)rng;
    const oxo_game *g = a->g;
    uint64_t legal = oxo_legal(g, p);
    oxo_pos pass = {p.opp, p.me}; /* the opponent to move on the same board */
    int block = -1, plain = -1;
    for (int m = 0; m < g->moves; m++) {
        if (!(legal >> m & 1))
            continue;
        if (wins(g, p, m))
            return m;
        if (block < 0 && (oxo_legal(g, pass) >> m & 1) && wins(g, pass, m))
            block = m;
        if (plain < 0 || a->depth)
            plain = m;
    }
    return block >= 0 ? block : plain;
}

const agent_kind oxo_agent_greedy = {
    .name = "greedy",
    .open = open_greedy,
    .pick = pick_greedy,
};
