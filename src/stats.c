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
		hist_init(&s->dir[d].sched_lat);
	}
	hist_init(&s->sync);
	s->nclones = 1;
	s->nmeasured = 1;
}

static void dir_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->short_ios += src->short_ios;
	dst->submit_done += src->submit_done;
	if (!dst->first_errno && src->first_errno) {
		dst->first_errno = src->first_errno;
		dst->first_err_offset = src->first_err_offset;
		dst->first_err_engine = src->first_err_engine;
		memcpy(dst->first_err_file, src->first_err_file,
		       sizeof(dst->first_err_file));
	}
	hist_merge(&dst->slat, &src->slat);
	hist_merge(&dst->clat, &src->clat);
	hist_merge(&dst->sched_lat, &src->sched_lat);
	dst->rate_bps += src->rate_bps;
	dst->rate_iops += src->rate_iops;
	dst->backlog_ios += src->backlog_ios;
	if (src->lag_ns > dst->lag_ns)
		dst->lag_ns = src->lag_ns;
	hist_merge(&dst->lat, &src->lat);
}

void stats_window_merge(uint64_t *start_ns, uint64_t *runtime_ns,
			unsigned *phase, const struct job_stats *src)
{
	uint64_t start, end;

	if (!src->runtime_ns)
		return;		/* measured nothing: no window */
	if (!*runtime_ns || !*start_ns || !src->start_ns || !*phase ||
	    *phase != src->phase) {
		if (src->runtime_ns > *runtime_ns) {
			*start_ns = src->start_ns;
			*runtime_ns = src->runtime_ns;
			*phase = src->phase;
		}
		return;
	}
	start = src->start_ns < *start_ns ? src->start_ns : *start_ns;
	end = *start_ns + *runtime_ns;
	if (src->start_ns + src->runtime_ns > end)
		end = src->start_ns + src->runtime_ns;
	*start_ns = start;
	*runtime_ns = end - start;
}

/*
 * Counters (loops_done, think and end sync time included), CPU and the
 * sync latencies add; the runtime is the union of the windows of clones
 * that ran side by side (stats_window_merge); the first error that dst
 * lacks is taken from src.
 */
void stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	int d;

	for (d = 0; d < DDIR_NR; d++)
		dir_merge(&dst->dir[d], &src->dir[d]);
	cpu_add(&dst->cpu, &src->cpu);
	hist_merge(&dst->sync, &src->sync);
	dst->think_ns += src->think_ns;
	dst->end_sync_ns += src->end_sync_ns;
	stats_window_merge(&dst->start_ns, &dst->runtime_ns, &dst->phase, src);
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

uint64_t stats_ios(const struct job_stats *s)
{
	uint64_t n = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++)
		n += s->dir[d].ios;
	return n;
}

uint64_t stats_bytes(const struct job_stats *s)
{
	uint64_t n = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++)
		n += s->dir[d].bytes;
	return n;
}

uint64_t stats_errors(const struct job_stats *s)
{
	uint64_t n = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++)
		n += s->dir[d].errors;
	return n;
}

double stats_cpu_us_per_io(const struct job_stats *s)
{
	uint64_t ios = stats_ios(s);

	if (!ios)
		return 0.0;
	return (double)(s->cpu.utime_ns + s->cpu.stime_ns) / 1000.0 /
	       (double)ios;
}

bool stats_rate_met(const struct dir_stats *d, uint64_t runtime_ns)
{
	return d->rate_bps > 0 &&
	       (double)d->lag_ns <= STATS_RATE_LAG * (double)runtime_ns;
}
