/* SPDX-License-Identifier: MIT */
#ifndef IORIG_STATS_H
#define IORIG_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "err.h"
#include "hist.h"
#include "interval.h"
#include "job.h"
#include "verify.h"

/* Figures of one direction (read or write) of one job clone or group. */
struct dir_stats {
	uint64_t ios;		/* completed I/Os, errors included */
	uint64_t bytes;		/* bytes actually moved */
	uint64_t errors;	/* I/Os that returned -errno */
	uint64_t short_ios;	/* I/Os that moved less than asked */
	uint64_t submit_done;	/* seen done as the submit call returned */
	/* The first failed I/O of this direction: */
	int first_errno;	/* positive; 0: none */
	uint64_t first_err_offset;	/* within first_err_file */
	const char *first_err_engine;	/* engine name (static), or NULL */
	char first_err_file[256];	/* path, truncated; "" unknown */
	struct hist slat;	/* empty for engines without a submit step */
	struct hist clat;
	struct hist lat;
	/*
	 * Paced jobs (rate=, rate_iops=; src/worker/pace.c): sched_lat is
	 * from the moment an I/O was due by the schedule to its completion
	 * (empty when the direction is not paced). rate_bps is the target
	 * (bytes/s; 0: not paced), rate_iops the target in I/Os per second
	 * when rate_iops= set it (else 0). backlog_ios: I/Os due and not
	 * issued when the job stopped issuing; lag_ns: how late the last
	 * issued I/O was issued after it fell due. Clones add targets and
	 * backlogs; the lag is the largest.
	 */
	struct hist sched_lat;
	double rate_bps;
	double rate_iops;
	uint64_t backlog_ios;
	uint64_t lag_ns;
};

/*
 * A job clone's result, or the sum of several (group_reporting, groups).
 * runtime_ns is the measured phase (after ramp_time) of the clone, which
 * began at start_ns (clock_mono_ns). Merged results of clones that ran in
 * the same phase (wait group) span the union of their windows, from the
 * earliest start to the latest end: their rates are over the time the
 * group took. Across phases (a reporting group split by stonewall) the
 * longest window is kept, as fio does.
 */
struct job_stats {
	struct dir_stats dir[DDIR_NR];
	struct cpu_usage cpu;	/* the job's own threads */
	uint64_t runtime_ns;	/* think and end sync time included */
	uint64_t start_ns;	/* 0: not known (then merged as the longest) */
	unsigned phase;		/* its wait group + 1; 0: not known */
	uint64_t loops_done;
	/*
	 * fsync=N and fdatasync=N calls: their latencies (fio's "sync");
	 * the fsyncs of end_fsync and fsync_on_close are not in it.
	 */
	struct hist sync;
	uint64_t think_ns;	/* thinktime= stalls; merged: summed */
	uint64_t end_sync_ns;	/* end_fsync/fsync_on_close; summed */
	unsigned nclones;	/* how many clones were merged in */
	/*
	 * How many of them reached their measured phase: a clone stopped
	 * during ramp_time measured nothing, and its figures are discarded
	 * (all 0; its errors stay). 0 with nclones > 0: nothing measured,
	 * the report shows no rates and the checks are n/a.
	 */
	unsigned nmeasured;
	int err;		/* first fatal error of the job (-errno), 0 */
	char err_msg[ERR_TEXT_MAX];	/* what failed, for the report */
	bool interrupted;	/* stopped by SIGINT/SIGTERM */
	/*
	 * Still blocked in an I/O when the stop grace period after a signal
	 * ran out: the figures are those of the moment it was given up (the
	 * I/Os then in flight are not counted) and its own CPU is not known.
	 */
	bool abandoned;
	/* Verification reads and what they found; kind NONE: none. */
	struct verify_stats verify;
	/*
	 * interval=: the samples, or NULL. Counted references
	 * (ival_series_put); stats_merge leaves dst's alone, result.c
	 * merges them.
	 */
	struct ival_series *intervals;
};

void stats_init(struct job_stats *s);
void stats_merge(struct job_stats *dst, const struct job_stats *src);
/*
 * The window (*start_ns, *runtime_ns, *phase) joined with src's, as
 * stats_merge joins them: the union in one phase, else the longest.
 */
void stats_window_merge(uint64_t *start_ns, uint64_t *runtime_ns,
			unsigned *phase, const struct job_stats *src);

/* Derived figures; 0 where a denominator is 0. */
double stats_iops(const struct dir_stats *d, uint64_t runtime_ns);
double stats_bw(const struct dir_stats *d, uint64_t runtime_ns); /* B/s */
/* CPU microseconds (user + system) per completed I/O over all dirs. */
double stats_cpu_us_per_io(const struct job_stats *s);
/* Sums over every direction. */
uint64_t stats_ios(const struct job_stats *s);
uint64_t stats_bytes(const struct job_stats *s);
uint64_t stats_errors(const struct job_stats *s);
/*
 * A paced direction met its target when it kept to its schedule: the last
 * I/O it issued went at most STATS_RATE_LAG of the measured runtime after
 * it fell due (on a linear schedule, issuing at 99% of the rate or more).
 * Achieved rates are then the target's up to the drain at the end, and,
 * poisson, the randomness of the schedule itself. False when not paced.
 */
#define STATS_RATE_LAG	0.01
bool stats_rate_met(const struct dir_stats *d, uint64_t runtime_ns);

#endif
