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
 * struct zbd_stats). The jobs of one wait group on the same file or
 * device share its zones (fio's meaning: target_zbd_share gives them the
 * span of all their regions): one write pointer per zone, one list of
 * open zones against the open zone limit, the bytes with data; a share
 * (struct zshare) found by the first job's setup and dropped by the last
 * one's teardown, under its mutex (the feature's whole point: the jobs'
 * threads write the same zones). A zone with writes in flight is the
 * job's whose writes they are, as fio's zone lock is held from a write's
 * placing to its completion (writes to a zone reach the device in the
 * order of their offsets: a zoned device refuses any other): another
 * job's write to it waits, its own I/O drained first, then polling, until
 * they have completed; so does a write to a zone another job resets.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvmedev.h"
#include "wstate.h"
#include "zbd.h"

struct zoned;

struct zzone {
	uint64_t start, end, cap;	/* absolute bytes; end: next start */
	uint64_t wp;
	uint8_t type, cond;
	bool has_wp, open;
	unsigned inflight;		/* writes placed and not completed */
	const struct zoned *owner;	/* the job they are of (fio's zone
					 * lock, held until they complete) */
	const struct zoned *resetting;	/* the job resetting it, or NULL */
	struct zoned *opener;		/* the job that opened it, or NULL */
};

/* The zones of one file or device as the jobs of a wait group share
 * them: everything below is under mu. */
struct zshare {
	struct zshare *next;		/* the registry's list */
	pthread_mutex_t mu;
	unsigned refs;
	/* the key: the target (target.c's same_target), its wait group */
	bool is_bdev, have_id;
	dev_t rdev, dev;
	ino_t ino;
	char *path;
	unsigned wait_group;
	uint64_t first;			/* absolute index of z[0] */
	unsigned n;
	struct zzone *z;
	unsigned *open;			/* open zones, in order */
	unsigned nopen, max_open;
	uint64_t swd, wp_swd;		/* bytes below the write pointers */
	unsigned inflight;		/* queued writes, all zones' */
};

static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;
static struct zshare *registry;

struct zoned {
	struct zbd_dev dev;		/* where the zones are asked */
	int model;
	uint64_t zs;			/* zone size */
	struct zshare *sh;
	struct zzone *z;		/* the job's zones: sh->z + zf */
	unsigned zf, n;
	uint64_t first;			/* absolute index of z[0] */
	unsigned *nopen_job, job_max;	/* zones this job opened (the
					 * job's count, all its files') */
	uint64_t rlo, rhi;		/* the region, bytes of the file */
	bool verify;			/* verify=: no zone written twice */
	uint64_t verify_bs;		/* then the smallest write */
	uint64_t write_cnt;		/* writes to the next reset */
	uint64_t pos[DDIR_NR];		/* sequential jobs' positions */
	uint64_t zskip;			/* zoneskip= (sequential jobs) */
	uint64_t win, zone_bytes;	/* the zone in use, its bytes */
	bool random;
	bool replay;			/* read_iolog=: the log's I/Os */
	uint64_t loops_left;		/* sequential passes still to start */
	bool done;			/* no more I/O in this file */
	unsigned *slot;			/* per request slot: zone + 1 of a
					 * queued write, 0 none */
	unsigned nslot;
	/* the write whose bytes the write pointer took at next(), until
	 * issued() says it went out (else it is taken back) */
	struct zzone *moved;
	uint64_t moved_off, moved_len;
	/* the zone a trim placed at next() resets, the job's (resetting)
	 * until trim_req does it (zbd_trim) */
	struct zzone *trim_z;
	bool in_call;			/* inside the loop's call_enter */
	struct zbd_stats *rec;
};

/*
 * The feature's state: one zoned state per file of the job (fio keeps
 * each file's zones: zbdplan.c made them alike), cur the file of the
 * I/O at hand (each entry point sets it from its I/O's file); what holds
 * the job's I/O back is the job's.
 */
struct zjob {
	struct zoned *f;
	unsigned nf, cur;
	unsigned nopen_job;		/* zones the job opened */
	struct gen_io pend;		/* waits for the queue to drain */
	bool pend_ok, quiesce, backoff;
};

enum { ZN_OK, ZN_EOF, ZN_QUIESCE, ZN_BUSY };
#define ZN_FILE_DONE (-2)	/* zn_next_locked: the file has no more */

static inline struct zjob *zj_of(const struct wstate *s)
{
	return wf_state(s, WF_ZBD);
}

/* The zoned state of the file at hand (zjob.cur). */
static inline struct zoned *zn_of(const struct wstate *s)
{
	struct zjob *zj = zj_of(s);

	return zj && zj->f ? &zj->f[zj->cur] : NULL;
}

/* The file at hand: f (an I/O's), when it is one of the job's. */
static inline bool zn_cur(const struct wstate *s, unsigned f)
{
	struct zjob *zj = zj_of(s);

	if (!zj || !zj->f || f >= zj->nf)
		return false;
	zj->cur = f;
	return true;
}

static bool zn_wanted(const struct wstate *s)
{
	return s->j->io.zone_mode == ZONE_ZBD && s->w->tgt->zbd;
}

static inline uint64_t cap_end(const struct zzone *z)
{
	return z->start + z->cap;
}

/* The job's zone holding byte off of the file (off inside the region). */
static inline unsigned zidx(const struct zoned *zn, uint64_t off)
{
	uint64_t i = off / zn->zs - zn->first;

	return i < zn->n ? (unsigned)i : zn->n - 1;
}

/* Shared zone k, when it is one of the job's: its local index, else -1. */
static inline int zlocal(const struct zoned *zn, unsigned k)
{
	return k >= zn->zf && k < zn->zf + zn->n ? (int)(k - zn->zf) : -1;
}

/* n zones of fd from the absolute zone index first into z. */
static int zn_read(const struct zbd_dev *d, uint64_t zs, uint64_t first,
		   struct zzone *z, unsigned n)
{
	struct zbd_zone rep[128];
	unsigned k, i = 0;
	int got;

	while (n) {
		got = zbd_report(d, (first + i) * zs, rep, n < 128 ? n : 128);
		if (got <= 0)
			return got < 0 ? got : -EIO;
		for (k = 0; k < (unsigned)got; k++, i++, n--) {
			z[i].start = rep[k].start;
			z[i].end = rep[k].start + rep[k].len;
			z[i].cap = rep[k].cap;
			z[i].type = rep[k].type;
			z[i].cond = rep[k].cond;
			z[i].has_wp = rep[k].type != ZBD_TYPE_CONV;
			/* fio's reading: a conventional or full zone
			 * holds data up to its capacity */
			z[i].wp = rep[k].cond == ZBD_COND_NOT_WP ||
				  rep[k].cond == ZBD_COND_FULL ?
				  z[i].start + z[i].cap : rep[k].wp;
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

static bool share_is(const struct zshare *sh, const struct target_file *tf,
		     unsigned wg)
{
	if (sh->wait_group != wg || sh->have_id != tf->have_id)
		return false;
	if (!tf->have_id)
		return !strcmp(sh->path, tf->path);
	return sh->is_bdev == tf->is_bdev && (tf->is_bdev ?
		sh->rdev == tf->rdev : sh->dev == tf->dev &&
		sh->ino == tf->ino);
}

/* A new share of the zones [lo, hi) of the job's target, as the device
 * reports them or emulated (all empty). NULL with the job failed. */
static struct zshare *share_new(struct wstate *s, struct zoned *zn,
				uint64_t lo, uint64_t hi)
{
	const struct target *t = s->w->tgt;
	const struct target_file *tf = &t->files[zj_of(s)->cur];
	struct zshare *sh = calloc(1, sizeof(*sh));
	unsigned i;
	int ret = -ENOMEM;

	if (!sh)
		goto fail;
	sh->first = lo / zn->zs;
	sh->n = (unsigned)((hi - 1) / zn->zs - sh->first + 1);
	sh->z = calloc(sh->n, sizeof(*sh->z));
	sh->open = calloc(sh->n, sizeof(*sh->open));
	sh->path = strdup(tf->path);
	if (!sh->z || !sh->open || !sh->path)
		goto fail;
	pthread_mutex_init(&sh->mu, NULL);
	sh->is_bdev = tf->is_bdev;
	sh->have_id = tf->have_id;
	sh->rdev = tf->rdev;
	sh->dev = tf->dev;
	sh->ino = tf->ino;
	sh->wait_group = s->j->plan.wait_group;
	sh->max_open = t->zbd_max_open;
	if (zn->model != ZBD_NONE) {
		ret = zn_read(&zn->dev, zn->zs, sh->first, sh->z, sh->n);
		if (ret)
			goto fail;
	}
	for (i = 0; i < sh->n; i++) {
		struct zzone *z = &sh->z[i];

		if (zn->model == ZBD_NONE) {
			z->start = (sh->first + i) * zn->zs;
			z->end = z->start + zn->zs;
			z->cap = t->zbd_cap;
			z->wp = z->start;
			z->type = ZBD_TYPE_SWR;
			z->cond = ZBD_COND_EMPTY;
			z->has_wp = true;
		}
		sh->swd += z->wp - z->start;
		if (z->has_wp)
			sh->wp_swd += z->wp - z->start;
	}
	return sh;
fail:
	if (sh) {
		free(sh->z);
		free(sh->open);
		free(sh->path);
		free(sh);
	}
	job_fail(s, ret, "zonemode=zbd: %s: %s%s", tf->path,
		 ret == -ENOMEM ? "" : "zone report: ", strerror(-ret));
	return NULL;
}

/* The share of the job's zones: found, or made (*made). */
static struct zshare *share_get(struct wstate *s, struct zoned *zn,
				bool *made)
{
	const struct target *t = s->w->tgt;
	const struct target_file *tf = &t->files[zj_of(s)->cur];
	uint64_t lo = tf->zbd_span_lo, hi = tf->zbd_span_hi;
	struct zshare *sh;

	if (hi <= lo || lo > zn->rlo || hi < zn->rhi) {
		lo = zn->rlo / zn->zs * zn->zs;
		hi = zn->rhi;
	}
	*made = false;
	pthread_mutex_lock(&registry_mu);
	for (sh = registry; sh; sh = sh->next)
		if (share_is(sh, tf, s->j->plan.wait_group))
			break;
	if (sh && (sh->first * zn->zs > zn->rlo ||
		   (sh->first + sh->n) * zn->zs < zn->rhi))
		sh = NULL;	/* not planned together: its own */
	if (!sh) {
		sh = share_new(s, zn, lo, hi);
		if (sh) {
			sh->next = registry;
			registry = sh;
			*made = true;
		}
	}
	if (sh)
		sh->refs++;
	pthread_mutex_unlock(&registry_mu);
	return sh;
}

static void share_put(struct zoned *zn)
{
	struct zshare *sh = zn->sh, **pp;
	unsigned i;

	if (!sh)
		return;
	pthread_mutex_lock(&sh->mu);
	for (i = 0; i < sh->n; i++) {
		if (sh->z[i].opener == zn)
			sh->z[i].opener = NULL;
		if (sh->z[i].resetting == zn)
			sh->z[i].resetting = NULL;
	}
	for (i = 0; i < zn->nslot; i++)
		if (zn->slot[i]) {
			sh->z[zn->slot[i] - 1].inflight--;
			sh->inflight--;
		}
	pthread_mutex_unlock(&sh->mu);
	pthread_mutex_lock(&registry_mu);
	if (--sh->refs) {
		pthread_mutex_unlock(&registry_mu);
		return;
	}
	for (pp = &registry; *pp && *pp != sh; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = sh->next;
	pthread_mutex_unlock(&registry_mu);
	pthread_mutex_destroy(&sh->mu);
	free(sh->z);
	free(sh->open);
	free(sh->path);
	free(sh);
}

static int zn_setup_file(struct wstate *s)
{
	struct zoned *zn = zn_of(s);
	const struct target *t = s->w->tgt;
	const struct target_file *tf = &t->files[zj_of(s)->cur];
	uint64_t last, i;
	bool made;
	int ret = 0;

	/* an NVMe generic char device's zones: its namespace's block
	 * device's (target.c opened it), or the namespace's own through
	 * the char device when it has none (Zone Management commands) */
	memset(&zn->dev, 0, sizeof(zn->dev));
	zn->dev.fd = tf->zbd_fd >= 0 ? tf->zbd_fd : tf->fd;
	zn->dev.zone_size = t->zbd_size;
	if (tf->is_nvme_chr && !tf->is_sg_chr && !tf->nvme_bdev &&
	    tf->nvme_id && t->zbd_model != ZBD_NONE) {
		zn->dev.nsid = tf->nvme_id->nsid;
		zn->dev.lba_size = tf->nvme_id->lba_size;
	}
	zn->model = t->zbd_model;
	zn->zs = t->zbd_size;
	zn->rlo = tf->offset;
	zn->rhi = tf->offset + tf->len;
	zn->first = zn->rlo / zn->zs;
	last = (zn->rhi - 1) / zn->zs;
	zn->n = (unsigned)(last - zn->first + 1);
	zn->random = rw_random(s->j->io.rw);
	zn->replay = s->j->logs.read_iolog != NULL;
	zn->verify = s->j->vfy.verify != VERIFY_NONE;
	zn->verify_bs = s->j->io.bs_min[DDIR_WRITE];
	zn->job_max = (unsigned)s->j->io.job_max_open_zones;
	zn->nopen_job = &zj_of(s)->nopen_job;
	zn->nslot = s->depth;
	zn->slot = calloc(zn->nslot ? zn->nslot : 1, sizeof(*zn->slot));
	zn->rec = calloc(1, sizeof(*zn->rec) + zn->n * sizeof(zn->rec->z[0]));
	if (!zn->slot || !zn->rec) {
		job_fail(s, -ENOMEM, "zonemode=zbd: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	zn->sh = share_get(s, zn, &made);
	if (!zn->sh)
		return -EIO;
	zn->zf = (unsigned)(zn->first - zn->sh->first);
	zn->z = zn->sh->z + zn->zf;
	pthread_mutex_lock(&zn->sh->mu);
	zn->rec->model = zn->model;
	zn->rec->zone_size = zn->zs;
	zn->rec->max_open = zn->sh->max_open;
	zn->rec->n = zn->n;
	zn_snap(zn, 0);
	/* Zones open already count against the limit; past it, the job
	 * that finds them resets them (fio's rule), inside its region
	 * only. */
	for (i = 0; made && i < zn->n; i++) {
		struct zzone *z = &zn->z[i];

		if (!z->has_wp || (z->cond != ZBD_COND_IMP_OPEN &&
				   z->cond != ZBD_COND_EXP_OPEN))
			continue;
		if (zn_open_zone(zn, z) || !rw_changes_data(s->j->io.rw))
			continue;
		ret = zn_reset(s, z);
		if (ret)
			break;
	}
	/* verify=: the region's zones are reset before the job writes
	 * (fio's rule), so that no reset comes while it writes (a reset
	 * loses what verify is to read back); but not a zone another job
	 * is writing already */
	for (i = 0; !ret && zn->verify && rw_changes_data(s->j->io.rw) &&
	     i < zn->n; i++) {
		struct zzone *z = &zn->z[i];

		if (z->has_wp && !z->inflight && !z->resetting &&
		    z->wp > z->start) {
			ret = zn_reset(s, z);
			if (ret > 0)
				ret = 0;
		}
	}
	pthread_mutex_unlock(&zn->sh->mu);
	if (ret)
		return ret < 0 ? ret : -EBUSY;
	for (i = 0; i < DDIR_NR; i++)
		zn->pos[i] = zn->rlo;
	zn->zskip = zn->random ? 0 : s->j->io.zoneskip;
	zn->win = zn->rlo;
	zn->loops_left = s->j->time.loops > 1 ? s->j->time.loops - 1 : 0;
	zn->write_cnt = s->j->io.zrf > 0 ? (uint64_t)(1.0 / s->j->io.zrf) :
			UINT64_MAX;
	return 0;
}

static int zn_setup(struct wstate *s)
{
	struct zjob *zj = zj_of(s);
	unsigned i;
	int ret = 0;

	zj->nf = s->w->tgt->nfiles;
	zj->f = calloc(zj->nf, sizeof(*zj->f));
	if (!zj->f) {
		job_fail(s, -ENOMEM, "zonemode=zbd: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; !ret && i < zj->nf; i++) {
		zj->cur = i;
		ret = zn_setup_file(s);
	}
	zj->cur = 0;
	return ret;
}

static void zn_teardown(struct wstate *s)
{
	struct zjob *zj = zj_of(s);
	unsigned i;

	for (i = 0; zj->f && i < zj->nf; i++) {
		struct zoned *zn = &zj->f[i];

		share_put(zn);
		if (zn->rec && s->st->zbd != zn->rec)
			free(zn->rec);
		free(zn->slot);
	}
	free(zj->f);
	zj->f = NULL;
}

/*
 * A zone reset (sh->mu held): the device's (a write: only zones of the
 * region come here), or an emulated zone's write pointer. 1 when other
 * jobs' writes to it are in flight (the caller waits and comes again),
 * 0 done, or -errno with the job failed. The device's reset runs with
 * the lock let go, the zone marked as this job's meanwhile.
 */
static int zn_reset(struct wstate *s, struct zzone *z)
{
	struct zoned *zn = zn_of(s);
	struct zshare *sh = zn->sh;
	uint64_t data = z->wp - z->start;
	int ret = 0;
	bool left;

	if (!data)
		return 0;
	if (z->start < zn->rlo || z->end > zn->rhi)
		abort();	/* the region's contract (see above) */
	if (z->inflight || (z->resetting && z->resetting != zn)) {
		if (!z->resetting)
			z->resetting = zn;
		return 1;
	}
	if (zn->model != ZBD_NONE) {
		z->resetting = zn;
		pthread_mutex_unlock(&sh->mu);
		/* a trim's reset runs inside the loop's own hand-off (a
		 * second would end it: call_leave finds it left) */
		if (!zn->in_call)
			call_enter(s);
		ret = zbd_reset(&zn->dev, z->start, z->end - z->start);
		left = zn->in_call || call_leave(s);
		pthread_mutex_lock(&sh->mu);
		z->resetting = NULL;
		if (!left)
			return -EINTR;
		if (ret) {
			job_fail(s, ret, "zonemode=zbd: zone reset at %"
				 PRIu64 ": %s", z->start, strerror(-ret));
			return ret;
		}
		data = z->wp - z->start;
	}
	z->resetting = NULL;
	sh->swd -= data;
	sh->wp_swd -= data;
	z->wp = z->start;
	z->cond = ZBD_COND_EMPTY;
	zn->rec->resets++;
	return 0;
}

/* fio's open zone bookkeeping: true when z is open, or now is. */
static bool zn_open_zone(struct zoned *zn, struct zzone *z)
{
	struct zshare *sh = zn->sh;

	if (z->cond == ZBD_COND_OFFLINE)
		return false;
	/* verify=: a full zone is never written again (fio's rule: its
	 * reset would lose what verify reads back) */
	if (zn->verify && z->wp + zn->verify_bs > cap_end(z))
		return false;
	if (!sh->max_open)
		return true;
	/* open and full: its last writes are in flight (fio's: a full
	 * zone then, not an open one), or none are and it waits for its
	 * reset (a write that found it full opened it, then let its
	 * queue drain first): the reset may go on */
	if (z->open)
		return z->wp < cap_end(z) || !z->inflight;
	if (zn->job_max && *zn->nopen_job >= zn->job_max)
		return false;
	if (sh->nopen >= sh->max_open)
		return false;
	sh->open[sh->nopen++] = (unsigned)(z - sh->z);
	z->open = true;
	z->opener = zn;
	(*zn->nopen_job)++;
	if (sh->nopen > zn->rec->max_open_seen)
		zn->rec->max_open_seen = sh->nopen;
	return true;
}

static void zn_close_zone(struct zshare *sh, struct zzone *z)
{
	unsigned i, k = (unsigned)(z - sh->z);

	if (!z->open)
		return;
	for (i = 0; i < sh->nopen && sh->open[i] != k; i++)
		;
	if (i == sh->nopen)
		return;
	memmove(sh->open + i, sh->open + i + 1,
		(sh->nopen - i - 1) * sizeof(sh->open[0]));
	sh->nopen--;
	z->open = false;
	if (z->opener && *z->opener->nopen_job)
		(*z->opener->nopen_job)--;
	z->opener = NULL;
}

/* One of the open zones, spread by the I/O's place in the region. */
static unsigned pick_open(const struct zoned *zn, uint64_t off)
{
	return (unsigned)((off - zn->rlo) * zn->sh->nopen /
			  (zn->rhi - zn->rlo));
}

/* Whether the job may write z now: no other job resets it or has
 * writes in flight there. */
static inline bool zn_free(const struct zoned *zn, const struct zzone *z)
{
	return (!z->resetting || z->resetting == zn) &&
	       (!z->inflight || z->owner == zn);
}

/*
 * No zone to write now: ZN_QUIESCE when the job's own I/Os in flight may
 * close one, ZN_BUSY when other jobs' may, or another job still running
 * holds open zones it may yet fill and close (the open zone limit is the
 * device's, theirs too), else ZN_EOF.
 */
static int zn_wait_or_eof(const struct wstate *s)
{
	const struct zoned *zn = zn_of(s);
	const struct zshare *sh = zn->sh;
	unsigned i;

	if (s->inflight || s->queued)
		return ZN_QUIESCE;
	if (sh->inflight)
		return ZN_BUSY;
	for (i = 0; i < sh->nopen; i++) {
		const struct zzone *z = &sh->z[sh->open[i]];

		if (z->opener && z->opener != zn)
			return ZN_BUSY;
	}
	return ZN_EOF;
}

/*
 * The shared open zone limit reached, and none of the open zones the
 * job may write: one whose job has ended (no I/O in flight, no reset)
 * leaves the count, and true. fio 3.33 keeps such a zone counted until
 * it is full or reset, so that another job whose region holds none of
 * them ends there, short of its bytes and with no error (a sequential
 * writer over zones 2-5 beside a random one over 4-7 that ended with 6
 * and 7 open, say). On the device the zone stays implicitly open, and
 * the device closes it itself when the job's next write opens another
 * (ZBC, ZNS and null_blk do); an explicitly opened one it would not, so
 * that one stays counted.
 */
static bool zn_reclaim(struct zoned *zn)
{
	struct zshare *sh = zn->sh;
	struct zzone *z;
	unsigned i;

	if (!sh->max_open || sh->nopen < sh->max_open ||
	    (zn->job_max && *zn->nopen_job >= zn->job_max))
		return false;
	for (i = 0; i < sh->nopen; i++) {
		z = &sh->z[sh->open[i]];
		if (!z->opener && !z->inflight && !z->resetting &&
		    z->cond != ZBD_COND_EXP_OPEN) {
			zn_close_zone(sh, z);
			return true;
		}
	}
	return false;
}

/*
 * A write whose zone cannot be opened goes to an open zone of the job's
 * with room, or opens another (fio's search, from the zone after,
 * wrapping); ZN_QUIESCE when what the job has in flight may yet close
 * one, ZN_BUSY when other jobs' writes may.
 */
static int zn_to_open(struct wstate *s, uint64_t off, uint64_t min_bs,
		      struct zzone **out)
{
	struct zoned *zn = zn_of(s);
	struct zshare *sh = zn->sh;
	struct zzone *z;
	unsigned zi, i, k, t;
	int l, r;
	bool limited = sh->max_open || zn->job_max;

	if (limited) {
		k = sh->nopen ? pick_open(zn, off) : 0;
		l = zlocal(zn, sh->open[k < sh->n ? k : 0]);
		zi = l < 0 ? 0 : (unsigned)l;
	} else {
		zi = zidx(zn, off);
	}
	for (;;) {
		z = &zn->z[zi];
		if (z->has_wp && !limited && z->cond != ZBD_COND_OFFLINE)
			goto examine;
		if (z->has_wp && !sh->nopen)
			goto other;
		k = pick_open(zn, off);
		for (t = 0, l = -1; t < sh->nopen; t++, k++) {
			if (k >= sh->nopen)
				k = 0;
			l = zlocal(zn, sh->open[k]);
			if (l >= 0)
				break;
		}
		if (l < 0)
			goto none;
		if ((unsigned)l == zi)
			break;
		zi = (unsigned)l;
	}
examine:
	if (z->wp + min_bs <= cap_end(z) && zn_free(zn, z)) {
		*out = z;
		return ZN_OK;
	}
other:
	if ((sh->nopen == zn->n || (sh->max_open &&
				    sh->nopen == sh->max_open) ||
	     (zn->job_max && *zn->nopen_job == zn->job_max)) &&
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
	for (i = 0; i < sh->nopen; i++) {
		l = zlocal(zn, sh->open[i]);
		if (l < 0)
			continue;
		z = &zn->z[l];
		if (z->wp + min_bs <= cap_end(z) && zn_free(zn, z)) {
			*out = z;
			return ZN_OK;
		}
	}
none:
	r = zn_wait_or_eof(s);
	if (r != ZN_EOF || !zn_reclaim(zn))
		return r;
	/* a zone left the count: the I/O's own zone first */
	zi = zidx(zn, off);
	zi = zi ? zi - 1 : zn->n - 1;
	goto other;
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
	uint64_t min_bs = s->j->io.bs_min[DDIR_READ], range, n;
	struct zzone *zb = &zn->z[zidx(zn, *off)], *orig = zb;

	if (!zb->has_wp || (zb->cond != ZBD_COND_OFFLINE &&
			    s->j->io.read_beyond_wp))
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
	uint64_t min_bs = j->io.bs_min[DDIR_WRITE], n;
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
	if (!zn_free(zn, zb))
		return ZN_BUSY;
	if (!zn_open_zone(zn, zb)) {
		r = zn_to_open(s, *off, min_bs, &zb);
		if (r != ZN_OK)
			return r;
	}
	if (j->io.zrf > 0 &&
	    zn->sh->wp_swd >= (zn->rhi - zn->rlo) * j->io.zrt &&
	    !--zn->write_cnt) {
		zn->write_cnt = (uint64_t)(1.0 / j->io.zrf);
		reset = true;
	}
	if (reset || zb->wp + min_bs > cap_end(zb)) {
		/* what is in flight completes before the reset */
		if (s->inflight || s->queued) {
			if (reset)
				zn->write_cnt = 1;
			return ZN_QUIESCE;
		}
		r = zn_reset(s, zb);
		if (r > 0) {
			if (reset)
				zn->write_cnt = 1;
			return ZN_BUSY;
		}
		if (r)
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
	/* the write pointer moves now, under the lock (fio moves it at
	 * queue time): another job's next write goes after this one */
	zb->wp += n;
	zn->sh->swd += n;
	zn->sh->wp_swd += n;
	if (zn->model == ZBD_NONE)
		zn_emul_cond(zb);
	zn->moved = zb;
	zn->moved_off = *off;
	zn->moved_len = n;
	zb->inflight++;
	zb->owner = zn;
	zn->sh->inflight++;
	return ZN_OK;
}

/*
 * A trim (fio's meaning under zonemode=zbd): a zone with a write pointer
 * is reset in its place, whole (the trim block size is the zone size:
 * zbdplan.c), at the trim's issue (zbd_trim); a random trim of an empty
 * zone goes to the nearest zone holding data, the job's end when there
 * is none. A conventional zone's trim is a discard, as any trim. The
 * zone is marked the job's reset from here: another job's write waits,
 * and the job's own writes to it complete first (fio's zone lock).
 */
static int zn_trim_at(struct wstate *s, uint64_t *off)
{
	struct zoned *zn = zn_of(s);
	struct zzone *zb = &zn->z[zidx(zn, *off)];

	if (zb->has_wp && zn->random && zb->wp == zb->start) {
		zb = zn_find_data(zn, zb, 1);
		if (!zb)
			return ZN_EOF;
		*off = zb->start;
	}
	if (!zb->has_wp)
		return ZN_OK;
	if (*off != zb->start) {
		job_fail(s, -EINVAL, "zonemode=zbd: a trim at %" PRIu64
			 " is not at its zone's start (%" PRIu64 ")", *off,
			 zb->start);
		return ZN_EOF;
	}
	if (zb->inflight && zb->owner == zn)
		return ZN_QUIESCE;
	if (!zn_free(zn, zb))
		return ZN_BUSY;
	zb->resetting = zn;
	zn->trim_z = zb;
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

/* Issue waits until the queue is empty (a reset, a zone to close), or,
 * nothing of the job's in flight, a moment for other jobs' writes. */
static bool zn_hold(struct wstate *s)
{
	struct zjob *zn = zj_of(s);
	struct timespec ts = { 0, 20000 };

	if (!zn->quiesce)
		return false;
	if (s->inflight || s->queued)
		return true;
	if (zn->backoff) {
		nanosleep(&ts, NULL);
		zn->backoff = false;
	}
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

	if (s->j->target.io_size || s->j->time.time_based)
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
	zn->win = zn->rlo;
	zn->zone_bytes = 0;
}

/*
 * zoneskip= (fio's rule, sequential jobs): once a zone's size of I/O was
 * done in the zone in use, or the position reached its end (a write: past
 * its capacity; a read: its write pointer), the next zone in use is a
 * zone and zoneskip bytes after its start, the region's start again
 * once that is past the region's end (fio's: the file's end; iorig stays
 * in the region). The job's bytes end it, as any job's: the skipped
 * bytes do not count (fio's).
 */
static uint64_t zn_skip(struct zoned *zn, int ddir, bool beyond,
			uint64_t off)
{
	const struct zzone *z;

	if (!zn->zskip)
		return off;
	/* the zone of the position before a capacity jump (fio's); at
	 * the region's end, its last zone */
	z = &zn->z[zidx(zn, zn->pos[ddir] < zn->rhi ? zn->pos[ddir] :
			    zn->rhi - 1)];
	if (zn->zone_bytes < zn->zs && off < z->end &&
	    (ddir != DDIR_READ || beyond || !z->has_wp || off < z->wp))
		return off;
	zn->zone_bytes = 0;
	zn->win += zn->zs + zn->zskip;
	if (zn->win >= zn->rhi)
		zn->win = zn->rlo;
	return zn->win;
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

/* The I/O in io, of the file at hand, moved where the zones take it
 * (sh->mu held): 1, or -1 held back, or ZN_EOF when the file has no
 * more I/O (the caller tries the job's other files). */
static int zn_next_locked(struct wstate *s, struct gen_io *io)
{
	struct zjob *zj = zj_of(s);
	struct zoned *zn = zn_of(s);
	const struct target *t = s->w->tgt;
	const struct target_file *tf = &t->files[zj->cur];
	uint64_t off, len;
	bool wrapped = false;
	int ddir, r;

	ddir = io->ddir;
	if (ddir == DDIR_READ && rw_mixed(s->j->io.rw) && !zn->sh->swd &&
	    !s->j->io.read_beyond_wp)
		ddir = DDIR_WRITE;	/* nothing to read yet (fio) */
again:
	len = io->len;
	off = zn->random ? tf->offset + io->foff :
	      zn_skip(zn, ddir, s->j->io.read_beyond_wp, zn_seq_at(zn, ddir));
	if (off >= zn->rhi) {
		if (wrapped || !zn_wrap(s))
			goto end;
		zn_restart(zn);
		wrapped = true;
		off = zn->rlo;
	}
	r = ddir == DDIR_WRITE ? zn_write_at(s, &off, &len) :
	    ddir == DDIR_TRIM ? zn_trim_at(s, &off) :
	    zn_read_at(s, &off, &len);
	/* a reader's first and last zones may pass the region's ends (it
	 * is not rounded): cut there */
	if (r == ZN_OK && ddir == DDIR_READ)
		zn_read_clip(zn, s->j->io.bs_min[DDIR_READ],
			     s->j->io.read_beyond_wp, &off, &len);
	if (r == ZN_QUIESCE || r == ZN_BUSY) {
		zj->pend = *io;
		zj->pend_ok = true;
		zj->quiesce = true;
		zj->backoff = r == ZN_BUSY;
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
	zn->zone_bytes += len;
	io->ddir = ddir;
	io->foff = off - tf->offset;
	io->offset = (uint64_t)io->file * t->file_region + io->foff;
	io->len = len;
	return 1;
end:
	zn->done = true;
	return ZN_FILE_DONE;
}

/*
 * The I/O in io (given), or the one held back, or the generator's,
 * placed in the zones of its file; a file with no more I/O hands it to
 * the job's next file that has some (fio goes on with the files left),
 * and the job ends when none has.
 */
static int zn_place(struct wstate *s, struct gen_io *io, bool given)
{
	struct zjob *zj = zj_of(s);
	struct zoned *zn;
	unsigned tried;
	int r;

	if (zj->pend_ok) {
		*io = zj->pend;
		zj->pend_ok = false;
	} else if (!given) {
		gen_next(&s->gen, io);
	}
	for (tried = 0; tried < zj->nf; tried++) {
		if (!zn_cur(s, io->file))
			break;
		zn = zn_of(s);
		if (!zn->done) {
			pthread_mutex_lock(&zn->sh->mu);
			r = zn_next_locked(s, io);
			pthread_mutex_unlock(&zn->sh->mu);
			if (r != ZN_FILE_DONE)
				return r;
		}
		io->file = io->file + 1 < zj->nf ? io->file + 1 : 0;
	}
	s->stopping = true;
	return -1;
}

/* read_iolog=: the replayer's next gives the log's I/O where the log
 * has it (fio replays them so, unmoved). */
static int zn_next(struct wstate *s, struct gen_io *io)
{
	struct zoned *zn = zn_of(s);

	if (zn->replay)
		return 0;
	return zn_place(s, io, false);
}

bool zbd_held(const struct wstate *s)
{
	const struct zjob *zj = zj_of(s);

	return zj && zj->f && zj->pend_ok;
}

int zbd_place(struct wstate *s, struct gen_io *io)
{
	if (!zn_of(s))
		return 1;
	return zn_place(s, io, true);
}

/* A replayed trim's zone, when it has a write pointer (fio resets it
 * in the trim's place, as the generator's); else NULL. */
static struct zzone *zn_replayed(const struct zoned *zn,
				 const struct io_req *req)
{
	struct zzone *z;

	if (!zn->replay)
		return NULL;
	z = &zn->z[zidx(zn, req->offset)];
	return z->has_wp ? z : NULL;
}

int zbd_trim(struct wstate *s, const struct io_req *req)
{
	struct zoned *zn;
	struct zzone *z;
	int r;

	if (!zn_cur(s, req->file))
		return 1;
	zn = zn_of(s);
	z = zn->trim_z;
	zn->trim_z = NULL;
	if (!z) {
		z = zn_replayed(zn, req);
		if (!z)
			return 1;
		/* fio's: an error of the trim, not of the job */
		if (req->offset != z->start || z->start < zn->rlo ||
		    z->end > zn->rhi)
			return -EINVAL;
	}
	pthread_mutex_lock(&zn->sh->mu);
	zn->in_call = s->guard.next;	/* worker.c's issue entered it */
	r = zn_reset(s, z);
	zn->in_call = false;
	z->resetting = NULL;
	pthread_mutex_unlock(&zn->sh->mu);
	if (r > 0) {	/* next() kept other jobs' writes out: a bug */
		job_fail(s, -EBUSY, "zonemode=zbd: the zone at %" PRIu64
			 " has writes in flight at its trim", z->start);
		return -EBUSY;
	}
	return r;
}

bool zbd_trims(const struct wstate *s, const struct io_req *req)
{
	const struct zoned *zn;

	if (!zn_cur(s, req->file))
		return false;
	zn = zn_of(s);
	return zn->trim_z || zn_replayed(zn, req);
}

/* A write next() moved the write pointer for that did not go out: its
 * bytes back, when nothing went after it (sh->mu held). */
static void zn_unmove(struct zoned *zn)
{
	struct zzone *z = zn->moved;

	zn->moved = NULL;
	if (!z)
		return;
	z->inflight--;
	zn->sh->inflight--;
	if (z->wp != zn->moved_off + zn->moved_len)
		return;
	z->wp = zn->moved_off;
	zn->sh->swd -= zn->moved_len;
	zn->sh->wp_swd -= zn->moved_len;
	if (zn->model == ZBD_NONE)
		zn_emul_cond(z);
}

/* A queued write counts in flight on its zone until it completes (a
 * reset of the zone waits for it); one that did not go out gives its
 * bytes back. */
static void zn_issued(struct wstate *s, struct io_req *req, int ddir, int r)
{
	struct zoned *zn;
	unsigned k;

	if (ddir != DDIR_WRITE || !zn_cur(s, req->file))
		return;
	zn = zn_of(s);
	if (r != ENGINE_QUEUED && r != ENGINE_DONE) {
		pthread_mutex_lock(&zn->sh->mu);
		zn_unmove(zn);
		pthread_mutex_unlock(&zn->sh->mu);
		return;
	}
	k = zn->zf + zidx(zn, req->offset);
	pthread_mutex_lock(&zn->sh->mu);
	if (zn->moved && r == ENGINE_QUEUED && req->idx < zn->nslot) {
		zn->slot[req->idx] = k + 1;	/* until done() */
	} else if (zn->moved) {
		zn->moved->inflight--;		/* done() came first */
		zn->sh->inflight--;
	}
	zn->moved = NULL;
	pthread_mutex_unlock(&zn->sh->mu);
}

/* A write that fills its zone closes it (it no longer counts open). */
static void zn_done(struct wstate *s, struct io_req *req,
		    const struct wlat *l)
{
	struct zoned *zn;
	struct zshare *sh;
	struct zzone *z;

	if (req->ddir != DDIR_WRITE || !zn_cur(s, req->file))
		return;
	zn = zn_of(s);
	sh = zn->sh;
	z = &zn->z[zidx(zn, req->offset)];
	pthread_mutex_lock(&sh->mu);
	if (req->idx < zn->nslot && zn->slot[req->idx]) {
		sh->z[zn->slot[req->idx] - 1].inflight--;
		sh->inflight--;
		zn->slot[req->idx] = 0;
	}
	if (l && zn->replay && z->has_wp && req->offset + req->len > z->wp &&
	    req->offset <= z->wp) {
		/* a replayed write (not placed by next()): the write
		 * pointer is where the device moved it */
		uint64_t top = req->offset + req->len < cap_end(z) ?
			       req->offset + req->len : cap_end(z);

		sh->swd += top - z->wp;
		sh->wp_swd += top - z->wp;
		z->wp = top;
		if (zn->model == ZBD_NONE)
			zn_emul_cond(z);
	}
	if (l && z->has_wp && req->offset + req->len >= cap_end(z))
		zn_close_zone(sh, z);
	pthread_mutex_unlock(&sh->mu);
}

/* Nothing in flight: the zones as the job leaves them (the device's
 * report read without the lock, then taken in under it). */
static void zn_last_file(struct wstate *s)
{
	struct zoned *zn = zn_of(s);
	struct zzone *now = NULL;
	unsigned i;
	int ret = 0;

	if (zn->model != ZBD_NONE) {
		now = calloc(zn->n, sizeof(*now));
		if (!now) {
			job_fail(s, -ENOMEM, "zonemode=zbd: %s",
				 strerror(ENOMEM));
			return;
		}
		call_enter(s);
		ret = zn_read(&zn->dev, zn->zs, zn->first, now, zn->n);
		if (!call_leave(s))
			return;
	}
	if (ret) {
		job_fail(s, ret, "zonemode=zbd: zone report after the job: "
			 "%s", strerror(-ret));
		free(now);
		return;
	}
	pthread_mutex_lock(&zn->sh->mu);
	zn_unmove(zn);
	if (zn->trim_z) {	/* a trim placed and never issued */
		zn->trim_z->resetting = NULL;
		zn->trim_z = NULL;
	}
	/* the device's word; the shared zones take it only when no other
	 * job holds them (theirs may have moved since the report) */
	for (i = 0; now && i < zn->n; i++) {
		if (zn->sh->refs > 1) {
			zn->rec->z[i].wp[1] = now[i].has_wp ?
				now[i].wp - now[i].start : 0;
			zn->rec->z[i].cond[1] = now[i].cond;
			continue;
		}
		zn->z[i].wp = now[i].wp;
		zn->z[i].cond = now[i].cond;
	}
	if (!now || zn->sh->refs == 1)
		zn_snap(zn, 1);
	pthread_mutex_unlock(&zn->sh->mu);
	free(now);
}

static void zn_last(struct wstate *s)
{
	struct zjob *zj = zj_of(s);
	unsigned i;

	for (i = 0; zj->f && i < zj->nf; i++) {
		zj->cur = i;
		zn_last_file(s);
	}
}

/* The job's record: its files' zones one after the other, each naming
 * its file (the first file's record, grown; the others' freed at
 * teardown). */
static void zn_end(struct wstate *s, uint64_t end, bool own)
{
	struct zjob *zj = zj_of(s);
	const struct target *t = s->w->tgt;
	struct zbd_stats *r;
	size_t n = 0, names = 0, at;
	unsigned i, k;
	char *p;

	(void)end;
	if (!own || !zj->f || !zj->f[0].rec || s->st->zbd)
		return;	/* not the job's, or given already */
	for (i = 0; i < zj->nf; i++) {
		if (!zj->f[i].rec)
			return;
		n += zj->f[i].rec->n;
		names += strlen(t->files[i].path) + 1;
	}
	r = calloc(1, sizeof(*r) + n * sizeof(r->z[0]) + names);
	if (!r)
		return;
	*r = *zj->f[0].rec;
	r->n = 0;
	r->resets = 0;
	r->max_open_seen = 0;
	p = (char *)&r->z[n];
	r->names = p;
	for (i = 0, at = 0; i < zj->nf; i++) {
		const struct zbd_stats *q = zj->f[i].rec;

		for (k = 0; k < q->n; k++) {
			r->z[r->n] = q->z[k];
			r->z[r->n++].name = (uint32_t)at;
		}
		r->resets += q->resets;
		if (q->max_open_seen > r->max_open_seen)
			r->max_open_seen = q->max_open_seen;
		memcpy(p + at, t->files[i].path, strlen(t->files[i].path) + 1);
		at += strlen(t->files[i].path) + 1;
	}
	s->st->zbd = r;
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
