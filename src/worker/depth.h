/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WORKER_DEPTH_H
#define IORIG_WORKER_DEPTH_H

/*
 * The depth held (depth.c): how many I/Os a worker hands over per call,
 * how many completions it waits for and collects, so that the depth the
 * job asked for is the depth at the device. Private to src/worker/.
 */
#include <stdbool.h>
#include <stdint.h>

struct wstate;

/*
 * The loop's batching (wstate.dp), set by depth_setup: commit when submit
 * I/Os are queued; reap at least reap_min (when the loop must wait), at
 * most reap_max; adaptive, the default batching left to the worker, which
 * keeps contiguous I/Os apart: end and file, where the last I/O queued in
 * this batch ends (end UINT64_MAX while none is queued: eng_commit).
 */
struct wdepth {
	unsigned submit;
	unsigned reap_min, reap_max;
	bool adaptive;
	uint16_t file;
	uint64_t end;
	/*
	 * The linger's trial (depth.c): left, the completions still to
	 * come before the next look at the clock (INT64_MAX: no trial, the
	 * engine cannot linger), one every check; n, the epoch's so far;
	 * step, the epoch's place in the trial; since, when it began, and
	 * last, the last look (clock ticks); epoch, an epoch's length (ns);
	 * gap, the epoch's longest time between two looks (ns); gapped,
	 * whether a trial's epoch so far was mostly one gap; hold, how
	 * long the last choice is kept (ns), held, whether it lingers;
	 * t_part, n_part, t_all, n_all, t_off, n_off: the time (ns) and
	 * completions of the trial's epochs lingering for part, for
	 * all, and without; on_ns of all_ns: the time it lingered.
	 */
	int64_t left;
	unsigned check;
	uint64_t n;
	unsigned step;
	uint64_t since, last;
	uint64_t epoch, gap;
	bool gapped;
	uint64_t hold;
	bool held;
	uint64_t t_part, n_part, t_all, n_all, t_off, n_off;
	uint64_t on_ns, all_ns;
};

/* Once per worker, before its loop: wstate.dp from the job's options. */
void depth_setup(struct wstate *s);

/* Before the engine's init(): whether a wait for one completion may
 * linger for more (ctx.reap_linger_may): when the job may linger. */
void depth_linger(struct wstate *s);

/* After the engine's init(): the trial starts when the engine can
 * linger (ctx.reap_lingers), lingering off. */
void depth_linger_start(struct wstate *s);

/* The end of a trial's epoch (dp.left reached 0): the clock is read,
 * ctx.reap_linger set for the next. */
void depth_epoch(struct wstate *s);

/* The trial itself, apart from the clock and the worker (the unit test
 * drives it with its own times): started at now (clock ticks) for a
 * queue of depth; one look at now, ns since the epoch began (dp->since)
 * and gap since the last look (dp->last), the waits lingering (on) or
 * not: whether they linger from here. */
void depth_trial_start(struct wdepth *dp, unsigned depth, uint64_t now);
unsigned depth_trial(struct wdepth *dp, unsigned on, uint64_t now,
		     uint64_t ns, uint64_t gap);

/* commit_reap(), after each reap: n completions more. dp is s's own
 * (this header sees no further into struct wstate). */
static inline void depth_count(struct wdepth *dp, struct wstate *s,
			       unsigned n)
{
	dp->left -= n;
	if (dp->left <= 0)
		depth_epoch(s);
}

/* After the engine's init(): ctx.stamps_own kept only where the thread's
 * clock reads are in step: on one CPU, or without the TSC (engine.h);
 * stamps_set keeps what init() said (wstate.h). */
void depth_stamps(struct wstate *s);

/* After the measured phase: the warning depth_not_held when a direction
 * held less than 90% of iodepth in flight on average. */
void depth_check(struct wstate *s);

#endif
