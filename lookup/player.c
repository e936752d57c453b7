/*
 * The lookup-only player (player.h): opening a file and handing it to the source that plays it
 * (lookup/sources: the registry's first row that claims it), ensembles of networks, what a
 * caller takes, and the questions every source answers the same way (the best moves, a pick at a
 * level). What a move is worth is each source's own business.
 */
#include "sources/source.h"

#include "c4solve.h"
#include "datadir.h"
#include "rng.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *oxo_value_name(int value)
{
    return value > 0 ? "win" : value < 0 ? "loss" : "draw";
}

/* The game a file names, opened (the caller owns it), with the board and the indexing checked. */
static oxo_game *check_game(const oxo_source_ops *ops, const char *spec, uint32_t rows,
                            uint32_t cols, const char *index, oxo_error *err)
{
    oxo_error e;
    oxo_game *g = oxo_game_open(spec, &e);
    if (!g) {
        oxo_fail(err, OXO_E_GAME, "game \"%s\" unknown to this build (%.300s)", spec, e.msg);
        return NULL;
    }
    if ((int)rows != g->rows || (int)cols != g->cols) {
        oxo_fail(err, OXO_E_GAME, "%s board %ux%u, expected %dx%d", spec, rows, cols, g->rows,
                 g->cols);
        oxo_game_free(g);
        return NULL;
    }
    /* Tabular models are numbered over an enumerated space; tables either way; networks need no
     * index and play boards of any size. */
    if (ops->any_board)
        return g;
    const int model = ops->takes == OXO_TAKE_MODEL;
    if (strcmp(index, "ply-code") != 0 &&
        (model || (strcmp(index, "code-bitmap") != 0 && strcmp(index, "sorted-codes") != 0 &&
                   strcmp(index, "ply-blocks") != 0))) {
        oxo_fail(err, OXO_E_GAME, "indexing scheme \"%s\", expected \"ply-code\"%s", index,
                 model ? "" : ", \"code-bitmap\", \"sorted-codes\" or \"ply-blocks\"");
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
    if (p->ops && p->ops->release)
        p->ops->release(p);
    for (int i = 0; i < p->nmembers; i++)
        oxo_player_close(p->members[i]);
    oxo_game_free(p->own_game);
    free(p->keys.rank); /* the words are the table's */
    free(p->keys.sub);
    free(p->book_dir);
    free(p->judged);
    free(p->judged_keys);
    free(p);
}

int oxo_source_use_space(oxo_player *p, const oxo_space *space, int symmetric, oxo_error *err)
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

/* The source that plays t or m: the first row of the registry that claims it (a model of the
 * row's name, where the row says nothing). */
static const oxo_source_ops *source_of(const oxo_table *t, const oxo_model *m)
{
    for (const oxo_source_ops *const *s = oxo_sources; *s; s++)
        if ((*s)->attach &&
            ((*s)->claims ? (*s)->claims(t, m) : m && strcmp(m->algo, (*s)->name) == 0))
            return *s;
    return NULL;
}

/* A player of t or m (one is set; taken over, freed on failure too): its source found, the game
 * it names opened and checked, the file checked and attached by the source. */
static oxo_player *open_file(oxo_table *t, oxo_model *m, const oxo_space *space, oxo_error *err)
{
    const oxo_source_ops *ops = source_of(t, m);
    oxo_player *p = ops ? calloc(1, sizeof *p) : NULL;
    oxo_game *g = NULL;
    if (!ops && t)
        oxo_fail(err, OXO_E_KIND, "a table of format %d.%d, which no source of this build plays",
                 (int)t->major, (int)t->minor);
    else if (!ops)
        oxo_fail(err, OXO_E_KIND, "a model of algo \"%s\", which no source of this build plays",
                 m->algo);
    else if (!p)
        oxo_fail(err, OXO_E_NOMEM, "player");
    else
        g = t ? check_game(ops, t->game, t->rows, t->cols, t->index, err)
              : check_game(ops, m->game, m->rows, m->cols, m->index, err);
    if (!g) {
        free(p);
        oxo_table_free(t);
        oxo_model_free(m);
        return NULL;
    }
    p->ops = ops;
    p->table = t;
    p->entries = t ? t->entries : NULL; /* a table's or a book's, whatever indexes them */
    p->model = m;
    p->game = p->own_game = g;
    if (ops->attach(p, space, err)) {
        oxo_player_close(p);
        return NULL;
    }
    return p;
}

oxo_player *oxo_player_from_table_in(oxo_table *t, const oxo_space *space, oxo_error *err)
{
    return open_file(t, NULL, space, err);
}

oxo_player *oxo_player_from_model_in(oxo_model *m, const oxo_space *space, oxo_error *err)
{
    return open_file(NULL, m, space, err);
}

oxo_player *oxo_player_from_table(oxo_table *t, oxo_error *err)
{
    return open_file(t, NULL, NULL, err);
}

oxo_player *oxo_player_from_model(oxo_model *m, oxo_error *err)
{
    return open_file(NULL, m, NULL, err);
}

static int body_most(void *ctx, int kind, int major, const char *spec, uint64_t *bytes,
                     oxo_error *err);

/* Whether path is a table of format 3, read a block at a time (its first 6 bytes say so). */
static int in_blocks(const char *path)
{
    uint8_t h[6];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    int yes = fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
              read(fd, h, sizeof h) == (ssize_t)sizeof h && !memcmp(h, OXO_MAGIC, 4) &&
              h[4] == OXO_KIND_TABLE && h[5] == OXO_TABLE_MAJOR_BLOCKS;
    if (fd >= 0)
        close(fd);
    return yes;
}

oxo_player *oxo_player_open(const char *path, oxo_error *err)
{
    uint8_t *data;
    size_t len;
    char found[4096];
    path = oxo_data_path(path, found, sizeof found); /* a bare name of a shipped file, found */
    if (in_blocks(path)) {
        /* A table too large to read whole: its head now, its blocks when asked. */
        oxo_table *t;
        return oxo_table_open_bounded(path, &(oxo_body_bound){body_most, NULL}, &t, err)
                   ? NULL
                   : oxo_player_from_table(t, err);
    }
    if (oxo_read_file(path, OXO_MAX_FILE, &data, &len, err))
        return NULL;
    oxo_player *p = oxo_player_open_memory(data, len, err);
    free(data);
    return p;
}

/* Joins member m (opened, or NULL with e saying why), named `name`, to the ensemble *p (NULL before
 * the first): 0 done (*p owns m), -1 with err set naming it (m and *p closed, *p NULL). */
static int join_member(oxo_player **p, oxo_player *m, const oxo_error *e, const char *name,
                       oxo_error *err)
{
    if (!m) {
        err->code = e->code; /* e->msg says what failed, name which member */
        snprintf(err->msg, sizeof err->msg, "%.200s: %.300s", name, e->msg);
    } else if (m->ops != &oxo_source_ntuple)
        oxo_fail(err, OXO_E_KIND, "%s is not an n-tuple network: only networks are joined by '+'",
                 name);
    else if (*p && !oxo_game_same(m->game, (*p)->game))
        oxo_fail(err, OXO_E_GAME, "%s is a network of %s, the first of %s", name, m->game->name,
                 (*p)->game->name);
    else if (!*p && !(*p = calloc(1, sizeof **p)))
        oxo_fail(err, OXO_E_NOMEM, "an ensemble");
    else {
        (*p)->ops = &oxo_source_ensemble;
        (*p)->game = (*p)->members[0] ? (*p)->members[0]->game : m->game;
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
        const int k = p ? p->nmembers : 0;
        oxo_error e;
        if (k == OXO_PLAYER_MAX_MEMBERS)
            oxo_fail(err, OXO_E_IO, "more than %d networks joined by '+'", OXO_PLAYER_MAX_MEMBERS);
        else if (!len || len >= sizeof path)
            oxo_fail(err, OXO_E_IO, "network %d of the ensemble has %s name", k + 1,
                     len ? "too long a" : "an empty");
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

oxo_player *oxo_player_open_memory_joined(const uint8_t *const *data, const size_t *len, int n,
                                          oxo_error *err)
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
    const int kind = p->ops->takes;
    if (kind & takes)
        return 0;
    char wanted[64];
    snprintf(wanted, sizeof wanted, "%s%s%s%s%s", takes & OXO_TAKE_TABLE ? "a whole table" : "",
             (takes & OXO_TAKE_TABLE) && (takes & OXO_TAKE_MODEL) ? " or " : "",
             takes & OXO_TAKE_MODEL ? "a model" : "",
             (takes & 3) && (takes & OXO_TAKE_BOOK) ? " or " : "",
             takes & OXO_TAKE_BOOK ? "an opening book" : "");
    if (kind == OXO_TAKE_JUDGED)
        return oxo_fail(err, OXO_E_KIND,
                        "%s is a judged set of %s (values at %u positions only), not %s", path,
                        p->game->spec, p->njudged, wanted);
    if (kind == OXO_TAKE_BOOK)
        return oxo_fail(
            err, OXO_E_KIND,
            "%s is an opening book of %s to depth %d, not %s: it holds no position "
            "past %d stones (a book goes with --book, where the solver plays on past it)",
            path, p->game->spec, p->book_depth, wanted, p->book_depth);
    return oxo_fail(err, OXO_E_KIND, "%s is %s of %s, not %s", path,
                    kind == OXO_TAKE_TABLE ? "a table" : "a model", p->game->spec, wanted);
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
    else if (p->ops != &oxo_source_book)
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
    oxo_game *g = oxo_game_open(spec, NULL);
    if (!g)
        return 0;
    uint64_t most = oxo_positions_most(g, (int)depth);
    oxo_game_free(g);
    return most;
}

/* The most bytes a table's body of the named game can take, asked before it is decompressed: the
 * bitmap of its codes (format 2), ten bytes of a code and one of an entry for each position it can
 * hold (a book's codes, LEB128), and a MiB for the rest. 0 (no bound but the container's) for
 * models, whose container caps them at 64 MiB, for a game this build does not know (refused when
 * the body is read) and when the sum overflows. */
static int body_most(void *ctx, int kind, int major, const char *spec, uint64_t *bytes,
                     oxo_error *err)
{
    (void)ctx;
    *bytes = 0;
    if (kind != OXO_KIND_TABLE)
        return 0;
    oxo_error e;
    oxo_game *g = oxo_game_open(spec, &e);
    if (!g)
        return e.code == OXO_E_NOMEM ? oxo_fail(err, OXO_E_NOMEM, "the game of the body") : 0;
    if (major == OXO_TABLE_MAJOR_BLOCKS) {
        /* The head of a table in blocks: the places of the most blocks the game's ply index can
         * be cut into (the smallest blocks), and a MiB for the rest: 310 MB for 6x5, whatever
         * the file claims. */
        uint64_t blocks = 1;
        for (int n = 0; g->ops->ply_size && n <= g->max_plies; n++)
            blocks += (g->ops->ply_size(g, n) - 1) / OXO_BLOCK_MIN + 1;
        oxo_game_free(g);
        *bytes = 8 * blocks + (1u << 20);
        return 0;
    }
    uint64_t positions = oxo_positions_most(g, g->cells), most = 0;
    int over = !g->code_space || __builtin_mul_overflow(positions, 11, &most) ||
               __builtin_add_overflow(most, g->code_space / 8 + (1u << 20), &most);
    oxo_game_free(g);
    *bytes = over ? 0 : most;
    return 0;
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
    /* A file that is no container, read by a row of its own (a judged set's text). */
    for (const oxo_source_ops *const *s = oxo_sources; *s; s++)
        if ((*s)->reads && (*s)->reads(data, len)) {
            oxo_player *p = calloc(1, sizeof *p);
            if (!p) {
                oxo_fail(err, OXO_E_NOMEM, "player");
                return NULL;
            }
            p->ops = *s;
            if ((*s)->load(p, data, len, err)) {
                oxo_player_close(p);
                return NULL;
            }
            return p;
        }
    rc = oxo_container_decode_bounded(data, len, 0, &kind, &major, &minor, &body, &blen,
                                      &(oxo_body_bound){body_most, NULL}, err);
    if (rc)
        return NULL;
    oxo_table *t = NULL;
    oxo_model *m = NULL;
    if (kind == OXO_KIND_TABLE)
        rc = oxo_table_decode_body_bounded(body, blen, major, minor,
                                           &(oxo_table_bound){book_most, NULL}, &t, err);
    else
        rc = oxo_model_decode_body(body, blen, minor, &m, err);
    free(body);
    if (rc)
        return NULL;
    return t ? oxo_player_from_table(t, err) : oxo_player_from_model(m, err);
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
oxo_player *oxo_player_borrow(const oxo_space *s, const char *algo, const float *values,
                              double gamma)
{
    /* The registry's row of that name that reads values over a state space (q, td). */
    const oxo_source_ops *ops = NULL;
    for (const oxo_source_ops *const *r = oxo_sources; *r && !ops; r++)
        if (!strcmp((*r)->name, algo) && (*r)->takes == OXO_TAKE_MODEL && !(*r)->any_board)
            ops = *r;
    oxo_player *p = ops ? calloc(1, sizeof *p) : NULL;
    if (!p)
        return NULL;
    p->ops = ops;
    p->game = s->game;
    p->space = s;
    p->values = values;
    p->gamma = gamma;
    return p;
}

oxo_player *oxo_player_borrow_net(const oxo_ntuple *net)
{
    oxo_player *p = calloc(1, sizeof *p);
    if (p) {
        p->ops = &oxo_source_ntuple;
        p->game = net->g;
        p->net = net;
    }
    return p;
}

oxo_player *oxo_player_of_neat(const oxo_game *g, struct oxo_neat_net *net, int own)
{
    oxo_player *p = calloc(1, sizeof *p);
    if (p) {
        p->ops = &oxo_source_neat;
        p->game = g;
        p->neat = net;
        p->own_neat = own;
    }
    return p;
}

oxo_player *oxo_player_of_azero(const oxo_game *g, struct oxo_az_net *net, int own)
{
    oxo_player *p = calloc(1, sizeof *p);
    if (p) {
        p->ops = &oxo_source_azero;
        p->game = g;
        p->az = net;
        p->own_az = own;
    }
    return p;
}

/* What a player is and holds. */

const oxo_game *oxo_player_game(const oxo_player *p)
{
    return p->game;
}

const char *oxo_player_source(const oxo_player *p)
{
    return p->ops->name;
}

int oxo_player_exact(const oxo_player *p)
{
    return p->ops->exact;
}

int oxo_player_book_depth(const oxo_player *p)
{
    return p->ops == &oxo_source_book ? p->book_depth : -1;
}

const oxo_table *oxo_player_table(const oxo_player *p)
{
    return p->table;
}

const oxo_model *oxo_player_model(const oxo_player *p)
{
    return p->model;
}

const oxo_ntuple *oxo_player_net(const oxo_player *p)
{
    return p->net;
}

const struct oxo_neat_net *oxo_player_neat(const oxo_player *p)
{
    return p->neat;
}

const struct oxo_az_net *oxo_player_azero(const oxo_player *p)
{
    return p->az;
}

int oxo_player_members(const oxo_player *p)
{
    return p->nmembers ? p->nmembers : 1;
}

const oxo_player *oxo_player_member(const oxo_player *p, int k)
{
    return p->nmembers ? p->members[k] : p;
}

uint32_t oxo_player_judged(const oxo_player *p, const oxo_judged **pos)
{
    *pos = p->judged;
    return p->njudged;
}

/* What every source answers. */

int oxo_player_entry(const oxo_player *p, oxo_pos pos)
{
    return p->ops->entry ? p->ops->entry(p, pos) : -1;
}

int oxo_player_book_score(const oxo_player *book, oxo_pos pos, int *score)
{
    if (oxo_status_of(book->game, pos) != OXO_ONGOING)
        return 0;
    const int e = oxo_player_entry(book, pos);
    if (e < 0)
        return 0;
    *score =
        oxo_c4_distance_score(book->game, OXO_ENTRY_VALUE(e), OXO_ENTRY_DISTANCE(e), oxo_ply(pos));
    return 1;
}

int oxo_player_value(const oxo_player *p, oxo_pos pos, int *value, int *distance)
{
    const int e = oxo_player_entry(p, pos);
    if (e < 0)
        return -1;
    *value = OXO_ENTRY_VALUE(e);
    *distance = OXO_ENTRY_DISTANCE(e);
    return 0;
}

int oxo_player_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    return p->ops->moves(p, pos, out);
}

int oxo_source_entry_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    if (p->ops->entry(p, pos) < 0)
        return -1;
    const oxo_game *g = p->game;
    uint64_t legal = oxo_legal(g, pos);
    int n = 0;
    while (legal) {
        int m = __builtin_ctzll(legal);
        legal &= legal - 1;
        int e = p->ops->entry(p, oxo_play(g, pos, m));
        if (e < 0)
            return -1; /* a table that lacks a child: not a table of this game */
        oxo_move_info *mi = &out[n++];
        mi->move = m;
        mi->value = -OXO_ENTRY_VALUE(e);
        mi->distance = OXO_ENTRY_DISTANCE(e) + 1;
        mi->score = oxo_source_score(mi->value, mi->distance);
    }
    return n;
}

int oxo_source_space_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out,
                           void (*score)(const oxo_player *p, uint32_t edge, uint32_t child,
                                         oxo_move_info *mi))
{
    const oxo_space *s = p->space;
    int sym;
    int64_t node = oxo_space_locate(s, pos, &sym);
    if (node < 0)
        return -1;
    int n = 0;
    for (uint32_t e = s->first[node]; e < s->first[node + 1]; e++) {
        oxo_move_info *mi = &out[n++];
        mi->move = oxo_transform_move(p->game, s->emove[e], oxo_inverse_sym(p->game, sym));
        mi->value = 0;
        mi->distance = 0;
        score(p, e, s->echild[e], mi);
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
