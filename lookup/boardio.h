/*
 * Boards as text: parsing the BOARD strings of the command lines (cells row by row from the top
 * left, X, O and '.'), and drawing boards for people.
 */
#ifndef OXO_BOARDIO_H
#define OXO_BOARDIO_H

#include "game.h"

#include <stdio.h>

/* Parses a board. For m,n,k games: the cells row by row from the top left, X, O or '.', the side to
 * move following from the counts (X first); reachability is checked by the caller against its
 * state space. With gravity (Connect-4): the columns played so far as digits 1..W, e.g. "4453";
 * an illegal sequence is refused with the number of the wrong move. On error returns -1 and puts
 * a sentence in err. */
int oxo_board_parse(const oxo_game *g, const char *text, oxo_pos *out, oxo_error *err);

/* Writes the board as cells+1 characters (X, O, '.') into buf. */
void oxo_board_format(const oxo_game *g, oxo_pos p, char *buf);

/* Draws the board; empty cells show their number (1-based) when numbers is set. */
void oxo_board_draw(const oxo_game *g, oxo_pos p, int numbers, FILE *out);

#endif
