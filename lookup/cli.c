/*
 * Command-line helpers shared by oxo-gen, oxo-train and oxo-play (see cli.h).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef OXO_INSTALL_DATADIR
#define OXO_INSTALL_DATADIR "/usr/local/share/oxo"
#endif
#ifndef OXO_SOURCE_DATADIR
#define OXO_SOURCE_DATADIR "data"
#endif

int oxo_cli_u64(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                uint64_t *out)
{
    char *end;
    errno = 0;
    if (!arg || !*arg || *arg == '-' || *arg == '+' || *arg == ' ') {
        fprintf(stderr, "%s: %s: '%s' is not a whole number from %llu to %llu\n", prog, opt,
                arg ? arg : "", (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    unsigned long long v = strtoull(arg, &end, 10);
    if (*end || errno == ERANGE || v < lo || v > hi) {
        fprintf(stderr, "%s: %s: '%s' is not a whole number from %llu to %llu\n", prog, opt, arg,
                (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    *out = v;
    return 0;
}

int oxo_cli_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
                   double *out)
{
    char *end;
    errno = 0;
    double v = arg && *arg ? strtod(arg, &end) : NAN;
    if (!arg || !*arg || *end || errno == ERANGE || !(v >= lo && v <= hi)) {
        fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g\n", prog, opt, arg ? arg : "", lo,
                hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int try_path(const char *dir, const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", dir, name);
    return access(out, R_OK) == 0 ? 0 : -1;
}

int oxo_find_data(const char *name, char *out, size_t cap)
{
    const char *env = getenv("OXO_DATA_DIR");
    if (env && *env && try_path(env, name, out, cap) == 0)
        return 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            char dir[PATH_MAX + 32];
            snprintf(dir, sizeof dir, "%s/../share/oxo", exe);
            if (try_path(dir, name, out, cap) == 0)
                return 0;
        }
    }
    if (try_path(OXO_INSTALL_DATADIR, name, out, cap) == 0)
        return 0;
    return try_path(OXO_SOURCE_DATADIR, name, out, cap);
}

int oxo_cli_bad_option(const char *prog, int c, char **argv)
{
    if (c == ':')
        fprintf(stderr, "%s: option %s needs a value\n", prog, argv[optind - 1]);
    else
        fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[optind - 1]);
    fprintf(stderr, "Try '%s --help'.\n", prog);
    return OXO_EXIT_USAGE;
}

int oxo_cli_no_operands(const char *prog, int argc, char **argv)
{
    if (optind >= argc)
        return 0;
    fprintf(stderr, "%s: unexpected argument '%s'\nTry '%s --help'.\n", prog, argv[optind], prog);
    return OXO_EXIT_USAGE;
}

void oxo_cli_init(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

int oxo_cli_finish(const char *prog, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: error writing output: %s\n", prog, strerror(errno));
        return OXO_EXIT_FAIL;
    }
    return code;
}
