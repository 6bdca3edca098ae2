/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HTML_H
#define IORIG_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "result.h"

/*
 * The HTML report (src/report/html.c): one self-contained page drawn from
 * the result model, for --output-format=html (report_html in report.h)
 * and for `iorig report --html RESULT.json` (its result read back).
 */

/*
 * The page of r on f; charts: with the charts of iorig plot (gnuplot
 * runs), else without their section (the fuzz target). 0, -ENOMEM, or
 * -EIO when a write failed.
 */
int html_write(FILE *f, const struct run_result *r, bool charts);

#endif
