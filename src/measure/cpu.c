// SPDX-License-Identifier: MIT
/* CPU time of a thread, the process and the machine: see cpu.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpu.h"

void cpu_add(struct cpu_usage *dst, const struct cpu_usage *src)
{
	dst->utime_ns += src->utime_ns;
	dst->stime_ns += src->stime_ns;
	dst->run_ns += src->run_ns;	/* snapshots of threads: their sum */
	dst->vcsw += src->vcsw;
	dst->ivcsw += src->ivcsw;
	dst->minflt += src->minflt;
	dst->majflt += src->majflt;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

/* On failure (not expected on Linux) the usage reads as all zero. */
static void cpu_get(struct cpu_usage *c, int who)
{
	struct rusage ru;

	memset(c, 0, sizeof(*c));
	if (getrusage(who, &ru))
		return;
	c->utime_ns = tv_ns(&ru.ru_utime);
	c->stime_ns = tv_ns(&ru.ru_stime);
	c->vcsw = (uint64_t)ru.ru_nvcsw;
	c->ivcsw = (uint64_t)ru.ru_nivcsw;
	c->minflt = (uint64_t)ru.ru_minflt;
	c->majflt = (uint64_t)ru.ru_majflt;
}

/*
 * The calling thread's time on a CPU (the first field of its schedstat:
 * the scheduler's own count, in ns), or 0 when the kernel has none.
 */
static uint64_t thread_run_ns(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

void cpu_thread(struct cpu_usage *c)
{
	cpu_get(c, RUSAGE_THREAD);
	c->run_ns = thread_run_ns();
}

void cpu_process(struct cpu_usage *c)
{
	cpu_get(c, RUSAGE_SELF);
}

void cpu_sub(struct cpu_usage *out, const struct cpu_usage *a,
	     const struct cpu_usage *b)
{
	struct cpu_usage r;

	r.utime_ns = counter_sub0(a->utime_ns, b->utime_ns);
	r.stime_ns = counter_sub0(a->stime_ns, b->stime_ns);
	r.run_ns = 0;
	/*
	 * Both read the scheduler's run time: the total is its change, split
	 * in the ratio of the tick-sampled times (all system time when no
	 * tick fell in between).
	 */
	if (a->run_ns && b->run_ns) {
		uint64_t run = counter_sub0(a->run_ns, b->run_ns);
		uint64_t tot = r.utime_ns + r.stime_ns;

		r.utime_ns = tot ? (uint64_t)((unsigned __int128)run *
					       r.utime_ns / tot) : 0;
		r.stime_ns = run - r.utime_ns;
	}
	r.vcsw = counter_sub0(a->vcsw, b->vcsw);
	r.ivcsw = counter_sub0(a->ivcsw, b->ivcsw);
	r.minflt = counter_sub0(a->minflt, b->minflt);
	r.majflt = counter_sub0(a->majflt, b->majflt);
	*out = r;
}

int cpu_sys(struct sys_cpu *c)
{
	unsigned long long v[8] = { 0 };
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t ns = hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
	FILE *f = fopen("/proc/stat", "r");
	int n;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -errno;
	/* cpu user nice system idle iowait irq softirq steal */
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 7)
		return -EIO;
	c->user = (v[0] + v[1]) * ns;
	c->system = v[2] * ns;
	c->idle = (v[3] + v[4]) * ns;
	c->irq = v[5] * ns;
	c->softirq = v[6] * ns;
	c->steal = v[7] * ns;
	return 0;
}

void cpu_sys_sub(struct sys_cpu *out, const struct sys_cpu *a,
		 const struct sys_cpu *b)
{
	out->user = counter_sub0(a->user, b->user);
	out->system = counter_sub0(a->system, b->system);
	out->irq = counter_sub0(a->irq, b->irq);
	out->softirq = counter_sub0(a->softirq, b->softirq);
	out->idle = counter_sub0(a->idle, b->idle);
	out->steal = counter_sub0(a->steal, b->steal);
}
