/* SPDX-License-Identifier: MIT */
#ifndef IORIG_RESJSON_H
#define IORIG_RESJSON_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

/*
 * Numbers read back from iorig's JSON result documents, by the tools that
 * take them as input (iorig plot, the HTML report, iorig merge, --baseline).
 * A value is a number when it is a JSON integer or real (jansson holds no
 * infinity or NaN); anything else at the key (a string, null, an object),
 * no key at all, or an object that is not one, is "absent". Readers
 * differ in what an absent number means, and say so by the call they make:
 * - resjson_get: found or not; the HTML report leaves the cell empty (or
 *   writes n/a) rather than print 0 for a figure that is not there, a
 *   baseline without the figure compares nothing (-ENOENT);
 * - resjson_num, resjson_val: 0 when absent; plots and the merge's sums
 *   count a missing figure as none;
 * - resjson_u64: a count, 0 unless a positive JSON integer (the merge's
 *   integer sums; hostile input makes no negative count).
 */

/* o[key] in *out and true; false (and *out unchanged) when absent. */
bool resjson_get(const json_t *o, const char *key, double *out);

/* o[key], 0 when absent. */
double resjson_num(const json_t *o, const char *key);

/* v itself (an array element, a value already looked up), 0 when v is
 * not a number. */
double resjson_val(const json_t *v);

/* v as a count: 0 unless a positive integer. */
uint64_t resjson_u64(const json_t *v);

#endif
