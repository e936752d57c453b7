/*
 * An exported player's board: the constant its form's functions pass down, made from the arrays
 * above, and the questions a program including the player may ask of it (the web page and the
 * export tests' driver do). Written after board.c, before the form's interface (play_*.c).
 */
#include "host.h"

static const oxp_board oxp_the_board = {oxp_CELLS,
                                        oxp_MOVES,
                                        oxp_WIDTH,
                                        oxp_HEIGHT,
                                        oxp_GRAVITY,
                                        oxp_NSYM,
                                        (int)(sizeof oxp_lines / sizeof oxp_lines[0]),
                                        oxp_perm,
                                        oxp_mperm,
                                        oxp_lines};

/* The cell a move fills (a column with gravity, else a cell), or -1 when it cannot be played. */
static inline int oxp_cell(oxp_mask occ, int m)
{
    return oxp_board_cell(&oxp_the_board, occ, m);
}

/* Whether mask m holds a line. */
static inline int oxp_wins(oxp_mask m)
{
    return oxp_board_wins(&oxp_the_board, m);
}

/* The side to move's stones and the other's; 0 when the game is over. */
static inline int oxp_sides(oxp_mask x, oxp_mask o, oxp_mask *me, oxp_mask *op)
{
    return oxp_board_sides(&oxp_the_board, x, o, me, op);
}
