// SPDX-License-Identifier: MIT
/*
 * The char devices engines send their own commands to (chrdev.h): one
 * planner, and a row per kind of device for what differs (how the
 * device is recognised and sized, the words of the refusals).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chrdev.h"
#include "nvmedev.h"
#include "sgdev.h"

struct chr_kind {
	const char *proto;	/* the commands sent: "NVMe" */
	const char *takes;	/* the devices the engine takes */
	const char *not_one;	/* a char device of another kind is not */
	const char *expected;	/* ...and the engine expected this */
	const char *blk_is;	/* what a block device is; NULL: taken */
	const char *other_is;	/* what any other file is */
	const char *size_cmd;	/* the command that sizes the device */
	const char *size_hint;	/* why it may fail */
	int oflags;		/* the open that sizes it */
	/* the block device behind char device rdev: 0, -ENODEV when rdev
	 * is not of this kind, -ENOENT when there is none */
	int (*map)(dev_t rdev, char *path, size_t len, dev_t *bdev);
	/* the device's bytes and block size, and what else tf keeps of
	 * the answer: 0 or -errno */
	int (*size)(int fd, struct target_file *tf, uint64_t *bytes,
		    uint32_t *lbs);
	bool sg;		/* a SCSI generic device (tf->is_sg_chr) */
};

/* Identify Namespace: the block device's ioctls do not work on /dev/ng.
 * The answer is kept (tf->nvme_id) for the engine's plan and init. */
static int nvme_size(int fd, struct target_file *tf, uint64_t *bytes,
		     uint32_t *lbs)
{
	struct nvmedev_ident *id = calloc(1, sizeof(*id));
	int r;

	if (!id)
		return -ENOMEM;
	r = nvmedev_ident(fd, id);
	if (r) {
		free(id);
		return r;
	}
	free(tf->nvme_id);
	tf->nvme_id = id;
	*bytes = id->nsze * id->lba_size;
	*lbs = id->lba_size ? id->lba_size : 512;
	return 0;
}

static int sg_size(int fd, struct target_file *tf, uint64_t *bytes,
		   uint32_t *lbs)
{
	uint64_t blocks;
	int r = sgdev_capacity(fd, &blocks, lbs);

	(void)tf;
	if (!r)
		*bytes = blocks * *lbs;
	return r;
}

static const struct chr_kind nvme_kind = {
	.proto = "NVMe",
	.takes = "an NVMe generic char device (/dev/ngXnY)",
	.not_one = "an NVMe generic char device",
	.expected = "one (/dev/ngXnY)",
	.blk_is = "a block device (its char device is /dev/ngXnY for "
		  "/dev/nvmeXnY)",
	.other_is = "not a character device",
	.size_cmd = "NVMe Identify Namespace",
	.size_hint = " (admin commands need CAP_SYS_ADMIN)",
	.oflags = O_RDONLY | O_CLOEXEC,
	.map = nvmedev_chr_block,
	.size = nvme_size,
};

/* SG_IO bypasses the block layer's claims as NVMe passthrough does. */
static const struct chr_kind sg_kind = {
	.proto = "SCSI",
	.takes = "a SCSI generic char device (/dev/sgN) or a SCSI disk's "
		 "block device (/dev/sdX)",
	.not_one = "a SCSI generic device",
	.expected = "/dev/sgN or a SCSI disk's block device",
	.other_is = "not a device",
	.size_cmd = "SCSI READ CAPACITY",
	.size_hint = "",
	.oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC,
	.map = sgdev_chr_block,
	.size = sg_size,
	.sg = true,
};

/* A char device of kind k: sized, aligned, its block device found. */
static int chr_probe(struct target_file *tf, const struct job *j,
		     const struct stat *st, const struct chr_kind *k,
		     struct err_rec *e)
{
	uint64_t bytes;
	uint32_t lbs;
	char bdev[64];
	int fd, r;

	r = k->map(st->st_rdev, bdev, sizeof(bdev), &tf->nvme_bdev_rdev);
	if (r == -ENODEV) {
		err_set(e, tf->path, 0, "filename", "a character device that "
			"is not %s; ioengine=%s expected %s", k->not_one,
			j->eng.ioengine, k->expected);
		return -EINVAL;
	}
	if (!r && !(tf->nvme_bdev = strdup(bdev))) {
		err_set(e, tf->path, 0, "filename", "out of memory");
		return -ENOMEM;
	}
	fd = open(tf->path, k->oflags);
	if (fd < 0) {
		err_set(e, tf->path, 0, "filename", "cannot open: %s",
			strerror(errno));
		return -errno;
	}
	r = k->size(fd, tf, &bytes, &lbs);
	close(fd);
	if (r) {
		err_set(e, tf->path, 0, "filename", "%s failed: %s%s",
			k->size_cmd, strerror(-r), k->size_hint);
		return r;
	}
	tf->is_bdev = true;
	tf->is_nvme_chr = true;
	tf->is_sg_chr = k->sg;
	tf->cur_size = bytes;
	tf->dio_align = lbs;
	tf->dio_mem_align = lbs;
	return 0;
}

int chrdev_plan(struct target_file *tf, const struct job *j,
		const struct stat *st, struct err_rec *e)
{
	const struct chr_kind *k = j->eng.engine_nvme_chr ? &nvme_kind :
				   j->eng.engine_scsi ? &sg_kind : NULL;
	const char *is;

	if (!k)
		return 1;
	if (st && S_ISCHR(st->st_mode))
		return chr_probe(tf, j, st, k, e);
	if (st && S_ISBLK(st->st_mode) && !k->blk_is)
		return 1;
	is = !st ? "a file that does not exist" :
	     S_ISBLK(st->st_mode) ? k->blk_is : k->other_is;
	err_set(e, tf->path, 0, "filename", "ioengine=%s sends %s commands "
		"to %s; this is %s", j->eng.ioengine, k->proto, k->takes, is);
	return -EINVAL;
}
