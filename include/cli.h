/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CLI_H
#define IORIG_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "err.h"
#include "jobfile.h"
#include "progress.h"

struct report_format;

enum cli_arg { CLI_ARG_NONE, CLI_ARG_REQUIRED, CLI_ARG_OPTIONAL };

/* Options of the command itself (job options live in options_table). */
struct cli_opt {
	const char *name;
	char shortname;		/* 0: none */
	enum cli_arg arg;
	const char *argname;
	const char *help;
};

extern const struct cli_opt cli_options[];	/* ends with name NULL */

struct cli {
	int argc;
	char **argv;
	/*
	 * --output-format=A,B..., --minimal: bit i is report_formats[i];
	 * the reports are written in the table's order. Default text.
	 */
	unsigned formats;
	unsigned terse_version;		/* --terse-version; 0: fio's 3 */
	const char *output;		/* NULL: stdout */
	const char *stream;		/* --stream=FILE, or NULL */
	const char *chart;		/* --chart=FILE.svg, or NULL */
	const char *rank_output;	/* --rank-output=PREFIX, or NULL */
	enum progress_mode progress;	/* --progress (default auto) */
	bool parse_only;
	bool help;
	bool version;
	bool cmdhelp;
	const char *cmdhelp_opt;	/* NULL: list all */
	const char **sections;		/* NULL-terminated, or NULL */
	const char **jobfiles;		/* NULL-terminated */
	int first_name;			/* argv index of the first --name */
	const char **checks;		/* --check values, NULL-ended */
	size_t nchecks;
	const char *baseline;		/* --baseline FILE, or NULL */
};

/*
 * Read argv: command options are acted on, job options are only checked
 * for shape here ("--name=value"); cli_emit turns them into sections.
 * Returns 0 or -EINVAL/-ENOMEM with e filled.
 */
int cli_parse(struct cli *c, int argc, char **argv, struct err_rec *e);

/* Append the job options before the first --name as a [global] section
 * (globals=true), or the --name=... jobs (globals=false), to doc. */
int cli_emit(const struct cli *c, struct raw_doc *doc, bool globals,
	     struct err_rec *e);

void cli_free(struct cli *c);
/* The argv index of the argument that p points into, or 0. */
int cli_arg_index(const struct cli *c, const char *p);
void cli_print_help(FILE *f);

#endif
