// SPDX-License-Identifier: MIT
/*
 * The fio-json writer on a synthetic run whose figures are known, read
 * back the way fio-consuming tools read fio's JSON.
 *
 * Three job clones from a job file parsed into a raw_doc:
 *   0, 1  "grp" clones, group 0, group_reporting: one fio job
 *   2     "solo", group 1, the bs=64k point of a sweep: writes, failed
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
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "unit_json.h"

#include "jobfile.h"
#include "options.h"
#include "report.h"

#define NJOBS		3
#define BS		4096
#define START_TIME	1700000000	/* Tue Nov 14 22:13:20 2023 UTC */
#define SOLO_WRITES	20000

static const char job_text[] =
	"[global]\n"			/* 1 */
	"ioengine=libaio\n"
	"size=1m\n"
	"[grp]\n"			/* 4 */
	"readwrite=randread\n"
	"blocksize=4k\n"
	"group_reporting\n"
	"[solo]\n"			/* 8 */
	"rw=write\n"
	"sweep=bs:4k,64k\n";

struct fixture {
	struct raw_doc doc;
	struct plan plan;
	struct job jobs[NJOBS];
	struct job_stats *stats;
	bool ran[NJOBS];
	struct phase_cpu phases[2];
	struct sysinfo_disk_use disks[2];
	struct run_result r;
};

static void job_setup(struct job *j, const char *name, unsigned group,
		      unsigned wait_group, int line)
{
	assert_int_equal(options_defaults(j), 0);
	free(j->desc.name);
	j->desc.name = strdup(name);
	j->plan.section_file = strdup("t.job");
	assert_non_null(j->desc.name);
	assert_non_null(j->plan.section_file);
	j->plan.section_line = line;
	j->plan.group = group;
	j->plan.wait_group = wait_group;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct job_stats *s;
	struct err_rec e;
	unsigned i;

	assert_non_null(fx);
	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(jobfile_parse_string(&fx->doc, "t.job", job_text,
					      &e), 0);
	fx->stats = calloc(NJOBS, sizeof(*fx->stats));
	assert_non_null(fx->stats);
	s = fx->stats;

	job_setup(&fx->jobs[0], "grp", 0, 0, 4);
	job_setup(&fx->jobs[1], "grp", 0, 0, 4);
	job_setup(&fx->jobs[2], "solo", 1, 1, 8);
	fx->jobs[1].plan.clone = 1;
	fx->jobs[0].report.group_reporting =
		fx->jobs[1].report.group_reporting = true;
	fx->jobs[0].report.percentile_list[0] = 50;
	fx->jobs[0].report.percentile_list[1] = 99.9;
	fx->jobs[0].report.npercentiles = 2;
	fx->jobs[0].eng.iodepth = 16;
	fx->jobs[2].report.lat_percentiles = true;
	fx->jobs[2].plan.sweep_point = strdup("bs=64k");
	assert_non_null(fx->jobs[2].plan.sweep_point);
	fx->plan.jobs = fx->jobs;
	fx->plan.njobs = NJOBS;
	fx->plan.ngroups = 2;
	fx->plan.nwait_groups = 2;

	for (i = 0; i < NJOBS; i++)
		stats_init(&s[i]);
	/* grp: 8 reads of BS, clat 1, 3, 1500, 3e9 and four of 100 ns. */
	hist_add(&s[0].dir[DDIR_READ].clat, 1);
	hist_add(&s[0].dir[DDIR_READ].clat, 3);
	hist_add(&s[0].dir[DDIR_READ].clat, 1500);
	hist_add(&s[0].dir[DDIR_READ].clat, 3000000000ull);
	for (i = 0; i < 4; i++)
		hist_add(&s[1].dir[DDIR_READ].clat, 100);
	s[0].dir[DDIR_READ].ios = s[1].dir[DDIR_READ].ios = 4;
	s[0].dir[DDIR_READ].bytes = s[1].dir[DDIR_READ].bytes = 4 * BS;
	s[0].runtime_ns = 2000000000;
	s[1].runtime_ns = 1500000000;
	s[0].cpu.utime_ns = 700000000;
	s[1].cpu.utime_ns = 350000000;
	s[0].cpu.stime_ns = 350000000;
	s[0].cpu.vcsw = 10;
	s[1].cpu.vcsw = 5;
	s[1].cpu.ivcsw = 1;
	s[0].cpu.minflt = 7;
	s[1].cpu.majflt = 2;

	/* solo: SOLO_WRITES of 5 us, one beyond the histogram, one short. */
	for (i = 0; i < SOLO_WRITES; i++) {
		hist_add(&s[2].dir[DDIR_WRITE].slat, 300);
		hist_add(&s[2].dir[DDIR_WRITE].clat, 5000);
		hist_add(&s[2].dir[DDIR_WRITE].lat, 5300);
	}
	hist_add(&s[2].dir[DDIR_WRITE].clat, 1ull << 44);
	hist_add(&s[2].dir[DDIR_WRITE].lat, 1ull << 44);
	s[2].dir[DDIR_WRITE].ios = SOLO_WRITES + 1;
	s[2].dir[DDIR_WRITE].bytes = (SOLO_WRITES + 1) * (uint64_t)BS - 2048;
	s[2].dir[DDIR_WRITE].short_ios = 1;
	s[2].runtime_ns = 1000000000;
	s[2].err = -EIO;

	fx->ran[0] = fx->ran[1] = fx->ran[2] = true;
	fx->phases[0].wall_ns = 2200000000;
	fx->phases[1].wall_ns = 1000000000;

	snprintf(fx->disks[0].sum.name, sizeof(fx->disks[0].sum.name), "sda");
	fx->disks[0].sum.rd_ios = 8;
	fx->disks[0].sum.wr_merges = 3;
	fx->disks[0].sum.io_ticks = 500;
	fx->disks[0].sum.time_in_queue = 900;
	fx->disks[0].wall_ns = 1000000000;
	snprintf(fx->disks[1].sum.name, sizeof(fx->disks[1].sum.name), "sdb");
	fx->disks[1].sum.io_ticks = 3000;	/* more than the wall time */
	fx->disks[1].wall_ns = 1000000000;

	fx->r.plan = &fx->plan;
	fx->r.stats = fx->stats;
	fx->r.ran = fx->ran;
	fx->r.phases = fx->phases;
	fx->r.nphases = 2;
	fx->r.start_time = START_TIME;
	fx->r.start_time_ms = START_TIME * 1000ULL + 123;
	fx->r.version = "9.8.7";
	fx->r.doc = &fx->doc;
	fx->r.disks.d = fx->disks;
	fx->r.disks.n = 2;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	unsigned i;

	for (i = 0; i < NJOBS; i++)
		job_free(&fx->jobs[i]);
	raw_doc_free(&fx->doc);
	free(fx->stats);
	free(fx);
	return 0;
}

/* o holds exactly the string members of want (NULL-ended pairs). */
static void assert_strings(json_t *o, const char *const *want)
{
	size_t n = 0;

	for (; want[0]; want += 2, n++)
		assert_string_equal(get_str(o, want[0]), want[1]);
	assert_int_equal(json_object_size(o), n);
}

static void test_top(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_fio, &fx->r);
	static const char *const globals[] = {
		"ioengine", "libaio", "size", "1m", NULL,
	};

	assert_string_equal(get_str(root, "fio version"), "iorig-9.8.7");
	assert_int_equal(get_int(root, "timestamp"), START_TIME);
	assert_int_equal(get_int(root, "timestamp_ms"), START_TIME * 1000LL + 123);
	assert_string_equal(get_str(root, "time"), "Tue Nov 14 22:13:20 2023");
	assert_strings(get(root, "global options"), globals);
	assert_int_equal(json_array_size(get(root, "jobs")), 2);
	json_decref(root);
}

/* group_reporting: one job, its figures merged, fio's units. */
static void test_merged_job(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_fio, &fx->r);
	json_t *j = json_array_get(get(root, "jobs"), 0), *rd, *clat, *pct;
	static const char *const opts[] = {
		"rw", "randread", "bs", "4k", NULL,	/* bare flags: none */
	};
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	assert_string_equal(get_str(j, "jobname"), "grp");
	assert_int_equal(get_int(j, "groupid"), 0);
	assert_int_equal(get_int(j, "error"), 0);
	assert_int_equal(get_int(j, "elapsed"), 3);	/* 2.2 s, up */
	assert_strings(get(j, "job options"), opts);

	rd = get(j, "read");
	assert_int_equal(get_int(rd, "io_bytes"), 8 * BS);
	assert_int_equal(get_int(rd, "io_kbytes"), 32);
	assert_int_equal(get_int(rd, "bw_bytes"), 16384);	/* over 2 s */
	assert_int_equal(get_int(rd, "bw"), 16);
	assert_near(get_real(rd, "iops"), 4.0);
	assert_int_equal(get_int(rd, "runtime"), 2000);
	assert_int_equal(get_int(rd, "total_ios"), 8);
	assert_int_equal(get_int(rd, "short_ios"), 0);
	assert_int_equal(get_int(rd, "drop_ios"), 0);
	assert_int_equal(get_int(rd, "bw_samples"), 0);
	assert_near(get_real(rd, "bw_mean"), 0);
	assert_int_equal(get_int(rd, "iops_min"), 0);
	assert_near(get_real(rd, "iops_stddev"), 0);

	*h = fx->stats[0].dir[DDIR_READ].clat;
	hist_merge(h, &fx->stats[1].dir[DDIR_READ].clat);
	clat = get(rd, "clat_ns");
	assert_int_equal(get_int(clat, "N"), 8);
	assert_int_equal(get_int(clat, "min"), 1);
	assert_int_equal(get_int(clat, "max"), 3000000000LL);
	assert_near(get_real(clat, "mean"), hist_mean(h));
	assert_near(get_real(clat, "stddev"), hist_stddev(h));
	pct = get(clat, "percentile");
	assert_int_equal(json_object_size(pct), 2);
	assert_int_equal(get_int(pct, "50.000000"), hist_percentile(h, 50));
	assert_int_equal(get_int(pct, "99.900000"), hist_percentile(h, 99.9));
	/* slat and lat percentiles are off; slat has no samples at all. */
	assert_null(json_object_get(get(rd, "lat_ns"), "percentile"));
	assert_int_equal(get_int(get(rd, "slat_ns"), "N"), 0);
	/* No writes: zeros, runtime 0, no percentiles. */
	assert_int_equal(get_int(get(j, "write"), "runtime"), 0);
	assert_int_equal(get_int(get(j, "write"), "bw"), 0);
	assert_null(json_object_get(get(get(j, "write"), "clat_ns"),
				    "percentile"));

	/* CPU over the summed runtime of both clones (3.5 s). */
	assert_int_equal(get_int(j, "job_runtime"), 3500);
	assert_near(get_real(j, "usr_cpu"), 30.0);
	assert_near(get_real(j, "sys_cpu"), 10.0);
	assert_int_equal(get_int(j, "ctx"), 16);
	assert_int_equal(get_int(j, "minf"), 7);
	assert_int_equal(get_int(j, "majf"), 2);
	assert_int_equal(get_int(j, "latency_depth"), 16);
	assert_int_equal(get_int(j, "latency_target"), 0);
	assert_near(get_real(j, "latency_percentile"), 100);
	assert_int_equal(get_int(j, "latency_window"), 0);
	assert_near(get_real(get(j, "iodepth_level"), ">=64"), 0);
	free(h);
	json_decref(root);
}

/* fio's latency buckets: upper edges, shares of all completions. */
static void test_latency_maps(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_fio, &fx->r),
	       *jobs = get(root, "jobs"), *m;
	const char *key;
	json_t *v;
	double sum = 0;

	m = get(json_array_get(jobs, 0), "latency_ns");
	assert_int_equal(json_object_size(m), 10);
	assert_near(get_real(m, "2"), 12.5);	/* 1 ns */
	assert_near(get_real(m, "4"), 12.5);	/* 3 ns */
	assert_near(get_real(m, "250"), 50);	/* 4 of 100 ns */
	assert_near(get_real(m, "1000"), 0);
	json_object_foreach(m, key, v)
		sum += json_real_value(v);
	m = get(json_array_get(jobs, 0), "latency_us");
	assert_int_equal(json_object_size(m), 10);
	assert_near(get_real(m, "2"), 12.5);	/* 1.5 us */
	json_object_foreach(m, key, v)
		sum += json_real_value(v);
	m = get(json_array_get(jobs, 0), "latency_ms");
	assert_int_equal(json_object_size(m), 12);
	assert_near(get_real(m, "2000"), 0);
	assert_near(get_real(m, ">=2000"), 12.5);	/* 3 s */
	json_object_foreach(m, key, v)
		sum += json_real_value(v);
	assert_near(sum, 100);

	/* A share that rounds to nothing still shows; overflow is >=2000. */
	m = get(json_array_get(jobs, 1), "latency_us");
	assert_near(get_real(m, "10"), 100.0 * SOLO_WRITES /
		    (SOLO_WRITES + 1));
	m = get(json_array_get(jobs, 1), "latency_ms");
	assert_near(get_real(m, ">=2000"), 0.01);
	json_decref(root);
}

static void test_failed_sweep_point(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_fio, &fx->r);
	json_t *j = json_array_get(get(root, "jobs"), 1), *wr, *lat, *o;
	static const char *const opts[] = {
		"rw", "write", "bs", "64k", NULL,
	};

	assert_string_equal(get_str(j, "jobname"), "solo");
	assert_int_equal(get_int(j, "groupid"), 1);
	assert_int_equal(get_int(j, "error"), EIO);
	assert_int_equal(get_int(j, "elapsed"), 1);
	/* The sweep point's value, not the sweep. */
	assert_strings(get(j, "job options"), opts);
	wr = get(j, "write");
	assert_int_equal(get_int(wr, "runtime"), 1000);
	assert_int_equal(get_int(wr, "short_ios"), 1);
	assert_int_equal(get_int(wr, "bw_bytes"),
			 (SOLO_WRITES + 1) * (json_int_t)BS - 2048);
	assert_int_equal(get_int(wr, "bw"),
			 ((SOLO_WRITES + 1) * (json_int_t)BS - 2048) / 1024);
	assert_near(get_real(wr, "iops"), SOLO_WRITES + 1);
	assert_int_equal(get_int(get(wr, "slat_ns"), "N"), SOLO_WRITES);
	assert_null(json_object_get(get(wr, "slat_ns"), "percentile"));
	lat = get(wr, "lat_ns");
	assert_int_equal(get_int(lat, "max"), 1LL << 44);
	/* Its own list: the default, 17 of fio's. */
	assert_int_equal(json_object_size(get(lat, "percentile")), 17);
	assert_int_equal(get_int(get(lat, "percentile"), "1.000000"),
			 hist_percentile(&fx->stats[2].dir[DDIR_WRITE].lat, 1));
	assert_int_equal(get_int(get(lat, "percentile"), "99.990000"),
			 hist_percentile(&fx->stats[2].dir[DDIR_WRITE].lat,
					 99.99));
	/* trim and sync: fio's shape, nothing in them. */
	o = get(j, "trim");
	assert_int_equal(get_int(o, "total_ios"), 0);
	assert_int_equal(get_int(get(o, "clat_ns"), "N"), 0);
	o = get(j, "sync");
	assert_int_equal(get_int(o, "total_ios"), 0);
	assert_int_equal(get_int(get(o, "lat_ns"), "N"), 0);
	json_decref(root);
}

static void test_disk_util(void **state)
{
	struct fixture *fx = *state;
	json_t *root = render_json_with(report_fio, &fx->r),
	       *d = get(root, "disk_util"), *x;

	assert_int_equal(json_array_size(d), 2);
	x = json_array_get(d, 0);
	assert_string_equal(get_str(x, "name"), "sda");
	assert_int_equal(get_int(x, "read_ios"), 8);
	assert_int_equal(get_int(x, "write_ios"), 0);
	assert_int_equal(get_int(x, "write_merges"), 3);
	assert_int_equal(get_int(x, "in_queue"), 900);
	assert_near(get_real(x, "util"), 50);
	assert_near(get_real(json_array_get(d, 1), "util"), 100);
	json_decref(root);
}

/* A job of the command line carries its --name; no doc, no options. */
static void test_cmdline_and_no_doc(void **state)
{
	struct fixture *fx = *state;
	struct raw_section *sec;
	json_t *root, *o;
	static const char *const opts[] = {
		"name", "cl", "rw", "read", "bs", "64k", NULL,
	};

	sec = raw_doc_add_section(&fx->doc, "cl", ERR_CMDLINE, 3);
	assert_non_null(sec);
	assert_int_equal(raw_section_add(&fx->doc, sec, "rw", "read",
					 ERR_CMDLINE, 4), 0);
	free(fx->jobs[2].plan.section_file);
	fx->jobs[2].plan.section_file = strdup(ERR_CMDLINE);
	fx->jobs[2].plan.section_line = 3;
	root = render_json_with(report_fio, &fx->r);
	o = get(json_array_get(get(root, "jobs"), 1), "job options");
	assert_strings(o, opts);
	json_decref(root);

	fx->r.doc = NULL;
	fx->r.disks.n = 0;
	root = render_json_with(report_fio, &fx->r);
	/* No options: no key, as fio writes it. */
	assert_null(json_object_get(root, "global options"));
	o = json_array_get(get(root, "jobs"), 0);
	assert_null(json_object_get(o, "job options"));
	/* No disk watched: no disk_util, as fio writes it. */
	assert_null(json_object_get(root, "disk_util"));
	json_decref(root);
}

/* Not run: zeros and the reason, never the garbage in its stats. */
static void test_not_run(void **state)
{
	struct fixture *fx = *state;
	json_t *root, *j;

	memset(&fx->stats[2], 0xab, sizeof(fx->stats[2]));
	fx->stats[2].err = -ENOENT;
	fx->stats[2].interrupted = false;
	fx->ran[2] = false;
	root = render_json_with(report_fio, &fx->r);
	j = json_array_get(get(root, "jobs"), 1);
	assert_int_equal(get_int(j, "error"), ENOENT);
	assert_int_equal(get_int(j, "elapsed"), 0);
	assert_int_equal(get_int(j, "job_runtime"), 0);
	assert_int_equal(get_int(get(j, "write"), "total_ios"), 0);
	assert_int_equal(get_int(get(j, "write"), "io_bytes"), 0);
	assert_int_equal(get_int(j, "ctx"), 0);
	json_decref(root);
}

static void test_write_error(void **state)
{
	struct fixture *fx = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	assert_int_equal(report_fio(f, &fx->r), -EIO);
	fclose(f);
}

#define T(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_top),
		T(test_merged_job),
		T(test_latency_maps),
		T(test_failed_sweep_point),
		T(test_disk_util),
		T(test_cmdline_and_no_doc),
		T(test_not_run),
		T(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
