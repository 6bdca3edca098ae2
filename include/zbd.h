/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ZBD_H
#define IORIG_ZBD_H

/*
 * Zoned block devices (host-managed SMR, NVMe ZNS, zoned null_blk): what
 * the kernel says of them (sysfs, BLKREPORTZONE) and the one write that
 * is not an I/O, a zone reset (BLKRESETZONE). zonemode=zbd's plan-time
 * checks (target.c) and its worker feature (src/worker/zoned.c) use it;
 * offsets and lengths are in bytes here, sectors only at the ioctls.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The zoned model of a block device, as sysfs queue/zoned names it. */
enum zbd_model { ZBD_NONE, ZBD_HOST_AWARE, ZBD_HOST_MANAGED };

/* A zone's type and condition: linux/blkzoned.h's values. */
enum {
	ZBD_TYPE_CONV = 1, ZBD_TYPE_SWR = 2, ZBD_TYPE_SWP = 3,
};
enum {
	ZBD_COND_NOT_WP = 0, ZBD_COND_EMPTY = 1, ZBD_COND_IMP_OPEN = 2,
	ZBD_COND_EXP_OPEN = 3, ZBD_COND_CLOSED = 4, ZBD_COND_READONLY = 0xd,
	ZBD_COND_FULL = 0xe, ZBD_COND_OFFLINE = 0xf,
};

struct zbd_zone {
	uint64_t start, len, cap;	/* bytes */
	uint64_t wp;			/* bytes, absolute */
	uint8_t type, cond;
};

/* What sysfs says of block device rdev: its model, its zone size
 * (chunk_sectors, bytes), its open zone limit (0: none). Not a block
 * device's, or no sysfs: ZBD_NONE. */
struct zbd_info {
	int model;
	uint64_t zone_size;
	unsigned max_open;
};
void zbd_probe(dev_t rdev, struct zbd_info *out);

/*
 * What the zones are asked through: a zoned block device's descriptor
 * (nsid 0: BLKREPORTZONE, BLKRESETZONE), or an NVMe generic char
 * device's whose zoned namespace has no block device (nsid its
 * namespace: Zone Management Receive and Send passthrough on fd, blocks
 * of lba_size bytes, zones of zone_size bytes; the kernel gives no
 * block device to a namespace whose zone size is not a power of two).
 */
struct zbd_dev {
	int fd;
	uint32_t nsid;
	uint32_t lba_size;
	uint64_t zone_size;
};

/* What Identify Namespace for the Zoned Namespace command set says of
 * namespace nsid (fd its generic char device; lbaf the LBA format in
 * use and lba_size its block, as the namespace's own Identify answered,
 * nvmedev_ident): host-managed, its zone size and open zone limit (Max
 * Open Resources); a namespace of another command set: ZBD_NONE. 0 or
 * -errno. */
int zbd_probe_nvme(int fd, uint32_t nsid, uint8_t lbaf, uint32_t lba_size,
		   struct zbd_info *out);

/* Up to n zones of d from byte offset from: the number reported (0
 * past the end), or -errno. */
int zbd_report(const struct zbd_dev *d, uint64_t from, struct zbd_zone *z,
	       unsigned n);
/* Resets the write pointers of the zones in [start, start + len). */
int zbd_reset(const struct zbd_dev *d, uint64_t start, uint64_t len);

/* A condition as blkzone abbreviates it: em, oi, oe, cl, fu, ro, ol, nw. */
const char *zbd_cond_name(unsigned cond);
/* A zone's type: conventional, seq-required, seq-preferred. */
const char *zbd_type_name(unsigned type);

#endif
