/* libFuzzer target: the MessagePack bodies alone, below the container and its checksum, so that
 * mutations reach the decoders. The first byte chooses: 'T' table body of format 1, 'U' of
 * format 2, anything else model. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oxo_error err;
    if (size < 1)
        return 0;
    if (data[0] == 'T' || data[0] == 'U') {
        oxo_table *t;
        if (oxo_table_decode_body(data + 1, size - 1, data[0] == 'T' ? 1 : 2, 0, &t, &err) ==
            OXO_OK)
            oxo_player_close(oxo_player_from_table_in(t, fuzz_space(1), &err));
    } else {
        oxo_model *m;
        if (oxo_model_decode_body(data + 1, size - 1, 0, &m, &err) == OXO_OK)
            oxo_player_close(oxo_player_from_model_in(m, fuzz_space(1), &err));
    }
    return 0;
}
