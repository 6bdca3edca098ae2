// SPDX-License-Identifier: MIT
/*
 * posixaio: POSIX asynchronous I/O (aio_read/aio_write, completions by
 * aio_error/aio_return, waits in aio_suspend). glibc carries these out on
 * its own helper threads doing pread/pwrite, so this engine measures that
 * library, as fio's posixaio does; libaio and io_uring are the kernel's
 * interfaces.
 *
 * queue() fills the request's aiocb; commit() issues every queued one
 * (t_submit as aio_read/aio_write returns); reap() looks over the requests
 * in flight, stamps t_done on those no longer EINPROGRESS the first time
 * it sees them, and sleeps in aio_suspend until at least min are done.
 * A request the library refuses (EAGAIN: no helper left) stays queued for
 * the next reap(); any other refusal completes with its error.
 */
#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"

struct pa_state {
	struct aiocb *cbs;		/* one per request slot (req->idx) */
	struct io_req **reqs;		/* by slot */
	unsigned *pending;		/* queued, not issued: slots */
	unsigned npending;
	unsigned *flight;		/* issued, not reaped: slots */
	unsigned nflight;
	const struct aiocb **wait;	/* aio_suspend's list */
	struct io_req **failed;		/* refused at issue */
	unsigned nfailed;
	unsigned depth;
};

static void pa_exit(struct engine_ctx *ctx)
{
	struct pa_state *st = ctx->priv;
	unsigned i;

	if (!st)
		return;
	/* Nothing may still write into a buffer after exit(). */
	for (i = 0; i < st->nflight; i++) {
		struct aiocb *cb = &st->cbs[st->flight[i]];

		if (aio_cancel(cb->aio_fildes, cb) == AIO_NOTCANCELED)
			while (aio_error(cb) == EINPROGRESS) {
				const struct aiocb *one = cb;

				aio_suspend(&one, 1, NULL);
			}
	}
	free(st->cbs);
	free(st->reqs);
	free(st->pending);
	free(st->flight);
	free(st->wait);
	free(st->failed);
	free(st);
	ctx->priv = NULL;
}

static int pa_init(struct engine_ctx *ctx)
{
	unsigned n = ctx->iodepth;
	struct pa_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	ctx->priv = st;
	st->depth = n;
	st->cbs = calloc(n, sizeof(*st->cbs));
	st->reqs = calloc(n, sizeof(*st->reqs));
	st->pending = calloc(n, sizeof(*st->pending));
	st->flight = calloc(n, sizeof(*st->flight));
	st->wait = calloc(n, sizeof(*st->wait));
	st->failed = calloc(n, sizeof(*st->failed));
	if (!st->cbs || !st->reqs || !st->pending || !st->flight ||
	    !st->wait || !st->failed) {
		pa_exit(ctx);
		return -ENOMEM;
	}
	return 0;
}

static int pa_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct pa_state *st = ctx->priv;
	struct aiocb *cb;

	if (req->idx >= st->depth)
		return -EINVAL;
	cb = &st->cbs[req->idx];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = req->fd;
	cb->aio_buf = req->buf;
	cb->aio_nbytes = req->len;
	cb->aio_offset = (off_t)req->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	st->reqs[req->idx] = req;
	st->pending[st->npending++] = req->idx;
	return ENGINE_QUEUED;
}

/* Issue the pending requests in order; stops at EAGAIN. */
static int pa_flush(struct engine_ctx *ctx)
{
	struct pa_state *st = ctx->priv;
	unsigned i, done = 0;
	int issued = 0;

	for (i = 0; i < st->npending; i++) {
		unsigned slot = st->pending[i];
		struct io_req *req = st->reqs[slot];
		struct aiocb *cb = &st->cbs[slot];
		int r = req->ddir == DDIR_READ ? aio_read(cb) : aio_write(cb);

		if (r && errno == EAGAIN)
			break;
		done++;
		if (r) {
			req->res = -errno;
			req->t_done = clock_ticks(ctx->clk);
			st->failed[st->nfailed++] = req;
			continue;
		}
		req->t_submit = clock_ticks(ctx->clk);
		st->flight[st->nflight++] = slot;
		issued++;
	}
	st->npending -= done;
	memmove(st->pending, st->pending + done,
		st->npending * sizeof(*st->pending));
	return issued;
}

static int pa_commit(struct engine_ctx *ctx)
{
	return pa_flush(ctx);
}

static int pa_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out,
		   unsigned max)
{
	struct pa_state *st = ctx->priv;
	unsigned got = 0, i;

	for (;;) {
		uint64_t now;

		if (st->npending)
			pa_flush(ctx);
		while (st->nfailed && got < max)
			out[got++] = st->failed[--st->nfailed];
		now = clock_ticks(ctx->clk);
		for (i = 0; i < st->nflight && got < max;) {
			unsigned slot = st->flight[i];
			struct aiocb *cb = &st->cbs[slot];
			struct io_req *req = st->reqs[slot];
			int e = aio_error(cb);

			if (e == EINPROGRESS) {
				i++;
				continue;
			}
			req->t_done = now;
			if (e) {
				aio_return(cb);
				req->res = -e;
			} else {
				req->res = aio_return(cb);
			}
			out[got++] = req;
			st->flight[i] = st->flight[--st->nflight];
		}
		if (got >= min || got == max ||
		    (!st->nflight && !st->npending))
			return (int)got;
		for (i = 0; i < st->nflight; i++)
			st->wait[i] = &st->cbs[st->flight[i]];
		if (st->nflight && aio_suspend(st->wait, (int)st->nflight,
					       NULL) && errno != EINTR &&
		    errno != EAGAIN)
			return -errno;
	}
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.help = "POSIX aio_read/aio_write (glibc's threads)",
	.init = pa_init,
	.queue = pa_queue,
	.commit = pa_commit,
	.reap = pa_reap,
	.exit = pa_exit,
};
