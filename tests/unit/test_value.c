// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/lib/value.c. Tables of good inputs with their values and
 * tables of bad inputs with their error codes. Every failure must leave the
 * output untouched and explain itself in `why`.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit.h"

#include "value.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define KI	1024ULL
#define MI	(KI * KI)
#define GI	(MI * KI)
#define TI	(GI * KI)
#define PI	(TI * KI)
#define EI	(PI * KI)

#define US	1000ULL
#define MS	(1000 * US)
#define S	(1000 * MS)
#define MIN	(60 * S)
#define HOUR	(60 * MIN)
#define DAY	(24 * HOUR)

/* Written to outputs before a call; a failing call must leave it there. */
#define SENTINEL	0x5eed5eed5eed5eedULL

/* Like assert_true, but names the table case that failed. */

/* A failure message must be non-empty, mention "expected", and quote the
 * (trimmed) input when it is short enough to quote whole. */
static void check_why(const char *in, const char *why)
{
	char quoted[64];
	const char *b = in, *e;

	CHECK(why[0] != '\0', "'%s': empty why", in);
	CHECK(strstr(why, "expected") != NULL, "'%s': why '%s' lacks "
	      "'expected'", in, why);
	while (*b == ' ' || *b == '\t' || *b == '\n')
		b++;
	e = b + strlen(b);
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	if (e == b || e - b > 40)
		return;
	snprintf(quoted, sizeof(quoted), "'%.*s'", (int)(e - b), b);
	CHECK(strstr(why, quoted) != NULL, "'%s': why '%s' does not quote it",
	      in, why);
}

static bool near(double a, double b)
{
	return near_tol(a, b, 1e-9);
}

/* ---- value_size ---- */

struct size_case {
	const char *in;
	unsigned kb_base;
	uint64_t want;
};

static const struct size_case size_good[] = {
	{ "0", 1024, 0 },
	{ "1", 1024, 1 },
	{ "4096", 1024, 4096 },
	{ "  4096  ", 1024, 4096 },
	{ "\t4k\n", 1024, 4096 },
	{ "4k", 1024, 4 * KI },
	{ "4K", 1024, 4 * KI },
	{ "4kb", 1024, 4 * KI },
	{ "4KB", 1024, 4 * KI },
	{ "4kib", 1024, 4 * KI },
	{ "4KiB", 1024, 4 * KI },
	{ "4KIB", 1024, 4 * KI },
	{ "4 k", 1024, 4 * KI },
	{ "4 KiB", 1024, 4 * KI },
	{ "1m", 1024, MI },
	{ "1M", 1024, MI },
	{ "1mb", 1024, MI },
	{ "1MiB", 1024, MI },
	{ "2g", 1024, 2 * GI },
	{ "2GiB", 1024, 2 * GI },
	{ "2gb", 1024, 2 * GI },
	{ "1t", 1024, TI },
	{ "1TB", 1024, TI },
	{ "1tib", 1024, TI },
	{ "1p", 1024, PI },
	{ "1PB", 1024, PI },
	{ "1PiB", 1024, PI },
	{ "4096b", 1024, 4096 },
	{ "4096B", 1024, 4096 },
	{ "0b", 1024, 0 },
	{ "1.5m", 1024, 1572864 },
	{ "0.5k", 1024, 512 },
	{ ".5k", 1024, 512 },
	{ "2.", 1024, 2 },
	{ "2.0", 1024, 2 },
	{ "1.25k", 1024, 1280 },
	{ "1.5000000000000000000000000000000000000000m", 1024, 1572864 },
	{ "0001k", 1024, KI },
	{ "0x10", 1024, 16 },
	{ "0X1F", 1024, 31 },
	{ "0x1b", 1024, 27 },		/* hex digits are greedy */
	{ "0x10k", 1024, 16 * KI },
	{ "0xffffffffffffffff", 1024, UINT64_MAX },
	{ "18446744073709551615", 1024, UINT64_MAX },
	{ "18446744073709551615b", 1024, UINT64_MAX },
	{ "16383p", 1024, 16383 * PI },
	{ "16384p-1", 1024, UINT64_MAX },	/* 2^64 only in between */
	{ "24000/2*1m", 1024, 12000 * MI },
	{ "2*4k", 1024, 8 * KI },
	{ "(2*3)k", 1024, 6 * KI },
	{ "(2*3) k", 1024, 6 * KI },
	{ "(1+1)*(3-1)", 1024, 4 },
	{ " ( 2 + 2 ) * 1k ", 1024, 4 * KI },
	{ "1k+512", 1024, 1536 },
	{ "1.5k*2", 1024, 3072 },
	{ "3m/1k", 1024, 3072 },
	{ "1m/3*3", 1024, MI },
	{ "7/2*2", 1024, 7 },		/* exact: no rounding in between */
	{ "0.1+0.2+0.7", 1024, 1 },
	{ "1-2+3", 1024, 2 },		/* negative only in between */
	{ "8k-4k", 1024, 4 * KI },
	{ "-(-4k)", 1024, 4 * KI },
	{ "+4k", 1024, 4 * KI },
	{ "((((((1))))))", 1024, 1 },
	{ "(2*3)k*0", 1024, 0 },
	/* A stray ')' after a plain number: fio reads the number. */
	{ "65536)", 1024, 65536 },
	{ "64k) )", 1024, 64 * KI },
	/* kb_base=1000: k..p and kb..pb decimal, kib..pib binary. */
	{ "4k", 1000, 4000 },
	{ "4K", 1000, 4000 },
	{ "4kb", 1000, 4000 },
	{ "4KB", 1000, 4000 },
	{ "4kib", 1000, 4096 },
	{ "4KiB", 1000, 4096 },
	{ "1m", 1000, 1000000 },
	{ "1.5m", 1000, 1500000 },
	{ "1.3k", 1000, 1300 },
	{ "1MiB", 1000, MI },
	{ "1g", 1000, 1000000000 },
	{ "1t", 1000, 1000000000000ULL },
	{ "1p", 1000, 1000000000000000ULL },
	{ "1PiB", 1000, PI },
	{ "4096", 1000, 4096 },
};

struct bad_case {
	const char *in;
	unsigned kb_base;
	int err;
};

static const struct bad_case size_bad[] = {
	{ "", 1024, -EINVAL },
	{ " ", 1024, -EINVAL },
	{ " \t\n ", 1024, -EINVAL },
	{ "-1", 1024, -EINVAL },
	{ "-4k", 1024, -EINVAL },
	{ "- 1", 1024, -EINVAL },
	{ "4k-8k", 1024, -EINVAL },	/* negative */
	{ "2*-1", 1024, -EINVAL },
	{ "1.3", 1024, -EINVAL },
	{ "0.3k", 1024, -EINVAL },
	{ "1.0001k", 1024, -EINVAL },
	{ "1.3k", 1024, -EINVAL },	/* 1331.2 bytes with kb_base 1024 */
	{ "1/3", 1024, -EINVAL },
	{ "4k/3", 1024, -EINVAL },
	{ "10 / 4", 1024, -EINVAL },
	{ "abc", 1024, -EINVAL },
	{ "k", 1024, -EINVAL },
	{ "kb", 1024, -EINVAL },
	{ "b", 1024, -EINVAL },
	{ "4kk", 1024, -EINVAL },
	{ "4km", 1024, -EINVAL },
	{ "4k4", 1024, -EINVAL },
	{ "4 k x", 1024, -EINVAL },
	{ "4k b", 1024, -EINVAL },
	{ "4 096", 1024, -EINVAL },
	{ "1e3", 1024, -EINVAL },	/* no exponent notation */
	{ "1E3", 1024, -EINVAL },
	{ "1e-3", 1024, -EINVAL },
	{ "1 e3", 1024, -EINVAL },
	{ "1x", 1024, -EINVAL },
	{ "1s", 1024, -EINVAL },
	{ "1e", 1024, -EINVAL },
	{ "1kibibyte", 1024, -EINVAL },
	{ ".", 1024, -EINVAL },
	{ "..5", 1024, -EINVAL },
	{ "1..5", 1024, -EINVAL },
	{ "1.2.3", 1024, -EINVAL },
	{ "0x", 1024, -EINVAL },
	{ "0xg", 1024, -EINVAL },
	{ "0x1.8", 1024, -EINVAL },
	{ "0x-1", 1024, -EINVAL },
	{ "0b101", 1024, -EINVAL },
	{ "inf", 1024, -EINVAL },
	{ "nan", 1024, -EINVAL },
	{ "1%", 1024, -EINVAL },
	{ "4k,8k", 1024, -EINVAL },
	{ "4k:8k", 1024, -EINVAL },
	{ "4k;", 1024, -EINVAL },
	{ "4k#", 1024, -EINVAL },
	{ "$4k", 1024, -EINVAL },
	{ "\xd9\xa3", 1024, -EINVAL },	/* Arabic-Indic digit three */
	{ "1/0", 1024, -EINVAL },
	{ "0/0", 1024, -EINVAL },
	{ "1k/(1-1)", 1024, -EINVAL },
	{ "1/0k", 1024, -EINVAL },
	{ "(", 1024, -EINVAL },
	{ ")", 1024, -EINVAL },
	{ "()", 1024, -EINVAL },
	{ "(1", 1024, -EINVAL },
	{ "((1)", 1024, -EINVAL },
	{ "1*1)", 1024, -EINVAL },
	{ "(1))", 1024, -EINVAL },
	{ "(1 2)", 1024, -EINVAL },
	{ "1(2)", 1024, -EINVAL },
	{ "1+", 1024, -EINVAL },
	{ "1-", 1024, -EINVAL },
	{ "1*", 1024, -EINVAL },
	{ "1/", 1024, -EINVAL },
	{ "+", 1024, -EINVAL },
	{ "-", 1024, -EINVAL },
	{ "*2", 1024, -EINVAL },
	{ "/2", 1024, -EINVAL },
	{ "1**2", 1024, -EINVAL },
	{ "1//2", 1024, -EINVAL },
	{ "1 2", 1024, -EINVAL },
	{ "k4", 1024, -EINVAL },
	{ "4k", 512, -EINVAL },		/* kb_base is 1000 or 1024 */
	{ "4k", 0, -EINVAL },
	/* Out of 64 bits. */
	{ "17179869184p", 1024, -ERANGE },
	{ "16384p", 1024, -ERANGE },
	{ "16eib", 1024, -EINVAL },	/* no exa unit */
	{ "99999999999999999999", 1024, -ERANGE },
	{ "18446744073709551616", 1024, -ERANGE },
	{ "18446744073709551615+1", 1024, -ERANGE },
	{ "0x10000000000000000", 1024, -ERANGE },
	{ "18446744073709551616b", 1024, -ERANGE },
	{ "1p*1p*1p", 1024, -ERANGE },		/* past 128 bits, too */
	{ "99999999999999999999999999999999999999999", 1024, -ERANGE },
	{ "0x1ffffffffffffffffffffffffffffffff", 1024, -ERANGE },
	{ "0.00000000000000000000000000000000000000001", 1024, -ERANGE },
	{ "1.5p*100000", 1000, -ERANGE },
};

static void test_size_good(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(size_good); i++) {
		const struct size_case *c = &size_good[i];

		v = SENTINEL;
		why[0] = '\0';
		ret = value_size(c->in, c->kb_base, &v, why, sizeof(why));
		CHECK(ret == 0, "'%s' kb_base %u: ret %d, why '%s'", c->in,
		      c->kb_base, ret, why);
		CHECK(v == c->want, "'%s' kb_base %u: got %llu, want %llu",
		      c->in, c->kb_base, (unsigned long long)v,
		      (unsigned long long)c->want);
	}
}

static void test_size_bad(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(size_bad); i++) {
		const struct bad_case *c = &size_bad[i];

		v = SENTINEL;
		why[0] = '\0';
		ret = value_size(c->in, c->kb_base, &v, why, sizeof(why));
		CHECK(ret == c->err, "'%s' kb_base %u: ret %d, want %d (why "
		      "'%s')", c->in, c->kb_base, ret, c->err, why);
		CHECK(v == SENTINEL, "'%s': output written on failure", c->in);
		if (c->kb_base == 1000 || c->kb_base == 1024)
			check_why(c->in, why);
		else
			CHECK(why[0], "'%s': empty why", c->in);
	}
}

static void test_size_null(void **state)
{
	char why[128] = "";
	uint64_t v = SENTINEL;

	assert_int_equal(value_size(NULL, 1024, &v, why, sizeof(why)),
			 -EINVAL);
	assert_true(v == SENTINEL);
	assert_string_equal(why, "empty value; expected a size such as 4096, "
			    "4k, 1.5m or 2GiB");
}

struct why_case {
	const char *in;
	const char *why;
};

static const struct why_case size_why[] = {
	{ "1.3", "'1.3' is not a whole number of bytes; expected a size "
		 "such as 4096, 4k, 1.5m or 2GiB" },
	{ "4kk", "'4kk' has unknown unit 'kk'; expected a size such as "
		 "4096, 4k, 1.5m or 2GiB" },
	{ "1e3", "'1e3' has unknown unit 'e3'; expected a size such as "
		 "4096, 4k, 1.5m or 2GiB" },
	{ "abc", "'abc' is not a number; expected a size such as 4096, 4k, "
		 "1.5m or 2GiB" },
	{ "-1", "'-1' is negative; expected a size such as 4096, 4k, 1.5m "
		"or 2GiB" },
	{ "1/0", "'1/0' divides by zero; expected a size such as 4096, 4k, "
		 "1.5m or 2GiB" },
	{ "(1", "'(1' has an unclosed '('; expected a size such as 4096, "
		"4k, 1.5m or 2GiB" },
	{ "1+1)", "'1+1)' has an unmatched ')'; expected a size such as "
		  "4096, 4k, 1.5m or 2GiB" },
	{ "(1)k)", "'(1)k)' has an unmatched ')'; expected a size such as "
		   "4096, 4k, 1.5m or 2GiB" },
	{ "4k)x", "'4k)x' has an unmatched ')'; expected a size such as "
		  "4096, 4k, 1.5m or 2GiB" },
	{ "1+", "'1+' is incomplete; expected a size such as 4096, 4k, "
		"1.5m or 2GiB" },
	{ "4 k x", "'4 k x' has unexpected 'x'; expected a size such as "
		   "4096, 4k, 1.5m or 2GiB" },
	{ "17179869184p", "'17179869184p' is too large (at most "
			  "18446744073709551615 bytes); expected a size such "
			  "as 4096, 4k, 1.5m or 2GiB" },
};

static void test_size_why(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(size_why); i++) {
		assert_true(value_size(size_why[i].in, 1024, &v, why,
				       sizeof(why)) < 0);
		assert_string_equal(why, size_why[i].why);
	}
}

/* Small or missing why buffers are never overrun; long input is cut. */
static void test_size_why_buffers(void **state)
{
	char why[16], big[256], in[200];
	uint64_t v = SENTINEL;

	memset(why, 'X', sizeof(why));
	assert_int_equal(value_size("abc", 1024, &v, why, 8), -EINVAL);
	assert_int_equal(strlen(why), 7);
	assert_int_equal(why[8], 'X');

	assert_int_equal(value_size("abc", 1024, &v, NULL, 0), -EINVAL);
	assert_int_equal(value_size("abc", 1024, &v, why, 0), -EINVAL);
	assert_true(v == SENTINEL);

	memset(in, '1', sizeof(in) - 2);
	in[sizeof(in) - 2] = 'x';
	in[sizeof(in) - 1] = '\0';
	assert_int_equal(value_size(in, 1024, &v, big, sizeof(big)), -ERANGE);
	assert_non_null(strstr(big, "...' "));
	assert_non_null(strstr(big, "expected a size"));

	memset(in, '(', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	assert_int_equal(value_size(in, 1024, &v, big, sizeof(big)), -EINVAL);
	assert_non_null(strstr(big, "too deeply"));
}

/* ---- value_time ---- */

struct time_case {
	const char *in;
	uint64_t unit;
	uint64_t want;
};

static const struct time_case time_good[] = {
	{ "0", S, 0 },
	{ "10", S, 10 * S },
	{ " 10 ", S, 10 * S },
	{ "10", MS, 10 * MS },
	{ "10", 1, 10 },
	{ "10", 0, 10 },		/* unit 0 is taken as 1ns */
	{ "1.5", S, 1500 * MS },
	{ "1.5", MS, 1500 * US },
	{ "0x10", S, 16 * S },
	{ "1.5s", US, 1500 * MS },
	{ "100ns", S, 100 },
	{ "100nsec", S, 100 },
	{ "100NS", S, 100 },
	{ "5us", S, 5 * US },
	{ "5usec", S, 5 * US },
	{ "5US", S, 5 * US },
	{ "5ms", S, 5 * MS },
	{ "5msec", S, 5 * MS },
	{ "5MS", S, 5 * MS },
	{ "2s", MS, 2 * S },
	{ "2sec", MS, 2 * S },
	{ "2 s", MS, 2 * S },
	{ "2S", MS, 2 * S },
	{ "2m", S, 2 * MIN },
	{ "2M", S, 2 * MIN },
	{ "2min", S, 2 * MIN },
	{ "1h", S, HOUR },
	{ "1H", S, HOUR },
	{ "1d", S, DAY },
	{ "1D", S, DAY },
	{ "1.5ms", S, 1500 * US },
	{ "0.5us", S, 500 },
	{ "1.000000001s", S, S + 1 },
	{ "1m+30s", S, 90 * S },
	{ "1s/2", S, 500 * MS },
	{ "2*1.5s", S, 3 * S },
	{ "(1+2)s", S, 3 * S },
	{ "24000/2*1ms", S, 12 * S },
	{ "60*60", S, HOUR },		/* no unit at all: default unit */
	{ "1s+500", S, S + 500 },	/* a unit anywhere: bare numbers ns */
	{ "213503d", S, 213503 * DAY },
	{ "18446744073709551615", 1, UINT64_MAX },
	{ "18446744073709551615ns", S, UINT64_MAX },
};

static const struct bad_case time_bad[] = {
	{ "", S, -EINVAL },
	{ "  ", S, -EINVAL },
	{ "1x", S, -EINVAL },		/* fio makes this 1us */
	{ "x", S, -EINVAL },
	{ "s", S, -EINVAL },
	{ "1e3", S, -EINVAL },
	{ "1k", S, -EINVAL },
	{ "1w", S, -EINVAL },
	{ "10y", S, -EINVAL },
	{ "1m30s", S, -EINVAL },	/* use 1m+30s */
	{ "1sec2", S, -EINVAL },
	{ "1 s s", S, -EINVAL },
	{ "1%", S, -EINVAL },
	{ "-1", S, -EINVAL },
	{ "-1s", S, -EINVAL },
	{ "1s-2s", S, -EINVAL },
	{ "1.5", 1, -EINVAL },		/* 1.5ns */
	{ "0.5ns", S, -EINVAL },
	{ "1.0000000005s", S, -EINVAL },
	{ "1/3s", S, -EINVAL },
	{ "1/0", S, -EINVAL },
	{ "1s/0", S, -EINVAL },
	{ "(1s", S, -EINVAL },
	{ "1s*1)", S, -EINVAL },
	{ "1s+", S, -EINVAL },
	{ "0:4", S, -EINVAL },
	{ "213504d", S, -ERANGE },
	{ "18446744073709551616ns", S, -ERANGE },
	{ "18446744073709551615", S, -ERANGE },	/* in seconds */
	{ "99999999999999999999", 1, -ERANGE },
};

static void test_time_good(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(time_good); i++) {
		const struct time_case *c = &time_good[i];

		v = SENTINEL;
		why[0] = '\0';
		ret = value_time(c->in, c->unit, &v, why, sizeof(why));
		CHECK(ret == 0, "'%s' unit %llu: ret %d, why '%s'", c->in,
		      (unsigned long long)c->unit, ret, why);
		CHECK(v == c->want, "'%s' unit %llu: got %llu, want %llu",
		      c->in, (unsigned long long)c->unit,
		      (unsigned long long)v, (unsigned long long)c->want);
	}
}

static void test_time_bad(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(time_bad); i++) {
		const struct bad_case *c = &time_bad[i];

		v = SENTINEL;
		why[0] = '\0';
		ret = value_time(c->in, c->kb_base, &v, why, sizeof(why));
		CHECK(ret == c->err, "'%s': ret %d, want %d (why '%s')",
		      c->in, ret, c->err, why);
		CHECK(v == SENTINEL, "'%s': output written on failure", c->in);
		check_why(c->in, why);
	}
}

static void test_time_why(void **state)
{
	char why[256];
	uint64_t v;

	assert_int_equal(value_time("1x", S, &v, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'1x' has unknown unit 'x'; expected a time "
			    "such as 500ms, 10s or 1h (units ns us ms s m h "
			    "d; a bare number is in seconds)");
	assert_int_equal(value_time("1.5", 1, &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "'1.5' is not a whole number of "
				    "nanoseconds"));
	assert_non_null(strstr(why, "a bare number is in nanoseconds"));
	assert_int_equal(value_time("", MS, &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "empty value"));
	assert_non_null(strstr(why, "a bare number is in milliseconds"));
	assert_int_equal(value_time("x", 250, &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "a bare number is in units of 250ns"));
}

/* ---- value_uint ---- */

struct uint_case {
	const char *in;
	uint64_t min;
	uint64_t max;
	uint64_t want;
	int err;
};

static const struct uint_case uint_cases[] = {
	{ "1", 1, 65536, 1, 0 },
	{ "65536", 1, 65536, 65536, 0 },
	{ " 32 ", 1, 65536, 32, 0 },
	{ "0x10", 1, 65536, 16, 0 },
	{ "2*16", 1, 65536, 32, 0 },
	{ "(1+1)*(3-1)", 1, 65536, 4, 0 },
	{ "9/3", 1, 65536, 3, 0 },
	{ "4.0", 1, 65536, 4, 0 },
	{ "0", 0, 0, 0, 0 },
	{ "18446744073709551615", 0, UINT64_MAX, UINT64_MAX, 0 },
	{ "0", 1, 65536, 0, -ERANGE },
	{ "65537", 1, 65536, 0, -ERANGE },
	{ "1", 2, 1, 0, -ERANGE },	/* empty range accepts nothing */
	{ "99999999999999999999", 0, UINT64_MAX, 0, -ERANGE },
	{ "18446744073709551616", 0, UINT64_MAX, 0, -ERANGE },
	{ "0:4", 1, 65536, 0, -EINVAL },	/* fio takes 0 */
	{ "1,2", 1, 65536, 0, -EINVAL },
	{ "1.5", 1, 65536, 0, -EINVAL },
	{ "5/2", 1, 65536, 0, -EINVAL },
	{ "4k", 1, 65536, 0, -EINVAL },	/* no units */
	{ "4b", 1, 65536, 0, -EINVAL },
	{ "1x", 1, 65536, 0, -EINVAL },
	{ "1e3", 1, 65536, 0, -EINVAL },
	{ "-1", 0, 65536, 0, -EINVAL },
	{ "", 1, 65536, 0, -EINVAL },
	{ " ", 1, 65536, 0, -EINVAL },
	{ "abc", 1, 65536, 0, -EINVAL },
	{ "0x", 1, 65536, 0, -EINVAL },
	{ "1/0", 1, 65536, 0, -EINVAL },
	{ "(2", 1, 65536, 0, -EINVAL },
	{ "2 2", 1, 65536, 0, -EINVAL },
};

static void test_uint(void **state)
{
	char why[256];
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(uint_cases); i++) {
		const struct uint_case *c = &uint_cases[i];

		v = SENTINEL;
		why[0] = '\0';
		ret = value_uint(c->in, c->min, c->max, &v, why, sizeof(why));
		CHECK(ret == c->err, "'%s' [%llu, %llu]: ret %d, want %d "
		      "(why '%s')", c->in, (unsigned long long)c->min,
		      (unsigned long long)c->max, ret, c->err, why);
		if (!c->err) {
			CHECK(v == c->want, "'%s': got %llu, want %llu", c->in,
			      (unsigned long long)v,
			      (unsigned long long)c->want);
			continue;
		}
		CHECK(v == SENTINEL, "'%s': output written on failure", c->in);
		check_why(c->in, why);
	}
}

static void test_uint_why(void **state)
{
	char why[256];
	uint64_t v;

	assert_int_equal(value_uint("0", 1, 65536, &v, why, sizeof(why)),
			 -ERANGE);
	assert_string_equal(why, "'0' is out of range; expected an integer "
			    "from 1 to 65536");
	assert_int_equal(value_uint("0:4", 1, 65536, &v, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "'0:4' has unexpected ':'; expected an "
			    "integer from 1 to 65536");
	assert_int_equal(value_uint("4k", 1, 65536, &v, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "'4k' has unexpected 'k'; expected an "
			    "integer from 1 to 65536");
	assert_int_equal(value_uint("1.5", 1, 65536, &v, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "'1.5' is not a whole number; expected an "
			    "integer from 1 to 65536");
}

/* ---- value_bool ---- */

struct bool_case {
	const char *in;
	bool want;
};

static const struct bool_case bool_good[] = {
	{ "1", true }, { "0", false },
	{ "yes", true }, { "no", false },
	{ "YES", true }, { "No", false },
	{ "true", true }, { "false", false },
	{ "TrUe", true }, { "FALSE", false },
	{ "on", true }, { "off", false },
	{ "ON", true }, { "Off", false },
	{ " on ", true }, { "\tno\n", false },
};

static const char *const bool_bad[] = {
	"", " ", "2", "-1", "10", "01", "00", "1.0", "y", "n", "t", "f",
	"o", "onn", "of", "offf", "yes please", "truee", "nope", "enable",
	"1 1", "0x1",
};

static void test_bool(void **state)
{
	char why[256];
	size_t i;
	bool v;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bool_good); i++) {
		v = !bool_good[i].want;
		ret = value_bool(bool_good[i].in, &v, why, sizeof(why));
		CHECK(ret == 0, "'%s': ret %d", bool_good[i].in, ret);
		CHECK(v == bool_good[i].want, "'%s': wrong value",
		      bool_good[i].in);
	}
	for (i = 0; i < ARRAY_SIZE(bool_bad); i++) {
		v = true;
		why[0] = '\0';
		ret = value_bool(bool_bad[i], &v, why, sizeof(why));
		CHECK(ret == -EINVAL, "'%s': ret %d", bool_bad[i], ret);
		CHECK(v == true, "'%s': output written on failure",
		      bool_bad[i]);
		check_why(bool_bad[i], why);
	}
	assert_int_equal(value_bool("maybe", &v, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'maybe' is not a boolean; expected 0/1, "
			    "yes/no, true/false or on/off");
	assert_int_equal(value_bool(NULL, &v, why, sizeof(why)), -EINVAL);
}

/* ---- value_pct and value_double ---- */

struct dbl_case {
	const char *in;
	double min;
	double max;
	double want;
	int err;
};

static const struct dbl_case pct_cases[] = {
	{ "50", 0, 100, 50, 0 },
	{ "50%", 0, 100, 50, 0 },
	{ "12.5%", 0, 100, 12.5, 0 },
	{ " 50 % ", 0, 100, 50, 0 },
	{ "0", 0, 100, 0, 0 },
	{ "0%", 0, 100, 0, 0 },
	{ "100", 0, 100, 100, 0 },
	{ "100%", 0, 100, 100, 0 },
	{ "0.5", 0, 100, 0.5, 0 },
	{ "99.99%", 0, 100, 99.99, 0 },
	{ "100/3", 0, 100, 100.0 / 3, 0 },
	{ "", 0, 100, 0, -EINVAL },
	{ " ", 0, 100, 0, -EINVAL },
	{ "%", 0, 100, 0, -EINVAL },
	{ "%50", 0, 100, 0, -EINVAL },
	{ "50%%", 0, 100, 50, 0 },	/* fio reads "50%%" as 50% */
	{ "50%%%", 0, 100, 0, -EINVAL },
	{ "abc", 0, 100, 0, -EINVAL },
	{ "50k", 0, 100, 0, -EINVAL },
	{ "1e2", 0, 100, 0, -EINVAL },
	{ "5 0", 0, 100, 0, -EINVAL },
	{ "50/0", 0, 100, 0, -EINVAL },
	{ "101", 0, 100, 0, -ERANGE },
	{ "100.01%", 0, 100, 0, -ERANGE },
	{ "-1", 0, 100, 0, -ERANGE },
	{ "-0.5%", 0, 100, 0, -ERANGE },
};

static const struct dbl_case double_cases[] = {
	{ "99.99", 0, 100, 99.99, 0 },
	{ "99.999", 0, 100, 99.999, 0 },
	{ "-1.5", -10, 10, -1.5, 0 },
	{ "0", 0, 1, 0, 0 },
	{ "1", 0, 1, 1, 0 },
	{ ".5", 0, 1, 0.5, 0 },
	{ " 2.5 ", 0, 10, 2.5, 0 },
	{ "1/3", 0, 1, 1.0 / 3, 0 },
	{ "(1+2)*0.5", 0, 10, 1.5, 0 },
	{ "0x10", 0, 100, 16, 0 },
	{ "100.01", 0, 100, 0, -ERANGE },
	{ "-0.01", 0, 100, 0, -ERANGE },
	{ "1", 2, 3, 0, -ERANGE },
	{ "", 0, 100, 0, -EINVAL },
	{ "abc", 0, 100, 0, -EINVAL },
	{ "1e3", 0, 10000, 0, -EINVAL },
	{ "inf", 0, 100, 0, -EINVAL },
	{ "nan", 0, 100, 0, -EINVAL },
	{ "0x1p3", 0, 100, 0, -EINVAL },
	{ "1/0", 0, 100, 0, -EINVAL },
	{ "50%", 0, 100, 0, -EINVAL },
	{ "1k", 0, 10000, 0, -EINVAL },
	{ "1,5", 0, 100, 0, -EINVAL },
};

static void check_dbl_cases(const struct dbl_case *cases, size_t n, bool pct)
{
	char why[256];
	double v;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct dbl_case *c = &cases[i];

		v = -12345;
		why[0] = '\0';
		ret = pct ? value_pct(c->in, &v, why, sizeof(why)) :
			    value_double(c->in, c->min, c->max, &v, why,
					 sizeof(why));
		CHECK(ret == c->err, "'%s': ret %d, want %d (why '%s')",
		      c->in, ret, c->err, why);
		if (!c->err) {
			CHECK(near(v, c->want), "'%s': got %.17g, want %.17g",
			      c->in, v, c->want);
			continue;
		}
		CHECK(v == -12345, "'%s': output written on failure", c->in);
		check_why(c->in, why);
	}
}

static void test_pct(void **state)
{
	char why[256];
	double v;

	check_dbl_cases(pct_cases, ARRAY_SIZE(pct_cases), true);
	assert_int_equal(value_pct("101%", &v, why, sizeof(why)), -ERANGE);
	assert_string_equal(why, "'101%' is out of range; expected a "
			    "percentage from 0 to 100, such as 50 or 12.5%");
}

static void test_double(void **state)
{
	char why[256];
	double v;

	check_dbl_cases(double_cases, ARRAY_SIZE(double_cases), false);
	assert_int_equal(value_double("100.5", 0, 100, &v, why, sizeof(why)),
			 -ERANGE);
	assert_string_equal(why, "'100.5' is out of range; expected a number "
			    "from 0 to 100");
}

/* ---- value_count ---- */

struct count_case {
	const char *in;
	double want;
	int err;
};

static const struct count_case count_cases[] = {
	{ "50000", 50000, 0 },
	{ "0", 0, 0 },
	{ "0.5", 0.5, 0 },
	{ "40k", 40000, 0 },
	{ "40K", 40000, 0 },
	{ "1.5m", 1500000, 0 },
	{ "2g", 2e9, 0 },
	{ "1t", 1e12, 0 },
	{ " 12.5k ", 12500, 0 },
	{ "10k/4", 2500, 0 },
	{ "(1+1)k", 2000, 0 },
	{ "", 0, -EINVAL },
	{ "k", 0, -EINVAL },
	{ "-1", 0, -EINVAL },
	{ "1x", 0, -EINVAL },
	{ "1kb", 0, -EINVAL },
	{ "1KiB", 0, -EINVAL },
	{ "1e3", 0, -EINVAL },
	{ "5%", 0, -EINVAL },
	{ "1/0", 0, -EINVAL },
	{ "1,5", 0, -EINVAL },
};

static void test_count(void **state)
{
	char why[256];
	double v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(count_cases); i++) {
		const struct count_case *c = &count_cases[i];

		v = -12345;
		why[0] = '\0';
		ret = value_count(c->in, &v, why, sizeof(why));
		CHECK(ret == c->err, "'%s': ret %d, want %d (why '%s')",
		      c->in, ret, c->err, why);
		if (!c->err) {
			CHECK(near(v, c->want), "'%s': got %.17g, want %.17g",
			      c->in, v, c->want);
			continue;
		}
		CHECK(v == -12345, "'%s': output written on failure", c->in);
		check_why(c->in, why);
	}
	assert_int_equal(value_count("1x", &v, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'1x' has unknown unit 'x'; expected a "
			    "number such as 50000, 40k or 1.5m (k m g t: "
			    "powers of 1000)");
}

/* ---- value_size_range ---- */

struct range_case {
	const char *in;
	unsigned kb_base;
	uint64_t lo;
	uint64_t hi;
};

static const struct range_case range_good[] = {
	{ "4k", 1024, 4 * KI, 4 * KI },
	{ "4k-64k", 1024, 4 * KI, 64 * KI },
	{ "4k:64k", 1024, 4 * KI, 64 * KI },
	{ "64k-128k)", 1024, 64 * KI, 128 * KI },	/* fio reads 128k */
	{ " 4k - 64k ", 1024, 4 * KI, 64 * KI },
	{ "4k : 64k", 1024, 4 * KI, 64 * KI },
	{ "4k-4k", 1024, 4 * KI, 4 * KI },
	{ "1-2", 1024, 1, 2 },
	{ "512-1m", 1024, 512, MI },
	{ "1.5k-0x1000", 1024, 1536, 4096 },
	{ "4KiB-1MiB", 1024, 4 * KI, MI },
	{ "(8-2)k", 1024, 6 * KI, 6 * KI },	/* one size */
	{ "(8-2)k-(16-2)k", 1024, 6 * KI, 14 * KI },
	{ "(8-2)k:(16-2)k", 1024, 6 * KI, 14 * KI },
	{ "8k-4k:16k", 1024, 4 * KI, 16 * KI },	/* ':' first */
	{ "2*4k-64k", 1024, 8 * KI, 64 * KI },
	{ "4k-1m", 1000, 4000, 1000000 },
	{ "4kib-1mib", 1000, 4096, MI },
	{ "18446744073709551615", 1024, UINT64_MAX, UINT64_MAX },
};

static const struct bad_case range_bad[] = {
	{ "", 1024, -EINVAL },
	{ " ", 1024, -EINVAL },
	{ "-", 1024, -EINVAL },
	{ ":", 1024, -EINVAL },
	{ "0", 1024, -EINVAL },
	{ "0-4k", 1024, -EINVAL },
	{ "4k-0", 1024, -EINVAL },
	{ "0:4k", 1024, -EINVAL },
	{ "0-0", 1024, -EINVAL },
	{ "4k-", 1024, -EINVAL },
	{ "4k:", 1024, -EINVAL },
	{ ":4k", 1024, -EINVAL },
	{ "-4k", 1024, -EINVAL },
	{ "-4k-8k", 1024, -EINVAL },
	{ "4k--8k", 1024, -EINVAL },
	{ "4k-8k-16k", 1024, -EINVAL },
	{ "4k:8k:16k", 1024, -EINVAL },
	{ "4k:8k-16k", 1024, -EINVAL },
	{ "(4k-8k)", 1024, -EINVAL },
	{ "4k-abc", 1024, -EINVAL },
	{ "abc-4k", 1024, -EINVAL },
	{ "abc", 1024, -EINVAL },
	{ "4kk-8k", 1024, -EINVAL },
	{ "1.3-4k", 1024, -EINVAL },
	{ "4k-1e3", 1024, -EINVAL },
	{ "4k,8k", 1024, -EINVAL },
	{ "(4k-8k", 1024, -EINVAL },
	{ "4k-8k)x", 1024, -EINVAL },
	{ "4k-17179869184p", 1024, -ERANGE },
	{ "99999999999999999999-1", 1024, -ERANGE },
	{ "4k-8k", 512, -EINVAL },
};

static void test_range_good(void **state)
{
	uint64_t lo, hi;
	char why[256];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(range_good); i++) {
		const struct range_case *c = &range_good[i];

		lo = hi = SENTINEL;
		why[0] = '\0';
		ret = value_size_range(c->in, c->kb_base, &lo, &hi, why,
				       sizeof(why));
		CHECK(ret == 0, "'%s': ret %d, why '%s'", c->in, ret, why);
		CHECK(lo == c->lo && hi == c->hi, "'%s': got %llu-%llu, want "
		      "%llu-%llu", c->in, (unsigned long long)lo,
		      (unsigned long long)hi, (unsigned long long)c->lo,
		      (unsigned long long)c->hi);
	}
}

static void test_range_bad(void **state)
{
	uint64_t lo, hi;
	char why[256];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(range_bad); i++) {
		const struct bad_case *c = &range_bad[i];

		lo = hi = SENTINEL;
		why[0] = '\0';
		ret = value_size_range(c->in, c->kb_base, &lo, &hi, why,
				       sizeof(why));
		CHECK(ret == c->err, "'%s': ret %d, want %d (why '%s')",
		      c->in, ret, c->err, why);
		CHECK(lo == SENTINEL && hi == SENTINEL,
		      "'%s': output written on failure", c->in);
		CHECK(why[0], "'%s': empty why", c->in);
		if (c->kb_base == 1024)
			CHECK(strstr(why, "expected") != NULL,
			      "'%s': why '%s' lacks 'expected'", c->in, why);
	}
}

static void test_range_why(void **state)
{
	uint64_t lo, hi;
	char why[256];

	/* fio's meaning: the ends in either order. */
	assert_int_equal(value_size_range("64k-4k", 1024, &lo, &hi, why,
					  sizeof(why)), 0);
	assert_int_equal(lo, 4096);
	assert_int_equal(hi, 65536);
	assert_int_equal(value_size_range("0-4k", 1024, &lo, &hi, why,
					  sizeof(why)), -EINVAL);
	assert_string_equal(why, "'0' is zero; expected a size or a range "
			    "such as 4k-64k or 4k:64k");
	assert_int_equal(value_size_range("4k-", 1024, &lo, &hi, why,
					  sizeof(why)), -EINVAL);
	assert_string_equal(why, "'4k-' has no high end; expected a size or "
			    "a range such as 4k-64k or 4k:64k");
	assert_int_equal(value_size_range("4k-abc", 1024, &lo, &hi, why,
					  sizeof(why)), -EINVAL);
	assert_string_equal(why, "'abc' is not a number; expected a size or "
			    "a range such as 4k-64k or 4k:64k");
	assert_int_equal(value_size_range("-4k", 1024, &lo, &hi, why,
					  sizeof(why)), -EINVAL);
	assert_string_equal(why, "'-4k' is negative; expected a size or a "
			    "range such as 4k-64k or 4k:64k");
}

/* ---- value_split_rw ---- */

struct split_case {
	const char *in;
	int n;
	const char *a;
	const char *b;
};

static const struct split_case split_good[] = {
	{ "4k", 1, "4k", "4k" },
	{ " 4k ", 1, "4k", "4k" },
	{ "4k,64k", 2, "4k", "64k" },
	{ " 4k , 64k ", 2, "4k", "64k" },
	{ "4k-8k,16k:32k", 2, "4k-8k", "16k:32k" },
	{ "abc,4k", 2, "abc", "4k" },	/* each part is checked later */
	{ "a b,c", 2, "a b", "c" },
};

static const char *const split_bad[] = {
	"", " ", ",", " , ", "4k,", ",4k", "4k, ", " ,4k", "4k,,64k",
	",,", "a,b,c,d", "4k,8k,", "4k,8k,,", NULL,
};

static void test_split_rw(void **state)
{
	char parts[3][128], why[256];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(split_good); i++) {
		const struct split_case *c = &split_good[i];

		memset(parts, 'X', sizeof(parts));
		ret = value_split_rw(c->in, false, parts, why, sizeof(why));
		CHECK(ret == c->n, "'%s': ret %d, want %d (why '%s')", c->in,
		      ret, c->n, why);
		CHECK(!strcmp(parts[0], c->a) && !strcmp(parts[1], c->b),
		      "'%s': got '%s' '%s'", c->in, parts[0], parts[1]);
	}
	for (i = 0; i < ARRAY_SIZE(split_bad); i++) {
		why[0] = '\0';
		ret = value_split_rw(split_bad[i], false, parts, why, sizeof(why));
		CHECK(ret == -EINVAL, "'%s': ret %d", split_bad[i], ret);
		check_why(split_bad[i] ? split_bad[i] : "", why);
	}
}

static void test_split_rw_lengths(void **state)
{
	char parts[3][128], why[256], in[300];

	/* 127 characters fit with the NUL; 128 do not. */
	memset(in, 'a', 127);
	strcpy(in + 127, ",b");
	assert_int_equal(value_split_rw(in, false, parts, why, sizeof(why)), 2);
	assert_int_equal(strlen(parts[0]), 127);
	assert_string_equal(parts[1], "b");

	memset(in, 'a', 128);
	strcpy(in + 128, ",b");
	assert_int_equal(value_split_rw(in, false, parts, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "over 127 characters"));

	strcpy(in, "b,");
	memset(in + 2, 'a', 128);
	in[130] = '\0';
	assert_int_equal(value_split_rw(in, false, parts, why, sizeof(why)), -EINVAL);

	memset(in, 'a', 128);
	in[128] = '\0';
	assert_int_equal(value_split_rw(in, false, parts, why, sizeof(why)), -EINVAL);

	/* read,write,trim; a direction not given takes the last. */
	assert_int_equal(value_split_rw("a,b,c", false, parts, why, sizeof(why)),
			 3);
	assert_string_equal(parts[2], "c");
	assert_int_equal(value_split_rw("a,b", false, parts, why, sizeof(why)),
			 2);
	assert_string_equal(parts[2], "b");
	assert_int_equal(value_split_rw("a,b,c,d", false, parts, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "'a,b,c,d' has more than three items; "
			    "expected one value, or up to three separated by "
			    "commas (read,write,trim) such as 4k,64k");
}

/* "bs=abc,4k": the split succeeds, then the bad part is refused. */
static void test_split_then_size(void **state)
{
	char parts[3][128], why[256];
	uint64_t v = SENTINEL;

	assert_int_equal(value_split_rw("abc,4k", false, parts, why, sizeof(why)), 2);
	assert_int_equal(value_size(parts[0], 1024, &v, why, sizeof(why)),
			 -EINVAL);
	assert_true(v == SENTINEL);
	assert_int_equal(value_size(parts[1], 1024, &v, why, sizeof(why)), 0);
	assert_true(v == 4 * KI);
}

/* ---- formatting ---- */

struct fmt_bytes_case {
	uint64_t in;
	const char *want;
};

static const struct fmt_bytes_case fmt_bytes_cases[] = {
	{ 0, "0B" },
	{ 1, "1B" },
	{ 512, "512B" },
	{ 1023, "1023B" },
	{ 1024, "1KiB" },
	{ 1025, "1.00KiB" },
	{ 1100, "1.07KiB" },
	{ 1536, "1.50KiB" },
	{ 4096, "4KiB" },
	{ 1023 * KI, "1023KiB" },
	{ MI - 1, "1.00MiB" },		/* not "1024.00KiB" */
	{ MI, "1MiB" },
	{ MI + KI, "1.00MiB" },
	{ 1572864, "1.50MiB" },
	{ 128 * MI, "128MiB" },
	{ GI, "1GiB" },
	{ 3 * GI / 2, "1.50GiB" },
	{ TI, "1TiB" },
	{ PI, "1PiB" },
	{ EI, "1EiB" },
	{ 3 * EI, "3EiB" },
	{ UINT64_MAX, "16.00EiB" },
};

static void test_fmt_bytes(void **state)
{
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmt_bytes_cases); i++) {
		value_fmt_bytes(fmt_bytes_cases[i].in, buf, sizeof(buf));
		CHECK(!strcmp(buf, fmt_bytes_cases[i].want),
		      "%llu: got '%s', want '%s'",
		      (unsigned long long)fmt_bytes_cases[i].in, buf,
		      fmt_bytes_cases[i].want);
	}
	memset(buf, 'X', sizeof(buf));
	value_fmt_bytes(1536, buf, 4);
	assert_string_equal(buf, "1.5");
	assert_int_equal(buf[4], 'X');
	value_fmt_bytes(1536, buf, 0);
	assert_int_equal(buf[0], '1');
	value_fmt_bytes(1536, NULL, 0);
}

struct fmt_ns_case {
	double in;
	const char *want;
};

static const struct fmt_ns_case fmt_ns_cases[] = {
	{ 0, "0ns" },
	{ 1, "1ns" },
	{ 850, "850ns" },
	{ 850.4, "850ns" },
	{ 999, "999ns" },
	{ 999.4, "999ns" },
	{ 999.6, "1.00us" },		/* not "1000ns" */
	{ 1000, "1.00us" },
	{ 1234, "1.23us" },
	{ 999994, "999.99us" },
	{ 999996, "1.00ms" },
	{ 4560000, "4.56ms" },
	{ 1.2e9, "1.20s" },
	{ 59e9, "59.00s" },
	{ 3600e9, "3600.00s" },
	{ -850, "-850ns" },
	{ -1234, "-1.23us" },
	{ NAN, "nan" },
	{ INFINITY, "inf" },
};

static void test_fmt_ns(void **state)
{
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmt_ns_cases); i++) {
		value_fmt_ns(fmt_ns_cases[i].in, buf, sizeof(buf));
		CHECK(!strcmp(buf, fmt_ns_cases[i].want),
		      "%g: got '%s', want '%s'", fmt_ns_cases[i].in, buf,
		      fmt_ns_cases[i].want);
	}
	memset(buf, 'X', sizeof(buf));
	value_fmt_ns(1234, buf, 3);
	assert_string_equal(buf, "1.");
	assert_int_equal(buf[3], 'X');
	value_fmt_ns(1234, NULL, 0);
}

/* The shortest text that reads back exactly, with 6 digits at least. */
static void test_fmt_shortest(void **state)
{
	static const struct {
		double in;
		const char *want;
	} cases[] = {
		{ 50, "50" }, { 99.9, "99.9" }, { 99.99, "99.99" },
		{ 0.00001, "1e-05" }, { 100, "100" },
		{ 100.0 / 3, "33.333333333333336" },
		{ 33.333333333, "33.333333333" },
		{ 1234567.5, "1234567.5" },
	};
	char buf[40];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		value_fmt_shortest(cases[i].in, buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].want), "%.17g: got '%s', want '%s'",
		      cases[i].in, buf, cases[i].want);
		CHECK(strtod(buf, NULL) == cases[i].in, "%s does not read back",
		      buf);
	}
}

/* Three significant figures in the largest unit that keeps v >= 1. */
static void test_fmt_sig3(void **state)
{
	static const char *const units[5] = { "", "k", "M", "G", "T" };
	static const struct {
		double in;
		bool whole;
		const char *want;
	} cases[] = {
		{ 0, false, "0" }, { 0, true, "0" }, { 5.4, false, "5.40" },
		{ 5.4, true, "5" }, { 999, false, "999" },
		{ 999.5, false, "1.00k" },
		{ 1200, true, "1.20k" }, { 12345, false, "12.3k" },
		{ 120000, false, "120k" }, { 2.5e15, false, "2500T" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		value_fmt_sig3(cases[i].in, 1000, units, "", cases[i].whole,
			       buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].want), "%g: got '%s', want '%s'",
		      cases[i].in, buf, cases[i].want);
	}
	value_fmt_sig3(1536 * 1024, 1024, units, " ", false, buf, sizeof(buf));
	assert_string_equal(buf, "1.50 M");
}

/* significant_figures=: N figures, integer digits beyond N rounded away. */
static void test_fmt_sig(void **state)
{
	static const char *const units[5] = { "", "k", "M", "G", "T" };
	static const struct {
		double in;
		unsigned sig;
		const char *want;
	} cases[] = {
		{ 747.3, 1, "700" }, { 747.3, 2, "750" }, { 747.3, 4, "747.3" },
		{ 191234.5, 6, "191.234k" }, { 191234.5, 2, "190k" },
		{ 64000, 4, "64.00k" }, { 999.96, 4, "1.000k" },
		{ 999.94, 4, "999.9" }, { 5.4321, 10, "5.432100000" },
		{ 0, 6, "0" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		value_fmt_sig(cases[i].in, 1000, units, "", false,
			      cases[i].sig, buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].want), "%g at %u: got '%s', want "
		      "'%s'", cases[i].in, cases[i].sig, buf, cases[i].want);
	}
}

/* Formatting and parsing agree on exact binary sizes. */
static void test_fmt_bytes_round_trip(void **state)
{
	static const uint64_t sizes[] = {
		0, 1, 512, 4096, 65536, MI, 3 * MI, GI, 7 * TI, PI, EI,
	};
	char buf[32], why[128];
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		value_fmt_bytes(sizes[i], buf, sizeof(buf));
		if (sizes[i] >= EI)
			continue;	/* no exa suffix to parse back */
		assert_int_equal(value_size(buf, 1000, &v, why, sizeof(why)),
				 0);
		assert_true(v == sizes[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_good),
		cmocka_unit_test(test_size_bad),
		cmocka_unit_test(test_size_null),
		cmocka_unit_test(test_size_why),
		cmocka_unit_test(test_size_why_buffers),
		cmocka_unit_test(test_time_good),
		cmocka_unit_test(test_time_bad),
		cmocka_unit_test(test_time_why),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_uint_why),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_range_good),
		cmocka_unit_test(test_range_bad),
		cmocka_unit_test(test_range_why),
		cmocka_unit_test(test_split_rw),
		cmocka_unit_test(test_split_rw_lengths),
		cmocka_unit_test(test_split_then_size),
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_fmt_shortest),
		cmocka_unit_test(test_fmt_sig3),
		cmocka_unit_test(test_fmt_sig),
		cmocka_unit_test(test_fmt_bytes_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
