/*
 * What every game shares: opening a game by its spec through the registry of families, the
 * canonical image by smallest code, the winning lines as people see them, random positions.
 */
#include "game.h"

#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oxo_spec_numbers(const char *s, int *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (*s < '0' || *s > '9')
            return -1;
        long x = 0;
        while (*s >= '0' && *s <= '9') {
            x = 10 * x + (*s++ - '0');
            if (x > 64)
                return -1;
        }
        v[i] = (int)x;
        if (i + 1 < n && *s++ != ',')
            return -1;
    }
    return *s ? -1 : 0;
}

const char *oxo_game_specs(char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = 0;
    for (int i = 0; oxo_families[i] && n < cap; i++) {
        int w = snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", oxo_families[i]->specs);
        n += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

oxo_game *oxo_game_open(const char *spec, oxo_error *err)
{
    oxo_game *g = calloc(1, sizeof *g);
    if (!g) {
        oxo_fail(err, OXO_E_NOMEM, "game '%s'", spec ? spec : "");
        return NULL;
    }
    if (!spec)
        spec = "";
    const oxo_family *f = NULL;
    for (int i = 0; oxo_families[i] && !f; i++)
        if (oxo_families[i]->claims(spec))
            f = oxo_families[i];
    if (!f) {
        char specs[400];
        oxo_fail(err, OXO_E_ARG, "unknown game '%s'; expected %s", spec,
                 oxo_game_specs(specs, sizeof specs));
    }
    if (!f || f->init(g, spec, err)) {
        oxo_game_free(g);
        return NULL;
    }
    for (int s = 0; s < g->nsym; s++)
        for (int t = 0; t < g->nsym; t++) {
            int ok = 1;
            for (int m = 0; m < g->moves; m++)
                ok &= oxo_transform_move(g, oxo_transform_move(g, m, s), t) == m;
            if (ok)
                g->inverse[s] = t;
        }
    return g;
}

void oxo_game_free(oxo_game *g)
{
    if (!g)
        return;
    if (g->ops && g->ops->free)
        g->ops->free(g);
    free(g);
}

int oxo_game_same(const oxo_game *a, const oxo_game *b)
{
    return a == b || (a && b && !strcmp(a->spec, b->spec));
}

const oxo_game *oxo_tictactoe(void)
{
    static oxo_game *g;
    if (!g)
        g = oxo_game_open("tictactoe", NULL);
    return g;
}

uint64_t oxo_choose_sat(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    if (k > n - k)
        k = n - k;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++) {
        /* r * (n - k + i) / i is a binomial, so i / gcd(r, i) divides n - k + i: divided first,
         * nothing overflows before the result does. */
        uint64_t a = r, b = (uint64_t)i;
        while (b) { /* a = gcd(r, i) */
            uint64_t t = a % b;
            a = b;
            b = t;
        }
        if (__builtin_mul_overflow(r / a, (uint64_t)(n - k + i) / ((uint64_t)i / a), &r))
            return UINT64_MAX;
    }
    return r;
}

uint64_t oxo_positions_most(const oxo_game *g, int depth)
{
    uint64_t sum = 0;
    for (int k = 0; k <= depth && k <= g->cells; k++)
        if (__builtin_add_overflow(sum, g->ops->positions_most(g, k), &sum))
            return UINT64_MAX;
    return sum;
}

int oxo_orbit_size(const oxo_game *g, oxo_pos p)
{
    if (g->ops->orbit_size)
        return g->ops->orbit_size(g, p);
    uint64_t seen[OXO_MAX_SYM];
    int k = 0;
    for (int y = 0; y < g->nsym; y++) {
        uint64_t c = oxo_code(g, oxo_transform(g, p, y));
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= seen[j] == c;
        if (!dup)
            seen[k++] = c;
    }
    return k;
}

uint64_t oxo_canonical_code(const oxo_game *g, oxo_pos p, int *sym)
{
    if (g->ops->canonical_code)
        return g->ops->canonical_code(g, p, sym);
    return oxo_code(g, oxo_canonical(g, p, sym));
}

oxo_pos oxo_canonical(const oxo_game *g, oxo_pos p, int *sym)
{
    oxo_pos best = p;
    uint64_t best_code = oxo_code(g, p);
    int best_sym = 0;
    for (int s = 1; s < g->nsym; s++) {
        oxo_pos t = oxo_transform(g, p, s);
        uint64_t c = oxo_code(g, t);
        /* Games too large for a unique code (m,n,k boards over 40 cells) compare the masks. */
        int less =
            g->code_bits ? c < best_code : t.me < best.me || (t.me == best.me && t.opp < best.opp);
        if (less) {
            best = t;
            best_code = c;
            best_sym = s;
        }
    }
    if (sym)
        *sym = best_sym;
    return best;
}

int oxo_random_position(const oxo_game *g, int min_stones, uint64_t *rng, oxo_pos *out, int *moves)
{
    int stop = min_stones + (int)oxo_rng_below(rng, (uint32_t)(g->max_plies - min_stones));
    oxo_pos p = oxo_start(g);
    int ply = 0;
    for (; ply < stop && oxo_status_of(g, p) == OXO_ONGOING; ply++) {
        int m = oxo_rng_bit(rng, oxo_legal(g, p));
        if (moves)
            moves[ply] = m;
        p = oxo_play(g, p, m);
    }
    if (oxo_status_of(g, p) != OXO_ONGOING || ply < min_stones)
        return -1;
    *out = p;
    return ply;
}

int oxo_cell_maps(const oxo_game *g, uint8_t cell[OXO_MAX_SYM * 64], uint8_t move[OXO_MAX_SYM * 64])
{
    const int w = g->cols, h = g->rows;
    int n = 0;
    for (int s = 0; s < 8; s++) {
        const int hh = (s & 4) ? w : h, ww = (s & 4) ? h : w; /* the shape after transposing */
        if (hh != h || ww != w || (g->gravity && (s & 6)))
            continue;
        uint8_t *map = cell + n * g->cells;
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++) {
                int rr = (s & 4) ? c : r, cc = (s & 4) ? r : c;
                if (s & 1)
                    cc = ww - 1 - cc;
                if (s & 2)
                    rr = hh - 1 - rr;
                map[r * w + c] = (uint8_t)(rr * w + cc);
            }
        for (int m = 0; m < g->moves; m++)
            move[n * g->moves + m] = g->gravity ? (uint8_t)((s & 1) ? w - 1 - m : m) : map[m];
        n++;
    }
    return n;
}

const int oxo_line_dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

int oxo_cell_lines(const oxo_game *g, uint64_t lines[OXO_MAX_LINES])
{
    const int(*dirs)[2] = oxo_line_dirs;
    const int w = g->cols, h = g->rows, k = g->k;
    int n = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            for (int d = 0; d < 4; d++) {
                int er = r + dirs[d][0] * (k - 1), ec = c + dirs[d][1] * (k - 1);
                if (er < 0 || er >= h || ec < 0 || ec >= w)
                    continue;
                uint64_t m = 0;
                for (int i = 0; i < k; i++)
                    m |= 1ull << ((r + dirs[d][0] * i) * w + c + dirs[d][1] * i);
                lines[n++] = m;
            }
    return n;
}
