// SPDX-License-Identifier: MIT
/*
 * thinktime=: a job that stalls between I/Os, as an application that
 * does something with the data would, with fio's meaning. After
 * thinktime_blocks I/Os (completed, or issued with
 * thinktime_blocks_type=issue), or after thinktime_iotime of I/O since
 * the last stall, the worker stops issuing, lets the I/Os in flight
 * complete, spins on the CPU for thinktime_spin, then sleeps the rest of
 * thinktime. The stall is part of the runtime (the rates count it) and
 * its time is reported as think_ns. runtime= cuts a stall short.
 *
 * The count at which a stall fell due is the base of the next one, as in
 * fio: with thinktime_blocks_type=complete, I/Os that complete while the
 * queue drains count toward the next stall.
 *
 * thinkcycles=N (fio 3.36 and later): after each read or write issued,
 * N iterations of the CPU's spin-wait hint (pause on x86, yield on arm),
 * with I/Os in flight and no clock read: a CPU-bound think of a fixed
 * amount of work rather than of time. Independent of thinktime.
 *
 * A worker feature (feature.h): a round looks whether a stall fell due
 * with the I/Os completed, issuing looks with each I/O issued; a stall
 * due holds issue (commit_reap waits meanwhile) until nothing is in
 * flight, then runs in the hold, and issue goes on.
 */
#include <time.h>

#include "cpu.h"
#include "wstate.h"

/* Longest single sleep: a signal's stop is seen within this (the run
 * ends within 100 ms of its signal). */
#define THINK_SLEEP_STEP_NS	20000000ull

struct think {
	bool on;		/* thinktime= */
	bool due;		/* stall once nothing is in flight */
	bool started;		/* last_end is set */
	bool by_issue;		/* thinktime_blocks_type=issue */
	uint64_t blocks;	/* 0: only thinktime_iotime */
	uint64_t iotime;	/* ticks; 0: off */
	uint64_t issued;	/* I/Os issued since the job started */
	uint64_t last;		/* the count at the last stall */
	uint64_t at;		/* the count when the due one was due */
	uint64_t last_end;	/* ticks: the end of the last stall */
	uint64_t cycles;	/* thinkcycles=; 0: off */
};

static inline struct think *think_of(const struct wstate *s)
{
	return wf_state(s, WF_THINK);
}

static void think_cycles(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		cpu_relax();
}

static bool think_wanted(const struct wstate *s)
{
	return s->j->time.thinktime_ns || s->j->time.thinkcycles;
}

static int think_setup(struct wstate *s)
{
	const struct job *j = s->j;
	struct think *t = think_of(s);

	t->cycles = j->time.thinkcycles;
	t->on = j->time.thinktime_ns != 0;
	if (!t->on)
		return 0;
	t->by_issue = j->time.thinktime_blocks_type == THINK_ISSUE;
	t->iotime = clock_ns_to_ticks(s->w->clk, j->time.thinktime_iotime_ns);
	/*
	 * With thinktime_iotime, thinktime_blocks left at its default does
	 * not count (fio: when not given at all); 0 acts as 1 (fio would
	 * stall at every look, which is after every I/O).
	 */
	t->blocks = j->time.thinktime_blocks ? j->time.thinktime_blocks : 1;
	if (t->iotime && j->time.thinktime_blocks == 1)
		t->blocks = 0;
	return 0;
}

/* The run starts: the first stall's iotime counts from here. */
static void think_start(struct wstate *s)
{
	struct think *t = think_of(s);

	if (!t->started) {
		t->last_end = s->now;
		t->started = true;
	}
}

/* After an I/O was issued (issued 1) or completions were collected (0):
 * a stall falls due. */
static void think_check(struct wstate *s, unsigned issued)
{
	struct think *t = think_of(s);
	uint64_t n;

	t->issued += issued;
	/* Completed: issued and no longer in flight (queued ones are). */
	n = t->by_issue ? t->issued : t->issued - s->inflight;
	if ((t->blocks && n - t->last >= t->blocks) ||
	    (t->iotime && s->now - t->last_end >= t->iotime)) {
		t->due = true;
		t->at = n;
		s->ft.holds |= WF_BIT(WF_THINK);
	}
}

static bool stopped(const struct wstate *s)
{
	return atomic_load_explicit(s->w->stop, memory_order_relaxed);
}

/* The stall itself, with nothing in flight; moves s->now past it. */
static void think_run(struct wstate *s)
{
	const struct clock *clk = s->w->clk;
	struct think *t = think_of(s);
	uint64_t t0 = clock_ticks(clk), now = t0, ns = s->j->time.thinktime_ns;
	uint64_t spin = s->j->time.thinktime_spin_ns, end, left, step;
	struct timespec ts;

	t->due = false;
	s->ft.holds &= ~WF_BIT(WF_THINK);
	t->last = t->at;
	if (s->deadline != UINT64_MAX) {
		left = clock_delta_ns(clk, t0, s->deadline);
		if (ns > left)
			ns = left;
	}
	if (spin > ns)
		spin = ns;
	end = t0 + clock_ns_to_ticks(clk, spin);
	while (now < end && !stopped(s))
		now = clock_ticks(clk);
	end = t0 + clock_ns_to_ticks(clk, ns);
	while (now < end && !stopped(s)) {
		step = clock_delta_ns(clk, now, end);
		if (step > THINK_SLEEP_STEP_NS)
			step = THINK_SLEEP_STEP_NS;
		ts.tv_sec = (time_t)(step / 1000000000ull);
		ts.tv_nsec = (long)(step % 1000000000ull);
		nanosleep(&ts, NULL);
		now = clock_ticks(clk);
	}
	s->st->think_ns += clock_delta_ns(clk, t0, now);
	t->last_end = now;
	pace_thought(s);	/* rate_ignore_thinktime: no catching up */
	if (now > s->now)
		s->now = now;
	if (s->now >= s->tick_next)
		ticks_roll(s, s->now);
}

/* Each round: the completions collected since the last look count. */
static void think_round(struct wstate *s)
{
	struct think *t = think_of(s);

	if (t->on && !t->due)
		think_check(s, 0);
}

/* A stall due holds issue while I/Os are in flight, then runs. */
static bool think_hold(struct wstate *s)
{
	if (!think_of(s)->due)
		return false;
	if (s->inflight || s->queued)
		return true;
	think_run(s);
	return false;
}

static void think_issued(struct wstate *s, struct io_req *req, int ddir,
			 int r)
{
	struct think *t = think_of(s);

	(void)req;
	(void)r;
	if (t->on)
		think_check(s, 1);
	if (t->cycles && ddir != DDIR_TRIM)
		think_cycles(t->cycles);
}

const struct wfeature wf_think = {
	.name = "thinktime",
	.size = sizeof(struct think),
	.wanted = think_wanted,
	.setup = think_setup,
	.start = think_start,
	.round = think_round,
	.hold = think_hold,
	.issued = think_issued,
};
