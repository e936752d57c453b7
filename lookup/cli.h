/*
 * What the three programs share on their command lines: strict number parsing (the whole argument,
 * in range, or a usage error naming the option), exit codes, and finding the shipped data files.
 */
#ifndef OXO_CLI_H
#define OXO_CLI_H

#include <stddef.h>
#include <stdint.h>

#define OXO_VERSION "0.1.0"

enum { OXO_EXIT_OK = 0, OXO_EXIT_FAIL = 1, OXO_EXIT_USAGE = 2 };

/* Each returns 0, or prints "PROG: OPTION: ..." on stderr and returns -1. */
int oxo_cli_u64(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                uint64_t *out);
int oxo_cli_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
                   double *out);

/* Finds a shipped data file (e.g. "tictactoe.oxt"): $OXO_DATA_DIR, then the folder installed
 * beside the program (BINDIR/../share/oxo), then the install prefix, then the source tree's data/.
 * Writes the path found into out and returns 0, or -1 with the last path tried. */
int oxo_find_data(const char *name, char *out, size_t cap);

/* getopt_long's ':' (a missing value) and '?' (an unknown option): the message on stderr, and
 * the usage exit code to return. */
int oxo_cli_bad_option(const char *prog, int c, char **argv);
/* The programs take no operands: a usage error naming the first, or 0 when there is none. */
int oxo_cli_no_operands(const char *prog, int argc, char **argv);

/* Set-up shared by the programs: a file-size limit (RLIMIT_FSIZE) makes writes fail with EFBIG,
 * reported like any write error, instead of killing the process with SIGXFSZ. */
void oxo_cli_init(void);

/* Flushes stdout and reports a write error (a full disk, a closed pipe): exit code to use. */
int oxo_cli_finish(const char *prog, int code);

#endif
