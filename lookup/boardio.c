/*
 * Board text in and out (see boardio.h).
 */
#include "boardio.h"

#include <string.h>

/* Connect-4: the columns played so far, as digits 1..W (the form Connect-4 solvers read), or, so
 * that boards of 10 columns and more can be named too, as numbers separated by commas or spaces
 * ("10,3,12"; "4,4" is "44"). */
static int parse_moves(const oxo_game *g, const char *text, oxo_pos *out, oxo_error *err)
{
    oxo_pos p = oxo_start(g);
    const int sep = strpbrk(text, ", ") != NULL;
    size_t move = 0;
    for (size_t i = 0; text[i];) {
        int col = -1;
        size_t at = i;
        if (sep) {
            while (text[i] == ',' || text[i] == ' ')
                i++;
            if (!text[i])
                break;
            at = i;
            long v = 0;
            while (text[i] >= '0' && text[i] <= '9' && v <= g->width)
                v = v * 10 + (text[i++] - '0');
            if (i > at && v >= 1 && v <= g->width && (!text[i] || text[i] == ',' || text[i] == ' '))
                col = (int)v - 1;
        } else {
            if (text[i] >= '1' && text[i] <= '9' && text[i] - '1' < g->width)
                col = text[i] - '1';
            i++;
        }
        move++;
        if (col < 0) {
            if (sep)
                oxo_fail(err, OXO_E_ARG,
                         "moves \"%.80s\": move %zu is \"%.*s\", expected a column from 1 to %d",
                         text, move,
                         (int)strcspn(text + at, ", ") > 12 ? 12 : (int)strcspn(text + at, ", "),
                         text + at, g->width);
            else
                oxo_fail(
                    err, OXO_E_ARG,
                    "moves \"%.80s\": character '%c' at move %zu, expected a column from 1 to %d%s",
                    text, text[at], move, g->width,
                    g->width > 9 ? " (with 10 columns or more, separate them by commas: 10,3,12)"
                                 : "");
            return -1;
        }
        if (oxo_status_of(g, p) != OXO_ONGOING) {
            oxo_fail(err, OXO_E_ARG,
                     "moves \"%.80s\": move %zu (column %d) comes after the end of the game", text,
                     move, col + 1);
            return -1;
        }
        if (!(oxo_legal(g, p) >> col & 1)) {
            oxo_fail(err, OXO_E_ARG, "moves \"%.80s\": move %zu plays column %d, which is full",
                     text, move, col + 1);
            return -1;
        }
        p = oxo_play(g, p, col);
    }
    *out = p;
    return 0;
}

int oxo_board_parse(const oxo_game *g, const char *text, oxo_pos *out, oxo_error *err)
{
    if (g->gravity)
        return parse_moves(g, text, out, err);
    size_t n = strlen(text);
    uint64_t x = 0, o = 0;
    if (n != (size_t)g->cells) {
        oxo_fail(err, OXO_E_ARG,
                 "board \"%.80s\" has %zu characters, expected %d (X, O or . row by row)", text, n,
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
            oxo_fail(err, OXO_E_ARG,
                     "board \"%s\": character '%c' at position %d, expected X, O or .", text, c,
                     i + 1);
            return -1;
        }
    }
    int nx = oxo_popcount(x), no = oxo_popcount(o);
    if (nx != no && nx != no + 1) {
        oxo_fail(err, OXO_E_ARG,
                 "board \"%s\" has %d X and %d O; X moves first, so X must have as many "
                 "stones as O or one more",
                 text, nx, no);
        return -1;
    }
    oxo_pos p = (nx == no) ? (oxo_pos){x, o} : (oxo_pos){o, x};
    oxo_pos other = {p.opp, p.me}; /* the side to move must not have a line: it cannot have won */
    if (oxo_status_of(g, other) == OXO_OVER_LOSS) {
        oxo_fail(err, OXO_E_ARG, "board \"%s\": %s has a line but %s moved last", text,
                 nx == no ? "X" : "O", nx == no ? "O" : "X");
        return -1;
    }
    *out = p;
    return 0;
}

void oxo_board_format(const oxo_game *g, oxo_pos p, char *buf)
{
    uint64_t x, o;
    oxo_cells(g, p, &x, &o);
    for (int i = 0; i < g->cells; i++)
        buf[i] = (x >> i & 1) ? 'X' : (o >> i & 1) ? 'O' : '.';
    buf[g->cells] = 0;
}

void oxo_board_draw(const oxo_game *g, oxo_pos p, int numbers, FILE *out)
{
    char cells[OXO_MAX_MOVES + 1];
    oxo_board_format(g, p, cells);
    /* Numbers: each free cell's number, or with gravity the column numbers under the board. */
    int w = g->gravity ? 1 : g->cells >= 10 ? 2 : 1;
    for (int r = 0; r < g->rows; r++) {
        fputs("  ", out);
        for (int c = 0; c < g->cols; c++) {
            int i = r * g->cols + c;
            if (cells[i] == '.' && numbers && !g->gravity)
                fprintf(out, " %*d ", w, i + 1);
            else if (w == 2)
                fprintf(out, " %2c ", cells[i] == '.' ? ' ' : cells[i]);
            else
                fprintf(out, " %c ", cells[i] == '.' ? ' ' : cells[i]);
            if (c + 1 < g->cols)
                fputc('|', out);
        }
        fputc('\n', out);
        if (r + 1 < g->rows) {
            fputs("  ", out);
            for (int c = 0; c < g->cols; c++)
                fputs(w == 2 ? (c + 1 < g->cols ? "----+" : "----")
                             : (c + 1 < g->cols ? "---+" : "---"),
                      out);
            fputc('\n', out);
        }
    }
    if (g->gravity && numbers) {
        fputs("  ", out);
        for (int c = 0; c < g->cols; c++)
            fprintf(out, " %d%s", c + 1, c + 1 < g->cols ? "  " : "");
        fputc('\n', out);
    }
}
