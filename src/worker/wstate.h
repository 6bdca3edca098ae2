/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WSTATE_H
#define IORIG_WSTATE_H

/*
 * A worker's private state, shared by the files of src/worker/ (the I/O
 * loop, its features, what it publishes, the verification phase that
 * runs inside it: vphase.c). Nothing outside src/worker/ includes it.
 * What the hot path calls across files is static inline here.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "depth.h"
#include "engine.h"
#include "feature.h"
#include "fill.h"
#include "gen.h"
#include "procattr.h"
#include "profile.h"
#include "verify.h"
#include "worker.h"

struct wstate {
	struct worker *w;
	const struct job *j;
	const struct engine_ops *eng;
	struct engine_ctx ctx;
	struct job_stats *st;
	struct io_req *reqs;
	struct io_req **free_reqs;
	struct io_req **reaped;
	/* what the thread's settings took, given back at its end: where
	 * the request buffers came from (procattr.h), cgroup= joined */
	struct {
		struct procmem mem;
		bool cgroup_in;
	} th;
	unsigned depth, nfree, inflight, queued;
	struct gen gen;
	struct gen_data wdata;	/* the bytes of writes; unused with verify=
				 * or the buffer options (content.c) */
	uint64_t limit_bytes, issued_bytes;	/* per measured phase */
	uint64_t limit_ios, issued_ios;
	/*
	 * Passes over the region: per_loop, the bytes of one loop (0 in a
	 * replay); next, the issued_bytes that start the next loop
	 * (unlink_each_loop: new files; UINT64_MAX); short_bytes, bytes of
	 * map passes not moved (map_pass_end), counted in issued_bytes;
	 * drop: buffered, the generator's new pass drops the cache
	 * (pass_drop); wait: unlink_each_loop empties the queue before the
	 * next loop; map_fast: the generator's usual random case
	 * (gen_map_fast) lies in file 0's region, checked once a loop
	 * (map_fast_check), not per I/O; f0_off, f0_fd: file 0's offset
	 * and descriptor, which map_fast_check takes with it (the files
	 * are opened before the worker starts and again only by new_pass,
	 * which calls it), a load nearer than s->w->tgt->files. left: the
	 * I/Os the limits (limit_bytes, limit_ios, next) let a plain round
	 * issue unchecked, each of the map's usual case (gen.align bytes,
	 * one I/O): limits_left (worker.c) counts them; zeroed by what
	 * changes a limit or issues otherwise (measure_start, new_pass,
	 * map_pass_end, a round that is not plain, an I/O off the usual
	 * case).
	 */
	struct {
		uint64_t per_loop, next, short_bytes, left;
		uint64_t f0_off;
		int f0_fd;
		bool drop, wait, map_fast;
	} pass;
	uint64_t now;		/* ticks at the last completion */
	uint64_t t0;		/* ticks at the start of the measured phase */
	uint64_t deadline;	/* ticks; UINT64_MAX: none */
	uint64_t ramp_end;	/* ticks; 0 once ramping is over */
	/* at measure start: the job thread's CPU, the engine's threads' */
	struct {
		struct cpu_usage job, eng;
	} cpu0;
	bool engine_failed;		/* its I/Os cannot be drained */
	/*
	 * The stop hand-off (call_enter): on, calls may block; next, the
	 * next queue() may block, guard it; base, what next is after a
	 * reap (ctx.queue_nocall: false unless the job trims); stop,
	 * w->stop, a load nearer for the I/O loop.
	 */
	struct {
		bool on, next, base;
		const atomic_int *stop;
	} guard;
	bool abandoned;		/* worker_abandon() gave up on us */
	bool finished;		/* finish() is done: stats final */
	struct wdepth dp;	/* batches handed over and reaped (depth.h) */
	bool stopping;
	/* ctx.stamps_own as the engine's init() set it, before depth_stamps
	 * cleared it for clock reads that may be out of step: every request
	 * comes back with t_submit and t_done set (nonzero), only their
	 * order is not known (loop.h, complete_as) */
	bool stamps_set;
	bool bmi2;		/* the CPU has BMI2 and the clock is the TSC:
				 * the loop's copies with both (worker.c) */
	/*
	 * tick_next is the earliest of the running interval's end and the
	 * rate samples' next ticks: the one compare per completion
	 * (ticks_roll does the rest). lv: the intervals', samples' and
	 * --progress's own state (live.c; WF_INTERVAL in ft.loop: interval=
	 * samples are kept).
	 */
	uint64_t tick_next;
	struct wlive *lv;
	struct iolog *iolog;	/* log files (iolog.h); NULL: none */
	/* Run control's own state (runctl.c), from ctl_setup on; WF_HALT in
	 * ft.loop: a halt or steady state to look at (should_stop calls
	 * ctl_stop) */
	struct runctl *ctl;
	/* the wanted features: their state, their hooks (feature.h) */
	struct wfeatures ft;
};

/* The features the loop calls on its slow path (prep_slow,
 * complete_slow): serialize_overlap and verify=, once set up. */
#define WF_SLOW		(WF_BIT(WF_SERIAL) | WF_BIT(WF_VERIFY))

/* A wanted feature's state (feature.h); NULL when it is not wanted. */
static inline void *wf_state(const struct wstate *s, enum wf_id id)
{
	return s->ft.state[id];
}

static inline bool wf_wanted(const struct wstate *s, enum wf_id id)
{
	return s->ft.wanted & WF_BIT(id);
}

/* The hooks of the wanted features, in table order (feature.h). */
#define WF_EACH(s, hook, f) \
	for (const struct wfeature *const *f = (s)->ft.hook; *f; f++)

static inline void wf_start(struct wstate *s)
{
	WF_EACH(s, start, f)
		(*f)->start(s);
}

static inline void wf_round(struct wstate *s)
{
	WF_EACH(s, round, f)
		(*f)->round(s);
}

static inline bool wf_hold(struct wstate *s)
{
	WF_EACH(s, hold, f)
		if ((*f)->hold(s))
			return true;
	return false;
}

static inline bool wf_wait(struct wstate *s)
{
	WF_EACH(s, wait, f)
		if (!(*f)->wait(s))
			return false;
	return true;
}

/* 1: io given; 0: none gave one (the generator's turn); -1: none now */
static inline int wf_next(struct wstate *s, struct gen_io *io)
{
	int r;

	WF_EACH(s, next, f)
		if ((r = (*f)->next(s, io)))
			return r;
	return 0;
}

static inline bool wf_prep(struct wstate *s, struct io_req *req,
			   const struct gen_io *io)
{
	WF_EACH(s, prep, f)
		if (!(*f)->prep(s, req, io))
			return false;
	return true;
}

static inline bool wf_due(struct wstate *s, struct io_req *req)
{
	WF_EACH(s, due, f)
		if (!(*f)->due(s, req))
			return false;
	return true;
}

static inline void wf_issued(struct wstate *s, struct io_req *req, int ddir,
			     int r)
{
	WF_EACH(s, issued, f)
		(*f)->issued(s, req, ddir, r);
}

static inline void wf_done(struct wstate *s, struct io_req *req,
			   const struct wlat *l)
{
	WF_EACH(s, done, f)
		(*f)->done(s, req, l);
}

static inline bool wf_stop(struct wstate *s)
{
	WF_EACH(s, stop, f)
		if ((*f)->stop(s))
			return true;
	return false;
}

static inline void wf_last(struct wstate *s)
{
	WF_EACH(s, last, f)
		(*f)->last(s);
}

static inline void wf_end(struct wstate *s, uint64_t end, bool own)
{
	WF_EACH(s, end, f)
		(*f)->end(s, end, own);
}

static inline void wf_after(struct wstate *s)
{
	WF_EACH(s, after, f)
		(*f)->after(s);
}

/* Fail the job with err (-errno) and a message; the first failure wins. */
void job_fail(struct wstate *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same as "DOING engine NAME: error[; the engine's hint]". */
void engine_failed(struct wstate *s, int err, const char *doing);

/*
 * The stop hand-off with worker_abandon(). Every call that may block on a
 * device (engine calls, fsync) runs between call_enter() and call_leave():
 * the stats are consistent on entry (release), and the thread that started
 * us may then mark us ABANDONED. call_leave() returns false when it did:
 * from there on we return at once, touching no stats and no target.
 * Engines that do no I/O never block and skip the two atomic operations.
 */
static inline void call_enter(struct wstate *s)
{
	if (s->guard.on)
		atomic_store_explicit(&s->w->state, WORKER_IN_CALL,
				      memory_order_release);
}

static inline bool call_leave(struct wstate *s)
{
	int st = WORKER_IN_CALL;

	if (!s->guard.on || atomic_compare_exchange_strong_explicit(
			&s->w->state, &st, WORKER_RUNNING,
			memory_order_acq_rel, memory_order_acquire))
		return true;
	s->abandoned = true;
	s->stopping = true;
	return false;
}

static inline unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/*
 * The loop's services to its features. measure_start (worker.c): the
 * stats restart here (carry_on: at the end of ramp_time, the work goes
 * on). io_error (errors.c): a failed I/O (err its errno; lat: it took
 * lat ns, more than limit, the limit_name's): counted, and the job goes
 * on or fails as continue_on_error and ignore_error say.
 */
void measure_start(struct wstate *s, bool carry_on);
/*
 * timed_sync (syncs.c): fsync (how 1), fdatasync (0), syncfs (2), or,
 * range not NULL, sync_file_range of [range[0], range[1]) with flags how,
 * of fd, timed; its latency into *h, 0 or -errno into *err.
 */
uint64_t timed_sync(struct wstate *s, int fd, unsigned how,
		    const uint64_t *range, struct hist *h, int *err);
/* Sleep ns, or less when *stop is set (seen within 20 ms). */
void sleep_ns(uint64_t ns, const atomic_int *stop);
void io_error(struct wstate *s, struct dir_stats *d, const struct io_req *req,
	      int err, uint64_t lat, const char *limit_name, uint64_t limit);

/*
 * Before the first I/O (prepare.c); 0 or -errno with the job failed.
 * slots_setup: the request slots, their buffers, the bytes of writes.
 * gen_setup: the generator. limits_set: pass.per_loop, limit_bytes and
 * limit_ios from the options and the generator's walk (a feature's
 * setup may change them after).
 */
int slots_setup(struct wstate *s);
int gen_setup(struct wstate *s);
void limits_set(struct wstate *s);
void map_fast_check(struct wstate *s);
/* Everything before the start gate, those above among it. */
int worker_setup(struct wstate *s);

/*
 * The measured phase (measure.c). ramp_over: ramp_time is over, the
 * phase starts (measure_start). ramp_whole: the work was all issued while
 * ramping, the whole run is the measurement. finish: the loop is over,
 * the phase's figures (and the features' last and end hooks).
 */
void ramp_over(struct wstate *s);
void ramp_whole(struct wstate *s);
void finish(struct wstate *s);

/* unlink_each_loop acts between loops (fio: not within a time_based
 * run, which is one loop). */
static inline bool recreates(const struct job *j)
{
	return j->target.unlink_each_loop && !j->time.time_based;
}

/* Hand the queued requests over; false when the engine failed (the job
 * fails with it) or the worker was given up on. */
bool eng_commit(struct wstate *s);
/* Collect min..max completions into s->reaped: their count, or -1 when
 * the engine failed or the worker was given up on. */
int eng_reap(struct wstate *s, unsigned min, unsigned max);

/* Hand queued requests over, collect completions; waits only when the
 * queue is full or the job is stopping (worker.c). */
void commit_reap(struct wstate *s);

/* What a running worker publishes (live.c): --progress totals, interval=
 * boundaries. */
/* The running totals, once per reap batch, when --progress reads them;
 * live_setup: before the first I/O (0, or -ENOMEM with the job failed). */
void live_push(struct wstate *s);
static inline void live_publish(struct wstate *s)
{
	if (s->w->live_on)
		live_push(s);
}

int live_setup(struct wstate *s);
void live_free(struct wstate *s);
/* interval=: a completion's latency into the running interval (with
 * WF_INTERVAL in ft.loop) */
void live_interval_add(struct wstate *s, int ddir, uint64_t lat);
void live_phase(struct wstate *s);
void interval_start(struct wstate *s);
int interval_close(struct wstate *s, uint64_t end_ns);
void interval_roll(struct wstate *s, uint64_t now);
void interval_end(struct wstate *s, uint64_t end);
/* Rate samples: start their periods at the measured phase's start (or
 * none while ramping); ticks_roll: what falls due by tick now (intervals,
 * samples); ticks_rearm: tick_next again after an interval's end changed.
 * interval_start: at measure_start, the first interval (none while
 * ramping). */
void samples_start(struct wstate *s);
void ticks_roll(struct wstate *s, uint64_t now);
void ticks_rearm(struct wstate *s);

/*
 * Run control (runctl.c). ctl_setup: before the gate, pins the thread
 * (cpus_allowed) and allocates the steady-state window; -errno with the
 * job failed. ctl_wait: after the gate, waits for wait_for's job; false
 * when stopped meanwhile. ctl_arm: at each measure_start. ctl_stop: with
 * WF_HALT in ft.loop, from should_stop: true when exitall halted the
 * group or steady state was attained. ctl_end: the job ends (exitall,
 * the report's shape: disable_*, the CPUs, the steady-state record).
 */
int ctl_setup(struct wstate *s);
bool ctl_wait(struct wstate *s);
void ctl_arm(struct wstate *s);
bool ctl_stop(struct wstate *s);
void ctl_figures(const struct wstate *s);
void ctl_end(struct wstate *s);

/*
 * serialize_overlap (serial.c), on the slow path: serial_held gives the
 * I/O held back (true) and forgets it; serial_hold holds io back when it
 * overlaps one in flight (true); serial_blocked: one is held and still
 * overlaps; serial_busy marks a request slot in flight or not.
 */
bool serial_held(struct wstate *s, struct gen_io *io);
bool serial_hold(struct wstate *s, const struct gen_io *io);
bool serial_blocked(const struct wstate *s);
void serial_busy(struct wstate *s, const struct io_req *req, bool busy);

/* The verification phase inside a worker (vphase.c). */
bool verify_next_io(struct wstate *s, struct gen_io *io);
/* zonemode=zbd (zoned.c) for the I/Os verify= gives (prep_slow, which
 * the features' next() does not see): zbd_held, an I/O of the zones'
 * waits to be given again (zbd_place gives it, not the one in io);
 * zbd_place moves io where the zones take it: 1, or -1 none now (held,
 * or the job ends). 1 at once without the feature. */
bool zbd_held(const struct wstate *s);
int zbd_place(struct wstate *s, struct gen_io *io);
/* zonemode=zbd's trims (zoned.c), at the issue of trim req: zbd_trims,
 * whether it is a zone reset (its zone has a write pointer); zbd_trim
 * does it: 0, or -errno (the trim's error; the job failed too when the
 * device's reset failed); 1 when the trim is not the zones' (a discard,
 * as any trim). */
bool zbd_trims(const struct wstate *s, const struct io_req *req);
int zbd_trim(struct wstate *s, const struct io_req *req);
/* verify_prep_write, _read: req holds the I/O at the generator's offset
 * off (its block: off / verify's block size) */
void verify_prep_write(struct wstate *s, struct io_req *req, uint64_t off);
void verify_prep_read(struct wstate *s, struct io_req *req, uint64_t off);
void verify_read_end(struct wstate *s, struct io_req *req);
void verify_write_end(struct wstate *s, const struct io_req *req);
bool verify_barrier(struct wstate *s);
void verify_backlog_check(struct wstate *s);
void verify_phase(struct wstate *s);
int verify_setup(struct wstate *s);
bool verify_checks_reads(const struct wstate *s);

#endif
