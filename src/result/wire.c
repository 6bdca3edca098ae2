// SPDX-License-Identifier: MIT
/*
 * The wire form of a member (result.h: result_wire_make,
 * result_wire_read): what cluster_add reads of a result, in bytes, so
 * that an MPI rank reads its own JSON result back and rank 0 takes its
 * figures without parsing its document. A unit or a group is its struct's
 * words packed (result_words_pack: a histogram's empty buckets cost
 * nothing), its pointers left out and made again on the reading side:
 * the job (member 0's), the engines of the first errors (by name), no
 * intervals, steady state, priorities or zones (a merge keeps none of a
 * member's). The ranks run one build on one architecture: the structs'
 * layout is the same on both sides.
 *
 *   "IORIGW1" NUL, nunits, ngroups, signo, wall_ns, proc_cpu, hostname,
 *   warnings (n, then code, job, message each), per unit its words, its
 *   engines, its targets (engine setup, then each target and its path),
 *   per group its words, its engines, its jobs; a NUL at the end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "result.h"

static const char magic[8] = "IORIGW1";

/* ---- making ---- */

struct wout {
	unsigned char *b;
	size_t len, cap;
	int err;
};

static unsigned char *room(struct wout *w, size_t n)
{
	size_t c = w->cap ? w->cap : 4096;
	unsigned char *nb;

	if (w->err)
		return NULL;
	while (c - w->len < n)
		c *= 2;
	if (c != w->cap) {
		nb = realloc(w->b, c);
		if (!nb) {
			w->err = -ENOMEM;
			return NULL;
		}
		w->b = nb;
		w->cap = c;
	}
	return w->b + w->len;
}

static void put(struct wout *w, const void *p, size_t n)
{
	unsigned char *d = room(w, n);

	if (d) {
		memcpy(d, p, n);
		w->len += n;
	}
}

static void put_u64(struct wout *w, uint64_t v)
{
	put(w, &v, sizeof(v));
}

/* NULL as 0, else its length + 1 and its bytes */
static void put_str(struct wout *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u64(w, s ? n + 1 : 0);
	if (s)
		put(w, s, n);
}

static void put_words(struct wout *w, const void *p, size_t bytes)
{
	size_t n = result_words_pack(NULL, p, bytes / sizeof(uint64_t));
	unsigned char *d;

	put_u64(w, n);
	d = room(w, n);
	if (d)
		w->len += result_words_pack(d, p, bytes / sizeof(uint64_t));
}

/* The pointers of a job's figures, out of the words and back. */
struct ptrs {
	struct ival_series *intervals;
	struct steady_rec *steady;
	struct prio_stats *prio;
	struct zbd_stats *zbd;
	const char *engine[DDIR_NR + 1];
};

static const char **engine_at(struct job_stats *s, int d)
{
	return d < DDIR_NR ? &s->dir[d].first_err_engine :
	       &s->vread.first_err_engine;
}

static void ptrs_out(struct job_stats *s, struct ptrs *p)
{
	int d;

	p->intervals = s->intervals;
	p->steady = s->steady;
	p->prio = s->prio;
	p->zbd = s->zbd;
	s->intervals = NULL;
	s->steady = NULL;
	s->prio = NULL;
	s->zbd = NULL;
	for (d = 0; d <= DDIR_NR; d++) {
		p->engine[d] = *engine_at(s, d);
		*engine_at(s, d) = NULL;
	}
}

static void ptrs_in(struct job_stats *s, const struct ptrs *p)
{
	int d;

	s->intervals = p->intervals;
	s->steady = p->steady;
	s->prio = p->prio;
	s->zbd = p->zbd;
	for (d = 0; d <= DDIR_NR; d++)
		*engine_at(s, d) = p->engine[d];
}

/* A job's figures (s: a unit's, inside u, or a group's): its words with
 * no pointer in them, then its engines' names. The document is put back
 * as it was. */
static void put_stats(struct wout *w, struct result_unit *u,
		      struct job_stats *s)
{
	const struct job *job = u ? u->job : NULL;
	struct ptrs p;
	int d;

	ptrs_out(s, &p);
	if (u) {
		u->job = NULL;
		put_words(w, u, sizeof(*u));
		u->job = job;
	} else {
		put_words(w, s, sizeof(*s));
	}
	ptrs_in(s, &p);
	for (d = 0; d <= DDIR_NR; d++)
		put_str(w, p.engine[d]);
}

static void put_targets(struct wout *w, const struct run_targets *t)
{
	struct run_target x;
	unsigned i;

	put_u64(w, t ? t->n : 0);
	put_u64(w, t && t->engine.known);
	put_u64(w, t ? t->engine.n : 0);
	for (i = 0; t && i < t->engine.n && i < ENGINE_SETUP_MAX; i++)
		put_str(w, t->engine.what[i]);
	for (i = 0; t && i < t->n; i++) {
		x = t->t[i];
		x.path = NULL;
		put(w, &x, sizeof(x));
		put_str(w, t->t[i].path);
	}
}

int result_wire_make(const struct result_doc *cd, unsigned char **buf,
		     size_t *len)
{
	/* its pointers are taken out and put back: d is as it was */
	struct result_doc *d = (struct result_doc *)cd;
	const struct result_set *s = &d->set;
	const struct warn_list *wl = &d->r.warnings;
	struct wout w = { 0 };
	size_t i;

	put(&w, magic, sizeof(magic));
	put_u64(&w, (uint64_t)s->nunits);
	put_u64(&w, (uint64_t)s->ngroups);
	put_u64(&w, (uint64_t)(int64_t)d->r.signo);
	put_u64(&w, d->r.wall_ns);
	put(&w, &d->r.proc_cpu, sizeof(d->r.proc_cpu));
	put(&w, d->r.hostname, sizeof(d->r.hostname));
	put_u64(&w, wl->n);
	for (i = 0; i < wl->n; i++) {
		put_str(&w, wl->v[i].code);
		put_str(&w, wl->v[i].job);
		put_str(&w, wl->v[i].msg);
	}
	for (i = 0; i < (size_t)s->nunits; i++) {
		put_stats(&w, &s->units[i], &s->units[i].stats);
		put_targets(&w, d->r.targets ? &d->r.targets[i] : NULL);
	}
	for (i = 0; i < (size_t)s->ngroups; i++) {
		put_stats(&w, NULL, &s->groups[i]);
		put_u64(&w, s->group_njobs ? s->group_njobs[i] : 0);
	}
	put(&w, "", 1);	/* no varint runs past the end */
	if (w.err) {
		free(w.b);
		return w.err;
	}
	*buf = w.b;
	*len = w.len;
	return 0;
}

/* ---- reading ---- */

struct win {
	const unsigned char *b;
	size_t len, pos;
	int err;		/* -EINVAL: short or malformed; -ENOMEM */
	struct result_wire *mem;
};

static void *keep_ptr(struct result_wire *w, void *p)
{
	void **v;

	if (!p)
		return NULL;
	if (w->n == w->cap) {
		v = realloc(w->p, (w->cap ? 2 * w->cap : 16) * sizeof(*v));
		if (!v) {
			free(p);
			return NULL;
		}
		w->p = v;
		w->cap = w->cap ? 2 * w->cap : 16;
	}
	w->p[w->n++] = p;
	return p;
}

static void *alloc(struct win *r, struct result_wire *w, size_t n)
{
	void *p = keep_ptr(w, calloc(1, n ? n : 1));

	if (!p && !r->err)
		r->err = -ENOMEM;
	return p;
}

/*
 * The units' and groups' words: mem's, kept zero between reads (clearing
 * a unit's 650 KB for every rank was three quarters of rank 0's work a
 * rank: get_words writes only the words that are not zero, and
 * result_wire_done clears those). -ENOMEM in r->err when no room.
 */
static void words_room(struct win *r, struct result_wire *w, size_t nu,
		       size_t ng)
{
	if (nu > w->nunits) {
		free(w->units);
		w->nunits = 0;
		w->units = calloc(nu, sizeof(*w->units));
		if (w->units)
			w->nunits = nu;
	}
	if (ng > w->ngroups) {
		free(w->groups);
		w->ngroups = 0;
		w->groups = calloc(ng, sizeof(*w->groups));
		if (w->groups)
			w->ngroups = ng;
	}
	if ((nu && !w->units) || (ng && !w->groups))
		r->err = r->err ? r->err : -ENOMEM;
}

static void get(struct win *r, void *p, size_t n)
{
	if (r->err || r->len - r->pos < n) {
		r->err = r->err ? r->err : -EINVAL;
		memset(p, 0, n);
		return;
	}
	memcpy(p, r->b + r->pos, n);
	r->pos += n;
}

static uint64_t get_u64(struct win *r)
{
	uint64_t v;

	get(r, &v, sizeof(v));
	return v;
}

static char *get_str(struct win *r, struct result_wire *w)
{
	uint64_t n = get_u64(r);
	char *s;

	if (!n || r->err)
		return NULL;
	if (n - 1 > r->len - r->pos) {
		r->err = -EINVAL;
		return NULL;
	}
	s = alloc(r, w, (size_t)n);
	if (s)
		get(r, s, (size_t)n - 1);
	return s;
}

static void get_words(struct win *r, void *p, size_t bytes)
{
	uint64_t n = get_u64(r);
	size_t pos = r->pos;

	int ret;

	if (r->err)
		return;
	if (n > r->len - r->pos) {
		r->err = -EINVAL;
		return;
	}
	ret = result_words_unpack_onto(p, bytes / sizeof(uint64_t), r->b,
				       r->pos + (size_t)n, &pos,
				       &r->mem->runs);
	if (ret || pos != r->pos + n) {
		r->err = ret == -ENOMEM ? -ENOMEM : -EINVAL;
		return;
	}
	r->pos = pos;
}

/* A job's figures as put_stats put them: the engines by this build's
 * names (a merge keeps only those: cluster.c, engine_name_kept). */
static void get_stats(struct win *r, void *p, size_t bytes,
		      struct job_stats *s)
{
	const struct engine_ops *e;
	char *name;
	int d;

	get_words(r, p, bytes);
	s->intervals = NULL;
	s->steady = NULL;
	s->prio = NULL;
	s->zbd = NULL;
	for (d = 0; d <= DDIR_NR; d++) {
		name = get_str(r, r->mem);
		e = name ? engine_find(name) : NULL;
		*engine_at(s, d) = e ? e->name : NULL;
	}
}

static void get_targets(struct win *r, struct run_targets *t,
			struct result_wire *keep)
{
	uint64_t n = get_u64(r), ne;
	unsigned i;

	t->engine.known = get_u64(r) != 0;
	ne = get_u64(r);
	if (r->err || ne > ENGINE_SETUP_MAX ||
	    n > (r->len - r->pos) / sizeof(*t->t)) {
		r->err = r->err ? r->err : -EINVAL;
		return;
	}
	t->engine.n = (unsigned)ne;
	for (i = 0; i < ne; i++)
		t->engine.what[i] = get_str(r, keep);
	t->n = (unsigned)n;
	t->t = n ? alloc(r, r->mem, (size_t)n * sizeof(*t->t)) : NULL;
	for (i = 0; t->t && i < n && !r->err; i++) {
		get(r, &t->t[i], sizeof(t->t[i]));
		t->t[i].path = get_str(r, r->mem);
	}
}

int result_wire_read(struct result_doc *d, const unsigned char *buf,
		     size_t len, const struct job *const *jobs, size_t njobs,
		     struct result_wire *mem, struct result_wire *keep)
{
	struct win r = { .b = buf, .len = len, .mem = mem };
	struct result_set *s = &d->set;
	char m[sizeof(magic)];
	uint64_t nu, ng, nw, i;

	memset(d, 0, sizeof(*d));
	result_wire_done(mem);	/* its units and groups all zero */
	get(&r, m, sizeof(m));
	nu = get_u64(&r);
	ng = get_u64(&r);
	if (r.err || memcmp(m, magic, sizeof(m)) || nu != njobs ||
	    ng > len || !len || buf[len - 1])
		return -EINVAL;
	d->r.signo = (int)(int64_t)get_u64(&r);
	d->r.wall_ns = get_u64(&r);
	get(&r, &d->r.proc_cpu, sizeof(d->r.proc_cpu));
	get(&r, d->r.hostname, sizeof(d->r.hostname));
	d->r.hostname[sizeof(d->r.hostname) - 1] = '\0';
	nw = get_u64(&r);
	if (r.err || nw > len)
		return -EINVAL;
	/* header_fold reads the list's items only (no lock, no echo) */
	d->r.warnings.v = alloc(&r, mem, (size_t)nw *
				sizeof(*d->r.warnings.v));
	for (i = 0; i < nw && !r.err; i++) {
		d->r.warnings.v[i].code = get_str(&r, mem);
		d->r.warnings.v[i].job = get_str(&r, mem);
		d->r.warnings.v[i].msg = get_str(&r, mem);
	}
	d->r.warnings.n = (size_t)nw;
	s->nunits = (int)nu;
	s->ngroups = (int)ng;
	words_room(&r, mem, (size_t)nu, (size_t)ng);
	if (r.err)
		return r.err;
	mem->dirty = true;
	s->units = mem->units;
	s->groups = mem->groups;
	s->group_njobs = alloc(&r, mem, (size_t)ng *
			       sizeof(*s->group_njobs));
	d->r.targets = alloc(&r, mem, (size_t)nu * sizeof(*d->r.targets));
	for (i = 0; i < nu && !r.err; i++) {
		get_stats(&r, &s->units[i], sizeof(s->units[i]),
			  &s->units[i].stats);
		s->units[i].job = jobs[i];
		get_targets(&r, &d->r.targets[i], keep);
	}
	for (i = 0; i < ng && !r.err; i++) {
		get_stats(&r, &s->groups[i], sizeof(s->groups[i]),
			  &s->groups[i]);
		s->group_njobs[i] = (unsigned)get_u64(&r);
	}
	d->r.set = s;
	d->set.borrowed = true;
	if (!r.err && r.pos != len - 1)
		r.err = -EINVAL;
	if (r.err)
		memset(d, 0, sizeof(*d));
	return r.err;
}

void result_wire_done(struct result_wire *w)
{
	size_t i;
	int d;

	for (i = 0; i < w->n; i++)
		free(w->p[i]);
	w->n = 0;
	if (!w->dirty)
		return;
	/* the words read, then the pointers get_stats and the read set
	 * (the packed words have none) */
	result_words_clear(&w->runs);
	for (i = 0; i < w->nunits; i++) {
		w->units[i].job = NULL;
		for (d = 0; d <= DDIR_NR; d++)
			*engine_at(&w->units[i].stats, d) = NULL;
	}
	for (i = 0; i < w->ngroups; i++)
		for (d = 0; d <= DDIR_NR; d++)
			*engine_at(&w->groups[i], d) = NULL;
	w->dirty = false;
}

void result_wire_free(struct result_wire *w)
{
	result_wire_done(w);
	free(w->p);
	free(w->units);
	free(w->groups);
	free(w->runs.v);
	memset(w, 0, sizeof(*w));
}
