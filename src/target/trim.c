// SPDX-License-Identifier: MIT
/* Trims (trim.h): the one place that discards a range of a target. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "trim.h"

int trim_range(int fd, bool is_bdev, uint64_t offset, uint64_t len)
{
	uint64_t range[2] = { offset, len };
	int r;

	if (is_bdev)
		r = ioctl(fd, BLKDISCARD, range);
	else
		r = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)offset, (off_t)len);
	return r ? -errno : 0;
}
