/*
 * AlphaZero-lite's networks in batches (see azero_net.h): forward, gradient and Adam, with the
 * matrix products through OpenBLAS's cblas_sgemm or plain loops. OpenBLAS runs on one thread of
 * its own here: the trainer's parallelism is its self-play games, one OpenMP thread a group of
 * them, and a product that split itself over threads would sum in an order that depends on their
 * number. A network with lines (lookup/azero.h) reads a few of its many inputs at a time: its first
 * layer sums the rows of the inputs that are 1, and its gradient goes to those rows alone, as
 * the product with the 0s and 1s would give.
 */
#include "azero_net.h"

#include "freestanding/tanh.c"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef OXO_HAVE_OPENBLAS
#include <cblas.h>
static int use_blas = 1;
#else
static int use_blas = 0;
#endif

void az_use_blas(int on)
{
#ifdef OXO_HAVE_OPENBLAS
    use_blas = on != 0;
#else
    (void)on;
#endif
}

int az_blas(void)
{
    return use_blas;
}

const char *az_gemm_name(void)
{
    return use_blas ? "OpenBLAS cblas_sgemm" : "plain loops";
}

/* C (m x n, row-major, ldc) = A' B' + beta C, A' = A (m x k) or its transpose (A: k x m), B' = B
 * (k x n) or its transpose (B: n x k). */
static void gemm(int ta, int tb, int m, int n, int k, const float *a, int lda, const float *b,
                 int ldb, float beta, float *c, int ldc)
{
#ifdef OXO_HAVE_OPENBLAS
    if (use_blas) {
        static int one_thread;
        if (!__atomic_load_n(&one_thread, __ATOMIC_ACQUIRE)) {
            openblas_set_num_threads(1);
            __atomic_store_n(&one_thread, 1, __ATOMIC_RELEASE);
        }
        cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                    m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
        return;
    }
#endif
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0;
            for (int q = 0; q < k; q++)
                sum += (ta ? a[(size_t)q * lda + i] : a[(size_t)i * lda + q]) *
                       (tb ? b[(size_t)j * ldb + q] : b[(size_t)q * ldb + j]);
            float *cij = &c[(size_t)i * ldc + j];
            *cij = beta == 0 ? sum : sum + beta * *cij;
        }
}

int az_batch_new(az_batch *b, const oxo_az_shape *s, int rows)
{
    memset(b, 0, sizeof *b);
    b->s = s;
    b->rows = rows;
    int widest = s->lines ? 1 : s->inputs; /* with lines, no gradient goes to the inputs */
    for (int l = 0; l < s->layers; l++)
        widest = s->width[l] > widest ? s->width[l] : widest;
    const size_t r = (size_t)rows;
    b->most = s->cells + s->lines + (s->threats ? 2 * s->cells : 0); /* a threat a side a cell */
    int bad = s->lines ? !(b->act = malloc(r * (size_t)b->most * sizeof(int))) ||
                             !(b->nact = malloc(r * sizeof(int)))
                       : !(b->x = malloc(r * (size_t)s->inputs * sizeof(float)));
    for (int l = 0; l < s->layers; l++)
        bad |= !(b->h[l] = malloc(r * (size_t)s->width[l] * sizeof(float)));
    bad |= !(b->logits = malloc(r * (size_t)s->moves * sizeof(float)));
    bad |= !(b->dlogits = malloc(r * (size_t)s->moves * sizeof(float)));
    bad |= !(b->value = malloc(r * sizeof(float)));
    bad |= !(b->dvalue = malloc(r * sizeof(float)));
    bad |= !(b->dh = malloc(r * (size_t)widest * sizeof(float)));
    bad |= !(b->dh2 = malloc(r * (size_t)widest * sizeof(float)));
    if (bad) {
        az_batch_free(b);
        return -1;
    }
    return 0;
}

void az_batch_free(az_batch *b)
{
    free(b->x);
    free(b->act);
    free(b->nact);
    for (int l = 0; l < OXO_AZ_MAX_LAYERS; l++)
        free(b->h[l]);
    free(b->logits);
    free(b->dlogits);
    free(b->value);
    free(b->dvalue);
    free(b->dh);
    free(b->dh2);
    memset(b, 0, sizeof *b);
}

void az_batch_set(az_batch *b, int i, const oxo_game *g, oxo_pos p)
{
    if (b->s->lines)
        b->nact[i] = oxo_az_active(b->s, g, p, b->act + (size_t)i * b->most);
    else
        oxo_az_inputs(g, p, b->x + (size_t)i * b->s->inputs);
}

/* The first layer of a network with lines: each row's sum of the weights' rows of its inputs that
 * are 1, in their order, then the bias, rectified: lookup/freestanding/azero.c's sums, in the
 * same order, but 16 units at a time, their sums held in acc over the rows: a loop of known
 * length, which the compiler vectorises at -O2 (self-play spends most of its time here; the
 * player's plainer loop keeps the tiny player small). */
static void sparse_forward(az_batch *b, const float *w, int n)
{
    const int in = b->s->inputs, out = b->s->width[0];
    const float *bias = w + (size_t)in * out;
    for (int i = 0; i < n; i++) {
        float *h = b->h[0] + (size_t)i * out;
        const int *act = b->act + (size_t)i * b->most, na = b->nact[i];
        int j0 = 0;
        for (; j0 + 16 <= out; j0 += 16) {
            float acc[16] = {0};
            for (int q = 0; q < na; q++) {
                const float *row = w + (size_t)act[q] * out + j0;
                for (int j = 0; j < 16; j++)
                    acc[j] += row[j];
            }
            memcpy(h + j0, acc, sizeof acc);
        }
        for (int j = j0; j < out; j++) {
            float sum = 0;
            for (int q = 0; q < na; q++)
                sum += w[(size_t)act[q] * out + j];
            h[j] = sum;
        }
        for (int j = 0; j < out; j++) {
            const float v = h[j] + bias[j];
            h[j] = v > 0 ? v : 0;
        }
    }
}

/* grad's rows of the inputs that were 1 += d (out long), 16 units at a time as sparse_forward. */
static void sparse_backward(float *grad, int out, const int *act, int na, const float *d)
{
    int j0 = 0;
    for (; j0 + 16 <= out; j0 += 16)
        for (int q = 0; q < na; q++) {
            float *row = grad + (size_t)act[q] * out + j0;
            for (int j = 0; j < 16; j++)
                row[j] += d[j0 + j];
        }
    for (int q = 0; q < na; q++)
        for (int j = j0; j < out; j++)
            grad[(size_t)act[q] * out + j] += d[j];
}

void az_forward(az_batch *b, const float *w, int n)
{
    const oxo_az_shape *s = b->s;
    const float *x = b->x;
    int in = s->inputs, l = 0;
    if (s->lines) {
        sparse_forward(b, w, n);
        w += (size_t)s->width[0] * (in + 1);
        x = b->h[0], in = s->width[0], l = 1;
    }
    for (; l < s->layers; l++) {
        const int out = s->width[l];
        float *h = b->h[l];
        gemm(0, 1, n, out, in, x, in, w, in, 0, h, out);
        const float *bias = w + (size_t)out * in;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < out; j++) {
                const float v = h[(size_t)i * out + j] + bias[j];
                h[(size_t)i * out + j] = v > 0 ? v : 0;
            }
        w += (size_t)out * (in + 1);
        x = h, in = out;
    }
    gemm(0, 1, n, s->moves, in, x, in, w, in, 0, b->logits, s->moves);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < s->moves; m++)
            b->logits[(size_t)i * s->moves + m] += w[(size_t)s->moves * in + m];
    w += (size_t)s->moves * (in + 1);
    for (int i = 0; i < n; i++) {
        float v = 0;
        for (int j = 0; j < in; j++)
            v += x[(size_t)i * in + j] * w[j];
        b->value[i] = oxp_tanh(v + w[in]);
    }
}

double az_backward(az_batch *b, const float *w, int n, const float *pi, const float *z,
                   const uint64_t *legal, float *grad)
{
    const oxo_az_shape *s = b->s;
    const int L = s->layers, M = s->moves;
    size_t off[OXO_AZ_MAX_LAYERS];
    size_t at = 0;
    for (int l = 0, in = s->inputs; l < L; in = s->width[l], l++)
        off[l] = at, at += (size_t)s->width[l] * (in + 1);
    const int last = s->width[L - 1];
    const size_t offp = at, offv = at + (size_t)M * (last + 1);
    double loss = 0;
    const float inv = 1.0f / (float)n;
    for (int i = 0; i < n; i++) {
        float p[OXO_MAX_MOVES];
        oxo_az_softmax(M, legal[i], b->logits + (size_t)i * M, p);
        for (int m = 0; m < M; m++) {
            const float t = pi[(size_t)i * M + m];
            b->dlogits[(size_t)i * M + m] = (p[m] - t) * inv;
            if (t > 0)
                loss -= t * log(p[m] > 1e-30f ? p[m] : 1e-30);
        }
        const float v = b->value[i], d = v - z[i];
        loss += (double)d * d;
        b->dvalue[i] = 2 * d * (1 - v * v) * inv;
    }
    const float *x = b->h[L - 1];
    /* the heads */
    gemm(1, 0, M, last, n, b->dlogits, M, x, last, 1, grad + offp, last);
    for (int i = 0; i < n; i++)
        for (int m = 0; m < M; m++)
            grad[offp + (size_t)M * last + m] += b->dlogits[(size_t)i * M + m];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < last; j++)
            grad[offv + j] += b->dvalue[i] * x[(size_t)i * last + j];
        grad[offv + last] += b->dvalue[i];
    }
    float *dh = b->dh, *dh2 = b->dh2;
    gemm(0, 0, n, last, M, b->dlogits, M, w + offp, last, 0, dh, last);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < last; j++)
            dh[(size_t)i * last + j] += b->dvalue[i] * w[offv + j];
    /* the hidden layers, the last first */
    for (int l = L - 1; l >= 0; l--) {
        const int out = s->width[l], in = l ? s->width[l - 1] : s->inputs;
        const float *h = b->h[l], *xin = l ? b->h[l - 1] : b->x;
        for (size_t q = 0; q < (size_t)n * out; q++)
            if (h[q] <= 0)
                dh[q] = 0;
        if (!l && s->lines) { /* the rows of the inputs that were 1, the layer a row an input */
            for (int i = 0; i < n; i++)
                sparse_backward(grad + off[0], out, b->act + (size_t)i * b->most, b->nact[i],
                                dh + (size_t)i * out);
        } else
            gemm(1, 0, out, in, n, dh, out, xin, in, 1, grad + off[l], in);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < out; j++)
                grad[off[l] + (size_t)out * in + j] += dh[(size_t)i * out + j];
        if (l) {
            gemm(0, 0, n, in, out, dh, out, w + off[l], in, 0, dh2, in);
            float *t = dh;
            dh = dh2, dh2 = t;
        }
    }
    return loss / n;
}

void az_adam(float *w, const float *grad, float *m, float *v, size_t np, double lr, double wd,
             uint64_t step)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
    /* each parameter on its own: the same bytes on any number of threads, and the second core
     * is otherwise idle while the network trains (a network with lines has 637,192 on 7x6) */
#pragma omp parallel for schedule(static) if (np >= 65536)
    for (size_t i = 0; i < np; i++) {
        const double g = (double)grad[i] + wd * w[i];
        m[i] = (float)(b1 * m[i] + (1 - b1) * g);
        v[i] = (float)(b2 * v[i] + (1 - b2) * g * g);
        w[i] = (float)(w[i] - lr * (m[i] / c1) / (sqrt(v[i] / c2) + eps));
    }
}
