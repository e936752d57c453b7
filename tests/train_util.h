/*
 * What the tests of the network learners share (test_neat.c, test_azero.c): a run of a trainer to
 * its model, a run resumed from its file against the straight one, and the comparison of two
 * models byte for byte. Included after cmocka.h.
 */
#ifndef OXO_TRAIN_UTIL_H
#define OXO_TRAIN_UTIL_H

#include "rng.h"
#include "train.h"

#include <stdlib.h>

/* The model of a run of c graded against truth, after `episodes` episodes. */
static inline oxo_model *train_run(const oxo_train_config *c, const oxo_player *truth,
                                   uint64_t episodes)
{
    oxo_error err;
    oxo_trainer *t = oxo_trainer_new(c, truth, &err);
    assert_non_null(t);
    oxo_trainer_run(t, episodes);
    oxo_grade g = {0};
    oxo_model *m = oxo_trainer_model(t, &g, NULL);
    assert_non_null(m);
    oxo_trainer_free(t);
    return m;
}

/* A run of c learns: at `episodes` episodes its grade against truth (tic-tac-toe's table) keeps
 * the value in more than `margin` more of the positions than after its first. */
static inline void assert_learns(const oxo_train_config *c, const oxo_player *truth,
                                 uint64_t episodes, double margin)
{
    oxo_error err;
    oxo_trainer *t = oxo_trainer_new(c, truth, &err);
    assert_non_null(t);
    oxo_grade first, then;
    oxo_trainer_run(t, 1);
    assert_int_equal(oxo_trainer_grade(t, &first), 0);
    oxo_trainer_run(t, episodes);
    assert_int_equal(oxo_trainer_grade(t, &then), 0);
    assert_int_equal(then.positions, 4520);
    assert_true(then.accuracy > first.accuracy + margin);
    oxo_trainer_free(t);
}

/* a and b encode to the same bytes. */
static inline void same_bytes(oxo_model *a, oxo_model *b)
{
    uint8_t *fa, *fb;
    size_t la, lb;
    assert_int_equal(oxo_model_encode(a, &fa, &la, NULL), OXO_OK);
    assert_int_equal(oxo_model_encode(b, &fb, &lb, NULL), OXO_OK);
    assert_int_equal(la, lb);
    assert_memory_equal(fa, fb, la);
    free(fa);
    free(fb);
}

/* A model written at episode `half` and its run resumed from the file to `whole` episodes are the
 * same bytes as the run that went straight there. */
static inline void assert_resume_equals_straight(const oxo_train_config *c, const oxo_player *truth,
                                                 uint64_t half, uint64_t whole)
{
    oxo_model *straight = train_run(c, truth, whole);
    oxo_model *first = train_run(c, truth, half);
    uint8_t *file;
    size_t len;
    oxo_error err;
    assert_int_equal(oxo_model_encode(first, &file, &len, &err), OXO_OK);
    oxo_model *back;
    assert_int_equal(oxo_model_decode(file, len, &back, &err), OXO_OK);
    free(file);
    oxo_trainer *t = oxo_trainer_resume(back, truth, &err);
    assert_non_null(t);
    assert_int_equal(oxo_trainer_episodes(t), half);
    oxo_trainer_run(t, whole);
    oxo_grade g = {0};
    oxo_model *resumed = oxo_trainer_model(t, &g, NULL);
    same_bytes(straight, resumed);
    oxo_trainer_free(t);
    oxo_model_free(straight);
    oxo_model_free(first);
    oxo_model_free(back);
    oxo_model_free(resumed);
}

/* Players a and b of game g score every move alike, the same bits, at every position of 20
 * random games of a fixed stream. */
static inline void players_agree(const oxo_player *a, const oxo_player *b, const oxo_game *g)
{
    uint64_t rng = 7;
    int compared = 0;
    for (int game = 0; game < 20; game++)
        for (oxo_pos p = oxo_start(g); oxo_status_of(g, p) == OXO_ONGOING;
             p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
            oxo_move_info ma[OXO_MAX_MOVES], mb[OXO_MAX_MOVES];
            int na = oxo_player_moves(a, p, ma), nb = oxo_player_moves(b, p, mb);
            assert_int_equal(na, nb);
            for (int i = 0; i < na; i++) {
                assert_int_equal(ma[i].move, mb[i].move);
                assert_float_equal(ma[i].score, mb[i].score, 0);
            }
            compared++;
        }
    assert_true(compared > 50);
}

#endif
