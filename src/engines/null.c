// SPDX-License-Identifier: MIT
/*
 * null: completes every request at once without touching a file. What it
 * measures is iorig's own cost per I/O: generation, timing, accounting.
 * Its trims and syncs, which the worker does for every engine, complete
 * at once too (ENGINE_NOIO).
 */
#include "clock.h"
#include "engine.h"

static int null_queue(struct engine_ctx *ctx, struct io_req *req)
{
	req->res = req->len;
	req->t_done = clock_ticks(ctx->clk);
	return ENGINE_DONE;
}

const struct engine_ops engine_null = {
	.name = "null",
	.help = "no I/O: iorig's own cost per request",
	.flags = ENGINE_SYNC | ENGINE_NOIO,
	.queue = null_queue,
};
