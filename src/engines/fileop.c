// SPDX-License-Identifier: MIT
/*
 * filecreate, filestat, filedelete: each request is one operation on the
 * name of its file instead of a data transfer, as fio's engines of those
 * names: open(O_CREAT | O_RDWR, 0600) then close (a file that exists is
 * opened, never truncated), stat(2), unlink(2). Their plan makes the
 * block size the file's region (fileop_plan), so that a pass is one
 * operation per file; the worker times each like a synchronous I/O:
 * t_queue before the call, t_done when it returns (close, after filecreate's
 * open, is outside the time). No data moves: res is the request's length
 * on success. filedelete removes only the inode this run made for the
 * name (door.h: looked up again on its directory, held since the start,
 * and removed while it is still that file); another file put there
 * meanwhile is left, and the request fails with ESTALE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "door.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"
#include "target.h"

/* filestat's stat_type= */
enum fileop_stat { FILEOP_STAT, FILEOP_LSTAT, FILEOP_STATX };

struct filestat_opts {
	int stat_type;		/* enum fileop_stat */
};

static const struct opt_choice stat_type_choices[] = {
	{ "stat", FILEOP_STAT, "stat(2)" },
	{ "lstat", FILEOP_LSTAT, "lstat(2): a symlink itself" },
	{ "statx", FILEOP_STATX, "statx(2), basic fields and birth time" },
	{ NULL, 0, NULL },
};

static const struct opt_def filestat_options[] = {
	{ .name = "stat_type", .type = OPT_ENUM,
	  .off = offsetof(struct filestat_opts, stat_type), .def = "stat",
	  .choices = stat_type_choices, .category = "engine",
	  .help = "filestat: the system call of each operation" },
	{ .name = NULL },
};

static const char *op_path(const struct engine_ctx *ctx,
			   const struct io_req *req)
{
	return ctx->tgt->files[req->file].path;
}

static int op_done(struct engine_ctx *ctx, struct io_req *req, int r)
{
	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? -errno : (int64_t)req->len;
	return ENGINE_DONE;
}

static int create_queue(struct engine_ctx *ctx, struct io_req *req)
{
	int fd = open(op_path(ctx, req), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	int ret = op_done(ctx, req, fd);

	if (fd >= 0)
		close(fd);
	return ret;
}

static int stat_queue(struct engine_ctx *ctx, struct io_req *req)
{
	const char *path = op_path(ctx, req);
	struct statx sx;
	struct stat st;
	int r;

	switch (((const struct filestat_opts *)ctx->eo)->stat_type) {
	case FILEOP_LSTAT:
		r = lstat(path, &st);
		break;
	case FILEOP_STATX:
		r = statx(AT_FDCWD, path, 0, STATX_BASIC_STATS | STATX_BTIME,
			  &sx);
		break;
	default:
		r = stat(path, &st);
		break;
	}
	return op_done(ctx, req, r);
}

/* filedelete: each file's directory, held (door_dir_open); files of one
 * directory in a row share one descriptor. */
struct delete_dirs {
	int *fd;
	unsigned n;
};

static int delete_queue(struct engine_ctx *ctx, struct io_req *req)
{
	const struct delete_dirs *dd = ctx->priv;
	const struct target_file *tf = &ctx->tgt->files[req->file];
	int r = !tf->have_id ? -ESTALE :
		door_unlink_at(dd->fd[req->file], door_base(tf->path),
			       tf->dev, tf->ino);

	req->t_done = clock_ticks(ctx->clk);
	req->res = r < 0 ? r : (int64_t)req->len;
	return ENGINE_DONE;
}

/* The length of path's directory part (up to its last '/'). */
static size_t dir_len(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? (size_t)(s - path) + 1 : 0;
}

static void delete_exit(struct engine_ctx *ctx)
{
	struct delete_dirs *dd = ctx->priv;
	unsigned i;

	if (!dd)
		return;
	for (i = 0; i < dd->n; i++)
		if (dd->fd[i] >= 0 && (!i || dd->fd[i] != dd->fd[i - 1]))
			close(dd->fd[i]);
	free(dd->fd);
	free(dd);
	ctx->priv = NULL;
}

/* Names of files only: a block device has no meaning here. */
static int fileop_init(struct engine_ctx *ctx)
{
	unsigned i;

	for (i = 0; i < ctx->tgt->nfiles; i++)
		if (ctx->tgt->files[i].is_bdev)
			return -EOPNOTSUPP;
	return 0;
}

static int delete_init(struct engine_ctx *ctx)
{
	const struct target *t = ctx->tgt;
	struct delete_dirs *dd;
	unsigned i;
	int r = fileop_init(ctx);

	if (r)
		return r;
	dd = calloc(1, sizeof(*dd));
	if (!dd || !(dd->fd = calloc(t->nfiles ? t->nfiles : 1,
				     sizeof(*dd->fd)))) {
		free(dd);
		return -ENOMEM;
	}
	ctx->priv = dd;
	for (i = 0; i < t->nfiles; i++, dd->n++) {
		const char *p = t->files[i].path, *q;

		q = i ? t->files[i - 1].path : NULL;
		if (q && dir_len(p) == dir_len(q) &&
		    !strncmp(p, q, dir_len(p))) {
			dd->fd[i] = dd->fd[i - 1];
			continue;
		}
		dd->fd[i] = door_dir_open(p);
		if (dd->fd[i] < 0) {
			r = dd->fd[i];
			delete_exit(ctx);
			return r;
		}
	}
	return 0;
}

static const char *fileop_hint(int err)
{
	return err == -EOPNOTSUPP ? "filecreate, filestat and filedelete "
	       "work on files only, not block devices" :
	       err == -ESTALE ? "filedelete: the name no longer names the "
	       "file this run made there (replaced meanwhile): left alone" :
	       NULL;
}

static void fileop_exit(struct engine_ctx *ctx)
{
	(void)ctx;
}

/*
 * One operation a file each pass, so the block size becomes each file's
 * size (filesize=, else size= / nrfiles), which fio counts as the bytes
 * of the operation.
 */
static int fileop_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const char *file = j->plan.section_file;
	int line = j->plan.section_line, d;
	uint64_t fs;

	if (j->target.filesize_min != j->target.filesize_max) {
		err_set(e, file, line, "filesize", "ioengine=%s does one "
			"operation a file; expected one filesize, not a range",
			j->eng.ioengine);
		return -EINVAL;
	}
	fs = j->target.filesize_min ? j->target.filesize_min :
	     j->target.size / (j->target.nrfiles ? j->target.nrfiles : 1);
	if (!fs || fs > (1u << 30)) {
		err_set(e, file, line, "filesize", "ioengine=%s needs each "
			"file's size, from 1 byte to 1GiB (fio counts it as "
			"the bytes of an operation): expected filesize= or "
			"size=", j->eng.ioengine);
		return -EINVAL;
	}
	if (j->io.bssplit || (rw_dirs(j->io.rw) & (1u << DDIR_TRIM))) {
		err_set(e, file, line, j->io.bssplit ? "bssplit" : "rw",
			"ioengine=%s does one operation a file: %s has no "
			"meaning there", j->eng.ioengine, j->io.bssplit ?
			"a split of block sizes" : "a trim");
		return -EINVAL;
	}
	if ((j->eng.engine->flags & ENGINE_DELETES) &&
	    (j->time.loops > 1 || j->time.time_based)) {
		err_set(e, file, line, j->time.time_based ? "time_based" :
			"loops",
			"ioengine=%s deletes the files in the first pass; "
			"expected one pass (loops=1, no time_based)",
			j->eng.ioengine);
		return -EINVAL;
	}
	for (d = 0; d < DDIR_NR; d++)
		j->io.bs_min[d] = j->io.bs_max[d] = fs;
	return 0;
}

const struct engine_ops engine_filecreate = {
	.name = "filecreate",
	.help = "open(O_CREAT), close each file once a pass; no data",
	.flags = ENGINE_SYNC | ENGINE_NODATA |
		 ENGINE_NOLAYOUT | ENGINE_CREATES,
	.plan = fileop_plan,
	.init = fileop_init,
	.queue = create_queue,
	.exit = fileop_exit,
	.hint = fileop_hint,
};

const struct engine_ops engine_filestat = {
	.name = "filestat",
	.help = "stat(2) each file once a pass; no data moves",
	.flags = ENGINE_SYNC | ENGINE_NODATA,
	.options = filestat_options,
	.options_size = sizeof(struct filestat_opts),
	.plan = fileop_plan,
	.init = fileop_init,
	.queue = stat_queue,
	.exit = fileop_exit,
	.hint = fileop_hint,
};

const struct engine_ops engine_filedelete = {
	.name = "filedelete",
	.help = "unlink(2) each file (one this run made) once; no data",
	.flags = ENGINE_SYNC | ENGINE_NODATA |
		 ENGINE_CHANGES_FILES | ENGINE_DELETES,
	.plan = fileop_plan,
	.init = delete_init,
	.queue = delete_queue,
	.exit = delete_exit,
	.hint = fileop_hint,
};
