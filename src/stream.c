// SPDX-License-Identifier: MIT
/*
 * --stream=FILE: interval samples as JSON lines (see stream.h), and the
 * JSON of a sample that the report shares.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "stream.h"

struct stream {
	FILE *f;
	const struct plan *plan;
	struct ival_iter *at;	/* per job: the next sample to write */
	int err;		/* first failed write, -errno */
};

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

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

static json_t *j_dir(struct jw *c, const struct ival_sample *smp, int d)
{
	const struct ival_dir *x = &smp->dir[d];
	json_t *o = json_object();

	if (!o)
		return NULL;
	jw_put(c, o, "ios", jw_u64(x->ios));
	jw_put(c, o, "bytes", jw_u64(x->bytes));
	jw_put(c, o, "iops", jw_real(ival_iops(smp, d)));
	jw_put(c, o, "bw_bytes", jw_real(ival_bw(smp, d)));
	jw_put(c, o, "lat_p50_ns", jw_u64(hist_sparse_percentile(&x->lat, 50)));
	jw_put(c, o, "lat_p99_ns", jw_u64(hist_sparse_percentile(&x->lat, 99)));
	jw_put(c, o, "lat_max_ns", jw_u64(x->lat.count ? x->lat.max : 0));
	return o;
}

int stream_put_sample(json_t *o, const struct ival_sample *smp)
{
	struct jw c = { 0 };
	int d;

	jw_put(&c, o, "start_ns", jw_u64(smp->start_ns));
	jw_put(&c, o, "end_ns", jw_u64(smp->end_ns));
	for (d = 0; d < DDIR_NR; d++)
		jw_put(&c, o, dir_key[d], j_dir(&c, smp, d));
	return c.failed ? -1 : 0;
}

static int write_line(struct stream *s, const struct job *j, size_t index,
		      const struct ival_sample *smp)
{
	json_t *o = json_object();
	struct jw c = { 0 };
	int ret = 0;

	if (!o)
		return -ENOMEM;
	jw_put(&c, o, "job", jw_str(j->name));
	jw_put(&c, o, "clone", json_integer(j->clone));
	jw_put(&c, o, "sweep_point", j->sweep_point ? jw_str(j->sweep_point) :
	       json_null());
	jw_put(&c, o, "index", jw_u64(index));
	if (c.failed || stream_put_sample(o, smp))
		ret = -ENOMEM;
	else if (json_dumpf(o, s->f, JSON_COMPACT | JSON_REAL_PRECISION(12)) ||
		 fputc('\n', s->f) == EOF || fflush(s->f) || ferror(s->f))
		ret = errno ? -errno : -EIO;
	json_decref(o);
	return ret;
}

/* After a write error the samples are still taken, to be freed. */
void stream_poll(struct stream *s, size_t i, struct ival_series *series)
{
	const struct ival_sample *smp;
	size_t index;

	if (!s || !series || i >= s->plan->njobs)
		return;
	for (;;) {
		index = s->at[i].index;
		smp = ival_stream_next(&s->at[i], series);
		if (!smp)
			return;
		errno = 0;
		if (!s->err)
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
