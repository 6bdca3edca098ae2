/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HIST_H
#define IORIG_HIST_H

#include <stdint.h>

/*
 * Log-linear latency histogram in nanoseconds.
 *
 * Values below 2 * HIST_SUB are counted exactly (one bucket per ns). Above,
 * each power of two [2^m, 2^(m+1)) is split into HIST_SUB equal buckets, so a
 * bucket is at most 1/HIST_SUB of its lower bound wide and its midpoint is
 * within 1/(2*HIST_SUB) = 0.39% of any value in it.
 * Buckets cover [0, 2^HIST_MAX_BITS) ns (2^43 ns is about 2.4 hours); larger
 * values are counted in `overflow` and still update min, max, sum, sumsq,
 * so nothing is clamped silently. min, max, sum and sumsq are exact.
 */
#define HIST_SUB_BITS	7
#define HIST_SUB	(1u << HIST_SUB_BITS)
#define HIST_MAX_BITS	43
#define HIST_NBUCKETS	((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;		/* all samples, overflow included */
	uint64_t overflow;	/* samples >= 2^HIST_MAX_BITS */
	uint64_t min;		/* UINT64_MAX when empty */
	uint64_t max;
	uint64_t sum;		/* wraps only after ~584 years of latency */
	unsigned __int128 sumsq;
	uint64_t b[HIST_NBUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return shift * HIST_SUB + (unsigned)(v >> shift);
}

/* Hot path: no branches beyond the range checks. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v >> HIST_MAX_BITS)
		h->overflow++;
	else
		h->b[hist_index(v)]++;
}

void hist_init(struct hist *h);
/* dst += src: counts add, min/max combine, sums add. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Lowest and highest value (inclusive) counted in bucket i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);	/* population stddev */
/*
 * Value at percentile p (0 < p <= 100): the sample of rank ceil(p/100 * n)
 * in sorted order, estimated as its bucket's midpoint and clamped to
 * [min, max]. Overflow samples are represented by max. 0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
