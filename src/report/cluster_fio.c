// SPDX-License-Identifier: MIT
/*
 * The cluster result in fio's client-mode layout (what
 * `fio --client=A --client=B --output-format=json` writes): one
 * "client_stats" entry per member and job, with the member's "hostname",
 * then one "All clients" entry per job with the merged figures; fio's
 * units (runtime and job_runtime in ms, bw in KiB/s), fio's latency and
 * depth maps (fio_int.h), percentiles keyed "99.000000".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "ddir.h"
#include "fio_int.h"
#include "hist.h"
#include "jsonw.h"
#include "resjson.h"
#include "stats.h"

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

#define U64(o, k)	resjson_u64(json_object_get(o, k))
#define NUM(o, k)	resjson_num(o, k)

/* A real as a count, held in [0, 2^63) (hostile input included). */
static uint64_t whole(double v)
{
	return v > 0 ? v < 9.2e18 ? (uint64_t)llround(v) : INT64_MAX : 0;
}

/*
 * pct: with the "percentile" map, as fio 3.33's client writes it in a
 * member's entry for the latencies its job asked percentiles of, and
 * never in "All clients".
 */
static json_t *fio_hist(struct jw *c, const json_t *h, bool pct)
{
	json_t *o = json_object(), *p, *v;
	const char *k;
	char key[32];

	jw_put(c, o, "min", jw_u64(U64(h, "min")));
	jw_put(c, o, "max", jw_u64(U64(h, "max")));
	jw_put(c, o, "mean", jw_real(NUM(h, "mean")));
	jw_put(c, o, "stddev", jw_real(NUM(h, "stddev")));
	jw_put(c, o, "N", jw_u64(U64(h, "count")));
	if (!pct || !json_object_size(json_object_get(h, "percentiles")))
		return o;
	p = json_object();
	json_object_foreach((json_t *)json_object_get(h, "percentiles"), k, v) {
		snprintf(key, sizeof(key), "%f", atof(k));
		jw_put(c, p, key, jw_u64(resjson_u64(v)));
	}
	jw_put(c, o, "percentile", p);
	return o;
}

/* The bw_avg_time / iops_avg_time samples as fio gives them (bw in
 * KiB/s, bw_agg the samples' mean in per cent of the bandwidth). */
static void put_samples(struct jw *c, json_t *o, const json_t *x)
{
	const json_t *b = json_object_get(x, "bw_samples");
	const json_t *i = json_object_get(x, "iops_samples");
	double bw = NUM(x, "bw_bytes");

	jw_put(c, o, "bw_min", jw_u64(whole(floor(NUM(b, "min") / 1024))));
	jw_put(c, o, "bw_max", jw_u64(whole(floor(NUM(b, "max") / 1024))));
	jw_put(c, o, "bw_agg", jw_real(U64(b, "count") && bw > 0 ?
				       100.0 * NUM(b, "mean") / bw : 0.0));
	jw_put(c, o, "bw_mean", jw_real(NUM(b, "mean") / 1024));
	jw_put(c, o, "bw_dev", jw_real(NUM(b, "stddev") / 1024));
	jw_put(c, o, "bw_samples", jw_u64(U64(b, "count")));
	jw_put(c, o, "iops_min", jw_u64(whole(floor(NUM(i, "min")))));
	jw_put(c, o, "iops_max", jw_u64(whole(floor(NUM(i, "max")))));
	jw_put(c, o, "iops_mean", jw_real(NUM(i, "mean")));
	jw_put(c, o, "iops_stddev", jw_real(NUM(i, "stddev")));
	jw_put(c, o, "iops_samples", jw_u64(U64(i, "count")));
}

/* The job's option k (unit u's "options") is on: "1" or a value. */
static bool opt_on(const json_t *u, const char *k)
{
	const char *v = json_string_value(json_object_get(
		json_object_get(u, "options"), k));

	return v && strcmp(v, "0") && strcmp(v, "false");
}

/* x: an iorig direction; u: the unit whose percentiles a member's entry
 * shows (NULL: none, "All clients"). */
static json_t *fio_dir(struct jw *c, const json_t *x, const json_t *u)
{
	json_t *y = json_object();
	double bw = NUM(x, "bw_bytes");
	uint64_t rt = U64(x, "ios") ? U64(x, "runtime_ns") : 0;

	jw_put(c, y, "io_bytes", jw_u64(U64(x, "io_bytes")));
	jw_put(c, y, "io_kbytes", jw_u64(U64(x, "io_bytes") >> 10));
	jw_put(c, y, "bw_bytes", jw_u64(whole(bw)));
	jw_put(c, y, "bw", jw_u64(whole(bw) / 1024));
	jw_put(c, y, "iops", jw_real(NUM(x, "iops")));
	jw_put(c, y, "runtime", jw_u64(rt / 1000000));
	jw_put(c, y, "total_ios", jw_u64(U64(x, "ios")));
	jw_put(c, y, "short_ios", jw_u64(U64(x, "short_ios")));
	jw_put(c, y, "drop_ios", jw_u64(0));
	jw_put(c, y, "slat_ns", fio_hist(c, json_object_get(x, "slat_ns"),
					 u && opt_on(u, "slat_percentiles")));
	jw_put(c, y, "clat_ns", fio_hist(c, json_object_get(x, "clat_ns"),
					 u && opt_on(u, "clat_percentiles")));
	jw_put(c, y, "lat_ns", fio_hist(c, json_object_get(x, "lat_ns"),
					u && opt_on(u, "lat_percentiles")));
	put_samples(c, y, x);
	return y;
}

static void depth_counts(const json_t *a, uint64_t *out)
{
	unsigned i;

	for (i = 0; i < DEPTH_NB; i++)
		out[i] = resjson_u64(json_array_get(a, i));
}

/*
 * One entry: j is an iorig job object (merged, or a member's own with
 * the merged job's group, cpu and depths), name its fio jobname; st is
 * scratch room for the latency maps.
 */
/* The options all members share (the merged job's without the ones each
 * member sets for itself). */
static json_t *shared_opts(const json_t *u)
{
	json_t *o = json_object(), *v;
	const char *k;

	json_object_foreach((json_t *)json_object_get(u, "options"), k, v)
		if (!cluster_option_per_member(k))
			json_object_set(o, k, v);
	return o;
}

static json_t *fio_entry(struct jw *c, const json_t *j, const json_t *u,
			 const char *name, const char *host,
			 struct job_stats *st, bool member)
{
	json_t *o = json_object();
	const json_t *cpu = json_object_get(j, "cpu");
	const json_t *dep = json_object_get(j, "iodepth");
	const json_t *err = json_object_get(j, "error");
	const json_t *sync = json_object_get(j, "sync");
	double rt = NUM(j, "runtime_ns");
	uint64_t counts[DEPTH_NB];
	json_t *s;
	int d;

	jw_put(c, o, "jobname", jw_str(name));
	jw_put(c, o, "groupid", json_integer(json_integer_value(
		json_object_get(u, "group"))));
	jw_put(c, o, "error", json_integer(json_is_object(err) ?
		json_integer_value(json_object_get(err, "errno")) : 0));
	if (member)
		jw_put(c, o, "job options", shared_opts(u));
	for (d = 0; d < DDIR_NR; d++)
		jw_put(c, o, dir_key[d], fio_dir(c, json_object_get(j,
					dir_key[d]), member ? u : NULL));
	s = json_object();
	jw_put(c, s, "total_ios", jw_u64(U64(sync, "ios")));
	jw_put(c, s, "lat_ns", fio_hist(c, json_object_get(sync, "lat_ns"),
					member && (opt_on(u, "clat_percentiles") ||
						   opt_on(u, "lat_percentiles"))));
	jw_put(c, o, "sync", s);
	jw_put(c, o, "job_runtime", jw_u64(whole(rt) / 1000000));
	jw_put(c, o, "usr_cpu", jw_real(rt > 0 ? 100 * NUM(cpu, "user_ns") /
					rt : 0.0));
	jw_put(c, o, "sys_cpu", jw_real(rt > 0 ? 100 * NUM(cpu, "sys_ns") /
					rt : 0.0));
	jw_put(c, o, "ctx", jw_u64(U64(cpu, "ctx_voluntary") +
				   U64(cpu, "ctx_involuntary")));
	jw_put(c, o, "majf", jw_u64(U64(cpu, "majflt")));
	jw_put(c, o, "minf", jw_u64(U64(cpu, "minflt")));
	depth_counts(json_object_get(dep, "level"), counts);
	jw_put(c, o, "iodepth_level", fio_depth_map(c, depth_level_keys,
						    counts));
	depth_counts(json_object_get(dep, "submit"), counts);
	jw_put(c, o, "iodepth_submit", fio_depth_map(c, depth_batch_keys,
						     counts));
	depth_counts(json_object_get(dep, "complete"), counts);
	jw_put(c, o, "iodepth_complete", fio_depth_map(c, depth_batch_keys,
						       counts));
	for (d = 0; d < DDIR_NR; d++) {
		hist_init(&st->dir[d].clat);
		cluster_hist_from_json(&st->dir[d].clat, json_object_get(
			json_object_get(j, dir_key[d]), "clat_ns"));
	}
	fio_put_lat_maps(c, o, st);
	if (member) {
		jw_put(c, o, "latency_depth", jw_u64(1));
		jw_put(c, o, "latency_target", jw_u64(0));
		jw_put(c, o, "latency_percentile", jw_real(100.0));
		jw_put(c, o, "latency_window", jw_u64(0));
	}
	jw_put(c, o, "hostname", jw_str(host));
	jw_put(c, o, "port", json_integer(0));
	return o;
}

int cluster_write_fio(FILE *f, const json_t *cl)
{
	struct jw c = { 0 };
	struct job_stats *st = calloc(1, sizeof(*st));
	json_t *root = json_object(), *cs = json_array();
	const json_t *cm = json_object_get(json_object_get(cl, "cluster"),
					   "members"), *mem, *j;
	const json_t *mj = json_object_get(cl, "jobs");
	char ver[64];
	size_t i, k;
	int rc;

	if (!st) {
		json_decref(root);
		json_decref(cs);
		return -ENOMEM;
	}
	snprintf(ver, sizeof(ver), "iorig-%s", json_string_value(
		json_object_get(cl, "iorig_version")));
	jw_put(&c, root, "fio version", jw_str(ver));
	jw_put(&c, root, "timestamp", json_integer(json_integer_value(
		json_object_get(cl, "timestamp"))));
	jw_put(&c, root, "time", json_deep_copy(json_object_get(cl, "time")));
	jw_put(&c, root, "global options", json_object());
	/* A member's entry: its own figures (cluster.members[].jobs[]),
	 * the options all members share. */
	json_array_foreach(cm, i, mem)
		json_array_foreach(json_object_get(mem, "jobs"), k, j)
			jw_push(&c, cs, fio_entry(&c, j, json_array_get(mj, k),
				json_string_value(json_object_get(j, "name")),
				json_string_value(json_object_get(mem, "host")),
				st, true));
	json_array_foreach(mj, k, j)
		jw_push(&c, cs, fio_entry(&c, j, j, "All clients",
			json_string_value(json_object_get(json_object_get(cl,
						"host"), "hostname")), st,
			false));
	jw_put(&c, root, "client_stats", cs);
	/* fio's client layout has the key even empty (its servers' disks) */
	jw_put(&c, root, "disk_util", json_array());
	rc = c.failed ? -ENOMEM : jw_dump(f, root);
	json_decref(root);
	free(st);
	return rc;
}
