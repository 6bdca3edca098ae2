// SPDX-License-Identifier: MIT
/*
 * What a running worker publishes while it runs: the phase and running
 * totals that --progress reads (live_publish is inline in wstate.h: once
 * per reap batch), and the interval= boundaries, closed as completions
 * pass them; the bw_avg_time / iops_avg_time rate samples likewise.
 */
#include <string.h>

#include "wstate.h"

/* Published once per phase: measuring or ramping starts. */
void live_phase(struct wstate *s)
{
	struct worker_live *l = &s->w->live;
	unsigned d;

	if (!s->w->live_on)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		s->live_ios[d] += s->st->dir[d].ios;
		s->live_bytes[d] += s->st->dir[d].bytes;
	}
	atomic_store_explicit(&l->t0_ns, clock_mono_ns(),
			      memory_order_relaxed);
	atomic_store_explicit(&l->ramping, s->ramp_end != 0,
			      memory_order_relaxed);
}

/*
 * interval=: the tick at which the running interval ends. A boundary at
 * or after the deadline is not one: what completes while the job drains
 * its last I/Os belongs to the last interval, which interval_end closes
 * (else a time_based job would end with a sliver of an interval).
 */
void interval_arm(struct wstate *s)
{
	uint64_t next = s->t0 + clock_ns_to_ticks(s->w->clk,
						  ival_rec_boundary(s->irec));

	s->iv_next = next >= s->deadline ? UINT64_MAX : next;
}

/*
 * interval=: close the running interval at end_ns (from t0) with the
 * totals as they are. Out of memory fails the job, and no more intervals
 * are recorded.
 */
int interval_close(struct wstate *s, uint64_t end_ns)
{
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	const struct hist *lat[DDIR_NR];
	unsigned d;
	int r;

	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *x = &s->st->dir[d];

		ios[d] = x->ios;
		bytes[d] = x->bytes;
		/* Where complete() put lat: finish_figures' rule. */
		lat[d] = x->lat.count ? &x->lat : &x->clat;
	}
	r = ival_rec_close(s->irec, end_ns, ios, bytes, lat);
	if (r) {
		s->iv_next = UINT64_MAX;
		s->iv_over = true;
		job_fail(s, r, "recording interval samples: %s", strerror(-r));
		return r;
	}
	interval_arm(s);
	return 0;
}

/* Close every interval that ended by tick now (once per boundary). */
void interval_roll(struct wstate *s, uint64_t now)
{
	while (now >= s->iv_next)
		if (interval_close(s, ival_rec_boundary(s->irec)))
			return;
}

/*
 * The job ends at tick end: the last interval, partial, closes there.
 * Stopped while ramping, nothing was measured: no intervals.
 */
void interval_end(struct wstate *s, uint64_t end)
{
	uint64_t end_ns, start;

	if (!s->irec || s->iv_over || s->ramp_end)
		return;
	interval_roll(s, end);
	if (s->iv_over)
		return;
	end_ns = clock_delta_ns(s->w->clk, s->t0, end);
	start = ival_rec_boundary(s->irec) - s->irec->series->interval_ns;
	/* The last interval, when it has a length or completions. */
	if (end_ns > start ||
	    s->st->dir[DDIR_READ].ios != s->irec->base_ios[DDIR_READ] ||
	    s->st->dir[DDIR_WRITE].ios != s->irec->base_ios[DDIR_WRITE] ||
	    s->st->dir[DDIR_TRIM].ios != s->irec->base_ios[DDIR_TRIM])
		interval_close(s, end_ns);
	s->iv_next = UINT64_MAX;
	s->iv_over = true;
}

void ticks_rearm(struct wstate *s)
{
	uint64_t t = s->iv_next;

	if (s->bw_next < t)
		t = s->bw_next;
	if (s->iops_next < t)
		t = s->iops_next;
	if (s->ramp_end && s->ramp_end < t)	/* see complete_as */
		t = s->ramp_end;
	s->tick_next = t;
}

void samples_start(struct wstate *s)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		s->bw_base[d] = s->iops_base[d] = 0;	/* stats were reset */
	s->bw_last = s->iops_last = s->t0;
	s->bw_period = clock_ns_to_ticks(s->w->clk, s->j->bw_avg_ns);
	s->iops_period = clock_ns_to_ticks(s->w->clk, s->j->iops_avg_ns);
	if (!s->bw_period)
		s->bw_period = 1;
	if (!s->iops_period)
		s->iops_period = 1;
	s->bw_next = s->ramp_end ? UINT64_MAX : s->t0 + s->bw_period;
	s->iops_next = s->ramp_end ? UINT64_MAX : s->t0 + s->iops_period;
	ticks_rearm(s);
}

/*
 * One sample per direction that completed I/O since the last one (as fio,
 * none for a period without), its rate over the time the period took.
 */
static void sample(struct wstate *s, uint64_t now, bool bw)
{
	uint64_t *base = bw ? s->bw_base : s->iops_base;
	uint64_t *last = bw ? &s->bw_last : &s->iops_last;
	uint64_t ns = clock_delta_ns(s->w->clk, *last, now), v, delta;
	uint64_t *next, period;
	unsigned d;

	for (d = 0; d < DDIR_NR && ns; d++) {
		struct dir_stats *x = &s->st->dir[d];

		v = bw ? x->bytes : x->ios;
		delta = v - base[d];
		if (!delta)
			continue;
		smp_add(bw ? &x->bw_smp : &x->iops_smp,
			(double)delta * 1e9 / (double)ns);
		base[d] = v;
	}
	*last = now;
	/* Periods stay on the grid from t0 (as fio, late samples do not
	 * delay the next); more than a period late, the grid moves. */
	next = bw ? &s->bw_next : &s->iops_next;
	period = bw ? s->bw_period : s->iops_period;
	*next += period;
	if (*next <= now)
		*next = now + period;
}

void ticks_roll(struct wstate *s, uint64_t now)
{
	if (now >= s->iv_next)
		interval_roll(s, now);
	if (now >= s->bw_next)
		sample(s, now, true);
	if (now >= s->iops_next)
		sample(s, now, false);
	ticks_rearm(s);
}
