/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WORKER_LOOP_H
#define IORIG_WORKER_LOOP_H

/*
 * The I/O loop's own helpers, static and (on the hot path) inline, for
 * worker.c alone, which includes this header once: an I/O's way through
 * the loop (plain_now; prep_as, should_stop_as, complete_as and their
 * slow paths) and the issue round's steps (new_pass, trim_req, the
 * inline completions' counts, limits_left, issue_refused, issue_held,
 * done_as, issue_limits, queued_as). worker.c keeps the loop itself
 * (issue_as, commit_reap, run_loop), the engine's commit and reap, and
 * the thread (worker_main). Moved from worker.c as they were: with
 * plain true, each helper compiles into the loop's plain copy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "depth.h"
#include "iolog.h"
#include "trim.h"
#include "wstate.h"

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
 * *ctr += (v == 0), as a compare and an add with carry: gcc made it a
 * compare, a set, a widening and an add (two instructions more per I/O),
 * whichever way the test was written.
 */
static inline void count_zero(uint64_t *ctr, uint64_t v)
{
#if defined(__x86_64__)
	__asm__("cmpq $1, %1\n\tadcq $0, %0" : "+m"(*ctr) : "r"(v) : "cc");
#else
	*ctr += v == 0;
#endif
}

/*
 * A completion; plain: plain_now() held at the start of the round; back:
 * its request goes back to the free list (issue_as's sync round leaves
 * it there while it is issued and completed inline); set: the engine
 * stamped t_submit and t_done, none 0 (stamps_set), so that no check
 * looks for a missing one; own: those stamps are in step too
 * (ctx.stamps_own: t_queue <= t_submit <= t_done), no check at all;
 * clk: s->ctx.clk, dirs: s->st->dir (commit_reap's plain loop passes
 * copies it holds in registers: read through s, gcc loaded them again
 * for each I/O, as any store may change them).
 */
static inline __attribute__((always_inline)) void
complete_as(struct wstate *s, struct io_req *req, const bool plain,
	    const bool back, const bool set, const bool own,
	    const struct clock *clk, struct dir_stats *dirs)
{
	struct dir_stats *d = &dirs[req->ddir];
	uint64_t slat, clat, lat;

	/*
	 * d stays in a register (or one load away) for the counters and
	 * the histograms: without this, gcc recomputes it, a multiply and
	 * an add, before each of their fields (12 instructions per I/O).
	 */
	__asm__("" : "+r"(d));
	if (!set && !own && !req->t_done)
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
	d->bytes += (uint64_t)req->res;
	d->short_ios += (uint64_t)req->res < req->len;
	if (set || own || req->t_submit) {
		/* A pool thread's stamps come from another CPU: out of step,
		 * they count as 0 (clock.h), here as the same moment. */
		if (!own && req->t_submit < req->t_queue)
			req->t_submit = req->t_queue;
		if (!own && req->t_done < req->t_submit)
			req->t_done = req->t_submit;
		/*
		 * lat is the sum of the two parts, so that slat + clat = lat
		 * holds per I/O to the nanosecond (converted apart, ticks
		 * could round to one more or less).
		 */
		slat = clock_span_ns(clk, req->t_queue, req->t_submit);
		clat = clock_span_ns(clk, req->t_submit, req->t_done);
		lat = slat + clat;
		/* the engine saw it done as the submitting call returned:
		 * the same tick */
		count_zero(&d->submit_done, req->t_done - req->t_submit);
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
	/* apart from bytes: next to it, gcc paired the two adds in a
	 * vector register, 3 instructions more per I/O */
	d->ios++;
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
 * first. The offset first: a random I/O differs there, one compare per
 * I/O (dp.end is UINT64_MAX, which no offset is, while nothing is
 * queued: no test of queued).
 */
static inline bool batch_apart(const struct wstate *s,
			       const struct io_req *req)
{
	return req->offset == s->dp.end && s->dp.adaptive &&
	       req->file == s->dp.file;
}

/*
 * How many I/Os a plain round that queues (not sync) may still queue
 * before the depth is full or the batch (dp.submit) is, where the loop
 * compared inflight with depth and queued with submit for each I/O: only
 * a queued I/O (one more of each) and a commit (none queued) change
 * them in such a round, and it counts down from this, taken again after
 * a commit. A round starts with fewer than submit queued (run_loop
 * commits between rounds); at least one, as the loop that checked the
 * batch after an I/O would have issued one.
 */
static inline unsigned issue_room(const struct wstate *s)
{
	unsigned d, b;

	if (s->inflight >= s->depth)
		return 0;
	d = s->depth - s->inflight;
	b = s->queued < s->dp.submit ? s->dp.submit - s->queued : 1;
	return d < b ? d : b;
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
	complete_as(s, req, plain, !sync, false, false, s->ctx.clk,
		    s->st->dir);
	live_publish(s);
}

/*
 * The limits before an I/O, counted down (limits_left): the stop flag is
 * still read for each I/O, the deadline where now moves (issue_as zeroes
 * the count once now has passed it: at the round's start, after an
 * inline completion); the exact checks run once the count is out.
 * 1: go on; 0: the round ends (the job stops, or a new pass waits for
 * the old files' I/Os to complete before they go); -1: given up on.
 */
static inline __attribute__((always_inline)) int
issue_limits(struct wstate *s, const bool plain, uint64_t *left,
	     unsigned *ninl)
{
	if (plain && *left &&
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

#endif
