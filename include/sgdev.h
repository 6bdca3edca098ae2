/* SPDX-License-Identifier: MIT */
#ifndef IORIG_SGDEV_H
#define IORIG_SGDEV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * SCSI devices by their own answers (SG_IO): the SCSI generic char device
 * /dev/sgN and the disk behind it, READ CAPACITY, sense data in words.
 * SG_IO works on /dev/sgN and on an sd block device alike.
 */

/* The sd block device behind SCSI generic char device rdev: its path
 * (/dev/sdX) into path and its number into *bdev. 0; -ENODEV when rdev
 * is not a SCSI generic device; -ENOENT when it has no block device (a
 * tape, an enclosure). */
int sgdev_chr_block(dev_t rdev, char *path, size_t len, dev_t *bdev);

/* READ CAPACITY (10, then 16 when the disk is larger than 10 can say):
 * the number of logical blocks and their size. 0 or -errno (-EIO: the
 * device answered with a check condition). */
int sgdev_capacity(int fd, uint64_t *blocks, uint32_t *lbs);

/* Sense data sb of n bytes, fixed or descriptor format: the sense key,
 * the additional sense code and its qualifier. 0, or -EINVAL when sb
 * holds no sense. */
int sgdev_sense(const uint8_t *sb, size_t n, unsigned *key, unsigned *asc,
		unsigned *ascq);

/* "SCSI sense: MEDIUM ERROR (key 0x3), ASC/ASCQ 0x11/0x00: unrecovered
 * read error" into buf, from key, asc, ascq. */
void sgdev_sense_text(char *buf, size_t len, unsigned key, unsigned asc,
		      unsigned ascq);

#endif
