/*
 * What the three programs share on their command lines: strict number parsing (the whole argument,
 * in range, or a usage error naming the option), exit codes, and finding the shipped data files.
 */
#ifndef OXO_CLI_H
#define OXO_CLI_H

#include "datadir.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define OXO_VERSION "0.1.0"

enum { OXO_EXIT_OK = 0, OXO_EXIT_FAIL = 1, OXO_EXIT_USAGE = 2 };

/* Each returns 0, or prints "PROG: OPTION: ..." on stderr and returns -1. */
int oxo_cli_u64(const char *prog, const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                uint64_t *out);
int oxo_cli_double(const char *prog, const char *opt, const char *arg, double lo, double hi,
                   double *out);

/* The shipped table of a game (oxo_find_data of its oxo_table_name) into found; -1 after saying on
 * stderr what was looked for and how to make it. */
int oxo_cli_default_table(const char *prog, const char *spec, char *found, size_t cap);

/* The file name of a game's table: "tictactoe.oxt", or the spec with '-' for ':' and ',', e.g.
 * "connect4-4-4.oxt" (what oxo-gen writes by default and what the players look for). */
void oxo_table_name(const char *spec, char *out, size_t cap);
/* The same stem with another ending: a game's other shipped files ("connect4-7-6.judge",
 * "connect4-7-6-ntuple.oxm"). */
void oxo_data_name(const char *spec, const char *suffix, char *out, size_t cap);
/* The game's shipped opening book ("connect4-7-6-book.oxt", oxo_find_data) into out: 0, or -1
 * when there is none. */
int oxo_find_book(const char *spec, char *out, size_t cap);

/* getopt_long's ':' (a missing value) and '?' (an unknown option, or an abbreviation that several
 * of opts share, told apart and named): the message on stderr, and the usage exit code to return.
 */
int oxo_cli_bad_option(const char *prog, int c, char **argv, const struct option *opts);
/* The cases every program's option switch ends with: -h, --help (usage on stdout), -V, --version,
 * and anything else (oxo_cli_bad_option). Returns the exit code to return. */
int oxo_cli_other(const char *prog, int c, char **argv, const struct option *opts,
                  void (*usage)(FILE *out));
/* The programs take no operands: a usage error naming the first, or 0 when there is none. */
int oxo_cli_no_operands(const char *prog, int argc, char **argv);

/* Set-up shared by the programs: a file-size limit (RLIMIT_FSIZE) makes writes fail with EFBIG,
 * reported like any write error, instead of killing the process with SIGXFSZ. */
void oxo_cli_init(void);

/* Signals. SIGINT, SIGTERM and SIGHUP: with a stop flag (graceful), the first sets *stop to the
 * signal's number and the long work stops at its next safe point; a second, or any without a
 * flag, calls cleanup (when not NULL: it must be async-signal-safe, e.g. removing a temporary
 * file) and ends the process by the signal, as if not caught. */
void oxo_cli_signals(volatile int *stop, void (*cleanup)(void));
/* The exit status of a program that stopped on signal sig, as a shell reports it: 128 + sig. */
int oxo_cli_signal_status(int sig);

/* v with thousands separators, 255168 -> "255,168", into buf (at least 32 bytes); returns buf. */
const char *oxo_group(uint64_t v, char *buf);

/* 1 when paths a and b name the same existing file (symlinks followed), else 0. */
int oxo_same_file(const char *a, const char *b);

/* Writes s as a JSON string (quotes, escapes, control characters as \u00XX, UTF-8 as it is, and
 * each byte that is not part of valid UTF-8 as U+FFFD, so that the output is always valid JSON);
 * NULL as null, for the fields that may name no file. */
void oxo_json_str(FILE *out, const char *s);
/* The length (1 to 4) of the valid UTF-8 character that starts at s (no overlong form, no
 * surrogate, at most U+10FFFF), or 0 when the byte at s starts none. */
int oxo_utf8_len(const char *s);
/* 0 when s is valid UTF-8 without control characters (text that can be printed as a name, in a
 * row of a table, an SVG or a JSON string); otherwise the 1-based offset of the first bad byte. */
size_t oxo_text_bad(const char *s);

/* Flushes stdout and reports a write error (a full disk, a closed pipe): exit code to use. */
int oxo_cli_finish(const char *prog, int code);

#endif
