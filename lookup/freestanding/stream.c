/*
 * oxo's random stream as a freestanding player draws it: SplitMix64 (lookup/rng.h) and its
 * draw below n by multiply-shift, with the products made from 16-bit halves, since a Cortex-M0
 * has no long multiply and a 64-bit product made gcc call libgcc's __aeabi_lmul, which
 * -nostdlib does not give. The same numbers as rng.h's (test_player draws both side by side), so
 * an exported player picks, for a seed, the move oxo-play picks.
 */
#include "host.h"

/* 32 x 32 -> 64 bits from 16-bit halves. */
static inline uint64_t oxp_mul32(uint32_t a, uint32_t b)
{
    uint32_t al = a & 0xffffu, ah = a >> 16, bl = b & 0xffffu, bh = b >> 16;
    uint64_t mid = (uint64_t)(al * bh) + (ah * bl);
    return ((uint64_t)(ah * bh) << 32) + (mid << 16) + al * bl;
}

/* The low 64 bits of 64 x 64. */
static inline uint64_t oxp_mul64(uint64_t a, uint64_t b)
{
    uint32_t al = (uint32_t)a, ah = (uint32_t)(a >> 32), bl = (uint32_t)b, bh = (uint32_t)(b >> 32);
    return oxp_mul32(al, bl) + ((uint64_t)(al * bh + ah * bl) << 32);
}

static inline uint64_t oxp_next(uint64_t *s)
{
    uint64_t z = *s += 0x9e3779b97f4a7c15u;
    z = oxp_mul64(z ^ (z >> 30), 0xbf58476d1ce4e5b9u);
    z = oxp_mul64(z ^ (z >> 27), 0x94d049bb133111ebu);
    return z ^ (z >> 31);
}

/* A number in [0, n). */
static inline int oxp_below(uint64_t *s, unsigned n)
{
    return (int)(oxp_mul32((uint32_t)(oxp_next(s) >> 32), n) >> 32);
}

/* A move at level 1..10 from the legal moves (n of them) and the best ones (k): with probability
 * (10 - level) / 9 a random legal move, else a best one, ties at random. coin[level] is that
 * probability as oxo-play tests it, (r >> 11) * 2^-53 < (10 - level) / 9, turned into the same
 * test on the 53-bit integer: (r >> 11) < ceil((10 - level) / 9 * 2^53). -1 when there is no
 * move or no such level. */
static inline int oxp_level_pick(const uint64_t *coin, const int *legal, int n, const int *best,
                                 int k, int level, uint64_t *rng)
{
    if (n <= 0 || k <= 0 || level < 1 || level > 10)
        return -1;
    if (oxp_next(rng) >> 11 < coin[level])
        return legal[oxp_below(rng, (unsigned)n)];
    return best[oxp_below(rng, (unsigned)k)];
}
