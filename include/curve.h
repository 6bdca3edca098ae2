/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CURVE_H
#define IORIG_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"
#include "result.h"

/*
 * The latency-throughput curve of a rate_curve= job (src/result/curve.c). The
 * plan lays out a probe (the job without a rate) and one stonewalled point
 * per percent (job.h: curve_point, curve_pct, curve_probe); the run sets
 * each point's rate from the probe's achieved IOPS just before the point
 * starts (curve_set_rate); the writers and the chart read the curve as
 * curve_collect folds it from the run's figures.
 */

/* One point; the probe is pt[0] (pct 0, no target, no sched_lat). */
struct curve_point {
	double pct;		/* of the probe's IOPS; 0: the probe */
	bool ran;		/* a clone of it measured something */
	bool met;		/* every paced direction kept its schedule */
	double target_iops;	/* pct of the probe's achieved IOPS */
	double iops;		/* achieved, both directions */
	uint64_t lat_ns[3];	/* lat (issue to completion) p50, p99, p99.9 */
	uint64_t sched_ns[3];	/* sched_lat (due to completion), the same */
};

struct curve {
	const struct job *job;	/* the probe's first clone */
	unsigned npoints;	/* the probe and the points, in plan order */
	struct curve_point pt[RATE_CURVE_MAX + 1];
};

struct curve_set {
	struct curve *c;
	size_t n;
};

/* The curves of r's rate_curve jobs (a copy of r->curves when a saved
 * result gave them); 0 (n 0: none) or -ENOMEM. */
int curve_collect(const struct run_result *r, struct curve_set *s);
void curve_set_free(struct curve_set *s);

/*
 * Just before point i of plan p starts: its rate_iops (rate, when its
 * block size varies) for each direction it does, curve_pct of what the
 * probe achieved split over its numjobs clones. The plan's job is
 * written: the figures it reports are then those it ran with. Returns 0,
 * or -ECANCELED with why when the probe measured nothing to take a part
 * of (the point is not run).
 */
int curve_set_rate(const struct plan *p, size_t i, const struct run_result *r,
		   char *why, size_t len);

/* "NAME" or "NAME SWEEP-POINT" (the probe's, without "curve=probe"). */
void curve_label(const struct curve *c, char *buf, size_t len);

/* The table of every curve of s (the text report); nothing when none. */
void curve_print(FILE *f, const struct curve_set *s);

/*
 * --chart=FILE.svg: FILE.dat (the points), FILE.gp (a gnuplot script
 * drawing latency against achieved IOPS), then FILE.svg drawn by gnuplot
 * when it is installed (else a warning says how to draw it). Returns 0,
 * or -errno with e when a file cannot be written; gnuplot failing is a
 * warning (code chart_not_drawn) in w.
 */
int curve_chart(const struct curve_set *s, const char *svg,
		struct warn_list *w, struct err_rec *e);
/* FILE.svg names a chart: 0, or -EINVAL with e. */
int curve_chart_check(const char *svg, struct err_rec *e);

#endif
