// SPDX-License-Identifier: MIT
/*
 * Run control inside a worker: the CPUs its thread may use
 * (cpus_allowed=, cpumask=, cpus_allowed_policy=), wait_for=, exitall=,
 * steadystate= sampling, and the report's shape under gtod_reduce= and
 * disable_*=. Nothing here runs per I/O: should_stop() calls ctl_stop()
 * only with WF_HALT in ft.loop, and ctl_stop looks at the clock it
 * already has.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpuset.h"
#include "wstate.h"

#define WAIT_POLL_NS	1000000

/* What run control keeps of a worker (wstate.ctl), from ctl_setup on. */
struct runctl {
	bool io_done_on;		/* cpuio's exit_on_io_done */
	char cpus[64];			/* the CPUs allowed, a list */
	struct steady_rec *ss;		/* steadystate; NULL: off */
	uint64_t ss_next;		/* ticks: the next sample; UINT64_MAX */
	uint64_t ss_prev_t, ss_prev_ios, ss_prev_bytes;
	uint64_t ss_prev_lat_n, ss_prev_lat_sum;
	bool ss_based;			/* ss_prev_* hold a baseline */
	uint64_t ss_k;			/* the next sample's index (from 0
					 * after the baseline) */
};

static int pin(struct wstate *s)
{
	const struct job *j = s->j;
	cpu_set_t set;
	int ret;

	if (j->cpu.cpus_allowed) {
		if (cpuset_for_clone(&j->cpu.cpus,
				     j->cpu.cpus_allowed_policy == CPUS_SPLIT,
				     s->w->thread_idx,
				     j->cpu.gtod_cpu == UINT64_MAX ? -1 :
				     (int)j->cpu.gtod_cpu, &set)) {
			job_fail(s, -EINVAL, "cpus_allowed=%s leaves no CPU "
				 "to run on", j->cpu.cpus_allowed);
			return -EINVAL;
		}
		ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (ret) {
			cpuset_format(&set, s->ctl->cpus, sizeof(s->ctl->cpus));
			job_fail(s, -ret, "cannot run on CPUs %s "
				 "(cpus_allowed): %s", s->ctl->cpus, strerror(ret));
			return -ret;
		}
	}
	/* What the kernel allows now: a cpuset may narrow it further. */
	if (!sched_getaffinity(0, sizeof(set), &set))
		cpuset_format(&set, s->ctl->cpus, sizeof(s->ctl->cpus));
	return 0;
}

int ctl_setup(struct wstate *s)
{
	const struct job *j = s->j;
	int ret;

	s->ctl = calloc(1, sizeof(*s->ctl));
	if (!s->ctl) {
		job_fail(s, -ENOMEM, "run control: out of memory");
		return -ENOMEM;
	}
	ret = pin(s);
	if (ret)
		return ret;
	s->ctl->ss_next = UINT64_MAX;
	if (s->w->ssg) {
		s->ctl->ss = steady_ref(s->w->ssg->rec);
	} else if (j->ss.ss_dur_ns && j->ss.steadystate) {
		s->ctl->ss = steady_new(&j->ss.ss_crit, j->ss.ss_dur_ns,
					j->ss.ss_interval_ns);
		if (!s->ctl->ss) {
			job_fail(s, -ENOMEM, "steadystate: out of memory");
			return -ENOMEM;
		}
	}
	/* exit_on_io_done: cpuio's plan sets it (engine.h) */
	s->ctl->io_done_on = j->eng.exit_on_io_done;
	if (s->ctl->ss || s->w->halt || s->ctl->io_done_on)
		s->ft.loop |= WF_BIT(WF_HALT);
	return 0;
}

static bool halted(const struct wstate *s)
{
	return s->w->halt && atomic_load_explicit(s->w->halt,
						  memory_order_relaxed);
}

/* Every started clone of wait_for's job in our wait group has ended. */
static bool others_done(const struct wstate *s)
{
	const struct job *me = s->j;
	size_t k;

	for (k = 0; k < s->w->npeers; k++) {
		const struct worker *o = &s->w->peers[k];

		if (o == s->w || !o->started || !o->job ||
		    o->job->plan.wait_group != me->plan.wait_group ||
		    strcmp(o->job->desc.name, me->order.wait_for))
			continue;
		if (!atomic_load_explicit(&o->live.done, memory_order_acquire))
			return false;
	}
	return true;
}

/*
 * exit_on_io_done (cpuio): every other job of our wait group that does
 * I/O (not cpuio or exec, fio's FIO_NOIO engines) has ended, and there
 * was one (fio's meaning: with such jobs only, the job runs its course).
 */
static bool io_done(const struct wstate *s)
{
	size_t k, n = 0;

	for (k = 0; k < s->w->npeers; k++) {
		const struct worker *o = &s->w->peers[k];

		if (o == s->w || !o->job ||
		    o->job->plan.wait_group != s->j->plan.wait_group ||
		    (o->job->eng.engine->flags & ENGINE_NOT_IO))
			continue;
		n++;
		if (!atomic_load_explicit(&o->live.done, memory_order_acquire))
			return false;
	}
	return n != 0;
}

bool ctl_wait(struct wstate *s)
{
	struct timespec ts = { 0, WAIT_POLL_NS };

	if (!s->j->order.wait_for || !s->w->peers)
		return true;
	while (!others_done(s)) {
		if (atomic_load(s->w->stop) || halted(s))
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

void ctl_arm(struct wstate *s)
{
	const struct job *j = s->j;

	if (!s->ctl->ss)
		return;
	/* Samples are of the measured phase: none while ramping. */
	s->ctl->ss_based = false;
	s->ctl->ss_k = 0;
	s->ctl->ss_next = s->ramp_end ? UINT64_MAX :
		     s->t0 + clock_ns_to_ticks(s->w->clk, j->ss.ss_ramp_ns);
}

/* One steady-state sample at s->now; true when steady. */
static bool ss_sample(struct wstate *s)
{
	const struct job_stats *st = s->st;
	uint64_t ios = 0, bytes = 0, n = 0, sum = 0, dt, at, iv;
	double lat_n;
	unsigned d;
	bool steady = false;

	for (d = 0; d < DDIR_NR; d++) {
		ios += st->dir[d].ios;
		bytes += st->dir[d].bytes;
		n += st->dir[d].clat.count;
		sum += st->dir[d].clat.sum;
	}
	dt = clock_delta_ns(s->w->clk, s->ctl->ss_prev_t, s->now);
	at = clock_delta_ns(s->w->clk, s->t0, s->now);
	if (s->ctl->ss_based && dt && s->w->ssg) {
		/* the group's sample k: this clone's part of it */
		steady = steady_group_add(s->w->ssg, s->w->ssg_idx, s->ctl->ss_k++,
			(double)(ios - s->ctl->ss_prev_ios) * 1e9 / (double)dt,
			(double)(bytes - s->ctl->ss_prev_bytes) * 1e9 / (double)dt,
			n - s->ctl->ss_prev_lat_n,
			(double)(sum - s->ctl->ss_prev_lat_sum), at);
	} else if (s->ctl->ss_based && dt) {
		lat_n = (double)(n - s->ctl->ss_prev_lat_n);
		steady = steady_add(s->ctl->ss,
			(double)(ios - s->ctl->ss_prev_ios) * 1e9 / (double)dt,
			(double)(bytes - s->ctl->ss_prev_bytes) * 1e9 / (double)dt,
			lat_n ? (double)(sum - s->ctl->ss_prev_lat_sum) / lat_n : 0);
		if (steady) {
			s->ctl->ss->attained = true;
			s->ctl->ss->at_ns = at;
		}
	}
	s->ctl->ss_based = true;
	s->ctl->ss_prev_t = s->now;
	s->ctl->ss_prev_ios = ios;
	s->ctl->ss_prev_bytes = bytes;
	s->ctl->ss_prev_lat_n = n;
	s->ctl->ss_prev_lat_sum = sum;
	iv = clock_ns_to_ticks(s->w->clk, s->j->ss.ss_interval_ns);
	s->ctl->ss_next += iv;
	if (s->ctl->ss_next <= s->now) {
		/* a long stall: start from now, the samples missed skipped */
		s->ctl->ss_k += (s->now - s->ctl->ss_next) / (iv ? iv : 1) + 1;
		s->ctl->ss_next = s->now + iv;
	}
	if (steady)
		s->ctl->ss_next = UINT64_MAX;
	return steady;
}

/* A clone of a group judged together samples no more. */
static void ss_leave(const struct wstate *s)
{
	if (s->w->ssg)
		steady_group_leave(s->w->ssg, s->w->ssg_idx,
				   clock_delta_ns(s->w->clk, s->t0, s->now));
}

bool ctl_stop(struct wstate *s)
{
	/* group_reporting: another clone found the group steady */
	if (s->w->ssg && steady_group_attained(s->w->ssg))
		return true;
	if (s->now >= s->ctl->ss_next && ss_sample(s))
		return true;
	if (s->ctl->io_done_on && s->w->peers && io_done(s))
		return true;
	return halted(s);
}

/* The report in fio's shape: what fio would not have measured is not
 * given (iorig measured it anyway: its clock is cheap). */
void ctl_figures(const struct wstate *s)
{
	const struct job *j = s->j;
	struct job_stats *st = s->st;
	unsigned d;

	ss_leave(s);
	if (s->ctl) {	/* NULL: given up on before ctl_setup */
		memcpy(st->cpus, s->ctl->cpus, sizeof(st->cpus));
		st->steady = s->ctl->ss;	/* the stats own it now */
	}
	for (d = 0; d < DDIR_NR; d++) {
		if (j->report.gtod_reduce || j->report.disable_lat)
			hist_init(&st->dir[d].lat);
		if (j->report.gtod_reduce || j->report.disable_clat)
			hist_init(&st->dir[d].clat);
		if (j->report.gtod_reduce || j->report.disable_slat)
			hist_init(&st->dir[d].slat);
	}
}

void ctl_end(struct wstate *s)
{
	const struct job *j = s->j;

	if (s->w->halt && (j->order.exitall || (j->order.exitall_on_error &&
						s->st->err)))
		atomic_store(s->w->halt, 1);
	ss_leave(s);
	if (!s->ctl)
		return;
	if (s->st->steady != s->ctl->ss)	/* not handed over */
		steady_free(s->ctl->ss);
	free(s->ctl);
	s->ctl = NULL;
}
