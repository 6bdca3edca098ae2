/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CLOCK_H
#define IORIG_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/*
 * Monotonic clock. Hot paths read raw ticks with clock_ticks() and convert
 * differences with clock_delta_ns(). Ticks are the CPU's invariant TSC when
 * the kernel says it is constant and non-stop (calibrated once against
 * CLOCK_MONOTONIC), else CLOCK_MONOTONIC nanoseconds themselves.
 * The calibration is computed once by clock_init() and then only read.
 */
struct clock {
	bool tsc;
	uint64_t mult;		/* ns per tick << 32 */
};

int clock_init(struct clock *c, bool allow_tsc);
/* The calibration's first end, as the process starts (main). */
void clock_mark(void);

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* clock_ticks of a clock known to be the TSC (c->tsc, x86-64): no test;
 * elsewhere CLOCK_MONOTONIC's, which such a caller never reads. */
static inline uint64_t clock_tsc_ticks(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#else
	return clock_mono_ns();
#endif
}

static inline uint64_t clock_ticks(const struct clock *c)
{
#if defined(__x86_64__)
	if (c->tsc)
		return clock_tsc_ticks();
#endif
	(void)c;
	return clock_mono_ns();
}

/*
 * No test of c->tsc: without the TSC, mult is 1 << 32 (clock_init) and
 * the product shifted back is d itself, so one path serves both clocks
 * (two instructions fewer per conversion in the I/O loop).
 */
static inline uint64_t clock_delta_ns(const struct clock *c, uint64_t from,
				      uint64_t to)
{
	uint64_t d = to > from ? to - from : 0;

	return (uint64_t)(((unsigned __int128)d * c->mult) >> 32);
}

/* clock_delta_ns where to >= from is known (the caller clamped). */
static inline uint64_t clock_span_ns(const struct clock *c, uint64_t from,
				     uint64_t to)
{
	return (uint64_t)(((unsigned __int128)(to - from) * c->mult) >> 32);
}

/*
 * The inverse of clock_delta_ns, for deadlines in ticks: rounded up, so
 * that clock_delta_ns of a span of that many ticks is at least ns (a
 * 400 ms job stopped at its deadline's tick reported 399999999 ns when
 * this rounded down).
 */
static inline uint64_t clock_ns_to_ticks(const struct clock *c, uint64_t ns)
{
	if (!c->tsc)
		return ns;
	return (uint64_t)((((unsigned __int128)ns << 32) + c->mult - 1) /
			  c->mult);
}

#endif
