// SPDX-License-Identifier: MIT
/*
 * The io_uring ring's setup and teardown shared by the io_uring and
 * io_uring_cmd engines (ring.h). Nothing here runs per I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engine.h"
#include "ring.h"
#include "target.h"
#include "value.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* Largest registered buffer the kernel takes. */
#define RING_MAX_REG_BUF	(1ul << 30)

int ring_setup(struct io_uring *ring, unsigned depth,
	       const struct ring_params *rp, unsigned *flags)
{
	struct io_uring_params p;
	unsigned base = rp->base, allowed = ~0u, try = 0, prev = ~0u;
	size_t i;
	int r = -EINVAL;

	if (rp->hipri)
		base |= IORING_SETUP_IOPOLL;
	if (rp->sqthread_poll) {
		/* The task-running flags are about IPIs: not with SQPOLL. */
		base |= IORING_SETUP_SQPOLL;
		allowed = IORING_SETUP_SINGLE_ISSUER;
		if (rp->sqthread_poll_cpu != UINT64_MAX) {
			if (rp->sqthread_poll_cpu >= UINT32_MAX)
				return -EINVAL;
			base |= IORING_SETUP_SQ_AFF;
		}
	}
	for (i = 0; i < rp->nladder; i++) {
		try = rp->ladder[i] & allowed;
		if (try == prev)	/* the same try again: same answer */
			continue;
		prev = try;
		memset(&p, 0, sizeof(p));
		p.flags = base | try;
		if (base & IORING_SETUP_SQ_AFF)
			p.sq_thread_cpu = (uint32_t)rp->sqthread_poll_cpu;
		/*
		 * The kernel rounds entries up to a power of two (CLAMP: at
		 * most its maximum, for iodepth > 32768); the CQ ring is
		 * twice that, so it holds every request in flight.
		 */
		r = io_uring_queue_init_params(depth, ring, &p);
		if (r != -EINVAL)
			break;
	}
	*flags = base | try;
	return r;
}

int ring_register_bufs(struct io_uring *ring, const struct engine_ctx *ctx,
		       unsigned depth, unsigned *reqs_per_buf)
{
	size_t stride = ctx->buf_stride, per, nbufs, i, first;
	struct iovec *iov;
	int r;

	if (!stride || stride > RING_MAX_REG_BUF)
		return -EINVAL;
	per = RING_MAX_REG_BUF / stride;
	if (per > depth)
		per = depth;
	nbufs = (depth + per - 1) / per;
	iov = calloc(nbufs, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (i = 0; i < nbufs; i++) {
		first = i * per;
		iov[i].iov_base = (char *)ctx->bufs + first * stride;
		iov[i].iov_len = (first + per > depth ? depth - first :
				  per) * stride;
	}
	r = io_uring_register_buffers(ring, iov, (unsigned)nbufs);
	free(iov);
	if (r)
		return r;
	*reqs_per_buf = (unsigned)per;
	return 0;
}

int ring_register_files(struct io_uring *ring, const struct target *t)
{
	unsigned i;
	int *fds, r;

	/* io_req.file is 16 bits wide. */
	if (!t || !t->nfiles || t->nfiles > UINT16_MAX + 1u)
		return -EINVAL;
	fds = calloc(t->nfiles, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	for (i = 0; i < t->nfiles; i++)
		fds[i] = t->files[i].fd;
	r = io_uring_register_files(ring, fds, t->nfiles);
	free(fds);
	return r;
}

void ring_close(struct io_uring *ring, struct io_uring_cqe **cqes,
		unsigned depth, unsigned held, bool fixed_files,
		bool fixed_bufs)
{
	struct io_uring_cqe *cqe;
	unsigned n;
	int r;

	while (held) {
		r = io_uring_wait_cqe(ring, &cqe);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r < 0)
			break;
		n = io_uring_peek_batch_cqe(ring, cqes, depth);
		io_uring_cq_advance(ring, n);
		held -= n < held ? n : held;
	}
	if (fixed_files)
		io_uring_unregister_files(ring);
	if (fixed_bufs)
		io_uring_unregister_buffers(ring);
	io_uring_queue_exit(ring);
}

int ring_io_alloc(struct ring_io *io, unsigned depth,
		  const struct clock *clk)
{
	io->depth = depth;
	io->clk = clk;
	io->pend = calloc(depth, sizeof(*io->pend));
	io->cqes = calloc(depth, sizeof(*io->cqes));
	io->done = calloc(depth, sizeof(*io->done));
	return io->pend && io->cqes && io->done ? 0 : -ENOMEM;
}

void ring_io_free(struct ring_io *io)
{
	free(io->done);
	free(io->cqes);
	free(io->pend);
}

void ring_io_linger_set(struct ring_io *io, struct engine_ctx *ctx,
			bool polled)
{
	io->linger = !polled && ctx->reap_linger_may;
	ctx->reap_lingers = io->linger;
}

void ring_io_close(struct ring_io *io, bool fixed_files, bool fixed_bufs)
{
	ring_close(&io->ring, io->cqes, io->depth,
		   io->outstanding - io->npend - io->ndone, fixed_files,
		   fixed_bufs);
}

/* In engine_setup's order. io_uring never sets SQE128 or CQE32, and
 * io_uring_cmd never DEFER_TASKRUN (not on its ladder), so one table
 * names both engines' rings. */
static const struct {
	unsigned flag;
	const char *name;
} ring_flag_names[] = {
	{ IORING_SETUP_IOPOLL, "IOPOLL" },
	{ IORING_SETUP_SQPOLL, "SQPOLL" },
	{ IORING_SETUP_SQ_AFF, "SQ_AFF" },
	{ IORING_SETUP_SQE128, "SQE128" },
	{ IORING_SETUP_CQE32, "CQE32" },
	{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
};

/* Each engine adds at most 3 registrations after the flags. */
_Static_assert(ARRAY_SIZE(ring_flag_names) + 3 <= ENGINE_SETUP_MAX,
	       "engine_setup holds every flag and registration");

void ring_report_flags(unsigned flags, struct engine_setup *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ring_flag_names); i++)
		if (flags & ring_flag_names[i].flag)
			out->what[out->n++] = ring_flag_names[i].name;
}

/* One integer of nonvectored=, [-]N with N a size (suffixes, 0x, iorig's
 * arithmetic in parentheses), into *v: 0 or -EINVAL. */
static int nv_one(const char *s, unsigned kb_base, int64_t *v)
{
	char why[128];
	uint64_t u;
	bool neg;

	while (*s == ' ' || *s == '\t')
		s++;
	neg = *s == '-';
	s += neg;
	/* fio reads "2*4k" as 2: no arithmetic outside parentheses */
	if (*s != '(' && strpbrk(s, "+-*/"))
		return -EINVAL;
	if (value_size(s, kb_base, &u, why, sizeof(why)) ||
	    u > (neg ? (uint64_t)INT32_MAX + 1 : UINT32_MAX))
		return -EINVAL;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

int ring_nonvectored(const char *val, unsigned kb_base, bool *vectored,
		     char *why, size_t whylen)
{
	char part[64];
	const char *p = val;
	int64_t v, first = 0;
	size_t n;
	int k;

	/* fio's parts: "A,B" is A (one trailing ',' dropped) */
	for (k = 0; ; k++) {
		n = strcspn(p, ",");
		if (n >= sizeof(part))
			goto bad;
		memcpy(part, p, n);
		part[n] = '\0';
		if (nv_one(part, kb_base, &v))
			goto bad;
		if (!k)
			first = v;
		else if ((v == 0) != (first == 0))
			goto parts;
		p += n;
		if (!*p || !p[1])
			break;
		p++;
	}
	*vectored = first == 0;
	return 0;
bad:
	snprintf(why, whylen, "expected an integer from -2147483648 to "
		 "4294967295 (fio keeps 32 bits): 0 for vectored I/O, any "
		 "other (-1, the default, or 1) for the plain opcodes");
	return -EINVAL;
parts:
	snprintf(why, whylen, "'%s': fio reads the first of these values and "
		 "drops the others without a word; expected one value", val);
	return -EINVAL;
}
