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
 * Calibrate ticks against CLOCK_MONOTONIC over ~20 ms. With both ends good
 * to a microsecond, the ratio is good to 100 ppm even on a busy machine.
 */
int clock_init(struct clock *c, bool allow_tsc)
{
	uint64_t t0, t1, n0, n1;
	struct timespec req = { 0, 20 * 1000 * 1000 };

	c->tsc = false;
	c->mult = 1ull << 32;
#if defined(__x86_64__)
	if (!allow_tsc || !tsc_reliable())
		return 0;
	c->tsc = true;
	clock_pair(c, &n0, &t0);
	nanosleep(&req, NULL);
	clock_pair(c, &n1, &t1);
	if (t1 <= t0 || n1 <= n0) {
		c->tsc = false;
		return 0;
	}
	c->mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
#else
	(void)allow_tsc;
	(void)req;
	(void)t0; (void)t1; (void)n0; (void)n1;
#endif
	return 0;
}
