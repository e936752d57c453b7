/*
 * The solved table (*.oxt): what the file holds, independent of any game's rules. Checking that
 * the entries fit a game is lookup/'s job (lookup/sources), since formats/ does not link the
 * game core.
 *
 * Format 1 numbers the positions by ply, then code, over a space the reader must enumerate
 * ("ply-code"). Format 2 ("code-bitmap") holds the bitmap of the canonical codes beside the
 * entries, in code order: a reader finds a position's entry by the rank of its code, without
 * enumerating the game. oxo-gen writes format 2; both are read. A partial table of format 2, an
 * opening book ("sorted-codes"), holds every position up to a number of stones: its codes are
 * listed in ascending order (delta-coded), since a bitmap over a code space of 2^49 (Connect-4
 * 7x6) could not be stored. Format 3 ("ply-blocks") holds a whole table too large for one frame
 * (connect4:6,5): an entry for every number of each ply of the game's ply index, in zstd frames
 * of a fixed count of numbers that are read alone, when asked (oxo_table_open, oxo_table_entry_at);
 * only its head (the figures and where each block starts) is read when the file opens.
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
    int major; /* 1 or 2 */
    int minor;
    char game[48]; /* the game spec (lookup/games/game.h) */
    uint32_t rows, cols;
    char index[32]; /* indexing scheme: "ply-code" (format 1) or "code-bitmap" (format 2) */
    int symmetric;  /* entries are for canonical positions */
    oxo_table_counts counts;
    char root_value[8]; /* "win", "draw" or "loss" */
    char generator[64];
    uint32_t n;
    uint8_t *entries;
    /* Format 2. */
    int tree;        /* counts hold the tree figures (they fit in 64 bits) */
    uint32_t nplies; /* positions_by_ply: positions (all images) with 0, 1, ... stones */
    uint64_t by_ply[65];
    uint64_t code_space; /* codes are below this */
    uint64_t nwords;     /* 64-bit words of the bitmap, ceil(code_space / 64) */
    uint64_t *keys;      /* bit c of the bitmap: code c is a canonical position */
    /* Format 2, index "sorted-codes" (an opening book): n codes, ascending, entry i is code i's. */
    uint64_t *codes;
    uint32_t depth; /* every position with up to depth stones */
    int borrowed;   /* entries and keys belong to the caller (not freed) */
    /* Format 3: ply n's numbers (nplies of them, as many as positions_by_ply), in blocks of
     * block_numbers numbers each (the last of a ply may be shorter), block b of ply n being block
     * ply_block[n] + b of the file, which starts block_at[i] bytes after the first and ends where
     * block i + 1 starts (nblocks + 1 offsets). */
    uint32_t block_numbers;
    uint64_t ply_numbers[65];
    uint64_t ply_block[66];
    uint64_t nblocks;
    uint64_t *block_at;
    struct oxo_table_file *file; /* the open file and its cache of blocks (reader) */
} oxo_table;

#define OXO_TABLE_MAJOR_BITMAP 2
#define OXO_TABLE_MAJOR_BLOCKS 3
/* Format 3's entry of a number that is no canonical reachable position. */
#define OXO_NO_ENTRY 0xffu
/* Block sizes a format 3 file may have: 2^8 to 2^24 numbers. */
#define OXO_BLOCK_MIN 256u
#define OXO_BLOCK_MAX (1u << 24)
/* The most a table body may weigh once decompressed, and its most against the compressed frame:
 * a table of connect4:6,4 holds a 128 MiB bitmap; a zstd bomb may not cost more than 1,024 times
 * its own size. */
#define OXO_MAX_TABLE_BODY (1u << 30)

#define OXO_ENTRY(value, distance) ((uint8_t)(((value) + 1) | ((distance) << 2)))
#define OXO_ENTRY_VALUE(e)         ((int)((e)&3) - 1)
#define OXO_ENTRY_DISTANCE(e)      ((int)((e) >> 2))

int oxo_table_read(const char *path, oxo_table **out, oxo_error *err);
/* The file's bytes, and the MessagePack body alone (below the checksum: for the fuzzer). */
int oxo_table_decode(const uint8_t *data, size_t len, oxo_table **out, oxo_error *err);
int oxo_table_decode_body(const uint8_t *body, size_t len, int major, int minor, oxo_table **out,
                          oxo_error *err);
/* What a reader that knows the games (formats does not) lets a book hold: most(ctx, game, depth)
 * is the most positions the game named in the file can have with up to `depth` stones, or 0 when
 * it does not know the game (the game is refused later). Checked before a book's codes take any
 * memory (FORMAT.md, "What a reader takes"). */
typedef struct oxo_table_bound {
    uint64_t (*most)(void *ctx, const char *game, uint32_t depth);
    void *ctx;
} oxo_table_bound;
/* oxo_table_decode_body, with a book's positions bounded by `bound` (NULL: by the file alone). */
int oxo_table_decode_body_bounded(const uint8_t *body, size_t len, int major, int minor,
                                  const oxo_table_bound *bound, oxo_table **out, oxo_error *err);
void oxo_table_free(oxo_table *t);
/* Any table from its file: formats 1 and 2 read whole (oxo_table_read), format 3 its head alone,
 * the file kept open for its blocks. */
int oxo_table_open(const char *path, oxo_table **out, oxo_error *err);
/* The same, a format 3 head larger than bound->most says for its game refused before it is
 * decompressed (as oxo_container_decode_bounded does for a whole body). */
int oxo_table_open_bounded(const char *path, const oxo_body_bound *bound, oxo_table **out,
                           oxo_error *err);
/* Format 3: the entry of number num of ply n (OXO_NO_ENTRY when it is no canonical reachable
 * position), its block read and checked when it is not among the few kept. Safe from several
 * threads at once. */
int oxo_table_entry_at(const oxo_table *t, uint32_t n, uint64_t num, uint8_t *entry,
                       oxo_error *err);
/* Closes a format 3 table's file (oxo_table_free does). */
void oxo_table_file_close(struct oxo_table_file *f);
/* Format 3: block i's entries checked: each an entry whose distance is at most `cells`, or
 * OXO_NO_ENTRY. 0, or the first bad one's place plus 1. */
uint64_t oxo_table_block_bad(const uint8_t *e, uint64_t n, uint32_t cells);

/* Write side. */
int oxo_table_encode_body(const oxo_table *t, uint8_t **body, size_t *len, oxo_error *err);
int oxo_table_write(const char *path, const oxo_table *t, oxo_error *err);

#endif
