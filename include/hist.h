/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HIST_H
#define IORIG_HIST_H

#include <stdbool.h>
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

/*
 * One count of leading zeros, no branch: v | HIST_SUB has its top bit at
 * HIST_SUB_BITS or above, so shift is 0 for v < 2 * HIST_SUB (exact
 * buckets, index v) and msb - HIST_SUB_BITS above, as the layout says.
 */
static inline unsigned hist_index(uint64_t v)
{
	unsigned shift = 63u - HIST_SUB_BITS -
			 (unsigned)__builtin_clzll(v | HIST_SUB);

	return shift * HIST_SUB + (unsigned)(v >> shift);
}

/*
 * hist_index for the hot path: the same index as (msb << HIST_SUB_BITS)
 * + (v >> shift) - (HIST_SUB_BITS << HIST_SUB_BITS), msb the top bit of
 * v | HIST_SUB (one bsr: 63 ^ clz, which gcc takes as bsr where 63 -
 * clz made it xor and subtract), in 64 bits so that the constant folds
 * into the bucket's address: one instruction fewer per sample.
 */
static inline uint64_t hist_index_hot(uint64_t v)
{
	uint64_t msb;

#if defined(__x86_64__)
	/* bsr itself: gcc's took the bit's number as an int, widened by a
	 * cltq per sample */
	__asm__("bsr %1, %0" : "=r"(msb) : "rm"(v | HIST_SUB) : "cc");
#else
	msb = 63 ^ __builtin_clzll(v | HIST_SUB);
#endif

	return (msb << HIST_SUB_BITS) + (v >> (msb - HIST_SUB_BITS)) -
	       ((uint64_t)HIST_SUB_BITS << HIST_SUB_BITS);
}

/* hist_add for v < 2^HIST_MAX_BITS, which the caller checked. */
static inline void hist_add_fit(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->b[hist_index_hot(v)]++;
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
	if (__builtin_expect(v >> HIST_MAX_BITS, 0))
		h->overflow++;
	else
		h->b[hist_index_hot(v)]++;
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
/*
 * The rank of percentile p among n samples, as hist_percentile takes it:
 * ceil(p/100 * n) (a product within a few ulps of an integer taken as that
 * integer), at least 1 and at most n.
 */
uint64_t hist_rank(uint64_t n, double p);

/*
 * A histogram stored compactly: its non-empty buckets as (index gap,
 * count) pairs of LEB128 varints in enc, indexes ascending, the gap being
 * the distance from the previous index minus one. Exact: decoding gives
 * back every bucket count; with count, overflow, min and max it answers
 * percentiles exactly as the full histogram does. sum and sumsq are not
 * kept. An empty one has nbuckets 0 and enc NULL.
 */
struct hist_sparse {
	uint64_t count;		/* samples, overflow included */
	uint64_t overflow;
	uint64_t min;		/* UINT64_MAX when empty */
	uint64_t max;
	uint32_t nbuckets;	/* non-empty buckets */
	uint32_t len;		/* bytes of enc */
	uint8_t *enc;
};

/* A walk over the buckets of a hist_sparse. */
struct hist_sparse_iter {
	const struct hist_sparse *s;
	uint32_t pos;		/* byte offset in enc */
	uint32_t left;		/* buckets not yet returned */
	int64_t idx;		/* index of the last one, -1 before the first */
};

void hist_sparse_init(struct hist_sparse *s);
/* s (initialized, its old buckets freed) = h. 0 or -ENOMEM. */
int hist_sparse_from(struct hist_sparse *s, const struct hist *h);
/*
 * s (initialized, its old buckets freed) = h - base: the samples h got
 * since it was base (an earlier copy of it), bucket by bucket; min and
 * max are h's, which only the caller can narrow. 0 or -ENOMEM.
 */
int hist_sparse_delta(struct hist_sparse *s, const struct hist *h,
		      const struct hist *base);
/* dst (initialized, its old buckets freed) = a + b. 0 or -ENOMEM. */
int hist_sparse_merge(struct hist_sparse *dst, const struct hist_sparse *a,
		      const struct hist_sparse *b);
void hist_sparse_free(struct hist_sparse *s);
void hist_sparse_iter_init(struct hist_sparse_iter *it,
			   const struct hist_sparse *s);
/* The next non-empty bucket: false after the last. */
bool hist_sparse_next(struct hist_sparse_iter *it, unsigned *idx,
		      uint64_t *count);
/* Adds s's samples to h (counts, overflow, min, max; not sum, sumsq). */
void hist_sparse_add_to(struct hist *h, const struct hist_sparse *s);
/* As hist_percentile() on the full histogram. */
uint64_t hist_sparse_percentile(const struct hist_sparse *s, double p);

#endif
