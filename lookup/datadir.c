/*
 * Where the programs and liboxo find their data files (shipped tables, books, networks, and the
 * tables oxo-gen writes): $OXO_DATA_DIR, the current folder, then share/oxo beside the program or
 * the library. Apart from the command-line helpers (cli.c) so that liboxo, which has no command
 * line, looks in the same places.
 */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int try_path(const char *dir, const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, name);
    return access(out, R_OK) == 0 ? 0 : -1;
}

/* The data lies beside the program: <bin>/../share/oxo when installed (whatever the prefix, even
 * after the tree is moved), <build>/share/oxo in a build tree (a link to the source's data/).
 * No path of the machine that built the program is tried: it may be another machine's. Before
 * that, $OXO_DATA_DIR, then the current folder, where oxo-gen writes a table by default (the
 * next program did not find the table just made). */
int oxo_find_data_near(const char *name, const char *file, char *out, size_t cap)
{
    const char *env = getenv("OXO_DATA_DIR");
    if (env && *env && try_path(env, name, out, cap) == 0)
        return 0;
    if (try_path(".", name, out, cap) == 0)
        return 0;
    char dir[PATH_MAX + 32];
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (slash) {
        snprintf(dir, sizeof dir, "%.*s/../share/oxo", (int)(slash - file), file);
        if (try_path(dir, name, out, cap) == 0)
            return 0;
        snprintf(dir, sizeof dir, "%.*s/share/oxo", (int)(slash - file), file);
        if (try_path(dir, name, out, cap) == 0)
            return 0;
    }
    return -1;
}

const char *oxo_data_path(const char *path, char *buf, size_t cap)
{
    if (!path || !*path || strchr(path, '/') || access(path, F_OK) == 0 ||
        oxo_find_data(path, buf, cap))
        return path;
    return buf;
}

int oxo_find_data(const char *name, char *out, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    return oxo_find_data_near(name, n > 0 ? exe : NULL, out, cap);
}
