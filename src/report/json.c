// SPDX-License-Identifier: MIT
/*
 * The JSON report: one document, schema_version 1. Field names carry their
 * unit (_ns, _bytes); counts are integers, rates and means are reals.
 *
 * Latency objects ("slat_ns", "clat_ns", "lat_ns", "sched_lat_ns") are
 *   {"count", "min", "max", "mean", "stddev", "overflow",
 *    "percentiles": {"50": ns, "99.9": ns, ...},
 *    "buckets": [[low, high, count], ...]}
 * Percentile keys are the shortest "%g"-style text that reads back as the
 * same number. Percentiles follow the job's clat_percentiles,
 * lat_percentiles and slat_percentiles like the text report does ({} when
 * off; "sched_lat_ns", empty unless the direction is paced, always has
 * them); the buckets are always there, so nothing is lost. Buckets list only
 * non-empty ones; their counts plus "overflow" (samples beyond the last
 * bucket, which still count in min/max/mean) add up to "count".
 *
 * "jobs" has one object per reported unit (see result_units): "clone" is
 * null for a group_reporting unit. "groups" has one per reporting group
 * with "njobs_ran" and the same result members as a job (percentile
 * options of the group's first job). "error" is null or {"errno" (positive),
 * "message"}. A direction's "first_error" is null or the first failed I/O:
 * {"errno", "message", "offset", "file", "engine"}. "verify" is null or
 * what verification read and found (j_verify); 64-bit seeds and run ids
 * are hex text, as JSON integers cannot hold them.
 *
 * The writer reads only what the run_result holds, so an interrupted or
 * failed run still gives a complete, valid document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <math.h>

#include "check.h"
#include "curve.h"
#include "jsonw.h"
#include "options.h"
#include "report.h"
#include "value.h"
#include "zbd.h"

#define JSON_SCHEMA_VERSION	1

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

static json_t *j_percentiles(struct jw *c, const struct hist *h,
			     const struct job *j, bool on)
{
	json_t *o = json_object();
	char key[40];
	unsigned i;

	if (!o || !on || !h->count)
		return o;
	for (i = 0; i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		double p = j->report.percentile_list[i];

		value_fmt_shortest(p, key, sizeof(key));
		jw_put(c, o, key, jw_u64(hist_percentile(h, p)));
	}
	return o;
}

static json_t *j_bucket(struct jw *c, const struct hist *h, unsigned i)
{
	json_t *t = json_array();

	if (!t)
		return NULL;
	jw_push(c, t, jw_u64(hist_bucket_low(i)));
	jw_push(c, t, jw_u64(hist_bucket_high(i)));
	jw_push(c, t, jw_u64(h->b[i]));
	return t;
}

/* The buckets of h printed as j_buckets makes them, without a tree of a
 * node per number (a merge's members: most of its document). */
static int buckets_write(struct jw_out *o, unsigned depth, void *arg)
{
	const struct hist *h = arg;
	bool first = true;
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t t[3];

		if (!h->b[i])
			continue;
		t[0] = hist_bucket_low(i);
		t[1] = hist_bucket_high(i);
		t[2] = h->b[i];
		jw_out_counts(o, depth, first, t, 3);
		first = false;
	}
	if (first) {
		jw_out_raw(o, "[]", 2);
	} else {
		jw_out_indent(o, depth);
		jw_out_raw(o, "]", 1);
	}
	return 0;
}

/* c->defer: h must stay as it is until the document is printed. */
static json_t *j_buckets(struct jw *c, const struct hist *h)
{
	json_t *a;
	unsigned i;

	if (c->defer && h->count)
		return jw_defer(c, buckets_write, (void *)h);
	a = json_array();
	if (!a || !h->count)
		return a;
	for (i = 0; i < HIST_NBUCKETS; i++)
		if (h->b[i])
			jw_push(c, a, j_bucket(c, h, i));
	return a;
}

static json_t *j_hist(struct jw *c, const struct hist *h,
		      const struct job *j, bool pct)
{
	json_t *o = json_object();
	bool empty = !h->count;

	if (!o)
		return NULL;
	jw_put(c, o, "count", jw_u64(h->count));
	jw_put(c, o, "min", jw_u64(empty ? 0 : h->min));
	jw_put(c, o, "max", jw_u64(empty ? 0 : h->max));
	jw_put(c, o, "mean", jw_real(empty ? 0.0 : hist_mean(h)));
	jw_put(c, o, "stddev", jw_real(empty ? 0.0 : hist_stddev(h)));
	jw_put(c, o, "overflow", jw_u64(h->overflow));
	jw_put(c, o, "percentiles", j_percentiles(c, h, j, pct));
	jw_put(c, o, "buckets", j_buckets(c, h));
	return o;
}

static json_t *j_first_error(struct jw *c, const struct dir_stats *d)
{
	json_t *o;

	if (!d->first_errno)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "errno", json_integer(d->first_errno));
	jw_put(c, o, "message", jw_str(strerror(d->first_errno)));
	jw_put(c, o, "offset", jw_u64(d->first_err_offset));
	jw_put(c, o, "file", d->first_err_file[0] ? jw_str(d->first_err_file) :
	    json_null());
	jw_put(c, o, "engine", d->first_err_engine ?
	    jw_str(d->first_err_engine) : json_null());
	return o;
}

/*
 * A paced direction's rate: null when not paced (a job stopped while
 * ramping has none: nothing was measured). "met": see stats_rate_met.
 */
static json_t *j_rate(struct jw *c, const struct dir_stats *d,
		      uint64_t runtime_ns, const struct job *j)
{
	json_t *o;

	if (!(d->rate_bps > 0))
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "target_bw_bytes", jw_real(d->rate_bps));
	jw_put(c, o, "target_iops", d->rate_iops > 0 ?
	       jw_real(d->rate_iops) : json_null());
	jw_put(c, o, "achieved_bw_bytes", jw_real(stats_bw(d, runtime_ns)));
	jw_put(c, o, "achieved_iops", jw_real(stats_iops(d, runtime_ns)));
	jw_put(c, o, "met", json_boolean(stats_rate_met(d, runtime_ns)));
	jw_put(c, o, "backlog_ios", jw_u64(d->backlog_ios));
	jw_put(c, o, "lag_ns", jw_u64(d->lag_ns));
	jw_put(c, o, "process",
	       jw_str(j && j->pace.rate_process == RATE_POISSON ?
		     "poisson" : "linear"));
	return o;
}

/*
 * Rate samples (stats.h): their count, min, max, mean, stddev, in B/s or
 * I/Os per s.
 */
static json_t *j_samples(struct jw *c, const struct smp_stat *m)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "count", jw_u64(m->n));
	jw_put(c, o, "min", jw_real(m->n ? m->min : 0.0));
	jw_put(c, o, "max", jw_real(m->n ? m->max : 0.0));
	jw_put(c, o, "mean", jw_real(m->mean));
	jw_put(c, o, "stddev", jw_real(smp_stddev(m)));
	return o;
}

/* Queue depth counts (stats.h), one per bucket. */
static json_t *j_depth_map(struct jw *c, const uint64_t *counts)
{
	json_t *o = json_array();
	unsigned i;

	for (i = 0; o && i < DEPTH_NB; i++)
		jw_push(c, o, jw_u64(counts[i]));
	return o;
}

static json_t *j_depth(struct jw *c, const struct depth_dist *dd)
{
	uint64_t sub[DEPTH_NB], cmp[DEPTH_NB];
	json_t *o = json_object();

	if (!o)
		return NULL;
	stats_depth_fold(dd, sub, cmp);
	jw_put(c, o, "level", j_depth_map(c, dd->level));
	jw_put(c, o, "submit", j_depth_map(c, sub));
	jw_put(c, o, "complete", j_depth_map(c, cmp));
	return o;
}

/* j: whose percentile options apply; NULL for none. */
/* measured false: stopped during ramp_time, so no rates (null). */
static json_t *j_dir(struct jw *c, const struct dir_stats *d,
		     uint64_t runtime_ns, const struct job *j, bool measured)
{
	json_t *o = json_object();
	double depth;

	if (!o)
		return NULL;
	jw_put(c, o, "io_bytes", jw_u64(d->bytes));
	jw_put(c, o, "ios", jw_u64(d->ios));
	jw_put(c, o, "runtime_ns", jw_u64(runtime_ns));
	jw_put(c, o, "iops", measured ? jw_real(stats_iops(d, runtime_ns)) :
	       json_null());
	jw_put(c, o, "bw_bytes", measured ? jw_real(stats_bw(d, runtime_ns)) :
	       json_null());
	jw_put(c, o, "depth_mean", measured &&
	       stats_depth_mean(d, runtime_ns, &depth) ? jw_real(depth) :
	       json_null());
	jw_put(c, o, "errors", jw_u64(d->errors));
	jw_put(c, o, "short_ios", jw_u64(d->short_ios));
	jw_put(c, o, "dropped_ios", jw_u64(d->dropped_ios));
	jw_put(c, o, "submit_done_ios", jw_u64(d->submit_done));
	jw_put(c, o, "first_error", j_first_error(c, d));
	jw_put(c, o, "slat_ns", j_hist(c, &d->slat, j,
	       j && j->report.slat_percentiles));
	jw_put(c, o, "clat_ns", j_hist(c, &d->clat, j,
	       j && j->report.clat_percentiles));
	jw_put(c, o, "lat_ns",
	       j_hist(c, &d->lat, j, j && j->report.lat_percentiles));
	jw_put(c, o, "sched_lat_ns", j_hist(c, &d->sched_lat, j, j != NULL));
	jw_put(c, o, "rate", j_rate(c, d, runtime_ns, j));
	jw_put(c, o, "bw_samples", j_samples(c, &d->bw_smp));
	jw_put(c, o, "iops_samples", j_samples(c, &d->iops_smp));
	return o;
}

/* fsync=N, fdatasync=N calls: {"ios", "lat_ns"}, percentiles as clat's. */
static json_t *j_sync(struct jw *c, const struct hist *h,
		      const struct job *j)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "ios", jw_u64(h->count));
	jw_put(c, o, "lat_ns",
	       j_hist(c, h, j, j && (j->report.clat_percentiles ||
				    j->report.lat_percentiles)));
	return o;
}

static json_t *j_cpu(struct jw *c, const struct cpu_usage *u)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "user_ns", jw_u64(u->utime_ns));
	jw_put(c, o, "sys_ns", jw_u64(u->stime_ns));
	jw_put(c, o, "ctx_voluntary", jw_u64(u->vcsw));
	jw_put(c, o, "ctx_involuntary", jw_u64(u->ivcsw));
	jw_put(c, o, "minflt", jw_u64(u->minflt));
	jw_put(c, o, "majflt", jw_u64(u->majflt));
	return o;
}

/* errno is positive, as errno(3) has it; message says what failed. */
static json_t *j_error(struct jw *c, const struct job_stats *s)
{
	int e = s->err < 0 ? -s->err : s->err;
	char msg[ERR_TEXT_MAX + 128];
	json_t *o;

	if (!e)
		return json_null();
	result_error_text(s, msg, sizeof(msg));
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "errno", json_integer(e));
	jw_put(c, o, "message", jw_str(msg));
	return o;
}

static json_t *j_options(struct jw *c, const struct job *j)
{
	json_t *o = json_object();
	const struct opt_def *d;
	char buf[4096];

	if (!o)
		return NULL;
	for (d = options_next(j, NULL); d; d = options_next(j, d)) {
		buf[0] = '\0';
		options_format(j, d, buf, sizeof(buf));
		jw_put(c, o, d->name, jw_str(buf));
	}
	return o;
}

/*
 * 64-bit hashes and random ids do not fit a JSON integer: hex text, always
 * with its "0x" ("%#x" would print 0 as "0").
 */
static json_t *j_hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* The fields of a verify header; found ones carry what only a read has. */
static json_t *j_vhdr(struct jw *c, const struct verify_hdr *h,
		      bool gen_known, bool found)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "offset", jw_u64(h->offset));
	jw_put(c, o, "length", jw_u64(h->len));
	jw_put(c, o, "seed", j_hex(h->seed));
	jw_put(c, o, "generation", gen_known ? jw_u64(h->generation) :
	    json_null());
	jw_put(c, o, "run_id", gen_known ? j_hex(h->run_id) : json_null());
	if (found) {
		jw_put(c, o, "kind", jw_str(verify_kind_name(h->kind)));
		jw_put(c, o, "write_time_ns", jw_u64(h->time_ns));
		jw_put(c, o, "checksum", j_hex(h->csum));
	}
	return o;
}

static json_t *j_mismatch(struct jw *c, const struct verify_mismatch *m)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "file", jw_str(m->file));
	jw_put(c, o, "offset", jw_u64(m->offset));
	jw_put(c, o, "class", jw_str(verify_class_name(m->cls)));
	jw_put(c, o, "detail", jw_str(m->detail));
	jw_put(c, o, "expected", j_vhdr(c, &m->expected, m->exp_gen, false));
	jw_put(c, o, "found", m->found_hdr ? j_vhdr(c, &m->found, true, true) :
	    json_null());
	return o;
}

/*
 * The verification's own reads (job_stats.vread), which fio counts in its
 * reads: {"ios", "io_bytes", "errors", "phase_ns", "lat_ns"}, percentiles
 * as the reads' lat.
 */
static json_t *j_vreads(struct jw *c, const struct job_stats *s,
			const struct job *j)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "ios", jw_u64(s->vread.ios));
	jw_put(c, o, "io_bytes", jw_u64(s->vread.bytes));
	jw_put(c, o, "errors", jw_u64(s->vread.errors));
	jw_put(c, o, "phase_ns", jw_u64(s->vphase_ns));
	jw_put(c, o, "lat_ns", j_hist(c, &s->vread.lat, j,
				      j && j->report.lat_percentiles));
	return o;
}

/* null when the job did not verify. */
static json_t *j_verify(struct jw *c, const struct job_stats *s,
			const struct job *j)
{
	const struct verify_stats *v = &s->verify;
	json_t *o, *by, *first;
	unsigned i;
	int k;

	if (!v->kind)
		return json_null();
	o = json_object();
	by = json_object();
	first = json_array();
	if (!o || !by || !first) {
		json_decref(o);
		json_decref(by);
		json_decref(first);
		return NULL;
	}
	jw_put(c, o, "kind", jw_str(verify_kind_name(v->kind)));
	jw_put(c, o, "blocks_checked", jw_u64(v->blocks_checked));
	jw_put(c, o, "io_bytes", jw_u64(v->bytes));
	jw_put(c, o, "runtime_ns", jw_u64(v->runtime_ns));
	jw_put(c, o, "reads", j_vreads(c, s, j));
	jw_put(c, o, "read_errors", jw_u64(v->read_errors));
	jw_put(c, o, "write_failed", jw_u64(v->write_failed));
	jw_put(c, o, "mismatches", jw_u64(v->mismatches));
	jw_put(c, o, "stopped", json_boolean(v->stopped));
	for (k = 0; k < VC_NR; k++)
		jw_put(c, by, verify_class_name(k), jw_u64(v->by_class[k]));
	jw_put(c, o, "by_class", by);
	for (i = 0; i < v->nfirst; i++)
		jw_push(c, first, j_mismatch(c, &v->first[i]));
	jw_put(c, o, "first", first);
	return o;
}

/* unified_rw_reporting: reads and writes as one direction, else null. */
static json_t *j_mixed(struct jw *c, const struct job_stats *s,
		       const struct job *j)
{
	struct dir_stats m;

	if (!j || j->report.unified_rw_reporting == UNIFIED_NONE)
		return json_null();
	stats_mixed(&m, s);
	return j_dir(c, &m, s->runtime_ns, j, s->nmeasured || !s->nclones);
}

static json_t *j_series(struct jw *c, const struct steady_rec *r,
			const double *y)
{
	json_t *a = json_array();
	unsigned k;

	for (k = 0; a && k < r->count; k++)
		jw_push(c, a, jw_real(y[steady_at(r, k)]));
	return a;
}

/* steadystate: the criterion, the verdict, the window's samples. */
static json_t *j_steady(struct jw *c, const struct steady_rec *r)
{
	json_t *o;

	if (!r)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "criterion", jw_str(steady_kind_name(r->crit.kind)));
	jw_put(c, o, "limit", jw_real(r->crit.limit));
	jw_put(c, o, "limit_pct", json_boolean(r->crit.pct));
	jw_put(c, o, "duration_ns", jw_u64(r->dur_ns));
	jw_put(c, o, "interval_ns", jw_u64(r->interval_ns));
	jw_put(c, o, "attained", json_boolean(r->attained));
	jw_put(c, o, "attained_ns", r->attained ? jw_u64(r->at_ns) :
	       json_null());
	jw_put(c, o, "value", r->judged ? jw_real(r->criterion) :
	       json_null());
	jw_put(c, o, "slope", r->judged ? jw_real(r->slope) : json_null());
	jw_put(c, o, "max_deviation", r->judged ? jw_real(r->deviation) :
	       json_null());
	jw_put(c, o, "iops_mean", jw_real(steady_mean(r, r->iops)));
	jw_put(c, o, "bw_mean_bytes", jw_real(steady_mean(r, r->bw)));
	jw_put(c, o, "lat_mean_ns", jw_real(steady_mean(r, r->lat)));
	jw_put(c, o, "iops", j_series(c, r, r->iops));
	jw_put(c, o, "bw_bytes", j_series(c, r, r->bw));
	jw_put(c, o, "lat_ns", j_series(c, r, r->lat));
	return o;
}

/* zonemode=zbd: the region's zones before and after the job (stats.h). */
static const char *const zbd_model_name[] = {
	[ZBD_NONE] = "emulated", [ZBD_HOST_AWARE] = "host-aware",
	[ZBD_HOST_MANAGED] = "host-managed",
};

static json_t *j_zbd(struct jw *c, const struct zbd_stats *r)
{
	json_t *o, *a, *z;
	unsigned i;

	if (!r)
		return json_null();
	o = json_object();
	a = json_array();
	if (!o || !a) {
		json_decref(o);
		json_decref(a);
		return NULL;
	}
	jw_put(c, o, "model", jw_str(r->model >= 0 && r->model <= 2 ?
				     zbd_model_name[r->model] : "?"));
	jw_put(c, o, "zone_size", jw_u64(r->zone_size));
	jw_put(c, o, "max_open_zones", jw_u64(r->max_open));
	jw_put(c, o, "max_open_seen", jw_u64(r->max_open_seen));
	jw_put(c, o, "zone_resets", jw_u64(r->resets));
	for (i = 0; i < r->n; i++) {
		const struct zbd_zone_rec *q = &r->z[i];

		z = json_object();
		if (!z || json_array_append_new(a, z)) {
			json_decref(o);
			json_decref(a);
			return NULL;
		}
		if (r->names)
			jw_put(c, z, "file", jw_str(r->names + q->name));
		jw_put(c, z, "start", jw_u64(q->start));
		jw_put(c, z, "capacity", jw_u64(q->cap));
		jw_put(c, z, "type", jw_str(zbd_type_name(q->type)));
		jw_put(c, z, "cond_before", jw_str(zbd_cond_name(
			q->cond[0])));
		jw_put(c, z, "wp_before", jw_u64(q->wp[0]));
		jw_put(c, z, "cond_after", jw_str(zbd_cond_name(q->cond[1])));
		jw_put(c, z, "wp_after", jw_u64(q->wp[1]));
	}
	jw_put(c, o, "zones", a);
	return o;
}

/* disk_util: each watched device's counters over the run. */
static json_t *j_disks(struct jw *c, const struct sysinfo_disks *s)
{
	json_t *a = json_array(), *o;
	unsigned i;

	for (i = 0; a && i < s->n; i++) {
		const struct sysinfo_diskstat *d = &s->d[i].sum;

		o = json_object();
		if (!o)
			continue;
		jw_put(c, o, "name", jw_str(d->name));
		jw_put(c, o, "read_ios", jw_u64(d->rd_ios));
		jw_put(c, o, "write_ios", jw_u64(d->wr_ios));
		jw_put(c, o, "read_merges", jw_u64(d->rd_merges));
		jw_put(c, o, "write_merges", jw_u64(d->wr_merges));
		jw_put(c, o, "read_sectors", jw_u64(d->rd_sectors));
		jw_put(c, o, "write_sectors", jw_u64(d->wr_sectors));
		jw_put(c, o, "read_ticks_ms", jw_u64(d->rd_ticks));
		jw_put(c, o, "write_ticks_ms", jw_u64(d->wr_ticks));
		jw_put(c, o, "io_ticks_ms", jw_u64(d->io_ticks));
		jw_put(c, o, "in_queue_ms", jw_u64(d->time_in_queue));
		jw_put(c, o, "watched_ns", jw_u64(s->d[i].wall_ns));
		jw_put(c, o, "util_pct", jw_real(sysinfo_disk_util(&s->d[i])));
		jw_push(c, a, o);
	}
	return a;
}

/* An NVMe SMART / Health log (nvmedev.h); counters only when delta. */
static json_t *j_health(struct jw *c, const struct nvmedev_health *h,
			bool delta)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "data_units_read", jw_u64(h->data_units_read));
	jw_put(c, o, "data_units_written", jw_u64(h->data_units_written));
	jw_put(c, o, "host_read_commands", jw_u64(h->host_read_commands));
	jw_put(c, o, "host_write_commands", jw_u64(h->host_write_commands));
	jw_put(c, o, "media_errors", jw_u64(h->media_errors));
	jw_put(c, o, "error_log_entries", jw_u64(h->error_log_entries));
	jw_put(c, o, "power_on_hours", jw_u64(h->power_on_hours));
	jw_put(c, o, "unsafe_shutdowns", jw_u64(h->unsafe_shutdowns));
	if (delta)
		return o;
	jw_put(c, o, "critical_warning", json_integer(h->critical_warning));
	jw_put(c, o, "temperature_c", json_integer(h->temperature));
	jw_put(c, o, "available_spare_pct", json_integer(h->avail_spare));
	jw_put(c, o, "percentage_used", json_integer(h->percentage_used));
	return o;
}

/* An NVMe device's error log entries logged during the run. */
static json_t *j_nvme_errors(struct jw *c, const struct nvmedev_dev *d)
{
	json_t *a = json_array(), *o;
	unsigned i;

	for (i = 0; a && i < d->nerrs; i++) {
		const struct nvmedev_errent *e = &d->errs[i];

		o = json_object();
		if (!o)
			continue;
		jw_put(c, o, "error_count", jw_u64(e->count));
		jw_put(c, o, "sqid", jw_u64(e->sqid));
		jw_put(c, o, "cmdid", jw_u64(e->cmdid));
		jw_put(c, o, "status", jw_u64(e->status));
		jw_put(c, o, "lba", jw_u64(e->lba));
		jw_put(c, o, "nsid", jw_u64(e->nsid));
		jw_put(c, o, "parm_error_location", jw_u64(e->pel));
		jw_push(c, a, o);
	}
	return a;
}

/* nvme: each NVMe namespace under the targets, its identity and its
 * controller's health before and after the run. */
static json_t *j_nvme(struct jw *c, const struct nvmedev_set *s)
{
	json_t *a = json_array(), *o;
	struct nvmedev_health dh;
	unsigned i;

	for (i = 0; a && i < s->n; i++) {
		const struct nvmedev_dev *d = &s->d[i];

		o = json_object();
		if (!o)
			continue;
		jw_put(c, o, "name", jw_str(d->name));
		jw_put(c, o, "target", jw_str(d->target));
		jw_put(c, o, "model", jw_str(d->id.model));
		jw_put(c, o, "serial", jw_str(d->id.serial));
		jw_put(c, o, "firmware", jw_str(d->id.firmware));
		jw_put(c, o, "nsid", jw_u64(d->id.nsid));
		jw_put(c, o, "blocks", jw_u64(d->id.nsze));
		jw_put(c, o, "lba_format", jw_u64(d->id.lbaf));
		jw_put(c, o, "lba_size", jw_u64(d->id.lba_size));
		jw_put(c, o, "metadata_size", jw_u64(d->id.ms));
		jw_put(c, o, "extended_lba", json_boolean(d->id.extended));
		jw_put(c, o, "pi_type", jw_u64(d->id.pi_type));
		jw_put(c, o, "zoned", json_boolean(d->id.zoned));
		jw_put(c, o, "error", d->err ? jw_str(strerror(-d->err)) :
		       json_null());
		jw_put(c, o, "health_before", d->have_before ?
		       j_health(c, &d->before, false) : json_null());
		jw_put(c, o, "health_after", d->have_after ?
		       j_health(c, &d->after, false) : json_null());
		if (d->have_before && d->have_after)
			nvmedev_health_sub(&dh, &d->after, &d->before);
		jw_put(c, o, "health_delta", d->have_before && d->have_after ?
		       j_health(c, &dh, true) : json_null());
		jw_put(c, o, "error_log", j_nvme_errors(c, d));
		jw_push(c, a, o);
	}
	return a;
}

/* A unit's health (stats_health): null when no NVMe namespace. */
static json_t *j_job_health(struct jw *c, const struct stats_health *h)
{
	json_t *o;

	if (!h->known)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "media_errors", jw_u64(h->media_errors));
	jw_put(c, o, "error_log_entries", jw_u64(h->error_log_entries));
	jw_put(c, o, "critical_warning", json_integer(h->critical_warning));
	jw_put(c, o, "percentage_used", json_integer(h->percentage_used));
	return o;
}

/* Members common to a job unit and a group. */
static void put_result(struct jw *c, json_t *o, const struct job_stats *s,
		       const struct job *j)
{
	json_t *cpu = j_cpu(c, &s->cpu);
	int d;

	jw_put(c, o, "error", j_error(c, s));
	jw_put(c, o, "interrupted", json_boolean(s->interrupted));
	jw_put(c, o, "measured", json_boolean(s->nmeasured || !s->nclones));
	jw_put(c, o, "abandoned", json_boolean(s->abandoned));
	jw_put(c, o, "runtime_ns", jw_u64(s->runtime_ns));
	jw_put(c, o, "think_ns", jw_u64(s->think_ns));
	jw_put(c, o, "end_sync_ns", jw_u64(s->end_sync_ns));
	if (j && j->err.latency_target_ns)
		jw_put(c, o, "latency_depth", jw_u64(s->latency_depth));
	jw_put(c, o, "loops", jw_u64(s->loops_done));
	jw_put(c, o, "sync", j_sync(c, &s->sync, j));
	if (cpu)
		jw_put(c, cpu, "us_per_io", jw_real(stats_cpu_us_per_io(s)));
	jw_put(c, o, "cpu", cpu);
	for (d = 0; d < DDIR_NR; d++)
		jw_put(c, o, dir_key[d],
		       j_dir(c, &s->dir[d], s->runtime_ns, j,
			     s->nmeasured || !s->nclones));
	jw_put(c, o, "mixed", j_mixed(c, s, j));
	jw_put(c, o, "iodepth", j_depth(c, &s->depth));
	jw_put(c, o, "verify", j_verify(c, s, j));
	jw_put(c, o, "health", j_job_health(c, &s->health));
}

static json_t *j_sys_cpu(struct jw *c, const struct sys_cpu *s)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "user_ns", jw_u64(s->user));
	jw_put(c, o, "sys_ns", jw_u64(s->system));
	jw_put(c, o, "irq_ns", jw_u64(s->irq));
	jw_put(c, o, "softirq_ns", jw_u64(s->softirq));
	jw_put(c, o, "idle_ns", jw_u64(s->idle));
	jw_put(c, o, "steal_ns", jw_u64(s->steal));
	return o;
}

/* The phase this unit ran in: process and whole-system CPU around it
 * (a repeated unit's: those of all its runs, added up). */
static json_t *j_phase(struct jw *c, const struct run_result *r,
		       const struct result_unit *u)
{
	struct phase_cpu ph;
	json_t *o;

	if (!result_unit_phase(r, u, &ph))
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "phase", json_integer(u->job->plan.wait_group));
	jw_put(c, o, "wall_ns", jw_u64(ph.wall_ns));
	jw_put(c, o, "ios", jw_u64(ph.ios));
	jw_put(c, o, "process", j_cpu(c, &ph.proc));
	jw_put(c, o, "system", j_sys_cpu(c, &ph.sys));
	return o;
}

/* One direction of an interval sample. */
static json_t *j_sample_dir(struct jw *c, const struct ival_sample *smp,
			    int d)
{
	const struct ival_dir *x = &smp->dir[d];
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "ios", jw_u64(x->ios));
	jw_put(c, o, "bytes", jw_u64(x->bytes));
	jw_put(c, o, "iops", jw_real(ival_iops(smp, d)));
	jw_put(c, o, "bw_bytes", jw_real(ival_bw(smp, d)));
	jw_put(c, o, "lat_p50_ns", jw_u64(hist_sparse_percentile(&x->lat, 50)));
	jw_put(c, o, "lat_p99_ns", jw_u64(hist_sparse_percentile(&x->lat, 99)));
	jw_put(c, o, "lat_max_ns", jw_u64(x->lat.count ? x->lat.max : 0));
	return o;
}

/* An interval sample's members, as the report and the stream share
 * them. */
static void put_sample(struct jw *c, json_t *o, const struct ival_sample *smp)
{
	int d;

	jw_put(c, o, "start_ns", jw_u64(smp->start_ns));
	jw_put(c, o, "end_ns", jw_u64(smp->end_ns));
	for (d = 0; d < DDIR_NR; d++)
		jw_put(c, o, dir_key[d], j_sample_dir(c, smp, d));
}

json_t *report_json_stream_line(const struct job *j, size_t index,
				 const struct ival_sample *smp)
{
	json_t *o = json_object();
	struct jw c = { 0 };

	if (!o)
		return NULL;
	jw_put(&c, o, "job", jw_str(j->desc.name));
	jw_put(&c, o, "clone", json_integer(j->plan.clone));
	jw_put(&c, o, "sweep_point", j->plan.sweep_point ?
	       jw_str(j->plan.sweep_point) : json_null());
	jw_put(&c, o, "index", jw_u64(index));
	put_sample(&c, o, smp);
	if (c.failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * interval=: the samples, as the --stream lines have them (without job,
 * clone, sweep_point and index); null when there are none to give: the
 * option is off or the merged jobs' intervals differ. A job with
 * interval= that never ran has [] (empty_ok).
 */
static json_t *j_intervals(struct jw *c, const struct ival_series *s,
			   bool empty_ok)
{
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *smp;
	json_t *a, *o;

	if (!s)
		return empty_ok ? json_array() : json_null();
	a = json_array();
	if (!a)
		return NULL;
	while ((smp = ival_iter_next(&it, s))) {
		o = json_object();
		if (o)
			put_sample(c, o, smp);
		jw_push(c, a, o);
	}
	return a;
}

/* A headline row (result_row): the table's figures, its definitions. */
static json_t *j_row(struct jw *c, const struct result_row *row)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "reqs", jw_u64(row->ios));
	jw_put(c, o, "io_bytes", jw_u64(row->bytes));
	jw_put(c, o, "runtime_ns", jw_u64(row->runtime_ns));
	jw_put(c, o, "utime_ns", jw_u64(row->utime_ns));
	jw_put(c, o, "stime_ns", jw_u64(row->stime_ns));
	jw_put(c, o, "cpu_pct", jw_real(row->cpu_pct));
	jw_put(c, o, "us_per_io", jw_real(row->us_per_io));
	jw_put(c, o, "lat_mean_ns", jw_real(row->lat_mean_ns));
	jw_put(c, o, "lat_p99_ns", jw_u64(row->lat_p99_ns));
	jw_put(c, o, "iops", jw_real(row->iops));
	jw_put(c, o, "bw_bytes", jw_real(row->bw_bytes));
	return o;
}

/* The table's row: the same figures, the same definitions. */
static json_t *j_summary(struct jw *c, const struct run_result *r,
			 const struct result_unit *u)
{
	struct result_row row;

	/* Stopped during ramp_time: no figures to sum up. */
	if (u->stats.nclones && !u->stats.nmeasured)
		return json_null();
	result_row(r, u, &row);
	return j_row(c, &row);
}

/* Unknown text or numbers are null, never a made-up value. */
static json_t *j_text_or_null(const char *s)
{
	return s[0] ? jw_str(s) : json_null();
}

static json_t *j_device(struct jw *c, const struct sysinfo_target *t)
{
	const struct sysinfo_device *d = &t->dev;
	json_t *o;

	if (!t->has_device)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "name", j_text_or_null(d->name));
	jw_put(c, o, "model", j_text_or_null(d->model));
	jw_put(c, o, "firmware", j_text_or_null(d->firmware));
	jw_put(c, o, "logical_block_size", d->logical_block_size ?
	    json_integer(d->logical_block_size) : json_null());
	jw_put(c, o, "physical_block_size", d->physical_block_size ?
	    json_integer(d->physical_block_size) : json_null());
	jw_put(c, o, "rotational", d->rotational < 0 ? json_null() :
	    json_boolean(d->rotational));
	jw_put(c, o, "scheduler", j_text_or_null(d->scheduler));
	jw_put(c, o, "write_cache", j_text_or_null(d->write_cache));
	return o;
}

static const char *const target_kind[] = {
	[SYSINFO_NONE] = "none",
	[SYSINFO_FILE] = "file",
	[SYSINFO_BLOCK] = "block",
};

/* What the unit's first job ran on; [] when its targets were not opened. */
static json_t *j_targets(struct jw *c, const struct run_result *r,
			 const struct result_unit *u)
{
	const struct run_targets *rt = result_targets(r, u);
	json_t *a = json_array(), *o;
	unsigned i;

	for (i = 0; a && rt && i < rt->n; i++) {
		const struct run_target *t = &rt->t[i];

		o = json_object();
		if (!o) {
			c->failed = 1;
			break;
		}
		jw_put(c, o, "path", t->path ? jw_str(t->path) : json_null());
		jw_put(c, o, "kind", json_string(target_kind[t->info.kind]));
		jw_put(c, o, "fs_type", j_text_or_null(t->info.fs_type));
		jw_put(c, o, "device", j_device(c, &t->info));
		jw_push(c, a, o);
	}
	return a;
}

/* What the unit's first job's engine got at setup (engine.h), or null:
 * an engine with nothing to say, or one that was not set up. */
static json_t *j_engine_setup(struct jw *c, const struct run_result *r,
			      const struct result_unit *u)
{
	const struct run_targets *rt = result_targets(r, u);
	json_t *a;
	unsigned i;

	if (!rt || !rt->engine.known)
		return json_null();
	a = json_array();
	for (i = 0; a && i < rt->engine.n; i++)
		jw_push(c, a, jw_str(rt->engine.what[i]));
	return a;
}

/* jobs[].repeats: null, or the spread of the headline figures over the
 * runs of a repeated job. */
static json_t *j_repeats(struct jw *c, const struct check_unit *cu)
{
	json_t *o, *figs, *fo, *vals;
	unsigned k, i;

	if (!cu || !cu->repeated)
		return json_null();
	o = json_object();
	figs = json_object();
	if (!o || !figs) {
		json_decref(o);
		json_decref(figs);
		return NULL;
	}
	jw_put(c, o, "n", json_integer(cu->nfigs ? cu->figs[0].spread.n : 0));
	for (k = 0; k < cu->nfigs; k++) {
		const struct check_fig *g = &cu->figs[k];

		fo = json_object();
		vals = json_array();
		if (!fo || !vals) {
			json_decref(fo);
			json_decref(vals);
			c->failed = 1;
			break;
		}
		jw_put(c, fo, "mean", jw_real(g->spread.mean));
		jw_put(c, fo, "stddev", jw_real(g->spread.stddev));
		jw_put(c, fo, "cv_pct", jw_real(g->spread.cv_pct));
		jw_put(c, fo, "min", jw_real(g->spread.min));
		jw_put(c, fo, "max", jw_real(g->spread.max));
		for (i = 0; g->values && i < g->spread.n; i++)
			jw_push(c, vals, jw_real(g->values[i]));
		jw_put(c, fo, "values", vals);
		jw_put(c, figs, g->m.name, fo);
	}
	jw_put(c, o, "figures", figs);
	return o;
}

/* jobs[].baseline: null, or each headline figure against the baseline's. */
static json_t *j_unit_baseline(struct jw *c, const struct check_unit *cu)
{
	json_t *o, *figs, *fo;
	unsigned k;

	if (!cu || !cu->in_baseline)
		return json_null();
	o = json_object();
	figs = json_object();
	if (!o || !figs) {
		json_decref(o);
		json_decref(figs);
		return NULL;
	}
	for (k = 0; k < cu->nfigs; k++) {
		const struct check_fig *g = &cu->figs[k];

		if (!g->has_base)
			continue;
		fo = json_object();
		if (!fo) {
			c->failed = 1;
			break;
		}
		jw_put(c, fo, "value", jw_real(g->value));
		jw_put(c, fo, "baseline", jw_real(g->base));
		jw_put(c, fo, "change_pct", g->has_change ?
		    jw_real(g->change_pct) : json_null());
		jw_put(c, figs, g->m.name, fo);
	}
	jw_put(c, o, "figures", figs);
	return o;
}

static json_t *j_check(struct jw *c, const struct check_result *x)
{
	const struct check_def *d = x->def;
	const char *fn = check_func_name(d->x.func);
	json_t *o = json_object();
	char src[300];

	if (!o)
		return NULL;
	check_source(d, src, sizeof(src));
	jw_put(c, o, "expr", jw_str(d->text));
	jw_put(c, o, "job", jw_str(x->job->desc.name));
	jw_put(c, o, "sweep_point", x->job->plan.sweep_point ?
	    jw_str(x->job->plan.sweep_point) : json_null());
	jw_put(c, o, "clone", x->job->report.group_reporting ? json_null() :
	    json_integer(x->job->plan.clone));
	jw_put(c, o, "metric", jw_str(d->x.m.name));
	jw_put(c, o, "function", fn ? jw_str(fn) : json_null());
	jw_put(c, o, "op", jw_str(check_op_text(d->x.op)));
	jw_put(c, o, "value", x->status == CHECK_NA ? json_null() :
	    jw_real(x->value));
	jw_put(c, o, "threshold", x->has_threshold ? jw_real(x->threshold) :
	    json_null());
	jw_put(c, o, "baseline", x->has_base ? jw_real(x->base) : json_null());
	jw_put(c, o, "pass", x->status == CHECK_NA ? json_null() :
	    json_boolean(x->status == CHECK_PASS));
	jw_put(c, o, "reason", x->status == CHECK_NA ? jw_str(x->reason) :
	    json_null());
	jw_put(c, o, "source", jw_str(src));
	return o;
}

static json_t *j_checks(struct jw *c, const struct check_report *cr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && cr && i < cr->nresults; i++)
		jw_push(c, a, j_check(c, &cr->results[i]));
	return a;
}

/* The top-level "baseline": which file the comparisons are with. */
static json_t *j_baseline(struct jw *c, const struct check_report *cr)
{
	const struct baseline *b = cr ? cr->baseline : NULL;
	json_t *o;

	if (!b)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	jw_put(c, o, "file", jw_str(b->path));
	jw_put(c, o, "iorig_version", jw_str(b->version));
	jw_put(c, o, "time", jw_str(b->time));
	return o;
}

/* Unit u, the i-th of the report. */
static json_t *j_unit(struct jw *c, const struct run_result *r,
		      const struct result_unit *u, int i)
{
	const struct check_unit *cu = check_unit_at(r->checks, i);
	const struct job *j = u->job;
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "name", jw_str(j->desc.name));
	jw_put(c, o, "sweep_point", j->plan.sweep_point ?
	       jw_str(j->plan.sweep_point) :
	    json_null());
	jw_put(c, o, "clone", j->report.group_reporting ? json_null() :
	    json_integer(j->plan.clone));
	jw_put(c, o, "group", json_integer(j->plan.group));
	jw_put(c, o, "njobs", json_integer(u->njobs));
	jw_put(c, o, "ran", json_boolean(u->stats.nclones > 0));
	jw_put(c, o, "options", j_options(c, j));
	jw_put(c, o, "targets", j_targets(c, r, u));
	jw_put(c, o, "engine_setup", j_engine_setup(c, r, u));
	jw_put(c, o, "cpus", u->stats.cpus[0] ? jw_str(u->stats.cpus) :
	       json_null());
	put_result(c, o, &u->stats, j);
	jw_put(c, o, "steadystate", j_steady(c, u->stats.steady));
	jw_put(c, o, "zbd", j_zbd(c, u->stats.zbd));
	jw_put(c, o, "phase_cpu", j_phase(c, r, u));
	jw_put(c, o, "summary", j_summary(c, r, u));
	jw_put(c, o, "interval_ns", jw_u64(j->report.interval_ns));
	jw_put(c, o, "intervals", j_intervals(c, u->stats.intervals,
		j->report.interval_ns && !u->stats.nclones));
	jw_put(c, o, "repeats", j_repeats(c, cu));
	jw_put(c, o, "baseline", j_unit_baseline(c, cu));
	return o;
}

static json_t *j_group(struct jw *c, const struct result_set *rs,
		       unsigned id)
{
	const struct job_stats *g = &rs->groups[id];
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "group", json_integer(id));
	jw_put(c, o, "njobs", json_integer(rs->group_njobs ?
					   rs->group_njobs[id] : 0));
	jw_put(c, o, "njobs_ran", json_integer(g->nclones));
	put_result(c, o, g, rs->group_first ? rs->group_first[id] : NULL);
	jw_put(c, o, "interval_ns", jw_u64(g->intervals ?
				       g->intervals->interval_ns : 0));
	jw_put(c, o, "intervals", j_intervals(c, g->intervals, false));
	return o;
}

static json_t *j_host(struct jw *c, const struct run_result *r)
{
	json_t *o = json_object();
	char buf[sizeof(r->hostname)];

	if (!o)
		return NULL;
	snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(r->hostname) - 1,
		 r->hostname);
	jw_put(c, o, "hostname", jw_str(buf));
	snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(r->kernel) - 1,
		 r->kernel);
	jw_put(c, o, "kernel", jw_str(buf));
	jw_put(c, o, "ncpus", json_integer(r->ncpus));
	snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(r->cpu_model) - 1,
		 r->cpu_model);
	jw_put(c, o, "cpu_model", buf[0] ? jw_str(buf) : json_null());
	jw_put(c, o, "memory_bytes", r->memory_bytes ? jw_u64(r->memory_bytes) :
	    json_null());
	return o;
}

static json_t *j_signal(int signo)
{
	char buf[32];

	if (!signo)
		return json_null();
	return json_string(result_signal_name(signo, buf, sizeof(buf)));
}

/* The command line the run was started with, one string per argument. */
static json_t *j_argv(struct jw *c, const struct run_result *r)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < r->argc; i++)
		jw_push(c, a, jw_str(r->argv[i]));
	return a;
}

static void put_header(struct jw *c, json_t *root,
		       const struct run_result *r)
{
	char iso[64];

	result_time_iso(r->start_time, iso, sizeof(iso));
	jw_put(c, root, "schema_version", json_integer(JSON_SCHEMA_VERSION));
	jw_put(c, root, "iorig_version", jw_str(r->version ? r->version : ""));
	jw_put(c, root, "command_line", j_argv(c, r));
	jw_put(c, root, "timestamp", json_integer((json_int_t)r->start_time));
	jw_put(c, root, "time", json_string(iso));
	jw_put(c, root, "host", j_host(c, r));
	jw_put(c, root, "interrupted", json_boolean(r->signo != 0));
	jw_put(c, root, "signal", j_signal(r->signo));
	jw_put(c, root, "wall_ns", jw_u64(r->wall_ns));
	jw_put(c, root, "cpu", j_cpu(c, &r->proc_cpu));
}

/* Every warning of the run: {code, job, message}. */
static json_t *j_warnings(struct jw *c, const struct warn_list *w)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; a && i < w->n; i++) {
		o = json_object();
		jw_put(c, o, "code", jw_str(w->v[i].code));
		jw_put(c, o, "job", w->v[i].job ? jw_str(w->v[i].job) :
		       json_null());
		jw_put(c, o, "message", jw_str(w->v[i].msg));
		jw_push(c, a, o);
	}
	return a;
}

/* p50, p99, p99.9 of a curve point as {"50": ns, ...} (0: no sample). */
static json_t *j_curve_pcts(struct jw *c, const uint64_t *v)
{
	json_t *o = json_object();

	jw_put(c, o, "50", jw_u64(v[0]));
	jw_put(c, o, "99", jw_u64(v[1]));
	jw_put(c, o, "99.9", jw_u64(v[2]));
	return o;
}

/* A curve's point; the probe has no target, met or sched_lat. */
static json_t *j_curve_point(struct jw *c, const struct curve_point *pt,
			     bool probe)
{
	json_t *o = json_object();

	if (!probe) {
		jw_put(c, o, "target_pct", jw_real(pt->pct));
		jw_put(c, o, "target_iops", jw_real(pt->target_iops));
	}
	jw_put(c, o, "ran", json_boolean(pt->ran));
	jw_put(c, o, "achieved_iops", jw_real(pt->iops));
	if (!probe)
		jw_put(c, o, "met", json_boolean(pt->met));
	jw_put(c, o, "lat_ns", j_curve_pcts(c, pt->lat_ns));
	if (!probe)
		jw_put(c, o, "sched_lat_ns", j_curve_pcts(c, pt->sched_ns));
	return o;
}

/* rate_curve jobs: [{name, label, probe, points: [...]}]. */
static json_t *j_curves(struct jw *c, const struct run_result *r)
{
	struct curve_set cs;
	json_t *a, *o, *pts;
	char label[300];
	size_t k;
	unsigned i;

	if (curve_collect(r, &cs))
		return NULL;
	a = json_array();
	for (k = 0; a && k < cs.n; k++) {
		const struct curve *cv = &cs.c[k];

		o = json_object();
		pts = json_array();
		curve_label(cv, label, sizeof(label));
		jw_put(c, o, "name", jw_str(cv->job->desc.name));
		jw_put(c, o, "label", jw_str(label));
		jw_put(c, o, "probe", j_curve_point(c, &cv->pt[0], true));
		for (i = 1; pts && i < cv->npoints; i++)
			jw_push(c, pts, j_curve_point(c, &cv->pt[i], false));
		jw_put(c, o, "points", pts);
		jw_push(c, a, o);
	}
	curve_set_free(&cs);
	return a;
}

/* ---- a merged result's cluster part (result.h: cluster_info) ---- */

static json_t *j_done(struct jw *c, const struct cluster_info *ci,
		      const struct cluster_done *dn)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "at_ns", jw_u64(dn->at_ns));
	jw_put(c, o, "ios", jw_real(dn->ios));
	jw_put(c, o, "io_bytes", jw_real(dn->io_bytes));
	jw_put(c, o, "iops", jw_real(dn->iops));
	jw_put(c, o, "bw_bytes", jw_real(dn->bw));
	jw_put(c, o, "member", jw_str(ci->members[dn->member].label));
	return o;
}

static json_t *j_spread(struct jw *c, const struct cluster_info *ci,
			const struct cluster_spread *sp)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "min", jw_real(sp->min));
	jw_put(c, o, "median", jw_real(sp->median));
	jw_put(c, o, "max", jw_real(sp->max));
	jw_put(c, o, "slowest", jw_str(ci->members[sp->slowest].label));
	return o;
}

/* Each member's row of one direction of one job. */
static json_t *j_crows(struct jw *c, const struct cluster_info *ci,
		       const struct cluster_dir *x)
{
	json_t *a = json_array(), *o;
	unsigned i;

	for (i = 0; a && i < ci->nmembers; i++) {
		const struct cluster_member_info *m = &ci->members[i];
		const struct cluster_row *r = &x->rows[i];

		o = json_object();
		if (!o) {
			c->failed = 1;
			break;
		}
		jw_put(c, o, "label", jw_str(m->label));
		jw_put(c, o, "rank", json_integer(m->rank));
		jw_put(c, o, "host", jw_str(m->host));
		jw_put(c, o, "iops", jw_real(r->iops));
		jw_put(c, o, "bw_bytes", jw_real(r->bw));
		jw_put(c, o, "ios", jw_u64(r->ios));
		jw_put(c, o, "io_bytes", jw_u64(r->io_bytes));
		jw_put(c, o, "runtime_ns", jw_u64(r->runtime_ns));
		jw_put(c, o, "clat_p99_ns", jw_u64(r->clat_p99_ns));
		jw_push(c, a, o);
	}
	return a;
}

static json_t *j_chosts(struct jw *c, const struct cluster_info *ci,
			const struct cluster_dir *x)
{
	json_t *a = json_array(), *o;
	unsigned i;

	for (i = 0; a && i < ci->nhosts; i++) {
		const struct cluster_host_row *h = &x->hosts[i];

		o = json_object();
		if (!o) {
			c->failed = 1;
			break;
		}
		jw_put(c, o, "host", jw_str(ci->hosts[h->host]));
		jw_put(c, o, "members", json_integer(h->members));
		jw_put(c, o, "iops", jw_real(h->iops));
		jw_put(c, o, "bw_bytes", jw_real(h->bw));
		jw_put(c, o, "ios", jw_u64(h->ios));
		jw_put(c, o, "io_bytes", jw_u64(h->io_bytes));
		jw_push(c, a, o);
	}
	return a;
}

static json_t *j_cdir(struct jw *c, const struct cluster_info *ci,
		      const struct cluster_dir *x)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "common_window_ns", jw_u64(x->common_window_ns));
	jw_put(c, o, "first_done", j_done(c, ci, &x->first));
	jw_put(c, o, "last_done", j_done(c, ci, &x->last));
	jw_put(c, o, "iops_spread", j_spread(c, ci, &x->iops));
	jw_put(c, o, "bw_spread", j_spread(c, ci, &x->bw));
	jw_put(c, o, "members", j_crows(c, ci, x));
	jw_put(c, o, "hosts", j_chosts(c, ci, x));
	return o;
}

/* A member's own figures of one job (its rank: checks and fio's client
 * entries read them). */
static json_t *j_member_job(struct jw *c, const struct cluster_unit *cu)
{
	const struct job_stats *s = &cu->u.stats;
	const struct job *j = cu->u.job;
	json_t *o = json_object(), *cpu;
	int d;

	if (!o)
		return NULL;
	jw_put(c, o, "name", jw_str(j->desc.name));
	jw_put(c, o, "clone", j->report.group_reporting ? json_null() :
	       json_integer(j->plan.clone));
	jw_put(c, o, "group", json_integer(j->plan.group));
	jw_put(c, o, "error", j_error(c, s));
	jw_put(c, o, "runtime_ns", jw_u64(s->runtime_ns));
	jw_put(c, o, "sync", j_sync(c, &s->sync, j));
	cpu = j_cpu(c, &s->cpu);
	if (cpu)
		jw_put(c, cpu, "us_per_io", jw_real(stats_cpu_us_per_io(s)));
	jw_put(c, o, "cpu", cpu);
	for (d = 0; d < DDIR_NR; d++)
		jw_put(c, o, dir_key[d],
		       j_dir(c, &s->dir[d], s->runtime_ns, j,
			     s->nmeasured || !s->nclones));
	jw_put(c, o, "iodepth", j_depth(c, &s->depth));
	jw_put(c, o, "summary", cu->has_row ? j_row(c, &cu->row) :
	       json_null());
	jw_put(c, o, "verify", j_verify(c, s, j));
	return o;
}

/* Member i of ci without its jobs. */
static json_t *j_cmember_head(struct jw *c, const struct cluster_info *ci,
			      unsigned i)
{
	const struct cluster_member_info *m = &ci->members[i];
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "label", jw_str(m->label));
	jw_put(c, o, "rank", json_integer(m->rank));
	jw_put(c, o, "host", jw_str(m->host));
	jw_put(c, o, "start_skew_ns", jw_real(m->start_skew_ns));
	jw_put(c, o, "wall_ns", jw_u64(m->wall_ns));
	jw_put(c, o, "interrupted", json_boolean(m->interrupted));
	return o;
}

/* Member i of ci, its units made whole in buf one at a time. */
static json_t *j_cmember(struct jw *c, const struct cluster_info *ci,
			 unsigned i, struct cluster_unit *buf)
{
	json_t *o = j_cmember_head(c, ci, i), *jobs = json_array();
	unsigned k;

	if (!o || !jobs) {
		json_decref(o);
		json_decref(jobs);
		return NULL;
	}
	for (k = 0; k < ci->njobs; k++) {
		cluster_member_unit(ci, i, k, buf);
		jw_push(c, jobs, j_member_job(c, buf));
	}
	jw_put(c, o, "jobs", jobs);
	return o;
}

/* later: the members left to report_json (a mark in their place:
 * jsonw.h, jw_dump_array_at) */
static json_t *j_cluster(struct jw *c, const struct cluster_info *ci,
			 const struct result_set *rs, bool later)
{
	json_t *o = json_object(), *mem = json_array(), *hosts = json_array();
	json_t *jobs = json_array(), *x;
	struct cluster_unit *buf = malloc(sizeof(*buf));
	unsigned i;
	int d;

	if (!o || !mem || !hosts || !jobs || !buf) {
		json_decref(o);
		json_decref(mem);
		json_decref(hosts);
		json_decref(jobs);
		free(buf);
		return NULL;
	}
	for (i = 0; i < ci->nmembers && !later; i++)
		jw_push(c, mem, j_cmember(c, ci, i, buf));
	free(buf);
	for (i = 0; i < ci->nhosts; i++)
		jw_push(c, hosts, jw_str(ci->hosts[i]));
	for (i = 0; i < ci->njobs && i < (unsigned)rs->nunits; i++) {
		const struct job *j = rs->units[i].job;

		x = json_object();
		if (!x) {
			c->failed = 1;
			break;
		}
		jw_put(c, x, "name", jw_str(j->desc.name));
		jw_put(c, x, "clone", j->report.group_reporting ? json_null() :
		       json_integer(j->plan.clone));
		jw_put(c, x, "group", json_integer(j->plan.group));
		for (d = 0; d < DDIR_NR; d++)
			jw_put(c, x, dir_key[d],
			       j_cdir(c, ci, &ci->jobs[i].dir[d]));
		jw_push(c, jobs, x);
	}
	jw_put(c, o, "nmembers", json_integer(ci->nmembers));
	jw_put(c, o, "nhosts", json_integer(ci->nhosts));
	jw_put(c, o, "start_skew_max_ns", jw_real(ci->start_skew_max_ns));
	if (later) {
		json_decref(mem);
		mem = jw_mark();
	}
	jw_put(c, o, "members", mem);
	jw_put(c, o, "hosts", hosts);
	jw_put(c, o, "jobs", jobs);
	return o;
}

static json_t *j_root(struct jw *c, const struct run_result *r,
		      const struct result_set *rs, bool later)
{
	const struct result_unit *u = rs->units;
	json_t *root = json_object();
	json_t *jobs = json_array();
	json_t *groups = json_array();
	int i;

	if (!root || !jobs || !groups) {
		json_decref(jobs);
		json_decref(groups);
		json_decref(root);
		return NULL;
	}
	put_header(c, root, r);
	for (i = 0; i < rs->nunits; i++)
		if (!u[i].hidden)
			jw_push(c, jobs, j_unit(c, r, &u[i], i));
	for (i = 0; i < rs->ngroups; i++)
		jw_push(c, groups, j_group(c, rs, (unsigned)i));
	jw_put(c, root, "jobs", jobs);
	jw_put(c, root, "groups", groups);
	jw_put(c, root, "curves", j_curves(c, r));
	jw_put(c, root, "disk_util", j_disks(c, &r->disks));
	jw_put(c, root, "nvme", j_nvme(c, &r->nvme));
	jw_put(c, root, "checks", j_checks(c, r->checks));
	jw_put(c, root, "baseline", j_baseline(c, r->checks));
	jw_put(c, root, "warnings", j_warnings(c, &r->warnings));
	if (r->cluster)
		jw_put(c, root, "cluster", j_cluster(c, r->cluster, rs,
						     later));
	return root;
}

int report_json_doc(const struct run_result *r, json_t **doc)
{
	struct result_set rs;
	struct jw c = { 0 };
	json_t *root;
	int ret;

	*doc = NULL;
	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	root = j_root(&c, r, &rs, false);
	result_set_free(&rs);
	if (!root || c.failed) {
		json_decref(root);
		return -ENOMEM;
	}
	*doc = root;
	return 0;
}

/* A member of a cluster document, made when jw_dump_array_at asks. */
struct members_arg {
	struct jw *c;
	const struct cluster_info *ci;
	struct cluster_unit *buf;
	unsigned member;		/* the one being printed */
};

/* Job k of the member being printed, made whole in buf, as a tree with
 * its histograms' buckets deferred (printed from buf, which holds one
 * job: jw_out_array prints and frees each before the next). */
static json_t *member_job_make(void *arg, size_t k)
{
	struct members_arg *a = arg;
	json_t *t;

	cluster_member_unit(a->ci, a->member, (unsigned)k, a->buf);
	a->c->defer = true;
	t = j_member_job(a->c, a->buf);
	a->c->defer = false;
	if (t && a->c->failed) {
		json_decref(t);
		t = NULL;
	}
	return t;
}

/* The jobs of the member being printed, one at a time. */
static int member_jobs_write(struct jw_out *o, unsigned depth, void *arg)
{
	struct members_arg *a = arg;

	return jw_out_array(o, depth, a->ci->njobs, member_job_make, a);
}

static json_t *member_make(void *arg, size_t i)
{
	struct members_arg *a = arg;
	json_t *o = j_cmember_head(a->c, a->ci, (unsigned)i);

	a->member = (unsigned)i;
	if (o)
		jw_put(a->c, o, "jobs", jw_defer(a->c, member_jobs_write, a));
	return o;
}

/*
 * A cluster document: all but its members made, then printed with each
 * member made, printed and freed in turn in their place
 * (cluster.members), each of its jobs made and printed in turn, and
 * their histograms' buckets printed from the member's figures: their
 * own figures are most of a large cluster's document, which is never
 * whole in memory, nor a member's as a tree.
 */
static int cluster_json(FILE *f, const struct run_result *r)
{
	struct result_set rs;
	struct jw c = { 0 };
	struct members_arg a = { .c = &c, .ci = r->cluster };
	json_t *root;
	int ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	root = j_root(&c, r, &rs, true);
	result_set_free(&rs);
	a.buf = malloc(sizeof(*a.buf));
	ret = !root || c.failed || !a.buf ? -ENOMEM :
	      jw_dump_array_at(f, &c, root, "members", member_make, &a,
			       r->cluster->nmembers);
	if (!ret && c.failed)
		ret = -ENOMEM;
	json_decref(root);
	jw_release(&c);
	free(a.buf);
	return ret;
}

int report_json(FILE *f, const struct run_result *r)
{
	json_t *root;
	int ret;

	if (r->cluster)
		return cluster_json(f, r);
	ret = report_json_doc(r, &root);
	if (ret)
		return ret;
	ret = jw_dump(f, root);
	json_decref(root);
	return ret;
}
