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

/* The freestanding sources: compiled here for this program's own questions, and written out, as
 * text (freestanding_text.h, made from the same files by embed.cmake), into the players. */
#include "freestanding/host.h"
#include "freestanding/board.c"
#include "freestanding/small.c"
#include "freestanding/table.c"
#include "freestanding_text.h"

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

/* The export's view of a game: cells row by row, lines, symmetries as permutations, and the
 * board of the freestanding sources (lookup/freestanding) over them, through which this program
 * asks what the player it writes will ask. */
typedef struct geo {
    const oxo_game *g;
    int w, h, cells, moves, gravity;
    int nlines;
    uint64_t lines[OXO_MAX_LINES];
    int nsym;
    uint8_t perm[8 * 64];  /* perm[s * cells + cell]: where cell goes under symmetry s */
    uint8_t mperm[8 * 64]; /* mperm[s * moves + move]: the same for move numbers */
    uint8_t order[64];     /* c-small: the default move order, best first */
    oxp_board b;
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
        uint8_t perm[64];
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
                perm[r * e->w + c] = (uint8_t)(rr * e->w + cc);
            }
        if (!ok)
            continue;
        memcpy(e->perm + e->nsym * e->cells, perm, (size_t)e->cells);
        for (int m = 0; m < e->moves; m++)
            e->mperm[e->nsym * e->moves + m] = e->gravity ? (uint8_t)((s & 1) ? e->w - 1 - m : m) : perm[m];
        e->nsym++;
    }
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
            }
            else
                for (int l = 0; l < e->nlines; l++) {
                    wa += (int)(e->lines[l] >> a & 1);
                    wb += (int)(e->lines[l] >> b & 1);
                }
            if (wa <= wb)
                break;
            e->order[j] = (uint8_t)b;
            e->order[j - 1] = (uint8_t)a;
        }
    e->b = (oxp_board){ e->cells, e->moves, e->w, e->h, e->gravity, e->nsym, e->nlines, e->perm, e->mperm, e->lines };
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
        set |= 1ull << e->mperm[it->sym * e->moves + best[i]];
    return set;
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

static void emit_array_u32(FILE *f, const char *P, const char *what, const char *type, const uint32_t *v, size_t n,
                           int per_line)
{
    fprintf(f, "static const %s %s_%s[%zu] = {", type, P, what, n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%uu", i ? "," : "", i % (size_t)per_line ? "" : "\n    ", v[i]);
    fprintf(f, "\n};\n");
}

/* A table of small numbers, a row of `cols` for each of `rows` (where each cell or move goes
 * under each symmetry). */
static void emit_bytes(FILE *f, const char *P, const char *what, const uint8_t *v, int rows, int cols)
{
    fprintf(f, "static const uint8_t %s_%s[%d] = {", P, what, rows * cols);
    for (int r = 0; r < rows; r++) {
        fprintf(f, "%s\n    ", r ? "," : "");
        for (int c = 0; c < cols; c++)
            fprintf(f, "%s%d", c ? "," : "", v[r * cols + c]);
    }
    fprintf(f, "\n};\n");
}

/* Writes one of the freestanding sources (lookup/freestanding, compiled into oxo-export as text
 * by embed.cmake) as it is, but for its #include lines (the player is one file: what they bring,
 * the types and the arrays, is written above) and with the names' prefix oxp_ made P's. */
static void emit_source(FILE *f, const char *P, const char *text)
{
    fputc('\n', f);
    int skip_blank = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (!strncmp(line, "#include", 8))
            skip_blank = 1;
        else if (!(skip_blank && len == 1))
            for (size_t i = 0; i < len; i++) {
                int start = i == 0 || !(isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_');
                if (start && !strncmp(line + i, "oxp_", 4)) {
                    fprintf(f, "%s_", P);
                    i += 3;
                }
                else
                    fputc(line[i], f);
            }
        if (strncmp(line, "#include", 8))
            skip_blank = 0;
        line += len;
    }
}

/* A player's code, in the order each file needs the ones before it: the board and the player's
 * board, the random stream (forms with levels; NULL for none), the form's own file and its
 * interface. */
static void emit_code(FILE *f, const char *P, const char *stream, const char *form, const char *play)
{
    emit_source(f, P, oxo_fs_board);
    emit_source(f, P, oxo_fs_the_board);
    if (stream)
        emit_source(f, P, stream);
    emit_source(f, P, form);
    emit_source(f, P, play);
}

/* The top every C form shares: the board's size, its types, lines and symmetries. */
static void emit_head(FILE *f, const geo *e, const char *P, const char *mask, const char *key)
{
    fprintf(f, "#include <stdint.h>\n\n");
    fprintf(f, "#define %s_CELLS %d\n#define %s_MOVES %d\n#define %s_WIDTH %d\n#define %s_HEIGHT %d\n", P,
            e->cells, P, e->moves, P, e->w, P, e->h);
    fprintf(f, "#define %s_GRAVITY %d\n\ntypedef %s %s_mask;\ntypedef %s %s_key;\n\n", P, e->gravity, mask, P, key, P);
    fprintf(f, "/* The board's thin wrappers (board.c), inlined always: the board folds into constants. */\n"
               "#if defined(__GNUC__)\n#define %s_WRAP static inline __attribute__((always_inline))\n#else\n"
               "#define %s_WRAP static inline\n#endif\n\n", P, P);
    char name[96];
    snprintf(name, sizeof name, "%s_lines", P);
    emit_array_u64(f, mask, name, e->lines, (size_t)e->nlines, strcmp(mask, "uint64_t") ? 8 : 4);
    fprintf(f, "/* The board's symmetries: where each cell goes, and each move (a row each). */\n"
               "#define %s_NSYM %d\n", P, e->nsym);
    emit_bytes(f, P, "perm", e->perm, e->nsym, e->cells);
    if (e->gravity)
        emit_bytes(f, P, "mperm", e->mperm, e->nsym, e->moves);
    else /* moves are cells */
        fprintf(f, "#define %s_mperm %s_perm\n", P, P);
}

/* What the levels need: oxo-play plays at random when (r >> 11) * 2^-53 < (10 - L) / 9; the same
 * test on the 53-bit integer is (r >> 11) < ceil((10 - L) / 9 * 2^53) (stream.c). */
static void emit_coin(FILE *f, const char *P)
{
    char name[96];
    uint64_t thr[11];
    for (int l = 0; l <= 10; l++)
        thr[l] = l ? (uint64_t)ceil((10 - l) / 9.0 * 0x1.0p53) : 0;
    snprintf(name, sizeof name, "%s_coin", P);
    emit_array_u64(f, "uint64_t", name, thr, 11, 4);
}

static void emit_small(FILE *f, const geo *e, const char *P, const uint64_t *exc, size_t nexc)
{
    const char *ex = 2 * e->cells + 6 <= 32 ? "uint32_t" : "uint64_t";
    emit_head(f, e, P, mask_type(e), key_type(e));
    fprintf(f, "static const uint8_t %s_order[%d] = {", P, e->moves);
    for (int m = 0; m < e->moves; m++)
        fprintf(f, "%s%d", m ? "," : "", e->order[m]);
    fprintf(f, "};\n\ntypedef %s %s_ekey;\n#define %s_EXCEPTIONS %zu\n", ex, P, P, nexc);
    char name[96];
    snprintf(name, sizeof name, "%s_except", P);
    /* With none, one that matches no key: C has no empty arrays. */
    uint64_t none = !strcmp(ex, "uint32_t") ? UINT32_MAX : UINT64_MAX;
    fprintf(f, "/* Canonical boards where the rule misses: key << 6 | move. */\n");
    emit_array_u64(f, ex, name, nexc ? exc : &none, nexc ? nexc : 1, 6);
    emit_code(f, P, NULL, oxo_fs_small, oxo_fs_play_small);
}

static void emit_full(FILE *f, const geo *e, const char *P, const uint64_t *keys, const uint8_t *ent,
                      size_t n)
{
    emit_head(f, e, P, mask_type(e), key_type(e));
    char name[96];
    fprintf(f, "/* Every canonical position not yet finished, sorted, and its entry:\n"
               " * (value + 1) << 6 | distance, for the side to move. */\n");
    snprintf(name, sizeof name, "%s_keys", P);
    emit_array_u64(f, key_type(e), name, keys, n, 8);
    fprintf(f, "static const uint8_t %s_entries[%zu] = {", P, n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%u", i ? "," : "", i % 16 ? "" : "\n    ", ent[i]);
    fprintf(f, "\n};\n");
    emit_coin(f, P);
    emit_code(f, P, oxo_fs_stream, oxo_fs_table, oxo_fs_play_table);
}

/* --form c of an n-tuple network: the network itself (each tuple's first weight, what each cell's
 * state adds to a tuple's index, where each cell is read, the weights as their bits), valued by
 * net.c, the code that values it in liboxo, so that the best moves and the move picked at a level
 * are liboxo's, bit for bit. Boards of up to 64 cells (7x6 Connect-4 included), so the masks are
 * 64-bit here. Returns the weights written. */
static uint32_t emit_net(FILE *f, const geo *e, const oxo_ntuple *n, const char *P)
{
    const int A = n->count * n->nsym;
    emit_head(f, e, P, "uint64_t", "uint64_t");
    fprintf(f, "\n#define %s_TUPLES %d\n#define %s_LEN %d\n#define %s_IMAGES %d\n#define %s_SLOTS (%s_IMAGES * %s_TUPLES)\n",
            P, n->count, P, n->len, P, n->nsym, P, P, P);
    fprintf(f, "#define %s_SETS %d\n#define %s_PER_SET %uu\n", P, n->sets, P, n->per_set);
    fprintf(f, "typedef uint32_t %s_weight; /* a weight's bits */\n#define %s_W(w, i) %s_bits((w)[i])\n\n", P, P, P);
    fprintf(f, "/* Where each tuple's weights start within a set. */\n");
    emit_array_u32(f, P, "off", "uint32_t", n->off, (size_t)n->count, 8);
    fprintf(f, "/* What cell i of tuple t adds to its index in state s (0 empty, 1 the mover's stone, 2 the\n"
               " * other's, 3 empty and playable), at (t * LEN + i) * 4 + s. */\n");
    emit_array_u32(f, P, "dig", "uint32_t", n->dig, (size_t)n->count * n->len * 4, 8);
    fprintf(f, "/* Where each cell is read: cell c's reads are [occ_first[c], occ_first[c + 1]), each a slot\n"
               " * (image * TUPLES + tuple) and a row of dig. */\n");
    emit_array_u32(f, P, "occ_first", "uint32_t", n->occ_first, (size_t)e->cells + 1, 8);
    emit_array_u32(f, P, "occ_dig", "uint32_t", n->occ_dig, (size_t)A * n->len, 8);
    fprintf(f, "static const uint16_t %s_occ_slot[%d] = {", P, A * n->len);
    for (int i = 0; i < A * n->len; i++)
        fprintf(f, "%s%s%u", i ? "," : "", i % 16 ? "" : "\n    ", n->occ_slot[i]);
    fprintf(f, "\n};\n/* The weights' bits (IEEE single precision); the second player's set after the first's. */\n");
    fprintf(f, "static const uint32_t %s_weights[%u] = {", P, n->nweights);
    for (uint32_t i = 0; i < n->nweights; i++) {
        uint32_t u;
        memcpy(&u, &n->w[i], sizeof u);
        fprintf(f, "%s%s", i ? "," : "", i % 8 ? "" : "\n    ");
        fprintf(f, u ? "0x%08xu" : "0", u);
    }
    fprintf(f, "\n};\n");
    emit_coin(f, P);
    emit_code(f, P, oxo_fs_stream, oxo_fs_net, oxo_fs_play_net);
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
        const oxp_small rule = { &e.b, e.order, NULL, 0 }; /* the rule alone: where it misses */
        for (size_t i = 0; i < w.n; i++) {
            uint64_t me = w.items[i].key & ((1ull << e.cells) - 1), op = w.items[i].key >> e.cells;
            uint64_t best = best_canonical(pl, &e, &w.items[i]);
            int m = oxp_small_rule(&rule, me, op);
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
        /* The arrays answer, through the lookup the player will run, every position as the table
         * does (a check of this program, not of the file read: it costs a search a position). */
        const oxp_table t = { &e.b, keys, ent, (unsigned)w.n };
        for (size_t i = 0; i < w.n; i++) {
            const uint64_t me = keys[i] & ((1ull << e.cells) - 1), op = keys[i] >> e.cells;
            if (oxp_table_entry(&t, me, op) != ent[i]) {
                fprintf(stderr, "%s: internal error: the exported lookup misses position %zu\n", prog, i);
                free(keys);
                free(ent);
                fclose(f);
                free(buf);
                goto walked;
            }
        }
        emit_full(f, &e, name, keys, ent, w.n);
        free(keys);
        free(ent);
    }
    else if (oxo_export_json(f, pl, f_q, &count)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        fclose(f);
        free(buf);
        goto walked;
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
