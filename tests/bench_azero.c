/*
 * make bench's AlphaZero-lite figures: on the default network of a game (2 hidden layers of 256
 * units unless told), positions evaluated a second in batches of 16 (self-play's groups) and of
 * 128, and positions trained a second (forward, gradient and Adam on batches of 128), one core,
 * through OpenBLAS's cblas_sgemm and through the plain loops, alternating three times so that a
 * slow spell of this shared machine falls on both; medians and their ratio. Figures, not tests.
 *   oxo-bench-azero [GAME [WIDTH [LAYERS [LINES]]]]   (LINES 1: the network reads the lines too)
 */
#include "clock.h"
#include "learners/azero_net.h"
#include "rng.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median3(double *v)
{
    qsort(v, 3, sizeof *v, cmp_double);
    return v[1];
}

/* Positions evaluated a second in batches of `rows`, over about half a second. */
static double evaluate_rate(az_batch *b, const float *w, int rows)
{
    const double t0 = oxo_seconds();
    long n = 0;
    do {
        for (int k = 0; k < 20; k++)
            az_forward(b, w, rows);
        n += 20L * rows;
    } while (oxo_seconds() - t0 < 0.5);
    return (double)n / (oxo_seconds() - t0);
}

/* Positions trained a second in batches of `rows`. */
static double train_rate(az_batch *b, float *w, float *grad, float *m, float *v, size_t np,
                         const float *pi, const float *z, const uint64_t *legal, int rows)
{
    const double t0 = oxo_seconds();
    long n = 0;
    uint64_t step = 0;
    do {
        for (int k = 0; k < 5; k++) {
            memset(grad, 0, np * sizeof *grad);
            az_forward(b, w, rows);
            az_backward(b, w, rows, pi, z, legal, grad);
            az_adam(w, grad, m, v, np, 1e-6, 0, ++step);
        }
        n += 5L * rows;
    } while (oxo_seconds() - t0 < 0.5);
    return (double)n / (oxo_seconds() - t0);
}

int main(int argc, char **argv)
{
    omp_set_num_threads(1); /* one core: Adam would otherwise share its parameters out */
    oxo_error err;
    oxo_game *g = oxo_game_open(argc > 1 ? argv[1] : "connect4", &err);
    if (!g) {
        fprintf(stderr, "oxo-bench-azero: %s\n", err.msg);
        return 2;
    }
    const int width = argc > 2 ? atoi(argv[2]) : 256, layers = argc > 3 ? atoi(argv[3]) : 2,
              lines = argc > 4 ? atoi(argv[4]) : 0;
    uint32_t widths[OXO_AZ_MAX_LAYERS];
    for (int l = 0; l < OXO_AZ_MAX_LAYERS; l++)
        widths[l] = (uint32_t)width;
    oxo_az_shape s;
    if (oxo_az_shape_of(&s, g, widths, layers, lines, &err)) {
        fprintf(stderr, "oxo-bench-azero: %s\n", err.msg);
        return 2;
    }
    const size_t np = (size_t)oxo_az_params(&s);
    float *w = malloc(np * sizeof *w), *grad = malloc(np * sizeof *grad),
          *m = calloc(np, sizeof *m), *v = calloc(np, sizeof *v);
    const int R = 128, M = g->moves;
    float *pi = calloc((size_t)R * M, sizeof *pi), *z = calloc(R, sizeof *z);
    uint64_t *legal = malloc(R * sizeof *legal), rng = 1;
    az_batch b;
    if (!w || !grad || !m || !v || !pi || !z || !legal || az_batch_new(&b, &s, R)) {
        fprintf(stderr, "oxo-bench-azero: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < np; i++)
        w[i] = (float)(oxo_rng_unit(&rng) - 0.5) * 0.1f;
    /* positions along random games, each with a uniform target over its moves */
    oxo_pos p = oxo_start(g);
    for (int i = 0; i < R; i++) {
        if (oxo_status_of(g, p) != OXO_ONGOING)
            p = oxo_start(g);
        az_batch_set(&b, i, g, p);
        legal[i] = oxo_legal(g, p);
        for (int k = 0; k < M; k++)
            pi[(size_t)i * M + k] = legal[i] >> k & 1 ? 1.0f / __builtin_popcountll(legal[i]) : 0;
        p = oxo_play(g, p, oxo_rng_bit(&rng, legal[i]));
    }
    double e16[2][3], e128[2][3], tr[2][3];
    for (int turn = 0; turn < 3; turn++)
        for (int blas = 1; blas >= 0; blas--) {
            az_use_blas(blas);
            e16[blas][turn] = evaluate_rate(&b, w, 16);
            e128[blas][turn] = evaluate_rate(&b, w, 128);
            tr[blas][turn] = train_rate(&b, w, grad, m, v, np, pi, z, legal, 128);
        }
    az_use_blas(1);
    const int blas_on = az_blas();
    printf("  network of %s: %d inputs (%s), %d hidden layer%s of %d units, %zu parameters; one "
           "core, medians of 3 alternating\n",
           g->spec, s.inputs, s.lines ? "cells and lines" : "cells", layers, layers == 1 ? "" : "s",
           width, np);
    if (!blas_on) {
        printf("  (built without OpenBLAS: both columns are the plain loops)\n");
    }
    const char *what[3] = {"positions evaluated a second, batches of 16",
                           "positions evaluated a second, batches of 128",
                           "positions trained a second, batches of 128"};
    double(*rows[3])[3] = {e16, e128, tr};
    printf("  %-46s %14s %14s %8s\n", "", "OpenBLAS", "plain loops", "ratio");
    for (int k = 0; k < 3; k++) {
        const double a = median3(rows[k][1]), c = median3(rows[k][0]);
        printf("  %-46s %14.0f %14.0f %7.1fx\n", what[k], a, c, a / c);
    }
    az_batch_free(&b);
    free(w), free(grad), free(m), free(v), free(pi), free(z), free(legal);
    oxo_game_free(g);
    return 0;
}
