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
#include <stdio.h>

#include "clock.h"
#include "depth.h"
#include "job.h"
#include "stats.h"
#include "target.h"
#include "warn.h"
#include "wstate.h"

/* A job whose depth_mean (its directions added) stays below this share
 * of iodepth gets the warning depth_not_held; only with enough I/Os that
 * filling and draining the queue cannot explain it (their cost is about
 * iodepth / 2 I/O times of the runtime, under 3% at
 * DEPTH_MIN_IOS_PER_SLOT). */
#define DEPTH_WARN_PCT		90
#define DEPTH_MIN_IOS_PER_SLOT	16

void depth_setup(struct wstate *s)
{
	const struct job *j = s->j;

	s->dp.end = UINT64_MAX;		/* nothing queued (depth.h) */
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
	/* no trial until depth_linger_start finds the engine can linger */
	s->dp.left = INT64_MAX;
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
 * Lingering. A job's thread shares a CPU with the kernel's threads that
 * do its I/O whenever the scheduler puts them together: pinned to one
 * CPU (io_uring's io-wq workers inherit its CPUs), or unpinned beside
 * another process that keeps the other CPUs busy. zram, which never
 * takes a request without blocking, has every read done by io-wq. There
 * a wait for one completion costs a context switch per I/O, the
 * worker's CPU time given to this thread and back (zram, QD32, taskset:
 * 1.0-1.4 switches per I/O, 130-170k IOPS, where t/io_uring -c32 makes
 * 0.06 and 210-290k; unpinned with one CPU busy, 0.51 of t/io_uring's
 * IOPS). A full queue's wait that lingers (engine.h) asks the kernel
 * for an eighth of the I/Os in flight (for part: 4 of 32) or for all of
 * them, with no timer. On a device that is the limit lingering gains
 * nothing and costs depth: the I/Os it completes while the wait lingers
 * are refilled that much later, up to an eighth of the queue for part;
 * for all, the whole queue drains before it is refilled.
 *
 * How to linger depends on where the completer runs. With it on the
 * waiter's CPU, a wait that gathers the whole queue gives up the CPU
 * least. With it on a CPU of its own, that wait drains the queue and
 * the completer idles while the waiter refills it; a wait for part
 * keeps it fed, as fio's t/io_uring -c4 does: unpinned on an idle VM
 * (2026-12-01, zram QD32), 0.88 of t/io_uring -s4 -c4 not lingering,
 * 1.00 with iodepth_batch_complete_min=4 (5 rounds each). Neither arms
 * a timer: the short linger that this wait for part replaced (a 64 us
 * min_wait, 6.12+) armed and cancelled one in each wait, and on a VM
 * that traps each programming of the timer device that cost more than
 * it saved: with the whole queue asked for, a 256 us min_wait made 0.73
 * of t/io_uring's IOPS pinned and 0.74 beside a busy CPU, a plain wait
 * 0.95-0.98 and 0.96-0.98 (15 rounds a series; a test program of 32
 * reads a batch: 312-392k with a 256 us min_wait, 325-410k with a
 * 256 us timeout and no min_wait, 419-487k plain), and unpinned the
 * short linger made 190-250k where not lingering made 380-470k. Where
 * the timer was cheap (2026-11-26), a 256 us min_wait made 0.91 pinned
 * against 0.77 for no linger.
 *
 * So whether and how to linger is not guessed from the job's CPUs:
 * it is tried as the job runs. After a first epoch (the start's
 * transients), a trial counts the completions of epochs of
 * DEPTH_EPOCH_NS each: without lingering, for part, for part, without
 * (the order cancels a steady drift), then two for all; but once an
 * epoch was mostly a gap, in this trial or an earlier one (below: a slow
 * or throttled device), the rest of the trial's epochs are skipped and
 * it does not linger: waits for all drained such a queue (30.95 of QD32
 * held on a loop device throttled to 4000 IOPS, unpinned, test 271,
 * against 31.93 without), and the trial would not linger there anyway.
 * What the epochs for part make says nothing of those for all: on zram
 * pinned, 280k without, 510k for all, and a short linger 330k; under
 * ASan, 240-270k without, 490k for all (a trial that skipped all where
 * the short linger was slower did not linger there). The job then
 * lingers, the faster of the two ways, when its epochs made over DEN /
 * NUM (10%) more I/Os per second than those without (part where they
 * tie), else not, for DEPTH_HOLD_NS (DEPTH_HOLD_EPOCHS epochs at
 * least), and tries again. Lingering that a trial finds
 * again is kept twice as long as the last time, up to DEPTH_HOLD_MAX_NS:
 * the epochs without it cost where it pays (on zram pinned, 4% of a 2 s
 * run at about 60% of the rate: 1.6% of its I/Os with holds of 1 s).
 * A trial's epoch that was mostly one gap between two looks at the
 * clock (over half of it) was shorter than the device's rhythm: a loop
 * device throttled to 4000 IOPS completes bursts of ~400 reads each
 * 100 ms slice, and under ASan, beside a busy CPU, a burst outlasts the
 * epochs, so epochs in a burst and epochs across a silence drew rates
 * 2x apart by their phase alone (lingering chosen in 2 of 6 trials,
 * test 271 failed a sanitizer pass at 0.77 of its run). Such a trial
 * does not linger, and the next one's epochs are twice as long, up to
 * DEPTH_EPOCH_MAX_NS (test_depth drives the trial on made-up bursts).
 * Not lingering is tried again every DEPTH_HOLD_NS: wrongly kept, it
 * costs the most (40-100% of the I/Os, where lingering on a device that
 * is the limit costs a little depth).
 * The first epoch does not linger, pinned or not: lingering from the
 * start on one CPU gained 0.3% of a 2 s zram run, and on a throttled
 * device it moved the first trial's epochs against the throttle's
 * slices (test 271: lingering over 0.8 of a 1 s run once in a
 * sanitizer pass). On the loop device throttled to 4000 IOPS no wait
 * lingers (its first epoch is a gap), 31.93-31.96 of QD32 held (test
 * 271); a fast device that is the limit is lingered on in the trials'
 * four epochs only; zram with its io-wq thread on the job's CPU
 * completes 40-100% more with (measured pinned, and unpinned beside a
 * busy CPU: tests 296 and 271 check both sides). The I/O loop only
 * counts completions down (depth_count, a subtraction per reap); the
 * clock is read once every iodepth completions (DEPTH_CHECK_MIN at
 * least). Only with the batching left to iorig and a wait for one,
 * where the engine can linger (io_uring's rings, not polled).
 */
#define DEPTH_EPOCH_NS		16000000ull
#define DEPTH_EPOCH_MAX_NS	256000000ull
#define DEPTH_HOLD_NS		1000000000ull
#define DEPTH_HOLD_MAX_NS	8000000000ull
#define DEPTH_HOLD_EPOCHS	16
/* lingering is kept when it makes over DEN / NUM the I/Os a second */
#define DEPTH_LINGER_GAIN_NUM	10
#define DEPTH_LINGER_GAIN_DEN	11
/* completions between two looks at the clock: iodepth, at least this */
#define DEPTH_CHECK_MIN		32

/* The trial's steps: CAL, the first epoch; OFF1, PART1, PART2, OFF2,
 * ALL1, ALL2, timed and counted (lingering not, for part, for all);
 * HOLD, the choice kept. */
enum { LG_CAL, LG_OFF1, LG_PART1, LG_PART2, LG_OFF2, LG_ALL1, LG_ALL2,
       LG_HOLD };

/* How each step's waits linger. */
static const unsigned char lg_linger[LG_HOLD + 1] = {
	[LG_PART1] = REAP_LINGER_PART, [LG_PART2] = REAP_LINGER_PART,
	[LG_ALL1] = REAP_LINGER_ALL, [LG_ALL2] = REAP_LINGER_ALL,
};

void depth_linger(struct wstate *s)
{
	s->ctx.reap_linger_may = s->dp.adaptive && s->dp.reap_min == 1;
	s->ctx.reap_linger = 0;
}

void depth_trial_start(struct wdepth *dp, unsigned depth, uint64_t now)
{
	dp->step = LG_CAL;
	dp->hold = DEPTH_HOLD_NS;
	dp->held = false;
	dp->check = depth < DEPTH_CHECK_MIN ? DEPTH_CHECK_MIN : depth;
	dp->left = (int64_t)dp->check;
	dp->n = 0;
	dp->epoch = DEPTH_EPOCH_NS;
	dp->gapped = false;
	dp->gap = 0;
	dp->since = dp->last = now;
}

void depth_linger_start(struct wstate *s)
{
	if (s->ctx.reap_linger_may && s->ctx.reap_lingers)
		depth_trial_start(&s->dp, s->depth, clock_ticks(s->ctx.clk));
}

/* Completions a nanosecond of n in t ns. */
static double depth_rate(uint64_t n, uint64_t t)
{
	return (double)n / (double)(t ? t : 1);
}

unsigned depth_trial(struct wdepth *dp, unsigned on, uint64_t now,
		     uint64_t ns, uint64_t gap)
{
	uint64_t n;
	double off, rp, ra;

	/* the last reap may have gone past the count */
	dp->n += dp->check + (uint64_t)-dp->left;
	dp->left = (int64_t)dp->check;
	dp->last = now;
	if (gap > dp->gap)
		dp->gap = gap;
	if (ns < (dp->step == LG_HOLD ? dp->hold : dp->epoch))
		return on;
	/* a trial's epoch that was mostly one gap between looks: a device
	 * that completes in bursts further apart than the epochs */
	if (dp->gap * 2 > ns && dp->step != LG_CAL && dp->step != LG_HOLD)
		dp->gapped = true;
	dp->gap = 0;
	n = dp->n;
	dp->n = 0;
	dp->since = now;
	dp->all_ns += ns;
	if (on)
		dp->on_ns += ns;
	switch (dp->step) {
	case LG_OFF1:
	case LG_OFF2:
		dp->t_off += ns;
		dp->n_off += n;
		break;
	case LG_PART1:
	case LG_PART2:
		dp->t_part += ns;
		dp->n_part += n;
		break;
	case LG_ALL1:
	case LG_ALL2:
		dp->t_all += ns;
		dp->n_all += n;
		break;
	default:
		dp->t_part = dp->t_off = dp->t_all = 0;
		dp->n_part = dp->n_off = dp->n_all = 0;
	}
	/* no lingering epochs once the epochs were mostly gaps, now or in
	 * an earlier trial (they grew): a slow or throttled device, whose
	 * queue they would lower or drain, and where the trial would not
	 * linger anyway (the rest of its epochs skipped, their n 0) */
	if ((dp->step == LG_OFF1 || dp->step == LG_OFF2) &&
	    (dp->gapped || dp->epoch > DEPTH_EPOCH_NS))
		dp->step = LG_ALL2;
	dp->step = dp->step == LG_HOLD ? LG_OFF1 : dp->step + 1;
	if (dp->step != LG_HOLD)
		return lg_linger[dp->step];
	/* the faster way of lingering against not lingering; epochs
	 * shorter than the device's rhythm tell nothing */
	off = depth_rate(dp->n_off, dp->t_off);
	rp = depth_rate(dp->n_part, dp->t_part);
	ra = depth_rate(dp->n_all, dp->t_all);
	on = 0;
	if (!dp->gapped && (rp > ra ? rp : ra) * DEPTH_LINGER_GAIN_NUM >
			   off * DEPTH_LINGER_GAIN_DEN)
		on = ra > rp ? REAP_LINGER_ALL : REAP_LINGER_PART;
	if (dp->gapped && dp->epoch < DEPTH_EPOCH_MAX_NS)
		dp->epoch *= 2;
	dp->gapped = false;
	/* lingering found again (either way) is kept twice as long; a
	 * hold is DEPTH_HOLD_EPOCHS epochs at least, so that the trial's
	 * four epochs of lingering stay a small share where it pays not */
	if (!on || !dp->held)
		dp->hold = DEPTH_HOLD_NS;
	else if (dp->hold < DEPTH_HOLD_MAX_NS)
		dp->hold *= 2;
	if (dp->hold < dp->epoch * DEPTH_HOLD_EPOCHS)
		dp->hold = dp->epoch * DEPTH_HOLD_EPOCHS;
	dp->held = on != 0;
	return on;
}

void depth_epoch(struct wstate *s)
{
	struct wdepth *dp = &s->dp;
	uint64_t now = clock_ticks(s->ctx.clk);

	s->ctx.reap_linger = depth_trial(dp, s->ctx.reap_linger, now,
		clock_delta_ns(s->ctx.clk, dp->since, now),
		clock_delta_ns(s->ctx.clk, dp->last, now));
}

/*
 * The TSC of one CPU only moves on; CLOCK_MONOTONIC does across CPUs.
 * The TSCs of two CPUs may be out of step, so a thread that moved between
 * its stamps could see them go back (loop.h keeps the checks for it).
 */
void depth_stamps(struct wstate *s)
{
	s->stamps_set = s->ctx.stamps_own;
	if (s->ctx.stamps_own && s->ctx.clk->tsc && cpus_allowed() != 1)
		s->ctx.stamps_own = false;
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
 * The share of the time the job's waits lingered, up to its last
 * completion (the epoch or hold it ended in counted too): false when
 * they never did.
 */
static bool depth_lingered(const struct wstate *s, double *share)
{
	const struct wdepth *dp = &s->dp;
	uint64_t on = dp->on_ns, all = dp->all_ns, tail;

	if (dp->left != INT64_MAX && s->now > dp->since) {
		tail = clock_delta_ns(s->ctx.clk, dp->since, s->now);
		all += tail;
		if (s->ctx.reap_linger)
			on += tail;
	}
	if (!on || !all)
		return false;
	*share = (double)on / (double)all;
	return true;
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
	char why[256] = "";
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
	if (inline_ios * 2 > ios)
		snprintf(why, sizeof(why), ": most completed inside the "
			 "submitting call (the device keeps up with the CPU, "
			 "no queue builds)");
	else if (depth_lingered(s, &m))
		snprintf(why, sizeof(why), ": a full queue lingered for more "
			 "than one completion (an eighth of the queue, or the "
			 "whole queue) %.0f%% of the time, "
			 "in its trials and where they found that to complete "
			 "more I/Os per second (the job's CPU also does its "
			 "I/O)", 100.0 * m);
	warn_add(s->w->tgt->warn, "depth_not_held", s->j->desc.name,
		 "job '%s': %.1f I/Os in flight on average of iodepth=%u "
		 "(depth_mean)%s", s->j->desc.name, sum, s->depth, why);
}
