// SPDX-License-Identifier: MIT
/*
 * mmap: every file's region is mapped once at init (MAP_SHARED, read and
 * write when the file was opened for writing, else PROT_READ only) and
 * each request is a memcpy between the request's buffer and the
 * mapping: reads and writes go through the page cache by page faults,
 * as fio's mmap engine does. With direct=1 each request is followed by
 * msync(MS_SYNC) of its pages and madvise(MADV_DONTNEED), so that the
 * data reach the device and the next access faults again.
 *
 * A mapping beyond the file's end would fault with SIGBUS: the target
 * (target.h) makes every file at least as long as its region before the
 * job starts, so none is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "job.h"
#include "optdef.h"
#include "target.h"

struct mmap_opts {
	bool thp;		/* MADV_HUGEPAGE on each mapping */
};

static const struct opt_def mmap_options[] = {
	{ .name = "thp", .type = OPT_BOOL,
	  .off = offsetof(struct mmap_opts, thp), .def = "0",
	  .category = "engine",
	  .help = "mmap: advise transparent huge pages on each mapping "
		  "(madvise MADV_HUGEPAGE)" },
	{ .name = NULL },
};

struct mm_file {
	char *base;		/* mapping of [start, start + len) */
	uint64_t start;		/* page-aligned file offset of base */
	size_t len;
};

struct mm_state {
	struct mm_file *f;
	unsigned n;
	uintptr_t page_mask;
	bool direct;
};

static void mm_exit(struct engine_ctx *ctx)
{
	struct mm_state *st = ctx->priv;
	unsigned i;

	if (!st)
		return;
	for (i = 0; i < st->n; i++)
		if (st->f[i].base)
			munmap(st->f[i].base, st->f[i].len);
	free(st->f);
	free(st);
	ctx->priv = NULL;
}

static int mm_init(struct engine_ctx *ctx)
{
	const struct target *t = ctx->tgt;
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t page = psz > 0 ? (uint64_t)psz : 4096;
	struct mm_state *st = calloc(1, sizeof(*st));
	unsigned i;

	if (!st)
		return -ENOMEM;
	ctx->priv = st;
	st->page_mask = (uintptr_t)page - 1;
	st->direct = ctx->job->cache.direct;
	st->f = calloc(t->nfiles, sizeof(*st->f));
	if (!st->f) {
		mm_exit(ctx);
		return -ENOMEM;
	}
	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];
		struct mm_file *m = &st->f[i];
		void *p;

		int fl = fcntl(tf->fd, F_GETFL);

		m->start = tf->offset / page * page;
		m->len = (size_t)(tf->offset + tf->len - m->start);
		/* Opened read-only (a job that only reads, --readonly): the
		 * mapping is read-only too, never writable by mistake. */
		p = mmap(NULL, m->len, fl >= 0 && (fl & O_ACCMODE) == O_RDONLY ?
			 PROT_READ : PROT_READ | PROT_WRITE, MAP_SHARED,
			 tf->fd, (off_t)m->start);
		if (p == MAP_FAILED) {
			int err = -errno;

			mm_exit(ctx);
			return err;
		}
		/* thp=: advice only, as fio (which ignores its failure) */
		if (((const struct mmap_opts *)ctx->eo)->thp)
			madvise(p, m->len, MADV_HUGEPAGE);
		m->base = p;
		st->n = i + 1;
	}
	return 0;
}

static int mm_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct mm_state *st = ctx->priv;
	const struct mm_file *m = &st->f[req->file];
	char *at = m->base + (req->offset - m->start);

	req->res = req->len;
	if (req->ddir == DDIR_READ)
		memcpy(req->buf, at, req->len);
	else
		memcpy(at, req->buf, req->len);
	if (st->direct) {
		char *pg = (char *)((uintptr_t)at & ~st->page_mask);
		size_t n = (size_t)(at - pg) + req->len;

		if ((req->ddir != DDIR_READ && msync(pg, n, MS_SYNC)) ||
		    madvise(pg, n, MADV_DONTNEED))
			req->res = -errno;
	}
	req->t_done = clock_ticks(ctx->clk);
	return ENGINE_DONE;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.help = "memcpy to and from a shared mapping of each file",
	.flags = ENGINE_SYNC | ENGINE_MAPPED,
	.options = mmap_options,
	.options_size = sizeof(struct mmap_opts),
	.init = mm_init,
	.queue = mm_queue,
	.exit = mm_exit,
};
