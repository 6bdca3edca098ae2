// SPDX-License-Identifier: MIT
/*
 * The cmdprio_* options' setters and checks, for the engines that declare
 * them (cmdprio.h): each value is parsed here once, into the typed fields
 * of the engine's struct cmdprio_opts; the worker draws from those
 * (procattr_cmdprio), never from the text.
 */
#include <errno.h>
#include <string.h>

#include "cmdprio.h"
#include "err.h"
#include "job.h"

/* The struct cmdprio_opts of base whose text field `text` (its offset in
 * the struct) is row o's. */
static struct cmdprio_opts *opts_of(void *base, const struct opt_def *o,
				    size_t text)
{
	return (struct cmdprio_opts *)((char *)base + o->off - text);
}

#define OPTS_OF(base, o, member) \
	opts_of(base, o, offsetof(struct cmdprio_opts, member))

/* A[,B] into out[2], left as it was when refused. */
static int store_pair(const struct opt_def *o, const char *val,
		      unsigned out[2], char *why, size_t whylen)
{
	unsigned v[2];
	int ret = procattr_pair_parse(val, (unsigned)o->max, v, why, whylen);

	if (!ret)
		memcpy(out, v, sizeof(v));
	return ret;
}

int cmdprio_store_percentage(void *base, const struct opt_def *o,
			     const char *val, unsigned kb_base, char *why,
			     size_t whylen)
{
	(void)kb_base;
	return store_pair(o, val, OPTS_OF(base, o, percentage)->pct, why,
			  whylen);
}

int cmdprio_store_class(void *base, const struct opt_def *o,
			const char *val, unsigned kb_base, char *why,
			size_t whylen)
{
	(void)kb_base;
	return store_pair(o, val, OPTS_OF(base, o, prio_class)->cls, why,
			  whylen);
}

int cmdprio_store_level(void *base, const struct opt_def *o,
			const char *val, unsigned kb_base, char *why,
			size_t whylen)
{
	(void)kb_base;
	return store_pair(o, val, OPTS_OF(base, o, level)->lvl, why, whylen);
}

int cmdprio_store_hint(void *base, const struct opt_def *o, const char *val,
		       unsigned kb_base, char *why, size_t whylen)
{
	(void)kb_base;
	return store_pair(o, val, OPTS_OF(base, o, hint)->hnt, why, whylen);
}

int cmdprio_store_bssplit(void *base, const struct opt_def *o,
			  const char *val, unsigned kb_base, char *why,
			  size_t whylen)
{
	struct cmdprio_opts *c = OPTS_OF(base, o, bssplit);
	struct cmdprio_tab tab[2];
	uint64_t dflt[2];
	int ret = procattr_cmdprio_bssplit_parse(val, kb_base, tab, dflt, why,
						 whylen);

	if (ret)
		return ret;
	memcpy(c->split_tab, tab, sizeof(tab));
	memcpy(c->dflt, dflt, sizeof(dflt));
	c->split = true;
	return 0;
}

int cmdprio_check(const struct job *j, const struct cmdprio_opts *c,
		  struct err_rec *e)
{
	/* an empty cmdprio_bssplit= is not refused: it sets no entry */
	if (!c->split || !*c->bssplit || (!c->pct[0] && !c->pct[1]))
		return 0;
	err_set(e, j->plan.section_file, j->plan.section_line,
		"cmdprio_bssplit",
		"cmdprio_percentage=%s is set too: the two choose which I/Os "
		"carry a priority in two ways, one of them only (fio refuses "
		"both)", c->percentage);
	return -EINVAL;
}
