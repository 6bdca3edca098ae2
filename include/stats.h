/* SPDX-License-Identifier: MIT */
#ifndef IORIG_STATS_H
#define IORIG_STATS_H

#include <stdbool.h>
#include <stdint.h>

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
	/* The first failed I/O of this direction: */
	int first_errno;	/* positive; 0: none */
	uint64_t first_err_offset;	/* within first_err_file */
	const char *first_err_engine;	/* engine name (static), or NULL */
	char first_err_file[256];	/* path, truncated; "" unknown */
	struct hist slat;	/* empty for engines without a submit step */
	struct hist clat;
	struct hist lat;
};

struct cpu_usage {
	uint64_t utime_ns;
	uint64_t stime_ns;
	uint64_t vcsw;		/* voluntary context switches */
	uint64_t ivcsw;		/* involuntary */
	uint64_t minflt;
	uint64_t majflt;
};

/*
 * The whole machine's CPU time from /proc/stat, in ns, summed over CPUs:
 * catches interrupt and softirq work done on other CPUs for our I/O.
 */
struct sys_cpu {
	uint64_t user;		/* user + nice */
	uint64_t system;
	uint64_t irq;
	uint64_t softirq;
	uint64_t idle;		/* idle + iowait */
	uint64_t steal;
};

/*
 * CPU of one phase (one wait group: the jobs that ran side by side), from
 * the three sources: the process (RUSAGE_SELF: every thread, io_uring's
 * io-wq and SQPOLL threads included) and the whole system.
 */
struct phase_cpu {
	struct cpu_usage proc;
	struct sys_cpu sys;
	uint64_t wall_ns;
	uint64_t ios;		/* I/Os of all jobs of the phase */
};

/*
 * a - b of a counter read twice, saturating at 0: counters never go
 * back, but a swapped pair must not turn into 2^64.
 */
static inline uint64_t stats_sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Returns 0, or -errno when /proc/stat cannot be read. */
int stats_sys_cpu(struct sys_cpu *c);
void stats_sys_cpu_sub(struct sys_cpu *out, const struct sys_cpu *a,
		       const struct sys_cpu *b);

/*
 * A job clone's result, or the sum of several (group_reporting, groups).
 * runtime_ns is the measured phase (after ramp_time) of the clone; merged
 * results keep the longest runtime, as the clones ran side by side.
 */
struct job_stats {
	struct dir_stats dir[DDIR_NR];
	struct cpu_usage cpu;	/* the job's own threads */
	uint64_t runtime_ns;
	uint64_t loops_done;
	unsigned nclones;	/* how many clones were merged in */
	/*
	 * How many of them reached their measured phase: a clone stopped
	 * during ramp_time measured nothing, and its figures are discarded
	 * (all 0; its errors stay). 0 with nclones > 0: nothing measured,
	 * the report shows no rates and the checks are n/a.
	 */
	unsigned nmeasured;
	int err;		/* first fatal error of the job (-errno), 0 */
	char err_msg[256];	/* what failed, for the report */
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
	 * (ival_series_put); stats_merge leaves dst's alone, report.c
	 * merges them.
	 */
	struct ival_series *intervals;
};

void stats_init(struct job_stats *s);
void stats_merge(struct job_stats *dst, const struct job_stats *src);
/* The calling thread's usage (RUSAGE_THREAD) and the process' (SELF). */
void stats_cpu_thread(struct cpu_usage *c);
void stats_cpu_process(struct cpu_usage *c);
/* dst += add, field by field. */
void stats_cpu_add(struct cpu_usage *dst, const struct cpu_usage *add);
/* a - b, field by field. */
void stats_cpu_sub(struct cpu_usage *out, const struct cpu_usage *a,
		   const struct cpu_usage *b);

/* Derived figures; 0 where a denominator is 0. */
double stats_iops(const struct dir_stats *d, uint64_t runtime_ns);
double stats_bw(const struct dir_stats *d, uint64_t runtime_ns); /* B/s */
/* CPU microseconds (user + system) per completed I/O over both dirs. */
double stats_cpu_us_per_io(const struct job_stats *s);

#endif
