/* SPDX-License-Identifier: MIT */
#ifndef IORIG_TARGET_CHRDEV_H
#define IORIG_TARGET_CHRDEV_H

#include <sys/stat.h>

#include "err.h"
#include "job.h"
#include "target.h"

/*
 * The char devices an engine sends its own commands to, past the block
 * layer: NVMe generic char devices /dev/ngXnY (ENGINE_NVME_CHAR,
 * io_uring_cmd) and SCSI generic ones /dev/sgN (ENGINE_SCSI, sg, which
 * takes a SCSI disk's block device too). One planner serves both: the
 * device sized by its own answer (Identify Namespace, READ CAPACITY),
 * its blocks the O_DIRECT alignment, the block device behind it found
 * for the write guards (tf->nvme_bdev).
 *
 * Plan tf for job j, whose path stats as st (NULL: it does not exist):
 * 1 when j's engine takes tf as any file or block device (the caller
 * plans it), 0 when planned here, -errno with e filled when refused.
 */
int chrdev_plan(struct target_file *tf, const struct job *j,
		const struct stat *st, struct err_rec *e);

#endif
