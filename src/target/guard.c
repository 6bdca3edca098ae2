// SPDX-License-Identifier: MIT
/*
 * Block device guards: is anything using, or stored on, a device that a job
 * is about to write? See guard.h. Devices are compared by number
 * (major:minor), never by name, so /dev/mapper/x, /dev/disk/by-id/... and
 * /dev/dm-0 are one device. Nothing here writes or keeps anything open.
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "guard.h"

/* The device and each of its partitions. */
struct guard_dev {
	dev_t dev;
	bool part;
	char name[NAME_MAX + 1];	/* sysfs name: sda, sda1, loop0p1 */
};

struct guard_set {
	struct guard_dev *devs;
	size_t n;
	unsigned depth;		/* loop devices looked through to get here */
};

/* Loop devices over loop devices: deeper than this is refused. */
#define GUARD_DEPTH_MAX	8

typedef int (*guard_fn)(const char *path, const struct guard_set *s,
			char *what, size_t len);

static int set_add(struct guard_set *s, dev_t dev, bool part,
		   const char *name)
{
	struct guard_dev *d = realloc(s->devs, (s->n + 1) * sizeof(*d));

	if (!d)
		return -ENOMEM;
	s->devs = d;
	d += s->n++;
	d->dev = dev;
	d->part = part;
	snprintf(d->name, sizeof(d->name), "%s", name);
	return 0;
}

static const struct guard_dev *set_find(const struct guard_set *s, dev_t dev)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->devs[i].dev == dev)
			return &s->devs[i];
	return NULL;
}

/* "it" or "its partition sda1", the subject of a finding. */
static const char *subject(const struct guard_dev *d, char *buf, size_t len)
{
	if (!d->part)
		return "it";
	snprintf(buf, len, "its partition %s", d->name);
	return buf;
}

/* The dev_t that a path names when it is a block device, else 0. */
static dev_t path_rdev(const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* The first line of a sysfs file, without its newline; false when the
 * file is not there (a loop device with nothing attached). */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "re");
	char *nl;

	if (!fp)
		return false;
	if (!fgets(buf, (int)len, fp))
		buf[0] = '\0';
	fclose(fp);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return true;
}

/* "MAJ:MIN" from a sysfs dev file. */
static int read_devno(const char *path, dev_t *dev)
{
	unsigned maj, min;
	FILE *f = fopen(path, "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

/* The device itself and every partition that sysfs lists under it. */
static int set_build(struct guard_set *s, dev_t dev, char *what, size_t len)
{
	char dir[64], path[PATH_MAX], *real, *base;
	struct dirent *de;
	dev_t pdev = 0;
	DIR *d;
	int ret;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	real = realpath(dir, NULL);
	d = real ? opendir(dir) : NULL;
	if (!d) {
		ret = -errno;
		snprintf(what, len, "reading %s", dir);
		free(real);
		return ret;
	}
	base = strrchr(real, '/');
	ret = set_add(s, dev, false, base ? base + 1 : real);
	free(real);
	while (!ret && (de = readdir(d))) {
		/* a partition is a directory: the device's attribute files
		 * and links need no look (no access() each) */
		if (de->d_name[0] == '.' ||
		    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir,
			 de->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		if (!read_devno(path, &pdev))
			ret = set_add(s, pdev, true, de->d_name);
	}
	closedir(d);
	return ret;
}

/*
 * Mounted, directly or through a partition. The source is compared too:
 * a btrfs mount shows an anonymous major:minor, not its device's.
 */
static int check_mounts(const char *path, const struct guard_set *s,
			char *what, size_t len)
{
	char *line = NULL, *f[16], *tok, *save, buf[NAME_MAX + 32];
	const struct guard_dev *d = NULL;
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	unsigned maj, min, n, i;
	size_t cap = 0;

	if (!fp) {
		snprintf(what, len, "reading /proc/self/mountinfo");
		return -errno;
	}
	while (!d && getline(&line, &cap, fp) > 0) {
		n = 0;
		for (tok = strtok_r(line, " \n", &save); tok && n < 16;
		     tok = strtok_r(NULL, " \n", &save))
			f[n++] = tok;
		/* id parent maj:min root mountpoint opts [tags] - type src */
		for (i = 5; i + 2 < n && strcmp(f[i], "-"); i++)
			;
		if (i + 2 >= n || sscanf(f[2], "%u:%u", &maj, &min) != 2)
			continue;
		d = set_find(s, makedev(maj, min));
		if (!d && path_rdev(f[i + 2]))
			d = set_find(s, path_rdev(f[i + 2]));
		if (d)
			snprintf(what, len, "%s is mounted on %s (%s)",
				 subject(d, buf, sizeof(buf)), f[4], f[i + 1]);
	}
	free(line);
	fclose(fp);
	return d ? GUARD_BUSY : 0;
}

/*
 * The first name in /proc/swaps that match(name, arg) takes, into found
 * (len bytes): 1, or 0 for none (a kernel without swap has no
 * /proc/swaps), or -errno with what.
 */
static int swaps_find(bool (*match)(const char *name, const void *arg),
		      const void *arg, char *found, size_t flen, char *what,
		      size_t len)
{
	char *line = NULL, *save, *name;
	FILE *fp = fopen("/proc/swaps", "re");
	size_t cap = 0;
	int r = 0;

	if (!fp && errno == ENOENT)
		return 0;
	if (!fp) {
		snprintf(what, len, "reading /proc/swaps");
		return -errno;
	}
	while (!r && getline(&line, &cap, fp) > 0) {
		name = strtok_r(line, " \t\n", &save);
		if (name && match(name, arg)) {
			snprintf(found, flen, "%s", name);
			r = 1;
		}
	}
	free(line);
	fclose(fp);
	return r;
}

static bool swap_in_set(const char *name, const void *arg)
{
	return path_rdev(name) && set_find(arg, path_rdev(name));
}

/* An active swap area on the device or one of its partitions. */
static int check_swaps(const char *path, const struct guard_set *s,
		       char *what, size_t len)
{
	char name[PATH_MAX], buf[NAME_MAX + 32];
	int r = swaps_find(swap_in_set, s, name, sizeof(name), what, len);

	if (r <= 0)
		return r;
	if (snprintf(what, len, "%s is an active swap area (%s)",
		     subject(set_find(s, path_rdev(name)), buf, sizeof(buf)),
		     name) < 0)
		what[0] = '\0';
	return GUARD_BUSY;
}

/* Held by a stacked device: device-mapper (LVM, crypt, multipath), md. */
static int check_holders(const char *path, const struct guard_set *s,
			 char *what, size_t len)
{
	char dir[96], dmname[128] = "", file[NAME_MAX + 64];
	char buf[NAME_MAX + 32];
	struct dirent *de;
	bool held = false;
	size_t i;
	FILE *fp;
	DIR *d;

	for (i = 0; i < s->n && !held; i++) {
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
			 major(s->devs[i].dev), minor(s->devs[i].dev));
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d)) && de->d_name[0] == '.')
			;
		held = de != NULL;
		if (held) {
			snprintf(file, sizeof(file), "/sys/class/block/%s/dm/"
				 "name", de->d_name);
			fp = fopen(file, "re");
			if (fp && fscanf(fp, "%127s", dmname) != 1)
				dmname[0] = '\0';
			if (fp)
				fclose(fp);
			snprintf(what, len, "%s is held by %s%s%s%s (a "
				 "device-mapper, LVM or md device built on it)",
				 subject(&s->devs[i], buf, sizeof(buf)),
				 de->d_name, dmname[0] ? " (" : "", dmname,
				 dmname[0] ? ")" : "");
		}
		closedir(d);
	}
	return held ? GUARD_BUSY : 0;
}

/*
 * An exclusive open fails with EBUSY while the kernel or another program
 * has claimed the device (a mount, md, dm, mkfs...): what the other checks
 * may have missed. Other failures are left to the probe that follows.
 */
static int check_excl(const char *path, const struct guard_set *s,
		      char *what, size_t len)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EBUSY)
		return 0;
	snprintf(what, len, "it is claimed by the kernel or another program "
		 "(an exclusive open, O_EXCL, fails with EBUSY)");
	return GUARD_BUSY;
}

/* What an attached loop device reads and writes; what a match needs of
 * it is asked when it first needs it (loop_stat, loop_status). */
struct guard_loop {
	const char *name;	/* loop3 */
	const char *file;	/* its backing_file in sysfs */
	bool asked_st, asked_id;
	struct stat st;		/* of that path, when it still names one */
	bool have_st;
	bool have_id;		/* ino, dev from LOOP_GET_STATUS64 */
	dev_t dev;
	ino_t ino;
};

typedef bool (*loop_match_fn)(struct guard_loop *l, const void *arg);

/* The kernel's encoding of a dev_t in loop_info64 (huge_encode_dev). */
static dev_t loop_decode_dev(uint64_t v)
{
	return makedev((unsigned)((v & 0xfff00) >> 8),
		       (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

/* The backing inode from the device itself: a renamed or deleted backing
 * file is still found. Best effort: sysfs's path is the fallback. */
static void loop_status(struct guard_loop *l)
{
	struct loop_info64 li;
	char path[NAME_MAX + 8];
	struct stat st;
	int fd;

	if (l->asked_id)
		return;
	l->asked_id = true;
	snprintf(path, sizeof(path), "/dev/%s", l->name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	    !ioctl(fd, LOOP_GET_STATUS64, &li)) {
		l->have_id = true;
		l->dev = loop_decode_dev(li.lo_device);
		l->ino = (ino_t)li.lo_inode;
	}
	close(fd);
}

/* What the backing file's path names now (stat), asked once. */
static void loop_stat(struct guard_loop *l)
{
	if (l->asked_st)
		return;
	l->asked_st = true;
	l->have_st = l->file[0] == '/' && !stat(l->file, &l->st);
}

/*
 * The first attached loop device for which match() holds, its name in
 * found; 1 when there is one, 0 when none, -errno when sysfs cannot be
 * read. A machine without loop devices has none.
 */
static int loop_find(loop_match_fn match, const void *arg, char *found,
		     size_t len)
{
	char path[NAME_MAX + 64], file[PATH_MAX + 16];
	struct guard_loop l;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir("/sys/block");
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		if (!read_line(path, file, sizeof(file)))
			continue;	/* not attached */
		memset(&l, 0, sizeof(l));
		l.name = de->d_name;
		l.file = file;
		if (match(&l, arg)) {
			snprintf(found, len, "%s (over %s)", l.name, l.file);
			ret = 1;
		}
	}
	closedir(d);
	return ret;
}

static bool loop_over_file(struct guard_loop *l, const void *arg)
{
	const struct stat *st = arg;

	loop_status(l);
	if (l->have_id)
		return l->dev == st->st_dev && l->ino == st->st_ino;
	loop_stat(l);
	return l->have_st && l->st.st_dev == st->st_dev &&
	       l->st.st_ino == st->st_ino;
}

static bool loop_over_set(struct guard_loop *l, const void *arg)
{
	loop_stat(l);
	return l->have_st && S_ISBLK(l->st.st_mode) &&
	       set_find(arg, l->st.st_rdev);
}

/*
 * A loop device attached over the device or a partition: it reads and
 * writes what a job would overwrite, mounted or not (loop devices leave
 * no holders link). Devices stacked further up need no walk: the lowest
 * one is busy already.
 */
static int check_loops(const char *path, const struct guard_set *s,
		       char *what, size_t len)
{
	char found[PATH_MAX + NAME_MAX + 16];
	int r = loop_find(loop_over_set, s, found, sizeof(found));

	if (r < 0) {
		snprintf(what, len, "reading /sys/block");
		return r;
	}
	if (r)
		snprintf(what, len, "it backs the attached loop device %s",
			 found);
	return r ? GUARD_BUSY : 0;
}

static int run_checks(const char *path, dev_t rdev, unsigned depth,
		      bool probe, char *what, size_t len);
static int file_swap(const struct stat *st, char *what, size_t len);

struct loop_other {
	const struct stat *st;
	const char *self;	/* the loop device's own name, not a match */
};

static bool loop_over_file_other(struct guard_loop *l, const void *arg)
{
	const struct loop_other *o = arg;

	return strcmp(l->name, o->self) && loop_over_file(l, o->st);
}

/*
 * The device is itself a loop device: what it writes to must not be live
 * either. Over a block device: that device's in-use checks, recursively
 * (a loop device over a mounted one). Over a file: another attached loop
 * device on the same file, or an active swap file.
 */
static int check_backing(const char *path, const struct guard_set *s,
			 char *what, size_t len)
{
	char sys[96], file[PATH_MAX + 16], inner[512];
	struct loop_other o;
	struct stat st;
	int r;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/loop/backing_file",
		 major(s->devs[0].dev), minor(s->devs[0].dev));
	if (!read_line(sys, file, sizeof(file)))
		return 0;
	if (file[0] != '/' || stat(file, &st))
		return 0;	/* deleted: nothing else can reach it */
	if (S_ISBLK(st.st_mode)) {
		if (s->depth >= GUARD_DEPTH_MAX) {
			snprintf(what, len, "following loop devices over "
				 "loop devices deeper than %d",
				 GUARD_DEPTH_MAX);
			return -ELOOP;
		}
		r = run_checks(file, st.st_rdev, s->depth + 1, false, inner,
			       sizeof(inner));
		if (r == GUARD_BUSY)
			snprintf(what, len, "it is a loop device over %s, "
				 "where %s", file, inner);
		else if (r < 0)
			snprintf(what, len, "%s (of %s, under this loop "
				 "device)", inner, file);
		return r;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	o.st = &st;
	o.self = s->devs[0].name;
	r = loop_find(loop_over_file_other, &o, inner, sizeof(inner));
	if (r < 0) {
		snprintf(what, len, "reading /sys/block");
		return r;
	}
	if (r) {
		snprintf(what, len, "it is a loop device over %s, which the "
			 "attached loop device %s uses too", file, inner);
		return GUARD_BUSY;
	}
	r = file_swap(&st, inner, sizeof(inner));
	if (r == GUARD_BUSY)
		snprintf(what, len, "it is a loop device over %s: %s", file,
			 inner);
	else if (r < 0)
		snprintf(what, len, "%s", inner);
	return r;
}

/* Append ", phrase" to what, unless it is there already. */
static void what_add(char *what, size_t len, const char *fmt, ...)
{
	char phrase[256];
	size_t n = strlen(what);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(phrase, sizeof(phrase), fmt, ap);
	va_end(ap);
	if (strstr(what, phrase))
		return;
	snprintf(what + n, len - n, "%s%s", n ? ", " : "", phrase);
}

/* What libblkid's superblock USAGE values mean, in words. */
static const struct {
	const char *usage;
	const char *fmt;
} usage_words[] = {
	{ "filesystem", "%s filesystem" },
	{ "raid", "%s signature (a RAID or volume-manager member)" },
	{ "crypto", "%s signature (an encrypted volume)" },
	{ NULL, "%s signature" },
};

static void what_add_superblock(blkid_probe pr, const char *type, char *what,
				size_t len)
{
	const char *usage = "", *label = NULL;
	char phrase[192];
	size_t i;

	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
	for (i = 0; usage_words[i].usage; i++)
		if (!strcmp(usage_words[i].usage, usage))
			break;
	snprintf(phrase, sizeof(phrase), usage_words[i].fmt, type);
	what_add(what, len, "%s%s%s%s", phrase, label ? " labelled '" : "",
		 label ? label : "", label ? "'" : "");
}

/* File systems, RAID members, swap, partition tables: every signature. */
static int probe_signatures(const char *path, const struct guard_set *s,
			    char *what, size_t len)
{
	const char *type;
	blkid_probe pr;
	int r;

	errno = 0;
	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		r = errno ? -errno : -EIO;
		snprintf(what, len, "probing it for signatures (libblkid)");
		return r;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* Each call returns the next signature; the partition chain runs
	 * after the superblock one, whose TYPE may still be set. */
	while ((r = blkid_do_probe(pr)) == 0) {
		if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			what_add(what, len, "%s partition table", type);
		else if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
			what_add_superblock(pr, type, what, len);
	}
	blkid_free_probe(pr);
	/* Only reached once the busy checks passed: the device is not in
	 * use, its first sectors just cannot be read (a failing disk). */
	if (r < 0) {
		snprintf(what, len, "its signatures cannot be read (libblkid "
			 "failed to probe it: a read error?)");
		return GUARD_UNREAD;
	}
	return what[0] ? GUARD_DATA : GUARD_CLEAR;
}

/* Most telling first: "mounted on /home" beats "ext4 filesystem". */
static const guard_fn busy_checks[] = {
	check_mounts, check_swaps, check_holders, check_loops,
	check_backing, check_excl,
};

static int run_checks(const char *path, dev_t rdev, unsigned depth,
		      bool probe, char *what, size_t len)
{
	struct guard_set s = { .depth = depth };
	size_t i;
	int ret;

	what[0] = '\0';
	ret = set_build(&s, rdev, what, len);
	for (i = 0; !ret && i < sizeof(busy_checks) / sizeof(busy_checks[0]);
	     i++)
		ret = busy_checks[i](path, &s, what, len);
	if (!ret && probe)
		ret = probe_signatures(path, &s, what, len);
	free(s.devs);
	return ret;
}

int guard_check_bdev(const char *path, char *what, size_t len)
{
	struct stat st;

	what[0] = '\0';
	if (stat(path, &st)) {
		snprintf(what, len, "stat");
		return -errno;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return run_checks(path, st.st_rdev, 0, true, what, len);
}

int guard_check_busy(const char *path, dev_t rdev, char *what, size_t len)
{
	return run_checks(path, rdev, 0, false, what, len);
}

/* An active swap file, found by inode in /proc/swaps. */
static bool swap_is_file(const char *name, const void *arg)
{
	const struct stat *st = arg;
	struct stat sw;

	return name[0] == '/' && !stat(name, &sw) && S_ISREG(sw.st_mode) &&
	       sw.st_dev == st->st_dev && sw.st_ino == st->st_ino;
}

static int file_swap(const struct stat *st, char *what, size_t len)
{
	char name[PATH_MAX];
	int r = swaps_find(swap_is_file, st, name, sizeof(name), what, len);

	if (r <= 0)
		return r;
	/* A name too long for what is cut, which says enough. */
	if (snprintf(what, len, "it is an active swap file (%s)", name) < 0)
		what[0] = '\0';
	return GUARD_BUSY;
}

int guard_check_file(const struct stat *st, char *what, size_t len)
{
	char found[PATH_MAX + NAME_MAX + 16];
	int r;

	what[0] = '\0';
	r = file_swap(st, what, len);
	if (r)
		return r;
	r = loop_find(loop_over_file, st, found, sizeof(found));
	if (r < 0)
		snprintf(what, len, "reading /sys/block");
	else if (r)
		snprintf(what, len, "it is the backing file of the attached "
			 "loop device %s", found);
	return r < 0 ? r : r ? GUARD_BUSY : 0;
}
