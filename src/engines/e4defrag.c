// SPDX-License-Identifier: MIT
/*
 * e4defrag: each request is one EXT4_IOC_MOVE_EXT ioctl, as fio's e4defrag
 * engine: the blocks of the request's range of the job's file are
 * exchanged with those of the same range of a donor file, the data copied
 * so that the file reads the same; ext4 gives the file the donor's blocks
 * (allocated in one go, so usually contiguous) and the donor the file's
 * old ones. Only writes mean anything (fio fails the rest with EINVAL;
 * its plan refuses them). A request moves whole file system blocks
 * (st_blksize of the donor): the range rounded out to blocks; res is the
 * bytes the kernel reports moved, at most the request's length; nothing
 * moved without an error is EINVAL (beyond the file's end), as fio.
 *
 * The donor is directory/donorname (fio's join). inplace=0: it is
 * allocated over the job's region (fallocate) when the job starts;
 * inplace=1: each request allocates its range and truncates the donor to
 * 0 after the move. Differences from fio, for safety: the donor must not
 * exist (fio opens an existing one and overwrites its blocks; iorig
 * creates it with O_EXCL), clones and jobs that run together and name the
 * same donor share the one this run created, and the last one to finish
 * removes it (fio leaves it behind). inplace=0 allocates the job's region
 * whether or not filesize= is set (fio allocates from offset= to the
 * largest filesize=, and fails with EINVAL without one).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clock.h"
#include "door.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"
#include "path.h"
#include "sysinfo.h"
#include "target.h"

/* The kernel's ABI (fs/ext4/ext4.h): no user-space header declares it. */
struct e4d_move {
	uint32_t reserved;	/* 0 */
	uint32_t donor_fd;
	uint64_t orig_start;	/* in file system blocks */
	uint64_t donor_start;
	uint64_t len;		/* blocks to move */
	uint64_t moved_len;	/* out: blocks moved */
};

#define E4D_IOC_MOVE_EXT _IOWR('f', 15, struct e4d_move)

struct e4d_opts {
	char *donorname;	/* in directory; NULL: none (refused) */
	bool inplace;		/* donor allocated per I/O, freed */
};

static const struct opt_def e4d_options[] = {
	{ .name = "donorname", .type = OPT_STR,
	  .off = offsetof(struct e4d_opts, donorname), .category = "engine",
	  .help = "e4defrag: the donor file (in directory=) the job's blocks "
		  "are moved to; needed; must not exist (made and removed "
		  "by the run)" },
	{ .name = "inplace", .type = OPT_BOOL,
	  .off = offsetof(struct e4d_opts, inplace), .def = "0",
	  .category = "engine",
	  .help = "e4defrag: 1: the donor's blocks allocated for each I/O "
		  "and freed after it; 0: over the region at the start" },
	{ .name = NULL },
};

extern const struct engine_ops engine_e4defrag;

/* A donor this run created, shared by the engines that name it. */
struct e4d_donor {
	char *path;
	int fd;
	unsigned refs;
	struct door_made made;	/* removed through the door (door.h) */
	uint64_t bsz;
	struct e4d_donor *next;
};

static pthread_mutex_t donors_lock = PTHREAD_MUTEX_INITIALIZER;
static struct e4d_donor *donors;

struct e4d {
	struct e4d_donor *d;
	bool inplace;
};

/* fio's name of the donor: directory and donorname joined with '/'. */
static char *donor_path(const char *dir, const char *name)
{
	char *p;

	if (dir && *dir ? asprintf(&p, "%s/%s", dir, name) < 0 :
	    !(p = strdup(name)))
		return NULL;
	return p;
}

/* The donor named path: the one this run made, or made now (O_EXCL,
 * through the door). */
static int donor_get(const char *path, const struct door_fence *fence,
		     struct e4d_donor **out)
{
	struct e4d_donor *d;
	struct err_rec e;
	struct stat st;
	int ret = 0;

	pthread_mutex_lock(&donors_lock);
	for (d = donors; d && strcmp(d->path, path); d = d->next)
		;
	if (d) {
		d->refs++;
		goto out;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		d = NULL;
		ret = -ENOMEM;
		goto out;
	}
	d->fd = door_create(&d->made, path, O_WRONLY, 0644, "donorname",
			    fence, &e);
	if (d->fd < 0 || fstat(d->fd, &st)) {
		ret = d->fd < 0 ? d->fd : -errno;
		if (d->fd >= 0) {
			close(d->fd);
			door_remove(&d->made);
		}
		free(d->path);
		free(d);
		d = NULL;
		goto out;
	}
	d->bsz = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	d->refs = 1;
	d->next = donors;
	donors = d;
out:
	pthread_mutex_unlock(&donors_lock);
	*out = d;
	return ret;
}

/* The last user closes it and removes it, while its name is still it. */
static void donor_put(struct e4d_donor *d)
{
	struct e4d_donor **pp;

	pthread_mutex_lock(&donors_lock);
	if (--d->refs) {
		pthread_mutex_unlock(&donors_lock);
		return;
	}
	for (pp = &donors; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
	door_remove(&d->made);
	close(d->fd);
	pthread_mutex_unlock(&donors_lock);
	free(d->path);
	free(d);
}

static int e4d_init(struct engine_ctx *ctx)
{
	const struct e4d_opts *o = ctx->eo;
	const struct target *t = ctx->tgt;
	struct e4d *e = calloc(1, sizeof(*e));
	uint64_t lo = UINT64_MAX, hi = 0;
	char *path;
	unsigned i;
	int ret;

	if (!e)
		return -ENOMEM;
	path = donor_path(ctx->job->target.directory, o->donorname);
	ret = path ? donor_get(path, t->fence, &e->d) : -ENOMEM;
	free(path);
	if (ret) {
		free(e);
		return ret;
	}
	e->inplace = o->inplace;
	for (i = 0; i < t->nfiles; i++) {
		if (t->files[i].offset < lo)
			lo = t->files[i].offset;
		if (t->files[i].offset + t->files[i].len > hi)
			hi = t->files[i].offset + t->files[i].len;
	}
	/* inplace=0: the donor's blocks for the whole region, now. */
	if (!e->inplace && hi > lo &&
	    fallocate(e->d->fd, 0, (off_t)lo, (off_t)(hi - lo))) {
		ret = -errno;
		donor_put(e->d);
		free(e);
		return ret;
	}
	ctx->priv = e;
	return 0;
}

static int e4d_queue(struct engine_ctx *ctx, struct io_req *req)
{
	const struct e4d *e = ctx->priv;
	const struct e4d_donor *d = e->d;
	struct e4d_move m = { .donor_fd = (uint32_t)d->fd };
	int64_t res;

	m.orig_start = m.donor_start = req->offset / d->bsz;
	m.len = (req->offset + req->len + d->bsz - 1) / d->bsz - m.orig_start;
	if (req->ddir != DDIR_WRITE) {
		res = -EINVAL;
	} else if (e->inplace && fallocate(d->fd, 0, (off_t)req->offset,
					   (off_t)req->len)) {
		res = -errno;
	} else {
		if (ioctl(req->fd, E4D_IOC_MOVE_EXT, &m))
			res = -errno;
		else if (!m.moved_len)
			res = -EINVAL;	/* beyond the file's end */
		else if (m.moved_len * d->bsz < req->len)
			res = (int64_t)(m.moved_len * d->bsz);
		else
			res = req->len;
		if (e->inplace && ftruncate(d->fd, 0) && res >= 0)
			res = -errno;
	}
	req->t_done = clock_ticks(ctx->clk);
	req->res = res;
	return ENGINE_DONE;
}

static void e4d_exit(struct engine_ctx *ctx)
{
	struct e4d *e = ctx->priv;

	if (e)
		donor_put(e->d);
	free(e);
	ctx->priv = NULL;
}

static const char *e4d_hint(int err)
{
	switch (err) {
	case -EEXIST:
		return "the donor file (directory/donorname) appeared after "
		       "planning and is not one this run made: iorig does "
		       "not overwrite it; remove it or name another";
	case -ENOTTY:
	case -EOPNOTSUPP:
		return "EXT4_IOC_MOVE_EXT needs files on ext4 with extents";
	case -ENOSPC:
		return "inplace=0 allocates the donor over the job's whole "
		       "region: the file system needs that much free space";
	}
	return NULL;
}

/* The donor file, for the door's plan-time check (door.h). */
static int e4d_names(const struct job *j, struct door_names *l)
{
	const struct e4d_opts *o = j->eng.eopts;
	char *donor;
	int r;

	if (!o->donorname)
		return 0;
	donor = donor_path(j->target.directory, o->donorname);
	if (!donor)
		return -ENOMEM;
	r = door_names_add(l, "donorname", "%s", donor);
	free(donor);
	return r;
}

/*
 * donorname= is needed (as fio), and rw= must only write (fio fails every
 * read or trim with EINVAL: a job that could do nothing else is refused,
 * saying why).
 */
static int e4d_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const struct e4d_opts *o = j->eng.eopts;

	if (!o->donorname || !*o->donorname) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"donorname",
			"ioengine=e4defrag needs donorname=, the file the "
			"job's blocks are moved to (made by the run, removed "
			"at its end)");
		return -EINVAL;
	}
	if (rw_dirs(j->io.rw) != 1u << DDIR_WRITE) {
		err_set(e, j->plan.section_file, j->plan.section_line, "rw",
			"ioengine=e4defrag moves extents on writes only (fio "
			"fails every read and trim with EINVAL): expected "
			"rw=write or rw=randwrite");
		return -EINVAL;
	}
	return 0;
}

/* stat of path, or of the directory it would be made in. */
static int stat_or_dir(const char *path, struct stat *st, struct statfs *sf)
{
	char *dir;
	int r;

	if (!stat(path, st))
		return statfs(path, sf) ? -errno : 0;
	if (errno != ENOENT)
		return -errno;
	dir = path_dir(path);
	if (!dir)
		return -ENOMEM;
	r = stat(dir, st) || statfs(dir, sf) ? -errno : 0;
	free(dir);
	return r;
}

/*
 * Once target_plan has named and checked the job's files, before anything
 * is created: each is a regular file (or one to be made) on an ext4 file
 * system (EXT4_IOC_MOVE_EXT exists nowhere else; the error names the file
 * system found); the donor file (directory/donorname) does not exist yet
 * (the engine moves the job's old blocks into it: iorig overwrites no
 * file it did not create) and would be made on the same file system.
 */
static int e4d_plan_target(const struct target *t, const struct job *j,
			   struct err_rec *e)
{
	const struct e4d_opts *o = j->eng.eopts;
	const char *file = j->plan.section_file;
	int line = j->plan.section_line, r;
	struct stat st, dst;
	struct statfs sf;
	char fs[64], *donor;
	dev_t dev = 0;
	unsigned i;

	for (i = 0; i < t->nfiles; i++) {
		const char *p = t->files[i].path;

		if (t->files[i].is_bdev) {
			err_set(e, file, line, "filename", "ioengine=e4defrag "
				"moves the extents of files on ext4: '%s' is a "
				"block device", p);
			return -EINVAL;
		}
		r = stat_or_dir(p, &st, &sf);
		if (r) {
			err_set(e, file, line, "filename", "'%s': %s", p,
				strerror(-r));
			return -EINVAL;
		}
		if (sf.f_type != EXT4_SUPER_MAGIC) {
			if (sysinfo_mount_fs("", major(st.st_dev),
					     minor(st.st_dev), fs, sizeof(fs),
					     NULL, 0))
				snprintf(fs, sizeof(fs), "unknown");
			err_set(e, file, line, "ioengine", "ioengine=e4defrag "
				"needs a file on ext4 (EXT4_IOC_MOVE_EXT): '%s' "
				"is on %s (fio fails its first I/O with "
				"ENOTTY)", p, fs);
			return -EINVAL;
		}
		if (i && st.st_dev != dev) {
			err_set(e, file, line, "filename", "ioengine=e4defrag "
				"moves blocks within one file system, through "
				"one donor: '%s' is not on the file system of "
				"'%s'", p, t->files[0].path);
			return -EINVAL;
		}
		dev = st.st_dev;
	}
	donor = donor_path(j->target.directory, o->donorname);
	if (!donor)
		return -ENOMEM;
	r = 0;
	if (!lstat(donor, &dst)) {
		err_set(e, file, line, "donorname", "the donor file '%s' "
			"exists: the e4defrag engine gives it the job's old "
			"blocks, overwriting it (fio would), and iorig "
			"overwrites no file it did not create; remove it or "
			"name a new one", donor);
		r = -EINVAL;
	} else if (errno != ENOENT) {
		err_set(e, file, line, "donorname", "the donor file '%s': %s",
			donor, strerror(errno));
		r = -EINVAL;
	} else if ((r = stat_or_dir(donor, &dst, &sf))) {
		err_set(e, file, line, "donorname", "the donor file '%s': %s",
			donor, strerror(-r));
		r = -EINVAL;
	} else if (dst.st_dev != dev) {
		err_set(e, file, line, "donorname", "the donor file '%s' "
			"would not be on the file system of '%s': ext4 moves "
			"blocks within one file system", donor,
			t->files[t->nfiles - 1].path);
		r = -EINVAL;
	}
	free(donor);
	return r;
}

/* Over the run's planned jobs and targets: no e4defrag job's donor is a
 * file of a job (its own or another's, made by the layout later). */
static int e4d_plan_run(const struct job *jobs, const struct target *tg,
			size_t n, struct err_rec *e)
{
	const struct e4d_opts *o;
	size_t i, k;
	unsigned f;
	char *donor;

	for (i = 0; i < n; i++) {
		if (jobs[i].eng.engine != &engine_e4defrag)
			continue;
		o = jobs[i].eng.eopts;
		donor = donor_path(jobs[i].target.directory, o->donorname);
		if (!donor)
			return -ENOMEM;
		for (k = 0; k < n; k++)
			for (f = 0; f < tg[k].nfiles; f++) {
				if (!path_same(donor, tg[k].files[f].path))
					continue;
				err_set(e, jobs[i].plan.section_file,
					jobs[i].plan.section_line, "donorname",
					"job '%s': the donor file '%s' is a "
					"file of job '%s': the e4defrag "
					"engine would give it this job's old "
					"blocks, overwriting it; name a file "
					"no job uses", jobs[i].desc.name, donor,
					jobs[k].desc.name);
				free(donor);
				return -EINVAL;
			}
		free(donor);
	}
	return 0;
}

const struct engine_ops engine_e4defrag = {
	.name = "e4defrag",
	.help = "EXT4_IOC_MOVE_EXT per write: blocks to a donor; no data",
	/* Writes only (its plan): the files are opened O_RDWR, as the
	 * ioctl needs. */
	.flags = ENGINE_SYNC | ENGINE_NODATA | ENGINE_KEEPS_DATA,
	.submit_call = "ioctl",
	.options = e4d_options,
	.options_size = sizeof(struct e4d_opts),
	.plan = e4d_plan,
	.plan_target = e4d_plan_target,
	.plan_run = e4d_plan_run,
	.names = e4d_names,
	.init = e4d_init,
	.queue = e4d_queue,
	.exit = e4d_exit,
	.hint = e4d_hint,
};
