// SPDX-License-Identifier: MIT
/*
 * SCSI generic devices (sgdev.h). Commands go through SG_IO, whose
 * sg_io_hdr the kernel's scsi/sg.h describes; CDB layouts are SBC's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <dirent.h>
#include <scsi/sg.h>
#include <unistd.h>

#include "sgdev.h"

#define SGDEV_TIMEOUT_MS 30000

int sgdev_chr_block(dev_t rdev, char *path, size_t len, dev_t *bdev)
{
	char dir[256], link[256], target[256];
	const char *b;
	struct dirent *d;
	struct stat st;
	ssize_t n;
	DIR *dp;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/subsystem",
		 major(rdev), minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENODEV;
	target[n] = '\0';
	b = strrchr(target, '/');
	if (strcmp(b ? b + 1 : target, "scsi_generic"))
		return -ENODEV;
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/block",
		 major(rdev), minor(rdev));
	dp = opendir(dir);
	if (!dp)
		return -ENOENT;
	while ((d = readdir(dp)) && d->d_name[0] == '.')
		;
	if (!d) {
		closedir(dp);
		return -ENOENT;
	}
	snprintf(path, len, "/dev/%s", d->d_name);
	closedir(dp);
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	*bdev = st.st_rdev;
	return 0;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* One command that reads n bytes into buf; 0, -errno, or -EIO. */
static int sgdev_in(int fd, uint8_t *cdb, unsigned clen, uint8_t *buf,
		    unsigned n)
{
	uint8_t sb[32];
	struct sg_io_hdr h;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmd_len = (unsigned char)clen;
	h.cmdp = cdb;
	h.dxfer_direction = SG_DXFER_FROM_DEV;
	h.dxferp = buf;
	h.dxfer_len = n;
	h.sbp = sb;
	h.mx_sb_len = sizeof(sb);
	h.timeout = SGDEV_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	return h.status || h.host_status || h.driver_status ? -EIO : 0;
}

int sgdev_capacity(int fd, uint64_t *blocks, uint32_t *lbs)
{
	uint8_t c10[10] = { 0x25 }, c16[16] = { 0x9e, 0x10 }, b[32];
	uint64_t last;
	int r, i;

	memset(b, 0, sizeof(b));
	if ((r = sgdev_in(fd, c10, sizeof(c10), b, 8)))
		return r;
	last = be32(b);
	*lbs = be32(b + 4);
	if (last == 0xffffffffu) {
		c16[13] = 32;		/* allocation length */
		memset(b, 0, sizeof(b));
		if ((r = sgdev_in(fd, c16, sizeof(c16), b, 32)))
			return r;
		for (last = 0, i = 0; i < 8; i++)
			last = last << 8 | b[i];
		*lbs = be32(b + 8);
	}
	if (!*lbs || *lbs % 512)
		return -EINVAL;
	*blocks = last + 1;
	return 0;
}

int sgdev_sense(const uint8_t *sb, size_t n, unsigned *key, unsigned *asc,
		unsigned *ascq)
{
	unsigned rc = n ? sb[0] & 0x7f : 0;

	if ((rc == 0x70 || rc == 0x71) && n >= 14) {
		*key = sb[2] & 0xf;
		*asc = sb[12];
		*ascq = sb[13];
		return 0;
	}
	if ((rc == 0x72 || rc == 0x73) && n >= 4) {
		*key = sb[1] & 0xf;
		*asc = sb[2];
		*ascq = sb[3];
		return 0;
	}
	return -EINVAL;
}

void sgdev_sense_text(char *buf, size_t len, unsigned key, unsigned asc,
		      unsigned ascq)
{
	static const char *const keys[16] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR",
		"HARDWARE ERROR", "ILLEGAL REQUEST", "UNIT ATTENTION",
		"DATA PROTECT", "BLANK CHECK", "VENDOR SPECIFIC",
		"COPY ABORTED", "ABORTED COMMAND", "(reserved 0xc)",
		"VOLUME OVERFLOW", "MISCOMPARE", "COMPLETED",
	};
	/* The codes a test device gives and a user most often meets. */
	static const struct {
		uint8_t asc, ascq;
		const char *what;
	} codes[] = {
		{ 0x0c, 0x00, "write error" },
		{ 0x10, 0x01, "logical block guard check failed" },
		{ 0x11, 0x00, "unrecovered read error" },
		{ 0x20, 0x00, "invalid command operation code" },
		{ 0x21, 0x00, "logical block address out of range" },
		{ 0x24, 0x00, "invalid field in CDB" },
		{ 0x26, 0x00, "invalid field in parameter list" },
		{ 0x27, 0x00, "write protected" },
		{ 0x29, 0x00, "power on, reset, or bus device reset" },
		{ 0x3a, 0x00, "medium not present" },
		{ 0x1d, 0x00, "miscompare during verify operation" },
	};
	const char *what = NULL;
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].asc == asc && codes[i].ascq == ascq)
			what = codes[i].what;
	snprintf(buf, len, "SCSI sense: %s (key 0x%x), ASC/ASCQ "
		 "0x%02x/0x%02x%s%s", keys[key & 0xf], key, asc, ascq,
		 what ? ": " : "", what ? what : "");
}
