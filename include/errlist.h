/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ERRLIST_H
#define IORIG_ERRLIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST (fio's syntax): up to three
 * groups separated by ',', each a ':'-separated list of errno names
 * (EIO, ENOSPC: the <errno.h> spelling) or numbers (decimal, 0x hex; a
 * minus sign is dropped, as fio does). A group given turns its direction's
 * continue_on_error on and limits it to the errors listed.
 */
#define ERRLIST_TYPES 3		/* read, write, verify */
#define ERRLIST_MAX 32		/* errors per group */

struct errlist {
	int err[ERRLIST_TYPES][ERRLIST_MAX];
	unsigned char n[ERRLIST_TYPES];	/* 0: the group was not given */
};

/* Parses val into *out (zeroed first). 0, or -EINVAL with why. */
int errlist_parse(const char *val, struct errlist *out, char *why,
		  size_t whylen);

/* err (positive errno) is in group type's list. */
static inline bool errlist_has(const struct errlist *l, unsigned type,
			       int err)
{
	unsigned i;

	for (i = 0; i < l->n[type]; i++)
		if (l->err[type][i] == err)
			return true;
	return false;
}

#endif
