/* SPDX-License-Identifier: MIT */
/*
 * clock.h's tick conversions: a deadline of ns nanoseconds, made ticks by
 * clock_ns_to_ticks, is never reported shorter than ns by clock_delta_ns
 * (a time_based job stopped at its deadline's own tick once reported
 * 399999999 ns for runtime=400ms), and at most one nanosecond longer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
