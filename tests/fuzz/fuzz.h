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

/* The shipped table's entries, solved here by negamax over the space (the fuzz build links no
 * generator). */
static inline oxo_table *oxo_build_table_for_fuzz(void)
{
    const oxo_space *s = fuzz_space(1);
    oxo_table *t = calloc(1, sizeof *t);
    t->entries = malloc(s->n);
    t->n = s->n;
    for (uint32_t i = s->n; i-- > 0;) {
        if (s->status[i] != OXO_ONGOING) {
            t->entries[i] = OXO_ENTRY(s->status[i] == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
            continue;
        }
        int bv = -2, bd = 0;
        for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++) {
            uint8_t c = t->entries[s->echild[e]];
            int v = -OXO_ENTRY_VALUE(c), d = OXO_ENTRY_DISTANCE(c) + 1;
            if (v > bv || (v == bv && (v < 0 ? d > bd : d < bd)))
                bv = v, bd = d;
        }
        t->entries[i] = OXO_ENTRY(bv, bd);
    }
    snprintf(t->game, sizeof t->game, "tictactoe");
    t->rows = t->cols = 3;
    snprintf(t->index, sizeof t->index, "ply-code");
    t->symmetric = 1;
    return t;
}

#endif
