// SPDX-License-Identifier: MIT
/*
 * `iorig plot`'s charts of one result (plot_int.h): per job and
 * direction the latency histogram with its CDF and percentile labels,
 * IOPS, bandwidth and p99 over time from interval= samples, the sweep
 * chart over bs=; result_charts draws them for plot_run and
 * plot_result_charts for the HTML report.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "door.h"
#include "err.h"
#include "gnuplot.h"
#include "plot.h"
#include "options.h"
#include "result.h"
#include "value.h"

#include "plot_int.h"

/* ---- latency histograms ---- */

/* A bar of a latency histogram: [lo, hi] us holding pct % of the I/Os;
 * cum: the % at or below hi. */
struct lbin {
	double lo, hi, pct, cum;
};

/*
 * The bars of v: its buckets (hist.c: 256 per power of two at most)
 * merged into LAT_BINS per decade, bars that read, each bucket in the
 * bar of its midpoint. I/Os of latency 0
 * (completed inside the submit call: clat 0) have no place on a log
 * axis: they are no bar, their share is *zero (%), and the CDF starts
 * there. Returns the number of bars, -1 (no memory).
 */
static long lat_bins(const struct pdir *v, struct lbin **out, double *zero)
{
	double total = 0, cum = 0, cur = 0;
	struct lbin *b;
	size_t i, n = 0;

	*out = NULL;
	*zero = 0;
	for (i = 0; i < v->nrows; i++)
		total += fmax(0, v->rows[i].n);
	if (!v->which || total <= 0)
		return 0;
	b = calloc(v->nrows + 1, sizeof(*b));
	if (!b)
		return -1;
	for (i = 0; i < v->nrows; i++) {
		const struct prow *r = &v->rows[i];
		/* the bucket's midpoint, the value fio's bins give it: one
		 * result in either layout draws the same bars */
		double mid = r->lo + floor((r->hi - r->lo) / 2), bin;

		if (r->n <= 0)
			continue;
		cum += r->n;
		if (r->hi < 1) {
			*zero += 100 * r->n / total;
			continue;
		}
		bin = floor(log10(fmax(mid / 1e3, 1e-3)) * LAT_BINS);
		if (!n || bin != cur) {
			cur = bin;
			b[n++].lo = pow(10, bin / LAT_BINS);
		}
		b[n - 1].hi = pow(10, (bin + 1) / LAT_BINS);
		b[n - 1].pct += 100 * r->n / total;
		b[n - 1].cum = 100 * cum / total;
	}
	*out = b;
	return (long)n;
}

/* r widened to the bars of v (r->hi 0: empty so far); 0 or -1. */
static int lat_range_add(struct lat_range *r, const struct pdir *v)
{
	struct lbin *b;
	double zero;
	long n = lat_bins(v, &b, &zero), i;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		r->lo = r->hi > 0 ? fmin(r->lo, b[i].lo) : b[i].lo;
		r->hi = fmax(r->hi, b[i].hi);
		r->ymax = fmax(r->ymax, b[i].pct);
	}
	free(b);
	return 0;
}

/* The range of every histogram of res added to r; 0 or -1. */
int lat_range_res(struct lat_range *r, const struct pres *res)
{
	size_t i;
	int q;

	for (i = 0; i < res->njobs; i++)
		for (q = 0; res->jobs[i].ran && q < NDIRS; q++)
			if (lat_range_add(r, &res->jobs[i].dir[q]))
				return -1;
	return 0;
}

/*
 * The percentiles marked: a dashed line each, in its own colour, and
 * its label above the frame, one row each, so that a label hides no bar,
 * no line and no other label (left of its line in the frame's right
 * half). A percentile below the axis (0: clat 0) is marked at its left
 * end.
 */
static void lat_marks(FILE *gp, const struct pdir *v,
		      const struct lat_range *r)
{
	static const char *const name[] = { "p50", "p99", "p99.9" };
	static const char *const color[] = { "#b35900", "#c00000",
					     "#7a1fa2" };
	int k;

	for (k = 0; k < 3; k++) {
		double m = v->mark[k], x = fmin(fmax(m, r->lo), r->hi);
		bool right = log(x / r->lo) > 0.5 * log(r->hi / r->lo);
		char txt[32];

		if (m < 0)
			continue;
		ns_text(m * 1e3, 4, txt, sizeof(txt));
		fprintf(gp, "set arrow from %.10g, graph 0 to %.10g, graph 1 "
			"nohead dashtype 2 linewidth 1.5 linecolor rgb '%s'\n"
			"set label '%s %s' at %.10g, graph 1 %s offset "
			"%s,%.1f textcolor rgb '%s'\n", x, x, color[k],
			name[k], txt, x, right ? "right" : "left",
			right ? "-0.3" : "0.3", 0.8 + 1.3 * k, color[k]);
	}
}

/* The script of a histogram: bars (% of I/Os) on the log axis, the CDF
 * on y2 from the share at 0 up, the axes of the range r. */
static void lat_script(struct draw *d, const struct pdir *v,
		       const struct lat_range *r)
{
	fprintf(d->gp, "set logscale x\nset xrange [%.10g:%.10g]\n",
		r->lo, r->hi);
	log_tics(d->gp, "x", r->lo, r->hi);
	lin_top(d->gp, "y", r->ymax);
	/* room above the frame for the three percentile rows, the title
	 * above them */
	fputs("set tmargin 8\nset title offset 0,4\nset y2range [0:110]\n"
	      "set ytics nomirror\nset y2tics 0,10,100\nset xtics nomirror\n"
	      "set y2label 'cumulative I/Os (%)'\n"
	      "set style fill solid 0.5 noborder\n", d->gp);
	lat_marks(d->gp, v, r);
	fputs("plot ", d->gp);
	gnuplot_quote(d->gp, d->dat_path);
	fputs(" index 0 using (sqrt($1*$2)):3:1:2:(0):3 with boxxyerror "
	      "linecolor rgb '#4060c0' title 'I/Os per bar (%)', \\\n     ''"
	      " index 1 using 1:2 axes x1y2 with lines linewidth 2 "
	      "linecolor rgb '#208020' title 'CDF (right axis)'\n", d->gp);
}

/* The data of a histogram: the bars (index 0), the CDF (index 1). */
static void lat_data(struct draw *d, const struct lbin *b, long n,
		     double zero, const struct lat_range *r)
{
	long i;

	fprintf(d->dat, "# %d bins per decade: low_us high_us pct_of_ios "
		"cumulative_pct (at high_us)\n", LAT_BINS);
	for (i = 0; i < n; i++)
		fprintf(d->dat, "%.4f %.4f %.6f %.6f\n", b[i].lo, b[i].hi,
			b[i].pct, b[i].cum);
	fprintf(d->dat, "\n\n# CDF: us cumulative_pct (from the I/Os at "
		"0 us: %.6f %%)\n%.4f %.6f\n", zero, r->lo, zero);
	for (i = 0; i < n; i++)
		fprintf(d->dat, "%.4f %.6f\n", b[i].hi, b[i].cum);
}

/* NAME-DIR-lat: histogram (log x, % of I/Os), CDF on y2, p50/p99/p99.9
 * marked; on the axes of c->lat. */
static int chart_lat(struct ctx *c, const struct pres *res,
		     const struct pjob *j, const char *stem, int q)
{
	const struct pdir *v = &j->dir[q];
	bool lat = v->which && !strcmp(v->which, "lat");
	char name[700], title[800], sub[PATH_MAX + 1200], xl[300];
	struct lat_range r = *c->lat;
	struct lbin *b;
	struct draw d;
	double zero;
	long n = lat_bins(v, &b, &zero);

	if (n <= 0)
		return n < 0 ? oom(c) : 0;
	snprintf(name, sizeof(name), "%s-%s-lat", stem, plot_dirs[q]);
	snprintf(title, sizeof(title), "%s: %s %s (%s), %.0f I/Os", j->label,
		 plot_dirs[q], v->which, lat ? "total latency, submission to "
		 "completion" : "completion latency", v->count);
	subtitle(res, j, sub, sizeof(sub));
	snprintf(xl, sizeof(xl), "%s (log scale)", v->which);
	if (zero > 0) {
		size_t k = strlen(xl);

		snprintf(xl + k, sizeof(xl) - k, "; %.3g%% of the I/Os at 0 "
			 "(completed in the submit call): no bar, counted in "
			 "the CDF", zero);
	}
	/* an axis made for this chart alone ends at its data */
	if (r.hi <= 0) {
		r = (struct lat_range){ 0 };
		if (lat_range_add(&r, v)) {
			free(b);
			return oom(c);
		}
	}
	r.lo = step125(r.lo, false);
	r.hi = step125(r.hi, true);
	if (draw_begin(c, &d, name, title, sub, xl,
		       "I/Os per bar (% of the direction's I/Os)")) {
		draw_free(&d);
		free(b);
		return -1;
	}
	lat_data(&d, b, n, zero, &r);
	lat_script(&d, v, &r);
	free(b);
	return draw_end(&d);
}

/* Figure k (iops, bandwidth, p99 latency) of direction q of a sample;
 * < 0: none (no I/O in the interval: no latency). */
static double ival_figure(const struct ival_sample *smp, int q, size_t k)
{
	switch (k) {
	case 0:
		return ival_iops(smp, q);
	case 1:
		return ival_bw(smp, q);
	}
	if (!smp->dir[q].ios)
		return -1;
	return (double)hist_sparse_percentile(&smp->dir[q].lat, 99);
}

/* The figures over time: IOPS, bandwidth, p99 (its unit chosen by the
 * chart, div 0). */
static const struct {
	const char *suffix, *what, *ylabel;
	double div;
} time_fig[] = {
	{ "iops", "IOPS", "I/O operations per second", 1 },
	{ "bw", "bandwidth", "bandwidth (MiB/s)", 1048576 },
	{ "p99", "p99 latency", "p99 latency", 0 },
};

/* The largest figure k of the directions has[] of the job's samples and
 * the end of the last (s); the number of figures there are. */
static size_t time_scan(const struct pjob *j, const bool *has, size_t k,
			double *max, double *end_s)
{
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *smp;
	size_t q, points = 0;

	*max = *end_s = 0;
	while ((smp = ival_iter_next(&it, j->iv))) {
		*end_s = fmax(*end_s, (double)smp->end_ns / 1e9);
		for (q = 0; q < NDIRS; q++) {
			double v = ival_figure(smp, (int)q, k);

			if (has[q] && v >= 0) {
				*max = fmax(*max, v);
				points++;
			}
		}
	}
	return points;
}

/* NAME-SUFFIX: figure k of the job's intervals over time, one line per
 * direction; the axes end at the data's ends. 0 or -1 (e). */
static int chart_time_one(struct ctx *c, const struct pjob *j,
			  const char *stem, const char *sub, const bool *has,
			  size_t k)
{
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *smp;
	char name[700], title[800], ylabel[64];
	double max, end_s, div = time_fig[k].div;
	struct draw d;
	size_t q;
	int col = 2;

	if (!time_scan(j, has, k, &max, &end_s))
		return 0;	/* nothing to draw (gnuplot would fail) */
	snprintf(ylabel, sizeof(ylabel), "%s", time_fig[k].ylabel);
	if (!div)
		snprintf(ylabel, sizeof(ylabel), "%s (%s)", time_fig[k].ylabel,
			 time_unit(max, &div));
	snprintf(name, sizeof(name), "%s-%s", stem, time_fig[k].suffix);
	snprintf(title, sizeof(title), "%s: %s over time (%s intervals)",
		 j->label, time_fig[k].what, j->interval);
	if (draw_begin(c, &d, name, title, sub,
		       "time since the job started (s)", ylabel)) {
		draw_free(&d);
		return -1;
	}
	fprintf(d.dat, "# interval_end_s");
	for (q = 0; q < NDIRS; q++)
		if (has[q])
			fprintf(d.dat, " %s", plot_dirs[q]);
	fputc('\n', d.dat);
	while ((smp = ival_iter_next(&it, j->iv))) {
		fprintf(d.dat, "%.6f", (double)smp->end_ns / 1e9);
		for (q = 0; q < NDIRS; q++) {
			double v = ival_figure(smp, (int)q, k);

			if (has[q])
				fprintf(d.dat, v < 0 ? " ?" : " %.10g",
					v / div);
		}
		fputc('\n', d.dat);
	}
	lin_top(d.gp, "y", max / div);
	time_end(d.gp, end_s);
	fputs("plot", d.gp);
	for (q = 0; q < NDIRS; q++) {
		if (!has[q])
			continue;
		fputs(col > 2 ? ", \\\n     " : " ", d.gp);
		gnuplot_quote(d.gp, d.dat_path);
		fprintf(d.gp, " using 1:%d with linespoints linewidth 2 "
			"title '%s'", col++, plot_dirs[q]);
	}
	fputc('\n', d.gp);
	return draw_end(&d);
}

/* NAME-iops, NAME-bw, NAME-p99 from the job's intervals. */
static int chart_time(struct ctx *c, const struct pres *res,
		      const struct pjob *j, const char *stem)
{
	bool has[NDIRS];
	char sub[PATH_MAX + 1200];
	size_t k, q, nd = 0;

	if (!j->iv || !ival_series_count(j->iv))
		return 0;
	for (q = 0; q < NDIRS; q++) {
		has[q] = j->dir[q].ios > 0;
		nd += has[q];
	}
	if (!nd)
		return 0;
	subtitle(res, j, sub, sizeof(sub));
	for (k = 0; k < sizeof(time_fig) / sizeof(time_fig[0]); k++)
		if (chart_time_one(c, j, stem, sub, has, k))
			return -1;
	return 0;
}

/* One point of the sweep chart: the clones of a sweep point summed. */
struct sweep_pt {
	char line[256];		/* the sweep point without its bs= */
	double bs, iops, reqs, cpu_us;	/* cpu_us: us_per_io x reqs */
};

/* sp without its "bs=..." word; "" when sp has no bs= (no sweep over
 * request sizes). */
static bool sweep_line(const char *sp, char *buf, size_t len)
{
	bool bs = false;
	size_t n = 0;

	buf[0] = '\0';
	while (*sp) {
		size_t w = strcspn(sp, " ");

		if (w > 3 && !strncmp(sp, "bs=", 3))
			bs = true;
		else if (w && n + w + 2 < len) {
			if (n)
				buf[n++] = ' ';
			memcpy(buf + n, sp, w);
			n += w;
			buf[n] = '\0';
		}
		sp += w;
		while (*sp == ' ')
			sp++;
	}
	return bs;
}

static int pt_cmp(const void *a, const void *b)
{
	const struct sweep_pt *x = a, *y = b;
	int r = strcmp(x->line, y->line);

	if (r)
		return r;
	return (x->bs > y->bs) - (x->bs < y->bs);
}

int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void bs_tic(char *buf, size_t len, double bs)
{
	static const char *const u[] = { "", "k", "M", "G" };
	int k = 0;

	while (bs >= 1024 && fmod(bs, 1024) == 0 && k < 3) {
		bs /= 1024;
		k++;
	}
	snprintf(buf, len, "%.0f%s", bs, u[k]);
}

/* The sweep's points of res, the clones of each summed, in pt (room for
 * njobs); their number. *j0: the first job swept over bs=. */
static size_t sweep_points(const struct pres *res, struct sweep_pt *pt,
			   const struct pjob **j0)
{
	size_t n = 0, i, k;

	*j0 = NULL;
	for (i = 0; i < res->njobs; i++) {
		const struct pjob *j = &res->jobs[i];
		struct sweep_pt p = { 0 };
		if (!j->ran || !sweep_line(j->sweep_point, p.line,
					   sizeof(p.line)))
			continue;
		if (!*j0)
			*j0 = j;
		p.bs = j->bs;
		for (k = 0; k < n; k++)
			if (!strcmp(pt[k].line, p.line) && pt[k].bs == p.bs)
				break;
		if (k == n)
			pt[n++] = p;
		pt[k].iops += j->iops;
		pt[k].reqs += j->reqs;
		pt[k].cpu_us += j->us_per_io * j->reqs;
	}
	qsort(pt, n, sizeof(*pt), pt_cmp);
	return n;
}

/* The request sizes of the points, ascending, in bsv; their number. */
static size_t sweep_sizes(const struct sweep_pt *pt, size_t n, double *bsv)
{
	size_t i, k, nbs = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < nbs && bsv[k] != pt[i].bs; k++)
			;
		if (k == nbs)
			bsv[nbs++] = pt[i].bs;
	}
	qsort(bsv, nbs, sizeof(*bsv), dbl_cmp);
	return nbs;
}

/* The CPU per I/O of a point (us). */
static double pt_cpu(const struct sweep_pt *p)
{
	return p->reqs > 0 ? p->cpu_us / p->reqs : 0;
}

/* The data: one block (gnuplot index) per line of points. */
static void sweep_data(FILE *dat, const struct sweep_pt *pt, size_t n)
{
	size_t i;

	fprintf(dat, "# one block (gnuplot index) per line: bs_bytes "
		"iops cpu_us_per_io\n");
	for (i = 0; i < n; i++) {
		if (!i || strcmp(pt[i].line, pt[i - 1].line)) {
			fprintf(dat, "%s# ", i ? "\n\n" : "");
			put_text(dat, *pt[i].line ? pt[i].line : "sweep", "");
			fputc('\n', dat);
		}
		fprintf(dat, "%.0f %.10g %.10g\n", pt[i].bs, pt[i].iops,
			pt_cpu(&pt[i]));
	}
}

/* One of the two plots: column col (2: op/s, 3: CPU) of every line, its
 * y axis with a tenth free above the highest point. */
static void sweep_plot(struct draw *d, const struct sweep_pt *pt, size_t n,
		       int col)
{
	double max = 0;
	size_t i, nlines = 0;

	for (i = 0; i < n; i++)
		max = fmax(max, col == 2 ? pt[i].iops : pt_cpu(&pt[i]));
	lin_top(d->gp, "y", max);
	fputs("plot", d->gp);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(pt[i].line, pt[i - 1].line))
			continue;
		fputs(nlines ? ", \\\n     " : " ", d->gp);
		gnuplot_quote(d->gp, d->dat_path);
		fprintf(d->gp, " index %zu using 1:%d with linespoints "
			"linewidth 2 pointtype %zu title ", nlines, col,
			nlines + 5);
		gnuplot_quote(d->gp, *pt[i].line ? pt[i].line : "sweep");
		nlines++;
	}
	fputc('\n', d->gp);
}

/* The script: the sizes as ticks, op/s above CPU per I/O. */
static void sweep_script(struct draw *d, const struct sweep_pt *pt,
			 size_t n, const double *bsv, size_t nbs,
			 const char *title, const char *sub)
{
	size_t k;

	fputs("set logscale x 2\nset xtics (", d->gp);
	for (k = 0; k < nbs; k++) {
		char tic[32];

		bs_tic(tic, sizeof(tic), bsv[k]);
		fprintf(d->gp, "%s'%s' %.0f", k ? ", " : "", tic, bsv[k]);
	}
	fprintf(d->gp, ")\nset xrange [%.1f:%.1f]\n"
		"set multiplot layout 2,1 title ", bsv[0] / 1.3,
		bsv[nbs - 1] * 1.3);
	gnuplot_quote(d->gp, title);
	fputs(" . \"\\n\" . ", d->gp);
	gnuplot_quote(d->gp, sub);
	fputs("\nunset title\nset key outside right top vertical\n"
	      "set xlabel ''\nset ylabel 'op/s (I/O operations per second)'\n",
	      d->gp);
	sweep_plot(d, pt, n, 2);
	fputs("set xlabel 'request size (bytes, log scale)'\n"
	      "set ylabel 'CPU per I/O (µs, user + system)'\n", d->gp);
	sweep_plot(d, pt, n, 3);
	fputs("unset multiplot\n", d->gp);
}

/* sweep: op/s and CPU us per I/O against bs, one line per other sweep
 * value (the engine in jobs/kaio-vs-pthread.job). */
static int chart_sweep(struct ctx *c, const struct pres *res)
{
	const struct pjob *j0;
	struct sweep_pt *pt;
	size_t n, nbs;
	char sub[PATH_MAX + 1200], title[600], rw[80], depth[80];
	struct draw d;
	double *bsv;
	int ret = 0;

	pt = calloc(res->njobs + 1, sizeof(*pt));
	bsv = calloc(res->njobs + 1, sizeof(*bsv));
	if (!pt || !bsv) {
		free(pt);
		free(bsv);
		return oom(c);
	}
	n = sweep_points(res, pt, &j0);
	nbs = sweep_sizes(pt, n, bsv);
	if (nbs < 2)
		goto out;
	snprintf(title, sizeof(title), "%s: op/s and CPU per I/O against "
		 "request size (sweep)", j0->name);
	snprintf(rw, sizeof(rw), "rw=%s", j0->rw);
	snprintf(depth, sizeof(depth), "iodepth=%s", j0->iodepth);
	/* the job, not its first point; no engine: it is a line each */
	sub[0] = '\0';
	sub_add(sub, sizeof(sub), "job %s", j0->name);
	sub_add(sub, sizeof(sub), "%s", rw);
	sub_add(sub, sizeof(sub), "%s", depth);
	sub_target(sub, sizeof(sub), j0);
	sub_add(sub, sizeof(sub), "host %s", res->host);
	sub_add(sub, sizeof(sub), "%s", res->time);
	ret = -1;
	if (draw_begin(c, &d, "sweep", title, sub,
		       "request size (bytes, log scale)", "op/s")) {
		draw_free(&d);
		goto out;
	}
	sweep_data(d.dat, pt, n);
	sweep_script(&d, pt, n, bsv, nbs, title, sub);
	ret = draw_end(&d);
out:
	free(pt);
	free(bsv);
	return ret;
}

/* Every chart of one result: the sweep (the summary) first, then per
 * job its latency and time charts, every histogram on the axes of
 * c->lat or else of all the result's histograms. 0 or -1 (e). */
int result_charts(struct ctx *c, const struct pres *res)
{
	const struct lat_range *keep = c->lat;
	struct lat_range own = { 0 };
	size_t i;
	int q, ret = -1;

	if (!keep) {
		if (lat_range_res(&own, res))
			return oom(c);
		c->lat = &own;
	}
	if (chart_sweep(c, res))
		goto out;
	for (i = 0; i < res->njobs; i++) {
		const struct pjob *j = &res->jobs[i];
		char stem[600];

		if (!j->ran)
			continue;
		job_stem(j, stem, 151);	/* file names fit NAME_MAX */
		for (q = 0; q < NDIRS; q++)
			if (chart_lat(c, res, j, stem, q))
				goto out;
		if (chart_time(c, res, j, stem))
			goto out;
	}
	ret = 0;
out:
	c->lat = keep;
	return ret;
}

int plot_result_charts(const struct run_result *r, struct plot_chart **charts,
		       struct err_rec *e)
{
	struct door_made made = DOOR_MADE_NONE;
	struct names used = { 0 };
	struct ctx c = { .fmt = "svg", .prefix = "", .e = e, .used = &used };
	struct pres res = { 0 };
	char dir[PATH_MAX];
	int ret = -1;

	*charts = NULL;
	if (result_collect(r, &res.rs)) {
		err_set(e, "", 0, "", "out of memory");
		return -1;
	}
	res.have_rs = true;
	if (pres_model(r, &res.rs, &res)) {
		err_set(e, "", 0, "", "out of memory");
		goto out;
	}
	if (door_mkdtemp(&made, "iorig-plot", dir, sizeof(dir), e))
		goto out;
	c.dir = dir;
	ret = result_charts(&c, &res);
	door_remove(&made);
out:
	pres_free(&res);
	names_free(&used);
	if (ret) {
		plot_charts_free(c.out, c.n);
		return -1;
	}
	*charts = c.out;
	return c.n;
}

void plot_charts_free(struct plot_chart *charts, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(charts[i].name);
		free(charts[i].title);
		free(charts[i].svg);
	}
	free(charts);
}
