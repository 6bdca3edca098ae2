// SPDX-License-Identifier: MIT
/*
 * The HTML report's trend (report.h: report_html_trend): with --history,
 * each reported job's headline figures over the runs of the same job on
 * the same device model that the database holds, this run last, as small
 * inline SVG line charts drawn here (no gnuplot: a few points and lines).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "report.h"

/* The runs a trend shows at most: the last ones. */
#define TREND_RUNS	50

#define TW	360	/* the chart's size, px */
#define TH	120
#define TL	70	/* room for the value labels on the left */
#define TR	10
#define TT	22
#define TB	18

static void trend_esc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

/*
 * One chart: v[0..n) oldest first, the last this run's. The value axis
 * spans the data with a margin of a tenth of its range on both sides (no
 * point on the frame); runs are evenly spaced. data-values and data-runs
 * give the points drawn, for a reader (the test) to compare.
 */
static void trend_chart(FILE *f, const struct metric *m, const double *v,
			const long long *run, unsigned n)
{
	double lo = v[0], hi = v[0], pad, x, y;
	char a[48], b[48];
	unsigned i;

	for (i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	pad = hi > lo ? (hi - lo) / 10 : fabs(hi) / 10 + 1;
	lo -= pad;
	hi += pad;
	fprintf(f, "<svg class=\"trend\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"data-metric=\"%s\" data-values=\"", TW, TH, TW, TH, m->name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.17g", i ? "," : "", v[i]);
	fputs("\" data-runs=\"", f);
	for (i = 0; i < n; i++)
		if (run[i])
			fprintf(f, "%s%lld", i ? "," : "", run[i]);
		else
			fprintf(f, "%sthis", i ? "," : "");
	fprintf(f, "\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#ccc\"/>\n", TL, TT, TW - TL - TR,
		TH - TT - TB);
	metric_format(metric_unit(m), hi - pad, a, sizeof(a));
	metric_format(metric_unit(m), lo + pad, b, sizeof(b));
	fprintf(f, "<text x=\"4\" y=\"14\" font-size=\"12\">%s, %u run%s"
		"</text>\n<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"end\">%s</text>\n<text x=\"%d\" y=\"%d\" "
		"font-size=\"11\" text-anchor=\"end\">%s</text>\n", m->name, n,
		n == 1 ? "" : "s", TL - 4, TT + (int)((TH - TT - TB) * 0.1) + 4,
		a, TL - 4, TT + (int)((TH - TT - TB) * 0.9) + 4, b);
	fputs("<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"1.5\" "
	      "points=\"", f);
	for (i = 0; i < n; i++) {
		x = TL + (TW - TL - TR) * (n > 1 ? (i + 0.5) / n : 0.5);
		y = TT + (TH - TT - TB) * (hi - v[i]) / (hi - lo);
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", x, y);
	}
	fputs("\"/>\n", f);
	x = TL + (TW - TL - TR) * (n > 1 ? (n - 0.5) / n : 0.5);
	y = TT + (TH - TT - TB) * (hi - v[n - 1]) / (hi - lo);
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#cf222e\">"
		"<title>this run</title></circle>\n</svg>\n", x, y);
}

/* Unit u's trend of metric m: its history (this run left out where it is
 * recorded already), then this run. false: no history to show. */
static bool trend_unit(FILE *f, const struct run_result *r,
		       const struct result_unit *u, const struct metric *m)
{
	struct history_point *p = NULL;
	struct result_row row;
	double *v;
	long long *run;
	unsigned n = 0, i, k = 0;
	bool shown = false;

	if (history_series(r->history, r, u, m, TREND_RUNS, &p, &n) || !n) {
		free(p);
		return false;
	}
	v = calloc(n + 1, sizeof(*v));
	run = calloc(n + 1, sizeof(*run));
	for (i = 0; v && run && i < n; i++) {
		/* this run, recorded (a saved result knows its start to
		 * the second, and its wall time to the ns) */
		if (p[i].started_ms / 1000 == (long long)r->start_time &&
		    p[i].wall_ns == (long long)r->wall_ns)
			continue;
		v[k] = p[i].value;
		run[k++] = p[i].run;
	}
	if (v && run && k) {
		result_row(r, u, &row);
		v[k] = result_metric(m, &u->stats, &row);
		run[k++] = 0;
		trend_chart(f, m, v, run, k);
		shown = true;
	}
	free(v);
	free(run);
	free(p);
	return shown;
}

void report_html_trend(FILE *f, const struct run_result *r,
		       const struct result_set *rs)
{
	struct metric ms[METRIC_HEADLINE_MAX];
	unsigned nm, k;
	bool head = false, any;
	int i;

	if (!r->history)
		return;
	for (i = 0; i < rs->nunits; i++) {
		const struct result_unit *u = &rs->units[i];

		if (u->hidden || !u->stats.nmeasured)
			continue;
		nm = metric_headlines(rw_dirs(u->job->io.rw) & 3u, ms);
		if (!nm)
			continue;
		if (!head)
			fputs("<h2>Trend</h2>\n<p class=\"note\">The headline "
			      "figures of the runs of the same job on the same "
			      "device model in the history, oldest first, this "
			      "run last (red).</p>\n", f);
		head = true;
		fputs("<figure class=\"trend\"><figcaption>", f);
		trend_esc(f, u->job->desc.name);
		fputs("</figcaption>\n", f);
		for (k = 0, any = false; k < nm; k++)
			any |= trend_unit(f, r, u, &ms[k]);
		if (!any)
			fputs("<p class=\"note\">no earlier run in the "
			      "history</p>\n", f);
		fputs("</figure>\n", f);
	}
}
