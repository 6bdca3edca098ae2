// SPDX-License-Identifier: MIT
/*
 * `iorig plot`'s comparison (plot_int.h): across several results, or a
 * result against --baseline, bars per job of IOPS, bandwidth and p99 per
 * direction, the baseline as a dashed reference; one latency (clat when
 * a fio result has no other) for all.
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


static const struct pjob *find_job(const struct pres *res, const char *label)
{
	size_t i;

	for (i = 0; i < res->njobs; i++)
		if (res->jobs[i].ran && !strcmp(res->jobs[i].label, label))
			return &res->jobs[i];
	return NULL;
}

/* A direction's figure: iops, MiB/s or p99 (us); < 0 when it has none. */
static double cmp_value(const struct pjob *j, int q, int metric)
{
	const struct pdir *d = j ? &j->dir[q] : NULL;

	if (!d || d->ios <= 0)
		return -1;
	if (metric == 0)
		return d->iops;
	if (metric == 1)
		return d->bw / 1048576;
	return d->p99;
}

/* The labels of the jobs of the results, in order of first appearance
 * (each once); their number, -1 (no memory). */
static long cmp_labels(const struct cmp_in *in, size_t n, char ***out)
{
	char **labels = NULL, **p;
	size_t nl = 0, i, k, r;

	for (r = 0; r < n; r++)
		for (i = 0; i < in[r].res.njobs; i++) {
			const struct pjob *j = &in[r].res.jobs[i];

			if (!j->ran)
				continue;
			for (k = 0; k < nl && strcmp(labels[k], j->label); k++)
				;
			if (k < nl)
				continue;
			p = realloc(labels, (nl + 1) * sizeof(*p));
			if (p)
				labels = p;
			if (!p || !(labels[nl] = strdup(j->label)))
				goto fail;
			nl++;
		}
	*out = labels;
	return (long)nl;
fail:
	for (k = 0; k < nl; k++)
		free(labels[k]);
	free(labels);
	return -1;
}

/* A comparison's view of one chart: results in[0..n) (the baseline
 * first when base), the jobs' labels, the direction and metric. */
struct cmp_view {
	const struct cmp_in *in;
	size_t n, nl;
	bool base;
	char **labels;
	int q, metric;
};

static double cmp_at(const struct cmp_view *v, size_t r, size_t k)
{
	return cmp_value(find_job(&v->in[r].res, v->labels[k]), v->q,
			 v->metric);
}

/* "baseline B (dashed), host H[, host H2...]": only what is known. */
static void cmp_subtitle(const struct cmp_view *v, char *buf, size_t len)
{
	char b[320];
	size_t r, k;

	buf[0] = '\0';
	if (v->base) {
		snprintf(b, sizeof(b), "%s (dashed)", v->in[0].label);
		sub_add(buf, len, "baseline %s", b);
	}
	for (r = 0; r < v->n; r++) {
		for (k = 0; k < r && strcmp(v->in[k].res.host,
					    v->in[r].res.host); k++)
			;
		if (k == r)
			sub_add(buf, len, "host %s", v->in[r].res.host);
	}
}

/* The data: a row per job, a column per result ('?': none); the
 * largest value drawn. */
static double cmp_data(const struct cmp_view *v, FILE *dat, double div,
		       const char *ylabel)
{
	double max = 0;
	size_t r, k;

	fprintf(dat, "# %s\n# job_index \"job\"", ylabel);
	for (r = 0; r < v->n; r++) {
		fprintf(dat, " \"%s", r < (size_t)v->base ? "baseline " : "");
		put_text(dat, v->in[r].label, "\"");
		fputc('"', dat);
	}
	fputc('\n', dat);
	for (k = 0; k < v->nl; k++) {
		fprintf(dat, "%zu \"", k);
		put_text(dat, v->labels[k], "\"");
		fputc('"', dat);
		for (r = 0; r < v->n; r++) {
			double x = cmp_at(v, r, k);

			if (x < 0)
				fputs(" ?", dat);
			else
				fprintf(dat, " %.10g", x / div);
			max = fmax(max, x / div);
		}
		fputc('\n', dat);
	}
	return max;
}

/* The script: the bars of each job side by side inside [k-0.4, k+0.4]
 * (the axis ends a fifth of a slot beyond them), the baseline a dashed
 * line across them. */
static void cmp_script(const struct cmp_view *v, struct draw *d, double max)
{
	size_t nbars = v->n - v->base, r, col;
	double w = 0.8 / (nbars ? nbars : 1);

	fprintf(d->gp, "set style fill solid 0.8 noborder\n"
		"set boxwidth %.4f absolute\nset xrange [-0.6:%zu.6]\n"
		"set xtics rotate by -25\nset key outside right top vertical\n",
		w, v->nl - 1);
	lin_top(d->gp, "y", max);
	fputs("plot", d->gp);
	for (r = v->base, col = 0; r < v->n; r++, col++) {
		fputs(col ? ", \\\n     " : " ", d->gp);
		gnuplot_quote(d->gp, d->dat_path);
		fprintf(d->gp, " using ($1+%.4f):%zu%s with boxes title ",
			(col - (nbars - 1) / 2.0) * w, r + 3,
			col ? "" : ":xtic(2)");
		gnuplot_quote(d->gp, v->in[r].label);
	}
	if (v->base) {
		char t[300];

		fputs(", \\\n     ", d->gp);
		gnuplot_quote(d->gp, d->dat_path);
		fputs(" using ($1-0.45):3:(0.9):(0) with vectors nohead "
		      "linewidth 3 dashtype 2 linecolor rgb 'black' title ",
		      d->gp);
		snprintf(t, sizeof(t), "baseline %s", v->in[0].label);
		gnuplot_quote(d->gp, t);
	}
	fputc('\n', d->gp);
}

/* The latency the results' p99 is of: lat, clat, or "lat or clat". */
static const char *cmp_which(const struct cmp_view *v)
{
	const char *w = NULL;
	size_t r, i;

	for (r = 0; r < v->n; r++)
		for (i = 0; i < v->in[r].res.njobs; i++) {
			const char *x = v->in[r].res.jobs[i].dir[v->q].which;

			if (x && w && strcmp(x, w))
				return "lat or clat";
			w = x ? x : w;
		}
	return w ? w : "lat";
}

/* compare-DIR-METRIC of v; nothing when no result has the figure. */
static int chart_compare_one(struct ctx *c, const struct cmp_view *v)
{
	static const char *const mname[] = { "iops", "bw", "p99" };
	static const char *const mwhat[] = { "IOPS", "bandwidth", "p99" };
	static const char *const munit[] = { "I/O operations per second",
					     "bandwidth (MiB/s)", NULL };
	char name[64], title[256], sub[1024], ylabel[96];
	double max = 0, div = 1;
	struct draw d;
	size_t k, r;

	for (k = 0; k < v->nl; k++)
		for (r = 0; r < v->n; r++)
			max = fmax(max, cmp_at(v, r, k));
	for (k = 0, r = 0; k < v->nl && !r; k++)
		for (r = 0; r < v->n && cmp_at(v, r, k) < 0; r++)
			;
	if (!v->nl || r == v->n)
		return 0;	/* no result has the figure */
	if (munit[v->metric])
		snprintf(ylabel, sizeof(ylabel), "%s", munit[v->metric]);
	else	/* p99 in us: the axis's unit from its largest value */
		snprintf(ylabel, sizeof(ylabel), "p99 %s (%s)", cmp_which(v),
			 time_unit(max * 1e3, &div));
	div = munit[v->metric] ? 1 : div / 1e3;
	snprintf(name, sizeof(name), "compare-%s-%s", plot_dirs[v->q],
		 mname[v->metric]);
	snprintf(title, sizeof(title), "%s %s%s%s of %zu results%s",
		 plot_dirs[v->q], mwhat[v->metric], munit[v->metric] ? "" : " ",
		 munit[v->metric] ? "" : cmp_which(v), v->n - v->base,
		 v->base ? " against the baseline" : "");
	cmp_subtitle(v, sub, sizeof(sub));
	if (draw_begin(c, &d, name, title, sub, "job", ylabel)) {
		draw_free(&d);
		return -1;
	}
	max = cmp_data(v, d.dat, div, ylabel);
	cmp_script(v, &d, max);
	return draw_end(&d);
}

/*
 * compare-DIR-METRIC: bars per job (label), one per result, the
 * baseline (in[0] when base) a dashed line across each job's bars.
 */
int chart_compare(struct ctx *c, const struct cmp_in *in, size_t n,
		  bool base)
{
	struct cmp_view v = { .in = in, .n = n, .base = base };
	long nl = cmp_labels(in, n, &v.labels);
	int ret = 0;

	if (nl < 0)
		return oom(c);
	v.nl = (size_t)nl;
	for (v.q = 0; v.q < NDIRS && !ret; v.q++)
		for (v.metric = 0; v.metric < 3 && !ret; v.metric++)
			ret = chart_compare_one(c, &v);
	while (nl > 0)
		free(v.labels[--nl]);
	free(v.labels);
	return ret;
}
