/*
 * An outside program, built against an installed liboxo only (tests/e2e_install.sh builds it once
 * through pkg-config and once through find_package(oxo)): it opens the installed table from a path
 * and from memory, checks the answers it documents, and plays whole games with it; given networks
 * too, it joins them by '+' and checks that each move is scored by the mean of theirs, and that
 * the same networks joined from the bytes of their files answer the same.
 * Usage: play_game TABLE [NETWORK...]
 */
#include <oxo/oxo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "play_game: line %d: %s failed\n", __LINE__, #c);                      \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* The bytes of a file (at most cap) into buf: their number, 0 when it cannot be read. */
static size_t slurp(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t len = f && buf ? fread(buf, 1, cap, f) : 0;
    if (f)
        fclose(f);
    return len;
}

/* One game, X at level lx and O at level lo, the player choosing both sides. Returns the winner
 * ('X', 'O' or 'D'). */
static char game(const oxo_handle *h, int lx, int lo, uint64_t seed)
{
    char board[2 * OXO_MOVES_MAX + 1], next[sizeof board];
    oxo_query_result q;
    strcpy(board, oxo_start_board(h));
    for (;;) {
        if (oxo_query(h, board, &q) != OXO_RC_OK) {
            fprintf(stderr, "play_game: %s\n", oxo_last_error());
            fails++;
            return '?';
        }
        if (q.over)
            return q.winner;
        int move = -1;
        CHECK(oxo_pick(h, board, q.to_move == 'X' ? lx : lo, &seed, &move) == OXO_RC_OK);
        CHECK(oxo_apply(h, board, move, next, sizeof next) == OXO_RC_OK);
        strcpy(board, next);
    }
}

/* The networks joined by '+' open as one player whose every move scores the mean of the networks'
 * scores, along a game the ensemble plays itself; a table among them is refused. */
static void ensemble(int n, char **nets, const char *table)
{
    oxo_handle *m[8] = {0}, *e = NULL, *bad = NULL;
    char spec[4096] = "", board[2 * OXO_MOVES_MAX + 1] = "", next[sizeof board];
    for (int k = 0; k < n && k < 8; k++) {
        CHECK(oxo_open(nets[k], &m[k]) == OXO_RC_OK);
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%s", k ? "+" : "", nets[k]);
    }
    if (oxo_open(spec, &e) != OXO_RC_OK) {
        fprintf(stderr, "play_game: %s: %s\n", spec, oxo_last_error());
        fails++;
    } else {
        CHECK(!oxo_is_exact(e) && strcmp(oxo_game_spec(e), oxo_game_spec(m[0])) == 0);
        uint64_t seed = 7;
        int plies = 0, differ = 0;
        oxo_query_result q, qm;
        while (oxo_query(e, board, &q) == OXO_RC_OK && !q.over && plies < 12) {
            for (int i = 0; i < q.nmoves; i++) {
                double sum = 0;
                for (int k = 0; k < n && m[k]; k++) {
                    CHECK(oxo_query(m[k], board, &qm) == OXO_RC_OK &&
                          qm.moves[i].move == q.moves[i].move);
                    sum += qm.moves[i].score;
                    differ += k == 0 && qm.moves[i].score != q.moves[i].score;
                }
                double d = q.moves[i].score - sum / n;
                CHECK(d < 1e-5 && d > -1e-5);
            }
            int move = -1;
            CHECK(oxo_pick(e, board, 10, &seed, &move) == OXO_RC_OK);
            CHECK(oxo_apply(e, board, move, next, sizeof next) == OXO_RC_OK);
            strcpy(board, next);
            plies++;
        }
        CHECK(plies == 12 && differ > 0);
        printf("play_game: %d networks joined: %d plies, each move the mean of theirs\n", n, plies);
    }
    snprintf(spec, sizeof spec, "%s+%s", nets[0], table);
    CHECK(oxo_open(spec, &bad) == OXO_RC_FORMAT && bad == NULL &&
          strstr(oxo_last_error(), "not an n-tuple network"));
    /* The same networks from the bytes of their files (oxo_open_memory_joined) answer as the files
     * joined do, move for move along a game; a table among them is refused, naming its buffer. */
    const void *bytes[9] = {0};
    size_t lens[9] = {0};
    for (int k = 0; k < n && k < 8; k++) {
        unsigned char *b = malloc(8 << 20);
        lens[k] = slurp(nets[k], b, 8 << 20);
        bytes[k] = b;
    }
    oxo_handle *em = NULL;
    if (oxo_open_memory_joined(bytes, lens, n, &em) != OXO_RC_OK) {
        fprintf(stderr, "play_game: oxo_open_memory_joined: %s\n", oxo_last_error());
        fails++;
    } else if (e) {
        char b2[2 * OXO_MOVES_MAX + 1] = "";
        oxo_query_result q1, q2;
        uint64_t seed = 9;
        int plies = 0;
        while (oxo_query(e, b2, &q1) == OXO_RC_OK && !q1.over && plies < 12) {
            CHECK(oxo_query(em, b2, &q2) == OXO_RC_OK && q2.nmoves == q1.nmoves);
            for (int i = 0; i < q1.nmoves; i++)
                CHECK(q2.moves[i].move == q1.moves[i].move &&
                      q2.moves[i].score == q1.moves[i].score);
            int move = -1;
            CHECK(oxo_pick(em, b2, 10, &seed, &move) == OXO_RC_OK);
            CHECK(oxo_apply(em, b2, move, next, sizeof next) == OXO_RC_OK);
            strcpy(b2, next);
            plies++;
        }
        CHECK(plies == 12);
        printf("play_game: %d networks joined from memory: %d plies, the same scores as from their "
               "files\n",
               n, plies);
    }
    static unsigned char tb[1 << 20];
    size_t tlen = slurp(table, tb, sizeof tb);
    const void *mixed[2] = {bytes[0], tb};
    const size_t mixed_len[2] = {lens[0], tlen};
    CHECK(oxo_open_memory_joined(mixed, mixed_len, 2, &bad) == OXO_RC_FORMAT && bad == NULL &&
          strstr(oxo_last_error(), "buffer 2 is not an n-tuple network"));
    CHECK(oxo_open_memory_joined(bytes, lens, 9, &bad) == OXO_RC_ARGUMENT && bad == NULL);
    CHECK(oxo_open_memory_joined(bytes, lens, 0, &bad) == OXO_RC_ARGUMENT && bad == NULL);
    for (int k = 0; k < n && k < 8; k++)
        free((void *)bytes[k]);
    oxo_close(em);
    oxo_close(e);
    for (int k = 0; k < n && k < 8; k++)
        oxo_close(m[k]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: play_game TABLE [NETWORK...]\n");
        return 2;
    }
    CHECK(strcmp(oxo_version(), OXO_VERSION_STRING) == 0);
    oxo_handle *h = NULL;
    oxo_rc rc = oxo_open(argv[1], &h);
    if (rc != OXO_RC_OK) {
        fprintf(stderr, "play_game: %s: %s\n", oxo_rc_name(rc), oxo_last_error());
        return 1;
    }
    CHECK(oxo_is_exact(h));
    CHECK(strcmp(oxo_game_spec(h), "tictactoe") == 0);

    /* The empty board is a draw in 9; the centre keeps the draw, and X wins at once here. */
    oxo_query_result q;
    CHECK(oxo_query(h, ".........", &q) == OXO_RC_OK);
    CHECK(q.to_move == 'X' && !q.over && q.value == OXO_VALUE_DRAW && q.distance == 9);
    CHECK(q.nmoves == 9 && q.moves[4].value == OXO_VALUE_DRAW);
    CHECK(oxo_query(h, "XX.OO....", &q) == OXO_RC_OK);
    CHECK(q.value == OXO_VALUE_WIN && q.distance == 1 && q.nbest == 1 && q.best[0] == 2);
    CHECK(oxo_query(h, "XXXOO....", &q) == OXO_RC_OK && q.over && q.winner == 'X');

    /* Errors are codes with names and a sentence. */
    CHECK(oxo_query(h, "XXXXXXXXX", &q) == OXO_RC_BOARD && *oxo_last_error());
    CHECK(oxo_query(h, "XX", &q) == OXO_RC_BOARD);
    char out[32];
    CHECK(oxo_apply(h, "X........", 0, out, sizeof out) == OXO_RC_MOVE);
    int mv;
    uint64_t rng = 1;
    CHECK(oxo_pick(h, "XXXOO....", 10, &rng, &mv) == OXO_RC_OVER);
    CHECK(oxo_pick(h, ".........", 11, &rng, &mv) == OXO_RC_ARGUMENT);
    CHECK(strcmp(oxo_rc_name(OXO_RC_CORRUPT), "OXO_RC_CORRUPT") == 0);
    oxo_handle *bad = NULL;
    CHECK(oxo_open("/nonexistent/t.oxt", &bad) == OXO_RC_IO && bad == NULL);
    CHECK(oxo_open_memory("not a table", 11, &bad) == OXO_RC_FORMAT && bad == NULL);

    /* The same file from memory answers the same. */
    static unsigned char buf[1 << 20];
    size_t len = slurp(argv[1], buf, sizeof buf);
    oxo_handle *hm = NULL;
    CHECK(oxo_open_memory(buf, len, &hm) == OXO_RC_OK);
    buf[len / 2] ^= 1;
    CHECK(oxo_open_memory(buf, len, &bad) != OXO_RC_OK);

    /* Whole games: perfect against perfect is a draw; perfect never loses to random. */
    int draws = 0, lost = 0;
    for (uint64_t s = 1; s <= 20; s++) {
        draws += game(h, 10, 10, s) == 'D';
        lost += game(hm ? hm : h, 10, 1, s) == 'O';
        lost += game(h, 1, 10, s) == 'X';
    }
    CHECK(draws == 20 && lost == 0);
    printf(
        "play_game: liboxo %s, %s: 60 games, %d draws between perfect players, %d lost to random\n",
        oxo_version(), oxo_game_name(h), draws, lost);
    oxo_close(hm);
    oxo_close(h);
    if (argc > 3)
        ensemble(argc - 2, argv + 2, argv[1]);
    return fails ? 1 : 0;
}
