/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CHECK_H
#define IORIG_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "baseline.h"
#include "err.h"
#include "metric.h"
#include "plan.h"

/*
 * Checks: "[JOB:]LHS OP RHS", compared after the run against the figures
 * of each reported unit; any failure gives exit status 3.
 *
 *	LHS := metric | FUNC "(" metric ")"
 *	FUNC := "mean" | "stddev" | "cv" | "min" | "max"
 *	OP  := ">=" | "<=" | ">" | "<" | "==" | "!="
 *	RHS := threshold | "baseline" | F "*baseline" | "baseline*" F
 *
 * metric is as in metric.h. The threshold is read with the unit of the
 * metric (metric_threshold); cv() is a percentage. The functions fold the
 * runs of a repeated job (repeat=N); a plain metric is their mean, and a
 * job without repeat has one run. "baseline" is the same metric of the
 * unit in the --baseline file (plain metrics and mean() only).
 *
 * They are parsed and matched to units when the plan is made (check_build:
 * every usage error is found before anything runs) and evaluated after
 * the run (check_eval), which also computes the repeats statistics and
 * the baseline comparisons the reports print.
 */
enum check_op { CHECK_GE, CHECK_LE, CHECK_GT, CHECK_LT, CHECK_EQ, CHECK_NE };

enum check_func {
	CHECK_F_NONE, CHECK_F_MEAN, CHECK_F_STDDEV, CHECK_F_CV, CHECK_F_MIN,
	CHECK_F_MAX,
};

struct check_expr {
	char scope[JOB_NAME_MAX];	/* "JOB:" prefix; "" none */
	int func;			/* enum check_func */
	struct metric m;
	int op;				/* enum check_op */
	int unit;			/* enum metric_unit of both sides */
	bool baseline;			/* threshold: factor * baseline */
	double factor;
	double threshold;		/* when !baseline */
	unsigned body;			/* offset of the text after the
					 * scope */
};

/*
 * Parse one expression; sizes in thresholds follow kb_base. Returns 0, or
 * -EINVAL/-ERANGE with why quoting text and saying what was expected.
 * Pure: no allocation.
 */
int check_parse(const char *text, unsigned kb_base, struct check_expr *x,
		char *why, size_t whylen);

const char *check_op_text(int op);
/* "mean", "cv", ...; NULL for CHECK_F_NONE. */
const char *check_func_name(int func);

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

/* One check on one reported unit (report_unit_of numbering). */
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
};

/* A --check argument: the expression and its argv index. */
struct check_arg {
	const char *expr;
	int argi;
};

/*
 * The checks of the plan: args (--check, in order), then every job's
 * check= (job.check, located by job.check_src). A check in a job's own
 * section, or one naming a job, is scoped: a direction the job does not
 * do is an error; otherwise such a unit gets "n/a". A scope naming no job,
 * "baseline" without bl or for a unit bl lacks, and a bad expression are
 * errors. Returns 0 or -EINVAL/-ENOMEM with e (the check's file and line
 * or argument, option "check"). Free cs either way.
 */
int check_build(struct check_set *cs, const struct plan *p,
		const struct check_arg *args, size_t nargs,
		const struct baseline *bl, struct err_rec *e);
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
 * The entry of unit i, in the order report_collect() gives the units
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

#endif
