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
 * nonvectored=. Only plan, init/exit and report paths: each engine keeps
 * its own queue, submit and reap (the hot path) to itself.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

struct engine_ctx;
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

#endif
