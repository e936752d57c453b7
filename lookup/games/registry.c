/*
 * The registry of game families: the one list that names them. A new family is a file that
 * defines its `const oxo_family` (a spec parser and an init that sets the rules' operations and
 * the game's answers, game.h) plus its declaration and its row here; nothing else in oxo changes.
 * The order is the order messages list the specs in.
 */
#include "game.h"

#include <stddef.h>

extern const oxo_family oxo_family_mnk;      /* mnk.c */
extern const oxo_family oxo_family_connect4; /* connect4.c */

/* One row a line, as a new one adds a line. */
/* clang-format off */
const oxo_family *const oxo_families[] = {
    &oxo_family_mnk,
    &oxo_family_connect4,
    NULL,
};
/* clang-format on */
