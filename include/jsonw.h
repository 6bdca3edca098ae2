/* SPDX-License-Identifier: MIT */
#ifndef IORIG_JSONW_H
#define IORIG_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/*
 * Building a JSON document with jansson without a branch per allocation:
 * every writer (the report, fio's layout, the --stream lines) records in
 * one flag whether anything failed and checks it once at the end.
 *
 * A value too large to build as a tree (a merge's histograms) may be
 * deferred (jw_defer): the tree holds an empty array in its place and
 * jw_dump_array_at calls its writer when the array's turn comes. defer
 * says whether the writers of the document being built may defer.
 */
struct jw_later;
struct jw {
	int failed;
	bool defer;
	struct jw_later *later;	/* the deferred values, in a stack */
	size_t nlater, later_cap;
};

/*
 * A buffered output that prints as jansson's json_dumps with
 * JSON_INDENT(2) | JSON_REAL_PRECISION(12) does, byte for byte (jw_dump's
 * layout), without a tree or a string of the whole: what a deferred
 * value's writer writes with.
 */
struct jw_out;
/* Writes the value at depth (root's members are at depth 1), its first
 * byte where the cursor is; returns 0 or -errno. */
typedef int jw_later_fn(struct jw_out *o, unsigned depth, void *arg);

/* An empty array standing for the value fn(o, depth, arg) writes; arg
 * must live until the document is printed. NULL: out of memory. */
json_t *jw_defer(struct jw *c, jw_later_fn *fn, void *arg);
/* The deferred values of c forgotten, its stack freed. */
void jw_release(struct jw *c);

void jw_out_raw(struct jw_out *o, const char *s, size_t n);
/* A newline and depth steps of indentation. */
void jw_out_indent(struct jw_out *o, unsigned depth);
/* An unsigned count as jw_u64 prints it (clamped to INT64_MAX). */
void jw_out_u64(struct jw_out *o, uint64_t v);
/*
 * One element of an array of arrays of counts whose array is at depth:
 * "[" when first, else ",", then the array of v[0..n) on its own lines,
 * as jw_out_value prints it; the caller closes the outer array.
 */
void jw_out_counts(struct jw_out *o, unsigned depth, bool first,
		   const uint64_t *v, unsigned n);
/* v printed at depth, its deferred values written by their writers. */
int jw_out_value(struct jw_out *o, const json_t *v, unsigned depth);
/*
 * An array of n elements at depth, each made by make(arg, i) (a new
 * reference; NULL: out of memory), printed as jw_out_value prints it and
 * freed, with the values it deferred, before the next is made: the one
 * loop of jw_dump_array_at's array and of a deferred writer's. 0 or
 * -errno.
 */
int jw_out_array(struct jw_out *o, unsigned depth, size_t n,
		 json_t *(*make)(void *arg, size_t i), void *arg);

/* obj[key] = v (v is taken); a NULL v or a failure sets c->failed. */
void jw_put(struct jw *c, json_t *obj, const char *key, json_t *v);
/* arr += v, the same way. */
void jw_push(struct jw *c, json_t *arr, json_t *v);

/* An unsigned count: json_int_t is signed, so clamped to INT64_MAX. */
json_t *jw_u64(uint64_t v);
/* A real; NaN and infinities (never meant) become 0.0. */
json_t *jw_real(double v);
/*
 * A string; NULL is "". JSON strings must be UTF-8 and names and paths
 * need not be: the bytes above ASCII of an invalid one become '?'.
 */
json_t *jw_str(const char *s);

/* The document as every writer prints it: indented, reals to 12 digits,
 * a final newline, flushed. Returns 0 or -EIO. */
int jw_dump(FILE *f, const json_t *root);

/*
 * A document too large to hold whole (a merge's members): root with a
 * mark (jw_mark) as the value of key, printed as jw_dump prints it but
 * with an array of n elements in the mark's place, each made by
 * make(arg, i) (a new reference, NULL: out of memory), printed at the
 * array's depth and freed before the next is made, and each deferred
 * value (jw_defer, on c; c may be NULL) written by its writer in its
 * place: the same bytes as jw_dump of the whole document. key names one
 * member of the document whose value is the mark. Returns 0, -ENOMEM or
 * -EIO.
 */
json_t *jw_mark(void);
int jw_dump_array_at(FILE *f, struct jw *c, const json_t *root,
		     const char *key, json_t *(*make)(void *arg, size_t i),
		     void *arg, size_t n);

#endif
