/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ENGINES_RING_H
#define IORIG_ENGINES_RING_H

/*
 * The io_uring ring's setup and teardown, shared by the engines that
 * drive one (io_uring in uring.c, io_uring_cmd in uring_cmd.c): making
 * the ring with the best task-running flags the kernel takes,
 * registering the request buffers and the files, waiting out the
 * requests the kernel holds before the ring goes, and naming the ring
 * flags in engine_setup, and the value of the option both take,
 * nonvectored=. Their submit and reap loop (struct ring_io, below) is
 * shared too, as inline functions: each engine compiles its own copy
 * into its hooks, as when each had its own loop, so sharing costs the
 * hot path no call.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <liburing.h>

#include "clock.h"
#include "engine.h"

struct engine_setup;
struct target;

/* What the ring is made with. */
struct ring_params {
	unsigned base;		/* IORING_SETUP_* always set: CLAMP... */
	const unsigned *ladder;	/* task-running flags, best first */
	size_t nladder;
	bool hipri;		/* IOPOLL */
	bool sqthread_poll;	/* SQPOLL */
	uint64_t sqthread_poll_cpu;	/* UINT64_MAX: not pinned */
};

/*
 * Make ring with depth entries: base, IOPOLL/SQPOLL/SQ_AFF as asked, and
 * the first ladder step the kernel does not refuse with -EINVAL (with
 * SQPOLL only SINGLE_ISSUER of each step: the task-running flags are
 * about IPIs). *flags: the IORING_SETUP_* flags of the last try (those
 * in effect on success). 0 or -errno.
 */
int ring_setup(struct io_uring *ring, unsigned depth,
	       const struct ring_params *rp, unsigned *flags);

/*
 * Register ctx's request buffers (one block, depth requests of
 * ctx->buf_stride bytes) as few buffers of at most 1 GiB, each covering
 * *reqs_per_buf whole requests: request i is in buffer
 * i / *reqs_per_buf. 0 or -errno.
 */
int ring_register_bufs(struct io_uring *ring, const struct engine_ctx *ctx,
		       unsigned depth, unsigned *reqs_per_buf);

/* Register t's files: request file i is registered file i. 0 or -errno. */
int ring_register_files(struct io_uring *ring, const struct target *t);

/*
 * Close ring: wait until held more completions have come (the requests
 * the kernel holds, which must not land in buffers freed after exit),
 * consuming them, with cqes (depth long) as the peek buffer; unregister
 * the files and buffers when they were registered; exit the ring.
 */
void ring_close(struct io_uring *ring, struct io_uring_cqe **cqes,
		unsigned depth, unsigned held, bool fixed_files,
		bool fixed_bufs);

/*
 * nonvectored= (both engines' rows' store): fio 3.33 reads an integer,
 * a size's suffixes allowed, into 32 bits; 0 is vectored (one iovec per
 * I/O), any other value not (-1, the default, when the kernel has the
 * plain opcodes, as every kernel iorig runs on has). *vectored as
 * parsed; -EINVAL with why filled for anything else, for a value that
 * does not fit 32 bits (fio would keep its low bits) and for parts
 * "A,B" of different meanings (fio would keep A alone); *vectored left
 * as it was.
 */
int ring_nonvectored(const char *val, unsigned kb_base, bool *vectored,
		     char *why, size_t whylen);

/* engine_setup: the ring flags in flags (CLAMP is not one: it only
 * bounds entries), from out->n on. */
void ring_report_flags(unsigned flags, struct engine_setup *out);

/*
 * The submit and reap loop of a ring whose requests are io_reqs, each
 * SQE's user data its request.
 *
 * System calls. The worker always follows commit() with reap() (it only
 * skips reap when nothing is in flight, and queued requests are in
 * flight), so without SQPOLL commit() hands nothing over by itself: it
 * marks the batch and reap() submits it. The submitting io_uring_enter
 * never waits (it only collects what is done: IORING_ENTER_GETEVENTS
 * with min 0), so that its return is the end of the submission, which
 * slat must cover; when fewer than min completions are then ready, a
 * second io_uring_enter waits for them. A call that submitted and waited
 * at once could not tell the two apart. QD1 thus costs one system call
 * per I/O that completes inside the submitting call and two otherwise,
 * as in fio; a deep queue one or two per commit+reap round. Should
 * queue() be called again after commit() without a reap in between, the
 * marked batch is submitted first, so commit()'s promise holds for any
 * caller. reap() enters the kernel to wait only when fewer than min
 * completions are ready, and with DEFER_TASKRUN also to collect when
 * none are (completions reach the ring only when this thread enters).
 * With SQPOLL, commit() publishes the batch to the kernel's polling
 * thread at once (a system call only when that thread sleeps) and
 * reap() waits.
 *
 * Timestamps. t_submit: one clock read as soon as the io_uring_enter
 * that submits the request returns (SQPOLL: after the ring tail is
 * published and the polling thread woken if it slept), for every
 * request it took. A request the kernel did not take (short submit) is
 * stamped when the call that takes it returns. t_done: the first moment
 * iorig sees the completion. Completions already in the completion ring
 * when the submitting call returns (the ones of this batch done inside
 * the call among them) get that same clock read: clat 0, where fio's
 * clat would be the time until it looks at the ring. Others get one
 * clock read per batch, right after they are read from the ring; they
 * were all observed at that instant, and a clock read per completion
 * would only add the time spent in this loop. Either way a completion is
 * read from the ring once (ring_io_take): its slot is freed and its
 * request, res the CQE's, waits in done[] until reap() hands it out.
 *
 * Invariants: outstanding = requests queued and not yet reaped;
 * pend[0..npend) = those still in the submission ring, not yet consumed
 * by the kernel, in ring order (the kernel consumes from the head);
 * done[0..ndone) = those completed and taken from the completion ring,
 * in ring order, not yet reaped. reap() never waits for more than
 * outstanding - npend - ndone completions in the ring, so it never
 * waits on a request the kernel has not seen.
 *
 * Lingering (ring_io_linger_set, the worker's reap_linger_may; each
 * wait's linger, the worker's reap_linger): a wait for one completion
 * when more are in flight is a plain wait for more of them, with no
 * timer: for an eighth of up to max (2 at least) for a linger for part,
 * for max for a linger for all. A timer (the kernel's min_wait, 6.12+,
 * which iorig's short linger used) is armed and cancelled in each wait,
 * and on a VM where each programming of the timer device traps that
 * cost a quarter of zram's reads (depth.c).
 *
 * -EAGAIN/-EBUSY (kernel short of memory) and -EINTR (a signal) from the
 * submitting call are not errors: the requests stay pending and are
 * submitted again by the next reap(); commit() and reap() return 0 for
 * them.
 */
struct ring_io {
	struct io_uring ring;
	const struct clock *clk;
	struct io_req **pend;		/* in the SQ ring, not consumed */
	struct io_uring_cqe **cqes;	/* peek buffer */
	struct io_req **done;		/* taken from the CQ ring */
	unsigned depth;
	unsigned npend;
	unsigned outstanding;		/* queued, not yet reaped */
	unsigned ndone;
	bool committed;			/* pend committed, unsubmitted */
	bool sqpoll;			/* SQPOLL in effect */
	bool defer;			/* DEFER_TASKRUN in effect */
	bool reg_ring;			/* the ring fd is registered */
	bool linger;			/* false: a wait for one returns at one */
};

/* io's arrays for depth requests (the ring is made apart, ring_setup):
 * 0 or -ENOMEM; ring_io_free frees them either way. */
int ring_io_alloc(struct ring_io *io, unsigned depth,
		  const struct clock *clk);
void ring_io_free(struct ring_io *io);

/*
 * Linger in a wait for one completion (above) where ctx->reap_linger_may
 * says the worker may, when the ring is not polled (an IOPOLL
 * ring waits by polling, for every completion asked). Tells the
 * worker whether it can (ctx->reap_lingers). After the ring is made (and
 * its fd registered: reg_ring set first).
 */
void ring_io_linger_set(struct ring_io *io, struct engine_ctx *ctx,
			bool polled);

/* Close io's ring (ring_close) once the requests the kernel holds are
 * done; pending ones were never seen by the kernel and go with it. */
void ring_io_close(struct ring_io *io, bool fixed_files, bool fixed_bufs);

/*
 * Take the completions in the ring into done[], in ring order, with
 * their result and t_done = t (t is the first moment we see them), and
 * free their slots: each completion is read from the ring once. Every
 * CQE is one of outstanding's, so done[] (depth long) has room; should
 * the ring ever hold more, the rest wait there for the next look.
 *
 * The ring is read in place: one read of its tail, one loop that takes
 * each CQE (16 or 32 bytes: CQE32) into its request, one store of its
 * head, where liburing's io_uring_peek_batch_cqe copied the CQE
 * pointers for a second loop (about 13 instructions per I/O more). An
 * empty ring is looked at through io_uring_peek_batch_cqe, which also
 * asks the kernel to flush the completions it held back (CQ overflow),
 * only when the ring's flags say it holds some back, as liburing's test.
 */
static inline void ring_io_take(struct ring_io *io, uint64_t t)
{
	struct io_uring_cq *cq = &io->ring.cq;
	struct io_req **done = io->done + io->ndone;
	unsigned shift = io_uring_cqe_shift(&io->ring);
	unsigned head = *cq->khead, mask = cq->ring_mask;
	unsigned n = io_uring_cq_ready(&io->ring), room = io->depth - io->ndone;
	const struct io_uring_cqe *cqe;
	struct io_req *req;
	unsigned i;

	if (!n) {
		/* only completions the kernel holds back need the call */
		if (!(IO_URING_READ_ONCE(*io->ring.sq.kflags) &
		      (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN)))
			return;
		n = io_uring_peek_batch_cqe(&io->ring, io->cqes, room);
		for (i = 0; i < n; i++) {
			req = io_uring_cqe_get_data(io->cqes[i]);
			req->res = io->cqes[i]->res;
			req->t_done = t;
			done[i] = req;
		}
	} else {
		if (n > room)
			n = room;
		/* the ring's entries from head to its end, then from its
		 * start: a pointer stepped per CQE, not an index masked */
		for (i = 0; i < n; ) {
			unsigned at = (head + i) & mask;
			unsigned end = i + (mask + 1 - at < n - i ?
					    mask + 1 - at : n - i);

			cqe = &cq->cqes[at << shift];
			for (; i < end; i++) {
				req = io_uring_cqe_get_data(cqe);
				req->res = cqe->res;
				req->t_done = t;
				done[i] = req;
				cqe += 1u << shift;
			}
		}
	}
	io_uring_cq_advance(&io->ring, n);
	io->ndone += n;
}

/*
 * liburing's io_uring_submit_and_get_events, for a ring without SQPOLL:
 * publish the SQ ring's new tail, then one io_uring_enter that submits
 * every entry not yet consumed and collects what is done (GETEVENTS,
 * min_complete 0), through the registered ring fd when there is one.
 * The same call, without the library's general checks (about 60
 * instructions a submit). The count the kernel took, or -errno.
 */
static inline int ring_io_enter_submit(struct ring_io *io)
{
	struct io_uring_sq *sq = &io->ring.sq;
	unsigned tail = sq->sqe_tail, flags = IORING_ENTER_GETEVENTS;
	int fd = io->ring.ring_fd;
	long r;

	if (sq->sqe_head != tail) {
		sq->sqe_head = tail;
		/* after the SQEs and the array entries */
		io_uring_smp_store_release(sq->ktail, tail);
	}
	if (io->reg_ring) {
		fd = io->ring.enter_ring_fd;
		flags |= IORING_ENTER_REGISTERED_RING;
	}
	r = syscall(__NR_io_uring_enter, fd, tail - *sq->khead, 0, flags,
		    NULL, 0);
	return r < 0 ? -errno : (int)r;
}

/*
 * Submit everything pending without waiting, collecting what is done.
 * Returns how many requests the kernel took, 0 when it took none for a
 * transient reason, or -errno.
 */
static inline int ring_io_submit(struct ring_io *io)
{
	unsigned i, n;
	uint64_t t;
	int r;

	io->committed = false;
	r = io->sqpoll ? io_uring_submit(&io->ring) :
	    ring_io_enter_submit(io);
	if (r < 0)
		return r == -EAGAIN || r == -EBUSY || r == -EINTR ? 0 : r;
	t = clock_ticks(io->clk);
	/* SQPOLL: published is handed over, the kernel thread takes it. */
	n = io->sqpoll || (unsigned)r >= io->npend ? io->npend : (unsigned)r;
	for (i = 0; i < n; i++)
		io->pend[i]->t_submit = t;
	ring_io_take(io, t);
	io->npend -= n;
	if (io->npend)
		memmove(io->pend, io->pend + n, io->npend * sizeof(*io->pend));
	return (int)n;
}

/*
 * A submission slot for one more request into *sqe: 0, ENGINE_BUSY (no
 * room: the queue is full) or -errno (submitting the committed batch
 * first failed). SQPOLL: the kernel thread may post completions before
 * it frees their submission slots; it waits for a slot rather than
 * report BUSY with nothing in flight.
 */
static inline int ring_io_sqe(struct ring_io *io, struct io_uring_sqe **sqe)
{
	int r;

	if (io->committed) {
		r = ring_io_submit(io);
		if (r < 0)
			return r;
	}
	if (io->outstanding >= io->depth)
		return ENGINE_BUSY;
	*sqe = io_uring_get_sqe(&io->ring);
	if (!*sqe && io->sqpoll && io_uring_sqring_wait(&io->ring) >= 0)
		*sqe = io_uring_get_sqe(&io->ring);
	return *sqe ? 0 : ENGINE_BUSY;
}

/* req's SQE is ready: it is pending. */
static inline void ring_io_queued(struct ring_io *io,
				  struct io_uring_sqe *sqe,
				  struct io_req *req)
{
	io_uring_sqe_set_data(sqe, req);
	io->pend[io->npend++] = req;
	io->outstanding++;
}

/* commit(): without SQPOLL, reap() does the submitting. */
static inline int ring_io_commit(struct ring_io *io)
{
	if (!io->npend)
		return 0;
	if (io->sqpoll)
		return ring_io_submit(io);
	io->committed = true;
	return (int)io->npend;
}

/*
 * Wait until the ring holds nr completions: one io_uring_enter, as
 * liburing's io_uring_wait_cqe_nr makes, without its general loop
 * (about 100 instructions a wait). Fewer may be there on return after a
 * signal (-EINTR), or -EAGAIN, which are not errors: 0, or -errno.
 */
static inline int ring_io_wait_nr(struct ring_io *io, unsigned nr)
{
	unsigned flags = IORING_ENTER_GETEVENTS;
	int fd = io->ring.ring_fd;

	/* arrived since the caller looked: no call (as liburing's) */
	if (io_uring_cq_ready(&io->ring) >= nr)
		return 0;
	if (io->reg_ring) {
		fd = io->ring.enter_ring_fd;
		flags |= IORING_ENTER_REGISTERED_RING;
	}
	if (syscall(__NR_io_uring_enter, fd, 0, nr, flags, NULL, 0) >= 0 ||
	    errno == EINTR || errno == EAGAIN)
		return 0;
	return -errno;
}

/*
 * Submit what is pending (a call that does not wait), then make min
 * completions ready (a second call, only when fewer are; lingering for
 * up to max when linger, above). Fewer may be ready on return after a
 * signal or a short submit; never waits beyond what the kernel holds.
 * min = 0 waits for nothing but still collects what has completed:
 * with DEFER_TASKRUN completions reach the ring only when we enter the
 * kernel.
 */
static inline int ring_io_wait(struct ring_io *io, unsigned min,
			       unsigned max, unsigned linger)
{
	unsigned held, ready = io->ndone + io_uring_cq_ready(&io->ring);
	int r;

	if (io->npend) {
		r = ring_io_submit(io);
		if (r < 0)
			return r;
		ready = io->ndone + io_uring_cq_ready(&io->ring);
	} else if (!min && !ready && io->defer && io->outstanding) {
		r = io_uring_get_events(&io->ring);
		return r < 0 && r != -EINTR && r != -EAGAIN ? r : 0;
	}
	held = io->outstanding - io->npend;
	if (min > held)
		min = held;
	if (ready >= min)
		return 0;
	/* none ready (min is 1, ndone 0): linger until part of up to max
	 * of those held are there (an eighth, 2 at least), or all of them */
	if (min == 1 && linger && io->linger && held > 1 && max > 1) {
		if (max > held)
			max = held;
		if (linger != REAP_LINGER_ALL)
			max = max / 8 > 2 ? max / 8 : 2;
		return ring_io_wait_nr(io, max);
	}
	/* the ring holds ready - ndone of them: wait for the rest there */
	return ring_io_wait_nr(io, min - io->ndone);
}

/* Move up to max ready completions to out[], oldest first. */
static inline unsigned ring_io_harvest(struct ring_io *io,
				       struct io_req **out, unsigned max)
{
	unsigned n;

	/* new ones in the ring: one clock read for them all */
	if (io->ndone < max && io_uring_cq_ready(&io->ring))
		ring_io_take(io, clock_ticks(io->clk));
	n = io->ndone < max ? io->ndone : max;
	if (!n)
		return 0;
	memcpy(out, io->done, n * sizeof(*out));
	io->ndone -= n;
	if (io->ndone)
		memmove(io->done, io->done + n, io->ndone * sizeof(*io->done));
	io->outstanding -= n;
	return n;
}

/*
 * reap(): wait for min (lingering if linger, above), then hand out up
 * to max; a count or -errno. out has room for every request in flight
 * (engine.h). With none taken before (ndone 0, the usual case), done[]
 * is out itself for the call: the completions land where they are
 * handed out, no copy; those beyond max, and all of them should the
 * wait fail, go back to io's own done[] for the next reap.
 */
static inline int ring_io_reap(struct ring_io *io, unsigned min,
			       struct io_req **out, unsigned max,
			       unsigned linger)
{
	struct io_req **own = io->done;
	bool direct = !io->ndone;
	unsigned n;
	int r;

	/* one call of ring_io_wait, which gcc then keeps inline */
	if (direct)
		io->done = out;
	r = ring_io_wait(io, min, max, linger);
	if (!direct)
		return r < 0 ? r : (int)ring_io_harvest(io, out, max);
	if (r >= 0 && io->ndone < max && io_uring_cq_ready(&io->ring))
		ring_io_take(io, clock_ticks(io->clk));
	io->done = own;
	n = r < 0 ? 0 : io->ndone < max ? io->ndone : max;
	io->ndone -= n;
	if (io->ndone)
		memcpy(own, out + n, io->ndone * sizeof(*own));
	io->outstanding -= n;
	return r < 0 ? r : (int)n;
}

#endif
