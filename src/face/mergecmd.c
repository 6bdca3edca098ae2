// SPDX-License-Identifier: MIT
/*
 * `iorig merge`'s command line: its table of options for the one
 * argument loop (cmdargs.h); the merge is src/run/cluster.c's
 * (merge_run).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "cmdargs.h"

static const char merge_usage[] =
	"usage: iorig merge [--output-format=FORMAT[,FORMAT...]] "
	"[--output=FILE]\n"
	"                   [--check=[rank:]EXPR]... RESULT.json...\n"
	"Merges iorig --output-format=json results of the same jobs (one "
	"per host or\nrank) into one cluster report: exact percentiles "
	"from the merged histograms,\nrates added, per-member and per-host "
	"rows. Any format of the run (iorig --help\nlists them; fio's "
	"client layout for fio's), comma-separated for several.\n--check "
	"applies to the cluster figures, rank:EXPR to each member; their "
	"results\nare in every format that shows checks (junit, json, "
	"html...).\n";

/* What the command line gives. */
struct margs {
	struct merge_req q;
	char **files, **checks;
};

static int m_check(void *ctx, const char *v, char *why, size_t len)
{
	struct margs *a = ctx;

	(void)why, (void)len;
	a->checks[a->q.nchecks++] = (char *)v;
	return 0;
}

static int m_file(void *ctx, const char *v, char *why, size_t len)
{
	struct margs *a = ctx;

	(void)why, (void)len;
	a->files[a->q.nfiles++] = (char *)v;
	return 0;
}

static const struct cmd_opt merge_opts[] = {
	/* formats and checks are checked by merge_run */
	{ .name = "output-format", .value = "FORMAT[,FORMAT...]",
	  .off = offsetof(struct margs, q.formats) },
	{ .name = "output", .value = "FILE",
	  .off = offsetof(struct margs, q.output) },
	{ .name = "check", .value = "[rank:]EXPR", .set = m_check },
	{ .name = NULL },
};

static const struct cmd_def merge_cmd = {
	.prefix = "iorig merge",
	.usage = merge_usage,
	.operands = "RESULT.json files",
	.opts = merge_opts,
	.operand = m_file,
};

int merge_main(int argc, char **argv)
{
	struct margs a = { .q = { .formats = "text" } };
	int code = 1;

	a.files = calloc((size_t)argc + 1, sizeof(*a.files));
	a.checks = calloc((size_t)argc + 1, sizeof(*a.checks));
	if (!a.files || !a.checks) {
		fputs("iorig merge: out of memory\n", stderr);
		goto out;
	}
	if (cmd_args(&merge_cmd, argc, argv, &a, &code))
		goto out;
	if (!a.q.nfiles) {
		code = cmd_usage_error(&merge_cmd, "no result given");
		goto out;
	}
	a.q.files = a.files;
	a.q.checks = a.checks;
	code = merge_run(&a.q);
out:
	free(a.files);
	free(a.checks);
	return code;
}
