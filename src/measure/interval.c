// SPDX-License-Identifier: MIT
/*
 * interval=: per-interval samples of a job (see interval.h). The worker
 * records; the main thread streams samples as they are published and the
 * report merges the series of clones reported together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"

struct ival_series *ival_series_new(uint64_t interval_ns, bool streamed)
{
	struct ival_series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->interval_ns = interval_ns;
	s->refs = 1;
	s->streamed = streamed;
	atomic_init(&s->published, 0);
	atomic_init(&s->consumed, 0);
	return s;
}

struct ival_series *ival_series_get(struct ival_series *s)
{
	if (s)
		s->refs++;
	return s;
}

static void sample_free(struct ival_sample *smp)
{
	int d;

	for (d = 0; d < DDIR_NR; d++)
		hist_sparse_free(&smp->dir[d].lat);
}

static void sample_init(struct ival_sample *smp)
{
	int d;

	memset(smp, 0, sizeof(*smp));
	for (d = 0; d < DDIR_NR; d++)
		hist_sparse_init(&smp->dir[d].lat);
}

/* Frees head's chunk; its samples up to the n-th of the series were used. */
static void chunk_free_head(struct ival_series *s)
{
	struct ival_chunk *c = s->head;
	size_t i, used = s->n - s->head_index;

	for (i = 0; i < IVAL_CHUNK && i < used; i++)
		sample_free(&c->s[i]);
	s->head = atomic_load_explicit(&c->next, memory_order_relaxed);
	s->head_index += IVAL_CHUNK;
	if (!s->head)
		s->tail = NULL;
	free(c);
}

void ival_series_put(struct ival_series *s)
{
	size_t i;

	if (!s || --s->refs)
		return;
	while (s->head)
		chunk_free_head(s);
	for (i = 0; s->keep && i < s->nkeep; i++)
		sample_free(&s->keep[i]);
	free(s->keep);
	free(s);
}

/*
 * dst = a + b, b shift ns later: counts and histograms added, the
 * earliest start, the latest end. dst may be a (never b).
 */
static int sample_merge(struct ival_sample *dst, const struct ival_sample *a,
			const struct ival_sample *b, uint64_t shift)
{
	uint64_t bs = b->start_ns + shift, be = b->end_ns + shift;
	int d, ret;

	dst->start_ns = a->start_ns < bs ? a->start_ns : bs;
	dst->end_ns = a->end_ns > be ? a->end_ns : be;
	for (d = 0; d < DDIR_NR; d++) {
		dst->dir[d].ios = a->dir[d].ios + b->dir[d].ios;
		dst->dir[d].bytes = a->dir[d].bytes + b->dir[d].bytes;
		ret = hist_sparse_merge(&dst->dir[d].lat, &a->dir[d].lat,
					&b->dir[d].lat);
		if (ret)
			return ret;
	}
	return 0;
}

/* dst (initialized here) = a, shifted shift ns later. */
static int sample_copy(struct ival_sample *dst, const struct ival_sample *a,
		       uint64_t shift)
{
	struct ival_sample none;

	sample_init(dst);
	sample_init(&none);
	none.start_ns = a->start_ns + shift;
	none.end_ns = a->end_ns + shift;
	return sample_merge(dst, &none, a, shift);
}

/*
 * The chunks the reader has left behind: it is done with the samples
 * before `consumed` and holds none of head's once it has taken the first
 * of the next chunk.
 */
static void chunks_reclaim(struct ival_series *s)
{
	size_t done = atomic_load_explicit(&s->consumed,
					   memory_order_acquire);

	while (s->head && s->head != s->tail &&
	       done > s->head_index + IVAL_CHUNK)
		chunk_free_head(s);
}

/*
 * A new chunk is linked in before any of its samples is published, so a
 * reader that sees sample n published also sees the chunk holding it.
 */
static int stream_add(struct ival_series *s, const struct ival_sample *smp)
{
	size_t pos = s->n % IVAL_CHUNK;
	struct ival_chunk *c;
	int ret;

	if (!pos) {		/* no chunk yet, or the last one is full */
		chunks_reclaim(s);
		c = malloc(sizeof(*c));
		if (!c)
			return -ENOMEM;
		atomic_init(&c->next, NULL);
		if (s->tail)
			atomic_store_explicit(&s->tail->next, c,
					      memory_order_release);
		else
			s->head = c;
		s->tail = c;
	}
	ret = sample_copy(&s->tail->s[pos], smp, 0);
	s->n++;
	if (ret)
		return ret;	/* the slot stays unpublished */
	atomic_store_explicit(&s->published, s->n, memory_order_release);
	return 0;
}

/*
 * keep[] is full: adjacent pairs become one, each of twice the span.
 * Samples move down (their buckets with them); what is left above nkeep
 * is stale and is never freed.
 */
static int keep_halve(struct ival_series *s)
{
	size_t i;
	int ret = 0, r;

	for (i = 0; 2 * i < s->nkeep; i++) {
		if (2 * i + 1 < s->nkeep) {
			r = sample_merge(&s->keep[2 * i], &s->keep[2 * i],
					 &s->keep[2 * i + 1], 0);
			ret = ret ? ret : r;
			sample_free(&s->keep[2 * i + 1]);
		}
		if (i)
			s->keep[i] = s->keep[2 * i];
	}
	s->nkeep = i;
	s->fold++;
	return ret;
}

/*
 * The report's side: smp, which spans 2^width intervals (width <= fold),
 * joins the sample that covers its place, or starts the next one; a new
 * slot begins at once when fresh (a run's first sample, after another's).
 */
static int keep_add(struct ival_series *s, const struct ival_sample *smp,
		    unsigned width, uint64_t shift, bool fresh)
{
	uint64_t per;
	int ret;

	if (!s->keep && !(s->keep = calloc(IVAL_KEEP, sizeof(*s->keep))))
		return -ENOMEM;
	if (fresh && s->nbase % (1ull << s->fold))
		s->nbase += (1ull << s->fold) - s->nbase % (1ull << s->fold);
	per = 1ull << s->fold;
	if (s->nkeep && s->nbase % per) {
		ret = sample_merge(&s->keep[s->nkeep - 1],
				   &s->keep[s->nkeep - 1], smp, shift);
		if (ret)
			return ret;
	} else {
		if (s->nkeep == IVAL_KEEP && (ret = keep_halve(s)))
			return ret;
		ret = sample_copy(&s->keep[s->nkeep], smp, shift);
		s->nkeep++;
		if (ret)
			return ret;
	}
	s->nbase += 1ull << width;
	return 0;
}

struct ival_series *ival_series_saved(uint64_t interval_ns, unsigned fold,
				      const struct ival_sample *v, size_t n)
{
	struct ival_series *s = ival_series_new(interval_ns, false);
	size_t i;

	if (!s || n > IVAL_KEEP || fold > 63)
		goto err;
	for (i = 0; i < n; i++)
		if (keep_add(s, &v[i], 0, 0, false))
			goto err;
	s->fold = fold;
	s->nbase = (uint64_t)n << fold;
	return s;
err:
	ival_series_put(s);
	return NULL;
}

int ival_series_add(struct ival_series *s, const struct ival_sample *smp)
{
	int ret = s->streamed ? stream_add(s, smp) : 0;

	return ret ? ret : keep_add(s, smp, 0, 0, false);
}

size_t ival_series_count(const struct ival_series *s)
{
	return s->nkeep;
}

const struct ival_sample *ival_iter_next(struct ival_iter *it,
					 const struct ival_series *s)
{
	if (it->index >= s->nkeep)
		return NULL;
	return &s->keep[it->index++];
}

const struct ival_sample *ival_stream_next(struct ival_iter *it,
					   struct ival_series *s)
{
	/* Done with the one returned last: the writer may free it. */
	atomic_store_explicit(&s->consumed, it->index, memory_order_release);
	if (it->index >= atomic_load_explicit(&s->published,
					      memory_order_acquire))
		return NULL;
	if (!it->c) {
		it->c = s->head;
		it->pos = 0;
	} else if (it->pos == IVAL_CHUNK) {
		it->c = atomic_load_explicit(&it->c->next,
					     memory_order_acquire);
		it->pos = 0;
	}
	it->index++;
	return &it->c->s[it->pos++];
}

struct ival_series *ival_series_merge(const struct ival_series *a,
				      const struct ival_series *b)
{
	unsigned fold = a->fold > b->fold ? a->fold : b->fold;
	struct ival_series *m = ival_series_new(a->interval_ns, false);
	uint64_t pos = 0;
	size_t i, k;

	if (!m)
		return NULL;
	m->fold = fold;
	for (i = 0; i < a->nkeep; i++)
		if (keep_add(m, &a->keep[i], a->fold, 0, false))
			goto err;
	/* b's samples join m's that cover their place, or follow them. */
	for (i = 0; i < b->nkeep; i++, pos += 1ull << b->fold) {
		k = (size_t)(pos >> m->fold);
		if (k >= m->nkeep) {
			if (m->nbase < pos)
				m->nbase = pos;
			if (keep_add(m, &b->keep[i], b->fold, 0, false))
				goto err;
		} else if (sample_merge(&m->keep[k], &m->keep[k],
					&b->keep[i], 0)) {
			goto err;
		}
	}
	return m;
err:
	ival_series_put(m);
	return NULL;
}

struct ival_series *ival_series_append(const struct ival_series *a,
				       const struct ival_series *b,
				       uint64_t offset_ns)
{
	struct ival_series *m = ival_series_new(b->interval_ns, false);
	size_t i;

	if (!m)
		return NULL;
	m->fold = a && a->fold > b->fold ? a->fold : b->fold;
	for (i = 0; a && i < a->nkeep; i++)
		if (keep_add(m, &a->keep[i], a->fold, 0, false))
			goto err;
	for (i = 0; i < b->nkeep; i++)
		if (keep_add(m, &b->keep[i], b->fold, offset_ns, !i))
			goto err;
	return m;
err:
	ival_series_put(m);
	return NULL;
}

double ival_iops(const struct ival_sample *s, int ddir)
{
	uint64_t len = s->end_ns - s->start_ns;

	return len ? (double)s->dir[ddir].ios * 1e9 / (double)len : 0.0;
}

double ival_bw(const struct ival_sample *s, int ddir)
{
	uint64_t len = s->end_ns - s->start_ns;

	return len ? (double)s->dir[ddir].bytes * 1e9 / (double)len : 0.0;
}

static void rec_start(struct ival_rec *r, int d)
{
	r->min[d] = UINT64_MAX;
	r->max[d] = 0;
}

void ival_rec_reset(struct ival_rec *r)
{
	int d;

	r->index = 0;
	for (d = 0; d < DDIR_NR; d++) {
		r->base_ios[d] = 0;
		r->base_bytes[d] = 0;
		hist_init(&r->base_lat[d]);
		rec_start(r, d);
	}
}

struct ival_rec *ival_rec_new(struct ival_series *s)
{
	struct ival_rec *r = malloc(sizeof(*r));

	if (!r)
		return NULL;
	r->series = s;
	sample_init(&r->tmp);
	ival_rec_reset(r);
	return r;
}

void ival_rec_free(struct ival_rec *r)
{
	if (!r)
		return;
	sample_free(&r->tmp);
	free(r);
}

int ival_rec_close(struct ival_rec *r, uint64_t end_ns,
		   const uint64_t ios[DDIR_NR], const uint64_t bytes[DDIR_NR],
		   const struct hist *const lat[DDIR_NR])
{
	uint64_t start = r->index * r->series->interval_ns;
	struct ival_sample *smp = &r->tmp;
	struct hist_sparse *h;
	int d, ret;

	sample_free(smp);
	sample_init(smp);
	smp->start_ns = start;
	smp->end_ns = end_ns > start ? end_ns : start;
	for (d = 0; d < DDIR_NR; d++) {
		h = &smp->dir[d].lat;
		if (lat[d]->count != r->base_lat[d].count) {
			if (hist_sparse_delta(h, lat[d], &r->base_lat[d]))
				return -ENOMEM;
			h->min = r->min[d];
			h->max = r->max[d];
		}
		smp->dir[d].ios = ios[d] - r->base_ios[d];
		smp->dir[d].bytes = bytes[d] - r->base_bytes[d];
	}
	ret = ival_series_add(r->series, smp);
	if (ret)
		return ret;
	for (d = 0; d < DDIR_NR; d++) {
		r->base_ios[d] = ios[d];
		r->base_bytes[d] = bytes[d];
		if (lat[d]->count != r->base_lat[d].count) {
			r->base_lat[d] = *lat[d];
			rec_start(r, d);
		}
	}
	r->index++;
	return 0;
}
