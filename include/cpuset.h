/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CPUSET_H
#define IORIG_CPUSET_H

/*
 * CPU placement (cpus_allowed=, cpumask=, cpus_allowed_policy=): the text
 * forms fio reads, and the set one job clone is allowed to run on.
 */
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A CPU list as fio reads cpus_allowed: "0-3,6", items separated by ','
 * with blanks around them allowed, each a CPU or a range LO-HI. Every CPU
 * must exist (below the CPUs configured). Fills *set; 0 or -EINVAL with
 * why.
 */
int cpuset_parse(const char *list, cpu_set_t *set, char *why, size_t whylen);

/*
 * cpumask=: a number (decimal, or 0x hex) whose bit i allows CPU i, as
 * fio reads it (the low 32 bits), written as a CPU list into out.
 */
int cpuset_mask_to_list(const char *val, char *out, size_t outlen,
			char *why, size_t whylen);

/*
 * The CPUs of `allowed` (cpus_allowed=, as cpuset_parse made it) that
 * clone number idx (the job's place among all the run's job clones, from
 * 0) may use: all of them (split false), or the (idx mod count)-th of
 * them (split); CPU `without` (gtod_cpu=; -1: none) taken out first, as
 * fio clears it before splitting. 0, or -EINVAL when nothing is left.
 */
int cpuset_for_clone(const cpu_set_t *allowed, bool split, unsigned idx,
		     int without, cpu_set_t *out);

/* set as a CPU list ("0-1,3") into out. */
void cpuset_format(const cpu_set_t *set, char *out, size_t outlen);

#endif
