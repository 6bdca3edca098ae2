/* SPDX-License-Identifier: MIT */
#ifndef IORIG_DDIR_H
#define IORIG_DDIR_H

/* The direction of an I/O: what jobs, engines and statistics share. */
enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };

/* Names of the directions, as reports and JSON keys spell them. */
#define DDIR_NAMES	{ "read", "write", "trim" }

static inline const char *ddir_str(unsigned d)
{
	return d == 0 ? "read" : d == 1 ? "write" : "trim";
}

#endif
