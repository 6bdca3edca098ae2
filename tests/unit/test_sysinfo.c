// SPDX-License-Identifier: MIT
/*
 * sysinfo reads a fake /proc and /sys built in a temporary directory: a
 * SCSI disk with a partition, an NVMe namespace whose model lives on the
 * controller, a device-mapper volume without a model, and a disk whose
 * files are missing or malformed. Nothing of the real machine is
 * compared, except that a real file is described through the fake tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysinfo.h"

struct tree {
	char root[PATH_MAX];
};

/* The directories above root/rel; path gets root/rel. */
static void mkparents(const char *root, const char *rel, char *path,
		      size_t len)
{
	char *p;

	snprintf(path, len, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
}

/* root/rel holding text. */
static void put_file(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	mkparents(root, rel, path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* root/rel a symbolic link to `to`, replacing what was there. */
static void put_link(const char *root, const char *rel, const char *to)
{
	char path[PATH_MAX];

	mkparents(root, rel, path, sizeof(path));
	unlink(path);
	assert_int_equal(symlink(to, path), 0);
}

#define SDA	"sys/devices/pci0000:00/0000:00:10.0/host0/target0:0:0/" \
		"0:0:0:0/block/sda"
#define NVME	"sys/devices/pci0000:00/0000:00:04.0/nvme/nvme0"
#define DM	"sys/devices/virtual/block/dm-0"

static void queue(const char *root, const char *disk, const char *lbs,
		  const char *pbs, const char *rot, const char *sched,
		  const char *wc)
{
	const struct {
		const char *name, *val;
	} q[] = {
		{ "logical_block_size", lbs }, { "physical_block_size", pbs },
		{ "rotational", rot }, { "scheduler", sched },
		{ "write_cache", wc },
	};
	char rel[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		if (!q[i].val)
			continue;
		snprintf(rel, sizeof(rel), "%s/queue/%s", disk, q[i].name);
		put_file(root, rel, q[i].val);
	}
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	const char *r;

	assert_non_null(t);
	snprintf(t->root, sizeof(t->root), "%s/iorig-sysinfo.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(t->root));
	r = t->root;

	/* A SCSI disk padded as SCSI pads, and its first partition. */
	put_file(r, SDA "/device/model", "ST4000NM0035-1V4  \n");
	put_file(r, SDA "/device/rev", "TN04\n");
	queue(r, SDA, "512\n", "4096\n", "1\n",
	      "mq-deadline kyber [bfq] none\n", "write back\n");
	put_file(r, SDA "/sda1/partition", "1\n");
	put_file(r, SDA "/sda1/queue/rotational", "0\n");	/* ignored */
	put_link(r, "sys/dev/block/8:0", "../../devices/pci0000:00/"
		 "0000:00:10.0/host0/target0:0:0/0:0:0:0/block/sda");
	put_link(r, "sys/dev/block/8:1", "../../devices/pci0000:00/"
		 "0000:00:10.0/host0/target0:0:0/0:0:0:0/block/sda/sda1");

	/* NVMe: the namespace's device link points at the controller. */
	put_file(r, NVME "/model", "Samsung SSD 980 PRO 1TB\n");
	put_file(r, NVME "/firmware_rev", "5B2QGXA7\n");
	queue(r, NVME "/nvme0n1", "4096\n", "4096\n", "0\n",
	      "[none] mq-deadline\n", "write through\n");
	put_link(r, NVME "/nvme0n1/device", "..");
	put_link(r, "sys/dev/block/259:0", "../../devices/pci0000:00/"
		 "0000:00:04.0/nvme/nvme0/nvme0n1");

	/* device-mapper: no device/, a scheduler without brackets. */
	queue(r, DM, "512\n", "512\n", "0\n", "none\n", "write back\n");
	put_link(r, "sys/dev/block/253:0",
		 "../../devices/virtual/block/dm-0");

	/* A disk whose attributes are missing or garbage. */
	queue(r, "sys/devices/virtual/block/odd", "lots\n", NULL, "2\n",
	      "\n", NULL);
	put_link(r, "sys/dev/block/7:9", "../../devices/virtual/block/odd");

	put_file(r, "proc/self/mountinfo",
		 "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		 "27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		 "40 27 0:45 / /mnt/my\\040disk rw master:2 - my\\040fs "
		 "/dev/my\\040src rw\n"
		 "41 27 259:0 / /data rw - xfs /dev/nvme0n1 rw\n");
	put_file(r, "proc/diskstats",
		 "   8       0 sda 100 2 800 50 200 3 1600 70 0 90 120 0 0 0 "
		 "0\n"
		 "   8       1 sda1 10 0 80 5 20 0 160 7 0 9 12\n"
		 " 259       0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11\n"
		 "   7       0 loop0 1 2\n");
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

static void test_partition_uses_disk(void **state)
{
	struct tree *t = *state;
	struct sysinfo_device d;

	assert_int_equal(sysinfo_device(t->root, 8, 1, &d), 0);
	assert_string_equal(d.name, "sda");
	assert_string_equal(d.model, "ST4000NM0035-1V4");
	assert_string_equal(d.firmware, "TN04");
	assert_int_equal(d.logical_block_size, 512);
	assert_int_equal(d.physical_block_size, 4096);
	assert_int_equal(d.rotational, 1);	/* the disk's, not sda1's */
	assert_string_equal(d.scheduler, "bfq");
	assert_string_equal(d.write_cache, "write back");

	assert_int_equal(sysinfo_device(t->root, 8, 0, &d), 0);
	assert_string_equal(d.name, "sda");
	assert_string_equal(d.scheduler, "bfq");
}

static void test_nvme(void **state)
{
	struct tree *t = *state;
	struct sysinfo_device d;

	assert_int_equal(sysinfo_device(t->root, 259, 0, &d), 0);
	assert_string_equal(d.name, "nvme0n1");
	assert_string_equal(d.model, "Samsung SSD 980 PRO 1TB");
	assert_string_equal(d.firmware, "5B2QGXA7");
	assert_int_equal(d.logical_block_size, 4096);
	assert_int_equal(d.rotational, 0);
	assert_string_equal(d.scheduler, "none");
	assert_string_equal(d.write_cache, "write through");
}

static void test_no_model(void **state)
{
	struct tree *t = *state;
	struct sysinfo_device d;

	assert_int_equal(sysinfo_device(t->root, 253, 0, &d), 0);
	assert_string_equal(d.name, "dm-0");
	assert_string_equal(d.model, "");
	assert_string_equal(d.firmware, "");
	assert_string_equal(d.scheduler, "none");
	assert_int_equal(d.logical_block_size, 512);
}

/* Unknown stays unknown: nothing is made up from garbage. */
static void test_bad_attrs(void **state)
{
	struct tree *t = *state;
	struct sysinfo_device d;

	assert_int_equal(sysinfo_device(t->root, 7, 9, &d), 0);
	assert_string_equal(d.name, "odd");
	assert_int_equal(d.logical_block_size, 0);
	assert_int_equal(d.physical_block_size, 0);
	assert_int_equal(d.rotational, -1);
	assert_string_equal(d.scheduler, "");
	assert_string_equal(d.write_cache, "");
	assert_string_equal(d.model, "");

	assert_int_equal(sysinfo_device(t->root, 1, 2, &d), -ENOENT);
	assert_string_equal(d.name, "");
	assert_int_equal(d.rotational, -1);
}

static void test_mountinfo(void **state)
{
	struct tree *t = *state;
	char fs[32], src[64];

	assert_int_equal(sysinfo_mount_fs(t->root, 8, 1, fs, sizeof(fs), src,
					  sizeof(src)), 0);
	assert_string_equal(fs, "ext4");
	assert_string_equal(src, "/dev/sda1");
	/* Octal escapes and optional fields before the separator. */
	assert_int_equal(sysinfo_mount_fs(t->root, 0, 45, fs, sizeof(fs), src,
					  sizeof(src)), 0);
	assert_string_equal(fs, "my fs");
	assert_string_equal(src, "/dev/my src");
	assert_int_equal(sysinfo_mount_fs(t->root, 259, 0, fs, sizeof(fs),
					  NULL, 0), 0);
	assert_string_equal(fs, "xfs");
	assert_int_equal(sysinfo_mount_fs(t->root, 9, 9, fs, sizeof(fs), src,
					  sizeof(src)), -ENOENT);
	assert_string_equal(fs, "");
	assert_string_equal(src, "");
	assert_int_equal(sysinfo_mount_fs("/nonexistent-iorig", 8, 1, fs,
					  sizeof(fs), NULL, 0), -ENOENT);
}

static void test_fs_names(void **state)
{
	(void)state;
	assert_string_equal(sysinfo_fs_name(0x58465342), "xfs");
	assert_string_equal(sysinfo_fs_name(0x01021994), "tmpfs");
	assert_string_equal(sysinfo_fs_name(0x9123683e), "btrfs");
	assert_null(sysinfo_fs_name(0x12345678));
}

static void cpuinfo(struct tree *t, const char *text, const char *want)
{
	char buf[128];

	put_file(t->root, "proc/cpuinfo", text);
	assert_int_equal(sysinfo_cpu_model(t->root, buf, sizeof(buf)),
			 want[0] ? 0 : -ENOENT);
	assert_string_equal(buf, want);
}

static void test_cpu_model(void **state)
{
	struct tree *t = *state;

	cpuinfo(t, "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu MHz\t\t: "
		"2000\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n\n"
		"processor\t: 1\nmodel name\t: other\n",
		"AMD EPYC 7B13 64-Core Processor");
	/* arm64: no name, an implementer and a part. */
	cpuinfo(t, "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: "
		"0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: "
		"0xd0c\n", "ARM Neoverse-N1");
	cpuinfo(t, "CPU implementer\t: 0x41\nCPU part\t: 0xfff\n",
		"ARM part 0xfff");
	cpuinfo(t, "CPU implementer\t: 0xc0\nCPU part\t: 0xac3\n",
		"Ampere part 0xac3");
	cpuinfo(t, "CPU implementer\t: 0x99\nCPU part\t: 0x1\n",
		"implementer 0x99 part 0x1");
	/* POWER: "cpu", but not "cpu MHz". */
	cpuinfo(t, "processor\t: 0\ncpu MHz\t: 1\ncpu\t\t: POWER9 (raw), "
		"altivec supported\n", "POWER9 (raw), altivec supported");
	cpuinfo(t, "processor\t: 0\nflags\t: fpu\nmodel name\t:\n", "");
}

static void test_host(void **state)
{
	struct tree *t = *state;
	struct sysinfo_host h;

	put_file(t->root, "proc/cpuinfo", "model name\t: Fake CPU\n");
	put_file(t->root, "proc/meminfo", "MemTotal:       16384 kB\n"
		 "MemFree:         1024 kB\n");
	sysinfo_host(t->root, &h);
	assert_string_equal(h.cpu_model, "Fake CPU");
	assert_int_equal(h.memory_bytes, 16384 * 1024);
	assert_true(h.ncpus >= 1);
	assert_true(h.kernel[0] != '\0');

	sysinfo_host("/nonexistent-iorig", &h);
	assert_string_equal(h.cpu_model, "");
	assert_int_equal(h.memory_bytes, 0);
}

/* A real file, described through the fake tree by its own st_dev. */
static void test_target_file(void **state)
{
	struct tree *t = *state;
	struct sysinfo_target a, b;
	char path[PATH_MAX + 16], rel[64], line[256];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/file", t->root);
	fd = open(path, O_CREAT | O_RDWR, 0644);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	put_link(t->root, rel, "../../devices/pci0000:00/0000:00:04.0/nvme/"
		 "nvme0/nvme0n1");
	snprintf(line, sizeof(line), "50 1 %u:%u / /x rw - testfs src rw\n",
		 major(st.st_dev), minor(st.st_dev));
	put_file(t->root, "proc/self/mountinfo", line);

	assert_int_equal(sysinfo_target_fd(t->root, fd, NULL, &a), 0);
	assert_int_equal(a.kind, SYSINFO_FILE);
	assert_string_equal(a.fs_type, "testfs");
	assert_true(a.has_device);
	assert_string_equal(a.dev.name, "nvme0n1");
	assert_string_equal(a.dev.model, "Samsung SSD 980 PRO 1TB");

	/* Same device: copied, not read again (the tree is gone now). */
	unlink(path);
	put_file(t->root, "proc/self/mountinfo", "");
	assert_int_equal(sysinfo_target_fd(t->root, fd, &a, &b), 0);
	assert_string_equal(b.fs_type, "testfs");
	assert_string_equal(b.dev.name, "nvme0n1");

	/* Not known to the fake sysfs or mountinfo: no device, and the file
	 * system from statfs when the table knows it. */
	assert_int_equal(sysinfo_target_fd("/nonexistent-iorig", fd, NULL,
					   &b), 0);
	assert_int_equal(b.kind, SYSINFO_FILE);
	assert_false(b.has_device);
	assert_int_equal(b.dev.rotational, -1);
	close(fd);
	assert_int_equal(sysinfo_target_fd(t->root, fd, NULL, &b), -EBADF);
}

static void test_diskstat(void **state)
{
	struct tree *t = *state;
	struct sysinfo_diskstat a, b, d;

	assert_int_equal(sysinfo_diskstat(t->root, "sda", &a), 0);
	assert_string_equal(a.name, "sda");
	assert_int_equal(a.rd_ios, 100);
	assert_int_equal(a.rd_merges, 2);
	assert_int_equal(a.rd_ticks, 50);
	assert_int_equal(a.wr_ios, 200);
	assert_int_equal(a.wr_merges, 3);
	assert_int_equal(a.wr_ticks, 70);
	assert_int_equal(a.io_ticks, 90);
	assert_int_equal(a.time_in_queue, 120);
	/* Older kernels: 11 counters, still read. */
	assert_int_equal(sysinfo_diskstat(t->root, "nvme0n1", &b), 0);
	assert_int_equal(b.io_ticks, 10);
	assert_int_equal(sysinfo_diskstat(t->root, "loop0", &b), -ENOENT);
	assert_int_equal(sysinfo_diskstat(t->root, "sd", &b), -ENOENT);

	b = a;
	b.rd_ios += 7;
	b.io_ticks += 30;
	b.wr_ticks = 0;		/* went backwards: 0, not 2^64 */
	sysinfo_diskstat_sub(&d, &b, &a);
	assert_string_equal(d.name, "sda");
	assert_int_equal(d.rd_ios, 7);
	assert_int_equal(d.io_ticks, 30);
	assert_int_equal(d.wr_ticks, 0);
	assert_int_equal(d.wr_ios, 0);
}

/* Two phases: a device watched in both adds up; one watched in one. */
static void test_disks(void **state)
{
	struct tree *t = *state;
	struct sysinfo_disks s = { 0 };

	assert_int_equal(sysinfo_disks_watch(&s, t->root, "sda", 1000), 0);
	assert_int_equal(sysinfo_disks_watch(&s, t->root, "nope", 1000),
			 -ENOENT);
	put_file(t->root, "proc/diskstats",
		 "8 0 sda 150 2 800 50 200 3 1600 70 0 90 120\n"
		 "259 0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11\n");
	/* Watched already: the start stays. */
	assert_int_equal(sysinfo_disks_watch(&s, t->root, "sda", 1500), 0);
	sysinfo_disks_stop(&s, t->root, 3000);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.d[0].sum.rd_ios, 50);
	assert_int_equal(s.d[0].wall_ns, 2000);

	assert_int_equal(sysinfo_disks_watch(&s, t->root, "nvme0n1", 4000),
			 0);
	assert_int_equal(sysinfo_disks_watch(&s, t->root, "sda", 4000), 0);
	put_file(t->root, "proc/diskstats",
		 "8 0 sda 160 2 800 50 200 3 1600 70 0 190 120\n"
		 "259 0 nvme0n1 1 2 3 4 9 6 7 8 9 10 11\n");
	sysinfo_disks_stop(&s, t->root, 5000);
	/* Not watched: stopping again changes nothing. */
	sysinfo_disks_stop(&s, t->root, 9000);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.d[0].sum.name, "sda");
	assert_int_equal(s.d[0].sum.rd_ios, 60);
	assert_int_equal(s.d[0].sum.io_ticks, 100);
	assert_int_equal(s.d[0].wall_ns, 3000);
	assert_string_equal(s.d[1].sum.name, "nvme0n1");
	assert_int_equal(s.d[1].sum.wr_ios, 4);
	assert_int_equal(s.d[1].wall_ns, 1000);
	sysinfo_disks_free(&s);
	assert_int_equal(s.n, 0);
}

#define T(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_partition_uses_disk),
		T(test_nvme),
		T(test_no_model),
		T(test_bad_attrs),
		T(test_mountinfo),
		T(test_fs_names),
		T(test_cpu_model),
		T(test_host),
		T(test_target_file),
		T(test_diskstat),
		T(test_disks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
