// SPDX-License-Identifier: MIT
/*
 * The buffer options' bytes of writes (fill.h: buffer_pattern=,
 * buffer_compress_percentage=, dedupe_percentage=, zero_buffers,
 * scramble_buffers...). A worker feature (feature.h) whose state is the
 * fill itself; the loop writes through it (wf_state(s, WF_FILL)) once its
 * setup has made it (the bit WF_FILL in ft.loop; without it the default
 * bytes, wdata's).
 */
#include <errno.h>
#include <string.h>

#include "wstate.h"

static bool content_wanted(const struct wstate *s)
{
	const struct job *j = s->j;

	/* verify= writes its own bytes; a job that writes none has none */
	return (rw_dirs(j->io.rw) & (1u << DDIR_WRITE)) && !j->vfy.verify &&
	       fill_wanted(j);
}

static int content_setup(struct wstate *s)
{
	struct fill *f = wf_state(s, WF_FILL);
	const struct job *j = s->j;
	uint64_t bs = j->io.bs_max[0] > j->io.bs_max[1] ? j->io.bs_max[0] :
		      j->io.bs_max[1];
	int r;

	/* trimwrite writes each trim's blocks: as long as the trims. */
	if (rw_dirs(j->io.rw) == ((1u << DDIR_WRITE) | (1u << DDIR_TRIM)) &&
	    j->io.bs_max[DDIR_TRIM] > bs)
		bs = j->io.bs_max[DDIR_TRIM];
	r = fill_init(f, j, &s->wdata, bs, s->w->tgt->region, s->depth);
	if (r) {
		job_fail(s, r, "buffer contents: %s", strerror(-r));
		return r;
	}
	s->ft.loop |= WF_BIT(WF_FILL);
	return 0;
}

static void content_teardown(struct wstate *s)
{
	if (s->ft.loop & WF_BIT(WF_FILL))
		fill_free(wf_state(s, WF_FILL));
	s->ft.loop &= ~WF_BIT(WF_FILL);
}

const struct wfeature wf_fill = {
	.name = "buffer contents",
	.size = sizeof(struct fill),
	.wanted = content_wanted,
	.setup = content_setup,
	.teardown = content_teardown,
};
