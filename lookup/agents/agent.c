/*
 * The agents of agent.h: opening one from its spec (the NAME= prefix, then the kind's word looked
 * up in the registry, registry.c, whose open parses the rest), picking through the kind, freeing,
 * and the pieces the kinds share (a random move, a value file's values, the files a spec names).
 * Each kind lives in a file of its own: random.c, table.c (table and model), solver.c,
 * alphabeta.c, mcts.c, puct.c.
 */
#include "kind.h"

#include "cli.h"

#include "player.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value a value file (`:value=FILE`) gives a move for its mover: a table's exact value, a
 * model's estimate clipped to -1..1. */
double agent_file_value(const oxo_agent *a, const oxo_move_info *mi)
{
    double v = oxo_player_exact(a->value) ? mi->value : mi->score;
    return v > 1 ? 1 : v < -1 ? -1 : v;
}

int agent_random_move(const oxo_game *g, oxo_pos p, uint64_t *rng)
{
    uint64_t legal = oxo_legal(g, p);
    int n = oxo_popcount(legal);
    if (!n)
        return -1;
    for (int k = (int)oxo_rng_below(rng, (uint32_t)n); k; k--)
        legal &= legal - 1;
    return __builtin_ctzll(legal);
}

/* Copies an agent's argument into buf and cuts ":value=FILE" (and ":book=FILE", when book is not
 * NULL) off it, in either order: returns the value FILE (in buf) or NULL, *book the book's; what
 * is left stays in buf. */
char *agent_split_value(const char *arg, char *buf, size_t cap, char **book)
{
    snprintf(buf, cap, "%s", arg ? arg : "");
    char *vfile = strstr(buf, ":value="), *bfile = book ? strstr(buf, ":book=") : NULL;
    if (vfile)
        *vfile = 0;
    if (bfile)
        *bfile = 0;
    if (book)
        *book = bfile ? bfile + 6 : NULL;
    return vfile ? vfile + 7 : NULL;
}

/* The value file of an agent spec (`:value=FILE`), checked to be of the agent's game. */
oxo_player *agent_open_value(const oxo_game *g, const char *spec, const char *vfile, int *failed,
                             oxo_error *err)
{
    oxo_player *pl = oxo_player_open_as(vfile, OXO_TAKE_TABLE | OXO_TAKE_MODEL, err);
    if (!pl) {
        oxo_context(err, "agent '%.80s'", spec);
        *failed = 1;
        return NULL;
    }
    if (!oxo_game_same(oxo_player_game(pl), g)) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': %s is a file of %s, not of %s", spec, vfile,
                 oxo_player_game(pl)->name, g->name);
        oxo_player_close(pl);
        *failed = 1; /* as a --table or --book of another game: the file cannot serve, a failure */
        return NULL;
    }
    return pl;
}

oxo_player *agent_open_player(const oxo_game *g, const char *path, int want_table, int *failed,
                              oxo_error *err)
{
    char found[4096];
    if (!path) {
        char name[128];
        oxo_table_name(g->spec, name, sizeof name);
        if (oxo_find_data(name, found, sizeof found)) {
            oxo_fail(err, OXO_E_ARG,
                     "no table of %s found (%s, looked in $OXO_DATA_DIR, the current folder and "
                     "share/oxo beside the "
                     "program): make it with oxo-gen --game %s, or name it with table:FILE",
                     g->name, name, g->spec);
            *failed = 1;
            return NULL;
        }
        path = found;
    }
    oxo_player *pl = want_table ? oxo_player_open(path, err) : oxo_player_open_joined(path, err);
    if (pl && oxo_player_takes(pl, path, OXO_TAKE_TABLE | OXO_TAKE_MODEL, err)) {
        oxo_player_close(pl);
        *failed = 1;
        return NULL;
    }
    if (!pl) {
        oxo_context(err, "%s", path);
        *failed = 1;
        return NULL;
    }
    if (!oxo_game_same(oxo_player_game(pl), g)) {
        oxo_fail(err, OXO_E_ARG, "%s is a file of %s, not of %s", path, oxo_player_game(pl)->name,
                 g->name);
        oxo_player_close(pl);
        *failed = 1;
        return NULL;
    }
    if (want_table != (oxo_player_exact(pl))) {
        oxo_fail(err, OXO_E_ARG, "%s is a %s, not a %s", path, want_table ? "model" : "table",
                 want_table ? "table" : "model");
        oxo_player_close(pl);
        return NULL;
    }
    return pl;
}

int agent_number(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    long long v = strtoll(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

void agent_expected(const char *spec, oxo_error *err)
{
    /* The forms alone: with what each does, the list outgrew a message (--help has it all) */
    char list[400];
    size_t at = 0;
    for (int i = 0; oxo_agent_kinds[i] && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
                               i == 0                   ? ""
                               : oxo_agent_kinds[i + 1] ? ", "
                                                        : " or ",
                               oxo_agent_kinds[i]->usage);
    oxo_fail(err, OXO_E_ARG, "agent '%.80s': expected %s", spec, list);
}

/* Writes text at column `indent` (the cursor is there), words wrapped before column 80. */
static void wrap(FILE *out, const char *text, int indent)
{
    int col = indent;
    for (const char *w = text; *w;) {
        size_t n = strcspn(w, " ");
        if (col > indent && col + 1 + (int)n > 80)
            col = fprintf(out, "\n%*s", indent, "") - 1;
        else if (col > indent)
            col += fprintf(out, " ");
        col += fprintf(out, "%.*s", (int)n, w);
        w += n;
        w += strspn(w, " ");
    }
    fputc('\n', out);
}

void oxo_agent_usage(FILE *out, int indent)
{
    for (int i = 0; oxo_agent_kinds[i]; i++) {
        const agent_kind *k = oxo_agent_kinds[i];
        fprintf(out, "%*s", indent, "");
        wrap(out, k->usage, indent);
        fprintf(out, "%*s", indent + 2, "");
        wrap(out, k->about, indent + 2);
    }
}

oxo_agent *oxo_agent_open(const oxo_game *g, const char *spec, oxo_error *err)
{
    int failed;
    return oxo_agent_open_ex(g, spec, &failed, err);
}

oxo_agent *oxo_agent_open_ex(const oxo_game *g, const char *spec, int *failed, oxo_error *err)
{
    *failed = 0;
    oxo_agent *a = calloc(1, sizeof *a);
    if (!a) {
        oxo_fail(err, OXO_E_NOMEM, "agent '%.80s'", spec);
        *failed = 1;
        return NULL;
    }
    a->g = g;
    const char *eq = strchr(spec, '='), *body = spec;
    if (eq && (!strchr(spec, ':') || eq < strchr(spec, ':'))) {
        size_t n = (size_t)(eq - spec);
        if (n == 0 || n >= sizeof a->name) {
            oxo_fail(err, OXO_E_ARG,
                     "agent '%.80s': the name before '=' must be 1 to %zu characters", spec,
                     sizeof a->name - 1);
            free(a);
            return NULL;
        }
        memcpy(a->name, spec, n);
        body = eq + 1;
    } else {
        /* The spec itself, cut to the room at a character's start (never inside one). */
        size_t n = strlen(spec);
        if (n >= sizeof a->name)
            for (n = sizeof a->name - 1; n && ((unsigned char)spec[n] & 0xc0) == 0x80; n--)
                ;
        memcpy(a->name, spec, n);
    }
    /* A name is printed in rankings, SVG and JSON: text, no control character (a newline forged a
     * ranking row, invalid UTF-8 broke the SVG and the JSON). */
    size_t bad = oxo_text_bad(a->name);
    if (bad) {
        oxo_fail(err, OXO_E_ARG,
                 "agent name: byte %zu is %s; a name is UTF-8 text without control characters "
                 "(give one with NAME=SPEC)",
                 bad,
                 (unsigned char)a->name[bad - 1] < 0x20 || a->name[bad - 1] == 0x7f
                     ? "a control character"
                     : "not valid UTF-8");
        free(a);
        return NULL;
    }
    const char *colon = strchr(body, ':'), *arg = colon ? colon + 1 : NULL;
    size_t klen = colon ? (size_t)(colon - body) : strlen(body);
    const agent_kind *k = NULL;
    const char *word = NULL;
    for (int i = 0; oxo_agent_kinds[i] && !k; i++) {
        const agent_kind *c = oxo_agent_kinds[i];
        if (klen == strlen(c->name) && !strncmp(body, c->name, klen))
            k = c, word = c->name;
        else if (c->alias && klen == strlen(c->alias) && !strncmp(body, c->alias, klen))
            k = c, word = c->alias;
    }
    if (!k) {
        agent_expected(spec, err);
        free(a);
        return NULL;
    }
    a->kind = k;
    a->kind_name = word;
    if (k->open(a, word, spec, arg, failed, err)) {
        oxo_agent_free(a);
        return NULL;
    }
    return a;
}

void oxo_agent_free(oxo_agent *a)
{
    if (!a)
        return;
    if (a->kind && a->kind->free)
        a->kind->free(a);
    oxo_player_close(a->player);
    oxo_player_close(a->value);
    oxo_player_close(a->own_book);
    free(a->lines);
    free(a);
}

int oxo_agent_pick(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    if (oxo_status_of(a->g, p) != OXO_ONGOING)
        return -1;
    return a->kind->pick(a, p, rng);
}

const char *oxo_agent_name(const oxo_agent *a)
{
    return a->name;
}

const oxo_game *oxo_agent_game(const oxo_agent *a)
{
    return a->g;
}

const char *oxo_agent_note(const oxo_agent *a)
{
    return a->note;
}

const char *oxo_agent_kind(const oxo_agent *a)
{
    return a->kind_name;
}

int oxo_agent_keeps(oxo_agent *a, const oxo_judged *d, uint32_t index, uint64_t seed)
{
    uint64_t rng = oxo_rng_stream(seed ^ 0x6a7564676564ull, index);
    int m = oxo_agent_pick(a, d->pos, &rng);
    return m >= 0 && m < a->g->moves && d->value[m] == d->best;
}

void oxo_share_interval(long k, long n, double *low, double *high)
{
    const double nn = (double)n, ph = (double)k / nn, z = 1.959964, d = 1 + z * z / nn;
    const double mid = (ph + z * z / (2 * nn)) / d,
                 h = z * sqrt(ph * (1 - ph) / nn + z * z / (4 * nn * nn)) / d;
    *low = mid - h;
    *high = mid + h;
}
