// SPDX-License-Identifier: MIT
/*
 * A job's process attributes and the memory of its I/O buffers
 * (procattr.h). Jobs are threads here: nice (setpriority) and the I/O
 * priority (ioprio_set, IOPRIO_WHO_PROCESS with 0) are per thread on
 * Linux, so each clone sets its own, as fio's processes do.
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpuset.h"
#include "door.h"
#include "procattr.h"
#include "value.h"

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_HINT_SHIFT	3
#define IOPRIO_WHO_PROCESS	1
#define IOPRIO_CLASS_BE		2

static const struct {
	const char *name;
	enum mem_type type;
	int takes_file;
} mem_names[] = {
	{ "malloc", MEM_MALLOC, 0 },
	{ "shm", MEM_SHM, 0 },
	{ "shmhuge", MEM_SHMHUGE, 0 },
	{ "mmap", MEM_MMAP, 1 },
	{ "mmaphuge", MEM_MMAPHUGE, 1 },
	{ "mmapshared", MEM_MMAPSHARED, 1 },
};

int procattr_mem_parse(const char *val, enum mem_type *type,
		       const char **file, char *why, size_t whylen)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val), i;

	*file = NULL;
	if (n == 10 && !strncmp(val, "cudamalloc", n)) {
		snprintf(why, whylen, "cudamalloc is GPU memory for fio's "
			 "rdma engine: no GPU and no rdma engine here");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(mem_names) / sizeof(mem_names[0]); i++) {
		if (strlen(mem_names[i].name) != n ||
		    strncmp(mem_names[i].name, val, n))
			continue;
		if (colon && (!mem_names[i].takes_file || !colon[1])) {
			snprintf(why, whylen, "%s takes no file (only mmap, "
				 "mmaphuge, mmapshared: TYPE:FILE)",
				 mem_names[i].name);
			return -EINVAL;
		}
		*type = mem_names[i].type;
		*file = colon ? colon + 1 : NULL;
		return 0;
	}
	snprintf(why, whylen, "expected malloc, shm, shmhuge, mmap[:FILE], "
		 "mmaphuge[:FILE] or mmapshared[:FILE]");
	return -EINVAL;
}

int procattr_nice_parse(const char *val, int *nice, char *why,
			size_t whylen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < -20 || v > 19) {
		snprintf(why, whylen, "expected a whole number from -20 to 19");
		return -EINVAL;
	}
	*nice = (int)v;
	return 0;
}

static int prio_set(const struct job *j)
{
	return j->cpu.prio != UINT64_MAX || j->cpu.prioclass != UINT64_MAX ||
	       j->cpu.priohint != UINT64_MAX;
}

unsigned procattr_ioprio(const struct job *j)
{
	unsigned cls, lvl, hint;

	if (!prio_set(j))
		return 0;
	lvl = j->cpu.prio != UINT64_MAX ? (unsigned)j->cpu.prio : 0;
	hint = j->cpu.priohint != UINT64_MAX ? (unsigned)j->cpu.priohint : 0;
	cls = j->cpu.prioclass != UINT64_MAX ? (unsigned)j->cpu.prioclass :
	      IOPRIO_CLASS_BE;
	return cls << IOPRIO_CLASS_SHIFT | hint << IOPRIO_HINT_SHIFT | lvl;
}

static int numa_apply(const struct job *j, char *why, size_t whylen);

int procattr_apply(const struct job *j, char *why, size_t whylen)
{
	unsigned v;
	int r;

	if ((j->cpu.numa_cpu_nodes || j->cpu.numa_mem_policy) &&
	    (r = numa_apply(j, why, whylen)))
		return r;
	/* comm=: fio's prctl on its job's process, here the clone's thread
	 * (PR_SET_NAME names the calling thread; the kernel keeps 15 bytes) */
	if (j->cpu.comm && prctl(PR_SET_NAME, j->cpu.comm, 0, 0, 0)) {
		snprintf(why, whylen, "comm=%s: prctl(PR_SET_NAME): %s",
			 j->cpu.comm, strerror(errno));
		return -errno;
	}
	/* fio's nice(N): an increment to the thread's nice value, clamped
	 * to -20..19 as nice(2) does (under `nice -n 5 iorig`, nice=3 runs
	 * the job at 8); nice=0, the default, leaves it as it is. */
	if (j->cpu.nice && j->cpu.nice_inc) {
		int cur, nice = j->cpu.nice_inc;

		errno = 0;
		cur = getpriority(PRIO_PROCESS, 0);
		if (cur == -1 && errno)
			cur = 0;
		cur += nice;
		cur = cur < -20 ? -20 : cur > 19 ? 19 : cur;
		if (setpriority(PRIO_PROCESS, 0, cur)) {
			snprintf(why, whylen, "nice=%d: setpriority(%d): %s",
				 nice, cur, strerror(errno));
			return -errno;
		}
	}
	if (!prio_set(j))
		return 0;
	v = procattr_ioprio(j);
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)v)) {
		snprintf(why, whylen, "ioprio_set(class %u, level %u, hint "
			 "%u) (prioclass, prio, priohint): %s",
			 v >> IOPRIO_CLASS_SHIFT, v & 7,
			 (v >> IOPRIO_HINT_SHIFT) & 0x3ff, strerror(errno));
		return -errno;
	}
	return 0;
}

/* setresgid/setresuid on this thread only; -1 leaves an id as it is. */
static int set_ids(bool gid, long r, long e, long s, char *why,
		   size_t whylen, unsigned id)
{
	if (!syscall(gid ? SYS_setresgid : SYS_setresuid, r, e, s))
		return 0;
	if (why)
		snprintf(why, whylen, "%s=%u: %s on the job's thread: %s",
			 gid ? "gid" : "uid", id,
			 gid ? "setresgid" : "setresuid", strerror(errno));
	return -errno;
}

int procattr_cred_enter(const struct job *j, struct procattr_cred *sv,
			char *why, size_t whylen)
{
	int r;

	*sv = (struct procattr_cred){ .euid = (unsigned)geteuid(),
				      .egid = (unsigned)getegid() };
	/* the group first: a new gid needs the privilege the uid drops */
	if (j->cpu.gid != UINT64_MAX) {
		if ((r = set_ids(true, -1, (long)j->cpu.gid, -1, why, whylen,
				 (unsigned)j->cpu.gid)))
			return r;
		sv->gid_on = true;
	}
	if (j->cpu.uid != UINT64_MAX) {
		if ((r = set_ids(false, -1, (long)j->cpu.uid, -1, why, whylen,
				 (unsigned)j->cpu.uid))) {
			procattr_cred_leave(sv);
			return r;
		}
		sv->uid_on = true;
	}
	return 0;
}

void procattr_cred_leave(const struct procattr_cred *sv)
{
	/* the uid first: it gives back the privilege to change the gid */
	if (sv->uid_on)
		(void)set_ids(false, -1, sv->euid, -1, NULL, 0, 0);
	if (sv->gid_on)
		(void)set_ids(true, -1, sv->egid, -1, NULL, 0, 0);
}

int procattr_cred_drop(const struct job *j, char *why, size_t whylen)
{
	long g = (long)j->cpu.gid, u = (long)j->cpu.uid;
	int r;

	if (j->cpu.gid != UINT64_MAX &&
	    (r = set_ids(true, g, g, g, why, whylen, (unsigned)g)))
		return r;
	if (j->cpu.uid != UINT64_MAX &&
	    (r = set_ids(false, u, u, u, why, whylen, (unsigned)u)))
		return r;
	return 0;
}

struct as_job {
	const struct job *j;
	int (*fn)(void *);
	void *arg;
	char *why;
	size_t whylen;
	int ret;
};

static void *as_job_main(void *p)
{
	struct as_job *a = p;

	a->ret = procattr_cred_drop(a->j, a->why, a->whylen);
	if (!a->ret)
		a->ret = a->fn(a->arg);
	return NULL;
}

int procattr_as_job(const struct job *j, int (*fn)(void *), void *arg,
		    char *why, size_t whylen)
{
	struct as_job a = { .j = j, .fn = fn, .arg = arg, .why = why,
			    .whylen = whylen };
	pthread_t t;
	int r;

	if (j->cpu.uid == UINT64_MAX && j->cpu.gid == UINT64_MAX)
		return fn(arg);
	r = pthread_create(&t, NULL, as_job_main, &a);
	if (r) {
		snprintf(why, whylen, "cannot start a thread to act as the "
			 "job's user (uid=, gid=): %s", strerror(r));
		return -r;
	}
	pthread_join(t, NULL);
	return a.ret;
}

static size_t round_up(size_t v, size_t to)
{
	return to ? (v + to - 1) / to * to : v;
}

static int lock_mem(struct procmem *m, uint64_t len, char *why,
		    size_t whylen)
{
	void *p;

	if (!len)
		return 0;
	p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mlock(p, (size_t)len)) {
		int e = errno;

		if (p != MAP_FAILED)
			munmap(p, (size_t)len);
		snprintf(why, whylen, "lockmem=%" PRIu64 ": cannot lock that "
			 "much memory: %s", len, strerror(e));
		return -e;
	}
	m->lock = p;
	m->lock_len = (size_t)len;
	return 0;
}

int procattr_mem_alloc(struct procmem *m, const struct job *j, size_t align,
		       unsigned depth, size_t stride, void **bufs, char *why,
		       size_t whylen)
{
	size_t len = (size_t)depth * stride;
	const char *file = NULL;
	size_t huge = j->eng.hugepage_size ? (size_t)j->eng.hugepage_size : 1;
	int flags, r;
	void *p;

	memset(m, 0, sizeof(*m));
	if (j->eng.mem) {
		m->type = (enum mem_type)j->eng.mem_kind;
		file = j->eng.mem_file;
	}
	if (j->eng.mem_align > align)
		align = (size_t)j->eng.mem_align;
	r = lock_mem(m, j->eng.lockmem, why, whylen);
	if (r)
		return r;
	if (m->type == MEM_MALLOC) {
		r = posix_memalign(&m->base, align, len ? len : 1);
		if (r) {
			m->base = NULL;
			snprintf(why, whylen, "cannot allocate %zu bytes of "
				 "I/O buffers (iodepth %u x bs %zu, aligned to "
				 "%zu): %s", len, depth, stride, align,
				 strerror(r));
			return -r;
		}
		*bufs = m->base;
		return 0;
	}
	/* Mapped memory starts on a page; more alignment: map more. */
	m->map_len = len + (align > 4096 ? align : 0);
	if (m->type == MEM_SHMHUGE || m->type == MEM_MMAPHUGE)
		m->map_len = round_up(m->map_len, huge);
	else
		m->map_len = round_up(m->map_len, 4096);
	if (m->type == MEM_SHM || m->type == MEM_SHMHUGE) {
		int id = shmget(IPC_PRIVATE, m->map_len, IPC_CREAT | 0600 |
				(m->type == MEM_SHMHUGE ? SHM_HUGETLB : 0));

		if (id < 0) {
			snprintf(why, whylen, "cannot allocate %zu bytes of "
				 "I/O buffers (iodepth %u x bs %zu): mem=%s: "
				 "shmget: %s%s", m->map_len, depth, stride,
				 j->eng.mem, strerror(errno),
				 m->type == MEM_SHMHUGE ? " (free huge pages: "
				 "/proc/sys/vm/nr_hugepages)" : "");
			return -errno;
		}
		p = shmat(id, NULL, 0);
		/* Removed now: it goes when detached, even on a crash. */
		shmctl(id, IPC_RMID, NULL);
		if (p == (void *)-1) {
			snprintf(why, whylen, "I/O buffers: mem=%s: shmat: %s", j->eng.mem,
				 strerror(errno));
			return -errno;
		}
	} else {
		flags = m->type == MEM_MMAPSHARED || file ? MAP_SHARED :
			MAP_PRIVATE;
		if (m->type == MEM_MMAPHUGE && !file)
			flags |= MAP_HUGETLB;
		if (file) {
			/* a new unnamed file of FILE's file system: FILE
			 * itself is never opened (door.h) */
			p = door_map_new(file, m->map_len, flags, why,
					 whylen);
			if (!p)
				return -EINVAL;
		} else {
			p = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE,
				 flags | MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED) {
				snprintf(why, whylen, "cannot allocate %zu "
					 "bytes of I/O buffers (iodepth %u x bs "
					 "%zu): mem=%s: mmap: %s%s", m->map_len,
					 depth, stride, j->eng.mem,
					 strerror(errno),
					 m->type == MEM_MMAPHUGE ? " (free "
					 "huge pages: /proc/sys/vm/"
					 "nr_hugepages)" : "");
				return -errno;
			}
		}
	}
	m->base = p;
	*bufs = (void *)round_up((uintptr_t)p, align);
	return 0;
}

int procattr_mem_names(const struct job *j, struct door_names *l)
{
	if (!j->eng.mem || !j->eng.mem_file)
		return 0;
	return door_names_add(l, "mem", "%s", j->eng.mem_file);
}

void procattr_mem_free(struct procmem *m)
{
	if (m->base) {
		if (m->type == MEM_MALLOC)
			free(m->base);
		else if (m->type == MEM_SHM || m->type == MEM_SHMHUGE)
			shmdt(m->base);
		else
			munmap(m->base, m->map_len);
	}
	if (m->lock)
		munmap(m->lock, m->lock_len);
	memset(m, 0, sizeof(*m));
}

int procattr_write_hint(const char *val)
{
	static const char *const w[] = { "none", "short", "medium", "long",
					 "extreme" };
	size_t i;

	if (!val)
		return 0;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(val, w[i]))
			return (int)i + 1;
	return -EINVAL;
}

int procattr_sfr_parse(const char *val, unsigned *flags, uint64_t *nr,
		       char *why, size_t whylen)
{
	static const struct {
		const char *name;
		unsigned flag;
	} f[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	};
	const char *p = val, *colon = strchr(val, ':');
	const char *end = colon ? colon : val + strlen(val);
	size_t n, i;
	char *e;

	*flags = 0;
	*nr = 1;
	while (p < end) {
		n = strcspn(p, ",:");
		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (strlen(f[i].name) == n && !strncmp(p, f[i].name, n))
				break;
		if (i == sizeof(f) / sizeof(f[0]))
			goto bad;
		*flags |= f[i].flag;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*flags)
		goto bad;
	if (colon) {
		errno = 0;
		*nr = strtoull(colon + 1, &e, 10);
		if (errno || e == colon + 1 || *e || !*nr)
			goto bad;
	}
	return 0;
bad:
	snprintf(why, whylen, "expected FLAGS[:N]: FLAGS one or more of "
		 "wait_before, write, wait_after joined by ',', N a number "
		 "of writes from 1");
	return -EINVAL;
}

int procattr_pair_parse(const char *val, unsigned max, unsigned out[2],
			char *why, size_t whylen)
{
	const char *p = val;
	unsigned long v;
	char *e;
	int k;

	for (k = 0; k < 2; k++) {
		errno = 0;
		v = strtoul(p, &e, 10);
		if (errno || e == p || v > max || (*e && *e != ','))
			goto bad;
		out[k] = (unsigned)v;
		if (!*e) {
			if (!k)
				out[1] = out[0];
			return 0;
		}
		p = e + 1;
	}
bad:
	snprintf(why, whylen, "expected N or READ,WRITE, each from 0 to %u",
		 max);
	return -EINVAL;
}

static unsigned ioprio_val(unsigned cls, unsigned lvl, unsigned hint)
{
	return cls << IOPRIO_CLASS_SHIFT | hint << IOPRIO_HINT_SHIFT | lvl;
}

/* Add an entry of bs (0: any) and pct to t: its cum is the running sum
 * of the entries of the same size. */
static int tab_add(struct cmdprio_tab *t, uint64_t bs, unsigned pct,
		   unsigned val, char *why, size_t whylen)
{
	unsigned i, sum = pct;

	/* the last entry of the same size holds the sum so far */
	for (i = t->n; i-- > 0;)
		if (t->e[i].bs == bs) {
			sum += t->e[i].cum;
			break;
		}
	if (sum > 100) {
		snprintf(why, whylen, "the percentages of block size %" PRIu64
			 " add up to %u, more than 100", bs, sum);
		return -EINVAL;
	}
	if (t->n == CMDPRIO_SPLIT_MAX) {
		snprintf(why, whylen, "more than %u entries in one direction",
			 CMDPRIO_SPLIT_MAX);
		return -EINVAL;
	}
	t->e[t->n].bs = bs;
	t->e[t->n].cum = sum;
	t->e[t->n].val = (uint16_t)val;
	t->n++;
	return 0;
}

/* One direction's list: BS/PCT[/CLASS/LEVEL[/HINT]] joined by ':'; an
 * entry without CLASS/LEVEL is marked in *dflt. */
static int split_list(const char *s, size_t len, unsigned kb_base,
		      struct cmdprio_tab *t, uint64_t *dflt, char *why,
		      size_t whylen)
{
	static const unsigned max[] = { 100, 3, 7, 1023 };
	static const char *const what[] = { "a percentage", "a class",
					    "a level", "a hint" };
	char item[128], *f, *e;
	unsigned long v[4];
	const char *p = s, *end = s + len, *c;
	uint64_t bs;
	size_t n;
	int k, r;

	while (p < end) {
		c = memchr(p, ':', (size_t)(end - p));
		n = (size_t)((c ? c : end) - p);
		if (!n || n >= sizeof(item))
			goto bad;
		memcpy(item, p, n);
		item[n] = '\0';
		p = c ? c + 1 : end;
		f = strchr(item, '/');
		if (!f)
			goto bad;
		*f++ = '\0';
		if ((r = value_size(item, kb_base, &bs, why, whylen)))
			return r;
		if (!bs) {
			snprintf(why, whylen, "block size 0 in '%s'", s);
			return -EINVAL;
		}
		for (k = 0; k < 4; k++) {
			/* bs/ and bs/pct, or all of class and level */
			if (!*f && (k <= 1 || k == 3))
				break;
			errno = 0;
			v[k] = strtoul(f, &e, 10);
			if (errno || e == f || (*e && *e != '/') ||
			    v[k] > max[k]) {
				snprintf(why, whylen, "expected %s from 0 to "
					 "%u in '%.*s'", what[k], max[k],
					 (int)n, c ? c - n : end - n);
				return -EINVAL;
			}
			f = *e ? e + 1 : e;
		}
		if (k == 2 || *f)
			goto bad;
		if (!k || !v[0])
			continue;	/* no share: as fio, nothing */
		if ((r = tab_add(t, bs, (unsigned)v[0], k >= 3 ?
				 ioprio_val((unsigned)v[1], (unsigned)v[2],
					    k == 4 ? (unsigned)v[3] : 0) :
				 0, why, whylen)))
			return r;
		if (k < 3)
			*dflt |= 1ull << (t->n - 1);
	}
	return 0;
bad:
	snprintf(why, whylen, "expected BS/PERCENT[/CLASS/LEVEL[/HINT]] "
		 "entries joined by ':', in '%.*s'", (int)len, s);
	return -EINVAL;
}

int procattr_cmdprio_bssplit_parse(const char *val, unsigned kb_base,
				   struct cmdprio_tab *tab, uint64_t *dflt,
				   char *why, size_t whylen)
{
	struct cmdprio_tab tmp[2];
	uint64_t tmp_dflt[2];
	const char *c1 = strchr(val, ','), *c2 = c1 ? strchr(c1 + 1, ',') :
					   NULL;
	int r;

	if (!tab)
		tab = tmp;
	if (!dflt)
		dflt = tmp_dflt;
	memset(tab, 0, 2 * sizeof(*tab));
	dflt[0] = dflt[1] = 0;
	if (!c1)
		return split_list(val, strlen(val), kb_base, &tab[0], &dflt[0],
				  why, whylen) ? -EINVAL :
		       split_list(val, strlen(val), kb_base, &tab[1], &dflt[1],
				  why, whylen);
	if ((r = split_list(val, (size_t)(c1 - val), kb_base, &tab[0],
			    &dflt[0], why, whylen)))
		return r;
	/* the trim list (after a second comma) is ignored, as in fio */
	return split_list(c1 + 1, (size_t)((c2 ? c2 : val + strlen(val)) -
					   c1 - 1), kb_base, &tab[1], &dflt[1],
			  why, whylen);
}

bool procattr_cmdprio(const struct cmdprio_opts *c,
		      struct cmdprio_tab tab[2])
{
	char why[64];
	unsigned def, i;
	int k;

	memset(tab, 0, 2 * sizeof(*tab));
	for (k = 0; k < 2; k++) {
		def = ioprio_val(c->cls[k], c->lvl[k], c->hnt[k]);
		if (c->split) {
			tab[k] = c->split_tab[k];
			for (i = 0; i < tab[k].n; i++)
				if (c->dflt[k] >> i & 1)
					tab[k].e[i].val = (uint16_t)def;
		} else if (c->pct[k]) {
			/* one entry of at most 100: cannot fail */
			tab_add(&tab[k], 0, c->pct[k], def, why, sizeof(why));
		}
	}
	return tab[0].n || tab[1].n;
}

int procattr_nodes_parse(const char *val, uint64_t *mask, char *why,
			 size_t whylen)
{
	const char *p = val;
	unsigned long a, b;
	char *e;

	*mask = 0;
	if (!strcmp(val, "all")) {
		*mask = UINT64_MAX;
		return 0;
	}
	while (*p) {
		errno = 0;
		a = strtoul(p, &e, 10);
		if (errno || e == p || a > 63)
			goto bad;
		b = a;
		if (*e == '-') {
			p = e + 1;
			b = strtoul(p, &e, 10);
			if (errno || e == p || b > 63 || b < a)
				goto bad;
		}
		for (; a <= b; a++)
			*mask |= 1ull << a;
		if (*e && *e != ',')
			goto bad;
		p = *e ? e + 1 : e;
	}
	if (*mask)
		return 0;
bad:
	snprintf(why, whylen, "expected NUMA nodes: all, or a list such as "
		 "0,2-3 (nodes 0 to 63)");
	return -EINVAL;
}

int procattr_mempolicy_parse(const char *val, int *mode, uint64_t *mask,
			     char *why, size_t whylen)
{
	static const struct {
		const char *name;
		int mode;	/* MPOL_* */
		int nodes;	/* 0 none, 1 one, 2 a list */
	} m[] = {
		{ "default", 0, 0 }, { "prefer", 1, 1 }, { "bind", 2, 2 },
		{ "interleave", 3, 2 }, { "local", 4, 0 },
	};
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val), i;

	*mask = 0;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (strlen(m[i].name) != n || strncmp(m[i].name, val, n))
			continue;
		*mode = m[i].mode;
		if (!m[i].nodes && !colon)
			return 0;
		if (!m[i].nodes || !colon)
			break;
		if (procattr_nodes_parse(colon + 1, mask, why, whylen))
			return -EINVAL;
		if (m[i].nodes == 1 && (*mask & (*mask - 1)))
			break;
		return 0;
	}
	snprintf(why, whylen, "expected default, local, prefer:NODE, "
		 "bind:NODES or interleave:NODES");
	return -EINVAL;
}

/* The CPUs of the nodes in mask that exist, from sysfs. */
static int node_cpus(uint64_t mask, cpu_set_t *set, char *why,
		     size_t whylen)
{
	char path[96], list[1024];
	cpu_set_t one;
	unsigned nd;
	FILE *f;
	int any = 0;

	CPU_ZERO(set);
	for (nd = 0; nd < 64; nd++) {
		if (!(mask >> nd & 1))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%u/cpulist", nd);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(list, sizeof(list), f)) {
			list[strcspn(list, "\n")] = 0;
			if (*list && !cpuset_parse(list, &one, NULL, 0)) {
				CPU_OR(set, set, &one);
				any = 1;
			}
		}
		fclose(f);
	}
	if (!any) {
		snprintf(why, whylen, "numa_cpu_nodes: no CPU on those nodes "
			 "(/sys/devices/system/node)");
		return -EINVAL;
	}
	return 0;
}

static int numa_apply(const struct job *j, char *why, size_t whylen)
{
	uint64_t mask = j->cpu.numa_mpol_mask;
	unsigned long nodes[1];
	cpu_set_t set;

	if (j->cpu.numa_cpu_nodes) {
		if (node_cpus(j->cpu.numa_cpu_mask, &set, why, whylen))
			return -EINVAL;
		if (sched_setaffinity(0, sizeof(set), &set)) {
			snprintf(why, whylen, "numa_cpu_nodes=%s: %s",
				 j->cpu.numa_cpu_nodes, strerror(errno));
			return -errno;
		}
	}
	if (!j->cpu.numa_mem_policy)
		return 0;
	nodes[0] = (unsigned long)mask;
	if (syscall(SYS_set_mempolicy, j->cpu.numa_mpol_mode, mask ? nodes :
		    NULL, mask ? 8 * sizeof(nodes) + 1 : 0)) {
		snprintf(why, whylen, "numa_mem_policy=%s: set_mempolicy: %s",
			 j->cpu.numa_mem_policy, strerror(errno));
		return -errno;
	}
	return 0;
}
