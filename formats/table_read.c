/*
 * Table reader: container, then the MessagePack body field by field.
 */
#include "table.h"

#include "mpread.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

void oxo_table_free(oxo_table *t)
{
    if (!t)
        return;
    if (!t->borrowed) {
        free(t->entries);
        free(t->keys);
        free(t->codes);
    }
    free(t->block_at);
    oxo_table_file_close(t->file);
    free(t);
}

static int read_counts(const msgpack_object *root, oxo_table_counts *c, oxo_error *err)
{
    const msgpack_object *m;
    int rc = oxo_mp_map(root, "counts", &m, err);
    const uint64_t max = UINT64_MAX;
    if (!rc)
        rc = oxo_mp_uint(m, "nodes", max, &c->nodes, err);
    if (!rc)
        rc = oxo_mp_uint(m, "games", max, &c->games, err);
    if (!rc)
        rc = oxo_mp_uint(m, "x_wins", max, &c->x_wins, err);
    if (!rc)
        rc = oxo_mp_uint(m, "o_wins", max, &c->o_wins, err);
    if (!rc)
        rc = oxo_mp_uint(m, "draws", max, &c->draws, err);
    if (!rc)
        rc = oxo_mp_uint(m, "positions", max, &c->positions, err);
    if (!rc)
        rc = oxo_mp_uint(m, "terminal_positions", max, &c->terminal_positions, err);
    if (!rc)
        rc = oxo_mp_uint(m, "canonical_positions", max, &c->canonical_positions, err);
    if (!rc)
        rc = oxo_mp_uint(m, "canonical_nonterminal_positions", max,
                         &c->canonical_nonterminal_positions, err);
    /* Sums are checked without wrapping around 2^64: a file must not balance its counts that
     * way. */
    uint64_t sum;
    if (!rc && (__builtin_add_overflow(c->x_wins, c->o_wins, &sum) ||
                __builtin_add_overflow(sum, c->draws, &sum) || sum != c->games))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "counts: x_wins %llu + o_wins %llu + draws %llu is not games %llu",
                      (unsigned long long)c->x_wins, (unsigned long long)c->o_wins,
                      (unsigned long long)c->draws, (unsigned long long)c->games);
    if (!rc && (c->games > c->nodes || c->terminal_positions > c->positions ||
                c->canonical_positions > c->positions ||
                c->canonical_nonterminal_positions > c->canonical_positions))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "counts: more games than tree nodes, or more terminal or "
                      "canonical positions than positions");
    return rc;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Format 2: positions (all images) by stones, at most `most` counts, adding up to the positions. */
static int read_by_ply(const msgpack_object *root, oxo_table *t, uint32_t most, oxo_error *err)
{
    const msgpack_object *a = oxo_mp_get(root, "positions_by_ply");
    if (!a || a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size == 0 || a->via.array.size > most)
        return oxo_fail(err, OXO_E_FIELD,
                        "\"positions_by_ply\" is missing or not an array of 1 to %u counts", most);
    int rc = OXO_OK;
    uint64_t sum = 0;
    for (uint32_t i = 0; !rc && i < a->via.array.size; i++) {
        const msgpack_object *o = &a->via.array.ptr[i];
        if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
            rc = oxo_fail(err, OXO_E_FIELD, "positions_by_ply[%u] is not an unsigned integer", i);
        else if (__builtin_add_overflow(sum, o->via.u64, &sum))
            rc = oxo_fail(err, OXO_E_FIELD, "positions_by_ply adds up beyond 2^64");
        else
            t->by_ply[t->nplies++] = o->via.u64;
    }
    if (!rc && sum != t->counts.positions)
        rc = oxo_fail(err, OXO_E_FIELD,
                      "positions_by_ply adds up to %llu, counts say %llu positions",
                      (unsigned long long)sum, (unsigned long long)t->counts.positions);
    return rc;
}

/* Format 2: the bitmap of the codes, the positions by ply and whether the tree was counted. The
 * bitmap must hold exactly one code per entry. */
static int read_bitmap(const msgpack_object *root, oxo_table *t, uint32_t nentries, oxo_error *err)
{
    const uint8_t *bin;
    uint32_t blen;
    int rc = strcmp(t->index, "code-bitmap")
                 ? oxo_fail(err, OXO_E_FIELD,
                            "index \"%s\" in a format 2 table, expected \"code-bitmap\" or "
                            "\"sorted-codes\"",
                            t->index)
                 : OXO_OK;
    if (!rc)
        rc = oxo_mp_uint(root, "code_space", 1ull << 40, &t->code_space, err);
    if (!rc && !t->code_space)
        rc = oxo_fail(err, OXO_E_FIELD, "\"code_space\" is 0, expected at least 1");
    if (!rc)
        rc = oxo_mp_bool(root, "tree", &t->tree, err);
    if (!rc)
        rc = oxo_mp_bin(root, "keys", &bin, &blen, err);
    t->nwords = (t->code_space + 63) / 64;
    if (!rc && blen != 8 * t->nwords)
        rc = oxo_fail(err, OXO_E_FIELD, "\"keys\" is %u bytes, expected %llu for codes below %llu",
                      blen, (unsigned long long)(8 * t->nwords), (unsigned long long)t->code_space);
    if (!rc) {
        /* Whole blocks of 8 words, the tail zero: the layout of lookup/keyset.h. */
        uint64_t alloc = (t->nwords + 7) / 8 * 8, count = 0;
        t->keys = calloc(alloc ? alloc : 1, sizeof *t->keys);
        if (!t->keys)
            return oxo_fail(err, OXO_E_NOMEM, "a bitmap of %llu codes",
                            (unsigned long long)t->code_space);
        for (uint64_t w = 0; w < t->nwords; w++) {
            t->keys[w] = le64(bin + 8 * w);
            count += (uint64_t)__builtin_popcountll(t->keys[w]);
        }
        uint64_t tail = t->code_space % 64;
        if (tail && t->keys[t->nwords - 1] >> tail)
            rc = oxo_fail(err, OXO_E_FIELD, "\"keys\" has codes at or beyond %llu",
                          (unsigned long long)t->code_space);
        else if (count != nentries)
            rc = oxo_fail(err, OXO_E_FIELD, "\"keys\" holds %llu codes for %u entries",
                          (unsigned long long)count, nentries);
        else if (t->counts.canonical_positions != nentries)
            rc = oxo_fail(err, OXO_E_FIELD, "counts: canonical_positions is %llu for %u entries",
                          (unsigned long long)t->counts.canonical_positions, nentries);
    }
    if (!rc)
        rc = read_by_ply(root, t, 65, err);
    return rc;
}

/* Format 2, an opening book: every position up to `depth` stones, its codes ascending, each
 * stored as its difference from the one before (the first from 0) in LEB128 (7 bits a byte, the
 * high bit set on all bytes but the last), which zstd then squeezes. */
static int read_sorted(const msgpack_object *root, oxo_table *t, uint32_t nentries,
                       const oxo_table_bound *bound, oxo_error *err)
{
    const uint8_t *bin;
    uint32_t blen;
    uint64_t u;
    int rc = oxo_mp_uint(root, "code_space", UINT64_MAX, &t->code_space, err);
    if (!rc && !t->code_space)
        rc = oxo_fail(err, OXO_E_FIELD, "\"code_space\" is 0, expected at least 1");
    if (!rc && !(rc = oxo_mp_uint(root, "depth", 64, &u, err)))
        t->depth = (uint32_t)u;
    if (!rc)
        rc = oxo_mp_bool(root, "tree", &t->tree, err);
    if (!rc && t->tree)
        rc = oxo_fail(err, OXO_E_FIELD,
                      "\"tree\" is true in a book, expected false (a book counts no tree)");
    if (!rc)
        rc = oxo_mp_bin(root, "keys", &bin, &blen, err);
    /* The cheap checks first, before 8 bytes a code are taken: the counts agree with the entries,
     * each code takes a byte at least, and the game can hold that many positions up to the depth
     * (a 1.1 MB book that claimed 550 million made every reader take 5.6 GB). */
    if (!rc && t->counts.canonical_positions != nentries)
        rc = oxo_fail(err, OXO_E_FIELD, "counts: canonical_positions is %llu for %u entries",
                      (unsigned long long)t->counts.canonical_positions, nentries);
    if (!rc)
        rc = read_by_ply(root, t, t->depth + 1, err);
    if (!rc && t->nplies != t->depth + 1)
        rc =
            oxo_fail(err, OXO_E_FIELD, "\"positions_by_ply\" has %u counts, expected %u (depth %u)",
                     t->nplies, t->depth + 1, t->depth);
    if (!rc && blen < nentries)
        rc = oxo_fail(err, OXO_E_FIELD,
                      "\"keys\" is %u bytes, too few for %u codes (a byte each at least)", blen,
                      nentries);
    if (!rc && bound && bound->most) {
        uint64_t most = bound->most(bound->ctx, t->game, t->depth);
        if (most && nentries > most)
            rc = oxo_fail(
                err, OXO_E_FIELD,
                "a book of %u positions up to %u stones, more than %s holds (at most %llu)",
                nentries, t->depth, t->game, (unsigned long long)most);
    }
    if (!rc && !(t->codes = malloc((size_t)nentries * sizeof *t->codes)))
        return oxo_fail(err, OXO_E_NOMEM, "%u codes", nentries);
    uint64_t prev = 0;
    uint32_t pos = 0, n = 0;
    while (!rc && pos < blen) {
        uint64_t d = 0;
        int shift = 0;
        for (;;) {
            if (pos == blen) {
                rc = oxo_fail(err, OXO_E_FIELD, "\"keys\": code %u is cut off at the end", n);
                break;
            }
            uint8_t b = bin[pos++];
            if (shift == 63 && b > 1) {
                rc = oxo_fail(err, OXO_E_FIELD, "\"keys\": code %u does not fit in 64 bits", n);
                break;
            }
            d |= (uint64_t)(b & 0x7f) << shift;
            if (!(b & 0x80))
                break;
            shift += 7;
        }
        if (rc)
            break;
        if (n == nentries)
            rc = oxo_fail(err, OXO_E_FIELD, "\"keys\" holds more codes than the %u entries",
                          nentries);
        else if (n && !d)
            rc = oxo_fail(err, OXO_E_FIELD,
                          "\"keys\": code %u repeats the one before (codes must ascend)", n);
        else if (__builtin_add_overflow(prev, d, &prev) || prev >= t->code_space)
            rc = oxo_fail(err, OXO_E_FIELD, "\"keys\": code %u is at or beyond code_space %llu", n,
                          (unsigned long long)t->code_space);
        else
            t->codes[n++] = prev;
    }
    if (!rc && n != nentries)
        rc = oxo_fail(err, OXO_E_FIELD, "\"keys\" holds %u codes for %u entries", n, nentries);
    return rc;
}

/* Format 3: the plies' numbers and the blocks' places. Every count is checked against the bytes
 * that hold the offsets before anything is taken. */
static int read_blocks(const msgpack_object *root, oxo_table *t, oxo_error *err)
{
    const msgpack_object *a = oxo_mp_get(root, "ply_numbers");
    const uint8_t *bin;
    uint32_t blen;
    uint64_t u;
    int rc = strcmp(t->index, "ply-blocks") ? oxo_fail(err, OXO_E_FIELD,
                                                       "index \"%s\" in a format 3 table, "
                                                       "expected \"ply-blocks\"",
                                                       t->index)
                                            : OXO_OK;
    if (!rc && !t->symmetric)
        rc = oxo_fail(err, OXO_E_FIELD, "\"symmetric\" is false, expected true in format 3");
    if (!rc)
        rc = oxo_mp_bool(root, "tree", &t->tree, err);
    if (!rc && t->tree)
        rc = oxo_fail(err, OXO_E_FIELD, "\"tree\" is true, expected false in format 3");
    if (!rc)
        rc = read_by_ply(root, t, 65, err);
    if (!rc && (!a || a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size != t->nplies))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "\"ply_numbers\" is missing or not an array of %u counts (one per ply)",
                      t->nplies);
    if (!rc && !(rc = oxo_mp_uint(root, "block_numbers", OXO_BLOCK_MAX, &u, err)))
        t->block_numbers = (uint32_t)u;
    if (!rc && (t->block_numbers < OXO_BLOCK_MIN || (t->block_numbers & (t->block_numbers - 1))))
        rc = oxo_fail(err, OXO_E_FIELD,
                      "\"block_numbers\" is %u, expected a power of 2 from %u to %u",
                      t->block_numbers, OXO_BLOCK_MIN, OXO_BLOCK_MAX);
    for (uint32_t n = 0; !rc && n < t->nplies; n++) {
        const msgpack_object *o = &a->via.array.ptr[n];
        if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || !o->via.u64 || o->via.u64 >> 48)
            rc = oxo_fail(err, OXO_E_FIELD, "ply_numbers[%u] is not a count from 1 to 2^48", n);
        else {
            t->ply_numbers[n] = o->via.u64;
            t->ply_block[n + 1] = t->ply_block[n] + (o->via.u64 - 1) / t->block_numbers + 1;
        }
    }
    t->nblocks = t->ply_block[t->nplies];
    if (!rc)
        rc = oxo_mp_bin(root, "blocks", &bin, &blen, err);
    if (!rc && blen / 8 != t->nblocks + 1)
        rc = oxo_fail(err, OXO_E_FIELD, "\"blocks\" is %u bytes, expected %llu for %llu blocks",
                      blen, (unsigned long long)(8 * (t->nblocks + 1)),
                      (unsigned long long)t->nblocks);
    if (!rc && !(t->block_at = malloc((t->nblocks + 1) * sizeof *t->block_at)))
        return oxo_fail(err, OXO_E_NOMEM, "the places of %llu blocks",
                        (unsigned long long)t->nblocks);
    /* A block is a zstd frame: more than its 9-byte frame header and checksum, and no more than
     * zstd's bound for its numbers. */
    const uint64_t most = ZSTD_COMPRESSBOUND(t->block_numbers) + 32;
    for (uint64_t i = 0; !rc && i <= t->nblocks; i++) {
        t->block_at[i] = le64(bin + 8 * i);
        uint64_t size = i ? t->block_at[i] - t->block_at[i - 1] : 0;
        if (i ? t->block_at[i] <= t->block_at[i - 1] || size < 12 || size > most
              : t->block_at[0] != 0)
            rc = oxo_fail(err, OXO_E_FIELD,
                          "\"blocks\": block %llu starts at %llu, after one that starts at %llu; "
                          "expected the first at 0, each 12 to %llu bytes",
                          (unsigned long long)i, (unsigned long long)t->block_at[i],
                          (unsigned long long)(i ? t->block_at[i - 1] : 0),
                          (unsigned long long)most);
    }
    return rc;
}

int oxo_table_decode_body(const uint8_t *body, size_t len, int major, int minor, oxo_table **out,
                          oxo_error *err)
{
    return oxo_table_decode_body_bounded(body, len, major, minor, NULL, out, err);
}

int oxo_table_decode_body_bounded(const uint8_t *body, size_t len, int major, int minor,
                                  const oxo_table_bound *bound, oxo_table **out, oxo_error *err)
{
    msgpack_unpacked up;
    oxo_table *t = calloc(1, sizeof *t);
    uint64_t u;
    const uint8_t *bin;
    uint32_t blen;
    *out = NULL;
    if (!t)
        return oxo_fail(err, OXO_E_NOMEM, "table");
    int rc = oxo_mp_unpack(body, len, OXO_TABLE_MAX_OBJECTS, &up, err);
    const msgpack_object *root = &up.data;
    t->major = major;
    t->minor = minor;
    if (!rc && (major < 1 || major > 3))
        rc = oxo_fail(err, OXO_E_VERSION, "table format %d unsupported (this build reads 1 to 3)",
                      major);
    if (!rc)
        rc = oxo_mp_str(root, "game", t->game, sizeof t->game, err);
    if (!rc && !(rc = oxo_mp_uint(root, "rows", 64, &u, err)))
        t->rows = (uint32_t)u;
    if (!rc && !(rc = oxo_mp_uint(root, "cols", 64, &u, err)))
        t->cols = (uint32_t)u;
    if (!rc && (t->rows == 0 || t->cols == 0 || t->rows * t->cols > 64))
        rc = oxo_fail(err, OXO_E_FIELD, "board %ux%u, expected 1 to 64 cells", t->rows, t->cols);
    if (!rc)
        rc = oxo_mp_str(root, "index", t->index, sizeof t->index, err);
    if (!rc && major == 1 && strcmp(t->index, "ply-code"))
        rc = oxo_fail(err, OXO_E_FIELD, "index \"%s\" in a format 1 table, expected \"ply-code\"",
                      t->index);
    if (!rc)
        rc = oxo_mp_bool(root, "symmetric", &t->symmetric, err);
    if (!rc)
        rc = read_counts(root, &t->counts, err);
    if (!rc)
        rc = oxo_mp_str(root, "root_value", t->root_value, sizeof t->root_value, err);
    if (!rc && strcmp(t->root_value, "win") && strcmp(t->root_value, "draw") &&
        strcmp(t->root_value, "loss"))
        rc = oxo_fail(err, OXO_E_FIELD, "root_value \"%s\", expected win, draw or loss",
                      t->root_value);
    if (!rc)
        rc = oxo_mp_str(root, "generator", t->generator, sizeof t->generator, err);
    if (!rc && major == OXO_TABLE_MAJOR_BLOCKS) {
        /* The entries are in the blocks after the head. */
        rc = read_blocks(root, t, err);
        msgpack_unpacked_destroy(&up);
        if (rc) {
            oxo_table_free(t);
            return rc;
        }
        *out = t;
        return OXO_OK;
    }
    if (!rc)
        rc = oxo_mp_bin(root, "entries", &bin, &blen, err);
    if (!rc && blen == 0)
        rc = oxo_fail(err, OXO_E_FIELD, "\"entries\" is empty, expected one byte per position");
    if (!rc && major == 2)
        rc = !strcmp(t->index, "sorted-codes") ? read_sorted(root, t, blen, bound, err)
                                               : read_bitmap(root, t, blen, err);
    if (!rc) {
        uint32_t cells = t->rows * t->cols;
        for (uint32_t i = 0; i < blen && !rc; i++)
            if ((bin[i] & 3) == 3 || OXO_ENTRY_DISTANCE(bin[i]) > (int)cells)
                rc = oxo_fail(
                    err, OXO_E_FIELD,
                    "entry %u is 0x%02x: value code %d, distance %d; expected value 0-2 and "
                    "distance 0-%u",
                    i, bin[i], bin[i] & 3, OXO_ENTRY_DISTANCE(bin[i]), cells);
    }
    if (!rc) {
        t->entries = malloc(blen);
        if (!t->entries)
            rc = oxo_fail(err, OXO_E_NOMEM, "%u table entries", blen);
        else {
            memcpy(t->entries, bin, blen);
            t->n = blen;
        }
    }
    msgpack_unpacked_destroy(&up);
    if (rc) {
        oxo_table_free(t);
        return rc;
    }
    *out = t;
    return OXO_OK;
}

int oxo_table_decode(const uint8_t *data, size_t len, oxo_table **out, oxo_error *err)
{
    uint8_t *body;
    size_t blen;
    int major, minor;
    *out = NULL;
    int rc =
        oxo_container_decode(data, len, OXO_KIND_TABLE, NULL, &major, &minor, &body, &blen, err);
    if (rc)
        return rc;
    rc = oxo_table_decode_body(body, blen, major, minor, out, err);
    free(body);
    return rc;
}

int oxo_table_read(const char *path, oxo_table **out, oxo_error *err)
{
    uint8_t *data;
    size_t len;
    *out = NULL;
    int rc = oxo_read_file(path, OXO_MAX_FILE, &data, &len, err);
    if (rc)
        return rc;
    rc = oxo_table_decode(data, len, out, err);
    free(data);
    return rc;
}
