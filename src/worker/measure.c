// SPDX-License-Identifier: MIT
/*
 * The measured phase of a worker: its start (the start, the end of
 * ramp_time, latency_target's settled depth), a run that ends while
 * ramping, and its figures at the end, on the worker's thread (finish)
 * or on the one that gave up on it (worker_abandon).
 */
#include <stdatomic.h>
#include <string.h>

#include "depth.h"
#include "iolog.h"
#include "wstate.h"

/*
 * ramp_time is over: the requests then in flight (those not in the free
 * list; t_queue of the free ones is cleared to tell them apart, issuing
 * sets it again) are counted by direction in ramp_ios.
 */
static void ramp_carry(struct wstate *s)
{
	unsigned i;

	for (i = 0; i < s->nfree; i++)
		s->free_reqs[i]->t_queue = 0;
	for (i = 0; i < s->depth; i++)
		if (s->reqs[i].t_queue)
			s->st->dir[s->reqs[i].ddir].ramp_ios++;
}

/*
 * Stats restart here: the start, the end of ramp_time, or latency_target's
 * settled depth. The work to do restarts at the start and with
 * latency_target; at the end of ramp_time it goes on (fio's meaning: the
 * ramp's bytes count inside size=, and number_ios counts what is in
 * flight then and what is issued after).
 */
void measure_start(struct wstate *s, bool carry_on)
{
	const struct job *j = s->j;

	live_phase(s);
	stats_init(s->st);
	s->st->nmeasured = !s->ramp_end;
	s->t0 = s->now;
	s->pass.left = 0;	/* the limits and the counts change here */
	if (s->iolog)
		iolog_start(s->iolog, s->t0);
	if (carry_on) {
		s->issued_ios = s->inflight;
		ramp_carry(s);
	} else {
		s->issued_bytes = 0;
		s->pass.short_bytes = 0;
		s->issued_ios = 0;
		/* unlink_each_loop makes the files again between loops */
		s->pass.next = recreates(j) && s->pass.per_loop ? s->pass.per_loop :
			       UINT64_MAX;
		s->pass.drop = !j->cache.direct && s->guard.on && !recreates(j);
	}
	if (s->ft.loop & WF_BIT(WF_HALT))
		ctl_arm(s);
	/* runtime= counts from the end of ramp_time, as fio's */
	s->deadline = j->time.runtime_ns && !s->ramp_end ?
		s->t0 + clock_ns_to_ticks(s->w->clk, j->time.runtime_ns) :
		UINT64_MAX;
	wf_start(s);
	interval_start(s);
	samples_start(s);
	worker_window_mark(s->w, false);
	cpu_thread(&s->cpu0.job);
	memset(&s->cpu0.eng, 0, sizeof(s->cpu0.eng));
	if (s->eng->cpu) {
		/* A pool thread stuck in an I/O answers late. */
		call_enter(s);
		s->eng->cpu(&s->ctx, &s->cpu0.eng);
		call_leave(s);
	}
}

/*
 * ramp_time is over, seen at the first completion or issue past it (as
 * fio sees it): the measured phase starts.
 */
void ramp_over(struct wstate *s)
{
	s->ramp_end = 0;
	measure_start(s, true);
}

/*
 * The job's work was all issued while it ramped: fio's stats restart only
 * when ramp_time is over, so the whole run is its measurement (its
 * intervals and samples, off while ramping, stay off).
 */
void ramp_whole(struct wstate *s)
{
	s->ramp_end = 0;
	s->st->nmeasured = 1;
	if (s->w->live_on)
		atomic_store_explicit(&s->w->live.ramping, false,
				      memory_order_relaxed);
}

/*
 * Stopped (signal, error) while still ramping: nothing was measured, and
 * the warm-up's figures must not pass for a measurement. Only why it
 * stopped and its failed I/Os stay.
 */
static void ramp_discard(struct job_stats *st)
{
	struct dir_stats dir[DDIR_NR];
	struct job_stats keep = *st;
	unsigned d;

	memcpy(dir, st->dir, sizeof(dir));
	stats_init(st);
	st->nmeasured = 0;
	st->err = keep.err;
	memcpy(st->err_msg, keep.err_msg, sizeof(st->err_msg));
	st->interrupted = keep.interrupted;
	st->abandoned = keep.abandoned;
	st->intervals = keep.intervals;
	for (d = 0; d < DDIR_NR; d++) {
		st->dir[d].errors = dir[d].errors;
		st->dir[d].first_errno = dir[d].first_errno;
		st->dir[d].first_err_offset = dir[d].first_err_offset;
		st->dir[d].first_err_engine = dir[d].first_err_engine;
		memcpy(st->dir[d].first_err_file, dir[d].first_err_file,
		       sizeof(dir[d].first_err_file));
	}
}

/*
 * What is derived from the counters when the job ends at tick end; also
 * run by worker_abandon() on the other thread, so it reads only what the
 * worker wrote before its last call_enter().
 */
static void finish_figures(struct wstate *s, uint64_t end, bool own)
{
	struct job_stats *st = s->st;
	unsigned d;

	if (s->ramp_end) {
		ramp_discard(st);
	} else {
		st->runtime_ns = clock_delta_ns(s->w->clk, s->t0, end);
		for (d = 0; d < DDIR_NR; d++)
			if (!st->dir[d].lat.count && st->dir[d].clat.count)
				st->dir[d].lat = st->dir[d].clat;
		if (s->pass.per_loop)
			st->loops_done = (st->dir[DDIR_READ].bytes +
					  st->dir[DDIR_WRITE].bytes +
					  st->dir[DDIR_TRIM].bytes +
					  s->pass.short_bytes) / s->pass.per_loop;
	}
	ctl_figures(s);
	wf_end(s, end, own);
}

void finish(struct wstate *s)
{
	struct cpu_usage cpu1, eng1 = { 0 }, eng_used;
	int r;

	wf_last(s);
	if (s->abandoned)
		return;
	worker_window_mark(s->w, true);
	cpu_thread(&cpu1);
	cpu_sub(&s->st->cpu, &cpu1, &s->cpu0.job);
	if (s->eng->cpu) {
		call_enter(s);
		s->eng->cpu(&s->ctx, &eng1);
		if (!call_leave(s))
			return;
		cpu_sub(&eng_used, &eng1, &s->cpu0.eng);
		cpu_add(&s->st->cpu, &eng_used);
	}
	finish_figures(s, s->now, true);
	if (!s->ramp_end)
		depth_check(s);
	interval_end(s, s->now);
	if (s->iolog) {
		char msg[512];

		r = iolog_close(s->iolog, s->now, msg, sizeof(msg));
		s->iolog = NULL;
		if (r)
			job_fail(s, r, "%s", msg);
	}
	s->finished = true;
}

bool worker_abandon(struct worker *w)
{
	int st = WORKER_IN_CALL;
	struct wstate *s;
	uint64_t now;

	if (!atomic_compare_exchange_strong_explicit(&w->state, &st,
			WORKER_ABANDONED, memory_order_acq_rel,
			memory_order_acquire))
		return false;
	/* Stats and wstate are as the worker left them at call_enter(). */
	s = w->priv;
	if (!s->finished) {
		now = clock_ticks(w->clk);
		finish_figures(s, now, false);
		interval_end(s, now);
		w->stats->interrupted = true;
		w->stats->abandoned = true;
	}
	w->abandoned = true;
	return true;
}
