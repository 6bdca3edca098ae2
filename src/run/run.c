// SPDX-License-Identifier: MIT
/*
 * Runs a plan: every job's targets are validated before anything is
 * created or written; then the wait groups run one after the other.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "curve.h"
#include "door.h"
#include "engine.h"
#include "iolog.h"
#include "iosched.h"
#include "jobexec.h"
#include "path.h"
#include "peers.h"
#include "procattr.h"
#include "progress.h"
#include "run.h"
#include "sysinfo.h"
#include "stream.h"
#include "value.h"
#include "verify.h"
#include "worker.h"

/*
 * After a signal, how long the workers get to collect their I/Os in flight
 * before one still blocked in an I/O is given up on (worker_abandon), and
 * how often the main thread looks: the run stops within about a second
 * whatever the device does.
 */
#define STOP_GRACE_NS	500000000ull
#define JOIN_POLL_NS	50000000ull

static bool needs_files(const struct job *j)
{
	return !(j->eng.engine->flags & ENGINE_NOIO);
}

/* "job 'NAME': " before e's message. */
static void err_job(struct err_rec *e, const struct job *j)
{
	char pre[160];
	size_t n = (size_t)snprintf(pre, sizeof(pre), "job '%s': ",
				    j->desc.name);

	n = n < sizeof(pre) ? n : sizeof(pre) - 1;
	memmove(e->msg + n, e->msg, sizeof(e->msg) - n - 1);
	memcpy(e->msg, pre, n);
	e->msg[sizeof(e->msg) - 1] = '\0';
}

/*
 * Every job's targets, checked; then the free space their layout needs,
 * per file system over the whole run (w: its warnings, or NULL).
 */
struct access_arg {
	const struct target *t;
	const struct job *j;
	const char *who;
	struct err_rec *e;
};

static int access_as_job(void *arg)
{
	struct access_arg *a = arg;

	return target_check_access(a->t, a->j, a->j->cpu.uid != UINT64_MAX ?
				   "uid" : "gid", a->who, a->e);
}

/*
 * uid=, gid=: the job's files are opened as the job's user when its
 * group starts; what that user may not read or write is refused now
 * (exit 2), checked by the kernel on a thread of that user's.
 */
static int check_job_access(const struct target *t, const struct job *j,
			    struct err_rec *e)
{
	struct access_arg a = { .t = t, .j = j, .e = e };
	char who[96], why[256];
	int ret;

	if (j->cpu.uid == UINT64_MAX && j->cpu.gid == UINT64_MAX)
		return 0;
	if (j->cpu.uid != UINT64_MAX && j->cpu.gid != UINT64_MAX)
		snprintf(who, sizeof(who), "as uid=%" PRIu64 " gid=%" PRIu64
			 " (the job's user)", j->cpu.uid, j->cpu.gid);
	else if (j->cpu.uid != UINT64_MAX)
		snprintf(who, sizeof(who), "as uid=%" PRIu64 " (the job's "
			 "user)", j->cpu.uid);
	else
		snprintf(who, sizeof(who), "as gid=%" PRIu64 " (the job's "
			 "group)", j->cpu.gid);
	a.who = who;
	e->msg[0] = '\0';
	ret = procattr_as_job(j, access_as_job, &a, why, sizeof(why));
	if (ret && !e->msg[0])
		err_set(e, "", 0, j->cpu.uid != UINT64_MAX ? "uid" : "gid",
			"%s", why);
	return ret;
}

/*
 * The free space the layout of the run's files needs, per file system
 * (w: where a file system whose free space is unknown is said, or NULL).
 */
static int plan_space(const struct plan *p, const struct target *tg,
		      struct warn_list *w, struct err_rec *e)
{
	struct target_space space = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < p->njobs; i++) {
		if (!needs_files(&p->jobs[i]))
			continue;
		ret = target_space_add(&space, &tg[i], &p->jobs[i], e);
		if (ret)
			err_job(e, &p->jobs[i]);
	}
	if (!ret)
		ret = target_space_check(&space, w, e);
	target_space_free(&space);
	return ret;
}

static int plan_targets(const struct plan *p, struct target *tg,
			struct warn_list *w, struct err_rec *e)
{
	const struct engine_ops *const *l;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < p->njobs; i++) {
		if (!needs_files(&p->jobs[i])) {
			/* the null engine stands in for files */
			ret = target_plan_noio(&tg[i], &p->jobs[i],
					       !(p->jobs[i].eng.engine->flags &
						 ENGINE_NODATA), e);
			if (ret)
				err_job(e, &p->jobs[i]);
			continue;
		}
		ret = target_plan(&tg[i], &p->jobs[i],
				  p->jobs[i].eng.engine->file_size, e);
		if (!ret)
			ret = check_job_access(&tg[i], &p->jobs[i], e);
		if (!ret && p->jobs[i].eng.engine->plan_target)
			ret = p->jobs[i].eng.engine->plan_target(&tg[i],
								 &p->jobs[i],
								 e);
		if (ret)
			err_job(e, &p->jobs[i]);
	}
	for (l = engine_list(); !ret && *l; l++)
		if ((*l)->plan_run)
			ret = (*l)->plan_run(p->jobs, tg, p->njobs, e);
	if (!ret)
		ret = plan_space(p, tg, w, e);
	if (!ret)
		ret = verify_plan_overlaps(p->jobs, tg, p->njobs, e);
	if (!ret)
		ret = target_zbd_share(p->jobs, tg, p->njobs, e);
	return ret;
}

/*
 * Each job's NVMe health (stats.h: stats_health) from the namespaces under
 * its targets: what grew over the run, the state after; the largest of
 * its namespaces'.
 */
static void health_jobs(const struct plan *p, struct run_result *r)
{
	struct nvmedev_health dh;
	const struct nvmedev_dev *d;
	struct stats_health one;
	size_t i;
	unsigned f;

	for (i = 0; r->targets && i < p->njobs; i++) {
		for (f = 0; f < r->targets[i].n; f++) {
			if (r->targets[i].t[f].nvme < 0)
				continue;
			d = &r->nvme.d[r->targets[i].t[f].nvme];
			if (!d->have_after)
				continue;
			nvmedev_health_sub(&dh, &d->after, &d->before);
			one.known = true;
			one.media_errors = dh.media_errors;
			one.error_log_entries = dh.error_log_entries;
			one.critical_warning = dh.critical_warning;
			one.percentage_used = dh.percentage_used;
			stats_health_merge(&r->stats[i].health, &one);
		}
	}
}

static void host_info(struct run_result *r)
{
	struct sysinfo_host h;

	sysinfo_host("", &h);
	memcpy(r->kernel, h.kernel, sizeof(r->kernel));
	memcpy(r->hostname, h.hostname, sizeof(r->hostname));
	memcpy(r->cpu_model, h.cpu_model, sizeof(r->cpu_model));
	r->ncpus = h.ncpus;
	r->memory_bytes = h.memory_bytes;
}

/*
 * Describe job i's targets once they are open (files exist then), and
 * start watching their devices' /proc/diskstats. A target on the device
 * of the one before (this job's, or the last of job i - 1, described just
 * before it when it was opened: clones, runs, sweep points) takes its
 * description. Out of memory only leaves them undescribed.
 */
static void describe_targets(struct run_result *r, size_t i,
			     const struct target *t, bool files, bool watch)
{
	struct run_targets *rt = &r->targets[i];
	const struct run_targets *before = i ? &r->targets[i - 1] : NULL;
	const struct sysinfo_target *prev = before && before->n ?
		&before->t[before->n - 1].info : NULL;
	unsigned f, n = files ? t->nfiles : 1;

	rt->t = calloc(n, sizeof(*rt->t));
	if (!rt->t)
		return;
	rt->n = n;
	for (f = 0; f < n; f++)
		rt->t[f].nvme = -1;
	for (f = 0; f < n && files; f++) {
		struct run_target *x = &rt->t[f];
		const char *name = x->info.dev.name;

		x->path = strdup(t->files[f].path);
		/* an NVMe namespace: its identity, its health before */
		x->nvme = nvmedev_watch(&r->nvme, t->files[f].fd,
					t->files[f].path);
		if (x->nvme < 0)
			x->nvme = -1;
		if (sysinfo_target_fd("", t->files[f].fd, prev, &x->info))
			continue;
		prev = &x->info;
		/* passthrough commands are not in /proc/diskstats */
		if (x->info.has_device && watch && !t->files[f].is_nvme_chr)
			sysinfo_disks_watch(&r->disks, "", name,
					    clock_mono_ns());
	}
}

/* ioscheduler=: on the disk of each of job i's targets (described just
 * before). A target with no disk (tmpfs, the null engine) is left, as fio
 * does; when none has one, a warning says so. */
static int switch_scheds(struct run_result *r, size_t i, const struct job *j,
			 char *why, size_t whylen)
{
	struct run_targets *rt = &r->targets[i];
	unsigned f, done = 0;
	int ret;

	for (f = 0; f < rt->n; f++) {
		if (!rt->t[f].info.has_device || !*rt->t[f].info.dev.name)
			continue;
		ret = iosched_switch("", rt->t[f].info.dev.name,
				     j->eng.ioscheduler, why, whylen);
		if (ret)
			return ret;
		/* The report says what the job ran with. */
		snprintf(rt->t[f].info.dev.scheduler,
			 sizeof(rt->t[f].info.dev.scheduler), "%s",
			 j->eng.ioscheduler);
		done++;
	}
	if (!done && j->plan.clone == 0)
		warn_add(&r->warnings, "ioscheduler_no_disk", j->desc.name,
			 "job '%s': ioscheduler=%s: no block device under its "
			 "targets, nothing switched", j->desc.name, j->eng.ioscheduler);
	return 0;
}

/*
 * Workers run with SIGINT and SIGTERM blocked, so that the main thread,
 * never blocked in an I/O, takes them and the stop flag is set at once: a
 * thread blocked in the kernel runs a handler only when its I/O returns.
 */
/* What a new thread's stack takes (RLIMIT_STACK, or glibc's default). */
static size_t thread_stack_size(void)
{
	pthread_attr_t a;
	size_t sz = 0;

	if (!pthread_getattr_default_np(&a)) {
		pthread_attr_getstacksize(&a, &sz);
		pthread_attr_destroy(&a);
	}
	return sz;
}

static int start_worker(struct worker *w)
{
	sigset_t sigs, old;
	int r;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	r = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -r;
}

/* What the live views (struct run_watch) need while the jobs run. */
struct run_live {
	const struct run_watch *watch;	/* NULL: none */
	const struct plan *p;
	struct worker *w;
	uint64_t t0_ns;			/* the run began */
	unsigned wg;			/* the wait group running */
};

/* How long a job that has not begun yet will take; UNKNOWN unless it is
 * time_based. */
static uint64_t job_span(const struct job *j)
{
	return j->time.time_based ?
		j->time.startdelay_ns + j->time.ramp_time_ns +
			       j->time.runtime_ns : PROGRESS_UNKNOWN;
}

/* The part of a limit done, 0 without a limit. */
static double part_done(const _Atomic uint64_t *done,
			const _Atomic uint64_t *limit)
{
	uint64_t l = atomic_load_explicit(limit, memory_order_relaxed);

	if (!l || l == UINT64_MAX)
		return 0;
	return (double)atomic_load_explicit(done, memory_order_relaxed) /
	       (double)l;
}

/*
 * What is left of a running job: exact for time_based jobs, estimated
 * for the others from the part of their size (or number_ios) done in the
 * time they took, never beyond their runtime.
 */
static uint64_t job_left(const struct job *j, const struct worker_live *l,
			 uint64_t now)
{
	uint64_t t0 = atomic_load_explicit(&l->t0_ns, memory_order_relaxed);
	uint64_t since = counter_sub0(now, t0), rt = PROGRESS_UNKNOWN, est;
	double frac, f;

	if (!t0)
		return job_span(j);
	if (atomic_load_explicit(&l->ramping, memory_order_relaxed))
		return j->time.time_based ?
			counter_sub0(j->time.ramp_time_ns, since) +
				       j->time.runtime_ns : PROGRESS_UNKNOWN;
	if (j->time.runtime_ns)
		rt = counter_sub0(j->time.runtime_ns, since);
	if (j->time.time_based)
		return rt;
	frac = part_done(&l->issued_bytes, &l->limit_bytes);
	f = part_done(&l->issued_ios, &l->limit_ios);
	frac = f > frac ? f : frac;
	if (frac <= 0 || !since)
		return rt;
	est = frac >= 1 ? 0 : (uint64_t)((double)since * (1 - frac) / frac);
	return est < rt ? est : rt;
}

/* The time left in the running wait group and the ones after it. */
static uint64_t run_left(const struct run_live *lv, uint64_t now)
{
	const struct plan *p = lv->p;
	uint64_t left = 0, g, x;
	unsigned wg;
	size_t i;

	for (wg = lv->wg; wg < p->nwait_groups; wg++) {
		g = 0;
		for (i = 0; i < p->njobs; i++) {
			if (p->jobs[i].plan.wait_group != wg)
				continue;
			if (wg == lv->wg && !lv->w[i].started)
				continue;
			x = wg > lv->wg ? job_span(&p->jobs[i]) :
			    atomic_load(&lv->w[i].live.done) ? 0 :
			    job_left(&p->jobs[i], &lv->w[i].live, now);
			if (x == PROGRESS_UNKNOWN)
				return PROGRESS_UNKNOWN;
			g = x > g ? x : g;
		}
		left += g;
	}
	return left;
}

static void live_progress(const struct run_live *lv, struct progress *pr)
{
	struct progress_snap sn = { .now_ns = clock_mono_ns() };
	const struct worker *w;
	size_t i;
	int d;

	if (!progress_due(pr, sn.now_ns))
		return;
	sn.elapsed_ns = counter_sub0(sn.now_ns, lv->t0_ns);
	sn.remaining_ns = run_left(lv, sn.now_ns);
	for (i = 0; i < lv->p->njobs; i++) {
		w = &lv->w[i];
		if (!w->started)
			continue;
		sn.running += !w->abandoned && !atomic_load(&w->live.done);
		for (d = 0; d < DDIR_NR; d++) {
			sn.ios[d] += atomic_load_explicit(&w->live.ios[d],
							  memory_order_relaxed);
			sn.bytes[d] += atomic_load_explicit(&w->live.bytes[d],
							memory_order_relaxed);
		}
	}
	progress_show(pr, &sn);
}

/*
 * About every JOIN_POLL_NS while a wait group runs, and once when it has
 * ended (end): the samples published since, the status line when due
 * (taken off the screen at the end).
 */
static void live_tick(const struct run_live *lv, bool end)
{
	size_t i;

	if (!lv->watch)
		return;
	for (i = 0; lv->watch->stream && i < lv->p->njobs; i++)
		stream_poll(lv->watch->stream, i, lv->w[i].series);
	if (lv->watch->progress && end)
		progress_clear(lv->watch->progress);
	else if (lv->watch->progress)
		live_progress(lv, lv->watch->progress);
}

/*
 * Join w. Once *stop is set, a worker that has not ended STOP_GRACE_NS
 * after the stop was first seen here (*stop_ns; 0: not yet) is abandoned
 * as soon as it is blocked in an I/O; returns false then.
 * pthread_timedjoin_np (CLOCK_REALTIME: a clock step only changes one
 * poll) rather than pthread_clockjoin_np, which ThreadSanitizer does not
 * know as a join.
 */
static bool join_worker(struct worker *w, const atomic_int *stop,
			uint64_t *stop_ns, const struct run_live *lv)
{
	struct timespec ts;
	uint64_t now, t;

	for (;;) {
		clock_gettime(CLOCK_REALTIME, &ts);
		t = (uint64_t)ts.tv_nsec + JOIN_POLL_NS;
		ts.tv_sec += (time_t)(t / 1000000000ull);
		ts.tv_nsec = (long)(t % 1000000000ull);
		if (!pthread_timedjoin_np(w->thread, NULL, &ts))
			return true;
		live_tick(lv, false);
		if (!atomic_load(stop))
			continue;
		now = clock_mono_ns();
		if (!*stop_ns)
			*stop_ns = now;
		if (now - *stop_ns >= STOP_GRACE_NS && worker_abandon(w)) {
			pthread_detach(w->thread);
			return false;
		}
	}
}

/*
 * MPI ranks: every rank's targets of group wg are open, or none of the
 * group's jobs starts anywhere; a job that failed here names itself, the
 * others the rank that failed.
 */
static void peers_opened(const struct plan *p, unsigned wg,
			 struct target *tg, struct worker *w,
			 struct run_result *r, struct peers *pe)
{
	char mine[1024], why[1024];
	size_t i;

	mine[0] = '\0';
	for (i = 0; i < p->njobs && !mine[0]; i++)
		if (p->jobs[i].plan.wait_group == wg && r->stats[i].err)
			snprintf(mine, sizeof(mine), "job '%.200s': %.800s",
				 p->jobs[i].desc.name, r->stats[i].err_msg);
	if (pe->failed || !pe->agree(pe, mine[0] ? mine : NULL, why,
				     sizeof(why)))
		return;
	for (i = 0; i < p->njobs; i++) {
		if (p->jobs[i].plan.wait_group != wg || !w[i].started)
			continue;
		w[i].started = false;
		if (needs_files(&p->jobs[i]))
			target_close(&tg[i], false);
		r->stats[i].err = -ECANCELED;
		snprintf(r->stats[i].err_msg, sizeof(r->stats[i].err_msg),
			 "not run: %s", why);
	}
}

/* target_open as the job's uid=/gid= (procattr_cred_enter): its files
 * are made and checked as the job's user's, as fio's job process does. */
static int open_as_job(struct target *t, struct target *all, size_t n,
		       const struct job *j, const atomic_int *stop,
		       struct err_rec *e)
{
	struct procattr_cred sv;
	char why[256];
	int ret;

	if (j->cpu.uid == UINT64_MAX && j->cpu.gid == UINT64_MAX)
		return target_open(t, all, n, j, stop, e);
	ret = procattr_cred_enter(j, &sv, why, sizeof(why));
	if (ret) {
		err_set(e, "", 0, "", "%s", why);
		return ret;
	}
	ret = target_open(t, all, n, j, stop, e);
	procattr_cred_leave(&sv);
	return ret;
}

/*
 * Open (and lay out) every target of wait group wg, then start its
 * workers; they set up and wait at the gate, which opens once all have:
 * no clone runs while another one's file is still being laid out.
 * Returns how many workers started.
 */
static unsigned start_group(const struct plan *p, unsigned wg,
			    struct target *tg, struct worker *w,
			    const struct clock *clk, const atomic_int *stop,
			    struct run_result *r, struct run_live *lv,
			    struct worker_gate *gate, atomic_int *halt,
			    struct steady_group *const *ssg,
			    const unsigned *ssg_idx)
{
	struct err_rec e;
	unsigned n = 0;
	size_t i;
	int ret;

	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		if (j->plan.wait_group != wg || atomic_load(stop))
			continue;
		tg[i].warn = &r->warnings;
		/* A curve's point: its rate from the probe, run before. */
		if (j->plan.curve_point > 1 &&
		    (ret = curve_set_rate(p, i, r, r->stats[i].err_msg,
					  sizeof(r->stats[i].err_msg)))) {
			r->stats[i].err = ret;
			continue;
		}
		ret = needs_files(j) &&
			!(j->eng.engine->flags & ENGINE_NOLAYOUT) ?
		      open_as_job(&tg[i], tg, p->njobs, j, stop, &e) : 0;
		if (ret) {
			r->stats[i].interrupted = atomic_load(stop) != 0;
			/* Stopped laying out: not run, not failed. */
			if (ret == -EINTR && r->stats[i].interrupted)
				continue;
			r->stats[i].err = ret;
			err_format(&e, r->stats[i].err_msg,
				   sizeof(r->stats[i].err_msg));
			continue;
		}
		describe_targets(r, i, &tg[i], needs_files(j),
				 j->report.disk_util);
		if (j->eng.ioscheduler &&
		    (ret = switch_scheds(r, i, j, r->stats[i].err_msg,
					 sizeof(r->stats[i].err_msg)))) {
			r->stats[i].err = ret;
			continue;
		}
		/* exec_prerun= (jobexec.h): laid out, not started; failing,
		 * the clone does no I/O and its exec_postrun is not run */
		if (j->order.exec_prerun &&
		    (ret = jobexec_run(j, j->order.exec_prerun, "prerun",
				       tg[i].fence, r->stats[i].err_msg,
				       sizeof(r->stats[i].err_msg)))) {
			r->stats[i].err = ret;
			continue;
		}
		w[i] = (struct worker){
			.job = j, .tgt = &tg[i], .clk = clk, .stop = stop,
			.stats = &r->stats[i], .setup = &r->targets[i].engine,
			.live_on = lv->watch && lv->watch->progress,
			.gate = gate, .log_index = (unsigned)i + 1,
			.thread_idx = (unsigned)i,
			.halt = halt, .peers = w, .npeers = p->njobs,
			.ssg = ssg ? ssg[i] : NULL,
			.ssg_idx = ssg_idx ? ssg_idx[i] : 0,
		};
		/* The worker's until it ends (it resets r->stats[i]) */
		if (j->report.interval_ns &&
		    !(w[i].series = ival_series_new(j->report.interval_ns,
						    lv->watch &&
						    lv->watch->stream))) {
			r->stats[i].err = -ENOMEM;
			snprintf(r->stats[i].err_msg,
				 sizeof(r->stats[i].err_msg),
				 "interval samples: out of memory");
			continue;
		}
		/* Opened: started below, once every file of the group is. */
		w[i].started = true;
	}
	/* (should the peers cancel the group, none of it starts) */
	if (lv->watch && lv->watch->peers)
		peers_opened(p, wg, tg, w, r, lv->watch->peers);
	for (i = 0; i < p->njobs; i++) {
		if (p->jobs[i].plan.wait_group != wg || !w[i].started)
			continue;
		w[i].started = false;
		ret = start_worker(&w[i]);
		if (ret) {
			r->stats[i].err = ret;
			snprintf(r->stats[i].err_msg,
				 sizeof(r->stats[i].err_msg),
				 "cannot start a thread (stack of %zu bytes): %s",
				 thread_stack_size(), strerror(-ret));
			continue;
		}
		w[i].started = true;
		r->ran[i] = true;
		n++;
	}
	return n;
}

/*
 * The group's measured window into ph: from the earliest start of a
 * measured phase to the latest end, with the process' and the machine's
 * CPU over it (worker_window). A worker that ended without marking its end
 * (given up on) ends the window at *end; none that measured: the window
 * is from the gate's opening (*start) to *end.
 */
static void group_window(const struct plan *p, unsigned wg,
			 const struct worker *w, const struct worker_window *gw,
			 struct phase_cpu *ph)
{
	struct worker_window x = { 0 };
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		const struct worker_window *y = &w[i].win;

		if (p->jobs[i].plan.wait_group != wg || !w[i].started ||
		    !y->start_ns)
			continue;
		if (!x.start_ns || y->start_ns < x.start_ns) {
			x.start_ns = y->start_ns;
			x.proc0 = y->proc0;
			x.sys0 = y->sys0;
		}
		if (!y->end_ns)
			y = gw;		/* still blocked: up to the end */
		if (y->end_ns > x.end_ns) {
			x.end_ns = y->end_ns;
			x.proc1 = y->proc1;
			x.sys1 = y->sys1;
		}
	}
	if (!x.start_ns)
		x = *gw;
	ph->wall_ns = counter_sub0(x.end_ns, x.start_ns);
	cpu_sub(&ph->proc, &x.proc1, &x.proc0);
	cpu_sys_sub(&ph->sys, &x.sys1, &x.sys0);
}

/*
 * A buffered job that writes and never syncs (fsync, fdatasync,
 * end_fsync, sync=, verification): its writes may end in the page cache.
 */
static bool writes_unsynced(const struct job *j)
{
	return !j->cache.direct && needs_files(j) &&
	       rw_dirs(j->io.rw) & (1u << DDIR_WRITE) && !j->cache.fsync &&
	       !j->cache.fdatasync &&
	       !j->cache.end_fsync && j->cache.sync == SYNC_NONE &&
	       !j->vfy.verify;
}

/* The sectors job i's device (its first target's) has written; false when
 * not known. */
static bool dev_written(const struct run_result *r, size_t i, uint64_t *sec)
{
	const struct run_targets *rt = &r->targets[i];
	struct sysinfo_diskstat ds;

	if (!rt->t || !rt->n || !rt->t[0].info.has_device ||
	    sysinfo_diskstat("", rt->t[0].info.dev.name, &ds))
		return false;
	*sec = ds.wr_sectors;
	return true;
}

/*
 * After the group: a buffered job whose writes did not reach its device
 * (less than half of what it wrote) measured the page cache. Below
 * UNWRITTEN_MIN bytes it is not judged: a quick job's few MiB are
 * written back later as a matter of course, and its figures are mostly
 * its start. w0[i]: the device's sectors written when the group started,
 * UINT64_MAX unknown.
 */
#define UNWRITTEN_MIN	(8ull << 20)

static void warn_unwritten(const struct plan *p, unsigned wg,
			   struct run_result *r, const uint64_t *w0)
{
	char wrote[32], dev[32];
	uint64_t sec, bytes;
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		bytes = r->stats[i].dir[DDIR_WRITE].bytes;
		if (j->plan.wait_group != wg || !r->ran[i] ||
		    w0[i] == UINT64_MAX ||
		    bytes < UNWRITTEN_MIN || !dev_written(r, i, &sec) ||
		    counter_sub0(sec, w0[i]) * 512 >= bytes / 2)
			continue;
		value_fmt_bytes(bytes, wrote, sizeof(wrote));
		value_fmt_bytes(counter_sub0(sec, w0[i]) * 512, dev,
				sizeof(dev));
		warn_add(&r->warnings, "buffered_writes_cached", j->desc.name,
			 "job '%s': %s of buffered writes (direct=0), but its "
			 "device %s wrote %s while the job ran: the rest is "
			 "still in the page cache, so the figures measure "
			 "memory, not the device; use direct=1, end_fsync=1 "
			 "or fsync", j->desc.name, wrote,
			 r->targets[i].t[0].info.dev.name, dev);
	}
}

/* A failing exec_postrun changes no figure (as in fio): a warning. */
static void postrun(const struct job *j, const struct target *t,
		    struct run_result *r)
{
	char why[1024];

	if (jobexec_run(j, j->order.exec_postrun, "postrun", t->fence, why,
			sizeof(why)))
		warn_add(&r->warnings, "exec_postrun_failed", j->desc.name,
			 "job '%s': %s", j->desc.name, why);
}

/* Jobs judged with their reporting group (steady.h). */
static bool steady_grouped(const struct job *j)
{
	return j->report.group_reporting && j->ss.ss_dur_ns &&
		j->ss.steadystate;
}

/* The first job of 0..i-1 that shares job i's group record, or i. */
static size_t steady_first(struct steady_group *const *g, size_t i)
{
	size_t k;

	for (k = 0; k < i && g[k] != g[i]; k++)
		;
	return k;
}

/* Each group record of g[0..n) freed once. */
static void steady_groups_free(struct steady_group **g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (g[i] && steady_first(g, i) == i)
			steady_group_free(g[i]);
	for (i = 0; i < n; i++)
		g[i] = NULL;
}

/*
 * steadystate under group_reporting: one record per reporting group of
 * wait group wg, judged on all its clones (the plan checked that they
 * agree on it), in g[i] for job i with its place in idx[i]; NULL: judged
 * alone. Fails only out of memory (false), having made none.
 */
static bool steady_groups(const struct plan *p, unsigned wg,
			  struct steady_group **g, unsigned *idx)
{
	const struct job *j;
	size_t i, k;
	unsigned n;

	for (i = 0; i < p->njobs; i++) {
		j = &p->jobs[i];
		g[i] = NULL;
		idx[i] = 0;
		if (j->plan.wait_group != wg || !steady_grouped(j))
			continue;
		for (k = 0; k < i; k++)
			if (g[k] && p->jobs[k].plan.group == j->plan.group)
				break;
		if (k < i) {
			g[i] = g[k];
			for (; k < i; k++)
				idx[i] += g[k] == g[i];
			continue;
		}
		for (n = 0, k = i; k < p->njobs; k++)
			n += p->jobs[k].plan.wait_group == wg &&
			     steady_grouped(&p->jobs[k]) &&
			     p->jobs[k].plan.group == j->plan.group;
		g[i] = steady_group_new(&j->ss.ss_crit, j->ss.ss_dur_ns,
					j->ss.ss_interval_ns, n);
		if (!g[i]) {
			steady_groups_free(g, i);
			return false;
		}
	}
	return true;
}
static void run_phase(const struct plan *p, unsigned wg, struct target *tg,
		      struct worker *w, const struct clock *clk,
		      const atomic_int *stop, struct run_result *r,
		      struct run_live *lv)
{
	struct phase_cpu *ph = &r->phases[wg];
	struct worker_window gw = { 0 };
	struct worker_gate gate;
	uint64_t stop_ns = 0, *w0;
	atomic_int halt = 0;
	bool ended, exitall = false;
	struct steady_group **ssg = calloc(p->njobs, sizeof(*ssg));
	unsigned n, *ssg_idx = calloc(p->njobs, sizeof(*ssg_idx));
	size_t i;

	lv->wg = wg;
	worker_gate_init(&gate);
	/* exitall, exitall_on_error: the group's workers watch one flag */
	for (i = 0; i < p->njobs; i++)
		exitall = exitall || (p->jobs[i].plan.wait_group == wg &&
				      (p->jobs[i].order.exitall ||
				       p->jobs[i].order.exitall_on_error));
	if (!ssg || !ssg_idx || !steady_groups(p, wg, ssg, ssg_idx)) {
		free(ssg);
		free(ssg_idx);
		ssg = NULL;
		ssg_idx = NULL;
		for (i = 0; i < p->njobs; i++)
			if (p->jobs[i].plan.wait_group == wg &&
			    steady_grouped(&p->jobs[i]))
				warn_add(&r->warnings, "steady_alone",
					 p->jobs[i].desc.name,
					 "job '%s': out of "
					 "memory: steady state judged per "
					 "clone", p->jobs[i].desc.name);
	}
	n = start_group(p, wg, tg, w, clk, stop, r, lv, &gate,
			exitall ? &halt : NULL, ssg, ssg_idx);
	/* a clone that did not start gives its group no samples */
	for (i = 0; ssg && i < p->njobs; i++)
		if (ssg[i] && !w[i].started)
			steady_group_leave(ssg[i], ssg_idx[i], 0);
	w0 = malloc(p->njobs * sizeof(*w0));	/* none: no warning */
	for (i = 0; w0 && i < p->njobs; i++)
		if (p->jobs[i].plan.wait_group != wg || !w[i].started ||
		    !writes_unsynced(&p->jobs[i]) ||
		    !dev_written(r, i, &w0[i]))
			w0[i] = UINT64_MAX;
	if (lv->watch && lv->watch->peers && !lv->watch->peers->failed) {
		worker_gate_wait(&gate, n, stop, JOIN_POLL_NS);
		lv->watch->peers->go(lv->watch->peers, wg);
	}
	worker_gate_open(&gate, n, stop, JOIN_POLL_NS);
	gw.start_ns = clock_mono_ns();
	cpu_process(&gw.proc0);
	cpu_sys(&gw.sys0);
	for (i = 0; i < p->njobs; i++) {
		if (p->jobs[i].plan.wait_group != wg)
			continue;
		ended = !w[i].started || join_worker(&w[i], stop, &stop_ns,
						     lv);
		/* Ended or given up on: the samples are the results' now. */
		r->stats[i].intervals = w[i].series;
		r->stats[i].start_ns = w[i].win.start_ns;
		r->stats[i].phase = wg + 1;
		if (!ended)
			continue;	/* abandoned: it may use the fds */
		/* exec_postrun=: after the I/O, before the files close */
		if (p->jobs[i].order.exec_postrun && r->ran[i])
			postrun(&p->jobs[i], &tg[i], r);
		if (needs_files(&p->jobs[i]))
			target_close(&tg[i], false);
	}
	cpu_process(&gw.proc1);
	cpu_sys(&gw.sys1);
	gw.end_ns = clock_mono_ns();
	/* Every worker passed it (an abandoned one is blocked after it). */
	worker_gate_destroy(&gate);
	sysinfo_disks_stop(&r->disks, "", clock_mono_ns());
	nvmedev_stop(&r->nvme);	/* their health after, so far */
	live_tick(lv, true);
	group_window(p, wg, w, &gw, ph);
	if (w0)
		warn_unwritten(p, wg, r, w0);
	free(w0);
	/* The workers of the group are joined (or given up on, and touch
	 * nothing shared again): halt's life ends here, and the steady
	 * groups' (their records stay with the clones' stats). */
	if (ssg)
		steady_groups_free(ssg, p->njobs);
	free(ssg);
	free(ssg_idx);
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].plan.wait_group == wg)
			ph->ios += stats_ios(&r->stats[i]);
}

/* A job of wait group wg with exitall_on_error failed: run no more. */
static bool exit_on_error(const struct plan *p, unsigned wg,
			  const struct run_result *r)
{
	size_t i;

	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].plan.wait_group == wg &&
		    ((p->jobs[i].order.exitall_on_error && r->stats[i].err) ||
		     /* exitall with exit_what=all: no later group either */
		     (p->jobs[i].order.exitall && r->ran[i] &&
		      p->jobs[i].order.exit_what == EXIT_WHAT_ALL)))
			return true;
	return false;
}

/*
 * Why buffered reads of a region that fits in memory would be served by
 * the page cache rather than the device, or NULL: the cache is kept
 * (invalidate=0) or filled ahead (fadvise_hint=willneed), or the job reads
 * blocks more than once within a pass. Each pass (loops, time_based)
 * drops the cache again when invalidate=1, as fio does.
 */
static const char *cache_reason(const struct job *j, const struct target *t,
				char *buf, size_t len)
{
	bool random = rw_random(j->io.rw);
	bool keep = !j->cache.invalidate &&
		j->cache.fadvise_hint != FADV_DONTNEED;

	if (j->cache.fadvise_hint == FADV_WILLNEED)
		return "fadvise_hint=willneed reads it into the cache before "
		       "each pass";
	if (keep && j->time.time_based)
		return "time_based=1 reads it again until runtime is over "
		       "and invalidate=0 keeps it cached";
	if (keep && j->time.loops > 1) {
		snprintf(buf, len, "loops=%" PRIu64 " reads it again after the "
			 "first pass and invalidate=0 keeps it cached",
			 j->time.loops);
		return buf;
	}
	if (j->target.io_size > t->region)
		return "io_size is larger than the region (blocks are read "
		       "again)";
	if (random && j->rnd.norandommap)
		return "norandommap=1 reads some blocks more than once";
	if (keep)
		return "invalidate=0 keeps what the cache already holds";
	return NULL;
}

/* Warn when a buffered read job would measure the page cache. */
static void warn_page_cache(const struct plan *p, const struct target *tg,
			    struct warn_list *wl)
{
	uint64_t avail = sysinfo_mem_available();
	char region[32], mem[32], buf[96];
	const char *why;
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		if (j->plan.clone || j->cache.direct || !needs_files(j) ||
		    !(rw_dirs(j->io.rw) & (1u << DDIR_READ)) ||
		    tg[i].region >= avail)
			continue;
		why = cache_reason(j, &tg[i], buf, sizeof(buf));
		if (!why)
			continue;
		value_fmt_bytes(tg[i].region, region, sizeof(region));
		value_fmt_bytes(avail, mem, sizeof(mem));
		warn_add(wl, "page_cache", j->desc.name, "job '%s': buffered "
			 "reads (direct=0) of a %s region, less than the %s "
			 "of available memory: %s, so the figures measure the "
			 "page cache, not the device; use direct=1 or a "
			 "region larger than memory", j->desc.name, region, mem,
			 why);
	}
}


/* Stopped, or a job failed: its error is set (not I/O errors it went on
 * after). */
static bool run_failed(const struct plan *p, const struct run_result *r,
		       const atomic_int *stop)
{
	size_t i;

	if (atomic_load(stop))
		return true;
	for (i = 0; i < p->njobs; i++)
		if (r->stats[i].err)
			return true;
	return false;
}

int run_plan(const struct plan *p, const atomic_int *stop,
	     struct run_result *r, struct err_rec *e)
{
	return run_plan_watched(p, stop, NULL, r, e);
}

/* The iologs job j replays (read_iolog=A:B... names several, merged by
 * merge_blktrace_file) into the fence: 0 or -ENOMEM. */
static int fence_iologs(struct door_fence *f, const struct job *j)
{
	char what[PATH_MAX + 256], *list, *part, *save = NULL;
	int r = 0;

	if (!access(j->logs.read_iolog, F_OK) ||
	    !strchr(j->logs.read_iolog, ':')) {
		snprintf(what, sizeof(what), "a file one of the jobs reads "
			 "('%s', the iolog job '%s' replays)", j->logs.read_iolog,
			 j->desc.name);
		return door_fence_add(f, j->logs.read_iolog, what);
	}
	list = strdup(j->logs.read_iolog);
	if (!list)
		return -ENOMEM;
	for (part = strtok_r(list, ":", &save); !r && part;
	     part = strtok_r(NULL, ":", &save)) {
		snprintf(what, sizeof(what), "a file one of the jobs reads "
			 "('%s', an iolog job '%s' replays)", part, j->desc.name);
		r = door_fence_add(f, part, what);
	}
	free(list);
	return r;
}

/*
 * The fence of a run whose worker was abandoned: its logs still go through
 * the door, so the fence lives on until the process exits, held here where
 * a leak checker finds it (w and clk are on the abandoned thread's stack).
 */
static struct door_fence *volatile kept_for_abandoned;

/*
 * The fence of plan p, its targets planned in tg (door.h): the files the
 * jobs read or write, each with what it is for the messages. NULL: out
 * of memory.
 */
static struct door_fence *plan_fence(const struct plan *p,
				     const struct target *tg)
{
	struct door_fence *f = door_fence_new();
	char what[PATH_MAX + 256];
	size_t i;
	unsigned k;
	int r = f ? 0 : -ENOMEM;

	for (i = 0; !r && i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		for (k = 0; !r && needs_files(j) && k < tg[i].nfiles; k++) {
			snprintf(what, sizeof(what), "a file one of the jobs "
				 "reads or writes ('%s', of job '%s')",
				 tg[i].files[k].path, j->desc.name);
			r = door_fence_add(f, tg[i].files[k].path, what);
		}
		if (!r && j->logs.read_iolog)
			r = fence_iologs(f, j);
	}
	if (r) {
		door_fence_free(f);
		return NULL;
	}
	return f;
}

/* The files job j (fio's job number jobnum) writes through the door,
 * named as each module names them, added to l: 0 or -ENOMEM. */
static int job_names(const struct job *j, unsigned jobnum,
		     struct door_names *l)
{
	int r = iolog_names(j, jobnum, l);

	if (!r)
		r = verify_state_names(j, l);
	if (!r)
		r = jobexec_names(j, l);
	if (!r)
		r = procattr_mem_names(j, l);
	if (!r && j->eng.engine->names)
		r = j->eng.engine->names(j, l);
	return r;
}

/* Job j's files against the fence f: 0, or -EINVAL with e at j's
 * section, naming both files. */
static int job_check(const struct job *j, unsigned jobnum,
		     const struct door_fence *f, struct err_rec *e)
{
	struct door_names l = { 0 };
	size_t k;
	char *msg;
	int r = job_names(j, jobnum, &l);

	if (r)
		err_set(e, j->plan.section_file, j->plan.section_line, "",
			"out of memory");
	for (k = 0; !r && k < l.n; k++) {
		r = l.v[k].socket ?
		    door_check_socket(l.v[k].path, l.v[k].option, f, e) :
		    door_check(l.v[k].path, l.v[k].option, f, e);
		if (!r)
			continue;
		msg = strdup(e->msg);
		err_set(e, j->plan.section_file, j->plan.section_line,
			l.v[k].option,
			"job '%s': its file '%s' %s", j->desc.name, l.v[k].path,
			msg ? msg : "is refused");
		free(msg);
	}
	door_names_free(&l);
	return r;
}

void run_checked_free(const struct plan *p, struct target *checked)
{
	size_t i;

	for (i = 0; checked && i < p->njobs; i++)
		target_free(&checked[i]);
	free(checked);
}

int run_check(const struct plan *p, const struct door_name *outs,
	      size_t nouts, struct target **checked, struct err_rec *e)
{
	struct target *tg = calloc(p->njobs, sizeof(*tg));
	struct door_fence *f = NULL;
	char what[PATH_MAX + 64];
	size_t i, k;
	int ret;

	if (!tg) {
		err_set(e, "", 0, "", "out of memory");
		return -ENOMEM;
	}
	ret = plan_targets(p, tg, NULL, e);
	if (!ret && !(f = plan_fence(p, tg))) {
		err_set(e, "", 0, "", "out of memory");
		ret = -ENOMEM;
	}
	for (k = 0; !ret && k < nouts; k++)
		if (outs[k].path)
			ret = door_check(outs[k].path, outs[k].option, f, e);
	/* the command's own files are the run's too: no job writes them */
	for (k = 0; !ret && k < nouts; k++) {
		if (!outs[k].path)
			continue;
		snprintf(what, sizeof(what), "where --%s goes ('%s')",
			 outs[k].option, outs[k].path);
		if (door_fence_add(f, outs[k].path, what)) {
			err_set(e, "", 0, "", "out of memory");
			ret = -ENOMEM;
		}
	}
	for (i = 0; !ret && i < p->njobs; i++)
		ret = job_check(&p->jobs[i], (unsigned)i + 1, f, e);
	door_fence_free(f);
	if (!ret && checked) {
		*checked = tg;
		return 0;
	}
	run_checked_free(p, tg);
	return ret;
}

/* r made empty for p: its warnings, start time, host and arrays. */
static int result_start(struct run_result *r, const struct plan *p)
{
	struct timespec now;
	size_t i;

	memset(r, 0, sizeof(*r));
	warn_init(&r->warnings, stderr);
	r->warnings.as_fio = p->warnings.as_fio;
	warn_copy(&r->warnings, &p->warnings);
	r->plan = p;
	clock_gettime(CLOCK_REALTIME, &now);
	r->start_time = now.tv_sec;
	r->start_time_ms = (uint64_t)now.tv_sec * 1000 +
			   (uint64_t)now.tv_nsec / 1000000;
	host_info(r);
	r->stats = calloc(p->njobs, sizeof(*r->stats));
	r->ran = calloc(p->njobs, sizeof(*r->ran));
	r->phases = calloc(p->nwait_groups, sizeof(*r->phases));
	r->nphases = p->nwait_groups;
	r->targets = calloc(p->njobs, sizeof(*r->targets));
	if (!r->stats || !r->ran || !r->phases || !r->targets)
		return -ENOMEM;
	for (i = 0; i < p->njobs; i++)
		stats_init(&r->stats[i]);
	return 0;
}

/*
 * The wait groups one after another, until a stop (MPI ranks: each
 * group's collectives, stopped or not; a stopped rank opens nothing) or
 * a failure that exitall_on_error makes fatal (the other ranks told).
 */
static void run_groups(const struct plan *p, struct target *tg,
		       struct worker *w, struct clock *clk,
		       const atomic_int *stop, struct run_result *r,
		       struct run_live *lv, struct peers *pe)
{
	char why[512];
	unsigned wg;

	for (wg = 0; wg < p->nwait_groups && (pe || !atomic_load(stop));
	     wg++) {
		run_phase(p, wg, tg, w, clk, stop, r, lv);
		if (pe && atomic_load(stop))
			continue;
		if (exit_on_error(p, wg, r)) {
			if (pe && !pe->failed && wg + 1 < p->nwait_groups)
				pe->agree(pe, "a job failed in an earlier "
					  "wait group", why, sizeof(why));
			break;
		}
	}
}

/*
 * A run that failed or was stopped puts back the lengths of the files
 * it extended and removes those it created; the last job first, so that
 * a file two jobs extended ends at the length the first one found. An
 * abandoned worker may still use its files: they are kept, and said.
 * Then (only now: a later
 * phase may read what an earlier one wrote) unlink= files are removed.
 * Returns whether a worker was abandoned.
 */
static bool run_files_end(const struct plan *p, struct target *tg,
			  const struct worker *w, const struct run_result *r,
			  const atomic_int *stop)
{
	bool abandoned = false, failed = run_failed(p, r, stop);
	size_t i;

	for (i = p->njobs; failed && i-- > 0;) {
		if (!needs_files(&p->jobs[i]))
			continue;
		if (w[i].abandoned)
			target_undo_abandoned(&tg[i], &p->jobs[i]);
		else
			target_undo(&tg[i], &p->jobs[i], tg, p->njobs);
	}
	for (i = 0; i < p->njobs; i++) {
		abandoned = abandoned || w[i].abandoned;
		if (p->jobs[i].target.unlink && needs_files(&p->jobs[i]) &&
		    !w[i].abandoned)
			target_close(&tg[i], true);
	}
	return abandoned;
}

int run_plan_watched(const struct plan *p, const atomic_int *stop,
		     const struct run_watch *watch, struct run_result *r,
		     struct err_rec *e)
{
	struct run_live lv = { .watch = watch, .p = p };
	struct peers *pe = watch ? watch->peers : NULL;
	struct door_fence *fence = NULL;
	struct target *tg;
	struct worker *w;
	struct clock *clk;
	struct cpu_usage c0, c1;
	bool abandoned = false;
	uint64_t t0;
	size_t i;
	int ret;

	ret = result_start(r, p);
	/* Checked just before (run_check): planned once, the warnings of
	 * the free space's check (which run_check does not keep) again. */
	tg = watch && watch->checked ? watch->checked :
	     calloc(p->njobs, sizeof(*tg));
	w = calloc(p->njobs, sizeof(*w));
	clk = malloc(sizeof(*clk));
	if (ret || !tg || !w || !clk) {
		err_set(e, "", 0, "", "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	if (watch && watch->checked)
		ret = plan_space(p, tg, &r->warnings, e);
	else
		ret = plan_targets(p, tg, &r->warnings, e);
	if (ret)
		goto out;
	/* The door checks every log, state or output file a job opens
	 * against the files the run reads or writes (door.h). */
	fence = plan_fence(p, tg);
	if (!fence) {
		err_set(e, "", 0, "", "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < p->njobs; i++)
		tg[i].fence = fence;
	warn_page_cache(p, tg, &r->warnings);
	clock_init(clk, true);
	cpu_process(&c0);
	t0 = clock_mono_ns();
	lv.w = w;
	lv.t0_ns = t0;
	run_groups(p, tg, w, clk, stop, r, &lv, pe);
	r->wall_ns = clock_mono_ns() - t0;
	health_jobs(p, r);
	abandoned = run_files_end(p, tg, w, r, stop);
	cpu_process(&c1);
	cpu_sub(&r->proc_cpu, &c1, &c0);
out:
	/* ioscheduler=: each disk as the run found it */
	iosched_restore("");
	for (i = 0; tg && i < p->njobs; i++)
		target_free(&tg[i]);
	free(tg);
	/* An abandoned worker (and its engine) still read these. */
	if (!abandoned) {
		free(w);
		free(clk);
		door_fence_free(fence);
	} else {
		kept_for_abandoned = fence;
	}
	return ret;
}

void run_result_free(struct run_result *r)
{
	size_t i, j;

	for (i = 0; r->targets && r->plan && i < r->plan->njobs; i++) {
		for (j = 0; j < r->targets[i].n; j++)
			free(r->targets[i].t[j].path);
		free(r->targets[i].t);
	}
	free(r->targets);
	r->targets = NULL;
	sysinfo_disks_free(&r->disks);
	nvmedev_set_free(&r->nvme);
	for (i = 0; r->stats && r->plan && i < r->plan->njobs; i++) {
		ival_series_put(r->stats[i].intervals);
		steady_free(r->stats[i].steady);
		prio_stats_free(r->stats[i].prio);
		free(r->stats[i].zbd);
	}
	free(r->stats);
	free(r->ran);
	free(r->phases);
	r->stats = NULL;
	r->ran = NULL;
	r->phases = NULL;
	warn_exit(&r->warnings);
}
