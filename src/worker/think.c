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
 */
#include <time.h>

#include "cpu.h"
#include "wstate.h"

/* Longest single sleep: a signal's stop is seen within this (the run
 * ends within 100 ms of its signal). */
#define THINK_SLEEP_STEP_NS	20000000ull

void think_cycles(uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		cpu_relax();
}

void think_init(struct wstate *s)
{
	const struct job *j = s->j;

	s->cycles = j->thinkcycles;
	s->think_on = j->thinktime_ns != 0;
	if (!s->think_on)
		return;
	s->think.by_issue = j->thinktime_blocks_type == THINK_ISSUE;
	s->think.iotime = clock_ns_to_ticks(s->w->clk, j->thinktime_iotime_ns);
	/*
	 * With thinktime_iotime, thinktime_blocks left at its default does
	 * not count (fio: when not given at all); 0 acts as 1 (fio would
	 * stall at every look, which is after every I/O).
	 */
	s->think.blocks = j->thinktime_blocks ? j->thinktime_blocks : 1;
	if (s->think.iotime && j->thinktime_blocks == 1)
		s->think.blocks = 0;
	s->think.last_end = s->now;
}

void think_check(struct wstate *s, unsigned issued)
{
	uint64_t n;

	s->think.issued += issued;
	/* Completed: issued and no longer in flight (queued ones are). */
	n = s->think.by_issue ? s->think.issued :
	    s->think.issued - s->inflight;
	if ((s->think.blocks && n - s->think.last >= s->think.blocks) ||
	    (s->think.iotime && s->now - s->think.last_end >=
	     s->think.iotime)) {
		s->think_due = true;
		s->think.at = n;
	}
}

static bool stopped(const struct wstate *s)
{
	return atomic_load_explicit(s->w->stop, memory_order_relaxed);
}

void think_run(struct wstate *s)
{
	const struct clock *clk = s->w->clk;
	uint64_t t0 = clock_ticks(clk), now = t0, ns = s->j->thinktime_ns;
	uint64_t spin = s->j->thinktime_spin_ns, end, left, step;
	struct timespec ts;

	s->think_due = false;
	s->think.last = s->think.at;
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
	s->think.last_end = now;
	pace_thought(s);	/* rate_ignore_thinktime: no catching up */
	if (now > s->now)
		s->now = now;
	if (s->now >= s->tick_next)
		ticks_roll(s, s->now);
}
