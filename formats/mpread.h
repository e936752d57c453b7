/*
 * Typed access to an unpacked MessagePack map, for the readers: each getter fails with a sentence
 * naming the key, the type or range found and the one expected. Private to formats/.
 */
#ifndef OXO_MPREAD_H
#define OXO_MPREAD_H

#include "format.h"

#include <msgpack.h>

/* Unpacks a body that passed oxo_mp_check into *obj (root must be a map). */
int oxo_mp_unpack(const uint8_t *body, size_t len, msgpack_unpacked *up, oxo_error *err);

const msgpack_object *oxo_mp_get(const msgpack_object *map, const char *key);
int oxo_mp_str(const msgpack_object *map, const char *key, char *out, size_t cap, oxo_error *err);
int oxo_mp_uint(const msgpack_object *map, const char *key, uint64_t max, uint64_t *out,
                oxo_error *err);
int oxo_mp_num(const msgpack_object *map, const char *key, double lo, double hi, double *out,
               oxo_error *err);
int oxo_mp_bool(const msgpack_object *map, const char *key, int *out, oxo_error *err);
int oxo_mp_bin(const msgpack_object *map, const char *key, const uint8_t **data, uint32_t *len,
               oxo_error *err);
int oxo_mp_map(const msgpack_object *map, const char *key, const msgpack_object **out,
               oxo_error *err);

#endif
