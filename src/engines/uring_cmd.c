// SPDX-License-Identifier: MIT
/*
 * io_uring_cmd (cmd_type=nvme): NVMe commands through io_uring's
 * passthrough (IORING_OP_URING_CMD, NVME_URING_CMD_IO) to NVMe generic
 * char devices (/dev/ngXnY), which bypass the block layer: a read is an
 * NVMe Read, a write an NVMe Write, a trim a Dataset Management command
 * with the deallocate attribute (this engine takes trims itself:
 * ENGINE_TRIMS), a sync an NVMe Flush (the sync hook). The ring has
 * 128-byte submission entries (SQE128) to hold the command and 32-byte
 * completions (CQE32); a completion's res is 0, an NVMe status (> 0), or
 * -errno.
 *
 * The targets are planned by chrdev.c as NVMe generic char devices
 * (ENGINE_NVME_CHAR): sized by Identify Namespace, whose answer each file
 * keeps (tf->nvme_id: asked once a file), guarded through their
 * namespace's block device. The plan's checks and init() (each file's
 * nsid and blocks, for the commands) read that answer.
 *
 * Protection information (a namespace formatted with PI, such as QEMU's
 * nsid 3): with pi_act=1 the controller inserts it on writes and strips
 * it on reads (PRACT) when the metadata is the 8 bytes of PI, so only
 * data moves; pi_chk= asks it to check the guard, the reference tag
 * (the block's LBA, types 1 and 2) and the application tag (apptag under
 * apptag_mask).
 *
 * Separate metadata (a namespace whose metadata is not in the block, such
 * as QEMU's nsid 4): each I/O has a metadata buffer of md_per_io_size
 * bytes (later fios' option), whose first nlb * ms bytes go in the
 * command's metadata pointer. With protection information and pi_act=0
 * the engine writes the PI itself before a write (the fields pi_chk names:
 * the guard, a CRC-16 T10-DIF of the block's data and the metadata bytes
 * before the PI; the application tag; the reference tag, the LBA, types 1
 * and 2) and checks the same fields after a read, as later fios do; a
 * mismatch is the read's error (EILSEQ), named with the field and LBA
 * (nvmepi.c: the blocks' layout in the buffers, the CRC, the fields).
 * With pi_act=1 and metadata that is just the 8 bytes of PI, no metadata
 * moves.
 *
 * An extended LBA (metadata inside each block, such as QEMU's nsid 3)
 * moves data and metadata interleaved when its metadata moves: its
 * blocks are lba_size + ms bytes (4104) in the buffers, and the job's
 * offsets and block sizes count in those, as does the namespace's size
 * (file_size: nsze blocks of 4104 bytes), as later fios count them; the
 * PI is written and checked in place, as above. fio 3.33, which knows
 * no metadata, sends such a namespace buffers of the data bytes only and
 * reports success: a misreading later fios refuse, as iorig does.
 *
 * System calls and timestamps are the io_uring engine's: the loop is
 * theirs (struct ring_io, ring.h), with a completion's res read as an
 * NVMe command's (ucmd_res) as reap() hands it out.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <liburing.h>

#include "clock.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "nvmedev.h"
#include "nvmepi.h"
#include "optdef.h"
#include "ring.h"
#include "target.h"

enum { UCMD_NVME = 0 };

struct ucmd_opts {
	int cmd_type;		/* only nvme */
	uint64_t force_async;	/* IOSQE_ASYNC every N; 0: none */
	char *nonvectored;	/* the text, for --parse-only */
	bool vectored;		/* nonvectored=0: NVME_URING_CMD_IO_VEC */
	bool fixedbufs;
	bool registerfiles;
	bool sqthread_poll;
	uint64_t sqthread_poll_cpu;	/* UINT64_MAX: not pinned */
	bool hipri;
	bool readfua;
	bool writefua;
	uint64_t md_per_io_size;
	bool pi_act;
	char *pi_chk;		/* GUARD,REFTAG,APPTAG: the text */
	uint32_t prchk;		/* pi_chk=: NVMEDEV_PRCHK_* bits */
	uint64_t apptag;
	uint64_t apptag_mask;
};

#define O(field) offsetof(struct ucmd_opts, field)

static const struct opt_choice cmd_types[] = {
	{ "nvme", UCMD_NVME, "NVMe commands (NVME_URING_CMD_IO)" },
	{ NULL, 0, NULL },
};

static int store_nonvectored(void *base, const struct opt_def *o,
			     const char *val, unsigned kb_base, char *why,
			     size_t whylen)
{
	struct ucmd_opts *uo = base;

	return ring_nonvectored(val, kb_base, &uo->vectored, why, whylen);
}

/* pi_chk=: GUARD, REFTAG, APPTAG joined by ','; the PRCHK bits or -1. */
static int pi_chk_bits(const char *val)
{
	static const struct {
		const char *name;
		int bit;
	} w[] = {
		{ "GUARD", NVMEDEV_PRCHK_GUARD },
		{ "REFTAG", NVMEDEV_PRCHK_REF },
		{ "APPTAG", NVMEDEV_PRCHK_APP },
	};
	const char *p = val;
	size_t i, n;
	int bits = 0;

	while (p && *p) {
		n = strcspn(p, ",");
		for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
			if (strlen(w[i].name) == n &&
			    !strncasecmp(p, w[i].name, n))
				break;
		if (i == sizeof(w) / sizeof(w[0]))
			return -1;
		bits |= w[i].bit;
		p += n;
		p += *p == ',';
	}
	return bits;
}

static int store_pi_chk(void *base, const struct opt_def *o,
			const char *val, unsigned kb_base, char *why,
			size_t whylen)
{
	struct ucmd_opts *uo = base;
	int bits = pi_chk_bits(val);

	if (bits < 0) {
		snprintf(why, whylen, "expected GUARD, REFTAG and APPTAG, any "
			 "of them, joined by ','");
		return -EINVAL;
	}
	uo->prchk = (uint32_t)bits;
	return 0;
}

static const struct opt_def ucmd_options[] = {
	{ .name = "cmd_type", .type = OPT_ENUM, .off = O(cmd_type),
	  .choices = cmd_types, .def = "nvme", .category = "engine",
	  .help = "io_uring_cmd: the commands passed through; nvme (the "
		  "only one)" },
	{ .name = "force_async", .type = OPT_UINT, .off = O(force_async),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "engine",
	  .help = "io_uring: every Nth I/O goes to the kernel's worker "
		  "threads (IOSQE_ASYNC); 0: none" },
	{ .name = "nonvectored", .type = OPT_STR, .off = O(nonvectored),
	  .store = store_nonvectored, .def = "-1", .category = "engine",
	  .help = "io_uring_cmd: 0: NVME_URING_CMD_IO_VEC (an iovec); any "
		  "other integer (-1, the default): NVME_URING_CMD_IO" },
	{ .name = "fixedbufs", .type = OPT_BOOL, .off = O(fixedbufs),
	  .def = "0", .category = "engine",
	  .help = "io_uring_cmd: registered buffers (IORING_URING_CMD_FIXED, "
		  "Linux 6.1 and later)" },
	{ .name = "registerfiles", .type = OPT_BOOL, .off = O(registerfiles),
	  .def = "0", .category = "engine",
	  .help = "io_uring_cmd: register the char devices with the ring" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, .off = O(sqthread_poll),
	  .def = "0", .category = "engine",
	  .help = "io_uring: a kernel thread polls the submission queue" },
	{ .name = "sqthread_poll_cpu", .type = OPT_UINT,
	  .off = O(sqthread_poll_cpu), .def = "none", .min = 0,
	  .max = 65535, .flags = OPT_F_NONE | OPT_F_PARAM,
	  .category = "engine",
	  .help = "io_uring: pin the SQPOLL thread to this CPU; none: not "
		  "pinned" },
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .def = "0",
	  .category = "engine",
	  .help = "io_uring_cmd: poll for completions (IOPOLL; the NVMe "
		  "driver needs poll queues, nvme.poll_queues=N)" },
	{ .name = "readfua", .type = OPT_BOOL, .off = O(readfua), .def = "0",
	  .category = "engine",
	  .help = "io_uring_cmd: reads with Force Unit Access (FUA)" },
	{ .name = "writefua", .type = OPT_BOOL, .off = O(writefua),
	  .def = "0", .category = "engine",
	  .help = "io_uring_cmd: writes with Force Unit Access (FUA)" },
	{ .name = "md_per_io_size", .type = OPT_SIZE, .off = O(md_per_io_size),
	  .def = "0", .category = "engine",
	  .help = "io_uring_cmd: bytes of a separate metadata buffer per "
		  "I/O (at least the largest block's blocks times the "
		  "namespace's metadata bytes); 0: none" },
	{ .name = "pi_act", .type = OPT_BOOL, .off = O(pi_act), .def = "0",
	  .category = "engine",
	  .help = "io_uring_cmd: the controller inserts and strips the "
		  "protection information (PRACT)" },
	{ .name = "pi_chk", .type = OPT_STR, .off = O(pi_chk),
	  .store = store_pi_chk, .category = "engine",
	  .help = "io_uring_cmd: the controller checks these fields of the "
		  "protection information: GUARD,REFTAG,APPTAG" },
	{ .name = "apptag", .type = OPT_UINT, .off = O(apptag),
	  .def = "0x1234", .min = 0, .max = 0xffff, .category = "engine",
	  .help = "io_uring_cmd: the application tag written and checked "
		  "(pi_chk=APPTAG)" },
	{ .name = "apptag_mask", .type = OPT_UINT, .off = O(apptag_mask),
	  .def = "0xffff", .min = 0, .max = 0xffff, .category = "engine",
	  .help = "io_uring_cmd: the bits of apptag checked" },
	{ .name = NULL },
};

static int ucmd_check(const struct job *j, const void *eo,
		      struct err_rec *e)
{
	const struct ucmd_opts *o = eo;
	const char *opt = NULL, *why = NULL;

	if (o->md_per_io_size > (1u << 24)) {
		opt = "md_per_io_size";
		why = "expected at most 16 MiB of metadata per I/O";
	} else if (o->fixedbufs && o->vectored) {
		opt = "fixedbufs";
		why = "registered buffers go with NVME_URING_CMD_IO only; "
		      "expected nonvectored=1 or fixedbufs=0";
	}
	if (opt) {
		err_set(e, j->plan.section_file, j->plan.section_line, opt,
			"%s", why);
		return -EINVAL;
	}
	return 0;
}

/* A namespace's metadata as the plan checks it: an extended LBA's moves
 * in the blocks (no trims: their ranges count data blocks; no verify=
 * with PI, whose bytes would overwrite the pattern's, as later fios
 * refuse); separate metadata needs md_per_io_size bytes for the largest
 * block of each direction. */
static int ucmd_plan_md(const struct target_file *tf, const struct job *j,
			const struct nvmedev_ident *id, struct err_rec *e)
{
	const struct ucmd_opts *o = j->eng.eopts;
	uint64_t need;
	unsigned d;

	if (!nvmepi_md_moves(id, o->pi_act))
		return 0;
	if (id->extended && (rw_dirs(j->io.rw) & (1u << DDIR_TRIM) ||
			     j->vfy.trim_percentage)) {
		err_set(e, tf->path, 0, "rw", "namespace %u is an extended "
			"LBA whose metadata moves (%u bytes a block): trims "
			"are not supported there; expected no trims, or "
			"pi_act=1", id->nsid, id->lba_size + id->ms);
		return -EINVAL;
	}
	/* j->vfy.verify: 0 is verify=none */
	if (id->extended && id->pi_type && j->vfy.verify) {
		err_set(e, tf->path, 0, "verify", "namespace %u is an "
			"extended LBA with protection information: its PI "
			"bytes are inside the blocks verify= checks; expected "
			"verify=0, or pi_act=1", id->nsid);
		return -EINVAL;
	}
	if (id->extended)
		return 0;
	for (d = 0; d < DDIR_NR; d++) {
		if (d == DDIR_TRIM)
			continue;
		need = j->io.bs_max[d] / id->lba_size * id->ms;
		if (o->md_per_io_size >= need)
			continue;
		err_set(e, tf->path, 0, "md_per_io_size", "%llu is too "
			"small: namespace %u has %u bytes of separate "
			"metadata per block, so a block of %llu bytes needs "
			"md_per_io_size=%llu or more%s", (unsigned long long)
			o->md_per_io_size, id->nsid, id->ms,
			(unsigned long long)j->io.bs_max[d],
			(unsigned long long)need, id->pi_type && id->ms == 8 ?
			" (or pi_act=1: the controller inserts and strips "
			"the protection information)" : "");
		return -EINVAL;
	}
	return 0;
}

/* The namespace of an NVMe generic char device, as chrdev.c's probe
 * identified it, with a usable LBA format; NULL with e. */
static const struct nvmedev_ident *ucmd_ident(const struct target_file *tf,
					      struct err_rec *e)
{
	const struct nvmedev_ident *id = tf->nvme_id;

	if (!id)
		err_set(e, tf->path, 0, "filename", "not identified as an "
			"NVMe namespace");
	else if (!id->lba_size)
		err_set(e, tf->path, 0, "filename", "the namespace has no "
			"usable LBA format");
	return id && id->lba_size ? id : NULL;
}

/* The namespace's size in the buffers' blocks: an extended LBA whose
 * metadata moves is nsze blocks of data and metadata (4104 bytes each on
 * QEMU's namespace 3, as later fios size it), so that a job without
 * size= covers every block and offset=, size= and their percentages
 * count in those bytes; direct= (which passthrough does not need) asks
 * whole blocks of those, not of the data's 4096. */
static int ucmd_file_size(const struct target_file *tf, const struct job *j,
			  uint64_t *bytes, uint32_t *block, struct err_rec *e)
{
	const struct ucmd_opts *o = j->eng.eopts;
	const struct nvmedev_ident *id = ucmd_ident(tf, e);

	if (!id)
		return -EINVAL;
	*block = nvmepi_block(id, o->pi_act);
	if (__builtin_mul_overflow(id->nsze, *block, bytes)) {
		err_set(e, tf->path, 0, "filename", "the namespace's %llu "
			"blocks do not fit in 64 bits of bytes",
			(unsigned long long)id->nsze);
		return -EINVAL;
	}
	return 0;
}

/*
 * The files are NVMe generic char devices (chrdev.c made sure); their
 * blocks: every block size and the region's start whole blocks, and a
 * namespace's metadata as ucmd_plan_md says.
 */
static int ucmd_plan_target(const struct target *t, const struct job *j,
			    struct err_rec *e)
{
	const struct ucmd_opts *o = j->eng.eopts;
	const struct nvmedev_ident *id;
	unsigned i, d;
	uint32_t blk;
	int r;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];

		id = ucmd_ident(tf, e);
		if (!id)
			return -EINVAL;
		r = ucmd_plan_md(tf, j, id, e);
		if (r)
			return r;
		if ((o->pi_act || o->prchk) && !id->pi_type) {
			err_set(e, tf->path, 0, o->pi_act ? "pi_act" : "pi_chk",
				"namespace %u has no protection information; "
				"expected a namespace formatted with it",
				id->nsid);
			return -EINVAL;
		}
		blk = nvmepi_block(id, o->pi_act);
		if (tf->offset % blk) {
			err_set(e, tf->path, 0, "offset", "%llu is not a "
				"multiple of %u, the namespace's block size%s",
				(unsigned long long)tf->offset, blk,
				blk != id->lba_size ? " (data and metadata, an "
				"extended LBA)" : "");
			return -EINVAL;
		}
		for (d = 0; d < DDIR_NR; d++) {
			if (j->io.bs_min[d] % blk || j->io.bs_max[d] % blk) {
				err_set(e, tf->path, 0, "bs", "%llu is not a "
					"multiple of %u, the namespace's block "
					"size%s: NVMe commands move whole "
					"blocks",
					(unsigned long long)(j->io.bs_min[d] %
					blk ? j->io.bs_min[d] :
					j->io.bs_max[d]),
					blk, blk != id->lba_size ? " (data and "
					"metadata, an extended LBA; or "
					"pi_act=1)" : "");
				return -EINVAL;
			}
		}
	}
	return 0;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A Dataset Management range (the specification's layout). */
struct ucmd_dsm {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

struct ucmd_file {
	struct nvmepi_fmt f;	/* its blocks in the buffers */
	uint32_t nsid;
};

struct ucmd {
	struct ring_io io;		/* first: the loop's, hot */
	struct ucmd_file *files;
	struct iovec *iov;		/* vectored: one per slot */
	struct ucmd_dsm *dsm;		/* a trim's range, one per slot */
	uint16_t *status;		/* the NVMe status of a slot's I/O */
	bool *refused;			/* a slot's I/O went as a no-op */
	uint8_t *md;			/* separate metadata: a buffer a slot */
	size_t md_per_io;
	char (*pi_why)[128];		/* the engine's PI check that failed */
	struct nvmepi pi;		/* pi_chk's checks, apptag, the CRC */
	unsigned reqs_per_buf;
	bool vectored, fixed_bufs, fixed_files;
	uint64_t force_async, fa_count;
	uint32_t rw_flags[DDIR_NR];	/* cdw12 bits 31:16 per direction */
	uint32_t cdw15;			/* apptag and its mask */
	unsigned flags;			/* IORING_SETUP_* in effect */
};

static const unsigned ucmd_ladder[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};

static int ucmd_setup(struct ucmd *u, const struct ucmd_opts *o)
{
	const struct ring_params rp = {
		.base = IORING_SETUP_CLAMP | IORING_SETUP_SQE128 |
			IORING_SETUP_CQE32,
		.ladder = ucmd_ladder,
		.nladder = ARRAY_SIZE(ucmd_ladder),
		.hipri = o->hipri,
		.sqthread_poll = o->sqthread_poll,
		.sqthread_poll_cpu = o->sqthread_poll_cpu,
	};

	return ring_setup(&u->io.ring, u->io.depth, &rp, &u->flags);
}

/* Each file's namespace (as the plan identified it): its nsid and its
 * blocks, for the commands. */
static int ucmd_files(struct ucmd *u, const struct target *t,
		      const struct ucmd_opts *o)
{
	const struct nvmedev_ident *id;
	unsigned i;

	if (!t || !t->nfiles)
		return -EINVAL;
	u->files = calloc(t->nfiles, sizeof(*u->files));
	if (!u->files)
		return -ENOMEM;
	for (i = 0; i < t->nfiles; i++) {
		id = t->files[i].nvme_id;
		if (!id || !id->lba_size)
			return -EINVAL;
		u->files[i].nsid = id->nsid;
		nvmepi_fmt_set(&u->files[i].f, id, o->pi_act);
	}
	return 0;
}

/* Slot req's separate metadata; NULL when f moves none. */
static uint8_t *ucmd_md(const struct ucmd *u, const struct nvmepi_fmt *f,
			const struct io_req *req)
{
	return f->ms ? u->md + req->idx * u->md_per_io : NULL;
}

static void ucmd_free(struct ucmd *u)
{
	free(u->refused);
	free(u->pi_why);
	free(u->md);
	free(u->status);
	free(u->dsm);
	free(u->iov);
	free(u->files);
	ring_io_free(&u->io);
	free(u);
}

/* cdw12's upper half: FUA (bit 30), PRINFO (PRACT bit 29, PRCHK 28:26). */
static void ucmd_flags(struct ucmd *u, const struct ucmd_opts *o)
{
	uint32_t pi = o->prchk << 26;

	if (o->pi_act)
		pi |= 1u << 29;
	u->rw_flags[DDIR_READ] = pi | (o->readfua ? 1u << 30 : 0);
	u->rw_flags[DDIR_WRITE] = pi | (o->writefua ? 1u << 30 : 0);
	u->cdw15 = (uint32_t)o->apptag | (uint32_t)o->apptag_mask << 16;
}

/* The metadata buffers, when a file moves separate metadata: a slot's
 * md_per_io_size bytes, zeroed (what a write sends of the metadata the
 * engine does not fill); and the PI checks' reasons. */
static int ucmd_md_alloc(struct ucmd *u, const struct target *t,
			 const struct ucmd_opts *o)
{
	bool md = false, host = false;
	size_t n;
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		md |= u->files[i].f.ms != 0;
		host |= u->files[i].f.pi_host;
	}
	if (host) {
		u->pi_why = calloc(u->io.depth, sizeof(*u->pi_why));
		if (!u->pi_why)
			return -ENOMEM;
		nvmepi_init(&u->pi, (unsigned)o->prchk, (uint16_t)o->apptag,
			    (uint16_t)o->apptag_mask);
	}
	if (!md)
		return 0;
	u->md_per_io = (size_t)o->md_per_io_size;
	n = (u->io.depth * u->md_per_io + 4095) & ~(size_t)4095;
	u->md = aligned_alloc(4096, n);
	if (!u->md)
		return -ENOMEM;
	memset(u->md, 0, n);
	return 0;
}

static int ucmd_init(struct engine_ctx *ctx)
{
	const struct ucmd_opts *o = ctx->eo;
	struct ucmd *u;
	int r;

	if (!ctx->iodepth)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->vectored = o->vectored;
	r = ring_io_alloc(&u->io, ctx->iodepth, ctx->clk);
	/* aligned_alloc: the size a multiple of the alignment (C11) */
	u->dsm = aligned_alloc(64, (u->io.depth * sizeof(*u->dsm) + 127) &
				   ~(size_t)63);
	u->status = calloc(u->io.depth, sizeof(*u->status));
	u->refused = calloc(u->io.depth, sizeof(*u->refused));
	if (u->vectored)
		u->iov = calloc(u->io.depth, sizeof(*u->iov));
	if (r || !u->dsm || !u->status || !u->refused ||
	    (u->vectored && !u->iov)) {
		r = -ENOMEM;
		goto err_free;
	}
	r = ucmd_files(u, ctx->tgt, o);
	if (r)
		goto err_free;
	ucmd_flags(u, o);
	r = ucmd_md_alloc(u, ctx->tgt, o);
	if (r)
		goto err_free;
	r = ucmd_setup(u, o);
	if (r)
		goto err_free;
	u->io.sqpoll = u->flags & IORING_SETUP_SQPOLL;
	u->force_async = o->force_async;
	if (o->fixedbufs) {
		r = ring_register_bufs(&u->io.ring, ctx, u->io.depth,
				       &u->reqs_per_buf);
		if (r)
			goto err_exit;
		u->fixed_bufs = true;
	}
	if (o->registerfiles) {
		r = ring_register_files(&u->io.ring, ctx->tgt);
		if (r)
			goto err_exit;
		u->fixed_files = true;
	}
	ring_io_linger_set(&u->io, ctx, o->hipri);
	ctx->priv = u;
	ctx->queue_nocall = !u->io.sqpoll;
	ctx->stamps_own = true;
	return 0;

err_exit:
	io_uring_queue_exit(&u->io.ring);
err_free:
	ucmd_free(u);
	return r;
}

/* The NVMe command of req in sqe's command area; -EINVAL when req is
 * not whole blocks. */
static int ucmd_prep(struct ucmd *u, struct io_uring_sqe *sqe,
		     struct io_req *req)
{
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe->cmd;
	const struct ucmd_file *uf = &u->files[req->file];
	const struct nvmepi_fmt *f = &uf->f;
	uint64_t slba, nlb;

	if (nvmepi_lbas(f, req->offset, req->len, &slba, &nlb))
		return -EINVAL;
	if (!nlb || nlb > 65536)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->nsid = uf->nsid;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	if (req->ddir == DDIR_TRIM) {
		struct ucmd_dsm *r = &u->dsm[req->idx];

		r->cattr = 0;
		r->nlb = (uint32_t)nlb;
		r->slba = slba;
		c->opcode = 0x09;	/* Dataset Management */
		c->cdw10 = 0;		/* one range */
		c->cdw11 = 1u << 2;	/* deallocate */
		c->addr = (uint64_t)(uintptr_t)r;
		c->data_len = sizeof(*r);
		return 0;
	}
	c->opcode = req->ddir == DDIR_READ ? 0x02 : 0x01;
	c->cdw12 = (uint32_t)(nlb - 1) | u->rw_flags[req->ddir];
	/* types 1 and 2: the first block's reference tag is its LBA */
	if (f->pi_type == 1 || f->pi_type == 2)
		c->cdw14 = (uint32_t)slba;
	c->cdw15 = u->cdw15;
	if (f->pi_host && req->ddir == DDIR_WRITE)
		nvmepi_write(&u->pi, f, req->buf, ucmd_md(u, f, req), slba,
			     nlb);
	if (f->ms) {
		c->metadata = (uint64_t)(uintptr_t)ucmd_md(u, f, req);
		c->metadata_len = (uint32_t)(nlb * f->ms);
	}
	if (u->vectored) {
		u->iov[req->idx].iov_base = req->buf;
		u->iov[req->idx].iov_len = req->len;
		c->addr = (uint64_t)(uintptr_t)&u->iov[req->idx];
		c->data_len = 1;
	} else {
		c->addr = (uint64_t)(uintptr_t)req->buf;
		c->data_len = req->len;
	}
	return 0;
}

static int ucmd_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct ucmd *u = ctx->priv;
	struct io_uring_sqe *sqe;
	int r = ring_io_sqe(&u->io, &sqe);

	if (r)
		return r;
	memset(sqe, 0, 2 * sizeof(*sqe));	/* SQE128 */
	u->refused[req->idx] = ucmd_prep(u, sqe, req) != 0;
	if (u->refused[req->idx]) {
		/* never sent: give the slot back as a no-op */
		io_uring_prep_nop(sqe);
		u->status[req->idx] = 0;
		ring_io_queued(&u->io, sqe, req);
		return ENGINE_QUEUED;
	}
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = u->fixed_files ? req->file : req->fd;
	sqe->cmd_op = u->vectored ? NVME_URING_CMD_IO_VEC : NVME_URING_CMD_IO;
	if (u->fixed_bufs && req->ddir != DDIR_TRIM) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (uint16_t)(req->idx < u->reqs_per_buf ? 0 :
					    req->idx / u->reqs_per_buf);
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (u->force_async && ++u->fa_count >= u->force_async) {
		u->fa_count = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	ring_io_queued(&u->io, sqe, req);
	return ENGINE_QUEUED;
}

static int ucmd_commit(struct engine_ctx *ctx)
{
	struct ucmd *u = ctx->priv;

	return ring_io_commit(&u->io);
}

/*
 * A completion's res as the worker counts it: the bytes (a command moves
 * all or nothing), -errno, or an NVMe status kept for the report (its
 * status hook) and counted as -EIO, or -EILSEQ for a protection
 * information check, as the block layer reports those (BLK_STS_PROTECTION).
 */
static int64_t ucmd_res(struct ucmd *u, struct io_req *req, int res)
{
	unsigned sc;

	if (u->refused[req->idx])	/* by ucmd_prep: a no-op went */
		return -EINVAL;
	u->status[req->idx] = 0;
	if (u->pi_why)
		u->pi_why[req->idx][0] = 0;
	if (res < 0)
		return res;
	if (!res) {
		const struct nvmepi_fmt *f = &u->files[req->file].f;
		uint64_t slba, nlb;
		int r;

		if (!f->pi_host || req->ddir != DDIR_READ || !u->pi.prchk ||
		    nvmepi_lbas(f, req->offset, req->len, &slba, &nlb))
			return req->len;
		r = nvmepi_check(&u->pi, f, req->buf, ucmd_md(u, f, req), slba,
				 nlb, u->pi_why[req->idx], sizeof(u->pi_why[0]));
		if (r)
			return r;
		return req->len;	/* a read that passes moved all */
	}
	u->status[req->idx] = (uint16_t)res;
	sc = (unsigned)res & 0x7ff;
	return sc >= 0x282 && sc <= 0x284 ? -EILSEQ : -EIO;
}

static int ucmd_reap(struct engine_ctx *ctx, unsigned min,
		     struct io_req **out, unsigned max)
{
	struct ucmd *u = ctx->priv;
	int i, n = ring_io_reap(&u->io, min, out, max, ctx->reap_linger);

	for (i = 0; i < n; i++)
		out[i]->res = ucmd_res(u, out[i], (int)out[i]->res);
	return n;
}

static void ucmd_exit(struct engine_ctx *ctx)
{
	struct ucmd *u = ctx->priv;

	if (!u)
		return;
	ring_io_close(&u->io, u->fixed_files, u->fixed_bufs);
	ucmd_free(u);
	ctx->priv = NULL;
}

/*
 * A sync of any kind is an NVMe Flush of fd's namespace (the kernel
 * refuses fsync on a char device), sent with the NVMe driver's own
 * passthrough ioctl and waited for: the ring's I/Os in flight go on
 * meanwhile, as a Flush covers only writes already completed. An NVMe
 * status is -EIO (kept nowhere: no request carries it).
 */
static int ucmd_sync(struct engine_ctx *ctx, int fd)
{
	const struct ucmd *u = ctx->priv;
	struct nvme_passthru_cmd c;
	unsigned i;
	int r;

	for (i = 0; i < ctx->tgt->nfiles; i++)
		if (ctx->tgt->files[i].fd == fd)
			break;
	if (!u || i == ctx->tgt->nfiles)
		return -EBADF;
	memset(&c, 0, sizeof(c));
	c.opcode = 0x00;	/* Flush */
	c.nsid = u->files[i].nsid;
	r = ioctl(fd, NVME_IOCTL_IO_CMD, &c);
	return r < 0 ? -errno : r ? -EIO : 0;
}

static const char *ucmd_status(const struct engine_ctx *ctx,
			       const struct io_req *req)
{
	const struct ucmd *u = ctx->priv;

	if (u && u->pi_why && u->pi_why[req->idx][0])
		return u->pi_why[req->idx];
	if (!u || !u->status[req->idx])
		return NULL;
	return nvmedev_status_text(u->status[req->idx]);
}

static void ucmd_report_setup(const struct engine_ctx *ctx,
			      struct engine_setup *out)
{
	const struct ucmd *u = ctx->priv;

	out->n = 0;
	out->known = u != NULL;
	if (u)
		ring_report_flags(u->flags, out);
	if (u && u->fixed_bufs)
		out->what[out->n++] = "fixedbufs";
	if (u && u->fixed_files)
		out->what[out->n++] = "registerfiles";
	if (u && u->vectored)
		out->what[out->n++] = "vectored";
}

static const char *ucmd_hint(int err)
{
	switch (-err) {
	case EACCES:
	case EPERM:
		return "NVMe passthrough needs read and write access to the "
		       "char device, and its admin commands (Identify) "
		       "CAP_SYS_ADMIN";
	case EINVAL:
		return "the kernel refused the ring or a registration: "
		       "io_uring passthrough needs Linux 5.19 (fixedbufs "
		       "6.1), and SQE128/CQE32 rings";
	case ENOMEM:
		return "fixedbufs buffers are locked memory: raise ulimit -l "
		       "or set fixedbufs=0";
	default:
		return NULL;
	}
}

const struct engine_ops engine_uring_cmd = {
	.name = "io_uring_cmd",
	.help = "NVMe passthrough with io_uring to char devices /dev/ngXnY",
	.about = "Reads, writes and trims (Dataset Management, deallocate) "
		 "go to the namespace as NVMe commands, past the block "
		 "layer; syncs of every kind are NVMe Flush commands (fio "
		 "3.33 sends none). The targets must be NVMe generic char devices; "
		 "a job that writes is guarded through the namespace's "
		 "block device (mounted, held or signed: refused). fio "
		 "3.33 trims through this engine with BLKDISCARD, which a "
		 "char device refuses; iorig sends Dataset Management.\n",
	.flags = ENGINE_NVME_CHAR | ENGINE_TRIMS,
	.submit_call = "io_uring_enter",
	.options = ucmd_options,
	.options_size = sizeof(struct ucmd_opts),
	.check = ucmd_check,
	.file_size = ucmd_file_size,
	.plan_target = ucmd_plan_target,
	.init = ucmd_init,
	.queue = ucmd_queue,
	.commit = ucmd_commit,
	.reap = ucmd_reap,
	.exit = ucmd_exit,
	.sync = ucmd_sync,
	.hint = ucmd_hint,
	.setup = ucmd_report_setup,
	.status = ucmd_status,
};
