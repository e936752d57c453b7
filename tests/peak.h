/*
 * What opening a file costs a process, for the bomb tests (test_book, test_player): the open runs
 * in a child, whose peak resident size grows by what the open takes alone, and the child reports
 * that growth and the open's message through a pipe.
 */
#ifndef OXO_PEAK_H
#define OXO_PEAK_H

#include "player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* The largest a process has been, in KiB. */
static inline long peak_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Opens the file at path, or else the len bytes at data, in a child: what the child's peak grew by
 * (KiB), and into msg the error (or "(opened)"); -1 when the child could not report. */
static inline long open_peak(const char *path, const uint8_t *data, size_t len, char *msg,
                             size_t cap)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        oxo_error err;
        long before = peak_kib();
        oxo_player *p =
            path ? oxo_player_open(path, &err) : oxo_player_open_memory(data, len, &err);
        oxo_player_close(p);
        char out[700];
        int n = snprintf(out, sizeof out, "%ld %s", peak_kib() - before, p ? "(opened)" : err.msg);
        _exit(write(fd[1], out, (size_t)n) == n ? 0 : 2);
    }
    close(fd[1]);
    char got[700] = {0};
    ssize_t r = read(fd[0], got, sizeof got - 1);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (r <= 0 || !strchr(got, ' '))
        return -1;
    snprintf(msg, cap, "%s", strchr(got, ' ') + 1);
    return strtol(got, NULL, 10);
}

#endif
