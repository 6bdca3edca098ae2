/* SPDX-License-Identifier: MIT */
#ifndef IORIG_GUARD_H
#define IORIG_GUARD_H

#include <stddef.h>
#include <sys/stat.h>

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
 *                (LVM, md, dm), backing an attached loop device or
 *                claimed exclusively: writing corrupts something live,
 *                never allowed; what says which and where;
 *   GUARD_UNREAD the device is not in use but its signatures could not
 *                be read (libblkid failed: a failing disk);
 *                allow_destructive may override; what says why;
 *   -errno       the checks could not be made; what says which failed.
 * what is always a NUL-terminated phrase without a final period.
 */
enum guard_verdict {
	GUARD_CLEAR = 0,
	GUARD_DATA = 1,
	GUARD_BUSY = 2,
	GUARD_UNREAD = 3,
};

int guard_check_bdev(const char *path, char *what, size_t len);
/* Only the in-use checks (no probe): GUARD_CLEAR, GUARD_BUSY or -errno;
 * for the device rdev, which path (or /proc/self/fd/N) opens. */
int guard_check_busy(const char *path, dev_t rdev, char *what, size_t len);
/*
 * Is a regular file (st from stat) live: an active swap file or the backing
 * file of an attached loop device? GUARD_CLEAR, GUARD_BUSY or -errno.
 */
int guard_check_file(const struct stat *st, char *what, size_t len);

#endif
