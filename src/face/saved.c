// SPDX-License-Identifier: MIT
/*
 * `iorig report`: a result saved with --output-format=json (or merged by
 * `iorig merge`) read back into the result model (result_read) and written
 * in any format of the table, as the run would have written it from the
 * same figures.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "door.h"
#include "err.h"
#include "history.h"
#include "report.h"
#include "value.h"

static int report_usage(FILE *f, int code)
{
	fputs("usage: iorig report [--output-format=FORMAT[,FORMAT...]] "
	      "[--html] [-o FILE]\n"
	      "                    [--terse-version=N] [--history=FILE.db] "
	      "RESULT.json\n"
	      "  Writes a result saved with --output-format=json (\"-\": "
	      "standard input)\n"
	      "  in the formats given (--html: html) to FILE (default: "
	      "standard output);\n"
	      "  --history: the HTML page draws the trend of its jobs over "
	      "the runs there.\n", f);
	return code;
}

/* The formats and the options of the command line; 0 or 2 (said). */
static int report_args(int argc, char **argv, unsigned *set,
		       unsigned *terse, const char **path, const char **hist)
{
	static const struct option longopts[] = {
		{ "html", no_argument, NULL, 'H' },
		{ "output-format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "terse-version", required_argument, NULL, 't' },
		{ "history", required_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char why[256];
	unsigned more;
	uint64_t v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			*set |= 1u << (report_format_find("html") -
				       report_formats);
			break;
		case 'f':
			if (report_formats_parse(optarg, &more, why,
						 sizeof(why))) {
				fprintf(stderr, "iorig: report: "
					"--output-format: %s\n", why);
				return 2;
			}
			*set |= more;
			break;
		case 'o': *path = optarg; break;
		case 'y': *hist = optarg; break;
		case 't':
			if (value_uint(optarg, 2, 5, &v, why, sizeof(why))) {
				fprintf(stderr, "iorig: report: "
					"--terse-version: %s\n", why);
				return 2;
			}
			*terse = (unsigned)v;
			break;
		case 'h': exit(report_usage(stdout, 0));
		default:
			fprintf(stderr, "iorig: report: unknown option or "
				"missing argument: %s\n", argv[optind - 1]);
			return report_usage(stderr, 2);
		}
	}
	if (!*set || optind + 1 != argc) {
		fprintf(stderr, "iorig: report: %s\n", !*set ?
			"say which report: --output-format=FORMAT or --html" :
			"expected one RESULT.json (\"-\": standard input)");
		return report_usage(stderr, 2);
	}
	return 0;
}

int report_main(int argc, char **argv)
{
	const struct report_format *fmts[REPORT_FORMATS_MAX];
	struct door_out out = { .fd = -1 };
	struct result_doc d = { 0 };
	struct err_rec *e = calloc(1, sizeof(*e));
	char *text = malloc(ERR_TEXT_MAX);
	const char *path = NULL, *hpath = NULL;
	struct history *hist = NULL;
	unsigned set = 0, terse = 3, i, nf;
	int ret;

	if (!e || !text) {
		fputs("iorig: report: out of memory\n", stderr);
		ret = 1;
		goto done;
	}
	ret = report_args(argc, argv, &set, &terse, &path, &hpath);
	if (ret)
		goto done;
	if (path && !strcmp(path, "-"))
		path = NULL;
	if (strcmp(argv[optind], "-") && door_same(path, argv[optind])) {
		fprintf(stderr, "iorig: report: %s: the page would replace "
			"the result it is drawn from; give another -o\n",
			argv[optind]);
		ret = 2;
		goto done;
	}
	if (hpath && door_same(path, hpath)) {
		fprintf(stderr, "iorig: report: %s: the page would replace "
			"the history; give another -o\n", hpath);
		ret = 2;
		goto done;
	}
	if (result_read_file(&d, argv[optind], 0, e) ||
	    (hpath && history_open(&hist, hpath, "history", true, NULL, e)) ||
	    door_open(&out, path, "output", DOOR_WHOLE, NULL, e)) {
		err_format(e, text, ERR_TEXT_MAX);
		fprintf(stderr, "iorig: report: %s\n", text);
		ret = 2;
		goto done;
	}
	d.r.terse_version = terse;
	d.r.history = hist;
	nf = report_formats_ordered(set, fmts);
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
