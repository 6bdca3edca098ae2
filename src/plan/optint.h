/* SPDX-License-Identifier: MIT */
/*
 * What the option table's three files share: the table's data
 * (optable.c), the machinery that reads it (options.c) and the setters of
 * values that need more than their type's parser (optvalue.c).
 */
#ifndef IORIG_OPTINT_H
#define IORIG_OPTINT_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The size of options_table in bytes (a row's address tells a job row
 * from an engine's). */
extern const size_t options_table_size;
/* Options fio has that iorig does not (yet). */
extern const char *const options_fio_only_names[];
extern const size_t options_fio_only_count;
/* Options of later fio versions that fio 3.33 refuses as unknown. */
extern const char *const options_not_fio333[];
extern const size_t options_not_fio333_count;

/* A row's value: at off in base, the job for the job table's rows, the
 * engine's options struct for an engine's. */
static inline void *field(void *base, size_t off)
{
	return (char *)base + off;
}

static inline const void *cfield(const void *base, size_t off)
{
	return (const char *)base + off;
}

static inline int set_str(char **dst, const char *val)
{
	char *copy = strdup(val);

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

/* o's choice named val (case-insensitive) into *dst. */
int options_choice(int *dst, const struct opt_def *o, const char *val,
		   char *why, size_t whylen);

/*
 * The values the setters parse once into the job, beside the text kept
 * for --parse-only (job.h: bss, dist, cpus, ss_crit, buffer_pat...); the
 * run reads those, never the text. Of them, the job owns bss, dist,
 * mem_file and (counted) the patterns' bytes: optvalue_copy makes dst's
 * own (dst a bitwise copy of src; 0 or -ENOMEM, after which job_free is
 * safe), optvalue_free frees them. job_copy and job_free call them.
 */
int optvalue_copy(struct job *dst, const struct job *src);
void optvalue_free(struct job *j);

/* The setters (optvalue.c), each an opt_def's .set. */
int optvalue_ignore_error(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen);
int optvalue_max_latency(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen);
int optvalue_replay_skip(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen);
int optvalue_cpus_allowed(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen);
int optvalue_cpu_list(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);
int optvalue_cpumask(struct job *j, const struct opt_def *o, const char *val,
		     char *why, size_t whylen);
int optvalue_steadystate(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen);
int optvalue_ioengine(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);
int optvalue_zonemode(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);
int optvalue_zone_fraction(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen);
int optvalue_random_distribution(struct job *j, const struct opt_def *o,
				 const char *val, char *why, size_t whylen);
int optvalue_bssplit(struct job *j, const struct opt_def *o, const char *val,
		     char *why, size_t whylen);
int optvalue_sweep(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen);
int optvalue_rate_curve(struct job *j, const struct opt_def *o, const char *val,
			char *why, size_t whylen);
int optvalue_verify_pattern(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen);
int optvalue_check(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen);
int optvalue_buffer_pattern(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen);
int optvalue_filesize(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);
int optvalue_filename_format(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen);
int optvalue_file_service_type(struct job *j, const struct opt_def *o,
			       const char *val, char *why, size_t whylen);
int optvalue_lockfile(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);
int optvalue_nice(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen);
int optvalue_ioscheduler(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen);
int optvalue_cgroup(struct job *j, const struct opt_def *o, const char *val,
		    char *why, size_t whylen);
int optvalue_sync_file_range(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen);
int optvalue_write_hint(struct job *j, const struct opt_def *o, const char *val,
			char *why, size_t whylen);
int optvalue_numa_cpu_nodes(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen);
int optvalue_numa_mem_policy(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen);
int optvalue_mem(struct job *j, const struct opt_def *o, const char *val,
		 char *why, size_t whylen);

#endif
