// SPDX-License-Identifier: MIT
/*
 * Runs a plan: every job's targets are validated before anything is
 * created or written; then the wait groups run one after the other.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine.h"
#include "run.h"
#include "worker.h"

static bool needs_files(const struct job *j)
{
	return !(j->engine->flags & ENGINE_NOIO);
}

static int plan_targets(const struct plan *p, struct target *tg,
			struct err_rec *e)
{
	size_t i;
	int ret;

	for (i = 0; i < p->njobs; i++) {
		if (!needs_files(&p->jobs[i])) {
			/* The null engine still needs a region to walk. */
			uint64_t region = p->jobs[i].size ? p->jobs[i].size :
					  (1ull << 40);
			tg[i].region = region;
			tg[i].file_region = region;
			tg[i].files = calloc(1, sizeof(*tg[i].files));
			if (!tg[i].files || !(tg[i].files->path =
					      strdup("(null engine)")))
				return -ENOMEM;
			tg[i].files->fd = -1;
			tg[i].nfiles = 1;
			continue;
		}
		ret = target_plan(&tg[i], &p->jobs[i], e);
		if (ret) {
			char pre[160];
			size_t n = (size_t)snprintf(pre, sizeof(pre),
						    "job '%s': ",
						    p->jobs[i].name);

			n = n < sizeof(pre) ? n : sizeof(pre) - 1;
			memmove(e->msg + n, e->msg, sizeof(e->msg) - n - 1);
			memcpy(e->msg, pre, n);
			e->msg[sizeof(e->msg) - 1] = '\0';
			return ret;
		}
	}
	return 0;
}

static void host_info(struct run_result *r)
{
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (uname(&u) == 0) {
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
		snprintf(r->hostname, sizeof(r->hostname), "%s", u.nodename);
	}
	r->ncpus = n > 0 ? (unsigned)n : 1;
}

/* Open every target of wait group wg, start its workers, wait for them. */
static void run_group(const struct plan *p, unsigned wg, struct target *tg,
		      struct worker *w, const struct clock *clk,
		      const atomic_int *stop, struct run_result *r)
{
	struct err_rec e;
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		if (j->wait_group != wg || atomic_load(stop))
			continue;
		if (needs_files(j) && target_open(&tg[i], j, stop, &e)) {
			r->stats[i].err = -EIO;
			err_format(&e, r->stats[i].err_msg,
				   sizeof(r->stats[i].err_msg));
			r->stats[i].interrupted = atomic_load(stop) != 0;
			continue;
		}
		w[i] = (struct worker){
			.job = j, .tgt = &tg[i], .clk = clk, .stop = stop,
			.stats = &r->stats[i],
		};
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i])) {
			r->stats[i].err = -EAGAIN;
			snprintf(r->stats[i].err_msg,
				 sizeof(r->stats[i].err_msg),
				 "cannot start a thread");
			continue;
		}
		w[i].started = true;
		r->ran[i] = true;
	}
	for (i = 0; i < p->njobs; i++) {
		if (p->jobs[i].wait_group != wg)
			continue;
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		if (needs_files(&p->jobs[i]))
			target_close(&tg[i], false);
	}
}

/* Run wait group wg, measuring the process and the system around it. */
static void run_phase(const struct plan *p, unsigned wg, struct target *tg,
		      struct worker *w, const struct clock *clk,
		      const atomic_int *stop, struct run_result *r)
{
	struct phase_cpu *ph = &r->phases[wg];
	struct cpu_usage c0, c1;
	struct sys_cpu s0, s1;
	uint64_t t0;
	size_t i;

	stats_cpu_process(&c0);
	stats_sys_cpu(&s0);
	t0 = clock_mono_ns();
	run_group(p, wg, tg, w, clk, stop, r);
	ph->wall_ns = clock_mono_ns() - t0;
	stats_cpu_process(&c1);
	stats_sys_cpu(&s1);
	stats_cpu_sub(&ph->proc, &c1, &c0);
	stats_sys_cpu_sub(&ph->sys, &s1, &s0);
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].wait_group == wg)
			ph->ios += r->stats[i].dir[0].ios +
				   r->stats[i].dir[1].ios;
}

int run_check(const struct plan *p, struct err_rec *e)
{
	struct target *tg = calloc(p->njobs, sizeof(*tg));
	size_t i;
	int ret;

	if (!tg) {
		err_set(e, "", 0, "", "out of memory");
		return -ENOMEM;
	}
	ret = plan_targets(p, tg, e);
	for (i = 0; i < p->njobs; i++)
		target_free(&tg[i]);
	free(tg);
	return ret;
}

int run_plan(const struct plan *p, const atomic_int *stop,
	     struct run_result *r, struct err_rec *e)
{
	struct target *tg;
	struct worker *w;
	struct clock clk;
	struct cpu_usage c0, c1;
	uint64_t t0;
	unsigned wg;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->plan = p;
	r->start_time = time(NULL);
	host_info(r);
	r->stats = calloc(p->njobs, sizeof(*r->stats));
	r->ran = calloc(p->njobs, sizeof(*r->ran));
	r->phases = calloc(p->nwait_groups, sizeof(*r->phases));
	r->nphases = p->nwait_groups;
	tg = calloc(p->njobs, sizeof(*tg));
	w = calloc(p->njobs, sizeof(*w));
	if (!r->stats || !r->ran || !r->phases || !tg || !w) {
		err_set(e, "", 0, "", "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < p->njobs; i++)
		stats_init(&r->stats[i]);
	ret = plan_targets(p, tg, e);
	if (ret)
		goto out;
	clock_init(&clk, true);
	stats_cpu_process(&c0);
	t0 = clock_mono_ns();
	for (wg = 0; wg < p->nwait_groups && !atomic_load(stop); wg++)
		run_phase(p, wg, tg, w, &clk, stop, r);
	r->wall_ns = clock_mono_ns() - t0;
	/* Only now: a later phase may read what an earlier one wrote. */
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].unlink && needs_files(&p->jobs[i]))
			target_close(&tg[i], true);
	stats_cpu_process(&c1);
	stats_cpu_sub(&r->proc_cpu, &c1, &c0);
out:
	for (i = 0; tg && i < p->njobs; i++)
		target_free(&tg[i]);
	free(tg);
	free(w);
	return ret;
}

void run_result_free(struct run_result *r)
{
	free(r->stats);
	free(r->ran);
	free(r->phases);
	r->stats = NULL;
	r->ran = NULL;
	r->phases = NULL;
}
