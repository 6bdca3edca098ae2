/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CLI_H
#define IORIG_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "jobfile.h"
#include "profile.h"
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
	/* Not NULL: a fio command option iorig refuses; why (exit 2). */
	const char *refused;
};

extern const struct cli_opt cli_options[];	/* ends with name NULL */

/*
 * fio's --debug types (its debug_levels), each taken with what iorig
 * prints for it: prints NULL is nothing (iorig has no tracing of that
 * kind). Bit i of cli.debug is cli_debug_types[i]. Ends with name NULL.
 */
struct cli_debug_type {
	const char *name;
	const char *prints;
};
extern const struct cli_debug_type cli_debug_types[];
/* The bit of type name in cli.debug (0: not a type). */
unsigned cli_debug_bit(const char *name);
/* --debug=help: the types and what each prints, on f. */
void cli_debug_list(FILE *f);

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
	bool merge_only;	/* --merge-blktrace-only: plan (merges) only */
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
	const char *history;		/* --history FILE.db, or NULL */
	/*
	 * Invoked as fio (argv[0]'s base name "fio" or "fio-*"): json is
	 * fio's layout, --version says fio-3.33 first (see cli_fio_version).
	 */
	bool fio_mode;
	bool readonly;			/* --readonly: refuse writing jobs */
	bool showcmd;			/* --showcmd: job files as commands */
	const char *inflate_log;	/* --inflate-log=FILE, or NULL */
	bool warnings_fatal;		/* --warnings-fatal */
	unsigned debug;			/* --debug=TYPE,...: cli_debug_types */
	bool debug_help;		/* --debug=help or ?: list them */
	bool enghelp;			/* --enghelp[=ENGINE[,OPTION]] */
	const char *enghelp_arg;	/* NULL: list the engines */
	uint64_t eta_interval_ns;	/* --eta-interval; 0: the default */
	uint64_t eta_newline_ns;	/* --eta-newline; 0: never */
	/* --profile=NAME (fio's built-in profiles) and its options' values
	 * (NULL: not given), indexed as profile->opts. */
	const struct profile *profile;
	const char *profile_vals[PROFILE_MAX_OPTS];
};

/* The version line of --version, and the version fio's layouts carry
 * ("fio version", terse's field 2): "iorig-VER", or as fio
 * "fio-3.33 (iorig VER)". */
const char *cli_version_tag(const struct cli *c, const char *ver, char *buf,
			    size_t len);
/* --showcmd: the job file in doc as one command line of prog, on f. */
void cli_showcmd(FILE *f, const char *prog, const struct raw_doc *doc);
/* argv[0] names fio: its base name is "fio" or begins "fio-". */
bool cli_invoked_as_fio(const char *argv0);

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

/* Append the jobs of --profile=NAME, if given, to doc (after the rest). */
int cli_emit_profile(const struct cli *c, struct raw_doc *doc,
		     struct err_rec *e);

void cli_free(struct cli *c);
/* The argv index of the argument that p points into, or 0. */
int cli_arg_index(const struct cli *c, const char *p);
void cli_print_help(FILE *f);

#endif
