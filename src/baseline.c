// SPDX-License-Identifier: MIT
/*
 * --baseline=FILE: an earlier JSON result, read with jansson, and the
 * figures of its jobs by metric (include/metric.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "baseline.h"
#include "hist.h"
#include "resjson.h"

/* The schema_version values of report/json.c that this reader knows. */
#define BASELINE_SCHEMA_MIN	1
#define BASELINE_SCHEMA_MAX	1

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;
static const char *const hist_key[] = { "slat_ns", "clat_ns", "lat_ns",
					   "sched_lat_ns" };
static const char *const stat_key[] = { "min", "max", "mean", "stddev" };

/* JSON keys of the per-direction figures, by enum metric_kind. */
static const char *dir_figure_key(int kind)
{
	switch (kind) {
	case MK_IOPS:
		return "iops";
	case MK_BW:
		return "bw_bytes";
	case MK_IO_BYTES:
		return "io_bytes";
	case MK_IOS:
		return "ios";
	case MK_DIR_ERRORS:
		return "errors";
	case MK_SHORT_IOS:
		return "short_ios";
	}
	return NULL;
}

static const char *str_member(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* What makes a document an iorig result; NULL when it is one. */
static const char *not_a_result(const json_t *root)
{
	const json_t *jobs = json_object_get(root, "jobs"), *j;
	size_t i;

	if (!json_is_object(root))
		return "the document is not a JSON object";
	if (!str_member(root, "iorig_version") ||
	    !json_is_integer(json_object_get(root, "schema_version")))
		return "it has no iorig_version and schema_version";
	if (!json_is_array(jobs))
		return "it has no jobs array";
	json_array_foreach(jobs, i, j)
		if (!str_member(j, "name"))
			return "a member of jobs has no name";
	return NULL;
}

static int load_fail(struct err_rec *e, const char *path, int ret,
		     const char *what, const char *detail)
{
	err_set(e, path, 0, "baseline", "%s%s%s", what, detail ? ": " : "",
		detail ? detail : "");
	return ret;
}

static int check_doc(struct baseline *b, const char *path, struct err_rec *e)
{
	const json_t *root = b->root;
	const char *why = not_a_result(root);
	json_int_t v;

	if (why)
		return load_fail(e, path, -EINVAL, "not an iorig JSON result "
				 "(--output-format=json)", why);
	v = json_integer_value(json_object_get(root, "schema_version"));
	if (v < BASELINE_SCHEMA_MIN || v > BASELINE_SCHEMA_MAX) {
		err_set(e, path, 0, "baseline", "schema_version %lld is not "
			"supported; this iorig reads schema_version %d",
			(long long)v, BASELINE_SCHEMA_MAX);
		return -EINVAL;
	}
	snprintf(b->version, sizeof(b->version), "%s",
		 str_member(root, "iorig_version"));
	snprintf(b->time, sizeof(b->time), "%s",
		 str_member(root, "time") ? str_member(root, "time") : "");
	return 0;
}

int baseline_load(struct baseline *b, const char *path, struct err_rec *e)
{
	json_error_t jerr;
	char detail[256];
	FILE *f;

	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	if (!b->path)
		return load_fail(e, path, -ENOMEM, "out of memory", NULL);
	f = fopen(path, "re");
	if (!f)
		return load_fail(e, path, -errno, "cannot open",
				 strerror(errno));
	b->root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!b->root) {
		snprintf(detail, sizeof(detail), "%s at line %d", jerr.text,
			 jerr.line);
		return load_fail(e, path, -EINVAL, "not a JSON document",
				 detail);
	}
	return check_doc(b, path, e);
}

void baseline_free(struct baseline *b)
{
	json_decref(b->root);
	free(b->path);
	memset(b, 0, sizeof(*b));
}

static bool same_text(const json_t *v, const char *s)
{
	if (!s)
		return json_is_null(v);
	return json_is_string(v) && !strcmp(json_string_value(v), s);
}

const struct baseline_job *baseline_find(const struct baseline *b,
					 const struct job *j)
{
	const json_t *jobs = json_object_get(b->root, "jobs"), *x, *clone;
	size_t i;

	json_array_foreach(jobs, i, x) {
		clone = json_object_get(x, "clone");
		if (!same_text(json_object_get(x, "name"), j->name) ||
		    !same_text(json_object_get(x, "sweep_point"),
			       j->sweep_point) ||
		    !json_is_true(json_object_get(x, "ran")))
			continue;
		if (j->group_reporting ? json_is_null(clone) :
		    json_is_integer(clone) &&
		    json_integer_value(clone) == (json_int_t)j->clone)
			return (const struct baseline_job *)x;
	}
	return NULL;
}

/* o[key] (resjson.h): 0, or -ENOENT when absent. */
static int number(const json_t *o, const char *key, double *out)
{
	return resjson_get(o, key, out) ? 0 : -ENOENT;
}

/* A histogram object of the report back into a struct hist: its buckets,
 * count, overflow, min and max are what hist_percentile reads. */
static int hist_from_json(const json_t *o, struct hist *h)
{
	const json_t *buckets = json_object_get(o, "buckets"), *bk;
	json_int_t lo, n;
	size_t i;

	hist_init(h);
	if (!json_is_array(buckets) ||
	    !json_is_integer(json_object_get(o, "count")))
		return -ENOENT;
	h->count = (uint64_t)json_integer_value(json_object_get(o, "count"));
	h->overflow = (uint64_t)json_integer_value(json_object_get(o,
								   "overflow"));
	h->min = (uint64_t)json_integer_value(json_object_get(o, "min"));
	h->max = (uint64_t)json_integer_value(json_object_get(o, "max"));
	json_array_foreach(buckets, i, bk) {
		lo = json_integer_value(json_array_get(bk, 0));
		n = json_integer_value(json_array_get(bk, 2));
		if (lo < 0 || n < 0 || (uint64_t)lo >> HIST_MAX_BITS)
			return -ENOENT;
		h->b[hist_index((uint64_t)lo)] += (uint64_t)n;
	}
	return 0;
}

static int hist_figure(const json_t *o, const struct metric *m, double *out)
{
	struct hist *h;
	int ret;

	if (!json_is_object(o))
		return -ENOENT;
	if (m->stat != MS_PCT)
		return number(o, stat_key[m->stat], out);
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	ret = hist_from_json(o, h);
	if (!ret)
		*out = (double)hist_percentile(h, m->pct);
	free(h);
	return ret;
}

static int dir_figure(const json_t *job, const struct metric *m,
		      double *out)
{
	const json_t *d = json_object_get(job, dir_key[m->dir]);

	if (!json_is_object(d))
		return -ENOENT;
	if (m->kind == MK_HIST)
		return hist_figure(json_object_get(d, hist_key[m->hist]), m,
				   out);
	return number(d, dir_figure_key(m->kind), out);
}

static int unit_figure(const json_t *job, const struct metric *m,
		       double *out)
{
	const json_t *v;
	double r, w, t = 0;

	switch (m->kind) {
	case MK_ERRORS:
		if (number(json_object_get(job, "read"), "errors", &r) ||
		    number(json_object_get(job, "write"), "errors", &w))
			return -ENOENT;
		/* A report from before trims has none. */
		v = json_object_get(job, "trim");
		if (v && number(v, "errors", &t))
			return -ENOENT;
		*out = r + w + t;
		return 0;
	case MK_CPU_US_PER_IO:
		return number(json_object_get(job, "summary"), "us_per_io",
			      out);
	case MK_CPU_PCT:
		return number(json_object_get(job, "summary"), "cpu_pct", out);
	case MK_RUNTIME:
		return number(job, "runtime_ns", out);
	case MK_VERIFY_MISMATCHES:
		v = json_object_get(job, "verify");
		if (json_is_null(v)) {
			*out = 0;
			return 0;
		}
		return number(v, "mismatches", out);
	}
	return -ENOENT;
}

int baseline_value(const struct baseline_job *bj, const struct metric *m,
		   double *out)
{
	const json_t *job = (const json_t *)bj;
	const json_t *fig = json_object_get(json_object_get(
		json_object_get(job, "repeats"), "figures"), m->name);

	if (json_is_object(fig) && !number(fig, "mean", out))
		return 0;
	if (m->dir >= 0)
		return dir_figure(job, m, out);
	return unit_figure(job, m, out);
}
