// SPDX-License-Identifier: MIT
/*
 * The start gate of a wait group and the measured window of each worker.
 * A group's files are all laid out and opened before any of its workers
 * starts (run.c); each worker then sets up (buffers, engine) and waits at
 * the gate until all of them have, so that their measured phases begin
 * together and none of them runs alone while another still sets up.
 * Each worker marks where its measured phase began and ended, with the
 * process' and the machine's CPU counters at those two points: the
 * phase's CPU figures cover the measured window, not layout, setup,
 * ramp_time or the verification phase.
 */
#include <errno.h>
#include <time.h>

#include "worker.h"

void worker_gate_init(struct worker_gate *g)
{
	pthread_condattr_t a;

	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cv, &a);
	pthread_condattr_destroy(&a);
	g->arrived = 0;
	g->open = false;
}

void worker_gate_destroy(struct worker_gate *g)
{
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->lock);
}

/* Under g->lock: until n workers have arrived or *stop is set. */
static void gate_wait_locked(struct worker_gate *g, unsigned n,
			     const atomic_int *stop, uint64_t poll_ns)
{
	struct timespec ts;
	uint64_t t;

	while (g->arrived < n && !atomic_load(stop)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = (uint64_t)ts.tv_nsec + poll_ns;
		ts.tv_sec += (time_t)(t / 1000000000ull);
		ts.tv_nsec = (long)(t % 1000000000ull);
		pthread_cond_timedwait(&g->cv, &g->lock, &ts);
	}
}

void worker_gate_wait(struct worker_gate *g, unsigned n,
		      const atomic_int *stop, uint64_t poll_ns)
{
	pthread_mutex_lock(&g->lock);
	gate_wait_locked(g, n, stop, poll_ns);
	pthread_mutex_unlock(&g->lock);
}

void worker_gate_open(struct worker_gate *g, unsigned n,
		      const atomic_int *stop, uint64_t poll_ns)
{
	pthread_mutex_lock(&g->lock);
	gate_wait_locked(g, n, stop, poll_ns);
	g->open = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->lock);
}

void worker_gate_pass(struct worker *w)
{
	struct worker_gate *g = w->gate;

	if (!g || w->gate_passed)
		return;
	w->gate_passed = true;
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void worker_window_mark(struct worker *w, bool end)
{
	struct worker_window *x = &w->win;

	if (end) {
		cpu_process(&x->proc1);
		cpu_sys(&x->sys1);
		x->end_ns = clock_mono_ns();
		return;
	}
	/* Again at the end of ramp_time: the measured phase starts anew. */
	x->start_ns = clock_mono_ns();
	cpu_process(&x->proc0);
	cpu_sys(&x->sys0);
}
