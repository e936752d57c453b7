/*
 * A whole table of a format 3 file ("ply-blocks", oxo-gen's solve a ply at a time): an entry for
 * every number of each ply of the game's ply index, in blocks read when a lookup needs them
 * (formats/table_blocks.c), so a table of billions of positions (connect4:6,5) opens in
 * milliseconds and takes a few blocks of memory. A position's entry is that of its canonical
 * image's number in its ply. What the open checks: the game has a ply index whose plies have the
 * numbers the file says, the start's entry is the root value, and the entries along a few games
 * of random play obey the rules (oxo_source_sample_check).
 */
#include "source.h"

#include <string.h>

static int entry(const oxo_player *p, oxo_pos pos)
{
    const oxo_game *g = p->game;
    int sym;
    uint8_t e;
    const int n = oxo_ply(pos);
    if (oxo_table_entry_at(p->table, (uint32_t)n, g->ops->ply_rank(g, pos, &sym), &e, NULL))
        return -1;
    return e == OXO_NO_ENTRY ? -1 : e;
}

static int claims(const oxo_table *t, const oxo_model *m)
{
    (void)m;
    return t && t->major == OXO_TABLE_MAJOR_BLOCKS;
}

static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    const oxo_game *g = p->game;
    const oxo_table *t = p->table;
    if (!g->ops->ply_size || t->nplies != (uint32_t)g->max_plies + 1)
        return oxo_fail(err, OXO_E_GAME, "a table of %u plies numbered by a ply index: %s %s",
                        t->nplies, g->spec,
                        g->ops->ply_size ? "has another count of plies" : "has no ply index");
    for (uint32_t n = 0; n < t->nplies; n++)
        if (t->ply_numbers[n] != g->ops->ply_size(g, (int)n))
            return oxo_fail(err, OXO_E_GAME, "ply %u has %llu numbers, %s's ply index %llu", n,
                            (unsigned long long)t->ply_numbers[n], g->spec,
                            (unsigned long long)g->ops->ply_size(g, (int)n));
    int sym;
    uint8_t root;
    int rc = oxo_table_entry_at(t, 0, g->ops->ply_rank(g, oxo_start(g), &sym), &root, err);
    if (rc)
        return rc;
    const char *rv = root == OXO_NO_ENTRY ? "none" : oxo_value_name(OXO_ENTRY_VALUE(root));
    if (strcmp(rv, t->root_value))
        return oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s",
                        t->root_value, rv);
    /* A few games: each of their lookups may read a block from the disk. */
    return oxo_source_sample_check(p, 4, err);
}

/* clang-format off */
const oxo_source_ops oxo_source_plies = {
    .name = "ply table", .takes = OXO_TAKE_TABLE, .exact = 1, .claims = claims, .attach = attach,
    .moves = oxo_source_entry_moves, .entry = entry,
};
/* clang-format on */
