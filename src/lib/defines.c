// SPDX-License-Identifier: MIT
/*
 * The names the program itself defines for ${NAME} in job files
 * (iorig-mpi: RANK, NRANKS, LOCAL_RANK, HOSTNAME; include/defines.h).
 * Set once by the face before the job files are read, read by the job
 * file reader and by the target's filename_format ($clientuid): below
 * both, so neither calls the other for them.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "defines.h"

/*
 * Names the program defines (iorig-mpi: RANK, NRANKS, LOCAL_RANK,
 * HOSTNAME): ${NAME} takes them before the environment.
 */
#define DEFINES_MAX	8
static struct {
	char name[32];
	char value[256];
} defined[DEFINES_MAX];
static size_t ndefined;

int defines_set(const char *name, const char *value)
{
	size_t i;

	if (strlen(name) >= sizeof(defined[0].name) ||
	    strlen(value) >= sizeof(defined[0].value))
		return -E2BIG;
	for (i = 0; i < ndefined; i++)
		if (!strcmp(defined[i].name, name))
			break;
	if (i == DEFINES_MAX)
		return -ENOSPC;
	strcpy(defined[i].name, name);
	strcpy(defined[i].value, value);
	if (i == ndefined)
		ndefined++;
	return 0;
}

const char *defines_get(const char *name)
{
	size_t i;

	for (i = 0; i < ndefined; i++)
		if (!strcmp(defined[i].name, name))
			return defined[i].value;
	return NULL;
}
