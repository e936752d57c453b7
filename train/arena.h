/*
 * oxo-arena's pieces shared by its files: the tournament's setup (the game, each thread's agents,
 * the solvers' book, the judge) and its totals (scores, grades, ratings, the ranking), which
 * arena.c plays and sums and arena_report.c prints (a table, JSON, an SVG heat map).
 */
#ifndef OXO_ARENA_H
#define OXO_ARENA_H

#include "agent.h"
#include "judge.h"
#include "player.h"

#include <stddef.h>
#include <stdint.h>

#define MAX_AGENTS 64

typedef struct arena {
    const oxo_game *g;
    oxo_agent **ag; /* nthreads * nagents: each thread its own agents (they keep scratch memory) */
    int nagents, nthreads, anchor;
    uint64_t games, seed, boot;
    oxo_player *book;      /* the solvers' opening book, lent to every solver without its own */
    const char *book_file; /* its file */
    oxo_player *judge;     /* an exact table grading each move, or */
    oxo_player **judges;   /* the solver grading each move, one a thread (with judge_book), or */
    oxo_player *judge_book;
    oxo_judge *jset; /* a judged set grading each agent's pick in its positions */
    char judge_path[4096], book_found[4096];
} arena;

typedef struct tally {
    size_t ntasks; /* games played */
    double score[MAX_AGENTS], pair_score[MAX_AGENTS][MAX_AGENTS];
    long ngames[MAX_AGENTS], wins[MAX_AGENTS], draws[MAX_AGENTS], losses[MAX_AGENTS];
    long pair_games[MAX_AGENTS][MAX_AGENTS], graded[MAX_AGENTS], kept[MAX_AGENTS];
    double klow[MAX_AGENTS], khigh[MAX_AGENTS]; /* a judged set: the 95% interval of kept */
    /* the fit and its bootstrap interval */
    double elo[MAX_AGENTS], low[MAX_AGENTS], high[MAX_AGENTS];
    int rank[MAX_AGENTS]; /* the agents by rating, best first */
} tally;

/* arena_report.c */
void arena_print_json(const arena *A, const tally *T);
void arena_print_text(const arena *A, const tally *T);
/* The heat map saved at svg (atomically): 0, or -1 said on stderr. */
int arena_write_svg(const arena *A, const tally *T, const char *svg);

#endif
