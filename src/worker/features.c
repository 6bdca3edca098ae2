// SPDX-License-Identifier: MIT
/*
 * The one table of worker features (feature.h), and the setup and
 * teardown that walk it. The order of the rows is the order every hook
 * runs in, and it matters where two features act at the same point:
 * iodepth_low, think and latency_target hold issue before verify=
 * runs its barrier; max_latency's error comes before latency_target's;
 * write_iolog= logs a write before fsync= logs its sync; rate='s wait
 * comes before write_iolog= logs the I/O it delayed. A new feature is
 * one file and one row here (and its id in feature.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wstate.h"

const struct wfeature *const wfeatures[WF_NR] = {
	[WF_LOWDEPTH] = &wf_lowdepth,
	[WF_THINK] = &wf_think,
	[WF_MAXLAT] = &wf_maxlat,
	[WF_LTARGET] = &wf_ltarget,
	[WF_SERIAL] = &wf_serial,
	[WF_VERIFY] = &wf_verify,
	[WF_FILL] = &wf_fill,
	[WF_ACT] = &wf_act,
	[WF_PACE] = &wf_pace,
	[WF_CMDPRIO] = &wf_cmdprio,
	[WF_SYNCS] = &wf_syncs,
	[WF_END_SYNC] = &wf_end_sync,
	[WF_HINTS] = &wf_hints,
	[WF_ZBD] = &wf_zbd,
	[WF_REPLAY] = &wf_replay,
	[WF_FLOW] = &wf_flow,
};

/* Per-I/O hooks: a feature with one takes the job off the plain loop. */
static bool per_io(const struct wfeature *f)
{
	return f->round || f->hold || f->wait || f->next || f->prep ||
	       f->due || f->issued || f->done || f->stop;
}

#define WF_ADD(list, f, n)	do {				\
		if ((f)->list)					\
			s->ft.list[n.list++] = (f);		\
	} while (0)

int wf_select(struct wstate *s)
{
	struct {
		unsigned start, round, hold, wait, next, prep, due, issued,
			 done, stop, last, end, after;
	} n = { 0 };
	const struct wfeature *f;
	unsigned i;

	for (i = 0; i < WF_NR; i++) {
		f = wfeatures[i];
		if (!f || !f->wanted(s))
			continue;
		if (f->size && !(s->ft.state[i] = calloc(1, f->size))) {
			job_fail(s, -ENOMEM, "%s: %s", f->name,
				 strerror(ENOMEM));
			return -ENOMEM;
		}
		s->ft.wanted |= WF_BIT(i);
		if (per_io(f))
			s->ft.on |= WF_BIT(i);
		WF_ADD(start, f, n);
		WF_ADD(round, f, n);
		WF_ADD(hold, f, n);
		WF_ADD(wait, f, n);
		WF_ADD(next, f, n);
		WF_ADD(prep, f, n);
		WF_ADD(due, f, n);
		WF_ADD(issued, f, n);
		WF_ADD(done, f, n);
		WF_ADD(stop, f, n);
		WF_ADD(last, f, n);
		WF_ADD(end, f, n);
		WF_ADD(after, f, n);
	}
	return 0;
}

int wf_setup(struct wstate *s)
{
	unsigned i;
	int r;

	for (i = 0; i < WF_NR; i++) {
		if (!(s->ft.wanted & WF_BIT(i)) || !wfeatures[i]->setup)
			continue;
		r = wfeatures[i]->setup(s);
		if (r)
			return r;
	}
	return 0;
}

void wf_teardown(struct wstate *s)
{
	unsigned i = WF_NR;

	while (i--) {
		if (!(s->ft.wanted & WF_BIT(i)))
			continue;
		if (wfeatures[i]->teardown)
			wfeatures[i]->teardown(s);
		free(s->ft.state[i]);
		s->ft.state[i] = NULL;
	}
	s->ft.wanted = 0;
	s->ft.on = 0;
}
