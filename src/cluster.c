// SPDX-License-Identifier: MIT
/*
 * The cluster result (cluster.h): N iorig JSON results merged into one
 * iorig JSON document plus a "cluster" object.
 *
 * The merged document keeps the layout of one result, so every reader of
 * iorig's JSON (--baseline, the schema, scripts) reads it: counts add up,
 * rates add up (the aggregate), histograms are merged bucket by bucket and
 * their percentiles recomputed from the merged buckets exactly as one run
 * computes them (hist_percentile), times take the longest. The "cluster"
 * object adds what only a cluster has: the members, the hosts, per member
 * and per host rows, the spread (min, median, max, the slowest member),
 * "first done" and "last done".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_expr.h"
#include "cluster.h"
#include "ddir.h"
#include "door.h"
#include "err.h"
#include "hist.h"
#include "jsonw.h"
#include "metric.h"
#include "resjson.h"

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;
static const char *const hist_key[] = { "slat_ns", "clat_ns", "lat_ns" };

/* Options a rank may set for itself (its targets, its seed, its CPUs):
 * every other option must be the same in every member. */
static const char *const per_member_opts[] = {
	"filename", "directory", "filename_format", "size", "filesize",
	"offset", "io_size", "number_ios", "description", "randseed",
	"cpus_allowed", "cpumask", "sqthread_poll_cpu", NULL,
};

bool cluster_option_per_member(const char *name)
{
	const char *const *l;

	for (l = per_member_opts; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* ---- reading the members ---- */

static const char *label_of(const struct cluster_member *m, size_t i,
			    char *buf, size_t len)
{
	if (m->label && *m->label)
		return m->label;
	if (m->rank >= 0)
		snprintf(buf, len, "rank %d", m->rank);
	else
		snprintf(buf, len, "member %zu", i);
	return buf;
}

static const char *host_of(const struct cluster_member *m)
{
	const char *h;

	if (m->host && *m->host)
		return m->host;
	h = json_string_value(json_object_get(json_object_get(m->result,
							      "host"),
					      "hostname"));
	return h && *h ? h : "?";
}

static bool is_hist(const json_t *o)
{
	return json_is_object(o) && json_is_array(json_object_get(o,
								  "buckets"));
}

/* A direction's histogram objects are well formed: count, buckets of
 * [low, high, count] that are iorig's buckets. */
static int check_hist(const json_t *h, char *why, size_t len)
{
	const json_t *b = json_object_get(h, "buckets"), *x;
	size_t i;
	uint64_t sum = 0;

	if (!json_is_integer(json_object_get(h, "count")) ||
	    !json_is_integer(json_object_get(h, "overflow")) ||
	    !json_is_integer(json_object_get(h, "min")) ||
	    !json_is_integer(json_object_get(h, "max")) ||
	    !json_is_number(json_object_get(h, "mean")) ||
	    !json_is_number(json_object_get(h, "stddev")) ||
	    !json_is_array(b)) {
		snprintf(why, len, "a histogram lacks count, min, max, mean, "
			 "stddev, overflow or buckets");
		return -EINVAL;
	}
	json_array_foreach(b, i, x) {
		json_int_t lo = json_integer_value(json_array_get(x, 0));
		json_int_t hi = json_integer_value(json_array_get(x, 1));
		json_int_t c = json_integer_value(json_array_get(x, 2));

		if (json_array_size(x) != 3 || lo < 0 || c < 0 ||
		    (uint64_t)lo >> HIST_MAX_BITS ||
		    hist_bucket_low(hist_index((uint64_t)lo)) !=
		    (uint64_t)lo ||
		    hist_bucket_high(hist_index((uint64_t)lo)) !=
		    (uint64_t)hi) {
			snprintf(why, len, "bucket %zu is not [low, high, "
				 "count] of an iorig histogram", i);
			return -EINVAL;
		}
		sum += (uint64_t)c;
	}
	if (sum + (uint64_t)json_integer_value(json_object_get(h, "overflow"))
	    != (uint64_t)json_integer_value(json_object_get(h, "count"))) {
		snprintf(why, len, "a histogram's buckets do not add up to "
			 "its count");
		return -EINVAL;
	}
	return 0;
}

/* Every histogram anywhere in v. */
static int check_hists(const json_t *v, char *why, size_t len)
{
	const char *k;
	const json_t *x;
	size_t i;

	if (is_hist(v))
		return check_hist(v, why, len);
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x)
			if (check_hists(x, why, len))
				return -EINVAL;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if (check_hists(x, why, len))
				return -EINVAL;
	}
	return 0;
}

static int check_member(const json_t *r, char *why, size_t len)
{
	const json_t *jobs = json_object_get(r, "jobs"), *j;
	size_t i;
	int d, k;

	if (!json_is_object(r)) {
		snprintf(why, len, "not a JSON object");
		return -EINVAL;
	}
	if (json_object_get(r, "fio version")) {
		snprintf(why, len, "a fio JSON report; expected an iorig "
			 "result (iorig --output-format=json)");
		return -EINVAL;
	}
	if (json_integer_value(json_object_get(r, "schema_version")) != 1 ||
	    !json_is_string(json_object_get(r, "iorig_version")) ||
	    !json_is_array(jobs) ||
	    !json_is_array(json_object_get(r, "groups"))) {
		snprintf(why, len, "not an iorig result (expected the document "
			 "of iorig --output-format=json, schema_version 1)");
		return -EINVAL;
	}
	json_array_foreach(jobs, i, j) {
		if (!json_is_string(json_object_get(j, "name")) ||
		    !json_is_object(json_object_get(j, "options")) ||
		    !json_is_integer(json_object_get(j, "runtime_ns"))) {
			snprintf(why, len, "job %zu lacks name, options or "
				 "runtime_ns", i);
			return -EINVAL;
		}
		for (d = 0; d < DDIR_NR; d++) {
			const json_t *o = json_object_get(j, dir_key[d]);

			if (!json_is_object(o) ||
			    !json_is_integer(json_object_get(o, "ios")) ||
			    !json_is_integer(json_object_get(o, "io_bytes")) ||
			    !json_is_integer(json_object_get(o,
							     "runtime_ns"))) {
				snprintf(why, len, "job '%s' lacks its %s "
					 "figures", json_string_value(
					 json_object_get(j, "name")),
					 dir_key[d]);
				return -EINVAL;
			}
			for (k = 0; k < 3; k++)
				if (!is_hist(json_object_get(o, hist_key[k]))) {
					snprintf(why, len, "job '%s' lacks its "
						 "%s %s", json_string_value(
						 json_object_get(j, "name")),
						 dir_key[d], hist_key[k]);
					return -EINVAL;
				}
		}
	}
	return check_hists(r, why, len);
}

static const char *str_of(const json_t *v, char *buf, size_t len)
{
	char *s;

	if (json_is_string(v))
		return json_string_value(v);
	s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	snprintf(buf, len, "%s", s ? s : "(none)");
	free(s);
	return buf;
}

/* Equal values, or both missing (json_equal says no to two NULLs). */
static bool same(const json_t *a, const json_t *b)
{
	return (!a && !b) || json_equal(a, b);
}

/* Members a and b ran the same jobs: names, clones, groups, and every
 * option but the per-member ones. */
static int same_jobs(const struct cluster_member *m, size_t a, size_t b,
		     struct err_rec *e)
{
	const json_t *ja = json_object_get(m[a].result, "jobs");
	const json_t *jb = json_object_get(m[b].result, "jobs");
	char la[64], lb[64], va[256], vb[256];
	const char *na = label_of(&m[a], a, la, sizeof(la));
	const char *nb = label_of(&m[b], b, lb, sizeof(lb));
	static const char *const ids[] = { "name", "clone", "group",
					   "sweep_point", NULL };
	size_t i, k;

	if (json_array_size(ja) != json_array_size(jb)) {
		err_set(e, nb, 0, "", "%s has %zu job(s), %s has %zu: the "
			"members did not run the same jobs", na,
			json_array_size(ja), nb, json_array_size(jb));
		return -EINVAL;
	}
	for (i = 0; i < json_array_size(ja); i++) {
		const json_t *x = json_array_get(ja, i);
		const json_t *y = json_array_get(jb, i);
		const char *name = json_string_value(json_object_get(x,
								     "name"));
		const json_t *ox = json_object_get(x, "options");
		const json_t *oy = json_object_get(y, "options");
		const char *key;
		const json_t *v;

		for (k = 0; ids[k]; k++)
			if (!same(json_object_get(x, ids[k]),
				  json_object_get(y, ids[k]))) {
				err_set(e, nb, 0, "", "job %zu differs: %s is "
					"%s in %s, %s in %s", i + 1, ids[k],
					str_of(json_object_get(x, ids[k]), va,
					       sizeof(va)), na,
					str_of(json_object_get(y, ids[k]), vb,
					       sizeof(vb)), nb);
				return -EINVAL;
			}
		json_object_foreach((json_t *)ox, key, v) {
			const json_t *w = json_object_get(oy, key);

			if (cluster_option_per_member(key) || json_equal(v, w))
				continue;
			err_set(e, nb, 0, key, "job '%s' differs: %s=%s in %s, "
				"%s=%s in %s (only targets, sizes, offsets, "
				"seeds and CPUs may differ between members)",
				name, key, str_of(v, va, sizeof(va)), na, key,
				str_of(w, vb, sizeof(vb)), nb);
			return -EINVAL;
		}
		json_object_foreach((json_t *)oy, key, v)
			if (!json_object_get(ox, key)) {
				err_set(e, nb, 0, key, "job '%s' differs: %s "
					"has option %s, %s does not", name, nb,
					key, na);
				return -EINVAL;
			}
	}
	if (json_array_size(json_object_get(m[a].result, "groups")) !=
	    json_array_size(json_object_get(m[b].result, "groups"))) {
		err_set(e, nb, 0, "", "%s and %s have different stonewall "
			"groups", na, nb);
		return -EINVAL;
	}
	return 0;
}

/* ---- merging ---- */

/* a + b for JSON integers, held at the ends of json_int_t (hostile
 * input must not overflow). */
static json_t *int_sum(const json_t *a, const json_t *b)
{
	json_int_t x = json_integer_value(a), y = json_integer_value(b), r;

	if (__builtin_add_overflow(x, y, &r))
		r = x > 0 ? INT64_MAX : INT64_MIN;
	return json_integer(r);
}

void cluster_hist_from_json(struct hist *h, const json_t *o)
{
	const json_t *b = json_object_get(o, "buckets"), *x;
	size_t i;

	if (!json_is_object(o))
		return;
	json_array_foreach(b, i, x) {
		uint64_t lo = resjson_u64(json_array_get(x, 0));

		if (!(lo >> HIST_MAX_BITS))	/* check_hist refuses them */
			h->b[hist_index(lo)] +=
				resjson_u64(json_array_get(x, 2));
	}
	if (resjson_u64(json_object_get(o, "count"))) {
		uint64_t mn = resjson_u64(json_object_get(o, "min"));
		uint64_t mx = resjson_u64(json_object_get(o, "max"));

		if (mn < h->min)
			h->min = mn;
		if (mx > h->max)
			h->max = mx;
	}
	h->count += resjson_u64(json_object_get(o, "count"));
	h->overflow += resjson_u64(json_object_get(o, "overflow"));
}

/* The pooled count, mean and population stddev of two sets. */
static void pool(double n1, double m1, double s1, double n2, double m2,
		 double s2, double *m, double *s)
{
	double n = n1 + n2, v;

	if (n <= 0) {
		*m = *s = 0;
		return;
	}
	*m = (n1 * m1 + n2 * m2) / n;
	v = (n1 * (s1 * s1 + m1 * m1) + n2 * (s2 * s2 + m2 * m2)) / n -
	    *m * *m;
	*s = v > 0 ? sqrt(v) : 0;
}

/* dst and src: {count, min, max, mean, stddev...}: a histogram (buckets
 * and percentiles are redone from the whole at the end) or rate samples. */
static void merge_stats(json_t *dst, const json_t *src)
{
	double n1 = resjson_num(dst, "count");
	double n2 = resjson_num(src, "count");
	double m, s;
	const char *k;
	json_t *v;

	if (n2 <= 0)
		return;
	pool(n1, resjson_num(dst, "mean"),
	     resjson_num(dst, "stddev"), n2,
	     resjson_num(src, "mean"),
	     resjson_num(src, "stddev"), &m, &s);
	json_object_set_new(dst, "mean", jw_real(m));
	json_object_set_new(dst, "stddev", jw_real(s));
	json_object_foreach(dst, k, v) {
		const json_t *w = json_object_get(src, k);
		bool lower;

		if (!strcmp(k, "min") || !strcmp(k, "max")) {
			lower = k[1] == 'i';
			if (n1 <= 0 || (lower ? json_number_value(w) <
					json_number_value(v) :
					json_number_value(w) >
					json_number_value(v)))
				json_object_set(dst, k, (json_t *)w);
		} else if (!strcmp(k, "count") || !strcmp(k, "overflow")) {
			json_object_set_new(dst, k, int_sum(v, w));
		} else if (!strcmp(k, "buckets")) {
			json_array_extend(v, (json_t *)w);
		} else if (!strcmp(k, "percentiles") && !json_object_size(v)) {
			json_object_update(v, (json_t *)w);
		}
	}
}

enum rule { R_SUM, R_MAX, R_KEEP, R_OR, R_AND };

static int rule_of(const char *k)
{
	static const char *const max[] = { "runtime_ns", "wall_ns",
		"end_sync_ns", "lag_ns", "phase_ns", NULL };
	static const char *const keep[] = { "schema_version", "timestamp",
		"group", "clone", "loops", "interval_ns", "phase", "ncpus",
		"memory_bytes", "errno", "offset", "sweep_point", "ss_dur",
		NULL };

	if (in_list(max, k))
		return R_MAX;
	if (in_list(keep, k))
		return R_KEEP;
	if (!strcmp(k, "interrupted") || !strcmp(k, "abandoned") ||
	    !strcmp(k, "stopped"))
		return R_OR;
	return R_SUM;
}

static void merge_value(json_t *dst_parent, const char *key, json_t *dst,
			const json_t *src);

static void merge_object(json_t *dst, const json_t *src)
{
	const char *k;
	json_t *v;
	void *tmp;

	if (json_object_get(dst, "count") && json_object_get(dst, "mean") &&
	    json_object_get(dst, "stddev")) {
		merge_stats(dst, src);
		return;
	}
	json_object_foreach_safe(dst, tmp, k, v) {
		const json_t *w = json_object_get(src, k);

		if (w)
			merge_value(dst, k, v, w);
	}
}

static void merge_value(json_t *parent, const char *key, json_t *dst,
			const json_t *src)
{
	size_t i;

	if (json_is_object(dst) && json_is_object(src)) {
		merge_object(dst, src);
	} else if (json_is_array(dst) && json_is_array(src)) {
		if (!strcmp(key, "targets") || !strcmp(key, "warnings")) {
			json_array_extend(dst, (json_t *)src);
			return;
		}
		if (!strcmp(key, "first")) {	/* verify: the first 10 */
			for (i = 0; i < json_array_size(src) &&
			     json_array_size(dst) < 10; i++)
				json_array_append(dst, json_array_get(src, i));
			return;
		}
		if (json_array_size(dst) != json_array_size(src))
			return;
		for (i = 0; i < json_array_size(dst); i++) {
			json_t *d = json_array_get(dst, i);
			const json_t *s = json_array_get(src, i);

			if (json_is_integer(d) && json_is_integer(s))
				json_array_set_new(dst, i, int_sum(d, s));
			else if (json_is_object(d) && (!strcmp(key, "jobs") ||
						       !strcmp(key, "groups")))
				merge_value(dst, key, d, s);
		}
	} else if (json_is_null(dst) && !json_is_null(src)) {
		json_object_set_new(parent, key, json_deep_copy(src));
	} else if (json_is_boolean(dst) && json_is_boolean(src)) {
		int r = rule_of(key);
		bool a = json_is_true(dst), b = json_is_true(src);

		if (r == R_OR)
			json_object_set_new(parent, key, json_boolean(a || b));
		else if (r != R_KEEP)	/* ran, measured, met: all */
			json_object_set_new(parent, key, json_boolean(a && b));
	} else if (json_is_number(dst) && json_is_number(src)) {
		int r = rule_of(key);
		double a = json_number_value(dst), b = json_number_value(src);

		if (r == R_KEEP || r == R_OR)
			return;
		if (r == R_MAX && b <= a)
			return;
		if (json_is_integer(dst) && json_is_integer(src))
			json_object_set_new(parent, key, r == R_MAX ?
					    json_deep_copy(src) :
					    int_sum(dst, src));
		else
			json_object_set_new(parent, key,
					    jw_real(r == R_MAX ? b : a + b));
	}
}

/* A histogram object's buckets (appended by merge_stats), percentiles
 * redone from the merged buckets as one run computes them. */
static int finish_hist(json_t *o, struct hist *h)
{
	struct jw c = { 0 };
	json_t *pct = json_object_get(o, "percentiles"), *b, *v;
	const char *k;
	unsigned i;

	hist_init(h);
	cluster_hist_from_json(h, o);
	b = json_array();
	for (i = 0; b && h->count && i < HIST_NBUCKETS; i++) {
		json_t *t;

		if (!h->b[i])
			continue;
		t = json_array();
		jw_push(&c, t, jw_u64(hist_bucket_low(i)));
		jw_push(&c, t, jw_u64(hist_bucket_high(i)));
		jw_push(&c, t, jw_u64(h->b[i]));
		jw_push(&c, b, t);
	}
	jw_put(&c, o, "buckets", b);
	json_object_foreach(pct, k, v)
		json_object_set_new(pct, k, jw_u64(hist_percentile(h,
								   atof(k))));
	return c.failed ? -ENOMEM : 0;
}

/* Redo what is not a sum: histograms' buckets and percentiles, per-I/O
 * CPU, the summary's latency figures; drop what cannot be merged. */
static int finish_unit(json_t *u, struct hist *h)
{
	json_t *cpu = json_object_get(u, "cpu"), *sum;
	uint64_t ios = 0;
	int d, k;
	struct hist *lat = malloc(sizeof(*lat));

	if (!lat)
		return -ENOMEM;
	hist_init(lat);
	for (d = 0; d < DDIR_NR; d++) {
		json_t *o = json_object_get(u, dir_key[d]);

		for (k = 0; k < 3; k++)
			if (finish_hist(json_object_get(o, hist_key[k]), h)) {
				free(lat);
				return -ENOMEM;
			}
		if (is_hist(json_object_get(o, "sched_lat_ns")))
			finish_hist(json_object_get(o, "sched_lat_ns"), h);
		cluster_hist_from_json(lat, json_object_get(o, "lat_ns"));
		ios += resjson_u64(json_object_get(o, "ios"));
	}
	if (json_is_object(json_object_get(u, "mixed")))
		for (k = 0; k < 3; k++)
			finish_hist(json_object_get(json_object_get(u, "mixed"),
						    hist_key[k]), h);
	if (is_hist(json_object_get(json_object_get(u, "sync"), "lat_ns")))
		finish_hist(json_object_get(json_object_get(u, "sync"),
					    "lat_ns"), h);
	if (json_is_object(cpu))
		json_object_set_new(cpu, "us_per_io", jw_real(ios ?
			(resjson_num(cpu, "user_ns") +
			 resjson_num(cpu, "sys_ns")) / 1000 /
			(double)ios : 0.0));
	sum = json_object_get(u, "summary");
	if (json_is_object(sum)) {
		const json_t *ph = json_object_get(u, "phase_cpu");
		double t = resjson_num(sum, "utime_ns") +
			   resjson_num(sum, "stime_ns");
		double reqs, wall;

		if (!json_is_object(ph))
			ph = NULL;
		reqs = resjson_num(ph ? ph : sum, ph ? "ios" : "reqs");

		json_object_set_new(sum, "us_per_io",
				    jw_real(reqs > 0 ? t / 1000 / reqs : 0.0));
		/* As one run: CPU time over the (longest) phase's wall
		 * time, so 100 per member kept busy. */
		wall = resjson_num(ph, "wall_ns");
		json_object_set_new(sum, "cpu_pct", jw_real(wall > 0 ?
			t / wall * 100 : 0.0));
		json_object_set_new(sum, "lat_p99_ns",
				    jw_u64(hist_percentile(lat, 99)));
	}
	/* Not merged: a member's time series, repeats, baseline, steady
	 * state are its own. */
	if (json_object_get(u, "intervals"))
		json_object_set_new(u, "intervals", json_null());
	if (json_object_get(u, "repeats"))
		json_object_set_new(u, "repeats", json_null());
	if (json_object_get(u, "baseline"))
		json_object_set_new(u, "baseline", json_null());
	if (json_object_get(u, "steadystate"))
		json_object_set_new(u, "steadystate", json_null());
	free(lat);
	return 0;
}

/* The pooled mean latency of a unit's directions, from their lat_ns. */
static double unit_lat_mean(const json_t *u)
{
	double n = 0, m = 0, s = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		const json_t *h = json_object_get(json_object_get(u,
							dir_key[d]), "lat_ns");

		pool(n, m, s, resjson_num(h, "count"),
		     resjson_num(h, "mean"),
		     resjson_num(h, "stddev"), &m, &s);
		n += resjson_num(h, "count");
	}
	return m;
}

static double hist_metric(const struct metric *m, const json_t *h);

/* ---- the cluster object ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static json_t *spread(struct jw *c, const double *v, size_t n,
		      const char *slowest)
{
	json_t *o = json_object();
	double *s = malloc(n * sizeof(*s));
	double med = 0;

	if (s && n) {
		memcpy(s, v, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_double);
		med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		jw_put(c, o, "min", jw_real(s[0]));
		jw_put(c, o, "median", jw_real(med));
		jw_put(c, o, "max", jw_real(s[n - 1]));
		jw_put(c, o, "slowest", jw_str(slowest));
	} else {
		c->failed = 1;
	}
	free(s);
	return o;
}

static json_t *done_obj(struct jw *c, double t_ns, double ios, double bytes)
{
	json_t *o = json_object();

	jw_put(c, o, "at_ns", jw_u64((uint64_t)llround(t_ns)));
	jw_put(c, o, "ios", jw_real(ios));
	jw_put(c, o, "io_bytes", jw_real(bytes));
	jw_put(c, o, "iops", jw_real(t_ns > 0 ? ios * 1e9 / t_ns : 0));
	jw_put(c, o, "bw_bytes", jw_real(t_ns > 0 ? bytes * 1e9 / t_ns : 0));
	return o;
}

/* One job's direction d over the members: per member and per host rows,
 * spread, first done and last done (zeros when no member did I/O in d). */
static json_t *cluster_dir(struct jw *c, const struct cluster_member *m,
			   size_t n, size_t job, int d, const json_t *hosts)
{
	json_t *o, *rows, *hrows, *h;
	double *iops = calloc(n, sizeof(double));
	double *bw = calloc(n, sizeof(double));
	double t_first = INFINITY, t_last = 0, win_lo = 0, ios_f = 0,
	       bytes_f = 0, ios_t = 0, bytes_t = 0;
	size_t i, k, slow = 0, first = 0, last = 0;
	const char *sl;
	char lb[64];
	const struct metric p99 = { .kind = MK_HIST, .dir = d,
				    .hist = MH_CLAT, .stat = MS_PCT,
				    .pct = 99 };

	if (!iops || !bw) {
		free(iops);
		free(bw);
		c->failed = 1;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const json_t *j = json_array_get(json_object_get(m[i].result,
								 "jobs"), job);
		const json_t *x = json_object_get(j, dir_key[d]);
		double rt = resjson_num(j, "runtime_ns");
		double end = m[i].start_skew_ns + rt;

		iops[i] = resjson_num(x, "iops");
		bw[i] = resjson_num(x, "bw_bytes");
		ios_t += resjson_num(x, "ios");
		bytes_t += resjson_num(x, "io_bytes");
		if (iops[i] < iops[slow])
			slow = i;
		if (end < t_first) {
			t_first = end;
			first = i;
		}
		if (end > t_last) {
			t_last = end;
			last = i;
		}
		if (m[i].start_skew_ns > win_lo)
			win_lo = m[i].start_skew_ns;
	}
	/* What each member had done when the first finished, its rate taken
	 * as steady over its own run. */
	for (i = 0; i < n; i++) {
		const json_t *j = json_array_get(json_object_get(m[i].result,
								 "jobs"), job);
		const json_t *x = json_object_get(j, dir_key[d]);
		double rt = resjson_num(j, "runtime_ns");
		double part = rt > 0 ? (t_first - m[i].start_skew_ns) / rt : 1;

		part = part < 0 ? 0 : part > 1 ? 1 : part;
		ios_f += part * resjson_num(x, "ios");
		bytes_f += part * resjson_num(x, "io_bytes");
	}
	o = json_object();
	rows = json_array();
	hrows = json_array();
	for (i = 0; i < n; i++) {
		const json_t *j = json_array_get(json_object_get(m[i].result,
								 "jobs"), job);
		const json_t *x = json_object_get(j, dir_key[d]);
		json_t *r = json_object();

		jw_put(c, r, "label",
		       jw_str(label_of(&m[i], i, lb, sizeof(lb))));
		jw_put(c, r, "rank", json_integer(m[i].rank));
		jw_put(c, r, "host", jw_str(host_of(&m[i])));
		jw_put(c, r, "iops", jw_real(iops[i]));
		jw_put(c, r, "bw_bytes", jw_real(bw[i]));
		jw_put(c, r, "ios",
		       jw_u64(resjson_u64(json_object_get(x, "ios"))));
		jw_put(c, r, "io_bytes",
		       jw_u64(resjson_u64(json_object_get(x, "io_bytes"))));
		jw_put(c, r, "runtime_ns",
		       jw_u64(resjson_u64(json_object_get(j, "runtime_ns"))));
		jw_put(c, r, "clat_p99_ns", jw_u64((uint64_t)hist_metric(
			&p99, json_object_get(x, "clat_ns"))));
		jw_push(c, rows, r);
	}
	for (k = 0; k < json_array_size(hosts); k++) {
		const char *hn = json_string_value(json_array_get(hosts, k));
		double hi = 0, hb = 0, hios = 0, hby = 0;
		unsigned nm = 0;

		for (i = 0; i < n; i++) {
			const json_t *x = json_object_get(json_array_get(
				json_object_get(m[i].result, "jobs"), job),
				dir_key[d]);

			if (strcmp(host_of(&m[i]), hn))
				continue;
			nm++;
			hi += iops[i];
			hb += bw[i];
			hios += resjson_num(x, "ios");
			hby += resjson_num(x, "io_bytes");
		}
		h = json_object();
		jw_put(c, h, "host", jw_str(hn));
		jw_put(c, h, "members", json_integer(nm));
		jw_put(c, h, "iops", jw_real(hi));
		jw_put(c, h, "bw_bytes", jw_real(hb));
		jw_put(c, h, "ios", jw_u64((uint64_t)llround(hios)));
		jw_put(c, h, "io_bytes", jw_u64((uint64_t)llround(hby)));
		jw_push(c, hrows, h);
	}
	jw_put(c, o, "common_window_ns", jw_u64(t_first > win_lo ?
		(uint64_t)llround(t_first - win_lo) : 0));
	jw_put(c, o, "first_done", done_obj(c, t_first, ios_f, bytes_f));
	jw_put(c, json_object_get(o, "first_done"), "member",
	       jw_str(label_of(&m[first], first, lb, sizeof(lb))));
	jw_put(c, o, "last_done", done_obj(c, t_last, ios_t, bytes_t));
	jw_put(c, json_object_get(o, "last_done"), "member",
	       jw_str(label_of(&m[last], last, lb, sizeof(lb))));
	sl = label_of(&m[slow], slow, lb, sizeof(lb));
	jw_put(c, o, "iops_spread", spread(c, iops, n, sl));
	jw_put(c, o, "bw_spread", spread(c, bw, n, sl));
	jw_put(c, o, "members", rows);
	jw_put(c, o, "hosts", hrows);
	free(iops);
	free(bw);
	return o;
}

/* A member's own figures, for its rows and its rank: checks. */
static json_t *member_jobs(struct jw *c, const json_t *r)
{
	static const char *const keep[] = { "name", "clone", "group",
		"error", "runtime_ns", "sync", "cpu", "read", "write", "trim",
		"iodepth", "summary", "verify", NULL };
	json_t *a = json_array(), *x;
	const json_t *j;
	size_t i, k;

	json_array_foreach(json_object_get(r, "jobs"), i, j) {
		x = json_object();
		for (k = 0; keep[k]; k++) {
			const json_t *v = json_object_get(j, keep[k]);

			/* shared, not copied: nothing changes them */
			jw_put(c, x, keep[k], v ? json_incref((json_t *)v) :
			       json_null());
		}
		jw_push(c, a, x);
	}
	return a;
}

static json_t *cluster_obj(struct jw *c, const struct cluster_member *m,
			   size_t n)
{
	json_t *o = json_object(), *mem = json_array(), *hosts = json_array();
	json_t *jobs = json_array();
	const json_t *j0 = json_object_get(m[0].result, "jobs"), *j;
	double skew = 0;
	size_t i, k;
	int d;
	char lb[64];

	for (i = 0; i < n; i++) {
		json_t *r = json_object();
		const char *hn = host_of(&m[i]);
		bool seen = false;

		jw_put(c, r, "label",
		       jw_str(label_of(&m[i], i, lb, sizeof(lb))));
		jw_put(c, r, "rank", json_integer(m[i].rank));
		jw_put(c, r, "host", jw_str(hn));
		jw_put(c, r, "start_skew_ns", jw_real(m[i].start_skew_ns));
		jw_put(c, r, "wall_ns", jw_u64(resjson_u64(json_object_get(
			m[i].result, "wall_ns"))));
		jw_put(c, r, "interrupted", json_boolean(json_is_true(
			json_object_get(m[i].result, "interrupted"))));
		jw_put(c, r, "jobs", member_jobs(c, m[i].result));
		jw_push(c, mem, r);
		if (m[i].start_skew_ns > skew)
			skew = m[i].start_skew_ns;
		for (k = 0; k < json_array_size(hosts); k++)
			seen |= !strcmp(json_string_value(json_array_get(hosts,
									 k)),
					hn);
		if (!seen)
			jw_push(c, hosts, jw_str(hn));
	}
	json_array_foreach(j0, i, j) {
		json_t *x = json_object();

		jw_put(c, x, "name", json_copy(json_object_get(j, "name")));
		jw_put(c, x, "clone", json_copy(json_object_get(j, "clone")));
		jw_put(c, x, "group", json_copy(json_object_get(j, "group")));
		for (d = 0; d < DDIR_NR; d++) {
			json_t *v = cluster_dir(c, m, n, i, d, hosts);

			jw_put(c, x, dir_key[d], v);
		}
		jw_push(c, jobs, x);
	}
	jw_put(c, o, "nmembers", json_integer((json_int_t)n));
	jw_put(c, o, "nhosts",
	       json_integer((json_int_t)json_array_size(hosts)));
	jw_put(c, o, "start_skew_max_ns", jw_real(skew));
	jw_put(c, o, "members", mem);
	jw_put(c, o, "hosts", hosts);
	jw_put(c, o, "jobs", jobs);
	return o;
}

json_t *cluster_merge(const struct cluster_member *m, size_t n,
		      struct err_rec *e)
{
	struct jw c = { 0 };
	struct hist *h;
	json_t *r, *u;
	size_t i;
	char why[256], lb[64];

	if (!n) {
		err_set(e, "", 0, "", "nothing to merge");
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (check_member(m[i].result, why, sizeof(why))) {
			err_set(e, label_of(&m[i], i, lb, sizeof(lb)), 0, "",
				"%s", why);
			return NULL;
		}
	for (i = 1; i < n; i++)
		if (same_jobs(m, 0, i, e))
			return NULL;
	h = malloc(sizeof(*h));
	r = json_deep_copy(m[0].result);
	if (!h || !r) {
		free(h);
		json_decref(r);
		err_set(e, "", 0, "", "out of memory");
		return NULL;
	}
	for (i = 1; i < n; i++) {
		const char *k;
		json_t *v;
		void *tmp;

		json_object_foreach_safe(r, tmp, k, v)
			if (strcmp(k, "host") &&
			    json_object_get(m[i].result, k))
				merge_value(r, k, v, json_object_get(
					m[i].result, k));
	}
	json_array_foreach(json_object_get(r, "jobs"), i, u)
		if (finish_unit(u, h))
			c.failed = 1;
	json_array_foreach(json_object_get(r, "groups"), i, u)
		if (finish_unit(u, h))
			c.failed = 1;
	json_array_foreach(json_object_get(r, "jobs"), i, u)
		if (json_is_object(json_object_get(u, "summary")))
			json_object_set_new(json_object_get(u, "summary"),
					    "lat_mean_ns",
					    jw_real(unit_lat_mean(u)));
	json_array_foreach(json_object_get(r, "groups"), i, u)
		if (json_is_object(json_object_get(u, "summary")))
			json_object_set_new(json_object_get(u, "summary"),
					    "lat_mean_ns",
					    jw_real(unit_lat_mean(u)));
	free(h);
	jw_put(&c, r, "curves", json_array());
	jw_put(&c, r, "disk_util", json_array());
	jw_put(&c, r, "checks", json_array());
	jw_put(&c, r, "baseline", json_null());
	jw_put(&c, r, "cluster", cluster_obj(&c, m, n));
	if (c.failed) {
		json_decref(r);
		err_set(e, "", 0, "", "out of memory");
		return NULL;
	}
	return r;
}

/* ---- the reports ---- */

static const char *fmt(int unit, double v, char *buf, size_t len)
{
	metric_format(unit, v, buf, len);
	return buf;
}

static void text_hist(FILE *f, const char *name, const json_t *h)
{
	const json_t *pct = json_object_get(h, "percentiles"), *v;
	const char *k;
	char a[32], b[32], c[32], d[32];

	if (!resjson_u64(json_object_get(h, "count")))
		return;
	fprintf(f, "  %-5s min %s  mean %s  max %s  stddev %s  (%" PRIu64
		" I/Os, all members)\n", name,
		fmt(MU_NS, resjson_num(h, "min"), a, sizeof(a)),
		fmt(MU_NS, resjson_num(h, "mean"), b, sizeof(b)),
		fmt(MU_NS, resjson_num(h, "max"), c, sizeof(c)),
		fmt(MU_NS, resjson_num(h, "stddev"), d, sizeof(d)),
		resjson_u64(json_object_get(h, "count")));
	if (!json_object_size(pct))
		return;
	fprintf(f, "       ");
	json_object_foreach((json_t *)pct, k, v)
		fprintf(f, " p%s=%s", k,
			fmt(MU_NS, resjson_val(v), a, sizeof(a)));
	fprintf(f, "\n");
}

/* The "first done" or "last done" line of a direction (o: its object). */
static void text_done(FILE *f, const char *label, const char *which,
		      const json_t *o)
{
	char a[32], b[32], c[32];

	fprintf(f, "  %s iops %s  bw %s/s  at %s (%s finished %s)\n", label,
		fmt(MU_RATE, resjson_num(o, "iops"), a, sizeof(a)),
		fmt(MU_BYTES, resjson_num(o, "bw_bytes"), b,
		    sizeof(b)),
		fmt(MU_NS, resjson_num(o, "at_ns"), c, sizeof(c)),
		json_string_value(json_object_get(o, "member")), which);
}

static void text_dir(FILE *f, const json_t *merged, const json_t *cd,
		     const char *dname)
{
	const json_t *x = json_object_get(merged, dname), *r;
	const json_t *p;
	const json_t *fd = json_object_get(cd, "first_done");
	const json_t *ld = json_object_get(cd, "last_done");
	const json_t *sp = json_object_get(cd, "iops_spread");
	char a[32], b[32], c[32], d[32];
	size_t i, k;

	fprintf(f, " %s: iops %s  bw %s/s  (the members' rates added; common "
		"window %s)\n", dname,
		fmt(MU_RATE, resjson_num(x, "iops"), a, sizeof(a)),
		fmt(MU_BYTES, resjson_num(x, "bw_bytes"), b,
		    sizeof(b)),
		fmt(MU_NS, resjson_num(cd, "common_window_ns"), c,
		    sizeof(c)));
	text_done(f, "first done:", "first", fd);
	text_done(f, "last done: ", "last", ld);
	for (k = 0; k < 3; k++)
		text_hist(f, k == 0 ? "slat" : k == 1 ? "clat" : "lat",
			  json_object_get(x, hist_key[k]));
	fprintf(f, "  spread of iops: min %s  median %s  max %s  slowest %s\n",
		fmt(MU_RATE, resjson_num(sp, "min"), a, sizeof(a)),
		fmt(MU_RATE, resjson_num(sp, "median"), b,
		    sizeof(b)),
		fmt(MU_RATE, resjson_num(sp, "max"), c, sizeof(c)),
		json_string_value(json_object_get(sp, "slowest")));
	fprintf(f, "  %-24s %-16s %10s %12s %12s %10s %10s\n", "member",
		"host", "iops", "bw/s", "ios", "runtime", "clat p99");
	json_array_foreach(json_object_get(cd, "members"), i, r) {
		p = json_object_get(r, "clat_p99_ns");
		fprintf(f, "  %-24s %-16s %10s %12s %12" PRIu64 " %10s %10s\n",
			json_string_value(json_object_get(r, "label")),
			json_string_value(json_object_get(r, "host")),
			fmt(MU_RATE, resjson_num(r, "iops"), a,
			    sizeof(a)),
			fmt(MU_BYTES, resjson_num(r, "bw_bytes"),
			    b, sizeof(b)),
			resjson_u64(json_object_get(r, "ios")),
			fmt(MU_NS, resjson_num(r, "runtime_ns"), c,
			    sizeof(c)),
			fmt(MU_NS, resjson_val(p), d, sizeof(d)));
	}
	fprintf(f, "  %-24s %-16s %10s %12s %12s\n", "host", "members", "iops",
		"bw/s", "ios");
	json_array_foreach(json_object_get(cd, "hosts"), i, r)
		fprintf(f, "  %-24s %-16" PRId64 " %10s %12s %12.0f\n",
			json_string_value(json_object_get(r, "host")),
			(int64_t)json_integer_value(json_object_get(r,
								    "members")),
			fmt(MU_RATE, resjson_num(r, "iops"), a,
			    sizeof(a)),
			fmt(MU_BYTES, resjson_num(r, "bw_bytes"),
			    b, sizeof(b)),
			resjson_num(r, "ios"));
}

static int write_text(FILE *f, const json_t *cl)
{
	const json_t *c = json_object_get(cl, "cluster"), *h, *j;
	size_t i;
	int d;
	char a[32];

	fprintf(f, "cluster: %" PRId64 " members on %" PRId64 " host(s) (",
		(int64_t)json_integer_value(json_object_get(c, "nmembers")),
		(int64_t)json_integer_value(json_object_get(c, "nhosts")));
	json_array_foreach(json_object_get(c, "hosts"), i, h)
		fprintf(f, "%s%s", i ? ", " : "", json_string_value(h));
	fprintf(f, "), start skew up to %s%s\n",
		fmt(MU_NS, resjson_num(c, "start_skew_max_ns"), a,
		    sizeof(a)),
		json_is_true(json_object_get(cl, "interrupted")) ?
		", interrupted: partial figures" : "");
	json_array_foreach(json_object_get(c, "jobs"), i, j) {
		const json_t *mj = json_array_get(json_object_get(cl, "jobs"),
						  i);

		fprintf(f, "\n%s (group %" PRId64 ", clone %" PRId64 ")\n",
			json_string_value(json_object_get(j, "name")),
			(int64_t)json_integer_value(json_object_get(j,
								    "group")),
			(int64_t)json_integer_value(json_object_get(j,
								    "clone")));
		for (d = 0; d < DDIR_NR; d++)
			if (resjson_u64(json_object_get(json_object_get(mj,
						dir_key[d]), "ios")))
				text_dir(f, mj, json_object_get(j, dir_key[d]),
					 dir_key[d]);
	}
	return 0;
}

int cluster_formats_check(const char *formats, struct err_rec *e)
{
	static const char *const known[] = { "text", "json", "fio-json" };
	const char *p = formats && *formats ? formats : "text";
	size_t n, i;

	for (; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strlen(known[i]) == n && !strncmp(p, known[i], n))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			err_set(e, ERR_CMDLINE, 0, "output-format", "'%.*s' is "
				"not a cluster report format (expected text, "
				"json or fio-json)", (int)n, p);
			return -EINVAL;
		}
	}
	return 0;
}

int cluster_write(const json_t *cluster, const char *formats, FILE *out,
		  struct err_rec *e)
{
	const char *p = formats && *formats ? formats : "text";
	int rc = 0, nf = 0;

	while (*p && !rc) {
		size_t n = strcspn(p, ",");

		if (nf++)
			fputc('\n', out);
		if (n == 4 && !strncmp(p, "text", n)) {
			rc = write_text(out, cluster);
		} else if (n == 4 && !strncmp(p, "json", n)) {
			rc = jw_dump(out, cluster);
		} else if (n == 8 && !strncmp(p, "fio-json", n)) {
			rc = cluster_write_fio(out, cluster);
		} else {
			err_set(e, ERR_CMDLINE, 0, "output-format", "'%.*s' is "
				"not a cluster report format (expected text, "
				"json or fio-json)", (int)n, p);
			return -EINVAL;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (!rc && (fflush(out) || ferror(out)))
		rc = -EIO;
	if (rc)
		err_set(e, "", 0, "", "writing the cluster report failed");
	return rc;
}

/* ---- checks ---- */

static double hist_metric(const struct metric *m, const json_t *h)
{
	struct hist *x;
	double v;

	if (!resjson_u64(json_object_get(h, "count")))
		return 0;
	switch (m->stat) {
	case MS_MIN:
		return resjson_num(h, "min");
	case MS_MAX:
		return resjson_num(h, "max");
	case MS_MEAN:
		return resjson_num(h, "mean");
	case MS_STDDEV:
		return resjson_num(h, "stddev");
	}
	x = malloc(sizeof(*x));
	if (!x)
		return NAN;
	hist_init(x);
	cluster_hist_from_json(x, h);
	v = (double)hist_percentile(x, m->pct);
	free(x);
	return v;
}

/* A metric of a job object (merged, or a member's), as result_metric()
 * reads it from one run's stats. */
static double job_metric(const struct metric *m, const json_t *j)
{
	const json_t *x = m->dir >= 0 ? json_object_get(j, dir_key[m->dir]) :
			  NULL;
	static const char *const field[] = {
		[MK_IOPS] = "iops", [MK_BW] = "bw_bytes",
		[MK_IO_BYTES] = "io_bytes", [MK_IOS] = "ios",
		[MK_DIR_ERRORS] = "errors", [MK_SHORT_IOS] = "short_ios",
	};
	double v = 0;
	int d;

	switch (m->kind) {
	case MK_HIST:
		return hist_metric(m, json_object_get(x, hist_key[m->hist]));
	case MK_ERRORS:
		for (d = 0; d < DDIR_NR; d++)
			v += resjson_num(json_object_get(j,
						dir_key[d]), "errors");
		return v;
	case MK_CPU_US_PER_IO:
		return resjson_num(json_object_get(j, "summary"), "us_per_io");
	case MK_CPU_PCT:
		return resjson_num(json_object_get(j, "summary"), "cpu_pct");
	case MK_RUNTIME:
		return resjson_num(j, "runtime_ns");
	case MK_VERIFY_MISMATCHES:
		return resjson_num(json_object_get(j, "verify"), "mismatches");
	default:
		return resjson_num(x, field[m->kind]);
	}
}

struct tally {
	unsigned pass, fail, na;
};

/* x on every job of jobs (named by x->scope, or all); who names the
 * member ("cluster" for the merged figures). */
static void check_jobs(const struct check_expr *x, const char *text,
		       const json_t *jobs, const char *who, FILE *out,
		       struct tally *t)
{
	const json_t *j;
	size_t i;
	char v[48], th[48];

	json_array_foreach(jobs, i, j) {
		const char *name = json_string_value(json_object_get(j,
								     "name"));
		double val;
		bool ok;

		if (x->scope[0] && strcmp(x->scope, name))
			continue;
		if (x->m.dir >= 0 &&
		    !resjson_u64(json_object_get(json_object_get(
				j, dir_key[x->m.dir]), "ios"))) {
			fprintf(out, "  n/a   %s %s: %s  no %s I/O\n", who,
				name, text, dir_key[x->m.dir]);
			t->na++;
			continue;
		}
		val = job_metric(&x->m, j);
		ok = check_compare(val, x->op, x->threshold);
		fprintf(out, "  %s  %s %s: %s  %s, threshold %s\n",
			ok ? "PASS" : "FAIL", who, name, text,
			fmt(x->unit, val, v, sizeof(v)),
			fmt(x->unit, x->threshold, th, sizeof(th)));
		if (ok)
			t->pass++;
		else
			t->fail++;
	}
}

/* One --check for a cluster: "rank:" then an expression, or an
 * expression; 0 or -EINVAL with e. */
static int cluster_check_parse(const char *s, unsigned kb,
			       struct check_expr *x, struct err_rec *e)
{
	char why[256];

	if (check_parse(!strncmp(s, "rank:", 5) ? s + 5 : s, kb ? kb : 1024,
			x, why, sizeof(why))) {
		err_set(e, ERR_CMDLINE, 0, "check", "%s", why);
		return -EINVAL;
	}
	if (x->func != CHECK_F_NONE || x->baseline) {
		err_set(e, ERR_CMDLINE, 0, "check", "'%s': cluster checks "
			"compare a figure with a threshold (no functions over "
			"repeats, no baseline)", s);
		return -EINVAL;
	}
	return 0;
}

int cluster_checks_parse(char *const *checks, size_t nchecks,
			 struct err_rec *e)
{
	struct check_expr x;
	size_t i;

	for (i = 0; i < nchecks; i++)
		if (cluster_check_parse(checks[i], 1024, &x, e))
			return -EINVAL;
	return 0;
}

int cluster_checks(const json_t *cluster, char *const *checks,
		   size_t nchecks, FILE *out, struct err_rec *e)
{
	const json_t *jobs = json_object_get(cluster, "jobs");
	const json_t *mem = json_object_get(json_object_get(cluster,
							    "cluster"),
					    "members"), *r;
	struct check_expr *x;
	struct tally t = { 0 };
	char kbuf[32];
	unsigned kb = (unsigned)atoi(str_of(json_object_get(json_object_get(
		json_array_get(jobs, 0), "options"), "kb_base"), kbuf,
		sizeof(kbuf)));
	size_t i, k;

	if (!nchecks)
		return 0;
	x = calloc(nchecks, sizeof(*x));
	if (!x) {
		err_set(e, ERR_CMDLINE, 0, "check", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nchecks; i++)
		if (cluster_check_parse(checks[i], kb, &x[i], e)) {
			free(x);
			return -EINVAL;
		}
	fprintf(out, "\ncluster checks:\n");
	for (i = 0; i < nchecks; i++) {
		const char *s = checks[i];
		const char *body = s + x[i].body;

		if (strncmp(s, "rank:", 5)) {
			check_jobs(&x[i], body, jobs, "cluster", out, &t);
			continue;
		}
		body = s + 5 + x[i].body;
		json_array_foreach(mem, k, r)
			check_jobs(&x[i], body, json_object_get(r, "jobs"),
				   json_string_value(json_object_get(r,
								     "label")),
				   out, &t);
	}
	fprintf(out, "checks: %u passed, %u failed, %u n/a\n", t.pass, t.fail,
		t.na);
	free(x);
	return t.fail ? 3 : 0;
}

/* ---- iorig merge ---- */

static const char merge_usage[] =
	"usage: iorig merge [--output-format=text|json|fio-json] "
	"[--output=FILE]\n"
	"                   [--check=[rank:]EXPR]... RESULT.json...\n"
	"Merges iorig --output-format=json results of the same jobs (one "
	"per host or\nrank) into one cluster report: exact percentiles "
	"from the merged histograms,\nrates added, per-member and per-host "
	"rows. --check applies to the cluster\nfigures; rank:EXPR to each "
	"member. Formats may be comma-separated.\n";

static int merge_fail(const struct err_rec *e)
{
	char buf[ERR_TEXT_MAX];

	err_format(e, buf, sizeof(buf));
	fprintf(stderr, "iorig merge: %s\n", buf);
	return 2;
}

/* A whole file parsed at once (json_load_file reads it a byte at a
 * time); NULL with je. */
static json_t *load(const char *path, json_error_t *je)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	json_t *r = NULL;

	if (!f) {
		snprintf(je->text, sizeof(je->text), "%s", strerror(errno));
		je->line = -1;		/* not read */
		return NULL;
	}
	do {
		if (len == cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb) {
				snprintf(je->text, sizeof(je->text),
					 "out of memory");
				je->line = -1;
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(je->text, sizeof(je->text), "%s", strerror(errno));
		je->line = -1;
		goto out;
	}
	r = json_loadb(buf, len, JSON_REJECT_DUPLICATES, je);
out:
	free(buf);
	fclose(f);
	return r;
}

int merge_main(int argc, char **argv)
{
	struct err_rec *e = calloc(1, sizeof(*e));
	struct cluster_member *m = calloc((size_t)argc + 1, sizeof(*m));
	char **checks = calloc((size_t)argc + 1, sizeof(*checks));
	const char *formats = "text", *output = NULL;
	struct door_out o = { .fd = -1 };
	bool opened = false;
	json_t *cl = NULL;
	size_t n = 0, nc = 0, i;
	int a, rc = 2, r;

	if (!e || !m || !checks) {
		fprintf(stderr, "iorig merge: out of memory\n");
		rc = 1;
		goto done;
	}
	for (a = 1; a < argc; a++) {
		const char *s = argv[a];

		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			fputs(merge_usage, stdout);
			rc = 0;
			goto done;
		} else if (!strncmp(s, "--output-format=", 16)) {
			formats = s + 16;
		} else if (!strncmp(s, "--output=", 9)) {
			output = s + 9;
		} else if (!strncmp(s, "--check=", 8)) {
			checks[nc++] = (char *)s + 8;
		} else if (s[0] == '-' && s[1]) {
			fprintf(stderr, "iorig merge: unknown option '%s'\n%s",
				s, merge_usage);
			goto done;
		} else {
			json_error_t je;

			m[n].result = load(s, &je);
			if (!m[n].result && je.line < 0) {
				fprintf(stderr, "iorig merge: %s: cannot be "
					"read: %s\n", s, je.text);
				goto done;
			}
			if (!m[n].result) {
				fprintf(stderr, "iorig merge: %s: not a JSON "
					"document (line %d, column %d: %s); "
					"expected an iorig result "
					"(--output-format=json)\n", s, je.line,
					je.column, je.text);
				goto done;
			}
			m[n].label = s;
			m[n].rank = -1;
			n++;
		}
	}
	if (!n) {
		fprintf(stderr, "iorig merge: no result given\n%s",
			merge_usage);
		goto done;
	}
	/* Formats and checks are read before anything is written. */
	if (cluster_checks_parse(checks, nc, e)) {
		rc = merge_fail(e);
		goto done;
	}
	if (cluster_formats_check(formats, e)) {
		rc = merge_fail(e);
		goto done;
	}
	cl = cluster_merge(m, n, e);
	if (!cl) {
		rc = merge_fail(e);
		goto done;
	}
	/* Through the door (door.h): never a device or a new name in /dev,
	 * the previous report replaced only by a whole new one. */
	r = door_open(&o, output, "output", DOOR_WHOLE, NULL, e);
	if (r) {
		merge_fail(e);
		rc = r == -EINVAL ? 2 : 1;
		goto done;
	}
	opened = true;
	rc = cluster_write(cl, formats, o.f, e);
	if (rc == -EINVAL) {
		rc = merge_fail(e);
		goto done;
	}
	if (rc) {
		fprintf(stderr, "iorig merge: writing the report: %s\n",
			strerror(o.err ? o.err : -rc));
		rc = 1;
		goto done;
	}
	rc = cluster_checks(cl, checks, nc, o.f, e);
	if (rc < 0)
		rc = merge_fail(e);
done:
	if (opened && rc != 0 && rc != 3)
		door_discard(&o);
	else if (opened && (r = door_close(&o))) {
		fprintf(stderr, "iorig merge: writing the report%s%s: %s\n",
			output ? " to " : "", output ? output : "",
			strerror(-r));
		rc = 1;
	}
	json_decref(cl);
	for (i = 0; m && i < n; i++)
		json_decref(m[i].result);
	free(m);
	free(checks);
	free(e);
	return rc;
}
