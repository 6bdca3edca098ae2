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
/* The jobs of --profile=NAME; the line is the word of the profile. */
#define ERR_PROFILE "<--profile>"

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

/*
 * Errors found in one pass over the input, as a compiler reports them:
 * up to ERR_LIST_MAX, printed in reading order. Readers that can go on
 * after an error (the line, the option are skipped) call err_keep.
 */
#define ERR_LIST_MAX 20

struct err_list {
	struct err_rec *recs;	/* ERR_LIST_MAX of them, allocated by
				 * err_list_init */
	size_t n;
	int full;		/* more errors than were kept */
};

/* 0, or -ENOMEM. */
int err_list_init(struct err_list *l);
void err_list_free(struct err_list *l);

/*
 * The list errors are collected in, for the main thread's parsing only
 * (main.c sets it before reading the input); NULL (the default): every
 * reader stops at its first error.
 */
void err_collect(struct err_list *l);

/*
 * Keep a copy of e in the collecting list (a copy equal to one kept is
 * dropped). Returns 1 when the caller may go on looking for more errors,
 * 0 when it must stop: no list, or the list is full.
 */
int err_keep(const struct err_rec *e);

/* Errors kept so far; 0 without a list. e is unused (the call site reads
 * as "errors of this parse"). */
size_t err_count(const struct err_rec *e);

/* Reading order: files in the order first seen, then by line; errors of
 * the same line keep the order they were found in. */
void err_list_sort(struct err_list *l);

void err_set(struct err_rec *e, const char *file, int line,
	     const char *option, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fill a parser's "what was expected" buffer; why may be NULL or 0 long. */
void err_why(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "file:line: option 'opt': msg" (parts omitted when empty). */
int err_format(const struct err_rec *e, char *buf, size_t len);

#endif
