// SPDX-License-Identifier: MIT
/*
 * sg: SCSI commands through SG_IO, to a SCSI generic char device
 * (/dev/sgN) or a SCSI disk's block device (/dev/sdX), one command per
 * request: completed inline by SG_IO, or, on /dev/sgN without direct=1
 * or sync= (fio's rule) in a job that writes (a descriptor open for
 * writing), queued with write(2) at commit and collected with read(2) at
 * reap, up to iodepth in flight. Reads are READ(10) or
 * READ(16), writes
 * WRITE(10/16) or, by sg_write_mode, WRITE AND VERIFY, WRITE SAME or
 * VERIFY; trims are UNMAP with one block descriptor (ENGINE_TRIMS); syncs
 * SYNCHRONIZE CACHE(10), waited for (the sync hook). The
 * 16-byte form is used when the LBA or the block count does not fit the
 * 10-byte one. The block size of each file is READ CAPACITY's, read at
 * init. A command that ends in a check condition fails the request with
 * -EIO and keeps its sense for the report (the status hook).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>

#include "clock.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"
#include "sgdev.h"
#include "target.h"

#define SG_TIMEOUT_MS	30000
#define SG_SENSE_LEN	64

enum sg_wmode {
	SG_W_WRITE,
	SG_W_VERIFY,		/* WRITE AND VERIFY, BYTCHK 0 */
	SG_W_SAME,		/* WRITE SAME: one block of data out */
	SG_W_SAME_NDOB,		/* WRITE SAME(16), no data out (zeros) */
	SG_W_VBYTCHK_00,	/* VERIFY: the medium, no data out */
	SG_W_VBYTCHK_01,	/* VERIFY: compared with the data out */
	SG_W_VBYTCHK_11,	/* VERIFY: each block with one block out */
	SG_W_STREAM,		/* WRITE STREAM(16): refused */
};

struct sg_opts {
	bool hipri;
	bool readfua;
	bool writefua;
	int write_mode;		/* enum sg_wmode */
	uint64_t stream_id;
};

#define O(field) offsetof(struct sg_opts, field)

static const struct opt_choice sg_wmodes[] = {
	{ "write", SG_W_WRITE, "WRITE(10/16)" },
	{ "write_and_verify", SG_W_VERIFY, "WRITE AND VERIFY(10/16)" },
	{ "verify", SG_W_VERIFY, "WRITE AND VERIFY (fio's older name)" },
	{ "write_same", SG_W_SAME, "WRITE SAME(10/16): one block sent, "
	  "written over the whole request" },
	{ "same", SG_W_SAME, "WRITE SAME (fio's older name)" },
	{ "write_same_ndob", SG_W_SAME_NDOB, "WRITE SAME(16) with NDOB: "
	  "no data sent, zeros written" },
	{ "verify_bytchk_00", SG_W_VBYTCHK_00, "VERIFY(10/16), BYTCHK 00: "
	  "the device checks its medium, no data sent" },
	{ "verify_bytchk_01", SG_W_VBYTCHK_01, "VERIFY(10/16), BYTCHK 01: "
	  "the blocks compared with the data sent" },
	{ "verify_bytchk_11", SG_W_VBYTCHK_11, "VERIFY(10/16), BYTCHK 11: "
	  "each block compared with the one block sent" },
	{ "write_stream", SG_W_STREAM, "WRITE STREAM(16): not supported "
	  "yet" },
	{ NULL, 0, NULL },
};

static const struct opt_def sg_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .def = "0",
	  .category = "engine",
	  .help = "sg: accepted without effect: Linux's sg driver has no "
		  "polled completions (fio's flag is a patched driver's)" },
	{ .name = "readfua", .type = OPT_BOOL, .off = O(readfua), .def = "0",
	  .category = "engine",
	  .help = "sg: reads with Force Unit Access (FUA)" },
	{ .name = "writefua", .type = OPT_BOOL, .off = O(writefua),
	  .def = "0", .category = "engine",
	  .help = "sg: writes with Force Unit Access (FUA; sg_write_mode="
		  "write, write_same_ndob)" },
	{ .name = "sg_write_mode", .type = OPT_ENUM, .off = O(write_mode),
	  .choices = sg_wmodes, .def = "write", .category = "engine",
	  .help = "sg: the command of a write: write, write_and_verify "
		  "(verify), write_same (same), write_same_ndob, "
		  "verify_bytchk_00, _01, _11" },
	{ .name = "stream_id", .type = OPT_UINT, .off = O(stream_id),
	  .def = "0", .min = 0, .max = 65535, .category = "engine",
	  .help = "sg: the stream of sg_write_mode=write_stream (not "
		  "supported yet)" },
	{ .name = NULL },
};

static int sg_check(const struct job *j, const void *eo, struct err_rec *e)
{
	const struct sg_opts *o = eo;

	if (o->write_mode != SG_W_STREAM)
		return 0;
	err_set(e, j->plan.section_file, j->plan.section_line, "sg_write_mode",
		"WRITE STREAM needs a stream opened on the device first, "
		"which iorig does not do yet; expected another "
		"sg_write_mode");
	return -EINVAL;
}

/* Whole blocks: every block size and the region's start are multiples of
 * each file's block size (READ CAPACITY's; chrdev.c read it for
 * /dev/sgN, the block device's logical block size for /dev/sdX). */
static int sg_plan_target(const struct target *t, const struct job *j,
			  struct err_rec *e)
{
	unsigned i, d;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];
		uint32_t lbs = tf->dio_align ? tf->dio_align : 512;

		if (tf->offset % lbs) {
			err_set(e, tf->path, 0, "offset", "%llu is not a "
				"multiple of %u, the device's block size",
				(unsigned long long)tf->offset, lbs);
			return -EINVAL;
		}
		for (d = 0; d < DDIR_NR; d++)
			if (j->io.bs_min[d] % lbs || j->io.bs_max[d] % lbs) {
				err_set(e, tf->path, 0, "bs", "%llu is not a "
					"multiple of %u, the device's block "
					"size: SCSI commands move whole "
					"blocks", (unsigned long long)
					(j->io.bs_min[d] % lbs ?
					 j->io.bs_min[d] :
					 j->io.bs_max[d]), lbs);
				return -EINVAL;
			}
	}
	return 0;
}

/* A slot's sense, kept for the status hook: key, ASC, ASCQ. */
struct sg_sense {
	uint8_t valid, key, asc, ascq;
};

/* A request slot's command, kept while the command is queued on /dev/sgN
 * (the kernel hands its header back at read(2)). */
struct sg_slot {
	struct sg_io_hdr h;
	uint8_t cdb[16];
	uint8_t sb[SG_SENSE_LEN];
};

struct sg_eng {
	const struct clock *clk;
	const struct sg_opts *o;
	const struct target *tgt;
	uint32_t *lbs;			/* per file, READ CAPACITY's */
	bool *queues;			/* per file: /dev/sgN, queued mode */
	unsigned *out;			/* per file: commands in the kernel */
	struct pollfd *pfd;		/* per file, for reap */
	struct sg_sense *sense;		/* per request slot */
	uint8_t (*unmap)[24];		/* per slot: UNMAP's parameters */
	struct sg_slot *slot;		/* per request slot */
	struct io_req **pend;		/* queued, not yet written */
	struct io_req **fail;		/* refused by write(2): for reap */
	unsigned npend, nfail, nout, nfiles;
	char text[160];
};

static int sg_init(struct engine_ctx *ctx)
{
	struct sg_eng *g = calloc(1, sizeof(*g));
	unsigned i, n = ctx->tgt ? ctx->tgt->nfiles : 0;
	uint64_t blocks;
	int r, fl;

	if (!g)
		return -ENOMEM;
	g->clk = ctx->clk;
	g->o = ctx->eo;
	g->tgt = ctx->tgt;
	g->nfiles = n;
	g->lbs = calloc(n ? n : 1, sizeof(*g->lbs));
	g->queues = calloc(n ? n : 1, sizeof(*g->queues));
	g->out = calloc(n ? n : 1, sizeof(*g->out));
	g->pfd = calloc(n ? n : 1, sizeof(*g->pfd));
	g->sense = calloc(ctx->iodepth, sizeof(*g->sense));
	g->unmap = calloc(ctx->iodepth, sizeof(*g->unmap));
	g->slot = calloc(ctx->iodepth, sizeof(*g->slot));
	g->pend = calloc(ctx->iodepth, sizeof(*g->pend));
	g->fail = calloc(ctx->iodepth, sizeof(*g->fail));
	ctx->priv = g;
	if (!g->lbs || !g->queues || !g->out || !g->pfd || !g->sense ||
	    !g->unmap || !g->slot || !g->pend || !g->fail)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r = sgdev_capacity(ctx->tgt->files[i].fd, &blocks,
				   &g->lbs[i]);
		if (r)
			return r == -EIO ? -EIO : r;
		/* fio's rule: /dev/sgN queues unless direct=1 or sync=;
		 * the sg driver takes write(2) only on a descriptor open
		 * for writing, which a job that only reads does not have
		 * (fio opens char devices read-write for reads too) */
		fl = fcntl(ctx->tgt->files[i].fd, F_GETFL);
		g->queues[i] = ctx->tgt->files[i].is_sg_chr &&
			       !ctx->job->cache.direct &&
			       ctx->job->cache.sync == SYNC_NONE && fl >= 0 &&
			       (fl & O_ACCMODE) == O_RDWR;
	}
	return 0;
}

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

/* The CDB of req into cdb (its length returned), and the data moved. */
static unsigned sg_cdb(const struct sg_eng *g, struct io_req *req,
		       uint8_t *cdb, struct sg_io_hdr *h)
{
	static const uint8_t op[][2] = {	/* 10-byte, 16-byte */
		[SG_W_WRITE] = { 0x2a, 0x8a },
		[SG_W_VERIFY] = { 0x2e, 0x8e },
		[SG_W_SAME] = { 0x41, 0x93 },
		[SG_W_SAME_NDOB] = { 0, 0x93 },
		[SG_W_VBYTCHK_00] = { 0x2f, 0x8f },
		[SG_W_VBYTCHK_01] = { 0x2f, 0x8f },
		[SG_W_VBYTCHK_11] = { 0x2f, 0x8f },
	};
	uint32_t lbs = g->lbs[req->file];
	uint64_t lba = req->offset / lbs, nb = req->len / lbs;
	int m = g->o->write_mode;
	bool l16 = lba >= 0xffffffffull || nb > 0xffff;
	uint8_t *u;

	h->dxferp = req->buf;
	h->dxfer_len = req->len;
	if (req->ddir == DDIR_TRIM) {
		u = g->unmap[req->idx];
		memset(u, 0, sizeof(*g->unmap));
		cdb[0] = 0x42;			/* UNMAP */
		put_be(cdb + 7, sizeof(*g->unmap), 2);
		put_be(u, sizeof(*g->unmap) - 2, 2);
		put_be(u + 2, 16, 2);
		put_be(u + 8, lba, 8);
		put_be(u + 16, nb, 4);
		h->dxferp = u;
		h->dxfer_len = sizeof(*g->unmap);
		h->dxfer_direction = SG_DXFER_TO_DEV;
		return 10;
	}
	if (req->ddir == DDIR_READ) {
		cdb[0] = l16 ? 0x88 : 0x28;
		cdb[1] = g->o->readfua ? 0x08 : 0;
		h->dxfer_direction = SG_DXFER_FROM_DEV;
	} else {
		l16 |= m == SG_W_SAME_NDOB;
		cdb[0] = op[m][l16];
		h->dxfer_direction = SG_DXFER_TO_DEV;
		if ((m == SG_W_WRITE || m == SG_W_SAME_NDOB) &&
		    g->o->writefua)
			cdb[1] |= 0x08;
		if (m == SG_W_SAME_NDOB)
			cdb[1] |= 0x01;
		if (m == SG_W_VBYTCHK_01)
			cdb[1] |= 0x02;
		if (m == SG_W_VBYTCHK_11)
			cdb[1] |= 0x06;
		if (m == SG_W_SAME || m == SG_W_VBYTCHK_11)
			h->dxfer_len = lbs;
		if (m == SG_W_SAME_NDOB || m == SG_W_VBYTCHK_00) {
			h->dxfer_len = 0;
			h->dxferp = NULL;
			h->dxfer_direction = SG_DXFER_NONE;
		}
	}
	if (l16) {
		put_be(cdb + 2, lba, 8);
		put_be(cdb + 10, nb, 4);
		return 16;
	}
	put_be(cdb + 2, lba, 4);
	put_be(cdb + 7, nb, 2);
	return 10;
}

/* What a finished command h made of req: its result, its sense. */
static void sg_result(struct sg_eng *g, struct io_req *req,
		      const struct sg_io_hdr *h)
{
	struct sg_sense *ss = &g->sense[req->idx];
	unsigned key, asc, ascq;

	ss->valid = 0;
	if (h->status || h->host_status || h->driver_status) {
		req->res = -EIO;
		if (!sgdev_sense(h->sbp, h->sb_len_wr, &key, &asc, &ascq)) {
			ss->valid = 1;
			ss->key = (uint8_t)key;
			ss->asc = (uint8_t)asc;
			ss->ascq = (uint8_t)ascq;
		}
	} else {
		/* resid counts what a read did not fill; writes, trims and
		 * the data-less modes move the request's bytes */
		req->res = req->ddir == DDIR_READ ?
			   (int64_t)req->len - h->resid : (int64_t)req->len;
	}
}

/* One SG_IO per request, completed inline; on /dev/sgN without direct=1
 * or sync=, queued instead: written at commit, read back at reap. */
static int sg_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct sg_eng *g = ctx->priv;
	struct sg_slot *sl = &g->slot[req->idx];
	struct sg_io_hdr *h = &sl->h;

	memset(sl, 0, sizeof(*sl));
	h->interface_id = 'S';
	h->cmdp = sl->cdb;
	h->cmd_len = (unsigned char)sg_cdb(g, req, sl->cdb, h);
	h->sbp = sl->sb;
	h->mx_sb_len = sizeof(sl->sb);
	h->timeout = SG_TIMEOUT_MS;
	h->pack_id = (int)req->idx;
	h->usr_ptr = req;
	g->sense[req->idx].valid = 0;
	if (g->queues[req->file]) {
		g->pend[g->npend++] = req;
		return ENGINE_QUEUED;
	}
	if (ioctl(req->fd, SG_IO, h) < 0)
		req->res = -errno;
	else
		sg_result(g, req, h);
	req->t_done = clock_ticks(g->clk);
	return ENGINE_DONE;
}

static int sg_commit(struct engine_ctx *ctx)
{
	struct sg_eng *g = ctx->priv;
	struct io_req *req;
	unsigned i, n = g->npend;
	ssize_t r;

	for (i = 0; i < n; i++) {
		req = g->pend[i];
		r = write(req->fd, &g->slot[req->idx].h,
			  sizeof(struct sg_io_hdr));
		req->t_submit = clock_ticks(g->clk);
		if (r < 0) {
			req->res = -errno;
			req->t_done = req->t_submit;
			g->fail[g->nfail++] = req;
			continue;
		}
		g->out[req->file]++;
		g->nout++;
	}
	g->npend = 0;
	return (int)n;
}

/* Read one finished command from file f's fd into out; 1, 0 (none
 * after all) or -errno. */
static int sg_read_one(struct sg_eng *g, unsigned f, struct io_req **out)
{
	struct sg_io_hdr h;
	struct io_req *req;

	if (read(g->tgt->files[f].fd, &h, sizeof(h)) < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	req = h.usr_ptr;
	req->t_done = clock_ticks(g->clk);
	sg_result(g, req, &h);
	g->out[f]--;
	g->nout--;
	*out = req;
	return 1;
}

static int sg_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out,
		   unsigned max)
{
	struct sg_eng *g = ctx->priv;
	unsigned n = 0, f, np;
	int r;

	while (g->nfail && n < max)
		out[n++] = g->fail[--g->nfail];
	while (n < max && g->nout) {
		for (np = 0, f = 0; f < g->nfiles; f++) {
			if (!g->out[f])
				continue;
			g->pfd[np].fd = g->tgt->files[f].fd;
			g->pfd[np].events = POLLIN;
			g->pfd[np++].revents = 0;
		}
		r = poll(g->pfd, np, n >= min ? 0 : -1);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0) {
			if (n >= min)
				break;
			continue;
		}
		for (np = 0, f = 0; f < g->nfiles && n < max; f++) {
			if (!g->out[f] || !(g->pfd[np++].revents & POLLIN))
				continue;
			r = sg_read_one(g, f, &out[n]);
			if (r < 0)
				return r;
			n += (unsigned)r;
		}
	}
	return (int)n;
}

static void sg_exit(struct engine_ctx *ctx)
{
	struct sg_eng *g = ctx->priv;

	if (!g)
		return;
	free(g->lbs);
	free(g->queues);
	free(g->out);
	free(g->pfd);
	free(g->sense);
	free(g->unmap);
	free(g->slot);
	free(g->pend);
	free(g->fail);
	free(g);
	ctx->priv = NULL;
}

/*
 * A sync of any kind (fsync=, fdatasync=, sync_file_range=, end_fsync=...)
 * is SYNCHRONIZE CACHE(10) over the whole medium (LBA 0, 0 blocks: all),
 * as fio sends it, one SG_IO waited for: the kernel has no fsync for
 * /dev/sgN, and on /dev/sdX fio sends the command too. A check condition
 * is -EIO (a device without a volatile cache may answer ILLEGAL REQUEST).
 */
static int sg_sync(struct engine_ctx *ctx, int fd)
{
	struct sg_io_hdr h;
	uint8_t cdb[10] = { 0x35 }, sb[SG_SENSE_LEN];

	(void)ctx;
	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmdp = cdb;
	h.cmd_len = sizeof(cdb);
	h.sbp = sb;
	h.mx_sb_len = sizeof(sb);
	h.dxfer_direction = SG_DXFER_NONE;
	h.timeout = SG_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	return h.status || h.host_status || h.driver_status ? -EIO : 0;
}

static const char *sg_status(const struct engine_ctx *ctx,
			     const struct io_req *req)
{
	struct sg_eng *g = ctx->priv;
	const struct sg_sense *ss;

	if (!g)
		return NULL;
	ss = &g->sense[req->idx];
	if (!ss->valid)
		return NULL;
	sgdev_sense_text(g->text, sizeof(g->text), ss->key, ss->asc,
			 ss->ascq);
	return g->text;
}

static const char *sg_hint(int err)
{
	switch (-err) {
	case EACCES:
	case EPERM:
		return "SG_IO needs read and write access to the device, "
		       "and CAP_SYS_RAWIO for commands the kernel does not "
		       "list as safe";
	case EIO:
		return "READ CAPACITY failed: is the device ready (a SCSI "
		       "disk)?";
	default:
		return NULL;
	}
}

const struct engine_ops engine_sg = {
	.name = "sg",
	.help = "SCSI commands by SG_IO to /dev/sgN or a SCSI disk "
		"(/dev/sdX)",
	.about = "Reads are READ(10/16), writes WRITE(10/16) or the "
		 "command sg_write_mode names, trims UNMAP (one per "
		 "trim; fio 3.33 gathers queued trims into one), syncs "
		 "of every kind SYNCHRONIZE CACHE(10). On "
		 "/dev/sgN without direct=1 or sync=, in a job that "
		 "writes, commands are "
		 "queued with write(2) and collected with read(2), up to "
		 "iodepth in flight (the sg driver takes 16 per open "
		 "file); otherwise one SG_IO ioctl each, completed "
		 "inline. "
		 "A writing job on /dev/sgN is guarded through its "
		 "disk's block device (mounted, held or signed: "
		 "refused). A check condition is an I/O error whose "
		 "sense key and ASC/ASCQ the report names.\n",
	.flags = ENGINE_SCSI | ENGINE_TRIMS,
	.submit_call = "ioctl or write",
	.options = sg_options,
	.options_size = sizeof(struct sg_opts),
	.check = sg_check,
	.plan_target = sg_plan_target,
	.init = sg_init,
	.queue = sg_queue,
	.commit = sg_commit,
	.reap = sg_reap,
	.exit = sg_exit,
	.sync = sg_sync,
	.hint = sg_hint,
	.status = sg_status,
};
