// SPDX-License-Identifier: MIT
/*
 * `iorig plot`: charts of iorig JSON results, drawn by gnuplot
 * (include/plot.h). Each chart is a data file NAME.dat and a script
 * NAME.gp handed to gnuplot (gnuplot.c), which draws NAME.svg or
 * NAME.png. plot_run keeps all three in --outdir; plot_result_charts
 * draws in a temporary directory and returns the SVG text.
 *
 * This file: the command (plot_run), what the charts read of a result
 * (the model's units, or fio's JSON as fio wrote it: pres_fio) and the
 * names charts are given. The charts themselves: plot_draw.c (writing
 * one chart, its axes), plot_lat.c (a result's charts), plot_cmp.c
 * (results compared), plot_log.c (log files over time); plot_int.h is
 * what they share.
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

#include "plot_int.h"

const char *const plot_dirs[NDIRS] = { "read", "write", "trim" };

void names_free(struct names *u)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		free(u->v[i]);
	free(u->v);
}

/* stem made unique among u's (-2, -3... added) and kept there; 0 or -1. */
int names_take(struct names *u, char *stem, size_t len)
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


/* name as a file-name part: [A-Za-z0-9._-] kept, ' ' as '-', else '_'. */
void name_part(char *buf, size_t len, const char *s)
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


void pres_free(struct pres *p)
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
int pres_model(const struct run_result *r, const struct result_set *rs,
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
void job_stem(const struct pjob *j, char *buf, size_t len)
{
	buf[0] = '\0';
	name_part(buf, len, j->label);
}

/* buf gains ", " and the printf of fmt, unless the value (a string,
 * the first argument) is empty: no subtitle reads ", host ". */
void sub_add(char *buf, size_t len, const char *fmt, const char *v)
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
void sub_target(char *buf, size_t len, const struct pjob *j)
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
void subtitle(const struct pres *res, const struct pjob *j, char *buf,
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
			if (fio_dir(json_object_get(fj, plot_dirs[q]), &j->dir[q]))
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
