/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PROCATTR_H
#define IORIG_PROCATTR_H

/*
 * What a job sets on its own thread and where its I/O buffers come from:
 * nice=, comm= (the thread's name), prio=/prioclass=/priohint=
 * (ioprio_set), mem=/iomem= with mem_align= and hugepage-size=, lockmem=; and the words of two kernel
 * hints: write_hint= (fcntl F_SET_RW_HINT on each file at setup) and
 * sync_file_range= (the worker calls it every N writes). All but the
 * last run once, at a worker's setup and teardown.
 */
#include <stdbool.h>
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
 * On the calling thread: numa_cpu_nodes= (the CPUs of those nodes),
 * numa_mem_policy= (set_mempolicy), nice=, then the I/O priority when any of prio,
 * prioclass, priohint is set (class best-effort when only the level is,
 * as fio 3.33 does). Returns 0 or -errno with why filled (the call and
 * its arguments).
 */
int procattr_apply(const struct job *j, char *why, size_t whylen);

/*
 * uid=, gid= (fio switches its job process to them before the job does
 * any work). Jobs are threads here, and glibc's setuid()/setgid() change
 * every thread of the process, so these use the raw system calls, which
 * change the calling thread's credentials only (the kernel keeps them
 * per thread).
 *
 * procattr_cred_enter: the calling thread's effective (and so file
 * system) gid, then uid, become the job's, the real and saved ones stay,
 * so that procattr_cred_leave can give them back: the main thread opens
 * and lays out a job's files under the job's identity this way.
 * procattr_cred_drop: the worker's thread takes the job's gid, then uid,
 * as real, effective and saved ids, for good, first thing.
 * Both return 0 when the job sets neither, or -errno with why filled.
 */
struct procattr_cred {
	bool uid_on, gid_on;	/* what enter changed */
	unsigned euid, egid;	/* what leave restores */
};
int procattr_cred_enter(const struct job *j, struct procattr_cred *sv,
			char *why, size_t whylen);
void procattr_cred_leave(const struct procattr_cred *sv);
int procattr_cred_drop(const struct job *j, char *why, size_t whylen);
/*
 * fn(arg) as the job's user: on a thread of its own that drops to the
 * job's gid and uid (procattr_cred_drop) and ends with fn, so that the
 * calling thread and the process keep theirs; a program fn starts
 * (posix_spawn) has the job's ids, as fio's job process runs its
 * exec_prerun. A job that sets neither: fn(arg) on the calling thread.
 * Returns fn's value, or -errno with why filled.
 */
int procattr_as_job(const struct job *j, int (*fn)(void *), void *arg,
		    char *why, size_t whylen);

/* The ioprio value (class << 13 | hint << 3 | level) the job asks for;
 * 0 when it sets none. */
unsigned procattr_ioprio(const struct job *j);

/* I/O buffers, depth of stride bytes, the first at an address that is a
 * multiple of align and of mem_align=, from the memory mem= names; why
 * says what failed in full ("cannot allocate N bytes of I/O buffers
 * ..."). */
struct procmem {
	void *base;		/* what to give back */
	size_t map_len;		/* mmap/shm: the mapping's length */
	enum mem_type type;
	void *lock;		/* lockmem=: the locked area, or NULL */
	size_t lock_len;
};

int procattr_mem_alloc(struct procmem *m, const struct job *j, size_t align,
		       unsigned depth, size_t stride, void **bufs, char *why,
		       size_t whylen);
/* mem=mmap:FILE (and mmaphuge, mmapshared): FILE added to l, for the
 * door's plan-time check (door.h; FILE's directory gets an unnamed file,
 * FILE is never opened). 0 or -ENOMEM. */
struct door_names;
int procattr_mem_names(const struct job *j, struct door_names *l);
void procattr_mem_free(struct procmem *m);

/* write_hint=: none, short, medium, long, extreme as the kernel's
 * RWH_WRITE_LIFE_* value (1..5), 0 for NULL. -EINVAL on another word. */
int procattr_write_hint(const char *val);

/* numa_cpu_nodes=: a node list ("all", or N,A-B) as a mask of nodes
 * below 64. Returns 0 or -EINVAL with why filled. */
int procattr_nodes_parse(const char *val, uint64_t *mask, char *why,
			 size_t whylen);

/* numa_mem_policy=MODE[:NODES]: MODE default, prefer (one node), bind,
 * interleave (a node list), local. *mode is the kernel's MPOL_* value. */
int procattr_mempolicy_parse(const char *val, int *mode, uint64_t *mask,
			     char *why, size_t whylen);

/* cmdprio_*=A[,B]: A for reads, B (default A) for writes, each from 0
 * to max. Returns 0 or -EINVAL with why filled. */
int procattr_pair_parse(const char *val, unsigned max, unsigned out[2],
			char *why, size_t whylen);

/*
 * The I/O priorities of one direction's I/Os (cmdprio_percentage= or
 * cmdprio_bssplit=, with cmdprio_class=, cmdprio=, cmdprio_hint= as the
 * priority of entries that give none): entries in the order given; an
 * I/O of len bytes draws r in 0..99 and takes the first entry of its
 * size (bs 0: any size) whose cum, the running sum of the percentages of
 * that size's entries up to it, is above r; none: no priority of its own.
 */
#define CMDPRIO_SPLIT_MAX	64
struct cmdprio_tab {
	unsigned n;
	struct {
		uint64_t bs;		/* 0: every size */
		unsigned cum;		/* percent, 1..100 */
		uint16_t val;		/* class << 13 | hint << 3 | level */
	} e[CMDPRIO_SPLIT_MAX];
};

/* cmdprio_bssplit=: READ[,WRITE[,TRIM]] lists (one list: reads and
 * writes; trims are ignored, as in fio), each BS/PCT[/CLASS/LEVEL[/HINT]]
 * entries joined by ':', into tab[2] (sizes read with kb_base), the
 * entries without CLASS/LEVEL marked in dflt[2] (bit i: tab[d].e[i]; its
 * val 0). tab and dflt may be NULL (only checked). Returns 0 or -EINVAL
 * with why filled. */
int procattr_cmdprio_bssplit_parse(const char *val, unsigned kb_base,
				   struct cmdprio_tab *tab, uint64_t *dflt,
				   char *why, size_t whylen);

/*
 * The cmdprio_* options of a job. The text as given (NULL: not given) is
 * kept for --parse-only and the messages; each row's setter (cmdprio.h)
 * parses its value once into the typed fields below, which the worker
 * reads. An engine that carries a priority per I/O (ENGINE_CMDPRIO)
 * declares them (src/engines/cmdprio.h) in one of these at the start of
 * its options struct. Plain values: a copy is a memcpy and the strings'.
 */
struct cmdprio_opts {
	char *percentage, *bssplit, *prio_class, *level, *hint;
	/* reads, writes: cmdprio_percentage=, cmdprio_class=, cmdprio=,
	 * cmdprio_hint= */
	unsigned pct[2], cls[2], lvl[2], hnt[2];
	/* cmdprio_bssplit= given: its entries per direction, an entry i
	 * without CLASS/LEVEL marked in dflt (bit i), whose priority is
	 * the pairs' (its val is 0 here) */
	bool split;
	uint64_t dflt[2];
	struct cmdprio_tab split_tab[2];
};

/* The tables of c for reads and writes, from its parsed values (no text
 * read); false when c sets neither cmdprio_percentage nor cmdprio_bssplit
 * (or only zeros). */
bool procattr_cmdprio(const struct cmdprio_opts *c,
		      struct cmdprio_tab tab[2]);

/* The ioprio of an I/O of len bytes drawn r (0..99); 0: none. */
static inline uint16_t procattr_cmdprio_pick(const struct cmdprio_tab *t,
					     uint64_t len, unsigned r)
{
	unsigned i;

	for (i = 0; i < t->n; i++)
		if ((!t->e[i].bs || t->e[i].bs == len) && r < t->e[i].cum)
			return t->e[i].val;
	return 0;
}

/* sync_file_range=FLAGS[:N]: FLAGS one or more of wait_before, write,
 * wait_after joined by ','; N writes between two calls (default 1).
 * Returns 0 or -EINVAL with why filled. */
int procattr_sfr_parse(const char *val, unsigned *flags, uint64_t *nr,
		       char *why, size_t whylen);

#endif
