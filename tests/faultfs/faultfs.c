// SPDX-License-Identifier: MIT
/*
 * faultfs: a FUSE file system with one file, /data, whose I/O fails, comes
 * up short or is slow at chosen offsets. The CLI tests run iorig on it to
 * see real kernel errors travel through every engine.
 *
 *   faultfs [FAULTS] MOUNTPOINT [FUSE OPTIONS]
 *
 * FAULTS (OFF: bytes, with an optional k/m/g suffix, powers of 1024):
 *   --size=BYTES         size of /data (default 16m)
 *   --eio=OFF,...        a read whose range holds OFF fails with EIO
 *   --weio=OFF,...       a write whose range holds OFF fails with EIO
 *   --eagain=OFF,...     a read whose range holds OFF fails with EAGAIN
 *   --short=OFF,...      a read whose range holds OFF returns half of it
 *   --delay=OFF:MS,...   a read whose range holds OFF first sleeps MS ms,
 *                        saying so on stderr as it starts ("faultfs:
 *                        delaying the read at OFF", OFF the read's), so
 *                        that a test can await the stuck read
 *   --intr               a delay ends early when the kernel interrupts the
 *                        request (the caller is killed); without it the
 *                        caller waits the delay out, uninterruptibly, like
 *                        an I/O stuck in a device
 *
 * Every other argument goes to libfuse (-f: stay in the foreground).
 * /data is opened in direct_io mode, so each read(2) of the caller is one
 * request here, whole (up to the kernel's max_read): no page cache, no
 * readahead, and a short reply reaches the caller as a short read. Reads
 * return a fixed pattern; writes are accepted and dropped.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fuse.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define FAULTS_MAX	64

struct fault {
	uint64_t off;
	unsigned ms;		/* --delay only */
};

struct fault_list {
	struct fault f[FAULTS_MAX];
	unsigned n;
};

struct faultfs {
	uint64_t size;
	bool intr;
	struct fault_list eio, weio, eagain, shorts, delay;
};

static const char data_path[] = "/data";

static struct faultfs *fs_get(void)
{
	return fuse_get_context()->private_data;
}

/* The first fault of l inside [off, off + len), or NULL. */
static const struct fault *fault_find(const struct fault_list *l,
				      uint64_t off, uint64_t len)
{
	unsigned i;

	for (i = 0; i < l->n; i++)
		if (l->f[i].off >= off && l->f[i].off - off < len)
			return &l->f[i];
	return NULL;
}

static int fs_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, data_path))
		return -ENOENT;
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)fs_get()->size;
	st->st_blksize = 4096;
	st->st_blocks = (blkcnt_t)((fs_get()->size + 511) / 512);
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, data_path + 1, NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, data_path))
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

/*
 * Returns -EINTR when the kernel interrupted the request (mounted with
 * -o intr: the caller got a signal, or is being killed), else 0.
 */
static int sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		if (fuse_interrupted())
			return -EINTR;
	return 0;
}

static int fs_read(const char *path, char *buf, size_t len, off_t off,
		   struct fuse_file_info *fi)
{
	struct faultfs *fs = fs_get();
	const struct fault *d;
	uint64_t o = (uint64_t)off;
	size_t i;

	if (o >= fs->size)
		return 0;
	if (len > fs->size - o)
		len = (size_t)(fs->size - o);
	d = fault_find(&fs->delay, o, len);
	if (d) {
		fprintf(stderr, "faultfs: delaying the read at %llu\n",
			(unsigned long long)o);
		if (sleep_ms(d->ms))
			return -EINTR;
	}
	if (fault_find(&fs->eio, o, len))
		return -EIO;
	if (fault_find(&fs->eagain, o, len))
		return -EAGAIN;
	if (len > 1 && fault_find(&fs->shorts, o, len))
		len /= 2;
	for (i = 0; i < len; i++)
		buf[i] = (char)((o + i) * 131 >> 3);
	return (int)len;
}

static int fs_write(const char *path, const char *buf, size_t len,
		    off_t off, struct fuse_file_info *fi)
{
	if (fault_find(&fs_get()->weio, (uint64_t)off, len))
		return -EIO;
	return (int)len;
}

/* The size is fixed: accept truncation and fsync as no-ops. */
static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	return strcmp(path, data_path) ? -ENOENT : 0;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	return 0;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	struct faultfs *fs = fuse_get_context()->private_data;

	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->intr = fs->intr;
	return fs;
}

static const struct fuse_operations fs_ops = {
	.init = fs_init,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.fsync = fs_fsync,
};

/* "4096", "1m", "64k": bytes; -1 on anything else. */
static int parse_size(const char *s, char **end, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;

	errno = 0;
	v = strtoull(s, end, 0);
	if (errno || *end == s)
		return -1;
	switch (**end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	}
	if (shift)
		(*end)++;
	*out = (uint64_t)v << shift;
	return 0;
}

/* OFF,OFF,... or, with ms, OFF:MS,... */
static int parse_list(const char *s, struct fault_list *l, bool ms)
{
	char *end;

	while (*s) {
		if (l->n == FAULTS_MAX || parse_size(s, &end, &l->f[l->n].off))
			return -1;
		if (ms) {
			if (*end != ':')
				return -1;
			s = end + 1;
			l->f[l->n].ms = (unsigned)strtoul(s, &end, 10);
			if (end == s)
				return -1;
		}
		l->n++;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

static const struct {
	const char *name;
	size_t list;		/* offsetof the fault list */
	bool ms;
} fault_opts[] = {
	{ "--eio=", offsetof(struct faultfs, eio), false },
	{ "--weio=", offsetof(struct faultfs, weio), false },
	{ "--eagain=", offsetof(struct faultfs, eagain), false },
	{ "--short=", offsetof(struct faultfs, shorts), false },
	{ "--delay=", offsetof(struct faultfs, delay), true },
};

/* Take our options out of argv; returns the new argc or -1. */
static int parse_args(int argc, char **argv, struct faultfs *fs)
{
	int i, n = 1;
	size_t k, len;
	char *end;

	for (i = 1; i < argc; i++) {
		for (k = 0; k < sizeof(fault_opts) / sizeof(fault_opts[0]);
		     k++) {
			len = strlen(fault_opts[k].name);
			if (!strncmp(argv[i], fault_opts[k].name, len))
				break;
		}
		if (k < sizeof(fault_opts) / sizeof(fault_opts[0])) {
			if (parse_list(argv[i] + len, (struct fault_list *)
				       ((char *)fs + fault_opts[k].list),
				       fault_opts[k].ms))
				goto bad;
		} else if (!strcmp(argv[i], "--intr")) {
			fs->intr = true;
		} else if (!strncmp(argv[i], "--size=", 7)) {
			if (parse_size(argv[i] + 7, &end, &fs->size) || *end)
				goto bad;
		} else {
			argv[n++] = argv[i];
		}
	}
	return n;
bad:
	fprintf(stderr, "faultfs: bad option '%s'\n", argv[i]);
	return -1;
}

static void on_intr(int sig)
{
}

int main(int argc, char **argv)
{
	static struct faultfs fs = { .size = 16ull << 20 };
	struct sigaction sa = { .sa_handler = on_intr };

	argc = parse_args(argc, argv, &fs);
	if (argc < 0)
		return 2;
	/*
	 * libfuse interrupts a request by sending SIGUSR1 to the thread
	 * serving it (cfg->intr), but installs no handler when intr is set
	 * from init(): this one, without SA_RESTART, ends the nanosleep.
	 */
	if (fs.intr)
		sigaction(SIGUSR1, &sa, NULL);
	return fuse_main(argc, argv, &fs_ops, &fs);
}
