/* SPDX-License-Identifier: MIT */
#ifndef IORIG_BLKTRACE_H
#define IORIG_BLKTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "job.h"
#include "replay.h"

/*
 * read_iolog= of a binary blktrace trace (blkparse -d output, the Linux
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
