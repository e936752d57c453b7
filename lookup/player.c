/*
 * The lookup-only player (see player.h).
 */
#include "player.h"

#include "boardio.h"
#include "c4solve.h"
#include "datadir.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *oxo_value_name(int value)
{
    return value > 0 ? "win" : value < 0 ? "loss" : "draw";
}

static double table_score(int value, int distance)
{
    return value > 0 ? 100.0 - distance : value < 0 ? -100.0 + distance : 0.0;
}

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
        return oxo_fail(err, OXO_E_GAME, "%u entries, expected %u (one per %s position of %s)", n, s->n,
                        s->symmetric ? "canonical" : "reachable", s->game->name);
    for (uint32_t i = s->n; i-- > 0;) {
        int v, d;
        oxo_entry_of(s, entries, i, &v, &d);
        if (OXO_ENTRY_VALUE(entries[i]) != v || OXO_ENTRY_DISTANCE(entries[i]) != d) {
            char b[OXO_MAX_MOVES + 1];
            oxo_board_format(s->game, s->pos[i], b);
            return oxo_fail(err, OXO_E_GAME, "entry %u (board %s) says %s in %d, the rules give %s in %d",
                            i, b, oxo_value_name(OXO_ENTRY_VALUE(entries[i])),
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
    static const char *const names[] = {"nodes", "games", "x_wins", "o_wins", "draws", "positions",
                                        "terminal_positions", "canonical_positions",
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

/* The game a file names, opened (the caller owns it), with the board and the indexing checked. */
static oxo_game *check_game(const char *spec, uint32_t rows, uint32_t cols, const char *index,
                            int model, oxo_error *err)
{
    char msg[400];
    oxo_game *g = oxo_game_open(spec, msg, sizeof msg);
    if (!g) {
        oxo_fail(err, OXO_E_GAME, "game \"%s\" unknown to this build (%.300s)", spec, msg);
        return NULL;
    }
    if ((int)rows != g->rows || (int)cols != g->cols) {
        oxo_fail(err, OXO_E_GAME, "%s board %ux%u, expected %dx%d", spec, rows, cols, g->rows, g->cols);
        oxo_game_free(g);
        return NULL;
    }
    /* Tabular models are numbered over an enumerated space; tables either way; networks need no
     * index and play boards of any size. */
    if (model == 2 && strcmp(index, "ntuple") == 0)
        return g;
    if (strcmp(index, "ply-code") != 0 &&
        (model || (strcmp(index, "code-bitmap") != 0 && strcmp(index, "sorted-codes") != 0))) {
        oxo_fail(err, OXO_E_GAME, "indexing scheme \"%s\", expected \"ply-code\"%s", index,
                 model ? "" : ", \"code-bitmap\" or \"sorted-codes\"");
        oxo_game_free(g);
        return NULL;
    }
    if (!g->code_bits) {
        oxo_fail(err, OXO_E_GAME, "%s is too large for a table or a tabular model", g->spec);
        oxo_game_free(g);
        return NULL;
    }
    return g;
}

void oxo_player_close(oxo_player *p)
{
    if (!p)
        return;
    oxo_space_free(p->own_space);
    oxo_table_free(p->table);
    oxo_model_free(p->model);
    oxo_ntuple_free(p->own_net);
    for (int i = 0; i < p->nmembers; i++)
        oxo_player_close(p->members[i]);
    oxo_game_free(p->own_game);
    free(p->keys.rank); /* the words are the table's */
    free(p->keys.sub);
    free(p->book_dir);
    free(p);
}

static int use_space(oxo_player *p, const oxo_space *space, int symmetric, oxo_error *err)
{
    if (space && oxo_game_same(space->game, p->game) && space->symmetric == symmetric) {
        p->space = space;
        p->game = space->game; /* one game for the player and the space it borrows */
        return 0;
    }
    p->space = p->own_space = oxo_space_build(p->game, symmetric);
    if (!p->own_space)
        return oxo_fail(err, OXO_E_NOMEM, "state space of %s", p->game->name);
    return 0;
}

oxo_player *oxo_player_from_table(oxo_table *t, oxo_error *err)
{
    return oxo_player_from_table_in(t, NULL, err);
}

oxo_player *oxo_player_from_model(oxo_model *m, oxo_error *err)
{
    return oxo_player_from_model_in(m, NULL, err);
}

static int bitmap_entry(const oxo_player *p, oxo_pos pos);
static int64_t book_index(const oxo_player *p, uint64_t code);

/* Format 2, what a reader can check of the entries without solving the game: along 64 games of
 * random play (a fixed seed), every position is in the bitmap, a finished one holds its result,
 * and every other one holds the negamax of its children's entries (oxo_entry_fold). A table
 * of another game (another K, say) or with lying entries is caught this way with a near
 * certainty, in about a millisecond. */
static int sample_check(const oxo_player *p, oxo_error *err)
{
    const oxo_game *g = p->game;
    uint64_t rng = oxo_rng_stream(0x7ab1e, 0);
    for (int game = 0; game < 64; game++) {
        oxo_pos pos = oxo_start(g);
        for (;;) {
            int e = bitmap_entry(p, pos), bv = -2, bd = 0, n = 0;
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
                if ((c = bitmap_entry(p, oxo_play(g, pos, m))) < 0) {
                    e = -1;
                    break;
                }
                oxo_entry_fold((uint8_t)c, &bv, &bd);
            }
            char b[OXO_MAX_MOVES + 1];
            oxo_board_format(g, pos, b);
            if (e < 0)
                return oxo_fail(err, OXO_E_GAME, "position %s (or one of its children) of %s is not in "
                                "the table", b, g->spec);
            if (OXO_ENTRY_VALUE(e) != bv || OXO_ENTRY_DISTANCE(e) != bd)
                return oxo_fail(err, OXO_E_GAME, "position %s says %s in %d, the rules give %s in %d", b,
                                oxo_value_name(OXO_ENTRY_VALUE(e)), OXO_ENTRY_DISTANCE(e),
                                oxo_value_name(bv), bd);
            if (!n)
                break;
            pos = oxo_play(g, pos, moves[oxo_rng_below(&rng, (uint32_t)n)]);
        }
    }
    return OXO_OK;
}

/* Format 2: the table's own bitmap numbers the positions; nothing is enumerated. What can be
 * checked without solving the game is: the bitmap's range against the game's codes, the root
 * value against the start's entry, and the entries along sampled games (sample_check). (Format 1
 * tables are checked entry by entry against the rules, which means enumerating the game.) */
static int attach_bitmap(oxo_player *p, const oxo_table *t, oxo_error *err)
{
    const oxo_game *g = p->game;
    if (t->code_space != oxo_code_space(g) || strcmp(t->index, "code-bitmap") || !t->symmetric)
        return oxo_fail(err, OXO_E_GAME, "a bitmap of codes below %llu (%s), expected below %llu for %s",
                        (unsigned long long)t->code_space, t->index,
                        (unsigned long long)oxo_code_space(g), g->spec);
    p->keys.nbits = t->code_space;
    p->keys.nwords = (t->nwords + OXO_KEYSET_BLOCK - 1) / OXO_KEYSET_BLOCK * OXO_KEYSET_BLOCK;
    p->keys.words = t->keys; /* borrowed from the table */
    if (oxo_keyset_build_rank(&p->keys))
        return oxo_fail(err, OXO_E_NOMEM, "the index of %s", g->spec);
    int root = bitmap_entry(p, oxo_start(g));
    if (root < 0)
        return oxo_fail(err, OXO_E_GAME, "the bitmap lacks the start of %s", g->spec);
    const char *rv = oxo_value_name(OXO_ENTRY_VALUE(root));
    if (strcmp(rv, t->root_value))
        return oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s",
                        t->root_value, rv);
    p->bitmap = 1;
    return sample_check(p, err);
}

/* An opening book (format 2, "sorted-codes"): every position up to `depth` stones. Unlike a whole
 * table, a book can be checked entry by entry when it opens: each code must be a canonical
 * position of the game with at most `depth` stones, not finished; each entry with fewer stones
 * must be the negamax of its children's entries (all of which the book must hold); the entries at
 * the depth, which only a solver can check, must at least be possible (a win in an odd number of
 * plies, a loss in an even one, a draw at the full board on Connect-4); every entry must be
 * reached from the start; the figures must be those of the entries. */
static int attach_book(oxo_player *p, const oxo_table *t, oxo_error *err)
{
    const oxo_game *g = p->game;
    if (t->code_space != oxo_code_space(g) || !t->symmetric)
        return oxo_fail(err, OXO_E_GAME, "a book of codes below %llu, expected below %llu for %s",
                        (unsigned long long)t->code_space, (unsigned long long)oxo_code_space(g), g->spec);
    if ((int)t->depth >= g->max_plies)
        return oxo_fail(err, OXO_E_GAME, "a book of depth %u, but %s ends within %d stones", t->depth, g->spec,
                        g->max_plies);
    p->bitmap = p->book = 1;
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
    int rc = root < 0 ? oxo_fail(err, OXO_E_GAME, "the book lacks the start of %s", g->spec) : OXO_OK;
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
            rc = oxo_fail(err, OXO_E_GAME, "book code %llu (%s) is not a canonical unfinished position of %s "
                          "with at most %u stones", (unsigned long long)t->codes[i], b, g->spec, t->depth);
            break;
        }
        by_ply[stones] += (uint64_t)oxo_orbit_size(g, pos);
        int v = OXO_ENTRY_VALUE(e), d = OXO_ENTRY_DISTANCE(e), left = g->max_plies - stones;
        if (d < 1 || d > left || (v == OXO_WIN && !(d & 1)) || (v == OXO_LOSS && (d & 1)) ||
            (v == OXO_DRAW && g->solver && d != left)) {
            oxo_board_format(g, pos, b);
            rc = oxo_fail(err, OXO_E_GAME, "book position %s says %s in %d, which no game of %s can end in", b,
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
            }
            else
                ce = oxo_player_entry(p, c);
            if (ce < 0) {
                oxo_board_format(g, pos, b);
                rc = oxo_fail(err, OXO_E_GAME, "book position %s has %d stones, under the depth %u, but the "
                              "book lacks its child after move %d", b, stones, t->depth, m + 1);
                break;
            }
            oxo_entry_fold((uint8_t)ce, &bv, &bd);
        }
        if (!rc && (v != bv || d != bd) && (oxo_board_format(g, pos, b), 1))
            rc = oxo_fail(err, OXO_E_GAME, "book position %s says %s in %d, its children give %s in %d", b,
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
        rc = oxo_fail(err, OXO_E_GAME, "counts: a book holds %u unfinished positions, the counts say %llu "
                      "terminal and %llu not", t->n, (unsigned long long)t->counts.terminal_positions,
                      (unsigned long long)t->counts.canonical_nonterminal_positions);
    if (!rc && strcmp(t->root_value, oxo_value_name(OXO_ENTRY_VALUE(t->entries[root]))))
        rc = oxo_fail(err, OXO_E_GAME, "root_value says %s, the entry of the empty board is %s", t->root_value,
                      oxo_value_name(OXO_ENTRY_VALUE(t->entries[root])));
    free(reached);
    return rc;
}

oxo_player *oxo_player_from_table_in(oxo_table *t, const oxo_space *space, oxo_error *err)
{
    oxo_player *p = calloc(1, sizeof *p);
    oxo_game *g = check_game(t->game, t->rows, t->cols, t->index, 0, err);
    if (!p || !g) {
        if (!p)
            oxo_fail(err, OXO_E_NOMEM, "player");
        free(p);
        oxo_game_free(g);
        oxo_table_free(t);
        return NULL;
    }
    p->table = t;
    p->game = p->own_game = g;
    p->source = OXO_SRC_TABLE;
    p->entries = t->entries;
    if (t->major == OXO_TABLE_MAJOR_BITMAP) {
        if (t->codes ? attach_book(p, t, err) : attach_bitmap(p, t, err)) {
            oxo_player_close(p);
            return NULL;
        }
        return p;
    }
    if (use_space(p, space, t->symmetric, err)) {
        oxo_player_close(p);
        return NULL;
    }
    if (oxo_table_check(p->space, t->entries, t->n, err) || check_meta(p->space, t, err)) {
        oxo_player_close(p);
        return NULL;
    }
    return p;
}

/* An n-tuple model: its network over the model's weights, on the model's game, no space. */
static oxo_player *net_player(oxo_player *p, oxo_model *m, oxo_error *err)
{
    char msg[300];
    if ((int)m->nt_states != oxo_ntuple_states(p->game)) {
        oxo_fail(err, OXO_E_GAME, "the network reads %u cell states, %s has %d", m->nt_states, p->game->name,
                 oxo_ntuple_states(p->game));
        oxo_player_close(p);
        return NULL;
    }
    p->source = OXO_SRC_NTUPLE;
    p->net = p->own_net = oxo_ntuple_new(p->game, (int)m->nt_count, (int)m->nt_len, (int)m->nt_sets, m->nt_cells,
                                         NULL, msg, sizeof msg);
    if (!p->net) {
        oxo_fail(err, OXO_E_GAME, "%s", msg);
        oxo_player_close(p);
        return NULL;
    }
    /* A file saved in the middle of its run's averaging (a checkpoint, a stopped run) plays the
     * mean taken so far, the network the run would save if it ended there and the one its grade
     * is of; its values, the weights of the moment, are what a resumed run goes on from. The
     * network keeps its own copy, in its layout: the file's are let go (from a file of minor 3,
     * most of them fillings no board has). */
    const float *src = m->avg_count && m->avg_values ? m->avg_values : m->values;
    if (oxo_ntuple_load(p->net, m, src, p->net->w, msg, sizeof msg)) {
        oxo_fail(err, OXO_E_FIELD, "%s%s", src == m->values ? "" : "average: ", msg);
        oxo_player_close(p);
        return NULL;
    }
    free(m->values);
    free(m->avg_values);
    m->values = m->avg_values = NULL;
    return p;
}

oxo_player *oxo_player_borrow_net(const oxo_ntuple *net)
{
    oxo_player *p = oxo_player_borrow(NULL, OXO_SRC_NTUPLE, NULL, 1.0);
    if (p) {
        p->game = net->g;
        p->net = net;
    }
    return p;
}

oxo_player *oxo_player_from_model_in(oxo_model *m, const oxo_space *space, oxo_error *err)
{
    oxo_player *p = calloc(1, sizeof *p);
    const int nt = strcmp(m->algo, "ntuple") == 0;
    oxo_game *g = check_game(m->game, m->rows, m->cols, nt ? "ntuple" : m->index, nt ? 2 : 1, err);
    if (!p || !g) {
        if (!p)
            oxo_fail(err, OXO_E_NOMEM, "player");
        free(p);
        oxo_game_free(g);
        oxo_model_free(m);
        return NULL;
    }
    p->model = m;
    p->game = p->own_game = g;
    if (nt)
        return net_player(p, m, err);
    p->source = strcmp(m->algo, "q") == 0 ? OXO_SRC_Q : OXO_SRC_TD;
    p->values = m->values;
    p->gamma = m->gamma;
    if (use_space(p, space, m->symmetric, err)) {
        oxo_player_close(p);
        return NULL;
    }
    uint32_t want = p->source == OXO_SRC_Q ? p->space->nedges : p->space->n;
    if (m->nvalues != want) {
        oxo_fail(err, OXO_E_GAME, "%u values, expected %u (one per %s of the %s %s space)", m->nvalues,
                 want, p->source == OXO_SRC_Q ? "move" : "position",
                 m->symmetric ? "canonical" : "raw", g->name);
        oxo_player_close(p);
        return NULL;
    }
    for (uint32_t r = 0; r < m->nrings; r++)
        for (uint32_t k = 0; k < m->rings[r].nitems; k++) {
            uint32_t it = m->rings[r].items[k];
            uint32_t lim = p->source == OXO_SRC_Q ? p->space->nedges : p->space->n;
            if (it != UINT32_MAX && it >= lim) {
                oxo_fail(err, OXO_E_GAME, "replay ring %u item %u is %u, beyond the %u %s", r, k, it, lim,
                         p->source == OXO_SRC_Q ? "moves" : "positions");
                oxo_player_close(p);
                return NULL;
            }
        }
    return p;
}

oxo_player *oxo_player_open(const char *path, oxo_error *err)
{
    uint8_t *data;
    size_t len;
    char found[4096];
    path = oxo_data_path(path, found, sizeof found); /* a bare name of a shipped file, found */
    if (oxo_read_file(path, OXO_MAX_FILE, &data, &len, err))
        return NULL;
    oxo_player *p = oxo_player_open_memory(data, len, err);
    free(data);
    return p;
}

/* Joins member m (opened, or NULL with e saying why), named `name`, to the ensemble *p (NULL before
 * the first): 0 done (*p owns m), -1 with err set naming it (m and *p closed, *p NULL). */
static int join_member(oxo_player **p, oxo_player *m, const oxo_error *e, const char *name, oxo_error *err)
{
    if (!m) {
        err->code = e->code; /* e->msg says what failed, name which member */
        snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", name, e->msg);
    } else if (!m->net)
        oxo_fail(err, OXO_E_KIND, "%s is not an n-tuple network: only networks are joined by '+'", name);
    else if (*p && !oxo_game_same(m->game, (*p)->game))
        oxo_fail(err, OXO_E_GAME, "%s is a network of %s, the first of %s", name, m->game->name, (*p)->game->name);
    else {
        if (!*p)
            *p = m;
        else
            (*p)->members[(*p)->nmembers++] = m;
        return 0;
    }
    oxo_player_close(m);
    oxo_player_close(*p);
    *p = NULL;
    return -1;
}

int oxo_spec_is_joined(const char *spec)
{
    return strchr(spec, '+') && access(spec, F_OK) != 0;
}

const char *oxo_spec_member(const char *s, char *out, size_t cap, size_t *len)
{
    const char *end = strchr(s, '+');
    *len = end ? (size_t)(end - s) : strlen(s);
    if (*len && *len < cap) {
        memcpy(out, s, *len);
        out[*len] = 0;
    }
    return end ? end + 1 : NULL;
}

oxo_player *oxo_player_open_joined(const char *spec, oxo_error *err)
{
    if (!oxo_spec_is_joined(spec))
        return oxo_player_open(spec, err);
    char path[4096];
    oxo_player *p = NULL;
    for (const char *s = spec; s;) {
        size_t len;
        const char *next = oxo_spec_member(s, path, sizeof path, &len);
        const int k = p ? 1 + p->nmembers : 0;
        oxo_error e;
        if (k == OXO_PLAYER_MAX_MEMBERS)
            oxo_fail(err, OXO_E_IO, "more than %d networks joined by '+'", OXO_PLAYER_MAX_MEMBERS);
        else if (!len || len >= sizeof path)
            oxo_fail(err, OXO_E_IO, "network %d of the ensemble has %s name", k + 1, len ? "too long a" : "an empty");
        else if (join_member(&p, oxo_player_open(path, &e), &e, path, err))
            return NULL;
        else {
            s = next;
            continue;
        }
        oxo_player_close(p);
        return NULL;
    }
    return p;
}

oxo_player *oxo_player_open_memory_joined(const uint8_t *const *data, const size_t *len, int n, oxo_error *err)
{
    if (n < 1 || n > OXO_PLAYER_MAX_MEMBERS) {
        oxo_fail(err, OXO_E_IO, "%d networks to join: from 1 to %d", n, OXO_PLAYER_MAX_MEMBERS);
        return NULL;
    }
    if (n == 1)
        return oxo_player_open_memory(data[0], len[0], err);
    oxo_player *p = NULL;
    for (int k = 0; k < n; k++) {
        char name[32];
        oxo_error e;
        snprintf(name, sizeof name, "buffer %d", k + 1);
        if (join_member(&p, oxo_player_open_memory(data[k], len[k], &e), &e, name, err))
            return NULL;
    }
    return p;
}

int oxo_player_takes(const oxo_player *p, const char *path, int takes, oxo_error *err)
{
    int kind = p->book ? OXO_TAKE_BOOK : p->source == OXO_SRC_TABLE ? OXO_TAKE_TABLE : OXO_TAKE_MODEL;
    if (kind & takes)
        return 0;
    char wanted[64];
    snprintf(wanted, sizeof wanted, "%s%s%s%s%s", takes & OXO_TAKE_TABLE ? "a whole table" : "",
             (takes & OXO_TAKE_TABLE) && (takes & OXO_TAKE_MODEL) ? " or " : "",
             takes & OXO_TAKE_MODEL ? "a model" : "", (takes & 3) && (takes & OXO_TAKE_BOOK) ? " or " : "",
             takes & OXO_TAKE_BOOK ? "an opening book" : "");
    if (kind == OXO_TAKE_BOOK)
        return oxo_fail(err, OXO_E_KIND, "%s is an opening book of %s to depth %d, not %s: it holds no position "
                        "past %d stones (a book goes with --book, where the solver plays on past it)", path,
                        p->game->spec, p->book_depth, wanted, p->book_depth);
    return oxo_fail(err, OXO_E_KIND, "%s is %s of %s, not %s", path, kind == OXO_TAKE_TABLE ? "a table" : "a model",
                    p->game->spec, wanted);
}

oxo_player *oxo_player_open_as(const char *spec, int takes, oxo_error *err)
{
    oxo_player *p = oxo_player_open_joined(spec, err);
    if (p && oxo_player_takes(p, spec, takes, err)) {
        oxo_player_close(p);
        return NULL;
    }
    return p;
}

oxo_player *oxo_player_open_book(const oxo_game *g, const char *path, oxo_error *err)
{
    oxo_error e;
    oxo_player *p = oxo_player_open(path, &e);
    if (!p)
        oxo_fail(err, e.code, "%s: %s", path, e.msg);
    else if (!oxo_game_same(p->game, g))
        oxo_fail(err, OXO_E_GAME, "%s is a file of %s, not of %s", path, p->game->name, g->name);
    else if (!p->book)
        oxo_fail(err, OXO_E_KIND, "%s is not an opening book (oxo-gen --book)", path);
    else
        return p;
    oxo_player_close(p);
    return NULL;
}

/* A book's bound for the table reader: what the named game can hold up to the depth (0 for a game
 * that does not open: the reader refuses it later, naming it). */
static uint64_t book_most(void *ctx, const char *spec, uint32_t depth)
{
    (void)ctx;
    char msg[200];
    oxo_game *g = oxo_game_open(spec, msg, sizeof msg);
    if (!g)
        return 0;
    uint64_t most = oxo_positions_most(g, (int)depth);
    oxo_game_free(g);
    return most;
}

oxo_player *oxo_player_open_memory(const uint8_t *data, size_t len, oxo_error *err)
{
    uint8_t *body;
    size_t blen;
    int kind, major, minor, rc;
    if (len > OXO_MAX_FILE) {
        oxo_fail(err, OXO_E_HEADER, "%zu bytes, more than any table or model may hold (%zu)", len,
                 (size_t)OXO_MAX_FILE);
        return NULL;
    }
    rc = oxo_container_decode(data, len, 0, &kind, &major, &minor, &body, &blen, err);
    if (rc)
        return NULL;
    oxo_table *t = NULL;
    oxo_model *m = NULL;
    if (kind == OXO_KIND_TABLE)
        rc = oxo_table_decode_body_bounded(body, blen, major, minor, &(oxo_table_bound){ book_most, NULL }, &t, err);
    else
        rc = oxo_model_decode_body(body, blen, minor, &m, err);
    free(body);
    if (rc)
        return NULL;
    return t ? oxo_player_from_table(t, err) : oxo_player_from_model(m, err);
}

oxo_player *oxo_player_borrow(const oxo_space *s, oxo_source src, const float *values, double gamma)
{
    oxo_player *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->game = s ? s->game : NULL;
    p->space = s;
    p->source = src;
    p->values = values;
    p->gamma = gamma;
    return p;
}

/* A book's entry of a canonical code by bisection of its sorted codes within the code's bucket,
 * or -1. */
static int64_t book_index(const oxo_player *p, uint64_t code)
{
    if (code >= p->table->code_space)
        return -1;
    const uint64_t b = code >> p->book_shift;
    return oxo_sorted_find(p->table->codes, p->book_dir[b], p->book_dir[b + 1], code);
}

/* The entry of a position of a format 2 table, or -1 when it is not in the table. */
static int bitmap_entry(const oxo_player *p, oxo_pos pos)
{
    if (p->book) {
        oxo_status st = oxo_status_of(p->game, pos);
        if (st != OXO_ONGOING) /* a book holds no finished position: the rules say what it is */
            return OXO_ENTRY(st == OXO_OVER_LOSS ? OXO_LOSS : OXO_DRAW, 0);
        int64_t i = book_index(p, oxo_canonical_code(p->game, pos, NULL));
        return i < 0 ? -1 : p->entries[i];
    }
    int64_t i = oxo_keyset_rank(&p->keys, oxo_canonical_code(p->game, pos, NULL));
    return i < 0 ? -1 : p->entries[i];
}

int oxo_player_book_score(const oxo_player *book, oxo_pos pos, int *score)
{
    if (oxo_status_of(book->game, pos) != OXO_ONGOING)
        return 0;
    const int e = oxo_player_entry(book, pos);
    if (e < 0)
        return 0;
    *score = oxo_c4_distance_score(book->game, OXO_ENTRY_VALUE(e), OXO_ENTRY_DISTANCE(e), oxo_ply(pos));
    return 1;
}

int oxo_player_entry(const oxo_player *p, oxo_pos pos)
{
    return p->bitmap ? bitmap_entry(p, pos) : -1;
}

int oxo_player_value(const oxo_player *p, oxo_pos pos, int *value, int *distance)
{
    if (p->bitmap) {
        int e = bitmap_entry(p, pos);
        if (e < 0)
            return -1;
        *value = OXO_ENTRY_VALUE(e);
        *distance = OXO_ENTRY_DISTANCE(e);
        return 0;
    }
    if (p->source != OXO_SRC_TABLE)
        return -1;
    int64_t i = oxo_space_locate(p->space, pos, NULL);
    if (i < 0)
        return -1;
    *value = OXO_ENTRY_VALUE(p->entries[i]);
    *distance = OXO_ENTRY_DISTANCE(p->entries[i]);
    return 0;
}

/* Twin moves, which a symmetry of the position itself maps onto each other, are worth the same to
 * a network (it sums over the board's symmetric images), but in floats the images are summed in
 * another order, so the twins' values can differ in their last bits and one of them would be the
 * only best move. Each move takes the greatest value of its twins, so that they tie exactly, as
 * the tables' twins do: hints list both, and an export, which stores a move per canonical board,
 * plays a best move on each of its images. */
static void tie_twins(const oxo_game *g, oxo_pos pos, oxo_move_info *out, int n)
{
    double v[OXO_MAX_MOVES];
    for (int i = 0; i < n; i++)
        v[i] = out[i].score;
    for (int s = 1; s < g->nsym; s++) {
        const oxo_pos q = oxo_transform(g, pos, s);
        if (q.me != pos.me || q.opp != pos.opp)
            continue;
        for (int i = 0; i < n; i++) {
            const int t = oxo_transform_move(g, out[i].move, s);
            for (int j = 0; j < n; j++)
                if (out[j].move == t && v[j] > out[i].score)
                    out[i].score = v[j];
        }
    }
}

int oxo_player_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    const oxo_space *s = p->space;
    const oxo_game *g = p->game;
    if (p->net) { /* any position of the game: the network values every board */
        int moves[OXO_MAX_MOVES];
        float v[OXO_MAX_MOVES];
        int n = oxo_ntuple_moves(p->net, pos, moves, v);
        for (int i = 0; i < n; i++)
            out[i] = (oxo_move_info){.move = moves[i], .score = v[i]};
        if (p->nmembers) { /* an ensemble: the mean (the members value the same moves, in order) */
            for (int k = 0; k < p->nmembers; k++) {
                oxo_ntuple_moves(p->members[k]->net, pos, moves, v);
                for (int i = 0; i < n; i++)
                    out[i].score += v[i];
            }
            for (int i = 0; i < n; i++)
                out[i].score /= 1 + p->nmembers;
        }
        tie_twins(g, pos, out, n);
        return n;
    }
    if (p->bitmap) { /* each legal move's child, looked up by the rank of its canonical code */
        if (bitmap_entry(p, pos) < 0)
            return -1;
        uint64_t legal = oxo_legal(g, pos);
        int n = 0;
        while (legal) {
            int m = __builtin_ctzll(legal);
            legal &= legal - 1;
            int e = bitmap_entry(p, oxo_play(g, pos, m));
            if (e < 0)
                return -1; /* a bitmap that lacks a child: not a table of this game */
            oxo_move_info *mi = &out[n++];
            mi->move = m;
            mi->value = -OXO_ENTRY_VALUE(e);
            mi->distance = OXO_ENTRY_DISTANCE(e) + 1;
            mi->score = table_score(mi->value, mi->distance);
        }
        return n;
    }
    int sym;
    int64_t node = oxo_space_locate(s, pos, &sym);
    if (node < 0)
        return -1;
    int n = 0;
    for (uint32_t e = s->first[node]; e < s->first[node + 1]; e++) {
        oxo_move_info *mi = &out[n++];
        uint32_t c = s->echild[e];
        mi->move = oxo_transform_move(g, s->emove[e], oxo_inverse_sym(g, sym));
        mi->value = 0;
        mi->distance = 0;
        switch (p->source) {
        case OXO_SRC_TABLE:
            mi->value = -OXO_ENTRY_VALUE(p->entries[c]);
            mi->distance = OXO_ENTRY_DISTANCE(p->entries[c]) + 1;
            mi->score = table_score(mi->value, mi->distance);
            break;
        case OXO_SRC_Q:
            mi->score = p->values[e];
            break;
        case OXO_SRC_TD:
            mi->score = s->status[c] == OXO_OVER_LOSS   ? 1.0
                        : s->status[c] == OXO_OVER_DRAW ? 0.0
                                                        : -p->gamma * p->values[c];
            break;
        case OXO_SRC_NTUPLE: /* answered above, without a space */
            break;
        }
    }
    /* Moves come out in the node's order; sort them by real move for stable output. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j].move < out[j - 1].move; j--) {
            oxo_move_info t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

int oxo_best_moves(const oxo_move_info *mi, int n, int *best)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k && mi[i].score > mi[best[0]].score)
            k = 0;
        if (!k || mi[i].score == mi[best[0]].score)
            best[k++] = i;
    }
    for (int i = 0; i < k; i++)
        best[i] = mi[best[i]].move;
    return k;
}

int oxo_player_pick(const oxo_player *p, oxo_pos pos, int level, uint64_t *rng)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    int best[OXO_MAX_MOVES];
    int n = oxo_player_moves(p, pos, mi);
    if (n <= 0)
        return -1;
    /* Always draw the coin, even at level 10, so a seed gives the same stream at every level. */
    double coin = oxo_rng_unit(rng);
    if (coin < (10 - level) / 9.0)
        return mi[oxo_rng_below(rng, (uint32_t)n)].move;
    int k = oxo_best_moves(mi, n, best);
    return best[oxo_rng_below(rng, (uint32_t)k)];
}
