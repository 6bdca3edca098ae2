/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ENGINE_H
#define IORIG_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ddir.h"

struct clock;
struct cpu_usage;
struct target;

/*
 * One I/O request. The worker owns the request array; an engine only moves
 * requests between the worker and the kernel.
 * Timestamps are clock ticks (clock.h). The worker stamps t_queue before
 * queue() and t_done when it observes a completion unless the engine has
 * already set t_done (an engine that can stamp a completion closer to the
 * moment it happened does so). t_submit is set by the engine as soon as
 * the system call that handed the request to the kernel returns (a thread
 * pool: just before its blocking call); 0 means "not recorded" (sync
 * engines). The worker counts slat = t_submit - t_queue, clat = t_done -
 * t_submit and lat = slat + clat.
 */
struct io_req {
	uint64_t offset;	/* within fd */
	uint32_t len;
	uint8_t ddir;		/* enum ddir */
	uint16_t file;		/* index into the worker's files */
	int fd;
	uint16_t ioprio;	/* cmdprio: this I/O's priority; 0: the
				 * thread's (libaio, io_uring read it) */
	void *buf;
	int64_t res;		/* bytes moved (res < len: short) or -errno */
	uint64_t t_queue;
	uint64_t t_submit;
	uint64_t t_done;
	uint64_t t_due;		/* paced jobs: when it fell due; 0: not paced */
	uint32_t idx;		/* position in the worker's request array */
	void *engine_priv;
};

enum engine_queue_ret {
	ENGINE_DONE = 0,	/* completed inline; res and t_done are set */
	ENGINE_QUEUED = 1,	/* accepted; will be handed over by commit() */
	ENGINE_BUSY = 2,	/* no room: commit, reap, then retry */
	/* The stream ended (net: the peer closed, or said it was done)
	 * or the job was stopped while queue() waited: the request moved
	 * nothing, is not counted, and the job ends. */
	ENGINE_END = 3,
};

enum engine_flags {
	ENGINE_SYNC = 1u << 0,	/* every queue() returns DONE */
	/* Moves no data: no files are needed. The worker's trims and
	 * syncs (fsync=, fdatasync=, sync_file_range=, end_fsync) then
	 * complete at once, counted and timed as any, as fio's null engine
	 * completes them. */
	ENGINE_NOIO = 1u << 1,
	/* t_done is set where the I/O completes (a pool thread), not when
	 * reap() finds it: reaping later does not lengthen clat. */
	ENGINE_STAMPS_DONE = 1u << 2,
	/* Asynchronous only with direct=1: buffered, the submitting system
	 * call (engine_ops.submit_call) does the I/O before it returns. */
	ENGINE_ASYNC_NEEDS_DIRECT = 1u << 3,
	/* Every request changes its file, reads too (falloc allocates):
	 * files are opened for writing and the write guards apply. */
	ENGINE_CHANGES_FILES = 1u << 4,
	/* Requests move no data between buffers and files (falloc): there
	 * is nothing to verify. */
	ENGINE_NODATA = 1u << 5,
	/* Requests go through mappings of the target's regions made at
	 * init (mmap): req->fd is not used, and a request outside the
	 * target's regions is not possible (no short reads at the end). */
	ENGINE_MAPPED = 1u << 6,
	/* Each request is one operation on its file's name (filecreate,
	 * filestat, filedelete): the planner makes bs the file's region,
	 * so a pass is one operation a file. */
	ENGINE_FILEOP = 1u << 7,
	/* Targets are names only: nothing is created, laid out or opened
	 * before the run (filecreate creates them). */
	ENGINE_NOLAYOUT = 1u << 8,
	/* Requests delete their files: only files this run creates may be
	 * named (target_plan refuses one that exists). */
	ENGINE_DELETES = 1u << 9,
	/* Writes leave the file's bytes as they were (e4defrag moves the
	 * blocks under them): a job verifying the same range beside it
	 * reads what it wrote. */
	ENGINE_KEEPS_DATA = 1u << 10,
	/* Threads of the engine's own do the I/O (pthread's pool): they
	 * need the CPUs, none is spare for the job's thread (wait_batch). */
	ENGINE_OWN_THREADS = 1u << 11,
	/* Not a job that does I/O (fio's FIO_NOIO: cpuio, exec): a cpuio
	 * job's exit_on_io_done does not wait for it. */
	ENGINE_NOT_IO = 1u << 12,
	/* Requests create their files (filecreate): --readonly refuses it. */
	ENGINE_CREATES = 1u << 13,
};

/*
 * What engines read of their job, copied in by the worker before init():
 * engines need not know struct job. Read at init() only.
 */
struct engine_opts {
	bool direct;
	/* io_uring registered buffers, files: 0, 1, -1 when possible */
	signed char fixedbufs;
	signed char registerfiles;
	bool sqthread_poll;		/* io_uring SQPOLL */
	bool hipri;			/* io_uring IOPOLL */
	uint64_t sqthread_poll_cpu;	/* UINT64_MAX: not pinned */
	uint64_t pool_threads;		/* pthread engine; 0: iodepth */
	bool nowait;			/* pvsync2: RWF_NOWAIT */
	bool uncached;			/* pvsync2: RWF_DONTCACHE */
	int stat_type;			/* filestat: enum engine_stat */
	bool thp;			/* mmap: MADV_HUGEPAGE */
	uint64_t force_async;		/* io_uring: IOSQE_ASYNC every N */
	unsigned hipri_pct;		/* pvsync2: % of I/Os RWF_HIPRI */
	bool vectored;			/* libaio_vectored=1, nonvectored=0:
					 * readv/writev of one iovec */
	bool userspace_reap;		/* libaio: read the completion ring
					 * in user space, no io_getevents */
	uint64_t cpuchunk_ns;		/* cpuio: busy part of each I/O */
	int cpumode;			/* cpuio: enum engine_cpumode */
	/* exec: the job's (engine_ops.init copies what it keeps) */
	const char *program, *arguments, *jobname;
	uint64_t runtime_s, grace_s;
	bool std_redirect;
	/* e4defrag: the donor is directory/donorname (the job's strings) */
	const char *donorname, *directory;
	bool inplace;
	/* net, netsplice (src/engines/net.c) */
	const char *host;		/* hostname= (or filename=); unix:
					 * the socket's path; NULL: none */
	unsigned port;			/* port= plus the clone's number */
	int proto;			/* enum engine_proto */
	bool listen, pingpong, nodelay;
	bool receiver;			/* rw reads */
	unsigned ttl, window_size, mss;
	const char *intf;		/* interface=: an IPv4 address */
	uint64_t size;			/* bytes a pass sends (MSG_MORE) */
};

/* net's protocol= */
enum engine_proto {
	ENGINE_NET_TCP, ENGINE_NET_TCPV6, ENGINE_NET_UDP, ENGINE_NET_UDPV6,
	ENGINE_NET_UNIX,
};

/* cpuio's work (cpumode=). */
enum engine_cpumode { ENGINE_CPU_NOOP, ENGINE_CPU_QSORT };

/* filestat's system call (stat_type=). */
enum engine_stat { ENGINE_STAT, ENGINE_LSTAT, ENGINE_STATX };

#define ENGINE_SETUP_MAX 12

/*
 * What an engine's setup got from the kernel, for the report: names of
 * static storage (io_uring: the ring's setup flags, such as
 * "SINGLE_ISSUER", and "fixedbufs", "registerfiles", "registered_ring_fd").
 */
struct engine_setup {
	bool known;			/* filled by a set-up engine */
	unsigned n;
	const char *what[ENGINE_SETUP_MAX];
};

struct engine_ctx {
	struct engine_opts opts;
	unsigned iodepth;
	const struct clock *clk;
	const struct target *tgt;	/* open files: fds for registration */
	void *bufs;		/* all request buffers, one block */
	size_t buf_stride;	/* bytes from one request's buffer to the next */
	void *priv;		/* the engine's own state */
	/*
	 * Set by init() when queue() only fills memory (a ring, an array):
	 * no system call, nothing that can block, unless commit() was
	 * called since the last reap() (io_uring then submits the committed
	 * batch first). The worker then calls queue() outside the stop
	 * hand-off (call_enter). libaio; io_uring without SQPOLL (with it,
	 * queue() may wait for a submission slot).
	 */
	bool queue_nocall;
	/* Set by SIGINT/SIGTERM: an engine that waits for a peer (net)
	 * watches it and gives up (start: -EINTR; queue: ENGINE_END). */
	const atomic_int *stop;
	/* The job's end (clock ticks of clk; UINT64_MAX: none) and its
	 * wait group's halt (exitall; NULL: none): a request that takes
	 * its own time (cpuio's chunk) ends at either, or at stop. */
	const uint64_t *deadline;
	const atomic_int *halt;
	/* Reads the engine knows were lost on the way (net over UDP: gaps
	 * in the senders' sequence numbers); the worker reports them. */
	uint64_t dropped;
};

/*
 * The engine contract (shared/DESIGN.md):
 * init:   allocate per-worker state for up to iodepth requests; -errno.
 * queue:  take one request: DONE, QUEUED or BUSY; -errno on a fatal error.
 * commit: hand every queued request to the kernel, or leave it to the next
 *         reap() when that can submit and wait in one system call;
 *         returns how many were submitted or -errno. May be NULL for
 *         ENGINE_SYNC engines.
 * reap:   wait for at least min completions, store up to max in out[];
 *         returns the count or -errno. May be NULL for ENGINE_SYNC.
 * exit:   free what init made.
 * cpu:    optional: add the CPU time used since init by threads the engine
 *         owns (a thread pool) to *c. The worker calls it at the start and
 *         the end of the measured phase and charges the difference to the
 *         job, so the job's CPU covers every thread that worked for it.
 *
 * hint:   optional: for an error init() returned, what to check (a
 *         sysctl, a limit), or NULL; appended to the report's message.
 * setup:  optional: after a successful init(), what the setup got
 *         (flags the kernel took), into *out; for the report.
 *
 * start:  optional: once, after the start gate and startdelay, before
 *         the measured phase: what may wait for someone else (net:
 *         accept a connection, connect); 0 or -errno; -EINTR when
 *         ctx->stop was set while it waited (the job ran nothing).
 *
 * options: the job options only this engine reads, NULL-terminated (or
 *         NULL: none). An option named after another of the list plus
 *         "_" (sqthread_poll_cpu after sqthread_poll) is a parameter of
 *         it. --cmdhelp=ioengine lists them; the planner warns when one
 *         is set for another engine.
 *
 * Requests that commit() could not hand over (EAGAIN) stay with the engine:
 * the worker counts them in flight and the next reap() must submit them.
 * A request the kernel refused completes through reap() with res = -errno.
 *
 * Engines must not return from exit() while the kernel or their own
 * threads may still touch a request's buffer: the worker frees them next.
 *
 * Timestamps: commit() (or whichever call submits) sets t_submit of each
 * request as soon as the system call that hands it to the kernel returns
 * (a thread pool: its thread, just before the blocking call); t_done is
 * the first moment the completion is seen: a completion already there
 * when the submitting call returns gets the same reading (clat 0), others
 * are stamped by reap() as they are observed (or on the thread that
 * observed it). prep resets t_done to 0, so an engine stamps only once.
 */
struct engine_ops {
	const char *name;
	const char *alias;
	const char *help;
	/* --enghelp=ENGINE: lines after the options, or NULL: what the
	 * engine does in more words, and where it differs from fio's */
	const char *about;
	unsigned flags;			/* enum engine_flags */
	const char *const *options;
	const char *submit_call;	/* the system call that submits */
	int (*init)(struct engine_ctx *ctx);
	int (*queue)(struct engine_ctx *ctx, struct io_req *req);
	int (*commit)(struct engine_ctx *ctx);
	int (*reap)(struct engine_ctx *ctx, unsigned min, struct io_req **out,
		    unsigned max);
	void (*exit)(struct engine_ctx *ctx);
	int (*start)(struct engine_ctx *ctx);
	void (*cpu)(struct engine_ctx *ctx, struct cpu_usage *c);
	const char *(*hint)(int err);
	void (*setup)(const struct engine_ctx *ctx, struct engine_setup *out);
};

/* NULL when unknown. */
const struct engine_ops *engine_find(const char *name);
/* "Seccomp:" mode of this process: 0 none, 1 strict, 2 filter; -1
 * unknown. For engines' hints: a filter is a common reason a system call
 * is refused. */
int engine_seccomp_mode(void);

/*
 * fio engines that need software iorig does not have (Ceph, SPDK, xNVMe,
 * fio's external .so plugins...): what each needs, for the error; NULL for
 * any other name.
 */
const char *engine_needs(const char *name);

/* For --help and the man-page test: NULL-terminated. */
const struct engine_ops *const *engine_list(void);

/* --cmdhelp=ioengine: every engine, its alias, help, flags and options. */
void engine_print_help(FILE *f);

#endif
