// SPDX-License-Identifier: MIT
/* progress.c: when the status line shows, and what it says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "progress.h"

#define S	1000000000ull

static void test_mode_parse(void **state)
{
	static const struct {
		const char *s;
		int ret;
		enum progress_mode m;
	} cases[] = {
		{ "auto", 0, PROGRESS_AUTO },
		{ "always", 0, PROGRESS_ALWAYS },
		{ "never", 0, PROGRESS_NEVER },
		{ "", -1, 0 }, { "Auto", -1, 0 }, { "yes", -1, 0 },
		{ "1", -1, 0 }, { "always ", -1, 0 }, { NULL, -1, 0 },
	};
	enum progress_mode m;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m = PROGRESS_NEVER;
		if (cases[i].ret) {
			assert_int_not_equal(progress_mode_parse(cases[i].s, &m),
					     0);
		} else {
			assert_int_equal(progress_mode_parse(cases[i].s, &m), 0);
			assert_int_equal(m, cases[i].m);
		}
	}
}

static void test_wanted(void **state)
{
	static const struct {
		enum progress_mode m;
		bool tty;
		const char *term;
		bool want;
	} cases[] = {
		{ PROGRESS_AUTO, true, "xterm", true },
		{ PROGRESS_AUTO, true, "dumb", false },
		{ PROGRESS_AUTO, true, "", false },
		{ PROGRESS_AUTO, true, NULL, false },
		{ PROGRESS_AUTO, false, "xterm", false },
		{ PROGRESS_ALWAYS, false, NULL, true },
		{ PROGRESS_ALWAYS, true, "dumb", true },
		{ PROGRESS_NEVER, true, "xterm", false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(progress_wanted(cases[i].m, cases[i].tty,
						 cases[i].term),
				 cases[i].want);
}

static void test_format(void **state)
{
	struct progress_snap prev = { .now_ns = 4 * S };
	struct progress_snap cur = {
		.now_ns = 5 * S, .elapsed_ns = 5 * S + 400000000,
		.remaining_ns = 24 * S + 700000000, .running = 2,
		.ios = { 120000, 0 }, .bytes = { 120000 * 4096ull, 0 },
	};
	char buf[160];

	progress_format(buf, sizeof(buf), &cur, &prev);
	assert_string_equal(buf, "[0:05/0:31] 2 jobs  r 120k IOPS 469MiB/s"
			    "  w 0");
	/* Rates are over the time since prev; "?" for an unknown total. */
	prev.ios[0] = 60000;
	prev.bytes[0] = 60000 * 4096ull;
	prev.now_ns = 3 * S;
	cur.remaining_ns = PROGRESS_UNKNOWN;
	cur.running = 1;
	cur.ios[1] = 1234;
	cur.bytes[1] = 1234 * 1048576ull;
	cur.elapsed_ns = 3725 * S;
	progress_format(buf, sizeof(buf), &cur, &prev);
	assert_string_equal(buf, "[1:02:05/?] 1 job  r 30.0k IOPS 117MiB/s"
			    "  w 617 IOPS 617MiB/s");
	/* Never longer than the buffer. */
	assert_int_equal(progress_format(buf, 12, &cur, &prev), 11);
	assert_int_equal(strlen(buf), 11);
}

/* On a terminal the line is rewritten and cleared; elsewhere, lines. */
static void test_show(void **state)
{
	struct progress_snap s = { .now_ns = 2 * S, .elapsed_ns = 2 * S,
				   .remaining_ns = 0, .running = 1 };
	struct progress p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	progress_init(&p, f, true, "xterm", S);
	assert_false(progress_due(&p, S + S / 2));
	assert_true(progress_due(&p, 2 * S));
	progress_show(&p, &s);
	assert_false(progress_due(&p, 2 * S + S / 2));
	progress_clear(&p);
	progress_clear(&p);	/* nothing left to clear */
	fflush(f);
	assert_string_equal(text, "\r[0:02/0:02] 1 job  r 0  w 0\033[K"
			    "\r\033[K");
	fclose(f);
	free(text);

	f = open_memstream(&text, &len);
	assert_non_null(f);
	progress_init(&p, f, false, "xterm", S);
	progress_show(&p, &s);
	progress_clear(&p);
	fflush(f);
	assert_string_equal(text, "[0:02/0:02] 1 job  r 0  w 0\n");
	fclose(f);
	free(text);
}

/*
 * fio's --eta-interval (the period) and --eta-newline (on a terminal, a
 * line left standing every so often).
 */
static void test_periods(void **state)
{
	struct progress_snap s = { .now_ns = S + S / 4, .elapsed_ns = S / 4,
				   .remaining_ns = 0, .running = 1 };
	struct progress p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	progress_init(&p, f, true, "xterm", S);
	progress_periods(&p, S / 4, S / 2);
	assert_false(progress_due(&p, S + S / 8));
	assert_true(progress_due(&p, S + S / 4));
	progress_show(&p, &s);		/* 0.25 s: rewritten in place */
	assert_true(progress_due(&p, S + S / 2));
	s.now_ns = S + S / 2;
	progress_show(&p, &s);		/* 0.5 s: the last one stays */
	fflush(f);
	assert_string_equal(text, "\r[0:00/0:01] 1 job  r 0  w 0\033[K"
			    "\n\r[0:00/0:01] 1 job  r 0  w 0\033[K");
	fclose(f);
	free(text);

	/* 0: the default period, no kept lines. */
	progress_init(&p, stderr, true, "xterm", S);
	progress_periods(&p, 0, 0);
	assert_false(progress_due(&p, S + S / 2));
	assert_true(progress_due(&p, 2 * S));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_parse),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_show),
		cmocka_unit_test(test_periods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
