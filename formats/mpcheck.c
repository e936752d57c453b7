/*
 * A MessagePack walker that allocates nothing. msgpack-c's unpacker sizes its arrays from the
 * counts it reads (5 bytes, dd ff 00 00 00, make it ask for 128 GiB), so every body goes through
 * this check first: afterwards each count is at most the bytes that remain, and unpacking costs
 * memory in proportion to the (already capped) body size.
 *
 * The number of objects is capped too, by the caller, from what its kind of file can hold:
 * msgpack-c spends 24 bytes or more on every object, so a 2.6 KB file whose unknown key holds 67
 * million nils (one byte each after decompression) would otherwise cost 1.6 GB to unpack.
 */
#include "format.h"

#define MAX_DEPTH 32

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

int oxo_mp_check(const uint8_t *buf, size_t len, uint64_t max_objects, oxo_error *err)
{
    uint64_t pending[MAX_DEPTH + 1]; /* objects still to read at each depth */
    int depth = 0;
    size_t off = 0;
    uint64_t objects = 0;
    pending[0] = 1;
    while (depth >= 0) {
        if (pending[depth] == 0) {
            depth--;
            continue;
        }
        pending[depth]--;
        if (++objects > max_objects)
            return oxo_fail(err, OXO_E_BODY,
                            "MessagePack body holds more than %llu objects, more than this kind of "
                            "file ever needs",
                            (unsigned long long)max_objects);
        if (off >= len)
            return oxo_fail(err, OXO_E_BODY, "MessagePack ends at byte %zu inside an object", off);
        uint8_t t = buf[off++];
        size_t rem = len - off;
        uint64_t skip = 0, children = 0;
        int lenbytes = 0, is_container = 0;
        if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
            /* fixints, nil, booleans: the type byte is all */
        } else if (t >= 0x80 && t <= 0x8f) {
            children = 2ull * (t & 0x0f), is_container = 1;
        } else if (t >= 0x90 && t <= 0x9f) {
            children = t & 0x0f, is_container = 1;
        } else if (t >= 0xa0 && t <= 0xbf) {
            skip = t & 0x1f;
        } else {
            switch (t) {
            case 0xc4:
            case 0xd9:
                lenbytes = 1;
                break; /* bin8, str8 */
            case 0xc5:
            case 0xda:
                lenbytes = 2;
                break;
            case 0xc6:
            case 0xdb:
                lenbytes = 4;
                break;
            case 0xc7:
                lenbytes = 1;
                skip = 1;
                break; /* ext: + type byte */
            case 0xc8:
                lenbytes = 2;
                skip = 1;
                break;
            case 0xc9:
                lenbytes = 4;
                skip = 1;
                break;
            case 0xca:
                skip = 4;
                break;
            case 0xcb:
                skip = 8;
                break;
            case 0xcc:
            case 0xd0:
                skip = 1;
                break;
            case 0xcd:
            case 0xd1:
                skip = 2;
                break;
            case 0xce:
            case 0xd2:
                skip = 4;
                break;
            case 0xcf:
            case 0xd3:
                skip = 8;
                break;
            case 0xd4:
                skip = 2;
                break;
            case 0xd5:
                skip = 3;
                break;
            case 0xd6:
                skip = 5;
                break;
            case 0xd7:
                skip = 9;
                break;
            case 0xd8:
                skip = 17;
                break;
            case 0xdc:
                lenbytes = 2;
                is_container = 1;
                break;
            case 0xdd:
                lenbytes = 4;
                is_container = 1;
                break;
            case 0xde:
                lenbytes = 2;
                is_container = 2;
                break;
            case 0xdf:
                lenbytes = 4;
                is_container = 2;
                break;
            default:
                return oxo_fail(err, OXO_E_BODY,
                                "MessagePack type byte 0x%02x at byte %zu is never used", t,
                                off - 1);
            }
        }
        if (lenbytes) {
            if (rem < (size_t)lenbytes)
                return oxo_fail(err, OXO_E_BODY, "MessagePack length at byte %zu cut off", off);
            uint64_t n = be(buf + off, lenbytes);
            off += (size_t)lenbytes;
            rem -= (size_t)lenbytes;
            if (is_container)
                children = is_container == 2 ? 2 * n : n;
            else
                skip += n;
        }
        if (is_container) {
            if (children > rem)
                return oxo_fail(
                    err, OXO_E_BODY,
                    "MessagePack %s at byte %zu claims %llu elements, only %zu bytes remain",
                    (t & 0xf0) == 0x80 || t >= 0xde ? "map" : "array", off,
                    (unsigned long long)children, rem);
            if (children) {
                if (depth == MAX_DEPTH)
                    return oxo_fail(err, OXO_E_BODY, "MessagePack nested deeper than %d",
                                    MAX_DEPTH);
                pending[++depth] = children;
            }
        } else {
            if (skip > rem)
                return oxo_fail(err, OXO_E_BODY,
                                "MessagePack object at byte %zu needs %llu bytes, only %zu remain",
                                off, (unsigned long long)skip, rem);
            off += (size_t)skip;
        }
    }
    if (off != len)
        return oxo_fail(err, OXO_E_BODY, "%zu bytes after the MessagePack body", len - off);
    return OXO_OK;
}
