/* SPDX-License-Identifier: MIT */
#ifndef IORIG_REPORT_JDOM_H
#define IORIG_REPORT_JDOM_H

/*
 * The reader's JSON tree (json_read.c): a saved result parsed once into
 * one array of nodes and one array of child pointers, read only, freed
 * at once. jansson builds a hash table and a few allocations per value,
 * which made reading a 300 KB result cost milliseconds and a merge of a
 * thousand members seconds; this tree is built in one pass over a copy
 * of the text (strings unescaped in place).
 *
 * The values are jansson's (json_loadb with JSON_REJECT_DUPLICATES): the
 * fast parser takes a strict subset of JSON (ASCII strings without \u
 * escapes, numbers in range, unique keys, one object at the top) and
 * gives up on anything else, and the document is then read by jansson,
 * whose tree is taken over as it is (jd_from_jansson) or whose error is
 * the document's. So a document means the same as it did, and a bad one
 * is refused with jansson's words.
 *
 * The accessors take NULL or a node of another type as jansson's do:
 * false, 0, NULL, an empty array. An object's members and an array's
 * elements keep the document's order; jd_object_get looks a key up from
 * where the last lookup in that object ended, so a reader that asks for
 * the keys in the writer's order finds each at once.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct json_t;

enum jd_type {
	JD_OBJECT = 1, JD_ARRAY, JD_STRING, JD_INTEGER, JD_REAL, JD_TRUE,
	JD_FALSE, JD_NULL
};

struct jd {
	uint8_t type;		/* enum jd_type */
	uint32_t n;		/* members or elements */
	uint32_t hint;		/* an object's next lookup starts here */
	const char *key;	/* a member's name, else NULL */
	union {
		int64_t i;
		double r;
		const char *s;
		struct jd **kids;	/* n of them */
	} v;
};

struct jd_doc {
	struct jd *root;
	struct jd *nodes;
	struct jd **kids;
	char *text;		/* the parsed copy, or NULL */
	struct json_t *jroot;	/* jansson's tree taken over, or NULL */
};

/*
 * text[len] into d (its root an object or an array, as json_loadb
 * takes). 0; -EINVAL with why (jansson's error, "line L, column C:
 * text") when it is no JSON document; -ENOMEM.
 */
int jd_load(struct jd_doc *d, const char *text, size_t len, char *why,
	    size_t whylen);
/* jansson's tree root (kept by the caller while d lives) as d: 0 or
 * -ENOMEM. */
int jd_from_jansson(struct jd_doc *d, const struct json_t *root);
void jd_free(struct jd_doc *d);

static inline bool jd_is(const struct jd *x, enum jd_type t)
{
	return x && x->type == t;
}

#define jd_is_object(x)		jd_is((x), JD_OBJECT)
#define jd_is_array(x)		jd_is((x), JD_ARRAY)
#define jd_is_string(x)		jd_is((x), JD_STRING)
#define jd_is_integer(x)	jd_is((x), JD_INTEGER)
#define jd_is_real(x)		jd_is((x), JD_REAL)
#define jd_is_true(x)		jd_is((x), JD_TRUE)
#define jd_is_false(x)		jd_is((x), JD_FALSE)
#define jd_is_null(x)		jd_is((x), JD_NULL)

static inline bool jd_is_number(const struct jd *x)
{
	return jd_is_integer(x) || jd_is_real(x);
}

static inline bool jd_is_boolean(const struct jd *x)
{
	return jd_is_true(x) || jd_is_false(x);
}

static inline size_t jd_array_size(const struct jd *x)
{
	return jd_is_array(x) ? x->n : 0;
}

static inline const struct jd *jd_array_get(const struct jd *x, size_t i)
{
	return jd_is_array(x) && i < x->n ? x->v.kids[i] : NULL;
}

static inline int64_t jd_integer_value(const struct jd *x)
{
	return jd_is_integer(x) ? x->v.i : 0;
}

static inline double jd_number_value(const struct jd *x)
{
	return jd_is_integer(x) ? (double)x->v.i : jd_is_real(x) ? x->v.r :
	       0.0;
}

static inline const char *jd_string_value(const struct jd *x)
{
	return jd_is_string(x) ? x->v.s : NULL;
}

/* The value of key in object x, or NULL. */
static inline const struct jd *jd_object_get(const struct jd *x,
					     const char *key)
{
	struct jd *o = (struct jd *)x;	/* hint only */
	uint32_t i, k;

	if (!jd_is_object(x) || !x->n)
		return NULL;
	for (i = 0, k = o->hint; i < o->n; i++, k = k + 1 < o->n ? k + 1 : 0)
		if (!strcmp(o->v.kids[k]->key, key)) {
			o->hint = k + 1 < o->n ? k + 1 : 0;
			return o->v.kids[k];
		}
	return NULL;
}

/* for each element x of array a, i its index */
#define jd_array_foreach(a, i, x)					\
	for ((i) = 0; (i) < jd_array_size(a) &&				\
		      ((x) = jd_array_get((a), (i))); (i)++)

/* for each member of object o: k its key, x its value, i its index */
#define jd_object_foreach(o, i, k, x)					\
	for ((i) = 0; jd_is_object(o) && (i) < (o)->n &&		\
		      ((k) = (o)->v.kids[(i)]->key,			\
		       (x) = (o)->v.kids[(i)]); (i)++)

#endif
