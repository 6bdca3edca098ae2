/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HTML_H
#define IORIG_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/*
 * The HTML report (src/report/html.c): one self-contained page drawn from
 * an iorig JSON result document, for --output-format=html (report_html in
 * report.h) and for `iorig report --html RESULT.json`.
 */

/*
 * The page of doc on f; charts: with the charts of iorig plot (gnuplot
 * runs), else without their section (the fuzz target). 0, or -EIO when a
 * write failed.
 */
int html_write(FILE *f, const json_t *doc, bool charts);

#endif
