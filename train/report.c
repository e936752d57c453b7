/*
 * What oxo-train says of a finished run: the lines of its report, or one JSON object (--json).
 * Apart from run.c because the page that trains in the browser says the same (train/web).
 */
#include "cli.h"
#include "run.h"

#include <stdio.h>

void print_result(const run_opts *o, const run_result *r, int json, const char *label)
{
    const oxo_train_config *c = &r->cfg;
    const oxo_grade *g = &r->grade;
    if (json) {
        printf("{\"algo\":\"%s\",", oxo_algo_name(c->algo));
        if (label) {
            printf("\"settings\":");
            oxo_json_str(stdout, label);
            printf(",");
        }
        printf("\"episodes\":%llu,\"workers\":%u,\"seed\":%llu,\"accuracy\":%.6f,"
               "\"accuracy_distance\":%.6f,\"exhaustive_losses_as_x\":%llu,\"exhaustive_losses_as_"
               "o\":%llu,"
               "\"random_as_x\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},"
               "\"random_as_o\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},\"episodes_to_perfect\":",
               (unsigned long long)r->episodes, c->workers, (unsigned long long)c->seed,
               g->accuracy, g->accuracy_distance, (unsigned long long)g->losses_as_x,
               (unsigned long long)g->losses_as_o, g->random_as_x[0], g->random_as_x[1],
               g->random_as_x[2], g->random_as_o[0], g->random_as_o[1], g->random_as_o[2]);
        if (r->episodes_to_perfect == UINT64_MAX)
            printf("null");
        else
            printf("%llu", (unsigned long long)r->episodes_to_perfect);
        printf(
            ",\"episodes_per_second\":%.0f,\"moves_per_second\":%.0f,\"stopped\":%s,\"graded_on\":",
            r->eps_per_sec, r->moves_per_sec, r->stopped ? "true" : "false");
        oxo_json_str(stdout, g->judged && o->judge ? o->judge->what : "every reachable position");
        if (!g->judged)
            printf(",\"perfect_lines_lost_as_x\":%llu,\"perfect_lines_lost_as_o\":%llu",
                   (unsigned long long)g->perfect_lines_lost_as_x,
                   (unsigned long long)g->perfect_lines_lost_as_o);
        if (g->perfect_games)
            printf(",\"perfect_as_x\":{\"wins\":%u,\"draws\":%u,\"losses\":%u},"
                   "\"perfect_as_o\":{\"wins\":%u,\"draws\":%u,\"losses\":%u}",
                   g->perfect_as_x[0], g->perfect_as_x[1], g->perfect_as_x[2], g->perfect_as_o[0],
                   g->perfect_as_o[1], g->perfect_as_o[2]);
        if (c->avg_every)
            printf(",\"averaged\":%u", r->averaged);
        if (r->searched)
            printf(",\"search\":{\"games\":%u,\"iterations\":%u,\"alpha\":%g,\"seconds\":%.1f}",
                   r->searched, o->search_iterations, r->search_alpha, r->search_time);
        printf(",\"model\":");
        oxo_json_str(stdout, r->output);
        printf(",\"model_hash\":\"%s\"}", r->hash);
        return;
    }
    printf("%s: %llu episodes, %u worker%s, seed %llu, %.0f episodes/s\n", r->output,
           (unsigned long long)r->episodes, c->workers, c->workers > 1 ? "s" : "",
           (unsigned long long)c->seed, r->eps_per_sec);
    if (r->searched)
        printf("  then %u games led by puct:%u, the network learning from the search at alpha %g "
               "(%.1f s)\n",
               r->searched, o->search_iterations, r->search_alpha, r->search_time);
    if (g->judged) {
        printf("  value kept in %.2f%% of %s\n", 100 * g->accuracy,
               o->judge ? o->judge->what : "a judged set");
        if (g->perfect_games)
            printf("  vs the perfect player: as X %u won %u drawn %u lost, as O %u won %u drawn %u "
                   "lost\n",
                   g->perfect_as_x[0], g->perfect_as_x[1], g->perfect_as_x[2], g->perfect_as_o[0],
                   g->perfect_as_o[1], g->perfect_as_o[2]);
        else if (o->judge && !o->judge->perfect_games)
            printf("  no games against the perfect player (--perfect-games 0)\n");
        else
            printf("  no games against the perfect player (no table or opening book of %s)\n",
                   o->game->name);
    } else {
        printf("  accuracy %.2f%% (distance-optimal %.2f%%) of %u positions\n", 100 * g->accuracy,
               100 * g->accuracy_distance, g->positions);
        printf("  exhaustive check: %llu games lost as X, %llu as O; against the perfect player "
               "(every tied reply) %llu as X, %llu as O\n",
               (unsigned long long)g->losses_as_x, (unsigned long long)g->losses_as_o,
               (unsigned long long)g->perfect_lines_lost_as_x,
               (unsigned long long)g->perfect_lines_lost_as_o);
    }
    printf("  vs random: as X %u won %u drawn %u lost, as O %u won %u drawn %u lost\n",
           g->random_as_x[0], g->random_as_x[1], g->random_as_x[2], g->random_as_o[0],
           g->random_as_o[1], g->random_as_o[2]);
    if (r->episodes_to_perfect != UINT64_MAX && o->eval_every)
        printf("  perfect after %llu episodes\n", (unsigned long long)r->episodes_to_perfect);
    /* not "after 950 episodes": it was never graded before */
    else if (r->episodes_to_perfect != UINT64_MAX)
        printf(
            "  perfect at the end (%llu episodes; graded only there: --eval-every N tells when)\n",
            (unsigned long long)r->episodes_to_perfect);
    printf("  model hash %s\n", r->hash);
}
