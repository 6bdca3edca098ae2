/* SPDX-License-Identifier: MIT */
/* What the cmocka unit tests share. Include after <cmocka.h>. */
#ifndef IORIG_TEST_UNIT_H
#define IORIG_TEST_UNIT_H

#include <math.h>
#include <stdbool.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A table case's assertion that says which case failed, and why. */
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			print_error(__VA_ARGS__);			\
			print_error("\n");				\
			fail();						\
		}							\
	} while (0)

/* a and b agree within rel of b's size (of 1 for |b| below 1). */
static inline bool near_tol(double a, double b, double rel)
{
	return fabs(a - b) <= rel * (fabs(b) > 1 ? fabs(b) : 1);
}

#endif
