/*
 * Atomic saves: the bytes go to a temporary file in the destination's folder (same file system, so
 * rename is atomic), are fsync'ed, renamed over the destination, and the folder is fsync'ed so the
 * rename itself survives a crash. Any failure removes the temporary file and leaves the old file
 * as it was.
 */
#include "format.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int oxo_atomic_write(const char *path, const void *data, size_t len, oxo_error *err)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16), *dircopy = strdup(path);
    int fd = -1, rc = OXO_OK;
    if (!tmp || !dircopy) {
        rc = oxo_fail(err, OXO_E_NOMEM, "saving %s", path);
        goto done;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: it is a directory", path);
        goto done;
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot create a temporary file beside %s: %s", path,
                      strerror(errno));
        goto done;
    }
    /* mkstemp makes the file 0600; a saved table or model is as readable as any other file. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    int c = close(fd);
    fd = -1;
    if (c != 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot write %s: %s", path, strerror(errno));
        goto fail;
    }
    if (rename(tmp, path) != 0) {
        rc = oxo_fail(err, OXO_E_IO, "cannot rename into %s: %s", path, strerror(errno));
        goto fail;
    }
    int dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        /* The new file is in place; a folder that cannot be synced (some file systems refuse)
         * only weakens durability, so it is not an error. */
        (void)fsync(dfd);
        close(dfd);
    }
    goto done;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
done:
    free(tmp);
    free(dircopy);
    return rc;
}
