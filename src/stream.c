// SPDX-License-Identifier: MIT
/*
 * --stream=FILE: interval samples as JSON lines (see stream.h), and the
 * JSON of a sample that the report shares.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

struct stream {
	FILE *f;
	const struct plan *plan;
	struct ival_iter *at;	/* per job: the next sample to write */
	int err;		/* first failed write, -errno */
};

static const char *const dir_key[DDIR_NR] = { "read", "write" };

struct stream *stream_new(FILE *f, const struct plan *p)
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->at = calloc(p->njobs ? p->njobs : 1, sizeof(*s->at));
	if (!s->at) {
		free(s);
		return NULL;
	}
	s->f = f;
	s->plan = p;
	return s;
}

/* Builds o's members; counts failures in *bad rather than branching. */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(o, key, v))
		(*bad)++;
}

static json_t *j_u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *j_real(double v)
{
	return json_real(isfinite(v) ? v : 0.0);
}

static json_t *j_dir(const struct ival_sample *smp, int d, int *bad)
{
	const struct ival_dir *x = &smp->dir[d];
	json_t *o = json_object();

	if (!o)
		return NULL;
	put(o, "ios", j_u64(x->ios), bad);
	put(o, "bytes", j_u64(x->bytes), bad);
	put(o, "iops", j_real(ival_iops(smp, d)), bad);
	put(o, "bw_bytes", j_real(ival_bw(smp, d)), bad);
	put(o, "lat_p50_ns", j_u64(hist_sparse_percentile(&x->lat, 50)), bad);
	put(o, "lat_p99_ns", j_u64(hist_sparse_percentile(&x->lat, 99)), bad);
	put(o, "lat_max_ns", j_u64(x->lat.count ? x->lat.max : 0), bad);
	return o;
}

int stream_put_sample(json_t *o, const struct ival_sample *smp)
{
	int d, bad = 0;

	put(o, "start_ns", j_u64(smp->start_ns), &bad);
	put(o, "end_ns", j_u64(smp->end_ns), &bad);
	for (d = 0; d < DDIR_NR; d++)
		put(o, dir_key[d], j_dir(smp, d, &bad), &bad);
	return bad ? -1 : 0;
}

/*
 * JSON strings must be UTF-8; job names need not be: a name that is not
 * becomes its ASCII bytes with '?' for the others, as in the report.
 */
static json_t *j_str(const char *str)
{
	json_t *v = json_string(str);
	char *t;
	size_t i;

	if (v)
		return v;
	t = strdup(str);
	if (!t)
		return NULL;
	for (i = 0; t[i]; i++)
		if ((unsigned char)t[i] >= 0x80)
			t[i] = '?';
	v = json_string(t);
	free(t);
	return v;
}

static int write_line(struct stream *s, const struct job *j, size_t index,
		      const struct ival_sample *smp)
{
	json_t *o = json_object();
	int bad = 0, ret = 0;

	if (!o)
		return -ENOMEM;
	put(o, "job", j_str(j->name ? j->name : ""), &bad);
	put(o, "clone", json_integer(j->clone), &bad);
	put(o, "sweep_point", j->sweep_point ? j_str(j->sweep_point) :
	    json_null(), &bad);
	put(o, "index", j_u64(index), &bad);
	if (bad || stream_put_sample(o, smp))
		ret = -ENOMEM;
	else if (json_dumpf(o, s->f, JSON_COMPACT | JSON_REAL_PRECISION(12)) ||
		 fputc('\n', s->f) == EOF || fflush(s->f) || ferror(s->f))
		ret = errno ? -errno : -EIO;
	json_decref(o);
	return ret;
}

void stream_poll(struct stream *s, size_t i, const struct ival_series *series)
{
	const struct ival_sample *smp;
	size_t index;

	if (!s || !series || i >= s->plan->njobs)
		return;
	while (!s->err) {
		index = s->at[i].index;
		smp = ival_iter_next(&s->at[i], series);
		if (!smp)
			return;
		errno = 0;
		s->err = write_line(s, &s->plan->jobs[i], index, smp);
	}
}

int stream_close(struct stream *s)
{
	int ret;

	if (!s)
		return 0;
	ret = s->err;
	errno = 0;
	if (fclose(s->f) && !ret)
		ret = errno ? -errno : -EIO;
	free(s->at);
	free(s);
	return ret;
}
