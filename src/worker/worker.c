// SPDX-License-Identifier: MIT
/*
 * The I/O loop. One loop serves synchronous and queued engines: it fills
 * the queue up to iodepth (queue), hands the batch to the kernel (commit)
 * and collects completions (reap). A synchronous engine completes inside
 * queue(), so the loop degenerates to issue-account-issue. The wanted
 * worker features (feature.h) hook in around each I/O; worker_main, at
 * the end, is their setup (prepare.c), the run, and the teardown.
 *
 * Hot path rules: no allocation, no locks, no system calls besides the
 * engine's and the clock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "depth.h"
#include "iolog.h"
#include "trim.h"
#include "wstate.h"

void job_fail(struct wstate *s, int err, const char *fmt, ...)
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

/* "DOING engine NAME: error[; the engine's hint]" as the job's error
 * (the first one stays, as job_fail keeps it). */
void engine_failed(struct wstate *s, int err, const char *doing)
{
	const char *hint = s->eng->hint ? s->eng->hint(err) : NULL;

	job_fail(s, err, "%s engine %s: %s%s%s", doing, s->eng->name,
		 strerror(-err), hint ? "; " : "", hint ? hint : "");
}

/*
 * True when every per-I/O feature is off: no wanted feature with a
 * per-I/O hook (ft.on: the table's, feature.h), none of those the loop
 * calls itself (ft.loop: verify= or serialize_overlap, buffer options,
 * run control, interval=, write_*_log), and ramp_time not running.
 * The I/O loop reads it once per round (an issue() call, a reap batch)
 * and runs a copy of issue() or of the completion loop where those
 * checks are compiled out (prep_as, issue_as, complete_as with plain
 * true); none of them turns on within a round (measure_start, the only
 * one that arms any, runs while ramp_end is set).
 */
static inline bool plain_now(const struct wstate *s)
{
	return !(s->ft.on | s->ft.loop | (s->ramp_end != 0));
}

/*
 * The next I/O of a job that verifies or serializes (WF_SLOW): false when
 * verification holds the write back (WF_VERIFY in ft.holds) or
 * serialize_overlap holds the I/O (serial.c). A read that checks blocks
 * (verify_checks_reads: a mixed job's, or any read of a job that only
 * reads) is noted for checking.
 */
static __attribute__((noinline)) bool prep_slow(struct wstate *s,
						struct io_req *req,
						struct gen_io *io)
{
	if (serial_held(s, io)) {
		/* the one serialize_overlap held back */
	} else if (s->ft.loop & WF_BIT(WF_VERIFY)) {
		if (!zbd_held(s) && verify_next_io(s, io))
			return false;
		if (zbd_place(s, io) < 0)
			return false;
	} else {
		/* serialize_overlap: zonemode=zbd places the I/O first (it
		 * holds one back itself: zbd_held) */
		if (!zbd_held(s) && !pace_gen_next(s, io))
			gen_next(&s->gen, io);
		if (zbd_place(s, io) < 0)
			return false;
	}
	/* Before the buffer is filled: verify= stamps it as issued. */
	if ((s->ft.loop & WF_BIT(WF_SERIAL)) && serial_hold(s, io))
		return false;
	if (io->ddir == DDIR_READ && verify_checks_reads(s)) {
		req->len = io->len;
		verify_prep_read(s, req, io->offset);
	}
	return true;
}

/*
 * Buffered, the generator's new pass drops the region's cache again (fio
 * reopens its files when a pass is done, or wraps a time_based direction,
 * and drops the cache there), before the pass's first I/O. False when the
 * worker was given up on meanwhile.
 */
static __attribute__((noinline)) bool pass_drop(struct wstate *s)
{
	call_enter(s);
	target_new_pass(s->w->tgt, s->j);
	return call_leave(s);
}

/*
 * The random map of varying sizes was done (gen.h, pass_end) with fewer
 * bytes than its units (an I/O that covers part of a unit takes it all):
 * the loop is over, as fio's is once its map is full, so the bytes it did
 * not move count as issued. Not with io_size, whose bytes fio moves
 * whatever the passes (its loops go on until then); nor time_based.
 */
static __attribute__((noinline)) void map_pass_end(struct wstate *s)
{
	uint64_t sh = s->gen.pass_short;

	if (s->j->target.io_size || s->j->time.time_based || !sh)
		return;
	/* trimwrite: the pass's writes come short as much as its trims */
	if (s->gen.p.trimwrite)
		sh *= 2;
	s->issued_bytes += sh;
	s->pass.short_bytes += sh;
}

/* Returns false when prep_slow holds the I/O back, or the worker was
 * given up on. left: issue_as's count of unchecked I/Os (pass.left),
 * which an I/O off the map's usual case zeroes. */
static inline __attribute__((always_inline)) bool
prep_as(struct wstate *s, struct io_req *req, const bool plain,
	uint64_t *left)
{
	const struct target *t;
	const struct target_file *tf;
	struct gen_io io;
	uint64_t foff;
	int r;

	/*
	 * The usual random case of a plain round: its block lies inside file
	 * 0's region by map_fast_check, so the checks below are not needed.
	 */
	if (plain && s->pass.map_fast && gen_map_fast(&s->gen, &foff)) {
		req->file = 0;
		req->offset = s->pass.f0_off + foff;
		req->fd = s->pass.f0_fd;
		req->len = (uint32_t)s->gen.align;
		req->ddir = (uint8_t)s->gen.p.only_dir;
		req->t_submit = 0;
		req->t_done = 0;
		if (req->ddir == DDIR_WRITE)
			gen_data_fill(&s->wdata, req->buf, req->len);
		return true;
	}
	/* its length, or map_pass_end's bytes, may be more than gen.align */
	*left = 0;
	/* verify= and serialize_overlap first, then the features */
	if (!plain && (s->ft.loop & WF_SLOW)) {
		if (!prep_slow(s, req, &io))
			return false;
	} else if (plain || !(r = wf_next(s, &io))) {
		gen_next_inline(&s->gen, &io);
	} else if (r < 0) {
		return false;
	}
	if (__builtin_expect(io.pass_end, 0))
		map_pass_end(s);
	if (__builtin_expect(io.new_pass, 0) && s->pass.drop &&
	    !pass_drop(s))
		return false;
	/*
	 * The generator's contract (gen.h): the I/O lies inside the region
	 * of its file. Broken, it would write over data outside the region:
	 * stop before the I/O is issued. Three compares, never taken.
	 */
	t = s->w->tgt;
	if (io.file >= t->nfiles)
		abort();
	tf = &t->files[io.file];
	if (io.foff > tf->len || io.len > tf->len - io.foff)
		abort();
	req->file = (uint16_t)io.file;
	req->offset = tf->offset + io.foff;
	req->fd = tf->fd;
	req->len = io.len;
	req->ddir = io.ddir;
	req->t_submit = 0;
	req->t_done = 0;
	if (io.ddir == DDIR_WRITE) {
		if (!plain && (s->ft.loop & WF_BIT(WF_VERIFY)))
			verify_prep_write(s, req, io.offset);
		else if (plain || !(s->ft.loop & WF_BIT(WF_FILL)))
			gen_data_fill(&s->wdata, req->buf, io.len);
		else
			fill_write(wf_state(s, WF_FILL), req->buf, req->idx,
				   req->offset, io.len);
	} else if (!plain && (s->ft.loop & WF_BIT(WF_FILL))) {
		fill_read(wf_state(s, WF_FILL), req->idx);
	}
	return plain || wf_prep(s, req, &io);
}

static inline __attribute__((always_inline)) bool
should_stop_as(struct wstate *s, const bool plain)
{
	if (atomic_load_explicit(s->guard.stop, memory_order_relaxed)) {
		s->st->interrupted = true;
		return true;
	}
	if (!plain && s->ramp_end && s->now >= s->ramp_end) {
		ramp_over(s);
		if (s->abandoned)
			return true;
	}
	if (!plain && (s->ft.loop & WF_BIT(WF_HALT)) && !s->ramp_end &&
	    ctl_stop(s))
		return true;
	if (!plain && wf_stop(s))
		return true;
	if (s->issued_bytes < s->limit_bytes &&
	    s->issued_ios < s->limit_ios && s->now < s->deadline)
		return false;
	if (!plain && s->ramp_end)
		ramp_whole(s);
	return true;
}

/* A job that verifies or serializes: what its completions tell. */
static __attribute__((noinline)) void complete_slow(struct wstate *s,
						    struct io_req *req)
{
	if (s->ft.loop & WF_BIT(WF_SERIAL))
		serial_busy(s, req, false);
	/* Whether each block's write landed, failed or not (verify.h). */
	if ((s->ft.loop & WF_BIT(WF_VERIFY)) && req->ddir == DDIR_WRITE)
		verify_write_end(s, req);
	else if (req->ddir == DDIR_READ && verify_checks_reads(s))
		verify_read_end(s, req);
}

/*
 * A completion; plain: plain_now() held at the start of the round; back:
 * its request goes back to the free list (issue_as's sync round leaves
 * it there while it is issued and completed inline).
 */
static inline __attribute__((always_inline)) void
complete_as(struct wstate *s, struct io_req *req, const bool plain,
	    const bool back)
{
	const struct clock *clk = s->ctx.clk;	/* s->w->clk, a load nearer */
	struct dir_stats *d = &s->st->dir[req->ddir];
	uint64_t slat, clat, lat;

	/*
	 * d stays in a register (or one load away) for the counters and
	 * the histograms: without this, gcc recomputes it, a multiply and
	 * an add, before each of their fields (12 instructions per I/O).
	 */
	__asm__("" : "+r"(d));
	if (!req->t_done)
		req->t_done = clock_ticks(clk);
	/* Pool threads may complete out of order: time only moves on. */
	if (req->t_done > s->now)
		s->now = req->t_done;
	/* Intervals and sample periods that ended before this completion
	 * close without it; the end of ramp_time (in tick_next while
	 * ramping) starts the measured phase with it. */
	if (s->now >= s->tick_next) {
		if (!plain && s->ramp_end && s->now >= s->ramp_end) {
			ramp_over(s);
			if (s->abandoned) {
				if (back)
					s->free_reqs[s->nfree++] = req;
				return;
			}
		}
		ticks_roll(s, s->now);
	}
	if (!plain && (s->ft.loop & WF_SLOW))
		complete_slow(s, req);
	/*
	 * A failed I/O moved nothing: it counts in errors only, never in
	 * ios, bytes, the rates or the latencies (as in fio). A short one
	 * counts with the bytes it moved.
	 */
	if (req->res < 0) {
		io_error(s, d, req, (int)-req->res, 0, NULL, 0);
		if (!plain)
			wf_done(s, req, NULL);
		if (back)
			s->free_reqs[s->nfree++] = req;
		return;
	}
	d->ios++;
	d->bytes += (uint64_t)req->res;
	d->short_ios += (uint64_t)req->res < req->len;
	if (req->t_submit) {
		/* A pool thread's stamps come from another CPU: out of step,
		 * they count as 0 (clock.h), here as the same moment. */
		if (req->t_submit < req->t_queue)
			req->t_submit = req->t_queue;
		if (req->t_done < req->t_submit)
			req->t_done = req->t_submit;
		/*
		 * lat is the sum of the two parts, so that slat + clat = lat
		 * holds per I/O to the nanosecond (converted apart, ticks
		 * could round to one more or less).
		 */
		slat = clock_span_ns(clk, req->t_queue, req->t_submit);
		clat = clock_span_ns(clk, req->t_submit, req->t_done);
		lat = slat + clat;
		/* the engine saw it done as the submitting call returned */
		d->submit_done += req->t_done == req->t_submit;
		/* slat, clat <= lat: one range check for the three */
		if (__builtin_expect(lat >> HIST_MAX_BITS, 0)) {
			hist_add(&d->slat, slat);
			hist_add(&d->clat, clat);
			hist_add(&d->lat, lat);
		} else {
			hist_add_fit(&d->slat, slat);
			hist_add_fit(&d->clat, clat);
			hist_add_fit(&d->lat, lat);
		}
	} else {
		/* No submit step: clat = lat, kept once and copied at the end */
		slat = 0;
		lat = clat = clock_delta_ns(clk, req->t_queue, req->t_done);
		hist_add(&d->clat, lat);
	}
	if (plain)
		goto done;
	if (s->ft.loop & WF_BIT(WF_INTERVAL))
		live_interval_add(s, req->ddir, lat);
	if (__builtin_expect(s->iolog != NULL, 0))
		iolog_io(s->iolog, &(struct iolog_io){
			.offset = req->offset, .bytes = (uint64_t)req->res,
			.slat = slat, .clat = clat, .lat = lat,
			.t_queue = req->t_queue, .t_submit = req->t_submit,
			.t_done = req->t_done, .ddir = req->ddir,
			.has_slat = req->t_submit != 0,
			.ramp = s->ramp_end != 0 });
	wf_done(s, req, &(struct wlat){ slat, clat, lat });
done:
	if (back)
		s->free_reqs[s->nfree++] = req;
}

/* Hand the queued requests over; false when the engine failed (the job
 * fails with it) or the worker was given up on. */
bool eng_commit(struct wstate *s)
{
	int r;

	if (!s->queued)
		return true;
	call_enter(s);
	r = s->eng->commit(&s->ctx);
	/* queue() may now submit the committed batch (engine.h) */
	s->guard.next = s->guard.on;
	if (!call_leave(s))
		return false;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: submit: %s", s->eng->name,
			 strerror(-r));
		return false;
	}
	/* Queue depth with these in it, and this call's batch (stats.h) */
	s->st->depth.level[depth_level_idx(s->inflight)] += s->queued;
	s->st->depth.submit[depth_batch_idx(s->queued)]++;
	s->queued = 0;
	return true;
}

/* Collect min..max completions into s->reaped: their count, or -1 when
 * the engine failed or the worker was given up on. */
int eng_reap(struct wstate *s, unsigned min, unsigned max)
{
	int r;

	call_enter(s);
	r = s->eng->reap(&s->ctx, min, s->reaped, max);
	s->guard.next = s->guard.base;
	if (!call_leave(s))
		return -1;
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: reap: %s", s->eng->name,
			 strerror(-r));
		return -1;
	}
	if (r)
		s->st->depth.complete[depth_batch_idx((unsigned)r)]++;
	return r;
}

/* unlink_each_loop: a new loop over new files (laid out again). */
static void new_pass(struct wstate *s)
{
	struct err_rec e = { 0 };
	int r;

	s->pass.next = s->pass.next > UINT64_MAX - s->pass.per_loop ? UINT64_MAX :
		       s->pass.next + s->pass.per_loop;
	call_enter(s);
	r = target_recreate(s->w->tgt, s->j, s->w->stop, &e);
	if (r)
		job_fail(s, r, "%s: %s", e.file, e.msg);
	map_fast_check(s);
	call_leave(s);
}

/*
 * A trim, done here for every engine and completed inline (fio's libaio
 * and io_uring trim synchronously too): engines see reads and writes
 * only, but for one that takes trims itself (ENGINE_TRIMS: NVMe Dataset
 * Management through io_uring_cmd). An engine that moves no data (null)
 * trims nothing. Under zonemode=zbd a trim of a zone with a write
 * pointer is its reset instead, whatever the engine (fio's).
 */
static __attribute__((noinline)) int trim_req(struct wstate *s,
					      struct io_req *req)
{
	int r = zbd_trim(s, req);

	if (r == 1)
		r = s->eng->flags & ENGINE_NOIO ? 0 :
		    trim_range(req->fd, s->w->tgt->files[req->file].is_bdev,
			       req->offset, req->len);
	req->t_done = clock_ticks(s->w->clk);
	req->res = r ? r : (int64_t)req->len;
	return ENGINE_DONE;
}

/*
 * I/Os completed inside queue() at the present depth, counted in the
 * depth's figures (stats.h: level, inline_ios) at once rather than one
 * by one: before inflight changes, before new_pass and eng_commit, at
 * the round's end. Only while no call of the round can be given up on
 * (guard.next unset: worker_abandon's thread reads the figures then);
 * otherwise each is counted as it completes.
 */
static inline __attribute__((always_inline)) void
inline_flush(struct wstate *s, unsigned *n)
{
	if (!*n)
		return;
	s->st->depth.level[depth_level_idx(s->inflight + 1)] += *n;
	s->st->depth.inline_ios += *n;
	*n = 0;
}

/*
 * Default batching keeps contiguous I/Os apart (depth.c): true when req
 * continues the batch queued so far, which then goes to the kernel
 * first. The offset first: a random I/O differs there (one compare where
 * the queue and the file took two more).
 */
static inline bool batch_apart(const struct wstate *s,
			       const struct io_req *req)
{
	return s->dp.adaptive && req->offset == s->dp.end && s->queued &&
	       req->file == s->dp.file;
}

/* A completion inside queue(), in the depth's figures (inline_flush);
 * together: a sync round's, outside the stop hand-off (guard.next). */
static inline __attribute__((always_inline)) void
inline_count(struct wstate *s, unsigned *n, const bool together)
{
	if (together) {
		(*n)++;
		return;
	}
	s->st->depth.level[depth_level_idx(s->inflight + 1)]++;
	s->st->depth.inline_ios++;
}

/*
 * How many I/Os after the one just checked (should_stop_as, the next
 * pass) pass those checks of limit_bytes, limit_ios and pass.next
 * whatever they find, as long as each one issued is of the map's usual
 * case (gen_map_fast: gen.align bytes, one I/O, nothing else counted in
 * issued_bytes): the I/O at distance m from the checked one finds at
 * most m * gen.align bytes and m I/Os more. Only for a job with such a
 * case (map_fast). One division or two, once per count, not per I/O.
 */
static __attribute__((noinline)) uint64_t limits_left(const struct wstate *s)
{
	uint64_t a = s->gen.align, b = s->issued_bytes, n, m;

	if (b >= s->limit_bytes || b >= s->pass.next ||
	    s->issued_ios >= s->limit_ios)
		return 0;
	n = s->limit_ios - s->issued_ios - 1;
	m = (s->limit_bytes - b - 1) / a;
	if (m < n)
		n = m;
	if (s->pass.next != UINT64_MAX) {
		m = (s->pass.next - b - 1) / a;
		if (m < n)
			n = m;
	}
	return n;
}

/*
 * queue()'s answer when it neither completed nor queued the request (put
 * back on the free list): true when the round ends at once (BUSY: room
 * first); the stream's end or the engine's failure ends the job.
 */
static __attribute__((noinline)) bool issue_refused(struct wstate *s, int r)
{
	if (r == ENGINE_BUSY) {
		if (!s->inflight && !s->queued)
			job_fail(s, -EIO, "engine %s is busy with no I/O in "
				 "flight", s->eng->name);
		return true;
	}
	if (r == ENGINE_END) {
		/* the stream ended: this one moved nothing */
		s->stopping = true;
	} else {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: %s", s->eng->name, strerror(-r));
	}
	return false;
}

/* Whether a feature holds the next I/O back; the features' holds come
 * before verify='s barrier. */
static bool issue_held(struct wstate *s)
{
	if (wf_hold(s))
		return true;
	return (s->ft.loop & WF_SLOW) &&
	       (((s->ft.holds & WF_BIT(WF_VERIFY)) && verify_barrier(s)) ||
		((s->ft.loop & WF_BIT(WF_SERIAL)) && serial_blocked(s)));
}

/* An I/O the engine completed inside queue(): counted issued, its
 * inline completion counted (inline_count), then completed. */
static inline __attribute__((always_inline)) void
done_as(struct wstate *s, struct io_req *req, const bool plain,
	const bool sync, const bool together, unsigned *ninl)
{
	s->issued_bytes += req->len;
	s->issued_ios++;
	inline_count(s, ninl, together);
	complete_as(s, req, plain, !sync);
	live_publish(s);
}

/*
 * The limits before an I/O, counted down (limits_left): the stop flag and
 * the deadline are still read for each I/O; the exact checks run once the
 * count is out. 1: go on; 0: the round ends (the job stops, or a new
 * pass waits for the old files' I/Os to complete before they go); -1:
 * given up on.
 */
static inline __attribute__((always_inline)) int
issue_limits(struct wstate *s, const bool plain, uint64_t *left,
	     unsigned *ninl)
{
	if (plain && *left && s->now < s->deadline &&
	    !atomic_load_explicit(s->guard.stop, memory_order_relaxed)) {
		(*left)--;
		return 1;
	}
	if (should_stop_as(s, plain)) {
		s->stopping = true;
		return 0;
	}
	if (s->issued_bytes >= s->pass.next) {
		s->pass.wait = recreates(s->j) && s->inflight;
		if (s->pass.wait)
			return 0;
		inline_flush(s, ninl);
		new_pass(s);
		if (s->abandoned)
			return -1;
	}
	/* without the map's usual case, no call per I/O */
	if (plain && s->pass.map_fast)
		*left = limits_left(s);
	return 1;
}

/*
 * An I/O the engine queued: counted issued and in flight (a sync round's
 * request leaves the free list only now). True when a sync round is to
 * end: its batch or the depth is full.
 */
static inline __attribute__((always_inline)) bool
queued_as(struct wstate *s, struct io_req *req, const bool plain,
	  const bool sync, unsigned *ninl)
{
	s->issued_bytes += req->len;
	s->issued_ios++;
	if (!plain && (s->ft.loop & WF_BIT(WF_SERIAL)))
		serial_busy(s, req, true);
	inline_flush(s, ninl);
	if (sync)
		s->nfree--;
	s->dp.end = req->offset + req->len;
	s->dp.file = req->file;
	s->inflight++;
	s->queued++;
	return sync && (s->queued >= s->dp.submit || s->inflight >= s->depth);
}

/*
 * issue(): plain as for complete_as (the holds and the slow path's are
 * only ever set with a feature on); sync: an ENGINE_SYNC engine's plain
 * round, where queue() completes each I/O (engine.h) so that nothing is
 * queued and the depth stays: its inline completions are counted
 * together (inline_flush), the batch limit looked at only after a
 * queued one.
 */
static inline __attribute__((always_inline)) void
issue_as(struct wstate *s, const bool plain, const bool sync)
{
	struct io_req *req = NULL;
	unsigned ninl = 0;
	int r, ddir;
	bool gn;
	/* plain: the limits' checks it may skip (limits_left), kept in a
	 * register and handed back at the end of the round */
	uint64_t left = plain ? s->pass.left : 0;

	if (!plain) {
		s->pass.left = 0;
		wf_round(s);
	}
	/*
	 * sync: only a queued I/O changes the depth and the free list (a
	 * sync round is plain: nothing else puts a request back), so the
	 * depth is looked at and the request taken here and after each
	 * queued one, not for each I/O.
	 */
	if (sync) {
		if (s->inflight >= s->depth)
			goto done;
		req = s->free_reqs[s->nfree - 1];
	}
	while ((sync || s->inflight < s->depth) && !s->stopping) {
		if (!plain && issue_held(s))
			break;
		r = issue_limits(s, plain, &left, &ninl);
		if (r <= 0) {
			if (r < 0)
				goto gone;
			break;
		}
		if (!plain && !wf_wait(s))
			break;
		/* sync: the request stays on the free list unless queued */
		if (!sync)
			req = s->free_reqs[--s->nfree];
		if (!prep_as(s, req, plain, &left)) {
			if (!sync)
				s->free_reqs[s->nfree++] = req;
			continue;
		}
		if (batch_apart(s, req) &&
		    (inline_flush(s, &ninl), !eng_commit(s))) {
			if (!sync)
				s->free_reqs[s->nfree++] = req;
			goto gone;
		}
		req->t_queue = clock_ticks(s->ctx.clk);
		if (!plain && !wf_due(s, req)) {
			s->free_reqs[s->nfree++] = req;
			s->stopping = true;
			break;
		}
		if (!plain && __builtin_expect(s->iolog != NULL, 0))
			iolog_issue(s->iolog, req->file, req->ddir,
				    req->offset, req->len, req->t_queue);
		/*
		 * Only a queue() that may block needs the stop hand-off. Read
		 * once: only eng_commit and eng_reap change guard.next, and
		 * neither runs from here to the completion below.
		 */
		gn = s->guard.next;
		if (gn)
			call_enter(s);
		ddir = req->ddir;	/* req may be done and reused below */
		/* Trims: one branch, never taken by reads and writes. */
		r = __builtin_expect(ddir == DDIR_TRIM, 0) &&
		    (!(s->eng->flags & ENGINE_TRIMS) || zbd_trims(s, req)) ?
			trim_req(s, req) : s->eng->queue(&s->ctx, req);
		if (gn && !call_leave(s))
			goto gone;
		if (r == ENGINE_DONE) {
			done_as(s, req, plain, sync, sync && !gn, &ninl);
		} else if (r == ENGINE_QUEUED) {
			if (queued_as(s, req, plain, sync, &ninl))
				break;
			if (sync)
				req = s->free_reqs[s->nfree - 1];
		} else {
			if (!sync)
				s->free_reqs[s->nfree++] = req;
			if (issue_refused(s, r))
				break;
		}
		if (!plain)
			wf_issued(s, req, ddir, r);
		if (!sync && s->queued >= s->dp.submit)
			break;
	}
done:
	inline_flush(s, &ninl);
gone:
	/* given up on or failed (the job stops): no flush, as before */
	if (plain)
		s->pass.left = left;
}

static __attribute__((noinline)) void issue_plain(struct wstate *s)
{
	issue_as(s, true, false);
}

static __attribute__((noinline)) void issue_plain_sync(struct wstate *s)
{
	issue_as(s, true, true);
}

static __attribute__((noinline)) void issue_any(struct wstate *s)
{
	issue_as(s, false, false);
}

static void issue(struct wstate *s)
{
	if (!plain_now(s))
		issue_any(s);
	else if (s->eng->flags & ENGINE_SYNC)
		issue_plain_sync(s);
	else
		issue_plain(s);
}

/*
 * Hand queued requests over and collect completions. Wait for completions
 * only when the queue is full (or the job is ending); while there is room
 * for more, only collect what is already done, so that small submit
 * batches still keep iodepth I/Os in flight.
 */
void commit_reap(struct wstate *s)
{
	unsigned min;
	int r, i;

	if (s->abandoned || !eng_commit(s) || !s->inflight)
		return;
	min = depth_wait(s);
	r = eng_reap(s, min, depth_reap_max(s, min));
	if (r < 0)
		return;
	/* complete_as() may fsync, and be abandoned there */
	if (plain_now(s)) {
		/*
		 * A plain completion always gives its request back, and
		 * nothing it does reads the free list: all go back at once,
		 * in the order they would one by one.
		 */
		for (i = 0; i < r; i++)
			complete_as(s, s->reaped[i], true, false);
		memcpy(&s->free_reqs[s->nfree], s->reaped,
		       (size_t)r * sizeof(*s->reaped));
		s->nfree += (unsigned)r;
	} else
		for (i = 0; i < r && !s->abandoned; i++)
			complete_as(s, s->reaped[i], false, true);
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

void sleep_ns(uint64_t ns, const atomic_int *stop)
{
	struct timespec ts;
	uint64_t step;

	while (ns && !atomic_load(stop)) {
		/* the stop flag is seen within 20 ms */
		step = ns < 20000000 ? ns : 20000000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)step;
		nanosleep(&ts, NULL);
		ns -= step;
	}
}

static void wstate_free(struct wstate *s)
{
	/* exit() waits for I/O still in the kernel: it may block too. */
	if (s->eng && s->ctx.priv && s->eng->exit) {
		call_enter(s);
		s->eng->exit(&s->ctx);
		call_leave(s);
	}
	iolog_discard(s->iolog);
	live_free(s);
	procattr_mem_free(&s->th.mem);
	gen_data_free(&s->wdata);
	gen_free(&s->gen);
	free(s->reaped);
	free(s->free_reqs);
	free(s->reqs);
}

/*
 * From the start gate to the end of the job: the wait for its turn, the
 * engine's start, the measured loop, the figures, the verification
 * phase. False when the worker was given up on (worker_abandon): the
 * kernel may still own the buffers, nothing may be freed.
 */
static bool run(struct wstate *s)
{
	const struct job *j = s->j;
	struct worker *w = s->w;
	int ret;

	/* Set up like the others of the group: start with them. */
	worker_gate_pass(w);
	sleep_ns(j->time.startdelay_ns, w->stop);
	if (!ctl_wait(s)) {
		/* Stopped before its turn: ran nothing */
		s->st->interrupted = atomic_load(w->stop) != 0;
		s->finished = true;
		return true;
	}
	/* net: accept or connect; the measured phase starts connected */
	if (s->eng->start && (ret = s->eng->start(&s->ctx))) {
		if (ret == -EINTR)
			s->st->interrupted = true;
		else
			engine_failed(s, ret, "starting");
		s->finished = true;
		return true;
	}
	s->now = clock_ticks(w->clk);
	/* Before measure_start: it tells ramping from measuring by it. */
	if (j->time.ramp_time_ns)
		s->ramp_end = s->now + clock_ns_to_ticks(w->clk,
							 j->time.ramp_time_ns);
	measure_start(s, false);
	/* create_only: the files are laid out (target_open), no I/O. */
	if (!j->vfy.verify_only && !j->target.create_only)
		run_loop(s);
	if (!s->abandoned) {
		/* net over UDP: the blocks the sender numbered and lost */
		s->st->dir[DDIR_READ].dropped_ios += s->ctx.dropped;
		finish(s);
	}
	if (!s->abandoned && (s->ft.loop & WF_BIT(WF_VERIFY)) &&
	    !j->target.create_only)
		verify_phase(s);
	if (!s->abandoned)
		wf_after(s);
	return !s->abandoned;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job *j = w->job;
	struct wstate s = {
		.w = w, .j = j, .eng = j->eng.engine, .st = w->stats,
		.guard.stop = w->stop,
		.depth = (j->eng.engine->flags & ENGINE_SYNC) ? 1 :
			 (unsigned)j->eng.iodepth,
		.tick_next = UINT64_MAX,
	};

	w->priv = &s;
	s.guard.on = !(j->eng.engine->flags & ENGINE_NOIO);
	s.guard.next = s.guard.on;
	if (worker_setup(&s))
		s.finished = true;	/* failed: nothing ran */
	else if (!run(&s))
		return NULL;	/* given up on: we are exiting */
	worker_gate_pass(w);	/* setup failed: the others need not wait */
	/* the features first: the engine's exit may wait (exitall's halt
	 * must not) */
	wf_teardown(&s);
	ctl_end(&s);
	if (s.th.cgroup_in)
		cgroup_leave(j);
	wstate_free(&s);
	atomic_store_explicit(&w->live.done, true, memory_order_release);
	return NULL;
}
