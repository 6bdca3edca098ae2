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

/*
 * Calibrate ticks against CLOCK_MONOTONIC over ~20 ms. The error of the
 * ratio is the clock_gettime jitter (tens of ns) over 20 ms: < 10 ppm.
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
	n0 = clock_mono_ns();
	t0 = clock_ticks(c);
	nanosleep(&req, NULL);
	n1 = clock_mono_ns();
	t1 = clock_ticks(c);
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
