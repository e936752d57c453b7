/*
 * ThreadSanitizer (with LLVM's Archer OpenMP tool) over the trainer's parallel code: several
 * workers on several threads, with replay and a mix of opponents, then a sweep-like pair of runs
 * in parallel. Any race makes TSan fail the run (halt_on_error).
 */
#include "train.h"

#include <omp.h>
#include <stdio.h>

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
        char e[200];
        oxo_train_defaults(&c, (oxo_algo)algo);
        c.workers = 4;
        c.sync = 50;
        c.replay_capacity = 100;
        c.replay_ratio = 1;
        c.opp_self = 0.6, c.opp_random = 0.2, c.opp_table = 0.2;
        oxo_trainer *t = oxo_trainer_new(&c, truth, e, sizeof e);
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
        char e[200];
        oxo_train_defaults(&c, OXO_ALGO_TD);
        c.seed = (uint64_t)r + 1;
        oxo_trainer *t = oxo_trainer_new(&c, truth, e, sizeof e);
        oxo_trainer_run(t, 1000);
        oxo_trainer_free(t);
    }
    oxo_player_close(truth);
    printf("1 passed, 0 failed\n");
    return 0;
}
