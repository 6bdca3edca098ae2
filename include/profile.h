/* SPDX-License-Identifier: MIT */
#ifndef IORIG_PROFILE_H
#define IORIG_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * fio's built-in profiles (--profile=NAME): a named set of jobs with a few
 * options of its own, given on the command line (--dir=DIR). A profile
 * turns its option values into job options, fio's words "name=value" or
 * "flag" in command-line order: the words before the first "name=" are
 * the profile's globals, each "name=" starts a job.
 */

#define PROFILE_MAX_OPTS 8

enum profile_opt_type {
	PROF_UINT,	/* a count, value_uint within [min, max] */
	PROF_SIZE,	/* bytes with fio's suffixes, within [min, max] */
	PROF_STR,	/* any non-empty text */
	PROF_TIME,	/* whole seconds, value_time (bare: s), [min, max] */
	PROF_FLAG,	/* no value; given: "1" */
};

struct profile_opt {
	const char *name;
	enum profile_opt_type type;
	const char *def;	/* as shown by --cmdhelp; NULL: none */
	uint64_t min, max;
	const char *help;
	bool required;		/* the profile cannot run without it */
};

/* The profile's job options; words[] are owned (profile_words_free). */
struct profile_words {
	char **w;
	size_t n, cap;
};

struct profile {
	const char *name;
	const char *desc;
	const struct profile_opt *opts;		/* ends with name NULL */
	/* vals[i]: opts[i]'s value as given, NULL when not given (checked
	 * by profile_check before). Returns 0 or -errno. */
	int (*expand)(const char *const *vals, struct profile_words *out);
	/* Its jobs count their latencies in an act_tally. */
	bool tally;
};

/* The profile named name, or NULL. */
const struct profile *profile_find(const char *name);
/* "tiobench, act": the profiles' names, for messages. */
const char *profile_names(void);
/* Index in p->opts of the option name[0..len), or -1. */
int profile_opt_index(const struct profile *p, const char *name, size_t len);
/* A profile that has an option name[0..len) (the first), or NULL. */
const struct profile *profile_owning(const char *name, size_t len);
/* Check a value of p->opts[i]: 0, or -EINVAL with why. */
int profile_check(const struct profile *p, int i, const char *val, char *why,
		  size_t whylen);
/*
 * A value of p->opts[i] where it does not set the profile (a job option
 * without --profile=p): fio reads it by the option's type alone, no range,
 * and it has no effect. 0, or -EINVAL with why.
 */
int profile_check_form(const struct profile *p, int i, const char *val,
		       char *why, size_t whylen);
/* After the command line: a needed option missing, or values that do not
 * go together: -EINVAL with *opt (the option to name) and why. */
int profile_validate(const struct profile *p, const char *const *vals,
		     const char **opt, char *why, size_t whylen);
/* The profile's jobs from its option values (checked): 0, or -ENOMEM
 * (-EINVAL if $mb_memory cannot be read). */
int profile_expand(const struct profile *p, const char *const *vals,
		   struct profile_words *out);
void profile_words_free(struct profile_words *w);
/*
 * --profile=NAME --cmdhelp[=OPTION]: the profile's options as fio lists
 * them, or one. Returns 0, or -ENOENT when OPTION is not the profile's.
 */
int profile_print_cmdhelp(FILE *f, const struct profile *p, const char *opt);

/*
 * --profile=act's latency table: each I/O of the profile's jobs, in the
 * hour of the run (from its clone's start) it completed in, counts once,
 * and in the highest of 1, 8, 64 ms its latency (queued to completed)
 * is over, as fio's act profile counts them. Shared by all the
 * profile's threads (relaxed atomics).
 */
#define ACT_NCRIT 3
struct act_tally;
/* The jobs of p with these values are judged by a table (act, not its
 * prep). */
bool profile_tallies(const struct profile *p, const char *const *vals);
/* For the test-duration of vals (one slice an hour); NULL: no memory. */
struct act_tally *act_tally_new(const char *const *vals);
/*
 * The table and what counts into it and prints it are the worker's
 * (src/worker/act.c): one for a test of secs seconds.
 */
struct act_tally *act_tally_alloc(uint64_t secs);
/*
 * One job's own I/Os of the hour it is in. fio judges each act job on its
 * own, at its first completion after an hour of its run, and a failed
 * hour ends that job with an error; the table at the end adds all jobs.
 */
struct act_hour {
	uint64_t slice;			/* the hour counted in c */
	uint64_t c[1 + ACT_NCRIT];	/* I/Os; those over each limit */
};
/*
 * Counts the I/O in t and in h. Returns 0, or, at h's first I/O after an
 * hour that failed, -ETIMEDOUT with why set (the hour, the share over the
 * limit, the limit).
 */
int act_tally_add(struct act_tally *t, struct act_hour *h, uint64_t since_ns,
		  uint64_t lat_ns, char *why, size_t whylen);
/* fio's table and verdict on f; true when a slice failed. */
bool act_tally_print(FILE *f, const struct act_tally *t);
void act_tally_free(struct act_tally *t);

#endif
