/* SPDX-License-Identifier: MIT */
#ifndef IORIG_FUZZ_PLAN_CHECK_H
#define IORIG_FUZZ_PLAN_CHECK_H

/*
 * What every built plan promises, checked after each successful
 * plan_build, and the --parse-only listing printed into memory so the
 * formatters run on every job the fuzzer manages to build.
 */
#include <errno.h>

#include "check.h"
#include "fuzz.h"
#include "options.h"
#include "plan.h"

#define FUZZ_MAX_JOBS	4096	/* the planner's limit on a run */

static inline void fuzz_plan_check(const struct plan *p)
{
	struct fuzz_sink sink;
	size_t i;
	int d;

	FUZZ_CHECK(p->njobs > 0 && p->njobs <= FUZZ_MAX_JOBS);
	FUZZ_CHECK(p->ngroups >= 1 && p->nwait_groups >= 1);
	if (fuzz_sink_open(&sink))
		return;
	for (i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		FUZZ_CHECK(j->desc.name && j->eng.engine &&
			   j->plan.section_file);
		FUZZ_CHECK(j->eng.numjobs >= 1 &&
			   j->eng.numjobs <= FUZZ_MAX_JOBS);
		FUZZ_CHECK(j->plan.clone < j->eng.numjobs);
		FUZZ_CHECK(j->plan.group < p->ngroups);
		FUZZ_CHECK(j->plan.wait_group < p->nwait_groups);
		for (d = 0; d < DDIR_NR; d++)
			FUZZ_CHECK(j->io.bs_min[d] > 0 &&
				   j->io.bs_min[d] <= j->io.bs_max[d]);
		if (!j->plan.clone)
			options_print_job(sink.f, j);
	}
	for (i = 0; i < p->warnings.n; i++)
		FUZZ_CHECK(p->warnings.v[i].msg && p->warnings.v[i].msg[0] &&
			   p->warnings.v[i].code && p->warnings.v[i].code[0] &&
			   p->warnings.v[i].job);
	fuzz_sink_close(&sink);
}

/* A failure must say what went wrong: the message is what the user sees. */
static inline void fuzz_err_check(const struct err_rec *e)
{
	char buf[2048];

	FUZZ_CHECK(e->msg[0]);
	FUZZ_CHECK(err_format(e, buf, sizeof(buf)) < (int)sizeof(buf));
	FUZZ_CHECK(buf[0]);
}

/*
 * The checks of a built plan, its check= options and the --check
 * expressions exprs[0..n): matched to units, or refused saying why.
 */
static inline void fuzz_checks_check(const struct plan *p,
				     const char *const *exprs, size_t n)
{
	struct check_arg args[64];
	struct check_set cs;
	struct err_rec e = { 0 };
	size_t i;
	int ret;

	if (n > sizeof(args) / sizeof(args[0]))
		n = sizeof(args) / sizeof(args[0]);
	for (i = 0; i < n; i++) {
		args[i].expr = exprs[i];
		args[i].argi = (int)i + 1;
	}
	ret = check_build(&cs, p, args, n, NULL, &e);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOMEM);
	if (ret == -EINVAL)
		fuzz_err_check(&e);
	for (i = 0; !ret && i < cs.nitems; i++)
		FUZZ_CHECK(cs.items[i].def < cs.ndefs &&
			   cs.items[i].unit >= 0);
	check_set_free(&cs);
}

#endif
