// SPDX-License-Identifier: MIT
/*
 * `iorig plot`: charts of iorig JSON results, drawn by gnuplot
 * (include/plot.h). Each chart is a data file NAME.dat and a script
 * NAME.gp handed to gnuplot (gnuplot.c), which draws NAME.svg or
 * NAME.png. plot_run keeps all three in --outdir; plot_result_charts
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
 * results are read as iorig ones (pres_fio) as far as the charts go.
 *
 * What a person may trust in them: nothing drawn touches the frame (a
 * linear axis ends a tenth above its highest value, a time axis where
 * the data ends), labels stand where they hide no data, times carry
 * their unit, the histograms of a result (or of the results compared)
 * share one range, and results compared show one latency (clat when one
 * of them, fio's, has no other). tests/cli/256-259 check it in
 * screenshots.
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
#include "value.h"

static const char *const dirs[] = { "read", "write", "trim" };
#define NDIRS 3
/* latency histogram bars per decade */
#define LAT_BINS 20

/* Where and how charts are drawn. */
struct ctx {
	const char *dir;	/* NAME.dat, NAME.gp and the picture go here */
	const char *fmt;	/* "svg" or "png" */
	const char *prefix;	/* of every name: "" or "RESULT-" */
	bool keep;		/* plot_run: files stay, names printed */
	struct plot_chart *out;	/* in process: the charts drawn */
	int n, cap;
	struct err_rec *e;
	struct names *used;	/* the names drawn so far (one run) */
	/* the one axis range of every latency histogram drawn (the
	 * points of a sweep, the results compared), set before the
	 * first; NULL: result_charts takes its result's */
	const struct lat_range *lat;
};

/* The ranges latency histograms share: x (log) in us, y in % of I/Os. */
struct lat_range {
	double lo, hi;		/* the lowest bar's low edge, the highest's
				 * high one */
	double ymax;		/* the tallest bar */
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
	bool only_clat;			/* draw clat, even where lat was
					 * measured (pres_model) */
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
 * when it was measured and clat (only_clat) is not asked, else clat; its
 * marks and the comparison's p99 are the percentiles the job reports of
 * it, else the buckets'. 0 or -1 (no memory).
 */
static int dir_view(const struct result_unit *u, int q, bool only_clat,
		    struct pdir *v)
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
	if (!only_clat && d->lat.count > d->lat.overflow)
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
	v->p99 = v->mark[1];
	return 0;
}

/* Whether unit u measured lat wherever it has a latency (else the
 * charts of results compared with it draw clat). */
static bool unit_has_lat(const struct result_unit *u)
{
	int q;

	for (q = 0; q < NDIRS; q++) {
		const struct dir_stats *d = &u->stats.dir[q];

		if (d->clat.count > d->clat.overflow &&
		    d->lat.count <= d->lat.overflow)
			return false;
	}
	return true;
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

/*
 * The engine as a sweep point names it ("ioengine=kaio ..."), into buf
 * (left alone when the point names none): the subtitle names the engine
 * as the title's point does, not as the option reads back (libaio).
 */
static void point_engine(const char *sp, char *buf, size_t len)
{
	while (*sp) {
		size_t w = strcspn(sp, " ");

		if (w > 9 && !strncmp(sp, "ioengine=", 9))
			snprintf(buf, len, "%.*s", (int)w - 9, sp + 9);
		sp += w;
		sp += strspn(sp, " ");
	}
}

static int job_view(const struct run_result *r, const struct result_unit *u,
		    bool only_clat, struct pjob *pj)
{
	const struct job *j = u->job;
	const struct run_targets *rt = result_targets(r, u);
	struct result_row row;
	char bs[64];
	int n, q;

	pj->name = j->desc.name ? j->desc.name : "";
	pj->sweep_point = j->plan.sweep_point ? j->plan.sweep_point : "";
	n = snprintf(pj->label, sizeof(pj->label), "%s%s%s", pj->name,
		     *pj->sweep_point ? " " : "", pj->sweep_point);
	/* a reporting group is named as fio names it: by its first job */
	if (u->njobs > 1 && !j->report.group_reporting && n >= 0 &&
	    (size_t)n < sizeof(pj->label))
		snprintf(pj->label + n, sizeof(pj->label) - n, " clone %d",
			 (int)j->plan.clone);
	pj->ran = u->stats.nclones > 0;
	opt_text(j, "ioengine", pj->engine, sizeof(pj->engine));
	point_engine(pj->sweep_point, pj->engine, sizeof(pj->engine));
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
		if (dir_view(u, q, only_clat, &pj->dir[q]))
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
		if (job_view(r, &rs->units[i], p->only_clat,
			     &p->jobs[p->njobs++]))
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

/* buf gains ", " and the printf of fmt, unless the value (a string,
 * the first argument) is empty: no subtitle reads ", host ". */
static void sub_add(char *buf, size_t len, const char *fmt, const char *v)
{
	size_t n = strlen(buf);

	if (!v || !*v || n + 1 >= len)
		return;
	if (n)
		n += snprintf(buf + n, len - n, ", ");
	if (n < len)
		snprintf(buf + n, len - n, fmt, v);
}

/* buf gains ", target T (dev D) +N more" when the job has a target. */
static void sub_target(char *buf, size_t len, const struct pjob *j)
{
	char tgt[PATH_MAX + 128];

	if (!j->ntargets)
		return;
	snprintf(tgt, sizeof(tgt), "%s%s%s%s", j->path,
		 j->dev && *j->dev ? " (" : "", j->dev ? j->dev : "",
		 j->dev && *j->dev ? ")" : "");
	if (j->ntargets > 1) {
		size_t n = strlen(tgt);

		snprintf(tgt + n, sizeof(tgt) - n, " +%zu more",
			 j->ntargets - 1);
	}
	sub_add(buf, len, "target %s", tgt);
}

/* "job J, engine E, target T (dev D) +N more, host H, TIME" */
static void subtitle(const struct pres *res, const struct pjob *j, char *buf,
		     size_t len)
{
	buf[0] = '\0';
	sub_add(buf, len, "job %s", j->label);
	sub_add(buf, len, "engine %s", j->engine);
	sub_target(buf, len, j);
	sub_add(buf, len, "host %s", res->host);
	sub_add(buf, len, "%s", res->time);
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
	/* "%.10g": no 1e+06 on an axis; its unit is in the label */
	fputs("\nset grid\nset datafile missing '?'\n"
	      "set format x '%.10g'\nset format y '%.10g'\n"
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
 * kept (plot_run), it replaces pic_path whole; else it is read back
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

/* ---- axes ---- */

static const char *const time_units[5] = { "ns", "µs", "ms", "s", "ks" };

/* A time as a label gives it: "158.7 µs", "5.816 ms", sig figures. */
static void ns_text(double ns, unsigned sig, char *buf, size_t len)
{
	value_fmt_sig(ns, 1000, time_units, " ", true, sig, buf, len);
}

/* A tick of a log axis (1, 2 or 5 x 10^k ns): "20 µs", "1 ms". */
static void tic_text(double ns, char *buf, size_t len)
{
	int k = 0;

	while (k < 4 && ns >= 999.5) {
		ns /= 1000;
		k++;
	}
	snprintf(buf, len, "%.3g %s", ns, time_units[k]);
}

/* The unit of a linear time axis whose top value is max_ns: the largest
 * in which max_ns is at least 1 (ticks of at most 4 digits); *div is it
 * in ns. */
static const char *time_unit(double max_ns, double *div)
{
	int k = 0;

	*div = 1;
	while (k < 3 && max_ns >= *div * 1000) {
		*div *= 1000;
		k++;
	}
	return time_units[k];
}

/* The 1-2-5 step (1, 2, 5 x 10^k) at or above v > 0 (up), else at or
 * below it: the ends of a log axis. */
static double step125(double v, bool up)
{
	static const double m[] = { 1, 2, 5, 10 };
	double d = pow(10, floor(log10(v)));
	int k;

	if (up) {
		for (k = 0; k < 3 && m[k] * d < v * (1 - 1e-9); k++)
			;
		return m[k] * d;
	}
	for (k = 2; k > 0 && m[k] * d > v * (1 + 1e-9); k--)
		;
	return m[k] * d;
}

/*
 * The ticks of a log axis ("x" or "y") over [lo, hi] us, each labelled
 * in its own unit ("20 µs", "1 ms": never "1e+06"): 1, 2 and 5 of each
 * decade over up to three decades, else the decades with 2..9 as small
 * ticks.
 */
static void log_tics(FILE *gp, const char *axis, double lo, double hi)
{
	bool all = hi / lo <= 1000.5;
	int e, k, n = 0;

	fprintf(gp, "set %stics (", axis);
	for (e = (int)floor(log10(lo)); pow(10, e) <= hi * 1.000001; e++)
		for (k = 1; k <= 9; k++) {
			double t = k * pow(10, e);
			char txt[32];

			if (t < lo * 0.999999 || t > hi * 1.000001)
				continue;
			if (k == 1 || (all && (k == 2 || k == 5))) {
				tic_text(t * 1e3, txt, sizeof(txt));
				fprintf(gp, "%s'%s' %.10g", n++ ? ", " : "",
					txt, t);
			} else {
				fprintf(gp, "%s'' %.10g 1", n++ ? ", " : "", t);
			}
		}
	fputs(")\n", gp);
}

/* [0:top] with a tenth of the top free above the highest value, so
 * that nothing drawn touches the frame. */
static void lin_top(FILE *gp, const char *axis, double max)
{
	fprintf(gp, "set %srange [0:%.10g]\n", axis, max > 0 ? max * 1.1 : 1);
}

/* [0:end] of a time axis: its end the data's, and a fiftieth more so
 * that the last point is not drawn on the frame. */
static void time_end(FILE *gp, double end_s)
{
	fprintf(gp, "set xrange [0:%.10g]\n", end_s > 0 ? end_s * 1.02 : 1);
}

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
static int lat_range_res(struct lat_range *r, const struct pres *res)
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
	snprintf(name, sizeof(name), "%s-%s-lat", stem, dirs[q]);
	snprintf(title, sizeof(title), "%s: %s %s (%s), %.0f I/Os", j->label,
		 dirs[q], v->which, lat ? "total latency, submission to "
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
			fprintf(d.dat, " %s", dirs[q]);
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
			"title '%s'", col++, dirs[q]);
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
static int result_charts(struct ctx *c, const struct pres *res)
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
	snprintf(name, sizeof(name), "compare-%s-%s", dirs[v->q],
		 mname[v->metric]);
	snprintf(title, sizeof(title), "%s %s%s%s of %zu results%s",
		 dirs[v->q], mwhat[v->metric], munit[v->metric] ? "" : " ",
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
static int chart_compare(struct ctx *c, const struct cmp_in *in, size_t n,
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
	double end_s, vmin, vmax;	/* the last time; the values drawn
					 * (> 0 on a latency's log axis) */
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

/* The last time of l's rows (s) and the range of their values drawn,
 * read back from the data made of them. */
static void log_extent(struct logdat *l)
{
	size_t q;

	for (q = 0; q < NDIRS; q++) {
		const char *p = l->dat[q];

		while (p && *p) {
			char *end;
			double t = strtod(p, &end), v;

			v = strtod(end, &end);
			if (end > p) {
				l->end_s = fmax(l->end_s, t);
				if (v > 0) {	/* '?' reads as none */
					l->vmin = l->vmax > 0 ?
						  fmin(l->vmin, v) : v;
					l->vmax = fmax(l->vmax, v);
				}
			}
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
	}
}

/* The y axis of a log chart: latency (us) on a log axis between 1-2-5
 * steps, labelled in its units; else from 0, a tenth free on top. */
static void log_yaxis(FILE *gp, bool lat, double vmin, double vmax)
{
	if (!lat) {
		lin_top(gp, "y", vmax);
		return;
	}
	vmin = step125(vmin > 0 ? vmin : 1, false);
	vmax = step125(vmax > vmin ? vmax : vmin * 2, true);
	fprintf(gp, "set logscale y\nset yrange [%.10g:%.10g]\n", vmin, vmax);
	log_tics(gp, "y", vmin, vmax);
}

/* The logs iorig plot draws, by the tag in their names. */
static const struct log_kind {
	const char *tag, *what, *ylabel;
	double div;
} log_kinds[] = {
	{ "_bw.", "bandwidth", "bandwidth (KiB/s)", 1 },
	{ "_iops.", "IOPS", "I/O operations per second", 1 },
	{ "_slat.", "slat (submission latency)",
	  "latency (log scale)", 1e3 },
	{ "_clat.", "clat (completion latency)",
	  "latency (log scale)", 1e3 },
	{ "_lat.", "lat (total latency)", "latency (log scale)",
	  1e3 },
};

/* The kind of l's log from its name (NULL, with e set: not one). */
static const struct log_kind *log_kind(struct logdat *l,
				       struct err_rec *e)
{
	const char *base = strrchr(l->path, '/');
	size_t k, n = sizeof(log_kinds) / sizeof(log_kinds[0]);

	base = base ? base + 1 : l->path;
	for (k = 0; k < n; k++)
		if (strstr(base, log_kinds[k].tag))
			break;
	if (k == n || strstr(base, "_clat_hist.")) {
		err_set(e, l->path, 0, "", "not a log iorig plot draws: "
			"expected NAME_bw.N.log, _iops, _lat, _clat or _slat "
			"(write_bw_log=, write_iops_log=, write_lat_log=) or "
			"an iorig JSON result");
		return NULL;
	}
	return &log_kinds[k];
}

/* A line's numbers into v (at most 8): time, value, [max,] ddir, bs,
 * offset[, prio (0x...)]; what follows them in *rest. */
static size_t log_fields(char *line, double v[8], char **rest)
{
	char *p = line, *end;
	size_t nf = 0;

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
	*rest = p + strspn(p, " \t\r\n");
	return nf;
}

/* One line of the log into its direction's data; -1 with e set. */
static int log_line(struct logdat *l, const struct log_kind *kind,
		    FILE *out[NDIRS], char *line, int lineno,
		    struct err_rec *e)
{
	double v[8];
	char *p;
	size_t nf, q;

	if (strspn(line, " \t\r\n") == strlen(line))
		return 0;
	nf = log_fields(line, v, &p);
	if ((nf != 5 && nf != 6) || (*p && strncmp(p, "0x", 2)) ||
	    !(v[nf - 3] == 0 || v[nf - 3] == 1 || v[nf - 3] == 2)) {
		err_set(e, l->path, lineno, "", "expected 'time_ms, "
			"value, direction (0-2), bs, offset' as "
			"write_%s_log writes", l->div > 1 ? "lat" :
			kind->tag[1] == 'b' ? "bw" : "iops");
		return -1;
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
		return -1;
	}
	if (v[nf - 2] <= 0)
		l->per_io = false;
	return 0;
}

/* Reads l->path: 0, or -1 with e (its kind or a line not understood). */
static int log_read(struct logdat *l, struct err_rec *e)
{
	const struct log_kind *kind = log_kind(l, e);
	FILE *f, *out[NDIRS] = { NULL };
	char *line = NULL;
	size_t cap = 0, q;
	int lineno = 0, ret = -1;

	if (!kind)
		return -1;
	l->what = kind->what;
	l->ylabel = kind->ylabel;
	l->div = kind->div;
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
	while (getline(&line, &cap, f) > 0)
		if (log_line(l, kind, out, line, ++lineno, e))
			goto out;
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
static int chart_log(struct ctx *c, struct logdat *l)
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
	log_extent(l);
	log_yaxis(d.gp, l->div > 1, l->vmin, l->vmax);
	time_end(d.gp, l->end_s);
	fputs("plot", d.gp);
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

/* The window of a p99 over time: 1, 2 or 5 x 10^k ms, about 40 over a
 * log ending at end_ms. */
static double p99_window(double end_ms)
{
	static const double steps[] = { 1, 2, 5 };
	double win = 1;
	size_t k;

	for (k = 0; win * steps[k % 3] * 40 < end_ms; k++)
		if (k % 3 == 2)
			win *= 10;
	return win * steps[k % 3];
}

/* Direction q's p99 per window as data rows (vals: room for its
 * samples); the range of the values (us) widened in *lo, *hi. */
static void p99_rows(FILE *dat, struct logdat *l, size_t q, double win,
		     double *vals, double *lo, double *hi)
{
	size_t i, n;

	for (i = 0; i < l->nraw[q]; ) {
		double w = floor(l->raw[q][i].t_ms / win), p;

		n = 0;
		while (i < l->nraw[q] && floor(l->raw[q][i].t_ms / win) == w)
			vals[n++] = l->raw[q][i++].v;
		qsort(vals, n, sizeof(*vals), dbl_cmp);
		p = vals[(size_t)ceil(0.99 * n) - 1] / l->div;
		fprintf(dat, "%.6f %.10g %zu\n", (w + 1) * win / 1e3, p, n);
		if (p > 0) {
			*lo = *hi > 0 ? fmin(*lo, p) : p;
			*hi = fmax(*hi, p);
		}
	}
}

/*
 * LOG-p99: a per-I/O latency log's p99 (nearest rank: the
 * ceil(0.99 n)-th smallest) per window, windows of 1, 2 or 5 x 10^k ms
 * giving about 40 over the log, at each window's end.
 */
static int chart_log_p99(struct ctx *c, struct logdat *l)
{
	const char *base = strrchr(l->path, '/');
	char name[300], title[400], sub[PATH_MAX + 16];
	double end = 0, win, *vals = NULL, lo = 0, hi = 0;
	size_t q, blk = 0, most = 0;
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
	win = p99_window(end);
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
		       "p99 latency (log scale)")) {
		draw_free(&d);
		free(vals);
		return -1;
	}
	fprintf(d.dat, "# one block (gnuplot index) per direction: "
		"window_end_s p99_us ios (windows of %g ms)\n", win);
	for (q = 0; q < NDIRS; q++) {
		if (!l->nraw[q])
			continue;
		fprintf(d.dat, "%s# %s\n", blk++ ? "\n\n" : "", dirs[q]);
		p99_rows(d.dat, l, q, win, vals, &lo, &hi);
	}
	free(vals);
	log_yaxis(d.gp, true, lo, hi);
	time_end(d.gp, (floor(end / win) + 1) * win / 1e3);
	fputs("plot", d.gp);
	for (q = 0, blk = 0; q < NDIRS; q++) {
		if (!l->nraw[q])
			continue;
		fputs(blk ? ", \\\n     " : " ", d.gp);
		gnuplot_quote(d.gp, d.dat_path);
		fprintf(d.gp, " index %zu using 1:2 with linespoints linewidth "
			"2 title '%s'", blk++, dirs[q]);
	}
	fputc('\n', d.gp);
	return draw_end(&d);
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

/* An iorig result read back (p->doc), or a fio JSON result (p->fio):
 * 0, or -1 with e. The charts' view of it is made by pres_view. */
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
		return 0;
	}
	ret = result_read_json(&p->doc, r, path, 0, e);
	json_decref(r);
	return ret ? -1 : 0;
}

/* Whether the result measured lat wherever it has a latency: fio's
 * results give clat's bins only. */
static bool pres_has_lat(const struct pres *p)
{
	int i;

	if (p->fio)
		return false;
	for (i = 0; i < p->doc.set.nunits; i++)
		if (!unit_has_lat(&p->doc.set.units[i]))
			return false;
	return true;
}

/* The charts' view of a loaded result (clat drawn when only_clat);
 * 0, or -1 (no memory). */
static int pres_view(struct pres *p, bool only_clat)
{
	p->only_clat = only_clat;
	if (p->fio)
		return pres_fio(p);
	return pres_model(&p->doc.r, &p->doc.set, p);
}

/* What `iorig plot` was given. */
struct plot_args {
	const char *fmt, *outdir, *baseline;
	struct cmp_in *in;		/* the results, the baseline first */
	size_t n;
	struct logdat *logs;
	size_t nlogs;
};

/*
 * The logs and results read; each result labelled by its file name.
 * Results compared draw one latency: clat for all when one of them has
 * no lat (fio's). 0, or -1 with e (*code: 2 bad input, 1 no memory).
 */
static int plot_load(struct plot_args *pa, int *code, struct err_rec *e)
{
	bool only_clat = false;
	size_t i;

	for (i = 0; i < pa->nlogs; i++)
		if (log_read(&pa->logs[i], e))
			return -1;
	if (pa->baseline) {
		memmove(pa->in + 1, pa->in, pa->n * sizeof(*pa->in));
		pa->in[0].label = pa->baseline;
		pa->n++;
	}
	for (i = 0; i < pa->n; i++) {
		const char *path = pa->in[i].label;

		if (load_result(path, &pa->in[i].res, e))
			return -1;
		pa->in[i].label = file_label(path);
		pa->in[i].owned = pa->in[i].label != NULL;
		if (!pa->in[i].label) {
			err_set(e, path, 0, "", "out of memory");
			*code = 1;
			return -1;
		}
		only_clat |= pa->n > 1 && !pres_has_lat(&pa->in[i].res);
	}
	for (i = 0; i < pa->n; i++)
		if (pres_view(&pa->in[i].res, only_clat)) {
			err_set(e, pa->in[i].label, 0, "", "out of memory");
			*code = 1;
			return -1;
		}
	return 0;
}

/*
 * Every chart: each result's (named RESULT-NAME when there are several),
 * the logs', the comparison; every latency histogram on one axis range.
 * 0, or -1 with e.
 */
static int plot_draw(const struct plot_args *pa, struct names *used,
		     struct err_rec *e)
{
	struct ctx c = { .dir = pa->outdir, .fmt = pa->fmt, .prefix = "",
			 .keep = true, .e = e, .used = used };
	struct lat_range all = { 0 };
	size_t i, first = pa->baseline ? 1 : 0;

	for (i = first; i < pa->n; i++)
		if (lat_range_res(&all, &pa->in[i].res))
			return oom(&c);
	c.lat = &all;
	for (i = first; i < pa->n; i++) {
		char prefix[300] = "";

		if (pa->n - first > 1) {
			name_part(prefix, 61, pa->in[i].label);
			strcat(prefix, "-");
		}
		c.prefix = prefix;
		if (result_charts(&c, &pa->in[i].res))
			return -1;
	}
	c.prefix = "";
	for (i = 0; i < pa->nlogs; i++)
		if (chart_log(&c, &pa->logs[i]) ||
		    chart_log_p99(&c, &pa->logs[i]))
			return -1;
	if (pa->n > 1 && chart_compare(&c, pa->in, pa->n, pa->baseline))
		return -1;
	return 0;
}

static void plot_args_free(struct plot_args *pa)
{
	size_t i;

	for (i = 0; pa->in && i < pa->n; i++) {
		pres_free(&pa->in[i].res);
		if (pa->in[i].owned)
			free((char *)pa->in[i].label);
	}
	for (i = 0; pa->logs && i < pa->nlogs; i++)
		logdat_free(&pa->logs[i]);
	free(pa->logs);
	free(pa->in);
}

int plot_run(const struct plot_req *q)
{
	struct plot_args pa = { .fmt = q->fmt, .outdir = q->outdir,
				.baseline = q->baseline };
	struct names used = { 0 };
	struct err_rec *e = calloc(1, sizeof(*e));
	int code = 2;
	size_t i;

	/* room for the baseline before the results (plot_load) */
	pa.in = calloc(q->nresults + 2, sizeof(*pa.in));
	pa.logs = calloc(q->nlogs + 1, sizeof(*pa.logs));
	if (!e || !pa.in || !pa.logs) {
		fputs("iorig plot: out of memory\n", stderr);
		code = 1;
		goto out;
	}
	/* each label the result's path, for now */
	for (i = 0; i < q->nresults; i++)
		pa.in[pa.n++].label = q->results[i];
	for (i = 0; i < q->nlogs; i++)
		pa.logs[pa.nlogs++].path = q->logs[i];
	if (plot_load(&pa, &code, e))
		goto fail;
	if ((code = door_mkdir(pa.outdir, "outdir", e))) {
		code = code == -EINVAL ? 2 : 1;
		goto fail;
	}
	code = plot_draw(&pa, &used, e) ? 1 : 0;
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
	plot_args_free(&pa);
	names_free(&used);
	free(e);
	return code;
}
