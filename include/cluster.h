/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CLUSTER_H
#define IORIG_CLUSTER_H

/*
 * The cluster result: N iorig results (one per MPI rank, or files given
 * to `iorig merge`), each read back into the result model (result.h),
 * folded one at a time into one merged result of the model with its
 * cluster part (struct cluster_info). Latency histograms are merged
 * bucket by bucket, so cluster percentiles are those of the pooled
 * samples (never an average of percentiles); rates are the members'
 * added; per-rank and per-host rows carry the spread (min, median, max)
 * and name the slowest rank; "first done" (rates when the first member
 * finished) and "last done" (over the whole run).
 *
 * A member is folded and freed before the next is read: what the merge
 * keeps of it is its own figures of each job, so any number of members
 * merge in memory that grows with them by that much only.
 *
 * Errors are reported in the project's error record (err.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct err_rec;
struct report_format;
struct result_doc;
struct run_result;
struct cluster;

struct cluster *cluster_new(void);
void cluster_free(struct cluster *c);

/*
 * Folds member m (read back, RESULT_READ_STRICT) into c and frees it (it
 * is taken either way). label names the member in the report (NULL: "rank
 * N" or "member N"), host its host (NULL: the result's), rank its MPI
 * rank (-1: merged from files), start_skew_ns its start after the
 * earliest member's. 0; -EINVAL with e naming the members and what
 * differs when their jobs are not the same (names, rw, bs...); -ENOMEM.
 */
int cluster_add(struct cluster *c, struct result_doc *m, const char *label,
		const char *host, int rank, double start_skew_ns,
		struct err_rec *e);
/*
 * Whether a report in formats (cluster_formats_parse's; NULL or "":
 * text) with checks reads each member's own figures: json lists them,
 * fio-json, json+ and terse have an entry per member, a rank: check
 * judges each; text, table, html, junit, openmetrics and prometheus show
 * the cluster's figures and each member's row only. When none does,
 * cluster_keep_members(c, false) before the first cluster_add: the fold
 * keeps each member's row but not its figures (packing them is a pass
 * over each of its units), and cluster_member_unit gives zeros.
 */
bool cluster_reads_members(const char *formats, char *const *checks,
			   size_t nchecks);
void cluster_keep_members(struct cluster *c, bool keep);

/*
 * The MPI reduction (src/mpi/mpi.c): members whose histograms were
 * summed down MPI's tree rather than sent whole. cluster_hists lists
 * the histograms of d the fold adds (each unit's then each group's: per
 * direction slat, clat, lat, sched_lat, then sync, the verify reads'
 * lat) into v (NULL: only counted); how many. A member folded with them
 * empty (cluster_hist_empty: the fold skips it) adds only its other
 * figures; cluster_add_hists then folds h[n], the sums of those members'
 * histograms in cluster_hists' order (the empty ones left out), into the
 * merged result, which is what folding each member's own would have made
 * (the sums, minima and maxima of integers do not depend on the order).
 * A member's row keeps the clat p99 of its own histogram:
 * cluster_p99_of gives d's (njobs * DDIR_NR: job-major), cluster_set_p99
 * sets member's. Before cluster_finish; 0, -EINVAL or -ENOMEM.
 */
struct hist;
size_t cluster_hists(struct result_doc *d, struct hist **v);
bool cluster_hist_empty(const struct hist *h);
int cluster_add_hists(struct cluster *c, const struct hist *h, size_t n);
void cluster_p99_of(const struct result_doc *d, uint64_t *p99);
int cluster_set_p99(struct cluster *c, unsigned member, const uint64_t *p99,
		    size_t n);

/* Every member added: the cluster part computed. 0, or -EINVAL (no
 * member) / -ENOMEM with e. */
int cluster_finish(struct cluster *c, struct err_rec *e);
/* The merged result (r->cluster its cluster part), once finished; else
 * NULL. It lives as long as c. */
const struct run_result *cluster_result(const struct cluster *c);

/*
 * --output-format of a cluster report: NAME[,NAME...], any format of the
 * table, in the order given, into out[max] (*n of them); 0, or -EINVAL
 * with e.
 */
int cluster_formats_parse(const char *formats,
			  const struct report_format **out, size_t max,
			  size_t *n, struct err_rec *e);
/*
 * Writes the merged result r in formats (cluster_formats_parse; NULL or
 * "": text), a blank line between two: each format's cluster layout where
 * it has one (report.h: report_write). The checks (cluster_checks) are
 * the check report of what is written, so every format that shows checks
 * shows them (json, table, html, junit, openmetrics...); with text among
 * the formats, cluster_checks' lines follow. 0 or 3 (a check failed), or
 * -EINVAL (an unknown format, a bad check) / -ENOMEM / -EIO (writing
 * failed) with e.
 */
int cluster_write(const struct run_result *r, const char *formats,
		  char *const *checks, size_t nchecks, FILE *out,
		  struct err_rec *e);

/*
 * --check expressions evaluated on the cluster figures ("read.iops>=1M",
 * "jobname:read.clat.p99<=2ms") and, prefixed "rank:", on every member
 * ("rank:read.iops>=100k"), by the metric function of every check
 * (result_metric). Prints PASS/FAIL lines to out. Returns 0 (all pass), 3
 * (one failed), or -EINVAL with e (a bad expression: exit 2).
 */
int cluster_checks(const struct run_result *r, char *const *checks,
		   size_t nchecks, FILE *out, struct err_rec *e);

/* The checks' syntax alone, to refuse a bad one before anything runs:
 * 0 or -EINVAL with e (exit 2). */
int cluster_checks_parse(char *const *checks, size_t nchecks,
			 struct err_rec *e);

/* What `iorig merge` was asked (its command line: src/face/mergecmd.c):
 * the results to merge, the formats (cluster_formats_parse), the output
 * file (NULL: standard output), the checks. */
struct merge_req {
	const char *formats, *output;
	char *const *files;
	size_t nfiles;
	char *const *checks;
	size_t nchecks;
};

/* The merge: every file read and folded in turn, the report written
 * through the door; errors said on stderr. Returns the exit code (0, 3 a
 * check failed, 2 bad input, 1 no memory or a failed write). */
int merge_run(const struct merge_req *q);

#endif
