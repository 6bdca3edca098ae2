// SPDX-License-Identifier: MIT
/*
 * zonemode=zbd (fio 3.33's meaning), a worker feature (feature.h): the
 * zones of the job's region and their write pointers, as the device
 * reports them at setup (or emulated, all empty, on a target that is not
 * zoned); each I/O the generator gives moved where a zoned device takes
 * it: a write at the write pointer of an open zone (its own, or another
 * when the open zone limit holds it off), a zone reset first when the
 * zone is full or zone_reset_threshold/frequency ask for one, a read
 * below a write pointer (in the nearest zone holding data when its own
 * holds none). Sequential jobs walk their own position here, as fio's
 * does, since a moved I/O moves it. No I/O leaves the job's region: the
 * zones are those inside it (target.c rounded a writer's region to
 * whole zones) and the resets only theirs.
 *
 * The zones before the job and after it go to the report (stats.h,
 * struct zbd_stats). One job per device's zones: plan.c refuses clones,
 * which would keep write pointers of their own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wstate.h"
#include "zbd.h"

struct zzone {
	uint64_t start, end, cap;	/* absolute bytes; end: next start */
	uint64_t wp;
	uint8_t type, cond;
	bool has_wp, open;
};

struct zoned {
	int fd;
	int model;
	uint64_t zs;			/* zone size */
	uint64_t first;			/* absolute index of z[0] */
	unsigned n;
	struct zzone *z;
	unsigned *open;			/* open zones, in order (fio keeps
					 * stale entries past nopen) */
	unsigned nopen, max_open, job_max;
	uint64_t rlo, rhi;		/* the region, bytes of the file */
	uint64_t swd, wp_swd;		/* bytes below the write pointers */
	uint64_t write_cnt;		/* writes to the next reset */
	uint64_t pos[DDIR_NR];		/* sequential jobs' positions */
	bool random;
	uint64_t loops_left;		/* sequential passes still to start */
	struct gen_io pend;		/* waits for the queue to drain */
	bool pend_ok, quiesce;
	struct zbd_stats *rec;
};

enum { ZN_OK, ZN_EOF, ZN_QUIESCE };

static inline struct zoned *zn_of(const struct wstate *s)
{
	return wf_state(s, WF_ZBD);
}

static bool zn_wanted(const struct wstate *s)
{
	return s->j->zone_mode == ZONE_ZBD && s->w->tgt->zbd;
}

static inline uint64_t cap_end(const struct zzone *z)
{
	return z->start + z->cap;
}

/* The zone holding byte off of the file (off inside the region). */
static inline unsigned zidx(const struct zoned *zn, uint64_t off)
{
	uint64_t i = off / zn->zs - zn->first;

	return i < zn->n ? (unsigned)i : zn->n - 1;
}

/* Zones [at, at + n) of the device into zn->z + i, or emulated. */
static int zn_read(struct zoned *zn, unsigned i, unsigned n)
{
	struct zbd_zone rep[128];
	unsigned k;
	int got;

	while (n) {
		got = zbd_report(zn->fd, (zn->first + i) * zn->zs, rep,
				 n < 128 ? n : 128);
		if (got <= 0)
			return got < 0 ? got : -EIO;
		for (k = 0; k < (unsigned)got; k++, i++, n--) {
			struct zzone *z = &zn->z[i];

			z->start = rep[k].start;
			z->end = rep[k].start + rep[k].len;
			z->cap = rep[k].cap;
			z->type = rep[k].type;
			z->cond = rep[k].cond;
			z->has_wp = rep[k].type != ZBD_TYPE_CONV;
			/* fio's reading: a conventional or full zone
			 * holds data up to its capacity */
			z->wp = rep[k].cond == ZBD_COND_NOT_WP ||
				rep[k].cond == ZBD_COND_FULL ?
				z->start + z->cap : rep[k].wp;
		}
	}
	return 0;
}

static void zn_snap(struct zoned *zn, int at)
{
	unsigned i;

	for (i = 0; i < zn->n; i++) {
		struct zbd_zone_rec *r = &zn->rec->z[i];
		const struct zzone *z = &zn->z[i];

		if (!at) {
			r->start = z->start;
			r->cap = z->cap;
			r->type = z->type;
		}
		r->wp[at] = z->has_wp ? z->wp - z->start : 0;
		r->cond[at] = z->cond;
	}
}

/* An emulated zone's condition from its write pointer. */
static void zn_emul_cond(struct zzone *z)
{
	z->cond = z->wp == z->start ? ZBD_COND_EMPTY :
		  z->wp >= cap_end(z) ? ZBD_COND_FULL : ZBD_COND_IMP_OPEN;
}

static int zn_reset(struct wstate *s, struct zzone *z);
static bool zn_open_zone(struct zoned *zn, struct zzone *z);

static int zn_setup(struct wstate *s)
{
	struct zoned *zn = zn_of(s);
	const struct target *t = s->w->tgt;
	const struct target_file *tf = &t->files[0];
	uint64_t last, i;
	int ret;

	zn->fd = tf->fd;
	zn->model = t->zbd_model;
	zn->zs = t->zbd_size;
	zn->rlo = tf->offset;
	zn->rhi = tf->offset + tf->len;
	zn->first = zn->rlo / zn->zs;
	last = (zn->rhi - 1) / zn->zs;
	zn->n = (unsigned)(last - zn->first + 1);
	zn->random = rw_random(s->j->rw);
	zn->max_open = t->zbd_max_open;
	zn->job_max = (unsigned)s->j->job_max_open_zones;
	zn->z = calloc(zn->n, sizeof(*zn->z));
	zn->open = calloc(zn->n, sizeof(*zn->open));
	zn->rec = calloc(1, sizeof(*zn->rec) + zn->n * sizeof(zn->rec->z[0]));
	if (!zn->z || !zn->open || !zn->rec) {
		job_fail(s, -ENOMEM, "zonemode=zbd: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (zn->model != ZBD_NONE) {
		ret = zn_read(zn, 0, zn->n);
		if (ret) {
			job_fail(s, ret, "zonemode=zbd: %s: zone report: %s",
				 tf->path, strerror(-ret));
			return ret;
		}
	} else {
		for (i = 0; i < zn->n; i++) {
			struct zzone *z = &zn->z[i];

			z->start = (zn->first + i) * zn->zs;
			z->end = z->start + zn->zs;
			z->cap = t->zbd_cap;
			z->wp = z->start;
			z->type = ZBD_TYPE_SWR;
			z->cond = ZBD_COND_EMPTY;
			z->has_wp = true;
		}
	}
	zn->rec->model = zn->model;
	zn->rec->zone_size = zn->zs;
	zn->rec->max_open = zn->max_open;
	zn->rec->n = zn->n;
	zn_snap(zn, 0);
	for (i = 0; i < zn->n; i++) {
		struct zzone *z = &zn->z[i];

		zn->swd += z->wp - z->start;
		if (z->has_wp)
			zn->wp_swd += z->wp - z->start;
	}
	/* Zones open already count against the limit; past it, a writer
	 * resets them (fio's rule), inside its region only. */
	for (i = 0; i < zn->n; i++) {
		struct zzone *z = &zn->z[i];

		if (!z->has_wp || (z->cond != ZBD_COND_IMP_OPEN &&
				   z->cond != ZBD_COND_EXP_OPEN))
			continue;
		if (zn_open_zone(zn, z) || !rw_changes_data(s->j->rw))
			continue;
		ret = zn_reset(s, z);
		if (ret)
			return ret;
	}
	for (i = 0; i < DDIR_NR; i++)
		zn->pos[i] = zn->rlo;
	zn->loops_left = s->j->loops > 1 ? s->j->loops - 1 : 0;
	zn->write_cnt = s->j->zrf > 0 ? (uint64_t)(1.0 / s->j->zrf) :
			UINT64_MAX;
	return 0;
}

static void zn_teardown(struct wstate *s)
{
	struct zoned *zn = zn_of(s);

	if (zn->rec && s->st->zbd != zn->rec)
		free(zn->rec);
	free(zn->z);
	free(zn->open);
}

/* A zone reset: the device's (a write: only zones of the region come
 * here), or an emulated zone's write pointer. */
static int zn_reset(struct wstate *s, struct zzone *z)
{
	struct zoned *zn = zn_of(s);
	uint64_t data = z->wp - z->start;
	int ret = 0;

	if (!data)
		return 0;
	if (z->start < zn->rlo || z->end > zn->rhi)
		abort();	/* the region's contract (see above) */
	if (zn->model != ZBD_NONE) {
		call_enter(s);
		ret = zbd_reset(zn->fd, z->start, z->end - z->start);
		if (!call_leave(s))
			return -EINTR;
		if (ret) {
			job_fail(s, ret, "zonemode=zbd: zone reset at %"
				 PRIu64 ": %s", z->start, strerror(-ret));
			return ret;
		}
	}
	zn->swd -= data;
	zn->wp_swd -= data;
	z->wp = z->start;
	z->cond = ZBD_COND_EMPTY;
	zn->rec->resets++;
	return 0;
}

/* fio's open zone bookkeeping: true when z is open, or now is. */
static bool zn_open_zone(struct zoned *zn, struct zzone *z)
{
	if (z->cond == ZBD_COND_OFFLINE)
		return false;
	if (!zn->max_open)
		return true;
	if (z->open)
		return z->wp < cap_end(z);
	if (zn->job_max && zn->nopen >= zn->job_max)
		return false;
	if (zn->nopen >= zn->max_open)
		return false;
	zn->open[zn->nopen++] = (unsigned)(z - zn->z);
	z->open = true;
	if (zn->nopen > zn->rec->max_open_seen)
		zn->rec->max_open_seen = zn->nopen;
	return true;
}

static void zn_close_zone(struct zoned *zn, struct zzone *z)
{
	unsigned i, k = (unsigned)(z - zn->z);

	if (!z->open)
		return;
	for (i = 0; i < zn->nopen && zn->open[i] != k; i++)
		;
	if (i == zn->nopen)
		return;
	memmove(zn->open + i, zn->open + i + 1,
		(zn->n - i - 1) * sizeof(zn->open[0]));
	zn->nopen--;
	z->open = false;
}

/* One of the open zones, spread by the I/O's place in the region. */
static unsigned pick_open(const struct zoned *zn, uint64_t off)
{
	return (unsigned)((off - zn->rlo) * zn->nopen / (zn->rhi - zn->rlo));
}

/*
 * A write whose zone cannot be opened goes to an open zone with room, or
 * opens another (fio's search, from the zone after, wrapping); ZN_QUIESCE
 * when what is in flight may yet close one.
 */
static int zn_to_open(struct wstate *s, uint64_t off, uint64_t min_bs,
		      struct zzone **out)
{
	struct zoned *zn = zn_of(s);
	struct zzone *z;
	unsigned zi, i, k;
	bool limited = zn->max_open || zn->job_max;

	zi = limited ? zn->open[zn->nopen ? pick_open(zn, off) : 0] :
	     zidx(zn, off);
	if (zi >= zn->n)
		zi = zn->n - 1;
	for (;;) {
		z = &zn->z[zi];
		if (z->has_wp && !limited && z->cond != ZBD_COND_OFFLINE)
			goto examine;
		if (z->has_wp && !zn->nopen)
			goto other;
		k = pick_open(zn, off);
		if (k >= zn->nopen)
			k = 0;
		if (!zn->nopen)
			return ZN_EOF;
		if (zn->open[k] == zi)
			break;
		zi = zn->open[k];
	}
examine:
	if (z->wp + min_bs <= cap_end(z)) {
		*out = z;
		return ZN_OK;
	}
other:
	if ((zn->nopen == zn->n || (zn->max_open &&
				    zn->nopen == zn->max_open) ||
	     (zn->job_max && zn->nopen == zn->job_max)) &&
	    (s->inflight || s->queued))
		return ZN_QUIESCE;
	for (i = (unsigned)((zn->rhi - zn->rlo) / zn->zs); i; i--) {
		zi = zi + 1 < zn->n ? zi + 1 : 0;
		z = &zn->z[zi];
		if (!z->has_wp || z->open)
			continue;
		if (zn_open_zone(zn, z)) {
			*out = z;
			return ZN_OK;
		}
	}
	for (i = 0; i < zn->nopen; i++) {
		z = &zn->z[zn->open[i]];
		if (z->wp + min_bs <= cap_end(z)) {
			*out = z;
			return ZN_OK;
		}
	}
	return s->inflight || s->queued ? ZN_QUIESCE : ZN_EOF;
}

/* The next zone holding min bytes of data: forward, and for random
 * I/O also backward, the nearest first (fio's search). */
static struct zzone *zn_find_data(struct zoned *zn, struct zzone *zb,
				  uint64_t min)
{
	struct zzone *z1 = zb + 1, *z2 = zb - 1;
	struct zzone *zl = zn->z + zn->n;

	for (; z1 < zl || z2 >= zn->z; z1++, z2--) {
		if (z1 < zl && z1->cond != ZBD_COND_OFFLINE) {
			if (z1->start + min <= z1->wp)
				return z1;
		} else if (!zn->random) {
			break;
		}
		if (zn->random && z2 >= zn->z &&
		    z2->cond != ZBD_COND_OFFLINE && z2->start + min <= z2->wp)
			return z2;
	}
	return NULL;
}

static int zn_read_at(struct wstate *s, uint64_t *off, uint64_t *len)
{
	struct zoned *zn = zn_of(s);
	uint64_t min_bs = s->j->bs_min[DDIR_READ], range, n;
	struct zzone *zb = &zn->z[zidx(zn, *off)], *orig = zb;

	if (!zb->has_wp || (zb->cond != ZBD_COND_OFFLINE &&
			    s->j->read_beyond_wp))
		return ZN_OK;
	range = zb->cond != ZBD_COND_OFFLINE ? zb->wp - zb->start : 0;
	if (range < min_bs || (!zn->random && *off + min_bs > zb->wp)) {
		zb = zn_find_data(zn, zb, min_bs);
		if (!zb)
			return ZN_EOF;
		range = zb->wp - zb->start;
		if (!zn->random)
			*off = zb->start;
	}
	if (range <= *len)
		*off = zb->start;
	else if (zn->random)
		*off = zb->start + ((*off - orig->start) % (range - *len)) /
		       min_bs * min_bs;
	if (!zb->has_wp)
		return ZN_OK;
	n = zb->wp - *off < *len ? zb->wp - *off : *len;
	*len = n / min_bs * min_bs;
	return *len ? ZN_OK : ZN_EOF;
}

static int zn_write_at(struct wstate *s, uint64_t *off, uint64_t *len)
{
	struct zoned *zn = zn_of(s);
	const struct job *j = s->j;
	uint64_t min_bs = j->bs_min[DDIR_WRITE], n;
	struct zzone *zb = &zn->z[zidx(zn, *off)], *next;
	bool reset = false;
	int r;

	if (!zb->has_wp) {
		/* a conventional zone's write stays out of the next one */
		next = zb + 1 < zn->z + zn->n ? zb + 1 : NULL;
		if (!next || !next->has_wp || *off + *len <= next->start)
			return ZN_OK;
		if (*off + min_bs > next->start)
			*off = zb->start + next->start - *off;
		n = next->start - *off < *len ? next->start - *off : *len;
		*len = n / min_bs * min_bs;
		return *len ? ZN_OK : ZN_EOF;
	}
	if (*len > zn->zs) {
		job_fail(s, -EINVAL, "zonemode=zbd: a write of %" PRIu64
			 " bytes is larger than a zone (%" PRIu64 ")", *len,
			 zn->zs);
		return ZN_EOF;
	}
	if (!zn_open_zone(zn, zb)) {
		r = zn_to_open(s, *off, min_bs, &zb);
		if (r != ZN_OK)
			return r;
	}
	if (j->zrf > 0 && zn->wp_swd >= (zn->rhi - zn->rlo) * j->zrt &&
	    !--zn->write_cnt) {
		zn->write_cnt = (uint64_t)(1.0 / j->zrf);
		reset = true;
	}
	if (reset || zb->wp + min_bs > cap_end(zb)) {
		/* what is in flight completes before the reset */
		if (s->inflight || s->queued) {
			if (reset)
				zn->write_cnt = 1;
			return ZN_QUIESCE;
		}
		if (zn_reset(s, zb))
			return ZN_EOF;
		if (zb->cap < min_bs) {
			job_fail(s, -EINVAL, "zonemode=zbd: a zone's "
				 "capacity (%" PRIu64 ") is less than the "
				 "block size", zb->cap);
			return ZN_EOF;
		}
	}
	*off = zb->wp;
	n = cap_end(zb) - *off < *len ? cap_end(zb) - *off : *len;
	n = n / min_bs * min_bs;
	if (n < min_bs) {
		job_fail(s, -EIO, "zonemode=zbd: %" PRIu64 " bytes left in "
			 "the zone at %" PRIu64 ", less than the block size",
			 cap_end(zb) - *off, zb->start);
		return ZN_EOF;
	}
	*len = n;
	return ZN_OK;
}

/* A read inside the region and below its zone's write pointer (but
 * with read_beyond_wp), or none: len 0. */
static void zn_read_clip(const struct zoned *zn, uint64_t min_bs,
			 bool beyond, uint64_t *off, uint64_t *len)
{
	const struct zzone *z;
	uint64_t top;

	if (*off < zn->rlo)
		*off = (zn->rlo + min_bs - 1) / min_bs * min_bs;
	if (*off >= zn->rhi) {
		*len = 0;
		return;
	}
	z = &zn->z[zidx(zn, *off)];
	top = z->has_wp && !beyond ? z->wp : z->end;
	if (top > zn->rhi)
		top = zn->rhi;
	if (*off + *len > top)
		*len = top > *off ? (top - *off) / min_bs * min_bs : 0;
}

/* Issue waits until the queue is empty (a reset, a zone to close). */
static bool zn_hold(struct wstate *s)
{
	struct zoned *zn = zn_of(s);

	if (!zn->quiesce)
		return false;
	if (s->inflight || s->queued)
		return true;
	zn->quiesce = false;
	s->ft.holds &= ~WF_BIT(WF_ZBD);
	return false;
}

/*
 * A sequential job at its region's end: fio's pass ends there, whatever
 * bytes size= left (the capacity jumps and the reads that stop at write
 * pointers skip some); it starts over with io_size=, time_based or
 * another loop to go.
 */
static bool zn_wrap(struct wstate *s)
{
	struct zoned *zn = zn_of(s);

	if (s->j->io_size || s->j->time_based)
		return true;
	if (!zn->loops_left)
		return false;
	zn->loops_left--;
	return true;
}

/* Every direction's position back to the region's start (a new pass). */
static void zn_restart(struct zoned *zn)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		zn->pos[d] = zn->rlo;
}

/* A sequential direction's next offset: its position, or the next
 * zone's start once a write reached its zone's capacity. */
static uint64_t zn_seq_at(const struct zoned *zn, int ddir)
{
	uint64_t off = zn->pos[ddir];
	const struct zzone *z;

	if (off >= zn->rhi)
		return off;
	z = &zn->z[zidx(zn, off)];
	if (ddir == DDIR_WRITE && z->cap < zn->zs && off >= z->start + z->cap)
		return z->end;
	return off;
}

/* The generator's I/O, moved where the zones take it. */
static int zn_next(struct wstate *s, struct gen_io *io)
{
	struct zoned *zn = zn_of(s);
	const struct target_file *tf = &s->w->tgt->files[0];
	uint64_t off, len;
	bool wrapped = false;
	int ddir, r;

	if (zn->pend_ok) {
		*io = zn->pend;
		zn->pend_ok = false;
	} else {
		gen_next(&s->gen, io);
	}
	ddir = io->ddir;
	if (ddir == DDIR_READ && rw_mixed(s->j->rw) && !zn->swd &&
	    !s->j->read_beyond_wp)
		ddir = DDIR_WRITE;	/* nothing to read yet (fio) */
again:
	len = io->len;
	off = zn->random ? tf->offset + io->foff : zn_seq_at(zn, ddir);
	if (off >= zn->rhi) {
		if (wrapped || !zn_wrap(s))
			goto end;
		zn_restart(zn);
		wrapped = true;
		off = zn->rlo;
	}
	r = ddir == DDIR_WRITE ? zn_write_at(s, &off, &len) :
	    zn_read_at(s, &off, &len);
	/* a reader's first and last zones may pass the region's ends (it
	 * is not rounded): cut there */
	if (r == ZN_OK && ddir == DDIR_READ)
		zn_read_clip(zn, s->j->bs_min[DDIR_READ],
			     s->j->read_beyond_wp, &off, &len);
	if (r == ZN_QUIESCE) {
		zn->pend = *io;
		zn->pend_ok = true;
		zn->quiesce = true;
		s->ft.holds |= WF_BIT(WF_ZBD);
		return -1;
	}
	/* no data left to read: fio's pass ends, and the next starts over
	 * from the region's start when there is one */
	if ((r == ZN_EOF || !len) && ddir == DDIR_READ && !zn->random &&
	    !wrapped && zn_wrap(s)) {
		zn_restart(zn);
		wrapped = true;
		goto again;
	}
	if (r == ZN_EOF || !len || off < tf->offset || off + len > zn->rhi)
		goto end;
	zn->pos[ddir] = off + len;
	io->ddir = ddir;
	io->foff = off - tf->offset;
	io->offset = io->foff;
	io->len = len;
	return 1;
end:
	s->stopping = true;
	return -1;
}

/* A write handed over moves its zone's write pointer (fio: at queue). */
static void zn_issued(struct wstate *s, struct io_req *req, int ddir, int r)
{
	struct zoned *zn = zn_of(s);
	struct zzone *z;
	uint64_t end;

	if (ddir != DDIR_WRITE || (r != ENGINE_DONE && r != ENGINE_QUEUED))
		return;
	z = &zn->z[zidx(zn, req->offset)];
	if (!z->has_wp)
		return;
	end = req->offset + req->len < cap_end(z) ? req->offset + req->len :
	      cap_end(z);
	if (z->wp <= end) {
		zn->swd += end - z->wp;
		zn->wp_swd += end - z->wp;
	}
	z->wp = end;
	if (zn->model == ZBD_NONE)
		zn_emul_cond(z);
}

/* A write that fills its zone closes it (it no longer counts open). */
static void zn_done(struct wstate *s, struct io_req *req,
		    const struct wlat *l)
{
	struct zoned *zn = zn_of(s);
	struct zzone *z;

	if (req->ddir != DDIR_WRITE || !l)
		return;
	z = &zn->z[zidx(zn, req->offset)];
	if (z->has_wp && req->offset + req->len >= cap_end(z))
		zn_close_zone(zn, z);
}

/* Nothing in flight: the zones as the job leaves them. */
static void zn_last(struct wstate *s)
{
	struct zoned *zn = zn_of(s);
	int ret = 0;

	if (zn->model != ZBD_NONE) {
		call_enter(s);
		ret = zn_read(zn, 0, zn->n);
		if (!call_leave(s))
			return;
	}
	if (ret)
		job_fail(s, ret, "zonemode=zbd: zone report after the job: "
			 "%s", strerror(-ret));
	else
		zn_snap(zn, 1);
}

static void zn_end(struct wstate *s, uint64_t end, bool own)
{
	struct zoned *zn = zn_of(s);

	(void)end;
	if (own && zn->rec)
		s->st->zbd = zn->rec;
}

const struct wfeature wf_zbd = {
	.name = "zonemode=zbd",
	.size = sizeof(struct zoned),
	.wanted = zn_wanted,
	.setup = zn_setup,
	.teardown = zn_teardown,
	.hold = zn_hold,
	.next = zn_next,
	.issued = zn_issued,
	.done = zn_done,
	.last = zn_last,
	.end = zn_end,
};
