// SPDX-License-Identifier: MIT
/*
 * --profile=act (profile.h): each measured completion's latency goes
 * into the profile's table and the job's own hour; fio's act ends a job
 * at its first failed hour. A worker feature (feature.h) with a done
 * hook.
 */
#include "profile.h"
#include "wstate.h"

static bool act_wanted(const struct wstate *s)
{
	return s->j->act_tally != NULL;
}

static void act_done(struct wstate *s, struct io_req *req,
		     const struct wlat *l)
{
	struct act_hour *h = wf_state(s, WF_ACT);
	char why[160];
	int r;

	(void)req;
	if (!l || s->ramp_end)
		return;
	r = act_tally_add(s->j->act_tally, h,
			  clock_span_ns(s->w->clk, s->t0, s->now), l->lat,
			  why, sizeof(why));
	if (r)
		job_fail(s, r, "%s", why);
}

const struct wfeature wf_act = {
	.name = "act",
	.size = sizeof(struct act_hour),
	.wanted = act_wanted,
	.done = act_done,
};
