/*
 * oxo-export's JSON forms, tic-tac-toe's only: the dictionary of a common Python player ("XO_..."
 * + "1"/"0" for X or O to move -> the value for X: 1, 0, -1) and the Q-table file of a common
 * browser Q-learning app ({"q": [[state, [q0..q8]]...], "lr", "gamma", "epsilon", "difficulty"},
 * where the free cell of highest q, first on ties, is a best move). Both walk every reachable
 * board, all 5,478 of them.
 */
#include "export.h"

#include <stdlib.h>

int oxo_export_json(FILE *f, const oxo_player *pl, int f_q, size_t *count)
{
    uint8_t *seen = calloc(1u << 15, 1); /* a bit for each pair of 9-cell masks, x | o << 9 */
    if (!seen)
        return -1;
    oxo_pos stack[6000];
    int sp = 0, first = 1;
    const oxo_game *g = oxo_player_game(pl);
    stack[sp++] = oxo_start(g);
    if (f_q)
        fprintf(f, "{\"q\": [");
    else
        fprintf(f, "{");
    while (sp) {
        oxo_pos p = stack[--sp];
        uint64_t x, o;
        oxo_cells(g, p, &x, &o);
        const uint32_t key = (uint32_t)(x | o << 9);
        if (seen[key >> 3] >> (key & 7) & 1)
            continue;
        seen[key >> 3] |= (uint8_t)(1u << (key & 7));
        char cells[10];
        for (int i = 0; i < 9; i++)
            cells[i] = x >> i & 1 ? 'X' : o >> i & 1 ? 'O' : f_q ? '-' : '_';
        cells[9] = 0;
        int over = oxo_status_of(g, p) != OXO_ONGOING, xm = oxo_x_to_move(g, p);
        if (!f_q) {
            int v, d;
            if (over)
                v = oxo_status_of(g, p) == OXO_OVER_DRAW ? 0 : -1;
            else
                oxo_player_value(pl, p, &v, &d);
            fprintf(f, "%s\n\"%s%d\": %d", first ? "" : ",", cells, xm, xm ? v : -v);
            first = 0;
            (*count)++;
        } else if (!over) {
            oxo_move_info mi[OXO_MAX_MOVES];
            double q[9];
            int n = oxo_player_moves(pl, p, mi);
            double low = 0;
            for (int i = 0; i < n; i++)
                low = mi[i].score < low ? mi[i].score : low;
            /* Taken cells get less than any free one: the app only looks at free cells, but a
             * reader that forgets to would still not pick a taken cell. */
            for (int i = 0; i < 9; i++)
                q[i] = oxo_player_exact(pl) ? -2.0 : low - 1.0;
            for (int i = 0; i < n; i++)
                q[mi[i].move] = oxo_player_exact(pl) ? mi[i].score / 100.0 : mi[i].score;
            fprintf(f, "%s\n  [\"%s\", [", first ? "" : ",", cells);
            for (int i = 0; i < 9; i++)
                fprintf(f, "%s%.9g", i ? ", " : "", q[i]);
            fprintf(f, "]]");
            first = 0;
            (*count)++;
        }
        if (!over) {
            uint64_t legal = oxo_legal(g, p);
            while (legal) {
                int m = __builtin_ctzll(legal);
                legal &= legal - 1;
                stack[sp++] = oxo_play(g, p, m);
            }
        }
    }
    free(seen);
    if (f_q)
        fprintf(f, "\n], \"lr\": 0.1, \"gamma\": 0.9, \"epsilon\": 0.1, \"difficulty\": \"%s\"}\n",
                oxo_player_exact(pl) ? "perfect" : "intermediate");
    else
        fprintf(f, "\n}\n");
    return 0;
}
