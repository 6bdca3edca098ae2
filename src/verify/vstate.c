// SPDX-License-Identifier: MIT
/*
 * What verification leaves in files: the verify state of a writing run
 * (verify_state_save), read back by a verify_only run (verify_state_load)
 * so that it checks only the blocks that run wrote; and the blocks that
 * did not check out, as read and as expected (verify_dump).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "door.h"
#include "job.h"
#include "target.h"
#include "verify.h"
#include "verify_int.h"

#define STATE_MAGIC	"iorig-verify-state 1"
#define DUMP_MAX	VERIFY_FIRST_MAX	/* blocks dumped per job clone */

void verify_state_path(const struct job *j, char *buf, size_t len)
{
	char *p;

	snprintf(buf, len, "%s.%u.verify-state", j->desc.name ? j->desc.name :
		 "job", j->plan.clone);
	/* A job name is not a path: its '/' would name a directory. */
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = '_';
}

void verify_state_name(struct verify_ctx *v, const struct job *j)
{
	verify_state_path(j, v->state_path, sizeof(v->state_path));
}

int verify_state_names(const struct job *j, struct door_names *l)
{
	char path[288];

	/* verify_init keeps the map only for these (state.c) */
	if (!j->vfy.verify || j->vfy.verify_only || !j->vfy.verify_state_save ||
	    j->target.unlink)
		return 0;
	verify_state_path(j, path, sizeof(path));
	return door_names_add(l, "verify_state_save", "%s", path);
}

int verify_state_save(struct verify_ctx *v, char *why, size_t whylen)
{
	uint64_t i, nw = (v->nblocks + 63) / 64, *words;
	struct door_out o;
	struct err_rec e;
	int r;

	if (!v->ever)
		return 0;
	words = malloc((nw ? nw : 1) * sizeof(*words));
	if (!words) {
		snprintf(why, whylen, "saving the verify state: out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nw; i++)
		words[i] = htole64(v->ever[i] & ~v->failed[i]);
	/* whole or not at all: a failed save leaves the previous state */
	r = door_open(&o, v->state_path, "verify_state_save", DOOR_WHOLE,
		      v->tgt ? v->tgt->fence : NULL, &e);
	if (r) {
		free(words);
		snprintf(why, whylen, "saving the verify state: %s: %s "
			 "(verify_state_save=0 does without it)", v->state_path,
			 e.msg);
		return r;
	}
	fprintf(o.f, STATE_MAGIC " bs=%" PRIu32 " blocks=%" PRIu64 " run=%#"
		PRIx64 " gen=%" PRIu64 "-%" PRIu64 "\n", v->bs, v->nblocks,
		v->run_id, v->gen0, v->gen0 + v->pass);
	fwrite(words, sizeof(*words), nw, o.f);
	r = door_close(&o);
	free(words);
	if (r)
		snprintf(why, whylen, "saving the verify state to %s: %s "
			 "(verify_state_save=0 does without it)", v->state_path,
			 strerror(-r));
	return r;
}

int verify_state_load(struct verify_ctx *v, char *why, size_t whylen)
{
	uint64_t blocks = 0, nw = (v->nblocks + 63) / 64, i;
	char line[160], *nl;
	uint32_t bs = 0;
	ssize_t got;
	int fd, r = 0;

	fd = open(v->state_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(why, whylen, "verify_state_load: cannot open %s (the "
			 "writing job's verify_state_save file): %s",
			 v->state_path, strerror(-r));
		return r;
	}
	got = pread(fd, line, sizeof(line) - 1, 0);
	line[got > 0 ? got : 0] = '\0';
	nl = strchr(line, '\n');
	if (!nl || strncmp(line, STATE_MAGIC " ", strlen(STATE_MAGIC) + 1) ||
	    sscanf(line + strlen(STATE_MAGIC), " bs=%" SCNu32 " blocks=%"
		   SCNu64, &bs, &blocks) != 2) {
		snprintf(why, whylen, "verify_state_load: %s is not an iorig "
			 "verify state file", v->state_path);
		r = -EINVAL;
	} else if (bs != v->bs || blocks != v->nblocks) {
		snprintf(why, whylen, "verify_state_load: %s was saved by a "
			 "job of %" PRIu64 " blocks of %" PRIu32 " bytes; this "
			 "job has %" PRIu64 " of %" PRIu32, v->state_path,
			 blocks, bs, v->nblocks, v->bs);
		r = -EINVAL;
	}
	v->loaded = r ? NULL : calloc(nw ? nw : 1, sizeof(uint64_t));
	if (!r && !v->loaded) {
		snprintf(why, whylen, "verify_state_load: out of memory");
		r = -ENOMEM;
	}
	if (!r) {
		got = pread(fd, v->loaded, nw * sizeof(uint64_t),
			    nl + 1 - line);
		if (got != (ssize_t)(nw * sizeof(uint64_t))) {
			snprintf(why, whylen, "verify_state_load: %s is "
				 "short: its block map is cut off",
				 v->state_path);
			r = -EINVAL;
		}
		for (i = 0; i < nw; i++)
			v->loaded[i] = le64toh(v->loaded[i]);
	}
	close(fd);
	return r;
}

bool verify_state_has(const struct verify_ctx *v, uint64_t vblock)
{
	return !v->loaded || (v->loaded[vblock / 64] >> (vblock % 64) & 1);
}

static void dump_file(const struct verify_ctx *v, const char *file,
		      uint64_t off, const char *type, const void *buf,
		      uint32_t len)
{
	const char *base = strrchr(file, '/');
	struct door_out o;
	struct err_rec e;
	char name[512];

	snprintf(name, sizeof(name), "%s.%" PRIu64 ".%s", base ? base + 1 :
		 file, off, type);
	/* Best effort, as fio's: the mismatch is reported either way. */
	if (door_open(&o, name, "verify_dump", DOOR_WHOLE, v->tgt->fence,
		      &e))
		return;
	fwrite(buf, 1, len, o.f);
	door_close(&o);
}

/*
 * FILE.OFFSET.received: the block as read; FILE.OFFSET.expected: the
 * block the expected write made, with the write time of the header found
 * (0 without one), which no checker can know. In a verify_only run the
 * generation expected is that of the header found.
 */
void verify_dump_block(struct verify_ctx *v, const void *buf,
		       const struct verify_blk *b,
		       const struct verify_result *res)
{
	struct verify_hdr h = { 0 };
	unsigned fi;
	void *exp;

	if (v->ndumped >= DUMP_MAX)
		return;
	v->ndumped++;
	verify_where(v, b->vblock, &fi, &h.offset);
	dump_file(v, v->tgt->files[fi].path, h.offset, "received", buf, v->bs);
	if (posix_memalign(&exp, 8, v->bs))
		return;
	h.seed = verify_expected_seed(v, fi, res);
	h.generation = b->generation ? b->generation :
		       res->has_hdr ? res->hdr.generation : 0;
	h.run_id = b->generation || !res->has_hdr ? v->run_id :
		   res->hdr.run_id;
	h.time_ns = res->has_hdr ? res->hdr.time_ns : 0;
	verify_fill(&v->fmt, exp, v->bs, &h);
	dump_file(v, v->tgt->files[fi].path, h.offset, "expected", exp, v->bs);
	free(exp);
}
