/*
 * Builds the explicit state space ply by ply: the children of ply k are collected, sorted by code
 * and deduplicated to form ply k+1, so no growable hash is needed while enumerating. The hash built
 * at the end serves lookups by code (the player and the grader map real boards to nodes with it).
 */
#include "space.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t code;
    oxo_pos pos;
} item;

static int cmp_item(const void *a, const void *b)
{
    uint64_t x = ((const item *)a)->code, y = ((const item *)b)->code;
    return (x > y) - (x < y);
}

static uint32_t hslot(uint64_t code, uint32_t mask)
{
    return (uint32_t)((code * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

void oxo_space_free(oxo_space *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->code);
    free(s->ply);
    free(s->status);
    free(s->first);
    free(s->emove);
    free(s->echild);
    free(s->ply_first);
    free(s->hkey_idx);
    free(s);
}

int64_t oxo_space_find(const oxo_space *s, uint64_t code)
{
    for (uint32_t h = hslot(code, s->hmask);; h = (h + 1) & s->hmask) {
        uint32_t i = s->hkey_idx[h];
        if (i == UINT32_MAX)
            return -1;
        if (s->code[i] == code)
            return i;
    }
}

int64_t oxo_space_locate(const oxo_space *s, oxo_pos p, int *sym)
{
    int t = 0;
    if (s->symmetric)
        p = oxo_canonical(s->game, p, &t);
    if (sym)
        *sym = t;
    return oxo_space_find(s, s->game->code(p));
}

int64_t oxo_space_edge(const oxo_space *s, uint32_t node, int move)
{
    for (uint32_t e = s->first[node]; e < s->first[node + 1]; e++)
        if (s->emove[e] == move)
            return e;
    return -1;
}

static item make_item(const oxo_game *g, oxo_pos p, int symmetric)
{
    if (symmetric)
        p = oxo_canonical(g, p, NULL);
    return (item){g->code(p), p};
}

oxo_space *oxo_space_build(const oxo_game *g, int symmetric)
{
    oxo_space *s = calloc(1, sizeof *s);
    item *all = NULL, *next = NULL;
    size_t cap = 1024, n = 0;
    if (!s)
        return NULL;
    s->game = g;
    s->symmetric = symmetric;
    s->ply_first = calloc((size_t)g->max_plies + 2, sizeof *s->ply_first);
    all = malloc(cap * sizeof *all);
    if (!s->ply_first || !all)
        goto fail;
    all[n++] = make_item(g, g->start(), symmetric);
    size_t lo = 0, hi = 1; /* the current ply is all[lo..hi) */
    int ply = 0;
    s->ply_first[0] = 0;
    while (lo < hi) {
        size_t nn = 0, ncap = 16;
        next = malloc(ncap * sizeof *next);
        if (!next)
            goto fail;
        for (size_t i = lo; i < hi; i++) {
            uint64_t legal = g->legal(all[i].pos);
            while (legal) {
                int m = __builtin_ctzll(legal);
                legal &= legal - 1;
                if (nn == ncap) {
                    item *t = realloc(next, (ncap *= 2) * sizeof *next);
                    if (!t)
                        goto fail;
                    next = t;
                }
                next[nn++] = make_item(g, g->play(all[i].pos, m), symmetric);
            }
        }
        qsort(next, nn, sizeof *next, cmp_item);
        size_t u = 0;
        for (size_t i = 0; i < nn; i++)
            if (u == 0 || next[i].code != next[u - 1].code)
                next[u++] = next[i];
        if (n + u > cap) {
            while (n + u > cap)
                cap *= 2;
            item *t = realloc(all, cap * sizeof *all);
            if (!t)
                goto fail;
            all = t;
        }
        memcpy(all + n, next, u * sizeof *next);
        free(next);
        next = NULL;
        lo = hi;
        hi = n += u;
        s->ply_first[++ply] = (uint32_t)lo;
    }
    s->max_ply = ply - 1;
    for (int k = ply; k <= g->max_plies + 1; k++)
        s->ply_first[k] = (uint32_t)n;
    s->n = (uint32_t)n;

    s->pos = malloc(n * sizeof *s->pos);
    s->code = malloc(n * sizeof *s->code);
    s->ply = malloc(n);
    s->status = malloc(n);
    s->first = malloc((n + 1) * sizeof *s->first);
    uint32_t hcap = 16;
    while (hcap < 2 * n)
        hcap *= 2;
    s->hmask = hcap - 1;
    s->hkey_idx = malloc((size_t)hcap * sizeof *s->hkey_idx);
    if (!s->pos || !s->code || !s->ply || !s->status || !s->first || !s->hkey_idx)
        goto fail;
    memset(s->hkey_idx, 0xff, (size_t)hcap * sizeof *s->hkey_idx);
    uint32_t nedges = 0;
    for (uint32_t i = 0; i < n; i++) {
        s->pos[i] = all[i].pos;
        s->code[i] = all[i].code;
        s->ply[i] = (uint8_t)oxo_ply(all[i].pos);
        s->status[i] = (uint8_t)g->status(all[i].pos);
        s->first[i] = nedges;
        nedges += (uint32_t)oxo_popcount(g->legal(all[i].pos));
        uint32_t h = hslot(all[i].code, s->hmask);
        while (s->hkey_idx[h] != UINT32_MAX)
            h = (h + 1) & s->hmask;
        s->hkey_idx[h] = i;
    }
    s->first[n] = nedges;
    s->nedges = nedges;
    s->emove = malloc(nedges ? nedges : 1);
    s->echild = malloc((nedges ? nedges : 1) * sizeof *s->echild);
    if (!s->emove || !s->echild)
        goto fail;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t legal = g->legal(s->pos[i]);
        uint32_t e = s->first[i];
        while (legal) {
            int m = __builtin_ctzll(legal);
            legal &= legal - 1;
            item c = make_item(g, g->play(s->pos[i], m), symmetric);
            s->emove[e] = (uint8_t)m;
            s->echild[e] = (uint32_t)oxo_space_find(s, c.code);
            e++;
        }
    }
    free(all);
    return s;
fail:
    free(all);
    free(next);
    oxo_space_free(s);
    return NULL;
}
