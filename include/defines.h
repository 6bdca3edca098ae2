/* SPDX-License-Identifier: MIT */
#ifndef IORIG_DEFINES_H
#define IORIG_DEFINES_H

/*
 * A name ${NAME} takes before the environment (iorig-mpi defines RANK,
 * NRANKS, LOCAL_RANK and HOSTNAME); defines_get gives its value or NULL.
 * defines_set returns 0, -E2BIG (name of 32 bytes or value of 256 or
 * more), or -ENOSPC (table full).
 */
int defines_set(const char *name, const char *value);
const char *defines_get(const char *name);

#endif
