/*
 * What the networks of the freestanding players compute with, written once: a weight read from
 * its bits, and tanh from +, -, *, / alone, so that liboxo (the trainers and the players) and an
 * exported player give the same bits on every IEEE machine. net.c (n-tuple networks) and neat.c
 * (NEAT networks) build on it; an exported network's player has it before them.
 */
#ifndef OXO_FREESTANDING_TANH_C
#define OXO_FREESTANDING_TANH_C

#include "host.h"

/* Fused multiply-adds would round the sums and the series otherwise than written (liboxo is built
 * with -ffp-contract=off; clang contracts by default, GCC not in ISO C mode). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* A weight kept as its bits (an exported network: IEEE single precision). */
static inline float oxp_bits(uint32_t u)
{
    union {
        uint32_t u;
        float f;
    } c;
    c.u = u;
    return c.f;
}

/* tanh written out rather than libm's tanhf: a model's bytes must not depend on the system's
 * library (tanhf is not required to round the same way everywhere, and a trainer calls it at
 * every move). In double, from the exponential: tanh y = expm1(2y) / (expm1(2y) + 2), where
 * expm1(z) = z P(z) for small z (no cancellation) and e^z = 2^n (1 + f P(f)) otherwise, f in
 * [-ln2/2, ln2/2]. P is the exponential's series past its first term, to degree 10 (the next term
 * is below 3e-13 of the sum, far under a float's half unit, 3e-8), evaluated in Estrin's order so
 * that its multiplications overlap. The float result is the correctly rounded tanh but for a value
 * within 3e-13 of a rounding boundary (test_ntuple compares with libm's double tanh). Only +, -,
 * *, / and exact scaling by 2^n: the same bits on every IEEE machine. */
static inline double oxp_expm1(double z)
{
    const double z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    const double a0 = 1.0 + 0.5 * z, a1 = 0.16666666666666666 + 0.041666666666666664 * z,
                 a2 = 0.008333333333333333 + 0.001388888888888889 * z,
                 a3 = 0.0001984126984126984 + 2.48015873015873e-05 * z,
                 a4 = 2.7557319223985893e-06 + 2.755731922398589e-07 * z,
                 a5 = 2.505210838544172e-08;
    const double b0 = a0 + a1 * z2, b1 = a2 + a3 * z2, b2 = a4 + a5 * z2;
    return z * ((b0 + b1 * z4) + b2 * z8);
}

static inline float oxp_tanh(float x)
{
    const double y = x < 0 ? -(double)x : (double)x, t = 2 * y, ln2 = 0.6931471805599453;
    double em1;
    if (y > 9.5) /* tanh 9.5 = 1 - 1.1e-8: 1.0f */
        return x < 0 ? -1.0f : 1.0f;
    if (t < 0.5 * ln2)
        em1 = oxp_expm1(t);
    else {
        const int k = (int)(t / ln2 + 0.5); /* at most 28: 2^k is exact */
        em1 = (1 + oxp_expm1(t - k * ln2)) * (double)(1u << k) - 1;
    }
    const double r = em1 / (em1 + 2);
    return (float)(x < 0 ? -r : r);
}

#endif
