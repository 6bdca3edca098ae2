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
 * this batch ends.
 */
struct wdepth {
	unsigned submit;
	unsigned reap_min, reap_max;
	bool adaptive;
	uint16_t file;
	uint64_t end;
};

/* Once per worker, before its loop: wstate.dp from the job's options. */
void depth_setup(struct wstate *s);

/* After the thread's CPUs are set, before the engine's init(): how long
 * a wait for one completion may linger for more (ctx.reap_linger_us). */
void depth_linger(struct wstate *s);

/* After the engine's init(): ctx.stamps_own kept only where the thread's
 * clock reads are in step: on one CPU, or without the TSC (engine.h). */
void depth_stamps(struct wstate *s);

/* commit_reap(): how many completions to wait for now (0: collect only
 * what is done), and at most how many to collect. */
unsigned depth_wait(const struct wstate *s);
unsigned depth_reap_max(const struct wstate *s, unsigned min);

/* After the measured phase: the warning depth_not_held when a direction
 * held less than 90% of iodepth in flight on average. */
void depth_check(struct wstate *s);

#endif
