/*
 * The board as a freestanding player sees it: two masks of cells, row by row from the top left
 * (bit i set: a stone on cell i), one for the side to move and one for the other. This file owns
 * the questions every exported form asks of a board: its image under a symmetry, whether a mask
 * holds a line, the cell a move fills, whose turn it is, the canonical key and how a move of the
 * canonical image maps back. oxo-export answers its own questions with it and writes it, as it
 * is, into every C player it exports (lookup/freestanding/README.md).
 */
#include "host.h"

/* A board's geometry: its size, its symmetries (as where each cell and each move goes) and its
 * lines (masks of k cells in a row). */
typedef struct oxp_board {
    int cells, moves, width, height, gravity, nsym, nlines;
    const uint8_t *perm;   /* nsym * cells: where cell c goes under symmetry s, at s * cells + c */
    const uint8_t *mperm;  /* nsym * moves: the same for moves (columns with gravity) */
    const oxp_mask *lines; /* nlines */
} oxp_board;

/* Every cell of the board. */
static inline oxp_mask oxp_board_all(const oxp_board *b)
{
    return (oxp_mask)((((oxp_mask)1 << (b->cells - 1)) << 1) - 1);
}

/* The questions below come in two layers: the work over plain arrays and numbers, and a thin
 * wrapper that takes them from the board. A player's board is a constant, so once the wrappers
 * are inlined a compiler needs no board in memory and passes constants (the tic-tac-toe c-small
 * player stays under 1,024 bytes). The wrappers are oxp_WRAP: an exported player asks GCC and
 * clang to inline them always, since at -Os they would not. */

/* The image of mask m under the symmetry whose row of cells is perm. */
static inline oxp_mask oxp_image(const uint8_t *perm, int cells, oxp_mask m)
{
    oxp_mask r = 0;
    for (int c = 0; c < cells; c++)
        if (m >> c & 1)
            r |= (oxp_mask)((oxp_mask)1 << perm[c]);
    return r;
}

oxp_WRAP oxp_mask oxp_board_img(const oxp_board *b, oxp_mask m, int s)
{
    return oxp_image(b->perm + s * b->cells, b->cells, m);
}

/* Whether mask m holds one of the lines. */
static inline int oxp_any_line(const oxp_mask *lines, int nlines, oxp_mask m)
{
    for (int l = 0; l < nlines; l++)
        if ((m & lines[l]) == lines[l])
            return 1;
    return 0;
}

oxp_WRAP int oxp_board_wins(const oxp_board *b, oxp_mask m)
{
    return oxp_any_line(b->lines, b->nlines, m);
}

/* The cell a column fills with gravity: its lowest free one, or -1 when it is full. */
static inline int oxp_drop(int width, int height, oxp_mask occ, int m)
{
    for (int c = (height - 1) * width + m; c >= 0; c -= width)
        if (!(occ >> c & 1))
            return c;
    return -1;
}

/* The cell move m fills on a board whose stones are occ, or -1 when it cannot be played: with
 * gravity a move is a column. */
oxp_WRAP int oxp_board_cell(const oxp_board *b, oxp_mask occ, int m)
{
    return b->gravity ? oxp_drop(b->width, b->height, occ, m) : occ >> m & 1 ? -1 : m;
}

/* The stones of the side to move (*me) and of the other side (*op) from X's (x) and O's (o):
 * X moves first, so the counts tell. Returns 0 when the game is over (a line or a full board). */
static inline int oxp_board_sides(const oxp_board *b, oxp_mask x, oxp_mask o, oxp_mask *me,
                                  oxp_mask *op)
{
    int n = 0;
    for (int c = 0; c < b->cells; c++)
        n += (int)((x | o) >> c & 1);
    *me = n & 1 ? o : x;
    *op = n & 1 ? x : o;
    return !oxp_board_wins(b, *op) && n < b->cells;
}

/* The canonical key of (me, op): the least over the symmetries of me's image, with op's image
 * above it; *sym receives the symmetry that gives it. */
static inline oxp_key oxp_board_canon(const oxp_board *b, oxp_mask me, oxp_mask op, int *sym)
{
    oxp_key best = (oxp_key)-1;
    for (int s = 0; s < b->nsym; s++) {
        oxp_key k = (oxp_key)oxp_board_img(b, me, s) | (oxp_key)oxp_board_img(b, op, s) << b->cells;
        if (k < best) {
            best = k;
            *sym = s;
        }
    }
    return best;
}

/* The move of the real board whose image under symmetry s is move m of the canonical one. */
static inline int oxp_board_unmap(const oxp_board *b, int m, int s)
{
    int j = 0;
    while (b->mperm[s * b->moves + j] != m)
        j++;
    return j;
}
