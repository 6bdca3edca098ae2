/* SPDX-License-Identifier: MIT */
#ifndef IORIG_METRIC_H
#define IORIG_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"

/*
 * The metric namespace of checks, repeats and baselines: a name for each
 * figure of a reported unit, read from the same stats and report row the
 * report prints, so a metric's value is what the report shows.
 *
 *	metric := ("read" | "write") "." dfield
 *		| ("read" | "write") "." ("slat" | "clat" | "lat") "." lfield
 *		| "errors" | "cpu.us_per_io" | "cpu.pct" | "runtime"
 *		| "verify.mismatches"
 *		| "health." ("media_errors" | "error_log_entries"
 *			     | "critical_warning" | "percentage_used")
 *	dfield := "iops" | "bw" | "io_bytes" | "ios" | "errors" | "short_ios"
 *	lfield := "min" | "max" | "mean" | "stddev" | "p" NUMBER
 *
 * "p" NUMBER is any percentile 0 < N <= 100 (p50, p99, p99.9), computed
 * from the histogram as the report computes its percentiles.
 */
enum metric_kind {
	/* Per direction. */
	MK_IOPS, MK_BW, MK_IO_BYTES, MK_IOS, MK_DIR_ERRORS, MK_SHORT_IOS,
	MK_HIST,		/* hist and stat say which */
	/* Per unit. */
	MK_ERRORS,		/* read + write */
	MK_CPU_US_PER_IO,	/* the report row's (table us/op) */
	MK_CPU_PCT,		/* the report row's (table cpu%) */
	MK_RUNTIME,
	MK_VERIFY_MISMATCHES,
	/* The NVMe health under the unit's targets (stats_health): n/a in
	 * a check when none is known. */
	MK_HEALTH_MEDIA_ERRORS, MK_HEALTH_ERROR_LOG, MK_HEALTH_WARNING,
	MK_HEALTH_USED,
};

#define METRIC_IS_HEALTH(k)	((k) >= MK_HEALTH_MEDIA_ERRORS && \
				 (k) <= MK_HEALTH_USED)

enum metric_hist { MH_SLAT, MH_CLAT, MH_LAT };
enum metric_stat { MS_MIN, MS_MAX, MS_MEAN, MS_STDDEV, MS_PCT };

/* What a metric's values and thresholds are measured in. */
enum metric_unit {
	MU_COUNT,		/* I/Os, errors, blocks */
	MU_RATE,		/* I/Os per second */
	MU_BYTES,
	MU_BW,			/* bytes per second */
	MU_NS,			/* a time */
	MU_US,			/* microseconds (cpu.us_per_io) */
	MU_PCT,			/* percent */
};

#define METRIC_NAME_MAX	48

struct metric {
	int kind;		/* enum metric_kind */
	int dir;		/* enum ddir; -1 for per-unit kinds */
	int hist;		/* MK_HIST: enum metric_hist */
	int stat;		/* MK_HIST: enum metric_stat */
	double pct;		/* MS_PCT: the percentile */
	char name[METRIC_NAME_MAX];	/* canonical: "read.clat.p99.9" */
};

/*
 * Parse name[0..len) as a metric. Returns 0, or -EINVAL with why saying
 * what was expected.
 */
int metric_parse(const char *name, size_t len, struct metric *m, char *why,
		 size_t whylen);

int metric_unit(const struct metric *m);

/*
 * A threshold for a metric of this unit: counts and rates as value_count
 * ("40k"), bytes as value_size with kb_base, rates of bytes as a size
 * with an optional "/s" ("1.5GiB/s"), times as value_time with bare
 * numbers in ns, microseconds as a time with bare numbers in us,
 * percentages as a number with an optional '%'. Returns 0 or -EINVAL /
 * -ERANGE with why.
 */
int metric_threshold(int unit, const char *s, unsigned kb_base, double *out,
		     char *why, size_t whylen);

/* Format a value of this unit for the text report: "61.23k", "1.50ms". */
void metric_format(int unit, double v, char *buf, size_t len);

/*
 * The headline figures that repeats and baselines report for a unit doing
 * I/O in the directions of dirs (bits 1 << DDIR_*): per direction iops,
 * bw, lat.mean and lat.p99, then cpu.us_per_io. Fills out (room for
 * METRIC_HEADLINE_MAX) and returns how many.
 */
#define METRIC_HEADLINE_MAX	(4 * DDIR_NR + 1)
unsigned metric_headlines(unsigned dirs, struct metric *out);

/* Mean, sample standard deviation (n - 1; 0 when n < 2), coefficient of
 * variation (stddev / mean in percent; 0 when the mean is 0), min, max. */
struct metric_spread {
	unsigned n;
	double mean, stddev, cv_pct, min, max;
};

void metric_spread(const double *v, unsigned n, struct metric_spread *s);

/*
 * v (in the metric unit's own measure: ns, bytes, per second...) as a
 * person reads it, sig significant figures, scaled: "4.44 ms", "61.2k",
 * "1.50 GiB/s", "12.0 %"; counts whole. The check reports (JUnit, HTML)
 * give a check's figures this way.
 */
void metric_fmt(int unit, double v, unsigned sig, char *buf, size_t len);

#endif
