/*
 * Inside the trainer (not for callers: they use train.h): the workers, the trainer they share, the
 * marks of the entries a round touched, and what a learner implements. train.c owns the rounds,
 * the ordered merge of the workers' copies, replay, schedules, checkpoints and models; a learner
 * (learners/: tabular.c for q and td, ntuple.c) owns its values, its episode and what it checks on
 * resume. A new learner is a file that defines one `const oxo_learner` and a row in
 * learners/registry.c.
 */
#ifndef OXO_TRAINER_H
#define OXO_TRAINER_H

#include "train.h"

#include "agent.h"
#include "judge.h"
#include "player.h"
#include "rng.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct oxo_learner oxo_learner;

enum { OPP_SELF = 0, OPP_RANDOM, OPP_TABLE, OPP_AGENT };

/* Each worker on cache lines of its own: a worker writes its ring's head and count at every move,
 * and two workers sharing a line made each episode twice as slow on 2 threads (false sharing). */
typedef struct worker {
    _Alignas(64) float *local; /* the worker's copy; the first worker's are the shared values */
    float *vmax;       /* q: the best Q of each node, kept equal to the max of its edges (the
                        * first worker's are the shared ones) */
    uint64_t *touched; /* entries updated this round, a bit each (NULL with one worker) */
    uint32_t
        *tlist; /* the same entries listed by slice (see SLICE_SHIFT), so that a round's merge
                 * costs what it touched: slice q's at tlist[q << SLICE_SHIFT], tcnt[q] of them */
    uint32_t *tcnt;
    oxo_replay ring;
    oxo_agent *agent; /* the worker's own agent opponent (agents keep scratch memory), or NULL */
    oxo_ntuple net;   /* ntuple: the shared network's tuples over the worker's weights */
    uint32_t *hist;   /* ntuple: the active weights of the last nt_horizon afterstates */
    float *hgrad;     /* ntuple: their gradient factor, 1 - value^2 */
    oxo_ntuple_walk walk; /* ntuple: the indexes of the episode's position, move by move */
    uint64_t moves;       /* moves played, for the speed figures */
    double cpu;           /* CPU seconds its last team round took, for the team's efficiency */
    int thread;           /* the thread that played its last team round */
    int claimed;          /* taken by a thread this round */
    /* a network on 2 workers: the weights it wrote this round, (index, bits) pairs, nout of
     * them, for the other worker's thread to read (merge_pair) */
    uint32_t *outbox;
    uint32_t nout;
} worker;

struct oxo_trainer {
    oxo_train_config c;
    const oxo_learner *learner;
    const oxo_game *g;
    oxo_space *space;
    const oxo_player *truth;
    uint64_t *table_best; /* per node: the truth's best moves, on the node's board */
    uint32_t *open_nodes; /* the non-terminal nodes, for exploring starts */
    uint32_t *twin;       /* q: next edge of the same node reaching the same child (a cycle) */
    uint32_t *enode;      /* q: the node each edge leaves */
    /* q with several workers: the entries touched in a round, each once, by slice */
    uint32_t *ulist;
    uint32_t *ucnt;  /* how many in each slice */
    uint64_t *umark; /* the same entries, a bit each */
    uint32_t nslices;
    float *vmax; /* q: best Q of each node for the shared values */
    uint32_t nopen;
    uint32_t nvalues;
    float *values;
    worker *w;
    uint64_t episodes;
    volatile int *stop; /* set by a signal handler: stop at the next round (one worker: episode) */
    uint64_t rounds, next_probe; /* rounds played by this process; the next try of the team */
    uint64_t probe_gap;          /* rounds between tries of the team while it does not pay */
    int last_team;               /* the mode of the last round */
    int team_off;                /* the team did not pay: lone rounds until a try shows it does */
    double efficiency;           /* of the team lately: its threads' CPU time over the wall time */
    double lone;                 /* of one thread lately, the same measure (0: not measured yet) */
    uint64_t lone_round;         /* the last round that measured it */
    uint64_t judged;             /* team rounds judged so far */
    oxo_ntuple *net;             /* ntuple: the network over the shared weights (values) */
    float *avg; /* ntuple with averaging: the mean of the avg_count weights taken so far */
    uint32_t avg_count;
    /* the search phase the weights went through last */
    uint32_t searched_games, searched_iterations;
    double searched_alpha;
    /* told of each round of the search phase (NULL: nobody) */
    oxo_search_progress *search_progress;
    void *search_ctx;
    const oxo_judge *judge; /* ntuple, neat without a table: the judged set it is graded on */
    void *learner_state;    /* what a learner keeps of its own (neat: its population) */
};

/* A learner: a row of the registry (learners/registry.c). */
struct oxo_learner {
    const char *name; /* --algo, and the model's `algo` */
    oxo_algo algo;
    oxo_graded graded;   /* what grades its runs (default: the table) */
    oxo_learner_cli cli; /* what its command line takes (train.h) */
    /* The settings where the learner's differ from the shared ones (oxo_train_defaults). */
    void (*defaults)(oxo_train_config *c);
    /* A trainer for c on g (truth: the solved table, or NULL where the learner needs none): its
     * values and what it keeps beside them, then its workers (trainer_workers); NULL with a
     * sentence in err. */
    oxo_trainer *(*create)(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth,
                           oxo_error *err);
    /* Episode k, played by worker w on its copy. */
    void (*episode)(oxo_trainer *t, worker *w, uint64_t k);
    /* 1: a replay record is one move (a transition); 0: a whole game of up to max_plies + 1
     * items. */
    int ring_moves;
    /* Checks replay ring k of a model being resumed against the game (the reader checked the
     * ring's form): 0, or -1 with a sentence in err. */
    int (*check_ring)(const oxo_trainer *t, const oxo_replay_ring *r, uint32_t k, oxo_error *err);
    /* 1: the workers' copies are merged by their marks alone (no lists of the entries touched), and
     * on 2 workers pairwise, each thread into its own copy (a network's millions of weights). */
    int merge_marks;
    /* Optional: a worker's copy of the n values, zeroed (default: worker_alloc). */
    float *(*copy_alloc)(size_t n);
    /* Optional: what worker w plays with beyond its copy, marks and ring (0, or -1 when memory
     * runs out), and its freeing (worker_free may meet a worker whose worker_init failed). */
    int (*worker_init)(oxo_trainer *t, worker *w);
    void (*worker_free)(worker *w);
    /* Optional: frees the shared values and what the learner keeps beside them (default:
     * free(t->values)). */
    void (*free_values)(oxo_trainer *t);
    /* A player over the shared values (borrowed: the trainer must outlive it). */
    oxo_player *(*player)(const oxo_trainer *t);
    /* Grades the values w (the shared ones, or their mean): 0, or -1. */
    int (*grade)(const oxo_trainer *t, const float *w, int solve, oxo_grade *g);
    /* Resuming: model m's values (and its mean so far) into t: 0, or -1 with err. */
    int (*load)(oxo_trainer *t, const oxo_model *m, oxo_error *err);
    /* The learner's own fields of a model (its index, its symmetry, its network): 0, or -1 when
     * memory runs out; and the bytes they add to a model at most. */
    int (*to_model)(const oxo_trainer *t, oxo_model *m);
    uint64_t (*model_extra)(const oxo_trainer *t);
    /* Optional: learns from a game played outside the trainer (the positions from the start to
     * the end, n of them), at the learning rate of the episode the run is at, as an episode of its
     * own would (oxo_trainer_learn_game): 0, or -1 with err naming a position the game lacks. */
    int (*played)(oxo_trainer *t, const oxo_pos *line, int n, oxo_error *err);
};

/* The registry, NULL-terminated; and the learner of an algo, or of a name (NULL when none). */
extern const oxo_learner *const oxo_learners[];
const oxo_learner *oxo_learner_of(oxo_algo algo);
const oxo_learner *oxo_learner_named(const char *name);

/* Marks of entries, a bit each: the n-tuple learner marks an entry at every weight it writes,
 * all over millions of entries, and a bitmap eight times smaller than bytes stays in cache far
 * more often. */
static inline int bit_get(const uint64_t *m, uint32_t i)
{
    return (int)(m[i >> 6] >> (i & 63)) & 1;
}
static inline void bit_set(uint64_t *m, uint32_t i)
{
    m[i >> 6] |= 1ull << (i & 63);
}
static inline void bit_clear(uint64_t *m, uint32_t i)
{
    m[i >> 6] &= ~(1ull << (i & 63));
}

/* The entries are cut into slices of 2^16 for the merge: each slice is merged by one thread, the
 * slices by the whole team, so that the end of a round does not grow with the number of workers
 * on one thread (a slice is a multiple of 64 entries: its marks are words of its own). */
#define SLICE_SHIFT 16

/* Marks entry i as updated this round (several workers only). Each slice's list has room for
 * every entry of the slice. */
static inline void touch(worker *w, uint32_t i)
{
    if (w->touched && !bit_get(w->touched, i)) {
        bit_set(w->touched, i);
        const uint32_t q = i >> SLICE_SHIFT;
        w->tlist[((size_t)q << SLICE_SHIFT) + w->tcnt[q]++] = i;
    }
}

/* The best Q of a node's moves. */
static inline float node_max(const oxo_space *s, const float *q, uint32_t node)
{
    float m = q[s->first[node]];
    for (uint32_t e = s->first[node] + 1; e < s->first[node + 1]; e++)
        m = q[e] > m ? q[e] : m;
    return m;
}

/* How many replays follow a new transition or game at a ratio: its whole part, and one more with
 * the probability of its fraction. */
static inline int replays(double ratio, uint64_t *rng)
{
    double whole = floor(ratio);
    return (int)whole + (oxo_rng_unit(rng) < ratio - whole);
}

/* The network n reading the weights w instead of its own (owning none of its arrays: freed with
 * n): a worker's copy, or the mean of the weights for grading. */
static inline oxo_ntuple net_view(const oxo_ntuple *n, float *w)
{
    oxo_ntuple v = *n;
    v.w = w;
    v.own_w = 0;
    return v;
}

/* train.c: what every trainer starts from (its settings, game and truth), zeroed otherwise; its
 * workers' copies, marks and replay rings (0, or -1 with err, the trainer then freed); the state
 * derived from the shared values brought up to date (the best Q of each node, the copies); a
 * worker's array, zeroed, on pages of its own. */
oxo_trainer *trainer_alloc(const oxo_train_config *c, const oxo_game *g, const oxo_player *truth);
/* Grades player p (a learner's network; closed here, NULL when it could not be made) as the
 * learners without values by node are graded: on every position and line of the table's space
 * (t->space), else on the judged set (t->judge). 0, or -1. */
int trainer_grade_player(const oxo_trainer *t, oxo_player *p, int solve, oxo_grade *g);
int trainer_workers(oxo_trainer *t, oxo_error *err);
void trainer_sync(oxo_trainer *t);
void *worker_alloc(size_t n);

/* merge.c: the best Q of every node of q; slice q of a round merged (q: by lists, with the best Q
 * of the nodes after every slice, merge_union_max and merge_worker_max, then the copies reset,
 * merge_reset_slice; td and networks: merge_values); a network's round on 2 workers merged
 * pairwise (merge_post, then merge_pair on each worker's thread; merges_pairwise says when); and a
 * whole round's merge on one thread (merge_round). */
void merge_all_max(const oxo_space *s, const float *q, float *vmax);
void merge_slice(oxo_trainer *t, uint32_t q);
void merge_union_max(oxo_trainer *t);
void merge_worker_max(oxo_trainer *t, int64_t k);
void merge_reset_slice(oxo_trainer *t, uint32_t q);
void merge_values(oxo_trainer *t, uint32_t q);
void merge_post(oxo_trainer *t, uint32_t k);
void merge_pair(oxo_trainer *t, uint32_t k);
int merges_pairwise(const oxo_trainer *t);
void merge_round(oxo_trainer *t);

#endif
