// SPDX-License-Identifier: MIT
/*
 * `iorig report`: a result saved with --output-format=json (or merged by
 * `iorig merge`) read back into the result model (result_read) and written
 * in any format of the table, as the run would have written it from the
 * same figures.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdargs.h"
#include "door.h"
#include "err.h"
#include "history.h"
#include "report.h"
#include "value.h"

static const char report_usage[] =
	"usage: iorig report [--output-format=FORMAT[,FORMAT...]] [--html] "
	"[-o FILE]\n"
	"                    [--terse-version=N] [--history=FILE.db] "
	"RESULT.json\n"
	"  Writes a result saved with --output-format=json (\"-\": "
	"standard input)\n"
	"  in the formats given (--html: html) to FILE (default: "
	"standard output);\n"
	"  --history: the HTML page draws the trend of its jobs over "
	"the runs there.\n";

/* What the command line asks (the table's setters fill it). */
struct rargs {
	unsigned set, terse;
	const char *path, *hist, *result;
	int nresults;
};

static int r_html(void *ctx, const char *v, char *why, size_t len)
{
	struct rargs *a = ctx;

	(void)v, (void)why, (void)len;
	a->set |= 1u << (report_format_find("html") - report_formats);
	return 0;
}

static int r_format(void *ctx, const char *v, char *why, size_t len)
{
	struct rargs *a = ctx;
	unsigned more;

	if (report_formats_parse(v, &more, why, len))
		return -EINVAL;
	a->set |= more;
	return 0;
}

static int r_terse(void *ctx, const char *v, char *why, size_t len)
{
	uint64_t n;

	if (value_uint(v, 2, 5, &n, why, len))
		return -EINVAL;
	((struct rargs *)ctx)->terse = (unsigned)n;
	return 0;
}

static int r_result(void *ctx, const char *v, char *why, size_t len)
{
	struct rargs *a = ctx;

	(void)why, (void)len;
	a->result = v;
	a->nresults++;
	return 0;
}

static const struct cmd_opt report_opts[] = {
	{ .name = "output-format", .value = "FORMAT[,FORMAT...]",
	  .set = r_format },
	{ .name = "html", .set = r_html },
	{ .name = "output", .letter = 'o', .value = "FILE",
	  .off = offsetof(struct rargs, path) },
	{ .name = "terse-version", .value = "N", .set = r_terse },
	{ .name = "history", .value = "FILE.db",
	  .off = offsetof(struct rargs, hist) },
	{ .name = NULL },
};

static const struct cmd_def report_cmd = {
	.prefix = "iorig: report",
	.usage = report_usage,
	.operands = "RESULT.json",
	.opts = report_opts,
	.operand = r_result,
};

/* The formats and the options of the command line: 0 to go on, else the
 * exit code (said). */
static int report_args(int argc, char **argv, struct rargs *a)
{
	int code;

	if (cmd_args(&report_cmd, argc, argv, a, &code))
		return code ? code : -1;
	if (!a->set)
		return cmd_usage_error(&report_cmd, "say which report: "
				       "--output-format=FORMAT or --html");
	if (a->nresults != 1)
		return cmd_usage_error(&report_cmd, "expected one RESULT.json "
				       "(\"-\": standard input)");
	return 0;
}

int report_main(int argc, char **argv)
{
	const struct report_format *fmts[REPORT_FORMATS_MAX];
	struct door_out out = { .fd = -1 };
	struct result_doc d = { 0 };
	struct err_rec *e = calloc(1, sizeof(*e));
	char *text = malloc(ERR_TEXT_MAX);
	struct rargs a = { .terse = 3 };
	const char *path, *hpath, *result;
	struct history *hist = NULL;
	unsigned i, nf;
	int ret;

	if (!e || !text) {
		fputs("iorig: report: out of memory\n", stderr);
		ret = 1;
		goto done;
	}
	ret = report_args(argc, argv, &a);
	if (ret) {
		ret = ret < 0 ? 0 : ret;	/* --help */
		goto done;
	}
	path = a.path;
	hpath = a.hist;
	result = a.result;
	if (path && !strcmp(path, "-"))
		path = NULL;
	if (strcmp(result, "-") && door_same(path, result)) {
		fprintf(stderr, "iorig: report: %s: the page would replace "
			"the result it is drawn from; give another -o\n",
			result);
		ret = 2;
		goto done;
	}
	if (hpath && door_same(path, hpath)) {
		fprintf(stderr, "iorig: report: %s: the page would replace "
			"the history; give another -o\n", hpath);
		ret = 2;
		goto done;
	}
	if (result_read_file(&d, result, 0, e) ||
	    (hpath && history_open(&hist, hpath, "history", true, NULL, e)) ||
	    door_open(&out, path, "output", DOOR_WHOLE, NULL, e)) {
		err_format(e, text, ERR_TEXT_MAX);
		fprintf(stderr, "iorig: report: %s\n", text);
		ret = 2;
		goto done;
	}
	d.r.terse_version = a.terse;
	d.r.history = hist;
	nf = report_formats_ordered(a.set, fmts);
	for (i = 0, ret = 0; i < nf && !ret; i++)
		ret = report_write(fmts[i], out.f, &d.r);
	if (ret) {
		ret = out.err ? -out.err : ret;
		door_discard(&out);
	} else {
		ret = door_close(&out);
	}
	if (ret) {
		fprintf(stderr, "iorig: report: writing %s: %s\n",
			path ? path : "standard output", strerror(-ret));
		ret = 1;
	}
done:
	history_close(hist);
	result_doc_free(&d);
	free(text);
	free(e);
	return ret;
}
