// SPDX-License-Identifier: MIT
/*
 * falloc: each request is one fallocate(2) over its range instead of a
 * data transfer, as fio's falloc engine: a write allocates (mode 0, which
 * may extend a file), a read allocates without changing the size
 * (FALLOC_FL_KEEP_SIZE) and a trim punches a hole
 * (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE). It measures the file
 * system's allocator, not the device: no data moves, so res is the
 * request's length on success.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>

#include "clock.h"
#include "engine.h"
#include "target.h"

static int falloc_queue(struct engine_ctx *ctx, struct io_req *req)
{
	static const int mode[DDIR_NR] = {
		[DDIR_READ] = FALLOC_FL_KEEP_SIZE,
		[DDIR_WRITE] = 0,
		/* The worker does trims itself (trim.h): the same call. */
		[DDIR_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	int r;

	r = fallocate(req->fd, mode[req->ddir], (off_t)req->offset,
		      (off_t)req->len);
	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? -errno : (int64_t)req->len;
	return ENGINE_DONE;
}

/* Block devices take hole punching only: no allocation to measure. */
static int falloc_init(struct engine_ctx *ctx)
{
	unsigned i;

	for (i = 0; i < ctx->tgt->nfiles; i++)
		if (ctx->tgt->files[i].is_bdev)
			return -EOPNOTSUPP;
	return 0;
}

static const char *falloc_hint(int err)
{
	return err == -EOPNOTSUPP ? "the falloc engine works on files only, "
	       "not block devices" : NULL;
}

/* init allocates nothing: nothing to free. */
static void falloc_exit(struct engine_ctx *ctx)
{
	(void)ctx;
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.help = "fallocate(2) per request; no data moves",
	.flags = ENGINE_SYNC | ENGINE_CHANGES_FILES | ENGINE_NODATA,
	.init = falloc_init,
	.queue = falloc_queue,
	.exit = falloc_exit,
	.hint = falloc_hint,
};
