// SPDX-License-Identifier: MIT
/*
 * What a worker sets up before its start gate (worker_setup): the
 * engine's context, the thread's own settings, the records, the request
 * slots and their buffers (mem=, the bytes of writes, the buffer
 * options' fill), the generator of offsets, lengths and directions, the
 * work to do (the limits), each wanted feature, the engine, verify=.
 * Declared in wstate.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "depth.h"
#include "iolog.h"
#include "value.h"
#include "warn.h"
#include "wstate.h"

/*
 * The request slots (iodepth of them), each with its buffer, and the
 * bytes of writes; serialize_overlap's (and verify='s) per-slot state.
 */
int slots_setup(struct wstate *s)
{
	const struct job *j = s->j;
	uint64_t bs = j->io.bs_max[0] > j->io.bs_max[1] ? j->io.bs_max[0] :
		      j->io.bs_max[1];
	size_t align = target_buf_align(), stride, i;
	int r;
	void *bufs = NULL;

	/* trimwrite writes each trim's blocks: as long as the trims. */
	if (rw_dirs(j->io.rw) == ((1u << DDIR_WRITE) | (1u << DDIR_TRIM)) &&
	    j->io.bs_max[DDIR_TRIM] > bs)
		bs = j->io.bs_max[DDIR_TRIM];

	stride = (bs + align - 1) / align * align;
	s->reqs = calloc(s->depth, sizeof(*s->reqs));
	s->free_reqs = calloc(s->depth, sizeof(*s->free_reqs));
	s->reaped = calloc(s->depth, sizeof(*s->reaped));
	/* serialize_overlap (serial.c; mixed rw or block size ranges with
	 * verify= need it too, verify.h) runs on the slow path (WF_SLOW). */
	if (wf_wanted(s, WF_SERIAL))
		s->ft.loop |= WF_BIT(WF_SERIAL);
	if (!s->reqs || !s->free_reqs || !s->reaped) {
		job_fail(s, -ENOMEM, "cannot allocate %zu bytes of request "
			 "slots (iodepth %u): %s", s->depth *
			 (sizeof(*s->reqs) + 2 * sizeof(*s->free_reqs)),
			 s->depth, strerror(ENOMEM));
		return -ENOMEM;
	}
	{
		char why[320];

		/* mem=, mem_align=, lockmem= (procattr.h) */
		r = procattr_mem_alloc(&s->th.mem, j, align, s->depth, stride,
				       &bufs, why, sizeof(why));
		if (r) {
			job_fail(s, r, "%s", why);
			return r;
		}
	}
	for (i = 0; i < s->depth; i++) {
		s->reqs[i].idx = (uint32_t)i;
		s->reqs[i].buf = (char *)bufs + i * stride;
		s->free_reqs[i] = &s->reqs[i];
	}
	s->nfree = s->depth;
	s->ctx.bufs = bufs;
	s->ctx.buf_stride = stride;
	/* Each write's bytes (gen.h); verify= writes its own. */
	if (rw_dirs(j->io.rw) & (1u << DDIR_WRITE) && !j->vfy.verify &&
	    gen_data_init(&s->wdata, bs, fill_pool_seed(j),
			  (j->rnd.allrandrepeat ? 0x616c6c72ull :
			   clock_mono_ns() ^ ((uint64_t)getpid() << 20)) ^
			  j->rnd.randseed ^ ((uint64_t)j->plan.clone << 40))) {
		job_fail(s, -ENOMEM, "cannot allocate %" PRIu64 " bytes for "
			 "the data of writes: %s", bs, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* the buffer options' bytes are content.c's, made from wdata */
	return 0;
}

/*
 * The random map of varying block sizes (gen.h: a bit per unit of the
 * region) could not be allocated: the job fails, or with softrandommap
 * goes on without it, as fio does, with a warning.
 */
static void map_nomem(struct wstate *s, int ret)
{
	char sz[32];

	value_fmt_bytes(gen_bmap_bytes(&s->gen), sz, sizeof(sz));
	job_fail(s, ret, "cannot allocate the random map (%s: a bit per %"
		 PRIu64 " bytes of the region; at most half of the memory); "
		 "expected norandommap=1, softrandommap=1 (then without the "
		 "map, as fio) or a smaller region", sz, s->gen.align);
}

/* The random map may take half of the machine's memory (plan.c's rule
 * for I/O buffers): more would be the OOM killer's, not an error. */
static uint64_t map_max(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz / 2 :
	       0;
}

static void map_dropped(struct wstate *s)
{
	char sz[32];

	value_fmt_bytes(gen_bmap_bytes(&s->gen), sz, sizeof(sz));
	if (s->w->tgt->warn)
		warn_add(s->w->tgt->warn, "random_map_dropped", s->j->desc.name,
			 "job '%s': its random map (%s) could not be "
			 "allocated; softrandommap=1: it runs without, so "
			 "blocks repeat and others are missed in a pass",
			 s->j->desc.name, sz);
}

/* The generator (gen.h) from the job's options: the random patterns are
 * parsed again (checked when the job was built). */
/* The generator's parameters from the job's options (gen.h), but the
 * files' lengths and the random patterns. */
static void gen_params_fill(const struct wstate *s, struct gen_params *gp)
{
	const struct job *j = s->j;
	unsigned d;

	*gp = (struct gen_params){
		.region = s->w->tgt->region,
		.nfiles = s->w->tgt->nfiles,
		.random = rw_random(j->io.rw),
		.mixed = rw_mixed(j->io.rw),
		.wrap_each = j->time.time_based,
		.only_dir = rw_dirs(j->io.rw) & (1u << DDIR_TRIM) ? DDIR_TRIM :
			    rw_dirs(j->io.rw) & (1u << DDIR_WRITE) ?
			    DDIR_WRITE : DDIR_READ,
		.trimwrite = j->io.rw == RW_TRIMWRITE ||
			     j->io.rw == RW_RANDTRIMWRITE,
		.rwmixread = j->io.rwmixread,
		.norandommap = j->rnd.norandommap,
		.softrandommap = j->rnd.softrandommap,
		.map_max = map_max(),
		.seed = j->rnd.randrepeat ? j->rnd.randseed + j->plan.clone :
			clock_mono_ns() ^ ((uint64_t)getpid() << 20) ^
			j->plan.clone,
	};
	memcpy(gp->bs_min, j->io.bs_min, sizeof(gp->bs_min));
	memcpy(gp->bs_max, j->io.bs_max, sizeof(gp->bs_max));
	/* Random patterns: parsed again (checked when the job was built). */
	for (d = 0; d < DDIR_NR; d++) {
		gp->ba[d] = j->rnd.blockalign[d];
		gp->perc_seq[d] = 100.0 - (double)j->rnd.percentage_random[d];
	}
	gp->lfsr = j->rnd.random_generator == RANDGEN_LFSR;
	gp->bs_unaligned = j->io.bs_unaligned;
	gp->seq_add = j->io.rw_seq_add;
	gp->seq_nr = j->io.rw_seq_nr;
	gp->seq_identical = j->rnd.rw_sequencer == RWSEQ_IDENTICAL;
	gp->fst = j->target.file_service;
	gp->fst_nr = j->target.file_service_nr;
	gp->fst_param = j->target.file_service_param;
	gp->fst_center = j->target.file_service_center;
	gp->openfiles = (uint32_t)j->target.openfiles;
	/* zonemode=zbd's zones are the feature's (zoned.c), not these */
	gp->zone_size = j->io.zone_mode == ZONE_ZBD ? 0 : j->io.zonesize;
	gp->zone_range = j->io.zonerange;
	gp->zone_skip = j->io.zoneskip;
}

int gen_setup(struct wstate *s)
{
	const struct job *j = s->j;
	struct gen_params gp;
	const struct target *t = s->w->tgt;
	uint64_t *flen = NULL;
	unsigned d;
	int ret;

	gen_params_fill(s, &gp);
	/* filesize=LO-HI: each file its own region (gen.h, uneven). */
	if (t->uneven) {
		flen = malloc(t->nfiles * sizeof(*flen));
		if (!flen) {
			job_fail(s, -ENOMEM, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		for (d = 0; d < t->nfiles; d++)
			flen[d] = t->files[d].len;
		gp.flen = flen;
	}
	/* Parsed by the options' setters (optvalue.c): the job owns
	 * them, gen_init keeps what it needs. */
	gp.dist = j->rnd.dist;
	gp.bssplit = j->io.bss;
	ret = gen_init(&s->gen, &gp);
	if (ret == -ERANGE)
		job_fail(s, ret, "random_distribution=%s: the zones end "
			 "beyond the file region (%" PRIu64 " bytes, the "
			 "smallest file's); expected sizes that fit in it",
			 j->rnd.random_distribution, s->gen.fmin);
	else if (ret == -ENOMEM)
		map_nomem(s, ret);
	else if (ret)
		job_fail(s, ret, "cannot lay out I/Os of %" PRIu64
			 " bytes or more, at multiples of %" PRIu64
			 " (blockalign; 0: none), in file regions of %"
			 PRIu64 " bytes",
			 j->io.bs_min[0] > j->io.bs_min[1] ? j->io.bs_min[0] :
			 j->io.bs_min[1], j->rnd.blockalign[0] >
			 j->rnd.blockalign[1] ? j->rnd.blockalign[0] :
			 j->rnd.blockalign[1], s->w->tgt->file_region);
	if (!ret && s->gen.map_dropped)
		map_dropped(s);
	/* gen_init keeps what it needs: nothing points at the job's. */
	s->gen.p.dist = NULL;
	s->gen.p.bssplit = NULL;
	free(flen);
	return ret;
}

/*
 * Whether prep_as may take gen_map_fast's I/Os without the per-I/O check
 * of the generator's contract: every block it can give (below nblocks)
 * lies inside file 0's region. Checked at setup and again when the files
 * are laid out again (new_pass); false leaves every I/O checked.
 */
void map_fast_check(struct wstate *s)
{
	const struct target *t = s->w->tgt;
	const struct gen *g = &s->gen;

	s->pass.map_fast = g->fast_end && t->nfiles >= 1 &&
		      g->nblocks <= t->files[0].len / g->align;	if (s->pass.map_fast) {
		s->pass.f0_off = t->files[0].offset;
		s->pass.f0_fd = t->files[0].fd;
	}
}

/*
 * The region a job's bytes are counted from. zonemode=zbd rounds a
 * writer's region to whole zones (zbdplan.c), yet fio sets the job's
 * bytes from the region asked, before its rounding: a walk that draws
 * offsets without a random map goes on past the rounded region's bytes
 * (fio's norandommap=1 writes of filesize=8m offset=2m in 4 MiB zones are
 * 6 MiB, in the one zone from 4 MiB, reset as it fills), while a
 * sequential walk or a random map still ends the pass at the rounded
 * region's end, as fio's pass ends there.
 */
static uint64_t zbd_bytes_region(const struct wstate *s)
{
	const struct target *t = s->w->tgt;

	if (!t->zbd_rounded || !rw_random(s->j->io.rw) ||
	    s->gen.use_map || s->gen.use_bmap)
		return t->region;
	return t->zbd_asked_region;
}

/*
 * What the job is to do: per_loop (bytes of a loop), limit_bytes and
 * limit_ios (the whole run), from its options and its generator's walk.
 * A feature may set other limits in its setup (read_iolog=).
 */
void limits_set(struct wstate *s)
{
	const struct job *j = s->j;
	const struct target *t = s->w->tgt;
	/* trimwrite: io_size (number_ios) bytes (I/Os) of trims, and as
	 * many of writes on the same blocks (fio's meaning). */
	uint64_t tw = rw_dirs(j->io.rw) == ((1u << DDIR_TRIM) |
					    (1u << DDIR_WRITE)) ? 2 : 1;

	/* A walk with gaps may end before the region's bytes (gen.h), and
	 * fio's loop with it, unless io_size asks for more (then passes
	 * follow each other, as fio's loops do). */
	s->pass.per_loop = job_per_loop(j, zbd_bytes_region(s));
	if (!j->target.io_size && gen_pass_len(&s->gen) < t->region &&
	    gen_pass_len(&s->gen) < s->pass.per_loop)
		s->pass.per_loop = gen_pass_len(&s->gen);
	s->pass.per_loop *= tw;
	s->limit_bytes = j->time.time_based ? UINT64_MAX : s->pass.per_loop * j->time.loops;
	if (!j->time.time_based && s->pass.per_loop &&
	    s->limit_bytes / s->pass.per_loop != j->time.loops)
		s->limit_bytes = UINT64_MAX;
	/* number_ios counts over every loop, as fio's (number_ios x loops) */
	s->limit_ios = UINT64_MAX;
	if (j->time.number_ios && j->time.number_ios <= UINT64_MAX / tw /
				 (j->time.loops ? j->time.loops : 1))
		s->limit_ios = j->time.number_ios * tw * (j->time.loops ?
							  j->time.loops : 1);
}

/* The engine's context and the batching asked for. */
static void ctx_init(struct wstate *s)
{
	const struct job *j = s->j;
	struct worker *w = s->w;

	s->ctx.job = j;
	s->ctx.eo = j->eng.eopts;
	s->ctx.stop = w->stop;
	s->ctx.deadline = &s->deadline;
	s->ctx.halt = w->halt;
	s->ctx.iodepth = s->depth;
	s->ctx.clk = w->clk;
	s->ctx.queue = s->eng->queue;
	s->ctx.tgt = w->tgt;
	depth_setup(s);
}

/*
 * The thread's own settings: the job's user, the CPUs it may run on, its
 * nice and priority, its cgroup; 0 or -errno with the job failed.
 */
static int thread_setup(struct wstate *s)
{
	const struct job *j = s->j;
	char msg[512];
	int ret;

	/* uid=, gid= first, as fio: all that follows is the job's user's */
	ret = procattr_cred_drop(j, msg, sizeof(msg));
	if (ret) {
		job_fail(s, ret, "%s", msg);
		return ret;
	}
	ret = ctl_setup(s);
	if (ret)
		return ret;
	/* nice=, prio= (procattr.h): before the engine starts */
	ret = procattr_apply(j, msg, sizeof(msg));
	/* cgroup= (cgroup.h): left in worker_main's teardown */
	if (!ret && cgroup_wanted(j)) {
		ret = cgroup_join(j, msg, sizeof(msg));
		s->th.cgroup_in = !ret;
	}
	if (ret) {
		job_fail(s, ret, "%s", msg);
		return ret;
	}
	return 0;
}

/* write_iolog=, the rate samples and interval='s record: the loop
 * writes into them. */
static int records_setup(struct wstate *s)
{
	struct worker *w = s->w;
	char msg[512];
	int ret;

	ret = iolog_open(&s->iolog, s->j, w->log_index, w->clk,
			 w->tgt->fence, msg, sizeof(msg));
	if (!ret && (ret = iolog_files(s->iolog, w->tgt)))
		snprintf(msg, sizeof(msg), "write_iolog: out of memory");
	if (ret) {
		job_fail(s, ret, "%s", msg);
		return ret;
	}
	if (s->iolog)
		s->ft.loop |= WF_BIT(WF_LOGS);
	return live_setup(s);
}

/*
 * Everything before the start gate, in order: the engine's context, the
 * thread, the records, the slots, the generator and the limits, each
 * wanted feature, the engine, verify=. 0, or -errno with the job failed.
 */
int worker_setup(struct wstate *s)
{
	const struct job *j = s->j;
	int ret;

	ctx_init(s);
#if defined(__x86_64__) && defined(__GNUC__)
	/* the loop's BMI2 and TSC copies (worker.c) */
	__builtin_cpu_init();
	s->bmi2 = __builtin_cpu_supports("bmi2") && s->ctx.clk->tsc;
#endif
	/* Which features the job wants, before anything can fail. */
	ret = wf_select(s);
	if (!ret)
		ret = thread_setup(s);
	if (!ret)
		ret = records_setup(s);
	if (!ret)
		ret = slots_setup(s);
	if (!ret)
		ret = gen_setup(s);
	if (!ret) {
		limits_set(s);
		map_fast_check(s);
		ret = wf_setup(s);
	}
	if (!ret)
		depth_linger(s);
	if (!ret && s->eng->init)
		ret = s->eng->init(&s->ctx);
	if (ret) {
		engine_failed(s, ret, "setting up");
		return ret;
	}
	depth_stamps(s);
	depth_linger_start(s);
	/* queue() outside the stop hand-off when it only fills memory
	 * (engine.h); a trim is a system call (trim_req), whatever the
	 * engine. */
	s->guard.base = s->guard.on && (!s->ctx.queue_nocall ||
					(rw_dirs(j->io.rw) &
					 (1u << DDIR_TRIM)));
	s->guard.next = s->guard.base;
	if (s->w->setup && s->eng->setup)
		s->eng->setup(&s->ctx, s->w->setup);
	if (j->vfy.verify) {
		ret = verify_setup(s);
		if (ret)
			return ret;
		s->ft.loop |= WF_BIT(WF_VERIFY);
	}
	if (s->w->live_on) {
		atomic_store_explicit(&s->w->live.limit_bytes, s->limit_bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&s->w->live.limit_ios, s->limit_ios,
				      memory_order_relaxed);
	}
	return 0;
}
