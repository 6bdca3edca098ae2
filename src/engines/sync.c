// SPDX-License-Identifier: MIT
/*
 * sync: one pread/pwrite per request, completed inline. The worker stamps
 * t_queue just before queue() and the engine stamps t_done as soon as the
 * system call returns, so clat = lat = the system call.
 */
#include <errno.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"

static int sync_queue(struct engine_ctx *ctx, struct io_req *req)
{
	ssize_t r;

	if (req->ddir == DDIR_READ)
		r = pread(req->fd, req->buf, req->len, (off_t)req->offset);
	else
		r = pwrite(req->fd, req->buf, req->len, (off_t)req->offset);
	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? -errno : r;
	return ENGINE_DONE;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.alias = "psync",
	.help = "pread/pwrite, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = sync_queue,
};
