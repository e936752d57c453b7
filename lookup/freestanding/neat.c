/*
 * A NEAT network as liboxo and the freestanding player both evaluate it (lookup/neat.h says what
 * the network is): the inputs of a board, every computed node in order, and the output nodes'
 * sums. This file owns that arithmetic, once: lookup/neat.c computes every network output through
 * it (the trainer's fitness and the player's moves), and oxo-export writes it into the player it
 * exports of a NEAT model (--form c), so an exported champion gives liboxo's scores bit for bit.
 */
#include "host.h" /* and board.c before this file */
#include "tanh.c"

typedef struct oxp_neat {
    int cells;             /* inputs: one a cell, then the bias, then the tactics' (below) */
    int outputs;           /* one a move, or one for a network of afterstates (below) */
    int nodes;             /* oxp_neat_inputs + outputs + hidden */
    int ncomp;             /* the nodes computed (outputs and hidden), sources before targets */
    const uint32_t *comp;  /* ncomp node numbers, in order */
    const uint32_t *first; /* ncomp + 1: node comp[i]'s links are first[i] .. first[i + 1] - 1 */
    const uint32_t *src;   /* each link's source node */
    const oxp_weight *w;   /* and weight */
    /* A network of oriented inputs (FORMAT.md: a NEAT model with `symmetric` true) sees each board
     * in one orientation of its class: nsym maps of the board's symmetries, where each cell goes
     * (perm, nsym rows of cells) and each move (mperm, nsym rows of outputs). nsym 0: the board
     * as it is. */
    int nsym;
    const uint8_t *perm, *mperm;
    /* A network of tactics (FORMAT.md: a NEAT model with `tactics` true) reads three more
     * inputs a move, from the board's lines and gravity (oxp_neat_tactics); 0: the cells alone
     * (and board may be NULL). */
    int tactics;
    const oxp_board *board;
    /* A network of afterstates (FORMAT.md: a NEAT model with `afterstate` true) scores each move
     * apart: its inputs are the board after the move (the mover's stones 1, with the move's) and
     * the move's three tactics, its one output the move's score, so that one set of weights
     * scores the tactics and the cells of every move alike (oxp_neat_afterstates). It reads the
     * tactics (tactics is 1). */
    int afterstate;
} oxp_neat;

/* The number of inputs: a cell each, the bias, and with tactics three a move (three of the one
 * move a network of afterstates scores). */
static inline int oxp_neat_inputs(const oxp_neat *n)
{
    return n->cells + 1 + (n->afterstate ? 3 : n->tactics ? 3 * n->outputs : 0);
}

/* The tactics' inputs of the board (mine, theirs), three a move into in (3 x moves floats, 0 for
 * a move that cannot be played): 1 when the move completes a line of mine (it wins), 1 when it
 * fills the cell that would complete a line of theirs (it blocks), and 1 when, after it, a move
 * of theirs completes a line (it lets them win; 0 for a move that wins). A side's threat is an
 * empty cell whose line holds that side's stones on every other cell. With gravity, the move
 * makes the cell above it playable, else it only takes its own cell. The judged set of 7x6 is
 * drawn from random play, and in 656 of its 1,000 positions a win is there to take or a threat
 * to block, which a network of the cells alone has to find from the conjunction of four cells
 * and the one below (train/RECORD.md, session 53). */
static inline void oxp_neat_tactics(const oxp_board *b, oxp_mask mine, oxp_mask theirs, float *in)
{
    const oxp_mask occ = mine | theirs;
    oxp_mask threat[2] = {0, 0}, playable = 0; /* mine, theirs */
    int cell[64];                              /* the cell each move fills, -1 none */
    for (int l = 0; l < b->nlines; l++) {
        const oxp_mask line = b->lines[l], empty = line & ~occ;
        if (!empty || (empty & (empty - 1)))
            continue; /* not exactly one empty cell */
        if (!(line & theirs))
            threat[0] |= empty;
        else if (!(line & mine))
            threat[1] |= empty;
    }
    for (int m = 0; m < b->moves; m++) {
        cell[m] = oxp_board_cell(b, occ, m);
        if (cell[m] >= 0)
            playable |= (oxp_mask)1 << cell[m];
    }
    for (int m = 0; m < b->moves; m++) {
        const int c = cell[m];
        float *f = in + 3 * m;
        f[0] = f[1] = f[2] = 0;
        if (c < 0)
            continue;
        const oxp_mask here = (oxp_mask)1 << c;
        oxp_mask after = playable & ~here;
        if (b->gravity && c >= b->width)
            after |= here >> b->width; /* the cell above, rows numbered from the top */
        f[0] = (float)((threat[0] & here) != 0);
        f[1] = (float)((threat[1] & here) != 0);
        f[2] = (float)(!(threat[0] & here) && (threat[1] & after) != 0);
    }
}

/* The NEAT paper's steepened sigmoid, 1 / (1 + e^(-4.9 x)), as (1 + tanh(2.45 x)) / 2: the same
 * function, from the tanh written out (tanh.c), so that no library's exponential enters. */
static inline float oxp_neat_sigmoid(float x)
{
    return 0.5f + 0.5f * oxp_tanh(2.45f * x);
}

/* The computed nodes, from the inputs already in act (act: scratch of `nodes` floats, each node's
 * output), and the output nodes' sums (before their sigmoid) into out (outputs floats; 0 for an
 * output nothing enters). */
static inline void oxp_neat_pass(const oxp_neat *n, float *act, float *out)
{
    const uint32_t lo = (uint32_t)oxp_neat_inputs(n), hi = lo + (uint32_t)n->outputs;
    for (int i = (int)lo; i < n->nodes; i++)
        act[i] = 0.5f; /* a node nothing enters: sigmoid(0) */
    for (int i = 0; i < n->outputs; i++)
        out[i] = 0;
    for (int i = 0; i < n->ncomp; i++) {
        float x = 0;
        for (uint32_t e = n->first[i]; e < n->first[i + 1]; e++)
            x += oxp_W(n->w, e) * act[n->src[e]];
        act[n->comp[i]] = oxp_neat_sigmoid(x);
        if (n->comp[i] >= lo && n->comp[i] < hi)
            out[n->comp[i] - lo] = x;
    }
}

/* The cells' inputs and the bias: 1 for a stone of mine, -1 for theirs, 0 for an empty cell,
 * then 1. */
static inline void oxp_neat_cells(const oxp_neat *n, oxp_mask mine, oxp_mask theirs, float *act)
{
    for (int c = 0; c < n->cells; c++)
        act[c] = (float)((int)(mine >> c & 1) - (int)(theirs >> c & 1));
    act[n->cells] = 1.0f;
}

/* The output nodes' sums (before their sigmoid) for the board of the side to move (mine) and the
 * other side (theirs), into out (outputs floats; 0 for an output nothing enters). act: scratch of
 * `nodes` floats, each node's output: the inputs oxp_neat_cells, then with tactics
 * oxp_neat_tactics. */
static inline void oxp_neat_outputs(const oxp_neat *n, oxp_mask mine, oxp_mask theirs, float *act,
                                    float *out)
{
    oxp_neat_cells(n, mine, theirs, act);
    if (n->tactics)
        oxp_neat_tactics(n->board, mine, theirs, act + n->cells + 1);
    oxp_neat_pass(n, act, out);
}

/* Of the images of the board (mine, theirs) under the network's nsym maps, the one whose other
 * side's mask is least, then the mover's (of the orders tried on tic-tac-toe, the one whose
 * networks learnt every line against the perfect player: train/RECORD.md): its map's number, the
 * images of every map into im and it. */
static inline int oxp_neat_orient(const oxp_neat *n, oxp_mask mine, oxp_mask theirs, oxp_mask *im,
                                  oxp_mask *it)
{
    int best = 0;
    for (int s = 0; s < n->nsym && s < 8; s++) {
        im[s] = oxp_image(n->perm + s * n->cells, n->cells, mine);
        it[s] = oxp_image(n->perm + s * n->cells, n->cells, theirs);
        if (it[s] < it[best] || (it[s] == it[best] && im[s] < im[best]))
            best = s;
    }
    return best;
}

/* A network of afterstates' sums for every move of the board (mine to move, theirs) into out (the
 * board's moves; 0 for a move that cannot be played): for each move its output on the board after
 * it, seen by the side that played it (oriented, with nsym maps, as oxp_neat_orient says: a
 * board's twin moves give twin afterstates, which score alike), with the move's tactics read on
 * the board before it. act: scratch of `nodes` floats. */
static inline void oxp_neat_afterstates(const oxp_neat *n, oxp_mask mine, oxp_mask theirs,
                                        float *act, float *out)
{
    const oxp_board *b = n->board;
    const oxp_mask occ = mine | theirs;
    float tac[3 * 64];
    oxp_neat_tactics(b, mine, theirs, tac);
    for (int m = 0; m < b->moves; m++) {
        const int c = oxp_board_cell(b, occ, m);
        out[m] = 0;
        if (c < 0)
            continue;
        oxp_mask after = mine | (oxp_mask)1 << c, them = theirs;
        if (n->nsym > 1) {
            oxp_mask im[8], it[8]; /* a square has 8 symmetries */
            const int s = oxp_neat_orient(n, after, them, im, it);
            after = im[s];
            them = it[s];
        }
        oxp_neat_cells(n, after, them, act);
        for (int k = 0; k < 3; k++)
            act[n->cells + 1 + k] = tac[3 * m + k];
        oxp_neat_pass(n, act, out + m);
    }
}

/* A move's score from its output's sum x: x / (1 + |x|), in (-1, 1) and in the order of x. */
static inline float oxp_neat_score(float x)
{
    return x / (1 + (x < 0 ? -x : x));
}

/* The output sums a network gives the moves of the board (mine, theirs), as oxp_neat_outputs,
 * but for a network of oriented inputs seen in the board's orientation (oxp_neat_orient). A move's
 * sum is its image's output there; on a board that some maps leave as it is, the best of its
 * images' outputs under every map that gives that image, so that twin moves score alike and no
 * numbering of the maps decides between them. A network of afterstates: oxp_neat_afterstates.
 * act: scratch of `nodes` floats; tmp: of `outputs` floats; out: of the board's moves. */
static inline void oxp_neat_board(const oxp_neat *n, oxp_mask mine, oxp_mask theirs, float *act,
                                  float *tmp, float *out)
{
    if (n->afterstate) {
        oxp_neat_afterstates(n, mine, theirs, act, out);
        return;
    }
    if (n->nsym <= 1) {
        oxp_neat_outputs(n, mine, theirs, act, out);
        return;
    }
    oxp_mask im[8], it[8]; /* a square has 8 symmetries */
    const int best = oxp_neat_orient(n, mine, theirs, im, it);
    oxp_neat_outputs(n, im[best], it[best], act, tmp);
    for (int m = 0; m < n->outputs; m++) {
        out[m] = tmp[n->mperm[best * n->outputs + m]];
        for (int s = best + 1; s < n->nsym && s < 8; s++)
            if (im[s] == im[best] && it[s] == it[best] &&
                tmp[n->mperm[s * n->outputs + m]] > out[m])
                out[m] = tmp[n->mperm[s * n->outputs + m]];
    }
}
