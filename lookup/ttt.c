/*
 * Tic-tac-toe (m,n,k-game with the dimensions of ttt.h) behind the game interface.
 *
 * Everything that depends on the board's shape (winning lines, symmetry permutations, the base-3
 * weights) is derived from TTT_ROWS/TTT_COLS/TTT_K at initialisation, so a 4x4 board is a change of
 * three numbers. Masks are transformed 8 bits at a time through tables (2 lookups a mask for 9
 * cells) because canonicalisation sits in every lookup of the player.
 */
#include "ttt.h"

#include "game.h"

#include <stddef.h>

#define CHUNKS ((TTT_CELLS + 7) / 8)
#define NSYM (TTT_ROWS == TTT_COLS ? 8 : 4)

static uint64_t lines[4 * TTT_CELLS];
static int nlines;
static int perm[NSYM][TTT_CELLS]; /* perm[s][c]: where cell c goes under symmetry s */
static int inverse[NSYM];
static uint64_t sym_table[NSYM][CHUNKS][256];
static uint64_t code_table[CHUNKS][256]; /* sum of 3^i over the set bits of one chunk */
static uint64_t full_mask;
static int order[TTT_CELLS];
/* Boards of up to 16 cells: one bit per mask says whether it holds a line (8 KB for 4x4). */
#define WIN_TABLE (TTT_CELLS <= 16)
static uint8_t win_bits[WIN_TABLE ? (1u << TTT_CELLS) / 8 + 1 : 1];

static int has_line(uint64_t m)
{
    if (WIN_TABLE)
        return win_bits[m >> 3] >> (m & 7) & 1;
    for (int i = 0; i < nlines; i++)
        if ((m & lines[i]) == lines[i])
            return 1;
    return 0;
}

static oxo_pos ttt_start(void) { return (oxo_pos){0, 0}; }

static oxo_status ttt_status(oxo_pos p)
{
    if (has_line(p.opp))
        return OXO_OVER_LOSS;
    return ((p.me | p.opp) == full_mask) ? OXO_OVER_DRAW : OXO_ONGOING;
}

static uint64_t ttt_legal(oxo_pos p)
{
    if (ttt_status(p) != OXO_ONGOING)
        return 0;
    return ~(p.me | p.opp) & full_mask;
}

static oxo_pos ttt_play(oxo_pos p, int move)
{
    return (oxo_pos){p.opp, p.me | (1ull << move)};
}

static uint64_t transform_mask(uint64_t m, int sym)
{
    uint64_t r = 0;
    for (int c = 0; c < CHUNKS; c++)
        r |= sym_table[sym][c][(m >> (8 * c)) & 0xff];
    return r;
}

static oxo_pos ttt_transform(oxo_pos p, int sym)
{
    return (oxo_pos){transform_mask(p.me, sym), transform_mask(p.opp, sym)};
}

static int ttt_transform_move(int move, int sym) { return perm[sym][move]; }
static int ttt_inverse_sym(int sym) { return inverse[sym]; }
static int ttt_x_to_move(oxo_pos p) { return (oxo_ply(p) & 1) == 0; }
static int ttt_cell_of_move(int move) { return move; }

static void ttt_static_order(int *moves)
{
    for (int i = 0; i < TTT_CELLS; i++)
        moves[i] = order[i];
}

/* Cells through which more winning lines pass come first; ties keep cell order. */
static void add_order(void)
{
    int weight[TTT_CELLS] = {0};
    for (int c = 0; c < TTT_CELLS; c++) {
        order[c] = c;
        for (int l = 0; l < nlines; l++)
            weight[c] += (int)(lines[l] >> c & 1);
    }
    for (int i = 1; i < TTT_CELLS; i++)
        for (int j = i; j > 0 && weight[order[j]] > weight[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static uint64_t mask_code(uint64_t m)
{
    uint64_t r = 0;
    for (int c = 0; c < CHUNKS; c++)
        r += code_table[c][(m >> (8 * c)) & 0xff];
    return r;
}

static uint64_t ttt_code(oxo_pos p)
{
    uint64_t x = ttt_x_to_move(p) ? p.me : p.opp;
    uint64_t o = ttt_x_to_move(p) ? p.opp : p.me;
    return mask_code(x) + 2 * mask_code(o);
}

static void add_lines(void)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int r = 0; r < TTT_ROWS; r++)
        for (int c = 0; c < TTT_COLS; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + (TTT_K - 1) * dirs[d][0], ec = c + (TTT_K - 1) * dirs[d][1];
                if (er < 0 || er >= TTT_ROWS || ec < 0 || ec >= TTT_COLS)
                    continue;
                uint64_t m = 0;
                for (int k = 0; k < TTT_K; k++)
                    m |= 1ull << ((r + k * dirs[d][0]) * TTT_COLS + c + k * dirs[d][1]);
                lines[nlines++] = m;
            }
}

/* Symmetry s: bit 2 transposes, then bit 0 mirrors the columns, bit 1 mirrors the rows. */
static void add_symmetries(void)
{
    for (int s = 0; s < NSYM; s++)
        for (int cell = 0; cell < TTT_CELLS; cell++) {
            int r = cell / TTT_COLS, c = cell % TTT_COLS;
            if (s & 4) {
                int t = r;
                r = c;
                c = t;
            }
            if (s & 1)
                c = TTT_COLS - 1 - c;
            if (s & 2)
                r = TTT_ROWS - 1 - r;
            perm[s][cell] = r * TTT_COLS + c;
        }
    for (int s = 0; s < NSYM; s++)
        for (int t = 0; t < NSYM; t++) {
            int ok = 1;
            for (int cell = 0; cell < TTT_CELLS; cell++)
                ok &= perm[t][perm[s][cell]] == cell;
            if (ok)
                inverse[s] = t;
        }
    for (int s = 0; s < NSYM; s++)
        for (int c = 0; c < CHUNKS; c++)
            for (int byte = 0; byte < 256; byte++) {
                uint64_t m = 0;
                for (int b = 0; b < 8; b++) {
                    int cell = 8 * c + b;
                    if ((byte >> b & 1) && cell < TTT_CELLS)
                        m |= 1ull << perm[s][cell];
                }
                sym_table[s][c][byte] = m;
            }
}

static void add_codes(void)
{
    uint64_t pow3[TTT_CELLS];
    pow3[0] = 1;
    for (int i = 1; i < TTT_CELLS; i++)
        pow3[i] = pow3[i - 1] * 3;
    for (int c = 0; c < CHUNKS; c++)
        for (int byte = 0; byte < 256; byte++) {
            uint64_t v = 0;
            for (int b = 0; b < 8; b++)
                if ((byte >> b & 1) && 8 * c + b < TTT_CELLS)
                    v += pow3[8 * c + b];
            code_table[c][byte] = v;
        }
}

static const oxo_game ttt_game = {
    .name = "tictactoe",
    .rows = TTT_ROWS,
    .cols = TTT_COLS,
    .cells = TTT_CELLS,
    .moves = TTT_CELLS,
    .nsym = NSYM,
    .max_plies = TTT_CELLS,
    .start = ttt_start,
    .legal = ttt_legal,
    .play = ttt_play,
    .status = ttt_status,
    .transform = ttt_transform,
    .transform_move = ttt_transform_move,
    .inverse_sym = ttt_inverse_sym,
    .code = ttt_code,
    .x_to_move = ttt_x_to_move,
    .cell_of_move = ttt_cell_of_move,
    .static_order = ttt_static_order,
};

/* The tables are filled on the first call; every program calls this from main before it starts
 * threads, so no lock is needed. */
const oxo_game *oxo_tictactoe(void)
{
    static int ready;
    if (!ready) {
        full_mask = (TTT_CELLS == 64) ? ~0ull : (1ull << TTT_CELLS) - 1;
        add_lines();
        add_symmetries();
        add_codes();
        add_order();
        if (WIN_TABLE)
            for (uint64_t m = 0; m < (1ull << TTT_CELLS); m++)
                for (int i = 0; i < nlines; i++)
                    if ((m & lines[i]) == lines[i]) {
                        win_bits[m >> 3] |= (uint8_t)(1u << (m & 7));
                        break;
                    }
        ready = 1;
    }
    return &ttt_game;
}
