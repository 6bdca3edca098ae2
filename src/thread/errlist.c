// SPDX-License-Identifier: MIT
/*
 * ignore_error= lists (errlist.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errlist.h"

/* The errno an <errno.h> name stands for; 0: none. glibc names each
 * number once; the two other spellings it has are added here. */
static int errno_by_name(const char *name)
{
	const char *n;
	int e;

	if (!strcmp(name, "EWOULDBLOCK"))
		return EWOULDBLOCK;
	if (!strcmp(name, "EDEADLOCK"))
		return EDEADLOCK;
	if (!strcmp(name, "ENOTSUP"))
		return ENOTSUP;
	for (e = 1; e < 4096; e++) {
		n = strerrorname_np(e);
		if (n && !strcmp(n, name))
			return e;
	}
	return 0;
}

static int one_error(const char *item, int *out, char *why, size_t whylen)
{
	const char *p = item;
	char *end;
	bool hex;
	long v;

	if (item[0] == 'E') {
		*out = errno_by_name(item);
		if (!*out) {
			snprintf(why, whylen, "'%s': not an errno name (EIO, "
				 "ENOSPC...) nor a number", item);
			return -EINVAL;
		}
		return 0;
	}
	if (*p == '-')
		p++;
	hex = !strncmp(p, "0x", 2) || !strncmp(p, "0X", 2);
	p += hex ? 2 : 0;
	errno = 0;
	v = isxdigit((unsigned char)*p) ? strtol(p, &end, hex ? 16 : 10) : 0;
	if (v <= 0 || *end || errno || v >= 4096) {
		snprintf(why, whylen, "'%s': expected an errno name (EIO, "
			 "ENOSPC...) or a positive number", item);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

int errlist_parse(const char *val, struct errlist *out, char *why,
		  size_t whylen)
{
	char *copy = strdup(val), *rest = copy, *group, *item, *isave;
	unsigned type = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!copy)
		return -ENOMEM;
	/* An empty group leaves its direction alone: ",ENOSPC" is writes */
	for (; !ret && (group = strsep(&rest, ",")); type++) {
		if (type == ERRLIST_TYPES) {
			snprintf(why, whylen, "'%s': expected at most three "
				 "lists, READ,WRITE,VERIFY", val);
			ret = -EINVAL;
			break;
		}
		for (item = strtok_r(group, ":", &isave); item && !ret;
		     item = strtok_r(NULL, ":", &isave)) {
			item += strspn(item, " \t");
			item[strcspn(item, " \t")] = '\0';
			if (!*item)
				continue;
			if (out->n[type] == ERRLIST_MAX) {
				snprintf(why, whylen, "more than %d errors "
					 "in one list", ERRLIST_MAX);
				ret = -EINVAL;
				break;
			}
			ret = one_error(item, &out->err[type][out->n[type]],
					why, whylen);
			if (!ret)
				out->n[type]++;
		}
	}
	free(copy);
	return ret;
}
