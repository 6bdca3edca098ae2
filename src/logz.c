// SPDX-License-Identifier: MIT
/*
 * A deflating stdio stream (logz.h): fopencookie over zlib's deflate.
 */
#include <errno.h>
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
