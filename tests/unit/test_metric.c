// SPDX-License-Identifier: MIT
/* metric.c: names, units, thresholds, values, formatting, spreads. */
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

#include "metric.h"
#include "report.h"

static bool near(double a, double b)
{
	return near_tol(a, b, 1e-9);
}

struct name_case {
	const char *in;
	const char *canon;
	int kind;
	int dir;
	int unit;
};

static const struct name_case names_good[] = {
	{ "read.iops", "read.iops", MK_IOPS, DDIR_READ, MU_RATE },
	{ "write.iops", "write.iops", MK_IOPS, DDIR_WRITE, MU_RATE },
	{ "read.bw", "read.bw", MK_BW, DDIR_READ, MU_BW },
	{ "write.io_bytes", "write.io_bytes", MK_IO_BYTES, DDIR_WRITE,
	  MU_BYTES },
	{ "read.ios", "read.ios", MK_IOS, DDIR_READ, MU_COUNT },
	{ "write.errors", "write.errors", MK_DIR_ERRORS, DDIR_WRITE,
	  MU_COUNT },
	{ "read.short_ios", "read.short_ios", MK_SHORT_IOS, DDIR_READ,
	  MU_COUNT },
	{ "read.clat.p99", "read.clat.p99", MK_HIST, DDIR_READ, MU_NS },
	{ "read.clat.p99.9", "read.clat.p99.9", MK_HIST, DDIR_READ, MU_NS },
	{ "read.clat.p99.90", "read.clat.p99.9", MK_HIST, DDIR_READ, MU_NS },
	{ "write.lat.p100", "write.lat.p100", MK_HIST, DDIR_WRITE, MU_NS },
	{ "read.slat.p0.5", "read.slat.p0.5", MK_HIST, DDIR_READ, MU_NS },
	{ "read.lat.min", "read.lat.min", MK_HIST, DDIR_READ, MU_NS },
	{ "read.lat.max", "read.lat.max", MK_HIST, DDIR_READ, MU_NS },
	{ "write.clat.mean", "write.clat.mean", MK_HIST, DDIR_WRITE, MU_NS },
	{ "write.slat.stddev", "write.slat.stddev", MK_HIST, DDIR_WRITE,
	  MU_NS },
	{ "errors", "errors", MK_ERRORS, -1, MU_COUNT },
	{ "cpu.us_per_io", "cpu.us_per_io", MK_CPU_US_PER_IO, -1, MU_US },
	{ "cpu.pct", "cpu.pct", MK_CPU_PCT, -1, MU_PCT },
	{ "runtime", "runtime", MK_RUNTIME, -1, MU_NS },
	{ "verify.mismatches", "verify.mismatches", MK_VERIFY_MISMATCHES, -1,
	  MU_COUNT },
};

static const char *const names_bad[] = {
	"", "read", "read.", "read.iop", "reads.iops", "READ.iops",
	"read.iops.x", ".iops", "iops", "read.clat", "read.clat.",
	"read.clat.p", "read.clat.p0", "read.clat.p101", "read.clat.p-1",
	"read.clat.p(50)", "read.clat.p 50", "read.clat.p50x",
	"read.clat.median", "read.qlat.p99", "write.cpu.pct", "cpu",
	"cpu.us", "error", "errors.read", "runtime_ns", "verify",
	"read.iops ", " read.iops", "read..iops",
};

static void test_parse(void **state)
{
	struct metric m;
	char why[512];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names_good); i++) {
		const struct name_case *c = &names_good[i];

		why[0] = '\0';
		CHECK(!metric_parse(c->in, strlen(c->in), &m, why,
				    sizeof(why)), "'%s': %s", c->in, why);
		assert_string_equal(m.name, c->canon);
		assert_int_equal(m.kind, c->kind);
		assert_int_equal(m.dir, c->dir);
		assert_int_equal(metric_unit(&m), c->unit);
	}
	for (i = 0; i < ARRAY_SIZE(names_bad); i++) {
		why[0] = '\0';
		CHECK(metric_parse(names_bad[i], strlen(names_bad[i]), &m, why,
				   sizeof(why)) == -EINVAL,
		      "'%s' was accepted", names_bad[i]);
		CHECK(strstr(why, "unknown metric") && strstr(why, "expected"),
		      "'%s': why '%s'", names_bad[i], why);
	}
	/* Only len bytes are read: a check passes the metric in place. */
	assert_int_equal(metric_parse("read.iops>=5", 9, &m, why,
				      sizeof(why)), 0);
	assert_string_equal(m.name, "read.iops");
	assert_int_equal(metric_parse("read.clat.p99", 13, &m, why,
				      sizeof(why)), 0);
	assert_true(m.stat == MS_PCT && m.pct == 99);
}

struct thr_case {
	int unit;
	const char *in;
	unsigned kb_base;
	double want;
	int err;
};

static const struct thr_case thresholds[] = {
	{ MU_RATE, "50000", 1024, 50000, 0 },
	{ MU_RATE, "40k", 1024, 40000, 0 },
	{ MU_RATE, "1.5m", 1024, 1500000, 0 },
	{ MU_COUNT, "0", 1024, 0, 0 },
	{ MU_BYTES, "1m", 1024, 1048576, 0 },
	{ MU_BYTES, "1m", 1000, 1000000, 0 },
	{ MU_BYTES, "4KiB", 1000, 4096, 0 },
	{ MU_BW, "1.5GiB/s", 1024, 1.5 * 1073741824, 0 },
	{ MU_BW, "500MB/s", 1000, 500e6, 0 },
	{ MU_BW, "100m", 1024, 104857600, 0 },
	{ MU_BW, "2k/S ", 1024, 2048, 0 },
	{ MU_NS, "2ms", 1024, 2e6, 0 },
	{ MU_NS, "1.5us", 1024, 1500, 0 },
	{ MU_NS, "750", 1024, 750, 0 },
	{ MU_NS, "1s+500ms", 1024, 1.5e9, 0 },
	{ MU_US, "3", 1024, 3, 0 },
	{ MU_US, "2.5", 1024, 2.5, 0 },
	{ MU_US, "500ns", 1024, 0.5, 0 },
	{ MU_PCT, "5%", 1024, 5, 0 },
	{ MU_PCT, "5", 1024, 5, 0 },
	{ MU_PCT, "150%", 1024, 150, 0 },
	{ MU_PCT, " 2.5 % ", 1024, 2.5, 0 },
	{ MU_RATE, "1.5GiB/s", 1024, 0, -EINVAL },
	{ MU_RATE, "2ms", 1024, 0, -EINVAL },
	{ MU_RATE, "-5", 1024, 0, -EINVAL },
	{ MU_COUNT, "", 1024, 0, -EINVAL },
	{ MU_BYTES, "1.3", 1024, 0, -EINVAL },
	{ MU_BYTES, "1m/s", 1024, 0, -EINVAL },
	{ MU_BW, "1x/s", 1024, 0, -EINVAL },
	{ MU_BW, "/s", 1024, 0, -EINVAL },
	{ MU_BW, "1GiB/h", 1024, 0, -EINVAL },
	{ MU_NS, "2 parsecs", 1024, 0, -EINVAL },
	{ MU_NS, "1m/s", 1024, 0, -EINVAL },
	{ MU_US, "0.0001", 1024, 0, -EINVAL },
	{ MU_PCT, "%", 1024, 0, -EINVAL },
	{ MU_PCT, "5k%", 1024, 0, -EINVAL },
	{ MU_PCT, "-1%", 1024, 0, -ERANGE },
};

static void test_threshold(void **state)
{
	char why[512];
	double v;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(thresholds); i++) {
		const struct thr_case *c = &thresholds[i];

		v = -1;
		why[0] = '\0';
		ret = metric_threshold(c->unit, c->in, c->kb_base, &v, why,
				       sizeof(why));
		CHECK(ret == c->err, "%d '%s': ret %d, want %d (%s)", c->unit,
		      c->in, ret, c->err, why);
		if (!c->err)
			CHECK(near(v, c->want), "'%s': %.17g, want %.17g",
			      c->in, v, c->want);
		else
			CHECK(strstr(why, "expected"), "'%s': why '%s'", c->in,
			      why);
	}
}

/* A unit with known samples: reads 1..100 us clat (lat = clat + 1 us),
 * writes none, two errors, over one second. */
static void fill_stats(struct job_stats *s)
{
	struct dir_stats *d = &s->dir[DDIR_READ];
	unsigned k;

	stats_init(s);
	for (k = 1; k <= 100; k++) {
		hist_add(&d->clat, k * 1000ull);
		hist_add(&d->lat, k * 1000ull + 1000);
	}
	d->ios = 100;
	d->bytes = 100 * 4096;
	d->errors = 2;
	d->short_ios = 1;
	s->dir[DDIR_WRITE].errors = 3;
	s->runtime_ns = 1000000000ull;
	s->verify.mismatches = 7;
}

static double value_of(const char *name, const struct job_stats *s,
		       const struct result_row *row)
{
	struct metric m;
	char why[256];

	assert_int_equal(metric_parse(name, strlen(name), &m, why,
				      sizeof(why)), 0);
	return result_metric(&m, s, row);
}

static void test_value(void **state)
{
	struct job_stats *s = malloc(sizeof(*s));
	struct result_row row = { .us_per_io = 4.5, .cpu_pct = 12.5 };
	const struct hist *clat;

	(void)state;
	assert_non_null(s);
	fill_stats(s);
	clat = &s->dir[DDIR_READ].clat;
	assert_true(near(value_of("read.iops", s, &row), 100));
	assert_true(near(value_of("read.bw", s, &row), 409600));
	assert_true(value_of("read.io_bytes", s, &row) == 409600);
	assert_true(value_of("read.ios", s, &row) == 100);
	assert_true(value_of("read.errors", s, &row) == 2);
	assert_true(value_of("read.short_ios", s, &row) == 1);
	assert_true(value_of("errors", s, &row) == 5);
	assert_true(value_of("read.clat.min", s, &row) == 1000);
	assert_true(value_of("read.clat.max", s, &row) == 100000);
	assert_true(near(value_of("read.clat.mean", s, &row), 50500));
	assert_true(near(value_of("read.clat.stddev", s, &row),
			 hist_stddev(clat)));
	assert_true(value_of("read.clat.p99", s, &row) ==
		    (double)hist_percentile(clat, 99));
	assert_true(value_of("read.clat.p50", s, &row) ==
		    (double)hist_percentile(clat, 50));
	assert_true(value_of("read.lat.p100", s, &row) == 101000);
	/* Empty histograms read 0, as the JSON report writes them. */
	assert_true(value_of("write.clat.min", s, &row) == 0);
	assert_true(value_of("read.slat.p99", s, &row) == 0);
	assert_true(value_of("write.iops", s, &row) == 0);
	assert_true(value_of("cpu.us_per_io", s, &row) == 4.5);
	assert_true(value_of("cpu.pct", s, &row) == 12.5);
	assert_true(value_of("runtime", s, &row) == 1e9);
	assert_true(value_of("verify.mismatches", s, &row) == 7);
	free(s);
}

static void test_format(void **state)
{
	static const struct {
		int unit;
		double v;
		const char *want;
	} cases[] = {
		{ MU_COUNT, 0, "0" },
		{ MU_COUNT, 12, "12" },
		{ MU_COUNT, 2.5, "2.50" },
		{ MU_RATE, 999, "999.00" },
		{ MU_RATE, 61234, "61.23k" },
		{ MU_RATE, 1500000, "1.50M" },
		{ MU_BYTES, 1048576, "1MiB" },
		{ MU_BW, 1048576, "1.00MiB/s" },
		{ MU_BW, 1.5 * 1073741824, "1.50GiB/s" },
		{ MU_NS, 2e6, "2.00ms" },
		{ MU_NS, 850, "850ns" },
		{ MU_US, 3, "3.00us" },
		{ MU_PCT, 5, "5.00%" },
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		metric_format(cases[i].unit, cases[i].v, buf, sizeof(buf));
		CHECK(!strcmp(buf, cases[i].want), "%d %g: '%s', want '%s'",
		      cases[i].unit, cases[i].v, buf, cases[i].want);
	}
	metric_format(MU_RATE, NAN, buf, sizeof(buf));
	assert_string_equal(buf, "nan");
}

static void test_spread(void **state)
{
	const double v[] = { 10, 12, 14 }, one[] = { 7 }, zeros[] = { 0, 0 };
	struct metric_spread s;

	(void)state;
	metric_spread(v, 3, &s);
	assert_int_equal(s.n, 3);
	assert_true(near(s.mean, 12));
	assert_true(near(s.stddev, 2));		/* sample: n - 1 */
	assert_true(near(s.cv_pct, 2.0 / 12 * 100));
	assert_true(s.min == 10 && s.max == 14);
	metric_spread(one, 1, &s);
	assert_true(s.mean == 7 && s.stddev == 0 && s.cv_pct == 0);
	assert_true(s.min == 7 && s.max == 7);
	metric_spread(zeros, 2, &s);
	assert_true(s.mean == 0 && s.cv_pct == 0);
	metric_spread(NULL, 0, &s);
	assert_true(s.n == 0 && s.mean == 0);
}

static void test_headlines(void **state)
{
	struct metric m[METRIC_HEADLINE_MAX];
	const char *const both[] = {
		"read.iops", "read.bw", "read.lat.mean", "read.lat.p99",
		"write.iops", "write.bw", "write.lat.mean", "write.lat.p99",
		"cpu.us_per_io",
	};
	unsigned n, i;

	(void)state;
	n = metric_headlines(1u << DDIR_READ | 1u << DDIR_WRITE, m);
	assert_int_equal(n, ARRAY_SIZE(both));
	for (i = 0; i < n; i++)
		assert_string_equal(m[i].name, both[i]);
	n = metric_headlines(1u << DDIR_WRITE, m);
	assert_int_equal(n, 5);
	assert_string_equal(m[0].name, "write.iops");
	n = metric_headlines(0, m);
	assert_int_equal(n, 1);
	assert_string_equal(m[0].name, "cpu.us_per_io");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_headlines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
