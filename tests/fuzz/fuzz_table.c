/* libFuzzer target: whole table files through the reader and the check against the game. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oxo_table *t;
    oxo_error err;
    if (oxo_table_decode(data, size, &t, &err) == OXO_OK)
        oxo_player_close(oxo_player_from_table_in(t, fuzz_space(1), &err));
    return 0;
}
