// SPDX-License-Identifier: MIT
/*
 * The I/O loop. One loop serves synchronous and queued engines: it fills
 * the queue up to iodepth (queue), hands the batch to the kernel (commit)
 * and collects completions (reap). A synchronous engine completes inside
 * queue(), so the loop degenerates to issue-account-issue.
 *
 * Hot path rules: no allocation, no locks, no system calls besides the
 * engine's and the clock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "gen.h"
#include "verify.h"
#include "worker.h"

struct wstate {
	struct worker *w;
	const struct job *j;
	const struct engine_ops *eng;
	struct engine_ctx ctx;
	struct job_stats *st;
	struct io_req *reqs;
	struct io_req **free_reqs;
	struct io_req **reaped;
	void *bufs;
	unsigned depth, nfree, inflight, queued;
	struct gen gen;
	uint64_t limit_bytes, issued_bytes;	/* per measured phase */
	uint64_t limit_ios, issued_ios;
	uint64_t per_loop;
	uint64_t now;		/* ticks at the last completion */
	uint64_t t0;		/* ticks at the start of the measured phase */
	uint64_t deadline;	/* ticks; UINT64_MAX: none */
	uint64_t ramp_end;	/* ticks; 0 once ramping is over */
	uint64_t writes_since_sync;
	struct cpu_usage cpu0;		/* the job thread at measure start */
	struct cpu_usage eng_cpu0;	/* the engine's threads, likewise */
	bool engine_failed;		/* its I/Os cannot be drained */
	bool guarded;		/* calls may block: see call_enter */
	bool abandoned;		/* worker_abandon() gave up on us */
	bool finished;		/* finish() is done: stats final */
	unsigned batch_submit;		/* commit when this many are queued */
	unsigned reap_min, reap_max;
	bool adaptive;			/* batching left to the worker */
	bool trickle;			/* device-bound: one at a time */
	uint64_t wait_avg_ns;		/* batch waits: per completion */
	unsigned waits_trickled;	/* count to TRICKLE_PROBE */
	bool stopping;
	/* verify= (verify.h); all unused when vfy is NULL */
	struct verify_ctx *vfy;
	struct verify_blk *vblk;	/* per request: what a read checks */
	struct gen_io vheld;		/* a write waiting at the barrier */
	bool vheld_ok;
	bool vhold;			/* writes wait until none in flight */
	/* interval= (interval.h); irec NULL when off */
	struct ival_rec *irec;
	uint64_t iv_next;	/* ticks: the running interval's end;
				 * UINT64_MAX: none (off, ramping, over) */
	bool iv_over;		/* the last interval is closed, or failed */
	/* --progress: totals of the phases before the last measure_start */
	uint64_t live_ios[DDIR_NR], live_bytes[DDIR_NR];
};

static bool is_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

static void job_fail(struct wstate *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void job_fail(struct wstate *s, int err, const char *fmt, ...)
{
	va_list ap;

	s->stopping = true;
	if (s->st->err)
		return;
	s->st->err = err;
	va_start(ap, fmt);
	vsnprintf(s->st->err_msg, sizeof(s->st->err_msg), fmt, ap);
	va_end(ap);
}

/*
 * The stop hand-off with worker_abandon(). Every call that may block on a
 * device (engine calls, fsync) runs between call_enter() and call_leave():
 * the stats are consistent on entry (release), and the thread that started
 * us may then mark us ABANDONED. call_leave() returns false when it did:
 * from there on we return at once, touching no stats and no target.
 * Engines that do no I/O never block and skip the two atomic operations.
 */
static void call_enter(struct wstate *s)
{
	if (s->guarded)
		atomic_store_explicit(&s->w->state, WORKER_IN_CALL,
				      memory_order_release);
}

static bool call_leave(struct wstate *s)
{
	int st = WORKER_IN_CALL;

	if (!s->guarded || atomic_compare_exchange_strong_explicit(
			&s->w->state, &st, WORKER_RUNNING,
			memory_order_acq_rel, memory_order_acquire))
		return true;
	s->abandoned = true;
	s->stopping = true;
	return false;
}

static int alloc_reqs(struct wstate *s)
{
	const struct job *j = s->j;
	uint64_t bs = j->bs_max[0] > j->bs_max[1] ? j->bs_max[0] :
		      j->bs_max[1];
	size_t align = target_buf_align(), stride, i;
	struct gen_rng rng;
	uint64_t *p;
	int r;

	stride = (bs + align - 1) / align * align;
	s->reqs = calloc(s->depth, sizeof(*s->reqs));
	s->free_reqs = calloc(s->depth, sizeof(*s->free_reqs));
	s->reaped = calloc(s->depth, sizeof(*s->reaped));
	if (!s->reqs || !s->free_reqs || !s->reaped) {
		job_fail(s, -ENOMEM, "cannot allocate %zu bytes of request "
			 "slots (iodepth %u): %s", s->depth *
			 (sizeof(*s->reqs) + 2 * sizeof(*s->free_reqs)),
			 s->depth, strerror(ENOMEM));
		return -ENOMEM;
	}
	r = posix_memalign(&s->bufs, align, stride * s->depth);
	if (r) {
		s->bufs = NULL;
		job_fail(s, -r, "cannot allocate %zu bytes of I/O buffers "
			 "(iodepth %u x bs %zu, aligned to %zu): %s",
			 stride * s->depth, s->depth, stride, align,
			 strerror(r));
		return -r;
	}
	/* Incompressible data for writes; reads overwrite it. */
	gen_rng_seed(&rng, j->randseed ^ 0x62756673ull);
	for (p = s->bufs, i = 0; i < stride * s->depth / 8; i++)
		p[i] = gen_rng_next(&rng);
	for (i = 0; i < s->depth; i++) {
		s->reqs[i].idx = (uint32_t)i;
		s->reqs[i].buf = (char *)s->bufs + i * stride;
		s->free_reqs[i] = &s->reqs[i];
	}
	s->nfree = s->depth;
	s->ctx.bufs = s->bufs;
	s->ctx.buf_stride = stride;
	return 0;
}

static int init_gen(struct wstate *s)
{
	const struct job *j = s->j;
	struct gen_params gp = {
		.region = s->w->tgt->region,
		.nfiles = s->w->tgt->nfiles,
		.random = is_random(j->rw),
		.mixed = j->rw == RW_RW || j->rw == RW_RANDRW,
		.only_dir = (j->rw == RW_WRITE || j->rw == RW_RANDWRITE) ?
			    DDIR_WRITE : DDIR_READ,
		.rwmixread = j->rwmixread,
		.norandommap = j->norandommap,
		.seed = j->randrepeat ? j->randseed + j->clone :
			clock_mono_ns() ^ ((uint64_t)getpid() << 20) ^ j->clone,
	};

	memcpy(gp.bs_min, j->bs_min, sizeof(gp.bs_min));
	memcpy(gp.bs_max, j->bs_max, sizeof(gp.bs_max));
	return gen_init(&s->gen, &gp);
}

static bool verify_next_io(struct wstate *s, struct gen_io *io);
static void verify_prep_write(struct wstate *s, struct io_req *req,
			      uint64_t vblock);
static void verify_write_end(struct wstate *s, const struct io_req *req);

/* Returns false when verification holds the write back (s->vhold). */
static bool prep(struct wstate *s, struct io_req *req)
{
	const struct target *t = s->w->tgt;
	const struct target_file *tf;
	struct gen_io io;

	if (s->vfy) {
		if (verify_next_io(s, &io))
			return false;
	} else {
		gen_next(&s->gen, &io);
	}
	/*
	 * The generator's contract (gen.h): the I/O lies inside the region
	 * of its file. Broken, it would write over data outside the region:
	 * stop before the I/O is issued. Three compares, never taken.
	 */
	if (io.file >= t->nfiles || io.foff > t->file_region ||
	    io.len > t->file_region - io.foff)
		abort();
	tf = &t->files[io.file];
	req->file = (uint16_t)io.file;
	req->offset = tf->offset + io.foff;
	req->fd = tf->fd;
	req->len = io.len;
	req->ddir = io.ddir;
	req->t_submit = 0;
	req->t_done = 0;
	if (s->vfy && io.ddir == DDIR_WRITE)
		verify_prep_write(s, req, io.offset / s->vfy->bs);
	return true;
}

/* Published once per phase: measuring or ramping starts. */
static void live_phase(struct wstate *s)
{
	struct worker_live *l = &s->w->live;
	unsigned d;

	if (!s->w->live_on)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		s->live_ios[d] += s->st->dir[d].ios;
		s->live_bytes[d] += s->st->dir[d].bytes;
	}
	atomic_store_explicit(&l->t0_ns, clock_mono_ns(),
			      memory_order_relaxed);
	atomic_store_explicit(&l->ramping, s->ramp_end != 0,
			      memory_order_relaxed);
}

/* The running totals, once per reap batch. */
static void live_publish(struct wstate *s)
{
	struct worker_live *l = &s->w->live;
	unsigned d;

	if (!s->w->live_on)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		atomic_store_explicit(&l->ios[d], s->live_ios[d] +
				      s->st->dir[d].ios, memory_order_relaxed);
		atomic_store_explicit(&l->bytes[d], s->live_bytes[d] +
				      s->st->dir[d].bytes,
				      memory_order_relaxed);
	}
	atomic_store_explicit(&l->issued_bytes, s->issued_bytes,
			      memory_order_relaxed);
	atomic_store_explicit(&l->issued_ios, s->issued_ios,
			      memory_order_relaxed);
}

/*
 * interval=: the tick at which the running interval ends. A boundary at
 * or after the deadline is not one: what completes while the job drains
 * its last I/Os belongs to the last interval, which interval_end closes
 * (else a time_based job would end with a sliver of an interval).
 */
static void interval_arm(struct wstate *s)
{
	uint64_t next = s->t0 + clock_ns_to_ticks(s->w->clk,
						  ival_rec_boundary(s->irec));

	s->iv_next = next >= s->deadline ? UINT64_MAX : next;
}

/*
 * interval=: close the running interval at end_ns (from t0) with the
 * totals as they are. Out of memory fails the job, and no more intervals
 * are recorded.
 */
static int interval_close(struct wstate *s, uint64_t end_ns)
{
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	const struct hist *lat[DDIR_NR];
	unsigned d;
	int r;

	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *x = &s->st->dir[d];

		ios[d] = x->ios;
		bytes[d] = x->bytes;
		/* Where complete() put lat: finish_figures' rule. */
		lat[d] = x->lat.count ? &x->lat : &x->clat;
	}
	r = ival_rec_close(s->irec, end_ns, ios, bytes, lat);
	if (r) {
		s->iv_next = UINT64_MAX;
		s->iv_over = true;
		job_fail(s, r, "recording interval samples: %s", strerror(-r));
		return r;
	}
	interval_arm(s);
	return 0;
}

/* Close every interval that ended by tick now (once per boundary). */
static void interval_roll(struct wstate *s, uint64_t now)
{
	while (now >= s->iv_next)
		if (interval_close(s, ival_rec_boundary(s->irec)))
			return;
}

/*
 * The job ends at tick end: the last interval, partial, closes there.
 * Stopped while ramping, nothing was measured: no intervals.
 */
static void interval_end(struct wstate *s, uint64_t end)
{
	uint64_t end_ns, start;

	if (!s->irec || s->iv_over || s->ramp_end)
		return;
	interval_roll(s, end);
	if (s->iv_over)
		return;
	end_ns = clock_delta_ns(s->w->clk, s->t0, end);
	start = ival_rec_boundary(s->irec) - s->irec->series->interval_ns;
	/* The last interval, when it has a length or completions. */
	if (end_ns > start ||
	    s->st->dir[DDIR_READ].ios != s->irec->base_ios[DDIR_READ] ||
	    s->st->dir[DDIR_WRITE].ios != s->irec->base_ios[DDIR_WRITE])
		interval_close(s, end_ns);
	s->iv_next = UINT64_MAX;
	s->iv_over = true;
}

/* Stats restart here: the end of ramp_time, or the start. */
static void measure_start(struct wstate *s)
{
	const struct job *j = s->j;

	live_phase(s);
	stats_init(s->st);
	s->st->nmeasured = !s->ramp_end;
	s->t0 = s->now;
	s->issued_bytes = 0;
	s->issued_ios = 0;
	s->deadline = j->runtime_ns ?
		s->t0 + clock_ns_to_ticks(s->w->clk, j->runtime_ns) :
		UINT64_MAX;
	if (s->irec) {
		ival_rec_reset(s->irec);
		if (s->ramp_end)
			s->iv_next = UINT64_MAX;
		else
			interval_arm(s);
	}
	cpu_thread(&s->cpu0);
	memset(&s->eng_cpu0, 0, sizeof(s->eng_cpu0));
	if (s->eng->cpu) {
		/* A pool thread stuck in an I/O answers late. */
		call_enter(s);
		s->eng->cpu(&s->ctx, &s->eng_cpu0);
		call_leave(s);
	}
}

static bool should_stop(struct wstate *s)
{
	if (atomic_load_explicit(s->w->stop, memory_order_relaxed)) {
		s->st->interrupted = true;
		return true;
	}
	if (s->ramp_end) {
		if (s->now < s->ramp_end)
			return false;
		s->ramp_end = 0;
		measure_start(s);
		if (s->abandoned)
			return true;
	}
	return s->issued_bytes >= s->limit_bytes ||
	       s->issued_ios >= s->limit_ios || s->now >= s->deadline;
}

static void sync_file(struct wstate *s, int fd)
{
	const struct job *j = s->j;
	int r;

	call_enter(s);
	r = j->fsync && s->writes_since_sync >= j->fsync ? fsync(fd) :
	    fdatasync(fd);
	if (!call_leave(s))
		return;
	s->writes_since_sync = 0;
	if (r)
		job_fail(s, -errno, "fsync: %s", strerror(errno));
}

/*
 * A failed I/O: counted in its direction, the first one recorded; the job
 * goes on when continue_on_error covers the direction, else it stops (the
 * I/Os in flight are still collected and counted).
 */
static void io_error(struct wstate *s, struct dir_stats *d,
		     const struct io_req *req)
{
	const char *path = s->w->tgt->files[req->file].path;
	int err = (int)-req->res;

	if (!d->errors++) {
		d->first_errno = err;
		d->first_err_offset = req->offset;
		d->first_err_engine = s->eng->name;
		snprintf(d->first_err_file, sizeof(d->first_err_file), "%s",
			 path);
	}
	if (s->j->continue_on_error & (1 << req->ddir))
		return;
	job_fail(s, -err, "%s of %" PRIu32 " bytes at offset %" PRIu64
		 " of %s (engine %s): %s", req->ddir == DDIR_READ ? "read" :
		 "write", req->len, req->offset, path, s->eng->name,
		 strerror(err));
}

static void complete(struct wstate *s, struct io_req *req)
{
	const struct clock *clk = s->w->clk;
	struct dir_stats *d = &s->st->dir[req->ddir];
	uint64_t lat;

	if (!req->t_done)
		req->t_done = clock_ticks(clk);
	/* Pool threads may complete out of order: time only moves on. */
	if (req->t_done > s->now)
		s->now = req->t_done;
	/* Intervals that ended before this completion close without it. */
	if (s->now >= s->iv_next)
		interval_roll(s, s->now);
	/* Whether each block's write landed, failed or not (verify.h). */
	if (s->vfy && req->ddir == DDIR_WRITE)
		verify_write_end(s, req);
	/*
	 * A failed I/O moved nothing: it counts in errors only, never in
	 * ios, bytes, the rates or the latencies (as in fio). A short one
	 * counts with the bytes it moved.
	 */
	if (req->res < 0) {
		io_error(s, d, req);
		s->free_reqs[s->nfree++] = req;
		return;
	}
	d->ios++;
	d->bytes += (uint64_t)req->res;
	d->short_ios += (uint64_t)req->res < req->len;
	lat = clock_delta_ns(clk, req->t_queue, req->t_done);
	if (s->irec)
		ival_rec_add(s->irec, req->ddir, lat);
	if (req->t_submit) {
		hist_add(&d->slat, clock_delta_ns(clk, req->t_queue,
						  req->t_submit));
		hist_add(&d->clat, clock_delta_ns(clk, req->t_submit,
						  req->t_done));
		hist_add(&d->lat, lat);
	} else {
		/* No submit step: clat = lat, kept once and copied at the end */
		hist_add(&d->clat, lat);
	}
	if (req->ddir == DDIR_WRITE && (s->j->fsync || s->j->fdatasync) &&
	    ++s->writes_since_sync >= (s->j->fsync ? s->j->fsync :
				       s->j->fdatasync))
		sync_file(s, req->fd);
	s->free_reqs[s->nfree++] = req;
}

/*
 * Verification (verify.h). prep() fills every write. A write waits at a
 * barrier (vhold) until no I/O is in flight when it begins a new pass over
 * the region, so that two writes of one block are never in flight together
 * and the blocks of the last pass are known exactly, and when
 * verify_backlog writes are due to be checked. Verification reads go
 * through the engine at the job's iodepth while nothing else is in flight;
 * they are checked as they complete and counted in the job's verify
 * figures, never in its read figures.
 */

/* The next write: the one held at the barrier, or a new one. */
static bool verify_next_io(struct wstate *s, struct gen_io *io)
{
	struct verify_ctx *v = s->vfy;

	if (s->vheld_ok) {
		*io = s->vheld;
		s->vheld_ok = false;
	} else {
		gen_next(&s->gen, io);
		if ((io->new_pass && (s->inflight || s->queued ||
				      v->ring_len)) ||
		    (v->backlog && v->ring_len >= v->backlog)) {
			s->vheld = *io;
			s->vheld_ok = true;
			s->vhold = true;
			return true;
		}
	}
	if (io->new_pass)
		verify_new_pass(v);
	return false;
}

/* Fill the write req of block vblock; its completion tells which block. */
static void verify_prep_write(struct wstate *s, struct io_req *req,
			      uint64_t vblock)
{
	verify_stamp(s->vfy, req->buf, vblock);
	s->vblk[req->idx].vblock = vblock;
}

/* A block whose write failed or came up short is not checked (verify.h). */
static void verify_write_end(struct wstate *s, const struct io_req *req)
{
	verify_write_done(s->vfy, s->vblk[req->idx].vblock,
			  req->res == (int64_t)req->len);
}

/* Blocks to read and check: a list, or a scan of the region. */
struct vsource {
	const struct verify_blk *list;	/* NULL: a scan */
	uint64_t n;			/* blocks in list */
	uint64_t next;			/* list index, or next block */
	bool all;			/* scan every block, not the written */
};

static bool vsource_peek(const struct wstate *s, struct vsource *src,
			 struct verify_blk *b)
{
	if (src->list) {
		while (src->next < src->n &&
		       verify_write_failed(s->vfy, src->list[src->next].vblock))
			src->next++;
		if (src->next >= src->n)
			return false;
		*b = src->list[src->next];
		return true;
	}
	if (src->all) {
		b->vblock = src->next;
		b->generation = 0;
		return src->next < s->vfy->nblocks;
	}
	if (!verify_next_written(s->vfy, src->next, b))
		return false;
	src->next = b->vblock;
	return true;
}

static bool vreads_stop(struct wstate *s)
{
	if (atomic_load_explicit(s->w->stop, memory_order_relaxed)) {
		s->st->interrupted = true;
		return true;
	}
	return s->vfy->halt || s->st->err || s->engine_failed || s->abandoned;
}

static void vread_done(struct wstate *s, struct io_req *req)
{
	struct verify_ctx *v = s->vfy;

	if (req->res < 0 || (uint64_t)req->res < req->len) {
		v->stats.read_errors++;
		job_fail(s, req->res < 0 ? (int)req->res : -EIO,
			 "verification read of %" PRIu32 " bytes at offset %"
			 PRIu64 " of %s: %s", req->len, req->offset,
			 s->w->tgt->files[req->file].path, req->res < 0 ?
			 strerror((int)-req->res) : "short read");
	} else if (!v->halt) {
		/* verify_fatal: the reads still in flight are not checked */
		verify_check(v, req->buf, &s->vblk[req->idx]);
	}
	s->free_reqs[s->nfree++] = req;
}

static void vreads_issue(struct wstate *s, struct vsource *src)
{
	const struct target *t = s->w->tgt;
	struct verify_blk b;
	struct io_req *req;
	unsigned fi;
	int r;

	while (s->nfree && !vreads_stop(s) && vsource_peek(s, src, &b)) {
		req = s->free_reqs[--s->nfree];
		verify_where(s->vfy, b.vblock, &fi, &req->offset);
		req->file = (uint16_t)fi;
		req->fd = t->files[fi].fd;
		req->len = s->vfy->bs;
		req->ddir = DDIR_READ;
		req->t_submit = 0;
		req->t_done = 0;
		req->t_queue = clock_ticks(s->w->clk);
		s->vblk[req->idx] = b;
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
		src->next++;
		if (r == ENGINE_DONE) {
			vread_done(s, req);
		} else {
			s->inflight++;
			if (++s->queued >= s->batch_submit)
				return;
		}
	}
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* Hand the queued requests over; false when the engine failed (the job
 * fails with it) or the worker was given up on. */
static bool eng_commit(struct wstate *s)
{
	int r;

	if (!s->queued)
		return true;
	call_enter(s);
	r = s->eng->commit(&s->ctx);
	if (!call_leave(s))
		return false;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: submit: %s", s->eng->name,
			 strerror(-r));
		return false;
	}
	s->queued = 0;
	return true;
}

/* Collect min..max completions into s->reaped: their count, or -1 when
 * the engine failed or the worker was given up on. */
static int eng_reap(struct wstate *s, unsigned min, unsigned max)
{
	int r;

	call_enter(s);
	r = s->eng->reap(&s->ctx, min, s->reaped, max);
	if (!call_leave(s))
		return -1;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: reap: %s", s->eng->name,
			 strerror(-r));
		return -1;
	}
	return r;
}

static void vreads_collect(struct wstate *s)
{
	int r, i;

	if (!eng_commit(s) || !s->inflight)
		return;
	r = eng_reap(s, min_u(s->reap_min, s->inflight),
		     min_u(s->reap_max, s->inflight));
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
	s->vfy->stats.runtime_ns += clock_delta_ns(s->w->clk, t0,
						   clock_ticks(s->w->clk));
}

static void verify_backlog_check(struct wstate *s)
{
	struct vsource src = { .list = s->vfy->ring, .n = s->vfy->ring_len };

	verify_reads(s, &src);
	s->vfy->ring_len = 0;
	if (s->vfy->halt)
		s->stopping = true;
}

/* issue(): true while the held write must still wait. */
static bool verify_barrier(struct wstate *s)
{
	if (s->inflight || s->queued)
		return true;
	s->vhold = false;
	if (s->vfy->ring_len)
		verify_backlog_check(s);
	return s->stopping;
}

/*
 * Buffered writes go to the device and out of the page cache first, so
 * that the verification reads come from the device.
 */
static void verify_drop_cache(struct wstate *s)
{
	const struct target *t = s->w->tgt;
	unsigned i;
	int r;

	if (s->j->direct || !s->j->invalidate)
		return;
	for (i = 0; i < t->nfiles; i++) {
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
			      (off_t)t->file_region, POSIX_FADV_DONTNEED);
	}
}

/*
 * After the measured phase: the rest of the backlog, then every block the
 * job wrote (do_verify), or the whole region (verify_only).
 */
static void verify_phase(struct wstate *s)
{
	const struct job *j = s->j;
	struct vsource src = { .all = j->verify_only };

	if (!s->st->err && !atomic_load(s->w->stop)) {
		if (s->vfy->ring_len)
			verify_backlog_check(s);
		if (!j->verify_only && j->do_verify)
			verify_drop_cache(s);
		if (j->verify_only || j->do_verify)
			verify_reads(s, &src);
		if (j->verify_only)
			verify_end(s->vfy);
	}
	/* Failed writes are counted even when nothing was checked. */
	if (!j->verify_only)
		verify_end(s->vfy);
	if (!s->abandoned)
		s->st->verify = s->vfy->stats;
}

/*
 * The verification state, and locks on the region (verify_lock) so that
 * another process writing it is found out. 0, or -errno with the job
 * failed.
 */
static int verify_setup(struct wstate *s)
{
	const struct job *j = s->j;
	char why[sizeof(s->st->err_msg)];
	int r;

	s->vblk = calloc(s->depth, sizeof(*s->vblk));
	r = s->vblk ? verify_init(&s->vfy, j, s->w->tgt) : -ENOMEM;
	if (r) {
		job_fail(s, r, "setting up verification of a region of %"
			 PRIu64 " bytes (its block map): %s",
			 s->w->tgt->region, strerror(-r));
		return r;
	}
	r = verify_lock(s->w->tgt, !j->verify_only, why, sizeof(why));
	if (r)
		job_fail(s, r, "%s", why);
	return r;
}

/*
 * Device-bound: hand I/Os over and collect them one at a time (see
 * adapt()), unless the engine stamps completions itself; then a wait
 * for an eighth of the queue saves wake-ups without lengthening clat.
 */
static bool one_at_a_time(const struct wstate *s)
{
	return s->trickle && !(s->eng->flags & ENGINE_STAMPS_DONE);
}

static void issue(struct wstate *s)
{
	struct io_req *req;
	int r;

	while (s->inflight < s->depth && !s->stopping) {
		if (s->vhold && verify_barrier(s))
			break;
		if (should_stop(s)) {
			s->stopping = true;
			break;
		}
		req = s->free_reqs[--s->nfree];
		if (!prep(s, req)) {
			s->free_reqs[s->nfree++] = req;
			continue;
		}
		req->t_queue = clock_ticks(s->w->clk);
		call_enter(s);
		r = s->eng->queue(&s->ctx, req);
		if (!call_leave(s))
			return;
		if (r == ENGINE_BUSY) {
			s->free_reqs[s->nfree++] = req;
			if (!s->inflight && !s->queued)
				job_fail(s, -EIO, "engine %s is busy with no "
					 "I/O in flight", s->eng->name);
			break;
		}
		s->issued_bytes += req->len;
		s->issued_ios++;
		if (r == ENGINE_DONE) {
			complete(s, req);
			live_publish(s);
		} else if (r == ENGINE_QUEUED) {
			s->inflight++;
			if (++s->queued >= (one_at_a_time(s) ? 1 :
					    s->batch_submit))
				break;
		} else {
			s->free_reqs[s->nfree++] = req;
			s->engine_failed = true;
			job_fail(s, r, "engine %s: %s", s->eng->name,
				 strerror(-r));
		}
	}
}

/*
 * Default batching adapts to what limits the job. When the CPU does (the
 * device completes as fast as iorig submits), handing over everything
 * that is ready in one call saves system calls, and so does waiting, when
 * the queue is full, for half of it to complete rather than for one I/O:
 * a wait that sleeps costs a wakeup and two context switches, which on
 * one CPU shared with the kernel threads doing the I/O (io_uring's io-wq
 * on zram) was most of the kernel's time per I/O. When the device limits
 * (completions are far apart), a device that completes a batch together
 * drains its queue between batches; one request at a time, as soon as a
 * slot frees, keeps it busy. A moving average of the time a batch wait
 * took per completion it waited for tells the two apart. Only batch waits
 * feed it: a wait for one completion costs the wakeup on top of the
 * device's time. While trickling, every TRICKLE_PROBE-th wait is a batch
 * wait, so that a job whose device speeds up finds out.
 */
#define TRICKLE_WAIT_NS	10000
#define TRICKLE_PROBE	64

static void adapt(struct wstate *s, uint64_t waited_ns, unsigned waited_for)
{
	uint64_t per = waited_ns / waited_for;

	/* One long wait (another task had the CPU) must not flip the mode */
	if (per > 2 * TRICKLE_WAIT_NS)
		per = 2 * TRICKLE_WAIT_NS;
	s->wait_avg_ns = s->wait_avg_ns - s->wait_avg_ns / 8 + per / 8;
	s->trickle = s->wait_avg_ns > TRICKLE_WAIT_NS;
}

/*
 * How many completions to wait for when the queue is full; *batch: a
 * batch wait, whose time feeds adapt().
 */
static unsigned wait_batch(struct wstate *s, bool *batch)
{
	unsigned want = min_u(s->reap_min, s->inflight), part = 0;

	*batch = s->adaptive && (!s->trickle ||
				 !(++s->waits_trickled % TRICKLE_PROBE));
	if (*batch)
		part = s->inflight / 2;
	else if (s->adaptive && !one_at_a_time(s))
		part = s->inflight / 8;
	return part > want ? part : want;
}

/*
 * Hand queued requests over and collect completions. Wait for completions
 * only when the queue is full (or the job is ending); while there is room
 * for more, only collect what is already done, so that small submit
 * batches still keep iodepth I/Os in flight.
 */
static void commit_reap(struct wstate *s)
{
	uint64_t t0 = 0;
	unsigned min = 0, max;
	bool batch = false;
	int r, i;

	if (s->abandoned || !eng_commit(s) || !s->inflight)
		return;
	if (s->inflight >= s->depth || s->stopping || s->vhold)
		min = wait_batch(s, &batch);
	max = one_at_a_time(s) && !batch ? 1 : s->reap_max;
	if (batch)
		t0 = clock_ticks(s->w->clk);
	r = eng_reap(s, min, min_u(max < min ? min : max, s->inflight));
	if (r < 0)
		return;
	if (batch)
		adapt(s, clock_delta_ns(s->w->clk, t0,
					clock_ticks(s->w->clk)), min);
	/* complete() may fsync, and be abandoned there */
	for (i = 0; i < r && !s->abandoned; i++)
		complete(s, s->reaped[i]);
	s->inflight -= (unsigned)r;
	if (!s->abandoned)
		live_publish(s);
}

static void run_loop(struct wstate *s)
{
	for (;;) {
		issue(s);
		if (s->abandoned ||
		    (!s->inflight && !s->queued && s->stopping))
			break;
		commit_reap(s);
		/* A failed engine cannot be drained: give its I/Os up. */
		if (s->engine_failed || s->abandoned)
			break;
	}
}

static void sleep_ns(uint64_t ns, const atomic_int *stop)
{
	struct timespec ts;
	uint64_t step;

	while (ns && !atomic_load(stop)) {
		step = ns < 50000000 ? ns : 50000000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)step;
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/*
 * Stopped (signal, error) while still ramping: nothing was measured, and
 * the warm-up's figures must not pass for a measurement. Only why it
 * stopped and its failed I/Os stay.
 */
static void ramp_discard(struct job_stats *st)
{
	struct dir_stats dir[DDIR_NR];
	struct job_stats keep = *st;
	unsigned d;

	memcpy(dir, st->dir, sizeof(dir));
	stats_init(st);
	st->nmeasured = 0;
	st->err = keep.err;
	memcpy(st->err_msg, keep.err_msg, sizeof(st->err_msg));
	st->interrupted = keep.interrupted;
	st->abandoned = keep.abandoned;
	st->intervals = keep.intervals;
	for (d = 0; d < DDIR_NR; d++) {
		st->dir[d].errors = dir[d].errors;
		st->dir[d].first_errno = dir[d].first_errno;
		st->dir[d].first_err_offset = dir[d].first_err_offset;
		st->dir[d].first_err_engine = dir[d].first_err_engine;
		memcpy(st->dir[d].first_err_file, dir[d].first_err_file,
		       sizeof(dir[d].first_err_file));
	}
}

/*
 * What is derived from the counters when the job ends at tick end; also
 * run by worker_abandon() on the other thread, so it reads only what the
 * worker wrote before its last call_enter().
 */
static void finish_figures(const struct wstate *s, uint64_t end)
{
	struct job_stats *st = s->st;
	unsigned d;

	if (s->ramp_end) {
		ramp_discard(st);
		return;
	}
	st->runtime_ns = clock_delta_ns(s->w->clk, s->t0, end);
	for (d = 0; d < DDIR_NR; d++)
		if (!st->dir[d].lat.count && st->dir[d].clat.count)
			st->dir[d].lat = st->dir[d].clat;
	if (s->per_loop)
		st->loops_done = (st->dir[0].bytes + st->dir[1].bytes) /
				 s->per_loop;
}

static void finish(struct wstate *s)
{
	const struct job *j = s->j;
	const struct target *t = s->w->tgt;
	struct cpu_usage cpu1, eng1 = { 0 }, eng_used;
	unsigned i;
	int r;

	cpu_thread(&cpu1);
	cpu_sub(&s->st->cpu, &cpu1, &s->cpu0);
	if (s->eng->cpu) {
		call_enter(s);
		s->eng->cpu(&s->ctx, &eng1);
		if (!call_leave(s))
			return;
		cpu_sub(&eng_used, &eng1, &s->eng_cpu0);
		cpu_add(&s->st->cpu, &eng_used);
	}
	finish_figures(s, s->now);
	interval_end(s, s->now);
	if (j->end_fsync && s->st->dir[DDIR_WRITE].ios && !s->st->err) {
		for (i = 0; i < t->nfiles; i++) {
			call_enter(s);
			r = fsync(t->files[i].fd);
			if (!call_leave(s))
				return;
			if (r)
				job_fail(s, -errno, "end_fsync of %s: %s",
					 t->files[i].path, strerror(errno));
		}
	}
	s->finished = true;
}

bool worker_abandon(struct worker *w)
{
	int st = WORKER_IN_CALL;
	struct wstate *s;
	uint64_t now;

	if (!atomic_compare_exchange_strong_explicit(&w->state, &st,
			WORKER_ABANDONED, memory_order_acq_rel,
			memory_order_acquire))
		return false;
	/* Stats and wstate are as the worker left them at call_enter(). */
	s = w->priv;
	if (!s->finished) {
		now = clock_ticks(w->clk);
		finish_figures(s, now);
		interval_end(s, now);
		w->stats->interrupted = true;
		w->stats->abandoned = true;
	}
	w->abandoned = true;
	return true;
}

static void wstate_free(struct wstate *s)
{
	/* exit() waits for I/O still in the kernel: it may block too. */
	if (s->eng && s->ctx.priv && s->eng->exit) {
		call_enter(s);
		s->eng->exit(&s->ctx);
		call_leave(s);
	}
	verify_exit(s->vfy);
	ival_rec_free(s->irec);
	free(s->vblk);
	free(s->bufs);
	free(s->reaped);
	free(s->free_reqs);
	free(s->reqs);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct wstate s = {
		.w = w, .j = j, .eng = j->engine, .st = w->stats,
		.depth = (j->engine->flags & ENGINE_SYNC) ? 1 :
			 (unsigned)j->iodepth,
		.iv_next = UINT64_MAX,
	};
	int ret;

	w->priv = &s;
	s.guarded = !(j->engine->flags & ENGINE_NOIO);
	s.ctx.opts = (struct engine_opts){
		.direct = j->direct, .fixedbufs = j->fixedbufs,
		.registerfiles = j->registerfiles,
		.sqthread_poll = j->sqthread_poll, .hipri = j->hipri,
		.sqthread_poll_cpu = j->sqthread_poll_cpu,
		.pool_threads = j->pool_threads,
	};
	s.ctx.iodepth = s.depth;
	s.ctx.clk = w->clk;
	s.ctx.tgt = w->tgt;
	s.batch_submit = j->iodepth_batch_submit ?
			 (unsigned)j->iodepth_batch_submit : s.depth;
	s.reap_min = j->iodepth_batch_complete_min ?
		     (unsigned)j->iodepth_batch_complete_min : 1;
	s.reap_max = j->iodepth_batch_complete_max ?
		     (unsigned)j->iodepth_batch_complete_max : s.depth;
	if (s.reap_max < s.reap_min)
		s.reap_max = s.reap_min;
	s.adaptive = !j->iodepth_batch_submit &&
		     !j->iodepth_batch_complete_max && s.depth > 1;
	sleep_ns(j->startdelay_ns, w->stop);
	ret = alloc_reqs(&s);
	if (!ret && w->series && !(s.irec = ival_rec_new(w->series))) {
		ret = -ENOMEM;
		job_fail(&s, ret, "cannot allocate %zu bytes for interval "
			 "samples: %s", sizeof(*s.irec), strerror(-ret));
	}
	if (!ret)
		ret = init_gen(&s);
	if (!ret && s.eng->init)
		ret = s.eng->init(&s.ctx);
	if (ret && !s.st->err) {
		s.st->err = ret;
		snprintf(s.st->err_msg, sizeof(s.st->err_msg), "setting up "
			 "engine %s: %s%s%s", s.eng->name, strerror(-ret),
			 s.eng->hint && s.eng->hint(ret) ? "; " : "",
			 s.eng->hint && s.eng->hint(ret) ? s.eng->hint(ret) :
			 "");
	}
	if (ret) {
		s.finished = true;
		goto out;
	}
	if (w->setup && s.eng->setup)
		s.eng->setup(&s.ctx, w->setup);
	if (j->verify) {
		ret = verify_setup(&s);
		if (ret) {
			s.finished = true;
			goto out;
		}
	}
	s.per_loop = j->io_size ? j->io_size : w->tgt->region;
	s.limit_bytes = j->time_based ? UINT64_MAX : s.per_loop * j->loops;
	if (!j->time_based && s.per_loop && s.limit_bytes / s.per_loop !=
	    j->loops)
		s.limit_bytes = UINT64_MAX;
	s.limit_ios = j->number_ios ? j->number_ios : UINT64_MAX;
	if (w->live_on) {
		atomic_store_explicit(&w->live.limit_bytes, s.limit_bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.limit_ios, s.limit_ios,
				      memory_order_relaxed);
	}
	s.now = clock_ticks(w->clk);
	/* Before measure_start: it tells ramping from measuring by it. */
	if (j->ramp_time_ns)
		s.ramp_end = s.now + clock_ns_to_ticks(w->clk, j->ramp_time_ns);
	measure_start(&s);
	if (!j->verify_only)
		run_loop(&s);
	if (!s.abandoned)
		finish(&s);
	if (!s.abandoned && s.vfy)
		verify_phase(&s);
	/* Given up on: the kernel may still own the buffers; we are exiting */
	if (s.abandoned)
		return NULL;
out:
	wstate_free(&s);
	atomic_store_explicit(&w->live.done, true, memory_order_release);
	return NULL;
}
