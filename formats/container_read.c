/*
 * Read side of the container: file loading with a size cap, header checks, the zstd frame.
 * Every refusal names what was found and what was expected.
 */
#include "format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

static const char *const names[OXO_E_COUNT] = {
    [OXO_OK] = "ok",
    [OXO_E_IO] = "i/o error",
    [OXO_E_NOMEM] = "out of memory",
    [OXO_E_EMPTY] = "empty file",
    [OXO_E_TRUNCATED] = "truncated file",
    [OXO_E_MAGIC] = "bad magic",
    [OXO_E_KIND] = "wrong kind of file",
    [OXO_E_VERSION] = "unsupported version",
    [OXO_E_HEADER] = "bad header",
    [OXO_E_TRAILING] = "trailing garbage",
    [OXO_E_FRAME] = "corrupt compressed frame",
    [OXO_E_CHECKSUM] = "checksum mismatch",
    [OXO_E_BODY] = "malformed body",
    [OXO_E_FIELD] = "bad field",
    [OXO_E_GAME] = "body does not fit the game",
    [OXO_E_HASH] = "content hash mismatch",
    [OXO_E_ARG] = "bad argument",
};

const char *oxo_strerror(oxo_errcode code)
{
    return (code >= 0 && code < OXO_E_COUNT) ? names[code] : "unknown error";
}

int oxo_fail(oxo_error *err, oxo_errcode code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        int n =
            code == OXO_E_ARG ? 0 : snprintf(err->msg, sizeof err->msg, "%s: ", oxo_strerror(code));
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

int oxo_context(oxo_error *err, const char *fmt, ...)
{
    if (!err)
        return OXO_OK;
    char inner[sizeof err->msg];
    memcpy(inner, err->msg, sizeof inner);
    inner[sizeof inner - 1] = '\0';
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* ": " and as much of the inner sentence as fits, with its NUL */
    size_t at = n < 0 ? 0 : (size_t)n;
    if (at + 3 < sizeof err->msg) {
        size_t k = strnlen(inner, sizeof err->msg - at - 3);
        memcpy(err->msg + at, ": ", 2);
        memcpy(err->msg + at + 2, inner, k);
        err->msg[at + 2 + k] = '\0';
    }
    return err->code;
}

uint64_t oxo_fnv1a(const void *data, size_t len, uint64_t h)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int oxo_read_file(const char *path, size_t max, uint8_t **data, size_t *len, oxo_error *err)
{
    struct stat st;
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. The file
     * must be a regular file before anything is read from it; then reads block as usual. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return oxo_fail(err, OXO_E_IO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0) {
        close(fd);
        return oxo_fail(err, OXO_E_IO, "cannot read %s: %s", path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        int dir = S_ISDIR(st.st_mode);
        close(fd);
        return oxo_fail(err, OXO_E_IO, "%s is %s, not a regular file", path,
                        dir ? "a directory" : "a device, a FIFO or a socket");
    }
    if ((uint64_t)st.st_size > max) {
        close(fd);
        return oxo_fail(err, OXO_E_HEADER,
                        "%s is %lld bytes, larger than any oxo file (at most %zu)", path,
                        (long long)st.st_size, max);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        close(fd);
        return oxo_fail(err, OXO_E_IO, "cannot read %s: %s", path, strerror(errno));
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(n + 1);
    if (!buf) {
        close(fd);
        return oxo_fail(err, OXO_E_NOMEM, "%zu bytes for %s", n, path);
    }
    /* One byte more than the size: a file that grew while being read is refused, not cut. */
    while (got < n + 1) {
        ssize_t r = read(fd, buf + got, n + 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r < 0)
                got = SIZE_MAX;
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    if (got != n) {
        free(buf);
        return oxo_fail(err, OXO_E_IO, "cannot read %s%s", path,
                        got == SIZE_MAX ? "" : ": it changed while being read");
    }
    *data = buf;
    *len = n;
    return OXO_OK;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const char *kind_name(int kind)
{
    return kind == OXO_KIND_TABLE ? "table" : kind == OXO_KIND_MODEL ? "model" : "unknown kind";
}

/* The header alone: magic, kind, version, reserved byte. head: the file is read a block at a time
 * (oxo_container_head), which a table of format 3 alone is. */
static int check_header(const uint8_t *data, size_t len, int kind, int head, oxo_error *err)
{
    if (len == 0)
        return oxo_fail(err, OXO_E_EMPTY, "0 bytes, expected a %d-byte header and a zstd frame",
                        OXO_HEADER_SIZE);
    if (len < 4 || memcmp(data, OXO_MAGIC, 4) != 0) {
        if (len < 4 && memcmp(data, OXO_MAGIC, len) == 0)
            return oxo_fail(err, OXO_E_TRUNCATED, "%zu bytes, shorter than the %d-byte header", len,
                            OXO_HEADER_SIZE);
        return oxo_fail(err, OXO_E_MAGIC,
                        "found %02x %02x %02x %02x, expected 89 4f 58 4f (\\x89OXO)", data[0],
                        len > 1 ? data[1] : 0, len > 2 ? data[2] : 0, len > 3 ? data[3] : 0);
    }
    if (len < OXO_HEADER_SIZE)
        return oxo_fail(err, OXO_E_TRUNCATED, "%zu bytes, shorter than the %d-byte header", len,
                        OXO_HEADER_SIZE);
    if (data[4] != OXO_KIND_TABLE && data[4] != OXO_KIND_MODEL)
        return oxo_fail(err, OXO_E_KIND, "kind byte 0x%02x, expected 'T' (table) or 'M' (model)",
                        data[4]);
    if (kind && data[4] != kind)
        return oxo_fail(err, OXO_E_KIND, "this file is a %s, expected a %s", kind_name(data[4]),
                        kind_name(kind));
    int top = data[4] == OXO_KIND_TABLE ? 3 : OXO_FORMAT_MAJOR;
    if (data[5] < 1 || data[5] > top)
        return oxo_fail(err, OXO_E_VERSION, "%s format %u.%u unsupported (this build reads %s)",
                        kind_name(data[4]), data[5], data[6], top == 3 ? "1.x to 3.x" : "1.x");
    /* A table in blocks is opened from its file (its blocks read when asked), never as bytes in
     * memory; and only such a table is. */
    if (data[4] == OXO_KIND_TABLE && (data[5] == 3) != head)
        return oxo_fail(err, OXO_E_VERSION,
                        head ? "table format %u.%u is read whole; only format 3 is read a block "
                               "at a time"
                             : "table format %u.%u is read from its file a block at a time "
                               "(oxo_table_open), not from bytes in memory",
                        data[5], data[6]);
    if (data[7] != 0)
        return oxo_fail(err, OXO_E_HEADER, "reserved byte 7 is 0x%02x, expected 0", data[7]);
    return OXO_OK;
}

/* The body's first key and its value, `game` and a spec, read from its first bytes (prefix, n of
 * them): the spec into game (cap bytes), 0; or -1 when the body does not start so. */
static int first_game(const uint8_t *p, size_t n, char *game, size_t cap)
{
    size_t at = 0;
    if (n > 0 && (p[0] & 0xf0) == 0x80)
        at = 1; /* fixmap */
    else if (n > 2 && p[0] == 0xde)
        at = 3; /* map 16 */
    else if (n > 4 && p[0] == 0xdf)
        at = 5; /* map 32 */
    else
        return -1;
    if (at + 5 > n || p[at] != 0xa4 || memcmp(p + at + 1, "game", 4))
        return -1;
    at += 5;
    size_t len;
    if (at < n && (p[at] & 0xe0) == 0xa0)
        len = p[at] & 0x1f, at += 1; /* fixstr */
    else if (at + 1 < n && p[at] == 0xd9)
        len = p[at + 1], at += 2; /* str 8 */
    else
        return -1;
    if (len == 0 || len >= cap || at + len > n)
        return -1;
    memcpy(game, p + at, len);
    game[len] = '\0';
    return 0;
}

/* The first bytes of a frame's content (at most cap, fewer when the content is shorter or the
 * frame is damaged: the whole decompression names that) into out, *got of them, by streaming:
 * only the blocks that hold them are decoded. 0, or -1 when memory ran out. */
static int frame_prefix(const uint8_t *frame, size_t flen, uint8_t *out, size_t cap, size_t *got)
{
    *got = 0;
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d)
        return -1;
    /* A single-segment frame's window is its whole content; nothing of it is written past cap
     * but the block being decoded, so the larger window costs address space, not memory. */
    ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
    ZSTD_inBuffer in = {frame, flen, 0};
    ZSTD_outBuffer o = {out, cap, 0};
    int rc = 0;
    while (o.pos < cap && in.pos < in.size) {
        size_t r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r))
            rc = ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation ? -1 : 0;
        if (ZSTD_isError(r) || r == 0)
            break;
    }
    ZSTD_freeDCtx(d);
    *got = o.pos;
    return rc;
}

int oxo_container_decode(const uint8_t *data, size_t len, int kind, int *kind_out, int *major,
                         int *minor, uint8_t **body, size_t *body_len, oxo_error *err)
{
    return oxo_container_decode_bounded(data, len, kind, kind_out, major, minor, body, body_len,
                                        NULL, err);
}

static int decode(const uint8_t *data, size_t len, int kind, int *kind_out, int *major, int *minor,
                  uint8_t **body, size_t *body_len, const oxo_body_bound *bound, int in_blocks,
                  oxo_error *err)
{
    *body = NULL;
    *body_len = 0;
    int rc = check_header(data, len, kind, in_blocks, err);
    if (rc)
        return rc;
    uint32_t blen = le32(data + 8), flen = le32(data + 12);
    uint32_t cap = data[4] == OXO_KIND_TABLE ? (1u << 30) : OXO_MAX_BODY;
    if (blen == 0 || blen > cap)
        return oxo_fail(err, OXO_E_HEADER, "body size %u, expected 1 to %u bytes", blen, cap);
    if ((uint64_t)blen > (uint64_t)OXO_MAX_RATIO * flen + (1u << 20))
        return oxo_fail(err, OXO_E_HEADER,
                        "body size %u from a %u-byte frame: more than %u times the "
                        "frame, which no oxo file needs",
                        blen, flen, OXO_MAX_RATIO);
    if ((uint64_t)len < (uint64_t)OXO_HEADER_SIZE + flen)
        return oxo_fail(err, OXO_E_TRUNCATED, "%zu bytes, the header announces %d + %u", len,
                        OXO_HEADER_SIZE, flen);
    if (!in_blocks && (uint64_t)len > (uint64_t)OXO_HEADER_SIZE + flen)
        return oxo_fail(err, OXO_E_TRAILING, "%zu bytes after the %u-byte frame",
                        len - OXO_HEADER_SIZE - flen, flen);
    const uint8_t *frame = data + OXO_HEADER_SIZE;
    /* Frame header: magic (4 bytes) then the descriptor, whose bit 2 says a checksum follows. */
    if (flen < 6 || le32(frame) != 0xFD2FB528u)
        return oxo_fail(err, OXO_E_FRAME, "no zstd frame magic after the header");
    if (!(frame[4] & 4))
        return oxo_fail(err, OXO_E_FRAME, "the zstd frame has no content checksum, expected one");
    size_t fsize = ZSTD_findFrameCompressedSize(frame, flen);
    if (ZSTD_isError(fsize))
        return oxo_fail(err, OXO_E_FRAME, "%s", ZSTD_getErrorName(fsize));
    if (fsize != flen)
        return oxo_fail(err, OXO_E_TRAILING, "%zu bytes after the zstd frame inside its %u bytes",
                        flen - fsize, flen);
    unsigned long long csize = ZSTD_getFrameContentSize(frame, flen);
    if (csize != blen)
        return oxo_fail(err, OXO_E_FRAME, "frame content size %s%llu, the header says %u",
                        csize == ZSTD_CONTENTSIZE_UNKNOWN ? "unknown " : "",
                        csize >= ZSTD_CONTENTSIZE_ERROR ? 0ull : csize, blen);
    if (bound && bound->most) {
        uint8_t head[96];
        char game[64];
        size_t got;
        if (frame_prefix(frame, flen, head, sizeof head < blen ? sizeof head : blen, &got))
            return oxo_fail(err, OXO_E_NOMEM, "decompressing the body's beginning");
        if (first_game(head, got, game, sizeof game))
            return oxo_fail(err, OXO_E_BODY,
                            "the body does not begin with its game (key \"game\")");
        uint64_t most;
        if ((rc = bound->most(bound->ctx, data[4], data[5], game, &most, err)))
            return rc;
        if (most && blen > most)
            return oxo_fail(err, OXO_E_GAME,
                            "a body of %u bytes, more than any %s of %s needs (%llu): refused "
                            "before it is decompressed",
                            blen, kind_name(data[4]), game, (unsigned long long)most);
    }
    uint8_t *out = malloc(blen);
    if (!out)
        return oxo_fail(err, OXO_E_NOMEM, "%u bytes for the body", blen);
    size_t got = ZSTD_decompress(out, blen, frame, flen);
    if (ZSTD_isError(got)) {
        free(out);
        if (ZSTD_getErrorCode(got) == ZSTD_error_checksum_wrong)
            return oxo_fail(err, OXO_E_CHECKSUM, "the content does not match the frame's checksum");
        return oxo_fail(err, OXO_E_FRAME, "%s", ZSTD_getErrorName(got));
    }
    if (got != blen) {
        free(out);
        return oxo_fail(err, OXO_E_FRAME, "decompressed %zu bytes, the header says %u", got, blen);
    }
    if (kind_out)
        *kind_out = data[4];
    if (major)
        *major = data[5];
    if (minor)
        *minor = data[6];
    *body = out;
    *body_len = blen;
    return OXO_OK;
}

int oxo_container_decode_bounded(const uint8_t *data, size_t len, int kind, int *kind_out,
                                 int *major, int *minor, uint8_t **body, size_t *body_len,
                                 const oxo_body_bound *bound, oxo_error *err)
{
    return decode(data, len, kind, kind_out, major, minor, body, body_len, bound, 0, err);
}

int oxo_container_head(const uint8_t *data, size_t len, int kind, int *major, int *minor,
                       uint8_t **body, size_t *body_len, const oxo_body_bound *bound,
                       oxo_error *err)
{
    return decode(data, len, kind, NULL, major, minor, body, body_len, bound, 1, err);
}
