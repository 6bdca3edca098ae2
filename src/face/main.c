// SPDX-License-Identifier: MIT
/*
 * Dispatch only: parse, plan, run, report, exit code. The only place that
 * prints a fatal error and calls exit().
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "check.h"
#include "cli.h"
#include "clock.h"
#include "cmdargs.h"
#include "cluster.h"
#include "curve.h"
#include "engine.h"
#include "history.h"
#include "html.h"
#include "iolog.h"
#include "jobfile.h"
#include "options.h"
#include "door.h"
#include "peers.h"
#include "plan.h"
#include "plot.h"
#include "procattr.h"
#include "profile.h"
#include "progress.h"
#include "report.h"
#include "run.h"
#include "steady.h"
#include "stream.h"

#ifndef IORIG_VERSION
#define IORIG_VERSION "0.0.0"
#endif

enum exit_code {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_CHECK = 3,		/* a --check or check= failed */
	EXIT_VERIFY = 4,	/* verification found mismatches */
};

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IORIG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define IORIG_ASAN 1
#endif
#ifdef IORIG_ASAN
/*
 * Sanitizer builds only: LeakSanitizer cannot run under ptrace (strace,
 * which the tests use as an outside witness) and aborts the process at
 * exit; traced, leave the leak check out (the same run untraced has it).
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");
	int traced = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10)) {
			traced = atoi(line + 10) != 0;
			break;
		}
	if (f)
		fclose(f);
	return traced;
}
#endif

/* The one piece of state a signal handler may touch. */
static atomic_int stop_signal;

static void on_signal(int sig)
{
	atomic_store(&stop_signal, sig);
}

/* The errors collected while reading the input (err_collect). */
static struct err_list errs;
/* The last error fail() printed (MPI ranks tell the others). */
static char last_err[1024];

/* Every error found, file by file in line order (one when none was
 * collected). */
static int fail(struct err_rec *e)
{
	static char buf[sizeof(e->file) + sizeof(e->msg) + 256];
	struct err_list *l = &errs;
	size_t i;

	if (!err_keep(e) && !l->n) {
		err_format(e, buf, sizeof(buf));
		fprintf(stderr, "iorig: %s\n", buf);
		snprintf(last_err, sizeof(last_err), "%.1000s", buf);
		return EXIT_USAGE;
	}
	err_list_sort(l);
	for (i = 0; i < l->n; i++) {
		err_format(&l->recs[i], buf, sizeof(buf));
		fprintf(stderr, "iorig: %s\n", buf);
		if (!i)
			snprintf(last_err, sizeof(last_err), "%.1000s", buf);
	}
	if (l->full)
		fprintf(stderr, "iorig: more errors follow; stopped after "
			"the first %d\n", ERR_LIST_MAX);
	else if (l->n > 1)
		fprintf(stderr, "iorig: %zu errors; nothing was run\n", l->n);
	return EXIT_USAGE;
}

static int build_doc(const struct cli *c, struct raw_doc *doc,
		     struct err_rec *e)
{
	const char **f;
	int ret;

	int bad = 0;

	ret = cli_emit(c, doc, true, e);
	for (f = c->jobfiles; *f; f++) {
		/* Errors collected (err_keep): read the next file too. */
		if (ret && (ret != -EINVAL || !err_keep(e)))
			return ret;
		bad = ret ? ret : bad;
		ret = jobfile_parse_file(doc, *f, e);
	}
	if (!ret && !bad)
		ret = cli_emit(c, doc, false, e);
	if (!ret && !bad)
		ret = cli_emit_profile(c, doc, e);
	return ret ? ret : bad;
}

/* --debug=parse: a steadystate criterion as understood, in fio's words
 * (its t/steadystate_tests.py looks for them). */
static void debug_steady(const char *val)
{
	struct steady_crit c;

	if (!val || steady_parse(val, &c, NULL, 0))
		return;		/* the plan says what is wrong */
	if (c.pct)
		printf("parse: set steady state threshold to %f%%\n", c.limit);
	else if (c.kind <= SS_IOPS_SLOPE)
		printf("parse: set steady state IOPS threshold to %f\n",
		       c.limit);
	else if (c.kind <= SS_BW_SLOPE)
		printf("parse: set steady state BW threshold to %lld\n",
		       (long long)llround(c.limit));
	else
		printf("parse: set steady state latency threshold to %f ns\n",
		       c.limit);
}

/*
 * --debug=parse (fio's parser logging, on stdout as fio's): each option
 * as read, in order, with where it came from; before the run, so flushed.
 */
static void debug_parse(const struct raw_doc *doc)
{
	const struct raw_section *sec;
	const struct raw_opt *o;
	const struct opt_def *d;
	size_t i, k;

	for (i = 0; i < doc->nsecs; i++) {
		sec = &doc->secs[i];
		for (k = 0; k < sec->nopts; k++) {
			o = &sec->opts[k];
			printf("parse: %s:%d: [%s] %s%s%s\n", o->file, o->line,
			       sec->name, o->name, o->value ? "=" : "",
			       o->value ? o->value : "");
			d = options_find(o->name);
			if (d && !strcmp(d->name, "steadystate"))
				debug_steady(o->value);
		}
	}
	fflush(stdout);
}

static void print_plan(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		if (p->jobs[i].plan.clone || p->jobs[i].plan.repeat_idx)
			continue;
		printf("[%s]%s%s\n", p->jobs[i].desc.name,
		       p->jobs[i].plan.sweep_point ? "  ; sweep point: " : "",
		       p->jobs[i].plan.sweep_point ?
		       p->jobs[i].plan.sweep_point : "");
		options_print_job(stdout, &p->jobs[i]);
	}
}

/*
 * --enghelp: fio's "Available IO engines:" list, or one engine (with
 * ENGINE,OPTION: one of its options, as --cmdhelp describes it).
 */
static int engine_help(const char *arg)
{
	const struct engine_ops *const *l;
	const struct engine_ops *eo;
	const struct opt_def *o;
	char name[64];
	const char *comma = arg ? strchr(arg, ',') : NULL;
	size_t len = comma ? (size_t)(comma - arg) : arg ? strlen(arg) : 0;

	if (!arg || !*arg) {
		printf("Available IO engines:\n");
		for (l = engine_list(); *l; l++)
			printf("\t%s\n", (*l)->name);
		return EXIT_OK;
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, arg);
	eo = engine_find(name);
	if (!eo) {
		fprintf(stderr, "iorig: --enghelp: '%s' is not an engine; "
			"iorig --enghelp lists them\n", name);
		return EXIT_USAGE;
	}
	if (comma && comma[1]) {
		/* one of its options, or a job option (as fio 3.33) */
		o = options_find_in(eo->options, comma + 1);
		if (o) {
			options_print_row(stdout, o);
			return EXIT_OK;
		}
		if (!options_print_cmdhelp(stdout, comma + 1))
			return EXIT_OK;
		fprintf(stderr, "iorig: --enghelp: '%s' is not an option\n",
			comma + 1);
		return EXIT_USAGE;
	}
	engine_print_one(stdout, eo);
	return EXIT_OK;
}

/*
 * --readonly: what of job j would change a byte of a file, known from
 * its options alone (NULL: nothing); the layout of its targets is
 * target_plan's to check.
 */
static const char *readonly_why(const struct job *j, char *buf, size_t len)
{
	unsigned fl = j->eng.engine ? j->eng.engine->flags : 0;

	if (rw_changes_data(j->io.rw))
		return "writes or trims (its rw=)";
	if (fl & (ENGINE_CHANGES_FILES | ENGINE_CREATES)) {
		snprintf(buf, len, "uses ioengine=%s, which %s its files",
			 j->eng.ioengine, fl & ENGINE_CREATES ? "creates" :
			 fl & ENGINE_DELETES ? "deletes" : "changes");
		return buf;
	}
	if (j->target.fill_device)
		return "lays out files until the file system is full "
		       "(fill_device=1)";
	if (j->eng.mem && j->eng.mem_file) {
		snprintf(buf, len, "makes a file for its I/O buffers "
			 "(mem=%.200s: a new file in that file's directory)",
			 j->eng.mem);
		return buf;
	}
	return NULL;
}

/*
 * fio's --readonly (no job may write or trim; here, no byte of any file
 * but the report and logs may change) and --warnings-fatal (a warning
 * about the jobs stops the run): usage errors, nothing run.
 */
static int fio_guards(const struct cli *c, const struct plan *p,
		      struct err_rec *e)
{
	const char *why;
	char buf[320];
	size_t i, n;

	for (i = 0; c->readonly && i < p->njobs; i++) {
		why = readonly_why(&p->jobs[i], buf, sizeof(buf));
		if (!why)
			continue;
		err_set(e, ERR_CMDLINE, 0, "readonly", "job '%s' %s, which "
			"--readonly forbids", p->jobs[i].desc.name, why);
		return -EINVAL;
	}
	n = warn_loud(&p->warnings);
	if (c->warnings_fatal && n) {
		err_set(e, ERR_CMDLINE, 0, "warnings-fatal", "%zu warning%s "
			"about the jobs (above); nothing was run",
			n, n == 1 ? "" : "s");
		return -EINVAL;
	}
	return 0;
}

static int info_only(const struct cli *c)
{
	if (c->help) {
		cli_print_help(stdout);
		return EXIT_OK;
	}
	if (c->version) {
		char tag[64];

		/* fio prints "fio-3.33": KDiskMark wants "fio-" first,
		 * fio-plot "fio-3". */
		if (c->fio_mode)
			printf("%s\n", cli_version_tag(c, IORIG_VERSION, tag,
							sizeof(tag)));
		else
			printf("iorig %s\n", IORIG_VERSION);
		return EXIT_OK;
	}
	if (c->enghelp)
		return engine_help(c->enghelp_arg);
	if (c->debug_help) {
		cli_debug_list(stdout);
		return EXIT_OK;
	}
	if (c->profile) {
		if (!profile_print_cmdhelp(stdout, c->profile, c->cmdhelp_opt))
			return EXIT_OK;
		fprintf(stderr, "iorig: --cmdhelp: '%s' is not an option of "
			"--profile=%s; iorig --profile=%s --cmdhelp lists "
			"them\n", c->cmdhelp_opt, c->profile->name,
			c->profile->name);
		return EXIT_USAGE;
	}
	if (options_print_cmdhelp(stdout, c->cmdhelp_opt)) {
		const char *hint = options_suggest(c->cmdhelp_opt);
		const char *fio = options_fio_only_msg(c->cmdhelp_opt);

		if (fio) {
			fprintf(stderr, "iorig: --cmdhelp: '%s': %s\n",
				c->cmdhelp_opt, fio);
			return EXIT_USAGE;
		}
		fprintf(stderr, "iorig: --cmdhelp: unknown option '%s'%s%s%s\n",
			c->cmdhelp_opt, hint ? "; did you mean '" : "",
			hint ? hint : "", hint ? "'?" : "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --showcmd: each job file as the command line that runs the same. */
static int show_commands(const struct cli *c, struct err_rec *e)
{
	const char **f;
	int ret;

	if (!c->jobfiles[0]) {
		err_set(e, ERR_CMDLINE, 0, "showcmd", "give the job files to "
			"turn into command lines");
		return fail(e);
	}
	for (f = c->jobfiles; *f; f++) {
		struct raw_doc doc = { 0 };

		ret = jobfile_parse_file(&doc, *f, e);
		if (!ret)
			cli_showcmd(stdout, c->fio_mode ? "fio" : "iorig", &doc);
		raw_doc_free(&doc);
		if (ret)
			return fail(e);
	}
	return EXIT_OK;
}

/*
 * --profile=act: the profile's jobs (their sections are the profile's)
 * share one latency table.
 */
static int act_table(const struct cli *c, struct plan *p,
		     struct act_tally **t, struct err_rec *e)
{
	size_t i;

	if (!c->profile || !profile_tallies(c->profile, c->profile_vals))
		return 0;
	*t = act_tally_new(c->profile_vals);
	if (!*t) {
		err_set(e, ERR_PROFILE, 0, "profile", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].plan.section_file &&
		    !strcmp(p->jobs[i].plan.section_file, ERR_PROFILE))
			p->jobs[i].plan.act_tally = *t;
	return 0;
}

/*
 * fio prints act's table on stdout before its report; so does iorig,
 * unless a report for programs (JSON, terse...) goes to stdout: then on
 * stderr, so that the report stays whole.
 */
static void act_report(const struct cli *c, const struct act_tally *t)
{
	bool text_only = c->formats == 1u << (report_format_find("text") -
					       report_formats);

	act_tally_print(c->output || text_only ? stdout : stderr, t);
	fflush(stdout);
}

/* What went to stdout must have arrived: a full disk is an error. */
static int stdout_checked(int code)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return code;
	fprintf(stderr, "iorig: writing to stdout: %s\n", strerror(errno));
	return EXIT_RUNTIME;
}

/*
 * --inflate-log=FILE: a log_store_compressed file's records as the lines
 * of the plain log on stdout (fio's meaning). A file that cannot be read
 * is a usage error (exit 2); bytes that are not such a log a run-time one.
 */
static int inflate_log(const char *path, struct err_rec *e)
{
	FILE *f = fopen(path, "rbe");
	int r;

	if (!f) {
		err_set(e, path, 0, "inflate-log", "cannot open it: %s",
			strerror(errno));
		return fail(e);
	}
	r = iolog_inflate(f, stdout);
	fclose(f);
	if (!r)
		return stdout_checked(EXIT_OK);
	fprintf(stderr, "iorig: --inflate-log: %s: %s\n", path,
		r == -EINVAL ? "not a compressed log of fio's samples (zlib "
		"streams of its records), or cut short" : strerror(-r));
	return EXIT_RUNTIME;
}

/*
 * SIGINT, SIGTERM and SIGHUP (a dropped ssh session) stop the run, which
 * then reports. SIGPIPE and SIGXFSZ are ignored: a closed reader is a
 * write error (EPIPE) of the report or the stream, a file size limit an
 * I/O error (EFBIG) of the job, and neither kills the run unreported.
 */
static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
}

/*
 * Descriptors 0, 1 and 2 are open before anything else is: started with
 * one closed, the first target opened would take its number, and the
 * report or a progress line would be written into it.
 */
static void std_fds_open(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= STDERR_FILENO)
		;
	if (fd > STDERR_FILENO)
		close(fd);
}

/* The baseline and the checks: usage errors, found before anything runs. */
static int plan_checks(const struct cli *c, const struct plan *p,
		       struct baseline *bl, struct check_set *cs,
		       struct peers *pe, struct err_rec *e)
{
	struct check_arg *args;
	size_t i, nchecks;
	int ret;

	if (c->baseline && baseline_load(bl, c->baseline, e))
		return -EINVAL;
	/* MPI ranks: --check judges the cluster (peers_report); read now,
	 * so that a bad one is a usage error before anything runs. */
	if (pe && (ret = cluster_checks_parse((char *const *)c->checks,
					      c->nchecks, e)))
		return ret;
	nchecks = pe ? 0 : c->nchecks;
	args = calloc(nchecks + 1, sizeof(*args));
	if (!args) {
		err_set(e, "", 0, "check", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nchecks; i++) {
		args[i].expr = c->checks[i];
		args[i].argi = cli_arg_index(c, c->checks[i]);
	}
	ret = check_build_hist(cs, p, args, nchecks, c->baseline ? bl : NULL,
			       c->history != NULL, e);
	free(args);
	return ret;
}

/* Failed checks on stderr too: CI logs show them whatever the format. */
static void note_checks(const struct check_report *cr)
{
	char label[300], src[300];
	size_t i;

	for (i = 0; i < cr->nresults; i++) {
		const struct check_result *x = &cr->results[i];

		if (x->status != CHECK_FAIL)
			continue;
		check_unit_label(x->job, label, sizeof(label));
		check_source(x->def, src, sizeof(src));
		fprintf(stderr, "iorig: check failed: job '%s': %s (%s)\n",
			label, x->def->text, src);
	}
}

/* Precedence: a signal, then 1, then 4, then 3 (usage errors never get
 * here). */
static int exit_code(const struct run_result *r)
{
	size_t i;
	int code = EXIT_OK;

	/* r->signo: the report said this much (report()). */
	if (r->signo)
		return 128 + r->signo;
	for (i = 0; i < r->plan->njobs; i++) {
		if (r->stats[i].err || stats_errors(&r->stats[i]))
			return EXIT_RUNTIME;
		if (r->stats[i].verify.mismatches)
			code = EXIT_VERIFY;
	}
	if (code == EXIT_OK && r->checks && r->checks->nfail)
		code = EXIT_CHECK;
	return code;
}

/* --rank-output: this rank's JSON result in PREFIX.RANK.json. */
static int rank_output(const struct cli *c, const struct peers *pe,
		       const char *json, size_t len)
{
	struct door_out o = { .fd = -1 };
	struct err_rec e;
	char *path;
	int ret;

	if (asprintf(&path, "%s.%d.json", c->rank_output, pe->rank) < 0)
		return -ENOMEM;
	ret = door_open(&o, path, "rank-output", DOOR_WHOLE, NULL, &e);
	if (ret) {
		fail(&e);
	} else {
		fwrite(json, 1, len, o.f);
		ret = door_close(&o);
		if (ret)
			fprintf(stderr, "iorig: writing %s: %s\n", path,
				strerror(-ret));
	}
	free(path);
	return ret;
}

/*
 * MPI ranks: this rank's JSON result goes to rank 0, which writes the
 * cluster report (the --output-format formats, the --check checks) to
 * --output. Returns the exit code.
 */
static int peers_report(const struct cli *c, struct run_result *r,
			struct door_out *out, struct peers *pe)
{
	const struct report_format *fmts[REPORT_FORMATS_MAX];
	char *json = NULL, formats[256] = "";
	size_t len = 0, i, nf;
	FILE *m = open_memstream(&json, &len);
	int code, ret = m ? report_json(m, r) : -ENOMEM;

	if (m && fclose(m))
		ret = ret ? ret : -ENOMEM;
	nf = report_formats_ordered(c->formats, fmts);
	for (i = 0; i < nf; i++)
		snprintf(formats + strlen(formats),
			 sizeof(formats) - strlen(formats), "%s%s",
			 formats[0] ? "," : "", fmts[i]->name);
	if (ret) {
		fprintf(stderr, "iorig: rank %d: its JSON result: %s\n",
			pe->rank, strerror(-ret));
		free(json);
		return EXIT_RUNTIME;	/* main's quit tells the others */
	}
	if (c->rank_output && rank_output(c, pe, json, len))
		ret = -EIO;	/* said; the rank's code below */
	code = pe->finish(pe, json, len, ret ? EXIT_RUNTIME : exit_code(r),
			  formats, out->f, (char *const *)c->checks,
			  c->nchecks);
	free(json);
	/* No cluster report (a rank failed, the merge failed): the
	 * previous --output is kept, never replaced by an empty one. */
	if (pe->rank == 0 && !pe->reported) {
		door_discard(out);
		if (c->output)
			fprintf(stderr, "iorig: no cluster report: %s was "
				"left as it was\n", c->output);
		return code ? code : EXIT_RUNTIME;
	}
	if (pe->rank == 0 && (ret = door_close(out))) {
		fprintf(stderr, "iorig: writing the report to %s: %s\n",
			c->output ? c->output : "standard output",
			strerror(-ret));
		return EXIT_RUNTIME;
	}
	return code;
}

static int report(const struct cli *c, struct run_result *r,
		  struct door_out *out, struct peers *pe)
{
	static char fio_version[64];
	const struct report_format *fmts[REPORT_FORMATS_MAX];
	size_t i, nf;
	int ret;

	for (i = 0; i < r->plan->njobs; i++) {
		const struct dir_stats *d = r->stats[i].dir;

		/* MPI ranks: the failure of another one, told by rank 0 */
		if (r->stats[i].err == -ECANCELED && pe && pe->rank)
			continue;
		if (r->stats[i].err)
			fprintf(stderr, "iorig: job '%s': %s\n",
				r->plan->jobs[i].desc.name,
				r->stats[i].err_msg);
		else if (stats_errors(&r->stats[i]))
			/* Went on after them (continue_on_error): exit 1. */
			fprintf(stderr, "iorig: job '%s': continued after %"
				PRIu64 " read and %" PRIu64 " write errors%s "
				"(continue_on_error)\n",
				r->plan->jobs[i].desc.name, d[DDIR_READ].errors,
				d[DDIR_WRITE].errors + d[DDIR_TRIM].errors,
				d[DDIR_TRIM].errors ?
				", trims counted as writes" : "");
		if (r->stats[i].verify.mismatches)
			fprintf(stderr, "iorig: job '%s': %" PRIu64 " of %"
				PRIu64 " blocks did not verify\n",
				r->plan->jobs[i].desc.name,
				r->stats[i].verify.mismatches,
				r->stats[i].verify.blocks_checked);
	}
	if (r->checks)
		note_checks(r->checks);
	/* Read once: the report and the exit code say the same. */
	r->signo = atomic_load(&stop_signal);
	r->version = IORIG_VERSION;
	r->fio_version = cli_version_tag(c, IORIG_VERSION, fio_version,
					 sizeof(fio_version));
	r->terse_version = c->terse_version;
	if (pe)
		return peers_report(c, r, out, pe);
	nf = report_formats_ordered(c->formats, fmts);
	for (i = 0, ret = 0; i < nf && !ret; i++)
		ret = report_write(fmts[i], out->f, r);
	if (ret) {
		/* The stream keeps the first write's errno; else the writer's. */
		ret = out->err ? -out->err : ret;
		door_discard(out);
	} else {
		ret = door_close(out);
	}
	if (ret) {
		fprintf(stderr, "iorig: writing the report to %s: %s\n",
			c->output ? c->output : "standard output",
			strerror(-ret));
		return EXIT_RUNTIME;
	}
	return exit_code(r);
}

/*
 * --output, --stream, --chart (and its .dat and .gp) and --rank-output,
 * before any is created or truncated: what the door allows (door.h),
 * never a file a job uses, never the same file; then every job's own
 * files against all of them (run_check). --stream needs a job with
 * interval=. The targets are validated on the way, and kept in *checked
 * for the run (NULL: not kept). 0, or -errno with e.
 */
static int check_outputs(const struct cli *c, const struct plan *p,
			 const struct peers *pe, struct target **checked,
			 struct err_rec *e)
{
	struct door_name outs[10] = {
		{ .path = (char *)c->output, .option = "output" },
		{ .path = (char *)c->stream, .option = "stream" },
		{ .path = (char *)c->chart, .option = "chart" },
		{ .option = "chart" }, { .option = "chart" },
		{ .option = "rank-output" },
		{ .path = (char *)c->history, .option = "history" },
		{ .option = "history" }, { .option = "history" },
		{ .option = "history" },
	};
	size_t i;
	int r;

	for (i = 0; i < 2; i++) {
		r = door_check(outs[i].path, outs[i].option, NULL, e);
		if (r)
			return r;
	}
	if (c->history && (r = history_check(c->history, "history",
					     c->readonly, e)))
		return r;
	if (c->chart && (r = curve_chart_check(c->chart, e)))
		return r;
	r = -ENOMEM;
	if (c->chart && (asprintf(&outs[3].path, "%.*s.dat",
				  (int)strlen(c->chart) - 4, c->chart) < 0 ||
			 asprintf(&outs[4].path, "%.*s.gp",
				  (int)strlen(c->chart) - 4, c->chart) < 0))
		goto out;
	if (c->rank_output && pe &&
	    asprintf(&outs[5].path, "%s.%d.json", c->rank_output,
		     pe->rank) < 0)
		goto out;
	/* the history and the journals SQLite keeps beside it */
	if (c->history && (asprintf(&outs[7].path, "%s-wal", c->history) < 0 ||
			   asprintf(&outs[8].path, "%s-shm", c->history) < 0 ||
			   asprintf(&outs[9].path, "%s-journal",
				    c->history) < 0))
		goto out;
	r = run_check(p, outs, sizeof(outs) / sizeof(outs[0]), checked, e);
	if (r)
		goto out;
	r = -EINVAL;
	if (c->stream && door_same(c->stream, c->output)) {
		err_set(e, c->stream, 0, "stream", "is also %s; give another "
			"file", c->output ? "--output" : "standard output, where "
			"the report goes");
		goto out;
	}
	if (c->history && (door_same(c->history, c->output) ||
			   door_same(c->history, c->stream) ||
			   door_same(c->history, c->chart))) {
		err_set(e, c->history, 0, "history", "is also where --output, "
			"--stream or --chart goes; give another file");
		goto out;
	}
	if (c->chart && (door_same(c->chart, c->output) ||
			 door_same(c->chart, c->stream))) {
		err_set(e, c->chart, 0, "chart", "is also where --output or "
			"--stream goes; give another file");
		goto out;
	}
	for (i = 0; c->chart && i < p->njobs &&
	     !p->jobs[i].plan.curve_point; i++)
		;
	if (c->chart && i == p->njobs) {
		err_set(e, c->chart, 0, "chart", "no job sets rate_curve=, so "
			"there is no curve to draw");
		goto out;
	}
	for (i = 0; c->stream && i < p->njobs; i++)
		if (p->jobs[i].report.interval_ns)
			break;
	if (c->stream && i == p->njobs) {
		err_set(e, c->stream, 0, "stream", "no job sets interval=, "
			"so there are no samples to stream; add interval=1s "
			"(for example) to the jobs to follow");
		goto out;
	}
	r = 0;
out:
	if (r == -ENOMEM)
		err_set(e, "", 0, "", "out of memory");
	for (i = 3; i < 6; i++)
		free(outs[i].path);
	for (i = 7; i < 10; i++)
		free(outs[i].path);
	return r;
}

/* --chart, after the run and before the report (its warnings go in). */
static int draw_chart(const struct cli *c, struct run_result *r)
{
	struct curve_set cs;
	struct err_rec e;
	int ret = curve_collect(r, &cs);

	if (ret) {
		fprintf(stderr, "iorig: --chart: %s\n", strerror(-ret));
		return ret;
	}
	ret = curve_chart(&cs, c->chart, &r->warnings, &e);
	curve_set_free(&cs);
	if (ret)
		fail(&e);
	return ret;
}

/* Opens --stream (in place: `tail -f` follows it); 0, or -errno with e. */
static int open_stream(const struct cli *c, const struct plan *p,
		       struct door_out *o, struct stream **s, struct err_rec *e)
{
	int ret;

	*s = NULL;
	if (!c->stream)
		return 0;
	ret = door_open(o, c->stream, "stream", DOOR_INPLACE, NULL, e);
	if (ret)
		return ret;
	*s = stream_new(o->f, p);
	if (!*s) {
		door_discard(o);
		err_set(e, c->stream, 0, "stream", "out of memory");
		return -ENOMEM;
	}
	o->f = NULL;		/* the stream's now: stream_close closes it */
	return 0;
}

/* --progress: on stderr, as --progress and the terminal say. */
static struct progress *open_progress(const struct cli *c,
				      struct progress *pr)
{
	bool tty = isatty(STDERR_FILENO);
	const char *term = getenv("TERM");

	if (!progress_wanted(c->progress, tty, term))
		return NULL;
	progress_init(pr, stderr, tty, term, clock_mono_ns());
	return pr;
}

/* The stream's last words: a write that failed is a runtime error. */
static int close_stream(const struct cli *c, struct stream *s, int code)
{
	int ret = stream_close(s);

	if (!ret)
		return code;
	fprintf(stderr, "iorig: writing the stream %s: %s\n", c->stream,
		strerror(-ret));
	return code == EXIT_OK || code == EXIT_CHECK ||
	       code == EXIT_VERIFY ? EXIT_RUNTIME : code;
}

/*
 * --history: the run recorded after its report, with its exit code and
 * its JSON result (the checks' metrics recorded too). A run that cannot
 * be recorded says why and exits 1 (a signal's code stays). --readonly
 * records nothing.
 */
static int record_history(const struct cli *c, struct history *h,
			  const struct check_set *cs,
			  const struct run_result *r, int code)
{
	struct metric *extra = calloc(cs->ndefs + 1, sizeof(*extra));
	char why[512], *json = NULL;
	size_t i, len = 0;
	FILE *m = open_memstream(&json, &len);
	long long id;
	int ret = m && extra ? report_json(m, r) : -ENOMEM;

	if (m && fclose(m))
		ret = ret ? ret : -ENOMEM;
	for (i = 0; extra && i < cs->ndefs; i++)
		extra[i] = cs->defs[i].x.m;
	id = ret ? ret : history_record(h, r, code, json, extra, cs->ndefs,
					why, sizeof(why));
	if (ret)
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	free(json);
	free(extra);
	if (id > 0)
		return code;
	fprintf(stderr, "iorig: --history: %s: the run was not recorded: "
		"%s\n", c->history, why);
	return code == EXIT_OK || code == EXIT_CHECK || code == EXIT_VERIFY ?
	       EXIT_RUNTIME : code;
}

/* --history: opened once the door has checked its names (check_outputs):
 * 0, or -errno with e (exit 2, nothing run). */
static int open_history(const struct cli *c, const struct peers *pe,
			struct history **h, struct err_rec *e)
{
	if (!c->history)
		return 0;
	if (pe) {
		err_set(e, c->history, 0, "history", "is not kept by the "
			"ranks of iorig-mpi; record the merged result's run "
			"with iorig (one host) instead");
		return -EINVAL;
	}
	return history_open(h, c->history, "history", c->readonly, NULL, e);
}

/* iorig's subcommands: `iorig NAME ...` runs NAME's own main on the rest;
 * each is one file of src/face/ whose table of options drives the one
 * argument loop (cmdargs.h). */
static const struct command {
	const char *name;
	int (*main)(int argc, char **argv);
} commands[] = {
	{ "plot", plot_main },		/* plotcmd.c */
	{ "report", report_main },	/* saved.c */
	{ "merge", merge_main },	/* mergecmd.c */
	{ "history", history_main },	/* histcmd.c */
};

/* A run of iorig itself: what main makes, hands on and frees. */
struct session {
	int argc;
	char **argv;
	struct cli c;
	struct peers *pe;
	struct raw_doc doc;
	struct plan p;
	struct err_rec e;
	struct baseline bl;
	struct check_set cs;
	struct check_report cr;
	struct result_set rs;
	struct run_result r;
	struct act_tally *act;
	struct history *hist;
	struct door_out out, sout;
	struct progress prog;
	struct run_watch watch;
};

/*
 * What the command line asks that needs no job: help, version, the
 * commands, inflating a log, and a misplaced --rank-output. Returns the
 * exit code, or -1 when the job files are to be read.
 */
static int session_no_jobs(struct session *s)
{
	struct cli *c = &s->c;
	int code;

	if (c->help || c->version || c->cmdhelp || c->enghelp ||
	    c->debug_help)
		return stdout_checked(info_only(c));
	if (c->rank_output && !s->pe) {
		err_set(&s->e, "", 0, "rank-output", "is for the ranks of "
			"iorig-mpi (under mpirun); iorig writes one result "
			"(--output)");
		return fail(&s->e);
	}
	if (c->showcmd) {
		code = show_commands(c, &s->e);
		return code == EXIT_OK ? stdout_checked(code) : code;
	}
	if (c->inflate_log)
		return inflate_log(c->inflate_log, &s->e);
	return -1;
}

/*
 * The job files read and planned, the plan checked; --merge-only and
 * --parse-only end here. Returns the exit code, or -1 when the plan is
 * to be run.
 */
static int session_plan(struct session *s)
{
	struct plan_filter filter = { .sections = s->c.sections,
				      .globals_ok = s->c.parse_only };
	struct cli *c = &s->c;
	struct plan *p = &s->p;
	size_t i;
	int ret;

	if (!err_list_init(&errs))
		err_collect(&errs);
	ret = build_doc(c, &s->doc, &s->e);
	if (c->debug & cli_debug_bit("parse"))
		debug_parse(&s->doc);
	/* After errors that were collected, the options are still read. */
	if (!ret || (ret == -EINVAL && err_count(&s->e) && !errs.full))
		ret = plan_build(p, &s->doc, &filter, &s->e) || ret;
	if (ret || plan_checks(c, p, &s->bl, &s->cs, s->pe, &s->e))
		return fail(&s->e);
	/* as fio, fio's warnings only (the report keeps them all) */
	p->warnings.as_fio = c->fio_mode;
	warn_print(&p->warnings, stderr);
	/* --readonly: target_plan refuses any layout that would write */
	for (i = 0; i < p->njobs; i++)
		p->jobs[i].plan.readonly = c->readonly;
	if (act_table(c, p, &s->act, &s->e) || fio_guards(c, p, &s->e))
		return fail(&s->e);
	/* the merges of merge_blktrace_file were written by plan_build */
	if (c->merge_only)
		return EXIT_OK;
	if (c->parse_only) {
		print_plan(p);
		return stdout_checked(EXIT_OK);
	}
	return -1;
}

/*
 * The outputs opened (after the targets are checked), the ranks agreed,
 * the plan run. Returns the exit code, or -1 when the run is to be
 * reported.
 */
static int session_run(struct session *s)
{
	struct run_watch *w = &s->watch;
	struct cli *c = &s->c;
	struct peers *pe = s->pe;
	char why[1400];
	int ret;

	install_signals();
	/* Targets are checked before --output or --stream is created, and
	 * planned once for the check and the run, which follows at once
	 * (MPI ranks plan again: they wait for each other in between);
	 * MPI ranks: the cluster report is rank 0's. */
	if (check_outputs(c, &s->p, pe, pe ? NULL : &w->checked, &s->e) ||
	    open_history(c, pe, &s->hist, &s->e) ||
	    open_stream(c, &s->p, &s->sout, &w->stream, &s->e) ||
	    door_open(&s->out, pe && pe->rank ? NULL : c->output, "output",
		      DOOR_WHOLE, NULL, &s->e))
		return fail(&s->e);
	w->progress = open_progress(c, &s->prog);
	if (w->progress)
		progress_periods(&s->prog, c->eta_interval_ns,
				 c->eta_newline_ns);
	w->peers = pe;
	if (pe && pe->agree(pe, NULL, why, sizeof(why))) {
		if (!pe->rank)	/* the failed rank said why */
			fprintf(stderr, "iorig: nothing was run: %s\n", why);
		return EXIT_RUNTIME;
	}
	ret = run_plan_watched(&s->p, &stop_signal, w, &s->r, &s->e);
	w->checked = NULL;	/* the run took them over */
	if (ret)
		return fail(&s->e);
	return -1;
}

/* The run's figures: act's table, the chart, the checks, the report. */
static int session_report(struct session *s)
{
	struct run_result *r = &s->r;
	struct cli *c = &s->c;
	bool chart_failed;
	int code;

	if (s->act)
		act_report(c, s->act);
	r->doc = &s->doc;
	r->profile = c->profile;
	r->profile_vals = c->profile_vals;
	r->argc = s->argc;
	r->argv = s->argv;
	chart_failed = c->chart && draw_chart(c, r);
	/* Once, for the checks and the writer (each falls back alone). */
	if (!result_collect(r, &s->rs))
		r->set = &s->rs;
	s->cs.history = s->hist;
	r->history = s->hist;
	if (check_eval(&s->cs, r, &s->cr))
		fprintf(stderr, "iorig: evaluating the checks: %s\n",
			strerror(ENOMEM));
	else
		r->checks = &s->cr;
	code = close_stream(c, s->watch.stream, report(c, r, &s->out, s->pe));
	if (s->hist && r->checks && !history_readonly(s->hist))
		code = record_history(c, s->hist, &s->cs, r, code);
	else if (s->hist)
		fprintf(stderr, "iorig: --history: %s: the run was not "
			"recorded (%s)\n", c->history, r->checks ?
			"--readonly: the history is only read" :
			"no figures");
	if (chart_failed && (code == EXIT_OK || code == EXIT_CHECK ||
			     code == EXIT_VERIFY))
		code = EXIT_RUNTIME;
	s->watch.stream = NULL;
	if (!r->checks && code < 128)
		code = EXIT_RUNTIME;
	return code;
}

/* Everything a session holds, freed in reverse; returns code. */
static int session_end(struct session *s, int code)
{
	/* MPI ranks: the others are told if this one failed before its
	 * report. */
	if (s->pe)
		code = s->pe->quit(s->pe, code, last_err);
	stream_close(s->watch.stream);
	door_discard(&s->out);	/* after report(): nothing left to do */
	s->r.set = NULL;
	result_set_free(&s->rs);
	run_result_free(&s->r);
	check_report_free(&s->cr);
	check_set_free(&s->cs);
	baseline_free(&s->bl);
	history_close(s->hist);
	run_checked_free(&s->p, s->watch.checked);
	plan_free(&s->p);
	act_tally_free(s->act);
	raw_doc_free(&s->doc);
	cli_free(&s->c);
	err_collect(NULL);
	err_list_free(&errs);
	return code;
}

int main(int argc, char **argv)
{
	struct session s = { .out.fd = -1, .sout.fd = -1 };
	size_t i;
	int code;

	std_fds_open();
	clock_mark();
	for (i = 0; argc > 1 && i < sizeof(commands) / sizeof(*commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	/* iorig-mpi: the ranks (the plain iorig has none) */
	if (peers_mpi_init && !(s.pe = peers_mpi_init(&argc, &argv)))
		exit(EXIT_RUNTIME);
	/* Rank 0 alone writes to stdout (--help, --parse-only, reports). */
	if (s.pe && s.pe->rank && !freopen("/dev/null", "w", stdout))
		exit(EXIT_RUNTIME);
	s.argc = argc;
	s.argv = argv;
	if (cli_parse(&s.c, argc, argv, &s.e))
		code = fail(&s.e);
	else if ((code = session_no_jobs(&s)) < 0 &&
		 (code = session_plan(&s)) < 0 &&
		 (code = session_run(&s)) < 0)
		code = session_report(&s);
	exit(session_end(&s, code));
}
