/*
 * Small helpers for the writers over msgpack-c's packer: keys are always strings, and the key order
 * is fixed by the calls, which makes the bytes deterministic. Private to formats/.
 */
#ifndef OXO_MPWRITE_H
#define OXO_MPWRITE_H

#include <msgpack.h>
#include <string.h>

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
