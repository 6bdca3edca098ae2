// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "stats.h"

/*
 * A fresh result stands for one clone that has done nothing yet, so a
 * worker that only calls stats_init() reports nclones == 1. Aggregators
 * that start from an empty accumulator reset nclones to 0 themselves.
 */
void stats_init(struct job_stats *s)
{
	int d;

	memset(s, 0, sizeof(*s));
	for (d = 0; d < DDIR_NR; d++) {
		hist_init(&s->dir[d].slat);
		hist_init(&s->dir[d].clat);
		hist_init(&s->dir[d].lat);
	}
	s->nclones = 1;
	s->nmeasured = 1;
}

static void dir_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->short_ios += src->short_ios;
	if (!dst->first_errno && src->first_errno) {
		dst->first_errno = src->first_errno;
		dst->first_err_offset = src->first_err_offset;
		dst->first_err_engine = src->first_err_engine;
		memcpy(dst->first_err_file, src->first_err_file,
		       sizeof(dst->first_err_file));
	}
	hist_merge(&dst->slat, &src->slat);
	hist_merge(&dst->clat, &src->clat);
	hist_merge(&dst->lat, &src->lat);
}

void stats_cpu_add(struct cpu_usage *dst, const struct cpu_usage *src)
{
	dst->utime_ns += src->utime_ns;
	dst->stime_ns += src->stime_ns;
	dst->vcsw += src->vcsw;
	dst->ivcsw += src->ivcsw;
	dst->minflt += src->minflt;
	dst->majflt += src->majflt;
}

/*
 * Counters (loops_done included) and CPU add; runtime is the longest, as
 * merged clones ran side by side; the first error that dst lacks is taken
 * from src.
 */
void stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	int d;

	for (d = 0; d < DDIR_NR; d++)
		dir_merge(&dst->dir[d], &src->dir[d]);
	stats_cpu_add(&dst->cpu, &src->cpu);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->loops_done += src->loops_done;
	dst->nclones += src->nclones;
	dst->nmeasured += src->nmeasured;
	if (!dst->err && src->err) {
		dst->err = src->err;
		memcpy(dst->err_msg, src->err_msg, sizeof(dst->err_msg));
		dst->err_msg[sizeof(dst->err_msg) - 1] = '\0';
	}
	dst->interrupted = dst->interrupted || src->interrupted;
	dst->abandoned = dst->abandoned || src->abandoned;
	verify_stats_merge(&dst->verify, &src->verify);
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

void stats_cpu_thread(struct cpu_usage *c)
{
	cpu_get(c, RUSAGE_THREAD);
}

void stats_cpu_process(struct cpu_usage *c)
{
	cpu_get(c, RUSAGE_SELF);
}

void stats_cpu_sub(struct cpu_usage *out, const struct cpu_usage *a,
		   const struct cpu_usage *b)
{
	struct cpu_usage r;

	r.utime_ns = stats_sub0(a->utime_ns, b->utime_ns);
	r.stime_ns = stats_sub0(a->stime_ns, b->stime_ns);
	r.vcsw = stats_sub0(a->vcsw, b->vcsw);
	r.ivcsw = stats_sub0(a->ivcsw, b->ivcsw);
	r.minflt = stats_sub0(a->minflt, b->minflt);
	r.majflt = stats_sub0(a->majflt, b->majflt);
	*out = r;
}

double stats_iops(const struct dir_stats *d, uint64_t runtime_ns)
{
	if (!runtime_ns)
		return 0.0;
	return (double)d->ios * 1e9 / (double)runtime_ns;
}

double stats_bw(const struct dir_stats *d, uint64_t runtime_ns)
{
	if (!runtime_ns)
		return 0.0;
	return (double)d->bytes * 1e9 / (double)runtime_ns;
}

double stats_cpu_us_per_io(const struct job_stats *s)
{
	uint64_t ios = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++)
		ios += s->dir[d].ios;
	if (!ios)
		return 0.0;
	return (double)(s->cpu.utime_ns + s->cpu.stime_ns) / 1000.0 /
	       (double)ios;
}

int stats_sys_cpu(struct sys_cpu *c)
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

void stats_sys_cpu_sub(struct sys_cpu *out, const struct sys_cpu *a,
		       const struct sys_cpu *b)
{
	out->user = stats_sub0(a->user, b->user);
	out->system = stats_sub0(a->system, b->system);
	out->irq = stats_sub0(a->irq, b->irq);
	out->softirq = stats_sub0(a->softirq, b->softirq);
	out->idle = stats_sub0(a->idle, b->idle);
	out->steal = stats_sub0(a->steal, b->steal);
}
