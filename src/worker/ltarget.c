// SPDX-License-Identifier: MIT
/*
 * latency_target: fio's search for the largest queue depth whose I/Os
 * stay within the target. It starts at depth 1; a window
 * (latency_window) with latency_percentile of its I/Os within the target
 * goes up (doubling until a depth fails, then halfway to the lowest that
 * failed), one short of it goes halfway down (after the I/Os in flight
 * are collected). When the depth settles, the stats restart for one
 * last window at it, then the job ends (latency_run: it goes on
 * adjusting). At latency_percentile=100 a single I/O over the target
 * ends the window, and at depth 1 fails the job (ETIMEDOUT).
 *
 * A worker feature (feature.h): each round judges the window, issue holds
 * at the depth allowed, each completion counts, the report gets the depth.
 */
#include <errno.h>

#include "wstate.h"

struct ltarget {
	bool quiesce;		/* wait for nothing in flight: the I/Os of
				 * the depth just left do not judge */
	bool end_run;		/* the last window, at the settled depth */
	unsigned qd;		/* the depth allowed now */
	unsigned low, high;	/* the range searched */
	unsigned stable;	/* one short of a failed depth, in a row */
	uint64_t win_start;	/* ticks: the window's start; 0: none yet */
	uint64_t win_ios;	/* completions at its start */
	uint64_t ios;		/* completions judged */
	uint64_t failed;	/* those of the window over the target */
};

static inline struct ltarget *lt_of(const struct wstate *s)
{
	return wf_state(s, WF_LTARGET);
}

static void lt_new_window(struct wstate *s)
{
	struct ltarget *l = lt_of(s);

	l->win_start = clock_ticks(s->w->clk);
	l->win_ios = l->ios;
	l->failed = 0;
}

/* Depth down; true when it is 1 already */
static bool lt_down(struct wstate *s)
{
	struct ltarget *l = lt_of(s);

	if (l->qd == 1)
		return true;
	l->high = l->qd;
	if (l->qd == l->low)
		l->low--;
	l->qd = (l->qd + l->low) / 2;
	l->stable = 0;
	l->quiesce = true;
	return false;
}

static void lt_up(struct wstate *s)
{
	struct ltarget *l = lt_of(s);
	unsigned qd = l->qd;

	l->low = qd;
	/* One short of a failed depth three times: try that one again */
	if (qd + 1 == l->high && ++l->stable >= 3) {
		l->high++;
		l->stable = 0;
	}
	l->qd = l->high != s->depth ? (qd + l->high) / 2 : qd * 2;
	if (l->qd > s->depth)
		l->qd = s->depth;
	if (!s->j->err.latency_run && l->qd == qd) {
		if (l->end_run) {
			s->stopping = true;
		} else {
			l->end_run = true;
			l->quiesce = true;
		}
	}
	lt_new_window(s);
}

/* A read or write completed with latency lat (ns) */
static void lt_done(struct wstate *s, struct io_req *req,
		    const struct wlat *lat)
{
	struct ltarget *l = lt_of(s);

	if (!lat || req->ddir == DDIR_TRIM)
		return;
	l->ios++;
	/* issued at the depth just left: they do not judge the new one */
	if (lat->lat <= s->j->err.latency_target_ns || l->quiesce)
		return;
	if (s->j->err.latency_percentile < 100.0)
		l->failed++;
	else if (lt_down(s))
		io_error(s, &s->st->dir[req->ddir], req, ETIMEDOUT, lat->lat,
			 "latency_target at depth 1", s->j->err.latency_target_ns);
}

/* Each round of the measured phase: a quiesce done, or a window over */
static void lt_check(struct wstate *s)
{
	struct ltarget *l = lt_of(s);
	uint64_t ios;

	if (s->ramp_end || s->stopping || s->st->err)
		return;
	if (!l->win_start) {
		lt_new_window(s);
		return;
	}
	if (l->quiesce) {
		if (s->inflight || s->queued)
			return;
		l->quiesce = false;
		/* the last window at the settled depth: stats from here */
		if (l->end_run && !s->j->err.latency_run)
			measure_start(s, false);
		lt_new_window(s);
		return;
	}
	if (clock_delta_ns(s->w->clk, l->win_start, clock_ticks(s->w->clk))
	    < s->j->err.latency_window_ns)
		return;
	ios = l->ios - l->win_ios;
	if (!ios)
		return;
	if ((double)(ios - l->failed) * 100.0 / (double)ios >=
	    s->j->err.latency_percentile)
		lt_up(s);
	else if (!lt_down(s))
		return;
	else
		lt_new_window(s);
}

/* No more I/O than the depth allowed, none while quiescing. */
static bool lt_hold(struct wstate *s)
{
	const struct ltarget *l = lt_of(s);

	return l->quiesce || s->inflight >= l->qd;
}

static bool lt_wanted(const struct wstate *s)
{
	return s->j->err.latency_target_ns != 0;
}

static int lt_setup(struct wstate *s)
{
	struct ltarget *l = lt_of(s);

	l->qd = l->low = 1;
	l->high = s->depth;
	return 0;
}

/* The depth found, in the report (ramping, nothing was measured). */
static void lt_end(struct wstate *s, uint64_t end, bool own)
{
	(void)end;
	(void)own;
	if (!s->ramp_end)
		s->st->latency_depth = lt_of(s)->qd;
}

const struct wfeature wf_ltarget = {
	.name = "latency_target",
	.size = sizeof(struct ltarget),
	.wanted = lt_wanted,
	.setup = lt_setup,
	.round = lt_check,
	.hold = lt_hold,
	.done = lt_done,
	.end = lt_end,
};
