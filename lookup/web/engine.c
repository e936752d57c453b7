/*
 * The web page's engine: a player exported by oxo-export (--form c), included whole, behind a few
 * functions of plain integers that JavaScript calls (WebAssembly passes no pointers or 64-bit
 * values without glue). Built with clang --target=wasm32 -nostdlib: the same C the firmware gets,
 * no JavaScript rewrite of the player. Boards are the masks of the export (bit i: cell i, row by
 * row from the top left).
 */
#include OXP_FILE

#define WEB __attribute__((visibility("default")))

static int8_t values[oxp_MOVES];
static uint8_t distances[oxp_MOVES];
static int bests[oxp_MOVES];
static uint64_t stream;

WEB int web_cells(void) { return oxp_CELLS; }
WEB int web_width(void) { return oxp_WIDTH; }
WEB int web_height(void) { return oxp_HEIGHT; }
WEB int web_gravity(void) { return oxp_GRAVITY; }
WEB int web_moves_max(void) { return oxp_MOVES; }

/* The cell a move fills on the board x|o, or -1 when it is not legal. */
WEB int web_cell(int x, int o, int move)
{
    return move >= 0 && move < oxp_MOVES ? oxp_cell((oxp_mask)(x | o), move) : -1;
}

/* The position: -1 when it cannot arise; else (over << 16) | ((value + 1) << 8) | distance. */
WEB int web_position(int x, int o)
{
    int v, d, r = oxp_value((oxp_mask)x, (oxp_mask)o, &v, &d);
    return r < 0 ? -1 : r << 16 | (v + 1) << 8 | d;
}

/* Fills the move values (web_value, web_distance) and the best moves (web_best); returns the
 * number of legal moves, -1 when the board cannot arise. */
WEB int web_query(int x, int o)
{
    int n = oxp_moves((oxp_mask)x, (oxp_mask)o, values, distances);
    if (n > 0)
        return oxp_best_moves((oxp_mask)x, (oxp_mask)o, bests) < 0 ? -1 : n;
    return n;
}
WEB int web_value(int move) { return values[move]; }      /* -2: not legal */
WEB int web_distance(int move) { return distances[move]; }
WEB int web_best_count(int x, int o) { return oxp_best_moves((oxp_mask)x, (oxp_mask)o, bests); }
WEB int web_best(int i) { return bests[i]; }

/* The random stream of the page, as two 32-bit halves. */
WEB void web_seed(unsigned lo, unsigned hi) { stream = (uint64_t)hi << 32 | lo; }

/* A move at level 1..10 (oxo-play's rule), -1 when there is none. */
WEB int web_pick(int x, int o, int level)
{
    return oxp_pick((oxp_mask)x, (oxp_mask)o, level, &stream);
}
