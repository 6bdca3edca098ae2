/* SPDX-License-Identifier: MIT */
#ifndef IORIG_OPTIONS_H
#define IORIG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "job.h"
#include "optdef.h"

struct engine_ops;

/* The table, terminated by an entry with name == NULL. */
extern const struct opt_def options_table[];

/* Find by name or alias, in the job table, then in each engine's table
 * (a name engines share: the first engine's row); NULL when unknown. */
const struct opt_def *options_find(const char *name);
/* Find by name or alias in table t (NULL: none); NULL when not there. */
const struct opt_def *options_find_in(const struct opt_def *t,
				      const char *name);
/*
 * The options of j in the order --parse-only and the JSON report list
 * them: the job table's rows, with those of j's engine after the row
 * flagged OPT_F_ENGINE_NEXT. NULL starts, NULL after the last:
 *	for (o = options_next(j, NULL); o; o = options_next(j, o))
 */
const struct opt_def *options_next(const struct job *j,
				   const struct opt_def *o);

/* Nearest option name for a typo, or NULL when nothing is close or name
 * is one fio knows (never another option for a name of fio's). */
const char *options_suggest(const char *name);

/*
 * True when `name` is an option fio has and iorig does not (yet); the
 * error then says so instead of "unknown option".
 */
bool options_is_fio_only(const char *name);
/* name is an option whose value is a number (sizes, times, counts,
 * percentages, block sizes, rates): arithmetic may mean something. */
bool options_is_number(const char *name);
/* For such a name, the error to give (it says why); NULL otherwise. */
const char *options_fio_only_msg(const char *name);

/* Reset j to every option's default. Returns 0 or -errno. */
int options_defaults(struct job *j);

/*
 * Set one option from text. value NULL means the bare name (booleans: 1).
 * On error fills e (file, line, option, message naming the bad value and
 * what was expected) and returns -EINVAL.
 */
int options_set(struct job *j, const char *name, const char *value,
		const char *file, int line, struct err_rec *e);

/* The option's effective value in j as text ("" when unset, or a row of
 * an engine j does not use). */
void options_format(const struct job *j, const struct opt_def *o,
		    char *buf, size_t len);

/*
 * The machinery of a row, for a table other than the job's: parse val for
 * row o into base (j itself for the job table's rows, an engine's options
 * struct for its rows; sizes read with j's kb_base), why saying what was
 * expected; and o's value in base as text.
 */
int options_parse_row(struct job *j, void *base, const struct opt_def *o,
		      const char *val, char *why, size_t whylen);
void options_format_row(const struct job *j, const void *base,
			const struct opt_def *o, char *buf, size_t len);

/* ---- an engine's options for a job (src/plan/engopts.c) ---- */

/*
 * Engine option o (a row of an engine's table) given as val: into j's
 * engine's struct when that engine has it; otherwise read as the first
 * engine with it reads it (its errors), and only kept. Either way
 * recorded in j->eng.eng_args. 0, -ENOMEM, or -EINVAL with why filled.
 */
int engopts_set(struct job *j, const struct opt_def *o, const char *val,
		char *why, size_t whylen);
/* j now uses eng: its options struct made anew from eng's defaults and
 * the values given. 0, -ENOMEM, or -EINVAL with why filled. */
int engopts_switch(struct job *j, const struct engine_ops *eng, char *why,
		   size_t whylen);
/* dst (a copy of src's fields) gets its own eopts and eng_args: 0 or
 * -ENOMEM (what dst has is then its own, for engopts_release). */
int engopts_copy(struct job *dst, const struct job *src);
void engopts_release(struct job *j);

/*
 * Engine eng's options struct as j gives it: eng's defaults, then every
 * value j gave for one of eng's options, in order, whichever engine j
 * uses. NULL: eng has no options (or no memory). Freed with
 * options_engine_free.
 */
void *options_engine_given(const struct job *j, const struct engine_ops *eng);
void options_engine_free(const struct engine_ops *eng, void *eo);
/* Row o of eng's table has a value in eo other than its default (both as
 * options_format writes them). */
bool options_engine_is_set(const struct job *j, const struct engine_ops *eng,
			   const void *eo, const struct opt_def *o);

/* Deep copy (strings duplicated). Returns 0 or -ENOMEM. */
int job_copy(struct job *dst, const struct job *src);
void job_free(struct job *j);

/* --help, --cmdhelp, --cmdhelp=NAME. Return 0, or -ENOENT for an unknown
 * name (with the suggestion printed by the caller). */
void options_print_help(FILE *f);
int options_print_cmdhelp(FILE *f, const char *name);
/* --cmdhelp=NAME's description of one row (a job's or an engine's). */
void options_print_row(FILE *f, const struct opt_def *o);
/* --parse-only: every option of j (options_next) with its value. */
void options_print_job(FILE *f, const struct job *j);

#endif
