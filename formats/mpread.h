/*
 * Typed access to an unpacked MessagePack map, for the readers: each getter fails with a sentence
 * naming the key, the type or range found and the one expected. Private to formats/.
 */
#ifndef OXO_MPREAD_H
#define OXO_MPREAD_H

#include "format.h"

#include <msgpack.h>

/* Checks a body (oxo_mp_check, at most max_objects objects) and unpacks it into *up (root must be
 * a map). */
int oxo_mp_unpack(const uint8_t *body, size_t len, uint64_t max_objects, msgpack_unpacked *up,
                  oxo_error *err);

const msgpack_object *oxo_mp_get(const msgpack_object *map, const char *key);
/* Strings are printable ASCII (0x20-0x7e) and shorter than cap: what files hold is shown to
 * people and printed into JSON, so nothing else is accepted. */
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
