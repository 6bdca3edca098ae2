// SPDX-License-Identifier: MIT
/* File names, compared and placed: see path.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "path.h"

char *path_dir(const char *path)
{
	char *dir = strdup(path), *slash;

	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	return dir;
}

char *path_resolved(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = path_dir(path), *real, *out = NULL;

	if (!dir)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	if (real && asprintf(&out, "%s/%s", strcmp(real, "/") ? real : "",
			     slash ? slash + 1 : path) < 0)
		out = NULL;
	free(real);
	return out;
}

bool path_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ra, *rb;
	bool same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ra = path_resolved(a);
	rb = path_resolved(b);
	same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

bool path_in_dev(const char *dir)
{
	char *real = realpath(dir, NULL);
	struct stat sd, sdev;
	bool r;

	if (!real)
		return false;
	r = (!strcmp(real, "/dev") || !strncmp(real, "/dev/", 5)) &&
	    !stat(real, &sd) && !stat("/dev", &sdev) &&
	    sd.st_dev == sdev.st_dev;
	free(real);
	return r;
}

/* The $ words of filename_format (target.c fills them). */
static const char *const fmt_words[] = {
	"$jobname", "$jobnum", "$filenum", "$clientuid",
};

size_t path_fmt_word(const char *s)
{
	size_t i, n;

	for (i = 0; i < sizeof(fmt_words) / sizeof(fmt_words[0]); i++) {
		n = strlen(fmt_words[i]);
		if (!strncasecmp(s, fmt_words[i], n))
			return n;
	}
	return 0;
}
