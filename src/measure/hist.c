// SPDX-License-Identifier: MIT
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->b[i] += src->b[i];
}

/*
 * Inverse of hist_index(). Bucket i >= 2 * HIST_SUB holds the values whose
 * top HIST_SUB_BITS + 1 bits are (i % HIST_SUB) + HIST_SUB after a right
 * shift by i / HIST_SUB - 1. An i past the last bucket names the overflow
 * range [2^HIST_MAX_BITS, UINT64_MAX] rather than shifting out of range.
 */
uint64_t hist_bucket_low(unsigned i)
{
	unsigned shift;

	if (i < 2 * HIST_SUB)
		return i;
	if (i >= HIST_NBUCKETS)
		return (uint64_t)1 << HIST_MAX_BITS;
	shift = i / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;
}

uint64_t hist_bucket_high(unsigned i)
{
	unsigned shift;

	if (i < 2 * HIST_SUB)
		return i;
	if (i >= HIST_NBUCKETS)
		return UINT64_MAX;
	shift = i / HIST_SUB - 1;
	return hist_bucket_low(i) + ((uint64_t)1 << shift) - 1;
}

double hist_mean(const struct hist *h)
{
	if (!h->count)
		return 0;
	/* A long double holds any uint64_t exactly: one rounding in total. */
	return (double)((long double)h->sum / h->count);
}

/*
 * n * var = sumsq - sum^2 / n. Split sum^2 / n into quotient q and remainder
 * r so that sumsq - q is exact in 128 bits; only (sumsq - q) - r / n is
 * rounded. This keeps a tiny spread on a huge mean (1e12 +- 1 ns) exact,
 * where sumsq / n - mean^2 in floating point would cancel to noise.
 */
double hist_stddev(const struct hist *h)
{
	unsigned __int128 sq, q;
	uint64_t r;
	long double d;

	if (h->count < 2)
		return 0;
	sq = (unsigned __int128)h->sum * h->sum;
	q = sq / h->count;
	r = (uint64_t)(sq % h->count);
	if (h->sumsq < q)	/* only after sum or sumsq wrapped */
		return 0;
	d = (long double)(h->sumsq - q) - (long double)r / h->count;
	if (d <= 0)
		return 0;
	return (double)sqrtl(d / h->count);
}

/*
 * ceil(p / 100 * n), at least 1 and at most n. p comes as a binary double,
 * so 99.9 is slightly off and 99.9% of 10^6 lands a hair above 999000;
 * a product within a few ulps of an integer is taken as that integer.
 */
uint64_t hist_rank(uint64_t n, double p)
{
	long double x, r;

	if (!(p > 0))		/* also NaN */
		return 1;
	if (p >= 100)
		return n;
	x = (long double)p * n / 100;
	r = roundl(x);
	if (fabsl(x - r) <= x * (4 * DBL_EPSILON))
		x = r;
	x = ceill(x);
	if (x < 1)
		return 1;
	if (x >= n)
		return n;
	return (uint64_t)x;
}

/* Bucket i's midpoint, clamped to [min, max] (see below). */
static uint64_t bucket_value(unsigned i, uint64_t min, uint64_t max)
{
	uint64_t lo = hist_bucket_low(i);
	uint64_t mid = lo + (hist_bucket_high(i) - lo) / 2;

	if (mid < min)
		return min;
	if (mid > max)
		return max;
	return mid;
}

/*
 * The midpoint floor((low + high) / 2) is less than 1/(2 * HIST_SUB) away,
 * relatively, from any value in the bucket; clamping to [min, max] can
 * only move it closer to the true sample, which lies in that range.
 * Ranks 1 and n are min and max themselves, so p100 always equals max.
 */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;
	unsigned i;

	if (!h->count)
		return 0;
	rank = hist_rank(h->count, p);
	if (rank == h->count)	/* the extremes are known exactly */
		return h->max;
	if (rank == 1)
		return h->min;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		return bucket_value(i, h->min, h->max);
	}
	return h->max;		/* rank lies among the overflow samples */
}

/* Sparse histograms: see hist.h for the encoding. */

void hist_sparse_init(struct hist_sparse *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void hist_sparse_free(struct hist_sparse *s)
{
	free(s->enc);
	hist_sparse_init(s);
}

/* Appends v at buf + *pos (buf NULL: only counts the bytes). */
static void put_varint(uint8_t *buf, uint32_t *pos, uint64_t v)
{
	do {
		if (buf)
			buf[*pos] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		(*pos)++;
		v >>= 7;
	} while (v);
}

static uint64_t get_varint(const uint8_t *buf, uint32_t *pos)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = buf[(*pos)++];
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

/*
 * Writes the pairs of h - base, bucket by bucket (base NULL: of h; buf
 * NULL: counts); returns the bytes, and the non-empty buckets in *n.
 */
static uint32_t encode_delta(uint8_t *buf, const struct hist *h,
			     const struct hist *base, uint32_t *n)
{
	uint32_t pos = 0;
	int64_t prev = -1;
	uint64_t c;
	unsigned i;

	*n = 0;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		c = h->b[i] - (base ? base->b[i] : 0);
		if (!c)
			continue;
		put_varint(buf, &pos, (uint64_t)((int64_t)i - prev - 1));
		put_varint(buf, &pos, c);
		prev = i;
		(*n)++;
	}
	return pos;
}

int hist_sparse_delta(struct hist_sparse *s, const struct hist *h,
		      const struct hist *base)
{
	uint32_t n, len = encode_delta(NULL, h, base, &n);
	uint8_t *enc = NULL;

	if (len && !(enc = malloc(len)))
		return -ENOMEM;
	if (len)
		encode_delta(enc, h, base, &n);
	free(s->enc);
	s->count = h->count - (base ? base->count : 0);
	s->overflow = h->overflow - (base ? base->overflow : 0);
	s->min = h->min;
	s->max = h->max;
	s->nbuckets = n;
	s->len = len;
	s->enc = enc;
	return 0;
}

int hist_sparse_from(struct hist_sparse *s, const struct hist *h)
{
	return hist_sparse_delta(s, h, NULL);
}

void hist_sparse_iter_init(struct hist_sparse_iter *it,
			   const struct hist_sparse *s)
{
	it->s = s;
	it->pos = 0;
	it->left = s->nbuckets;
	it->idx = -1;
}

bool hist_sparse_next(struct hist_sparse_iter *it, unsigned *idx,
		      uint64_t *count)
{
	if (!it->left)
		return false;
	it->left--;
	it->idx += (int64_t)get_varint(it->s->enc, &it->pos) + 1;
	*idx = (unsigned)it->idx;
	*count = get_varint(it->s->enc, &it->pos);
	return true;
}

/* Writes a + b's pairs (buf NULL: counts); returns the bytes, *n the
 * buckets. */
static uint32_t encode_merge(uint8_t *buf, const struct hist_sparse *a,
			     const struct hist_sparse *b, uint32_t *n)
{
	struct hist_sparse_iter ia, ib;
	unsigned xa = 0, xb = 0, x;
	uint64_t ca = 0, cb = 0, c;
	bool ha, hb;
	uint32_t pos = 0;
	int64_t prev = -1;

	hist_sparse_iter_init(&ia, a);
	hist_sparse_iter_init(&ib, b);
	ha = hist_sparse_next(&ia, &xa, &ca);
	hb = hist_sparse_next(&ib, &xb, &cb);
	*n = 0;
	while (ha || hb) {
		if (ha && (!hb || xa <= xb)) {
			x = xa;
			c = ca;
			if (hb && xb == xa) {
				c += cb;
				hb = hist_sparse_next(&ib, &xb, &cb);
			}
			ha = hist_sparse_next(&ia, &xa, &ca);
		} else {
			x = xb;
			c = cb;
			hb = hist_sparse_next(&ib, &xb, &cb);
		}
		put_varint(buf, &pos, (uint64_t)((int64_t)x - prev - 1));
		put_varint(buf, &pos, c);
		prev = x;
		(*n)++;
	}
	return pos;
}

int hist_sparse_merge(struct hist_sparse *dst, const struct hist_sparse *a,
		      const struct hist_sparse *b)
{
	uint32_t n, len = encode_merge(NULL, a, b, &n);
	uint8_t *enc = NULL;

	if (len && !(enc = malloc(len)))
		return -ENOMEM;
	if (len)
		encode_merge(enc, a, b, &n);
	/* dst may be a or b: read them all before writing dst */
	dst->count = a->count + b->count;
	dst->overflow = a->overflow + b->overflow;
	dst->min = a->min < b->min ? a->min : b->min;
	dst->max = a->max > b->max ? a->max : b->max;
	free(dst->enc);
	dst->nbuckets = n;
	dst->len = len;
	dst->enc = enc;
	return 0;
}

void hist_sparse_add_to(struct hist *h, const struct hist_sparse *s)
{
	struct hist_sparse_iter it;
	unsigned i;
	uint64_t c;

	h->count += s->count;
	h->overflow += s->overflow;
	if (s->min < h->min)
		h->min = s->min;
	if (s->max > h->max)
		h->max = s->max;
	hist_sparse_iter_init(&it, s);
	while (hist_sparse_next(&it, &i, &c))
		if (i < HIST_NBUCKETS)
			h->b[i] += c;
}

uint64_t hist_sparse_percentile(const struct hist_sparse *s, double p)
{
	struct hist_sparse_iter it;
	uint64_t rank, seen = 0, c;
	unsigned i;

	if (!s->count)
		return 0;
	rank = hist_rank(s->count, p);
	if (rank == s->count)
		return s->max;
	if (rank == 1)
		return s->min;
	hist_sparse_iter_init(&it, s);
	while (hist_sparse_next(&it, &i, &c)) {
		seen += c;
		if (seen < rank)
			continue;
		return bucket_value(i, s->min, s->max);
	}
	return s->max;
}
