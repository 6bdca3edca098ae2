// SPDX-License-Identifier: MIT
/*
 * An engine's own options for a job (engine.h: engine_ops.options): the
 * engine's options struct (job.eng.eopts), made from its table's defaults and
 * the values the job gave, and the list of those values (job.eng.eng_args),
 * which is read again when ioengine= changes and for the engines a job
 * does not use. Rows are parsed and printed by options.c's machinery
 * (options_parse_row, options_format_row), into the struct's base.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "job.h"
#include "options.h"

static void *field(void *base, size_t off)
{
	return (char *)base + off;
}

static const void *cfield(const void *base, size_t off)
{
	return (const char *)base + off;
}

/* The first engine whose table has row o (an engine's row). */
static const struct engine_ops *row_engine(const struct opt_def *o)
{
	const struct engine_ops *const *e;

	for (e = engine_list(); *e; e++)
		if (options_find_in((*e)->options, o->name) == o)
			return *e;
	return NULL;
}

static void eopts_free(const struct engine_ops *eng, void *eo)
{
	const struct opt_def *o;

	for (o = eo ? eng->options : NULL; o && o->name; o++)
		if (o->type == OPT_STR)
			free(*(char **)field(eo, o->off));
	free(eo);
}

/*
 * eng's options struct in *out (NULL: eng has none): its defaults, then,
 * when given, each value j gave for one of eng's rows, in order (sizes
 * read with j's kb_base). 0, -ENOMEM, or -EINVAL with why filled.
 */
static int eopts_new(struct job *j, const struct engine_ops *eng,
		     bool given, void **out, char *why, size_t whylen)
{
	const struct opt_def *o;
	void *eo;
	unsigned i;
	int ret = 0;

	*out = NULL;
	if (!eng->options)
		return 0;
	eo = calloc(1, eng->options_size);
	if (!eo)
		return -ENOMEM;
	for (o = eng->options; !ret && o->name; o++)
		if (o->def)
			ret = options_parse_row(j, eo, o, o->def, why, whylen);
	for (i = 0; given && !ret && i < j->eng.neng_args; i++) {
		o = options_find_in(eng->options, j->eng.eng_args[i].name);
		if (o)
			ret = options_parse_row(j, eo, o, j->eng.eng_args[i].value, why,
					whylen);
	}
	if (ret) {
		eopts_free(eng, eo);
		return ret;
	}
	*out = eo;
	return 0;
}

static int eopts_copy(const struct engine_ops *eng, void **dst,
		      const void *src)
{
	const struct opt_def *o;
	char **s;

	*dst = NULL;
	if (!src)
		return 0;
	*dst = malloc(eng->options_size);
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, eng->options_size);
	for (o = eng->options; o->name; o++)
		if (o->type == OPT_STR)
			*(char **)field(*dst, o->off) = NULL;
	for (o = eng->options; o->name; o++) {
		s = field(*dst, o->off);
		if (o->type == OPT_STR && *(char *const *)cfield(src, o->off) &&
		    !(*s = strdup(*(char *const *)cfield(src, o->off)))) {
			eopts_free(eng, *dst);
			*dst = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/* Record an engine option as given (its row's name): 0 or -ENOMEM. */
static int eng_arg_add(struct job *j, const char *name, const char *value)
{
	struct engine_arg *a = realloc(j->eng.eng_args,
				       (j->eng.neng_args + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	j->eng.eng_args = a;
	a += j->eng.neng_args;
	a->name = strdup(name);
	a->value = strdup(value);
	if (!a->name || !a->value) {
		free(a->name);
		free(a->value);
		return -ENOMEM;
	}
	j->eng.neng_args++;
	return 0;
}

static void eng_args_free(struct job *j)
{
	unsigned i;

	for (i = 0; i < j->eng.neng_args; i++) {
		free(j->eng.eng_args[i].name);
		free(j->eng.eng_args[i].value);
	}
	free(j->eng.eng_args);
	j->eng.eng_args = NULL;
	j->eng.neng_args = 0;
}

/*
 * An engine's option o: into j's engine's struct when that engine has
 * it; otherwise read as the first engine with it reads it (its errors),
 * and only kept. Either way recorded, so that a later ioengine= (a sweep)
 * reads it again, and the planner sees what was given for other engines.
 */
int engopts_set(struct job *j, const struct opt_def *o, const char *val,
		char *why, size_t whylen)
{
	const struct opt_def *mine = j->eng.engine ?
		options_find_in(j->eng.engine->options, o->name) : NULL;
	const struct engine_ops *owner;
	void *eo;
	int ret;

	if (mine) {
		ret = options_parse_row(j, j->eng.eopts, mine, val, why,
					whylen);
	} else {
		owner = row_engine(o);
		ret = owner ? eopts_new(j, owner, false, &eo, why, whylen) :
		      -EINVAL;
		if (!ret) {
			ret = options_parse_row(j, eo, o, val, why, whylen);
			eopts_free(owner, eo);
		}
	}
	return ret ? ret : eng_arg_add(j, o->name, val);
}

/* The job now uses eng: its options struct made anew from what was
 * given. */
int engopts_switch(struct job *j, const struct engine_ops *eng, char *why,
		   size_t whylen)
{
	void *eo;
	int ret = eopts_new(j, eng, true, &eo, why, whylen);

	if (ret)
		return ret;
	if (j->eng.engine)
		eopts_free(j->eng.engine, j->eng.eopts);
	j->eng.eopts = eo;
	j->eng.engine = eng;
	return 0;
}

void *options_engine_given(const struct job *j, const struct engine_ops *eng)
{
	char why[256];
	void *eo;

	/* j is only read: the rows parsed are eng's, into eo */
	return eopts_new((struct job *)j, eng, true, &eo, why,
			 sizeof(why)) ? NULL : eo;
}

void options_engine_free(const struct engine_ops *eng, void *eo)
{
	eopts_free(eng, eo);
}

bool options_engine_is_set(const struct job *j, const struct engine_ops *eng,
			   const void *eo, const struct opt_def *o)
{
	char buf[256], def[256], why[256];
	void *d;

	options_format_row(j, eo, o, buf, sizeof(buf));
	if (eopts_new((struct job *)j, eng, false, &d, why, sizeof(why)) ||
	    !d)
		return false;
	options_format_row(j, d, o, def, sizeof(def));
	eopts_free(eng, d);
	return strcmp(buf, def) != 0;
}

int engopts_copy(struct job *dst, const struct job *src)
{
	unsigned k;

	dst->eng.eopts = NULL;
	dst->eng.eng_args = NULL;
	dst->eng.neng_args = 0;
	if (src->eng.engine &&
	    eopts_copy(src->eng.engine, &dst->eng.eopts, src->eng.eopts))
		return -ENOMEM;
	for (k = 0; k < src->eng.neng_args; k++)
		if (eng_arg_add(dst, src->eng.eng_args[k].name,
				src->eng.eng_args[k].value))
			return -ENOMEM;
	return 0;
}

void engopts_release(struct job *j)
{
	if (j->eng.engine)
		eopts_free(j->eng.engine, j->eng.eopts);
	j->eng.eopts = NULL;
	eng_args_free(j);
}
