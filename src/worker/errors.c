// SPDX-License-Identifier: MIT
/*
 * A worker's failed I/Os: io_error, the one place an I/O error is
 * counted and judged (continue_on_error=, ignore_error=, error_dump=,
 * fill_device=); and max_latency=, a worker feature (feature.h) whose
 * done hook makes an I/O over the limit an error (ETIMEDOUT).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "wstate.h"

/*
 * A failed I/O (err: its errno; lat: the I/O itself succeeded but took
 * longer than max_latency, ETIMEDOUT): counted in its direction, the first
 * one recorded; the job goes on when continue_on_error covers the
 * direction and, when ignore_error gave that direction a list, the list
 * has err; else it stops (the I/Os in flight are still collected and
 * counted). Without a list every I/O error is gone on after, but not
 * max_latency's (fio's meaning: ETIMEDOUT is not one of its non-fatal
 * errors).
 */
void io_error(struct wstate *s, struct dir_stats *d, const struct io_req *req,
	      int err, uint64_t lat, const char *limit_name, uint64_t limit)
{
	const char *path = s->w->tgt->files[req->file].path;
	const struct errlist *ie = &s->j->err.ignore_errors;
	/* A trim's error is a write error (fio's continue_on_error). */
	unsigned type = req->ddir == DDIR_READ ? 0 : 1;
	/* the device's own word for it (an NVMe status), if it has one */
	const char *status = s->eng->status && !lat ?
			     s->eng->status(&s->ctx, req) : NULL;

	/* fill_device: a full file system is the job's end, not an error */
	if (s->j->target.fill_device && req->ddir == DDIR_WRITE &&
	    (err == ENOSPC || err == EDQUOT)) {
		s->stopping = true;
		return;
	}
	if (!d->errors++) {
		d->first_errno = err;
		d->first_err_offset = req->offset;
		d->first_err_engine = s->eng->name;
		snprintf(d->first_err_file, sizeof(d->first_err_file), "%s",
			 path);
	}
	if ((s->j->err.continue_on_error & (type ? COE_WRITE : COE_READ)) &&
	    (ie->n[type] ? errlist_has(ie, type, err) : !lat)) {
		/* error_dump: each error gone on after is printed, as fio
		 * prints it; the one that stops the job is job_fail's */
		if (s->j->err.error_dump)
			fprintf(stderr, "iorig: job '%s': I/O error on file "
				"%s: %s%s%s: %s offset=%" PRIu64 ", buflen=%"
				PRIu32 "\n", s->j->desc.name, path,
				strerror(err),
				status ? ", " : "", status ? status : "",
				ddir_str(req->ddir), req->offset, req->len);
		return;
	}
	if (lat)
		job_fail(s, -err, "%s of %" PRIu32 " bytes at offset %" PRIu64
			 " of %s took %" PRIu64 " ns, more than %s (%" PRIu64
			 " ns): %s", ddir_str(req->ddir), req->len,
			 req->offset, path, lat, limit_name, limit,
			 strerror(err));
	else
		job_fail(s, -err, "%s of %" PRIu32 " bytes at offset %"
			 PRIu64 " of %s (engine %s%s%s): %s",
			 ddir_str(req->ddir), req->len, req->offset, path,
			 s->eng->name, status ? ": " : "",
			 status ? status : "", strerror(err));
}

static bool maxlat_wanted(const struct wstate *s)
{
	/* trims are not checked, as in fio */
	return s->j->err.max_latency_ns[DDIR_READ] ||
	       s->j->err.max_latency_ns[DDIR_WRITE];
}

static void maxlat_done(struct wstate *s, struct io_req *req,
			const struct wlat *l)
{
	uint64_t max = s->j->err.max_latency_ns[req->ddir];

	if (l && req->ddir != DDIR_TRIM && max && l->lat > max)
		io_error(s, &s->st->dir[req->ddir], req, ETIMEDOUT, l->lat,
			 "max_latency", max);
}

const struct wfeature wf_maxlat = {
	.name = "max_latency",
	.wanted = maxlat_wanted,
	.done = maxlat_done,
};
