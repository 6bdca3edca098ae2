// SPDX-License-Identifier: MIT
/*
 * The HTML report: one self-contained page (inline CSS, inline SVG charts,
 * no script, nothing fetched) for people and CI artifacts. It is drawn
 * from the result model, which a saved result reads back into
 * (result_read), so `--output-format=html` after a run and `iorig report
 * --html RESULT.json` on a saved result give the same page. Every string
 * of the result (job names, file names, messages) is HTML-escaped; what a
 * document lacks (an older or hand-edited one) reads as unknown or 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "err.h"
#include "html.h"
#include "plot.h"
#include "report.h"
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

/* <td>TEXT</td>, TEXT escaped; NULL is an empty cell. */
static void td(FILE *f, const char *text)
{
	fputs("<td>", f);
	esc(f, text);
	fputs("</td>", f);
}

static void td_bw(FILE *f, double v)
{
	static const char *const unit[5] = {
		"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"
	};
	char buf[32];

	value_fmt_sig3(v, 1024, unit, " ", true, buf, sizeof(buf));
	fprintf(f, "<td class=\"n\">%s</td>", buf);
}

/* The latency columns of the summary: the mean, p50, p99, p99.9. */
#define NLAT 4

/*
 * The latency figures of a direction (ns; < 0: an empty cell): the mean
 * of the total latency, and the total latency's percentiles when the job
 * reported them (lat_percentiles=1), else the completion latency's (the
 * default), *clat then set; a percentile the job does not report is an
 * empty cell.
 */
static void lat_figures(const struct dir_stats *d, const struct job *j,
			double out[NLAT], bool *clat)
{
	static const double pk[] = { 50, 99, 99.9 };
	const struct hist *h = &d->lat;
	int k = MH_LAT;
	unsigned i;

	out[0] = hist_mean(&d->lat);
	*clat = false;
	if (!j || !j->report.lat_percentiles || !h->count ||
	    !j->report.npercentiles) {
		h = &d->clat;
		k = MH_CLAT;
		*clat = j && j->report.clat_percentiles && h->count &&
			j->report.npercentiles;
	}
	for (i = 0; i < sizeof(pk) / sizeof(pk[0]); i++)
		out[i + 1] = j && h->count && result_shows_pct(j, k, pk[i]) ?
			     (double)hist_percentile(h, pk[i]) : -1;
}

/* The unit of a latency column: the largest in which its smallest
 * figure is at least 1 (2.6 µs and 5.8 ms: µs, 2.60 and 5820), one
 * unit a column, named in its head. */
struct col_unit {
	double div;		/* ns */
	const char *name;
	double min;		/* the smallest figure > 0 seen */
};

static void col_unit_pick(struct col_unit *c)
{
	static const char *const name[] = { "ns", "µs", "ms", "s" };
	int k = 0;

	c->div = 1;
	if (c->min <= 0)
		c->min = 1000;		/* nothing measured: µs */
	while (k < 3 && c->min >= c->div * 1000) {
		c->div *= 1000;
		k++;
	}
	c->name = name[k];
}

/* A figure in its column's unit: three significant figures where it is
 * small, whole where it is 100 or more. */
static void td_lat_cell(FILE *f, double ns, const struct col_unit *c,
			bool clat)
{
	double v = ns / c->div;

	if (ns < 0) {
		td(f, NULL);
		return;
	}
	fprintf(f, "<td class=\"n\">%.*f%s</td>", v >= 100 ? 0 : v >= 10 ?
		1 : 2, v, clat ? "<sup>c</sup>" : "");
}

/* The columns' units widened to the figures of s's directions. */
static void col_units_add(struct col_unit *cu, const struct job_stats *s,
			  const struct job *j)
{
	double v[NLAT];
	bool clat;
	unsigned i, k;

	for (i = 0; i < DDIR_NR; i++) {
		if (!s->dir[i].ios)
			continue;
		lat_figures(&s->dir[i], j, v, &clat);
		for (k = 0; k < NLAT; k++)
			if (v[k] > 0 && (cu[k].min <= 0 || v[k] < cu[k].min))
				cu[k].min = v[k];
	}
}

/*
 * The summary rows of one unit or group (j: whose percentile options
 * apply), latencies in the columns' units cu; *clat is set when a row's
 * percentiles are the completion latency's.
 */
static void summary_rows(FILE *f, const char *label,
			 const struct job_stats *s, const struct job *j,
			 const struct col_unit *cu, bool *clat)
{
	bool measured = s->nmeasured || !s->nclones, c;
	unsigned i, k, rows = 0;
	char msg[ERR_TEXT_MAX + 128];
	double v[NLAT];

	for (i = 0; i < DDIR_NR; i++) {
		const struct dir_stats *d = &s->dir[i];

		if (!d->ios)
			continue;
		fputs("<tr>", f);
		td(f, label);
		td(f, dirs[i]);
		if (measured) {
			fprintf(f, "<td class=\"n\">%.1f</td>",
				stats_iops(d, s->runtime_ns));
			td_bw(f, stats_bw(d, s->runtime_ns));
		} else {
			td(f, NULL);
			td(f, NULL);
		}
		lat_figures(d, j, v, &c);
		for (k = 0; k < NLAT; k++)
			td_lat_cell(f, v[k], &cu[k], k && c);
		*clat |= c;
		fprintf(f, "<td class=\"n\">%.2f</td>",
			stats_cpu_us_per_io(s));
		fputs("</tr>\n", f);
		rows++;
	}
	if (!rows) {
		fputs("<tr>", f);
		td(f, label);
		fputs("<td colspan=\"8\">no I/O</td></tr>\n", f);
	}
	if (s->err) {
		result_error_text(s, msg, sizeof(msg));
		fputs("<tr><td></td><td class=\"fail\" colspan=\"8\">error: ", f);
		esc(f, msg);
		fputs("</td></tr>\n", f);
	}
}

static void summary_head(FILE *f, const char *first,
			 const struct col_unit *cu)
{
	fprintf(f, "<table>\n<tr><th>%s</th><th>dir</th><th>IOPS</th>"
		"<th>bandwidth</th><th>lat mean (%s)</th><th>p50 (%s)</th>"
		"<th>p99 (%s)</th><th>p99.9 (%s)</th><th>CPU µs/IO</th>"
		"</tr>\n", first, cu[0].name, cu[1].name, cu[2].name,
		cu[3].name);
}

/* A unit's label: name, clone (of a job with several), sweep point. */
static void unit_label(const struct job *j, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", j->desc.name ? j->desc.name : "?");

	if (n >= 0 && (size_t)n < len && !j->report.group_reporting &&
	    (j->eng.numjobs != 1 || j->plan.clone))
		n += snprintf(buf + n, len - (size_t)n, " #%u", j->plan.clone);
	if (n >= 0 && (size_t)n < len && j->plan.sweep_point)
		snprintf(buf + n, len - (size_t)n, " [%s]",
			 j->plan.sweep_point);
}

/* The units of the columns of the units' table (groups: of theirs). */
static void summary_units(const struct result_set *rs, bool groups,
			  struct col_unit *cu)
{
	int i, k;

	for (k = 0; k < NLAT; k++)
		cu[k] = (struct col_unit){ 0 };
	for (i = 0; !groups && i < rs->nunits; i++)
		if (!rs->units[i].hidden)
			col_units_add(cu, &rs->units[i].stats,
				      rs->units[i].job);
	for (i = 0; groups && i < rs->ngroups; i++)
		col_units_add(cu, &rs->groups[i], rs->group_first[i]);
	for (k = 0; k < NLAT; k++)
		col_unit_pick(&cu[k]);
}

static void summary(FILE *f, const struct result_set *rs)
{
	bool shared = false, clat = false;
	struct col_unit cu[NLAT];
	char label[512];
	int i;

	fputs("<h2>Summary</h2>\n", f);
	summary_units(rs, false, cu);
	summary_head(f, "job", cu);
	for (i = 0; i < rs->nunits; i++) {
		const struct result_unit *u = &rs->units[i];

		if (u->hidden)
			continue;
		unit_label(u->job, label, sizeof(label));
		summary_rows(f, label, &u->stats, u->job, cu, &clat);
	}
	fputs("</table>\n<p class=\"note\">Latency: the total, from "
	      "submission to completion", f);
	if (clat)
		fputs("; percentiles marked <sup>c</sup> are the completion "
		      "latency's, as the job did not set lat_percentiles=1", f);
	fputs(".</p>\n", f);
	for (i = 0; rs->group_njobs && i < rs->ngroups; i++)
		if (rs->group_njobs[i] > 1)
			shared = true;
	if (!shared)
		return;
	fputs("<h3>Reporting groups</h3>\n", f);
	summary_units(rs, true, cu);
	summary_head(f, "group", cu);
	for (i = 0; i < rs->ngroups; i++) {
		snprintf(label, sizeof(label), "group %d", i);
		summary_rows(f, label, &rs->groups[i], rs->group_first[i],
			     cu, &clat);
	}
	fputs("</table>\n", f);
}

static void checks(FILE *f, const struct check_report *cr, int *npass,
		   int *nfail)
{
	char src[300], v[64], t[64];
	size_t i;

	*npass = *nfail = 0;
	if (!cr || !cr->nresults)
		return;
	fputs("<h2>Checks</h2>\n<table>\n<tr><th>result</th><th>check</th>"
	      "<th>job</th><th>value</th><th>threshold</th><th>from</th>"
	      "</tr>\n", f);
	for (i = 0; i < cr->nresults; i++) {
		const struct check_result *x = &cr->results[i];
		static const char *const word[] = { "PASS", "FAIL", "N/A" };
		static const char *const cls[] = { "pass", "fail", "na" };
		int st = x->status >= CHECK_PASS && x->status <= CHECK_NA ?
			 x->status : CHECK_NA;

		*npass += st == CHECK_PASS;
		*nfail += st == CHECK_FAIL;
		fprintf(f, "<tr><td class=\"%s\">%s</td>", cls[st], word[st]);
		td(f, x->def->text);
		td(f, x->job->desc.name);
		/* both in the check's unit: "158 µs" against "50.0 µs" */
		check_fmt_figures(x, v, t, sizeof(v));
		if (st != CHECK_NA)
			fprintf(f, "<td class=\"n\">%s</td>", v);
		else
			td(f, x->reason);
		if (x->has_threshold)
			fprintf(f, "<td class=\"n\">%s</td>", t);
		else
			td(f, NULL);
		check_source(x->def, src, sizeof(src));
		td(f, src);
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

static void charts(FILE *f, const struct run_result *r)
{
	struct plot_chart *c = NULL;
	struct err_rec e = { 0 };
	int i, n;

	fputs("<h2>Charts</h2>\n", f);
	n = plot_result_charts(r, &c, &e);
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

/* Unknown text is no row (or an empty cell). */
static const char *known(const char *s)
{
	return s && *s ? s : NULL;
}

static void machine(FILE *f, const struct run_result *r)
{
	char buf[48];

	fputs("<h2>Machine</h2>\n<table class=\"kv\">\n", f);
	kv(f, "host", r->hostname);
	kv(f, "kernel", r->kernel);
	kv(f, "CPU", known(r->cpu_model));
	snprintf(buf, sizeof(buf), "%u", r->ncpus);
	kv(f, "CPUs", buf);
	value_fmt_bytes(r->memory_bytes, buf, sizeof(buf));
	kv(f, "memory", r->memory_bytes ? buf : NULL);
	fputs("</table>\n", f);
}

/* Whether a target of path was listed for a unit before unit upto. */
static bool target_seen(const struct run_result *r,
			const struct result_set *rs, int upto,
			const char *path)
{
	const struct run_targets *rt;
	unsigned k;
	int i;

	for (i = 0; path && i < upto; i++) {
		if (rs->units[i].hidden)
			continue;
		rt = result_targets(r, &rs->units[i]);
		for (k = 0; rt && k < rt->n; k++)
			if (rt->t[k].path && !strcmp(rt->t[k].path, path))
				return true;
	}
	return false;
}

static void target_row(FILE *f, const char *job, const struct run_target *t)
{
	static const char *const kind[] = {
		[SYSINFO_NONE] = "none", [SYSINFO_FILE] = "file",
		[SYSINFO_BLOCK] = "block",
	};
	const struct sysinfo_device *d = t->info.has_device ? &t->info.dev :
					 NULL;
	char blk[64] = "";

	fputs("<tr>", f);
	td(f, t->path);
	td(f, job);
	td(f, kind[t->info.kind]);
	td(f, known(t->info.fs_type));
	td(f, d ? known(d->name) : NULL);
	td(f, d ? known(d->model) : NULL);
	td(f, d ? known(d->firmware) : NULL);
	if (d && d->logical_block_size && d->physical_block_size)
		snprintf(blk, sizeof(blk), "%u / %u", d->logical_block_size,
			 d->physical_block_size);
	td(f, blk);
	td(f, !d || d->rotational < 0 ? NULL : d->rotational ? "yes" : "no");
	td(f, d ? known(d->scheduler) : NULL);
	td(f, d ? known(d->write_cache) : NULL);
	fputs("</tr>\n", f);
}

static void targets(FILE *f, const struct run_result *r,
		    const struct result_set *rs)
{
	const struct run_targets *rt;
	unsigned k;
	int i;

	fputs("<h2>Targets</h2>\n<table>\n<tr><th>path</th><th>job</th>"
	      "<th>kind</th><th>file system</th><th>device</th><th>model</th>"
	      "<th>firmware</th><th>block sizes</th><th>rotational</th>"
	      "<th>scheduler</th><th>write cache</th></tr>\n", f);
	for (i = 0; i < rs->nunits; i++) {
		if (rs->units[i].hidden)
			continue;
		rt = result_targets(r, &rs->units[i]);
		for (k = 0; rt && k < rt->n; k++)
			if (!target_seen(r, rs, i, rt->t[k].path))
				target_row(f, rs->units[i].job->desc.name,
					   &rt->t[k]);
	}
	fputs("</table>\n", f);
}

static void disks(FILE *f, const struct sysinfo_disks *s)
{
	unsigned i;

	if (!s->n)
		return;
	fputs("<h3>Disk utilization</h3>\n<table>\n<tr><th>device</th>"
	      "<th>reads</th><th>writes</th><th>util %</th></tr>\n", f);
	for (i = 0; i < s->n; i++) {
		const struct sysinfo_diskstat *d = &s->d[i].sum;

		fputs("<tr>", f);
		td(f, d->name);
		fprintf(f, "<td class=\"n\">%.0f</td><td class=\"n\">%.0f"
			"</td><td class=\"n\">%.1f</td>", (double)d->rd_ios,
			(double)d->wr_ios, sysinfo_disk_util(&s->d[i]));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A number cell. */
static void tdn(FILE *f, uint64_t v)
{
	fprintf(f, "<td class=\"n\">%" PRIu64 "</td>", v);
}

/* The error log's entries logged during the run, newest first: each one's
 * number, status in words, queue, command, namespace, LBA and parameter
 * error location, as the text report prints them. */
static void nvme_errors(FILE *f, const struct nvmedev_dev *d)
{
	const struct nvmedev_errent *e;
	const char *why;
	char st[32], pel[16];
	unsigned i;

	if (!d->nerrs)
		return;
	fputs("<table>\n<tr><th>error log entry</th><th>status</th>"
	      "<th>queue</th><th>command</th><th>nsid</th><th>LBA</th>"
	      "<th>parameter</th></tr>\n", f);
	for (i = 0; i < d->nerrs; i++) {
		e = &d->errs[i];
		why = nvmedev_status_text(e->status);
		snprintf(st, sizeof(st), "NVMe status 0x%03x", e->status);
		snprintf(pel, sizeof(pel), "0x%x", e->pel);
		fputs("<tr>", f);
		tdn(f, e->count);
		td(f, why ? why : st);
		tdn(f, e->sqid);
		tdn(f, e->cmdid);
		tdn(f, e->nsid);
		tdn(f, e->lba);
		td(f, pel);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The NVMe namespaces under the targets: identity, then the health log
 * before, after and its change during the run, and the error log's
 * entries logged during it. */
static void nvme(FILE *f, const struct nvmedev_set *s)
{
	static const char *const rows[] = {
		"host read commands", "host write commands",
		"data units read", "data units written", "media errors",
		"error log entries", "critical warning", "temperature (C)",
		"percentage used",
	};
	const struct nvmedev_health *h[3];
	struct nvmedev_health dh;
	char line[512];
	unsigned i, k, c;

	if (!s->n)
		return;
	fputs("<h3>NVMe devices</h3>\n", f);
	for (i = 0; i < s->n; i++) {
		const struct nvmedev_dev *d = &s->d[i];

		snprintf(line, sizeof(line), "%s (%s): %s, serial %s, "
			 "firmware %s, nsid %u, %u B blocks, metadata %u B, "
			 "PI type %u%s", d->name, d->target, d->id.model,
			 d->id.serial, d->id.firmware, d->id.nsid,
			 d->id.lba_size, d->id.ms, d->id.pi_type,
			 d->id.zoned ? ", zoned" : "");
		fputs("<p>", f);
		esc(f, line);
		fputs("</p>\n", f);
		if (!d->have_before || !d->have_after)
			continue;
		nvmedev_health_sub(&dh, &d->after, &d->before);
		h[0] = &d->before;
		h[1] = &d->after;
		h[2] = &dh;
		fputs("<table>\n<tr><th>health log</th><th>before</th>"
		      "<th>after</th><th>during the run</th></tr>\n", f);
		for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
			fputs("<tr>", f);
			td(f, rows[k]);
			for (c = 0; c < 3; c++) {
				const struct nvmedev_health *x = h[c];
				uint64_t v[] = {
					x->host_read_commands,
					x->host_write_commands,
					x->data_units_read,
					x->data_units_written,
					x->media_errors,
					x->error_log_entries,
					x->critical_warning,
					(uint64_t)(x->temperature > 0 ?
						   x->temperature : 0),
					x->percentage_used,
				};

				if (c == 2 && k >= 6)
					td(f, "");
				else
					tdn(f, v[k]);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
		nvme_errors(f, d);
	}
}

static void warnings(FILE *f, const struct warn_list *w)
{
	size_t i;

	if (!w->n)
		return;
	fputs("<h2>Warnings</h2>\n<ul class=\"warn\">\n", f);
	for (i = 0; i < w->n; i++) {
		fputs("<li><code>", f);
		esc(f, w->v[i].code);
		fputs("</code> ", f);
		esc(f, w->v[i].msg);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* The command line as one line a shell reads back: 'quoted' as needed,
 * each argument a span that the page never wraps inside (lines break
 * between arguments only). */
static void command_line(FILE *f, const struct run_result *r)
{
	int i;

	fputs("<p class=\"cmd\">Command line: <code>", f);
	for (i = 0; i < r->argc; i++) {
		const char *s = r->argv[i] ? r->argv[i] : "", *p;

		fputs(i ? " <span>" : "<span>", f);
		if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_=./:,+%@")]) {
			esc(f, s);
			fputs("</span>", f);
			continue;
		}
		fputc('\'', f);
		for (p = s; *p; p++) {
			char one[2] = { *p, 0 };

			esc(f, *p == '\'' ? "'\\''" : one);
		}
		fputs("'</span>", f);
	}
	fputs("</code></p>\n", f);
}

/* "a, b and 3 more": the first job names, for the title. */
static void job_names(FILE *f, const struct result_set *rs)
{
	const char *prev = NULL, *name;
	int i, shown = 0;

	for (i = 0; i < rs->nunits && shown < 3; i++) {
		if (rs->units[i].hidden)
			continue;
		name = rs->units[i].job->desc.name;
		if (!name || (prev && !strcmp(name, prev))) {
			prev = name;
			continue;	/* the clones of one job: once */
		}
		prev = name;
		fputs(shown ? ", " : "", f);
		esc(f, name);
		shown++;
	}
	for (; i < rs->nunits; i++)
		if (!rs->units[i].hidden) {
			fputs(" and more", f);
			break;
		}
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
	"footer{margin-top:2em;font-size:.9em;color:#555}\n"
	"p.cmd{overflow-x:auto}p.cmd code span{white-space:nowrap}\n";

int html_write(FILE *f, const struct run_result *r, bool charts_on)
{
	struct result_set rs;
	char time[64], sig[32];
	int npass, nfail, ret = result_collect(r, &rs);

	if (ret)
		return ret;
	result_time_iso(r->start_time, time, sizeof(time));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>iorig: ", f);
	job_names(f, &rs);
	fputs(" on ", f);
	esc(f, r->hostname);
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>iorig: ", f);
	job_names(f, &rs);
	fputs(" on ", f);
	esc(f, r->hostname);
	fputs(", ", f);
	esc(f, time);
	fputs("</h1>\n", f);
	if (r->signo) {
		fputs("<p class=\"fail\">Interrupted by ", f);
		esc(f, result_signal_name(r->signo, sig, sizeof(sig)));
		fputs(": the figures are of the part that ran.</p>\n", f);
	}
	summary(f, &rs);
	checks(f, r->checks, &npass, &nfail);
	if (npass + nfail)
		fprintf(f, "<p>Checks: <span class=\"pass\">%d PASS</span> "
			"<span class=\"fail\">%d FAIL</span></p>\n", npass,
			nfail);
	if (charts_on)
		charts(f, r);
	report_html_trend(f, r, &rs);
	machine(f, r);
	targets(f, r, &rs);
	disks(f, &r->disks);
	nvme(f, &r->nvme);
	warnings(f, &r->warnings);
	fputs("<footer>\n<p>iorig ", f);
	esc(f, r->version);
	fputs("</p>\n", f);
	command_line(f, r);
	fputs("</footer>\n</body>\n</html>\n", f);
	result_set_free(&rs);
	if (fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

int report_html(FILE *f, const struct run_result *r)
{
	return html_write(f, r, true);
}
