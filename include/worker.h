/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WORKER_H
#define IORIG_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "clock.h"
#include "interval.h"
#include "stats.h"
#include "target.h"

struct engine_setup;
struct worker;

/*
 * The start gate of one wait group (src/worker/gate.c): every worker of
 * the group sets up, then waits at it; the thread that started them opens
 * it once all have arrived, so that their measured phases start together.
 */
struct worker_gate {
	pthread_mutex_t lock;
	pthread_cond_t cv;		/* CLOCK_MONOTONIC */
	unsigned arrived;
	bool open;
};

void worker_gate_init(struct worker_gate *g);
void worker_gate_destroy(struct worker_gate *g);
/*
 * The starting thread: waits until n workers have arrived, or *stop is
 * set (looked at every poll_ns), then opens the gate.
 */
void worker_gate_open(struct worker_gate *g, unsigned n,
		      const atomic_int *stop, uint64_t poll_ns);
/* The same wait without opening (MPI ranks meet between the two). */
void worker_gate_wait(struct worker_gate *g, unsigned n,
		      const atomic_int *stop, uint64_t poll_ns);
/*
 * The worker: arrives at w->gate and waits until it opens; a worker whose
 * setup failed arrives too. Once per worker; nothing without a gate.
 */
void worker_gate_pass(struct worker *w);

/*
 * A worker's measured phase (after ramp_time, before the verification
 * phase), as its thread marked it: clock_mono_ns() and the process' and
 * the machine's CPU counters at its start and at its end. start_ns or
 * end_ns 0: not reached.
 */
struct worker_window {
	uint64_t start_ns, end_ns;
	struct cpu_usage proc0, proc1;
	struct sys_cpu sys0, sys1;
};

/* Mark the start (end false) or the end of the measured phase. */
void worker_window_mark(struct worker *w, bool end);

/* worker.state: see worker_abandon(). */
enum worker_state {
	WORKER_RUNNING = 0,	/* between calls that may block */
	WORKER_IN_CALL,		/* in an engine call or fsync */
	WORKER_ABANDONED,	/* given up on: touches nothing shared again */
};

/*
 * What a running worker shows the main thread (--progress): stored with
 * relaxed atomic stores, at most once per reap batch and only when
 * worker.live_on; all 0 until then.
 */
struct worker_live {
	_Atomic uint64_t ios[DDIR_NR];	/* since the start, ramp included */
	_Atomic uint64_t bytes[DDIR_NR];
	_Atomic uint64_t issued_bytes;	/* in the measured phase (or ramp) */
	_Atomic uint64_t issued_ios;
	_Atomic uint64_t limit_bytes;	/* UINT64_MAX: none */
	_Atomic uint64_t limit_ios;
	_Atomic uint64_t t0_ns;		/* clock_mono_ns() when the ramp or
					 * the measured phase began; 0: not yet */
	atomic_bool ramping;
	atomic_bool done;		/* the thread is ending */
};

/*
 * One job clone's thread: keeps iodepth I/Os in flight through the engine
 * until a stop condition, stamping and accounting every request.
 * Zero-initialize before starting the thread.
 */
struct worker {
	const struct job *job;
	struct target *tgt;		/* opened by the caller */
	const struct clock *clk;
	const atomic_int *stop;		/* set by SIGINT/SIGTERM */
	struct job_stats *stats;	/* results go here */
	pthread_t thread;
	bool started;
	bool abandoned;			/* worker_abandon() succeeded */
	atomic_int state;		/* enum worker_state */
	void *priv;			/* the thread's own state */
	/* interval=: where the samples go (made by the caller), or NULL */
	struct ival_series *series;
	bool live_on;			/* fill live */
	struct worker_live live;
	/* What the engine's setup got (engine_ops.setup), or NULL */
	struct engine_setup *setup;
	struct worker_gate *gate;	/* NULL: start at once */
	unsigned log_index;		/* fio's job number in log names */
	bool gate_passed;		/* the thread's own */
	struct worker_window win;	/* written by the thread */
	/* Run control (src/worker/runctl.c) */
	unsigned thread_idx;		/* its place among the run's clones,
					 * from 0: cpus_allowed_policy=split */
	atomic_int *halt;		/* exitall: set, the jobs of the wait
					 * group stop; NULL: no job of the
					 * group has exitall(_on_error) */
	struct worker *peers;		/* wait_for: the run's workers */
	size_t npeers;
	/* steadystate under group_reporting: the reporting group's record,
	 * judged on all its clones, and this clone's place in it; NULL:
	 * judged alone (steady.h) */
	struct steady_group *ssg;
	unsigned ssg_idx;
};

/* The thread body; returns NULL. Errors land in w->stats->err. */
void *worker_main(void *arg);

/*
 * For the thread that started w, once *stop is set and w has not ended
 * within the grace period: an I/O that the device or file system does not
 * answer must not hold the report back. Returns true when w is blocked in
 * an engine call or fsync and has been given up on: from then on it
 * touches neither w->stats nor the target (its stats are completed as of
 * now and marked interrupted and abandoned, its last interval closed as
 * of now in w->series); detach it, and free neither
 * w nor the clock, nor close its target: the process is to exit.
 * Returns false when w is between such calls (it will see *stop soon:
 * try again).
 */
bool worker_abandon(struct worker *w);

#endif
