// SPDX-License-Identifier: MIT
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"

/* The header promises the midpoint is within 1/(2 * HIST_SUB) = 0.39%. */
#define MAX_REL_ERR	0.004
#define NSAMPLES	1000000u
#define TOP		((uint64_t)1 << HIST_MAX_BITS)

/* splitmix64: deterministic, seeded, good enough to drive distributions. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]: never 0, so log() and pow(u, -a) stay finite. */
static double rng_unit(struct rng *r)
{
	return (double)((rng_next(r) >> 11) + 1) * 0x1p-53;
}

static double rng_normal(struct rng *r)
{
	double u1 = rng_unit(r), u2 = rng_unit(r);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static uint64_t to_ns(double x)
{
	if (!(x > 0))
		return 0;
	if (x >= 0x1p62)
		return (uint64_t)1 << 62;
	return (uint64_t)x;
}

static uint64_t gen_uniform(struct rng *r)
{
	return rng_next(r) >> 44;		/* [0, 2^20) ns */
}

static uint64_t gen_small(struct rng *r)
{
	return rng_next(r) % 600;	/* exact buckets and the first few */
}

static uint64_t gen_exponential(struct rng *r)
{
	return to_ns(-log(rng_unit(r)) * 100e3);	/* mean 100 us */
}

static uint64_t gen_lognormal(struct rng *r)
{
	return to_ns(exp(log(200e3) + 1.5 * rng_normal(r)));
}

static uint64_t gen_pareto(struct rng *r)
{
	return to_ns(10e3 * pow(rng_unit(r), -1 / 1.1));	/* alpha 1.1 */
}

/* 70% near 50 us, 30% near 20 ms: percentiles jump between the modes. */
static uint64_t gen_bimodal(struct rng *r)
{
	if (rng_next(r) % 10 < 7)
		return to_ns(50e3 + 5e3 * rng_normal(r));
	return to_ns(exp(log(20e6) + 0.3 * rng_normal(r)));
}

/* Log-uniform from 1 ns to 2 hours. */
static uint64_t gen_logspan(struct rng *r)
{
	return to_ns(exp(rng_unit(r) * log(7200e9)));
}

struct dist {
	const char *name;
	uint64_t (*gen)(struct rng *r);
	uint64_t seed;
};

static const struct dist dists[] = {
	{ "uniform",     gen_uniform,     1 },
	{ "small",       gen_small,       2 },
	{ "exponential", gen_exponential, 3 },
	{ "lognormal",   gen_lognormal,   4 },
	{ "pareto1.1",   gen_pareto,      5 },
	{ "bimodal",     gen_bimodal,     6 },
	{ "ns-to-hours", gen_logspan,     7 },
};

/*
 * LSD radix sort, a byte per pass; a pass where every key has the same
 * byte is skipped. Several times faster than qsort() on 10^6 keys, which
 * keeps the suite well under its time budget.
 */
static void sort_u64(uint64_t *v, size_t n)
{
	uint64_t *tmp = test_malloc(n * sizeof(*v)), *src = v, *dst = tmp;
	uint64_t *t;
	size_t cnt[256], i, sum, c;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 8) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[i] >> shift) & 0xff]++;
		if (cnt[(src[0] >> shift) & 0xff] == n)
			continue;
		for (sum = 0, i = 0; i < 256; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	test_free(tmp);
}

/* Rank ceil(p / 100 * n) with p given in hundredths of a percent. */
static uint64_t rank_of(uint64_t n, unsigned p100)
{
	uint64_t rank = (p100 * n + 9999) / 10000;

	return rank ? rank : 1;
}

static double rel_err(uint64_t est, uint64_t exact)
{
	if (exact == 0)
		return est == 0 ? 0 : INFINITY;
	return fabs((double)est - (double)exact) / (double)exact;
}

static void exact_stats(const uint64_t *v, size_t n, long double *mean,
			long double *sd)
{
	long double m = 0, ss = 0, d;
	size_t i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (i = 0; i < n; i++) {
		d = v[i] - m;
		ss += d * d;
	}
	*mean = m;
	*sd = sqrtl(ss / n);
}

static void assert_close(long double got, long double want, long double tol)
{
	long double scale = fabsl(want) > 1 ? fabsl(want) : 1;

	if (fabsl(got - want) > tol * scale) {
		print_message("got %.17Lg, want %.17Lg\n", got, want);
		fail();
	}
}

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->overflow, b->overflow);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_memory_equal(a->b, b->b, sizeof(a->b));
}

static struct hist *hist_new(void)
{
	struct hist *h = test_malloc(sizeof(*h));

	hist_init(h);
	return h;
}

static void test_bounds(void **state)
{
	unsigned i;
	uint64_t lo, hi;

	assert_int_equal(hist_bucket_low(0), 0);
	for (i = 0; i < HIST_NBUCKETS; i++) {
		lo = hist_bucket_low(i);
		hi = hist_bucket_high(i);
		assert_true(lo <= hi);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		/* the hot path's form gives the same bucket */
		assert_int_equal(hist_index_hot(lo), i);
		assert_int_equal(hist_index_hot(hi), i);
		if (i + 1 < HIST_NBUCKETS) {
			assert_int_equal(hist_index(hi + 1), i + 1);
			assert_int_equal(hist_index_hot(hi + 1), i + 1);
			assert_int_equal(hist_bucket_low(i + 1), hi + 1);
		}
		/* width <= low / HIST_SUB keeps the midpoint within 0.39% */
		if (i >= 2 * HIST_SUB)
			assert_true((hi - lo + 1) * HIST_SUB <= lo);
	}
	assert_int_equal(hist_bucket_high(HIST_NBUCKETS - 1), TOP - 1);
}

static void test_exact_small(void **state)
{
	struct hist *h = hist_new();
	uint64_t v;

	for (v = 0; v < 2 * HIST_SUB; v++) {
		assert_int_equal(hist_index(v), v);
		assert_int_equal(hist_index_hot(v), v);
		assert_int_equal(hist_bucket_low(v), v);
		assert_int_equal(hist_bucket_high(v), v);
		hist_init(h);
		hist_add(h, v);
		hist_add(h, v);
		assert_int_equal(hist_percentile(h, 0.01), v);
		assert_int_equal(hist_percentile(h, 50), v);
		assert_int_equal(hist_percentile(h, 100), v);
	}
	test_free(h);
}

/* A single sample is every percentile, in any bucket: clamped to [min, max]. */
static void test_single_sample(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 255, 256, 257, 300, 301, 511, 512, 1000, 123456789,
		(1ull << 40) + 1, TOP - 1, TOP, TOP + 1, UINT64_MAX,
	};
	struct hist *h = hist_new();
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		hist_init(h);
		hist_add(h, vals[i]);
		assert_int_equal(hist_percentile(h, 1), vals[i]);
		assert_int_equal(hist_percentile(h, 50), vals[i]);
		assert_int_equal(hist_percentile(h, 100), vals[i]);
		assert_true(hist_mean(h) == (double)vals[i]);
		assert_true(hist_stddev(h) == 0);
	}
	test_free(h);
}

/*
 * Values below 2 * HIST_SUB are exact, so the percentile must be exactly the
 * order statistic of rank ceil(p / 100 * n) for every p in 0.01 steps; the
 * n are chosen so that p / 100 * n is often an integer in decimal.
 */
static void test_rank(void **state)
{
	static const uint64_t ns[] = { 1, 2, 3, 10, 100, 997, 1000, 20000 };
	struct hist *h = hist_new();
	struct rng r = { 42 };
	uint64_t *v, n, want, got;
	unsigned p100;
	size_t k, i;

	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		n = ns[k];
		v = test_malloc(n * sizeof(*v));
		hist_init(h);
		for (i = 0; i < n; i++) {
			v[i] = rng_next(&r) % (2 * HIST_SUB);
			hist_add(h, v[i]);
		}
		sort_u64(v, n);
		for (p100 = 1; p100 <= 10000; p100++) {
			want = v[rank_of(n, p100) - 1];
			got = hist_percentile(h, p100 / 100.0);
			if (got == want)
				continue;
			print_message("n %lu p %.2f: got %lu want %lu\n",
				      (unsigned long)n, p100 / 100.0,
				      (unsigned long)got, (unsigned long)want);
			fail();
		}
		/* outside (0, 100]: clamped to the first and last rank */
		assert_int_equal(hist_percentile(h, 0), v[0]);
		assert_int_equal(hist_percentile(h, -5), v[0]);
		assert_int_equal(hist_percentile(h, NAN), v[0]);
		assert_int_equal(hist_percentile(h, 1000), v[n - 1]);
		test_free(v);
	}
	test_free(h);
}

static double check_percentile(const struct hist *h, const uint64_t *sorted,
			       uint64_t n, unsigned p100, uint64_t *prev)
{
	double p = p100 / 100.0;
	uint64_t est = hist_percentile(h, p);
	uint64_t exact = sorted[rank_of(n, p100) - 1];
	double err = rel_err(est, exact);

	if (err > MAX_REL_ERR || est < h->min || est > h->max ||
	    est < *prev) {
		print_message("p%g: est %lu exact %lu err %.4f%% prev %lu\n",
			      p, (unsigned long)est, (unsigned long)exact,
			      err * 100, (unsigned long)*prev);
		fail();
	}
	*prev = est;
	return err;
}

static void test_accuracy(void **state)
{
	static const unsigned pcts[] = {	/* hundredths of a percent */
		100, 500, 1000, 2500, 5000, 7500, 9000, 9500, 9900, 9950,
		9990, 9999, 10000,
	};
	const struct dist *d = *state;
	struct rng r = { d->seed };
	struct hist *h = hist_new();
	uint64_t *v = test_malloc(NSAMPLES * sizeof(*v));
	uint64_t prev, over = 0;
	long double mean, sd;
	double err, worst = 0, worst_grid = 0;
	unsigned i;

	for (i = 0; i < NSAMPLES; i++) {
		v[i] = d->gen(&r);
		over += v[i] >= TOP;
		hist_add(h, v[i]);
	}
	exact_stats(v, NSAMPLES, &mean, &sd);
	sort_u64(v, NSAMPLES);

	assert_int_equal(h->count, NSAMPLES);
	assert_int_equal(h->overflow, over);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[NSAMPLES - 1]);
	assert_close(hist_mean(h), mean, 1e-9);
	assert_close(hist_stddev(h), sd, 1e-9);

	prev = 0;
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		err = check_percentile(h, v, NSAMPLES, pcts[i], &prev);
		if (err > worst)
			worst = err;
	}
	assert_int_equal(hist_percentile(h, 100), h->max);

	/* every 0.05%, to catch what the listed percentiles step over */
	prev = 0;
	for (i = 5; i <= 10000; i += 5) {
		err = check_percentile(h, v, NSAMPLES, i, &prev);
		if (err > worst_grid)
			worst_grid = err;
	}
	print_message("%-12s max rel err %.4f%% (listed), %.4f%% (grid), "
		      "range [%lu, %lu] ns, overflow %lu\n",
		      d->name, worst * 100, worst_grid * 100,
		      (unsigned long)h->min, (unsigned long)h->max,
		      (unsigned long)h->overflow);
	test_free(v);
	test_free(h);
}

static void test_overflow(void **state)
{
	static const uint64_t big[] = {
		TOP - 1, TOP, (1ull << 50) + 3, (1ull << 62) + 12345,
	};
	uint64_t v[1000 + sizeof(big) / sizeof(big[0])];
	struct hist *h = hist_new();
	uint64_t n = 0, i;
	long double mean, sd;

	for (i = 1; i <= 1000; i++)
		v[n++] = i;
	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		v[n++] = big[i];
	for (i = 0; i < n; i++)
		hist_add(h, v[i]);

	assert_int_equal(h->count, n);
	assert_int_equal(h->overflow, 3);	/* TOP - 1 is in range */
	assert_int_equal(h->b[HIST_NBUCKETS - 1], 1);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, (1ull << 62) + 12345);
	assert_int_equal(hist_percentile(h, 100), h->max);
	/* ranks n - 2 .. n are overflow samples: represented by max */
	assert_int_equal(hist_percentile(h, 100.0 * (n - 2) / n), h->max);
	/* rank n - 3 is TOP - 1, estimated from the last bucket */
	assert_true(rel_err(hist_percentile(h, 100.0 * (n - 3) / n), TOP - 1)
		    <= MAX_REL_ERR);
	exact_stats(v, n, &mean, &sd);
	assert_close(hist_mean(h), mean, 1e-12);
	assert_close(hist_stddev(h), sd, 1e-12);

	/* the largest value: sumsq still exact, nothing clamped */
	hist_init(h);
	hist_add(h, UINT64_MAX);
	assert_int_equal(h->overflow, 1);
	assert_true(h->sumsq == (unsigned __int128)UINT64_MAX * UINT64_MAX);
	assert_int_equal(hist_percentile(h, 50), UINT64_MAX);
	test_free(h);
}

static void test_moments(void **state)
{
	struct hist *h = hist_new();
	unsigned i;

	hist_add(h, 0);
	hist_add(h, 2);
	assert_true(hist_mean(h) == 1);
	assert_true(hist_stddev(h) == 1);

	/* tiny spread on a huge mean: naive sumsq/n - mean^2 cancels */
	hist_init(h);
	for (i = 0; i < 100000; i++)
		hist_add(h, 1000000000000ull + (i & 1));
	assert_true(hist_mean(h) == 1000000000000.5);
	assert_true(hist_stddev(h) == 0.5);

	hist_init(h);
	for (i = 0; i < 1000; i++)
		hist_add(h, 987654321987ull);
	assert_true(hist_mean(h) == 987654321987.0);
	assert_true(hist_stddev(h) == 0);
	test_free(h);
}

static void test_merge(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist *e = hist_new(), *z = hist_new();
	struct rng r = { 99 };
	uint64_t v;
	unsigned i;

	for (i = 0; i < 200000; i++) {
		v = gen_lognormal(&r);
		if (i % 1000 == 0)
			v += TOP;			/* some overflow too */
		hist_add(i < 120000 ? a : b, v);
		hist_add(all, v);
	}
	hist_merge(e, a);			/* into empty: a copy */
	assert_hist_equal(e, a);
	hist_merge(a, z);			/* empty into a: no change */
	assert_hist_equal(a, e);

	hist_merge(a, b);
	assert_hist_equal(a, all);
	assert_true(hist_mean(a) == hist_mean(all));
	assert_true(hist_stddev(a) == hist_stddev(all));
	assert_int_equal(hist_percentile(a, 99.9), hist_percentile(all, 99.9));
	test_free(z);
	test_free(e);
	test_free(all);
	test_free(b);
	test_free(a);
}

static void test_empty(void **state)
{
	struct hist *h = hist_new(), *e = hist_new();

	assert_int_equal(h->count, 0);
	assert_int_equal(h->overflow, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(h->sum, 0);
	assert_true(h->sumsq == 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_percentile(h, 100), 0);
	assert_true(hist_mean(h) == 0);
	assert_true(hist_stddev(h) == 0);
	hist_merge(h, e);
	assert_hist_equal(h, e);
	assert_int_equal(h->min, UINT64_MAX);
	test_free(e);
	test_free(h);
}

#define ACCURACY(i) \
	cmocka_unit_test_prestate(test_accuracy, (void *)&dists[i])

/* Sparse histograms (hist_sparse_*): exact, and answer as the full one. */

static const double sparse_pcts[] = {
	0.001, 1, 10, 50, 90, 99, 99.9, 99.99, 100,
};

/* s holds exactly h's buckets, counts, overflow, min and max. */
static void assert_sparse_is(const struct hist_sparse *s, const struct hist *h)
{
	struct hist *back = hist_new();
	unsigned i, nb = 0;

	for (i = 0; i < HIST_NBUCKETS; i++)
		nb += h->b[i] != 0;
	assert_int_equal(s->nbuckets, nb);
	assert_int_equal(s->count, h->count);
	assert_int_equal(s->overflow, h->overflow);
	assert_int_equal(s->min, h->min);
	assert_int_equal(s->max, h->max);
	hist_sparse_add_to(back, s);
	assert_memory_equal(back->b, h->b, sizeof(h->b));
	for (i = 0; i < sizeof(sparse_pcts) / sizeof(sparse_pcts[0]); i++)
		assert_int_equal(hist_sparse_percentile(s, sparse_pcts[i]),
				 hist_percentile(h, sparse_pcts[i]));
	test_free(back);
}

static void test_sparse_roundtrip(void **state)
{
	struct hist_sparse s;
	struct hist *h;
	struct rng r;
	size_t d;
	unsigned i;

	hist_sparse_init(&s);
	for (d = 0; d < sizeof(dists) / sizeof(dists[0]); d++) {
		h = hist_new();
		r.s = dists[d].seed;
		for (i = 0; i < 50000; i++)
			hist_add(h, dists[d].gen(&r) + (i % 997 ? 0 : TOP));
		assert_int_equal(hist_sparse_from(&s, h), 0);
		assert_sparse_is(&s, h);
		/* Far fewer bytes than the full histogram. */
		assert_true(s.len < sizeof(h->b) / 4);
		test_free(h);
	}
	hist_sparse_free(&s);
	assert_null(s.enc);
}

/* Counts that take every varint length, first and last buckets. */
static void test_sparse_big_counts(void **state)
{
	struct hist *h = hist_new();
	struct hist_sparse s;
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i += 37)
		h->b[i] = (uint64_t)1 << (i % 64);
	h->b[HIST_NBUCKETS - 1] = UINT64_MAX;
	h->b[0] = 1;
	for (i = 0, h->count = 0; i < HIST_NBUCKETS; i++)
		h->count += h->b[i];	/* wraps; only compared, not used */
	h->min = 0;
	h->max = hist_bucket_high(HIST_NBUCKETS - 1);
	hist_sparse_init(&s);
	assert_int_equal(hist_sparse_from(&s, h), 0);
	{
		struct hist *back = hist_new();

		hist_sparse_add_to(back, &s);
		assert_memory_equal(back->b, h->b, sizeof(h->b));
		test_free(back);
	}
	hist_sparse_free(&s);
	test_free(h);
}

static void test_sparse_merge(void **state)
{
	struct hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist *none = hist_new();
	struct hist_sparse sa, sb, sm, se;
	struct rng r = { 77 };
	uint64_t v;
	unsigned i;

	for (i = 0; i < 100000; i++) {
		v = i % 3 ? gen_bimodal(&r) : gen_small(&r);
		if (i % 5000 == 0)
			v += TOP;
		hist_add(i % 7 < 3 ? a : b, v);
		hist_add(all, v);
	}
	hist_sparse_init(&sa);
	hist_sparse_init(&sb);
	hist_sparse_init(&sm);
	hist_sparse_init(&se);
	assert_int_equal(hist_sparse_from(&sa, a), 0);
	assert_int_equal(hist_sparse_from(&sb, b), 0);
	assert_int_equal(hist_sparse_merge(&sm, &sa, &sb), 0);
	assert_sparse_is(&sm, all);
	/* With an empty one: a copy. */
	assert_int_equal(hist_sparse_merge(&sm, &sa, &se), 0);
	assert_sparse_is(&sm, a);
	assert_int_equal(hist_sparse_merge(&sm, &se, &se), 0);
	assert_sparse_is(&sm, none);
	assert_null(sm.enc);
	/* Into one of its inputs. */
	assert_int_equal(hist_sparse_merge(&sa, &sa, &sb), 0);
	assert_sparse_is(&sa, all);
	hist_sparse_free(&sa);
	hist_sparse_free(&sb);
	hist_sparse_free(&sm);
	test_free(none);
	test_free(all);
	test_free(b);
	test_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_sparse_roundtrip),
		cmocka_unit_test(test_sparse_big_counts),
		cmocka_unit_test(test_sparse_merge),
		ACCURACY(0), ACCURACY(1), ACCURACY(2), ACCURACY(3),
		ACCURACY(4), ACCURACY(5), ACCURACY(6),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
