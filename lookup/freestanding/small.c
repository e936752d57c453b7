/*
 * The smallest player that still plays a best move everywhere (--form c-small): on the canonical
 * board it wins at once, else blocks, else plays the first free move of a fixed order, except on
 * the few canonical boards where that rule misses a best move, which are stored with their move.
 * This file owns the rule and the player; oxo-export finds the exceptions by running the very
 * rule it then writes into the player.
 */
#include "host.h" /* and board.c before this file */

typedef struct oxp_small {
    const oxp_board *board;
    const uint8_t *order;   /* the moves, best first (the centre first) */
    const oxp_ekey *except; /* canonical key << 6 | move, where the rule misses */
    unsigned nexcept;
} oxp_small;

/* The rule's move on the canonical board (me, op): a move that wins, else one that blocks, else
 * the first legal move of the order; -1 when none is legal. */
static inline int oxp_small_rule(const oxp_small *p, oxp_mask me, oxp_mask op)
{
    const oxp_board *b = p->board;
    int m, c;
    for (int block = 0; block < 2; block++) {
        const oxp_mask who = block ? op : me;
        for (m = 0; m < b->moves; m++)
            if ((c = oxp_board_cell(b, me | op, m)) >= 0 &&
                oxp_board_wins(b, (oxp_mask)(who | (oxp_mask)1 << c)))
                return m;
    }
    for (m = 0; m < b->moves; m++)
        if (oxp_board_cell(b, me | op, p->order[m]) >= 0)
            return p->order[m];
    return -1;
}

/* A best move for the side to move, -1 when the game is over: on the canonical board, a stored
 * exception, else the rule. */
static inline int oxp_small_best(const oxp_small *p, oxp_mask x, oxp_mask o)
{
    const oxp_board *b = p->board;
    oxp_mask me, op;
    int s = 0;
    if (!oxp_board_sides(b, x, o, &me, &op))
        return -1;
    oxp_key k = oxp_board_canon(b, me, op, &s);
    for (unsigned i = 0; i < p->nexcept; i++)
        if (p->except[i] >> 6 == k)
            return oxp_board_unmap(b, (int)(p->except[i] & 63), s);
    int m = oxp_small_rule(p, oxp_board_img(b, me, s), oxp_board_img(b, op, s));
    return m < 0 ? -1 : oxp_board_unmap(b, m, s);
}
