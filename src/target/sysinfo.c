// SPDX-License-Identifier: MIT
/*
 * The machine and the devices under the targets, from /proc and /sys.
 * Everything is read at run time; what is missing stays unknown.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpu.h"
#include "nvmedev.h"
#include "sgdev.h"
#include "sysinfo.h"

/* root + rel, or -ENAMETOOLONG. */
static int join(char *buf, size_t len, const char *root, const char *rel)
{
	int n = snprintf(buf, len, "%s%s", root ? root : "", rel);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Copy as much of src as fits, always terminated. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Blanks at both ends go: sysfs ends lines with \n, SCSI pads with ' '. */
static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' ||
		     s[n - 1] == '\t'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/* The first line of dir/rel, trimmed. Returns 0, or -errno (buf ""). */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = 0;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		ret = -EIO;
	}
	fclose(f);
	trim(buf);
	return ret;
}

static uint32_t read_u32(const char *dir, const char *rel)
{
	char buf[32], *end;
	unsigned long v;

	if (read_attr(dir, rel, buf, sizeof(buf)) || !buf[0])
		return 0;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

/* ---- the host ---- */

/*
 * /proc/cpuinfo keys that name the CPU, best first: x86, MIPS, POWER,
 * RISC-V. arm64 names none; its implementer and part are looked up below.
 */
static const char *const cpu_keys[] = {
	"model name", "cpu model", "cpu", "uarch",
};

struct cpu_id {
	unsigned id;
	const char *name;
};

/* arm64 "CPU implementer" codes. */
static const struct cpu_id arm_implementers[] = {
	{ 0x41, "ARM" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" },
	{ 0x46, "Fujitsu" }, { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },
	{ 0x50, "APM" }, { 0x51, "Qualcomm" }, { 0x61, "Apple" },
	{ 0xc0, "Ampere" }, { 0, NULL },
};

/* "CPU part" codes of implementer 0x41 (ARM). */
static const struct cpu_id arm_parts[] = {
	{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
	{ 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" },
	{ 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
	{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
	{ 0xd0c, "Neoverse-N1" }, { 0xd0d, "Cortex-A77" },
	{ 0xd40, "Neoverse-V1" }, { 0xd41, "Cortex-A78" },
	{ 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" },
	{ 0xd47, "Cortex-A710" }, { 0xd48, "Cortex-X2" },
	{ 0xd49, "Neoverse-N2" }, { 0xd4f, "Neoverse-V2" },
	{ 0, NULL },
};

static const char *cpu_id_name(const struct cpu_id *t, unsigned id)
{
	for (; t->name; t++)
		if (t->id == id)
			return t->name;
	return NULL;
}

/* "ARM Neoverse-N1", "ARM part 0xd8e", "implementer 0x99 part 0x1". */
static void arm_name(unsigned impl, unsigned part, char *buf, size_t len)
{
	const char *in = cpu_id_name(arm_implementers, impl);
	const char *pn = impl == 0x41 ? cpu_id_name(arm_parts, part) : NULL;

	if (in && pn)
		snprintf(buf, len, "%s %s", in, pn);
	else if (in)
		snprintf(buf, len, "%s part %#x", in, part);
	else
		snprintf(buf, len, "implementer %#x part %#x", impl, part);
}

/* Splits "key<blanks>: value" in place; NULL when not such a line. */
static char *cpuinfo_value(char *line)
{
	char *colon = strchr(line, ':');

	if (!colon)
		return NULL;
	*colon = '\0';
	trim(line);
	trim(colon + 1);
	return colon + 1;
}

int sysinfo_cpu_model(const char *root, char *buf, size_t len)
{
	size_t nkeys = sizeof(cpu_keys) / sizeof(cpu_keys[0]), k;
	size_t best = nkeys;
	char path[PATH_MAX], line[512], *v;
	long impl = -1, part = -1;
	FILE *f;

	buf[0] = '\0';
	if (join(path, sizeof(path), root, "/proc/cpuinfo"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && best) {
		v = cpuinfo_value(line);
		if (!v || !*v)
			continue;
		for (k = 0; k < best; k++) {
			if (strcmp(line, cpu_keys[k]))
				continue;
			copy_str(buf, len, v);
			best = k;
		}
		if (!strcmp(line, "CPU implementer") && impl < 0)
			impl = strtol(v, NULL, 0);
		if (!strcmp(line, "CPU part") && part < 0)
			part = strtol(v, NULL, 0);
	}
	fclose(f);
	if (best == nkeys && impl >= 0 && part >= 0)
		arm_name((unsigned)impl, (unsigned)part, buf, len);
	return buf[0] ? 0 : -ENOENT;
}

/* One "KEY: N kB" line of ROOT/proc/meminfo, in bytes; 0 unknown. */
static uint64_t meminfo(const char *root, const char *key)
{
	char path[PATH_MAX], line[128], k[64];
	uint64_t kib = 0, v;
	FILE *f;

	if (join(path, sizeof(path), root, "/proc/meminfo"))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %" SCNu64 " kB", k, &v) == 2 &&
		    !strcmp(k, key)) {
			kib = v;
			break;
		}
	fclose(f);
	return kib * 1024;
}

static uint64_t mem_total(const char *root)
{
	return meminfo(root, "MemTotal");
}

uint64_t sysinfo_mem_available(void)
{
	return meminfo("", "MemAvailable");
}

void sysinfo_host(const char *root, struct sysinfo_host *h)
{
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		copy_str(h->kernel, sizeof(h->kernel), u.release);
		copy_str(h->hostname, sizeof(h->hostname), u.nodename);
	}
	h->ncpus = n > 0 ? (unsigned)n : 1;
	sysinfo_cpu_model(root, h->cpu_model, sizeof(h->cpu_model));
	h->memory_bytes = mem_total(root);
}

/* ---- block devices ---- */

/* Where each figure may be, relative to the disk's sysfs directory. */
static const char *const model_attrs[] = {
	"device/model",		/* SCSI, ATA, NVMe controller */
	"device/name",		/* MMC/SD card */
};

static const char *const firmware_attrs[] = {
	"device/firmware_rev",	/* NVMe */
	"device/rev",		/* SCSI, ATA */
	"device/fwrev",		/* MMC/SD */
};

static const char *const serial_attrs[] = {
	"device/serial",	/* NVMe, MMC/SD, virtio */
	"serial",		/* virtio-blk's disk itself */
};

static void first_attr(const char *dir, const char *const *rel, size_t n,
		       char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!read_attr(dir, rel[i], buf, len) && buf[0])
			return;
	buf[0] = '\0';
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; a lone word is itself. */
static void pick_scheduler(const char *dir, char *buf, size_t len)
{
	char line[256], *open, *close;

	buf[0] = '\0';
	if (read_attr(dir, "queue/scheduler", line, sizeof(line)))
		return;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		copy_str(buf, len, open + 1);
	} else if (line[0] && !strchr(line, ' ')) {
		copy_str(buf, len, line);
	}
}

static void describe_disk(const char *dir, struct sysinfo_device *d)
{
	char buf[8];
	char *copy = strdup(dir);

	if (copy) {
		copy_str(d->name, sizeof(d->name), basename(copy));
		free(copy);
	}
	first_attr(dir, model_attrs, sizeof(model_attrs) /
		   sizeof(model_attrs[0]), d->model, sizeof(d->model));
	first_attr(dir, firmware_attrs, sizeof(firmware_attrs) /
		   sizeof(firmware_attrs[0]), d->firmware,
		   sizeof(d->firmware));
	first_attr(dir, serial_attrs, sizeof(serial_attrs) /
		   sizeof(serial_attrs[0]), d->serial, sizeof(d->serial));
	d->logical_block_size = read_u32(dir, "queue/logical_block_size");
	d->physical_block_size = read_u32(dir, "queue/physical_block_size");
	d->rotational = -1;
	if (!read_attr(dir, "queue/rotational", buf, sizeof(buf)) &&
	    (!strcmp(buf, "0") || !strcmp(buf, "1")))
		d->rotational = buf[0] - '0';
	pick_scheduler(dir, d->scheduler, sizeof(d->scheduler));
	read_attr(dir, "queue/write_cache", d->write_cache,
		  sizeof(d->write_cache));
}

int sysinfo_device(const char *root, unsigned maj, unsigned min,
		   struct sysinfo_device *d)
{
	char link[PATH_MAX], dir[PATH_MAX], rel[64];
	struct stat st;
	size_t n;

	memset(d, 0, sizeof(*d));
	d->rotational = -1;
	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", maj, min);
	if (join(link, sizeof(link), root, rel))
		return -ENAMETOOLONG;
	if (!realpath(link, dir))
		return -ENOENT;
	/* A partition's directory sits inside its disk's. */
	n = strlen(dir);
	if (n + sizeof("/partition") <= sizeof(dir)) {
		memcpy(dir + n, "/partition", sizeof("/partition"));
		if (!stat(dir, &st)) {
			while (n && dir[n - 1] != '/')
				n--;
			if (n > 1)
				n--;
		}
		dir[n] = '\0';
	}
	describe_disk(dir, d);
	return 0;
}

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++, o++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				    (s[3] - '0'));
			s += 3;
		} else {
			*o = *s;
		}
	}
	*o = '\0';
}

/*
 * A mountinfo line: "ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS...] - TYPE
 * SOURCE SUPEROPTS". Fills type and source when its device is maj:min.
 */
static bool mount_line(char *line, unsigned maj, unsigned min, char **type,
		       char **source)
{
	unsigned lmaj, lmin;
	char *sep, *save = NULL;

	if (sscanf(line, "%*u %*u %u:%u", &lmaj, &lmin) != 2 ||
	    lmaj != maj || lmin != min)
		return false;
	sep = strstr(line, " - ");
	if (!sep)
		return false;
	*type = strtok_r(sep + 3, " \n", &save);
	*source = strtok_r(NULL, " \n", &save);
	return *type != NULL;
}

int sysinfo_mount_fs(const char *root, unsigned maj, unsigned min,
		     char *fs, size_t fslen, char *src, size_t srclen)
{
	char path[PATH_MAX], line[4096], *type, *source = NULL;
	int ret = -ENOENT;
	FILE *f;

	fs[0] = '\0';
	if (src && srclen)
		src[0] = '\0';
	if (join(path, sizeof(path), root, "/proc/self/mountinfo"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (!mount_line(line, maj, min, &type, &source))
			continue;
		unescape(type);
		copy_str(fs, fslen, type);
		if (src && srclen && source) {
			unescape(source);
			copy_str(src, srclen, source);
		}
		ret = 0;
	}
	fclose(f);
	return ret;
}

static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{ EXT4_SUPER_MAGIC, "ext2/ext3/ext4" },	/* one magic for all */
	{ XFS_SUPER_MAGIC, "xfs" },
	{ BTRFS_SUPER_MAGIC, "btrfs" },
	{ F2FS_SUPER_MAGIC, "f2fs" },
	{ TMPFS_MAGIC, "tmpfs" },
	{ RAMFS_MAGIC, "ramfs" },
	{ OVERLAYFS_SUPER_MAGIC, "overlay" },
	{ FUSE_SUPER_MAGIC, "fuse" },
	{ NFS_SUPER_MAGIC, "nfs" },
	{ CIFS_SUPER_MAGIC, "cifs" },
	{ SMB2_SUPER_MAGIC, "smb2" },
	{ CEPH_SUPER_MAGIC, "ceph" },
	{ V9FS_MAGIC, "9p" },
	{ MSDOS_SUPER_MAGIC, "vfat" },
	{ EXFAT_SUPER_MAGIC, "exfat" },
	{ SQUASHFS_MAGIC, "squashfs" },
	{ HUGETLBFS_MAGIC, "hugetlbfs" },
	{ 0x2fc12fc1, "zfs" },
	{ 0xca451a4e, "bcachefs" },
};

const char *sysinfo_fs_name(unsigned long f_type)
{
	size_t i;

	for (i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++)
		if (fs_names[i].magic == (f_type & 0xffffffffUL))
			return fs_names[i].name;
	return NULL;
}

/*
 * A file's device: st_dev itself, or, for file systems that report an
 * anonymous device (btrfs), the block device the mount names as source.
 */
static void file_device(const char *root, int fd, struct sysinfo_target *t)
{
	char src[PATH_MAX], path[PATH_MAX];
	unsigned maj = major(t->devno), min = minor(t->devno);
	struct statfs sf;
	struct stat st;
	const char *name;

	if (sysinfo_mount_fs(root, maj, min, t->fs_type, sizeof(t->fs_type),
			     src, sizeof(src)) && !fstatfs(fd, &sf) &&
	    (name = sysinfo_fs_name((unsigned long)sf.f_type)))
		copy_str(t->fs_type, sizeof(t->fs_type), name);
	if (!sysinfo_device(root, maj, min, &t->dev)) {
		t->has_device = true;
		return;
	}
	if (strncmp(src, "/dev/", 5) || join(path, sizeof(path), root, src) ||
	    stat(path, &st) || !S_ISBLK(st.st_mode))
		return;
	t->has_device = !sysinfo_device(root, major(st.st_rdev),
					minor(st.st_rdev), &t->dev);
}

int sysinfo_target_fd(const char *root, int fd,
		      const struct sysinfo_target *prev,
		      struct sysinfo_target *t)
{
	struct stat st;
	char path[64];
	dev_t bdev;

	memset(t, 0, sizeof(*t));
	t->dev.rotational = -1;
	if (fstat(fd, &st))
		return -errno;
	t->kind = S_ISBLK(st.st_mode) ? SYSINFO_BLOCK : SYSINFO_FILE;
	t->devno = t->kind == SYSINFO_BLOCK ? st.st_rdev : st.st_dev;
	/* An NVMe generic char device: its namespace's block device; a
	 * SCSI generic one: its disk's. */
	if (S_ISCHR(st.st_mode) && !*root &&
	    (!nvmedev_chr_block(st.st_rdev, path, sizeof(path), &bdev) ||
	     !sgdev_chr_block(st.st_rdev, path, sizeof(path), &bdev))) {
		t->kind = SYSINFO_BLOCK;
		t->devno = bdev;
		st.st_rdev = bdev;
	}
	if (prev && prev->kind == t->kind && prev->devno == t->devno) {
		*t = *prev;
		return 0;
	}
	if (t->kind == SYSINFO_BLOCK)
		t->has_device = !sysinfo_device(root, major(st.st_rdev),
						minor(st.st_rdev), &t->dev);
	else
		file_device(root, fd, t);
	return 0;
}

/* ---- /proc/diskstats ---- */

int sysinfo_diskstat(const char *root, const char *name,
		     struct sysinfo_diskstat *s)
{
	char path[PATH_MAX], line[512], dev[64];
	unsigned long long v[11];
	int ret = -ENOENT;
	FILE *f;

	memset(s, 0, sizeof(*s));
	if (join(path, sizeof(path), root, "/proc/diskstats"))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* maj min name rd_ios rd_merges rd_sectors rd_ticks wr_ios
	 * wr_merges wr_sectors wr_ticks in_flight io_ticks time_in_queue */
	while (ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %63s %llu %llu %llu %llu %llu %llu "
			   "%llu %llu %llu %llu %llu", dev, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
			   &v[9], &v[10]) != 12 || strcmp(dev, name))
			continue;
		copy_str(s->name, sizeof(s->name), dev);
		s->rd_ios = v[0];
		s->rd_merges = v[1];
		s->rd_ticks = v[3];
		s->rd_sectors = v[2];
		s->wr_sectors = v[6];
		s->wr_ios = v[4];
		s->wr_merges = v[5];
		s->wr_ticks = v[7];
		s->io_ticks = v[9];
		s->time_in_queue = v[10];
		ret = 0;
	}
	fclose(f);
	return ret;
}

void sysinfo_diskstat_sub(struct sysinfo_diskstat *out,
			  const struct sysinfo_diskstat *b,
			  const struct sysinfo_diskstat *a)
{
	struct sysinfo_diskstat r;

	memcpy(r.name, b->name, sizeof(r.name));
	r.rd_ios = counter_sub0(b->rd_ios, a->rd_ios);
	r.rd_merges = counter_sub0(b->rd_merges, a->rd_merges);
	r.rd_ticks = counter_sub0(b->rd_ticks, a->rd_ticks);
	r.wr_ios = counter_sub0(b->wr_ios, a->wr_ios);
	r.wr_merges = counter_sub0(b->wr_merges, a->wr_merges);
	r.wr_ticks = counter_sub0(b->wr_ticks, a->wr_ticks);
	r.rd_sectors = counter_sub0(b->rd_sectors, a->rd_sectors);
	r.wr_sectors = counter_sub0(b->wr_sectors, a->wr_sectors);
	r.io_ticks = counter_sub0(b->io_ticks, a->io_ticks);
	r.time_in_queue = counter_sub0(b->time_in_queue, a->time_in_queue);
	*out = r;
}

static void diskstat_add(struct sysinfo_diskstat *dst,
			 const struct sysinfo_diskstat *d)
{
	dst->rd_ios += d->rd_ios;
	dst->rd_merges += d->rd_merges;
	dst->rd_ticks += d->rd_ticks;
	dst->wr_ios += d->wr_ios;
	dst->wr_merges += d->wr_merges;
	dst->wr_ticks += d->wr_ticks;
	dst->rd_sectors += d->rd_sectors;
	dst->wr_sectors += d->wr_sectors;
	dst->io_ticks += d->io_ticks;
	dst->time_in_queue += d->time_in_queue;
}

int sysinfo_disks_watch(struct sysinfo_disks *s, const char *root,
			const char *name, uint64_t now_ns)
{
	struct sysinfo_disk_use *u, *grown;
	struct sysinfo_diskstat now;
	unsigned i;
	int ret;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].sum.name, name))
			break;
	if (i < s->n && s->d[i].start_ns)
		return 0;
	ret = sysinfo_diskstat(root, name, &now);
	if (ret)
		return ret;
	if (i == s->n) {
		grown = realloc(s->d, (s->n + 1) * sizeof(*s->d));
		if (!grown)
			return -ENOMEM;
		s->d = grown;
		memset(&s->d[s->n], 0, sizeof(s->d[s->n]));
		copy_str(s->d[s->n].sum.name, sizeof(s->d[s->n].sum.name),
			 name);
		s->n++;
	}
	u = &s->d[i];
	u->start = now;
	u->start_ns = now_ns ? now_ns : 1;
	return 0;
}

void sysinfo_disks_stop(struct sysinfo_disks *s, const char *root,
			uint64_t now_ns)
{
	struct sysinfo_diskstat now, delta;
	struct sysinfo_disk_use *u;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		u = &s->d[i];
		if (!u->start_ns)
			continue;
		if (!sysinfo_diskstat(root, u->sum.name, &now)) {
			sysinfo_diskstat_sub(&delta, &now, &u->start);
			diskstat_add(&u->sum, &delta);
			u->wall_ns += now_ns > u->start_ns ?
				      now_ns - u->start_ns : 0;
		}
		u->start_ns = 0;
	}
}

double sysinfo_disk_util(const struct sysinfo_disk_use *u)
{
	double ms = (double)(u->wall_ns / 1000000);
	double busy = (double)u->sum.io_ticks;

	if (!(ms > 0))
		return 0.0;
	return busy >= ms ? 100.0 : 100.0 * busy / ms;
}

void sysinfo_disks_free(struct sysinfo_disks *s)
{
	free(s->d);
	s->d = NULL;
	s->n = 0;
}
