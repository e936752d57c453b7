/*
 * An opening book (oxo-gen --book; format 2, "sorted-codes"): the entries of every position up to
 * a depth, keyed by their sorted canonical codes, found by bisection within a bucket of the codes'
 * top bits. A finished position is not stored: the rules say what it is. Past the depth the book
 * holds nothing, so it is never taken for a whole table (oxo_player_takes): the programs play on
 * past it with the solver.
 */
#include "source.h"

#include "boardio.h"

#include <stdlib.h>
#include <string.h>

/* A book's entry of a canonical code by bisection of its sorted codes within the code's bucket,
 * or -1. */
static int64_t book_index(const oxo_player *p, uint64_t code)
{
    if (code >= p->table->code_space)
        return -1;
    const uint64_t b = code >> p->book_shift;
    return oxo_sorted_find(p->table->codes, p->book_dir[b], p->book_dir[b + 1], code);
}

static int entry(const oxo_player *p, oxo_pos pos)
{
    oxo_status st = oxo_status_of(p->game, pos);
    if (st != OXO_ONGOING) /* a book holds no finished position: the rules say what it is */
        return OXO_ENTRY(st == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
    int64_t i = book_index(p, oxo_canonical_code(p->game, pos, NULL));
    return i < 0 ? -1 : p->entries[i];
}

static int claims(const oxo_table *t, const oxo_model *m)
{
    (void)m;
    return t && t->major == OXO_TABLE_MAJOR_BITMAP && t->codes;
}

/* Unlike a whole table, a book can be checked entry by entry when it opens: each code must be a
 * canonical position of the game with at most `depth` stones, not finished; each entry with fewer
 * stones must be the negamax of its children's entries (all of which the book must hold); the
 * entries at the depth, which only a solver can check, must at least be possible (a win in an odd
 * number of plies, a loss in an even one, a draw at the full board on Connect-4); every entry must
 * be reached from the start; the figures must be those of the entries. */
static int attach(oxo_player *p, const oxo_space *space, oxo_error *err)
{
    (void)space;
    const oxo_game *g = p->game;
    const oxo_table *t = p->table;
    if (t->code_space != oxo_code_space(g) || !t->symmetric)
        return oxo_fail(err, OXO_E_GAME, "a book of codes below %llu, expected below %llu for %s",
                        (unsigned long long)t->code_space, (unsigned long long)oxo_code_space(g),
                        g->spec);
    if ((int)t->depth >= g->max_plies)
        return oxo_fail(err, OXO_E_GAME, "a book of depth %u, but %s ends within %d stones",
                        t->depth, g->spec, g->max_plies);
    p->book_depth = (int)t->depth;
    /* Buckets by the top 16 bits of the code space (the codes are sorted, so each bucket's
     * entries are a run). */
    int bits = 64 - __builtin_clzll(t->code_space - 1 ? t->code_space - 1 : 1);
    p->book_shift = bits > 16 ? bits - 16 : 0;
    size_t nb = (size_t)((t->code_space - 1) >> p->book_shift) + 1;
    if (!(p->book_dir = malloc((nb + 1) * sizeof *p->book_dir)))
        return oxo_fail(err, OXO_E_NOMEM, "the index of a book of %u positions", t->n);
    for (size_t b = 0, i = 0; b <= nb; b++) {
        while (i < t->n && (t->codes[i] >> p->book_shift) < b)
            i++;
        p->book_dir[b] = (uint32_t)i;
    }
    uint8_t *reached = calloc(t->n ? t->n : 1, 1);
    uint64_t by_ply[65] = {0};
    if (!reached)
        return oxo_fail(err, OXO_E_NOMEM, "checking a book of %u positions", t->n);
    int64_t root = book_index(p, oxo_canonical_code(g, oxo_start(g), NULL));
    int rc =
        root < 0 ? oxo_fail(err, OXO_E_GAME, "the book lacks the start of %s", g->spec) : OXO_OK;
    if (!rc)
        reached[root] = 1;
    /* First every entry alone (a position of the game, a result some game can end with), then
     * each shallower one against its children. */
    for (uint32_t i = 0; !rc && i < t->n; i++) {
        oxo_pos pos = oxo_decode(g, t->codes[i]);
        int stones = oxo_ply(pos), e = t->entries[i];
        char b[OXO_MAX_MOVES + 1]; /* the board, for a message only */
        if (oxo_canonical_code(g, pos, NULL) != t->codes[i] || stones > (int)t->depth ||
            oxo_status_of(g, pos) != OXO_ONGOING) {
            oxo_board_format(g, pos, b);
            rc = oxo_fail(err, OXO_E_GAME,
                          "book code %llu (%s) is not a canonical unfinished position of %s "
                          "with at most %u stones",
                          (unsigned long long)t->codes[i], b, g->spec, t->depth);
            break;
        }
        by_ply[stones] += (uint64_t)oxo_orbit_size(g, pos);
        int v = OXO_ENTRY_VALUE(e), d = OXO_ENTRY_DISTANCE(e), left = g->max_plies - stones;
        if (d < 1 || d > left || (v == OXO_WIN && !(d & 1)) || (v == OXO_LOSS && (d & 1)) ||
            (v == OXO_DRAW && g->solver && d != left)) {
            oxo_board_format(g, pos, b);
            rc = oxo_fail(err, OXO_E_GAME,
                          "book position %s says %s in %d, which no game of %s can end in", b,
                          oxo_value_name(v), d, g->spec);
        }
    }
    for (uint32_t i = 0; !rc && i < t->n; i++) {
        oxo_pos pos = oxo_decode(g, t->codes[i]);
        int stones = oxo_ply(pos), e = t->entries[i];
        if (stones == (int)t->depth)
            continue;
        char b[OXO_MAX_MOVES + 1];
        int v = OXO_ENTRY_VALUE(e), d = OXO_ENTRY_DISTANCE(e);
        int bv = -2, bd = 0;
        uint64_t legal = oxo_legal(g, pos);
        while (legal) {
            int m = __builtin_ctzll(legal);
            legal &= legal - 1;
            oxo_pos c = oxo_play(g, pos, m);
            int ce;
            if (oxo_status_of(g, c) == OXO_ONGOING) {
                int64_t k = book_index(p, oxo_canonical_code(g, c, NULL));
                ce = k < 0 ? -1 : t->entries[k];
                if (k >= 0)
                    reached[k] = 1;
            } else
                ce = entry(p, c);
            if (ce < 0) {
                oxo_board_format(g, pos, b);
                rc = oxo_fail(err, OXO_E_GAME,
                              "book position %s has %d stones, under the depth %u, but the "
                              "book lacks its child after move %d",
                              b, stones, t->depth, m + 1);
                break;
            }
            oxo_entry_fold((uint8_t)ce, &bv, &bd);
        }
        if (!rc && (v != bv || d != bd) && (oxo_board_format(g, pos, b), 1))
            rc = oxo_fail(err, OXO_E_GAME,
                          "book position %s says %s in %d, its children give %s in %d", b,
                          oxo_value_name(v), d, oxo_value_name(bv), bd);
    }
    for (uint32_t i = 0; !rc && i < t->n; i++)
        if (!reached[i]) {
            char b[OXO_MAX_MOVES + 1];
            oxo_board_format(g, oxo_decode(g, t->codes[i]), b);
            rc = oxo_fail(err, OXO_E_GAME, "book position %s cannot be reached from the start", b);
        }
    for (uint32_t s = 0; !rc && s <= t->depth; s++)
        if (by_ply[s] != t->by_ply[s])
            rc = oxo_fail(err, OXO_E_GAME, "positions_by_ply[%u] is %llu, the book holds %llu", s,
                          (unsigned long long)t->by_ply[s], (unsigned long long)by_ply[s]);
    if (!rc && (t->counts.terminal_positions || t->counts.canonical_nonterminal_positions != t->n))
        rc = oxo_fail(err, OXO_E_GAME,
                      "counts: a book holds %u unfinished positions, the counts say %llu "
                      "terminal and %llu not",
                      t->n, (unsigned long long)t->counts.terminal_positions,
                      (unsigned long long)t->counts.canonical_nonterminal_positions);
    if (!rc && strcmp(t->root_value, oxo_value_name(OXO_ENTRY_VALUE(t->entries[root]))))
        rc = oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s",
                      t->root_value, oxo_value_name(OXO_ENTRY_VALUE(t->entries[root])));
    free(reached);
    return rc;
}

/* clang-format off */
const oxo_source_ops oxo_source_book = {
    .name = "book", .takes = OXO_TAKE_BOOK, .exact = 1, .claims = claims, .attach = attach,
    .moves = oxo_source_entry_moves, .entry = entry,
};
/* clang-format on */
