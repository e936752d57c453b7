/*
 * An n-tuple network as liboxo and the freestanding player both evaluate it: the index each tuple
 * reads on each image of the board, the weights they select summed, and tanh of the sum (tanh.c).
 * This file owns that arithmetic, once: lookup/ntuple.c computes every network value through it
 * (the trainer and the player), and oxo-export writes it into the player it exports of a network
 * (--form c), so an exported network gives liboxo's values bit for bit.
 */
#include "host.h"
#include "tanh.c"

typedef struct oxp_net {
    int cells, width, gravity;
    int count, slots; /* tuples, and slots: (image, tuple) pairs, image * count + tuple */
    int sets;         /* 1, or 2: the second player's weights after the first's */
    uint32_t per_set;
    const uint32_t *off; /* count: each tuple's first weight within a set */
    const uint32_t
        *dig; /* what cell i of tuple t adds to its index in state s (0 empty, 1 the
               * mover's, 2 the other's, 3 empty and playable), at (t * len + i) * 4 + s */
    /* Where each cell is read: cell c's reads are [occ_first[c], occ_first[c + 1]), each a slot
     * and a row of dig. */
    const uint32_t *occ_first, *occ_dig;
    const uint16_t *occ_slot;
    const oxp_weight *w;
} oxp_net;

/* The free cells a move can fill with gravity: on a stone or on the bottom row (the cell below
 * cell i is i + width); none without. */
static inline oxp_mask oxp_net_playable(const oxp_net *n, oxp_mask occ)
{
    if (!n->gravity)
        return 0;
    const oxp_mask all = (oxp_mask)((((oxp_mask)1 << (n->cells - 1)) << 1) - 1),
                   bottom = all & ~(all >> n->width);
    return ~occ & all & ((occ >> n->width) | bottom);
}

#ifndef oxp_CTZ
/* The number of the lowest set bit of m (not 0). liboxo gives its compiler's instruction instead
 * (host.h); a player keeps to C, since a builtin may call a library -nostdlib does not give. */
static inline int oxp_ctz(oxp_mask m)
{
    int c = 0;
    while (!(m >> c & 1))
        c++;
    return c;
}
#define oxp_CTZ(m) oxp_ctz(m)
#endif

/* Adds what cell c in state s contributes wherever it is read, into idx. */
static inline void oxp_net_add(const oxp_net *n, uint32_t *idx, int c, int s)
{
    for (uint32_t e = n->occ_first[c]; e < n->occ_first[c + 1]; e++)
        idx[n->occ_slot[e]] += n->dig[(uint32_t)n->occ_dig[e] * 4 + (uint32_t)s];
}

/* The indexes of a board read from the side of the owner of `mine`, who is the second player
 * when `second` is set (with two weight sets, its indexes point into the second). An empty cell
 * adds 0 wherever it is read, so each index starts at its tuple's first weight and only the
 * stones and the playable cells are added, cell by cell through the lists of where each is read:
 * a third fewer additions than every cell of every slot on a board half full. */
static inline void oxp_net_indexes(const oxp_net *n, oxp_mask mine, oxp_mask theirs, int second,
                                   uint32_t *idx)
{
    const uint32_t base = second && n->sets == 2 ? n->per_set : 0;
    for (int slot = 0, t = 0; slot < n->slots; slot++, t = t + 1 == n->count ? 0 : t + 1)
        idx[slot] = base + n->off[t];
    for (oxp_mask b = mine; b; b &= b - 1)
        oxp_net_add(n, idx, oxp_CTZ(b), 1);
    for (oxp_mask b = theirs; b; b &= b - 1)
        oxp_net_add(n, idx, oxp_CTZ(b), 2);
    for (oxp_mask b = oxp_net_playable(n, mine | theirs); b; b &= b - 1)
        oxp_net_add(n, idx, oxp_CTZ(b), 3);
}

/* The weights k indexes select, summed in four partial sums: one chain of additions would wait
 * out the latency of each (140 of them per afterstate on Connect-4), while four let the loads and
 * adds overlap. Every caller sums this way, so a trainer and a player give the same value bit for
 * bit. */
static inline float oxp_net_sum(const oxp_weight *w, const uint32_t *idx, int k)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= k; i += 4) {
        s0 += oxp_W(w, idx[i]);
        s1 += oxp_W(w, idx[i + 1]);
        s2 += oxp_W(w, idx[i + 2]);
        s3 += oxp_W(w, idx[i + 3]);
    }
    for (; i < k; i++)
        s0 += oxp_W(w, idx[i]);
    return (s0 + s1) + (s2 + s3);
}

/* The network's value of a board for the owner of `mine` (the second player when `second` is
 * set): tanh of the weights the tuples select on every image, summed. */
static inline float oxp_net_value(const oxp_net *n, oxp_mask mine, oxp_mask theirs, int second)
{
    uint32_t idx[oxp_SLOTS];
    oxp_net_indexes(n, mine, theirs, second, idx);
    return oxp_tanh(oxp_net_sum(n->w, idx, n->slots));
}
