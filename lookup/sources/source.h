/*
 * The sources of a player's values, and the player itself (opaque outside lookup/sources and
 * lookup/player.c; see player.h).
 *
 * A source is one kind of file a player plays from: a whole table of a format 1 space, a whole
 * table keyed by a bitmap of codes (format 2), an opening book, a tabular Q or TD model, an n-tuple
 * network, an ensemble of networks, the search solver. Each is a constant table of operations
 * (oxo_source_ops) in a file of this folder and a row in registry.c: the player's opening asks each
 * row in turn whether it reads the file (claims, or a model's algo named as the row), then lets
 * that row check and attach it; every question a caller asks (each move's score, a position's
 * entry) goes to the row's functions. A new kind of file is a file here and a row there, and
 * nothing in the player, the programs or the agents changes.
 */
#ifndef OXO_SOURCE_H
#define OXO_SOURCE_H

#include "player.h"

typedef struct oxo_source_ops {
    /* "table", "keyed table", "book", "q", "td", "ntuple", "ensemble", "solver" */
    const char *name;
    int takes;     /* what the file is to a caller: OXO_TAKE_TABLE, _MODEL or _BOOK */
    int exact;     /* its scores are exact values and distances (oxo_player_exact) */
    int any_board; /* needs no enumerated space nor index: plays boards of any size */
    /* Whether it plays from the table t or the model m (one of them is set). NULL: the models whose
     * algo is the source's name (never asked of a source without attach). */
    int (*claims)(const oxo_table *t, const oxo_model *m);
    /* Checks and attaches p->table or p->model (p->game open, the file's): 0, or -1 with err set.
     * space: a state space the caller has, borrowed when it is the one the file needs. */
    int (*attach)(oxo_player *p, const oxo_space *space, oxo_error *err);
    /* Required: scores every legal move of pos (as oxo_player_moves). */
    int (*moves)(const oxo_player *p, oxo_pos pos, oxo_move_info *out);
    /* Optional (exact sources): the entry of pos, or -1 when the source holds none. */
    int (*entry)(const oxo_player *p, oxo_pos pos);
    /* A file that is no container (a judged set's text): whether the row reads these bytes, and
     * loads them into p (its game opened by the row): 0, or -1 with err set. */
    int (*reads)(const uint8_t *data, size_t len);
    int (*load)(oxo_player *p, const uint8_t *data, size_t len, oxo_error *err);
    /* Optional: frees what the source keeps beyond the player's shared fields (the solver's
     * search), so that a program that never opens such a source never links its code. */
    void (*release)(oxo_player *p);
} oxo_source_ops;

/* A judged position's place in the file, found by its stones (judged.c). */
typedef struct oxo_judged_key {
    oxo_pos pos;
    uint32_t at;
} oxo_judged_key;

/* Every source, in the order their claims are asked (registry.c); NULL-terminated. */
extern const oxo_source_ops *const oxo_sources[];

extern const oxo_source_ops oxo_source_table, oxo_source_keyed, oxo_source_book, oxo_source_q,
    oxo_source_td, oxo_source_ntuple, oxo_source_ensemble, oxo_source_solver, oxo_source_judged,
    oxo_source_plies, oxo_source_neat, oxo_source_azero;

struct oxo_player {
    const oxo_source_ops *ops;
    const oxo_game *game;
    oxo_game *own_game; /* the game of a file, opened from its spec */
    const oxo_space *space;
    oxo_space *own_space;
    const uint8_t *entries; /* tables and books */
    const float *values;    /* q: per edge; td: per node */
    double gamma;           /* td: discount applied to a child's value */
    oxo_table *table;       /* owned, when opened from a file */
    oxo_model *model;       /* owned, when opened from a file */
    /* keyed tables: the rank of the table's bitmap of codes */
    oxo_keyset keys;
    /* books: the depth, and the first entry of each bucket of codes (the top bits), so a lookup
     * bisects a few dozen codes instead of millions */
    int book_depth;
    uint32_t *book_dir;
    int book_shift;
    /* networks: the network (owned when opened from a file) */
    const oxo_ntuple *net;
    oxo_ntuple *own_net;
    /* NEAT models: the champion's network (owned) */
    struct oxo_neat_net *neat;
    int own_neat;
    /* azero models: the network (owned when own_az; its weights borrowed from the model or the
     * trainer) */
    struct oxo_az_net *az;
    int own_az;
    /* the solver: its search (owned; one thread's), and the opening book it asks first
     * (borrowed) */
    struct oxo_c4solver *c4;
    const struct oxo_player *book;
    /* ensembles: the networks joined (owned), whose values are averaged */
    struct oxo_player *members[OXO_PLAYER_MAX_MEMBERS];
    int nmembers;
    /* judged sets: the positions in the file's order, and the index that finds them */
    oxo_judged *judged;
    uint32_t njudged;
    oxo_judged_key *judged_keys;
};

/* Shared by the sources. */

/* A table's score of a move: win-fast > win-slow > draw > loss-slow > loss-fast. */
static inline double oxo_source_score(int value, int distance)
{
    return value > 0 ? 100.0 - distance : value < 0 ? -100.0 + distance : 0.0;
}

/* Scores each legal move of pos by its child's entry (p->ops->entry): the moves of a keyed table
 * or a book; -1 when pos or a child has none. */
int oxo_source_entry_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out);

/* Along `games` games of random play (a fixed seed), every position has an entry (p->ops->entry),
 * a finished one its result, and every other one the negamax of its children's entries
 * (oxo_entry_fold). A table of another game (another K, say) or with lying entries is caught this
 * way with a near certainty, in about a millisecond for 64 games of a table in memory. 0, or -1
 * with err naming the position. */
int oxo_source_sample_check(const oxo_player *p, int games, oxo_error *err);

/* Scores each move of pos through p's state space: score(p, edge, child, mi) fills mi of the edge
 * to the child node; the moves on the real board, ascending; -1 when pos is not in the space. */
int oxo_source_space_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out,
                           void (*score)(const oxo_player *p, uint32_t edge, uint32_t child,
                                         oxo_move_info *mi));

/* Uses `space` when it is the one p's file needs (same game and symmetry), building one
 * otherwise. */
int oxo_source_use_space(oxo_player *p, const oxo_space *space, int symmetric, oxo_error *err);

#endif
