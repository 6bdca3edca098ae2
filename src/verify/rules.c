// SPDX-License-Identifier: MIT
/*
 * Verification at plan time: the options of a verifying job checked
 * together, and regions that two jobs of one run would write while one of
 * them verifies.
 */#include <errno.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dist.h"
#include "engine.h"
#include "gen.h"
#include "path.h"
#include "target.h"
#include "verify.h"

/* ---- Cross-option checks ---- */

static bool mixed_rw(const struct job *j)
{
	return !j->vfy.verify_only &&
		(j->io.rw == RW_RW || j->io.rw == RW_RANDRW);
}

bool verify_reader(const struct job *j)
{
	return !j->vfy.verify_only &&
		(j->io.rw == RW_READ || j->io.rw == RW_RANDREAD);
}

/*
 * The write patterns whose passes need not write every block (gen.h's
 * random patterns): gaps (rw=write:N), runs (rw=randwrite:N),
 * random_distribution, percentage_random, blockalign, zones.
 */
static bool walk_patterns(const struct job *j)
{
	const int w = DDIR_WRITE;
	bool rnd = rw_random(j->io.rw);

	return j->rnd.dist || j->io.rw_seq_add || j->io.zonesize ||
	       (rnd &&
		(j->io.rw_seq_nr > 1 || j->rnd.percentage_random[w] < 100 ||
		 (j->rnd.blockalign[w] &&
		  j->rnd.blockalign[w] != j->io.bs_min[w])));
}

bool verify_needs_passmap(const struct job *j)
{
	return !j->vfy.verify_only && !verify_reader(j) &&
	       (mixed_rw(j) || j->io.bssplit ||
		j->rnd.norandommap || walk_patterns(j) ||
		j->io.bs_min[DDIR_WRITE] != j->io.bs_max[DDIR_WRITE]);
}

/* The directions whose sizes the unit checked must divide. */
static bool unit_dir(const struct job *j, unsigned d)
{
	if (verify_reader(j))
		return d == DDIR_READ;
	return d == DDIR_WRITE || mixed_rw(j);
}

uint64_t verify_unit(const struct job *j)
{
	/* a reader's interval is bounded by its reads (fio's rule) */
	unsigned d, i, dmin = verify_reader(j) ? DDIR_READ : DDIR_WRITE;
	uint64_t u = 0, iv;

	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		if (!unit_dir(j, d))
			continue;
		u = gen_gcd(u, j->io.bs_min[d]);
		u = gen_gcd(u, j->io.bs_max[d]);
		if (j->rnd.blockalign[d])
			u = gen_gcd(u, j->rnd.blockalign[d]);
	}
	for (d = DDIR_READ; j->io.bss && d <= DDIR_WRITE; d++)
		for (i = 0; i < j->io.bss->n[d]; i++)
			if (unit_dir(j, d))
				u = gen_gcd(u, j->io.bss->e[d][i].bs);
	iv = j->vfy.verify_interval;
	if (iv > j->io.bs_min[dmin])
		iv = j->io.bs_min[dmin];
	if (iv && u % iv == 0)
		u = iv;
	return u;
}

int verify_job_check(const struct job *j, const char **option, char *why,
		     size_t whylen)
{
	const struct engine_ops *eng = j->eng.ioengine ?
				       engine_find(j->eng.ioengine) : NULL;
	uint64_t unit;

	*option = "verify";
	if (j->vfy.verify == VERIFY_NONE) {
		if (j->vfy.verify_only)
			*option = "verify_only";
		else if (j->vfy.verify_backlog)
			*option = "verify_backlog";
		else	/* verify_pattern after verify=0: nothing, as fio */
			return 0;
		snprintf(why, whylen, "needs verify= (a checksum such as "
			 "xxh3, crc32c, md5, sha256, or pattern)");
		return -EINVAL;
	}
	if (eng && (eng->flags & (ENGINE_NOIO | ENGINE_NODATA))) {
		snprintf(why, whylen, "the %s engine moves no data: there is "
			 "nothing to verify", eng->name);
		return -EINVAL;
	}
	/* With another kind, verify_pattern is its blocks' data (fio's
	 * meaning; verify=meta then checks the pattern too). */
	if (j->vfy.verify == VERIFY_PATTERN && !j->vfy.verify_pattern) {
		snprintf(why, whylen, "verify=pattern needs verify_pattern=");
		return -EINVAL;
	}
	unit = verify_unit(j);
	*option = j->vfy.verify_interval ? "verify_interval" : "bs";
	if (!unit || unit % VERIFY_SECTOR || unit > UINT32_MAX) {
		snprintf(why, whylen, "the unit checked (the interval, or the "
			 "greatest common divisor of the block sizes%s, here "
			 "%" PRIu64 " bytes) must be a multiple of %d bytes",
			 mixed_rw(j) ? " read and written" : verify_reader(j) ?
			 " read" : " written", unit,
			 VERIFY_SECTOR);
		return -EINVAL;
	}
	*option = "verify_offset";
	if (j->vfy.verify_offset + verify_hdr_size(j->vfy.verify) > unit) {
		snprintf(why, whylen, "%" PRIu64 ": the %u-byte header must "
			 "fit in the unit checked (%" PRIu64 " bytes) after "
			 "this offset", j->vfy.verify_offset,
			 verify_hdr_size(j->vfy.verify), unit);
		return -EINVAL;
	}
	*option = "verify_state_load";
	if (j->vfy.verify_state_load && !j->vfy.verify_only &&
	    !verify_reader(j)) {
		snprintf(why, whylen, "applies to jobs that check what an "
			 "earlier run wrote (verify_only=1, or rw=read or "
			 "randread): they check the blocks the writing run's "
			 "state file names");
		return -EINVAL;
	}
	if (j->vfy.verify_only) {
		*option = "verify_backlog";
		if (!j->vfy.verify_backlog)
			return 0;
		snprintf(why, whylen, "applies to jobs that write; "
			 "verify_only=1 writes nothing");
		return -EINVAL;
	}
	/* Its reads are checked as they complete (fio's meaning); the
	 * backlog and the check after the writes have nothing to read. */
	if (verify_reader(j))
		return 0;
	*option = "file_service_type";
	if (j->target.file_service >= GEN_FST_ZIPF &&
	    (j->target.nrfiles > 1 ||
	     (j->target.filename && strchr(j->target.filename, ':')))) {
		snprintf(why, whylen, "verification needs every block "
			 "written once per pass; '%s' draws a file for every "
			 "I/O and starts a file over when it is finished, so "
			 "blocks are written again (expected roundrobin, "
			 "sequential or random)", j->target.file_service_type);
		return -EINVAL;
	}
	return 0;
}

/* ---- Plan time: regions that verifying jobs share ---- */

/* One file of one job's region, for verify_plan_overlaps. */
struct vspan {
	unsigned wg;		/* wait group: who runs at the same time */
	bool bdev;
	bool exists;
	dev_t dev;		/* st_rdev of a device, else st_dev */
	ino_t ino;
	char *name;		/* resolved path, for a file not there yet */
	uint64_t start, end;	/* bytes [start, end) */
	size_t job;
	unsigned file;
	bool writes, verifies;
};

static int vspan_key(struct vspan *v, const char *path)
{
	struct stat st;

	if (!stat(path, &st)) {
		v->exists = true;
		v->bdev = S_ISBLK(st.st_mode);
		v->dev = v->bdev ? st.st_rdev : st.st_dev;
		v->ino = v->bdev ? 0 : st.st_ino;
		return 0;
	}
	v->name = path_resolved(path);
	return v->name ? 0 : -ENOMEM;
}

static int vspan_cmp_file(const struct vspan *a, const struct vspan *b)
{
	if (a->exists != b->exists)
		return a->exists ? -1 : 1;
	if (!a->exists)
		return strcmp(a->name, b->name);
	if (a->bdev != b->bdev)
		return a->bdev ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return 0;
}

static int vspan_cmp(const void *pa, const void *pb)
{
	const struct vspan *a = pa, *b = pb;
	int c;

	if (a->wg != b->wg)
		return a->wg < b->wg ? -1 : 1;
	c = vspan_cmp_file(a, b);
	if (c)
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

static bool plan_writes(const struct job *j)
{
	/* Trims change the data too; e4defrag's moves do not. */
	return !j->vfy.verify_only && rw_changes_data(j->io.rw) &&
	       !(j->eng.engine && (j->eng.engine->flags & ENGINE_KEEPS_DATA));
}

/* "job 'x'", "job 'x' clone 2", "job 'x' file 1". */
static void span_who(const struct job *jobs, const struct target *tg,
		     const struct vspan *v, char *buf, size_t len)
{
	const struct job *j = &jobs[v->job];
	int n = snprintf(buf, len, "job '%s'", j->desc.name);

	if (n > 0 && (size_t)n < len && j->eng.numjobs > 1)
		n += snprintf(buf + n, len - (size_t)n, " clone %u",
			      j->plan.clone);
	if (n > 0 && (size_t)n < len && tg[v->job].nfiles > 1)
		snprintf(buf + n, len - (size_t)n, " (its file %u)", v->file);
}

static int span_clash(const struct job *jobs, const struct target *tg,
		      const struct vspan *w, const struct vspan *v,
		      struct err_rec *e)
{
	const struct job *vj = &jobs[v->job];
	const struct target_file *tf = &tg[w->job].files[w->file];
	uint64_t from = w->start > v->start ? w->start : v->start;
	uint64_t to = w->end < v->end ? w->end : v->end;
	char who_w[320], who_v[320];

	span_who(jobs, tg, w, who_w, sizeof(who_w));
	span_who(jobs, tg, v, who_v, sizeof(who_v));
	err_set(e, vj->plan.section_file, vj->plan.section_line, "verify",
		"%s writes "
		"bytes %" PRIu64 "-%" PRIu64 " of %s while %s %s them (the "
		"same stonewall group): the checks would fail on the other "
		"job's data. Give each job its own file or byte range "
		"(filename=, offset=, size=), or put stonewall=1 between them",
		who_w, from, to - 1, tf->path, who_v,
		vj->vfy.verify_only || verify_reader(vj) ? "checks" :
		"writes and verifies");
	return -EINVAL;
}

/*
 * Spans sorted by start: a span overlaps an earlier one when it starts
 * before the largest end so far, so one pass keeps the earlier verifying
 * span and the earlier writing span that reach furthest.
 */
static int spans_scan(const struct job *jobs, const struct target *tg,
		      const struct vspan *s, size_t n, struct err_rec *e)
{
	const struct vspan *ver = NULL, *wr = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i && (s[i].wg != s[i - 1].wg ||
			  vspan_cmp_file(&s[i], &s[i - 1])))
			ver = wr = NULL;
		if (s[i].writes && ver && ver->end > s[i].start)
			return span_clash(jobs, tg, &s[i], ver, e);
		if (s[i].verifies && wr && wr->end > s[i].start)
			return span_clash(jobs, tg, wr, &s[i], e);
		if (s[i].verifies && (!ver || s[i].end > ver->end))
			ver = &s[i];
		if (s[i].writes && (!wr || s[i].end > wr->end))
			wr = &s[i];
	}
	return 0;
}

int verify_plan_overlaps(const struct job *jobs, const struct target *tg,
			 size_t njobs, struct err_rec *e)
{
	struct vspan *s = NULL;
	size_t i, n = 0, cap = 0;
	bool any = false;
	unsigned f;
	int ret = 0;

	for (i = 0; i < njobs; i++) {
		any = any || jobs[i].vfy.verify;
		if (!(jobs[i].eng.engine->flags & ENGINE_NOIO))
			cap += tg[i].nfiles;
	}
	if (!any || !cap)
		return 0;
	s = calloc(cap, sizeof(*s));
	if (!s) {
		err_set(e, "", 0, "", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < njobs && !ret; i++) {
		const struct job *j = &jobs[i];

		if ((j->eng.engine->flags & ENGINE_NOIO) ||
		    (!j->vfy.verify && !plan_writes(j)))
			continue;
		for (f = 0; f < tg[i].nfiles && !ret; f++, n++) {
			s[n].wg = j->plan.wait_group;
			s[n].start = tg[i].files[f].offset;
			s[n].end = s[n].start + tg[i].files[f].len;
			if (s[n].end < s[n].start)
				s[n].end = UINT64_MAX;
			s[n].job = i;
			s[n].file = f;
			s[n].writes = plan_writes(j);
			s[n].verifies = j->vfy.verify != VERIFY_NONE;
			ret = vspan_key(&s[n], tg[i].files[f].path);
		}
	}
	if (ret)
		err_set(e, "", 0, "", "out of memory");
	if (!ret) {
		qsort(s, n, sizeof(*s), vspan_cmp);
		ret = spans_scan(jobs, tg, s, n, e);
	}
	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
	return ret;
}
