/*
 * Builds the explicit state space ply by ply: the children of ply k are collected, sorted by code
 * and deduplicated to form ply k+1, so no growable hash is needed while enumerating. The hash built
 * at the end serves lookups by code (the player and the grader map real boards to nodes with it).
 */
#include "space.h"

#include "table.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t code;
    oxo_pos pos;
} item;

/* LSD radix sort by code, 8 bits a pass, skipping the high bytes no code uses (tic-tac-toe codes
 * fit in 15 bits: two passes). tmp holds n items. */
static void sort_items(item *v, item *tmp, size_t n)
{
    uint64_t all = 0;
    for (size_t i = 0; i < n; i++)
        all |= v[i].code;
    for (int shift = 0; shift < 64 && (all >> shift); shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((v[i].code >> shift) & 0xff) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[(v[i].code >> shift) & 0xff]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
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
    return oxo_space_find(s, oxo_code(s->game, p));
}

int64_t oxo_space_edge(const oxo_space *s, uint32_t node, int move)
{
    for (uint32_t e = s->first[node]; e < s->first[node + 1]; e++)
        if (s->emove[e] == move)
            return e;
    return -1;
}

int oxo_space_count(const oxo_space *s, oxo_table_counts *c)
{
    const oxo_game *g = s->game;
    uint64_t *paths = calloc(s->n ? s->n : 1, sizeof *paths);
    int wrapped = 0;
    if (!paths)
        return -1;
    memset(c, 0, sizeof *c);
    paths[0] = 1;
    /* Nodes are ordered by ply, so every parent is counted before its children. */
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t orbit = s->symmetric ? (uint64_t)oxo_orbit_size(g, s->pos[i]) : 1;
        c->positions += orbit;
        wrapped |= __builtin_add_overflow(c->nodes, paths[i], &c->nodes);
        for (uint32_t e = s->first[i]; e < s->first[i + 1]; e++)
            wrapped |= __builtin_add_overflow(paths[s->echild[e]], paths[i], &paths[s->echild[e]]);
        if (s->status[i] == OXO_ONGOING) {
            c->canonical_nonterminal_positions++;
            continue;
        }
        c->terminal_positions += orbit;
        wrapped |= __builtin_add_overflow(c->games, paths[i], &c->games);
        uint64_t *who = s->status[i] == OXO_OVER_DRAW ? &c->draws
                        : oxo_x_to_move(g, s->pos[i]) ? &c->o_wins /* X to move and lost */
                                                      : &c->x_wins;
        *who += paths[i];
    }
    c->canonical_positions = s->n;
    if (!s->symmetric) /* canonical figures need the canonical space */
        c->canonical_positions = c->canonical_nonterminal_positions = 0;
    free(paths);
    if (wrapped)
        c->nodes = c->games = c->x_wins = c->o_wins = c->draws = 0;
    return wrapped;
}

static item make_item(const oxo_game *g, oxo_pos p, int symmetric)
{
    if (symmetric)
        p = oxo_canonical(g, p, NULL);
    return (item){oxo_code(g, p), p};
}

/* Appends a child to the next ply unless it is already there (hash on its code): only distinct
 * children are sorted. */
typedef struct {
    item *v;
    size_t n, cap;
    uint64_t *keys; /* code + 1, 0 empty */
    size_t hcap;
} level;

static int level_add(level *l, item it)
{
    if (2 * (l->n + 1) > l->hcap) {
        size_t ncap = l->hcap ? 2 * l->hcap : 1024;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        if (!nk)
            return -1;
        for (size_t i = 0; i < l->n; i++) {
            size_t h = (size_t)((l->v[i].code * 0x9E3779B97F4A7C15ull) >> 20) & (ncap - 1);
            while (nk[h])
                h = (h + 1) & (ncap - 1);
            nk[h] = l->v[i].code + 1;
        }
        free(l->keys);
        l->keys = nk;
        l->hcap = ncap;
    }
    size_t h = (size_t)((it.code * 0x9E3779B97F4A7C15ull) >> 20) & (l->hcap - 1);
    while (l->keys[h]) {
        if (l->keys[h] == it.code + 1)
            return 0;
        h = (h + 1) & (l->hcap - 1);
    }
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 256;
        item *nv = realloc(l->v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        l->v = nv;
        l->cap = ncap;
    }
    l->keys[h] = it.code + 1;
    l->v[l->n++] = it;
    return 0;
}

oxo_space *oxo_space_build(const oxo_game *g, int symmetric)
{
    oxo_space *s = calloc(1, sizeof *s);
    item *all = NULL;
    uint64_t *ecode = NULL; /* the code of every child, in edge order, recorded while enumerating */
    size_t cap = 1024, n = 0, ne = 0, ecap = 4096;
    level next = {0};
    if (!s)
        return NULL;
    s->game = g;
    s->symmetric = symmetric;
    s->ply_first = calloc((size_t)g->max_plies + 2, sizeof *s->ply_first);
    all = malloc(cap * sizeof *all);
    ecode = malloc(ecap * sizeof *ecode);
    if (!s->ply_first || !all || !ecode)
        goto fail;
    all[n++] = make_item(g, oxo_start(g), symmetric);
    size_t lo = 0, hi = 1; /* the current ply is all[lo..hi) */
    int ply = 0;
    s->ply_first[0] = 0;
    while (lo < hi) {
        next.n = 0;
        if (next.keys)
            memset(next.keys, 0, next.hcap * sizeof *next.keys);
        for (size_t i = lo; i < hi; i++) {
            uint64_t legal = oxo_legal(g, all[i].pos);
            while (legal) {
                int m = __builtin_ctzll(legal);
                legal &= legal - 1;
                item c = make_item(g, oxo_play(g, all[i].pos, m), symmetric);
                if (ne == ecap) {
                    uint64_t *t = realloc(ecode, (ecap *= 2) * sizeof *ecode);
                    if (!t)
                        goto fail;
                    ecode = t;
                }
                ecode[ne++] = c.code;
                if (level_add(&next, c))
                    goto fail;
            }
        }
        item *tmp = malloc((next.n ? next.n : 1) * sizeof *tmp);
        if (!tmp)
            goto fail;
        sort_items(next.v, tmp, next.n);
        free(tmp);
        size_t u = next.n;
        if (n + u > cap) {
            while (n + u > cap)
                cap *= 2;
            item *t = realloc(all, cap * sizeof *all);
            if (!t)
                goto fail;
            all = t;
        }
        if (u)
            memcpy(all + n, next.v, u * sizeof *next.v);
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
        s->status[i] = (uint8_t)oxo_status_of(g, all[i].pos);
        s->first[i] = nedges;
        nedges += (uint32_t)oxo_popcount(oxo_legal(g, all[i].pos));
        uint32_t h = hslot(all[i].code, s->hmask);
        while (s->hkey_idx[h] != UINT32_MAX)
            h = (h + 1) & s->hmask;
        s->hkey_idx[h] = i;
    }
    s->first[n] = nedges;
    s->nedges = nedges;
    s->emove = malloc(nedges ? nedges : 1);
    s->echild = malloc((nedges ? nedges : 1) * sizeof *s->echild);
    if (!s->emove || !s->echild || nedges != ne)
        goto fail;
    /* Nodes of each ply were enumerated in the order they are numbered, moves in ascending order:
     * the recorded child codes are already in edge order. */
    for (uint32_t i = 0, e = 0; i < n; i++) {
        uint64_t legal = oxo_legal(g, s->pos[i]);
        while (legal) {
            s->emove[e] = (uint8_t)__builtin_ctzll(legal);
            legal &= legal - 1;
            s->echild[e] = (uint32_t)oxo_space_find(s, ecode[e]);
            e++;
        }
    }
    free(all);
    free(ecode);
    free(next.v);
    free(next.keys);
    return s;
fail:
    free(all);
    free(ecode);
    free(next.v);
    free(next.keys);
    oxo_space_free(s);
    return NULL;
}
