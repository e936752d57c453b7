/*
 * The opening book generator (see book.h): enumerates the canonical unfinished positions ply by
 * ply up to the depth, solves the leaves on every core (and every MPI rank), backs the scores up
 * to the start, and writes the partial table. Checkpoints are text, one leaf a line (its score, or
 * what its probe left open), so that a run killed after days keeps all but its last few minutes.
 */
#include "book.h"
#include "book_internal.h"

#include "c4solve.h"
#include "cli.h"
#include "clock.h"
#include "format.h"
#include "keyset.h"
#include "rng.h"
#include "table.h"

#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef OXO_HAVE_MPI
#include <mpi.h>
#endif

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Every canonical unfinished position up to depth stones, by stones; by_ply[d] counts them with
 * all their images (as FORMAT.md's positions_by_ply). */
static int enumerate(const oxo_game *g, int depth, level *L, uint64_t *by_ply)
{
    L[0].n = 1;
    if (!(L[0].code = malloc(sizeof *L[0].code)))
        return -1;
    L[0].code[0] = oxo_canonical_code(g, oxo_start(g), NULL);
    for (int d = 0; d <= depth; d++) {
        by_ply[d] = 0;
        for (size_t i = 0; i < L[d].n; i++)
            by_ply[d] += (uint64_t)oxo_orbit_size(g, oxo_decode(g, L[d].code[i]));
        if (!(L[d].score = malloc(L[d].n ? L[d].n : 1)))
            return -1;
        memset(L[d].score, UNSOLVED, L[d].n);
        if (d == depth)
            break;
        uint64_t *next = malloc((L[d].n * (size_t)g->moves + 1) * sizeof *next);
        size_t k = 0;
        if (!next)
            return -1;
        for (size_t i = 0; i < L[d].n; i++) {
            oxo_pos p = oxo_decode(g, L[d].code[i]);
            for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                oxo_pos c = oxo_play(g, p, __builtin_ctzll(legal));
                if (oxo_status_of(g, c) == OXO_ONGOING)
                    next[k++] = oxo_canonical_code(g, c, NULL);
            }
        }
        qsort(next, k, sizeof *next, cmp_u64);
        size_t u = 0;
        for (size_t i = 0; i < k; i++)
            if (!u || next[i] != next[u - 1])
                next[u++] = next[i];
        uint64_t *shrunk = realloc(next, (u ? u : 1) * sizeof *next);
        L[d + 1].code = shrunk ? shrunk : next;
        L[d + 1].n = u;
    }
    return 0;
}

/* ---- checkpoints: "oxo-book-checkpoint 1", "game SPEC", "depth D", then a line a leaf ---- */

/* ---- solving ---- */

typedef struct run {
    const char *prog;
    const oxo_game *g;
    const oxo_book_opts *o;
    level *leaves;
    oxo_c4solver **sv;
    volatile int *stop;
    int *open; /* per leaf: 0 not probed, else 1 + the score range the probe left open */
    char ckpt[4200];
    double t0, last_ckpt, last_progress;
    size_t todo, done; /* this rank's leaves to solve in this run, and solved so far */
    uint64_t nodes;
    int ckpt_failed;
} run;

static void progress_line(run *r, const char *phase)
{
    double now = oxo_seconds(), el = now - r->t0;
    if (now - r->last_progress < 0.5 && r->done < r->todo)
        return;
    r->last_progress = now;
    double eta = r->done ? el * (double)(r->todo - r->done) / (double)r->done : 0;
    fprintf(stderr, "\r%s: book of %s to depth %d: %zu/%zu leaves (%s), %.0f s, ETA %.0f s   ",
            r->prog, r->g->spec, r->o->depth, r->done, r->todo, phase, el, eta);
}

/* Solves the leaves idx[0..n) (each thread its own solver), within node_budget each (0: none);
 * with a budget (the probe), r->open[leaf] receives 1 + how wide the score's range stayed for
 * those not finished. */
static void solve_batch(run *r, const uint32_t *idx, size_t n, uint64_t node_budget,
                        const char *phase)
{
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t k = 0; k < n; k++) {
        if (*r->stop)
            continue;
        oxo_c4solver *s = r->sv[omp_get_thread_num()];
        uint32_t i = idx[k];
        uint64_t n0 = oxo_c4solver_nodes(s);
        oxo_c4solver_node_budget(s, node_budget);
        oxo_c4solver_stop_flag(s, r->stop);
        int score = oxo_c4solve(s, oxo_decode(r->g, r->leaves->code[i]), 0);
        int aborted = oxo_c4solver_aborted(s);
        if (!aborted)
            __atomic_store_n(&r->leaves->score[i], (int8_t)score, __ATOMIC_RELAXED);
        else if (node_budget) {
            int lo, hi;
            oxo_c4solver_range(s, &lo, &hi);
            __atomic_store_n(&r->open[i], hi - lo + 1, __ATOMIC_RELAXED); /* 0: not probed */
        }
#pragma omp critical(oxo_book)
        {
            r->nodes += oxo_c4solver_nodes(s) - n0;
            r->done += !aborted;
            double now = oxo_seconds();
            if (!aborted && r->ckpt[0] && r->o->checkpoint_secs > 0 &&
                now - r->last_ckpt >= r->o->checkpoint_secs) {
                r->ckpt_failed |=
                    ckpt_write(r->prog, r->ckpt, r->g, r->o->depth, r->leaves, r->open) != 0;
                r->last_ckpt = oxo_seconds();
            }
            if (r->o->progress)
                progress_line(r, phase);
        }
    }
}

static const int *sort_key; /* the open range of each leaf, for by_open_desc */
static int by_open_desc(const void *a, const void *b)
{
    /* Widest open range first; the leaf's number breaks ties, so the order is fixed. */
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int ox = sort_key[x], oy = sort_key[y];
    if (ox != oy)
        return oy - ox;
    return (x > y) - (x < y);
}

/* The score of every shallower position from its children's (negamax), the deepest level first. */
static void back_up(const oxo_game *g, level *L, int depth)
{
    for (int d = depth - 1; d >= 0; d--) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < L[d].n; i++) {
            oxo_pos p = oxo_decode(g, L[d].code[i]);
            int best = -100;
            for (uint64_t legal = oxo_legal(g, p); legal; legal &= legal - 1) {
                oxo_pos c = oxo_play(g, p, __builtin_ctzll(legal));
                oxo_status st = oxo_status_of(g, c);
                int v = st == OXO_OVER_LOSS ? oxo_c4_win_score(g, d)
                        : st == OXO_OVER_DRAW
                            ? 0
                            : -L[d + 1].score[find(&L[d + 1], oxo_canonical_code(g, c, NULL))];
                best = v > best ? v : best;
            }
            L[d].score[i] = (int8_t)best;
        }
    }
}

typedef struct pair {
    uint64_t code;
    uint8_t entry;
} pair;
static int by_code(const void *a, const void *b)
{
    return cmp_u64(&((const pair *)a)->code, &((const pair *)b)->code);
}

static int write_book(const char *prog, const oxo_game *g, const level *L, int depth,
                      const uint64_t *by_ply, const char *out, long long *bytes)
{
    size_t n = 0;
    for (int d = 0; d <= depth; d++)
        n += L[d].n;
    pair *pr = malloc((n ? n : 1) * sizeof *pr);
    uint64_t *codes = malloc((n ? n : 1) * sizeof *codes);
    uint8_t *entries = malloc(n ? n : 1);
    if (!pr || !codes || !entries) {
        free(pr), free(codes), free(entries);
        fprintf(stderr, "%s: out of memory for a book of %zu positions\n", prog, n);
        return OXO_EXIT_FAIL;
    }
    size_t k = 0;
    for (int d = 0; d <= depth; d++)
        for (size_t i = 0; i < L[d].n; i++) {
            int s = L[d].score[i];
            int v = s > 0 ? OXO_WIN : s < 0 ? OXO_LOSS : OXO_DRAW;
            pr[k++] = (pair){L[d].code[i], OXO_ENTRY(v, oxo_c4_score_distance(g, s, d))};
        }
    qsort(pr, n, sizeof *pr, by_code);
    for (size_t i = 0; i < n; i++)
        codes[i] = pr[i].code, entries[i] = pr[i].entry;
    free(pr);
    oxo_table t;
    memset(&t, 0, sizeof t);
    t.major = OXO_TABLE_MAJOR_BITMAP;
    snprintf(t.game, sizeof t.game, "%s", g->spec);
    t.rows = (uint32_t)g->height, t.cols = (uint32_t)g->width;
    snprintf(t.index, sizeof t.index, "sorted-codes");
    t.symmetric = 1;
    for (int d = 0; d <= depth; d++)
        t.counts.positions += by_ply[d];
    t.counts.canonical_positions = t.counts.canonical_nonterminal_positions = n;
    int r0 = L[0].score[0];
    snprintf(t.root_value, sizeof t.root_value, "%s", r0 > 0 ? "win" : r0 < 0 ? "loss" : "draw");
    snprintf(t.generator, sizeof t.generator, "oxo-gen %s", OXO_VERSION);
    t.n = (uint32_t)n;
    t.entries = entries;
    t.nplies = (uint32_t)depth + 1;
    memcpy(t.by_ply, by_ply, (size_t)(depth + 1) * sizeof *by_ply);
    t.code_space = oxo_code_space(g);
    t.codes = codes;
    t.depth = (uint32_t)depth;
    t.borrowed = 1;
    oxo_error err;
    int rc = oxo_table_write(out, &t, &err);
    if (rc)
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    struct stat st;
    *bytes = !rc && stat(out, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
    free(codes), free(entries);
    return rc ? OXO_EXIT_FAIL : OXO_EXIT_OK;
}

/* --sample: solves n leaves drawn at random and projects the cost of them all. */
static int sample_main(run *r, const uint64_t *by_ply)
{
    const oxo_game *g = r->g;
    const level *lv = r->leaves;
    size_t n = (size_t)r->o->sample < lv->n ? (size_t)r->o->sample : lv->n;
    uint32_t *idx = malloc((lv->n ? lv->n : 1) * sizeof *idx);
    double *secs = malloc((n ? n : 1) * sizeof *secs);
    uint64_t *nodes = malloc((n ? n : 1) * sizeof *nodes);
    if (!idx || !secs || !nodes) {
        free(idx), free(secs), free(nodes);
        fprintf(stderr, "%s: out of memory\n", r->prog);
        return OXO_EXIT_FAIL;
    }
    /* A partial Fisher-Yates shuffle: n distinct leaves, the same for a seed. */
    uint64_t rng = oxo_rng_stream(r->o->seed, 0x626f6f6bull);
    for (size_t i = 0; i < lv->n; i++)
        idx[i] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + oxo_rng_below(&rng, (uint32_t)(lv->n - i));
        uint32_t t = idx[i];
        idx[i] = idx[j], idx[j] = t;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t k = 0; k < n; k++) {
        if (*r->stop)
            continue;
        oxo_c4solver *s = r->sv[omp_get_thread_num()];
        uint64_t n0 = oxo_c4solver_nodes(s);
        double t0 = oxo_seconds();
        oxo_c4solver_stop_flag(s, r->stop);
        oxo_c4solve(s, oxo_decode(g, lv->code[idx[k]]), 0);
        secs[k] = oxo_seconds() - t0;
        nodes[k] = oxo_c4solver_nodes(s) - n0;
    }
    if (*r->stop) {
        free(idx), free(secs), free(nodes);
        return oxo_cli_signal_status(*r->stop);
    }
    double total = 0, med = 0;
    uint64_t tn = 0;
    for (size_t k = 0; k < n; k++)
        total += secs[k], tn += nodes[k];
    qsort(secs, n, sizeof *secs, cmp_double);
    med = n ? (n & 1 ? secs[n / 2] : (secs[n / 2 - 1] + secs[n / 2]) / 2) : 0;
    double mean = n ? total / (double)n : 0, core_secs = mean * (double)lv->n;
    if (r->o->json) {
        printf("{\"game\":");
        oxo_json_str(stdout, g->spec);
        printf(",\"depth\":%d,\"positions_by_ply\":[", r->o->depth);
        for (int d = 0; d <= r->o->depth; d++)
            printf("%s%llu", d ? "," : "", (unsigned long long)by_ply[d]);
        printf("],\"leaves\":%zu,\"sampled\":%zu,\"seed\":%llu,\"mean_seconds\":%.6f,\"median_"
               "seconds\":%.6f,"
               "\"mean_nodes\":%.0f,\"projected_core_hours\":%.3f,\"threads\":%d}\n",
               lv->n, n, (unsigned long long)r->o->seed, mean, med, n ? (double)tn / (double)n : 0,
               core_secs / 3600, omp_get_max_threads());
    } else {
        char a[32];
        printf("%s, book to depth %d: %s leaves (canonical positions with %d stones)\n", g->spec,
               r->o->depth, oxo_group(lv->n, a), r->o->depth);
        if (n)
            printf("  %zu sampled (seed %llu): mean %.4f s, median %.4f s, %.0f nodes a leaf\n"
                   "  projected: %.4g core-hours, %.4g hours on %d cores\n",
                   n, (unsigned long long)r->o->seed, mean, med, (double)tn / (double)n,
                   core_secs / 3600, core_secs / 3600 / omp_get_max_threads(),
                   omp_get_max_threads());
    }
    free(idx), free(secs), free(nodes);
    return OXO_EXIT_OK;
}

/* Started by mpirun (Open MPI, or any launcher with PMI): only then is MPI set up, so a plain run
 * never pays for it nor depends on a working MPI installation. */
static int launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

static void free_levels(level *L, int depth)
{
    for (int d = 0; d <= depth; d++)
        free(L[d].code), free(L[d].score);
}

/* ---- what the MPI ranks share (nothing without MPI) ---- */

/* The greatest of v over the ranks (collective: every rank calls it). */
static int all_ranks_max(int mpi, int v)
{
#ifdef OXO_HAVE_MPI
    int any = v;
    if (mpi)
        MPI_Allreduce(&v, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
#else
    (void)mpi;
    return v;
#endif
}

/* Every rank stops when any cannot go on (rank 0 alone checks the output, and an unwritable one
 * made it skip the collectives the others entered: MPI_ERR_TRUNCATE, exit 15), so that the
 * collectives after it are skipped by all ranks or by none. */
static int all_ranks_rc(int mpi, int rc, int rank, const char *prog)
{
    const int anybad = all_ranks_max(mpi, rc);
    if (!rc && anybad)
        fprintf(stderr, "%s: rank %d stops: another rank cannot go on (said above)\n", prog, rank);
    return rc ? rc : anybad;
}

/* Every rank learns every probe's result (and whether any was stopped), so that the leaves left
 * are shared out hardest first across the ranks, not only within each. */
static void share_probes(int mpi, run *r, volatile int *stop)
{
    const int any = all_ranks_max(mpi, *stop);
    if (any && !*stop)
        *stop = any;
#ifdef OXO_HAVE_MPI
    for (size_t off = 0; mpi && off < r->leaves->n; off += (size_t)1 << 28) {
        size_t cnt = r->leaves->n - off < ((size_t)1 << 28) ? r->leaves->n - off : (size_t)1 << 28;
        MPI_Allreduce(MPI_IN_PLACE, r->leaves->score + off, (int)cnt, MPI_SIGNED_CHAR, MPI_MAX,
                      MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, r->open + off, (int)cnt, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
#else
    (void)r;
#endif
}

/* Every rank's scores to every rank (an unsolved leaf is INT8_MIN, below every score), and the
 * nodes and leaves solved by all ranks in this run. */
static void gather_scores(int mpi, run *r)
{
#ifdef OXO_HAVE_MPI
    if (!mpi)
        return;
    for (size_t off = 0; off < r->leaves->n; off += (size_t)1 << 30) {
        size_t cnt = r->leaves->n - off < ((size_t)1 << 30) ? r->leaves->n - off : (size_t)1 << 30;
        MPI_Allreduce(MPI_IN_PLACE, r->leaves->score + off, (int)cnt, MPI_SIGNED_CHAR, MPI_MAX,
                      MPI_COMM_WORLD);
    }
    uint64_t all, here = r->todo, todo;
    MPI_Allreduce(&r->nodes, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&here, &todo, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    r->nodes = all;
    r->todo = (size_t)todo;
#else
    (void)mpi, (void)r;
#endif
}

/* MPI set up when the run was started by mpirun (not for --sample): 1 with this rank and the
 * number of ranks, 0 for a plain run, -1 for a rank that must stop (said). */
static int start_mpi(const char *prog, const oxo_book_opts *o, int *rank, int *ranks)
{
#ifdef OXO_HAVE_MPI
    if (o->sample < 0 && launched_by_mpi()) {
        int provided;
        MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
        MPI_Comm_rank(MPI_COMM_WORLD, rank);
        MPI_Comm_size(MPI_COMM_WORLD, ranks);
        return 1;
    }
#else
    if (o->sample < 0 && launched_by_mpi() && getenv("OMPI_COMM_WORLD_RANK") &&
        strcmp(getenv("OMPI_COMM_WORLD_RANK"), "0")) {
        /* Every rank would build the whole book and write the same file: let rank 0 alone. */
        fprintf(
            stderr,
            "%s: this build has no MPI (install libopenmpi-dev and rebuild); rank %s stops, rank 0 "
            "builds the book alone\n",
            prog, getenv("OMPI_COMM_WORLD_RANK"));
        return -1;
    }
#endif
    (void)prog, (void)rank, (void)ranks;
    return 0;
}

/* What --book cannot do, refused before any work: a game the solver does not serve, a depth past
 * the end, codes wider than a word, an enumeration far beyond this machine's memory. 0, else the
 * exit status. */
static int book_refused(const char *prog, const oxo_game *g, const oxo_book_opts *o)
{
    if (!g->solver) {
        fprintf(
            stderr,
            "%s: --book uses the Connect-4 solver; %s is not Connect-4 (oxo-gen solves it whole)\n",
            prog, g->spec);
        return OXO_EXIT_USAGE;
    }
    if (o->depth >= g->max_plies) {
        fprintf(stderr, "%s: --book %d: %s ends within %d stones\n", prog, o->depth, g->spec,
                g->max_plies);
        return OXO_EXIT_USAGE;
    }
    if (!oxo_code_space(g)) {
        /* A book's codes are below 2^(W(H+1)), which must fit a 64-bit word with room for the bound
         * (connect4:8,7 solved every leaf and then could not write its book). */
        fprintf(stderr,
                "%s: --book: the positions of %s take %d bits, and a book's codes at most 63 (W x "
                "(H + 1) "
                "up to 63)\n",
                prog, g->spec, g->code_bits);
        return OXO_EXIT_USAGE;
    }
    /* What the enumeration would hold, bounded from the rules (about 8 bytes a canonical position,
     * half the images), against this machine's memory: --book 30 on 7x6 enumerated until memory
     * ran out. The bound is loose (about 10 times the positions at depth 14 on 7x6), so only what
     * exceeds four times the memory is refused. */
    uint64_t most = oxo_positions_most(g, o->depth);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double need = (double)most * 4.0,
           have = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
    if (have > 0 && need > 4 * have) {
        fprintf(stderr,
                "%s: --book %d: %s may have up to %.3g positions with up to %d stones (about %.0f "
                "GB to "
                "enumerate), far more than this machine's %.0f GB; a book to fewer stones, or the "
                "solver alone "
                "(oxo-play --game %s) past it\n",
                prog, o->depth, g->spec, (double)most, o->depth, need / 1e9, have / 1e9, g->spec);
        return OXO_EXIT_FAIL;
    }
    return 0;
}

/* The solvers: one transposition table for all threads (its entries are single atomic words, as
 * in the lazy SMP of one position: the threads' leaves share many subtrees), a helper for each
 * thread. 0, else the exit status. */
static int open_solvers(run *r, int threads)
{
    if (!(r->sv = calloc((size_t)threads, sizeof *r->sv)))
        return OXO_EXIT_FAIL;
    if (!(r->sv[0] = oxo_c4solver_new(r->g, r->o->tt_mb * (unsigned)threads))) {
        fprintf(stderr, "%s: out of memory for a %u MB transposition table per thread\n", r->prog,
                r->o->tt_mb);
        return OXO_EXIT_FAIL;
    }
    for (int i = 1; i < threads; i++)
        if (!(r->sv[i] = oxo_c4solver_helper(r->sv[0], 0))) {
            fprintf(stderr, "%s: out of memory\n", r->prog);
            return OXO_EXIT_FAIL;
        }
    return 0;
}

/* Interrupted: whatever was solved, kept for --resume (where a checkpoint can go). */
static void save_interrupted(const run *r)
{
    size_t solved = 0;
    for (size_t i = 0; i < r->leaves->n; i++)
        solved += r->leaves->score[i] != UNSOLVED;
    if (!r->ckpt[0])
        fprintf(stderr,
                "%s: interrupted; %zu of %zu leaves were solved, and not kept: %s is not a regular "
                "file, so no checkpoint goes beside it\n",
                r->prog, solved, r->leaves->n, r->o->out);
    else if (ckpt_write(r->prog, r->ckpt, r->g, r->o->depth, r->leaves, r->open) == 0)
        fprintf(
            stderr,
            "%s: interrupted; %zu of %zu leaves solved are saved in %s: run the same command with "
            "--resume to go on\n",
            r->prog, solved, r->leaves->n, r->ckpt);
}

/* The finished book's figures (rank 0): positions, the start's score and each column's, the
 * leaves solved and resumed, the time, as text or JSON. */
static void print_book(const run *r, const level *L, const uint64_t *by_ply, long resumed,
                       int threads, int ranks, long long bytes)
{
    const oxo_game *g = r->g;
    const oxo_book_opts *o = r->o;
    double secs = oxo_seconds() - r->t0;
    size_t n = 0;
    for (int d = 0; d <= o->depth; d++)
        n += L[d].n;
    const oxo_pos start = oxo_start(g);
    int scores[OXO_MAX_MOVES], known[OXO_MAX_MOVES];
    for (int m = 0; m < g->moves; m++) {
        known[m] = 0;
        if (!(oxo_legal(g, start) >> m & 1) || o->depth < 1)
            continue;
        oxo_pos c = oxo_play(g, start, m);
        int64_t i = find(&L[1], oxo_canonical_code(g, c, NULL));
        if (i >= 0)
            scores[m] = -L[1].score[i], known[m] = 1;
    }
    double per_core = secs > 0 ? (double)r->todo / secs / (double)threads / (double)ranks : 0;
    if (o->json) {
        printf("{\"game\":");
        oxo_json_str(stdout, g->spec);
        uint64_t all = 0;
        for (int d = 0; d <= o->depth; d++)
            all += by_ply[d];
        printf(
            ",\"depth\":%d,\"positions\":%llu,\"canonical_positions\":%zu,\"positions_by_ply\":[",
            o->depth, (unsigned long long)all, n);
        for (int d = 0; d <= o->depth; d++)
            printf("%s%llu", d ? "," : "", (unsigned long long)by_ply[d]);
        printf("],\"leaves\":%zu,\"solved\":%zu,\"resumed\":%ld,\"score\":%d,\"scores\":[",
               r->leaves->n, r->todo, resumed, L[0].score[0]);
        for (int m = 0; m < g->moves; m++) {
            if (m)
                printf(",");
            if (known[m])
                printf("%d", scores[m]);
            else
                printf("null");
        }
        printf("],\"nodes\":%llu,\"seconds\":%.3f,\"threads\":%d,\"ranks\":%d,\"leaves_per_second_"
               "per_core\":%.1f,"
               "\"output\":",
               (unsigned long long)r->nodes, secs, threads, ranks, per_core);
        oxo_json_str(stdout, o->out);
        bytes >= 0 ? printf(",\"bytes\":%lld}\n", bytes) : printf(",\"bytes\":null}\n");
    } else {
        char a[32], b[32];
        printf("%s, book to depth %d: %s positions (%s leaves solved, %ld from checkpoints)\n",
               g->spec, o->depth, oxo_group(n, a), oxo_group(r->todo, b), resumed);
        printf("  start: score %d; columns:", L[0].score[0]);
        for (int m = 0; m < g->moves; m++)
            known[m] ? printf(" %d", scores[m]) : printf(" -");
        printf("\n  solved in %.3f s on %d thread%s x %d rank%s (%.1f leaves a second a core)\n",
               secs, threads, threads > 1 ? "s" : "", ranks, ranks > 1 ? "s" : "", per_core);
        if (bytes >= 0)
            printf("wrote %s (%lld bytes)\n", o->out, bytes);
        else /* not a regular file (a device, a FIFO): no size to tell */
            printf("wrote %s\n", o->out);
    }
}

int oxo_book_main(const char *prog, const oxo_game *g, const oxo_book_opts *o)
{
    int rc = book_refused(prog, g, o);
    if (rc)
        return rc;
    int rank = 0, ranks = 1, mpi = start_mpi(prog, o, &rank, &ranks);
    if (mpi < 0)
        return OXO_EXIT_FAIL;
    oxo_error err;
    level L[65];
    memset(L, 0, sizeof L);
    uint64_t by_ply[65] = {0};
    volatile int stop = 0;
    run r;
    memset(&r, 0, sizeof r);
    uint32_t *mine = NULL; /* this rank's leaves to solve */
    int *open = NULL;      /* run.open */
    r.prog = prog, r.g = g, r.o = o, r.stop = &stop,
    r.t0 = r.last_ckpt = r.last_progress = oxo_seconds();
    ckpt_name(o->out ? o->out : "", rank, ranks, r.ckpt, sizeof r.ckpt);
    /* Checkpoints go beside a file: an output that is a device or a pipe (-o /dev/null) gets none
     * (it wrote /dev/null.ckpt into /dev). */
    struct stat ost;
    if (o->out && stat(o->out, &ost) == 0 && !S_ISREG(ost.st_mode))
        r.ckpt[0] = 0;
    ckpt_list gl = {0};
    int nck = o->sample < 0 && r.ckpt[0] ? ckpt_find(o->out, &gl) : 0;
    if (o->sample < 0 && rank == 0 && oxo_atomic_probe(o->out, &err)) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        rc = OXO_EXIT_FAIL;
    } else if (nck < 0) {
        fprintf(stderr, "%s: out of memory looking for checkpoints\n", prog);
        rc = OXO_EXIT_FAIL;
    } else if (nck > 0 && !o->resume) {
        if (rank == 0)
            fprintf(
                stderr,
                "%s: %s holds the work of an interrupted run: take it up with --resume, or remove "
                "it to start again\n",
                prog, gl.v[0]);
        rc = OXO_EXIT_FAIL;
    } else if (enumerate(g, o->depth, L, by_ply)) {
        fprintf(stderr, "%s: out of memory enumerating %s to %d stones\n", prog, g->spec, o->depth);
        rc = OXO_EXIT_FAIL;
    }
    r.leaves = &L[o->depth];
    int threads = omp_get_max_threads();
    if (!rc)
        rc = open_solvers(&r, threads);
    /* The first signal stops the solves at once (a leaf under way is lost, no more); its work is
     * saved to the checkpoint; a second ends the process. */
    oxo_cli_signals((int *)&stop, oxo_atomic_abort);
    if (!rc && o->sample >= 0) {
        rc = sample_main(&r, by_ply);
        goto done;
    }
    size_t nmine = 0;
    if (!rc && (!(mine = malloc((r.leaves->n + 1) * sizeof *mine)) ||
                !(open = calloc(r.leaves->n + 1, sizeof *open)))) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = OXO_EXIT_FAIL;
    }
    r.open = open;
    long resumed = 0;
    for (int i = 0; !rc && i < nck; i++) {
        long got = ckpt_read(prog, gl.v[i], g, o->depth, r.leaves, open);
        if (got < 0)
            rc = OXO_EXIT_FAIL;
        else
            resumed += got;
    }
    rc = all_ranks_rc(mpi, rc, rank, prog);
    /* The probe: this rank's share, every ranks-th leaf neither solved nor probed, in code
     * order. */
    for (size_t i = 0; !rc && i < r.leaves->n; i++)
        if (i % (size_t)ranks == (size_t)rank && r.leaves->score[i] == UNSOLVED && !open[i])
            mine[nmine++] = (uint32_t)i;
    r.todo = nmine;
    if (!rc)
        solve_batch(&r, mine, nmine, PROBE_NODES, "probe");
    if (!rc)
        share_probes(mpi, &r, &stop);
    if (!rc && !stop) {
        /* The leaves the probe left, the widest open score range first (hardest first; the
         * leaf's number breaks ties), every ranks-th of them for this rank. */
        size_t nh = 0, k = 0;
        for (size_t i = 0; i < r.leaves->n; i++)
            if (r.leaves->score[i] == UNSOLVED)
                mine[nh++] = (uint32_t)i;
        sort_key = open;
        qsort(mine, nh, sizeof *mine, by_open_desc);
        for (size_t j = (size_t)rank; j < nh; j += (size_t)ranks)
            mine[k++] = mine[j];
        r.todo = r.done + k;
        solve_batch(&r, mine, k, 0, "solve");
    }
    r.todo = r.done; /* the leaves this rank solved in this run */
    if (o->progress)
        fprintf(stderr, "\n");
    int stopped = stop;
    stopped = all_ranks_max(mpi, stopped);
    const int any_rc = all_ranks_max(mpi, rc); /* every rank takes part, failed or not */
    if (!rc)
        rc = any_rc;
    if (!rc && stopped) {
        save_interrupted(&r);
        rc = oxo_cli_signal_status(stopped);
        goto done;
    }
    if (!rc)
        gather_scores(mpi, &r);
    for (size_t i = 0; !rc && i < r.leaves->n; i++)
        if (r.leaves->score[i] == UNSOLVED) {
            fprintf(stderr, "%s: leaf %zu was solved by no rank\n", prog, i);
            rc = OXO_EXIT_FAIL;
        }
    long long bytes = -1;
    if (!rc) {
        back_up(g, L, o->depth);
        if (rank == 0)
            rc = write_book(prog, g, L, o->depth, by_ply, o->out, &bytes);
    }
#ifdef OXO_HAVE_MPI
    if (mpi) {
        /* Checkpoints go only once the book is saved: rank 0 says whether it is. */
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
#endif
    if (!rc && r.ckpt[0])
        ckpt_remove(o->out);
    if (!rc && rank == 0)
        print_book(&r, L, by_ply, resumed, threads, ranks, bytes);
done:
    free(mine), free(open);
    for (int i = threads - 1; r.sv && i >= 0; i--) /* the helpers before the table's owner */
        oxo_c4solver_free(r.sv[i]);
    free(r.sv);
    free_levels(L, o->depth);
    ckpt_list_free(&gl);
    if (r.ckpt_failed && !rc)
        fprintf(stderr, "%s: warning: a checkpoint could not be written (see above)\n", prog);
#ifdef OXO_HAVE_MPI
    if (mpi)
        MPI_Finalize();
#endif
    (void)mpi;
    return rc;
}
