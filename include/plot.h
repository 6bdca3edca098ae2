/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PLOT_H
#define IORIG_PLOT_H

/*
 * `iorig plot`'s charts (src/report/plot.c; its command line is
 * src/face/plotcmd.c's): charts of results (the result model; iorig's
 * JSON results read back into it, fio's read as fio wrote them) drawn by
 * gnuplot, as files (plot_run) or in process (plot_result_charts, for
 * the HTML report).
 *
 * The error record is the project's struct err_rec (err.h); the brief's
 * "struct err" names it (there is no other error type).
 */
#include <stddef.h>

struct err_rec;
struct run_result;

struct plot_chart {
	char *name;	/* file-name stem, e.g. "seqread-read-lat" */
	char *title;	/* human title */
	char *svg;	/* the SVG text gnuplot wrote (malloc'd) */
};

/* Draws every chart that fits one result of the model (a run's, or a
 * saved one read back), as SVG text. Returns the number of charts (0 is
 * fine), or -1 with a message in e (gnuplot missing, no memory). */
int plot_result_charts(const struct run_result *r, struct plot_chart **charts,
		       struct err_rec *e);
void plot_charts_free(struct plot_chart *charts, int n);

/* What `iorig plot` draws: the results (JSON, iorig's or fio's) and logs
 * given, against a baseline result (or NULL), as fmt ("svg", "png") files
 * in outdir. */
struct plot_req {
	const char *fmt, *outdir, *baseline;
	const char *const *results;
	size_t nresults;
	const char *const *logs;
	size_t nlogs;
};

/* Draws them, printing each chart's name; errors said on stderr. The exit
 * code: 0, 2 bad input (or no gnuplot), 1 no memory or a failed write. */
int plot_run(const struct plot_req *q);

#endif
