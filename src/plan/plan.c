// SPDX-License-Identifier: MIT
/*
 * Raw sections -> validated job clones. A job's options are, in order, those
 * of every [global] section before it and then its own; later wins. kb_base
 * is looked up first among all of them so that every size of the job is
 * read with the same base.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "options.h"
#include "plan.h"
#include "replay.h"
#include "dist.h"
#include "value.h"
#include "opendir.h"
#include "jobexec.h"
#include "cpuset.h"
#include "cgroup.h"
#include "steady.h"
#include "sysinfo.h"
#include "verify.h"
#include "zbd.h"
#include "nvmedev.h"

#define PLAN_MAX_JOBS	4096

/*
 * fio hands a value in which it put $ncpus, $pagesize or $mb_memory to bc
 * whole (its arithmetic then counts, where it otherwise reads the first
 * number alone): such a number's value is an expression in parentheses
 * here, which is how iorig spells one in fio's options.
 */
static const char *calc_value(const struct raw_opt *o, char *buf,
			      size_t len)
{
	if (!o->calc || !o->value || !strpbrk(o->value, "+-*/") ||
	    !options_is_number(o->name) ||
	    (size_t)snprintf(buf, len, "(%s)", o->value) >= len)
		return o->value;
	return buf;
}

/* The pass of apply_opts that reads raw option o: kb_base first (the
 * last one: every size of the job is read with it), then ioengine= (its
 * engine's options are found in its table wherever they stand, as fio
 * finds them), then everything else; -1: not read. */
static int opt_pass(const struct raw_opt *const *opts, size_t n, size_t i)
{
	const struct opt_def *d = options_find(opts[i]->name);
	size_t k;

	if (!strcmp(opts[i]->name, "kb_base")) {
		for (k = i + 1; k < n; k++)
			if (!strcmp(opts[k]->name, "kb_base"))
				return -1;
		return 0;
	}
	return d && !strcmp(d->name, "ioengine") ? 1 : 2;
}

/*
 * Apply opts[0..n) in three passes (opt_pass), each in order. A failure
 * fills e; when e keeps a list (err_keep), the next options are still
 * read, so that one run reports every bad option, and the last failure
 * is returned.
 */
static int apply_opts(struct job *j, const struct raw_opt *const *opts,
		      size_t n, struct err_rec *e)
{
	char buf[JOBFILE_MAX_LINE + 2];
	int ret, bad = 0, pass;
	size_t i;

	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++) {
			if (opt_pass(opts, n, i) != pass)
				continue;
			ret = options_set(j, opts[i]->name,
					  calc_value(opts[i], buf, sizeof(buf)),
					  opts[i]->file, opts[i]->line, e);
			if (ret && (ret == -ENOMEM || !err_keep(e)))
				return ret;
			bad = ret ? ret : bad;
		}
	return bad;
}

static bool selected(const struct plan_filter *f, const char *name)
{
	const char **s;

	if (!f || !f->sections)
		return true;
	for (s = f->sections; *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static int check_verify(const struct job *j, struct err_rec *e)
{
	const char *opt;
	char why[256];

	if (!verify_job_check(j, &opt, why, sizeof(why)))
		return 0;
	err_set(e, j->plan.section_file, j->plan.section_line, opt, "%s", why);
	return -EINVAL;
}

/*
 * The I/O buffers a job's clones allocate when they start (alloc_reqs in
 * worker/worker.c): iodepth (1 for a synchronous engine) times the largest
 * block size rounded up to a page, for each of numjobs clones. A total
 * beyond half of the machine's memory, or beyond what can be addressed,
 * cannot be what was meant: refused here, before anything runs.
 */
static uint64_t page_size(void)
{
	long psz = sysconf(_SC_PAGESIZE);

	return psz > 0 ? (uint64_t)psz : 4096;
}

/* The largest block size, rounded up to a page: one request's buffer. */
static uint64_t buf_bs(const struct job *j)
{
	uint64_t bs = j->io.bs_max[0] > j->io.bs_max[1] ? j->io.bs_max[0] :
		      j->io.bs_max[1], page = page_size();

	return (bs + page - 1) / page * page;
}

static uint64_t buf_depth(const struct job *j)
{
	const struct engine_ops *eng = engine_find(j->eng.ioengine);

	return eng && (eng->flags & ENGINE_SYNC) ? 1 : j->eng.iodepth;
}

static int check_buffers(const struct job *j, struct err_rec *e)
{
	uint64_t bs = buf_bs(j), depth = buf_depth(j);
	long pages = sysconf(_SC_PHYS_PAGES);
	uint64_t page = page_size(), half, per, total;
	char h_bs[32], h_total[32], h_half[32];
	bool over;

	half = pages > 0 ? (uint64_t)pages * page / 2 : UINT64_MAX;
	over = __builtin_mul_overflow(depth, bs, &per) ||
	       __builtin_mul_overflow(per, j->eng.numjobs, &total) ||
	       per > SIZE_MAX / 2;
	if (!over && total <= half)
		return 0;
	value_fmt_bytes(bs, h_bs, sizeof(h_bs));
	value_fmt_bytes(half, h_half, sizeof(h_half));
	if (over)
		snprintf(h_total, sizeof(h_total), "more than can be "
			 "addressed");
	else
		value_fmt_bytes(total, h_total, sizeof(h_total));
	err_set(e, j->plan.section_file, j->plan.section_line, "iodepth", "I/O "
		"buffers of iodepth=%" PRIu64 " x bs=%s x numjobs=%" PRIu64
		" = %s are more than half of this machine's memory (%s); "
		"expected a smaller iodepth, bs or numjobs", depth, h_bs,
		j->eng.numjobs, h_total, h_half);
	return -EINVAL;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * lockmem=: every clone of a wait group locks its bytes at once, with its
 * I/O buffers, from its setup to its end; locked pages cannot be
 * reclaimed, so more than the memory available makes the kernel kill
 * the run (the OOM killer: no report). The sum over each wait group's
 * clones against MemAvailable, before anything runs; named at the job
 * that locks the most. Not known (no /proc/meminfo): not checked.
 */
static int check_locked(const struct plan *p, struct err_rec *e)
{
	uint64_t avail = sysinfo_mem_available(), lock, bufs;
	char h_lock[32], h_job[32], h_bufs[32], h_avail[32], h_all[32];
	const struct job *big;
	unsigned wg, njobs;
	size_t i;

	for (wg = 0; avail && wg < p->nwait_groups; wg++) {
		lock = bufs = 0;
		njobs = 0;
		big = NULL;
		for (i = 0; i < p->njobs; i++) {
			const struct job *j = &p->jobs[i];
			uint64_t b;

			if (j->plan.wait_group != wg)
				continue;
			if (__builtin_mul_overflow(buf_bs(j), buf_depth(j),
						   &b))
				b = UINT64_MAX;
			lock = add_sat(lock, j->eng.lockmem);
			bufs = add_sat(bufs, b);
			if (j->eng.lockmem &&
			    (!big || j->eng.lockmem > big->eng.lockmem))
				big = j;
			njobs++;
		}
		if (!big || add_sat(lock, bufs) <= avail)
			continue;
		value_fmt_bytes(big->eng.lockmem, h_job, sizeof(h_job));
		value_fmt_bytes(lock, h_lock, sizeof(h_lock));
		value_fmt_bytes(bufs, h_bufs, sizeof(h_bufs));
		value_fmt_bytes(add_sat(lock, bufs), h_all, sizeof(h_all));
		value_fmt_bytes(avail, h_avail, sizeof(h_avail));
		err_set(e, big->plan.section_file, big->plan.section_line,
			"lockmem",
			"%s x numjobs=%" PRIu64 "%s = %s locked at once "
			"(plus %s of I/O buffers: %s in all) is more than "
			"the memory available (%s, MemAvailable): the kernel "
			"would kill the run; expected a smaller lockmem or "
			"numjobs",
			h_job, big->eng.numjobs, njobs > big->eng.numjobs ?
			" (with the other jobs of its wait group)" : "",
			h_lock, h_bufs, h_all, h_avail);
		return -EINVAL;
	}
	return 0;
}

/*
 * unlink_each_loop makes the files again between loops on the same fd:
 * an engine holding maps of the old files (mmap) would go on with the
 * deleted ones (io_uring's registered files: its check).
 */
static int check_unlink_loop(const struct job *j, struct err_rec *e)
{
	const struct engine_ops *eng = engine_find(j->eng.ioengine);

	if (!j->target.unlink_each_loop || j->time.time_based)
		return 0;
	if (eng && (eng->flags & ENGINE_MAPPED)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"unlink_each_loop", "ioengine=%s maps the files once; "
			"expected an engine that reads and writes the fd",
			j->eng.ioengine);
		return -EINVAL;
	}
	return 0;
}

/* A minimum above the cap could never be met (fio refuses it too). */
static int check_rate(const struct job *j, struct err_rec *e)
{
	static const char *const dir[DDIR_NR] = DDIR_NAMES;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (j->pace.rate[d] && j->pace.rate_min[d] > j->pace.rate[d]) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"rate_min", "%s minimum %" PRIu64 " bytes/s "
				"is above rate=%" PRIu64 "; expected at most "
				"the rate", dir[d], j->pace.rate_min[d],
				j->pace.rate[d]);
			return -EINVAL;
		}
		if (j->pace.rate_iops[d] &&
		    j->pace.rate_iops_min[d] > j->pace.rate_iops[d]) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"rate_iops_min", "%s minimum %" PRIu64
				" IOPS is above rate_iops=%" PRIu64 "; "
				"expected at most the rate", dir[d],
				j->pace.rate_iops_min[d], j->pace.rate_iops[d]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Names in filename= (':' separates them, "\\:" is one inside a name). */
static unsigned filename_count(const char *f)
{
	unsigned n = 1;

	for (; f && *f; f++) {
		if (*f == '\\' && f[1])
			f++;
		else if (*f == ':')
			n++;
	}
	return n;
}

/* The zone size of the zoned namespace whose generic char device path
 * names, which has no block device (zbd.h: zbd_probe_nvme), else dflt. */
static uint64_t ns_zone_unit(const char *path, uint64_t dflt)
{
	struct nvmedev_ident id;
	struct zbd_info zi;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return dflt;
	if (nvmedev_ident(fd, &id) ||
	    zbd_probe_nvme(fd, id.nsid, id.lbaf, id.lba_size, &zi))
		zi.model = ZBD_NONE;
	close(fd);
	return zi.model != ZBD_NONE && zi.zone_size ? zi.zone_size : dflt;
}

/*
 * The zone size a count of zones ("4z") is of, as fio 3.33 takes it: a
 * zoned block device's own under zonemode=zbd (the job's last file, as
 * fio's loop over the files leaves it), else zonesize= (emulated zones,
 * zonemode=strided); 0 when the job has no zones.
 */
static uint64_t zone_unit(const struct job *j)
{
	const char *f = j->target.filename, *last = f, *p;
	struct zbd_info zi;
	struct stat st;
	char path[4096], bdev[64];
	size_t n = 0;
	int r;

	if (j->io.zone_mode == ZONE_NONE)
		return 0;
	if (j->io.zone_mode != ZONE_ZBD || !f)
		return j->io.zonesize;
	for (p = f; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == ':')
			last = p + 1;
	}
	for (p = last; *p && n + 1 < sizeof(path); p++) {
		if (*p == '\\' && p[1] == ':')
			p++;
		path[n++] = *p;
	}
	path[n] = '\0';
	if (stat(path, &st))
		return j->io.zonesize;
	/* an NVMe generic char device: its namespace's zones, as its
	 * block device says them (zbdplan.c reads them there too), or as
	 * the namespace does when it has no block device */
	if (S_ISCHR(st.st_mode)) {
		r = nvmedev_chr_block(st.st_rdev, bdev, sizeof(bdev),
				      &st.st_rdev);
		if (r == -ENOENT)
			return ns_zone_unit(path, j->io.zonesize);
		if (r)
			return j->io.zonesize;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return j->io.zonesize;
	zbd_probe(st.st_rdev, &zi);
	return zi.model != ZBD_NONE && zi.zone_size ? zi.zone_size :
	       j->io.zonesize;
}

/*
 * Sizes given in zones (options.c's zone_count) into bytes, as fio 3.33
 * turns them once it knows the zone size. A job without zones has no
 * size to count them in: fio then drops the count without a word (the
 * whole file for size=4z), refused.
 */
static int resolve_zone_counts(struct job *j, struct err_rec *e)
{
	static const char *const names[ZN_COUNTS] = {
		[ZN_SIZE] = "size", [ZN_OFFSET] = "offset",
		[ZN_IO_SIZE] = "io_size", [ZN_ZONESKIP] = "zoneskip",
		[ZN_OFFINC] = "offset_increment",
	};
	uint64_t *dst[ZN_COUNTS] = {
		[ZN_SIZE] = &j->target.size, [ZN_OFFSET] = &j->target.offset,
		[ZN_IO_SIZE] = &j->target.io_size,
		[ZN_ZONESKIP] = &j->io.zoneskip,
		[ZN_OFFINC] = &j->target.offset_increment,
	};
	uint64_t zs = 0;
	unsigned i;
	bool any = false;

	for (i = 0; i < ZN_COUNTS; i++)
		any |= j->io.zones_nz[i] > 0;
	if (!any)
		return 0;
	zs = zone_unit(j);
	for (i = 0; i < ZN_COUNTS; i++) {
		if (!j->io.zones_nz[i])
			continue;
		if (!zs) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				names[i],
				"%" PRIu32 "z counts zones, and the job has "
				"none (fio drops the count without a word); "
				"expected zonemode=zbd on a zoned device, or "
				"zonesize=", j->io.zones_nz[i]);
			return -EINVAL;
		}
		*dst[i] = (uint64_t)j->io.zones_nz[i] * zs;
	}
	return 0;
}

/*
 * zonemode=zbd: what the target stage cannot see (zbdplan.c's target_plan_zbd
 * checks the device and each file's zones). Refused with the reason: what
 * fio refuses or aborts on.
 */
static int check_zbd(const struct job *j, struct err_rec *e)
{
	const char *file = j->plan.section_file, *opt = NULL, *why = NULL;
	int line = j->plan.section_line;

	if (j->vfy.verify != VERIFY_NONE && j->io.zrf > 0) {
		opt = "zone_reset_frequency";
		why = "with verify= no zone is reset while the job writes "
		      "(a reset loses what verify reads back; fio aborts on "
		      "it); expected zone_reset_frequency=0";
	} else if ((rw_dirs(j->io.rw) & (1u << DDIR_TRIM)) &&
		   !j->logs.read_iolog &&
		   (j->io.bs_min[DDIR_TRIM] != j->io.bs_max[DDIR_TRIM] ||
		    (j->io.bss && j->io.bss->n[DDIR_TRIM]))) {
		opt = j->io.bss && j->io.bss->n[DDIR_TRIM] ? "bssplit" :
			"bsrange";
		why = "a trim resets one whole zone, so its size is one "
		      "(fio refuses a range or split of trim sizes too); "
		      "expected one trim block size, the zone size";
	} else if (j->vfy.verify != VERIFY_NONE &&
		   (j->vfy.trim_percentage || j->vfy.trim_backlog)) {
		opt = j->vfy.trim_percentage ? "trim_percentage" :
			"trim_backlog";
		why = "verify's trims are of single blocks, and a trim on a "
		      "zone resets the whole zone (in fio 3.33 a trim not at "
		      "a zone's start fails, \"Trim offset not at zone "
		      "start\"); expected no trim_percentage or trim_backlog";
	}
	if (!opt)
		return 0;
	err_set(e, file, line, opt, "zonemode=zbd: %s", why);
	return -EINVAL;
}

/*
 * zonemode: strided when asked or when zonesize comes alone (fio's older
 * form); what fio refuses is refused, and so are zones fio would drop
 * without a word (several files) or could not fit an I/O in.
 */
static int check_zones(const struct job *j, struct err_rec *e)
{
	const char *file = j->plan.section_file;
	int line = j->plan.section_line;
	uint64_t bs = j->io.bs_max[0] > j->io.bs_max[1] ? j->io.bs_max[0] :
		      j->io.bs_max[1];
	uint64_t range = j->io.zonerange ? j->io.zonerange : j->io.zonesize;

	if (j->io.zone_mode == ZONE_ZBD)
		return check_zbd(j, e);
	if (j->io.zone_mode == ZONE_NONE && j->io.zonesize) {
		err_set(e, file, line, "zonesize", "zonemode=none has no "
			"zones; expected zonemode=strided, or no zonesize");
		return -EINVAL;
	}
	if (j->io.zone_mode == ZONE_STRIDED && !j->io.zonesize) {
		err_set(e, file, line, "zonemode", "strided needs zonesize= "
			"(the bytes of I/O in each zone)");
		return -EINVAL;
	}
	if (!j->io.zonesize)
		return 0;
	if (j->target.nrfiles > 1 || filename_count(j->target.filename) > 1) {
		err_set(e, file, line, "zonesize", "zones need one file per "
			"job (fio drops them without a word when a job has "
			"several); expected nrfiles=1 and one name in "
			"filename=");
		return -EINVAL;
	}
	if (range < bs) {
		err_set(e, file, line, j->io.zonerange ? "zonerange" :
			"zonesize", "a zone of %" PRIu64 " bytes cannot hold "
			"an I/O of %" PRIu64 "; expected at least the "
			"largest block size", range, bs);
		return -EINVAL;
	}
	return 0;
}

/* What the job's engine makes of the job (engine.h: plan). */
static int plan_engine(struct plan *p, struct job *j, struct err_rec *e)
{
	return j->eng.engine->plan ? j->eng.engine->plan(j, &p->warnings, e) :
		0;
}

/* log_unix_epoch's clock: one clock_gettime knows (fio would log
 * whatever its unset time held). */
static int check_logs(const struct job *j, struct err_rec *e)
{
	struct timespec ts;

	if ((j->logs.log_unix_epoch || j->logs.log_alternate_epoch) &&
	    clock_gettime((clockid_t)j->logs.log_alternate_epoch_clock_id,
			  &ts)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"log_alternate_epoch_clock_id", "%" PRIu64 ": %s: "
			"expected a clock of clock_gettime (0 CLOCK_REALTIME, "
			"1 CLOCK_MONOTONIC, 7 CLOCK_BOOTTIME, 11 CLOCK_TAI...)",
			j->logs.log_alternate_epoch_clock_id, strerror(errno));
		return -EINVAL;
	}
	/* fio's ranges of its in-memory log sizes (no effect here) */
	if (j->logs.log_entries < 1024 || j->logs.log_entries > 1048576) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"log_entries",
			"%" PRIu64 " is out of fio's range: expected 1024 to "
			"1048576 (1Mi)", j->logs.log_entries);
		return -EINVAL;
	}
	if (j->logs.log_compression && (j->logs.log_compression < 1024 ||
					j->logs.log_compression > 512u << 20)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"log_compression", "%" PRIu64 " is out of fio's "
			"range: expected 1024 to 536870912 (512Mi)",
			j->logs.log_compression);
		return -EINVAL;
	}
	return 0;
}

/* gtod_cpu=: a CPU of this machine, and not the only one the job has. */
static int check_gtod_cpu(const struct job *j, struct err_rec *e)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	if (j->cpu.gtod_cpu == UINT64_MAX)
		return 0;
	if (ncpu > 0 && j->cpu.gtod_cpu >= (uint64_t)ncpu) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"gtod_cpu",
			"CPU %" PRIu64 " does not exist (this machine has %ld)",
			j->cpu.gtod_cpu, ncpu);
		return -EINVAL;
	}
	if (j->cpu.cpus_allowed &&
	    cpuset_for_clone(&j->cpu.cpus, false, 0, (int)j->cpu.gtod_cpu,
			     &set)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"gtod_cpu",
			"CPU %" PRIu64 " is kept for fio's time thread, which "
			"leaves cpus_allowed=%s no CPU to run on", j->cpu.gtod_cpu,
			j->cpu.cpus_allowed);
		return -EINVAL;
	}
	return 0;
}

/*
 * The engine's check of its options against the job's, then that of each
 * other engine whose options j gives: they are read as that engine reads
 * them, and what it refuses is refused here too (hipri=1 without direct=1
 * on io_uring or pvsync2). An option that the job's own engine also
 * declares is that engine's alone: sg's hipri, io_uring_cmd's, are not
 * judged by io_uring's rule (their targets are char devices with no page
 * cache; fio 3.33 asks direct=1 of none of them).
 */
static int check_engines(const struct job *j, struct err_rec *e)
{
	const struct engine_ops *const *l;
	const struct opt_def *o;
	bool set;
	void *eo;
	int ret = 0;

	if (j->eng.engine->check &&
	    (ret = j->eng.engine->check(j, j->eng.eopts, e)))
		return ret;
	for (l = engine_list(); !ret && j->eng.neng_args && *l; l++) {
		if (*l == j->eng.engine || !(*l)->check ||
		    !(eo = options_engine_given(j, *l)))
			continue;
		for (set = false, o = (*l)->options; !set && o->name; o++)
			set = options_engine_is_set(j, *l, eo, o) &&
			      !options_find_in(j->eng.engine->options, o->name);
		if (set)
			ret = (*l)->check(j, eo, e);
		options_engine_free(*l, eo);
	}
	return ret;
}

static int check_job(const struct job *j, struct err_rec *e)
{
	const char *file = j->plan.section_file;
	char why[512];
	int line = j->plan.section_line;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (j->io.bs_max[d] > (1u << 30)) {
			err_set(e, file, line, "bs", "%" PRIu64 " is larger "
				"than the largest block size, 1GiB",
				j->io.bs_max[d]);
			return -EINVAL;
		}
	}
	if (check_buffers(j, e))
		return -EINVAL;
	if (cgroup_check(j, why, sizeof(why))) {
		err_set(e, file, line, "cgroup_weight", "%s", why);
		return -EINVAL;
	}
	for (d = 0; d < DDIR_NR; d++) {
		if (j->rnd.percentage_random[d] > 100) {
			err_set(e, file, line, "percentage_random", "%" PRIu64
				" is above 100", j->rnd.percentage_random[d]);
			return -EINVAL;
		}
	}
	if (check_rate(j, e) || check_zones(j, e) ||
	    check_unlink_loop(j, e) || check_logs(j, e) ||
	    jobexec_check(j, e) || check_gtod_cpu(j, e))
		return -EINVAL;
	if (check_engines(j, e))
		return -EINVAL;
	if (j->target.io_size &&
	    j->target.io_size < (j->io.bs_min[0] < j->io.bs_min[1] ?
				 j->io.bs_min[0] : j->io.bs_min[1])) {
		err_set(e, file, line, "io_size", "%" PRIu64 " is smaller "
			"than the block size", j->target.io_size);
		return -EINVAL;
	}
	return check_verify(j, e);
}

/* Add a warning once, "FILE:LINE: job 'NAME': ..." as errors say it. */
static void plan_warn(struct plan *p, const struct job *j, const char *code,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void plan_warn(struct plan *p, const struct job *j, const char *code,
		      const char *fmt, ...)
{
	char msg[ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn_add_job(&p->warnings, code, j->plan.section_file,
		     j->plan.section_line, j->desc.name, "%s", msg);
}

/* Kernel version as major * 1000 + minor; 0 when unknown. */
static unsigned kernel_version(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/* Option `name` has a value other than its default in j. */
/*
 * j's value of option name differs from the default's, both as
 * options_format writes them (the default "500" of bwavgtime is "500ms").
 */
static bool opt_is_set(const struct job *j, const char *name)
{
	const struct opt_def *o = options_find(name);
	char buf[64], def[64];
	struct err_rec *e;
	struct job *d;

	if (!o)
		return false;
	options_format(j, o, buf, sizeof(buf));
	snprintf(def, sizeof(def), "%s", o->def ? o->def : "");
	d = calloc(1, sizeof(*d));
	e = calloc(1, sizeof(*e));
	if (d && e && o->def && !options_set(d, o->name, o->def, "", 0, e))
		options_format(d, o, def, sizeof(def));
	if (d)
		job_free(d);
	free(d);
	free(e);
	return strcmp(buf, def) != 0;
}

/* Engine e's table is another engine's before it too (net, netsplice
 * share one): said once. */
static bool table_seen(const struct engine_ops *const *e)
{
	const struct engine_ops *const *f;

	for (f = engine_list(); f != e && (*f)->options != (*e)->options; f++)
		;
	return f != e;
}

/*
 * Options of another engine set for j: one warning per engine, naming
 * its options (not their parameters), as "a, b and c apply to ...".
 */
static void warn_engine_options(struct plan *p, const struct job *j)
{
	const struct engine_ops *const *e;
	const struct opt_def *o, *t;
	char names[256], code[48];
	unsigned cnt, k;
	bool set;
	size_t n;
	void *eo;

	for (e = engine_list(); *e; e++) {
		t = (*e)->options;
		if (*e == j->eng.engine || !t || table_seen(e) ||
		    !(eo = options_engine_given(j, *e)))
			continue;
		set = false;
		cnt = 0;
		for (o = t; o->name; o++)
			if (!(o->flags & OPT_F_PARAM)) {
				cnt++;
				/* hipri: io_uring's and pvsync2's */
				set = set || (options_engine_is_set(j, *e, eo,
								    o) &&
					      !options_find_in(j->eng.engine->options,
							       o->name));
			}
		options_engine_free(*e, eo);
		if (!set)
			continue;
		n = 0;
		k = 0;
		names[0] = '\0';
		for (o = t; o->name && n < sizeof(names); o++) {
			if (o->flags & OPT_F_PARAM)
				continue;
			k++;
			n += (size_t)snprintf(names + n, sizeof(names) - n,
					      "%s%s", k == 1 ? "" : k == cnt ?
					      " and " : ", ", o->name);
		}
		snprintf(code, sizeof(code), "%s_only", (*e)->name);
		/* engines sharing the table (net, netsplice) follow */
		plan_warn(p, j, code, "%s %s to the %s%s%s engine%s only",
			  names, cnt > 1 ? "apply" : "applies", (*e)->name,
			  e[1] && e[1]->options == t ? " and " : "",
			  e[1] && e[1]->options == t ? e[1]->name : "",
			  e[1] && e[1]->options == t ? "s" : "");
	}
}

/* thinktime_* without thinktime, or more spinning than thinking. */
static void warn_think(struct plan *p, const struct job *j)
{
	static const char *const opts[] = {
		"thinktime_spin", "thinktime_blocks", "thinktime_blocks_type",
		"thinktime_iotime", NULL,
	};
	const char *const *o;
	char spin[32], think[32];

	if (j->time.thinktime_ns &&
	    j->time.thinktime_spin_ns > j->time.thinktime_ns) {
		value_fmt_ns((double)j->time.thinktime_spin_ns, spin,
			     sizeof(spin));
		value_fmt_ns((double)j->time.thinktime_ns, think,
			     sizeof(think));
		plan_warn(p, j, "thinktime_spin_clamped", "thinktime_spin=%s "
			  "is more than thinktime=%s: each stall spins for "
			  "%s and does not sleep", spin, think, think);
	}
	for (o = opts; !j->time.thinktime_ns && *o; o++)
		if (opt_is_set(j, *o)) {
			plan_warn(p, j, "thinktime_unset", "%s has no effect "
				  "without thinktime", *o);
			return;
		}
}

/* Buffer contents (fill.h) that a job's other options set aside. */
static void warn_fill(struct plan *p, const struct job *j)
{
	static const char *const opts[] = {
		"zero_buffers", "buffer_pattern", "buffer_compress_percentage",
		"dedupe_percentage", "scramble_buffers", NULL,
	};
	const char *const *o;

	for (o = opts; j->vfy.verify != VERIFY_NONE && *o; o++)
		if (opt_is_set(j, *o)) {
			plan_warn(p, j, "buffers_verify", "%s has no effect "
				  "with verify=%s: each verified block is "
				  "written in iorig's own format (header, "
				  "generated data, checksum)", *o,
				  verify_kind_name(j->vfy.verify));
			break;
		}
	if (!j->buf.buffer_compress_percentage &&
	    opt_is_set(j, "buffer_compress_chunk"))
		plan_warn(p, j, "buffer_compress_chunk_unset",
			  "buffer_compress_chunk has no effect without "
			  "buffer_compress_percentage");
	if (j->buf.dedupe_global && (!j->buf.dedupe_percentage ||
				     j->buf.dedupe_mode != DEDUPE_WORKING_SET))
		plan_warn(p, j, "dedupe_global_unset", "dedupe_global has no "
			  "effect without dedupe_percentage and "
			  "dedupe_mode=working_set: as in fio, only a working "
			  "set is shared between jobs");
}

/* fio's log and error knobs that change less here than a user may
 * expect (iolog.h). */
static void warn_logs(struct plan *p, const struct job *j)
{
	if (j->logs.log_store_compressed && j->logs.write_hist_log)
		plan_warn(p, j, "hist_log_not_compressed", "log_store_"
			  "compressed: the histogram log is written as text "
			  "(.log): fio's compressed one holds pointers of its "
			  "memory, not the counts");
	if (j->logs.log_store_compressed && j->logs.log_window_value == 2)
		plan_warn(p, j, "fz_one_value", "log_store_compressed: a "
			  ".fz record has one value (fio's sample), the "
			  "window's mean: log_window_value=both writes its "
			  "maximum in text logs only");
	if (j->logs.log_compression_cpus)
		plan_warn(p, j, "log_compression_cpus_ignored",
			  "log_compression_cpus has no effect: iorig has no "
			  "log compression thread to place (its logs are "
			  "streamed to their files; log_store_compressed "
			  "deflates them in the job's own thread)");
	if (j->err.block_error_percentiles)
		plan_warn(p, j, "block_error_percentiles_ignored",
			  "block_error_percentiles has no effect: iorig keeps "
			  "no per-block trim state, and reports no histogram "
			  "of trims to error (errors are counted per "
			  "direction with the first one's errno and offset)");
}

/*
 * fio's meaning where a job file says less than it seems to: time_based
 * without a runtime is dropped (fio warns and runs to size), nrfiles is
 * ignored when filename= names the files.
 */
static void fio_meaning(struct plan *p, struct job *j)
{
	unsigned n;

	if (j->time.time_based && !j->time.runtime_ns) {
		j->time.time_based = false;
		plan_warn(p, j, "time_based_no_runtime", "time_based without "
			  "runtime= is ignored, as fio ignores it: the job "
			  "stops when its size is done");
	}
	/*
	 * A job that writes a bandwidth (IOPS) log with log_avg_msec takes
	 * the samples of its report's bw_min.. (iops_min..) every
	 * log_avg_msec when bwavgtime (iopsavgtime) is left at its default,
	 * as fio does: fio-plot's and kubestr's figures are those samples.
	 */
	if (j->logs.log_avg_msec && j->logs.write_bw_log &&
	    !opt_is_set(j, "bwavgtime"))
		j->report.bw_avg_ns = j->logs.log_avg_msec * 1000000;
	if (j->logs.log_avg_msec && j->logs.write_iops_log &&
	    !opt_is_set(j, "iopsavgtime"))
		j->report.iops_avg_ns = j->logs.log_avg_msec * 1000000;
	n = j->target.filename ? filename_count(j->target.filename) : 0;
	if (n && j->target.nrfiles != 1 && j->target.nrfiles != n)
		plan_warn(p, j, "nrfiles_ignored", "nrfiles=%" PRIu64 " is "
			  "ignored, as fio ignores it: filename= names the "
			  "files (%u)", j->target.nrfiles, n);
}

/* fio's options accepted here without their effect on fio's own
 * machinery (a time thread, a later fio's report field, a profile). */
static void warn_fio_machinery(struct plan *p, const struct job *j)
{
	if (j->cpu.gtod_cpu != UINT64_MAX)
		plan_warn(p, j, "gtod_cpu_no_thread", "gtod_cpu=%" PRIu64
			  ": iorig starts no time-keeping thread (each thread "
			  "reads the clock itself, without a system call); the "
			  "CPU is only taken out of cpus_allowed, as fio does",
			  j->cpu.gtod_cpu);
	if (opt_is_set(j, "job_start_clock_id"))
		plan_warn(p, j, "job_start_clock_id_ignored",
			  "job_start_clock_id has no effect: it picks the "
			  "clock of a later fio's JSON job_start, which no "
			  "report of iorig (nor fio 3.33's) has");
	if (j->desc.profile)
		plan_warn(p, j, "profile_ignored", "profile=%s has no effect, "
			  "as in fio 3.33: fio runs its built-in profiles only "
			  "from its --profile= command option (so does "
			  "iorig)", j->desc.profile);
}

/* Settings that run, but not the way a user may think. */
static void warn_job(struct plan *p, const struct job *j)
{
	const struct engine_ops *eng = j->eng.engine;
	/* Engine options set for the other points of an engine sweep. */
	bool swept = j->plan.sweep_point &&
		strstr(j->plan.sweep_point, "ioengine=");
	char code[48];
	unsigned kv;

	/* Codes name the engine: libaio_buffered, io_uring_only, ... */
	if (eng && (eng->flags & ENGINE_ASYNC_NEEDS_DIRECT) &&
	    !j->cache.direct) {
		snprintf(code, sizeof(code), "%s_buffered", eng->name);
		plan_warn(p, j, code, "%s without direct=1 blocks in %s: the "
			  "I/O is synchronous and iodepth has no effect",
			  eng->name, eng->submit_call);
	}
	if (eng && (eng->flags & ENGINE_SYNC) && j->eng.iodepth > 1)
		plan_warn(p, j, "iodepth_ignored", "iodepth=%" PRIu64 " has "
			  "no effect with the %s engine: it does one I/O at a "
			  "time", j->eng.iodepth, eng->name);
	if (!swept)
		warn_engine_options(p, j);
	warn_think(p, j);
	warn_fill(p, j);
	warn_logs(p, j);
	warn_fio_machinery(p, j);
	if (j->cache.write_barrier)
		plan_warn(p, j, "write_barrier_ignored", "write_barrier has "
			  "no effect: fio marks barrier writes only for its "
			  "libpmem and sg engines, which iorig has not");
	if (j->vfy.trim_percentage && (j->vfy.verify == VERIFY_NONE ||
				       !j->vfy.trim_backlog ||
				       !j->vfy.do_verify ||
				       j->vfy.verify_only || verify_reader(j)))
		plan_warn(p, j, "trim_unset", "trim_percentage trims only "
			  "blocks a verifying job writes, every trim_backlog "
			  "of them (fio's meaning): with %s, nothing is "
			  "trimmed", j->vfy.verify == VERIFY_NONE ? "no verify" :
			  !j->vfy.trim_backlog ? "no trim_backlog" :
			  j->vfy.verify_only ? "verify_only" :
			  verify_reader(j) ? "a job that only reads" :
			  "do_verify=0");
	if (j->vfy.verify != VERIFY_NONE &&
	    (j->vfy.verify_async || opt_is_set(j, "verify_async_cpus")))
		plan_warn(p, j, "verify_async_inline", "verify_async: iorig "
			  "checks blocks in the job's own thread, not in %"
			  PRIu64 " more (the same checks; their time is in "
			  "the job's verify runtime, not beside it)",
			  j->vfy.verify_async ? j->vfy.verify_async : 1);
	if (!j->io.zonesize && j->io.zone_mode != ZONE_ZBD &&
	    (j->io.zonerange || j->io.zoneskip))
		plan_warn(p, j, "zones_unset", "%s has no effect without "
			  "zonesize", j->io.zonerange ? "zonerange" : "zoneskip");
	if (j->vfy.verifysort || j->vfy.verifysort_nr || j->pace.flow_watermark)
		plan_warn(p, j, "fio_deprecated", "%s is deprecated in fio, "
			  "which accepts it and does nothing with it: no "
			  "effect here either", j->vfy.verifysort ? "verifysort" :
			  j->vfy.verifysort_nr ? "verifysort_nr" :
			  "flow_watermark");
	if (j->vfy.experimental_verify && j->vfy.verify != VERIFY_NONE)
		plan_warn(p, j, "experimental_verify", "experimental_verify: "
			  "fio finds the blocks to check by replaying its "
			  "writes instead of recording them; iorig records "
			  "them (verify_state) and checks the same blocks: no "
			  "effect");
	kv = kernel_version();
	if (j->cache.fadvise_hint == FADV_NOREUSE && kv && kv < 6003)
		plan_warn(p, j, "fadvise_noreuse", "POSIX_FADV_NOREUSE does "
			  "nothing before Linux 6.3; this kernel is %u.%u",
			  kv / 1000, kv % 1000);
}

/* Capacity of p->jobs for n jobs: doubling, so that a run of many small
 * jobs costs linear copying, not quadratic (fuzzing found 4096 sections
 * taking seconds under AddressSanitizer). */
static size_t jobs_cap(size_t n)
{
	size_t cap = 8;

	while (cap < n)
		cap *= 2;
	return cap;
}

static int add_clones(struct plan *p, const struct job *proto,
		      struct err_rec *e)
{
	struct job *jobs;
	size_t need = p->njobs + proto->eng.numjobs, i;

	if (need > PLAN_MAX_JOBS) {
		err_set(e, proto->plan.section_file, proto->plan.section_line,
			"numjobs", "the run would have %zu jobs; at most %d "
			"are allowed", need, PLAN_MAX_JOBS);
		return -EINVAL;
	}
	warn_job(p, proto);
	/* p->jobs holds at least jobs_cap(p->njobs) jobs once allocated. */
	if (!p->jobs || jobs_cap(need) > jobs_cap(p->njobs)) {
		jobs = realloc(p->jobs, jobs_cap(need) * sizeof(*jobs));
		if (!jobs)
			return -ENOMEM;
		p->jobs = jobs;
	}
	for (i = 0; i < proto->eng.numjobs; i++) {
		if (job_copy(&p->jobs[p->njobs], proto))
			return -ENOMEM;
		p->jobs[p->njobs].plan.clone = (unsigned)i;
		p->njobs++;
	}
	return 0;
}

/* Groups: stonewall waits for all earlier jobs and starts a new reporting
 * group; new_group only starts a new reporting group. */
static void assign_group(struct plan *p, struct job *j, size_t before)
{
	if (before && (j->order.stonewall || j->order.new_group))
		p->ngroups++;
	if (before && j->order.stonewall)
		p->nwait_groups++;
	if (!before) {
		p->ngroups = 1;
		p->nwait_groups = 1;
	}
	j->plan.group = p->ngroups - 1;
	j->plan.wait_group = p->nwait_groups - 1;
}

/* One dimension of a sweep: "OPT:v1,v2,..." split in place. */
struct sweep_dim {
	char *name;
	char *vals[PLAN_MAX_JOBS];
	size_t nvals;
};

#define PLAN_MAX_SWEEP_DIMS	8

static int sweep_split(char *spec, struct sweep_dim *dims, size_t *ndims,
		       const struct job *j, struct err_rec *e)
{
	char *dim, *val, *save1 = NULL, *save2 = NULL;
	struct sweep_dim *d;

	*ndims = 0;
	for (dim = strtok_r(spec, ";", &save1); dim;
	     dim = strtok_r(NULL, ";", &save1)) {
		if (*ndims == PLAN_MAX_SWEEP_DIMS) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"sweep", "at most %d sweeps in a job",
				PLAN_MAX_SWEEP_DIMS);
			return -EINVAL;
		}
		d = &dims[(*ndims)++];
		d->name = dim;
		d->nvals = 0;
		val = strchr(dim, ':');
		*val++ = '\0';
		for (val = strtok_r(val, ",", &save2); val;
		     val = strtok_r(NULL, ",", &save2)) {
			if (d->nvals == PLAN_MAX_JOBS) {
				err_set(e, j->plan.section_file,
					j->plan.section_line,
					"sweep", "too many values for %s",
					d->name);
				return -EINVAL;
			}
			d->vals[d->nvals++] = val;
		}
	}
	return 0;
}

/*
 * repeat=N: N copies of j one after the other, each with its clones. The
 * runs of a repeated job and the job after them run alone (stonewalled),
 * so that every run measures the same thing; the runs share one reporting
 * group.
 */
static int add_runs(struct plan *p, struct job *j, struct err_rec *e)
{
	uint64_t r, need = p->njobs + j->runs.repeat * j->eng.numjobs;
	int ret = 0;

	if (j->runs.repeat > 1 && need > PLAN_MAX_JOBS) {
		err_set(e, j->plan.section_file, j->plan.section_line, "repeat",
			"the "
			"run would have %" PRIu64 " jobs (runs times numjobs); "
			"at most %d are allowed", need, PLAN_MAX_JOBS);
		return -EINVAL;
	}
	if (j->runs.repeat > 1 ||
	    (p->njobs && p->jobs[p->njobs - 1].runs.repeat > 1))
		j->order.stonewall = true;
	fio_meaning(p, j);
	for (r = 0; r < j->runs.repeat && !ret; r++) {
		j->plan.repeat_idx = (unsigned)r;
		if (!r) {
			assign_group(p, j, p->njobs);
		} else {
			/* A later run waits for the one before; it is
			 * reported with it, as one unit of one group. */
			j->plan.wait_group = p->nwait_groups++;
		}
		ret = add_clones(p, j, e);
	}
	j->plan.repeat_idx = 0;
	return ret;
}

/* A copy of j, stonewalled, labelled "[SWEEP ]curve=WHAT", as point k. */
static int curve_copy(struct job *pt, const struct job *j, unsigned k,
		      size_t probe, const char *what)
{
	int ret = job_copy(pt, j);

	if (ret)
		return ret;
	free(pt->plan.sweep_point);
	pt->plan.sweep_point = NULL;
	if (asprintf(&pt->plan.sweep_point, "%s%scurve=%s",
		     j->plan.sweep_point ?
		     j->plan.sweep_point : "", j->plan.sweep_point ? " " : "",
		     what) < 0) {
		pt->plan.sweep_point = NULL;
		job_free(pt);
		return -ENOMEM;
	}
	pt->order.stonewall = true;
	pt->plan.curve_point = k;
	pt->plan.curve_probe = probe;
	return 0;
}

/*
 * rate_curve: a probe run without a rate (for rate_curve_probe when set),
 * then one run per percent, each stonewalled; the run sets the points'
 * rates from the probe (src/result/curve.c). Without rate_curve: the
 * job's runs.
 */
static int add_curve(struct plan *p, struct job *j, struct err_rec *e)
{
	const char *bad = j->runs.repeat > 1 ? "repeat" :
			  j->pace.rate[0] || j->pace.rate[1] ? "rate" :
			  j->pace.rate_iops[0] || j->pace.rate_iops[1] ?
			  "rate_iops" : NULL;
	size_t probe = p->njobs;
	char *list, *pct, *save = NULL, what[64];
	unsigned k = 1;
	struct job pt;
	int ret;

	if (!j->pace.rate_curve)
		return add_runs(p, j, e);
	if (bad) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"rate_curve",
			"cannot be combined with %s=: the curve sets the rate "
			"of each point itself%s", bad, j->runs.repeat > 1 ? ", and "
			"its points are its runs" : "");
		return -EINVAL;
	}
	ret = curve_copy(&pt, j, k, probe, "probe");
	if (ret)
		return ret;
	if (j->pace.rate_curve_probe_ns)
		pt.time.runtime_ns = j->pace.rate_curve_probe_ns;
	ret = add_runs(p, &pt, e);
	job_free(&pt);
	list = strdup(j->pace.rate_curve);
	if (!list)
		return -ENOMEM;
	for (pct = strtok_r(list, ",", &save); pct && !ret;
	     pct = strtok_r(NULL, ",", &save)) {
		snprintf(what, sizeof(what), "%s%%", pct);
		ret = curve_copy(&pt, j, ++k, probe, what);
		if (ret)
			break;
		pt.plan.curve_pct = strtod(pct, NULL);
		ret = add_runs(p, &pt, e);
		job_free(&pt);
	}
	free(list);
	return ret;
}

/* Point idx[] of the sweep: a stonewalled copy of proto with its values. */
static int sweep_point(struct plan *p, const struct job *proto,
		       const struct sweep_dim *dims, size_t ndims,
		       const size_t *idx, struct err_rec *e)
{
	struct job pt;
	char label[512];
	size_t k, n = 0;
	int ret;

	ret = job_copy(&pt, proto);
	if (ret)
		return ret;
	free(pt.runs.sweep);
	pt.runs.sweep = NULL;
	label[0] = '\0';
	for (k = 0; k < ndims && !ret; k++) {
		ret = options_set(&pt, dims[k].name, dims[k].vals[idx[k]],
				  proto->plan.section_file,
				  proto->plan.section_line, e);
		if (n < sizeof(label))
			n += snprintf(label + n, sizeof(label) - n, "%s%s=%s",
				      k ? " " : "", dims[k].name,
				      dims[k].vals[idx[k]]);
	}
	if (!ret && !(pt.plan.sweep_point = strdup(label)))
		ret = -ENOMEM;
	if (!ret)
		ret = plan_engine(p, &pt, e);
	if (!ret)
		ret = replay_plan(&pt, e);
	if (!ret)
		ret = check_job(&pt, e);
	if (!ret) {
		pt.order.stonewall = true;
		pt.eng.engine = engine_find(pt.eng.ioengine);
		pt.eng.engine_deletes = pt.eng.engine &&
			(pt.eng.engine->flags & ENGINE_DELETES);
		pt.eng.engine_nvme_chr = pt.eng.engine &&
			(pt.eng.engine->flags & ENGINE_NVME_CHAR);
		pt.eng.engine_scsi = pt.eng.engine &&
			(pt.eng.engine->flags & ENGINE_SCSI);
		pt.eng.engine_changes_files = pt.eng.engine &&
			(pt.eng.engine->flags & ENGINE_CHANGES_FILES);
		ret = add_curve(p, &pt, e);
	}
	job_free(&pt);
	return ret;
}

/* Expand j's sweeps: the cartesian product, last dimension fastest. */
static int add_sweep(struct plan *p, const struct job *j, struct err_rec *e)
{
	struct sweep_dim *dims;
	size_t ndims, idx[PLAN_MAX_SWEEP_DIMS] = { 0 }, k, points = 1;
	char *spec = strdup(j->runs.sweep);
	int ret = -ENOMEM;

	dims = calloc(PLAN_MAX_SWEEP_DIMS, sizeof(*dims));
	if (!spec || !dims)
		goto out;
	ret = sweep_split(spec, dims, &ndims, j, e);
	for (k = 0; !ret && k < ndims; k++) {
		points *= dims[k].nvals;
		if (points > PLAN_MAX_JOBS) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"sweep", "more than %d points", PLAN_MAX_JOBS);
			ret = -EINVAL;
		}
	}
	while (!ret) {
		ret = sweep_point(p, j, dims, ndims, idx, e);
		for (k = ndims; k-- > 0;) {
			if (++idx[k] < dims[k].nvals)
				break;
			idx[k] = 0;
		}
		if (k == (size_t)-1)
			break;
	}
out:
	free(dims);
	free(spec);
	return ret;
}

/* A cross-option error names the line that set the option, when one did. */
static void blame_option(const struct raw_opt *const *opts, size_t n,
			 struct err_rec *e)
{
	const struct opt_def *o = options_find(e->option);
	size_t i = n;

	while (o && i-- > 0) {
		if (options_find(opts[i]->name) == o) {
			snprintf(e->file, sizeof(e->file), "%s", opts[i]->file);
			e->line = opts[i]->line;
			return;
		}
	}
}

/*
 * Where each check= of j came from (job.runs.check_src), for the reports and
 * for check.c, which treats a job's own checks and inherited ones apart.
 */
static int note_checks(struct job *j, const struct raw_opt *const *opts,
		       size_t n, const struct raw_section *sec)
{
	const struct opt_def *check = options_find("check");
	char *src = NULL, *more;
	size_t i;
	bool own;

	for (i = 0; i < n; i++) {
		if (options_find(opts[i]->name) != check)
			continue;
		own = opts[i] >= sec->opts && opts[i] < sec->opts + sec->nopts;
		if (asprintf(&more, "%s%s%c%s:%d", src ? src : "",
			     src ? "\n" : "", own ? 'j' : 'g', opts[i]->file,
			     opts[i]->line) < 0) {
			free(src);
			return -ENOMEM;
		}
		free(src);
		src = more;
	}
	free(j->runs.check_src);
	j->runs.check_src = src;
	return 0;
}

/*
 * bssplit= overrides bs= whichever comes first (fio's meaning): the job's
 * bs_min and bs_max become the smallest and largest sizes of the split.
 */
static void apply_bssplit(struct job *j)
{
	const struct bssplit_spec *b = j->io.bss;
	unsigned d, i;

	for (d = 0; b && d < DDIR_NR; d++) {
		if (!b->n[d])
			continue;
		j->io.bs_min[d] = UINT64_MAX;
		j->io.bs_max[d] = 0;
		for (i = 0; i < b->n[d]; i++) {
			if (b->e[d][i].bs < j->io.bs_min[d])
				j->io.bs_min[d] = b->e[d][i].bs;
			if (b->e[d][i].bs > j->io.bs_max[d])
				j->io.bs_max[d] = b->e[d][i].bs;
		}
	}
}

/*
 * bs_is_seq_rand=1 (fio's meaning): bs=A,B gives sequential I/Os A and
 * random ones B, whatever their direction. A job whose I/Os are all one or
 * the other takes that size for every direction (nothing per I/O); one
 * that mixes them (percentage_random between 0 and 100, rw=randread:N) is
 * refused, not supported yet.
 */
static int apply_bs_is_seq_rand(struct job *j, struct err_rec *e)
{
	bool rnd = rw_random(j->io.rw), some = false, all = true;
	unsigned d, src;

	if (!j->io.bs_is_seq_rand)
		return 0;
	for (d = 0; rnd && d < DDIR_NR; d++) {
		if (!(rw_dirs(j->io.rw) >> d & 1))
			continue;
		some |= j->rnd.percentage_random[d] > 0;
		all &= j->rnd.percentage_random[d] >= 100;
	}
	if (rnd && (some != all || j->io.rw_seq_nr > 1 || j->io.bssplit)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"bs_is_seq_rand",
			"a job that mixes sequential and random I/Os (%s) or "
			"uses bssplit: not supported yet; expected "
			"percentage_random 0 or 100 and no rw=...:N",
			j->io.bssplit ? "bssplit" : j->io.rw_seq_nr > 1 ?
			"rw=...:N" : "percentage_random");
		return -EINVAL;
	}
	src = rnd && all ? DDIR_WRITE : DDIR_READ;
	for (d = 0; d < DDIR_NR; d++) {
		j->io.bs_min[d] = j->io.bs_min[src];
		j->io.bs_max[d] = j->io.bs_max[src];
	}
	return 0;
}

/* opts_only: earlier errors left the input incomplete; read each option,
 * but check no combination (it could be an option that was dropped). */
static int build_job(struct plan *p, const struct raw_doc *doc, size_t si,
		     const struct raw_opt **opts, bool opts_only,
		     struct err_rec *e)
{
	const struct raw_section *sec = &doc->secs[si];
	struct job j;
	size_t n = 0, k, o;
	int ret;

	for (k = 0; k <= si; k++) {
		if (k < si && !doc->secs[k].is_global)
			continue;
		for (o = 0; o < doc->secs[k].nopts; o++)
			opts[n++] = &doc->secs[k].opts[o];
	}
	ret = options_defaults(&j);
	if (ret)
		goto out;
	j.plan.section_file = strdup(sec->file);
	j.plan.section_line = sec->line;
	j.desc.name = strdup(sec->name);
	j.plan.section_name = strdup(sec->name);
	if (!j.plan.section_file || !j.desc.name || !j.plan.section_name) {
		ret = -ENOMEM;
		goto out;
	}
	ret = apply_opts(&j, opts, n, e);
	if (!ret && opts_only)
		goto out;
	if (!ret) {
		ret = resolve_zone_counts(&j, e);
		if (ret)
			blame_option(opts, n, e);
	}
	if (!ret)
		apply_bssplit(&j);
	if (!ret)
		ret = apply_bs_is_seq_rand(&j, e);
	if (!ret)
		ret = opendir_expand(&j, e);
	if (!ret)
		ret = note_checks(&j, opts, n, sec);
	if (!ret) {
		ret = plan_engine(p, &j, e);
		if (!ret)
			ret = replay_plan(&j, e);
		if (!ret)
			ret = check_job(&j, e);
		if (ret)
			blame_option(opts, n, e);
	}
	if (ret)
		goto out;
	j.eng.engine = engine_find(j.eng.ioengine);
	j.eng.engine_deletes = j.eng.engine &&
		(j.eng.engine->flags & ENGINE_DELETES);
	j.eng.engine_nvme_chr = j.eng.engine &&
		(j.eng.engine->flags & ENGINE_NVME_CHAR);
	j.eng.engine_scsi = j.eng.engine && (j.eng.engine->flags & ENGINE_SCSI);
	j.eng.engine_changes_files = j.eng.engine &&
		(j.eng.engine->flags & ENGINE_CHANGES_FILES);
	if (j.runs.sweep) {
		ret = add_sweep(p, &j, e);
		goto out;
	}
	ret = add_curve(p, &j, e);
out:
	if (ret == -ENOMEM)
		err_set(e, sec->file, sec->line, "", "out of memory");
	job_free(&j);
	return ret;
}

/* The steady-state settings of two jobs are the same (none, or the
 * same criterion, window, ramp and interval). */
static bool same_steady(const struct job *a, const struct job *b)
{
	bool on_a = a->ss.ss_dur_ns && a->ss.steadystate,
	     on_b = b->ss.ss_dur_ns && b->ss.steadystate;

	if (!on_a || !on_b)
		return on_a == on_b;
	return a->ss.ss_crit.kind == b->ss.ss_crit.kind &&
	       a->ss.ss_crit.limit == b->ss.ss_crit.limit &&
	       a->ss.ss_crit.pct == b->ss.ss_crit.pct &&
	       a->ss.ss_dur_ns == b->ss.ss_dur_ns &&
	       a->ss.ss_ramp_ns == b->ss.ss_ramp_ns &&
	       a->ss.ss_interval_ns == b->ss.ss_interval_ns;
}

/*
 * group_reporting judges a reporting group's steady state on all its
 * jobs together (steady.h): they must agree on it, as fio requires.
 */
static int check_steady_group(const struct plan *p, size_t i,
			      struct err_rec *e)
{
	const struct job *j = &p->jobs[i], *o;
	size_t k;

	for (k = 0; k < i && j->report.group_reporting; k++) {
		o = &p->jobs[k];
		if (!o->report.group_reporting ||
		    o->plan.group != j->plan.group ||
		    o->plan.wait_group != j->plan.wait_group ||
		    same_steady(j, o))
			continue;
		err_set(e, j->plan.section_file, j->plan.section_line,
			"steadystate", "job '%s' and job '%s' report together "
			"(group_reporting) but differ in steadystate, ss_dur, "
			"ss_ramp or ss_interval: the group is judged as one, "
			"so they must agree (fio refuses it too)", o->desc.name,
			j->desc.name);
		return -EINVAL;
	}
	return 0;
}

/*
 * wait_for cycles: job i waits for every job named its wait_for. A job
 * of a cycle waits, through the others, for its own end, and none of
 * them would ever start. Depth-first from job i; path[0..depth) is the
 * chain being followed, st[] 0: not seen, 1: on the chain, 2: done
 * (no cycle through it). Returns the index in path where a cycle starts
 * (path[depth] is then the job closing it), or -1.
 */
static long wait_cycle(const struct plan *p, size_t i, unsigned char *st,
		       size_t *path, size_t depth)
{
	const struct job *j = &p->jobs[i];
	size_t k, d;
	long c;

	st[i] = 1;
	path[depth] = i;
	for (k = 0; j->order.wait_for && k < p->njobs; k++) {
		if (k == i || strcmp(p->jobs[k].desc.name, j->order.wait_for))
			continue;
		if (st[k] == 1) {
			for (d = 0; path[d] != k; d++)
				;
			path[depth + 1] = k;
			return (long)d;
		}
		if (!st[k] && (c = wait_cycle(p, k, st, path, depth + 1)) >= 0)
			return c;
	}
	st[i] = 2;
	return -1;
}

/* Refuses a wait_for cycle, naming its jobs in order (a -> b -> a). */
static int check_wait_cycles(const struct plan *p, struct err_rec *e)
{
	unsigned char *st = calloc(p->njobs, 1);
	size_t *path = calloc(p->njobs + 1, sizeof(*path));
	char names[512];
	size_t i, d, n, end = 0;
	long c = -1;

	if (!st || !path) {
		free(st);
		free(path);
		err_set(e, "", 0, "", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; c < 0 && i < p->njobs; i++) {
		/* clones share their name and wait_for: one walk does */
		if (!st[i] && i && st[i - 1] == 2 &&
		    p->jobs[i].order.wait_for &&
		    p->jobs[i - 1].order.wait_for &&
		    !strcmp(p->jobs[i].desc.name, p->jobs[i - 1].desc.name) &&
		    !strcmp(p->jobs[i].order.wait_for,
			    p->jobs[i - 1].order.wait_for))
			st[i] = 2;
		if (!st[i] && p->jobs[i].order.wait_for)
			c = wait_cycle(p, i, st, path, 0);
	}
	if (c >= 0) {
		for (end = (size_t)c + 1; path[end] != path[c]; end++)
			;
		names[0] = '\0';
		for (d = (size_t)c; d <= end; d++) {
			n = strlen(names);
			snprintf(names + n, sizeof(names) - n, "%s%s",
				 d > (size_t)c ? " -> " : "",
				 p->jobs[path[d]].desc.name);
		}
		i = path[c];
		err_set(e, p->jobs[i].plan.section_file,
			p->jobs[i].plan.section_line,
			"wait_for", "the jobs wait for each other in a cycle "
			"(%s): none of them would ever start; expected a job "
			"that waits for no job of its own chain", names);
	}
	free(st);
	free(path);
	return c >= 0 ? -EINVAL : 0;
}

/*
 * wait_for=NAME names another job that runs before or with this one (one
 * that --section left out runs not at all: nothing to wait for), and no
 * job waits, through others, for itself; a steady-state window holds at
 * least one sample, and a reporting group judged together agrees on it.
 */
static int check_runctl(const struct plan *p, bool filtered,
			struct err_rec *e)
{
	const struct job *j, *o;
	bool found, later;
	size_t i, k;

	for (i = 0; i < p->njobs; i++) {
		j = &p->jobs[i];
		if (j->ss.ss_dur_ns && j->ss.ss_dur_ns < j->ss.ss_interval_ns) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"ss_dur",
				"the steady-state window must hold at least "
				"one ss_interval");
			return -EINVAL;
		}
		if (check_steady_group(p, i, e))
			return -EINVAL;
		if (!j->order.wait_for)
			continue;
		found = later = false;
		for (k = 0; k < p->njobs; k++) {
			o = &p->jobs[k];
			if (k == i || strcmp(o->desc.name, j->order.wait_for))
				continue;
			found = true;
			later = later ||
				o->plan.wait_group > j->plan.wait_group;
		}
		if (!strcmp(j->order.wait_for, j->desc.name) ||
		    (!found && !filtered) || later) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"wait_for", "'%s': expected the name of "
				"another job that starts before this one or "
				"with it", j->order.wait_for);
			return -EINVAL;
		}
	}
	return check_wait_cycles(p, e);
}

/*
 * dedupe_global: the jobs whose deduplicated writes copy from one working
 * set spread over all of them (fill.h): those that set it and make such
 * writes (dedupe_mode=working_set, dedupe_percentage, writes of their
 * own bytes), numbered in plan order.
 */
static void number_dedupe_global(struct plan *p)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];

		if (j->buf.dedupe_global && j->buf.dedupe_percentage &&
		    j->buf.dedupe_mode == DEDUPE_WORKING_SET &&
		    (rw_dirs(j->io.rw) & (1u << DDIR_WRITE)) && !j->vfy.verify)
			j->plan.dedupe_gidx = n++;
	}
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].buf.dedupe_global)
			p->jobs[i].plan.dedupe_gn = n;
}

int plan_build(struct plan *p, const struct raw_doc *doc,
	       const struct plan_filter *f, struct err_rec *e)
{
	const struct raw_opt **opts;
	size_t si, total = 0, before = err_count(e);
	bool failed = false, globals;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	warn_init(&p->warnings, NULL);
	for (si = 0; si < doc->nsecs; si++)
		total += doc->secs[si].nopts;
	opts = calloc(total + 1, sizeof(*opts));
	if (!opts)
		return -ENOMEM;
	for (si = 0; si < doc->nsecs && !ret; si++) {
		if (doc->secs[si].is_global ||
		    !selected(f, doc->secs[si].name))
			continue;
		ret = build_job(p, doc, si, opts, before > 0, e);
		/* Go on to the next job when errors are collected. */
		if (ret == -EINVAL && err_keep(e)) {
			failed = true;
			ret = 0;
		}
	}
	if (!ret && (failed || before))
		ret = -EINVAL;	/* e: the last error found */
	/* No job section: the last [global] with those before it holds
	 * every option, checked as a job's (nothing at all: no jobs) */
	globals = !ret && !p->njobs && f && f->globals_ok && !f->sections &&
		  doc->nsecs;
	if (globals)
		ret = build_job(p, doc, doc->nsecs - 1, opts, true, e);
	free(opts);
	if (!ret && !p->njobs && !globals) {
		err_set(e, "", 0, "", f && f->sections ? "no job matches "
			"--section" : "no jobs: give a job file or --name=NAME "
			"with options");
		ret = -EINVAL;
	}
	if (!ret)
		ret = check_runctl(p, f && f->sections, e);
	if (!ret)
		ret = check_locked(p, e);
	if (!ret)
		number_dedupe_global(p);
	if (ret)
		plan_free(p);
	return ret;
}

void plan_free(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->njobs; i++)
		job_free(&p->jobs[i]);
	free(p->jobs);
	warn_exit(&p->warnings);
	memset(p, 0, sizeof(*p));
}
