// SPDX-License-Identifier: MIT
/*
 * Unit tests for the random patterns (dist.c, gen.c's ext path): the laws
 * against their definitions (chi-square and Kolmogorov-Smirnov at a fixed
 * seed, 0.1% level), bssplit's and zoned's shares within 1 point over 10^5
 * I/Os, blockalign, percentage_random, rw=MODE:N and rw_sequencer, lfsr,
 * and what the parsers refuse.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dist.h"
#include "gen.h"
#include "job.h"

#define KB	1024ull
#define NDRAW	100000

/* Chi-square critical value at 0.1% (Wilson-Hilferty). */
static double chi2_crit(double df)
{
	double a = 2 / (9 * df);

	return df * pow(1 - a + 3.09 * sqrt(a), 3);
}

/* sum (obs - exp)^2 / exp, bins with exp < 5 merged into the next. */
static double chi2(const double *obs, const double *exp, size_t n,
		   size_t *df)
{
	double s = 0, o = 0, e = 0;
	size_t i, bins = 0;

	for (i = 0; i < n; i++) {
		o += obs[i];
		e += exp[i];
		if (e >= 5 || i == n - 1) {
			s += (o - e) * (o - e) / e;
			bins++;
			o = e = 0;
		}
	}
	*df = bins - 1;
	return s;
}

static double u01(void *ctx)
{
	return (double)(gen_rng_next(ctx) >> 11) * 0x1p-53;
}

static struct gen_params base(uint64_t region, uint64_t bs)
{
	struct gen_params p = {
		.region = region,
		.bs_min = { bs, bs },
		.bs_max = { bs, bs },
		.random = true,
		.only_dir = DDIR_READ,
		.seed = 0x5eed,
	};

	return p;
}

/* Zipf: rank k has probability k^-theta / sum; chi-square over ranks. */
static void zipf_case(double theta, uint64_t n)
{
	struct dist_law l;
	struct gen_rng r;
	double *obs = calloc(n, sizeof(double)), *exp = calloc(n, 8), z = 0;
	size_t i, df;

	assert_non_null(obs);
	assert_non_null(exp);
	dist_law_init(&l, DIST_ZIPF, theta, n);
	gen_rng_seed(&r, 42);
	for (i = 0; i < NDRAW; i++) {
		uint64_t k = dist_law_draw(&l, u01, &r);

		assert_true(k < n);
		obs[k]++;
	}
	for (i = 0; i < n; i++)
		z += pow((double)(i + 1), -theta);
	for (i = 0; i < n; i++)
		exp[i] = NDRAW * pow((double)(i + 1), -theta) / z;
	assert_true(chi2(obs, exp, n, &df) < chi2_crit((double)df));
	free(obs);
	free(exp);
}

static void test_zipf_law(void **state)
{
	(void)state;
	zipf_case(1.2, 1000);
	zipf_case(0.8, 5000);
	zipf_case(1.0, 300);
	zipf_case(2.0, 100000);
}

/* Pareto: P(rank < x n) = x^(1/p), p = ln h / ln(1 - h); KS. */
static void test_pareto_law(void **state)
{
	const double hs[] = { 0.2, 0.45 };
	uint64_t n = 1u << 20;
	size_t t, i;

	(void)state;
	for (t = 0; t < 2; t++) {
		double pw = log(hs[t]) / log(1 - hs[t]), dmax = 0;
		uint64_t *v = malloc(NDRAW * sizeof(*v));
		struct dist_law l;
		struct gen_rng r;

		assert_non_null(v);
		dist_law_init(&l, DIST_PARETO, hs[t], n);
		gen_rng_seed(&r, 7 + t);
		for (i = 0; i < NDRAW; i++)
			v[i] = dist_law_draw(&l, u01, &r);
		/* counting sort is too big: compare a 1000-point grid */
		for (i = 1; i < 1000; i++) {
			double x = i / 1000.0, f = pow(x, 1 / pw), c = 0;
			size_t k;

			for (k = 0; k < NDRAW; k++)
				c += v[k] < (uint64_t)(x * (double)n);
			if (fabs(c / NDRAW - f) > dmax)
				dmax = fabs(c / NDRAW - f);
		}
		/* KS at 0.1%: 1.95 / sqrt(N) */
		assert_true(dmax < 1.95 / sqrt(NDRAW));
		/* h = 0.2: 20% of the blocks get 80% of the I/Os */
		free(v);
	}
}

static double phi(double x)
{
	return 0.5 * erfc(-x / sqrt(2));
}

/* Normal, sigma 0: the mean of 12 uniform ranks, sd n / 12. KS. */
static void test_normal_law(void **state)
{
	uint64_t n = 120000;
	double *cnt = calloc(n, sizeof(double)), c = 0, dmax = 0;
	struct dist_law l;
	struct gen_rng r;
	size_t i;

	(void)state;
	assert_non_null(cnt);
	dist_law_init(&l, DIST_NORMAL, 0, n);
	assert_int_equal(dist_law_mode(&l), (n - 1) / 2);
	gen_rng_seed(&r, 3);
	for (i = 0; i < NDRAW; i++)
		cnt[dist_law_draw(&l, u01, &r)]++;
	for (i = 0; i < n; i++) {
		double f = phi(((double)i + 0.5 - (double)n / 2) /
			       ((double)n / 12));

		c += cnt[i];
		if (fabs(c / NDRAW - f) > dmax)
			dmax = fabs(c / NDRAW - f);
	}
	assert_true(dmax < 1.95 / sqrt(NDRAW));
	/* sigma 50: wider, still inside [0, n) */
	dist_law_init(&l, DIST_NORMAL, 50, n);
	for (i = 0; i < 10000; i++)
		assert_true(dist_law_draw(&l, u01, &r) < n);
	free(cnt);
}

/* Through gen: the hottest block sits at center, ranks are scattered. */
static void test_gen_zipf_center(void **state)
{
	struct dist_spec *d = malloc(sizeof(*d));
	struct gen *g = malloc(sizeof(*g));
	struct gen_params p = base(1000 * 4 * KB, 4 * KB);
	char why[256];
	uint32_t cnt[1000] = { 0 }, best = 0, near = 0;
	size_t i, top = 0;
	double z = 0;

	(void)state;
	assert_int_equal(dist_parse("zipf:1.2:0.25", 1024, d, why,
				    sizeof(why)), 0);
	p.dist = d;
	assert_int_equal(gen_init(g, &p), 0);
	assert_false(g->use_map);
	for (i = 0; i < NDRAW; i++) {
		struct gen_io io;

		gen_next(g, &io);
		assert_int_equal(io.foff % (4 * KB), 0);
		assert_true(io.foff + io.len <= p.region);
		cnt[io.foff / (4 * KB)]++;
	}
	for (i = 0; i < 1000; i++) {
		if (cnt[i] > best) {
			best = cnt[i];
			top = i;
		}
		z += pow((double)(i + 1), -1.2);
	}
	assert_int_equal(top, 250);
	assert_true(fabs(best / (double)NDRAW - 1 / z) < 0.01);
	/* scattered: the two neighbours of the hottest are not the next
	 * hottest (rank 2 has 44% of rank 1's I/Os) */
	near = cnt[249] > cnt[251] ? cnt[249] : cnt[251];
	assert_true(near < best * 0.3);
	free(d);
	free(g);
}

/* Share of I/Os in [lo, hi) of the region, within 1 point. */
static void test_zoned(void **state)
{
	static const double acc[] = { 60, 30, 8, 2 }, rng[] = { 10, 20, 30,
								40 };
	struct dist_spec *d = malloc(sizeof(*d));
	struct gen *g = malloc(sizeof(*g));
	uint64_t region = 10000 * 4 * KB;
	struct gen_params p = base(region, 4 * KB);
	double cnt[4] = { 0 };
	char why[256];
	size_t i, z;

	(void)state;
	assert_int_equal(dist_parse("zoned:60/10:30/20:8/30:2/40", 1024, d,
				    why, sizeof(why)), 0);
	p.dist = d;
	assert_int_equal(gen_init(g, &p), 0);
	for (i = 0; i < NDRAW; i++) {
		struct gen_io io;
		double at = 0;

		gen_next(g, &io);
		for (z = 0; z < 4; z++) {
			at += rng[z] / 100 * (double)region;
			if ((double)io.foff < at)
				break;
		}
		assert_true(z < 4);
		cnt[z]++;
	}
	for (z = 0; z < 4; z++)
		assert_true(fabs(cnt[z] / NDRAW * 100 - acc[z]) < 1);

	/* zoned_abs: absolute sizes; past the file region is -ERANGE */
	assert_int_equal(dist_parse("zoned_abs:50/1m:50/2m", 1024, d, why,
				    sizeof(why)), 0);
	p.region = 4 * 1024 * KB;
	memset(cnt, 0, sizeof(cnt));
	assert_int_equal(gen_init(g, &p), 0);
	for (i = 0; i < NDRAW; i++) {
		struct gen_io io;

		gen_next(g, &io);
		assert_true(io.foff < 3 * 1024 * KB);
		cnt[io.foff >= 1024 * KB]++;
	}
	assert_true(fabs(cnt[0] / NDRAW * 100 - 50) < 1);
	p.region = 2 * 1024 * KB;
	assert_int_equal(gen_init(g, &p), -ERANGE);
	free(d);
	free(g);
}

static void test_bssplit_shares(void **state)
{
	struct bssplit_spec *b = malloc(sizeof(*b));
	struct gen *g = malloc(sizeof(*g));
	struct gen_params p = base(64 * 1024 * KB, 4 * KB);
	double n4r = 0, n64r = 0, n32r = 0, reads = 0, n4w = 0, n8w = 0;
	char why[256];
	size_t i;

	(void)state;
	assert_int_equal(bssplit_parse("4k/10:64k/50:32k/40,4k/90:8k/", 1024,
				       b, why, sizeof(why)), 0);
	p.bssplit = b;
	p.mixed = true;
	p.rwmixread = 50;
	p.bs_max[0] = 64 * KB;
	p.bs_max[1] = 8 * KB;
	p.norandommap = true;
	assert_int_equal(gen_init(g, &p), 0);
	for (i = 0; i < 2 * NDRAW; i++) {
		struct gen_io io;

		gen_next(g, &io);
		assert_int_equal(io.foff % (4 * KB), 0);
		assert_true(io.foff + io.len <= p.region);
		if (io.ddir == DDIR_READ) {
			reads++;
			n4r += io.len == 4 * KB;
			n32r += io.len == 32 * KB;
			n64r += io.len == 64 * KB;
		} else {
			n4w += io.len == 4 * KB;
			n8w += io.len == 8 * KB;
		}
	}
	assert_true(fabs(n4r / reads * 100 - 10) < 1);
	assert_true(fabs(n32r / reads * 100 - 40) < 1);
	assert_true(fabs(n64r / reads * 100 - 50) < 1);
	assert_true(fabs(n4w / (2 * NDRAW - reads) * 100 - 90) < 1);
	assert_true(fabs(n8w / (2 * NDRAW - reads) * 100 - 10) < 1);
	assert_int_equal(n4r + n32r + n64r, reads);
	free(b);
	free(g);
}

/* Walker's table against its weights: chi-square. */
static void test_alias(void **state)
{
	static const double w[] = { 1, 0, 7, 2.5, 30, 0.5, 9 };
	struct dist_alias a;
	struct gen_rng r;
	double obs[7] = { 0 }, exp[7];
	size_t i, df;

	(void)state;
	dist_alias_init(&a, w, 7);
	gen_rng_seed(&r, 9);
	for (i = 0; i < NDRAW; i++)
		obs[dist_alias_pick(&a, gen_rng_next(&r))]++;
	assert_true(obs[1] == 0);
	for (i = 0; i < 7; i++)
		exp[i] = NDRAW * w[i] / 50;
	/* the empty bin would divide by 0: leave it out */
	obs[1] = obs[0];
	exp[1] = exp[0];
	assert_true(chi2(obs + 1, exp + 1, 6, &df) < chi2_crit((double)df));
}

static void test_blockalign(void **state)
{
	struct gen g;
	struct gen_params p = base(256 * KB + 100, 8 * KB);
	uint8_t seen[256] = { 0 };
	size_t i, n = 0;

	(void)state;
	p.ba[0] = KB;
	assert_int_equal(gen_init(&g, &p), 0);
	assert_false(g.use_map);
	for (i = 0; i < 20000; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		assert_int_equal(io.foff % KB, 0);
		assert_true(io.foff + io.len <= p.region);
		seen[io.foff / KB] = 1;
	}
	for (i = 0; i < 256; i++)
		n += seen[i];
	assert_int_equal(n, 256 - 8 + 1);	/* every place 8k fits */
}

static void test_percentage_random(void **state)
{
	struct gen g;
	struct gen_params p = base(4096 * 4 * KB, 4 * KB);
	uint64_t end = 0, seq = 0;
	size_t i;

	(void)state;
	p.perc_seq[0] = 100;		/* percentage_random=0 */
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < 4096; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		if (i)
			assert_int_equal(io.foff, end % p.region);
		end = io.foff + io.len;
	}
	p.perc_seq[0] = 25;		/* percentage_random=75 */
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < NDRAW; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		seq += i && io.foff == end % p.region;
		end = io.foff + io.len;
	}
	/* 25% go on, plus 1 in 4096 random ones by chance */
	assert_true(fabs(seq * 100.0 / NDRAW - 25) < 1);
}

static void test_rw_modifiers(void **state)
{
	struct gen g;
	struct gen_params p = base(64 * 4 * KB, 4 * KB);
	uint64_t start = 0;
	size_t i;

	(void)state;
	/* randread:4: runs of 4 sequential blocks (unless at the end) */
	p.seq_nr = 4;
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < 400; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		if (i % 4 == 0)
			start = io.foff;
		else if (start + (i % 4) * 4 * KB < p.region)
			assert_int_equal(io.foff, start + (i % 4) * 4 * KB);
	}
	p.seq_identical = true;
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < 400; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		if (i % 4 == 0)
			start = io.foff;
		else
			assert_int_equal(io.foff, start);
	}
	/* read:4k: every other block, wrapping until region bytes */
	p = base(64 * 4 * KB, 4 * KB);
	p.random = false;
	p.seq_add = 4 * KB;
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < 64; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		assert_int_equal(io.foff, (i % 32) * 8 * KB);
		assert_int_equal(io.new_pass, 0);
	}
	/* read:-8k: backwards from the last block, each block once */
	p.seq_add = -8 * (int64_t)KB;
	assert_int_equal(gen_init(&g, &p), 0);
	for (i = 0; i < 64; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		assert_int_equal(io.foff, (63 - i) * 4 * KB);
	}
}

/* lfsr keeps the map with norandommap=1: every block once per pass. */
static void test_lfsr(void **state)
{
	struct gen g;
	struct gen_params p = base(1000 * 4 * KB, 4 * KB);
	uint8_t seen[1000] = { 0 };
	size_t i;

	(void)state;
	p.norandommap = true;
	p.lfsr = true;
	assert_int_equal(gen_init(&g, &p), 0);
	assert_true(g.use_map);
	for (i = 0; i < 1000; i++) {
		struct gen_io io;

		gen_next(&g, &io);
		assert_int_equal(seen[io.foff / (4 * KB)]++, 0);
	}
	p.lfsr = false;
	assert_int_equal(gen_init(&g, &p), 0);
	assert_false(g.use_map);
}

static void test_parse(void **state)
{
	static const char *const bad_dist[] = {
		"zipf:0", "pareto:1", "pareto:0", "normal:100", "zipf:1.2:2",
		"zoned:50/10:40/20", "zoned:60/50:40/60", "zoned",
		"zoned_abs:50/1m:50", "uniform", "random:1", "zipf:x",
	};
	static const char *const bad_bss[] = {
		"4k/10:64k/50", "4k/60:8k/60", "4k/50:6k/50", "0/100",
		"4k/50:8k/50,4k/50,4k/50,4k", "4k/x",
	};
	struct dist_spec *d = malloc(sizeof(*d));
	struct bssplit_spec b;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_dist) / sizeof(bad_dist[0]); i++)
		assert_true(dist_parse(bad_dist[i], 1024, d, why,
				       sizeof(why)) < 0);
	for (i = 0; i < sizeof(bad_bss) / sizeof(bad_bss[0]); i++)
		assert_true(bssplit_parse(bad_bss[i], 1024, &b, why,
					  sizeof(why)) < 0);
	assert_int_equal(dist_parse("normal", 1024, d, why, sizeof(why)), 0);
	assert_int_equal(d->kind, DIST_NORMAL);
	assert_int_equal(dist_parse("zipf", 1024, d, why, sizeof(why)), 0);
	assert_true(d->param == 1.1);
	assert_int_equal(dist_parse("zoned:50/5:30/15:20/80,100/", 1024, d,
				    why, sizeof(why)), 0);
	assert_int_equal(d->nzones[1], 1);
	assert_true(d->zones[1][0].size == 100);
	/* blanks share the rest: 50, 25, 25 */
	assert_int_equal(bssplit_parse("4k/50:1k/:32k/", 1024, &b, why,
				       sizeof(why)), 0);
	assert_true(b.e[0][1].perc == 25 && b.e[1][2].perc == 25);
	assert_int_equal(bssplit_parse("512/4:1024/1:1536/1:2048/1:2560/1:"
				       "3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:"
				       "64k/3", 1024, &b, why, sizeof(why)),
			 0);
	assert_int_equal(b.n[0], 12);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zipf_law),
		cmocka_unit_test(test_pareto_law),
		cmocka_unit_test(test_normal_law),
		cmocka_unit_test(test_gen_zipf_center),
		cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_bssplit_shares),
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_blockalign),
		cmocka_unit_test(test_percentage_random),
		cmocka_unit_test(test_rw_modifiers),
		cmocka_unit_test(test_lfsr),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
