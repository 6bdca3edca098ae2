// SPDX-License-Identifier: MIT
/*
 * Engine conformance: every engine of engine_list(), driven directly
 * through init/queue/commit/reap/exit the way the worker drives it, on a
 * scratch file laid out by the test and, when root, on a loop device.
 *
 * For each engine, variant (io_uring: fixedbufs, registerfiles, SQPOLL;
 * pthread: pool sizes), buffered and O_DIRECT, queue depths 1, 8 and 32
 * (O_DIRECT at qd=1 and the loop device: fewer, see add_engine()):
 * - data: every 4 KiB block of a 4 MiB region is written in a shuffled
 *   order with a pattern naming its offset and a generation in every
 *   8-byte word, read back in another order and compared; then one pass of
 *   mixed batches of reads and writes to distinct blocks, with batches of
 *   1..depth and reap(min 0) in between as the worker does; then the
 *   target is read outside the engine and compared;
 * - every completion: res == len, t_done set, t_queue <= t_submit <=
 *   t_done when t_submit is recorded (a queued engine must record it),
 *   the request one of ours and in flight; ENGINE_SYNC engines complete
 *   every request inside queue(); BUSY only with something in flight;
 * - exit: exit() with I/O in flight returns only when the kernel and the
 *   engine's threads are done with the buffers (poisoned right after it);
 * - eof: a read across the end of the target is short (0 <= res < len);
 * - badfd: a bad fd (registerfiles: a bad file index) completes with a
 *   negative res, the rest of the same batch completes normally;
 * - back to back: qd=1, each I/O reaped before the next is queued;
 * - the cpu hook (pthread): answers with I/O in flight, and the pool's
 *   CPU time grows over the I/O it did.
 * null goes through the contract without data. An engine that cannot
 * initialize here (io_uring disabled, no AIO: ENOSYS, EPERM, EACCES,
 * ENOMEM, EAGAIN) is reported as skipped with the reason and the engine's
 * hint, never passed (any other init error fails); so are O_DIRECT cases on
 * a file system without it and the loop device cases when not root.
 *
 * A hang is a failure: every test runs under alarm().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "unit.h"

#include "clock.h"
#include "engine.h"
#include "job.h"
#include "options.h"
#include "stats.h"
#include "target.h"

#define BLK		4096u
#define REGION		(4u << 20)
#define NBLK		(REGION / BLK)
#define STRIDE		(2 * BLK)	/* room for a 2-block read past EOF */
#define TEST_TIMEOUT_S	60
#define POISON		0xa5
#define SKEW_NS		10000	/* see h_done() */
#define B2B_MAX_NS	2000000000ull	/* see test_b2b() */

enum kind { K_DATA, K_EXIT, K_EOF, K_BADFD, K_NOIO, K_B2B };

struct variant {
	const char *label;
	bool fixedbufs, registerfiles, sqpoll;
	unsigned pool_threads;
};

struct ecase {
	char *name;
	const struct engine_ops *ops;
	const struct variant *v;
	enum kind kind;
	bool direct;
	bool loopdev;
	unsigned depth;
};

/* The scratch targets, shared by every test of a group. */
struct scratch {
	char dir[PATH_MAX - 64];
	char file[PATH_MAX];	/* REGION bytes, the file tests */
	char img[PATH_MAX];	/* loop device backing file */
	bool odirect;		/* the file system takes O_DIRECT */
	char dev[64];		/* /dev/loopN, or "" */
	int dev_hold;		/* keeps the autoclear loop device alive */
	char dev_why[PATH_MAX + 64];	/* why there is no loop device */
};

static struct scratch S = { .dev_hold = -1 };

/* One engine instance and the worker-side bookkeeping around it. */
struct harness {
	const struct ecase *c;
	const struct engine_ops *ops;
	struct job job;
	bool job_set;
	struct clock clk;
	struct target_file tf;
	struct target tgt;
	struct engine_ctx ctx;
	unsigned depth;
	uint64_t size;		/* bytes of the target */
	int fd;
	struct io_req *reqs;
	struct io_req **freel;
	struct io_req **out;
	void *bufs;
	bool *owned;		/* per slot: the engine holds it */
	int64_t *want;		/* per slot: expected res; INT64_MIN: < 0 */
	bool *check;		/* per slot: verify read data */
	uint32_t *gen;		/* per block: generation of its contents */
	bool *busy;		/* per block: an I/O is in flight on it */
	unsigned nfree, inflight, queued, batch;
	uint64_t completions;
	uint64_t rng;
};

/* ---- small tools ---- */

/*
 * Failures are also kept for a recap after cmocka's summary, which names
 * the failed tests but not why (tests/run-all.sh shows the log's tail).
 */
#define RECAP_MAX	20
static const char *cur_test;
static char recap[RECAP_MAX][320];
static unsigned nrecap;

static void note_failure(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void note_failure(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (nrecap < RECAP_MAX)
		snprintf(recap[nrecap], sizeof(recap[0]), "%s: %s",
			 cur_test ? cur_test : "?", msg);
	nrecap++;
}

#define h_fail(...) do {						\
		note_failure(__VA_ARGS__);				\
		fail_msg(__VA_ARGS__);					\
	} while (0)

static uint64_t rnd(struct harness *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

static void shuffle(struct harness *h, uint32_t *v, unsigned n)
{
	unsigned i, k;
	uint32_t t;

	for (i = 0; i < n; i++)
		v[i] = i;
	for (i = n - 1; i > 0; i--) {
		k = (unsigned)(rnd(h) % (i + 1));
		t = v[i];
		v[i] = v[k];
		v[k] = t;
	}
}

static uint64_t pat(uint64_t off, uint32_t gen, size_t word)
{
	return (off + word * 8) ^ ((uint64_t)gen << 40) ^ 0x5eed000000000000ull;
}

static void fill(void *buf, uint64_t off, uint32_t gen, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = pat(off, gen, i);
}

/* 0 when buf holds block off of generation gen, else 1 + the bad word. */
static size_t mismatch(const void *buf, uint64_t off, uint32_t gen, size_t len)
{
	const uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pat(off, gen, i))
			return i + 1;
	return 0;
}

static void on_alarm(int sig)
{
	static const char msg[] = "test_engines: a test took more than "
				  "60 s: hung, failing\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* Write the whole target with generation gen, outside the engine. */
static void layout(int fd, uint64_t size, uint32_t gen)
{
	void *buf = NULL;
	uint64_t off;

	assert_int_equal(posix_memalign(&buf, 4096, 1 << 20), 0);
	for (off = 0; off < size; off += 1 << 20) {
		size_t n = size - off < (1 << 20) ? size - off : 1 << 20;
		size_t b;

		for (b = 0; b < n; b += BLK)
			fill((char *)buf + b, off + b, gen, BLK);
		assert_int_equal(pwrite(fd, buf, n, (off_t)off), (ssize_t)n);
	}
	assert_int_equal(fsync(fd), 0);
	free(buf);
}

/* ---- the harness: init/exit ---- */

static const char *target_path(const struct ecase *c)
{
	return c->loopdev ? S.dev : S.file;
}

static int h_setup(void **state)
{
	const struct ecase *c = *state;
	static struct err_rec e;
	struct harness *h;
	char num[16];
	unsigned i;

	alarm(TEST_TIMEOUT_S);
	cur_test = c->name;
	h = calloc(1, sizeof(*h));
	assert_non_null(h);
	h->c = c;
	h->ops = c->ops;
	h->fd = -1;
	h->tf.fd = -1;
	h->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)c->depth << 32 ^ c->direct;
	*state = h;
	h->depth = (c->ops->flags & ENGINE_SYNC) ? 1 : c->depth;
	h->size = REGION;
	h->reqs = calloc(h->depth, sizeof(*h->reqs));
	h->freel = calloc(h->depth, sizeof(*h->freel));
	h->out = calloc(h->depth, sizeof(*h->out));
	h->owned = calloc(h->depth, sizeof(*h->owned));
	h->want = calloc(h->depth, sizeof(*h->want));
	h->check = calloc(h->depth, sizeof(*h->check));
	h->gen = calloc(NBLK, sizeof(*h->gen));
	h->busy = calloc(NBLK, sizeof(*h->busy));
	assert_true(h->reqs && h->freel && h->out && h->owned && h->want &&
		    h->check && h->gen && h->busy);
	assert_int_equal(posix_memalign(&h->bufs, target_buf_align(),
					STRIDE * h->depth), 0);
	memset(h->bufs, 0, STRIDE * h->depth);
	for (i = 0; i < h->depth; i++) {
		h->reqs[i].idx = i;
		h->reqs[i].buf = (char *)h->bufs + (size_t)i * STRIDE;
		h->freel[i] = &h->reqs[i];
	}
	h->nfree = h->depth;
	h->batch = h->depth;
	assert_int_equal(clock_init(&h->clk, true), 0);
	assert_int_equal(options_defaults(&h->job), 0);
	h->job_set = true;
	h->job.eng.iodepth = h->depth;
	h->job.cache.direct = c->direct;
	/* the engine and its options, as a job file gives them */
	snprintf(num, sizeof(num), "%u", c->v->pool_threads);
	assert_int_equal(options_set(&h->job, "ioengine", c->ops->name, "t",
				     1, &e), 0);
	assert_int_equal(options_set(&h->job, "fixedbufs",
				     c->v->fixedbufs ? "1" : "0", "t", 2, &e),
			 0);
	assert_int_equal(options_set(&h->job, "registerfiles",
				     c->v->registerfiles ? "1" : "0", "t", 3,
				     &e), 0);
	assert_int_equal(options_set(&h->job, "sqthread_poll",
				     c->v->sqpoll ? "1" : "0", "t", 4, &e), 0);
	assert_int_equal(options_set(&h->job, "pool_threads", num, "t", 5,
				     &e), 0);
	h->job.io.bs_min[0] = h->job.io.bs_max[0] = BLK;
	h->job.io.bs_min[1] = h->job.io.bs_max[1] = BLK;
	return 0;
}

/*
 * Opens the target and initializes the engine. Skips (with the reason
 * and the engine's hint) what cannot run here.
 */
static void h_start(struct harness *h)
{
	const struct ecase *c = h->c;
	const char *path = target_path(c);
	const char *hint;
	int r;

	if (c->loopdev && !S.dev[0]) {
		print_message("SKIP: no loop device: %s\n", S.dev_why);
		skip();
	}
	if (c->direct && !c->loopdev && !S.odirect) {
		print_message("SKIP: %s does not take O_DIRECT\n", S.dir);
		skip();
	}
	if (!(c->ops->flags & ENGINE_NOIO)) {
		h->fd = open(path, O_RDWR | O_CLOEXEC |
			     (c->direct ? O_DIRECT : 0));
		assert_true(h->fd >= 0);
		if (c->loopdev) {
			assert_int_equal(ioctl(h->fd, BLKGETSIZE64, &h->size),
					 0);
			assert_true(h->size >= REGION);
			h->size = REGION;	/* the device is the region */
		}
	}
	h->tf.path = (char *)path;
	h->tf.fd = h->fd;
	h->tf.is_bdev = c->loopdev;
	h->tf.exists = true;
	h->tf.cur_size = h->size;
	h->tf.offset = 0;
	h->tf.len = REGION;
	h->tf.dio_align = 512;
	h->tf.dio_mem_align = 512;
	h->tgt.files = &h->tf;
	h->tgt.nfiles = 1;
	h->tgt.file_region = REGION;
	h->tgt.region = REGION;
	h->ctx.job = &h->job;
	h->ctx.eo = h->job.eng.eopts;
	h->ctx.iodepth = h->depth;
	h->ctx.clk = &h->clk;
	h->ctx.tgt = &h->tgt;
	h->ctx.bufs = h->bufs;
	h->ctx.buf_stride = STRIDE;
	if (!c->ops->init)
		return;
	r = c->ops->init(&h->ctx);
	if (!r)
		return;
	assert_null(h->ctx.priv);
	hint = c->ops->hint ? c->ops->hint(r) : NULL;
	/* What the system refuses is a skip; anything else, a failure. */
	if (r == -ENOSYS || r == -EPERM || r == -EACCES || r == -ENOMEM ||
	    r == -EAGAIN) {
		print_message("SKIP: engine %s cannot initialize here: "
			      "%s%s%s\n", c->ops->name, strerror(-r),
			      hint ? "; " : "", hint ? hint : "");
		skip();
	}
	h_fail("%s: init: %s%s%s", c->ops->name, strerror(-r),
	       hint ? "; " : "", hint ? hint : "");
}

static void h_exit(struct harness *h)
{
	if (h->ctx.priv && h->ops->exit)
		h->ops->exit(&h->ctx);
	if (h->ops->exit)
		assert_null(h->ctx.priv);
}

static int h_teardown(void **state)
{
	struct harness *h = *state;

	h_exit(h);
	if (h->fd >= 0)
		close(h->fd);
	if (h->job_set)
		job_free(&h->job);
	free(h->bufs);
	free(h->busy);
	free(h->gen);
	free(h->check);
	free(h->want);
	free(h->owned);
	free(h->out);
	free(h->freel);
	free(h->reqs);
	free(h);
	alarm(0);
	return 0;
}

/* ---- the harness: the worker's loop ---- */

/* A completed request: the contract's checks, then back to the free list. */
static void h_done(struct harness *h, struct io_req *req)
{
	uint64_t now = clock_ticks(&h->clk);
	unsigned i;
	size_t bad;

	assert_true(req >= h->reqs && req < h->reqs + h->depth);
	assert_ptr_equal(req, &h->reqs[req->idx]);
	i = req->idx;
	if (!h->owned[i])
		h_fail("slot %u completed twice or was never queued", i);
	h->owned[i] = false;
	if (!req->t_done)
		h_fail("%s: completion without t_done", h->ops->name);
	/*
	 * An engine's own thread stamps t_submit and t_done (pthread) on
	 * another CPU, with an unserialized TSC read that may run a little
	 * ahead of the loads before it: allow SKEW_NS of disorder.
	 */
	if (!(req->t_done >= req->t_queue ||
	      clock_delta_ns(&h->clk, req->t_done, req->t_queue) < SKEW_NS))
		h_fail("%s: t_done before t_queue", h->ops->name);
	if (!(req->t_done <= now ||
	      clock_delta_ns(&h->clk, now, req->t_done) < SKEW_NS))
		h_fail("%s: t_done after the reap returned", h->ops->name);
	if (req->t_submit) {
		if (req->t_submit < req->t_queue &&
		    clock_delta_ns(&h->clk, req->t_submit, req->t_queue) >=
		    SKEW_NS)
			h_fail("%s: slot %u at %llu: t_submit %llu ns before "
			       "t_queue", h->ops->name, i,
			       (unsigned long long)req->offset,
			       (unsigned long long)clock_delta_ns(&h->clk,
				      req->t_submit, req->t_queue));
		if (req->t_done < req->t_submit)
			h_fail("%s: slot %u: t_done before t_submit",
			       h->ops->name, i);
	} else if (!(h->ops->flags & ENGINE_SYNC) && req->res >= 0) {
		h_fail("%s: a queued request completed without t_submit",
		       h->ops->name);
	}
	if (h->want[i] == INT64_MIN) {
		if (req->res >= 0)
			h_fail("%s: %s with a bad fd at %llu: res %lld, "
			       "expected -errno", h->ops->name,
			       req->ddir ? "write" : "read",
			       (unsigned long long)req->offset,
			       (long long)req->res);
	} else if (req->res != h->want[i]) {
		h_fail("%s: %s of %u at %llu: res %lld, expected %lld",
		       h->ops->name, req->ddir ? "write" : "read", req->len,
		       (unsigned long long)req->offset, (long long)req->res,
		       (long long)h->want[i]);
	}
	if (h->check[i]) {
		const uint64_t *w = req->buf;
		uint32_t g = h->gen[req->offset / BLK];

		bad = mismatch(req->buf, req->offset, g, req->len);
		if (bad)
			h_fail("%s: read at %llu: word %zu is %#llx, "
			       "expected %#llx (generation %u)",
			       h->ops->name, (unsigned long long)req->offset,
			       bad - 1, (unsigned long long)w[bad - 1],
			       (unsigned long long)pat(req->offset, g, bad - 1),
			       g);
	}
	if (req->offset < REGION && req->len == BLK && !(req->offset % BLK))
		h->busy[req->offset / BLK] = false;
	h->completions++;
	h->freel[h->nfree++] = req;
}

static void h_commit(struct harness *h)
{
	int r;

	if (!h->queued)
		return;
	r = h->ops->commit(&h->ctx);
	if (r < 0)
		h_fail("%s: commit: %s", h->ops->name, strerror(-r));
	assert_true((unsigned)r <= h->queued);
	h->queued = 0;
}

/* One reap call: wait for min, take up to what is in flight. */
static unsigned h_reap(struct harness *h, unsigned min)
{
	unsigned max = h->inflight, n;
	int r, i;

	if (!max)
		return 0;
	if (min > max)
		min = max;
	r = h->ops->reap(&h->ctx, min, h->out, max);
	if (r < 0)
		h_fail("%s: reap(min %u, max %u): %s", h->ops->name, min,
		       max, strerror(-r));
	n = (unsigned)r;
	assert_true(n <= max);
	for (i = 0; i < r; i++)
		h_done(h, h->out[i]);
	h->inflight -= n;
	return n;
}

/* Reap until at least one completes (reap may return early on EAGAIN). */
static void h_reap_one(struct harness *h)
{
	unsigned tries;

	for (tries = 0; tries < 100000; tries++)
		if (h_reap(h, 1))
			return;
	h_fail("%s: reap(min 1) keeps returning nothing with %u in flight",
	       h->ops->name, h->inflight);
}

static void h_drain(struct harness *h)
{
	h_commit(h);
	while (h->inflight)
		h_reap_one(h);
}

static struct io_req *h_get(struct harness *h)
{
	while (!h->nfree) {
		h_commit(h);
		h_reap_one(h);
	}
	return h->freel[--h->nfree];
}

/*
 * Queue one request as the worker does: DONE completes it, QUEUED counts
 * it in flight (commit after `batch` of them), BUSY commits, reaps and
 * retries. want: the expected res (INT64_MIN: any -errno).
 */
static void h_issue(struct harness *h, int ddir, uint64_t off, uint32_t len,
		    int fd, uint16_t file, int64_t want, bool check)
{
	struct io_req *req = h_get(h);
	unsigned busy = 0;
	int r;

	req->offset = off;
	req->len = len;
	req->ddir = (uint8_t)ddir;
	req->file = file;
	req->fd = fd;
	req->res = INT64_MIN + 12345;	/* the engine must set it */
	req->t_submit = 0;
	req->t_done = 0;
	req->engine_priv = NULL;
	if (ddir == DDIR_WRITE)
		fill(req->buf, off, h->gen[off / BLK], len);
	else
		memset(req->buf, POISON, len);
	h->want[req->idx] = want;
	h->check[req->idx] = check;
	if (off < REGION && len == BLK && !(off % BLK)) {
		if (h->busy[off / BLK])
			h_fail("test bug: two I/Os on block %llu",
			       (unsigned long long)(off / BLK));
		h->busy[off / BLK] = true;
	}
	for (;;) {
		req->t_queue = clock_ticks(&h->clk);
		h->owned[req->idx] = true;
		r = h->ops->queue(&h->ctx, req);
		if (r == ENGINE_DONE) {
			h_done(h, req);
			return;
		}
		if (h->ops->flags & ENGINE_SYNC)
			h_fail("%s is ENGINE_SYNC but queue() returned %d",
			       h->ops->name, r);
		if (r == ENGINE_QUEUED) {
			h->inflight++;
			if (++h->queued >= h->batch)
				h_commit(h);
			return;
		}
		h->owned[req->idx] = false;
		if (r != ENGINE_BUSY)
			h_fail("%s: queue(): %d (%s)", h->ops->name, r,
			       r < 0 ? strerror(-r) : "not a queue result");
		/* The worker never has more than iodepth requests out. */
		if (!h->inflight && !h->queued)
			h_fail("%s: queue() returned BUSY with nothing in "
			       "flight (the worker fails the job: engine is "
			       "busy with no I/O in flight)", h->ops->name);
		if (++busy > 100000)
			h_fail("%s: BUSY for ever", h->ops->name);
		h_commit(h);
		h_reap(h, 1);
	}
}

static void h_read(struct harness *h, uint32_t blk)
{
	h_issue(h, DDIR_READ, (uint64_t)blk * BLK, BLK, h->fd, 0, BLK, true);
}

static void h_write(struct harness *h, uint32_t blk, uint32_t gen)
{
	h->gen[blk] = gen;
	h_issue(h, DDIR_WRITE, (uint64_t)blk * BLK, BLK, h->fd, 0, BLK, false);
}

/* Every block of the target, outside the engine, against h->gen. */
static void verify_target(struct harness *h)
{
	int fd = open(target_path(h->c), O_RDONLY | O_CLOEXEC);
	void *buf = NULL;
	uint32_t b;
	size_t bad;

	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&buf, 4096, BLK), 0);
	for (b = 0; b < NBLK; b++) {
		assert_int_equal(pread(fd, buf, BLK, (off_t)b * BLK), BLK);
		bad = mismatch(buf, (uint64_t)b * BLK, h->gen[b], BLK);
		if (bad)
			h_fail("%s: block %u on the target: word %zu is "
			       "not generation %u", h->ops->name, b, bad - 1,
			       h->gen[b]);
	}
	free(buf);
	close(fd);
}

/* ---- the tests ---- */

static void test_data(void **state)
{
	struct harness *h = *state;
	uint32_t *order = calloc(NBLK, sizeof(*order));
	struct cpu_usage cpu[3] = { { 0 } };
	unsigned i, gen = 1;

	assert_non_null(order);
	h_start(h);
	if (h->ops->cpu)
		h->ops->cpu(&h->ctx, &cpu[0]);
	/* Write every block, shuffled; read every block, shuffled again. */
	shuffle(h, order, NBLK);
	for (i = 0; i < NBLK; i++)
		h_write(h, order[i], gen);
	h_drain(h);
	shuffle(h, order, NBLK);
	for (i = 0; i < NBLK; i++)
		h_read(h, order[i]);
	h_drain(h);
	/*
	 * Mixed: each block once, read or rewritten, batches of 1..depth,
	 * and sometimes a reap(min 0) while there is room, as the worker
	 * does with small submit batches.
	 */
	gen++;
	shuffle(h, order, NBLK);
	for (i = 0; i < NBLK; i++) {
		if (i % 64 == 0)
			h->batch = 1 + (unsigned)(rnd(h) % h->depth);
		if (rnd(h) & 1)
			h_write(h, order[i], gen);
		else
			h_read(h, order[i]);
		if (h->inflight && h->inflight < h->depth && rnd(h) % 4 == 0) {
			h_commit(h);
			h_reap(h, 0);
		}
		/* The CPU hook, with I/O in flight: answers, no deadlock. */
		if (i == NBLK / 2 && h->ops->cpu) {
			h_commit(h);
			h->ops->cpu(&h->ctx, &cpu[1]);
		}
	}
	h_drain(h);
	assert_int_equal(h->completions, 3 * NBLK);
	if (h->ops->cpu) {
		/* The engine's threads' CPU only grows; they did the I/O. */
		h->ops->cpu(&h->ctx, &cpu[2]);
		assert_true(cpu[1].utime_ns + cpu[1].stime_ns >=
			    cpu[0].utime_ns + cpu[0].stime_ns);
		assert_true(cpu[2].utime_ns + cpu[2].stime_ns >=
			    cpu[1].utime_ns + cpu[1].stime_ns);
		assert_true(cpu[2].utime_ns + cpu[2].stime_ns >
			    cpu[0].utime_ns + cpu[0].stime_ns);
	}
	assert_int_equal(h->nfree, h->depth);
	h_exit(h);
	verify_target(h);
	free(order);
}

/*
 * exit() with reads and writes in flight: once it returns, nothing may
 * touch the buffers. They are poisoned at once; a read landing late
 * would overwrite the poison, a write reading them late would put it on
 * the target.
 */
static void test_exit_inflight(void **state)
{
	struct harness *h = *state;
	unsigned i, n = h->depth, half = (n + 1) / 2;
	struct timespec ts = { 0, 20 * 1000000 };
	const unsigned char *p;
	void *buf = NULL;
	uint32_t b;
	int fd;

	h_start(h);
	fd = open(target_path(h->c), O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	layout(fd, h->size, 7);
	close(fd);
	for (b = 0; b < NBLK; b++)
		h->gen[b] = 7;
	/* Half queued, committed and reaped once (that submits)... */
	for (i = 0; i < half; i++) {
		if (i % 2)
			h_read(h, i * 16);
		else
			h_write(h, i * 16, 8);
	}
	h_commit(h);
	if (h->inflight)
		h_reap(h, 0);
	/* ...the rest only committed. */
	for (i = half; i < n && h->nfree; i++) {
		if (i % 2)
			h_read(h, i * 16);
		else
			h_write(h, i * 16, 8);
	}
	h_commit(h);
	h_exit(h);
	memset(h->bufs, POISON, STRIDE * h->depth);
	nanosleep(&ts, NULL);
	for (p = h->bufs, i = 0; i < STRIDE * h->depth; i++)
		if (p[i] != POISON)
			h_fail("%s: byte %u of the request buffers changed "
			       "after exit() returned", h->ops->name, i);
	/* Each written block is whole: old or new, never poison. */
	fd = open(target_path(h->c), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&buf, 4096, BLK), 0);
	for (i = 0; i < n; i += 2) {
		assert_int_equal(pread(fd, buf, BLK, (off_t)i * 16 * BLK), BLK);
		if (mismatch(buf, (uint64_t)i * 16 * BLK, 7, BLK) &&
		    mismatch(buf, (uint64_t)i * 16 * BLK, 8, BLK))
			h_fail("%s: block %u is neither old nor new data "
			       "after exit()", h->ops->name, i * 16);
	}
	free(buf);
	close(fd);
}

/*
 * A read across the end of the target is short, one at the end reads 0
 * bytes: res < len, not an error. O_DIRECT: whole blocks only.
 */
static void test_eof(void **state)
{
	struct harness *h = *state;
	uint64_t end;
	int fd;

	h_start(h);
	/* Exactly REGION bytes: a file test may have left it longer. */
	if (!h->c->loopdev) {
		fd = open(S.file, O_RDWR | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, REGION), 0);
		close(fd);
	}
	end = h->size;
	if (h->c->direct)
		h_issue(h, DDIR_READ, end - BLK, 2 * BLK, h->fd, 0, BLK,
			false);
	else
		h_issue(h, DDIR_READ, end - 1024, BLK, h->fd, 0, 1024, false);
	h_issue(h, DDIR_READ, end, BLK, h->fd, 0, 0, false);
	h_issue(h, DDIR_READ, end + 16 * BLK, BLK, h->fd, 0, 0, false);
	h_drain(h);
	assert_int_equal(h->completions, 3);
}

/*
 * A bad fd (or, with registered files, a bad file index) completes with
 * -errno through the normal path; good I/O in the same batch completes.
 */
static void test_badfd(void **state)
{
	struct harness *h = *state;
	bool reg = h->c->v->registerfiles;
	uint64_t off;
	int closed, i;

	h_start(h);
	closed = dup(h->fd);
	assert_true(closed >= 0);
	close(closed);
	for (i = 0; i < 4; i++)
		h_write(h, 30 + i, 2);
	h_drain(h);
	for (i = 0; i < 4; i++) {
		h_write(h, 10 + i, 3);
		off = (uint64_t)(100 + 2 * i) * BLK;
		if (reg)
			h_issue(h, DDIR_READ, off, BLK, h->fd, 1, INT64_MIN,
				false);
		else
			h_issue(h, DDIR_READ, off, BLK, -1, 0, INT64_MIN,
				false);
		h_read(h, 30 + i);
		off += BLK;
		if (reg)
			h_issue(h, DDIR_WRITE, off, BLK, h->fd, 7, INT64_MIN,
				false);
		else
			h_issue(h, DDIR_WRITE, off, BLK, closed, 0, INT64_MIN,
				false);
		if (i % 2)
			h_drain(h);
	}
	h_drain(h);
	assert_int_equal(h->completions, 20);
}

/*
 * Back to back at queue depth 1: each request is reaped before the next is
 * queued, so the engine always has room; fast cached reads make any window
 * between "completion seen" and "slot reusable" (a submission ring entry
 * the kernel has not yet given back) show up as BUSY with nothing in
 * flight, which the worker turns into a failed job.
 */
static void test_b2b(void **state)
{
	struct harness *h = *state;
	unsigned long spins;
	unsigned i;

	uint64_t end = clock_mono_ns() + B2B_MAX_NS;

	h_start(h);
	/* 32 Ki I/Os, or fewer when slow (SQPOLL on a busy machine). */
	for (i = 0; i < 32 * NBLK && (i % 256 || clock_mono_ns() < end); i++) {
		h_issue(h, DDIR_READ, (uint64_t)(i % 64) * BLK, BLK, h->fd, 0,
			BLK, false);
		h_commit(h);
		/*
		 * Every other one: poll with reap(min 0) as the worker does
		 * while it has room, and queue the next the moment the
		 * completion shows.
		 */
		for (spins = 0; i % 2 && h->inflight && !h_reap(h, 0);
		     spins++) {
			/* The kernel's SQPOLL thread may need this CPU. */
			if (spins > 64)
				sched_yield();
			if (spins > 10000000ul)
				h_fail("%s: reap(min 0) never returned the "
				       "completion", h->ops->name);
		}
		h_drain(h);
	}
	assert_int_equal(h->completions, i);
}

/* null moves no data: every request completes inside queue(). */
static void test_noio(void **state)
{
	struct harness *h = *state;
	unsigned i;

	h_start(h);
	for (i = 0; i < 1000; i++)
		h_issue(h, i % 3 ? DDIR_READ : DDIR_WRITE,
			(uint64_t)(i % NBLK) * BLK, BLK, -1, 0, BLK, false);
	h_drain(h);
	assert_int_equal(h->completions, 1000);
}

/* The table itself: names, aliases, the hooks each kind of engine needs. */
static void test_table(void **state)
{
	const struct engine_ops *const *e;
	unsigned n = 0;

	(void)state;
	for (e = engine_list(); *e; e++, n++) {
		const struct engine_ops *o = *e;

		assert_non_null(o->name);
		assert_non_null(o->help);
		assert_non_null(o->queue);
		assert_ptr_equal(engine_find(o->name), o);
		if (o->alias)
			assert_ptr_equal(engine_find(o->alias), o);
		if (!(o->flags & ENGINE_SYNC)) {
			assert_non_null(o->commit);
			assert_non_null(o->reap);
		}
		/* What init makes, exit frees. */
		assert_true(!o->init == !o->exit);
		if (o->flags & ENGINE_NOIO)
			assert_true(o->flags & ENGINE_SYNC);
	}
	assert_true(n >= 5);
	assert_null(engine_find("no-such-engine"));
}

/* ---- scratch targets and the loop device ---- */

static void rm_scratch(void)
{
	if (S.dev_hold >= 0)
		close(S.dev_hold);	/* autoclear detaches the device */
	S.dev_hold = -1;
	if (S.file[0])
		unlink(S.file);
	if (S.img[0])
		unlink(S.img);
	if (S.dir[0])
		rmdir(S.dir);
}

static int make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	void *buf = NULL;
	uint64_t off;

	if (fd < 0 || posix_memalign(&buf, 4096, 1 << 20))
		return -1;
	memset(buf, 0x11, 1 << 20);
	for (off = 0; off < size; off += 1 << 20)
		if (pwrite(fd, buf, 1 << 20, (off_t)off) != 1 << 20)
			break;
	free(buf);
	if (off < size || fsync(fd)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int files_setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	(void)state;
	snprintf(S.dir, sizeof(S.dir), "%s/iorig-engines.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(S.dir)) {
		S.dir[0] = '\0';
		return -1;
	}
	atexit(rm_scratch);
	snprintf(S.file, sizeof(S.file), "%s/t.dat", S.dir);
	if (make_file(S.file, REGION))
		return -1;
	fd = open(S.file, O_RDWR | O_DIRECT | O_CLOEXEC);
	S.odirect = fd >= 0;
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * Attach S.img to a free loop device with LO_FLAGS_AUTOCLEAR: the kernel
 * detaches it when the last descriptor closes, so even a test that dies
 * leaves no device behind. S.dev_hold is that descriptor.
 */
static int loop_attach(void)
{
	struct loop_config cfg;
	struct loop_info64 info;
	int ctl, img, dev = -1, n, tries;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		snprintf(S.dev_why, sizeof(S.dev_why), "/dev/loop-control: %s",
			 strerror(errno));
		return -1;
	}
	img = open(S.img, O_RDWR | O_CLOEXEC);
	if (img < 0) {
		close(ctl);
		return -1;
	}
	for (tries = 0; tries < 10 && dev < 0; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			snprintf(S.dev_why, sizeof(S.dev_why),
				 "LOOP_CTL_GET_FREE: %s", strerror(errno));
			break;
		}
		snprintf(S.dev, sizeof(S.dev), "/dev/loop%d", n);
		dev = open(S.dev, O_RDWR | O_CLOEXEC);
		if (dev < 0) {
			snprintf(S.dev_why, sizeof(S.dev_why), "%s: %s",
				 S.dev, strerror(errno));
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)img;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (ioctl(dev, LOOP_CONFIGURE, &cfg) == 0)
			break;
		if (errno == EINVAL || errno == ENOTTY) {
			/* Before 5.8: two steps. */
			memset(&info, 0, sizeof(info));
			info.lo_flags = LO_FLAGS_AUTOCLEAR;
			if (ioctl(dev, LOOP_SET_FD, img) == 0) {
				if (ioctl(dev, LOOP_SET_STATUS64, &info) == 0)
					break;
				ioctl(dev, LOOP_CLR_FD, 0);
			}
		}
		snprintf(S.dev_why, sizeof(S.dev_why), "attaching %s: %s",
			 S.dev, strerror(errno));
		close(dev);
		dev = -1;	/* taken meanwhile: another one */
	}
	close(img);
	close(ctl);
	if (dev < 0) {
		S.dev[0] = '\0';
		return -1;
	}
	S.dev_hold = dev;
	return 0;
}

static int loop_setup(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		snprintf(S.dev_why, sizeof(S.dev_why), "needs root");
		return 0;
	}
	snprintf(S.img, sizeof(S.img), "%s/loop.img", S.dir);
	if (make_file(S.img, REGION)) {
		snprintf(S.dev_why, sizeof(S.dev_why), "cannot make %s",
			 S.img);
		return 0;
	}
	loop_attach();	/* tests skip with S.dev_why when it failed */
	return 0;
}

static int group_setup(void **state)
{
	int r = files_setup(state);

	return r ? r : loop_setup(state);
}

static int loop_teardown(void **state)
{
	int fd;

	(void)state;
	if (S.dev_hold >= 0) {
		/* Detach now; autoclear covers a test that died. */
		ioctl(S.dev_hold, LOOP_CLR_FD, 0);
		close(S.dev_hold);
		S.dev_hold = -1;
		/* The device must be gone: no backing file any more. */
		fd = open(S.dev, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			struct loop_info64 info;

			if (ioctl(fd, LOOP_GET_STATUS64, &info) == 0)
				fprintf(stderr, "warning: %s still attached\n",
					S.dev);
			close(fd);
		}
	}
	return 0;
}

/* ---- the test list ---- */

static const struct variant v_plain = { .label = "" };
static const struct variant v_uring[] = {
	{ .label = "" },
	{ .label = "fixedbufs", .fixedbufs = true },
	{ .label = "registerfiles", .registerfiles = true },
	{ .label = "fixedbufs,registerfiles", .fixedbufs = true,
	  .registerfiles = true },
	{ .label = "sqthread_poll", .sqpoll = true },
};
static const struct variant v_pthread[] = {
	{ .label = "" },
	{ .label = "pool_threads=1", .pool_threads = 1 },
	{ .label = "pool_threads=3", .pool_threads = 3 },
};


static const struct variant *variants(const struct engine_ops *o, size_t *n)
{
	if (!strcmp(o->name, "io_uring")) {
		*n = ARRAY_SIZE(v_uring);
		return v_uring;
	}
	if (!strcmp(o->name, "pthread")) {
		*n = ARRAY_SIZE(v_pthread);
		return v_pthread;
	}
	*n = 1;
	return &v_plain;
}

static const char *const kind_name[] = {
	[K_DATA] = "data", [K_EXIT] = "exit with I/O in flight",
	[K_EOF] = "read past the end", [K_BADFD] = "bad fd",
	[K_NOIO] = "contract", [K_B2B] = "back to back",
};

static const CMUnitTestFunction kind_fn[] = {
	[K_DATA] = test_data, [K_EXIT] = test_exit_inflight,
	[K_EOF] = test_eof, [K_BADFD] = test_badfd, [K_NOIO] = test_noio,
	[K_B2B] = test_b2b,
};

struct list {
	struct CMUnitTest *t;
	size_t n, cap;
};

static void grow(struct list *l)
{
	if (l->n == l->cap && !(l->t = realloc(l->t, (l->cap = l->cap * 2 +
						     16) * sizeof(*l->t)))) {
		perror("test_engines");
		exit(1);
	}
}

static void add_test(struct list *l, const char *name, CMUnitTestFunction f)
{
	grow(l);
	l->t[l->n++] = (struct CMUnitTest){ .name = name, .test_func = f };
}

static void add(struct list *l, const struct engine_ops *o,
		const struct variant *v, enum kind k, bool direct,
		unsigned depth, bool loopdev)
{
	struct ecase *c = calloc(1, sizeof(*c));

	if (!c) {
		perror("test_engines");
		exit(1);
	}
	grow(l);
	c->ops = o;
	c->v = v;
	c->kind = k;
	c->direct = direct;
	c->depth = depth;
	c->loopdev = loopdev;
	if (asprintf(&c->name, "%s%s%s%s %s %s qd=%u: %s", o->name,
		     v->label[0] ? "[" : "", v->label, v->label[0] ? "]" : "",
		     loopdev ? "loopdev" : "file",
		     direct ? "direct=1" : "direct=0",
		     (o->flags & ENGINE_SYNC) ? 1 : depth, kind_name[k]) < 0)
		exit(1);
	l->t[l->n++] = (struct CMUnitTest){
		.name = c->name, .test_func = kind_fn[k],
		.setup_func = h_setup, .teardown_func = h_teardown,
		.initial_state = c,
	};
}

static void add_engine(struct list *l, const struct engine_ops *o,
		       bool loopdev)
{
	static const unsigned depths[] = { 1, 8, 32 };
	const struct variant *v;
	size_t nv, i, d;
	int direct;

	if (o->flags & ENGINE_NOIO) {
		/* cpuio and exec: a request is CPU or wall time with 0 bytes
		 * and needs its job's options; CLI tests 190 and 191 check
		 * them against fio. */
		if (!loopdev && !(o->flags & ENGINE_NODATA))
			add(l, o, &v_plain, K_NOIO, false, 1, false);
		return;
	}
	/* NVMe passthrough (io_uring_cmd) needs an NVMe generic char
	 * device and sg a SCSI device, which neither a file nor a loop
	 * device is: the test guest's cases 06-08 drive io_uring_cmd on
	 * QEMU's controller, case 13 sg on scsi_debug. */
	if (o->flags & (ENGINE_NVME_CHAR | ENGINE_SCSI))
		return;
	/* No data moves (falloc): nothing here to check; the CLI tests
	 * count its calls and the blocks it allocates. */
	if (o->flags & ENGINE_NODATA)
		return;
	v = variants(o, &nv);
	for (i = 0; i < nv; i++) {
		for (direct = loopdev; direct < 2; direct++) {
			for (d = 0; d < ARRAY_SIZE(depths); d++) {
				if ((o->flags & ENGINE_SYNC) && d)
					break;
				/*
				 * O_DIRECT at qd=1 waits for the device once
				 * per I/O: only the default variant there.
				 * The loop device is slower still (every I/O
				 * goes through the loop driver and its
				 * backing file): the variants only at the
				 * deepest queue, the default at qd=1 too.
				 */
				if (direct && i && d == 0)
					continue;
				if (loopdev && !(o->flags & ENGINE_SYNC) &&
				    (i ? d < ARRAY_SIZE(depths) - 1 : d == 1))
					continue;
				add(l, o, &v[i], K_DATA, direct, depths[d],
				    loopdev);
			}
			add(l, o, &v[i], K_EXIT, direct, 32, loopdev);
			/* A mapping has no fd per request and no end to
			 * read past: the target covers every request. */
			if (!(o->flags & ENGINE_MAPPED))
				add(l, o, &v[i], K_EOF, direct, 8, loopdev);
			if (!loopdev && !(o->flags & ENGINE_MAPPED))
				add(l, o, &v[i], K_BADFD, direct, 8, loopdev);
			if (!loopdev && !direct && !(o->flags & ENGINE_SYNC))
				add(l, o, &v[i], K_B2B, direct, 1, loopdev);
		}
	}
}

int main(void)
{
	const struct engine_ops *const *e;
	struct list l = { 0 };
	struct sigaction sa = { .sa_handler = on_alarm };
	unsigned i;
	int fails;

	sigaction(SIGALRM, &sa, NULL);
	add_test(&l, "engine table", test_table);
	for (e = engine_list(); *e; e++)
		add_engine(&l, *e, false);
	for (e = engine_list(); *e; e++)
		add_engine(&l, *e, true);
	/* One group: cmocka's closing summary names every failed test. */
	fails = _cmocka_run_group_tests("engines", l.t, l.n, group_setup,
					loop_teardown);
	/* On stdout after cmocka's own lines. */
	if (nrecap)
		printf("\nwhy (%u):\n", nrecap);
	for (i = 0; i < nrecap && i < RECAP_MAX; i++)
		printf("  %s\n", recap[i]);
	return fails ? 1 : 0;
}
