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
