// SPDX-License-Identifier: MIT
/*
 * The output formats: one row each. --output-format looks a name up here,
 * and --help and the error for an unknown name list the rows, so a new
 * format is its writer's file in src/report/ and one row below.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

const struct report_format report_formats[] = {
	{ "text", "for people: per job figures, latency percentiles, CPU",
	  report_text },
	{ "json", "iorig's JSON report (doc/iorig-json.md)", report_json },
	{ "fio-json", "fio 3.x's JSON layout, for tools written for fio",
	  report_fio },
	{ "table", "one line per job, for sweeps and comparisons",
	  report_table },
	{ "json+", "fio-json with the latency histograms' bins (fio's json+)",
	  report_fio_plus },
	{ "terse", "fio's semicolon-separated line per job (--terse-version)",
	  report_terse },
	{ "html", "one self-contained HTML page: summary, checks, charts, "
	  "machine", report_html },
};

const unsigned report_nformats = sizeof(report_formats) /
				 sizeof(report_formats[0]);

const struct report_format *report_format_find(const char *name)
{
	unsigned i;

	for (i = 0; i < report_nformats; i++)
		if (!strcmp(report_formats[i].name, name))
			return &report_formats[i];
	return NULL;
}

void report_format_names(char *buf, size_t len, const char *sep,
			 const char *last)
{
	size_t used = 0;
	unsigned i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < report_nformats && used < len; i++) {
		const char *s = !i ? "" : i + 1 < report_nformats ? sep : last;
		int n = snprintf(buf + used, len - used, "%s%s", s,
				 report_formats[i].name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}
