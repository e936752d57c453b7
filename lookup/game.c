/*
 * What every game shares: the registry of games by name and canonicalisation by smallest code.
 */
#include "game.h"

#include <string.h>

const oxo_game *oxo_game_find(const char *name)
{
    if (name && strcmp(name, "tictactoe") == 0)
        return oxo_tictactoe();
    return NULL;
}

oxo_pos oxo_canonical(const oxo_game *g, oxo_pos p, int *sym)
{
    oxo_pos best = p;
    uint64_t best_code = g->code(p);
    int best_sym = 0;
    for (int s = 1; s < g->nsym; s++) {
        oxo_pos t = g->transform(p, s);
        uint64_t c = g->code(t);
        if (c < best_code) {
            best = t;
            best_code = c;
            best_sym = s;
        }
    }
    if (sym)
        *sym = best_sym;
    return best;
}
