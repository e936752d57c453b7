/*
 * oxo-play --info: what a table, a book or a model holds (its game, its kind, its counts, a
 * model's settings and grades, its provenance), as text or as JSON.
 */
#include "play.h"

#include "cli.h"
#include "neat.h"
#include "player.h"

#include <stdio.h>
#include <string.h>

static const char *prog = "oxo-play";

/* JSON fields of --info: every string escaped, whatever the file holds (the readers already refuse
 * strings that are not printable ASCII; this keeps the output well-formed regardless). */
static void jstr(const char *key, const char *val, int last)
{
    printf("\"%s\":", key);
    oxo_json_str(stdout, val);
    fputs(last ? "" : ",", stdout);
}

static void jschedule(const char *key, const oxo_schedule *s)
{
    printf("\"%s\":{", key);
    jstr("kind", s->kind, 0);
    printf("\"start\":%g,\"end\":%g,\"length\":%llu},", s->start, s->end,
           (unsigned long long)s->length);
}

/* A stored setting (model.h: oxo_hyper_fields) as its key and value, in the body's order; the
 * trainer's record size is shown as the number of replay rings. */
static void jhyper(const oxo_hyper_field *f, const oxo_model *m)
{
    const char *field = (const char *)m + f->offset;
    double d;
    uint32_t u;
    if (f->internal) {
        printf("\"replay_rings\":%u,", m->nrings);
        return;
    }
    switch (f->type) {
    case OXO_HYPER_SCHEDULE:
        jschedule(f->key, (const oxo_schedule *)(const void *)field);
        break;
    case OXO_HYPER_REAL:
        memcpy(&d, field, sizeof d);
        printf("\"%s\":%g,", f->key, d);
        break;
    case OXO_HYPER_COUNT:
        memcpy(&u, field, sizeof u);
        printf("\"%s\":%u,", f->key, u);
        break;
    case OXO_HYPER_TRACE:
        jstr(f->key, field, 0);
        break;
    case OXO_HYPER_OPPONENT:
        printf("\"%s\":{\"self\":%g,\"random\":%g,\"table\":%g", f->key, m->opp_self, m->opp_random,
               m->opp_table);
        if (m->opp_agent_spec[0]) {
            printf(",\"agent\":%g,", m->opp_agent);
            jstr("agent_spec", m->opp_agent_spec, 1);
        }
        printf("},");
        break;
    }
}

/* A judged set's positions by their value for the side to move: won, drawn, lost. */
static uint32_t judged_counts(const oxo_player *pl, uint32_t by[3])
{
    const oxo_judged *pos;
    uint32_t n = oxo_player_judged(pl, &pos);
    by[0] = by[1] = by[2] = 0;
    for (uint32_t i = 0; i < n; i++)
        by[pos[i].best == OXO_WIN ? 0 : pos[i].best == OXO_DRAW ? 1 : 2]++;
    return n;
}

/* The enabled links of a NEAT model's champion (genome 0, whose links come first). */
static uint32_t champion_enabled(const oxo_model *m)
{
    uint32_t on = 0;
    for (uint32_t i = 0; i < m->ne_genome[1]; i++)
        on += m->ne_links[4 * i + 3];
    return on;
}

static void info_json(const oxo_player *pl)
{
    char format[16];
    uint32_t by[3];
    printf("{");
    if (judged_counts(pl, by)) {
        jstr("kind", "judged set", 0);
        jstr("game", oxo_player_game(pl)->spec, 0);
        printf("\"positions\":%u,\"won\":%u,\"drawn\":%u,\"lost\":%u}\n", judged_counts(pl, by),
               by[0], by[1], by[2]);
        return;
    }
    if (oxo_player_table(pl)) {
        const oxo_table *t = oxo_player_table(pl);
        const oxo_table_counts *c = &t->counts;
        snprintf(format, sizeof format, "%d.%d", t->major, t->minor);
        jstr("kind", "table", 0);
        jstr("format", format, 0);
        jstr("game", t->game, 0);
        printf("\"rows\":%u,\"cols\":%u,", t->rows, t->cols);
        jstr("index", t->index, 0);
        if (oxo_player_book_depth(pl) >= 0)
            printf("\"book_depth\":%d,", oxo_player_book_depth(pl));
        /* A table in blocks: its entries are its canonical positions, read when asked. */
        const int blocks = t->major == OXO_TABLE_MAJOR_BLOCKS;
        if (blocks)
            printf("\"blocks\":%llu,\"block_numbers\":%u,", (unsigned long long)t->nblocks,
                   t->block_numbers);
        printf("\"symmetric\":%s,\"entries\":%llu,\"nodes\":%llu,\"games\":%llu,\"x_wins\":%llu,"
               "\"o_wins\":%llu,\"draws\":%llu,\"positions\":%llu,\"terminal_positions\":%llu,"
               "\"canonical_positions\":%llu,\"canonical_nonterminal_positions\":%llu,",
               t->symmetric ? "true" : "false",
               blocks ? (unsigned long long)c->canonical_positions : (unsigned long long)t->n,
               (unsigned long long)c->nodes, (unsigned long long)c->games,
               (unsigned long long)c->x_wins, (unsigned long long)c->o_wins,
               (unsigned long long)c->draws, (unsigned long long)c->positions,
               (unsigned long long)c->terminal_positions,
               (unsigned long long)c->canonical_positions,
               (unsigned long long)c->canonical_nonterminal_positions);
        jstr("root_value", t->root_value, 0);
        jstr("generator", t->generator, 1);
        printf("}\n");
        return;
    }
    const oxo_model *m = oxo_player_model(pl);
    snprintf(format, sizeof format, "%d.%d", OXO_FORMAT_MAJOR, m->minor);
    jstr("kind", "model", 0);
    jstr("format", format, 0);
    jstr("game", m->game, 0);
    printf("\"rows\":%u,\"cols\":%u,", m->rows, m->cols);
    jstr("index", m->index, 0);
    printf("\"symmetric\":%s,", m->symmetric ? "true" : "false");
    jstr("algo", m->algo, 0);
    printf("\"values\":%u,", m->nvalues);
    for (const oxo_hyper_field *f = oxo_hyper_fields; f->key; f++)
        jhyper(f, m);
    printf("\"seed\":%llu,"
           "\"workers\":%u,\"episodes\":%llu,\"accuracy\":%.6f,\"accuracy_distance\":%.6f,"
           "\"exhaustive_losses_as_x\":%llu,\"exhaustive_losses_as_o\":%llu,",
           (unsigned long long)m->seed, m->workers, (unsigned long long)m->episodes, m->accuracy,
           m->accuracy_distance, (unsigned long long)m->losses_as_x,
           (unsigned long long)m->losses_as_o);
    if (m->perfect_known) /* the games a colour those losses are of (0: none played) */
        printf("\"perfect_games\":%u,", m->perfect_games);
    if (m->nt_cells) {
        printf("\"ntuple\":{\"count\":%u,\"len\":%u,\"states\":%u,\"sets\":%u,\"horizon\":%u,"
               "\"exploring_depth\":%u,\"target\":\"%s\",\"defend\":%s,",
               m->nt_count, m->nt_len, m->nt_states, m->nt_sets, m->nt_horizon, m->nt_start_depth,
               oxo_nt_target_name(m->nt_target), m->nt_defend ? "true" : "false");
        if (m->nt_search_games) /* the search phase (oxo-train --search-games) */
            printf("\"search\":{\"games\":%u,\"iterations\":%u,\"alpha\":%g},", m->nt_search_games,
                   m->nt_search_iterations, m->nt_search_alpha);
        printf("\"tuples\":[");
        /* The cells of each tuple (row * columns + column, row 0 on top, as --tuple-file reads
         * them). */
        for (uint32_t t = 0; t < m->nt_count; t++)
            for (uint32_t i = 0; i < m->nt_len; i++)
                printf("%s%u%s",
                       i   ? ","
                       : t ? ",["
                           : "[",
                       m->nt_cells[(size_t)t * m->nt_len + i], i + 1 == m->nt_len ? "]" : "");
        printf("]},");
    }
    if (m->ne_genome) { /* a NEAT population: its champion (genome 0) plays */
        const uint32_t on = champion_enabled(m);
        printf("\"neat\":{\"population\":%u,\"species\":%u,\"target_species\":%u,"
               "\"positions\":%u,\"panel_games\":%u,\"champion\":{\"fitness\":%.6f,\"hidden\":%u,"
               "\"links\":%u,\"enabled\":%u},\"activation\":\"sigmoid(4.9x)\",\"oriented\":%s,"
               "\"inputs\":\"%s\",\"train_set\":",
               m->ne_population, m->ne_nspecies, m->ne_target_species, m->ne_positions, m->ne_games,
               m->ne_fitness, m->ne_genome[0], m->ne_genome[1], on, m->symmetric ? "true" : "false",
               oxo_neat_input_names[m->ne_inputs]);
        oxo_json_str(stdout, m->ne_train_set[0] ? m->ne_train_set : NULL); /* null: the table's */
        printf("},");
    }
    if (m->az_layers) { /* an AlphaZero-lite network */
        printf("\"azero\":{\"widths\":[");
        for (uint32_t l = 0; l < m->az_layers; l++)
            printf("%s%u", l ? "," : "", m->az_width[l]);
        printf("],\"inputs\":%u,\"lines\":%s,\"threats\":%s,", m->az_inputs,
               m->az_lines ? "true" : "false", m->az_threats ? "true" : "false");
        printf("\"hidden\":\"relu\",\"value\":\"tanh\",\"parameters\":%u,\"simulations\":%u,"
               "\"games\":%u,\"batch\":%u,\"window\":%u,\"positions\":%u,\"train_ratio\":%g,"
               "\"temperature_moves\":%u,\"value_q\":%g,\"random_moves\":%g,"
               "\"random_games\":%g,\"random_margin\":%g,\"adam_steps\":%llu,\"judged\":%s},",
               m->nvalues, m->az_sims, m->az_games, m->az_batch, m->az_window, m->az_count,
               m->az_ratio, m->az_temp_moves, m->az_value_q, m->az_random, m->az_rgames,
               m->az_rmargin, (unsigned long long)m->az_steps, m->az_judged ? "true" : "false");
    }
    if (m->avg_every)
        printf("\"average\":{\"from\":%llu,\"every\":%u,\"count\":%u},",
               (unsigned long long)m->avg_from, m->avg_every, m->avg_count);
    jstr("trainer", m->trainer, 0);
    jstr("hash", m->hash, 0);
    printf("\"parent\":");
    oxo_json_str(stdout, m->parent[0] ? m->parent : NULL);
    printf("}\n");
}

/* Text of --info. The strings come from the file; the readers accept only printable ASCII, so no
 * terminal escape sequence can reach the screen. */
static void info_text(const char *path, const oxo_player *pl)
{
    uint32_t by[3], n = judged_counts(pl, by);
    if (n) {
        printf("%s: judged set (the value of every move of each position)\n  game %s, %u "
               "positions: %u won, %u drawn, %u lost for the side to move\n",
               path, oxo_player_game(pl)->spec, n, by[0], by[1], by[2]);
        return;
    }
    if (oxo_player_table(pl)) {
        const oxo_table *t = oxo_player_table(pl);
        const oxo_table_counts *c = &t->counts;
        const int blocks = t->major == OXO_TABLE_MAJOR_BLOCKS;
        char tree[96] = "";
        if (!blocks) /* a solve a ply at a time counts no tree */
            snprintf(tree, sizeof tree, "%llu tree nodes, %llu games, ",
                     (unsigned long long)c->nodes, (unsigned long long)c->games);
        printf("%s: solved table, format %d.%d\n  game %s %ux%u, index %s%s, %llu entries\n"
               "  root value %s; %s%llu positions (%llu canonical)\n"
               "  made by %s\n",
               path, t->major, t->minor, t->game, t->rows, t->cols, t->index,
               t->symmetric ? " (canonical)" : "",
               blocks ? (unsigned long long)c->canonical_positions : (unsigned long long)t->n,
               t->root_value, tree, (unsigned long long)c->positions,
               (unsigned long long)c->canonical_positions, t->generator);
        if (blocks)
            printf("  in %llu blocks of %u numbers, each read when a lookup needs it\n",
                   (unsigned long long)t->nblocks, t->block_numbers);
        if (oxo_player_book_depth(pl) >= 0)
            printf("  an opening book: every position with up to %d stones, each checked against "
                   "its children\n",
                   oxo_player_book_depth(pl));
        return;
    }
    const oxo_model *m = oxo_player_model(pl);
    char agent[300] = "";
    if (m->opp_agent_spec[0])
        snprintf(agent, sizeof agent, " %s %g", m->opp_agent_spec, m->opp_agent);
    printf("%s: model, format %d.%d, hash %s%s%s\n"
           "  game %s %ux%u, index %s%s, algo %s, %u values, %u replay ring%s\n"
           "  %llu episodes, %u worker%s, seed %llu, made by %s\n",
           path, OXO_FORMAT_MAJOR, m->minor, m->hash, m->parent[0] ? ", parent " : "", m->parent,
           m->game, m->rows, m->cols, m->index, m->symmetric ? " (canonical)" : "", m->algo,
           m->nvalues, m->nrings, m->nrings == 1 ? "" : "s", (unsigned long long)m->episodes,
           m->workers, m->workers == 1 ? "" : "s", (unsigned long long)m->seed, m->trainer);
    /* The settings of learning from games (a NEAT population learns by none of them: its own are
     * on its line below). */
    if (!m->ne_genome && !m->az_layers)
        printf("  alpha %s %g..%g over %llu, epsilon %s %g..%g over %llu, gamma %g, lambda %g "
               "(%s)\n"
               "  init %g, replay %u x %g, opponents self %g random %g table %g%s, exploring "
               "starts %g, sync %u\n",
               m->alpha.kind, m->alpha.start, m->alpha.end, (unsigned long long)m->alpha.length,
               m->epsilon.kind, m->epsilon.start, m->epsilon.end,
               (unsigned long long)m->epsilon.length, m->gamma, m->lambda, m->trace, m->init,
               m->replay_capacity, m->replay_ratio, m->opp_self, m->opp_random, m->opp_table, agent,
               m->starts, m->sync);
    /* graded on a judged set: no distance, and the losses are games against the perfect player */
    if (m->nt_cells || m->ne_train_set[0] || m->az_judged) {
        printf("  grade: value kept in %.2f%% of the judged positions", 100 * m->accuracy);
        if (m->perfect_known && !m->perfect_games)
            printf(", no games against the perfect player\n");
        else if (m->perfect_known)
            printf(", games lost to the perfect player %llu of %u as X, %llu of %u as O\n",
                   (unsigned long long)m->losses_as_x, m->perfect_games,
                   (unsigned long long)m->losses_as_o, m->perfect_games);
        else /* a file before minor 11 does not say how many games were played */
            printf(", games lost to the perfect player %llu as X, %llu as O\n",
                   (unsigned long long)m->losses_as_x, (unsigned long long)m->losses_as_o);
    } else
        printf(
            "  grade: accuracy %.2f%% (distance %.2f%%), exhaustive losses %llu as X, %llu as O\n",
            100 * m->accuracy, 100 * m->accuracy_distance, (unsigned long long)m->losses_as_x,
            (unsigned long long)m->losses_as_o);
    if (m->ne_genome) { /* a NEAT population: its champion plays */
        const uint32_t on = champion_enabled(m);
        printf("  neat: a population of %u in %u species (target %u), %llu generations;\n"
               "  the champion (fitness %.4f): %u hidden nodes, %u links (%u enabled), "
               "sigmoid(4.9x)%s%s\n",
               m->ne_population, m->ne_nspecies, m->ne_target_species,
               (unsigned long long)m->episodes, m->ne_fitness, m->ne_genome[0], m->ne_genome[1], on,
               m->ne_inputs == OXO_NEAT_AFTERSTATE
                   ? ", one output scoring each move's afterstate and tactics (win, block, let win)"
               : m->ne_inputs ? ", inputs of the cells and the tactics (win, block, let win)"
                              : "",
               m->symmetric ? ", inputs oriented by the board's symmetries" : "");
    }
    if (m->az_layers) { /* an AlphaZero-lite network: its bare policy plays */
        /* the learning rate as it was set: a falling one is half of how the network was made */
        char rate[96];
        if (strcmp(m->alpha.kind, "constant"))
            snprintf(rate, sizeof rate, "%g falling %s to %g over %llu iterations", m->alpha.start,
                     !strcmp(m->alpha.kind, "linear") ? "linearly" : "exponentially", m->alpha.end,
                     (unsigned long long)m->alpha.length);
        else
            snprintf(rate, sizeof rate, "%g", m->alpha.start);
        printf("  azero: %u inputs (%s), %u hidden layer%s of", m->az_inputs,
               m->az_threats ? "the cells, the lines' patterns and the threats"
               : m->az_lines ? "the cells and the lines' patterns"
                             : "the cells",
               m->az_layers, m->az_layers == 1 ? "" : "s");
        for (uint32_t l = 0; l < m->az_layers; l++)
            printf("%s %u", l ? "," : "", m->az_width[l]);
        char margin[96] = "";
        if (m->az_random > 0 && m->az_rmargin < 0)
            snprintf(margin, sizeof margin, "; before one, the search's value alone");
        else if (m->az_random > 0)
            snprintf(margin, sizeof margin,
                     "; before one %g worse than the best, the search's value alone",
                     m->az_rmargin);
        printf(" relu units, a policy over %u moves and a tanh value (%u parameters);\n"
               "  %llu iterations of %u self-play games at %u simulations a move (the first %u "
               "moves\n"
               "  drawn by the visits), a window of %u positions (%u held), batches of %u, %g "
               "positions\n"
               "  trained a new one, Adam at %s (%llu steps);\n"
               "  value target %g of the search's value; %g of the moves at random in %g of the\n"
               "  games%s\n",
               m->az_outputs, m->nvalues, (unsigned long long)m->episodes, m->az_games, m->az_sims,
               m->az_temp_moves, m->az_window, m->az_count, m->az_batch, m->az_ratio, rate,
               (unsigned long long)m->az_steps, m->az_value_q, m->az_random, m->az_rgames, margin);
    }
    /* a network is graded on a judged set, and its losses are games against the perfect player */
    if (m->nt_cells) {
        char depth[64] = "";
        if (m->starts > 0 && m->nt_start_depth)
            snprintf(depth, sizeof depth, ", exploring starts within %u moves", m->nt_start_depth);
        printf("  network: %u tuples of %u cells, %u cell states, %s, traces over %u moves%s,\n"
               "  learned toward %s; the grade is the share of value-keeping moves on a judged set "
               "and\n"
               "  the games lost against the perfect player\n",
               m->nt_count, m->nt_len, m->nt_states,
               m->nt_sets == 2 ? "a weight set for each player" : "one weight set", m->nt_horizon,
               depth,
               m->nt_target == OXO_NT_TARGET_OWN ? "the same player's next afterstate"
                                                 : "the opponent's next afterstate");
        if (m->nt_defend)
            printf("  self-play's second player, thinking itself lost (every move below %g), "
                   "played the move\n"
                   "  leaving the first player's best reply worth least (--defend)\n",
                   (double)OXO_NT_DEFEND_BELOW);
        if (m->avg_every && m->avg_count) /* saved in the middle of the averaging */
            printf(
                "  weights: the mean of the %u taken so far, every %u episodes from episode %llu\n"
                "  (--average; it plays and is graded as that mean, and a resumed run goes on "
                "from\n"
                "  the weights as at episode %llu, also held)\n",
                m->avg_count, m->avg_every, (unsigned long long)m->avg_from,
                (unsigned long long)m->episodes);
        else if (m->avg_every && m->avg_from > m->episodes) /* stopped before the averaging began */
            printf("  weights as at episode %llu; averaged every %u episodes from episode %llu on "
                   "(--average)\n",
                   (unsigned long long)m->episodes, m->avg_every, (unsigned long long)m->avg_from);
        else if (m->avg_every)
            printf("  weights: the mean of those every %u episodes from episode %llu (--average)\n",
                   m->avg_every, (unsigned long long)m->avg_from);
        if (m->nt_search_games)
            printf("  then %u games of self-play led by puct:%u, each move the search played "
                   "learning\n"
                   "  toward the search's value of it at alpha %g (--search-games)\n",
                   m->nt_search_games, m->nt_search_iterations, m->nt_search_alpha);
    }
}

/* An ensemble (A.oxm+B.oxm) prints each network's metadata in the order joined, one JSON object a
 * line with --json. */
int print_info(const char *path, int json)
{
    oxo_error err;
    oxo_player *pl = oxo_player_open_joined(path, &err);
    if (!pl) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, err.msg);
        return OXO_EXIT_FAIL;
    }
    const char *name = path;
    for (int k = 0; k < oxo_player_members(pl); k++) {
        const oxo_player *m = oxo_player_member(pl, k);
        const char *end = oxo_player_members(pl) > 1 ? strchr(name, '+') : NULL;
        int len = end ? (int)(end - name) : (int)strlen(name);
        if (json)
            info_json(m);
        else {
            char member[4096];
            snprintf(member, sizeof member, "%.*s", len, name);
            info_text(member, m);
        }
        name += len + (end != NULL);
    }
    oxo_player_close(pl);
    return OXO_EXIT_OK;
}
