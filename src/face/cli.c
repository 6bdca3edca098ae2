// SPDX-License-Identifier: MIT
/*
 * argv -> command options + the same raw sections a job file gives.
 * Every job option is a --long option: "--name=X" starts a job, options
 * before the first --name are global. Positional arguments are job files;
 * "-" reads stdin.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "options.h"
#include "profile.h"
#include "progress.h"
#include "report.h"
#include "value.h"

#define CLI_FILE ERR_CMDLINE

#define CLI_NO_REMOTE "iorig has no fio server or client; to run jobs on " \
	"several hosts, start iorig on each with MPI (mpirun), issue 14"
#define CLI_SELFTEST "a self-test of fio's own code (checksums, clock, " \
	"memcpy); iorig has none"

const struct cli_opt cli_options[] = {
	{ "output-format", 0, CLI_ARG_REQUIRED, NULL,
	  "Report format on stdout (or --output); default text (fio: normal); "
	  "several "
	  "comma-separated (json,text) are written one after the other",
	  NULL },
	{ "minimal", 0, CLI_ARG_NONE, NULL,
	  "The same as --output-format=terse", NULL },
	{ "terse-version", 0, CLI_ARG_REQUIRED, "2|3|4|5",
	  "Version of fio's terse layout; default 3", NULL },
	{ "output", 'o', CLI_ARG_REQUIRED, "FILE",
	  "Write the report to FILE instead of stdout", NULL },
	{ "parse-only", 0, CLI_ARG_NONE, NULL,
	  "Print every job with every option's effective value; run nothing",
	  NULL },
	{ "section", 0, CLI_ARG_REQUIRED, "NAME",
	  "Run only the job section NAME (repeatable)", NULL },
	{ "stream", 0, CLI_ARG_REQUIRED, "FILE",
	  "Write the interval= samples to FILE as JSON lines while running",
	  NULL },
	{ "chart", 0, CLI_ARG_REQUIRED, "FILE.svg",
	  "Draw the rate_curve jobs' latency against IOPS (gnuplot); the "
	  "script and data go beside it, FILE.gp and FILE.dat", NULL },
	{ "rank-output", 0, CLI_ARG_REQUIRED, "PREFIX",
	  "iorig-mpi: each rank also writes its own JSON result to "
	  "PREFIX.RANK.json (for iorig merge)", NULL },
	{ "progress", 0, CLI_ARG_REQUIRED, "auto|always|never",
	  "Status line on stderr while running; auto: when it is a terminal",
	  NULL },
	{ "check", 0, CLI_ARG_REQUIRED, "EXPR",
	  "Check a figure after the run, e.g. read.iops>=50k or "
	  "seqread:read.clat.p99<=2ms; a failure exits 3 (repeatable)", NULL },
	{ "baseline", 0, CLI_ARG_REQUIRED, "FILE",
	  "Compare with an earlier --output-format=json result", NULL },
	{ "history", 0, CLI_ARG_REQUIRED, "FILE.db",
	  "Record the run in the SQLite database FILE.db (made if new); "
	  "checks may compare with its earlier runs of the same job, e.g. "
	  "read.iops>=history.p10 (iorig history --help reads it)", NULL },
	{ "cmdhelp", 0, CLI_ARG_OPTIONAL, "OPTION",
	  "List the job options (also =all, as fio), or describe one", NULL },
	{ "help", 'h', CLI_ARG_NONE, NULL, "Show this help", NULL },
	{ "version", 'V', CLI_ARG_NONE, NULL, "Show the version (invoked as "
	  "fio: fio-3.33 (iorig VERSION))", NULL },
	/* fio's other command options: its meaning, or refused saying why. */
	{ "append-terse", 0, CLI_ARG_OPTIONAL, "ANY",
	  "Add terse to the formats (fio's old name; the value is ignored)",
	  NULL },
	{ "enghelp", 0, CLI_ARG_OPTIONAL, "ENGINE[,OPTION]",
	  "List the I/O engines, or describe one (or one of its options)",
	  NULL },
	{ "readonly", 0, CLI_ARG_NONE, NULL,
	  "Refuse (exit 2, nothing run) any job that writes or trims", NULL },
	{ "eta", 0, CLI_ARG_REQUIRED, "auto|always|never",
	  "fio's name for --progress", NULL },
	{ "eta-interval", 0, CLI_ARG_REQUIRED, "TIME",
	  "Update the status line every TIME (default 1s, at least 250ms; "
	  "a bare number is seconds)", NULL },
	{ "eta-newline", 0, CLI_ARG_REQUIRED, "TIME",
	  "On a terminal, keep a status line every TIME instead of "
	  "rewriting it (a bare number is seconds)", NULL },
	{ "warnings-fatal", 0, CLI_ARG_NONE, NULL,
	  "A warning about the jobs is an error: exit 2, nothing run", NULL },
	{ "alloc-size", 0, CLI_ARG_REQUIRED, "KIB",
	  "fio's shared memory pool size: accepted, no effect (iorig has no "
	  "such pool)", NULL },
	{ "max-jobs", 0, CLI_ARG_REQUIRED, "N",
	  "Accepted and ignored, as fio 3 does", NULL },
	{ "showcmd", 0, CLI_ARG_NONE, NULL,
	  "Print each job file as the one command line that runs the same "
	  "jobs; run nothing", NULL },
	{ "status-interval", 0, CLI_ARG_REQUIRED, "TIME",
	  "Refused: no full report while running",
	  "iorig writes one report at the end; for figures while running, "
	  "set interval= on the jobs and use --stream=FILE" },
	{ "bandwidth-log", 0, CLI_ARG_OPTIONAL, "NAME",
	  "Refused: no aggregate bandwidth log",
	  "iorig does not write fio's aggregate bandwidth log; each job "
	  "writes its own with write_bw_log=" },
	{ "latency-log", 0, CLI_ARG_REQUIRED, "FILE",
	  "Refused, as fio refuses it (deprecated)",
	  "fio deprecated and refuses it too; use write_lat_log= on the jobs" },
	{ "debug", 'd', CLI_ARG_REQUIRED, "TYPE[,TYPE...]",
	  "fio's debug types (help lists them): parse prints the job "
	  "options as read; the others print nothing", NULL },
	{ "inflate-log", 0, CLI_ARG_REQUIRED, "LOG",
	  "Print LOG, a log written with log_store_compressed=1 (.fz), as "
	  "the lines of the plain log, as fio does; run nothing", NULL },
	{ "profile", 0, CLI_ARG_REQUIRED, "NAME",
	  "Run fio's built-in profile NAME (tiobench, act) after the other "
	  "jobs, with its own options (--profile=NAME --cmdhelp lists them)",
	  NULL },
	{ "aux-path", 0, CLI_ARG_REQUIRED, "DIR",
	  "Refused: state files go to the working directory",
	  "iorig writes its state files (verify_state_save, verify_dump) in "
	  "the working directory; run it from DIR instead" },
	{ "idle-prof", 0, CLI_ARG_REQUIRED, "MODE",
	  "Refused: no CPU idleness profiling",
	  "iorig does not profile CPU idleness; the report has the CPU time "
	  "of the jobs" },
	{ "trigger-file", 0, CLI_ARG_REQUIRED, "FILE",
	  "Refused: no triggers", "iorig runs no trigger commands" },
	{ "trigger-timeout", 0, CLI_ARG_REQUIRED, "TIME",
	  "Refused: no triggers", "iorig runs no trigger commands" },
	{ "trigger", 0, CLI_ARG_REQUIRED, "CMD",
	  "Refused: no triggers", "iorig runs no trigger commands" },
	{ "trigger-remote", 0, CLI_ARG_REQUIRED, "CMD",
	  "Refused: no triggers", "iorig runs no trigger commands" },
	{ "server", 0, CLI_ARG_OPTIONAL, "ARGS",
	  "Refused: no fio server or client (see MPI)", CLI_NO_REMOTE },
	{ "server-internal", 0, CLI_ARG_REQUIRED, "ARGS",
	  "Refused: no fio server or client (see MPI)", CLI_NO_REMOTE },
	{ "daemonize", 0, CLI_ARG_REQUIRED, "PIDFILE",
	  "Refused: no fio server or client (see MPI)", CLI_NO_REMOTE },
	{ "client", 0, CLI_ARG_REQUIRED, "HOST",
	  "Refused: no fio server or client (see MPI)", CLI_NO_REMOTE },
	{ "remote-config", 0, CLI_ARG_REQUIRED, "FILE",
	  "Refused: no fio server or client (see MPI)", CLI_NO_REMOTE },
	{ "merge-blktrace-only", 0, CLI_ARG_NONE, NULL,
	  "Write the jobs' merge_blktrace_file merges; run nothing", NULL },
	{ "crctest", 0, CLI_ARG_OPTIONAL, "TYPE",
	  "Refused: fio's self-test of its own code", CLI_SELFTEST },
	{ "cpuclock-test", 0, CLI_ARG_NONE, NULL,
	  "Refused: fio's self-test of its own code", CLI_SELFTEST },
	{ "memcpytest", 0, CLI_ARG_OPTIONAL, "TYPE",
	  "Refused: fio's self-test of its own code", CLI_SELFTEST },
	{ NULL, 0, CLI_ARG_NONE, NULL, NULL, NULL },
};

static const struct cli_opt *cli_find(const char *name, size_t len)
{
	const struct cli_opt *o;

	for (o = cli_options; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct cli_opt *cli_find_short(char c)
{
	const struct cli_opt *o;

	for (o = cli_options; o->name; o++)
		if (o->shortname && o->shortname == c)
			return o;
	return NULL;
}

static int push(const char ***list, size_t *n, const char *s)
{
	const char **l = realloc(*list, (*n + 2) * sizeof(*l));

	if (!l)
		return -ENOMEM;
	l[(*n)++] = s;
	l[*n] = NULL;
	*list = l;
	return 0;
}

/*
 * fio's format names: "normal" is the text report; invoked as fio,
 * "json" is fio's layout (iorig's own is then "iorig-json").
 */
static const char *format_alias(const struct cli *c, const char *name)
{
	if (!strcmp(name, "normal"))
		return "text";
	if (c->fio_mode && !strcmp(name, "json"))
		return "fio-json";
	if (c->fio_mode && !strcmp(name, "iorig-json"))
		return "json";
	return name;
}

static unsigned format_bit(const char *name)
{
	return 1u << (report_format_find(name) - report_formats);
}

/* --eta-interval, --eta-newline: fio's times, a bare number in seconds. */
static int eta_time(const char *n, const char *val, uint64_t min_ns,
		    uint64_t *out, struct err_rec *e)
{
	char why[128];

	if (value_time(val, 1000000000ull, out, why, sizeof(why))) {
		err_set(e, CLI_FILE, 0, n, "%s", why);
		return -EINVAL;
	}
	if (*out < min_ns) {
		err_set(e, CLI_FILE, 0, n, "'%s' is too short; expected at "
			"least %llums", val, (unsigned long long)(min_ns /
								1000000));
		return -EINVAL;
	}
	return 0;
}

/* --output-format=NAME[,NAME...]: the set replaces an earlier one. */
static int set_formats(struct cli *c, const char *val, struct err_rec *e)
{
	const struct report_format *fmt;
	unsigned set = 0;
	const char *p = val, *end;
	char name[32], names[128];
	size_t len;

	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		fmt = NULL;
		if (len && len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			fmt = report_format_find(format_alias(c, name));
		}
		if (!fmt) {
			report_format_names(names, sizeof(names), ", ", " or ");
			err_set(e, CLI_FILE, 0, "output-format", "'%.*s' is "
				"not a format; expected %s (several: "
				"comma-separated)", (int)len, p, names);
			return -EINVAL;
		}
		set |= 1u << (fmt - report_formats);
		if (!end)
			break;
		p = end + 1;
	}
	c->formats = set;
	return 0;
}

/*
 * --profile=NAME: one profile (the same name again changes nothing; fio
 * would run only the last of two, with the first's options ignored).
 */
static int set_profile(struct cli *c, const char *val, struct err_rec *e)
{
	const struct profile *p = profile_find(val);

	if (!p) {
		err_set(e, CLI_FILE, 0, "profile", "'%s' is not a profile; "
			"expected %s", val, profile_names());
		return -EINVAL;
	}
	if (c->profile != p) {
		err_set(e, CLI_FILE, 0, "profile", "given twice (%s and %s); "
			"one profile runs: give one --profile",
			c->profile ? c->profile->name : "?", val);
		return -EINVAL;
	}
	return 0;
}

/* The profile named by the first --profile: its options are read before
 * --profile itself may come (fio reads them in any order). */
static const struct profile *first_profile(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--profile=", 10))
			return profile_find(argv[i] + 10);
		if (!strcmp(argv[i], "--profile") && i + 1 < argc)
			return profile_find(argv[i + 1]);
	}
	return NULL;
}

/* A profile option "--dir DIR" takes the next argument as its value. */
static bool profile_value_next(const struct cli *c, const char *arg, int i)
{
	return !strchr(arg, '=') && i + 1 < c->argc &&
	       c->argv[i + 1][0] != '-';
}

/* The index of arg[0..len) among --profile's options, or -1. */
static int profile_opt(const struct cli *c, const char *arg, size_t len)
{
	return c->profile ? profile_opt_index(c->profile, arg, len) : -1;
}

/* --NAME[=VALUE] of the profile; the last one given counts, as in fio. */
static int set_profile_opt(struct cli *c, int pi, int *i, struct err_rec *e)
{
	const char *arg = c->argv[*i] + 2, *eq = strchr(arg, '=');
	const char *val = eq ? eq + 1 : NULL;
	const char *name = c->profile->opts[pi].name;
	char why[256];
	bool on;

	if (c->profile->opts[pi].type == PROF_FLAG)
		val = eq ? val : "1";
	else if (profile_value_next(c, arg, *i))
		val = c->argv[++*i];
	if (profile_check(c->profile, pi, val, why, sizeof(why))) {
		err_set(e, CLI_FILE, 0, name, "--profile=%s: %s",
			c->profile->name, why);
		return -EINVAL;
	}
	/* a flag given as --prep=0 is off, as not given (checked above) */
	if (c->profile->opts[pi].type == PROF_FLAG &&
	    !value_bool(val, &on, why, sizeof(why)) && !on)
		val = NULL;
	c->profile_vals[pi] = val;
	return 0;
}

/* The profile's options together (a needed one missing...). */
static int profile_done(const struct cli *c, struct err_rec *e)
{
	const char *opt = "profile";
	char why[256];

	/* --cmdhelp describes the options without them */
	if (c->cmdhelp || c->help || c->version ||
	    !profile_validate(c->profile, c->profile_vals, &opt, why,
			      sizeof(why)))
		return 0;
	err_set(e, CLI_FILE, 0, opt, "%s", why);
	return -EINVAL;
}

const struct cli_debug_type cli_debug_types[] = {
	{ "process", NULL }, { "file", NULL }, { "io", NULL },
	{ "mem", NULL }, { "blktrace", NULL }, { "verify", NULL },
	{ "random", NULL },
	{ "parse", "the job options as read (file, line, section, value) "
	  "and each steadystate criterion as understood, on stdout before "
	  "anything else" },
	{ "diskutil", NULL }, { "job", NULL }, { "mutex", NULL },
	{ "profile", NULL }, { "time", NULL }, { "net", NULL },
	{ "rate", NULL }, { "compress", NULL }, { "steadystate", NULL },
	{ "helperthread", NULL }, { "zbd", NULL },
	{ NULL, NULL },
};

unsigned cli_debug_bit(const char *name)
{
	unsigned i;

	for (i = 0; cli_debug_types[i].name; i++)
		if (!strcmp(cli_debug_types[i].name, name))
			return 1u << i;
	return 0;
}

void cli_debug_list(FILE *f)
{
	unsigned i;

	fprintf(f, "fio's debug types (--debug=TYPE[,TYPE...], all, "
		"job:N):\n");
	for (i = 0; cli_debug_types[i].name; i++)
		fprintf(f, "  %-13s %s\n", cli_debug_types[i].name,
			cli_debug_types[i].prints ? cli_debug_types[i].prints :
			"nothing (iorig has no such tracing)");
}

/*
 * --debug=TYPE[,TYPE...]: fio's types (all, job:N too) are taken; what
 * is not one has no meaning and is refused. help or ?: list them.
 */
static int set_debug(struct cli *c, const char *val, struct err_rec *e)
{
	const char *p = val, *end;
	char name[32];
	unsigned bit;
	size_t len;
	char *num;

	if (!strcmp(val, "help") || !strcmp(val, "?")) {
		c->debug_help = true;
		return 0;
	}
	for (;; p = end + 1) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		bit = len < sizeof(name) ? cli_debug_bit(name) : 0;
		if (!strcmp(name, "all")) {
			bit = ~0u;
		} else if (!strncmp(name, "job:", 4)) {
			/* fio's debugging of job N alone: nothing here */
			(void)strtoul(name + 4, &num, 10);
			bit = num != name + 4 && !*num ?
			      cli_debug_bit("job") : 0;
		}
		if (!bit) {
			err_set(e, CLI_FILE, 0, "debug", "'%.*s' is not one of "
				"fio's debug types; expected TYPE[,TYPE...] "
				"(--debug=help lists them), all or job:N",
				(int)len, p);
			return -EINVAL;
		}
		c->debug |= bit;
		if (!end)
			return 0;
	}
}

static int act(struct cli *c, const struct cli_opt *o, const char *val,
	       size_t *nsec, struct err_rec *e)
{
	const char *n = o->name;
	char why[128];
	uint64_t u;

	if (o->refused) {
		err_set(e, CLI_FILE, 0, n, "fio's --%s: %s", n, o->refused);
		return -EINVAL;
	}
	if (o->arg == CLI_ARG_REQUIRED && (!val || !*val)) {
		err_set(e, CLI_FILE, 0, n, "needs a value: --%s=%s", n,
			o->argname);
		return -EINVAL;
	}
	if (o->arg == CLI_ARG_NONE && val) {
		err_set(e, CLI_FILE, 0, n, "takes no value");
		return -EINVAL;
	}
	if (!strcmp(n, "output-format")) {
		return set_formats(c, val, e);
	} else if (!strcmp(n, "minimal")) {
		c->formats = format_bit("terse");
	} else if (!strcmp(n, "append-terse")) {
		c->formats |= format_bit("terse");
	} else if (!strcmp(n, "terse-version")) {
		if (strlen(val) != 1 || val[0] < '2' || val[0] > '5') {
			err_set(e, CLI_FILE, 0, n, "'%s' is not a terse "
				"version; expected 2, 3, 4 or 5", val);
			return -EINVAL;
		}
		c->terse_version = (unsigned)(val[0] - '0');
	} else if (!strcmp(n, "output")) {
		c->output = val;
	} else if (!strcmp(n, "parse-only")) {
		c->parse_only = true;
	} else if (!strcmp(n, "merge-blktrace-only")) {
		c->merge_only = true;
	} else if (!strcmp(n, "stream")) {
		c->stream = val;
	} else if (!strcmp(n, "chart")) {
		c->chart = val;
	} else if (!strcmp(n, "rank-output")) {
		c->rank_output = val;
	} else if (!strcmp(n, "progress") || !strcmp(n, "eta")) {
		if (progress_mode_parse(val, &c->progress)) {
			err_set(e, CLI_FILE, 0, n, "'%s' is not valid; "
				"expected auto, always or never", val);
			return -EINVAL;
		}
	} else if (!strcmp(n, "section")) {
		return push(&c->sections, nsec, val);
	} else if (!strcmp(n, "check")) {
		return push(&c->checks, &c->nchecks, val);
	} else if (!strcmp(n, "baseline")) {
		c->baseline = val;
	} else if (!strcmp(n, "history")) {
		c->history = val;
	} else if (!strcmp(n, "cmdhelp")) {
		/* fio's --cmdhelp=all is its list, as without a value */
		c->cmdhelp = true;
		c->cmdhelp_opt = val && strcmp(val, "all") ? val : NULL;
	} else if (!strcmp(n, "help")) {
		c->help = true;
	} else if (!strcmp(n, "version")) {
		c->version = true;
	} else if (!strcmp(n, "enghelp")) {
		c->enghelp = true;
		c->enghelp_arg = val;
	} else if (!strcmp(n, "profile")) {
		return set_profile(c, val, e);
	} else if (!strcmp(n, "showcmd")) {
		c->showcmd = true;
	} else if (!strcmp(n, "inflate-log")) {
		c->inflate_log = val;
	} else if (!strcmp(n, "readonly")) {
		c->readonly = true;
	} else if (!strcmp(n, "warnings-fatal")) {
		c->warnings_fatal = true;
	} else if (!strcmp(n, "debug")) {
		return set_debug(c, val, e);
	} else if (!strcmp(n, "eta-interval")) {
		return eta_time(n, val, 250000000ull, &c->eta_interval_ns, e);
	} else if (!strcmp(n, "eta-newline")) {
		return eta_time(n, val, 1000000ull, &c->eta_newline_ns, e);
	} else if (!strcmp(n, "alloc-size") || !strcmp(n, "max-jobs")) {
		/* fio's meaning has no counterpart; the value is still a
		 * number. */
		if (value_uint(val, 1, UINT32_MAX, &u, why, sizeof(why))) {
			err_set(e, CLI_FILE, 0, n, "%s", why);
			return -EINVAL;
		}
	}
	return 0;
}

/* A job option on the command line: check its name now, its value later. */
static int check_job_opt(const char *name, size_t len, struct err_rec *e)
{
	char buf[64];
	const char *hint;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (options_find(buf))
		return 0;
	hint = options_fio_only_msg(buf);
	if (hint) {
		err_set(e, CLI_FILE, 0, buf, "%s", hint);
		return -EINVAL;
	}
	/* fio reads a profile's option without --profile too: no effect
	 * (options_set) */
	if (profile_owning(buf, strlen(buf)))
		return 0;
	hint = options_suggest(buf);
	err_set(e, CLI_FILE, 0, buf, "unknown option%s%s%s", hint ?
		"; did you mean --" : "; see iorig --help", hint ? hint : "",
		hint ? "?" : "");
	return -EINVAL;
}

/*
 * A command option that needs a value takes it after '=' or, as getopt
 * would, from the next argument ("--check EXPR") unless that is another
 * --option. So does a job option that is not a flag ("--directory DIR",
 * "--name JOB", as fio's getopt takes them): job_value_next.
 */
static bool value_is_next(const struct cli *c, const struct cli_opt *o,
			  const char *arg, int i)
{
	return o->arg == CLI_ARG_REQUIRED && !strchr(arg, '=') &&
	       i + 1 < c->argc && strncmp(c->argv[i + 1], "--", 2);
}

/*
 * A job option written as fio's getopt also reads it, "--directory DIR":
 * without '=', the next argument is its value unless it looks like an
 * option; a flag (a bool) takes only a next "0" or "1" (fio's bools are
 * numbers), so "--direct job.fio" still runs job.fio.
 */
static bool job_value_next(const struct cli *c, const char *arg, int i)
{
	const struct opt_def *d;
	const char *next;

	if (strchr(arg, '=') || i + 1 >= c->argc)
		return false;
	next = c->argv[i + 1];
	if (next[0] == '-' && next[1])
		return false;
	d = options_find(arg);
	if (!d)
		return false;
	return d->type != OPT_BOOL || !strcmp(next, "0") ||
	       !strcmp(next, "1");
}

/* *i moves past a value that was the next argument. */
static int parse_long(struct cli *c, int *i, size_t *nsec, struct err_rec *e)
{
	const char *arg = c->argv[*i] + 2, *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct cli_opt *o = cli_find(arg, len);
	int pi = profile_opt(c, arg, len);

	if (o && value_is_next(c, o, arg, *i))
		return act(c, o, c->argv[++*i], nsec, e);
	if (o)
		return act(c, o, eq ? eq + 1 : NULL, nsec, e);
	if (pi >= 0)
		return set_profile_opt(c, pi, i, e);
	if (check_job_opt(arg, len, e))
		return -EINVAL;
	if (len == 4 && !strncmp(arg, "name", 4) && !c->first_name)
		c->first_name = *i;
	if (job_value_next(c, arg, *i))
		++*i;
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv, struct err_rec *e)
{
	const struct cli_opt *o;
	size_t nsec = 0, nfiles = 0;
	int i, ret = 0;

	memset(c, 0, sizeof(*c));
	c->formats = format_bit("text");
	c->fio_mode = argc > 0 && cli_invoked_as_fio(argv[0]);
	c->argc = argc;
	c->argv = argv;
	c->profile = first_profile(argc, argv);
	for (i = 1; i < argc && !ret; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--", 2) && a[2]) {
			ret = parse_long(c, &i, &nsec, e);
		} else if (a[0] == '-' && a[1] && !a[2] &&
			   (o = cli_find_short(a[1]))) {
			const char *val = NULL;

			if (o->arg == CLI_ARG_REQUIRED && i + 1 < argc)
				val = argv[++i];
			ret = act(c, o, val, &nsec, e);
		} else if (a[0] == '-' && a[1]) {
			err_set(e, CLI_FILE, 0, a, "unknown option; job options "
				"are written --name=value, see iorig --help");
			ret = -EINVAL;
		} else {
			ret = push(&c->jobfiles, &nfiles, a);
		}
	}
	/* Errors above name the argument they were found in. */
	if (ret && !e->line)
		e->line = i - 1;
	if (!ret && c->profile)
		ret = profile_done(c, e);
	if (!ret && !c->jobfiles)
		ret = push(&c->jobfiles, &nfiles, NULL);
	if (ret == -ENOMEM)
		err_set(e, CLI_FILE, 0, "", "out of memory");
	return ret;
}

/* name=value (value NULL: a bare flag) into section si. */
static int emit_opt(struct raw_doc *doc, size_t si, const char *name,
		    const char *value, const char *file, int pos,
		    struct err_rec *e)
{
	char val[JOBFILE_MAX_LINE], why[256];
	bool calc = false;
	int ret;

	if (value) {
		ret = jobfile_expand_opt(name, value, val, sizeof(val), &calc,
					 why, sizeof(why));
		if (ret) {
			err_set(e, file, pos, name, "%s", why);
			return ret;
		}
	}
	ret = raw_section_add(doc, &doc->secs[si], name, value ? val : NULL,
			      file, pos);
	if (!ret)
		doc->secs[si].opts[doc->secs[si].nopts - 1].calc = calc;
	if (ret)
		err_set(e, file, pos, name, "too many options");
	return ret;
}

int cli_emit(const struct cli *c, struct raw_doc *doc, bool globals,
	     struct err_rec *e)
{
	int i, end = c->first_name ? c->first_name : c->argc;
	int start = globals ? 1 : end;
	size_t si = (size_t)-1, len;
	const char *eq, *val;
	char name[64];
	int ret, pos, pi;

	if (!globals)
		end = c->argc;
	for (i = start; i < end; i++) {
		const char *a = c->argv[i] + 2;
		const struct cli_opt *o;

		if (strncmp(c->argv[i], "--", 2) || !a[0]) {
			if (c->argv[i][0] == '-' && c->argv[i][1] &&
			    (o = cli_find_short(c->argv[i][1])) &&
			    o->arg == CLI_ARG_REQUIRED)
				i++;
			continue;
		}
		o = cli_find(a, strchr(a, '=') ? (size_t)(strchr(a, '=') - a)
				       : strlen(a));
		if (o) {
			/* Its value was the next argument (parse_long). */
			if (value_is_next(c, o, a, i))
				i++;
			continue;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		pi = profile_opt(c, a, len);
		if (pi >= 0) {
			/* The profile's own (cli_emit_profile). */
			if (c->profile->opts[pi].type != PROF_FLAG &&
			    profile_value_next(c, a, i))
				i++;
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, a);
		val = eq ? eq + 1 : NULL;
		pos = i;
		if (job_value_next(c, a, i))
			val = c->argv[++i];
		if (!strcmp(name, "name")) {
			if (!val || !*val) {
				err_set(e, CLI_FILE, pos, "name", "needs a "
					"value: --name=JOBNAME");
				return -EINVAL;
			}
			if (!raw_doc_add_section(doc, val, CLI_FILE, pos))
				goto nomem;
			si = doc->nsecs - 1;
			continue;
		}
		if (si == (size_t)-1) {
			if (!raw_doc_add_section(doc, "global", CLI_FILE, pos))
				goto nomem;
			si = doc->nsecs - 1;
		}
		ret = emit_opt(doc, si, name, val, CLI_FILE, pos, e);
		if (ret)
			return ret;
	}
	return 0;
nomem:
	err_set(e, CLI_FILE, 0, "", "out of memory or too many jobs");
	return -ENOMEM;
}

/*
 * The profile's words as command-line options: those before the first
 * name= into a [global] section after everything else (so it sets the
 * profile's jobs only, as in fio, where it comes after), then its jobs.
 */
int cli_emit_profile(const struct cli *c, struct raw_doc *doc,
		     struct err_rec *e)
{
	struct profile_words w = { 0 };
	size_t k, si = (size_t)-1;
	char name[64];
	int ret = 0;

	if (!c->profile)
		return 0;
	ret = profile_expand(c->profile, c->profile_vals, &w);
	if (ret) {
		err_set(e, ERR_PROFILE, 0, "profile", "cannot make the jobs of "
			"--profile=%s: %s", c->profile->name, strerror(-ret));
		return ret;
	}
	for (k = 0; k < w.n && !ret; k++) {
		const char *eq = strchr(w.w[k], '=');
		int pos = (int)k + 1;

		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - w.w[k]) :
			 (int)strlen(w.w[k]), w.w[k]);
		if (!strcmp(name, "name") || si == (size_t)-1) {
			if (!raw_doc_add_section(doc, !strcmp(name, "name") ?
						 eq + 1 : "global",
						 ERR_PROFILE, pos)) {
				err_set(e, ERR_PROFILE, pos, name, "out of "
					"memory or too many jobs");
				ret = -ENOMEM;
				break;
			}
			si = doc->nsecs - 1;
			if (!strcmp(name, "name"))
				continue;
		}
		ret = emit_opt(doc, si, name, eq ? eq + 1 : NULL, ERR_PROFILE,
			       pos, e);
	}
	profile_words_free(&w);
	return ret;
}

void cli_free(struct cli *c)
{
	free(c->sections);
	free(c->jobfiles);
	free(c->checks);
	c->sections = NULL;
	c->jobfiles = NULL;
	c->checks = NULL;
}

int cli_arg_index(const struct cli *c, const char *p)
{
	int i;

	for (i = 1; p && i < c->argc; i++)
		if (p >= c->argv[i] && p <= c->argv[i] + strlen(c->argv[i]))
			return i;
	return 0;
}

/* The value's name in --help; --output-format's comes from the table. */
static const char *argname(const struct cli_opt *o, char *buf, size_t len)
{
	if (!strcmp(o->name, "output-format")) {
		report_format_names(buf, len, "|", "|");
		return buf;
	}
	return o->argname ? o->argname : "";
}

void cli_print_help(FILE *f)
{
	const struct cli_opt *o;
	char buf[256], names[192];	/* room for every format's name */

	fprintf(f, "Usage: iorig [options] [jobfile...]\n"
		"       iorig plot [--format=svg|png] [--outdir=DIR] "
		"[--baseline=FILE] RESULT.json|LOG...\n"
		"         (charts of JSON results drawn by gnuplot; "
		"iorig plot --help)\n"
		"       iorig report --output-format=FORMAT|--html [-o FILE] "
		"RESULT.json\n"
		"         (a saved JSON result in any format, the HTML page "
		"too; iorig report --help)\n"
		"       iorig merge [--output-format=FORMAT] "
		"[--output=FILE]\n"
		"                   [--check=[rank:]EXPR]... RESULT.json... "
		"(merge JSON results\n"
		"                   into one cluster report)\n"
		"       iorig history list|show|compare [--json] FILE.db "
		"[RUN...]\n"
		"         (the runs recorded with --history; iorig history "
		"--help)\n\n"
		"Runs the jobs of the job files (\"-\" reads stdin) and of the "
		"command line\n(--name=NAME starts a job; job options before "
		"the first --name are global;\na job option also takes its value "
		"from the next argument, as fio's: --directory DIR).\n"
		"Invoked as fio (a link named "
		"fio or fio-*), it stands in for fio: --version\nsays "
		"fio-3.33 (iorig VERSION) and json is fio's layout (see "
		"INVOKED AS FIO\nin the manual).\n\nOptions:\n");
	for (o = cli_options; o->name; o++) {
		snprintf(buf, sizeof(buf), "%s%c%s--%s%s%s%s",
			 o->shortname ? "-" : "", o->shortname ? o->shortname
			 : ' ', o->shortname ? ", " : "  ", o->name,
			 o->arg == CLI_ARG_OPTIONAL ? "[=" :
			 o->arg == CLI_ARG_REQUIRED ? "=" : "",
			 argname(o, names, sizeof(names)),
			 o->arg == CLI_ARG_OPTIONAL ? "]" : "");
		fprintf(f, "  %-28s %s\n", o->shortname ? buf : buf + 1,
			o->help);
	}
	options_print_help(f);
	fprintf(f, "\nExit codes: 0 success, 1 I/O or runtime error, 2 usage "
		"or job-file error\n(nothing run), 3 a --check or check= "
		"failed, 4 verification found\nmismatches, 129/130/143 "
		"interrupted by SIGHUP/SIGINT/SIGTERM.\n");
}

bool cli_invoked_as_fio(const char *argv0)
{
	const char *b = argv0 ? strrchr(argv0, '/') : NULL;

	b = b ? b + 1 : argv0;
	return b && (!strcmp(b, "fio") || !strncmp(b, "fio-", 4));
}

const char *cli_version_tag(const struct cli *c, const char *ver, char *buf,
			    size_t len)
{
	if (c && c->fio_mode)
		snprintf(buf, len, "fio-3.33 (iorig %s)", ver);
	else
		snprintf(buf, len, "iorig-%s", ver);
	return buf;
}

/* One argument, single-quoted for a POSIX shell when it needs to be. */
static void put_arg(FILE *f, const char *name, const char *value)
{
	const char *p;
	bool plain = true;
	char buf[JOBFILE_MAX_LINE + 80];

	snprintf(buf, sizeof(buf), "--%s%s%s", name, value ? "=" : "",
		 value ? value : "");
	for (p = buf; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_-./:,=+%@^", *p) != NULL;
	if (plain) {
		fprintf(f, " %s", buf);
		return;
	}
	fputs(" '", f);
	for (p = buf; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

static void put_section(FILE *f, const struct raw_section *s)
{
	size_t i;

	for (i = 0; i < s->nopts; i++)
		put_arg(f, s->opts[i].name, s->opts[i].value);
}

void cli_showcmd(FILE *f, const char *prog, const struct raw_doc *doc)
{
	size_t i, j, first;

	for (first = 0; first < doc->nsecs && doc->secs[first].is_global;
	     first++)
		;
	fputs(prog, f);
	for (i = 0; i < first; i++)
		put_section(f, &doc->secs[i]);
	for (i = first; i < doc->nsecs; i++) {
		if (doc->secs[i].is_global)
			continue;
		put_arg(f, "name", doc->secs[i].name);
		/* A [global] after the first job: on the command line,
		 * options after --name are that job's, so each later job
		 * repeats them before its own. */
		for (j = first; j < i; j++)
			if (doc->secs[j].is_global)
				put_section(f, &doc->secs[j]);
		put_section(f, &doc->secs[i]);
	}
	fputc('\n', f);
}
