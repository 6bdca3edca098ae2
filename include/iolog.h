/* SPDX-License-Identifier: MIT */
#ifndef IORIG_IOLOG_H
#define IORIG_IOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clock.h"
#include "job.h"

/*
 * A job clone's log files: fio's bandwidth, IOPS, latency (slat, clat,
 * lat) and clat histogram logs (write_bw_log=, write_iops_log=,
 * write_lat_log=, write_hist_log=) in fio's names and line format, the
 * per-I/O trace (write_io_trace=) and the IORIG_IO_TRACE debugging trace.
 *
 * Lines are formatted by the worker into a large stdio buffer per file
 * (1 MiB) and written in chunks of that size; nothing is written per I/O.
 * A file is written beside its name and renamed over it at iolog_close
 * (door.h), except fio's shared logs (per_job_logs=0), which are
 * appended to as fio does.
 */
struct iolog;
struct door_fence;
struct door_names;

/*
 * Opens the files the job asks for, through the door (door.h) with the
 * run's fence; *out NULL when none. jobnum is fio's job index (1..N) in
 * the file names. 0, or -errno with msg set.
 */
int iolog_open(struct iolog **out, const struct job *j, unsigned jobnum,
	       const struct clock *clk, const struct door_fence *fence,
	       char *msg, size_t msglen);
/* The names iolog_open would open, with their options, added to l (the
 * plan-time check of the fence): 0 or -ENOMEM. */
int iolog_names(const struct job *j, unsigned jobnum, struct door_names *l);
/* The measured phase starts at tick t0: times in the logs count from it,
 * the windows restart. */
void iolog_start(struct iolog *l, uint64_t t0);
/*
 * One completed I/O: bytes moved, the three latencies in ns (has_slat
 * false: the engine has no submit step; slat is not logged), its stamps
 * in ticks; ramp: of the ramp_time (only the debugging trace has it).
 */
struct iolog_io {
	uint64_t offset;
	uint64_t bytes;
	uint64_t slat, clat, lat;
	uint64_t t_queue, t_submit, t_done;
	unsigned ddir;
	bool has_slat, ramp;
};
void iolog_io(struct iolog *l, const struct iolog_io *io);
/* Ends the windows at tick end, writes, renames, frees. 0, or -errno
 * with msg naming the file. */
int iolog_close(struct iolog *l, uint64_t end, char *msg, size_t msglen);
/*
 * write_iolog=: fio's iolog version 3 ("fio version 3 iolog", then
 * "TIME_US FILE add|open|close" and "TIME_US FILE ACTION OFFSET LENGTH"
 * lines), which fio's read_iolog replays. iolog_files writes the add and
 * open lines of the job's files (t outlives l): 0 or -ENOMEM.
 * iolog_issue logs one I/O as it is queued (t_queue in ticks, as fio logs
 * at queue time); ddir DDIR_NR: "sync", DDIR_NR + 1: "datasync".
 * iolog_close writes the close lines.
 */
struct target;
int iolog_files(struct iolog *l, const struct target *t);
void iolog_issue(struct iolog *l, unsigned file, unsigned ddir,
		 uint64_t offset, uint64_t len, uint64_t t_queue);
/* Frees without completing: temporary files are removed. */
void iolog_discard(struct iolog *l);

/*
 * fio --inflate-log: the records of a log_store_compressed file read from
 * f (its zlib streams one after another, logz_open_read), printed on out
 * as the lines of the plain log, as fio prints them (with the offset when
 * the record has it, the priority as fio's log_prio flag says). 0,
 * -EINVAL when the bytes are no such streams of records or are cut short,
 * -ENOMEM, or a read's -errno.
 */
int iolog_inflate(FILE *f, FILE *out);

/* fio's latency histogram: bins of log_hist files (1856 at coarseness 0)
 * and the bin of a latency in ns. */
#define IOLOG_HIST_BITS 6
#define IOLOG_HIST_GROUPS 29
#define IOLOG_HIST_NR (IOLOG_HIST_GROUPS << IOLOG_HIST_BITS)
unsigned iolog_hist_bin(uint64_t ns);

#endif
