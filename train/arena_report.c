/*
 * oxo-arena's report of a tournament: the ranking as a table or as JSON (ratings with their
 * bootstrap intervals, results, the share of value-keeping moves, the score matrix), and the score
 * matrix as an SVG heat map.
 */
#include "arena.h"
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *prog = "oxo-arena";

static void json_num(double v)
{
    if (isfinite(v))
        printf("%.1f", v);
    else
        printf("null");
}

/* The heat map's colour of a score v in 0..1: orange (241, 163, 64) at 0 through white at 0.5 to
 * blue (103, 169, 207) at 1, a scale that readers who cannot tell red from green can read. */
static void heat_colour(double v, int *R, int *G, int *B)
{
    const double t = v < 0.5 ? (0.5 - v) * 2 : (v - 0.5) * 2;
    const int end[2][3] = {{241, 163, 64}, {103, 169, 207}}, *e = end[v >= 0.5];
    *R = (int)lround(255 - t * (255 - e[0]));
    *G = (int)lround(255 - t * (255 - e[1]));
    *B = (int)lround(255 - t * (255 - e[2]));
}

void arena_print_json(const arena *A, const tally *T)
{
    printf("{\"game\":");
    oxo_json_str(stdout, A->g->spec);
    printf(",\"games_per_pair_and_colour\":%llu,\"seed\":%llu,\"anchor\":",
           (unsigned long long)A->games, (unsigned long long)A->seed);
    oxo_json_str(stdout, oxo_agent_name(A->ag[A->anchor]));
    printf(",\"judge\":");
    oxo_json_str(stdout, A->judge || A->judges || A->jset ? A->judge_path : NULL);
    printf(",\"book\":");
    oxo_json_str(stdout, A->book ? A->book_file : NULL);
    printf(",\"ratings\":[");
    for (int r = 0; r < A->nagents; r++) {
        int i = T->rank[r];
        printf("%s{\"agent\":", r ? "," : "");
        oxo_json_str(stdout, oxo_agent_name(A->ag[i]));
        printf(",\"kind\":\"%s\",\"elo\":", oxo_agent_kind(A->ag[i]));
        json_num(T->elo[i]);
        printf(",\"low\":");
        json_num(A->boot ? T->low[i] : NAN);
        printf(",\"high\":");
        json_num(A->boot ? T->high[i] : NAN);
        printf(",\"games\":%ld,\"wins\":%ld,\"draws\":%ld,\"losses\":%ld,\"score\":%.4f,\"value_"
               "kept\":",
               T->ngames[i], T->wins[i], T->draws[i], T->losses[i],
               T->score[i] / (double)T->ngames[i]);
        if (T->graded[i])
            printf(A->jset ? "%.4f,\"value_kept_low\":%.4f,\"value_kept_high\":%.4f,\"judged_"
                             "positions\":%ld"
                           : "%.4f",
                   (double)T->kept[i] / (double)T->graded[i], T->klow[i], T->khigh[i],
                   T->graded[i]);
        else
            printf("null");
        printf("}");
    }
    printf("],\"matrix\":{\"agents\":[");
    for (int r = 0; r < A->nagents; r++) {
        printf("%s", r ? "," : "");
        oxo_json_str(stdout, oxo_agent_name(A->ag[T->rank[r]]));
    }
    printf("],\"score\":[");
    for (int r = 0; r < A->nagents; r++) {
        printf("%s[", r ? "," : "");
        for (int s = 0; s < A->nagents; s++) {
            int i = T->rank[r], j = T->rank[s];
            if (i == j)
                printf("%snull", s ? "," : "");
            else
                printf("%s%.4f", s ? "," : "", T->pair_score[i][j] / (double)T->pair_games[i][j]);
        }
        printf("]");
    }
    printf("]}}\n");
}

void arena_print_text(const arena *A, const tally *T)
{
    printf("%s: %d agents, %zu games (%llu per pair and colour), seed %llu%s%s%s%s\n\n", A->g->name,
           A->nagents, T->ntasks, (unsigned long long)A->games, (unsigned long long)A->seed,
           A->judge || A->judges || A->jset ? ", judged by " : "",
           A->judge || A->judges || A->jset ? A->judge_path : "",
           A->book ? ", the solvers' opening book " : "", A->book ? A->book_file : "");
    printf("| rank | agent | Elo | 95%% interval | games | won | drawn | lost | score | value kept "
           "|\n");
    printf("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (int r = 0; r < A->nagents; r++) {
        int i = T->rank[r];
        printf("| %d | %s | %.0f | ", r + 1, oxo_agent_name(A->ag[i]), T->elo[i]);
        if (A->boot)
            printf("%.0f to %.0f", T->low[i], T->high[i]);
        else
            printf("-");
        printf(" | %ld | %ld | %ld | %ld | %.1f%% | ", T->ngames[i], T->wins[i], T->draws[i],
               T->losses[i], 100.0 * T->score[i] / (double)T->ngames[i]);
        if (T->graded[i] && A->jset)
            printf("%.1f%% (%.1f-%.1f) |\n", 100.0 * (double)T->kept[i] / (double)T->graded[i],
                   100 * T->klow[i], 100 * T->khigh[i]);
        else if (T->graded[i])
            printf("%.1f%% |\n", 100.0 * (double)T->kept[i] / (double)T->graded[i]);
        else
            printf("- |\n");
    }
    printf("\nElo: Bradley-Terry fit over all games (a draw half a win each way), %s = 0.\n",
           oxo_agent_name(A->ag[A->anchor]));
    printf("\nScore of the row against the column:\n\n|  |");
    for (int s = 0; s < A->nagents; s++)
        printf(" %s |", oxo_agent_name(A->ag[T->rank[s]]));
    printf("\n|---|");
    for (int s = 0; s < A->nagents; s++)
        printf("---:|");
    printf("\n");
    for (int r = 0; r < A->nagents; r++) {
        printf("| %s |", oxo_agent_name(A->ag[T->rank[r]]));
        for (int s = 0; s < A->nagents; s++) {
            int i = T->rank[r], j = T->rank[s];
            if (i == j)
                printf(" - |");
            else
                printf(" %.0f%% |", 100.0 * T->pair_score[i][j] / (double)T->pair_games[i][j]);
        }
        printf("\n");
    }
}

int arena_write_svg(const arena *A, const tally *T, const char *svg)
{
    /* The heat map: orange (0) through white (0.5) to blue (1), the row's score against the
     * column (red against green could not be told apart by many readers), and its key. */
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    if (!f)
        return -1;
    int cell = 56, left = 170, top = 150, n = A->nagents;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n",
            left + n * cell + 20 > 420 ? left + n * cell + 20 : 420, top + n * cell + 90);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(
        f,
        "<text x=\"10\" y=\"20\" font-size=\"14\">%s: score of the row against the column</text>\n",
        A->g->name);
    for (int r = 0; r < n; r++) {
        const char *nm = oxo_agent_name(A->ag[T->rank[r]]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8,
                top + r * cell + cell / 2 + 4);
        for (const char *q = nm; *q; q++)
            fprintf(f, *q == '<' ? "&lt;" : *q == '&' ? "&amp;" : *q == '>' ? "&gt;" : "%c", *q);
        fprintf(f, "</text>\n<text transform=\"translate(%d,%d) rotate(-50)\">",
                left + r * cell + cell / 2, top - 8);
        for (const char *q = nm; *q; q++)
            fprintf(f, *q == '<' ? "&lt;" : *q == '&' ? "&amp;" : *q == '>' ? "&gt;" : "%c", *q);
        fprintf(f, "</text>\n");
        for (int s = 0; s < n; s++) {
            int i = T->rank[r], j = T->rank[s];
            int x = left + s * cell, y = top + r * cell;
            if (i == j) {
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#ddd\"/>\n",
                        x, y, cell, cell);
                continue;
            }
            double v = T->pair_score[i][j] / (double)T->pair_games[i][j];
            int R, G, B;
            heat_colour(v, &R, &G, &B);
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" "
                    "stroke=\"white\"/>\n",
                    x, y, cell, cell, R, G, B);
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.0f%%</text>\n",
                    x + cell / 2, y + cell / 2 + 4, 100 * v);
        }
    }
    /* The key: the scale in eleven steps, 0% to 100%. */
    int ky = top + n * cell + 30;
    fprintf(f, "<text x=\"10\" y=\"%d\">key: the row's score against the column</text>\n", ky - 8);
    for (int step = 0; step <= 10; step++) {
        int R, G, B;
        heat_colour(step / 10.0, &R, &G, &B);
        fprintf(f,
                "<rect x=\"%d\" y=\"%d\" width=\"30\" height=\"16\" fill=\"rgb(%d,%d,%d)\" "
                "stroke=\"#999\"/>\n",
                10 + 30 * step, ky, R, G, B);
    }
    fprintf(f, "<text x=\"10\" y=\"%d\">0%%</text>\n", ky + 30);
    fprintf(f, "<text x=\"175\" y=\"%d\" text-anchor=\"middle\">50%%</text>\n", ky + 30);
    fprintf(f, "<text x=\"340\" y=\"%d\" text-anchor=\"end\">100%%</text>\n", ky + 30);
    fprintf(
        f,
        "<text x=\"10\" y=\"%d\">0%%: the row lost every game; 100%%: it won every game</text>\n",
        ky + 46);
    fprintf(f, "</svg>\n");
    fclose(f);
    oxo_error err;
    if (oxo_atomic_write(svg, buf, blen, &err)) {
        fprintf(stderr, "%s: %s: %s\n", prog, svg, err.msg);
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}
