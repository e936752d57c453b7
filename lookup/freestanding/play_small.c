/*
 * The interface of an exported smallest player (--form c-small): its board and exceptions from the
 * arrays above, and the one function a program calls. Written after board.c, the_board.c and
 * small.c.
 */
#include "host.h"

static const oxp_small oxp_the_player = {&oxp_the_board, oxp_order, oxp_except, oxp_EXCEPTIONS};

/* A best move for the side to move (a cell, or a column with gravity), -1 when the game is over. */
int oxp_best(oxp_mask x, oxp_mask o)
{
    return oxp_small_best(&oxp_the_player, x, o);
}
