// SPDX-License-Identifier: MIT
/*
 * rate_curve=: the latency-throughput curve. The probe runs the job with
 * no rate and measures what the target can do; each point then runs the
 * same job paced at a percent of the probe's achieved IOPS, open loop
 * (src/worker/pace.c), so that its sched_lat holds the wait for a turn a
 * client at that rate would see. Near and above the capacity the wait
 * grows; below it, sched_lat stays near lat.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve.h"
#include "gnuplot.h"
#include "door.h"
#include "plan.h"
#include "value.h"

/*
 * The clones of point k of the curve whose probe is plan job `probe`,
 * merged into *out (which the caller frees); NULL when out of memory.
 */
static struct job_stats *point_stats(const struct run_result *r,
				     size_t probe, unsigned k)
{
	const struct plan *p = r->plan;
	struct job_stats *s = malloc(sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	stats_init(s);
	for (i = probe; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		if (j->plan.curve_probe != probe || !j->plan.curve_point)
			break;
		if (j->plan.curve_point == k && r->ran[i])
			stats_merge(s, &r->stats[i]);
	}
	return s;
}

int curve_set_rate(const struct plan *p, size_t i, const struct run_result *r,
		   char *why, size_t len)
{
	struct job *j = &p->jobs[i];	/* the plan's: see curve.h */
	struct job_stats *s = point_stats(r, j->plan.curve_probe, 1);
	double part = j->plan.curve_pct / 100.0 / (double)j->eng.numjobs, v;
	bool any = false;
	int d;

	if (!s) {
		snprintf(why, len, "curve: out of memory");
		return -ENOMEM;
	}
	for (d = 0; d < DDIR_NR; d++) {
		if (!s->dir[d].ios)
			continue;
		any = true;
		if (j->io.bs_min[d] == j->io.bs_max[d]) {
			v = round(stats_iops(&s->dir[d], s->runtime_ns) * part);
			j->pace.rate_iops[d] = v < 1 ? 1 : (uint64_t)v;
		} else {
			v = round(stats_bw(&s->dir[d], s->runtime_ns) * part);
			j->pace.rate[d] = v < 1 ? 1 : (uint64_t)v;
		}
	}
	if (!any || !s->nmeasured || !s->runtime_ns) {
		snprintf(why, len, "the curve's probe measured no I/O, so "
			 "there is no rate to take %g%% of", j->plan.curve_pct);
		free(s);
		return -ECANCELED;
	}
	free(s);
	return 0;
}

/* Both directions' histogram h (lat or sched_lat) of s, into out. */
static void both_dirs(const struct job_stats *s, size_t off, struct hist *out)
{
	int d;

	hist_init(out);
	for (d = 0; d < DDIR_NR; d++)
		hist_merge(out, (const struct hist *)
			   ((const char *)&s->dir[d] + off));
}

static int fill_point(const struct run_result *r, size_t probe, unsigned k,
		      double pct, double probe_iops, struct curve_point *pt)
{
	struct job_stats *s = point_stats(r, probe, k);
	struct hist *h = malloc(sizeof(*h));
	static const double q3[3] = { 50, 99, 99.9 };
	unsigned q;
	int d;

	if (!s || !h) {
		free(s);
		free(h);
		return -ENOMEM;
	}
	memset(pt, 0, sizeof(*pt));
	pt->pct = pct;
	pt->target_iops = probe_iops * pct / 100.0;
	pt->ran = s->nmeasured > 0;
	pt->met = pt->ran && k > 1;
	for (d = 0; d < DDIR_NR && pt->ran; d++) {
		pt->iops += stats_iops(&s->dir[d], s->runtime_ns);
		if (s->dir[d].rate_bps > 0)
			pt->met = pt->met &&
				  stats_rate_met(&s->dir[d], s->runtime_ns);
	}
	both_dirs(s, offsetof(struct dir_stats, lat), h);
	for (q = 0; q < 3 && h->count; q++)
		pt->lat_ns[q] = hist_percentile(h, q3[q]);
	both_dirs(s, offsetof(struct dir_stats, sched_lat), h);
	for (q = 0; q < 3 && h->count; q++)
		pt->sched_ns[q] = hist_percentile(h, q3[q]);
	free(h);
	free(s);
	return 0;
}

int curve_collect(const struct run_result *r, struct curve_set *s)
{
	const struct plan *p = r->plan;
	struct curve *c;
	size_t i;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (r->curves) {	/* a saved result's, as it holds them */
		if (!r->curves->n)
			return 0;
		s->c = malloc(r->curves->n * sizeof(*s->c));
		if (!s->c)
			return -ENOMEM;
		memcpy(s->c, r->curves->c, r->curves->n * sizeof(*s->c));
		s->n = r->curves->n;
		return 0;
	}
	for (i = 0; p && r->stats && r->ran && i < p->njobs && !ret; i++) {
		const struct job *j = &p->jobs[i];

		if (j->plan.curve_point != 1 || j->plan.clone ||
		    j->plan.curve_probe != i)
			continue;
		c = realloc(s->c, (s->n + 1) * sizeof(*c));
		if (!c) {
			ret = -ENOMEM;
			break;
		}
		s->c = c;
		c = &s->c[s->n++];
		memset(c, 0, sizeof(*c));
		c->job = j;
		ret = fill_point(r, i, 1, 0, 0, &c->pt[0]);
		c->npoints = 1;
	}
	/* The points, in plan order after their probe. */
	for (i = 0; !ret && p && i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		size_t k;

		if (j->plan.curve_point < 2 || j->plan.clone)
			continue;
		for (k = 0; k < s->n; k++) {
			c = &s->c[k];
			if (c->job != &p->jobs[j->plan.curve_probe] ||
			    c->npoints > RATE_CURVE_MAX)
				continue;
			ret = fill_point(r, j->plan.curve_probe,
					 j->plan.curve_point,
					 j->plan.curve_pct, c->pt[0].iops,
					 &c->pt[c->npoints]);
			c->npoints++;
			break;
		}
	}
	if (ret)
		curve_set_free(s);
	return ret;
}

void curve_set_free(struct curve_set *s)
{
	free(s->c);
	s->c = NULL;
	s->n = 0;
}

void curve_label(const struct curve *c, char *buf, size_t len)
{
	const char *sp = c->job->plan.sweep_point ? c->job->plan.sweep_point :
		"";
	size_t n = strlen(sp), tail = strlen("curve=probe");

	n = n >= tail ? n - tail : 0;
	while (n && sp[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%s%s%.*s", c->job->desc.name, n ? " " : "", (int)n,
		 sp);
}

/* ns as the text report shows it, "-" for none. */
static void fmt_lat(uint64_t ns, char *buf, size_t len)
{
	if (ns)
		value_fmt_ns((double)ns, buf, len);
	else
		snprintf(buf, len, "-");
}

/*
 * curve: seqread (probe 12.3k IOPS)
 *   target   target IOPS  achieved IOPS  met  lat p50 ...
 *      10%         1.23k          1.23k  yes  ...
 */
void curve_print(FILE *f, const struct curve_set *s)
{
	static const char *const head[] = {
		"lat p50", "lat p99", "lat p99.9", "sched p50", "sched p99",
	};
	char v[5][32], tgt[32], got[32], pct[32], label[300];
	size_t k;
	unsigned i, q;

	for (k = 0; k < s->n; k++) {
		const struct curve *c = &s->c[k];

		curve_label(c, label, sizeof(label));
		fprintf(f, "curve: %s (probe %.0f IOPS%s)\n", label,
			c->pt[0].iops, c->pt[0].ran ? "" : ", did not run");
		fprintf(f, "  %7s %12s %14s %4s", "target", "target IOPS",
			"achieved IOPS", "met");
		for (q = 0; q < 5; q++)
			fprintf(f, " %10s", head[q]);
		fputc('\n', f);
		for (i = 0; i < c->npoints; i++) {
			const struct curve_point *pt = &c->pt[i];

			for (q = 0; q < 3; q++)
				fmt_lat(pt->lat_ns[q], v[q], sizeof(v[q]));
			for (q = 0; q < 2; q++)
				fmt_lat(pt->sched_ns[q], v[3 + q],
					sizeof(v[3 + q]));
			if (i)
				snprintf(tgt, sizeof(tgt), "%.0f",
					 pt->target_iops);
			else
				snprintf(tgt, sizeof(tgt), "-");
			snprintf(got, sizeof(got), pt->ran ? "%.0f" : "-",
				 pt->iops);
			snprintf(pct, sizeof(pct), i ? "%g%%" : "probe",
				 pt->pct);
			fprintf(f, "  %7s %12s %14s %4s", pct, tgt, got,
				!i ? "-" : !pt->ran ? "n/a" : pt->met ? "yes" :
				"no");
			for (q = 0; q < 5; q++)
				fprintf(f, " %10s", v[q]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

int curve_chart_check(const char *svg, struct err_rec *e)
{
	size_t n = strlen(svg);

	if (n > 4 && !strcmp(svg + n - 4, ".svg"))
		return door_check(svg, "chart", NULL, e);
	err_set(e, svg, 0, "chart", "expected a file name ending in .svg "
		"(the script and data go beside it, .gp and .dat)");
	return -EINVAL;
}

/* FILE.svg -> FILE.ext (base: FILE.svg without its ".svg"). */
static char *beside(const char *svg, const char *ext)
{
	char *s;

	if (asprintf(&s, "%.*s%s", (int)(strlen(svg) - 4), svg, ext) < 0)
		return NULL;
	return s;
}

static int write_data(const struct curve_set *s, const char *path,
		      struct err_rec *e)
{
	struct door_out o = { .fd = -1 };
	size_t k;
	unsigned i;
	int ret = door_open(&o, path, "chart", DOOR_WHOLE, NULL, e);

	if (ret)
		return ret;
	fprintf(o.f, "# iorig rate_curve points, one block per curve (gnuplot "
		"index); latencies in microseconds\n# pct target_iops "
		"achieved_iops met lat_p50 lat_p99 lat_p99.9 sched_p50 "
		"sched_p99\n");
	for (k = 0; k < s->n; k++) {
		const struct curve *c = &s->c[k];

		char label[300];

		curve_label(c, label, sizeof(label));
		fprintf(o.f, "%s# curve %zu: %s\n", k ? "\n\n" : "", k,
			label);
		for (i = 1; i < c->npoints; i++) {
			const struct curve_point *pt = &c->pt[i];

			if (!pt->ran)
				continue;
			fprintf(o.f, "%g %.1f %.1f %d %.3f %.3f %.3f %.3f "
				"%.3f\n", pt->pct, pt->target_iops, pt->iops,
				pt->met, pt->lat_ns[0] / 1e3,
				pt->lat_ns[1] / 1e3, pt->lat_ns[2] / 1e3,
				pt->sched_ns[0] / 1e3, pt->sched_ns[1] / 1e3);
		}
	}
	ret = door_close(&o);
	if (ret)
		err_set(e, path, 0, "chart", "cannot write: %s",
			strerror(-ret));
	return ret;
}

static int write_script(const struct curve_set *s, const char *path,
			const char *dat, struct err_rec *e)
{
	static const struct { int col; const char *what; } series[] = {
		{ 9, "sched_lat p99" }, { 8, "sched_lat p50" },
		{ 6, "lat p99" }, { 5, "lat p50" },
	};
	struct door_out o = { .fd = -1 };
	size_t k, q;
	int ret = door_open(&o, path, "chart", DOOR_WHOLE, NULL, e);

	if (ret)
		return ret;
	/* no `set output`: the chart goes to gnuplot's standard output,
	 * the SVG file opened through the door (gnuplot_run) */
	fputs("# iorig --chart: latency against achieved IOPS\n"
	      "set encoding utf8\n"
	      "set terminal svg size 960,600 dynamic noenhanced "
	      "background rgb 'white'\n", o.f);
	/* one unit style with iorig plot: µs, no 1e+06 on an axis */
	fputs("set title 'latency against throughput (rate_curve)'\n"
	      "set xlabel 'achieved IOPS'\n"
	      "set ylabel 'latency (µs, log scale)'\n"
	      "set format x '%.10g'\nset format y '%.10g'\n"
	      "set logscale y\nset grid\nset key left top\nplot", o.f);
	for (k = 0; k < s->n; k++) {
		for (q = 0; q < sizeof(series) / sizeof(series[0]); q++) {
			char label[300], title[400];

			curve_label(&s->c[k], label, sizeof(label));
			snprintf(title, sizeof(title), "%s %s", label,
				 series[q].what);
			fputs(k || q ? ", \\\n     " : " ", o.f);
			gnuplot_quote(o.f, dat);
			fprintf(o.f, " index %zu using 3:%d with linespoints "
				"title ", k, series[q].col);
			gnuplot_quote(o.f, title);
		}
	}
	fputc('\n', o.f);
	ret = door_close(&o);
	if (ret)
		err_set(e, path, 0, "chart", "cannot write: %s",
			strerror(-ret));
	return ret;
}

int curve_chart(const struct curve_set *s, const char *svg,
		struct warn_list *w, struct err_rec *e)
{
	char *dat = beside(svg, ".dat"), *gp = beside(svg, ".gp");
	struct door_out o = { .fd = -1 };
	bool missing;
	int ret = -ENOMEM, st;

	if (!dat || !gp) {
		err_set(e, svg, 0, "chart", "out of memory");
		goto out;
	}
	ret = write_data(s, dat, e);
	if (!ret)
		ret = write_script(s, gp, dat, e);
	if (!ret)
		ret = door_open(&o, svg, "chart", DOOR_WHOLE, NULL, e);
	if (ret)
		goto out;
	st = gnuplot_run(gp, o.fd, &missing);
	if (!st) {
		ret = door_close(&o);
		if (ret)
			err_set(e, svg, 0, "chart", "cannot write: %s",
				strerror(-ret));
		goto out;
	}
	door_discard(&o);
	if (missing)
		warn_add(w, "chart_not_drawn", NULL, "--chart: gnuplot is not "
			 "installed; the script is %s: `gnuplot %s >%s` draws "
			 "it", gp, gp, svg);
	else if (st < 0)
		warn_add(w, "chart_not_drawn", NULL, "--chart: gnuplot could "
			 "not be run on %s; %s was not drawn", gp, svg);
	else
		warn_add(w, "chart_not_drawn", NULL, "--chart: gnuplot exited "
			 "with status %d on %s; %s was not drawn", st, gp, svg);
out:
	free(dat);
	free(gp);
	return ret;
}
