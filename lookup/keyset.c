/*
 * Bitmaps of codes with a rank directory (see keyset.h).
 */
#include "keyset.h"

#include <stdlib.h>

static uint64_t words_for(uint64_t nbits)
{
    uint64_t w = (nbits + 63) / 64;
    return (w + OXO_KEYSET_BLOCK - 1) / OXO_KEYSET_BLOCK * OXO_KEYSET_BLOCK;
}

uint64_t oxo_keyset_bytes(uint64_t nbits)
{
    uint64_t w = words_for(nbits);
    return 8 * w + 2 * w + 8 * (w / OXO_KEYSET_BLOCK + 1);
}

uint64_t oxo_keyset_bitmap_bytes(uint64_t nbits)
{
    return 8 * words_for(nbits);
}

int oxo_keyset_init(oxo_keyset *k, uint64_t nbits)
{
    k->nbits = nbits;
    k->nwords = words_for(nbits);
    k->count = 0;
    k->rank = NULL;
    k->sub = NULL;
    k->words = nbits ? calloc(k->nwords, sizeof *k->words) : NULL;
    return k->words ? 0 : -1;
}

void oxo_keyset_free(oxo_keyset *k)
{
    free(k->words);
    free(k->rank);
    free(k->sub);
    k->words = k->rank = NULL;
    k->sub = NULL;
}

int oxo_keyset_build_rank(oxo_keyset *k)
{
    const int64_t nblocks = (int64_t)(k->nwords / OXO_KEYSET_BLOCK);
    free(k->rank);
    free(k->sub);
    k->rank = malloc((size_t)(nblocks + 1) * sizeof *k->rank);
    k->sub = malloc((size_t)(k->nwords ? k->nwords : 1) * sizeof *k->sub);
    if (!k->rank || !k->sub)
        return -1;
    /* One pass: 128 MB of bitmap take a few tens of milliseconds. */
    for (int64_t b = 0; b < nblocks; b++) {
        uint64_t c = 0;
        for (int i = 0; i < OXO_KEYSET_BLOCK; i++) {
            k->sub[b * OXO_KEYSET_BLOCK + i] = (uint16_t)c;
            c += (uint64_t)__builtin_popcountll(k->words[b * OXO_KEYSET_BLOCK + i]);
        }
        k->rank[b] = c;
    }
    uint64_t sum = 0;
    for (int64_t b = 0; b < nblocks; b++) {
        uint64_t c = k->rank[b];
        k->rank[b] = sum;
        sum += c;
    }
    k->rank[nblocks] = sum;
    k->count = sum;
    return 0;
}
