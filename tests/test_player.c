/*
 * The lookup-only player: never loses (exhaustively, against every sequence of opponent moves, as
 * X and as O, whichever of its tied best moves it picks), prefers the fastest win and the slowest
 * loss, breaks ties at random over all best moves, and follows the level mapping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "boardio.h"
#include "peak.h"
#include "player.h"
#include "rng.h"
#include "solve.h"

#include <math.h>

#include "freestanding/host.h"
#include "freestanding/stream.c"

static oxo_player *pl;

static int setup(void **state)
{
    (void)state;
    oxo_error err;
    pl = oxo_player_from_table(oxo_build_table(oxo_tictactoe()), &err);
    return pl ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    oxo_player_close(pl);
    return 0;
}

/* Counts games lost by the player (to move when its side is to move) over every opponent reply
 * and every one of its tied best moves. */
static uint64_t losses(oxo_pos p, int player_is_x, uint64_t *games)
{
    const oxo_game *g = oxo_player_game(pl);
    oxo_status st = oxo_status_of(g, p);
    if (st != OXO_ONGOING) {
        (*games)++;
        /* The side to move lost: that is the player when it is the player's turn. */
        return st == OXO_OVER_LOSS && oxo_x_to_move(g, p) == player_is_x;
    }
    uint64_t lost = 0;
    if (oxo_x_to_move(g, p) == player_is_x) {
        oxo_move_info mi[OXO_MAX_MOVES];
        int best[OXO_MAX_MOVES];
        int k = oxo_best_moves(mi, oxo_player_moves(pl, p, mi), best);
        for (int i = 0; i < k; i++)
            lost += losses(oxo_play(g, p, best[i]), player_is_x, games);
    } else {
        uint64_t legal = oxo_legal(g, p);
        while (legal) {
            int m = __builtin_ctzll(legal);
            legal &= legal - 1;
            lost += losses(oxo_play(g, p, m), player_is_x, games);
        }
    }
    return lost;
}

static void never_loses(void **state)
{
    (void)state;
    uint64_t gx = 0, go = 0;
    assert_int_equal(losses(oxo_start(oxo_player_game(pl)), 1, &gx), 0);
    assert_int_equal(losses(oxo_start(oxo_player_game(pl)), 0, &go), 0);
    assert_true(gx > 1000 && go > 1000); /* the walk really branched */
}

static oxo_pos board(const char *s)
{
    oxo_pos p;
    oxo_error fault;
    assert_int_equal(oxo_board_parse(oxo_player_game(pl), s, &p, &fault), 0);
    return p;
}

static void fastest_win_slowest_loss(void **state)
{
    (void)state;
    oxo_move_info mi[OXO_MAX_MOVES];
    int best[OXO_MAX_MOVES];
    /* X wins at once on cell 2; cells 5/8... win later. Only the immediate win is best. */
    oxo_pos p = board("XX.OO....");
    int n = oxo_player_moves(pl, p, mi);
    int k = oxo_best_moves(mi, n, best);
    assert_int_equal(k, 1);
    assert_int_equal(best[0], 2);
    /* Over every reachable position: the best moves of a won position win fastest, those of a lost
     * one lose slowest; and such choices really occur (moves of one value with other distances). */
    oxo_space *raw = oxo_space_build(oxo_player_game(pl), 0);
    int choices = 0;
    for (uint32_t i = 0; i < raw->n; i++) {
        int v, d;
        n = oxo_player_moves(pl, raw->pos[i], mi);
        if (n <= 0)
            continue;
        k = oxo_best_moves(mi, n, best);
        oxo_player_value(pl, raw->pos[i], &v, &d);
        int extreme = v < 0 ? 0 : 99, other = 0;
        for (int j = 0; j < n; j++)
            if (mi[j].value == v)
                extreme = v < 0 ? (mi[j].distance > extreme ? mi[j].distance : extreme)
                                : (mi[j].distance < extreme ? mi[j].distance : extreme);
        for (int j = 0; j < n; j++) {
            int is_best = 0;
            for (int b = 0; b < k; b++)
                is_best |= best[b] == mi[j].move;
            assert_int_equal(is_best, mi[j].value == v && mi[j].distance == extreme);
            other += mi[j].value == v && mi[j].distance != extreme;
        }
        assert_int_equal(d, extreme);
        choices += other > 0 && v != 0;
    }
    assert_true(choices > 100);
    oxo_space_free(raw);
}

static void ties_at_random_and_seeded(void **state)
{
    (void)state;
    const oxo_game *g = oxo_player_game(pl);
    int hits[9] = {0};
    uint64_t rng = oxo_rng_stream(42, 0);
    for (int i = 0; i < 900; i++)
        hits[oxo_player_pick(pl, oxo_start(g), 10, &rng)]++;
    for (int c = 0; c < 9; c++)
        assert_in_range(hits[c], 50, 150); /* all 9 openings draw: each about 100 times */
    uint64_t a = oxo_rng_stream(7, 0), b = oxo_rng_stream(7, 0);
    for (int i = 0; i < 50; i++)
        assert_int_equal(oxo_player_pick(pl, oxo_start(g), 5, &a),
                         oxo_player_pick(pl, oxo_start(g), 5, &b));
}

static void levels(void **state)
{
    (void)state;
    /* X to move can win at once on cell 2; every other move is not best. */
    oxo_pos p = board("XX.OO....");
    for (int level = 1; level <= 10; level++) {
        uint64_t rng = oxo_rng_stream(1, (uint64_t)level);
        int best = 0, trials = 9000;
        for (int i = 0; i < trials; i++)
            best += oxo_player_pick(pl, p, level, &rng) == 2;
        /* P(best) = 1 - r + r / 5 with r = (10 - level) / 9 and 5 legal moves. */
        double r = (10 - level) / 9.0, want = 1 - r + r / 5;
        assert_true(best > trials * (want - 0.03) && best < trials * (want + 0.03) + 1);
    }
}

static void unreachable_and_finished(void **state)
{
    (void)state;
    oxo_move_info mi[OXO_MAX_MOVES];
    /* Both sides have a line: no game reaches it (the parser refuses it too). */
    oxo_pos p = {0x038, 0x007};
    assert_int_equal(oxo_player_moves(pl, p, mi), -1);
    p = board("XXXOO....");
    assert_int_equal(oxo_player_moves(pl, p, mi), 0);
    uint64_t rng = 1;
    assert_int_equal(oxo_player_pick(pl, p, 10, &rng), -1);
}

/* The freestanding stream (lookup/freestanding/stream.c, written into every exported player) is
 * rng.h's: the same numbers, the same draws below n, and its integer coin decides as the
 * player's floating one, also at the thresholds themselves, so an exported player picks for a
 * seed the move liboxo picks. */
static void freestanding_stream_is_rngs(void **state)
{
    (void)state;
    static const uint32_t ns[] = {1, 2, 3, 7, 9, 42, 1000, 0x80000001u, 0xffffffffu};
    for (uint64_t seed = 0; seed < 64; seed++) {
        uint64_t a = oxo_rng_stream(seed, 1), b = a;
        for (int i = 0; i < 2000; i++) {
            assert_int_equal(oxp_next(&a), oxo_rng_next(&b));
            const uint32_t n = ns[i % 9];
            assert_int_equal((uint32_t)oxp_below(&a, n), oxo_rng_below(&b, n));
        }
    }
    for (int level = 1; level <= 10; level++) {
        const uint64_t thr = (uint64_t)ceil((10 - level) / 9.0 * 0x1.0p53);
        uint64_t coin[11] = {0}, s = 7,
                 at[4] = {thr << 11, (thr - 1) << 11, (thr + 1) << 11, ((thr - 1) << 11) | 0x7ff};
        coin[level] = thr;
        for (int i = 0; i < 20004; i++) {
            const uint64_t r = i < 4 ? at[i] : oxo_rng_next(&s);
            const int ints = r >> 11 < coin[level],
                      floats = (double)(r >> 11) * 0x1.0p-53 < (10 - level) / 9.0;
            assert_int_equal(ints, floats);
        }
    }
}

/* A table whose body, for a small game, is far larger than the game can need: 60 MiB claimed for
 * tic-tac-toe, of which the first 64 KiB do not compress (so the container's 1,024x ratio lets it
 * through). The player refuses it from the body's first bytes, before the body takes its memory
 * (the open runs in a child, whose peak grows by what the open takes alone); and a body that does
 * not begin with its game is refused so too. */
static size_t bomb(const char *game, const char *first_key, uint32_t pad, uint8_t **out)
{
    size_t klen = strlen(first_key), glen = strlen(game),
           blen = 1 + 1 + klen + 1 + glen + 4 + 5 + pad;
    uint8_t *body = calloc(1, blen), *p = body;
    assert_non_null(body);
    *p++ = 0x82, *p++ = (uint8_t)(0xa0 | klen);
    memcpy(p, first_key, klen), p += klen;
    *p++ = (uint8_t)(0xa0 | glen);
    memcpy(p, game, glen), p += glen;
    *p++ = 0xa3, memcpy(p, "pad", 3), p += 3;
    *p++ = 0xc6, *p++ = (uint8_t)(pad >> 24), *p++ = (uint8_t)(pad >> 16),
    *p++ = (uint8_t)(pad >> 8), *p++ = (uint8_t)pad;
    uint64_t rng = 99;
    for (uint32_t i = 0; i < 65536 && i < pad; i++)
        p[i] = (uint8_t)((rng = rng * 6364136223846793005ull + 1442695040888963407ull) >> 56);
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    size_t cap = ZSTD_compressBound(blen);
    uint8_t *file = malloc(OXO_HEADER_SIZE + cap);
    assert_non_null(file);
    size_t flen = ZSTD_compress2(c, file + OXO_HEADER_SIZE, cap, body, blen);
    assert_false(ZSTD_isError(flen));
    ZSTD_freeCCtx(c);
    free(body);
    memcpy(file, OXO_MAGIC, 4);
    file[4] = OXO_KIND_TABLE, file[5] = 2, file[6] = 0, file[7] = 0;
    for (int k = 0; k < 4; k++)
        file[8 + k] = (uint8_t)(blen >> (8 * k)), file[12 + k] = (uint8_t)(flen >> (8 * k));
    *out = file;
    return OXO_HEADER_SIZE + flen;
}

static void body_bomb_refused_before_decompressing(void **state)
{
    (void)state;
    uint8_t *file;
    size_t len = bomb("tictactoe", "game", 60u << 20, &file);
    char got[700];
    long grew = open_peak(NULL, file, len, got, sizeof got);
    assert_true(grew >= 0);
    printf("a %zu-byte file claiming a 60 MiB body: the peak grew by %ld KiB: %s\n", len, grew,
           got);
    if (!strstr(got, "more than any table of tictactoe needs"))
        fail_msg("not refused by the game's bound: %s", got);
    if (grew > 8 * 1024)
        fail_msg("refusing it grew the process by %ld KiB", grew);
    free(file);
    oxo_error err;
    len = bomb("tictactoe", "gaem", 1000, &file);
    assert_null(oxo_player_open_memory(file, len, &err));
    assert_non_null(strstr(err.msg, "does not begin with its game"));
    free(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_loses),
        cmocka_unit_test(freestanding_stream_is_rngs),
        cmocka_unit_test(fastest_win_slowest_loss),
        cmocka_unit_test(ties_at_random_and_seeded),
        cmocka_unit_test(levels),
        cmocka_unit_test(unreachable_and_finished),
        cmocka_unit_test(body_bomb_refused_before_decompressing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
