// SPDX-License-Identifier: MIT
/* opendir=: the files below a directory as the job's file list. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "opendir.h"

#define OPENDIR_MAX	4096	/* as nrfiles */

struct names {
	char **v;
	size_t n, cap;
};

static int add_name(struct names *ns, const char *path)
{
	char **v;

	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? 2 * ns->cap : 16;
		v = realloc(ns->v, ns->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ns->v = v;
	}
	ns->v[ns->n] = strdup(path);
	return ns->v[ns->n] ? (ns->n++, 0) : -ENOMEM;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files below dir into ns; depth bounds a loop of bind mounts. */
static int walk(const char *dir, struct names *ns, unsigned depth,
		const char **bad)
{
	struct dirent *d;
	struct stat st;
	DIR *D;
	char *p;
	int ret = 0;

	if (depth > 64)
		return -ELOOP;
	D = opendir(dir);
	if (!D) {
		*bad = dir;
		return -errno;
	}
	while (!ret && (d = readdir(D))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		p = malloc(strlen(dir) + strlen(d->d_name) + 2);
		if (!p) {
			ret = -ENOMEM;
			break;
		}
		strcpy(p, dir);
		if (p[0] && p[strlen(p) - 1] != '/')
			strcat(p, "/");
		strcat(p, d->d_name);
		if (lstat(p, &st)) {
			if (errno != ENOENT)
				ret = -errno;	/* gone meanwhile: skipped */
		} else if (S_ISREG(st.st_mode)) {
			ret = ns->n < OPENDIR_MAX ? add_name(ns, p) : -E2BIG;
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk(p, ns, depth + 1, bad);
			if (ret && ret != -ENOMEM && *bad == p)
				*bad = dir;	/* p is freed below */
		}
		free(p);
	}
	closedir(D);
	return ret;
}

/* Length of s with each ':' escaped (filename='s "\\:"). */
static size_t esc_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += 1 + (*s == ':');
	return n;
}

int opendir_expand(struct job *j, struct err_rec *e)
{
	struct names ns = { 0 };
	const char *bad = j->target.opendir;
	size_t i, len;
	char *out, *o;
	const char *c;
	int ret;

	if (!j->target.opendir || !*j->target.opendir)
		return 0;
	ret = walk(j->target.opendir, &ns, 0, &bad);
	if (!ret && !ns.n)
		ret = -ENOENT;
	if (ret) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"opendir",
			"%s: %s; expected a directory with regular files "
			"below it (at most %d)", ret == -ENOENT && !ns.n ?
			j->target.opendir : bad, ret == -ENOENT && !ns.n ?
			"no regular file below it" : ret == -E2BIG ?
			"more files than the limit" : strerror(-ret),
			OPENDIR_MAX);
		goto out;
	}
	qsort(ns.v, ns.n, sizeof(*ns.v), cmp_name);
	len = j->target.filename ? strlen(j->target.filename) + 1 : 0;
	for (i = 0; i < ns.n; i++)
		len += esc_len(ns.v[i]) + 1;
	out = malloc(len + 1);
	if (!out) {
		ret = -ENOMEM;
		err_set(e, j->plan.section_file, j->plan.section_line,
			"opendir", "out of memory");
		goto out;
	}
	o = out;
	if (j->target.filename && *j->target.filename)
		o += sprintf(o, "%s:", j->target.filename);
	for (i = 0; i < ns.n; i++) {
		for (c = ns.v[i]; *c; c++) {
			if (*c == ':')
				*o++ = '\\';
			*o++ = *c;
		}
		*o++ = ':';
	}
	o[-1] = '\0';
	free(j->target.filename);
	j->target.filename = out;
out:
	for (i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	return ret;
}
