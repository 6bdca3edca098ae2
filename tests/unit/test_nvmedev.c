// SPDX-License-Identifier: MIT
/* The NVMe error log's entries logged during a run (nvmedev.h): those
 * numbered above the count before it, newest first as the controller
 * lists them; empty entries (error_count 0) skipped; the status field's
 * phase tag dropped; little-endian fields read as such; at most max. */
#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <libnvme.h>

#include "nvmedev.h"

static void entry(struct nvme_error_log_page *p, uint64_t count,
		  uint16_t status, uint64_t lba)
{
	memset(p, 0, sizeof(*p));
	p->error_count = htole64(count);
	p->sqid = htole16(1);
	p->cmdid = htole16(0x42);
	/* bit 0: the phase tag; 15:1 the status (SCT 2, SC 0x81) */
	p->status_field = htole16((uint16_t)(status << 1 | 1));
	p->parm_error_location = htole16(0x0204);
	p->lba = htole64(lba);
	p->nsid = htole32(3);
}

static void test_since(void **state)
{
	struct nvme_error_log_page log[4];
	struct nvmedev_errent e[4];

	(void)state;
	entry(&log[0], 12, 0x281, 0x1234);	/* newest first */
	entry(&log[1], 11, 0x282, 7);
	entry(&log[2], 10, 0x004, 0);		/* before the run */
	entry(&log[3], 0, 0, 0);		/* empty */
	assert_int_equal(nvmedev_errors_since(log, 4, 10, e, 4), 2);
	assert_int_equal(e[0].count, 12);
	assert_int_equal(e[0].status, 0x281);
	assert_int_equal(e[0].lba, 0x1234);
	assert_int_equal(e[0].nsid, 3);
	assert_int_equal(e[0].sqid, 1);
	assert_int_equal(e[0].cmdid, 0x42);
	assert_int_equal(e[0].pel, 0x0204);
	assert_int_equal(e[1].count, 11);
	assert_int_equal(e[1].status, 0x282);
	/* nothing new; all new but held to max */
	assert_int_equal(nvmedev_errors_since(log, 4, 12, e, 4), 0);
	assert_int_equal(nvmedev_errors_since(log, 4, 0, e, 2), 2);
	assert_int_equal(e[1].count, 11);
	/* a page of empty entries (QEMU's) names nothing */
	memset(log, 0, sizeof(log));
	assert_int_equal(nvmedev_errors_since(log, 4, 0, e, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_since),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
