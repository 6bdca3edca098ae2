/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ERR_H
#define IORIG_ERR_H

#include <limits.h>
#include <stddef.h>

/*
 * An error record filled by parsers and planners. Only main.c prints it.
 * file is "<command line>" for argv, "<stdin>" for "-", else the path.
 * line is 0 when not applicable. option is "" when not applicable.
 * msg says what was wrong and what was expected.
 */
/* The file name of options given on the command line; line = argv index. */
#define ERR_CMDLINE "<command line>"

/* Room for whole paths: a message may name two (file paths are never
 * cut). ERR_TEXT_MAX holds err_format's text of any record. */
#define ERR_MSG_MAX	(2 * PATH_MAX + 1024)
#define ERR_TEXT_MAX	(PATH_MAX + ERR_MSG_MAX + 128)

struct err_rec {
	char file[PATH_MAX];
	int line;
	char option[64];
	char msg[ERR_MSG_MAX];
};

void err_set(struct err_rec *e, const char *file, int line,
	     const char *option, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fill a parser's "what was expected" buffer; why may be NULL or 0 long. */
void err_why(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "file:line: option 'opt': msg" (parts omitted when empty). */
int err_format(const struct err_rec *e, char *buf, size_t len);

#endif
