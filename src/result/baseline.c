// SPDX-License-Identifier: MIT
/*
 * --baseline=FILE: an earlier JSON result read back into the result model
 * (result_read), and the figures of its units by metric, computed by the
 * one metric function the checks use on this run's units
 * (result_metric): a baseline's figure is what its own run reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "result.h"

/* One unit of the baseline. */
struct baseline_job {
	const struct result_doc *doc;
	const struct result_unit *u;
	int i;			/* its index among the document's units */
};

static int load_fail(struct err_rec *e, const char *path, int ret,
		     const char *what, const char *detail)
{
	err_set(e, path, 0, "baseline", "%s%s%s", what, detail ? ": " : "",
		detail ? detail : "");
	return ret;
}

/* The whole file at path into *text (*len bytes): 0 or -errno with e. */
static int slurp(const char *path, char **text, size_t *len,
		 struct err_rec *e)
{
	FILE *f = fopen(path, "re");
	size_t cap = 0, n;
	char *nb;
	int ret = 0;

	*text = NULL;
	*len = 0;
	if (!f)
		return load_fail(e, path, -errno, "cannot open",
				 strerror(errno));
	do {
		if (*len == cap) {
			nb = realloc(*text, cap = cap ? 2 * cap : 65536);
			if (!nb) {
				ret = load_fail(e, path, -ENOMEM,
						"out of memory", NULL);
				break;
			}
			*text = nb;
		}
		n = fread(*text + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	if (!ret && ferror(f))
		ret = load_fail(e, path, -EIO, "cannot read", strerror(errno));
	fclose(f);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

/* b->jobs: one per unit of the document. */
static int jobs_index(struct baseline *b)
{
	const struct result_doc *d = b->doc;
	struct baseline_job *v;
	int i;

	v = calloc((size_t)d->set.nunits + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < d->set.nunits; i++) {
		v[i].doc = d;
		v[i].u = &d->set.units[i];
		v[i].i = i;
	}
	b->jobs = v;
	return 0;
}

int baseline_load(struct baseline *b, const char *path, struct err_rec *e)
{
	char *text;
	size_t len;
	int ret;

	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	b->doc = calloc(1, sizeof(*b->doc));
	if (!b->path || !b->doc)
		return load_fail(e, path, -ENOMEM, "out of memory", NULL);
	ret = slurp(path, &text, &len, e);
	if (ret)
		return ret;
	ret = result_read(b->doc, text, len, path, 0, e);
	free(text);
	if (ret) {
		snprintf(e->option, sizeof(e->option), "baseline");
		return ret;
	}
	if (jobs_index(b))
		return load_fail(e, path, -ENOMEM, "out of memory", NULL);
	snprintf(b->version, sizeof(b->version), "%s",
		 b->doc->r.version ? b->doc->r.version : "");
	result_time_iso(b->doc->r.start_time, b->time, sizeof(b->time));
	return 0;
}

void baseline_free(struct baseline *b)
{
	if (b->doc)
		result_doc_free(b->doc);
	free(b->doc);
	free(b->jobs);
	free(b->path);
	memset(b, 0, sizeof(*b));
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

const struct baseline_job *baseline_find(const struct baseline *b,
					 const struct job *j)
{
	int i;

	for (i = 0; b->doc && i < b->doc->set.nunits; i++) {
		const struct result_unit *u = b->jobs[i].u;
		const struct job *x = u->job;

		if (!same_text(x->desc.name, j->desc.name) ||
		    !same_text(x->plan.sweep_point, j->plan.sweep_point) ||
		    !u->stats.nclones)
			continue;
		if (j->report.group_reporting ? x->report.group_reporting :
		    !x->report.group_reporting &&
		    x->plan.clone == j->plan.clone)
			return &b->jobs[i];
	}
	return NULL;
}

int baseline_value(const struct baseline_job *bj, const struct metric *m,
		   double *out)
{
	const struct job_stats *s = &bj->u->stats;
	struct result_row row;

	if (result_doc_repeats_mean(bj->doc, bj->i, m->name, out))
		return 0;
	/* stopped during ramp_time: it reported no rates, no summary */
	if (s->nclones && !s->nmeasured &&
	    (m->kind == MK_IOPS || m->kind == MK_BW ||
	     m->kind == MK_CPU_US_PER_IO || m->kind == MK_CPU_PCT))
		return -ENOENT;
	result_row(&bj->doc->r, bj->u, &row);
	*out = result_metric(m, s, &row);
	return 0;
}
