// SPDX-License-Identifier: MIT
/*
 * --output-format=terse, --minimal: fio's semicolon-separated line per
 * reported unit, in the terse version --terse-version asks for (2 to 5;
 * fio's default 3), field for field as fio's HOWTO lists them, from the
 * same figures as the fio-json layout (fio_int.h). Latencies are in us,
 * sizes in KiB, rates in KiB/s. Written from fio's documentation and
 * observed output; no fio code.
 *
 *   v2: 2;jobname;groupid;error; read, write, trim; ...; no disk fields,
 *       the description on a line of its own
 *   v3: 3;version;jobname;groupid;error; read, write; cpu; depths;
 *       latency shares; each disk (9 fields)
 *   v4: v3 with trim after write
 *   v5: v4 with, per direction, the bw sample count and the IOPS samples
 * Then, when the job has continue_on_error, its error count and first
 * error; then its description, when it has one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "fio_int.h"
#include "report.h"

#define TERSE_PCTS	20	/* percentile fields per direction, always */

/*
 * The reals terse prints with 6 decimals come from figures the JSON
 * document keeps to 12 significant digits (a histogram's mean and stddev,
 * the rate samples'), so they are taken as the document gives them
 * (result_as_printed): a report of the saved document then prints the
 * run's own line. From the run's full doubles, a stddev whose 11th and
 * 12th digits were "50" rounded one way in the run and the other from
 * its saved JSON (1796.509497 against .509496).
 *
 * t_lat: min;max;mean;stddev in us (min, max whole), or zeros.
 */
static void t_lat(FILE *f, const struct hist *h)
{
	if (!h || !h->count) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", h->min / 1000,
		h->max / 1000, result_as_printed(hist_mean(h)) / 1000.0,
		result_as_printed(hist_stddev(h)) / 1000.0);
}

/* 20 fields "P%=us", the job's percentiles, "0%=0" for the rest. */
static void t_pcts(FILE *f, const struct hist *h, const struct job *j)
{
	unsigned i, n = h && h->count && j ? j->report.npercentiles : 0;

	if (n > JOB_MAX_PERCENTILES)
		n = JOB_MAX_PERCENTILES;
	for (i = 0; i < TERSE_PCTS; i++) {
		if (i < n)
			fprintf(f, ";%f%%=%" PRIu64,
				j->report.percentile_list[i],
				hist_percentile(h,
						j->report.percentile_list[i]) /
				1000);
		else
			fputs(";0%=0", f);
	}
}

/*
 * One direction as fio counts it (fio_dir_view) over its runtime rt; d NULL:
 * trim, which iorig never does. group_bps: the reporting group's
 * aggregate bandwidth that direction (fio_bw_agg).
 */
static void t_dir(FILE *f, const struct dir_stats *d, uint64_t rt,
		  const struct job *j, unsigned ver, double group_bps)
{
	static const struct dir_stats none;
	const struct smp_stat *b, *io;
	uint64_t rt_ms, bw = 0, iops = 0;
	const struct hist *p = NULL;

	if (!d)
		d = &none;
	rt_ms = rt / 1000000;
	if (rt_ms) {
		bw = d->bytes * 1000 / rt_ms / 1024;
		iops = (d->ios - d->ramp_ios) * 1000 / rt_ms; /* as fio-json */
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		d->bytes >> 10, bw, iops, rt_ms);
	t_lat(f, d == &none ? NULL : &d->slat);
	t_lat(f, d == &none ? NULL : &d->clat);
	if (j && j->report.lat_percentiles)
		p = &d->lat;
	else if (j && j->report.clat_percentiles)
		p = &d->clat;
	t_pcts(f, d == &none ? NULL : p, j);
	t_lat(f, d == &none ? NULL : &d->lat);
	b = &d->bw_smp;
	if (b->n) {
		double agg = fio_bw_agg(b, group_bps);

		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f",
			(uint64_t)(b->min / 1024.0),
			(uint64_t)(b->max / 1024.0), agg,
			result_as_printed(b->mean) / 1024.0,
			result_as_printed(smp_stddev(b)) / 1024.0);
	} else {
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
	}
	if (ver != 5)
		return;
	io = &d->iops_smp;
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64,
		b->n, (uint64_t)io->min, (uint64_t)io->max,
		result_as_printed(io->mean), result_as_printed(smp_stddev(io)),
		io->n);
}

static void t_disk(FILE *f, const struct sysinfo_disk_use *u)
{
	const struct sysinfo_diskstat *d = &u->sum;
	uint64_t wall_ms = u->wall_ns / 1000000;
	double util = 0.0;

	if (wall_ms)
		util = 100.0 * (double)d->io_ticks / (double)wall_ms;
	if (util > 100.0)
		util = 100.0;
	fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%"
		PRIu64 ";%" PRIu64 ";%" PRIu64 ";%3.2f%%", d->name, d->rd_ios,
		d->wr_ios, d->rd_merges, d->wr_merges, d->rd_ticks,
		d->wr_ticks, d->time_in_queue, util);
}

/*
 * One unit's line: name its jobname, rt its jobs' runtime (CPU shares),
 * gbw its group's aggregate bandwidth per direction (fio_group_bw) or
 * NULL: from rs; pct false: no percentiles (fio's "All clients").
 */
static void t_unit(FILE *f, const struct run_result *r,
		   const struct result_set *rs, const struct result_unit *u,
		   const char *name, uint64_t rt, const double *gbw,
		   bool pct, unsigned ver)
{
	const struct job_stats *s = &u->stats;
	const struct job *j = u->job;
	double lat[FIO_LAT_SLOTS], depth[DEPTH_NB];
	const struct cpu_usage *cpu = &s->cpu;
	const struct dir_stats *v;
	struct dir_stats buf;
	uint64_t rt_ns;
	char tag[64];
	unsigned i;
	int d;

	if (!u->stats.nclones)
		rt = 0;
	if (ver == 2)
		fprintf(f, "2;%s;%u;%d", name, j->plan.group,
			fio_unit_errno(s));
	else
		fprintf(f, "%u;%s;%s;%u;%d", ver,
			fio_version_tag(r, tag, sizeof(tag)), name,
			j->plan.group, fio_unit_errno(s));
	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		v = fio_dir_view(s, d, &buf, &rt_ns);
		t_dir(f, v, rt_ns, pct ? j : NULL, ver, gbw ? gbw[d] :
		      fio_group_bw(rs, j, d));
	}
	if (ver != 3)
		t_dir(f, NULL, 0, pct ? j : NULL, ver, 0.0);
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		rt ? 100.0 * (double)cpu->utime_ns / (double)rt : 0.0,
		rt ? 100.0 * (double)cpu->stime_ns / (double)rt : 0.0,
		cpu->vcsw + cpu->ivcsw, cpu->majflt, cpu->minflt);
	fio_depth_shares(s->depth.level, depth);
	for (i = 0; i < DEPTH_NB; i++)
		fprintf(f, ";%3.1f%%", depth[i]);
	fio_lat_shares(s, lat, 0.0);
	for (i = 10; i < FIO_LAT_SLOTS; i++)	/* us then ms, as fio */
		fprintf(f, ";%3.2f%%", lat[i]);
	for (i = 0; ver >= 3 && i < r->disks.n; i++)
		t_disk(f, &r->disks.d[i]);
	if (j->err.continue_on_error)
		fprintf(f, ";%" PRIu64 ";%d", s->dir[DDIR_READ].errors +
			s->dir[DDIR_WRITE].errors, fio_unit_errno(s));
	if (j->desc.description && *j->desc.description)
		fprintf(f, "%s%s", ver == 2 ? "\n;" : ";", j->desc.description);
	fputc('\n', f);
}

int report_terse(FILE *f, const struct run_result *r)
{
	unsigned ver = r->terse_version ? r->terse_version : 3;
	struct result_set rs;
	uint64_t *rt;
	int i, ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	rt = fio_unit_runtimes(r, &rs);
	if (!rt) {
		result_set_free(&rs);
		return -ENOMEM;
	}
	for (i = 0; i < rs.nunits; i++)
		if (!rs.units[i].hidden)
			t_unit(f, r, &rs, &rs.units[i],
			       rs.units[i].job->desc.name,
			       rt[i], NULL, true, ver);
	free(rt);
	result_set_free(&rs);
	return ferror(f) ? -EIO : 0;
}

/*
 * A merged result as fio's client writes terse: each member's line per
 * job (its own figures; its group's bandwidth its own: a member's group
 * is its job), then an "All clients" line per job, the merged figures
 * without percentiles (fio keeps none of its clients' sum).
 */
int report_cluster_terse(FILE *f, const struct run_result *r)
{
	const struct cluster_info *ci = r->cluster;
	const struct result_set *rs = r->set;
	unsigned ver = r->terse_version ? r->terse_version : 3, i, k;
	struct cluster_unit *buf;
	double gbw[DDIR_NR];
	int d;

	if (!ci || !rs)
		return -EINVAL;
	buf = malloc(sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < ci->nmembers; i++)
		for (k = 0; k < ci->njobs && k < (unsigned)rs->nunits; k++) {
			const struct result_unit *u = &buf->u;

			cluster_member_unit(ci, i, k, buf);
			for (d = 0; d < DDIR_NR; d++)
				gbw[d] = stats_bw(&u->stats.dir[d],
						  u->stats.runtime_ns);
			t_unit(f, r, rs, u, u->job->desc.name,
			       u->stats.runtime_ns, gbw, true, ver);
		}
	free(buf);
	for (k = 0; k < (unsigned)rs->nunits; k++)
		t_unit(f, r, rs, &rs->units[k], "All clients",
		       rs->units[k].stats.runtime_ns, NULL, false, ver);
	return ferror(f) ? -EIO : 0;
}
