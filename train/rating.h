/*
 * Ratings from game results: a Bradley-Terry fit over all games at once by the
 * minorisation-maximisation algorithm of Hunter (2004, "MM algorithms for generalized
 * Bradley-Terry models"), a draw counting half a win each way, on the Elo scale (400 log10 of the
 * strength ratio) with a named anchor at 0; confidence intervals by a bootstrap over games.
 */
#ifndef OXO_RATING_H
#define OXO_RATING_H

#include <stddef.h>
#include <stdint.h>

/* One game: agents a (first) and b, score of a: 1 win, 0.5 draw, 0 loss. */
typedef struct oxo_game_result {
    int a, b;
    double score;
} oxo_game_result;

/* Fits n agents' Elo ratings from the games; elo[anchor] = 0. Every agent gets a prior of one
 * hundredth of a draw against every other, so that an agent that never scored (or never lost)
 * keeps a finite rating. Returns the iterations used, -1 when out of memory. */
int oxo_bt_fit(int n, const oxo_game_result *games, size_t ngames, int anchor, double *elo);

/* 95% intervals by `rounds` bootstrap resamples of the games (seeded): low[i], high[i]. */
int oxo_bt_bootstrap(int n, const oxo_game_result *games, size_t ngames, int anchor, int rounds,
                     uint64_t seed, double *low, double *high);

#endif
