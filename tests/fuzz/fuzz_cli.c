// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the command line. The input is split into arguments
 * at newlines (so an argument may hold blanks); argv[0] is "iorig". Then
 * what main() does short of reading job files and running: cli_parse, the
 * help printers for --help/--cmdhelp, cli_emit for the global and the
 * --name sections (and cli_emit_profile for --profile's), and plan_build with the --section filter. Positional
 * arguments (job files) are parsed but not opened.
 */
#include <stdint.h>
#include <stdio.h>	/* cli.h needs FILE */
#include <stdlib.h>

#include "cli.h"
#include "fuzz.h"
#include "jobfile.h"
#include "options.h"
#include "plan.h"
#include "plan_check.h"
#include "profile.h"

/* Split text in place at '\n' into argv[1..]; returns argc. */
static int split_args(char *text, char **argv)
{
	int argc = 1;
	char *p = text, *nl;

	argv[0] = "iorig";
	if (!*p)
		return argc;
	for (;;) {
		argv[argc++] = p;
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void info_only(const struct cli *c)
{
	struct fuzz_sink sink;

	if (fuzz_sink_open(&sink))
		return;
	if (c->help)
		cli_print_help(sink.f);
	else if (c->cmdhelp && c->profile)
		(void)profile_print_cmdhelp(sink.f, c->profile, c->cmdhelp_opt);
	else if (c->cmdhelp && options_print_cmdhelp(sink.f, c->cmdhelp_opt))
		(void)options_suggest(c->cmdhelp_opt);
	fuzz_sink_close(&sink);
}

static int plan_cli(const struct cli *c, struct err_rec *e)
{
	struct raw_doc doc = { 0 };
	struct plan_filter filter = { .sections = c->sections };
	struct plan p;
	int ret;

	ret = cli_emit(c, &doc, true, e);
	if (!ret)
		ret = cli_emit(c, &doc, false, e);
	if (!ret)
		ret = cli_emit_profile(c, &doc, e);
	if (!ret)
		ret = plan_build(&p, &doc, &filter, e);
	if (!ret) {
		fuzz_plan_check(&p);
		fuzz_checks_check(&p, c->checks, c->nchecks);
		plan_free(&p);
	}
	raw_doc_free(&doc);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err_rec e = { 0 };
	struct cli c;
	char *text, **argv;
	int argc, ret;

	text = fuzz_cstr(data, size);
	if (!text)
		return 0;
	/* At most one argument per byte, plus argv[0] and the NULL. */
	argv = calloc(strlen(text) + 3, sizeof(*argv));
	if (!argv) {
		free(text);
		return 0;
	}
	argc = split_args(text, argv);
	ret = cli_parse(&c, argc, argv, &e);
	if (!ret) {
		FUZZ_CHECK(c.jobfiles);
		if (c.help || c.version || c.cmdhelp)
			info_only(&c);
		else
			ret = plan_cli(&c, &e);
	}
	FUZZ_CHECK(ret <= 0);
	if (ret)
		fuzz_err_check(&e);
	cli_free(&c);
	free(argv);
	free(text);
	return 0;
}
