/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WFEATURE_H
#define IORIG_WFEATURE_H

/*
 * The worker feature contract. A worker feature (rate=, thinktime=,
 * latency_target, verify=...) is one file of src/worker/ that defines one
 * `const struct wfeature` row, listed once in the table of features.c.
 * The row says when a job wants the feature and gives the hooks it needs;
 * the feature's state is a struct its file owns, allocated zeroed for a
 * job that wants it (size bytes) and reached with wf_state().
 *
 * The loop (worker.c) calls the hooks of the wanted features in table
 * order; a job that wants no feature with a per-I/O hook runs a copy of
 * the loop where none is called (wstate.ft.on == 0: one test a round).
 *
 * Set up and torn down, in worker_main:
 *   wanted(s)   the job wants it: a predicate on the job (and the worker:
 *               its interval series, its group's halt flag); evaluated
 *               once, before anything is set up
 *   setup(s)    before the start gate, after the request slots and the
 *               generator and before the engine's init: 0, or -errno with
 *               the job failed (job_fail); later features are not set up
 *   teardown(s) in reverse table order, for every wanted feature, set up
 *               or not (its state is then all zeros): frees what it holds
 *
 * Each measured phase (the start, the end of ramp_time, latency_target's
 * settled depth):
 *   start(s)    the phase starts at s->t0 (stats reset, deadline set)
 *
 * The loop, each turn, then around each I/O in this order:
 *   round(s)    once a turn, before issuing
 *   hold(s)     before each I/O: true issues no more this turn (a feature
 *               that wants commit_reap to wait meanwhile sets its bit in
 *               ft.holds: it then collects completions as they come,
 *               depth.c)
 *   -           the stop check: should_stop, then the stop(s) hooks
 *   wait(s)     the job may issue now: may sleep, or end the job
 *               (stopping); false issues no more this turn
 *   next(s, io) where the I/O comes from: 1 io is given, 0 ask the next
 *               feature (the generator at the end), -1 none now (as hold)
 *   prep(s, req, io) the I/O is in req (offset, len, ddir, buffer): mark
 *               it, fill its bytes; false holds it back (the feature keeps
 *               io and gives it again from next)
 *   due(s, req) t_queue is stamped, the engine is next: may wait (stamp
 *               t_queue again after); false ends the job, req not issued
 *   issued(s, req, ddir, r) the engine answered r (enum engine_queue_ret
 *               or -errno); req may already be complete (ENGINE_DONE)
 *   done(s, req, l) each completion, after it is counted: l its
 *               latencies, NULL when it failed (counted in errors only)
 *   stop(s)     from the stop check, before the limits: true ends the job
 *
 * The end:
 *   last(s)     the loop is over, nothing in flight, on the worker's own
 *               thread: work that counts in the runtime (end_fsync)
 *   end(s, end, own) the phase's figures at tick end, after the loop's;
 *               own false: from worker_abandon() on another thread, when
 *               only what the worker wrote before its last call_enter()
 *               may be read and nothing but the stats written
 *   after(s)    the figures are final: I/O outside the measured phase
 *               (the verification phase)
 *
 * Hooks run only for a wanted feature; NULL hooks are skipped. Hot-path
 * hooks follow the hot path's rules: no allocation, no locks, no system
 * calls but the ones the feature is about.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gen_io;
struct io_req;
struct wstate;

/*
 * The table's rows, in its order (features.c): the order hooks run in.
 * An id whose row features.c leaves NULL is a feature still in the loop
 * (ramp, steady state, interval=, logs, halt): its place in the order is
 * kept for it. serialize_overlap and verify= have rows for their state,
 * setup and teardown, and no per-I/O hook: the loop calls them on its
 * slow path (WF_SLOW in ft.loop), which only their jobs run.
 */
enum wf_id {
	WF_RAMP,		/* ramp.c: ramp_time= */
	WF_STEADY,		/* steadystate.c: steadystate= samples */
	WF_LOWDEPTH,		/* lowdepth.c: iodepth_low= */
	WF_THINK,		/* think.c: thinktime=, thinkcycles= */
	WF_MAXLAT,		/* errors.c: max_latency= */
	WF_LTARGET,		/* ltarget.c: latency_target= */
	WF_SERIAL,		/* serial.c: serialize_overlap= */
	WF_VERIFY,		/* vphase.c: verify= */
	WF_CMDPRIO,		/* ioprio.c: cmdprio_percentage=, _bssplit= */
	WF_FILL,		/* content.c: buffer_pattern=, compress... */
	WF_ACT,			/* act.c: --profile=act's hours */
	WF_INTERVAL,		/* live.c: interval= */
	WF_PACE,		/* pace.c: rate=, rate_iops=, rate_min= */
	WF_LOGS,		/* logs.c: write_*_log=, write_iolog= */
	WF_SYNCS,		/* syncs.c: fsync=, fdatasync=, sync_file_range= */
	WF_END_SYNC,		/* syncs.c: end_fsync=, fsync_on_close= */
	WF_HINTS,		/* hints.c: write_hint= */
	WF_ZBD,			/* zoned.c: zonemode=zbd */
	WF_REPLAY,		/* replayer.c: read_iolog= */
	WF_FLOW,		/* flowctl.c: flow= */
	WF_HALT,		/* runctl.c: exitall=, exit_on_io_done= */
	WF_NR
};

#define WF_BIT(id)	(1u << (id))

/* A completion's latencies in ns (slat 0: the engine has no submit step). */
struct wlat {
	uint64_t slat, clat, lat;
};

struct wfeature {
	const char *name;
	size_t size;
	bool (*wanted)(const struct wstate *s);
	int (*setup)(struct wstate *s);
	void (*teardown)(struct wstate *s);
	void (*start)(struct wstate *s);
	void (*round)(struct wstate *s);
	bool (*hold)(struct wstate *s);
	bool (*wait)(struct wstate *s);
	int (*next)(struct wstate *s, struct gen_io *io);
	bool (*prep)(struct wstate *s, struct io_req *req,
		     const struct gen_io *io);
	bool (*due)(struct wstate *s, struct io_req *req);
	void (*issued)(struct wstate *s, struct io_req *req, int ddir, int r);
	void (*done)(struct wstate *s, struct io_req *req,
		     const struct wlat *l);
	bool (*stop)(struct wstate *s);
	void (*last)(struct wstate *s);
	void (*end)(struct wstate *s, uint64_t end, bool own);
	void (*after)(struct wstate *s);
};

/* The rows, each defined by its file. */
extern const struct wfeature wf_pace, wf_think, wf_ltarget, wf_flow,
	wf_replay, wf_syncs, wf_end_sync, wf_hints, wf_cmdprio,
	wf_maxlat, wf_act, wf_lowdepth, wf_serial, wf_verify, wf_fill,
	wf_zbd;

/* The table (features.c), WF_NR rows in enum wf_id's order. */
extern const struct wfeature *const wfeatures[WF_NR];

/*
 * What the loop keeps of the features (wstate.ft): each wanted one's
 * state, and per hook the wanted features that have it, NULL-terminated,
 * in table order.
 */
struct wfeatures {
	unsigned wanted;	/* WF_BIT()s of the wanted features */
	unsigned on;		/* those with a per-I/O hook; 0: the plain loop */
	unsigned holds;		/* WF_BIT()s of the features holding issue
				 * that want commit_reap to wait meanwhile */
	/*
	 * WF_BIT()s of the features the loop itself calls, each set by the
	 * feature once set up: the slow path's (WF_SLOW, wstate.h), the
	 * buffer options' bytes (WF_FILL), interval= (WF_INTERVAL), the log
	 * files (WF_LOGS), run control (WF_HALT). With on, what plain_now()
	 * tests.
	 */
	unsigned loop;
	void *state[WF_NR];
	const struct wfeature *start[WF_NR + 1], *round[WF_NR + 1],
		*hold[WF_NR + 1], *wait[WF_NR + 1], *next[WF_NR + 1],
		*prep[WF_NR + 1], *due[WF_NR + 1], *issued[WF_NR + 1],
		*done[WF_NR + 1], *stop[WF_NR + 1], *last[WF_NR + 1],
		*end[WF_NR + 1], *after[WF_NR + 1];
};

/*
 * features.c. wf_select: the wanted features, their zeroed state, the
 * hook lists; before anything is set up (-ENOMEM with the job failed).
 * wf_setup: each wanted feature's setup in table order (0 or the first
 * failure's -errno). wf_teardown: every wanted feature's teardown in
 * reverse order, and its state freed.
 */
int wf_select(struct wstate *s);
int wf_setup(struct wstate *s);
void wf_teardown(struct wstate *s);

/*
 * What one feature asks of another (each a no-op when the other is not
 * wanted): pace.c's schedule after a thinktime stall (think.c); pace.c's
 * choice of a mixed job's direction for the I/Os verify= takes from the
 * generator (vphase.c: true when it made *io, else the caller calls
 * gen_next); the sync entry of write_iolog= (logs.c, for syncs.c and
 * replayer.c).
 */
void pace_thought(struct wstate *s);
struct gen_io;
bool pace_gen_next(struct wstate *s, struct gen_io *io);
void wlog_sync(struct wstate *s, const struct io_req *req, bool datasync);

#endif
