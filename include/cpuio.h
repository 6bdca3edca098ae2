/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CPUIO_H
#define IORIG_CPUIO_H

struct job;
struct err_rec;

/*
 * ioengine=cpuio (src/engines/cpuio.c): fio's meaning of the job, set at
 * planning. cpuload= is needed; each request is cpuchunks µs busy, then
 * the idle part (thinktime after every I/O) is cpuchunks * (100 -
 * cpuload) / cpuload; a runtime makes the job time_based, as fio runs
 * a cpuio job for its runtime. 0, or -EINVAL with e set. Other engines:
 * nothing changes.
 */
int cpuio_plan(struct job *j, struct err_rec *e);

/*
 * ioengine=exec (src/engines/exec.c): program= is needed; the job checks
 * on its program every 50 ms (a thinktime after every request, as fio),
 * and a runtime makes it time_based. 0, or -EINVAL with e set.
 */
int exec_plan(struct job *j, struct err_rec *e);
/* ioengine=exec with std_redirect: NAME.stdout and NAME.stderr added to
 * l for the door's plan-time check (door.h). 0 or -ENOMEM. */
struct door_names;
int exec_names(const struct job *j, struct door_names *l);

#endif
