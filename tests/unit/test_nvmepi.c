// SPDX-License-Identifier: MIT
/*
 * The protection information the host writes and checks (nvmepi.h): the
 * guard's CRC-16 T10-DIF against the catalogue's check value and a
 * bitwise CRC; where the fields lie in an extended LBA's blocks and in
 * separate metadata (the specification's layout: guard, application
 * tag, reference tag, big-endian); the check finding each field changed,
 * the mask, type 3's reference tag, the 0xffff escape; a namespace's
 * blocks in the buffers (QEMU's namespaces 3 and 4 of the test guest).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nvmedev.h"
#include "nvmepi.h"
#include "unit.h"

#define ALL (NVMEDEV_PRCHK_GUARD | NVMEDEV_PRCHK_APP | NVMEDEV_PRCHK_REF)

/* The definition, a bit at a time: polynomial 0x8bb7, not reflected. */
static uint16_t crc_bits(uint16_t c, const uint8_t *p, size_t n)
{
	unsigned b;

	while (n--) {
		c ^= (uint16_t)(*p++ << 8);
		for (b = 0; b < 8; b++)
			c = (uint16_t)(c & 0x8000 ? c << 1 ^ 0x8bb7 : c << 1);
	}
	return c;
}

static void test_crc(void **state)
{
	struct nvmepi p;
	uint8_t buf[4104];
	size_t i;

	(void)state;
	nvmepi_init(&p, ALL, 0, 0);
	/* CRC-16/T10-DIF's check value (the CRC catalogue) */
	assert_int_equal(nvmepi_crc(&p, 0, "123456789", 9), 0xd0db);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	assert_int_equal(nvmepi_crc(&p, 0, buf, sizeof(buf)),
			 crc_bits(0, buf, sizeof(buf)));
	/* going on from a CRC is the CRC of the whole */
	assert_int_equal(nvmepi_crc(&p, nvmepi_crc(&p, 0, buf, 4096),
				    buf + 4096, 8), crc_bits(0, buf, 4104));
}

static const struct nvmedev_ident ns3 = {	/* extended LBA, PI type 1 */
	.nsid = 3, .lba_size = 4096, .ms = 8, .extended = true, .pi_type = 1,
};
static const struct nvmedev_ident ns4 = {	/* separate metadata */
	.nsid = 4, .lba_size = 4096, .ms = 8, .pi_type = 1,
};

static void test_fmt(void **state)
{
	struct nvmedev_ident id = ns4;
	struct nvmepi_fmt f;
	uint64_t slba, nlb;

	(void)state;
	nvmepi_fmt_set(&f, &ns3, false);
	assert_int_equal(f.ext, 4104);
	assert_int_equal(f.ms, 0);
	assert_true(f.pi_host);
	assert_int_equal(nvmepi_block(&ns3, false), 4104);
	assert_int_equal(nvmepi_lbas(&f, 2 * 4104, 3 * 4104, &slba, &nlb), 0);
	assert_int_equal(slba, 2);
	assert_int_equal(nlb, 3);
	assert_int_equal(nvmepi_lbas(&f, 4096, 4104, &slba, &nlb), -EINVAL);
	/* pi_act=1 and 8 bytes of PI: the controller's, nothing moves */
	nvmepi_fmt_set(&f, &ns3, true);
	assert_false(nvmepi_md_moves(&ns3, true));
	assert_int_equal(f.ext, 0);
	assert_false(f.pi_host);
	assert_int_equal(nvmepi_block(&ns3, true), 4096);
	assert_int_equal(nvmepi_lbas(&f, 8192, 4096, &slba, &nlb), 0);
	assert_int_equal(slba, 2);
	assert_int_equal(nvmepi_lbas(&f, 8192, 4100, &slba, &nlb), -EINVAL);
	nvmepi_fmt_set(&f, &ns4, false);
	assert_int_equal(f.ms, 8);
	assert_int_equal(f.pi_at, 0);
	assert_int_equal(f.shift, 12);
	/* 16 bytes of metadata: the PI in its last 8, or its first */
	id.ms = 16;
	nvmepi_fmt_set(&f, &id, true);
	assert_true(nvmepi_md_moves(&id, true));
	assert_int_equal(f.pi_at, 8);
	assert_false(f.pi_host);
	id.pi_first = true;
	nvmepi_fmt_set(&f, &id, false);
	assert_int_equal(f.pi_at, 0);
	assert_true(f.pi_host);
}

static uint8_t data[3 * 4104];
static uint8_t md[3 * 16];

/* Three blocks from LBA 0x100000005 written (prchk, type), then
 * checked; the bytes at block b's PI are pi. */
static void three(struct nvmepi *p, struct nvmepi_fmt *f, unsigned prchk,
		  uint8_t type, const struct nvmedev_ident *id)
{
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);
	memset(md, 0xa5, sizeof(md));
	nvmepi_init(p, prchk, 0x1234, 0xff00);
	nvmepi_fmt_set(f, id, false);
	f->pi_type = type;
	nvmepi_write(p, f, data, md, 0x100000005ull, 3);
}

static int check(const struct nvmepi *p, const struct nvmepi_fmt *f,
		 const char *want)
{
	char why[128] = "";
	int r = nvmepi_check(p, f, data, md, 0x100000005ull, 3, why,
			     sizeof(why));

	if (want)
		CHECK(strstr(why, want), "why: '%s', expected '%s'", why,
		      want);
	else
		CHECK(!why[0], "why: '%s'", why);
	return r;
}

static void test_separate(void **state)
{
	struct nvmedev_ident id = ns4;
	struct nvmepi p;
	struct nvmepi_fmt f;
	const uint8_t *pi;
	uint16_t g;

	(void)state;
	id.ms = 16;	/* 8 bytes before the PI, which the guard covers */
	three(&p, &f, ALL, 1, &id);
	pi = md + 16 + 8;	/* block 1 */
	g = crc_bits(crc_bits(0, data + 4096, 4096), md + 16, 8);
	assert_int_equal(pi[0] << 8 | pi[1], g);
	assert_memory_equal(pi + 2, "\x12\x34\x00\x00\x00\x06", 6);
	assert_int_equal(md[16 + 7], 0xa5);	/* before the PI: kept */
	assert_int_equal(check(&p, &f, NULL), 0);
	data[2 * 4096 + 100] ^= 1;
	assert_int_equal(check(&p, &f, "guard 0x"), -EILSEQ);
	assert_int_equal(check(&p, &f, "at LBA 4294967303"), -EILSEQ);
	data[2 * 4096 + 100] ^= 1;
	md[16 + 8 + 3] ^= 0x01;		/* apptag, outside the mask */
	assert_int_equal(check(&p, &f, NULL), 0);
	md[16 + 8 + 2] ^= 0x01;		/* inside it */
	assert_int_equal(check(&p, &f, "application tag 0x1300, expected "
			       "0x1200, at LBA 4294967302"), -EILSEQ);
	md[16 + 8 + 2] = 0xff;		/* 0xffff: not checked */
	md[16 + 8 + 3] = 0xff;
	md[16 + 8 + 7] ^= 1;
	assert_int_equal(check(&p, &f, NULL), 0);
	md[16 + 8 + 2] = 0x12;
	md[16 + 8 + 3] = 0x34;
	assert_int_equal(check(&p, &f, "reference tag 0x7, expected 0x6"),
			 -EILSEQ);
	/* only the guard: the tags are neither written nor checked */
	three(&p, &f, NVMEDEV_PRCHK_GUARD, 1, &id);
	assert_memory_equal(md + 8 + 2, "\xa5\xa5\xa5\xa5\xa5\xa5", 6);
	assert_int_equal(check(&p, &f, NULL), 0);
	/* type 3: no reference tag */
	three(&p, &f, ALL, 3, &id);
	assert_memory_equal(md + 8 + 2, "\x12\x34\xa5\xa5\xa5\xa5", 4);
	assert_int_equal(check(&p, &f, NULL), 0);
}

static void test_extended(void **state)
{
	struct nvmepi p;
	struct nvmepi_fmt f;
	const uint8_t *pi = data + 2 * 4104 + 4096;	/* block 2 */
	uint16_t g;

	(void)state;
	memset(md, 0, sizeof(md));
	three(&p, &f, ALL, 1, &ns3);
	assert_memory_equal(md, "\xa5\xa5\xa5\xa5", 4);	/* not used */
	g = crc_bits(0, data + 2 * 4104, 4096);
	assert_int_equal(pi[0] << 8 | pi[1], g);
	assert_memory_equal(pi + 2, "\x12\x34\x00\x00\x00\x07", 6);
	assert_int_equal(check(&p, &f, NULL), 0);
	data[4104 + 4096 + 7] ^= 0x10;	/* block 1's reference tag */
	assert_int_equal(check(&p, &f, "reference tag 0x16, expected 0x6"),
			 -EILSEQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_separate),
		cmocka_unit_test(test_extended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
