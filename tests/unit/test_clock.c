/* SPDX-License-Identifier: MIT */
/*
 * clock.h's tick conversions: a deadline of ns nanoseconds, made ticks by
 * clock_ns_to_ticks, is never reported shorter than ns by clock_delta_ns
 * (a time_based job stopped at its deadline's own tick once reported
 * 399999999 ns for runtime=400ms), and at most one nanosecond longer.
 * The calibration: from clock_mark()'s pair, clock_init() sleeps only for
 * what is left of its 20 ms (none when they have passed), and ticks then
 * measure CLOCK_MONOTONIC's time to 500 ppm (100 ppm is the aim on a
 * quiet machine; this runs beside other tests).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "clock.h"

static void check(uint64_t mult, uint64_t ns)
{
	struct clock c = { .tsc = true, .mult = mult };
	uint64_t t0 = 123456789, ticks = clock_ns_to_ticks(&c, ns);
	uint64_t back = clock_delta_ns(&c, t0, t0 + ticks);

	if (back < ns || back > ns + 1)
		fail_msg("mult %llu, %llu ns: %llu ticks give %llu ns",
			 (unsigned long long)mult, (unsigned long long)ns,
			 (unsigned long long)ticks, (unsigned long long)back);
	/* one tick less is short of the deadline */
	if (ticks && clock_delta_ns(&c, t0, t0 + ticks - 1) >= ns)
		fail_msg("mult %llu, %llu ns: %llu ticks are not the fewest",
			 (unsigned long long)mult, (unsigned long long)ns,
			 (unsigned long long)ticks);
}

static void test_deadline_round_trip(void **state)
{
	/* ns per tick of TSCs from 1 to 4 GHz, and odd calibrations */
	static const double per_tick[] = { 1.0, 0.5, 0.4, 1 / 2.6, 1 / 2.9,
					   0.3, 0.25, 1 / 3.7 };
	uint64_t ns, k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(per_tick) / sizeof(per_tick[0]); i++) {
		uint64_t mult = (uint64_t)(per_tick[i] * 4294967296.0);

		for (k = 0; k < 3; k++) {
			check(mult + k, 400000000);
			check(mult + k, 150000000);
			check(mult + k, 1);
			for (ns = 999999000; ns < 1000001000; ns += 7)
				check(mult + k, ns);
		}
	}
	/* CLOCK_MONOTONIC ticks are nanoseconds: mult 1 << 32, as
	 * clock_init sets it (the conversions do not test tsc) */
	{
		struct clock c = { .tsc = false, .mult = 1ull << 32 };

		assert_int_equal(clock_ns_to_ticks(&c, 400000000), 400000000);
		assert_int_equal(clock_delta_ns(&c, 5, 400000005), 400000000);
	}
}

static void nap_ms(long ms)
{
	struct timespec req = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&req, NULL);
}

/* ns and ticks of the same span: ticks converted within 500 ppm */
static void check_span(const struct clock *c, long ms)
{
	uint64_t n0 = clock_mono_ns(), t0 = clock_ticks(c), n1, t1, d, got;

	nap_ms(ms);
	t1 = clock_ticks(c);
	n1 = clock_mono_ns();
	d = n1 - n0;
	got = clock_delta_ns(c, t0, t1);
	if (got > d + d / 2000 + 2000 || got + d / 2000 + 2000 < d)
		fail_msg("%llu ns of CLOCK_MONOTONIC measured %llu ns in ticks",
			 (unsigned long long)d, (unsigned long long)got);
}

static void test_calibration(void **state)
{
	struct clock c;
	uint64_t a, b;

	(void)state;
	/* the mark 30 ms ago: no sleep left */
	clock_mark();
	nap_ms(30);
	a = clock_mono_ns();
	clock_init(&c, true);
	b = clock_mono_ns();
	if (b - a > 10000000)
		fail_msg("clock_init slept %llu ns after 30 ms had passed",
			 (unsigned long long)(b - a));
	check_span(&c, 100);
	/* the mark 5 ms ago: the calibration still spans 20 ms */
	clock_mark();
	a = clock_mono_ns();
	nap_ms(5);
	clock_init(&c, true);
	b = clock_mono_ns();
	if (c.tsc && b - a < 19000000)
		fail_msg("the calibration spanned %llu ns, not 20 ms",
			 (unsigned long long)(b - a));
	check_span(&c, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_round_trip),
		cmocka_unit_test(test_calibration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
