// SPDX-License-Identifier: MIT
/*
 * Zoned block devices (zbd.h): sysfs for the model and the limits, the
 * zone report and reset ioctls for the zones themselves; or, for an NVMe
 * zoned namespace that has no block device, the Zoned Namespace command
 * set's own commands through its generic char device (libnvme builds
 * them: Identify, Zone Management Receive and Send).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <endian.h>
#include <linux/blkzoned.h>
#include <nvme/ioctl.h>
#include <nvme/types.h>

#include "zbd.h"

/* /sys/dev/block/MAJ:MIN/queue/NAME's first line into buf: 0 or -1. */
static int queue_attr(dev_t rdev, const char *name, char *buf, size_t len)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s",
		 major(rdev), minor(rdev), name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void zbd_probe(dev_t rdev, struct zbd_info *out)
{
	char buf[64];

	memset(out, 0, sizeof(*out));
	if (queue_attr(rdev, "zoned", buf, sizeof(buf)))
		return;
	if (!strcmp(buf, "host-managed"))
		out->model = ZBD_HOST_MANAGED;
	else if (!strcmp(buf, "host-aware"))
		out->model = ZBD_HOST_AWARE;
	else
		return;
	if (!queue_attr(rdev, "chunk_sectors", buf, sizeof(buf)))
		out->zone_size = strtoull(buf, NULL, 10) << 9;
	if (!queue_attr(rdev, "max_open_zones", buf, sizeof(buf)))
		out->max_open = (unsigned)strtoul(buf, NULL, 10);
}

static int blk_report(int fd, uint64_t from, struct zbd_zone *z, unsigned n)
{
	struct blk_zone_report *r;
	unsigned i, got;

	if (!n)
		return 0;
	r = calloc(1, sizeof(*r) + n * sizeof(struct blk_zone));
	if (!r)
		return -ENOMEM;
	r->sector = from >> 9;
	r->nr_zones = n;
	if (ioctl(fd, BLKREPORTZONE, r) < 0) {
		int err = -errno;

		free(r);
		return err;
	}
	got = r->nr_zones < n ? r->nr_zones : n;
	for (i = 0; i < got; i++) {
		const struct blk_zone *b = &r->zones[i];

		z[i].start = b->start << 9;
		z[i].len = b->len << 9;
		z[i].cap = (r->flags & BLK_ZONE_REP_CAPACITY ? b->capacity :
			    b->len) << 9;
		z[i].wp = b->wp << 9;
		z[i].type = b->type;
		z[i].cond = b->cond;
	}
	free(r);
	return (int)got;
}

static int blk_reset(int fd, uint64_t start, uint64_t len)
{
	struct blk_zone_range r = { .sector = start >> 9,
				    .nr_sectors = len >> 9 };

	return ioctl(fd, BLKRESETZONE, &r) < 0 ? -errno : 0;
}

int zbd_probe_nvme(int fd, uint32_t nsid, uint8_t lbaf, uint32_t lba_size,
		   struct zbd_info *out)
{
	struct nvme_zns_id_ns *zns;
	uint32_t mor;
	int r;

	memset(out, 0, sizeof(*out));
	if (lbaf >= sizeof(zns->lbafe) / sizeof(zns->lbafe[0]))
		return -EINVAL;
	zns = calloc(1, sizeof(*zns));
	if (!zns)
		return -ENOMEM;
	/* a namespace of another command set fails this with an NVMe
	 * status (> 0): not zoned */
	r = nvme_zns_identify_ns(fd, nsid, zns);
	if (r) {
		free(zns);
		return r < 0 ? -errno : 0;
	}
	out->model = ZBD_HOST_MANAGED;
	out->zone_size = le64toh(zns->lbafe[lbaf].zsze) * lba_size;
	/* Max Open Resources counts from 0; all ones: no limit */
	mor = le32toh(zns->mor);
	out->max_open = mor == UINT32_MAX ? 0 : mor + 1;
	free(zns);
	return 0;
}

/* Report Zones (Zone Management Receive, all zones, a partial report:
 * its count is of the zones it holds) from byte from. */
static int nvme_report(const struct zbd_dev *d, uint64_t from,
		       struct zbd_zone *z, unsigned n)
{
	size_t len = sizeof(struct nvme_zone_report) +
		     n * sizeof(struct nvme_zns_desc);
	struct nvme_zone_report *r;
	unsigned i, got;
	int ret;

	if (!d->lba_size || !d->zone_size)
		return -EINVAL;
	r = calloc(1, len);
	if (!r)
		return -ENOMEM;
	ret = nvme_zns_report_zones(d->fd, d->nsid, from / d->lba_size,
				    NVME_ZNS_ZRAS_REPORT_ALL, false, true,
				    (uint32_t)len, r,
				    NVME_DEFAULT_IOCTL_TIMEOUT, NULL);
	if (ret) {
		ret = ret < 0 ? -errno : -EIO;
		free(r);
		return ret;
	}
	got = le64toh(r->nr_zones) < n ? (unsigned)le64toh(r->nr_zones) : n;
	for (i = 0; i < got; i++) {
		const struct nvme_zns_desc *b = &r->entries[i];

		z[i].start = le64toh(b->zslba) * d->lba_size;
		z[i].len = d->zone_size;
		z[i].cap = le64toh(b->zcap) * d->lba_size;
		z[i].wp = le64toh(b->wp) * d->lba_size;
		/* the types and states are blkzoned.h's numbers; the state
		 * is the byte's high half */
		z[i].type = b->zt & 0xf;
		z[i].cond = b->zs >> 4;
	}
	free(r);
	return (int)got;
}

/* Reset Zone (Zone Management Send), one command a zone. */
static int nvme_reset(const struct zbd_dev *d, uint64_t start, uint64_t len)
{
	struct nvme_zns_mgmt_send_args a = {
		.args_size = sizeof(a),
		.fd = d->fd,
		.timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
		.nsid = d->nsid,
		.zsa = NVME_ZNS_ZSA_RESET,
	};
	uint64_t at;
	int r;

	if (!d->lba_size || !d->zone_size)
		return -EINVAL;
	for (at = start; at < start + len; at += d->zone_size) {
		a.slba = at / d->lba_size;
		r = nvme_zns_mgmt_send(&a);
		if (r)
			return r < 0 ? -errno : -EIO;
	}
	return 0;
}

int zbd_report(const struct zbd_dev *d, uint64_t from, struct zbd_zone *z,
	       unsigned n)
{
	if (!n)
		return 0;
	return d->nsid ? nvme_report(d, from, z, n) :
	       blk_report(d->fd, from, z, n);
}

int zbd_reset(const struct zbd_dev *d, uint64_t start, uint64_t len)
{
	return d->nsid ? nvme_reset(d, start, len) :
	       blk_reset(d->fd, start, len);
}

const char *zbd_cond_name(unsigned cond)
{
	switch (cond) {
	case ZBD_COND_NOT_WP: return "nw";
	case ZBD_COND_EMPTY: return "em";
	case ZBD_COND_IMP_OPEN: return "oi";
	case ZBD_COND_EXP_OPEN: return "oe";
	case ZBD_COND_CLOSED: return "cl";
	case ZBD_COND_READONLY: return "ro";
	case ZBD_COND_FULL: return "fu";
	case ZBD_COND_OFFLINE: return "ol";
	}
	return "?";
}

const char *zbd_type_name(unsigned type)
{
	switch (type) {
	case ZBD_TYPE_CONV: return "conventional";
	case ZBD_TYPE_SWR: return "seq-required";
	case ZBD_TYPE_SWP: return "seq-preferred";
	}
	return "?";
}
