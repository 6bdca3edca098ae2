// SPDX-License-Identifier: MIT
/*
 * The cluster result (cluster.h): N results of the same jobs, each read
 * back into the result model, folded one at a time into one merged
 * result of the model and its cluster part (result.h: cluster_info).
 *
 * The merged result keeps the layout of one result, so every writer and
 * every reader of the model takes it: counts add up, rates add up (the
 * aggregate: dir_stats.agg), histograms are merged bucket by bucket (their
 * percentiles are those of the pooled samples, never an average of
 * percentiles), times take the longest. The cluster part adds what only a
 * cluster has: the members, the hosts, per member and per host rows, the
 * spread (min, median, max, the slowest member), "first done" and "last
 * done".
 *
 * A member is read, folded and freed before the next is read: the first
 * member's result becomes the merged one; of each other member the fold
 * keeps its own figures of each job (for its rows, its rank: checks and
 * fio's client layout) and nothing else.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_expr.h"
#include "cluster.h"
#include "door.h"
#include "engine.h"
#include "err.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "result.h"

/* Member 0's options of a job, formatted (ref_values). */
struct optref {
	char **v;
	size_t n;
};

/* What the fold adds up per unit besides the figures: the members'
 * rates (the aggregate). */
struct rates {
	double iops[DDIR_NR], bw[DDIR_NR];
	bool met[DDIR_NR];
	double row_iops, row_bw;
};

struct cluster {
	struct result_doc doc;		/* the merged result: member 0's */
	struct cluster_info *info;
	struct rates *urates, *grates;	/* per unit, per group */
	struct cluster_unit *scratch;	/* a member's row, to pack */
	struct optref *ref;		/* per unit: ref_values */
	int nref;
	bool any;			/* a member was added */
	bool finished;
	bool lean;			/* members' own figures not kept */
};

/* ---- the members ---- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static char *label_of(const char *label, int rank, unsigned i)
{
	char buf[64];

	if (label && *label)
		return strdup(label);
	if (rank >= 0)
		snprintf(buf, sizeof(buf), "rank %d", rank);
	else
		snprintf(buf, sizeof(buf), "member %u", i);
	return strdup(buf);
}

static const char *text_of(const char *s, char *buf, size_t len,
			   bool null)
{
	if (!s && null)
		return "null";
	snprintf(buf, len, "%s", s ? s : "");
	return buf;
}

/* Unit i of a and b: the same job (name, clone, group, sweep point) with
 * the same options but the per-member ones; 0 or -EINVAL with e. */
static int same_unit(const struct result_unit *x, const struct result_unit *y,
		     char *const *ref, size_t i, const char *na,
		     const char *nb, struct err_rec *e)
{
	const struct job *a = x->job, *b = y->job;
	const struct opt_def *o;
	char va[4096], vb[4096], ca[16], cb[16];
	size_t n = 0;
	const char *ids[4][3] = {
		{ "name", a->desc.name, b->desc.name },
		{ "clone", ca, cb },
		{ "group", NULL, NULL },
		{ "sweep_point", a->plan.sweep_point, b->plan.sweep_point },
	};
	char ga[16], gb[16];
	unsigned k;

	snprintf(ca, sizeof(ca), a->report.group_reporting ? "null" : "%u",
		 a->plan.clone);
	snprintf(cb, sizeof(cb), b->report.group_reporting ? "null" : "%u",
		 b->plan.clone);
	snprintf(ga, sizeof(ga), "%u", a->plan.group);
	snprintf(gb, sizeof(gb), "%u", b->plan.group);
	ids[2][1] = ga;
	ids[2][2] = gb;
	for (k = 0; k < 4; k++) {
		bool same = ids[k][1] && ids[k][2] ?
			    !strcmp(ids[k][1], ids[k][2]) :
			    !ids[k][1] && !ids[k][2];

		if (same)
			continue;
		err_set(e, nb, 0, "", "job %zu differs: %s is %s in %s, %s in "
			"%s", i + 1, ids[k][0], text_of(ids[k][1], va,
			sizeof(va), true), na, text_of(ids[k][2], vb,
			sizeof(vb), true), nb);
		return -EINVAL;
	}
	/* the job table's and the engine's (the same: ioengine= is
	 * compared first) */
	for (o = options_next(a, NULL); o; o = options_next(a, o), n++) {
		if (!ref[n])	/* one a member may set for itself */
			continue;
		options_format(b, o, vb, sizeof(vb));
		if (!strcmp(ref[n], vb))
			continue;
		snprintf(va, sizeof(va), "%s", ref[n]);
		err_set(e, nb, 0, o->name, "job '%s' differs: %s=%s in %s, "
			"%s=%s in %s (only targets, sizes, offsets, seeds and "
			"CPUs may differ between members)", a->desc.name, o->name,
			va, na, o->name, vb, nb);
		return -EINVAL;
	}
	return 0;
}

/*
 * The options of job j as same_unit compares them, in options_next's
 * order: each formatted, NULL for one a member may set for itself.
 * Made once for member 0's jobs: each other member's are compared with
 * them. NULL when out of memory.
 */
static void ref_free(struct optref *r)
{
	size_t k;

	for (k = 0; r->v && k < r->n; k++)
		free(r->v[k]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static int ref_values(struct optref *r, const struct job *j)
{
	const struct opt_def *o;
	char v[4096];
	size_t n = 0;

	for (o = options_next(j, NULL); o; o = options_next(j, o))
		n++;
	r->v = calloc(n + 1, sizeof(*r->v));
	if (!r->v)
		return -ENOMEM;
	r->n = n;
	for (n = 0, o = options_next(j, NULL); o; o = options_next(j, o),
	     n++) {
		if (cluster_option_per_member(o->name))
			continue;
		options_format(j, o, v, sizeof(v));
		if (!(r->v[n] = strdup(v))) {
			ref_free(r);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Member m ran the jobs of the merged result; 0, -EINVAL with e, or
 * -ENOMEM. */
static int same_jobs(struct cluster *c, const struct result_doc *m,
		     const char *nb, struct err_rec *e)
{
	const struct result_set *a = &c->doc.set, *b = &m->set;
	const char *na = c->info->members[0].label;
	int i;

	if (a->nunits != b->nunits) {
		err_set(e, nb, 0, "", "%s has %d job(s), %s has %d: the "
			"members did not run the same jobs", na, a->nunits, nb,
			b->nunits);
		return -EINVAL;
	}
	if (!c->ref) {
		c->ref = calloc((size_t)a->nunits + 1, sizeof(*c->ref));
		if (!c->ref)
			return -ENOMEM;
		c->nref = a->nunits;
		for (i = 0; i < a->nunits; i++)
			if (ref_values(&c->ref[i], a->units[i].job))
				return -ENOMEM;
	}
	/* a job is its own: a wire form's (result_wire_read takes member
	 * 0's jobs, which each rank checked its own against) passes
	 * without formatting its 230 options again for every rank */
	for (i = 0; i < a->nunits; i++)
		if (a->units[i].job != b->units[i].job &&
		    same_unit(&a->units[i], &b->units[i], c->ref[i].v,
			      (size_t)i, na, nb, e))
			return -EINVAL;
	if (a->ngroups != b->ngroups) {
		err_set(e, nb, 0, "", "%s and %s have different stonewall "
			"groups", na, nb);
		return -EINVAL;
	}
	return 0;
}

/* ---- the fold ---- */

/* The pooled mean and population stddev of two sets of n1 and n2. */
static void pool(double n1, double m1, double s1, double n2, double m2,
		 double s2, double *m, double *s)
{
	double n = n1 + n2, v;

	if (n <= 0) {
		*m = *s = 0;
		return;
	}
	*m = (n1 * m1 + n2 * m2) / n;
	v = (n1 * (s1 * s1 + m1 * m1) + n2 * (s2 * s2 + m2 * m2)) / n -
	    *m * *m;
	*s = v > 0 ? sqrt(v) : 0;
}

/* Rate samples: the members' (a member's rate, not the aggregate's):
 * counts added, the least and largest, mean and spread pooled. */
static void smp_fold(struct smp_stat *dst, const struct smp_stat *src)
{
	double m, s;

	if (!src->n)
		return;
	pool((double)dst->n, dst->mean, smp_stddev(dst), (double)src->n,
	     src->mean, smp_stddev(src), &m, &s);
	if (!dst->n || src->min < dst->min)
		dst->min = src->min;
	if (!dst->n || src->max > dst->max)
		dst->max = src->max;
	dst->n = sat_add(dst->n, src->n);
	dst->mean = m;
	dst->m2 = dst->n > 1 ? s * s * (double)(dst->n - 1) : 0;
}

/*
 * A member's first error names its engine with a string of the member's
 * document, freed once it is folded in: what the cluster keeps names the
 * engine table's own (stats.h: a static name), or none when this build
 * has no such engine.
 */
static const char *engine_name_kept(const char *name)
{
	const struct engine_ops *e = name ? engine_find(name) : NULL;

	return e ? e->name : NULL;
}

/* s into d; an empty one (no samples, no sums: nothing to add) is
 * skipped, its 4,736 buckets all zero (the strict reader checks). */
static void hist_fold(struct hist *d, const struct hist *s)
{
	if (s->count || s->sum || s->sumsq)
		hist_merge(d, s);
}

static void dir_fold(struct dir_stats *d, const struct dir_stats *s)
{
	d->ios = sat_add(d->ios, s->ios);
	d->bytes = sat_add(d->bytes, s->bytes);
	d->errors = sat_add(d->errors, s->errors);
	d->short_ios = sat_add(d->short_ios, s->short_ios);
	d->dropped_ios = sat_add(d->dropped_ios, s->dropped_ios);
	d->submit_done = sat_add(d->submit_done, s->submit_done);
	if (!d->first_errno && s->first_errno) {
		d->first_errno = s->first_errno;
		d->first_err_offset = s->first_err_offset;
		d->first_err_engine = engine_name_kept(s->first_err_engine);
		memcpy(d->first_err_file, s->first_err_file,
		       sizeof(d->first_err_file));
	}
	hist_fold(&d->slat, &s->slat);
	hist_fold(&d->clat, &s->clat);
	hist_fold(&d->lat, &s->lat);
	hist_fold(&d->sched_lat, &s->sched_lat);
	d->rate_bps += s->rate_bps;
	d->rate_iops += s->rate_iops;
	d->backlog_ios = sat_add(d->backlog_ios, s->backlog_ios);
	if (s->lag_ns > d->lag_ns)
		d->lag_ns = s->lag_ns;
	smp_fold(&d->bw_smp, &s->bw_smp);
	smp_fold(&d->iops_smp, &s->iops_smp);
}

static void cpu_fold(struct cpu_usage *d, const struct cpu_usage *s)
{
	d->utime_ns = sat_add(d->utime_ns, s->utime_ns);
	d->stime_ns = sat_add(d->stime_ns, s->stime_ns);
	d->vcsw = sat_add(d->vcsw, s->vcsw);
	d->ivcsw = sat_add(d->ivcsw, s->ivcsw);
	d->minflt = sat_add(d->minflt, s->minflt);
	d->majflt = sat_add(d->majflt, s->majflt);
}

static bool measured(const struct job_stats *s)
{
	return s->nmeasured || !s->nclones;
}

/*
 * A unit or a group of another member into the merged one: counts and
 * CPU added, the longest runtime, the first error, interrupted and
 * abandoned when any was, measured when all were; ran (units: unit true)
 * when all did, else (groups) the jobs that ran added.
 */
static void stats_fold(struct job_stats *d, const struct job_stats *s,
		       bool unit)
{
	bool meas = measured(d) && measured(s);
	unsigned i;
	int k;

	for (k = 0; k < DDIR_NR; k++)
		dir_fold(&d->dir[k], &s->dir[k]);
	cpu_fold(&d->cpu, &s->cpu);
	if (s->runtime_ns > d->runtime_ns)
		d->runtime_ns = s->runtime_ns;
	if (s->end_sync_ns > d->end_sync_ns)
		d->end_sync_ns = s->end_sync_ns;
	d->think_ns = sat_add(d->think_ns, s->think_ns);
	d->latency_depth += s->latency_depth;
	hist_fold(&d->sync, &s->sync);
	for (i = 0; i < DEPTH_NB; i++) {
		d->depth.level[i] = sat_add(d->depth.level[i],
					    s->depth.level[i]);
		d->depth.submit[i] = sat_add(d->depth.submit[i],
					     s->depth.submit[i]);
		d->depth.complete[i] = sat_add(d->depth.complete[i],
					       s->depth.complete[i]);
	}
	d->depth.inline_ios = sat_add(d->depth.inline_ios, s->depth.inline_ios);
	if (!d->err && s->err) {
		d->err = s->err;
		memcpy(d->err_msg, s->err_msg, sizeof(d->err_msg));
	}
	d->interrupted = d->interrupted || s->interrupted;
	d->abandoned = d->abandoned || s->abandoned;
	verify_stats_merge(&d->verify, &s->verify);
	d->vread.ios = sat_add(d->vread.ios, s->vread.ios);
	d->vread.bytes = sat_add(d->vread.bytes, s->vread.bytes);
	d->vread.errors = sat_add(d->vread.errors, s->vread.errors);
	hist_fold(&d->vread.lat, &s->vread.lat);
	if (s->vphase_ns > d->vphase_ns)
		d->vphase_ns = s->vphase_ns;
	if (unit)
		d->nclones = d->nclones && s->nclones ?
			     d->nclones + s->nclones : 0;
	else
		d->nclones += s->nclones;
	d->nmeasured = meas ? d->nclones : 0;
}

static void phase_fold(struct result_unit *d, const struct result_unit *s)
{
	struct phase_cpu *p = &d->phase;
	const struct phase_cpu *q = &s->phase;

	if (!s->nphases)
		return;
	if (!d->nphases) {
		d->phase = s->phase;
		d->nphases = s->nphases;
		return;
	}
	cpu_fold(&p->proc, &q->proc);
	p->sys.user = sat_add(p->sys.user, q->sys.user);
	p->sys.system = sat_add(p->sys.system, q->sys.system);
	p->sys.irq = sat_add(p->sys.irq, q->sys.irq);
	p->sys.softirq = sat_add(p->sys.softirq, q->sys.softirq);
	p->sys.idle = sat_add(p->sys.idle, q->sys.idle);
	p->sys.steal = sat_add(p->sys.steal, q->sys.steal);
	if (q->wall_ns > p->wall_ns)
		p->wall_ns = q->wall_ns;
	p->ios = sat_add(p->ios, q->ios);
}

/* The member's rates of stats s with its summary row into r. */
static void rates_add(struct rates *r, const struct result_unit *u,
		      const struct job_stats *s)
{
	double iops, bw;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *x = &s->dir[d];

		if (measured(s)) {
			r->iops[d] += result_as_printed(stats_iops(x,
							s->runtime_ns));
			r->bw[d] += result_as_printed(stats_bw(x,
							s->runtime_ns));
		}
		if (x->rate_bps > 0)
			r->met[d] = r->met[d] &&
				    stats_rate_met(x, s->runtime_ns);
	}
	if (u && (!s->nclones || s->nmeasured)) {
		result_row_rates(u, &iops, &bw);
		r->row_iops += result_as_printed(iops);
		r->row_bw += result_as_printed(bw);
	}
}

static void rates_set(struct job_stats *s, const struct rates *r)
{
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		s->dir[d].agg = true;
		s->dir[d].agg_iops = r->iops[d];
		s->dir[d].agg_bw = r->bw[d];
		s->dir[d].agg_met = r->met[d];
	}
	s->agg = true;
	s->agg_iops = r->row_iops;
	s->agg_bw = r->row_bw;
}

/* b's targets after a's; a's engine setup, when a has none, b's texts
 * kept by d (b's member is freed after the fold). */
static int targets_fold(struct result_doc *d, struct run_targets *a,
			const struct run_targets *b)
{
	struct run_target *t;
	unsigned i;

	if (!b->n)
		return 0;
	t = realloc(a->t, (a->n + b->n) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	a->t = t;
	for (i = 0; i < b->n; i++) {
		t[a->n] = b->t[i];
		if (b->t[i].path && !(t[a->n].path = strdup(b->t[i].path)))
			return -ENOMEM;
		a->n++;
	}
	if (!a->engine.known && b->engine.known) {
		a->engine.n = 0;
		for (i = 0; i < b->engine.n; i++) {
			a->engine.what[i] = result_doc_keep(d, b->engine.what[i]);
			if (!a->engine.what[i])
				return -ENOMEM;
		}
		a->engine.n = b->engine.n;
		a->engine.known = true;
	}
	return 0;
}

/* The run's figures around the units: the whole of it. */
static void header_fold(struct run_result *d, const struct run_result *s)
{
	size_t i;

	if (!d->signo)
		d->signo = s->signo;
	if (s->wall_ns > d->wall_ns)
		d->wall_ns = s->wall_ns;
	cpu_fold(&d->proc_cpu, &s->proc_cpu);
	for (i = 0; i < s->warnings.n; i++)
		warn_add(&d->warnings, s->warnings.v[i].code,
			 s->warnings.v[i].job, "%s", s->warnings.v[i].msg);
}

/* ---- the cluster part ---- */

/*
 * Unit u as a member's unit keeps it: the merged result's job, no
 * intervals, steady state, priorities or zones, the engine's static name
 * of its first errors. Set in place (no copy of its megabyte) and put
 * back by unit_unkeep: u may be the merged result's own.
 */
struct kept {
	const struct job *job;
	struct ival_series *intervals;
	struct steady_rec *steady;
	struct prio_stats *prio;
	struct zbd_stats *zbd;
	const char *engine[DDIR_NR];
};

static void unit_keep(struct result_unit *u, const struct job *job,
		      struct kept *k)
{
	int d;

	k->job = u->job;
	k->intervals = u->stats.intervals;
	k->steady = u->stats.steady;
	k->prio = u->stats.prio;
	k->zbd = u->stats.zbd;
	u->job = job;
	u->stats.intervals = NULL;
	u->stats.steady = NULL;
	u->stats.prio = NULL;
	u->stats.zbd = NULL;
	for (d = 0; d < DDIR_NR; d++) {
		struct dir_stats *x = &u->stats.dir[d];

		k->engine[d] = x->first_err_engine;
		x->first_err_engine = engine_name_kept(x->first_err_engine);
	}
}

static void unit_unkeep(struct result_unit *u, const struct kept *k)
{
	int d;

	u->job = k->job;
	u->stats.intervals = k->intervals;
	u->stats.steady = k->steady;
	u->stats.prio = k->prio;
	u->stats.zbd = k->zbd;
	for (d = 0; d < DDIR_NR; d++)
		u->stats.dir[d].first_err_engine = k->engine[d];
}

/* Member m's own figures of each job, and its rows. */
static int member_keep(struct cluster *c, struct result_doc *m, unsigned i)
{
	struct cluster_info *ci = c->info;
	struct cluster_member_info *mi = &ci->members[i];
	struct cluster_unit *cu = c->scratch;
	struct kept kept;
	int k, d, ret;

	mi->jobs = calloc(ci->njobs + 1, sizeof(*mi->jobs));
	if (!mi->jobs)
		return -ENOMEM;
	for (k = 0; k < (int)ci->njobs; k++) {
		struct result_unit *u = &m->set.units[k];

		for (d = 0; d < DDIR_NR; d++) {
			struct cluster_row *r = &ci->jobs[k].dir[d].rows[i];
			const struct dir_stats *x = &u->stats.dir[d];

			r->iops = measured(&u->stats) ? result_as_printed(
				stats_iops(x, u->stats.runtime_ns)) : 0;
			r->bw = measured(&u->stats) ? result_as_printed(
				stats_bw(x, u->stats.runtime_ns)) : 0;
			r->ios = x->ios;
			r->io_bytes = x->bytes;
			r->runtime_ns = u->stats.runtime_ns;
			r->clat_p99_ns = x->clat.count ?
					 hist_percentile(&x->clat, 99) : 0;
		}
		if (c->lean)	/* its packed figures left empty: zeros */
			continue;
		/* its row, for the packed figures only (a lean cluster's
		 * are never read: no row made) */
		memset(&cu->row, 0, sizeof(cu->row));
		cu->has_row = !u->stats.nclones || u->stats.nmeasured;
		if (cu->has_row)
			result_row(&m->r, u, &cu->row);
		unit_keep(u, c->doc.set.units[k].job, &kept);
		ret = cluster_unit_pack_from(&mi->jobs[k], u, cu);
		unit_unkeep(u, &kept);
		if (ret)
			return -ENOMEM;
	}
	return 0;
}

/* Room for one more member. */
static int info_grow(struct cluster_info *ci)
{
	struct cluster_member_info *mv;

	mv = realloc(ci->members, (ci->nmembers + 1) * sizeof(*mv));
	if (!mv)
		return -ENOMEM;
	ci->members = mv;
	memset(&mv[ci->nmembers], 0, sizeof(*mv));
	return 0;
}

/* Room for member i's row in each job's directions. */
static int rows_grow(struct cluster_info *ci, unsigned i)
{
	struct cluster_row *rv;
	unsigned k;
	int d;

	for (k = 0; k < ci->njobs; k++)
		for (d = 0; d < DDIR_NR; d++) {
			struct cluster_dir *x = &ci->jobs[k].dir[d];

			rv = realloc(x->rows, (i + 1) * sizeof(*rv));
			if (!rv)
				return -ENOMEM;
			x->rows = rv;
			memset(&rv[i], 0, sizeof(*rv));
		}
	return 0;
}

static int host_index(struct cluster_info *ci, const char *host)
{
	char **v;
	unsigned i;

	for (i = 0; i < ci->nhosts; i++)
		if (!strcmp(ci->hosts[i], host))
			return (int)i;
	v = realloc(ci->hosts, (ci->nhosts + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ci->hosts = v;
	if (!(v[ci->nhosts] = strdup(host)))
		return -ENOMEM;
	return (int)ci->nhosts++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void spread(struct cluster_spread *s, const double *v, unsigned n,
		   double *tmp, unsigned slowest)
{
	memcpy(tmp, v, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	s->min = tmp[0];
	s->median = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
	s->max = tmp[n - 1];
	s->slowest = slowest;
}

/* One job's direction over the members: first and last done, the
 * common window, the spread, the hosts' rows. */
static int dir_finish(struct cluster_info *ci, struct cluster_dir *x)
{
	unsigned n = ci->nmembers, i, slow = 0, first = 0, last = 0;
	double t_first = INFINITY, t_last = 0, win_lo = 0, ios_f = 0,
	       bytes_f = 0, ios_t = 0, bytes_t = 0, end, part;
	double *iops = calloc(n, sizeof(double)), *bw = calloc(n,
							       sizeof(double));
	double *tmp = calloc(n, sizeof(double));
	int h;

	x->hosts = calloc(ci->nhosts + 1, sizeof(*x->hosts));
	if (!iops || !bw || !tmp || !x->hosts) {
		free(iops);
		free(bw);
		free(tmp);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct cluster_row *r = &x->rows[i];
		double skew = ci->members[i].start_skew_ns;

		iops[i] = r->iops;
		bw[i] = r->bw;
		ios_t += (double)r->ios;
		bytes_t += (double)r->io_bytes;
		if (iops[i] < iops[slow])
			slow = i;
		end = skew + (double)r->runtime_ns;
		if (end < t_first) {
			t_first = end;
			first = i;
		}
		if (end > t_last) {
			t_last = end;
			last = i;
		}
		if (skew > win_lo)
			win_lo = skew;
	}
	/* What each member had done when the first finished, its rate
	 * taken as steady over its own run. */
	for (i = 0; i < n; i++) {
		const struct cluster_row *r = &x->rows[i];
		double rt = (double)r->runtime_ns;

		part = rt > 0 ? (t_first - ci->members[i].start_skew_ns) / rt :
		       1;
		part = part < 0 ? 0 : part > 1 ? 1 : part;
		ios_f += part * (double)r->ios;
		bytes_f += part * (double)r->io_bytes;
	}
	for (i = 0; i < ci->nhosts; i++)
		x->hosts[i].host = i;
	for (i = 0; i < n; i++) {
		h = host_index(ci, ci->members[i].host);
		x->hosts[h].members++;
		x->hosts[h].iops += iops[i];
		x->hosts[h].bw += bw[i];
		x->hosts[h].ios = sat_add(x->hosts[h].ios, x->rows[i].ios);
		x->hosts[h].io_bytes = sat_add(x->hosts[h].io_bytes,
					       x->rows[i].io_bytes);
	}
	x->common_window_ns = t_first > win_lo ?
			      (uint64_t)llround(t_first - win_lo) : 0;
	x->first = (struct cluster_done){
		.at_ns = (uint64_t)llround(t_first), .ios = ios_f,
		.io_bytes = bytes_f, .member = first,
		.iops = t_first > 0 ? ios_f * 1e9 / t_first : 0,
		.bw = t_first > 0 ? bytes_f * 1e9 / t_first : 0 };
	x->last = (struct cluster_done){
		.at_ns = (uint64_t)llround(t_last), .ios = ios_t,
		.io_bytes = bytes_t, .member = last,
		.iops = t_last > 0 ? ios_t * 1e9 / t_last : 0,
		.bw = t_last > 0 ? bytes_t * 1e9 / t_last : 0 };
	spread(&x->iops, iops, n, tmp, slow);
	spread(&x->bw, bw, n, tmp, slow);
	free(iops);
	free(bw);
	free(tmp);
	return 0;
}

/* ---- the merge ---- */

struct cluster *cluster_new(void)
{
	struct cluster *c = calloc(1, sizeof(*c));

	if (c && (!(c->info = calloc(1, sizeof(*c->info))) ||
		  !(c->scratch = calloc(1, sizeof(*c->scratch))))) {
		free(c->info);
		free(c);
		return NULL;
	}
	return c;
}

void cluster_free(struct cluster *c)
{
	int i;

	if (!c)
		return;
	if (!c->doc.cluster)
		cluster_info_free(c->info);
	result_doc_free(&c->doc);
	free(c->urates);
	free(c->grates);
	free(c->scratch);
	for (i = 0; c->ref && i < c->nref; i++)
		ref_free(&c->ref[i]);
	free(c->ref);
	free(c);
}

/* Member 0 becomes the merged result: what a merge does not keep (its
 * checks, repeats and baseline, curves, disks, steady state, intervals)
 * goes. */
static int first_member(struct cluster *c, struct result_doc *m)
{
	struct result_set *s;
	int i, d;

	c->doc = *m;
	memset(m, 0, sizeof(*m));
	s = &c->doc.set;
	c->doc.r.set = s;	/* the doc's own set, where it now is */
	c->doc.r.checks = NULL;
	c->doc.r.curves = NULL;
	sysinfo_disks_free(&c->doc.r.disks);
	nvmedev_set_free(&c->doc.r.nvme);
	for (i = 0; i < s->nunits; i++) {
		steady_free(s->units[i].stats.steady);
		s->units[i].stats.steady = NULL;
		free(s->units[i].stats.zbd);
		s->units[i].stats.zbd = NULL;
		ival_series_put(s->units[i].stats.intervals);
		s->units[i].stats.intervals = NULL;
	}
	for (i = 0; i < s->ngroups; i++) {
		ival_series_put(s->groups[i].intervals);
		s->groups[i].intervals = NULL;
	}
	c->info->njobs = (unsigned)s->nunits;
	c->info->jobs = calloc((size_t)s->nunits + 1, sizeof(*c->info->jobs));
	c->urates = calloc((size_t)s->nunits + 1, sizeof(*c->urates));
	c->grates = calloc((size_t)s->ngroups + 1, sizeof(*c->grates));
	if (!c->info->jobs || !c->urates || !c->grates)
		return -ENOMEM;
	for (i = 0; i < s->nunits; i++)
		for (d = 0; d < DDIR_NR; d++)
			c->urates[i].met[d] = true;
	for (i = 0; i < s->ngroups; i++)
		for (d = 0; d < DDIR_NR; d++)
			c->grates[i].met[d] = true;
	return 0;
}

static int fold(struct cluster *c, const struct result_doc *m)
{
	struct result_set *s = &c->doc.set;
	int i, ret = 0;

	for (i = 0; i < s->nunits && !ret; i++) {
		stats_fold(&s->units[i].stats, &m->set.units[i].stats, true);
		phase_fold(&s->units[i], &m->set.units[i]);
		s->units[i].njobs += m->set.units[i].njobs;
		ret = targets_fold(&c->doc, &c->doc.r.targets[i],
				   &m->r.targets[i]);
	}
	for (i = 0; i < s->ngroups; i++) {
		stats_fold(&s->groups[i], &m->set.groups[i], false);
		s->group_njobs[i] += m->set.group_njobs[i];
	}
	header_fold(&c->doc.r, &m->r);
	return ret;
}

int cluster_add(struct cluster *c, struct result_doc *m, const char *label,
		const char *host, int rank, double start_skew_ns,
		struct err_rec *e)
{
	struct cluster_info *ci = c->info;
	struct cluster_member_info *mi;
	unsigned i = ci->nmembers;
	int k, ret;

	if (c->finished)
		return -EINVAL;
	if (info_grow(ci))
		goto oom;
	mi = &ci->members[i];
	mi->label = label_of(label, rank, i);
	mi->host = strdup(host && *host ? host : *m->r.hostname ?
			  m->r.hostname : "?");
	if (!mi->label || !mi->host)
		goto oom;
	ci->nmembers++;
	mi->rank = rank;
	mi->start_skew_ns = start_skew_ns;
	mi->wall_ns = m->r.wall_ns;
	mi->interrupted = m->r.signo != 0;
	if (start_skew_ns > ci->start_skew_max_ns)
		ci->start_skew_max_ns = start_skew_ns;
	if (host_index(ci, mi->host) < 0)
		goto oom;
	ret = i ? same_jobs(c, m, mi->label, e) : 0;
	if (ret == -ENOMEM)
		goto oom;
	if (ret) {
		result_doc_free(m);
		return -EINVAL;
	}
	if (!i && first_member(c, m))
		goto oom;
	if (rows_grow(ci, i))
		goto oom;
	/* m is member 0's doc (now the merged one) or another member's */
	ret = member_keep(c, i ? m : &c->doc, i);
	for (k = 0; !ret && k < c->doc.set.nunits; k++)
		rates_add(&c->urates[k],
			  i ? &m->set.units[k] : &c->doc.set.units[k],
			  i ? &m->set.units[k].stats :
			  &c->doc.set.units[k].stats);
	for (k = 0; !ret && k < c->doc.set.ngroups; k++)
		rates_add(&c->grates[k], NULL, i ?
			  &m->set.groups[k] : &c->doc.set.groups[k]);
	if (!ret && i)
		ret = fold(c, m);
	if (i)
		result_doc_free(m);
	if (ret)
		goto oom;
	c->any = true;
	return 0;
oom:
	if (m->store)
		result_doc_free(m);
	err_set(e, label ? label : "", 0, "", "out of memory");
	return -ENOMEM;
}

bool cluster_reads_members(const char *formats, char *const *checks,
			   size_t nchecks)
{
	static const char *const lean[] = {
		"text", "table", "html", "junit", "openmetrics", "prometheus",
	};
	const char *p, *q;
	size_t i, k, len;

	for (i = 0; i < nchecks; i++)
		if (!strncmp(checks[i], "rank:", 5))
			return true;
	for (p = formats && *formats ? formats : "text"; *p;
	     p = *q ? q + 1 : q) {
		q = strchr(p, ',');
		if (!q)
			q = p + strlen(p);
		len = (size_t)(q - p);
		for (k = 0; k < sizeof(lean) / sizeof(lean[0]); k++)
			if (strlen(lean[k]) == len && !strncmp(lean[k], p, len))
				break;
		if (k == sizeof(lean) / sizeof(lean[0]))
			return true;
	}
	return false;
}

void cluster_keep_members(struct cluster *c, bool keep)
{
	c->lean = !keep;
}

/* The histograms of one job_stats that the fold adds, in their order. */
static size_t stats_hists(struct job_stats *s, struct hist **v)
{
	size_t n = 0;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (v) {
			v[n] = &s->dir[d].slat;
			v[n + 1] = &s->dir[d].clat;
			v[n + 2] = &s->dir[d].lat;
			v[n + 3] = &s->dir[d].sched_lat;
		}
		n += 4;
	}
	if (v) {
		v[n] = &s->sync;
		v[n + 1] = &s->vread.lat;
	}
	return n + 2;
}

size_t cluster_hists(struct result_doc *d, struct hist **v)
{
	size_t n = 0;
	int k;

	for (k = 0; k < d->set.nunits; k++)
		n += stats_hists(&d->set.units[k].stats, v ? v + n : NULL);
	for (k = 0; k < d->set.ngroups; k++)
		n += stats_hists(&d->set.groups[k], v ? v + n : NULL);
	return n;
}

bool cluster_hist_empty(const struct hist *h)
{
	return !h->count && !h->sum && !h->sumsq;
}

int cluster_add_hists(struct cluster *c, const struct hist *h, size_t n)
{
	size_t i, m = cluster_hists(&c->doc, NULL);
	struct hist **v;

	if (c->finished || !c->any || n != m)
		return -EINVAL;
	v = calloc(m + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	cluster_hists(&c->doc, v);
	for (i = 0; i < m; i++)
		hist_fold(v[i], &h[i]);
	free(v);
	return 0;
}

int cluster_set_p99(struct cluster *c, unsigned member, const uint64_t *p99,
		    size_t n)
{
	struct cluster_info *ci = c->info;
	unsigned k;
	int d;

	if (c->finished || member >= ci->nmembers ||
	    n != (size_t)ci->njobs * DDIR_NR)
		return -EINVAL;
	for (k = 0; k < ci->njobs; k++)
		for (d = 0; d < DDIR_NR; d++)
			ci->jobs[k].dir[d].rows[member].clat_p99_ns =
				p99[k * DDIR_NR + d];
	return 0;
}

void cluster_p99_of(const struct result_doc *d, uint64_t *p99)
{
	int k, x;

	for (k = 0; k < d->set.nunits; k++)
		for (x = 0; x < DDIR_NR; x++) {
			const struct dir_stats *s = &d->set.units[k].stats.dir[x];

			p99[k * DDIR_NR + x] = s->clat.count ?
					       hist_percentile(&s->clat, 99) : 0;
		}
}

int cluster_finish(struct cluster *c, struct err_rec *e)
{
	struct cluster_info *ci = c->info;
	struct result_set *s = &c->doc.set;
	unsigned k;
	int i, d;

	if (!c->any) {
		err_set(e, "", 0, "", "nothing to merge");
		return -EINVAL;
	}
	if (c->finished)
		return 0;
	for (k = 0; k < ci->njobs; k++)
		for (d = 0; d < DDIR_NR; d++)
			if (dir_finish(ci, &ci->jobs[k].dir[d])) {
				err_set(e, "", 0, "", "out of memory");
				return -ENOMEM;
			}
	for (i = 0; i < s->nunits; i++)
		rates_set(&s->units[i].stats, &c->urates[i]);
	for (i = 0; i < s->ngroups; i++)
		rates_set(&s->groups[i], &c->grates[i]);
	/* member 0 may be a merged result: its own cluster part goes */
	if (c->doc.cluster != ci)
		cluster_info_free(c->doc.cluster);
	c->doc.cluster = ci;
	c->doc.r.cluster = ci;
	c->finished = true;
	return 0;
}

const struct run_result *cluster_result(const struct cluster *c)
{
	return c->finished ? &c->doc.r : NULL;
}

/* ---- the reports ---- */

int cluster_formats_parse(const char *formats, const struct report_format **out,
			  size_t max, size_t *n, struct err_rec *e)
{
	const char *p = formats && *formats ? formats : "text";
	const struct report_format *f;
	char name[32], names[160];
	size_t len;

	*n = 0;
	for (; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		f = NULL;
		if (len < sizeof(name)) {
			memcpy(name, p, len);
			name[len] = '\0';
			f = report_format_find(name);
		}
		if (!f || *n == max) {
			report_format_names(names, sizeof(names), ", ", " or ");
			err_set(e, ERR_CMDLINE, 0, "output-format", "'%.*s' is "
				"not a report format (expected %s)", (int)len,
				p, names);
			return -EINVAL;
		}
		out[(*n)++] = f;
	}
	return 0;
}

static int cluster_check_model(const struct run_result *r,
			       char *const *checks, size_t nchecks,
			       struct check_report *cr,
			       struct check_def **defs, struct err_rec *e);

int cluster_write(const struct run_result *r, const char *formats,
		  char *const *checks, size_t nchecks, FILE *out,
		  struct err_rec *e)
{
	const struct report_format *f[REPORT_FORMATS_MAX * 2];
	const struct report_format *text = report_format_find("text");
	struct check_report cr = { 0 };
	struct check_def *defs = NULL;
	struct run_result rr = *r;
	bool block = false;
	size_t n, i;
	int rc = 0;

	if (cluster_formats_parse(formats, f, sizeof(f) / sizeof(f[0]), &n,
				  e))
		return -EINVAL;
	/* The checks' results in the model, for the formats that show
	 * checks (json, table, html, junit, openmetrics...); the text
	 * layout lists them after the report, as it always did. */
	if (nchecks) {
		rc = cluster_check_model(r, checks, nchecks, &cr, &defs, e);
		if (rc)
			return rc;
		rr.checks = &cr;
	}
	/* in the order given, a blank line between two */
	for (i = 0; i < n && !rc; i++) {
		if (i)
			fputc('\n', out);
		rc = report_write(f[i], out, &rr);
		block |= f[i] == text;
	}
	if (!rc && (fflush(out) || ferror(out)))
		rc = -EIO;
	if (rc)
		err_set(e, "", 0, "", "writing the cluster report failed");
	else if (nchecks && block)
		rc = cluster_checks(r, checks, nchecks, out, e);
	else if (nchecks)
		rc = cr.nfail ? 3 : 0;
	for (i = 0; defs && i < nchecks * (r->cluster->nmembers + 1); i++)
		free(defs[i].text);
	free(defs);
	free(cr.results);
	return rc;
}

/* ---- checks ---- */

static const char *fmt(int unit, double v, char *buf, size_t len)
{
	metric_format(unit, v, buf, len);
	return buf;
}

struct tally {
	unsigned pass, fail, na;
};

/* A member's figures as checks read them: its packed units, one at a
 * time made whole in buf (cluster_member_unit). */
struct mine {
	const struct cluster_info *ci;
	unsigned member;
	struct cluster_unit *buf;
};

static const struct cluster_unit *mine_unit(const struct mine *mine, int k)
{
	cluster_member_unit(mine->ci, mine->member, (unsigned)k, mine->buf);
	return mine->buf;
}

/* x on every unit of r (named by x->scope, or all): the merged ones
 * (mine NULL) or a member's; who names the member ("cluster" for the
 * merged figures). */
static void check_units(const struct check_expr *x, const char *text,
			const struct run_result *r, const struct mine *mine,
			const char *who, FILE *out, struct tally *t)
{
	static const char *const dir_key[DDIR_NR] = DDIR_NAMES;
	const struct result_set *rs = r->set;
	char v[48], th[48];
	int k;

	for (k = 0; k < rs->nunits; k++) {
		const struct cluster_unit *cu = mine ? mine_unit(mine, k) :
						NULL;
		const struct result_unit *u = cu ? &cu->u : &rs->units[k];
		const char *name = rs->units[k].job->desc.name;
		struct result_row row = { 0 };
		double val;
		bool ok;

		if (x->scope[0] && strcmp(x->scope, name))
			continue;
		if (x->m.dir >= 0 && !u->stats.dir[x->m.dir].ios) {
			fprintf(out, "  n/a   %s %s: %s  no %s I/O\n", who,
				name, text, dir_key[x->m.dir]);
			t->na++;
			continue;
		}
		if (cu && cu->has_row)
			row = cu->row;
		else if (!cu && (!u->stats.nclones || u->stats.nmeasured))
			result_row(r, u, &row);
		val = result_metric(&x->m, &u->stats, &row);
		ok = check_compare(val, x->op, x->threshold);
		fprintf(out, "  %s  %s %s: %s  %s, threshold %s\n",
			ok ? "PASS" : "FAIL", who, name, text,
			fmt(x->unit, val, v, sizeof(v)),
			fmt(x->unit, x->threshold, th, sizeof(th)));
		if (ok)
			t->pass++;
		else
			t->fail++;
	}
}

/* One --check for a cluster: "rank:" then an expression, or an
 * expression; 0 or -EINVAL with e. */
static int cluster_check_parse(const char *s, unsigned kb,
			       struct check_expr *x, struct err_rec *e)
{
	char why[256];

	if (check_parse(!strncmp(s, "rank:", 5) ? s + 5 : s, kb ? kb : 1024,
			x, why, sizeof(why))) {
		err_set(e, ERR_CMDLINE, 0, "check", "%s", why);
		return -EINVAL;
	}
	if (x->func != CHECK_F_NONE || x->baseline) {
		err_set(e, ERR_CMDLINE, 0, "check", "'%s': cluster checks "
			"compare a figure with a threshold (no functions over "
			"repeats, no baseline)", s);
		return -EINVAL;
	}
	return 0;
}

int cluster_checks_parse(char *const *checks, size_t nchecks,
			 struct err_rec *e)
{
	struct check_expr x;
	size_t i;

	for (i = 0; i < nchecks; i++)
		if (cluster_check_parse(checks[i], 1024, &x, e))
			return -EINVAL;
	return 0;
}

/*
 * Check x on unit k of r (mine: a member's units, else the merged ones):
 * false when n/a (no I/O in the metric's direction), else true with *val.
 */
static bool check_value(const struct check_expr *x,
			const struct run_result *r, const struct mine *mine,
			int k, double *val)
{
	const struct cluster_unit *cu = mine ? mine_unit(mine, k) : NULL;
	const struct result_unit *u = cu ? &cu->u : &r->set->units[k];
	struct result_row row = { 0 };

	if (x->m.dir >= 0 && !u->stats.dir[x->m.dir].ios)
		return false;
	if (cu && cu->has_row)
		row = cu->row;
	else if (!cu && (!u->stats.nclones || u->stats.nmeasured))
		result_row(r, u, &row);
	*val = result_metric(&x->m, &u->stats, &row);
	return true;
}

/*
 * The checks as the check report of the merged result (check.h), which
 * the writers show: a cluster check on each merged unit, a rank: check
 * on each member's figures of each unit, its source that member
 * ("a.json:0", "rank 3 (hostB):0"). *defs: nchecks * (nmembers + 1)
 * definitions, their texts allocated. 0, or -EINVAL / -ENOMEM with e.
 */
static int check_model(const struct run_result *r, char *const *checks,
		       size_t nchecks, struct check_report *cr,
		       struct check_def **defs, struct mine *mine,
		       struct err_rec *e)
{
	static const char *const no_io[DDIR_NR] = {
		"no read I/O", "no write I/O", "no trim I/O"
	};
	const struct cluster_info *ci = r->cluster;
	const struct result_set *rs = r->set;
	unsigned kb = rs && rs->nunits ?
		(unsigned)rs->units[0].job->report.kb_base :
		      1024;
	size_t per = ci ? ci->nmembers + 1 : 1, i, m, nd;
	struct check_expr x;
	int k;

	memset(cr, 0, sizeof(*cr));
	*defs = NULL;
	if (!rs || !ci)
		return 0;
	nd = nchecks * per;
	*defs = calloc(nd, sizeof(**defs));
	cr->results = calloc(nd * (size_t)(rs->nunits + 1),
			     sizeof(*cr->results));
	if (!*defs || !cr->results)
		goto nomem;
	for (i = 0; i < nchecks; i++) {
		bool rank = !strncmp(checks[i], "rank:", 5);

		if (cluster_check_parse(checks[i], kb, &x, e))
			return -EINVAL;
		for (m = 0; m < (rank ? ci->nmembers : 1); m++) {
			struct check_def *d = &(*defs)[i * per + m];

			d->text = strdup(checks[i]);
			if (!d->text)
				goto nomem;
			d->kb_base = kb;
			d->x = x;
			d->x.body += rank ? 5 : 0;
			d->origin = rank ? CHECK_SECTION : CHECK_CMDLINE;
			snprintf(d->file, sizeof(d->file), "%s", rank ?
				 ci->members[m].label : ERR_CMDLINE);
			for (k = 0; k < rs->nunits; k++) {
				struct check_result *c =
					&cr->results[cr->nresults];

				if (x.scope[0] && strcmp(x.scope,
						rs->units[k].job->desc.name))
					continue;
				c->def = d;
				c->unit = k;
				c->job = rs->units[k].job;
				c->has_threshold = true;
				c->threshold = x.threshold;
				mine->member = (unsigned)m;
				if (!check_value(&x, r, rank ? mine : NULL,
						 k, &c->value)) {
					c->status = CHECK_NA;
					c->reason = no_io[x.m.dir];
				} else {
					c->status = check_compare(c->value,
						x.op, x.threshold) ?
						CHECK_PASS : CHECK_FAIL;
				}
				cr->npass += c->status == CHECK_PASS;
				cr->nfail += c->status == CHECK_FAIL;
				cr->nna += c->status == CHECK_NA;
				cr->nresults++;
			}
		}
	}
	return 0;
nomem:
	err_set(e, ERR_CMDLINE, 0, "check", "out of memory");
	return -ENOMEM;
}

static int cluster_check_model(const struct run_result *r,
			       char *const *checks, size_t nchecks,
			       struct check_report *cr,
			       struct check_def **defs, struct err_rec *e)
{
	struct mine mine = { .ci = r->cluster };
	int rc;

	mine.buf = malloc(sizeof(*mine.buf));
	if (!mine.buf) {
		memset(cr, 0, sizeof(*cr));
		*defs = NULL;
		err_set(e, ERR_CMDLINE, 0, "check", "out of memory");
		return -ENOMEM;
	}
	rc = check_model(r, checks, nchecks, cr, defs, &mine, e);
	free(mine.buf);
	return rc;
}

int cluster_checks(const struct run_result *r, char *const *checks,
		   size_t nchecks, FILE *out, struct err_rec *e)
{
	const struct cluster_info *ci = r->cluster;
	const struct result_set *rs = r->set;
	unsigned kb = rs && rs->nunits ?
		(unsigned)rs->units[0].job->report.kb_base :
		      1024;
	struct mine mine = { .ci = ci };
	struct check_expr *x;
	struct tally t = { 0 };
	size_t i, k;

	if (!nchecks)
		return 0;
	x = calloc(nchecks, sizeof(*x));
	mine.buf = malloc(sizeof(*mine.buf));
	if (!x || !mine.buf || !rs || !ci) {
		free(x);
		free(mine.buf);
		err_set(e, ERR_CMDLINE, 0, "check", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nchecks; i++)
		if (cluster_check_parse(checks[i], kb, &x[i], e)) {
			free(x);
			free(mine.buf);
			return -EINVAL;
		}
	fprintf(out, "\ncluster checks:\n");
	for (i = 0; i < nchecks; i++) {
		const char *s = checks[i];

		if (strncmp(s, "rank:", 5)) {
			check_units(&x[i], s + x[i].body, r, NULL, "cluster",
				    out, &t);
			continue;
		}
		for (k = 0; k < ci->nmembers; k++) {
			mine.member = (unsigned)k;
			check_units(&x[i], s + 5 + x[i].body, r, &mine,
				    ci->members[k].label, out, &t);
		}
	}
	fprintf(out, "checks: %u passed, %u failed, %u n/a\n", t.pass, t.fail,
		t.na);
	free(x);
	free(mine.buf);
	return t.fail ? 3 : 0;
}

/* ---- iorig merge ---- */

static int merge_fail(const struct err_rec *e)
{
	char buf[ERR_TEXT_MAX];

	err_format(e, buf, sizeof(buf));
	fprintf(stderr, "iorig merge: %s\n", buf);
	return 2;
}

/*
 * IORIG_MERGE_WIRE=1 (a check of the MPI ranks' wire form, as
 * IORIG_IO_TRACE is of the I/O log): each member after the first folded
 * from its wire form (result_wire_make, then result_wire_read) instead
 * of the model read from its file, so that its report must be the same
 * byte for byte. Its jobs are taken as member 0's, as rank 0 takes
 * them after the ranks checked theirs: the jobs are not compared.
 */
static int wire_trip(struct result_doc *d, const struct job **jobs,
		     size_t nj, struct result_wire *mem,
		     struct result_wire *keep, const char *name,
		     struct err_rec *e)
{
	unsigned char *b = NULL;
	size_t len = 0;
	int r = result_wire_make(d, &b, &len);

	result_doc_free(d);
	if (!r)
		r = result_wire_read(d, b, len, jobs, nj, mem, keep);
	free(b);
	if (r)
		err_set(e, name, 0, "", r == -ENOMEM ? "out of memory" :
			"its wire form does not read back");
	return r;
}

/* Each file read back (strict: what a merge needs), folded and freed in
 * turn: 0, or the exit code with the message said. */
static int merge_files(struct cluster *cl, char *const *files, size_t n,
		       struct result_wire *keep, struct err_rec *e)
{
	const char *env = getenv("IORIG_MERGE_WIRE");
	bool wire = env && !strcmp(env, "1");
	struct result_wire mem = { 0 };
	const struct job **jobs = NULL;
	struct result_doc d;
	size_t i, nj = 0;
	int r, k;

	for (i = 0; i < n; i++) {
		r = result_read_file(&d, files[i], RESULT_READ_STRICT, e);
		if (!r && wire && !i) {
			nj = (size_t)d.set.nunits;
			jobs = calloc(nj + 1, sizeof(*jobs));
			for (k = 0; jobs && k < d.set.nunits; k++)
				jobs[k] = d.set.units[k].job;
			if (!jobs) {
				result_doc_free(&d);
				err_set(e, files[i], 0, "", "out of memory");
				r = -ENOMEM;
			}
		} else if (!r && wire) {
			r = wire_trip(&d, jobs, nj, &mem, keep, files[i], e);
		}
		if (!r)
			r = cluster_add(cl, &d, files[i], NULL, -1, 0, e);
		result_wire_done(&mem);
		if (r == -ENOMEM) {
			merge_fail(e);
			r = 1;
			goto out;
		}
		if (r) {
			r = merge_fail(e);
			goto out;
		}
	}
	r = cluster_finish(cl, e);
	r = r ? (merge_fail(e), r == -ENOMEM ? 1 : 2) : 0;
out:
	result_wire_free(&mem);
	free(jobs);
	return r;
}

int merge_run(const struct merge_req *q)
{
	struct err_rec *e = calloc(1, sizeof(*e));
	char *const *files = q->files, *const *checks = q->checks;
	const struct report_format *f[REPORT_FORMATS_MAX * 2];
	const char *formats = q->formats, *output = q->output;
	struct door_out o = { .fd = -1 };
	struct cluster *cl = cluster_new();
	/* the engines' setup texts of members read from their wire form:
	 * the report may point at them */
	struct result_wire keep = { 0 };
	bool opened = false;
	size_t n = q->nfiles, nc = q->nchecks, nf;
	int rc = 2, r;

	if (!e || !cl) {
		fprintf(stderr, "iorig merge: out of memory\n");
		rc = 1;
		goto done;
	}
	/* Formats and checks are read before anything is read or written. */
	if (cluster_checks_parse(checks, nc, e) ||
	    cluster_formats_parse(formats, f, sizeof(f) / sizeof(f[0]), &nf,
				  e)) {
		rc = merge_fail(e);
		goto done;
	}
	/*
	 * Each member's document is read into blocks of a few hundred KB,
	 * freed before the next is read: glibc would map and unmap each
	 * (page faults, zeroed pages: a third of a merge's time); kept in
	 * the heap, the next member's reuse them.
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	cluster_keep_members(cl, cluster_reads_members(formats, checks, nc));
	rc = merge_files(cl, files, n, &keep, e);
	if (rc)
		goto done;
	/* Through the door (door.h): never a device or a new name in /dev,
	 * the previous report replaced only by a whole new one. */
	r = door_open(&o, output, "output", DOOR_WHOLE, NULL, e);
	if (r) {
		merge_fail(e);
		rc = r == -EINVAL ? 2 : 1;
		goto done;
	}
	opened = true;
	rc = cluster_write(cluster_result(cl), formats, checks, nc, o.f, e);
	if (rc == -EINVAL || rc == -ENOMEM) {
		rc = merge_fail(e);
		goto done;
	}
	if (rc < 0) {
		fprintf(stderr, "iorig merge: writing the report: %s\n",
			strerror(o.err ? o.err : -rc));
		rc = 1;
		goto done;
	}
done:
	if (opened && rc != 0 && rc != 3)
		door_discard(&o);
	else if (opened && (r = door_close(&o))) {
		fprintf(stderr, "iorig merge: writing the report%s%s: %s\n",
			output ? " to " : "", output ? output : "",
			strerror(-r));
		rc = 1;
	}
	cluster_free(cl);
	result_wire_free(&keep);
	free(e);
	return rc;
}
