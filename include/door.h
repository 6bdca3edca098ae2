/* SPDX-License-Identifier: MIT */
#ifndef IORIG_DOOR_H
#define IORIG_DOOR_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "err.h"

/*
 * The one door for every file iorig writes, maps or removes besides the
 * targets' own I/O (src/target/target.c and the engines' requests): the report,
 * the stream, logs and traces, verify state and dumps, prerun/postrun and
 * exec output, charts and their data and scripts, `iorig plot`, `report
 * --html`, `merge`, --rank-output, unix sockets, buffer files, e4defrag
 * donors. A feature never opens, creates, maps or removes such a file on
 * its own (tests/cli/210-one-door.sh reads the sources and the objects).
 *
 * Through the door a path is:
 * - never a block device, nor a character device other than /dev/null,
 *   /dev/zero, /dev/full and terminals (the names of the standard
 *   streams, /dev/stdout..., are written to whatever they are);
 * - never a new name in /dev (devtmpfs: a file, socket or directory made
 *   there is a device name that was mistyped or is missing);
 * - never a file a job of the run reads or writes (the fence: by inode,
 *   and by resolved name for files not made yet), checked at plan time
 *   (exit 2, naming both) and again when the file is opened and renamed;
 * - never reached through a symlink that sits in a sticky world-writable
 *   directory (/tmp) and is owned by neither the caller nor the
 *   directory's owner: the kernel's fs.protected_symlinks rule, applied
 *   whether the machine has it on or not;
 * - written whole (a temporary file beside it, renamed over it when
 *   complete: a failed or killed run leaves the old file as it was), or
 *   written in place only where that is its meaning (the stream, a FIFO,
 *   a terminal), or appended to with the open file checked again.
 * Callers validate what they will write (formats, arguments) before they
 * open: nothing is truncated before that.
 *
 * Removal: only of an inode this run made, checked when it is removed:
 * the name is looked up again (fstatat, no symlink followed) on a
 * descriptor of its directory held since the file was made, and removed
 * (unlinkat) only while it still names that inode.
 */

/* ---- the fence: what the run's jobs read or write ---- */

struct door_fence;

/* NULL on out of memory. */
struct door_fence *door_fence_new(void);
/* path is `what`, as the messages say it after "is" (e.g. "a file one
 * of the jobs reads or writes ('d', of job 'w')"): 0 or -ENOMEM. */
int door_fence_add(struct door_fence *f, const char *path, const char *what);
void door_fence_free(struct door_fence *f);
/* The fence's entry that path is (same inode of a regular file, else
 * the same resolved name), or NULL. */
const char *door_fence_hit(const struct door_fence *f, const char *path);

/*
 * The files one job writes through the door, named at plan time (so that
 * the fence can be checked before anything runs): each module adds the
 * names it will open (iolog_names, jobexec_names...).
 */
struct door_name {
	char *path;
	const char *option;	/* static: the option that names it */
	bool socket;		/* a unix socket (door_check_socket) */
};

struct door_names {
	struct door_name *v;
	size_t n, cap;
};

/* Adds the name fmt makes: 0 or -ENOMEM. */
int door_names_add(struct door_names *l, const char *option,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void door_names_free(struct door_names *l);

/* ---- the rules, looked at only ---- */

/*
 * Whether path may be written through the door (f: NULL, no fence).
 * Looks only: 0, or -EINVAL with e (file: path, the option) saying why.
 */
int door_check(const char *path, const char *option,
	       const struct door_fence *f, struct err_rec *e);
/*
 * door_check for the path of a unix socket this run will bind: an
 * existing socket passes when no socket is bound to it (one left behind,
 * which door_bind_unix replaces, as fio does); a socket another process
 * holds does not. 0, or -EINVAL with e.
 */
int door_check_socket(const char *path, const char *option,
		      const struct door_fence *f, struct err_rec *e);
/*
 * a and b (NULL: standard output) are one regular file: the same inode
 * where both exist (a link, /dev/stdout, standard output redirected to
 * it), else the same resolved name.
 */
bool door_same(const char *a, const char *b);

/* ---- writing a file ---- */

enum door_mode {
	DOOR_WHOLE,	/* a temporary file renamed over path at close */
	DOOR_INPLACE,	/* truncated and written in place (the stream) */
	DOOR_APPEND,	/* added to the end of what path holds */
};

/*
 * A file being written. f is a stdio stream that keeps the first write
 * error's errno (err), so a failed write names the real cause; writes
 * interrupted by a signal are retried. fd may be handed to a child
 * (dup2) that writes it.
 */
struct door_out {
	const char *path;	/* NULL: standard output */
	const char *option;	/* for messages */
	const struct door_fence *fence;
	char *tmp;		/* renamed to path at the end; NULL: none */
	/* fd is an unnamed file (O_TMPFILE) that door_close() names tmp
	 * just before the rename: a run killed before leaves nothing. */
	bool anon;
	int fd;
	int err;		/* first write error (errno), 0: none */
	FILE *f;
	/* after door_close: the inode path names (a regular file) */
	dev_t dev;
	ino_t ino;
};

/*
 * Opens path (NULL: standard output) after door_check: DOOR_WHOLE
 * through a temporary file beside it (".NAME.XXXXXX" or an unnamed one,
 * with the mode the file has or a new one gets) where path is a regular
 * file or none yet, else in place (a FIFO, /dev/null, a terminal).
 * What is open is checked again (type, fence). 0, or -errno with e; o is
 * closed on failure.
 */
int door_open(struct door_out *o, const char *path, const char *option,
	      enum door_mode mode, const struct door_fence *f,
	      struct err_rec *e);
/* All of len bytes to fd (EINTR and short writes retried): 0 or -errno. */
int door_write_all(int fd, const void *buf, size_t len);
/*
 * Writes n bytes at p with one write() after what o has buffered (more
 * only if the kernel takes part of it): opened DOOR_APPEND, the bytes
 * land together after whatever other writers appended. stdio would write
 * a large buffer in pieces (glibc: the largest multiple of its buffer at
 * once, the rest at the next flush), and another job's append could come
 * between them. 0, or -errno (also kept for door_close).
 */
int door_write_whole(struct door_out *o, const void *p, size_t n);
/*
 * Flushes and puts a temporary file in place (fsync, the fence checked
 * again, rename). 0, or -errno: the first write error, else what failed;
 * then the temporary file is removed. Closes o either way.
 */
int door_close(struct door_out *o);
/* Closes o; a temporary file is removed, the previous file kept. */
void door_discard(struct door_out *o);

/* ---- files this run makes and removes ---- */

/*
 * A name this run made: its directory (held), its last part, its inode.
 * dirfd -1: none.
 */
struct door_made {
	int dirfd;
	char *name;
	dev_t dev;
	ino_t ino;
};

#define DOOR_MADE_NONE { .dirfd = -1 }

/*
 * Makes path (O_CREAT | O_EXCL: never an existing file, no symlink
 * followed) after door_check, with open flags (O_RDWR or O_WRONLY, more
 * allowed) and mode, and records it in m. The descriptor, or -errno with
 * e.
 */
int door_create(struct door_made *m, const char *path, int flags,
		mode_t mode, const char *option, const struct door_fence *f,
		struct err_rec *e);
/* Makes directory path (door_check's rules) or takes the one there (not a
 * symlink in a shared directory): 0, or -errno with e. */
int door_mkdir(const char *path, const char *option, struct err_rec *e);
/*
 * A new private directory (mkdtemp, mode 0700) under TMPDIR (else /tmp),
 * named PREFIX-XXXXXX; its path in buf and its name in m. 0, or -errno
 * with e.
 */
int door_mkdtemp(struct door_made *m, const char *prefix, char *buf,
		 size_t len, struct err_rec *e);
/*
 * Removes m's name while it still names m's inode (a directory: when it
 * is empty), then forgets m. 0; -ESTALE when the name is another file
 * now (left alone), else -errno.
 */
int door_remove(struct door_made *m);
/* Forgets m, the file kept. */
void door_forget(struct door_made *m);
/* The directory of path's last part, held (O_PATH): a descriptor or
 * -errno. */
int door_dir_open(const char *path);
/* The last part of path (after its last '/'). */
const char *door_base(const char *path);
/*
 * Removes name in directory dirfd while it is the regular file dev/ino
 * (made by this run and recorded then). 0, -ESTALE (another file there
 * now: left alone), or -errno.
 */
int door_unlink_at(int dirfd, const char *name, dev_t dev, ino_t ino);
/* door_unlink_at on path's directory, held for the call. */
int door_unlink_own(const char *path, dev_t dev, ino_t ino);

/* ---- a database file (--history) ---- */

/*
 * A database that a library (SQLite) opens by name, checked before it
 * does: path and the names the library makes beside it (PATH-wal,
 * PATH-shm, PATH-journal) pass door_check (f: the fence), path is a
 * regular file or none yet (never a FIFO, a terminal, /dev/null or a
 * standard stream), and what is there is empty or starts as `magic`
 * (magic_len bytes, read here): another file is never handed to the
 * library, which would take it for a damaged database or write into it.
 * readonly (--readonly): an existing file only, opened by the caller for
 * reading. The name to open (resolved: the journals land beside the real
 * file) goes in db->path, the inode found in db->dev/ino (exists false:
 * none yet, the caller creates it). 0, or -errno with e (exit 2): -ENOENT
 * for a missing file under readonly, -EINVAL for a refused one.
 */
struct door_db {
	char *path;		/* resolved; door_db_free frees it */
	bool exists;
	dev_t dev;
	ino_t ino;
};

int door_db_check(struct door_db *db, const char *path, const char *option,
		  const void *magic, size_t magic_len, bool readonly,
		  const struct door_fence *f, struct err_rec *e);
/* Whether db->path still names the inode door_db_check saw (or, when
 * there was none, a regular file the caller has just made). */
bool door_db_same(const struct door_db *db);
void door_db_free(struct door_db *db);

/* ---- sockets and mapped buffers ---- */

/*
 * Binds the unix socket fd (of type type) to path after door_check and
 * records the socket file made in m. A socket already there is taken
 * over only when nothing listens on it (a connect is refused): a live
 * one is another process' (-EADDRINUSE); any other file is left
 * (-EEXIST); a path the rules refuse, -EPERM. 0, or -errno with why.
 */
int door_bind_unix(int fd, int type, const char *path, struct door_made *m,
		   char *why, size_t whylen);
/*
 * len bytes of memory backed by a new file of path's file system (mem=
 * mmap:FILE): an unnamed file (O_TMPFILE) in path's directory, mapped
 * shared; where the file system has no unnamed files, a new file beside
 * path made and removed (door_create, door_remove) once mapped. path
 * itself is never opened, made or removed. The mapping, or NULL with
 * why.
 */
void *door_map_new(const char *path, size_t len, int flags, char *why,
		   size_t whylen);

#endif
