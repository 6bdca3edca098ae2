// SPDX-License-Identifier: MIT
/*
 * The cluster fold against raw samples: members (JSON results read back
 * into the model) whose histograms hold known samples merge into
 * percentiles equal to those of one histogram fed every sample (the
 * pooled samples), and within the histogram's resolution of the exact
 * sorted-sample percentiles; first done and last done follow the
 * members' start skews and runtimes; the merged result's JSON (its
 * writer) says so.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster.h"
#include "err.h"
#include "hist.h"
#include "report.h"
#include "unit.h"
#include "unit_json.h"

static const char *const pcts[] = { "1", "50", "90", "99", "99.9", "99.99",
				    "100", NULL };

static json_t *hist_json(const struct hist *h)
{
	json_t *o = json_object(), *b = json_array(), *p = json_object();
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i++)
		if (h->b[i])
			json_array_append_new(b, json_pack("[IIi]",
				(json_int_t)hist_bucket_low(i),
				(json_int_t)hist_bucket_high(i),
				(int)h->b[i]));
	for (i = 0; h->count && pcts[i]; i++)
		json_object_set_new(p, pcts[i], json_integer(0));
	json_object_set_new(o, "count", json_integer((json_int_t)h->count));
	json_object_set_new(o, "min", json_integer(h->count ?
						   (json_int_t)h->min : 0));
	json_object_set_new(o, "max", json_integer((json_int_t)h->max));
	json_object_set_new(o, "mean", json_real(hist_mean(h)));
	json_object_set_new(o, "stddev", json_real(hist_stddev(h)));
	json_object_set_new(o, "overflow", json_integer(0));
	json_object_set_new(o, "percentiles", p);
	json_object_set_new(o, "buckets", b);
	return o;
}

static json_t *dir_json(const struct hist *h, uint64_t runtime_ns)
{
	struct hist empty;
	json_t *d = json_object();

	hist_init(&empty);
	json_object_set_new(d, "ios", json_integer((json_int_t)h->count));
	json_object_set_new(d, "io_bytes",
			    json_integer((json_int_t)h->count * 4096));
	json_object_set_new(d, "runtime_ns",
			    json_integer((json_int_t)runtime_ns));
	json_object_set_new(d, "iops", json_real((double)h->count * 1e9 /
						 (double)runtime_ns));
	json_object_set_new(d, "bw_bytes", json_real((double)h->count *
						     4096e9 /
						     (double)runtime_ns));
	json_object_set_new(d, "errors", json_integer(0));
	json_object_set_new(d, "slat_ns", hist_json(&empty));
	json_object_set_new(d, "clat_ns", hist_json(h));
	json_object_set_new(d, "lat_ns", hist_json(h));
	return d;
}

/* A result of one job "j" whose reads are h, over runtime_ns. */
static json_t *result(const struct hist *h, uint64_t runtime_ns,
		      const char *host)
{
	struct hist empty;
	json_t *r = json_object(), *j = json_object(), *jobs = json_array();

	hist_init(&empty);
	json_object_set_new(j, "name", json_string("j"));
	json_object_set_new(j, "clone", json_integer(0));
	json_object_set_new(j, "group", json_integer(0));
	json_object_set_new(j, "options", json_pack("{ssss}", "rw", "randread",
		"percentile_list", "1:50:90:99:99.9:99.99:100"));
	json_object_set_new(j, "runtime_ns",
			    json_integer((json_int_t)runtime_ns));
	json_object_set_new(j, "read", dir_json(h, runtime_ns));
	json_object_set_new(j, "write", dir_json(&empty, runtime_ns));
	json_object_set_new(j, "trim", dir_json(&empty, runtime_ns));
	json_array_append_new(jobs, j);
	json_object_set_new(r, "schema_version", json_integer(1));
	json_object_set_new(r, "iorig_version", json_string("test"));
	json_object_set_new(r, "host", json_pack("{ss}", "hostname", host));
	json_object_set_new(r, "jobs", jobs);
	json_object_set_new(r, "groups", json_array());
	return r;
}

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The members (each a JSON result, taken) merged: the merged result's
 * JSON document, or NULL with e. */
static json_t *merge(json_t **m, const char *const *label,
		     const int *rank, const double *skew, unsigned n,
		     struct err_rec *e)
{
	struct cluster *c = cluster_new();
	struct result_doc d;
	json_t *out = NULL;
	unsigned i;
	int ret = 0;

	assert_non_null(c);
	for (i = 0; i < n && !ret; i++) {
		char *text = json_dumps(m[i], 0);

		assert_non_null(text);
		ret = result_read(&d, text, strlen(text), label[i],
				  RESULT_READ_STRICT, e);
		if (!ret)
			ret = cluster_add(c, &d, label[i], NULL, rank[i],
					  skew[i], e);
		free(text);
	}
	if (!ret && !cluster_finish(c, e))
		out = render_json_with(report_json, cluster_result(c));
	cluster_free(c);
	return out;
}

/* Three members: fast and narrow, slow and wide, few and very slow. */
static void test_percentiles_are_the_pooled_samples(void **state)
{
	static const unsigned n[3] = { 20000, 5000, 300 };
	struct hist *h = calloc(4, sizeof(*h));
	uint64_t *all = calloc(25300, sizeof(*all)), seed = 42;
	static const char *const label[] = { "m0", "m1", "m2" };
	static const int rank[] = { 0, 1, 2 };
	static const double skew[3];
	json_t *m[3];
	struct err_rec e = { 0 };
	const json_t *c;
	json_t *cl;
	unsigned i, k, tot = 0;

	(void)state;
	assert_non_null(h);
	assert_non_null(all);
	for (i = 0; i < 4; i++)
		hist_init(&h[i]);
	for (i = 0; i < 3; i++)
		for (k = 0; k < n[i]; k++) {
			uint64_t v = i == 0 ? 20000 + next(&seed) % 5000 :
				     i == 1 ? 100000 + next(&seed) % 900000 :
				     50000000 + next(&seed) % 50000000;

			hist_add(&h[i], v);
			hist_add(&h[3], v);	/* every sample, pooled */
			all[tot++] = v;
		}
	qsort(all, tot, sizeof(*all), cmp_u64);
	for (i = 0; i < 3; i++)
		m[i] = result(&h[i], 1000000000ull * (i + 1),
			      i == 2 ? "b" : "a");
	cl = merge(m, label, rank, skew, 3, &e);
	CHECK(cl, "merge failed: %s", e.msg);
	c = json_object_get(json_object_get(json_array_get(json_object_get(cl,
		"jobs"), 0), "read"), "clat_ns");
	assert_int_equal(json_integer_value(json_object_get(c, "count")), tot);
	for (i = 0; pcts[i]; i++) {
		double p = atof(pcts[i]);
		uint64_t got = (uint64_t)json_integer_value(json_object_get(
			json_object_get(c, "percentiles"), pcts[i]));
		uint64_t nth = (uint64_t)ceil(p / 100 * tot);
		uint64_t exact = all[(nth ? nth : 1) - 1];

		CHECK(got == hist_percentile(&h[3], p),
		      "p%s: merged %llu, the pooled histogram's %llu",
		      pcts[i], (unsigned long long)got,
		      (unsigned long long)hist_percentile(&h[3], p));
		CHECK(near_tol((double)got, (double)exact, 0.004),
		      "p%s: merged %llu, the sorted samples' %llu", pcts[i],
		      (unsigned long long)got, (unsigned long long)exact);
	}
	CHECK(near_tol(json_real_value(json_object_get(c, "mean")),
		       hist_mean(&h[3]), 1e-9), "pooled mean");
	CHECK(near_tol(json_real_value(json_object_get(c, "stddev")),
		       hist_stddev(&h[3]), 1e-6), "pooled stddev");
	/* Two hosts: a holds m0 and m1. */
	c = json_object_get(json_array_get(json_object_get(json_object_get(cl,
		"cluster"), "jobs"), 0), "read");
	assert_int_equal(json_array_size(json_object_get(c, "hosts")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
		json_object_get(c, "hosts"), 0), "ios")), n[0] + n[1]);
	json_decref(cl);
	for (i = 0; i < 3; i++)
		json_decref(m[i]);
	free(h);
	free(all);
}

/*
 * First done with skew: m0 runs [0, 1 s) with 1000 I/Os, m1 [0.5 s,
 * 2.5 s) with 4000. m0 finishes first at 1 s, when m1 has done a quarter
 * of its run: 1000 + 1000 I/Os in 1 s. Last done: 5000 in 2.5 s.
 */
static void test_first_and_last_done(void **state)
{
	struct hist h[2];
	static const char *const label[] = { "m0", "m1" };
	static const int rank[] = { 0, 1 };
	static const double skew[] = { 0, 5e8 };
	json_t *m[2];
	struct err_rec e = { 0 };
	const json_t *c, *fd, *ld;
	json_t *cl;
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++)
		hist_init(&h[i]);
	for (i = 0; i < 1000; i++)
		hist_add(&h[0], 1000);
	for (i = 0; i < 4000; i++)
		hist_add(&h[1], 2000);
	m[0] = result(&h[0], 1000000000, "a");
	m[1] = result(&h[1], 2000000000, "b");
	cl = merge(m, label, rank, skew, 2, &e);
	CHECK(cl, "merge failed: %s", e.msg);
	c = json_object_get(json_array_get(json_object_get(json_object_get(cl,
		"cluster"), "jobs"), 0), "read");
	fd = json_object_get(c, "first_done");
	ld = json_object_get(c, "last_done");
	assert_int_equal(json_integer_value(json_object_get(fd, "at_ns")),
			 1000000000);
	assert_string_equal(json_string_value(json_object_get(fd, "member")),
			    "m0");
	CHECK(near_tol(json_real_value(json_object_get(fd, "iops")), 2000,
		       1e-9), "first done iops %f",
	      json_real_value(json_object_get(fd, "iops")));
	assert_int_equal(json_integer_value(json_object_get(ld, "at_ns")),
			 2500000000);
	CHECK(near_tol(json_real_value(json_object_get(ld, "iops")), 2000,
		       1e-9), "last done iops %f",
	      json_real_value(json_object_get(ld, "iops")));
	assert_int_equal(json_integer_value(json_object_get(c,
		"common_window_ns")), 500000000);
	/* the aggregate: the sum of the rates, 1000 + 2000 */
	CHECK(near_tol(json_real_value(json_object_get(json_object_get(
		json_array_get(json_object_get(cl, "jobs"), 0), "read"),
		"iops")), 3000, 1e-9), "aggregate iops");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		c, "iops_spread"), "slowest")), "m0");
	json_decref(cl);
	for (i = 0; i < 2; i++)
		json_decref(m[i]);
}

/* Different jobs: refused, naming both members and the option. */
static void test_refuses_other_jobs(void **state)
{
	struct hist h;
	static const char *const label[] = { "A", "B" };
	static const int rank[] = { -1, -1 };
	static const double skew[2];
	json_t *m[2];
	struct err_rec e = { 0 };
	struct cluster *c = cluster_new();
	unsigned i;

	(void)state;
	hist_init(&h);
	hist_add(&h, 100);
	for (i = 0; i < 2; i++)
		m[i] = result(&h, 1000, "a");
	json_object_set_new(json_object_get(json_array_get(json_object_get(
		m[1], "jobs"), 0), "options"), "rw",
		json_string("randwrite"));
	assert_null(merge(m, label, rank, skew, 2, &e));
	CHECK(strstr(e.msg, "rw=randread in A, rw=randwrite in B"),
	      "message: %s", e.msg);
	/* nothing to merge */
	assert_int_equal(cluster_finish(c, &e), -EINVAL);
	cluster_free(c);
	for (i = 0; i < 2; i++)
		json_decref(m[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_are_the_pooled_samples),
		cmocka_unit_test(test_first_and_last_done),
		cmocka_unit_test(test_refuses_other_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
