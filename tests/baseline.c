/*
 * The plain solvers `make bench` measures oxo-gen against, written the obvious way on purpose:
 * single-threaded, no symmetry, no bitboards, their own rules.
 *   oxo-baseline mnk W H K   memoised negamax over a dense array of 3^(W*H) entries
 *   oxo-baseline c4 W H      memoised negamax over an open-addressing hash of position keys
 * Each counts the positions it reaches and prints: "<positions> positions, first player: <value>".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int W, H, K, gravity;
static char grid[64]; /* row by row from the top: 0 empty, 1 X, 2 O */
static uint64_t positions;

static int line_at(int r, int c, int dr, int dc, char who)
{
    for (int i = 0; i < K; i++) {
        int rr = r + i * dr, cc = c + i * dc;
        if (rr < 0 || rr >= H || cc < 0 || cc >= W || grid[rr * W + cc] != who)
            return 0;
    }
    return 1;
}

static int has_line(char who)
{
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++)
            if (line_at(r, c, 0, 1, who) || line_at(r, c, 1, 0, who) || line_at(r, c, 1, 1, who) ||
                line_at(r, c, 1, -1, who))
                return 1;
    return 0;
}

static uint64_t code(void)
{
    uint64_t k = 0;
    for (int i = W * H - 1; i >= 0; i--)
        k = 3 * k + (uint64_t)grid[i];
    return k;
}

/* Memo: values + 2 (1 loss, 2 draw, 3 win; 0 unknown), in a dense array or in a hash. */
static uint8_t *dense;
static uint64_t *hkeys, hmask;
static uint8_t *hvals;

static uint8_t *memo(uint64_t k)
{
    if (dense)
        return &dense[k];
    for (uint64_t h = (k * 0x9E3779B97F4A7C15ull) >> 17;; h++) {
        h &= hmask;
        if (hkeys[h] == k + 1)
            return &hvals[h];
        if (!hkeys[h]) {
            hkeys[h] = k + 1;
            return &hvals[h];
        }
    }
}

static int negamax(int ply)
{
    uint8_t *m = memo(code());
    if (*m)
        return *m - 2;
    positions++;
    char me = ply % 2 ? 2 : 1, they = ply % 2 ? 1 : 2;
    int best = -1;
    if (has_line(they))
        best = -1;
    else if (ply == W * H)
        best = 0;
    else
        for (int i = 0; i < W * H; i++) { /* no cut-off: every position is solved and counted */
            int r = i / W;
            if (grid[i] || (gravity && r + 1 < H && !grid[i + W]))
                continue;
            grid[i] = me;
            int v = -negamax(ply + 1);
            grid[i] = 0;
            best = v > best ? v : best;
        }
    *memo(code()) = (uint8_t)(best + 2); /* the hash may have moved nothing: look it up again */
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "mnk") && strcmp(argv[1], "c4"))) {
        fprintf(stderr, "usage: oxo-baseline mnk W H K | c4 W H\n");
        return 2;
    }
    gravity = !strcmp(argv[1], "c4");
    W = atoi(argv[2]), H = atoi(argv[3]), K = gravity ? 4 : argc > 4 ? atoi(argv[4]) : 0;
    if (W < 1 || H < 1 || W * H > 40 || K < 1) {
        fprintf(stderr, "oxo-baseline: bad board\n");
        return 2;
    }
    if (!gravity) {
        uint64_t n = 1;
        for (int i = 0; i < W * H; i++)
            n *= 3;
        dense = calloc(n, 1);
    } else {
        hmask = (1ull << 28) - 1; /* 268 M slots: room for the 95 M positions of connect4:6,4 */
        hkeys = calloc(hmask + 1, sizeof *hkeys);
        hvals = calloc(hmask + 1, 1);
    }
    if (!dense && !hkeys) {
        fprintf(stderr, "oxo-baseline: out of memory\n");
        return 1;
    }
    int v = negamax(0);
    printf("%llu positions, first player: %s\n", (unsigned long long)positions,
           v > 0   ? "win"
           : v < 0 ? "loss"
                   : "draw");
    return 0;
}
