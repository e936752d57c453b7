/*
 * Opening books (gen/book.c) against the exact tables of the generator (gen/retro.c), which solve
 * the same games by another method (retrograde analysis over every position): on connect4:4,4,
 * 5,4 and 4,5 every book entry must equal the table's entry of that position (value and
 * distance), and the book must hold exactly the table's unfinished positions up to its depth.
 * Then books that lie are refused when they open: an interior entry changed, a leaf that no
 * game can end like, a position missing, a code that is no position of the game, codes out of
 * order, figures that do not match.
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book.h"
#include "peak.h"
#include "player.h"
#include "retro.h"
#include "table.h"

static char dir[64];

static void make_book(const oxo_game *g, int depth, const char *path)
{
    oxo_book_opts o = {
        .depth = depth, .out = path, .tt_mb = 16, .checkpoint_secs = 300, .sample = -1};
    assert_int_equal(oxo_book_main("test_book", g, &o), 0);
}

static void against_table(const char *spec, int depth)
{
    char path[128];
    oxo_error fault;
    oxo_game *g = oxo_game_open(spec, &fault);
    assert_non_null(g);
    snprintf(path, sizeof path, "%s/book.oxt", dir);
    make_book(g, depth, path);
    oxo_error err;
    oxo_player *book = oxo_player_open(path, &err);
    if (!book)
        fail_msg("%s: %s", spec, err.msg);
    assert_true(oxo_player_book_depth(book) >= 0);
    assert_string_equal(oxo_player_source(book), "book");
    oxo_retro *r = oxo_retro_solve(g, 0, 0, &fault);
    assert_non_null(r);
    uint64_t idx = 0, checked = 0;
    for (uint64_t w = 0; w < r->keys.nwords; w++)
        for (uint64_t bits = r->keys.words[w]; bits; bits &= bits - 1, idx++) {
            oxo_pos p = oxo_decode(g, w * 64 + (uint64_t)__builtin_ctzll(bits));
            if (oxo_ply(p) > depth || oxo_status_of(g, p) != OXO_ONGOING)
                continue;
            int e = oxo_player_entry(book, p);
            if (e != r->entries[idx])
                fail_msg("%s: a position of %d stones: the book says %d in %d, the table %d in %d",
                         spec, oxo_ply(p), e < 0 ? 9 : OXO_ENTRY_VALUE(e),
                         e < 0 ? -1 : OXO_ENTRY_DISTANCE(e), OXO_ENTRY_VALUE(r->entries[idx]),
                         OXO_ENTRY_DISTANCE(r->entries[idx]));
            checked++;
        }
    printf("%s: the book to depth %d agrees with the table on all its %llu positions\n", spec,
           depth, (unsigned long long)checked);
    assert_int_equal(checked, oxo_player_table(book)->n);
    /* The game's bound on the positions of each ply, which readers hold books to, is above what
     * the book counts (every image of every unfinished position). */
    for (int k = 0; k <= depth; k++)
        if (oxo_player_table(book)->by_ply[k] > g->ops->positions_most(g, k))
            fail_msg("%s: %llu positions of %d stones, above the game's bound %llu", spec,
                     (unsigned long long)oxo_player_table(book)->by_ply[k], k,
                     (unsigned long long)g->ops->positions_most(g, k));
    assert_true(checked > 100);
    oxo_retro_free(r);
    oxo_player_close(book);
    oxo_game_free(g);
    unlink(path);
}

static void books_agree_with_tables(void **state)
{
    (void)state;
    against_table("connect4:4,4", 8);
    against_table("connect4:5,4", 6);
    against_table("connect4:4,5", 5);
}

/* A book of connect4:5,4 read back, changed by `mutate`, encoded and opened again. */
static const char *open_changed(void (*mutate)(oxo_table *), oxo_error *out)
{
    char path[128];
    snprintf(path, sizeof path, "%s/bad.oxt", dir);
    oxo_error err;
    oxo_table *t;
    assert_int_equal(oxo_table_read(path, &t, &err), 0);
    mutate(t);
    uint8_t *body;
    size_t len;
    assert_int_equal(oxo_table_encode_body(t, &body, &len, &err), 0);
    oxo_table_free(t);
    oxo_table *back;
    const char *what = NULL;
    if (oxo_table_decode_body(body, len, 2, 0, &back, &err))
        what = "reader";
    else {
        oxo_player *p = oxo_player_from_table(back, &err);
        if (p)
            oxo_player_close(p);
        else
            what = "player";
    }
    free(body);
    *out = err;
    if (!what)
        out->msg[0] = '\0';
    return what;
}

static oxo_game *g54;

/* The first entry with `stones` stones. */
static uint32_t first_with(const oxo_table *t, int stones)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (oxo_ply(oxo_decode(g54, t->codes[i])) == stones)
            return i;
    fail_msg("no entry with %d stones", stones);
    return 0;
}

static void m_none(oxo_table *t)
{
    (void)t;
}
static void m_interior(oxo_table *t)
{
    /* Another result that a game could end with (same distance, the parity of its side's moves),
     * which only the children contradict. */
    uint32_t i = first_with(t, 2);
    int v = OXO_ENTRY_VALUE(t->entries[i]), d = OXO_ENTRY_DISTANCE(t->entries[i]);
    int lie = d & 1 ? (v == OXO_WIN ? OXO_LOSS : OXO_WIN) : (v == OXO_LOSS ? OXO_WIN : OXO_LOSS);
    if (lie == OXO_WIN && !(d & 1))
        d--;
    if (lie == OXO_LOSS && (d & 1))
        d--;
    t->entries[i] = OXO_ENTRY(lie, d);
}
static void m_leaf_parity(oxo_table *t)
{
    uint32_t i = first_with(t, 6);
    /* a win lands on one's own move: an odd number of plies */
    t->entries[i] = OXO_ENTRY(OXO_WIN, 2);
}
static void m_drop(oxo_table *t)
{
    uint32_t i = first_with(t, 6);
    memmove(t->codes + i, t->codes + i + 1, (t->n - i - 1) * sizeof *t->codes);
    memmove(t->entries + i, t->entries + i + 1, t->n - i - 1);
    t->n--;
    t->counts.canonical_positions = t->counts.canonical_nonterminal_positions = t->n;
}
static void m_swap(oxo_table *t)
{
    uint64_t c = t->codes[3];
    t->codes[3] = t->codes[4];
    t->codes[4] = c;
}
static void m_by_ply(oxo_table *t)
{
    t->by_ply[2]++;
    t->by_ply[3]--;
}
static void m_root(oxo_table *t)
{
    snprintf(t->root_value, sizeof t->root_value, "win");
}
static void m_not_a_position(oxo_table *t)
{
    /* The last code replaced by the largest code of the game's space (still in order): every
     * column full of the first player's stones, which no game reaches. */
    t->codes[t->n - 1] = t->code_space - 1;
}

static void lying_books_refused(void **state)
{
    (void)state;
    char path[128];
    oxo_error fault;
    g54 = oxo_game_open("connect4:5,4", &fault);
    assert_non_null(g54);
    snprintf(path, sizeof path, "%s/bad.oxt", dir);
    make_book(g54, 6, path);
    assert_null(open_changed(m_none, &fault));
    static const struct {
        void (*m)(oxo_table *);
        const char *who, *says;
    } cases[] = {
        {m_interior, "player", "its children give"},
        {m_leaf_parity, "player", "which no game"},
        {m_drop, "player", "lacks its child"},
        {m_swap, "reader", "code"},
        {m_by_ply, "player", "positions_by_ply[2]"},
        {m_root, "player", "root_value"},
        {m_not_a_position, "player", "not a canonical unfinished position"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *who = open_changed(cases[k].m, &fault);
        if (!who) {
            fail_msg("case %zu: a lying book was accepted", k);
            return; /* fail_msg does not return; said for compilers that do not know it */
        }
        printf("case %zu refused by the %s: %s\n", k, who, fault.msg);
        if (*cases[k].who && (strcmp(who, cases[k].who) || !strstr(fault.msg, cases[k].says)))
            fail_msg("case %zu: refused by the %s with \"%s\", expected the %s to say \"%s\"", k,
                     who, fault.msg, cases[k].who, cases[k].says);
    }
    unlink(path);
    oxo_game_free(g54);
}

/* The bound against tic-tac-toe's counts from the generator's solve (every position, finished ones
 * too): never below, and met exactly at 5 stones (every 5 cells, every colouring of them arise). */
static void bound_holds_on_tictactoe(void **state)
{
    (void)state;
    oxo_error fault;
    const oxo_game *g = oxo_tictactoe();
    oxo_retro *r = oxo_retro_solve(g, 0, 0, &fault);
    assert_non_null(r);
    assert_int_equal(r->max_ply, 9);
    for (int k = 0; k <= 9; k++)
        if (r->by_ply[k] > g->ops->positions_most(g, k))
            fail_msg("%llu positions of %d stones, above the bound %llu",
                     (unsigned long long)r->by_ply[k], k,
                     (unsigned long long)g->ops->positions_most(g, k));
    assert_int_equal(g->ops->positions_most(g, 5), r->by_ply[5]);
    assert_int_equal(oxo_positions_most(g, 9),
                     1 + 9 + 72 + 252 + 756 + 1260 + 1680 + 1260 + 630 + 126);
    oxo_retro_free(r);
}

/* A book bomb: a file whose book claims far more positions than its game can hold (here 20
 * million for connect4:6,5 to depth 12, which holds fewer than 5.4 million with up to 12 stones).
 * Every reader took 8 bytes a claimed code and decoded them all before any check against the game
 * (a 1.1 MB book took 5.6 GB and 14 s); now the claim is refused, naming the bound, before the
 * codes take any memory. The open runs in a child, whose peak grows with what the open takes
 * alone. The codes ascend by random steps, so that the body does not compress beyond the ratio the
 * container refuses first. */
static void book_bomb_refused_before_allocating(void **state)
{
    (void)state;
    char bomb[128];
    snprintf(bomb, sizeof bomb, "%s/bomb.oxt", dir);
    oxo_error err;
    oxo_table *t;
    assert_int_equal(oxo_table_read(OXO_DATA "/connect4-6-5-book.oxt", &t, &err), 0);
    const uint32_t n = 20000000;
    free(t->codes);
    free(t->entries);
    t->codes = malloc((size_t)n * sizeof *t->codes);
    t->entries = malloc(n);
    assert_non_null(t->codes);
    assert_non_null(t->entries);
    uint64_t code = 0, rng = 12345;
    for (uint32_t i = 0; i < n; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        code += 1 + (rng >> 57); /* 1 to 128: a byte or two of LEB128 */
        t->codes[i] = code;
        t->entries[i] = OXO_ENTRY((int)(rng >> 40) % 3 - 1, 1 + (int)(rng >> 44) % 8);
    }
    t->n = n;
    t->counts.canonical_positions = t->counts.canonical_nonterminal_positions =
        t->counts.positions = n;
    memset(t->by_ply, 0, sizeof t->by_ply);
    t->by_ply[0] = n;
    assert_int_equal(oxo_table_write(bomb, t, &err), 0);
    oxo_table_free(t);
    struct stat st;
    assert_int_equal(stat(bomb, &st), 0);
    printf("the bomb: %lld bytes claiming %u positions\n", (long long)st.st_size, n);
    char got[700];
    long grew = open_peak(bomb, NULL, 0, got, sizeof got);
    assert_true(grew >= 0);
    printf("opening it: the peak grew by %ld KiB: %s\n", grew, got);
    if (!strstr(got, "more than connect4:6,5 holds"))
        fail_msg("the bomb was not refused by the game's bound: %s", got);
    /* The file's bytes (30 MB) and its decompressed body (45 MB) are the most an open of it may
     * take (69 MB here); its codes alone took 160 MB more before (237 MB here). */
    if (grew > 120 * 1024)
        fail_msg("opening a bomb of %u claimed positions grew the process by %ld KiB", n, grew);
    unlink(bomb);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/oxo-test-book-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(books_agree_with_tables),
        cmocka_unit_test(lying_books_refused),
        cmocka_unit_test(bound_holds_on_tictactoe),
        cmocka_unit_test(book_bomb_refused_before_allocating),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
