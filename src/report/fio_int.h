/* SPDX-License-Identifier: MIT */
#ifndef IORIG_FIO_INT_H
#define IORIG_FIO_INT_H

/*
 * What fio's layouts share (src/report/fio_json.c: json and json+;
 * src/report/terse.c: terse): fio's latency buckets, its depth shares,
 * the figures of a unit as fio counts them.
 */
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "jsonw.h"
#include "result.h"
#include "stats.h"

/*
 * fio's latency buckets: slot i holds completion latencies below
 * fio_lat_edge_ns[i] and at or above the edge before; the last slot,
 * FIO_LAT_EDGES, is 2 s and more. 0-9: fio's ns map, 10-19: us, 20-31: ms.
 */
#define FIO_LAT_EDGES	31
#define FIO_LAT_SLOTS	(FIO_LAT_EDGES + 1)
extern const uint64_t fio_lat_edge_ns[FIO_LAT_EDGES];

/*
 * The share (per cent) of the unit's I/Os, both directions, in each slot;
 * a share that is not 0 shows as at least floor (fio: 0.01).
 */
void fio_lat_shares(const struct job_stats *s, double *shares, double floor);

/*
 * Direction d of s as fio counts it (d DDIR_NR: the directions mixed,
 * unified_rw_reporting): fio issues verification reads as reads, so its
 * reads are s's with s->vread added, and its read runtime is the measured
 * phase when the job itself reads plus the verification after it
 * (s->vphase_ns), only the latter when it does not. Returns the figures,
 * &s->dir[d] itself when nothing is added, else built in *buf; *rt_ns:
 * the runtime its rates are over (0 without I/O, as in fio).
 */
const struct dir_stats *fio_dir_view(const struct job_stats *s, int d,
				struct dir_stats *buf, uint64_t *rt_ns);

/* Per cent of each of DEPTH_NB counts; not 0 shows as at least 0.1. */
void fio_depth_shares(const uint64_t *counts, double *shares);

/* Where fio puts its version: r->fio_version, else "iorig-VERSION". */
const char *fio_version_tag(const struct run_result *r, char *buf,
			    size_t len);

/* Positive errno of what ended the job, else of its first failed I/O. */
int fio_unit_errno(const struct job_stats *s);

/*
 * Per unit of rs, the runtimes of its jobs that ran added (fio's
 * job_runtime, which its CPU shares are of; a saved result's units, which
 * keep no jobs of their own: the unit's runtime); calloc'ed, NULL: no
 * memory.
 */
uint64_t *fio_unit_runtimes(const struct run_result *r,
			    const struct result_set *rs);

/* fio's latency_ns, latency_us and latency_ms maps of s's completion
 * latencies, put into o. */
void fio_put_lat_maps(struct jw *c, json_t *o, const struct job_stats *s);

/*
 * json+: "bins", the histogram's buckets that hold I/Os, keyed by the
 * bucket's middle in ns as a string (fio keys them by its bucket's value),
 * so that the counts add up to N; the overflow bucket under h->max.
 */
json_t *fio_bins(struct jw *c, const struct hist *h);
/* A queue depth map: per cent of counts[] (DEPTH_NB) under keys. */
json_t *fio_depth_map(struct jw *c, const char *const *keys,
		      const uint64_t *counts);

/*
 * fio's bw_agg (its text's "per="): the mean of b's bandwidth samples as a
 * per cent of the aggregate bandwidth of the unit's reporting group in the
 * same direction, group_bps (the group's bytes over its runtime, the
 * "Run status group" figure); 100 when the group moved 1 KiB/s or less,
 * never above 100; 0 without samples. So two equal jobs of one group
 * without group_reporting have about 50 each.
 */
double fio_bw_agg(const struct smp_stat *b, double group_bps);

/*
 * The aggregate bandwidth (B/s) of job j's reporting group in direction
 * ddir of rs's groups; ddir DDIR_NR: the directions mixed
 * (unified_rw_reporting). 0 when the group is not in rs.
 */
double fio_group_bw(const struct result_set *rs, const struct job *j,
		    int ddir);

#endif
