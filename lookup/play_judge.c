/*
 * oxo-play --judge FILE --agent SPEC: one agent graded on a judged set (oxo-gen --judge-set, the
 * shipped connect4-7-6.judge), its share of value-keeping moves with a 95% interval, exactly as
 * oxo-arena --judge reports it for the same seed (both ask oxo_agent_keeps, position by position).
 */
#include "play.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "oxo-play";

/* The set's game, or --game's when given (a set of another game is refused); the agent on it; a
 * solver agent reads the game's shipped book (or --book; none with --no-book). The exit status. */
int grade_on_set(const char *path, const char *spec, const char *agent_spec, const char *book,
                 int no_book, uint64_t seed, int json)
{
    oxo_error err;
    int rc = OXO_EXIT_FAIL, failed = 0;
    oxo_player *set = oxo_player_open_as(path, OXO_TAKE_JUDGED, &err), *bk = NULL;
    oxo_game *want = spec ? oxo_game_open(spec, &err) : NULL;
    oxo_agent *ag = NULL;
    char found[4096];
    if (!set || (spec && !want)) {
        fprintf(stderr, "%s: %s%s%s\n", prog, set ? "--game" : path, ": ", err.msg);
        rc = set ? OXO_EXIT_USAGE : OXO_EXIT_FAIL;
        goto out;
    }
    const oxo_game *g = oxo_player_game(set);
    if (want && !oxo_game_same(want, g)) {
        fprintf(stderr, "%s: %s is a judged set of %s, not of %s\n", prog, path, g->spec,
                want->spec);
        goto out;
    }
    if (!(ag = oxo_agent_open_ex(g, agent_spec, &failed, &err))) {
        fprintf(stderr, "%s: --agent: %s\n", prog, err.msg);
        rc = failed ? OXO_EXIT_FAIL : OXO_EXIT_USAGE;
        goto out;
    }
    if (oxo_agent_wants_book(ag) && !no_book && g->solver &&
        (book || oxo_find_book(g->spec, found, sizeof found) == 0)) {
        if (!(bk = oxo_player_open_book(g, book ? book : found, &err))) {
            fprintf(stderr, "%s: %s\n", prog, err.msg);
            goto out;
        }
        oxo_agent_borrow_book(ag, bk);
    }
    const oxo_judged *pos;
    const uint32_t n = oxo_player_judged(set, &pos);
    const int tty = isatty(STDERR_FILENO);
    long kept = 0;
    for (uint32_t i = 0; i < n; i++) {
        kept += oxo_agent_keeps(ag, &pos[i], i, seed);
        if (tty && (i + 1) % 50 == 0)
            fprintf(stderr, "\r%s: %u of %u positions", prog, i + 1, n);
    }
    if (tty && n >= 50)
        fprintf(stderr, "\r\033[K");
    double low, high;
    oxo_share_interval(kept, (long)n, &low, &high);
    if (json) {
        printf("{\"agent\":");
        oxo_json_str(stdout, oxo_agent_name(ag));
        printf(",\"judged\":");
        oxo_json_str(stdout, path);
        /* the keys and figures of oxo-arena --judge's ratings */
        printf(",\"game\":\"%s\",\"seed\":%llu,\"judged_positions\":%u,\"kept\":%ld,"
               "\"value_kept\":%.4f,\"value_kept_low\":%.4f,\"value_kept_high\":%.4f}\n",
               g->spec, (unsigned long long)seed, n, kept, (double)kept / n, low, high);
    } else
        printf("%s keeps the value in %ld of the %u positions of %s: %.1f%% (95%% interval "
               "%.1f-%.1f%%)\n",
               oxo_agent_name(ag), kept, n, path, 100.0 * kept / n, 100 * low, 100 * high);
    rc = OXO_EXIT_OK;
out:
    oxo_agent_free(ag);
    oxo_player_close(bk);
    oxo_player_close(set);
    oxo_game_free(want);
    return rc;
}
