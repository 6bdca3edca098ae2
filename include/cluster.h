/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CLUSTER_H
#define IORIG_CLUSTER_H

/*
 * The cluster result: N iorig JSON results (one per MPI rank, or files
 * given to `iorig merge`) merged into one. Latency histograms are merged
 * bucket by bucket, so cluster percentiles are those of the pooled
 * samples (never an average of percentiles); rates are aggregated over
 * the common window; per-rank and per-host rows carry the spread (min,
 * median, max) and name the slowest rank; "first done" (rates when the
 * first member finished) and "last done" (over the whole run).
 *
 * Errors are reported in the project's error record (err.h): the brief's
 * "struct err" is struct err_rec here.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct err_rec;
struct hist;

struct cluster_member {
	json_t *result;		/* one iorig --output-format=json document */
	const char *label;	/* "rank 3 (hostB)" or the file name */
	const char *host;	/* host name (from the result if NULL) */
	int rank;		/* MPI rank, or -1 when merged from files */
	double start_skew_ns;	/* start delay against the earliest, or 0 */
};

/*
 * Merges m[0..n-1] (n >= 1; the members are not modified and may be freed
 * after). Returns a new cluster document (json_decref it), or NULL with a
 * message in e naming the members and what differs when their jobs are
 * not the same (names, rw, bs...), or what is wrong with a malformed one.
 */
json_t *cluster_merge(const struct cluster_member *m, size_t n,
		      struct err_rec *e);

/* The formats list (text, json, fio-json, comma-separated) checked
 * before anything is opened: 0, or -EINVAL with e. */
int cluster_formats_check(const char *formats, struct err_rec *e);
/*
 * Writes the cluster report in formats, a comma-separated list as
 * --output-format names them ("text", "json", "fio-json"). Returns 0, or
 * -EINVAL (an unknown format) / -EIO (writing failed) with e.
 */
int cluster_write(const json_t *cluster, const char *formats, FILE *out,
		  struct err_rec *e);

/*
 * --check expressions evaluated on the cluster figures ("read.iops>=1M",
 * "jobname:read.clat.p99<=2ms") and, prefixed "rank:", on every member
 * ("rank:read.iops>=100k"). Prints PASS/FAIL lines to out. Returns 0 (all
 * pass), 3 (one failed), or -EINVAL with e (a bad expression: exit 2).
 */
int cluster_checks(const json_t *cluster, char *const *checks,
		   size_t nchecks, FILE *out, struct err_rec *e);

/* An option each member may set for itself (its targets, sizes,
 * offsets, seed, CPUs): the only ones that may differ between members. */
bool cluster_option_per_member(const char *name);

/* fio's client-mode JSON (fio --client, "client_stats" with an "All
 * clients" entry per job) of a cluster result; 0 or -EIO/-ENOMEM. */
int cluster_write_fio(FILE *out, const json_t *cluster);

/* h (initialized) += the samples of an iorig JSON histogram object
 * ({count, overflow, min, max, buckets}); buckets that are not iorig's
 * are skipped (cluster_merge refuses them). */
void cluster_hist_from_json(struct hist *h, const json_t *o);

/* The checks' syntax alone, to refuse a bad one before anything runs:
 * 0 or -EINVAL with e (exit 2). */
int cluster_checks_parse(char *const *checks, size_t nchecks,
			 struct err_rec *e);

/* `iorig merge [--output-format=F] [--check=X]... A.json B.json...`:
 * argv[0] is "merge". Returns the exit code. */
int merge_main(int argc, char **argv);

#endif
