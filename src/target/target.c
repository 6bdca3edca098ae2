// SPDX-License-Identifier: MIT
/*
 * Files and block devices. Safety rules kept here:
 * - an existing file is never truncated or shrunk, only extended with real
 *   data up to the end of the job's region;
 * - a block device region must lie inside the device;
 * - nothing is written outside [offset, offset + size) of a file, except
 *   the layout that extends a file up to the end of that region;
 * - the layout writes only where a file holds no data: past its end, and
 *   (for a job that reads) into holes and unwritten extents of the region;
 * - a job that writes to a block device is refused when the device is in
 *   use, or holds data and allow_destructive is not set (guard.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "chrdev.h"
#include "door.h"
#include "gen.h"
#include "guard.h"
#include "layout.h"
#include "defines.h"
#include "path.h"
#include "target.h"
#include "value.h"
#include "zbd.h"


unsigned target_buf_align(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (unsigned)ps : 4096;
}

/* verify_only=1 writes nothing, whatever rw says. */
static bool job_writes(const struct job *j)
{
	if (j->eng.engine_changes_files)
		return true;
	return !j->vfy.verify_only && rw_changes_data(j->io.rw);
}

/* Reads or trims: wants data in its region, as a trim of a hole discards
 * nothing (its files are laid out as a reader's). */
static bool job_reads(const struct job *j)
{
	return rw_dirs(j->io.rw) & ((1u << DDIR_READ) | (1u << DDIR_TRIM));
}

/* Clones of a job with a filename= list share its files: one warning. */
static bool warns_for_files(const struct job *j)
{
	return !j->target.filename || j->plan.clone == 0;
}

/* A warning of target_open: on t->warn, else straight to stderr. */
static void twarn(const struct target *t, const char *code,
		  const struct job *j, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void twarn(const struct target *t, const char *code,
		  const struct job *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (t->warn) {
		warn_vadd(t->warn, code, j->desc.name, fmt, ap);
	} else {
		fputs("iorig: warning: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
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
	/* Another disk under the same number (hot-plug) has another. */
	if (ioctl(fd, BLKGETDISKSEQ, &tf->diskseq) < 0)
		tf->diskseq = 0;
	close(fd);
	tf->cur_size = bytes;
	tf->dio_align = (uint32_t)lbs;
	tf->dio_mem_align = (uint32_t)lbs;
	return 0;
}

/* What the path names now, for the opens to compare with. */
static void id_set(struct target_file *tf, const struct stat *st)
{
	tf->have_id = true;
	tf->dev = st->st_dev;
	tf->ino = st->st_ino;
	tf->type = st->st_mode & S_IFMT;
	tf->rdev = S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode) ?
		   st->st_rdev : 0;
}

/*
 * filetype= (a later fio's): fio then takes every file as that type
 * without its stat; iorig stats them anyway, and refuses a file of
 * another type (a new file is a regular one) rather than misread it.
 */
static int check_filetype(const struct target_file *tf, const struct job *j,
			  mode_t mode, struct err_rec *e)
{
	static const char *const word[] = {
		[FILETYPE_NONE] = "none", [FILETYPE_FILE] = "file",
		[FILETYPE_BLOCK] = "block", [FILETYPE_CHAR] = "char",
	};
	int is = S_ISREG(mode) ? FILETYPE_FILE : S_ISBLK(mode) ?
		 FILETYPE_BLOCK : S_ISCHR(mode) ? FILETYPE_CHAR : -1;

	if (j->target.filetype == FILETYPE_NONE || j->target.filetype == is)
		return 0;
	err_set(e, tf->path, 0, "filetype", "filetype=%s, but this is %s; "
		"fio would take it as %s without looking (expected: "
		"filetype=%s)", word[j->target.filetype],
		is == FILETYPE_FILE ? (tf->exists ? "a regular file" :
				       "a new regular file") :
		is == FILETYPE_BLOCK ? "a block device" :
		is == FILETYPE_CHAR ? "a character device" : "another type",
		word[j->target.filetype], is < 0 ? "none" : word[is]);
	return -EINVAL;
}

static int probe_file(struct target_file *tf, const struct job *j,
		      struct err_rec *e)
{
	struct stat st;
	char *dir;
	int ret;

	tf->is_link = lstat(tf->path, &st) == 0 && S_ISLNK(st.st_mode);
	if (stat(tf->path, &st) == 0) {
		tf->exists = true;
		id_set(tf, &st);
		if ((ret = check_filetype(tf, j, st.st_mode, e)))
			return ret;
		if ((ret = chrdev_plan(tf, j, &st, e)) <= 0)
			return ret;
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
	if (errno == ENOENT && tf->is_link) {
		err_set(e, tf->path, 0, "filename", "a symbolic link to a "
			"file that does not exist (dangling); expected an "
			"existing file or device, or a path where a new file "
			"may be created (iorig creates no file through a "
			"symbolic link)");
		return -ENOENT;
	}
	if (errno != ENOENT) {
		err_set(e, tf->path, 0, "filename", "cannot stat: %s",
			strerror(errno));
		return -errno;
	}
	if ((ret = check_filetype(tf, j, S_IFREG, e)))
		return ret;
	if ((ret = chrdev_plan(tf, j, NULL, e)) <= 0)
		return ret;
	if (!j->target.allow_file_create) {
		err_set(e, tf->path, 0, "allow_file_create", "the file does "
			"not exist, and allow_file_create=0 says not to create "
			"it; expected an existing file or device");
		return -ENOENT;
	}
	dir = path_dir(tf->path);
	if (!dir)
		return -ENOMEM;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		err_set(e, tf->path, 0, "filename", "cannot create: "
			"directory '%s' does not exist", dir);
		free(dir);
		return -ENOENT;
	}
	tf->dir_dev = st.st_dev;
	tf->dir_ino = st.st_ino;
	file_dio_align(dir, tf);
	free(dir);
	return 0;
}

/*
 * The next name of a filename= list at *cur, NULL after the last: names
 * are separated by ':', and "\:" is a ':' inside a name (as in
 * /dev/disk/by-path names). Unescapes in place; empty names are skipped.
 */
static char *name_next(char **cur)
{
	char *p = *cur, *name, *out;

	while (*p == ':')
		p++;
	if (!*p)
		return NULL;
	name = out = p;
	for (; *p && *p != ':'; p++) {
		if (p[0] == '\\' && p[1] == ':')
			p++;
		*out++ = *p;
	}
	*cur = *p ? p + 1 : p;
	*out = '\0';
	return name;
}

/* An I/O request names its file in 16 bits (io_req.file). */
#define TARGET_FILES_MAX	65535u

/*
 * A generated name: filename_format (default $jobname.$jobnum.$filenum)
 * with its words filled, in directory; $jobname is the section's name,
 * which a name= in it does not change (fio's naming). $clientuid is the
 * MPI rank under iorig-mpi, else empty: iorig has no client/server mode.
 * Returns asprintf's count, -1 without memory.
 */
static int format_name(char **out, const char *dir, const struct job *j,
		       unsigned filenum)
{
	const char *f = j->target.filename_format ? j->target.filename_format :
			"$jobname.$jobnum.$filenum";
	char *buf = NULL;
	size_t len = 0, n;
	FILE *m = open_memstream(&buf, &len);
	int r = -1;

	if (!m)
		return -1;
	if (dir)
		fprintf(m, "%s/", dir);
	while (*f) {
		n = *f == '$' ? path_fmt_word(f) : 0;
		if (!n) {
			fputc(*f++, m);
			continue;
		}
		if (!strncasecmp(f, "$jobname", n))	/* as fio: the section's */
			fputs(j->plan.section_name ? j->plan.section_name :
			      j->desc.name, m);
		else if (!strncasecmp(f, "$jobnum", n))
			fprintf(m, "%u", j->plan.clone);
		else if (!strncasecmp(f, "$filenum", n))
			fprintf(m, "%u", filenum);
		else if (defines_get("RANK"))	/* $clientuid */
			fputs(defines_get("RANK"), m);
		f += n;		/* $clientuid alone: nothing */
	}
	if (fclose(m) == 0 && buf) {
		*out = buf;
		return (int)len;
	}
	free(buf);
	return r;
}

/* Fill names: the filename list, else filename_format in directory. */
static int plan_names(struct target *t, const struct job *j)
{
	const char *dir = j->target.directory;
	char *list = NULL, *tok = NULL, *cur = NULL;
	unsigned n, i = 0;
	int ret = -ENOMEM;

	if (j->target.filename) {
		list = strdup(j->target.filename);
		if (!list)
			return -ENOMEM;
		for (n = 1, cur = list; *cur; cur++)
			n += *cur == ':';
		cur = list;
		tok = name_next(&cur);
	} else {
		n = (unsigned)j->target.nrfiles;
	}
	t->files = calloc(n, sizeof(*t->files));
	if (!t->files)
		goto out;
	for (i = 0; i < n; i++) {
		struct target_file *tf = &t->files[i];
		int r;

		tf->fd = -1;
		tf->zbd_fd = -1;
		if (list && !tok)
			break;
		if (list && (tok[0] == '/' || !dir))
			r = asprintf(&tf->path, "%s", tok);
		else if (list)
			r = asprintf(&tf->path, "%s/%s", dir, tok);
		else
			r = format_name(&tf->path, dir, j, i);
		if (r < 0) {
			tf->path = NULL;
			goto out;
		}
		if (list)
			tok = name_next(&cur);
	}
	t->nfiles = i;
	ret = 0;
out:
	if (!ret && (t->nfiles == 0 || t->nfiles > TARGET_FILES_MAX))
		ret = -EINVAL;
	free(list);
	return ret;
}

static uint64_t bs_smallest(const struct job *j)
{
	uint64_t m = j->io.bs_min[0];
	unsigned d;

	for (d = 1; d < DDIR_NR; d++)
		if (j->io.bs_min[d] < m)
			m = j->io.bs_min[d];
	return m;
}

/* The largest offset a file may have: off_t is signed 64-bit. */
#define TARGET_OFF_MAX	((uint64_t)INT64_MAX)

/*
 * Region lengths are whole multiples of this: the smallest block size, or
 * for a job that verifies, its one write block size (blocks are numbered
 * across the files: verify_where).
 */
static uint64_t region_unit(const struct job *j)
{
	if (j->vfy.verify)		/* not VERIFY_NONE */
		return j->io.bs_min[DDIR_WRITE];
	return bs_smallest(j);
}

static uint64_t lcm64(uint64_t a, uint64_t b)
{
	uint64_t x = a, y = b, r;

	while (y) {
		r = x % y;
		x = y;
		y = r;
	}
	return a / x * b;
}

/*
 * Region start in one file (fio's meaning): offset, plus clone times
 * offset_increment; either may be a percentage of the file's size, and
 * then the sum is rounded up to offset_align (default: the smallest block
 * size). 0, or -EINVAL with e filled.
 */
static int plan_offset(struct target_file *tf, const struct job *j,
		       struct err_rec *e)
{
	uint64_t align = j->target.offset_align ? j->target.offset_align :
		bs_smallest(j);
	long double off = j->target.offset, inc = j->target.offset_increment;
	bool pct = j->target.offset_pct > 0 ||
		j->target.offset_increment_pct > 0;

	if (j->target.file_append && !tf->is_bdev) { /* fio: the file's end */
		tf->offset = tf->cur_size;
		return 0;
	}
	if (j->target.offset_pct > 0)
		off = (long double)tf->cur_size * j->target.offset_pct / 100;
	if (j->target.offset_increment_pct > 0)
		inc = (long double)tf->cur_size *
			j->target.offset_increment_pct /
		      100;
	off = (long double)(uint64_t)off + (long double)j->plan.clone *
	      (long double)(uint64_t)inc;
	if (off > (long double)TARGET_OFF_MAX && j->plan.clone) {
		err_set(e, tf->path, 0, "offset_increment", "clone %u would "
			"start beyond the largest file offset, 2^63 - 1; "
			"expected offset + clone * offset_increment inside the "
			"target", j->plan.clone);
		return -EINVAL;
	} else if (off > (long double)TARGET_OFF_MAX) {
		/* clone 0: offset as given (a percentage cannot pass) */
		tf->offset = j->target.offset_pct > 0 ? TARGET_OFF_MAX + 1 :
			     j->target.offset;		/* refused below */
	} else {
		tf->offset = (uint64_t)off;
		if (pct && tf->offset % align)
			tf->offset += align - tf->offset % align;
	}
	if (tf->offset > TARGET_OFF_MAX) {
		err_set(e, tf->path, 0, "offset", "%" PRIu64 " is beyond the "
			"largest file offset, 2^63 - 1 (%" PRIu64 "); expected "
			"an offset inside the target", tf->offset,
			TARGET_OFF_MAX);
		return -EINVAL;
	}
	return 0;
}

/*
 * filesize=LO-HI (fio's meaning): the size of the file, its region running
 * from offset to that size. A file whose size is already in the range
 * keeps it; any other gets a size drawn uniformly in [LO, HI], rounded
 * down to the smallest block size. The draw is seeded by randseed and the
 * file's name, so a run repeats its sizes and clones that share a file
 * agree on its size.
 */
static uint64_t filesize_draw(const struct target_file *tf,
			      const struct job *j)
{
	uint64_t lo = j->target.filesize_min, hi = j->target.filesize_max, x,
		unit;
	struct gen_rng r;
	const char *c;

	if (tf->exists && !tf->is_bdev && tf->cur_size >= lo &&
	    tf->cur_size <= hi)
		return tf->cur_size;
	x = j->rnd.randseed ^ 0x6a09e667f3bcc908ull;
	for (c = tf->path; *c; c++)	/* FNV-1a */
		x = (x ^ (unsigned char)*c) * 0x100000001b3ull;
	gen_rng_seed(&r, x);
	x = lo + gen_rng_below(&r, hi - lo + 1);
	unit = bs_smallest(j);
	return x > unit ? x / unit * unit : x;
}

/*
 * fill_device=1 without a size (fio's meaning): the region runs on until
 * the file system is full, so it is what the file holds past offset and
 * all the free space there (statvfs); the writes end at ENOSPC.
 */
static uint64_t fill_room(const struct target_file *tf, uint64_t have)
{
	struct statvfs vfs;
	char *dir = NULL;
	uint64_t free_b = 0;

	if (tf->exists || !(dir = path_dir(tf->path)))
		dir = NULL;
	if (!statvfs(dir ? dir : tf->path, &vfs))
		free_b = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	free(dir);
	if (free_b > TARGET_OFF_MAX - tf->offset - have)
		free_b = TARGET_OFF_MAX - tf->offset - have;
	return have + free_b;
}

/*
 * Region length wanted in one file (fio's meaning): size= / nrfiles when
 * given as bytes; else from offset to the file's end, the end being
 * filesize= (drawn for a range), else the file's or device's current size;
 * size=P% takes P% of the current size, cut at the end: offset=80% with
 * size=20% ends at the device's end whatever offset's rounding up.
 * 0, or -EINVAL with e filled.
 */
static int plan_avail(const struct target *t, const struct target_file *tf,
		      const struct job *j, uint64_t *availp, struct err_rec *e)
{
	uint64_t avail = tf->cur_size > tf->offset ?
			 tf->cur_size - tf->offset : 0, part;

	if (j->target.fill_device && job_reads(j) && !tf->is_bdev &&
	    t->nfiles > 1) {
		err_set(e, tf->path, 0, "fill_device", "a job that reads or "
			"trims over several files: not supported yet (the "
			"first would take all the space); expected one file");
		return -EINVAL;
	}
	if (j->target.fill_device && !tf->is_bdev && !j->target.size &&
	    !j->target.size_pct && !j->target.filesize_min)
		avail = fill_room(tf, avail);
	else if (j->target.filesize_min &&
		 tf->offset > j->target.filesize_min) {
		/* fio checks offset against LO, whatever the draw */
		err_set(e, tf->path, 0, "offset", "%" PRIu64 " is past the "
			"end of the file, whose size filesize= sets to %"
			PRIu64 "; expected an offset inside the file",
			tf->offset, j->target.filesize_min);
		return -EINVAL;
	} else if (j->target.filesize_min) {
		/* the file's size: the region is what lies past offset */
		uint64_t fs = j->target.filesize_min != j->target.filesize_max ?
			      filesize_draw(tf, j) : j->target.filesize_min;

		if (fs <= tf->offset) {
			err_set(e, tf->path, 0, "offset", "%" PRIu64 " is the "
				"end of the file, whose size filesize= sets to "
				"%" PRIu64 ": no region is left; expected an "
				"offset inside the file", tf->offset, fs);
			return -EINVAL;
		}
		avail = fs - tf->offset;
		/* size=P% is P% of that size, cut at its end (fio) */
		part = (uint64_t)((long double)fs * j->target.size_pct / 100);
		if (j->target.size_pct > 0 && part < avail)
			avail = part;
	} else if (j->target.size_pct > 0) {
		/* fio: P% of the file's end, cut at that end (offset=80%
		 * rounded up with size=20% ends at the device's end) */
		part = (uint64_t)((long double)tf->cur_size *
				  j->target.size_pct / 100);
		if (part < avail)
			avail = part;
	} else if (j->target.size)
		avail = j->target.size / t->nfiles;
	if (!avail) {
		err_set(e, tf->path, 0, "size", "%s; give size= to say how "
			"much of it the job uses", tf->exists ? "the file is "
			"empty or shorter than offset" : "the file does not "
			"exist yet");
		return -EINVAL;
	}
	/* tf->offset <= TARGET_OFF_MAX: the subtraction cannot wrap. */
	if (avail > TARGET_OFF_MAX - tf->offset) {
		err_set(e, tf->path, 0, "size", "offset %" PRIu64 " + size %"
			PRIu64 " ends beyond the largest file offset, 2^63 - 1 "
			"(%" PRIu64 "); expected offset + size of each file "
			"at most that", tf->offset, avail, TARGET_OFF_MAX);
		return -EINVAL;
	}
	/* fio reads up to the device's end and stops there without a word,
	 * doing less than asked: refused, naming the job's line. */
	if (tf->is_bdev && (tf->offset > tf->cur_size ||
			    avail > tf->cur_size - tf->offset)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			j->target.filesize_min ?
			"filesize" : "size", "region [%" PRIu64 ", %" PRIu64
			") extends past the end of %s (%" PRIu64 " bytes); "
			"expected offset + size within the device",
			tf->offset, tf->offset + avail, tf->path,
			tf->cur_size);
		return -EINVAL;
	}
	*availp = avail;
	return 0;
}

/*
 * Region start and length in each file. Every sum and product is checked:
 * offset + length of a file stays within off_t, and nfiles * length within
 * 64 bits, or the job is refused here, before anything is created.
 */
static int plan_region(struct target *t, const struct job *j,
		       struct err_rec *e)
{
	static const char *const dname[DDIR_NR] = DDIR_NAMES;
	uint64_t unit = region_unit(j), len = UINT64_MAX, avail;
	unsigned i, d;
	int ret;

	uint64_t big = 0;

	/* Files of their own sizes: each a multiple of every block size in
	 * use (the generator's unit divides them all). */
	if (j->target.filesize_min != j->target.filesize_max)
		for (d = 0; d < DDIR_NR; d++)
			if (rw_dirs(j->io.rw) >> d & 1)
				unit = lcm64(unit, j->io.bs_min[d]);
	for (i = 0; i < t->nfiles; i++) {
		ret = plan_offset(&t->files[i], j, e);
		if (!ret)
			ret = plan_avail(t, &t->files[i], j, &avail, e);
		if (ret)
			return ret;
		t->files[i].len = avail / unit * unit;
		if (t->files[i].len < len)
			len = t->files[i].len;
		if (t->files[i].len > big)
			big = t->files[i].len;
	}
	for (d = 0; d < DDIR_NR; d++) {
		/* The directions the generator draws (init_gen). */
		bool used = rw_dirs(j->io.rw) >> d & 1;

		if (!used || len >= j->io.bs_min[d])
			continue;
		err_set(e, t->files[0].path, 0, "size", "the region of each "
			"file (%" PRIu64 " bytes) is smaller than the %s block "
			"size (%" PRIu64 "); expected a region of at least one "
			"block in each of the %u file%s", len, dname[d],
			j->io.bs_min[d], t->nfiles, t->nfiles == 1 ? "" : "s");
		return -EINVAL;
	}
	/* blockalign: random offsets are multiples of it within the
	 * region (a zone's with zonesize); fio does no I/O when none fits,
	 * iorig says so before anything is laid out. */
	for (d = 0; d < DDIR_NR && rw_random(j->io.rw); d++) {
		uint64_t fr = len, z = j->io.zone_mode == ZONE_ZBD ? 0 :
			      j->io.zonerange ? j->io.zonerange :
			      j->io.zonesize;

		if (z && z < fr)
			fr = z;
		if (!(rw_dirs(j->io.rw) >> d & 1) || j->rnd.blockalign[d] <= fr)
			continue;
		err_set(e, j->plan.section_file, j->plan.section_line,
			"blockalign",
			"%" PRIu64 " (%s) is larger than the %s of each file "
			"(%" PRIu64 " bytes): no offset to do I/O at (fio "
			"runs such a job without I/O); expected a blockalign "
			"of at most %" PRIu64, j->rnd.blockalign[d], dname[d],
			fr < len ? "zone" : "region", fr, fr);
		return -EINVAL;
	}
	/* Files of their own sizes (filesize=LO-HI): each its own region,
	 * laid out in slots of the largest (gen.h). */
	t->uneven = j->target.filesize_min != j->target.filesize_max &&
		big > len;
	if (!t->uneven)
		big = len;
	t->region = 0;
	for (i = 0; i < t->nfiles; i++) {
		if (!t->uneven)
			t->files[i].len = len;
		if (!__builtin_add_overflow(t->region, t->files[i].len,
					    &t->region) &&
		    !__builtin_mul_overflow(big, (uint64_t)t->nfiles,
					    &avail))
			continue;
		err_set(e, t->files[0].path, 0, "size", "%u files of up to %"
			PRIu64 " bytes each make a region larger than 2^64 "
			"bytes; expected a smaller size=", t->nfiles, big);
		return -EINVAL;
	}
	t->file_region = big;
	return 0;
}

static int check_dio(const struct target *t, const struct job *j,
		     struct err_rec *e)
{
	static const char *const dname[DDIR_NR] = DDIR_NAMES;
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
			if (j->io.bs_min[d] % a == 0 &&
			    j->io.bs_max[d] % a == 0)
				continue;
			err_set(e, tf->path, 0, "bs", "%s block size %" PRIu64
				"%s%.0" PRIu64 " is not a multiple of %u, the "
				"O_DIRECT alignment of this target", dname[d],
				j->io.bs_min[d],
				j->io.bs_min[d] != j->io.bs_max[d] ?
				"-" : "", j->io.bs_min[d] != j->io.bs_max[d] ?
				j->io.bs_max[d] : 0, a);
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

/*
 * Trims on a device discard whole logical blocks (BLKDISCARD refuses
 * anything else): the region's start, the trim sizes and rw=trim:N's gap
 * must be multiples of the device's logical block size.
 */
static int check_trim_align(const struct target_file *tf,
			    const struct job *j, struct err_rec *e)
{
	uint64_t a = tf->dio_align;
	int64_t gap = j->io.rw_seq_add < 0 ? -j->io.rw_seq_add :
		j->io.rw_seq_add;

	if (!(rw_dirs(j->io.rw) & (1u << DDIR_TRIM)) || !a)
		return 0;
	if (tf->offset % a) {
		err_set(e, tf->path, 0, "offset", "%" PRIu64 " is not a "
			"multiple of %" PRIu64 ", the logical block size of "
			"this device, which trims discard whole", tf->offset,
			a);
		return -EINVAL;
	}
	if (j->io.bs_min[DDIR_TRIM] % a || j->io.bs_max[DDIR_TRIM] % a) {
		err_set(e, tf->path, 0, "bs", "trim block size %" PRIu64 "%s "
			"is not a multiple of %" PRIu64 ", the logical block "
			"size of this device, which trims discard whole",
			j->io.bs_min[DDIR_TRIM], j->io.bs_min[DDIR_TRIM] !=
			j->io.bs_max[DDIR_TRIM] ? " (or its range's end)" : "",
			a);
		return -EINVAL;
	}
	if ((uint64_t)gap % a) {
		err_set(e, tf->path, 0, "rw", "the gap of %" PRId64 " bytes "
			"between trims is not a multiple of %" PRIu64 ", the "
			"logical block size of this device", j->io.rw_seq_add, a);
		return -EINVAL;
	}
	return 0;
}

/*
 * A job that writes to a device: refused when the device is in use, or holds
 * data and allow_destructive is not set; what it will overwrite is kept for
 * the warning target_open prints.
 */
static int guard_bdev(struct target_file *tf, const struct job *j,
		      struct err_rec *e)
{
	char what[768];
	int r;

	/* Passthrough bypasses the block layer's claims: the namespace's
	 * block device says whether it is mounted, held or signed. */
	if (tf->is_nvme_chr && !tf->nvme_bdev && tf->is_sg_chr) {
		err_set(e, tf->path, 0, "filename", "its SCSI device has no "
			"block device, so whether it is in use or holds data "
			"cannot be checked; a job that writes to it is "
			"refused");
		return -EINVAL;
	}
	/* A namespace the kernel gives no block device (a zoned one whose
	 * zone size is not a power of two): nothing can mount, hold or
	 * claim it, but whether it holds data cannot be read (libblkid
	 * reads a block device): writing needs allow_destructive=1. */
	if (tf->is_nvme_chr && !tf->nvme_bdev) {
		if (j->target.allow_destructive)
			return 0;
		err_set(e, tf->path, 0, "filename", "its namespace has no "
			"block device, so whether it holds data cannot be "
			"checked; a job that writes to it is refused unless "
			"allow_destructive=1 (or --allow-destructive) is set");
		return -EBUSY;
	}
	r = guard_check_bdev(tf->is_nvme_chr ? tf->nvme_bdev : tf->path, what,
			     sizeof(what));
	if (r > 0 && tf->is_nvme_chr) {
		size_t n = strlen(what);

		snprintf(what + n, sizeof(what) - n, " (%s block device "
			 "%s)", tf->is_sg_chr ? "its disk's" : "namespace",
			 tf->nvme_bdev);
	}
	if (r == GUARD_CLEAR)
		return 0;
	if ((r == GUARD_DATA || r == GUARD_UNREAD) &&
	    j->target.allow_destructive) {
		tf->guard_note = strdup(what);
		if (tf->guard_note)
			return 0;
		err_set(e, tf->path, 0, "filename", "out of memory");
		return -ENOMEM;
	}
	if (r == GUARD_BUSY)
		err_set(e, tf->path, 0, "filename", "the device is in use: %s; "
			"a job that writes to it is refused, even with "
			"allow_destructive=1 (jobs that only read may use it)",
			what);
	else if (r == GUARD_DATA)
		err_set(e, tf->path, 0, "filename", "the device holds data: "
			"%s; a job that writes to it would destroy that. Set "
			"allow_destructive=1 (or --allow-destructive) to "
			"overwrite it", what);
	else if (r == GUARD_UNREAD)
		err_set(e, tf->path, 0, "filename", "the device is not in use, "
			"but %s, so whether it holds data is unknown; a job "
			"that writes to it is refused unless allow_destructive=1 "
			"(or --allow-destructive) is set", what);
	else
		err_set(e, tf->path, 0, "filename", "cannot check whether the "
			"device is in use or holds data (%s: %s), so a job "
			"that writes to it is refused", what, strerror(-r));
	return r > 0 ? -EBUSY : r;
}

/* The job, or its layout, writes to this file. */
static bool writes_file(const struct target *t, const struct target_file *tf,
			const struct job *j)
{
	if (j->vfy.verify_only)
		return false;
	return job_writes(j) || !tf->exists ||
	       tf->cur_size < tf->offset + tf->len || tf->holes_planned;
}

/*
 * The holes a job that reads will have its layout fill (layout=1): a
 * write, which the write checks below guard as the job's own. Unknown
 * (FIEMAP fails, uid= may not read it): none here; target_open finds
 * them again on a descriptor checked as a writer's.
 */
static void plan_holes(struct target_file *tf, const struct job *j)
{
	uint64_t end = tf->offset + tf->len;

	tf->holes_planned = 0;
	if (tf->is_bdev || !tf->exists || !job_reads(j) || !j->target.layout ||
	    j->vfy.verify_only || j->plan.readonly ||
	    tf->cur_size <= tf->offset)
		return;
	if (layout_unwritten(tf->path, tf->offset,
			    tf->cur_size < end ? tf->cur_size : end,
			    &tf->holes_planned))
		tf->holes_planned = 0;
}

/*
 * A target that will be written must be writable now, not when its group
 * starts after earlier groups wrote: permissions (of the effective user),
 * a read-only file system, a read-only device; a file that a job writes
 * must not be live either: an active swap file, a loop device's backing.
 */
static int check_writable(const struct target *t, struct target_file *tf,
			  const struct job *j, struct err_rec *e)
{
	char what[768], *dir;
	struct stat st;
	int r = 0, ro = 0, fd;

	if (!writes_file(t, tf, j))
		return 0;
	if (tf->exists && faccessat(AT_FDCWD, tf->path, W_OK, AT_EACCESS)) {
		r = -errno;
		err_set(e, tf->path, 0, "filename", "cannot be written: %s; "
			"the job %s", strerror(-r), job_writes(j) ?
			"writes to it" : tf->cur_size < tf->offset + tf->len ?
			"lays it out (extends it)" : "lays it out (fills the "
			"holes of its region; layout=0 reads them as they "
			"are)");
		return r;
	}
	if (tf->is_bdev) {
		fd = open(tf->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && !ioctl(fd, BLKROGET, &ro) && ro)
			r = -EROFS;
		if (fd >= 0)
			close(fd);
		if (r)
			err_set(e, tf->path, 0, "filename", "the device is "
				"read-only; the job writes to it");
		return r;
	}
	if (!tf->exists) {
		dir = path_dir(tf->path);
		if (!dir)
			return -ENOMEM;
		if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
			r = -errno;
		if (r)
			err_set(e, tf->path, 0, "filename", "cannot be "
				"created: directory '%s': %s", dir,
				strerror(-r));
		free(dir);
		return r;
	}
	if (stat(tf->path, &st))
		return 0;
	/* The layout of a job that reads is a write like the job's. */
	r = guard_check_file(&st, what, sizeof(what));
	if (r == GUARD_BUSY && job_writes(j))
		err_set(e, tf->path, 0, "filename", "the file is in use: %s; "
			"a job that writes to it is refused, even with "
			"allow_destructive=1", what);
	else if (r == GUARD_BUSY)
		err_set(e, tf->path, 0, "filename", "the file is in use: %s; "
			"the job only reads it, but its layout would write to "
			"it (%s), which is refused as a write is, even with "
			"allow_destructive=1; %s", what,
			tf->cur_size < tf->offset + tf->len ? "extend it" :
			"fill the holes of its region",
			tf->cur_size < tf->offset + tf->len ?
			"expected a region within the file's length" :
			"layout=0 reads the holes as they are");
	else if (r < 0)
		err_set(e, tf->path, 0, "filename", "cannot check whether the "
			"file is in use (%s: %s), so a job that writes to it "
			"is refused", what, strerror(-r));
	return r > 0 ? -EBUSY : r;
}

int target_check_access(const struct target *t, const struct job *j,
			const char *opt, const char *who, struct err_rec *e)
{
	const struct target_file *tf;
	char *dir;
	unsigned i;
	int mode, r = 0;

	for (i = 0; !r && i < t->nfiles; i++) {
		tf = &t->files[i];
		if (!tf->exists && !tf->is_bdev) {
			dir = path_dir(tf->path);
			if (!dir)
				return -ENOMEM;
			if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS)) {
				r = -errno;
				err_set(e, tf->path, 0, opt, "cannot be "
					"created in directory '%s' %s: %s",
					dir, who, strerror(-r));
			}
			free(dir);
			continue;
		}
		mode = R_OK | (writes_file(t, tf, j) ? W_OK : 0);
		if (faccessat(AT_FDCWD, tf->path, mode, AT_EACCESS)) {
			r = -errno;
			err_set(e, tf->path, 0, opt, "cannot be %s %s: %s",
				mode & W_OK ? "read and written" : "read", who,
				strerror(-r));
		}
	}
	return r;
}

/*
 * --readonly: no layout. A file to create or extend is refused here, as
 * fio 3.33 refuses to ("refusing extend of file due to read-only"), but
 * before anything runs; holes are read as they are (plan_holes,
 * region_holes).
 */
static int check_readonly(const struct target_file *tf, const struct job *j,
			  struct err_rec *e)
{
	uint64_t end = tf->offset + tf->len;

	if (!j->plan.readonly || tf->is_bdev || j->vfy.verify_only)
		return 0;
	if (!tf->exists) {
		err_set(e, tf->path, 0, "readonly", "does not exist, and the "
			"job would create it, which --readonly forbids; "
			"expected an existing file");
		return -EROFS;
	}
	if (tf->cur_size < end) {
		err_set(e, tf->path, 0, "readonly", "is %" PRIu64 " bytes, "
			"and the job's region ends at %" PRIu64 ": its "
			"layout would extend the file, which --readonly "
			"forbids; expected a region within the file",
			tf->cur_size, end);
		return -EROFS;
	}
	return 0;
}

int target_plan(struct target *t, const struct job *j, target_size_fn *size,
		struct err_rec *e)
{
	unsigned i;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = plan_names(t, j);
	if (ret == -EINVAL)
		err_set(e, j->plan.section_file, j->plan.section_line,
			"filename",
			"expected one to %u names separated by ':' (write "
			"\\: for a ':' inside a name)", TARGET_FILES_MAX);
	if (ret)
		goto err;
	for (i = 0; i < t->nfiles; i++) {
		ret = probe_file(&t->files[i], j, e);
		if (!ret && t->files[i].exists && j->eng.engine_deletes) {
			err_set(e, t->files[i].path, 0, "ioengine", "%s "
				"deletes the job's files, and iorig deletes only "
				"files this run creates: this one exists; "
				"expected the name of a file that does not "
				"exist yet", j->eng.ioengine);
			ret = -EEXIST;
		}
		if (!ret && size)
			ret = size(&t->files[i], j, &t->files[i].cur_size,
				   &t->files[i].dio_align, e);
		if (ret)
			goto err;
	}
	ret = plan_region(t, j, e);
	if (!ret)
		ret = target_plan_zbd(t, j, job_writes(j), e);
	for (i = 0; !ret && i < t->nfiles; i++) {
		plan_holes(&t->files[i], j);
		ret = check_readonly(&t->files[i], j, e);
	}
	if (!ret && j->cache.direct)
		ret = check_dio(t, j, e);
	for (i = 0; !ret && i < t->nfiles; i++)
		ret = check_writable(t, &t->files[i], j, e);
	for (i = 0; !ret && i < t->nfiles; i++)
		if (t->files[i].is_bdev && job_writes(j))
			ret = guard_bdev(&t->files[i], j, e);
	for (i = 0; !ret && i < t->nfiles; i++)
		if (t->files[i].is_bdev)
			ret = check_trim_align(&t->files[i], j, e);
	if (ret)
		goto err;
	return 0;
err:
	target_free(t);
	return ret;
}

/*
 * The region a job walks on an engine that opens no file (ENGINE_NOIO).
 * The null engine stands in for files (files): they are named as any
 * job's and planned as files that do not exist yet, never looked at
 * (fio's diskless files): filesize= each (from offset), else size= shared
 * among them. With neither, fio refuses the job ("you need to specify
 * size="); iorig gives a job bounded otherwise (runtime=, io_size=,
 * number_ios=) a region of TARGET_NOIO_REGION and refuses one that nothing
 * would end. The others (net, cpuio, exec) have one unnamed region of
 * size=, or TARGET_NOIO_REGION, in whole blocks; their streams or their
 * own limits end them.
 */
#define TARGET_NOIO_REGION	(1ull << 40)

static int plan_none(struct target *t, const struct job *j)
{
	uint64_t bs = bs_smallest(j);

	memset(t, 0, sizeof(*t));
	t->files = calloc(1, sizeof(*t->files));
	if (!t->files || !(t->files->path = strdup("(no file)"))) {
		free(t->files);
		t->files = NULL;
		return -ENOMEM;
	}
	t->nfiles = 1;
	t->files->fd = -1;
	t->files->zbd_fd = -1;
	t->region = (j->target.size ? j->target.size :
		     TARGET_NOIO_REGION) / bs * bs;
	t->file_region = t->region;
	t->files->len = t->region;
	return 0;
}

int target_plan_noio(struct target *t, const struct job *j, bool files,
		     struct err_rec *e)
{
	struct job sized;
	int ret;

	if (!files && j->io.zone_mode == ZONE_ZBD) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"zonemode",
			"ioengine=%s moves no blocks of a file or device: "
			"zbd has no zones to keep there; expected no "
			"zonemode=zbd", j->eng.ioengine);
		return -EINVAL;
	}
	if (!files)
		return plan_none(t, j);
	if (!j->target.filesize_min && !j->target.size && !j->target.size_pct &&
	    !j->time.runtime_ns && !j->target.io_size && !j->time.number_ios) {
		err_set(e, j->plan.section_file, j->plan.section_line, "size",
			"ioengine=%s moves no data and the job gives nothing "
			"that ends it (fio refuses it: \"you need to specify "
			"size=\"); expected size=, filesize=, io_size=, "
			"number_ios= or runtime=", j->eng.ioengine);
		return -EINVAL;
	}
	if (j->target.size_pct) {
		err_set(e, j->plan.section_file, j->plan.section_line, "size",
			"ioengine=%s has no file whose size a percentage "
			"could be of; expected a size in bytes", j->eng.ioengine);
		return -EINVAL;
	}
	/* plan_avail reads the size from the job */
	sized = *j;
	if (!j->target.filesize_min && !j->target.size)
		sized.target.size = TARGET_NOIO_REGION;
	memset(t, 0, sizeof(*t));
	ret = plan_names(t, j);
	if (ret == -EINVAL)
		err_set(e, j->plan.section_file, j->plan.section_line,
			"filename",
			"expected one to %u names separated by ':' (write "
			"\\: for a ':' inside a name)", TARGET_FILES_MAX);
	if (!ret)
		ret = plan_region(t, &sized, e);
	/* fio's null files take zonemode=zbd's emulated zones */
	if (!ret)
		ret = target_plan_zbd(t, j, job_writes(j), e);
	if (ret)
		target_free(t);
	return ret;
}

/* An NVMe generic char device takes no O_DIRECT (nor needs it: its
 * commands never go through a page cache) and no O_SYNC. */
static int open_flags(const struct job *j, const struct target_file *tf,
		      bool rw)
{
	int fl = O_CLOEXEC | (rw ? O_RDWR : O_RDONLY);

	if (tf->is_nvme_chr)
		return fl;
	if (j->cache.direct)
		fl |= O_DIRECT;
	if (j->cache.sync == SYNC_SYNC)
		fl |= O_SYNC;
	else if (j->cache.sync == SYNC_DSYNC)
		fl |= O_DSYNC;
	return fl;
}

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/*
 * O_DIRECT on tmpfs (which takes it since Linux 6.6) is a copy from
 * memory: the figures are not a device's. Once per job (its first clone).
 */
static void warn_tmpfs_direct(const struct target *t,
			      const struct target_file *tf,
			      const struct job *j)
{
	struct statfs sf;

	if (!j->cache.direct || j->plan.clone || tf->is_bdev ||
	    fstatfs(tf->fd, &sf) || sf.f_type != TMPFS_MAGIC)
		return;
	twarn(t, "direct_tmpfs", j, "%s is on tmpfs: direct=1 I/O there is "
	      "served from memory, so the figures measure memory copies, "
	      "not a device", tf->path);
}

/* What invalidate and fadvise_hint do to one file; warns only when
 * warn (at open; not again at each pass). */
static void apply_fadvise(const struct target *t, const struct target_file *tf,
			  const struct job *j, bool warn)
{
	static const int advice[] = {
		[FADV_SEQUENTIAL] = POSIX_FADV_SEQUENTIAL,
		[FADV_RANDOM] = POSIX_FADV_RANDOM,
		[FADV_NOREUSE] = POSIX_FADV_NOREUSE,
		[FADV_DONTNEED] = POSIX_FADV_DONTNEED,
		[FADV_WILLNEED] = POSIX_FADV_WILLNEED,
	};
	int h = j->cache.fadvise_hint;

	/* fio: pointless */
	bool inval = j->cache.invalidate && !j->cache.pre_read;

	if (tf->is_nvme_chr)	/* no page cache, no read-ahead */
		return;
	if (inval && tf->is_bdev && ioctl(tf->fd, BLKFLSBUF, 0) < 0 &&
	    warn)
		twarn(t, "blkflsbuf_failed", j, "%s: BLKFLSBUF failed (%s); "
		      "dropping the region's page cache with "
		      "POSIX_FADV_DONTNEED instead", tf->path,
		      strerror(errno));
	if (inval)
		posix_fadvise(tf->fd, (off_t)tf->offset, (off_t)tf->len,
			      POSIX_FADV_DONTNEED);
	if (h == FADV_NONE)
		return;
	if (h == FADV_AUTO)
		h = rw_random(j->io.rw) ? FADV_RANDOM : FADV_SEQUENTIAL;
	posix_fadvise(tf->fd, (off_t)tf->offset, (off_t)tf->len, advice[h]);
}

/*
 * pre_read=1 (fio's meaning): read the region once before the job starts,
 * so that its reads find it in the page cache (invalidate is then off).
 * Direct I/O bypasses that cache: nothing to do, and a warning says so.
 */
static void pre_read(const struct target *t, const struct target_file *tf,
		     const struct job *j, const atomic_int *stop)
{
	uint64_t pos = tf->offset, end = tf->offset + tf->len, n;
	ssize_t r = 0;
	char *buf;

	if (j->cache.direct) {
		if (warns_for_files(j))
			twarn(t, "pre_read_direct", j, "job '%s': pre_read=1 "
			      "does nothing with direct=1 (its I/O bypasses "
			      "the page cache)", j->desc.name);
		return;
	}
	buf = malloc(LAYOUT_CHUNK);
	if (!buf)
		return;
	for (; pos < end && !(stop && atomic_load(stop)); pos += (uint64_t)r) {
		n = end - pos < LAYOUT_CHUNK ? end - pos : LAYOUT_CHUNK;
		r = pread(tf->fd, buf, n, (off_t)pos);
		if (r <= 0)
			break;
	}
	if (r < 0)
		twarn(t, "pre_read_failed", j, "job '%s': %s: pre_read stopped "
		      "at %" PRIu64 ": %s", j->desc.name, tf->path, pos,
		      strerror(errno));
	free(buf);
}

/*
 * Holes and unwritten extents in [offset, end) of an existing file, which
 * a job that reads would read without reaching the device. With layout=0
 * they are only warned about (and 0 is returned).
 */
static int region_holes(const struct target *t, const struct target_file *tf,
			uint64_t size,
			uint64_t end, const struct job *j, uint64_t *holes,
			struct err_rec *e)
{
	char amount[32];
	int ret;

	*holes = 0;
	if (!job_reads(j) || size <= tf->offset)
		return 0;
	ret = layout_unwritten(tf->path, tf->offset, size < end ? size : end,
			      holes);
	/* the open, not the mapping (uid=: the job's user may not read) */
	if (ret == -EACCES || ret == -EPERM) {
		err_set(e, tf->path, 0, "", "cannot open for reading: %s",
			strerror(-ret));
		return ret;
	}
	if (ret) {
		err_set(e, tf->path, 0, "layout", "cannot map the file's "
			"extents (FIEMAP, SEEK_HOLE): %s", strerror(-ret));
		return ret;
	}
	if (*holes && (!j->target.layout || j->plan.readonly)) {
		value_fmt_bytes(*holes, amount, sizeof(amount));
		if (warns_for_files(j))
			twarn(t, "holes_not_filled", j, "job '%s': %s: reads "
			      "of %s of holes/unwritten extents never reach "
			      "the device (%s)", j->desc.name, tf->path, amount,
			      j->plan.readonly ? "--readonly" : "layout=0");
		*holes = 0;
	}
	return 0;
}

static const char *type_name(mode_t type)
{
	return type == S_IFREG ? "a regular file" : type == S_IFBLK ?
	       "a block device" : type == S_IFLNK ? "a symbolic link" :
	       type == S_IFDIR ? "a directory" : type == S_IFCHR ?
	       "a character device" : "another kind of file";
}

/*
 * Open the path as what was checked: not through a symlink that was not
 * there, and fstat must show the same file (device and inode) or device
 * (device number); a device that a job writes must still not be in use.
 * Returns the fd, or -errno with e filled (-ESTALE: it changed).
 */
/* Open the path as it was checked: it existed then, and is no symlink
 * now that was none then. The fd, or -errno with e filled. */
static int open_node(struct target_file *tf, int flags, struct err_rec *e)
{
	struct stat st;
	int fd, r;

	if (!tf->have_id && lstat(tf->path, &st)) {
		r = -errno;
		err_set(e, tf->path, 0, "filename", "cannot open: %s",
			strerror(-r));
		return r;
	}
	if (!tf->have_id) {
		err_set(e, tf->path, 0, "filename", "did not exist when the "
			"job was checked and does now (made by something else "
			"than this run); not opened");
		return -ESTALE;
	}
	/*
	 * A device's node is not what is measured: as fio does, its reads
	 * do not update its access time (each read of /dev/zram0 through
	 * io-wq spent ~40 ns in touch_atime), unless the node is another
	 * user's (EPERM: opened again without). A regular file's atime is
	 * the file system's own work and stays.
	 */
	flags |= tf->is_link ? 0 : O_NOFOLLOW;
	if (tf->type != S_IFREG)
		flags |= O_NOATIME;
	fd = open(tf->path, flags);
	if (fd < 0 && errno == EPERM && (flags & O_NOATIME)) {
		flags &= ~O_NOATIME;
		fd = open(tf->path, flags);
	}
	if (fd < 0 && errno == ELOOP && !tf->is_link) {
		err_set(e, tf->path, 0, "filename", "was replaced by a symbolic "
			"link since the job was checked; not opened");
		return -ESTALE;
	}
	if (fd < 0) {
		r = -errno;
		err_set(e, tf->path, 0, "filename", "cannot open%s: %s",
			flags & O_DIRECT ? " with O_DIRECT" : "", strerror(-r));
		return r;
	}
	return fd;
}

/* fd is the file (device and inode) or device (device number, disk
 * sequence) that was checked: 0, or -errno with e filled (-ESTALE). */
static int same_as_checked(struct target_file *tf, int fd, struct stat *st,
			   struct err_rec *e)
{
	uint64_t seq;
	int r;

	if (fstat(fd, st)) {
		r = -errno;
		err_set(e, tf->path, 0, "filename", "fstat: %s", strerror(-r));
		return r;
	}
	if ((st->st_mode & S_IFMT) != tf->type ||
	    (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode) ?
	     st->st_rdev != tf->rdev :
	     st->st_dev != tf->dev || st->st_ino != tf->ino)) {
		err_set(e, tf->path, 0, "filename", "changed since the job was "
			"checked: it was %s (device %u:%u, inode %llu), it is "
			"%s (device %u:%u, inode %llu); not written",
			type_name(tf->type),
			major(S_ISBLK(tf->type) ? tf->rdev : tf->dev),
			minor(S_ISBLK(tf->type) ? tf->rdev : tf->dev),
			(unsigned long long)tf->ino,
			type_name(st->st_mode & S_IFMT),
			major(S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev),
			minor(S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev),
			(unsigned long long)st->st_ino);
		return -ESTALE;
	}
	if (S_ISBLK(st->st_mode) && tf->diskseq &&
	    !ioctl(fd, BLKGETDISKSEQ, &seq) && seq != tf->diskseq) {
		err_set(e, tf->path, 0, "filename", "is another disk than when "
			"the job was checked: device %u:%u has disk sequence "
			"number %llu, it had %llu (the disk was replaced or "
			"the loop device re-attached); not written",
			major(st->st_rdev), minor(st->st_rdev),
			(unsigned long long)seq,
			(unsigned long long)tf->diskseq);
		return -ESTALE;
	}
	return 0;
}

/* A target a job writes is still not in use (mounted, held, holding
 * data): 0, or -errno with e filled (-EBUSY: it is). */
static int still_unused(struct target_file *tf, int fd,
			const struct stat *st, struct err_rec *e)
{
	char what[768], self[64];
	int r;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	/* a namespace without a block device: nothing can claim it */
	r = tf->is_nvme_chr ? (tf->nvme_bdev ?
	    guard_check_busy(tf->nvme_bdev, tf->nvme_bdev_rdev, what,
			     sizeof(what)) : tf->is_sg_chr ? -ENODEV :
	    GUARD_CLEAR) :
	    S_ISBLK(st->st_mode) ?
	    guard_check_busy(self, st->st_rdev, what, sizeof(what)) :
	    guard_check_file(st, what, sizeof(what));
	if (r == GUARD_CLEAR)
		return 0;
	if (r > 0)
		err_set(e, tf->path, 0, "filename", "is in use now (it was not "
			"when the job was checked): %s; not written", what);
	else
		err_set(e, tf->path, 0, "filename", "cannot check again "
			"whether it is in use (%s: %s); not written", what,
			strerror(-r));
	return r > 0 ? -EBUSY : r;
}

static int open_checked(struct target_file *tf, int flags, bool writes,
			struct err_rec *e)
{
	struct stat st;
	int fd = open_node(tf, flags, e), r;

	if (fd < 0)
		return fd;
	r = same_as_checked(tf, fd, &st, e);
	if (!r && writes)
		r = still_unused(tf, fd, &st, e);
	if (r) {
		close(fd);
		return r;
	}
	return fd;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * A file that did not exist when planned may be one that a target opened
 * before in this run created (a clone's, or an earlier group's): the same
 * name in the same directory. It is then expected to be that inode.
 */
static void adopt(struct target_file *tf, const struct target *run,
		  size_t nrun)
{
	const struct target_file *o;
	size_t i;
	unsigned f;

	for (i = 0; !tf->have_id && i < nrun; i++) {
		for (f = 0; f < run[i].nfiles; f++) {
			o = &run[i].files[f];
			if (o == tf || !o->created || !o->have_id ||
			    o->dir_dev != tf->dir_dev ||
			    o->dir_ino != tf->dir_ino ||
			    strcmp(base_name(o->path), base_name(tf->path)))
				continue;
			tf->have_id = true;
			tf->dev = o->dev;
			tf->ino = o->ino;
			tf->type = o->type;
			break;
		}
	}
}

/* st is the regular file that was checked, or that this run created. */
static bool is_own(const struct target_file *tf, const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_dev == tf->dev &&
	       st->st_ino == tf->ino;
}

/* Delete the file this run created, only while the path still names it
 * (door.h: checked on its directory's descriptor when it is removed). */
static int unlink_own(const struct target_file *tf, const char *opt)
{
	int r = door_unlink_own(tf->path, tf->dev, tf->ino);

	if (r == -ESTALE || r == -ENOENT)
		fprintf(stderr, "iorig: warning: %s: not deleted (%s=1): "
			"the path no longer names the file this run created\n",
			tf->path, opt);
	return r == -ENOENT ? -ESTALE : r;
}

static bool ts_eq(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * What this run leaves in the file fd (of tf), recorded before this run
 * closes a descriptor that wrote it (size: the layout's; a writing job's
 * writes may extend a file that fallocate did not). The fstat also marks
 * the times as seen, so that on kernels with fine-grained ("multigrain")
 * timestamps the next change by anyone gets a ctime of its own.
 */
static void note_left(struct target_file *tf, int fd, bool size)
{
	struct stat st;

	if (fstat(fd, &st) || !is_own(tf, &st))
		return;
	/* A writing job's close: its writes stay inside its region, so
	 * a file longer than that and than its layout grew by someone
	 * else: no record, and target_undo will find it changed. */
	if (!size && (uint64_t)st.st_size > tf->offset + tf->len &&
	    (!tf->have_size || (uint64_t)st.st_size > tf->left_size))
		return;
	if (size || tf->writes) {
		tf->have_size = true;
		tf->left_size = (uint64_t)st.st_size;
	}
	tf->have_times = true;
	tf->left_ctime = st.st_ctim;
	tf->left_mtime = st.st_mtim;
}

static bool same_inode(const struct target_file *a,
		       const struct target_file *b)
{
	return !b->is_bdev && b->have_id && a->dev == b->dev &&
	       a->ino == b->ino;
}

/* st is as this run left the file: the largest size and the latest
 * times that any target of the run recorded for its inode. */
static bool as_left(const struct target_file *tf, const struct stat *st,
		    const struct target *run, size_t nrun)
{
	const struct target_file *o, *t = NULL;
	uint64_t size = 0;
	bool sized = false;
	size_t i;
	unsigned f;

	for (i = 0; i < nrun; i++)
		for (f = 0; f < run[i].nfiles; f++) {
			o = &run[i].files[f];
			if (!same_inode(tf, o))
				continue;
			if (o->have_size && (!sized || o->left_size > size)) {
				size = o->left_size;
				sized = true;
			}
			if (o->have_times && (!t || ts_before(&t->left_ctime,
							      &o->left_ctime)))
				t = o;
		}
	return sized && t && (uint64_t)st->st_size == size &&
	       ts_eq(&st->st_ctim, &t->left_ctime) &&
	       ts_eq(&st->st_mtim, &t->left_mtime);
}

/* After this run's own change (a cut): what every record says now. */
static void renote_all(const struct target_file *tf, const struct stat *st,
		       struct target *run, size_t nrun)
{
	struct target_file *o;
	size_t i;
	unsigned f;

	for (i = 0; i < nrun; i++)
		for (f = 0; f < run[i].nfiles; f++) {
			o = &run[i].files[f];
			if (!same_inode(tf, o))
				continue;
			o->have_size = o->have_times = true;
			o->left_size = (uint64_t)st->st_size;
			o->left_ctime = st->st_ctim;
			o->left_mtime = st->st_mtim;
		}
}

enum undo_did { UNDO_NONE, UNDO_REMOVED, UNDO_CUT, UNDO_CHANGED };

/*
 * Puts back one file of this run's layout: removed when this run created
 * it, else cut back to the length it had when this run extended it. Only
 * the inode this run made or extended, only while it is as this run left
 * it (UNDO_CHANGED: another process changed it, *st says how); never
 * shorter than that length.
 */
static enum undo_did undo_file(struct target_file *tf, struct stat *st,
			       struct target *run, size_t nrun)
{
	enum undo_did did = UNDO_NONE;
	int fd;

	if (tf->created) {
		tf->created = false;
		if (lstat(tf->path, st) || !is_own(tf, st))
			return UNDO_NONE;
		if (!as_left(tf, st, run, nrun))
			return UNDO_CHANGED;
		if (!door_unlink_own(tf->path, tf->dev, tf->ino))
			did = UNDO_REMOVED;
	} else if (tf->extended) {
		tf->extended = false;
		fd = open(tf->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return UNDO_NONE;
		if (fstat(fd, st) || !is_own(tf, st) ||
		    (uint64_t)st->st_size <= tf->orig_size)
			did = UNDO_NONE;
		else if (!as_left(tf, st, run, nrun))
			did = UNDO_CHANGED;
		else if (!ftruncate(fd, (off_t)tf->orig_size))
			did = UNDO_CUT;
		/* the next (earlier) job's record of it is this state */
		if (did == UNDO_CUT && !fstat(fd, st))
			renote_all(tf, st, run, nrun);
		close(fd);
	}
	return did;
}

/* What a kept file was not: the end of each layout_kept warning. */
static const char *undo_kept(bool made)
{
	return made ? "removed (this run created it)" :
		      "put back to its length before the run";
}

void target_undo(struct target *t, const struct job *j,
		 struct target *run, size_t nrun)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];
		bool made = tf->created;

		if (tf->is_bdev)
			continue;
		switch (undo_file(tf, &st, run ? run : t, run ? nrun : 1)) {
		case UNDO_REMOVED:
			twarn(t, "layout_undone", j, "job '%s': %s: removed "
			      "(this run created it and did not complete)",
			      j->desc.name, tf->path);
			break;
		case UNDO_CUT:
			twarn(t, "layout_undone", j, "job '%s': %s: put back "
			      "to its length of %" PRIu64 " bytes (this run "
			      "extended it and did not complete)", j->desc.name,
			      tf->path, tf->orig_size);
			break;
		case UNDO_CHANGED:
			twarn(t, "layout_kept", j, "job '%s': %s: left as it "
			      "is, %" PRIu64 " bytes: it changed after this "
			      "run last wrote it (another process wrote it), "
			      "so it is not %s", j->desc.name, tf->path,
			      (uint64_t)st.st_size, undo_kept(made));
			break;
		case UNDO_NONE:
			break;
		}
	}
}

void target_undo_abandoned(struct target *t, const struct job *j)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];

		if (tf->is_bdev || !(tf->created || tf->extended))
			continue;
		twarn(t, "layout_kept", j, "job '%s': %s: left as it is: the "
		      "job was given up on while still in an I/O (abandoned: "
		      "it may yet write the file), so it is not %s",
		      j->desc.name, tf->path, undo_kept(tf->created));
	}
}

/* What layout did to an existing file, on stderr and in the report. */
static void say_layout(const struct target *t, const struct target_file *tf,
		       const struct job *j, uint64_t size, uint64_t end,
		       uint64_t holes)
{
	char a[32], b[32];

	/* Holes are said even in a file this run made: an earlier job's
	 * fallocate left them, and reads of them would reach nothing. */
	if (!warns_for_files(j))
		return;
	if (!tf->exists || size >= end) {
		/* nothing was extended that was there before */
	} else if (!job_reads(j) && !j->target.overwrite) {
		static const char *const how[] = {
			[FALLOC_NATIVE] = "native", [FALLOC_POSIX] = "posix",
			[FALLOC_KEEP] = "keep", [FALLOC_TRUNCATE] = "truncate",
		};

		if (j->target.fallocate != FALLOC_NONE)
			twarn(t, "layout_extended", j, "job '%s': %s: room "
			      "made past its end, from %" PRIu64 " to %"
			      PRIu64 " bytes, with fallocate=%s (no data "
			      "written)", j->desc.name, tf->path, size, end,
			      how[j->target.fallocate]);
	} else {
		value_fmt_bytes(end - size, a, sizeof(a));
		twarn(t, "layout_extended", j, "job '%s': %s: extended from "
		      "%" PRIu64 " to %" PRIu64 " bytes (%s of random data "
		      "written past its end)", j->desc.name, tf->path, size, end,
		      a);
	}
	if (holes) {
		value_fmt_bytes(holes, b, sizeof(b));
		twarn(t, "holes_filled", j, "job '%s': %s: %" PRIu64 " bytes "
		      "(%s) of holes/unwritten extents in [%" PRIu64 ", %"
		      PRIu64 ") filled with random data so that %s "
		      "(layout=0 leaves them)", j->desc.name, tf->path,
		      holes, b, tf->offset, end < size ? end : size,
		      rw_dirs(j->io.rw) & (1u << DDIR_READ) ?
		      "reads reach the device" : "trims have data to discard");
	}
}

/*
 * Create (O_EXCL) or open a regular file and extend it to the end of the
 * region; for a job that reads, fill the region's holes first (layout=1).
 * What it created or extended is recorded for target_undo.
 */
/*
 * fill_device=1, a job that reads (fio's meaning): its layout filled the
 * file system; the region is what it wrote, in whole units of the job's
 * smallest block sizes (one file: target_plan refuses more). 0, or -ENOSPC when
 * not one block fits.
 */
static int fill_full(int fd, struct target_file *tf, const struct job *j)
{
	uint64_t unit = 1, size, len;
	struct stat st;
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		if (rw_dirs(j->io.rw) >> d & 1)
			unit = lcm64(unit, j->io.bs_min[d]);
	if (fstat(fd, &st))
		return -errno;
	size = (uint64_t)st.st_size;
	len = size > tf->offset ? (size - tf->offset) / unit * unit : 0;
	if (!len)
		return -ENOSPC;
	if (j->target.create_fsync && fsync(fd))
		return -errno;
	tf->len = len;		/* target_open sets the region */
	return 0;
}

static int open_regular(struct target_file *tf, const struct target *t,
			const struct job *j, const atomic_int *stop,
			struct err_rec *e)
{
	uint64_t end = tf->offset + tf->len, size = 0, holes;
	struct stat st;
	int fd, ret;

	/* Checking what is there: nothing is created, extended or filled. */
	if (j->vfy.verify_only)
		return 0;
	if (stat(tf->path, &st) == 0)
		size = (uint64_t)st.st_size;
	ret = region_holes(t, tf, size, end, j, &holes, e);
	if (ret)
		return ret;
	/* Nothing to write, so a read job needs no write access. */
	if (size >= end && !holes)
		return 0;
	/* --readonly: planned within the file; shortened since, it is
	 * read as it is, never extended */
	if (j->plan.readonly)
		return 0;
	/* O_EXCL follows no symlink; what exists must be what was checked. */
	fd = open(tf->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0) {
		tf->created = true;
		size = 0;
		if (!fstat(fd, &st))
			id_set(tf, &st);
	} else if (errno == EEXIST) {
		/* the layout writes: checked again for use as a writer */
		fd = open_checked(tf, O_RDWR | O_CLOEXEC, true, e);
		if (fd < 0)
			return fd;
	}
	if (fd < 0) {
		ret = -errno;
		err_set(e, tf->path, 0, "filename", "cannot open%s: %s",
			holes ? " to fill the holes of the region (layout=0 "
			"reads them as they are)" : "", strerror(errno));
		return ret;
	}
	/* fd is tf->dev/ino: created and recorded (id_set), or checked. */
	if (fstat(fd, &st) == 0) {
		size = (uint64_t)st.st_size;
		if (!tf->created && size < end) {
			tf->extended = true;
			tf->orig_size = size;
		}
	}
	if (job_reads(j) || j->target.overwrite) {
		ret = layout_write(fd, tf->offset, end, holes != 0,
				   j->target.create_fsync, stop);
		if (ret == -ENOSPC && j->target.fill_device)
			ret = fill_full(fd, tf, j);
	} else if (!j->target.fill_device) /* as fio: it would fill the disk */
		ret = layout_prealloc(fd, size > tf->offset ? size :
				      tf->offset, end, j->target.fallocate,
				      j->target.create_fsync);
	note_left(tf, fd, true);
	close(fd);
	if (!ret) {
		say_layout(t, tf, j, size, end, holes);
		return 0;
	}
	/* target_open's caller undoes it: a half-made file would only
	 * hold the space. */
	if (job_reads(j) || j->target.overwrite)
		err_set(e, tf->path, 0, "size", "laying out [%" PRIu64 ", %"
			PRIu64 ") with real data failed: %s", tf->offset, end,
			strerror(-ret));
	else
		err_set(e, tf->path, 0, "fallocate", "making room for [%"
			PRIu64 ", %" PRIu64 ") failed: %s", tf->offset, end,
			strerror(-ret));
	return ret;
}

/*
 * zonemode=zbd on an NVMe generic char device of a zoned namespace
 * (zbdplan.c read its zones so): the namespace's block device, which
 * reports and resets them, opened as the one planned and guarded
 * (guard_bdev and still_unused check that device for a passthrough
 * target); read-write for a job that writes or trims (a zone reset is a
 * write: BLKRESETZONE refuses a read-only descriptor). 0, or -errno with
 * e filled.
 */
static int open_zone_dev(struct target *t, struct target_file *tf,
			 const struct job *j, struct err_rec *e)
{
	bool rw = rw_changes_data(j->io.rw);
	struct stat st;
	int fd, r;

	if (!t->zbd || t->zbd_model == ZBD_NONE || !tf->is_nvme_chr ||
	    tf->is_sg_chr || !tf->nvme_bdev)
		return 0;
	fd = open(tf->nvme_bdev, (rw ? O_RDWR : O_RDONLY) | O_CLOEXEC |
		  O_NOFOLLOW);
	if (fd < 0) {
		r = -errno;
		err_set(e, tf->path, 0, "zonemode", "cannot open its "
			"namespace's block device %s, which reports and "
			"resets its zones: %s", tf->nvme_bdev, strerror(-r));
		return r;
	}
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != tf->nvme_bdev_rdev) {
		close(fd);
		err_set(e, tf->path, 0, "zonemode", "%s is no longer its "
			"namespace's block device (device %u:%u when the job "
			"was checked); not opened", tf->nvme_bdev,
			major(tf->nvme_bdev_rdev), minor(tf->nvme_bdev_rdev));
		return -ESTALE;
	}
	tf->zbd_fd = fd;
	return 0;
}

int target_open(struct target *t, struct target *run, size_t nrun,
		const struct job *j, const atomic_int *stop,
		struct err_rec *e)
{
	unsigned i;
	int ret;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		if (!tf->exists)
			adopt(tf, run, nrun);
		if (!tf->is_bdev) {
			ret = open_regular(tf, t, j, stop, e);
			if (ret)
				goto err;
			if (j->target.fill_device && job_reads(j))
				t->region = tf->len;	/* one file */
		}
		if (tf->guard_note && warns_for_files(j))
			twarn(t, "overwrite_device", j, "overwriting %s: %s "
			      "(allow_destructive=1)", tf->path,
			      tf->guard_note);
		tf->writes = job_writes(j);
		tf->fd = open_checked(tf, open_flags(j, tf, tf->writes),
				      tf->writes, e);
		if (tf->fd < 0) {
			ret = tf->fd;
			tf->fd = -1;
			goto err;
		}
		ret = open_zone_dev(t, tf, j, e);
		if (ret)
			goto err;
		apply_fadvise(t, tf, j, true);
		if (j->cache.pre_read)
			pre_read(t, tf, j, stop);
		warn_tmpfs_direct(t, tf, j);
		if (j->target.unlink_each_loop && !tf->created &&
		    !tf->is_bdev && j->time.loops > 1 && !j->time.time_based)
			twarn(t, "unlink_each_loop_kept", j, "job '%s': %s: "
			      "not deleted between loops (unlink_each_loop=1 "
			      "deletes only files this run created)", j->desc.name,
			      tf->path);
	}
	if (t->zbd_rounded)
		twarn(t, "zbd_rounded", j, "%s: zonemode=zbd writes whole "
		      "zones: the region is %" PRIu64 " bytes from %" PRIu64
		      " (fio rounds it the same way), not %" PRIu64 " from %"
		      PRIu64, t->files[t->zbd_rounded_file].path,
		      t->files[t->zbd_rounded_file].len,
		      t->files[t->zbd_rounded_file].offset, t->zbd_asked_len,
		      t->zbd_asked_off);
	return 0;
err:
	target_close(t, false);
	target_undo(t, j, run, nrun);
	return ret;
}

int target_recreate(struct target *t, const struct job *j,
		    const atomic_int *stop, struct err_rec *e)
{
	struct stat st;
	unsigned i;
	int fd, ret;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		if (!tf->created || tf->is_bdev || tf->fd < 0)
			continue;
		ret = unlink_own(tf, "unlink_each_loop");
		if (ret == -ESTALE)
			continue;	/* said; the file is left alone */
		if (ret) {
			err_set(e, tf->path, 0, "unlink_each_loop",
				"cannot delete: %s", strerror(-ret));
			return ret;
		}
		tf->created = false;
		ret = open_regular(tf, t, j, stop, e);
		if (ret)
			return ret;
		fd = open_checked(tf, open_flags(j, tf, job_writes(j)),
				  job_writes(j), e);
		if (fd < 0)
			return fd;
		/* Same fd number: engines that hold it go on with the new
		 * file. */
		if (dup3(fd, tf->fd, O_CLOEXEC) < 0) {
			ret = -errno;
			close(fd);
			err_set(e, tf->path, 0, "unlink_each_loop",
				"cannot reopen: %s", strerror(-ret));
			return ret;
		}
		close(fd);
		if (!fstat(tf->fd, &st))
			id_set(tf, &st);
		apply_fadvise(t, tf, j, true);
	}
	return 0;
}

void target_new_pass(const struct target *t, const struct job *j)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++)
		if (t->files[i].fd >= 0)
			apply_fadvise(t, &t->files[i], j, false);
}

void target_close(struct target *t, bool unlink_created)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		/* what a writing job leaves of the file (target_undo) */
		if (tf->fd >= 0 && tf->writes && !tf->is_bdev)
			note_left(tf, tf->fd, false);
		if (tf->fd >= 0)
			close(tf->fd);
		tf->fd = -1;
		if (tf->zbd_fd >= 0)
			close(tf->zbd_fd);
		tf->zbd_fd = -1;
		if (unlink_created && tf->created && !tf->is_bdev)
			unlink_own(tf, "unlink");
	}
}

void target_free(struct target *t)
{
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		free(t->files[i].path);
		free(t->files[i].guard_note);
		free(t->files[i].nvme_bdev);
		free(t->files[i].nvme_id);
	}
	free(t->files);
	t->files = NULL;
	t->nfiles = 0;
}
