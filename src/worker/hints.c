// SPDX-License-Identifier: MIT
/*
 * write_hint= (procattr.h): each file's write lifetime hint, set once
 * before the first I/O. A worker feature (feature.h) with a setup only.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "wstate.h"

static bool hints_wanted(const struct wstate *s)
{
	return s->j->cache.write_hint_rwh && s->w->tgt->files;
}

static int hints_setup(struct wstate *s)
{
	const struct job *j = s->j;
	const struct target *t = s->w->tgt;
	uint64_t hint = j->cache.write_hint_rwh;
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		if (t->files[i].fd < 0 ||
		    !fcntl(t->files[i].fd, F_SET_RW_HINT, &hint))
			continue;
		job_fail(s, -errno, "write_hint=%s on %s: %s",
			 j->cache.write_hint,
			 t->files[i].path, strerror(errno));
		return -errno;
	}
	return 0;
}

const struct wfeature wf_hints = {
	.name = "write_hint",
	.wanted = hints_wanted,
	.setup = hints_setup,
};
