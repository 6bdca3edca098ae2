// SPDX-License-Identifier: MIT
/*
 * The output formats: one row each. --output-format looks a name up here,
 * and --help and the error for an unknown name list the rows, so a new
 * format is its writer's file in src/report/ and one row below. Every
 * format writes a merged result too (iorig merge, iorig-mpi): in its own
 * cluster layout where it has one, else as one result.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * .order: several formats at once are written as fio writes them (its
 * stat.c: the terse lines, then the JSON document, then the normal
 * report), iorig's own after them in the table's order.
 */
const struct report_format report_formats[] = {
	{ "text", "for people: per job figures, latency percentiles, CPU",
	  report_text, report_cluster_text, 2 },
	{ "json", "iorig's JSON report (doc/iorig-json.md)", report_json,
	  NULL, 3 },
	{ "fio-json", "fio 3.x's JSON layout, for tools written for fio",
	  report_fio, report_cluster_fio, 1 },
	{ "table", "one line per job, for sweeps and comparisons",
	  report_table, NULL, 4 },
	{ "json+", "fio-json with the latency histograms' bins (fio's json+)",
	  report_fio_plus, report_cluster_fio_plus, 1 },
	{ "terse", "fio's semicolon-separated line per job (--terse-version)",
	  report_terse, report_cluster_terse, 0 },
	{ "html", "one self-contained HTML page: summary, checks, charts, "
	  "machine", report_html, NULL, 5 },
	{ "junit", "JUnit XML for CI: a test suite per job, a test case per "
	  "check", report_junit, NULL, 6 },
	{ "openmetrics", "OpenMetrics text: figures, latency summaries and "
	  "histograms", report_openmetrics, NULL, 7 },
	{ "prometheus", "the same in Prometheus' text format 0.0.4 "
	  "(node exporter's textfile collector)", report_prometheus, NULL, 8 },
};

const unsigned report_nformats = sizeof(report_formats) /
				 sizeof(report_formats[0]);
_Static_assert(sizeof(report_formats) / sizeof(report_formats[0]) <=
	       REPORT_FORMATS_MAX, "a set of formats is an unsigned mask");

int report_write(const struct report_format *fmt, FILE *f,
		 const struct run_result *r)
{
	if (r->cluster && fmt->cluster)
		return fmt->cluster(f, r);
	return fmt->write(f, r);
}

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

unsigned report_formats_ordered(unsigned set,
				const struct report_format **out)
{
	const struct report_format *plus = report_format_find("json+");
	const struct report_format *fio = report_format_find("fio-json");
	unsigned i, k, n = 0;

	if (set & (1u << (plus - report_formats)))
		set &= ~(1u << (fio - report_formats));
	/* insertion by order, stable: the table's order among equals */
	for (i = 0; i < report_nformats; i++) {
		if (!(set & (1u << i)))
			continue;
		for (k = n; k && out[k - 1]->order > report_formats[i].order;
		     k--)
			out[k] = out[k - 1];
		out[k] = &report_formats[i];
		n++;
	}
	return n;
}

int report_formats_parse(const char *val, unsigned *set, char *why,
			 size_t len)
{
	const struct report_format *fmt;
	const char *p = val, *end;
	char name[32], names[128];
	size_t n;

	*set = 0;
	for (;;) {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		fmt = NULL;
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			fmt = report_format_find(name);
		}
		if (!fmt) {
			report_format_names(names, sizeof(names), ", ", " or ");
			snprintf(why, len, "'%.*s' is not a format; expected "
				 "%s (several: comma-separated)", (int)n, p,
				 names);
			return -EINVAL;
		}
		*set |= 1u << (fmt - report_formats);
		if (!end)
			return 0;
		p = end + 1;
	}
}
