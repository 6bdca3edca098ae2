/* SPDX-License-Identifier: MIT */
#ifndef IORIG_JOBEXEC_H
#define IORIG_JOBEXEC_H

/*
 * exec_prerun=, exec_postrun=: a shell command run for each clone of a
 * job, after its files are laid out and before its I/O (prerun), and
 * after its I/O ends, before its files are closed (postrun), as fio runs
 * them. The command is run by /bin/sh -c, as the job's user with uid=,
 * gid= (procattr_as_job), with its standard output and
 * error in JOBNAME.prerun.txt / JOBNAME.postrun.txt in the current
 * directory (fio's names), replaced whole when the command ends.
 */
#include <stddef.h>

#include "err.h"
#include "job.h"

/* The output file of mode ("prerun", "postrun") into buf. */
void jobexec_path(const struct job *j, const char *mode, char *buf,
		  size_t len);
/* Plan time: whether the output files of j's commands may be written;
 * 0, or -EINVAL with e. */
int jobexec_check(const struct job *j, struct err_rec *e);
/* The output files of j's commands, added to l for the door's plan-time
 * check of the fence (door.h): 0 or -ENOMEM. */
struct door_names;
int jobexec_names(const struct job *j, struct door_names *l);
/*
 * Runs cmd for j (mode "prerun" or "postrun") and waits for it, its
 * output through the door (fence: the run's). 0 when it exited with
 * status 0; else -ECANCELED (it failed: why says how) or -errno (it could
 * not be run).
 */
struct door_fence;
int jobexec_run(const struct job *j, const char *cmd, const char *mode,
		const struct door_fence *fence, char *why, size_t whylen);

#endif
