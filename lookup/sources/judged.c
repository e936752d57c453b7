/*
 * A judged set (FORMAT.md 2.3, `oxo-gen --judge-set`) as a source of exact values: a text file of
 * positions with the value of each of their moves, made by the solver where no table exists. It
 * answers as a table does (each move's value) at its positions only, with no distance (0): the
 * truth on which learners and agents are graded on boards too large to solve whole.
 *
 * It is the one source that is not a container: the player asks `reads` of the bytes before the
 * container's reader, and `load` parses them. The positions keep the file's order (grading walks
 * them in it); a sorted index finds one.
 */
#include "source.h"

#include "boardio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A judged set's first line: a comment or its game (a container starts with \x89OXO). */
static int reads(const uint8_t *data, size_t len)
{
    return (len >= 1 && data[0] == '#') || (len >= 5 && !memcmp(data, "game ", 5));
}

/* The index's order: by the stones of the side to move, then the other side's. */
static int before(oxo_pos x, oxo_pos y)
{
    return x.me != y.me ? (x.me < y.me ? -1 : 1) : x.opp < y.opp ? -1 : x.opp > y.opp;
}

static int by_pos(const void *a, const void *b)
{
    return before(((const oxo_judged_key *)a)->pos, ((const oxo_judged_key *)b)->pos);
}

/* One position line: "BOARD VALUES" into d; 0, or -1 with err set (the line named by the caller).
 */
static int read_line(const oxo_game *g, const char *line, oxo_judged *d, oxo_error *err)
{
    char board[600], vals[80];
    if (sscanf(line, "%599s %79s", board, vals) != 2 || (int)strlen(vals) != g->moves)
        return oxo_fail(err, OXO_E_ARG, "expected a board and %d move values", g->moves);
    /* The position is only read once parsed: a board that does not parse leaves it unset. */
    if (oxo_board_parse(g, board, &d->pos, err))
        return -1;
    if (oxo_status_of(g, d->pos) != OXO_ONGOING)
        return oxo_fail(err, OXO_E_ARG, "the game is over");
    uint64_t legal = oxo_legal(g, d->pos);
    memset(d->value, -2, sizeof d->value); /* past the game's moves too: defined, not legal */
    d->best = -2;
    for (int m = 0; m < g->moves; m++) {
        int v = vals[m] == '+'   ? OXO_WIN
                : vals[m] == '=' ? OXO_DRAW
                : vals[m] == '-' ? OXO_LOSS
                                 : -2;
        if ((v == -2) != (vals[m] == '.') || (v == -2) == !!(legal >> m & 1))
            return oxo_fail(err, OXO_E_ARG, "move %d is '%c', expected %s", m + 1, vals[m],
                            legal >> m & 1 ? "+, = or -" : ". (not legal)");
        d->value[m] = (int8_t)v;
        d->best = v > d->best ? (int8_t)v : d->best;
    }
    return 0;
}

/* The game line, then the positions; failures name the line ("line 3: ..."). */
static int load(oxo_player *p, const uint8_t *data, size_t size, oxo_error *err)
{
    if (size > OXO_JUDGED_MAX_BYTES)
        return oxo_fail(err, OXO_E_HEADER, "a judged set of %zu bytes, more than the %u read", size,
                        OXO_JUDGED_MAX_BYTES);
    uint32_t room = 256;
    char line[1024];
    int ln = 0;
    size_t at = 0;
    while (at < size) {
        size_t end = at;
        while (end < size && data[end] != '\n')
            end++;
        ln++;
        if (end - at >= sizeof line || memchr(data + at, 0, end - at))
            return oxo_fail(err, OXO_E_ARG, "line %d: %s", ln,
                            end - at >= sizeof line ? "longer than any position"
                                                    : "holds a NUL byte");
        memcpy(line, data + at, end - at);
        line[end - at] = 0;
        at = end + 1;
        if (line[0] == '#' || line[0] == 0 || line[0] == '\r')
            continue;
        if (!p->game) {
            char spec[64];
            if (sscanf(line, "game %63s", spec) != 1)
                return oxo_fail(err, OXO_E_ARG, "line %d: expected 'game SPEC'", ln);
            if (!(p->game = p->own_game = oxo_game_open(spec, err)))
                return oxo_context(err, "line %d", ln);
            continue;
        }
        if (p->njudged == 0 || p->njudged == room) {
            room = p->njudged ? 2 * room : room;
            oxo_judged *more = realloc(p->judged, room * sizeof *more);
            if (!more)
                return oxo_fail(err, OXO_E_NOMEM, "%u judged positions", room);
            p->judged = more;
        }
        if (read_line(p->game, line, &p->judged[p->njudged], err))
            return oxo_context(err, "line %d", ln);
        p->njudged++;
    }
    if (!p->game)
        return oxo_fail(err, OXO_E_ARG, "no 'game SPEC' line");
    if (!p->njudged)
        return oxo_fail(err, OXO_E_ARG, "no position");
    if (!(p->judged_keys = malloc(p->njudged * sizeof *p->judged_keys)))
        return oxo_fail(err, OXO_E_NOMEM, "the index of %u judged positions", p->njudged);
    for (uint32_t i = 0; i < p->njudged; i++)
        p->judged_keys[i] = (oxo_judged_key){p->judged[i].pos, i};
    qsort(p->judged_keys, p->njudged, sizeof *p->judged_keys, by_pos);
    return 0;
}

static const oxo_judged *find(const oxo_player *p, oxo_pos pos)
{
    const oxo_judged_key key = {pos, 0},
                         *k = bsearch(&key, p->judged_keys, p->njudged, sizeof key, by_pos);
    return k ? &p->judged[k->at] : NULL;
}

static int moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out)
{
    const oxo_judged *d = find(p, pos);
    if (!d)
        return -1;
    int n = 0;
    for (int m = 0; m < p->game->moves; m++)
        if (d->value[m] != -2)
            out[n++] = (oxo_move_info){m, oxo_source_score(d->value[m], 0), d->value[m], 0};
    return n;
}

/* clang-format off */
const oxo_source_ops oxo_source_judged = {
    .name = "judged set", .takes = OXO_TAKE_JUDGED, .exact = 1,
    .reads = reads, .load = load, .moves = moves,
};
/* clang-format on */
