/*
 * Tables of format 3 read a block at a time: the file's head (the figures and the places of the
 * blocks) when it opens, then each block of entries when a lookup needs it, checked (its frame,
 * its size, its checksum, every entry) and kept among a few recent ones. A query of a 6x5 table
 * thus reads a few kilobytes, whatever the file's size, and the file never needs to fit in memory.
 */
#include "table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

/* Blocks kept, by block number modulo: a move's children sit in a few blocks of the next ply, and
 * a game walks from ply to ply, so a handful covers what a player asks in a row. */
#define SLOTS 16

struct oxo_table_file {
    int fd;
    uint64_t start;          /* where block 0 starts in the file */
    uint32_t cells;          /* the most an entry's distance may be */
    atomic_flag lock;        /* held for a copy of a byte or the swap of a slot: a spin is enough */
    ZSTD_DCtx *_Atomic dctx; /* a context to decompress with, taken by one reader at a time */
    uint64_t block[SLOTS];   /* the block a slot holds, plus 1 (0: empty) */
    uint8_t *data[SLOTS];
};

void oxo_table_file_close(struct oxo_table_file *f)
{
    if (!f)
        return;
    close(f->fd);
    ZSTD_freeDCtx(atomic_load(&f->dctx));
    for (int i = 0; i < SLOTS; i++)
        free(f->data[i]);
    free(f);
}

uint64_t oxo_table_block_bad(const uint8_t *e, uint64_t n, uint32_t cells)
{
    for (uint64_t i = 0; i < n; i++)
        if (e[i] != OXO_NO_ENTRY && ((e[i] & 3) == 3 || (uint32_t)OXO_ENTRY_DISTANCE(e[i]) > cells))
            return i + 1;
    return 0;
}

static int read_at(int fd, uint8_t *buf, size_t len, uint64_t at)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* The head: the header, then the first frame, whose size the header gives. */
static int open_head(int fd, const char *path, uint64_t size, const oxo_body_bound *bound,
                     oxo_table **out, oxo_error *err)
{
    uint8_t hdr[OXO_HEADER_SIZE];
    if (size < OXO_HEADER_SIZE || read_at(fd, hdr, sizeof hdr, 0))
        return oxo_fail(err, OXO_E_TRUNCATED, "%s: %llu bytes, shorter than the %d-byte header",
                        path, (unsigned long long)size, OXO_HEADER_SIZE);
    uint64_t flen = (uint64_t)hdr[12] | (uint64_t)hdr[13] << 8 | (uint64_t)hdr[14] << 16 |
                    (uint64_t)hdr[15] << 24;
    uint64_t have = size < OXO_HEADER_SIZE + flen ? size : OXO_HEADER_SIZE + flen;
    uint8_t *data = malloc(have);
    if (!data)
        return oxo_fail(err, OXO_E_NOMEM, "%llu bytes for the head of %s", (unsigned long long)have,
                        path);
    uint8_t *body = NULL;
    size_t blen;
    int major, minor;
    int rc = read_at(fd, data, have, 0)
                 ? oxo_fail(err, OXO_E_IO, "cannot read %s: %s", path, strerror(errno))
                 : oxo_container_head(data, have, OXO_KIND_TABLE, &major, &minor, &body, &blen,
                                      bound, err);
    free(data);
    if (!rc)
        rc = oxo_table_decode_body(body, blen, major, minor, out, err);
    free(body);
    if (!rc && size != OXO_HEADER_SIZE + flen + (*out)->block_at[(*out)->nblocks]) {
        uint64_t want = OXO_HEADER_SIZE + flen + (*out)->block_at[(*out)->nblocks];
        rc = oxo_fail(err, size < want ? OXO_E_TRUNCATED : OXO_E_TRAILING,
                      "%llu bytes, the head places its blocks up to byte %llu",
                      (unsigned long long)size, (unsigned long long)want);
        oxo_table_free(*out);
        *out = NULL;
    }
    return rc;
}

int oxo_table_open(const char *path, oxo_table **out, oxo_error *err)
{
    return oxo_table_open_bounded(path, NULL, out, err);
}

int oxo_table_open_bounded(const char *path, const oxo_body_bound *bound, oxo_table **out,
                           oxo_error *err)
{
    *out = NULL;
    /* O_NONBLOCK: a FIFO would otherwise block the open; a regular file alone is read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    uint8_t hdr[8];
    struct stat st;
    if (fd < 0)
        return oxo_fail(err, OXO_E_IO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || read_at(fd, hdr, sizeof hdr, 0) ||
        memcmp(hdr, OXO_MAGIC, 4) || hdr[4] != OXO_KIND_TABLE || hdr[5] != OXO_TABLE_MAJOR_BLOCKS) {
        /* Anything but a table in blocks is read whole, and refused there by name. */
        close(fd);
        return oxo_table_read(path, out, err);
    }
    int fl = fcntl(fd, F_GETFL);
    struct oxo_table_file *f = calloc(1, sizeof *f);
    int rc = !f ? oxo_fail(err, OXO_E_NOMEM, "a table file")
             : fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)
                 ? oxo_fail(err, OXO_E_IO, "cannot read %s: %s", path, strerror(errno))
                 : open_head(fd, path, (uint64_t)st.st_size, bound, out, err);
    if (rc) {
        free(f);
        close(fd);
        return rc;
    }
    f->fd = fd;
    f->start = (uint64_t)st.st_size - (*out)->block_at[(*out)->nblocks];
    f->cells = (*out)->rows * (*out)->cols;
    atomic_flag_clear(&f->lock);
    (*out)->file = f;
    return OXO_OK;
}

static void lock(struct oxo_table_file *f)
{
    while (atomic_flag_test_and_set_explicit(&f->lock, memory_order_acquire))
        ;
}

static void unlock(struct oxo_table_file *f)
{
    atomic_flag_clear_explicit(&f->lock, memory_order_release);
}

/* Block i, read, decompressed and checked into a buffer of its numbers (malloc'd). */
static int load_block(const oxo_table *t, uint64_t i, uint64_t numbers, uint8_t **out,
                      oxo_error *err)
{
    struct oxo_table_file *f = t->file;
    size_t size = (size_t)(t->block_at[i + 1] - t->block_at[i]);
    uint8_t *z = malloc(size), *e = malloc(numbers);
    int rc = OXO_OK;
    if (!z || !e)
        rc = oxo_fail(err, OXO_E_NOMEM, "reading block %llu", (unsigned long long)i);
    else if (read_at(f->fd, z, size, f->start + t->block_at[i]))
        rc = oxo_fail(err, OXO_E_IO, "cannot read block %llu of the table: %s",
                      (unsigned long long)i, errno ? strerror(errno) : "the file is shorter");
    else if (size < 6 || !(z[4] & 4) || ZSTD_findFrameCompressedSize(z, size) != size ||
             ZSTD_getFrameContentSize(z, size) != numbers)
        rc = oxo_fail(err, OXO_E_FRAME,
                      "block %llu is not one zstd frame of %llu entries with its checksum",
                      (unsigned long long)i, (unsigned long long)numbers);
    else {
        /* A context made once and reused: making one for each block took most of a lookup. */
        ZSTD_DCtx *d = atomic_exchange(&f->dctx, NULL);
        if (!d)
            d = ZSTD_createDCtx();
        size_t got =
            d ? ZSTD_decompressDCtx(d, e, numbers, z, size) : (size_t)-ZSTD_error_memory_allocation;
        if ((d = atomic_exchange(&f->dctx, d)))
            ZSTD_freeDCtx(d);
        uint64_t bad;
        if (ZSTD_isError(got))
            rc = oxo_fail(err,
                          ZSTD_getErrorCode(got) == ZSTD_error_checksum_wrong ? OXO_E_CHECKSUM
                                                                              : OXO_E_FRAME,
                          "block %llu: %s", (unsigned long long)i, ZSTD_getErrorName(got));
        else if ((bad = oxo_table_block_bad(e, numbers, f->cells)))
            rc = oxo_fail(err, OXO_E_FIELD,
                          "block %llu, entry %llu is 0x%02x: expected value 0-2 and distance "
                          "0-%u, or 0xff",
                          (unsigned long long)i, (unsigned long long)(bad - 1), e[bad - 1],
                          f->cells);
    }
    free(z);
    if (rc)
        free(e);
    else
        *out = e;
    return rc;
}

int oxo_table_entry_at(const oxo_table *t, uint32_t n, uint64_t num, uint8_t *entry, oxo_error *err)
{
    if (!t->file || n >= t->nplies || num >= t->ply_numbers[n])
        return oxo_fail(err, OXO_E_ARG, "no number %llu in ply %u of this table",
                        (unsigned long long)num, n);
    const uint64_t i = t->ply_block[n] + num / t->block_numbers, at = num % t->block_numbers;
    const uint64_t first = num - at, left = t->ply_numbers[n] - first;
    struct oxo_table_file *f = t->file;
    const int slot = (int)(i % SLOTS);
    lock(f);
    if (f->block[slot] == i + 1) {
        *entry = f->data[slot][at];
        unlock(f);
        return OXO_OK;
    }
    unlock(f);
    uint8_t *e;
    int rc = load_block(t, i, left < t->block_numbers ? left : t->block_numbers, &e, err);
    if (rc)
        return rc;
    *entry = e[at];
    lock(f);
    free(f->data[slot]);
    f->data[slot] = e;
    f->block[slot] = i + 1;
    unlock(f);
    return OXO_OK;
}
