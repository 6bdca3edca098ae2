// SPDX-License-Identifier: MIT
/*
 * pvsync and pvsync2: one preadv/pwritev (pvsync) or preadv2/pwritev2
 * (pvsync2) of a single iovec per request, completed inline, as the sync
 * engine does with pread/pwrite. pvsync2 passes per-call flags:
 * hipri=1 RWF_HIPRI (polled completion; direct=1 on a device with poll
 * queues), nowait=1 RWF_NOWAIT (fail with EAGAIN instead of blocking),
 * uncached=1 RWF_DONTCACHE (buffered I/O that drops its pages once done;
 * Linux 6.14 and later; EOPNOTSUPP before, and ignored with direct=1,
 * which bypasses the cache anyway).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "clock.h"
#include "engine.h"
#include "job.h"
#include "optdef.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI	0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT	0x00000008
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE	0x00000080
#endif

static int pv_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct iovec iov = { .iov_base = req->buf, .iov_len = req->len };
	ssize_t r;

	if (req->ddir == DDIR_READ)
		r = preadv(req->fd, &iov, 1, (off_t)req->offset);
	else
		r = pwritev(req->fd, &iov, 1, (off_t)req->offset);
	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? -errno : r;
	return ENGINE_DONE;
}

struct pv2_opts {
	double hipri_percentage;	/* share of calls with RWF_HIPRI */
	bool hipri;			/* RWF_HIPRI on every call */
	bool nowait;			/* RWF_NOWAIT */
	bool uncached;			/* RWF_DONTCACHE, buffered only */
};

#define O(field) offsetof(struct pv2_opts, field)

static const struct opt_def pv2_options[] = {
	{ .name = "hipri_percentage", .type = OPT_PCT,
	  .off = O(hipri_percentage), .def = "0", .category = "engine",
	  .help = "pvsync2: this percent of I/Os, drawn at random, with "
		  "RWF_HIPRI (polled); hipri=1 is all of them" },
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .def = "0",
	  .category = "engine",
	  .help = "io_uring: poll for completions (IOPOLL); pvsync2: "
		  "RWF_HIPRI (needs direct=1 and poll queues)" },
	{ .name = "nowait", .type = OPT_BOOL, .off = O(nowait), .def = "0",
	  .category = "engine",
	  .help = "pvsync2: RWF_NOWAIT: an I/O that would block fails with "
		  "EAGAIN instead" },
	{ .name = "uncached", .type = OPT_BOOL, .off = O(uncached),
	  .def = "0", .category = "engine",
	  .help = "pvsync2: RWF_DONTCACHE: buffered I/O that drops its "
		  "pages from the cache once done (Linux 6.14+)" },
	{ .name = NULL },
};

static int pv2_check(const struct job *j, const void *eo, struct err_rec *e)
{
	const struct pv2_opts *o = eo;

	return engine_check_hipri(j, o->hipri, e);
}

/* The RWF_* flags of every call, fixed at init; hipri_percentage adds
 * RWF_HIPRI to a share of them (hipri_share in 1/2^32), drawn per call. */
struct pv2 {
	int flags;
	uint64_t hipri_share;	/* 0: none drawn */
	uint64_t rng;		/* xorshift64 */
};

static int pv2_init(struct engine_ctx *ctx)
{
	const struct pv2_opts *o = ctx->eo;
	unsigned pct = (unsigned)o->hipri_percentage;
	struct pv2 *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (o->hipri)
		st->flags |= RWF_HIPRI;
	if (o->nowait)
		st->flags |= RWF_NOWAIT;
	if (o->uncached && !ctx->job->cache.direct)
		st->flags |= RWF_DONTCACHE;
	if (!o->hipri && pct)
		st->hipri_share = ((uint64_t)pct << 32) / 100;
	st->rng = 0x9e3779b97f4a7c15ull ^ (uintptr_t)st;
	ctx->priv = st;
	return 0;
}

static int pv2_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct iovec iov = { .iov_base = req->buf, .iov_len = req->len };
	struct pv2 *st = ctx->priv;
	int flags = st->flags;
	ssize_t r;

	if (st->hipri_share) {
		st->rng ^= st->rng << 13;
		st->rng ^= st->rng >> 7;
		st->rng ^= st->rng << 17;
		if ((st->rng >> 32) < st->hipri_share)
			flags |= RWF_HIPRI;
	}
	if (req->ddir == DDIR_READ)
		r = preadv2(req->fd, &iov, 1, (off_t)req->offset, flags);
	else
		r = pwritev2(req->fd, &iov, 1, (off_t)req->offset, flags);
	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? -errno : r;
	return ENGINE_DONE;
}

static void pv2_exit(struct engine_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.help = "preadv/pwritev of one iovec, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = pv_queue,
};

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.help = "preadv2/pwritev2 with per-call RWF_* flags",
	.flags = ENGINE_SYNC,
	.options = pv2_options,
	.options_size = sizeof(struct pv2_opts),
	.check = pv2_check,
	.init = pv2_init,
	.queue = pv2_queue,
	.exit = pv2_exit,
};
