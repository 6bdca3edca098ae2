/* SPDX-License-Identifier: MIT */
#ifndef IORIG_STEADY_H
#define IORIG_STEADY_H

/*
 * steadystate=, ss_dur=, ss_ramp=, ss_interval=: fio's steady-state
 * detection. A job samples its IOPS, bandwidth and mean completion
 * latency once per ss_interval into a rolling window of ss_dur; once the
 * window is full, after every sample, the criterion is computed over it:
 * the largest distance of a sample from the window's mean (iops, bw,
 * lat), or the least-squares slope of the samples against their index
 * (the _slope kinds), each as is or, with a '%' limit, as a percentage
 * of the window's mean. Below the limit (the slope's absolute value):
 * steady state is attained and the job stops.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum steady_kind {
	SS_IOPS, SS_IOPS_SLOPE, SS_BW, SS_BW_SLOPE, SS_LAT, SS_LAT_SLOPE,
};

struct steady_crit {
	int kind;		/* enum steady_kind */
	double limit;
	bool pct;		/* limit is a percentage of the mean */
};

/* "KIND:LIMIT[%]" as fio reads steadystate=; 0 or -EINVAL with why. */
int steady_parse(const char *val, struct steady_crit *c, char *why,
		 size_t whylen);
/* "iops_slope" and so on. */
const char *steady_kind_name(int kind);
static inline bool steady_is_slope(int kind)
{
	return kind == SS_IOPS_SLOPE || kind == SS_BW_SLOPE ||
	       kind == SS_LAT_SLOPE;
}

/*
 * One job clone's window and what the report says of it. The samples are
 * kept in arrival order in a ring of n; `count` is how many came (up to
 * n); `first` the ring index of the oldest.
 */
struct steady_rec {
	struct steady_crit crit;
	uint64_t dur_ns, interval_ns;
	unsigned n, count, first;
	bool attained;
	uint64_t at_ns;		/* since the measured phase began, when
				 * attained */
	bool judged;		/* the window filled: the figures below hold */
	double criterion;	/* the last computed; in % with crit.pct */
	double slope, deviation;	/* of the last computation */
	double *iops, *bw, *lat;	/* n each: I/O/s, bytes/s, ns */
	/* Holders: a clone's stats or worker, a steady_group; the last
	 * steady_free frees it. */
	atomic_uint refs;
};

/* A record for a window of dur over samples of interval; NULL: no
 * memory. */
struct steady_rec *steady_new(const struct steady_crit *c, uint64_t dur_ns,
			      uint64_t interval_ns);
/* One more holder of r (r itself); steady_free drops one. */
struct steady_rec *steady_ref(struct steady_rec *r);
void steady_free(struct steady_rec *r);
/* Add one sample; returns true when the criterion is now met (attained is
 * set by the caller, with the time). */
bool steady_add(struct steady_rec *r, double iops, double bw, double lat);
/* The mean of the window's samples of one series (r->iops, r->bw,
 * r->lat); 0 when empty. */
double steady_mean(const struct steady_rec *r, const double *series);
/*
 * group_reporting: the clones of a reporting group judged together, as
 * fio judges them. Sample k of the group is the sum of its clones' k-th
 * samples (each clone's rates over its own k-th interval; the mean
 * latency of all their completions in it); it joins the group's window
 * (rec, which every clone reports) once each clone still sampling has
 * given its k-th or gone past it (a clone that stalled skips samples).
 * When the criterion is met, attained is set and every clone stops. A
 * mutex: once per ss_interval per clone, never per I/O.
 */
#define STEADY_OPEN	16	/* samples being summed at once */
struct steady_group {
	pthread_mutex_t lock;
	struct steady_rec *rec;		/* the group's window: one ref */
	unsigned nclones;
	uint64_t *next;			/* per clone: the index of its next
					 * sample; UINT64_MAX: it left */
	uint64_t base;			/* index of the oldest open sample */
	struct {
		double iops, bw, lat_sum;
		uint64_t lat_n;
		bool any;
	} part[STEADY_OPEN];		/* sample base + i at (base + i) %
					 * STEADY_OPEN */
	atomic_bool attained;
};

/* A group of nclones judged by c over dur; NULL: no memory. */
struct steady_group *steady_group_new(const struct steady_crit *c,
				      uint64_t dur_ns, uint64_t interval_ns,
				      unsigned nclones);
void steady_group_free(struct steady_group *g);
/*
 * Clone `clone`'s sample k (k only grows per clone), at_ns since its
 * measured phase began: lat_n completions of lat_sum ns in it. Returns
 * true when the group is steady.
 */
bool steady_group_add(struct steady_group *g, unsigned clone, uint64_t k,
		      double iops, double bw, uint64_t lat_n, double lat_sum,
		      uint64_t at_ns);
/* Clone `clone` samples no more (it ended; again: nothing). */
void steady_group_leave(struct steady_group *g, unsigned clone,
			uint64_t at_ns);
static inline bool steady_group_attained(struct steady_group *g)
{
	return atomic_load_explicit(&g->attained, memory_order_relaxed);
}

/* The ring index of the k-th sample in arrival order (k < count). */
static inline unsigned steady_at(const struct steady_rec *r, unsigned k)
{
	return (r->first + k) % r->n;
}

#endif
