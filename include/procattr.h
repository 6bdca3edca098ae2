/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PROCATTR_H
#define IORIG_PROCATTR_H

/*
 * What a job sets on its own thread and where its I/O buffers come from:
 * nice=, prio=/prioclass=/priohint= (ioprio_set), mem=/iomem= with
 * mem_align= and hugepage-size=, lockmem=. All of it runs once, at a
 * worker's setup and teardown: nothing per I/O.
 */
#include <stddef.h>
#include <stdint.h>

#include "job.h"

enum mem_type {
	MEM_MALLOC,
	MEM_SHM,
	MEM_SHMHUGE,
	MEM_MMAP,
	MEM_MMAPHUGE,
	MEM_MMAPSHARED,
};

/* mem=TYPE[:FILE]. Returns 0, or -EINVAL with why filled; *file points
 * into val (NULL when none). */
int procattr_mem_parse(const char *val, enum mem_type *type,
		       const char **file, char *why, size_t whylen);

/* nice=: -20..19. Returns 0 or -EINVAL with why filled. */
int procattr_nice_parse(const char *val, int *nice, char *why,
			size_t whylen);

/*
 * On the calling thread: nice=, then the I/O priority when any of prio,
 * prioclass, priohint is set (class best-effort when only the level is,
 * as fio 3.33 does). Returns 0 or -errno with why filled (the call and
 * its arguments).
 */
int procattr_apply(const struct job *j, char *why, size_t whylen);

/* The ioprio value (class << 13 | hint << 3 | level) the job asks for;
 * 0 when it sets none. */
unsigned procattr_ioprio(const struct job *j);

/* I/O buffers of `len` bytes, the first at an address that is a multiple
 * of align and of mem_align=, from the memory mem= names. */
struct procmem {
	void *base;		/* what to give back */
	size_t map_len;		/* mmap/shm: the mapping's length */
	enum mem_type type;
	void *lock;		/* lockmem=: the locked area, or NULL */
	size_t lock_len;
};

int procattr_mem_alloc(struct procmem *m, const struct job *j, size_t align,
		       size_t len, void **bufs, char *why, size_t whylen);
void procattr_mem_free(struct procmem *m);

#endif
