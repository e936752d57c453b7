/*
 * What oxo-export's forms share across its files: the JSON forms (export_json.c).
 */
#ifndef OXO_EXPORT_H
#define OXO_EXPORT_H

#include "player.h"

#include <stdio.h>

/* Writes tic-tac-toe's Python dictionary (f_q 0) or the app's Q-table JSON (f_q 1) of pl into f;
 * *count receives the records written. 0, or -1 out of memory. */
int oxo_export_json(FILE *f, const oxo_player *pl, int f_q, size_t *count);

#endif
