/*
 * A whole table of a format 2 file ("code-bitmap"): the table's own bitmap of canonical codes
 * numbers the positions, the rank of a code being its entry's index, so nothing is enumerated and
 * the table opens at once whatever the game's size. What can be checked without solving the game
 * is checked when it opens: the bitmap's range against the game's codes, the root value against
 * the start's entry, and the entries along sampled games (sample_check). (Format 1 tables, table.c,
 * are checked entry by entry against the rules, which means enumerating the game.)
 */
#include "source.h"

#include "boardio.h"
#include "rng.h"

#include <string.h>

static int entry(const oxo_player *p, oxo_pos pos)
{
    int64_t i = oxo_keyset_rank(&p->keys, oxo_canonical_code(p->game, pos, NULL));
    return i < 0 ? -1 : p->entries[i];
}

int oxo_source_sample_check(const oxo_player *p, int games, oxo_error *err)
{
    const oxo_game *g = p->game;
    int (*look)(const oxo_player *, oxo_pos) = p->ops->entry;
    uint64_t rng = oxo_rng_stream(0x7ab1e, 0);
    for (int game = 0; game < games; game++) {
        oxo_pos pos = oxo_start(g);
        for (;;) {
            int e = look(p, pos), bv = -2, bd = 0, n = 0;
            oxo_status st = oxo_status_of(g, pos);
            uint64_t legal = oxo_legal(g, pos);
            int moves[OXO_MAX_MOVES];
            if (e >= 0 && st != OXO_ONGOING) {
                bv = st == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW;
                bd = 0;
            }
            while (e >= 0 && legal) {
                int m = __builtin_ctzll(legal), c;
                legal &= legal - 1;
                moves[n++] = m;
                if ((c = look(p, oxo_play(g, pos, m))) < 0) {
                    e = -1;
                    break;
                }
                oxo_entry_fold((uint8_t)c, &bv, &bd);
            }
            char b[OXO_MAX_MOVES + 1];
            oxo_board_format(g, pos, b);
            if (e < 0)
                return oxo_fail(err, OXO_E_GAME,
                                "position %s (or one of its children) of %s is not in "
                                "the table",
                                b, g->spec);
            if (OXO_ENTRY_VALUE(e) != bv || OXO_ENTRY_DISTANCE(e) != bd)
                return oxo_fail(err, OXO_E_GAME,
                                "position %s says %s in %d, the rules give %s in %d", b,
                                oxo_value_name(OXO_ENTRY_VALUE(e)), OXO_ENTRY_DISTANCE(e),
                                oxo_value_name(bv), bd);
            if (!n)
                break;
            pos = oxo_play(g, pos, moves[oxo_rng_below(&rng, (uint32_t)n)]);
        }
    }
    return OXO_OK;
}

static int claims(const oxo_table *t, const oxo_model *m)
{
    (void)m;
    return t && t->major == OXO_TABLE_MAJOR_BITMAP && !t->codes;
}

static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    const oxo_game *g = p->game;
    const oxo_table *t = p->table;
    if (t->code_space != oxo_code_space(g) || strcmp(t->index, "code-bitmap") || !t->symmetric)
        return oxo_fail(err, OXO_E_GAME,
                        "a bitmap of codes below %llu (%s), expected below %llu for %s",
                        (unsigned long long)t->code_space, t->index,
                        (unsigned long long)oxo_code_space(g), g->spec);
    p->keys.nbits = t->code_space;
    p->keys.nwords = (t->nwords + OXO_KEYSET_BLOCK - 1) / OXO_KEYSET_BLOCK * OXO_KEYSET_BLOCK;
    p->keys.words = t->keys; /* borrowed from the table */
    if (oxo_keyset_build_rank(&p->keys))
        return oxo_fail(err, OXO_E_NOMEM, "the index of %s", g->spec);
    int root = entry(p, oxo_start(g));
    if (root < 0)
        return oxo_fail(err, OXO_E_GAME, "the bitmap lacks the start of %s", g->spec);
    const char *rv = oxo_value_name(OXO_ENTRY_VALUE(root));
    if (strcmp(rv, t->root_value))
        return oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s",
                        t->root_value, rv);
    return oxo_source_sample_check(p, 64, err);
}

/* clang-format off */
const oxo_source_ops oxo_source_keyed = {
    .name = "keyed table", .takes = OXO_TAKE_TABLE, .exact = 1, .claims = claims, .attach = attach,
    .moves = oxo_source_entry_moves, .entry = entry,
};
/* clang-format on */
