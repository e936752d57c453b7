/*
 * An AlphaZero-lite network as liboxo and the freestanding player both evaluate it (lookup/azero.h
 * says what the network is): the inputs of a board, the hidden layers, the policy's logits and
 * the value, and the softmax of the logits over the legal moves. This file owns that arithmetic,
 * once: lookup/azero.c computes every single position through it (the player, the agent's search,
 * the trainer's grading), and oxo-export writes it into the player it exports of an azero model
 * (--form c), so an exported network gives liboxo's scores bit for bit. (The trainer's batches go
 * through a BLAS instead, train/learners/azero_net.c: the same function, summed in another order.)
 */
#include "host.h"
#include "tanh.c"

/* The widest hidden layer: liboxo's bound, or an exported network's own (oxo-export defines it). */
#ifndef oxp_AZ_WIDEST
#define oxp_AZ_WIDEST 1024
#endif

typedef struct oxp_azero {
    int cells, moves, layers;
    const int *width;    /* layers units each */
    const oxp_weight *w; /* the parameters in the model's order (FORMAT.md) */
    int lines, k;        /* lines: 0 when the cells alone are the inputs (see oxp_azero_active) */
    const uint8_t *line; /* lines x k: each winning line's cells, in increasing order */
    int threats;         /* with lines, 1 when the threats' cells are inputs too */
} oxp_azero;

/* The most inputs that are 1 at once: a stone on each cell, a pattern on each line, a threat of
 * each side on each cell. */
#define oxp_AZ_MOST_ACTIVE (64 + 4 * 64 + 2 * 64)

/* e^z for z <= 0 from tanh.c's series, which holds only near 0: z = k ln 2 + r, |r| <= ln 2 / 2,
 * e^z = 2^k e^r, 2^k made from its bits (exact). Below -700, 0. */
static inline double oxp_exp_neg(double z)
{
    if (z < -700)
        return 0;
    const double ln2 = 0.6931471805599453, y = z / ln2 + 0.5;
    int k = (int)y;
    k -= (double)k > y; /* the floor of y, which is below 1 */
    union {
        uint64_t u;
        double d;
    } p;
    p.u = (uint64_t)(k + 1023) << 52;
    return (1.0 + oxp_expm1(z - k * ln2)) * p.d;
}

/* y = W x + b for a layer of `out` units on `in` inputs (W a row a unit, then b), from weight at;
 * returns the weight after the layer's. */
static inline uint32_t oxp_azero_dense(const oxp_weight *w, uint32_t at, int in, int out,
                                       const float *x, float *y)
{
    for (int j = 0; j < out; j++) {
        float sum = 0;
        for (int i = 0; i < in; i++)
            sum += oxp_W(w, at + (uint32_t)(j * in + i)) * x[i];
        y[j] = sum + oxp_W(w, at + (uint32_t)(out * in + j));
    }
    return at + (uint32_t)(out * (in + 1));
}

/* The network's inputs of a board of `cells` cells where the side to move holds mine and the other
 * side theirs: 1 at each cell of mine, then 1 at each cell of theirs (2 cells floats). The
 * trainer's batches are made by it too (oxo_az_inputs). */
static inline void oxp_azero_inputs(int cells, oxp_mask mine, oxp_mask theirs, float *x)
{
    for (int c = 0; c < cells; c++) {
        x[c] = (float)(mine >> c & 1);
        x[cells + c] = (float)(theirs >> c & 1);
    }
}

/* The inputs of a network with lines that are 1 (every input is 0 or 1), in increasing order,
 * into act; returns how many. The inputs: 1 at each cell of mine, then at each cell of theirs (as
 * oxp_azero_inputs), then for each line 2^(k+1) - 1 of them, one for each pattern a line can
 * hold while it can still be completed: empty, the 2^k - 1 fillings by mine alone (the bits of
 * the line's cells in their order), then those by theirs alone. A line holding both sides' stones
 * has none. A line's pattern says in one unit what the cells' units say only together (three of
 * mine and an empty cell: a threat), which a network of two layers learns slowly from the cells
 * alone (train/RECORD.md measured both).
 *
 * With threats, 4 x cells more: a side's threat is an empty cell that would complete a line
 * whose other cells are all that side's; 1 at each threat of mine that a move fills now (a cell
 * of `playable`: the move wins), then at each other threat of mine, then the same two for theirs
 * (one that a move fills now must be taken or lost to). Whether a move fills a threat now (with
 * gravity, whether the cell below it is taken) the lines' patterns say only with the cells
 * around them, and a network of two layers missed one win in five that was there to take
 * (train/RECORD.md, session 50). */
static inline int oxp_azero_active(const oxp_azero *n, oxp_mask mine, oxp_mask theirs,
                                   oxp_mask playable, int *act)
{
    int na = 0;
    for (int c = 0; c < n->cells; c++)
        if (mine >> c & 1)
            act[na++] = c;
    for (int c = 0; c < n->cells; c++)
        if (theirs >> c & 1)
            act[na++] = n->cells + c;
    const int half = (1 << n->k) - 1, per = 2 * half + 1;
    oxp_mask threat[2] = {0, 0}; /* mine, theirs */
    for (int l = 0; l < n->lines; l++) {
        const uint8_t *cell = n->line + l * n->k;
        int m = 0, t = 0;
        for (int j = 0; j < n->k; j++) {
            m |= (int)(mine >> cell[j] & 1) << j;
            t |= (int)(theirs >> cell[j] & 1) << j;
        }
        if (m && t)
            continue;
        act[na++] = 2 * n->cells + l * per + (m ? m : t ? half + t : 0);
        for (int j = 0; j < n->k && (m | t); j++) /* the one empty cell, when a side has the rest */
            if ((m | t) == (half ^ 1 << j))
                threat[!m] |= (oxp_mask)1 << cell[j];
    }
    if (!n->threats)
        return na;
    const oxp_mask plane[4] = {threat[0] & playable, threat[0] & ~playable, threat[1] & playable,
                               threat[1] & ~playable};
    for (int q = 0, at = 2 * n->cells + n->lines * per; q < 4; q++, at += n->cells)
        for (int c = 0; c < n->cells; c++)
            if (plane[q] >> c & 1)
                act[na++] = at + c;
    return na;
}

/* The first hidden layer of a network with lines, into y: its weights are a row an input (inputs x
 * width, then the biases), so that the rows of the inputs that are 1 are summed, in the order of
 * act, then the bias, as the product with the 0s and 1s would sum them. Returns the weight after
 * the layer's. */
static inline uint32_t oxp_azero_sparse(const oxp_weight *w, int in, int out, const int *act,
                                        int na, float *y)
{
    for (int j = 0; j < out; j++)
        y[j] = 0;
    for (int q = 0; q < na; q++) {
        const oxp_weight *row = w + (uint32_t)act[q] * (uint32_t)out;
        for (int j = 0; j < out; j++)
            y[j] += oxp_W(row, j);
    }
    const oxp_weight *bias = w + (uint32_t)in * (uint32_t)out;
    for (int j = 0; j < out; j++)
        y[j] += oxp_W(bias, j);
    return (uint32_t)(out * (in + 1));
}

/* The number of inputs of a network: 2 a cell, 2^(k+1) - 1 a line, and 4 a cell with threats. */
static inline int oxp_azero_ninputs(const oxp_azero *n)
{
    return 2 * n->cells + n->lines * ((2 << n->k) - 1) + (n->threats ? 4 * n->cells : 0);
}

/* The logits of the moves into logits (moves floats) and the value for the side to move, of the
 * board where the side to move holds mine and the other side theirs, and a move fills each cell
 * of playable (which a network with threats reads). */
static inline float oxp_azero_forward(const oxp_azero *n, oxp_mask mine, oxp_mask theirs,
                                      oxp_mask playable, float *logits)
{
    float a[oxp_AZ_WIDEST > 128 ? oxp_AZ_WIDEST : 128], b[oxp_AZ_WIDEST];
    float *x = a, *y = b;
    int in = oxp_azero_ninputs(n), l = 0;
    uint32_t at = 0;
    if (n->lines) {
        int act[oxp_AZ_MOST_ACTIVE];
        const int na = oxp_azero_active(n, mine, theirs, playable, act);
        at = oxp_azero_sparse(n->w, in, n->width[0], act, na, x);
        for (int j = 0; j < n->width[0]; j++)
            x[j] = x[j] > 0 ? x[j] : 0;
        in = n->width[0], l = 1;
    } else
        oxp_azero_inputs(n->cells, mine, theirs, a);
    for (; l < n->layers; l++) {
        at = oxp_azero_dense(n->w, at, in, n->width[l], x, y);
        for (int j = 0; j < n->width[l]; j++)
            y[j] = y[j] > 0 ? y[j] : 0;
        in = n->width[l];
        float *t = x;
        x = y, y = t;
    }
    at = oxp_azero_dense(n->w, at, in, n->moves, x, logits);
    float v;
    oxp_azero_dense(n->w, at, in, 1, x, &v);
    return oxp_tanh(v);
}

/* The softmax of the logits over the moves of `legal` (a mask of move numbers) into prior (0 for
 * the other moves). */
static inline void oxp_azero_softmax(int moves, uint64_t legal, const float *logits, float *prior)
{
    float top = 0;
    int any = 0;
    for (int m = 0; m < moves; m++)
        if (legal >> m & 1 && (!any || logits[m] > top))
            top = logits[m], any = 1;
    double sum = 0;
    for (int m = 0; m < moves; m++) {
        prior[m] = legal >> m & 1 ? (float)oxp_exp_neg((double)logits[m] - top) : 0.0f;
        sum += prior[m];
    }
    for (int m = 0; m < moves; m++)
        prior[m] = (float)(prior[m] / sum);
}

/* A move's score from its prior p: 2 p - 1, in [-1, 1] and in the order of p. */
static inline float oxp_azero_score(float p)
{
    return 2.0f * p - 1.0f;
}
