/*
 * Counting and solving (see solve.h).
 */
#include "solve.h"

#include "cli.h"
#include "player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oxo_count(const oxo_game *g, oxo_table_counts *c)
{
    oxo_space *can = oxo_space_build(g, 1);
    int rc = can ? oxo_space_count(can, c) : -1;
    oxo_space_free(can);
    return rc;
}

void oxo_solve(const oxo_space *s, uint8_t *entries)
{
    /* Nodes are numbered by ply: going down the numbers, children are solved before parents. */
    for (uint32_t i = s->n; i-- > 0;) {
        int v, d;
        oxo_entry_of(s, entries, i, &v, &d);
        entries[i] = OXO_ENTRY(v, d);
    }
}

oxo_table *oxo_build_table(const oxo_game *g)
{
    oxo_table *t = calloc(1, sizeof *t);
    oxo_space *s = oxo_space_build(g, 1);
    if (!t || !s || oxo_space_count(s, &t->counts) != 0)
        goto fail;
    t->entries = malloc(s->n);
    if (!t->entries)
        goto fail;
    oxo_solve(s, t->entries);
    t->n = s->n;
    snprintf(t->game, sizeof t->game, "%s", g->spec);
    t->rows = (uint32_t)g->rows;
    t->cols = (uint32_t)g->cols;
    snprintf(t->index, sizeof t->index, "ply-code");
    t->symmetric = 1;
    snprintf(t->root_value, sizeof t->root_value, "%s",
             oxo_value_name(OXO_ENTRY_VALUE(t->entries[0])));
    snprintf(t->generator, sizeof t->generator, "oxo-gen %s", OXO_VERSION);
    oxo_space_free(s);
    return t;
fail:
    oxo_space_free(s);
    oxo_table_free(t);
    return NULL;
}
