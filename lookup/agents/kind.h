/*
 * Inside the agents (not for callers: they use agent.h): what an agent holds, what a kind of agent
 * implements, and the pieces several kinds share (the alignment lines and heuristic, alpha-beta,
 * the PUCT search, ties, the files an agent opens). A new kind is a file that defines one
 * `const agent_kind` and a row in registry.c; agent.c parses the NAME= prefix and the kind's
 * word and hands the rest of the spec to the kind's open.
 */
#ifndef OXO_AGENT_KIND_H
#define OXO_AGENT_KIND_H

#include "agent.h"
#include "c4solve.h"
#include "player.h"
#include "rng.h"

#include <stddef.h>

/* Winning lines over the cells of the board as people see it (oxo_cells), with each cell's
 * weight: the number of lines through it. */
typedef struct lines {
    int n;
    uint64_t line[OXO_MAX_LINES];
    int weight[OXO_MAX_MOVES];
} lines;

typedef struct agent_kind agent_kind;

/* The fields are the kinds' together: each kind uses its own and the shared ones (g, name, value,
 * lines), and a kind whose state fits none of them keeps it behind `state`. */
struct oxo_agent {
    const oxo_game *g;
    const agent_kind *kind;
    const char *kind_name; /* the kind's name, or the word the spec used where a kind takes two */
    char name[160];
    oxo_player *player; /* table, model, or the solver's table on enumerable games */
    /* :value=FILE: values MCTS leaves, or chooses where the solver's budget runs out */
    oxo_player *value;
    const oxo_player *book; /* an opening book (Connect-4), looked up before solving */
    oxo_player *own_book;   /* ... opened from solver:...:book=FILE */
    oxo_c4solver *c4;       /* the solver on Connect-4 */
    int depth;              /* alphabeta */
    long playouts;          /* mcts, puct: iterations a move */
    double c;               /* mcts, puct: exploration */
    lines *lines;           /* alphabeta, and a budgeted solver's fallback */
    long budget_ms;         /* solver:MS on Connect-4: a time budget per move (0: none) */
    uint64_t budget_nodes;  /* solver:nodes=N: a budget of nodes per move instead (0: none) */
    /* solver:outcome: any move of the best outcome, whatever the distance */
    int outcome;
    char note[120]; /* what the last pick was, when it was not exact */
    /* what chose the last move of a Connect-4 solver: "solver", "proven win", ... */
    const char *chosen;
    void *state; /* a kind's own, freed by its free */
};

/* A kind of agent: a row of the registry (registry.c). */
struct agent_kind {
    const char *name;  /* the spec's word: "random", "alphabeta" */
    const char *alias; /* optional: a second word the same kind answers to ("model" for "table") */
    /* The spec's forms, as --help and the message of an unknown spec list them
     * ("mcts:PLAYOUTS[:C][:value=FILE]"), and what the agent does and its numbers mean. */
    const char *usage, *about;
    /* Sets up a (its g and name set, the rest zero) from the spec's argument after "word:" (NULL
     * when there is none; word is the one the spec used): 0, or -1 with a sentence in err, and
     * *failed 1 when the spec was right but a file it names, or memory, failed (agent.h). */
    int (*open)(oxo_agent *a, const char *word, const char *spec, const char *arg, int *failed,
                oxo_error *err);
    /* A move for the side to move in p (not finished), drawing from *rng; -1 when it cannot. */
    int (*pick)(oxo_agent *a, oxo_pos p, uint64_t *rng);
    /* Optional: frees what open took beyond the shared fields (player, value, own_book, lines). */
    void (*free)(oxo_agent *a);
};

/* The registry: every kind, NULL-terminated. */
extern const agent_kind *const oxo_agent_kinds[];

/* Alpha-beta's scores: a win is WIN less the plies to it; VALUE_SCALE maps a value file's -1..1
 * far below the wins; THREAT weighs an open line one stone short in the heuristic. */
enum { THREAT = 16, WIN = 1000000, VALUE_SCALE = 100000 };

/* The moves of the best value so far, for a pick at random among them. */
typedef struct ties {
    int best, n, move[OXO_MAX_MOVES];
} ties;

static inline void ties_add(ties *t, int move, int value)
{
    if (t->n == 0 || value > t->best) {
        t->best = value;
        t->n = 0;
    }
    if (value == t->best)
        t->move[t->n++] = move;
}

static inline int ties_pick(const ties *t, uint64_t *rng)
{
    return t->n ? t->move[oxo_rng_below(rng, (uint32_t)t->n)] : -1;
}

/* alphabeta.c: the lines of a's game into a->lines (0, or -1 with err when memory runs out), the
 * heuristic over them, and the negamax search to a depth. */
int agent_lines(oxo_agent *a, int *failed, oxo_error *err);
int agent_align_eval(const lines *L, const oxo_game *g, oxo_pos p);
int agent_alphabeta(const oxo_agent *a, oxo_pos p, int depth, int ply, int alpha, int beta);
/* puct.c: the search from root over the moves in `among` (all others set aside at the root only):
 * the move it plays, -1 when it cannot search; with `out`, the root's moves as searched. */
int agent_puct_search(const oxo_agent *a, oxo_pos root, uint64_t among, long iterations, double c,
                      oxo_puct_move *out, int *nout);

/* mcts.c: the parser of mcts's and puct's arguments (PLAYOUTS[:C][:value=FILE]). */
int agent_open_search(oxo_agent *a, const char *word, const char *spec, const char *arg,
                      int *failed, oxo_error *err);

/* agent.c: */
/* A legal move of p drawn uniformly, -1 when there is none. */
int agent_random_move(const oxo_game *g, oxo_pos p, uint64_t *rng);
/* The value a value file (`:value=FILE`) gives a move for its mover: a table's exact value, a
 * model's estimate clipped to -1..1. */
double agent_file_value(const oxo_agent *a, const oxo_move_info *mi);
/* Copies an agent's argument into buf and cuts ":value=FILE" (and ":book=FILE", when book is not
 * NULL) off it, in either order: returns the value FILE (in buf) or NULL, *book the book's; what
 * is left stays in buf. */
char *agent_split_value(const char *arg, char *buf, size_t cap, char **book);
/* The value file of an agent spec (`:value=FILE`), checked to be of the agent's game. */
oxo_player *agent_open_value(const oxo_game *g, const char *spec, const char *vfile, int *failed,
                             oxo_error *err);
/* A table (want_table) or a model of g from path, or the game's table found where data is looked
 * for when path is NULL. */
oxo_player *agent_open_player(const oxo_game *g, const char *path, int want_table, int *failed,
                              oxo_error *err);
/* A whole number from lo to hi, the whole of s: 0, or -1. */
int agent_number(const char *s, long long lo, long long hi, long long *out);
/* "agent 'SPEC': expected <every spec form>", the message of a spec no kind takes. */
void agent_expected(const char *spec, oxo_error *err);

#endif
