/*
 * An LD_PRELOAD shim that makes the Nth write, fsync, close or rename fail, for the I/O fault
 * tests (tests/e2e_faults.sh). OXO_FAULT=OP:N:MODE, where MODE is an errno name (ENOSPC, EIO),
 * "short" (write only half, once), "EINTR" (fail once with EINTR) or "slow" (fsync waits 3 s first,
 * so that a signal can arrive in the middle of a save). Only calls on regular files
 * count, so messages to a terminal or /dev/null go through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int counts[4];
enum { W = 0, F, C, R };

static int hit(int op, int fd)
{
    const char *spec = getenv("OXO_FAULT");
    static const char *const names[4] = {"write", "fsync", "close", "rename"};
    if (!spec)
        return 0;
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
    }
    size_t len = strlen(names[op]);
    if (strncmp(spec, names[op], len) || spec[len] != ':')
        return 0;
    long n = strtol(spec + len + 1, NULL, 10);
    return ++counts[op] == n;
}

static int mode_errno(void)
{
    const char *m = strrchr(getenv("OXO_FAULT"), ':') + 1;
    if (!strcmp(m, "EIO"))
        return EIO;
    if (!strcmp(m, "EINTR"))
        return EINTR;
    if (!strcmp(m, "short"))
        return -1;
    return ENOSPC;
}

ssize_t write(int fd, const void *buf, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (hit(W, fd)) {
        int e = mode_errno();
        if (e == -1)
            return real(fd, buf, n > 1 ? n / 2 : n);
        errno = e;
        return -1;
    }
    return real(fd, buf, n);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (hit(F, fd)) {
        if (!strcmp(strrchr(getenv("OXO_FAULT"), ':') + 1, "slow")) {
            sleep(3);
            return real(fd);
        }
        errno = mode_errno() == EIO ? EIO : ENOSPC;
        return -1;
    }
    return real(fd);
}

int close(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (hit(C, fd)) {
        real(fd); /* Linux closes the descriptor even when close reports an error */
        errno = mode_errno() == EIO ? EIO : ENOSPC;
        return -1;
    }
    return real(fd);
}

int rename(const char *a, const char *b)
{
    static int (*real)(const char *, const char *);
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    if (hit(R, -1)) {
        errno = mode_errno() == EIO ? EIO : ENOSPC;
        return -1;
    }
    return real(a, b);
}
