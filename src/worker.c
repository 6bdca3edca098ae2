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
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "gen.h"
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
	unsigned batch_submit;		/* commit when this many are queued */
	unsigned reap_min, reap_max;
	bool stopping;
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

static int alloc_reqs(struct wstate *s)
{
	const struct job *j = s->j;
	uint64_t bs = j->bs_max[0] > j->bs_max[1] ? j->bs_max[0] :
		      j->bs_max[1];
	size_t align = target_buf_align(), stride, i;
	struct gen_rng rng;
	uint64_t *p;

	stride = (bs + align - 1) / align * align;
	s->reqs = calloc(s->depth, sizeof(*s->reqs));
	s->free_reqs = calloc(s->depth, sizeof(*s->free_reqs));
	s->reaped = calloc(s->depth, sizeof(*s->reaped));
	if (!s->reqs || !s->free_reqs || !s->reaped ||
	    posix_memalign(&s->bufs, align, stride * s->depth))
		return -ENOMEM;
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

static void prep(struct wstate *s, struct io_req *req)
{
	const struct target *t = s->w->tgt;
	const struct target_file *tf = t->files;
	struct gen_io io;
	uint64_t off;

	gen_next(&s->gen, &io);
	off = io.offset;
	if (t->nfiles > 1) {
		uint64_t fi = off / t->file_region;

		tf += fi;
		off -= fi * t->file_region;
		req->file = (uint16_t)fi;
	}
	req->offset = off + tf->offset;
	req->fd = tf->fd;
	req->len = io.len;
	req->ddir = io.ddir;
	req->t_submit = 0;
	req->t_done = 0;
}

/* Stats restart here: the end of ramp_time, or the start. */
static void measure_start(struct wstate *s)
{
	const struct job *j = s->j;

	stats_init(s->st);
	s->t0 = s->now;
	s->issued_bytes = 0;
	s->issued_ios = 0;
	s->deadline = j->runtime_ns ?
		s->t0 + clock_ns_to_ticks(s->w->clk, j->runtime_ns) :
		UINT64_MAX;
	stats_cpu_thread(&s->cpu0);
	memset(&s->eng_cpu0, 0, sizeof(s->eng_cpu0));
	if (s->eng->cpu)
		s->eng->cpu(&s->ctx, &s->eng_cpu0);
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
	}
	return s->issued_bytes >= s->limit_bytes ||
	       s->issued_ios >= s->limit_ios || s->now >= s->deadline;
}

static void sync_file(struct wstate *s, int fd)
{
	const struct job *j = s->j;
	int r;

	r = j->fsync && s->writes_since_sync >= j->fsync ? fsync(fd) :
	    fdatasync(fd);
	s->writes_since_sync = 0;
	if (r)
		job_fail(s, -errno, "fsync: %s", strerror(errno));
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
	d->ios++;
	if (req->res >= 0) {
		d->bytes += (uint64_t)req->res;
		d->short_ios += (uint64_t)req->res < req->len;
	} else {
		if (!d->errors++) {
			d->first_errno = (int)-req->res;
			d->first_err_offset = req->offset;
		}
		job_fail(s, (int)req->res, "%s at offset %" PRIu64 " of %s: "
			 "%s", req->ddir == DDIR_READ ? "read" : "write",
			 req->offset, s->w->tgt->files[req->file].path,
			 strerror((int)-req->res));
	}
	lat = clock_delta_ns(clk, req->t_queue, req->t_done);
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

static void issue(struct wstate *s)
{
	struct io_req *req;
	int r;

	while (s->inflight < s->depth && !s->stopping) {
		if (should_stop(s)) {
			s->stopping = true;
			break;
		}
		req = s->free_reqs[--s->nfree];
		prep(s, req);
		req->t_queue = clock_ticks(s->w->clk);
		r = s->eng->queue(&s->ctx, req);
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
		} else if (r == ENGINE_QUEUED) {
			s->inflight++;
			if (++s->queued >= s->batch_submit)
				break;
		} else {
			s->free_reqs[s->nfree++] = req;
			s->engine_failed = true;
			job_fail(s, r, "engine %s: %s", s->eng->name,
				 strerror(-r));
		}
	}
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/*
 * Hand queued requests over and collect completions. Wait for completions
 * only when the queue is full (or the job is ending); while there is room
 * for more, only collect what is already done, so that small submit
 * batches still keep iodepth I/Os in flight.
 */
static void commit_reap(struct wstate *s)
{
	unsigned min;
	int r, i;

	if (s->queued) {
		r = s->eng->commit(&s->ctx);
		if (r < 0) {
			s->engine_failed = true;
			job_fail(s, r, "engine %s: submit: %s", s->eng->name,
				 strerror(-r));
			return;
		}
		s->queued = 0;
	}
	if (!s->inflight)
		return;
	min = s->inflight < s->depth && !s->stopping ? 0 :
	      min_u(s->reap_min, s->inflight);
	r = s->eng->reap(&s->ctx, min, s->reaped,
			 min_u(s->reap_max, s->inflight));
	if (r < 0) {
		s->engine_failed = true;
		job_fail(s, r, "engine %s: reap: %s", s->eng->name,
			 strerror(-r));
		return;
	}
	for (i = 0; i < r; i++)
		complete(s, s->reaped[i]);
	s->inflight -= (unsigned)r;
}

static void run_loop(struct wstate *s)
{
	for (;;) {
		issue(s);
		if (!s->inflight && !s->queued && s->stopping)
			break;
		commit_reap(s);
		/* A failed engine cannot be drained: give its I/Os up. */
		if (s->engine_failed)
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

static void finish(struct wstate *s)
{
	const struct job *j = s->j;
	const struct target *t = s->w->tgt;
	struct cpu_usage cpu1, eng1 = { 0 }, eng_used;
	unsigned i, d;

	s->st->runtime_ns = clock_delta_ns(s->w->clk, s->t0, s->now);
	stats_cpu_thread(&cpu1);
	stats_cpu_sub(&s->st->cpu, &cpu1, &s->cpu0);
	if (s->eng->cpu) {
		s->eng->cpu(&s->ctx, &eng1);
		stats_cpu_sub(&eng_used, &eng1, &s->eng_cpu0);
		stats_cpu_add(&s->st->cpu, &eng_used);
	}
	for (d = 0; d < DDIR_NR; d++)
		if (!s->st->dir[d].lat.count && s->st->dir[d].clat.count)
			s->st->dir[d].lat = s->st->dir[d].clat;
	if (s->per_loop)
		s->st->loops_done = (s->st->dir[0].bytes +
				     s->st->dir[1].bytes) / s->per_loop;
	if (j->end_fsync && s->st->dir[DDIR_WRITE].ios && !s->st->err)
		for (i = 0; i < t->nfiles; i++)
			if (fsync(t->files[i].fd))
				job_fail(s, -errno, "end_fsync of %s: %s",
					 t->files[i].path, strerror(errno));
}

static void wstate_free(struct wstate *s)
{
	if (s->eng && s->ctx.priv && s->eng->exit)
		s->eng->exit(&s->ctx);
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
	};
	int ret;

	s.ctx.job = j;
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
	sleep_ns(j->startdelay_ns, w->stop);
	ret = alloc_reqs(&s);
	if (!ret)
		ret = init_gen(&s);
	if (!ret && s.eng->init)
		ret = s.eng->init(&s.ctx);
	if (ret) {
		s.st->err = ret;
		snprintf(s.st->err_msg, sizeof(s.st->err_msg), "setting up "
			 "engine %s: %s%s%s", s.eng->name, strerror(-ret),
			 s.eng->hint && s.eng->hint(ret) ? "; " : "",
			 s.eng->hint && s.eng->hint(ret) ? s.eng->hint(ret) :
			 "");
		goto out;
	}
	s.per_loop = j->io_size ? j->io_size : w->tgt->region;
	s.limit_bytes = j->time_based ? UINT64_MAX : s.per_loop * j->loops;
	if (!j->time_based && s.per_loop && s.limit_bytes / s.per_loop !=
	    j->loops)
		s.limit_bytes = UINT64_MAX;
	s.limit_ios = j->number_ios ? j->number_ios : UINT64_MAX;
	s.now = clock_ticks(w->clk);
	measure_start(&s);
	if (j->ramp_time_ns)
		s.ramp_end = s.now + clock_ns_to_ticks(w->clk, j->ramp_time_ns);
	run_loop(&s);
	finish(&s);
out:
	wstate_free(&s);
	return NULL;
}
