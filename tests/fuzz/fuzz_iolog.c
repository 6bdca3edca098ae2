// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: read_iolog's readers (replay.h) on the input as a
 * file: fio's text iolog, or a binary blktrace trace when it starts with
 * blktrace's magic. The input lives in an anonymous memory file
 * (memfd_create), read through /proc/self/fd; replay_redirect keeps the
 * /dev lookup of traced devices out. Checks: 0 with at least one I/O,
 * each naming a file of the list, or a known error with a message.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct replay r;
	struct job j;
	char path[64], msg[512] = "";
	size_t i;
	int fd, ret;

	fd = memfd_create("iolog", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&j, 0, sizeof(j));
	j.logs.read_iolog = path;
	j.logs.replay_redirect = (char *)"/dev/null";
	/* the last byte picks the time scale and the offset knobs */
	j.logs.replay_time_scale = size ? 1 + data[size - 1] % 300 : 100;
	j.logs.replay_scale = size && (data[size - 1] & 1) ? 3 : 0;
	j.logs.replay_align = size && (data[size - 1] & 2) ? 4096 : 0;
	ret = replay_load(&r, &j, msg, sizeof(msg));
	if (!ret) {
		FUZZ_CHECK(r.n > 0 && r.nnames == 1);
		for (i = 0; i < r.n; i++) {
			FUZZ_CHECK(r.v[i].file < r.nnames);
			FUZZ_CHECK(r.v[i].act <= RP_DATASYNC);
			FUZZ_CHECK(r.v[i].act > RP_TRIM ||
				   r.v[i].off + r.v[i].len <= r.max_end);
		}
		replay_free(&r);
	} else {
		FUZZ_CHECK(ret == -EINVAL || ret == -ENOMEM || ret == -EIO ||
			   ret == -E2BIG || ret == -ENODEV);
		FUZZ_CHECK(msg[0] && memchr(msg, '\0', sizeof(msg)));
	}
	close(fd);
	return 0;
}
