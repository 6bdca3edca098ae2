// SPDX-License-Identifier: MIT
/*
 * What a running worker publishes while it runs: the phase and running
 * totals that --progress reads (live_publish, inline in wstate.h, calls
 * live_push once per reap batch when it is read), and the interval= boundaries, closed as completions
 * pass them; the bw_avg_time / iops_avg_time rate samples likewise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wstate.h"

/* What a running worker keeps to publish (wstate.lv), from live_setup. */
struct wlive {
	bool iv_over;		/* the last interval is closed, or failed */
	uint64_t iv_next;	/* ticks: the running interval's end;
				 * UINT64_MAX: none (off, ramping, over) */
	/*
	 * bw_avg_time / iops_avg_time samples: the tick the running period
	 * ends (UINT64_MAX while ramping), when it began, the counters then.
	 */
	uint64_t bw_next, bw_last, bw_period;
	uint64_t iops_next, iops_last, iops_period;
	uint64_t bw_base[DDIR_NR], iops_base[DDIR_NR];
	/* --progress: totals of the phases before the last measure_start */
	uint64_t live_ios[DDIR_NR], live_bytes[DDIR_NR];
	/* interval=: the samples (interval.h), with the worker's series;
	 * NULL when off (the loop's bit WF_INTERVAL in ft.loop) */
	struct ival_rec *irec;
};

int live_setup(struct wstate *s)
{
	s->lv = calloc(1, sizeof(*s->lv));
	if (!s->lv) {
		job_fail(s, -ENOMEM, "rate samples: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	s->lv->iv_next = UINT64_MAX;
	s->lv->bw_next = UINT64_MAX;
	s->lv->iops_next = UINT64_MAX;
	if (!s->w->series)
		return 0;
	s->lv->irec = ival_rec_new(s->w->series);
	if (!s->lv->irec) {
		job_fail(s, -ENOMEM, "cannot allocate %zu bytes for interval "
			 "samples: %s", sizeof(*s->lv->irec),
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	s->ft.loop |= WF_BIT(WF_INTERVAL);
	return 0;
}

void live_free(struct wstate *s)
{
	if (s->lv)
		ival_rec_free(s->lv->irec);
	free(s->lv);
	s->lv = NULL;
}

void live_interval_add(struct wstate *s, int ddir, uint64_t lat)
{
	ival_rec_add(s->lv->irec, ddir, lat);
}

void live_push(struct wstate *s)
{
	struct worker_live *l = &s->w->live;
	unsigned d;

	for (d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&l->ios[d], s->lv->live_ios[d] +
				      s->st->dir[d].ios, memory_order_relaxed);
		atomic_store_explicit(&l->bytes[d], s->lv->live_bytes[d] +
				      s->st->dir[d].bytes,
				      memory_order_relaxed);
	}
	atomic_store_explicit(&l->issued_bytes, s->issued_bytes,
			      memory_order_relaxed);
	atomic_store_explicit(&l->issued_ios, s->issued_ios,
			      memory_order_relaxed);
}

/* Published once per phase: measuring or ramping starts. */
void live_phase(struct wstate *s)
{
	struct worker_live *l = &s->w->live;
	unsigned d;

	if (!s->w->live_on)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		s->lv->live_ios[d] += s->st->dir[d].ios;
		s->lv->live_bytes[d] += s->st->dir[d].bytes;
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
static void interval_arm(struct wstate *s)
{
	uint64_t next = s->t0 + clock_ns_to_ticks(s->w->clk,
					ival_rec_boundary(s->lv->irec));

	s->lv->iv_next = next >= s->deadline ? UINT64_MAX : next;
}

void interval_start(struct wstate *s)
{
	if (!(s->ft.loop & WF_BIT(WF_INTERVAL)))
		return;
	ival_rec_reset(s->lv->irec);
	if (s->ramp_end)
		s->lv->iv_next = UINT64_MAX;
	else
		interval_arm(s);
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
	r = ival_rec_close(s->lv->irec, end_ns, ios, bytes, lat);
	if (r) {
		s->lv->iv_next = UINT64_MAX;
		s->lv->iv_over = true;
		job_fail(s, r, "recording interval samples: %s", strerror(-r));
		return r;
	}
	interval_arm(s);
	return 0;
}

/* Close every interval that ended by tick now (once per boundary). */
void interval_roll(struct wstate *s, uint64_t now)
{
	while (now >= s->lv->iv_next)
		if (interval_close(s, ival_rec_boundary(s->lv->irec)))
			return;
}

/*
 * The job ends at tick end: the last interval, partial, closes there.
 * Stopped while ramping, nothing was measured: no intervals.
 */
void interval_end(struct wstate *s, uint64_t end)
{
	const struct ival_rec *r;
	uint64_t end_ns, start;

	if (!(s->ft.loop & WF_BIT(WF_INTERVAL)) || s->lv->iv_over ||
	    s->ramp_end)
		return;
	interval_roll(s, end);
	if (s->lv->iv_over)
		return;
	end_ns = clock_delta_ns(s->w->clk, s->t0, end);
	r = s->lv->irec;
	start = ival_rec_boundary(r) - r->series->interval_ns;
	/* The last interval, when it has a length or completions. */
	if (end_ns > start ||
	    s->st->dir[DDIR_READ].ios != r->base_ios[DDIR_READ] ||
	    s->st->dir[DDIR_WRITE].ios != r->base_ios[DDIR_WRITE] ||
	    s->st->dir[DDIR_TRIM].ios != r->base_ios[DDIR_TRIM])
		interval_close(s, end_ns);
	s->lv->iv_next = UINT64_MAX;
	s->lv->iv_over = true;
}

void ticks_rearm(struct wstate *s)
{
	uint64_t t = s->lv->iv_next;

	if (s->lv->bw_next < t)
		t = s->lv->bw_next;
	if (s->lv->iops_next < t)
		t = s->lv->iops_next;
	if (s->ramp_end && s->ramp_end < t)	/* see complete_as */
		t = s->ramp_end;
	s->tick_next = t;
}

void samples_start(struct wstate *s)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		s->lv->bw_base[d] = s->lv->iops_base[d] = 0;	/* stats were reset */
	s->lv->bw_last = s->lv->iops_last = s->t0;
	s->lv->bw_period = clock_ns_to_ticks(s->w->clk, s->j->report.bw_avg_ns);
	s->lv->iops_period = clock_ns_to_ticks(s->w->clk,
					       s->j->report.iops_avg_ns);
	if (!s->lv->bw_period)
		s->lv->bw_period = 1;
	if (!s->lv->iops_period)
		s->lv->iops_period = 1;
	s->lv->bw_next = s->ramp_end ? UINT64_MAX : s->t0 + s->lv->bw_period;
	s->lv->iops_next = s->ramp_end ? UINT64_MAX : s->t0 + s->lv->iops_period;
	ticks_rearm(s);
}

/*
 * One sample per direction that completed I/O since the last one (as fio,
 * none for a period without), its rate over the time the period took.
 */
static void sample(struct wstate *s, uint64_t now, bool bw)
{
	uint64_t *base = bw ? s->lv->bw_base : s->lv->iops_base;
	uint64_t *last = bw ? &s->lv->bw_last : &s->lv->iops_last;
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
	next = bw ? &s->lv->bw_next : &s->lv->iops_next;
	period = bw ? s->lv->bw_period : s->lv->iops_period;
	*next += period;
	if (*next <= now)
		*next = now + period;
}

void ticks_roll(struct wstate *s, uint64_t now)
{
	if (now >= s->lv->iv_next)
		interval_roll(s, now);
	if (now >= s->lv->bw_next)
		sample(s, now, true);
	if (now >= s->lv->iops_next)
		sample(s, now, false);
	ticks_rearm(s);
}
