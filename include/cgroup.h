/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CGROUP_H
#define IORIG_CGROUP_H

/*
 * cgroup=, cgroup_weight=, cgroup_nodelete=: a clone's thread joins the
 * blkio control group of that name (cgroup v1: its thread id into the
 * group's "tasks"), made when missing, with the weight given; when it
 * ends it goes back to the root group, and the last thread out removes a
 * group this run made (unless cgroup_nodelete). Once per worker.
 */
#include <stddef.h>

#include "job.h"

/* Whether the job asks for a group (cgroup= or cgroup_weight=). */
int cgroup_wanted(const struct job *j);

/* The calling thread into the job's group. Returns 0 or -errno with why
 * filled. */
int cgroup_join(const struct job *j, char *why, size_t whylen);

/* The calling thread back to the root group; the group removed when this
 * run made it, cgroup_nodelete is off and no thread is left in it. */
void cgroup_leave(const struct job *j);

/*
 * Plan time: without cgroup=, the job's name names the group (fio's
 * naming), and must then be one directory name (no '/', not "." or "..",
 * at most 255 bytes, no newline), so that no name reaches out of the
 * blkio hierarchy. Returns 0 or -EINVAL with why filled.
 */
int cgroup_check(const struct job *j, char *why, size_t whylen);

/* The name is a plain directory name ([A-Za-z0-9._-], not "." or ".."),
 * possibly nested with '/'. Returns 0 or -EINVAL with why filled. */
int cgroup_name_ok(const char *name, char *why, size_t whylen);

#endif
