/* SPDX-License-Identifier: MIT */
#ifndef IORIG_SYSINFO_H
#define IORIG_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What the machine and the devices under the targets are, so that a result
 * explains itself later. Every reader takes `root`, the directory that
 * stands for "/" ("" for the running system), and reads only
 * ROOT/proc/... and ROOT/sys/..., so a unit test can point it at a fake
 * tree. What cannot be read stays unknown ("" for text, 0 or -1 for
 * numbers, as each field says): never guessed.
 */

#define SYSINFO_TEXT	64

struct sysinfo_host {
	char kernel[128];		/* uname -r */
	char hostname[128];
	unsigned ncpus;			/* online CPUs, at least 1 */
	char cpu_model[128];		/* "" unknown */
	uint64_t memory_bytes;		/* MemTotal; 0 unknown */
};

/* The whole disk under a target (a partition's parent disk). */
struct sysinfo_device {
	char name[32];			/* kernel's: "vda", "nvme0n1" */
	char model[SYSINFO_TEXT];	/* "" unknown or none (dm, loop) */
	char firmware[SYSINFO_TEXT];
	char serial[SYSINFO_TEXT];	/* "" unknown (the history keeps it;
					 * no report shows it) */
	uint32_t logical_block_size;	/* bytes; 0 unknown */
	uint32_t physical_block_size;
	int rotational;			/* 1, 0; -1 unknown */
	char scheduler[32];		/* the selected one; "" unknown */
	char write_cache[32];		/* "write back", "write through" */
};

enum sysinfo_kind {
	SYSINFO_NONE,			/* no file: the null engine */
	SYSINFO_FILE,			/* a file on a file system */
	SYSINFO_BLOCK,			/* a block device itself */
};

struct sysinfo_target {
	enum sysinfo_kind kind;
	char fs_type[32];		/* files only; "" unknown */
	bool has_device;		/* dev is known */
	dev_t devno;			/* st_dev (file), st_rdev (block) */
	struct sysinfo_device dev;
};

/*
 * Kernel, host name and CPU count of the running system (uname, sysconf),
 * then CPU model and memory from ROOT/proc/cpuinfo and ROOT/proc/meminfo.
 */
void sysinfo_host(const char *root, struct sysinfo_host *h);
/* MemAvailable of /proc/meminfo, in bytes: what can be allocated without
 * swapping (the kernel's estimate); 0 when unknown. */
uint64_t sysinfo_mem_available(void);

/* CPU model from ROOT/proc/cpuinfo: "model name" and the like, or for
 * arm64 the implementer and part. Returns 0 or -errno (buf then ""). */
int sysinfo_cpu_model(const char *root, char *buf, size_t len);

/*
 * The block device MAJ:MIN (ROOT/sys/dev/block/MAJ:MIN), described from
 * its whole disk. Returns 0, or -ENOENT when sysfs does not know it (d is
 * then zeroed with rotational -1).
 */
int sysinfo_device(const char *root, unsigned maj, unsigned min,
		   struct sysinfo_device *d);

/*
 * The file system type of the mount whose device is MAJ:MIN, from
 * ROOT/proc/self/mountinfo, and the mount's source ("/dev/sda1") when
 * src is not NULL. Returns 0 or -ENOENT.
 */
int sysinfo_mount_fs(const char *root, unsigned maj, unsigned min,
		     char *fs, size_t fslen, char *src, size_t srclen);

/* Name of a statfs f_type for common file systems; NULL if not known. */
const char *sysinfo_fs_name(unsigned long f_type);

/*
 * Describe the open file or block device fd (an NVMe generic char device
 * as its namespace's block device, on the running system). When prev describes a file
 * on the same device, its device and file system are copied rather than
 * read again (a job's many files). Returns 0 or -errno (fstat failed).
 */
int sysinfo_target_fd(const char *root, int fd,
		      const struct sysinfo_target *prev,
		      struct sysinfo_target *t);

/* One line of /proc/diskstats: the counters fio's disk_util reports. */
struct sysinfo_diskstat {
	char name[32];
	uint64_t rd_ios, rd_merges, rd_ticks;	/* ticks in ms */
	uint64_t wr_ios, wr_merges, wr_ticks;
	uint64_t rd_sectors, wr_sectors;	/* of 512 bytes */
	uint64_t io_ticks;			/* ms the device was busy */
	uint64_t time_in_queue;			/* weighted ms */
};

/*
 * The counters of device `name` from ROOT/proc/diskstats. Returns 0, or
 * -ENOENT when the device is not listed, or -errno.
 */
int sysinfo_diskstat(const char *root, const char *name,
		     struct sysinfo_diskstat *s);

/* out = b - a, field by field (0 where a counter went backwards). */
void sysinfo_diskstat_sub(struct sysinfo_diskstat *out,
			  const struct sysinfo_diskstat *b,
			  const struct sysinfo_diskstat *a);

/*
 * disk_util: the devices under the targets, each watched from when the
 * first job using it in a phase has its files ready to the end of the
 * phase, the counters' changes added up over the phases.
 */
struct sysinfo_disk_use {
	struct sysinfo_diskstat sum;	/* changes over the watched time */
	struct sysinfo_diskstat start;	/* when the watch began */
	uint64_t start_ns;		/* 0: not watched right now */
	uint64_t wall_ns;		/* watched time, summed */
};

struct sysinfo_disks {
	struct sysinfo_disk_use *d;
	unsigned n;
};

/*
 * Start watching device `name` at now_ns unless it is watched already.
 * Returns 0, or -ENOENT (not in ROOT/proc/diskstats), -ENOMEM.
 */
int sysinfo_disks_watch(struct sysinfo_disks *s, const char *root,
			const char *name, uint64_t now_ns);
/* End every watch at now_ns, adding what changed to the sums. */
void sysinfo_disks_stop(struct sysinfo_disks *s, const char *root,
			uint64_t now_ns);
void sysinfo_disks_free(struct sysinfo_disks *s);
/* The percentage of the watched time the device was busy (io_ticks),
 * at most 100, as fio's disk_util gives it; 0 when not watched. */
double sysinfo_disk_util(const struct sysinfo_disk_use *u);

#endif
