/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CHECK_EXPR_H
#define IORIG_CHECK_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "metric.h"

/*
 * Checks: "[JOB:]LHS OP RHS", compared after the run against the figures
 * of each reported unit; any failure gives exit status 3.
 *
 *	LHS := metric | FUNC "(" metric ")"
 *	FUNC := "mean" | "stddev" | "cv" | "min" | "max"
 *	OP  := ">=" | "<=" | ">" | "<" | "==" | "!="
 *	RHS := threshold | "baseline" | F "*baseline" | "baseline*" F
 *	     | HTERM [("+" | "-") HTERM]...
 *	HTERM := [F "*"] HREF | HREF "*" F | threshold
 *	HREF := "history" ["[" N "]"] "." HSTAT
 *	HSTAT := "mean" | "median" | "stddev" | "min" | "max" | "p" NUMBER
 *
 * metric is as in metric.h. The threshold is read with the unit of the
 * metric (metric_threshold); cv() is a percentage. The functions fold the
 * runs of a repeated job (repeat=N); a plain metric is their mean, and a
 * job without repeat has one run. "baseline" is the same metric of the
 * unit in the --baseline file (plain metrics and mean() only).
 * "history.STAT" is STAT over the same metric of the earlier runs of the
 * same job (same options) on the same device model in the --history
 * database; history[N] takes the last N of them (plain metrics and
 * mean() only; history.h); at most two history terms, with any values
 * of the metric's unit added or subtracted (history.max+1ms). pN is the
 * N-th percentile of those runs' figures (linear between the nearest
 * two), stddev the sample's.
 *
 * This is the grammar alone (options.c reads check= with it); check.h
 * binds checks to units and evaluates them.
 */
enum check_op { CHECK_GE, CHECK_LE, CHECK_GT, CHECK_LT, CHECK_EQ, CHECK_NE };

enum check_func {
	CHECK_F_NONE, CHECK_F_MEAN, CHECK_F_STDDEV, CHECK_F_CV, CHECK_F_MIN,
	CHECK_F_MAX,
};

enum check_hstat {
	CHECK_H_MEAN, CHECK_H_MEDIAN, CHECK_H_STDDEV, CHECK_H_MIN,
	CHECK_H_MAX, CHECK_H_PCT,
};

/* factor * STAT over the last `last` runs (0: all) of the history. */
struct check_hterm {
	int stat;			/* enum check_hstat */
	double pct;			/* CHECK_H_PCT */
	double factor;			/* negative after a '-' */
	unsigned last;
};

#define CHECK_HTERMS_MAX	2

struct check_expr {
	char scope[JOB_NAME_MAX];	/* "JOB:" prefix; "" none */
	int func;			/* enum check_func */
	struct metric m;
	int op;				/* enum check_op */
	int unit;			/* enum metric_unit of both sides */
	bool baseline;			/* threshold: factor * baseline */
	double factor;
	double threshold;		/* when !baseline; with nhist, the
					 * sum of the plain values */
	/* + the sum of these terms over the history (nhist > 0) */
	unsigned nhist;
	struct check_hterm hist[CHECK_HTERMS_MAX];
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

/* The longest part of an expression that a message quotes. */
#define CHECK_QUOTE_MAX	80

const char *check_op_text(int op);
/* v OP t. */
bool check_compare(double v, int op, double t);
/* "mean", "cv", ...; NULL for CHECK_F_NONE. */
const char *check_func_name(int func);
/* STAT of the n values v (sorted here); false when n is too few (none;
 * stddev: fewer than 2). */
bool check_hstat(const struct check_hterm *t, double *v, unsigned n,
		 double *out);

#endif
