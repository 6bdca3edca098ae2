/* SPDX-License-Identifier: MIT */
#ifndef IORIG_GNUPLOT_H
#define IORIG_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Running gnuplot (src/lib/gnuplot.c), for --chart (curve.c) and `iorig plot`
 * (plot.c): the one place that spawns it and quotes text for its scripts.
 */

/* gnuplot SCRIPT (stdin /dev/null, its messages on stderr), the chart
 * (a script with no `set output`) on out, a file opened through the
 * door (door.h): gnuplot opens no file of its own. Its exit status, -1
 * when it could not be run, with *missing when it is not installed. */
int gnuplot_run(const char *script, int out, bool *missing);

/* s as a gnuplot single-quoted string: ' doubled, controls as '?'. */
void gnuplot_quote(FILE *f, const char *s);

#endif
