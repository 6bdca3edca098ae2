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
 * (finish: each rank's JSON report sent to rank 0, which reads and merges
 * them one at a time with the cluster module and writes the cluster
 * report). A rank that
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
	if (failed)
		goto out;
	if (!cluster_finish(cl, e)) {
		code = cluster_write(cluster_result(cl), formats, checks,
				     nchecks, out, e);
		if (code == -EINVAL)
			code = 2;
		else if (code < 0 || fflush(out) || ferror(out))
			code = 1;
		if (code == 2 || code == 1)
			goto fail;
		goto out;
	}
fail:
	err_format(e, buf, ERR_TEXT_MAX + 512);
	fprintf(stderr, "iorig: the cluster report: %s\n", buf);
out:
	cluster_free(cl);
	free(buf);
	free(e);
	return code;
}

static int mpi_finish(struct peers *pe, const char *json, size_t len,
		      int code, const char *formats, FILE *out,
		      char *const *checks, size_t nchecks)
{
	char *hosts = NULL;
	int n = pe->nranks, worst = code_rank(code), ccode, all;
	unsigned ng = mp.nstart;
	double *t = NULL, *skew = NULL, *mystart = NULL;

	pe->finished = 1;
	if (pe->failed)
		goto out;
	MPI_Allreduce(&worst, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &ng, 1, MPI_UNSIGNED, MPI_MAX,
		      MPI_COMM_WORLD);
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
	/*
	 * Each rank's result to rank 0, which takes them one at a time as
	 * it reads them (cluster_report): its memory is one document and
	 * what the merge keeps of each member (a few KB), not every
	 * rank's document at once (a gather of 10,000 ranks' would be
	 * gigabytes).
	 */
	if (pe->rank != 0)
		MPI_Send(json, (int)len, MPI_CHAR, 0, TAG_RESULT,
			 MPI_COMM_WORLD);
	if (pe->rank == 0) {
		skews(t, ng, n, skew);
		ccode = cluster_report(json, len, hosts, skew, n, formats, out,
				       checks, nchecks);
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
