/* SPDX-License-Identifier: MIT */
#ifndef IORIG_REPORT_H
#define IORIG_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "jobfile.h"
#include "plan.h"
#include "result.h"

/*
 * The output formats, one file each in src/report/, listed in one table:
 * a new format is its file and a row of report_formats (src/report/
 * formats.c). --output-format, --help and the error for an unknown name
 * all read the table.
 */
struct report_format {
	const char *name;		/* --output-format=NAME */
	const char *help;		/* one line for --help */
	int (*write)(FILE *f, const struct run_result *r);
	/* A merged result (r->cluster) in the format's own cluster layout:
	 * iorig's cluster text, fio's client layout (its JSON, json+,
	 * terse); NULL: write takes it as one result. */
	int (*cluster)(FILE *f, const struct run_result *r);
	/* Where it is written among several (lowest first): fio's order
	 * (terse, then its JSON, then normal), then iorig's own. */
	unsigned order;
};

extern const struct report_format report_formats[];
extern const unsigned report_nformats;
/* A set of formats is a bit mask of the table's rows (--output-format). */
#define REPORT_FORMATS_MAX 32

/* r in format fmt: its cluster layout when r is merged and fmt has one. */
int report_write(const struct report_format *fmt, FILE *f,
		 const struct run_result *r);
/* The format called name, or NULL. */
const struct report_format *report_format_find(const char *name);
/*
 * The names in table order, sep between them and last before the last:
 * ", " and " or " give "text, json, fio-json or table".
 */
void report_format_names(char *buf, size_t len, const char *sep,
			 const char *last);
/*
 * The formats of set (bits indexed as report_formats) in the order they
 * are written, into out[REPORT_FORMATS_MAX]; returns how many. fio-json is
 * left out with json+, which is fio's JSON with the bins (one document,
 * as fio writes for --output-format=json,json+).
 */
unsigned report_formats_ordered(unsigned set,
				const struct report_format **out);
/*
 * NAME[,NAME...] as a set of formats (a bit per row): 0, or -EINVAL with
 * why quoting the name that is none and listing the ones there are.
 */
int report_formats_parse(const char *val, unsigned *set, char *why,
			 size_t len);

int report_text(FILE *f, const struct run_result *r);
int report_table(FILE *f, const struct run_result *r);
/*
 * The JSON report's document (what report_json prints), for writers that
 * build on it (html). 0 with *doc (the caller's reference), or -ENOMEM.
 */
int report_json_doc(const struct run_result *r, json_t **doc);
int report_json(FILE *f, const struct run_result *r);
/*
 * One --stream line (stream.h): job j's sample index, its members as the
 * report's "intervals" carry them (start_ns, end_ns, and per direction
 * ios, bytes, iops, bw_bytes, lat_p50_ns, lat_p99_ns, lat_max_ns) after
 * job, clone, sweep_point and index. NULL when out of memory.
 */
json_t *report_json_stream_line(const struct job *j, size_t index,
				 const struct ival_sample *smp);
int report_fio(FILE *f, const struct run_result *r);
int report_fio_plus(FILE *f, const struct run_result *r);	/* json+ */
int report_terse(FILE *f, const struct run_result *r);
int report_html(FILE *f, const struct run_result *r);	/* html.c */
/* The HTML page's trend section (src/report/trend.c): with r->history,
 * each unit's headline figures over its runs there; nothing without. */
struct result_set;
void report_html_trend(FILE *f, const struct run_result *r,
		       const struct result_set *rs);
int report_junit(FILE *f, const struct run_result *r);	/* junit.c */
/* prom.c: OpenMetrics 1.0, and Prometheus' text format 0.0.4 */
int report_openmetrics(FILE *f, const struct run_result *r);
int report_prometheus(FILE *f, const struct run_result *r);
/* The layouts of a merged result (r->cluster): cluster_text.c, the fio
 * client's in cluster_fio.c and terse.c. */
int report_cluster_text(FILE *f, const struct run_result *r);
int report_cluster_fio(FILE *f, const struct run_result *r);
int report_cluster_fio_plus(FILE *f, const struct run_result *r);
int report_cluster_terse(FILE *f, const struct run_result *r);

#endif
