/* SPDX-License-Identifier: MIT */
#ifndef IORIG_GUARD_H
#define IORIG_GUARD_H

#include <stddef.h>

/*
 * Is a block device safe to write to? guard_check_bdev() only looks: it
 * reads /proc/self/mountinfo, /proc/swaps and sysfs, opens the device
 * read-only (once with O_EXCL, closed at once) and probes it with libblkid.
 * "The device" covers its partitions too.
 *
 * Returns
 *   GUARD_CLEAR  nothing found;
 *   GUARD_DATA   a file system, RAID member, partition table or other
 *                signature: data that a write destroys (allow_destructive
 *                may override); what = "ext4 filesystem, label 'x'"...;
 *   GUARD_BUSY   mounted, an active swap area, held by another device
 *                (LVM, md, dm) or claimed exclusively: writing corrupts
 *                something live, never allowed; what says which and where;
 *   -errno       the checks could not be made; what says which failed.
 * what is always a NUL-terminated phrase without a final period.
 */
enum guard_verdict {
	GUARD_CLEAR = 0,
	GUARD_DATA = 1,
	GUARD_BUSY = 2,
};

int guard_check_bdev(const char *path, char *what, size_t len);

#endif
