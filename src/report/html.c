// SPDX-License-Identifier: MIT
/*
 * The HTML report: one self-contained page (inline CSS, inline SVG charts,
 * no script, nothing fetched) for people and CI artifacts. It is drawn
 * from the JSON report's document, so `--output-format=html` after a run
 * and `iorig report --html RESULT.json` on a saved result give the same
 * page. Every string of the document (job names, file names, messages) is
 * HTML-escaped; a document that lacks a key or has another type there
 * (an older or hand-edited result) gives a page with blanks, never a
 * crash.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "err.h"
#include "html.h"
#include "door.h"
#include "plot.h"
#include "report.h"
#include "resjson.h"
#include "value.h"

static const char *const dirs[] = { "read", "write", "trim" };

/* Text, escaped for element content and quoted attributes alike. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
}

/* o[key] of a type, or NULL / def when absent or of another type. */
static json_t *obj(const json_t *o, const char *key)
{
	json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_object(v) ? v : NULL;
}

static json_t *arr(const json_t *o, const char *key)
{
	json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_array(v) ? v : NULL;
}

static const char *str(const json_t *o, const char *key)
{
	json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* <td>TEXT</td>, TEXT escaped; NULL is an empty cell. */
static void td(FILE *f, const char *text)
{
	fputs("<td>", f);
	esc(f, text);
	fputs("</td>", f);
}

/* A number cell with decimals (1: a rate in full, 0: a count). */
static void td_num(FILE *f, const json_t *o, const char *key, int decimals)
{
	double v;

	if (resjson_get(o, key, &v))
		fprintf(f, "<td class=\"n\">%.*f</td>", decimals, v);
	else
		td(f, NULL);
}

static void td_ns(FILE *f, bool known, double ns)
{
	char buf[32];

	if (!known) {
		td(f, NULL);
		return;
	}
	value_fmt_ns(ns, buf, sizeof(buf));
	fprintf(f, "<td class=\"n\">%s</td>", buf);
}

static void td_bw(FILE *f, const json_t *o)
{
	static const char *const unit[5] = {
		"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"
	};
	char buf[32];
	double v;

	if (!resjson_get(o, "bw_bytes", &v)) {
		td(f, NULL);
		return;
	}
	value_fmt_sig3(v, 1024, unit, " ", true, buf, sizeof(buf));
	fprintf(f, "<td class=\"n\">%s</td>", buf);
}

/*
 * The latency of a direction: the total latency's percentiles when the
 * job reported them (lat_percentiles=1), else the completion latency's
 * (the default), marked so.
 */
static bool td_lat(FILE *f, const json_t *d)
{
	static const char *const pk[] = { "50", "99", "99.9" };
	const json_t *lat = obj(d, "lat_ns"), *pct = obj(lat, "percentiles");
	double mean = 0, v;
	bool clat = false, known = resjson_get(lat, "mean", &mean);
	unsigned i;

	td_ns(f, known, mean);
	if (!pct || !json_object_size(pct)) {
		pct = obj(obj(d, "clat_ns"), "percentiles");
		clat = pct && json_object_size(pct);
	}
	for (i = 0; i < sizeof(pk) / sizeof(pk[0]); i++) {
		char buf[32];

		if (!resjson_get(pct, pk[i], &v)) {
			td(f, NULL);
			continue;
		}
		value_fmt_ns(v, buf, sizeof(buf));
		fprintf(f, "<td class=\"n\">%s%s</td>", buf,
			clat ? "<sup>c</sup>" : "");
	}
	return clat;
}

/* Whether direction d of a result object did anything worth a row. */
static bool dir_used(const json_t *d)
{
	double ios = 0;

	return d && resjson_get(d, "ios", &ios) && ios > 0;
}

/*
 * The summary rows of one result object (a job or a group); *clat is set
 * when a row's percentiles are the completion latency's.
 */
static void summary_rows(FILE *f, const char *label, const json_t *o,
			 bool *clat)
{
	const char *msg = str(obj(o, "error"), "message");
	unsigned i, rows = 0;
	double us;

	for (i = 0; i < 3; i++) {
		const json_t *d = obj(o, dirs[i]);

		if (!dir_used(d))
			continue;
		fputs("<tr>", f);
		td(f, label);
		td(f, dirs[i]);
		td_num(f, d, "iops", 1);
		td_bw(f, d);
		*clat |= td_lat(f, d);
		if (resjson_get(obj(o, "cpu"), "us_per_io", &us))
			fprintf(f, "<td class=\"n\">%.2f</td>", us);
		else
			td(f, NULL);
		fputs("</tr>\n", f);
		rows++;
	}
	if (!rows) {
		fputs("<tr>", f);
		td(f, label);
		fputs("<td colspan=\"8\">no I/O</td></tr>\n", f);
	}
	if (msg) {
		fputs("<tr><td></td><td class=\"fail\" colspan=\"8\">error: ", f);
		esc(f, msg);
		fputs("</td></tr>\n", f);
	}
}

static void summary_head(FILE *f, const char *first)
{
	fprintf(f, "<table>\n<tr><th>%s</th><th>dir</th><th>IOPS</th>"
		"<th>bandwidth</th><th>lat mean</th><th>p50</th><th>p99</th>"
		"<th>p99.9</th><th>CPU &micro;s/IO</th></tr>\n", first);
}

/* A unit's label: name, clone (of a job with several), sweep point. */
static void unit_label(const json_t *j, char *buf, size_t len)
{
	const char *name = str(j, "name"), *sweep = str(j, "sweep_point");
	json_t *clone = json_object_get(j, "clone");
	const char *numjobs = str(obj(j, "options"), "numjobs");
	int n = snprintf(buf, len, "%s", name ? name : "?");

	if (n >= 0 && (size_t)n < len && json_is_integer(clone) &&
	    ((numjobs && strcmp(numjobs, "1")) || json_integer_value(clone)))
		n += snprintf(buf + n, len - (size_t)n, " #%lld",
			      (long long)json_integer_value(clone));
	if (n >= 0 && (size_t)n < len && sweep)
		snprintf(buf + n, len - (size_t)n, " [%s]", sweep);
}

static void summary(FILE *f, const json_t *doc)
{
	const json_t *jobs = arr(doc, "jobs"), *groups = arr(doc, "groups");
	bool shared = false, clat = false;
	char label[512];
	size_t i;

	fputs("<h2>Summary</h2>\n", f);
	summary_head(f, "job");
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);

		unit_label(j, label, sizeof(label));
		summary_rows(f, label, j, &clat);
	}
	fputs("</table>\n<p class=\"note\">Latency: the total, from "
	      "submission to completion", f);
	if (clat)
		fputs("; percentiles marked <sup>c</sup> are the completion "
		      "latency's, as the job did not set lat_percentiles=1", f);
	fputs(".</p>\n", f);
	for (i = 0; i < json_array_size(groups); i++) {
		double n;

		if (resjson_get(json_array_get(groups, i), "njobs", &n) &&
		    n > 1)
			shared = true;
	}
	if (!shared)
		return;
	fputs("<h3>Reporting groups</h3>\n", f);
	summary_head(f, "group");
	for (i = 0; i < json_array_size(groups); i++) {
		const json_t *g = json_array_get(groups, i);
		double id = (double)i;

		resjson_get(g, "group", &id);
		snprintf(label, sizeof(label), "group %.0f", id);
		summary_rows(f, label, g, &clat);
	}
	fputs("</table>\n", f);
}

static void checks(FILE *f, const json_t *doc, int *npass, int *nfail)
{
	const json_t *a = arr(doc, "checks");
	size_t i;

	*npass = *nfail = 0;
	if (!json_array_size(a))
		return;
	fputs("<h2>Checks</h2>\n<table>\n<tr><th>result</th><th>check</th>"
	      "<th>job</th><th>value</th><th>threshold</th><th>from</th>"
	      "</tr>\n", f);
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *c = json_array_get(a, i);
		json_t *pass = json_object_get(c, "pass");
		const char *word = json_is_true(pass) ? "PASS" :
				   json_is_false(pass) ? "FAIL" : "N/A";
		double v;

		*npass += json_is_true(pass);
		*nfail += json_is_false(pass);
		fprintf(f, "<tr><td class=\"%s\">%s</td>", json_is_true(pass) ?
			"pass" : json_is_false(pass) ? "fail" : "na", word);
		td(f, str(c, "expr"));
		td(f, str(c, "job"));
		if (resjson_get(c, "value", &v))
			fprintf(f, "<td class=\"n\">%.6g</td>", v);
		else
			td(f, str(c, "reason"));
		if (resjson_get(c, "threshold", &v))
			fprintf(f, "<td class=\"n\">%.6g</td>", v);
		else
			td(f, NULL);
		td(f, str(c, "source"));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * The names an SVG defines and refers to: several drawings inline in one
 * page would share gnuplot's ids (gpPt0, gnuplot_canvas), so each gets a
 * prefix of its own. "id=" counts only after white space.
 */
static const char *const svg_refs[] = {
	"id=\"", "id='", "href=\"#", "href='#", "url(#"
};
#define NSVG_REFS (sizeof(svg_refs) / sizeof(svg_refs[0]))

static void put_svg_body(FILE *f, const char *p, const char *e, int chart)
{
	const char *from = p, *start = p;

	while (p < e) {
		size_t k, len = 0;

		for (k = 0; k < NSVG_REFS; k++) {
			len = strlen(svg_refs[k]);
			if ((size_t)(e - p) >= len &&
			    !memcmp(p, svg_refs[k], len) &&
			    (k > 1 || (p > start && strchr(" \t\r\n", p[-1]))))
				break;
		}
		if (k == NSVG_REFS) {
			p++;
			continue;
		}
		p += len;
		fwrite(from, 1, (size_t)(p - from), f);
		fprintf(f, "c%d-", chart);
		from = p;
	}
	fwrite(from, 1, (size_t)(e - from), f);
}

/*
 * Writes the <svg> element of gnuplot's text, from "<svg" to the last
 * "</svg>": the XML prologue and doctype go, and so do the namespace
 * attributes of the root (HTML knows SVG's namespaces, and the page names
 * no address); ids get the prefix "cCHART-". An SVG with a script or a
 * link out is not written.
 */
static bool put_svg(FILE *f, const char *svg, int chart)
{
	const char *b = svg ? strstr(svg, "<svg") : NULL, *e = b, *p, *q;

	for (p = b; p && (p = strstr(p, "</svg>")); p++)
		e = p;
	if (!b || e == b || strstr(b, "<script") || strstr(b, "href=\"http") ||
	    strstr(b, "href='http"))
		return false;
	e += strlen("</svg>");
	q = strchr(b, '>');
	for (p = b; p < q; ) {
		const char *x = strstr(p, " xmlns");
		const char *close;

		if (!x || x > q)
			break;
		close = strchr(x, '"');
		close = close && close < q ? strchr(close + 1, '"') : NULL;
		if (!close || close > q)
			break;
		fwrite(p, 1, (size_t)(x - p), f);
		p = close + 1;
	}
	put_svg_body(f, p, e, chart);
	return true;
}

static void charts(FILE *f, const json_t *doc)
{
	struct plot_chart *c = NULL;
	struct err_rec e = { 0 };
	int i, n;

	fputs("<h2>Charts</h2>\n", f);
	n = plot_result_charts(doc, &c, &e);
	if (n < 0) {
		fputs("<p class=\"note\">No charts: ", f);
		esc(f, e.msg[0] ? e.msg : "they could not be drawn");
		fputs("</p>\n", f);
		return;
	}
	if (!n)
		fputs("<p class=\"note\">No charts for this result.</p>\n", f);
	for (i = 0; i < n; i++) {
		/* gnuplot's drawing carries the title; the caption, if not. */
		fputs("<figure title=\"", f);
		esc(f, c[i].title ? c[i].title : c[i].name);
		fputs("\">", f);
		if (!put_svg(f, c[i].svg, i)) {
			fputs("<figcaption>", f);
			esc(f, c[i].title ? c[i].title : c[i].name);
			fputs(": this chart is not a plain SVG drawing and was "
			      "left out</figcaption>", f);
		}
		fputs("</figure>\n", f);
	}
	plot_charts_free(c, n);
}

/* <tr><th>KEY</th><td>VALUE</td></tr>, VALUE escaped, or nothing. */
static void kv(FILE *f, const char *key, const char *value)
{
	if (!value)
		return;
	fprintf(f, "<tr><th>%s</th>", key);
	td(f, value);
	fputs("</tr>\n", f);
}

static void kv_num(FILE *f, const char *key, const json_t *o, const char *k,
		   bool bytes)
{
	char buf[48];
	double v;

	if (!resjson_get(o, k, &v))
		return;
	if (bytes)
		value_fmt_bytes((uint64_t)v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.0f", v);
	kv(f, key, buf);
}

static void machine(FILE *f, const json_t *doc)
{
	const json_t *h = obj(doc, "host");

	fputs("<h2>Machine</h2>\n<table class=\"kv\">\n", f);
	kv(f, "host", str(h, "hostname"));
	kv(f, "kernel", str(h, "kernel"));
	kv(f, "CPU", str(h, "cpu_model"));
	kv_num(f, "CPUs", h, "ncpus", false);
	kv_num(f, "memory", h, "memory_bytes", true);
	fputs("</table>\n", f);
}

/* Whether target t's path was listed by an earlier job. */
static bool target_seen(const json_t *jobs, size_t upto, const char *path)
{
	size_t i, k;

	for (i = 0; path && i < upto; i++) {
		const json_t *ts = arr(json_array_get(jobs, i), "targets");

		for (k = 0; k < json_array_size(ts); k++) {
			const char *p = str(json_array_get(ts, k), "path");

			if (p && !strcmp(p, path))
				return true;
		}
	}
	return false;
}

static void target_row(FILE *f, const char *job, const json_t *t)
{
	const json_t *d = obj(t, "device");
	json_t *rot = json_object_get(d, "rotational");
	char blk[64] = "";
	double lb, pb;

	fputs("<tr>", f);
	td(f, str(t, "path"));
	td(f, job);
	td(f, str(t, "kind"));
	td(f, str(t, "fs_type"));
	td(f, str(d, "name"));
	td(f, str(d, "model"));
	td(f, str(d, "firmware"));
	if (resjson_get(d, "logical_block_size", &lb) &&
	    resjson_get(d, "physical_block_size", &pb))
		snprintf(blk, sizeof(blk), "%.0f / %.0f", lb, pb);
	td(f, blk);
	td(f, json_is_boolean(rot) ? (json_is_true(rot) ? "yes" : "no") :
	   NULL);
	td(f, str(d, "scheduler"));
	td(f, str(d, "write_cache"));
	fputs("</tr>\n", f);
}

static void targets(FILE *f, const json_t *doc)
{
	const json_t *jobs = arr(doc, "jobs");
	size_t i, k;

	fputs("<h2>Targets</h2>\n<table>\n<tr><th>path</th><th>job</th>"
	      "<th>kind</th><th>file system</th><th>device</th><th>model</th>"
	      "<th>firmware</th><th>block sizes</th><th>rotational</th>"
	      "<th>scheduler</th><th>write cache</th></tr>\n", f);
	for (i = 0; i < json_array_size(jobs); i++) {
		const json_t *j = json_array_get(jobs, i);
		const json_t *ts = arr(j, "targets");

		for (k = 0; k < json_array_size(ts); k++) {
			const json_t *t = json_array_get(ts, k);

			if (!target_seen(jobs, i, str(t, "path")))
				target_row(f, str(j, "name"), t);
		}
	}
	fputs("</table>\n", f);
}

static void disks(FILE *f, const json_t *doc)
{
	const json_t *a = arr(doc, "disk_util");
	size_t i;

	if (!json_array_size(a))
		return;
	fputs("<h3>Disk utilization</h3>\n<table>\n<tr><th>device</th>"
	      "<th>reads</th><th>writes</th><th>util %</th></tr>\n", f);
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *d = json_array_get(a, i);
		double u;

		fputs("<tr>", f);
		td(f, str(d, "name"));
		td_num(f, d, "read_ios", 0);
		td_num(f, d, "write_ios", 0);
		if (resjson_get(d, "util_pct", &u))
			fprintf(f, "<td class=\"n\">%.1f</td>", u);
		else
			td(f, NULL);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void warnings(FILE *f, const json_t *doc)
{
	const json_t *a = arr(doc, "warnings");
	size_t i;

	if (!json_array_size(a))
		return;
	fputs("<h2>Warnings</h2>\n<ul class=\"warn\">\n", f);
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *w = json_array_get(a, i);

		fputs("<li><code>", f);
		esc(f, str(w, "code"));
		fputs("</code> ", f);
		esc(f, str(w, "message"));
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* The command line as one line a shell reads back: 'quoted' as needed. */
static void command_line(FILE *f, const json_t *doc)
{
	const json_t *a = arr(doc, "command_line");
	size_t i;

	if (!a)
		return;
	fputs("<p>Command line: <code>", f);
	for (i = 0; i < json_array_size(a); i++) {
		const char *s = json_string_value(json_array_get(a, i));
		const char *p;

		if (!s)
			continue;
		if (i)
			fputc(' ', f);
		if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_=./:,+%@")]) {
			esc(f, s);
			continue;
		}
		fputc('\'', f);
		for (p = s; *p; p++) {
			char one[2] = { *p, 0 };

			esc(f, *p == '\'' ? "'\\''" : one);
		}
		fputc('\'', f);
	}
	fputs("</code></p>\n", f);
}

/* "a, b and 3 more": the first job names, for the title. */
static void job_names(FILE *f, const json_t *doc)
{
	const json_t *jobs = arr(doc, "jobs");
	size_t i, n = json_array_size(jobs), shown = 0;

	for (i = 0; i < n && shown < 3; i++) {
		const char *name = str(json_array_get(jobs, i), "name");

		const char *prev = i ? str(json_array_get(jobs, i - 1),
					   "name") : NULL;

		if (!name || (prev && !strcmp(name, prev)))
			continue;	/* the clones of one job: once */
		fputs(shown ? ", " : "", f);
		esc(f, name);
		shown++;
	}
	if (i < n)
		fputs(" and more", f);
	if (!shown)
		fputs("no job", f);
}

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;"
	"max-width:80em}\n"
	"h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em;"
	"border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left}\n"
	"th{background:#eee}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}\n"
	"td.pass,span.pass{background:#1a7f37;color:#fff;font-weight:bold}\n"
	"td.fail,span.fail{background:#cf222e;color:#fff;font-weight:bold}\n"
	"td.na{background:#999;color:#fff}\n"
	"p.fail{color:#cf222e;font-weight:bold}\n"
	"span.pass,span.fail{padding:.1em .4em}\n"
	".note{color:#666;font-size:.9em}\n"
	"figure{margin:1em 0}figure svg{max-width:min(100%,60em);height:auto}\n"
	"figcaption{font-size:.9em;color:#444}\n"
	"ul.warn li{color:#9a6700}\n"
	"footer{margin-top:2em;font-size:.9em;color:#555}\n";

int html_write(FILE *f, const json_t *doc, bool charts_on)
{
	const char *host = str(obj(doc, "host"), "hostname");
	const char *time = str(doc, "time");
	int npass, nfail;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>iorig: ", f);
	job_names(f, doc);
	fputs(" on ", f);
	esc(f, host ? host : "?");
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>iorig: ", f);
	job_names(f, doc);
	fputs(" on ", f);
	esc(f, host ? host : "?");
	if (time) {
		fputs(", ", f);
		esc(f, time);
	}
	fputs("</h1>\n", f);
	if (json_is_true(json_object_get(doc, "interrupted"))) {
		fputs("<p class=\"fail\">Interrupted by ", f);
		esc(f, str(doc, "signal") ? str(doc, "signal") : "a signal");
		fputs(": the figures are of the part that ran.</p>\n", f);
	}
	summary(f, doc);
	checks(f, doc, &npass, &nfail);
	if (npass + nfail)
		fprintf(f, "<p>Checks: <span class=\"pass\">%d PASS</span> "
			"<span class=\"fail\">%d FAIL</span></p>\n", npass,
			nfail);
	if (charts_on)
		charts(f, doc);
	machine(f, doc);
	targets(f, doc);
	disks(f, doc);
	warnings(f, doc);
	fputs("<footer>\n<p>iorig ", f);
	esc(f, str(doc, "iorig_version"));
	fputs("</p>\n", f);
	command_line(f, doc);
	fputs("</footer>\n</body>\n</html>\n", f);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

int report_html(FILE *f, const struct run_result *r)
{
	json_t *doc;
	int ret = report_json_doc(r, &doc);

	if (ret)
		return ret;
	ret = html_write(f, doc, true);
	json_decref(doc);
	return ret;
}
