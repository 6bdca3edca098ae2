// SPDX-License-Identifier: MIT
/*
 * What fio's layouts share (fio_int.h): the latency and depth
 * distributions as fio buckets them, a unit's errno and job runtime.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "plan.h"

#include "fio_int.h"

const uint64_t fio_lat_edge_ns[FIO_LAT_EDGES] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
	2000, 4000, 10000, 20000, 50000, 100000, 250000, 500000, 750000,
	1000000,
	2000000, 4000000, 10000000, 20000000, 50000000, 100000000,
	250000000, 500000000, 750000000, 1000000000, 2000000000,
};

static unsigned lat_slot(uint64_t v)
{
	unsigned i;

	for (i = 0; i < FIO_LAT_EDGES; i++)
		if (v < fio_lat_edge_ns[i])
			return i;
	return FIO_LAT_EDGES;
}

/*
 * Bucket counts of h into slots. A histogram bucket that straddles an
 * edge (only from 512 ns up, where buckets are at most 0.8% wide) counts
 * on the side of its midpoint.
 */
static void lat_slots(const struct hist *h, uint64_t *slots)
{
	uint64_t lo, mid;
	unsigned i;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		lo = hist_bucket_low(i);
		mid = lo + (hist_bucket_high(i) - lo) / 2;
		slots[lat_slot(mid)] += h->b[i];
	}
	slots[FIO_LAT_EDGES] += h->overflow;
}

static double share(uint64_t n, uint64_t total, double floor)
{
	double p;

	if (!n || !total)
		return 0.0;
	p = 100.0 * (double)n / (double)total;
	return p < floor ? floor : p;
}

void fio_lat_shares(const struct job_stats *s, double *shares, double floor)
{
	uint64_t slots[FIO_LAT_SLOTS] = { 0 }, total = 0;
	unsigned i;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		lat_slots(&s->dir[d].clat, slots);
		total += s->dir[d].clat.count;
	}
	/* fio's verification reads are reads (fio_dir_view) */
	lat_slots(&s->vread.clat, slots);
	total += s->vread.clat.count;
	for (i = 0; i < FIO_LAT_SLOTS; i++)
		shares[i] = share(slots[i], total, floor);
}

const struct dir_stats *fio_dir_view(const struct job_stats *s, int d,
				struct dir_stats *buf, uint64_t *rt_ns)
{
	const struct dir_stats *own = d < DDIR_NR ? &s->dir[d] : NULL;
	bool reads = d == DDIR_READ || d == DDIR_NR;
	uint64_t rt = s->runtime_ns;

	if (reads && s->vread.ios + s->vread.errors) {
		if (own) {
			*buf = *own;
			rt = own->ios ? rt + s->vphase_ns : s->vphase_ns;
		} else {
			stats_mixed(buf, s);
			rt += s->vphase_ns;
		}
		stats_dir_merge(buf, &s->vread);
	} else if (!own) {
		stats_mixed(buf, s);
	} else {
		buf = NULL;
	}
	own = buf ? buf : own;
	*rt_ns = own->ios ? rt : 0;
	return own;
}

void fio_depth_shares(const uint64_t *counts, double *shares)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_NB; i++)
		total += counts[i];
	for (i = 0; i < DEPTH_NB; i++)
		shares[i] = share(counts[i], total, 0.1);
}

int fio_unit_errno(const struct job_stats *s)
{
	int d;

	if (s->err)
		return s->err < 0 ? -s->err : s->err;
	for (d = 0; d < DDIR_NR; d++)
		if (s->dir[d].first_errno)
			return s->dir[d].first_errno;
	return 0;
}

uint64_t *fio_unit_runtimes(const struct run_result *r,
			    const struct result_set *rs)
{
	uint64_t *rt = calloc((size_t)rs->nunits + 1, sizeof(*rt));
	size_t i;

	/* A saved result has the units alone: a unit of one job (or of the
	 * runs of one) took the unit's runtime. */
	for (i = 0; rt && !rs->unit_of && i < (size_t)rs->nunits; i++)
		rt[i] = rs->units[i].stats.runtime_ns;
	for (i = 0; rt && rs->unit_of && i < r->plan->njobs; i++)
		if (r->stats && (!r->ran || r->ran[i]))
			rt[rs->unit_of[i]] += r->stats[i].runtime_ns;
	return rt;
}

const char *fio_version_tag(const struct run_result *r, char *buf,
			    size_t len)
{
	if (r->fio_version)
		return r->fio_version;
	snprintf(buf, len, "iorig-%s", r->version ? r->version : "");
	return buf;
}

double fio_bw_agg(const struct smp_stat *b, double group_bps)
{
	double p;

	if (!b->n)
		return 0.0;
	if (group_bps <= 1024.0)
		return 100.0;
	p = 100.0 * b->mean / group_bps;
	return p > 100.0 ? 100.0 : p;
}

double fio_group_bw(const struct result_set *rs, const struct job *j,
		    int ddir)
{
	const struct dir_stats *d;
	const struct job_stats *g;
	struct dir_stats mixed;
	uint64_t rt;

	if (!j || !rs->groups || j->plan.group >= (unsigned)rs->ngroups)
		return 0.0;
	g = &rs->groups[j->plan.group];
	d = fio_dir_view(g, ddir, &mixed, &rt);
	return stats_bw(d, rt);
}

json_t *fio_bins(struct jw *c, const struct hist *h)
{
	json_t *o = json_object();
	uint64_t lo, v, n;
	char key[24];
	unsigned i;

	for (i = 0; o && i <= HIST_NBUCKETS; i++) {
		if (i < HIST_NBUCKETS) {
			n = h->b[i];
			lo = hist_bucket_low(i);
			v = lo + (hist_bucket_high(i) - lo) / 2;
		} else {
			n = h->overflow;
			v = h->max;
		}
		if (!n)
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, v);
		n += json_integer_value(json_object_get(o, key));
		jw_put(c, o, key, jw_u64(n));
	}
	return o;
}
