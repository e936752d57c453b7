/*
 * Bradley-Terry by MM (see rating.h). With W_i the points of agent i (wins plus half draws) and
 * n_ij the games between i and j, each step sets gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j),
 * which never lowers the likelihood; strengths are renormalised to the anchor after each step.
 */
#include "rating.h"

#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRIOR 0.01

int oxo_bt_fit(int n, const oxo_game_result *games, size_t ngames, int anchor, double *elo)
{
    double *w = calloc((size_t)n, sizeof *w), *g = malloc((size_t)n * sizeof *g),
           *m = calloc((size_t)n * (size_t)n, sizeof *m), *ng = malloc((size_t)n * sizeof *ng);
    if (!w || !g || !m || !ng) {
        free(w), free(g), free(m), free(ng);
        return -1;
    }
    for (size_t k = 0; k < ngames; k++) {
        const oxo_game_result *r = &games[k];
        w[r->a] += r->score;
        w[r->b] += 1.0 - r->score;
        m[r->a * n + r->b] += 1;
        m[r->b * n + r->a] += 1;
    }
    for (int i = 0; i < n; i++) {
        g[i] = 1.0;
        for (int j = 0; j < n; j++)
            if (j != i) {
                w[i] += PRIOR / 2;
                m[i * n + j] += PRIOR;
            }
    }
    int it;
    for (it = 1; it <= 100000; it++) {
        double change = 0;
        for (int i = 0; i < n; i++) {
            double d = 0;
            for (int j = 0; j < n; j++)
                if (j != i && m[i * n + j] > 0)
                    d += m[i * n + j] / (g[i] + g[j]);
            ng[i] = d > 0 ? w[i] / d : g[i];
        }
        double ref = ng[anchor];
        for (int i = 0; i < n; i++) {
            ng[i] /= ref;
            double c = fabs(log(ng[i]) - log(g[i]));
            change = c > change ? c : change;
            g[i] = ng[i];
        }
        if (change < 1e-10)
            break;
    }
    for (int i = 0; i < n; i++)
        elo[i] = 400.0 * log10(g[i]);
    free(w), free(g), free(m), free(ng);
    return it;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int oxo_bt_bootstrap(int n, const oxo_game_result *games, size_t ngames, int anchor, int rounds,
                     uint64_t seed, double *low, double *high)
{
    oxo_game_result *sample = malloc((ngames ? ngames : 1) * sizeof *sample);
    double *all = malloc((size_t)rounds * (size_t)n * sizeof *all),
           *col = malloc((size_t)rounds * sizeof *col);
    if (!sample || !all || !col) {
        free(sample), free(all), free(col);
        return -1;
    }
    for (int r = 0; r < rounds; r++) {
        uint64_t s = oxo_rng_stream(seed, (uint64_t)r);
        for (size_t k = 0; k < ngames; k++)
            sample[k] = games[(size_t)(((oxo_rng_next(&s) >> 32) * (uint64_t)ngames) >> 32)];
        if (oxo_bt_fit(n, sample, ngames, anchor, all + (size_t)r * (size_t)n) < 0) {
            free(sample), free(all), free(col);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < rounds; r++)
            col[r] = all[(size_t)r * (size_t)n + (size_t)i];
        qsort(col, (size_t)rounds, sizeof *col, cmp_double);
        low[i] = col[(int)floor(0.025 * (rounds - 1))];
        high[i] = col[(int)ceil(0.975 * (rounds - 1))];
    }
    free(sample), free(all), free(col);
    return 0;
}
