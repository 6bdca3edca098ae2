// SPDX-License-Identifier: MIT
/*
 * --output-format=table: one row per reported unit (a job, a clone or a
 * sweep point), the figures side by side for comparing engines. CPU columns
 * are the process's over the row's phase (see struct result_row).
 */
#include <errno.h>
#include <stdio.h>

#include "check.h"
#include "engine.h"
#include "report.h"
#include "value.h"

static void fmt_bs(const struct job *j, char *buf, size_t len)
{
	/* The first direction the job does. */
	int d = __builtin_ctz(rw_dirs(j->io.rw));
	char lo[32], hi[32];

	value_fmt_bytes(j->io.bs_min[d], lo, sizeof(lo));
	if (j->io.bs_min[d] == j->io.bs_max[d]) {
		snprintf(buf, len, "%s", lo);
		return;
	}
	value_fmt_bytes(j->io.bs_max[d], hi, sizeof(hi));
	snprintf(buf, len, "%s-%s", lo, hi);
}

/* "name" or "name[sweep point]" */
static int row_name(const struct job *j, char *buf, size_t len)
{
	if (j->plan.sweep_point)
		return snprintf(buf, len, "%s[%s]", j->desc.name,
				j->plan.sweep_point);
	return snprintf(buf, len, "%s", j->desc.name);
}

static void print_row(FILE *f, const struct run_result *r,
		      const struct result_unit *u, int width)
{
	const struct job *j = u->job;
	struct result_row row;
	char bs[80], name[256];

	result_row(r, u, &row);
	fmt_bs(j, bs, sizeof(bs));
	row_name(j, name, sizeof(name));
	fprintf(f, "%-*s %-8s %10llu %8s %5llu %7.2f %7.2f %7.2f %6.1f "
		"%7.2f %9.1f %9.1f %10.0f %9.2f\n",
		width, name, j->eng.engine ? j->eng.engine->name :
		j->eng.ioengine, (unsigned long long)row.ios, bs,
		(unsigned long long)j->eng.iodepth,
		(double)row.runtime_ns / 1e9, (double)row.utime_ns / 1e9,
		(double)row.stime_ns / 1e9, row.cpu_pct, row.us_per_io,
		row.lat_mean_ns / 1e3, (double)row.lat_p99_ns / 1e3, row.iops,
		row.bw_bytes / 1e6);
}

/* After the rows, as comment lines: "# check PASS seqread: ...". */
static void print_checks(FILE *f, const struct check_report *cr)
{
	char line[1024];
	size_t i;

	for (i = 0; cr && i < cr->nresults; i++) {
		check_result_text(&cr->results[i], line, sizeof(line));
		fprintf(f, "# check %s %s\n",
			check_status_name(cr->results[i].status), line);
	}
}

int report_table(FILE *f, const struct run_result *r)
{
	struct result_set rs;
	char name[256];
	int i, ret, width = 3;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	fprintf(f, "# cpu, utime, stime, us/op: the whole process over the "
		"row's measured phase (RUSAGE_SELF); utime/stime split "
		"tick-sampled, their sum exact\n");
	for (i = 0; i < rs.nunits; i++) {
		int n = row_name(rs.units[i].job, name, sizeof(name));

		if (n > width)
			width = n < (int)sizeof(name) ? n : (int)sizeof(name);
	}
	fprintf(f, "%-*s %-8s %10s %8s %5s %7s %7s %7s %6s %7s %9s %9s "
		"%10s %9s\n", width, "job", "engine", "reqs", "bs", "depth",
		"rtime", "utime", "stime", "cpu%", "us/op", "lat(us)",
		"p99(us)", "op/s", "MB/s");
	for (i = 0; i < rs.nunits; i++)
		if (rs.units[i].hidden)
			continue;
		else if (rs.units[i].stats.nmeasured)
			print_row(f, r, &rs.units[i], width);
		else if (rs.units[i].stats.nclones &&
			 row_name(rs.units[i].job, name, sizeof(name)) >= 0)
			fprintf(f, "# %s: not measured: stopped during "
				"ramp_time\n", name);
	if (r->signo)
		fprintf(f, "# interrupted: figures cover the run until then\n");
	print_checks(f, r->checks);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	result_set_free(&rs);
	return ret;
}
