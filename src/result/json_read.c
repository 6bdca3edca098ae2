// SPDX-License-Identifier: MIT
/*
 * The JSON reader (result.h): iorig's JSON document back into the result
 * model, beside the writer (json.c) whose keys it reads. The two files are
 * the only ones that spell the document's keys (tests/cli/233 checks).
 *
 * What the writer derives (rates, percentiles, the summary, a direction's
 * runtime, the mixed direction) is derived again from what is read; what
 * it prints of the model (counts, histograms' buckets, options...) is read
 * back into the model. A histogram's sum and sum of squares are not in the
 * document: the reader takes the ones that give back its mean and stddev
 * (exactly the run's while they fit the 12 digits printed, see hist_sums).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "jdom.h"

#include "check.h"
#include "curve.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "result.h"
#include "steady.h"
#include "verify.h"
#include "zbd.h"

/* The schema_version values of json.c that this reader knows. */
#define READ_SCHEMA_MIN	1
#define READ_SCHEMA_MAX	1

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

/* Everything a result_doc points into. */
struct result_store {
	struct plan plan;
	struct run_targets *targets;	/* per plan job (unit) */
	char **strs;			/* strings kept for the model */
	size_t nstrs, capstrs;
	struct check_report checks;
	struct check_def *defs;
	struct baseline baseline;
	struct curve_set curves;
};

struct rd {
	struct result_doc *d;
	struct result_store *st;
	bool strict;
	bool agg;		/* a merged result: rates are the members' */
	int err;		/* -ENOMEM once anything failed */
	char why[300];		/* strict: what is wrong */
};

/* ---- the document's values ---- */

static const struct jd *get(const struct jd *o, const char *key)
{
	return jd_is_object(o) ? jd_object_get(o, key) : NULL;
}

/* A count: 0 unless a positive integer (hostile input: no negative). */
static uint64_t u64(const struct jd *o, const char *key)
{
	int64_t v = jd_integer_value(get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

static uint64_t u64v(const struct jd *v)
{
	int64_t x = jd_integer_value(v);

	return x > 0 ? (uint64_t)x : 0;
}

static double num(const struct jd *o, const char *key)
{
	const struct jd *v = get(o, key);

	return jd_is_number(v) ? jd_number_value(v) : 0.0;
}

static const char *str(const struct jd *o, const char *key)
{
	return jd_string_value(get(o, key));
}

static bool is_true(const struct jd *o, const char *key)
{
	return jd_is_true(get(o, key));
}

/* A flag that is true unless the document says false (one older than
 * the flag, or edited, does not say). */
static bool unless_false(const struct jd *o, const char *key)
{
	return !jd_is_false(get(o, key));
}

/* A copy of s the model keeps (freed with the store); NULL for NULL. */
static char *keep(struct rd *c, const char *s)
{
	struct result_store *st = c->st;
	char **v;

	if (!s)
		return NULL;
	if (st->nstrs == st->capstrs) {
		st->capstrs = st->capstrs ? 2 * st->capstrs : 64;
		v = realloc(st->strs, st->capstrs * sizeof(*v));
		if (!v) {
			c->err = -ENOMEM;
			return NULL;
		}
		st->strs = v;
	}
	st->strs[st->nstrs] = strdup(s);
	if (!st->strs[st->nstrs])
		c->err = -ENOMEM;
	return st->strs[st->nstrs++];
}

const char *result_doc_keep(struct result_doc *d, const char *s)
{
	struct rd c = { .d = d, .st = d->store };

	if (!s)
		return NULL;
	if (!d->store)
		return NULL;
	s = keep(&c, s);
	return c.err ? NULL : s;
}

static void text_into(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

/* ---- strict: what a merge needs ---- */

static bool bad(struct rd *c, const char *fmt, const char *a,
		const char *b)
{
	if (!c->why[0])
		snprintf(c->why, sizeof(c->why), fmt, a ? a : "?",
			 b ? b : "?");
	return false;
}

static bool is_hist(const struct jd *o)
{
	return jd_is_object(o) && jd_is_array(get(o, "buckets"));
}

/* A histogram object is well formed: count, min, max, mean, stddev,
 * overflow, buckets of [low, high, count] that are iorig's buckets and
 * add up to the count. */
static bool hist_ok(struct rd *c, const struct jd *h)
{
	const struct jd *b = get(h, "buckets"), *x;
	uint64_t sum = 0;
	char at[32];
	size_t i;

	if (!jd_is_integer(get(h, "count")) ||
	    !jd_is_integer(get(h, "overflow")) ||
	    !jd_is_integer(get(h, "min")) || !jd_is_integer(get(h, "max")) ||
	    !jd_is_number(get(h, "mean")) ||
	    !jd_is_number(get(h, "stddev")) || !jd_is_array(b))
		return bad(c, "a histogram lacks count, min, max, mean, "
			   "stddev, overflow or buckets", NULL, NULL);
	jd_array_foreach(b, i, x) {
		int64_t lo = jd_integer_value(jd_array_get(x, 0));
		int64_t hi = jd_integer_value(jd_array_get(x, 1));
		int64_t n = jd_integer_value(jd_array_get(x, 2));

		if (jd_array_size(x) != 3 || lo < 0 || n < 0 ||
		    (uint64_t)lo >> HIST_MAX_BITS ||
		    hist_bucket_low(hist_index((uint64_t)lo)) != (uint64_t)lo ||
		    hist_bucket_high(hist_index((uint64_t)lo)) !=
		    (uint64_t)hi) {
			/* formatted only here: a merge reads millions */
			snprintf(at, sizeof(at), "%zu", i);
			return bad(c, "bucket %s is not [low, high, count] of "
				   "an iorig histogram", at, NULL);
		}
		sum += (uint64_t)n;
	}
	if (sum + u64(h, "overflow") != u64(h, "count"))
		return bad(c, "a histogram's buckets do not add up to its "
			   "count", NULL, NULL);
	return true;
}

/* Every histogram anywhere in v. */
static bool hists_ok(struct rd *c, const struct jd *v)
{
	size_t i;

	if (is_hist(v))
		return hist_ok(c, v);
	/* an object's members and an array's elements alike */
	if (jd_is_object(v) || jd_is_array(v))
		for (i = 0; i < v->n; i++)
			if (!hists_ok(c, v->v.kids[i]))
				return false;
	return true;
}

/* A job's figures are all there: its name, options, runtime and, per
 * direction, its counts and latency histograms. */
static bool job_ok(struct rd *c, const struct jd *j, size_t i)
{
	static const char *const hk[] = { "slat_ns", "clat_ns", "lat_ns" };
	const char *name = str(j, "name");
	char at[32];
	int d, k;

	snprintf(at, sizeof(at), "%zu", i);
	if (!name || !jd_is_object(get(j, "options")) ||
	    !jd_is_integer(get(j, "runtime_ns")))
		return bad(c, "job %s lacks name, options or runtime_ns", at,
			   NULL);
	for (d = 0; d < DDIR_NR; d++) {
		const struct jd *o = get(j, dir_key[d]);

		if (!jd_is_integer(get(o, "ios")) ||
		    !jd_is_integer(get(o, "io_bytes")) ||
		    !jd_is_integer(get(o, "runtime_ns")))
			return bad(c, "job '%s' lacks its %s figures", name,
				   dir_key[d]);
		for (k = 0; k < 3; k++)
			if (!is_hist(get(o, hk[k])))
				return bad(c, "job '%s' lacks its %s latency "
					   "histograms", name, dir_key[d]);
	}
	return true;
}

static bool strict_ok(struct rd *c, const struct jd *root)
{
	const struct jd *j;
	size_t i;

	if (!jd_is_array(get(root, "groups")))
		return bad(c, "not an iorig result (expected the document of "
			   "iorig --output-format=json, schema_version 1)",
			   NULL, NULL);
	jd_array_foreach(get(root, "jobs"), i, j)
		if (!job_ok(c, j, i))
			return false;
	return hists_ok(c, root);
}

/*
 * What makes a document an iorig result at all: 0, or -EINVAL with why.
 * strict: a member of a merge, as the merge names what is wrong.
 */
static int not_a_result(const struct jd *root, bool strict, char *why,
			size_t len)
{
	const struct jd *jobs = get(root, "jobs"), *j, *sv;
	const char *no = NULL;
	int64_t v;
	size_t i;

	sv = get(root, "schema_version");
	if (!jd_is_object(root))
		no = strict ? "not a JSON object" :
		     "the document is not a JSON object";
	else if (get(root, "fio version"))
		no = strict ? "a fio JSON report; expected an iorig result "
		     "(iorig --output-format=json)" : "it is a fio JSON report";
	else if (!str(root, "iorig_version") || (sv && !jd_is_integer(sv)) ||
		 (strict && !sv))
		no = "it has no iorig_version and schema_version";
	else if (!jd_is_array(jobs))
		no = "it has no jobs array";
	if (no && strict && jd_is_object(root) && !get(root, "fio version"))
		no = "not an iorig result (expected the document of iorig "
		     "--output-format=json, schema_version 1)";
	if (no) {
		snprintf(why, len, strict ? "%s" : "not an iorig JSON result: "
			 "expected the output of iorig --output-format=json "
			 "(%s)", no);
		return -EINVAL;
	}
	v = jd_integer_value(sv);
	if (sv && (v < READ_SCHEMA_MIN || v > READ_SCHEMA_MAX)) {
		snprintf(why, len, "schema_version %lld is not supported; "
			 "this iorig reads schema_version %d", (long long)v,
			 READ_SCHEMA_MAX);
		return -EINVAL;
	}
	jd_array_foreach(jobs, i, j)
		if (!str(j, "name")) {
			snprintf(why, len, "jobs[%zu] is not a job (expected an "
				 "object with a name)", i);
			return -EINVAL;
		}
	return 0;
}

/* ---- histograms ---- */

/* v printed as the writer prints reals (jw_dump: 12 digits). */
static bool same_print(double a, double b)
{
	char x[40], y[40];

	snprintf(x, sizeof(x), "%.12g", a);
	snprintf(y, sizeof(y), "%.12g", b);
	return !strcmp(x, y);
}

/*
 * h's sum and sum of squares from the mean and stddev the document gives.
 * sum = round(mean * count) is the run's own while it has under 12 digits
 * (the printed mean then holds all of it), and prints back as the same
 * mean when it has more. The sum of squares is what leaves count * var
 * over: the run's own while count * var has under 11 digits, else one of
 * the few nearby integers that print back as the same stddev (searched,
 * as its last digit may not land on one).
 */
static void hist_sums(struct hist *h, double mean, double sd)
{
	unsigned __int128 sq, q, x0;
	long double s, dd;
	uint64_t r;
	int k;

	if (!h->count)
		return;
	s = roundl((long double)mean * h->count);
	h->sum = s <= 0 ? 0 : s >= 18446744073709551615.0L ? UINT64_MAX :
		 (uint64_t)s;
	sq = (unsigned __int128)h->sum * h->sum;
	h->sumsq = sq;
	if (h->count < 2 || !(sd > 0))
		return;
	q = sq / h->count;
	r = (uint64_t)(sq % h->count);
	dd = roundl((long double)sd * sd * h->count + (long double)r /
		    h->count);
	if (!(dd > 0) || dd >= 1e38L)
		return;
	x0 = (unsigned __int128)dd;
	for (k = 0; k <= 128; k++) {
		/* x0, x0 + 1, x0 - 1, x0 + 2, ... */
		__int128 off = k & 1 ? (k + 1) / 2 : -(k / 2);

		if (off < 0 && x0 < (unsigned __int128)-off)
			continue;
		h->sumsq = q + x0 + off;
		if (same_print(hist_stddev(h), sd))
			return;
	}
	h->sumsq = q + x0;
}

/* An iorig histogram object into h, empty (result_read_stats'):
 * count, overflow, min, max, every bucket; sums as hist_sums finds
 * them. */
static void hist_read(const struct jd *o, struct hist *h)
{
	const struct jd *b = get(o, "buckets"), *x;
	size_t i;

	h->count = u64(o, "count");
	h->overflow = u64(o, "overflow");
	if (h->count) {
		h->min = u64(o, "min");
		h->max = u64(o, "max");
	}
	jd_array_foreach(b, i, x) {
		uint64_t lo = u64v(jd_array_get(x, 0));

		/* not iorig's buckets: strict refused them */
		if (!(lo >> HIST_MAX_BITS))
			h->b[hist_index(lo)] += u64v(jd_array_get(x, 2));
	}
	hist_sums(h, num(o, "mean"), num(o, "stddev"));
}

/* Rate samples: count, min, max, mean, stddev (the sample one). */
static void smp_read(const struct jd *o, struct smp_stat *m)
{
	double sd = num(o, "stddev");

	memset(m, 0, sizeof(*m));
	m->n = u64(o, "count");
	m->min = num(o, "min");
	m->max = num(o, "max");
	m->mean = num(o, "mean");
	if (m->n > 1)
		m->m2 = sd * sd * (double)(m->n - 1);
}

/* ---- a job's figures ---- */

static void first_error_read(struct rd *c, const struct jd *o,
			     struct dir_stats *d)
{
	int64_t e = jd_integer_value(get(o, "errno"));

	if (!jd_is_object(o) || e <= 0 || e > INT32_MAX)
		return;
	d->first_errno = (int)e;
	d->first_err_offset = u64(o, "offset");
	text_into(d->first_err_file, sizeof(d->first_err_file),
		  str(o, "file"));
	d->first_err_engine = keep(c, str(o, "engine"));
}

static void dir_read(struct rd *c, const struct jd *o, struct dir_stats *d)
{
	const struct jd *rate = get(o, "rate");

	/* d is empty: result_read_stats made its job_stats so */
	d->bytes = u64(o, "io_bytes");
	d->ios = u64(o, "ios");
	d->errors = u64(o, "errors");
	d->short_ios = u64(o, "short_ios");
	d->dropped_ios = u64(o, "dropped_ios");
	d->submit_done = u64(o, "submit_done_ios");
	first_error_read(c, get(o, "first_error"), d);
	hist_read(get(o, "slat_ns"), &d->slat);
	hist_read(get(o, "clat_ns"), &d->clat);
	hist_read(get(o, "lat_ns"), &d->lat);
	hist_read(get(o, "sched_lat_ns"), &d->sched_lat);
	if (jd_is_object(rate)) {
		d->rate_bps = num(rate, "target_bw_bytes");
		d->rate_iops = num(rate, "target_iops");
		d->backlog_ios = u64(rate, "backlog_ios");
		d->lag_ns = u64(rate, "lag_ns");
		d->agg_met = is_true(rate, "met");
	}
	smp_read(get(o, "bw_samples"), &d->bw_smp);
	smp_read(get(o, "iops_samples"), &d->iops_smp);
	if (c->agg) {
		d->agg = true;
		d->agg_iops = num(o, "iops");
		d->agg_bw = num(o, "bw_bytes");
	}
}

static void cpu_read(const struct jd *o, struct cpu_usage *u)
{
	memset(u, 0, sizeof(*u));
	u->utime_ns = u64(o, "user_ns");
	u->stime_ns = u64(o, "sys_ns");
	u->vcsw = u64(o, "ctx_voluntary");
	u->ivcsw = u64(o, "ctx_involuntary");
	u->minflt = u64(o, "minflt");
	u->majflt = u64(o, "majflt");
}

static void depth_read(const struct jd *o, struct depth_dist *dd)
{
	const struct jd *v[3] = { get(o, "level"), get(o, "submit"),
			       get(o, "complete") };
	uint64_t *out[3] = { dd->level, dd->submit, dd->complete };
	unsigned i, n;

	memset(dd, 0, sizeof(*dd));
	for (n = 0; n < 3; n++)
		for (i = 0; i < DEPTH_NB; i++)
			out[n][i] = u64v(jd_array_get(v[n], i));
}

/* The name of one of count things (name(i)), or -1. */
static int name_index(const char *s, const char *(*name)(int), int count)
{
	int i;

	for (i = 0; s && i < count; i++)
		if (name(i) && !strcmp(name(i), s))
			return i;
	return -1;
}

static uint64_t hex(const struct jd *o, const char *key)
{
	const char *s = str(o, key);

	return s ? strtoull(s, NULL, 16) : 0;
}

static void vhdr_read(const struct jd *o, struct verify_hdr *h, bool *gen)
{
	int k = name_index(str(o, "kind"), verify_kind_name, VERIFY_KIND_NR);

	memset(h, 0, sizeof(*h));
	h->offset = u64(o, "offset");
	h->len = (uint32_t)u64(o, "length");
	h->seed = hex(o, "seed");
	*gen = jd_is_integer(get(o, "generation"));
	h->generation = u64(o, "generation");
	h->run_id = hex(o, "run_id");
	h->kind = (uint16_t)(k > 0 ? k : 0);
	h->time_ns = u64(o, "write_time_ns");
	h->csum = hex(o, "checksum");
}

static void mismatch_read(const struct jd *o, struct verify_mismatch *m)
{
	int cls = name_index(str(o, "class"), verify_class_name, VC_NR);
	bool gen;

	memset(m, 0, sizeof(*m));
	text_into(m->file, sizeof(m->file), str(o, "file"));
	m->offset = u64(o, "offset");
	m->cls = (uint8_t)(cls >= 0 ? cls : 0);
	text_into(m->detail, sizeof(m->detail), str(o, "detail"));
	vhdr_read(get(o, "expected"), &m->expected, &gen);
	m->exp_gen = gen;
	m->found_hdr = jd_is_object(get(o, "found"));
	vhdr_read(get(o, "found"), &m->found, &gen);
}

/* A unit's NVMe health (stats_health); null: none known. */
static void health_read(const struct jd *o, struct stats_health *h)
{
	h->known = jd_is_object(o);
	if (!h->known)
		return;
	h->media_errors = u64(o, "media_errors");
	h->error_log_entries = u64(o, "error_log_entries");
	h->critical_warning = (uint8_t)u64(o, "critical_warning");
	h->percentage_used = (uint8_t)u64(o, "percentage_used");
}

static void verify_read(const struct jd *o, struct job_stats *s)
{
	struct verify_stats *v = &s->verify;
	const struct jd *r = get(o, "reads"), *x;
	int k = name_index(str(o, "kind"), verify_kind_name, VERIFY_KIND_NR);
	size_t i;

	if (!jd_is_object(o) || k <= 0)
		return;
	v->kind = k;
	v->blocks_checked = u64(o, "blocks_checked");
	v->bytes = u64(o, "io_bytes");
	v->runtime_ns = u64(o, "runtime_ns");
	v->read_errors = u64(o, "read_errors");
	v->write_failed = u64(o, "write_failed");
	v->mismatches = u64(o, "mismatches");
	v->stopped = is_true(o, "stopped");
	for (k = 0; k < VC_NR; k++)
		v->by_class[k] = u64(get(o, "by_class"), verify_class_name(k));
	jd_array_foreach(get(o, "first"), i, x)
		if (v->nfirst < VERIFY_FIRST_MAX)
			mismatch_read(x, &v->first[v->nfirst++]);
	s->vread.ios = u64(r, "ios");
	s->vread.bytes = u64(r, "io_bytes");
	s->vread.errors = u64(r, "errors");
	s->vphase_ns = u64(r, "phase_ns");
	hist_read(get(r, "lat_ns"), &s->vread.lat);
}

/* The members of a unit and a group alike (json.c's put_result), into
 * s, all zero bytes (the model's calloc, cmember_read's memset). */
static void result_read_stats(struct rd *c, const struct jd *o,
			      struct job_stats *s)
{
	const struct jd *err = get(o, "error"), *sync = get(o, "sync");
	int64_t e = jd_integer_value(get(err, "errno"));
	int d;

	stats_init_zeroed(s);
	if (e > 0 && e <= INT32_MAX) {
		s->err = -(int)e;
		/* the errno's text alone is the writer's for no message */
		if (!str(err, "message") ||
		    strcmp(str(err, "message"), strerror((int)e)))
			text_into(s->err_msg, sizeof(s->err_msg),
				  str(err, "message"));
	}
	s->interrupted = is_true(o, "interrupted");
	s->abandoned = is_true(o, "abandoned");
	s->runtime_ns = u64(o, "runtime_ns");
	s->think_ns = u64(o, "think_ns");
	s->end_sync_ns = u64(o, "end_sync_ns");
	s->latency_depth = (unsigned)u64(o, "latency_depth");
	s->loops_done = u64(o, "loops");
	hist_read(get(sync, "lat_ns"), &s->sync);
	cpu_read(get(o, "cpu"), &s->cpu);
	for (d = 0; d < DDIR_NR; d++)
		dir_read(c, get(o, dir_key[d]), &s->dir[d]);
	depth_read(get(o, "iodepth"), &s->depth);
	verify_read(get(o, "verify"), s);
	health_read(get(o, "health"), &s->health);
	if (c->agg) {
		const struct jd *sum = get(o, "summary");

		s->agg = jd_is_object(sum);
		s->agg_iops = num(sum, "iops");
		s->agg_bw = num(sum, "bw_bytes");
	}
}

/*
 * nclones and nmeasured as the document tells them: ran (njobs of them;
 * the document does not say how many of them ran), measured.
 */
static void ran_read(struct job_stats *s, bool ran, bool measured,
		     unsigned njobs)
{
	s->nclones = ran ? (njobs ? njobs : 1) : 0;
	s->nmeasured = ran && measured ? s->nclones : 0;
}

/* ---- the units ---- */

/* The job of a unit: its options as the document lists them. */
static int job_read(struct rd *c, const struct jd *o, struct job *j,
		    const char *name)
{
	const struct jd *opts = get(o, "options"), *v;
	struct err_rec *e = malloc(sizeof(*e));
	const char *k, *sp = str(o, "sweep_point");
	int ret = options_defaults(j);
	size_t oi;

	if (!e || ret) {
		free(e);
		return -ENOMEM;
	}
	/* kb_base before the sizes (they print as bytes: no matter) */
	jd_object_foreach(opts, oi, k, v) {
		const char *s = jd_string_value(v);

		/* "" is unset; a value this build refuses (an engine it
		 * lacks) leaves the default */
		if (s && *s && options_set(j, k, s, name, 0, e) == -ENOMEM) {
			free(e);
			return -ENOMEM;
		}
	}
	free(e);
	/* the unit's name: its identity (the option says the same) */
	if (str(o, "name")) {
		free(j->desc.name);
		if (!(j->desc.name = strdup(str(o, "name"))))
			return -ENOMEM;
	}
	j->plan.clone = (unsigned)u64(o, "clone");
	/* a merged unit has no clone (the writer's null) */
	if (get(o, "clone"))
		j->report.group_reporting = jd_is_null(get(o, "clone"));
	j->plan.group = (unsigned)u64(o, "group");
	j->plan.wait_group = (unsigned)u64(get(o, "phase_cpu"), "phase");
	j->report.stats = true;
	if (sp && !(j->plan.sweep_point = strdup(sp)))
		return -ENOMEM;
	if (!j->desc.name && !(j->desc.name = strdup("")))
		return -ENOMEM;
	return 0;
}

static void device_read(const struct jd *o, struct sysinfo_target *t)
{
	struct sysinfo_device *d = &t->dev;
	const struct jd *rot = get(o, "rotational");

	t->has_device = jd_is_object(o);
	text_into(d->name, sizeof(d->name), str(o, "name"));
	text_into(d->model, sizeof(d->model), str(o, "model"));
	text_into(d->firmware, sizeof(d->firmware), str(o, "firmware"));
	d->logical_block_size = (uint32_t)u64(o, "logical_block_size");
	d->physical_block_size = (uint32_t)u64(o, "physical_block_size");
	d->rotational = jd_is_boolean(rot) ? jd_is_true(rot) : -1;
	text_into(d->scheduler, sizeof(d->scheduler), str(o, "scheduler"));
	text_into(d->write_cache, sizeof(d->write_cache),
		  str(o, "write_cache"));
}

static int targets_read(struct rd *c, const struct jd *o, struct run_targets *rt)
{
	static const char *const kinds[] = {
		[SYSINFO_NONE] = "none", [SYSINFO_FILE] = "file",
		[SYSINFO_BLOCK] = "block",
	};
	const struct jd *a = get(o, "targets"), *x, *es = get(o, "engine_setup");
	size_t i;
	unsigned k;

	rt->n = (unsigned)jd_array_size(a);
	rt->t = rt->n ? calloc(rt->n, sizeof(*rt->t)) : NULL;
	if (rt->n && !rt->t)
		return -ENOMEM;
	jd_array_foreach(a, i, x) {
		struct run_target *t = &rt->t[i];
		const char *kind = str(x, "kind");

		t->nvme = -1;	/* the document's nvme list names them */
		if (str(x, "path") && !(t->path = strdup(str(x, "path"))))
			return -ENOMEM;
		for (k = 0; kind && k < 3; k++)
			if (!strcmp(kinds[k], kind))
				t->info.kind = (enum sysinfo_kind)k;
		text_into(t->info.fs_type, sizeof(t->info.fs_type),
			  str(x, "fs_type"));
		device_read(get(x, "device"), &t->info);
	}
	rt->engine.known = jd_is_array(es);
	jd_array_foreach(es, i, x)
		if (rt->engine.n < ENGINE_SETUP_MAX)
			rt->engine.what[rt->engine.n++] =
				keep(c, jd_string_value(x));
	return c->err;
}

static void sys_cpu_read(const struct jd *o, struct sys_cpu *s)
{
	s->user = u64(o, "user_ns");
	s->system = u64(o, "sys_ns");
	s->irq = u64(o, "irq_ns");
	s->softirq = u64(o, "softirq_ns");
	s->idle = u64(o, "idle_ns");
	s->steal = u64(o, "steal_ns");
}

static void phase_read(const struct jd *o, struct result_unit *u)
{
	if (!jd_is_object(o))
		return;
	u->nphases = 1;
	u->phase.wall_ns = u64(o, "wall_ns");
	u->phase.ios = u64(o, "ios");
	cpu_read(get(o, "process"), &u->phase.proc);
	sys_cpu_read(get(o, "system"), &u->phase.sys);
}

/* zonemode=zbd's zones (json.c's j_zbd); NULL when none or bad. */
static unsigned zbd_code(const char *name, const char *(*fn)(unsigned))
{
	unsigned v;

	for (v = 0; name && v < 16; v++)
		if (!strcmp(fn(v), name))
			return v;
	return 0;
}

static struct zbd_stats *zbd_read(const struct jd *o)
{
	static const char *const model[] = { "emulated", "host-aware",
					     "host-managed" };
	const struct jd *a = get(o, "zones"), *z;
	struct zbd_stats *r;
	size_t i, n = jd_array_size(a);
	const char *m = str(o, "model");

	size_t names = 0, at = 0;
	char *p;

	if (!jd_is_object(o) || n > (1u << 24))
		return NULL;
	jd_array_foreach(a, i, z)
		if (str(z, "file"))
			names += strlen(str(z, "file")) + 1;
	r = calloc(1, sizeof(*r) + n * sizeof(r->z[0]) + names);
	if (!r)
		return NULL;
	p = (char *)&r->z[n];
	if (names)
		r->names = p;
	for (i = 0; m && i < 3; i++)
		if (!strcmp(m, model[i]))
			r->model = (int)i;
	r->zone_size = u64(o, "zone_size");
	r->max_open = (unsigned)u64(o, "max_open_zones");
	r->max_open_seen = (unsigned)u64(o, "max_open_seen");
	r->resets = u64(o, "zone_resets");
	r->n = (unsigned)n;
	jd_array_foreach(a, i, z) {
		struct zbd_zone_rec *q = &r->z[i];

		q->start = u64(z, "start");
		q->cap = u64(z, "capacity");
		q->type = (uint8_t)zbd_code(str(z, "type"), zbd_type_name);
		q->cond[0] = (uint8_t)zbd_code(str(z, "cond_before"),
					       zbd_cond_name);
		q->wp[0] = u64(z, "wp_before");
		q->cond[1] = (uint8_t)zbd_code(str(z, "cond_after"),
					       zbd_cond_name);
		q->wp[1] = u64(z, "wp_after");
		/* each zone its own copy of the name: the record's
		 * names are read back, not shared */
		if (str(z, "file") && names) {
			q->name = (uint32_t)at;
			memcpy(p + at, str(z, "file"),
			       strlen(str(z, "file")) + 1);
			at += strlen(str(z, "file")) + 1;
		}
	}
	return r;
}

static struct steady_rec *steady_read(const struct jd *o)
{
	static const char *const series[] = { "iops", "bw_bytes", "lat_ns" };
	struct steady_crit cr = { 0 };
	struct steady_rec *r;
	double *y[3];
	unsigned k, n;
	int kind = name_index(str(o, "criterion"), steady_kind_name,
			      SS_LAT_SLOPE + 1);

	if (!jd_is_object(o))
		return NULL;
	cr.kind = kind < 0 ? 0 : kind;
	cr.limit = num(o, "limit");
	cr.pct = is_true(o, "limit_pct");
	r = steady_new(&cr, u64(o, "duration_ns"), u64(o, "interval_ns"));
	if (!r)
		return NULL;
	y[0] = r->iops;
	y[1] = r->bw;
	y[2] = r->lat;
	r->count = 0;
	r->first = 0;
	for (n = 0; n < 3; n++)
		for (k = 0; k < jd_array_size(get(o, series[n])) &&
		     k < r->n; k++) {
			y[n][k] = jd_number_value(jd_array_get(
				get(o, series[n]), k));
			if (k + 1 > r->count)
				r->count = k + 1;
		}
	r->attained = is_true(o, "attained");
	r->at_ns = u64(o, "attained_ns");
	r->judged = jd_is_number(get(o, "value"));
	r->criterion = num(o, "value");
	r->slope = num(o, "slope");
	r->deviation = num(o, "max_deviation");
	return r;
}

/*
 * An interval sample's latency as the document gives it (p50, p99, max
 * of ios completions): a histogram that gives back those three figures as
 * hist_sparse_percentile computes them (the document keeps no more).
 */
static int ival_lat(const struct jd *o, uint64_t n, struct hist *h,
		    struct hist_sparse *out)
{
	uint64_t p50 = u64(o, "lat_p50_ns"), p99 = u64(o, "lat_p99_ns");
	uint64_t mx = u64(o, "lat_max_ns"), r50, r99;

	hist_sparse_init(out);
	if (!n || (!p50 && !p99 && !mx))
		return 0;
	hist_init(h);
	h->count = n;
	h->min = p50;
	h->max = mx;
	r50 = hist_rank(n, 50);
	r99 = hist_rank(n, 99);
	/* bucket 0's midpoint is clamped up to min: p50 */
	h->b[0] = r50;
	if (r99 > r50)
		h->b[p99 == p50 ? 0 : p99 >= mx ? HIST_NBUCKETS - 1 :
		     hist_index(p99)] += r99 - r50;
	h->b[HIST_NBUCKETS - 1] += n - r99;
	return hist_sparse_from(out, h);
}

static struct ival_series *intervals_read(const struct jd *a, uint64_t iv_ns,
					  struct rd *c)
{
	struct ival_sample *v;
	struct ival_series *s = NULL;
	struct hist *h;
	size_t i, n = jd_array_size(a);
	unsigned fold = 0;
	int d;

	if (!jd_is_array(a) || !iv_ns || n > IVAL_KEEP)
		return NULL;	/* none, or not the writer's */
	v = calloc(n + 1, sizeof(*v));
	h = malloc(sizeof(*h));
	for (i = 0, n = 0; v && h && i < jd_array_size(a); i++) {
		const struct jd *x = jd_array_get(a, i);
		struct ival_sample *smp = &v[n];

		if (!jd_is_object(x))
			continue;	/* not a sample */
		n++;
		smp->start_ns = u64(x, "start_ns");
		smp->end_ns = u64(x, "end_ns");
		for (d = 0; d < DDIR_NR; d++) {
			const struct jd *y = get(x, dir_key[d]);

			smp->dir[d].ios = u64(y, "ios");
			smp->dir[d].bytes = u64(y, "bytes");
			if (ival_lat(y, smp->dir[d].ios, h,
				     &smp->dir[d].lat))
				c->err = -ENOMEM;
		}
	}
	/* each sample but the last spans 2^fold intervals */
	while (v && n > 1 && fold < 62 &&
	       v[0].end_ns - v[0].start_ns > iv_ns << fold)
		fold++;
	if (v && h && !c->err && !(s = ival_series_saved(iv_ns, fold, v, n)))
		c->err = -ENOMEM;
	for (i = 0; v && i < n; i++)
		for (d = 0; d < DDIR_NR; d++)
			hist_sparse_free(&v[i].dir[d].lat);
	if (!v || !h)
		c->err = -ENOMEM;
	free(v);
	free(h);
	return s;
}

static int unit_read(struct rd *c, const struct jd *o, size_t i)
{
	struct result_unit *u = &c->d->set.units[i];
	struct job *j = &c->st->plan.jobs[i];
	const char *cpus = str(o, "cpus");
	int ret = job_read(c, o, j, c->d->r.version);

	if (ret)
		return ret;
	/* u is model_alloc's (calloc), read once */
	u->job = j;
	u->njobs = (unsigned)u64(o, "njobs");
	u->nruns = j->runs.repeat > 1 ? (unsigned)j->runs.repeat : 1;
	result_read_stats(c, o, &u->stats);
	ran_read(&u->stats, is_true(o, "ran"), unless_false(o, "measured"),
		 u->njobs);
	text_into(u->stats.cpus, sizeof(u->stats.cpus), cpus);
	u->stats.steady = steady_read(get(o, "steadystate"));
	u->stats.zbd = zbd_read(get(o, "zbd"));
	u->stats.intervals = intervals_read(get(o, "intervals"),
					    j->report.interval_ns, c);
	phase_read(get(o, "phase_cpu"), u);
	ret = targets_read(c, o, &c->st->targets[i]);
	return ret ? ret : c->err;
}

static int group_read(struct rd *c, const struct jd *o, size_t i)
{
	struct result_set *s = &c->d->set;
	struct job_stats *g = &s->groups[i];
	size_t k;

	result_read_stats(c, o, g);
	g->nclones = (unsigned)u64(o, "njobs_ran");
	g->nmeasured = g->nclones && unless_false(o, "measured") ?
		       g->nclones : 0;
	g->intervals = intervals_read(get(o, "intervals"),
				      u64(o, "interval_ns"), c);
	s->group_njobs[i] = (unsigned)u64(o, "njobs");
	for (k = 0; k < (size_t)s->nunits; k++)
		if (s->units[k].job->plan.group == i) {
			s->group_first[i] = s->units[k].job;
			break;
		}
	return c->err;
}

/* ---- checks, repeats, baseline ---- */

/* The unit the document calls name, sweep point, clone; -1 when none. */
static int unit_named(const struct result_set *s, const struct jd *o)
{
	const char *name = str(o, "job"), *sp = str(o, "sweep_point");
	const struct jd *clone = get(o, "clone");
	int i;

	for (i = 0; name && i < s->nunits; i++) {
		const struct job *j = s->units[i].job;

		if (strcmp(j->desc.name, name) ||
		    (!sp) != (!j->plan.sweep_point) ||
		    (sp && strcmp(sp, j->plan.sweep_point)))
			continue;
		if (jd_is_null(clone) ? j->report.group_reporting :
		    !j->report.group_reporting &&
		    (int64_t)j->plan.clone == jd_integer_value(clone))
			return i;
	}
	return -1;
}

static int check_def_read(struct rd *c, const struct jd *o, const struct job *j,
			  struct check_def *d)
{
	const char *expr = str(o, "expr"), *src = str(o, "source");
	const char *colon = src ? strrchr(src, ':') : NULL;
	char why[256];

	d->text = keep(c, expr ? expr : "");
	d->kb_base = j ? (unsigned)j->report.kb_base : 1024;
	if (!d->text || check_parse(d->text, d->kb_base ? d->kb_base : 1024,
				    &d->x, why, sizeof(why)))
		return c->err ? c->err : -EINVAL;
	d->origin = CHECK_CMDLINE;
	snprintf(d->file, sizeof(d->file), "%s", ERR_CMDLINE);
	if (src && strcmp(src, "command line") && colon) {
		d->origin = CHECK_SECTION;
		snprintf(d->file, sizeof(d->file), "%.*s",
			 (int)(colon - src), src);
		d->line = atoi(colon + 1);
	}
	return 0;
}

static int checks_read(struct rd *c, const struct jd *a)
{
	struct check_report *cr = &c->st->checks;
	size_t n = jd_array_size(a), i;
	const struct jd *o;
	int u;

	cr->results = calloc(n + 1, sizeof(*cr->results));
	c->st->defs = calloc(n + 1, sizeof(*c->st->defs));
	if (!cr->results || !c->st->defs)
		return -ENOMEM;
	jd_array_foreach(a, i, o) {
		struct check_result *x = &cr->results[cr->nresults];
		const struct jd *pass = get(o, "pass");

		u = unit_named(&c->d->set, o);
		if (u < 0 || check_def_read(c, o, c->d->set.units[u].job,
					    &c->st->defs[cr->nresults]))
			continue;	/* not a check of this document */
		x->def = &c->st->defs[cr->nresults];
		x->unit = u;
		x->job = c->d->set.units[u].job;
		x->status = jd_is_true(pass) ? CHECK_PASS :
			    jd_is_false(pass) ? CHECK_FAIL : CHECK_NA;
		x->reason = x->status == CHECK_NA ?
			    keep(c, str(o, "reason") ? str(o, "reason") : "") :
			    NULL;
		x->value = num(o, "value");
		x->has_threshold = jd_is_number(get(o, "threshold"));
		x->threshold = num(o, "threshold");
		x->has_base = jd_is_number(get(o, "baseline"));
		x->base = num(o, "baseline");
		cr->npass += x->status == CHECK_PASS;
		cr->nfail += x->status == CHECK_FAIL;
		cr->nna += x->status == CHECK_NA;
		cr->nresults++;
	}
	return c->err;
}

/* The figure called name in cu, added (in the document's order) when
 * new; NULL when it is not a metric or there is no room. */
static struct check_fig *fig_of(struct check_unit *cu, const char *name)
{
	struct check_fig *g;
	char why[8];
	unsigned k;

	for (k = 0; k < cu->nfigs; k++)
		if (!strcmp(cu->figs[k].m.name, name))
			return &cu->figs[k];
	if (cu->nfigs == METRIC_HEADLINE_MAX)
		return NULL;
	g = &cu->figs[cu->nfigs];
	memset(g, 0, sizeof(*g));
	if (metric_parse(name, strlen(name), &g->m, why, sizeof(why)))
		return NULL;
	cu->nfigs++;
	return g;
}

static int repeats_read(const struct jd *o, struct check_unit *cu)
{
	const struct jd *f, *vals, *figs = get(o, "figures");
	const char *name;
	size_t i, oi;

	if (!jd_is_object(o))
		return 0;
	cu->repeated = true;
	jd_object_foreach(figs, oi, name, f) {
		struct check_fig *g = fig_of(cu, name);

		if (!g)
			continue;
		vals = get(f, "values");
		g->spread.n = (unsigned)jd_array_size(vals);
		g->spread.mean = num(f, "mean");
		g->spread.stddev = num(f, "stddev");
		g->spread.cv_pct = num(f, "cv_pct");
		g->spread.min = num(f, "min");
		g->spread.max = num(f, "max");
		g->value = g->spread.mean;
		g->values = calloc(g->spread.n + 1, sizeof(*g->values));
		if (!g->values)
			return -ENOMEM;
		for (i = 0; i < g->spread.n; i++)
			g->values[i] = jd_number_value(jd_array_get(vals,
									i));
	}
	return 0;
}

static void unit_baseline_read(const struct jd *o, struct check_unit *cu)
{
	const struct jd *f, *figs = get(o, "figures");
	const char *name;
	size_t oi;

	if (!jd_is_object(o))
		return;
	cu->in_baseline = true;
	jd_object_foreach(figs, oi, name, f) {
		struct check_fig *g = fig_of(cu, name);

		if (!g)
			continue;
		g->value = num(f, "value");
		g->has_base = true;
		g->base = num(f, "baseline");
		g->has_change = jd_is_number(get(f, "change_pct"));
		g->change_pct = num(f, "change_pct");
	}
}

static int check_units_read(struct rd *c, const struct jd *jobs)
{
	struct check_report *cr = &c->st->checks;
	const struct jd *o;
	size_t i;

	cr->nunits = c->d->set.nunits;
	cr->units = calloc((size_t)cr->nunits + 1, sizeof(*cr->units));
	if (!cr->units)
		return -ENOMEM;
	jd_array_foreach(jobs, i, o) {
		struct check_unit *cu = &cr->units[i];

		cu->job = c->d->set.units[i].job;
		if (repeats_read(get(o, "repeats"), cu))
			return -ENOMEM;
		unit_baseline_read(get(o, "baseline"), cu);
	}
	return 0;
}

static int baseline_read(struct rd *c, const struct jd *o)
{
	struct baseline *b = &c->st->baseline;

	if (!jd_is_object(o))
		return 0;
	b->path = strdup(str(o, "file") ? str(o, "file") : "");
	if (!b->path)
		return -ENOMEM;
	text_into(b->version, sizeof(b->version), str(o, "iorig_version"));
	text_into(b->time, sizeof(b->time), str(o, "time"));
	c->st->checks.baseline = b;
	return 0;
}

/* ---- curves ---- */

static void pcts_read(const struct jd *o, uint64_t *v)
{
	v[0] = u64(o, "50");
	v[1] = u64(o, "99");
	v[2] = u64(o, "99.9");
}

static void point_read(const struct jd *o, struct curve_point *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->pct = num(o, "target_pct");
	pt->target_iops = num(o, "target_iops");
	pt->ran = is_true(o, "ran");
	pt->iops = num(o, "achieved_iops");
	pt->met = is_true(o, "met");
	pcts_read(get(o, "lat_ns"), pt->lat_ns);
	pcts_read(get(o, "sched_lat_ns"), pt->sched_ns);
}

/*
 * A curve names its probe's job: one of the model's own, whose name and
 * sweep point give the curve's label back (curve_label drops the probe's
 * "curve=probe").
 */
static int curves_read(struct rd *c, const struct jd *a)
{
	struct curve_set *cs = &c->st->curves;
	struct plan *p = &c->st->plan;
	size_t n = jd_array_size(a), i, k;
	const struct jd *o;

	if (!n)
		return 0;
	cs->c = calloc(n, sizeof(*cs->c));
	if (!cs->c)
		return -ENOMEM;
	jd_array_foreach(a, i, o) {
		struct curve *cv = &cs->c[cs->n];
		struct job *j = &p->jobs[p->njobs + i];
		const char *name = str(o, "name") ? str(o, "name") : "";
		const char *label = str(o, "label") ? str(o, "label") : "";
		size_t ln = strlen(name);
		const char *rest = !strncmp(label, name, ln) &&
				   label[ln] == ' ' ? label + ln + 1 : "";
		char *sp;

		if (options_defaults(j))
			return -ENOMEM;
		j->desc.name = strdup(name);
		if (!j->desc.name || asprintf(&sp, "%s%scurve=probe", rest,
					      *rest ? " " : "") < 0)
			return -ENOMEM;
		j->plan.sweep_point = sp;
		cv->job = j;
		point_read(get(o, "probe"), &cv->pt[0]);
		cv->npoints = 1;
		for (k = 0; k < jd_array_size(get(o, "points")) &&
		     cv->npoints <= RATE_CURVE_MAX; k++)
			point_read(jd_array_get(get(o, "points"), k),
				   &cv->pt[cv->npoints++]);
		cs->n++;
	}
	return 0;
}

/* ---- a merged result's cluster part ---- */

/* The member labelled s (the first of that label), else 0. */
static unsigned member_named(const struct cluster_info *ci, const char *s)
{
	unsigned i;

	for (i = 0; s && i < ci->nmembers; i++)
		if (!strcmp(ci->members[i].label, s))
			return i;
	return 0;
}

static void done_read(const struct jd *o, const struct cluster_info *ci,
		      struct cluster_done *dn)
{
	dn->at_ns = u64(o, "at_ns");
	dn->ios = num(o, "ios");
	dn->io_bytes = num(o, "io_bytes");
	dn->iops = num(o, "iops");
	dn->bw = num(o, "bw_bytes");
	dn->member = member_named(ci, str(o, "member"));
}

static void spread_read(const struct jd *o, const struct cluster_info *ci,
			struct cluster_spread *sp)
{
	sp->min = num(o, "min");
	sp->median = num(o, "median");
	sp->max = num(o, "max");
	sp->slowest = member_named(ci, str(o, "slowest"));
}

static int cdir_read(const struct jd *o, const struct cluster_info *ci,
		     struct cluster_dir *x)
{
	const struct jd *rows = get(o, "members"), *hosts = get(o, "hosts"), *y;
	unsigned i, k;

	x->rows = calloc(ci->nmembers + 1, sizeof(*x->rows));
	x->hosts = calloc(ci->nhosts + 1, sizeof(*x->hosts));
	if (!x->rows || !x->hosts)
		return -ENOMEM;
	x->common_window_ns = u64(o, "common_window_ns");
	done_read(get(o, "first_done"), ci, &x->first);
	done_read(get(o, "last_done"), ci, &x->last);
	spread_read(get(o, "iops_spread"), ci, &x->iops);
	spread_read(get(o, "bw_spread"), ci, &x->bw);
	for (i = 0; i < ci->nmembers; i++) {
		y = jd_array_get(rows, i);
		x->rows[i].iops = num(y, "iops");
		x->rows[i].bw = num(y, "bw_bytes");
		x->rows[i].ios = u64(y, "ios");
		x->rows[i].io_bytes = u64(y, "io_bytes");
		x->rows[i].runtime_ns = u64(y, "runtime_ns");
		x->rows[i].clat_p99_ns = u64(y, "clat_p99_ns");
	}
	for (i = 0; i < ci->nhosts; i++) {
		y = jd_array_get(hosts, i);
		x->hosts[i].host = i;
		for (k = 0; str(y, "host") && k < ci->nhosts; k++)
			if (!strcmp(ci->hosts[k], str(y, "host")))
				x->hosts[i].host = k;
		x->hosts[i].members = (unsigned)u64(y, "members");
		x->hosts[i].iops = num(y, "iops");
		x->hosts[i].bw = num(y, "bw_bytes");
		x->hosts[i].ios = u64(y, "ios");
		x->hosts[i].io_bytes = u64(y, "io_bytes");
	}
	return 0;
}

static void row_read(const struct jd *o, struct result_row *row)
{
	row->ios = u64(o, "reqs");
	row->bytes = u64(o, "io_bytes");
	row->runtime_ns = u64(o, "runtime_ns");
	row->utime_ns = u64(o, "utime_ns");
	row->stime_ns = u64(o, "stime_ns");
	row->cpu_pct = num(o, "cpu_pct");
	row->us_per_io = num(o, "us_per_io");
	row->lat_mean_ns = num(o, "lat_mean_ns");
	row->lat_p99_ns = u64(o, "lat_p99_ns");
	row->iops = num(o, "iops");
	row->bw_bytes = num(o, "bw_bytes");
}

/* A member as the cluster part lists it, with its own figures of each
 * job (measured: its reads have rates). */
static int cmember_read(struct rd *c, const struct jd *o,
			struct cluster_member_info *m, unsigned njobs)
{
	const struct result_set *s = &c->d->set;
	struct cluster_unit *cu;
	unsigned k;
	int ret = 0;

	m->label = strdup(str(o, "label") ? str(o, "label") : "");
	m->host = strdup(str(o, "host") ? str(o, "host") : "");
	m->jobs = calloc(njobs + 1, sizeof(*m->jobs));
	if (!m->label || !m->host || !m->jobs)
		return -ENOMEM;
	m->rank = (int)jd_integer_value(get(o, "rank"));
	m->start_skew_ns = num(o, "start_skew_ns");
	m->wall_ns = u64(o, "wall_ns");
	m->interrupted = is_true(o, "interrupted");
	/* each job read whole, then packed as the cluster keeps it */
	cu = malloc(sizeof(*cu));
	if (!cu)
		return -ENOMEM;
	for (k = 0; k < njobs && !ret; k++) {
		const struct jd *j = jd_array_get(get(o, "jobs"), k);

		memset(cu, 0, sizeof(*cu));
		cu->u.job = s->units[k].job;
		cu->u.njobs = 1;
		cu->u.nruns = 1;
		result_read_stats(c, j, &cu->u.stats);
		cu->u.stats.nmeasured = jd_is_number(get(get(j, "read"),
							    "iops"));
		cu->has_row = jd_is_object(get(j, "summary"));
		if (cu->has_row)
			row_read(get(j, "summary"), &cu->row);
		ival_series_put(cu->u.stats.intervals);
		steady_free(cu->u.stats.steady);
		ret = cluster_unit_pack(&m->jobs[k], cu);
	}
	free(cu);
	return ret ? ret : c->err;
}

static int cluster_read(struct rd *c, const struct jd *o)
{
	const struct jd *mem = get(o, "members"), *hosts = get(o, "hosts");
	const struct jd *jobs = get(o, "jobs");
	struct cluster_info *ci = calloc(1, sizeof(*ci));
	unsigned i, n = (unsigned)jd_array_size(mem);
	int d, ret = 0;

	c->d->cluster = ci;
	if (!ci)
		return -ENOMEM;
	ci->njobs = (unsigned)c->d->set.nunits;
	if (jd_array_size(jobs) < ci->njobs)
		ci->njobs = (unsigned)jd_array_size(jobs);
	ci->members = calloc(n + 1, sizeof(*ci->members));
	ci->hosts = calloc(jd_array_size(hosts) + 1, sizeof(*ci->hosts));
	ci->jobs = calloc(ci->njobs + 1, sizeof(*ci->jobs));
	if (!ci->members || !ci->hosts || !ci->jobs)
		return -ENOMEM;
	for (i = 0; i < jd_array_size(hosts); i++) {
		ci->hosts[i] = strdup(jd_string_value(jd_array_get(hosts,
					i)) ?: "");
		if (!ci->hosts[i])
			return -ENOMEM;
		ci->nhosts++;
	}
	ci->start_skew_max_ns = num(o, "start_skew_max_ns");
	for (i = 0; i < n && !ret; i++) {
		ci->nmembers++;
		ret = cmember_read(c, jd_array_get(mem, i), &ci->members[i],
				   ci->njobs);
	}
	for (i = 0; i < ci->njobs && !ret; i++)
		for (d = 0; d < DDIR_NR && !ret; d++)
			ret = cdir_read(get(jd_array_get(jobs, i),
					    dir_key[d]), ci,
					&ci->jobs[i].dir[d]);
	return ret;
}

/* ---- the document ---- */

static void host_read(const struct jd *o, struct run_result *r)
{
	text_into(r->hostname, sizeof(r->hostname), str(o, "hostname"));
	text_into(r->kernel, sizeof(r->kernel), str(o, "kernel"));
	text_into(r->cpu_model, sizeof(r->cpu_model), str(o, "cpu_model"));
	r->ncpus = (unsigned)u64(o, "ncpus");
	r->memory_bytes = u64(o, "memory_bytes");
}

static int signal_read(const char *s)
{
	const char *a;
	int i;

	if (!s)
		return 0;
	for (i = 1; i < NSIG; i++) {
		a = sigabbrev_np(i);
		if (a && !strncmp(s, "SIG", 3) && !strcmp(s + 3, a))
			return i;
	}
	i = atoi(s);
	return i > 0 ? i : SIGINT;
}

static int argv_read(struct rd *c, const struct jd *a, struct run_result *r)
{
	size_t n = jd_array_size(a), i;
	char **v = calloc(n + 1, sizeof(*v));

	if (!v || !keep(c, "")) {	/* a slot the store frees v by */
		free(v);
		return -ENOMEM;
	}
	free(c->st->strs[c->st->nstrs - 1]);
	c->st->strs[c->st->nstrs - 1] = (char *)v;
	for (i = 0; i < n; i++)
		v[i] = keep(c, jd_string_value(jd_array_get(a, i)) ?
			    jd_string_value(jd_array_get(a, i)) : "");
	r->argc = (int)n;
	r->argv = v;
	return c->err;
}

static int disks_read(const struct jd *a, struct sysinfo_disks *s)
{
	const struct jd *o;
	size_t i;

	s->n = (unsigned)jd_array_size(a);
	s->d = s->n ? calloc(s->n, sizeof(*s->d)) : NULL;
	if (s->n && !s->d)
		return -ENOMEM;
	jd_array_foreach(a, i, o) {
		struct sysinfo_diskstat *d = &s->d[i].sum;

		text_into(d->name, sizeof(d->name), str(o, "name"));
		d->rd_ios = u64(o, "read_ios");
		d->wr_ios = u64(o, "write_ios");
		d->rd_merges = u64(o, "read_merges");
		d->wr_merges = u64(o, "write_merges");
		d->rd_sectors = u64(o, "read_sectors");
		d->wr_sectors = u64(o, "write_sectors");
		d->rd_ticks = u64(o, "read_ticks_ms");
		d->wr_ticks = u64(o, "write_ticks_ms");
		d->io_ticks = u64(o, "io_ticks_ms");
		d->time_in_queue = u64(o, "in_queue_ms");
		s->d[i].wall_ns = u64(o, "watched_ns");
	}
	return 0;
}

static void nvme_health_read(const struct jd *o, struct nvmedev_health *h)
{
	h->data_units_read = u64(o, "data_units_read");
	h->data_units_written = u64(o, "data_units_written");
	h->host_read_commands = u64(o, "host_read_commands");
	h->host_write_commands = u64(o, "host_write_commands");
	h->media_errors = u64(o, "media_errors");
	h->error_log_entries = u64(o, "error_log_entries");
	h->power_on_hours = u64(o, "power_on_hours");
	h->unsafe_shutdowns = u64(o, "unsafe_shutdowns");
	h->critical_warning = (uint8_t)u64(o, "critical_warning");
	h->temperature = (int)jd_integer_value(get(o, "temperature_c"));
	h->avail_spare = (uint8_t)u64(o, "available_spare_pct");
	h->percentage_used = (uint8_t)u64(o, "percentage_used");
}

/* An NVMe device's error log entries (at most what d keeps). */
static void nvme_errors_read(const struct jd *a, struct nvmedev_dev *d)
{
	const struct jd *o;
	struct nvmedev_errent *e;
	size_t i;

	d->nerrs = 0;
	jd_array_foreach(a, i, o) {
		if (d->nerrs == NVMEDEV_ERRS_MAX)
			break;
		e = &d->errs[d->nerrs++];
		e->count = u64(o, "error_count");
		e->sqid = (uint16_t)u64(o, "sqid");
		e->cmdid = (uint16_t)u64(o, "cmdid");
		e->status = (uint16_t)u64(o, "status");
		e->lba = u64(o, "lba");
		e->nsid = (uint32_t)u64(o, "nsid");
		e->pel = (uint16_t)u64(o, "parm_error_location");
	}
}

/* nvme: health_delta is derived (after - before). */
static int nvme_read(const struct jd *a, struct nvmedev_set *s)
{
	const struct jd *o;
	size_t i;

	s->n = (unsigned)jd_array_size(a);
	s->d = s->n ? calloc(s->n, sizeof(*s->d)) : NULL;
	if (s->n && !s->d)
		return -ENOMEM;
	jd_array_foreach(a, i, o) {
		struct nvmedev_dev *d = &s->d[i];

		text_into(d->name, sizeof(d->name), str(o, "name"));
		text_into(d->target, sizeof(d->target), str(o, "target"));
		text_into(d->id.model, sizeof(d->id.model), str(o, "model"));
		text_into(d->id.serial, sizeof(d->id.serial),
			  str(o, "serial"));
		text_into(d->id.firmware, sizeof(d->id.firmware),
			  str(o, "firmware"));
		d->id.nsid = (uint32_t)u64(o, "nsid");
		d->id.nsze = u64(o, "blocks");
		d->id.lbaf = (uint8_t)u64(o, "lba_format");
		d->id.lba_size = (uint32_t)u64(o, "lba_size");
		d->id.ms = (uint16_t)u64(o, "metadata_size");
		d->id.extended = is_true(o, "extended_lba");
		d->id.pi_type = (uint8_t)u64(o, "pi_type");
		d->id.zoned = is_true(o, "zoned");
		d->err = str(o, "error") ? -EIO : 0;
		d->have_before = jd_is_object(get(o, "health_before"));
		d->have_after = jd_is_object(get(o, "health_after"));
		if (d->have_before)
			nvme_health_read(get(o, "health_before"), &d->before);
		if (d->have_after)
			nvme_health_read(get(o, "health_after"), &d->after);
		if (jd_is_array(get(o, "error_log")))
			nvme_errors_read(get(o, "error_log"), d);
	}
	return 0;
}

static void warnings_read(const struct jd *a, struct warn_list *w)
{
	const struct jd *o;
	size_t i;

	jd_array_foreach(a, i, o)
		warn_add(w, str(o, "code") ? str(o, "code") : "",
			 str(o, "job"), "%s", str(o, "message") ?
			 str(o, "message") : "");
}

static int header_read(struct rd *c, const struct jd *root)
{
	struct run_result *r = &c->d->r;

	r->version = keep(c, str(root, "iorig_version"));
	r->start_time = (time_t)jd_integer_value(get(root, "timestamp"));
	r->start_time_ms = (uint64_t)r->start_time * 1000;
	host_read(get(root, "host"), r);
	r->signo = is_true(root, "interrupted") ?
		   signal_read(str(root, "signal")) : 0;
	r->wall_ns = u64(root, "wall_ns");
	cpu_read(get(root, "cpu"), &r->proc_cpu);
	r->terse_version = 3;
	warnings_read(get(root, "warnings"), &r->warnings);
	if (disks_read(get(root, "disk_util"), &r->disks))
		return -ENOMEM;
	if (nvme_read(get(root, "nvme"), &r->nvme))
		return -ENOMEM;
	return argv_read(c, get(root, "command_line"), r);
}

static int model_alloc(struct rd *c, size_t nu, size_t ng, size_t nc)
{
	struct result_set *s = &c->d->set;
	struct plan *p = &c->st->plan;

	/* the units' jobs, then one per curve (its probe's name) */
	p->jobs = calloc(nu + nc + 1, sizeof(*p->jobs));
	c->st->targets = calloc(nu + 1, sizeof(*c->st->targets));
	/* no spare element: a unit is most of a megabyte to zero (its
	 * histograms), and a merge reads one document after another */
	s->units = calloc(nu ? nu : 1, sizeof(*s->units));
	s->groups = calloc(ng ? ng : 1, sizeof(*s->groups));
	s->group_njobs = calloc(ng + 1, sizeof(*s->group_njobs));
	s->group_first = calloc(ng + 1, sizeof(*s->group_first));
	if (!p->jobs || !c->st->targets || !s->units || !s->groups ||
	    !s->group_njobs || !s->group_first)
		return -ENOMEM;
	p->ngroups = (unsigned)ng;
	return 0;
}

static int doc_read(struct rd *c, const struct jd *root)
{
	const struct jd *jobs = get(root, "jobs"), *groups = get(root, "groups");
	struct result_set *s = &c->d->set;
	struct plan *p = &c->st->plan;
	size_t nu = jd_array_size(jobs), ng = jd_array_size(groups), i;
	int ret;

	c->agg = jd_is_object(get(root, "cluster"));
	ret = model_alloc(c, nu, ng, jd_array_size(get(root, "curves")));
	if (!ret)
		ret = header_read(c, root);
	for (i = 0; !ret && i < nu; i++) {
		ret = unit_read(c, jd_array_get(jobs, i), i);
		p->njobs = ++s->nunits;
	}
	for (i = 0; !ret && i < ng; i++) {
		s->ngroups++;
		ret = group_read(c, jd_array_get(groups, i), i);
	}
	if (!ret)
		ret = check_units_read(c, jobs);
	if (!ret)
		ret = checks_read(c, get(root, "checks"));
	if (!ret)
		ret = baseline_read(c, get(root, "baseline"));
	if (!ret)
		ret = curves_read(c, get(root, "curves"));
	if (!ret && c->agg)
		ret = cluster_read(c, get(root, "cluster"));
	return ret ? ret : c->err;
}

static void store_free(struct result_store *st, struct result_set *s)
{
	size_t i;
	int k;

	for (k = 0; k < s->nunits; k++) {
		steady_free(s->units[k].stats.steady);
		free(s->units[k].stats.zbd);
	}
	s->borrowed = false;
	result_set_free(s);
	for (i = 0; st->targets && i < st->plan.njobs; i++) {
		for (k = 0; k < (int)st->targets[i].n; k++)
			free(st->targets[i].t[k].path);
		free(st->targets[i].t);
	}
	free(st->targets);
	/* the curves' jobs are the plan's too */
	st->plan.njobs += st->curves.n;
	plan_free(&st->plan);
	for (k = 0; k < st->checks.nunits; k++)
		for (i = 0; i < st->checks.units[k].nfigs; i++)
			free(st->checks.units[k].figs[i].values);
	free(st->checks.units);
	free(st->checks.results);
	free(st->defs);
	free(st->baseline.path);
	curve_set_free(&st->curves);
	for (i = 0; i < st->nstrs; i++)
		free(st->strs[i]);
	free(st->strs);
	free(st);
}

void result_doc_free(struct result_doc *d)
{
	cluster_info_free(d->cluster);
	if (d->store) {
		store_free(d->store, &d->set);
		warn_exit(&d->r.warnings);
		sysinfo_disks_free(&d->r.disks);
		nvmedev_set_free(&d->r.nvme);
	}
	memset(d, 0, sizeof(*d));
}

/* Reads root (strict: refused unless whole) into d: 0, or -EINVAL with
 * c->why, or -ENOMEM. */
static int doc_from(struct result_doc *d, const struct jd *root, bool strict,
		    char *why, size_t len)
{
	struct rd c = { .d = d, .strict = strict };
	int ret;

	memset(d, 0, sizeof(*d));
	if (not_a_result(root, strict, why, len))
		return -EINVAL;
	if (strict && !strict_ok(&c, root)) {
		snprintf(why, len, "%s", c.why);
		return -EINVAL;
	}
	d->store = c.st = calloc(1, sizeof(*c.st));
	if (!d->store)
		return -ENOMEM;
	warn_init(&d->r.warnings, NULL);
	warn_init(&c.st->plan.warnings, NULL);
	ret = doc_read(&c, root);
	d->r.plan = &c.st->plan;
	d->r.targets = c.st->targets;
	d->r.set = &d->set;
	d->set.borrowed = true;	/* the store's: result_doc_free frees it */
	d->r.checks = &c.st->checks;
	d->r.curves = &c.st->curves;
	d->r.cluster = d->cluster;
	if (ret) {
		result_doc_free(d);
		snprintf(why, len, "out of memory");
	}
	return ret;
}

static int read_jd(struct result_doc *d, const struct jd *root,
		   const char *name, unsigned flags, struct err_rec *e)
{
	char why[300];
	int ret = doc_from(d, root, flags & RESULT_READ_STRICT, why,
			   sizeof(why));

	if (ret)
		err_set(e, name, 0, "", "%s", why);
	return ret;
}

int result_read_json(struct result_doc *d, const struct json_t *root,
		     const char *name, unsigned flags, struct err_rec *e)
{
	struct jd_doc jd;
	int ret;

	memset(d, 0, sizeof(*d));
	if (jd_from_jansson(&jd, root)) {
		err_set(e, name, 0, "", "out of memory");
		return -ENOMEM;
	}
	ret = read_jd(d, jd.root, name, flags, e);
	jd_free(&jd);
	return ret;
}

int result_read(struct result_doc *d, const char *text, size_t len,
		const char *name, unsigned flags, struct err_rec *e)
{
	struct jd_doc jd;
	char why[240];
	int ret;

	memset(d, 0, sizeof(*d));
	ret = jd_load(&jd, text, len, why, sizeof(why));
	if (ret == -ENOMEM) {
		err_set(e, name, 0, "", "out of memory");
		return ret;
	}
	if (ret) {
		err_set(e, name, 0, "", "not a JSON document (%s); expected an "
			"iorig JSON result (--output-format=json)", why);
		return -EINVAL;
	}
	ret = read_jd(d, jd.root, name, flags, e);
	jd_free(&jd);
	return ret;
}

int result_read_file(struct result_doc *d, const char *path, unsigned flags,
		     struct err_rec *e)
{
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "re");
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;
	struct stat st;
	int ret;

	memset(d, 0, sizeof(*d));
	if (!f) {
		err_set(e, path, 0, "", "cannot be read: %s", strerror(errno));
		return -errno;
	}
	/* a regular file's size read in one buffer, with a byte to spare
	 * for the read that finds its end (no copy as the buffer grows) */
	if (!in && !fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX / 2)
		cap = (size_t)st.st_size + 1;
	buf = cap ? malloc(cap) : NULL;
	if (cap && !buf)
		cap = 0;
	/* one read of the whole file (jansson's own reads a byte at a
	 * time) */
	do {
		if (len == cap) {
			nb = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!nb) {
				ret = -ENOMEM;
				err_set(e, path, 0, "", "out of memory");
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		ret = -EIO;
		err_set(e, path, 0, "", "cannot be read: %s", strerror(errno));
		goto out;
	}
	ret = result_read(d, buf, len, in ? "<stdin>" : path, flags, e);
out:
	free(buf);
	if (!in)
		fclose(f);
	return ret;
}

bool result_doc_repeats_mean(const struct result_doc *d, int i,
			     const char *name, double *out)
{
	const struct check_unit *cu = check_unit_at(d->r.checks, i);
	unsigned k;

	for (k = 0; cu && cu->repeated && k < cu->nfigs; k++)
		if (!strcmp(cu->figs[k].m.name, name)) {
			*out = cu->figs[k].spread.mean;
			return true;
		}
	return false;
}
