// SPDX-License-Identifier: MIT
/* The deflating stream of log_store_compressed (logz.h), read back with
 * zlib's own inflate; the inflating one of --inflate-log. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "logz.h"

/* 3 MiB through a 1 MiB buffer (several deflate runs, output chunks of
 * 64 KiB) come back byte for byte, as one zlib stream. */
static void test_round_trip(void **state)
{
	size_t n = 3u << 20, len = 0, i;
	unsigned char *in = malloc(n), *back = malloc(n + 1);
	char *buf = NULL;
	uint64_t x = 88172645463325252ull;
	uLongf outlen = (uLongf)n + 1;
	FILE *mem, *z;

	(void)state;
	assert_non_null(in);
	assert_non_null(back);
	for (i = 0; i < n; i++) {	/* half noise, half text */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		in[i] = (i / 4096) % 2 ? (unsigned char)x :
			(unsigned char)"0123, 4096\n"[i % 11];
	}
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	z = logz_open(mem);
	assert_non_null(z);
	assert_int_equal(setvbuf(z, NULL, _IOFBF, 1u << 20), 0);
	for (i = 0; i < n; i += 40)
		assert_int_equal(fwrite(in + i, 1, n - i < 40 ? n - i : 40, z),
				 n - i < 40 ? n - i : 40);
	assert_int_equal(fclose(z), 0);
	assert_int_equal(fclose(mem), 0);
	assert_true(len > 0 && len < n);
	assert_int_equal(uncompress(back, &outlen, (unsigned char *)buf, len),
			 Z_OK);
	assert_int_equal(outlen, n);
	assert_memory_equal(back, in, n);
	free(buf);
	free(in);
	free(back);
}

/* Nothing written: still a whole (empty) stream, as fio's empty logs. */
static void test_empty(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	unsigned char b[1];
	uLongf outlen = sizeof(b);
	FILE *mem = open_memstream(&buf, &len), *z;

	(void)state;
	assert_non_null(mem);
	z = logz_open(mem);
	assert_non_null(z);
	assert_int_equal(fclose(z), 0);
	assert_int_equal(fclose(mem), 0);
	assert_int_equal(uncompress(b, &outlen, (unsigned char *)buf, len),
			 Z_OK);
	assert_int_equal(outlen, 0);
	free(buf);
}

/* A write the file refuses (/dev/full) fails the close, with errno. */
static void test_write_error(void **state)
{
	FILE *full = fopen("/dev/full", "w"), *z;
	char line[64] = "1, 2, 3, 4096, 0\n";
	int i;

	(void)state;
	if (!full)
		skip();
	setvbuf(full, NULL, _IONBF, 0);
	z = logz_open(full);
	assert_non_null(z);
	for (i = 0; i < 1000; i++)
		fputs(line, z);
	errno = 0;
	assert_int_equal(fclose(z), EOF);
	assert_int_equal(errno, ENOSPC);
	fclose(full);
}

/* A stream of n bytes of in, deflated by zlib's compress2 into out
 * (room for it); its length. */
static size_t zstream(const unsigned char *in, size_t n, unsigned char *out,
		      size_t room, int level)
{
	uLongf len = (uLongf)room;

	assert_int_equal(compress2(out, &len, in, (uLong)n, level), Z_OK);
	return (size_t)len;
}

/*
 * The inflating stream (--inflate-log): two streams back to back (a shared
 * .fz file), one stored and one deflated, read through a small buffer,
 * come back as their bytes one after the other; an empty stream adds
 * none; the same bytes cut short, or bytes that are no zlib stream, make
 * a read fail with EINVAL.
 */
static void test_read(void **state)
{
	size_t n = 200000, i, zl = 0, got;
	unsigned char *in = malloc(2 * n), *z = malloc(4 * n + 64);
	unsigned char *back = malloc(2 * n + 1);
	FILE *mem, *r;

	(void)state;
	assert_non_null(in);
	assert_non_null(z);
	assert_non_null(back);
	for (i = 0; i < 2 * n; i++)
		in[i] = (unsigned char)(i * 7 / 3);
	zl += zstream(in, n, z, 2 * n + 32, 0);
	zl += zstream(in, 0, z + zl, 32, 6);
	zl += zstream(in + n, n, z + zl, 2 * n + 32, 9);
	mem = fmemopen(z, zl, "r");
	assert_non_null(mem);
	r = logz_open_read(mem);
	assert_non_null(r);
	assert_int_equal(setvbuf(r, NULL, _IOFBF, 4096), 0);
	got = fread(back, 1, 2 * n + 1, r);
	assert_int_equal(got, 2 * n);
	assert_false(ferror(r));
	assert_memory_equal(back, in, 2 * n);
	fclose(r);
	fclose(mem);
	/* cut short in the second stream */
	mem = fmemopen(z, zl - 10, "r");
	r = logz_open_read(mem);
	assert_non_null(r);
	got = fread(back, 1, 2 * n + 1, r);
	assert_true(got < 2 * n);
	assert_true(ferror(r));
	assert_int_equal(errno, EINVAL);
	fclose(r);
	fclose(mem);
	/* not zlib */
	mem = fmemopen(in, 1000, "r");
	r = logz_open_read(mem);
	assert_non_null(r);
	assert_int_equal(fread(back, 1, 10, r), 0);
	assert_true(ferror(r));
	fclose(r);
	fclose(mem);
	free(in);
	free(z);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
