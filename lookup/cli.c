/*
 * Command-line helpers shared by oxo-gen, oxo-train and oxo-play (see cli.h): numbers, options,
 * files, messages. What a program's process sets up (signals, OpenMP's waiting) is in
 * cli_process.c, so that these also build where there is no process (the page's WebAssembly).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
        fprintf(stderr, "%s: %s: '%s' is not a number from %g to %g\n", prog, opt, arg ? arg : "",
                lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int oxo_cli_default_table(const char *prog, const char *spec, char *found, size_t cap)
{
    char name[128];
    oxo_table_name(spec, name, sizeof name);
    if (oxo_find_data(name, found, cap) == 0)
        return 0;
    fprintf(
        stderr,
        "%s: no table given and %s was not found (looked in $OXO_DATA_DIR, the current folder "
        "and share/oxo beside the program); make it with oxo-gen --game %s, or use --table FILE\n",
        prog, name, spec);
    return -1;
}

void oxo_data_name(const char *spec, const char *suffix, char *out, size_t cap)
{
    snprintf(out, cap, "%s%s", spec, suffix);
    for (char *q = out; *q; q++)
        if (*q == ':' || *q == ',')
            *q = '-';
}

int oxo_find_book(const char *spec, char *out, size_t cap)
{
    char name[160];
    oxo_data_name(spec, "-book.oxt", name, sizeof name);
    return oxo_find_data(name, out, cap);
}

void oxo_table_name(const char *spec, char *out, size_t cap)
{
    oxo_data_name(spec, ".oxt", out, cap);
}

int oxo_cli_other(const char *prog, int c, char **argv, const struct option *opts,
                  void (*usage)(FILE *out))
{
    if (c == 'h')
        usage(stdout);
    else if (c == 'V')
        printf("%s %s\n", prog, OXO_VERSION);
    else
        return oxo_cli_bad_option(prog, c, argv, opts);
    return oxo_cli_finish(prog, OXO_EXIT_OK);
}

int oxo_cli_bad_option(const char *prog, int c, char **argv, const struct option *opts)
{
    /* getopt_long says '?' for an abbreviation that several long options share as for an
     * unknown one: tell them apart, and name the options meant. */
    const char *a = argv[optind - 1];
    if (c != ':' && opts && a && !strncmp(a, "--", 2) && a[2]) {
        size_t n = strcspn(a + 2, "="), used = 0;
        int hits = 0;
        char list[512] = "";
        for (const struct option *o = opts; o->name && hits >= 0; o++) {
            if (strncmp(o->name, a + 2, n))
                continue;
            if (strlen(o->name) == n)
                hits = -1; /* named whole: not an abbreviation (a value it does not take, say) */
            else if (used + strlen(o->name) + 4 < sizeof list) {
                hits++;
                used += (size_t)snprintf(list + used, sizeof list - used, " --%s", o->name);
            }
        }
        if (hits > 1) {
            fprintf(stderr, "%s: option '--%.*s' is ambiguous; possibilities:%s\n", prog, (int)n,
                    a + 2, list);
            fprintf(stderr, "Try '%s --help'.\n", prog);
            return OXO_EXIT_USAGE;
        }
    }
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

const char *oxo_group(uint64_t v, char *buf)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v), k = 0;
    for (int i = 0; i < n; i++) {
        buf[k++] = tmp[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            buf[k++] = ',';
    }
    buf[k] = 0;
    return buf;
}

int oxo_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int oxo_utf8_len(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80)
        return 1;
    int n = u[0] >= 0xc2 && u[0] <= 0xdf   ? 2
            : u[0] >= 0xe0 && u[0] <= 0xef ? 3
            : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4
                                           : 0;
    for (int i = 1; i < n; i++)
        if ((u[i] & 0xc0) != 0x80)
            return 0;
    /* The second byte's range where the first allows less: no overlong 3- or 4-byte form, no
     * surrogate (U+D800-U+DFFF), nothing past U+10FFFF. */
    if ((u[0] == 0xe0 && u[1] < 0xa0) || (u[0] == 0xed && u[1] > 0x9f) ||
        (u[0] == 0xf0 && u[1] < 0x90) || (u[0] == 0xf4 && u[1] > 0x8f))
        return 0;
    return n;
}

size_t oxo_text_bad(const char *s)
{
    for (const char *p = s; *p;) {
        int n = oxo_utf8_len(p);
        if (!n || (unsigned char)*p < 0x20 || *p == 0x7f)
            return (size_t)(p - s) + 1;
        p += n;
    }
    return 0;
}

void oxo_json_str(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    while (*s) {
        unsigned char ch = (unsigned char)*s;
        int n = oxo_utf8_len(s);
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\u%04x", ch);
        else if (!n)
            fputs("\\ufffd", out); /* a byte of no valid character */
        else
            fwrite(s, 1, (size_t)n, out);
        s += n ? n : 1;
    }
    fputc('"', out);
}

int oxo_cli_finish(const char *prog, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: error writing output: %s\n", prog, strerror(errno));
        return OXO_EXIT_FAIL;
    }
    return code;
}
