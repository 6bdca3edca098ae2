/* SPDX-License-Identifier: MIT */
#ifndef IORIG_RUN_H
#define IORIG_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "plan.h"
#include "result.h"

/*
 * Execute a plan: validate every job's targets before anything is written
 * (target_plan), then run the wait groups one after the other, each group's
 * clones side by side in their own threads. *stop (set by a signal handler)
 * ends the run early; the result still covers what ran.
 * Returns 0 when everything ran; -EINVAL with e when the targets failed
 * validation (nothing ran); r is filled in either case.
 */
/*
 * Only the validation part of run_plan: nothing is created or written.
 * Then the door's plan-time check (door.h): the run's fence is every
 * file a job reads or writes (its targets, now or once created, and the
 * iologs it replays); each of the nouts files of the command (the
 * report, the stream, the chart... NULL paths: none) must not be in it,
 * and then no file a job writes besides its targets (its logs and
 * traces, verify state, prerun/postrun and exec output, buffer file,
 * socket, donor: the names the modules give, iolog_names...) may be in
 * it or be one of outs. Returns 0 or -errno with e naming both files.
 *
 * checked: NULL, or where the targets planned and checked here (one per
 * job) are handed over on success, for run_watch.checked: the run then
 * uses them instead of planning (probing, guarding, asking NVMe Identify
 * and the zone report) a second time. Free unused ones with
 * run_checked_free.
 */
struct door_name;
struct target;
int run_check(const struct plan *p, const struct door_name *outs,
	      size_t nouts, struct target **checked, struct err_rec *e);
void run_checked_free(const struct plan *p, struct target *checked);
int run_plan(const struct plan *p, const atomic_int *stop,
	     struct run_result *r, struct err_rec *e);

struct stream;
struct progress;

/*
 * Live views of a run (NULL members: off), fed by the main thread while
 * the jobs run, about every 50 ms: --stream gets the interval samples
 * the workers published, --progress a status about once a second,
 * cleared at the end of each wait group.
 */
struct peers;

struct run_watch {
	struct stream *stream;
	struct progress *progress;
	/* MPI ranks running the same plan (peers.h): each wait group starts
	 * once every rank's targets are open (agree) and its workers set up
	 * (go). NULL: alone. */
	struct peers *peers;
	/*
	 * The targets run_check planned for this plan just before (NULL:
	 * the run plans them): run_plan_watched takes them over and frees
	 * them. Their guards' verdicts (no block device that a job writes
	 * is in use or holds data) were taken then, before anything was
	 * written; target_open checks each written device for use again
	 * as it opens it.
	 */
	struct target *checked;
};

/* run_plan with live views; watch may be NULL. */
int run_plan_watched(const struct plan *p, const atomic_int *stop,
		     const struct run_watch *watch, struct run_result *r,
		     struct err_rec *e);
void run_result_free(struct run_result *r);

#endif
