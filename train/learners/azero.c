/*
 * AlphaZero-lite (--algo azero): a policy-value network (lookup/azero.h) learned from games it
 * plays against itself through the PUCT search it leads, as Silver et al. describe (Science,
 * 2018), at a small scale. An episode of the trainer is an iteration:
 *
 * 1. Self-play: --games games from the empty board, every move chosen by --simulations PUCT
 *    simulations led by the network (exploration 1.5), Dirichlet noise of alpha 1 mixed into the
 *    root's priors with weight 0.25; the first --temperature-moves moves of a game (by default
 *    every move: train/RECORD.md measured 6, 16 and 42 on 7x6) drawn in proportion to the visits,
 *    the rest the most visited. In the first --random-games of the games (default 3 in 4),
 *    --random-moves of the moves (default 0.2), drawn at the game's stream, are played uniformly
 *    at random instead: their positions hold what games against weaker players hold (wins left
 *    to take, threats left to block), as the judged set of 7x6, drawn from random play, does;
 *    without them the bare policy missed one win in five there, and with them in every game it
 *    lost more games from the empty board against the perfect player (train/RECORD.md, session
 *    50). Each position is kept with the shares of the visits of its moves and a value target
 *    for the side to move: --value-q (default 0.5) of the search's value at the root, the rest
 *    the game's result once it ends (the result alone judges a whole game by moves drawn at
 *    random late in it; the search's value is the position's own: on 7x6 at 400 iterations the
 *    mix kept the value on 56.8% of the judged set, the result alone 55.2% and the search's
 *    value alone 54.1%, train/RECORD.md). A position up to a game's last random move takes the
 *    search's value alone: the result there judges the random moves more than the position (on
 *    7x6 after an hour, with random moves in 3 games of 4, it kept 90.4% bare and won 200 of 200
 *    games as X under 800 simulations, where the result mixed in as elsewhere left 88.0% and
 *    188 of 200 with random moves in half of the games: train/RECORD.md, session 51).
 *    Games are played in groups of GROUP, each group on one OpenMP thread, the leaves of its games'
 *    searches evaluated in one batch; each game draws from a stream of the seed, the iteration
 *    and its number, and the network does not change during the self-play, so its positions are
 *    the same whatever the number of threads.
 * 2. The positions join a window of the latest --window ones (default 100,000, some 45
 *    iterations of 7x6 games: with 20,000 the bare policy kept the value on 83.8% of the judged
 *    set after 1,000 iterations, with 100,000 on 85.9% and 90.2% in two runs; all near 91% after
 *    4,000, train/RECORD.md, session 52).
 * 3. Training, on one thread: --train-ratio positions a new one, in batches of --batch drawn from
 *    the window by a stream of the seed and the iteration, each under one of the board's
 *    symmetries drawn with it; the loss (z - v)^2 - pi . log p with Adam (learning rate --alpha,
 *    default 0.001, or its schedule over the iterations: --alpha-end, --alpha-schedule) and L2
 *    weight decay 1e-4.
 *
 * The network is a multilayer perceptron (by default 2 hidden layers of 256 units), not the
 * paper's residual convolutions: the smallest that learns here, its width measured
 * (train/RECORD.md: 256 units kept the value on 49.9% of the 7x6 judged set where 128 kept 45.0%,
 * at 400 iterations). By default (--inputs threats) it reads, besides the cells, the pattern of
 * stones on each of the game's winning lines and each side's threats, playable now or not
 * (lookup/azero.h): 680,200 parameters on 7x6, where the cells alone make 89,608. At 200
 * iterations on 7x6 the lines kept the value on 61.5% of the judged set where the cells alone
 * kept 55.1% (train/RECORD.md, session 49); at 500, the threats 78.9% where the lines kept 70.4%
 * (session 50). A new network every
 * iteration, without gating (the paper's AlphaZero has none). The model holds the weights, Adam's
 * moments and the window, so that --resume goes on to the same bytes. Graded as the other network
 * learners: on every position of the table where there is one, else on a judged set.
 */
#include "trainer.h"

#include "azero_net.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP        16   /* games a thread plays together, their leaves in one batch */
#define C_PUCT       1.5  /* exploration */
#define NOISE_EPS    0.25 /* the weight of the root's noise */
#define WEIGHT_DECAY 1e-4

/* streams apart from the trainer's: "AZ_SELFP", "AZ_TRAIN", "AZ_INITW" */
#define SEED_PLAY  0x415a5f53454c4650ull
#define SEED_TRAIN 0x415a5f545241494eull
#define SEED_INIT  0x415a5f494e495457ull

typedef struct az_state {
    oxo_az_shape s;
    oxo_az_net net; /* over w */
    float *w, *m, *v, *grad;
    uint32_t np;
    uint64_t steps;
    uint32_t cap, count, head; /* the window */
    uint64_t *codes;
    float *targets; /* cap * (moves + 1) */
    int failed;
} az_state;

static az_state *state_of(const oxo_trainer *t)
{
    return (az_state *)t->learner_state;
}

/* Self-play */

/* The positions of one game, their visits' shares and, once it ends, their results. */
typedef struct game_rec {
    uint64_t *codes;
    float *targets;
    int n;
    int explored; /* the positions up to the last one where a random move was played */
} game_rec;

/* Starts the search of a self-play move from p, with Dirichlet(1) noise over the legal moves
 * (exponentials, normalised) drawn from the game's stream. */
static void start_search(const oxo_game *g, oxo_az_tree *tree, oxo_pos p, uint64_t *rng)
{
    const uint64_t legal = oxo_legal(g, p);
    double sum = 0, e[OXO_MAX_MOVES];
    float noise[OXO_MAX_MOVES];
    for (int m = 0; m < g->moves; m++) {
        e[m] = legal >> m & 1 ? -log(1.0 - oxo_rng_unit(rng)) : 0;
        sum += e[m];
    }
    for (int m = 0; m < g->moves; m++)
        noise[m] = sum > 0 ? (float)(e[m] / sum) : 0;
    oxo_az_tree_start(tree, p, C_PUCT, noise, NOISE_EPS);
}

/* The move after a search: in the opening drawn in proportion to the visits, then the most
 * visited. */
static int choose(const oxo_az_tree *tr, int moves, int ply, uint32_t temp_moves, uint64_t *rng,
                  const float *visits, double total)
{
    if ((uint32_t)ply >= temp_moves || total <= 0)
        return oxo_az_tree_best(tr);
    double u = oxo_rng_unit(rng) * total;
    int last = -1;
    for (int m = 0; m < moves; m++) {
        if (visits[m] <= 0)
            continue;
        last = m;
        if (u < visits[m])
            return m;
        u -= visits[m];
    }
    return last;
}

/* Whether random move mv, played after the search, is worse than the search's best move by more
 * than margin in its value (an unvisited move is worse than any); below 0, always. */
static int worse(const oxo_az_tree *tr, int mv, double margin)
{
    const int best = oxo_az_tree_best(tr);
    return margin < 0 || best < 0 ||
           oxo_az_tree_mean(tr, mv) < oxo_az_tree_mean(tr, best) - (float)margin;
}

/* Games j0 .. j1 - 1 of iteration k, played together: 0, or -1 when memory runs out. */
static int play_group(const oxo_trainer *t, const az_state *s, uint64_t k, uint32_t j0, uint32_t j1,
                      game_rec *rec)
{
    const oxo_game *g = t->g;
    const int M = g->moves, n = (int)(j1 - j0);
    const double qmix = t->c.az_value_q;
    oxo_az_tree *tree[GROUP] = {0};
    oxo_pos pos[GROUP];
    uint64_t rng[GROUP];
    int live[GROUP], who[GROUP];
    double randoms[GROUP]; /* each game's share of random moves */
    /* the first games of the iteration play random moves, the others none */
    const uint32_t explorers = (uint32_t)(t->c.az_rgames * t->c.az_games + 0.5);
    az_batch b;
    int rc = az_batch_new(&b, &s->s, GROUP);
    for (int i = 0; i < n && !rc; i++)
        if (!(tree[i] = oxo_az_tree_new(g, (int)t->c.az_sims)))
            rc = -1;
    for (int i = 0; i < n && !rc; i++) {
        pos[i] = oxo_start(g);
        rng[i] = oxo_rng_stream(t->c.seed ^ SEED_PLAY, k << 20 | (j0 + (uint32_t)i));
        live[i] = 1;
        randoms[i] = j0 + (uint32_t)i < explorers ? t->c.az_random : 0;
        start_search(g, tree[i], pos[i], &rng[i]);
    }
    for (int any = !rc; any;) {
        int nb = 0;
        for (int i = 0; i < n; i++) {
            while (live[i]) {
                oxo_pos leaf;
                if (oxo_az_tree_want(tree[i], &leaf)) {
                    az_batch_set(&b, nb, g, leaf);
                    who[nb++] = i;
                    break;
                }
                /* the search of this move is done: keep the position, play the move */
                game_rec *r = &rec[i];
                float visits[OXO_MAX_MOVES];
                const double total = oxo_az_tree_visits(tree[i], visits);
                float *tg = r->targets + (size_t)r->n * (M + 1);
                for (int m = 0; m < M; m++)
                    tg[m] = total > 0 ? (float)(visits[m] / total) : 0;
                tg[M] = (float)oxo_az_tree_q(tree[i]);
                r->codes[r->n++] = oxo_code(g, pos[i]);
                /* in some games a share of the moves at random: positions unlike the search's
                 * own choices, as games against weaker players hold (both sides' wins left to
                 * take) */
                const int randomly = randoms[i] > 0 && oxo_rng_unit(&rng[i]) < randoms[i];
                const int mv = randomly ? oxo_rng_bit(&rng[i], oxo_legal(g, pos[i]))
                                        : choose(tree[i], M, oxo_ply(pos[i]), t->c.az_temp_moves,
                                                 &rng[i], visits, total);
                if (randomly && worse(tree[i], mv, t->c.az_rmargin))
                    r->explored = r->n;
                pos[i] = oxo_play(g, pos[i], mv);
                const oxo_status st = oxo_status_of(g, pos[i]);
                if (st != OXO_ONGOING) {
                    /* the last mover won (its side's positions +1, the other's -1), or a draw;
                     * a position before a random move keeps the search's value alone: the
                     * result there judges the random move, not the position */
                    for (int q = r->explored; q < r->n; q++) {
                        float *v = &r->targets[(size_t)q * (M + 1) + M];
                        const float z =
                            st == OXO_OVER_DRAW ? 0.0f : ((r->n - 1 - q) % 2 == 0 ? 1.0f : -1.0f);
                        *v = (float)((1 - qmix) * z + qmix * *v);
                    }
                    live[i] = 0;
                    break;
                }
                start_search(g, tree[i], pos[i], &rng[i]);
            }
        }
        if (!nb)
            break;
        az_forward(&b, s->w, nb);
        for (int r = 0; r < nb; r++)
            oxo_az_tree_feed(tree[who[r]], b.logits + (size_t)r * M, b.value[r]);
    }
    for (int i = 0; i < n; i++)
        oxo_az_tree_free(tree[i]);
    az_batch_free(&b);
    return rc;
}

/* Training */

/* One iteration's training on the window: its loss, or -1 when memory runs out. */
static double train_window(const oxo_trainer *t, az_state *s, uint64_t k, uint32_t fresh)
{
    const oxo_game *g = t->g;
    const int M = g->moves, B = (int)t->c.az_batch;
    const uint64_t steps =
        (uint64_t)ceil((double)fresh * t->c.az_ratio / (double)t->c.az_batch - 1e-9);
    if (!steps || !s->count)
        return 0;
    az_batch b;
    float *pi = malloc((size_t)B * M * sizeof *pi), *z = malloc((size_t)B * sizeof *z);
    uint64_t *legal = malloc((size_t)B * sizeof *legal);
    if (az_batch_new(&b, &s->s, B) || !pi || !z || !legal) {
        az_batch_free(&b);
        free(pi), free(z), free(legal);
        return -1;
    }
    uint64_t rng = oxo_rng_stream(t->c.seed ^ SEED_TRAIN, k);
    double loss = 0;
    for (uint64_t st = 0; st < steps; st++) {
        for (int i = 0; i < B; i++) {
            /* a position of the window under one of the board's symmetries drawn at random (the
             * mirror on Connect-4, the eight of a square on tic-tac-toe): as many more positions
             * for nothing, and a network that learns the symmetry */
            const uint32_t at = oxo_rng_below(&rng, s->count);
            const int sym = (int)oxo_rng_below(&rng, (uint32_t)g->nsym);
            const oxo_pos p = oxo_transform(g, oxo_decode(g, s->codes[at]), sym);
            const float *tg = s->targets + (size_t)at * (M + 1);
            az_batch_set(&b, i, g, p);
            for (int m = 0; m < M; m++)
                pi[(size_t)i * M + oxo_transform_move(g, m, sym)] = tg[m];
            z[i] = tg[M];
            legal[i] = oxo_legal(g, p);
        }
        memset(s->grad, 0, (size_t)s->np * sizeof *s->grad);
        az_forward(&b, s->w, B);
        loss += az_backward(&b, s->w, B, pi, z, legal, s->grad);
        az_adam(s->w, s->grad, s->m, s->v, s->np, oxo_schedule_at(&t->c.alpha, k), WEIGHT_DECAY,
                ++s->steps);
    }
    az_batch_free(&b);
    free(pi), free(z), free(legal);
    return loss / (double)steps;
}

/* Iteration k: 0, or -1 when memory runs out (the network stays the one before). */
static int iteration(oxo_trainer *t, uint64_t k)
{
    az_state *s = state_of(t);
    const oxo_game *g = t->g;
    const int M = g->moves, most = g->cells + 1; /* positions a game keeps at most */
    const uint32_t G = t->c.az_games, groups = (G + GROUP - 1) / GROUP;
    game_rec *rec = calloc(G, sizeof *rec);
    uint64_t *codes = malloc((size_t)G * most * sizeof *codes);
    float *targets = malloc((size_t)G * most * (M + 1) * sizeof *targets);
    int failed = !rec || !codes || !targets;
    for (uint32_t j = 0; !failed && j < G; j++)
        rec[j] = (game_rec){codes + (size_t)j * most, targets + (size_t)j * most * (M + 1), 0, 0};
    if (!failed) {
#pragma omp parallel for schedule(dynamic, 1) reduction(| : failed)
        for (uint32_t q = 0; q < groups; q++) {
            const uint32_t j0 = q * GROUP, j1 = j0 + GROUP < G ? j0 + GROUP : G;
            failed |= play_group(t, s, k, j0, j1, rec + j0) != 0;
        }
    }
    uint32_t fresh = 0;
    for (uint32_t j = 0; !failed && j < G; j++)
        for (int i = 0; i < rec[j].n; i++, fresh++) {
            s->codes[s->head] = rec[j].codes[i];
            memcpy(s->targets + (size_t)s->head * (M + 1), rec[j].targets + (size_t)i * (M + 1),
                   (size_t)(M + 1) * sizeof(float));
            s->head = (s->head + 1) % s->cap;
            if (s->count < s->cap)
                s->count++;
        }
    free(rec), free(codes), free(targets);
    if (failed || train_window(t, s, k, fresh) < 0)
        return -1;
    return 0;
}

static void azero_episode(oxo_trainer *t, worker *w, uint64_t k)
{
    az_state *s = state_of(t);
    if (!s->failed && iteration(t, k))
        s->failed = 1;
    w->moves++;
}

/* Setting up, saving and loading */

static void state_free(az_state *s)
{
    if (!s)
        return;
    free(s->w), free(s->m), free(s->v), free(s->grad);
    free(s->codes), free(s->targets);
    free(s);
}

static void azero_free_values(oxo_trainer *t)
{
    state_free(state_of(t));
    t->learner_state = NULL;
}

/* n weights from N(0, sd^2) (Box-Muller on the stream), then nb biases of 0; past them. */
static float *draw_layer(float *w, size_t n, size_t nb, double sd, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++) {
        const double u1 = 1.0 - oxo_rng_unit(rng), u2 = oxo_rng_unit(rng);
        w[i] = (float)(sd * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
    }
    memset(w + n, 0, nb * sizeof *w);
    return w + n + nb;
}

/* He's initialisation for the hidden layers (variance 2 / inputs), Glorot's for the heads
 * (1 / inputs), the biases 0, from the seed's stream. With lines, the first layer's inputs
 * counted are those that can be 1 at once (cells + lines), which its sums run over. */
static void init_weights(az_state *s, uint64_t seed)
{
    uint64_t rng = oxo_rng_stream(seed ^ SEED_INIT, 0);
    float *w = s->w;
    size_t in = (size_t)s->s.inputs;
    for (int l = 0; l < s->s.layers; l++) {
        const size_t out = (size_t)s->s.width[l];
        const double fan = l || !s->s.lines ? (double)in : (double)(s->s.cells + s->s.lines);
        w = draw_layer(w, out * in, out, sqrt(2.0 / fan), &rng);
        in = out;
    }
    w = draw_layer(w, (size_t)s->s.moves * in, (size_t)s->s.moves, sqrt(1.0 / (double)in), &rng);
    draw_layer(w, in, 1, sqrt(1.0 / (double)in), &rng);
}

static oxo_trainer *azero_create(const oxo_train_config *c, const oxo_game *g,
                                 const oxo_player *truth, oxo_error *err)
{
    if (c->workers != 1 || c->opp_self < 1.0 || c->replay_capacity) {
        oxo_fail(err, OXO_E_ARG,
                 "algo azero plays its self-play games on every thread (OMP_NUM_THREADS): no "
                 "--workers, --opponent or --replay");
        return NULL;
    }
    /* the window keeps positions by their codes: they must give the positions back (not so on
     * m,n,k boards of more than 40 cells, whose 3^cells codes overflow), which positions along a
     * few random games of a fixed stream show */
    int codes_hold = 1;
    uint64_t rng = 0x636f646573ull;
    for (int k = 0; k < 8 && codes_hold; k++)
        for (oxo_pos p = oxo_start(g); codes_hold;
             p = oxo_play(g, p, oxo_rng_bit(&rng, oxo_legal(g, p)))) {
            const oxo_pos q = oxo_decode(g, oxo_code(g, p));
            codes_hold = q.me == p.me && q.opp == p.opp;
            if (oxo_status_of(g, p) != OXO_ONGOING)
                break;
        }
    if (!codes_hold) {
        oxo_fail(err, OXO_E_ARG, "algo azero keeps positions by their codes, which %s lacks",
                 g->spec);
        return NULL;
    }
    oxo_trainer *t = trainer_alloc(c, g, truth);
    az_state *s = calloc(1, sizeof *s);
    if (!t || !s) {
        free(t);
        free(s);
        oxo_fail(err, OXO_E_NOMEM, "a network");
        return NULL;
    }
    t->learner_state = s;
    if (t->c.az_temp_moves == OXO_AZ_TEMP_GAME) /* the game's: every move */
        t->c.az_temp_moves = (uint32_t)g->cells;
    uint32_t widths[OXO_AZ_MAX_LAYERS];
    for (int l = 0; l < OXO_AZ_MAX_LAYERS; l++)
        widths[l] = c->az_width;
    if (oxo_az_shape_of(&s->s, g, widths, (int)c->az_layers, c->az_inputs, err)) {
        oxo_trainer_free(t);
        return NULL;
    }
    s->np = (uint32_t)oxo_az_params(&s->s);
    s->cap = c->az_window;
    s->w = malloc((size_t)s->np * sizeof *s->w);
    s->m = calloc(s->np, sizeof *s->m);
    s->v = calloc(s->np, sizeof *s->v);
    s->grad = malloc((size_t)s->np * sizeof *s->grad);
    s->codes = malloc((size_t)s->cap * sizeof *s->codes);
    s->targets = malloc((size_t)s->cap * (g->moves + 1) * sizeof *s->targets);
    if (truth)
        t->space = oxo_space_build(g, 1);
    if (!s->w || !s->m || !s->v || !s->grad || !s->codes || !s->targets || (truth && !t->space)) {
        oxo_fail(err, OXO_E_NOMEM, "a network of %u parameters and a window of %u positions", s->np,
                 s->cap);
        oxo_trainer_free(t);
        return NULL;
    }
    init_weights(s, c->seed);
    s->net = (oxo_az_net){s->s, s->w};
    if (trainer_workers(t, err))
        return NULL;
    return t;
}

/* A player over the network's bare policy (it borrows the weights: the trainer must outlive
 * it). */
static oxo_player *azero_player(const oxo_trainer *t)
{
    return oxo_player_of_azero(t->g, &state_of(t)->net, 0);
}

/* On every position and line of the table's space, or on the judged set where there is no
 * table, as the other network learners are graded. */
static int azero_grade(const oxo_trainer *t, const float *w, int solve, oxo_grade *g)
{
    (void)w;
    return trainer_grade_player(t, azero_player(t), solve, g);
}

static int azero_to_model(const oxo_trainer *t, oxo_model *m)
{
    const az_state *s = state_of(t);
    const int M = t->g->moves;
    snprintf(m->index, sizeof m->index, "azero");
    m->symmetric = 0;
    m->az_layers = (uint32_t)s->s.layers;
    for (int l = 0; l < s->s.layers; l++)
        m->az_width[l] = (uint32_t)s->s.width[l];
    m->az_inputs = (uint32_t)s->s.inputs;
    m->az_outputs = (uint32_t)M;
    m->az_sims = t->c.az_sims, m->az_games = t->c.az_games, m->az_batch = t->c.az_batch;
    m->az_window = s->cap, m->az_temp_moves = t->c.az_temp_moves, m->az_ratio = t->c.az_ratio;
    m->az_value_q = t->c.az_value_q;
    m->az_random = t->c.az_random;
    m->az_rgames = t->c.az_rgames;
    m->az_rmargin = t->c.az_rmargin;
    m->az_lines = s->s.lines != 0;
    m->az_threats = s->s.threats;
    m->az_steps = s->steps;
    m->az_judged = !t->space;
    m->az_count = s->count;
    m->az_head = s->head;
    m->nvalues = s->np;
    m->values = malloc((size_t)s->np * sizeof *m->values);
    m->az_adam = malloc(2 * (size_t)s->np * sizeof *m->az_adam);
    m->az_codes = malloc((s->count ? s->count : 1) * sizeof *m->az_codes);
    m->az_targets = malloc((s->count ? s->count : 1) * (size_t)(M + 1) * sizeof *m->az_targets);
    if (!m->values || !m->az_adam || !m->az_codes || !m->az_targets)
        return -1;
    memcpy(m->values, s->w, (size_t)s->np * sizeof *s->w);
    memcpy(m->az_adam, s->m, (size_t)s->np * sizeof *s->m);
    memcpy(m->az_adam + s->np, s->v, (size_t)s->np * sizeof *s->v);
    memcpy(m->az_codes, s->codes, (size_t)s->count * sizeof *s->codes);
    memcpy(m->az_targets, s->targets, (size_t)s->count * (M + 1) * sizeof *s->targets);
    return 0;
}

static uint64_t azero_model_extra(const oxo_trainer *t)
{
    const az_state *s = state_of(t);
    return 12 * (uint64_t)s->np + (uint64_t)s->count * (8 + 4 * (uint64_t)(t->g->moves + 1)) + 1024;
}

static int azero_load(oxo_trainer *t, const oxo_model *m, oxo_error *err)
{
    az_state *s = state_of(t);
    const oxo_game *g = t->g;
    const int M = g->moves;
    int same = m->az_layers == (uint32_t)s->s.layers && m->az_inputs == (uint32_t)s->s.inputs &&
               m->az_lines == (s->s.lines != 0) && m->az_threats == s->s.threats &&
               m->az_outputs == (uint32_t)M && m->nvalues == s->np && m->az_window == s->cap;
    for (int l = 0; same && l < s->s.layers; l++)
        same = m->az_width[l] == (uint32_t)s->s.width[l];
    if (!same)
        return oxo_fail(err, OXO_E_ARG, "the model's network or window is not the run's");
    if (m->az_steps && !m->az_count)
        return oxo_fail(err, OXO_E_ARG,
                        "the network was stripped of its window and its optimiser's state "
                        "(oxo-train --strip): it plays, but cannot be resumed");
    for (uint32_t i = 0; i < m->az_count; i++)
        if (oxo_code(g, oxo_decode(g, m->az_codes[i])) != m->az_codes[i] ||
            oxo_status_of(g, oxo_decode(g, m->az_codes[i])) != OXO_ONGOING)
            return oxo_fail(err, OXO_E_FIELD,
                            "azero window position %u is no unfinished position of %s", i, g->spec);
    memcpy(s->w, m->values, (size_t)s->np * sizeof *s->w);
    memcpy(s->m, m->az_adam, (size_t)s->np * sizeof *s->m);
    memcpy(s->v, m->az_adam + s->np, (size_t)s->np * sizeof *s->v);
    memcpy(s->codes, m->az_codes, (size_t)m->az_count * sizeof *s->codes);
    memcpy(s->targets, m->az_targets, (size_t)m->az_count * (M + 1) * sizeof *s->targets);
    s->count = m->az_count;
    s->head = m->az_head;
    s->steps = m->az_steps;
    return 0;
}

static void azero_defaults(oxo_train_config *c)
{
    c->az_sims = 100;
    c->az_games = 64;
    c->az_layers = 2;
    c->az_width = 256;
    c->az_batch = 128;
    c->az_window = 100000;
    c->az_ratio = 4;
    c->az_value_q = 0.5;
    c->az_random = 0.2;
    c->az_rgames = 0.75;
    c->az_rmargin = -1; /* every random move: 0.1 is measured in train/RECORD.md */
    c->az_inputs = OXO_AZ_THREATS;
    c->az_temp_moves = OXO_AZ_TEMP_GAME;
    c->alpha.start = c->alpha.end = 0.001;
}

/* clang-format off */
const oxo_learner oxo_learner_azero = {
    .name = "azero", .algo = OXO_ALGO_AZERO, .graded = OXO_GRADED_EITHER, .defaults = azero_defaults, .create = azero_create,
    .episode = azero_episode, .free_values = azero_free_values, .player = azero_player,
    .grade = azero_grade, .load = azero_load, .to_model = azero_to_model,
    .model_extra = azero_model_extra,
    .cli = {.episodes = OXO_AZERO_ITERATIONS, .inputs = (const char *const[]){"cells", "lines", "threats", NULL},
            .inputs_field = offsetof(oxo_train_config, az_inputs)},
};
/* clang-format on */
