// SPDX-License-Identifier: MIT
/*
 * `iorig plot`'s command line: its table of options for the one argument
 * loop (cmdargs.h); the charts are src/report/plot.c's (plot_run).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "plot.h"

static const char plot_usage[] =
	"usage: iorig plot [--format=svg|png] [--outdir=DIR] "
	"[--baseline=FILE] RESULT.json|LOG...\n"
	"Draws charts of iorig (or fio) JSON results "
	"(--output-format=json) and logs\n(write_bw_log=, "
	"write_iops_log=, write_lat_log=) with gnuplot:\n"
	"  JOB-DIR-lat   latency (lat, else clat) histogram and CDF, "
	"p50/p99/p99.9\n"
	"  JOB-iops, JOB-bw, JOB-p99   over time (results with "
	"interval=)\n"
	"  sweep         op/s and CPU us per I/O against request size "
	"(bs= sweeps)\n"
	"  compare-DIR-iops|bw|p99   several results, or against "
	"--baseline\n"
	"  LOG           a log's values over time (LOG: its name "
	"without .log)\n"
	"  LOG-p99       a per-I/O latency log's p99 per window\n"
	"Each chart is DIR/NAME.svg (or .png) beside NAME.dat (the "
	"data) and NAME.gp\n(the gnuplot script); the names are "
	"printed. With several results, each\nresult's charts are "
	"named RESULT-NAME (RESULT: its file name without .json).\n";

/* What the command line gives: the request, the operands sorted. */
struct pargs {
	struct plot_req q;
	const char **results, **logs;
};

static int p_format(void *ctx, const char *v, char *why, size_t len)
{
	if (strcmp(v, "svg") && strcmp(v, "png")) {
		snprintf(why, len, "'%s': expected svg or png", v);
		return -EINVAL;
	}
	((struct pargs *)ctx)->q.fmt = v;
	return 0;
}

static int p_outdir(void *ctx, const char *v, char *why, size_t len)
{
	if (!v[0]) {
		snprintf(why, len, "expected a directory");
		return -EINVAL;
	}
	((struct pargs *)ctx)->q.outdir = v;
	return 0;
}

static int p_baseline(void *ctx, const char *v, char *why, size_t len)
{
	if (!v[0]) {
		snprintf(why, len, "expected a JSON result");
		return -EINVAL;
	}
	((struct pargs *)ctx)->q.baseline = v;
	return 0;
}

/* A name ending in .log is a log, anything else a result. */
static int p_operand(void *ctx, const char *v, char *why, size_t len)
{
	struct pargs *a = ctx;
	size_t n = strlen(v);

	(void)why, (void)len;
	if (n > 4 && !strcmp(v + n - 4, ".log"))
		a->logs[a->q.nlogs++] = v;
	else
		a->results[a->q.nresults++] = v;
	return 0;
}

static const struct cmd_opt plot_opts[] = {
	{ .name = "format", .value = "svg|png", .set = p_format },
	{ .name = "outdir", .value = "DIR", .set = p_outdir },
	{ .name = "baseline", .value = "FILE", .set = p_baseline },
	{ .name = NULL },
};

static const struct cmd_def plot_cmd = {
	.prefix = "iorig plot",
	.usage = plot_usage,
	.operands = "RESULT.json files",
	.opts = plot_opts,
	.operand = p_operand,
};

int plot_main(int argc, char **argv)
{
	struct pargs a = { .q = { .fmt = "svg", .outdir = "." } };
	int code = 1;

	a.results = calloc((size_t)argc + 1, sizeof(*a.results));
	a.logs = calloc((size_t)argc + 1, sizeof(*a.logs));
	if (!a.results || !a.logs) {
		fputs("iorig plot: out of memory\n", stderr);
		goto out;
	}
	if (cmd_args(&plot_cmd, argc, argv, &a, &code))
		goto out;
	if (!a.q.nresults && !a.q.nlogs) {
		fputs(plot_usage, stderr);
		code = 2;
		goto out;
	}
	a.q.results = a.results;
	a.q.logs = a.logs;
	code = plot_run(&a.q);
out:
	free(a.results);
	free(a.logs);
	return code;
}
