// SPDX-License-Identifier: MIT
/*
 * The worker's syncs. Two feature rows (feature.h): fsync=, fdatasync=
 * and sync_file_range= sync every N writes, at their completion;
 * end_fsync=, fsync_on_close= and end_syncfs= sync the files when the
 * loop is over, inside the runtime. And timed_sync, the one timed sync
 * call the loop and its features share (read_iolog='s syncs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iolog.h"
#include "wstate.h"

/*
 * fsync (how 1), fdatasync (0), syncfs (2, end_syncfs), or, when range is
 * not NULL, sync_file_range of [range[0], range[1]) with flags how, of fd,
 * timed: its latency goes into *h (NULL: nowhere), its time is returned
 * (0 when abandoned), and s->now moves past it, so that the runtime
 * counts it. 0 or -errno in *err. An engine with a sync of its own
 * (engine_ops.sync: a command to the device behind a char device, which
 * the kernel cannot fsync) does every kind of sync with it, a range's
 * too (fio's sg sends the same SYNCHRONIZE CACHE for each kind). An
 * engine with no file behind it
 * (ENGINE_NOIO: null) has nothing to sync: the sync completes at once and
 * is counted, as fio's null engine completes it.
 */
uint64_t timed_sync(struct wstate *s, int fd, unsigned how,
		    const uint64_t *range, struct hist *h, int *err)
{
	uint64_t t0, t1;
	int r;

	t0 = clock_ticks(s->w->clk);
	call_enter(s);
	if (s->eng->flags & ENGINE_NOIO)
		r = 0;
	else if (s->eng->sync)
		r = s->eng->sync(&s->ctx, fd);
	else if (range)
		r = sync_file_range(fd, (off_t)range[0],
				    (off_t)(range[1] - range[0]), how);
	else
		r = how == 2 ? syncfs(fd) : how ? fsync(fd) : fdatasync(fd);
	*err = r ? -errno : 0;
	if (!call_leave(s))
		return 0;
	t1 = clock_ticks(s->w->clk);
	if (t1 > s->now)
		s->now = t1;
	if (h)
		hist_add(h, clock_delta_ns(s->w->clk, t0, t1));
	return clock_delta_ns(s->w->clk, t0, t1);
}

struct syncs {
	uint64_t writes;	/* since the last fsync or fdatasync */
	/* sync_file_range= (procattr.h): its flags, every nr writes; rng:
	 * per file, the range [lo, hi) written since its last call (lo >
	 * hi: none); NULL when off. */
	unsigned sfr_flags;
	uint64_t sfr_nr, sfr_count;
	uint64_t *rng;
};

static inline struct syncs *syncs_of(const struct wstate *s)
{
	return wf_state(s, WF_SYNCS);
}

/* sync_file_range= needs files (an engine without any has none). */
static bool sfr_on(const struct wstate *s)
{
	return s->j->cache.sync_file_range && s->w->tgt->files &&
	       s->w->tgt->nfiles;
}

static bool syncs_wanted(const struct wstate *s)
{
	return s->j->cache.fsync || s->j->cache.fdatasync || sfr_on(s);
}

static int syncs_setup(struct wstate *s)
{
	struct syncs *y = syncs_of(s);
	unsigned i, n = s->w->tgt->nfiles;

	if (!sfr_on(s))
		return 0;
	y->sfr_flags = s->j->cache.sfr_flags;
	y->sfr_nr = s->j->cache.sfr_nr;
	y->rng = malloc(2 * sizeof(uint64_t) * n);
	if (!y->rng) {
		job_fail(s, -ENOMEM, "sync_file_range: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		y->rng[2 * i] = UINT64_MAX;
		y->rng[2 * i + 1] = 0;
	}
	return 0;
}

static void syncs_teardown(struct wstate *s)
{
	free(syncs_of(s)->rng);
}

static void sync_file(struct wstate *s, struct syncs *y, int fd)
{
	const struct job *j = s->j;
	int r;

	timed_sync(s, fd, j->cache.fsync && y->writes >= j->cache.fsync, NULL,
		   &s->st->sync, &r);
	if (s->abandoned)
		return;
	y->writes = 0;
	if (r)
		job_fail(s, r, "fsync: %s", strerror(-r));
}

/* sync_file_range=: the file's written range grows; every sfr_nr
 * writes, that file's range since its last call is synced, as fio does
 * (which issues it ahead of the next write: none once all are issued). */
static void sfr_write(struct wstate *s, struct syncs *y,
		      const struct io_req *req)
{
	uint64_t *rg = &y->rng[2 * req->file];
	int r;

	if (rg[0] > req->offset)
		rg[0] = req->offset;
	if (rg[1] < req->offset + (uint64_t)req->res)
		rg[1] = req->offset + (uint64_t)req->res;
	if (++y->sfr_count < y->sfr_nr)
		return;
	y->sfr_count = 0;
	/* fio issues it before the next write: none after the last one */
	if (s->issued_bytes >= s->limit_bytes ||
	    s->issued_ios >= s->limit_ios)
		return;
	timed_sync(s, req->fd, y->sfr_flags, rg, &s->st->sync, &r);
	if (s->abandoned)
		return;
	rg[0] = UINT64_MAX;
	rg[1] = 0;
	if (r)
		job_fail(s, r, "sync_file_range: %s", strerror(-r));
}

/* A write done: it counts to the next sync. */
static void syncs_done(struct wstate *s, struct io_req *req,
		       const struct wlat *l)
{
	const struct job *j = s->j;
	struct syncs *y = syncs_of(s);

	if (!l || req->ddir != DDIR_WRITE)
		return;
	if (y->rng && req->res > 0)
		sfr_write(s, y, req);
	if ((j->cache.fsync || j->cache.fdatasync) &&
	    ++y->writes >= (j->cache.fsync ? j->cache.fsync :
			    j->cache.fdatasync)) {
		if (s->iolog)	/* write_iolog: sync or datasync */
			iolog_issue(s->iolog, req->file, DDIR_NR +
				    !(j->cache.fsync &&
				      y->writes >= j->cache.fsync),
				    req->offset, 0, clock_ticks(s->w->clk));
		sync_file(s, y, req->fd);
	}
}

const struct wfeature wf_syncs = {
	.name = "fsync",
	.size = sizeof(struct syncs),
	.wanted = syncs_wanted,
	.setup = syncs_setup,
	.teardown = syncs_teardown,
	.done = syncs_done,
};

static bool end_sync_wanted(const struct wstate *s)
{
	const struct job *j = s->j;

	return (j->cache.end_fsync || j->cache.fsync_on_close ||
		j->cache.end_syncfs) &&
	       rw_changes_data(j->io.rw) && !j->vfy.verify_only;
}

/*
 * As in fio, the files of a job that writes are fsynced before its
 * runtime ends: durable throughput, buffered or direct, compares.
 */
static void end_sync(struct wstate *s)
{
	const struct job *j = s->j;
	const struct target *t = s->w->tgt;
	unsigned i, how;
	int r;

	for (i = 0; i < t->nfiles && !s->st->err && !s->abandoned; i++) {
		/* end_syncfs: the file's whole file system (a device's own
		 * cache: fsync) */
		how = j->cache.end_syncfs && !t->files[i].is_bdev ? 2 : 1;
		s->st->end_sync_ns += timed_sync(s, t->files[i].fd, how, NULL,
						 NULL, &r);
		if (s->abandoned)
			return;
		if (r)
			job_fail(s, r, "%s of %s: %s", how == 2 ?
				 "end_syncfs" : j->cache.end_fsync ? "end_fsync" :
				 "fsync_on_close", t->files[i].path,
				 strerror(-r));
	}
}

const struct wfeature wf_end_sync = {
	.name = "end_fsync",
	.wanted = end_sync_wanted,
	.last = end_sync,
};
