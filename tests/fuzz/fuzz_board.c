/* libFuzzer target: oxo-play's board parser, and the lookup of every board it accepts. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static oxo_player *pl;
    if (!pl) {
        oxo_error err;
        pl = oxo_player_from_table_in(oxo_build_table_for_fuzz(), fuzz_space(1), &err);
    }
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    oxo_pos p;
    oxo_error fault;
    oxo_move_info mi[OXO_MAX_MOVES];
    if (oxo_board_parse(oxo_player_game(pl), text, &p, &fault) == 0)
        oxo_player_moves(pl, p, mi);
    free(text);
    return 0;
}
