// SPDX-License-Identifier: MIT
/*
 * A merged result (r->cluster) as text: the members and hosts, then per
 * job and direction with I/O the aggregate (the members' rates added),
 * first done and last done, the pooled latencies, the spread of the
 * members' IOPS and their rows, the hosts' rows.
 */
#include <errno.h>
#include <inttypes.h>

#include "report.h"
#include "value.h"

static const char *const dir_key[DDIR_NR] = DDIR_NAMES;

static const char *fmt(int unit, double v, char *buf, size_t len)
{
	metric_format(unit, v, buf, len);
	return buf;
}

/* A latency of all members (j: whose percentiles show). */
static void text_hist(FILE *f, const char *name, const struct hist *h,
		      const struct job *j, int kind)
{
	char a[32], b[32], c[32], d[32];
	unsigned i;

	if (!h->count)
		return;
	fprintf(f, "  %-5s min %s  mean %s  max %s  stddev %s  (%" PRIu64
		" I/Os, all members)\n", name,
		fmt(MU_NS, (double)h->min, a, sizeof(a)),
		fmt(MU_NS, hist_mean(h), b, sizeof(b)),
		fmt(MU_NS, (double)h->max, c, sizeof(c)),
		fmt(MU_NS, hist_stddev(h), d, sizeof(d)), h->count);
	if (!result_shows_pct(j, kind, j->report.npercentiles ?
			      j->report.percentile_list[0] : -1))
		return;
	fprintf(f, "       ");
	for (i = 0; i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		char key[40];

		value_fmt_shortest(j->report.percentile_list[i], key,
				   sizeof(key));
		fprintf(f, " p%s=%s", key, fmt(MU_NS, (double)hist_percentile(h,
			j->report.percentile_list[i]), a, sizeof(a)));
	}
	fprintf(f, "\n");
}

/* The "first done" or "last done" line of a direction. */
static void text_done(FILE *f, const struct cluster_info *ci,
		      const char *label, const char *which,
		      const struct cluster_done *dn)
{
	char a[32], b[32], c[32];

	fprintf(f, "  %s iops %s  bw %s/s  at %s (%s finished %s)\n", label,
		fmt(MU_RATE, dn->iops, a, sizeof(a)),
		fmt(MU_BYTES, dn->bw, b, sizeof(b)),
		fmt(MU_NS, (double)dn->at_ns, c, sizeof(c)),
		ci->members[dn->member].label, which);
}

static void text_dir(FILE *f, const struct cluster_info *ci,
		     const struct result_unit *u, const struct cluster_dir *x,
		     int dir)
{
	const struct job_stats *s = &u->stats;
	const struct dir_stats *d = &s->dir[dir];
	bool meas = s->nmeasured || !s->nclones;
	char a[32], b[32], c[32], e[32];
	unsigned i;

	fprintf(f, " %s: iops %s  bw %s/s  (the members' rates added; common "
		"window %s)\n", dir_key[dir],
		fmt(MU_RATE, meas ? stats_iops(d, s->runtime_ns) : 0, a,
		    sizeof(a)),
		fmt(MU_BYTES, meas ? stats_bw(d, s->runtime_ns) : 0, b,
		    sizeof(b)),
		fmt(MU_NS, (double)x->common_window_ns, c, sizeof(c)));
	text_done(f, ci, "first done:", "first", &x->first);
	text_done(f, ci, "last done: ", "last", &x->last);
	text_hist(f, "slat", &d->slat, u->job, MH_SLAT);
	text_hist(f, "clat", &d->clat, u->job, MH_CLAT);
	text_hist(f, "lat", &d->lat, u->job, MH_LAT);
	fprintf(f, "  spread of iops: min %s  median %s  max %s  slowest %s\n",
		fmt(MU_RATE, x->iops.min, a, sizeof(a)),
		fmt(MU_RATE, x->iops.median, b, sizeof(b)),
		fmt(MU_RATE, x->iops.max, c, sizeof(c)),
		ci->members[x->iops.slowest].label);
	fprintf(f, "  %-24s %-16s %10s %12s %12s %10s %10s\n", "member",
		"host", "iops", "bw/s", "ios", "runtime", "clat p99");
	for (i = 0; i < ci->nmembers; i++) {
		const struct cluster_row *r = &x->rows[i];

		fprintf(f, "  %-24s %-16s %10s %12s %12" PRIu64 " %10s %10s\n",
			ci->members[i].label, ci->members[i].host,
			fmt(MU_RATE, r->iops, a, sizeof(a)),
			fmt(MU_BYTES, r->bw, b, sizeof(b)), r->ios,
			fmt(MU_NS, (double)r->runtime_ns, c, sizeof(c)),
			fmt(MU_NS, (double)r->clat_p99_ns, e, sizeof(e)));
	}
	fprintf(f, "  %-24s %-16s %10s %12s %12s\n", "host", "members", "iops",
		"bw/s", "ios");
	for (i = 0; i < ci->nhosts; i++) {
		const struct cluster_host_row *h = &x->hosts[i];

		fprintf(f, "  %-24s %-16u %10s %12s %12.0f\n",
			ci->hosts[h->host], h->members,
			fmt(MU_RATE, h->iops, a, sizeof(a)),
			fmt(MU_BYTES, h->bw, b, sizeof(b)), (double)h->ios);
	}
}

int report_cluster_text(FILE *f, const struct run_result *r)
{
	const struct cluster_info *ci = r->cluster;
	const struct result_set *rs = r->set;
	unsigned i, k;
	int d;
	char a[32];

	if (!ci || !rs)
		return -EINVAL;
	fprintf(f, "cluster: %u members on %u host(s) (", ci->nmembers,
		ci->nhosts);
	for (i = 0; i < ci->nhosts; i++)
		fprintf(f, "%s%s", i ? ", " : "", ci->hosts[i]);
	fprintf(f, "), start skew up to %s%s\n",
		fmt(MU_NS, ci->start_skew_max_ns, a, sizeof(a)),
		r->signo ? ", interrupted: partial figures" : "");
	for (k = 0; k < ci->njobs && k < (unsigned)rs->nunits; k++) {
		const struct result_unit *u = &rs->units[k];

		fprintf(f, "\n%s (group %u, clone %u)\n", u->job->desc.name,
			u->job->plan.group, u->job->report.group_reporting ? 0 :
			u->job->plan.clone);
		for (d = 0; d < DDIR_NR; d++)
			if (u->stats.dir[d].ios)
				text_dir(f, ci, u, &ci->jobs[k].dir[d], d);
	}
	return ferror(f) ? -EIO : 0;
}
