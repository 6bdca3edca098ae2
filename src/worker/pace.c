// SPDX-License-Identifier: MIT
/*
 * Pacing: rate=, rate_iops=, rate_process=, rate_min=, rate_iops_min=.
 *
 * The schedule is open loop. Each paced direction has a timetable of when
 * its I/Os fall due, fixed by the rate alone: linear, the I/O that follows
 * `sched` bytes is due at base + sched / bps; poisson, the gaps between
 * due times are exponential with mean len / bps (from a generator seeded
 * by the job's seed). An I/O is issued as soon as it is due, whatever is
 * in flight, as long as iodepth allows; when the device falls behind, I/Os
 * are issued late and the timetable does not move: the next ones are
 * already due, and the job catches up as fast as the device lets it.
 *
 * Two latencies follow: lat from issue to completion (as for any job),
 * and sched_lat from due to completion, which holds the time an I/O
 * waited for its turn: what a client of the device issuing on this
 * timetable would see.
 *
 * rate_iops= paces bytes too, at rate_iops x the smallest block size of
 * the direction (fio's meaning): with a fixed block size, exactly that
 * many I/Os per second.
 *
 * A worker feature (feature.h): nothing here runs for a job without rate
 * options.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "wstate.h"

/*
 * While an I/O waits for its due time and others are in flight, the
 * worker looks for completions this often (an engine's reap cannot wait
 * with a deadline): completions found then are stamped up to this late
 * unless the engine stamps them itself.
 */
#define PACE_POLL_NS	20000ull
/* A long wait still looks at the stop flag this often. */
#define PACE_SLEEP_MAX_NS	20000000ull
#define NS_S	1000000000ull
/*
 * rate_min, rate_iops_min: no verdict in the measured phase's first 2 s
 * (fio 3.33's settle period); the first rate_cycle starts at the first
 * completion after it.
 */
#define PACE_SETTLE_NS	(2 * NS_S)

/*
 * Each paced direction has its own schedule: linear, the I/O after
 * `sched` bytes falls due at base + sched / bps; poisson, `next` moves on
 * by an exponential gap of mean len / bps after each I/O. An I/O is
 * issued when it falls due, whatever is in flight (open loop, up to
 * iodepth).
 */
struct pace_dir {
	uint64_t bps;		/* paced bytes/s; 0: not paced */
	uint64_t base;		/* ticks: linear schedule's start */
	uint64_t sched;		/* linear: bytes scheduled since base */
	uint64_t next;		/* poisson: ticks when the next I/O is due */
	uint64_t lag;		/* ticks the last I/O was issued late */
	uint64_t min_bps, min_iops;	/* rate_min, rate_iops_min; 0: none */
	uint64_t cyc_bytes, cyc_ios;	/* counters at the cycle's start */
	bool used;		/* the job does I/O in this direction */
};

struct pace {
	struct pace_dir dir[DDIR_NR];
	uint64_t cyc_start, cyc_end;	/* ticks: rate_min window;
					 * cyc_end UINT64_MAX: none */
	bool settling;		/* cyc_end ends the settle period */
	uint64_t last_issue;	/* ticks: the last paced I/O went */
	struct gen_rng rng;	/* poisson gaps, seeded from the job's seed */
	bool poisson;
	bool mixed;		/* pace_next picks each I/O's direction */
	bool share[DDIR_NR];	/* rwmix gives the direction a share */
};

static inline struct pace *pace_of(const struct wstate *s)
{
	return wf_state(s, WF_PACE);
}

static uint64_t ticks_for_bytes(const struct clock *clk, uint64_t bytes,
				uint64_t bps)
{
	unsigned __int128 ns = (unsigned __int128)bytes * NS_S / bps;

	return clock_ns_to_ticks(clk, ns > UINT64_MAX / 2 ? UINT64_MAX / 2 :
				 (uint64_t)ns);
}

/* When the next I/O of the direction falls due, in ticks. */
static uint64_t next_due(const struct wstate *s, const struct pace_dir *pd)
{
	if (pace_of(s)->poisson)
		return pd->next;
	return pd->base + ticks_for_bytes(s->w->clk, pd->sched, pd->bps);
}

/* An exponential gap of mean len / bps, in ticks. */
static uint64_t poisson_gap(struct wstate *s, uint64_t len, uint64_t bps)
{
	/* 53 random bits: u in [0, 1), so 1 - u > 0 */
	double u = (double)(gen_rng_next(&pace_of(s)->rng) >> 11) *
		   (1.0 / 9007199254740992.0);
	double ns = -log1p(-u) * (double)len * 1e9 / (double)bps;

	if (ns > 1e18)
		ns = 1e18;
	return clock_ns_to_ticks(s->w->clk, (uint64_t)ns);
}

static bool dir_used(int rw, int d)
{
	return rw_dirs(rw) >> d & 1;
}

/* A job paces when a direction it does has a rate or a minimum. */
static bool pace_wanted(const struct wstate *s)
{
	const struct job *j = s->j;
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		if (dir_used(j->io.rw, (int)d) &&
		    (j->pace.rate[d] ||
		     (j->pace.rate_iops[d] * j->io.bs_min[d]) != 0 ||
		     j->pace.rate_min[d] || j->pace.rate_iops_min[d]))
			return true;
	return false;
}

/* Each measured phase starts its timetables. */
static void pace_start(struct wstate *s)
{
	const struct job *j = s->j;
	struct pace *p = pace_of(s);
	uint64_t now = s->now;
	bool mins;
	unsigned d;

	memset(p, 0, sizeof(*p));
	p->poisson = j->pace.rate_process == RATE_POISSON;
	gen_rng_seed(&p->rng, s->gen.p.seed ^ 0x70616365ull);
	for (d = 0; d < DDIR_NR; d++) {
		struct pace_dir *pd = &p->dir[d];

		pd->used = dir_used(j->io.rw, (int)d);
		if (!pd->used)
			continue;
		pd->bps = j->pace.rate[d] ? j->pace.rate[d] :
			  j->pace.rate_iops[d] * j->io.bs_min[d];
		pd->base = now;
		pd->next = now;
		pd->min_bps = j->pace.rate_min[d];
		pd->min_iops = j->pace.rate_iops_min[d];
	}
	/* A mixed job whose I/Os come from the generator (not a replayed
	 * log) and that paces a direction: pace_next picks directions. */
	p->mixed = s->gen.p.mixed && !s->gen.p.trimwrite &&
		   !(s->ft.wanted & WF_BIT(WF_REPLAY)) &&
		   (p->dir[DDIR_READ].bps || p->dir[DDIR_WRITE].bps);
	p->share[DDIR_READ] = s->gen.p.rwmixread > 0;
	p->share[DDIR_WRITE] = s->gen.p.rwmixread < 100;
	p->cyc_start = now;
	for (d = 0, mins = false; d < DDIR_NR; d++)
		mins = mins || p->dir[d].min_bps || p->dir[d].min_iops;
	p->cyc_end = s->ramp_end || !mins ? UINT64_MAX :
		     now + clock_ns_to_ticks(s->w->clk, PACE_SETTLE_NS);
	p->settling = true;
	/* Wake-ups on time: the default slack is 50us per sleep. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

static void sleep_for(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NS_S), .tv_nsec = (long)(ns % NS_S),
	};

	nanosleep(&ts, NULL);
}

/* When direction d's next I/O falls due; 0 (now) when it is not paced. */
static uint64_t dir_due(const struct wstate *s, unsigned d)
{
	const struct pace_dir *pd = &pace_of(s)->dir[d];

	return pd->bps ? next_due(s, pd) : 0;
}

/*
 * A mixed job's next I/O, fio's rule for paced directions: each direction
 * keeps its own timetable. The direction rwmix draws goes when it is due;
 * when it is ahead of its timetable, the other direction (if rwmix gives
 * it a share) goes instead when that one falls due sooner (an unpaced
 * direction is always due). pace_wait then waits for the one chosen.
 * So rate_iops=500,200 does 500 reads and 200 writes a second whatever
 * rwmixread says; rwmix only chooses among directions that are due.
 */
bool pace_gen_next(struct wstate *s, struct gen_io *io)
{
	const struct pace *p = pace_of(s);
	unsigned d, o;
	uint64_t due;

	if (!p || !p->mixed)
		return false;
	d = gen_draw_dir(&s->gen);
	o = d ^ 1;
	due = dir_due(s, d);
	if (p->share[o] && due > clock_ticks(s->w->clk) && dir_due(s, o) < due)
		d = o;
	gen_next_dir(&s->gen, io, d);
	return true;
}

static int pace_next(struct wstate *s, struct gen_io *io)
{
	return pace_gen_next(s, io);
}

/*
 * Before req is issued: waits (reaping what completes meanwhile) until it
 * falls due, stamps t_due, and t_queue at the end of the wait; false when
 * the job stops first (req not issued).
 */
static bool pace_wait(struct wstate *s, struct io_req *req)
{
	const struct clock *clk = s->w->clk;
	struct pace *p = pace_of(s);
	struct pace_dir *pd = &p->dir[req->ddir];
	uint64_t due, now, ns;
	unsigned before;

	if (!pd->bps) {
		req->t_due = 0;
		return true;
	}
	due = next_due(s, pd);
	for (now = clock_ticks(clk); now < due; now = clock_ticks(clk)) {
		if (atomic_load_explicit(s->w->stop, memory_order_relaxed)) {
			s->st->interrupted = true;
			return false;
		}
		if (!s->ramp_end && now >= s->deadline)
			return false;
		ns = clock_delta_ns(clk, now, due);
		if (!s->ramp_end && s->deadline < due)
			ns = clock_delta_ns(clk, now, s->deadline) + 1;
		if (s->inflight) {
			before = s->nfree;
			commit_reap(s);
			if (s->stopping || s->abandoned || s->engine_failed)
				return false;
			if (s->nfree != before)
				continue;
			if (ns > PACE_POLL_NS)
				ns = PACE_POLL_NS;
		}
		sleep_for(ns < PACE_SLEEP_MAX_NS ? ns : PACE_SLEEP_MAX_NS);
	}
	if (p->poisson)
		pd->next += poisson_gap(s, req->len, pd->bps);
	else
		pd->sched += req->len;
	pd->lag = now - due;
	p->last_issue = now;
	req->t_due = due;
	req->t_queue = now;	/* the wait is not the I/O's */
	return true;
}

/*
 * rate_min, rate_iops_min: what each direction did in the cycle that
 * ended now; below either minimum fails the job, as in fio (which
 * refuses the two together). A direction that has completed nothing yet
 * is not judged (fio's rule).
 * The end of the settle period only starts the first cycle.
 */
static void pace_cycle(struct wstate *s)
{
	const struct clock *clk = s->w->clk;
	struct pace *p = pace_of(s);
	uint64_t ns = clock_delta_ns(clk, p->cyc_start, s->now);
	double bps, iops;
	unsigned d;

	for (d = 0; d < DDIR_NR && ns; d++) {
		struct pace_dir *pd = &p->dir[d];
		const struct dir_stats *ds = &s->st->dir[d];

		if (!pd->used || !ds->bytes || p->settling)
			goto next;
		bps = (double)(ds->bytes - pd->cyc_bytes) * 1e9 / (double)ns;
		iops = (double)(ds->ios - pd->cyc_ios) * 1e9 / (double)ns;
		if (pd->min_bps && bps < (double)pd->min_bps)
			job_fail(s, -ECANCELED, "%s rate %.0f bytes/s over "
				 "the last %.3fs is below rate_min %llu",
				 ddir_str(d), bps,
				 (double)ns / 1e9,
				 (unsigned long long)pd->min_bps);
		else if (pd->min_iops && iops < (double)pd->min_iops)
			job_fail(s, -ECANCELED, "%s rate %.1f IOPS over the "
				 "last %.3fs is below rate_iops_min %llu",
				 ddir_str(d), iops,
				 (double)ns / 1e9,
				 (unsigned long long)pd->min_iops);
next:
		pd->cyc_bytes = ds->bytes;
		pd->cyc_ios = ds->ios;
	}
	p->settling = false;
	p->cyc_start = s->now;
	p->cyc_end = s->now + clock_ns_to_ticks(clk, s->j->pace.rate_cycle_ns);
}

/* Each successful completion: its sched_lat; a rate_min cycle's end. */
static void pace_done(struct wstate *s, struct io_req *req,
		      const struct wlat *l)
{
	if (!l)
		return;
	if (req->t_due)
		hist_add(&s->st->dir[req->ddir].sched_lat,
			 clock_delta_ns(s->w->clk, req->t_due, req->t_done));
	if (s->now >= pace_of(s)->cyc_end)
		pace_cycle(s);
}

/*
 * After thinktime's stall, about to issue again. Unless
 * rate_ignore_thinktime, the schedule ran on meanwhile and the I/Os that
 * fell due are caught up with; with it, they are dropped and the schedule
 * restarts now.
 */
void pace_thought(struct wstate *s)
{
	struct pace *p = pace_of(s);
	uint64_t now;
	unsigned d;

	if (!p || !s->j->pace.rate_ignore_thinktime)
		return;
	now = clock_ticks(s->w->clk);
	for (d = 0; d < DDIR_NR; d++) {
		struct pace_dir *pd = &p->dir[d];

		if (!pd->bps || next_due(s, pd) >= now)
			continue;
		pd->base = now;
		pd->sched = 0;
		pd->next = now;
	}
}

/* The report's rate figures of the measured phase (none while ramping:
 * nothing was measured). */
static void pace_end(struct wstate *s, uint64_t end, bool own)
{
	const struct clock *clk = s->w->clk;
	const struct pace *p = pace_of(s);
	bool all_issued = s->issued_bytes >= s->limit_bytes ||
			  s->issued_ios >= s->limit_ios;
	/* issuing stopped at the deadline, or at the end of a job stopped
	 * before it (by a signal, an error) */
	uint64_t stop = end < s->deadline ? end : s->deadline;
	uint64_t due, behind, len;
	unsigned d;

	(void)own;
	if (s->ramp_end)
		return;
	for (d = 0; d < DDIR_NR; d++) {
		const struct pace_dir *pd = &p->dir[d];
		struct dir_stats *ds = &s->st->dir[d];

		if (!pd->bps)
			continue;
		ds->rate_bps = (double)pd->bps;
		ds->rate_iops = s->j->pace.rate[d] ? 0 :
			(double)s->j->pace.rate_iops[d];
		ds->lag_ns = clock_delta_ns(clk, 0, pd->lag);
		/*
		 * Due and not issued when issuing stopped: none when the job
		 * issued all its work; else those due before it stopped (a
		 * queue kept full by a device that completed nothing holds
		 * them: the first of them is then the latest I/O, its lag
		 * the direction's, and the rate not met however punctual
		 * the issues before it were).
		 */
		due = next_due(s, pd);
		if (all_issued || due >= stop)
			continue;
		behind = clock_delta_ns(clk, due, stop);
		if (behind > ds->lag_ns)
			ds->lag_ns = behind;
		len = (s->j->io.bs_min[d] + s->j->io.bs_max[d]) / 2;
		ds->backlog_ios = 1 + (uint64_t)((double)behind *
				  (double)pd->bps / 1e9 / (double)len);
	}
}

const struct wfeature wf_pace = {
	.name = "rate",
	.size = sizeof(struct pace),
	.wanted = pace_wanted,
	.start = pace_start,
	.next = pace_next,
	.due = pace_wait,
	.done = pace_done,
	.end = pace_end,
};
