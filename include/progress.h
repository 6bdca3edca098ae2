/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PROGRESS_H
#define IORIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job.h"

/*
 * --progress: a one-line status on stderr while the jobs run, such as
 *
 *   [0:05/0:30] 2 jobs  r 120k IOPS 469MiB/s  w 0
 *
 * elapsed and expected total time ("?" when not known), the jobs running,
 * and per direction the IOPS and bandwidth since the previous line.
 * On a terminal the line is rewritten in place (carriage return, then
 * clear to the end of the line); elsewhere each update is a line of its
 * own.
 */
enum progress_mode { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };

#define PROGRESS_UNKNOWN	UINT64_MAX
#define PROGRESS_PERIOD_NS	1000000000ull

/* The run at one moment. Counters are totals since the run began. */
struct progress_snap {
	uint64_t now_ns;	/* monotonic clock */
	uint64_t elapsed_ns;	/* since the run began */
	uint64_t remaining_ns;	/* PROGRESS_UNKNOWN: not known */
	unsigned running;	/* jobs */
	uint64_t ios[DDIR_NR];
	uint64_t bytes[DDIR_NR];
};

struct progress {
	FILE *f;
	bool in_place;		/* rewrite one line (a terminal) */
	bool ansi;		/* clear with ESC [ K (else pad with blanks) */
	size_t shown;		/* length of the line now on screen */
	uint64_t next_ns;	/* when the next line is due */
	uint64_t period_ns;	/* between lines (PROGRESS_PERIOD_NS) */
	uint64_t newline_ns;	/* in place: keep a line this often; 0 never */
	uint64_t next_nl_ns;	/* when the next kept line is due */
	struct progress_snap prev;
};

/* "auto", "always", "never": 0, or -EINVAL. */
int progress_mode_parse(const char *s, enum progress_mode *m);

/*
 * Whether to show progress: always; never; auto: when stderr is a
 * terminal (tty) and TERM is set, not empty and not "dumb".
 */
bool progress_wanted(enum progress_mode m, bool tty, const char *term);

/* The run starts at now_ns; tty and term as for progress_wanted. */
void progress_init(struct progress *p, FILE *f, bool tty, const char *term,
		   uint64_t now_ns);
/* fio's --eta-interval and --eta-newline: the time between lines (0:
 * PROGRESS_PERIOD_NS) and, on a terminal, between lines left standing
 * (0: only the last). */
void progress_periods(struct progress *p, uint64_t period_ns,
		      uint64_t newline_ns);
/* A new line is due (the period after the last). */
bool progress_due(const struct progress *p, uint64_t now_ns);
void progress_show(struct progress *p, const struct progress_snap *s);
/* Take the line off the screen (before anything else is written). */
void progress_clear(struct progress *p);

/* The status text of cur, rates since prev; returns its length. */
size_t progress_format(char *buf, size_t len,
		       const struct progress_snap *cur,
		       const struct progress_snap *prev);

#endif
