// SPDX-License-Identifier: MIT
/*
 * A deflating stdio stream (logz.h): fopencookie over zlib's deflate; and
 * an inflating one over inflate.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "logz.h"

struct logz {
	z_stream zs;
	FILE *under;
	unsigned char out[64 * 1024];
};

/* Deflates n bytes at p with flush into under; 0, or -1 with errno. */
static int logz_run(struct logz *z, const char *p, size_t n, int flush)
{
	int r;

	z->zs.next_in = (unsigned char *)(uintptr_t)p;
	z->zs.avail_in = (uInt)n;
	do {
		z->zs.next_out = z->out;
		z->zs.avail_out = sizeof(z->out);
		r = deflate(&z->zs, flush);
		if (r == Z_STREAM_ERROR) {
			errno = EIO;
			return -1;
		}
		n = sizeof(z->out) - z->zs.avail_out;
		if (n && fwrite(z->out, 1, n, z->under) != n) {
			if (!errno)
				errno = EIO;
			return -1;
		}
	} while (z->zs.avail_in || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

static ssize_t logz_write(void *cookie, const char *buf, size_t size)
{
	struct logz *z = cookie;

	/* uInt counts: stdio hands over at most its buffer at a time */
	if (size > UINT32_MAX)
		size = UINT32_MAX;
	return logz_run(z, buf, size, Z_NO_FLUSH) ? -1 : (ssize_t)size;
}

static int logz_close(void *cookie)
{
	struct logz *z = cookie;
	int r = logz_run(z, "", 0, Z_FINISH);
	int saved = errno;

	deflateEnd(&z->zs);
	free(z);
	errno = saved;
	return r;
}

FILE *logz_open(FILE *under)
{
	cookie_io_functions_t io = { .write = logz_write, .close = logz_close };
	struct logz *z = calloc(1, sizeof(*z));
	FILE *f;

	if (!z)
		return NULL;
	if (deflateInit(&z->zs, Z_DEFAULT_COMPRESSION) != Z_OK) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	z->under = under;
	f = fopencookie(z, "w", io);
	if (!f) {
		deflateEnd(&z->zs);
		free(z);
	}
	return f;
}

struct logz_in {
	z_stream zs;
	FILE *under;
	bool eof;		/* under has no more bytes */
	bool mid;		/* inside a zlib stream */
	unsigned char in[64 * 1024];
};

/* Inflates into buf until some bytes come or the input ends (0). */
static ssize_t logz_read(void *cookie, char *buf, size_t size)
{
	struct logz_in *z = cookie;
	uInt want = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
	size_t got;
	int r;

	z->zs.next_out = (unsigned char *)buf;
	z->zs.avail_out = want;
	while (z->zs.avail_out == want) {
		if (!z->zs.avail_in && !z->eof) {
			got = fread(z->in, 1, sizeof(z->in), z->under);
			if (!got && ferror(z->under)) {
				if (!errno)
					errno = EIO;
				return -1;
			}
			z->eof = !got;
			z->zs.next_in = z->in;
			z->zs.avail_in = (uInt)got;
		}
		if (!z->zs.avail_in) {
			if (!z->mid)
				break;
			errno = EINVAL;	/* a stream cut short */
			return -1;
		}
		z->mid = true;
		r = inflate(&z->zs, Z_NO_FLUSH);
		if (r == Z_STREAM_END) {
			inflateReset(&z->zs);	/* the next job's stream */
			z->mid = false;
		} else if (r != Z_OK) {
			errno = EINVAL;
			return -1;
		}
	}
	return (ssize_t)(want - z->zs.avail_out);
}

static int logz_in_close(void *cookie)
{
	struct logz_in *z = cookie;

	inflateEnd(&z->zs);
	free(z);
	return 0;
}

FILE *logz_open_read(FILE *under)
{
	cookie_io_functions_t io = { .read = logz_read,
				     .close = logz_in_close };
	struct logz_in *z = calloc(1, sizeof(*z));
	FILE *f;

	if (!z)
		return NULL;
	if (inflateInit(&z->zs) != Z_OK) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	z->under = under;
	f = fopencookie(z, "r", io);
	if (!f) {
		inflateEnd(&z->zs);
		free(z);
	}
	return f;
}
