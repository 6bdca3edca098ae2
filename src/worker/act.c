// SPDX-License-Identifier: MIT
/*
 * --profile=act (profile.h): act's latency table (one slice an hour,
 * shared by the profile's jobs) and its verdict; each measured
 * completion's latency goes into the table and the job's own hour; fio's
 * act ends a job at its first failed hour. A worker feature (feature.h)
 * with a done hook. The table is here, below the profile that makes it
 * (act_tally_new) and the face that prints it, because the worker counts
 * into it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "wstate.h"

/* act's thresholds: an I/O counts once, in the highest it is over. */
static const struct {
	uint64_t us;
	uint64_t max_permille;	/* a slice fails at this share or more */
} act_crit[ACT_NCRIT] = { { 1000, 50 }, { 8000, 10 }, { 64000, 1 } };

#define ACT_SLICE_NS	(3600 * 1000000000ull)

struct act_tally {
	uint64_t nslices;
	/* [slice][0]: I/Os; [slice][1 + i]: those over act_crit[i] only */
	_Atomic uint64_t (*c)[1 + ACT_NCRIT];
};

struct act_tally *act_tally_alloc(uint64_t secs)
{
	struct act_tally *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nslices = (secs + 3599) / 3600;
	t->c = calloc(t->nslices, sizeof(*t->c));
	if (!t->c) {
		free(t);
		return NULL;
	}
	return t;
}

void act_tally_free(struct act_tally *t)
{
	if (t)
		free(t->c);
	free(t);
}

/* Highest limit the I/O's latency is over, or -1. */
static int act_over(uint64_t lat_ns)
{
	uint64_t us = lat_ns / 1000;
	int i;

	for (i = ACT_NCRIT - 1; i >= 0; i--)
		if (us > act_crit[i].us)
			return i;
	return -1;
}

/* fio's test of a slice: the per mille at or over the limit. */
static bool act_fails(uint64_t n, uint64_t over, int i, double *pct)
{
	*pct = n ? 100.0 * (double)over / (double)n : 0.0;
	return *pct * 10.0 >= (double)act_crit[i].max_permille;
}

int act_tally_add(struct act_tally *t, struct act_hour *h, uint64_t since_ns,
		  uint64_t lat_ns, char *why, size_t whylen)
{
	uint64_t k = since_ns / ACT_SLICE_NS;
	int i, over = act_over(lat_ns), r = 0;
	double pct;

	if (k != h->slice) {
		/* the job's first I/O after an hour: judge that hour */
		for (i = 0; i < ACT_NCRIT && h->c[0] && !r; i++)
			if (act_fails(h->c[0], h->c[1 + i], i, &pct)) {
				snprintf(why, whylen, "act: hour %" PRIu64
					 ": %.2f%% of the job's I/Os over %u "
					 "ms, the pass criterion is under "
					 "%.1f%%", h->slice + 1, pct,
					 (unsigned)(act_crit[i].us / 1000),
					 (double)act_crit[i].max_permille /
					 10.0);
				r = -ETIMEDOUT;
			}
		memset(h, 0, sizeof(*h));
		h->slice = k;
	}
	h->c[0]++;
	if (over >= 0)
		h->c[1 + over]++;
	/* a late completion past the test's last hour is left out */
	if (k >= t->nslices)
		return r;
	atomic_fetch_add_explicit(&t->c[k][0], 1, memory_order_relaxed);
	if (over >= 0)
		atomic_fetch_add_explicit(&t->c[k][1 + over], 1,
					  memory_order_relaxed);
	return r;
}

bool act_tally_print(FILE *f, const struct act_tally *t)
{
	uint64_t k, n, over;
	unsigned fails = 0;
	double pct[ACT_NCRIT];
	int i, half;

	fprintf(f, "        trans                   device\n"
		"        %%>(ms)                  %%>(ms)\n slice");
	for (half = 0; half < 2; half++)
		for (i = 0; i < ACT_NCRIT; i++)
			fprintf(f, "\t %2u", (unsigned)(act_crit[i].us / 1000));
	fprintf(f, "\n -----  -----   -----  ------   -----   -----  ------\n");
	for (k = 0; k < t->nslices; k++) {
		n = atomic_load(&t->c[k][0]);
		fprintf(f, "   %2u", (unsigned)(k + 1));
		for (i = 0; i < ACT_NCRIT; i++) {
			over = atomic_load(&t->c[k][1 + i]);
			fails += act_fails(n, over, i, &pct[i]);
		}
		/* fio prints the same figures as "trans" and "device" */
		for (half = 0; half < 2; half++)
			for (i = 0; i < ACT_NCRIT; i++)
				fprintf(f, "\t%2.2f", pct[i]);
		fputc('\n', f);
	}
	fprintf(f, "\nact: test complete, device(s): %s\n", fails ? "FAILED" :
		"PASSED");
	return fails != 0;
}


static bool act_wanted(const struct wstate *s)
{
	return s->j->plan.act_tally != NULL;
}

static void act_done(struct wstate *s, struct io_req *req,
		     const struct wlat *l)
{
	struct act_hour *h = wf_state(s, WF_ACT);
	char why[160];
	int r;

	(void)req;
	if (!l || s->ramp_end)
		return;
	r = act_tally_add(s->j->plan.act_tally, h,
			  clock_span_ns(s->w->clk, s->t0, s->now), l->lat,
			  why, sizeof(why));
	if (r)
		job_fail(s, r, "%s", why);
}

const struct wfeature wf_act = {
	.name = "act",
	.size = sizeof(struct act_hour),
	.wanted = act_wanted,
	.done = act_done,
};
