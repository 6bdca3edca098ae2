// SPDX-License-Identifier: MIT
/* Warnings of a run: see warn.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "warn.h"

void warn_init(struct warn_list *w, FILE *echo)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	w->echo = echo;
}

void warn_exit(struct warn_list *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i].code);
		free(w->v[i].job);
		free(w->v[i].msg);
	}
	free(w->v);
	w->v = NULL;
	w->n = 0;
	pthread_mutex_destroy(&w->lock);
}

/*
 * The warnings whose case fio 3.33 speaks up about on stderr too, so that
 * iorig invoked as fio says them aloud; fio passes the rest in silence
 * (or says them on stdout: its iodepth "note", "Option ... is
 * deprecated"), and so does iorig as fio. "*_only" is any engine's: fio
 * refuses an option of another engine ("Bad option"). iorig's own
 * options (--chart) and the safety of the data (a device overwritten, a
 * failed run's layout undone) are said aloud under either name.
 */
static const char *const fio_says[] = {
	"time_based_no_runtime",	/* "time_based requires a runtime" */
	"*_only",			/* "Bad option <...>" */
	"blkflsbuf_failed",		/* the cache flush failed */
	"pre_read_direct",		/* fio's pre_read fails */
	"pre_read_failed",
	"overwrite_device",
	"layout_undone",
	"chart_not_drawn",
	NULL,
};

bool warn_fio_says(const char *code)
{
	const char *const *c;
	size_t n, k;

	for (c = fio_says; *c; c++) {
		if (**c != '*') {
			if (!strcmp(*c, code))
				return true;
			continue;
		}
		n = strlen(*c + 1);
		k = strlen(code);
		if (k > n && !strcmp(code + k - n, *c + 1))
			return true;
	}
	return false;
}

static bool loud(const struct warn_list *w, const char *code)
{
	return !w->as_fio || warn_fio_says(code);
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Takes msg (freed when dropped); call with the lock held. */
static void add_locked(struct warn_list *w, const char *code,
		       const char *job, char *msg, bool echo)
{
	struct warn_item *v, it = { 0 };
	size_t i;

	for (i = 0; i < w->n; i++) {
		if (same(w->v[i].code, code) && same(w->v[i].job, job) &&
		    !strcmp(w->v[i].msg, msg)) {
			free(msg);
			return;
		}
	}
	it.msg = msg;
	it.code = strdup(code);
	it.job = job ? strdup(job) : NULL;
	v = realloc(w->v, (w->n + 1) * sizeof(*v));
	if (!it.code || (job && !it.job) || !v) {
		free(it.code);
		free(it.job);
		free(msg);
		if (v)
			w->v = v;
		return;
	}
	w->v = v;
	w->v[w->n++] = it;
	if (echo && w->echo && loud(w, code))
		fprintf(w->echo, "iorig: warning: %s\n", msg);
}

void warn_vadd(struct warn_list *w, const char *code, const char *job,
	       const char *fmt, va_list ap)
{
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		return;
	pthread_mutex_lock(&w->lock);
	add_locked(w, code, job, msg, true);
	pthread_mutex_unlock(&w->lock);
}

void warn_add(struct warn_list *w, const char *code, const char *job,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_vadd(w, code, job, fmt, ap);
	va_end(ap);
}

void warn_add_job(struct warn_list *w, const char *code, const char *file,
		  int line, const char *job, const char *fmt, ...)
{
	char msg[ERR_MSG_MAX], text[ERR_TEXT_MAX];
	struct err_rec e;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_set(&e, file, line, "", "job '%s': %s", job, msg);
	err_format(&e, text, sizeof(text));
	warn_add(w, code, job, "%s", text);
}

void warn_copy(struct warn_list *w, const struct warn_list *from)
{
	size_t i;
	char *msg;

	pthread_mutex_lock(&w->lock);
	for (i = 0; i < from->n; i++) {
		msg = strdup(from->v[i].msg);
		if (msg)
			add_locked(w, from->v[i].code, from->v[i].job, msg,
				   false);
	}
	pthread_mutex_unlock(&w->lock);
}

void warn_print(const struct warn_list *w, FILE *f)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (loud(w, w->v[i].code))
			fprintf(f, "iorig: warning: %s\n", w->v[i].msg);
}

size_t warn_loud(const struct warn_list *w)
{
	size_t i, n = 0;

	for (i = 0; i < w->n; i++)
		n += loud(w, w->v[i].code);
	return n;
}
