/*
 * Write side of the container: zstd at level 19 with the content checksum and the content size in
 * the frame, behind the 16-byte header, made in memory (the page's downloads) and saved atomically.
 * Nothing in it depends on time or on the machine, so the same body always gives the same file.
 */
#include "format.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int oxo_refuse_write(const char *path, int rc, oxo_error *err)
{
    if (err) {
        char why[sizeof err->msg];
        memcpy(why, err->msg, sizeof why);
        oxo_fail(err, (oxo_errcode)rc, "refusing to write %s: its reader would refuse it (%.300s)",
                 path, why);
    }
    return rc;
}

int oxo_container_encode(int kind, int major, int minor, const uint8_t *body, size_t len,
                         uint8_t **file, size_t *file_len, oxo_error *err)
{
    size_t most = kind == OXO_KIND_TABLE ? (1u << 30) : OXO_MAX_BODY;
    if (len == 0 || len > most)
        return oxo_fail(err, OXO_E_HEADER, "body of %zu bytes, expected 1 to %zu", len, most);
    size_t cap = OXO_HEADER_SIZE + ZSTD_compressBound(len);
    uint8_t *out = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    int rc = OXO_OK;
    if (!out || !cc) {
        rc = oxo_fail(err, OXO_E_NOMEM, "compressing %zu bytes", len);
        goto done;
    }
    /* Level 19 squeezes small files hardest; a body of megabytes (the bitmap of a big table) would
     * take minutes at that level, and level 6 keeps most of the gain in a tenth of the time. */
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, len <= (1u << 20) ? 19 : 6);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    size_t z = ZSTD_compress2(cc, out + OXO_HEADER_SIZE, cap - OXO_HEADER_SIZE, body, len);
    if (ZSTD_isError(z)) {
        rc = oxo_fail(err, OXO_E_FRAME, "zstd: %s", ZSTD_getErrorName(z));
        goto done;
    }
    memcpy(out, OXO_MAGIC, 4);
    out[4] = (uint8_t)kind;
    out[5] = (uint8_t)major;
    out[6] = (uint8_t)minor;
    out[7] = 0;
    put32(out + 8, (uint32_t)len);
    put32(out + 12, (uint32_t)z);
    *file = out;
    *file_len = OXO_HEADER_SIZE + z;
    out = NULL;
done:
    ZSTD_freeCCtx(cc);
    free(out);
    return rc;
}

int oxo_container_write(const char *path, int kind, int major, int minor, const uint8_t *body,
                        size_t len, oxo_error *err)
{
    uint8_t *file;
    size_t n;
    int rc = oxo_container_encode(kind, major, minor, body, len, &file, &n, err);
    if (rc)
        return rc;
    rc = oxo_atomic_write(path, file, n, err);
    free(file);
    return rc;
}
