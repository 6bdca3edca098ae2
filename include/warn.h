/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WARN_H
#define IORIG_WARN_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Warnings: things a run does that the user may not expect, from plan
 * time and run time, in one list. Each has a short stable code (the
 * JSON report's "code"), the job it is about (or NULL) and the message;
 * stderr gets "iorig: warning: MESSAGE". A list is owned by the plan
 * (plan-time warnings) or the run result (all of them), never global.
 * warn_add may be called from any thread (a mutex; never on the hot
 * path). Failing to allocate a warning loses it, nothing else.
 */
struct warn_item {
	char *code;
	char *job;		/* NULL: about the run */
	char *msg;
};

struct warn_list {
	pthread_mutex_t lock;
	struct warn_item *v;
	size_t n;
	FILE *echo;		/* each new warning goes there too; NULL: no */
	/*
	 * Invoked as fio: only the warnings fio 3.33 also gives in the same
	 * case (warn_fio_says) are echoed or printed; the others are kept
	 * for the report all the same.
	 */
	bool as_fio;
};

void warn_init(struct warn_list *w, FILE *echo);
void warn_exit(struct warn_list *w);

/* Adds a warning, once: the same code, job and message again is dropped. */
void warn_add(struct warn_list *w, const char *code, const char *job,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void warn_vadd(struct warn_list *w, const char *code, const char *job,
	       const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
/* A warning about job `job`, said where its section is as errors say
 * it: "FILE:LINE: job 'NAME': MESSAGE" (the planner's, an engine's plan). */
void warn_add_job(struct warn_list *w, const char *code, const char *file,
		  int line, const char *job, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Adds every warning of from (not echoed again). */
void warn_copy(struct warn_list *w, const struct warn_list *from);
/* "iorig: warning: MESSAGE" for each that w says aloud, on f. */
void warn_print(const struct warn_list *w, FILE *f);
/* Does fio 3.33 speak up (a warning or an error on stderr) in the case
 * the warning code is about? */
bool warn_fio_says(const char *code);
/* The warnings of w said aloud: all of them, or as fio only fio's. */
size_t warn_loud(const struct warn_list *w);

#endif
