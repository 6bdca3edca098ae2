// SPDX-License-Identifier: MIT
/*
 * A target file's layout: real data written where a file holds none (past
 * its end and, for a job that reads, in its holes and unwritten extents),
 * never over written data; room made without data (fallocate=); the bytes
 * of a range that hold no written data. target.c decides where and when,
 * after its guards; these only act on the descriptor they are given.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "job.h"
#include "layout.h"

/* Fills ranges of a file with real, pseudo-random data. */
struct layout_ctx {
	uint64_t *buf;			/* LAYOUT_CHUNK bytes */
	struct gen_rng rng;
	const atomic_int *stop;
};

/* Called for each range of a file, in order; non-zero stops the walk. */
typedef int (*span_fn)(int fd, uint64_t from, uint64_t to, void *arg);

/*
 * Write fresh data over [from, to): nothing for dedupe or compression.
 * A stop is seen per chunk, and each chunk's writeback starts once it is
 * written and is waited for LAYOUT_BEHIND later: dirty data cannot pile
 * up, so neither a chunk nor the closing fsync holds a signal back for
 * long (sync_file_range is advice here: the fsync reports errors).
 */
static int layout_span(int fd, uint64_t from, uint64_t to, void *arg)
{
	struct layout_ctx *lc = arg;
	uint64_t n, i, start = from;
	ssize_t w;

	while (from < to) {
		if (lc->stop && atomic_load(lc->stop))
			return -EINTR;
		n = to - from < LAYOUT_CHUNK ? to - from : LAYOUT_CHUNK;
		for (i = 0; i < (n + 7) / 8; i++)
			lc->buf[i] = gen_rng_next(&lc->rng);
		w = pwrite(fd, lc->buf, n, (off_t)from);
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		sync_file_range(fd, (off_t)from, w, SYNC_FILE_RANGE_WRITE);
		if (from - start >= LAYOUT_BEHIND)
			sync_file_range(fd, (off_t)(from - LAYOUT_BEHIND), w,
					SYNC_FILE_RANGE_WAIT_BEFORE |
					SYNC_FILE_RANGE_WRITE |
					SYNC_FILE_RANGE_WAIT_AFTER);
		from += (uint64_t)w;
	}
	return 0;
}

static int count_span(int fd, uint64_t from, uint64_t to, void *arg)
{
	*(uint64_t *)arg += to - from;
	return 0;
}

static int span(span_fn fn, int fd, uint64_t from, uint64_t to, void *arg)
{
	return from < to ? fn(fd, from, to, arg) : 0;
}

#define FIEMAP_BATCH	128

/*
 * fn over the holes (gaps between extents) and unwritten extents of
 * [from, to), from FIEMAP. Delayed-allocation and other extents hold data.
 * Returns 1 when the file system has no FIEMAP (nothing was called).
 */
static int fiemap_spans(int fd, uint64_t from, uint64_t to, span_fn fn,
			void *arg)
{
	struct fiemap *fm;
	uint64_t pos = from, s, end;
	bool first = true, last = false;
	unsigned i;
	int ret = 0;

	fm = malloc(sizeof(*fm) + FIEMAP_BATCH * sizeof(fm->fm_extents[0]));
	if (!fm)
		return -ENOMEM;
	while (!ret && !last && pos < to) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = pos;
		fm->fm_length = to - pos;
		/* Sync first: dirty pages over a hole are data. */
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			ret = first ? 1 : -errno;
			break;
		}
		first = false;
		last = fm->fm_mapped_extents == 0;
		for (i = 0; !ret && i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *x = &fm->fm_extents[i];

			s = x->fe_logical;
			end = s + x->fe_length;
			ret = span(fn, fd, pos, s < to ? s : to, arg);
			if (!ret && (x->fe_flags & FIEMAP_EXTENT_UNWRITTEN))
				ret = span(fn, fd, s > pos ? s : pos,
					   end < to ? end : to, arg);
			pos = end > pos ? end : pos;
			last = x->fe_flags & FIEMAP_EXTENT_LAST;
		}
	}
	if (!ret)
		ret = span(fn, fd, pos, to, arg);
	free(fm);
	return ret;
}

/* The same from SEEK_HOLE/SEEK_DATA (tmpfs): holes only. */
static int seek_spans(int fd, uint64_t from, uint64_t to, span_fn fn,
		      void *arg)
{
	uint64_t pos = from, end;
	off_t h, d;
	int ret = 0;

	while (!ret && pos < to) {
		h = lseek(fd, (off_t)pos, SEEK_HOLE);
		if (h < 0)
			return errno == ENXIO || errno == EINVAL ? 0 : -errno;
		if ((uint64_t)h >= to)
			break;
		d = lseek(fd, h, SEEK_DATA);
		if (d < 0 && errno != ENXIO)
			return -errno;
		end = d < 0 || (uint64_t)d > to ? to : (uint64_t)d;
		ret = span(fn, fd, (uint64_t)h, end, arg);
		pos = end;
	}
	return ret;
}

/* fn over every range of [from, to) of fd that holds no written data. */
static int unwritten_spans(int fd, uint64_t from, uint64_t to, span_fn fn,
			   void *arg)
{
	int ret = fiemap_spans(fd, from, to, fn, arg);

	return ret == 1 ? seek_spans(fd, from, to, fn, arg) : ret;
}

int layout_unwritten(const char *path, uint64_t from, uint64_t to,
		     uint64_t *bytes)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	*bytes = 0;
	if (fd < 0)
		return -errno;
	ret = unwritten_spans(fd, from, to, count_span, bytes);
	close(fd);
	return ret;
}

int layout_write(int fd, uint64_t off, uint64_t end, bool fill, bool sync,
		 const atomic_int *stop)
{
	struct layout_ctx lc = { .stop = stop };
	struct stat st;
	uint64_t size;
	int ret = 0;

	if (fstat(fd, &st))
		return -errno;
	size = (uint64_t)st.st_size;
	lc.buf = malloc(LAYOUT_CHUNK);
	if (!lc.buf)
		return -ENOMEM;
	gen_rng_seed(&lc.rng, off ^ 0x6c61796f7574ull);
	if (fill && size > off)
		ret = unwritten_spans(fd, off, size < end ? size : end,
				      layout_span, &lc);
	if (!ret && size < end)
		ret = layout_span(fd, size > off ? size : off, end, &lc);
	if (!ret && sync && fsync(fd))
		ret = -errno;
	free(lc.buf);
	return ret;
}

/*
 * fallocate=, for a job that only writes (overwrite=0): room for
 * [from, end) past the end of the file, no data written (fio's layout of
 * a file a job writes). Unwritten extents read as zeros: a job that reads
 * the file later fills them first (layout=1) and says so. truncate only
 * ever extends; native does nothing where the file system cannot.
 */
int layout_prealloc(int fd, uint64_t from, uint64_t end, int mode,
		    bool sync)
{
	int r = 0;

	if (from >= end)
		return 0;
	switch (mode) {
	case FALLOC_NATIVE:
		if (fallocate(fd, 0, (off_t)from, (off_t)(end - from)) &&
		    errno != EOPNOTSUPP)
			r = -errno;
		break;
	case FALLOC_POSIX:
		r = -posix_fallocate(fd, (off_t)from, (off_t)(end - from));
		break;
	case FALLOC_KEEP:
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)from,
			      (off_t)(end - from)))
			r = -errno;
		break;
	case FALLOC_TRUNCATE:
		if (ftruncate(fd, (off_t)end))
			r = -errno;
		break;
	}
	if (!r && mode != FALLOC_NONE && sync && fsync(fd))
		r = -errno;
	return r;
}
