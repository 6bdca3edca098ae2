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
struct cmdprio_opts;
struct door_names;
struct err_rec;
struct job;
struct opt_def;
struct target;
struct target_file;
struct warn_list;

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
	/* Not a job that does I/O (fio's FIO_NOIO: cpuio, exec): a cpuio
	 * job's exit_on_io_done does not wait for it. */
	ENGINE_NOT_IO = 1u << 12,
	/* Requests create their files (filecreate): --readonly refuses it. */
	ENGINE_CREATES = 1u << 13,
	/* Requests carry an I/O priority of their own (req->ioprio: libaio,
	 * io_uring): the worker draws it from the cmdprio_* options, which
	 * the engine declares (src/engines/cmdprio.h) in a struct
	 * cmdprio_opts at the start of its options struct. */
	ENGINE_CMDPRIO = 1u << 14,
	/* The targets are NVMe generic char devices (/dev/ngXnY,
	 * io_uring_cmd): target_plan sizes them by Identify Namespace,
	 * opens them without O_DIRECT (no page cache to bypass) and
	 * guards a job that writes through the namespace's block
	 * device; any other target is refused. */
	ENGINE_NVME_CHAR = 1u << 15,
	/* queue() takes trims (DDIR_TRIM) as requests of its own (NVMe
	 * Dataset Management); the worker's BLKDISCARD is not used. */
	ENGINE_TRIMS = 1u << 16,
	/* The targets are SCSI devices (sg): a SCSI generic char device
	 * (/dev/sgN), sized by READ CAPACITY, opened without O_DIRECT and
	 * guarded through its disk's block device (/dev/sdX), or a block
	 * device; a regular file is refused. */
	ENGINE_SCSI = 1u << 17,
};

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

/* engine_ctx.reap_linger: how a wait for one lingers */
enum { REAP_LINGER_PART = 1, REAP_LINGER_ALL = 2 };

struct engine_ctx {
	/* The job (read only) and its engine's own options struct
	 * (engine_ops.options; NULL: none), as the plan left them. */
	const struct job *job;
	const void *eo;
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
	/*
	 * The queue() the worker's I/O loop calls: the engine's own, set
	 * before init(), which may put in its place one made for what it
	 * found (io_uring's usual ring), the same contract, so that the
	 * choice is not made per I/O; commit() and reap() may change it
	 * too (io_uring's usual ring: between them, one that submits the
	 * committed batch first). The worker reads it for each call.
	 */
	int (*queue)(struct engine_ctx *ctx, struct io_req *req);
	/*
	 * Lingering. reap_linger_may, set by the worker before init():
	 * whether a reap may linger (false: none ever does). A reap(min =
	 * 1, max > 1) with nothing ready, while reap_linger is set, waits
	 * on for more of the max completions, with no timer: until an
	 * eighth of them are there (2 at least: REAP_LINGER_PART), or all
	 * of them (REAP_LINGER_ALL); without it (0), it returns at the
	 * first. init() sets reap_lingers when its reap() can do so (the
	 * io_uring rings, not polled); the worker then sets reap_linger
	 * between reaps, by what lingering is found to be worth as the job
	 * runs (depth.c). An engine that cannot linger ignores all three.
	 */
	bool reap_linger_may;
	bool reap_lingers;
	unsigned char reap_linger;
	/*
	 * Set by init() when every request queue() queues gets t_submit and
	 * t_done, both nonzero, on the worker's own thread, in that order
	 * after t_queue (io_uring, libaio: its submitting call and its look
	 * at the completions). The worker then counts their latencies
	 * without the checks that a pool thread's stamps need (loop.h),
	 * where its clock reads are in step (the thread on one CPU, or
	 * CLOCK_MONOTONIC); elsewhere it clears it.
	 */
	bool stamps_own;
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
 * The engine contract (shared/DESIGN.md). An engine is one file: its
 * options, its plan, its run. Every hook but init and queue is optional.
 *
 * Options and plan time (an engine's options are nobody else's):
 * options: the options only this engine reads: rows of the option
 *         table's type (options.h), NULL-name ended, with offsets into
 *         the engine's own options struct of options_size bytes. The
 *         parser fills that struct for a job that uses the engine
 *         (job.eng.eopts, from the defaults and the values given, wherever
 *         ioengine= stands; a row's `store` parses its value there once
 *         into typed fields, which the run reads); --parse-only, the
 *         JSON options, --enghelp and --cmdhelp=ioengine list them.
 *         An option shared by engines (hipri) is a row in each one's
 *         table. A value given for an engine the job does not use is
 *         read as that engine reads it, checked by its check(), and
 *         left out with a warning.
 * check:  the engine's options eo against the job's other options
 *         (hipri needs direct=1): 0, or -EINVAL with e set at the job's
 *         section. Also run on the values a job gives for this engine
 *         while using another (eo is then a struct of them).
 * plan:   the job uses this engine: what the engine makes of the job
 *         (cpuio's thinktime, fileop's block size), and its checks that
 *         need more than check() has; its warnings to w (warn_add_job).
 *         0, or -EINVAL with e set.
 * file_size: optional: a file's size and block in the bytes the engine
 *         moves, when they are not the device's data bytes (io_uring_cmd
 *         on an extended LBA whose metadata moves: blocks of data and
 *         metadata), into *bytes and *block (left alone: as probed);
 *         target_plan calls it once a file is probed, before its region
 *         is planned, so the region's size, percentages and end, and the
 *         alignment direct= asks, count in those bytes (target.h:
 *         target_size_fn). 0, or -errno with e.
 * plan_target: after target_plan named the job's files, before anything
 *         is created: the engine's checks of them. 0 or -EINVAL with e.
 * plan_run: once a run, over every planned job and target (those of
 *         other engines too): checks between jobs. 0, -EINVAL or -ENOMEM.
 * names:  the files the engine writes through the door for the job
 *         (door.h), added to l for the plan-time check. 0 or -ENOMEM.
 *
 * Run time (ctx->job and ctx->eo read only; init copies what it keeps):
 * init:   allocate per-worker state for up to iodepth requests; -errno.
 * queue:  take one request: DONE, QUEUED or BUSY; -errno on a fatal error.
 * commit: hand every queued request to the kernel, or leave it to the next
 *         reap() when that can submit and wait in one system call;
 *         returns how many were submitted or -errno. May be NULL for
 *         ENGINE_SYNC engines.
 * reap:   wait for at least min completions, store up to max in out[];
 *         returns the count or -errno. May be NULL for ENGINE_SYNC.
 *         out[] has room for every request in flight (the worker's
 *         arrays do), which an engine may use as scratch beyond max
 *         (io_uring takes completions from its ring straight there).
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
 * status: optional: for a request that completed with res < 0, the
 *         device's own word for it ("NVMe status 0x282: end-to-end
 *         guard check error"), or NULL; the error report adds it.
 *
 * sync:   optional: the engine's own sync of the open file fd (one of
 *         ctx->tgt's), for a target the kernel cannot fsync (a char
 *         device): a command that flushes the device's volatile cache
 *         (sg: SYNCHRONIZE CACHE, io_uring_cmd: NVMe Flush), sent and
 *         waited for before it returns. The worker's syncs (fsync=,
 *         fdatasync=, sync_file_range=, end_fsync=, fsync_on_close=,
 *         end_syncfs=, read_iolog='s) all call it instead of the kernel's
 *         calls, timed as those. 0 or -errno.
 *
 * start:  optional: once, after the start gate and startdelay, before
 *         the measured phase: what may wait for someone else (net:
 *         accept a connection, connect); 0 or -errno; -EINTR when
 *         ctx->stop was set while it waited (the job ran nothing).
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
	const char *submit_call;	/* the system call that submits */
	const struct opt_def *options;
	size_t options_size;
	int (*check)(const struct job *j, const void *eo, struct err_rec *e);
	int (*plan)(struct job *j, struct warn_list *w, struct err_rec *e);
	int (*file_size)(const struct target_file *tf, const struct job *j,
			 uint64_t *bytes, uint32_t *block, struct err_rec *e);
	int (*plan_target)(const struct target *t, const struct job *j,
			   struct err_rec *e);
	int (*plan_run)(const struct job *jobs, const struct target *tg,
			size_t n, struct err_rec *e);
	int (*names)(const struct job *j, struct door_names *l);
	int (*init)(struct engine_ctx *ctx);
	int (*queue)(struct engine_ctx *ctx, struct io_req *req);
	int (*commit)(struct engine_ctx *ctx);
	int (*reap)(struct engine_ctx *ctx, unsigned min, struct io_req **out,
		    unsigned max);
	void (*exit)(struct engine_ctx *ctx);
	int (*start)(struct engine_ctx *ctx);
	int (*sync)(struct engine_ctx *ctx, int fd);
	void (*cpu)(struct engine_ctx *ctx, struct cpu_usage *c);
	const char *(*hint)(int err);
	void (*setup)(const struct engine_ctx *ctx, struct engine_setup *out);
	const char *(*status)(const struct engine_ctx *ctx,
			      const struct io_req *req);
};

/* NULL when unknown. */
const struct engine_ops *engine_find(const char *name);

/* hipri= (io_uring, pvsync2): polled I/O needs direct=1. 0, or -EINVAL
 * with e at j's section. */
int engine_check_hipri(const struct job *j, bool hipri, struct err_rec *e);

/* The cmdprio_* options of an ENGINE_CMDPRIO engine's options struct eo;
 * NULL for another engine. */
static inline const struct cmdprio_opts *
engine_cmdprio(const struct engine_ops *e, const void *eo)
{
	return e && (e->flags & ENGINE_CMDPRIO) ? eo : NULL;
}

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
/* --enghelp=ENGINE: its help, each of its options, and more words. */
void engine_print_one(FILE *f, const struct engine_ops *e);

#endif
