// SPDX-License-Identifier: MIT
/*
 * serialize_overlap= (and verify='s own need of it: mixed rw or block
 * size ranges, verify.h): no I/O is issued while one in flight overlaps
 * its bytes. A worker feature (feature.h) with a state of its own (which
 * slots are in flight, the I/O held back) and a setup; the loop calls it
 * on its slow path (worker.c's prep_slow, complete_slow and issue), the
 * only one a job that serializes runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "wstate.h"

struct wserial {
	bool *busy;		/* per request slot: in flight */
	struct gen_io held;	/* waits for an overlapping one */
	bool held_ok;
};

static bool serial_wanted(const struct wstate *s)
{
	const struct job *j = s->j;

	return j->vfy.serialize_overlap ||
		(j->vfy.verify && verify_needs_passmap(j));
}

static int serial_setup(struct wstate *s)
{
	struct wserial *z = wf_state(s, WF_SERIAL);

	z->busy = calloc(s->depth, sizeof(*z->busy));
	if (!z->busy) {
		job_fail(s, -ENOMEM, "serialize_overlap: %s",
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

static void serial_teardown(struct wstate *s)
{
	struct wserial *z = wf_state(s, WF_SERIAL);

	free(z->busy);
}

/*
 * Whether bytes [off, off + len) of file overlap an I/O in flight. A walk
 * over the request slots: iodepth compares per I/O, only when the option
 * is on.
 */
static bool serial_overlaps(const struct wstate *s, unsigned file,
			    uint64_t off, uint64_t len)
{
	const struct wserial *z = wf_state(s, WF_SERIAL);
	const struct io_req *r;
	unsigned i;

	for (i = 0; i < s->depth; i++) {
		r = &s->reqs[i];
		if (z->busy[i] && r->file == file && r->offset < off + len &&
		    off < r->offset + r->len)
			return true;
	}
	return false;
}

bool serial_held(struct wstate *s, struct gen_io *io)
{
	struct wserial *z = wf_state(s, WF_SERIAL);

	if (!z || !z->held_ok)
		return false;
	*io = z->held;
	z->held_ok = false;
	return true;
}

bool serial_hold(struct wstate *s, const struct gen_io *io)
{
	struct wserial *z = wf_state(s, WF_SERIAL);
	const struct target *t = s->w->tgt;

	if (io->file >= t->nfiles ||
	    !serial_overlaps(s, io->file, t->files[io->file].offset + io->foff,
			     io->len))
		return false;
	z->held = *io;
	z->held_ok = true;
	return true;
}

bool serial_blocked(const struct wstate *s)
{
	const struct wserial *z = wf_state(s, WF_SERIAL);
	const struct gen_io *io = &z->held;

	return z->held_ok &&
	       serial_overlaps(s, io->file,
			       s->w->tgt->files[io->file].offset + io->foff,
			       io->len);
}

void serial_busy(struct wstate *s, const struct io_req *req, bool busy)
{
	struct wserial *z = wf_state(s, WF_SERIAL);

	z->busy[req->idx] = busy;
}

const struct wfeature wf_serial = {
	.name = "serialize_overlap",
	.size = sizeof(struct wserial),
	.wanted = serial_wanted,
	.setup = serial_setup,
	.teardown = serial_teardown,
};
