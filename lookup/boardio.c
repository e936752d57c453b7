/*
 * Board text in and out (see boardio.h).
 */
#include "boardio.h"

#include <string.h>

int oxo_board_parse(const oxo_game *g, const char *text, oxo_pos *out, char *msg, size_t cap)
{
    size_t n = strlen(text);
    uint64_t x = 0, o = 0;
    if (n != (size_t)g->cells) {
        snprintf(msg, cap, "board \"%s\" has %zu characters, expected %d (X, O or . row by row)", text, n,
                 g->cells);
        return -1;
    }
    for (int i = 0; i < g->cells; i++) {
        char c = text[i];
        if (c == 'X' || c == 'x')
            x |= 1ull << i;
        else if (c == 'O' || c == 'o')
            o |= 1ull << i;
        else if (c != '.') {
            snprintf(msg, cap, "board \"%s\": character '%c' at position %d, expected X, O or .", text,
                     c, i + 1);
            return -1;
        }
    }
    int nx = oxo_popcount(x), no = oxo_popcount(o);
    if (nx != no && nx != no + 1) {
        snprintf(msg, cap, "board \"%s\" has %d X and %d O; X moves first, so X must have as many "
                 "stones as O or one more", text, nx, no);
        return -1;
    }
    oxo_pos p = (nx == no) ? (oxo_pos){x, o} : (oxo_pos){o, x};
    oxo_pos other = {p.opp, p.me}; /* the side to move must not have a line: it cannot have won */
    if (g->status(other) == OXO_OVER_LOSS) {
        snprintf(msg, cap, "board \"%s\": %s has a line but %s moved last", text,
                 nx == no ? "X" : "O", nx == no ? "O" : "X");
        return -1;
    }
    *out = p;
    return 0;
}

void oxo_board_format(const oxo_game *g, oxo_pos p, char *buf)
{
    int xm = g->x_to_move(p);
    for (int i = 0; i < g->cells; i++) {
        uint64_t b = 1ull << i;
        buf[i] = (p.me & b) ? (xm ? 'X' : 'O') : (p.opp & b) ? (xm ? 'O' : 'X') : '.';
    }
    buf[g->cells] = 0;
}

void oxo_board_draw(const oxo_game *g, oxo_pos p, int numbers, FILE *out)
{
    char cells[OXO_MAX_MOVES + 1];
    oxo_board_format(g, p, cells);
    for (int r = 0; r < g->rows; r++) {
        fputs("  ", out);
        for (int c = 0; c < g->cols; c++) {
            int i = r * g->cols + c;
            if (cells[i] == '.' && numbers)
                fprintf(out, " %d ", i + 1);
            else
                fprintf(out, " %c ", cells[i] == '.' ? ' ' : cells[i]);
            if (c + 1 < g->cols)
                fputc('|', out);
        }
        fputc('\n', out);
        if (r + 1 < g->rows) {
            fputs("  ", out);
            for (int c = 0; c < g->cols; c++)
                fputs(c + 1 < g->cols ? "---+" : "---", out);
            fputc('\n', out);
        }
    }
}
