/* SPDX-License-Identifier: MIT */
#ifndef IORIG_REPLAY_H
#define IORIG_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "job.h"

/*
 * read_iolog=: replays fio's iolog (version 2 or 3, as fio's write_iolog
 * and iorig's write it). Lines: "fio version N iolog", then per file
 * "[TIME] FILE add|open|close" and per I/O "[TIME] FILE ACTION OFFSET
 * LENGTH" (read, write, trim, sync, datasync; version 2 also "FILE wait
 * USEC 0"). TIME (version 3) is microseconds; an I/O is due when as much
 * time (scaled by replay_time_scale percent; "wait" delays) has passed
 * since the first, unless replay_no_stall. replay_redirect sends every
 * I/O to that one file; replay_scale divides offsets, replay_align aligns
 * them down; replay_skip drops directions. A binary blktrace trace is
 * read below (src/log/blktrace.c).
 */
enum replay_act { RP_READ = DDIR_READ, RP_WRITE = DDIR_WRITE,
		  RP_TRIM = DDIR_TRIM, RP_SYNC, RP_DATASYNC };

struct replay_io {
	uint64_t due_us;	/* since the replay started */
	uint64_t off;		/* in the file */
	uint32_t len;
	uint16_t file;		/* index in names, the job's files */
	uint8_t act;		/* enum replay_act */
};

struct replay {
	struct replay_io *v;
	size_t n, cur;
	char **names;		/* the files, in order of first mention */
	unsigned nnames;
	uint64_t max_end;	/* the end of the furthest I/O */
	uint32_t max_len;	/* the longest I/O */
	unsigned dirs;		/* 1 << DDIR_* of the I/Os */
};

/* Reads j's read_iolog into *r. 0, or -errno with msg naming the file
 * and line. */
int replay_load(struct replay *r, const struct job *j, char *msg,
		size_t msglen);
void replay_free(struct replay *r);
/* For the readers: the index of file name in r->names (added if new),
 * or -ENOMEM, -E2BIG (4096 files); appends io (*cap: r->v's room). */
int replay_name(struct replay *r, const char *name);
int replay_push(struct replay *r, const struct replay_io *io, size_t *cap);

/*
 * Plan time, for a job with read_iolog (merge_blktrace_file: first the
 * merge, below): its files become the log's (or
 * replay_redirect), its rw the log's directions, its size (when not
 * given) the furthest I/O's end in each file, as fio takes them from the
 * log. 0, or -EINVAL with e.
 */
int replay_plan(struct job *j, struct err_rec *e);

/*
 * src/log/blktrace.c: read_iolog= of a binary blktrace trace (blkparse -d
 * output, the Linux
 * uapi struct blk_io_trace: 48-byte records, each followed by pdu_len
 * bytes), with fio's meaning: only queue events count; a discard is a
 * trim, a flush a sync, else the write bit says write or read; zero-byte
 * reads and writes and notify events are dropped; the offset is sector *
 * 512 (then replay_scale, replay_align), the length rounded up to
 * replay_align; each I/O waits the time since the previous queue event
 * (replay_time_scale, replay_no_stall). Each traced device (major:minor)
 * is the block device in /dev with that number, or replay_redirect.
 * Both byte orders (the first record's magic says which). A truncated
 * record, a bad magic or version, or a pdu past the end is an error
 * naming the file and the record.
 */

/* 1: path starts with a blktrace record (*swap: in the other byte
 * order); 0: it does not (or is shorter than one record). */
int blktrace_probe(const char *path, bool *swap);
/* Reads the trace path into *r (empty). 0, or -errno with msg. */
int blktrace_load(struct replay *r, const struct job *j, const char *path,
		  bool swap, char *msg, size_t msglen);
/*
 * merge_blktrace_file: merges the traces read_iolog names (':' between
 * them) into one, written to merge_blktrace_file (through a temporary
 * file, renamed when complete): their queue events of reads, writes and
 * discards, each trace's times scaled by its merge_blktrace_scalars
 * percent and the trace repeated merge_blktrace_iters times (pass k adds
 * k times the trace's last time before scaling), earliest first, ties to
 * the earlier trace; pdus dropped. Then read_iolog is the merged file.
 * 0, or -errno with e.
 */
int blktrace_merge(struct job *j, struct err_rec *e);

#endif
