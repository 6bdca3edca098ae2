// SPDX-License-Identifier: MIT
/*
 * How a worker batches its engine calls by default: how many completions
 * a full queue waits for, and whether the device or the CPU limits the
 * job (adapt). Called once per reap batch by commit_reap (worker.c).
 */
#include "wstate.h"

/*
 * Default batching adapts to what limits the job. When the CPU does (the
 * device completes as fast as iorig submits), handing over everything
 * that is ready in one call saves system calls, and so does waiting, when
 * the queue is full, for half of it to complete rather than for one I/O:
 * a wait that sleeps costs a wakeup and two context switches, which on
 * one CPU shared with the kernel threads doing the I/O (io_uring's io-wq
 * on zram) was most of the kernel's time per I/O. When the device limits
 * (completions are far apart), a device that completes a batch together
 * drains its queue between batches; one request at a time, as soon as a
 * slot frees, keeps it busy. A moving average of the time a batch wait
 * took per completion it waited for tells the two apart. Only batch waits
 * feed it: a wait for one completion costs the wakeup on top of the
 * device's time. While trickling, every TRICKLE_PROBE-th wait is a batch
 * wait, so that a job whose device speeds up finds out.
 *
 * Whatever the mode, an I/O that starts where the last one queued for
 * the same file ends goes into the next submitting call, not the same
 * one. Inside one call the block layer plugs the batch and merges
 * contiguous requests (4 KiB sequential reads at QD32 reached the disk
 * as 64 KiB requests, 94% merged), so the device would see another
 * workload than the one asked for; fio, submitting one I/O per call by
 * default, keeps them apart. Random I/O is next to its predecessor about
 * never and keeps its batches.
 */
#define TRICKLE_WAIT_NS	10000
#define TRICKLE_PROBE	64

void adapt(struct wstate *s, uint64_t waited_ns, unsigned waited_for)
{
	uint64_t per = waited_ns / waited_for;

	/* One long wait (another task had the CPU) must not flip the mode */
	if (per > 2 * TRICKLE_WAIT_NS)
		per = 2 * TRICKLE_WAIT_NS;
	s->wait_avg_ns = s->wait_avg_ns - s->wait_avg_ns / 8 + per / 8;
	s->trickle = s->wait_avg_ns > TRICKLE_WAIT_NS;
}

/*
 * How many completions to wait for when the queue is full; *batch: a
 * batch wait, whose time feeds adapt(). When this thread may run on one
 * CPU only, the kernel's threads that do the I/O (io_uring's io-wq) share
 * it, every wait costs two context switches, and waiting for the whole
 * queue halves them (4 KiB reads from zram through io-wq: 0.12 switches
 * per I/O at half, 0.06 at whole, as t/io_uring -c32). When the CPUs it
 * may use are at least twice the clones running (spare_cpu: one for this
 * thread, one for the kernel's worker) and the engine has no threads of
 * its own, an eighth: the thread sleeps briefly, so its CPU is more often
 * still in the idle loop's polling when the completions wake it (no
 * inter-processor interrupt, which the waking worker pays for), and the
 * worker always has I/Os queued while the thread refills (zram, QD32,
 * one job on two CPUs: 452k IOPS against 414k at half, t/io_uring's best
 * -c4 461k, medians of 15 alternating rounds; tracefs at half: 39 IPIs
 * per 1000 I/Os against t/io_uring's 31). Otherwise half: with every CPU
 * busy (two jobs on two CPUs, each with its worker; pthread's pool)
 * those extra wake-ups cost CPU time the workers need (two jobs: 523k
 * IOPS at an eighth against 627k at half).
 */
unsigned wait_batch(struct wstate *s, bool *batch)
{
	unsigned want = min_u(s->reap_min, s->inflight), part = 0;

	*batch = s->adaptive && (!s->trickle ||
				 !(++s->waits_trickled % TRICKLE_PROBE));
	if (*batch)
		part = s->one_cpu ? s->inflight :
		       s->spare_cpu ? s->inflight / 8 : s->inflight / 2;
	else if (s->adaptive && !one_at_a_time(s))
		part = s->inflight / 8;
	return part > want ? part : want;
}
