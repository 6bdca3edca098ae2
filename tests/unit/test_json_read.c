// SPDX-License-Identifier: MIT
/*
 * The JSON reader (src/result/json_read.c): a run_result written as JSON,
 * read back into the model and written again gives the same document,
 * byte for byte; every other writer that depends only on the model (text,
 * table, html) gives the same text from the model read back as from the
 * run. The outside truth is the writer's own document: each figure of it
 * is read back, or derived again as the writer derives it.
 *
 * The fixture covers what the document holds: a group_reporting unit of
 * two clones with intervals and steady state, a unit with writes, errors,
 * a failure, rates paced, rate samples, depths, syncs, a verification
 * with a mismatch, targets and engine setup, a job that never ran, phase
 * CPU, disks, warnings, the command line, checks with repeats and
 * baseline figures, a curve.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "unit_json.h"

#include "check.h"
#include "curve.h"
#include "options.h"
#include "report.h"

#define NJOBS	4

struct fixture {
	struct plan plan;
	struct job_stats stats[NJOBS];
	bool ran[NJOBS];
	struct phase_cpu phases[2];
	struct run_targets targets[NJOBS];
	struct run_target tgt[2];
	struct sysinfo_disk_use disk;
	struct check_def defs[2];
	struct check_result res[2];
	struct check_unit cu[3];
	struct baseline bl;
	double vals[3];
	struct curve_set curves;
	struct curve curve;
	struct run_result r;
};

static void job(struct job *j, const char *name, unsigned clone,
		unsigned group, bool grouped)
{
	assert_int_equal(options_defaults(j), 0);
	free(j->desc.name);
	j->desc.name = strdup(name);
	j->plan.clone = clone;
	j->plan.group = group;
	j->report.group_reporting = grouped;
	j->eng.numjobs = grouped ? 2 : 1;
	j->plan.wait_group = group;
}

/* n samples of lat = k * step (+ slat 100, clat the rest). */
static void ios(struct dir_stats *d, unsigned n, uint64_t step, bool slat)
{
	unsigned k;

	for (k = 1; k <= n; k++) {
		if (slat)
			hist_add(&d->slat, 100 + k);
		hist_add(&d->clat, k * step);
		hist_add(&d->lat, k * step + (slat ? 100 + k : 0));
	}
	d->ios += n;
	d->bytes += (uint64_t)n * 4096;
}

static struct ival_series *series(unsigned n, uint64_t iv)
{
	struct ival_series *s = ival_series_new(iv, false);
	struct ival_sample smp;
	struct hist *h = malloc(sizeof(*h));
	unsigned k, i;

	assert_non_null(s);
	assert_non_null(h);
	for (k = 0; k < n; k++) {
		memset(&smp, 0, sizeof(smp));
		smp.start_ns = k * iv;
		smp.end_ns = (k + 1) * iv - (k + 1 == n ? iv / 3 : 0);
		hist_init(h);
		for (i = 1; i <= 37 + k; i++)
			hist_add(h, 1000 * i + 7 * k);
		smp.dir[DDIR_READ].ios = 37 + k;
		smp.dir[DDIR_READ].bytes = (37 + k) * 4096ull;
		assert_int_equal(hist_sparse_from(&smp.dir[DDIR_READ].lat, h),
				 0);
		assert_int_equal(ival_series_add(s, &smp), 0);
		hist_sparse_free(&smp.dir[DDIR_READ].lat);
	}
	free(h);
	return s;
}

static void writes(struct job_stats *s)
{
	struct dir_stats *w = &s->dir[DDIR_WRITE];
	unsigned k;

	ios(w, 500, 3001, true);
	w->errors = 2;
	w->short_ios = 1;
	w->submit_done = 17;
	w->first_errno = EIO;
	w->first_err_offset = 8192;
	w->first_err_engine = "libaio";
	snprintf(w->first_err_file, sizeof(w->first_err_file), "/x/w.dat");
	for (k = 1; k <= 50; k++) {
		hist_add(&w->sched_lat, 5000 + 13 * k);
		smp_add(&w->bw_smp, 1e6 + 1000.5 * k);
		smp_add(&w->iops_smp, 250 + 0.25 * k);
		hist_add(&s->sync, 70000 + k * k);
	}
	w->rate_bps = 2e6;
	w->rate_iops = 500;
	w->backlog_ios = 3;
	w->lag_ns = 1234567;
	s->depth.level[2] = 400;
	s->depth.submit[1] = 90;
	s->depth.complete[3] = 80;
	s->depth.inline_ios = 5;
	s->think_ns = 999;
	s->end_sync_ns = 4444;
	s->err = -EIO;
	/* as iorig's own messages go: the errno's text in it (the document
	 * keeps one message, the run's with its errno's text) */
	snprintf(s->err_msg, sizeof(s->err_msg), "end_fsync of /x/w.dat: %s",
		 strerror(EIO));
	snprintf(s->cpus, sizeof(s->cpus), "0-3");
}

static void verified(struct job_stats *s)
{
	struct verify_stats *v = &s->verify;
	struct verify_mismatch *m = &v->first[0];

	v->kind = VERIFY_CRC32C;
	v->blocks_checked = 100;
	v->bytes = 409600;
	v->runtime_ns = 5000000;
	v->mismatches = 1;
	v->by_class[VC_TORN] = 1;
	v->nfirst = 1;
	snprintf(m->file, sizeof(m->file), "/x/w.dat");
	m->offset = 65536;
	m->cls = VC_TORN;
	m->exp_gen = true;
	m->expected.offset = 65536;
	m->expected.len = 4096;
	m->expected.seed = 0xfedcba9876543210ull;
	m->expected.generation = 77;
	m->expected.run_id = 0x1234;
	m->found_hdr = true;
	m->found = m->expected;
	m->found.kind = VERIFY_CRC32C;
	m->found.time_ns = 1700000000123456789ull;
	m->found.csum = 0xabcdef;
	snprintf(m->detail, sizeof(m->detail), "sectors 1-7 of another write");
	ios(&s->vread, 100, 2000, false);
	s->vphase_ns = 6000000;
}

static struct steady_rec *steady(void)
{
	struct steady_crit c = { .kind = SS_IOPS_SLOPE, .limit = 0.5,
				 .pct = true };
	struct steady_rec *r = steady_new(&c, 3000000000, 1000000000);
	unsigned k;

	assert_non_null(r);
	for (k = 0; k < 5; k++)
		steady_add(r, 100 + k * 0.1, 4e5 + k, 9000 + k);
	r->attained = true;
	r->at_ns = 5000000000;
	return r;
}

static void checks(struct fixture *fx)
{
	static const char *const text[] = { "read.iops>=10", "w:write.clat."
					    "p99<=1s" };
	struct metric m[METRIC_HEADLINE_MAX];
	char why[128];
	unsigned k;

	for (k = 0; k < 2; k++) {
		fx->defs[k].text = (char *)text[k];
		fx->defs[k].kb_base = 1024;
		assert_int_equal(check_parse(text[k], 1024, &fx->defs[k].x,
					     why, sizeof(why)), 0);
	}
	fx->defs[1].origin = CHECK_SECTION;
	snprintf(fx->defs[1].file, sizeof(fx->defs[1].file), "a.job");
	fx->defs[1].line = 7;
	fx->res[0] = (struct check_result){ .def = &fx->defs[0], .unit = 0,
		.job = &fx->plan.jobs[0], .status = CHECK_PASS, .value = 12.5,
		.has_threshold = true, .threshold = 10 };
	fx->res[1] = (struct check_result){ .def = &fx->defs[1], .unit = 1,
		.job = &fx->plan.jobs[2], .status = CHECK_NA,
		.reason = "no write I/O" };
	fx->cu[0].job = &fx->plan.jobs[0];
	fx->cu[0].repeated = true;
	fx->cu[0].in_baseline = true;
	fx->cu[0].nfigs = metric_headlines(1, m);
	for (k = 0; k < fx->cu[0].nfigs; k++) {
		struct check_fig *g = &fx->cu[0].figs[k];

		g->m = m[k];
		fx->vals[0] = 1.5 + k;
		fx->vals[1] = 2.5 + k;
		fx->vals[2] = 2.25 + k;
		g->values = malloc(sizeof(fx->vals));
		memcpy(g->values, fx->vals, sizeof(fx->vals));
		metric_spread(g->values, 3, &g->spread);
		g->value = g->spread.mean;
		g->has_base = k != 2;
		g->base = 2 + k;
		g->has_change = true;
		g->change_pct = (g->value - g->base) / g->base * 100;
	}
	fx->cu[1].job = &fx->plan.jobs[2];
	fx->bl.path = "old.json";
	snprintf(fx->bl.version, sizeof(fx->bl.version), "0.0.9");
	snprintf(fx->bl.time, sizeof(fx->bl.time), "2023-01-01T00:00:00Z");
}

static int setup(void **state)
{
	static struct check_report cr;
	static char *argv[] = { "iorig", "--name=g", "a b.job" };
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct job *j;
	unsigned i;

	assert_non_null(fx);
	j = fx->plan.jobs = calloc(NJOBS, sizeof(*j));
	fx->plan.njobs = NJOBS;
	fx->plan.ngroups = 2;
	job(&j[0], "g", 0, 0, true);
	job(&j[1], "g", 1, 0, true);
	job(&j[2], "w", 0, 1, false);
	job(&j[3], "never", 0, 1, false);
	j[0].report.interval_ns = j[1].report.interval_ns = 100000000;
	j[2].report.lat_percentiles = true;
	j[2].err.latency_target_ns = 1000000;
	j[2].report.unified_rw_reporting = UNIFIED_BOTH;
	free(j[2].plan.sweep_point);
	j[2].plan.sweep_point = strdup("bs=4k iodepth=8");
	for (i = 0; i < NJOBS; i++)
		stats_init(&fx->stats[i]);
	ios(&fx->stats[0].dir[DDIR_READ], 1000, 997, false);
	ios(&fx->stats[1].dir[DDIR_READ], 333, 2003, false);
	fx->stats[0].runtime_ns = 2000000000;
	fx->stats[1].runtime_ns = 1999999937;
	fx->stats[0].intervals = series(20, 100000000);
	fx->stats[1].intervals = series(19, 100000000);
	fx->stats[0].steady = steady();
	fx->stats[0].cpu = (struct cpu_usage){ .utime_ns = 3, .stime_ns = 5,
		.vcsw = 7, .ivcsw = 11, .minflt = 13, .majflt = 17 };
	writes(&fx->stats[2]);
	verified(&fx->stats[2]);
	ios(&fx->stats[2].dir[DDIR_READ], 77, 123457, false);
	fx->stats[2].runtime_ns = 1000000001;
	fx->stats[2].latency_depth = 6;
	fx->stats[3].err = -ENOENT;
	snprintf(fx->stats[3].err_msg, sizeof(fx->stats[3].err_msg),
		 "cannot open /x/n.dat: No such file or directory");
	fx->ran[0] = fx->ran[1] = fx->ran[2] = true;
	fx->phases[0].wall_ns = 2100000000;
	fx->phases[0].ios = 1333;
	fx->phases[0].proc.utime_ns = 300000000;
	fx->phases[0].sys.idle = 1e9;
	fx->phases[1].wall_ns = 1100000000;
	fx->phases[1].ios = 1077;
	fx->tgt[0].path = "/x/w.dat";
	fx->tgt[0].info.kind = SYSINFO_FILE;
	snprintf(fx->tgt[0].info.fs_type, sizeof(fx->tgt[0].info.fs_type),
		 "ext4");
	fx->tgt[0].info.has_device = true;
	snprintf(fx->tgt[0].info.dev.name, 32, "vda");
	fx->tgt[0].info.dev.logical_block_size = 512;
	fx->tgt[0].info.dev.physical_block_size = 4096;
	fx->tgt[0].info.dev.rotational = 0;
	fx->tgt[1].info.kind = SYSINFO_NONE;
	fx->targets[2].t = fx->tgt;
	fx->targets[2].n = 2;
	fx->targets[2].engine.known = true;
	fx->targets[2].engine.n = 1;
	fx->targets[2].engine.what[0] = "SQPOLL";
	fx->disk.sum = (struct sysinfo_diskstat){ .name = "vda", .rd_ios = 9,
		.wr_ios = 8, .io_ticks = 7, .time_in_queue = 6 };
	fx->disk.wall_ns = 3000000000;
	fx->curve.job = &j[0];
	fx->curve.npoints = 2;
	fx->curve.pt[0] = (struct curve_point){ .ran = true, .iops = 500,
		.lat_ns = { 1, 2, 3 } };
	fx->curve.pt[1] = (struct curve_point){ .pct = 50, .ran = true,
		.met = true, .target_iops = 250, .iops = 249.5,
		.lat_ns = { 4, 5, 6 }, .sched_ns = { 7, 8, 9 } };
	fx->curves.c = &fx->curve;
	fx->curves.n = 1;
	checks(fx);
	cr = (struct check_report){ .results = fx->res, .nresults = 2,
		.npass = 1, .nna = 1, .units = fx->cu, .nunits = 3,
		.baseline = &fx->bl };
	fx->r = (struct run_result){ .plan = &fx->plan, .stats = fx->stats,
		.ran = fx->ran, .phases = fx->phases, .nphases = 2,
		.wall_ns = 3300000000, .start_time = 1700000000,
		.signo = SIGTERM, .version = "9.8.7", .argc = 3,
		.argv = argv, .ncpus = 4, .memory_bytes = 1ull << 33,
		.targets = fx->targets, .checks = &cr, .curves = &fx->curves,
		.disks = { .d = &fx->disk, .n = 1 } };
	snprintf(fx->r.kernel, sizeof(fx->r.kernel), "6.1.0");
	snprintf(fx->r.hostname, sizeof(fx->r.hostname), "h1");
	warn_init(&fx->r.warnings, NULL);
	warn_add(&fx->r.warnings, "w_code", "w", "one <warning>");
	warn_add(&fx->r.warnings, "run_code", NULL, "another");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	unsigned i;

	for (i = 0; i < fx->cu[0].nfigs; i++)
		free(fx->cu[0].figs[i].values);
	ival_series_put(fx->stats[0].intervals);
	ival_series_put(fx->stats[1].intervals);
	steady_free(fx->stats[0].steady);
	warn_exit(&fx->r.warnings);
	plan_free(&fx->plan);
	free(fx);
	return 0;
}

static struct result_doc *read_back(const char *text)
{
	struct result_doc *d = calloc(1, sizeof(*d));
	struct err_rec *e = calloc(1, sizeof(*e));

	assert_non_null(d);
	assert_non_null(e);
	if (result_read(d, text, strlen(text), "fixture", 0, e))
		fail_msg("not read back: %s", e->msg);
	free(e);
	return d;
}

static void same_text(const char *a, const char *b, const char *what)
{
	size_t i = 0;

	while (a[i] && a[i] == b[i])
		i++;
	if (a[i] || b[i])
		fail_msg("%s differs at byte %zu:\n%.200s\n--- read back:\n"
			 "%.200s", what, i, a + (i > 80 ? i - 80 : 0),
			 b + (i > 80 ? i - 80 : 0));
}

/* run -> JSON -> model -> JSON: the same document; then the same model
 * read again: the same once more (nothing drifts). */
static void test_json_round_trip(void **state)
{
	struct fixture *fx = *state;
	char *one = render(report_json, &fx->r), *two, *three;
	struct result_doc *d = read_back(one), *d2;

	two = render(report_json, &d->r);
	same_text(one, two, "the document read back");
	d2 = read_back(two);
	three = render(report_json, &d2->r);
	same_text(two, three, "the document read twice");
	result_doc_free(d);
	result_doc_free(d2);
	free(d);
	free(d2);
	free(one);
	free(two);
	free(three);
}

/* The writers that depend on the model alone print the same from it. */
static void test_writers_same(void **state)
{
	static const unit_writer w[] = { report_text, report_table };
	struct fixture *fx = *state;
	char *doc = render(report_json, &fx->r);
	struct result_doc *d = read_back(doc);
	unsigned k;

	for (k = 0; k < sizeof(w) / sizeof(w[0]); k++) {
		char *a = render(w[k], &fx->r), *b = render(w[k], &d->r);

		same_text(a, b, k ? "the table" : "the text report");
		free(a);
		free(b);
	}
	result_doc_free(d);
	free(d);
	free(doc);
}

static bool same_12(double a, double b)
{
	char x[40], y[40];

	snprintf(x, sizeof(x), "%.12g", a);
	snprintf(y, sizeof(y), "%.12g", b);
	return !strcmp(x, y);
}

/* The histograms come back exact: every bucket, and the sums that give
 * the run's own mean and stddev while they fit the printed digits. */
static void test_hist_exact(void **state)
{
	struct fixture *fx = *state;
	char *doc = render(report_json, &fx->r);
	struct result_doc *d = read_back(doc);
	const struct hist *a = &fx->stats[2].dir[DDIR_WRITE].clat;
	const struct hist *b = &d->set.units[1].stats.dir[DDIR_WRITE].clat;

	assert_int_equal(d->set.nunits, 3);
	assert_memory_equal(a->b, b->b, sizeof(a->b));
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(same_12(hist_stddev(a), hist_stddev(b)));
	/* small enough for the printed stddev to hold the sum of squares */
	a = &fx->stats[2].sync;
	b = &d->set.units[1].stats.sync;
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	result_doc_free(d);
	free(d);
	free(doc);
}

/*
 * Terse prints a histogram's stddev in us with 6 decimals, 10 digits of a
 * stddev near 2 ms, from a figure the document keeps to 12: it must
 * print the figure as the document gives it, or a stddev whose 11th and
 * 12th digits are "50" rounds one way in the run and may round the other
 * from its saved document (seen: 1796.509497 against 1796.509496). The
 * search finds three write latencies whose stddev is such a tie.
 */
static void test_terse_as_saved(void **state)
{
	struct fixture *fx = *state;
	struct hist *h = &fx->stats[2].dir[DDIR_WRITE].clat;
	char want[40], naive[40], *doc, *run, *back;
	struct result_doc *d;
	uint64_t b;

	for (b = 1796000; b < 1806000; b++) {
		hist_init(h);
		hist_add(h, 1000);
		hist_add(h, 1000 + b);
		hist_add(h, 1000 + 3 * b + 7);
		snprintf(want, sizeof(want), ";%f;",
			 result_as_printed(hist_stddev(h)) / 1000.0);
		snprintf(naive, sizeof(naive), ";%f;",
			 hist_stddev(h) / 1000.0);
		if (strcmp(want, naive))
			break;
	}
	assert_true(b < 1806000);
	doc = render(report_json, &fx->r);
	run = render(report_terse, &fx->r);
	d = read_back(doc);
	back = render(report_terse, &d->r);
	if (!strstr(run, want) || strstr(run, naive))
		fail_msg("the run's terse has not the stddev %s as saved "
			 "(%s from the full double):\n%s", want, naive, run);
	if (!strstr(back, want))
		fail_msg("the saved document's terse has not the stddev "
			 "%s:\n%s", want, back);
	result_doc_free(d);
	free(d);
	free(doc);
	free(run);
	free(back);
}

/* A copy of doc whose first bucket's low bound has another first digit:
 * not the bucket of its high bound. */
static char *off_bounds(char *doc)
{
	char *c = strdup(doc), *p;

	assert_non_null(c);
	free(doc);
	p = strstr(c, "\"buckets\": [\n");
	assert_non_null(p);
	p = strchr(p + 15, '[');
	assert_non_null(p);
	p += 1 + strspn(p + 1, " \n");
	*p = *p == '3' ? '5' : '3';
	return c;
}

/* What is not an iorig result is refused, saying why; strict refuses a
 * histogram that is not iorig's. */
static void test_refused(void **state)
{
	static const char *const bad[] = {
		"[1]", "{\"fio version\": \"3.33\", \"jobs\": []}",
		"{\"jobs\": []}",
		"{\"iorig_version\": \"1\", \"schema_version\": 2, "
		"\"jobs\": []}",
		"{\"iorig_version\": \"1\", \"schema_version\": 1, "
		"\"jobs\": [{}]}", "not json",
	};
	static const char noschema[] = "{\"iorig_version\": \"1\", "
				       "\"jobs\": [], \"groups\": []}";
	struct fixture *fx = *state;
	struct result_doc d;
	struct err_rec *e = calloc(1, sizeof(*e));
	char *doc = render(report_json, &fx->r);
	unsigned k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		assert_int_equal(result_read(&d, bad[k], strlen(bad[k]), "b",
					     0, e), -EINVAL);
		assert_non_null(strstr(e->msg, k == 4 ? "not a job" :
				       k == 3 ? "schema_version 2" : "iorig"));
		assert_int_equal(result_read(&d, bad[k], strlen(bad[k]), "b",
					     RESULT_READ_STRICT, e), -EINVAL);
	}
	/* without schema_version: an older document, read; not merged */
	assert_int_equal(result_read(&d, noschema, strlen(noschema), "b", 0,
				     e), 0);
	result_doc_free(&d);
	assert_int_equal(result_read(&d, noschema, strlen(noschema), "b",
				     RESULT_READ_STRICT, e), -EINVAL);
	/* a bucket moved off iorig's bounds: strict says so */
	doc = off_bounds(doc);
	assert_int_equal(result_read(&d, doc, strlen(doc), "b",
				     RESULT_READ_STRICT, e), -EINVAL);
	assert_non_null(strstr(e->msg, "bucket"));
	free(doc);
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_writers_same, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hist_exact, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_terse_as_saved, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
