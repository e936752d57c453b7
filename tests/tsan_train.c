/*
 * ThreadSanitizer (with LLVM's Archer OpenMP tool) over the trainer's parallel code: several
 * workers on several threads, with replay and a mix of opponents, then a sweep-like pair of runs
 * in parallel, then an n-tuple network on Connect-4 6x5 (its second player defending when it
 * thinks itself lost) graded in games against the perfect player
 * (the solver past the shipped book), those games shared out to one solver a thread, and its search
 * phase's games played on two threads over the shared weights. Any race makes TSan fail the run
 * (halt_on_error).
 */
#include "judge.h"
#include "train.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    oxo_error err;
    oxo_table *tab;
    if (oxo_table_read(OXO_DATA "/tictactoe.oxt", &tab, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    oxo_player *truth = oxo_player_from_table(tab, &err);
    omp_set_num_threads(2);
    for (int algo = 0; algo < 2; algo++) {
        oxo_train_config c;
        oxo_error e;
        oxo_train_defaults(&c, (oxo_algo)algo);
        c.workers = 4;
        c.sync = 50;
        c.replay_capacity = 100;
        c.replay_ratio = 1;
        c.opp_self = 0.6, c.opp_random = 0.2, c.opp_table = 0.2;
        oxo_trainer *t = oxo_trainer_new(&c, truth, &e);
        oxo_trainer_run(t, 2000);
        oxo_grade g;
        oxo_trainer_grade(t, &g);
        printf("algo %d: 2000 episodes on 4 workers, accuracy %.3f\n", algo, g.accuracy);
        oxo_trainer_free(t);
    }
    /* Independent runs side by side, as --sweep runs them. */
#pragma omp parallel for
    for (int r = 0; r < 2; r++) {
        oxo_train_config c;
        oxo_error e;
        oxo_train_defaults(&c, OXO_ALGO_TD);
        c.seed = (uint64_t)r + 1;
        oxo_trainer *t = oxo_trainer_new(&c, truth, &e);
        oxo_trainer_run(t, 1000);
        oxo_trainer_free(t);
    }
    oxo_player_close(truth);
    /* n-tuple workers, then the perfect player's games on 2 threads: the same figures as on 1. */
    oxo_error fault;
    oxo_game *g = oxo_game_open("connect4:6,5", &fault);
    oxo_player *book = g ? oxo_player_open_book(g, OXO_DATA "/connect4-6-5-book.oxt", &err) : NULL;
    if (!book) {
        fprintf(stderr, "tsan_train: %s\n", g ? err.msg : fault.msg);
        return 1;
    }
    oxo_judge judge = {.g = g, .book = book, .perfect_games = 6};
    oxo_train_config c;
    oxo_train_defaults(&c, OXO_ALGO_NTUPLE);
    c.workers = 2;
    c.nt_count = 10, c.nt_len = 4, c.nt_horizon = oxo_train_horizon(c.lambda);
    c.nt_defend = 1; /* the second player's two-ply defence reads the worker's weights too */
    /* four rounds: each thread merges into its own worker's copy (merge_pair), then plays it
     * again */
    c.sync = 100;
    oxo_error e;
    oxo_trainer *t = oxo_trainer_new_on(&c, g, NULL, &e);
    if (!t) {
        fprintf(stderr, "tsan_train: %s\n", e.msg);
        return 1;
    }
    oxo_trainer_set_judge(t, &judge);
    oxo_trainer_run(t, 400);
    oxo_grade two, one;
    oxo_trainer_grade(t, &two);
    omp_set_num_threads(1);
    oxo_trainer_grade(t, &one);
    if (memcmp(two.perfect_as_x, one.perfect_as_x, sizeof one.perfect_as_x) ||
        memcmp(two.perfect_as_o, one.perfect_as_o, sizeof one.perfect_as_o) ||
        two.perfect_as_x[0] + two.perfect_as_x[1] + two.perfect_as_x[2] != 6) {
        fprintf(
            stderr,
            "tsan_train: the games against the perfect player differ between 1 and 2 threads\n");
        return 1;
    }
    printf("ntuple connect4:6,5: 400 episodes on 2 workers, 6 games a side against the perfect "
           "player, "
           "as X %u/%u/%u, the same on 1 thread\n",
           two.perfect_as_x[0], two.perfect_as_x[1], two.perfect_as_x[2]);
    /* The search phase: two rounds of games searched on two threads over the shared weights. */
    omp_set_num_threads(2);
    if (oxo_trainer_search(t, 100, 20, 0) != 0) {
        fprintf(stderr, "tsan_train: the search phase failed\n");
        return 1;
    }
    printf("ntuple connect4:6,5: a search phase of 100 games of puct:20 on 2 threads\n");
    oxo_trainer_free(t);
    oxo_player_close(book);
    oxo_game_free(g);
    printf("1 passed, 0 failed\n");
    return 0;
}
