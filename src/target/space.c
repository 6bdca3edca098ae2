// SPDX-License-Identifier: MIT
/*
 * Free space before a run: what every job's layout will write, added up
 * per file system (a file two jobs lay out counted once, at the most any
 * of them needs), against what statvfs says is free. A run that cannot
 * fit is refused before anything is written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "path.h"
#include "target.h"
#include "value.h"

/* One file layout writes to, for target_space_check. */
struct space_file {
	dev_t fs;		/* the file system it is on */
	dev_t dev;		/* an existing file's inode; 0, 0: a new one */
	ino_t ino;
	const char *path;	/* the job's (the target outlives the check) */
	const char *job;
	uint64_t need;		/* bytes layout writes there, most of any job */
	uint64_t avail;		/* statvfs: f_bavail * f_frsize */
	bool unknown;		/* statvfs cannot tell (proc, sysfs) */
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* What layout will write for one file of job j into *sf; -errno with e. */
static int space_of(const struct target *t, const struct target_file *tf,
		    const struct job *j, struct space_file *sf,
		    struct err_rec *e)
{
	uint64_t end = add_sat(tf->offset, tf->len), size;
	struct statvfs vfs;
	struct stat st;
	const char *at = tf->path;
	char *dir = NULL;
	int ret = 0;

	memset(sf, 0, sizeof(*sf));
	sf->path = tf->path;
	sf->job = j->desc.name;
	if (!stat(tf->path, &st)) {
		size = (uint64_t)st.st_size;
		sf->fs = st.st_dev;
		sf->dev = st.st_dev;
		sf->ino = st.st_ino;
		sf->need = end > size ? end - size : 0;
		sf->need = add_sat(sf->need, tf->holes_planned);
	} else {
		dir = path_dir(tf->path);
		if (!dir)
			return -ENOMEM;
		if (path_in_dev(dir)) {
			err_set(e, tf->path, 0, "filename", "does not exist, "
				"and iorig makes no regular file in /dev: is "
				"the device missing or its name mistyped? Give "
				"an existing block device, or a file outside "
				"/dev");
			ret = -ENODEV;
			goto out;
		}
		if (stat(dir, &st))
			goto out;	/* target_plan said so already */
		at = dir;
		sf->fs = st.st_dev;
		sf->need = end;
	}
	/* fill_device: the job writes until the file system is full */
	if (!sf->need || j->vfy.verify_only || j->target.fill_device)
		sf->need = 0;
	else if (!statvfs(at, &vfs) && vfs.f_blocks)
		sf->avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	else
		sf->unknown = true;	/* proc, sysfs: layout finds out */
out:
	free(dir);
	return ret;
}

int target_space_add(struct target_space *s, const struct target *t,
		     const struct job *j, struct err_rec *e)
{
	struct space_file sf, *v;
	unsigned i;
	size_t k;
	int ret;

	for (i = 0; i < t->nfiles; i++) {
		if (t->files[i].is_bdev)
			continue;
		ret = space_of(t, &t->files[i], j, &sf, e);
		if (ret)
			return ret;
		if (!sf.need)
			continue;
		/* The same file for several jobs: laid out once. */
		for (k = 0; k < s->n; k++) {
			v = &s->f[k];
			if (v->fs == sf.fs && (sf.ino ?
			    v->dev == sf.dev && v->ino == sf.ino :
			    !v->ino && !strcmp(v->path, sf.path)))
				break;
		}
		if (k < s->n) {
			if (sf.need > s->f[k].need)
				s->f[k] = sf;
			continue;
		}
		v = realloc(s->f, (s->n + 1) * sizeof(*v));
		if (!v) {
			err_set(e, sf.path, 0, "size", "out of memory");
			return -ENOMEM;
		}
		s->f = v;
		s->f[s->n++] = sf;
	}
	return 0;
}

/* Where the file system fs is mounted, from /proc/self/mountinfo. */
static void mount_of(dev_t fs, char *buf, size_t len)
{
	unsigned maj, mnr;
	char line[4096], mnt[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	snprintf(buf, len, "device %u:%u", major(fs), minor(fs));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &mnr,
			   mnt) == 3 && maj == major(fs) && mnr == minor(fs))
			snprintf(buf, len, "%s (device %u:%u)", mnt, maj,
				 mnr);
	fclose(f);
}

int target_space_check(const struct target_space *s, struct warn_list *w,
		       struct err_rec *e)
{
	char where[4200], need[32], avail[32];
	uint64_t sum;
	size_t k, m;

	for (k = 0; k < s->n; k++) {
		for (m = 0; m < k && s->f[m].fs != s->f[k].fs; m++)
			;
		if (m < k)
			continue;	/* this file system was summed */
		if (s->f[k].unknown) {
			mount_of(s->f[k].fs, where, sizeof(where));
			if (w)
				warn_add(w, "space_unknown", NULL, "the free "
					 "space of the file system at %s is "
					 "not known (statvfs gives no blocks), "
					 "so the layout of %s and any other "
					 "file there is not checked against it",
					 where, s->f[k].path);
			continue;
		}
		for (sum = 0, m = k; m < s->n; m++)
			if (s->f[m].fs == s->f[k].fs)
				sum = add_sat(sum, s->f[m].need);
		if (sum <= s->f[k].avail)
			continue;
		mount_of(s->f[k].fs, where, sizeof(where));
		value_fmt_bytes(sum, need, sizeof(need));
		value_fmt_bytes(s->f[k].avail, avail, sizeof(avail));
		err_set(e, s->f[k].path, 0, "size", "job '%s': not enough "
			"free space on the file system at %s: laying out the "
			"files of this run there (new files, extensions, "
			"holes a read job fills) needs %" PRIu64 " bytes "
			"(%s), and %" PRIu64 " bytes (%s) are available; "
			"free some space or give a smaller size=",
			s->f[k].job, where, sum, need, s->f[k].avail, avail);
		return -ENOSPC;
	}
	return 0;
}

void target_space_free(struct target_space *s)
{
	free(s->f);
	s->f = NULL;
	s->n = 0;
}
