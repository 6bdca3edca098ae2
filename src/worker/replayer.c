// SPDX-License-Identifier: MIT
/*
 * read_iolog= (replay.h): the log's I/Os in place of the generator's, at
 * the times the log gives, its syncs run in their place. A worker
 * feature (feature.h): setup loads the log and checks it against the
 * job's files, the wait hook runs what is due (syncs, delays) and ends
 * the job at the log's end, the next hook gives the log's next I/O.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"
#include "wstate.h"

struct replayer {
	struct replay log;
	uint64_t t0;		/* ticks when the replay started (0: not yet) */
};

static inline struct replayer *rp_of(const struct wstate *s)
{
	return wf_state(s, WF_REPLAY);
}

static bool rp_wanted(const struct wstate *s)
{
	return s->j->logs.read_iolog != NULL;
}

/* e lies inside its file's region, or msg says why not. */
static int rp_check(const struct wstate *s, const struct replay_io *e,
		    char *msg, size_t len)
{
	const struct target_file *tf = &s->w->tgt->files[e->file];

	if (e->act > RP_TRIM || (e->off >= tf->offset && e->len <= tf->len &&
				 e->off - tf->offset <= tf->len - e->len))
		return 0;
	snprintf(msg, len, "read_iolog %s: %s of %" PRIu32 " bytes at offset %"
		 PRIu64 " of %s is outside the job's region (%" PRIu64
		 " bytes from %" PRIu64 "; see size=)", s->j->logs.read_iolog,
		 ddir_str(e->act), e->len, e->off, tf->path, tf->len,
		 tf->offset);
	return -ERANGE;
}

/*
 * The log's I/Os, checked against the job's files and regions before any
 * is issued: 0, or the job fails. The log says what to do: one pass of
 * it, whatever the size.
 */
static int rp_setup(struct wstate *s)
{
	struct replay *r = &rp_of(s)->log;
	char msg[512];
	size_t i;
	int ret;

	ret = replay_load(r, s->j, msg, sizeof(msg));
	if (!ret && r->nnames != s->w->tgt->nfiles) {
		ret = -EINVAL;
		snprintf(msg, sizeof(msg), "read_iolog %s: %u files, the job "
			 "has %u", s->j->logs.read_iolog, r->nnames,
			 s->w->tgt->nfiles);
	}
	for (i = 0; !ret && i < r->n; i++)
		ret = rp_check(s, &r->v[i], msg, sizeof(msg));
	if (ret) {
		job_fail(s, ret, "%s", msg);
		return ret;
	}
	s->pass.per_loop = 0;
	s->limit_bytes = UINT64_MAX;
	return 0;
}

static void rp_teardown(struct wstate *s)
{
	replay_free(&rp_of(s)->log);
}

/*
 * True when the log's next entry is a read, write or trim to issue now.
 * Its syncs run here once the I/Os before them are done; an I/O not due
 * yet is waited for once nothing is in flight (false first, so that what
 * is in flight is collected). At the log's end the job stops.
 */
static bool rp_ready(struct wstate *s)
{
	struct replayer *rp = rp_of(s);
	struct replay *r = &rp->log;
	const struct replay_io *e;
	uint64_t due, now;
	int err;

	if (!rp->t0)
		rp->t0 = clock_ticks(s->w->clk);
	for (;;) {
		if (r->cur == r->n) {
			s->stopping = true;
			return false;
		}
		e = &r->v[r->cur];
		if (e->due_us) {
			due = rp->t0 + clock_ns_to_ticks(s->w->clk,
							 e->due_us * 1000);
			now = clock_ticks(s->w->clk);
			if (now < due) {
				if (s->inflight || s->queued)
					return false;
				sleep_ns(clock_delta_ns(s->w->clk, now, due),
					 s->w->stop);
				s->now = clock_ticks(s->w->clk);
				if (atomic_load(s->w->stop))
					return false;
			}
		}
		if (e->act <= RP_TRIM)
			return true;
		if (s->inflight || s->queued)
			return false;
		timed_sync(s, s->w->tgt->files[e->file].fd,
			   e->act == RP_SYNC, NULL, &s->st->sync, &err);
		if (s->abandoned)
			return false;
		if (err) {
			job_fail(s, err, "fsync: %s", strerror(-err));
			return false;
		}
		r->cur++;
	}
}

/* The log's next I/O (rp_ready said there is one). */
static int rp_next(struct wstate *s, struct gen_io *io)
{
	struct replay *r = &rp_of(s)->log;
	const struct replay_io *e = &r->v[r->cur++];
	const struct target *t = s->w->tgt;

	io->file = e->file;
	io->foff = e->off - t->files[e->file].offset;
	io->offset = e->file * t->file_region + io->foff;
	io->len = e->len;
	io->ddir = e->act;
	io->new_pass = false;
	io->pass_end = false;
	return 1;
}

const struct wfeature wf_replay = {
	.name = "read_iolog",
	.size = sizeof(struct replayer),
	.wanted = rp_wanted,
	.setup = rp_setup,
	.teardown = rp_teardown,
	.wait = rp_ready,
	.next = rp_next,
};
