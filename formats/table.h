/*
 * The solved table (*.oxt): what the file holds, independent of any game's rules. Checking that
 * the entries fit a game (count, terminal positions, consistency with the moves) is lookup/'s job
 * (oxo_solution_attach), since formats/ does not link the game core.
 *
 * Entry byte: bits 0-1 value for the side to move (0 loss, 1 draw, 2 win; 3 is invalid),
 * bits 2-7 distance to the end in plies under optimal play (at most rows * cols).
 */
#ifndef OXO_TABLE_H
#define OXO_TABLE_H

#include "format.h"

typedef struct oxo_table_counts {
    uint64_t nodes, games, x_wins, o_wins, draws, positions, terminal_positions,
        canonical_positions, canonical_nonterminal_positions;
} oxo_table_counts;

typedef struct oxo_table {
    int minor;
    char game[48]; /* the game spec (lookup/game.h) */
    uint32_t rows, cols;
    char index[32];  /* indexing scheme: "ply-code" */
    int symmetric;   /* entries are for canonical positions */
    oxo_table_counts counts;
    char root_value[8]; /* "win", "draw" or "loss" */
    char generator[64];
    uint32_t n;
    uint8_t *entries;
} oxo_table;

#define OXO_ENTRY(value, distance) ((uint8_t)(((value) + 1) | ((distance) << 2)))
#define OXO_ENTRY_VALUE(e) ((int)((e)&3) - 1)
#define OXO_ENTRY_DISTANCE(e) ((int)((e) >> 2))

int oxo_table_read(const char *path, oxo_table **out, oxo_error *err);
/* The file's bytes, and the MessagePack body alone (below the checksum: for the fuzzer). */
int oxo_table_decode(const uint8_t *data, size_t len, oxo_table **out, oxo_error *err);
int oxo_table_decode_body(const uint8_t *body, size_t len, int minor, oxo_table **out,
                          oxo_error *err);
void oxo_table_free(oxo_table *t);

/* Write side. */
int oxo_table_encode_body(const oxo_table *t, uint8_t **body, size_t *len, oxo_error *err);
int oxo_table_write(const char *path, const oxo_table *t, oxo_error *err);

#endif
