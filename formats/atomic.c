/*
 * Saving a file so that a crash, a full disk or a signal never leaves a half-written one, and so
 * that what stands at the path is never replaced by something of another kind.
 *
 * The path is first resolved: a symlink is followed to the file it names (the link stays a link).
 * Then, by what is there:
 *   nothing, or a regular file: the bytes go to a temporary file in the same folder (same file
 *     system, so rename is atomic), are fsync'ed, take the old file's permissions (and owner, where
 *     allowed), are renamed over it, and the folder is fsync'ed so the rename survives a crash. Any
 *     failure removes the temporary file and leaves the old file as it was;
 *   a character device or a FIFO (-o /dev/null, -o /dev/stdout, a pipe): written in place, as
 *     `zstd -o` does. Replacing it would, run as root, replace the system's /dev/null;
 *   a directory, a block device or a socket: refused.
 * The temporary file in use is remembered so that a signal handler can remove it
 * (oxo_atomic_abort).
 */
#include "format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary files of the saves in progress, one slot per concurrent save (a sweep saves from
 * several threads); a save that finds no free slot still works, it is only not cleaned up by a
 * signal. */
#define SLOTS 64
static char pending_tmp[SLOTS][PATH_MAX + 32];
static volatile sig_atomic_t pending_used[SLOTS];

void oxo_atomic_abort(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (pending_used[i] == 2)
            unlink(pending_tmp[i]); /* async-signal-safe */
}

/* A slot for this save (0: free, 1: claimed, 2: holds a live name), or -1. */
static int claim_slot(void)
{
    for (int i = 0; i < SLOTS; i++) {
        sig_atomic_t expected = 0;
        if (__atomic_compare_exchange_n(&pending_used[i], &expected, 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return i;
    }
    return -1;
}

static void set_slot(int slot, sig_atomic_t state)
{
    if (slot >= 0)
        __atomic_store_n(&pending_used[slot], state, __ATOMIC_RELEASE);
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (w == 0) {
            errno = ENOSPC;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Follows symlinks from path to the name of the file they lead to, which may not exist yet (a
 * dangling link names the file to create). Used only for regular files and new ones: devices and
 * FIFOs, /proc's magic links among them, are opened through the path itself. */
static int resolve(const char *path, char *out, size_t cap, oxo_error *err)
{
    struct stat st;
    if (strlen(path) >= cap)
        return oxo_fail(err, OXO_E_IO, "cannot write %.200s...: the path is too long", path);
    snprintf(out, cap, "%s", path);
    for (int depth = 0;; depth++) {
        if (lstat(out, &st) != 0) {
            if (errno != ENOENT)
                return oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
            return OXO_OK;
        }
        if (!S_ISLNK(st.st_mode))
            return OXO_OK;
        if (depth == 40)
            return oxo_fail(err, OXO_E_IO, "cannot write %s: too many levels of symbolic links",
                            path);
        char link[PATH_MAX];
        ssize_t n = readlink(out, link, sizeof link - 1);
        if (n < 0)
            return oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
        link[n] = 0;
        char *slash = strrchr(out, '/');
        if (link[0] != '/' && slash) { /* relative to the folder of the link */
            size_t dirlen = (size_t)(slash - out) + 1;
            if (dirlen + (size_t)n >= cap)
                return oxo_fail(err, OXO_E_IO, "cannot write %s: the path is too long", path);
            memmove(out + dirlen, link, (size_t)n + 1);
        } else {
            if ((size_t)n >= cap)
                return oxo_fail(err, OXO_E_IO, "cannot write %s: the path is too long", path);
            memcpy(out, link, (size_t)n + 1);
        }
    }
}

/* What stands at path (symlinks followed): 0 nothing or a regular file, to replace or create; 1 a
 * character device or a FIFO, to write in place; or minus an error code. */
static int target_kind(const char *path, struct stat *st, int *exists, oxo_error *err)
{
    *exists = stat(path, st) == 0;
    if (!*exists && errno != ENOENT)
        return -oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
    if (!*exists || S_ISREG(st->st_mode))
        return 0;
    if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode))
        return 1;
    return -oxo_fail(err, OXO_E_IO, "cannot write %s: it is %s; refusing to replace it", path,
                     S_ISDIR(st->st_mode)   ? "a directory"
                     : S_ISBLK(st->st_mode) ? "a block device"
                                            : "a socket");
}

static void folder_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

typedef struct bytes {
    const void *data;
    size_t len;
} bytes;

static int fill_bytes(int fd, void *ctx)
{
    const bytes *b = ctx;
    return write_all(fd, b->data, b->len);
}

static int write_in_place(const char *path, oxo_atomic_fill fill, void *ctx, oxo_error *err)
{
    /* O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of waiting forever. */
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path,
                        errno == ENXIO ? "no process reads this FIFO" : strerror(errno));
    int fl = fcntl(fd, F_GETFL);
    int rc = OXO_OK;
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 || fill(fd, ctx) != 0)
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
    if (close(fd) != 0 && !rc)
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
    return rc;
}

int oxo_atomic_probe(const char *path, oxo_error *err)
{
    char target[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 32];
    struct stat st;
    int exists, kind = target_kind(path, &st, &exists, err), rc;
    if (kind < 0)
        return -kind;
    if (kind == 1)
        return access(path, W_OK) == 0
                   ? OXO_OK
                   : oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
    if ((rc = resolve(path, target, sizeof target, err)))
        return rc;
    /* A temporary file of the name the save will use is what it needs: make one, and remove it. */
    folder_of(target, dir, sizeof dir);
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", target) >= (int)sizeof tmp)
        return oxo_fail(err, OXO_E_IO, "cannot write %s: the path is too long", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return oxo_fail(err, OXO_E_IO, "cannot write %s: cannot create a file in %s: %s", path, dir,
                        strerror(errno));
    close(fd);
    unlink(tmp);
    return OXO_OK;
}

int oxo_atomic_write(const char *path, const void *data, size_t len, oxo_error *err)
{
    bytes b = {data, len};
    return oxo_atomic_write_with(path, fill_bytes, &b, err);
}

int oxo_atomic_write_with(const char *path, oxo_atomic_fill fill, void *ctx, oxo_error *err)
{
    char target[PATH_MAX], dir[PATH_MAX];
    struct stat st;
    int exists, kind = target_kind(path, &st, &exists, err), rc;
    if (kind < 0)
        return -kind;
    if (kind == 1)
        return write_in_place(path, fill, ctx, err);
    if ((rc = resolve(path, target, sizeof target, err)))
        return rc;

    char own[PATH_MAX + 32];
    int slot = claim_slot(), fd = -1;
    char *tmp = slot >= 0 ? pending_tmp[slot] : own;
    if (snprintf(tmp, sizeof own, "%s.tmp.XXXXXX", target) >= (int)sizeof own) {
        set_slot(slot, 0);
        return oxo_fail(err, OXO_E_IO, "cannot write %s: the path is too long", path);
    }
    /* Signals are blocked while the name changes, so that a handler never removes a file it did
     * not make. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    fd = mkstemp(tmp);
    set_slot(slot, fd >= 0 ? 2 : 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0)
        return oxo_fail(err, OXO_E_IO, "cannot create a temporary file beside %s: %s", path,
                        strerror(errno));
    /* mkstemp makes the file 0600. A replaced file keeps its permissions (and its owner where
     * that is allowed); a new one is as readable as any other file. */
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
        if (fchown(fd, st.st_uid, st.st_gid) != 0)
            mode &= 0777; /* no set-id bits on a file whose owner could not be kept */
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode) != 0 || fill(fd, ctx) != 0 || fsync(fd) != 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    int c = close(fd);
    fd = -1;
    if (c != 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int renamed = rename(tmp, target) == 0;
    if (renamed)
        set_slot(slot, 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!renamed) {
        rc = oxo_fail(err, OXO_E_IO, "cannot rename into %s: %s", path, strerror(errno));
        goto fail;
    }
    folder_of(target, dir, sizeof dir);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        /* The new file is in place; a folder that cannot be synced (some file systems refuse)
         * only weakens durability, so it is not an error. */
        (void)fsync(dfd);
        close(dfd);
    }
    return OXO_OK;
fail:
    if (fd >= 0)
        close(fd);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    unlink(tmp);
    set_slot(slot, 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
