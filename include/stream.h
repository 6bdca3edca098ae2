/* SPDX-License-Identifier: MIT */
#ifndef IORIG_STREAM_H
#define IORIG_STREAM_H

#include <stddef.h>
#include <stdio.h>

#include "interval.h"
#include "plan.h"

/*
 * --stream=FILE: the interval samples of every job with interval= as JSON
 * lines while the run goes on, one object a line, each line flushed:
 *
 *   {"job": NAME, "clone": C, "sweep_point": null, "index": K,
 *    "start_ns": .., "end_ns": .., "read": {..}, "write": {..}}
 *
 * The main thread writes them (stream_poll) from what the workers
 * published; a job's lines come in index order, the jobs' interleaved.
 */
struct stream;

/* A stream of p's jobs to f (opened by the caller; stream_close closes
 * it). NULL when out of memory. */
struct stream *stream_new(FILE *f, const struct plan *p);

/* Write the samples of job i that series published since the last call. */
void stream_poll(struct stream *s, size_t i, struct ival_series *series);

/* Close f and free s: 0, or -errno of the first failed write. */
int stream_close(struct stream *s);

#endif
