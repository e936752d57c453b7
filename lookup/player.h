/*
 * The lookup-only player: move values from a solved table or a learned model, and move choice.
 *
 * A player owns (or borrows) one source of values (lookup/sources, one file each):
 *   table, keyed table, book: the entry of each child position gives the exact value and distance
 *          of each move (a book only up to its depth);
 *   q:     the learned Q value of each move;
 *   td:    the learned V of each child position (a finished child is worth its reward);
 *   ntuple: an n-tuple network's value of each move's afterstate (lookup/ntuple.h), no space;
 *   ensemble: the mean of several networks' values (oxo_player_open_joined);
 *   solver: the search solver's exact values (c4solve.h), with an opening book first.
 * Every move gets a score, higher is better; for a table the score orders win-fast > win-slow >
 * draw > loss-slow > loss-fast. Choosing is: the best-scored moves, ties broken at random.
 *
 * No search and no training code: this is all oxo-play links, with the readers of formats/.
 */
#ifndef OXO_PLAYER_H
#define OXO_PLAYER_H

#include "format.h"
#include "game.h"
#include "keyset.h"
#include "model.h"
#include "ntuple.h"
#include "space.h"
#include "table.h"

/* Networks an ensemble may join (oxo_player_open_joined). */
#define OXO_PLAYER_MAX_MEMBERS 8

typedef struct oxo_move_info {
    int move;
    double score;
    int value;    /* table only: OXO_WIN/DRAW/LOSS for the side to move */
    int distance; /* table only: plies to the end under optimal play after this move, counting it */
} oxo_move_info;

/* A position of a judged set (FORMAT.md 2.3, oxo-gen --judge-set): the value of each move for the
 * side to move (OXO_WIN, _DRAW, _LOSS; -2 where the move is not legal) and the best of them. */
typedef struct oxo_judged {
    oxo_pos pos;
    int8_t value[OXO_MAX_MOVES];
    int8_t best;
} oxo_judged;
/* The largest judged set read: some 300,000 positions of 7x6. */
#define OXO_JUDGED_MAX_BYTES (64u << 20)

/* A player: opaque; its sources are lookup/sources (one file and one registry row each). */
typedef struct oxo_player oxo_player;

/* Opens a table or a model file (told apart by the header). NULL on failure, with err set. */
oxo_player *oxo_player_open(const char *path, oxo_error *err);
/* The same, or, where spec names no file and holds '+', an ensemble: the n-tuple models
 * A.oxm+B.oxm+... (2 to OXO_PLAYER_MAX_MEMBERS, of one game), each move's value the mean of the
 * networks' values. Networks trained apart misjudge different positions, so their mean plays
 * better than any of them (train/RECORD.md, n-tuple networks). err names the member that failed. */
oxo_player *oxo_player_open_joined(const char *spec, oxo_error *err);
/* Whether spec joins networks by '+' (it holds '+' and names no file: a path naming an existing
 * file is that file, '+' or not), as oxo_player_open_joined reads it. */
int oxo_spec_is_joined(const char *spec);
/* The network of a joined spec that starts at s: its length in *len, and its name copied to out
 * (NUL-terminated) when 0 < *len < cap; where the next one starts, NULL after the last. */
const char *oxo_spec_member(const char *s, char *out, size_t cap, size_t *len);
/* The kinds of file a caller takes where it reads one: a whole table (every position), a model
 * (tabular values or a network), an opening book (positions up to a depth only). */
enum {
    OXO_TAKE_TABLE = 1,
    OXO_TAKE_MODEL = 2,
    OXO_TAKE_BOOK = 4,
    OXO_TAKE_JUDGED = 8, /* a judged set: values at its positions only */
    OXO_TAKE_ANY = 15
};
/* 0 when p, opened from `path`, is of a kind in `takes`; otherwise -1 with err naming what the
 * file is and what the caller takes. A book is never taken for a whole table: past its depth it
 * has no move to give, and a caller that plays every answer would play none. */
int oxo_player_takes(const oxo_player *p, const char *path, int takes, oxo_error *err);
/* oxo_player_open_joined, then oxo_player_takes (the player closed when refused). */
oxo_player *oxo_player_open_as(const char *spec, int takes, oxo_error *err);
/* Opens an opening book (oxo-gen --book) of game g: NULL, with err naming path, when the file
 * cannot be read or is not a book of g. */
oxo_player *oxo_player_open_book(const oxo_game *g, const char *path, oxo_error *err);
/* The same from a file's bytes (not kept). */
oxo_player *oxo_player_open_memory(const uint8_t *data, size_t len, oxo_error *err);
/* An ensemble from the bytes of n files (1 to OXO_PLAYER_MAX_MEMBERS; n = 1: that file, whatever it
 * holds), as oxo_player_open_joined joins files; err names the buffer ("buffer 2") that failed. */
oxo_player *oxo_player_open_memory_joined(const uint8_t *const *data, const size_t *len, int n,
                                          oxo_error *err);
/* The search solver as a player of game g (which must outlive it; only the games whose `solver`
 * is set): exact values and distances like a whole table's, by search, from the opening book
 * `book` (borrowed, NULL for none) where it holds the position. Searching, it is one thread's. */
oxo_player *oxo_player_open_solver(const oxo_game *g, const oxo_player *book, oxo_error *err);
/* Takes ownership of t (freed on failure too). */
oxo_player *oxo_player_from_table(oxo_table *t, oxo_error *err);
oxo_player *oxo_player_from_model(oxo_model *m, oxo_error *err);
/* The same, borrowing the state space `space` when it is the one the file needs (same game and
 * symmetry; it must outlive the player), building one otherwise. */
oxo_player *oxo_player_from_table_in(oxo_table *t, const oxo_space *space, oxo_error *err);
oxo_player *oxo_player_from_model_in(oxo_model *m, const oxo_space *space, oxo_error *err);
/* A player over tabular values held elsewhere (the trainer's) of algo "q" or "td", borrowing the
 * space; NULL for another algo or out of memory. */
oxo_player *oxo_player_borrow(const oxo_space *s, const char *algo, const float *values,
                              double gamma);
/* A player over a network held elsewhere (the trainer's). */
oxo_player *oxo_player_borrow_net(const oxo_ntuple *net);
/* A player over a NEAT network of game g (lookup/neat.h): borrowed as the one above, or when own
 * is 1 the player's, freed (oxo_neat_free, then free) when it is closed. */
struct oxo_neat_net;
oxo_player *oxo_player_of_neat(const oxo_game *g, struct oxo_neat_net *net, int own);
/* A player over an AlphaZero-lite network of game g (lookup/azero.h), playing its bare policy;
 * when own is 1 the player frees the network struct (not its weights) when it is closed. */
struct oxo_az_net;
oxo_player *oxo_player_of_azero(const oxo_game *g, struct oxo_az_net *net, int own);
void oxo_player_close(oxo_player *p);

/* What a player is: its game; the name of its source ("table", "keyed table", "book", "q", "td",
 * "ntuple", "ensemble", "solver", "judged set"); whether its scores are exact values and distances
 * (tables, books, the solver; a judged set's values, without distances);
 * a book's depth (-1 for anything else); the table or model it was opened from (NULL when it was
 * not, or for an ensemble); a single network's weights (NULL otherwise); the number of players an
 * ensemble joins (1 for any other) and each of them (0 to members - 1; 0 is the player itself
 * when it is not an ensemble). */
const oxo_game *oxo_player_game(const oxo_player *p);
const char *oxo_player_source(const oxo_player *p);
int oxo_player_exact(const oxo_player *p);
int oxo_player_book_depth(const oxo_player *p);
const oxo_table *oxo_player_table(const oxo_player *p);
const oxo_model *oxo_player_model(const oxo_player *p);
const oxo_ntuple *oxo_player_net(const oxo_player *p);
const struct oxo_neat_net *oxo_player_neat(const oxo_player *p); /* NULL but for a NEAT model */
const struct oxo_az_net *oxo_player_azero(const oxo_player *p);  /* NULL but for an azero one */
int oxo_player_members(const oxo_player *p);
const oxo_player *oxo_player_member(const oxo_player *p, int k);
/* A judged set's positions, in the file's order, into *pos; their number (0 for any other source,
 * *pos then NULL). Its moves' values are also what oxo_player_moves answers at these positions
 * (distances 0: the set holds none), and -1 elsewhere. */
uint32_t oxo_player_judged(const oxo_player *p, const oxo_judged **pos);

/* The entry of pos in a table or book (finished positions, which a book leaves out, from the
 * rules), or -1 when it holds none (a model; a position not in the table; a book holds no
 * position past its depth). */
int oxo_player_entry(const oxo_player *p, oxo_pos pos);
/* The Connect-4 score (c4solve.h) of an unfinished position that the opening book holds, for its
 * side to move, in *score: 1, or 0 when the book does not hold it (finished, or past its depth). */
int oxo_player_book_score(const oxo_player *book, oxo_pos pos, int *score);

/* One move of the negamax rule of entries: a child's entry, seen from the parent, joins the best so
 * far (*bv, *bd; start from *bv = -2): the best value, the winner taking the shortest win, the
 * loser the longest loss, a draw the shortest way to the end. */
static inline void oxo_entry_fold(uint8_t child, int *bv, int *bd)
{
    int v = -OXO_ENTRY_VALUE(child), d = OXO_ENTRY_DISTANCE(child) + 1;
    if (v > *bv || (v == *bv && (v < 0 ? d > *bd : d < *bd))) {
        *bv = v;
        *bd = d;
    }
}

/* The entry node i must have given its children's entries (negamax): a finished position is lost
 * or drawn in 0; otherwise the best value, the winner taking the shortest win, the loser the
 * longest loss, a draw the shortest way to the end (every tic-tac-toe draw fills the board). The
 * generator solves with it, children first; the reader checks every entry with it. */
void oxo_entry_of(const oxo_space *s, const uint8_t *entries, uint32_t i, int *value,
                  int *distance);

/* Checks a table's entries against the rules: count, finished positions, and each entry against
 * the entries of its children. The table of a foreign game or of wrong values is refused here. */
int oxo_table_check(const oxo_space *s, const uint8_t *entries, uint32_t n, oxo_error *err);

/* The value and distance of a position (tables and books); -1 when the player holds none. */
int oxo_player_value(const oxo_player *p, oxo_pos pos, int *value, int *distance);

/* Scores every legal move: returns their number (0 when the game is over), -1 when the position
 * is not reachable. Moves are on the real board, in ascending order. */
int oxo_player_moves(const oxo_player *p, oxo_pos pos, oxo_move_info *out);

/* Fills best[] with the moves of the highest score; returns how many. */
int oxo_best_moves(const oxo_move_info *mi, int n, int *best);

/* Level 1..10: plays a uniformly random legal move with probability (10 - level) / 9, otherwise a
 * best move, ties at random. Returns the move, or -1 when there is none. */
int oxo_player_pick(const oxo_player *p, oxo_pos pos, int level, uint64_t *rng);

const char *oxo_value_name(int value);

#endif
