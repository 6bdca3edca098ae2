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
#include "steady.h"
#include "verify.h"

/*
 * Rate samples (fio's bw and IOPS statistics): one value per period of
 * bw_avg_time / iops_avg_time in which the direction completed I/O, the
 * rate over the time the period actually took (completions close it, so
 * it may run a little long). Welford's running mean; m2 the sum of
 * squared deviations. Merged clones add up as fio's group_reporting adds
 * them: min, max and mean summed (the group's rate), variances summed.
 */
struct smp_stat {
	uint64_t n;
	double min, max, mean, m2;
};

void smp_add(struct smp_stat *s, double v);
void smp_merge(struct smp_stat *dst, const struct smp_stat *src);
double smp_stddev(const struct smp_stat *s);	/* sample (n - 1); 0 */

/*
 * Queue depth distributions, fio's iodepth_level, iodepth_submit and
 * iodepth_complete. level[i]: I/Os handed over while the queue (these
 * included) held [2^i, 2^(i+1)) I/Os, the last bucket 64 and more;
 * submit[i] / complete[i]: calls that handed over / collected 0, 1-4,
 * 5-8, 9-16, 17-32, 33-64, more than 64 I/Os. inline_ios: I/Os the
 * engine completed inside the queueing call, each one submit and one
 * complete of 1 (folded in by stats_depth_fold, off the hot path).
 */
#define DEPTH_NB	7
struct depth_dist {
	uint64_t level[DEPTH_NB];
	uint64_t submit[DEPTH_NB];
	uint64_t complete[DEPTH_NB];
	uint64_t inline_ios;
};

/* Bucket of a queue depth n >= 1: 1, 2-3, 4-7, .. 32-63, 64+. */
static inline unsigned depth_level_idx(unsigned n)
{
	unsigned b = n ? 31u - (unsigned)__builtin_clz(n) : 0;

	return b < DEPTH_NB - 1 ? b : DEPTH_NB - 1;
}

/* Bucket of a batch of n: 0, 1-4, 5-8, 9-16, 17-32, 33-64, 65+. */
static inline unsigned depth_batch_idx(unsigned n)
{
	unsigned b;

	if (n <= 4)
		return n ? 1 : 0;
	b = 31u - (unsigned)__builtin_clz(n - 1);	/* 2.. */
	return b < DEPTH_NB - 1 ? b : DEPTH_NB - 1;
}

/* The buckets' names, fio's keys: "1".."32", ">=64"; "0".."64", ">=64". */
extern const char *const depth_level_keys[DEPTH_NB + 1];
extern const char *const depth_batch_keys[DEPTH_NB + 1];

/* d's submit and complete counts with inline_ios folded in. */
void stats_depth_fold(const struct depth_dist *d, uint64_t *submit,
		      uint64_t *complete);

/* Figures of one direction (read or write) of one job clone or group. */
struct dir_stats {
	uint64_t ios;		/* completed I/Os, errors included */
	uint64_t bytes;		/* bytes actually moved */
	uint64_t errors;	/* I/Os that returned -errno */
	uint64_t short_ios;	/* I/Os that moved less than asked */
	uint64_t dropped_ios;	/* net, UDP: blocks the sender numbered
				 * that never arrived */
	uint64_t submit_done;	/* seen done as the submit call returned */
	uint64_t ramp_ios;	/* of ios: issued while ramp_time ran, done
				 * after (fio counts their bytes, not them) */
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
	/* bw_avg_time / iops_avg_time samples: B/s and I/Os per s */
	struct smp_stat bw_smp, iops_smp;
	/*
	 * A cluster's direction (iorig merge, MPI ranks): its members ran
	 * side by side, so its rates are theirs added (agg_iops, agg_bw:
	 * what stats_iops and stats_bw give), and a paced one met its target
	 * when each member did (agg_met: stats_rate_met). agg false: the
	 * figures of one run, whose rates are its I/Os over its runtime.
	 */
	bool agg;
	bool agg_met;
	double agg_iops, agg_bw;
};

/*
 * cmdprio (fio's per-priority figures): the latencies of each I/O
 * priority a direction's I/Os went at, for reads and writes that cmdprio
 * gives a priority to (trims never have one). Entry 0 is the job's own
 * priority (procattr_ioprio: the I/Os cmdprio left alone), the others
 * each value cmdprio gives once, in the order first met. The latency
 * kept is fio's: lat with lat_percentiles=1, else clat.
 */
struct prio_lat {
	uint16_t ioprio;	/* class << 13 | hint << 3 | level */
	struct hist h;
};

struct prio_stats {
	bool lat;		/* h is lat, else clat */
	unsigned n[DDIR_NR];
	struct prio_lat *v[DDIR_NR];
};

/* An empty set with no entry; NULL when out of memory. */
struct prio_stats *prio_stats_new(bool lat);
void prio_stats_free(struct prio_stats *p);
/* The entry of ioprio in direction d, added (empty) when missing: 0, or
 * -ENOMEM. */
int prio_stats_entry(struct prio_stats *p, unsigned d, uint16_t ioprio);
/* Every histogram emptied, the entries kept. */
void prio_stats_reset(struct prio_stats *p);
/* *dst (NULL: made) += src's entries of direction sd into dd, matched by
 * ioprio: 0, or -ENOMEM. */
int prio_stats_merge(struct prio_stats **dst, unsigned dd,
		     const struct prio_stats *src, unsigned sd);

/* Hot path: one completion of direction d at priority ioprio (0: the
 * job's own, entry 0); a priority without an entry is not counted. */
static inline void prio_stats_add(struct prio_stats *p, unsigned d,
				  uint16_t ioprio, uint64_t ns)
{
	unsigned i;

	if (!ioprio) {
		if (p->n[d])
			hist_add(&p->v[d][0].h, ns);
		return;
	}
	for (i = 0; i < p->n[d]; i++)
		if (p->v[d][i].ioprio == ioprio) {
			hist_add(&p->v[d][i].h, ns);
			return;
		}
}

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
	struct depth_dist depth;	/* queue depths; merged: summed */
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
	/* latency_target: the queue depth the search settled on (the
	 * largest of the clones'); 0: no latency_target */
	unsigned latency_depth;
	/*
	 * Still blocked in an I/O when the stop grace period after a signal
	 * ran out: the figures are those of the moment it was given up (the
	 * I/Os then in flight are not counted) and its own CPU is not known.
	 */
	bool abandoned;
	/* Verification reads and what they found; kind NONE: none. */
	struct verify_stats verify;
	/*
	 * The verification reads as a direction's figures (ios, bytes,
	 * errors, latencies; no rate samples), never in dir[DDIR_READ]:
	 * fio issues them as reads and counts them there, and its layouts
	 * add them (src/report/fio_int.h). vphase_ns: the time of the
	 * verification after the measured phase (the rest of the backlog,
	 * do_verify's reads), which fio adds to its read runtime. Merged:
	 * vread added, vphase_ns the longest.
	 */
	struct dir_stats vread;
	uint64_t vphase_ns;
	/*
	 * interval=: the samples, or NULL. Counted references
	 * (ival_series_put); stats_merge leaves dst's alone, result.c
	 * merges them.
	 */
	struct ival_series *intervals;
	/* The CPUs the clone's thread was allowed (sched_getaffinity, after
	 * cpus_allowed=), as a list; "" when not known. */
	char cpus[64];
	/*
	 * steadystate (steady.h): the clone's window and verdict, or NULL.
	 * Owned by the run's per-clone stats (run_result_free frees it);
	 * a merge borrows the first clone's.
	 */
	struct steady_rec *steady;
	/*
	 * cmdprio: the latencies per I/O priority, or NULL. A clone's
	 * own (run_result_free frees it); merges leave it alone:
	 * result_unit_prios merges a unit's.
	 */
	struct prio_stats *prio;
	/*
	 * zonemode=zbd: the zones of the job's region before and after, or
	 * NULL. Owned as steady is (run_result_free frees a clone's; a
	 * merge borrows the first clone's).
	 */
	struct zbd_stats *zbd;
	/*
	 * The NVMe namespaces under the job's targets (nvmedev.h): how
	 * their controllers' media errors and error log entries grew over
	 * the run, their critical warning and wear after it; known false:
	 * none under them (or unreadable). Merged: the largest (the clones
	 * of a job share their devices), warnings or'ed.
	 */
	struct stats_health {
		bool known;
		uint64_t media_errors, error_log_entries;
		uint8_t critical_warning, percentage_used;
	} health;
	/* A cluster's (see dir_stats.agg): the headline rates of all its
	 * directions, the members' added (result_row). */
	bool agg;
	double agg_iops, agg_bw;
};

/*
 * zonemode=zbd's record (src/worker/zoned.c): per zone of the job's region
 * (its files' zones one file after the other) its file, its start,
 * capacity and type, and at [0] the start of the job, at [1]
 * its end, the condition (linux/blkzoned.h's codes; zbd.h names them)
 * and the bytes written from its start (wp). model: 0 zones emulated, 1
 * host-aware, 2 host-managed (zbd.h).
 */
struct zbd_zone_rec {
	uint64_t start, cap;
	uint64_t wp[2];
	uint8_t type, cond[2];
	uint32_t name;			/* its file's: names + name */
};

struct zbd_stats {
	int model;
	uint64_t zone_size;
	unsigned max_open;		/* the limit in force; 0: none */
	unsigned max_open_seen;		/* most zones open at once */
	uint64_t resets;		/* zone resets the job issued */
	unsigned n;
	/* the job's files' paths, each ending in a NUL, in the record's
	 * own allocation (after z[]; NULL: none known) */
	const char *names;
	struct zbd_zone_rec z[];
};

void stats_init(struct job_stats *s);
/* stats_init of an s already all zero bytes (calloc): the rest only. */
void stats_init_zeroed(struct job_stats *s);
/* d empty: no I/O, its histograms empty. */
void stats_dir_init(struct dir_stats *d);
/* dst += src: counters, histograms, first error. */
void stats_dir_merge(struct dir_stats *dst, const struct dir_stats *src);
/* unified_rw_reporting: reads and writes of s as one direction. */
void stats_mixed(struct dir_stats *out, const struct job_stats *s);
void stats_merge(struct job_stats *dst, const struct job_stats *src);
/* A clone's verification figures into dst (a unit's, a cluster's). */
void verify_stats_merge(struct verify_stats *dst,
			const struct verify_stats *src);
/* h takes s's health: the largest figures, the warnings or'ed. */
void stats_health_merge(struct stats_health *h, const struct stats_health *s);
/*
 * The window (*start_ns, *runtime_ns, *phase) joined with src's, as
 * stats_merge joins them: the union in one phase, else the longest.
 */
void stats_window_merge(uint64_t *start_ns, uint64_t *runtime_ns,
			unsigned *phase, const struct job_stats *src);

/* Derived figures; 0 where a denominator is 0; a cluster's: agg_*. */
double stats_iops(const struct dir_stats *d, uint64_t runtime_ns);
double stats_bw(const struct dir_stats *d, uint64_t runtime_ns); /* B/s */
/*
 * The time-averaged number of I/Os of the direction in flight over the
 * runtime (depth_mean): by Little's law, the sum of their clat (from the
 * submitting call's return to the completion seen) over the runtime.
 * A clone's, or the sum of the clones' over the longest runtime. false
 * when unknown (clat not recorded: disable_clat, gtod_reduce).
 */
bool stats_depth_mean(const struct dir_stats *d, uint64_t runtime_ns,
		      double *mean);
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
