// SPDX-License-Identifier: MIT
/*
 * io_uring: requests go into the submission ring, completions come back
 * through the completion ring, through liburing's public API.
 *
 * System calls. The worker always follows commit() with reap() (it only
 * skips reap when nothing is in flight, and queued requests are in flight),
 * so without SQPOLL commit() hands nothing over by itself: it marks the
 * batch and reap() submits it. The submitting io_uring_enter never waits
 * (it only collects what is done: IORING_ENTER_GETEVENTS with min 0), so
 * that its return is the end of the submission, which slat must cover;
 * when fewer than min completions are then ready, a second io_uring_enter
 * waits for them. A call that submitted and waited at once could not tell
 * the two apart. QD1 thus costs one system call per I/O that completes
 * inside the submitting call (zram) and two otherwise, as in fio; a deep
 * queue one or two per commit+reap round. Should queue() be called again
 * after commit() without a reap in between, the marked batch is submitted
 * first, so commit()'s promise holds for any caller. reap() enters the
 * kernel to wait only when fewer than min completions are ready, and
 * with DEFER_TASKRUN also to collect when none are (completions reach
 * the ring only when this thread enters). With SQPOLL, commit()
 * publishes the batch to the kernel's polling thread at once (a system
 * call only when that thread sleeps) and reap() waits.
 *
 * Timestamps. t_submit: one clock read as soon as the io_uring_enter that
 * submits the request returns (SQPOLL: after the ring tail is published
 * and the polling thread woken if it slept), for every request it took.
 * A request the kernel did not take (short submit) is stamped when the
 * call that takes it returns. t_done: the first moment iorig sees the
 * completion. Completions already in the completion ring when the
 * submitting call returns (the ones of this batch done inside the call
 * among them) get that same clock read: clat 0, where fio's clat would
 * be the time until it looks at the ring. Others get one clock read per
 * batch, right after they are read from the ring; they were all observed
 * at that instant, and a clock read per completion would only add the
 * time spent in this loop. Either way a completion is read from the
 * ring once (uring_take): its slot is freed and its request waits in
 * done[] until reap() hands it out.
 *
 * Invariants: outstanding = requests queued and not yet reaped;
 * pend[0..npend) = those still in the submission ring, not yet consumed by
 * the kernel, in ring order (the kernel consumes from the head);
 * done[0..ndone) = those completed and taken from the completion ring,
 * in ring order, not yet reaped. reap() never waits for more than
 * outstanding - npend - ndone completions in the ring, so it never waits
 * on a request the kernel has not seen.
 *
 * -EAGAIN/-EBUSY (kernel short of memory) and -EINTR (a signal) from the
 * submitting call are not errors: the requests stay pending and are
 * submitted again by the next reap(); commit() and reap() return 0 for them.
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
	return j->unlink_each_loop && !j->time_based;
}

static int uring_check(const struct job *j, const void *eo,
		       struct err_rec *e)
{
	const struct uring_opts *o = eo;

	if (o->registerfiles > 0 && recreates(j)) {
		err_set(e, j->section_file, j->section_line,
			"unlink_each_loop", "registerfiles=1 registers the "
			"files once; expected registerfiles=0");
		return -EINVAL;
	}
	return engine_check_hipri(j, o->hipri, e) ?
	       -EINVAL : cmdprio_check(j, &o->cp, e);
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct uring {
	struct io_uring ring;
	const struct clock *clk;
	struct io_req **pend;		/* in the SQ ring, not yet consumed */
	struct io_uring_cqe **cqes;	/* peek buffer */
	struct io_req **done;		/* taken from the CQ ring, not reaped */
	unsigned depth;
	unsigned npend;
	unsigned outstanding;		/* queued, not yet reaped */
	unsigned ndone;
	unsigned reqs_per_buf;		/* fixedbufs: requests per buffer */
	bool committed;			/* pend was committed, not submitted */
	bool sqpoll;
	bool defer;			/* DEFER_TASKRUN in effect */
	uint64_t force_async, fa_count;	/* force_async=: every Nth I/O */
	struct iovec *iov;		/* nonvectored=0: one per slot */
	bool fixed_bufs;
	bool fixed_files;
	bool reg_fd;			/* the ring fd is registered */
	unsigned flags;			/* IORING_SETUP_* in effect */
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
 * at a time, it cost 20% (the worker now waits for half the queue when
 * the CPU is the limit, see worker/worker.c).
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

	return ring_setup(&u->ring, u->depth, &rp, flags);
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
	free(u->cqes);
	free(u->done);
	free(u->pend);
	free(u);
}

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
	if (o->hipri && !ctx->job->direct)
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
	u->depth = ctx->iodepth;
	u->clk = ctx->clk;
	u->pend = calloc(u->depth, sizeof(*u->pend));
	u->cqes = calloc(u->depth, sizeof(*u->cqes));
	u->done = calloc(u->depth, sizeof(*u->done));
	if (vectored)
		u->iov = calloc(u->depth, sizeof(*u->iov));
	if (!u->pend || !u->cqes || !u->done || (vectored && !u->iov)) {
		r = -ENOMEM;
		goto err_free;
	}
	r = uring_setup(u, o, &flags);
	if (r)
		goto err_free;
	u->sqpoll = flags & IORING_SETUP_SQPOLL;
	u->force_async = o->force_async;
	u->defer = flags & IORING_SETUP_DEFER_TASKRUN;
	/*
	 * Registered buffers and files spare the kernel a page pinning and
	 * an fd lookup per I/O (about 15% of the IOPS of 4 KiB reads from
	 * zram on one CPU). By default (-1) they are used when the kernel
	 * takes them (locked-memory limits may refuse the buffers); asked
	 * for (1), a refusal fails the job.
	 */
	if (o->fixedbufs) {
		r = ring_register_bufs(&u->ring, ctx, u->depth,
				       &u->reqs_per_buf);
		if (r && o->fixedbufs > 0)
			goto err_exit;
		u->fixed_bufs = !r;
	}
	if (registerfiles) {
		r = ring_register_files(&u->ring, ctx->tgt);
		if (r && registerfiles > 0)
			goto err_exit;
		u->fixed_files = !r;
	}
	/* Optional (5.18+): spares the kernel an fd lookup per call. */
	u->reg_fd = io_uring_register_ring_fd(&u->ring) == 1;
	u->flags = flags;
	ctx->priv = u;
	ctx->queue_nocall = !u->sqpoll;
	return 0;

err_exit:
	io_uring_queue_exit(&u->ring);
err_free:
	uring_free(u);
	return r;
}

/*
 * Take the completions in the ring into done[], in ring order, with
 * their result and t_done = t (t is the first moment we see them), and
 * free their slots: each completion is read from the ring once. Every
 * CQE is one of outstanding's, so done[] (depth long) has room; should
 * the ring ever hold more, the rest wait there for the next look.
 */
static void uring_take(struct uring *u, uint64_t t)
{
	struct io_req **done = u->done + u->ndone;
	struct io_req *req;
	unsigned n, i;

	/* one read of the ring's tail for them all (io_uring_for_each_cqe
	 * reads it, and the ring's layout, again for each) */
	n = io_uring_peek_batch_cqe(&u->ring, u->cqes, u->depth - u->ndone);
	for (i = 0; i < n; i++) {
		req = io_uring_cqe_get_data(u->cqes[i]);
		req->res = u->cqes[i]->res;
		req->t_done = t;
		done[i] = req;
	}
	io_uring_cq_advance(&u->ring, n);
	u->ndone += n;
}

/*
 * Submit everything pending without waiting, collecting what is done
 * (see the top of the file). Returns how many requests the kernel took,
 * 0 when it took none for a transient reason, or -errno.
 */
static int uring_submit(struct uring *u)
{
	unsigned i, n;
	uint64_t t;
	int r;

	u->committed = false;
	r = u->sqpoll ? io_uring_submit(&u->ring) :
	    io_uring_submit_and_get_events(&u->ring);
	if (r < 0)
		return r == -EAGAIN || r == -EBUSY || r == -EINTR ? 0 : r;
	t = clock_ticks(u->clk);
	/* SQPOLL: published is handed over, the kernel thread takes it. */
	n = u->sqpoll || (unsigned)r >= u->npend ? u->npend : (unsigned)r;
	for (i = 0; i < n; i++)
		u->pend[i]->t_submit = t;
	uring_take(u, t);
	u->npend -= n;
	if (u->npend)
		memmove(u->pend, u->pend + n, u->npend * sizeof(*u->pend));
	return (int)n;
}

static int uring_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct uring *u = ctx->priv;
	struct io_uring_sqe *sqe;
	int fd = u->fixed_files ? req->file : req->fd;
	int r;

	if (u->committed) {
		r = uring_submit(u);
		if (r < 0)
			return r;
	}
	if (u->outstanding >= u->depth)
		return ENGINE_BUSY;
	sqe = io_uring_get_sqe(&u->ring);
	/* SQPOLL: the kernel thread may post completions before it frees
	 * their submission slots; wait for a slot rather than report BUSY
	 * with nothing in flight. */
	if (!sqe && u->sqpoll && io_uring_sqring_wait(&u->ring) >= 0)
		sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return ENGINE_BUSY;
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
	io_uring_sqe_set_data(sqe, req);
	u->pend[u->npend++] = req;
	u->outstanding++;
	return ENGINE_QUEUED;
}

/* See the top of the file: without SQPOLL, reap() does the submitting. */
static int uring_commit(struct engine_ctx *ctx)
{
	struct uring *u = ctx->priv;

	if (!u->npend)
		return 0;
	if (u->sqpoll)
		return uring_submit(u);
	u->committed = true;
	return (int)u->npend;
}

/*
 * Submit what is pending (a call that does not wait), then make min
 * completions ready (a second call, only when fewer are). Fewer may be ready on return after a signal
 * or a short submit; never waits beyond what the kernel holds. min = 0
 * waits for nothing but still collects what has completed: with
 * DEFER_TASKRUN completions reach the ring only when we enter the kernel.
 */
static int uring_wait(struct uring *u, unsigned min)
{
	struct io_uring_cqe *cqe;
	unsigned held, ready = u->ndone + io_uring_cq_ready(&u->ring);
	int r;

	if (u->npend) {
		r = uring_submit(u);
		if (r < 0)
			return r;
		ready = u->ndone + io_uring_cq_ready(&u->ring);
	} else if (!min && !ready && u->defer && u->outstanding) {
		r = io_uring_get_events(&u->ring);
		return r < 0 && r != -EINTR && r != -EAGAIN ? r : 0;
	}
	held = u->outstanding - u->npend;
	if (min > held)
		min = held;
	if (ready >= min)
		return 0;
	/* the ring holds ready - ndone of them: wait for the rest there */
	r = io_uring_wait_cqe_nr(&u->ring, &cqe, min - u->ndone);
	return r < 0 && r != -EINTR && r != -EAGAIN ? r : 0;
}

/* Move up to max ready completions to out[], oldest first. */
static unsigned uring_harvest(struct uring *u, struct io_req **out,
			      unsigned max)
{
	unsigned n;

	/* new ones in the ring: one clock read for them all */
	if (u->ndone < max && io_uring_cq_ready(&u->ring))
		uring_take(u, clock_ticks(u->clk));
	n = u->ndone < max ? u->ndone : max;
	if (!n)
		return 0;
	memcpy(out, u->done, n * sizeof(*out));
	u->ndone -= n;
	if (u->ndone)
		memmove(u->done, u->done + n, u->ndone * sizeof(*u->done));
	u->outstanding -= n;
	return n;
}

static int uring_reap(struct engine_ctx *ctx, unsigned min,
		      struct io_req **out, unsigned max)
{
	struct uring *u = ctx->priv;
	int r;

	r = uring_wait(u, min);
	if (r < 0)
		return r;
	return (int)uring_harvest(u, out, max);
}

static void uring_exit(struct engine_ctx *ctx)
{
	struct uring *u = ctx->priv;

	if (!u)
		return;
	/* The worker frees the buffers after exit(): wait for every
	 * request the kernel holds. Pending ones were never seen by the
	 * kernel and are dropped with the ring. */
	ring_close(&u->ring, u->cqes, u->depth,
		   u->outstanding - u->npend - u->ndone, u->fixed_files,
		   u->fixed_bufs);
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
