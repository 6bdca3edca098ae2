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
 * Figures iorig does not measure are 0 (bandwidth and IOPS samples, queue
 * depth distributions, trim, dropped I/Os), as fio itself writes
 * them when it has no samples; the man page lists them.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "options.h"
#include "jsonw.h"
#include "report.h"

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
		     const struct job *j, bool pct)
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
	if (empty || !pct || !j || !j->npercentiles)
		return o;
	p = json_object();
	for (i = 0; p && i < j->npercentiles && i < JOB_MAX_PERCENTILES; i++) {
		snprintf(key, sizeof(key), "%f", j->percentile_list[i]);
		jw_put(c, p, key,
		    jw_u64(hist_percentile(h, j->percentile_list[i])));
	}
	jw_put(c, o, "percentile", p);
	return o;
}

/* Bandwidth and IOPS sample statistics: iorig takes no samples. */
static const struct {
	const char *key;
	bool real;
} sample_keys[] = {
	{ "bw_min", false }, { "bw_max", false }, { "bw_agg", true },
	{ "bw_mean", true }, { "bw_dev", true }, { "bw_samples", false },
	{ "iops_min", false }, { "iops_max", false }, { "iops_mean", true },
	{ "iops_stddev", true }, { "iops_samples", false },
};

static void put_samples(struct jw *c, json_t *o)
{
	size_t i;

	for (i = 0; i < sizeof(sample_keys) / sizeof(sample_keys[0]); i++)
		jw_put(c, o, sample_keys[i].key, sample_keys[i].real ?
		    json_real(0.0) : json_integer(0));
}

/*
 * One direction. runtime_ns is the unit's; a direction without I/O has
 * runtime 0, as in fio. d NULL: a direction without figures.
 */
static json_t *f_dir(struct jw *c, const struct dir_stats *d,
		     uint64_t runtime_ns, const struct job *j)
{
	static const struct dir_stats none;
	json_t *o = json_object();
	uint64_t rt, bw;

	if (!o)
		return NULL;
	if (!d)
		d = &none;
	rt = d->ios ? runtime_ns : 0;
	bw = (uint64_t)llround(stats_bw(d, rt));
	jw_put(c, o, "io_bytes", jw_u64(d->bytes));
	jw_put(c, o, "io_kbytes", jw_u64(d->bytes / 1024));
	jw_put(c, o, "bw_bytes", jw_u64(bw));
	jw_put(c, o, "bw", jw_u64(bw / 1024));
	jw_put(c, o, "iops", jw_real(stats_iops(d, rt)));
	jw_put(c, o, "runtime", jw_u64(ms_of(rt)));
	jw_put(c, o, "total_ios", jw_u64(d->ios));
	jw_put(c, o, "short_ios", jw_u64(d->short_ios));
	jw_put(c, o, "drop_ios", json_integer(0));
	jw_put(c, o, "slat_ns", f_lat(c, &d->slat, j,
	       j && j->slat_percentiles));
	jw_put(c, o, "clat_ns", f_lat(c, &d->clat, j,
	       j && j->clat_percentiles));
	jw_put(c, o, "lat_ns", f_lat(c, &d->lat, j, j && j->lat_percentiles));
	put_samples(c, o);
	return o;
}

/*
 * fsync=N and fdatasync=N calls, as fio's "sync": their count and
 * latencies, percentiles when clat's or lat's are asked for.
 */
static json_t *f_sync(struct jw *c, const struct hist *h, const struct job *j)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "total_ios", jw_u64(h->count));
	jw_put(c, o, "lat_ns", f_lat(c, h, j, j && (j->clat_percentiles ||
						   j->lat_percentiles)));
	return o;
}

/* ---- latency distribution: fio's buckets ---- */

/*
 * fio's latency_ns, latency_us and latency_ms maps: the share of I/Os
 * (completion latency, both directions) below each upper edge and at or
 * above the one before; the last, ">=2000" ms, is open.
 */
#define LAT_EDGES	31
static const uint64_t lat_edge_ns[LAT_EDGES] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
	1000000,
	2000000, 4000000, 10000000, 20000000, 50000000, 100000000,
	250000000, 500000000, 750000000, 1000000000, 2000000000,
};

static const struct {
	const char *key;
	unsigned first, n;	/* slots of lat_edge_ns (n: + the open one) */
	uint64_t div;
} lat_maps[] = {
	{ "latency_ns", 0, 10, 1 },
	{ "latency_us", 10, 10, 1000 },
	{ "latency_ms", 20, 12, 1000000 },
};

static unsigned lat_slot(uint64_t v)
{
	unsigned i;

	for (i = 0; i < LAT_EDGES; i++)
		if (v < lat_edge_ns[i])
			return i;
	return LAT_EDGES;
}

/*
 * Bucket counts of h into slots[LAT_EDGES + 1]. A histogram bucket that
 * straddles an edge (only from 512 ns up, where buckets are at most 0.8%
 * wide) counts on the side of its midpoint.
 */
static void lat_slots(const struct hist *h, uint64_t *slots)
{
	uint64_t lo, mid;
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		lo = hist_bucket_low(i);
		mid = lo + (hist_bucket_high(i) - lo) / 2;
		slots[lat_slot(mid)] += h->b[i];
	}
	slots[LAT_EDGES] += h->overflow;
}

/* A share that is not 0 shows as at least 0.01, as fio shows it. */
static double share(uint64_t n, uint64_t total)
{
	double p;

	if (!n || !total)
		return 0.0;
	p = 100.0 * (double)n / (double)total;
	return p < 0.01 ? 0.01 : p;
}

static void put_lat_maps(struct jw *c, json_t *o, const struct job_stats *s)
{
	uint64_t slots[LAT_EDGES + 1] = { 0 }, total = 0;
	char key[24];
	unsigned m, k, slot;
	json_t *map;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		lat_slots(&s->dir[d].clat, slots);
		total += s->dir[d].clat.count;
	}
	for (m = 0; m < sizeof(lat_maps) / sizeof(lat_maps[0]); m++) {
		map = json_object();
		for (k = 0; map && k < lat_maps[m].n; k++) {
			slot = lat_maps[m].first + k;
			if (slot < LAT_EDGES)
				snprintf(key, sizeof(key), "%llu",
					 (unsigned long long)
					 (lat_edge_ns[slot] / lat_maps[m].div));
			else
				snprintf(key, sizeof(key), ">=%llu",
					 (unsigned long long)
					 (lat_edge_ns[LAT_EDGES - 1] /
					  lat_maps[m].div));
			jw_put(c, map, key, jw_real(share(slots[slot], total)));
		}
		jw_put(c, o, lat_maps[m].key, map);
	}
}

/* fio's queue depth maps; iorig does not sample queue depths: zeros. */
static json_t *f_depth_map(struct jw *c, const char *const *keys)
{
	json_t *o = json_object();

	for (; o && *keys; keys++)
		jw_put(c, o, *keys, json_real(0.0));
	return o;
}

static const char *const depth_level_keys[] = {
	"1", "2", "4", "8", "16", "32", ">=64", NULL,
};

static const char *const depth_batch_keys[] = {
	"0", "4", "8", "16", "32", "64", ">=64", NULL,
};

/* ---- options as given ---- */

/* Set key from a raw option, under the option's main name. */
static void put_raw_opt(struct jw *c, json_t *o, const char *name,
			const char *value)
{
	const struct opt_def *d = options_find(name);

	jw_put(c, o, d ? d->name : name, jw_str(value ? value : ""));
}

static json_t *f_section_opts(struct jw *c, json_t *o,
			      const struct raw_section *sec)
{
	size_t i;

	for (i = 0; o && i < sec->nopts; i++)
		put_raw_opt(c, o, sec->opts[i].name, sec->opts[i].value);
	return o;
}

/* The [global] sections' options, later ones winning. */
static json_t *f_global_opts(struct jw *c, const struct raw_doc *doc)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && doc && i < doc->nsecs; i++)
		if (doc->secs[i].is_global)
			f_section_opts(c, o, &doc->secs[i]);
	return o;
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

		if (!s->is_global && s->line == j->section_line &&
		    j->section_file && !strcmp(s->file, j->section_file)) {
			sec = s;
			break;
		}
	}
	if (!o || !sec)
		return o;
	if (!strcmp(sec->file, ERR_CMDLINE))
		jw_put(c, o, "name", jw_str(sec->name));
	f_section_opts(c, o, sec);
	if (j->sweep_point)
		put_sweep_point(c, o, j->sweep_point);
	return o;
}

/* ---- jobs ---- */

/* Positive errno of what ended the job, else of its first failed I/O. */
static int unit_errno(const struct job_stats *s)
{
	int d;

	if (s->err)
		return s->err < 0 ? -s->err : s->err;
	for (d = 0; d < DDIR_NR; d++)
		if (s->dir[d].first_errno)
			return s->dir[d].first_errno;
	return 0;
}

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

/* Unit u, whose jobs' runtimes add up to rt_ns. */
static json_t *f_job(struct jw *c, const struct run_result *r,
		     const struct result_unit *u, uint64_t rt_ns)
{
	const struct job_stats *s = &u->stats;
	const struct job *j = u->job;
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "jobname", jw_str(j->name));
	jw_put(c, o, "groupid", json_integer(j->group));
	jw_put(c, o, "error", json_integer(unit_errno(s)));
	jw_put(c, o, "eta", json_integer(0));
	jw_put(c, o, "elapsed", jw_u64(unit_elapsed_s(r, u)));
	jw_put(c, o, "job options", f_job_opts(c, r, j));
	jw_put(c, o, "read", f_dir(c, &s->dir[DDIR_READ], s->runtime_ns, j));
	jw_put(c, o, "write", f_dir(c, &s->dir[DDIR_WRITE], s->runtime_ns, j));
	jw_put(c, o, "trim", f_dir(c, &s->dir[DDIR_TRIM], s->runtime_ns, j));
	jw_put(c, o, "sync", f_sync(c, &s->sync, j));
	put_cpu(c, o, u, u->stats.nclones ? rt_ns : 0);
	jw_put(c, o, "iodepth_level", f_depth_map(c, depth_level_keys));
	jw_put(c, o, "iodepth_submit", f_depth_map(c, depth_batch_keys));
	jw_put(c, o, "iodepth_complete", f_depth_map(c, depth_batch_keys));
	put_lat_maps(c, o, s);
	jw_put(c, o, "latency_depth", jw_u64(j->iodepth));
	jw_put(c, o, "latency_target", json_integer(0));
	jw_put(c, o, "latency_percentile", json_real(100.0));
	jw_put(c, o, "latency_window", json_integer(0));
	return o;
}

/* ---- disk_util ---- */

static json_t *f_disk(struct jw *c, const struct sysinfo_disk_use *u)
{
	const struct sysinfo_diskstat *d = &u->sum;
	uint64_t wall_ms = ms_of(u->wall_ns);
	json_t *o = json_object();
	double util = 0.0;

	if (!o)
		return NULL;
	if (wall_ms)
		util = fmin(100.0, 100.0 * (double)d->io_ticks /
				   (double)wall_ms);
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

	snprintf(ver, sizeof(ver), "iorig-%s", r->version ? r->version : "");
	/* ctime(3)'s layout, local time, without its newline. */
	if (localtime_r(&r->start_time, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jw_put(c, root, "fio version", jw_str(ver));
	jw_put(c, root, "timestamp", json_integer((json_int_t)r->start_time));
	jw_put(c, root, "timestamp_ms", json_integer((json_int_t)r->start_time *
						  1000));
	jw_put(c, root, "time", jw_str(when));
	jw_put(c, root, "global options", f_global_opts(c, r->doc));
}

int report_fio(FILE *f, const struct run_result *r)
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
	rt = calloc((size_t)rs.nunits + 1, sizeof(*rt));
	if (!root || !jobs || !disks || !rt) {
		json_decref(jobs);
		json_decref(disks);
		ret = -ENOMEM;
		goto out;
	}
	put_header(&c, root, r);
	for (i = 0; rs.unit_of && i < r->plan->njobs; i++)
		if (r->stats && (!r->ran || r->ran[i]))
			rt[rs.unit_of[i]] += r->stats[i].runtime_ns;
	for (i = 0; i < (size_t)rs.nunits; i++)
		jw_push(&c, jobs, f_job(&c, r, &rs.units[i], rt[i]));
	jw_put(&c, root, "jobs", jobs);
	for (k = 0; k < r->disks.n; k++)
		jw_push(&c, disks, f_disk(&c, &r->disks.d[k]));
	jw_put(&c, root, "disk_util", disks);
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
