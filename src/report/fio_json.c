// SPDX-License-Identifier: MIT
/*
 * --output-format=fio-json: the layout fio 3.x writes with
 * --output-format=json, for the figures both tools have, so that scripts
 * and plotting tools written for fio read iorig's results unchanged.
 * Written from fio's documented output and observed layout; no fio code.
 *
 * Units follow fio, not iorig: "bw" and "bw_min".. are KiB/s, "runtime"
 * and "job_runtime" ms, "elapsed" s, the *_ns latency objects ns,
 * "usr_cpu"/"sys_cpu" and the latency_* and iodepth_* maps percent.
 * Figures iorig does not measure are 0 (trim, dropped I/Os), as fio
 * itself writes them; the man page lists them. Bandwidth and IOPS samples
 * and the queue depth maps are measured (stats.h).
 *
 * slat_ns, clat_ns and lat_ns are the worker's histograms unchanged: their
 * stamps (man page, TIMESTAMPS) already have fio's meaning, the submitting
 * system call in slat. The one difference: an I/O done inside that call
 * has clat 0 here, fio's time-to-look (0.1-2 us) there.
 *
 * One "jobs" member per reported unit (result_units), as fio gives one
 * per group with group_reporting and one per clone without; "job options"
 * are the options as given in the job's own section (and, for a sweep
 * point, its values), "global options" those of the [global] sections.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "options.h"
#include "profile.h"
#include "jsonw.h"
#include "report.h"
#include "fio_int.h"

/* ns -> whole ms. */
static uint64_t ms_of(uint64_t ns)
{
	return ns / 1000000;
}

/* ---- latency objects ---- */

/*
 * {"min", "max", "mean", "stddev", "N"} and, when the job asks for its
 * percentiles and there are samples, "percentile" keyed as fio keys it:
 * the percentile with six decimals ("99.900000"). h NULL: no samples.
 */
static json_t *f_lat(struct jw *c, const struct hist *h,
		     const struct job *j, bool pct, bool bins)
{
	json_t *o = json_object(), *p;
	bool empty = !h || !h->count;
	char key[48];
	unsigned i;

	if (!o)
		return NULL;
	jw_put(c, o, "min", jw_u64(empty ? 0 : h->min));
	jw_put(c, o, "max", jw_u64(empty ? 0 : h->max));
	jw_put(c, o, "mean", jw_real(empty ? 0.0 : hist_mean(h)));
	jw_put(c, o, "stddev", jw_real(empty ? 0.0 : hist_stddev(h)));
	jw_put(c, o, "N", jw_u64(empty ? 0 : h->count));
	if (empty || !pct || !j || !j->report.npercentiles)
		return o;
	p = json_object();
	for (i = 0; p && i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		snprintf(key, sizeof(key), "%f", j->report.percentile_list[i]);
		jw_put(c, p, key,
		    jw_u64(hist_percentile(h, j->report.percentile_list[i])));
	}
	jw_put(c, o, "percentile", p);
	if (bins)
		jw_put(c, o, "bins", fio_bins(c, h));
	return o;
}

/*
 * The bw_avg_time / iops_avg_time samples as fio gives them: bandwidth in
 * KiB/s (min and max whole), IOPS per second; bw_agg is the samples' mean
 * as a per cent of the group's aggregate bandwidth group_bps (fio_bw_agg).
 */
static void put_samples(struct jw *c, json_t *o, const struct dir_stats *d,
			double group_bps)
{
	const struct smp_stat *b = &d->bw_smp, *i = &d->iops_smp;

	jw_put(c, o, "bw_min", jw_u64((uint64_t)(b->min / 1024.0)));
	jw_put(c, o, "bw_max", jw_u64((uint64_t)(b->max / 1024.0)));
	jw_put(c, o, "bw_agg", jw_real(fio_bw_agg(b, group_bps)));
	jw_put(c, o, "bw_mean", jw_real(b->mean / 1024.0));
	jw_put(c, o, "bw_dev", jw_real(smp_stddev(b) / 1024.0));
	jw_put(c, o, "bw_samples", jw_u64(b->n));
	jw_put(c, o, "iops_min", jw_u64((uint64_t)i->min));
	jw_put(c, o, "iops_max", jw_u64((uint64_t)i->max));
	jw_put(c, o, "iops_mean", jw_real(i->mean));
	jw_put(c, o, "iops_stddev", jw_real(smp_stddev(i)));
	jw_put(c, o, "iops_samples", jw_u64(i->n));
}

/*
 * cmdprio: "prios", one member per I/O priority that has I/Os, with its
 * class, its level and its latencies (lat_ns with lat_percentiles=1, else
 * clat_ns), as fio gives them when two priorities or more have I/Os; n
 * entries v (NULL: none).
 */
static void put_prios(struct jw *c, json_t *o, const struct prio_stats *ps,
		      unsigned pd, const struct job *j, bool plus)
{
	unsigned i, used = 0;
	json_t *a, *e;

	for (i = 0; ps && i < ps->n[pd]; i++)
		used += ps->v[pd][i].h.count != 0;
	if (used < 2)
		return;
	a = json_array();
	for (i = 0; a && i < ps->n[pd]; i++) {
		const struct prio_lat *p = &ps->v[pd][i];

		if (!p->h.count)
			continue;
		e = json_object();
		if (!e)
			break;
		jw_put(c, e, "prioclass", json_integer(p->ioprio >> 13));
		jw_put(c, e, "prio", json_integer(p->ioprio & 7));
		jw_put(c, e, ps->lat ? "lat_ns" : "clat_ns",
		       f_lat(c, &p->h, j, j->report.clat_percentiles ||
			     j->report.lat_percentiles, plus));
		jw_push(c, a, e);
	}
	jw_put(c, o, "prios", a);
}

/*
 * One direction as fio counts it (fio_dir_view: verification reads in the
 * reads) over its runtime rt (0 without I/O, as in fio). group_bps: the
 * reporting group's aggregate bandwidth that direction (bw_agg). ps: the
 * unit's latencies per priority (NULL: none), direction pd of it.
 */
static json_t *f_dir(struct jw *c, const struct dir_stats *d, uint64_t rt,
		     const struct job *j, bool plus, double group_bps,
		     const struct prio_stats *ps, unsigned pd)
{
	json_t *o = json_object();
	uint64_t bw;

	if (!o)
		return NULL;
	bw = (uint64_t)llround(stats_bw(d, rt));
	jw_put(c, o, "io_bytes", jw_u64(d->bytes));
	jw_put(c, o, "io_kbytes", jw_u64(d->bytes / 1024));
	jw_put(c, o, "bw_bytes", jw_u64(bw));
	jw_put(c, o, "bw", jw_u64(bw / 1024));
	/* fio counts the I/Os issued after ramp_time, their bytes done */
	jw_put(c, o, "iops", jw_real(rt ? (double)(d->ios - d->ramp_ios) *
				     1e9 / (double)rt : 0.0));
	jw_put(c, o, "runtime", jw_u64(ms_of(rt)));
	jw_put(c, o, "total_ios", jw_u64(d->ios - d->ramp_ios));
	jw_put(c, o, "short_ios", jw_u64(d->short_ios));
	jw_put(c, o, "drop_ios", jw_u64(d->dropped_ios));
	jw_put(c, o, "slat_ns", f_lat(c, &d->slat, j,
	       j && j->report.slat_percentiles, plus));
	jw_put(c, o, "clat_ns", f_lat(c, &d->clat, j,
	       j && j->report.clat_percentiles, plus));
	jw_put(c, o, "lat_ns",
	       f_lat(c, &d->lat, j, j && j->report.lat_percentiles,
		     plus));
	if (j)
		put_prios(c, o, ps, pd, j, plus);
	put_samples(c, o, d, group_bps);
	return o;
}

/*
 * fsync=N and fdatasync=N calls, as fio's "sync": their count and
 * latencies, percentiles when clat's or lat's are asked for.
 */
static json_t *f_sync(struct jw *c, const struct hist *h, const struct job *j,
		      bool plus)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "total_ios", jw_u64(h->count));
	jw_put(c, o, "lat_ns",
	       f_lat(c, h, j, j && (j->report.clat_percentiles ||
				   j->report.lat_percentiles), plus));
	return o;
}

/* ---- latency distribution: fio's latency_ns, _us, _ms maps ---- */

static const struct {
	const char *key;
	unsigned first, n;	/* slots of fio_lat_edge_ns (n: + the open one) */
	uint64_t div;
} lat_maps[] = {
	{ "latency_ns", 0, 10, 1 },
	{ "latency_us", 10, 10, 1000 },
	{ "latency_ms", 20, 12, 1000000 },
};

void fio_put_lat_maps(struct jw *c, json_t *o, const struct job_stats *s)
{
	double shares[FIO_LAT_SLOTS];
	char key[24];
	unsigned m, k, slot;
	json_t *map;

	fio_lat_shares(s, shares, 0.01);
	for (m = 0; m < sizeof(lat_maps) / sizeof(lat_maps[0]); m++) {
		map = json_object();
		for (k = 0; map && k < lat_maps[m].n; k++) {
			slot = lat_maps[m].first + k;
			if (slot < FIO_LAT_EDGES)
				snprintf(key, sizeof(key), "%llu",
					 (unsigned long long)
					 (fio_lat_edge_ns[slot] /
					  lat_maps[m].div));
			else
				snprintf(key, sizeof(key), ">=%llu",
					 (unsigned long long)
					 (fio_lat_edge_ns[FIO_LAT_EDGES - 1] /
					  lat_maps[m].div));
			jw_put(c, map, key, jw_real(shares[slot]));
		}
		jw_put(c, o, lat_maps[m].key, map);
	}
}

/*
 * fio's queue depth maps: per cent of counts[] (DEPTH_NB buckets, stats.h)
 * under fio's keys; level counts I/Os, submit and complete calls.
 */
json_t *fio_depth_map(struct jw *c, const char *const *keys,
		      const uint64_t *counts)
{
	double p[DEPTH_NB];
	json_t *o = json_object();
	unsigned i;

	fio_depth_shares(counts, p);
	for (i = 0; o && keys[i]; i++)
		jw_put(c, o, keys[i], jw_real(p[i]));
	return o;
}

/* ---- options as given ---- */

/*
 * Set key from a raw option, under the option's main name. A flag given
 * without a value ("time_based") is left out, as fio leaves it out.
 */
static void put_raw_opt(struct jw *c, json_t *o, const char *name,
			const char *value)
{
	const struct opt_def *d = options_find(name);

	if (value)
		jw_put(c, o, d ? d->name : name, jw_str(value));
}

static json_t *f_section_opts(struct jw *c, json_t *o,
			      const struct raw_section *sec)
{
	size_t i;

	for (i = 0; o && i < sec->nopts; i++)
		put_raw_opt(c, o, sec->opts[i].name, sec->opts[i].value);
	return o;
}

/*
 * The options of the command line's profile as given (fio lists them as
 * global options: --device-names=... of act), then the [global] sections'
 * options, later ones winning.
 */
static json_t *f_global_opts(struct jw *c, const struct run_result *r)
{
	const struct raw_doc *doc = r->doc;
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && r->profile && r->profile->opts[i].name; i++)
		if (r->profile_vals[i])
			jw_put(c, o, r->profile->opts[i].name,
			       jw_str(r->profile_vals[i]));
	for (i = 0; o && doc && i < doc->nsecs; i++)
		if (doc->secs[i].is_global)
			f_section_opts(c, o, &doc->secs[i]);
	return o;
}

/* An options object, left out when empty as fio leaves it out. */
static void put_opts(struct jw *c, json_t *o, const char *key, json_t *opts)
{
	if (opts && !json_object_size(opts))
		json_decref(opts);
	else
		jw_put(c, o, key, opts);
}

/* "bs=4k iodepth=8" over o; "sweep" itself goes, as fio has no such. */
static void put_sweep_point(struct jw *c, json_t *o, const char *point)
{
	char *copy = strdup(point), *save = NULL, *tok, *eq;

	if (!copy) {
		c->failed = 1;
		return;
	}
	json_object_del(o, "sweep");
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		put_raw_opt(c, o, tok, eq + 1);
	}
	free(copy);
}

/*
 * The options of j's own section as given. A job of the command line
 * also has its --name, as fio gives it.
 */
static json_t *f_job_opts(struct jw *c, const struct run_result *r,
			  const struct job *j)
{
	const struct raw_section *sec = NULL;
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && r->doc && i < r->doc->nsecs; i++) {
		const struct raw_section *s = &r->doc->secs[i];

		if (!s->is_global && s->line == j->plan.section_line &&
		    j->plan.section_file &&
		    !strcmp(s->file, j->plan.section_file)) {
			sec = s;
			break;
		}
	}
	if (!o || !sec)
		return o;
	if (!strcmp(sec->file, ERR_CMDLINE) ||
	    !strcmp(sec->file, ERR_PROFILE))
		jw_put(c, o, "name", jw_str(sec->name));
	f_section_opts(c, o, sec);
	if (j->plan.sweep_point)
		put_sweep_point(c, o, j->plan.sweep_point);
	return o;
}

/* ---- jobs ---- */

/*
 * fio's job_runtime is rt, the runtimes of the unit's jobs that ran (all
 * its clones and runs) summed; its CPU figures are per cent of that.
 */
static void put_cpu(struct jw *c, json_t *o, const struct result_unit *u,
		    uint64_t rt)
{
	const struct cpu_usage *cpu = &u->stats.cpu;

	jw_put(c, o, "job_runtime", jw_u64(ms_of(rt)));
	jw_put(c, o, "usr_cpu", jw_real(rt ? 100.0 * (double)cpu->utime_ns /
				   (double)rt : 0.0));
	jw_put(c, o, "sys_cpu", jw_real(rt ? 100.0 * (double)cpu->stime_ns /
				   (double)rt : 0.0));
	jw_put(c, o, "ctx", jw_u64(cpu->vcsw + cpu->ivcsw));
	jw_put(c, o, "majf", jw_u64(cpu->majflt));
	jw_put(c, o, "minf", jw_u64(cpu->minflt));
}

/*
 * Whole seconds of the unit's phase (of all its runs' phases), rounded
 * up; 0 when it never ran.
 */
static uint64_t unit_elapsed_s(const struct run_result *r,
			       const struct result_unit *u)
{
	struct phase_cpu ph;

	if (!u->stats.nclones || !result_unit_phase(r, u, &ph))
		return 0;
	return (ph.wall_ns + 999999999) / 1000000000;
}

/*
 * read, write, trim; with unified_rw_reporting=mixed one "mixed" instead,
 * with both, "mixed" after them, as fio gives them.
 */
static void put_dirs(struct jw *c, json_t *o, const struct run_result *r,
		     const struct result_set *rs, int unit, bool plus)
{
	static const char *const names[] = { "read", "write", "trim" };
	const struct job_stats *s = &rs->units[unit].stats;
	const struct job *j = rs->units[unit].job;
	struct prio_stats *ps = NULL;
	const struct dir_stats *v;
	struct dir_stats buf;
	uint64_t rt;
	int d;

	if (j->report.unified_rw_reporting != UNIFIED_MIXED &&
	    result_unit_prios(r, rs, unit, false, &ps))
		c->failed = true;
	for (d = 0; d < DDIR_NR &&
	     j->report.unified_rw_reporting != UNIFIED_MIXED; d++) {
		v = fio_dir_view(s, d, &buf, &rt);
		jw_put(c, o, names[d], f_dir(c, v, rt, j, plus,
					     fio_group_bw(rs, j, d), ps,
					     (unsigned)d));
	}
	prio_stats_free(ps);
	if (j->report.unified_rw_reporting == UNIFIED_NONE)
		return;
	if (result_unit_prios(r, rs, unit, true, &ps))
		c->failed = true;
	v = fio_dir_view(s, DDIR_NR, &buf, &rt);
	jw_put(c, o, "mixed", f_dir(c, v, rt, j, plus,
				    fio_group_bw(rs, j, DDIR_NR), ps, 0));
	prio_stats_free(ps);
}

/*
 * fio's "steadystate": the criterion as text, the window's duration in
 * seconds, whether attained, the last criterion value and the figure it
 * was made of (the other 0, as fio computes only that one), the window's
 * samples (oldest first; bw in bytes/s as fio's) and their means, over
 * the whole window as fio gives them: a window not yet full is padded
 * with zeros (all zeros when the job never left ss_ramp).
 */
static json_t *f_steady(struct jw *c, const struct steady_rec *r)
{
	json_t *o = json_object(), *data = json_object();
	json_t *iops = json_array(), *bw = json_array();
	uint64_t sum_bw = 0, sum_iops = 0;
	long long v_bw, v_iops;
	char buf[64];
	unsigned k;
	bool slope;

	if (!o || !data || !iops || !bw) {
		json_decref(o);
		json_decref(data);
		json_decref(iops);
		json_decref(bw);
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s:%f%s", steady_kind_name(r->crit.kind),
		 r->crit.limit, r->crit.pct ? "%" : "");
	jw_put(c, o, "ss", jw_str(buf));
	jw_put(c, o, "duration", jw_u64(r->dur_ns / 1000000000));
	jw_put(c, o, "attained", json_integer(r->attained));
	snprintf(buf, sizeof(buf), "%f%s", r->criterion,
		 r->crit.pct ? "%" : "");
	jw_put(c, o, "criterion", jw_str(buf));
	slope = steady_is_slope(r->crit.kind);
	jw_put(c, o, "max_deviation", jw_real(slope ? 0.0 : r->deviation));
	jw_put(c, o, "slope", jw_real(slope ? r->slope : 0.0));
	for (k = 0; k < r->n; k++) {
		v_bw = k < r->count ? llround(r->bw[steady_at(r, k)]) : 0;
		v_iops = k < r->count ? llround(r->iops[steady_at(r, k)]) : 0;
		jw_push(c, bw, jw_u64((uint64_t)v_bw));
		jw_push(c, iops, jw_u64((uint64_t)v_iops));
		sum_bw += (uint64_t)v_bw;
		sum_iops += (uint64_t)v_iops;
	}
	jw_put(c, data, "bw_mean", jw_u64(r->n ? sum_bw / r->n : 0));
	jw_put(c, data, "iops_mean", jw_u64(r->n ? sum_iops / r->n : 0));
	jw_put(c, data, "iops", iops);
	jw_put(c, data, "bw", bw);
	jw_put(c, o, "data", data);
	return o;
}

/* Unit u of rs, whose jobs' runtimes add up to rt_ns. */
static json_t *f_job(struct jw *c, const struct run_result *r,
		     const struct result_set *rs,
		     const struct result_unit *u, uint64_t rt_ns, bool plus)
{
	const struct job_stats *s = &u->stats;
	const struct job *j = u->job;
	uint64_t sub[DEPTH_NB], cmp[DEPTH_NB];
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "jobname", jw_str(j->desc.name));
	jw_put(c, o, "groupid", json_integer(j->plan.group));
	jw_put(c, o, "error", json_integer(fio_unit_errno(s)));
	jw_put(c, o, "eta", json_integer(0));
	jw_put(c, o, "elapsed", jw_u64(unit_elapsed_s(r, u)));
	put_opts(c, o, "job options", f_job_opts(c, r, j));
	put_dirs(c, o, r, rs, (int)(u - rs->units), plus);
	jw_put(c, o, "sync", f_sync(c, &s->sync, j, plus));
	put_cpu(c, o, u, u->stats.nclones ? rt_ns : 0);
	stats_depth_fold(&s->depth, sub, cmp);
	jw_put(c, o, "iodepth_level", fio_depth_map(c, depth_level_keys,
						  s->depth.level));
	jw_put(c, o, "iodepth_submit", fio_depth_map(c, depth_batch_keys, sub));
	jw_put(c, o, "iodepth_complete", fio_depth_map(c, depth_batch_keys,
						     cmp));
	fio_put_lat_maps(c, o, s);
	/* fio sets the depth when the I/O starts: a create_only job, which
	 * does none, has no latency_* keys. */
	if (!j->target.create_only) {
		jw_put(c, o, "latency_depth", jw_u64(j->err.latency_target_ns ?
						       s->latency_depth :
						       j->eng.iodepth));
		jw_put(c, o, "latency_target",
		       jw_u64(j->err.latency_target_ns));
		jw_put(c, o, "latency_percentile",
		       json_real(j->err.latency_percentile));
		jw_put(c, o, "latency_window",
		       jw_u64(j->err.latency_window_ns / 1000));
	}
	if (s->steady)
		jw_put(c, o, "steadystate", f_steady(c, s->steady));
	return o;
}

/* ---- disk_util ---- */

static json_t *f_disk(struct jw *c, const struct sysinfo_disk_use *u)
{
	const struct sysinfo_diskstat *d = &u->sum;
	json_t *o = json_object();
	double util = sysinfo_disk_util(u);

	if (!o)
		return NULL;
	jw_put(c, o, "name", jw_str(d->name));
	jw_put(c, o, "read_ios", jw_u64(d->rd_ios));
	jw_put(c, o, "write_ios", jw_u64(d->wr_ios));
	jw_put(c, o, "read_merges", jw_u64(d->rd_merges));
	jw_put(c, o, "write_merges", jw_u64(d->wr_merges));
	jw_put(c, o, "read_ticks", jw_u64(d->rd_ticks));
	jw_put(c, o, "write_ticks", jw_u64(d->wr_ticks));
	jw_put(c, o, "in_queue", jw_u64(d->time_in_queue));
	jw_put(c, o, "util", jw_real(util));
	return o;
}

/* ---- the document ---- */

static void put_header(struct jw *c, json_t *root,
		       const struct run_result *r)
{
	char ver[64], when[64] = "";
	struct tm tm;

	/* ctime(3)'s layout, local time, without its newline. */
	if (localtime_r(&r->start_time, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jw_put(c, root, "fio version",
	       jw_str(fio_version_tag(r, ver, sizeof(ver))));
	jw_put(c, root, "timestamp", json_integer((json_int_t)r->start_time));
	jw_put(c, root, "timestamp_ms",
	       json_integer((json_int_t)r->start_time_ms));
	jw_put(c, root, "time", jw_str(when));
	put_opts(c, root, "global options", f_global_opts(c, r));
}

/* plus: json+, the histograms' bins with their percentiles. */
static int fio_write(FILE *f, const struct run_result *r, bool plus)
{
	struct result_set rs;
	struct jw c = { 0 };
	json_t *root, *jobs, *disks;
	uint64_t *rt;
	size_t i;
	unsigned k;
	int ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	root = json_object();
	jobs = json_array();
	disks = json_array();
	rt = fio_unit_runtimes(r, &rs);
	if (!root || !jobs || !disks || !rt) {
		json_decref(jobs);
		json_decref(disks);
		ret = -ENOMEM;
		goto out;
	}
	put_header(&c, root, r);
	for (i = 0; i < (size_t)rs.nunits; i++)
		if (!rs.units[i].hidden)
			jw_push(&c, jobs, f_job(&c, r, &rs, &rs.units[i], rt[i],
						plus));
	jw_put(&c, root, "jobs", jobs);
	for (k = 0; k < r->disks.n; k++)
		jw_push(&c, disks, f_disk(&c, &r->disks.d[k]));
	/* fio leaves disk_util out when no disk was watched */
	if (r->disks.n)
		jw_put(&c, root, "disk_util", disks);
	else
		json_decref(disks);
	if (c.failed) {
		ret = -ENOMEM;
		goto out;
	}
	ret = jw_dump(f, root);
out:
	json_decref(root);
	free(rt);
	result_set_free(&rs);
	return ret;
}

int report_fio(FILE *f, const struct run_result *r)
{
	return fio_write(f, r, false);
}

int report_fio_plus(FILE *f, const struct run_result *r)
{
	return fio_write(f, r, true);
}
