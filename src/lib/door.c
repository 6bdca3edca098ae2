// SPDX-License-Identifier: MIT
/*
 * The one door for the files iorig writes, maps or removes besides the
 * targets' own I/O: see door.h. Every open, creation, mapping, rename and
 * removal of such a file is in this file (tests/cli/210-one-door.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "door.h"
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
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file, a FIFO or /dev/null";
}

/* ---- names: symlinks in shared directories, resolving ---- */

/*
 * The kernel's fs.protected_symlinks rule: a symlink in a sticky
 * directory that all may write (/tmp) is followed only by its owner, or
 * when the directory's owner owns it too. lnk is the link's lstat, dir
 * the directory's stat.
 */
static bool link_refused(const struct stat *lnk, const struct stat *dir)
{
	return (dir->st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH) &&
	       lnk->st_uid != geteuid() && lnk->st_uid != dir->st_uid;
}

/* Appends "/" and the n bytes of part to the absolute path cur. */
static int cur_push(char *cur, const char *part, size_t n)
{
	size_t l = strlen(cur);

	if (l + 1 + n >= PATH_MAX)
		return -ENAMETOOLONG;
	cur[l] = '/';
	memcpy(cur + l + 1, part, n);
	cur[l + 1 + n] = '\0';
	return 0;
}

/*
 * Walks path one part at a time as the kernel would, following every
 * symlink met; a link the protected_symlinks rule would refuse is
 * copied to bad (its directory to baddir) and the walk says -EPERM.
 * A part that does not exist ends the walk (0): nothing further is
 * followed.
 */
static int walk(const char *path, char *bad, char *baddir)
{
	char *cur = malloc(PATH_MAX), *rest = malloc(2 * PATH_MAX);
	char *tmp = malloc(2 * PATH_MAX), *p;
	struct stat lst, dst;
	unsigned hops = 0;
	size_t n;
	ssize_t ln;
	int ret = 0;

	if (!cur || !rest || !tmp) {
		ret = -ENOMEM;
		goto out;
	}
	if (path[0] == '/')
		cur[0] = '\0';
	else if (!getcwd(cur, PATH_MAX)) {
		ret = -errno;
		goto out;
	}
	if (!strcmp(cur, "/"))
		cur[0] = '\0';
	snprintf(rest, 2 * PATH_MAX, "%s", path);
	for (p = rest; !ret;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *s = strrchr(cur, '/');

			if (s)
				*s = '\0';
			p += n;
			continue;
		}
		if ((ret = cur_push(cur, p, n)))
			break;
		p += n;
		if (lstat(cur, &lst))
			break;	/* made later, or the open says why */
		if (!S_ISLNK(lst.st_mode))
			continue;
		*strrchr(cur, '/') = '\0';
		if (stat(*cur ? cur : "/", &dst)) {
			ret = -errno;
			break;
		}
		if (link_refused(&lst, &dst)) {
			snprintf(baddir, PATH_MAX, "%s", *cur ? cur : "/");
			snprintf(bad, PATH_MAX, "%s/%.*s", cur, (int)n, p - n);
			ret = -EPERM;
			break;
		}
		if (++hops > 40) {
			ret = -ELOOP;
			break;
		}
		/* the link's text, then what was left after it */
		cur_push(cur, p - n, n);
		ln = readlink(cur, tmp, PATH_MAX - 1);
		*strrchr(cur, '/') = '\0';
		if (ln < 0) {
			ret = -errno;
			break;
		}
		tmp[ln] = '\0';
		if (tmp[0] == '/')
			cur[0] = '\0';
		snprintf(tmp + ln, 2 * PATH_MAX - (size_t)ln, "/%s", p);
		snprintf(rest, 2 * PATH_MAX, "%s", tmp);
		p = rest;
	}
out:
	free(cur);
	free(rest);
	free(tmp);
	return ret;
}

/*
 * The name path leads to: realpath where it exists, else its directory
 * resolved and its last part, a dangling symlink followed to the name it
 * would make. NULL: the directory does not resolve, or out of memory.
 */
static char *resolve(const char *path)
{
	char *p = strdup(path), *r, *dir, *np;
	char link[PATH_MAX];
	unsigned hops;
	struct stat st;
	ssize_t n;

	for (hops = 0; p; hops++) {
		r = realpath(p, NULL);
		if (r || hops > 40 || lstat(p, &st) || !S_ISLNK(st.st_mode))
			break;
		n = readlink(p, link, sizeof(link) - 1);
		if (n < 0)
			break;
		link[n] = '\0';
		dir = path_dir(p);
		np = NULL;
		if (dir && asprintf(&np, "%s/%s", dir, link) < 0)
			np = NULL;
		free(dir);
		free(p);
		p = link[0] == '/' ? strdup(link) : np;
		if (link[0] == '/')
			free(np);
	}
	if (!p)
		return NULL;
	r = r ? r : path_resolved(p);
	free(p);
	return r;
}

/* ---- the fence ---- */

struct fence_ent {
	char *path, *what, *resolved;
	bool has_id;
	dev_t dev;
	ino_t ino;
};

struct door_fence {
	struct fence_ent *v;
	size_t n, cap;
};

struct door_fence *door_fence_new(void)
{
	return calloc(1, sizeof(struct door_fence));
}

int door_fence_add(struct door_fence *f, const char *path, const char *what)
{
	struct fence_ent *e;
	struct stat st;

	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct fence_ent *v = realloc(f->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->v = v;
		f->cap = cap;
	}
	e = &f->v[f->n];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	e->what = strdup(what);
	e->resolved = resolve(path);
	if (!e->path || !e->what) {
		free(e->path);
		free(e->what);
		free(e->resolved);
		return -ENOMEM;
	}
	if (!stat(path, &st) && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		e->has_id = true;
		e->dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		e->ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
	}
	f->n++;
	return 0;
}

void door_fence_free(struct door_fence *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].what);
		free(f->v[i].resolved);
	}
	free(f->v);
	free(f);
}

/* The entry st (an open or looked-up file) is, by identity; NULL. */
static const char *fence_hit_st(const struct door_fence *f,
				const struct stat *st)
{
	size_t i;
	bool blk = S_ISBLK(st->st_mode);

	if (!f || (!S_ISREG(st->st_mode) && !blk))
		return NULL;
	for (i = 0; i < f->n; i++)
		if (f->v[i].has_id &&
		    f->v[i].dev == (blk ? st->st_rdev : st->st_dev) &&
		    f->v[i].ino == (blk ? 0 : st->st_ino))
			return f->v[i].what;
	return NULL;
}

const char *door_fence_hit(const struct door_fence *f, const char *path)
{
	const char *hit = NULL;
	struct stat st;
	char *r;
	size_t i;

	if (!f || !path || !f->n)
		return NULL;
	if (!stat(path, &st) && (hit = fence_hit_st(f, &st)))
		return hit;
	r = resolve(path);
	for (i = 0; r && i < f->n; i++)
		if (f->v[i].resolved && !strcmp(f->v[i].resolved, r)) {
			hit = f->v[i].what;
			break;
		}
	free(r);
	return hit;
}

int door_names_add(struct door_names *l, const char *option,
		   const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct door_name *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	l->v[l->n].path = s;
	l->v[l->n].socket = false;
	l->v[l->n++].option = option;
	return 0;
}

void door_names_free(struct door_names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].path);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- the rules ---- */

/*
 * The directory the name path leads to would be made in is in /dev (or,
 * where that directory is missing too, its nearest existing parent).
 */
static bool made_in_dev(const char *path)
{
	char *r = resolve(path), *dir, *up;
	struct stat st;
	bool dev;

	dir = path_dir(r ? r : path);
	while (dir && stat(dir, &st) && strcmp(dir, ".") && strcmp(dir, "/")) {
		up = path_dir(dir);
		free(dir);
		dir = up;
	}
	dev = dir && path_in_dev(dir);
	free(dir);
	free(r);
	return dev;
}

/* The symlink rule alone: 0, or -EINVAL with e. */
static int check_links(const char *path, const char *option,
		       struct err_rec *e)
{
	char bad[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	int r = walk(path, bad, dir);

	if (r == -ENOMEM) {
		err_set(e, path, 0, option, "out of memory");
		return r;
	}
	if (r != -EPERM)
		return 0;	/* ELOOP, ENAMETOOLONG...: the open says why */
	if (lstat(bad, &st))
		st.st_uid = 0;
	err_set(e, path, 0, option, "is reached through the symlink '%s' "
		"in '%s', a directory all may write (sticky), owned by uid "
		"%u, neither you nor the directory's owner: another user "
		"could point it at any file (the kernel's "
		"fs.protected_symlinks rule); give the file's own path", bad,
		dir, (unsigned)st.st_uid);
	return -EINVAL;
}

int door_check(const char *path, const char *option,
	       const struct door_fence *f, struct err_rec *e)
{
	struct stat st;
	const char *why, *hit;
	char *dir;
	bool dev;
	int r;

	if (!path || is_std_name(path))
		return 0;
	if ((r = check_links(path, option, e)))
		return r;
	if (!stat(path, &st)) {
		why = refused_type(&st);
		if (why) {
			err_set(e, path, 0, option, "is %s; give a regular "
				"file, a FIFO or /dev/null", why);
			return -EINVAL;
		}
		dir = S_ISREG(st.st_mode) ? path_dir(path) : NULL;
		dev = dir && path_in_dev(dir);
		free(dir);
		if (dev) {
			err_set(e, path, 0, option, "is a regular file in "
				"/dev: iorig makes no name there (not even a "
				"temporary one); give a file outside /dev");
			return -EINVAL;
		}
	} else if (errno != ENOENT) {
		return 0;	/* opening it says why */
	} else if (made_in_dev(path)) {
		err_set(e, path, 0, option, "does not exist, and iorig makes "
			"no regular file in /dev (no new name of any kind): "
			"give a file outside /dev");
		return -EINVAL;
	}
	hit = door_fence_hit(f, path);
	if (hit) {
		err_set(e, path, 0, option, "is %s: this run would replace "
			"or add to it; give another file", hit);
		return -EINVAL;
	}
	return 0;
}

bool door_same(const char *a, const char *b)
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

/* ---- writing a file ---- */

static ssize_t cookie_write(void *c, const char *buf, size_t len)
{
	struct door_out *o = c;
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
	struct door_out *o = c;
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
static int tmp_name(struct door_out *o)
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
static int open_named_tmp(struct door_out *o, int *fd)
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
 * The file a whole file is written to until it replaces path: an unnamed
 * one in path's directory (O_TMPFILE) where the file system has them, so
 * that a run killed meanwhile (SIGKILL, mpirun ending a rank) leaves no
 * temporary file behind; else a named one.
 */
static int open_tmp(struct door_out *o)
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

int door_write_all(int fd, const void *buf, size_t len)
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
		r = door_write_all(to, buf, (size_t)n);
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
static int name_anon(struct door_out *o)
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

/*
 * O_NOFOLLOW where path is no symlink now: a symlink put there after
 * door_check is not followed (ELOOP).
 */
static int nofollow(const char *path)
{
	struct stat st;

	return lstat(path, &st) || !S_ISLNK(st.st_mode) ? O_NOFOLLOW : 0;
}

static int open_fd(struct door_out *o, enum door_mode mode)
{
	struct stat st;
	bool exists;

	if (!o->path)
		return 0;
	exists = !stat(o->path, &st);
	if (mode == DOOR_WHOLE && !is_std_name(o->path) &&
	    (!exists || S_ISREG(st.st_mode)))
		return open_tmp(o);
	o->fd = open(o->path, O_WRONLY | O_CREAT | O_CLOEXEC |
		     (is_std_name(o->path) ? 0 : nofollow(o->path)) |
		     (mode == DOOR_APPEND ? O_APPEND :
		      exists && !S_ISREG(st.st_mode) ? 0 : O_TRUNC), 0666);
	return o->fd < 0 ? -errno : 0;
}

/* What is open is what was checked: the name may have moved. */
static int recheck_fd(struct door_out *o, struct err_rec *e)
{
	struct stat st;
	const char *why, *hit;

	if (!o->path || is_std_name(o->path) || fstat(o->fd, &st))
		return 0;
	if ((why = refused_type(&st))) {
		err_set(e, o->path, 0, o->option, "is %s; give a regular "
			"file, a FIFO or /dev/null", why);
		return -EINVAL;
	}
	if ((hit = fence_hit_st(o->fence, &st))) {
		err_set(e, o->path, 0, o->option, "is %s now: this run would "
			"replace or add to it; give another file", hit);
		return -EINVAL;
	}
	return 0;
}

int door_open(struct door_out *o, const char *path, const char *option,
	      enum door_mode mode, const struct door_fence *f,
	      struct err_rec *e)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->option = option;
	o->fence = f;
	o->fd = path ? -1 : STDOUT_FILENO;
	ret = door_check(path, option, f, e);
	if (ret)
		goto err;
	ret = open_fd(o, mode);
	if (ret) {
		err_set(e, path, 0, option, "cannot open%s: %s", o->tmp ?
			" a temporary file beside it" : "", strerror(-ret));
		goto err;
	}
	ret = recheck_fd(o, e);
	if (ret)
		goto err;
	o->f = fopencookie(o, "w", cookie_fns);
	if (!o->f) {
		err_set(e, path, 0, option, "out of memory");
		ret = -ENOMEM;
		goto err;
	}
	return 0;
err:
	door_discard(o);
	return ret;
}

int door_write_whole(struct door_out *o, const void *p, size_t n)
{
	if (o->f && fflush(o->f)) {
		if (!o->err)
			o->err = errno ? errno : EIO;
		return -o->err;
	}
	/* cookie_write: one write(), again only for what it left */
	return cookie_write(o, p, n) == (ssize_t)n ? 0 : -o->err;
}

/* Before the rename: path is not (now) a file of the fence. */
static int recheck_name(struct door_out *o)
{
	return door_fence_hit(o->fence, o->path) ? EEXIST : 0;
}

int door_close(struct door_out *o)
{
	struct stat st;
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
	if (!o->err && o->fd >= 0 && o->path && !fstat(o->fd, &st) &&
	    S_ISREG(st.st_mode)) {
		o->dev = st.st_dev;
		o->ino = st.st_ino;
	}
	if (o->f && fclose(o->f) && !o->err)
		o->err = errno ? errno : EIO;
	o->f = NULL;
	if (!o->err && o->tmp)
		o->err = recheck_name(o);
	if (!o->err && o->tmp && rename(o->tmp, o->path))
		o->err = errno;
	ret = o->err ? -o->err : 0;
	if (ret && o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return ret;
}

void door_discard(struct door_out *o)
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

/* ---- files this run makes and removes ---- */

const char *door_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int door_dir_open(const char *path)
{
	char *dir = path_dir(path);
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd < 0 ? -errno : fd;
}

/* Records dirfd (taken), path's last part and st in m: 0 or -ENOMEM. */
static int made_set(struct door_made *m, int dirfd, const char *path,
		    const struct stat *st)
{
	m->name = strdup(door_base(path));
	if (!m->name)
		return -ENOMEM;
	m->dirfd = dirfd;
	m->dev = st->st_dev;
	m->ino = st->st_ino;
	return 0;
}

int door_create(struct door_made *m, const char *path, int flags,
		mode_t mode, const char *option, const struct door_fence *f,
		struct err_rec *e)
{
	struct stat st;
	int dfd, fd, r;

	m->dirfd = -1;
	m->name = NULL;
	r = door_check(path, option, f, e);
	if (r)
		return r;
	dfd = door_dir_open(path);
	if (dfd < 0) {
		err_set(e, path, 0, option, "its directory: %s",
			strerror(-dfd));
		return dfd;
	}
	fd = openat(dfd, door_base(path), flags | O_CREAT | O_EXCL |
		    O_CLOEXEC, mode);
	if (fd < 0) {
		r = -errno;
		close(dfd);
		err_set(e, path, 0, option, "cannot make it: %s%s",
			strerror(-r), r == -EEXIST ? " (iorig makes this "
			"file and removes it; it writes over none that is "
			"there)" : "");
		return r;
	}
	if (fstat(fd, &st) || (r = made_set(m, dfd, path, &st))) {
		r = r ? r : -errno;
		unlinkat(dfd, door_base(path), 0);
		close(fd);
		close(dfd);
		err_set(e, path, 0, option, "%s", strerror(-r));
		return r;
	}
	return fd;
}

int door_mkdir(const char *path, const char *option, struct err_rec *e)
{
	struct stat st;
	int r;

	if (check_links(path, option, e))
		return -EINVAL;
	if (!stat(path, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			err_set(e, path, 0, option, "is not a directory");
			return -ENOTDIR;
		}
		if (!path_in_dev(path))
			return 0;
	}
	if (path_in_dev(path) || made_in_dev(path)) {
		err_set(e, path, 0, option, "is in /dev: iorig makes no name "
			"there; give a directory outside /dev");
		return -EINVAL;
	}
	if (!mkdir(path, 0777) || errno == EEXIST)
		return 0;
	r = -errno;
	err_set(e, path, 0, option, "cannot create: %s", strerror(-r));
	return r;
}

int door_mkdtemp(struct door_made *m, const char *prefix, char *buf,
		 size_t len, struct err_rec *e)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int dfd;

	m->dirfd = -1;
	m->name = NULL;
	snprintf(buf, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
		 prefix);
	if (check_links(buf, "TMPDIR", e))
		return -EINVAL;
	if (made_in_dev(buf)) {
		err_set(e, buf, 0, "TMPDIR", "is in /dev: iorig makes no "
			"name there");
		return -EINVAL;
	}
	if (!mkdtemp(buf)) {
		int r = -errno;

		err_set(e, buf, 0, "", "cannot create a temporary directory: "
			"%s", strerror(-r));
		return r;
	}
	dfd = door_dir_open(buf);
	if (dfd < 0 || fstatat(dfd, door_base(buf), &st,
			       AT_SYMLINK_NOFOLLOW) ||
	    made_set(m, dfd, buf, &st)) {
		if (dfd >= 0)
			close(dfd);
		rmdir(buf);
		err_set(e, buf, 0, "", "cannot hold the temporary directory");
		return -EIO;
	}
	return 0;
}

void door_forget(struct door_made *m)
{
	if (m->dirfd >= 0)
		close(m->dirfd);
	m->dirfd = -1;
	free(m->name);
	m->name = NULL;
}

/* Removes name in dirfd while it is dev/ino (a directory too: rmdir). */
static int unlink_if(int dirfd, const char *name, dev_t dev, ino_t ino,
		     bool reg)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (st.st_dev != dev || st.st_ino != ino ||
	    (reg && !S_ISREG(st.st_mode)))
		return -ESTALE;
	return unlinkat(dirfd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR :
			0) ? -errno : 0;
}

int door_remove(struct door_made *m)
{
	int r = 0;

	if (m->dirfd >= 0 && m->name)
		r = unlink_if(m->dirfd, m->name, m->dev, m->ino, false);
	door_forget(m);
	return r;
}

int door_unlink_at(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	return unlink_if(dirfd, name, dev, ino, true);
}

int door_unlink_own(const char *path, dev_t dev, ino_t ino)
{
	int dfd = door_dir_open(path), r;

	if (dfd < 0)
		return dfd;
	r = door_unlink_at(dfd, door_base(path), dev, ino);
	close(dfd);
	return r;
}

/* ---- sockets and mapped buffers ---- */

/*
 * Whether a socket of this machine's network namespace is bound to the
 * socket file st (its inode, as sock_diag's UNIX_DIAG_VFS gives it): 1
 * yes, 0 no (one left behind by a process that ended), -errno when it
 * cannot tell. Looks only: connecting would hand a listener a peer.
 */
static int sock_bound(const struct stat *st)
{
	struct {
		struct nlmsghdr nh;
		struct unix_diag_req r;
	} req = {
		.nh = { .nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
		       .udiag_show = UDIAG_SHOW_VFS },
	};
	/* the kernel's dev_t: 12 bits of major, 20 of minor */
	uint32_t kdev = (uint32_t)(major(st->st_dev) << 20 |
				   minor(st->st_dev));
	long buf[8192 / sizeof(long)];
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_SOCK_DIAG), r = -EIO, found = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req))
		goto out;
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		const struct nlmsghdr *nh = (const void *)buf;

		for (; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			const struct unix_diag_msg *m = NLMSG_DATA(nh);
			const struct rtattr *a = (const void *)(m + 1);
			int len = (int)nh->nlmsg_len -
				  (int)NLMSG_LENGTH(sizeof(*m));

			if (nh->nlmsg_type == NLMSG_DONE) {
				r = found;
				goto out;
			}
			if (nh->nlmsg_type == NLMSG_ERROR)
				goto out;
			for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
				const struct unix_diag_vfs *v = RTA_DATA(a);

				if (a->rta_type == UNIX_DIAG_VFS &&
				    v->udiag_vfs_ino == st->st_ino &&
				    v->udiag_vfs_dev == kdev)
					found = 1;
			}
		}
	}
out:
	close(fd);
	return r;
}

/*
 * Something holds the socket file st at path (of type type): bound, as
 * sock_diag says; where it cannot say, a connect that is not refused.
 */
static bool sock_live(const char *path, const struct stat *st, int type)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, r = sock_bound(st);

	if (r >= 0)
		return r;
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;	/* cannot tell: taken as live */
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	r = connect(fd, (struct sockaddr *)&a, sizeof(a));
	if (r && errno != ECONNREFUSED)
		r = 0;		/* EAGAIN (a full backlog)...: live */
	close(fd);
	return !r;
}

int door_check_socket(const char *path, const char *option,
		      const struct door_fence *f, struct err_rec *e)
{
	struct stat st;

	if (check_links(path, option, e))
		return -EINVAL;
	if (lstat(path, &st) || !S_ISSOCK(st.st_mode))
		return door_check(path, option, f, e);
	if (sock_live(path, &st, SOCK_STREAM)) {
		err_set(e, path, 0, option, "is a socket another process "
			"holds (it is bound there): iorig takes over only a "
			"socket left behind; give another path");
		return -EINVAL;
	}
	return 0;
}

int door_bind_unix(int fd, int type, const char *path, struct door_made *m,
		   char *why, size_t whylen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct err_rec e;
	struct stat st;
	int dfd, r;

	m->dirfd = -1;
	m->name = NULL;
	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(why, whylen, "%s: a unix socket's path has at most "
			 "%zu bytes", path, sizeof(a.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	if (check_links(path, "hostname", &e) ||
	    ((lstat(path, &st) || !S_ISSOCK(st.st_mode)) &&
	     door_check(path, "hostname", NULL, &e))) {
		snprintf(why, whylen, "%s: %s", path, e.msg);
		return -EPERM;
	}
	dfd = door_dir_open(path);
	if (dfd < 0) {
		snprintf(why, whylen, "%s: its directory: %s", path,
			 strerror(-dfd));
		return dfd;
	}
	if (!fstatat(dfd, door_base(path), &st, AT_SYMLINK_NOFOLLOW)) {
		/* A socket left behind by a run that ended (fio leaves its
		 * own) is replaced, as fio does; one that is listened on is
		 * another process' and any other file is not ours. */
		r = !S_ISSOCK(st.st_mode) ? -EEXIST :
		    sock_live(path, &st, type) ? -EADDRINUSE :
		    unlink_if(dfd, door_base(path), st.st_dev, st.st_ino,
			      false);
		if (r) {
			snprintf(why, whylen, "%s: %s", path,
				 r == -EEXIST ? "exists and is not a socket" :
				 r == -EADDRINUSE ? "a socket that another "
				 "process listens on" : strerror(-r));
			close(dfd);
			return r;
		}
	}
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		r = -errno;
		snprintf(why, whylen, "%s: bind: %s", path, strerror(-r));
		close(dfd);
		return r;
	}
	if (fstatat(dfd, door_base(path), &st, AT_SYMLINK_NOFOLLOW) ||
	    made_set(m, dfd, path, &st)) {
		close(dfd);	/* bound, but not ours to remove later */
		m->dirfd = -1;
	}
	return 0;
}

void *door_map_new(const char *path, size_t len, int flags, char *why,
		   size_t whylen)
{
	struct door_made m = DOOR_MADE_NONE;
	struct err_rec e;
	char *dir = path_dir(path), *name = NULL;
	void *p = NULL;
	int fd = -1;

	if (!dir) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	if (door_check(path, "mem", NULL, &e)) {
		snprintf(why, whylen, "mem: %s: %s", path, e.msg);
		goto out;
	}
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
			errno == EINVAL)) {
		/* no unnamed files here: a new one beside path, removed
		 * once mapped (its name is the pid's: clones make their
		 * own) */
		if (asprintf(&name, "%s.iorig-mem.%d.%lx", path, getpid(),
			     (unsigned long)random()) < 0)
			name = NULL;
		if (name)
			fd = door_create(&m, name, O_RDWR, 0600, "mem", NULL,
					 &e);
		if (fd < 0) {
			snprintf(why, whylen, "mem: %s: %s", name ? name :
				 path, name ? e.msg : "out of memory");
			goto out;
		}
	}
	if (fd < 0) {
		snprintf(why, whylen, "mem: cannot make a file in %s: %s",
			 dir, strerror(errno));
		goto out;
	}
	if (ftruncate(fd, (off_t)len)) {
		snprintf(why, whylen, "mem: cannot size a file in %s to %zu "
			 "bytes: %s", dir, len, strerror(errno));
		goto out;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (p == MAP_FAILED) {
		snprintf(why, whylen, "mem: cannot map %zu bytes of a file "
			 "in %s: %s", len, dir, strerror(errno));
		p = NULL;
	}
out:
	door_remove(&m);
	if (fd >= 0)
		close(fd);
	free(name);
	free(dir);
	return p;
}

/* ---- a database file ---- */

/* The first n bytes of the regular file fd: 0 same as magic, 1 not. */
static int magic_differs(int fd, const void *magic, size_t n)
{
	unsigned char buf[64];
	ssize_t got = 0, r;

	if (n > sizeof(buf))
		return 1;
	while ((size_t)got < n) {
		r = pread(fd, buf + got, n - (size_t)got, got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 1;
		got += r;
	}
	return memcmp(buf, magic, n) != 0;
}

/* The rules of door_check for path and the library's names beside it. */
static int db_names_check(const char *path, const char *option,
			  const struct door_fence *f, struct err_rec *e)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char *n;
	size_t i;
	int r = 0;

	for (i = 0; !r && i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (asprintf(&n, "%s%s", path, sfx[i]) < 0) {
			err_set(e, path, 0, option, "out of memory");
			return -ENOMEM;
		}
		r = door_check(n, option, f, e);
		free(n);
	}
	return r;
}

int door_db_check(struct door_db *db, const char *path, const char *option,
		  const void *magic, size_t magic_len, bool readonly,
		  const struct door_fence *f, struct err_rec *e)
{
	struct stat st;
	int fd, r;

	memset(db, 0, sizeof(*db));
	if (is_std_name(path) || (!stat(path, &st) && !S_ISREG(st.st_mode))) {
		err_set(e, path, 0, option, "is not a regular file; give a "
			"database file (a new name makes one)");
		return -EINVAL;
	}
	if ((r = db_names_check(path, option, f, e)))
		return r;
	db->path = resolve(path);
	if (!db->path) {
		err_set(e, path, 0, option, "its directory does not exist");
		return -ENOENT;
	}
	/* Beside the real file: its journals' names checked too. */
	if (strcmp(db->path, path) &&
	    (r = db_names_check(db->path, option, f, e)))
		goto fail;
	fd = open(db->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT && !readonly)
		return 0;
	if (fd < 0) {
		r = -errno;
		err_set(e, path, 0, option, "%s%s", strerror(errno),
			r == -ENOENT ? " (it is read here, not made)" : "");
		goto fail;
	}
	r = -EINVAL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err_set(e, path, 0, option, "is not a regular file; give a "
			"database file (a new name makes one)");
	} else if (st.st_size && magic_differs(fd, magic, magic_len)) {
		err_set(e, path, 0, option, "is not a database of this kind "
			"(it does not start as one): left as it is; give "
			"another file");
	} else {
		db->exists = true;
		db->dev = st.st_dev;
		db->ino = st.st_ino;
		r = 0;
	}
	close(fd);
	if (!r)
		return 0;
fail:
	door_db_free(db);
	return r;
}

bool door_db_same(const struct door_db *db)
{
	struct stat st;

	if (!db->path || lstat(db->path, &st) || !S_ISREG(st.st_mode))
		return false;
	return !db->exists || (st.st_dev == db->dev && st.st_ino == db->ino);
}

void door_db_free(struct door_db *db)
{
	free(db->path);
	db->path = NULL;
}
