// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
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
