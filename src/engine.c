// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "engine.h"

extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_pthread;

static const struct engine_ops *const engines[] = {
	&engine_sync,
	&engine_null,
	&engine_uring,
	&engine_libaio,
	&engine_pthread,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *const *e;

	for (e = engines; *e; e++)
		if (!strcmp((*e)->name, name) ||
		    ((*e)->alias && !strcmp((*e)->alias, name)))
			return *e;
	return NULL;
}

const struct engine_ops *const *engine_list(void)
{
	return engines;
}

void engine_print_help(FILE *f)
{
	const struct engine_ops *const *e;
	const char *const *o;
	size_t n;

	fprintf(f, "  values:\n");
	for (e = engines; *e; e++) {
		fprintf(f, "    %-12s %s\n", (*e)->name, (*e)->help);
		if ((*e)->alias)
			fprintf(f, "    %-12s also called %s\n", "",
				(*e)->alias);
		if ((*e)->flags & ENGINE_SYNC)
			fprintf(f, "    %-12s synchronous: one I/O at a time\n",
				"");
		if ((*e)->flags & ENGINE_ASYNC_NEEDS_DIRECT)
			fprintf(f, "    %-12s asynchronous with direct=1 only\n",
				"");
		if (!(*e)->options)
			continue;
		n = (size_t)fprintf(f, "    %-12s options:", "");
		for (o = (*e)->options; *o; o++) {
			if (n + 1 + strlen(*o) > 79)	/* under "options:" */
				n = (size_t)fprintf(f, "\n%25s", "") - 1;
			n += (size_t)fprintf(f, " %s", *o);
		}
		fprintf(f, "\n");
	}
}

int engine_seccomp_mode(void)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");
	int mode = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode;
}
