/*
 * liboxo: the public interface of oxo's lookup-only player, for programs that embed it.
 *
 * Open a solved table (*.oxt) or a learned model (*.oxm) from a path or from memory, ask what a
 * position is worth and what each move is worth, pick a move at a difficulty level with a seed,
 * close. Nothing of the generator or the trainer is in here, and nothing else of oxo is visible
 * from the library: every name below is the whole interface.
 *
 * Boards are text, as the oxo programs take them: for m,n,k games (tic-tac-toe...) the cells row by
 * row from the top left as X, O and '.' (the side to move follows from the counts, X first); for
 * Connect-4 the columns played so far, as digits 1..W ("4453"). Moves are numbers from 0: a cell
 * (row * width + column) on m,n,k boards, a column on Connect-4.
 *
 * Errors are codes (oxo_rc) with names (oxo_rc_name); the sentence that says what was wrong with
 * the last failed call of this thread is oxo_last_error(). A handle may be queried by many threads
 * at once; nothing is global but that message.
 */
#ifndef OXO_OXO_H
#define OXO_OXO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OXO_VERSION_MAJOR  0
#define OXO_VERSION_MINOR  1
#define OXO_VERSION_PATCH  0
#define OXO_VERSION_STRING "0.1.0"

#if defined(__GNUC__) && defined(OXO_BUILDING_LIBRARY)
#define OXO_API __attribute__((visibility("default")))
#else
#define OXO_API
#endif

typedef enum oxo_rc {
    OXO_RC_OK = 0,
    OXO_RC_IO = 1,       /* the file could not be opened or read (or is not a regular file) */
    OXO_RC_NOMEM = 2,    /* out of memory */
    OXO_RC_FORMAT = 3,   /* not an oxo table or model, or a version this library does not read */
    OXO_RC_CORRUPT = 4,  /* damaged: truncated, checksum, malformed body or fields, wrong hash */
    OXO_RC_GAME = 5,     /* the file's values do not fit its game */
    OXO_RC_BOARD = 6,    /* the board text is malformed or cannot arise in the game */
    OXO_RC_OVER = 7,     /* the game is over: no move to pick or play */
    OXO_RC_MOVE = 8,     /* the move is not legal on that board */
    OXO_RC_ARGUMENT = 9, /* a NULL pointer, a level outside 1..10, a buffer too small */
} oxo_rc;

/* Values for the side to move. */
#define OXO_VALUE_LOSS (-1)
#define OXO_VALUE_DRAW 0
#define OXO_VALUE_WIN  1

/* The largest number of moves of any game (a move is below this). */
#define OXO_MOVES_MAX 64

typedef struct oxo_handle oxo_handle;

typedef struct oxo_move_value {
    int move;     /* 0-based cell or column */
    int exact;    /* 1: value and distance are the truth of a solved table; 0: a model's estimate */
    int value;    /* exact: OXO_VALUE_* after this move, for the side that plays it */
    int distance; /* exact: plies to the end under best play, counting this move */
    double score; /* higher is better; ranks the moves for tables and models alike */
} oxo_move_value;

typedef struct oxo_query_result {
    char to_move; /* 'X' or 'O' */
    int over;     /* 1 when the game has ended (no moves) */
    char winner;  /* when over: 'X', 'O', or 'D' for a draw; 0 otherwise */
    int exact;    /* 1 when value and distance below are known (tables) */
    int value;    /* exact: OXO_VALUE_* for the side to move */
    int distance; /* exact: plies to the end under best play */
    int nmoves;   /* legal moves, in ascending order */
    oxo_move_value moves[OXO_MOVES_MAX];
    int nbest; /* the moves of the highest score (ascending) */
    int best[OXO_MOVES_MAX];
} oxo_query_result;

/* The library's version, "MAJOR.MINOR.PATCH" (OXO_VERSION_STRING of the header it was built
 * with). */
OXO_API const char *oxo_version(void);
/* "OXO_RC_IO"... and a short description; never NULL. */
OXO_API const char *oxo_rc_name(oxo_rc rc);
OXO_API const char *oxo_rc_describe(oxo_rc rc);
/* What was wrong in the last call of this thread that failed ("" when none did). */
OXO_API const char *oxo_last_error(void);

/* Opens a table or a model (told apart by its header); checks it fully before returning. Several
 * n-tuple networks of one game joined by '+' ("a.oxm+b.oxm", up to 8) open as one player, each
 * move scored by the mean of the networks' values (a path naming an existing file is opened whole,
 * '+' or not); anything else joined is refused, OXO_RC_FORMAT or OXO_RC_GAME, naming the file. A
 * bare name that is no file in the current folder ("tictactoe.oxt") is looked for in
 * $OXO_DATA_DIR, then in share/oxo beside this library (LIBDIR/../share/oxo), as the programs
 * look for their data. */
OXO_API oxo_rc oxo_open(const char *path, oxo_handle **out);
/* The same from the bytes of a file; the bytes are not kept after the call. */
OXO_API oxo_rc oxo_open_memory(const void *data, size_t len, oxo_handle **out);
/* n-tuple networks of one game from the bytes of their files (data[k], len[k]; n from 1 to 8, one
 * being that file, whatever it holds), joined as oxo_open joins "a.oxm+b.oxm"; what cannot join is
 * refused as there, naming the buffer ("buffer 2"); n out of range is OXO_RC_ARGUMENT. */
OXO_API oxo_rc oxo_open_memory_joined(const void *const *data, const size_t *len, int n,
                                      oxo_handle **out);
OXO_API void oxo_close(oxo_handle *h);

/* The game of the file, as a spec ("tictactoe", "mnk:4,4,4", "connect4:5,4") and as people call
 * it. */
OXO_API const char *oxo_game_spec(const oxo_handle *h);
OXO_API const char *oxo_game_name(const oxo_handle *h);
/* The board text of the game's start ("........." or ""). */
OXO_API const char *oxo_start_board(const oxo_handle *h);
/* 1 for a solved table (exact values), 0 for a model. */
OXO_API int oxo_is_exact(const oxo_handle *h);

/* What the position is worth and what each legal move is worth. */
OXO_API oxo_rc oxo_query(const oxo_handle *h, const char *board, oxo_query_result *out);
/* Picks a move at level 1..10: with probability (10 - level) / 9 a uniformly random legal move,
 * otherwise one of the best, ties at random. *rng is the state of the random stream (any seed);
 * the same seed gives the same moves. OXO_RC_OVER when the game has ended. */
OXO_API oxo_rc oxo_pick(const oxo_handle *h, const char *board, int level, uint64_t *rng,
                        int *move);
/* Writes the board after `move` into out (cap bytes): a board of cells, OXO_MOVES_MAX + 1 at
 * most; Connect-4's moves, the board's text and the move in its form, strlen(board) + 4 at most
 * (a digit, or a comma and a number where the moves are separated, as from 10 columns on). */
OXO_API oxo_rc oxo_apply(const oxo_handle *h, const char *board, int move, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
