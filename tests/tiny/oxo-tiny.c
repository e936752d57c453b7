/*
 * The lookup-only player at its smallest: a program linked with liboxo's static library alone
 * that opens a table or a model and names the best moves of a position, and nothing else (no
 * search, no agent, no writer). Its stripped size is the "tiny player" figure that make bench
 * prints and that e2e_install bounds: what embedding a lookup player costs a program (the readers,
 * zstd's decompressor and msgpack-c included).
 * Usage: oxo-tiny FILE BOARD
 */
#include <oxo/oxo.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    oxo_handle *h;
    oxo_query_result q;
    if (argc != 3) {
        fprintf(stderr, "Usage: oxo-tiny FILE BOARD\n");
        return 2;
    }
    if (oxo_open(argv[1], &h) != OXO_RC_OK || oxo_query(h, argv[2], &q) != OXO_RC_OK) {
        fprintf(stderr, "oxo-tiny: %s\n", oxo_last_error());
        return 1;
    }
    for (int i = 0; i < q.nbest; i++)
        printf("%s%d", i ? " " : "", q.best[i] + 1);
    printf("\n");
    oxo_close(h);
    return 0;
}
