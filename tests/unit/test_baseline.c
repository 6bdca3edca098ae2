// SPDX-License-Identifier: MIT
/*
 * baseline.c: files that are refused, matching jobs by name, sweep point
 * and clone, and figures read back from a JSON report that report_json
 * wrote from known stats: every metric equals what result_metric gives on
 * those stats (percentiles from the buckets included).
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
#include <unistd.h>
#include <cmocka.h>

#include "unit.h"

#include "baseline.h"
#include "check.h"
#include "jobfile.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "run.h"

/* The JSON report keeps 12 significant digits of reals. */
static bool near(double a, double b)
{
	return near_tol(a, b, 1e-10);
}

static char *tmp_path(void)
{
	char *p = strdup("/tmp/test_baseline.XXXXXX");
	int fd;

	assert_non_null(p);
	fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	return p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

struct bad_file {
	const char *text;	/* NULL: no such file */
	const char *why;
};

static const struct bad_file bad_files[] = {
	{ NULL, "cannot open: No such file or directory" },
	{ "", "not a JSON document" },
	{ "{\"jobs\": [", "not a JSON document" },
	{ "[1, 2]", "not an iorig JSON result" },
	{ "{\"jobs\": []}", "no iorig_version and schema_version" },
	{ "{\"iorig_version\": \"1\", \"schema_version\": \"1\", "
	  "\"jobs\": []}", "no iorig_version and schema_version" },
	{ "{\"iorig_version\": \"1\", \"schema_version\": 1}",
	  "no jobs array" },
	{ "{\"iorig_version\": \"1\", \"schema_version\": 1, "
	  "\"jobs\": [{\"clone\": 0}]}", "jobs[0] is not a job" },
	{ "{\"iorig_version\": \"1\", \"schema_version\": 2, \"jobs\": []}",
	  "schema_version 2 is not supported" },
	{ "{\"iorig_version\": \"1\", \"schema_version\": 0, \"jobs\": []}",
	  "schema_version 0 is not supported" },
	{ "{\"iorig_version\": \"1\", \"iorig_version\": \"2\", "
	  "\"schema_version\": 1, \"jobs\": []}", "not a JSON document" },
};

static void test_bad_files(void **state)
{
	struct baseline b;
	struct err_rec e;
	char *path = tmp_path();
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad_files); i++) {
		const struct bad_file *c = &bad_files[i];

		if (c->text)
			write_file(path, c->text);
		else
			unlink(path);
		memset(&e, 0, sizeof(e));
		CHECK(baseline_load(&b, path, &e) < 0, "case %zu loaded", i);
		CHECK(strstr(e.msg, c->why), "case %zu: '%s' lacks '%s'", i,
		      e.msg, c->why);
		assert_string_equal(e.file, path);
		assert_string_equal(e.option, "baseline");
		baseline_free(&b);
	}
	write_file(path, "{\"iorig_version\": \"0.9\", \"schema_version\": 1,"
		   " \"timestamp\": 1738324800, \"time\": "
		   "\"2025-01-31T12:00:00Z\", \"jobs\": []}");
	assert_int_equal(baseline_load(&b, path, &e), 0);
	assert_string_equal(b.version, "0.9");
	assert_string_equal(b.time, "2025-01-31T12:00:00Z");
	assert_string_equal(b.path, path);
	baseline_free(&b);
	unlink(path);
	free(path);
}

/* ---- a report written by report_json, read back ---- */

struct fixture {
	struct plan p;
	struct run_result r;
	struct check_set cs;
	struct check_report cr;
	char *path;
	struct baseline b;
};

/* Known, varied stats for job i: both directions, all three latencies. */
static void fill(struct job_stats *s, size_t i)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (i + 1);
	unsigned k;
	int d;

	stats_init(s);
	for (d = 0; d < DDIR_NR; d++) {
		struct dir_stats *ds = &s->dir[d];
		unsigned n = 500 + 100 * (unsigned)i + 37 * (unsigned)d;

		for (k = 0; k < n; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			hist_add(&ds->slat, 200 + x % 5000);
			hist_add(&ds->clat, 1000 + x % 2000000);
			hist_add(&ds->lat, 1500 + x % 3000000);
		}
		ds->ios = n;
		ds->bytes = n * 8192ull;
		ds->errors = d;
		ds->short_ios = 3;
	}
	s->runtime_ns = 1234567890ull + i * 1000;
	s->verify.kind = VERIFY_XXH3;
	s->verify.mismatches = i;
}

static void setup_report(struct fixture *fx, const char *text)
{
	struct raw_doc doc = { 0 };
	struct err_rec e;
	FILE *f;
	size_t i;

	memset(fx, 0, sizeof(*fx));
	assert_int_equal(jobfile_parse_string(&doc, "t.job", text, &e), 0);
	assert_int_equal(plan_build(&fx->p, &doc, NULL, &e), 0);
	raw_doc_free(&doc);
	fx->r.plan = &fx->p;
	fx->r.stats = calloc(fx->p.njobs, sizeof(*fx->r.stats));
	fx->r.ran = calloc(fx->p.njobs, sizeof(*fx->r.ran));
	fx->r.phases = calloc(fx->p.nwait_groups, sizeof(*fx->r.phases));
	fx->r.nphases = fx->p.nwait_groups;
	assert_true(fx->r.stats && fx->r.ran && fx->r.phases);
	for (i = 0; i < fx->p.njobs; i++) {
		fill(&fx->r.stats[i], i);
		fx->r.ran[i] = true;
		fx->r.phases[fx->p.jobs[i].plan.wait_group].ios +=
			fx->r.stats[i].dir[0].ios + fx->r.stats[i].dir[1].ios;
		fx->r.phases[fx->p.jobs[i].plan.wait_group].proc.utime_ns +=
			7000000 + i;
		fx->r.phases[fx->p.jobs[i].plan.wait_group].wall_ns += 33000000;
	}
	fx->r.version = "0.1.0";
	assert_int_equal(check_build(&fx->cs, &fx->p, NULL, 0, NULL, &e), 0);
	assert_int_equal(check_eval(&fx->cs, &fx->r, &fx->cr), 0);
	fx->r.checks = &fx->cr;
	fx->path = tmp_path();
	f = fopen(fx->path, "w");
	assert_non_null(f);
	assert_int_equal(report_json(f, &fx->r), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(baseline_load(&fx->b, fx->path, &e), 0);
}

static void teardown_report(struct fixture *fx)
{
	baseline_free(&fx->b);
	unlink(fx->path);
	free(fx->path);
	check_report_free(&fx->cr);
	check_set_free(&fx->cs);
	run_result_free(&fx->r);
	plan_free(&fx->p);
}

static const char *const metrics[] = {
	"read.iops", "read.bw", "read.io_bytes", "read.ios", "read.errors",
	"read.short_ios", "write.iops", "write.bw", "write.errors",
	"read.slat.min", "read.slat.max", "read.slat.mean",
	"read.slat.stddev", "read.slat.p50", "read.clat.p1",
	"read.clat.p42", "read.clat.p99", "read.clat.p99.9",
	"read.clat.p100", "write.lat.p99.99", "write.lat.mean",
	"write.clat.p73.5", "errors", "cpu.us_per_io", "cpu.pct", "runtime",
	"verify.mismatches",
};

/* Every metric of every unit reads back as result_metric computes it. */
static void test_round_trip(void **state)
{
	struct result_set rs;
	struct result_row row;
	struct fixture fx;
	struct metric m;
	char why[256];
	double want, got;
	int u;
	size_t k;

	(void)state;
	setup_report(&fx, "[a]\nioengine=null\nsize=1m\nrw=randrw\n"
		     "numjobs=2\n[s]\nioengine=null\nsize=1m\nrw=randrw\n"
		     "sweep=bs:4k,8k\n[g]\nioengine=null\nsize=1m\n"
		     "rw=randrw\nnumjobs=2\ngroup_reporting\n");
	assert_int_equal(result_collect(&fx.r, &rs), 0);
	assert_int_equal(rs.nunits, 5);
	for (u = 0; u < rs.nunits; u++) {
		const struct baseline_job *bj;

		bj = baseline_find(&fx.b, rs.units[u].job);
		CHECK(bj, "unit %d not found", u);
		result_row(&fx.r, &rs.units[u], &row);
		for (k = 0; k < ARRAY_SIZE(metrics); k++) {
			assert_int_equal(metric_parse(metrics[k],
						      strlen(metrics[k]), &m,
						      why, sizeof(why)), 0);
			want = result_metric(&m, &rs.units[u].stats, &row);
			got = -1;
			CHECK(!baseline_value(bj, &m, &got), "unit %d: no %s",
			      u, metrics[k]);
			CHECK(near(got, want), "unit %d %s: %.17g, want %.17g",
			      u, metrics[k], got, want);
		}
	}
	result_set_free(&rs);
	teardown_report(&fx);
}

static void test_find(void **state)
{
	struct fixture fx;
	struct job j;

	(void)state;
	setup_report(&fx, "[a]\nioengine=null\nsize=1m\nnumjobs=2\n"
		     "[s]\nioengine=null\nsize=1m\nsweep=bs:4k,8k\n"
		     "[g]\nioengine=null\nsize=1m\nnumjobs=2\n"
		     "group_reporting\n");
	assert_int_equal(options_defaults(&j), 0);
	j.desc.name = strdup("a");
	j.plan.clone = 1;
	assert_non_null(baseline_find(&fx.b, &j));
	j.plan.clone = 2;
	assert_null(baseline_find(&fx.b, &j));
	j.report.group_reporting = true;
	assert_null(baseline_find(&fx.b, &j));
	free(j.desc.name);
	j.desc.name = strdup("g");
	assert_non_null(baseline_find(&fx.b, &j));
	j.report.group_reporting = false;
	j.plan.clone = 0;
	assert_null(baseline_find(&fx.b, &j));
	free(j.desc.name);
	j.desc.name = strdup("s");
	assert_null(baseline_find(&fx.b, &j));	/* has sweep points */
	j.plan.sweep_point = strdup("bs=8k");
	assert_non_null(baseline_find(&fx.b, &j));
	free(j.plan.sweep_point);
	j.plan.sweep_point = strdup("bs=16k");
	assert_null(baseline_find(&fx.b, &j));
	job_free(&j);
	teardown_report(&fx);
}

/* A repeated job's headline figures read as the mean of its runs. */
static void test_repeats_mean(void **state)
{
	const struct check_unit *cu;
	struct result_set rs;
	struct result_row row;
	const struct baseline_job *bj;
	struct fixture fx;
	struct metric m;
	char why[64];
	double v;

	(void)state;
	setup_report(&fx, "[r]\nioengine=null\nsize=1m\nrw=read\n"
		     "repeat=3\n");
	assert_int_equal(result_collect(&fx.r, &rs), 0);
	cu = check_unit_at(&fx.cr, 0);
	assert_non_null(cu);
	assert_ptr_equal(cu->job, rs.units[0].job);
	assert_true(cu->repeated);
	bj = baseline_find(&fx.b, rs.units[0].job);
	assert_non_null(bj);
	assert_int_equal(metric_parse("read.iops", 9, &m, why, sizeof(why)),
			 0);
	assert_int_equal(baseline_value(bj, &m, &v), 0);
	assert_true(near(v, cu->figs[0].spread.mean));
	/* Not the runs together: those differ in runtime. */
	result_row(&fx.r, &rs.units[0], &row);
	assert_false(near(v, result_metric(&m, &rs.units[0].stats, &row)));
	/* A figure the repeats do not carry: the unit's own. */
	assert_int_equal(metric_parse("read.ios", 8, &m, why, sizeof(why)),
			 0);
	assert_int_equal(baseline_value(bj, &m, &v), 0);
	assert_true(v == (double)rs.units[0].stats.dir[DDIR_READ].ios);
	result_set_free(&rs);
	teardown_report(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_repeats_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
