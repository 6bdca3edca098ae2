/* SPDX-License-Identifier: MIT */
#ifndef IORIG_INTERVAL_H
#define IORIG_INTERVAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "job.h"

/*
 * interval=: a job's figures per interval of its measured phase.
 *
 * Interval k of a clone covers [k * interval, (k + 1) * interval) ns from
 * the clone's t0 (the end of ramp_time); the last one ends at the end of
 * the measured phase (its real length). A completion belongs to the
 * interval in which it was observed, where the job's totals count it, so
 * the intervals' ios and bytes add up exactly to the totals.
 *
 * A series is written by one thread (the worker, or the thread that gave
 * up on it) and holds the samples twice over:
 *
 * - for --stream (a series made with streamed true), every sample, in
 *   chunks that never move, read by the main thread while the series
 *   grows: `published` (release/acquire) says how many are complete, and
 *   a complete sample is never written again; `consumed` says how many
 *   the reader is done with, and the writer frees the chunks it has left
 *   behind. Memory stays flat as long as the reader keeps up.
 * - for the report, at most IVAL_KEEP samples: once a run has more
 *   intervals, adjacent pairs are merged into one (start and end cover
 *   both, counts and histograms add up), so each sample covers 2^fold
 *   intervals, and memory stays flat whatever the run's length. The
 *   report reads them only once the writer is done.
 */

/* One direction of one interval. */
struct ival_dir {
	uint64_t ios;
	uint64_t bytes;
	struct hist_sparse lat;	/* lat (queued -> completion observed) */
};

struct ival_sample {
	uint64_t start_ns;	/* from the clone's t0 */
	uint64_t end_ns;
	struct ival_dir dir[DDIR_NR];
};

#define IVAL_CHUNK	64
/* The report's samples at most (even): about 3 KB each. */
#define IVAL_KEEP	256

struct ival_chunk {
	struct ival_sample s[IVAL_CHUNK];
	struct ival_chunk *_Atomic next;
};

struct ival_series {
	uint64_t interval_ns;	/* the option: each sample 2^fold of them */
	unsigned refs;		/* ival_series_get/put: one thread only */
	bool streamed;		/* the chunks are kept for a reader */
	/* --stream: every sample (streamed only) */
	struct ival_chunk *head, *tail;
	size_t head_index;	/* of head's first sample (writer only) */
	size_t n;		/* slots handed out (writer only) */
	atomic_size_t published;	/* complete samples */
	atomic_size_t consumed;		/* the reader is done with them */
	/* The report: keep[0 .. nkeep) */
	struct ival_sample *keep;	/* IVAL_KEEP slots, or NULL */
	size_t nkeep;
	unsigned fold;
	uint64_t nbase;		/* intervals in keep, counted in slots of
				 * 2^fold from the start */
};

/* A reader's place in a series: start zeroed (IVAL_ITER_INIT). */
struct ival_iter {
	const struct ival_chunk *c;
	size_t pos;		/* within c */
	size_t index;		/* of the next sample */
};

#define IVAL_ITER_INIT	{ NULL, 0, 0 }

/*
 * A new, empty series with one reference; NULL when out of memory.
 * streamed: a reader takes every sample while it grows (--stream).
 */
struct ival_series *ival_series_new(uint64_t interval_ns, bool streamed);
struct ival_series *ival_series_get(struct ival_series *s);
/* Drops a reference; the last one frees everything. NULL is fine. */
void ival_series_put(struct ival_series *s);

/*
 * Writer: a complete sample joins the series (copied: smp stays the
 * caller's), as the next interval. Returns 0 or -ENOMEM.
 */
int ival_series_add(struct ival_series *s, const struct ival_sample *smp);

/*
 * A series as a saved report holds it (the JSON reader): the n samples of
 * v (at most IVAL_KEEP; copied), each covering 2^fold intervals. NULL when
 * out of memory or n is too large.
 */
struct ival_series *ival_series_saved(uint64_t interval_ns, unsigned fold,
				      const struct ival_sample *v, size_t n);
/* The report's samples (once the writer is done), and a walk over them. */
size_t ival_series_count(const struct ival_series *s);
/* The next sample after it, or NULL. */
const struct ival_sample *ival_iter_next(struct ival_iter *it,
					 const struct ival_series *s);
/*
 * The stream's walk over every sample of a streamed series while it
 * grows: the next complete one, or NULL. The sample stays valid until
 * the next call with it.
 */
const struct ival_sample *ival_stream_next(struct ival_iter *it,
					   struct ival_series *s);

/*
 * Merge two series of clones that ran side by side: sample k of the
 * result is sample k of both (counts and histograms added, the earliest
 * start, the latest end), or of the one that has it, once the finer of
 * the two is folded as the coarser is. Both must have the same interval.
 * Returns a new series (one reference) or NULL when out of memory.
 */
struct ival_series *ival_series_merge(const struct ival_series *a,
				      const struct ival_series *b);

/*
 * Runs that went one after the other: a's samples (a may be NULL), then
 * b's, each b sample offset_ns later (b's times counted from the start of
 * its own run), folded again when they are more than IVAL_KEEP. Returns a
 * new series (one reference) or NULL when out of memory.
 */
struct ival_series *ival_series_append(const struct ival_series *a,
				       const struct ival_series *b,
				       uint64_t offset_ns);

/* Per direction: rates over the sample's length, 0 when it has none. */
double ival_iops(const struct ival_sample *s, int ddir);
double ival_bw(const struct ival_sample *s, int ddir);

/*
 * The recorder a worker keeps: the job's totals and latency histograms as
 * they were when the running interval started (an interval's histogram is
 * the job's minus that copy, taken once per interval), and the running
 * interval's least and largest latency. ~75 KB: allocate it.
 */
struct ival_rec {
	struct ival_series *series;
	uint64_t index;		/* of the running interval */
	uint64_t base_ios[DDIR_NR];
	uint64_t base_bytes[DDIR_NR];
	struct hist base_lat[DDIR_NR];
	uint64_t min[DDIR_NR];	/* UINT64_MAX: none yet */
	uint64_t max[DDIR_NR];
	struct ival_sample tmp;	/* the interval being closed */
};

/* Start over at interval 0 with the totals at 0 (measuring begins). */
void ival_rec_reset(struct ival_rec *r);
/* A new recorder of series s (which it does not own); NULL: no memory. */
struct ival_rec *ival_rec_new(struct ival_series *s);
void ival_rec_free(struct ival_rec *r);

/*
 * Hot path: one completion's latency, which the caller also adds to the
 * job's histogram that it hands to ival_rec_close.
 */
static inline void ival_rec_add(struct ival_rec *r, int ddir, uint64_t lat)
{
	if (lat < r->min[ddir])
		r->min[ddir] = lat;
	if (lat > r->max[ddir])
		r->max[ddir] = lat;
}

/*
 * Close the running interval at end_ns with the job's totals now
 * (ios[d], bytes[d]) and its latency histograms (lat[d]: every latency
 * ival_rec_add was given, since ival_rec_reset), publish it and start the
 * next. Returns 0 or -ENOMEM (nothing published).
 */
int ival_rec_close(struct ival_rec *r, uint64_t end_ns,
		   const uint64_t ios[DDIR_NR], const uint64_t bytes[DDIR_NR],
		   const struct hist *const lat[DDIR_NR]);

/* The end of the running interval, ns from t0. */
static inline uint64_t ival_rec_boundary(const struct ival_rec *r)
{
	return (r->index + 1) * r->series->interval_ns;
}

#endif
