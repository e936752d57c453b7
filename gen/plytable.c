/*
 * The table of a solve a ply at a time, written ply by ply (see plytable.h).
 *
 * A ply file (OUT.ply-N) is a zstd skippable frame naming what it holds ("oxo ply N of GAME,
 * blocks of B numbers"), then ply N's blocks as the table holds them: B numbers each (the last
 * fewer), every number's entry or OXO_NO_ENTRY, one zstd frame a block with its checksum and
 * content size. The table is its head (FORMAT.md, table format 3) and the ply files' blocks, ply 0
 * first. A ply file is saved whole (temporary file, rename), so one that exists is complete; one
 * a resumed run takes is checked against the run's own bitmap of the ply, number by number.
 */
#include "plytable.h"

#include "cli.h"
#include "player.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* Blocks compress at zstd's level 3: on connect4:6,4, level 1 wrote 8% more bytes and level 6 7%
 * fewer for 11% more time of the whole run (gen/RECORD.md). */
#define LEVEL     3
#define SKIPPABLE 0x184D2A50u

struct oxo_plytable {
    const oxo_game *g;
    char out[4096];
    uint32_t block;
    int saved[OXO_MAX_MOVES + 1];
    int rank, ranks; /* under mpirun, each rank saves its share of each ply as its own file */
};

/* Rank r's share of ply n under mpirun. */
static void rank_name(const oxo_plytable *w, int n, int r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s.ply-%d.rank-%d", w->out, n, r);
}

/* Ply n's file, or rank r's share of it under mpirun. */
static void ply_name(const oxo_plytable *w, int n, int r, char *buf, size_t cap)
{
    if (w->ranks > 1)
        rank_name(w, n, r, buf, cap);
    else
        snprintf(buf, cap, "%s.ply-%d", w->out, n);
}

/* What a ply file says it holds, in its skippable frame. */
static int ply_tag(const oxo_plytable *w, int n, int r, char *buf, size_t cap)
{
    if (w->ranks > 1)
        return snprintf(buf, cap, "oxo ply %d of %s, blocks of %u numbers, rank %d of %d\n", n,
                        w->g->spec, w->block, r, w->ranks);
    return snprintf(buf, cap, "oxo ply %d of %s, blocks of %u numbers\n", n, w->g->spec, w->block);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The number of ranks of the run that saved a ply file, as its tag says: 1 for a plain process's,
 * 0 when the file holds no tag of ours (the load then says what is wrong with it). */
static int tag_ranks(const char *name)
{
    uint8_t head[8 + 256 + 1];
    FILE *f = fopen(name, "rb");
    const size_t len = f ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
        fclose(f);
    if (len < 8 || get32(head) != SKIPPABLE || get32(head + 4) > len - 8)
        return 0;
    head[8 + get32(head + 4)] = 0;
    const char *tag = (const char *)head + 8, *r = strstr(tag, ", rank ");
    int me, of;
    if (strncmp(tag, "oxo ply ", 8))
        return 0;
    if (!r)
        return 1;
    return sscanf(r, ", rank %d of %d", &me, &of) == 2 && of > 1 ? of : 0;
}

int oxo_plytable_share(oxo_plytable *w, int rank, int ranks, int resume, oxo_error *err)
{
    w->rank = rank;
    w->ranks = ranks;
    /* A run on other ranks than those that saved the plies would take none of them up and solve
     * everything again (or misread them): it is refused, naming how to take them up. */
    if (ranks < 2) {
        for (int n = 0; n <= w->g->max_plies; n++) {
            char name[sizeof w->out + 48];
            struct stat st;
            rank_name(w, n, 0, name, sizeof name);
            if (!lstat(name, &st) && tag_ranks(name) > 1)
                return oxo_fail(err, OXO_E_ARG,
                                "%s is a rank's share of a ply of a run on %d ranks: take it up "
                                "with --resume under mpirun on %d ranks, or remove %s.ply-* to "
                                "start over",
                                name, tag_ranks(name), tag_ranks(name), w->out);
        }
        return 0;
    }
    /* The shares this rank saved before: a ply is taken up when every rank has its share (a run
     * killed while the ranks saved one ply solves it again). Every rank goes through every
     * agreement, whatever it found. */
    int bad = 0;
    for (int n = 0; n <= w->g->max_plies; n++) {
        char name[sizeof w->out + 48];
        struct stat st;
        ply_name(w, n, rank, name, sizeof name);
        const int here = !lstat(name, &st), of = here ? tag_ranks(name) : 0;
        if (here && !resume && !bad)
            bad = oxo_fail(err, OXO_E_ARG,
                           "%s holds a rank's share of a ply of an interrupted run: take it up "
                           "with --resume (on as many ranks), or remove %s.ply-* to start over",
                           name, w->out);
        else if (here && of && of != ranks && !bad)
            bad = oxo_fail(err, OXO_E_ARG,
                           "%s is a rank's share of a ply of a run on %d ranks: take it up with "
                           "--resume on %d ranks, or remove %s.ply-* to start over",
                           name, of, of, w->out);
        else if (w->saved[n] && !rank && !bad) /* found by oxo_plytable_open, rank 0 says it */
            bad = oxo_fail(err, OXO_E_ARG,
                           "%s.ply-%d is a ply of a run by one process: take it up with --resume "
                           "without mpirun, or remove %s.ply-* to start over",
                           w->out, n, w->out);
        w->saved[n] = !oxo_plies_mpi_any(!here);
    }
    return bad ? -1 : 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

oxo_plytable *oxo_plytable_open(const oxo_game *g, const char *out, uint32_t block, int resume,
                                oxo_error *err)
{
    if (!block)
        block = OXO_PLYTABLE_BLOCK;
    if (block < OXO_BLOCK_MIN || block > OXO_BLOCK_MAX || (block & (block - 1))) {
        oxo_fail(err, OXO_E_ARG, "blocks of %u numbers: expected a power of 2 from %u to %u", block,
                 OXO_BLOCK_MIN, OXO_BLOCK_MAX);
        return NULL;
    }
    oxo_plytable *w = calloc(1, sizeof *w);
    if (!w) {
        oxo_fail(err, OXO_E_NOMEM, "the table's writer");
        return NULL;
    }
    w->g = g;
    w->block = block;
    w->ranks = 1;
    if (snprintf(w->out, sizeof w->out, "%s", out) >= (int)sizeof w->out - 16) {
        oxo_fail(err, OXO_E_ARG, "%.64s...: a name too long", out);
        free(w);
        return NULL;
    }
    for (int n = 0; n <= g->max_plies; n++) {
        char name[sizeof w->out + 32];
        struct stat st;
        ply_name(w, n, 0, name, sizeof name);
        if (lstat(name, &st))
            continue;
        if (!resume) {
            oxo_fail(err, OXO_E_ARG,
                     "%s holds a ply of an interrupted run: take it up with --resume, or remove "
                     "%s.ply-* to start over",
                     name, out);
            free(w);
            return NULL;
        }
        w->saved[n] = 1;
    }
    return w;
}

void oxo_plytable_close(oxo_plytable *w)
{
    free(w);
}

/* Numbers first .. first + len - 1 of a ply: each member's entry, OXO_NO_ENTRY elsewhere. first is
 * a multiple of 64, so the block starts at a word of the bitmap. */
static void expand(const oxo_keyset *k, const uint8_t *entries, uint64_t first, uint64_t len,
                   uint8_t *d)
{
    memset(d, OXO_NO_ENTRY, len);
    uint64_t w = first / 64, end = (first + len + 63) / 64;
    uint64_t r = k->rank[w / OXO_KEYSET_BLOCK] + k->sub[w];
    for (; w < end && w < k->nwords; w++)
        for (uint64_t bits = k->words[w]; bits; bits &= bits - 1)
            d[w * 64 + (uint64_t)__builtin_ctzll(bits) - first] = entries[r++];
}

static int saved(void *ctx, int n)
{
    return ((oxo_plytable *)ctx)->saved[n];
}

/* The blocks of ply n that the share of numbers lo to hi - 1 holds: first to end - 1. */
static void share_blocks(const oxo_plytable *w, uint64_t lo, uint64_t hi, uint64_t *first,
                         uint64_t *end)
{
    *first = lo / w->block;
    *end = hi > lo ? (hi - 1) / w->block + 1 : *first;
}

static int save(void *ctx, int n, uint64_t lo, uint64_t hi, const oxo_keyset *k,
                const uint8_t *entries, oxo_error *err)
{
    oxo_plytable *w = ctx;
    const uint64_t size = w->g->ops->ply_size(w->g, n);
    uint64_t b0, b1;
    share_blocks(w, lo, hi, &b0, &b1);
    const uint64_t nb = b1 - b0;
    uint8_t **z = calloc(nb ? nb : 1, sizeof *z);
    size_t *zl = calloc(nb ? nb : 1, sizeof *zl);
    int failed = !z || !zl;
#pragma omp parallel if (nb > 1 && !failed) reduction(| : failed)
    {
        ZSTD_CCtx *cc = ZSTD_createCCtx();
        uint8_t *d = malloc(w->block);
        failed |= !cc || !d;
        if (cc) {
            ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, LEVEL);
            ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
            ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
        }
#pragma omp for schedule(dynamic, 16)
        for (int64_t b = 0; b < (int64_t)nb; b++) {
            const uint64_t first = (b0 + (uint64_t)b) * w->block,
                           len = size - first < w->block ? size - first : w->block;
            size_t cap = ZSTD_compressBound(len);
            if (failed || !(z[b] = malloc(cap))) {
                failed = 1;
                continue;
            }
            expand(k, entries, first - lo, len, d);
            size_t r = ZSTD_compress2(cc, z[b], cap, d, len);
            if (ZSTD_isError(r))
                failed = 1;
            else
                zl[b] = r;
        }
        ZSTD_freeCCtx(cc);
        free(d);
    }
    char tag[160], name[sizeof w->out + 32];
    const int tl = ply_tag(w, n, w->rank, tag, sizeof tag);
    size_t total = 8 + (size_t)tl;
    for (uint64_t b = 0; !failed && b < nb; b++)
        total += zl[b];
    uint8_t *file = failed ? NULL : malloc(total);
    int rc = !file ? oxo_fail(err, OXO_E_NOMEM, "compressing ply %d", n) : OXO_OK;
    if (!rc) {
        put32(file, SKIPPABLE);
        put32(file + 4, (uint32_t)tl);
        memcpy(file + 8, tag, (size_t)tl);
        size_t at = 8 + (size_t)tl;
        for (uint64_t b = 0; b < nb; b++) {
            memcpy(file + at, z[b], zl[b]);
            at += zl[b];
        }
        ply_name(w, n, w->rank, name, sizeof name);
        rc = oxo_atomic_write(name, file, total, err);
    }
    for (uint64_t b = 0; z && b < nb; b++)
        free(z[b]);
    free(z);
    free(zl);
    free(file);
    if (!rc)
        w->saved[n] = 1;
    return rc;
}

/* Ply file n read and walked: its blocks' frames after the tag, checked for their count and
 * sizes; *data the file (malloc'd), at[b] where block b starts in it (nb + 1 places). With k and
 * entries, each block is also decompressed and checked against k, number by number, and the
 * members' entries stored. */
static int walk(const oxo_plytable *w, int n, int r, uint8_t **data, size_t **at,
                const oxo_keyset *k, uint8_t *entries, oxo_error *err)
{
    uint64_t lo, hi, b0, b1;
    oxo_plies_share(w->g, n, r, w->ranks, &lo, &hi);
    share_blocks(w, lo, hi, &b0, &b1);
    const uint64_t size = w->g->ops->ply_size(w->g, n), nb = b1 - b0;
    char tag[160], name[sizeof w->out + 32];
    const int tl = ply_tag(w, n, r, tag, sizeof tag);
    ply_name(w, n, r, name, sizeof name);
    size_t len;
    *at = NULL;
    int rc = oxo_read_file(name, SIZE_MAX / 2, data, &len, err);
    if (rc)
        return rc;
    uint8_t *d = k ? malloc(w->block) : NULL;
    if (!(*at = malloc((nb + 1) * sizeof **at)) || (k && !d)) {
        free(d);
        return oxo_fail(err, OXO_E_NOMEM, "reading %s", name);
    }
    const uint8_t *p = *data;
    const char *why = NULL;
    if (len < 8 + (size_t)tl || get32(p) != SKIPPABLE || get32(p + 4) != (uint32_t)tl ||
        memcmp(p + 8, tag, (size_t)tl))
        why = "it does not begin with its tag";
    size_t pos = 8 + (size_t)tl;
    uint64_t m = 0; /* members met so far */
    for (uint64_t b = 0; !why && b < nb; b++) {
        const uint64_t first = (b0 + b) * w->block,
                       bl = size - first < w->block ? size - first : w->block;
        size_t fs = ZSTD_findFrameCompressedSize(p + pos, len - pos);
        (*at)[b] = pos;
        if (ZSTD_isError(fs) || ZSTD_getFrameContentSize(p + pos, fs) != bl || !(p[pos + 4] & 4))
            why = "a block is cut or not a frame of its numbers with a checksum";
        else if (k && ZSTD_decompress(d, bl, p + pos, fs) != bl)
            why = "a block does not decompress to its numbers";
        for (uint64_t i = 0; k && !why && i < bl; i++) {
            const int member = oxo_keyset_has(k, first - lo + i);
            if (member != (d[i] != OXO_NO_ENTRY) || oxo_table_block_bad(d + i, 1, w->g->cells))
                why = "its entries are not those of this run's positions";
            else if (member)
                entries[m++] = d[i];
        }
        pos += ZSTD_isError(fs) ? 0 : fs;
    }
    (*at)[nb] = pos;
    if (!why && pos != len)
        why = "bytes follow its last block";
    free(d);
    if (why) {
        free(*data);
        free(*at);
        *data = NULL;
        *at = NULL;
        return oxo_fail(err, OXO_E_GAME,
                        "%s is not ply %d of %s as this run writes it (%s): remove %s.ply-* to "
                        "start over",
                        name, n, w->g->spec, why, w->out);
    }
    return OXO_OK;
}

static int load(void *ctx, int n, const oxo_keyset *k, uint8_t *entries, oxo_error *err)
{
    uint8_t *data;
    size_t *at;
    int rc = walk(ctx, n, ((oxo_plytable *)ctx)->rank, &data, &at, k, entries, err);
    if (!rc) {
        free(data);
        free(at);
    }
    return rc;
}

oxo_plies_sink oxo_plytable_sink(oxo_plytable *w)
{
    return (oxo_plies_sink){w, saved, load, save};
}

/* What the table's save writes: the head, then each ply file's blocks, a megabyte at a time, so
 * that the table never needs to fit in memory (6x6's would take 15 GB). */
typedef struct assembly {
    const oxo_plytable *w;
    const uint8_t *head;
    size_t hlen;
    uint32_t nplies;
    /* Each ply file's block places (walk) and blocks, ply n rank r's at n * ranks + r. */
    size_t **at;
    uint64_t *nb;
} assembly;

static int put_all(int fd, const uint8_t *p, size_t len)
{
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (!k)
                errno = ENOSPC;
            return -1;
        }
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

static int fill_table(int fd, void *ctx)
{
    const assembly *as = ctx;
    if (put_all(fd, as->head, as->hlen))
        return -1;
    uint8_t *buf = malloc(1u << 20);
    int rc = buf ? 0 : (errno = ENOMEM, -1);
    const uint32_t files = as->nplies * (uint32_t)as->w->ranks;
    for (uint32_t j = 0; !rc && j < files; j++) {
        char name[sizeof as->w->out + 32];
        ply_name(as->w, (int)(j / (uint32_t)as->w->ranks), (int)(j % (uint32_t)as->w->ranks), name,
                 sizeof name);
        FILE *f = fopen(name, "rb");
        size_t left = as->at[j][as->nb[j]] - as->at[j][0];
        if (!f || fseek(f, (long)as->at[j][0], SEEK_SET))
            rc = -1;
        while (!rc && left) {
            size_t k = fread(buf, 1, left < (1u << 20) ? left : (1u << 20), f);
            if (!k) {
                errno = EIO; /* the ply file shrank since it was walked */
                rc = -1;
            } else {
                rc = put_all(fd, buf, k);
                left -= k;
            }
        }
        if (f)
            fclose(f);
    }
    free(buf);
    return rc;
}

int oxo_plytable_finish(oxo_plytable *w, const oxo_plies *s, uint64_t *bytes, oxo_error *err)
{
    const oxo_game *g = w->g;
    oxo_table t;
    memset(&t, 0, sizeof t);
    t.major = OXO_TABLE_MAJOR_BLOCKS;
    snprintf(t.game, sizeof t.game, "%s", g->spec);
    t.rows = (uint32_t)g->rows;
    t.cols = (uint32_t)g->cols;
    snprintf(t.index, sizeof t.index, "ply-blocks");
    t.symmetric = 1;
    t.counts = s->counts;
    if (w->rank)
        return OXO_OK; /* rank 0 puts the table together from every rank's plies */
    snprintf(t.root_value, sizeof t.root_value, "%s",
             oxo_value_name(OXO_ENTRY_VALUE(s->root_entry)));
    snprintf(t.generator, sizeof t.generator, "oxo-gen %s", OXO_VERSION);
    t.nplies = (uint32_t)s->max_ply + 1;
    memcpy(t.by_ply, s->by_ply, sizeof t.by_ply);
    t.block_numbers = w->block;
    const uint32_t files = t.nplies * (uint32_t)w->ranks;
    assembly as = {.w = w, .nplies = t.nplies};
    as.at = calloc(files, sizeof *as.at);
    as.nb = calloc(files, sizeof *as.nb);
    int rc = as.at && as.nb ? OXO_OK : oxo_fail(err, OXO_E_NOMEM, "the table's plies");
    for (uint32_t j = 0; !rc && j < files; j++) {
        const int n = (int)(j / (uint32_t)w->ranks), r = (int)(j % (uint32_t)w->ranks);
        uint64_t lo, hi, b0, b1;
        t.ply_numbers[n] = g->ops->ply_size(g, n);
        oxo_plies_share(g, n, r, w->ranks, &lo, &hi);
        share_blocks(w, lo, hi, &b0, &b1);
        as.nb[j] = b1 - b0;
        t.nblocks += as.nb[j];
    }
    if (!rc && !(t.block_at = malloc((t.nblocks + 1) * sizeof *t.block_at)))
        rc = oxo_fail(err, OXO_E_NOMEM, "the places of %llu blocks", (unsigned long long)t.nblocks);
    uint64_t i = 0;
    if (!rc)
        t.block_at[0] = 0;
    /* Each ply file walked (its frames checked) one at a time: the places of its blocks kept. */
    for (uint32_t j = 0; !rc && j < files; j++) {
        uint8_t *data;
        if ((rc = walk(w, (int)(j / (uint32_t)w->ranks), (int)(j % (uint32_t)w->ranks), &data,
                       &as.at[j], NULL, NULL, err)))
            break;
        free(data);
        for (uint64_t b = 0; b < as.nb[j]; b++, i++)
            t.block_at[i + 1] = t.block_at[i] + (as.at[j][b + 1] - as.at[j][b]);
    }
    uint8_t *body = NULL, *head = NULL;
    size_t blen, hlen = 0;
    oxo_table *check;
    if (!rc)
        rc = oxo_table_encode_body(&t, &body, &blen, err);
    /* A writer never saves what its reader would refuse: the head is read back first. */
    if (!rc && !(rc = oxo_table_decode_body(body, blen, t.major, OXO_TABLE_MINOR, &check, err)))
        oxo_table_free(check);
    if (!rc)
        rc = oxo_container_encode(OXO_KIND_TABLE, t.major, OXO_TABLE_MINOR, body, blen, &head,
                                  &hlen, err);
    as.head = head;
    as.hlen = hlen;
    if (!rc && !(rc = oxo_atomic_write_with(w->out, fill_table, &as, err)))
        *bytes = hlen + t.block_at[t.nblocks];
    for (uint32_t j = 0; j < files; j++) {
        free(as.at ? as.at[j] : NULL);
        char name[sizeof w->out + 32];
        ply_name(w, (int)(j / (uint32_t)w->ranks), (int)(j % (uint32_t)w->ranks), name,
                 sizeof name);
        if (!rc)
            unlink(name); /* the names this run made, and no other */
    }
    free(as.at);
    free(as.nb);
    free(t.block_at);
    free(body);
    free(head);
    return rc;
}
