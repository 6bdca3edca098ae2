// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
/* The histograms of d, zeroed with it, made empty (hist_init's min):
 * each byte is cleared once, not once more per histogram. */
static void dir_hists_empty(struct dir_stats *d)
{
	d->slat.min = UINT64_MAX;
	d->clat.min = UINT64_MAX;
	d->lat.min = UINT64_MAX;
	d->sched_lat.min = UINT64_MAX;
}

void stats_dir_init(struct dir_stats *d)
{
	memset(d, 0, sizeof(*d));
	dir_hists_empty(d);
}

void stats_mixed(struct dir_stats *out, const struct job_stats *s)
{
	unsigned d;

	stats_dir_init(out);
	for (d = 0; d < DDIR_NR; d++)
		stats_dir_merge(out, &s->dir[d]);
}

void stats_init(struct job_stats *s)
{
	memset(s, 0, sizeof(*s));
	stats_init_zeroed(s);
}


void stats_init_zeroed(struct job_stats *s)
{
	int d;

	for (d = 0; d < DDIR_NR; d++)
		dir_hists_empty(&s->dir[d]);
	dir_hists_empty(&s->vread);
	s->sync.min = UINT64_MAX;
	s->nclones = 1;
	s->nmeasured = 1;
}

void stats_dir_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->short_ios += src->short_ios;
	dst->dropped_ios += src->dropped_ios;
	dst->submit_done += src->submit_done;
	dst->ramp_ios += src->ramp_ios;
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
	smp_merge(&dst->bw_smp, &src->bw_smp);
	smp_merge(&dst->iops_smp, &src->iops_smp);
	/* a cluster's directions into its mixed one (stats_mixed) */
	if (src->agg) {
		dst->agg_met = dst->agg ? dst->agg_met && src->agg_met :
			       src->agg_met;
		dst->agg = true;
		dst->agg_iops += src->agg_iops;
		dst->agg_bw += src->agg_bw;
	}
}

void smp_add(struct smp_stat *s, double v)
{
	double delta = v - s->mean;

	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	s->n++;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (v - s->mean);
}

static double smp_var(const struct smp_stat *s)
{
	return s->n > 1 ? s->m2 / (double)(s->n - 1) : 0.0;
}

void smp_merge(struct smp_stat *dst, const struct smp_stat *src)
{
	double var;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	var = smp_var(dst) + smp_var(src);
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->n += src->n;
	dst->m2 = var * (double)(dst->n - 1);
}

double smp_stddev(const struct smp_stat *s)
{
	return sqrt(smp_var(s));
}

const char *const depth_level_keys[DEPTH_NB + 1] = {
	"1", "2", "4", "8", "16", "32", ">=64", NULL,
};

const char *const depth_batch_keys[DEPTH_NB + 1] = {
	"0", "4", "8", "16", "32", "64", ">=64", NULL,
};

void stats_depth_fold(const struct depth_dist *d, uint64_t *submit,
		      uint64_t *complete)
{
	unsigned i;

	for (i = 0; i < DEPTH_NB; i++) {
		submit[i] = d->submit[i];
		complete[i] = d->complete[i];
	}
	submit[1] += d->inline_ios;
	complete[1] += d->inline_ios;
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

void verify_stats_merge(struct verify_stats *dst,
			const struct verify_stats *src)
{
	unsigned i;

	if (!src->kind)
		return;
	if (!dst->kind)
		dst->kind = src->kind;
	dst->blocks_checked += src->blocks_checked;
	dst->bytes += src->bytes;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->read_errors += src->read_errors;
	dst->write_failed += src->write_failed;
	dst->mismatches += src->mismatches;
	for (i = 0; i < VC_NR; i++)
		dst->by_class[i] += src->by_class[i];
	dst->stopped = dst->stopped || src->stopped;
	for (i = 0; i < src->nfirst && dst->nfirst < VERIFY_FIRST_MAX; i++)
		dst->first[dst->nfirst++] = src->first[i];
}

/*
 * Counters (loops_done, think and end sync time included), CPU and the
 * sync latencies add; the runtime is the union of the windows of clones
 * that ran side by side (stats_window_merge); the first error that dst
 * lacks is taken from src.
 */
void stats_health_merge(struct stats_health *h, const struct stats_health *s)
{
	if (!s->known)
		return;
	if (!h->known || s->media_errors > h->media_errors)
		h->media_errors = s->media_errors;
	if (!h->known || s->error_log_entries > h->error_log_entries)
		h->error_log_entries = s->error_log_entries;
	h->critical_warning |= s->critical_warning;
	if (s->percentage_used > h->percentage_used)
		h->percentage_used = s->percentage_used;
	h->known = true;
}

void stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	int d;

	for (d = 0; d < DDIR_NR; d++)
		stats_dir_merge(&dst->dir[d], &src->dir[d]);
	cpu_add(&dst->cpu, &src->cpu);
	hist_merge(&dst->sync, &src->sync);
	for (d = 0; d < DEPTH_NB; d++) {
		dst->depth.level[d] += src->depth.level[d];
		dst->depth.submit[d] += src->depth.submit[d];
		dst->depth.complete[d] += src->depth.complete[d];
	}
	dst->depth.inline_ios += src->depth.inline_ios;
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
	if (src->latency_depth > dst->latency_depth)
		dst->latency_depth = src->latency_depth;
	dst->interrupted = dst->interrupted || src->interrupted;
	dst->abandoned = dst->abandoned || src->abandoned;
	verify_stats_merge(&dst->verify, &src->verify);
	stats_health_merge(&dst->health, &src->health);
	stats_dir_merge(&dst->vread, &src->vread);
	if (src->vphase_ns > dst->vphase_ns)
		dst->vphase_ns = src->vphase_ns;
	if (!dst->steady)
		dst->steady = src->steady;
	if (!dst->zbd)
		dst->zbd = src->zbd;
	if (!dst->cpus[0])
		memcpy(dst->cpus, src->cpus, sizeof(dst->cpus));
}

double stats_iops(const struct dir_stats *d, uint64_t runtime_ns)
{
	if (d->agg)
		return d->agg_iops;
	if (!runtime_ns)
		return 0.0;
	return (double)d->ios * 1e9 / (double)runtime_ns;
}

bool stats_depth_mean(const struct dir_stats *d, uint64_t runtime_ns,
		      double *mean)
{
	*mean = 0.0;
	if (!d->ios)
		return true;
	if (!d->clat.count || !runtime_ns)
		return false;
	*mean = (double)d->clat.sum / (double)runtime_ns;
	return true;
}

double stats_bw(const struct dir_stats *d, uint64_t runtime_ns)
{
	if (d->agg)
		return d->agg_bw;
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
	if (d->agg)
		return d->rate_bps > 0 && d->agg_met;
	return d->rate_bps > 0 &&
	       (double)d->lag_ns <= STATS_RATE_LAG * (double)runtime_ns;
}

struct prio_stats *prio_stats_new(bool lat)
{
	struct prio_stats *p = calloc(1, sizeof(*p));

	if (p)
		p->lat = lat;
	return p;
}

void prio_stats_free(struct prio_stats *p)
{
	unsigned d;

	if (!p)
		return;
	for (d = 0; d < DDIR_NR; d++)
		free(p->v[d]);
	free(p);
}

int prio_stats_entry(struct prio_stats *p, unsigned d, uint16_t ioprio)
{
	struct prio_lat *v;
	unsigned i;

	for (i = 0; i < p->n[d]; i++)
		if (p->v[d][i].ioprio == ioprio)
			return 0;
	v = realloc(p->v[d], (p->n[d] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->v[d] = v;
	v[p->n[d]].ioprio = ioprio;
	hist_init(&v[p->n[d]].h);
	p->n[d]++;
	return 0;
}

void prio_stats_reset(struct prio_stats *p)
{
	unsigned d, i;

	for (d = 0; p && d < DDIR_NR; d++)
		for (i = 0; i < p->n[d]; i++)
			hist_init(&p->v[d][i].h);
}

int prio_stats_merge(struct prio_stats **dst, unsigned dd,
		     const struct prio_stats *src, unsigned sd)
{
	struct prio_stats *p = *dst;
	unsigned i, k;

	if (!src || !src->n[sd])
		return 0;
	if (!p && !(p = *dst = prio_stats_new(src->lat)))
		return -ENOMEM;
	for (i = 0; i < src->n[sd]; i++) {
		if (prio_stats_entry(p, dd, src->v[sd][i].ioprio))
			return -ENOMEM;
		for (k = 0; p->v[dd][k].ioprio != src->v[sd][i].ioprio; k++)
			;
		hist_merge(&p->v[dd][k].h, &src->v[sd][i].h);
	}
	return 0;
}
