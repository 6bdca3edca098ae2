/* SPDX-License-Identifier: MIT */
#ifndef IORIG_JSONW_H
#define IORIG_JSONW_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/*
 * Building a JSON document with jansson without a branch per allocation:
 * every writer (the report, fio's layout, the --stream lines) records in
 * one flag whether anything failed and checks it once at the end.
 */
struct jw {
	int failed;
};

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
 * array's depth (root's members are at depth 1) and freed before the
 * next is made: the same bytes as jw_dump of the whole document. key
 * names one member of the document whose value is the mark. Returns 0,
 * -ENOMEM or -EIO.
 */
json_t *jw_mark(void);
int jw_dump_array_at(FILE *f, const json_t *root, const char *key,
		     unsigned depth, json_t *(*make)(void *arg, size_t i),
		     void *arg, size_t n);

#endif
