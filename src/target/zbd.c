// SPDX-License-Identifier: MIT
/*
 * Zoned block devices (zbd.h): sysfs for the model and the limits, the
 * zone report and reset ioctls for the zones themselves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <linux/blkzoned.h>

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

int zbd_report(int fd, uint64_t from, struct zbd_zone *z, unsigned n)
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

int zbd_reset(int fd, uint64_t start, uint64_t len)
{
	struct blk_zone_range r = { .sector = start >> 9,
				    .nr_sectors = len >> 9 };

	return ioctl(fd, BLKRESETZONE, &r) < 0 ? -errno : 0;
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
