/* SPDX-License-Identifier: MIT */
#ifndef IORIG_RUN_H
#define IORIG_RUN_H

#include <stdatomic.h>

#include "err.h"
#include "plan.h"
#include "report.h"

/*
 * Execute a plan: validate every job's targets before anything is written
 * (target_plan), then run the wait groups one after the other, each group's
 * clones side by side in their own threads. *stop (set by a signal handler)
 * ends the run early; the result still covers what ran.
 * Returns 0 when everything ran; -EINVAL with e when the targets failed
 * validation (nothing ran); r is filled in either case.
 */
/* Only the validation part of run_plan: nothing is created or written. */
int run_check(const struct plan *p, struct err_rec *e);
int run_plan(const struct plan *p, const atomic_int *stop,
	     struct run_result *r, struct err_rec *e);
void run_result_free(struct run_result *r);

#endif
