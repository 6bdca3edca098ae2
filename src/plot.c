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
 * (compare-DIR-METRIC), the baseline as a dashed reference.
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

#include "err.h"
#include "gnuplot.h"
#include "plot.h"

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
};

/* One chart being written. */
struct draw {
	struct ctx *c;
	char *name, *title, *dat_path, *gp_path, *pic_path;
	FILE *dat, *gp;
	char *datbuf, *gpbuf;
	size_t datlen, gplen;
};

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

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

/* "NAME", "NAME SWEEP-POINT", "NAME SWEEP-POINT clone N" */
static void job_label(const json_t *j, char *buf, size_t len)
{
	const char *sp = str(j, "sweep_point");
	int n = snprintf(buf, len, "%s%s%s", str(j, "name"), *sp ? " " : "",
			 sp);

	if (num(j, "njobs") > 1 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " clone %d", (int)num(j, "clone"));
}

/* The file-name stem of a job: its label as a name part. */
static void job_stem(const json_t *j, char *buf, size_t len)
{
	char label[512];

	job_label(j, label, sizeof(label));
	buf[0] = '\0';
	name_part(buf, len, label);
}

/* "job J, engine E, target T (dev D), host H, TIME" */
static void subtitle(const json_t *res, const json_t *j, char *buf,
		     size_t len)
{
	const json_t *t = json_array_get(json_object_get(j, "targets"), 0);
	const json_t *dev = json_object_get(t, "device");
	size_t nt = json_array_size(json_object_get(j, "targets"));
	char label[512], more[32] = "", devs[96] = "";

	job_label(j, label, sizeof(label));
	if (nt > 1)
		snprintf(more, sizeof(more), " +%zu more", nt - 1);
	if (*str(dev, "name"))
		snprintf(devs, sizeof(devs), " (%s)", str(dev, "name"));
	snprintf(buf, len, "job %s, engine %s, target %s%s%s, host %s, %s",
		 label, str(json_object_get(j, "options"), "ioengine"),
		 t ? str(t, "path") : "?", devs, more,
		 str(json_object_get(res, "host"), "hostname"),
		 str(res, "time"));
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
	name_part(stem, sizeof(stem), name);
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
	fprintf(d->dat, "# iorig plot: %s\n", title);
	fprintf(d->gp, "# iorig plot: %s (data %s)\nset encoding utf8\n",
		title, d->dat_path);
	if (!strcmp(c->fmt, "png"))
		fputs("set terminal pngcairo size 1000,620 noenhanced "
		      "background rgb 'white' font 'sans,10'\n", d->gp);
	else
		fputs("set terminal svg size 1000,620 dynamic noenhanced "
		      "background rgb 'white' font 'sans,12'\n", d->gp);
	fputs("set output ", d->gp);
	gnuplot_quote(d->gp, d->pic_path);
	fputs("\nset title ", d->gp);
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

static int write_file(const char *path, const char *buf, size_t len,
		      struct err_rec *e)
{
	FILE *f = fopen(path, "we");
	int bad;

	if (!f) {
		err_set(e, path, 0, "", "cannot create: %s", strerror(errno));
		return -1;
	}
	bad = fwrite(buf, 1, len, f) != len;
	bad |= fclose(f) != 0;
	if (bad) {
		err_set(e, path, 0, "", "cannot write: %s", strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	char chunk[8192];
	size_t n;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (ferror(f) || fclose(m)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
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

/* Writes the files, runs gnuplot; 0 or -1 (e). Frees d either way. */
static int draw_end(struct draw *d)
{
	struct ctx *c = d->c;
	struct err_rec *e = c->e;
	bool missing;
	int st, ret = -1;
	char *svg = NULL;

	fflush(d->dat);
	fflush(d->gp);
	if (ferror(d->dat) || ferror(d->gp)) {
		oom(c);
		goto out;
	}
	if (write_file(d->dat_path, d->datbuf, d->datlen, e) ||
	    write_file(d->gp_path, d->gpbuf, d->gplen, e))
		goto out;
	st = gnuplot_run(d->gp_path, &missing);
	if (missing) {
		err_set(e, "", 0, "", "gnuplot is not installed: install "
			"gnuplot-nox (apt-get install gnuplot-nox) to draw "
			"charts");
		goto out;
	}
	if (st) {
		err_set(e, d->gp_path, 0, "", "gnuplot %s%d on this script; "
			"%s was not drawn", st < 0 ? "could not run: " :
			"exited with status ", st, d->pic_path);
		goto out;
	}
	if (c->keep) {
		printf("%s\n", d->pic_path);
		ret = 0;
		goto out;
	}
	svg = read_all(d->pic_path);
	if (!svg) {
		err_set(e, d->pic_path, 0, "", "gnuplot wrote no chart");
		goto out;
	}
	ret = keep_chart(c, d, svg);
out:
	if (!c->keep) {
		unlink(d->dat_path);
		unlink(d->gp_path);
		unlink(d->pic_path);
	}
	draw_free(d);
	return ret;
}

/* The latency histogram a direction reports: lat (issue to completion)
 * when it was measured, else clat; NULL when neither has I/Os. */
static const json_t *dir_hist(const json_t *dir, const char **which)
{
	static const char *const keys[] = { "lat_ns", "clat_ns" };
	size_t k;

	for (k = 0; k < 2; k++) {
		const json_t *h = json_object_get(dir, keys[k]);

		if (num(h, "count") > 0 &&
		    json_array_size(json_object_get(h, "buckets"))) {
			*which = k ? "clat" : "lat";
			return h;
		}
	}
	return NULL;
}

/*
 * Percentile p (a percentile_list key, e.g. "99.9") of h in us: the
 * reported figure, else (lat_ns, whose percentiles are off unless
 * lat_percentiles=1) the upper edge of the bucket that holds it, as the
 * reported ones are; -1 when h has no I/O.
 */
static double pct_us(const json_t *h, const char *p)
{
	const json_t *v = json_object_get(json_object_get(h, "percentiles"),
					  p);
	const json_t *b = json_object_get(h, "buckets");
	double total = 0, cum = 0, want;
	size_t i;

	if (json_is_number(v))
		return json_number_value(v) / 1e3;
	for (i = 0; i < json_array_size(b); i++)
		total += json_number_value(json_array_get(
			json_array_get(b, i), 2));
	want = strtod(p, NULL) / 100 * total;
	for (i = 0; i < json_array_size(b) && total > 0; i++) {
		const json_t *r = json_array_get(b, i);

		cum += json_number_value(json_array_get(r, 2));
		if (cum >= want)
			return json_number_value(json_array_get(r, 1)) / 1e3;
	}
	return -1;
}

/* NAME-DIR-lat: histogram (log x), CDF on y2, p50/p99/p99.9 marked. */
static int chart_lat(struct ctx *c, const json_t *res, const json_t *j,
		     const char *stem, const char *dname)
{
	static const char *const marks[] = { "50", "99", "99.9" };
	const json_t *dir = json_object_get(j, dname), *h, *b;
	const char *which = "lat";
	char name[700], title[700], sub[1200], label[512];
	struct draw d;
	double total = 0, cum = 0, cur_bin = 0, bin_lo = 0, bin_hi = 0;
	double bin_n = 0;
	size_t i, k;

	h = dir_hist(dir, &which);
	if (!h)
		return 0;
	b = json_object_get(h, "buckets");
	for (i = 0; i < json_array_size(b); i++)
		total += json_number_value(json_array_get(
			json_array_get(b, i), 2));
	if (total <= 0)
		return 0;
	job_label(j, label, sizeof(label));
	snprintf(name, sizeof(name), "%s-%s-lat", stem, dname);
	snprintf(title, sizeof(title), "%s: %s latency (%s), %.0f I/Os",
		 label, dname, !strcmp(which, "lat") ?
		 "lat, submission to completion" : "clat, completion",
		 num(h, "count"));
	subtitle(res, j, sub, sizeof(sub));
	if (draw_begin(c, &d, name, title, sub, "latency (µs, log scale)",
		       "I/Os per bucket"))
		goto fail;
	/* the histogram's buckets (hist.c: 256 per power of two at most)
	 * merged into LAT_BINS per decade of the log axis: bars that read */
	fprintf(d.dat, "# %d bins per decade: low_us high_us count "
		"cumulative_pct (at high_us)\n", LAT_BINS);
	for (i = 0; i < json_array_size(b); i++) {
		const json_t *r = json_array_get(b, i);
		double lo = json_number_value(json_array_get(r, 0)) / 1e3;
		double hi = (json_number_value(json_array_get(r, 1)) + 1) / 1e3;
		double n = json_number_value(json_array_get(r, 2));
		double bin = floor(log10(lo > 1e-3 ? lo : 1e-3) * LAT_BINS);

		if (i && bin != cur_bin) {
			fprintf(d.dat, "%.3f %.3f %.0f %.6f\n", bin_lo, bin_hi,
				bin_n, 100 * cum / total);
			bin_n = 0;
		}
		if (!i || bin != cur_bin) {
			cur_bin = bin;
			bin_lo = pow(10, bin / LAT_BINS);
		}
		bin_hi = fmax(pow(10, (bin + 1) / LAT_BINS), hi);
		bin_n += n;
		cum += n;
	}
	fprintf(d.dat, "%.3f %.3f %.0f %.6f\n", bin_lo, bin_hi, bin_n,
		100 * cum / total);
	fputs("set logscale x\nset yrange [0:*]\nset y2range [0:100]\n"
	      "set ytics nomirror\nset y2tics 0,10,100\n"
	      "set y2label 'cumulative I/Os (%)'\n"
	      "set style fill solid 0.5 noborder\n", d.gp);
	for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++) {
		double v = pct_us(h, marks[k]);

		if (v <= 0)
			continue;
		fprintf(d.gp, "set arrow from %.3f, graph 0 to %.3f, graph 1 "
			"nohead dashtype 2 linecolor rgb '#c00000'\n"
			"set label 'p%s %.1f µs' at %.3f, graph %.2f left "
			"offset 0.5,0 textcolor rgb '#c00000'\n", v, v,
			marks[k], v, v, 0.95 - 0.06 * k);
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

/* NAME-iops, NAME-bw, NAME-p99 from the job's intervals. */
static int chart_time(struct ctx *c, const json_t *res, const json_t *j,
		      const char *stem)
{
	static const struct {
		const char *suffix, *what, *ylabel, *key;
		double div;
	} m[] = {
		{ "iops", "IOPS", "I/O operations per second", "iops", 1 },
		{ "bw", "bandwidth", "bandwidth (MiB/s)", "bw_bytes",
		  1048576 },
		{ "p99", "p99 latency", "p99 latency (µs)", "lat_p99_ns",
		  1e3 },
	};
	const json_t *iv = json_object_get(j, "intervals");
	bool has[NDIRS];
	char label[512], sub[1200];
	size_t k, i, q, nd = 0;

	if (!json_array_size(iv))
		return 0;
	for (q = 0; q < NDIRS; q++) {
		has[q] = num(json_object_get(j, dirs[q]), "ios") > 0;
		nd += has[q];
	}
	if (!nd)
		return 0;
	job_label(j, label, sizeof(label));
	subtitle(res, j, sub, sizeof(sub));
	for (k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		char name[700], title[700];
		struct draw d;
		int col = 2;

		snprintf(name, sizeof(name), "%s-%s", stem, m[k].suffix);
		snprintf(title, sizeof(title), "%s: %s over time (%s "
			 "intervals)", label, m[k].what,
			 str(json_object_get(j, "options"), "interval"));
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
		for (i = 0; i < json_array_size(iv); i++) {
			const json_t *r = json_array_get(iv, i);

			fprintf(d.dat, "%.6f", num(r, "end_ns") / 1e9);
			for (q = 0; q < NDIRS; q++) {
				const json_t *x = json_object_get(r, dirs[q]);

				if (!has[q])
					continue;
				/* no I/O in the interval: no latency */
				if (m[k].div == 1e3 && num(x, "ios") <= 0)
					fputs(" ?", d.dat);
				else
					fprintf(d.dat, " %.10g",
						num(x, m[k].key) / m[k].div);
			}
			fputc('\n', d.dat);
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
static int chart_sweep(struct ctx *c, const json_t *res)
{
	const json_t *jobs = json_object_get(res, "jobs"), *j0 = NULL;
	struct sweep_pt *pt;
	size_t n = 0, i, k, nbs = 0, nlines = 0;
	char sub[1200], title[600], name0[512];
	struct draw d;
	double *bsv;
	int ret = -1;

	pt = calloc(json_array_size(jobs) + 1, sizeof(*pt));
	bsv = calloc(json_array_size(jobs) + 1, sizeof(*bsv));
	if (!pt || !bsv) {
		free(pt);
		free(bsv);
		return oom(c);
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);
		const json_t *s = json_object_get(j, "summary");
		struct sweep_pt p = { 0 };

		if (!json_is_true(json_object_get(j, "ran")) ||
		    !sweep_line(str(j, "sweep_point"), p.line,
				sizeof(p.line)))
			continue;
		if (!j0)
			j0 = j;
		p.bs = strtod(str(json_object_get(j, "options"), "bs"), NULL);
		for (k = 0; k < n; k++)
			if (!strcmp(pt[k].line, p.line) && pt[k].bs == p.bs)
				break;
		if (k == n)
			pt[n++] = p;
		pt[k].iops += num(s, "iops");
		pt[k].reqs += num(s, "reqs");
		pt[k].cpu_us += num(s, "us_per_io") * num(s, "reqs");
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
	snprintf(name0, sizeof(name0), "%s", str(j0, "name"));
	snprintf(title, sizeof(title), "%s: op/s and CPU per I/O against "
		 "request size (sweep)", name0);
	{
		const json_t *t = json_array_get(json_object_get(j0,
							"targets"), 0);
		const char *dev = str(json_object_get(t, "device"), "name");

		snprintf(sub, sizeof(sub), "job %s, rw=%s, iodepth=%s, "
			 "target %s%s%s%s, host %s, %s", name0,
			 str(json_object_get(j0, "options"), "rw"),
			 str(json_object_get(j0, "options"), "iodepth"),
			 t ? str(t, "path") : "?", *dev ? " (" : "", dev,
			 *dev ? ")" : "",
			 str(json_object_get(res, "host"), "hostname"),
			 str(res, "time"));
	}
	if (draw_begin(c, &d, "sweep", title, sub,
		       "request size (bytes, log scale)", "op/s")) {
		draw_free(&d);
		goto out;
	}
	fprintf(d.dat, "# one block (gnuplot index) per line: bs_bytes "
		"iops cpu_us_per_io\n");
	for (i = 0; i < n; i++) {
		if (!i || strcmp(pt[i].line, pt[i - 1].line))
			fprintf(d.dat, "%s# %s\n", i ? "\n\n" : "",
				*pt[i].line ? pt[i].line : "sweep");
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
static int result_charts(struct ctx *c, const json_t *res)
{
	const json_t *jobs = json_object_get(res, "jobs");
	size_t i, q;

	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);
		char stem[600];

		if (!json_is_true(json_object_get(j, "ran")))
			continue;
		job_stem(j, stem, sizeof(stem));
		for (q = 0; q < NDIRS; q++)
			if (chart_lat(c, res, j, stem, dirs[q]))
				return -1;
		if (chart_time(c, res, j, stem))
			return -1;
	}
	return chart_sweep(c, res);
}

/* res is an iorig JSON result; else e says what was expected. */
static int check_result(const json_t *res, const char *file,
			struct err_rec *e)
{
	const json_t *jobs = json_object_get(res, "jobs");
	size_t i;

	if (!json_is_object(res) ||
	    !json_is_string(json_object_get(res, "iorig_version")) ||
	    !json_is_array(jobs)) {
		err_set(e, file, 0, "", "not an iorig JSON result: expected "
			"the output of iorig --output-format=json (an object "
			"with iorig_version and jobs)");
		return -1;
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);

		if (!json_is_object(j) ||
		    !json_is_string(json_object_get(j, "name"))) {
			err_set(e, file, 0, "", "jobs[%zu] is not a job "
				"(expected an object with a name)", i);
			return -1;
		}
	}
	return 0;
}

int plot_result_charts(const json_t *result, struct plot_chart **charts,
		       struct err_rec *e)
{
	const char *tmp = getenv("TMPDIR");
	struct ctx c = { .fmt = "svg", .prefix = "", .e = e };
	char dir[PATH_MAX];

	*charts = NULL;
	if (check_result(result, "<result>", e))
		return -1;
	snprintf(dir, sizeof(dir), "%s/iorig-plot-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		err_set(e, dir, 0, "", "cannot create a temporary "
			"directory: %s", strerror(errno));
		return -1;
	}
	c.dir = dir;
	if (result_charts(&c, result)) {
		plot_charts_free(c.out, c.n);
		rmdir(dir);
		return -1;
	}
	rmdir(dir);
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
	const json_t *res;
};

static const json_t *find_job(const json_t *res, const char *label)
{
	const json_t *jobs = json_object_get(res, "jobs");
	size_t i;

	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);
		char l[512];

		job_label(j, l, sizeof(l));
		if (json_is_true(json_object_get(j, "ran")) &&
		    !strcmp(l, label))
			return j;
	}
	return NULL;
}

/* A direction's figure: iops, MiB/s or p99 (us); < 0 when it has none. */
static double cmp_value(const json_t *j, const char *dname, int metric)
{
	const json_t *d = json_object_get(j, dname), *h;
	const char *which;
	double v;

	if (!j || num(d, "ios") <= 0)
		return -1;
	if (metric == 0)
		return num(d, "iops");
	if (metric == 1)
		return num(d, "bw_bytes") / 1048576;
	/* the reported p99 (lat's with lat_percentiles=1, else clat's, as
	 * the summary's lat_p99_ns), else from the buckets */
	h = json_object_get(d, "lat_ns");
	if (!json_is_number(json_object_get(json_object_get(h,
				"percentiles"), "99")))
		h = json_object_get(d, "clat_ns");
	if (!json_is_number(json_object_get(json_object_get(h,
				"percentiles"), "99")))
		h = dir_hist(d, &which);
	v = h ? pct_us(h, "99") : -1;
	return v;
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
		const json_t *jobs = json_object_get(in[r].res, "jobs");

		for (i = 0; i < json_array_size(jobs); i++) {
			const json_t *j = json_array_get(jobs, i);
			char l[512], **p;

			if (!json_is_true(json_object_get(j, "ran")))
				continue;
			job_label(j, l, sizeof(l));
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
					any = cmp_value(find_job(in[r].res,
						labels[k]), dirs[q], metric)
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
				 str(json_object_get(in[base].res, "host"),
				     "hostname"));
			if (draw_begin(c, &d, name, title, sub, "job",
				       munit[metric])) {
				draw_free(&d);
				goto out;
			}
			fputs("# job_index \"job\"", d.dat);
			for (r = 0; r < n; r++)
				fprintf(d.dat, " \"%s%s\"", r < (size_t)base ?
					"baseline " : "", in[r].label);
			fputc('\n', d.dat);
			for (k = 0; k < nl; k++) {
				fprintf(d.dat, "%zu \"", k);
				for (i = 0; labels[k][i]; i++)
					fputc(labels[k][i] == '"' ? '\'' :
					      labels[k][i], d.dat);
				fputc('"', d.dat);
				for (r = 0; r < n; r++) {
					double v = cmp_value(find_job(
						in[r].res, labels[k]), dirs[q],
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

static void plot_usage(FILE *f)
{
	fputs("usage: iorig plot [--format=svg|png] [--outdir=DIR] "
	      "[--baseline=FILE] RESULT.json...\n"
	      "Draws charts of iorig JSON results (--output-format=json) "
	      "with gnuplot:\n"
	      "  JOB-DIR-lat   latency histogram and CDF, p50/p99/p99.9 "
	      "marked\n"
	      "  JOB-iops, JOB-bw, JOB-p99   over time (results with "
	      "interval=)\n"
	      "  sweep         op/s and CPU us per I/O against request size "
	      "(bs= sweeps)\n"
	      "  compare-DIR-iops|bw|p99   several results, or against "
	      "--baseline\n"
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

static json_t *load_result(const char *path, struct err_rec *e)
{
	json_error_t je;
	json_t *r = json_load_file(path, JSON_DECODE_ANY, &je);

	if (!r) {
		err_set(e, path, je.line > 0 ? je.line : 0, "",
			"%s: expected an iorig JSON result "
			"(--output-format=json)", je.text);
		return NULL;
	}
	if (check_result(r, path, e)) {
		json_decref(r);
		return NULL;
	}
	return r;
}

int plot_main(int argc, char **argv)
{
	const char *fmt = "svg", *outdir = ".", *baseline = NULL;
	struct cmp_in *in = NULL;
	struct err_rec *e = calloc(1, sizeof(*e));
	size_t n = 0, i;
	int a, code = 2;
	bool opts = true;

	if (!e) {
		fputs("iorig plot: out of memory\n", stderr);
		return 1;
	}
	in = calloc(argc + 1, sizeof(*in));
	if (!in) {
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
			in[n++].label = s;	/* the path, for now */
		}
	}
	if (!n) {
		plot_usage(stderr);
		goto out;
	}
	if (baseline) {
		memmove(in + 1, in, n * sizeof(*in));
		in[0].label = baseline;
		n++;
	}
	for (i = 0; i < n; i++) {
		const char *path = in[i].label;

		in[i].res = load_result(path, e);
		in[i].label = NULL;
		if (!in[i].res)
			goto fail;
		in[i].label = file_label(path);
		if (!in[i].label) {
			err_set(e, path, 0, "", "out of memory");
			code = 1;
			goto fail;
		}
	}
	if (mkdir(outdir, 0777) && errno != EEXIST) {
		err_set(e, outdir, 0, "outdir", "cannot create: %s",
			strerror(errno));
		code = 1;
		goto fail;
	}
	code = 0;
	for (i = baseline ? 1 : 0; i < n && !code; i++) {
		char prefix[300] = "";
		struct ctx c = { .dir = outdir, .fmt = fmt, .prefix = prefix,
				 .keep = true, .e = e };

		if (n - (baseline != NULL) > 1) {
			name_part(prefix, sizeof(prefix) - 1, in[i].label);
			strcat(prefix, "-");
		}
		if (result_charts(&c, in[i].res))
			code = 1;
	}
	if (!code && n > 1) {
		struct ctx c = { .dir = outdir, .fmt = fmt, .prefix = "",
				 .keep = true, .e = e };

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
		json_decref((json_t *)in[i].res);
		free((char *)(in[i].res ? in[i].label : NULL));
	}
	free(in);
	free(e);
	return code;
}
