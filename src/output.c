// SPDX-License-Identifier: MIT
/* The report and stream files: see output.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "output.h"
#include "path.h"

/* Names of the standard streams, written to whatever they are. */
static const char *const std_names[] = {
	"/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2",
	"/proc/self/fd/1", "/proc/self/fd/2",
};

static bool is_std_name(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(std_names) / sizeof(std_names[0]); i++)
		if (!strcmp(path, std_names[i]))
			return true;
	return false;
}

/*
 * Character devices that take a report harmlessly, whatever their names:
 * /dev/null (1:3), /dev/zero (1:5), /dev/full (1:7) and terminals (4,
 * 5 and the pseudo-terminals 136-143). Any other (a tape, SCSI generic,
 * an NVMe controller, /dev/mem) is refused.
 */
static bool is_harmless_chr(const struct stat *st)
{
	unsigned ma = major(st->st_rdev), mi = minor(st->st_rdev);

	if (!S_ISCHR(st->st_mode))
		return false;
	if (ma == 1)
		return mi == 3 || mi == 5 || mi == 7;
	return ma == 4 || ma == 5 || (ma >= 136 && ma <= 143);
}

/* NULL when a file of this type may be written; else what it is. */
static const char *refused_type(const struct stat *st)
{
	if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) ||
	    is_harmless_chr(st))
		return NULL;
	if (S_ISBLK(st->st_mode))
		return "a block device: the report would overwrite its first "
		       "sectors (--filename names a device to test)";
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISCHR(st->st_mode))
		return "a character device other than /dev/null, /dev/zero, "
		       "/dev/full or a terminal";
	return "not a regular file, a FIFO or /dev/null";
}

int output_check(const char *path, const char *option, struct err_rec *e)
{
	struct stat st;
	const char *why;
	char *dir;
	bool dev;

	if (!path || is_std_name(path))
		return 0;
	if (!stat(path, &st)) {
		why = refused_type(&st);
		if (!why)
			return 0;
		err_set(e, path, 0, option, "is %s; give a regular file, a "
			"FIFO or /dev/null", why);
		return -EINVAL;
	}
	if (errno != ENOENT)
		return 0;	/* opening it says why */
	dir = path_dir(path);
	if (!dir) {
		err_set(e, path, 0, option, "out of memory");
		return -ENOMEM;
	}
	dev = path_in_dev(dir);
	free(dir);
	if (dev) {
		err_set(e, path, 0, option, "does not exist, and iorig makes "
			"no regular file in /dev: give a file outside /dev");
		return -EINVAL;
	}
	return 0;
}

bool output_same(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea, eb;

	if (!a && !b)
		return true;
	ea = a ? !stat(a, &sa) : !fstat(STDOUT_FILENO, &sa);
	eb = b ? !stat(b, &sb) : !fstat(STDOUT_FILENO, &sb);
	if (ea && eb)	/* /dev/null or a FIFO twice is no clash */
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	return a && b && path_same(a, b);
}

static ssize_t cookie_write(void *c, const char *buf, size_t len)
{
	struct output *o = c;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(o->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : EIO;
			errno = o->err;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int cookie_close(void *c)
{
	struct output *o = c;
	int fd = o->fd;

	o->fd = -1;
	if (!o->path || fd < 0)
		return 0;	/* standard output stays open */
	return close(fd);
}

static const cookie_io_functions_t cookie_fns = {
	.write = cookie_write,
	.close = cookie_close,
};

/* The mode a file written by fopen(path, "w") would have. */
static mode_t new_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (!stat(path, &st))
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* ".NAME.XXXXXX" beside path in o->tmp (not created); 0 or -ENOMEM. */
static int tmp_name(struct output *o)
{
	const char *slash = strrchr(o->path, '/');
	int dirlen = slash ? (int)(slash - o->path + 1) : 0;

	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", dirlen, o->path,
		     slash ? slash + 1 : o->path) < 0) {
		o->tmp = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A temporary file beside path, named: o->tmp and its fd in *fd. */
static int open_named_tmp(struct output *o, int *fd)
{
	int ret = tmp_name(o);

	if (ret)
		return ret;
	*fd = mkostemp(o->tmp, O_CLOEXEC);
	if (*fd < 0) {
		ret = -errno;
		free(o->tmp);
		o->tmp = NULL;
		return ret;
	}
	if (fchmod(*fd, new_mode(o->path)))
		return -errno;
	return 0;
}

/*
 * The file the report is written to until it replaces path: an unnamed
 * one in path's directory (O_TMPFILE) where the file system has them, so
 * that a run killed meanwhile (SIGKILL, mpirun ending a rank) leaves no
 * temporary file behind; else a named one.
 */
static int open_tmp(struct output *o)
{
	char *dir = path_dir(o->path);

	if (!dir)
		return -ENOMEM;
	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	free(dir);
	if (o->fd >= 0) {
		o->anon = true;
		return fchmod(o->fd, new_mode(o->path)) ? -errno : 0;
	}
	/* not on this file system (EOPNOTSUPP) or kernel: a named one, which
	 * also says why when the directory cannot be written */
	return open_named_tmp(o, &o->fd);
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Copy the unnamed file's bytes to fd (its name could not be linked). */
static int copy_anon(int from, int to)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;
	int r;

	for (;;) {
		n = pread(from, buf, sizeof(buf), off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		r = write_all(to, buf, (size_t)n);
		if (r)
			return r;
		off += n;
	}
}

/*
 * Give the unnamed file the name o->tmp, to be renamed over path: linked
 * by its descriptor (AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH) or
 * through /proc/self/fd; failing both, its bytes are copied to a named
 * temporary file, whose descriptor then replaces it. 0 or -errno.
 */
static int name_anon(struct output *o)
{
	char proc[64], *end;
	unsigned tries;
	int ret, fd;

	ret = tmp_name(o);
	if (ret)
		return ret;
	end = o->tmp + strlen(o->tmp) - 6;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (tries = 0; tries < 100; tries++) {
		unsigned v = (unsigned)getpid() * 2654435761u ^
			     (unsigned)random() ^ tries * 40503u;
		int i;

		for (i = 0; i < 6; i++, v /= 36)
			end[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
		if (!linkat(o->fd, "", AT_FDCWD, o->tmp, AT_EMPTY_PATH) ||
		    (errno != EEXIST &&
		     !linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp,
			     AT_SYMLINK_FOLLOW)))
			return 0;
		if (errno != EEXIST)
			break;
	}
	free(o->tmp);
	o->tmp = NULL;
	ret = open_named_tmp(o, &fd);
	if (!ret)
		ret = copy_anon(o->fd, fd);
	if (!ret && fsync(fd))
		ret = -errno;
	if (ret) {
		if (o->tmp) {
			close(fd);
			unlink(o->tmp);
		}
		return ret;
	}
	/* fclose() closes o->fd: the named file's descriptor goes there */
	if (dup3(fd, o->fd, O_CLOEXEC) < 0) {
		ret = -errno;
		close(fd);
		unlink(o->tmp);
		return ret;
	}
	close(fd);
	return 0;
}

static int open_fd(struct output *o, bool replace, bool append)
{
	struct stat st;
	bool exists;

	if (!o->path)
		return 0;
	exists = !stat(o->path, &st);
	if (replace && !is_std_name(o->path) &&
	    (!exists || S_ISREG(st.st_mode)))
		return open_tmp(o);
	o->fd = open(o->path, O_WRONLY | O_CREAT | O_CLOEXEC |
		     (append ? O_APPEND : exists && !S_ISREG(st.st_mode) ?
		      0 : O_TRUNC), 0666);
	return o->fd < 0 ? -errno : 0;
}

static int open_mode(struct output *o, const char *path,
		     const char *option, bool replace, bool append,
		     struct err_rec *e)
{
	struct stat st;
	const char *why;
	int ret;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->option = option;
	o->fd = path ? -1 : STDOUT_FILENO;
	ret = open_fd(o, replace, append);
	if (ret) {
		err_set(e, path, 0, option, "cannot open%s: %s", o->tmp ?
			" a temporary file beside it" : "", strerror(-ret));
		goto err;
	}
	/* What is open now is what was checked: the name may have moved. */
	if (path && !is_std_name(path) && !fstat(o->fd, &st) &&
	    (why = refused_type(&st))) {
		err_set(e, path, 0, option, "is %s; give a regular file, a "
			"FIFO or /dev/null", why);
		ret = -EINVAL;
		goto err;
	}
	o->f = fopencookie(o, "w", cookie_fns);
	if (!o->f) {
		err_set(e, path, 0, option, "out of memory");
		ret = -ENOMEM;
		goto err;
	}
	return 0;
err:
	output_discard(o);
	return ret;
}

int output_open(struct output *o, const char *path, const char *option,
		bool replace, struct err_rec *e)
{
	return open_mode(o, path, option, replace, false, e);
}

int output_append(struct output *o, const char *path, const char *option,
		  struct err_rec *e)
{
	return open_mode(o, path, option, false, true, e);
}

int output_write_whole(struct output *o, const void *p, size_t n)
{
	if (o->f && fflush(o->f)) {
		if (!o->err)
			o->err = errno ? errno : EIO;
		return -o->err;
	}
	/* cookie_write: one write(), again only for what it left */
	return cookie_write(o, p, n) == (ssize_t)n ? 0 : -o->err;
}

int output_close(struct output *o)
{
	int ret = 0;

	if (o->f && fflush(o->f) && !o->err)
		o->err = errno ? errno : EIO;
	if (!o->err && (o->tmp || o->anon) && fsync(o->fd))
		o->err = errno;
	if (!o->err && o->anon) {
		int r = name_anon(o);

		if (r)
			o->err = -r;
	}
	o->anon = false;
	if (o->f && fclose(o->f) && !o->err)
		o->err = errno ? errno : EIO;
	o->f = NULL;
	if (!o->err && o->tmp && rename(o->tmp, o->path))
		o->err = errno;
	ret = o->err ? -o->err : 0;
	if (ret && o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return ret;
}

void output_discard(struct output *o)
{
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0 && o->path)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	o->anon = false;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}
