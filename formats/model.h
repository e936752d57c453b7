/*
 * The model file (*.oxm): a learned value table with everything needed to know how it was made and
 * to continue training it bit for bit.
 *
 * values: little-endian float32, one per edge of the state space (algo "q": Q of each move) or one
 * per node (algo "td": V of each position), in the order of the indexing scheme (lookup/space.h).
 * (algo "ntuple": the weights of an n-tuple network, with its tuples.)
 * replay: each worker's replay ring as it was (slots, head, count), so a resumed run continues
 * exactly where the saved one stopped. hash: FNV-1a 64 of the values and replay bytes, in hex.
 */
#ifndef OXO_MODEL_H
#define OXO_MODEL_H

#include "format.h"

/* Learned values come from rewards of 0 and 1 (and -1 to 1 at the start); no learner here leaves
 * [-1, 1] by much. Values beyond this bound are refused, so that a file cannot make training
 * overflow to infinity. */
#define OXO_MODEL_VALUE_MAX 1000.0

typedef struct oxo_schedule {
    char kind[16]; /* "constant", "linear", "exponential" */
    double start, end;
    uint64_t length; /* episodes from start to end */
} oxo_schedule;

typedef struct oxo_replay_ring {
    uint32_t head, count;
    uint32_t nitems; /* u32 items held: count * record */
    uint32_t *items;
} oxo_replay_ring;

/* The TD target of an n-tuple network (`ntuple.target`): the next afterstate, the opponent's,
 * negated
 * ("next"), or the mover's own next afterstate and the result at the end for both ("own"). */
enum { OXO_NT_TARGET_NEXT = 1, OXO_NT_TARGET_OWN = 2 };
/* Its name in a model body and in --info. */
/* Below this value of its best move, a player of oxo-train --defend thinks itself lost. */
#define OXO_NT_DEFEND_BELOW (-0.5f)

static inline const char *oxo_nt_target_name(uint32_t target)
{
    return target == OXO_NT_TARGET_OWN ? "own" : "next";
}

/* The bounds of a search phase (oxo-train --search-games, --search-iterations). */
#define OXO_MAX_SEARCH_GAMES      100000000u
#define OXO_MAX_SEARCH_ITERATIONS 1000000u

#define OXO_MODEL_AZ_MAX_LAYERS 4

typedef struct oxo_model {
    int minor;
    char game[48]; /* the game spec (lookup/games/game.h) */
    uint32_t rows, cols;
    char index[32];
    int symmetric;
    char algo[8]; /* "q", "td", "ntuple", "neat" or "azero" */
    /* hyperparameters */
    oxo_schedule alpha, epsilon;
    double gamma, lambda;
    char trace[16]; /* "accumulating" or "replacing" (td) */
    double init;    /* initial value of every entry */
    uint32_t replay_capacity;
    double replay_ratio;
    uint32_t replay_record; /* u32 items per replay record */
    double opp_self, opp_random, opp_table;
    double opp_agent;         /* share of games against an agent (lookup/agent.h), 0 when none */
    char opp_agent_spec[256]; /* that agent's spec, "" when none */
    double starts;            /* share of episodes starting at a random reachable position */
    uint32_t sync;            /* episodes per synchronisation round (all workers together) */
    uint64_t seed;
    uint32_t workers;
    uint64_t episodes;
    /* grade against the solved table at the end */
    double accuracy, accuracy_distance;
    uint64_t losses_as_x, losses_as_o;
    uint32_t random_as_x[3], random_as_o[3]; /* wins, draws, losses of the model */
    /* Graded on a judged set (minor 11): the games a colour played against the perfect player,
     * whose losses are losses_as_x and _o (0: none were played). perfect_known 0: not recorded
     * (a tabular model's losses are the exhaustive check's; oxo-train records only the 0 of a
     * network that played none, FORMAT.md). */
    int perfect_known;
    uint32_t perfect_games;
    char trainer[64];
    char hash[17];
    char parent[17]; /* empty when trained from scratch */
    /* algo "ntuple" (lookup/ntuple.h): count tuples of len cells over `states` cell states, in
     * `sets` weight sets (1: both players', 2: one a player); the values are the weights, tuple
     * t's states^len of them at t * states^len, the second set after the first. */
    uint32_t nt_count, nt_len, nt_states, nt_sets;
    uint32_t nt_horizon; /* TD(lambda) traces cut after this many afterstates */
    /* exploring starts play fewer random moves than this (0: any number) */
    uint32_t nt_start_depth;
    uint32_t nt_target; /* what an afterstate learned toward: OXO_NT_TARGET_NEXT or _OWN */
    int nt_defend;      /* self-play's second player, valuing every move below OXO_NT_DEFEND_BELOW,
                         * played the move leaving the first player's best reply worth least (minor 6,
                         * key `defend`; absent: 0) */
    uint8_t *nt_cells;  /* nt_count * nt_len cells, r * cols + c */
    /* algo "ntuple" after oxo-train's search phase (minor 7, key `search` of `ntuple`; 0 games:
     * none since its weights last learned by TD): its games and the iterations of its puct. */
    uint32_t nt_search_games, nt_search_iterations; /* at most OXO_MAX_SEARCH_GAMES, _ITERATIONS */
    double nt_search_alpha;                         /* its step, above 0 and at most 1 */
    /* algo "ntuple" with weight averaging (minor 5, key `average`; avg_every 0: none): the weights
     * saved at the end of the run are the mean of the weights at every episode from avg_from on
     * that is a multiple of avg_every; while the run goes on, avg_values holds the mean of the
     * avg_count taken so far (NULL when none is), so that a resumed run continues it exactly. */
    uint64_t avg_from;
    uint32_t avg_every, avg_count;
    float *avg_values;
    /* algo "neat" (FORMAT.md; train/learners/neat.c, lookup/neat.h): a population of genomes,
     * genome 0 the champion that plays and genomes 1 on the population the run goes on from; each
     * genome's hidden node ids (ascending) and its links, genome after genome, the links' weights
     * being the values in the same order; the species and the run's counters, so that a resumed
     * run goes on bit for bit. */
    uint32_t ne_genomes;
    uint32_t *ne_genome; /* 3 a genome: its hidden nodes, its links, its species */
    uint32_t ne_nhidden;
    uint32_t *ne_hidden;
    uint32_t *ne_links; /* 4 a link (nvalues links): from, to, innovation, enabled (0 or 1) */
    uint32_t ne_nspecies;
    uint32_t *ne_species; /* 4 a species: id, representative genome, the generation it last
                           * improved, its best fitness (the float's bits) */
    uint32_t ne_next_node, ne_next_innov, ne_next_species;
    uint32_t ne_population, ne_target_species, ne_positions, ne_games;
    double ne_threshold;   /* the compatibility threshold of the next speciation */
    double ne_fitness;     /* the champion's */
    char ne_train_set[17]; /* the hash of the --train-set positions, "" when drawn from the table */
    /* What the networks read (lookup/neat.h, OXO_NEAT_CELLS...): the tactics' inputs from minor
     * 16 (`tactics`), afterstates from minor 17 (`afterstate`) */
    int ne_inputs;
    /* algo "azero" (FORMAT.md; train/learners/azero.c, lookup/azero.h): the network's shape (its
     * parameters are the values), the settings of its self-play, Adam's moments and step, and
     * the window of self-play positions with their targets, so that a resumed run goes on bit for
     * bit. */
    uint32_t az_layers; /* 0: no azero network */
    int az_judged;      /* graded on a judged set (no table of its game), not on the table */
    uint32_t az_width[OXO_MODEL_AZ_MAX_LAYERS];
    uint32_t az_inputs, az_outputs;
    uint32_t az_sims, az_games, az_batch, az_window, az_temp_moves;
    double az_ratio;
    double az_value_q; /* minor 10: the share of the search's value in the value target */
    int az_lines;      /* minor 13: the network reads the patterns of the game's lines too */
    int az_threats;    /* minor 14: and each side's threats (only with az_lines) */
    double az_random;  /* minor 14: the share of self-play moves played at random */
    double az_rgames;  /* minor 14: the share of self-play games that played them */
    double az_rmargin; /* minor 15: a random move this much worse than the search's best decides
                        * the value target (below 0, absent: every random move) */
    uint64_t az_steps;
    float *az_adam;             /* 2 * nvalues: the first moments, then the second */
    uint32_t az_count, az_head; /* positions in the window; the slot the next one takes */
    uint64_t *az_codes;         /* az_count positions (oxo_code) */
    float *az_targets;          /* az_count * (az_outputs + 1): the visits' shares, the result */
    uint32_t nvalues;
    float *values;
    uint32_t nrings;
    oxo_replay_ring *rings;
} oxo_model;

/* The learning settings a model stores (its `hyper` map, FORMAT.md), as one table in the body's
 * order: the writer packs them from it, the reader reads and checks them from it, oxo-play
 * --info --json prints them from it, and oxo-train's settings (train/settings.c) name the field
 * each of theirs is stored in by its key. */
typedef enum {
    OXO_HYPER_SCHEDULE, /* an oxo_schedule: {kind, start, end, length} */
    OXO_HYPER_REAL,     /* a double from lo to hi */
    OXO_HYPER_COUNT,    /* a whole number up to hi, into a uint32_t */
    OXO_HYPER_TRACE,    /* "accumulating" or "replacing", into a char[16] */
    OXO_HYPER_OPPONENT, /* the opponents' shares (and an agent's spec): a map of its own */
} oxo_hyper_type;

typedef struct oxo_hyper_field {
    const char *key;
    oxo_hyper_type type;
    double hi; /* REAL and COUNT: the most a reader takes (REAL: from lo) */
    double lo;
    size_t offset; /* its field of oxo_model */
    int internal;  /* how the trainer records, not a setting: --info shows the rings instead */
} oxo_hyper_field;

/* Every row, ended by a row whose key is NULL. */
extern const oxo_hyper_field oxo_hyper_fields[];
/* The row of a key, NULL when none. */
const oxo_hyper_field *oxo_hyper_named(const char *key);

/* The weights an n-tuple model holds, 0 when more than the bound: every filling of its tuples
 * (nt_sets * nt_count * nt_states^nt_len) without gravity and in files of minor 3 and before; from
 * minor 4 with gravity (4 states) only the fillings a board can have, the sum of the tuples' spans
 * (oxo_ntuple_span) times nt_sets (FORMAT.md). The bound is on those held, so tuples of 9 to 12
 * cells stacked in columns fit where their every filling would not. */
#define OXO_MODEL_MAX_WEIGHTS (1u << 24)
/* An azero model's bounds: hidden layers, units a layer, positions in the window. */
#define OXO_MODEL_AZ_MAX_WIDTH  1024u
#define OXO_MODEL_AZ_MAX_WINDOW (1u << 22)
#define OXO_MODEL_AZ_MAX_INPUTS 65536u /* with lines; 2 a cell, at most 128, without */
/* A NEAT model's bounds: genomes (the population and the champion), nodes and links of the run. */
#define OXO_MODEL_NEAT_MAX_GENOMES 100001u
#define OXO_MODEL_NEAT_MAX_NODES   (1u << 24)
uint32_t oxo_ntuple_weights_of(const oxo_model *m);
/* Whether m is an n-tuple network with gravity whose values hold every filling of its tuples: one
 * read from a file of minor 3 or before (the reader, the writer, which writes it back as minor 3,
 * and the programs that build the network ask this). */
int oxo_model_every_filling(const oxo_model *m);

/* With gravity the cells of a tuple that lie one above another in a column make chains (bottom
 * up), and a column fills from the bottom, so a chain of L cells takes 2^(L+1) fillings, not 4^L
 * (FORMAT.md). The chains of a tuple of len cells on a board of `cols` columns and rows * cols
 * cells: nc of them, chain j at tuple positions pos[j][0..len[j]) bottom up, bottom[j] set when
 * it stands on the bottom row; in the order of their bottom cells in the tuple. */
#define OXO_MODEL_MAX_TUPLE_LEN 12
typedef struct oxo_ntuple_chains {
    int nc, pos[OXO_MODEL_MAX_TUPLE_LEN][OXO_MODEL_MAX_TUPLE_LEN], len[OXO_MODEL_MAX_TUPLE_LEN],
        bottom[OXO_MODEL_MAX_TUPLE_LEN];
} oxo_ntuple_chains;
void oxo_ntuple_chains_of(uint32_t rows, uint32_t cols, const uint8_t *cells, uint32_t len,
                          oxo_ntuple_chains *ch);
/* The weights of one tuple in the layout of the fillings a board can have: 3^len without gravity
 * (states 3), else the product over its chains of 2^(L+1). */
uint32_t oxo_ntuple_span(uint32_t rows, uint32_t cols, uint32_t states, const uint8_t *cells,
                         uint32_t len);

int oxo_model_read(const char *path, oxo_model **out, oxo_error *err);
int oxo_model_decode(const uint8_t *data, size_t len, oxo_model **out, oxo_error *err);
int oxo_model_decode_body(const uint8_t *body, size_t len, int minor, oxo_model **out,
                          oxo_error *err);
void oxo_model_free(oxo_model *m);
/* The content hash of values and replay state, as 16 hex digits. */
void oxo_model_hash(const oxo_model *m, char out[17]);

/* Write side: fills m->hash, then saves atomically. */
int oxo_model_encode_body(oxo_model *m, uint8_t **body, size_t *len, oxo_error *err);
int oxo_model_write(const char *path, oxo_model *m, oxo_error *err);
/* The bytes oxo_model_write would save (malloc'd into *file), checked the same way. */
int oxo_model_encode(oxo_model *m, uint8_t **file, size_t *len, oxo_error *err);

#endif
