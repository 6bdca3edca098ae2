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

struct ival_series *ival_series_new(uint64_t interval_ns)
{
	struct ival_series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->interval_ns = interval_ns;
	s->refs = 1;
	atomic_init(&s->published, 0);
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

void ival_series_put(struct ival_series *s)
{
	struct ival_chunk *c, *next;
	size_t i, n;

	if (!s || --s->refs)
		return;
	n = s->n;
	for (c = s->head; c; c = next) {
		next = c->next;
		for (i = 0; i < IVAL_CHUNK && i < n; i++)
			sample_free(&c->s[i]);
		n -= n < IVAL_CHUNK ? n : IVAL_CHUNK;
		free(c);
	}
	free(s);
}

static void sample_init(struct ival_sample *smp)
{
	int d;

	memset(smp, 0, sizeof(*smp));
	for (d = 0; d < DDIR_NR; d++)
		hist_sparse_init(&smp->dir[d].lat);
}

/*
 * A new chunk is linked in before any of its samples is published, so a
 * reader that sees sample n published also sees the chunk holding it.
 */
struct ival_sample *ival_series_next(struct ival_series *s)
{
	size_t pos = s->n % IVAL_CHUNK;
	struct ival_chunk *c;

	if (!pos) {		/* no chunk yet, or the last one is full */
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->next = NULL;
		if (s->tail)
			s->tail->next = c;
		else
			s->head = c;
		s->tail = c;
	}
	sample_init(&s->tail->s[pos]);
	s->n++;
	return &s->tail->s[pos];
}

void ival_series_publish(struct ival_series *s)
{
	atomic_store_explicit(&s->published, s->n, memory_order_release);
}

size_t ival_series_count(const struct ival_series *s)
{
	return atomic_load_explicit(&s->published, memory_order_acquire);
}

const struct ival_sample *ival_iter_next(struct ival_iter *it,
					 const struct ival_series *s)
{
	if (it->index >= ival_series_count(s))
		return NULL;
	if (!it->c) {
		it->c = s->head;
		it->pos = 0;
	} else if (it->pos == IVAL_CHUNK) {
		it->c = it->c->next;
		it->pos = 0;
	}
	it->index++;
	return &it->c->s[it->pos++];
}

static int sample_merge(struct ival_sample *dst, const struct ival_sample *a,
			const struct ival_sample *b)
{
	int d, ret;

	dst->start_ns = a->start_ns < b->start_ns ? a->start_ns : b->start_ns;
	dst->end_ns = a->end_ns > b->end_ns ? a->end_ns : b->end_ns;
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

/* A copy is a merge with nothing. */
static int sample_copy(struct ival_sample *dst, const struct ival_sample *a)
{
	struct ival_sample none;

	sample_init(&none);
	none.start_ns = a->start_ns;
	none.end_ns = a->end_ns;
	return sample_merge(dst, a, &none);
}

struct ival_series *ival_series_merge(const struct ival_series *a,
				      const struct ival_series *b)
{
	struct ival_iter ia = IVAL_ITER_INIT, ib = IVAL_ITER_INIT;
	const struct ival_sample *sa, *sb;
	struct ival_series *m = ival_series_new(a->interval_ns);
	struct ival_sample *dst;
	int ret;

	if (!m)
		return NULL;
	for (;;) {
		sa = ival_iter_next(&ia, a);
		sb = ival_iter_next(&ib, b);
		if (!sa && !sb)
			break;
		dst = ival_series_next(m);
		if (!dst)
			goto err;
		ret = sa && sb ? sample_merge(dst, sa, sb) :
		      sample_copy(dst, sa ? sa : sb);
		ival_series_publish(m);
		if (ret)
			goto err;
	}
	return m;
err:
	ival_series_put(m);
	return NULL;
}

/* Copies every sample of s to the end of m, later by shift ns. */
static int series_copy(struct ival_series *m, const struct ival_series *s,
		       uint64_t shift)
{
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *src;
	struct ival_sample *dst;
	int ret;

	while ((src = ival_iter_next(&it, s))) {
		dst = ival_series_next(m);
		if (!dst)
			return -ENOMEM;
		ret = sample_copy(dst, src);
		dst->start_ns += shift;
		dst->end_ns += shift;
		ival_series_publish(m);
		if (ret)
			return ret;
	}
	return 0;
}

struct ival_series *ival_series_append(const struct ival_series *a,
				       const struct ival_series *b,
				       uint64_t offset_ns)
{
	struct ival_series *m = ival_series_new(b->interval_ns);

	if (!m)
		return NULL;
	if ((a && series_copy(m, a, 0)) || series_copy(m, b, offset_ns)) {
		ival_series_put(m);
		return NULL;
	}
	return m;
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

int ival_rec_close(struct ival_rec *r, uint64_t end_ns,
		   const uint64_t ios[DDIR_NR], const uint64_t bytes[DDIR_NR],
		   const struct hist *const lat[DDIR_NR])
{
	uint64_t start = r->index * r->series->interval_ns;
	struct ival_sample *smp = ival_series_next(r->series);
	struct hist_sparse *h;
	int d;

	if (!smp)
		return -ENOMEM;
	smp->start_ns = start;
	smp->end_ns = end_ns > start ? end_ns : start;
	for (d = 0; d < DDIR_NR; d++) {
		h = &smp->dir[d].lat;
		if (lat[d]->count != r->base_lat[d].count) {
			if (hist_sparse_delta(h, lat[d], &r->base_lat[d]))
				goto nomem;
			h->min = r->min[d];
			h->max = r->max[d];
		}
		smp->dir[d].ios = ios[d] - r->base_ios[d];
		smp->dir[d].bytes = bytes[d] - r->base_bytes[d];
	}
	ival_series_publish(r->series);
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
nomem:
	/* The slot stays unpublished (and is freed with the series). */
	return -ENOMEM;
}
