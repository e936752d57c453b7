/*
 * Small helpers for the writers over msgpack-c's packer: keys are always strings, and the key order
 * is fixed by the calls, which makes the bytes deterministic. Private to formats/.
 */
#ifndef OXO_MPWRITE_H
#define OXO_MPWRITE_H

#include <msgpack.h>
#include <string.h>

/* A packing buffer that remembers a failed write (an allocation that failed while growing), since
 * msgpack-c's pack functions report it only through return values nobody chains. */
typedef struct oxo_pkbuf {
    msgpack_sbuffer sb;
    int failed;
} oxo_pkbuf;

static inline int oxo_pk_write(void *data, const char *buf, size_t len)
{
    oxo_pkbuf *b = (oxo_pkbuf *)data;
    if (b->failed || msgpack_sbuffer_write(&b->sb, buf, len) != 0) {
        b->failed = 1;
        return -1;
    }
    return 0;
}

static inline void oxo_pk_init(oxo_pkbuf *b, msgpack_packer *pk)
{
    msgpack_sbuffer_init(&b->sb);
    b->failed = 0;
    msgpack_packer_init(pk, b, oxo_pk_write);
}

static inline void oxo_pk_str(msgpack_packer *pk, const char *s)
{
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

static inline void oxo_pk_kv_str(msgpack_packer *pk, const char *k, const char *v)
{
    oxo_pk_str(pk, k);
    oxo_pk_str(pk, v);
}

static inline void oxo_pk_kv_u64(msgpack_packer *pk, const char *k, uint64_t v)
{
    oxo_pk_str(pk, k);
    msgpack_pack_uint64(pk, v);
}

static inline void oxo_pk_kv_f64(msgpack_packer *pk, const char *k, double v)
{
    oxo_pk_str(pk, k);
    msgpack_pack_double(pk, v);
}

static inline void oxo_pk_kv_bin(msgpack_packer *pk, const char *k, const void *p, size_t n)
{
    oxo_pk_str(pk, k);
    msgpack_pack_bin(pk, n);
    msgpack_pack_bin_body(pk, p, n);
}

#endif
