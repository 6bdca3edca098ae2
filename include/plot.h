/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PLOT_H
#define IORIG_PLOT_H

/*
 * `iorig plot` (src/report/plot.c): charts of results (the result model; iorig's
 * JSON results read back into it, fio's read as fio wrote them) drawn by
 * gnuplot, as files (plot_main) or in process (plot_result_charts, for
 * the HTML report).
 *
 * The error record is the project's struct err_rec (err.h); the brief's
 * "struct err" names it (there is no other error type).
 */
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
int plot_main(int argc, char **argv);

#endif
