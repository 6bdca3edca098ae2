// SPDX-License-Identifier: MIT
/*
 * Report module tests: stats helpers, unit/group aggregation, and both
 * writers on a synthetic plan + run_result whose histograms hold known
 * samples.
 *
 * The fixture has four job clones:
 *   0, 1  "grouped" clones 0 and 1, group 0, group_reporting: one unit
 *   2     "single", group 1: reads, writes with errors, a failure
 *   3     "never", group 1: never ran; its stats are garbage on purpose
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "unit_json.h"

#include "options.h"
#include "report.h"

#define NJOBS		4
#define BS		4096
#define START_TIME	1700000000	/* 2023-11-14T22:13:20Z */

struct fixture {
	struct plan plan;
	struct job jobs[NJOBS];
	struct job_stats *stats;
	bool ran[NJOBS];
	struct run_result r;
};

static const double pct_list[] = { 50, 90, 99, 99.9, 99.99 };

static void job_setup(struct job *j, const char *name, unsigned clone,
		      unsigned group, bool group_reporting)
{
	size_t i;

	assert_int_equal(options_defaults(j), 0);
	free(j->desc.name);
	j->desc.name = strdup(name);
	assert_non_null(j->desc.name);
	j->plan.clone = clone;
	j->plan.group = group;
	j->report.group_reporting = group_reporting;
	for (i = 0; i < sizeof(pct_list) / sizeof(pct_list[0]); i++)
		j->report.percentile_list[i] = pct_list[i];
	j->report.npercentiles = (unsigned)i;
	j->report.clat_percentiles = true;
	j->report.lat_percentiles = false;
	j->report.slat_percentiles = false;
}

/* n reads of BS bytes with clat = k * step and lat = clat + 200. */
static void add_reads(struct job_stats *s, unsigned n, uint64_t step)
{
	struct dir_stats *d = &s->dir[DDIR_READ];
	unsigned k;

	for (k = 1; k <= n; k++) {
		hist_add(&d->clat, k * step);
		hist_add(&d->lat, k * step + 200);
	}
	d->ios += n;
	d->bytes += (uint64_t)n * BS;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct job_stats *s;
	struct dir_stats *w;
	unsigned i;

	assert_non_null(fx);
	fx->stats = calloc(NJOBS, sizeof(*fx->stats));
	assert_non_null(fx->stats);
	s = fx->stats;

	job_setup(&fx->jobs[0], "grouped", 0, 0, true);
	job_setup(&fx->jobs[1], "grouped", 1, 0, true);
	job_setup(&fx->jobs[2], "single", 0, 1, false);
	job_setup(&fx->jobs[3], "never", 0, 1, false);
	fx->plan.jobs = fx->jobs;
	fx->plan.njobs = NJOBS;
	fx->plan.ngroups = 2;
	fx->plan.nwait_groups = 2;

	for (i = 0; i < 3; i++)
		stats_init(&s[i]);
	/* Not run: whatever is there must not leak into any report, but for
	 * err/err_msg (why it did not run; 0: it was skipped) and
	 * interrupted (stopped while its files were laid out). */
	memset(&s[3], 0xab, sizeof(s[3]));
	s[3].err = 0;
	s[3].interrupted = false;

	add_reads(&s[0], 100, 1000);	/* 1us .. 100us */
	s[0].runtime_ns = 2000000000;
	s[0].loops_done = 1;
	s[0].cpu.utime_ns = 300000000;
	s[0].cpu.stime_ns = 200000000;
	s[0].cpu.vcsw = 10;

	add_reads(&s[1], 50, 2000);	/* 2us .. 100us */
	s[1].runtime_ns = 1500000000;
	s[1].loops_done = 1;
	s[1].cpu.utime_ns = 100000000;
	s[1].cpu.vcsw = 5;

	add_reads(&s[2], 1000, 1000);	/* 1us .. 1ms */
	w = &s[2].dir[DDIR_WRITE];
	for (i = 1; i <= 10; i++) {
		hist_add(&w->slat, 100 * i);
		hist_add(&w->clat, 10000 * i);
		hist_add(&w->lat, 10000 * i + 100 * i);
	}
	w->ios = 10;
	w->bytes = 8 * BS + BS / 2;
	w->errors = 1;
	w->short_ios = 1;
	w->first_errno = EIO;
	w->first_err_offset = UINT64_MAX;	/* clamped in JSON */
	w->first_err_engine = "libaio";
	snprintf(w->first_err_file, sizeof(w->first_err_file), "w.dat");
	s[2].runtime_ns = 1000000000;
	s[2].loops_done = 2;
	s[2].cpu.utime_ns = 2000000;
	s[2].cpu.stime_ns = 3000000;
	s[2].err = -EIO;
	snprintf(s[2].err_msg, sizeof(s[2].err_msg), "end_fsync failed");

	fx->ran[0] = fx->ran[1] = fx->ran[2] = true;
	fx->ran[3] = false;

	fx->r.plan = &fx->plan;
	fx->r.stats = fx->stats;
	fx->r.ran = fx->ran;
	fx->r.proc_cpu.utime_ns = 1500000000;
	fx->r.proc_cpu.stime_ns = 250000000;
	fx->r.proc_cpu.vcsw = 42;
	fx->r.proc_cpu.ivcsw = 7;
	fx->r.proc_cpu.minflt = 1234;
	fx->r.wall_ns = 2500000000;
	fx->r.start_time = START_TIME;
	fx->r.signo = 0;
	fx->r.version = "9.8.7";
	fx->r.ncpus = 8;
	snprintf(fx->r.kernel, sizeof(fx->r.kernel), "6.1.0-test");
	snprintf(fx->r.hostname, sizeof(fx->r.hostname), "testhost");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	unsigned i;

	for (i = 0; i < NJOBS; i++)
		job_free(&fx->jobs[i]);
	free(fx->stats);
	free(fx);
	return 0;
}

/* Runs a writer into memory; the returned text is NUL-terminated. */

/* The unit whose name and clone (-1: merged) match. */
static json_t *find_job(json_t *root, const char *name, int clone)
{
	json_t *jobs = get(root, "jobs"), *j;
	size_t i;

	json_array_foreach(jobs, i, j) {
		json_t *c = get(j, "clone");

		if (strcmp(json_string_value(get(j, "name")), name))
			continue;
		if (clone < 0 ? json_is_null(c) :
		    json_integer_value(c) == clone)
			return j;
	}
	fail_msg("no job %s clone %d", name, clone);
	return NULL;
}

/*
 * Everything a latency object must satisfy whatever it holds; returns the
 * number of percentiles.
 */
static size_t check_hist(json_t *h, const struct hist *ref)
{
	json_int_t count = get_int(h, "count"), sum = 0;
	json_int_t mn = get_int(h, "min"), mx = get_int(h, "max");
	json_t *pct = get(h, "percentiles"), *b = get(h, "buckets"), *v;
	json_int_t last_high = -1;
	const char *key;
	size_t i;

	assert_true(json_is_object(pct));
	assert_true(json_is_array(b));
	get_num(h, "mean");
	get_num(h, "stddev");
	if (ref) {
		assert_int_equal(count, ref->count);
		assert_int_equal(mn, ref->count ? ref->min : 0);
		assert_int_equal(mx, ref->max);
		assert_near(get_num(h, "mean"), hist_mean(ref));
		assert_near(get_num(h, "stddev"), hist_stddev(ref));
	}
	if (!count) {
		assert_int_equal(mn, 0);
		assert_int_equal(mx, 0);
		assert_near(get_num(h, "mean"), 0);
		assert_near(get_num(h, "stddev"), 0);
		assert_int_equal(json_object_size(pct), 0);
		assert_int_equal(json_array_size(b), 0);
	}
	json_object_foreach(pct, key, v) {
		assert_true(json_is_integer(v));
		assert_true(json_integer_value(v) >= mn);
		assert_true(json_integer_value(v) <= mx);
	}
	json_array_foreach(b, i, v) {
		json_int_t lo, hi, n;

		assert_true(json_is_array(v));
		assert_int_equal(json_array_size(v), 3);
		lo = json_integer_value(json_array_get(v, 0));
		hi = json_integer_value(json_array_get(v, 1));
		n = json_integer_value(json_array_get(v, 2));
		assert_true(lo <= hi);
		assert_true(lo > last_high);	/* ascending, disjoint */
		assert_true(n > 0);
		last_high = hi;
		sum += n;
	}
	assert_int_equal(sum + get_int(h, "overflow"), count);
	return json_object_size(pct);
}

static void test_stats_derived(void **state)
{
	struct job_stats *s = malloc(sizeof(*s));

	assert_non_null(s);
	stats_init(s);
	assert_int_equal(s->nclones, 1);
	assert_int_equal(s->dir[DDIR_READ].clat.count, 0);
	assert_near(stats_iops(&s->dir[DDIR_READ], 0), 0);
	assert_near(stats_bw(&s->dir[DDIR_READ], 0), 0);
	assert_near(stats_cpu_us_per_io(s), 0);

	s->dir[DDIR_READ].ios = 300;
	s->dir[DDIR_READ].bytes = 300 * BS;
	s->dir[DDIR_WRITE].ios = 100;
	s->cpu.utime_ns = 3000000;
	s->cpu.stime_ns = 1000000;
	assert_near(stats_iops(&s->dir[DDIR_READ], 1500000000), 200);
	assert_near(stats_bw(&s->dir[DDIR_READ], 1500000000), 200.0 * BS);
	assert_near(stats_cpu_us_per_io(s), 4000.0 / 400);
	free(s);
}

static void test_stats_merge(void **state)
{
	struct fixture *fx = *state;
	struct job_stats *m = malloc(sizeof(*m));
	const struct dir_stats *r;

	assert_non_null(m);
	*m = fx->stats[0];
	stats_merge(m, &fx->stats[2]);
	r = &m->dir[DDIR_READ];
	assert_int_equal(r->ios, 1100);
	assert_int_equal(r->bytes, 1100 * BS);
	assert_int_equal(r->clat.count, 1100);
	assert_int_equal(r->clat.min, 1000);
	assert_int_equal(r->clat.max, 1000000);
	assert_int_equal(m->dir[DDIR_WRITE].errors, 1);
	assert_int_equal(m->dir[DDIR_WRITE].first_errno, EIO);
	assert_int_equal(m->runtime_ns, 2000000000);
	assert_int_equal(m->loops_done, 3);
	assert_int_equal(m->nclones, 2);
	assert_int_equal(m->cpu.utime_ns, 302000000);
	assert_int_equal(m->cpu.stime_ns, 203000000);
	assert_int_equal(m->err, -EIO);
	assert_string_equal(m->err_msg, "end_fsync failed");
	assert_false(m->interrupted);

	/* The first error stays; interrupted is an OR. */
	fx->stats[1].err = -ENOSPC;
	fx->stats[1].interrupted = true;
	stats_merge(m, &fx->stats[1]);
	assert_int_equal(m->err, -EIO);
	assert_true(m->interrupted);
	free(m);
}

/*
 * Clones of one phase: the union of their windows (a staggered clone
 * lengthens the group's time); of different phases, the longest; a
 * window not known: the longest.
 */
static void test_stats_window(void **state)
{
	struct job_stats a = { .runtime_ns = 100, .start_ns = 1000,
			       .phase = 1 };
	struct job_stats b = { .runtime_ns = 100, .start_ns = 1050,
			       .phase = 1 };
	struct job_stats c = { .runtime_ns = 120, .start_ns = 5000,
			       .phase = 2 };
	struct job_stats d = { .runtime_ns = 130 };
	uint64_t st = 0, rt = 0;
	unsigned ph = 0;

	(void)state;
	stats_window_merge(&st, &rt, &ph, &a);
	assert_int_equal(rt, 100);
	stats_window_merge(&st, &rt, &ph, &b);
	assert_int_equal(st, 1000);
	assert_int_equal(rt, 150);
	stats_window_merge(&st, &rt, &ph, &c);
	assert_int_equal(rt, 150);	/* another phase: the longest */
	assert_int_equal(ph, 1);
	stats_window_merge(&st, &rt, &ph, &d);
	assert_int_equal(rt, 150);
	d.runtime_ns = 200;
	stats_window_merge(&st, &rt, &ph, &d);
	assert_int_equal(rt, 200);
	/* Nothing measured: no window. */
	st = 0, rt = 0, ph = 0;
	a.runtime_ns = 0;
	stats_window_merge(&st, &rt, &ph, &a);
	assert_int_equal(rt, 0);
	assert_int_equal(st, 0);
}

static void test_stats_cpu(void **state)
{
	struct cpu_usage a, b, d;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.utime_ns = 5000;
	b.utime_ns = 2000;
	a.vcsw = 3;
	b.vcsw = 9;
	cpu_sub(&d, &a, &b);
	assert_int_equal(d.utime_ns, 3000);
	assert_int_equal(d.vcsw, 0);	/* saturates, never wraps */

	cpu_thread(&a);
	cpu_process(&b);
	/* The process has used at least what this thread has. */
	assert_true(b.utime_ns + b.stime_ns >= a.utime_ns + a.stime_ns);
	assert_true(b.minflt > 0);

	/*
	 * With run times, the total is their change, split in the ratio of
	 * the tick-sampled times; no tick in between: all system time.
	 */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	b.run_ns = 1000000;
	a.run_ns = 1000000 + 3000000;
	a.utime_ns = 4000000;		/* one 4 ms tick, in user mode */
	cpu_sub(&d, &a, &b);
	assert_int_equal(d.utime_ns, 3000000);
	assert_int_equal(d.stime_ns, 0);
	a.utime_ns = 0;
	cpu_sub(&d, &a, &b);
	assert_int_equal(d.utime_ns + d.stime_ns, 3000000);
	assert_int_equal(d.stime_ns, 3000000);
	a.utime_ns = 2;
	a.stime_ns = 6;
	cpu_sub(&d, &a, &b);
	assert_int_equal(d.utime_ns, 750000);
	assert_int_equal(d.stime_ns, 2250000);
	assert_int_equal(d.run_ns, 0);
}

static void test_units(void **state)
{
	struct fixture *fx = *state;
	struct result_unit *u;
	int n;

	n = result_units(&fx->r, &u);
	assert_int_equal(n, 3);
	assert_ptr_equal(u[0].job, &fx->jobs[0]);
	assert_int_equal(u[0].njobs, 2);
	assert_int_equal(u[0].stats.nclones, 2);
	assert_int_equal(u[0].stats.dir[DDIR_READ].ios, 150);
	assert_int_equal(u[0].stats.dir[DDIR_READ].clat.count, 150);
	assert_int_equal(u[0].stats.runtime_ns, 2000000000);
	assert_ptr_equal(u[1].job, &fx->jobs[2]);
	assert_int_equal(u[1].njobs, 1);
	assert_int_equal(u[1].stats.nclones, 1);
	assert_ptr_equal(u[2].job, &fx->jobs[3]);
	assert_int_equal(u[2].stats.nclones, 0);	/* not run */
	assert_int_equal(u[2].stats.dir[DDIR_READ].ios, 0);
	free(u);

	/* Without group_reporting every clone is its own unit. */
	fx->jobs[0].report.group_reporting = false;
	fx->jobs[1].report.group_reporting = false;
	n = result_units(&fx->r, &u);
	assert_int_equal(n, 4);
	assert_int_equal(u[1].stats.dir[DDIR_READ].ios, 50);
	free(u);
}

static void test_groups(void **state)
{
	struct fixture *fx = *state;
	struct job_stats *g;
	int n;

	n = result_groups(&fx->r, &g);
	assert_int_equal(n, 2);
	assert_int_equal(g[0].nclones, 2);
	assert_int_equal(g[0].dir[DDIR_READ].ios, 150);
	assert_int_equal(g[1].nclones, 1);	/* "never" left out */
	assert_int_equal(g[1].dir[DDIR_READ].ios, 1000);
	assert_int_equal(g[1].dir[DDIR_WRITE].ios, 10);
	assert_int_equal(g[1].err, -EIO);
	free(g);
}

static void test_json_top(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_json, &fx->r), *host, *cpu, *v;
	const struct opt_def *o;

	assert_int_equal(get_int(root, "schema_version"), 1);
	assert_string_equal(json_string_value(get(root, "iorig_version")),
			    "9.8.7");
	assert_int_equal(get_int(root, "timestamp"), START_TIME);
	assert_string_equal(json_string_value(get(root, "time")),
			    "2023-11-14T22:13:20Z");
	host = get(root, "host");
	assert_string_equal(json_string_value(get(host, "hostname")),
			    "testhost");
	assert_string_equal(json_string_value(get(host, "kernel")),
			    "6.1.0-test");
	assert_int_equal(get_int(host, "ncpus"), 8);
	assert_true(json_is_false(get(root, "interrupted")));
	assert_true(json_is_null(get(root, "signal")));
	assert_int_equal(get_int(root, "wall_ns"), 2500000000);
	cpu = get(root, "cpu");
	assert_int_equal(get_int(cpu, "user_ns"), 1500000000);
	assert_int_equal(get_int(cpu, "sys_ns"), 250000000);
	assert_int_equal(get_int(cpu, "ctx_voluntary"), 42);
	assert_int_equal(get_int(cpu, "ctx_involuntary"), 7);
	assert_int_equal(get_int(cpu, "minflt"), 1234);
	assert_int_equal(get_int(cpu, "majflt"), 0);
	assert_int_equal(json_array_size(get(root, "jobs")), 3);
	assert_int_equal(json_array_size(get(root, "groups")), 2);

	/* Every option of the table, as text. */
	v = get(find_job(root, "single", 0), "options");
	for (o = options_table; o->name; o++)
		assert_true(json_is_string(get(v, o->name)));
	assert_string_equal(json_string_value(get(v, "name")), "single");
	assert_string_equal(json_string_value(get(v, "percentile_list")),
			    "50:90:99:99.9:99.99");
	json_decref(root);
}

static void test_json_job(void **state)
{
	struct fixture *fx = *state;
	const struct job_stats *s = &fx->stats[2];
	json_t *root = render_json_with(report_json, &fx->r),
	       *j, *rd, *wr, *cpu, *e, *pct;

	j = find_job(root, "single", 0);
	assert_int_equal(get_int(j, "group"), 1);
	assert_int_equal(get_int(j, "njobs"), 1);
	assert_true(json_is_true(get(j, "ran")));
	assert_true(json_is_false(get(j, "interrupted")));
	assert_int_equal(get_int(j, "runtime_ns"), 1000000000);
	assert_int_equal(get_int(j, "loops"), 2);
	e = get(j, "error");
	assert_int_equal(get_int(e, "errno"), EIO);
	assert_non_null(strstr(json_string_value(get(e, "message")),
			       "end_fsync failed"));
	cpu = get(j, "cpu");
	assert_int_equal(get_int(cpu, "user_ns"), 2000000);
	assert_int_equal(get_int(cpu, "sys_ns"), 3000000);
	assert_near(get_num(cpu, "us_per_io"), 5000.0 / 1010);

	rd = get(j, "read");
	assert_int_equal(get_int(rd, "io_bytes"), 1000 * BS);
	assert_int_equal(get_int(rd, "ios"), 1000);
	assert_int_equal(get_int(rd, "runtime_ns"), 1000000000);
	assert_near(get_num(rd, "iops"), 1000 * 1e9 / 1e9);
	assert_near(get_num(rd, "bw_bytes"), 1000.0 * BS);
	assert_int_equal(get_int(rd, "errors"), 0);
	assert_int_equal(get_int(rd, "short_ios"), 0);
	assert_true(json_is_null(get(rd, "first_error")));
	check_hist(get(rd, "slat_ns"), &s->dir[DDIR_READ].slat);
	assert_int_equal(check_hist(get(rd, "clat_ns"),
				    &s->dir[DDIR_READ].clat), 5);
	/* lat_percentiles is off: no percentiles, still the buckets. */
	assert_int_equal(check_hist(get(rd, "lat_ns"),
				    &s->dir[DDIR_READ].lat), 0);
	assert_true(json_array_size(get(get(rd, "lat_ns"), "buckets")) > 0);
	assert_int_equal(get_int(get(rd, "clat_ns"), "min"), 1000);
	assert_int_equal(get_int(get(rd, "clat_ns"), "max"), 1000000);
	assert_near(get_num(get(rd, "clat_ns"), "mean"), 500500);

	/* Keys in %g form; values near the exact ranks of 1000..1000000. */
	pct = get(get(rd, "clat_ns"), "percentiles");
	assert_true(labs((long)get_int(pct, "50") - 500000) <= 500000 / 128);
	assert_true(labs((long)get_int(pct, "99.9") - 999000) <= 999000 / 128);
	get_int(pct, "99.99");

	wr = get(j, "write");
	assert_int_equal(get_int(wr, "ios"), 10);
	assert_int_equal(get_int(wr, "io_bytes"), 8 * BS + BS / 2);
	assert_int_equal(get_int(wr, "errors"), 1);
	assert_int_equal(get_int(wr, "short_ios"), 1);
	e = get(wr, "first_error");
	assert_int_equal(get_int(e, "errno"), EIO);
	assert_int_equal(get_int(e, "offset"), INT64_MAX);
	assert_string_equal(json_string_value(get(e, "file")), "w.dat");
	assert_string_equal(json_string_value(get(e, "engine")), "libaio");
	assert_string_equal(json_string_value(get(e, "message")),
			    strerror(EIO));
	assert_true(json_is_false(get(j, "abandoned")));
	assert_int_equal(check_hist(get(wr, "slat_ns"),
				    &s->dir[DDIR_WRITE].slat), 0);
	assert_int_equal(get_int(get(wr, "slat_ns"), "count"), 10);
	check_hist(get(wr, "clat_ns"), &s->dir[DDIR_WRITE].clat);
	json_decref(root);
}

static void test_json_merged(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_json, &fx->r),
	       *j, *rd, *clat, *g;

	j = find_job(root, "grouped", -1);
	assert_int_equal(get_int(j, "njobs"), 2);
	assert_int_equal(get_int(j, "group"), 0);
	assert_true(json_is_null(get(j, "error")));
	assert_int_equal(get_int(j, "runtime_ns"), 2000000000);
	assert_int_equal(get_int(j, "loops"), 2);
	assert_int_equal(get_int(get(j, "cpu"), "user_ns"), 400000000);
	assert_int_equal(get_int(get(j, "cpu"), "ctx_voluntary"), 15);
	rd = get(j, "read");
	assert_int_equal(get_int(rd, "ios"), 150);
	assert_int_equal(get_int(rd, "io_bytes"), 150 * BS);
	assert_near(get_num(rd, "iops"), 150 * 1e9 / 2e9);
	clat = get(rd, "clat_ns");
	assert_int_equal(check_hist(clat, NULL), 5);
	assert_int_equal(get_int(clat, "count"), 150);
	assert_int_equal(get_int(clat, "min"), 1000);
	assert_int_equal(get_int(clat, "max"), 100000);
	assert_near(get_num(clat, "mean"),
		    (100 * 50500.0 + 50 * 51000.0) / 150);

	/* Groups: group 1 holds "single" and "never", only one ran. */
	g = json_array_get(get(root, "groups"), 1);
	assert_int_equal(get_int(g, "group"), 1);
	assert_int_equal(get_int(g, "njobs"), 2);
	assert_int_equal(get_int(g, "njobs_ran"), 1);
	assert_int_equal(get_int(get(g, "read"), "ios"), 1000);
	assert_int_equal(get_int(get(g, "write"), "ios"), 10);
	check_hist(get(get(g, "read"), "clat_ns"), NULL);
	g = json_array_get(get(root, "groups"), 0);
	assert_int_equal(get_int(get(g, "read"), "ios"), 150);
	assert_near(get_num(get(g, "read"), "bw_bytes"), 150.0 * BS / 2);

	/* The job that never ran is listed, empty. */
	j = find_job(root, "never", 0);
	assert_true(json_is_false(get(j, "ran")));
	assert_true(json_is_null(get(j, "error")));
	assert_int_equal(get_int(get(j, "read"), "ios"), 0);
	check_hist(get(get(j, "read"), "clat_ns"), NULL);
	assert_int_equal(get_int(get(get(j, "read"), "clat_ns"), "count"), 0);
	json_decref(root);
}

static void test_json_overflow_and_flags(void **state)
{
	struct fixture *fx = *state;
	struct hist *h = &fx->stats[2].dir[DDIR_READ].clat;
	json_t *root, *c;

	hist_add(h, 1ull << 50);	/* beyond the last bucket */
	fx->jobs[2].report.clat_percentiles = false;
	fx->jobs[2].report.lat_percentiles = true;
	root = render_json_with(report_json, &fx->r);
	c = get(get(find_job(root, "single", 0), "read"), "clat_ns");
	assert_int_equal(get_int(c, "overflow"), 1);
	assert_int_equal(get_int(c, "max"), 1ll << 50);
	assert_int_equal(check_hist(c, h), 0);
	c = get(get(find_job(root, "single", 0), "read"), "lat_ns");
	assert_int_equal(check_hist(c, NULL), 5);
	json_decref(root);
}

/*
 * A mismatch: 64-bit fields are hex text with "0x", zero included; an
 * unknown expected generation and a missing found header are null.
 */
static void test_json_verify_hex(void **state)
{
	struct fixture *fx = *state;
	struct verify_stats *v = &fx->stats[2].verify;
	struct verify_mismatch *m = &v->first[0];
	json_t *root, *jv, *jm, *x;

	v->kind = VERIFY_XXH3;
	v->blocks_checked = 4;
	v->mismatches = 2;
	v->by_class[VC_STALE] = 1;
	v->by_class[VC_ZEROED] = 1;
	v->nfirst = 2;
	snprintf(m->file, sizeof(m->file), "v.dat");
	m->offset = 4096;
	m->cls = VC_STALE;
	m->exp_gen = true;
	m->expected.offset = 4096;
	m->expected.len = 4096;
	m->expected.seed = 0;
	m->expected.generation = 7;
	m->expected.run_id = 0xabcdef0123456789ull;
	m->found_hdr = true;
	m->found = m->expected;
	m->found.kind = VERIFY_XXH3;
	m->found.generation = 6;
	m->found.csum = 0;
	m[1] = m[0];
	m[1].cls = VC_ZEROED;
	m[1].found_hdr = false;
	m[1].exp_gen = false;

	root = render_json_with(report_json, &fx->r);
	jv = get(find_job(root, "single", 0), "verify");
	assert_string_equal(json_string_value(get(jv, "kind")), "xxh3");
	assert_int_equal(json_array_size(get(jv, "first")), 2);
	jm = json_array_get(get(jv, "first"), 0);
	assert_string_equal(json_string_value(get(jm, "class")), "stale");
	x = get(jm, "expected");
	assert_string_equal(json_string_value(get(x, "seed")), "0x0");
	assert_string_equal(json_string_value(get(x, "run_id")),
			    "0xabcdef0123456789");
	assert_int_equal(get_int(x, "generation"), 7);
	assert_null(json_object_get(x, "checksum"));
	x = get(jm, "found");
	assert_string_equal(json_string_value(get(x, "checksum")), "0x0");
	assert_int_equal(get_int(x, "generation"), 6);
	jm = json_array_get(get(jv, "first"), 1);
	assert_true(json_is_null(get(jm, "found")));
	assert_true(json_is_null(get(get(jm, "expected"), "generation")));
	assert_true(json_is_null(get(get(jm, "expected"), "run_id")));
	json_decref(root);
}

/* Interrupted before anything ran: still one complete document. */
static void test_json_interrupted(void **state)
{
	struct fixture *fx = *state;
	json_t *root, *j;
	size_t i;

	memset(fx->ran, 0, sizeof(fx->ran));
	fx->r.signo = SIGINT;
	fx->r.version = NULL;
	root = render_json_with(report_json, &fx->r);
	assert_true(json_is_true(get(root, "interrupted")));
	assert_string_equal(json_string_value(get(root, "signal")), "SIGINT");
	assert_int_equal(json_array_size(get(root, "jobs")), 3);
	json_array_foreach(get(root, "jobs"), i, j) {
		assert_true(json_is_false(get(j, "ran")));
		check_hist(get(get(j, "write"), "lat_ns"), NULL);
	}
	json_decref(root);

	/* No stats at all (the run never got that far). */
	fx->r.stats = NULL;
	fx->r.ran = NULL;
	root = render_json_with(report_json, &fx->r);
	assert_int_equal(get_int(get(json_array_get(get(root, "groups"), 0),
				    "read"), "ios"), 0);
	json_decref(root);
}

static void assert_contains(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("\"%s\" not in the text report:\n%s", what, text);
}

static void test_text(void **state)
{
	struct fixture *fx = *state;
	char *t;

	fx->r.signo = SIGTERM;
	t = render(report_text, &fx->r);
	/* single: 1000 ios of 4KiB in 1s. */
	assert_contains(t, "single: clone 0, group 1, runtime 1.00s, 2 loops");
	assert_contains(t, "1.00k IOPS");
	assert_contains(t, "3.91 MiB/s (4.10 MB/s)");
	assert_contains(t, "3.91MiB (4096000 B), 1000 ios");
	assert_contains(t, "p99.9");
	assert_contains(t, "p99.99");
	assert_contains(t, "500.50us");		/* clat mean */
	assert_contains(t, "slat");		/* the writes have slat */
	assert_contains(t, "errors 1, short 1; first: EIO at offset "
			"18446744073709551615 of w.dat (");
	assert_contains(t, "), engine libaio\n");
	assert_contains(t, strerror(EIO));
	assert_contains(t, "end_fsync failed");
	assert_contains(t, "4.95us cpu/io");	/* 5ms / 1010 ios */
	/* grouped: 150 ios over 2s, merged. */
	assert_contains(t, "grouped: 2 jobs merged, group 0");
	assert_contains(t, "75.0 IOPS");
	assert_contains(t, "never: clone 0, group 1: not run");
	assert_contains(t, "group 0: 2 jobs, 2 ran, runtime 2.00s");
	assert_contains(t, "group 1: 2 jobs, 1 ran, runtime 1.00s");
	assert_contains(t, "user 1.500s  sys 0.250s  ctx 42 vol / 7 invol");
	assert_contains(t, "wall 2.50s");
	assert_contains(t, "interrupted by SIGTERM");
	assert_contains(t, "failed: single");
	/* lat_percentiles is off: only the clat table. */
	assert_null(strstr(t, " lat percentiles"));
	assert_contains(t, "clat percentiles");
	free(t);
}

/* A full device surfaces as -EIO, not as a silent short report. */
static void test_write_error(void **state)
{
	struct fixture *fx = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	assert_int_equal(report_json(f, &fx->r), -EIO);
	clearerr(f);
	assert_int_equal(report_text(f, &fx->r), -EIO);
	fclose(f);
}

#define T(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_stats_derived),
		T(test_stats_merge),
		T(test_stats_window),
		T(test_stats_cpu),
		T(test_units),
		T(test_groups),
		T(test_json_top),
		T(test_json_job),
		T(test_json_merged),
		T(test_json_overflow_and_flags),
		T(test_json_verify_hex),
		T(test_json_interrupted),
		T(test_text),
		T(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
