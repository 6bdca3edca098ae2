// SPDX-License-Identifier: MIT
/*
 * The depth held. A job that asks for iodepth=N keeps N I/Os at the
 * device for as long as it has I/Os to issue: a full queue waits for the
 * first completion (iodepth_batch_complete_min, 1 by default, as fio's),
 * collects what is done by then, and the loop hands the freed slots over
 * at once. Nothing waits for a part of the queue: a wait for an eighth or
 * half of it (iorig's earlier default, which saved wake-ups on devices
 * that completed faster than the CPU submitted) held 13.7 of 16 and 40-44
 * of 64 in flight with libaio where fio held 15.6 and 63.3, and changed
 * the workload on every device that was the bottleneck. What batching is
 * left cannot lower the depth: the completions ready are collected in one
 * call, and the slots they free are refilled in one submitting call.
 *
 * With the batching left to iorig (no iodepth_batch_* option set), an I/O
 * that starts where the last one queued for the same file ends goes into
 * the next submitting call, not the same one (worker.c's issue): inside
 * one call the block layer plugs the batch and merges contiguous
 * requests, so the device would see larger requests than the job asked
 * for. fio, submitting one I/O per call by default, keeps them apart.
 *
 * With a batch option set, the options mean what they mean in fio 3.33:
 * iodepth_batch_submit=B hands I/Os over when B are queued or the queue is
 * full; iodepth_batch_complete_max defaults to iodepth_batch_complete_min
 * (not to iodepth), so that a full queue collects one completion and
 * refills one slot per round. That is what keeps fio's batches from
 * merging: a batch of B sequential writes merges into one request, which
 * completes as one; collecting all of it and refilling B slots in one call
 * merged the next batch again (86.7% of 4 KiB writes merged at
 * iodepth_batch_submit=8, QD32), where one completion at a time breaks the
 * batch up after the first fill.
 *
 * iodepth_low=L, fio's meaning: once the queue is full, completions are
 * collected as they come (no refill) until L or fewer are in flight; then
 * the queue is filled again.
 */
#include <sched.h>

#include "depth.h"
#include "job.h"
#include "stats.h"
#include "target.h"
#include "warn.h"
#include "wstate.h"

/* A job whose depth_mean (its directions added) stays below this share
 * of iodepth gets the warning depth_not_held; only with enough I/Os that filling and
 * draining the queue cannot explain it (their cost is about iodepth / 2
 * I/O times of the runtime, under 3% at DEPTH_MIN_IOS_PER_SLOT). */
#define DEPTH_WARN_PCT		90
#define DEPTH_MIN_IOS_PER_SLOT	16

void depth_setup(struct wstate *s)
{
	const struct job *j = s->j;

	s->dp.submit = j->eng.iodepth_batch_submit ?
			  (unsigned)j->eng.iodepth_batch_submit : s->depth;
	/* 0: never wait for a completion, poll (fio's meaning) */
	s->dp.reap_min = (unsigned)j->eng.iodepth_batch_complete_min;
	/* A thinking job reaps what is done, as fio does (think.c). */
	s->dp.adaptive = !j->eng.iodepth_batch_submit &&
		      !j->eng.iodepth_batch_complete_max && s->depth > 1 &&
		      j->eng.iodepth_batch_complete_min &&
		      !j->time.thinktime_ns;
	if (j->eng.iodepth_batch_complete_max)
		s->dp.reap_max = (unsigned)j->eng.iodepth_batch_complete_max;
	else if (s->dp.adaptive || !s->dp.reap_min)
		s->dp.reap_max = s->depth;
	else
		s->dp.reap_max = s->dp.reap_min;
	if (s->dp.reap_max < s->dp.reap_min)
		s->dp.reap_max = s->dp.reap_min;
}

/*
 * A wait only when the loop cannot issue (the queue is full, the job is
 * ending, verification or a think stall holds it, iodepth_low drains),
 * and then for iodepth_batch_complete_min; the end of a pass waits for
 * every I/O of the old files.
 */
/* The CPUs this thread may run on now (taskset, cpus_allowed=, cpusets);
 * 0: unknown. */
static unsigned cpus_allowed(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 0 :
	       (unsigned)CPU_COUNT(&set);
}

/*
 * A thread that may run on one CPU only shares it with the kernel's
 * threads that do its I/O (io_uring's io-wq workers inherit its CPUs;
 * zram, which never takes a request without blocking, has every read
 * done by them): a wait for one completion then costs a context switch
 * per I/O, the worker's CPU time given to this thread and back (zram,
 * QD32, taskset: 1.0-1.4 switches per I/O, 130-170k IOPS, where
 * t/io_uring -c32 makes 0.06 and 210-290k). There a full queue's wait
 * lingers (engine.h): the kernel is asked for every I/O in flight, and
 * the wait ends at the first completion after DEPTH_LINGER_US (0.065
 * switches per I/O, 185-205k in the same minutes). A device that is the
 * limit completes a few I/Os in that time at most, so the depth it is
 * given barely moves: the I/Os it completes while the wait lingers are
 * refilled that much later, IOPS x DEPTH_LINGER_US / 2 of them on
 * average (0.13 at 4000 IOPS: held 3.99 of 4 and 31.9 of 32, test 271).
 * Only with the batching left to iorig and a wait for one.
 */
#define DEPTH_LINGER_US	64

void depth_linger(struct wstate *s)
{
	s->ctx.reap_linger_us = s->dp.adaptive && s->dp.reap_min == 1 &&
				cpus_allowed() == 1 ? DEPTH_LINGER_US : 0;
}

/*
 * The TSC of one CPU only moves on; CLOCK_MONOTONIC does across CPUs.
 * The TSCs of two CPUs may be out of step, so a thread that moved between
 * its stamps could see them go back (loop.h keeps the checks for it).
 */
void depth_stamps(struct wstate *s)
{
	if (s->ctx.stamps_own && s->ctx.clk->tsc && cpus_allowed() != 1)
		s->ctx.stamps_own = false;
}

unsigned depth_wait(const struct wstate *s)
{
	if (s->pass.wait)
		return s->inflight;
	if (s->inflight >= s->depth || s->stopping || s->ft.holds)
		return min_u(s->dp.reap_min, s->inflight);
	return 0;
}

unsigned depth_reap_max(const struct wstate *s, unsigned min)
{
	unsigned max = s->dp.reap_max < min ? min : s->dp.reap_max;

	return min_u(max, s->inflight);
}

/* What lowers the depth on purpose, or holds it apart from this loop. */
static bool depth_on_purpose(const struct wstate *s)
{
	const unsigned lowering = WF_BIT(WF_PACE) | WF_BIT(WF_THINK) |
		WF_BIT(WF_LTARGET) | WF_BIT(WF_LOWDEPTH) | WF_BIT(WF_FLOW) |
		WF_BIT(WF_REPLAY) | WF_BIT(WF_SYNCS) | WF_BIT(WF_ZBD);

	return (s->ft.wanted & lowering) || (s->ft.loop & WF_SLOW) ||
	       (s->eng->flags & (ENGINE_SYNC | ENGINE_NOIO | ENGINE_NOT_IO)) ||
	       s->depth < 2;
}

/*
 * After the measured phase: warn (depth_not_held) when the job's
 * directions together held less than DEPTH_WARN_PCT% of iodepth on
 * average, saying whether its I/Os completed inside the submitting call
 * (the device kept up with the CPU: no queue can build).
 */
void depth_check(struct wstate *s)
{
	const struct job_stats *st = s->st;
	uint64_t ios = 0, inline_ios = 0;
	double m, sum = 0.0;
	int d;

	if (depth_on_purpose(s) || !s->w->tgt->warn || !st->runtime_ns)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		if (!stats_depth_mean(&st->dir[d], st->runtime_ns, &m))
			return;
		sum += m;
		ios += st->dir[d].ios;
		inline_ios += st->dir[d].submit_done;
	}
	if (ios < (uint64_t)s->depth * DEPTH_MIN_IOS_PER_SLOT ||
	    sum * 100 >= (double)s->depth * DEPTH_WARN_PCT)
		return;
	warn_add(s->w->tgt->warn, "depth_not_held", s->j->desc.name,
		 "job '%s': %.1f I/Os in flight on average of iodepth=%u "
		 "(depth_mean)%s", s->j->desc.name, sum, s->depth,
		 inline_ios * 2 > ios ? ": most completed inside the "
		 "submitting call (the device keeps up with the CPU, no queue "
		 "builds)" : s->ctx.reap_linger_us ? ": the job's one CPU "
		 "also does its I/O, and a full queue there lingers for more "
		 "than one completion (min_wait)" : "");
}
