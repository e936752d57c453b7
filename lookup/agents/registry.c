/*
 * The registry of agent kinds: the one list that names them. A new kind is a file that defines
 * its `const agent_kind` (kind.h: its spec's word, open, pick, and free if it holds more than
 * the shared fields) plus its declaration and its row here; agent.c, the player, the arena and
 * the trainer take it from its spec with nothing else changed.
 */
#include "kind.h"

extern const agent_kind oxo_agent_random;    /* random.c */
extern const agent_kind oxo_agent_table;     /* table.c: table and model */
extern const agent_kind oxo_agent_solver;    /* solver.c */
extern const agent_kind oxo_agent_alphabeta; /* alphabeta.c */
extern const agent_kind oxo_agent_mcts;      /* mcts.c */
extern const agent_kind oxo_agent_puct;      /* puct.c */
extern const agent_kind oxo_agent_qtable;    /* qtable.c */
extern const agent_kind oxo_agent_azero;     /* azero.c */

/* One row a line, as a new one adds a line. */
/* clang-format off */
const agent_kind *const oxo_agent_kinds[] = {
    &oxo_agent_random,
    &oxo_agent_table,
    &oxo_agent_solver,
    &oxo_agent_alphabeta,
    &oxo_agent_mcts,
    &oxo_agent_puct,
    &oxo_agent_qtable,
    &oxo_agent_azero,
    NULL,
};
/* clang-format on */
