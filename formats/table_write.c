/*
 * Table writer: a fixed key order, no timestamp, so the same table always gives the same bytes.
 * Every body is decoded by the reader before it is saved.
 */
#include "table.h"

#include "mpwrite.h"

#include <stdlib.h>

int oxo_table_encode_body(const oxo_table *t, uint8_t **body, size_t *len, oxo_error *err)
{
    oxo_pkbuf buf;
    msgpack_packer pk;
    const int v2 = t->major == OXO_TABLE_MAJOR_BITMAP, book = v2 && t->codes,
              v3 = t->major == OXO_TABLE_MAJOR_BLOCKS;
    uint8_t *keys = NULL;
    size_t nkeys = 0;
    if (book) {
        /* Each code as its difference from the one before, 7 bits a byte (table_read.c). */
        keys = malloc((size_t)t->n * 10 + 1);
        if (!keys)
            return oxo_fail(err, OXO_E_NOMEM, "encoding the book");
        uint64_t prev = 0;
        for (uint32_t i = 0; i < t->n; i++) {
            uint64_t d = t->codes[i] - prev;
            prev = t->codes[i];
            do {
                keys[nkeys++] = (uint8_t)((d & 0x7f) | (d > 0x7f ? 0x80 : 0));
                d >>= 7;
            } while (d);
        }
    } else if (v3) {
        /* The places of the blocks, as little-endian u64s (table_read.c). */
        nkeys = 8 * (t->nblocks + 1);
        if (!(keys = malloc(nkeys)))
            return oxo_fail(err, OXO_E_NOMEM, "encoding the table's head");
        for (uint64_t i = 0; i <= t->nblocks; i++)
            for (int b = 0; b < 8; b++)
                keys[8 * i + (uint64_t)b] = (uint8_t)(t->block_at[i] >> (8 * b));
    } else if (v2) {
        keys = malloc(t->nwords ? 8 * t->nwords : 1);
        if (!keys)
            return oxo_fail(err, OXO_E_NOMEM, "encoding the table");
        for (uint64_t w = 0; w < t->nwords; w++)
            for (int b = 0; b < 8; b++)
                keys[8 * w + (uint64_t)b] = (uint8_t)(t->keys[w] >> (8 * b));
    }
    oxo_pk_init(&buf, &pk);
    msgpack_pack_map(&pk, book ? 14 : v2 ? 13 : v3 ? 13 : 9);
    oxo_pk_kv_str(&pk, "game", t->game);
    oxo_pk_kv_u64(&pk, "rows", t->rows);
    oxo_pk_kv_u64(&pk, "cols", t->cols);
    oxo_pk_kv_str(&pk, "index", t->index);
    oxo_pk_str(&pk, "symmetric");
    t->symmetric ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
    oxo_pk_str(&pk, "counts");
    msgpack_pack_map(&pk, 9);
    oxo_pk_kv_u64(&pk, "nodes", t->counts.nodes);
    oxo_pk_kv_u64(&pk, "games", t->counts.games);
    oxo_pk_kv_u64(&pk, "x_wins", t->counts.x_wins);
    oxo_pk_kv_u64(&pk, "o_wins", t->counts.o_wins);
    oxo_pk_kv_u64(&pk, "draws", t->counts.draws);
    oxo_pk_kv_u64(&pk, "positions", t->counts.positions);
    oxo_pk_kv_u64(&pk, "terminal_positions", t->counts.terminal_positions);
    oxo_pk_kv_u64(&pk, "canonical_positions", t->counts.canonical_positions);
    oxo_pk_kv_u64(&pk, "canonical_nonterminal_positions",
                  t->counts.canonical_nonterminal_positions);
    oxo_pk_kv_str(&pk, "root_value", t->root_value);
    oxo_pk_kv_str(&pk, "generator", t->generator);
    if (v2) {
        oxo_pk_str(&pk, "tree");
        t->tree ? msgpack_pack_true(&pk) : msgpack_pack_false(&pk);
        oxo_pk_str(&pk, "positions_by_ply");
        msgpack_pack_array(&pk, t->nplies);
        for (uint32_t i = 0; i < t->nplies; i++)
            msgpack_pack_uint64(&pk, t->by_ply[i]);
        oxo_pk_kv_u64(&pk, "code_space", t->code_space);
        if (book)
            oxo_pk_kv_u64(&pk, "depth", t->depth);
        oxo_pk_kv_bin(&pk, "keys", keys, book ? nkeys : 8 * t->nwords);
    }
    if (v3) {
        oxo_pk_str(&pk, "tree");
        msgpack_pack_false(&pk);
        oxo_pk_str(&pk, "positions_by_ply");
        msgpack_pack_array(&pk, t->nplies);
        for (uint32_t i = 0; i < t->nplies; i++)
            msgpack_pack_uint64(&pk, t->by_ply[i]);
        oxo_pk_str(&pk, "ply_numbers");
        msgpack_pack_array(&pk, t->nplies);
        for (uint32_t i = 0; i < t->nplies; i++)
            msgpack_pack_uint64(&pk, t->ply_numbers[i]);
        oxo_pk_kv_u64(&pk, "block_numbers", t->block_numbers);
        oxo_pk_kv_bin(&pk, "blocks", keys, nkeys);
    } else
        oxo_pk_kv_bin(&pk, "entries", t->entries, t->n);
    free(keys);
    if (buf.failed || !buf.sb.data) {
        msgpack_sbuffer_destroy(&buf.sb);
        return oxo_fail(err, OXO_E_NOMEM, "encoding the table");
    }
    *body = (uint8_t *)buf.sb.data; /* sbuffer memory is malloc'd: the caller frees it */
    *len = buf.sb.size;
    return OXO_OK;
}

int oxo_table_write(const char *path, const oxo_table *t, oxo_error *err)
{
    uint8_t *body;
    size_t len;
    oxo_table *check;
    int rc = oxo_table_encode_body(t, &body, &len, err);
    if (rc)
        return rc;
    /* A writer never saves what its reader would refuse: the body is read back first. */
    const int major = t->major ? t->major : 1;
    if ((rc = oxo_table_decode_body(body, len, major, OXO_TABLE_MINOR, &check, err)) == OXO_OK)
        oxo_table_free(check);
    else
        oxo_refuse_write(path, rc, err);
    if (!rc)
        rc = oxo_container_write(path, OXO_KIND_TABLE, major, OXO_TABLE_MINOR, body, len, err);
    free(body);
    return rc;
}
