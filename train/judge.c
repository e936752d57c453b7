/*
 * Judged sets (see judge.h): drawn from a table, read from a file, and the grading of a function
 * learner against them.
 */
#include "judge.h"

#include "datadir.h"
#include "rng.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oxo_judge_free(oxo_judge *j)
{
    if (!j)
        return;
    free(j->pos);
    free(j);
}

static oxo_judge *judge_new(const oxo_game *g, uint32_t cap_n)
{
    oxo_judge *j = calloc(1, sizeof *j);
    if (j && !(j->pos = malloc((cap_n ? cap_n : 1) * sizeof *j->pos))) {
        free(j);
        return NULL;
    }
    if (j) {
        j->g = g;
        j->perfect_games = OXO_GRADE_PERFECT_GAMES;
    }
    return j;
}

/* A drawn position and what the truth says of it. */
typedef struct candidate {
    oxo_pos pos;
    int8_t value[OXO_MAX_MOVES];
    int8_t best, keep; /* keep: its moves differ in value */
} candidate;

oxo_judge *oxo_judge_from_truth(const oxo_player *truth, uint32_t n, int min_stones, uint64_t seed,
                                oxo_error *err)
{
    return oxo_judge_from_truths(&truth, 1, n, min_stones, seed, err);
}

oxo_judge *oxo_judge_from_truths(const oxo_player *const *truths, int nt, uint32_t n,
                                 int min_stones, uint64_t seed, oxo_error *err)
{
    const oxo_player *truth = truths[0];
    const oxo_game *g = oxo_player_game(truth);
    oxo_judge *j = judge_new(g, n);
    /* Positions are drawn in batches, in the stream's order, valued by the threads (each its own
     * truth: a solver keeps scratch memory), then kept in the order drawn: the set is the one a
     * single thread drawing and valuing one at a time makes, whatever nt. */
    const uint32_t batch = 32u * (uint32_t)nt;
    candidate *c = malloc(batch * sizeof *c);
    if (!j || !c) {
        oxo_judge_free(j);
        free(c);
        oxo_fail(err, OXO_E_NOMEM, "%u judged positions", n);
        return NULL;
    }
    uint64_t rng = oxo_rng_stream(seed, 0), tries = 0;
    while (j->n < n && tries < 1000ull * n) {
        uint32_t k = 0;
        for (; k < batch && tries < 1000ull * n; tries++)
            if (oxo_random_position(g, min_stones, &rng, &c[k].pos, NULL) >= 0)
                k++;
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
        for (uint32_t i = 0; i < k; i++) {
            candidate *d = &c[i];
            oxo_move_info mi[OXO_MAX_MOVES];
            int nm = oxo_player_moves(truths[omp_get_thread_num()], d->pos, mi);
            memset(d->value, -2, sizeof d->value);
            d->best = OXO_LOSS;
            int worst = OXO_WIN;
            for (int m = 0; m < nm; m++) {
                d->value[mi[m].move] = (int8_t)mi[m].value;
                d->best = mi[m].value > d->best ? (int8_t)mi[m].value : d->best;
                worst = mi[m].value < worst ? mi[m].value : worst;
            }
            /* Only where the choice matters, as in oxo-gen --judge-set. */
            d->keep = nm > 0 && worst != d->best;
        }
        for (uint32_t i = 0; i < k && j->n < n; i++)
            if (c[i].keep) {
                oxo_judged *d = &j->pos[j->n++];
                d->pos = c[i].pos;
                memcpy(d->value, c[i].value, sizeof d->value);
                d->best = c[i].best;
            }
    }
    free(c);
    snprintf(j->what, sizeof j->what,
             "%u positions of %d or more stones from random play (seed %#llx) where "
             "the moves differ in value, valued by the %s",
             j->n, min_stones, (unsigned long long)seed,
             strcmp(oxo_player_source(truth), "solver") ? "table" : "solver");
    return j;
}

oxo_judge *oxo_judge_of(const oxo_game *g, const oxo_player *p, const char *path, oxo_error *err)
{
    const oxo_judged *pos = NULL;
    uint32_t n = 0;
    oxo_judge *j = NULL;
    if (oxo_player_takes(p, path, OXO_TAKE_JUDGED, err))
        ;
    else if (!oxo_game_same(oxo_player_game(p), g))
        oxo_fail(err, OXO_E_GAME, "%s is a judged set of %s, not of %s", path,
                 oxo_player_game(p)->spec, g->spec);
    else if ((n = oxo_player_judged(p, &pos)), !(j = judge_new(g, n)))
        oxo_fail(err, OXO_E_NOMEM, "%s: %u judged positions", path, n);
    else {
        memcpy(j->pos, pos, n * sizeof *pos);
        j->n = n;
        snprintf(j->what, sizeof j->what, "%u positions of %.150s", n, path);
    }
    return j;
}

oxo_judge *oxo_judge_read(const oxo_game *g, const char *path, oxo_error *err)
{
    /* Read whole through the readers' opener: a FIFO or a device is refused, never waited on. */
    uint8_t *data;
    size_t size;
    char found[4096];
    path = oxo_data_path(path, found, sizeof found); /* a bare name of a shipped set, found */
    if (oxo_read_file(path, OXO_JUDGED_MAX_BYTES, &data, &size, err)) {
        oxo_context(err, "%s", path);
        return NULL;
    }
    oxo_player *p = oxo_player_open_memory(data, size, err);
    free(data);
    oxo_judge *j = NULL;
    if (!p)
        oxo_context(err, "%s", path);
    else
        j = oxo_judge_of(g, p, path, err);
    oxo_player_close(p);
    return j;
}

double oxo_judge_accuracy(const oxo_judge *j, const oxo_player *cand)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < j->n; i++) {
        const oxo_judged *d = &j->pos[i];
        oxo_move_info mi[OXO_MAX_MOVES];
        int best[OXO_MAX_MOVES];
        int k = oxo_best_moves(mi, oxo_player_moves(cand, d->pos, mi), best), ok = k > 0;
        for (int b = 0; b < k; b++)
            ok &= d->value[best[b]] == d->best;
        keep += (uint32_t)ok;
    }
    return j->n ? (double)keep / j->n : 0;
}

int oxo_grade_judged(const oxo_judge *j, const oxo_player *truth, const oxo_player *cand,
                     uint64_t seed, int solve, oxo_grade *out)
{
    memset(out, 0, sizeof *out);
    out->judged = 1;
    out->positions = j->n;
    out->accuracy = oxo_judge_accuracy(j, cand);
    oxo_agent *perfect[OXO_GRADE_MAX_AGENTS] = {0};
    int nagents = 0;
    if (!truth && solve && j->book && j->g->solver && j->perfect_games) {
        /* The solver, exact at every move (no budget), answering from the book where it can: one
         * agent a thread (their transposition tables are scratch memory), the games shared out. */
        int want = omp_get_max_threads();
        want = want < OXO_GRADE_MAX_AGENTS ? want : OXO_GRADE_MAX_AGENTS;
        want = (uint32_t)want < j->perfect_games ? want : (int)j->perfect_games;
        for (; nagents < want; nagents++) {
            if (!(perfect[nagents] = oxo_agent_open(j->g, "solver", NULL))) {
                for (int a = 0; a < nagents; a++)
                    oxo_agent_free(perfect[a]);
                return -1;
            }
            oxo_agent_borrow_book(perfect[nagents], j->book);
        }
    }
    if ((truth || nagents) && j->perfect_games) {
        out->perfect_games = j->perfect_games;
        oxo_grade_games_against(cand, truth, nagents ? perfect : NULL, nagents, 1, seed ^ 0x9e7f,
                                j->perfect_games, out->perfect_as_x);
        oxo_grade_games_against(cand, truth, nagents ? perfect : NULL, nagents, 0, seed ^ 0x9e7f,
                                j->perfect_games, out->perfect_as_o);
        out->losses_as_x = out->perfect_as_x[2];
        out->losses_as_o = out->perfect_as_o[2];
    }
    for (int a = 0; a < nagents; a++)
        oxo_agent_free(perfect[a]);
    oxo_grade_games(cand, NULL, 1, seed, OXO_GRADE_RANDOM_GAMES, out->random_as_x);
    oxo_grade_games(cand, NULL, 0, seed, OXO_GRADE_RANDOM_GAMES, out->random_as_o);
    return 0;
}
