// SPDX-License-Identifier: MIT
/* SCSI sense data in words (sgdev.h): both formats SPC defines, and
 * sense buffers too short or of no format, which name nothing. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sgdev.h"

static void test_formats(void **state)
{
	/* fixed format (0x70 current, 0x71 deferred; bit 7: VALID) */
	static const uint8_t fixed[18] = { 0xf0, 0, 0x03, 0, 0, 0, 0, 10,
					   0, 0, 0, 0, 0x11, 0x00 };
	static const uint8_t deferred[18] = { 0x71, 0, 0x0e, 0, 0, 0, 0, 10,
					      0, 0, 0, 0, 0x1d, 0x00 };
	/* descriptor format (0x72, 0x73) */
	static const uint8_t desc[8] = { 0x72, 0x05, 0x20, 0x00 };
	unsigned k, a, q;

	(void)state;
	assert_int_equal(sgdev_sense(fixed, sizeof(fixed), &k, &a, &q), 0);
	assert_int_equal(k, 3);
	assert_int_equal(a, 0x11);
	assert_int_equal(q, 0);
	assert_int_equal(sgdev_sense(deferred, sizeof(deferred), &k, &a, &q),
			 0);
	assert_int_equal(k, 0xe);
	assert_int_equal(a, 0x1d);
	assert_int_equal(sgdev_sense(desc, sizeof(desc), &k, &a, &q), 0);
	assert_int_equal(k, 5);
	assert_int_equal(a, 0x20);
	assert_int_equal(q, 0);
}

static void test_no_sense(void **state)
{
	static const uint8_t fixed[18] = { 0x70, 0, 0x03 };
	static const uint8_t other[18] = { 0x7f, 0, 0x03 };
	unsigned k, a, q;

	(void)state;
	assert_int_equal(sgdev_sense(fixed, 0, &k, &a, &q), -EINVAL);
	/* a fixed sense shorter than its ASC/ASCQ */
	assert_int_equal(sgdev_sense(fixed, 13, &k, &a, &q), -EINVAL);
	assert_int_equal(sgdev_sense(other, sizeof(other), &k, &a, &q),
			 -EINVAL);
}

static void test_text(void **state)
{
	char b[160];

	(void)state;
	sgdev_sense_text(b, sizeof(b), 3, 0x11, 0);
	assert_string_equal(b, "SCSI sense: MEDIUM ERROR (key 0x3), ASC/ASCQ "
			    "0x11/0x00: unrecovered read error");
	/* a code without words: the numbers alone */
	sgdev_sense_text(b, sizeof(b), 4, 0x44, 0x71);
	assert_string_equal(b, "SCSI sense: HARDWARE ERROR (key 0x4), "
			    "ASC/ASCQ 0x44/0x71");
	/* a short buffer is cut, never overrun */
	memset(b, 'x', sizeof(b));
	sgdev_sense_text(b, 12, 5, 0x24, 0);
	assert_int_equal(strlen(b), 11);
	assert_int_equal(b[12], 'x');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_no_sense),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
