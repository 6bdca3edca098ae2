/* SPDX-License-Identifier: MIT */
#ifndef IORIG_TARGET_H
#define IORIG_TARGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "err.h"
#include "job.h"

/*
 * The files or block devices of one job clone. target_plan() only looks
 * (stat, open read-only, ioctl): it resolves names, sizes and the job's
 * region and checks O_DIRECT alignment, so that every job of a run is
 * validated before anything is created or written; for a job that writes
 * to a block device it also runs the guards (guard.h). target_open() then
 * creates, extends and lays out files (for a job that reads, also filling
 * the holes and unwritten extents of its region unless layout=0) and
 * opens them for the job.
 */
struct target_file {
	char *path;
	int fd;			/* -1 until target_open */
	bool is_bdev;
	bool exists;		/* existed before this run */
	bool created;		/* created by this run: unlink may delete */
	uint64_t cur_size;	/* file or device size when planned */
	uint64_t offset;	/* region start in this file */
	uint32_t dio_align;	/* offset/length alignment for O_DIRECT */
	uint32_t dio_mem_align;
	char *guard_note;	/* data that allow_destructive overwrites */
};

struct target {
	struct target_file *files;
	unsigned nfiles;
	uint64_t file_region;	/* region bytes in each file */
	uint64_t region;	/* nfiles * file_region */
};

int target_plan(struct target *t, const struct job *j, struct err_rec *e);
/* Returns 0 or -errno with e filled; may be interrupted via *stop. */
int target_open(struct target *t, const struct job *j,
		const atomic_int *stop, struct err_rec *e);
/* Close; delete files this run created when unlink is set. */
void target_close(struct target *t, bool unlink_created);
void target_free(struct target *t);

/* Memory alignment every I/O buffer satisfies (page size). */
unsigned target_buf_align(void);

#endif
