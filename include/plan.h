/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PLAN_H
#define IORIG_PLAN_H

#include <stddef.h>

#include "err.h"
#include "job.h"
#include "jobfile.h"
#include "warn.h"

/*
 * The resolved run: every job clone with its options validated, in start
 * order. Jobs with the same wait_group start together; a wait_group starts
 * when every job of the previous one has finished (stonewall). `group` is
 * the reporting group (stonewall or new_group starts a new one).
 */
struct plan {
	struct job *jobs;
	size_t njobs;
	unsigned ngroups;
	unsigned nwait_groups;
	/* Settings that run, but not the way the user may think; main
	 * prints them, the run result carries them into the report. */
	struct warn_list warnings;
};

struct plan_filter {
	const char **sections;	/* --section names, NULL-terminated or NULL */
	/* --parse-only: [global] options alone are a plan of no job, their
	 * values checked, as fio takes them (nothing at all: no jobs) */
	bool globals_ok;
};

/*
 * Resolve doc into plan: [global] sections apply to the jobs that follow,
 * options apply in order (later wins), kb_base applies to the whole
 * section before any size is parsed, numjobs makes clones, cross-option
 * checks run. Nothing is opened or run. Returns 0 or -EINVAL with e.
 */
int plan_build(struct plan *p, const struct raw_doc *doc,
	       const struct plan_filter *f, struct err_rec *e);
void plan_free(struct plan *p);

#endif
