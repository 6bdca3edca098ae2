// SPDX-License-Identifier: MIT
/* depth.c's linger trial, driven with made-up times: a device that
 * completes in bursts further apart than the trial's epochs, ones that
 * complete faster while the waits linger (for part or for all best), one
 * that does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "unit.h"

#include "engine.h"
#include "../../src/worker/depth.h"

#define MS 1000000ull

/* The next look at the clock after one at t (ns), the waits lingering
 * as on says (engine.h: 0, REAP_LINGER_PART, REAP_LINGER_ALL): 32
 * completions later on the device modelled. */
typedef uint64_t (*next_fn)(uint64_t t, unsigned on);

/* Every 100 ms, 50 ms without a completion, then 50 ms of them (a look
 * each millisecond): as a blk-throttled device gives out its slices. */
static uint64_t bursty(uint64_t t, unsigned on)
{
	uint64_t in = t % (100 * MS);

	(void)on;
	if (in + MS < 50 * MS)
		return t - in + 50 * MS;
	return in + MS < 100 * MS ? t + MS : t - in + 150 * MS;
}

/* A look each millisecond, twice as often while the waits linger. */
static uint64_t gains(uint64_t t, unsigned on)
{
	return t + (on ? MS / 2 : MS);
}

/* Lingering for all pays most (one CPU: the completer waits for the
 * CPU the waiter gives up), or lingering for part does (the completer on a CPU of
 * its own, kept fed). */
static uint64_t all_pays(uint64_t t, unsigned on)
{
	return t + (on == REAP_LINGER_ALL ? MS / 2 : on ? MS * 4 / 5 : MS);
}

static uint64_t part_pays(uint64_t t, unsigned on)
{
	return t + (on == REAP_LINGER_PART ? MS / 2 : on ? MS * 4 / 5 : MS);
}

static uint64_t flat(uint64_t t, unsigned on)
{
	(void)on;
	return t + MS;
}

/* A completer on a CPU of its own, kept fed only by a waiter that
 * returns at once: any lingering is slower, one for part the most. */
static uint64_t fed(uint64_t t, unsigned on)
{
	return t + (on == REAP_LINGER_PART ? 2 * MS : on ? MS * 3 / 2 : MS);
}

struct sim {
	struct wdepth dp;
	uint64_t on_ns, all_ns;
	unsigned held;	/* looks where the choice kept was to linger */
	unsigned all;	/* looks where the waits lingered for all */
	unsigned part;	/* looks where the waits lingered for part */
	unsigned on;	/* how the waits linger at the end */
};

/* The trial at QD4 (a look every 32 completions) for secs seconds. */
static void run(struct sim *m, next_fn next, unsigned secs)
{
	uint64_t t = 0;
	unsigned on = 0;

	memset(m, 0, sizeof(*m));
	depth_trial_start(&m->dp, 4, t);
	assert_int_equal(m->dp.check, 32);
	while (t < secs * 1000 * MS) {
		uint64_t u = next(t, on);

		m->all_ns += u - t;
		if (on)
			m->on_ns += u - t;
		t = u;
		m->dp.left -= 32;
		assert_true(m->dp.left <= 0);
		on = depth_trial(&m->dp, on, t, t - m->dp.since,
				 t - m->dp.last);
		m->held += m->dp.held;
		m->all += on == REAP_LINGER_ALL;
		m->part += on == REAP_LINGER_PART;
	}
	m->on = on;
}

static void test_bursty(void **state)
{
	struct sim m;

	(void)state;
	run(&m, bursty, 10);
	/* each trial's epochs were shorter than the rhythm: never kept */
	CHECK(m.held == 0, "bursty: lingering kept for %u looks", m.held);
	CHECK(m.dp.epoch > 16 * MS, "bursty: epochs still %llu ns",
	      (unsigned long long)m.dp.epoch);
	CHECK(m.on_ns * 4 < m.all_ns, "bursty: lingered %.3f of the run",
	      (double)m.on_ns / (double)m.all_ns);
}

static void test_gains(void **state)
{
	struct sim m;

	(void)state;
	run(&m, gains, 10);
	assert_true(m.dp.held);
	/* for part and for all alike: part, the depth less lowered */
	assert_int_equal(m.on, REAP_LINGER_PART);
	/* found again and again: its holds doubled (1, 2, 4 s...) */
	CHECK(m.dp.hold >= 4000 * MS, "gains: hold %llu ns",
	      (unsigned long long)m.dp.hold);
	CHECK(m.on_ns * 100 > m.all_ns * 95, "gains: lingered %.3f of the run",
	      (double)m.on_ns / (double)m.all_ns);
	assert_int_equal(m.dp.epoch, 16 * MS);
}

static void test_which(void **state)
{
	struct sim m;

	(void)state;
	run(&m, all_pays, 5);
	assert_int_equal(m.on, REAP_LINGER_ALL);
	CHECK(m.on_ns * 100 > m.all_ns * 95, "all: lingered %.3f of the run",
	      (double)m.on_ns / (double)m.all_ns);
	run(&m, part_pays, 5);
	assert_int_equal(m.on, REAP_LINGER_PART);
}

/* Where not lingering beats either way, it is never kept. */
static void test_fed(void **state)
{
	struct sim m;

	(void)state;
	run(&m, fed, 10);
	CHECK(m.held == 0, "fed: lingering kept for %u looks", m.held);
	CHECK(m.all > 0, "fed: the trials never lingered for all");
}

/* Epochs mostly gaps (a throttled device's bursts): never waits for
 * all, which would drain its queue in every trial, and for part only
 * until the first epoch found a gap (its first trial's, then none: the
 * epochs grew). */
static void test_bursty_all(void **state)
{
	struct sim m;

	(void)state;
	run(&m, bursty, 10);
	CHECK(m.all == 0, "bursty: lingered for all in %u looks", m.all);
	CHECK(m.part <= 32, "bursty: lingered for part in %u looks", m.part);
}

static void test_flat(void **state)
{
	struct sim m;

	(void)state;
	run(&m, flat, 10);
	CHECK(m.held == 0, "flat: lingering kept for %u looks", m.held);
	assert_int_equal(m.dp.epoch, 16 * MS);
	/* the trials' four epochs with lingering, 64 ms of each 1.096 s */
	CHECK(m.on_ns * 10 < m.all_ns, "flat: lingered %.3f of the run",
	      (double)m.on_ns / (double)m.all_ns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bursty),
		cmocka_unit_test(test_gains),
		cmocka_unit_test(test_which),
		cmocka_unit_test(test_fed),
		cmocka_unit_test(test_bursty_all),
		cmocka_unit_test(test_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
