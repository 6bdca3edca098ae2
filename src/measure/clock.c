// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"

/* The kernel's word that the TSC ticks at a constant rate in all states. */
static bool tsc_reliable(void)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

#if defined(__x86_64__)
/*
 * One (ns, ticks) pair read close together: the tick read is bracketed by
 * two clock_gettime calls and retried when the bracket is wide (the thread
 * was preempted in between), so the pair is good to a microsecond.
 */
static void clock_pair(struct clock *c, uint64_t *ns, uint64_t *ticks)
{
	uint64_t a, b, t, best = UINT64_MAX;
	int i;

	for (i = 0; i < 16; i++) {
		a = clock_mono_ns();
		t = clock_ticks(c);
		b = clock_mono_ns();
		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*ticks = t;
		}
		if (best < 1000)
			break;
	}
}
#endif

/*
 * The first end of the calibration, taken by clock_mark() when the
 * process starts, so that the 20 ms it needs overlap the parsing and
 * the planning instead of adding a sleep to every run.
 */
static struct {
	bool set;
	uint64_t ns, ticks;
} mark;

void clock_mark(void)
{
#if defined(__x86_64__)
	struct clock c = { .tsc = true };

	clock_pair(&c, &mark.ns, &mark.ticks);
	mark.set = true;
#endif
}

/*
 * Calibrate ticks against CLOCK_MONOTONIC over at least 20 ms, from
 * clock_mark()'s pair when there is one (sleeping until 20 ms after
 * it, an absolute deadline, when they have not passed). With both ends
 * good to a microsecond, the ratio is good to 100 ppm even on a busy
 * machine.
 */
int clock_init(struct clock *c, bool allow_tsc)
{
	const uint64_t span = 20 * 1000 * 1000;
	uint64_t t0, t1, n0, n1;
	struct timespec until;

	c->tsc = false;
	c->mult = 1ull << 32;
#if defined(__x86_64__)
	if (!allow_tsc || !tsc_reliable())
		return 0;
	c->tsc = true;
	if (mark.set) {
		n0 = mark.ns;
		t0 = mark.ticks;
	} else {
		clock_pair(c, &n0, &t0);
	}
	until.tv_sec = (time_t)((n0 + span) / 1000000000u);
	until.tv_nsec = (long)((n0 + span) % 1000000000u);
	while (clock_mono_ns() < n0 + span &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) ==
	       EINTR)
		;
	clock_pair(c, &n1, &t1);
	if (t1 <= t0 || n1 <= n0 + span / 2) {
		c->tsc = false;
		return 0;
	}
	c->mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
#else
	(void)allow_tsc;
	(void)until;
	(void)span;
	(void)t0; (void)t1; (void)n0; (void)n1;
#endif
	return 0;
}
