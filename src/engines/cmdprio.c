// SPDX-License-Identifier: MIT
/*
 * The cmdprio_* options' checks, for the engines that declare them
 * (cmdprio.h); procattr.c parses them, the worker draws from them.
 */
#include <errno.h>
#include <string.h>

#include "cmdprio.h"
#include "err.h"
#include "job.h"

int cmdprio_valid_pair(const struct opt_def *o, const char *val, char *why,
		       size_t whylen)
{
	unsigned out[2];

	return procattr_pair_parse(val, (unsigned)o->max, out, why, whylen);
}

int cmdprio_valid_bssplit(const struct opt_def *o, const char *val,
			  char *why, size_t whylen)
{
	static const unsigned def[2];

	return procattr_cmdprio_bssplit_parse(val, 1024, def, NULL, why,
					      whylen);
}

int cmdprio_check(const struct job *j, const struct cmdprio_opts *c,
		  struct err_rec *e)
{
	if (!c->bssplit || !*c->bssplit || !c->percentage ||
	    strspn(c->percentage, "0,") == strlen(c->percentage))
		return 0;
	err_set(e, j->section_file, j->section_line, "cmdprio_bssplit",
		"cmdprio_percentage=%s is set too: the two choose which I/Os "
		"carry a priority in two ways, one of them only (fio refuses "
		"both)", c->percentage);
	return -EINVAL;
}
