// SPDX-License-Identifier: MIT
/*
 * Stand-in for src/cluster.c (branch wt-merge) while it is not merged:
 * the cluster document is {"members": [{label, host, rank,
 * start_skew_ns, result}...]}, written as JSON whatever the format.
 * Linked into iorig-mpi only when src/cluster.c does not exist.
 */
#include <errno.h>
#include <stdio.h>

#include "cluster.h"

json_t *cluster_merge(const struct cluster_member *m, size_t n,
		      struct err_rec *e)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:f, s:O}",
			"label", m[i].label, "host", m[i].host ? m[i].host : "",
			"rank", m[i].rank, "start_skew_ns", m[i].start_skew_ns,
			"result", m[i].result));
	return json_pack("{s:o}", "members", a);
}

int cluster_write(const json_t *cluster, const char *formats, FILE *out,
		  struct err_rec *e)
{
	return json_dumpf(cluster, out, JSON_INDENT(1)) || fputc('\n', out) < 0
	       ? -EIO : 0;
}

int cluster_checks(const json_t *cluster, char *const *checks,
		   size_t nchecks, FILE *out, struct err_rec *e)
{
	return 0;
}
