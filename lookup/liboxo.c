/*
 * liboxo: the public interface (include/oxo/oxo.h) over the lookup-only player.
 *
 * A thin layer: it turns board text into positions (boardio), asks the player (player.c) and
 * translates oxo's internal errors into the stable public codes. It owns the handle and the one
 * piece of global state of the library, the per-thread message of the last failure. The shared
 * library exports only the functions of oxo.h (a linker version script hides the rest).
 */
#define _GNU_SOURCE /* dladdr: the library's own path, to find the data installed beside it */
#include "oxo/oxo.h"

#include "boardio.h"
#include "datadir.h"
#include "player.h"
#include "rng.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct oxo_handle {
    oxo_player *player;
    char start[2 * OXO_MOVES_MAX + 1];
};

static _Thread_local char last_error[600];

static oxo_rc fail(oxo_rc rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static oxo_rc fail(oxo_rc rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return rc;
}

const char *oxo_version(void)
{
    return OXO_VERSION_STRING;
}

static const char *const rc_names[] = {
    "OXO_RC_OK",   "OXO_RC_IO",    "OXO_RC_NOMEM", "OXO_RC_FORMAT", "OXO_RC_CORRUPT",
    "OXO_RC_GAME", "OXO_RC_BOARD", "OXO_RC_OVER",  "OXO_RC_MOVE",   "OXO_RC_ARGUMENT",
};
static const char *const rc_texts[] = {
    "success",
    "the file could not be read",
    "out of memory",
    "not an oxo table or model of a version this library reads",
    "the file is damaged",
    "the file does not fit its game",
    "the board is malformed or cannot arise in the game",
    "the game is over",
    "the move is not legal on that board",
    "invalid argument",
};

const char *oxo_rc_name(oxo_rc rc)
{
    return (unsigned)rc < sizeof rc_names / sizeof *rc_names ? rc_names[rc] : "OXO_RC_UNKNOWN";
}

const char *oxo_rc_describe(oxo_rc rc)
{
    return (unsigned)rc < sizeof rc_texts / sizeof *rc_texts ? rc_texts[rc] : "unknown error code";
}

const char *oxo_last_error(void)
{
    return last_error;
}

/* Internal reader errors fold into the public classes: a caller acts on "cannot read", "not ours",
 * "damaged" and "wrong game", not on which check of the container refused the file. */
static oxo_rc public_rc(oxo_errcode code)
{
    switch (code) {
    case OXO_OK:
        return OXO_RC_OK;
    case OXO_E_IO:
        return OXO_RC_IO;
    case OXO_E_NOMEM:
        return OXO_RC_NOMEM;
    case OXO_E_MAGIC:
    case OXO_E_KIND:
    case OXO_E_VERSION:
        return OXO_RC_FORMAT;
    case OXO_E_GAME:
        return OXO_RC_GAME;
    case OXO_E_ARG:
        return OXO_RC_ARGUMENT;
    default:
        return OXO_RC_CORRUPT;
    }
}

static oxo_rc wrap(oxo_player *p, const oxo_error *err, const char *what, oxo_handle **out)
{
    if (!p)
        return fail(public_rc(err->code), "%s: %s", what, err->msg);
    oxo_handle *h = calloc(1, sizeof *h);
    if (!h) {
        oxo_player_close(p);
        return fail(OXO_RC_NOMEM, "%s: out of memory", what);
    }
    h->player = p;
    const oxo_game *g = oxo_player_game(p);
    if (!g->gravity)
        oxo_board_format(g, oxo_start(g), h->start);
    *out = h;
    return OXO_RC_OK;
}

oxo_rc oxo_open(const char *path, oxo_handle **out)
{
    if (!path || !out)
        return fail(OXO_RC_ARGUMENT, "oxo_open: NULL %s", path ? "out" : "path");
    *out = NULL;
    oxo_error err = {0};
    /* A bare name that is no file here ("tictactoe.oxt") is looked for as the programs look for
     * their data: $OXO_DATA_DIR, the current folder, then share/oxo beside this library (found
     * from its own path, so an installed tree may move). */
    char found[4096];
    Dl_info self;
    if (!strchr(path, '/') && !strchr(path, '+') && access(path, F_OK) != 0 &&
        oxo_find_data_near(
            path, dladdr((void *)oxo_open, &self) && self.dli_fname ? self.dli_fname : NULL, found,
            sizeof found) == 0)
        path = found;
    /* "A.oxm+B.oxm" joins networks as oxo-play does; a path naming a file is opened whole. */
    return wrap(oxo_player_open_joined(path, &err), &err, path, out);
}

oxo_rc oxo_open_memory(const void *data, size_t len, oxo_handle **out)
{
    if (!data || !out)
        return fail(OXO_RC_ARGUMENT, "oxo_open_memory: NULL %s", data ? "out" : "data");
    *out = NULL;
    oxo_error err = {0};
    return wrap(oxo_player_open_memory(data, len, &err), &err, "buffer", out);
}

oxo_rc oxo_open_memory_joined(const void *const *data, const size_t *len, int n, oxo_handle **out)
{
    if (!data || !len || !out)
        return fail(OXO_RC_ARGUMENT, "oxo_open_memory_joined: NULL %s",
                    !data  ? "data"
                    : !len ? "len"
                           : "out");
    *out = NULL;
    if (n < 1 || n > OXO_PLAYER_MAX_MEMBERS)
        return fail(OXO_RC_ARGUMENT, "oxo_open_memory_joined: %d networks; from 1 to %d", n,
                    OXO_PLAYER_MAX_MEMBERS);
    for (int k = 0; k < n; k++)
        if (!data[k])
            return fail(OXO_RC_ARGUMENT, "oxo_open_memory_joined: NULL data[%d]", k);
    oxo_error err = {0};
    return wrap(oxo_player_open_memory_joined((const uint8_t *const *)data, len, n, &err), &err,
                "buffers", out);
}

void oxo_close(oxo_handle *h)
{
    if (!h)
        return;
    oxo_player_close(h->player);
    free(h);
}

const char *oxo_game_spec(const oxo_handle *h)
{
    return h ? oxo_player_game(h->player)->spec : "";
}

const char *oxo_game_name(const oxo_handle *h)
{
    return h ? oxo_player_game(h->player)->name : "";
}

const char *oxo_start_board(const oxo_handle *h)
{
    return h ? h->start : "";
}

int oxo_is_exact(const oxo_handle *h)
{
    return h && oxo_player_exact(h->player);
}

/* Parses a board and checks it can be reached (the player knows every reachable position). */
static oxo_rc position(const oxo_handle *h, const char *board, oxo_pos *p, oxo_move_info *mi,
                       int *n)
{
    oxo_error e;
    /* set on every path: the callers' n is then never read uninitialized (gcc -O3 checks) */
    *n = 0;
    if (!h || !board)
        return fail(OXO_RC_ARGUMENT, "NULL %s", h ? "board" : "handle");
    if (oxo_board_parse(oxo_player_game(h->player), board, p, &e))
        return fail(OXO_RC_BOARD, "%s", e.msg);
    *n = oxo_player_moves(h->player, *p, mi);
    if (*n < 0 && oxo_player_book_depth(h->player) >= 0 &&
        oxo_ply(*p) >= oxo_player_book_depth(h->player))
        return fail(
            OXO_RC_BOARD,
            "board \"%.140s\" has %d stones: this opening book of %s holds the moves of "
            "positions of up to %d stones only (a solver plays on past it: oxo-play --book)",
            board, oxo_ply(*p), oxo_player_game(h->player)->name,
            oxo_player_book_depth(h->player) - 1);
    if (*n < 0)
        return fail(OXO_RC_BOARD, "board \"%.140s\" cannot arise in a game of %s", board,
                    oxo_player_game(h->player)->name);
    return OXO_RC_OK;
}

oxo_rc oxo_query(const oxo_handle *h, const char *board, oxo_query_result *out)
{
    oxo_pos p;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n;
    if (!out)
        return fail(OXO_RC_ARGUMENT, "oxo_query: NULL result");
    oxo_rc rc = position(h, board, &p, mi, &n);
    if (rc)
        return rc;
    const oxo_game *g = oxo_player_game(h->player);
    memset(out, 0, sizeof *out);
    out->to_move = oxo_x_to_move(g, p) ? 'X' : 'O';
    out->exact = oxo_is_exact(h);
    oxo_status st = oxo_status_of(g, p);
    if (st != OXO_ONGOING) {
        out->over = 1;
        out->winner = st == OXO_OVER_DRAW ? 'D' : out->to_move == 'X' ? 'O' : 'X';
    }
    if (out->exact)
        oxo_player_value(h->player, p, &out->value, &out->distance);
    out->nmoves = n;
    for (int i = 0; i < n; i++) {
        out->moves[i].move = mi[i].move;
        out->moves[i].exact = out->exact;
        out->moves[i].value = out->exact ? mi[i].value : 0;
        out->moves[i].distance = out->exact ? mi[i].distance : 0;
        out->moves[i].score = mi[i].score;
    }
    out->nbest = oxo_best_moves(mi, n, out->best);
    return OXO_RC_OK;
}

oxo_rc oxo_pick(const oxo_handle *h, const char *board, int level, uint64_t *rng, int *move)
{
    oxo_pos p;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n;
    if (!rng || !move)
        return fail(OXO_RC_ARGUMENT, "oxo_pick: NULL %s", rng ? "move" : "rng");
    if (level < 1 || level > 10)
        return fail(OXO_RC_ARGUMENT, "oxo_pick: level %d is not from 1 to 10", level);
    oxo_rc rc = position(h, board, &p, mi, &n);
    if (rc)
        return rc;
    if (n == 0)
        return fail(OXO_RC_OVER, "board \"%.140s\": the game is over", board);
    *move = oxo_player_pick(h->player, p, level, rng);
    return OXO_RC_OK;
}

oxo_rc oxo_apply(const oxo_handle *h, const char *board, int move, char *out, size_t cap)
{
    oxo_pos p;
    oxo_move_info mi[OXO_MAX_MOVES];
    int n;
    if (!out)
        return fail(OXO_RC_ARGUMENT, "oxo_apply: NULL output");
    oxo_rc rc = position(h, board, &p, mi, &n);
    if (rc)
        return rc;
    const oxo_game *g = oxo_player_game(h->player);
    if (n == 0)
        return fail(OXO_RC_OVER, "board \"%.140s\": the game is over", board);
    if (move < 0 || move >= g->moves || !(oxo_legal(g, p) >> move & 1))
        return fail(OXO_RC_MOVE, "board \"%.140s\": move %d is not legal", board, move);
    /* Connect-4: the moves so far, then this one in the text's own form: a digit, or where the
     * moves are separated (as they must be from 10 columns on) a comma and the column's number */
    const size_t len = strlen(board);
    char tail[16];
    snprintf(tail, sizeof tail, "%s%d", len && (g->width > 9 || strpbrk(board, ", ")) ? "," : "",
             move + 1);
    const size_t need = g->gravity ? len + strlen(tail) + 1 : (size_t)g->cells + 1;
    if (cap < need)
        return fail(OXO_RC_ARGUMENT, "oxo_apply: the result needs %zu bytes, the buffer has %zu",
                    need, cap);
    if (g->gravity) {
        memcpy(out, board, len);
        memcpy(out + len, tail, strlen(tail) + 1);
    } else
        oxo_board_format(g, oxo_play(g, p, move), out);
    return OXO_RC_OK;
}
