/*
 * SplitMix64: a tiny, fast, well-mixed generator whose whole state is one integer, so a stream can
 * be keyed to a unit of work (an episode, a worker, a game) by hashing that unit's number with the
 * seed. That is what makes results independent of the thread count.
 */
#ifndef OXO_RNG_H
#define OXO_RNG_H

#include <stdint.h>

static inline uint64_t oxo_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t oxo_rng_next(uint64_t *s)
{
    return oxo_mix64(*s += 0x9e3779b97f4a7c15ull);
}

/* A stream for unit `unit` of a run seeded with `seed`. */
static inline uint64_t oxo_rng_stream(uint64_t seed, uint64_t unit)
{
    return oxo_mix64(seed ^ oxo_mix64(unit + 0x632be59bd9b4e019ull));
}

/* Uniform integer in [0, n), n < 2^32 (multiply-shift: no division, bias below 2^-32). */
static inline uint32_t oxo_rng_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((oxo_rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* The number of a uniformly drawn set bit of mask (not 0): a random legal move, say. */
static inline int oxo_rng_bit(uint64_t *s, uint64_t mask)
{
    uint32_t j = oxo_rng_below(s, (uint32_t)__builtin_popcountll(mask));
    while (j--)
        mask &= mask - 1;
    return __builtin_ctzll(mask);
}

/* Uniform double in [0, 1). */
static inline double oxo_rng_unit(uint64_t *s)
{
    return (double)(oxo_rng_next(s) >> 11) * 0x1.0p-53;
}

#endif
