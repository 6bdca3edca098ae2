// SPDX-License-Identifier: MIT
/* profile.c: --profile=act's hours. Each job is judged on its own I/Os at
 * its first completion after an hour (fio's act_io_u_lat), the table adds
 * every job's. Times are given, so an hour takes no time here. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "unit.h"

#include "profile.h"

#define HOUR	(3600ull * 1000000000ull)
#define MS	1000000ull

/* Every act option at its default: test-duration 24 h, 24 slices. */
static const char *const defaults[64];

/* n I/Os of lat_ns into job h at since_ns; the first non-zero return. */
static int add_n(struct act_tally *t, struct act_hour *h, uint64_t since_ns,
		 unsigned n, uint64_t lat_ns, char *why, size_t len)
{
	int r = 0, x;

	while (n--) {
		x = act_tally_add(t, h, since_ns, lat_ns, why, len);
		if (x && !r)
			r = x;
	}
	return r;
}

static void test_judged_hourly(void **state)
{
	struct act_tally *t = act_tally_new(defaults);
	struct act_hour a = { 0 }, b = { 0 };
	char why[200] = "";

	(void)state;
	assert_non_null(t);
	/* hour 1: job a 999 fast and 1 over 64 ms (0.1%: fails, the limit
	 * is under 0.1%); job b 1000 fast */
	assert_int_equal(add_n(t, &a, HOUR / 2, 999, 100000, why, sizeof(why)),
			 0);
	assert_int_equal(add_n(t, &a, HOUR / 2, 1, 65 * MS, why, sizeof(why)),
			 0);
	assert_int_equal(add_n(t, &b, HOUR / 2, 1000, 100000, why,
			       sizeof(why)), 0);
	/* nothing is judged before the job's first I/O of hour 2 */
	CHECK(!why[0], "judged early: %s", why);
	assert_int_equal(act_tally_add(t, &a, HOUR + 1, 100000, why,
				       sizeof(why)), -ETIMEDOUT);
	CHECK(strstr(why, "hour 1: 0.10% of the job's I/Os over 64 ms") &&
	      strstr(why, "under 0.1%"), "message: %s", why);
	why[0] = '\0';
	assert_int_equal(act_tally_add(t, &b, HOUR + 1, 100000, why,
				       sizeof(why)), 0);
	CHECK(!why[0], "job b judged by a's I/Os: %s", why);
	/* the failed hour is judged once, not again at the next I/O */
	assert_int_equal(act_tally_add(t, &a, HOUR + 2, 100000, why,
				       sizeof(why)), 0);
	act_tally_free(t);
}

static void test_thresholds(void **state)
{
	struct act_tally *t = act_tally_new(defaults);
	struct act_hour h = { 0 };
	char why[200];

	(void)state;
	assert_non_null(t);
	/* 4.9% over 1 ms passes (limit: under 5%) */
	add_n(t, &h, 0, 951, 100000, why, sizeof(why));
	add_n(t, &h, 0, 49, 2 * MS, why, sizeof(why));
	assert_int_equal(act_tally_add(t, &h, HOUR, 1, why, sizeof(why)), 0);
	/* 5.0% fails */
	add_n(t, &h, HOUR, 949, 100000, why, sizeof(why));
	add_n(t, &h, HOUR, 50, 2 * MS, why, sizeof(why));
	assert_int_equal(act_tally_add(t, &h, 2 * HOUR, 1, why, sizeof(why)),
			 -ETIMEDOUT);
	CHECK(strstr(why, "hour 2: 5.00% of the job's I/Os over 1 ms"),
	      "message: %s", why);
	/* an I/O over 64 ms counts in 64 ms only: 9 of 1000 pass 8 ms */
	add_n(t, &h, 2 * HOUR, 991, 100000, why, sizeof(why));
	add_n(t, &h, 2 * HOUR, 9, 70 * MS, why, sizeof(why));
	assert_int_equal(act_tally_add(t, &h, 3 * HOUR, 1, why, sizeof(why)),
			 -ETIMEDOUT);
	CHECK(strstr(why, "hour 3: 0.90% of the job's I/Os over 64 ms"),
	      "message: %s", why);
	act_tally_free(t);
}

/* The table adds the jobs: hour 1 of two jobs, 2 of 1000 over 64 ms
 * (0.2%: FAILED), in the 64 ms columns only; hour 2 empty. */
static void test_table(void **state)
{
	struct act_tally *t = act_tally_new(defaults);
	struct act_hour a = { 0 }, b = { 0 };
	char why[200], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(t);
	add_n(t, &a, 0, 499, 100000, why, sizeof(why));
	add_n(t, &a, 0, 1, 65 * MS, why, sizeof(why));
	add_n(t, &b, 0, 499, 100000, why, sizeof(why));
	add_n(t, &b, 0, 1, 65 * MS, why, sizeof(why));
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_true(act_tally_print(f, t));
	fclose(f);
	CHECK(strstr(buf, "\n    1\t0.00\t0.00\t0.20\t0.00\t0.00\t0.20\n"
		     "    2\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\n") &&
	      strstr(buf, "device(s): FAILED"), "table:\n%s", buf);
	free(buf);
	act_tally_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judged_hourly),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
