// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: every value parser on the input text, with the
 * parameters the option table uses and a few odd ones, checking what the
 * header promises: 0 or -EINVAL/-ERANGE, a message on failure, results
 * within bounds. The formatters get the input's first bytes as a raw
 * uint64_t and double (NaN and infinities included).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "value.h"

#define NS_S	1000000000ull

#define WHY_LEN	512

/* A parser's result: 0, or a known error with a message saying why. */
static void check_ret(int ret, char *why)
{
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ERANGE);
	if (ret)
		FUZZ_CHECK(why[0] && memchr(why, '\0', WHY_LEN));
	why[0] = '\0';
}

static void sizes(const char *s)
{
	char why[WHY_LEN] = "";
	static const unsigned bases[] = { 1024, 1000, 0, 1 };
	uint64_t v, lo, hi;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		check_ret(value_size(s, bases[i], &v, why, WHY_LEN), why);
		ret = value_size_range(s, bases[i], &lo, &hi, why, WHY_LEN);
		check_ret(ret, why);
		if (!ret)
			FUZZ_CHECK(lo > 0 && lo <= hi);
	}
	/* No room for a message, or no buffer at all, is allowed too. */
	ret = value_size(s, 1024, &v, why, 1);
	FUZZ_CHECK(ret == 0 || (ret < 0 && why[0] == '\0'));
	(void)value_size(s, 1024, &v, NULL, 0);
}

static void times(const char *s)
{
	char why[WHY_LEN] = "";
	static const uint64_t units[] = { 1, 1000, NS_S, 60 * NS_S, 0, 7 };
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		check_ret(value_time(s, units[i], &v, why, WHY_LEN), why);
}

static void numbers(const char *s)
{
	char why[WHY_LEN] = "";
	uint64_t u;
	double d;
	bool b;
	int ret;

	ret = value_uint(s, 0, UINT64_MAX, &u, why, WHY_LEN);
	check_ret(ret, why);
	ret = value_uint(s, 1, 4096, &u, why, WHY_LEN);
	check_ret(ret, why);
	if (!ret)
		FUZZ_CHECK(u >= 1 && u <= 4096);
	check_ret(value_bool(s, &b, why, WHY_LEN), why);
	ret = value_pct(s, &d, why, WHY_LEN);
	check_ret(ret, why);
	if (!ret)
		FUZZ_CHECK(d >= 0 && d <= 100);
	ret = value_double(s, 0, 100, &d, why, WHY_LEN);
	check_ret(ret, why);
	if (!ret)
		FUZZ_CHECK(d >= 0 && d <= 100);
	ret = value_double(s, -1e300, 1e300, &d, why, WHY_LEN);
	check_ret(ret, why);
	ret = value_count(s, &d, why, WHY_LEN);
	check_ret(ret, why);
	if (!ret)
		FUZZ_CHECK(d >= 0);
}

static void split(const char *s)
{
	char why[WHY_LEN] = "";
	char parts[3][128];
	int n, i;

	int dash;

	for (dash = 0; dash < 2; dash++) {
		n = value_split_rw(s, dash, parts, why, WHY_LEN);
		FUZZ_CHECK((n >= 1 && n <= 3) || n == -EINVAL);
		if (n < 0) {
			check_ret(n, why);
			continue;
		}
		for (i = 0; i < 3; i++)
			FUZZ_CHECK(memchr(parts[i], '\0', sizeof(parts[i])) &&
				   parts[i][0]);
	}
}

static void formats(const uint8_t *data, size_t size)
{
	char buf[64], tiny[4];
	uint64_t u = 0;
	double d;

	memcpy(&u, data, size < sizeof(u) ? size : sizeof(u));
	memcpy(&d, &u, sizeof(d));
	value_fmt_bytes(u, buf, sizeof(buf));
	FUZZ_CHECK(strlen(buf) < sizeof(buf) - 1);
	value_fmt_bytes(u, tiny, sizeof(tiny));
	value_fmt_bytes(u, NULL, 0);
	value_fmt_ns(d, buf, sizeof(buf));
	FUZZ_CHECK(buf[0]);
	value_fmt_ns(d, tiny, sizeof(tiny));
	value_fmt_ns((double)u, buf, sizeof(buf));
	value_fmt_ns(d, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);

	if (!s)
		return 0;
	sizes(s);
	times(s);
	numbers(s);
	split(s);
	formats(data, size);
	free(s);
	return 0;
}
