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
    oxo_space *raw = oxo_space_build(g, 0), *can = oxo_space_build(g, 1);
    int rc = raw && can ? oxo_count_spaces(raw, can, c) : -1;
    oxo_space_free(raw);
    oxo_space_free(can);
    return rc;
}

int oxo_count_spaces(const oxo_space *raw, const oxo_space *can, oxo_table_counts *c)
{
    const oxo_game *g = raw->game;
    uint64_t *paths = calloc(raw->n, sizeof *paths);
    if (!paths)
        return -1;
    memset(c, 0, sizeof *c);
    paths[0] = 1;
    /* Nodes are ordered by ply, so every parent is counted before its children. */
    for (uint32_t i = 0; i < raw->n; i++) {
        c->nodes += paths[i];
        for (uint32_t e = raw->first[i]; e < raw->first[i + 1]; e++)
            paths[raw->echild[e]] += paths[i];
        if (raw->status[i] == OXO_ONGOING)
            continue;
        c->terminal_positions++;
        c->games += paths[i];
        if (raw->status[i] == OXO_OVER_DRAW)
            c->draws += paths[i];
        else if (g->x_to_move(raw->pos[i])) /* X to move and lost: O completed a line */
            c->o_wins += paths[i];
        else
            c->x_wins += paths[i];
    }
    c->positions = raw->n;
    c->canonical_positions = can->n;
    for (uint32_t i = 0; i < can->n; i++)
        c->canonical_nonterminal_positions += can->status[i] == OXO_ONGOING;
    free(paths);
    return 0;
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
    oxo_space *s = oxo_space_build(g, 1), *raw = oxo_space_build(g, 0);
    if (!t || !s || !raw || oxo_count_spaces(raw, s, &t->counts) != 0)
        goto fail;
    t->entries = malloc(s->n);
    if (!t->entries)
        goto fail;
    oxo_solve(s, t->entries);
    t->n = s->n;
    snprintf(t->game, sizeof t->game, "%s", g->name);
    t->rows = (uint32_t)g->rows;
    t->cols = (uint32_t)g->cols;
    snprintf(t->index, sizeof t->index, "ply-code");
    t->symmetric = 1;
    snprintf(t->root_value, sizeof t->root_value, "%s", oxo_value_name(OXO_ENTRY_VALUE(t->entries[0])));
    snprintf(t->generator, sizeof t->generator, "oxo-gen %s", OXO_VERSION);
    oxo_space_free(s);
    oxo_space_free(raw);
    return t;
fail:
    oxo_space_free(s);
    oxo_space_free(raw);
    oxo_table_free(t);
    return NULL;
}
