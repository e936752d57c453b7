/*
 * The end of a round: the workers' copies merged into the shared values in a fixed order (each
 * entry some worker touched becomes the mean of those workers' values, summed in worker order), so
 * that the model depends on the number of workers and never on the threads; by lists of the entries
 * touched (td), with the best Q of their nodes (q), or by marks alone and pairwise on 2 workers (a
 * network's weights). train.c's rounds call these, on one thread or slice by slice on the team.
 */
#include "trainer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void merge_all_max(const oxo_space *s, const float *q, float *vmax)
{
    for (uint32_t i = 0; i < s->n; i++)
        vmax[i] = s->first[i] < s->first[i + 1] ? node_max(s, q, i) : 0.0f;
}

static inline void merge_entry(oxo_trainer *t, int64_t i)
{
    double sum = 0;
    int cnt = 0;
    for (uint32_t k = 0; k < t->c.workers; k++)
        if (bit_get(t->w[k].touched, (uint32_t)i)) {
            sum += t->w[k].local[i];
            cnt++;
        }
    if (cnt)
        t->values[i] = (float)(sum / cnt);
}

/* merge_entry, then the merged value written to every worker's copy (the first worker's is the
 * shared one). */
static inline void merge_refresh(oxo_trainer *t, uint32_t i)
{
    merge_entry(t, i);
    for (uint32_t k = 1; k < t->c.workers; k++)
        t->w[k].local[i] = t->values[i];
}

/* Slice q at the end of a round: the entries some worker touched, each once, become the mean of
 * those workers' values (merge_entry). Only this slice's marks and lists are written. */
void merge_slice(oxo_trainer *t, uint32_t q)
{
    const size_t base = (size_t)q << SLICE_SHIFT;
    uint32_t *u = t->ulist + base, n = 0;
    for (uint32_t k = 0; k < t->c.workers; k++) {
        const uint32_t *l = t->w[k].tlist + base;
        for (uint32_t j = 0; j < t->w[k].tcnt[q]; j++)
            if (!bit_get(t->umark, l[j])) {
                bit_set(t->umark, l[j]);
                u[n++] = l[j];
            }
    }
    t->ucnt[q] = n;
    for (uint32_t j = 0; j < n; j++)
        merge_entry(t, u[j]);
}

/* The merge of slice q for an n-tuple network, whose workers mark the weights they write and list
 * none (nt_write): the marks are read a word at a time, so the weights are merged in the order of
 * their addresses. A round of 7x6's network on 2 workers writes about a quarter of its million
 * weights; their lists, in the order the weights were first written, made nearly every read of the
 * merge a cache miss, and each first write of a round appended to them. Each weight is merged as
 * merge_lists merges it (merge_refresh: the mean of the values of the workers that wrote it, copied
 * to every copy), so the same bytes: 2 workers over the run made 1.17x more games a second
 * (63,211 against 54,016, medians of 5 interleaved pairs of 1,000,000 games), the merge 0.3 s of a
 * 6 s run of 500,000 games. */
static void merge_marks(oxo_trainer *t, uint32_t q)
{
    const uint32_t W = t->c.workers;
    const size_t words = (t->nvalues + 63) / 64, lo = ((size_t)q << SLICE_SHIFT) >> 6;
    const size_t end = ((size_t)(q + 1) << SLICE_SHIFT) >> 6, hi = end < words ? end : words;
    float *val = t->values;
    for (size_t j = lo; j < hi; j++) {
        uint64_t any = 0;
        for (uint32_t k = 0; k < W; k++)
            any |= t->w[k].touched[j];
        if (!any)
            continue;
        if (W == 2) {
            /* The common case written out (the first worker's values are the shared ones): the
             * same sums as merge_entry's, in the same order. */
            const uint64_t a = t->w[0].touched[j], b = t->w[1].touched[j];
            float *other = t->w[1].local;
            for (uint64_t m = any; m; m &= m - 1) {
                const uint32_t i = (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m));
                const uint64_t bit = m & -m;
                if ((a & bit) && (b & bit))
                    val[i] = (float)(((double)val[i] + (double)other[i]) / 2);
                else if (b & bit)
                    val[i] = other[i];
                other[i] = val[i];
            }
        } else
            for (uint64_t m = any; m; m &= m - 1)
                merge_refresh(t, (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m)));
        for (uint32_t k = 0; k < W; k++)
            t->w[k].touched[j] = 0;
    }
}

/* Slice q at the end of a round when no best Q is kept, for td (a network's: merge_marks): the
 * merge and the refresh of the workers' copies in one pass over each worker's list, with no union
 * list. An entry is merged
 * where it first appears, in the list of the first worker that touched it (merge_entry: the mean
 * of the values of the workers that touched it), and written to every copy at once; the first
 * worker's values are the shared ones, so an entry only it touched is only copied. The marks are
 * cleared last. Against a union list built first and three passes over it (the merge, the copies,
 * the marks), 7x6's n-tuple network on 2 workers made 14% more moves a second (1,000,000 games,
 * medians of 4 interleaved runs: 1.62x one worker instead of 1.42x), with the same bytes. */
static void merge_lists(oxo_trainer *t, uint32_t q)
{
    const uint32_t W = t->c.workers;
    const size_t base = (size_t)q << SLICE_SHIFT;
    for (uint32_t k = 0; k < W; k++) {
        const uint32_t *l = t->w[k].tlist + base, n = t->w[k].tcnt[q];
        for (uint32_t j = 0; j < n; j++) {
            const uint32_t i = l[j];
            uint32_t first = 0;
            while (!bit_get(t->w[first].touched, i))
                first++;
            if (first < k)
                continue; /* merged with an earlier worker's list */
            merge_refresh(t, i);
        }
    }
    for (uint32_t k = 0; k < W; k++) {
        worker *w = &t->w[k];
        const uint32_t *l = w->tlist + base, n = w->tcnt[q];
        if (n > 1024) { /* a slice's marks are 1024 words of their own */
            const size_t lo = base >> 6, hi = ((size_t)(q + 1) << SLICE_SHIFT) >> 6,
                         words = (t->nvalues + 63) / 64;
            memset(w->touched + lo, 0, ((hi < words ? hi : words) - lo) * sizeof *w->touched);
        } else
            for (uint32_t j = 0; j < n; j++)
                bit_clear(w->touched, l[j]);
        w->tcnt[q] = 0;
    }
}

/* Slice q at the end of a round when no best Q is kept: a network's by its marks, td's by its
 * lists (td's merge was 2.6% of the CPU time of 3,000,000 episodes on mnk:4,4,4 with 2 workers,
 * under perf: marks would gain little there). */
void merge_values(oxo_trainer *t, uint32_t q)
{
    if (t->learner->merge_marks)
        merge_marks(t, q);
    else
        merge_lists(t, q);
}

/* The merge of a network's round on 2 workers played by a team, in two steps for each worker,
 * taken by the thread that played it (a barrier between them): merge_post lists the weights the
 * worker wrote, with their values, in its outbox; merge_pair then reads the other worker's outbox
 * and brings its own copy up to date: a weight both wrote becomes the mean of the two values, one
 * only the other wrote takes the other's value (merge_marks's sums: (double)a + b is b + a, so
 * the same bytes as the merge by slices, which lone rounds still use). Each thread thus writes
 * only the weights its own worker plays on and reads the other's only from the outbox, in order.
 * The merge by slices writes both copies from whichever thread merges a slice, so after it each
 * worker finds many of its lines in the other core's cache, modified, and its next round fetches
 * them back one random read at a time (a round of 1,000 games writes a quarter of 7x6's weights):
 * on some spells of this host the workers' play took about a quarter longer than with no merge at
 * all (train/RECORD.md, the speed of the n-tuple learner). */
void merge_post(oxo_trainer *t, uint32_t k)
{
    worker *w = &t->w[k];
    const size_t words = (t->nvalues + 63) / 64;
    uint32_t n = 0;
    for (size_t j = 0; j < words; j++)
        for (uint64_t m = w->touched[j]; m; m &= m - 1) {
            const uint32_t i = (uint32_t)(j * 64 + (uint32_t)__builtin_ctzll(m));
            w->outbox[2 * (size_t)n] = i;
            memcpy(&w->outbox[2 * (size_t)n + 1], &w->local[i], sizeof(float));
            n++;
        }
    w->nout = n;
}

void merge_pair(oxo_trainer *t, uint32_t k)
{
    worker *w = &t->w[k];
    const worker *o = &t->w[1 - k];
    float *own = w->local;
    for (uint32_t j = 0; j < o->nout; j++) {
        const uint32_t i = o->outbox[2 * (size_t)j];
        float v;
        memcpy(&v, &o->outbox[2 * (size_t)j + 1], sizeof v);
        own[i] = bit_get(w->touched, i) ? (float)(((double)own[i] + (double)v) / 2) : v;
    }
    /* Only this thread reads these marks (the other reads the outbox), so it clears them. */
    memset(w->touched, 0, (t->nvalues + 63) / 64 * sizeof *w->touched);
}

/* Whether a team round merges by outboxes (merge_post, merge_pair): a network on 2 workers. */
int merges_pairwise(const oxo_trainer *t)
{
    return t->learner->merge_marks && t->c.workers == 2;
}

/* q: the best Q of the nodes whose moves changed (a node's moves may lie in two slices, so after
 * all of them), and each worker's copy of those. */
void merge_union_max(oxo_trainer *t)
{
    for (uint32_t q = 0; q < t->nslices; q++)
        for (uint32_t j = 0; j < t->ucnt[q]; j++) {
            uint32_t e = t->ulist[((size_t)q << SLICE_SHIFT) + j];
            t->vmax[t->enode[e]] = node_max(t->space, t->values, t->enode[e]);
        }
}

void merge_worker_max(oxo_trainer *t, int64_t k)
{
    if (t->w[k].vmax == t->vmax) /* the first worker's are the shared ones */
        return;
    for (uint32_t q = 0; q < t->nslices; q++)
        for (uint32_t j = 0; j < t->ucnt[q]; j++) {
            uint32_t u = t->enode[t->ulist[((size_t)q << SLICE_SHIFT) + j]];
            t->w[k].vmax[u] = t->vmax[u];
        }
}

/* Slice q of every worker starts the next round from the shared values: only the entries touched
 * this round (by any worker) can differ. */
void merge_reset_slice(oxo_trainer *t, uint32_t q)
{
    const uint32_t *u = t->ulist + ((size_t)q << SLICE_SHIFT);
    for (uint32_t k = 0; k < t->c.workers; k++) {
        worker *w = &t->w[k];
        if (w->local != t->values)
            for (uint32_t j = 0; j < t->ucnt[q]; j++)
                w->local[u[j]] = t->values[u[j]];
        for (uint32_t j = 0; j < t->ucnt[q]; j++)
            bit_clear(w->touched, u[j]);
        w->tcnt[q] = 0;
    }
    for (uint32_t j = 0; j < t->ucnt[q]; j++)
        bit_clear(t->umark, u[j]);
    t->ucnt[q] = 0;
}

/* End of a round on one thread: each entry some worker touched becomes the mean of those workers'
 * values, summed in worker order; then every worker starts the next round from the shared values.
 * The cost is that of the entries touched, not of all (millions on 4x4 boards). */
void merge_round(oxo_trainer *t)
{
    const uint32_t W = t->c.workers;
    if (W == 1)
        return;
    if (!t->vmax) {
        for (uint32_t q = 0; q < t->nslices; q++)
            merge_values(t, q);
        return;
    }
    for (uint32_t q = 0; q < t->nslices; q++)
        merge_slice(t, q);
    merge_union_max(t);
    for (uint32_t k = 0; k < W; k++)
        merge_worker_max(t, k);
    for (uint32_t q = 0; q < t->nslices; q++)
        merge_reset_slice(t, q);
}
