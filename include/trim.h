/* SPDX-License-Identifier: MIT */
#ifndef IORIG_TRIM_H
#define IORIG_TRIM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Discard len bytes at offset of fd: BLKDISCARD on a block device, a
 * punched hole (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) in a file, so
 * that the file keeps its size. Returns 0 or -errno. The worker calls it
 * for every engine (a trim is synchronous, as fio's libaio and io_uring do
 * theirs): engines only ever see reads and writes.
 */
int trim_range(int fd, bool is_bdev, uint64_t offset, uint64_t len);

#endif
