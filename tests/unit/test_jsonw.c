// SPDX-License-Identifier: MIT
/*
 * The printer of jsonw.c (jw_dump_array_at, jw_out_*, jw_defer) against
 * jansson's own json_dumps with JSON_INDENT(2) | JSON_REAL_PRECISION(12),
 * the layout every writer promised before the printer was iorig's:
 * the same bytes for documents of every kind of value (escapes, the
 * extremes of integers and reals, empty and deep containers), for random
 * documents, for the array made element by element in a mark's place and
 * for values deferred to a writer.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "jsonw.h"

#define FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/* jansson's bytes of v, with the newline jw_dump adds. */
static char *jansson_text(const json_t *v)
{
	char *s = json_dumps(v, FLAGS), *t;

	assert_non_null(s);
	t = malloc(strlen(s) + 2);
	assert_non_null(t);
	strcpy(t, s);
	strcat(t, "\n");
	free(s);
	return t;
}

struct elems {
	json_t *arr;		/* whose elements make() returns */
	struct jw *c;
};

static json_t *elem_make(void *arg, size_t i)
{
	struct elems *e = arg;

	return json_incref(json_array_get(e->arr, i));
}

/* The printer's bytes of root, whose value at key is the mark, with the
 * elements of arr in its place. */
static char *printer_text(struct jw *c, const json_t *root, const char *key,
			  json_t *arr)
{
	struct elems e = { arr, c };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(jw_dump_array_at(f, c, root, key, elem_make, &e,
					  json_array_size(arr)), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* doc printed by both, as the value of "doc" beside an array of elems
 * in a mark's place. */
static void same(json_t *doc, json_t *elems)
{
	json_t *whole = json_object(), *marked = json_object();
	char *a, *b;

	assert_int_equal(json_object_set(whole, "doc", doc), 0);
	assert_int_equal(json_object_set(whole, "m", elems), 0);
	assert_int_equal(json_object_set(marked, "doc", doc), 0);
	assert_int_equal(json_object_set_new(marked, "m", jw_mark()), 0);
	a = jansson_text(whole);
	b = printer_text(NULL, marked, "m", elems);
	assert_string_equal(b, a);
	free(a);
	free(b);
	json_decref(whole);
	json_decref(marked);
}

static void test_values(void **state)
{
	static const double reals[] = {
		0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3, 100.0, 1e21, 1e-7, 1e15,
		123456789012345.0, 999999999999.5, 1e300, -2.5e-300, 5e-324,
		1.7976931348623157e308, 4096.0, 2.5e-5, 12345678.9,
	};
	static const json_int_t ints[] = {
		0, 1, -1, 9, 10, 4096, INT64_MAX, INT64_MIN, -1000000007,
	};
	json_t *doc = json_object(), *a = json_array(), *o = json_object();
	char s[160];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		json_array_append_new(a, json_real(reals[i]));
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		json_array_append_new(a, json_integer(ints[i]));
	json_array_append_new(a, json_true());
	json_array_append_new(a, json_false());
	json_array_append_new(a, json_null());
	json_array_append_new(a, json_array());
	json_array_append_new(a, json_object());
	json_array_append_new(a, json_string(""));
	/* every control character, quotes, backslash, slash, DEL, UTF-8 */
	for (i = 1; i < 0x20; i++)
		s[i - 1] = (char)i;
	strcpy(s + 0x1f, "\"\\/\x7f plain \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_array_append_new(a, json_string(s));
	json_object_set_new(o, s, json_string("key with escapes"));
	json_object_set_new(o, "z", json_integer(1));
	json_object_set_new(o, "a", json_integer(2));	/* order kept */
	json_object_set_new(o, "empty", json_object());
	json_object_set_new(doc, "values", a);
	json_object_set_new(doc, "object", o);
	same(doc, a);
	json_decref(doc);
	doc = json_object();
	a = json_array();
	same(doc, a);		/* both empty */
	json_decref(doc);
	json_decref(a);
}

/* A chain of depth containers: indentation past the printer's spaces. */
static void test_deep(void **state)
{
	json_t *doc = json_integer(7), *t;
	unsigned i;

	(void)state;
	for (i = 0; i < 90; i++) {
		t = i % 2 ? json_array() : json_object();
		if (i % 2)
			json_array_append_new(t, doc);
		else
			json_object_set_new(t, "k", doc);
		doc = t;
	}
	same(doc, doc);
	json_decref(doc);
}

static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static json_t *random_value(unsigned depth)
{
	unsigned k = (unsigned)(rnd() % (depth > 5 ? 6 : 8)), n, i;
	char key[16];
	json_t *v;

	switch (k) {
	case 0:
		return json_integer((json_int_t)rnd() >> (rnd() % 64));
	case 1:
		return json_real(ldexp((double)(int64_t)rnd(),
				       (int)(rnd() % 200) - 120));
	case 2:
		return json_real((double)(rnd() % 100000) / 8);
	case 3:
		snprintf(key, sizeof(key), "s%c%u", (char)(rnd() % 0x7f + 1),
			 (unsigned)(rnd() % 1000));
		v = json_string(key);
		return v ? v : json_null();
	case 4:
		return json_boolean(rnd() % 2);
	case 5:
		return json_null();
	case 6:
		v = json_array();
		n = (unsigned)(rnd() % 6);
		for (i = 0; i < n; i++)
			json_array_append_new(v, random_value(depth + 1));
		return v;
	default:
		v = json_object();
		n = (unsigned)(rnd() % 6);
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "k%u", (unsigned)(rnd() % 50));
			json_object_set_new(v, key, random_value(depth + 1));
		}
		return v;
	}
}

static void test_random(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 300; i++) {
		json_t *doc = random_value(0), *elems = json_array();
		unsigned n = (unsigned)(rnd() % 4), k;

		for (k = 0; k < n; k++)
			json_array_append_new(elems, random_value(1));
		same(doc, elems);
		json_decref(doc);
		json_decref(elems);
	}
}

/* A deferred value writes itself where its empty array stands: here a
 * tree printed by jw_out_value, and a list of counts by jw_out_u64. */
static int tree_write(struct jw_out *o, unsigned depth, void *arg)
{
	return jw_out_value(o, arg, depth);
}

static int counts_write(struct jw_out *o, unsigned depth, void *arg)
{
	const uint64_t *v = arg;
	unsigned i;

	jw_out_raw(o, "[", 1);
	for (i = 0; i < 3; i++) {
		jw_out_indent(o, depth + 1);
		jw_out_u64(o, v[i]);
		if (i < 2)
			jw_out_raw(o, ",", 1);
	}
	jw_out_indent(o, depth);
	jw_out_raw(o, "]", 1);
	return 0;
}

/* jw_out_counts: rows of three counts, and one row too long for the
 * printer's buffer in one piece (printed piece by piece) */
#define BIG	3000

static uint64_t rows[2][3] = {
	{ 1000, 1023, 5 }, { 0, INT64_MAX, UINT64_MAX },
};
static uint64_t big[BIG];

static int rows_write(struct jw_out *o, unsigned depth, void *arg)
{
	(void)arg;
	jw_out_counts(o, depth, true, rows[0], 3);
	jw_out_counts(o, depth, false, rows[1], 3);
	jw_out_counts(o, depth, false, big, BIG);
	jw_out_indent(o, depth);
	jw_out_raw(o, "]", 1);
	return 0;
}

static json_t *rows_tree(void)
{
	json_t *a = json_array(), *r;
	unsigned i, k;

	for (i = 0; i < BIG; i++)
		big[i] = (uint64_t)i * 7919 * (i % 3 ? 1 : 1000003);
	for (i = 0; i < 3; i++) {
		r = json_array();
		for (k = 0; k < (i < 2 ? 3 : BIG); k++)
			json_array_append_new(r, jw_u64(i < 2 ? rows[i][k] :
							big[k]));
		json_array_append_new(a, r);
	}
	return a;
}

static void test_deferred(void **state)
{
	static const uint64_t counts[] = { 0, 12345678901ULL, UINT64_MAX };
	struct jw c = { 0 };
	json_t *tree = random_value(2), *whole = json_object(), *cs;
	json_t *marked = json_object(), *inner = json_object(), *d, *e;
	char *a, *b;
	unsigned i;

	(void)state;
	for (i = 0; i < 4 && !json_is_object(tree); i++) {
		json_decref(tree);
		tree = random_value(2);
	}
	cs = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(cs, jw_u64(counts[i]));
	/* the whole: {"x": {"t": tree, "c": counts, "e": []}, "m": []} */
	d = json_object();
	json_object_set(d, "t", tree);
	json_object_set_new(d, "c", cs);
	json_object_set_new(d, "e", json_array());
	json_object_set_new(d, "r", rows_tree());
	json_object_set_new(whole, "x", d);
	json_object_set_new(whole, "m", json_array());
	json_object_set_new(inner, "t", jw_defer(&c, tree_write, tree));
	json_object_set_new(inner, "c", jw_defer(&c, counts_write,
						 (void *)counts));
	json_object_set_new(inner, "e", json_array());	/* not deferred */
	json_object_set_new(inner, "r", jw_defer(&c, rows_write, NULL));
	json_object_set_new(marked, "x", inner);
	json_object_set_new(marked, "m", jw_mark());
	assert_false(c.failed);
	assert_int_equal(c.nlater, 3);
	a = jansson_text(whole);
	e = json_array();
	b = printer_text(&c, marked, "m", e);
	assert_string_equal(b, a);
	free(a);
	free(b);
	jw_release(&c);
	assert_int_equal(c.nlater, 0);
	json_decref(e);
	json_decref(tree);
	json_decref(whole);
	json_decref(marked);
}

/* Without the mark under its key the document is not what was asked. */
static void test_no_mark(void **state)
{
	json_t *root = json_object(), *e = json_array();
	struct elems el = { e, NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	json_object_set_new(root, "other", jw_mark());
	assert_int_equal(jw_dump_array_at(f, NULL, root, "m", elem_make, &el,
					  0), -EINVAL);
	fclose(f);
	free(buf);
	json_decref(root);
	json_decref(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_deep),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_deferred),
		cmocka_unit_test(test_no_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
