/* SPDX-License-Identifier: MIT */
#ifndef IORIG_NVMEDEV_H
#define IORIG_NVMEDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * NVMe namespaces and their controllers, by the controller's own data:
 * Identify Controller, Identify Namespace and the SMART / Health log,
 * read with libnvme's admin commands (NVME_IOCTL_ADMIN_CMD) on an open
 * namespace, block device (/dev/nvmeXnY) or generic char device
 * (/dev/ngXnY) alike; and the map from a generic char device to its
 * namespace's block device, which the write guards check. Admin commands
 * need CAP_SYS_ADMIN: without it a reader returns -EACCES or -EPERM.
 * Every reader returns 0 or -errno; what it could not read stays zero.
 */

/* What Identify Controller and Identify Namespace say of a namespace. */
struct nvmedev_ident {
	char model[41];		/* mn, spaces at the end removed */
	char serial[21];	/* sn */
	char firmware[9];	/* fr */
	uint32_t nsid;
	uint64_t nsze;		/* namespace size in blocks */
	uint8_t lbaf;		/* the LBA format in use (flbas) */
	uint32_t lba_size;	/* data bytes of a block */
	uint16_t ms;		/* metadata bytes of a block */
	bool extended;		/* metadata inside the block (extended LBA) */
	uint8_t pi_type;	/* 0: no protection information; 1-3 */
	bool pi_first;		/* PI in the first bytes of the metadata */
	bool zoned;		/* the kernel's queue/zoned is not "none"; no
				 * block device: Zoned Identify answers */
	uint8_t elpe;		/* Identify Controller: error log entries
				 * the controller keeps, less one */
};

/* The SMART / Health Information log (log page 02h), the controller's. */
struct nvmedev_health {
	uint8_t critical_warning;	/* bits: spare, temperature, ... */
	int temperature;		/* composite, degrees Celsius */
	uint8_t avail_spare;		/* per cent */
	uint8_t percentage_used;	/* per cent of the rated endurance */
	/* 128-bit counters, held to 64 bits (UINT64_MAX: more) */
	uint64_t data_units_read;	/* thousands of 512-byte units */
	uint64_t data_units_written;
	uint64_t host_read_commands;
	uint64_t host_write_commands;
	uint64_t media_errors;
	uint64_t error_log_entries;
	uint64_t power_on_hours;
	uint64_t unsafe_shutdowns;
};

/* The namespace fd is open on (NVME_IOCTL_ID), and its identify data. */
int nvmedev_ident(int fd, struct nvmedev_ident *id);
/* The controller's SMART / Health log, through the namespace fd. */
int nvmedev_health(int fd, struct nvmedev_health *h);

/*
 * Is the char device rdev an NVMe generic char device? Then its
 * namespace's block device: its path in /dev (path, len) and number.
 * 0, -ENODEV (not an NVMe generic device), or -ENOENT (no block device:
 * the namespace has none, such as one of a command set the kernel does
 * not take as a block device).
 */
int nvmedev_chr_block(dev_t rdev, char *path, size_t len, dev_t *bdev);

/* Is the block device rdev an NVMe namespace (its kernel name nvme*)? */
bool nvmedev_is_ns(dev_t rdev);

/* An entry of the controller's Error Information log (log page 01h). */
struct nvmedev_errent {
	uint64_t count;		/* error_count: its number, from 1 */
	uint64_t lba;		/* the first LBA in error, where it applies */
	uint32_t nsid;		/* the namespace, where it applies */
	uint16_t sqid, cmdid;	/* the command's; 0xffff: no command */
	uint16_t status;	/* the command's status, SCT << 8 | SC */
	uint16_t pel;		/* parameter error location: bit << 8 | byte */
};

#define NVMEDEV_ERRS_MAX 16

/*
 * Of the n entries of an error log page (log, in the controller's layout),
 * those numbered above since (the SMART log's error_log_entries before the
 * run): the errors logged during it, newest first, at most max, into out.
 * Their count.
 */
unsigned nvmedev_errors_since(const void *log, unsigned n, uint64_t since,
			      struct nvmedev_errent *out, unsigned max);

/*
 * The NVMe namespaces under a run's targets (device identity and health,
 * beyond fio): each one's identify data and its controller's health log
 * when a job first opened it, and again after the run's I/O.
 */
struct nvmedev_dev {
	char name[32];			/* "nvme0n1"; no block device: "ng0n5" */
	char target[128];		/* the first target on it, as named */
	struct nvmedev_ident id;
	bool have_before, have_after;
	struct nvmedev_health before, after;
	/* the error log's entries logged during the run (the health log's
	 * error_log_entries grew), newest first; at most NVMEDEV_ERRS_MAX
	 * and the entries the controller keeps */
	struct nvmedev_errent errs[NVMEDEV_ERRS_MAX];
	unsigned nerrs;
	int err;			/* the admin command's -errno; 0 */
};

struct nvmedev_set {
	struct nvmedev_dev *d;
	unsigned n;
};

/*
 * The open target fd (named path) is an NVMe namespace (a block device
 * nvme*, or its generic char device): add it to s, with its identify data
 * and the health log now, unless s has it. Returns its index, -ENODEV
 * (not NVMe), -ENOMEM; an admin command that fails leaves the entry with
 * err set.
 */
int nvmedev_watch(struct nvmedev_set *s, int fd, const char *path);
/* The health log of every namespace of s again (opened read-only by its
 * block device's name): the "after" figures; when its error_log_entries
 * grew, the error log's new entries (errs). */
void nvmedev_stop(struct nvmedev_set *s);
void nvmedev_set_free(struct nvmedev_set *s);

/* b - a for the counters (0 where one went backwards); the rest of out
 * (warning, temperature, spare, wear) is b's. */
void nvmedev_health_sub(struct nvmedev_health *out,
			const struct nvmedev_health *b,
			const struct nvmedev_health *a);

/* The protection information check flags of pi_chk (GUARD, REFTAG,
 * APPTAG) as NVMe's PRCHK bits (bits 2-0 of PRINFO). */
enum {
	NVMEDEV_PRCHK_REF = 1u << 0,
	NVMEDEV_PRCHK_APP = 1u << 1,
	NVMEDEV_PRCHK_GUARD = 1u << 2,
};

/* An NVMe completion status (SCT << 8 | SC) in words, or NULL. */
const char *nvmedev_status_text(unsigned status);

#endif
