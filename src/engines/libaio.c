// SPDX-License-Identifier: MIT
/*
 * libaio: Linux native AIO (io_setup/io_submit/io_getevents).
 *
 * One AIO context per worker, sized to iodepth. Every request slot owns one
 * iocb (iocbs[req->idx]), so the hot path never allocates. queue() prepares
 * the slot's iocb and appends it to the pending batch; commit() hands the
 * whole batch over with io_submit; reap() collects completions with
 * io_getevents, or (userspace_reap=1 with iodepth_batch_complete_min=0,
 * fio's rule) by reading the completion ring directly, which libaio's
 * ring layout allows: no system call to reap.
 *
 * Timestamps (the man page quotes this):
 *   t_submit: one clock read as soon as io_submit returns, given to every
 *             request that call accepted: slat covers the call. A request
 *             the kernel did not take (partial submit, EAGAIN) is stamped
 *             when the call that accepts it returns.
 *   t_done:   the first moment iorig can know the I/O completed. The
 *             completion ring is in our memory (the one libaio's own
 *             user-space reaping reads); right after io_submit returns,
 *             every event already in it, which includes the requests of
 *             this batch that completed inside the call (zram, buffered
 *             I/O), gets the same clock read as t_submit: clat 0, not the
 *             time until the next io_getevents. Every other event gets
 *             one clock read taken as soon as io_getevents returns it.
 *             The kernel keeps no per-event completion time.
 *
 * Bookkeeping: the worker counts a request as in flight as soon as queue()
 * returns QUEUED, but only in_kernel of them have really been accepted by
 * io_submit. reap() never asks io_getevents for more than in_kernel
 * events (it would sleep forever) and first tries to submit what is still
 * pending, because after a commit that the kernel refused with EAGAIN the
 * worker calls only reap() until it has room to queue more.
 *
 * Errors: io_submit rejects the first iocb it cannot take with -errno
 * (bad fd, bad offset, bad buffer). Per-I/O status travels in the request,
 * so that request is completed with res = -errno and handed back by the
 * next reap(); the rest of the batch is submitted. This keeps the offset
 * and file of the failing I/O in the report and lets the worker drain
 * normally. EAGAIN is not a per-I/O error: see aio_flush() and aio_reap().
 *
 * Buffered I/O (direct=0) works, but io_submit then does the transfer
 * itself before returning, so there is no queue depth to speak of.
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/uio.h>
#include <libaio.h>

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)	/* linux/aio_abi.h */
#endif
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "cmdprio.h"
#include "cpu.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "warn.h"

/*
 * The AIO completion ring as the kernel maps it at the context's address
 * (fs/aio.c; the layout is ABI: libaio reads it too). Only read, and only
 * when magic and incompat_features say it is this layout.
 */
struct aio_uring_hdr {
	unsigned id, nr, head, tail, magic, compat, incompat, hdr_len;
	struct io_event events[];
};
#define AIO_RING_MAGIC_V1	0xa10a10a1u

/* How long reap() waits out EAGAIN when nothing is in the kernel. */
#define AIO_EAGAIN_SLEEP_NS	1000000L	/* 1 ms per try */
#define AIO_EAGAIN_TRIES	1000		/* then fail the batch */

struct aio_state {
	io_context_t ioctx;
	struct iocb *iocbs;		/* one per request slot, by idx */
	struct iocb **pending;		/* queued, not accepted: FIFO */
	struct io_req **failed;		/* refused by io_submit, for reap */
	struct io_event *events;
	unsigned depth;
	unsigned npending;
	unsigned nfailed;
	unsigned in_kernel;		/* submitted, not yet reaped */
	bool blocked;			/* EAGAIN, and nothing reaped since */
	bool ring_ok;			/* the ring can be peeked */
	bool user_reap;			/* userspace_reap: reaped from it */
	unsigned seen;			/* events in the ring stamped done */
	struct iovec *iov;		/* libaio_vectored: one per slot */
};

struct aio_opts {
	struct cmdprio_opts cp;	/* first: ENGINE_CMDPRIO */
	bool userspace_reap;	/* reap from the ring */
	bool libaio_vectored;	/* PREADV/PWRITEV */
};

_Static_assert(offsetof(struct aio_opts, cp) == 0, "ENGINE_CMDPRIO");

static const struct opt_def aio_options[] = {
	CMDPRIO_OPTIONS(struct aio_opts),
	{ .name = "userspace_reap", .type = OPT_BOOL,
	  .off = offsetof(struct aio_opts, userspace_reap), .def = "0",
	  .category = "engine",
	  .help = "libaio with iodepth_batch_complete_min=0: collect "
		  "completions from the AIO ring in user space, without "
		  "io_getevents" },
	{ .name = "libaio_vectored", .type = OPT_BOOL,
	  .off = offsetof(struct aio_opts, libaio_vectored), .def = "0",
	  .category = "engine",
	  .help = "libaio: submit vectored reads and writes (IOCB_CMD_PREADV, "
		  "PWRITEV) of one iovec" },
	{ .name = NULL },
};

static int aio_check(const struct job *j, const void *eo, struct err_rec *e)
{
	const struct aio_opts *o = eo;

	return cmdprio_check(j, &o->cp, e);
}

static int aio_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const struct aio_opts *o = j->eng.eopts;

	if (o->userspace_reap && j->eng.iodepth_batch_complete_min)
		warn_add_job(w, "userspace_reap_ignored", j->plan.section_file,
			     j->plan.section_line, j->desc.name,
			     "userspace_reap has no "
			     "effect with iodepth_batch_complete_min=%"
			     PRIu64 ": as in fio, completions are read from "
			     "the ring in user space only with 0 (never "
			     "wait); with more they are waited for with "
			     "io_getevents", j->eng.iodepth_batch_complete_min);
	return 0;
}

static int aio_init(struct engine_ctx *ctx)
{
	const struct aio_opts *o = ctx->eo;
	/* fio's rule: only when reaping never waits in the kernel */
	bool user_reap = o->userspace_reap &&
			 !ctx->job->eng.iodepth_batch_complete_min;
	struct aio_state *st;
	unsigned depth = ctx->iodepth ? ctx->iodepth : 1;
	int r = -ENOMEM;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->depth = depth;
	st->iocbs = calloc(depth, sizeof(*st->iocbs));
	st->pending = calloc(depth, sizeof(*st->pending));
	st->failed = calloc(depth, sizeof(*st->failed));
	st->events = calloc(depth, sizeof(*st->events));
	if (o->libaio_vectored)
		st->iov = calloc(depth, sizeof(*st->iov));
	if (!st->iocbs || !st->pending || !st->failed || !st->events ||
	    (o->libaio_vectored && !st->iov))
		goto err_free;
	/*
	 * libaio returns -errno. EAGAIN here means the system-wide limit
	 * fs.aio-max-nr would be exceeded (see /proc/sys/fs/aio-nr);
	 * ENOSYS, a kernel built without AIO.
	 */
	r = io_setup((int)depth, &st->ioctx);
	if (r < 0)
		goto err_free;
	{
		const struct aio_uring_hdr *h = (const void *)st->ioctx;

		st->ring_ok = h->magic == AIO_RING_MAGIC_V1 && !h->incompat &&
			      h->hdr_len == sizeof(*h);
	}
	st->user_reap = st->ring_ok && user_reap;
	ctx->priv = st;
	ctx->queue_nocall = true;
	ctx->stamps_own = true;
	return 0;

err_free:
	free(st->events);
	free(st->failed);
	free(st->pending);
	free(st->iocbs);
	free(st->iov);
	free(st);
	return r;
}

static int aio_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct aio_state *st = ctx->priv;
	struct iocb *cb;

	if (st->npending + st->in_kernel + st->nfailed >= st->depth)
		return ENGINE_BUSY;
	if (req->idx >= st->depth)
		return -EINVAL;
	cb = &st->iocbs[req->idx];
	if (st->iov) {
		/* libaio_vectored: IOCB_CMD_PREADV/PWRITEV of one iovec */
		st->iov[req->idx].iov_base = req->buf;
		st->iov[req->idx].iov_len = req->len;
		if (req->ddir == DDIR_READ)
			io_prep_preadv(cb, req->fd, &st->iov[req->idx], 1,
				       (long long)req->offset);
		else
			io_prep_pwritev(cb, req->fd, &st->iov[req->idx], 1,
					(long long)req->offset);
	} else if (req->ddir == DDIR_READ)
		io_prep_pread(cb, req->fd, req->buf, req->len,
			      (long long)req->offset);
	else
		io_prep_pwrite(cb, req->fd, req->buf, req->len,
			       (long long)req->offset);
	if (req->ioprio) {
		cb->aio_reqprio = (short)req->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = req;
	st->pending[st->npending++] = cb;
	return ENGINE_QUEUED;
}

/* Drop the first n pending iocbs (accepted or refused), keeping order. */
static void aio_pending_drop(struct aio_state *st, unsigned n)
{
	unsigned i;

	st->npending -= n;
	for (i = 0; i < st->npending; i++)
		st->pending[i] = st->pending[i + n];
}

/* The kernel will not take this request: complete it with res = err. */
static void aio_refuse(struct aio_state *st, const struct clock *clk,
		       struct io_req *req, int err)
{
	req->res = err;
	req->t_done = clock_ticks(clk);
	st->failed[st->nfailed++] = req;
}

/*
 * Stamp t_done = now on the events that reached the ring since the last
 * look: they are done, and now is the first time we see them. The kernel
 * fills an event before it moves tail (release), io_getevents hands them
 * out from head in ring order, so the first seen ones are the stamped.
 */
static void aio_peek(struct aio_state *st, uint64_t now)
{
	const struct aio_uring_hdr *h = (const void *)st->ioctx;
	unsigned head, tail, n;

	if (!st->ring_ok)
		return;
	tail = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
	head = __atomic_load_n(&h->head, __ATOMIC_RELAXED);
	if (head >= h->nr || tail >= h->nr)
		return;
	n = tail >= head ? tail - head : tail + h->nr - head;
	for (; st->seen < n; st->seen++) {
		struct io_req *req = (void *)(uintptr_t)
			h->events[(head + st->seen) % h->nr].data;

		if (!req->t_done)
			req->t_done = now;
	}
}

/*
 * Submit everything pending. A partial submit is retried with the rest at
 * once; a refused iocb is completed with its error and skipped. Stops on
 * EAGAIN, leaving the rest pending and st->blocked set: completions must
 * free kernel resources first, so spinning here would only burn CPU.
 * Returns how many the kernel accepted.
 */
static int aio_flush(struct aio_state *st, const struct clock *clk)
{
	int submitted = 0, r;
	uint64_t now;
	unsigned i;

	while (st->npending) {
		r = io_submit(st->ioctx, (long)st->npending, st->pending);
		if (r > 0) {
			now = clock_ticks(clk);
			for (i = 0; i < (unsigned)r; i++)
				((struct io_req *)st->pending[i]->data)
					->t_submit = now;
			aio_peek(st, now);
			aio_pending_drop(st, (unsigned)r);
			st->in_kernel += (unsigned)r;
			submitted += r;
			st->blocked = false;
		} else if (r == 0 || r == -EAGAIN) {
			st->blocked = true;
			break;
		} else if (r != -EINTR) {
			aio_refuse(st, clk, st->pending[0]->data, r);
			aio_pending_drop(st, 1);
		}
	}
	return submitted;
}

/*
 * Returns how many were submitted; never fails (see the top comment for
 * refused requests). 0 after EAGAIN: the requests stay pending and the
 * worker's reap() that follows waits for completions and submits them.
 */
static int aio_commit(struct engine_ctx *ctx)
{
	return aio_flush(ctx->priv, ctx->clk);
}

/*
 * EAGAIN with nothing of ours in the kernel: no completion will free
 * anything, so wait for the system (another process's AIO, memory) in
 * short sleeps. If it never clears, complete the pending requests with
 * -EAGAIN so that the worker reports them and drains instead of hanging.
 */
static void aio_wait_submit(struct aio_state *st, const struct clock *clk)
{
	struct timespec ts = { 0, AIO_EAGAIN_SLEEP_NS };
	unsigned tries;

	for (tries = 0; st->npending && !st->in_kernel; tries++) {
		if (tries == AIO_EAGAIN_TRIES) {
			while (st->npending) {
				aio_refuse(st, clk, st->pending[0]->data,
					   -EAGAIN);
				aio_pending_drop(st, 1);
			}
			break;
		}
		nanosleep(&ts, NULL);
		aio_flush(st, clk);
	}
}

/*
 * userspace_reap: what io_getevents does, in user space: copy events
 * from head up to tail (at most max), then publish the new head (the
 * kernel reads it to know the slots are free again). With fewer than
 * min, spin (pause) for more: only the worker's own waits ask for some
 * (a pass's end, the job's end), since min is 0 in this mode otherwise.
 */
static int aio_ring_reap(struct aio_state *st, unsigned min, unsigned max)
{
	struct aio_uring_hdr *h = (void *)st->ioctx;
	unsigned head = __atomic_load_n(&h->head, __ATOMIC_RELAXED), tail;
	unsigned n = 0;

	for (;;) {
		tail = __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE);
		while (n < max && head != tail) {
			st->events[n++] = h->events[head];
			head = head + 1 == h->nr ? 0 : head + 1;
		}
		__atomic_store_n(&h->head, head, __ATOMIC_RELEASE);
		if (n >= min)
			return (int)n;
		cpu_relax();
	}
}

/*
 * Refused requests come first (they are already complete), then
 * io_getevents for the rest of min, capped at what the kernel holds and
 * at max. Returns fewer than min only when the kernel holds fewer than
 * min or when max < min.
 */
static int aio_reap(struct engine_ctx *ctx, unsigned min,
		    struct io_req **out, unsigned max)
{
	struct aio_state *st = ctx->priv;
	unsigned n = 0, want_min, want_max, i;
	uint64_t now;
	int r;

	if (st->npending && (!st->blocked || !st->in_kernel))
		aio_flush(st, ctx->clk);
	if (st->npending && !st->in_kernel)
		aio_wait_submit(st, ctx->clk);
	while (st->nfailed && n < max)
		out[n++] = st->failed[--st->nfailed];
	if ((n && n >= min) || n == max || !st->in_kernel)
		return (int)n;
	want_max = max - n;
	if (want_max > st->in_kernel)
		want_max = st->in_kernel;
	/* io_getevents refuses min_nr > nr: max wins over min */
	want_min = min > n ? min - n : 0;
	if (want_min > want_max)
		want_min = want_max;
	if (st->user_reap)
		r = aio_ring_reap(st, want_min, want_max);
	else
		do
			r = io_getevents(st->ioctx, (long)want_min,
					 (long)want_max, st->events, NULL);
		while (r == -EINTR);
	if (r < 0)
		return n ? (int)n : r;	/* the error comes back next time */
	now = clock_ticks(ctx->clk);
	/* the first seen of them were stamped by aio_peek() */
	st->seen -= (unsigned)r < st->seen ? (unsigned)r : st->seen;
	for (i = 0; i < (unsigned)r; i++) {
		struct io_req *req = st->events[i].data;

		/* res is the kernel's long: bytes, or -errno */
		req->res = (long)st->events[i].res;
		if (!req->t_done)
			req->t_done = now;
		out[n++] = req;
	}
	st->in_kernel -= (unsigned)r;
	if (r)
		st->blocked = false;
	return (int)n;
}

/*
 * io_destroy waits for I/O still in the kernel (a worker that gave up on
 * a failed job), so the request buffers the worker frees after exit() are
 * no longer the target of any transfer.
 */
static void aio_exit(struct engine_ctx *ctx)
{
	struct aio_state *st = ctx->priv;

	io_destroy(st->ioctx);
	free(st->events);
	free(st->failed);
	free(st->pending);
	free(st->iocbs);
	free(st->iov);
	free(st);
	ctx->priv = NULL;
}

static const char *aio_hint(int err)
{
	if ((err == -ENOSYS || err == -EPERM) && engine_seccomp_mode() == 2)
		return "this process runs under a seccomp filter (Seccomp: 2 "
		       "in /proc/self/status) that refuses io_setup: allow "
		       "io_setup, io_submit, io_getevents and io_destroy";
	if (err == -EAGAIN)
		return "the system-wide AIO limit is used up: compare "
		       "/proc/sys/fs/aio-nr with /proc/sys/fs/aio-max-nr "
		       "and raise it with sysctl fs.aio-max-nr=N";
	if (err == -ENOSYS)
		return "this kernel was built without AIO (CONFIG_AIO)";
	return NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.alias = "kaio",
	.help = "Linux native AIO: io_submit and io_getevents",
	.flags = ENGINE_ASYNC_NEEDS_DIRECT | ENGINE_CMDPRIO,
	.submit_call = "io_submit",
	.options = aio_options,
	.options_size = sizeof(struct aio_opts),
	.check = aio_check,
	.plan = aio_plan,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.exit = aio_exit,
	.hint = aio_hint,
};
