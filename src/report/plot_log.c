// SPDX-License-Identifier: MIT
/*
 * `iorig plot` of log files (plot_int.h): write_bw_log=, write_iops_log=
 * and write_lat_log= files, iorig's or fio's, drawn over time per
 * direction; a per-I/O latency log also as its p99 over a sliding
 * window.
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

void logdat_free(struct logdat *l)
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
int log_read(struct logdat *l, struct err_rec *e)
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
int chart_log(struct ctx *c, struct logdat *l)
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
		fprintf(d.dat, "%s# %s\n", blk ? "\n\n" : "", plot_dirs[q]);
		fwrite(l->dat[q], 1, l->len[q], d.dat);
		fputs(blk ? ", \\\n     " : " ", d.gp);
		gnuplot_quote(d.gp, d.dat_path);
		fprintf(d.gp, " index %zu using 1:2 with %s title '%s'", blk++,
			total > 2000 ? "dots" : "linespoints linewidth 2",
			plot_dirs[q]);
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
int chart_log_p99(struct ctx *c, struct logdat *l)
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
		fprintf(d.dat, "%s# %s\n", blk++ ? "\n\n" : "", plot_dirs[q]);
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
			"2 title '%s'", blk++, plot_dirs[q]);
	}
	fputc('\n', d.gp);
	return draw_end(&d);
}
