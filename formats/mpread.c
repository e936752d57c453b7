/*
 * Typed getters over msgpack-c objects (see mpread.h).
 */
#include "mpread.h"

#include <math.h>
#include <string.h>

int oxo_mp_unpack(const uint8_t *body, size_t len, uint64_t max_objects, msgpack_unpacked *up,
                  oxo_error *err)
{
    msgpack_unpacked_init(up); /* first, so the caller may always destroy it */
    int rc = oxo_mp_check(body, len, max_objects, err);
    if (rc)
        return rc;
    size_t off = 0;
    msgpack_unpack_return r = msgpack_unpack_next(up, (const char *)body, len, &off);
    if (r == MSGPACK_UNPACK_NOMEM_ERROR)
        return oxo_fail(err, OXO_E_NOMEM, "unpacking a %zu-byte body", len);
    if (r != MSGPACK_UNPACK_SUCCESS || off != len)
        return oxo_fail(err, OXO_E_BODY, "MessagePack does not unpack (code %d)", (int)r);
    if (up->data.type != MSGPACK_OBJECT_MAP)
        return oxo_fail(err, OXO_E_BODY, "the body is MessagePack type %d, expected a map",
                        (int)up->data.type);
    return OXO_OK;
}

const msgpack_object *oxo_mp_get(const msgpack_object *map, const char *key)
{
    size_t klen = strlen(key);
    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object *k = &map->via.map.ptr[i].key;
        if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == klen &&
            memcmp(k->via.str.ptr, key, klen) == 0)
            return &map->via.map.ptr[i].val;
    }
    return NULL;
}

static const msgpack_object *need(const msgpack_object *map, const char *key, oxo_error *err)
{
    const msgpack_object *o = oxo_mp_get(map, key);
    if (!o)
        oxo_fail(err, OXO_E_FIELD, "key \"%s\" is missing", key);
    return o;
}

int oxo_mp_str(const msgpack_object *map, const char *key, char *out, size_t cap, oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    if (!o)
        return OXO_E_FIELD;
    if (o->type != MSGPACK_OBJECT_STR)
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is MessagePack type %d, expected a string", key,
                        (int)o->type);
    if (o->via.str.size >= cap)
        return oxo_fail(err, OXO_E_FIELD,
                        "\"%s\" is a %u-byte string, expected at most %zu printable bytes", key,
                        o->via.str.size, cap - 1);
    for (uint32_t i = 0; i < o->via.str.size; i++) {
        unsigned char ch = (unsigned char)o->via.str.ptr[i];
        if (ch < 0x20 || ch > 0x7e)
            return oxo_fail(err, OXO_E_FIELD,
                            "\"%s\" holds byte 0x%02x at %u, expected printable "
                            "ASCII (0x20 to 0x7e)",
                            key, ch, i);
    }
    memcpy(out, o->via.str.ptr, o->via.str.size);
    out[o->via.str.size] = 0;
    return OXO_OK;
}

int oxo_mp_uint(const msgpack_object *map, const char *key, uint64_t max, uint64_t *out,
                oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    if (!o)
        return OXO_E_FIELD;
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return oxo_fail(err, OXO_E_FIELD,
                        "\"%s\" is MessagePack type %d, expected an unsigned integer", key,
                        (int)o->type);
    if (o->via.u64 > max)
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is %llu, expected at most %llu", key,
                        (unsigned long long)o->via.u64, (unsigned long long)max);
    *out = o->via.u64;
    return OXO_OK;
}

int oxo_mp_num(const msgpack_object *map, const char *key, double lo, double hi, double *out,
               oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    double v;
    if (!o)
        return OXO_E_FIELD;
    if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64)
        v = o->via.f64;
    else if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER)
        v = (double)o->via.u64;
    else if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        v = (double)o->via.i64;
    else
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is MessagePack type %d, expected a number", key,
                        (int)o->type);
    if (!(v >= lo && v <= hi)) /* also refuses NaN */
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is %g, expected %g to %g", key, v, lo, hi);
    *out = v;
    return OXO_OK;
}

int oxo_mp_bool(const msgpack_object *map, const char *key, int *out, oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    if (!o)
        return OXO_E_FIELD;
    if (o->type != MSGPACK_OBJECT_BOOLEAN)
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is MessagePack type %d, expected a boolean", key,
                        (int)o->type);
    *out = o->via.boolean;
    return OXO_OK;
}

int oxo_mp_bin(const msgpack_object *map, const char *key, const uint8_t **data, uint32_t *len,
               oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    if (!o)
        return OXO_E_FIELD;
    if (o->type != MSGPACK_OBJECT_BIN)
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is MessagePack type %d, expected bin", key,
                        (int)o->type);
    *data = (const uint8_t *)o->via.bin.ptr;
    *len = o->via.bin.size;
    return OXO_OK;
}

int oxo_mp_map(const msgpack_object *map, const char *key, const msgpack_object **out,
               oxo_error *err)
{
    const msgpack_object *o = need(map, key, err);
    if (!o)
        return OXO_E_FIELD;
    if (o->type != MSGPACK_OBJECT_MAP)
        return oxo_fail(err, OXO_E_FIELD, "\"%s\" is MessagePack type %d, expected a map", key,
                        (int)o->type);
    *out = o;
    return OXO_OK;
}
