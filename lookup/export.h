/*
 * What oxo-export's files share: the export's view of a game (geo), the C forms' writers
 * (export_c.c) and the JSON forms (export_json.c).
 */
#ifndef OXO_EXPORT_H
#define OXO_EXPORT_H

#include "neat.h"
#include "ntuple.h"
#include "player.h"

#include "freestanding/host.h"
#include "freestanding/board.c"

#include <stdio.h>

/* Writes tic-tac-toe's Python dictionary (f_q 0) or the app's Q-table JSON (f_q 1) of pl into f;
 * *count receives the records written. 0, or -1 out of memory. */
int oxo_export_json(FILE *f, const oxo_player *pl, int f_q, size_t *count);

/* The export's view of a game: cells row by row, lines, symmetries as permutations, and the
 * board of the freestanding sources (lookup/freestanding) over them, through which this program
 * asks what the player it writes will ask. */
typedef struct geo {
    const oxo_game *g;
    int w, h, cells, moves, gravity;
    int nlines;
    uint64_t lines[OXO_MAX_LINES];
    int nsym;
    uint8_t perm[8 * 64];  /* perm[s * cells + cell]: where cell goes under symmetry s */
    uint8_t mperm[8 * 64]; /* mperm[s * moves + move]: the same for move numbers */
    uint8_t order[64];     /* c-small: the default move order, best first */
    oxp_board b;
} geo;

/* The C forms (export_c.c), each into f with prefix P: c-small from its exceptions (canonical
 * key << 6 | move), c of a table from its sorted keys and entries, c of a network (an n-tuple
 * network or a NEAT champion, written as itself; returns the weights written). */
void emit_small(FILE *f, const geo *e, const char *P, const uint64_t *exc, size_t nexc);
void emit_full(FILE *f, const geo *e, const char *P, const uint64_t *keys, const uint8_t *ent,
               size_t n);
uint32_t emit_network(FILE *f, const geo *e, const oxo_player *pl, const char *P);
/* Whether pl plays one network that --form c writes as itself. */
int oxo_export_network(const oxo_player *pl);

#endif
