// SPDX-License-Identifier: MIT
#include <float.h>
#include <math.h>
#include <stdint.h>
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
static uint64_t hist_rank(uint64_t n, double p)
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

/*
 * The midpoint floor((low + high) / 2) is less than 1/(2 * HIST_SUB) away,
 * relatively, from any value in the bucket; clamping to [min, max] can
 * only move it closer to the true sample, which lies in that range.
 * Ranks 1 and n are min and max themselves, so p100 always equals max.
 */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, mid;
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
		lo = hist_bucket_low(i);
		mid = lo + (hist_bucket_high(i) - lo) / 2;
		if (mid < h->min)
			return h->min;
		if (mid > h->max)
			return h->max;
		return mid;
	}
	return h->max;		/* rank lies among the overflow samples */
}
