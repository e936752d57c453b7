/*
 * Tic-tac-toe: the board dimensions live here and nowhere else.
 *
 * Bit layout (bit number of each cell, row by row from the top left; cells are numbered the same
 * way in every interface, 0-8, and shown to people as 1-9):
 *
 *      0 | 1 | 2        example: X at 0 and 4, O at 2, X to move
 *     ---+---+---                 me  (X) = 0b000010001 = 0x011
 *      3 | 4 | 5                  opp (O) = 0b000000100 = 0x004
 *     ---+---+---
 *      6 | 7 | 8
 *
 * Index space: 3^9 = 19,683 raw codes (base 3, cell i weighs 3^i, empty 0, X 1, O 2)
 *   -> 5,478 positions reachable from the empty board with X first
 *   -> 765 canonical positions up to the 8 symmetries of the square (the smallest code of the 8).
 */
#ifndef OXO_TTT_H
#define OXO_TTT_H

#define TTT_ROWS 3
#define TTT_COLS 3
#define TTT_K 3 /* stones in a row that win */
#define TTT_CELLS (TTT_ROWS * TTT_COLS)

#endif
