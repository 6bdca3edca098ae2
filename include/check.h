/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CHECK_H
#define IORIG_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "baseline.h"
#include "check_expr.h"
#include "err.h"
#include "plan.h"

/*
 * Checks (check_expr.h has their grammar) are matched to units when the
 * plan is made (check_build: every usage error is found before anything
 * runs) and evaluated after the run (check_eval), which also computes the
 * repeats statistics and the baseline comparisons the reports print.
 */

/* Where a check was given. */
enum check_origin {
	CHECK_CMDLINE,		/* --check */
	CHECK_GLOBAL,		/* check= in a global section */
	CHECK_SECTION,		/* check= in the job's own section */
};

struct check_def {
	char *text;			/* as given */
	int origin;			/* enum check_origin */
	char file[256];			/* ERR_CMDLINE for --check */
	int line;			/* --check: the argv index */
	unsigned kb_base;
	struct check_expr x;
};

/* "command line" or "FILE:LINE", as the reports name a check's source. */
void check_source(const struct check_def *d, char *buf, size_t len);

/* One check on one reported unit (result_unit_of numbering). */
struct check_item {
	size_t def;
	int unit;
	bool na;		/* the unit does no I/O in the metric's
				 * direction (unscoped checks only) */
	double base;		/* x.baseline: the baseline's figure */
};

struct check_set {
	struct check_def *defs;
	size_t ndefs;
	struct check_item *items;	/* by unit, in the order reported */
	size_t nitems;
	const struct baseline *baseline;	/* NULL: no --baseline */
	bool hist_given;			/* --history was given */
	/* The --history database, set after it is opened (the checks are
	 * built first: usage errors before any file is opened). */
	struct history *history;
};

/* A --check argument: the expression and its argv index. */
struct check_arg {
	const char *expr;
	int argi;
};

/*
 * The checks of the plan: args (--check, in order), then every job's
 * check= (job.runs.check, located by job.runs.check_src). A check in a job's
 * own section, or one naming a job, is scoped: a direction the job does not
 * do is an error; otherwise such a unit gets "n/a". A scope naming no job,
 * "baseline" without bl or for a unit bl lacks, and a bad expression are
 * errors. Returns 0 or -EINVAL/-ENOMEM with e (the check's file and line
 * or argument, option "check"). Free cs either way.
 */
int check_build(struct check_set *cs, const struct plan *p,
		const struct check_arg *args, size_t nargs,
		const struct baseline *bl, struct err_rec *e);
/*
 * check_build knowing whether --history was given (hist): without it a
 * check naming history.STAT is an error. The caller sets cs->history
 * (history.h) before check_eval, which reads it.
 */
struct history;
int check_build_hist(struct check_set *cs, const struct plan *p,
		     const struct check_arg *args, size_t nargs,
		     const struct baseline *bl, bool hist,
		     struct err_rec *e);
void check_set_free(struct check_set *cs);

enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_NA };

struct check_result {
	const struct check_def *def;
	int unit;			/* index in the report's units */
	const struct job *job;		/* the unit's first job */
	int status;			/* enum check_status */
	const char *reason;		/* CHECK_NA: why (static text) */
	double value;			/* measured (not CHECK_NA) */
	bool has_threshold;		/* false: a baseline check that is
					 * n/a, so no baseline figure */
	double threshold;
	bool has_base;
	double base;			/* the baseline's figure */
	unsigned hist_runs;		/* a history check: the runs its
					 * threshold was made from */
};

/* One headline figure of a unit (metric_headlines). */
struct check_fig {
	struct metric m;
	double value;			/* the mean of the unit's runs */
	struct metric_spread spread;	/* over the runs that ran */
	double *values;			/* spread.n, in run order */
	bool has_base;			/* the baseline has the figure */
	double base;
	bool has_change;		/* base is not 0 */
	double change_pct;		/* (value - base) / base * 100 */
};

/* What the reports print per unit besides the figures they compute. */
struct check_unit {
	const struct job *job;		/* the unit's first job */
	bool repeated;			/* repeat > 1: a repeats block */
	bool in_baseline;		/* matched: a baseline block */
	unsigned nfigs;
	struct check_fig figs[METRIC_HEADLINE_MAX];
};

struct check_report {
	struct check_result *results;	/* in cs->items order */
	size_t nresults;
	unsigned npass, nfail, nna;
	struct check_unit *units;	/* per report unit */
	int nunits;
	const struct baseline *baseline;
};

struct run_result;

/* Returns 0 or -ENOMEM. Free out either way. */
int check_eval(const struct check_set *cs, const struct run_result *r,
	       struct check_report *out);
void check_report_free(struct check_report *cr);

/*
 * The entry of unit i, in the order result_collect() gives the units
 * (check_eval() follows it), or NULL (cr may be NULL).
 */
const struct check_unit *check_unit_at(const struct check_report *cr,
				       int i);

/*
 * A result as the text and table reports print it, without the status:
 * "seqread: read.iops>=50k  61.23k, threshold 50.00k  (command line)".
 */
void check_result_text(const struct check_result *x, char *buf, size_t len);
/* "PASS", "FAIL" or "n/a". */
const char *check_status_name(int status);

/* "name", "name[sweep point]", then " clone N" for an unmerged clone of a
 * job with numjobs > 1: how the reports name a unit in a check line. */
void check_unit_label(const struct job *j, char *buf, size_t len);

/*
 * The value and threshold of x in its check's unit (metric_fmt), with
 * as many figures as it takes for the two to differ when they do:
 * "4.44 ms" and "50.0 µs"; each buffer len bytes.
 */
void check_fmt_figures(const struct check_result *x, char *value,
		       char *threshold, size_t len);

#endif
