// SPDX-License-Identifier: MIT
/*
 * The verification phase inside a worker: writes held at the barrier,
 * the backlog, and the reads that check what was written, issued through
 * the job's engine. The block format and checking are block.c's and
 * state.c's; the plan-time checks rules.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wstate.h"
#include "hist.h"
#include "trim.h"

/*
 * verify='s own state in the loop (a worker feature, feature.h, whose
 * setup is verify_setup: after the engine's init, prepare.c): what each
 * request slot's I/O covers, the write held at the barrier, and whether
 * the job's reads check blocks (a mixed job's, or any read of a job that
 * only reads).
 */
struct wverify {
	struct verify_ctx *vfy;		/* verify.h's state of the job */
	struct verify_blk *blk;		/* per request slot */
	struct gen_io held;		/* a write waiting at the barrier */
	bool held_ok;
	bool reads;
};

static struct verify_ctx *vctx(const struct wstate *s)
{
	const struct wverify *vw = wf_state(s, WF_VERIFY);

	return vw->vfy;
}

static struct verify_blk *vblk(const struct wstate *s,
			       const struct io_req *req)
{
	const struct wverify *vw = wf_state(s, WF_VERIFY);

	return &vw->blk[req->idx];
}

bool verify_checks_reads(const struct wstate *s)
{
	const struct wverify *vw = wf_state(s, WF_VERIFY);

	return vw && vw->reads;
}

/*
 * Verification (verify.h). prep() fills every write. A write waits at a
 * barrier (WF_VERIFY's bit in ft.holds: commit_reap waits meanwhile)
 * until no I/O is in flight when it begins a new pass over the region,
 * so that two writes of one block are never in flight together
 * and the blocks of the last pass are known exactly, and when
 * verify_backlog writes are due to be checked. Verification reads go
 * through the engine at the job's iodepth while nothing else is in flight;
 * they are checked as they complete and counted in the job's verify
 * figures and, as a direction's, in its vread figures (stats.h), never in
 * its read figures: fio's layouts add them to the reads, as fio does.
 */

/* The next write: the one held at the barrier, or a new one. */
bool verify_next_io(struct wstate *s, struct gen_io *io)
{
	struct wverify *vw = wf_state(s, WF_VERIFY);
	struct verify_ctx *v = vctx(s);

	if (v->reader) {
		/* nothing written: no pass to hold, no backlog */
		if (!pace_gen_next(s, io))
			gen_next(&s->gen, io);
		return false;
	}
	if (vw->held_ok) {
		*io = vw->held;
		vw->held_ok = false;
	} else {
		/* a mixed job's paced directions: pace.c picks */
		if (!pace_gen_next(s, io))
			gen_next(&s->gen, io);
		if (io->new_pass && v->loop_verify)
			v->loop_due = true;
		if ((io->new_pass && (s->inflight || s->queued ||
				      v->ring_len || v->loop_due)) ||
		    (v->backlog && v->ring_len >= v->backlog) || v->tdue) {
			vw->held = *io;
			vw->held_ok = true;
			s->ft.holds |= WF_BIT(WF_VERIFY);
			return true;
		}
	}
	if (io->new_pass)
		verify_new_pass(v);
	return false;
}

/* Fill the write req of the block at the generator's offset off; its
 * completion tells which block. */
void verify_prep_write(struct wstate *s, struct io_req *req, uint64_t off)
{
	struct verify_ctx *v = vctx(s);
	struct verify_blk *b = vblk(s, req);

	b->vblock = off / v->bs;
	b->n = req->len / v->bs;
	verify_stamp_io(v, req->buf, b->vblock, b->n);
}

/* A block whose write failed or came up short is not checked (verify.h). */
void verify_write_end(struct wstate *s, const struct io_req *req)
{
	const struct verify_blk *b = vblk(s, req);
	uint32_t k;

	for (k = 0; k < b->n; k++)
		verify_write_done(vctx(s), b->vblock + k,
				  req->res == (int64_t)req->len);
}

/*
 * Mixed rw: a read of the measured phase checks the blocks it covers that
 * this run wrote (serialization keeps writes of them out of flight). A
 * job that only reads (verify_reader) checks every block it reads, as
 * any intact block (generation 0: not known, and no run told apart).
 */
void verify_prep_read(struct wstate *s, struct io_req *req, uint64_t off)
{
	struct verify_ctx *v = vctx(s);
	struct verify_blk *b = vblk(s, req);

	b->vblock = off / v->bs;
	b->generation = v->reader ? 0 : VERIFY_GEN_LOOKUP;
	b->n = req->len / v->bs;
}

void verify_read_end(struct wstate *s, struct io_req *req)
{
	struct verify_ctx *v = vctx(s);

	if (req->res != (int64_t)req->len || v->halt)
		return;
	verify_check(v, req->buf, vblk(s, req));
	if (v->halt)
		s->stopping = true;
}

/* Blocks to read and check: a list, or a scan of the region. */
struct vsource {
	const struct verify_blk *list;	/* NULL: a scan */
	uint64_t n;			/* blocks in list */
	uint64_t next;			/* list index, or next block */
	uint64_t adv;			/* next moves on by this once issued */
	bool all;			/* scan every block, not the written */
	uint64_t min_gen;		/* a scan of the written: only blocks
					 * of this generation or later */
};

/* Whether a scan checks block vb, and as which generation. */
static bool vsource_has(const struct wstate *s, const struct vsource *src,
			uint64_t vb, uint64_t *gen)
{
	struct verify_ctx *v = vctx(s);
	struct verify_blk b;

	if (src->all) {
		*gen = 0;
		return vb < v->nblocks && verify_state_has(v, vb);
	}
	if (!verify_next_written(v, vb, &b) || b.vblock != vb ||
	    b.generation < src->min_gen)
		return false;
	*gen = b.generation;
	return true;
}

/*
 * A scan reads runs of blocks to check in one I/O, up to the largest
 * block size of the job and inside one file, each block of the run
 * expected of the same generation.
 */
static void vsource_extend(const struct wstate *s, const struct vsource *src,
			   struct verify_blk *b)
{
	const struct verify_ctx *v = vctx(s);
	uint64_t gen, off0, off;
	unsigned f0, f;

	verify_where(v, b->vblock, &f0, &off0);
	while ((uint64_t)(b->n + 1) * v->bs <= v->maxio) {
		uint64_t vb = b->vblock + b->n;

		if (!vsource_has(s, src, vb, &gen) || gen != b->generation)
			break;
		verify_where(v, vb, &f, &off);
		if (f != f0)
			break;
		b->n++;
	}
}

static bool vsource_peek(const struct wstate *s, struct vsource *src,
			 struct verify_blk *b)
{
	struct verify_ctx *v = vctx(s);

	if (src->list) {
		while (src->next < src->n &&
		       verify_write_failed(v, src->list[src->next].vblock))
			src->next++;
		if (src->next >= src->n)
			return false;
		*b = src->list[src->next];
		if (!b->n)
			b->n = 1;
		src->adv = 1;
		return true;
	}
	if (src->all) {
		/* verify_state_load: the blocks the writing run wrote */
		while (src->next < v->nblocks &&
		       !verify_state_has(v, src->next))
			src->next++;
		b->vblock = src->next;
		b->generation = 0;
		b->n = 1;
		if (src->next >= v->nblocks)
			return false;
	} else {
		do {
			if (!verify_next_written(v, src->next, b))
				return false;
			src->next = b->vblock + 1;
		} while (b->generation < src->min_gen);
		src->next = b->vblock;
	}
	vsource_extend(s, src, b);
	src->adv = b->n;
	return true;
}

static bool vreads_stop(struct wstate *s)
{
	if (atomic_load_explicit(s->w->stop, memory_order_relaxed)) {
		s->st->interrupted = true;
		return true;
	}
	return vctx(s)->halt || s->st->err || s->engine_failed || s->abandoned;
}

/*
 * A verification read's figures (job_stats.vread), as complete_as counts
 * a read's: a failed one in errors only; slat and clat apart when the
 * engine has a submit step, clat alone otherwise (lat is set from it at
 * the end of the phase).
 */
static void vread_count(struct wstate *s, struct io_req *req)
{
	const struct clock *clk = s->w->clk;
	struct dir_stats *d = &s->st->vread;
	uint64_t slat, clat;

	if (!req->t_done)
		req->t_done = clock_ticks(clk);
	if (req->res < 0) {
		d->errors++;
		if (!d->first_errno) {
			d->first_errno = (int)-req->res;
			d->first_err_offset = req->offset;
		}
		return;
	}
	d->ios++;
	d->bytes += (uint64_t)req->res;
	d->short_ios += (uint64_t)req->res < req->len;
	if (!req->t_submit) {
		hist_add(&d->clat, clock_delta_ns(clk, req->t_queue,
						  req->t_done));
		return;
	}
	if (req->t_submit < req->t_queue)
		req->t_submit = req->t_queue;
	if (req->t_done < req->t_submit)
		req->t_done = req->t_submit;
	slat = clock_span_ns(clk, req->t_queue, req->t_submit);
	clat = clock_span_ns(clk, req->t_submit, req->t_done);
	d->submit_done += req->t_done == req->t_submit;
	hist_add(&d->slat, slat);
	hist_add(&d->clat, clat);
	hist_add(&d->lat, slat + clat);
}

static void vread_done(struct wstate *s, struct io_req *req)
{
	struct verify_ctx *v = vctx(s);

	vread_count(s, req);

	if (req->res < 0 || (uint64_t)req->res < req->len) {
		v->stats.read_errors++;
		job_fail(s, req->res < 0 ? (int)req->res : -EIO,
			 "verification read of %" PRIu32 " bytes at offset %"
			 PRIu64 " of %s: %s", req->len, req->offset,
			 s->w->tgt->files[req->file].path, req->res < 0 ?
			 strerror((int)-req->res) : "short read");
	} else if (!v->halt) {
		/* verify_fatal: the reads still in flight are not checked */
		verify_check(v, req->buf, vblk(s, req));
	}
	s->free_reqs[s->nfree++] = req;
}

static void vreads_issue(struct wstate *s, struct vsource *src)
{
	struct verify_ctx *v = vctx(s);
	const struct target *t = s->w->tgt;
	struct verify_blk b;
	struct io_req *req;
	unsigned fi;
	int r;

	while (s->nfree && !vreads_stop(s) && vsource_peek(s, src, &b)) {
		req = s->free_reqs[--s->nfree];
		verify_where(v, b.vblock, &fi, &req->offset);
		req->file = (uint16_t)fi;
		req->fd = t->files[fi].fd;
		req->len = b.n * v->bs;
		req->ddir = DDIR_READ;
		req->t_submit = 0;
		req->t_done = 0;
		req->t_queue = clock_ticks(s->w->clk);
		*vblk(s, req) = b;
		call_enter(s);
		r = s->eng->queue(&s->ctx, req);
		if (!call_leave(s))
			return;
		if (r != ENGINE_DONE && r != ENGINE_QUEUED) {
			s->free_reqs[s->nfree++] = req;
			if (r != ENGINE_BUSY)
				s->engine_failed = true;
			if (r != ENGINE_BUSY || (!s->inflight && !s->queued))
				job_fail(s, r == ENGINE_BUSY ? -EIO : r,
					 "engine %s: %s", s->eng->name,
					 r == ENGINE_BUSY ? "busy with no I/O "
					 "in flight" : strerror(-r));
			return;
		}
		src->next += src->adv;
		if (r == ENGINE_DONE) {
			vread_done(s, req);
		} else {
			s->inflight++;
			if (++s->queued >= s->dp.submit)
				return;
		}
	}
}

static void vreads_collect(struct wstate *s)
{
	int r, i;

	if (!eng_commit(s) || !s->inflight)
		return;
	r = eng_reap(s, min_u(s->dp.reap_min, s->inflight),
		     min_u(s->dp.reap_max, s->inflight));
	if (r < 0)
		return;
	for (i = 0; i < r; i++)
		vread_done(s, s->reaped[i]);
	s->inflight -= (unsigned)r;
}

/*
 * Read and check src's blocks. Starts and (unless the engine failed)
 * returns with nothing in flight.
 */
static void verify_reads(struct wstate *s, struct vsource *src)
{
	uint64_t t0 = clock_ticks(s->w->clk);

	for (;;) {
		vreads_issue(s, src);
		if (s->abandoned || s->engine_failed ||
		    (!s->inflight && !s->queued))
			break;
		vreads_collect(s);
	}
	vctx(s)->stats.runtime_ns += clock_delta_ns(s->w->clk, t0,
						   clock_ticks(s->w->clk));
}

/*
 * The backlog's writes read back: the first verify_backlog_batch of them
 * (fio's meaning); fewer than the ring leaves the rest to the final check,
 * more reads each once (as fio 3.33 does).
 */
void verify_backlog_check(struct wstate *s)
{
	struct verify_ctx *v = vctx(s);
	struct vsource src = { .list = v->ring, .n = v->ring_len };
	uint64_t i;

	if (v->backlog_batch && src.n > v->backlog_batch)
		src.n = v->backlog_batch;
	verify_reads(s, &src);
	/* those read (all done but when the engine failed) */
	for (i = 0; i < src.next && !s->engine_failed; i++)
		verify_backlog_checked(v, v->ring[i].vblock, v->ring[i].n);
	v->ring_len = 0;
	if (v->halt)
		s->stopping = true;
}

/*
 * One trim of len bytes at off in file fi through an engine that takes
 * trims itself (ENGINE_TRIMS: UNMAP, Dataset Management), with nothing
 * else in flight: a free request queued, submitted and waited for, so
 * the one completion reaped is its own. 0 or -errno; -EINTR when the
 * worker was given up on meanwhile.
 */
static int verify_trim_engine(struct wstate *s, unsigned fi, uint64_t off,
			      uint32_t len)
{
	struct io_req *req, *out = NULL;
	int r;

	if (!s->nfree)
		return -EBUSY;
	req = s->free_reqs[s->nfree - 1];
	req->file = (uint16_t)fi;
	req->fd = s->w->tgt->files[fi].fd;
	req->offset = off;
	req->len = len;
	req->ddir = DDIR_TRIM;
	req->res = 0;
	req->t_submit = 0;
	req->t_done = 0;
	call_enter(s);
	r = s->eng->queue(&s->ctx, req);
	if (r == ENGINE_QUEUED) {
		r = s->eng->commit ? s->eng->commit(&s->ctx) : 0;
		while (r >= 0 && !(r = s->eng->reap(&s->ctx, 1, &out, 1)))
			;
		r = r < 0 ? r : ENGINE_DONE;
	}
	if (!call_leave(s))
		return -EINTR;
	if (r == ENGINE_BUSY)
		return -EBUSY;
	if (r < 0) {
		s->engine_failed = true;
		return r;
	}
	return req->res < 0 ? (int)req->res : 0;
}

/*
 * trim_backlog's trims, with nothing in flight: each block trim_percentage
 * chose, oldest first, trimmed (a hole in a file, BLKDISCARD on a device,
 * the engine's own trim command for one that takes trims: sg's UNMAP,
 * io_uring_cmd's Dataset Management) and timed like any trim of the job,
 * in its trim figures; it then reads as zeros until written again
 * (verify_trim_done). A trim that fails is an error of the job, as any
 * trim's.
 */
static void verify_trims(struct wstate *s)
{
	struct verify_ctx *v = vctx(s);
	const struct target *t = s->w->tgt;
	struct dir_stats *d = &s->st->dir[DDIR_TRIM];
	uint64_t vb, off, t0;
	unsigned fi;
	int r;

	while (!vreads_stop(s) && verify_trim_next(v, &vb)) {
		verify_where(v, vb, &fi, &off);
		t0 = clock_ticks(s->w->clk);
		r = s->eng->flags & ENGINE_NOIO ? 0 :
		    s->eng->flags & ENGINE_TRIMS ?
		    verify_trim_engine(s, fi, off, v->bs) :
		    trim_range(t->files[fi].fd, t->files[fi].is_bdev, off,
			       v->bs);
		if (s->abandoned)
			return;
		if (r) {
			job_fail(s, r, "trim_backlog: trim of %" PRIu32
				 " bytes at offset %" PRIu64 " of %s: %s",
				 v->bs, off, t->files[fi].path,
				 strerror(-r));
			return;
		}
		hist_add(&d->clat, clock_delta_ns(s->w->clk, t0,
						  clock_ticks(s->w->clk)));
		d->ios++;
		d->bytes += v->bs;
		verify_trim_done(v, vb);
	}
}

static void verify_drop_cache(struct wstate *s);

/*
 * loops=N: the loop that ended is checked, the blocks it wrote (those of
 * its pass's generation), before the next loop's first write.
 */
static void verify_loop(struct wstate *s)
{
	struct verify_ctx *v = vctx(s);
	struct vsource src = { .min_gen = v->gen0 + v->pass };

	v->loop_due = false;
	verify_drop_cache(s);
	if (!s->abandoned && !s->st->err)
		verify_reads(s, &src);
	if (v->halt)
		s->stopping = true;
}

/* issue(): true while the held write must still wait. */
bool verify_barrier(struct wstate *s)
{
	struct verify_ctx *v = vctx(s);

	if (s->inflight || s->queued)
		return true;
	s->ft.holds &= ~WF_BIT(WF_VERIFY);
	if (v->tdue)
		verify_trims(s);
	if (v->ring_len)
		verify_backlog_check(s);
	if (v->loop_due && !s->stopping)
		verify_loop(s);
	return s->stopping;
}

/*
 * Buffered writes go to the device and out of the page cache first, so
 * that the verification reads come from the device. An NVMe generic char
 * device has no page cache: its writes are the device's when they
 * complete.
 */
static void verify_drop_cache(struct wstate *s)
{
	const struct target *t = s->w->tgt;
	unsigned i;
	int r;

	if (s->j->cache.direct || !s->j->cache.invalidate)
		return;
	for (i = 0; i < t->nfiles; i++) {
		if (t->files[i].is_nvme_chr)
			continue;
		call_enter(s);
		r = fdatasync(t->files[i].fd) ? -errno : 0;
		if (!call_leave(s))
			return;
		if (r) {
			job_fail(s, r, "fdatasync of %s before verification: "
				 "%s", t->files[i].path, strerror(-r));
			return;
		}
		posix_fadvise(t->files[i].fd, (off_t)t->files[i].offset,
			      (off_t)t->files[i].len, POSIX_FADV_DONTNEED);
	}
}

/*
 * After the measured phase: the rest of the backlog, then every block the
 * job wrote (do_verify), or the whole region (verify_only).
 */
void verify_phase(struct wstate *s)
{
	struct verify_ctx *v = vctx(s);
	const struct job *j = s->j;
	struct vsource src = { .all = j->vfy.verify_only };
	char why[sizeof(s->st->err_msg)];
	struct dir_stats *vd = &s->st->vread;
	const struct clock *clk = s->w->clk;
	uint64_t t0;
	int r;

	/* A reader checked its reads as they completed: no phase. */
	if (v->reader) {
		if (!s->abandoned)
			s->st->verify = v->stats;
		return;
	}
	/* loops=N: the earlier loops were checked as they ended */
	if (v->loop_verify)
		src.min_gen = v->gen0 + v->pass;
	/* What was written, before checking it (interrupted or not). */
	r = verify_state_save(v, why, sizeof(why));
	if (r)
		job_fail(s, r, "%s", why);
	if (!s->st->err && !atomic_load(s->w->stop)) {
		t0 = clock_ticks(clk);
		if (v->ring_len)
			verify_backlog_check(s);
		if (!j->vfy.verify_only && j->vfy.do_verify)
			verify_drop_cache(s);
		if (j->vfy.verify_only || j->vfy.do_verify)
			verify_reads(s, &src);
		if (j->vfy.verify_only)
			verify_end(v);
		if (!s->abandoned)
			s->st->vphase_ns = clock_delta_ns(clk, t0,
							  clock_ticks(clk));
	}
	/* No submit step: lat is clat (complete_as's rule) */
	if (!s->abandoned && !vd->lat.count && vd->clat.count)
		vd->lat = vd->clat;
	/* Failed writes are counted even when nothing was checked. */
	if (!j->vfy.verify_only)
		verify_end(v);
	if (!s->abandoned)
		s->st->verify = v->stats;
}

/*
 * The verification state, and locks on the region (verify_lock) so that
 * another process writing it is found out. 0, or -errno with the job
 * failed.
 */
int verify_setup(struct wstate *s)
{
	struct wverify *vw = wf_state(s, WF_VERIFY);
	const struct job *j = s->j;
	char why[sizeof(s->st->err_msg)];
	struct verify_ctx *v;
	int r;

	vw->blk = calloc(s->depth, sizeof(*vw->blk));
	r = vw->blk ? verify_init(&vw->vfy, j, s->w->tgt) : -ENOMEM;
	if (r) {
		job_fail(s, r, "setting up verification of a region of %"
			 PRIu64 " bytes (its block map): %s",
			 s->w->tgt->region, strerror(-r));
		return r;
	}
	v = vw->vfy;
	/* fio checks each loop's writes when the loop ends; here a loop
	 * that is one pass over the region (no io_size, number_ios or
	 * backlog to cut it) */
	v->loop_verify = j->time.loops > 1 && !j->time.time_based &&
			 j->vfy.do_verify && !j->vfy.verify_only &&
			 !v->reader &&
			 !j->vfy.verify_backlog && !j->time.number_ios &&
			 job_per_loop(j, s->w->tgt->region) ==
			 s->w->tgt->region;
	vw->reads = v->reader ||
		    (v->wpass && !j->vfy.verify_only &&
		     (j->io.rw == RW_RW || j->io.rw == RW_RANDRW));
	r = verify_lock(s->w->tgt, !j->vfy.verify_only && !v->reader, why,
			sizeof(why));
	if (!r && (j->vfy.verify_only || v->reader) && j->vfy.verify_state_load)
		r = verify_state_load(v, why, sizeof(why));
	if (r)
		job_fail(s, r, "%s", why);
	return r;
}

static bool verify_wanted(const struct wstate *s)
{
	return s->j->vfy.verify != 0;
}

static void verify_teardown(struct wstate *s)
{
	struct wverify *vw = wf_state(s, WF_VERIFY);

	verify_exit(vw->vfy);
	free(vw->blk);
}

const struct wfeature wf_verify = {
	.name = "verify",
	.size = sizeof(struct wverify),
	.wanted = verify_wanted,
	.teardown = verify_teardown,
};
