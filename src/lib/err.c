// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

void err_set(struct err_rec *e, const char *file, int line,
	     const char *option, const char *fmt, ...)
{
	va_list ap;

	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	e->line = line;
	snprintf(e->option, sizeof(e->option), "%s", option ? option : "");
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

int err_format(const struct err_rec *e, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (!strcmp(e->file, ERR_CMDLINE) && e->line > 0)
		n += snprintf(buf + n, len - n, "command line argument %d: ",
			      e->line);
	else if (e->file[0] && e->line > 0)
		n += snprintf(buf + n, len - n, "%s:%d: ", e->file, e->line);
	else if (e->file[0])
		n += snprintf(buf + n, len - n, "%s: ", e->file);
	if (n < len && e->option[0])
		n += snprintf(buf + n, len - n, "option '%s': ", e->option);
	if (n < len)
		n += snprintf(buf + n, len - n, "%s", e->msg);
	return n < len ? (int)n : (int)len - 1;
}

void err_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

int err_list_init(struct err_list *l)
{
	l->n = 0;
	l->full = 0;
	l->recs = calloc(ERR_LIST_MAX, sizeof(*l->recs));
	return l->recs ? 0 : -ENOMEM;
}

void err_list_free(struct err_list *l)
{
	free(l->recs);
	l->recs = NULL;
	l->n = 0;
}

static int err_same(const struct err_rec *a, const struct err_rec *b)
{
	return a->line == b->line && !strcmp(a->file, b->file) &&
	       !strcmp(a->option, b->option) && !strcmp(a->msg, b->msg);
}

static struct err_list *collecting;

void err_collect(struct err_list *l)
{
	collecting = l;
}

int err_keep(const struct err_rec *e)
{
	struct err_list *l = collecting;
	size_t i;

	if (!l || !l->recs)
		return 0;
	for (i = 0; i < l->n; i++)
		if (err_same(&l->recs[i], e))
			return 1;
	if (l->n == ERR_LIST_MAX) {
		l->full = 1;
		return 0;
	}
	l->recs[l->n++] = *e;
	return 1;
}

size_t err_count(const struct err_rec *e)
{
	(void)e;
	return collecting ? collecting->n : 0;
}

void err_list_sort(struct err_list *l)
{
	size_t rank[ERR_LIST_MAX], i, j, k;
	struct err_rec tmp;
	size_t r;

	for (i = 0; i < l->n; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(l->recs[k].file, l->recs[i].file))
				break;
		rank[i] = k < i ? rank[k] : i;
	}
	/* Insertion sort: stable, and there are at most ERR_LIST_MAX. */
	for (i = 1; i < l->n; i++) {
		tmp = l->recs[i];
		r = rank[i];
		for (j = i; j > 0 && (rank[j - 1] > r || (rank[j - 1] == r &&
		     l->recs[j - 1].line > tmp.line)); j--) {
			l->recs[j] = l->recs[j - 1];
			rank[j] = rank[j - 1];
		}
		l->recs[j] = tmp;
		rank[j] = r;
	}
}
