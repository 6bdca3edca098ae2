// SPDX-License-Identifier: MIT
/*
 * --stream=FILE: interval samples as JSON lines (see stream.h), each line
 * made by the JSON writer (report.h: report_json_stream_line), which
 * spells the keys the report's "intervals" share.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stream.h"

struct stream {
	FILE *f;
	const struct plan *plan;
	struct ival_iter *at;	/* per job: the next sample to write */
	int err;		/* first failed write, -errno */
};

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

static int write_line(struct stream *s, const struct job *j, size_t index,
		      const struct ival_sample *smp)
{
	json_t *o = report_json_stream_line(j, index, smp);
	int ret = 0;

	if (!o)
		return -ENOMEM;
	if (json_dumpf(o, s->f, JSON_COMPACT | JSON_REAL_PRECISION(12)) ||
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
