// SPDX-License-Identifier: MIT
/*
 * flow=, flow_id= (flow.h): jobs sharing a flow id issue in the ratio of
 * their weights. A worker feature (feature.h): setup joins the flow,
 * teardown leaves it, and before each I/O the job waits for its share.
 */
#include <errno.h>
#include <sched.h>

#include "flow.h"
#include "wstate.h"

struct flowctl {
	struct flow *flow;	/* the flow joined; NULL: not yet */
	uint64_t mine;		/* this job's count in it */
};

static inline struct flowctl *flow_of(const struct wstate *s)
{
	return wf_state(s, WF_FLOW);
}

static bool flow_wanted(const struct wstate *s)
{
	return s->j->pace.flow != 0;
}

static int flow_setup(struct wstate *s)
{
	struct flowctl *f = flow_of(s);

	f->flow = flow_join(s->j->pace.flow_id, (unsigned)s->j->pace.flow);
	if (!f->flow) {
		job_fail(s, -ENOMEM, "flow: out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void flow_teardown(struct wstate *s)
{
	struct flowctl *f = flow_of(s);

	if (f)
		flow_leave(f->flow, f->mine, (unsigned)s->j->pace.flow);
}

/*
 * True when this job may issue one more I/O. Ahead of its share, it
 * collects what is in flight first (false), then waits flow_sleep (or
 * yields) and asks again, until it may or it is stopped.
 */
static bool flow_wait(struct wstate *s)
{
	const struct job *j = s->j;
	struct flowctl *f = flow_of(s);

	while (!flow_may_issue(f->flow, &f->mine, (unsigned)j->pace.flow)) {
		if (s->inflight || s->queued ||
		    atomic_load_explicit(s->w->stop, memory_order_relaxed))
			return false;
		if (j->pace.flow_sleep_ns)
			sleep_ns(j->pace.flow_sleep_ns, s->w->stop);
		else
			sched_yield();
		s->now = clock_ticks(s->w->clk);
		if (s->now >= s->deadline)
			return false;
	}
	return true;
}

const struct wfeature wf_flow = {
	.name = "flow",
	.size = sizeof(struct flowctl),
	.wanted = flow_wanted,
	.setup = flow_setup,
	.teardown = flow_teardown,
	.wait = flow_wait,
};
