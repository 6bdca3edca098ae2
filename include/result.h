/* SPDX-License-Identifier: MIT */
#ifndef IORIG_RESULT_H
#define IORIG_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine.h"
#include "metric.h"
#include "stats.h"
#include "nvmedev.h"
#include "sysinfo.h"
#include "warn.h"

/*
 * The result model: what a run produced (struct run_result) and how it is
 * folded into what every output shows: reported units (a clone, or the
 * clones of a group_reporting group merged, or the runs of a repeated
 * job), reporting groups, and each unit's headline row. The writers
 * (report.h, src/report/) and the checks (check.h) read it; nothing here
 * writes output.
 */
struct plan;
struct raw_doc;
struct curve_set;
struct cluster_info;

/* One target of a job as the run found it; path NULL for the null engine. */
struct run_target {
	char *path;
	struct sysinfo_target info;
	int nvme;		/* its namespace in run_result.nvme; -1 none */
};

struct run_targets {
	struct run_target *t;	/* NULL when the job never opened them */
	unsigned n;
	struct engine_setup engine;	/* what the engine's setup got */
};

struct check_report;
struct history;

/* What a run produced, handed to a report writer. */
struct run_result {
	const struct plan *plan;
	struct job_stats *stats;	/* one per plan->jobs[i] */
	bool *ran;			/* job i started (false: never ran) */
	struct cpu_usage proc_cpu;	/* RUSAGE_SELF over the run */
	/* one per wait group (job->plan.wait_group) */
	struct phase_cpu *phases;
	unsigned nphases;
	uint64_t wall_ns;		/* whole run */
	time_t start_time;		/* wall clock at start */
	uint64_t start_time_ms;		/* the same in ms since the epoch */
	int signo;			/* SIGINT/SIGTERM that stopped it, or 0 */
	const char *version;
	/* What fio's layouts (fio-json, json+, terse) give as fio's
	 * version: "iorig-VER", or invoked as fio "fio-3.33 (iorig VER)". */
	const char *fio_version;
	int argc;			/* the command line, for the report */
	char *const *argv;
	unsigned terse_version;		/* --terse-version (2..5; default 3) */
	unsigned ncpus;
	char kernel[128];		/* uname -r */
	char hostname[128];
	char cpu_model[128];		/* "" unknown */
	uint64_t memory_bytes;		/* 0 unknown */
	struct run_targets *targets;	/* one per plan->jobs[i], or NULL */
	struct sysinfo_disks disks;	/* devices under the targets */
	struct nvmedev_set nvme;	/* NVMe namespaces under them */
	const struct raw_doc *doc;	/* the options as given, or NULL */
	/* --profile=NAME and its options as given (NULL: not given), which
	 * fio lists among its global options; profile NULL: none. */
	const struct profile *profile;
	const char *const *profile_vals;
	/* Checks, repeats and baseline figures (check.h); NULL: none. */
	const struct check_report *checks;
	/* The report set collected once after the run (result_collect), or
	 * NULL: each writer collects its own. */
	const struct result_set *set;
	/* The rate_curve curves as a saved result gives them (curve.h), or
	 * NULL: curve_collect folds them from the jobs' figures. */
	const struct curve_set *curves;
	/* A merged result's cluster part (below), or NULL: one run's. */
	const struct cluster_info *cluster;
	/* --history's database (history.h), or NULL: the HTML report draws
	 * the trend of the headline figures over its runs. */
	struct history *history;
	/* Every warning of the run, the plan's first (warn.h). */
	struct warn_list warnings;
};

/*
 * A reported unit: one clone, or (group_reporting) all the clones of the
 * jobs of a group merged. result_units fills up to max units and returns
 * how many; each unit's stats are merged copies, whose intervals are
 * references of their own (result_set_free drops them).
 * The runs of a repeated job (repeat=N) are one unit: its stats are those
 * of the runs together (counts and histograms add up, runtimes add up as
 * the runs went one after the other) and nruns is N.
 */
struct result_unit {
	const struct job *job;		/* the first job of the unit */
	struct job_stats stats;
	unsigned njobs;			/* plan jobs: clones x runs */
	unsigned nruns;			/* runs folded in; 0 means 1 */
	/* stats=0 on every job of the unit: in no report (fio leaves such a
	 * job out of its output); its figures are not merged */
	bool hidden;
	/* The phase (wait group) it ran in: the process' and the machine's
	 * CPU around it; a repeated unit's, those of all its runs added up.
	 * nphases 0: not known. See result_unit_phase. */
	struct phase_cpu phase;
	unsigned nphases;
};

int result_units(const struct run_result *r, struct result_unit **units);
/*
 * The unit of every job of plan p, as result_units numbers them, into
 * unit_of[0..p->njobs). Returns the number of units, or -ENOMEM.
 */
int result_unit_of(const struct plan *p, size_t *unit_of);
/* Per reporting group: all its jobs merged (but those with stats=0). */
int result_groups(const struct run_result *r, struct job_stats **groups);

/* Both of the above, as every report writer needs them. */
struct result_set {
	struct result_unit *units;
	int nunits;
	struct job_stats *groups;
	int ngroups;
	size_t *unit_of;		/* per plan job, see result_unit_of; NULL
					 * for a saved result (no plan jobs) */
	/* Per group: its jobs reported (stats=1), and the first of them
	 * (whose percentile options the group's figures follow; NULL when
	 * none). */
	unsigned *group_njobs;
	const struct job **group_first;
	bool borrowed;			/* r->set's: not ours to free */
};

/*
 * The units and groups of r, merged; r->set's when the caller collected
 * them once for the checks and the report writer (then borrowed: s is a
 * copy that result_set_free only forgets).
 */
int result_collect(const struct run_result *r, struct result_set *s);
void result_set_free(struct result_set *s);

/*
 * Run `run` (0..nruns-1) of unit `unit` of s, on its own: the jobs of that
 * run merged into out (nruns 1). out->stats.nclones is 0 when none of
 * them ran. out->stats.intervals is NULL: nothing to free.
 */
void result_unit_run(const struct run_result *r, const struct result_set *s,
		     int unit, unsigned run, struct result_unit *out);

/*
 * cmdprio's latencies per I/O priority of unit `unit` of s (stats.h),
 * its clones' merged as fio's group_reporting merges them (by priority,
 * the first clone's order first); mixed: reads and writes as one
 * direction (unified_rw_reporting), in out->v[0]. *out is NULL when no
 * clone has any; else the caller frees it (prio_stats_free). 0, or
 * -ENOMEM.
 */
int result_unit_prios(const struct run_result *r, const struct result_set *s,
		      int unit, bool mixed, struct prio_stats **out);

/*
 * One unit's headline figures, as the table shows them and the JSON
 * "summary" carries them. CPU columns are process-wide (RUSAGE_SELF) over
 * the unit's phase, so they include io_uring's kernel-side threads and the
 * pthread pool; us_per_io divides them by every I/O of the phase. A
 * repeated unit's phases are those of all its runs, added up.
 */
struct result_row {
	uint64_t ios;
	uint64_t bytes;
	uint64_t runtime_ns;
	uint64_t utime_ns;
	uint64_t stime_ns;
	double cpu_pct;		/* (utime + stime) / phase wall time */
	double us_per_io;
	double lat_mean_ns;	/* both directions */
	uint64_t lat_p99_ns;
	double iops;
	double bw_bytes;	/* per second */
};

void result_row(const struct run_result *r, const struct result_unit *u,
		struct result_row *row);
/* The row's iops and bw_bytes alone (result_row's, without the copy and
 * merge of the directions' latency histograms it makes for the rest). */
void result_row_rates(const struct result_unit *u, double *iops, double *bw);

/*
 * The phase (wait group) u ran in, into ph (u->phase); for a repeated
 * unit, the phases of all its runs added up. Returns how many phases that
 * is (u->nphases): 0 when r has no phase figures.
 */
unsigned result_unit_phase(const struct run_result *r,
			   const struct result_unit *u, struct phase_cpu *ph);

/* The targets of u's first job, or NULL when not known. */
const struct run_targets *result_targets(const struct run_result *r,
					 const struct result_unit *u);

/* Metric m's value for a unit with these stats and headline row: what the
 * report shows for it (metric.h names the metrics). */
double result_metric(const struct metric *m, const struct job_stats *s,
		     const struct result_row *row);

/*
 * The cluster part of a merged result (iorig merge, the ranks of
 * iorig-mpi; src/run/cluster.c folds it): who the members were, each one's
 * own figures, and per job and direction each member's row, the hosts'
 * rows, the spread, "first done" and "last done". The merged units
 * themselves are the result's (their rates the members' added: stats.h,
 * dir_stats.agg).
 */
struct cluster_row {		/* one member in one direction of one job */
	double iops, bw;	/* bw in B/s */
	uint64_t ios, io_bytes, runtime_ns, clat_p99_ns;
};

struct cluster_host_row {
	unsigned host;		/* index in cluster_info.hosts */
	unsigned members;
	double iops, bw;
	uint64_t ios, io_bytes;
};

struct cluster_done {		/* the figures when a member finished */
	uint64_t at_ns;		/* since the earliest start */
	double ios, io_bytes, iops, bw;
	unsigned member;	/* which one */
};

struct cluster_spread {
	double min, median, max;
	unsigned slowest;	/* the member of the least IOPS */
};

struct cluster_dir {
	uint64_t common_window_ns;	/* every member running */
	struct cluster_done first, last;
	struct cluster_spread iops, bw;
	struct cluster_row *rows;	/* per member */
	struct cluster_host_row *hosts;	/* per host */
};

struct cluster_job {		/* job k of every member */
	struct cluster_dir dir[DDIR_NR];
};

/* A member's own figures of one job: its unit (the merged result's job)
 * and its summary row (has_row false: it measured nothing). */
struct cluster_unit {
	struct result_unit u;
	struct result_row row;
	bool has_row;
};

/*
 * A member's cluster_unit as the cluster keeps it: its bytes with the
 * runs of zero words (a histogram's empty buckets: nearly all of its
 * 4,800) left out and the other words as LEB128 varints, so that a
 * member costs kilobytes, not the megabyte of its whole job_stats.
 * Exact: unpacking gives back every byte. The unit's pointers (its job,
 * an engine's static name) are kept as they are; its intervals, steady
 * state and priorities are not kept (NULL).
 */
struct cluster_packed {
	unsigned char *b;
	size_t len;
};

/* p (its old bytes freed) = cu; 0 or -ENOMEM. */
int cluster_unit_pack(struct cluster_packed *p, const struct cluster_unit *cu);
/* The same with cu's unit taken from u (no copy of its megabyte into
 * cu): p = { *u, cu's row, has_row }. */
int cluster_unit_pack_from(struct cluster_packed *p,
			   const struct result_unit *u,
			   const struct cluster_unit *cu);
/*
 * nwords 64-bit words at p as runs (zero words left out, the others as
 * varints), into b (NULL: only counted); the length. Unpacked: exactly
 * nwords words from b at *pos on (moved past them); 0, or -EINVAL when
 * b[0..len) does not hold them (len's last byte must end a varint).
 */
size_t result_words_pack(unsigned char *b, const void *p, size_t nwords);
int result_words_unpack(void *p, size_t nwords, const unsigned char *b,
			size_t len, size_t *pos);
/*
 * The runs of words an unpack onto zeros wrote: result_words_clear makes
 * them zero again (and forgets them), so that a buffer of a unit's
 * 650 KB is cleared once, not for every member read into it.
 */
struct word_runs {
	struct word_run {
		unsigned char *at;
		size_t n;		/* words */
	} *v;
	size_t n, cap;
};
/*
 * As result_words_unpack, onto nwords words that are all zero (runs:
 * NULL, the zero words written too: result_words_unpack): only the others
 * written, each run noted in runs first. 0, -EINVAL, or -ENOMEM (no room
 * for a note: that run not written). Whatever it returns, clearing runs
 * leaves p all zero.
 */
int result_words_unpack_onto(void *p, size_t nwords, const unsigned char *b,
			     size_t len, size_t *pos, struct word_runs *runs);
void result_words_clear(struct word_runs *r);
/* Member i's own figures of job k, whole, into *out. */
void cluster_member_unit(const struct cluster_info *ci, unsigned i,
			 unsigned k, struct cluster_unit *out);

struct cluster_member_info {
	char *label;		/* "rank 3 (hostB)", the file name */
	char *host;
	int rank;		/* -1: merged from files */
	double start_skew_ns;	/* its start after the earliest */
	uint64_t wall_ns;
	bool interrupted;
	/* Its own figures of each job (njobs of the cluster_info), packed:
	 * cluster_member_unit gives one back whole. */
	struct cluster_packed *jobs;
};

struct cluster_info {
	unsigned nmembers, nhosts, njobs;
	struct cluster_member_info *members;
	char **hosts;			/* in the order first met */
	double start_skew_max_ns;
	struct cluster_job *jobs;	/* per unit of the result */
};

/* An option each member may set for itself (its targets, sizes,
 * offsets, seed, CPUs): the only ones that may differ between members. */
bool cluster_option_per_member(const char *name);

/* Frees what info holds (its member units' interval and steady state
 * references too) and info itself; NULL is fine. */
void cluster_info_free(struct cluster_info *info);

/*
 * What every report says the same way: an error's message (err_msg and
 * the errno's text, once), a signal's name ("SIGTERM"), the start time in
 * ISO 8601 UTC ("" when not known), and whether the reports show
 * percentile p of a job's latency h (MH_SLAT, MH_CLAT, MH_LAT: its
 * *_percentiles option, p in its percentile_list).
 */
void result_error_text(const struct job_stats *s, char *buf, size_t len);
/*
 * A real as iorig's JSON document gives it (12 significant digits): what
 * a reader of the document takes it for. A merge adds up its members'
 * rates as their documents give them, so that merging results read from
 * files and merging a rank's figures sent in its document agree.
 */
double result_as_printed(double v);
const char *result_signal_name(int signo, char *buf, size_t len);
void result_time_iso(time_t t, char *buf, size_t len);
bool result_shows_pct(const struct job *j, int h, double p);

/*
 * A saved result read back: the reader beside the JSON writer
 * (src/result/json_read.c) turns an iorig JSON document (--output-format=
 * json, or a merged one) into this model, which every writer, --baseline,
 * `iorig merge`, `iorig plot` and the HTML report read. r is a run_result
 * of the document's units alone: r.plan has one job per unit (its options
 * as the document lists them, its clone, group and sweep point), r.set its
 * units and groups (r.stats is NULL: no job of a saved result has figures
 * of its own), r.checks its checks, repeats and baseline figures, r.curves
 * its curves. Histograms are exact (the document keeps every bucket);
 * their sums are the ones that give back the document's mean and stddev.
 * A document lacking a figure (an older or an edited one) reads as 0 or
 * unknown there; RESULT_READ_STRICT refuses it instead (what a merge
 * needs: every histogram well formed).
 *
 * Reading one document at a time and freeing it is what lets a merge
 * fold any number of members in bounded memory.
 */
struct result_store;
struct cluster_info;

struct result_doc {
	struct run_result r;		/* r.set is &set */
	struct result_set set;
	/* A merged document's cluster part (r.cluster: the same), or NULL;
	 * result_doc_free frees it. */
	struct cluster_info *cluster;
	struct result_store *store;	/* what r and set point into */
};

#define RESULT_READ_STRICT	1u

/* A copy of s that d keeps until result_doc_free (a string a member
 * freed before d lends d); NULL when s is NULL, d has no store (it is
 * not a document read back) or memory ran out. */
const char *result_doc_keep(struct result_doc *d, const char *s);

/*
 * The wire form of a member (src/result/wire.c): what a merge reads of
 * a result read back (RESULT_READ_STRICT), in bytes an MPI rank sends
 * rank 0 instead of its JSON document: its units and groups (their
 * histograms packed, result_words_pack), the first errors' engines,
 * targets and warnings, wall time, signal and CPU. Made by the rank that
 * ran it, for ranks of the same build on the same architecture.
 */
struct result_wire {
	void **p;		/* what a read allocated, freed together */
	size_t n, cap;
	/* The units' and groups' words, kept from read to read (a unit is
	 * 650 KB, nearly all empty buckets): all zero but what the last
	 * read wrote, its runs of words and the pointers it set, which
	 * result_wire_done clears again. */
	struct result_unit *units;
	struct job_stats *groups;
	size_t nunits, ngroups;	/* room for */
	struct word_runs runs;
	bool dirty;
};

/* d's wire form into *buf (malloc'ed), *len bytes; 0 or -ENOMEM. */
int result_wire_make(const struct result_doc *d, unsigned char **buf,
		     size_t *len);
/*
 * buf back into *d for cluster_add (d->store NULL: nothing for
 * result_doc_free to free), its units' jobs the njobs of jobs (member
 * 0's: the ranks checked theirs against it). What it allocates is kept
 * in mem (result_wire_done after cluster_add: mem's units and groups are
 * read into again by the next read; result_wire_free at the end), the
 * engines' setup texts in keep (the merged result may point at them:
 * freed after the report). d must not be the first member of a cluster
 * (which keeps its units). 0, -EINVAL (not a wire form of njobs jobs) or
 * -ENOMEM.
 */
int result_wire_read(struct result_doc *d, const unsigned char *buf,
		     size_t len, const struct job *const *jobs, size_t njobs,
		     struct result_wire *mem, struct result_wire *keep);
/* What the last read allocated freed and what it wrote in mem's units
 * and groups cleared: mem is ready for the next read. */
void result_wire_done(struct result_wire *w);
/* All of w freed. */
void result_wire_free(struct result_wire *w);

struct err_rec;
/*
 * text[0..len): one JSON document; name says where it came from in
 * messages. 0 with *d filled (result_doc_free), or -EINVAL (not an iorig
 * result: e says why, naming name) or -ENOMEM (e too).
 */
int result_read(struct result_doc *d, const char *text, size_t len,
		const char *name, unsigned flags, struct err_rec *e);
/*
 * The mean of unit i's runs of d for the metric called name, when the
 * document holds its repeats figures (a repeated job): true with *out.
 */
bool result_doc_repeats_mean(const struct result_doc *d, int i,
			     const char *name, double *out);
/* The same from a parsed document (jansson's json_t). */
struct json_t;
int result_read_json(struct result_doc *d, const struct json_t *root,
		     const char *name, unsigned flags, struct err_rec *e);
/* The same from a file ("-": standard input). -errno when unreadable. */
int result_read_file(struct result_doc *d, const char *path, unsigned flags,
		     struct err_rec *e);
void result_doc_free(struct result_doc *d);

#endif
