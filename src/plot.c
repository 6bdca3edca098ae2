// SPDX-License-Identifier: MIT
/*
 * `iorig plot`: charts of iorig JSON results, drawn by gnuplot
 * (include/plot.h). Each chart is a data file NAME.dat and a script
 * NAME.gp handed to gnuplot (gnuplot.c), which draws NAME.svg or
 * NAME.png. plot_main keeps all three in --outdir; plot_result_charts
 * draws in a temporary directory and returns the SVG text.
 *
 * Charts: per job and direction the latency histogram with its CDF and
 * p50/p99/p99.9 (NAME-DIR-lat); per job with intervals= IOPS, bandwidth
 * and p99 over time (NAME-iops, NAME-bw, NAME-p99); per result with a
 * sweep over bs= op/s and CPU us per I/O against request size, one line
 * per other sweep value (sweep); across several results (or against
 * --baseline) bars per job of IOPS, bandwidth and p99 per direction
 * (compare-DIR-METRIC), the baseline as a dashed reference; per log file
 * of write_bw_log= and the others its values over time (LOG). fio's JSON
 * results are read as iorig ones (from_fio) as far as the charts go.
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

#include <jansson.h>

#include "door.h"
#include "err.h"
#include "gnuplot.h"
#include "plot.h"
#include "options.h"
#include "result.h"

static const char *const dirs[] = { "read", "write", "trim" };
#define NDIRS 3
/* latency histogram bars per decade */
#define LAT_BINS 20

/* Where and how charts are drawn. */
struct ctx {
	const char *dir;	/* NAME.dat, NAME.gp and the picture go here */
	const char *fmt;	/* "svg" or "png" */
	const char *prefix;	/* of every name: "" or "RESULT-" */
	bool keep;		/* plot_main: files stay, names printed */
	struct plot_chart *out;	/* in process: the charts drawn */
	int n, cap;
	struct err_rec *e;
	struct names *used;	/* the names drawn so far (one run) */
};

/* Names given, so that two jobs of one name do not share a file. */
struct names {
	char **v;
	size_t n;
};

static void names_free(struct names *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->v[i]);
	free(u->v);
}

/* stem made unique among u's (-2, -3... added) and kept there; 0 or -1. */
static int names_take(struct names *u, char *stem, size_t len)
{
	size_t i, base = strlen(stem);
	unsigned k = 1;
	char **v;

	for (i = 0; i < u->n; i++) {
		if (strcmp(u->v[i], stem))
			continue;
		snprintf(stem + base, len - base, "-%u", ++k);
		i = (size_t)-1;		/* again from the start */
	}
	v = realloc(u->v, (u->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	u->v = v;
	if (!(v[u->n] = strdup(stem)))
		return -1;
	u->n++;
	return 0;
}

/* One chart being written. */
struct draw {
	struct ctx *c;
	char *name, *title, *dat_path, *gp_path, *pic_path;
	FILE *dat, *gp;
	char *datbuf, *gpbuf;
	size_t datlen, gplen;
};

/* name as a file-name part: [A-Za-z0-9._-] kept, ' ' as '-', else '_'. */
static void name_part(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	for (; *s && n + 1 < len; s++, n++) {
		char ch = *s;

		if (ch == ' ')
			ch = '-';
		else if (!((ch >= 'a' && ch <= 'z') ||
			   (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '.' ||
			   ch == '-' || ch == '_'))
			ch = '_';
		buf[n] = ch;
	}
	buf[n] = '\0';
}

/* ---- what the charts read of a result ---- */

/* A histogram bucket as a chart draws it: [lo, hi] ns holding n I/Os. */
struct prow {
	double lo, hi, n;
};

/* One direction of a unit. */
struct pdir {
	double ios, iops, bw;		/* bw in B/s */
	const char *which;		/* "lat" or "clat": the latency drawn;
					 * NULL when neither has I/Os */
	double count;			/* its I/Os */
	struct prow *rows;		/* its non-empty buckets, ascending */
	size_t nrows;
	double mark[3];			/* its p50, p99, p99.9 in us; < 0 */
	double p99;			/* the comparison's p99 in us; < 0 */
};

/* One reported unit. */
struct pjob {
	char label[512];		/* "NAME[ SWEEP-POINT][ clone N]" */
	bool ran;
	const char *name, *sweep_point;	/* "" for none */
	char engine[64], rw[64], iodepth[64], interval[64];
	double bs;			/* bs= in bytes; 0: not one size */
	const char *path;		/* of its first target; NULL: none */
	const char *dev;		/* that target's device name, or "" */
	size_t ntargets;
	struct pdir dir[NDIRS];
	const struct ival_series *iv;	/* interval= samples, or NULL */
	double iops, reqs, us_per_io;	/* its summary row */
};

/*
 * One result: of the result model (an iorig result, read back when
 * saved), or fio's JSON (pres_fio: what fio wrote, its bins and
 * percentiles as they are).
 */
struct pres {
	const char *host, *time;
	struct pjob *jobs;
	size_t njobs;
	char timebuf[64];
	struct result_doc doc;		/* a saved iorig result */
	struct result_set rs;		/* the units of a run's result */
	bool have_rs;
	json_t *fio;			/* fio's document */
};

static void pres_free(struct pres *p)
{
	size_t i;
	int q;

	for (i = 0; p->jobs && i < p->njobs; i++)
		for (q = 0; q < NDIRS; q++)
			free(p->jobs[i].dir[q].rows);
	free(p->jobs);
	if (p->have_rs)
		result_set_free(&p->rs);
	result_doc_free(&p->doc);
	json_decref(p->fio);
	memset(p, 0, sizeof(*p));
}

/*
 * Percentile p of the rows (each bucket's upper edge, as the reported
 * percentiles are of a bucket), in us; -1 when they hold no I/O.
 */
static double rows_pct(const struct pdir *v, double p)
{
	double total = 0, cum = 0, want;
	size_t i;

	for (i = 0; i < v->nrows; i++)
		total += v->rows[i].n;
	want = p / 100 * total;
	for (i = 0; i < v->nrows && total > 0; i++) {
		cum += v->rows[i].n;
		if (cum >= want)
			return v->rows[i].hi / 1e3;
	}
	return -1;
}

/* The percentile p the unit's job reports of h (k: MH_*) in us, else
 * the rows'. */
static double mark_of(const struct job *j, const struct hist *h, int k,
		      const struct pdir *v, double p)
{
	if (h->count && result_shows_pct(j, k, p))
		return (double)hist_percentile(h, p) / 1e3;
	return rows_pct(v, p);
}

static int rows_of(const struct hist *h, struct pdir *v)
{
	unsigned i;

	v->rows = calloc(HIST_NBUCKETS, sizeof(*v->rows));
	if (!v->rows)
		return -1;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		v->rows[v->nrows].lo = (double)hist_bucket_low(i);
		v->rows[v->nrows].hi = (double)hist_bucket_high(i);
		v->rows[v->nrows++].n = (double)h->b[i];
	}
	return 0;
}

/*
 * Direction q of unit u: the latency drawn is lat (issue to completion)
 * when it was measured, else clat; the comparison's p99 the reported
 * one (lat's with lat_percentiles=1, else clat's, as the summary's
 * lat_p99_ns), else the buckets'. 0 or -1 (no memory).
 */
static int dir_view(const struct result_unit *u, int q, struct pdir *v)
{
	static const double pk[3] = { 50, 99, 99.9 };
	const struct job_stats *s = &u->stats;
	const struct dir_stats *d = &s->dir[q];
	const struct hist *h = NULL;
	bool measured = s->nmeasured || !s->nclones;
	int k = MH_LAT, i;

	v->ios = (double)d->ios;
	v->iops = measured ? stats_iops(d, s->runtime_ns) : 0;
	v->bw = measured ? stats_bw(d, s->runtime_ns) : 0;
	if (d->lat.count > d->lat.overflow)
		h = &d->lat;
	else if (d->clat.count > d->clat.overflow)
		h = &d->clat, k = MH_CLAT;
	v->p99 = -1;
	for (i = 0; i < 3; i++)
		v->mark[i] = -1;
	if (!h)
		return 0;
	v->which = k == MH_LAT ? "lat" : "clat";
	v->count = (double)h->count;
	if (rows_of(h, v))
		return -1;
	for (i = 0; i < 3; i++)
		v->mark[i] = mark_of(u->job, h, k, v, pk[i]);
	if (d->lat.count && result_shows_pct(u->job, MH_LAT, 99))
		v->p99 = (double)hist_percentile(&d->lat, 99) / 1e3;
	else if (d->clat.count && result_shows_pct(u->job, MH_CLAT, 99))
		v->p99 = (double)hist_percentile(&d->clat, 99) / 1e3;
	else
		v->p99 = rows_pct(v, 99);
	return 0;
}

/* The option's text as the reports give it. */
static void opt_text(const struct job *j, const char *name, char *buf,
		     size_t len)
{
	const struct opt_def *o = options_find(name);

	buf[0] = '\0';
	if (o)
		options_format(j, o, buf, len);
}

static int job_view(const struct run_result *r, const struct result_unit *u,
		    struct pjob *pj)
{
	const struct job *j = u->job;
	const struct run_targets *rt = result_targets(r, u);
	struct result_row row;
	char bs[64];
	int n, q;

	pj->name = j->name ? j->name : "";
	pj->sweep_point = j->sweep_point ? j->sweep_point : "";
	n = snprintf(pj->label, sizeof(pj->label), "%s%s%s", pj->name,
		     *pj->sweep_point ? " " : "", pj->sweep_point);
	if (u->njobs > 1 && n >= 0 && (size_t)n < sizeof(pj->label))
		snprintf(pj->label + n, sizeof(pj->label) - n, " clone %d",
			 j->group_reporting ? 0 : (int)j->clone);
	pj->ran = u->stats.nclones > 0;
	opt_text(j, "ioengine", pj->engine, sizeof(pj->engine));
	opt_text(j, "rw", pj->rw, sizeof(pj->rw));
	opt_text(j, "iodepth", pj->iodepth, sizeof(pj->iodepth));
	opt_text(j, "interval", pj->interval, sizeof(pj->interval));
	opt_text(j, "bs", bs, sizeof(bs));
	pj->bs = strtod(bs, NULL);
	pj->ntargets = rt ? rt->n : 0;
	if (pj->ntargets) {
		pj->path = rt->t[0].path ? rt->t[0].path : "";
		pj->dev = rt->t[0].info.has_device ? rt->t[0].info.dev.name :
			  "";
	}
	pj->iv = u->stats.intervals;
	/* stopped during ramp_time: no summary */
	if (!u->stats.nclones || u->stats.nmeasured) {
		result_row(r, u, &row);
		pj->iops = row.iops;
		pj->reqs = (double)row.ios;
		pj->us_per_io = row.us_per_io;
	}
	for (q = 0; q < NDIRS; q++)
		if (dir_view(u, q, &pj->dir[q]))
			return -1;
	return 0;
}

/* p (zeroed) as the charts see r, whose units are rs; 0 or -1. */
static int pres_model(const struct run_result *r, const struct result_set *rs,
		      struct pres *p)
{
	int i;

	p->host = r->hostname;
	result_time_iso(r->start_time, p->timebuf, sizeof(p->timebuf));
	p->time = p->timebuf;
	p->jobs = calloc((size_t)rs->nunits + 1, sizeof(*p->jobs));
	if (!p->jobs)
		return -1;
	for (i = 0; i < rs->nunits; i++) {
		if (rs->units[i].hidden)
			continue;
		if (job_view(r, &rs->units[i], &p->jobs[p->njobs++]))
			return -1;
	}
	return 0;
}

/* The file-name stem of a job: its label as a name part. */
static void job_stem(const struct pjob *j, char *buf, size_t len)
{
	buf[0] = '\0';
	name_part(buf, len, j->label);
}

/* "job J, engine E, target T (dev D), host H, TIME" */
static void subtitle(const struct pres *res, const struct pjob *j, char *buf,
		     size_t len)
{
	char more[32] = "", devs[96] = "";

	if (j->ntargets > 1)
		snprintf(more, sizeof(more), " +%zu more", j->ntargets - 1);
	if (j->dev && *j->dev)
		snprintf(devs, sizeof(devs), " (%s)", j->dev);
	snprintf(buf, len, "job %s, engine %s, target %s%s%s%s%s, %s",
		 j->label, j->engine, j->ntargets ? j->path : "?", devs, more,
		 *res->host ? ", host " : "", res->host, res->time);
}

/* s on one line of a data file or a script comment: controls and the
 * characters of bad as '?' (nothing a line break could smuggle into a
 * script). */
static void put_text(FILE *f, const char *s, const char *bad)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ||
		      (*bad && strchr(bad, *s)) ? '?' : *s, f);
}

static int oom(struct ctx *c)
{
	err_set(c->e, "", 0, "", "out of memory");
	return -1;
}

/*
 * Starts chart NAME (the context's prefix added): its data and script in
 * memory, the script's terminal, output, title (with sub under it) and
 * axis labels written. 0 or -1 (e).
 */
static int draw_begin(struct ctx *c, struct draw *d, const char *name,
		      const char *title, const char *sub, const char *xlabel,
		      const char *ylabel)
{
	char stem[600] = "";

	memset(d, 0, sizeof(*d));
	d->c = c;
	snprintf(stem, sizeof(stem), "%s", c->prefix);
	name_part(stem, sizeof(stem) - 16, name);
	if (c->used && names_take(c->used, stem, sizeof(stem)))
		return oom(c);
	d->name = strdup(stem);
	d->title = strdup(title);
	if (!d->name || !d->title ||
	    asprintf(&d->dat_path, "%s/%s.dat", c->dir, stem) < 0 ||
	    asprintf(&d->gp_path, "%s/%s.gp", c->dir, stem) < 0 ||
	    asprintf(&d->pic_path, "%s/%s.%s", c->dir, stem, c->fmt) < 0) {
		d->dat_path = d->gp_path = d->pic_path = NULL;
		return oom(c);
	}
	d->dat = open_memstream(&d->datbuf, &d->datlen);
	d->gp = open_memstream(&d->gpbuf, &d->gplen);
	if (!d->dat || !d->gp)
		return oom(c);
	fputs("# iorig plot: ", d->dat);
	put_text(d->dat, title, "");
	fputs("\n", d->dat);
	fputs("# iorig plot: ", d->gp);
	put_text(d->gp, title, "");
	fputs("\nset encoding utf8\n", d->gp);
	if (!strcmp(c->fmt, "png"))
		fputs("set terminal pngcairo size 1000,620 noenhanced "
		      "background rgb 'white' font 'sans,10'\n", d->gp);
	else
		fputs("set terminal svg size 1000,620 dynamic noenhanced "
		      "background rgb 'white' font 'sans,12'\n", d->gp);
	/* no `set output`: the picture is gnuplot's standard output, a
	 * file opened through the door (draw_end) */
	fputs("set title ", d->gp);
	gnuplot_quote(d->gp, title);
	if (sub && *sub) {
		fputs(" . \"\\n\" . ", d->gp);
		gnuplot_quote(d->gp, sub);
	}
	fputs("\nset xlabel ", d->gp);
	gnuplot_quote(d->gp, xlabel);
	fputs("\nset ylabel ", d->gp);
	gnuplot_quote(d->gp, ylabel);
	fputs("\nset grid\nset datafile missing '?'\n"
	      "set key outside bottom center horizontal\n", d->gp);
	return 0;
}

static void draw_free(struct draw *d)
{
	if (d->dat)
		fclose(d->dat);
	if (d->gp)
		fclose(d->gp);
	free(d->datbuf);
	free(d->gpbuf);
	free(d->name);
	free(d->title);
	free(d->dat_path);
	free(d->gp_path);
	free(d->pic_path);
}

/* buf, whole, to path through the door; what path names then in *made
 * (for plot_result_charts' removal). 0 or -1 (e). */
static int write_file(const char *path, const char *buf, size_t len,
		      struct stat *made, struct err_rec *e)
{
	struct door_out o;
	int r;

	if (door_open(&o, path, "outdir", DOOR_WHOLE, NULL, e))
		return -1;
	fwrite(buf, 1, len, o.f);
	r = door_close(&o);
	if (r) {
		err_set(e, path, 0, "", "cannot write: %s", strerror(-r));
		return -1;
	}
	made->st_dev = o.dev;
	made->st_ino = o.ino;
	return 0;
}

/* The bytes of the open file fd from its start, as a string; NULL. */
static char *read_fd(int fd)
{
	char *buf = NULL, chunk[8192];
	size_t len = 0;
	off_t off = 0;
	ssize_t n;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	while ((n = pread(fd, chunk, sizeof(chunk), off)) > 0) {
		fwrite(chunk, 1, (size_t)n, m);
		off += n;
	}
	if (n < 0 || fclose(m)) {
		if (n < 0)
			fclose(m);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The pointer of the context's output array grows. */
static int keep_chart(struct ctx *c, struct draw *d, char *svg)
{
	struct plot_chart *p;

	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 8;

		p = realloc(c->out, cap * sizeof(*p));
		if (!p) {
			free(svg);
			return oom(c);
		}
		c->out = p;
		c->cap = cap;
	}
	p = &c->out[c->n++];
	p->name = d->name;
	p->title = d->title;
	p->svg = svg;
	d->name = d->title = NULL;
	return 0;
}

/*
 * Writes the files, runs gnuplot; 0 or -1 (e). Frees d either way. The
 * picture is gnuplot's standard output, a file opened through the door:
 * kept (plot_main), it replaces pic_path whole; else it is read back
 * from the unnamed file, never named, and the data and script are
 * removed (door_unlink_own: only the files this run wrote there).
 */
static int draw_end(struct draw *d)
{
	struct ctx *c = d->c;
	struct err_rec *e = c->e;
	struct door_out pic = { .fd = -1 };
	struct stat dat = { 0 }, gp = { 0 };
	bool missing, wrote_dat = false, wrote_gp = false;
	int st, ret = -1;
	char *svg = NULL;

	fflush(d->dat);
	fflush(d->gp);
	if (ferror(d->dat) || ferror(d->gp)) {
		oom(c);
		goto out;
	}
	if (write_file(d->dat_path, d->datbuf, d->datlen, &dat, e))
		goto out;
	wrote_dat = true;
	if (write_file(d->gp_path, d->gpbuf, d->gplen, &gp, e))
		goto out;
	wrote_gp = true;
	if (door_open(&pic, d->pic_path, "outdir", DOOR_WHOLE, NULL, e))
		goto out;
	st = gnuplot_run(d->gp_path, pic.fd, &missing);
	if (missing) {
		err_set(e, "", 0, "", "gnuplot is not installed: install "
			"gnuplot-nox (apt-get install gnuplot-nox) to draw "
			"charts");
		goto out;
	}
	if (st < 0) {
		err_set(e, d->gp_path, 0, "", "gnuplot could not be run on "
			"this script; %s was not drawn", d->pic_path);
		goto out;
	}
	if (st) {
		err_set(e, d->gp_path, 0, "", "gnuplot exited with status %d "
			"on this script; %s was not drawn", st, d->pic_path);
		goto out;
	}
	if (c->keep) {
		st = door_close(&pic);
		if (st) {
			err_set(e, d->pic_path, 0, "", "cannot write: %s",
				strerror(-st));
			goto out;
		}
		printf("%s\n", d->pic_path);
		ret = 0;
		goto out;
	}
	fflush(pic.f);
	svg = read_fd(pic.fd);
	if (!svg || !*svg) {
		free(svg);
		err_set(e, d->pic_path, 0, "", "gnuplot wrote no chart");
		goto out;
	}
	ret = keep_chart(c, d, svg);
out:
	door_discard(&pic);
	if (!c->keep) {
		if (wrote_dat)
			door_unlink_own(d->dat_path, dat.st_dev, dat.st_ino);
		if (wrote_gp)
			door_unlink_own(d->gp_path, gp.st_dev, gp.st_ino);
	}
	draw_free(d);
	return ret;
}

/* NAME-DIR-lat: histogram (log x), CDF on y2, p50/p99/p99.9 marked. */
static int chart_lat(struct ctx *c, const struct pres *res,
		     const struct pjob *j, const char *stem, int q)
{
	static const char *const marks[] = { "50", "99", "99.9" };
	const struct pdir *v = &j->dir[q];
	char name[700], title[700], sub[1200];
	struct draw d;
	double total = 0, cum = 0, cur_bin = 0, bin_lo = 0, bin_hi = 0;
	double bin_n = 0;
	bool first = true;
	size_t i, k;

	if (!v->which)
		return 0;
	for (i = 0; i < v->nrows; i++)
		total += fmax(0, v->rows[i].n);
	if (total <= 0)
		return 0;
	snprintf(name, sizeof(name), "%s-%s-lat", stem, dirs[q]);
	snprintf(title, sizeof(title), "%s: %s latency (%s), %.0f I/Os",
		 j->label, dirs[q], !strcmp(v->which, "lat") ?
		 "lat, submission to completion" : "clat, completion",
		 v->count);
	subtitle(res, j, sub, sizeof(sub));
	if (draw_begin(c, &d, name, title, sub, "latency (µs, log scale)",
		       "I/Os per bucket"))
		goto fail;
	/* the histogram's buckets (hist.c: 256 per power of two at most)
	 * merged into LAT_BINS per decade of the log axis: bars that read */
	fprintf(d.dat, "# %d bins per decade: low_us high_us count "
		"cumulative_pct (at high_us)\n", LAT_BINS);
	for (i = 0; i < v->nrows; i++) {
		double lo = v->rows[i].lo / 1e3;
		double hi = (v->rows[i].hi + 1) / 1e3;
		double n = v->rows[i].n;
		double bin = floor(log10(lo > 1e-3 ? lo : 1e-3) * LAT_BINS);

		if (n <= 0)
			continue;
		if (!first && bin != cur_bin) {
			fprintf(d.dat, "%.3f %.3f %.0f %.6f\n", bin_lo, bin_hi,
				bin_n, 100 * cum / total);
			bin_n = 0;
		}
		if (first || bin != cur_bin) {
			first = false;
			cur_bin = bin;
			bin_lo = pow(10, bin / LAT_BINS);
		}
		bin_hi = fmax(pow(10, (bin + 1) / LAT_BINS), hi);
		bin_n += n;
		cum += n;
	}
	fprintf(d.dat, "%.3f %.3f %.0f %.6f\n", bin_lo, bin_hi, bin_n,
		100 * cum / total);
	fputs("set style textbox opaque noborder\n"
	      "set logscale x\nset yrange [0:*]\nset y2range [0:100]\n"
	      "set ytics nomirror\nset y2tics 0,10,100\n"
	      "set y2label 'cumulative I/Os (%)'\n"
	      "set style fill solid 0.5 noborder\n", d.gp);
	for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
		double m = v->mark[k];

		if (m <= 0)
			continue;
		fprintf(d.gp, "set arrow from %.3f, graph 0 to %.3f, graph 1 "
			"nohead dashtype 2 linecolor rgb '#c00000'\n"
			"set label 'p%s %.1f µs' at %.3f, graph %.2f %s "
			"offset %s,0 front boxed textcolor rgb '#c00000'\n",
			m, m, marks[k], m, m, 0.95 - 0.06 * k,
			k ? "right" : "left", k ? "-0.5" : "0.5");
	}
	fputs("plot ", d.gp);
	gnuplot_quote(d.gp, d.dat_path);
	fputs(" using (sqrt($1*$2)):3:1:2:(0):3 with boxxyerror "
	      "linecolor rgb '#4060c0' title 'I/Os per bucket', \\\n     ''"
	      " using 2:4 axes x1y2 with lines linewidth 2 linecolor rgb "
	      "'#208020' title 'CDF (right axis)'\n", d.gp);
	return draw_end(&d);
fail:
	draw_free(&d);
	return -1;
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

/* NAME-iops, NAME-bw, NAME-p99 from the job's intervals. */
static int chart_time(struct ctx *c, const struct pres *res,
		      const struct pjob *j, const char *stem)
{
	static const struct {
		const char *suffix, *what, *ylabel;
		double div;
	} m[] = {
		{ "iops", "IOPS", "I/O operations per second", 1 },
		{ "bw", "bandwidth", "bandwidth (MiB/s)", 1048576 },
		{ "p99", "p99 latency", "p99 latency (µs)", 1e3 },
	};
	struct ival_iter it;
	const struct ival_sample *smp;
	bool has[NDIRS];
	char sub[1200];
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
	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		char name[700], title[700];
		struct draw d;
		int col = 2;
		size_t points = 0;

		snprintf(name, sizeof(name), "%s-%s", stem, m[k].suffix);
		snprintf(title, sizeof(title), "%s: %s over time (%s "
			 "intervals)", j->label, m[k].what, j->interval);
		if (draw_begin(c, &d, name, title, sub,
			       "time since the job started (s)",
			       m[k].ylabel)) {
			draw_free(&d);
			return -1;
		}
		fprintf(d.dat, "# interval_end_s");
		for (q = 0; q < NDIRS; q++)
			if (has[q])
				fprintf(d.dat, " %s", dirs[q]);
		fputc('\n', d.dat);
		it = (struct ival_iter)IVAL_ITER_INIT;
		while ((smp = ival_iter_next(&it, j->iv))) {
			fprintf(d.dat, "%.6f", (double)smp->end_ns / 1e9);
			for (q = 0; q < NDIRS; q++) {
				double v = ival_figure(smp, (int)q, k);

				if (!has[q])
					continue;
				if (v < 0) {
					fputs(" ?", d.dat);
					continue;
				}
				fprintf(d.dat, " %.10g", v / m[k].div);
				points++;
			}
			fputc('\n', d.dat);
		}
		if (!points) {	/* nothing to draw (gnuplot would fail) */
			draw_free(&d);
			continue;
		}
		fputs("set yrange [0:*]\nset xrange [0:*]\nplot", d.gp);
		for (q = 0; q < NDIRS; q++) {
			if (!has[q])
				continue;
			fputs(col > 2 ? ", \\\n     " : " ", d.gp);
			gnuplot_quote(d.gp, d.dat_path);
			fprintf(d.gp, " using 1:%d with linespoints linewidth "
				"2 title '%s'", col++, dirs[q]);
		}
		fputc('\n', d.gp);
		if (draw_end(&d))
			return -1;
	}
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

static int dbl_cmp(const void *a, const void *b)
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

/* sweep: op/s and CPU us per I/O against bs, one line per other sweep
 * value (the engine in jobs/kaio-vs-pthread.job). */
static int chart_sweep(struct ctx *c, const struct pres *res)
{
	const struct pjob *j0 = NULL;
	struct sweep_pt *pt;
	size_t n = 0, i, k, nbs = 0, nlines = 0;
	char sub[1200], title[600], name0[512];
	struct draw d;
	double *bsv;
	int ret = -1;

	pt = calloc(res->njobs + 1, sizeof(*pt));
	bsv = calloc(res->njobs + 1, sizeof(*bsv));
	if (!pt || !bsv) {
		free(pt);
		free(bsv);
		return oom(c);
	}
	for (i = 0; i < res->njobs; i++) {
		const struct pjob *j = &res->jobs[i];
		struct sweep_pt p = { 0 };

		if (!j->ran || !sweep_line(j->sweep_point, p.line,
					   sizeof(p.line)))
			continue;
		if (!j0)
			j0 = j;
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
	for (i = 0; i < n; i++) {
		for (k = 0; k < nbs && bsv[k] != pt[i].bs; k++)
			;
		if (k == nbs)
			bsv[nbs++] = pt[i].bs;
	}
	if (nbs < 2) {
		ret = 0;
		goto out;
	}
	qsort(pt, n, sizeof(*pt), pt_cmp);
	snprintf(name0, sizeof(name0), "%s", j0->name);
	snprintf(title, sizeof(title), "%s: op/s and CPU per I/O against "
		 "request size (sweep)", name0);
	{
		const char *dev = j0->ntargets && j0->dev ? j0->dev : "";

		snprintf(sub, sizeof(sub), "job %s, rw=%s, iodepth=%s, "
			 "target %s%s%s%s, host %s, %s", name0, j0->rw,
			 j0->iodepth, j0->ntargets ? j0->path : "?",
			 *dev ? " (" : "", dev, *dev ? ")" : "", res->host,
			 res->time);
	}
	if (draw_begin(c, &d, "sweep", title, sub,
		       "request size (bytes, log scale)", "op/s")) {
		draw_free(&d);
		goto out;
	}
	fprintf(d.dat, "# one block (gnuplot index) per line: bs_bytes "
		"iops cpu_us_per_io\n");
	for (i = 0; i < n; i++) {
		if (!i || strcmp(pt[i].line, pt[i - 1].line)) {
			fprintf(d.dat, "%s# ", i ? "\n\n" : "");
			put_text(d.dat, *pt[i].line ? pt[i].line : "sweep",
				 "");
			fputc('\n', d.dat);
		}
		fprintf(d.dat, "%.0f %.10g %.10g\n", pt[i].bs, pt[i].iops,
			pt[i].reqs > 0 ? pt[i].cpu_us / pt[i].reqs : 0);
	}
	qsort(bsv, nbs, sizeof(*bsv), dbl_cmp);
	fputs("set logscale x 2\nset xtics (", d.gp);
	for (k = 0; k < nbs; k++) {
		char tic[32];

		bs_tic(tic, sizeof(tic), bsv[k]);
		fprintf(d.gp, "%s'%s' %.0f", k ? ", " : "", tic, bsv[k]);
	}
	fprintf(d.gp, ")\nset xrange [%.1f:%.1f]\nset yrange [0:*]\n"
		"set multiplot layout 2,1 title ", bsv[0] / 1.3,
		bsv[nbs - 1] * 1.3);
	gnuplot_quote(d.gp, title);
	fputs(" . \"\\n\" . ", d.gp);
	gnuplot_quote(d.gp, sub);
	fputs("\nunset title\nset key outside right top vertical\nset xlabel ''\n"
	      "set ylabel 'op/s (I/O operations per second)'\nplot", d.gp);
	for (k = 0; k < 2; k++) {
		if (k)
			fputs("set xlabel 'request size (bytes, log scale)'\n"
			      "set ylabel 'CPU per I/O (µs, user + system)'\n"
			      "plot", d.gp);
		for (i = 0, nlines = 0; i < n; i++) {
			if (i && !strcmp(pt[i].line, pt[i - 1].line))
				continue;
			fputs(nlines ? ", \\\n     " : " ", d.gp);
			gnuplot_quote(d.gp, d.dat_path);
			fprintf(d.gp, " index %zu using 1:%zu with linespoints "
				"linewidth 2 pointtype %zu title ", nlines,
				k + 2, nlines + 5);
			gnuplot_quote(d.gp, *pt[i].line ? pt[i].line : "sweep");
			nlines++;
		}
		fputc('\n', d.gp);
	}
	fputs("unset multiplot\n", d.gp);
	ret = draw_end(&d);
out:
	free(pt);
	free(bsv);
	return ret;
}

/* Every chart of one result: per job its latency and time charts, then
 * the sweep. 0 or -1 (e). */
static int result_charts(struct ctx *c, const struct pres *res)
{
	size_t i;
	int q;

	for (i = 0; i < res->njobs; i++) {
		const struct pjob *j = &res->jobs[i];
		char stem[600];

		if (!j->ran)
			continue;
		job_stem(j, stem, 151);	/* file names fit NAME_MAX */
		for (q = 0; q < NDIRS; q++)
			if (chart_lat(c, res, j, stem, q))
				return -1;
		if (chart_time(c, res, j, stem))
			return -1;
	}
	return chart_sweep(c, res);
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

/* One result for the comparison. */
struct cmp_in {
	const char *label;	/* its file name without .json */
	bool owned;		/* label is ours (else the path given) */
	struct pres res;
};

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

/*
 * compare-DIR-METRIC: bars per job (label), one per result, the
 * baseline (in[0] when base) a dashed line across each job's bars.
 */
static int chart_compare(struct ctx *c, const struct cmp_in *in, size_t n,
			 bool base)
{
	static const char *const mname[] = { "iops", "bw", "p99" };
	static const char *const mwhat[] = { "IOPS", "bandwidth",
					     "p99 latency" };
	static const char *const munit[] = { "I/O operations per second",
					     "bandwidth (MiB/s)",
					     "p99 latency (µs)" };
	char **labels = NULL;
	size_t nl = 0, i, k, r, q;
	int metric, ret = -1;

	/* the union of the jobs, in order of first appearance */
	for (r = 0; r < n; r++) {
		for (i = 0; i < in[r].res.njobs; i++) {
			const struct pjob *j = &in[r].res.jobs[i];
			const char *l = j->label;
			char **p;

			if (!j->ran)
				continue;
			for (k = 0; k < nl && strcmp(labels[k], l); k++)
				;
			if (k < nl)
				continue;
			p = realloc(labels, (nl + 1) * sizeof(*p));
			if (!p || !(p[nl] = strdup(l))) {
				labels = p ? p : labels;
				oom(c);
				goto out;
			}
			labels = p;
			nl++;
		}
	}
	for (q = 0; q < NDIRS; q++) {
		for (metric = 0; metric < 3; metric++) {
			size_t nbars = n - base, col;
			bool any = false;
			char name[64], title[256], sub[1024];
			struct draw d;
			double w = 0.8 / (nbars ? nbars : 1);

			for (k = 0; k < nl && !any; k++)
				for (r = 0; r < n && !any; r++)
					any = cmp_value(find_job(&in[r].res,
						labels[k]), (int)q, metric)
						>= 0;
			if (!any)
				continue;
			snprintf(name, sizeof(name), "compare-%s-%s",
				 dirs[q], mname[metric]);
			snprintf(title, sizeof(title), "%s %s of %zu results%s",
				 dirs[q], mwhat[metric], nbars,
				 base ? " against the baseline" : "");
			snprintf(sub, sizeof(sub), "%s%s%s, host %s",
				 base ? "baseline " : "",
				 base ? in[0].label : "",
				 base ? " (dashed)" : "",
				 in[base].res.host);
			if (draw_begin(c, &d, name, title, sub, "job",
				       munit[metric])) {
				draw_free(&d);
				goto out;
			}
			fputs("# job_index \"job\"", d.dat);
			for (r = 0; r < n; r++)
			{
				fprintf(d.dat, " \"%s", r < (size_t)base ?
					"baseline " : "");
				put_text(d.dat, in[r].label, "\"");
				fputc('"', d.dat);
			}
			fputc('\n', d.dat);
			for (k = 0; k < nl; k++) {
				fprintf(d.dat, "%zu \"", k);
				put_text(d.dat, labels[k], "\"");
				fputc('"', d.dat);
				for (r = 0; r < n; r++) {
					double v = cmp_value(find_job(
						&in[r].res, labels[k]), (int)q,
						metric);

					if (v < 0)
						fputs(" ?", d.dat);
					else
						fprintf(d.dat, " %.10g", v);
				}
				fputc('\n', d.dat);
			}
			fprintf(d.gp, "set style fill solid 0.8 noborder\n"
				"set boxwidth %.4f absolute\nset yrange [0:*]\n"
				"set xrange [-0.6:%zu.4]\nset xtics rotate by "
				"-25\nset key outside right top vertical\nplot", w, nl - 1);
			for (r = base, col = 0; r < n; r++, col++) {
				fputs(col ? ", \\\n     " : " ", d.gp);
				gnuplot_quote(d.gp, d.dat_path);
				fprintf(d.gp, " using ($1+%.4f):%zu%s with boxes "
					"title ", (col - (nbars - 1) / 2.0) * w,
					r + 3, col ? "" : ":xtic(2)");
				gnuplot_quote(d.gp, in[r].label);
			}
			if (base) {
				fputs(", \\\n     ", d.gp);
				gnuplot_quote(d.gp, d.dat_path);
				fputs(" using ($1-0.45):3:(0.9):(0) with vectors "
				      "nohead linewidth 3 dashtype 2 linecolor "
				      "rgb 'black' title ", d.gp);
				{
					char t[300];

					snprintf(t, sizeof(t), "baseline %s",
						 in[0].label);
					gnuplot_quote(d.gp, t);
				}
			}
			fputc('\n', d.gp);
			if (draw_end(&d))
				goto out;
		}
	}
	ret = 0;
out:
	for (k = 0; k < nl; k++)
		free(labels[k]);
	free(labels);
	return ret;
}

/* A log file of write_bw_log, write_iops_log or write_lat_log (iorig's
 * or fio's): its rows as data blocks per direction. */
struct logdat {
	const char *path;
	const char *what, *ylabel;	/* of its kind */
	double div;			/* value to the axis unit */
	char *dat[NDIRS];
	size_t len[NDIRS], rows[NDIRS];
	/* a per-I/O latency log (every line has a bs): its samples */
	bool per_io;
	struct sample { double t_ms, v; } *raw[NDIRS];
	size_t nraw[NDIRS], capraw[NDIRS];
};

static void logdat_free(struct logdat *l)
{
	size_t q;

	for (q = 0; q < NDIRS; q++) {
		free(l->dat[q]);
		free(l->raw[q]);
	}
}

/* One sample of a latency log kept for its p99 over time; 0 or -1. */
static int log_keep(struct logdat *l, size_t q, double t_ms, double v)
{
	if (l->nraw[q] == l->capraw[q]) {
		size_t cap = l->capraw[q] ? 2 * l->capraw[q] : 1024;
		struct sample *p = realloc(l->raw[q], cap * sizeof(*p));

		if (!p)
			return -1;
		l->raw[q] = p;
		l->capraw[q] = cap;
	}
	l->raw[q][l->nraw[q]].t_ms = t_ms;
	l->raw[q][l->nraw[q]++].v = v;
	return 0;
}

/* Reads l->path: 0, or -1 with e (its kind or a line not understood). */
static int log_read(struct logdat *l, struct err_rec *e)
{
	static const struct {
		const char *tag, *what, *ylabel;
		double div;
	} kinds[] = {
		{ "_bw.", "bandwidth", "bandwidth (KiB/s)", 1 },
		{ "_iops.", "IOPS", "I/O operations per second", 1 },
		{ "_slat.", "slat (submission latency)",
		  "latency (µs, log scale)", 1e3 },
		{ "_clat.", "clat (completion latency)",
		  "latency (µs, log scale)", 1e3 },
		{ "_lat.", "lat (total latency)", "latency (µs, log scale)",
		  1e3 },
	};
	const char *base = strrchr(l->path, '/');
	FILE *f, *out[NDIRS] = { NULL };
	char *line = NULL;
	size_t cap = 0, k, q;
	int lineno = 0, ret = -1;

	base = base ? base + 1 : l->path;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strstr(base, kinds[k].tag))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0]) ||
	    strstr(base, "_clat_hist.")) {
		err_set(e, l->path, 0, "", "not a log iorig plot draws: "
			"expected NAME_bw.N.log, _iops, _lat, _clat or _slat "
			"(write_bw_log=, write_iops_log=, write_lat_log=) or "
			"an iorig JSON result");
		return -1;
	}
	l->what = kinds[k].what;
	l->ylabel = kinds[k].ylabel;
	l->div = kinds[k].div;
	f = fopen(l->path, "re");
	if (!f) {
		err_set(e, l->path, 0, "", "cannot open: %s", strerror(errno));
		return -1;
	}
	l->per_io = l->div > 1;
	for (q = 0; q < NDIRS; q++)
		if (!(out[q] = open_memstream(&l->dat[q], &l->len[q]))) {
			err_set(e, l->path, 0, "", "out of memory");
			goto out;
		}
	while (getline(&line, &cap, f) > 0) {
		double v[8];
		char *p = line, *end;
		size_t nf = 0;

		lineno++;
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		/* time, value, [max,] ddir, bs, offset[, prio (0x...)] */
		while (nf < 8) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "0x", 2))
				break;
			v[nf] = strtod(p, &end);
			if (end == p)
				break;
			nf++;
			p = end + strspn(end, " \t");
			if (*p != ',')
				break;
			p++;
		}
		p += strspn(p, " \t\r\n");
		if ((nf != 5 && nf != 6) || (*p && strncmp(p, "0x", 2)) ||
		    !(v[nf - 3] == 0 || v[nf - 3] == 1 || v[nf - 3] == 2)) {
			err_set(e, l->path, lineno, "", "expected 'time_ms, "
				"value, direction (0-2), bs, offset' as "
				"write_%s_log writes", l->div > 1 ? "lat" :
				kinds[k].tag[1] == 'b' ? "bw" : "iops");
			goto out;
		}
		q = (size_t)v[nf - 3];
		/* latency: log axis; a window without I/O has none */
		if (l->div > 1 && v[1] <= 0)
			fprintf(out[q], "%.3f ?\n", v[0] / 1e3);
		else
			fprintf(out[q], "%.3f %.10g\n", v[0] / 1e3,
				v[1] / l->div);
		l->rows[q]++;
		if (l->div > 1 && v[nf - 2] > 0 && l->per_io &&
		    log_keep(l, q, v[0], v[1])) {
			err_set(e, l->path, 0, "", "out of memory");
			goto out;
		}
		if (v[nf - 2] <= 0)
			l->per_io = false;
	}
	if (ferror(f)) {
		err_set(e, l->path, 0, "", "cannot read: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	for (q = 0; q < NDIRS; q++)
		if (out[q] && fclose(out[q]) && !ret) {
			err_set(e, l->path, 0, "", "out of memory");
			ret = -1;
		}
	free(line);
	fclose(f);
	return ret;
}

/* LOG (its file name without .log): the log's values over time, one
 * line per direction. */
static int chart_log(struct ctx *c, const struct logdat *l)
{
	const char *base = strrchr(l->path, '/');
	char name[300], title[400], sub[PATH_MAX + 16];
	size_t q, blk = 0, total = 0;
	struct draw d;

	base = base ? base + 1 : l->path;
	snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - 4), base);
	for (q = 0; q < NDIRS; q++)
		total += l->rows[q];
	if (!total)
		return 0;
	snprintf(title, sizeof(title), "%s over time", l->what);
	snprintf(sub, sizeof(sub), "log %s", l->path);
	if (draw_begin(c, &d, name, title, sub,
		       "time since the job started (s)", l->ylabel)) {
		draw_free(&d);
		return -1;
	}
	fputs("# one block (gnuplot index) per direction: time_s value\n",
	      d.dat);
	fputs(l->div > 1 ? "set logscale y\nset xrange [0:*]\nplot" :
	      "set yrange [0:*]\nset xrange [0:*]\nplot", d.gp);
	for (q = 0; q < NDIRS; q++) {
		if (!l->rows[q])
			continue;
		fprintf(d.dat, "%s# %s\n", blk ? "\n\n" : "", dirs[q]);
		fwrite(l->dat[q], 1, l->len[q], d.dat);
		fputs(blk ? ", \\\n     " : " ", d.gp);
		gnuplot_quote(d.gp, d.dat_path);
		fprintf(d.gp, " index %zu using 1:2 with %s title '%s'", blk++,
			total > 2000 ? "dots" : "linespoints linewidth 2",
			dirs[q]);
	}
	fputc('\n', d.gp);
	return draw_end(&d);
}

static int sample_cmp(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return (x->t_ms > y->t_ms) - (x->t_ms < y->t_ms);
}

/*
 * LOG-p99: a per-I/O latency log's p99 (nearest rank: the
 * ceil(0.99 n)-th smallest) per window, windows of 1, 2 or 5 x 10^k ms
 * giving about 40 over the log, at each window's end.
 */
static int chart_log_p99(struct ctx *c, struct logdat *l)
{
	static const double steps[] = { 1, 2, 5 };
	const char *base = strrchr(l->path, '/');
	char name[300], title[400], sub[PATH_MAX + 16];
	double end = 0, win = 1, *vals = NULL;
	size_t q, i, k, blk = 0, most = 0;
	struct draw d;

	if (!l->per_io)
		return 0;
	for (q = 0; q < NDIRS; q++) {
		if (!l->nraw[q])
			continue;
		qsort(l->raw[q], l->nraw[q], sizeof(*l->raw[q]), sample_cmp);
		end = fmax(end, l->raw[q][l->nraw[q] - 1].t_ms);
		most = l->nraw[q] > most ? l->nraw[q] : most;
	}
	if (most < 100)
		return 0;
	for (k = 0; win * steps[k % 3] * 40 < end; k++)
		if (k % 3 == 2)
			win *= 10;
	win *= steps[k % 3];
	base = base ? base + 1 : l->path;
	snprintf(name, sizeof(name), "%.*s-p99", (int)(strlen(base) - 4),
		 base);
	snprintf(title, sizeof(title), "%s: p99 over time (per %g ms "
		 "window)", l->what, win);
	snprintf(sub, sizeof(sub), "log %s (one line per I/O)", l->path);
	vals = malloc((most + 1) * sizeof(*vals));
	if (!vals)
		return oom(c);
	if (draw_begin(c, &d, name, title, sub,
		       "time since the job started (s)",
		       "p99 latency (µs, log scale)")) {
		draw_free(&d);
		free(vals);
		return -1;
	}
	fprintf(d.dat, "# one block (gnuplot index) per direction: "
		"window_end_s p99_us ios (windows of %g ms)\n", win);
	fputs("set logscale y\nset xrange [0:*]\nplot", d.gp);
	for (q = 0; q < NDIRS; q++) {
		if (!l->nraw[q])
			continue;
		fprintf(d.dat, "%s# %s\n", blk ? "\n\n" : "", dirs[q]);
		for (i = 0; i < l->nraw[q]; ) {
			double w = floor(l->raw[q][i].t_ms / win);
			size_t n = 0;

			while (i < l->nraw[q] &&
			       floor(l->raw[q][i].t_ms / win) == w)
				vals[n++] = l->raw[q][i++].v;
			qsort(vals, n, sizeof(*vals), dbl_cmp);
			fprintf(d.dat, "%.6f %.10g %zu\n", (w + 1) * win / 1e3,
				vals[(size_t)ceil(0.99 * n) - 1] / l->div, n);
		}
		fputs(blk ? ", \\\n     " : " ", d.gp);
		gnuplot_quote(d.gp, d.dat_path);
		fprintf(d.gp, " index %zu using 1:2 with linespoints linewidth "
			"2 title '%s'", blk++, dirs[q]);
	}
	fputc('\n', d.gp);
	free(vals);
	return draw_end(&d);
}

static void plot_usage(FILE *f)
{
	fputs("usage: iorig plot [--format=svg|png] [--outdir=DIR] "
	      "[--baseline=FILE] RESULT.json|LOG...\n"
	      "Draws charts of iorig (or fio) JSON results "
	      "(--output-format=json) and logs\n(write_bw_log=, "
	      "write_iops_log=, write_lat_log=) with gnuplot:\n"
	      "  JOB-DIR-lat   latency histogram and CDF, p50/p99/p99.9 "
	      "marked\n"
	      "  JOB-iops, JOB-bw, JOB-p99   over time (results with "
	      "interval=)\n"
	      "  sweep         op/s and CPU us per I/O against request size "
	      "(bs= sweeps)\n"
	      "  compare-DIR-iops|bw|p99   several results, or against "
	      "--baseline\n"
	      "  LOG           a log's values over time (LOG: its name "
	      "without .log)\n"
	      "  LOG-p99       a per-I/O latency log's p99 per window\n"
	      "Each chart is DIR/NAME.svg (or .png) beside NAME.dat (the "
	      "data) and NAME.gp\n(the gnuplot script); the names are "
	      "printed. With several results, each\nresult's charts are "
	      "named RESULT-NAME (RESULT: its file name without .json).\n",
	      f);
}

/* path's file name without its directory and a .json ending. */
static char *file_label(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	return strndup(b, n);
}

static void plot_fail(const struct err_rec *e)
{
	char buf[ERR_TEXT_MAX];

	err_format(e, buf, sizeof(buf));
	fprintf(stderr, "iorig plot: %s\n", buf);
}

/* ---- fio's JSON results ---- */

static const char *fstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double fnum(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

/* A fio latency object (clat_ns...): json+'s bins ([v, v] rows, fio
 * keeps one value per bin) sorted by value, its percentiles as fio gives
 * them, else the bins'. 0 or -1 (no memory). */
static int fio_dir(const json_t *fd, struct pdir *v)
{
	static const double pk[3] = { 50, 99, 99.9 };
	const json_t *f = json_object_get(fd, "clat_ns");
	const json_t *bins = json_object_get(f, "bins"), *x;
	const json_t *pct = json_object_get(f, "percentile");
	const char *k;
	double *vals;
	size_t n = 0, i;
	char key[64];

	v->ios = fnum(fd, "total_ios");
	v->iops = fnum(fd, "iops");
	v->bw = fnum(fd, "bw_bytes");
	v->count = fnum(f, "N");
	vals = calloc(json_object_size(bins) + 1, sizeof(*vals));
	v->rows = calloc(json_object_size(bins) + 1, sizeof(*v->rows));
	if (!vals || !v->rows) {
		free(vals);
		return -1;
	}
	json_object_foreach((json_t *)bins, k, x)
		vals[n++] = strtod(k, NULL);
	qsort(vals, n, sizeof(*vals), dbl_cmp);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%.0f", vals[i]);
		v->rows[i].lo = v->rows[i].hi = vals[i];
		v->rows[i].n = fnum(bins, key);
	}
	v->nrows = n;
	free(vals);
	v->which = v->count > 0 && n ? "clat" : NULL;
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%f", pk[i]);
		x = json_object_get(pct, key);
		v->mark[i] = !v->which ? -1 : json_is_number(x) ?
			     json_number_value(x) / 1e3 : rows_pct(v, pk[i]);
	}
	x = json_object_get(pct, "99.000000");
	v->p99 = json_is_number(x) ? json_number_value(x) / 1e3 :
		 v->which ? rows_pct(v, 99) : -1;
	return 0;
}

/*
 * A fio JSON result (--output-format=json or json+) as far as the charts
 * read it: per job its name, engine, file, and per direction I/Os, IOPS,
 * bandwidth and clat. 0 or -1 (no memory).
 */
static int pres_fio(struct pres *p)
{
	const json_t *jobs = json_object_get(p->fio, "jobs");
	const json_t *glob = json_object_get(p->fio, "global options");
	size_t i;
	int q;

	p->host = "";
	p->time = fstr(p->fio, "time");
	p->jobs = calloc(json_array_size(jobs) + 1, sizeof(*p->jobs));
	if (!p->jobs)
		return -1;
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *fj = json_array_get(jobs, i);
		const json_t *o = json_object_get(fj, "job options");
		const char *eng = *fstr(o, "ioengine") ? fstr(o, "ioengine") :
			*fstr(glob, "ioengine") ? fstr(glob, "ioengine") :
			"psync";
		const char *file = *fstr(o, "filename") ? fstr(o, "filename") :
			fstr(glob, "filename");
		struct pjob *j = &p->jobs[p->njobs++];

		j->name = fstr(fj, "jobname");
		j->sweep_point = "";
		snprintf(j->label, sizeof(j->label), "%s", j->name);
		j->ran = true;
		snprintf(j->engine, sizeof(j->engine), "%s", eng);
		j->path = *file ? file : "?";
		j->dev = "";
		j->ntargets = 1;
		for (q = 0; q < NDIRS; q++)
			if (fio_dir(json_object_get(fj, dirs[q]), &j->dir[q]))
				return -1;
	}
	return 0;
}

/* An iorig result read back into the model, or a fio JSON result: 0, or
 * -1 with e. */
static int load_result(const char *path, struct pres *p, struct err_rec *e)
{
	int ret;
	json_error_t je;
	json_t *r = json_load_file(path, JSON_DECODE_ANY, &je);

	if (!r) {
		err_set(e, path, je.line > 0 ? je.line : 0, "",
			"%s: expected an iorig JSON result "
			"(--output-format=json)", je.text);
		return -1;
	}
	if (json_is_string(json_object_get(r, "fio version"))) {
		p->fio = r;
		if (pres_fio(p)) {
			err_set(e, path, 0, "", "out of memory");
			return -1;
		}
		return 0;
	}
	ret = result_read_json(&p->doc, r, path, 0, e);
	json_decref(r);
	if (ret)
		return -1;
	if (pres_model(&p->doc.r, &p->doc.set, p)) {
		err_set(e, path, 0, "", "out of memory");
		return -1;
	}
	return 0;
}

int plot_main(int argc, char **argv)
{
	const char *fmt = "svg", *outdir = ".", *baseline = NULL;
	struct cmp_in *in = NULL;
	struct logdat *logs = NULL;
	struct names used = { 0 };
	struct err_rec *e = calloc(1, sizeof(*e));
	size_t n = 0, nlogs = 0, i;
	int a, code = 2;
	bool opts = true;

	if (!e) {
		fputs("iorig plot: out of memory\n", stderr);
		return 1;
	}
	in = calloc(argc + 1, sizeof(*in));
	logs = calloc(argc + 1, sizeof(*logs));
	if (!in || !logs) {
		free(in);
		free(logs);
		fputs("iorig plot: out of memory\n", stderr);
		free(e);
		return 1;
	}
	for (a = 1; a < argc; a++) {
		const char *s = argv[a];

		if (opts && !strcmp(s, "--")) {
			opts = false;
		} else if (opts && (!strcmp(s, "--help") || !strcmp(s, "-h"))) {
			plot_usage(stdout);
			code = fflush(stdout) || ferror(stdout) ? 1 : 0;
			goto out;
		} else if (opts && !strncmp(s, "--format=", 9)) {
			fmt = s + 9;
			if (strcmp(fmt, "svg") && strcmp(fmt, "png")) {
				err_set(e, ERR_CMDLINE, a, "format", "'%s': "
					"expected svg or png", fmt);
				goto fail;
			}
		} else if (opts && !strncmp(s, "--outdir=", 9) && s[9]) {
			outdir = s + 9;
		} else if (opts && !strncmp(s, "--baseline=", 11) && s[11]) {
			baseline = s + 11;
		} else if (opts && s[0] == '-' && s[1]) {
			err_set(e, ERR_CMDLINE, a, "", "unknown option '%s': "
				"expected --format=svg|png, --outdir=DIR, "
				"--baseline=FILE or RESULT.json files", s);
			goto fail;
		} else {
			size_t len = strlen(s);

			if (len > 4 && !strcmp(s + len - 4, ".log"))
				logs[nlogs++].path = s;
			else
				in[n++].label = s;	/* the path, for now */
		}
	}
	if (!n && !nlogs) {
		plot_usage(stderr);
		goto out;
	}
	for (i = 0; i < nlogs; i++)
		if (log_read(&logs[i], e))
			goto fail;
	if (baseline) {
		memmove(in + 1, in, n * sizeof(*in));
		in[0].label = baseline;
		n++;
	}
	for (i = 0; i < n; i++) {
		const char *path = in[i].label;

		if (load_result(path, &in[i].res, e))
			goto fail;
		in[i].label = file_label(path);
		in[i].owned = in[i].label != NULL;
		if (!in[i].label) {
			err_set(e, path, 0, "", "out of memory");
			code = 1;
			goto fail;
		}
	}
	if ((code = door_mkdir(outdir, "outdir", e))) {
		code = code == -EINVAL ? 2 : 1;
		goto fail;
	}
	code = 0;
	for (i = baseline ? 1 : 0; i < n && !code; i++) {
		char prefix[300] = "";
		struct ctx c = { .dir = outdir, .fmt = fmt, .prefix = prefix,
				 .keep = true, .e = e, .used = &used };

		if (n - (baseline != NULL) > 1) {
			name_part(prefix, 61, in[i].label);
			strcat(prefix, "-");
		}
		if (result_charts(&c, &in[i].res))
			code = 1;
	}
	for (i = 0; i < nlogs && !code; i++) {
		struct ctx c = { .dir = outdir, .fmt = fmt, .prefix = "",
				 .keep = true, .e = e, .used = &used };

		if (chart_log(&c, &logs[i]) || chart_log_p99(&c, &logs[i]))
			code = 1;
	}
	if (!code && n > 1) {
		struct ctx c = { .dir = outdir, .fmt = fmt, .prefix = "",
				 .keep = true, .e = e, .used = &used };

		if (chart_compare(&c, in, n, baseline != NULL))
			code = 1;
	}
	if (fflush(stdout) || ferror(stdout)) {
		err_set(e, "<stdout>", 0, "", "cannot write the chart names");
		code = 1;
	}
	if (!code)
		goto out;
	if (strstr(e->msg, "gnuplot is not installed"))
		code = 2;
fail:
	plot_fail(e);
out:
	for (i = 0; i < n; i++) {
		pres_free(&in[i].res);
		if (in[i].owned)
			free((char *)in[i].label);
	}
	for (i = 0; i < nlogs; i++)
		logdat_free(&logs[i]);
	names_free(&used);
	free(logs);
	free(in);
	free(e);
	return code;
}
