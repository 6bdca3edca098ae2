/* SPDX-License-Identifier: MIT */
/*
 * What the report writers' unit tests share: render a run_result with a
 * writer and read the JSON back, with getters that fail the test on a
 * missing key or a wrong type. Include after <cmocka.h>.
 */
#ifndef IORIG_TEST_UNIT_JSON_H
#define IORIG_TEST_UNIT_JSON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report.h"

typedef int (*unit_writer)(FILE *, const struct run_result *);

/* What writer fn prints for r (malloc'd). */
static inline char *render(unit_writer fn, const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

/* The one JSON object, ending in a newline, that fn prints for r. */
static inline json_t *render_json_with(unit_writer fn,
				       const struct run_result *r)
{
	char *buf = render(fn, r);
	size_t len = strlen(buf);
	json_error_t err;
	json_t *root;

	assert_true(len > 0);
	assert_int_equal(buf[len - 1], '\n');
	root = json_loads(buf, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		fail_msg("bad JSON at line %d: %s\n%s", err.line, err.text,
			 buf);
	free(buf);
	assert_true(json_is_object(root));
	return root;
}

static inline json_t *get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("missing key \"%s\"", key);
	return v;
}

static inline json_int_t get_int(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	if (!json_is_integer(v))
		fail_msg("\"%s\" is not an integer", key);
	return json_integer_value(v);
}

/* An integer or a real. */
static inline double get_num(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	if (!json_is_number(v))
		fail_msg("\"%s\" is not a number", key);
	return json_number_value(v);
}

/* A real, written with a fraction. */
static inline double get_real(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	if (!json_is_real(v))
		fail_msg("\"%s\" is not a real", key);
	return json_real_value(v);
}

static inline const char *get_str(json_t *o, const char *key)
{
	json_t *v = get(o, key);

	if (!json_is_string(v))
		fail_msg("\"%s\" is not a string", key);
	return json_string_value(v);
}

static inline void assert_near(double a, double b)
{
	if (fabs(a - b) > 1e-9 * fmax(1.0, fabs(b)))
		fail_msg("%.17g != %.17g", a, b);
}

#endif
