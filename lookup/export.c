/*
 * oxo-export: writes a player in forms other programs use without oxo.
 *
 *   c        one freestanding C file (no heap, no I/O, no libc beyond <stdint.h>): the solved
 *            table as sorted arrays plus the functions that answer a move, its value, each move's
 *            value, and a move at a level with a seed (the same move oxo-play picks for that seed);
 *            for an n-tuple network or a NEAT model's champion, the network itself (tuples or
 *            nodes, weights) and the same answers from its values, on any board of up to 64
 *            cells (Connect-4 7x6 included).
 *   c-small  the smallest C player that still plays a best move everywhere: on the canonical
 *            board it wins at once, else blocks, else plays the first free cell of a fixed order,
 *            except on the few positions (found here, against the table or the model) where that
 *            rule would miss a best move, which are stored. Tic-tac-toe fits in well under 1 KB.
 *   python   tic-tac-toe as the dictionary of a common Python player: "XO_..." + "1"/"0" (X or O
 *            to move) -> the value for X (1, 0, -1).
 *   qtable   tic-tac-toe as the Q-table file of a common browser Q-learning app: {"q": [[state,
 *            [q0..q8]]...], "lr", "gamma", "epsilon", "difficulty"}; the free cell of highest q
 *            (first on ties) is a best move.
 *
 * The exported C sees boards as two masks of cells, row by row from the top left (X's and O's
 * stones; Connect-4 too), and moves as cells (m,n,k) or columns (Connect-4). This file derives the
 * data from the game and the file (the lines, the symmetries as cell permutations, the canonical
 * keys, the exceptions, the network's arrays) and writes it; the code after it is the real source
 * of lookup/freestanding, written as it is (emit_source), which this program also compiles.
 */
#include "cli.h"
#include "export.h"
#include "format.h"
#include "player.h"
#include "rng.h"

/* The freestanding sources (after board.c, which export.h brings): compiled here for this
 * program's own questions, and written out (export_c.c) into the players. */
#include "freestanding/small.c"
#include "freestanding/table.c"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "oxo-export";

static void usage(FILE *out)
{
    fprintf(
        out,
        "Usage: oxo-export [OPTION]... -o FILE\n"
        "Write a player for other programs: a freestanding C file (for firmware or\n"
        "WebAssembly), or JSON for common Python and JavaScript tic-tac-toe players.\n"
        "\n"
        "  -g, --game SPEC       the game whose shipped table to export (default: tictactoe)\n"
        "  -t, --table FILE      export this solved table (*.oxt)\n"
        "  -m, --model FILE      export this model's greedy policy (*.oxm; c-small and qtable),\n"
        "                        or with -f c an n-tuple network or a NEAT model's champion\n"
        "                        itself (any board up to 64 cells: its weights, move values\n"
        "                        and levels); n-tuple networks\n"
        "                        joined by '+' (a.oxm+b.oxm) export their mean's moves (c-small)\n"
        "  -f, --form FORM       c (default for tables: values, levels, hints; for a network,\n"
        "                        itself), c-small (best moves only, the smallest; default\n"
        "                        for models), python\n"
        "                        (tic-tac-toe dictionary of values for X) or qtable\n"
        "                        (tic-tac-toe Q-table JSON of a browser Q-learning app)\n"
        "  -n, --name PREFIX     prefix of the C functions and arrays (default: oxp)\n"
        "  -o, --output FILE     where to write (written whole or not at all); - for stdout\n"
        "      --json            print what was written (form, positions, bytes) as JSON\n"
        "  -h, --help            show this help and exit\n"
        "  -V, --version         show the version and exit\n"
        "\n"
        "The C file's interface is described at its top. Exit status: 0 written, 1 failure,\n"
        "2 bad usage.\n");
}

/* The input's name as the generated file's comment gives it: its last component only (the folders
 * of the machine that exported it are no business of a shipped file), and of it only letters,
 * digits and . _ + - (anything else, "*" "/" among them, becomes '_'), so that nothing the user
 * named can end the comment and reach the code. */
static void source_name(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    size_t n = 0;
    for (; *base && n + 1 < cap; base++)
        out[n++] = isalnum((unsigned char)*base) || strchr("._+-", *base) ? *base : '_';
    out[n] = 0;
}

/* Whether writing out would replace the input: the file path, or one of the networks it joins by
 * '+' (a path naming an existing file is that file, as oxo_player_open_joined reads it). */
static int overwrites_input(const char *out, const char *path)
{
    if (!oxo_spec_is_joined(path))
        return oxo_same_file(out, path);
    char member[4096];
    size_t len;
    for (const char *s = path; s;) {
        const char *next = oxo_spec_member(s, member, sizeof member, &len);
        if (len && len < sizeof member && oxo_same_file(out, member))
            return 1;
        s = next;
    }
    return 0;
}

static int geo_init(geo *e, const oxo_game *g, int max_cells, oxo_error *err)
{
    memset(e, 0, sizeof *e);
    e->g = g;
    e->w = g->cols;
    e->h = g->rows;
    e->cells = g->cells;
    e->moves = g->moves;
    e->gravity = g->gravity;
    if (e->cells > max_cells) {
        oxo_fail(err, OXO_E_ARG,
                 "%s has %d cells; the exported player holds boards of at most %d cells", g->name,
                 e->cells, max_cells);
        return -1;
    }
    e->nlines = oxo_cell_lines(g, e->lines);
    e->nsym = oxo_cell_maps(g, e->perm, e->mperm);
    /* Default order: moves by the number of lines through them (the centre first), then by
     * number; with gravity, columns by their distance from the centre. */
    for (int m = 0; m < e->moves; m++)
        e->order[m] = (uint8_t)m;
    for (int i = 1; i < e->moves; i++)
        for (int j = i; j > 0; j--) {
            int a = e->order[j], b = e->order[j - 1], wa = 0, wb = 0;
            if (e->gravity) {
                wa = -abs(2 * a - (e->w - 1));
                wb = -abs(2 * b - (e->w - 1));
            } else
                for (int l = 0; l < e->nlines; l++) {
                    wa += (int)(e->lines[l] >> a & 1);
                    wb += (int)(e->lines[l] >> b & 1);
                }
            if (wa <= wb)
                break;
            e->order[j] = (uint8_t)b;
            e->order[j - 1] = (uint8_t)a;
        }
    e->b = (oxp_board){e->cells, e->moves,  e->w,    e->h,     e->gravity,
                       e->nsym,  e->nlines, e->perm, e->mperm, e->lines};
    return 0;
}

static uint64_t key_of(const geo *e, uint64_t me, uint64_t op)
{
    return me | op << e->cells;
}

/* The masks of a position: me/op as cells. */
static void masks(const oxo_game *g, oxo_pos p, uint64_t *me, uint64_t *op)
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    int xm = oxo_x_to_move(g, p);
    *me = xm ? x : o;
    *op = xm ? o : x;
}

/* A set of keys (open addressing), for the walk over positions. */
typedef struct keyset64 {
    uint64_t *k;
    size_t cap, n;
} keyset64;

static int ks_add(keyset64 *s, uint64_t key)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        uint64_t *nk = malloc(nc * sizeof *nk);
        if (!nk)
            return -1;
        memset(nk, 0xff, nc * sizeof *nk);
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i] != UINT64_MAX)
                for (size_t j = oxo_mix64(s->k[i]) & (nc - 1);; j = (j + 1) & (nc - 1))
                    if (nk[j] == UINT64_MAX) {
                        nk[j] = s->k[i];
                        break;
                    }
        free(s->k);
        s->k = nk;
        s->cap = nc;
    }
    for (size_t j = oxo_mix64(key) & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        if (s->k[j] == key)
            return 0;
        if (s->k[j] == UINT64_MAX) {
            s->k[j] = key;
            s->n++;
            return 1;
        }
    }
}

/* One canonical non-terminal position: its key, a real position of it, its entry. */
typedef struct item {
    uint64_t key;
    oxo_pos pos;
    int sym;
} item;

typedef struct walk {
    const geo *e;
    keyset64 seen; /* absolute boards visited */
    keyset64 canon;
    item *items;
    size_t n, cap;
} walk;

static int walk_from(walk *w, oxo_pos p)
{
    const oxo_game *g = w->e->g;
    uint64_t me, op;
    masks(g, p, &me, &op);
    int added = ks_add(&w->seen, key_of(w->e, me, op));
    if (added <= 0)
        return added;
    if (oxo_status_of(g, p) != OXO_ONGOING)
        return 0;
    int sym = 0;
    uint64_t k = oxp_board_canon(&w->e->b, me, op, &sym);
    int fresh = ks_add(&w->canon, k);
    if (fresh < 0)
        return -1;
    if (fresh) {
        if (w->n == w->cap) {
            size_t nc = w->cap ? 2 * w->cap : 1024;
            item *ni = realloc(w->items, nc * sizeof *ni);
            if (!ni)
                return -1;
            w->items = ni;
            w->cap = nc;
        }
        w->items[w->n++] = (item){k, p, sym};
    }
    uint64_t legal = oxo_legal(g, p);
    while (legal) {
        int m = __builtin_ctzll(legal);
        legal &= legal - 1;
        if (walk_from(w, oxo_play(g, p, m)) < 0)
            return -1;
    }
    return 0;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const item *)a)->key, y = ((const item *)b)->key;
    return x < y ? -1 : x > y;
}

/* The best moves of the canonical board of an item, as a bit set of canonical-frame moves. */
static uint64_t best_canonical(const oxo_player *pl, const geo *e, const item *it)
{
    oxo_move_info mi[OXO_MAX_MOVES];
    int best[OXO_MAX_MOVES];
    int n = oxo_player_moves(pl, it->pos, mi);
    int k = oxo_best_moves(mi, n, best);
    uint64_t set = 0;
    for (int i = 0; i < k; i++)
        set |= 1ull << e->mperm[it->sym * e->moves + best[i]];
    return set;
}

/* c-small: the canonical boards where the rule misses a best move, with a best one. 0, or -1 out
 * of memory. */
static int write_small(FILE *f, const oxo_player *pl, const geo *e, const walk *w, const char *name,
                       size_t *count)
{
    uint64_t *exc = malloc((w->n + 1) * sizeof *exc);
    if (!exc) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    const oxp_small rule = {&e->b, e->order, NULL, 0}; /* the rule alone: where it misses */
    for (size_t i = 0; i < w->n; i++) {
        uint64_t me = w->items[i].key & ((1ull << e->cells) - 1), op = w->items[i].key >> e->cells;
        uint64_t best = best_canonical(pl, e, &w->items[i]);
        int m = oxp_small_rule(&rule, me, op);
        if (m < 0 || !(best >> m & 1))
            exc[(*count)++] = w->items[i].key << 6 | (uint64_t)__builtin_ctzll(best);
    }
    emit_small(f, e, name, exc, *count);
    free(exc);
    return 0;
}

/* c of a table: every canonical position's key and entry. 0, or -1 (out of memory, or the
 * lookup written would not answer as the table: said on stderr). */
static int write_full(FILE *f, const oxo_player *pl, const geo *e, const walk *w, const char *name,
                      size_t *count)
{
    uint64_t *keys = malloc((w->n + 1) * sizeof *keys);
    uint8_t *ent = malloc(w->n + 1);
    int rc = keys && ent ? 0 : -1;
    if (rc)
        fprintf(stderr, "%s: out of memory\n", prog);
    for (size_t i = 0; !rc && i < w->n; i++) {
        int v, d;
        oxo_player_value(pl, w->items[i].pos, &v, &d);
        keys[i] = w->items[i].key;
        ent[i] = (uint8_t)((v + 1) << 6 | d);
    }
    /* The arrays answer, through the lookup the player will run, every position as the table
     * does (a check of this program, not of the file read: it costs a search a position). */
    const oxp_table t = {&e->b, keys, ent, (unsigned)w->n};
    for (size_t i = 0; !rc && i < w->n; i++) {
        const uint64_t me = keys[i] & ((1ull << e->cells) - 1), op = keys[i] >> e->cells;
        if (oxp_table_entry(&t, me, op) != ent[i]) {
            fprintf(stderr, "%s: internal error: the exported lookup misses position %zu\n", prog,
                    i);
            rc = -1;
        }
    }
    if (!rc) {
        *count = w->n;
        emit_full(f, e, name, keys, ent, w->n);
    }
    free(keys);
    free(ent);
    return rc;
}

/* A C form: what the file is, then the player (c-small, a network itself, or a table). */
static int write_c(FILE *f, const oxo_player *pl, const geo *e, const walk *w, const char *path,
                   const char *name, int small, int net, size_t *count)
{
    const oxo_game *g = oxo_player_game(pl);
    char from[128];
    source_name(path, from, sizeof from);
    fprintf(
        f,
        "/*\n * A player of %s exported by oxo-export %s from %s (%s), freestanding:\n"
        " * no heap, no I/O, nothing but <stdint.h>; builds with -ffreestanding -nostdlib.\n"
        " *\n * Boards are two masks of cells, row by row from the top left: bit i of x holds X's\n"
        " * stones, bit i of o O's (X moves first; the side to move follows from the counts).\n"
        " * Moves are %s.\n */\n",
        g->name, OXO_VERSION, from,
        small ? "best moves only"
        : net ? "the n-tuple network: move values, levels"
              : "values, levels, hints",
        g->gravity ? "columns from 0 (left)" : "cells");
    if (small)
        return write_small(f, pl, e, w, name, count);
    if (net) {
        *count = emit_network(f, e, pl, name);
        return 0;
    }
    return write_full(f, pl, e, w, name, count);
}

static int is_tictactoe(const oxo_game *g)
{
    return !g->gravity && g->cols == 3 && g->rows == 3 && g->k == 3;
}

/* Whether --name can prefix C names: an identifier of at most 32 characters. */
static int c_identifier(const char *name)
{
    size_t nlen = strlen(name);
    int ok = nlen > 0 && nlen <= 32 && !(name[0] >= '0' && name[0] <= '9');
    for (size_t i = 0; i < nlen; i++)
        ok &= (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9') || name[i] == '_';
    return ok;
}

/* The export to out, whole or not at all (- is standard output): 0, or -1 said on stderr. */
static int deliver(const char *out, const char *buf, size_t blen)
{
    oxo_error err;
    if (!strcmp(out, "-")) {
        if (fwrite(buf, 1, blen, stdout) != blen || fflush(stdout)) {
            fprintf(stderr, "%s: writing to stdout failed\n", prog);
            return -1;
        }
    } else if (oxo_atomic_write(out, buf, blen, &err)) {
        fprintf(stderr, "%s: %s: %s\n", prog, out, err.msg);
        return -1;
    }
    return 0;
}

/* The file to export, as a player: a table, a model, or networks joined by '+' (which play as
 * one, as in oxo-play --model and oxo_open: the export is their mean's); of the game want when
 * one was named. NULL said on stderr. */
static oxo_player *open_input(const char *path, int model, const oxo_game *want)
{
    oxo_error err;
    oxo_player *pl = model ? oxo_player_open_joined(path, &err) : oxo_player_open(path, &err);
    if (pl && oxo_player_takes(pl, path, OXO_TAKE_TABLE | OXO_TAKE_MODEL, &err)) {
        oxo_player_close(pl);
        pl = NULL;
    }
    if (!pl) {
        if (err.code == OXO_E_KIND) /* the message names the file */
            fprintf(stderr, "%s: %s\n", prog, err.msg);
        else
            fprintf(stderr, "%s: %s: %s\n", prog, path, err.msg);
        return NULL;
    }
    if (want && !oxo_game_same(want, oxo_player_game(pl))) {
        fprintf(stderr, "%s: %s is a file of %s, not of %s\n", prog, path,
                oxo_player_game(pl)->name, want->name);
        oxo_player_close(pl);
        return NULL;
    }
    return pl;
}

/* Every canonical position not finished, from the start, sorted by key: 0, or -1 said. */
static int walk_game(walk *w, const oxo_game *g)
{
    if (walk_from(w, oxo_start(g))) {
        fprintf(stderr, "%s: out of memory walking the positions of %s\n", prog, g->name);
        return -1;
    }
    qsort(w->items, w->n, sizeof *w->items, by_key);
    return 0;
}

/* Whether --form names no form, or one a model (the file given with --model, else NULL) cannot
 * take; said on stderr. */
static int bad_form(const char *form, const char *model)
{
    const int c = !strcmp(form, "c"), py = !strcmp(form, "python");
    if (!c && strcmp(form, "c-small") && !py && strcmp(form, "qtable")) {
        fprintf(stderr, "%s: --form: '%s', expected c, c-small, python or qtable\n", prog, form);
        return 1;
    }
    if (model && (py || (c && oxo_spec_is_joined(model)))) {
        fprintf(stderr,
                "%s: --form %s needs a solved table (exact values)%s; a model exports as c-small "
                "or qtable\n",
                prog, form, c ? ", one n-tuple network, a NEAT model or an azero network" : "");
        return 1;
    }
    return 0;
}

/* Where and how an export is written: the form, the input's path, the C prefix, the output (- for
 * stdout), whether the report is JSON, and whether the form writes a network as itself (form c
 * of a model: main has checked it is one network). */
typedef struct out_spec {
    const char *form, *path, *name, *out;
    int json, net;
} out_spec;

/* Writes pl's export in the form o->form (the positions walked in w; a network is written as
 * itself) to o->out, and reports it: 0, or -1 after a message. */
static int produce(const oxo_player *pl, const geo *e, const walk *w, const out_spec *o)
{
    const char *form = o->form, *path = o->path, *name = o->name, *out = o->out;
    const int f_c = !strcmp(form, "c"), f_small = !strcmp(form, "c-small"),
              f_q = !strcmp(form, "qtable"), f_net = o->net;
    const oxo_game *g = oxo_player_game(pl);
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    if (!f) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    size_t count = 0;
    if ((f_c || f_small ? write_c(f, pl, e, w, path, name, f_small, f_net, &count)
         : oxo_export_json(f, pl, f_q, &count) ? (fprintf(stderr, "%s: out of memory\n", prog), -1)
                                               : 0)) {
        fclose(f);
        free(buf);
        return -1;
    }
    if (fclose(f)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        free(buf);
        return -1;
    }
    const char *key = f_small ? "exceptions" : f_net ? "weights" : f_c ? "entries" : "records";
    int bad = deliver(out, buf, blen);
    free(buf);
    if (bad)
        return -1;
    if (o->json) {
        printf("{\"form\":\"%s\",\"game\":", form);
        oxo_json_str(stdout, g->spec);
        printf(",\"output\":");
        oxo_json_str(stdout, out);
        printf(",\"%s\":%zu,\"canonical_positions\":%zu,\"bytes\":%zu}\n", key, count, w->n, blen);
    } else if (strcmp(out, "-"))
        fprintf(stderr, "%s: wrote %s (%s of %s: %zu %s, %zu bytes)\n", prog, out, form, g->name,
                count, f_c && !f_net ? "positions" : key, blen);
    return 0;
}

int main(int argc, char **argv)
{
    enum { O_JSON = 256 };
    /* clang-format off */
    static const struct option opts[] = {
        {"game", required_argument, 0, 'g'}, {"table", required_argument, 0, 't'},
        {"model", required_argument, 0, 'm'}, {"form", required_argument, 0, 'f'},
        {"name", required_argument, 0, 'n'}, {"output", required_argument, 0, 'o'},
        {"json", no_argument, 0, O_JSON}, {"help", no_argument, 0, 'h'},
        {"version", no_argument, 0, 'V'}, {0, 0, 0, 0},
    };
    /* clang-format on */
    const char *spec = NULL, *table = NULL, *model = NULL, *form = NULL, *name = "oxp", *out = NULL;
    int json = 0, c;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:t:m:f:n:o:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            spec = optarg;
            break;
        case 't':
            table = optarg;
            break;
        case 'm':
            model = optarg;
            break;
        case 'f':
            form = optarg;
            break;
        case 'n':
            name = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case O_JSON:
            json = 1;
            break;
        default:
            return oxo_cli_other(prog, c, argv, opts, usage);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (table && model) {
        fprintf(stderr, "%s: --table and --model exclude each other\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "%s: say where to write with -o FILE (- for stdout)\nTry '%s --help'.\n",
                prog, prog);
        return OXO_EXIT_USAGE;
    }
    if (!form)
        form = model ? "c-small" : "c";
    int f_c = !strcmp(form, "c"), f_small = !strcmp(form, "c-small"),
        f_py = !strcmp(form, "python"), f_q = !strcmp(form, "qtable");
    if (bad_form(form, model))
        return OXO_EXIT_USAGE;
    if (!c_identifier(name)) {
        fprintf(stderr, "%s: --name: '%s' is not a C identifier of at most 32 characters\n", prog,
                name);
        return OXO_EXIT_USAGE;
    }
    char found[4096];
    oxo_error err;
    oxo_game *want = oxo_game_open(spec ? spec : "tictactoe", &err);
    if (!want) {
        fprintf(stderr, "%s: --game: %s\n", prog, err.msg);
        return OXO_EXIT_USAGE;
    }
    const char *path = model ? model : table;
    if (!path) {
        if (oxo_cli_default_table(prog, want->spec, found, sizeof found)) {
            oxo_game_free(want);
            return OXO_EXIT_FAIL;
        }
        path = found;
    }
    if (strcmp(out, "-") && overwrites_input(out, path)) {
        fprintf(stderr, "%s: %s: would overwrite the input file\n", prog, out);
        oxo_game_free(want);
        return OXO_EXIT_USAGE;
    }
    oxo_player *pl = open_input(path, model != NULL, spec ? want : NULL);
    if (!pl) {
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    int rc = OXO_EXIT_FAIL;
    if (!model && !oxo_player_exact(pl)) {
        fprintf(stderr, "%s: %s is a model: use --model\n", prog, path);
        goto done;
    }
    if (model && oxo_player_exact(pl)) {
        fprintf(stderr, "%s: %s is a table: use --table\n", prog, path);
        goto done;
    }
    const oxo_game *g = oxo_player_game(pl);
    /* A network is exported as itself (emit_net); others and joined networks by their moves. */
    const int f_net = f_c && model;
    if (f_net && !oxo_export_network(pl)) {
        fprintf(stderr,
                "%s: --form c needs a solved table (exact values), one n-tuple network or a NEAT "
                "model; %s is another model: export it as c-small or qtable\n",
                prog, path);
        rc = OXO_EXIT_USAGE;
        goto done;
    }
    if ((f_py || f_q) && !is_tictactoe(g)) {
        fprintf(stderr, "%s: --form %s is tic-tac-toe's (3x3 cells); %s is not\n", prog, form,
                g->name);
        goto done;
    }
    static geo e;
    if ((f_small && g->cells > 29 &&
         oxo_fail(&err, OXO_E_ARG, "--form c-small holds boards of at most 29 cells; %s has %d%s",
                  g->name, g->cells,
                  oxo_player_net(pl) ? " (--form c exports the network itself)" : "")) ||
        geo_init(&e, g, f_net ? 64 : 32, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        goto done;
    }
    walk w = {&e, {0}, {0}, NULL, 0, 0};
    /* A network is written as itself: no position is walked (7x6 has trillions). */
    if (!f_net && walk_game(&w, g))
        goto walked;

    if (!produce(pl, &e, &w, &(out_spec){form, path, name, out, json, f_net}))
        rc = OXO_EXIT_OK;
walked:
    free(w.seen.k);
    free(w.canon.k);
    free(w.items);
done:
    oxo_player_close(pl);
    oxo_game_free(want);
    return oxo_cli_finish(prog, rc);
}
