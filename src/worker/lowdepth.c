// SPDX-License-Identifier: MIT
/*
 * iodepth_low=: once the queue is full, no I/O is issued until it has
 * drained down to iodepth_low (fio's meaning). A worker feature
 * (feature.h): issued sees the queue full and starts the drain (its bit
 * in ft.holds, so that commit_reap collects completions as they come,
 * depth.c), hold keeps issue back until the drain is over.
 */
#include "wstate.h"

struct lowdepth {
	bool drain;		/* full: waiting down to the low mark */
};

static inline struct lowdepth *low_of(const struct wstate *s)
{
	return wf_state(s, WF_LOWDEPTH);
}

/* Below the queue's depth: at or above it, it changes nothing. */
static bool low_wanted(const struct wstate *s)
{
	return s->j->eng.iodepth_low && s->j->eng.iodepth_low < s->depth;
}

static bool low_hold(struct wstate *s)
{
	struct lowdepth *l = low_of(s);

	if (!l->drain)
		return false;
	if (s->inflight > s->j->eng.iodepth_low)
		return true;
	l->drain = false;
	s->ft.holds &= ~WF_BIT(WF_LOWDEPTH);
	return false;
}

static void low_issued(struct wstate *s, struct io_req *req, int ddir, int r)
{
	struct lowdepth *l = low_of(s);

	(void)req;
	(void)ddir;
	if (r != ENGINE_QUEUED || s->inflight < s->depth)
		return;
	l->drain = true;
	s->ft.holds |= WF_BIT(WF_LOWDEPTH);
}

const struct wfeature wf_lowdepth = {
	.name = "iodepth_low",
	.size = sizeof(struct lowdepth),
	.wanted = low_wanted,
	.hold = low_hold,
	.issued = low_issued,
};
