// SPDX-License-Identifier: MIT
/*
 * Unit tests for verify.c: CRC-32C (table and SSE 4.2) against published
 * vectors, verify_pattern parsing, the block format round trip for every
 * kind, each mismatch class built in memory and classified, the expected
 * generation of a write+verify run, verify_only's stale runs (within and
 * beyond its table), the bounded report, merging, and the job checks.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"
#include "job.h"
#include "options.h"
#include "stats.h"
#include "target.h"
#include "verify.h"

#define BS	4096u
#define SEED	0x5eedull
#define OFF	(7 * BS)

static void *block(void)
{
	void *p = NULL;

	assert_int_equal(posix_memalign(&p, 4096, BS), 0);
	return p;
}

static void fmt_init(struct verify_fmt *f, int kind)
{
	assert_int_equal(verify_fmt_init(f, kind, true), 0);
	if (kind == VERIFY_PATTERN) {
		memcpy(f->pattern, "\xde\xad\xbe\xef\x01", 5);
		f->plen = 5;
	}
}

static void fill(const struct verify_fmt *f, void *buf, uint64_t off,
		 uint64_t seed, uint64_t gen)
{
	struct verify_hdr h = {
		.offset = off, .seed = seed, .generation = gen,
		.time_ns = 1700000000123456789ull, .run_id = 0xabcdef,
	};

	verify_fill(f, buf, BS, &h);
}

static int classify(const struct verify_fmt *f, const void *buf,
		    struct verify_result *r)
{
	return verify_classify(f, buf, BS, OFF, SEED, r);
}

/* ---- CRC-32C ---- */

static void test_crc32c_vectors(void **state)
{
	static const struct {
		const char *data;
		size_t len;
		uint32_t crc;
	} v[] = {
		{ "123456789", 9, 0xe3069283 },
		{ "", 0, 0x00000000 },
		{ "a", 1, 0xc1d04330 },
	};
	struct verify_crc sw, hw;
	uint8_t buf[32];
	size_t i;

	(void)state;
	verify_crc_init(&sw, false);
	verify_crc_init(&hw, true);
	assert_false(sw.hw);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(verify_crc32c(&sw, v[i].data, v[i].len),
				 v[i].crc);
		assert_int_equal(verify_crc32c(&hw, v[i].data, v[i].len),
				 v[i].crc);
	}
	/* RFC 3720 B.4 */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(verify_crc32c(&sw, buf, 32), 0x8a9136aa);
	assert_int_equal(verify_crc32c(&hw, buf, 32), 0x8a9136aa);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(verify_crc32c(&sw, buf, 32), 0x62a8ab43);
	assert_int_equal(verify_crc32c(&hw, buf, 32), 0x62a8ab43);
	for (i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	assert_int_equal(verify_crc32c(&sw, buf, 32), 0x46dd794e);
	assert_int_equal(verify_crc32c(&hw, buf, 32), 0x46dd794e);
}

/* Both implementations agree at every alignment and length. */
static void test_crc32c_sw_hw_agree(void **state)
{
	struct verify_crc sw, hw;
	struct gen_rng r;
	uint8_t buf[300];
	size_t i, start, len;

	(void)state;
	verify_crc_init(&sw, false);
	verify_crc_init(&hw, true);
	gen_rng_seed(&r, 99);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)gen_rng_next(&r);
	for (start = 0; start < 9; start++)
		for (len = 0; len + start <= sizeof(buf); len += 7)
			assert_int_equal(verify_crc32c(&sw, buf + start, len),
					 verify_crc32c(&hw, buf + start, len));
}

/* ---- verify_pattern= ---- */

static void test_pattern_parse(void **state)
{
	static const struct {
		const char *text;
		int len;
		const char *bytes;
	} ok[] = {
		{ "0xdeadbeef", 4, "\xde\xad\xbe\xef" },
		{ "0XaB", 1, "\xab" },
		{ "0x00ff", 2, "\x00\xff" },
		{ "\"iorig\"", 5, "iorig" },
		{ "0xabc", 2, "\x0a\xbc" },	/* odd count, as fio */
		{ "0x01\"ab\"2", 4, "\x01" "ab\x02" },	/* items in a row */
		{ "\"0x12\"", 4, "0x12" },
		/* decimal, as fio reads it: the int's bytes, low first */
		{ "0", 1, "\x00" },
		{ "12", 1, "\x0c" },
		{ "258", 2, "\x02\x01" },
		{ "-1", 4, "\xff\xff\xff\xff" },
	};
	static const char *const bad[] = {
		"", "0x", "0xzz", "abc", "'/nonexistent/iorig'", "\"\"", "\"abc", "'abc\"",
		"0x 1", "12a", "-", "2147483648", "99999999999",
	};
	uint8_t out[VERIFY_PATTERN_MAX];
	char why[256], big[2 * VERIFY_PATTERN_MAX + 8];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(verify_pattern_parse(ok[i].text, out, why,
						      sizeof(why)), ok[i].len);
		assert_memory_equal(out, ok[i].bytes, (size_t)ok[i].len);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(verify_pattern_parse(bad[i], out, why,
						      sizeof(why)), -EINVAL);
		assert_true(why[0] != '\0');
	}
	/* The longest pattern, and one byte more. */
	big[0] = '0';
	big[1] = 'x';
	memset(big + 2, 'a', 2 * VERIFY_PATTERN_MAX);
	big[2 + 2 * VERIFY_PATTERN_MAX] = '\0';
	assert_int_equal(verify_pattern_parse(big, out, why, sizeof(why)),
			 VERIFY_PATTERN_MAX);
	strcpy(big + 2 + 2 * VERIFY_PATTERN_MAX, "aa");
	assert_int_equal(verify_pattern_parse(big, out, why, sizeof(why)),
			 -EINVAL);
}

/* ---- The block format ---- */

static void test_fill_round_trip(void **state)
{
	static const int kinds[] = { VERIFY_XXH3, VERIFY_CRC32C,
				     VERIFY_PATTERN };
	struct verify_result r;
	struct verify_fmt f;
	uint8_t *b = block();
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		fmt_init(&f, kinds[i]);
		fill(&f, b, OFF, SEED, 1000);
		assert_int_equal(classify(&f, b, &r), VC_OK);
		assert_true(r.has_hdr);
		assert_int_equal(r.hdr.magic, VERIFY_MAGIC);
		assert_int_equal(r.hdr.offset, OFF);
		assert_int_equal(r.hdr.len, BS);
		assert_int_equal(r.hdr.kind, kinds[i]);
		assert_int_equal(r.hdr.seed, SEED);
		assert_int_equal(r.hdr.generation, 1000);
		assert_int_equal(r.hdr.run_id, 0xabcdef);
		assert_true(verify_csum_ok(&f, b, BS));
		assert_string_equal(r.detail, "");
		if (kinds[i] == VERIFY_PATTERN)
			for (k = VERIFY_HDR_SIZE; k < BS; k++)
				assert_int_equal(b[k], f.pattern[k % 5]);
	}
	/* The data depends on the generation, the offset and the seed. */
	fmt_init(&f, VERIFY_XXH3);
	{
		uint8_t *c = block();

		fill(&f, c, OFF, SEED, 1001);
		assert_memory_not_equal(b + 64, c + 64, BS - 64);
		fill(&f, c, OFF + BS, SEED, 1000);
		assert_memory_not_equal(b + 64, c + 64, BS - 64);
		fill(&f, c, OFF, SEED + 1, 1000);
		assert_memory_not_equal(b + 64, c + 64, BS - 64);
		free(c);
	}
	/* The checksum covers everything but itself. */
	fmt_init(&f, VERIFY_CRC32C);
	fill(&f, b, OFF, SEED, 5);
	b[BS - 1] ^= 1;
	assert_false(verify_csum_ok(&f, b, BS));
	free(b);
}

/* ---- Each class ---- */

static void test_bad_checksum(void **state)
{
	static const int kinds[] = { VERIFY_XXH3, VERIFY_CRC32C,
				     VERIFY_PATTERN };
	struct verify_result r;
	struct verify_fmt f;
	uint8_t *b = block();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		fmt_init(&f, kinds[i]);
		/* One bit of the data. */
		fill(&f, b, OFF, SEED, 77);
		b[1500] ^= 0x08;
		assert_int_equal(classify(&f, b, &r), VC_BAD_CHECKSUM);
		assert_non_null(strstr(r.detail, "sector 2 "));
		assert_int_equal(r.sec.bad, 1);
		/* The first word of a sector. */
		fill(&f, b, OFF, SEED, 77);
		b[3 * VERIFY_SECTOR] ^= 0x80;
		assert_int_equal(classify(&f, b, &r), VC_BAD_CHECKSUM);
		assert_non_null(strstr(r.detail, "sector 3 "));
		/* A header field: the data is intact. */
		fill(&f, b, OFF, SEED, 77);
		b[offsetof(struct verify_hdr, time_ns)] ^= 1;
		assert_int_equal(classify(&f, b, &r), VC_BAD_CHECKSUM);
		assert_non_null(strstr(r.detail, "header is damaged"));
		/* The magic itself. */
		fill(&f, b, OFF, SEED, 77);
		b[0] ^= 4;
		assert_int_equal(classify(&f, b, &r), VC_BAD_CHECKSUM);
		assert_false(r.has_hdr);
		/* The stored checksum. */
		fill(&f, b, OFF, SEED, 77);
		b[offsetof(struct verify_hdr, csum) + 3] ^= 0x10;
		assert_int_equal(classify(&f, b, &r), VC_BAD_CHECKSUM);
	}
	free(b);
}

static void test_misdirected(void **state)
{
	struct verify_result r;
	struct verify_fmt f;
	uint8_t *b = block();

	(void)state;
	fmt_init(&f, VERIFY_XXH3);
	fill(&f, b, OFF + 3 * BS, SEED, 9);
	assert_int_equal(classify(&f, b, &r), VC_MISDIRECTED);
	assert_int_equal(r.hdr.offset, OFF + 3 * BS);
	assert_non_null(strstr(r.detail, "belongs at offset"));
	/* Another job's or file's block at the right offset. */
	fill(&f, b, OFF, SEED ^ 1, 9);
	assert_int_equal(classify(&f, b, &r), VC_MISDIRECTED);
	assert_non_null(strstr(r.detail, "another job or file"));
	free(b);
}

static void test_zeroed(void **state)
{
	struct verify_result r;
	struct verify_fmt f;
	uint8_t *b = block();

	(void)state;
	fmt_init(&f, VERIFY_CRC32C);
	memset(b, 0, BS);
	assert_int_equal(classify(&f, b, &r), VC_ZEROED);
	assert_false(r.has_hdr);
	free(b);
}

static void test_torn(void **state)
{
	struct verify_result r;
	struct verify_fmt f;
	uint8_t *b = block(), *old = block();

	(void)state;
	fmt_init(&f, VERIFY_XXH3);
	/* New header and first half, old second half. */
	fill(&f, old, OFF, SEED, 100);
	fill(&f, b, OFF, SEED, 200);
	memcpy(b + BS / 2, old + BS / 2, BS / 2);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_int_equal(r.hdr.generation, 200);
	assert_int_equal(r.sec.ngens, 2);
	assert_int_equal(r.sec.nruns, 2);
	assert_string_equal(r.detail, "sectors 0-3: generation 200; "
			    "sectors 4-7: generation 100");
	/* Old header and first half, new second half. */
	fill(&f, b, OFF, SEED, 200);
	memcpy(b, old, BS / 2);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_int_equal(r.hdr.generation, 100);
	/* A write that stopped: the tail is still zero. */
	fill(&f, b, OFF, SEED, 200);
	memset(b + 3 * VERIFY_SECTOR, 0, BS - 3 * VERIFY_SECTOR);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_int_equal(r.sec.zero, 5);
	assert_non_null(strstr(r.detail, "sectors 3-7: zeros"));
	/* The first sector lost: zeros, then data. */
	fill(&f, b, OFF, SEED, 200);
	memset(b, 0, VERIFY_SECTOR);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_false(r.has_hdr);
	/* A sector of each, every other one. */
	fill(&f, b, OFF, SEED, 200);
	memcpy(b + VERIFY_SECTOR, old + VERIFY_SECTOR, VERIFY_SECTOR);
	memcpy(b + 5 * VERIFY_SECTOR, old + 5 * VERIFY_SECTOR, VERIFY_SECTOR);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_int_equal(r.sec.nruns, 5);
	/* With a pattern only zeros tell a tear. */
	fmt_init(&f, VERIFY_PATTERN);
	fill(&f, b, OFF, SEED, 200);
	memset(b + BS / 2, 0, BS / 2);
	assert_int_equal(classify(&f, b, &r), VC_TORN);
	assert_non_null(strstr(r.detail, "the pattern"));
	free(b);
	free(old);
}

static void test_foreign(void **state)
{
	struct verify_result r;
	struct verify_fmt f, other;
	struct gen_rng rng;
	uint8_t *b = block();
	uint64_t *w = (uint64_t *)b;
	size_t i;

	(void)state;
	fmt_init(&f, VERIFY_XXH3);
	gen_rng_seed(&rng, 1);
	for (i = 0; i < BS / 8; i++)
		w[i] = gen_rng_next(&rng);
	assert_int_equal(classify(&f, b, &r), VC_FOREIGN);
	assert_non_null(strstr(r.detail, "never written with verification"));
	/* Another block size: the 2k header says so. */
	fill(&f, b, OFF, SEED, 5);
	verify_fill(&f, b, BS / 2, &(struct verify_hdr){ .offset = OFF,
		    .seed = SEED, .generation = 5 });
	assert_int_equal(classify(&f, b, &r), VC_FOREIGN);
	assert_non_null(strstr(r.detail, "block size of 2048"));
	/* Another kind. */
	fmt_init(&other, VERIFY_CRC32C);
	fill(&other, b, OFF, SEED, 5);
	assert_int_equal(classify(&f, b, &r), VC_FOREIGN);
	assert_non_null(strstr(r.detail, "verify=crc32c"));
	/* Intact, but another pattern than the one checked for. */
	fmt_init(&other, VERIFY_PATTERN);
	other.pattern[2] ^= 0xff;
	fill(&other, b, OFF, SEED, 5);
	fmt_init(&other, VERIFY_PATTERN);
	assert_int_equal(classify(&other, b, &r), VC_FOREIGN);
	assert_non_null(strstr(r.detail, "not verify_pattern"));
	/* Another seed's data under a damaged header is no data of ours. */
	fill(&f, b, OFF, SEED + 1, 5);
	b[offsetof(struct verify_hdr, time_ns)] ^= 1;
	assert_int_equal(classify(&f, b, &r), VC_FOREIGN);
	free(b);
}

/* ---- A job's context ---- */

struct fixture {
	struct job j;
	struct target t;
	struct target_file tf;
	struct verify_ctx *v;
	uint8_t *buf;
};

static void fixture_init_rw(struct fixture *x, uint64_t nblocks, bool only,
			    uint64_t backlog, int rw)
{
	memset(x, 0, sizeof(*x));
	assert_int_equal(options_defaults(&x->j), 0);
	x->j.vfy.verify = VERIFY_XXH3;
	x->j.io.rw = rw;
	x->j.vfy.verify_only = only;
	x->j.vfy.verify_backlog = backlog;
	x->j.io.bs_min[DDIR_WRITE] = x->j.io.bs_max[DDIR_WRITE] = BS;
	x->j.io.bs_min[DDIR_READ] = x->j.io.bs_max[DDIR_READ] = BS;
	x->tf.path = "v.dat";
	x->tf.fd = -1;
	x->tf.offset = 0;
	x->tf.len = nblocks * BS;
	x->t.files = &x->tf;
	x->t.nfiles = 1;
	x->t.file_region = nblocks * BS;
	x->t.region = nblocks * BS;
	assert_int_equal(verify_init(&x->v, &x->j, &x->t), 0);
	x->buf = block();
}

static void fixture_init(struct fixture *x, uint64_t nblocks, bool only,
			 uint64_t backlog)
{
	fixture_init_rw(x, nblocks, only, backlog, RW_WRITE);
}

static void fixture_exit(struct fixture *x)
{
	verify_exit(x->v);
	free(x->buf);
	job_free(&x->j);
}

/* write+verify: the generation each block must hold is known exactly. */
static void test_expected_generation(void **state)
{
	struct fixture x;
	struct verify_blk b;
	uint8_t *first = block();
	uint64_t g0;

	(void)state;
	fixture_init(&x, 8, false, 0);
	g0 = x.v->gen0;
	/* Pass 0 writes blocks 1 and 3 only: the rest is not checked. */
	verify_stamp(x.v, first, 1);
	verify_stamp(x.v, x.buf, 3);
	assert_true(verify_next_written(x.v, 0, &b));
	assert_int_equal(b.vblock, 1);
	assert_int_equal(b.generation, g0);
	assert_true(verify_next_written(x.v, 2, &b));
	assert_int_equal(b.vblock, 3);
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_OK);
	assert_false(verify_next_written(x.v, 4, &b));
	/* Pass 1 rewrites block 1: the old copy is now stale. */
	verify_new_pass(x.v);
	verify_stamp(x.v, x.buf, 1);
	assert_true(verify_next_written(x.v, 0, &b));
	assert_int_equal(b.vblock, 0);
	assert_int_equal(b.generation, g0);
	assert_true(verify_next_written(x.v, 1, &b));
	assert_int_equal(b.generation, g0 + 1);
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_OK);
	assert_int_equal(verify_check(x.v, first, &b), VC_STALE);
	/* A newer write than the run made is not what it expects either. */
	b.generation = g0 - 1;
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_FOREIGN);
	assert_int_equal(x.v->stats.blocks_checked, 4);
	assert_int_equal(x.v->stats.mismatches, 2);
	assert_int_equal(x.v->stats.by_class[VC_STALE], 1);
	assert_int_equal(x.v->stats.by_class[VC_FOREIGN], 1);
	assert_int_equal(x.v->stats.nfirst, 2);
	assert_int_equal(x.v->stats.first[0].cls, VC_STALE);
	assert_string_equal(x.v->stats.first[0].file, "v.dat");
	assert_int_equal(x.v->stats.first[0].offset, BS);
	assert_true(x.v->stats.first[0].exp_gen);
	assert_int_equal(x.v->stats.first[0].expected.generation, g0 + 1);
	assert_true(x.v->stats.first[0].found_hdr);
	assert_int_equal(x.v->stats.first[0].found.generation, g0);
	assert_false(x.v->halt);
	free(first);
	fixture_exit(&x);
}

static void test_fatal_and_backlog_ring(void **state)
{
	struct fixture x;
	struct verify_blk b = { .vblock = 2 };

	(void)state;
	fixture_init(&x, 8, false, 3);
	x.v->fatal = true;
	verify_stamp(x.v, x.buf, 5);
	verify_stamp(x.v, x.buf, 6);
	assert_int_equal(x.v->ring_len, 2);
	assert_int_equal(x.v->ring[1].vblock, 6);
	assert_int_equal(x.v->ring[1].generation, x.v->gen0);
	b.generation = x.v->gen0;
	memset(x.buf, 0, BS);
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_ZEROED);
	assert_true(x.v->halt);
	assert_true(x.v->stats.stopped);
	assert_false(x.v->stats.first[0].found_hdr);
	fixture_exit(&x);
}

/*
 * A block whose last write failed or came up short is not checked: the
 * scan and the backlog skip it, and verify_end counts it. A later good
 * write of it makes it a block to check again.
 */
static void test_failed_writes(void **state)
{
	struct fixture x;
	struct verify_blk b;
	uint64_t g0;

	(void)state;
	fixture_init(&x, 130, false, 0);
	g0 = x.v->gen0;
	/* Pass 0: blocks 0-2 and 127-129; 1, 2, 128 fail, 129 is short. */
	verify_stamp(x.v, x.buf, 0);
	verify_write_done(x.v, 0, true);
	verify_stamp(x.v, x.buf, 1);
	verify_write_done(x.v, 1, false);
	verify_stamp(x.v, x.buf, 2);
	verify_write_done(x.v, 2, false);
	verify_stamp(x.v, x.buf, 127);
	verify_write_done(x.v, 127, true);
	verify_stamp(x.v, x.buf, 128);
	verify_write_done(x.v, 128, false);
	verify_stamp(x.v, x.buf, 129);
	verify_write_done(x.v, 129, false);
	assert_true(verify_write_failed(x.v, 1));
	assert_false(verify_write_failed(x.v, 0));
	assert_false(verify_write_failed(x.v, 130));
	assert_true(verify_next_written(x.v, 0, &b));
	assert_int_equal(b.vblock, 0);
	assert_true(verify_next_written(x.v, 1, &b));
	assert_int_equal(b.vblock, 127);
	assert_false(verify_next_written(x.v, 128, &b));
	/* Pass 1 writes block 1 again, and it lands; block 2 fails again. */
	verify_new_pass(x.v);
	verify_stamp(x.v, x.buf, 1);
	verify_write_done(x.v, 1, true);
	assert_false(verify_write_failed(x.v, 1));
	assert_true(verify_next_written(x.v, 1, &b));
	assert_int_equal(b.vblock, 1);
	assert_int_equal(b.generation, g0 + 1);
	/* Block 2 still holds no write of this run that landed. */
	assert_true(verify_next_written(x.v, 2, &b));
	assert_int_equal(b.vblock, 3);
	assert_int_equal(b.generation, g0);
	assert_false(verify_next_written(x.v, 128, &b));
	verify_end(x.v);
	assert_int_equal(x.v->stats.write_failed, 3);
	assert_int_equal(x.v->stats.mismatches, 0);
	fixture_exit(&x);
}

/* verify_only: the newest run's blocks are good, older runs' stale. */
static void test_verify_only_stale(void **state)
{
	struct fixture x;
	struct verify_fmt f;
	struct verify_hdr h = { 0 };
	struct verify_blk b = { 0 };
	uint64_t seed;

	(void)state;
	fixture_init(&x, 8, true, 0);
	fmt_init(&f, VERIFY_XXH3);
	seed = verify_file_seed(x.j.rnd.randseed, 0, 0);
	for (b.vblock = 0; b.vblock < 8; b.vblock++) {
		h.offset = b.vblock * BS;
		h.seed = seed;
		/* Block 2 and 6: an earlier run; block 4: a later pass. */
		h.run_id = b.vblock == 2 || b.vblock == 6 ? 11 : 22;
		h.generation = b.vblock == 2 || b.vblock == 6 ? 100 :
			       b.vblock == 4 ? 501 : 500;
		verify_fill(&f, x.buf, BS, &h);
		if (b.vblock == 7)
			memset(x.buf, 0, BS);
		verify_check(x.v, x.buf, &b);
	}
	assert_int_equal(x.v->stats.mismatches, 1);
	verify_end(x.v);
	assert_int_equal(x.v->stats.mismatches, 3);
	assert_int_equal(x.v->stats.by_class[VC_STALE], 2);
	assert_int_equal(x.v->stats.by_class[VC_ZEROED], 1);
	/* In region order, with what the newest run says. */
	assert_int_equal(x.v->stats.nfirst, 3);
	assert_int_equal(x.v->stats.first[0].offset, 2 * BS);
	assert_int_equal(x.v->stats.first[0].cls, VC_STALE);
	assert_int_equal(x.v->stats.first[0].found.generation, 100);
	assert_int_equal(x.v->stats.first[0].expected.generation, 501);
	assert_int_equal(x.v->stats.first[0].expected.run_id, 22);
	assert_int_equal(x.v->stats.first[1].offset, 6 * BS);
	assert_int_equal(x.v->stats.first[2].offset, 7 * BS);
	assert_int_equal(x.v->stats.first[2].cls, VC_ZEROED);
	assert_true(x.v->stats.first[2].exp_gen);
	fixture_exit(&x);
}

/*
 * A job that only reads: any intact block of the right offset, length and
 * kind passes, whatever run, generation or seed wrote it; nothing is
 * stale. The rest is classified as for the others, the expected seed
 * being the header's when there is one.
 */
static void test_reader(void **state)
{
	struct fixture x;
	struct verify_fmt f;
	struct verify_hdr h = { 0 };
	struct verify_blk b = { 0 };
	uint64_t own;

	(void)state;
	fixture_init_rw(&x, 8, false, 16, RW_RANDREAD);
	assert_true(x.v->reader);
	assert_null(x.v->written);
	assert_null(x.v->wpass);
	assert_null(x.v->ring);
	assert_null(x.v->runs);
	assert_int_equal(x.v->bs, BS);
	fmt_init(&f, VERIFY_XXH3);
	own = verify_file_seed(x.j.rnd.randseed, 0, 0);
	for (b.vblock = 0; b.vblock < 6; b.vblock++) {
		h.offset = b.vblock * BS;
		h.seed = b.vblock < 3 ? own : own ^ 0x5555;
		h.run_id = 10 + b.vblock % 2;
		h.generation = 100 + b.vblock;
		verify_fill(&f, x.buf, BS, &h);
		assert_int_equal(verify_check(x.v, x.buf, &b), VC_OK);
	}
	/* Intact, but another offset's block. */
	h.offset = 7 * BS;
	verify_fill(&f, x.buf, BS, &h);
	b.vblock = 6;
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_MISDIRECTED);
	/* A flipped bit in another seed's block: that seed's sector 3. */
	h.offset = 7 * BS;
	verify_fill(&f, x.buf, BS, &h);
	x.buf[3 * 512 + 9] ^= 4;
	b.vblock = 7;
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_BAD_CHECKSUM);
	assert_non_null(strstr(x.v->stats.first[1].detail, "sector 3"));
	assert_int_equal(x.v->stats.first[1].expected.seed, own ^ 0x5555);
	assert_false(x.v->stats.first[1].exp_gen);
	/* Zeros: no header, the job's own seed expected. */
	memset(x.buf, 0, BS);
	b.vblock = 2;
	assert_int_equal(verify_check(x.v, x.buf, &b), VC_ZEROED);
	assert_int_equal(x.v->stats.first[2].expected.seed, own);
	verify_end(x.v);
	assert_int_equal(x.v->stats.blocks_checked, 9);
	assert_int_equal(x.v->stats.mismatches, 3);
	assert_int_equal(x.v->stats.by_class[VC_STALE], 0);
	fixture_exit(&x);
}

/* The unit of a job that only reads: its read sizes, not its writes'. */
static void test_reader_unit(void **state)
{
	struct job j;

	(void)state;
	assert_int_equal(options_defaults(&j), 0);
	j.vfy.verify = VERIFY_MD5;
	j.io.rw = RW_READ;
	j.io.bs_min[DDIR_READ] = 8192;
	j.io.bs_max[DDIR_READ] = 8192;
	j.io.bs_min[DDIR_WRITE] = j.io.bs_max[DDIR_WRITE] = 4096;
	assert_int_equal(verify_unit(&j), 8192);
	assert_true(verify_reader(&j));
	assert_false(verify_needs_passmap(&j));
	j.io.bs_min[DDIR_READ] = 512;
	j.io.bs_max[DDIR_READ] = 1048576;
	assert_int_equal(verify_unit(&j), 512);
	j.io.bs_min[DDIR_READ] = 4096;
	j.io.bs_max[DDIR_READ] = 16384;
	j.vfy.verify_interval = 1024;
	assert_int_equal(verify_unit(&j), 1024);
	j.vfy.verify_only = true; /* the writing job's options: its writes */
	assert_false(verify_reader(&j));
	assert_int_equal(verify_unit(&j), 1024);
	j.vfy.verify_interval = 0;
	assert_int_equal(verify_unit(&j), 4096);
	job_free(&j);
}

/* More runs than the table holds: still exactly the newest survives. */
static void run_many(bool rising)
{
	const uint64_t n = VERIFY_RUNS_MAX + 10;
	struct fixture x;
	struct verify_fmt f;
	struct verify_hdr h = { 0 };
	struct verify_blk b = { 0 };
	uint64_t seed;

	fixture_init(&x, n, true, 0);
	fmt_init(&f, VERIFY_XXH3);
	seed = verify_file_seed(x.j.rnd.randseed, 0, 0);
	for (b.vblock = 0; b.vblock < n; b.vblock++) {
		h.offset = b.vblock * BS;
		h.seed = seed;
		h.run_id = 1000 + b.vblock;
		h.generation = rising ? 1000 + b.vblock : 1000 + n - b.vblock;
		verify_fill(&f, x.buf, BS, &h);
		assert_int_equal(verify_check(x.v, x.buf, &b), VC_OK);
	}
	verify_end(x.v);
	assert_int_equal(x.v->stats.blocks_checked, n);
	assert_int_equal(x.v->stats.by_class[VC_STALE], n - 1);
	assert_int_equal(x.v->stats.mismatches, n - 1);
	assert_int_equal(x.v->stats.nfirst, VERIFY_FIRST_MAX);
	/* The first in region order, the newest left out. */
	assert_int_equal(x.v->stats.first[0].offset, rising ? 0 : BS);
	assert_int_equal(x.v->stats.first[VERIFY_FIRST_MAX - 1].offset,
			 (rising ? VERIFY_FIRST_MAX - 1 : VERIFY_FIRST_MAX) *
			 BS);
	fixture_exit(&x);
}

static void test_verify_only_many_runs(void **state)
{
	(void)state;
	run_many(true);
	run_many(false);
}

static void test_stats_merge(void **state)
{
	struct verify_stats a = { 0 }, b = { 0 };
	unsigned i;

	(void)state;
	b.kind = VERIFY_CRC32C;
	b.blocks_checked = 10;
	b.mismatches = 7;
	b.by_class[VC_TORN] = 7;
	b.runtime_ns = 5;
	b.nfirst = 7;
	for (i = 0; i < 7; i++)
		b.first[i].offset = i;
	verify_stats_merge(&a, &(struct verify_stats){ 0 });
	assert_int_equal(a.kind, VERIFY_NONE);
	verify_stats_merge(&a, &b);
	verify_stats_merge(&a, &b);
	assert_int_equal(a.kind, VERIFY_CRC32C);
	assert_int_equal(a.blocks_checked, 20);
	assert_int_equal(a.mismatches, 14);
	assert_int_equal(a.by_class[VC_TORN], 14);
	assert_int_equal(a.runtime_ns, 5);
	assert_int_equal(a.nfirst, VERIFY_FIRST_MAX);
	assert_int_equal(a.first[7].offset, 0);
	assert_string_equal(verify_class_name(VC_BAD_CHECKSUM),
			    "bad_checksum");
	assert_string_equal(verify_class_name(VC_OK), "ok");
	assert_string_equal(verify_kind_name(VERIFY_PATTERN), "pattern");
}

/* ---- Job checks ---- */

static void test_job_check(void **state)
{
	static const struct {
		int verify;
		int rw;
		uint64_t bs, bs_max;
		bool only, norandommap;
		uint64_t backlog;
		const char *pattern, *engine, *option;
	} c[] = {
		{ VERIFY_XXH3, RW_WRITE, 4096, 4096, 0, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_XXH3, RW_RANDWRITE, 512, 512, 0, 0, 8, NULL, "sync",
		  NULL },
		{ VERIFY_PATTERN, RW_WRITE, 4096, 4096, 0, 0, 0, "0x01",
		  "libaio", NULL },
		{ VERIFY_XXH3, RW_READ, 4096, 4096, 1, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_NONE, RW_READ, 4096, 4096, 0, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_NONE, RW_READ, 4096, 4096, 1, 0, 0, NULL, "sync",
		  "verify_only" },
		{ VERIFY_NONE, RW_WRITE, 4096, 4096, 0, 0, 4, NULL, "sync",
		  "verify_backlog" },
		/* verify_pattern after verify=0: nothing (fio's meaning) */
		{ VERIFY_NONE, RW_WRITE, 4096, 4096, 0, 0, 0, "0x01", "sync",
		  NULL },
		{ VERIFY_XXH3, RW_WRITE, 4096, 4096, 0, 0, 0, NULL, "null",
		  "verify" },
		{ VERIFY_PATTERN, RW_WRITE, 4096, 4096, 0, 0, 0, NULL, "sync",
		  "verify" },
		/* the pattern is the data of another kind's blocks */
		{ VERIFY_CRC32C, RW_WRITE, 4096, 4096, 0, 0, 0, "0x01", "sync",
		  NULL },
		{ VERIFY_META, RW_WRITE, 4096, 4096, 0, 0, 0, "0x01", "sync",
		  NULL },
		/* a range: checked per 4096 (verify_unit) */
		{ VERIFY_XXH3, RW_WRITE, 4096, 8192, 0, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_XXH3, RW_WRITE, 4096, 4608 + 2, 0, 0, 0, NULL, "sync",
		  "bs" },
		{ VERIFY_XXH3, RW_WRITE, 1000, 1000, 0, 0, 0, NULL, "sync",
		  "bs" },
		/* a job that only reads checks its reads (fio's meaning);
		 * the backlog has nothing to read back, as in fio */
		{ VERIFY_XXH3, RW_READ, 4096, 4096, 0, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_MD5, RW_RANDREAD, 4096, 4096, 0, 0, 8, NULL, "sync",
		  NULL },
		/* reads check what the run wrote; a pass map for both */
		{ VERIFY_XXH3, RW_RANDRW, 4096, 4096, 0, 0, 0, NULL, "sync",
		  NULL },
		{ VERIFY_XXH3, RW_RANDWRITE, 4096, 4096, 0, 1, 0, NULL, "sync",
		  NULL },
		{ VERIFY_XXH3, RW_WRITE, 4096, 4096, 1, 0, 4, NULL, "sync",
		  "verify_backlog" },
	};
	const char *opt;
	char why[256];
	struct job j;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(options_defaults(&j), 0);
		j.vfy.verify = c[i].verify;
		j.io.rw = c[i].rw;
		j.io.bs_min[DDIR_WRITE] = c[i].bs;
		j.io.bs_max[DDIR_WRITE] = c[i].bs_max;
		j.vfy.verify_only = c[i].only;
		j.rnd.norandommap = c[i].norandommap;
		j.vfy.verify_backlog = c[i].backlog;
		j.vfy.verify_pattern = c[i].pattern ? strdup(c[i].pattern) :
			NULL;
		free(j.eng.ioengine);
		j.eng.ioengine = strdup(c[i].engine);
		why[0] = '\0';
		ret = verify_job_check(&j, &opt, why, sizeof(why));
		if (!c[i].option) {
			assert_int_equal(ret, 0);
		} else {
			assert_int_equal(ret, -EINVAL);
			assert_string_equal(opt, c[i].option);
			assert_true(why[0] != '\0');
		}
		job_free(&j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_vectors),
		cmocka_unit_test(test_crc32c_sw_hw_agree),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_fill_round_trip),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_reader_unit),
		cmocka_unit_test(test_bad_checksum),
		cmocka_unit_test(test_misdirected),
		cmocka_unit_test(test_zeroed),
		cmocka_unit_test(test_torn),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_expected_generation),
		cmocka_unit_test(test_fatal_and_backlog_ring),
		cmocka_unit_test(test_failed_writes),
		cmocka_unit_test(test_verify_only_stale),
		cmocka_unit_test(test_verify_only_many_runs),
		cmocka_unit_test(test_stats_merge),
		cmocka_unit_test(test_job_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
