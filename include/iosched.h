/* SPDX-License-Identifier: MIT */
#ifndef IORIG_IOSCHED_H
#define IORIG_IOSCHED_H

/*
 * ioscheduler=: the I/O scheduler of the disks under a job's targets,
 * switched through ROOT/sys/block/DISK/queue/scheduler when the job's
 * files are open, and each disk's first scheduler put back at the end of
 * the run (run.c). The run's main thread only: not thread safe.
 */
#include <stddef.h>

/* A scheduler name as the kernel spells them ([a-z0-9_-], 1-31
 * characters). Returns 0 or -EINVAL with why filled. */
int iosched_name_ok(const char *name, char *why, size_t whylen);

/*
 * Select `want` for disk `disk`; the scheduler it had is remembered (once
 * per disk) for iosched_restore. Returns 0, or -errno with why filled
 * (the schedulers the disk offers when it has no `want`).
 */
int iosched_switch(const char *root, const char *disk, const char *want,
		   char *why, size_t whylen);

/* Put every switched disk's scheduler back; forget them. */
void iosched_restore(const char *root);

#endif
