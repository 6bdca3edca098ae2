// SPDX-License-Identifier: MIT
/* A target file's layout (layout.c), for target.c. */
#ifndef IORIG_TARGET_LAYOUT_H
#define IORIG_TARGET_LAYOUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LAYOUT_CHUNK	(1u << 20)
/* Layout write-behind: bytes written but not yet waited for, at most. */
#define LAYOUT_BEHIND	(8ull * LAYOUT_CHUNK)

/*
 * Real data everywhere in [off, end) of fd that has none: past the end of
 * the file and, with fill, in its holes and unwritten extents before it;
 * written data is never overwritten. Then fsync when sync. A stop seen
 * between chunks returns -EINTR. 0 or -errno.
 */
int layout_write(int fd, uint64_t off, uint64_t end, bool fill, bool sync,
		 const atomic_int *stop);
/* fallocate= (enum falloc_mode) for [from, end) past a file's end. */
int layout_prealloc(int fd, uint64_t from, uint64_t end, int mode,
		    bool sync);
/* Bytes of [from, to) of the file at path that hold no written data. */
int layout_unwritten(const char *path, uint64_t from, uint64_t to,
		     uint64_t *bytes);

#endif
