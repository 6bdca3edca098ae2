// SPDX-License-Identifier: MIT
/*
 * What several engines share (engine.h): hipri='s need of direct=1
 * (io_uring, pvsync2) and the process' seccomp mode for their hints
 * (libaio, io_uring). Here, beside the engines, so that they do not call
 * up into the table of engines (src/engines/engine.c) that names them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "err.h"
#include "job.h"

int engine_check_hipri(const struct job *j, bool hipri, struct err_rec *e)
{
	if (!hipri || j->cache.direct)
		return 0;
	err_set(e, j->plan.section_file, j->plan.section_line, "hipri",
		"polled I/O needs direct=1");
	return -EINVAL;
}

int engine_seccomp_mode(void)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");
	int mode = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}
