/*
 * A solved table as a freestanding player holds it: every canonical position not yet finished,
 * its key in a sorted array and its entry beside it, (value + 1) << 6 | distance for the side to
 * move. This file owns the lookup (a binary search of the canonical key), a position's value and
 * each move's, and the best moves as oxo ranks them. oxo-export checks every array it writes with
 * it before writing them, and writes it into the player (--form c of a table).
 */
#include "host.h" /* and board.c before this file */

typedef struct oxp_table {
    const oxp_board *board;
    const oxp_key *keys; /* ascending */
    const uint8_t *entries;
    unsigned n;
} oxp_table;

/* The entry of a position not yet finished, -1 when it is not in the table. */
static inline int oxp_table_entry(const oxp_table *t, oxp_mask me, oxp_mask op)
{
    int s;
    oxp_key k = oxp_board_canon(t->board, me, op, &s);
    unsigned lo = 0, hi = t->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (t->keys[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->keys[lo] == k ? t->entries[lo] : -1;
}

/* The value (1 win, 0 draw, -1 loss for the side to move) and the distance (plies to the end
 * under best play) of a position. Returns 0, 1 when the game is over (*value is then -1 or 0 and
 * *distance 0), -1 when the board cannot arise. */
static inline int oxp_table_value(const oxp_table *t, oxp_mask x, oxp_mask o, int *value,
                                  int *distance)
{
    oxp_mask me, op;
    if (!oxp_board_sides(t->board, x, o, &me, &op)) {
        *value = oxp_board_wins(t->board, op) ? -1 : 0;
        *distance = 0;
        return 1;
    }
    int e = oxp_table_entry(t, me, op);
    if (e < 0)
        return -1;
    *value = (e >> 6) - 1;
    *distance = e & 63;
    return 0;
}

/* Each move's value for the side that plays it: value[m] is 1, 0 or -1 and distance[m] the plies
 * to the end counting the move, or value[m] = -2 for a move that is not legal. Returns the number
 * of legal moves (0 when the game is over), -1 when the board cannot arise. */
static inline int oxp_table_moves(const oxp_table *t, oxp_mask x, oxp_mask o, int8_t *value,
                                  uint8_t *distance)
{
    const oxp_board *b = t->board;
    oxp_mask me, op;
    int n = 0, c, e;
    for (int m = 0; m < b->moves; m++)
        value[m] = -2, distance[m] = 0;
    if (!oxp_board_sides(b, x, o, &me, &op))
        return 0;
    if (oxp_table_entry(t, me, op) < 0)
        return -1;
    for (int m = 0; m < b->moves; m++) {
        if ((c = oxp_board_cell(b, me | op, m)) < 0)
            continue;
        oxp_mask after = (oxp_mask)(me | (oxp_mask)1 << c);
        n++;
        distance[m] = 1;
        if (oxp_board_wins(b, after))
            value[m] = 1;
        else if ((after | op) == oxp_board_all(b))
            value[m] = 0;
        else if ((e = oxp_table_entry(t, op, after)) >= 0) {
            value[m] = (int8_t)(1 - (e >> 6));
            distance[m] = (uint8_t)((e & 63) + 1);
        } else
            return -1;
    }
    return n;
}

/* How oxo ranks a move: the fastest win, then the slowest loss; draws are equal. */
static inline int oxp_score(int value, int distance)
{
    return value > 0 ? 100 - distance : value < 0 ? -100 + distance : 0;
}

/* The best moves (ascending) into best[], from each move's value; returns how many (0 when the
 * game is over). */
static inline int oxp_table_best(int moves, const int8_t *value, const uint8_t *distance, int *best)
{
    int k = 0, top = -1000;
    for (int m = 0; m < moves; m++)
        if (value[m] > -2) {
            int sc = oxp_score(value[m], distance[m]);
            if (sc > top)
                top = sc, k = 0;
            if (sc == top)
                best[k++] = m;
        }
    return k;
}
