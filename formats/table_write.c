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
    oxo_pk_init(&buf, &pk);
    msgpack_pack_map(&pk, 9);
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
    oxo_pk_kv_u64(&pk, "canonical_nonterminal_positions", t->counts.canonical_nonterminal_positions);
    oxo_pk_kv_str(&pk, "root_value", t->root_value);
    oxo_pk_kv_str(&pk, "generator", t->generator);
    oxo_pk_kv_bin(&pk, "entries", t->entries, t->n);
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
    if ((rc = oxo_table_decode_body(body, len, OXO_TABLE_MINOR, &check, err)) == OXO_OK)
        oxo_table_free(check);
    else
        oxo_refuse_write(path, rc, err);
    if (!rc)
        rc = oxo_container_write(path, OXO_KIND_TABLE, OXO_TABLE_MINOR, body, len, err);
    free(body);
    return rc;
}
