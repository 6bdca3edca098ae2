/* SPDX-License-Identifier: MIT */
#ifndef IORIG_TARGET_H
#define IORIG_TARGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "err.h"
#include "job.h"
#include "warn.h"

struct door_fence;
struct nvmedev_ident;

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
	uint64_t len;		/* region bytes in this file: file_region,
				 * or less when filesize= is a range */
	uint32_t dio_align;	/* offset/length alignment for O_DIRECT */
	uint32_t dio_mem_align;
	char *guard_note;	/* data that allow_destructive overwrites */
	/* An NVMe generic char device (/dev/ngXnY; is_bdev is set too: a
	 * device, not a file): its namespace's block device, which the
	 * guards check (NULL: it has none), and that device's number.
	 * A SCSI generic char device (/dev/sgN, is_sg_chr) is one too:
	 * passthrough past the block layer, its disk's block device in
	 * nvme_bdev. */
	bool is_nvme_chr;
	bool is_sg_chr;
	char *nvme_bdev;
	dev_t nvme_bdev_rdev;
	/* zonemode=zbd on an NVMe generic char device of a zoned
	 * namespace: its block device (nvme_bdev), open from target_open
	 * to target_close for the zone report and resets (read-write when
	 * the job writes: BLKRESETZONE asks it); -1 otherwise */
	int zbd_fd;
	/* An NVMe generic char device's namespace as Identify Namespace
	 * answered when it was probed (chrdev.c), asked once a file: its
	 * engine's plan and init read it. NULL for any other file. */
	struct nvmedev_ident *nvme_id;
	/* target_plan: bytes of holes and unwritten extents in the region
	 * of an existing file that the layout of a job that reads fills */
	uint64_t holes_planned;
	/* Layout of an existing file: it was extended from orig_size, and
	 * target_undo may put it back; it touches only the inode dev/ino
	 * below (the one checked, or the one this run created). */
	bool extended;
	uint64_t orig_size;
	/*
	 * The file as this run left it: its size and its ctime and mtime
	 * when this run last closed a descriptor that wrote it (the
	 * layout's; a writing job's, whose writes stay inside its region).
	 * target_undo puts back or removes only a file that still has the
	 * largest size and the latest times recorded for its inode, so that
	 * what another process wrote (an append, bytes in the extension
	 * after the run's last write) is never cut off. A job that only
	 * reads changes neither, so its layout's record stands.
	 */
	bool have_size, have_times;
	bool writes;		/* the job's fd was opened for writing */
	uint64_t left_size;
	struct timespec left_ctime, left_mtime;
	/*
	 * What target_plan checked (stat through symlinks), or, once this
	 * run created the file, what it created: every open compares the
	 * opened fd with it, and unlink deletes only that inode.
	 */
	bool is_link;		/* the path was a symlink when planned */
	bool have_id;		/* dev, ino, type (and rdev) are set */
	dev_t dev;
	ino_t ino;
	mode_t type;		/* S_IFREG, S_IFBLK (S_IFCHR: NVMe) */
	dev_t rdev;
	uint64_t diskseq;	/* a device's media sequence number; 0: none */
	dev_t dir_dev;		/* the directory of a file to be created */
	ino_t dir_ino;
	/* zonemode=zbd: the end of the file's zones (its size, or its
	 * region's end when that is past it) */
	uint64_t zbd_end;
	/* zonemode=zbd: the zones this file's region shares with the wait
	 * group's other jobs on it, bytes [lo, hi) (target_zbd_share) */
	uint64_t zbd_span_lo, zbd_span_hi;
};

struct target {
	struct target_file *files;
	unsigned nfiles;
	/* Region bytes in each file; with filesize=LO-HI the largest
	 * file's, the files' own in files[i].len (uneven set). */
	uint64_t file_region;
	uint64_t region;	/* bytes of a pass: the sum of files[i].len */
	bool uneven;		/* some files[i].len < file_region */
	struct warn_list *warn;	/* target_open's warnings; NULL: stderr */
	/* The run's fence (door.h): the files its jobs read or write, which
	 * no log, state or output file of the job may be; NULL: none. */
	const struct door_fence *fence;
	/*
	 * zonemode=zbd (zbd.h), each file's (they are alike: zbdplan.c):
	 * its zoned model (ZBD_NONE: zones
	 * emulated, fio's meaning on a file or a device that is not
	 * zoned), the zone size and (emulated) capacity in bytes, the open
	 * zone limit in force (0: none). target_plan has rounded a writing
	 * job's region to whole zones where it holds sequential ones.
	 */
	bool zbd;
	int zbd_model;
	uint64_t zbd_size, zbd_cap;
	unsigned zbd_max_open;
	/* the region asked of the first file rounded, when one was: said
	 * at open (zbd_rounded) */
	bool zbd_rounded;
	unsigned zbd_rounded_file;
	uint64_t zbd_asked_off, zbd_asked_len;
	/* the region (bytes of a pass) before the rounding, when there
	 * was one: fio counts a job's bytes from it (target_job_region) */
	uint64_t zbd_asked_region;
	/* how many jobs share the zones of the first file (1: none; the
	 * spans are each file's own) */
	unsigned zbd_sharers;
};

/*
 * A file's size and block in the units its engine moves, when they are
 * not the device's data bytes (engine.h: the file_size hook): called by
 * target_plan once the file is probed, before its region is planned, so
 * that the region, its percentages, its end check and the alignment
 * direct= asks (tf->dio_align) count in them. Sets *bytes and *block or
 * leaves them (as probed); 0 or -errno with e.
 */
typedef int target_size_fn(const struct target_file *tf,
			   const struct job *j, uint64_t *bytes,
			   uint32_t *block, struct err_rec *e);

/* size: the job's engine's file_size hook, or NULL */
int target_plan(struct target *t, const struct job *j, target_size_fn *size,
		struct err_rec *e);
/*
 * zonemode=zbd's part of target_plan (src/target/zbdplan.c), after the
 * region (writes: whether the job changes data): the zone geometry from
 * the device, or emulated zones; the job's options checked against it; a
 * writer's region rounded to whole zones. 0, or -errno with e.
 */
int target_plan_zbd(struct target *t, const struct job *j, bool writes,
		    struct err_rec *e);
/*
 * zonemode=zbd, after every job's target_plan: the jobs of one wait group
 * on the same file or device share its zones (fio's meaning: one write
 * pointer per zone, whichever job writes; src/worker/zoned.c): each one's
 * zbd_span is the zones of all their regions, zbd_sharers how many they
 * are. Jobs that would see those zones otherwise (zone size, capacity,
 * open zone limit) are refused. 0, or -EINVAL with e.
 */
int target_zbd_share(const struct job *jobs, struct target *tg,
		     size_t njobs, struct err_rec *e);
/*
 * After target_plan, with the credentials of the calling thread (uid=,
 * gid=: a thread of the job's user, procattr_as_job): every file can be
 * read, and written where the job or its layout writes it; a file to
 * create, its directory written and searched. opt names the option and
 * who ("as uid=1000") ends the messages. 0, or -errno with e.
 */
int target_check_access(const struct target *t, const struct job *j,
			const char *opt, const char *who, struct err_rec *e);
/*
 * target_plan for an engine that opens no file (ENGINE_NOIO), nothing
 * looked at. files: the engine stands in for files (null): their names
 * and regions as target_plan makes them for files that do not exist yet;
 * else one unnamed region (net, cpuio, exec). 0, -ENOMEM, or -EINVAL
 * with e filled (a job that nothing would end, a size in per cent).
 */
int target_plan_noio(struct target *t, const struct job *j, bool files,
		     struct err_rec *e);
/*
 * Returns 0 or -errno with e filled; may be interrupted via *stop. Every
 * file is opened as what target_plan checked: another file, device or
 * symlink found at the path is an error (-ESTALE), never written; a device
 * is checked again for use (guard_check_busy). A file that did not exist
 * when planned is created exclusively, or is one that an earlier opened
 * target of run[0..nrun) created in this run.
 */
int target_open(struct target *t, struct target *run, size_t nrun,
		const struct job *j, const atomic_int *stop,
		struct err_rec *e);
/*
 * After a failed or interrupted run: the files of t this run extended go
 * back to the length they had (the one case where a file is shortened),
 * and those it created are removed; only the inodes it made, and each
 * once; only while their size, ctime and mtime are what this run left
 * (the latest of any target of run[0..nrun) on the same inode): a file
 * another process changed meanwhile is left as it is, and said. Said on
 * t->warn.
 */
void target_undo(struct target *t, const struct job *j,
		 struct target *run, size_t nrun);
/*
 * The same run, t's job given up on (its worker may still write its
 * files): what target_undo would put back or remove is left as it is,
 * and said on t->warn.
 */
void target_undo_abandoned(struct target *t, const struct job *j);

/*
 * Free space, before anything is created: target_space_add every job's
 * planned targets, then target_space_check compares, per file system, the
 * bytes layout will write (new files, extensions, holes a read job fills)
 * with what statvfs says is available. 0, or -ENOSPC with e. A file
 * system whose free space is not known is said on w (NULL: not said).
 */
struct target_space {
	struct space_file *f;
	size_t n;
};

int target_space_add(struct target_space *s, const struct target *t,
		     const struct job *j, struct err_rec *e);
int target_space_check(const struct target_space *s, struct warn_list *w,
		       struct err_rec *e);
void target_space_free(struct target_space *s);

/* Close; delete files this run created when unlink is set (only while the
 * path still names the inode created; else a warning). */
void target_close(struct target *t, bool unlink_created);
/*
 * A new pass over the region (loops, time_based, io_size), from the job's
 * thread: invalidate and fadvise_hint again, as at open (fio reopens its
 * files for every loop). No warning; errors are ignored.
 */
void target_new_pass(const struct target *t, const struct job *j);
/*
 * unlink_each_loop, between loops, from the job's thread with no I/O in
 * flight: each file this run created is deleted (only while its path
 * names that inode; else said and left) and made again as target_open
 * makes it, on the same fd number. Files that were there before the run
 * are never deleted. 0 or -errno with e.
 */
int target_recreate(struct target *t, const struct job *j,
		    const atomic_int *stop, struct err_rec *e);
void target_free(struct target *t);

/* Memory alignment every I/O buffer satisfies (page size). */
unsigned target_buf_align(void);

#endif
