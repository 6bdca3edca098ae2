/* SPDX-License-Identifier: MIT */
#ifndef IORIG_OUTPUT_H
#define IORIG_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "err.h"

/*
 * The files iorig writes besides its targets: the report (--output, or
 * standard output) and the stream (--stream).
 *
 * Only a regular file (new or existing), a FIFO, /dev/null, /dev/zero,
 * /dev/full, a terminal and the names of the standard streams
 * (/dev/stdout, /dev/stderr, /dev/fd/1, ...) are written: never a block
 * device (a report at sector 0 of a disk), another character device (a
 * tape), or a new regular file in /dev. What was checked is checked again
 * on the open descriptor.
 *
 * A report replaces a regular file only when it is complete: it is written
 * to a temporary file beside it (".NAME.XXXXXX", the mode the file has or
 * a new file gets) that is synced and renamed over NAME at output_close,
 * so a run that fails or is killed leaves the previous report as it was.
 * The stream is written in place, so that `tail -f` follows it.
 *
 * f is a stdio stream that keeps the first write error's errno (err), so
 * a failed report names the real cause; writes interrupted by a signal
 * are retried.
 */
struct output {
	const char *path;	/* NULL: standard output */
	const char *option;	/* "output" or "stream", for messages */
	char *tmp;		/* renamed to path at the end; NULL: none */
	/* fd is an unnamed file (O_TMPFILE) that output_close() names tmp
	 * just before the rename: a run killed before leaves nothing. */
	bool anon;
	int fd;
	int err;		/* first write error (errno), 0: none */
	FILE *f;
};

/* Looks only: 0, or -EINVAL with e saying why path cannot be written. */
int output_check(const char *path, const char *option, struct err_rec *e);
/*
 * a and b (NULL: standard output) are one regular file: the same inode
 * where both exist (a link, /dev/stdout, standard output redirected to
 * it), else the same resolved name.
 */
bool output_same(const char *a, const char *b);
/*
 * Opens path (NULL: standard output) as above; replace: through a
 * temporary file (the report), else in place (the stream). 0, or -errno
 * with e; o is closed on failure.
 */
int output_open(struct output *o, const char *path, const char *option,
		bool replace, struct err_rec *e);
/* As output_open in place, but adds to the end of what path holds
 * (fio's shared logs, per_job_logs=0): nothing is truncated. */
int output_append(struct output *o, const char *path, const char *option,
		  struct err_rec *e);
/* All of len bytes to fd (EINTR and short writes retried): 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);
/*
 * Writes n bytes at p with one write() after what o has buffered (more
 * only if the kernel takes part of it): opened with output_append, the
 * bytes land together after whatever other writers appended. stdio would
 * write a large buffer in pieces (glibc: the largest multiple of its
 * buffer at once, the rest at the next flush), and another job's append
 * could come between them. 0, or -errno (also kept for output_close).
 */
int output_write_whole(struct output *o, const void *p, size_t n);
/*
 * Flushes, and puts a temporary file in place (fsync, rename). 0, or
 * -errno: the first write error, else what failed; then the temporary
 * file is removed. Closes o either way.
 */
int output_close(struct output *o);
/* Closes o; a temporary file is removed, the previous file kept. */
void output_discard(struct output *o);

#endif
