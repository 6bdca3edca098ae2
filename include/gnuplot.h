/* SPDX-License-Identifier: MIT */
#ifndef IORIG_GNUPLOT_H
#define IORIG_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Running gnuplot (src/gnuplot.c), for --chart (curve.c) and `iorig plot`
 * (plot.c): the one place that spawns it and quotes text for its scripts.
 */

/* gnuplot SCRIPT (stdin /dev/null, its messages on stderr): its exit
 * status, -1 when it could not be run, with *missing when it is not
 * installed. */
int gnuplot_run(const char *script, bool *missing);

/* s as a gnuplot single-quoted string: ' doubled, controls as '?'. */
void gnuplot_quote(FILE *f, const char *s);

#endif
