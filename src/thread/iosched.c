// SPDX-License-Identifier: MIT
/*
 * ioscheduler= (iosched.h): "none [mq-deadline] kyber bfq" is what the
 * kernel lists, the selected one in brackets; writing a name selects it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"

struct saved {
	char disk[32];
	char old[32];
};

static struct saved *saved;
static size_t nsaved;

int iosched_name_ok(const char *name, char *why, size_t whylen)
{
	size_t n = strlen(name);

	if (!n || n > 31 || strspn(name, "abcdefghijklmnopqrstuvwxyz"
				   "0123456789_-") != n) {
		snprintf(why, whylen, "expected a scheduler name such as "
			 "none, mq-deadline, kyber or bfq");
		return -EINVAL;
	}
	return 0;
}

/* The list, and the selected name in sel. */
static int read_list(const char *path, char *list, size_t len, char *sel,
		     size_t sellen)
{
	FILE *f = fopen(path, "r");
	char *a, *b;

	if (!f)
		return -errno;
	if (!fgets(list, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	list[strcspn(list, "\n")] = 0;
	*sel = 0;
	a = strchr(list, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b && (size_t)(b - a - 1) < sellen) {
		memcpy(sel, a + 1, (size_t)(b - a - 1));
		sel[b - a - 1] = 0;
	}
	return 0;
}

static int write_name(const char *path, const char *name)
{
	FILE *f = fopen(path, "w");
	int r = 0;

	if (!f)
		return -errno;
	if (fputs(name, f) < 0)
		r = -errno;
	if (fclose(f) && !r)
		r = -errno;
	return r;
}

int iosched_switch(const char *root, const char *disk, const char *want,
		   char *why, size_t whylen)
{
	char path[512], list[256], sel[32];
	struct saved *n;
	size_t i;
	int r;

	snprintf(path, sizeof(path), "%s/sys/block/%s/queue/scheduler", root,
		 disk);
	r = read_list(path, list, sizeof(list), sel, sizeof(sel));
	if (r) {
		snprintf(why, whylen, "ioscheduler=%s: cannot read %s: %s",
			 want, path, strerror(-r));
		return r;
	}
	if (!strcmp(sel, want))
		return 0;
	for (i = 0; i < nsaved && strcmp(saved[i].disk, disk); i++)
		;
	if (i == nsaved && *sel) {
		n = realloc(saved, (nsaved + 1) * sizeof(*saved));
		if (!n) {
			snprintf(why, whylen, "ioscheduler: out of memory");
			return -ENOMEM;
		}
		saved = n;
		snprintf(saved[nsaved].disk, sizeof(saved[nsaved].disk), "%s",
			 disk);
		snprintf(saved[nsaved].old, sizeof(saved[nsaved].old), "%s",
			 sel);
		nsaved++;
	}
	r = write_name(path, want);
	if (!r && !read_list(path, list, sizeof(list), sel, sizeof(sel)) &&
	    strcmp(sel, want))
		r = -EINVAL;
	if (r) {
		snprintf(why, whylen, "ioscheduler=%s: %s offers \"%s\": %s",
			 want, disk, list, strerror(-r));
		return r;
	}
	return 0;
}

void iosched_restore(const char *root)
{
	char path[512];
	size_t i;

	for (i = nsaved; i-- > 0;) {
		snprintf(path, sizeof(path), "%s/sys/block/%s/queue/scheduler",
			 root, saved[i].disk);
		if (write_name(path, saved[i].old))
			fprintf(stderr, "iorig: cannot put %s's I/O scheduler "
				"back to %s\n", saved[i].disk, saved[i].old);
	}
	free(saved);
	saved = NULL;
	nsaved = 0;
}
