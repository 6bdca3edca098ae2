// SPDX-License-Identifier: MIT
/*
 * A job's verification state at run time: which blocks were written (and
 * which writes failed), the block map, the region locks, checking a block
 * read back, and the mismatches found, classified by block.c.
 */#include <errno.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "target.h"
#include "verify.h"
#include "verify_int.h"

/* A verify_only run's view of one earlier writing run. */
struct verify_run {
	uint64_t run_id;
	uint64_t gen_min, gen_max;
	uint64_t blocks;
	unsigned nblk;
	struct {
		uint64_t vblock;
		struct verify_hdr hdr;
	} blk[VERIFY_RUN_BLOCKS];
};

/* ---- A job's verification state ---- */

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What v checks: its unit, largest I/O, blocks, seeds and this run's
 * identity. */
static void verify_geometry(struct verify_ctx *v, const struct job *j,
			    const struct target *t)
{
	v->tgt = t;
	v->bs = (uint32_t)verify_unit(j);
	v->maxio = (uint32_t)(j->io.bs_max[DDIR_WRITE] >
			      j->io.bs_max[DDIR_READ] ?
			      j->io.bs_max[DDIR_WRITE] :
			      j->io.bs_max[DDIR_READ]);
	v->maxio -= v->maxio % v->bs;
	if (v->maxio < v->bs)
		v->maxio = v->bs;
	v->fmt.voff = (uint32_t)j->vfy.verify_offset;
	/* Blocks of the generator's space: a slot of file_region bytes a
	 * file, whatever the file's own length (gen.h). */
	v->nblocks = t->file_region * t->nfiles / v->bs;
	v->randseed = j->rnd.randseed;
	v->clone = j->plan.clone;
	v->fatal = j->vfy.verify_fatal;
	v->reader = verify_reader(j);
	if (getrandom(&v->run_id, sizeof(v->run_id), GRND_NONBLOCK) !=
	    sizeof(v->run_id))
		v->run_id = verify_mix64(realtime_ns() ^ ((uint64_t)getpid() << 32));
	v->gen0 = realtime_ns();
	v->stats.kind = j->vfy.verify;
}

/* verify_backlog=: the ring of writes to check (allocation checked by
 * the caller). */
static void verify_backlog_init(struct verify_ctx *v, const struct job *j)
{
	v->backlog = (uint32_t)j->vfy.verify_backlog;
	v->backlog_batch = j->vfy.verify_backlog_batch ?
			   (uint32_t)j->vfy.verify_backlog_batch : v->backlog;
	v->ring = calloc(v->backlog, sizeof(*v->ring));
	if (j->vfy.do_verify)
		v->checked = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
}

/* trim_percentage= with trim_backlog=: fio trims only then, of the
 * writes it checks. */
static int verify_trim_init(struct verify_ctx *v, const struct job *j)
{
	v->tpct = (uint32_t)j->vfy.trim_percentage;
	v->tbacklog = (uint32_t)j->vfy.trim_backlog;
	v->tbatch = j->vfy.trim_backlog_batch ?
		    (uint32_t)j->vfy.trim_backlog_batch : v->tbacklog;
	v->tzero = j->vfy.trim_verify_zero;
	v->tcap = v->nblocks < (1u << 20) ? (uint32_t)v->nblocks : 1u << 20;
	v->trimmed = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	v->tring = calloc(v->tcap ? v->tcap : 1, sizeof(*v->tring));
	return v->trimmed && v->tring ? 0 : -ENOMEM;
}

/* verify_state_save=: every block ever written, and those that failed. */
static int verify_ever_init(struct verify_ctx *v)
{
	v->ever = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	if (!v->failed)
		v->failed = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	return v->ever && v->failed ? 0 : -ENOMEM;
}

/* Whether each map v's options need was allocated. */
static bool verify_maps_made(const struct verify_ctx *v, const struct job *j,
			     bool w)
{
	return !((w && j->vfy.do_verify && !v->written && !v->wpass) ||
		 (verify_needs_passmap(j) && !v->wpass) ||
		 (v->backlog &&
		  (!v->ring || (j->vfy.do_verify && !v->checked))) ||
		 (j->vfy.verify_only && !v->runs) ||
		 ((v->written || v->ring || v->wpass) && !v->failed));
}

int verify_init(struct verify_ctx **out, const struct job *j,
		const struct target *t)
{
	struct verify_ctx *v = calloc(1, sizeof(*v));
	bool w;
	int n;

	*out = NULL;
	if (!v)
		return -ENOMEM;
	n = verify_fmt_init(&v->fmt, j->vfy.verify, true);
	if (n) {
		free(v);
		return n;
	}
	/* the data of every kind; parsed by the option's setter */
	if (j->vfy.verify_pat && j->vfy.verify_pat->len <= VERIFY_PATTERN_MAX) {
		memcpy(v->fmt.pattern, j->vfy.verify_pat->data,
		       j->vfy.verify_pat->len);
		v->fmt.plen = j->vfy.verify_pat->len;
	}
	verify_geometry(v, j, t);
	/* a reader writes nothing: no block map, backlog, trims or state */
	w = !j->vfy.verify_only && !v->reader;
	if (verify_needs_passmap(j))
		v->wpass = calloc(v->nblocks ? v->nblocks : 1,
				  sizeof(*v->wpass));
	else if (w && j->vfy.do_verify)
		v->written = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	if (w && j->vfy.verify_backlog)
		verify_backlog_init(v, j);
	if (w && j->vfy.do_verify && j->vfy.trim_percentage &&
	    j->vfy.trim_backlog && verify_trim_init(v, j)) {
		verify_exit(v);
		return -ENOMEM;
	}
	if (v->written || v->ring || v->wpass)
		v->failed = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	if (j->vfy.verify_only)
		v->runs = calloc(VERIFY_RUNS_MAX, sizeof(*v->runs));
	v->dump = j->vfy.verify_dump;
	verify_state_name(v, j);
	/* unlink=1 removes the data: there is nothing to check later. */
	if ((w && j->vfy.verify_state_save && !j->target.unlink &&
	     verify_ever_init(v)) || !verify_maps_made(v, j, w)) {
		verify_exit(v);
		return -ENOMEM;
	}
	*out = v;
	return 0;
}

void verify_exit(struct verify_ctx *v)
{
	if (!v)
		return;
	free(v->written);
	free(v->trimmed);
	free(v->tring);
	free(v->wpass);
	free(v->failed);
	free(v->ring);
	free(v->checked);
	free(v->runs);
	free(v->ever);
	free(v->loaded);
	verify_fmt_exit(&v->fmt);
	free(v);
}

int verify_lock(const struct target *t, bool writes, char *why,
		size_t whylen)
{
	struct flock fl;
	char holder[32];
	unsigned i;
	int err;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];

		memset(&fl, 0, sizeof(fl));
		fl.l_type = writes ? F_WRLCK : F_RDLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = (off_t)tf->offset;
		fl.l_len = (off_t)tf->len;
		if (!fcntl(tf->fd, F_OFD_SETLK, &fl))
			continue;
		err = errno;
		if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL)
			continue;
		if (err != EAGAIN && err != EACCES) {
			snprintf(why, whylen, "locking bytes %" PRIu64 "-%"
				 PRIu64 " of %s (fcntl F_OFD_SETLK): %s",
				 tf->offset, tf->offset + tf->len - 1,
				 tf->path, strerror(err));
			return -err;
		}
		holder[0] = '\0';
		if (!fcntl(tf->fd, F_OFD_GETLK, &fl) && fl.l_type != F_UNLCK &&
		    fl.l_pid > 0)
			snprintf(holder, sizeof(holder), " (pid %ld)",
				 (long)fl.l_pid);
		snprintf(why, whylen, "another process%s holds a lock on "
			 "bytes of %s that this job %s (%" PRIu64 "-%" PRIu64
			 "): another iorig run, or another program, is %s "
			 "them, and this job's checks could not be trusted; "
			 "run the two one after the other, or on other bytes",
			 holder, tf->path, writes ? "writes and verifies" :
			 "checks", tf->offset, tf->offset + tf->len - 1,
			 fl.l_type == F_RDLCK ? "checking" : "writing");
		return -EAGAIN;
	}
	return 0;
}

void verify_where(const struct verify_ctx *v, uint64_t vblock,
		  unsigned *file, uint64_t *offset)
{
	const struct target *t = v->tgt;
	uint64_t off = vblock * v->bs, fi = 0;

	/* As the worker maps the offsets it generates. */
	if (t->nfiles > 1) {
		fi = off / t->file_region;
		off -= fi * t->file_region;
	}
	*file = (unsigned)fi;
	*offset = off + t->files[fi].offset;
}

void verify_stamp_io(struct verify_ctx *v, void *buf, uint64_t vblock,
		     uint32_t n)
{
	struct verify_hdr h = { 0 };
	uint64_t vb, bit;
	uint32_t k;
	unsigned fi;

	h.generation = v->gen0 + v->pass;
	h.time_ns = realtime_ns();
	h.run_id = v->run_id;
	for (k = 0; k < n; k++) {
		vb = vblock + k;
		bit = 1ull << (vb % 64);
		verify_where(v, vb, &fi, &h.offset);
		h.seed = verify_file_seed(v->randseed, v->clone, fi);
		verify_fill(&v->fmt, (uint8_t *)buf + (size_t)k * v->bs, v->bs,
			    &h);
		if (v->written)
			v->written[vb / 64] |= bit;
		if (v->wpass)
			v->wpass[vb] = (uint32_t)(v->pass + 1);
		if (v->ever)
			v->ever[vb / 64] |= bit;
		if (v->trimmed)
			v->trimmed[vb / 64] &= ~bit;
		if (v->checked)
			v->checked[vb / 64] &= ~bit;
	}
	if (v->ring && v->ring_len < v->backlog) {
		v->ring[v->ring_len].vblock = vblock;
		v->ring[v->ring_len].generation = h.generation;
		v->ring[v->ring_len].n = n;
		v->ring_len++;
	}
}

void verify_stamp(struct verify_ctx *v, void *buf, uint64_t vblock)
{
	verify_stamp_io(v, buf, vblock, 1);
}

/*
 * trim_percentage of the blocks written go to the trim ring (a full ring
 * takes no more); every trim_backlog blocks written, trim_backlog_batch
 * trims fall due (fio's meaning).
 */
static void trim_note(struct verify_ctx *v, uint64_t vblock)
{
	uint64_t r = verify_mix64(v->randseed ^ ((uint64_t)v->clone << 48) ^
				  v->tctr++ * 0x9e3779b97f4a7c15ull);

	if (r % 100 < v->tpct && v->tlen < v->tcap)
		v->tring[(v->thead + v->tlen++) % v->tcap] = vblock;
	if (++v->tlogged % v->tbacklog == 0 && v->tlen)
		v->tdue = v->tbatch;
}

bool verify_trim_next(struct verify_ctx *v, uint64_t *vblock)
{
	if (!v->tdue || !v->tlen) {
		v->tdue = 0;
		return false;
	}
	v->tdue--;
	*vblock = v->tring[v->thead];
	v->thead = (v->thead + 1) % v->tcap;
	v->tlen--;
	return true;
}

void verify_trim_done(struct verify_ctx *v, uint64_t vblock)
{
	v->trimmed[vblock / 64] |= 1ull << (vblock % 64);
	/* its zeros are checked after the writes (trim_verify_zero) */
	if (v->checked)
		v->checked[vblock / 64] &= ~(1ull << (vblock % 64));
}

void verify_write_done(struct verify_ctx *v, uint64_t vblock, bool ok)
{
	uint64_t bit = 1ull << (vblock % 64);

	if (v->trimmed && ok && vblock < v->nblocks)
		trim_note(v, vblock);
	if (!v->failed || vblock >= v->nblocks)
		return;
	if (ok)
		v->failed[vblock / 64] &= ~bit;
	else
		v->failed[vblock / 64] |= bit;
}

bool verify_write_failed(const struct verify_ctx *v, uint64_t vblock)
{
	return v->failed && vblock < v->nblocks &&
	       (v->failed[vblock / 64] >> (vblock % 64) & 1);
}

void verify_new_pass(struct verify_ctx *v)
{
	v->pass++;
	if (v->written)
		memset(v->written, 0, (v->nblocks + 63) / 64 *
		       sizeof(uint64_t));
}

void verify_backlog_checked(struct verify_ctx *v, uint64_t vblock,
			    uint32_t n)
{
	uint64_t vb;

	for (vb = vblock; v->checked && vb < vblock + (n ? n : 1) &&
	     vb < v->nblocks; vb++)
		v->checked[vb / 64] |= 1ull << (vb % 64);
}

/* Blocks not to check again: failed writes, and those the backlog did. */
static uint64_t skip_word(const struct verify_ctx *v, uint64_t w)
{
	return v->failed[w] | (v->checked ? v->checked[w] : 0);
}

bool verify_next_written(const struct verify_ctx *v, uint64_t from,
			 struct verify_blk *b)
{
	uint64_t vb = from, w;

	while (v->wpass && vb < v->nblocks) {
		if (v->wpass[vb] && !(skip_word(v, vb / 64) >> (vb % 64) & 1)) {
			b->generation = v->gen0 + v->wpass[vb] - 1;
			break;
		}
		vb++;
	}
	while (!v->wpass && vb < v->nblocks) {
		/* Passes before the last one covered every block of each
		 * file's region; of uneven files (filesize=LO-HI) not the
		 * tail of a slot past its file's end: skip it. */
		if (v->pass && v->tgt->uneven) {
			uint64_t sb = v->tgt->file_region / v->bs;
			uint64_t fi = vb / sb;

			if (vb - fi * sb >= v->tgt->files[fi].len / v->bs) {
				vb = (fi + 1) * sb;
				continue;
			}
		}
		w = v->pass ? ~0ull : v->written[vb / 64];
		/* A failed write says nothing about the device; a block
		 * the backlog checked is not read twice. */
		w = (w & ~skip_word(v, vb / 64)) >> (vb % 64);
		if (w & 1) {
			b->generation = v->gen0 + v->pass -
					!(v->written[vb / 64] >> (vb % 64) & 1);
			break;
		}
		/* Not to check: skip to the next block that is. */
		vb = w ? vb + (uint64_t)__builtin_ctzll(w) : (vb | 63) + 1;
	}
	b->vblock = vb;
	b->n = 1;
	return vb < v->nblocks;
}

/* Room in the report for a mismatch of order seq; NULL when it is late. */
static struct verify_mismatch *report_slot(struct verify_stats *st,
					   uint64_t seq)
{
	unsigned i = st->nfirst;

	while (i > 0 && st->first[i - 1].seq > seq)
		i--;
	if (i == VERIFY_FIRST_MAX)
		return NULL;
	if (st->nfirst == VERIFY_FIRST_MAX)
		st->nfirst--;
	memmove(&st->first[i + 1], &st->first[i],
		(st->nfirst - i) * sizeof(st->first[0]));
	st->nfirst++;
	memset(&st->first[i], 0, sizeof(st->first[i]));
	st->first[i].seq = seq;
	return &st->first[i];
}

/*
 * Count a mismatch of block b and keep it for the report when it is among
 * the first: in region order for verify_only (whose stale blocks are only
 * known at the end), else in the order found.
 */
static void note_mismatch(struct verify_ctx *v, int cls, uint64_t vblock,
			  uint64_t exp_gen, const struct verify_result *res)
{
	struct verify_mismatch *m;
	unsigned fi;

	v->stats.mismatches++;
	v->stats.by_class[cls]++;
	/* verify_only knows stale blocks only at the end. */
	if (v->fatal && (cls != VC_STALE || !v->runs)) {
		v->halt = true;
		v->stats.stopped = true;
	}
	m = report_slot(&v->stats, v->runs ? vblock : v->nfound);
	v->nfound++;
	if (!m)
		return;
	verify_where(v, vblock, &fi, &m->offset);
	snprintf(m->file, sizeof(m->file), "%s", v->tgt->files[fi].path);
	m->cls = (uint8_t)cls;
	m->found_hdr = res->has_hdr;
	if (res->has_hdr)
		m->found = res->hdr;
	m->expected.magic = VERIFY_MAGIC;
	m->expected.offset = m->offset;
	m->expected.len = v->bs;
	m->expected.kind = (uint16_t)v->fmt.kind;
	m->expected.version = 1;
	m->expected.seed = verify_expected_seed(v, fi, res);
	if (exp_gen) {
		m->exp_gen = true;
		m->expected.generation = exp_gen;
		m->expected.run_id = v->run_id;
	}
	snprintf(m->detail, sizeof(m->detail), "%s", res->detail);
}

static void run_remember(struct verify_run *r, uint64_t vblock,
			 const struct verify_hdr *h)
{
	if (h->generation < r->gen_min)
		r->gen_min = h->generation;
	if (h->generation > r->gen_max)
		r->gen_max = h->generation;
	r->blocks++;
	if (r->nblk < VERIFY_RUN_BLOCKS) {
		r->blk[r->nblk].vblock = vblock;
		r->blk[r->nblk].hdr = *h;
		r->nblk++;
	}
}

/* Every block of run r is stale: count them, report the first. */
static void run_stale(struct verify_ctx *v, const struct verify_run *r)
{
	struct verify_result res = { .has_hdr = true };
	unsigned i;

	for (i = 0; i < r->nblk; i++) {
		res.hdr = r->blk[i].hdr;
		note_mismatch(v, VC_STALE, r->blk[i].vblock, 0, &res);
	}
	/* note_mismatch counted the remembered ones. */
	v->stats.mismatches += r->blocks - r->nblk;
	v->stats.by_class[VC_STALE] += r->blocks - r->nblk;
}

/*
 * verify_only: an intact block of run h->run_id. With more runs than the
 * table holds, the run with the oldest newest generation cannot be the
 * newest run: its blocks are stale now.
 */
static void run_note(struct verify_ctx *v, uint64_t vblock,
		     const struct verify_hdr *h)
{
	struct verify_run *r, *oldest = NULL;
	struct verify_result res = { .has_hdr = true, .hdr = *h };
	unsigned i;

	for (i = 0; i < v->nruns; i++) {
		r = &v->runs[i];
		if (r->run_id == h->run_id) {
			run_remember(r, vblock, h);
			return;
		}
		if (!oldest || r->gen_max < oldest->gen_max)
			oldest = r;
	}
	if (v->nruns == VERIFY_RUNS_MAX) {
		if (h->generation < oldest->gen_max) {
			note_mismatch(v, VC_STALE, vblock, 0, &res);
			return;
		}
		run_stale(v, oldest);
		r = oldest;
	} else {
		r = &v->runs[v->nruns++];
	}
	memset(r, 0, sizeof(*r));
	r->run_id = h->run_id;
	r->gen_min = UINT64_MAX;
	run_remember(r, vblock, h);
}

uint64_t verify_expected_seed(const struct verify_ctx *v, unsigned fi,
			      const struct verify_result *res)
{
	if (v->reader && res->has_hdr)
		return res->hdr.seed;
	return verify_file_seed(v->randseed, v->clone, fi);
}

/* The expected generation of unit vb; 0 (skip) when b names none. */
static uint64_t unit_gen(const struct verify_ctx *v,
			 const struct verify_blk *b, uint64_t vb)
{
	if (b->generation != VERIFY_GEN_LOOKUP)
		return b->generation;
	if (vb >= v->nblocks || !v->wpass || !v->wpass[vb] ||
	    verify_write_failed(v, vb))
		return 0;
	return v->gen0 + v->wpass[vb] - 1;
}

static int check_unit(struct verify_ctx *v, void *buf,
		      const struct verify_blk *b);

int verify_check(struct verify_ctx *v, void *buf,
		 const struct verify_blk *b)
{
	struct verify_blk u = *b;
	uint32_t k, n = b->n ? b->n : 1;
	int cls, worst = VC_OK;

	for (k = 0; k < n && !v->halt; k++) {
		u.vblock = b->vblock + k;
		u.generation = unit_gen(v, b, u.vblock);
		u.n = 1;
		if (b->generation == VERIFY_GEN_LOOKUP && !u.generation)
			continue;
		/* a reader's verify_state_load: the units the state names */
		if (v->reader && v->loaded && (u.vblock >= v->nblocks ||
					       !verify_state_has(v, u.vblock)))
			continue;
		cls = check_unit(v, (uint8_t *)buf + (size_t)k * v->bs, &u);
		if (cls != VC_OK)
			worst = cls;
	}
	return worst;
}

static int check_unit(struct verify_ctx *v, void *buf,
		      const struct verify_blk *b)
{
	struct verify_result res;
	uint64_t off, seed;
	unsigned fi;
	int cls;

	/* Trimmed since its write: zeros (trim_verify_zero), or unchecked. */
	if (v->trimmed && b->vblock < v->nblocks &&
	    (v->trimmed[b->vblock / 64] >> (b->vblock % 64) & 1)) {
		const uint8_t *p = buf;
		uint32_t i;

		if (!v->tzero)
			return VC_OK;
		v->stats.blocks_checked++;
		v->stats.bytes += v->bs;
		for (i = 0; i < v->bs && !p[i]; i++)
			;
		if (i == v->bs)
			return VC_OK;
		memset(&res, 0, sizeof(res));
		snprintf(res.detail, sizeof(res.detail), "a trimmed block "
			 "that does not read as zeros (byte %u is 0x%02x): "
			 "trim_verify_zero", i, p[i]);
		note_mismatch(v, VC_FOREIGN, b->vblock, b->generation, &res);
		return VC_FOREIGN;
	}
	verify_swap(&v->fmt, buf, v->bs, true);
	verify_where(v, b->vblock, &fi, &off);
	/* A reader takes the header's seed: any writer's block passes. */
	memcpy(&res.hdr, buf, sizeof(res.hdr));
	res.has_hdr = res.hdr.magic == VERIFY_MAGIC;
	seed = verify_expected_seed(v, fi, &res);
	v->stats.blocks_checked++;
	v->stats.bytes += v->bs;
	cls = verify_classify(&v->fmt, buf, v->bs, off, seed, &res);
	if (cls == VC_OK && !b->generation) {
		/* a reader accepts any run; verify_only tells them apart */
		if (v->runs)
			run_note(v, b->vblock, &res.hdr);
		return VC_OK;
	}
	if (cls == VC_OK) {
		if (res.hdr.generation == b->generation &&
		    res.hdr.run_id == v->run_id)
			return VC_OK;
		cls = res.hdr.generation < b->generation ? VC_STALE :
		      VC_FOREIGN;
		snprintf(res.detail, sizeof(res.detail), "%s", cls == VC_STALE ?
			 "an intact block of an older write: the write "
			 "expected here was lost" : "an intact block newer "
			 "than what this run wrote here");
	}
	note_mismatch(v, cls, b->vblock, b->generation, &res);
	if (v->dump) {
		/* Both dumps as on the device: swapped (verify_offset). */
		verify_swap(&v->fmt, buf, v->bs, false);
		verify_dump_block(v, buf, b, &res);
	}
	return cls;
}

void verify_end(struct verify_ctx *v)
{
	const struct verify_run *newest = NULL;
	struct verify_mismatch *m;
	uint64_t k;
	unsigned i;

	if (v->failed) {
		v->stats.write_failed = 0;
		for (k = 0; k < (v->nblocks + 63) / 64; k++)
			v->stats.write_failed +=
				(uint64_t)__builtin_popcountll(v->failed[k]);
	}
	if (!v->runs)
		return;
	for (i = 0; i < v->nruns; i++)
		if (!newest || v->runs[i].gen_max > newest->gen_max)
			newest = &v->runs[i];
	for (i = 0; i < v->nruns; i++)
		if (&v->runs[i] != newest)
			run_stale(v, &v->runs[i]);
	if (!newest)
		return;
	for (i = 0; i < v->stats.nfirst; i++) {
		m = &v->stats.first[i];
		if (m->exp_gen)
			continue;
		m->exp_gen = true;
		m->expected.generation = newest->gen_max;
		m->expected.run_id = newest->run_id;
		if (m->cls == VC_STALE)
			snprintf(m->detail, sizeof(m->detail), "an intact "
				 "block of an earlier run: the newest run "
				 "(generations %" PRIu64 "-%" PRIu64 ") did "
				 "not write it, or its write was lost",
				 newest->gen_min, newest->gen_max);
	}
}
