// SPDX-License-Identifier: MIT
/*
 * cmdprio_percentage=, cmdprio_bssplit= (procattr.h): per direction,
 * which I/Os carry which I/O priority, drawn per I/O from tables made at
 * setup of the values the options' setters parsed (no text is read at
 * run time); and the latencies per priority (stats.h), handed to the
 * stats with the figures. A worker feature (feature.h) for the engines
 * that carry a priority per I/O: prep draws the I/O's priority, done
 * counts its latency.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wstate.h"

struct cmdprio {
	struct cmdprio_tab cp[2];	/* reads, writes */
	struct gen_rng rng;
	struct prio_stats *prio;	/* the stats own it once handed */
};

static inline struct cmdprio *cp_of(const struct wstate *s)
{
	return wf_state(s, WF_CMDPRIO);
}

/* The engine carries a priority per I/O, and the job gives some. */
static bool cp_wanted(const struct wstate *s)
{
	const struct cmdprio_opts *o = engine_cmdprio(s->eng, s->j->eng.eopts);
	struct cmdprio_tab cp[2];

	return o && procattr_cmdprio(o, cp);
}

/*
 * The latencies per priority: in each direction with a table, the job's
 * own priority first, then each value of the table once (fio's order),
 * all there before the first I/O.
 */
static int cp_setup(struct wstate *s)
{
	const struct job *j = s->j;
	struct cmdprio *c = cp_of(s);
	unsigned d, i;

	procattr_cmdprio(engine_cmdprio(s->eng, j->eng.eopts), c->cp);
	gen_rng_seed(&c->rng, j->rnd.randseed ^ 0x636d6470ull ^
		     ((uint64_t)j->plan.clone << 40));
	c->prio = prio_stats_new(j->report.lat_percentiles);
	for (d = 0; c->prio && d < 2; d++) {
		if (!c->cp[d].n)
			continue;
		if (prio_stats_entry(c->prio, d, (uint16_t)procattr_ioprio(j)))
			goto nomem;
		for (i = 0; i < c->cp[d].n; i++)
			if (c->cp[d].e[i].val &&
			    prio_stats_entry(c->prio, d, c->cp[d].e[i].val))
				goto nomem;
	}
	if (c->prio)
		return 0;
nomem:
	job_fail(s, -ENOMEM, "cmdprio: %s", strerror(ENOMEM));
	return -ENOMEM;
}

static void cp_teardown(struct wstate *s)
{
	struct cmdprio *c = cp_of(s);

	if (s->st->prio != c->prio)	/* not handed over: setup failed */
		prio_stats_free(c->prio);
}

static void cp_start(struct wstate *s)
{
	prio_stats_reset(cp_of(s)->prio);
}

static bool cp_prep(struct wstate *s, struct io_req *req,
		    const struct gen_io *io)
{
	struct cmdprio *c = cp_of(s);

	req->ioprio = io->ddir < 2 ?
		procattr_cmdprio_pick(&c->cp[io->ddir], io->len,
			(unsigned)(((gen_rng_next(&c->rng) >> 32) * 100) >> 32)) :
		0;
	return true;
}

static void cp_done(struct wstate *s, struct io_req *req,
		    const struct wlat *l)
{
	struct prio_stats *p = cp_of(s)->prio;

	if (l)
		prio_stats_add(p, req->ddir, req->ioprio,
			       p->lat ? l->lat : l->clat);
}

/* The stats own the table from here on; still ramping (measured
 * nothing), or with the latency it keeps off, it is empty. */
static void cp_end(struct wstate *s, uint64_t end, bool own)
{
	const struct job *j = s->j;
	struct prio_stats *p = cp_of(s)->prio;

	(void)end;
	(void)own;
	if (!p)
		return;
	s->st->prio = p;
	if (s->ramp_end || j->report.gtod_reduce ||
	    (p->lat ? j->report.disable_lat : j->report.disable_clat))
		prio_stats_reset(p);
}

const struct wfeature wf_cmdprio = {
	.name = "cmdprio",
	.size = sizeof(struct cmdprio),
	.wanted = cp_wanted,
	.setup = cp_setup,
	.teardown = cp_teardown,
	.start = cp_start,
	.prep = cp_prep,
	.done = cp_done,
	.end = cp_end,
};
