// SPDX-License-Identifier: MIT
/*
 * A merged result (r->cluster) in fio's client-mode layout (what
 * `fio --client=A --client=B --output-format=json` writes): one
 * "client_stats" entry per member and job, with the member's "hostname",
 * then one "All clients" entry per job with the merged figures; fio's
 * units (runtime and job_runtime in ms, bw in KiB/s), fio's latency and
 * depth maps (fio_int.h), percentiles keyed "99.000000". json+: the
 * members' latencies with their bins too, as fio's client gives them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fio_int.h"
#include "options.h"
#include "report.h"

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

/* A real as a count, held in [0, 2^63) (hostile input included). */
static uint64_t whole(double v)
{
	return v > 0 ? v < 9.2e18 ? (uint64_t)llround(v) : INT64_MAX : 0;
}

/*
 * pct: with the "percentile" map (and json+'s bins), as fio 3.33's client
 * writes it in a member's entry for the latencies its job asked
 * percentiles of, and never in "All clients".
 */
static json_t *fio_hist(struct jw *c, const struct hist *h,
			const struct job *j, bool pct, bool plus)
{
	json_t *o = json_object(), *p;
	bool empty = !h->count;
	char key[48];
	unsigned i;

	jw_put(c, o, "min", jw_u64(empty ? 0 : h->min));
	jw_put(c, o, "max", jw_u64(empty ? 0 : h->max));
	jw_put(c, o, "mean", jw_real(empty ? 0.0 : hist_mean(h)));
	jw_put(c, o, "stddev", jw_real(empty ? 0.0 : hist_stddev(h)));
	jw_put(c, o, "N", jw_u64(h->count));
	if (!pct || empty || !j || !j->report.npercentiles)
		return o;
	p = json_object();
	for (i = 0; p && i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		snprintf(key, sizeof(key), "%f", j->report.percentile_list[i]);
		jw_put(c, p, key,
		       jw_u64(hist_percentile(h,
					      j->report.percentile_list[i])));
	}
	jw_put(c, o, "percentile", p);
	if (plus)
		jw_put(c, o, "bins", fio_bins(c, h));
	return o;
}

/* The bw_avg_time / iops_avg_time samples as fio gives them (bw in
 * KiB/s, bw_agg the samples' mean in per cent of the bandwidth). */
static void put_samples(struct jw *c, json_t *o, const struct dir_stats *x,
			double bw)
{
	const struct smp_stat *b = &x->bw_smp, *i = &x->iops_smp;

	jw_put(c, o, "bw_min", jw_u64(whole(floor(b->min / 1024))));
	jw_put(c, o, "bw_max", jw_u64(whole(floor(b->max / 1024))));
	jw_put(c, o, "bw_agg", jw_real(b->n && bw > 0 ?
				       100.0 * b->mean / bw : 0.0));
	jw_put(c, o, "bw_mean", jw_real(b->mean / 1024));
	jw_put(c, o, "bw_dev", jw_real(smp_stddev(b) / 1024));
	jw_put(c, o, "bw_samples", jw_u64(b->n));
	jw_put(c, o, "iops_min", jw_u64(whole(floor(i->min))));
	jw_put(c, o, "iops_max", jw_u64(whole(floor(i->max))));
	jw_put(c, o, "iops_mean", jw_real(i->mean));
	jw_put(c, o, "iops_stddev", jw_real(smp_stddev(i)));
	jw_put(c, o, "iops_samples", jw_u64(i->n));
}

/* Direction d of s; j: whose percentiles a member's entry shows (NULL:
 * none, "All clients"). */
static json_t *fio_dir(struct jw *c, const struct job_stats *s, int d,
		       const struct job *j, bool plus)
{
	const struct dir_stats *x = &s->dir[d];
	bool meas = s->nmeasured || !s->nclones;
	/* the rate as the member's document gave it */
	double bw = meas ? result_as_printed(stats_bw(x, s->runtime_ns)) : 0;
	uint64_t rt = x->ios ? s->runtime_ns : 0;
	json_t *y = json_object();

	jw_put(c, y, "io_bytes", jw_u64(x->bytes));
	jw_put(c, y, "io_kbytes", jw_u64(x->bytes >> 10));
	jw_put(c, y, "bw_bytes", jw_u64(whole(bw)));
	jw_put(c, y, "bw", jw_u64(whole(bw) / 1024));
	jw_put(c, y, "iops", jw_real(meas ? stats_iops(x, s->runtime_ns) :
				     0.0));
	jw_put(c, y, "runtime", jw_u64(rt / 1000000));
	jw_put(c, y, "total_ios", jw_u64(x->ios));
	jw_put(c, y, "short_ios", jw_u64(x->short_ios));
	jw_put(c, y, "drop_ios", jw_u64(0));
	jw_put(c, y, "slat_ns", fio_hist(c, &x->slat, j,
					 j && j->report.slat_percentiles,
					 plus));
	jw_put(c, y, "clat_ns", fio_hist(c, &x->clat, j,
					 j && j->report.clat_percentiles,
					 plus));
	jw_put(c, y, "lat_ns", fio_hist(c, &x->lat, j,
					j && j->report.lat_percentiles, plus));
	put_samples(c, y, x, bw);
	return y;
}

/* The options all members share (the merged job's without the ones each
 * member sets for itself). */
static json_t *shared_opts(struct jw *c, const struct job *j)
{
	json_t *o = json_object();
	const struct opt_def *d;
	char buf[4096];

	for (d = options_next(j, NULL); o && d; d = options_next(j, d)) {
		if (cluster_option_per_member(d->name))
			continue;
		options_format(j, d, buf, sizeof(buf));
		jw_put(c, o, d->name, jw_str(buf));
	}
	return o;
}

/*
 * One entry: s a member's figures of job j (or the merged ones), name its
 * fio jobname, host its hostname.
 */
static json_t *fio_entry(struct jw *c, const struct job_stats *s,
			 const struct job *j, const char *name,
			 const char *host, bool member, bool plus)
{
	json_t *o = json_object(), *y;
	double rt = (double)s->runtime_ns;
	uint64_t sub[DEPTH_NB], cmp[DEPTH_NB];
	int d, e = s->err < 0 ? -s->err : s->err;

	jw_put(c, o, "jobname", jw_str(name));
	jw_put(c, o, "groupid", json_integer(j->plan.group));
	jw_put(c, o, "error", json_integer(e));
	if (member)
		jw_put(c, o, "job options", shared_opts(c, j));
	for (d = 0; d < DDIR_NR; d++)
		jw_put(c, o, dir_key[d], fio_dir(c, s, d, member ? j : NULL,
						 plus));
	y = json_object();
	jw_put(c, y, "total_ios", jw_u64(s->sync.count));
	jw_put(c, y, "lat_ns", fio_hist(c, &s->sync, j, member &&
					(j->report.clat_percentiles ||
					 j->report.lat_percentiles), plus));
	jw_put(c, o, "sync", y);
	jw_put(c, o, "job_runtime", jw_u64(whole(rt) / 1000000));
	jw_put(c, o, "usr_cpu", jw_real(rt > 0 ? 100 * (double)s->cpu.utime_ns /
					rt : 0.0));
	jw_put(c, o, "sys_cpu", jw_real(rt > 0 ? 100 * (double)s->cpu.stime_ns /
					rt : 0.0));
	jw_put(c, o, "ctx", jw_u64(s->cpu.vcsw + s->cpu.ivcsw));
	jw_put(c, o, "majf", jw_u64(s->cpu.majflt));
	jw_put(c, o, "minf", jw_u64(s->cpu.minflt));
	stats_depth_fold(&s->depth, sub, cmp);
	jw_put(c, o, "iodepth_level", fio_depth_map(c, depth_level_keys,
						    s->depth.level));
	jw_put(c, o, "iodepth_submit", fio_depth_map(c, depth_batch_keys,
						     sub));
	jw_put(c, o, "iodepth_complete", fio_depth_map(c, depth_batch_keys,
						       cmp));
	fio_put_lat_maps(c, o, s);
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

/* The entries of client_stats, made when jw_dump_array_at asks: each
 * member's of each job (its own figures), then the jobs' "All clients". */
struct entries {
	struct jw *c;
	const struct run_result *r;
	unsigned njobs;		/* of each member */
	struct cluster_unit *buf;
	bool plus;
};

static json_t *entry_make(void *arg, size_t n)
{
	struct entries *a = arg;
	const struct cluster_info *ci = a->r->cluster;
	const struct result_set *rs = a->r->set;
	size_t members = (size_t)ci->nmembers * a->njobs;
	unsigned i, k;

	if (n >= members) {
		k = (unsigned)(n - members);
		return fio_entry(a->c, &rs->units[k].stats, rs->units[k].job,
				 "All clients", a->r->hostname, false,
				 a->plus);
	}
	/* a member's entry: its own figures, the options all members
	 * share */
	i = (unsigned)(n / a->njobs);
	k = (unsigned)(n % a->njobs);
	cluster_member_unit(ci, i, k, a->buf);
	return fio_entry(a->c, &a->buf->u.stats, rs->units[k].job,
			 rs->units[k].job->desc.name, ci->members[i].host, true,
			 a->plus);
}

static int write_fio(FILE *f, const struct run_result *r, bool plus)
{
	const struct cluster_info *ci = r->cluster;
	const struct result_set *rs = r->set;
	struct jw c = { 0 };
	struct entries a = { .c = &c, .r = r, .plus = plus };
	json_t *root;
	char ver[64], iso[64];
	int rc;

	if (!ci || !rs)
		return -EINVAL;
	root = json_object();
	a.buf = malloc(sizeof(*a.buf));
	if (!root || !a.buf) {
		json_decref(root);
		free(a.buf);
		return -ENOMEM;
	}
	a.njobs = ci->njobs < (unsigned)rs->nunits ? ci->njobs :
		  (unsigned)rs->nunits;
	snprintf(ver, sizeof(ver), "iorig-%s", r->version ? r->version : "");
	result_time_iso(r->start_time, iso, sizeof(iso));
	jw_put(&c, root, "fio version", jw_str(ver));
	jw_put(&c, root, "timestamp", json_integer((json_int_t)r->start_time));
	jw_put(&c, root, "time", jw_str(iso));
	jw_put(&c, root, "global options", json_object());
	/* every member's entries and the cluster's, written one at a time
	 * (a thousand members' bins are hundreds of MB of JSON) */
	jw_put(&c, root, "client_stats", jw_mark());
	/* fio's client layout has the key even empty (its servers' disks) */
	jw_put(&c, root, "disk_util", json_array());
	rc = c.failed ? -ENOMEM : jw_dump_array_at(f, &c, root, "client_stats",
			entry_make, &a, (size_t)ci->nmembers * a.njobs +
			(size_t)rs->nunits);
	if (!rc && c.failed)
		rc = -ENOMEM;
	json_decref(root);
	free(a.buf);
	return rc;
}

int report_cluster_fio(FILE *f, const struct run_result *r)
{
	return write_fio(f, r, false);
}

int report_cluster_fio_plus(FILE *f, const struct run_result *r)
{
	return write_fio(f, r, true);
}
