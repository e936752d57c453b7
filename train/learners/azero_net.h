/*
 * AlphaZero-lite's networks in batches, for the trainer (train/learners/azero.c): the forward pass
 * of many positions at once, the gradient of the loss over a batch, and Adam. The matrix products
 * go through OpenBLAS's cblas_sgemm where the build found it (OXO_HAVE_OPENBLAS), else through
 * plain loops, which make bench runs beside it on the same network as the baseline.
 */
#ifndef OXO_AZERO_NET_H
#define OXO_AZERO_NET_H

#include "azero.h"

#include <stddef.h>

/* Scratch of a batch of up to `rows` positions of a shape (az_batch_new). */
typedef struct az_batch {
    const oxo_az_shape *s;
    int rows;
    float *x;                    /* rows x inputs, without lines */
    int *act, *nact;             /* with lines: rows x most, the inputs that are 1; their count */
    int most;                    /* cells + lines */
    float *h[OXO_AZ_MAX_LAYERS]; /* each hidden layer's outputs, rows x width */
    float *logits;               /* rows x moves */
    float *value;                /* rows */
    float *dh, *dh2;             /* the gradient at a layer's outputs, rows x widest */
    float *dlogits, *dvalue;     /* rows x moves, rows */
} az_batch;

int az_batch_new(az_batch *b, const oxo_az_shape *s, int rows);
void az_batch_free(az_batch *b);
/* Row i of the batch: the inputs of position p of game g. */
void az_batch_set(az_batch *b, int i, const oxo_game *g, oxo_pos p);

/* Whether the products go through a BLAS (1) or the plain loops (0); the bench sets it. */
void az_use_blas(int on);
int az_blas(void);
/* What the products go through, for reports: "OpenBLAS cblas_sgemm" or "plain loops". */
const char *az_gemm_name(void);

/* The forward pass of the n positions set in b (n <= rows), with weights w:
 * b->logits and b->value (tanh), keeping each layer's outputs for az_backward. */
void az_forward(az_batch *b, const float *w, int n);
/* After az_forward on the same n positions: the gradient of the mean loss over them
 * (value - z)^2 - sum_m pi_m log p_m (p: the softmax of the logits over the legal moves, legal[i]
 * the mask of position i; pi: n x moves targets; z: n results) added to grad (one a parameter). */
double az_backward(az_batch *b, const float *w, int n, const float *pi, const float *z,
                   const uint64_t *legal, float *grad);
/* One step of Adam (Kingma and Ba, 2015: beta1 0.9, beta2 0.999, eps 1e-8) with learning rate lr
 * and L2 weight decay wd on np parameters: m and v its moments, step its count after this one. */
void az_adam(float *w, const float *grad, float *m, float *v, size_t np, double lr, double wd,
             uint64_t step);

#endif
