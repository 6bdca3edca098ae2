// SPDX-License-Identifier: MIT
/*
 * steadystate=: parsing the criterion and judging a window of samples
 * (see steady.h). Runs once per ss_interval in the worker, never per I/O.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "steady.h"

static const char *const kind_names[] = {
	[SS_IOPS] = "iops", [SS_IOPS_SLOPE] = "iops_slope",
	[SS_BW] = "bw", [SS_BW_SLOPE] = "bw_slope",
	[SS_LAT] = "lat", [SS_LAT_SLOPE] = "lat_slope",
};

const char *steady_kind_name(int kind)
{
	return kind >= 0 && kind <= SS_LAT_SLOPE ? kind_names[kind] : "?";
}

int steady_parse(const char *val, struct steady_crit *c, char *why,
		 size_t whylen)
{
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : 0;
	char *end;
	int k;

	for (k = 0; colon && k <= SS_LAT_SLOPE; k++)
		if (strlen(kind_names[k]) == len &&
		    !strncasecmp(val, kind_names[k], len))
			break;
	if (!colon || k > SS_LAT_SLOPE) {
		snprintf(why, whylen, "'%s': expected KIND:LIMIT, KIND one of "
			 "iops, iops_slope, bw, bw_slope, lat, lat_slope "
			 "(iops_slope:0.1%%)", val);
		return -EINVAL;
	}
	errno = 0;
	c->limit = strtod(colon + 1, &end);
	c->pct = *end == '%';
	if (c->pct)
		end++;
	if (errno || end == colon + 1 || *end || !(c->limit >= 0) ||
	    isinf(c->limit)) {
		snprintf(why, whylen, "'%s': the limit after ':' must be a "
			 "number of 0 or more, or a percentage (2%%)",
			 colon + 1);
		return -EINVAL;
	}
	c->kind = k;
	return 0;
}

struct steady_rec *steady_new(const struct steady_crit *c, uint64_t dur_ns,
			      uint64_t interval_ns)
{
	struct steady_rec *r = calloc(1, sizeof(*r));
	uint64_t n = interval_ns ? dur_ns / interval_ns : 0;

	if (!r)
		return NULL;
	r->crit = *c;
	atomic_init(&r->refs, 1);
	r->dur_ns = dur_ns;
	r->interval_ns = interval_ns;
	r->n = n < 1 ? 1 : (unsigned)n;
	r->iops = calloc(r->n, sizeof(double));
	r->bw = calloc(r->n, sizeof(double));
	r->lat = calloc(r->n, sizeof(double));
	if (!r->iops || !r->bw || !r->lat) {
		steady_free(r);
		return NULL;
	}
	return r;
}

struct steady_rec *steady_ref(struct steady_rec *r)
{
	atomic_fetch_add(&r->refs, 1);
	return r;
}

void steady_free(struct steady_rec *r)
{
	if (!r || atomic_fetch_sub(&r->refs, 1) != 1)
		return;
	free(r->iops);
	free(r->bw);
	free(r->lat);
	free(r);
}

double steady_mean(const struct steady_rec *r, const double *series)
{
	double sum = 0;
	unsigned k;

	for (k = 0; k < r->count; k++)
		sum += series[steady_at(r, k)];
	return r->count ? sum / r->count : 0;
}

/* Least-squares slope of y against 0..n-1 (oldest first). */
static double slope_of(const struct steady_rec *r, const double *y)
{
	double n = r->count, sx = n * (n - 1) / 2,
	       sxx = (n - 1) * n * (2 * n - 1) / 6, sy = 0, sxy = 0, den;
	unsigned k;

	for (k = 0; k < r->count; k++) {
		sy += y[steady_at(r, k)];
		sxy += k * y[steady_at(r, k)];
	}
	den = sxx - sx * sx / n;
	return den > 0 ? (sxy - sx * sy / n) / den : 0;
}

static double deviation_of(const struct steady_rec *r, const double *y,
			   double mean)
{
	double dev = 0;
	unsigned k;

	for (k = 0; k < r->count; k++)
		dev = fmax(dev, fabs(y[steady_at(r, k)] - mean));
	return dev;
}

bool steady_add(struct steady_rec *r, double iops, double bw, double lat)
{
	const double *y;
	double mean, v;
	unsigned slot;

	if (r->count < r->n) {
		slot = steady_at(r, r->count);
		r->count++;
	} else {
		slot = r->first;
		r->first = (r->first + 1) % r->n;
	}
	r->iops[slot] = iops;
	r->bw[slot] = bw;
	r->lat[slot] = lat;
	if (r->count < r->n)
		return false;
	y = r->crit.kind <= SS_IOPS_SLOPE ? r->iops :
	    r->crit.kind <= SS_BW_SLOPE ? r->bw : r->lat;
	mean = steady_mean(r, y);
	r->judged = true;
	r->slope = slope_of(r, y);
	r->deviation = deviation_of(r, y, mean);
	v = steady_is_slope(r->crit.kind) ? r->slope : r->deviation;
	if (r->crit.pct)
		v = mean > 0 ? 100 * v / mean : INFINITY;
	r->criterion = v;
	return fabs(v) < r->crit.limit;
}

struct steady_group *steady_group_new(const struct steady_crit *c,
				      uint64_t dur_ns, uint64_t interval_ns,
				      unsigned nclones)
{
	struct steady_group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->rec = steady_new(c, dur_ns, interval_ns);
	g->next = calloc(nclones ? nclones : 1, sizeof(*g->next));
	if (!g->rec || !g->next) {
		steady_free(g->rec);
		free(g->next);
		free(g);
		return NULL;
	}
	g->nclones = nclones;
	pthread_mutex_init(&g->lock, NULL);
	atomic_init(&g->attained, false);
	return g;
}

void steady_group_free(struct steady_group *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->lock);
	steady_free(g->rec);
	free(g->next);
	free(g);
}

/* Close sample base (with what it has) into the window; lock held. */
static void close_oldest(struct steady_group *g, uint64_t at_ns)
{
	unsigned slot = (unsigned)(g->base % STEADY_OPEN);
	struct steady_rec *r = g->rec;

	if (g->part[slot].any && !r->attained &&
	    steady_add(r, g->part[slot].iops, g->part[slot].bw,
		       g->part[slot].lat_n ? g->part[slot].lat_sum /
		       (double)g->part[slot].lat_n : 0)) {
		r->attained = true;
		r->at_ns = at_ns;
		atomic_store(&g->attained, true);
	}
	memset(&g->part[slot], 0, sizeof(g->part[slot]));
	g->base++;
}

/*
 * Close every sample that no clone still sampling will add to. Once the
 * last clone has left, the open ones are dropped: their sums lack the
 * clones that ended first, and nothing runs on to be stopped.
 */
static void close_done(struct steady_group *g, uint64_t at_ns)
{
	uint64_t low = UINT64_MAX;
	unsigned c;

	for (c = 0; c < g->nclones; c++)
		if (g->next[c] < low)
			low = g->next[c];
	while (low != UINT64_MAX && g->base < low)
		close_oldest(g, at_ns);
}

bool steady_group_add(struct steady_group *g, unsigned clone, uint64_t k,
		      double iops, double bw, uint64_t lat_n, double lat_sum,
		      uint64_t at_ns)
{
	unsigned slot;

	pthread_mutex_lock(&g->lock);
	if (clone < g->nclones && g->next[clone] != UINT64_MAX &&
	    k >= g->base) {
		/* a clone far ahead: the oldest close as they are */
		while (k >= g->base + STEADY_OPEN)
			close_oldest(g, at_ns);
		slot = (unsigned)(k % STEADY_OPEN);
		g->part[slot].iops += iops;
		g->part[slot].bw += bw;
		g->part[slot].lat_n += lat_n;
		g->part[slot].lat_sum += lat_sum;
		g->part[slot].any = true;
		g->next[clone] = k + 1;
		close_done(g, at_ns);
	}
	pthread_mutex_unlock(&g->lock);
	return steady_group_attained(g);
}

void steady_group_leave(struct steady_group *g, unsigned clone,
			uint64_t at_ns)
{
	pthread_mutex_lock(&g->lock);
	if (clone < g->nclones && g->next[clone] != UINT64_MAX) {
		g->next[clone] = UINT64_MAX;
		close_done(g, at_ns);
	}
	pthread_mutex_unlock(&g->lock);
}
