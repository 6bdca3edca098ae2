/* SPDX-License-Identifier: MIT */
#ifndef IORIG_BASELINE_H
#define IORIG_BASELINE_H

#include "err.h"
#include "job.h"
#include "metric.h"

/*
 * --baseline=FILE: an earlier result of --output-format=json, read once
 * before anything runs, into the result model (result.h: result_read).
 * Its units are matched to this run's by name, sweep_point and clone
 * (none for a group_reporting unit), as jobs[] identifies them; a job
 * that did not run there has no figures.
 */
struct result_doc;
struct baseline_job;

struct baseline {
	char *path;
	struct result_doc *doc;		/* the result read back */
	struct baseline_job *jobs;	/* one per unit of doc */
	char version[64];	/* its iorig_version */
	char time[64];		/* its time, ISO 8601 */
};

/*
 * Read and check path: a JSON document that is an iorig result of a
 * schema_version this iorig reads. Returns 0, or -errno with e filled
 * (file, option "baseline", what is wrong). Free b either way.
 */
int baseline_load(struct baseline *b, const char *path, struct err_rec *e);
void baseline_free(struct baseline *b);

/* The baseline's result for the unit whose first job is j, or NULL. */
const struct baseline_job *baseline_find(const struct baseline *b,
					 const struct job *j);

/*
 * The figure of metric m in bj: the mean of its runs when bj was repeated
 * and m is one of its repeats figures, else bj's own figure, as
 * result_metric computes it for this run's units (percentiles from the
 * histogram's buckets). Returns 0, or -ENOENT when bj lacks it (a rate or
 * CPU figure of a unit stopped during ramp_time).
 */
int baseline_value(const struct baseline_job *bj, const struct metric *m,
		   double *out);

#endif
