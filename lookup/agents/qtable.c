/*
 * qtable:FILE: a tic-tac-toe Q-table in the JSON form of a common browser Q-learning app (the form
 * oxo-export -f qtable writes), played as that app plays it: in a position, the free cell of the
 * highest value, the first one on ties; a position the table lacks is all zeros, so its first
 * free cell. So a table trained in that app can be graded and rated by oxo (oxo-arena --judge, its
 * share of moves keeping the value) and played against oxo's players.
 *
 * The file: {"q": [[STATE, [V0, ..., V8]], ...], ...}, STATE the nine cells row by row from the
 * top left as X, O and '-', each V a number; other keys (the app's statistics, its settings) are
 * skipped. Read whole and refused at the first thing that is not so, with its byte offset: a
 * reader of a file a person made must not take a wrong one for a table.
 */
#include "kind.h"

#include "datadir.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* At most this many bytes: a table of every tic-tac-toe state with long numbers is about 1 MB. */
#define QTABLE_MAX_BYTES (64u << 20)
/* 3^9 states, each a row of 9 values, indexed by the base-3 code of its cells (X 1, O 2). */
#define QTABLE_STATES OXO_QTABLE_STATES

typedef struct qtable {
    float *q;      /* QTABLE_STATES x 9 */
    uint8_t *have; /* the states the file holds */
} qtable;

typedef struct reader {
    const char *start, *s, *end;
    const char *path;
    oxo_error *err;
} reader;

static int fail_at(reader *r, const char *what)
{
    oxo_fail(r->err, OXO_E_ARG,
             "%s: byte %zu: %s (expected {\"q\": [[\"X-O------\", [9 numbers]], ...]}, the "
             "Q-table of a tic-tac-toe Q-learning app, as oxo-export -f qtable writes it)",
             r->path, (size_t)(r->s - r->start), what);
    return -1;
}

static void skip_ws(reader *r)
{
    while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
        r->s++;
}

static int expect(reader *r, char c)
{
    skip_ws(r);
    if (r->s >= r->end || *r->s != c) {
        char what[40];
        snprintf(what, sizeof what, "'%c' expected here", c);
        return fail_at(r, what);
    }
    r->s++;
    return 0;
}

/* A string without escapes into out (at most cap - 1 characters; longer: refused). */
static int string(reader *r, char *out, size_t cap)
{
    if (expect(r, '"'))
        return -1;
    size_t n = 0;
    while (r->s < r->end && *r->s != '"') {
        if (*r->s == '\\' || (unsigned char)*r->s < 0x20 || n + 1 >= cap)
            return fail_at(r, "a key or state that is not a short plain string");
        out[n++] = *r->s++;
    }
    if (r->s >= r->end)
        return fail_at(r, "an unterminated string");
    r->s++;
    out[n] = 0;
    return 0;
}

static int number(reader *r, double *v)
{
    skip_ws(r);
    char buf[64];
    size_t n = 0;
    while (r->s + n < r->end && n + 1 < sizeof buf && strchr("+-0123456789.eE", r->s[n]))
        n++;
    memcpy(buf, r->s, n);
    buf[n] = 0;
    char *stop;
    errno = 0;
    *v = n ? strtod(buf, &stop) : 0;
    if (!n || *stop || !isfinite(*v))
        return fail_at(r, "a number expected here");
    r->s += n;
    return 0;
}

/* Skips any JSON value (the app's other keys), nested at most 64 deep. */
static int skip_value(reader *r, int depth)
{
    skip_ws(r);
    if (r->s >= r->end || depth > 64)
        return fail_at(r, "a value expected here");
    char c = *r->s;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->s++;
        skip_ws(r);
        if (r->s < r->end && *r->s == close)
            return r->s++, 0;
        for (;;) {
            if (c == '{') {
                char key[256];
                if (string(r, key, sizeof key) || expect(r, ':'))
                    return -1;
            }
            if (skip_value(r, depth + 1))
                return -1;
            skip_ws(r);
            if (r->s < r->end && *r->s == ',') {
                r->s++;
                continue;
            }
            return expect(r, close);
        }
    }
    if (c == '"') {
        for (r->s++; r->s < r->end && *r->s != '"'; r->s++)
            if (*r->s == '\\' && r->s + 1 < r->end)
                r->s++;
        return r->s < r->end ? (r->s++, 0) : fail_at(r, "an unterminated string");
    }
    for (const char *w = "true\0false\0null\0"; *w; w += strlen(w) + 1)
        if ((size_t)(r->end - r->s) >= strlen(w) && !strncmp(r->s, w, strlen(w)))
            return r->s += strlen(w), 0;
    double v;
    return number(r, &v);
}

/* One [STATE, [9 numbers]] of the "q" array. */
static int entry(reader *r, qtable *t)
{
    char state[16];
    if (expect(r, '[') || string(r, state, sizeof state))
        return -1;
    int x = 0, o = 0;
    uint32_t code = 0;
    if (strlen(state) != 9)
        return fail_at(r, "a state of 9 cells (X, O or -) expected");
    for (int i = 8; i >= 0; i--) {
        char c = state[i];
        if (c != 'X' && c != 'O' && c != '-')
            return fail_at(r, "a state of 9 cells (X, O or -) expected");
        x += c == 'X', o += c == 'O';
        code = 3 * code + (c == 'X' ? 1 : c == 'O' ? 2 : 0);
    }
    if (x != o && x != o + 1)
        return fail_at(r, "a state no game reaches (X moves first, the players alternate)");
    if (t->have[code])
        return fail_at(r, "a state given twice");
    t->have[code] = 1;
    if (expect(r, ',') || expect(r, '['))
        return -1;
    for (int i = 0; i < 9; i++) {
        double v;
        if ((i && expect(r, ',')) || number(r, &v))
            return -1;
        if (fabs(v) > 3.0e38)
            return fail_at(r, "a value beyond a float's range");
        t->q[(size_t)code * 9 + (size_t)i] = (float)v;
    }
    return expect(r, ']') || expect(r, ']') ? -1 : 0;
}

static int parse(reader *r, qtable *t)
{
    int have_q = 0;
    if (expect(r, '{'))
        return -1;
    skip_ws(r);
    if (r->s < r->end && *r->s == '}')
        return fail_at(r, "no \"q\" key");
    for (;;) {
        char key[256];
        if (string(r, key, sizeof key) || expect(r, ':'))
            return -1;
        if (!strcmp(key, "q")) {
            if (have_q)
                return fail_at(r, "\"q\" given twice");
            have_q = 1;
            if (expect(r, '['))
                return -1;
            skip_ws(r);
            if (r->s < r->end && *r->s == ']')
                r->s++;
            else
                for (;;) {
                    if (entry(r, t))
                        return -1;
                    skip_ws(r);
                    if (r->s < r->end && *r->s == ',') {
                        r->s++;
                        continue;
                    }
                    if (expect(r, ']'))
                        return -1;
                    break;
                }
        } else if (skip_value(r, 0))
            return -1;
        skip_ws(r);
        if (r->s < r->end && *r->s == ',') {
            r->s++;
            continue;
        }
        if (expect(r, '}'))
            return -1;
        break;
    }
    skip_ws(r);
    if (r->s != r->end)
        return fail_at(r, "more after the object");
    return have_q ? 0 : fail_at(r, "no \"q\" key");
}

int oxo_qtable_parse(const char *text, size_t len, const char *name, float *q, uint8_t *have,
                     oxo_error *err)
{
    qtable t = {q, have};
    reader r = {text, text, text + len, name, err};
    return parse(&r, &t);
}

uint32_t oxo_qtable_code(uint64_t x, uint64_t o)
{
    uint32_t code = 0;
    for (int i = 8; i >= 0; i--)
        code = 3 * code + (uint32_t)((x >> i & 1) + 2 * (o >> i & 1));
    return code;
}

static int open_qtable(oxo_agent *a, const char *word, const char *spec, const char *arg,
                       int *failed, oxo_error *err)
{
    (void)word;
    const oxo_game *g = a->g;
    if (!arg || !*arg) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': qtable needs a file: qtable:FILE", spec);
        return -1;
    }
    if (strcmp(g->spec, "tictactoe")) {
        oxo_fail(err, OXO_E_ARG, "agent '%.80s': a Q-table of the app is tic-tac-toe's, not %s",
                 spec, g->name);
        return -1;
    }
    *failed = 1; /* from here on, what fails is the file or memory */
    char found[4096];
    arg = oxo_data_path(arg, found, sizeof found);
    FILE *f = fopen(arg, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        oxo_fail(err, OXO_E_ARG, "%s: %s", arg, !f ? strerror(errno) : "not a regular file");
        if (f)
            fclose(f);
        return -1;
    }
    if (st.st_size > QTABLE_MAX_BYTES) {
        oxo_fail(err, OXO_E_ARG, "%s: %lld bytes, more than a Q-table of tic-tac-toe can need (%u)",
                 arg, (long long)st.st_size, QTABLE_MAX_BYTES);
        fclose(f);
        return -1;
    }
    qtable *t = calloc(1, sizeof *t);
    char *text = malloc((size_t)st.st_size + 1);
    if (t) {
        t->q = calloc((size_t)QTABLE_STATES * 9, sizeof *t->q);
        t->have = calloc(QTABLE_STATES, 1);
    }
    a->state = t;
    if (!t || !t->q || !t->have || !text) {
        oxo_fail(err, OXO_E_NOMEM, "a Q-table of %u states", QTABLE_STATES);
        free(text);
        fclose(f);
        return -1;
    }
    size_t n = fread(text, 1, (size_t)st.st_size, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n != (size_t)st.st_size) {
        oxo_fail(err, OXO_E_ARG, "%s: could not be read whole", arg);
        free(text);
        return -1;
    }
    bad = oxo_qtable_parse(text, n, arg, t->q, t->have, err);
    free(text);
    return bad;
}

static int pick_qtable(oxo_agent *a, oxo_pos p, uint64_t *rng)
{
    (void)rng;
    const qtable *t = a->state;
    uint64_t x, o;
    oxo_cells(a->g, p, &x, &o);
    const float *row = t->q + (size_t)oxo_qtable_code(x, o) * 9;
    uint64_t free_cells = ~(x | o) & 0x1ff;
    int best = -1;
    for (int i = 0; i < 9; i++)
        if ((free_cells >> i & 1) && (best < 0 || row[i] > row[best]))
            best = i;
    return best;
}

static void free_qtable(oxo_agent *a)
{
    qtable *t = a->state;
    if (t) {
        free(t->q);
        free(t->have);
        free(t);
    }
}

/* clang-format off */
const agent_kind oxo_agent_qtable = {
    .name = "qtable", .open = open_qtable, .pick = pick_qtable, .free = free_qtable,
    .usage = "qtable:FILE",
    .about = "tic-tac-toe: the JSON Q-table of a browser Q-learning app, as oxo-export -f qtable "
             "writes it",
};
/* clang-format on */
