/*
 * oxo-export's C forms written: the arrays a player's code reads (its board, its table, its
 * exceptions, its network), then that code itself, the files of lookup/freestanding as they are
 * (their text made into string constants by embed.cmake at build time), with the user's prefix.
 */
#include "export.h"

#include "azero.h"
#include "freestanding_text.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

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

static void emit_array_u32(FILE *f, const char *P, const char *what, const char *type,
                           const uint32_t *v, size_t n, int per_line)
{
    fprintf(f, "static const %s %s_%s[%zu] = {", type, P, what, n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s%uu", i ? "," : "", i % (size_t)per_line ? "" : "\n    ", v[i]);
    fprintf(f, "\n};\n");
}

/* A table of small numbers, a row of `cols` for each of `rows` (where each cell or move goes
 * under each symmetry). */
static void emit_bytes(FILE *f, const char *P, const char *what, const uint8_t *v, int rows,
                       int cols)
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
                } else
                    fputc(line[i], f);
            }
        if (strncmp(line, "#include", 8))
            skip_blank = 0;
        line += len;
    }
}

/* A player's code, in the order each file needs the ones before it: the board and the player's
 * board, then the form's files (the random stream first where the form has levels), NULL-ended. */
static void emit_code(FILE *f, const char *P, const char *const *files)
{
    emit_source(f, P, oxo_fs_board);
    emit_source(f, P, oxo_fs_the_board);
    for (; *files; files++)
        emit_source(f, P, *files);
}

/* The top every C form shares: the board's size, its types, lines and symmetries. */
static void emit_head(FILE *f, const geo *e, const char *P, const char *mask, const char *key)
{
    fprintf(f, "#include <stdint.h>\n\n");
    fprintf(f,
            "#define %s_CELLS %d\n#define %s_MOVES %d\n#define %s_WIDTH %d\n#define %s_HEIGHT %d\n",
            P, e->cells, P, e->moves, P, e->w, P, e->h);
    fprintf(f, "#define %s_GRAVITY %d\n\ntypedef %s %s_mask;\ntypedef %s %s_key;\n\n", P,
            e->gravity, mask, P, key, P);
    fprintf(f,
            "/* The board's thin wrappers (board.c), inlined always: the board folds into "
            "constants. */\n"
            "#if defined(__GNUC__)\n#define %s_WRAP static inline "
            "__attribute__((always_inline))\n#else\n"
            "#define %s_WRAP static inline\n#endif\n\n",
            P, P);
    char name[96];
    snprintf(name, sizeof name, "%s_lines", P);
    emit_array_u64(f, mask, name, e->lines, (size_t)e->nlines, strcmp(mask, "uint64_t") ? 8 : 4);
    fprintf(f,
            "/* The board's symmetries: where each cell goes, and each move (a row each). */\n"
            "#define %s_NSYM %d\n",
            P, e->nsym);
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

void emit_small(FILE *f, const geo *e, const char *P, const uint64_t *exc, size_t nexc)
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
    emit_code(f, P, (const char *const[]){oxo_fs_small, oxo_fs_play_small, NULL});
}

void emit_full(FILE *f, const geo *e, const char *P, const uint64_t *keys, const uint8_t *ent,
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
    emit_code(f, P, (const char *const[]){oxo_fs_stream, oxo_fs_table, oxo_fs_play_table, NULL});
}

/* The type of an exported network's weights, kept as their bits (IEEE single precision). */
static void emit_weight_type(FILE *f, const char *P)
{
    fprintf(
        f,
        "typedef uint32_t %s_weight; /* a weight's bits */\n#define %s_W(w, i) %s_bits((w)[i])\n\n",
        P, P, P);
}

static void emit_weights(FILE *f, const char *P, const float *w, uint32_t n)
{
    fprintf(f, "static const uint32_t %s_weights[%u] = {", P, n ? n : 1);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &w[i], sizeof u);
        fprintf(f, "%s%s", i ? "," : "", i % 8 ? "" : "\n    ");
        fprintf(f, u ? "0x%08xu" : "0", u);
    }
    fprintf(f, n ? "\n};\n" : "0};\n"); /* C has no empty arrays */
}

/* --form c of an n-tuple network: the network itself (each tuple's first weight, what each cell's
 * state adds to a tuple's index, where each cell is read, the weights as their bits), valued by
 * net.c, the code that values it in liboxo, so that the best moves and the move picked at a level
 * are liboxo's, bit for bit. Boards of up to 64 cells (7x6 Connect-4 included), so the masks are
 * 64-bit here. Returns the weights written. */
static uint32_t emit_ntuple(FILE *f, const geo *e, const oxo_player *pl, const char *P)
{
    const oxo_ntuple *n = oxo_player_net(pl);
    const int A = n->count * n->nsym;
    emit_head(f, e, P, "uint64_t", "uint64_t");
    fprintf(f,
            "\n#define %s_TUPLES %d\n#define %s_LEN %d\n#define %s_IMAGES %d\n#define %s_SLOTS "
            "(%s_IMAGES * %s_TUPLES)\n",
            P, n->count, P, n->len, P, n->nsym, P, P, P);
    fprintf(f, "#define %s_SETS %d\n#define %s_PER_SET %uu\n", P, n->sets, P, n->per_set);
    emit_weight_type(f, P);
    fprintf(f, "/* Where each tuple's weights start within a set. */\n");
    emit_array_u32(f, P, "off", "uint32_t", n->off, (size_t)n->count, 8);
    fprintf(f, "/* What cell i of tuple t adds to its index in state s (0 empty, 1 the mover's "
               "stone, 2 the\n"
               " * other's, 3 empty and playable), at (t * LEN + i) * 4 + s. */\n");
    emit_array_u32(f, P, "dig", "uint32_t", n->dig, (size_t)n->count * n->len * 4, 8);
    fprintf(f, "/* Where each cell is read: cell c's reads are [occ_first[c], occ_first[c + 1]), "
               "each a slot\n"
               " * (image * TUPLES + tuple) and a row of dig. */\n");
    emit_array_u32(f, P, "occ_first", "uint32_t", n->occ_first, (size_t)e->cells + 1, 8);
    emit_array_u32(f, P, "occ_dig", "uint32_t", n->occ_dig, (size_t)A * n->len, 8);
    fprintf(f, "static const uint16_t %s_occ_slot[%d] = {", P, A * n->len);
    for (int i = 0; i < A * n->len; i++)
        fprintf(f, "%s%s%u", i ? "," : "", i % 16 ? "" : "\n    ", n->occ_slot[i]);
    fprintf(f, "\n};\n/* The weights' bits (IEEE single precision); the second player's set after "
               "the first's. */\n");
    emit_weights(f, P, n->w, n->nweights);
    emit_coin(f, P);
    emit_code(f, P,
              (const char *const[]){oxo_fs_stream, oxo_fs_play_scored, oxo_fs_tanh, oxo_fs_net,
                                    oxo_fs_play_net, NULL});
    return n->nweights;
}

/* --form c of a NEAT model: its champion's network (lookup/neat.h) as the arrays of its evaluation
 * order, each computed node's links, their sources and their weights as their bits, evaluated by
 * neat.c, the code that evaluates it in liboxo, so that the scores, the best moves and the move
 * picked at a level are liboxo's, bit for bit. Returns the weights written. */
static uint32_t emit_neat(FILE *f, const geo *e, const oxo_player *pl, const char *P)
{
    const oxo_neat_net *n = oxo_player_neat(pl);
    const uint32_t links = n->first[n->ncomp];
    emit_head(f, e, P, "uint64_t", "uint64_t");
    fprintf(
        f,
        "\n/* Nodes: the cells' inputs, the bias, the tactics' inputs (three a move when "
        "%s_NEAT_TACTICS; three, of the move scored, when %s_NEAT_AFTERSTATE), the outputs (one "
        "a move, or one scoring each move's afterstate), then the hidden nodes. */\n#define "
        "%s_NODES %d\n#define %s_NCOMP %d\n#define %s_NEAT_TACTICS %d\n#define "
        "%s_NEAT_AFTERSTATE %d\n#define %s_NEAT_OUTPUTS %d\n",
        P, P, P, n->nodes, P, n->ncomp, P, n->tactics, P, n->afterstate, P, n->outputs);
    fprintf(f,
            "/* The symmetries the network's inputs are oriented by (0: the board as it is). "
            "*/\n#define %s_NEAT_NSYM %d\n",
            P, n->nsym);
    emit_weight_type(f, P);
    fprintf(f, "/* The nodes computed (outputs and hidden), each after the nodes it reads. */\n");
    emit_array_u32(f, P, "comp", "uint32_t", n->comp, (size_t)n->ncomp, 8);
    fprintf(f, "/* Node comp[i]'s links: first[i] to first[i + 1] - 1. */\n");
    emit_array_u32(f, P, "first", "uint32_t", n->first, (size_t)n->ncomp + 1, 8);
    fprintf(f, "/* Each link's source node, and its weight's bits (IEEE single precision). */\n");
    const uint32_t none = 0;
    emit_array_u32(f, P, "src", "uint32_t", links ? n->src : &none, links ? links : 1, 8);
    emit_weights(f, P, n->w, links);
    emit_coin(f, P);
    emit_code(f, P,
              (const char *const[]){oxo_fs_stream, oxo_fs_play_scored, oxo_fs_tanh, oxo_fs_neat,
                                    oxo_fs_play_neat, NULL});
    return links;
}

/* --form c of an azero model: its network (lookup/azero.h) as its widths and its parameters' bits,
 * evaluated by azero.c, the code that evaluates it in liboxo, so that the scores of its bare
 * policy, the best moves and the move picked at a level are liboxo's, bit for bit. Returns the
 * weights written. */
static uint32_t emit_azero(FILE *f, const geo *e, const oxo_player *pl, const char *P)
{
    const oxo_az_net *n = oxo_player_azero(pl);
    const uint32_t np = (uint32_t)oxo_az_params(&n->s);
    int widest = 1;
    for (int l = 0; l < n->s.layers; l++)
        widest = n->s.width[l] > widest ? n->s.width[l] : widest;
    emit_head(f, e, P, "uint64_t", "uint64_t");
    fprintf(f,
            "\n/* The network (FORMAT.md, azero): 2 inputs a cell and, with AZ_LINES lines, "
            "2^(AZ_K + 1) - 1\n * a line, and with AZ_THREATS 4 more a cell; LAYERS hidden "
            "layers of ReLU units, a policy over\n * the moves and a tanh value. */\n"
            "#define %s_LAYERS %d\n#define %s_AZ_WIDEST %d\n#define %s_AZ_LINES %d\n"
            "#define %s_AZ_K %d\n#define %s_AZ_THREATS %d\nstatic const int %s_widths[%d] = {",
            P, n->s.layers, P, widest, P, n->s.lines, P, n->s.k, P, n->s.threats, P, n->s.layers);
    for (int l = 0; l < n->s.layers; l++)
        fprintf(f, "%s%d", l ? ", " : "", n->s.width[l]);
    fprintf(f, "};\n/* The lines' cells, AZ_K a line (none without lines). */\n");
    emit_bytes(f, P, "az_line", n->s.line, n->s.lines ? n->s.lines : 1, n->s.lines ? n->s.k : 1);
    emit_weight_type(f, P);
    fprintf(f, "/* The parameters' bits (IEEE single precision), in the model's order. */\n");
    emit_weights(f, P, n->w, np);
    emit_coin(f, P);
    emit_code(f, P,
              (const char *const[]){oxo_fs_stream, oxo_fs_play_scored, oxo_fs_tanh, oxo_fs_azero,
                                    oxo_fs_play_azero, NULL});
    return np;
}

/* The networks --form c writes as themselves, by their player's source: one row each. */
static const struct {
    const char *source;
    uint32_t (*emit)(FILE *f, const geo *e, const oxo_player *pl, const char *P);
} networks[] = {
    {"ntuple", emit_ntuple},
    {"neat", emit_neat},
    {"azero", emit_azero},
};

int oxo_export_network(const oxo_player *pl)
{
    for (size_t i = 0; i < sizeof networks / sizeof *networks; i++)
        if (!strcmp(oxo_player_source(pl), networks[i].source))
            return 1;
    return 0;
}

uint32_t emit_network(FILE *f, const geo *e, const oxo_player *pl, const char *P)
{
    for (size_t i = 0; i < sizeof networks / sizeof *networks; i++)
        if (!strcmp(oxo_player_source(pl), networks[i].source))
            return networks[i].emit(f, e, pl, P);
    return 0;
}
