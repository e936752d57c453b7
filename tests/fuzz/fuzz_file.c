/* libFuzzer target: files of every kind and game (tables and opening books of any board, tabular
 * models, n-tuple networks) through the readers oxo-play and liboxo open them with, the player
 * building the file's own game and space (the other targets hold the game to tic-tac-toe), then a
 * look-up of the first position the way a player makes it. The first byte chooses: 'T' or 'U' a
 * table body of format 1 or 2, 'M' a model body of the minor version in the second byte (the
 * bodies, below zstd's checksum, are where mutations reach the decoders), anything else a whole
 * file. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oxo_error err;
    oxo_player *p = NULL;
    if (size >= 1 && (data[0] == 'T' || data[0] == 'U')) {
        oxo_table *t;
        if (oxo_table_decode_body(data + 1, size - 1, data[0] == 'T' ? 1 : 2, 0, &t, &err) ==
            OXO_OK)
            p = oxo_player_from_table(t, &err);
    } else if (size >= 2 && data[0] == 'M') {
        oxo_model *m;
        if (oxo_model_decode_body(data + 2, size - 2, data[1], &m, &err) == OXO_OK)
            p = oxo_player_from_model(m, &err);
    } else {
        p = oxo_player_open_memory(data, size, &err);
    }
    if (!p)
        return 0;
    oxo_pos start = oxo_start(oxo_player_game(p));
    oxo_move_info mi[OXO_MAX_MOVES];
    oxo_player_moves(p, start, mi);
    int score;
    if (oxo_player_book_depth(p) >= 0)
        oxo_player_book_score(p, start, &score);
    oxo_player_close(p);
    return 0;
}
