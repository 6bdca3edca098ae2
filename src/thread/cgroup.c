// SPDX-License-Identifier: MIT
/*
 * cgroup= (cgroup.h). Jobs are threads here, and cgroup v1 moves single
 * threads (a tid into "tasks"), so each clone joins on its own thread, as
 * fio's job processes do. cgroup v2 moves whole processes unless the
 * group is threaded: refused with that reason.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"

/* Groups this run made, to remove when the last thread leaves. */
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;
static char *made[64];

int cgroup_wanted(const struct job *j)
{
	return j->cpu.cgroup || j->cpu.cgroup_weight;
}

int cgroup_name_ok(const char *name, char *why, size_t whylen)
{
	const char *p = name;
	size_t n;

	for (;;) {
		n = strcspn(p, "/");
		if (!n || n > 200 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.') ||
		    strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
			   "wxyz0123456789._-") < n)
			break;
		if (!p[n])
			return 0;
		p += n + 1;
	}
	snprintf(why, whylen, "expected a control group name (letters, "
		 "digits, '.', '_', '-', nested with '/')");
	return -EINVAL;
}

/* The blkio hierarchy's mount point from /proc/self/mountinfo; v2 set
 * when only a cgroup2 mount is there. */
static int blkio_root(char *path, size_t len, int *v2)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024], mnt[512], fs[64], opts[512];
	char *dash;
	int found = 0;

	*v2 = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %511s", fs, opts) != 2)
			continue;
		if (!strcmp(fs, "cgroup") && strstr(opts, "blkio")) {
			snprintf(path, len, "%s", mnt);
			found = 1;
			*v2 = 0;
			break;
		}
		if (!strcmp(fs, "cgroup2") && !found) {
			snprintf(path, len, "%s", mnt);
			*v2 = 1;
			found = 2;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

static int write_num(const char *dir, const char *file, unsigned long v)
{
	char p[1100];
	FILE *f;
	int r = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	f = fopen(p, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%lu", v) < 0)
		r = -errno;
	if (fclose(f) && !r)
		r = -errno;
	return r;
}

static int weight(const char *dir, unsigned long w)
{
	char p[1100];

	/* blkio.weight went with cfq; bfq's is blkio.bfq.weight. */
	snprintf(p, sizeof(p), "%s/blkio.weight", dir);
	if (!access(p, F_OK))
		return write_num(dir, "blkio.weight", w);
	snprintf(p, sizeof(p), "%s/blkio.bfq.weight", dir);
	if (!access(p, F_OK))
		return write_num(dir, "blkio.bfq.weight", w);
	return -ENOENT;
}

static const char *group_name(const struct job *j)
{
	return j->cpu.cgroup ? j->cpu.cgroup : j->desc.name;
}

/* A job's name as one directory: no '/', not "." or "..", not empty,
 * at most NAME_MAX bytes, no newline (which cgroup v1 refuses). */
static bool one_component(const char *n)
{
	return *n && strcmp(n, ".") && strcmp(n, "..") && !strchr(n, '/') &&
	       !strchr(n, '\n') && strlen(n) <= 255;
}

int cgroup_check(const struct job *j, char *why, size_t whylen)
{
	if (!cgroup_wanted(j) || j->cpu.cgroup || one_component(j->desc.name))
		return 0;
	snprintf(why, whylen, "the job's name '%.200s' names its control "
		 "group (no cgroup= given), and that name must be one "
		 "directory of the blkio hierarchy; expected a job name "
		 "without '/' (not '.' or '..', at most 255 bytes), or "
		 "cgroup=NAME", j->desc.name);
	return -EINVAL;
}

/* dir, when this run made it, is removed unless cgroup_nodelete; busy
 * while another clone is still in it, which then removes it. */
static void drop_made(const struct job *j, const char *dir)
{
	size_t i;

	if (j->cpu.cgroup_nodelete)
		return;
	pthread_mutex_lock(&made_lock);
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		if (made[i] && !strcmp(made[i], dir) && !rmdir(dir)) {
			free(made[i]);
			made[i] = NULL;
		}
	}
	pthread_mutex_unlock(&made_lock);
}

int cgroup_join(const struct job *j, char *why, size_t whylen)
{
	char root[512], dir[1024];
	bool mine = false;
	int v2, r;
	size_t i;

	/* planned (cgroup_check): never a path out of the hierarchy */
	if ((r = cgroup_check(j, why, whylen)))
		return r;
	r = blkio_root(root, sizeof(root), &v2);
	if (r || v2) {
		snprintf(why, whylen, "cgroup=%s: %s", group_name(j), r ?
			 "no cgroup blkio hierarchy is mounted" :
			 "only cgroup v2 is mounted: it moves whole processes "
			 "and iorig's jobs are threads (mount the v1 blkio "
			 "controller)");
		return r ? r : -EOPNOTSUPP;
	}
	snprintf(dir, sizeof(dir), "%s/%s", root, group_name(j));
	pthread_mutex_lock(&made_lock);
	if (!mkdir(dir, 0755)) {
		for (i = 0; i < sizeof(made) / sizeof(made[0]) && made[i]; i++)
			;
		if (i < sizeof(made) / sizeof(made[0]))
			made[i] = strdup(dir);
		else
			mine = true;	/* not listed: removed below */
	} else if (errno != EEXIST) {
		r = -errno;
		pthread_mutex_unlock(&made_lock);
		snprintf(why, whylen, "cgroup: cannot make %s: %s", dir,
			 strerror(-r));
		return r;
	}
	pthread_mutex_unlock(&made_lock);
	if (j->cpu.cgroup_weight && (r = weight(dir, j->cpu.cgroup_weight)))
		snprintf(why, whylen, "cgroup_weight=%lu: %s: %s",
			 (unsigned long)j->cpu.cgroup_weight, dir,
			 r == -ENOENT ?
			 "no blkio.weight nor blkio.bfq.weight (the bfq "
			 "scheduler gives weights)" : strerror(-r));
	else if ((r = write_num(dir, "tasks",
				(unsigned long)syscall(SYS_gettid))))
		snprintf(why, whylen, "cgroup: cannot join %s: %s", dir,
			 strerror(-r));
	/* Not joined: a group made for it goes (unless another clone is in
	 * it, or cgroup_nodelete), as cgroup_leave would remove it. */
	if (r && mine && !j->cpu.cgroup_nodelete)
		rmdir(dir);
	else if (r)
		drop_made(j, dir);
	return r;
}

void cgroup_leave(const struct job *j)
{
	char root[512], dir[1024];
	int v2;

	if (blkio_root(root, sizeof(root), &v2) || v2)
		return;
	write_num(root, "tasks", (unsigned long)syscall(SYS_gettid));
	if (j->cpu.cgroup_nodelete)
		return;
	snprintf(dir, sizeof(dir), "%s/%s", root, group_name(j));
	drop_made(j, dir);
}
