/*
 * The container shared by every oxo file (tables *.oxt, models *.oxm), as specified in FORMAT.md:
 * a 16-byte header (magic, kind, major, minor, body size, frame size) and one zstd frame with its
 * content checksum holding a MessagePack body.
 *
 * Errors are values: an oxo_errcode with a name (oxo_strerror) plus a sentence in oxo_error.msg
 * that says what was found and what was expected. This is the one error convention of every oxo
 * library: a function that can fail takes an oxo_error * last (NULL when the caller does not care)
 * and returns non-zero or NULL. Readers never trust a length: the body size is
 * capped before anything is allocated, and every MessagePack count is checked against the bytes
 * that remain (oxo_mp_check) before msgpack-c unpacks it.
 */
#ifndef OXO_FORMAT_H
#define OXO_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define OXO_MAGIC        "\x89OXO"
#define OXO_HEADER_SIZE  16
#define OXO_KIND_TABLE   'T'
#define OXO_KIND_MODEL   'M'
#define OXO_FORMAT_MAJOR 1
#define OXO_TABLE_MINOR  0
#define OXO_MODEL_MINOR                                                                            \
    17 /* 1: n-tuple models carry their weight sets (`sets`); 2: their exploring depth; 3: their   \
          TD target; 4: with gravity, only the weights of fillings a board can have; 5: weight     \
          averaging (`average`); 6: the second player's defence when lost (`defend`); 7: the       \
          search phase (`search`); 8: NEAT populations (`neat`); 9: AlphaZero-lite networks        \
          (`azero`); 10: their value target mixed with the search's value (`value_q`); 11: the     \
          games a network played against the perfect player (`perfect_games`); 12: NEAT networks   \
          of oriented inputs (`symmetric` true with algo `neat`); 13: AlphaZero-lite networks      \
          reading the patterns of the game's lines (`lines`); 14: and each side's threats          \
          (`threats`); 15: which random self-play moves decide the value target                    \
          (`random_margin`); 16: NEAT networks reading the tactics' inputs (`tactics`); 17: NEAT   \
          networks of afterstates (`afterstate`) */
#define OXO_MAX_BODY (64u << 20) /* a model body: no model of any game comes near 64 MiB */
/* Tables may be larger (table.h, OXO_MAX_TABLE_BODY: 1 GiB), and any body at most 1,024 times its
 * compressed frame plus 1 MiB, so that a small file cannot make a reader allocate much. */
#define OXO_MAX_RATIO 1024u
#define OXO_MAX_FILE  ((size_t)OXO_HEADER_SIZE + (1u << 30) + (1u << 23) + 4096)

typedef enum oxo_errcode {
    OXO_OK = 0,
    OXO_E_IO,        /* open, read, write, fsync, rename failed */
    OXO_E_NOMEM,     /* out of memory */
    OXO_E_EMPTY,     /* empty file */
    OXO_E_TRUNCATED, /* shorter than its header says */
    OXO_E_MAGIC,     /* not an oxo file */
    OXO_E_KIND,      /* a model where a table was wanted, or the reverse */
    OXO_E_VERSION,   /* major version this build does not read */
    OXO_E_HEADER,    /* reserved byte set, sizes out of range */
    OXO_E_TRAILING,  /* bytes after the frame */
    OXO_E_FRAME,     /* the zstd frame is corrupt or lacks its checksum */
    OXO_E_CHECKSUM,  /* the frame's content checksum does not match */
    OXO_E_BODY,      /* the MessagePack body is malformed */
    OXO_E_FIELD,     /* a field is missing or of the wrong type or range */
    OXO_E_GAME,      /* the body does not fit the game */
    OXO_E_HASH,      /* a model's content hash does not match its values */
    OXO_E_ARG,       /* a spec, board, setting or text file a person wrote is wrong */
    OXO_E_COUNT
} oxo_errcode;

typedef struct oxo_error {
    oxo_errcode code;
    char msg[512];
} oxo_error;

const char *oxo_strerror(oxo_errcode code);

/* Sets err (when not NULL) and returns code. The message starts with the class's name
 * ("bad field: ...") except for OXO_E_ARG: what a person typed is answered by a sentence that
 * quotes it, and a class name before it would only be noise. */
int oxo_fail(oxo_error *err, oxo_errcode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Puts "CONTEXT: " before err's message (where the failure happened: a file and line, an agent's
 * spec) and returns its code, unchanged. */
int oxo_context(oxo_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads a whole regular file into memory, refusing files larger than max; *len receives its size.
 * A FIFO, a device or a directory is refused without blocking. */
int oxo_read_file(const char *path, size_t max, uint8_t **data, size_t *len, oxo_error *err);

/* Checks the header and the frame of a file's bytes and returns its body (malloc'd). kind is
 * OXO_KIND_TABLE or OXO_KIND_MODEL, or 0 to accept either (*kind_out receives it); *major and
 * *minor receive the version (tables: 1 or 2; models: 1). */
int oxo_container_decode(const uint8_t *data, size_t len, int kind, int *kind_out, int *major,
                         int *minor, uint8_t **body, size_t *body_len, oxo_error *err);
/* The most bytes a body of a file of `game` may take, asked before the body is decompressed:
 * most(ctx, kind, major, game, &bytes, err) sets bytes to that bound, or to 0 for none beyond the
 * container's own (a game the caller does not know is refused later, by the body's own checks);
 * it returns 0, or non-zero with err set when it could not tell (memory ran out). */
typedef struct oxo_body_bound {
    int (*most)(void *ctx, int kind, int major, const char *game, uint64_t *bytes, oxo_error *err);
    void *ctx;
} oxo_body_bound;
/* oxo_container_decode, but first the body's beginning alone is decompressed (a few hundred
 * bytes): its first key must be `game` (as every oxo writer puts it, FORMAT.md), and a body
 * larger than bound->most says for that game is refused before its memory is taken. */
int oxo_container_decode_bounded(const uint8_t *data, size_t len, int kind, int *kind_out,
                                 int *major, int *minor, uint8_t **body, size_t *body_len,
                                 const oxo_body_bound *bound, oxo_error *err);

/* The header and the first frame of a file whose blocks follow that frame (a table of format 3):
 * data holds at least the header and the frame; what follows them is the caller's to check. */
int oxo_container_head(const uint8_t *data, size_t len, int kind, int *major, int *minor,
                       uint8_t **body, size_t *body_len, const oxo_body_bound *bound,
                       oxo_error *err);

/* Walks a MessagePack buffer without allocating: one object spanning exactly len bytes, depth at
 * most 32, every array/map/str/bin count no larger than the bytes that remain, and at most
 * max_objects objects in all (keys and values each count). */
int oxo_mp_check(const uint8_t *buf, size_t len, uint64_t max_objects, oxo_error *err);
/* The most objects a table or a model body may hold: what the writers produce (about 40 for a
 * table; about 70 plus 4 per replay ring for a model) with room for keys of later minor versions.
 */
#define OXO_TABLE_MAX_OBJECTS 1024u
#define OXO_MODEL_MAX_OBJECTS (4u * 4096u + 1024u)

/* FNV-1a, 64 bits: the content hash of models. */
uint64_t oxo_fnv1a(const void *data, size_t len, uint64_t h);
#define OXO_FNV_SEED 0xcbf29ce484222325ull

/* Write side (oxo_formats_write): atomic save of a whole file (temp file in the same folder, fsync,
 * rename, fsync of the folder) and container encoding. */
int oxo_atomic_write(const char *path, const void *data, size_t len, oxo_error *err);
/* The same for a file too large to hold in memory: fill(fd, ctx) writes its bytes to fd, 0, or -1
 * with errno set (the save then fails as a write does). */
typedef int (*oxo_atomic_fill)(int fd, void *ctx);
int oxo_atomic_write_with(const char *path, oxo_atomic_fill fill, void *ctx, oxo_error *err);
/* Checks, before long work, that oxo_atomic_write(path) could save there: the target's kind, and a
 * temporary file made and removed in its folder. */
int oxo_atomic_probe(const char *path, oxo_error *err);
/* Removes the temporary file of a save in progress, if any; async-signal-safe, for the handlers
 * of SIGINT and SIGTERM. */
void oxo_atomic_abort(void);
/* The error of a writer whose body its own reader refused: rc and err as the reader set them. */
int oxo_refuse_write(const char *path, int rc, oxo_error *err);
/* The container's bytes around body (malloc'd into *file), as oxo_container_write saves them. */
int oxo_container_encode(int kind, int major, int minor, const uint8_t *body, size_t len,
                         uint8_t **file, size_t *file_len, oxo_error *err);
int oxo_container_write(const char *path, int kind, int major, int minor, const uint8_t *body,
                        size_t len, oxo_error *err);

#endif
