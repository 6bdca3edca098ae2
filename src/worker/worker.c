// SPDX-License-Identifier: MIT
/*
 * The I/O loop. One loop serves synchronous and queued engines: it fills
 * the queue up to iodepth (queue), hands the batch to the kernel (commit)
 * and collects completions (reap). A synchronous engine completes inside
 * queue(), so the loop degenerates to issue-account-issue. The wanted
 * worker features (feature.h) hook in around each I/O; worker_main, at
 * the end, is their setup (prepare.c), the run, and the teardown.
 *
 * Hot path rules: no allocation, no locks, no system calls besides the
 * engine's and the clock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "depth.h"
#include "iolog.h"
#include "loop.h"
#include "trim.h"
#include "wstate.h"

void job_fail(struct wstate *s, int err, const char *fmt, ...)
{
	va_list ap;

	s->stopping = true;
	if (s->st->err)
		return;
	s->st->err = err;
	va_start(ap, fmt);
	vsnprintf(s->st->err_msg, sizeof(s->st->err_msg), fmt, ap);
	va_end(ap);
}

/* "DOING engine NAME: error[; the engine's hint]" as the job's error
 * (the first one stays, as job_fail keeps it). */
void engine_failed(struct wstate *s, int err, const char *doing)
{
	const char *hint = s->eng->hint ? s->eng->hint(err) : NULL;

	job_fail(s, err, "%s engine %s: %s%s%s", doing, s->eng->name,
		 strerror(-err), hint ? "; " : "", hint ? hint : "");
}

/* eng_commit's work, once some are queued: inline in commit_reap, the
 * I/O loop's one call per reap. */
static inline __attribute__((always_inline)) bool
eng_commit_queued(struct wstate *s)
{
	int r;

	call_enter(s);
	r = s->eng->commit(&s->ctx);
	/* queue() may now submit the committed batch (engine.h) */
	s->guard.next = s->guard.on;
	if (!call_leave(s))
		return false;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: submit: %s", s->eng->name,
			 strerror(-r));
		return false;
	}
	/* Queue depth with these in it, and this call's batch (stats.h) */
	s->st->depth.level[depth_level_idx(s->inflight)] += s->queued;
	s->st->depth.submit[depth_batch_idx(s->queued)]++;
	s->queued = 0;
	s->dp.end = UINT64_MAX;		/* batch_apart: none queued */
	return true;
}

/* Hand the queued requests over; false when the engine failed (the job
 * fails with it) or the worker was given up on. */
bool eng_commit(struct wstate *s)
{
	return !s->queued || eng_commit_queued(s);
}

/* eng_reap into out (room for max). */
static inline __attribute__((always_inline)) int
eng_reap_to(struct wstate *s, unsigned min, struct io_req **out,
	    unsigned max)
{
	int r;

	call_enter(s);
	r = s->eng->reap(&s->ctx, min, out, max);
	s->guard.next = s->guard.base;
	if (!call_leave(s))
		return -1;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: reap: %s", s->eng->name,
			 strerror(-r));
		return -1;
	}
	if (r)
		s->st->depth.complete[depth_batch_idx((unsigned)r)]++;
	return r;
}

/* Collect min..max completions into s->reaped: their count, or -1 when
 * the engine failed or the worker was given up on. */
int eng_reap(struct wstate *s, unsigned min, unsigned max)
{
	return eng_reap_to(s, min, s->reaped, max);
}

/*
 * req to the engine, or trimmed here (an engine without trims, or as
 * zbd asks; one branch, never taken by reads and writes): its answer in
 * *r, whether the stop hand-off was taken in *gn; false when the worker
 * was given up on meanwhile. Only a queue() that may block needs the
 * hand-off; guard.next is read once: only commit and reap, not run
 * before the completion, change it.
 */
static inline __attribute__((always_inline)) bool
issue_call(struct wstate *s, struct io_req *req, bool *gn, int *r)
{
	*gn = s->guard.next;
	if (*gn)
		call_enter(s);
	*r = __builtin_expect(req->ddir == DDIR_TRIM, 0) &&
	     (!(s->eng->flags & ENGINE_TRIMS) || zbd_trims(s, req)) ?
		trim_req(s, req) : s->ctx.queue(&s->ctx, req);
	return !*gn || call_leave(s);
}

/*
 * issue(): plain as for complete_as (the holds and the slow path's are
 * only ever set with a feature on); sync: an ENGINE_SYNC engine's plain
 * round, where queue() completes each I/O (engine.h) so that nothing is
 * queued and the depth stays: its inline completions are counted
 * together (inline_flush), the batch limit looked at only after a
 * queued one; tsc: the clock is the TSC (clock_tsc_ticks, no test).
 * left (plain): the limits' checks it may skip (limits_left), kept in a
 * register and handed back at the end of the round; room (plain, not
 * sync): issue_room, counted down per queued I/O. Only a completion
 * moves now, so a plain round looks at the deadline at its start and
 * after each inline completion, not per I/O. sync: only a queued I/O
 * changes the depth and the free list (a sync round is plain: nothing
 * else puts a request back), so both are looked at at the start and
 * after each queued one, not for each I/O.
 */
static inline __attribute__((always_inline)) void
issue_as(struct wstate *s, const bool plain, const bool sync, const bool tsc)
{
	struct io_req *req = NULL;
	unsigned ninl = 0;
	int r, ddir;
	bool gn;
	uint64_t left = plain ? s->pass.left : 0;
	unsigned room = plain && !sync ? issue_room(s) : 0;

	if (!plain) {
		s->pass.left = 0;
		wf_round(s);
	} else if (s->now >= s->deadline) {
		left = 0;
	}
	if (sync) {
		if (s->inflight >= s->depth)
			goto done;
		req = s->free_reqs[s->nfree - 1];
	}
	while ((sync || (plain ? room != 0 : s->inflight < s->depth)) &&
	       !s->stopping) {
		if (!plain && issue_held(s))
			break;
		r = issue_limits(s, plain, &left, &ninl);
		if (r <= 0) {
			if (r < 0)
				goto gone;
			break;
		}
		if (!plain && !wf_wait(s))
			break;
		/* sync: the request stays on the free list unless queued */
		if (!sync)
			req = s->free_reqs[--s->nfree];
		if (!prep_as(s, req, plain, &left)) {
			if (!sync)
				s->free_reqs[s->nfree++] = req;
			continue;
		}
		if (batch_apart(s, req)) {
			inline_flush(s, &ninl);
			if (!eng_commit(s)) {
				if (!sync)
					s->free_reqs[s->nfree++] = req;
				goto gone;
			}
			/* none queued now: the batch's room again */
			if (plain && !sync)
				room = issue_room(s);
		}
		req->t_queue = tsc ? clock_tsc_ticks() :
			       clock_ticks(s->ctx.clk);
		if (!plain && !wf_due(s, req)) {
			s->free_reqs[s->nfree++] = req;
			s->stopping = true;
			break;
		}
		if (!plain && __builtin_expect(s->iolog != NULL, 0))
			iolog_issue(s->iolog, req->file, req->ddir,
				    req->offset, req->len, req->t_queue);
		ddir = req->ddir;	/* req may be done and reused below */
		if (!issue_call(s, req, &gn, &r))
			goto gone;
		/* a queued engine's usual answer first: one compare */
		if (!sync && r == ENGINE_QUEUED) {
			queued_as(s, req, plain, false, &ninl);
			if (plain)
				room--;
		} else if (r == ENGINE_DONE) {
			done_as(s, req, plain, sync, sync && !gn, &ninl);
			if (plain && s->now >= s->deadline)
				left = 0;
		} else if (r == ENGINE_QUEUED) {
			if (queued_as(s, req, plain, sync, &ninl))
				break;
			if (sync)
				req = s->free_reqs[s->nfree - 1];
		} else {
			if (!sync)
				s->free_reqs[s->nfree++] = req;
			if (issue_refused(s, r))
				break;
		}
		if (!plain)
			wf_issued(s, req, ddir, r);
		if (!sync && !plain && s->queued >= s->dp.submit)
			break;
	}
done:
	inline_flush(s, &ninl);
gone:
	/* given up on or failed (the job stops): no flush, as before */
	if (plain)
		s->pass.left = left;
}

/*
 * The plain issue rounds are compiled twice: the second copy with BMI2
 * and the TSC clock, taken where the CPU has BMI2 and the clock is the
 * TSC (wstate.bmi2, worker_setup). Its shifts by a count held in a
 * register (shrx) need not move the count into %cl and the value into a
 * register of its own first: the random map's permutation shifts five
 * times per I/O by its job's widths (ten instructions fewer per I/O,
 * callgrind); its t_queue is the TSC read without the clock's test
 * (three more). Both copies run the same C: the same I/Os. Not
 * commit_reap: there gcc's BMI2 multiplies (mulx,
 * its operand in %rdx) cost the histograms more moves than the shifts
 * saved.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define LOOP_BMI2 1
#define BMI2_FN __attribute__((noinline, target("bmi2")))
#else
#define LOOP_BMI2 0
#define BMI2_FN __attribute__((noinline))
#endif

static __attribute__((noinline)) void issue_plain(struct wstate *s)
{
	issue_as(s, true, false, false);
}

static __attribute__((noinline)) void issue_plain_sync(struct wstate *s)
{
	issue_as(s, true, true, false);
}

static BMI2_FN void issue_plain_bmi2(struct wstate *s)
{
	issue_as(s, true, false, LOOP_BMI2);
}

static BMI2_FN void issue_plain_sync_bmi2(struct wstate *s)
{
	issue_as(s, true, true, LOOP_BMI2);
}

static __attribute__((noinline)) void issue_any(struct wstate *s)
{
	issue_as(s, false, false, false);
}

static void issue(struct wstate *s)
{
	if (!plain_now(s))
		issue_any(s);
	else if (s->eng->flags & ENGINE_SYNC)
		(LOOP_BMI2 && s->bmi2 ? issue_plain_sync_bmi2 :
		 issue_plain_sync)(s);
	else
		(LOOP_BMI2 && s->bmi2 ? issue_plain_bmi2 : issue_plain)(s);
}

/*
 * How many completions to wait for now (0: collect only what is done),
 * the return, and at most how many to collect, *max: while an I/O pass
 * waits, all in flight; with the queue full (or the job ending, or a
 * feature holding it), dp.reap_min of them; else none. Inline in
 * commit_reap, once per reap (the policy is depth.c's: dp.reap_min and
 * dp.reap_max).
 */
static inline __attribute__((always_inline)) unsigned
reap_bounds(const struct wstate *s, unsigned *max)
{
	unsigned in = s->inflight, min = 0;

	if (s->pass.wait)
		min = in;
	else if (in >= s->depth || s->stopping || s->ft.holds)
		min = min_u(s->dp.reap_min, in);
	*max = min_u(s->dp.reap_max < min ? min : s->dp.reap_max, in);
	return min;
}

/*
 * Hand queued requests over and collect completions. Wait for completions
 * only when the queue is full (or the job is ending); while there is room
 * for more, only collect what is already done, so that small submit
 * batches still keep iodepth I/Os in flight.
 */
void commit_reap(struct wstate *s)
{
	unsigned min, max;
	bool plain;
	int r, i;

	if (s->abandoned || (s->queued && !eng_commit_queued(s)) ||
	    !s->inflight)
		return;
	min = reap_bounds(s, &max);
	/* nothing the engine does changes it */
	plain = plain_now(s);
	/*
	 * A plain completion always gives its request back, and nothing it
	 * does reads the free list: the engine hands them out straight
	 * onto the free list's end (room for inflight: every request is
	 * free or in flight), where they stay, in the order they would go
	 * back one by one; no copy from s->reaped.
	 */
	r = eng_reap_to(s, min, plain ? s->free_reqs + s->nfree : s->reaped,
			max);
	if (r < 0)
		return;
	depth_count(&s->dp, s, (unsigned)r);
	/* complete_as() may fsync, and be abandoned there */
	if (plain) {
		struct io_req **rp = s->free_reqs + s->nfree, **end = rp + r;
		const struct clock clk = *s->ctx.clk;
		struct dir_stats *dirs = s->st->dir;

		/* rp, end, clk, dirs: locals, where s->reaped, the clock
		 * and the stats were loaded per I/O */
		if (s->ctx.stamps_own)
			for (; rp < end; rp++)
				complete_as(s, *rp, true, false, true, true,
					    &clk, dirs);
		else if (s->stamps_set)
			for (; rp < end; rp++)
				complete_as(s, *rp, true, false, true, false,
					    &clk, dirs);
		else
			for (; rp < end; rp++)
				complete_as(s, *rp, true, false, false, false,
					    &clk, dirs);
		s->nfree += (unsigned)r;
	} else
		for (i = 0; i < r && !s->abandoned; i++)
			complete_as(s, s->reaped[i], false, true, false, false,
				    s->ctx.clk, s->st->dir);
	s->inflight -= (unsigned)r;
	if (!s->abandoned)
		live_publish(s);
}

static void run_loop(struct wstate *s)
{
	for (;;) {
		issue(s);
		if (s->abandoned ||
		    (!s->inflight && !s->queued && s->stopping))
			break;
		commit_reap(s);
		/* A failed engine cannot be drained: give its I/Os up. */
		if (s->engine_failed || s->abandoned)
			break;
	}
}

void sleep_ns(uint64_t ns, const atomic_int *stop)
{
	struct timespec ts;
	uint64_t step;

	while (ns && !atomic_load(stop)) {
		/* the stop flag is seen within 20 ms */
		step = ns < 20000000 ? ns : 20000000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)step;
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

static void wstate_free(struct wstate *s)
{
	/* exit() waits for I/O still in the kernel: it may block too. */
	if (s->eng && s->ctx.priv && s->eng->exit) {
		call_enter(s);
		s->eng->exit(&s->ctx);
		call_leave(s);
	}
	iolog_discard(s->iolog);
	live_free(s);
	procattr_mem_free(&s->th.mem);
	gen_data_free(&s->wdata);
	gen_free(&s->gen);
	free(s->reaped);
	free(s->free_reqs);
	free(s->reqs);
}

/*
 * From the start gate to the end of the job: the wait for its turn, the
 * engine's start, the measured loop, the figures, the verification
 * phase. False when the worker was given up on (worker_abandon): the
 * kernel may still own the buffers, nothing may be freed.
 */
static bool run(struct wstate *s)
{
	const struct job *j = s->j;
	struct worker *w = s->w;
	int ret;

	/* Set up like the others of the group: start with them. */
	worker_gate_pass(w);
	sleep_ns(j->time.startdelay_ns, w->stop);
	if (!ctl_wait(s)) {
		/* Stopped before its turn: ran nothing */
		s->st->interrupted = atomic_load(w->stop) != 0;
		s->finished = true;
		return true;
	}
	/* net: accept or connect; the measured phase starts connected */
	if (s->eng->start && (ret = s->eng->start(&s->ctx))) {
		if (ret == -EINTR)
			s->st->interrupted = true;
		else
			engine_failed(s, ret, "starting");
		s->finished = true;
		return true;
	}
	s->now = clock_ticks(w->clk);
	/* Before measure_start: it tells ramping from measuring by it. */
	if (j->time.ramp_time_ns)
		s->ramp_end = s->now + clock_ns_to_ticks(w->clk,
							 j->time.ramp_time_ns);
	measure_start(s, false);
	/* create_only: the files are laid out (target_open), no I/O. */
	if (!j->vfy.verify_only && !j->target.create_only)
		run_loop(s);
	if (!s->abandoned) {
		/* net over UDP: the blocks the sender numbered and lost */
		s->st->dir[DDIR_READ].dropped_ios += s->ctx.dropped;
		finish(s);
	}
	if (!s->abandoned && (s->ft.loop & WF_BIT(WF_VERIFY)) &&
	    !j->target.create_only)
		verify_phase(s);
	if (!s->abandoned)
		wf_after(s);
	return !s->abandoned;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct wstate s = {
		.w = w, .j = j, .eng = j->eng.engine, .st = w->stats,
		.guard.stop = w->stop,
		.depth = (j->eng.engine->flags & ENGINE_SYNC) ? 1 :
			 (unsigned)j->eng.iodepth,
		.tick_next = UINT64_MAX,
	};

	w->priv = &s;
	s.guard.on = !(j->eng.engine->flags & ENGINE_NOIO);
	s.guard.next = s.guard.on;
	if (worker_setup(&s))
		s.finished = true;	/* failed: nothing ran */
	else if (!run(&s))
		return NULL;	/* given up on: we are exiting */
	worker_gate_pass(w);	/* setup failed: the others need not wait */
	/* the features first: the engine's exit may wait (exitall's halt
	 * must not) */
	wf_teardown(&s);
	ctl_end(&s);
	if (s.th.cgroup_in)
		cgroup_leave(j);
	wstate_free(&s);
	atomic_store_explicit(&w->live.done, true, memory_order_release);
	return NULL;
}
