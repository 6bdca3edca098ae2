// SPDX-License-Identifier: MIT
/*
 * `iorig plot`'s one chart (plot_int.h): its data and gnuplot script
 * kept in memory, gnuplot run on them, the files kept through the door
 * (plot_run) or the SVG text returned (plot_result_charts); and the axes
 * every chart shares: times in their unit, 1-2-5 steps, linear axes that
 * end above their highest value and time axes that end at the data.
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

void put_text(FILE *f, const char *s, const char *bad)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ||
		      (*bad && strchr(bad, *s)) ? '?' : *s, f);
}

int oom(struct ctx *c)
{
	err_set(c->e, "", 0, "", "out of memory");
	return -1;
}

/*
 * Starts chart NAME (the context's prefix added): its data and script in
 * memory, the script's terminal, output, title (with sub under it) and
 * axis labels written. 0 or -1 (e).
 */
int draw_begin(struct ctx *c, struct draw *d, const char *name,
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

void draw_free(struct draw *d)
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
int draw_end(struct draw *d)
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
void ns_text(double ns, unsigned sig, char *buf, size_t len)
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
const char *time_unit(double max_ns, double *div)
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
double step125(double v, bool up)
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
void log_tics(FILE *gp, const char *axis, double lo, double hi)
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
void lin_top(FILE *gp, const char *axis, double max)
{
	fprintf(gp, "set %srange [0:%.10g]\n", axis, max > 0 ? max * 1.1 : 1);
}

/* [0:end] of a time axis: its end the data's, and a fiftieth more so
 * that the last point is not drawn on the frame. */
void time_end(FILE *gp, double end_s)
{
	fprintf(gp, "set xrange [0:%.10g]\n", end_s > 0 ? end_s * 1.02 : 1);
}
