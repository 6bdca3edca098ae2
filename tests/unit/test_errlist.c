// SPDX-License-Identifier: MIT
/* ignore_error= lists (errlist.h): fio's syntax, errno names from libc. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "errlist.h"

static void test_groups(void **state)
{
	struct errlist l;
	char why[256];

	(void)state;
	assert_int_equal(errlist_parse("EAGAIN,ENOSPC:122", &l, why,
				       sizeof(why)), 0);
	assert_int_equal(l.n[0], 1);
	assert_int_equal(l.err[0][0], EAGAIN);
	assert_int_equal(l.n[1], 2);
	assert_int_equal(l.err[1][0], ENOSPC);
	assert_int_equal(l.err[1][1], EDQUOT);
	assert_int_equal(l.n[2], 0);
	assert_true(errlist_has(&l, 1, EDQUOT));
	assert_false(errlist_has(&l, 0, ENOSPC));
	/* an empty group leaves its direction alone */
	assert_int_equal(errlist_parse(",EIO", &l, why, sizeof(why)), 0);
	assert_int_equal(l.n[0], 0);
	assert_int_equal(l.n[1], 1);
	assert_int_equal(l.err[1][0], EIO);
	/* numbers: hex, a minus dropped; other spellings of libc's names */
	assert_int_equal(errlist_parse("0x1c:-5,EWOULDBLOCK,EDEADLOCK", &l,
				       why, sizeof(why)), 0);
	assert_int_equal(l.err[0][0], 28);
	assert_int_equal(l.err[0][1], 5);
	assert_int_equal(l.err[1][0], EAGAIN);
	assert_int_equal(l.err[2][0], EDEADLK);
	assert_int_equal(errlist_parse("ETIMEDOUT", &l, why, sizeof(why)), 0);
	assert_int_equal(l.err[0][0], ETIMEDOUT);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"EFOO", "eio", "12x", "0", "0x", "EIO,EIO,EIO,EIO", "5000",
		"99999999999999999999", "EIO:-" };
	struct errlist l;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(errlist_parse(bad[i], &l, why, sizeof(why)),
				 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
