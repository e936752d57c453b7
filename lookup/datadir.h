/* Where data files are found (datadir.c). */
#ifndef OXO_DATADIR_H
#define OXO_DATADIR_H

#include <stddef.h>

/* Finds a data file (e.g. "tictactoe.oxt"): $OXO_DATA_DIR, then the current folder (where oxo-gen
 * writes a table by default), then the data beside the program (BINDIR/../share/oxo once
 * installed, BUILD/share/oxo in a build tree). Writes the path found into out and returns 0, or
 * -1. */
int oxo_find_data(const char *name, char *out, size_t cap);
/* The same with the data beside `file` (a library's own path, for liboxo) instead of the
 * program's; file NULL: $OXO_DATA_DIR and the current folder only. */
int oxo_find_data_near(const char *name, const char *file, char *out, size_t cap);
/* The file a program was given: path itself, or for a bare name (no '/') that is no file in the
 * current folder, the data file of that name where oxo_find_data finds one, so that a shipped
 * file is named alike everywhere ("model:connect4-7-6-ntuple.oxm", "--judge connect4-7-6.judge"),
 * as liboxo does. buf (cap bytes) holds the path found; what is returned is path or buf. */
const char *oxo_data_path(const char *path, char *buf, size_t cap);

#endif
