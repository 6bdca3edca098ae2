// SPDX-License-Identifier: MIT
/* steady.c: criteria, the window, slope and deviation; cpuset.c: lists,
 * masks, split. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "unit.h"

#include "cpuset.h"
#include "steady.h"

struct parse_case {
	const char *in;
	int ret;
	int kind;
	double limit;
	bool pct;
};

static const struct parse_case parse_cases[] = {
	{ "iops:2%", 0, SS_IOPS, 2, true },
	{ "iops_slope:0.1%", 0, SS_IOPS_SLOPE, 0.1, true },
	{ "bw:1048576", 0, SS_BW, 1048576, false },
	{ "BW_SLOPE:0", 0, SS_BW_SLOPE, 0, false },
	{ "lat:5%", 0, SS_LAT, 5, true },
	{ "lat_slope:10", 0, SS_LAT_SLOPE, 10, false },
	{ "iops", -EINVAL, 0, 0, false },
	{ "iops:", -EINVAL, 0, 0, false },
	{ "iops:-1", -EINVAL, 0, 0, false },
	{ "iops:1%%", -EINVAL, 0, 0, false },
	{ "iops:nan", -EINVAL, 0, 0, false },
	{ "speed:1", -EINVAL, 0, 0, false },
	{ ":1", -EINVAL, 0, 0, false },
};

static void test_parse(void **state)
{
	struct steady_crit c;
	char why[256];
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *t = &parse_cases[i];

		why[0] = '\0';
		ret = steady_parse(t->in, &c, why, sizeof(why));
		CHECK(ret == t->ret, "%s: %d, expected %d", t->in, ret, t->ret);
		if (ret) {
			CHECK(why[0], "%s: no reason", t->in);
			continue;
		}
		CHECK(c.kind == t->kind && c.limit == t->limit &&
		      c.pct == t->pct, "%s: %d %g %d", t->in, c.kind, c.limit,
		      c.pct);
		CHECK(!strncasecmp(t->in, steady_kind_name(c.kind),
				   strlen(steady_kind_name(c.kind))),
		      "%s: named %s", t->in, steady_kind_name(c.kind));
	}
}

/* A window of 4: judged from the 4th sample on, over the last 4. */
static void test_window(void **state)
{
	struct steady_crit c = { SS_IOPS_SLOPE, 0.5, false };
	struct steady_rec *r = steady_new(&c, 4000, 1000);
	double y[] = { 100, 110, 120, 130, 130, 130, 130 };
	unsigned k;

	(void)state;
	assert_non_null(r);
	assert_int_equal(r->n, 4);
	for (k = 0; k < 3; k++)
		assert_false(steady_add(r, y[k], 0, 0));
	assert_false(r->judged);
	/* 100..130: slope 10 per sample, not below 0.5 */
	assert_false(steady_add(r, y[3], 0, 0));
	assert_true(r->judged);
	assert_true(near_tol(r->slope, 10, 1e-12));
	assert_true(near_tol(r->deviation, 15, 1e-12));
	assert_true(near_tol(steady_mean(r, r->iops), 115, 1e-12));
	/* 110 120 130 130: slope 7; then 120 130 130 130: 3 */
	assert_false(steady_add(r, y[4], 0, 0));
	assert_true(near_tol(r->slope, 7, 1e-12));
	assert_false(steady_add(r, y[5], 0, 0));
	assert_true(near_tol(r->slope, 3, 1e-12));
	/* four of 130: flat */
	assert_true(steady_add(r, y[6], 0, 0));
	assert_true(near_tol(r->slope, 0, 1e-12));
	assert_int_equal((int)r->iops[steady_at(r, 0)], 130);
	steady_free(r);
}

/* Deviation in percent of the mean; a falling slope counts by size. */
static void test_criteria(void **state)
{
	struct steady_crit dev = { SS_BW, 5, true };
	struct steady_crit slope = { SS_LAT_SLOPE, 1, false };
	struct steady_rec *r = steady_new(&dev, 3000, 1000);

	(void)state;
	assert_non_null(r);
	steady_add(r, 0, 96, 0);
	steady_add(r, 0, 100, 0);
	/* mean 100, largest distance 4: 4% < 5% */
	assert_true(steady_add(r, 0, 104, 0));
	assert_true(near_tol(r->criterion, 4, 1e-12));
	/* 100 104 110: mean 104.67, distance 5.33: 5.1% */
	assert_false(steady_add(r, 0, 110, 0));
	steady_free(r);
	r = steady_new(&slope, 2000, 1000);
	assert_non_null(r);
	steady_add(r, 0, 0, 50);
	assert_false(steady_add(r, 0, 0, 45));	/* slope -5 */
	assert_true(near_tol(r->slope, -5, 1e-12));
	assert_true(steady_add(r, 0, 0, 44.5));	/* -0.5 */
	steady_free(r);
	/* A window shorter than a sample still holds one. */
	r = steady_new(&slope, 10, 1000);
	assert_non_null(r);
	assert_int_equal(r->n, 1);
	steady_free(r);
}

/*
 * group_reporting: sample k of the group is the sum of its clones' k-th,
 * judged once each clone still sampling gave it (or moved past it); a
 * clone that left no longer holds the group back; the record is shared
 * and freed by its last holder.
 */
static void test_group(void **state)
{
	struct steady_crit dev = { SS_IOPS, 1, true };
	struct steady_group *g = steady_group_new(&dev, 2000, 1000, 3);
	struct steady_rec *r;

	(void)state;
	assert_non_null(g);
	r = steady_ref(g->rec);
	/* sample 0: clones 0 and 1 gave it, clone 2 not yet: open */
	assert_false(steady_group_add(g, 0, 0, 100, 10, 4, 400, 1));
	assert_false(steady_group_add(g, 1, 0, 200, 20, 1, 200, 1));
	assert_int_equal(r->count, 0);
	/* clone 2 gives 0: sample 0 is 600, its mean latency 900 / 8 */
	assert_false(steady_group_add(g, 2, 0, 300, 30, 3, 300, 1));
	assert_int_equal(r->count, 1);
	assert_true(near_tol(r->iops[steady_at(r, 0)], 600, 1e-12));
	assert_true(near_tol(r->bw[steady_at(r, 0)], 60, 1e-12));
	assert_true(near_tol(r->lat[steady_at(r, 0)], 900.0 / 8, 1e-12));
	assert_false(steady_group_add(g, 2, 1, 300, 30, 0, 0, 2));
	/* clone 1 skipped sample 1 (a stall): its 2 closes 1 without it */
	assert_false(steady_group_add(g, 1, 2, 200, 20, 0, 0, 3));
	assert_false(steady_group_add(g, 0, 1, 100, 10, 0, 0, 2));
	assert_int_equal(r->count, 2);
	assert_true(near_tol(r->iops[steady_at(r, 1)], 400, 1e-12));
	assert_false(steady_group_attained(g));
	/* clone 0 ends: sample 2 waits only for clone 2, steady at 600
	 * against 400 (not yet: 20%), then two of 600: steady, every clone
	 * told */
	steady_group_leave(g, 0, 3);
	steady_group_leave(g, 0, 3);	/* again: nothing */
	assert_false(steady_group_add(g, 2, 2, 400, 40, 0, 0, 3));
	assert_int_equal(r->count, 2);
	assert_true(near_tol(r->iops[steady_at(r, 1)], 600, 1e-12));
	assert_false(r->attained);
	assert_false(steady_group_add(g, 1, 3, 200, 20, 0, 0, 4));
	assert_true(steady_group_add(g, 2, 3, 400, 40, 0, 0, 4));
	assert_true(r->attained);
	assert_int_equal((int)r->at_ns, 4);
	assert_true(steady_group_attained(g));
	/* the record outlives the group while a clone holds it */
	steady_group_free(g);
	assert_true(r->attained);
	steady_free(r);
	/* all clones gone: what is open is dropped, not judged */
	g = steady_group_new(&dev, 3000, 1000, 2);
	assert_non_null(g);
	assert_false(steady_group_add(g, 0, 0, 100, 10, 0, 0, 1));
	assert_false(steady_group_add(g, 0, 1, 100, 10, 0, 0, 2));
	assert_false(steady_group_add(g, 1, 0, 100, 10, 0, 0, 1));
	assert_int_equal(g->rec->count, 1);
	steady_group_leave(g, 0, 2);
	assert_int_equal(g->rec->count, 1);
	steady_group_leave(g, 1, 2);
	assert_int_equal(g->rec->count, 1);
	steady_group_free(g);
}

static void test_cpuset(void **state)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char buf[64], why[256], big[32];
	cpu_set_t s, two, one;

	(void)state;
	assert_int_equal(cpuset_parse("0", &s, why, sizeof(why)), 0);
	assert_int_equal(CPU_COUNT(&s), 1);
	assert_true(CPU_ISSET(0, &s));
	assert_int_equal(cpuset_parse(" 0 , 0-0", &s, why, sizeof(why)), 0);
	cpuset_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	snprintf(big, sizeof(big), "%ld", n);
	assert_int_equal(cpuset_parse(big, &s, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "does not exist"));
	assert_int_equal(cpuset_parse("", &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(cpuset_parse("0-", &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(cpuset_parse("0;1", &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(cpuset_mask_to_list("1", buf, sizeof(buf), why,
					     sizeof(why)), 0);
	assert_string_equal(buf, "0");
	assert_int_equal(cpuset_mask_to_list("0", buf, sizeof(buf), why,
					     sizeof(why)), -EINVAL);
	assert_int_equal(cpuset_mask_to_list("-1", buf, sizeof(buf), why,
					     sizeof(why)), -EINVAL);
	assert_int_equal(cpuset_mask_to_list("0x1 z", buf, sizeof(buf), why,
					     sizeof(why)), -EINVAL);
	if (n < 2)
		return;
	assert_int_equal(cpuset_mask_to_list("0x3", buf, sizeof(buf), why,
					     sizeof(why)), 0);
	assert_string_equal(buf, "0-1");
	assert_int_equal(cpuset_parse("0-1", &two, why, sizeof(why)), 0);
	assert_int_equal(cpuset_parse("1", &one, why, sizeof(why)), 0);
	/* split: clone i gets the (i mod 2)-th of {0, 1} */
	assert_int_equal(cpuset_for_clone(&two, true, 3, -1, &s), 0);
	cpuset_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	assert_int_equal(cpuset_for_clone(&two, false, 3, -1, &s), 0);
	cpuset_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-1");
	/* gtod_cpu: out before the split, as fio clears it; none left */
	assert_int_equal(cpuset_for_clone(&two, true, 1, 0, &s), 0);
	cpuset_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "1");
	assert_int_equal(cpuset_for_clone(&one, false, 0, 1, &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_criteria),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_cpuset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
