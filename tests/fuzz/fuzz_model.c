/* libFuzzer target: whole model files through the reader and the check against the game. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oxo_model *m;
    oxo_error err;
    if (oxo_model_decode(data, size, &m, &err) == OXO_OK)
        oxo_player_close(oxo_player_from_model_in(m, fuzz_space(1), &err));
    return 0;
}
