/*
 * A set of codes as a bitmap with a rank directory: the index of every game position of a solved
 * table. Bit c is set when code c is in the set; rank(c) is the number of codes below c in it, so
 * the members are numbered 0..count-1 in ascending order without storing them. The directory holds
 * the rank of each block of 512 bits (64 bits an entry) and, for each word, the bits before it in
 * its block (16 bits a word, a quarter of the bitmap), so a lookup is three reads and one
 * popcount: no search, whatever the size of the set.
 *
 * The generator builds the bitmap while it enumerates a game; a table stores the bitmap (zstd
 * squeezes its runs of zeros) and a reader rebuilds the directory in one pass, so a table opens
 * without enumerating the game.
 */
#ifndef OXO_KEYSET_H
#define OXO_KEYSET_H

#include <stddef.h>
#include <stdint.h>

#define OXO_KEYSET_BLOCK 8 /* words (of 64 bits) per directory entry */

typedef struct oxo_keyset {
    uint64_t nbits; /* codes are below nbits */
    uint64_t nwords;
    uint64_t *words; /* nwords, rounded up to a whole block (the tail is zero) */
    uint64_t *rank;  /* set bits before each block; rank[nblocks] = count */
    uint16_t *sub;   /* set bits before each word within its block */
    uint64_t count;
} oxo_keyset;

/* An empty set of codes below nbits; -1 when out of memory (or nbits is 0). */
int oxo_keyset_init(oxo_keyset *k, uint64_t nbits);
void oxo_keyset_free(oxo_keyset *k);
/* The bytes a set of nbits takes, bitmap and directory; and its bitmap alone (words, rounded up
 * to whole blocks), what a set holds before its directory is built. */
uint64_t oxo_keyset_bytes(uint64_t nbits);
uint64_t oxo_keyset_bitmap_bytes(uint64_t nbits);
/* Builds the directory once the bits are set. */
int oxo_keyset_build_rank(oxo_keyset *k);

static inline int oxo_keyset_has(const oxo_keyset *k, uint64_t code)
{
    return code < k->nbits && (k->words[code >> 6] >> (code & 63) & 1);
}

/* The number of members below code, or -1 when code is not a member. */
static inline int64_t oxo_keyset_rank(const oxo_keyset *k, uint64_t code)
{
    if (!oxo_keyset_has(k, code))
        return -1;
    uint64_t w = code >> 6;
    return (int64_t)(k->rank[w / OXO_KEYSET_BLOCK] + k->sub[w] +
                     (uint64_t)__builtin_popcountll(k->words[w] & ((1ull << (code & 63)) - 1)));
}

/* Runs the statements that follow for each member of block blk (OXO_KEYSET_BLOCK words) of k:
 * code is the member, idx its rank. A thread that owns whole blocks knows the rank of its first
 * member from the directory, so the generator's passes number members without a search. The
 * statements may `continue` to the next member. */
#define OXO_KEYSET_MEMBERS(k, blk, code, idx, ...)                                                 \
    do {                                                                                           \
        uint64_t next_idx_ = (k)->rank[blk];                                                       \
        for (int i_ = 0; i_ < OXO_KEYSET_BLOCK; i_++) {                                            \
            uint64_t w_ = (uint64_t)(blk)*OXO_KEYSET_BLOCK + (uint64_t)i_, bits_ = (k)->words[w_]; \
            while (bits_) {                                                                        \
                uint64_t code = w_ * 64 + (uint64_t)__builtin_ctzll(bits_), idx = next_idx_++;     \
                bits_ &= bits_ - 1;                                                                \
                __VA_ARGS__                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* The index of code in the ascending codes[lo..hi), or -1: the other index of a set of codes, for
 * sets too sparse for a bitmap (opening books, the book generator's levels). */
static inline int64_t oxo_sorted_find(const uint64_t *codes, size_t lo, size_t hi, uint64_t code)
{
    const size_t end = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (codes[mid] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && codes[lo] == code ? (int64_t)lo : -1;
}

#endif
