/*
 * The opening book's checkpoints: text, one leaf a line (its score, or what its probe left open),
 * written atomically beside the output (OUT.ckpt, OUT.ckpt.R for MPI rank R), read back line by
 * line with each line checked against what its leaf can reach, and found and removed by their
 * exact names only (never by pattern: a person's OUT.ckpt.bak is not one).
 */
#include "book_internal.h"

#include "c4solve.h"
#include "cli.h"
#include "format.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ckpt_name(const char *out, int rank, int ranks, char *buf, size_t cap)
{
    if (ranks > 1)
        snprintf(buf, cap, "%s.ckpt.%d", out, rank);
    else
        snprintf(buf, cap, "%s.ckpt", out);
}

/* Solved leaves as "CODE SCORE"; leaves the probe could not finish as "CODE ?W", W - 1 the width
 * of the score range it left open, so that a resumed run does not probe them again and still
 * takes them hardest first. */
int ckpt_write(const char *prog, const char *path, const oxo_game *g, int depth,
               const level *leaves, const int *open)
{
    size_t cap = 128 + leaves->n * 26, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "%s: out of memory for the checkpoint\n", prog);
        return -1;
    }
    len += (size_t)snprintf(buf, cap, "oxo-book-checkpoint 1\ngame %s\ndepth %d\n", g->spec, depth);
    for (size_t i = 0; i < leaves->n; i++) {
        int8_t s = __atomic_load_n(&leaves->score[i], __ATOMIC_RELAXED);
        int w = open ? __atomic_load_n(&open[i], __ATOMIC_RELAXED) : 0;
        if (s != UNSOLVED)
            len += (size_t)snprintf(buf + len, cap - len, "%llx %d\n",
                                    (unsigned long long)leaves->code[i], s);
        else if (w > 0)
            len += (size_t)snprintf(buf + len, cap - len, "%llx ?%d\n",
                                    (unsigned long long)leaves->code[i], w);
    }
    oxo_error err;
    int rc = oxo_atomic_write(path, buf, len, &err);
    if (rc)
        fprintf(stderr, "%s: checkpoint: %s\n", prog, err.msg);
    free(buf);
    return rc ? -1 : 0;
}

/* Reads one checkpoint into the leaves' scores and probe verdicts (open); the number of solved
 * leaves it gave, or -1 (said). */
long ckpt_read(const char *prog, const char *path, const oxo_game *g, int depth, level *leaves,
               int *open)
{
    uint8_t *data;
    size_t len;
    oxo_error err;
    if (oxo_read_file(path, (size_t)1 << 32, &data, &len, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return -1;
    }
    char head[200];
    snprintf(head, sizeof head, "oxo-book-checkpoint 1\ngame %s\ndepth %d\n", g->spec, depth);
    size_t hl = strlen(head), pos = hl;
    long got = 0, line = 4;
    /* Every leaf has `depth` stones: its side to move wins at best with its next stone, loses at
     * worst to the opponent's next one; a score outside that range is no leaf's (the whole board's
     * range let -8 through at depth 6 on 5x4, and the book written then was refused). */
    const int most = oxo_c4_win_score(g, depth), least = -oxo_c4_win_score(g, depth + 1);
    if (len < hl || memcmp(data, head, hl)) {
        fprintf(stderr,
                "%s: %s is not a checkpoint of a book of %s to depth %d (its first lines must be: "
                "%s)\n",
                prog, path, g->spec, depth, "oxo-book-checkpoint 1, game SPEC, depth D");
        free(data);
        return -1;
    }
    while (pos < len) {
        const uint8_t *nl = memchr(data + pos, '\n', len - pos);
        char text[64], *end;
        size_t n = nl ? (size_t)(nl - (data + pos)) : len - pos;
        if (!nl || n >= sizeof text || memchr(data + pos, 0, n)) {
            fprintf(stderr, "%s: %s: line %ld is %s\n", prog, path, line,
                    !nl ? "cut off (no newline)" : "too long or holds a NUL byte");
            free(data);
            return -1;
        }
        memcpy(text, data + pos, n);
        text[n] = 0;
        pos += n + 1;
        unsigned long long code = strtoull(text, &end, 16);
        int probed = end != text && end[0] == ' ' && end[1] == '?';
        long score = end != text && *end == ' ' ? strtol(end + 1 + probed, &end, 10) : 1000;
        int64_t i =
            *end || (probed ? score < 1 || score > most - least + 1 : score < least || score > most)
                ? -1
                : find(leaves, (uint64_t)code);
        if (i < 0) {
            fprintf(
                stderr,
                "%s: %s: line %ld (\"%s\"): expected a position at depth %d in hex and its score "
                "(%d to %d at that depth) or ?W (1 to %d)\n",
                prog, path, line, text, depth, least, most, most - least + 1);
            free(data);
            return -1;
        }
        if (probed)
            open[i] = open[i] > (int)score ? open[i] : (int)score;
        else {
            leaves->score[i] = (int8_t)score;
            got++;
        }
        line++;
    }
    free(data);
    return got;
}

void ckpt_list_free(ckpt_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether a folder entry is a checkpoint of base: base.ckpt, or base.ckpt. and 1 to 6 digits. */
static int is_ckpt_of(const char *name, const char *base)
{
    size_t bl = strlen(base);
    if (strncmp(name, base, bl) || strncmp(name + bl, ".ckpt", 5))
        return 0;
    const char *r = name + bl + 5;
    if (!*r)
        return 1;
    if (*r++ != '.' || !*r || strlen(r) > 6)
        return 0;
    for (; *r; r++)
        if (*r < '0' || *r > '9')
            return 0;
    return 1;
}

/* Every checkpoint of out (of any number of ranks): whatever any rank solved is kept. The number
 * of files, or -1 (out of memory). */
int ckpt_find(const char *out, ckpt_list *l)
{
    memset(l, 0, sizeof *l);
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    char dir[4200];
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == out ? 1 : (int)(slash - out), out);
    else
        snprintf(dir, sizeof dir, ".");
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* no folder to read: no checkpoint either (the save says why it cannot write) */
    for (struct dirent *e; (e = readdir(d));) {
        if (!is_ckpt_of(e->d_name, base))
            continue;
        char **v = realloc(l->v, (l->n + 1) * sizeof *v);
        size_t len = (size_t)(base - out) + strlen(e->d_name) + 1;
        char *p = malloc(len);
        if (!v || !p) {
            free(p);
            if (v)
                l->v = v;
            closedir(d);
            ckpt_list_free(l);
            return -1;
        }
        snprintf(p, len, "%.*s%s", (int)(base - out), out, e->d_name);
        l->v = v;
        l->v[l->n++] = p;
    }
    closedir(d);
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, by_name);
    return (int)l->n;
}

void ckpt_remove(const char *out)
{
    ckpt_list l;
    if (ckpt_find(out, &l) > 0)
        for (size_t i = 0; i < l.n; i++)
            unlink(l.v[i]);
    ckpt_list_free(&l);
}
