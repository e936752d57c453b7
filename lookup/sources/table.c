/*
 * A whole table of a format 1 file: one entry per position of an enumerated state space (raw or
 * canonical), in the space's order. Opening one enumerates the game and checks every entry
 * against the rules (oxo_table_check) and the figures the file states (check_meta), so a table of
 * another game or of wrong values is refused; a move's score is its child's entry.
 */
#include "source.h"

#include "boardio.h"

#include <string.h>

void oxo_entry_of(const oxo_space *s, const uint8_t *entries, uint32_t i, int *value, int *distance)
{
    if (s->status[i] != OXO_ONGOING) {
        *value = s->status[i] == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW;
        *distance = 0;
        return;
    }
    int bv = -2, bd = 0;
    for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++)
        oxo_entry_fold(entries[s->echild[e]], &bv, &bd);
    *value = bv;
    *distance = bd;
}

int oxo_table_check(const oxo_space *s, const uint8_t *entries, uint32_t n, oxo_error *err)
{
    if (n != s->n)
        return oxo_fail(err, OXO_E_GAME, "%u entries, expected %u (one per %s position of %s)", n,
                        s->n, s->symmetric ? "canonical" : "reachable", s->game->name);
    for (uint32_t i = s->n; i-- > 0;) {
        int v, d;
        oxo_entry_of(s, entries, i, &v, &d);
        if (OXO_ENTRY_VALUE(entries[i]) != v || OXO_ENTRY_DISTANCE(entries[i]) != d) {
            char b[OXO_MAX_MOVES + 1];
            oxo_board_format(s->game, s->pos[i], b);
            return oxo_fail(err, OXO_E_GAME,
                            "entry %u (board %s) says %s in %d, the rules give %s in %d", i, b,
                            oxo_value_name(OXO_ENTRY_VALUE(entries[i])),
                            OXO_ENTRY_DISTANCE(entries[i]), oxo_value_name(v), d);
        }
    }
    return OXO_OK;
}

/* What a table says of itself, checked against the entries and the space: the root value is the
 * start's entry, and the counts are those the space gives (oxo_space_count, a pass over the
 * edges), so --info never shows a figure the file made up. */
static int check_meta(const oxo_space *s, const oxo_table *t, oxo_error *err)
{
    const char *root = oxo_value_name(OXO_ENTRY_VALUE(t->entries[0]));
    if (strcmp(t->root_value, root) != 0)
        return oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s",
                        t->root_value, root);
    oxo_table_counts want;
    int rc = oxo_space_count(s, &want);
    if (rc < 0)
        return oxo_fail(err, OXO_E_NOMEM, "counting %s", s->game->name);
    const uint64_t *a = &t->counts.nodes, *b = &want.nodes;
    static const char *const names[] = {"nodes",
                                        "games",
                                        "x_wins",
                                        "o_wins",
                                        "draws",
                                        "positions",
                                        "terminal_positions",
                                        "canonical_positions",
                                        "canonical_nonterminal_positions"};
    for (int i = 0; i < 9; i++) {
        if (i < 5 && rc == 1)
            continue; /* tree figures beyond 64 bits are not stored */
        if (!s->symmetric && i >= 7)
            continue;
        if (a[i] != b[i])
            return oxo_fail(err, OXO_E_GAME, "counts: %s is %llu, the game has %llu", names[i],
                            (unsigned long long)a[i], (unsigned long long)b[i]);
    }
    return OXO_OK;
}

static int claims(const oxo_table *t, const oxo_model *m)
{
    (void)m;
    return t && t->major < OXO_TABLE_MAJOR_BITMAP; /* format 1 (0: a table built in memory) */
}

static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    const oxo_table *t = p->table;
    if (oxo_source_use_space(p, space, t->symmetric, err))
        return -1;
    return oxo_table_check(p->space, t->entries, t->n, err) || check_meta(p->space, t, err) ? -1
                                                                                            : 0;
}

static void score(const oxo_player *p, uint32_t edge, uint32_t child, oxo_move_info *mi)
{
    (void)edge;
    mi->value = -OXO_ENTRY_VALUE(p->entries[child]);
    mi->distance = OXO_ENTRY_DISTANCE(p->entries[child]) + 1;
    mi->score = oxo_source_score(mi->value, mi->distance);
}

static int moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    return oxo_source_space_moves(p, pos, out, score);
}

static int entry(const oxo_player *p, oxo_pos pos)
{
    int64_t i = oxo_space_locate(p->space, pos, NULL);
    return i < 0 ? -1 : p->entries[i];
}

/* clang-format off */
const oxo_source_ops oxo_source_table = {
    .name = "table", .takes = OXO_TAKE_TABLE, .exact = 1, .claims = claims, .attach = attach,
    .moves = moves, .entry = entry,
};
/* clang-format on */
