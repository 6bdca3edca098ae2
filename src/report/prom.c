// SPDX-License-Identifier: MIT
/*
 * --output-format=openmetrics and --output-format=prometheus: a result
 * as metrics in Prometheus' conventions, for a textfile collector or a
 * push. Base units (seconds, bytes), counters for what only grows (bytes,
 * I/Os, errors), per reported unit and direction:
 *
 *	iorig_iops, iorig_bandwidth_bytes_per_second		gauges
 *	iorig_io_bytes_total, iorig_ios_total, iorig_io_errors_total
 *	iorig_latency_percentiles_seconds{kind}	summary: the job's
 *						percentile_list as quantiles
 *	iorig_latency_seconds{kind}		histogram: 1-2-5 buckets
 *						from 100 ns to 100 s
 *
 * kind is lat, clat or slat (empty ones left out). Per unit:
 * iorig_runtime_seconds and iorig_job_error (1: a fatal error, I/O
 * errors or blocks that did not verify); per check on it:
 * iorig_check_passed (1 or 0, labels check, metric and source; n/a
 * checks and a check given twice are left out); per run:
 * iorig_start_time_seconds. The labels: job_name (not "job", which a
 * Prometheus server sets on every series it scrapes and would rename
 * ours), sweep_point and clone, direction, target (the unit's first
 * file), device_model, host; an optional one (sweep_point, clone,
 * target, device_model) on every series when some unit has it, empty
 * where its unit has none: one label set per family.
 *
 * The two formats differ only where the standards do: OpenMetrics 1.0
 * names a counter's family without its _total, gives # UNIT lines and
 * ends with # EOF; the Prometheus text format 0.0.4 (what node
 * exporter's textfile collector and promtool read) names the family
 * with _total. A histogram bucket counts the I/Os of every bucket of
 * iorig's histogram whose highest value is at most le: exact where a
 * boundary falls between two of its buckets, else the I/Os of the one
 * bucket (0.8% wide) that straddles le go in the next one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "esc.h"
#include "report.h"
#include "value.h"

enum fam_type { F_GAUGE, F_COUNTER, F_SUMMARY, F_HISTOGRAM };

struct family {
	const char *name;	/* a counter's without _total */
	int type;
	const char *unit;	/* OpenMetrics # UNIT, or NULL */
	const char *help;
};

struct pm {
	FILE *f;
	const struct run_result *r;
	const struct result_set *rs;
	bool om;		/* OpenMetrics, else text format 0.0.4 */
	/* The optional labels some unit has: every series then has them
	 * (empty where its unit has none), one label set per family, as
	 * node exporter makes them anyway. */
	bool sweep, clone, target, model;
};

static const char *const ddir_name[DDIR_NR] = DDIR_NAMES;
static const char *const type_name[] = {
	[F_GAUGE] = "gauge", [F_COUNTER] = "counter",
	[F_SUMMARY] = "summary", [F_HISTOGRAM] = "histogram",
};

static void family_head(const struct pm *pm, const struct family *fm)
{
	const char *tot = !pm->om && fm->type == F_COUNTER ? "_total" : "";

	fprintf(pm->f, "# HELP %s%s %s\n", fm->name, tot, fm->help);
	fprintf(pm->f, "# TYPE %s%s %s\n", fm->name, tot,
		type_name[fm->type]);
	if (pm->om && fm->unit)
		fprintf(pm->f, "# UNIT %s %s\n", fm->name, fm->unit);
}

/*
 * A real with the 12 significant digits of iorig's JSON report, so that a
 * result saved as JSON and read back (iorig report, iorig merge) gives
 * the same text.
 */
static void put_value(FILE *f, double v)
{
	if (v != v)
		fputs(" NaN\n", f);
	else
		fprintf(f, " %.12g\n", v);
}

static void label(FILE *f, bool *first, const char *k, const char *v)
{
	fprintf(f, "%s%s=\"", *first ? "{" : ",", k);
	esc_prom(f, v);
	fputc('"', f);
	*first = false;
}

/* The first target's path and the first known device model of unit u. */
static void unit_target(const struct run_result *r,
			const struct result_unit *u, const char **path,
			const char **model)
{
	const struct run_targets *rt = result_targets(r, u);
	unsigned i;

	*path = "";
	*model = "";
	for (i = 0; rt && i < rt->n; i++) {
		if (!i && rt->t[i].path)
			*path = rt->t[i].path;
		if (rt->t[i].info.has_device && rt->t[i].info.dev.model[0]) {
			*model = rt->t[i].info.dev.model;
			break;
		}
	}
}

/* An extra label of a sample: k=v; k NULL ends the list. */
struct xl {
	const char *k, *v;
};

/*
 * name SFX{labels of unit u, direction d (-1: none), then x's}: the
 * sample's name and labels; the value follows.
 */
static void sample(const struct pm *pm, const char *name, const char *sfx,
		   const struct result_unit *u, int d, const struct xl *x)
{
	const struct job *j = u->job;
	const char *path, *model;
	bool first = true;
	char buf[32];

	unit_target(pm->r, u, &path, &model);
	fprintf(pm->f, "%s%s", name, sfx);
	label(pm->f, &first, "job_name", j->desc.name);
	if (pm->sweep)
		label(pm->f, &first, "sweep_point", j->plan.sweep_point ?
		      j->plan.sweep_point : "");
	buf[0] = '\0';
	if (!j->report.group_reporting && j->eng.numjobs > 1)
		snprintf(buf, sizeof(buf), "%u", j->plan.clone);
	if (pm->clone)
		label(pm->f, &first, "clone", buf);
	if (d >= 0)
		label(pm->f, &first, "direction", ddir_name[d]);
	if (pm->target)
		label(pm->f, &first, "target", path);
	if (pm->model)
		label(pm->f, &first, "device_model", model);
	if (pm->r->hostname[0])
		label(pm->f, &first, "host", pm->r->hostname);
	for (; x && x->k; x++)
		label(pm->f, &first, x->k, x->v);
	fputc('}', pm->f);
}

/* Unit i is reported with figures: shown, ran, measured. */
static bool unit_measured(const struct pm *pm, int i)
{
	const struct result_unit *u = &pm->rs->units[i];

	return !u->hidden && u->stats.nclones && u->stats.nmeasured;
}

/* Unit u reports direction d: it did I/O there, or its rw= asks for it. */
static bool unit_dir(const struct result_unit *u, int d)
{
	const struct job *j = u->job;

	return u->stats.dir[d].ios ||
	       (!j->vfy.verify_only && (rw_dirs(j->io.rw) & (1u << d)));
}

/* One value per measured unit and direction. */
enum dir_fig { D_IOPS, D_BW, D_BYTES, D_IOS, D_ERRORS };

static double dir_value(const struct result_unit *u, int d, int fig)
{
	const struct dir_stats *x = &u->stats.dir[d];

	switch (fig) {
	case D_IOPS: return stats_iops(x, u->stats.runtime_ns);
	case D_BW: return stats_bw(x, u->stats.runtime_ns);
	case D_BYTES: return (double)x->bytes;
	case D_IOS: return (double)x->ios;
	default: return (double)x->errors;
	}
}

static void dir_family(const struct pm *pm, const struct family *fm,
		       int fig)
{
	const char *sfx = fm->type == F_COUNTER ? "_total" : "";
	const struct result_unit *u;
	int i, d;

	family_head(pm, fm);
	for (i = 0; i < pm->rs->nunits; i++) {
		if (!unit_measured(pm, i))
			continue;
		u = &pm->rs->units[i];
		for (d = 0; d < DDIR_NR; d++) {
			if (!unit_dir(u, d))
				continue;
			sample(pm, fm->name, sfx, u, d, NULL);
			put_value(pm->f, dir_value(u, d, fig));
		}
	}
}

static const char *const kind_name[] = { "lat", "clat", "slat" };

static const struct hist *dir_hist(const struct dir_stats *x, int k)
{
	return k == 0 ? &x->lat : k == 1 ? &x->clat : &x->slat;
}

/* The summary of one latency: the job's percentile_list, sum, count. */
static void summary(const struct pm *pm, const char *name,
		    const struct result_unit *u, int d, int k)
{
	const struct hist *h = dir_hist(&u->stats.dir[d], k);
	const struct job *j = u->job;
	struct xl x[3] = { { "kind", kind_name[k] }, { "quantile", NULL } };
	char q[40];
	unsigned i;

	for (i = 0; i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		/* 12 digits: 99.9 / 100 is 0.999, not 0.99900000000000011 */
		snprintf(q, sizeof(q), "%.12g",
			 j->report.percentile_list[i] / 100);
		x[1].v = q;
		sample(pm, name, "", u, d, x);
		put_value(pm->f, (double)hist_percentile(h,
				j->report.percentile_list[i]) / 1e9);
	}
	x[1].k = NULL;
	sample(pm, name, "_sum", u, d, x);
	put_value(pm->f, (double)h->sum / 1e9);
	sample(pm, name, "_count", u, d, x);
	fprintf(pm->f, " %" PRIu64 "\n", h->count);
}

/*
 * The histogram of one latency: cumulative counts at 1, 2 and 5 times
 * each power of ten from 100 ns to 100 s, +Inf, sum, count. A bucket
 * of iorig's counts under le when its highest value is at most le.
 */
static void histogram(const struct pm *pm, const char *name,
		      const struct result_unit *u, int d, int k)
{
	static const unsigned step[3] = { 1, 2, 5 };
	const struct hist *h = dir_hist(&u->stats.dir[d], k);
	struct xl x[3] = { { "kind", kind_name[k] }, { "le", NULL } };
	uint64_t acc = 0, dec, le;
	unsigned next = 0, i;
	char v[40];

	for (dec = 100; dec <= 100000000000ull; dec *= 10)
		for (i = 0; i < 3 && (dec < 100000000000ull || !i); i++) {
			le = dec * step[i];
			while (next < HIST_NBUCKETS &&
			       hist_bucket_high(next) <= le)
				acc += h->b[next++];
			value_fmt_shortest((double)le / 1e9, v, sizeof(v));
			x[1].v = v;
			sample(pm, name, "_bucket", u, d, x);
			fprintf(pm->f, " %" PRIu64 "\n", acc);
		}
	x[1].v = "+Inf";
	sample(pm, name, "_bucket", u, d, x);
	fprintf(pm->f, " %" PRIu64 "\n", h->count);
	x[1].k = NULL;
	sample(pm, name, "_sum", u, d, x);
	put_value(pm->f, (double)h->sum / 1e9);
	sample(pm, name, "_count", u, d, x);
	fprintf(pm->f, " %" PRIu64 "\n", h->count);
}

static void lat_family(const struct pm *pm, const struct family *fm,
		       bool hist)
{
	const struct result_unit *u;
	int i, d, k;

	family_head(pm, fm);
	for (i = 0; i < pm->rs->nunits; i++) {
		if (!unit_measured(pm, i))
			continue;
		u = &pm->rs->units[i];
		for (d = 0; d < DDIR_NR; d++) {
			if (!unit_dir(u, d))
				continue;
			for (k = 0; k < 3; k++) {
				if (!dir_hist(&u->stats.dir[d], k)->count)
					continue;
				if (hist)
					histogram(pm, fm->name, u, d, k);
				else
					summary(pm, fm->name, u, d, k);
			}
		}
	}
}

/* Per unit: its runtime, whether it failed. */
static void unit_families(const struct pm *pm)
{
	static const struct family rt = {
		"iorig_runtime_seconds", F_GAUGE, "seconds",
		"Time the job ran (its measured phase)."
	}, er = {
		"iorig_job_error", F_GAUGE, NULL,
		"1 when the job failed: a fatal error, I/O errors or blocks "
		"that did not verify."
	};
	const struct result_unit *u;
	int i;

	family_head(pm, &rt);
	for (i = 0; i < pm->rs->nunits; i++)
		if (unit_measured(pm, i)) {
			u = &pm->rs->units[i];
			sample(pm, rt.name, "", u, -1, NULL);
			put_value(pm->f, (double)u->stats.runtime_ns / 1e9);
		}
	family_head(pm, &er);
	for (i = 0; i < pm->rs->nunits; i++) {
		u = &pm->rs->units[i];
		if (u->hidden || !u->stats.nclones)
			continue;
		sample(pm, er.name, "", u, -1, NULL);
		fprintf(pm->f, " %d\n", u->stats.err || stats_errors(&u->stats)
			|| u->stats.verify.mismatches ? 1 : 0);
	}
}

/* An earlier result is the same series: the same check given twice. */
static bool check_seen(const struct check_report *cr, size_t k)
{
	const struct check_result *c = &cr->results[k], *o;
	char a[300], b[300];
	size_t i;

	check_source(c->def, a, sizeof(a));
	for (i = 0; i < k; i++) {
		o = &cr->results[i];
		if (o->unit != c->unit || o->status == CHECK_NA ||
		    strcmp(o->def->text + o->def->x.body,
			   c->def->text + c->def->x.body))
			continue;
		check_source(o->def, b, sizeof(b));
		if (!strcmp(a, b))
			return true;
	}
	return false;
}

static void check_family(const struct pm *pm)
{
	static const struct family ck = {
		"iorig_check_passed", F_GAUGE, NULL,
		"1 when the check (--check, check=) held, 0 when it failed."
	};
	const struct check_report *cr = pm->r->checks;
	const struct check_result *c;
	struct xl x[4] = {
		{ "check", NULL }, { "metric", NULL }, { "source", NULL }
	};
	char src[300];
	size_t k;

	if (!cr || !cr->nresults)
		return;
	family_head(pm, &ck);
	for (k = 0; k < cr->nresults; k++) {
		c = &cr->results[k];
		if (c->status == CHECK_NA || c->unit < 0 ||
		    c->unit >= pm->rs->nunits || check_seen(cr, k))
			continue;
		check_source(c->def, src, sizeof(src));
		x[0].v = c->def->text + c->def->x.body;
		x[1].v = c->def->x.m.name;
		x[2].v = src;
		sample(pm, ck.name, "", &pm->rs->units[c->unit], -1, x);
		fprintf(pm->f, " %d\n", c->status == CHECK_PASS);
	}
}

static void optional_labels(struct pm *pm)
{
	const struct result_unit *u;
	const char *path, *model;
	int i;

	for (i = 0; i < pm->rs->nunits; i++) {
		u = &pm->rs->units[i];
		if (u->hidden)
			continue;
		unit_target(pm->r, u, &path, &model);
		pm->sweep |= u->job->plan.sweep_point != NULL;
		pm->clone |= !u->job->report.group_reporting &&
			u->job->eng.numjobs > 1;
		pm->target |= path[0] != '\0';
		pm->model |= model[0] != '\0';
	}
}

static int write_metrics(FILE *f, const struct run_result *r, bool om)
{
	static const struct family fams[] = {
		{ "iorig_iops", F_GAUGE, NULL,
		  "I/Os completed per second over the job's runtime." },
		{ "iorig_bandwidth_bytes_per_second", F_GAUGE,
		  "bytes_per_second",
		  "Bytes moved per second over the job's runtime." },
		{ "iorig_io_bytes", F_COUNTER, "bytes", "Bytes moved." },
		{ "iorig_ios", F_COUNTER, NULL,
		  "I/Os completed, failed ones included." },
		{ "iorig_io_errors", F_COUNTER, NULL, "I/Os that failed." },
	};
	static const struct family sum = {
		"iorig_latency_percentiles_seconds", F_SUMMARY, "seconds",
		"Latency percentiles (the job's percentile_list); kind: lat "
		"(submission to completion), clat, slat."
	}, his = {
		"iorig_latency_seconds", F_HISTOGRAM, "seconds",
		"Latency distribution; kind: lat (submission to completion), "
		"clat, slat."
	}, start = {
		"iorig_start_time_seconds", F_GAUGE, "seconds",
		"When the run started, in seconds since the epoch."
	};
	struct result_set rs;
	struct pm pm = { .f = f, .r = r, .rs = &rs, .om = om };
	bool first = true;
	size_t i;
	int ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	optional_labels(&pm);
	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		dir_family(&pm, &fams[i], (int)i);
	lat_family(&pm, &sum, false);
	lat_family(&pm, &his, true);
	unit_families(&pm);
	check_family(&pm);
	/* whole seconds: what a saved result keeps */
	if (r->start_time) {
		family_head(&pm, &start);
		fputs(start.name, f);
		if (r->hostname[0])
			label(f, &first, "host", r->hostname);
		fputs(first ? "" : "}", f);
		put_value(f, (double)r->start_time);
	}
	if (om)
		fputs("# EOF\n", f);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	result_set_free(&rs);
	return ret;
}

int report_openmetrics(FILE *f, const struct run_result *r)
{
	return write_metrics(f, r, true);
}

int report_prometheus(FILE *f, const struct run_result *r)
{
	return write_metrics(f, r, false);
}
