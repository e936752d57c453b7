/*
 * Writes the broken files of tests/fixtures/ (run by hand after a format change; the files are
 * committed and tests/test_table.c and test_train.c check that each is refused with its message).
 *   oxo-mkfixtures DIR
 */
#include "model.h"
#include "solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <msgpack.h>

static const char *dir;

static void put(const char *name, const uint8_t *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* A whole file with any header fields and a frame with or without its checksum. */
static size_t container(uint8_t *out, int kind, int major, int minor, const void *body, size_t len,
                        int checksum)
{
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 19);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, checksum);
    size_t z = ZSTD_compress2(cc, out + 16, 1 << 20, body, len);
    ZSTD_freeCCtx(cc);
    memcpy(out, OXO_MAGIC, 4);
    out[4] = (uint8_t)kind, out[5] = (uint8_t)major, out[6] = (uint8_t)minor, out[7] = 0;
    for (int i = 0; i < 4; i++) {
        out[8 + i] = (uint8_t)(len >> (8 * i));
        out[12 + i] = (uint8_t)(z >> (8 * i));
    }
    return 16 + z;
}

static uint8_t buf[1 << 21];

static void table_file(const char *name, const oxo_table *t, int major, int minor)
{
    uint8_t *body;
    size_t len;
    if (oxo_table_encode_body(t, &body, &len, NULL))
        exit(1);
    put(name, buf, container(buf, 'T', major, minor, body, len, 1));
    free(body);
}

/* The table body with one more key, as a later minor version may add: "comment" holding a string
 * when nils is 0, else an array of that many nils. */
static void extra_key(const char *name, const uint8_t *body, size_t blen, int minor,
                      const char *key, uint32_t nils)
{
    msgpack_sbuffer sb;
    msgpack_packer pk;
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    /* Same map with one more key: copy the body, bump the fixmap count, append a pair. */
    msgpack_sbuffer_write(&sb, (const char *)body, blen);
    sb.data[0] = (char)(sb.data[0] + 1);
    msgpack_pack_str(&pk, strlen(key));
    msgpack_pack_str_body(&pk, key, strlen(key));
    if (!nils) {
        msgpack_pack_str(&pk, 13);
        msgpack_pack_str_body(&pk, "from the year", 13);
    } else {
        msgpack_pack_array(&pk, nils);
        for (uint32_t i = 0; i < nils; i++)
            msgpack_pack_nil(&pk);
    }
    put(name, buf, container(buf, 'T', 1, minor, sb.data, sb.size, 1));
    msgpack_sbuffer_destroy(&sb);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: oxo-mkfixtures DIR\n");
        return 2;
    }
    dir = argv[1];
    const oxo_game *g = oxo_tictactoe();
    oxo_table *t = oxo_build_table(g);
    uint8_t *body;
    size_t blen, n;
    oxo_table_encode_body(t, &body, &blen, NULL);
    size_t good = container(buf, 'T', 1, 0, body, blen, 1);
    static uint8_t copy[1 << 21];
    memcpy(copy, buf, good);

    put("empty.oxt", buf, 0);
    put("short-header.oxt", buf, 10);
    put("truncated.oxt", buf, good - 20);
    copy[0] = 'P';
    put("bad-magic.oxt", copy, good);
    memcpy(copy, buf, good);
    copy[5] = 4;
    put("future-major.oxt", copy, good);
    memcpy(copy, buf, good);
    copy[4] = 'M';
    put("kind-model.oxt", copy, good);
    memcpy(copy, buf, good);
    copy[good] = 0;
    copy[good + 1] = 0x42;
    put("trailing.oxt", copy, good + 2);
    memcpy(copy, buf, good);
    copy[good - 1] ^= 0x10; /* last byte: inside the 4-byte content checksum */
    put("bad-checksum.oxt", copy, good);
    memcpy(copy, buf, good);
    copy[8] ^= 0x01; /* body size off by one */
    put("bad-size.oxt", copy, good);
    put("no-checksum.oxt", buf, container(buf, 'T', 1, 0, body, blen, 0));

    /* A newer minor version with a key this build does not know: must be read. */
    extra_key("newer-minor.oxt", body, blen, 9, "comment", 0);
    /* msgpack-c would try to allocate 4 G elements for these 5 bytes. */
    static const uint8_t bomb[5] = {0xdd, 0xff, 0x00, 0x00, 0x00};
    put("count-bomb.oxt", buf, container(buf, 'T', 1, 0, bomb, 5, 1));
    static const uint8_t notmap[3] = {0x92, 0x01, 0x02};
    put("body-not-map.oxt", buf, container(buf, 'T', 1, 0, notmap, 3, 1));
    n = blen;
    n = container(buf, 'T', 1, 0, body, blen - 1, 1); /* body cut inside the entries */
    put("body-cut.oxt", buf, n);

    oxo_table bad = *t;
    bad.n = t->n - 1;
    table_file("wrong-count.oxt", &bad, 1, 0);
    bad = *t;
    uint8_t *entries = malloc(t->n);
    memcpy(entries, t->entries, t->n);
    bad.entries = entries;
    entries[0] = OXO_ENTRY(OXO_WIN, 5);
    table_file("wrong-entry.oxt", &bad, 1, 0);
    entries[0] = 3;
    table_file("bad-value.oxt", &bad, 1, 0);
    memcpy(entries, t->entries, t->n);
    snprintf(bad.game, sizeof bad.game, "chess");
    table_file("wrong-game.oxt", &bad, 1, 0);
    bad = *t;
    bad.rows = 4;
    table_file("wrong-dims.oxt", &bad, 1, 0);
    bad = *t;
    bad.counts.games += 1;
    table_file("bad-counts.oxt", &bad, 1, 0);
    /* Metadata that lies, each lie balanced so that only a check against the game can see it. */
    bad = *t;
    snprintf(bad.root_value, sizeof bad.root_value, "win");
    table_file("lie-root.oxt", &bad, 1, 0);
    bad = *t;
    /* x + o + draws equals games once the sum wraps past 2^64 */
    bad.counts.x_wins = UINT64_MAX - 10;
    bad.counts.o_wins = t->counts.games - bad.counts.x_wins - bad.counts.draws;
    table_file("lie-wrap.oxt", &bad, 1, 0);
    bad = *t;
    bad.counts.positions += 1;
    bad.counts.terminal_positions += 1;
    table_file("lie-positions.oxt", &bad, 1, 0);
    /* Strings: one printable but full of JSON quotes (accepted, escaped when printed), one with a
     * terminal escape sequence (refused). */
    bad = *t;
    snprintf(bad.generator, sizeof bad.generator, "x\",\"pwned\":true,\"y\":\"\\");
    table_file("quotes.oxt", &bad, 1, 0);
    bad = *t;
    snprintf(bad.generator, sizeof bad.generator, "\x1b]0;owned\x07\x1b[2J");
    table_file("escape.oxt", &bad, 1, 0);
    /* An unknown key (allowed: a later minor version) holding a million nils: a few hundred bytes
     * of file that msgpack-c would spend 24 MB on. */
    extra_key("nil-bomb.oxt", body, blen, 1, "pad", 1u << 20);
    free(entries);
    free(body);
    oxo_table_free(t);
    return 0;
}
