// SPDX-License-Identifier: MIT
/*
 * Files and block devices. Safety rules kept here:
 * - an existing file is never truncated or shrunk, only extended with real
 *   data up to the end of the job's region;
 * - a block device region must lie inside the device;
 * - nothing is written outside [offset, offset + size) of a file, except
 *   the layout that extends a file up to the end of that region.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "gen.h"
#include "target.h"

#define LAYOUT_CHUNK	(1u << 20)

unsigned target_buf_align(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (unsigned)ps : 4096;
}

static bool job_writes(const struct job *j)
{
	return j->rw != RW_READ && j->rw != RW_RANDREAD;
}

/* Logical block size of the device holding st_dev, from sysfs; 0: unknown */
static uint32_t sysfs_lbs(dev_t dev)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s"
			 "queue/logical_block_size", major(dev), minor(dev),
			 i ? "../" : "");
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
		if (v)
			break;
	}
	return (uint32_t)v;
}

/* O_DIRECT alignment of an existing file or of new files in a directory. */
static void file_dio_align(const char *path, struct target_file *tf)
{
	struct statx stx;

	tf->dio_align = 0;
	tf->dio_mem_align = 0;
	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		tf->dio_align = stx.stx_dio_offset_align;
		tf->dio_mem_align = stx.stx_dio_mem_align;
		return;
	}
	if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx) == 0)
		tf->dio_align = sysfs_lbs(makedev(stx.stx_dev_major,
						  stx.stx_dev_minor));
	if (!tf->dio_align)
		tf->dio_align = 512;
}

static int bdev_probe(struct target_file *tf, struct err_rec *e)
{
	uint64_t bytes;
	int fd, lbs = 0;

	fd = open(tf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err_set(e, tf->path, 0, "filename", "cannot open: %s",
			strerror(errno));
		return -errno;
	}
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0) {
		err_set(e, tf->path, 0, "filename", "cannot get the device "
			"size: %s", strerror(errno));
		close(fd);
		return -EINVAL;
	}
	if (ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs <= 0)
		lbs = 512;
	close(fd);
	tf->cur_size = bytes;
	tf->dio_align = (uint32_t)lbs;
	tf->dio_mem_align = (uint32_t)lbs;
	return 0;
}

static int probe_file(struct target_file *tf, struct err_rec *e)
{
	struct stat st;
	char *dir, *slash;

	if (stat(tf->path, &st) == 0) {
		tf->exists = true;
		if (S_ISBLK(st.st_mode)) {
			tf->is_bdev = true;
			return bdev_probe(tf, e);
		}
		if (!S_ISREG(st.st_mode)) {
			err_set(e, tf->path, 0, "filename", "not a regular "
				"file or a block device");
			return -EINVAL;
		}
		tf->cur_size = (uint64_t)st.st_size;
		file_dio_align(tf->path, tf);
		return 0;
	}
	if (errno != ENOENT) {
		err_set(e, tf->path, 0, "filename", "cannot stat: %s",
			strerror(errno));
		return -errno;
	}
	dir = strdup(tf->path);
	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		err_set(e, tf->path, 0, "filename", "cannot create: "
			"directory '%s' does not exist", dir);
		free(dir);
		return -ENOENT;
	}
	file_dio_align(dir, tf);
	free(dir);
	return 0;
}

/* Fill names: the filename list, else NAME.CLONE.N in directory. */
static int plan_names(struct target *t, const struct job *j)
{
	const char *dir = j->directory;
	char *list = NULL, *tok, *save = NULL;
	unsigned n, i = 0;
	int ret = -ENOMEM;

	if (j->filename) {
		list = strdup(j->filename);
		if (!list)
			return -ENOMEM;
		for (n = 1, tok = list; *tok; tok++)
			n += *tok == ':';
	} else {
		n = (unsigned)j->nrfiles;
	}
	t->files = calloc(n, sizeof(*t->files));
	if (!t->files)
		goto out;
	tok = list ? strtok_r(list, ":", &save) : NULL;
	for (i = 0; i < n; i++) {
		struct target_file *tf = &t->files[i];
		int r;

		tf->fd = -1;
		if (list && !tok)
			break;
		if (list && (tok[0] == '/' || !dir))
			r = asprintf(&tf->path, "%s", tok);
		else if (list)
			r = asprintf(&tf->path, "%s/%s", dir, tok);
		else
			r = asprintf(&tf->path, "%s%s%s.%u.%u", dir ? dir : "",
				     dir ? "/" : "", j->name, j->clone, i);
		if (r < 0) {
			tf->path = NULL;
			goto out;
		}
		if (list)
			tok = strtok_r(NULL, ":", &save);
	}
	t->nfiles = i;
	ret = 0;
out:
	if (!ret && t->nfiles == 0)
		ret = -EINVAL;
	free(list);
	return ret;
}

static uint64_t bs_largest(const struct job *j)
{
	return j->bs_max[0] > j->bs_max[1] ? j->bs_max[0] : j->bs_max[1];
}

static uint64_t bs_smallest(const struct job *j)
{
	return j->bs_min[0] < j->bs_min[1] ? j->bs_min[0] : j->bs_min[1];
}

/* Region start and length in each file. */
static int plan_region(struct target *t, const struct job *j,
		       struct err_rec *e)
{
	uint64_t align = bs_smallest(j), off, len = UINT64_MAX, avail;
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		if (j->offset_pct > 0) {
			off = (uint64_t)((long double)tf->cur_size *
					 j->offset_pct / 100);
			tf->offset = off / align * align;
		} else {
			tf->offset = j->offset;
		}
		avail = tf->cur_size > tf->offset ?
			tf->cur_size - tf->offset : 0;
		if (j->size_pct > 0)
			avail = (uint64_t)((long double)tf->cur_size *
					   j->size_pct / 100);
		else if (j->size)
			avail = j->size / t->nfiles;
		if (!avail) {
			err_set(e, tf->path, 0, "size", "%s; give size= "
				"to say how much of it the job uses",
				tf->exists ? "the file is empty or shorter "
				"than offset" : "the file does not exist yet");
			return -EINVAL;
		}
		if (tf->is_bdev && (tf->offset > tf->cur_size ||
				    avail > tf->cur_size - tf->offset)) {
			err_set(e, tf->path, 0, "size", "region [%" PRIu64
				", %" PRIu64 ") extends past the end of the "
				"device (%" PRIu64 " bytes)", tf->offset,
				tf->offset + avail, tf->cur_size);
			return -EINVAL;
		}
		if (avail < len)
			len = avail;
	}
	len = len / align * align;
	if (len < bs_largest(j)) {
		err_set(e, t->files[0].path, 0, "size", "the region of each "
			"file (%" PRIu64 " bytes) is smaller than the block "
			"size (%" PRIu64 ")", len, bs_largest(j));
		return -EINVAL;
	}
	t->file_region = len;
	t->region = len * t->nfiles;
	return 0;
}

static int check_dio(const struct target *t, const struct job *j,
		     struct err_rec *e)
{
	static const char *const dname[] = { "read", "write" };
	unsigned i, d;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];
		uint32_t a = tf->dio_align;

		if (tf->offset % a) {
			err_set(e, tf->path, 0, "offset", "%" PRIu64 " is not "
				"a multiple of %u, the O_DIRECT alignment of "
				"this target", tf->offset, a);
			return -EINVAL;
		}
		for (d = 0; d < DDIR_NR; d++) {
			if (j->bs_min[d] % a == 0 && j->bs_max[d] % a == 0)
				continue;
			err_set(e, tf->path, 0, "bs", "%s block size %" PRIu64
				"%s%.0" PRIu64 " is not a multiple of %u, the "
				"O_DIRECT alignment of this target", dname[d],
				j->bs_min[d], j->bs_min[d] != j->bs_max[d] ?
				"-" : "", j->bs_min[d] != j->bs_max[d] ?
				j->bs_max[d] : 0, a);
			return -EINVAL;
		}
		if (tf->dio_mem_align > target_buf_align()) {
			err_set(e, tf->path, 0, "direct", "needs buffers "
				"aligned to %u bytes, more than a page",
				tf->dio_mem_align);
			return -EINVAL;
		}
	}
	return 0;
}

int target_plan(struct target *t, const struct job *j, struct err_rec *e)
{
	unsigned i;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = plan_names(t, j);
	if (ret == -EINVAL)
		err_set(e, j->section_file, j->section_line, "filename",
			"expected one or more names separated by ':'");
	if (ret)
		goto err;
	for (i = 0; i < t->nfiles; i++) {
		ret = probe_file(&t->files[i], e);
		if (ret)
			goto err;
	}
	ret = plan_region(t, j, e);
	if (!ret && j->direct)
		ret = check_dio(t, j, e);
	if (ret)
		goto err;
	return 0;
err:
	target_free(t);
	return ret;
}

/* Write pseudo-random data over [from, to) of fd: real, non-sparse data. */
static int layout(int fd, uint64_t from, uint64_t to, const atomic_int *stop)
{
	struct gen_rng rng;
	uint64_t *buf, n, i;
	ssize_t w;
	int ret = 0;

	buf = malloc(LAYOUT_CHUNK);
	if (!buf)
		return -ENOMEM;
	gen_rng_seed(&rng, from ^ 0x6c61796f7574ull);
	while (from < to) {
		if (stop && atomic_load(stop)) {
			ret = -EINTR;
			break;
		}
		n = to - from < LAYOUT_CHUNK ? to - from : LAYOUT_CHUNK;
		/* Fresh data per chunk: nothing for dedupe or compression. */
		for (i = 0; i < (n + 7) / 8; i++)
			buf[i] = gen_rng_next(&rng);
		w = pwrite(fd, buf, n, (off_t)from);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		from += (uint64_t)w;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(buf);
	return ret;
}

static int open_flags(const struct job *j, bool rw)
{
	int fl = O_CLOEXEC | (rw ? O_RDWR : O_RDONLY);

	if (j->direct)
		fl |= O_DIRECT;
	if (j->sync == SYNC_SYNC)
		fl |= O_SYNC;
	else if (j->sync == SYNC_DSYNC)
		fl |= O_DSYNC;
	return fl;
}

static void apply_fadvise(const struct target *t, const struct target_file *tf,
			  const struct job *j)
{
	static const int advice[] = {
		[FADV_SEQUENTIAL] = POSIX_FADV_SEQUENTIAL,
		[FADV_RANDOM] = POSIX_FADV_RANDOM,
		[FADV_NOREUSE] = POSIX_FADV_NOREUSE,
		[FADV_DONTNEED] = POSIX_FADV_DONTNEED,
		[FADV_WILLNEED] = POSIX_FADV_WILLNEED,
	};
	int h = j->fadvise_hint;

	if (j->invalidate && tf->is_bdev && ioctl(tf->fd, BLKFLSBUF, 0) < 0)
		fprintf(stderr, "iorig: warning: %s: BLKFLSBUF failed (%s); "
			"dropping the region's page cache with "
			"POSIX_FADV_DONTNEED instead\n", tf->path,
			strerror(errno));
	if (j->invalidate)
		posix_fadvise(tf->fd, (off_t)tf->offset,
			      (off_t)t->file_region, POSIX_FADV_DONTNEED);
	if (h == FADV_NONE)
		return;
	if (h == FADV_AUTO)
		h = (j->rw == RW_RANDREAD || j->rw == RW_RANDWRITE ||
		     j->rw == RW_RANDRW) ? FADV_RANDOM : FADV_SEQUENTIAL;
	posix_fadvise(tf->fd, (off_t)tf->offset, (off_t)t->file_region,
		      advice[h]);
}

/* Create (O_EXCL) or open a regular file and extend it to the region. */
static int open_regular(struct target_file *tf, const struct target *t,
			const struct job *j, const atomic_int *stop,
			struct err_rec *e)
{
	uint64_t end = tf->offset + t->file_region, size;
	struct stat st;
	int fd, ret;

	/* Long enough already: nothing to write, so a read job needs no
	 * write access to it. */
	if (stat(tf->path, &st) == 0 && (uint64_t)st.st_size >= end)
		return 0;
	fd = open(tf->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		tf->created = true;
	} else if (errno == EEXIST) {
		fd = open(tf->path, O_RDWR | O_CLOEXEC);
	}
	if (fd < 0) {
		ret = -errno;
		err_set(e, tf->path, 0, "filename", "cannot open: %s",
			strerror(errno));
		return ret;
	}
	size = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	ret = 0;
	if (size < end)
		ret = layout(fd, size > tf->offset ? size : tf->offset, end,
			     stop);
	close(fd);
	if (ret) {
		err_set(e, tf->path, 0, "size", "laying out %" PRIu64
			" bytes failed: %s", end - size, strerror(-ret));
		return ret;
	}
	return 0;
}

int target_open(struct target *t, const struct job *j, const atomic_int *stop,
		struct err_rec *e)
{
	unsigned i;
	int ret;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		if (!tf->is_bdev) {
			ret = open_regular(tf, t, j, stop, e);
			if (ret)
				goto err;
		}
		tf->fd = open(tf->path, open_flags(j, job_writes(j)));
		if (tf->fd < 0) {
			ret = -errno;
			err_set(e, tf->path, 0, "filename", "cannot open%s: %s",
				j->direct ? " with O_DIRECT" : "",
				strerror(errno));
			goto err;
		}
		apply_fadvise(t, tf, j);
	}
	return 0;
err:
	target_close(t, false);
	return ret;
}

void target_close(struct target *t, bool unlink_created)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		if (tf->fd >= 0)
			close(tf->fd);
		tf->fd = -1;
		if (unlink_created && tf->created && !tf->is_bdev)
			unlink(tf->path);
	}
}

void target_free(struct target *t)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	t->files = NULL;
	t->nfiles = 0;
}
