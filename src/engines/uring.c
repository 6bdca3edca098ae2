// SPDX-License-Identifier: MIT
/*
 * io_uring: requests go into the submission ring, completions come back
 * through the completion ring, through liburing's public API.
 *
 * System calls, timestamps and the invariants of the loop: ring.h
 * (struct ring_io), which io_uring_cmd shares.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include <liburing.h>

#include "clock.h"
#include "cmdprio.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "ring.h"
#include "target.h"

struct uring_opts {
	struct cmdprio_opts cp;	/* first: ENGINE_CMDPRIO */
	uint64_t force_async;	/* IOSQE_ASYNC every N; 0: none */
	char *nonvectored;	/* the text, for --parse-only */
	bool vectored;		/* nonvectored=0: READV/WRITEV */
	/* registered buffers and files: 0, 1, -1 when possible */
	signed char fixedbufs;
	signed char registerfiles;
	bool sqthread_poll;	/* SQPOLL */
	uint64_t sqthread_poll_cpu;	/* UINT64_MAX: not pinned */
	bool hipri;		/* IOPOLL */
};

_Static_assert(offsetof(struct uring_opts, cp) == 0, "ENGINE_CMDPRIO");

#define O(field) offsetof(struct uring_opts, field)

static int store_nonvectored(void *base, const struct opt_def *o,
			     const char *val, unsigned kb_base, char *why,
			     size_t whylen)
{
	struct uring_opts *uo = base;

	return ring_nonvectored(val, kb_base, &uo->vectored, why, whylen);
}

static const struct opt_def uring_options[] = {
	CMDPRIO_OPTIONS(struct uring_opts),
	{ .name = "force_async", .type = OPT_UINT, .off = O(force_async),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "engine",
	  .help = "io_uring: every Nth I/O goes to the kernel's worker "
		  "threads (IOSQE_ASYNC); 0: none" },
	{ .name = "nonvectored", .type = OPT_STR, .off = O(nonvectored),
	  .store = store_nonvectored, .def = "-1", .category = "engine",
	  .help = "io_uring: 0: vectored reads and writes (READV, WRITEV); "
		  "any other integer (-1, the default): READ, WRITE "
		  "(fixedbufs: READ_FIXED either way)" },
	{ .name = "fixedbufs", .type = OPT_BOOL, .off = O(fixedbufs),
	  .def = "auto", .flags = OPT_F_AUTO, .category = "engine",
	  .help = "io_uring: register the I/O buffers with the kernel; "
		  "auto: when it can" },
	{ .name = "registerfiles", .type = OPT_BOOL, .off = O(registerfiles),
	  .def = "auto", .flags = OPT_F_AUTO, .category = "engine",
	  .help = "io_uring: register the files with the kernel; auto: "
		  "when it can" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, .off = O(sqthread_poll),
	  .def = "0", .category = "engine",
	  .help = "io_uring: a kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = OPT_UINT,
	  .off = O(sqthread_poll_cpu), .def = "none", .min = 0,
	  .max = 65535, .flags = OPT_F_NONE | OPT_F_PARAM,
	  .category = "engine",
	  .help = "io_uring: pin the SQPOLL thread to this CPU; none: not "
		  "pinned" },
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .def = "0",
	  .category = "engine",
	  .help = "io_uring: poll for completions (IOPOLL); pvsync2: "
		  "RWF_HIPRI (needs direct=1 and poll queues)" },
	{ .name = NULL },
};

/* unlink_each_loop makes the files again between loops (not within a
 * time_based run, one loop): registered ones would be the old files. */
static bool recreates(const struct job *j)
{
	return j->target.unlink_each_loop && !j->time.time_based;
}

static int uring_check(const struct job *j, const void *eo,
		       struct err_rec *e)
{
	const struct uring_opts *o = eo;

	if (o->registerfiles > 0 && recreates(j)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"unlink_each_loop", "registerfiles=1 registers the "
			"files once; expected registerfiles=0");
		return -EINVAL;
	}
	return engine_check_hipri(j, o->hipri, e) ?
	       -EINVAL : cmdprio_check(j, &o->cp, e);
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct uring {
	struct ring_io io;		/* first: the loop's, hot */
	uint64_t force_async, fa_count;	/* force_async=: every Nth I/O */
	struct iovec *iov;		/* nonvectored=0: one per slot */
	unsigned reqs_per_buf;		/* fixedbufs: per buffer */
	bool fixed_bufs;
	bool fixed_files;
	bool reg_fd;			/* the ring fd is registered */
	unsigned flags;			/* IORING_SETUP_* in effect */
	/* plain: no SQPOLL, no iovec, no force_async (uring_queue_plain);
	 * op: its opcodes by direction (read, write; a trim never comes);
	 * sqe_flags: IOSQE_FIXED_FILE or 0 */
	bool plain;
	__u8 op[DDIR_NR], sqe_flags;
	/* the usual ring's queue(): uring_queue_ff or uring_queue_fd */
	int (*queue_plain)(struct engine_ctx *ctx, struct io_req *req);
};

/*
 * Task-running flags, best first; each -EINVAL moves one step down.
 * DEFER_TASKRUN (5.19+, as fio 3.33 sets it) is what makes a wait for
 * several completions cheap: without it, every completion that arrives
 * as task work (all of them for I/O that goes through io-wq, as on zram)
 * wakes the waiting thread, whatever min_complete says, and on one CPU
 * the wakeup preempts the io-wq worker: two context switches per I/O.
 * With it the thread is woken once min_complete completions are there.
 * Measured on zram, 4k random reads, QD32, one CPU, kernel 6.18: waiting
 * for 8 at a time made 215k IOPS without it, 288k with it; waiting for 1
 * at a time, it cost 20% (a job whose trial finds it to pay lingers in
 * its waits for more, src/worker/depth.c).
 */
static const unsigned uring_ladder[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
	IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

/* Create the ring with the best flags this kernel takes. */
static int uring_setup(struct uring *u, const struct uring_opts *o,
		       unsigned *flags)
{
	const struct ring_params rp = {
		.base = IORING_SETUP_CLAMP,
		.ladder = uring_ladder,
		.nladder = ARRAY_SIZE(uring_ladder),
		.hipri = o->hipri,
		.sqthread_poll = o->sqthread_poll,
		.sqthread_poll_cpu = o->sqthread_poll_cpu,
	};

	return ring_setup(&u->io.ring, u->io.depth, &rp, flags);
}

/* First integer in the file, or -1. */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * hipri: the block layer fails polled I/O to a queue without poll queues
 * (EOPNOTSUPP); say so before any I/O. Only a sysfs "0" refuses: stacked
 * or virtual devices without the attribute are left to the kernel.
 */
static int uring_check_poll(const struct target *t)
{
	char path[96];
	struct stat st;
	unsigned i;
	dev_t dev;

	for (i = 0; t && i < t->nfiles; i++) {
		if (fstat(t->files[i].fd, &st))
			continue;
		dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/"
			 "io_poll", major(dev), minor(dev));
		if (access(path, R_OK))	/* a partition: its disk's queue */
			snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../"
				 "queue/io_poll", major(dev), minor(dev));
		if (read_long(path) == 0)
			return -EOPNOTSUPP;
	}
	return 0;
}

static void uring_free(struct uring *u)
{
	free(u->iov);
	ring_io_free(&u->io);
	free(u);
}

/* The usual ring's queue() (below). */
static int uring_queue_ff(struct engine_ctx *ctx, struct io_req *req);
static int uring_queue_fd(struct engine_ctx *ctx, struct io_req *req);

static int uring_init(struct engine_ctx *ctx)
{
	const struct uring_opts *o = ctx->eo;
	bool vectored = o->vectored;
	/* the files unlink_each_loop makes again are not the registered
	 * ones */
	int registerfiles = recreates(ctx->job) ? 0 : o->registerfiles;
	struct uring *u;
	unsigned flags;
	int r;

	/* IOPOLL completes only O_DIRECT I/O: every request would fail. */
	if (o->hipri && !ctx->job->cache.direct)
		return -EINVAL;
	if (!ctx->iodepth)
		return -EINVAL;
	if (o->hipri) {
		r = uring_check_poll(ctx->tgt);
		if (r)
			return r;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	r = ring_io_alloc(&u->io, ctx->iodepth, ctx->clk);
	if (!r && vectored) {
		u->iov = calloc(u->io.depth, sizeof(*u->iov));
		r = u->iov ? 0 : -ENOMEM;
	}
	if (r)
		goto err_free;
	r = uring_setup(u, o, &flags);
	if (r)
		goto err_free;
	u->io.sqpoll = flags & IORING_SETUP_SQPOLL;
	u->force_async = o->force_async;
	u->io.defer = flags & IORING_SETUP_DEFER_TASKRUN;
	/*
	 * Registered buffers and files spare the kernel a page pinning and
	 * an fd lookup per I/O (about 15% of the IOPS of 4 KiB reads from
	 * zram on one CPU). By default (-1) they are used when the kernel
	 * takes them (locked-memory limits may refuse the buffers); asked
	 * for (1), a refusal fails the job.
	 */
	if (o->fixedbufs) {
		r = ring_register_bufs(&u->io.ring, ctx, u->io.depth,
				       &u->reqs_per_buf);
		if (r && o->fixedbufs > 0)
			goto err_exit;
		u->fixed_bufs = !r;
	}
	if (registerfiles) {
		r = ring_register_files(&u->io.ring, ctx->tgt);
		if (r && registerfiles > 0)
			goto err_exit;
		u->fixed_files = !r;
	}
	/* Optional (5.18+): spares the kernel an fd lookup per call. */
	u->reg_fd = io_uring_register_ring_fd(&u->io.ring) == 1;
	u->io.reg_ring = u->reg_fd;
	ring_io_linger_set(&u->io, ctx, o->hipri);
	u->flags = flags;
	u->plain = !u->io.sqpoll && !u->iov && !u->force_async &&
		   !(u->io.ring.flags & IORING_SETUP_SQE128) &&
		   u->io.ring.sq.array &&
		   u->io.depth <= u->io.ring.sq.ring_entries;
	u->op[DDIR_READ] = u->fixed_bufs ? IORING_OP_READ_FIXED :
			   IORING_OP_READ;
	u->op[DDIR_WRITE] = u->fixed_bufs ? IORING_OP_WRITE_FIXED :
			    IORING_OP_WRITE;
	u->op[DDIR_TRIM] = IORING_OP_NOP;
	u->sqe_flags = u->fixed_files ? IOSQE_FIXED_FILE : 0;
	ctx->priv = u;
	/* the usual ring's queue() without a choice per I/O (engine.h) */
	if (u->plain) {
		u->queue_plain = u->fixed_files ? uring_queue_ff :
				 uring_queue_fd;
		ctx->queue = u->queue_plain;
	}
	ctx->queue_nocall = !u->io.sqpoll;
	ctx->stamps_own = true;
	return 0;

err_exit:
	io_uring_queue_exit(&u->io.ring);
err_free:
	uring_free(u);
	return r;
}

/* The fields of req's own SQE that each of its I/Os writes, the values
 * liburing's prep helpers would write; ff: u->fixed_files. */
static inline __attribute__((always_inline)) void
uring_sqe_io(const struct uring *u, struct io_uring_sqe *sqe,
	     const struct io_req *req, const bool ff)
{
	sqe->opcode = u->op[req->ddir];
	sqe->ioprio = req->ioprio;
	sqe->fd = ff ? req->file : req->fd;
	sqe->off = req->offset;
	sqe->addr = (unsigned long)req->buf;
	sqe->len = req->len;
}

/* req's SQE is ready in the ring: it is pending (ring_io_queued). */
static inline __attribute__((always_inline)) int
uring_sqe_queued(struct uring *u, struct io_req *req)
{
	u->io.pend[u->io.npend++] = req;
	u->io.outstanding++;
	return ENGINE_QUEUED;
}

/*
 * req's first I/O in its own SQE (uring_queue_plain): the fields that
 * stay from one of its I/Os to the next written too (the flags, the
 * registered buffer's index, the user data, the zeroes).
 */
static __attribute__((noinline)) int uring_sqe_first(struct uring *u,
						     struct io_uring_sqe *sqe,
						     struct io_req *req)
{
	memset(sqe, 0, sizeof(*sqe));
	sqe->flags = u->sqe_flags;
	sqe->buf_index = u->fixed_bufs ?
			 (__u16)(req->idx / u->reqs_per_buf) : 0;
	io_uring_sqe_set_data(sqe, req);
	uring_sqe_io(u, sqe, req, u->fixed_files);
	return uring_sqe_queued(u, req);
}

/*
 * The usual ring's queue() between commit() and reap() (uring_commit puts
 * it in ctx->queue, uring_reap puts the usual one back): the committed
 * batch submitted first (ring.h: commit()'s promise), so that the usual
 * queue() never looks at committed. It puts the usual one back itself.
 */
static __attribute__((noinline)) int
uring_queue_committed(struct engine_ctx *ctx, struct io_req *req)
{
	struct uring *u = ctx->priv;
	int r;

	ctx->queue = u->queue_plain;
	if (u->io.committed) {
		r = ring_io_submit(&u->io);
		if (r < 0)
			return r;
	}
	return u->queue_plain(ctx, req);
}

/*
 * queue() of the usual ring (u->plain: no SQPOLL, 64-byte SQEs, no
 * iovec, no force_async). Each request has an SQE of its own, the one
 * of its index (req->idx < depth <= the ring's entries), where liburing
 * takes the next SQE in ring order: the submission ring's index array,
 * which tells the kernel which SQE each entry is, gets req->idx in the
 * entry's place. The kernel has read an SQE by the time the call that
 * submits it returns (IORING_FEAT_SUBMIT_STABLE, 5.5), and a request is
 * queued again only once reaped, so its SQE is free then: what does not
 * change between its I/Os is written at its first (uring_sqe_first),
 * and each I/O writes six fields (uring_sqe_io). Every SQ entry not yet
 * consumed is a request in flight, and req is not (the worker queues
 * only requests it holds: new or reaped), so fewer than depth are: the
 * ring has room for req whatever its head, which need not be read, and
 * the queue is never full here (no ENGINE_BUSY). The rare cases are
 * calls apart, so that this one saves no registers.
 */
static inline __attribute__((always_inline)) int
uring_queue_plain(struct engine_ctx *ctx, struct io_req *req, const bool ff)
{
	struct uring *u = ctx->priv;
	struct io_uring_sq *sq = &u->io.ring.sq;
	struct io_uring_sqe *sqe;
	unsigned tail;

	tail = sq->sqe_tail;
	sq->array[tail & sq->ring_mask] = req->idx;
	sq->sqe_tail = tail + 1;
	sqe = &sq->sqes[req->idx];
	if (sqe->user_data != (uintptr_t)req)
		return uring_sqe_first(u, sqe, req);
	uring_sqe_io(u, sqe, req, ff);
	return uring_sqe_queued(u, req);
}

/*
 * The usual ring's queue(), the worker's to call (ctx->queue, set by
 * init): with registered files (ff) and without, so that neither looks
 * at u->plain or u->fixed_files per I/O.
 */
static int uring_queue_ff(struct engine_ctx *ctx, struct io_req *req)
{
	return uring_queue_plain(ctx, req, true);
}

static int uring_queue_fd(struct engine_ctx *ctx, struct io_req *req)
{
	return uring_queue_plain(ctx, req, false);
}

/* queue() of any other ring; apart, so that the usual one saves no
 * registers. */
static __attribute__((noinline)) int uring_queue_any(struct uring *u,
						     struct io_req *req)
{
	struct io_uring_sqe *sqe;
	int fd, r;

	r = ring_io_sqe(&u->io, &sqe);
	if (r)
		return r;
	fd = u->fixed_files ? req->file : req->fd;
	if (u->fixed_bufs) {
		/* One buffer, the usual case: no division per I/O */
		int bi = req->idx < u->reqs_per_buf ? 0 :
			 (int)(req->idx / u->reqs_per_buf);

		if (req->ddir == DDIR_READ)
			io_uring_prep_read_fixed(sqe, fd, req->buf, req->len,
						 req->offset, bi);
		else
			io_uring_prep_write_fixed(sqe, fd, req->buf, req->len,
						  req->offset, bi);
	} else if (u->iov) {
		/* nonvectored=0: IORING_OP_READV/WRITEV of one iovec */
		u->iov[req->idx].iov_base = req->buf;
		u->iov[req->idx].iov_len = req->len;
		if (req->ddir == DDIR_READ)
			io_uring_prep_readv(sqe, fd, &u->iov[req->idx], 1,
					    req->offset);
		else
			io_uring_prep_writev(sqe, fd, &u->iov[req->idx], 1,
					     req->offset);
	} else if (req->ddir == DDIR_READ) {
		io_uring_prep_read(sqe, fd, req->buf, req->len, req->offset);
	} else {
		io_uring_prep_write(sqe, fd, req->buf, req->len, req->offset);
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (req->ioprio)
		sqe->ioprio = req->ioprio;
	if (u->force_async && ++u->fa_count >= u->force_async) {
		u->fa_count = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	ring_io_queued(&u->io, sqe, req);
	return ENGINE_QUEUED;
}

static int uring_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct uring *u = ctx->priv;

	if (u->plain)
		return u->io.committed ? uring_queue_committed(ctx, req) :
		       u->queue_plain(ctx, req);
	return uring_queue_any(u, req);
}

static int uring_commit(struct engine_ctx *ctx)
{
	struct uring *u = ctx->priv;
	int r = ring_io_commit(&u->io);

	/* the usual ring marks the batch (ring.h): until reap() submits
	 * it, queue() submits it first (uring_queue_committed) */
	if (u->plain && u->io.committed)
		ctx->queue = uring_queue_committed;
	return r;
}

static int uring_reap(struct engine_ctx *ctx, unsigned min,
		      struct io_req **out, unsigned max)
{
	struct uring *u = ctx->priv;
	int r = ring_io_reap(&u->io, min, out, max, ctx->reap_linger);

	/* reap() submitted the batch, or a queue() before it did */
	if (u->plain)
		ctx->queue = u->queue_plain;
	return r;
}

static void uring_exit(struct engine_ctx *ctx)
{
	struct uring *u = ctx->priv;

	if (!u)
		return;
	/* The worker frees the buffers after exit(): wait for every
	 * request the kernel holds. */
	ring_io_close(&u->io, u->fixed_files, u->fixed_bufs);
	uring_free(u);
	ctx->priv = NULL;
}

/* The ring flags in effect, then what was registered. */
static void uring_report_setup(const struct engine_ctx *ctx,
			       struct engine_setup *out)
{
	const struct uring *u = ctx->priv;

	out->n = 0;
	out->known = u != NULL;
	if (u)
		ring_report_flags(u->flags, out);
	if (u && u->fixed_bufs)
		out->what[out->n++] = "fixedbufs";
	if (u && u->fixed_files)
		out->what[out->n++] = "registerfiles";
	if (u && u->reg_fd)
		out->what[out->n++] = "registered_ring_fd";
}

#define SECCOMP_HINT \
	"this process runs under a seccomp filter (Seccomp: 2 in " \
	"/proc/self/status) and container runtimes' default profiles " \
	"block io_uring: allow io_uring_setup, io_uring_enter and " \
	"io_uring_register"

static const char *hint_denied(void)
{
	switch (read_long("/proc/sys/kernel/io_uring_disabled")) {
	case 2:
		return "io_uring is disabled on this system: "
		       "kernel.io_uring_disabled = 2 (sysctl "
		       "kernel.io_uring_disabled=0 allows it)";
	case 1:
		return "io_uring is restricted: kernel.io_uring_disabled = 1 "
		       "allows only CAP_SYS_ADMIN and the group in "
		       "kernel.io_uring_group";
	}
	if (engine_seccomp_mode() == 2)
		return SECCOMP_HINT;
	return "io_uring_setup(2) was refused: check sysctl "
	       "kernel.io_uring_disabled, seccomp (/proc/self/status) and "
	       "the LSM policy (SELinux/AppArmor audit log)";
}

/*
 * What to check when init() failed with err. Reads /proc to tell the
 * causes of EPERM/ENOSYS apart, so only for error paths.
 */
static const char *uring_hint(int err)
{
	switch (-err) {
	case ENOSYS:
		if (engine_seccomp_mode() == 2)
			return SECCOMP_HINT;
		return "io_uring_setup(2) is not implemented: the kernel is "
		       "built without CONFIG_IO_URING or is older than 5.1";
	case EPERM:
	case EACCES:
		return hint_denied();
	case ENOMEM:
		return "io_uring rings and fixedbufs buffers are locked "
		       "memory: without CAP_IPC_LOCK they count against the "
		       "locked-memory limit (ulimit -l); raise it or set "
		       "fixedbufs=0";
	case EOPNOTSUPP:
		return "hipri (IOPOLL) needs a device with poll queues "
		       "(/sys/block/<dev>/queue/io_poll is 0; NVMe: "
		       "nvme.poll_queues=N)";
	case EINVAL:
		return "settings refused: hipri needs direct=1, "
		       "sqthread_poll_cpu an online CPU, registerfiles no "
		       "more files than the open-file limit (ulimit -n)";
	default:
		return NULL;
	}
}

const struct engine_ops engine_uring = {
	.name = "io_uring",
	.alias = "uring",
	.help = "Linux io_uring (liburing): batched submit and reap",
	.flags = ENGINE_CMDPRIO,
	.submit_call = "io_uring_enter",
	.options = uring_options,
	.options_size = sizeof(struct uring_opts),
	.check = uring_check,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.exit = uring_exit,
	.hint = uring_hint,
	.setup = uring_report_setup,
};
