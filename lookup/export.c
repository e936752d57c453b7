/*
 * oxo-export: writes a player in forms other programs use without oxo.
 *
 *   c        one freestanding C file (no heap, no I/O, no libc beyond <stdint.h>): the solved
 *            table as sorted arrays plus the functions that answer a move, its value, each move's
 *            value, and a move at a level with a seed (the same move oxo-play picks for that seed);
 *            for an n-tuple network, the network itself (tuples, weights) and the same answers
 *            from its values, on any board of up to 64 cells (Connect-4 7x6 included).
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
 * stones; Connect-4 too), and moves as cells (m,n,k) or columns (Connect-4). Everything it needs is
 * derived here from the game and the file, nothing is written by hand: the lines, the symmetries
 * (as cell permutations), the canonical keys, the exceptions.
 */
#include "cli.h"
#include "format.h"
#include "player.h"
#include "rng.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "oxo-export";

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: oxo-export [OPTION]... -o FILE\n"
            "Write a player for other programs: a freestanding C file (for firmware or\n"
            "WebAssembly), or JSON for common Python and JavaScript tic-tac-toe players.\n"
            "\n"
            "  -g, --game SPEC       the game whose shipped table to export (default: tictactoe)\n"
            "  -t, --table FILE      export this solved table (*.oxt)\n"
            "  -m, --model FILE      export this model's greedy policy (*.oxm; c-small and qtable),\n"
            "                        or with -f c an n-tuple network itself (any board up to 64\n"
            "                        cells: its weights, move values and levels); n-tuple networks\n"
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

/* The export's view of a game: cells row by row, lines, symmetries as permutations. */
typedef struct geo {
    const oxo_game *g;
    int w, h, cells, moves, gravity;
    int nlines;
    uint64_t lines[OXO_MAX_LINES];
    int nsym;
    uint8_t perm[8][64];  /* perm[s][cell]: where cell goes under symmetry s */
    uint8_t mperm[8][64]; /* the same for move numbers */
    int order[64];        /* c-small: the default move order, best first */
} geo;

static int geo_init(geo *e, const oxo_game *g, int max_cells, char *msg, size_t cap)
{
    memset(e, 0, sizeof *e);
    e->g = g;
    e->w = g->cols;
    e->h = g->rows;
    e->cells = g->cells;
    e->moves = g->moves;
    e->gravity = g->gravity;
    if (e->cells > max_cells) {
        snprintf(msg, cap, "%s has %d cells; the exported player holds boards of at most %d cells", g->name,
                 e->cells, max_cells);
        return -1;
    }
    e->nlines = oxo_cell_lines(g, e->lines);
    /* The eight symmetries of a square, kept when they map the board onto itself; with gravity
     * only those that keep "down" down (the mirror). */
    for (int s = 0; s < 8; s++) {
        int ok = 1;
        for (int r = 0; r < e->h && ok; r++)
            for (int c = 0; c < e->w && ok; c++) {
                int rr = r, cc = c, t;
                if (s & 4) { t = rr; rr = cc; cc = t; } /* transpose */
                int hh = (s & 4) ? e->w : e->h, ww = (s & 4) ? e->h : e->w;
                if (s & 1) cc = ww - 1 - cc;
                if (s & 2) rr = hh - 1 - rr;
                if (hh != e->h || ww != e->w || (e->gravity && (s & 6))) {
                    ok = 0;
                    break;
                }
                e->perm[e->nsym][r * e->w + c] = (uint8_t)(rr * e->w + cc);
            }
        if (!ok)
            continue;
        for (int m = 0; m < e->moves; m++)
            e->mperm[e->nsym][m] = e->gravity ? (uint8_t)((s & 1) ? e->w - 1 - m : m) : e->perm[e->nsym][m];
        e->nsym++;
    }
    /* Default order: moves by the number of lines through them (the centre first), then by
     * number; with gravity, columns by their distance from the centre. */
    for (int m = 0; m < e->moves; m++)
        e->order[m] = m;
    for (int i = 1; i < e->moves; i++)
        for (int j = i; j > 0; j--) {
            int a = e->order[j], b = e->order[j - 1], wa = 0, wb = 0;
            if (e->gravity) {
                wa = -abs(2 * a - (e->w - 1));
                wb = -abs(2 * b - (e->w - 1));
            }
            else
                for (int l = 0; l < e->nlines; l++) {
                    wa += (int)(e->lines[l] >> a & 1);
                    wb += (int)(e->lines[l] >> b & 1);
                }
            if (wa <= wb)
                break;
            e->order[j] = b;
            e->order[j - 1] = a;
        }
    return 0;
}

static uint64_t img(const geo *e, uint64_t m, int s)
{
    uint64_t r = 0;
    for (int c = 0; c < e->cells; c++)
        if (m >> c & 1)
            r |= 1ull << e->perm[s][c];
    return r;
}

static int wins(const geo *e, uint64_t m)
{
    for (int l = 0; l < e->nlines; l++)
        if ((m & e->lines[l]) == e->lines[l])
            return 1;
    return 0;
}

/* The cell a move fills, or -1 when it is not legal. */
static int cell_of(const geo *e, uint64_t occ, int m)
{
    if (!e->gravity)
        return occ >> m & 1 ? -1 : m;
    for (int r = e->h - 1; r >= 0; r--)
        if (!(occ >> (r * e->w + m) & 1))
            return r * e->w + m;
    return -1;
}

static uint64_t key_of(const geo *e, uint64_t me, uint64_t op)
{
    return me | op << e->cells;
}

/* The canonical key of (me, op) and the symmetry that gives it. */
static uint64_t canon(const geo *e, uint64_t me, uint64_t op, int *sym)
{
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < e->nsym; s++) {
        uint64_t k = key_of(e, img(e, me, s), img(e, op, s));
        if (k < best) {
            best = k;
            *sym = s;
        }
    }
    return best;
}

/* c-small's rule on a canonical board, as the exported code runs it: a winning move, else a
 * blocking one, else the first legal move of the order. */
static int small_rule(const geo *e, uint64_t me, uint64_t op)
{
    int m, c;
    for (m = 0; m < e->moves; m++)
        if ((c = cell_of(e, me | op, m)) >= 0 && wins(e, me | 1ull << c))
            return m;
    for (m = 0; m < e->moves; m++)
        if ((c = cell_of(e, me | op, m)) >= 0 && wins(e, op | 1ull << c))
            return m;
    for (int i = 0; i < e->moves; i++)
        if (cell_of(e, me | op, e->order[i]) >= 0)
            return e->order[i];
    return -1;
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
    uint64_t k = canon(w->e, me, op, &sym);
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
        w->items[w->n++] = (item){ k, p, sym };
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
        set |= 1ull << e->mperm[it->sym][best[i]];
    return set;
}

/* Writes a piece of the exported C, with each '@' replaced by the prefix of the names. */
static void tpl(FILE *f, const char *P, const char *text)
{
    for (; *text; text++)
        if (*text == '@')
            fputs(P, f);
        else
            fputc(*text, f);
}

static const char *mask_type(const geo *e)
{
    return e->cells <= 16 ? "uint16_t" : "uint32_t";
}

static const char *key_type(const geo *e)
{
    return 2 * e->cells <= 32 ? "uint32_t" : "uint64_t";
}

static void emit_array_u64(FILE *f, const char *type, const char *name, const uint64_t *v, size_t n,
                           int per_line)
{
    fprintf(f, "static const %s %s[%zu] = {", type, name, n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%llu%s", i ? "," : "", i % (size_t)per_line ? "" : "\n    ",
                (unsigned long long)v[i], strcmp(type, "uint64_t") ? "" : "u");
    fprintf(f, "\n};\n");
}

/* A table of small numbers, a row for each symmetry (where each cell or move goes). */
static void emit_maps(FILE *f, const char *P, const char *what, const uint8_t (*v)[64], int rows, int cols)
{
    fprintf(f, "static const uint8_t %s_%s[%d][%d] = {", P, what, rows, cols);
    for (int s = 0; s < rows; s++) {
        fprintf(f, "%s\n    {", s ? "," : "");
        for (int c = 0; c < cols; c++)
            fprintf(f, "%s%d", c ? "," : "", v[s][c]);
        fprintf(f, "}");
    }
    fprintf(f, "\n};\n");
}

/* A mask's image under symmetry s (@_perm), and whether a mask holds a line (@_lines). */
static void emit_img_wins(FILE *f, const char *P)
{
    tpl(f, P,
        "\nstatic @_mask @_img(@_mask m, int s)\n{\n"
            "    @_mask r = 0;\n"
            "    for (int c = 0; c < @_CELLS; c++)\n"
            "        if (m >> c & 1)\n"
            "            r |= (@_mask)((@_mask)1 << @_perm[s][c]);\n"
            "    return r;\n}\n\n");
    tpl(f, P,
        "static int @_wins(@_mask m)\n{\n"
            "    for (unsigned l = 0; l < sizeof @_lines / sizeof @_lines[0]; l++)\n"
            "        if ((m & @_lines[l]) == @_lines[l])\n"
            "            return 1;\n"
            "    return 0;\n}\n\n");
}

/* What the C forms share: geometry, canonical keys, the rule, legal moves. */
static void emit_common(FILE *f, const geo *e, const char *P, int small)
{
    const char *M = mask_type(e), *K = key_type(e);
    fprintf(f, "#include <stdint.h>\n\n");
    fprintf(f, "#define %s_CELLS %d\n#define %s_MOVES %d\n#define %s_WIDTH %d\n#define %s_HEIGHT %d\n", P,
            e->cells, P, e->moves, P, e->w, P, e->h);
    fprintf(f, "#define %s_GRAVITY %d\n\ntypedef %s %s_mask;\ntypedef %s %s_key;\n\n", P, e->gravity, M, P, K, P);
    char name[96];
    snprintf(name, sizeof name, "%s_lines", P);
    emit_array_u64(f, M, name, e->lines, (size_t)e->nlines, 8);
    emit_maps(f, P, "perm", e->perm, e->nsym, e->cells);
    if (small && e->gravity) {
        fprintf(f, "static const uint8_t %s_mirror[%d] = {", P, e->nsym);
        for (int s = 0; s < e->nsym; s++)
            fprintf(f, "%s%d", s ? "," : "", e->mperm[s][0] != 0);
        fprintf(f, "};\n");
    }
    if (small) {
        fprintf(f, "static const uint8_t %s_order[%d] = {", P, e->moves);
        for (int m = 0; m < e->moves; m++)
            fprintf(f, "%s%d", m ? "," : "", e->order[m]);
        fprintf(f, "};\n");
    }
    emit_img_wins(f, P);
    if (e->gravity)
        tpl(f, P,
        "/* The cell a move (a column) fills, or -1 when the column is full. */\n"
                "static int @_cell(@_mask occ, int m)\n{\n"
                "    for (int c = (@_HEIGHT - 1) * @_WIDTH + m; c >= 0; c -= @_WIDTH)\n"
                "        if (!(occ >> c & 1))\n"
                "            return c;\n"
                "    return -1;\n}\n\n");
    else
        tpl(f, P,
        "/* The cell a move fills, or -1 when it is taken. */\n"
                "static int @_cell(@_mask occ, int m)\n{\n"
                "    return occ >> m & 1 ? -1 : m;\n}\n\n");
    tpl(f, P,
        "/* The stones of the side to move and of the other side; 0 when the game is over. */\n"
            "static int @_sides(@_mask x, @_mask o, @_mask *me, @_mask *op)\n{\n"
            "    int n = 0;\n"
            "    for (int c = 0; c < @_CELLS; c++)\n"
            "        n += (int)((x | o) >> c & 1);\n"
            "    *me = n & 1 ? o : x;\n"
            "    *op = n & 1 ? x : o;\n"
            "    return !@_wins(*op) && n < @_CELLS;\n}\n\n");
    tpl(f, P,
        "/* The canonical key of (me, op): the smallest image; *sym receives its symmetry. */\n"
            "static @_key @_canon(@_mask me, @_mask op, int *sym)\n{\n"
            "    @_key best = (@_key)-1;\n"
            "    for (int s = 0; s < (int)(sizeof @_perm / sizeof @_perm[0]); s++) {\n"
            "        @_key k = (@_key)@_img(me, s) | (@_key)@_img(op, s) << @_CELLS;\n"
            "        if (k < best) {\n            best = k;\n            *sym = s;\n        }\n    }\n"
            "    return best;\n}\n\n");
    if (small && e->gravity)
        tpl(f, P,
        "/* A move of the real board from a move of its canonical image. */\n"
                "static int @_unmap(int m, int s)\n{\n"
                "    return @_mirror[s] ? @_WIDTH - 1 - m : m;\n}\n\n");
    else if (small)
        tpl(f, P,
        "/* A move of the real board from a move of its canonical image. */\n"
                "static int @_unmap(int m, int s)\n{\n"
                "    int c = 0;\n"
                "    while (@_perm[s][c] != m)\n"
                "        c++;\n"
                "    return c;\n}\n\n");
}

static void emit_small(FILE *f, const geo *e, const char *P, const uint64_t *exc, size_t nexc)
{
    emit_common(f, e, P, 1);
    char name[96];
    snprintf(name, sizeof name, "%s_except", P);
    /* An exception: the canonical key, shifted, and the canonical move in the low 6 bits; with none,
     * one that matches no key. */
    uint64_t none = 2 * e->cells + 6 <= 32 ? UINT32_MAX : UINT64_MAX;
    fprintf(f, "/* Canonical boards where the rule below misses: key << 6 | move. */\n");
    emit_array_u64(f, 2 * e->cells + 6 <= 32 ? "uint32_t" : "uint64_t", name, nexc ? exc : &none,
                   nexc ? nexc : 1, 6);
    tpl(f, P,
        "\n/* A best move for the side to move (a cell, or a column with gravity), -1 when the\n"
            " * game is over. On the canonical board: a stored exception, else a win, else a block,\n"
            " * else the first free move of the order. */\n"
            "int @_best(@_mask x, @_mask o)\n{\n"
            "    @_mask me, op;\n"
            "    int s = 0, m, c;\n"
            "    if (!@_sides(x, o, &me, &op))\n        return -1;\n"
            "    @_key k = @_canon(me, op, &s);\n"
            "    me = @_img(me, s);\n    op = @_img(op, s);\n"
            "    for (m = 0; m < (int)(sizeof @_except / sizeof @_except[0]); m++)\n"
            "        if (@_except[m] >> 6 == k)\n"
            "            return @_unmap((int)(@_except[m] & 63), s);\n"
            "    for (m = 0; m < @_MOVES; m++)\n"
            "        if ((c = @_cell(me | op, m)) >= 0 && @_wins((@_mask)(me | (@_mask)1 << c)))\n"
            "            return @_unmap(m, s);\n"
            "    for (m = 0; m < @_MOVES; m++)\n"
            "        if ((c = @_cell(me | op, m)) >= 0 && @_wins((@_mask)(op | (@_mask)1 << c)))\n"
            "            return @_unmap(m, s);\n"
            "    for (m = 0;; m++)\n"
            "        if (@_cell(me | op, @_order[m]) >= 0)\n"
            "            return @_unmap(@_order[m], s);\n}\n");
}

/* What the levels need: oxo's random stream (rng.h's splitmix64 and its draw below n) and the
 * level's coin as integers: oxo-play plays at random when (r >> 11) * 2^-53 < (10 - L) / 9; the
 * same test on the 53-bit integer is (r >> 11) < ceil((10 - L) / 9 * 2^53). */
static void emit_stream(FILE *f, const char *P)
{
    char name[96];
    uint64_t thr[11];
    for (int l = 0; l <= 10; l++)
        thr[l] = l ? (uint64_t)ceil((10 - l) / 9.0 * 0x1.0p53) : 0;
    snprintf(name, sizeof name, "%s_coin", P);
    emit_array_u64(f, "uint64_t", name, thr, 11, 4);
    /* The products from 16-bit halves: a Cortex-M0 has no long multiply, and a 64-bit product
     * made gcc call libgcc's __aeabi_lmul, which -nostdlib does not give (the same values). */
    tpl(f, P,
        "\n/* 32 x 32 -> 64 bits from 16-bit halves, and the low 64 bits of 64 x 64: no long multiply\n"
            " * (a Cortex-M0 has none, and libgcc's __aeabi_lmul is not there under -nostdlib). */\n"
            "static uint64_t @_mul32(uint32_t a, uint32_t b)\n{\n"
            "    uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;\n"
            "    uint64_t mid = (uint64_t)(al * bh) + (ah * bl);\n"
            "    return ((uint64_t)(ah * bh) << 32) + (mid << 16) + al * bl;\n}\n\n"
            "static uint64_t @_mul64(uint64_t a, uint64_t b)\n{\n"
            "    uint32_t al = (uint32_t)a, ah = (uint32_t)(a >> 32), bl = (uint32_t)b, bh = (uint32_t)(b >> 32);\n"
            "    return @_mul32(al, bl) + ((uint64_t)(al * bh + ah * bl) << 32);\n}\n\n"
            "static uint64_t @_next(uint64_t *s)\n{\n"
            "    uint64_t z = *s += 0x9e3779b97f4a7c15u;\n"
            "    z = @_mul64(z ^ (z >> 30), 0xbf58476d1ce4e5b9u);\n"
            "    z = @_mul64(z ^ (z >> 27), 0x94d049bb133111ebu);\n"
            "    return z ^ (z >> 31);\n}\n\n"
            "static int @_below(uint64_t *s, unsigned n)\n{\n"
            "    return (int)(@_mul32((uint32_t)(@_next(s) >> 32), n) >> 32);\n}\n\n");
}

/* A move at a level (oxo_player_pick's rule) from a form's @_moves and @_best_moves: decl declares
 * the move values v (and what else call fills), call asks for them. */
static void emit_pick(FILE *f, const char *P, const char *decl, const char *call)
{
    tpl(f, P,
        "/* A move at level 1..10 with the random stream *rng: with probability (10 - level) / 9 a\n"
            " * random legal move, else a best move, ties at random (the move oxo-play and liboxo pick\n"
            " * for the same stream). -1 when the game is over or the board cannot arise. */\n"
            "int @_pick(@_mask x, @_mask o, int level, uint64_t *rng)\n{\n");
    tpl(f, P, decl);
    tpl(f, P, "    int legal[@_MOVES], best[@_MOVES];\n    int n = ");
    tpl(f, P, call);
    tpl(f, P,
        ", k = 0;\n"
            "    if (n <= 0 || level < 1 || level > 10)\n        return -1;\n"
            "    for (int m = 0; m < @_MOVES; m++)\n        if (v[m] > -2)\n            legal[k++] = m;\n"
            "    if (@_next(rng) >> 11 < @_coin[level])\n"
            "        return legal[@_below(rng, (unsigned)n)];\n"
            "    k = @_best_moves(x, o, best);\n"
            "    return best[@_below(rng, (unsigned)k)];\n}\n");
}

static void emit_full(FILE *f, const geo *e, const char *P, const uint64_t *keys, const uint8_t *ent,
                      size_t n)
{
    emit_common(f, e, P, 0);
    char name[96];
    fprintf(f, "/* Every canonical position not yet finished, sorted, and its entry:\n"
               " * (value + 1) << 6 | distance, for the side to move. */\n");
    snprintf(name, sizeof name, "%s_keys", P);
    emit_array_u64(f, key_type(e), name, keys, n, 8);
    fprintf(f, "static const uint8_t %s_entries[%zu] = {", P, n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%u", i ? "," : "", i % 16 ? "" : "\n    ", ent[i]);
    fprintf(f, "\n};\n");
    tpl(f, P,
        "\n/* The entry of a position not yet finished: -1 when it is not in the table. */\n"
            "static int @_entry(@_mask me, @_mask op)\n{\n"
            "    int s;\n"
            "    @_key k = @_canon(me, op, &s);\n"
            "    unsigned lo = 0, hi = sizeof @_keys / sizeof @_keys[0];\n"
            "    while (lo < hi) {\n"
            "        unsigned mid = (lo + hi) / 2;\n"
            "        if (@_keys[mid] < k)\n            lo = mid + 1;\n"
            "        else\n            hi = mid;\n    }\n"
            "    return lo < sizeof @_keys / sizeof @_keys[0] && @_keys[lo] == k ? @_entries[lo] : -1;\n}\n\n");
    tpl(f, P,
        "/* The value (1 win, 0 draw, -1 loss for the side to move) and the distance (plies to the\n"
            " * end under best play) of a position. Returns 0, 1 when the game is over (*value is then\n"
            " * -1 or 0 and *distance 0), -1 when the board cannot arise. */\n"
            "int @_value(@_mask x, @_mask o, int *value, int *distance)\n{\n"
            "    @_mask me, op;\n"
            "    if (!@_sides(x, o, &me, &op)) {\n"
            "        *value = @_wins(op) ? -1 : 0;\n        *distance = 0;\n        return 1;\n    }\n"
            "    int e = @_entry(me, op);\n"
            "    if (e < 0)\n        return -1;\n"
            "    *value = (e >> 6) - 1;\n    *distance = e & 63;\n    return 0;\n}\n\n");
    tpl(f, P,
        "/* Each move's value for the side that plays it: value[m] is 1, 0 or -1 and distance[m] the\n"
            " * plies to the end counting the move, or value[m] = -2 for a move that is not legal.\n"
            " * Returns the number of legal moves (0 when the game is over), -1 when the board cannot\n"
            " * arise. */\n"
            "int @_moves(@_mask x, @_mask o, int8_t value[@_MOVES], uint8_t distance[@_MOVES])\n{\n"
            "    @_mask me, op;\n"
            "    int n = 0, c, e;\n"
            "    for (int m = 0; m < @_MOVES; m++)\n        value[m] = -2, distance[m] = 0;\n"
            "    if (!@_sides(x, o, &me, &op))\n        return 0;\n"
            "    if (@_entry(me, op) < 0)\n        return -1;\n"
            "    for (int m = 0; m < @_MOVES; m++) {\n"
            "        if ((c = @_cell(me | op, m)) < 0)\n            continue;\n"
            "        @_mask after = (@_mask)(me | (@_mask)1 << c);\n"
            "        n++;\n"
            "        distance[m] = 1;\n"
            "        if (@_wins(after))\n            value[m] = 1;\n"
            "        else if ((after | op) == (@_mask)(((@_mask)1 << (@_CELLS - 1) << 1) - 1))\n"
            "            value[m] = 0;\n"
            "        else if ((e = @_entry(op, after)) >= 0) {\n"
            "            value[m] = (int8_t)(1 - (e >> 6));\n"
            "            distance[m] = (uint8_t)((e & 63) + 1);\n"
            "        }\n        else\n            return -1;\n    }\n"
            "    return n;\n}\n\n");
    tpl(f, P,
        "/* How oxo ranks a move: the fastest win, then the slowest loss; draws are equal. */\n"
            "static int @_score(int value, int distance)\n{\n"
            "    return value > 0 ? 100 - distance : value < 0 ? -100 + distance : 0;\n}\n\n");
    emit_stream(f, P);
    tpl(f, P,
        "/* The best moves (ascending) into best[]; returns how many (0 when over, -1 unknown). */\n"
            "int @_best_moves(@_mask x, @_mask o, int best[@_MOVES])\n{\n"
            "    int8_t v[@_MOVES];\n    uint8_t d[@_MOVES];\n"
            "    int n = @_moves(x, o, v, d), k = 0, top = -1000;\n"
            "    for (int m = 0; n > 0 && m < @_MOVES; m++)\n"
            "        if (v[m] > -2) {\n"
            "            int sc = @_score(v[m], d[m]);\n"
            "            if (sc > top)\n                top = sc, k = 0;\n"
            "            if (sc == top)\n                best[k++] = m;\n        }\n"
            "    return n < 0 ? -1 : k;\n}\n\n");
    emit_pick(f, P, "    int8_t v[@_MOVES];\n    uint8_t d[@_MOVES];\n", "@_moves(x, o, v, d)");
}

/* --form c of an n-tuple network: the network itself (the cells each tuple reads on each image of
 * the board, what each cell's state adds to the tuple's index, the weights as their bits), and
 * the value of every move summed, rounded and tied as liboxo's player does (ntuple.c's sum_at: four
 * partial sums in slot order; its tanh from the same series, in double; twin moves given the
 * greatest of their values, player.c's tie_twins), so that the best moves and the move picked at a
 * level are liboxo's, bit for bit. Boards of up to 64 cells (7x6 Connect-4 included), so the masks
 * are 64-bit here. Returns the weights written. */
static uint32_t emit_net(FILE *f, const geo *e, const oxo_ntuple *n, const char *P)
{
    const int A = n->count * n->nsym;
    fprintf(f, "#include <stdint.h>\n\n");
    /* Fused multiply-adds would round the sums and the series otherwise than liboxo (built with
     * -ffp-contract=off): clang contracts by default, GCC not in ISO C mode (-std=c11). */
    fprintf(f, "/* Build without -ffast-math or -ffp-contract=fast: the values are liboxo's only when every\n"
               " * addition and product is rounded as written. */\n"
               "#ifdef __clang__\n#pragma STDC FP_CONTRACT OFF\n#endif\n\n");
    fprintf(f, "#define %s_CELLS %d\n#define %s_MOVES %d\n#define %s_WIDTH %d\n#define %s_HEIGHT %d\n", P, e->cells,
            P, e->moves, P, e->w, P, e->h);
    fprintf(f, "#define %s_GRAVITY %d\n#define %s_TUPLES %d\n#define %s_LEN %d\n#define %s_IMAGES %d\n", P,
            e->gravity, P, n->count, P, n->len, P, n->nsym);
    fprintf(f, "#define %s_SETS %d\n#define %s_PER_SET %uu\n\ntypedef uint64_t %s_mask;\n\n", P, n->sets, P,
            n->per_set, P);
    char name[96];
    snprintf(name, sizeof name, "%s_lines", P);
    emit_array_u64(f, "uint64_t", name, e->lines, (size_t)e->nlines, 4);
    fprintf(f, "/* The board's symmetries: where each cell goes, and each move. */\n");
    emit_maps(f, P, "perm", e->perm, e->nsym, e->cells);
    emit_maps(f, P, "mperm", e->mperm, e->nsym, e->moves);
    fprintf(f, "/* The cells each tuple reads on each image: slot (image * TUPLES + tuple), LEN cells a slot. */\n");
    fprintf(f, "static const uint8_t %s_cells[%d] = {", P, A * n->len);
    for (int i = 0; i < A * n->len; i++)
        fprintf(f, "%s%s%d", i ? "," : "", i % 16 ? "" : "\n    ", n->images[i]);
    fprintf(f, "\n};\n/* What cell i of tuple t adds to its index in state s (0 empty, 1 the mover's stone, 2 the\n"
               " * other's, 3 empty and playable), at (t * LEN + i) * 4 + s; each tuple's first weight. */\n");
    fprintf(f, "static const uint32_t %s_dig[%d] = {", P, n->count * n->len * 4);
    for (int i = 0; i < n->count * n->len * 4; i++)
        fprintf(f, "%s%s%uu", i ? "," : "", i % 8 ? "" : "\n    ", n->dig[i]);
    fprintf(f, "\n};\nstatic const uint32_t %s_off[%d] = {", P, n->count);
    for (int t = 0; t < n->count; t++)
        fprintf(f, "%s%s%uu", t ? "," : "", t % 8 ? "" : "\n    ", n->off[t]);
    fprintf(f, "\n};\n/* The weights' bits (IEEE single precision); the second player's set after the first's. */\n");
    fprintf(f, "static const uint32_t %s_weights[%u] = {", P, n->nweights);
    for (uint32_t i = 0; i < n->nweights; i++) {
        uint32_t u;
        memcpy(&u, &n->w[i], sizeof u);
        fprintf(f, "%s%s", i ? "," : "", i % 8 ? "" : "\n    ");
        fprintf(f, u ? "0x%08xu" : "0", u);
    }
    fprintf(f, "\n};\n");
    tpl(f, P,
        "\nstatic float @_float(uint32_t u)\n{\n"
            "    union { uint32_t u; float f; } c;\n    c.u = u;\n    return c.f;\n}\n\n"
            "static int @_count(@_mask m)\n{\n"
            "    int n = 0;\n    for (; m; m &= m - 1)\n        n++;\n    return n;\n}\n");
    emit_img_wins(f, P);
    tpl(f, P,
            "#define @_ALL ((((@_mask)1 << (@_CELLS - 1)) << 1) - 1)\n"
            "#define @_BOTTOM (@_ALL & ~(@_ALL >> @_WIDTH))\n\n"
            "/* The cell a move fills (a column with gravity, else a cell), or -1 when it cannot be played. */\n"
            "static int @_cell(@_mask occ, int m)\n{\n"
            "    if (!@_GRAVITY)\n        return occ >> m & 1 ? -1 : m;\n"
            "    for (int c = (@_HEIGHT - 1) * @_WIDTH + m; c >= 0; c -= @_WIDTH)\n"
            "        if (!(occ >> c & 1))\n"
            "            return c;\n"
            "    return -1;\n}\n\n");
    tpl(f, P,
        "/* tanh from the exponential's series, in double, as oxo computes it (the same bits on every\n"
            " * IEEE machine, whatever its libm). */\n"
            "static double @_expm1(double z)\n{\n"
            "    const double z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;\n"
            "    const double a0 = 1.0 + 0.5 * z, a1 = 0.16666666666666666 + 0.041666666666666664 * z,\n"
            "                 a2 = 0.008333333333333333 + 0.001388888888888889 * z,\n"
            "                 a3 = 0.0001984126984126984 + 2.48015873015873e-05 * z,\n"
            "                 a4 = 2.7557319223985893e-06 + 2.755731922398589e-07 * z, a5 = 2.505210838544172e-08;\n"
            "    const double b0 = a0 + a1 * z2, b1 = a2 + a3 * z2, b2 = a4 + a5 * z2;\n"
            "    return z * ((b0 + b1 * z4) + b2 * z8);\n}\n\n"
            "static float @_tanh(float x)\n{\n"
            "    const double y = x < 0 ? -(double)x : (double)x, t = 2 * y, ln2 = 0.6931471805599453;\n"
            "    double em1;\n"
            "    if (y > 9.5)\n        return x < 0 ? -1.0f : 1.0f;\n"
            "    if (t < 0.5 * ln2)\n        em1 = @_expm1(t);\n"
            "    else {\n"
            "        const int n = (int)(t / ln2 + 0.5);\n"
            "        em1 = (1 + @_expm1(t - n * ln2)) * (double)(1u << n) - 1;\n    }\n"
            "    const double r = em1 / (em1 + 2);\n"
            "    return (float)(x < 0 ? -r : r);\n}\n\n");
    tpl(f, P,
        "/* The network's value of a board for the player who owns `mine` (the second player's weights\n"
            " * when `second` is set): tanh of the weights the tuples select on every image, summed. */\n"
            "static float @_value(@_mask mine, @_mask theirs, int second)\n{\n"
            "    const @_mask occ = mine | theirs;\n"
            "    const @_mask play = @_GRAVITY ? ~occ & @_ALL & ((occ >> @_WIDTH) | @_BOTTOM) : 0;\n"
            "    const uint32_t base = second && @_SETS == 2 ? @_PER_SET : 0;\n"
            "    const int slots = @_IMAGES * @_TUPLES, four = slots - slots % 4;\n"
            "    float s[4] = { 0, 0, 0, 0 };\n"
            "    for (int slot = 0; slot < slots; slot++) {\n"
            "        const int t = slot % @_TUPLES;\n"
            "        const uint8_t *c = @_cells + slot * @_LEN;\n"
            "        const uint32_t *d = @_dig + t * @_LEN * 4;\n"
            "        uint32_t i = base + @_off[t];\n"
            "        for (int j = 0; j < @_LEN; j++) {\n"
            "            const @_mask b = (@_mask)1 << c[j];\n"
            "            i += d[j * 4 + (mine & b ? 1 : theirs & b ? 2 : play & b ? 3 : 0)];\n        }\n"
            "        s[slot < four ? slot & 3 : 0] += @_float(@_weights[i]);\n    }\n"
            "    return @_tanh((s[0] + s[1]) + (s[2] + s[3]));\n}\n\n");
    tpl(f, P,
        "/* Each move's value for the side that plays it: value[m] is 1 for a move that wins, 0 for one\n"
            " * that fills the board, else the network's value of the board after it, in (-1, 1), or -2\n"
            " * for a move that is not legal. Moves that a symmetry of the board itself maps onto each other\n"
            " * get the greatest of their values (they are worth the same). Returns the number of legal\n"
            " * moves (0 when the game is over), -1 when the board cannot arise (stones on one cell, counts\n"
            " * that do not alternate, cells beyond the board, a stone above an empty cell with gravity). */\n"
            "int @_moves(@_mask x, @_mask o, float value[@_MOVES])\n{\n"
            "    const @_mask occ = x | o;\n"
            "    const int nx = @_count(x), no = @_count(o), second = nx > no;\n"
            "    for (int m = 0; m < @_MOVES; m++)\n        value[m] = -2;\n"
            "    if ((x & o) || (occ & ~@_ALL) || (nx != no && nx != no + 1) ||\n"
            "        (@_GRAVITY && (occ & ~@_BOTTOM & ~(occ >> @_WIDTH))))\n        return -1;\n"
            "    if (@_wins(x) || @_wins(o) || occ == @_ALL)\n        return 0;\n"
            "    const @_mask me = second ? o : x, op = second ? x : o;\n"
            "    int n = 0;\n"
            "    for (int m = 0; m < @_MOVES; m++) {\n"
            "        const int c = @_cell(occ, m);\n"
            "        if (c < 0)\n            continue;\n"
            "        const @_mask after = me | (@_mask)1 << c;\n"
            "        n++;\n"
            "        value[m] = @_wins(after) ? 1.0f : (after | op) == @_ALL ? 0.0f : @_value(after, op, second);\n    }\n"
            "    float v[@_MOVES];\n"
            "    for (int m = 0; m < @_MOVES; m++)\n        v[m] = value[m];\n"
            "    for (int s = 1; s < (int)(sizeof @_mperm / sizeof @_mperm[0]); s++)\n"
            "        if (@_img(x, s) == x && @_img(o, s) == o)\n"
            "            for (int m = 0; m < @_MOVES; m++)\n"
            "                if (v[m] > -2 && v[@_mperm[s][m]] > value[m])\n"
            "                    value[m] = v[@_mperm[s][m]];\n"
            "    return n;\n}\n\n");
    emit_stream(f, P);
    tpl(f, P,
        "/* The best moves (ascending) into best[]; returns how many (0 when over, -1 when the board\n"
            " * cannot arise). */\n"
            "int @_best_moves(@_mask x, @_mask o, int best[@_MOVES])\n{\n"
            "    float v[@_MOVES], top = -3;\n"
            "    int n = @_moves(x, o, v), k = 0;\n"
            "    for (int m = 0; n > 0 && m < @_MOVES; m++)\n"
            "        if (v[m] > -2) {\n"
            "            if (v[m] > top)\n                top = v[m], k = 0;\n"
            "            if (v[m] == top)\n                best[k++] = m;\n        }\n"
            "    return n < 0 ? -1 : k;\n}\n\n"
            "/* The first of the best moves, -1 when there is none: the greedy player. */\n"
            "int @_best(@_mask x, @_mask o)\n{\n"
            "    int best[@_MOVES];\n"
            "    return @_best_moves(x, o, best) > 0 ? best[0] : -1;\n}\n\n");
    emit_pick(f, P, "    float v[@_MOVES];\n", "@_moves(x, o, v)");
    return n->nweights;
}

static int is_tictactoe(const oxo_game *g)
{
    return !g->gravity && g->cols == 3 && g->rows == 3 && g->k == 3;
}

int main(int argc, char **argv)
{
    enum { O_JSON = 256 };
    static const struct option opts[] = {
        { "game", required_argument, 0, 'g' },  { "table", required_argument, 0, 't' },
        { "model", required_argument, 0, 'm' }, { "form", required_argument, 0, 'f' },
        { "name", required_argument, 0, 'n' },  { "output", required_argument, 0, 'o' },
        { "json", no_argument, 0, O_JSON },     { "help", no_argument, 0, 'h' },
        { "version", no_argument, 0, 'V' },     { 0, 0, 0, 0 } };
    const char *spec = NULL, *table = NULL, *model = NULL, *form = NULL, *name = "oxp", *out = NULL;
    int json = 0, c;
    oxo_cli_init();
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:t:m:f:n:o:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'g': spec = optarg; break;
        case 't': table = optarg; break;
        case 'm': model = optarg; break;
        case 'f': form = optarg; break;
        case 'n': name = optarg; break;
        case 'o': out = optarg; break;
        case O_JSON: json = 1; break;
        case 'h': usage(stdout); return oxo_cli_finish(prog, OXO_EXIT_OK);
        case 'V': printf("oxo-export %s\n", OXO_VERSION); return oxo_cli_finish(prog, OXO_EXIT_OK);
        default: return oxo_cli_bad_option(prog, c, argv, opts);
        }
    }
    if (oxo_cli_no_operands(prog, argc, argv))
        return OXO_EXIT_USAGE;
    if (table && model) {
        fprintf(stderr, "%s: --table and --model exclude each other\n", prog);
        return OXO_EXIT_USAGE;
    }
    if (!out) {
        fprintf(stderr, "%s: say where to write with -o FILE (- for stdout)\nTry '%s --help'.\n", prog, prog);
        return OXO_EXIT_USAGE;
    }
    if (!form)
        form = model ? "c-small" : "c";
    int f_c = !strcmp(form, "c"), f_small = !strcmp(form, "c-small"), f_py = !strcmp(form, "python"),
        f_q = !strcmp(form, "qtable");
    if (!f_c && !f_small && !f_py && !f_q) {
        fprintf(stderr, "%s: --form: '%s', expected c, c-small, python or qtable\n", prog, form);
        return OXO_EXIT_USAGE;
    }
    if (model && (f_py || (f_c && oxo_spec_is_joined(model)))) {
        fprintf(stderr, "%s: --form %s needs a solved table (exact values)%s; a model exports as c-small "
                "or qtable\n", prog, form, f_c ? " or one n-tuple network" : "");
        return OXO_EXIT_USAGE;
    }
    size_t nlen = strlen(name);
    int okname = nlen > 0 && nlen <= 32 && !(name[0] >= '0' && name[0] <= '9');
    for (size_t i = 0; i < nlen; i++)
        okname &= (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
                  (name[i] >= '0' && name[i] <= '9') || name[i] == '_';
    if (!okname) {
        fprintf(stderr, "%s: --name: '%s' is not a C identifier of at most 32 characters\n", prog, name);
        return OXO_EXIT_USAGE;
    }
    char msg[300], found[4096];
    oxo_game *want = oxo_game_open(spec ? spec : "tictactoe", msg, sizeof msg);
    if (!want) {
        fprintf(stderr, "%s: --game: %s\n", prog, msg);
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
    oxo_error err;
    /* Networks joined by '+' play as one (oxo-play --model, oxo_open): the export is their mean's. */
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
        oxo_game_free(want);
        return OXO_EXIT_FAIL;
    }
    int rc = OXO_EXIT_FAIL;
    if (spec && !oxo_game_same(want, pl->game)) {
        fprintf(stderr, "%s: %s is a file of %s, not of %s\n", prog, path, pl->game->name, want->name);
        goto done;
    }
    if (!model && pl->source != OXO_SRC_TABLE) {
        fprintf(stderr, "%s: %s is a model: use --model\n", prog, path);
        goto done;
    }
    if (model && pl->source == OXO_SRC_TABLE) {
        fprintf(stderr, "%s: %s is a table: use --table\n", prog, path);
        goto done;
    }
    const oxo_game *g = pl->game;
    /* A network is exported as itself (emit_net); other models and joined networks by their moves. */
    const int f_net = f_c && model;
    if (f_net && !pl->net) {
        fprintf(stderr, "%s: --form c needs a solved table (exact values) or one n-tuple network; %s is "
                "another model: export it as c-small or qtable\n", prog, path);
        rc = OXO_EXIT_USAGE;
        goto done;
    }
    if ((f_py || f_q) && !is_tictactoe(g)) {
        fprintf(stderr, "%s: --form %s is tic-tac-toe's (3x3 cells); %s is not\n", prog, form, g->name);
        goto done;
    }
    static geo e;
    if ((f_small && g->cells > 29 &&
         snprintf(msg, sizeof msg, "--form c-small holds boards of at most 29 cells; %s has %d%s", g->name, g->cells,
                  pl->net && !pl->nmembers ? " (--form c exports the network itself)" : "")) ||
        geo_init(&e, g, f_net ? 64 : 32, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", prog, msg);
        goto done;
    }
    walk w = { &e, { 0 }, { 0 }, NULL, 0, 0 };
    /* A network is written as itself: no position is walked (7x6 has trillions). */
    if (!f_net) {
        if (walk_from(&w, oxo_start(g))) {
            fprintf(stderr, "%s: out of memory walking the positions of %s\n", prog, g->name);
            goto walked;
        }
        qsort(w.items, w.n, sizeof *w.items, by_key);
    }

    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    if (!f) {
        fprintf(stderr, "%s: out of memory\n", prog);
        goto walked;
    }
    size_t count = 0;
    if (f_c || f_small) {
        char from[128];
        source_name(path, from, sizeof from);
        fprintf(f, "/*\n * A player of %s exported by oxo-export %s from %s (%s), freestanding:\n"
                   " * no heap, no I/O, nothing but <stdint.h>; builds with -ffreestanding -nostdlib.\n"
                   " *\n * Boards are two masks of cells, row by row from the top left: bit i of x holds X's\n"
                   " * stones, bit i of o O's (X moves first; the side to move follows from the counts).\n"
                   " * Moves are %s.\n */\n",
                g->name, OXO_VERSION, from,
                f_small ? "best moves only" : f_net ? "the n-tuple network: move values, levels" : "values, levels, hints",
                g->gravity ? "columns from 0 (left)" : "cells");
    }
    if (f_small) {
        uint64_t *exc = malloc((w.n + 1) * sizeof *exc);
        if (!exc) {
            fclose(f);
            free(buf);
            goto walked;
        }
        for (size_t i = 0; i < w.n; i++) {
            uint64_t me = w.items[i].key & ((1ull << e.cells) - 1), op = w.items[i].key >> e.cells;
            uint64_t best = best_canonical(pl, &e, &w.items[i]);
            int m = small_rule(&e, me, op);
            if (m < 0 || !(best >> m & 1))
                exc[count++] = w.items[i].key << 6 | (uint64_t)__builtin_ctzll(best);
        }
        emit_small(f, &e, name, exc, count);
        free(exc);
    }
    else if (f_net)
        count = emit_net(f, &e, pl->net, name);
    else if (f_c) {
        uint64_t *keys = malloc((w.n + 1) * sizeof *keys);
        uint8_t *ent = malloc(w.n + 1);
        if (!keys || !ent) {
            free(keys);
            free(ent);
            fclose(f);
            free(buf);
            goto walked;
        }
        for (size_t i = 0; i < w.n; i++) {
            int v, d;
            oxo_player_value(pl, w.items[i].pos, &v, &d);
            keys[i] = w.items[i].key;
            ent[i] = (uint8_t)((v + 1) << 6 | d);
        }
        count = w.n;
        emit_full(f, &e, name, keys, ent, w.n);
        free(keys);
        free(ent);
    }
    else {
        /* The JSON forms walk every reachable board (all of tic-tac-toe's 5,478). */
        keyset64 seen = { 0 };
        oxo_pos stack[6000];
        int sp = 0, first = 1;
        stack[sp++] = oxo_start(g);
        if (f_q)
            fprintf(f, "{\"q\": [");
        else
            fprintf(f, "{");
        while (sp) {
            oxo_pos p = stack[--sp];
            uint64_t x, o;
            oxo_cells(g, p, &x, &o);
            if (ks_add(&seen, x | o << 9) != 1)
                continue;
            char cells[10];
            for (int i = 0; i < 9; i++)
                cells[i] = x >> i & 1 ? 'X' : o >> i & 1 ? 'O' : f_q ? '-' : '_';
            cells[9] = 0;
            int over = oxo_status_of(g, p) != OXO_ONGOING, xm = oxo_x_to_move(g, p);
            if (f_py) {
                int v, d;
                if (over)
                    v = oxo_status_of(g, p) == OXO_OVER_DRAW ? 0 : -1;
                else
                    oxo_player_value(pl, p, &v, &d);
                fprintf(f, "%s\n\"%s%d\": %d", first ? "" : ",", cells, xm, xm ? v : -v);
                first = 0;
                count++;
            }
            else if (!over) {
                oxo_move_info mi[OXO_MAX_MOVES];
                double q[9];
                int n = oxo_player_moves(pl, p, mi);
                double low = 0;
                for (int i = 0; i < n; i++)
                    low = mi[i].score < low ? mi[i].score : low;
                /* Taken cells get less than any free one: the app only looks at free cells, but a
                 * reader that forgets to would still not pick a taken cell. */
                for (int i = 0; i < 9; i++)
                    q[i] = pl->source == OXO_SRC_TABLE ? -2.0 : low - 1.0;
                for (int i = 0; i < n; i++)
                    q[mi[i].move] = pl->source == OXO_SRC_TABLE ? mi[i].score / 100.0 : mi[i].score;
                fprintf(f, "%s\n  [\"%s\", [", first ? "" : ",", cells);
                for (int i = 0; i < 9; i++)
                    fprintf(f, "%s%.9g", i ? ", " : "", q[i]);
                fprintf(f, "]]");
                first = 0;
                count++;
            }
            if (!over) {
                uint64_t legal = oxo_legal(g, p);
                while (legal) {
                    int m = __builtin_ctzll(legal);
                    legal &= legal - 1;
                    stack[sp++] = oxo_play(g, p, m);
                }
            }
        }
        free(seen.k);
        if (f_q)
            fprintf(f, "\n], \"lr\": 0.1, \"gamma\": 0.9, \"epsilon\": 0.1, \"difficulty\": \"%s\"}\n",
                    pl->source == OXO_SRC_TABLE ? "perfect" : "intermediate");
        else
            fprintf(f, "\n}\n");
    }
    if (fclose(f)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        free(buf);
        goto walked;
    }
    if (!strcmp(out, "-")) {
        if (fwrite(buf, 1, blen, stdout) != blen || fflush(stdout)) {
            fprintf(stderr, "%s: writing to stdout failed\n", prog);
            free(buf);
            goto walked;
        }
    }
    else if (oxo_atomic_write(out, buf, blen, &err)) {
        fprintf(stderr, "%s: %s: %s\n", prog, out, err.msg);
        free(buf);
        goto walked;
    }
    free(buf);
    if (json) {
        printf("{\"form\":\"%s\",\"game\":", form);
        oxo_json_str(stdout, g->spec);
        printf(",\"output\":");
        oxo_json_str(stdout, out);
        printf(",\"%s\":%zu,\"canonical_positions\":%zu,\"bytes\":%zu}\n",
               f_small ? "exceptions" : f_net ? "weights" : f_c ? "entries" : "records", count, w.n, blen);
    }
    else if (strcmp(out, "-"))
        fprintf(stderr, "%s: wrote %s (%s of %s: %zu %s, %zu bytes)\n", prog, out, form, g->name, count,
                f_small ? "exceptions" : f_net ? "weights" : f_c ? "positions" : "records", blen);
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
