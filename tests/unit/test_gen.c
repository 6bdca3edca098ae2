// SPDX-License-Identifier: MIT
/*
 * Unit tests for gen.c: sequential walk and passes, the random map's
 * exactly-once coverage, independent random draws, bs ranges, rwmix ratios,
 * the bounded rng, determinism and parameter checks; and with several file
 * regions, that no I/O ever leaves the file region it lands in.
 *
 * No timing assertions here. For scale: sequential gen_next with a fixed bs
 * is a few predictable branches, a compare and a few adds (about 2.3 ns per
 * call, measured out of tree on a 2-vCPU AMD EPYC); random with the map is
 * one or two rounds of four multiplies plus a data-dependent loop exit,
 * 4 to 22 ns depending on how far nblocks is below a power of two.
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

#include "gen.h"
#include "job.h"

#define KB	1024ull

static struct gen_params params_fixed(uint64_t region, uint64_t bs,
				      bool random, int dir)
{
	struct gen_params p = {
		.region = region,
		.bs_min = { bs, bs },
		.bs_max = { bs, bs },
		.random = random,
		.only_dir = dir,
		.seed = 0x1234,
	};

	return p;
}

static void init_ok(struct gen *g, const struct gen_params *p)
{
	assert_int_equal(gen_init(g, p), 0);
}

/* Offsets, lengths and direction of one I/O against the generator's rules. */
static void check_io(const struct gen *g, const struct gen_io *io)
{
	const struct gen_params *p = &g->p;

	assert_true(io->ddir == DDIR_READ || io->ddir == DDIR_WRITE);
	if (!p->mixed)
		assert_int_equal(io->ddir, p->only_dir);
	assert_true(io->len <= p->bs_max[io->ddir]);
	if (g->use_bmap) {
		/* The bitmap map cuts I/Os where done units begin: whole
		 * units (bmap_check holds it to the rule). */
		assert_true(io->len >= g->align);
		assert_true(io->len % g->align == 0 || p->bs_unaligned ||
			    io->len == g->len_max[io->ddir] ||
			    io->foff + io->len == g->file_region);
	} else {
		assert_true(io->len >= p->bs_min[io->ddir]);
		/* A multiple of bs_min, or the range's top (clipped to a
		 * file). */
		assert_true(io->len % p->bs_min[io->ddir] == 0 ||
			    io->len == g->len_max[io->ddir]);
	}
	/* Sequential offsets are sums of lengths, the top of a range too. */
	if (p->random)
		assert_int_equal(io->foff % g->align, 0);
	assert_true(io->offset < p->region);
	assert_true(io->len <= p->region - io->offset);
	/* Inside one file region: the worker writes foff of file `file`. */
	assert_true(io->file < (p->nfiles ? p->nfiles : 1));
	assert_true(io->foff < g->file_region);
	assert_true(io->len <= g->file_region - io->foff);
	assert_int_equal(io->offset, io->file * g->file_region + io->foff);
}

/* ---- sequential ---- */

static void test_seq_order_and_wrap(void **state)
{
	/* 10 whole blocks and a 1k tail that is never touched. */
	struct gen_params p = params_fixed(10 * 4 * KB + KB, 4 * KB, false,
					   DDIR_WRITE);
	struct gen g;
	struct gen_io io;
	int i;

	init_ok(&g, &p);
	assert_int_equal(g.align, 4 * KB);
	for (i = 0; i < 35; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		assert_int_equal(io.offset, (uint64_t)(i % 10) * 4 * KB);
		assert_int_equal(io.len, 4 * KB);
		assert_int_equal(io.ddir, DDIR_WRITE);
		assert_int_equal(io.new_pass, i > 0 && i % 10 == 0);
		assert_int_equal(g.pass, (uint64_t)(i / 10));
	}
}

static void test_seq_exact_fit(void **state)
{
	/* region == bs: every I/O is a whole pass at offset 0. */
	struct gen_params p = params_fixed(8 * KB, 8 * KB, false, DDIR_READ);
	struct gen g;
	struct gen_io io;
	int i;

	init_ok(&g, &p);
	for (i = 0; i < 5; i++) {
		gen_next(&g, &io);
		assert_int_equal(io.offset, 0);
		assert_int_equal(io.len, 8 * KB);
		assert_int_equal(io.new_pass, i > 0);
	}
	assert_int_equal(g.pass, 4);
}

/*
 * Each direction contiguous within a pass, from 0 (a cursor each, as fio);
 * a pass ends when the next I/O of a direction won't fit, and both start
 * over.
 */
static void test_seq_bsrange(void **state)
{
	struct gen_params p = {
		.region = 1001 * KB,
		.bs_min = { 4 * KB, 8 * KB },
		.bs_max = { 64 * KB, 16 * KB },
		.mixed = true,
		.rwmixread = 50,
		.seed = 7,
	};
	struct gen g;
	struct gen_io io;
	uint64_t next[DDIR_NR] = { 0 };
	unsigned seen[17] = { 0 };
	int i, passes = 0;

	init_ok(&g, &p);
	assert_int_equal(g.align, 4 * KB);
	for (i = 0; i < 100000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		if (io.new_pass) {
			/* fio's meaning: the walk took sizes that fit up to
			 * where not even the smallest does */
			assert_true(p.region - next[io.ddir] <
				    p.bs_min[io.ddir]);
			assert_int_equal(io.offset, 0);
			memset(next, 0, sizeof(next));
			passes++;
		} else {
			assert_int_equal(io.offset, next[io.ddir]);
		}
		next[io.ddir] = io.offset + io.len;
		seen[io.len / (4 * KB)]++;
	}
	assert_int_equal(g.pass, passes);
	assert_true(passes > 100);
	/* Reads take every 4k multiple in [4k, 64k], writes 8k, 12k, 16k. */
	for (i = 1; i <= 16; i++)
		assert_true(seen[i] > 0);
}

/*
 * time_based (wrap_each): each direction walks the whole region on its
 * own, from 0 to the end and over again, whatever the other does.
 */
static void test_seq_wrap_each(void **state)
{
	struct gen_params p = {
		.region = 64 * KB,
		.bs_min = { 4 * KB, 4 * KB },
		.bs_max = { 4 * KB, 4 * KB },
		.mixed = true,
		.wrap_each = true,
		.rwmixread = 70,
		.seed = 5,
	};
	struct gen g;
	struct gen_io io;
	uint64_t next[DDIR_NR] = { 0 }, wraps[DDIR_NR] = { 0 };
	int i;

	init_ok(&g, &p);
	for (i = 0; i < 10000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		if (next[io.ddir] == p.region) {
			assert_true(io.new_pass);
			next[io.ddir] = 0;
			wraps[io.ddir]++;
		} else {
			assert_false(io.new_pass);
		}
		assert_int_equal(io.offset, next[io.ddir]);
		next[io.ddir] += io.len;
	}
	/* 7000 reads and 3000 writes of 16 a walk, about */
	assert_true(wraps[DDIR_READ] > 400 && wraps[DDIR_READ] < 480);
	assert_true(wraps[DDIR_WRITE] > 150 && wraps[DDIR_WRITE] < 220);
	(void)state;
}

/* Read 4k and write 6k: align is the 2k gcd, so offsets like 10k are fine. */
static void test_seq_gcd_align(void **state)
{
	struct gen_params p = {
		.region = 100 * KB,
		.bs_min = { 4 * KB, 6 * KB },
		.bs_max = { 4 * KB, 6 * KB },
		.mixed = true,
		.rwmixread = 50,
		.seed = 3,
	};
	struct gen g;
	struct gen_io io;
	int i;

	init_ok(&g, &p);
	assert_int_equal(g.align, 2 * KB);
	assert_false(g.use_map);
	for (i = 0; i < 10000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		assert_int_equal(io.len, io.ddir ? 6 * KB : 4 * KB);
	}
}

/* ---- random with the map ---- */

static bool bit_test_set(uint64_t *map, uint64_t i)
{
	uint64_t w = i / 64, b = 1ull << (i % 64);
	bool was = map[w] & b;

	map[w] |= b;
	return was;
}

/*
 * Three passes over nblocks blocks (plus a tail smaller than a block): each
 * pass hits every block exactly once, new_pass marks exactly the pass starts,
 * and for larger sizes the passes come in different orders. inl: through
 * gen_next_inline, as the worker's loop asks (gen_map_fast in a pass).
 */
static void check_map_coverage(uint64_t nblocks, bool mixed, bool inl)
{
	const uint64_t bs = 512;
	struct gen_params p = params_fixed(nblocks * bs + bs / 2, bs, true,
					   DDIR_READ);
	size_t words = (nblocks + 63) / 64;
	uint64_t *map = calloc(words, sizeof(*map));
	uint32_t *first = calloc(nblocks, sizeof(*first));
	uint64_t i, same = 0;
	struct gen g;
	struct gen_io io;
	int pass;

	assert_non_null(map);
	assert_non_null(first);
	p.mixed = mixed;
	p.rwmixread = 40;
	init_ok(&g, &p);
	assert_true(g.use_map);
	assert_int_equal(g.nblocks, nblocks);
	for (pass = 0; pass < 3; pass++) {
		memset(map, 0, words * sizeof(*map));
		for (i = 0; i < nblocks; i++) {
			if (inl)
				gen_next_inline(&g, &io);
			else
				gen_next(&g, &io);
			check_io(&g, &io);
			assert_int_equal(io.len, bs);
			assert_int_equal(io.new_pass, pass > 0 && i == 0);
			assert_int_equal(g.pass, pass);
			assert_false(bit_test_set(map, io.offset / bs));
			if (pass == 0)
				first[i] = (uint32_t)(io.offset / bs);
			else if (pass == 1 && first[i] == io.offset / bs)
				same++;
		}
		for (i = 0; i < nblocks; i++)
			assert_true(map[i / 64] & (1ull << (i % 64)));
	}
	/* A new order per pass: few blocks keep their slot (1 expected). */
	if (nblocks >= 1000)
		assert_true(same < 10);
	free(first);
	free(map);
}

static void test_map_coverage(void **state)
{
	static const uint64_t sizes[] = {
		1, 2, 3, 7, 64, 1000, 65537, 1 << 20,
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check_map_coverage(sizes[i], false, false);
		check_map_coverage(sizes[i], true, false);
		/* the worker's way: gen_map_fast inside a pass */
		check_map_coverage(sizes[i], false, true);
	}
}

/* The order is scattered: not the identity, no long ascending runs. */
static void test_map_scattered(void **state)
{
	const uint64_t n = 100000;
	struct gen_params p = params_fixed(n * 4 * KB, 4 * KB, true,
					   DDIR_READ);
	struct gen g;
	struct gen_io io;
	uint64_t i, prev = 0, fixed = 0, adjacent = 0;
	double dist = 0;

	init_ok(&g, &p);
	for (i = 0; i < n; i++) {
		uint64_t b;

		gen_next(&g, &io);
		b = io.offset / (4 * KB);
		fixed += b == i;
		if (i) {
			adjacent += b == prev + 1;
			dist += b > prev ? b - prev : prev - b;
		}
		prev = b;
	}
	assert_true(fixed < 10);
	assert_true(adjacent < 10);
	/* Mean distance of two uniform blocks is n / 3. */
	dist /= (double)(n - 1) * (double)n;
	assert_true(fabs(dist - 1.0 / 3) < 0.01);
}

/*
 * Different bs per direction or a bs range take the bitmap map instead of
 * the bijection; norandommap neither, lfsr the bijection only for one size
 * (fio keeps no map with lfsr).
 */
static void test_map_only_fixed_bs(void **state)
{
	struct gen_params p = params_fixed(1 << 20, 4 * KB, true, DDIR_READ);
	struct gen g;

	init_ok(&g, &p);
	assert_true(g.use_map);
	assert_false(g.use_bmap);
	p.norandommap = true;
	init_ok(&g, &p);
	assert_false(g.use_map || g.use_bmap);
	p.norandommap = false;
	p.bs_max[DDIR_READ] = 8 * KB;
	init_ok(&g, &p);
	assert_false(g.use_map);
	assert_true(g.use_bmap);
	assert_int_equal(g.mode, GEN_MODE_BMAP);
	gen_free(&g);
	p.lfsr = true;
	init_ok(&g, &p);
	assert_false(g.use_map || g.use_bmap);
	p.lfsr = false;
	p.bs_max[DDIR_READ] = 4 * KB;
	p.bs_min[DDIR_WRITE] = p.bs_max[DDIR_WRITE] = 8 * KB;
	init_ok(&g, &p);
	assert_true(g.use_map);		/* writes are not in use */
	p.mixed = true;
	p.rwmixread = 50;
	init_ok(&g, &p);
	assert_false(g.use_map);
	assert_true(g.use_bmap);
	gen_free(&g);
}

/* ---- random without the map ---- */

static void test_norandommap(void **state)
{
	/* 7 aligned slots where a 4k I/O fits (tail of 3k unused). */
	struct gen_params p = params_fixed(7 * 4 * KB + 3 * KB, 4 * KB, true,
					   DDIR_WRITE);
	unsigned hits[7] = { 0 };
	uint64_t done = 0;
	struct gen g;
	struct gen_io io;
	int i, passes = 0;

	p.norandommap = true;
	init_ok(&g, &p);
	for (i = 0; i < 70000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		if (io.new_pass) {
			assert_true(done >= p.region);
			done = 0;
			passes++;
		}
		done += io.len;
		hits[io.offset / (4 * KB)]++;
	}
	/* A pass is 8 I/Os: 8 * 4k is the first total >= 31k. */
	assert_int_equal(passes, 70000 / 8 - (70000 % 8 == 0));
	assert_int_equal(g.pass, passes);
	for (i = 0; i < 7; i++)
		assert_true(hits[i] > 9000 && hits[i] < 11000);

	/* A whole number of blocks: a pass is exactly region / bs I/Os. */
	p.region = 8 * 4 * KB;
	init_ok(&g, &p);
	for (i = 0; i < 100; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		assert_int_equal(io.new_pass, i > 0 && i % 8 == 0);
	}
}

static void test_random_bsrange(void **state)
{
	/* bs_max beyond the region is clipped to it. */
	struct gen_params p = {
		.region = 40 * KB,
		.bs_min = { 8 * KB, 12 * KB },
		.bs_max = { 1024 * KB, 20 * KB },
		.random = true,
		.mixed = true,
		.rwmixread = 50,
		.seed = 99,
	};
	unsigned lens[11] = { 0 }, ends = 0;
	struct gen g;
	struct gen_io io;
	int i;

	p.norandommap = true;	/* the sizes as drawn (no map cut) */
	init_ok(&g, &p);
	assert_int_equal(g.align, 4 * KB);
	assert_false(g.use_map || g.use_bmap);
	for (i = 0; i < 200000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		lens[io.len / (4 * KB)]++;
		ends += io.offset + io.len == p.region;
	}
	/* Reads 8k..40k in steps of 8k; writes 12k, or 20k (the top). */
	for (i = 2; i <= 10; i++)
		assert_true((lens[i] > 0) == (i % 2 == 0 || i == 3 || i == 5));
	assert_true(ends > 0);
}

/* ---- the bytes of writes ---- */

/*
 * gen_data_fill (whichever copy the CPU gets) and gen_data_xor give pool
 * xor the key in every 8-byte word, for lengths with and without a tail
 * past the last 64 bytes, and never write past len; two fills differ in
 * every word (distinct keys), and the pool is random (no two words alike).
 */
static void test_data_fill(void **state)
{
	static const size_t lens[] = { 4096, 65536, 1, 7, 64, 100, 4097 };
	struct gen_data d;
	uint64_t *a, *b, k, k2;
	size_t n, i, w;

	assert_int_equal(gen_data_init(&d, 65536 + 64, 1, 2), 0);
	a = calloc(65536 / 8 + 16, 8);
	b = calloc(65536 / 8 + 16, 8);
	assert_non_null(a);
	assert_non_null(b);
	for (i = 1; i < (65536 + 64) / 8; i++)
		assert_true(d.pool[i] != d.pool[i - 1]);
	for (n = 0; n < sizeof(lens) / sizeof(lens[0]); n++) {
		memset(a, 0xa5, 65536 + 128);
		gen_data_fill(&d, a, lens[n]);
		k = a[0] ^ d.pool[0];
		for (w = 0; w < lens[n] / 8; w++)
			assert_true((a[w] ^ d.pool[w]) == k);
		for (i = w * 8; i < lens[n]; i++)
			assert_int_equal(((unsigned char *)a)[i] ^
					 ((unsigned char *)d.pool)[i],
					 (unsigned char)(k >> (8 * (i & 7))));
		for (i = lens[n]; i < lens[n] + 64; i++)
			assert_int_equal(((unsigned char *)a)[i], 0xa5);
		/* The generic copy gives the same bytes for the same key. */
		memset(b, 0xa5, 65536 + 128);
		gen_data_xor(b, d.pool, lens[n], k);
		assert_memory_equal(a, b, lens[n] + 64);
		if (lens[n] >= 8) {
			gen_data_fill(&d, b, lens[n]);
			k2 = b[0] ^ d.pool[0];
			assert_true(k2 != k);
			for (w = 0; w < lens[n] / 8; w++)
				assert_true(a[w] != b[w]);
		}
	}
	gen_data_free(&d);
	assert_null(d.pool);
	free(a);
	free(b);
}

/*
 * fio's distribution of lengths in a range (io_u.c, get_next_buflen):
 * min + x, x uniform in [0, max), rounded down to a multiple of min,
 * max when above it. Chi-square of 400000 draws against it, sequential and
 * random, for ranges where max is and is not a multiple of min.
 */
static void check_len_dist(uint64_t min, uint64_t max, bool random)
{
	struct gen_params p = params_fixed(1 << 30, min, random, DDIR_WRITE);
	double expect[80] = { 0 }, chi = 0;
	unsigned long seen[80] = { 0 };
	unsigned n = 400000, i, cells = 0;
	struct gen g;
	struct gen_io io;
	uint64_t m;

	p.bs_max[DDIR_WRITE] = max;
	p.norandommap = true;	/* the sizes as drawn (no map cut) */
	init_ok(&g, &p);
	for (m = 1; m * min <= max; m++)
		expect[m] = (double)min / max;
	expect[m] = (double)(max % min) / max;	/* the top, when not m*min */
	for (i = 0; i < n; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		m = io.len % min ? max / min + 1 : io.len / min;
		assert_true(m < 80);
		if (m == max / min + 1)
			assert_int_equal(io.len, max);
		seen[m]++;
	}
	for (m = 0; m < 80; m++) {
		if (expect[m] == 0) {
			assert_int_equal(seen[m], 0);
			continue;
		}
		chi += (seen[m] - n * expect[m]) * (seen[m] - n * expect[m]) /
		       (n * expect[m]);
		cells++;
	}
	/* 99.99th percentile of chi-square with up to 64 degrees: ~115. */
	assert_true(chi < (cells <= 4 ? 25.0 : 115.0));
}

static void test_len_distribution(void **state)
{
	check_len_dist(4 * KB, 64 * KB, false);	/* 16 sizes, 1/16 each */
	check_len_dist(4 * KB, 64 * KB, true);
	check_len_dist(4 * KB, 10 * KB, true);	/* 40%, 40%, 10k 20% */
	check_len_dist(3 * KB, 8 * KB, false);	/* 3/8, 3/8, 8k 2/8 */
	check_len_dist(512, 32 * KB, true);	/* 64 sizes */
}

/* ---- rwmix ---- */

static uint64_t count_reads(double pct, uint64_t n, bool random)
{
	struct gen_params p = params_fixed(1 << 30, 4 * KB, random, DDIR_READ);
	struct gen g;
	struct gen_io io;
	uint64_t i, reads = 0;

	p.mixed = true;
	p.rwmixread = pct;
	init_ok(&g, &p);
	for (i = 0; i < n; i++) {
		gen_next(&g, &io);
		reads += io.ddir == DDIR_READ;
	}
	return reads;
}

static void test_rwmix(void **state)
{
	const uint64_t n = 1000000;
	uint64_t r;

	/* sd = sqrt(n * 0.3 * 0.7) ~ 458; allow about 6.5 sd. */
	r = count_reads(30, n, false);
	assert_true(r > 297000 && r < 303000);
	r = count_reads(70, n, true);
	assert_true(r > 697000 && r < 703000);
	assert_int_equal(count_reads(0, n, false), 0);
	assert_int_equal(count_reads(100, n, true), n);
}

/* ---- rng ---- */

static void test_rng_below_uniform(void **state)
{
	const int n = 10, draws = 1000000;
	unsigned counts[10] = { 0 };
	struct gen_rng r;
	double chi2 = 0, e = (double)draws / n;
	int i;

	gen_rng_seed(&r, 5);
	for (i = 0; i < draws; i++) {
		uint64_t v = gen_rng_below(&r, n);

		assert_true(v < (uint64_t)n);
		counts[v]++;
	}
	for (i = 0; i < n; i++)
		chi2 += (counts[i] - e) * (counts[i] - e) / e;
	/* 9 degrees of freedom: P(chi2 > 33.7) = 1e-4. */
	assert_true(chi2 < 33.7);
}

/*
 * n = 3 * 2^62: a plain x % n would return values below 2^62 twice as
 * often, so P(v < n / 2) would be 0.625 instead of 0.5.
 */
static void test_rng_below_unbiased(void **state)
{
	const uint64_t n = 3ull << 62;
	struct gen_rng r;
	int i, low = 0, draws = 200000;

	gen_rng_seed(&r, 11);
	for (i = 0; i < draws; i++) {
		uint64_t v = gen_rng_below(&r, n);

		assert_true(v < n);
		low += v < n / 2;
	}
	/* sd ~ 224 */
	assert_true(abs(low - draws / 2) < 1500);
	for (i = 0; i < 1000; i++) {
		assert_int_equal(gen_rng_below(&r, 1), 0);
		assert_true(gen_rng_below(&r, UINT64_MAX) < UINT64_MAX);
	}
}

static void test_rng_seed(void **state)
{
	struct gen_rng a, b, c;
	int i, same = 0;

	gen_rng_seed(&a, 0);
	gen_rng_seed(&b, 0);
	gen_rng_seed(&c, 1);
	assert_true(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
	for (i = 0; i < 1000; i++) {
		uint64_t x = gen_rng_next(&a);

		assert_int_equal(x, gen_rng_next(&b));
		same += x == gen_rng_next(&c);
	}
	assert_int_equal(same, 0);
}

/* ---- determinism ---- */

static bool same_sequence(const struct gen_params *p1,
			  const struct gen_params *p2, int n)
{
	struct gen a, b;
	struct gen_io x, y;
	bool same = true;
	int i;

	init_ok(&a, p1);
	init_ok(&b, p2);
	for (i = 0; i < n; i++) {
		gen_next(&a, &x);
		gen_next(&b, &y);
		if (x.offset != y.offset || x.len != y.len ||
		    x.ddir != y.ddir || x.new_pass != y.new_pass)
			same = false;
	}
	gen_free(&a);
	gen_free(&b);
	return same;
}

static void test_determinism(void **state)
{
	struct gen_params p = {
		.region = 4096 * KB,
		.bs_min = { 4 * KB, 4 * KB },
		.bs_max = { 4 * KB, 4 * KB },
		.random = true,
		.mixed = true,
		.rwmixread = 60,
		.seed = 42,
	};
	struct gen_params q;
	int mode;

	/* map, norandommap, bs range, sequential mixed */
	for (mode = 0; mode < 4; mode++) {
		p.norandommap = mode == 1;
		p.bs_max[DDIR_READ] = mode == 2 ? 32 * KB : 4 * KB;
		p.random = mode != 3;
		q = p;
		assert_true(same_sequence(&p, &q, 5000));
		q.seed = 43;
		assert_false(same_sequence(&p, &q, 5000));
	}
}

/* ---- several file regions ---- */

/* splitmix64 for the test's own choices, apart from the generator's. */
static uint64_t t_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t t_between(uint64_t *x, uint64_t lo, uint64_t hi)
{
	return lo + t_rand(x) % (hi - lo + 1);
}

/*
 * A random parameter set: 1 to 9 files, a file region that is mostly not a
 * multiple of the block sizes (and sometimes only just above bs_min),
 * fixed sizes, ranges and per-direction sizes in multiples of 512, every
 * mode. bs_max may exceed the file region: lengths are clipped to it.
 */
static struct gen_params random_params(uint64_t *x)
{
	static const uint64_t unit[] = { 512, 1024, 4096, 1536, 6144 };
	struct gen_params p = { .seed = t_rand(x) };
	uint64_t u = unit[t_rand(x) % 5], fr, lo = UINT64_MAX;
	unsigned d, kind = (unsigned)(t_rand(x) % 4);

	for (d = 0; d < 2; d++) {
		p.bs_min[d] = u * t_between(x, 1, 8);
		p.bs_max[d] = p.bs_min[d];
		if (kind == 1)			/* ranges, bs=4k-64k */
			p.bs_max[d] = p.bs_min[d] + u * t_between(x, 0, 30);
		if (kind == 2 && d)		/* bs=4k,64k */
			p.bs_min[d] = p.bs_max[d] = p.bs_min[0] *
						    t_between(x, 2, 16);
		if (kind == 3)			/* one fixed bs */
			p.bs_min[d] = p.bs_max[d] = p.bs_min[0];
		if (p.bs_min[d] < lo)
			lo = p.bs_min[d];
	}
	p.random = t_rand(x) % 2;
	p.norandommap = t_rand(x) % 3 == 0;
	p.mixed = t_rand(x) % 3 == 0;
	p.rwmixread = (double)(t_rand(x) % 101);
	p.only_dir = (int)(t_rand(x) % 2);
	p.nfiles = (unsigned)t_between(x, 1, 9);
	/* At least the largest bs_min in use, plus an odd tail. */
	fr = (p.bs_min[0] > p.bs_min[1] ? p.bs_min[0] : p.bs_min[1]) +
	     (t_rand(x) % 2 ? 0 : 512 * t_between(x, 0, 300)) +
	     t_between(x, 0, lo - 1);
	p.region = fr * p.nfiles;
	return p;
}

/*
 * Millions of I/Os over thousands of parameter sets: every one lies in one
 * file region (check_io), sequential I/Os of a pass never go back within a
 * file, and passes restart at file 0.
 */
static void test_files_never_cross(void **state)
{
	uint64_t x = 0x5eed, n = 0;
	int set, i;

	for (set = 0; set < 3000; set++) {
		struct gen_params p = random_params(&x);
		struct gen g;
		struct gen_io io;
		uint64_t next[DDIR_NR] = { 0 };

		init_ok(&g, &p);
		for (i = 0; i < 1000; i++, n++) {
			gen_next(&g, &io);
			check_io(&g, &io);
			if (p.random)
				continue;
			/* each direction its own cursor */
			if (io.new_pass) {
				assert_int_equal(io.offset, 0);
				memset(next, 0, sizeof(next));
			} else {
				assert_true(io.offset >= next[io.ddir]);
			}
			next[io.ddir] = io.offset + io.len;
		}
		gen_free(&g);
	}
	assert_true(n >= 3000000);
}

/*
 * Sequential over 3 files of 10.5 blocks: each file's 10 whole blocks in
 * order, never its half-block tail, then the next file; after the last, a
 * new pass at file 0.
 */
static void test_seq_files(void **state)
{
	const uint64_t bs = 4 * KB, fr = 10 * bs + bs / 2;
	struct gen_params p = params_fixed(3 * fr, bs, false, DDIR_WRITE);
	struct gen g;
	struct gen_io io;
	int i;

	p.nfiles = 3;
	init_ok(&g, &p);
	for (i = 0; i < 95; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		assert_int_equal(io.file, (i / 10) % 3);
		assert_int_equal(io.foff, (uint64_t)(i % 10) * bs);
		assert_int_equal(io.new_pass, i > 0 && i % 30 == 0);
	}
}

/*
 * The map with several files, file regions not a multiple of bs, and
 * fblocks from 1 up (the reciprocal split of a block number at its
 * extremes): every whole block of every file once per pass, none else.
 */
static void check_map_files(unsigned nfiles, uint64_t fblocks, uint64_t tail)
{
	const uint64_t bs = 512;
	uint64_t fr = fblocks * bs + tail, nb = nfiles * fblocks, i;
	struct gen_params p = params_fixed(nfiles * fr, bs, true, DDIR_READ);
	uint64_t *seen = calloc((nb + 63) / 64, sizeof(*seen));
	struct gen g;
	struct gen_io io;
	int pass;

	assert_non_null(seen);
	p.nfiles = nfiles;
	p.seed = nfiles * 1000 + fblocks;
	init_ok(&g, &p);
	assert_true(g.use_map);
	assert_int_equal(g.nblocks, nb);
	for (pass = 0; pass < 2; pass++) {
		memset(seen, 0, (nb + 63) / 64 * sizeof(*seen));
		for (i = 0; i < nb; i++) {
			gen_next(&g, &io);
			check_io(&g, &io);
			assert_int_equal(io.new_pass, pass > 0 && i == 0);
			assert_int_equal(io.foff % bs, 0);
			assert_false(bit_test_set(seen, io.file * fblocks +
						  io.foff / bs));
		}
	}
	free(seen);
}

static void test_map_files(void **state)
{
	static const struct {
		unsigned nfiles;
		uint64_t fblocks, tail;
	} c[] = {
		{ 2, 1, 0 }, { 7, 1, 511 }, { 3, 2, 100 }, { 5, 3, 0 },
		{ 4, 1000, 511 }, { 9, 4097, 1 }, { 2, 65536, 0 },
		{ 3, 99991, 256 }, { 4096, 3, 7 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		check_map_files(c[i].nfiles, c[i].fblocks, c[i].tail);
}

/* Huge file regions: block numbers near 2^52 still split exactly. */
static void test_map_files_huge(void **state)
{
	const uint64_t bs = 512, fr = (1ull << 50) + 3 * bs + 17;
	struct gen_params p = params_fixed(12 * fr, bs, true, DDIR_WRITE);
	struct gen g;
	struct gen_io io;
	unsigned hits[12] = { 0 };
	int i;

	p.nfiles = 12;
	init_ok(&g, &p);
	for (i = 0; i < 200000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		hits[io.file]++;
	}
	for (i = 0; i < 12; i++)
		assert_true(hits[i] > 200000 / 12 * 8 / 10);
}

/* Without the map, each file is chosen about equally often. */
static void test_any_files_uniform(void **state)
{
	struct gen_params p = {
		.region = 5 * (100 * KB + 512),
		.nfiles = 5,
		.bs_min = { 4 * KB, 4 * KB },
		.bs_max = { 64 * KB, 64 * KB },
		.random = true,
		.only_dir = DDIR_WRITE,
		.seed = 11,
	};
	struct gen g;
	struct gen_io io;
	unsigned hits[5] = { 0 }, ends = 0;
	int i;

	init_ok(&g, &p);
	for (i = 0; i < 100000; i++) {
		gen_next(&g, &io);
		check_io(&g, &io);
		hits[io.file]++;
		ends += io.foff + io.len > 100 * KB - 64 * KB;
	}
	for (i = 0; i < 5; i++)
		assert_true(hits[i] > 19000 && hits[i] < 21000);
	assert_true(ends > 0);
	gen_free(&g);
}

/* ---- parameter checks ---- */

static void test_init_rejects(void **state)
{
	struct gen_params ok = params_fixed(64 * KB, 4 * KB, true, DDIR_READ);
	struct gen_params p;
	struct gen g;

	init_ok(&g, &ok);

	p = ok;
	p.region = 0;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p = ok;
	p.region = 4 * KB - 1;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p = ok;
	p.bs_min[DDIR_READ] = 0;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p = ok;
	p.bs_max[DDIR_READ] = 2 * KB;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p = ok;
	p.region = 1ull << 40;
	p.bs_max[DDIR_READ] = 1ull << 32;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	/* Each file region must hold a block; the region splits evenly. */
	p = ok;
	p.nfiles = 17;
	p.region = 17 * (4 * KB - 512);
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.region = 17 * 4 * KB + 1;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.region = 17 * 4 * KB;
	init_ok(&g, &p);
	p = ok;
	p.only_dir = 2;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p = ok;
	p.only_dir = -1;
	assert_int_equal(gen_init(&g, &p), -EINVAL);

	/* Mixed: both directions count, and rwmixread must be a percent. */
	p = ok;
	p.mixed = true;
	p.rwmixread = 50;
	p.bs_min[DDIR_WRITE] = p.bs_max[DDIR_WRITE] = 128 * KB;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.bs_min[DDIR_WRITE] = 0;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.bs_min[DDIR_WRITE] = p.bs_max[DDIR_WRITE] = 8 * KB;
	init_ok(&g, &p);
	gen_free(&g);
	p.rwmixread = 100.5;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.rwmixread = -1;
	assert_int_equal(gen_init(&g, &p), -EINVAL);
	p.rwmixread = NAN;
	assert_int_equal(gen_init(&g, &p), -EINVAL);

	/* Not mixed: the unused direction's sizes are not looked at. */
	p = ok;
	p.bs_min[DDIR_WRITE] = 0;
	p.bs_max[DDIR_WRITE] = 0;
	init_ok(&g, &p);
	p.bs_min[DDIR_WRITE] = p.bs_max[DDIR_WRITE] = 1 << 30;
	init_ok(&g, &p);
}

/* ---- file_service_type (several files) ---- */

/*
 * Each uniform kind, sequential and random with the map: one pass visits
 * every block of every file once (each file its own cursor or map), in the
 * kind's order of files; then a new pass.
 */
static void test_fst_pass(void **state)
{
	static const int kinds[] = { GEN_FST_RR, GEN_FST_SEQ, GEN_FST_RANDOM };
	enum { NF = 5, FB = 8 };
	unsigned k, r, i, seen[NF][FB];
	struct gen_io io;
	struct gen g;

	(void)state;
	for (k = 0; k < 3; k++) {
		for (r = 0; r < 2; r++) {
			struct gen_params p = params_fixed(NF * FB * 4 * KB,
							   4 * KB, r,
							   DDIR_READ);

			p.nfiles = NF;
			p.fst = kinds[k];
			p.fst_nr = 2;
			init_ok(&g, &p);
			memset(seen, 0, sizeof(seen));
			for (i = 0; i < NF * FB; i++) {
				gen_next(&g, &io);
				check_io(&g, &io);
				assert_false(io.new_pass);
				seen[io.file][io.foff / (4 * KB)]++;
				if (kinds[k] == GEN_FST_RR)
					assert_int_equal(io.file,
							 (i / 2) % NF);
				if (kinds[k] == GEN_FST_SEQ)
					assert_int_equal(io.file, i / FB);
				if (!r)
					assert_int_equal(io.foff,
						(kinds[k] == GEN_FST_SEQ ?
						 i % FB : kinds[k] == GEN_FST_RR
						 ? i / (2 * NF) * 2 + i % 2 :
						 io.foff / (4 * KB)) * 4 * KB);
			}
			for (i = 0; i < NF * FB; i++)
				assert_int_equal(seen[i / FB][i % FB], 1);
			gen_next(&g, &io);
			assert_true(io.new_pass);
			gen_free(&g);
		}
	}
}

/* bsrange over files of odd sizes: every I/O inside its file, all kinds. */
static void test_fst_regions(void **state)
{
	struct gen_params p = {
		.region = 3 * 37 * KB, .nfiles = 3,
		.bs_min = { 4 * KB, 4 * KB }, .bs_max = { 16 * KB, 16 * KB },
		.mixed = true, .rwmixread = 50, .seed = 9, .fst_center = -1,
	};
	struct gen_io io;
	struct gen g;
	int k;
	unsigned i, r;

	(void)state;
	for (k = GEN_FST_RR; k <= GEN_FST_NORMAL; k++) {
		for (r = 0; r < 2; r++) {
			p.fst = k;
			p.fst_nr = 3;
			p.fst_param = k == GEN_FST_ZIPF ? 1.2 :
				      k == GEN_FST_PARETO ? 0.3 : 10;
			p.random = r;
			init_ok(&g, &p);
			for (i = 0; i < 5000; i++) {
				gen_next(&g, &io);
				check_io(&g, &io);
			}
			gen_free(&g);
		}
	}
}

/*
 * Files of their own lengths (filesize=LO-HI): with each uniform kind, a
 * pass visits every block of every file once (sequential and the map) and
 * nothing past a file's end; norandommap stays inside each file too; one
 * file shorter than bs_max clips the lengths of all.
 */
static void test_fst_uneven(void **state)
{
	static const int kinds[] = { GEN_FST_NONE, GEN_FST_RR, GEN_FST_SEQ,
				     GEN_FST_RANDOM };
	static const uint64_t flen[] = { 8 * KB, 32 * KB, 20 * KB, 4 * KB };
	enum { NF = 4, NB = 16 };
	unsigned k, r, i, n, seen[NF][8];
	struct gen_io io;
	struct gen g;

	(void)state;
	for (k = 0; k < 4; k++) {
		for (r = 0; r < 3; r++) {
			struct gen_params p = params_fixed(NB * 4 * KB, 4 * KB,
							   r > 0, DDIR_WRITE);

			p.nfiles = NF;
			p.flen = flen;
			p.fst = kinds[k];
			p.norandommap = r == 2;
			init_ok(&g, &p);
			assert_int_equal(g.file_region, 32 * KB);
			memset(seen, 0, sizeof(seen));
			for (i = 0; i < NB; i++) {
				gen_next(&g, &io);
				assert_false(io.new_pass);
				assert_true(io.file < NF);
				assert_int_equal(io.len, 4 * KB);
				assert_true(io.foff + io.len <= flen[io.file]);
				assert_int_equal(io.offset, io.file * 32 * KB +
						 io.foff);
				seen[io.file][io.foff / (4 * KB)]++;
			}
			for (i = 0; r < 2 && i < NF; i++)
				for (n = 0; n < flen[i] / (4 * KB); n++)
					assert_int_equal(seen[i][n], 1);
			gen_next(&g, &io);
			assert_true(io.new_pass);
			gen_free(&g);
		}
	}
	/* A range of lengths: clipped to the smallest file (4k). */
	{
		struct gen_params p = params_fixed(NB * 4 * KB, 4 * KB, 1,
						   DDIR_WRITE);

		p.nfiles = NF;
		p.flen = flen;
		p.bs_max[DDIR_WRITE] = 16 * KB;
		init_ok(&g, &p);
		assert_int_equal(g.len_max[DDIR_WRITE], 4 * KB);
		gen_free(&g);
		/* Lengths must add up to the region. */
		p.region += 4 * KB;
		assert_int_equal(gen_init(&g, &p), -EINVAL);
	}
}

/*
 * The random patterns over files of their own lengths: every I/O inside
 * its own file, none past its end, in the slot of the largest file; with
 * the map, each block of every file once a pass; bssplit sizes larger
 * than the smallest file never drawn; percentage zones of each file's own
 * length (zoned:50/10:50/90: half of each file's I/Os in its first tenth).
 * Case 8 takes the map (percentage_random), which skips the blocks of a
 * slot past its file's end.
 */
static void test_ext_uneven(void **state)
{
	static const uint64_t flen[] = { 8 * KB, 64 * KB, 20 * KB, 40 * KB };
	static const char *const dists[] = { "zipf:1.2", "pareto:0.3",
					     "normal:10", "zoned:50/10:50/90",
					     "zoned_abs:50/4k:50/4k", NULL };
	enum { NF = 4, NIO = 20000 };
	struct dist_spec ds;
	struct bssplit_spec bs;
	char why[256];
	unsigned c, i, first[NF] = { 0 }, per[NF] = { 0 };
	struct gen_io io;
	struct gen g;

	(void)state;
	for (c = 0; c < 11; c++) {
		struct gen_params p = params_fixed(132 * KB, 4 * KB, c != 9,
						   DDIR_READ);

		p.nfiles = NF;
		p.flen = flen;
		p.norandommap = c != 8;
		if (c < 5) {
			assert_int_equal(dist_parse(dists[c], 1024, &ds, why,
						    sizeof(why)), 0);
			p.dist = &ds;
		} else if (c == 5) {
			assert_int_equal(bssplit_parse("4k/50:8k/25:16k/25",
						       1024, &bs, why,
						       sizeof(why)), 0);
			p.bssplit = &bs;
			p.bs_max[DDIR_READ] = 16 * KB;
		} else if (c == 6) {
			p.ba[DDIR_READ] = 2 * KB;	/* 4k-8k at 2k */
			p.bs_max[DDIR_READ] = 8 * KB;
		} else if (c == 7 || c == 8) {
			p.perc_seq[DDIR_READ] = 50;	/* 8: with the map */
		} else if (c == 9) {
			p.seq_add = -8 * (int64_t)KB;	/* read:-8k */
		} else {
			p.seq_nr = 3;
		}
		init_ok(&g, &p);
		memset(first, 0, sizeof(first));
		memset(per, 0, sizeof(per));
		for (i = 0; i < NIO; i++) {
			gen_next(&g, &io);
			assert_true(io.file < NF);
			assert_true(io.foff + io.len <= flen[io.file]);
			assert_true(io.len <= 8 * KB);
			assert_int_equal(io.offset, io.file * 64 * KB +
					 io.foff);
			per[io.file]++;
			if (io.foff < flen[io.file] / 10)
				first[io.file]++;
		}
		for (i = 0; i < NF; i++) {
			assert_true(per[i] > 0);
			/* zoned: about half in each file's first tenth */
			if (c == 3)
				assert_true(first[i] * 10 > per[i] * 4 &&
					    first[i] * 10 < per[i] * 6);
		}
		gen_free(&g);
	}
}

/*
 * rw=read:N with one block size (gen_pass_len): a file is done when an
 * I/O ends at its end or the next would not fit (the pass is what the
 * walk moves: fio's t0007 is 85 reads of 1 MiB), else the gap reaches
 * the end and the walk starts the file again (the pass is the region's).
 * The walk's offsets, and a new pass at the first file's start after it.
 */
static void test_seq_holes_pass(void **state)
{
	static const struct {
		uint64_t fr, bs, add, pass;	/* KiB; pass of one file */
	} c[] = {
		{ 128 * 1024, 1024, 512, 85 * 1024 },
		{ 1024, 4, 8, 86 * 4 },		/* the last ends at the end */
		{ 1024, 4, 12, 1024 },		/* the gap reaches the end */
		{ 4096, 1024, 2048, 2048 },
		{ 4096, 1024, 3072, 4096 },
	};
	struct gen_params p;
	struct gen_io io;
	struct gen g;
	uint64_t k, n;
	unsigned i, nf;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		for (nf = 1; nf <= 2; nf++) {
			p = params_fixed(c[i].fr * KB * nf, c[i].bs * KB,
					 false, DDIR_READ);
			p.nfiles = nf;
			p.seq_add = (int64_t)(c[i].add * KB);
			init_ok(&g, &p);
			assert_int_equal(gen_pass_len(&g), c[i].pass * KB * nf);
			if (c[i].pass == c[i].fr)
				continue;
			n = c[i].pass / c[i].bs;
			for (k = 0; k < n * nf; k++) {
				gen_next(&g, &io);
				assert_false(io.new_pass);
				assert_int_equal(io.file, k / n);
				assert_int_equal(io.foff, k % n * (c[i].bs +
						 c[i].add) * KB);
			}
			gen_next(&g, &io);
			assert_true(io.new_pass);
			assert_int_equal(io.file, 0);
			assert_int_equal(io.foff, 0);
			gen_free(&g);
		}
	}
	/* random, mixed or a range of sizes: the region's */
	p = params_fixed(1024 * KB, 4 * KB, false, DDIR_READ);
	p.seq_add = 8 * KB;
	p.bs_max[DDIR_READ] = 8 * KB;
	init_ok(&g, &p);
	assert_int_equal(gen_pass_len(&g), 1024 * KB);
	gen_free(&g);
}

/* ---- the bitmap map: sizes that vary (gen.h) ---- */

struct bmap_case {
	const char *bss;		/* bssplit, or NULL: bs_min..bs_max */
	uint64_t region, min[2], max[2];
	unsigned nfiles;
	const uint64_t *flen;
	int fst;
	bool mixed;
	bool partial;		/* lengths not multiples of the unit */
};

/*
 * One pass of the bitmap map: every unit (align bytes) of every file done
 * exactly once by I/Os inside their files, the pass's bytes those units'
 * (gen_pass_len), and the next I/O a new pass. With bssplit, a length that
 * is none of the sizes was cut: the unit after it was done before, or it
 * ends at its file's end (fio's rule). Returns the pass's I/Os.
 */
static uint64_t bmap_pass(struct gen *g, const struct bmap_case *c,
			  const struct bssplit_spec *bs, bool first)
{
	uint64_t fb = g->fblocks, nf = c->nfiles ? c->nfiles : 1, ios = 0;
	uint64_t bytes = 0, units = 0, i, u, e, fl;
	unsigned char *seen = calloc(nf * fb, 1);
	struct gen_io io;
	bool legal;

	assert_non_null(seen);
	for (i = 0; i < nf; i++)
		units += (c->flen ? c->flen[i] : g->file_region) / g->align;
	assert_int_equal(gen_pass_len(g), units * g->align);
	for (io.pass_end = false; !io.pass_end;) {
		gen_next(g, &io);
		if (!c->flen)		/* uneven: slots past the region */
			check_io(g, &io);
		assert_int_equal(io.new_pass, !first && !ios);
		fl = c->flen ? c->flen[io.file] : g->file_region;
		assert_true(io.foff + io.len <= fl);
		u = io.foff / g->align;
		e = (io.foff + io.len + g->align - 1) / g->align;
		if (e > fl / g->align)
			e = fl / g->align;
		legal = !bs;
		for (i = 0; bs && i < bs->n[io.ddir]; i++)
			legal |= io.len == bs->e[io.ddir][i].bs;
		if (!legal)
			assert_true(e == fl / g->align ||
				    seen[io.file * fb + e]);
		for (; u < e; u++)
			assert_int_equal(seen[io.file * fb + u]++, 0);
		bytes += io.len;
		ios++;
		/* the pass ends with its last unit, no later (pass_end) */
		assert_true(io.pass_end || bytes < units * g->align);
	}
	/* what the pass moved less than its units': the parts of units
	 * that I/Os ending inside them left (ranges not of the unit) */
	assert_int_equal(bytes + g->pass_short, units * g->align);
	if (!c->partial)
		assert_int_equal(g->pass_short, 0);
	else
		assert_true(g->pass_short > 0);
	for (i = 0; i < nf * fb; i++)
		assert_int_equal(seen[i], i % fb < (c->flen ?
						    c->flen[i / fb] :
						    g->file_region) /
				 g->align);
	free(seen);
	return ios;
}

static void test_bmap_once(void **state)
{
	static const uint64_t flen[] = { 40 * KB, 128 * KB, 20 * KB,
					 100 * KB };
	static const struct bmap_case cases[] = {
		/* fio 3.33 does 4k-128k over 1 GiB in 22.7-22.9 thousand
		 * I/Os, 45.8-46.2 KiB each (five seeds) */
		{ .region = 1ull << 30, .min = { 4 * KB },
		  .max = { 128 * KB } },
		/* t0023/t0024's bssplit */
		{ .bss = "512/25:1k/25:2k/25:4k/25", .region = 1 << 20,
		  .min = { 512 }, .max = { 4 * KB } },
		{ .region = 1 << 20, .min = { 4 * KB, 8 * KB },
		  .max = { 4 * KB, 8 * KB }, .mixed = true },
		{ .region = 3 * 37 * KB, .min = { 4 * KB, 4 * KB },
		  .max = { 64 * KB, 16 * KB }, .nfiles = 3, .mixed = true },
		{ .region = 3 * 37 * KB, .min = { 4 * KB }, .max = { 64 * KB },
		  .nfiles = 3, .fst = GEN_FST_RR },
		{ .region = 288 * KB, .min = { 4 * KB }, .max = { 32 * KB },
		  .nfiles = 4, .flen = flen, .fst = GEN_FST_RANDOM },
		{ .bss = "4k/40:8k/30:20k/30", .region = 288 * KB,
		  .min = { 4 * KB }, .max = { 20 * KB }, .nfiles = 4,
		  .flen = flen },
		/* four levels of the bitmap: 2^20 units */
		{ .region = 512ull << 20, .min = { 512 }, .max = { 64 * KB } },
		/* 1m never fits: its share goes to the next size, none */
		{ .bss = "4k/50:1m/50", .region = 64 * KB, .min = { 4 * KB },
		  .max = { 1024 * KB } },
		/* 10k covers part of its third unit: the pass moves less
		 * than the region (pass_short), as fio's */
		{ .region = 4 << 20, .min = { 4 * KB }, .max = { 10 * KB },
		  .partial = true },
		{ .bss = "1k/20:2k/80,8k/10:16k/90", .region = 1 << 20,
		  .min = { 1 * KB, 8 * KB }, .max = { 2 * KB, 16 * KB },
		  .nfiles = 2, .fst = GEN_FST_RR, .mixed = true },
	};
	struct bssplit_spec bs;
	char why[256];
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct bmap_case *c = &cases[k];
		struct gen_params p = params_fixed(c->region, c->min[0], true,
						   DDIR_READ);
		struct gen g;
		uint64_t n;

		p.bs_min[1] = c->min[1] ? c->min[1] : c->min[0];
		p.bs_max[0] = c->max[0];
		p.bs_max[1] = c->max[1] ? c->max[1] : c->max[0];
		p.nfiles = c->nfiles;
		p.flen = c->flen;
		p.fst = c->fst;
		p.mixed = c->mixed;
		p.rwmixread = 30;
		p.seed = k;
		if (c->bss) {
			assert_int_equal(bssplit_parse(c->bss, 1024, &bs, why,
						       sizeof(why)), 0);
			p.bssplit = &bs;
		}
		init_ok(&g, &p);
		assert_true(g.use_bmap);
		n = bmap_pass(&g, c, c->bss ? &bs : NULL, true);
		if (k == 0) {
			double mean = (double)(1ull << 30) / (double)n / KB;

			assert_true(mean > 44.5 && mean < 47.5);
		}
		bmap_pass(&g, c, c->bss ? &bs : NULL, false);
		gen_free(&g);
	}
}

/*
 * randtrimwrite with a range: the trims are the map's (every unit once a
 * pass), each followed by a write of its offset and length (t0023).
 */
static void test_bmap_trimwrite(void **state)
{
	struct gen_params p = params_fixed(1 << 20, 512, true, DDIR_TRIM);
	unsigned char seen[2048] = { 0 };
	uint64_t bytes = 0, u;
	struct gen_io t, w;
	struct gen g;

	(void)state;
	p.bs_min[DDIR_TRIM] = 512;
	p.bs_max[DDIR_TRIM] = 4 * KB;
	p.trimwrite = true;
	init_ok(&g, &p);
	assert_true(g.use_bmap);
	while (bytes < p.region) {
		gen_next(&g, &t);
		gen_next(&g, &w);
		assert_int_equal(t.ddir, DDIR_TRIM);
		assert_int_equal(w.ddir, DDIR_WRITE);
		assert_false(t.new_pass || w.new_pass);
		assert_int_equal(w.offset, t.offset);
		assert_int_equal(w.len, t.len);
		for (u = t.foff / 512; u < (t.foff + t.len) / 512; u++)
			assert_int_equal(seen[u]++, 0);
		bytes += t.len;
	}
	assert_int_equal(bytes, p.region);
	gen_next(&g, &t);
	assert_true(t.new_pass);
	gen_free(&g);
}

/*
 * softrandommap: a map larger than map_max (the worker's: half of the
 * memory) is done without (here a region of 2^63 units against 1 GiB; a
 * limit, not malloc's failure, which a sanitizer makes an abort); without
 * it, -ENOMEM.
 */
static void test_bmap_nomem(void **state)
{
	struct gen_params p = params_fixed(1ull << 63, 1, true, DDIR_READ);
	struct gen g;

	(void)state;
	p.bs_max[DDIR_READ] = 8;
	p.map_max = 1ull << 30;
	assert_int_equal(gen_init(&g, &p), -ENOMEM);
	assert_true(gen_bmap_bytes(&g) > (1ull << 60));
	p.softrandommap = true;
	init_ok(&g, &p);
	assert_false(g.use_bmap);
	assert_true(g.map_dropped);
	assert_int_equal(g.mode, GEN_MODE_ANY);
	gen_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fst_uneven),
		cmocka_unit_test(test_ext_uneven),
		cmocka_unit_test(test_fst_pass),
		cmocka_unit_test(test_fst_regions),
		cmocka_unit_test(test_seq_order_and_wrap),
		cmocka_unit_test(test_seq_holes_pass),
		cmocka_unit_test(test_seq_exact_fit),
		cmocka_unit_test(test_seq_bsrange),
		cmocka_unit_test(test_seq_wrap_each),
		cmocka_unit_test(test_seq_gcd_align),
		cmocka_unit_test(test_map_coverage),
		cmocka_unit_test(test_map_scattered),
		cmocka_unit_test(test_map_only_fixed_bs),
		cmocka_unit_test(test_norandommap),
		cmocka_unit_test(test_random_bsrange),
		cmocka_unit_test(test_rwmix),
		cmocka_unit_test(test_rng_below_uniform),
		cmocka_unit_test(test_rng_below_unbiased),
		cmocka_unit_test(test_rng_seed),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_files_never_cross),
		cmocka_unit_test(test_seq_files),
		cmocka_unit_test(test_map_files),
		cmocka_unit_test(test_map_files_huge),
		cmocka_unit_test(test_any_files_uniform),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_data_fill),
		cmocka_unit_test(test_len_distribution),
		cmocka_unit_test(test_bmap_once),
		cmocka_unit_test(test_bmap_trimwrite),
		cmocka_unit_test(test_bmap_nomem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
