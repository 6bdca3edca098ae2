/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PEERS_H
#define IORIG_PEERS_H

#include <stddef.h>
#include <stdio.h>

/*
 * Other processes running the same job: the ranks of an MPI run
 * (iorig-mpi, src/mpi/mpi.c). The plain iorig has none (peers_mpi_init is
 * a weak symbol left undefined, so NULL) and pays one NULL test per wait
 * group. Every function below is collective: every rank calls it, in the
 * same order: agree (before the run), then per wait group agree (its
 * targets open) and go (its workers set up), then finish.
 */
struct peers {
	int rank, nranks, local_rank;
	const char *host;
	/*
	 * This rank's failure (NULL: none) against every rank's. Returns 0
	 * when no rank failed; else -ECANCELED with why naming the first
	 * rank that failed, its host and its message. After a failed agree
	 * no collective follows: each rank reports and exits.
	 */
	int (*agree)(struct peers *pe, const char *failed, char *why,
		     size_t whylen);
	/* Wait group wg starts: a barrier, then this rank's start time. */
	void (*go)(struct peers *pe, unsigned wg);
	/*
	 * This rank's result (iorig's JSON report, len bytes) and exit code
	 * to rank 0, which writes the cluster report in formats (as
	 * --output-format names them) to out with the checks (reported
	 * says whether it did). Returns the process' exit code; quit
	 * follows.
	 */
	int (*finish)(struct peers *pe, const char *json, size_t len,
		      int code, const char *formats, FILE *out,
		      char *const *checks, size_t nchecks);
	/* Last, once: finalizes MPI; returns code. Without finish before
	 * it, this rank ended before its report (code non-zero: it failed,
	 * why says how, and the others are told unless an agree failed). */
	int (*quit)(struct peers *pe, int code, const char *why);
	int failed;		/* an agree failed: no collective follows */
	int finished;		/* finish was called (MPI is finalized) */
	/* rank 0: finish wrote the whole cluster report to out; else out
	 * holds nothing worth keeping, and --output stays as it was */
	int reported;
};

/* Starts MPI (iorig-mpi); NULL with a message on stderr when it cannot. */
struct peers *peers_mpi_init(int *argc, char ***argv) __attribute__((weak));

#endif
