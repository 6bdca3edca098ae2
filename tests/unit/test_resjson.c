// SPDX-License-Identifier: MIT
/*
 * Unit tests for resjson.c: what counts as a number in a result document,
 * and the two rules for one that is absent (found flag, or 0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "resjson.h"

static void test_resjson(void **state)
{
	json_error_t e;
	json_t *o = json_loads("{\"i\": 7, \"r\": 2.5, \"neg\": -3, "
			       "\"zero\": 0, \"s\": \"9\", \"n\": null, "
			       "\"o\": {\"x\": 1}, \"a\": [4, \"x\"]}", 0,
			       &e);
	double v = -1;

	(void)state;
	assert_non_null(o);
	/* Found: integers and reals, 0 too. */
	assert_true(resjson_get(o, "i", &v));
	assert_true(v == 7);
	assert_true(resjson_get(o, "r", &v));
	assert_true(v == 2.5);
	assert_true(resjson_get(o, "zero", &v));
	assert_true(v == 0);
	/* Absent: no key, a string, null, an object; *out untouched. */
	v = -1;
	assert_false(resjson_get(o, "missing", &v));
	assert_false(resjson_get(o, "s", &v));
	assert_false(resjson_get(o, "n", &v));
	assert_false(resjson_get(o, "o", &v));
	assert_false(resjson_get(NULL, "i", &v));
	assert_false(resjson_get(json_object_get(o, "a"), "i", &v));
	assert_true(v == -1);
	/* 0 when absent. */
	assert_true(resjson_num(o, "r") == 2.5);
	assert_true(resjson_num(o, "neg") == -3);
	assert_true(resjson_num(o, "s") == 0);
	assert_true(resjson_num(o, "missing") == 0);
	assert_true(resjson_num(NULL, "i") == 0);
	assert_true(resjson_val(json_array_get(json_object_get(o, "a"), 0))
		    == 4);
	assert_true(resjson_val(json_array_get(json_object_get(o, "a"), 1))
		    == 0);
	assert_true(resjson_val(NULL) == 0);
	/* Counts: positive integers only. */
	assert_int_equal(resjson_u64(json_object_get(o, "i")), 7);
	assert_int_equal(resjson_u64(json_object_get(o, "neg")), 0);
	assert_int_equal(resjson_u64(json_object_get(o, "r")), 0);
	assert_int_equal(resjson_u64(json_object_get(o, "s")), 0);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resjson),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
