// SPDX-License-Identifier: MIT
/*
 * iorig-mpi: the ranks of an MPI run (peers.h). Only this file includes
 * mpi.h and only iorig-mpi links it, so the plain iorig neither loads
 * libmpi nor pays its start-up (bench/README.md has the figures).
 *
 * Every rank runs the whole job on its own targets (${RANK}... in the job
 * file). The ranks meet at collectives only: before the run and at each
 * wait group (agree: every rank's targets open, else the first failure,
 * naming its rank and host, stops all), at each group's gate (a barrier,
 * then each rank's CLOCK_REALTIME start: the start skew), and at the end
 * (finish: each rank reads its JSON report back and checks it against
 * rank 0's, broadcast; then sends rank 0 its wire form, result.h, which
 * rank 0 folds in one at a time with the cluster module, parsing no JSON
 * but its own, and writes the cluster report; when the report needs no
 * rank's own histograms, they are summed down MPI's tree instead: a
 * reduction, see reduce_wanted). A rank that
 * dies mid-run is mpirun's to handle: it aborts the job, so no rank waits.
 */
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster.h"
#include "err.h"
#include "defines.h"
#include "hist.h"
#include "peers.h"
#include "result.h"

#define HOST_MAX	256
#define MSG_MAX		1024

struct mpi_peers {
	struct peers pe;
	char host[HOST_MAX];
	double *start;		/* CLOCK_REALTIME ns at each group's start */
	unsigned nstart;
};

static struct mpi_peers mp;

static int mpi_agree(struct peers *pe, const char *failed, char *why,
		     size_t whylen)
{
	int in[2] = { failed ? pe->rank : INT_MAX, pe->rank }, out[2];
	char msg[MSG_MAX + HOST_MAX];

	MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
	if (out[0] == INT_MAX)
		return 0;
	pe->failed = 1;
	if (pe->rank == out[0])
		snprintf(msg, sizeof(msg), "%s%c%.*s", mp.host, '\0',
			 MSG_MAX - 1, failed);
	MPI_Bcast(msg, sizeof(msg), MPI_CHAR, out[0], MPI_COMM_WORLD);
	msg[HOST_MAX - 1] = msg[sizeof(msg) - 1] = '\0';
	snprintf(why, whylen, "rank %d (%s) failed: %s", out[0], msg,
		 msg + strlen(msg) + 1);
	return -ECANCELED;
}

static void mpi_go(struct peers *pe, unsigned wg)
{
	struct timespec ts;
	double *s;

	/*
	 * Twice: the first waits for the slowest rank, which may find the
	 * others asleep in their wait (TCP: woken by the kernel, scheduled
	 * late); the second starts with every rank awake, so all leave it
	 * within a message's latency.
	 */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	clock_gettime(CLOCK_REALTIME, &ts);
	if (wg >= mp.nstart) {
		s = realloc(mp.start, (wg + 1) * sizeof(*s));
		if (!s)
			return;
		memset(s + mp.nstart, 0, (wg + 1 - mp.nstart) * sizeof(*s));
		mp.start = s;
		mp.nstart = wg + 1;
	}
	mp.start[wg] = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* main's precedence: a signal, then 1, then 4, then 3. */
static int code_rank(int c)
{
	return c >= 128 ? 1000 + c : c == 1 ? 3 : c == 4 ? 2 : c == 3 ? 1 :
	       c ? 3 : 0;
}

/*
 * Each member's start skew: its largest delay over the wait groups
 * against the earliest rank's start of the same group (wall clocks: as
 * exact as the hosts' clocks agree).
 */
static void skews(const double *t, unsigned ng, int n, double *skew)
{
	unsigned g;
	double lo;
	int r;

	for (r = 0; r < n; r++)
		skew[r] = 0;
	for (g = 0; g < ng; g++) {
		lo = 0;
		for (r = 0; r < n; r++)
			if (t[r * ng + g] > 0 && (!lo || t[r * ng + g] < lo))
				lo = t[r * ng + g];
		for (r = 0; r < n; r++)
			if (t[r * ng + g] > 0 && t[r * ng + g] - lo > skew[r])
				skew[r] = t[r * ng + g] - lo;
	}
}

#define TAG_RESULT	26

/*
 * Rank 0: rank r's JSON result (rank 0's own: mine) into *text, *len;
 * each other rank's received as it comes to be read (MPI_Probe for its
 * size, then MPI_Recv into one buffer that grows to the largest), so
 * rank 0 holds one rank's document at a time, never all of them. 0 or
 * -ENOMEM (the message still received: its sender must not wait).
 */
static int rank_text(int r, const char *mine, size_t mylen, char **buf,
		     size_t *cap, const char **text, size_t *len)
{
	MPI_Status st;
	char *nb;
	int n;

	if (!r) {
		*text = mine;
		*len = mylen;
		return 0;
	}
	MPI_Probe(r, TAG_RESULT, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_CHAR, &n);
	if ((size_t)n > *cap) {
		nb = realloc(*buf, (size_t)n);
		if (!nb) {
			/* taken and dropped, so that rank r goes on */
			char one;

			MPI_Recv(&one, 0, MPI_CHAR, r, TAG_RESULT,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			return -ENOMEM;
		}
		*buf = nb;
		*cap = (size_t)n;
	}
	MPI_Recv(*buf, n, MPI_CHAR, r, TAG_RESULT, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	*text = *buf;
	*len = (size_t)n;
	return 0;
}

/* Rank 0: every member folded into cl, the report written; the exit
 * code of the cluster's figures (buf: room for a message). */
static int cluster_out(struct cluster *cl, const char *formats, FILE *out,
		       char *const *checks, size_t nchecks,
		       struct err_rec *e, char *buf)
{
	int code = 1;

	if (cluster_finish(cl, e))
		goto fail;
	code = cluster_write(cluster_result(cl), formats, checks, nchecks,
			     out, e);
	if (code == -EINVAL)
		code = 2;
	else if (code < 0 || fflush(out) || ferror(out))
		code = 1;
	if (code != 2 && code != 1)
		return code;
fail:
	err_format(e, buf, ERR_TEXT_MAX + 512);
	fprintf(stderr, "iorig: the cluster report: %s\n", buf);
	return code;
}

/*
 * Rank 0: each rank's result received, read back and folded in turn (in
 * rank order: the fold of `iorig merge` of the same results), then the
 * cluster report written; the exit code of the cluster's figures. Every
 * rank's result is received even after one failed to read, since its
 * sender waits for that.
 */
static int cluster_report(const char *mine, size_t mylen, const char *hosts,
			  const double *skew, int n, const char *formats,
			  FILE *out, char *const *checks, size_t nchecks)
{
	struct cluster *cl = cluster_new();
	char label[HOST_MAX + 32];
	struct err_rec *e = calloc(1, sizeof(*e));
	char *buf = malloc(ERR_TEXT_MAX + 512), *text_buf = NULL;
	size_t cap = 0, len;
	const char *text;
	struct result_doc d;
	int r, code = 1, ret, failed = 0;

	if (cl)
		cluster_keep_members(cl, cluster_reads_members(formats, checks,
							       nchecks));
	for (r = 0; r < n; r++) {
		ret = rank_text(r, mine, mylen, &text_buf, &cap, &text, &len);
		if (failed)
			continue;
		if (!cl || !e || !buf || ret) {
			fprintf(stderr, "iorig: the cluster report: out of "
				"memory\n");
			failed = 1;
			continue;
		}
		snprintf(label, sizeof(label), "rank %d (%s)", r,
			 hosts + (size_t)r * HOST_MAX);
		ret = result_read(&d, text, len, label, RESULT_READ_STRICT, e);
		if (ret) {
			err_format(e, buf, ERR_TEXT_MAX + 512);
			fprintf(stderr, "iorig: %s\n", buf);
			failed = 1;
			continue;
		}
		if (cluster_add(cl, &d, label, hosts + (size_t)r * HOST_MAX,
				r, skew[r], e)) {
			err_format(e, buf, ERR_TEXT_MAX + 512);
			fprintf(stderr, "iorig: the cluster report: %s\n", buf);
			failed = 1;
		}
	}
	free(text_buf);
	if (!failed)
		code = cluster_out(cl, formats, out, checks, nchecks, e, buf);
	cluster_free(cl);
	free(buf);
	free(e);
	return code;
}

#define TAG_WIRE	27
#define TAG_WHY		28
#define WHY_MAX		(ERR_TEXT_MAX + 512)

/* A rank's result as rank 0 takes it (wire_prepare). */
struct mine {
	struct result_doc d;	/* its own, read back (rank 0 keeps it) */
	unsigned char *wire;	/* the others: its wire form */
	size_t wlen;
	char why[WHY_MAX + 64];	/* "": none; else what rank 0 says */
	/* the reduction (reduce_wanted): the histograms the fold adds,
	 * taken out of the wire form (rank 0's: empty), and the clat p99
	 * of each job and direction, from the rank's own */
	struct hist *h;
	size_t nh;
	uint64_t *p99;
	size_t np;
};

/* At most this much of histograms a rank for the reduction: the sums
 * travel whole (4,736 buckets each, most empty) where the wire form
 * leaves the empty buckets out, and many ranks share a node's memory,
 * so a job of many units keeps the wire (one job: 28 histograms, 1 MB;
 * numjobs=4 without group_reporting: 70, 2.6 MB). */
#define REDUCE_MAX	(4u << 20)

/*
 * A rank's histograms taken out for the reduction: copied to m->h (rank
 * 0's left in its result, which rank 0 folds whole, and m->h empty),
 * its p99s noted, then emptied in m->d, so that its wire form carries
 * the rest. The same decision on every rank whose jobs are rank 0's
 * (the count follows the units and groups). 0, or -ENOMEM.
 */
static int reduce_take(struct peers *pe, struct mine *m)
{
	size_t n = cluster_hists(&m->d, NULL), i;
	struct hist **v;

	if (n * sizeof(struct hist) > REDUCE_MAX)
		return 0;
	v = calloc(n + 1, sizeof(*v));
	m->h = malloc((n ? n : 1) * sizeof(*m->h));
	m->np = (size_t)m->d.set.nunits * DDIR_NR;
	m->p99 = calloc(m->np + 1, sizeof(*m->p99));
	if (!v || !m->h || !m->p99) {
		free(v);
		return -ENOMEM;
	}
	cluster_hists(&m->d, v);
	cluster_p99_of(&m->d, m->p99);
	for (i = 0; i < n; i++) {
		if (pe->rank) {
			memcpy(&m->h[i], v[i], sizeof(*v[i]));
			hist_init(v[i]);
		} else {
			hist_init(&m->h[i]);
		}
	}
	free(v);
	m->nh = n;
	return 0;
}

/* MPI's op of the reduction: hist_fold's, in * into inout *, one
 * histogram an element: empty ones (the fold skips them) add nothing and
 * an empty sum takes the first that is not. Commutative and associative:
 * sums, minima and maxima of integers. */
static void hist_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const struct hist *a = in;
	struct hist *b = inout;
	int i;

	(void)type;
	for (i = 0; i < *len; i++) {
		if (cluster_hist_empty(&a[i]))
			continue;
		if (cluster_hist_empty(&b[i]))
			memcpy(&b[i], &a[i], sizeof(b[i]));
		else
			hist_merge(&b[i], &a[i]);
	}
}

/*
 * The reduction: every rank's histograms summed into rank 0's m->h down
 * MPI's tree (MPI_Reduce, a user op on whole histograms), each rank's
 * p99s gathered into *p99 (rank 0: n * m->np, rank order).
 */
static void reduce_run(struct peers *pe, struct mine *m, uint64_t **p99)
{
	MPI_Datatype t;
	MPI_Op op;

	*p99 = NULL;
	if (!pe->rank) {
		*p99 = malloc((size_t)pe->nranks * m->np * sizeof(**p99) + 1);
		if (!*p99) {
			fprintf(stderr, "iorig: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	MPI_Type_contiguous((int)sizeof(struct hist), MPI_BYTE, &t);
	MPI_Type_commit(&t);
	MPI_Op_create(hist_sum, 1, &op);
	MPI_Reduce(pe->rank ? m->h : MPI_IN_PLACE, m->h, (int)m->nh, t, op, 0,
		   MPI_COMM_WORLD);
	MPI_Op_free(&op);
	MPI_Type_free(&t);
	MPI_Gather(m->p99, (int)m->np, MPI_UINT64_T, *p99, (int)m->np,
		   MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

/*
 * Every rank: its own result read back as rank 0 reads a member
 * (strict), then, on a rank but 0, checked against rank 0's document
 * (text0) by the fold itself (the same jobs: cluster_add's message, as
 * rank 0 would give it) and made into its wire form. A failure is put in
 * m->why as rank 0 would print it; one of rank 0's own document is rank
 * 0's to say.
 */
static void wire_prepare(struct peers *pe, const char *json, size_t len,
			 const char *text0, size_t len0, const char *host0,
			 bool reduce, struct mine *m, struct err_rec *e)
{
	char label[HOST_MAX + 32], label0[HOST_MAX + 32], buf[WHY_MAX];
	struct result_doc d0;
	struct cluster *cl;
	int ret;

	snprintf(label, sizeof(label), "rank %d (%s)", pe->rank, mp.host);
	snprintf(label0, sizeof(label0), "rank 0 (%s)", host0);
	if (result_read(&m->d, json, len, label, RESULT_READ_STRICT, e)) {
		err_format(e, buf, sizeof(buf));
		snprintf(m->why, sizeof(m->why), "iorig: %s", buf);
		return;
	}
	if (reduce && reduce_take(pe, m))
		goto nomem;
	if (!pe->rank)
		return;
	if (result_wire_make(&m->d, &m->wire, &m->wlen))
		goto nomem;
	/* rank 0's own failure is rank 0's to report */
	if (result_read(&d0, text0, len0, label0, RESULT_READ_STRICT, e))
		return;
	cl = cluster_new();
	if (!cl) {
		result_doc_free(&d0);
		goto nomem;
	}
	cluster_keep_members(cl, false);	/* a check: nothing written */
	ret = cluster_add(cl, &d0, label0, host0, 0, 0, e);
	if (!ret)
		ret = cluster_add(cl, &m->d, label, mp.host, pe->rank, 0, e);
	cluster_free(cl);
	if (ret) {
		err_format(e, buf, sizeof(buf));
		snprintf(m->why, sizeof(m->why), "iorig: the cluster report: "
			 "%s", buf);
	}
	return;
nomem:
	snprintf(m->why, sizeof(m->why), "iorig: the cluster report: out of "
		 "memory");
}

/* Rank 0: rank r's wire form received (MPI_Probe for its size, into one
 * buffer that grows to the largest); its length. */
static int wire_recv(int r, unsigned char **buf, size_t *cap)
{
	unsigned char *nb;
	MPI_Status st;
	int n;

	MPI_Probe(r, TAG_WIRE, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_BYTE, &n);
	if ((size_t)n > *cap) {
		nb = realloc(*buf, (size_t)n);
		if (!nb) {
			/* a rank's figures are a few KB: nothing left */
			fprintf(stderr, "iorig: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		*buf = nb;
		*cap = (size_t)n;
	}
	MPI_Recv(*buf, n, MPI_BYTE, r, TAG_WIRE, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	return n;
}

/* Rank 0: rank r's wire form received and folded in (read into mem's
 * units and groups, the same for every rank); 0, or -EINVAL / -ENOMEM
 * with e. */
static int wire_add(struct cluster *cl, int r, const char *host,
		    double skew, const struct job *const *jobs, size_t nj,
		    unsigned char **buf, size_t *cap, struct result_wire *mem,
		    struct result_wire *keep, struct err_rec *e)
{
	char label[HOST_MAX + 32];
	struct result_doc m;
	int n = wire_recv(r, buf, cap), ret;

	snprintf(label, sizeof(label), "rank %d (%s)", r, host);
	ret = result_wire_read(&m, *buf, (size_t)n, jobs, nj, mem, keep);
	if (ret) {
		err_set(e, label, 0, "", ret == -ENOMEM ? "out of memory" :
			"its result did not arrive whole");
		result_wire_done(mem);
		return ret;
	}
	ret = cluster_add(cl, &m, label, host, r, skew, e);
	result_wire_done(mem);
	return ret;
}

/*
 * Rank 0, every rank's check passed: its own result folded first, then
 * each other rank's wire form as it is received, in rank order (the fold
 * of `iorig merge`), then the report; the exit code of the cluster's
 * figures.
 */
static int wire_report(struct mine *m0, const uint64_t *p99,
		       const char *hosts, const double *skew, int n,
		       const char *formats, FILE *out, char *const *checks,
		       size_t nchecks)
{
	struct cluster *cl = cluster_new();
	struct err_rec *e = calloc(1, sizeof(*e));
	char *buf = malloc(WHY_MAX), label[HOST_MAX + 32];
	struct result_wire keep = { 0 }, mem = { 0 };
	const struct job **jobs;
	unsigned char *wbuf = NULL;
	size_t cap = 0, nj = (size_t)m0->d.set.nunits, k;
	int r, code = 1, failed = 0;

	if (cl)
		cluster_keep_members(cl, cluster_reads_members(formats, checks,
							       nchecks));
	jobs = calloc(nj + 1, sizeof(*jobs));
	for (k = 0; jobs && k < nj; k++)
		jobs[k] = m0->d.set.units[k].job;
	snprintf(label, sizeof(label), "rank 0 (%s)", hosts);
	if (!cl || !e || !buf || !jobs ||
	    cluster_add(cl, &m0->d, label, hosts, 0, skew[0], e) == -ENOMEM)
		failed = 1;
	if (failed) {
		fprintf(stderr, "iorig: the cluster report: out of memory\n");
		result_doc_free(&m0->d);
	}
	for (r = 1; r < n; r++) {
		if (failed) {	/* taken and dropped: rank r goes on */
			wire_recv(r, &wbuf, &cap);
			continue;
		}
		if (wire_add(cl, r, hosts + (size_t)r * HOST_MAX, skew[r],
			     jobs, nj, &wbuf, &cap, &mem, &keep, e)) {
			err_format(e, buf, WHY_MAX);
			fprintf(stderr, "iorig: the cluster report: %s\n", buf);
			failed = 1;
		}
	}
	free(wbuf);
	free(jobs);
	result_wire_free(&mem);
	/* the reduction: the other ranks' histograms, summed, and each
	 * one's p99s (its row), where its fold had them empty */
	for (r = 1; !failed && m0->nh && r < n; r++)
		failed = cluster_set_p99(cl, (unsigned)r,
					 p99 + (size_t)r * m0->np, m0->np);
	if (!failed && m0->nh && cluster_add_hists(cl, m0->h, m0->nh))
		failed = 1;
	if (failed && m0->nh)
		fprintf(stderr, "iorig: the cluster report: the ranks' "
			"histograms did not fold\n");
	if (!failed)
		code = cluster_out(cl, formats, out, checks, nchecks, e, buf);
	cluster_free(cl);
	result_wire_free(&keep);
	free(buf);
	free(e);
	return code;
}

/*
 * The cluster report of the wire path: rank 0's document to every rank
 * (a broadcast: a tree), each rank's check (wire_prepare), the first
 * failing rank's message (MINLOC: rank 0 prints it) or every rank's wire
 * form to rank 0 (wire_report). Rank 0's exit code of the cluster's
 * figures; the others' 0.
 */
static int wire_finish(struct peers *pe, const char *json, size_t len,
		       const char *hosts, const double *skew, bool reduce,
		       const char *formats, FILE *out, char *const *checks,
		       size_t nchecks)
{
	struct mine *m = calloc(1, sizeof(*m));
	struct err_rec *e = calloc(1, sizeof(*e));
	/* rank 0's host and the length of its document: one broadcast
	 * (each collective costs a round of every rank being scheduled,
	 * dear when they are oversubscribed) */
	struct {
		char host[HOST_MAX];
		unsigned long long len;
	} h0;
	char *text0 = NULL;
	uint64_t *p99 = NULL;
	int in[2], res[2], code = 1;

	if (!m || !e) {
		fprintf(stderr, "iorig: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memcpy(h0.host, mp.host, HOST_MAX);
	h0.len = len;
	MPI_Bcast(&h0, sizeof(h0), MPI_BYTE, 0, MPI_COMM_WORLD);
	h0.host[HOST_MAX - 1] = '\0';
	text0 = pe->rank ? malloc(h0.len ? h0.len : 1) : (char *)json;
	if (!text0 || h0.len > INT_MAX) {
		fprintf(stderr, "iorig: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Bcast(text0, (int)h0.len, MPI_CHAR, 0, MPI_COMM_WORLD);
	wire_prepare(pe, json, len, text0, h0.len, h0.host, reduce, m, e);
	if (pe->rank)
		free(text0);
	in[0] = m->why[0] ? pe->rank : INT_MAX;
	in[1] = pe->rank;
	MPI_Allreduce(in, res, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
	if (res[0] != INT_MAX) {
		/* the first rank (in rank order) whose result would not
		 * fold: rank 0 says why, as its fold in turn would */
		if (pe->rank && pe->rank == res[0])
			MPI_Send(m->why, sizeof(m->why), MPI_CHAR, 0,
				 TAG_WHY, MPI_COMM_WORLD);
		if (!pe->rank && res[0])
			MPI_Recv(m->why, sizeof(m->why), MPI_CHAR, res[0],
				 TAG_WHY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (!pe->rank) {
			m->why[sizeof(m->why) - 1] = '\0';
			fprintf(stderr, "%s\n", m->why);
		}
		result_doc_free(&m->d);
	} else {
		/* every rank's check passed, so every rank made the same
		 * decision (m->nh: reduce_take) */
		if (m->nh)
			reduce_run(pe, m, &p99);
		if (pe->rank) {
			MPI_Send(m->wire, (int)m->wlen, MPI_BYTE, 0, TAG_WIRE,
				 MPI_COMM_WORLD);
			result_doc_free(&m->d);
			code = 0;
		} else {
			/* m->d is taken by the fold */
			code = wire_report(m, p99, hosts, skew, pe->nranks,
					   formats, out, checks, nchecks);
		}
	}
	free(p99);
	free(m->h);
	free(m->p99);
	free(m->wire);
	free(m);
	free(e);
	return code;
}

/*
 * Whether the report can take the ranks' histograms summed (the
 * reduction) rather than each rank's own: it reads no member's own
 * figures (cluster_reads_members: its formats and checks).
 * IORIG_MPI_WIRE=1: never (each rank's whole wire form, to compare).
 * Rank 0's decision.
 */
static int reduce_wanted(const char *formats, char *const *checks,
			 size_t nchecks)
{
	const char *w = getenv("IORIG_MPI_WIRE");

	if (w && !strcmp(w, "1"))
		return 0;
	return !cluster_reads_members(formats, checks, nchecks);
}

static int mpi_finish(struct peers *pe, const char *json, size_t len,
		      int code, const char *formats, FILE *out,
		      char *const *checks, size_t nchecks)
{
	char *hosts = NULL;
	int n = pe->nranks, worst = code_rank(code), ccode = 1, all;
	int gather = 0, v[4] = { 0, 0, 0, 0 };
	unsigned ng = mp.nstart;
	double *t = NULL, *skew = NULL, *mystart = NULL;

	pe->finished = 1;
	if (pe->failed)
		goto out;
	/* the ranks' worst code, the most wait groups, rank 0's
	 * IORIG_MPI_GATHER and its choice of the reduction: one
	 * collective */
	v[0] = worst;
	v[1] = ng < INT_MAX ? (int)ng : INT_MAX;
	if (pe->rank == 0) {
		const char *g = getenv("IORIG_MPI_GATHER");

		v[2] = g && !strcmp(g, "1");
		v[3] = reduce_wanted(formats, checks, nchecks);
	}
	MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	all = v[0];
	ng = (unsigned)v[1];
	gather = v[2];
	if (pe->rank == 0) {
		hosts = calloc(n, HOST_MAX);
		t = calloc((size_t)n * (ng ? ng : 1), sizeof(*t));
		skew = calloc(n, sizeof(*skew));
		if (!hosts || !t || !skew) {
			fprintf(stderr, "iorig: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	mystart = calloc(ng ? ng : 1, sizeof(*mystart));
	if (!mystart) {
		fprintf(stderr, "iorig: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (mp.nstart)
		memcpy(mystart, mp.start, mp.nstart * sizeof(double));
	MPI_Gather(mystart, (int)ng, MPI_DOUBLE, t, (int)ng, MPI_DOUBLE, 0,
		   MPI_COMM_WORLD);
	MPI_Gather(mp.host, HOST_MAX, MPI_CHAR, hosts, HOST_MAX, MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	if (pe->rank == 0)
		skews(t, ng, n, skew);
	/*
	 * Each rank's result to rank 0, which takes them one at a time as
	 * it folds them: its memory is one rank's and what the merge keeps
	 * of each member (a few KB), not every rank's at once (a gather of
	 * 10,000 ranks' would be gigabytes). Each rank reads its own
	 * document back and sends its wire form (wire_finish): rank 0
	 * parses no JSON but its own. IORIG_MPI_GATHER=1: each rank's JSON
	 * document, read back on rank 0 (cluster_report), as before; the
	 * same report.
	 */
	if (!gather) {
		ccode = wire_finish(pe, json, len, hosts, skew, v[3] != 0,
				    formats, out, checks, nchecks);
	} else if (pe->rank != 0) {
		MPI_Send(json, (int)len, MPI_CHAR, 0, TAG_RESULT,
			 MPI_COMM_WORLD);
	} else {
		ccode = cluster_report(json, len, hosts, skew, n, formats, out,
				       checks, nchecks);
	}
	if (pe->rank == 0) {
		/* 0 or 3 (a check failed): the report is whole */
		pe->reported = ccode == 0 || ccode == 3;
		/* The ranks' worst, then the cluster's checks. */
		code = all >= 1000 ? all - 1000 : all == 3 ? 1 : all == 2 ? 4 :
		       all == 1 ? 3 : 0;
		if (ccode == 1 || ccode == 2 || (ccode == 3 && code == 0))
			code = ccode;
	}
	/*
	 * No rank exits before rank 0 has written the report: mpirun takes
	 * a non-zero exit (a failed check, a signal) for a failed job and
	 * kills the ranks left.
	 */
	MPI_Barrier(MPI_COMM_WORLD);
out:
	free(hosts);
	free(t);
	free(skew);
	free(mystart);
	free(mp.start);
	mp.start = NULL;
	return code;
}

static int mpi_quit(struct peers *pe, int code, const char *failed)
{
	char why[MSG_MAX + HOST_MAX + 64];

	if (code && !pe->failed && !pe->finished)
		mpi_agree(pe, failed && *failed ? failed : "failed", why,
			  sizeof(why));
	pe->finished = 1;
	/* After the report is out: under a stopping mpirun this waits
	 * for the daemon's timeouts. */
	MPI_Finalize();
	return code;
}

struct peers *peers_mpi_init(int *argc, char ***argv)
{
	MPI_Comm local;
	char num[32];
	int prov;

	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &prov) !=
	    MPI_SUCCESS) {
		fprintf(stderr, "iorig: MPI_Init failed\n");
		return NULL;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &mp.pe.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mp.pe.nranks);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &local);
	MPI_Comm_rank(local, &mp.pe.local_rank);
	MPI_Comm_free(&local);
	if (gethostname(mp.host, sizeof(mp.host) - 1))
		strcpy(mp.host, "?");
	mp.pe.host = mp.host;
	mp.pe.agree = mpi_agree;
	mp.pe.go = mpi_go;
	mp.pe.finish = mpi_finish;
	mp.pe.quit = mpi_quit;
	snprintf(num, sizeof(num), "%d", mp.pe.rank);
	defines_set("RANK", num);
	snprintf(num, sizeof(num), "%d", mp.pe.nranks);
	defines_set("NRANKS", num);
	snprintf(num, sizeof(num), "%d", mp.pe.local_rank);
	defines_set("LOCAL_RANK", num);
	defines_set("HOSTNAME", mp.host);
	return &mp.pe;
}
