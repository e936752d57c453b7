/*
 * Shared by the fuzz targets: the state space, built once, and the solved table built in memory.
 */
#ifndef OXO_FUZZ_H
#define OXO_FUZZ_H

#include "boardio.h"
#include "player.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline const oxo_space *fuzz_space(int symmetric)
{
    static oxo_space *s[2];
    if (!s[symmetric])
        s[symmetric] = oxo_space_build(oxo_tictactoe(), symmetric);
    return s[symmetric];
}

/* The shipped table's entries, solved here with the player's own negamax rule (the fuzz build
 * links no generator). */
static inline oxo_table *oxo_build_table_for_fuzz(void)
{
    const oxo_space *s = fuzz_space(1);
    oxo_table *t = calloc(1, sizeof *t);
    t->entries = malloc(s->n);
    t->n = s->n;
    for (uint32_t i = s->n; i-- > 0;) {
        int v, d;
        oxo_entry_of(s, t->entries, i, &v, &d);
        t->entries[i] = OXO_ENTRY(v, d);
    }
    snprintf(t->game, sizeof t->game, "tictactoe");
    t->rows = t->cols = 3;
    snprintf(t->index, sizeof t->index, "ply-code");
    t->symmetric = 1;
    oxo_space_count(s, &t->counts);
    snprintf(t->root_value, sizeof t->root_value, "%s",
             oxo_value_name(OXO_ENTRY_VALUE(t->entries[0])));
    return t;
}

#endif
