/*
 * The web page's engine: a player exported by oxo-export (--form c), included whole, behind a few
 * functions of plain integers that JavaScript calls (WebAssembly passes no pointers, and 64-bit
 * values only as BigInt, without glue). Built with clang --target=wasm32 -nostdlib: the same C the
 * firmware gets, no JavaScript rewrite of the player. Boards are the masks of the export (bit i:
 * cell i, row by row from the top left), each passed as two 32-bit halves so that one page serves
 * the tables' boards and the 42 cells of a 7x6 network. Built with -DOXP_NET around a network's
 * export (oxo-export -m NET -f c): move values are then the network's, and no position has a
 * solved value or distance.
 */
#include OXP_FILE

#define WEB __attribute__((visibility("default")))

#ifdef OXP_NET
static float values[oxp_MOVES];
#else
static int8_t values[oxp_MOVES];
static uint8_t distances[oxp_MOVES];
#endif
static int bests[oxp_MOVES];
static uint64_t stream;

static oxp_mask mask(unsigned lo, unsigned hi)
{
    return (oxp_mask)((uint64_t)hi << 32 | lo);
}

WEB int web_cells(void)
{
    return oxp_CELLS;
}
WEB int web_width(void)
{
    return oxp_WIDTH;
}
WEB int web_height(void)
{
    return oxp_HEIGHT;
}
WEB int web_gravity(void)
{
    return oxp_GRAVITY;
}
WEB int web_moves_max(void)
{
    return oxp_MOVES;
}
#ifdef OXP_NET
WEB int web_network(void)
{
    return 1;
}
#else
WEB int web_network(void)
{
    return 0;
}
#endif

/* The cell a move fills on the board x|o, or -1 when it is not legal. */
WEB int web_cell(unsigned xl, unsigned xh, unsigned ol, unsigned oh, int move)
{
    return move >= 0 && move < oxp_MOVES ? oxp_cell(mask(xl, xh) | mask(ol, oh), move) : -1;
}

/* The position: -1 when it cannot arise; else (over << 16) | ((value + 1) << 8) | distance. A
 * network knows no value of a game still on (value 0, distance 0 then); a finished game's is its
 * result for the side to move. */
WEB int web_position(unsigned xl, unsigned xh, unsigned ol, unsigned oh)
{
    const oxp_mask x = mask(xl, xh), o = mask(ol, oh);
#ifdef OXP_NET
    const int n = oxp_moves(x, o, values);
    if (n < 0)
        return -1;
    if (n > 0)
        return 1 << 8;
    /* lost for the side to move, or drawn */
    return 1 << 16 | (oxp_wins(x) || oxp_wins(o) ? 0 : 1) << 8;
#else
    int v, d, r = oxp_value(x, o, &v, &d);
    return r < 0 ? -1 : r << 16 | (v + 1) << 8 | d;
#endif
}

/* Fills the move values (web_value, web_distance) and the best moves (web_best); returns the
 * number of legal moves, -1 when the board cannot arise. */
WEB int web_query(unsigned xl, unsigned xh, unsigned ol, unsigned oh)
{
    const oxp_mask x = mask(xl, xh), o = mask(ol, oh);
#ifdef OXP_NET
    int n = oxp_moves(x, o, values);
#else
    int n = oxp_moves(x, o, values, distances);
#endif
    if (n > 0)
        return oxp_best_moves(x, o, bests) < 0 ? -1 : n;
    return n;
}
WEB double web_value(int move)
{
    return values[move];
} /* -2: not legal */
#ifdef OXP_NET
WEB int web_distance(int move)
{
    (void)move;
    return 0;
}
#else
WEB int web_distance(int move)
{
    return distances[move];
}
#endif
WEB int web_best_count(unsigned xl, unsigned xh, unsigned ol, unsigned oh)
{
    return oxp_best_moves(mask(xl, xh), mask(ol, oh), bests);
}
WEB int web_best(int i)
{
    return bests[i];
}

/* The random stream of the page, as two 32-bit halves. */
WEB void web_seed(unsigned lo, unsigned hi)
{
    stream = (uint64_t)hi << 32 | lo;
}

/* A move at level 1..10 (oxo-play's rule), -1 when there is none. */
WEB int web_pick(unsigned xl, unsigned xh, unsigned ol, unsigned oh, int level)
{
    return oxp_pick(mask(xl, xh), mask(ol, oh), level, &stream);
}

/* The first line (k cells in a row) that the stones of mask m fill, its low (half 0) or high
 * (half 1) 32 bits: the winning line the page draws at the end of a game; 0 when m holds none. */
WEB unsigned web_line(unsigned ml, unsigned mh, int half)
{
    const oxp_mask m = mask(ml, mh);
    for (int l = 0; l < oxp_the_board.nlines; l++)
        if ((m & oxp_the_board.lines[l]) == oxp_the_board.lines[l])
            return (unsigned)((uint64_t)oxp_the_board.lines[l] >> (half ? 32 : 0));
    return 0;
}
