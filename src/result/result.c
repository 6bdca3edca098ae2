// SPDX-License-Identifier: MIT
/*
 * Aggregation shared by the report writers.
 *
 * Contract of both functions below: only the stats of jobs that ran are
 * merged (a job that never started may hold nothing meaningful but err,
 * err_msg and interrupted: why it could not start), and the
 * merged stats' nclones is the number of jobs that ran and were merged in,
 * so a writer tells "not run" by nclones == 0. A run_result with no stats
 * array counts as nothing having run; with no ran array, as all having run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "plan.h"
#include "result.h"

static bool job_ran(const struct run_result *r, size_t i)
{
	if (!r->stats)
		return false;
	return r->ran ? r->ran[i] : true;
}

static size_t plan_njobs(const struct run_result *r)
{
	return r->plan ? r->plan->njobs : 0;
}

static void acc_init(struct job_stats *s)
{
	stats_init(s);
	s->nclones = 0;
	s->nmeasured = 0;
}

/*
 * Merge job i's figures into s when it ran; keeps s->nclones as the count
 * of those merged. Intervals are runs_fold's.
 */
static void acc_add(struct job_stats *s, const struct run_result *r,
		    size_t i)
{
	unsigned n;

	if (!job_ran(r, i)) {
		/* Its figures mean nothing, but why it did not run does. */
		if (r->stats && r->stats[i].err && !s->err) {
			s->err = r->stats[i].err;
			memcpy(s->err_msg, r->stats[i].err_msg,
			       sizeof(s->err_msg));
		}
		/* Stopped while its files were being laid out. */
		if (r->stats && r->stats[i].interrupted)
			s->interrupted = true;
		return;
	}
	n = s->nclones;		/* stats_merge adds src's in */
	stats_merge(s, &r->stats[i]);
	s->nclones = n + 1;
	s->nmeasured -= r->stats[i].nmeasured;
	s->nmeasured += r->stats[i].nmeasured != 0;
}

/*
 * unit_of[i] is the unit job i belongs to. A group_reporting job joins the
 * unit of the first group_reporting job of the same reporting group; any
 * other job (or one with a group id outside the plan) is a unit of its own.
 * Returns the number of units, or -ENOMEM.
 */
static int assign_units(const struct plan *p, size_t *unit_of)
{
	size_t *head = NULL;
	size_t i, n = 0;
	unsigned g;

	if (p->ngroups) {
		head = malloc(p->ngroups * sizeof(*head));
		if (!head)
			return -ENOMEM;
		for (g = 0; g < p->ngroups; g++)
			head[g] = SIZE_MAX;
	}
	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		size_t back = (size_t)j->plan.repeat_idx * j->eng.numjobs;

		/* A repetition joins the unit of the run it repeats. */
		if (back && back <= i) {
			unit_of[i] = unit_of[i - back];
			continue;
		}
		if (!j->report.group_reporting || j->plan.group >= p->ngroups) {
			unit_of[i] = n++;
			continue;
		}
		if (head[j->plan.group] == SIZE_MAX)
			head[j->plan.group] = n++;
		unit_of[i] = head[j->plan.group];
	}
	free(head);
	return (int)n;
}

int result_unit_of(const struct plan *p, size_t *unit_of)
{
	return assign_units(p, unit_of);
}

/*
 * The runs of a unit or group went one after the other (a job without
 * repeat= is one run): a repeated one's runtime is the sum of theirs,
 * each the union of its jobs' windows (stats_window_merge).
 * Its intervals are each run's (the run's jobs merged by index: they ran
 * side by side) one after the other, each run's shifted by the runtimes
 * of the runs before it; none when a job that ran has none or another
 * interval. The plan holds a unit's jobs in the order of its runs.
 */
struct run_acc {
	unsigned run;
	uint64_t cur, sum;		/* runtime of this run, of those before */
	uint64_t cur_start;		/* this run's window (stats.h) */
	unsigned cur_phase;
	struct ival_series *run_iv;	/* this run's jobs merged */
	struct ival_series *all_iv;	/* the runs before, one after another */
	bool no_iv;			/* no intervals for it */
	int err;
};

/* The current run of a is over: its runtime and intervals join the sum. */
static void run_acc_flush(struct run_acc *a)
{
	struct ival_series *m;

	if (a->run_iv && !a->all_iv && !a->sum) {
		a->all_iv = a->run_iv;		/* the first: no copy */
	} else if (a->run_iv) {
		m = ival_series_append(a->all_iv, a->run_iv, a->sum);
		ival_series_put(a->all_iv);
		ival_series_put(a->run_iv);
		a->all_iv = m;
		a->err = a->err ? a->err : m ? 0 : -ENOMEM;
	}
	a->run_iv = NULL;
	a->sum += a->cur;
	a->cur = 0;
	a->cur_start = 0;
	a->cur_phase = 0;
}

static void run_acc_add(struct run_acc *a, const struct job_stats *s)
{
	const struct ival_series *iv = s->intervals;
	const struct ival_series *any = a->run_iv ? a->run_iv : a->all_iv;
	struct ival_series *m;

	stats_window_merge(&a->cur_start, &a->cur, &a->cur_phase, s);
	if (!iv || (any && any->interval_ns != iv->interval_ns))
		a->no_iv = true;
	if (a->no_iv || a->err)
		return;
	m = a->run_iv ? ival_series_merge(a->run_iv, s->intervals) :
	    ival_series_get(s->intervals);
	ival_series_put(a->run_iv);
	a->run_iv = m;
	a->err = m ? 0 : -ENOMEM;
}

/*
 * Folds the runs of st[x] (x < n), each a unit or a group; map gives each
 * job's x (NULL: its reporting group). Sets every st[x]'s intervals, and
 * the runtime of those with repeated[x]. Returns 0 or -ENOMEM.
 */
static int runs_fold(const struct run_result *r, const size_t *map,
		     struct job_stats *const *st, const bool *repeated,
		     size_t n)
{
	struct run_acc *acc = calloc(n, sizeof(*acc));
	size_t i, x;
	int ret = 0;

	if (!acc)
		return -ENOMEM;
	for (i = 0; i < plan_njobs(r); i++) {
		const struct job *j = &r->plan->jobs[i];

		x = map ? map[i] : j->plan.group;
		if (x >= n || !job_ran(r, i) || !j->report.stats)
			continue;
		if (j->plan.repeat_idx != acc[x].run) {
			run_acc_flush(&acc[x]);
			acc[x].run = j->plan.repeat_idx;
		}
		run_acc_add(&acc[x], &r->stats[i]);
	}
	for (x = 0; x < n; x++) {
		run_acc_flush(&acc[x]);
		if (repeated[x])
			st[x]->runtime_ns = acc[x].sum;
		if (acc[x].no_iv) {
			ival_series_put(acc[x].all_iv);
			acc[x].all_iv = NULL;
		}
		st[x]->intervals = acc[x].all_iv;
		ret = ret ? ret : acc[x].err;
	}
	free(acc);
	return ret;
}

/* runs_fold over n units or groups, from their stats array. */
static int runs_fold_all(const struct run_result *r, const size_t *map,
			 struct job_stats *st0, size_t stride, size_t n)
{
	struct job_stats **st = malloc(n * sizeof(*st));
	bool *rep = calloc(n, sizeof(*rep));
	size_t i, x;
	int ret = -ENOMEM;

	if (st && rep) {
		for (x = 0; x < n; x++)
			st[x] = (struct job_stats *)((char *)st0 + x * stride);
		for (i = 0; i < plan_njobs(r); i++) {
			x = map ? map[i] : r->plan->jobs[i].plan.group;
			if (x < n && r->plan->jobs[i].runs.repeat > 1)
				rep[x] = true;
		}
		ret = runs_fold(r, map, st, rep, n);
	}
	free(st);
	free(rep);
	return ret;
}

/*
 * The phase (wait group) of u from r->phases: for a repeated unit, the
 * wait groups of all its runs (those after its first), added up.
 */
static void unit_phase(const struct run_result *r, struct result_unit *u)
{
	unsigned k, wg, nruns = u->nruns ? u->nruns : 1;
	const struct sys_cpu *s;
	struct phase_cpu *ph = &u->phase;

	memset(ph, 0, sizeof(*ph));
	for (k = 0; r->phases && u->job && k < nruns; k++) {
		wg = u->job->plan.wait_group + k;
		if (wg >= r->nphases)
			break;
		cpu_add(&ph->proc, &r->phases[wg].proc);
		s = &r->phases[wg].sys;
		ph->sys.user += s->user;
		ph->sys.system += s->system;
		ph->sys.irq += s->irq;
		ph->sys.softirq += s->softirq;
		ph->sys.idle += s->idle;
		ph->sys.steal += s->steal;
		ph->wall_ns += r->phases[wg].wall_ns;
		ph->ios += r->phases[wg].ios;
	}
	u->nphases = k;
}

/*
 * result_units, and the unit of each plan job in *map (NULL: not wanted;
 * else the caller frees it).
 */
static int units_build(const struct run_result *r, struct result_unit **units,
		       size_t **map)
{
	size_t njobs = plan_njobs(r);
	struct result_unit *u;
	size_t *unit_of;
	size_t i;
	int n;

	*units = NULL;
	if (map)
		*map = NULL;
	if (!njobs)
		return 0;
	unit_of = malloc(njobs * sizeof(*unit_of));
	if (!unit_of)
		return -ENOMEM;
	n = assign_units(r->plan, unit_of);
	if (n < 0)
		goto out;
	u = malloc((size_t)n * sizeof(*u));
	if (!u) {
		n = -ENOMEM;
		goto out;
	}
	for (i = 0; i < (size_t)n; i++) {
		u[i].job = NULL;
		u[i].njobs = 0;
		u[i].nruns = 1;
		u[i].hidden = true;
		acc_init(&u[i].stats);
	}
	for (i = 0; i < njobs; i++) {
		struct result_unit *x = &u[unit_of[i]];

		if (!x->job) {
			x->job = &r->plan->jobs[i];
			if (x->job->runs.repeat > 1)
				x->nruns = (unsigned)x->job->runs.repeat;
		}
		x->njobs++;
		/* stats=0: run, but reported nowhere */
		if (!r->plan->jobs[i].report.stats)
			continue;
		x->hidden = false;
		acc_add(&x->stats, r, i);
	}
	for (i = 0; i < (size_t)n; i++)
		unit_phase(r, &u[i]);
	if (runs_fold_all(r, unit_of, &u[0].stats, sizeof(*u), (size_t)n)) {
		for (i = 0; i < (size_t)n; i++)
			ival_series_put(u[i].stats.intervals);
		free(u);
		n = -ENOMEM;
		goto out;
	}
	*units = u;
	if (map) {
		*map = unit_of;
		unit_of = NULL;
	}
out:
	free(unit_of);
	return n;
}

int result_units(const struct run_result *r, struct result_unit **units)
{
	return units_build(r, units, NULL);
}

int result_groups(const struct run_result *r, struct job_stats **groups)
{
	unsigned ng = r->plan ? r->plan->ngroups : 0;
	size_t njobs = plan_njobs(r);
	struct job_stats *g;
	size_t i;
	int ret;

	*groups = NULL;
	if (!ng)
		return 0;
	g = malloc(ng * sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (i = 0; i < ng; i++)
		acc_init(&g[i]);
	for (i = 0; i < njobs; i++) {
		unsigned id = r->plan->jobs[i].plan.group;

		if (id < ng && r->plan->jobs[i].report.stats)
			acc_add(&g[id], r, i);
	}
	ret = runs_fold_all(r, NULL, g, sizeof(*g), ng);
	if (ret) {
		for (i = 0; i < ng; i++)
			ival_series_put(g[i].intervals);
		free(g);
		return ret;
	}
	*groups = g;
	return (int)ng;
}

/* s's group_njobs and group_first, from the plan: 0 or -ENOMEM. */
static int groups_jobs(const struct run_result *r, struct result_set *s)
{
	size_t i;
	unsigned id;

	if (!s->ngroups)
		return 0;
	s->group_njobs = calloc((size_t)s->ngroups, sizeof(*s->group_njobs));
	s->group_first = calloc((size_t)s->ngroups, sizeof(*s->group_first));
	if (!s->group_njobs || !s->group_first)
		return -ENOMEM;
	for (i = 0; i < plan_njobs(r); i++) {
		id = r->plan->jobs[i].plan.group;
		if (id >= (unsigned)s->ngroups ||
		    !r->plan->jobs[i].report.stats)
			continue;
		if (!s->group_first[id])
			s->group_first[id] = &r->plan->jobs[i];
		s->group_njobs[id]++;
	}
	return 0;
}

int result_collect(const struct run_result *r, struct result_set *s)
{
	if (r->set) {
		*s = *r->set;
		s->borrowed = true;
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->nunits = units_build(r, &s->units, &s->unit_of);
	if (s->nunits < 0)
		return s->nunits;
	s->ngroups = result_groups(r, &s->groups);
	if (s->ngroups < 0 || groups_jobs(r, s)) {
		int ret = s->ngroups < 0 ? s->ngroups : -ENOMEM;

		if (s->ngroups < 0)
			s->ngroups = 0;
		result_set_free(s);
		return ret;
	}
	return 0;
}

void result_set_free(struct result_set *s)
{
	int i;

	if (s->borrowed) {
		memset(s, 0, sizeof(*s));
		return;
	}
	for (i = 0; s->units && i < s->nunits; i++)
		ival_series_put(s->units[i].stats.intervals);
	for (i = 0; s->groups && i < s->ngroups; i++)
		ival_series_put(s->groups[i].intervals);
	free(s->units);
	free(s->groups);
	free(s->unit_of);
	free(s->group_njobs);
	free(s->group_first);
	memset(s, 0, sizeof(*s));
}

int result_unit_prios(const struct run_result *r, const struct result_set *s,
		      int unit, bool mixed, struct prio_stats **out)
{
	const struct prio_stats *src;
	size_t i;
	unsigned d;
	int ret = 0;

	*out = NULL;
	for (i = 0; s->unit_of && i < plan_njobs(r) && !ret; i++) {
		if (s->unit_of[i] != (size_t)unit || !job_ran(r, i) ||
		    !r->plan->jobs[i].report.stats || !(src = r->stats[i].prio))
			continue;
		for (d = 0; d < DDIR_NR && !ret; d++)
			ret = prio_stats_merge(out, mixed ? 0 : d, src, d);
	}
	if (ret) {
		prio_stats_free(*out);
		*out = NULL;
	}
	return ret;
}

void result_unit_run(const struct run_result *r, const struct result_set *s,
		     int unit, unsigned run, struct result_unit *out)
{
	size_t i;

	out->job = NULL;
	out->njobs = 0;
	out->nruns = 1;
	out->hidden = s->units[unit].hidden;
	acc_init(&out->stats);
	for (i = 0; s->unit_of && i < plan_njobs(r); i++) {
		if (s->unit_of[i] != (size_t)unit ||
		    r->plan->jobs[i].plan.repeat_idx != run)
			continue;
		if (!out->job)
			out->job = &r->plan->jobs[i];
		out->njobs++;
		if (r->plan->jobs[i].report.stats)
			acc_add(&out->stats, r, i);
	}
	if (!out->job)
		out->job = s->units[unit].job;
	unit_phase(r, out);
}

unsigned result_unit_phase(const struct run_result *r,
			   const struct result_unit *u, struct phase_cpu *ph)
{
	(void)r;
	*ph = u->phase;
	return u->nphases;
}

void result_row_rates(const struct result_unit *u, double *iops, double *bw)
{
	const struct job_stats *st = &u->stats;

	*iops = *bw = 0;
	if (st->agg) {
		*iops = st->agg_iops;
		*bw = st->agg_bw;
	} else if (st->runtime_ns) {
		*iops = (double)stats_ios(st) * 1e9 / (double)st->runtime_ns;
		*bw = (double)stats_bytes(st) * 1e9 / (double)st->runtime_ns;
	}
}

void result_row(const struct run_result *r, const struct result_unit *u,
		struct result_row *row)
{
	const struct job_stats *st = &u->stats;
	struct phase_cpu ph;
	struct hist *lat;
	double wall;

	memset(row, 0, sizeof(*row));
	row->ios = stats_ios(st);
	row->bytes = stats_bytes(st);
	row->runtime_ns = st->runtime_ns;
	if (result_unit_phase(r, u, &ph)) {
		row->utime_ns = ph.proc.utime_ns;
		row->stime_ns = ph.proc.stime_ns;
		wall = (double)ph.wall_ns;
		if (wall > 0)
			row->cpu_pct = (double)(row->utime_ns + row->stime_ns) /
				       wall * 100;
		if (ph.ios)
			row->us_per_io = (double)(row->utime_ns +
						  row->stime_ns) / 1000 /
					 (double)ph.ios;
	}
	result_row_rates(u, &row->iops, &row->bw_bytes);
	lat = malloc(sizeof(*lat));
	if (!lat)
		return;
	*lat = st->dir[0].lat;
	hist_merge(lat, &st->dir[DDIR_WRITE].lat);
	hist_merge(lat, &st->dir[DDIR_TRIM].lat);
	row->lat_mean_ns = hist_mean(lat);
	row->lat_p99_ns = hist_percentile(lat, 99);
	free(lat);
}

const struct run_targets *result_targets(const struct run_result *r,
					 const struct result_unit *u)
{
	size_t i;

	if (!r->targets || !r->plan || !u->job || u->job < r->plan->jobs)
		return NULL;
	i = (size_t)(u->job - r->plan->jobs);
	return i < r->plan->njobs ? &r->targets[i] : NULL;
}

static double hist_value(const struct metric *m, const struct dir_stats *d)
{
	const struct hist *const h[] = { &d->slat, &d->clat, &d->lat,
					  &d->sched_lat };
	const struct hist *x = h[m->hist];

	if (!x->count)
		return 0;	/* as the JSON report has an empty one */
	switch (m->stat) {
	case MS_MIN:
		return (double)x->min;
	case MS_MAX:
		return (double)x->max;
	case MS_MEAN:
		return hist_mean(x);
	case MS_STDDEV:
		return hist_stddev(x);
	default:
		return (double)hist_percentile(x, m->pct);
	}
}

double result_metric(const struct metric *m, const struct job_stats *s,
		     const struct result_row *row)
{
	const struct dir_stats *d = m->dir >= 0 ? &s->dir[m->dir] : NULL;

	switch (m->kind) {
	case MK_IOPS:
		return stats_iops(d, s->runtime_ns);
	case MK_BW:
		return stats_bw(d, s->runtime_ns);
	case MK_IO_BYTES:
		return (double)d->bytes;
	case MK_IOS:
		return (double)d->ios;
	case MK_DIR_ERRORS:
		return (double)d->errors;
	case MK_SHORT_IOS:
		return (double)d->short_ios;
	case MK_HIST:
		return hist_value(m, d);
	case MK_ERRORS:
		return (double)stats_errors(s);
	case MK_CPU_US_PER_IO:
		return row->us_per_io;
	case MK_CPU_PCT:
		return row->cpu_pct;
	case MK_RUNTIME:
		return (double)s->runtime_ns;
	case MK_VERIFY_MISMATCHES:
		return (double)s->verify.mismatches;
	case MK_HEALTH_MEDIA_ERRORS:
		return (double)s->health.media_errors;
	case MK_HEALTH_ERROR_LOG:
		return (double)s->health.error_log_entries;
	case MK_HEALTH_WARNING:
		return (double)s->health.critical_warning;
	case MK_HEALTH_USED:
		return (double)s->health.percentage_used;
	}
	return 0;
}

void result_error_text(const struct job_stats *s, char *buf, size_t len)
{
	int e = s->err < 0 ? -s->err : s->err;

	/* err_msg may already end with the reason: not twice. */
	if (s->err_msg[0] && strstr(s->err_msg, strerror(e)))
		snprintf(buf, len, "%s", s->err_msg);
	else
		snprintf(buf, len, "%s%s%s", s->err_msg,
			 s->err_msg[0] ? ": " : "", strerror(e));
}

const char *result_signal_name(int signo, char *buf, size_t len)
{
	const char *a = sigabbrev_np(signo);

	if (a)
		snprintf(buf, len, "SIG%s", a);
	else
		snprintf(buf, len, "%d", signo);
	return buf;
}

void result_time_iso(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!len)
		return;
	buf[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool result_shows_pct(const struct job *j, int h, double p)
{
	const bool on[] = { j->report.slat_percentiles,
		j->report.clat_percentiles,
			    j->report.lat_percentiles };
	unsigned i;

	if (h < MH_SLAT || h > MH_LAT || !on[h])
		return false;
	for (i = 0; i < j->report.npercentiles && i < JOB_MAX_PERCENTILES; i++)
		if (j->report.percentile_list[i] == p)
			return true;
	return false;
}

/* ---- a member's figures, packed ---- */

static size_t leb_put(unsigned char *b, uint64_t v)
{
	size_t n = 0;

	do {
		if (b)
			b[n] = (unsigned char)((v & 0x7f) |
					       (v > 0x7f ? 0x80 : 0));
		n++;
		v >>= 7;
	} while (v);
	return n;
}

static uint64_t leb_get(const unsigned char *b, size_t *pos)
{
	uint64_t v = 0;
	unsigned sh = 0;

	do
		v |= (uint64_t)(b[*pos] & 0x7f) << sh;
	while ((b[(*pos)++] & 0x80) && (sh += 7) < 64);
	return v;
}

/* Word i of the bytes at p (no aliasing of the struct they are). */
static uint64_t word_at(const unsigned char *p, size_t i)
{
	uint64_t v;

	memcpy(&v, p + i * sizeof(v), sizeof(v));
	return v;
}

/*
 * The n words at w as runs: the number of zero words, the number of the
 * others that follow, those words; again to the end. Into b (NULL: only
 * counted); the length.
 */
/* The zero words from word i on: four at a time first (a unit is most
 * of a megabyte of empty buckets, scanned twice per member). */
static size_t zero_run(const unsigned char *w, size_t i, size_t n)
{
	size_t z = i;

	while (z + 4 <= n && !(word_at(w, z) | word_at(w, z + 1) |
			       word_at(w, z + 2) | word_at(w, z + 3)))
		z += 4;
	while (z < n && !word_at(w, z))
		z++;
	return z - i;
}

static size_t pack_words(unsigned char *b, const unsigned char *w, size_t n)
{
	size_t i = 0, len = 0, z, l, k;

	while (i < n) {
		z = zero_run(w, i, n);
		i += z;
		for (l = 0; i + l < n && word_at(w, i + l); l++)
			;
		len += leb_put(b ? b + len : NULL, z);
		len += leb_put(b ? b + len : NULL, l);
		for (k = 0; k < l; k++)
			len += leb_put(b ? b + len : NULL, word_at(w, i + k));
		i += l;
	}
	return len;
}

size_t result_words_pack(unsigned char *b, const void *p, size_t nwords)
{
	return pack_words(b, p, nwords);
}

int result_words_unpack(void *p, size_t nwords, const unsigned char *b,
			size_t len, size_t *pos)
{
	return result_words_unpack_onto(p, nwords, b, len, pos, NULL);
}

/* A run of words written: noted before it is (so that a failed unpack's
 * words are cleared too); -ENOMEM when no room. */
static int note_run(struct word_runs *r, unsigned char *at, size_t n)
{
	struct word_run *v;
	size_t c;

	if (r->n == r->cap) {
		c = r->cap ? 2 * r->cap : 256;
		v = realloc(r->v, c * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = c;
	}
	r->v[r->n].at = at;
	r->v[r->n++].n = n;
	return 0;
}

void result_words_clear(struct word_runs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		memset(r->v[i].at, 0, r->v[i].n * sizeof(uint64_t));
	r->n = 0;
}

int result_words_unpack_onto(void *p, size_t nwords, const unsigned char *b,
			     size_t len, size_t *pos, struct word_runs *runs)
{
	unsigned char *w = p;
	size_t at = 0, z, l;
	uint64_t v;

	/* a varint never runs past the end: its last byte has no 0x80 */
	while (at < nwords) {
		if (*pos >= len || (b[len - 1] & 0x80))
			return -EINVAL;
		z = (size_t)leb_get(b, pos);
		if (z > nwords - at || *pos >= len)
			return -EINVAL;
		if (!runs)
			memset(w + at * sizeof(v), 0, z * sizeof(v));
		at += z;
		l = (size_t)leb_get(b, pos);
		if (l > nwords - at)
			return -EINVAL;
		if (runs && l && note_run(runs, w + at * sizeof(v), l))
			return -ENOMEM;
		for (; l; l--, at++) {
			if (*pos >= len)
				return -EINVAL;
			v = leb_get(b, pos);
			memcpy(w + at * sizeof(v), &v, sizeof(v));
		}
	}
	return 0;
}

int cluster_unit_pack_from(struct cluster_packed *p,
			   const struct result_unit *u,
			   const struct cluster_unit *cu)
{
	/* two runs of words, one after the other: unpacking reads the
	 * pairs of runs on, so the split is invisible */
	const unsigned char *a = (const unsigned char *)u;
	const unsigned char *t = (const unsigned char *)cu + sizeof(*u);
	size_t na = sizeof(*u) / sizeof(uint64_t);
	size_t nt = (sizeof(*cu) - sizeof(*u)) / sizeof(uint64_t), len;

	_Static_assert(sizeof(struct cluster_unit) % sizeof(uint64_t) == 0,
		       "a cluster_unit is whole words");
	_Static_assert(sizeof(struct result_unit) % sizeof(uint64_t) == 0 &&
		       offsetof(struct cluster_unit, row) ==
		       sizeof(struct result_unit),
		       "a result_unit is whole words, the row right after");
	free(p->b);
	p->b = NULL;
	p->len = 0;
	len = pack_words(NULL, a, na) + pack_words(NULL, t, nt);
	p->b = malloc(len ? len : 1);
	if (!p->b)
		return -ENOMEM;
	p->len = pack_words(p->b, a, na);
	p->len += pack_words(p->b + p->len, t, nt);
	return 0;
}

int cluster_unit_pack(struct cluster_packed *p, const struct cluster_unit *cu)
{
	return cluster_unit_pack_from(p, &cu->u, cu);
}

void cluster_member_unit(const struct cluster_info *ci, unsigned i,
			 unsigned k, struct cluster_unit *out)
{
	const struct cluster_packed *p = &ci->members[i].jobs[k];
	unsigned char *w = (unsigned char *)out;
	size_t n = sizeof(*out) / sizeof(uint64_t), at = 0, pos = 0, z, l;
	uint64_t v;

	while (pos < p->len && at < n) {
		z = (size_t)leb_get(p->b, &pos);
		z = z < n - at ? z : n - at;
		memset(w + at * sizeof(v), 0, z * sizeof(v));
		at += z;
		l = pos < p->len ? (size_t)leb_get(p->b, &pos) : 0;
		for (; l && at < n && pos < p->len; l--, at++) {
			v = leb_get(p->b, &pos);
			memcpy(w + at * sizeof(v), &v, sizeof(v));
		}
	}
	memset(w + at * sizeof(v), 0, (n - at) * sizeof(v));
	out->u.stats.intervals = NULL;
	out->u.stats.steady = NULL;
	out->u.stats.prio = NULL;
}

void cluster_info_free(struct cluster_info *info)
{
	unsigned i, k;
	int d;

	if (!info)
		return;
	for (i = 0; info->members && i < info->nmembers; i++) {
		struct cluster_member_info *m = &info->members[i];

		for (k = 0; m->jobs && k < info->njobs; k++)
			free(m->jobs[k].b);
		free(m->jobs);
		free(m->label);
		free(m->host);
	}
	for (k = 0; info->jobs && k < info->njobs; k++)
		for (d = 0; d < DDIR_NR; d++) {
			free(info->jobs[k].dir[d].rows);
			free(info->jobs[k].dir[d].hosts);
		}
	for (i = 0; info->hosts && i < info->nhosts; i++)
		free(info->hosts[i]);
	free(info->hosts);
	free(info->members);
	free(info->jobs);
	free(info);
}

double result_as_printed(double v)
{
	char buf[40];

	if (!isfinite(v))
		return 0.0;
	snprintf(buf, sizeof(buf), "%.12g", v);
	return strtod(buf, NULL);
}

/* Options a rank may set for itself (its targets, its seed, its CPUs):
 * every other option must be the same in every member. */
static const char *const per_member_opts[] = {
	"filename", "directory", "filename_format", "size", "filesize",
	"offset", "io_size", "number_ios", "description", "randseed",
	"cpus_allowed", "cpumask", "sqthread_poll_cpu", NULL,
};

bool cluster_option_per_member(const char *name)
{
	const char *const *l;

	for (l = per_member_opts; *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}
