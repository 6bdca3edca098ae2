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
#include "options.h"
#include "progress.h"
#include "report.h"

#define CLI_FILE ERR_CMDLINE

const struct cli_opt cli_options[] = {
	{ "output-format", 0, CLI_ARG_REQUIRED, NULL,
	  "Report format on stdout (or --output); default text; several "
	  "comma-separated (json,text) are written one after the other" },
	{ "minimal", 0, CLI_ARG_NONE, NULL,
	  "The same as --output-format=terse" },
	{ "terse-version", 0, CLI_ARG_REQUIRED, "2|3|4|5",
	  "Version of fio's terse layout; default 3" },
	{ "output", 'o', CLI_ARG_REQUIRED, "FILE",
	  "Write the report to FILE instead of stdout" },
	{ "parse-only", 0, CLI_ARG_NONE, NULL,
	  "Print every job with every option's effective value; run nothing" },
	{ "section", 0, CLI_ARG_REQUIRED, "NAME",
	  "Run only the job section NAME (repeatable)" },
	{ "stream", 0, CLI_ARG_REQUIRED, "FILE",
	  "Write the interval= samples to FILE as JSON lines while running" },
	{ "chart", 0, CLI_ARG_REQUIRED, "FILE.svg",
	  "Draw the rate_curve jobs' latency against IOPS (gnuplot); the "
	  "script and data go beside it, FILE.gp and FILE.dat" },
	{ "progress", 0, CLI_ARG_REQUIRED, "auto|always|never",
	  "Status line on stderr while running; auto: when it is a terminal" },
	{ "check", 0, CLI_ARG_REQUIRED, "EXPR",
	  "Check a figure after the run, e.g. read.iops>=50k or "
	  "seqread:read.clat.p99<=2ms; a failure exits 3 (repeatable)" },
	{ "baseline", 0, CLI_ARG_REQUIRED, "FILE",
	  "Compare with an earlier --output-format=json result" },
	{ "cmdhelp", 0, CLI_ARG_OPTIONAL, "OPTION",
	  "List the job options, or describe one" },
	{ "help", 'h', CLI_ARG_NONE, NULL, "Show this help" },
	{ "version", 'V', CLI_ARG_NONE, NULL, "Show the version" },
	{ NULL, 0, CLI_ARG_NONE, NULL, NULL },
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
			fmt = report_format_find(name);
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

static int act(struct cli *c, const struct cli_opt *o, const char *val,
	       size_t *nsec, struct err_rec *e)
{
	const char *n = o->name;

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
		c->formats = 1u << (report_format_find("terse") -
				    report_formats);
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
	} else if (!strcmp(n, "stream")) {
		c->stream = val;
	} else if (!strcmp(n, "chart")) {
		c->chart = val;
	} else if (!strcmp(n, "progress")) {
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
	} else if (!strcmp(n, "cmdhelp")) {
		c->cmdhelp = true;
		c->cmdhelp_opt = val;
	} else if (!strcmp(n, "help")) {
		c->help = true;
	} else if (!strcmp(n, "version")) {
		c->version = true;
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
 * "--name JOB", as fio's getopt takes them): job_value_is_next.
 */
static bool value_is_next(const struct cli *c, const struct cli_opt *o,
			  const char *arg, int i)
{
	return o->arg == CLI_ARG_REQUIRED && !strchr(arg, '=') &&
	       i + 1 < c->argc && strncmp(c->argv[i + 1], "--", 2);
}

/*
 * Job option arg (its name len long, no '=') takes argument i + 1 as its
 * value: it is not a flag (OPT_BOOL: a bare name means 1) and that
 * argument is there and is not another --option.
 */
static bool job_value_is_next(const struct cli *c, const char *arg,
			      size_t len, int i)
{
	const struct opt_def *d;
	char buf[64];

	if (arg[len] == '=' || i + 1 >= c->argc ||
	    !strncmp(c->argv[i + 1], "--", 2) || len >= sizeof(buf))
		return false;
	memcpy(buf, arg, len);
	buf[len] = '\0';
	d = options_find(buf);
	return d && d->type != OPT_BOOL;
}

/* *i moves past a value that was the next argument. */
static int parse_long(struct cli *c, int *i, size_t *nsec, struct err_rec *e)
{
	const char *arg = c->argv[*i] + 2, *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct cli_opt *o = cli_find(arg, len);

	if (o && value_is_next(c, o, arg, *i))
		return act(c, o, c->argv[++*i], nsec, e);
	if (o)
		return act(c, o, eq ? eq + 1 : NULL, nsec, e);
	if (check_job_opt(arg, len, e))
		return -EINVAL;
	if (len == 4 && !strncmp(arg, "name", 4) && !c->first_name)
		c->first_name = *i;
	if (job_value_is_next(c, arg, len, *i))
		++*i;
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv, struct err_rec *e)
{
	const struct cli_opt *o;
	size_t nsec = 0, nfiles = 0;
	int i, ret = 0;

	memset(c, 0, sizeof(*c));
	c->formats = 1u << (report_format_find("text") - report_formats);
	c->argc = argc;
	c->argv = argv;
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
	if (!ret && !c->jobfiles)
		ret = push(&c->jobfiles, &nfiles, NULL);
	if (ret == -ENOMEM)
		err_set(e, CLI_FILE, 0, "", "out of memory");
	return ret;
}

/* next: the value given as the next argument (job_value_is_next), or NULL */
static int emit_opt(struct raw_doc *doc, size_t si, const char *arg,
		    const char *next, int pos, struct err_rec *e)
{
	const char *eq = next ? NULL : strchr(arg, '=');
	const char *given = next ? next : eq ? eq + 1 : NULL;
	char name[64], val[JOBFILE_MAX_LINE], why[256];
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	int ret;

	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, arg, len);
	name[len] = '\0';
	if (given) {
		ret = jobfile_expand_opt(name, given, val, sizeof(val), why,
					 sizeof(why));
		if (ret) {
			err_set(e, CLI_FILE, pos, name, "%s", why);
			return ret;
		}
	}
	ret = raw_section_add(doc, &doc->secs[si], name, given ? val : NULL,
			      CLI_FILE, pos);
	if (ret)
		err_set(e, CLI_FILE, pos, name, "too many options");
	return ret;
}

int cli_emit(const struct cli *c, struct raw_doc *doc, bool globals,
	     struct err_rec *e)
{
	int i, end = c->first_name ? c->first_name : c->argc;
	int start = globals ? 1 : end;
	size_t si = (size_t)-1;
	int ret;

	if (!globals)
		end = c->argc;
	for (i = start; i < end; i++) {
		const char *a = c->argv[i] + 2, *next;
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
		next = job_value_is_next(c, a, strchr(a, '=') ?
					 (size_t)(strchr(a, '=') - a) :
					 strlen(a), i) ? c->argv[i + 1] : NULL;
		if (!strncmp(a, "name=", 5) || !strcmp(a, "name")) {
			const char *jn = next ? next : a[4] ? a + 5 : "";

			if (!*jn) {
				err_set(e, CLI_FILE, i, "name", "needs a value: "
					"--name=JOBNAME");
				return -EINVAL;
			}
			if (!raw_doc_add_section(doc, jn, CLI_FILE, i))
				goto nomem;
			i += next != NULL;
			si = doc->nsecs - 1;
			continue;
		}
		if (si == (size_t)-1) {
			if (!raw_doc_add_section(doc, "global", CLI_FILE, i))
				goto nomem;
			si = doc->nsecs - 1;
		}
		ret = emit_opt(doc, si, a, next, i, e);
		if (ret)
			return ret;
		i += next != NULL;
	}
	return 0;
nomem:
	err_set(e, CLI_FILE, 0, "", "out of memory or too many jobs");
	return -ENOMEM;
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
	char buf[80], names[64];

	fprintf(f, "Usage: iorig [options] [jobfile...]\n\n"
		"Runs the jobs of the job files (\"-\" reads stdin) and of the "
		"command line\n(--name=NAME starts a job; job options before "
		"the first --name are global;\na job option that is not a flag "
		"also takes its value from the next argument,\nas fio's: "
		"--directory DIR).\n\nOptions:\n");
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
