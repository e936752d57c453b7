/*
 * Grading a learned policy against the solved table: accuracy over the reachable non-terminal
 * positions, the exhaustive check against every opponent line, and games against random play.
 */
#ifndef OXO_GRADE_H
#define OXO_GRADE_H

#include "agent.h"
#include "player.h"

typedef struct oxo_grade {
    double accuracy;          /* share of positions whose greedy moves all keep the value */
    double accuracy_distance; /* ... and are also optimal in distance */
    uint64_t losses_as_x, losses_as_o; /* games lost against every opponent line */
    /* ... against the perfect player, every tie of its best moves tried (not in model files) */
    uint64_t perfect_lines_lost_as_x, perfect_lines_lost_as_o;
    uint32_t random_as_x[3], random_as_o[3]; /* wins, draws, losses against the random player */
    uint32_t positions;                      /* positions graded (4,520 for tic-tac-toe) */
    /* Function learners (graded on a judged set, train/judge.h): */
    int judged; /* accuracy is over a judged set; no exhaustive check was made */
    uint32_t perfect_as_x[3], perfect_as_o[3]; /* wins, draws, losses against the perfect player */
    uint32_t perfect_games; /* games a colour against it, 0 when there is no perfect player */
} oxo_grade;

#define OXO_GRADE_RANDOM_GAMES 1000

/* space: the game's state space, raw or canonical (the learner's own: no second space is built);
 * the figures are those of all reachable positions either way. Random games use a stream keyed
 * by seed. */
int oxo_grade_run(const oxo_player *truth, const oxo_player *cand, const oxo_space *raw,
                  uint64_t seed, oxo_grade *out);

#define OXO_GRADE_PERFECT_GAMES 200
/* Solver agents playing the perfect player's games at once, at most (one a thread). */
#define OXO_GRADE_MAX_AGENTS 64

/* Games of cand against opp (NULL: the uniformly random player), cand playing X when as_x; opp's
 * best-scored moves with ties at random; streams keyed by seed. out: cand's wins, draws, losses. */
void oxo_grade_games(const oxo_player *cand, const oxo_player *opp, int as_x, uint64_t seed,
                     uint32_t games, uint32_t out[3]);
/* The same against the player opp, or when it is NULL the agents (the solver as the perfect player
 * where no table exists: nagents of them, one a thread, the games shared out; the figures do not
 * depend on their number), or when both are NULL random play. */
void oxo_grade_games_against(const oxo_player *cand, const oxo_player *opp,
                             oxo_agent *const *agents, int nagents, int as_x, uint64_t seed,
                             uint32_t games, uint32_t out[3]);

static inline int oxo_grade_perfect(const oxo_grade *g)
{
    return g->accuracy == 1.0 && g->losses_as_x == 0 && g->losses_as_o == 0 && !g->judged;
}

#endif
