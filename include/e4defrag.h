/* SPDX-License-Identifier: MIT */
#ifndef IORIG_E4DEFRAG_H
#define IORIG_E4DEFRAG_H

#include <stddef.h>

struct job;
struct err_rec;
struct target;

/*
 * ioengine=e4defrag (src/engines/e4defrag.c), at planning: donorname= is
 * needed (as fio), and rw= must only write (fio fails every read or trim
 * with EINVAL: a job that could do nothing else is refused, saying why).
 * 0, or -EINVAL with e set. Other engines: nothing to check.
 */
int e4defrag_plan(const struct job *j, struct err_rec *e);

/*
 * Once target_plan has named and checked the job's files, before anything
 * is created: each is a regular file (or one to be made) on an ext4 file
 * system (EXT4_IOC_MOVE_EXT exists nowhere else; the error names the file
 * system found); the donor file (directory/donorname) does not exist yet
 * (the engine moves the job's old blocks into it: iorig overwrites no
 * file it did not create) and would be made on the same file system.
 * 0, or -EINVAL with e set.
 */
int e4defrag_plan_target(const struct target *t, const struct job *j,
			 struct err_rec *e);

/*
 * Over the run's planned jobs and targets: no e4defrag job's donor is a
 * file of a job (its own or another's, made by the layout later). 0, or
 * -EINVAL with e set; -ENOMEM.
 */
int e4defrag_plan_run(const struct job *jobs, const struct target *tg,
		      size_t n, struct err_rec *e);
/* The donor file, added to l for the door's plan-time check (door.h). 0
 * or -ENOMEM. */
struct door_names;
int e4defrag_names(const struct job *j, struct door_names *l);

#endif
