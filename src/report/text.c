// SPDX-License-Identifier: MIT
/*
 * The human report on stdout. Per reported unit:
 *
 *   NAME: clone C, group G, runtime 1.00s, 2 loops
 *     read   1.00k IOPS  3.91 MiB/s (4.10 MB/s)  3.91MiB (4096000 B), 1000 ios
 *                samples      min      avg      max   stddev
 *       clat        1000   1.00us 500.50us   1.00ms 288.67us
 *       clat percentiles
 *         p50     500.74us  p90     899.07us  p99     989.18us  p99.9 ...
 *       errors 1, short 1; first: EIO at offset 4096 of f.0 (Input/output
 *         error), engine sync
 *     cpu    user 0.002s  sys 0.003s  ctx 0 vol / 0 invol  4.95us cpu/io
 *
 * Then fsync=N/fdatasync=N calls and the time of the runtime spent
 * thinking or in the final fsyncs, when there are (print_sync_think). A
 * job with verify= has a verify block before its cpu line (see
 * print_verify). A merged unit says "N jobs merged" instead of the clone.
 * Directions with no I/O, empty histograms and zero error counts are left
 * out. Then one summary per reporting group, the process-wide CPU and
 * notes on a signal, failed jobs and jobs whose verification found
 * mismatches. Every figure comes from the stats as given; nothing here
 * assumes the run was complete.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "curve.h"
#include "report.h"
#include "value.h"
#include "zbd.h"

static const char *const dir_name[DDIR_NR] = DDIR_NAMES;

/* Percentiles shown per line of the table. */
#define PCT_PER_LINE	4

struct scale {
	double base;
	const char *unit[5];
};

static const struct scale scale_count = { 1000, { "", "k", "M", "G", "T" } };
static const struct scale scale_bin = {
	1024, { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" }
};
static const struct scale scale_dec = {
	1000, { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" }
};

static const struct scale scale_bin_bits = {
	1024, { "bit/s", "Kibit/s", "Mibit/s", "Gibit/s", "Tibit/s" }
};
static const struct scale scale_dec_bits = {
	1000, { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" }
};

static void fmt_scaled(double v, const struct scale *s, const char *sep,
		       char *buf, size_t len)
{
	value_fmt_sig3(v, s->base, s->unit, sep, false, buf, len);
}

/*
 * The figures of a rate line and of the bw/iops sample lines under the
 * job's significant_figures= and unit_base= (1: bandwidth in bits, as
 * fio's normal output gives it); j NULL: iorig's 3 figures, bytes.
 */
struct numfmt {
	unsigned sig;
	bool bits;
};

static struct numfmt numfmt_of(const struct job *j)
{
	struct numfmt n = { 3, false };

	if (j) {
		n.sig = (unsigned)j->report.sig_figs;
		n.bits = j->report.unit_base == 1;
	}
	return n;
}

static void fmt_count(double v, struct numfmt n, const char *sep, char *buf,
		      size_t len)
{
	value_fmt_sig(v, scale_count.base, scale_count.unit, sep, false,
		      n.sig, buf, len);
}

/* bytes per second v; dec: powers of 1000, else 1024 */
static void fmt_bw(double v, struct numfmt n, bool dec, char *buf,
		   size_t len)
{
	const struct scale *s = n.bits ? (dec ? &scale_dec_bits :
					  &scale_bin_bits) :
			       dec ? &scale_dec : &scale_bin;

	value_fmt_sig(n.bits ? v * 8 : v, s->base, s->unit, " ", false, n.sig,
		      buf, len);
}

static void fmt_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%.3fs", (double)ns / 1e9);
}

static const char *sig_name(int signo, char *buf, size_t len)
{
	const char *a = sigabbrev_np(signo);

	if (a)
		snprintf(buf, len, "SIG%s", a);
	else
		snprintf(buf, len, "signal %d", signo);
	return buf;
}

static bool dir_active(const struct dir_stats *d)
{
	return d->ios || d->bytes || d->errors;
}

static void print_rate_line(FILE *f, const char *label,
			    const struct dir_stats *d, uint64_t runtime_ns,
			    const struct job *j)
{
	char iops[48], bin[48], dec[48], human[32];
	struct numfmt n = numfmt_of(j);

	fmt_count(stats_iops(d, runtime_ns), n, "", iops, sizeof(iops));
	fmt_bw(stats_bw(d, runtime_ns), n, false, bin, sizeof(bin));
	fmt_bw(stats_bw(d, runtime_ns), n, true, dec, sizeof(dec));
	value_fmt_bytes(d->bytes, human, sizeof(human));
	fprintf(f, "%-6s %s IOPS  %s (%s)  %s (%" PRIu64 " B), %" PRIu64
		" ios\n", label, iops, bin, dec, human, d->bytes, d->ios);
}

/*
 * The bw_avg_time / iops_avg_time samples (stats.h), fio's "bw" and "iops"
 * lines: min, max, mean, stddev and how many; nothing without samples.
 */
static void print_samples(FILE *f, const struct dir_stats *d,
			  const struct job *j)
{
	const struct smp_stat *m[2] = { &d->bw_smp, &d->iops_smp };
	const char *label[2] = { "bw", "iops" };
	struct numfmt n = numfmt_of(j);
	double x[4];
	char v[4][48];
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		if (!m[k]->n)
			continue;
		x[0] = m[k]->min;
		x[1] = m[k]->max;
		x[2] = m[k]->mean;
		x[3] = smp_stddev(m[k]);
		for (i = 0; i < 4; i++)
			if (k)
				fmt_count(x[i], n, "", v[i], sizeof(v[i]));
			else
				fmt_bw(x[i], n, false, v[i], sizeof(v[i]));
		fprintf(f, "    %-6s min %s, max %s, mean %s, stddev %s, "
			"%" PRIu64 " sample%s\n", label[k], v[0], v[1], v[2],
			v[3], m[k]->n, m[k]->n == 1 ? "" : "s");
	}
}

/* One queue depth distribution as fio prints it: KEY=share% ... */
static void print_depth_row(FILE *f, const char *label,
			    const char *const *keys, const uint64_t *n)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_NB; i++)
		total += n[i];
	fprintf(f, "  %-9s", label);
	for (i = 0; i < DEPTH_NB; i++)
		fprintf(f, "%s%s=%.1f%%", i ? ", " : " ", keys[i],
			total ? 100.0 * (double)n[i] / (double)total : 0.0);
	fputc('\n', f);
}

/* iodepth level, submit and complete (stats.h); nothing without I/O. */
static void print_depths(FILE *f, const struct depth_dist *dd)
{
	uint64_t sub[DEPTH_NB], cmp[DEPTH_NB], total = 0;
	unsigned i;

	for (i = 0; i < DEPTH_NB; i++)
		total += dd->level[i];
	if (!total)
		return;
	stats_depth_fold(dd, sub, cmp);
	print_depth_row(f, "iodepth", depth_level_keys, dd->level);
	print_depth_row(f, " submit", depth_batch_keys, sub);
	print_depth_row(f, " complete", depth_batch_keys, cmp);
}

/*
 * depth_mean: the I/Os in flight per direction, averaged over the runtime
 * (stats_depth_mean), beside the iodepth asked; nothing when unknown.
 */
static void print_depth_mean(FILE *f, const struct job_stats *s,
			     const struct job *j)
{
	double m;
	bool any = false;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (!dir_active(&s->dir[d]) ||
		    !stats_depth_mean(&s->dir[d], s->runtime_ns, &m))
			continue;
		fprintf(f, "%s%s=%.2f", any ? ", " : "  depth_mean ",
			dir_name[d], m);
		any = true;
	}
	if (any && j)
		fprintf(f, " (iodepth=%" PRIu64 "%s)", (uint64_t)j->eng.iodepth,
			s->nclones > 1 ? " per clone" : "");
	if (any)
		fputc('\n', f);
}

static void print_lat_row(FILE *f, const char *name, const struct hist *h)
{
	char mn[32], av[32], mx[32], sd[32];

	value_fmt_ns((double)h->min, mn, sizeof(mn));
	value_fmt_ns(hist_mean(h), av, sizeof(av));
	value_fmt_ns((double)h->max, mx, sizeof(mx));
	value_fmt_ns(hist_stddev(h), sd, sizeof(sd));
	fprintf(f, "    %-6s %9" PRIu64 " %8s %8s %8s %8s\n", name, h->count,
		mn, av, mx, sd);
}

static void print_lat_head(FILE *f)
{
	fprintf(f, "    %-6s %9s %8s %8s %8s %8s\n", "", "samples", "min",
		"avg", "max", "stddev");
}

static void print_pct_table(FILE *f, const char *name, const struct hist *h,
			    const struct job *j)
{
	char label[32], val[32];
	unsigned i;

	fprintf(f, "    %s percentiles\n", name);
	for (i = 0; i < j->report.npercentiles &&
	     i < JOB_MAX_PERCENTILES; i++) {
		double p = j->report.percentile_list[i];

		snprintf(label, sizeof(label), "p%g", p);
		value_fmt_ns((double)hist_percentile(h, p), val, sizeof(val));
		fprintf(f, "%s%-7s%9s", i % PCT_PER_LINE ? "  " : "      ",
			label, val);
		if (i % PCT_PER_LINE == PCT_PER_LINE - 1)
			fputc('\n', f);
	}
	if (i % PCT_PER_LINE)
		fputc('\n', f);
}

static void print_latencies(FILE *f, const struct dir_stats *d,
			    const struct job *j)
{
	const struct {
		const char *name;
		const struct hist *h;
		bool pct;
	} lat[] = {
		{ "slat", &d->slat, j->report.slat_percentiles },
		{ "clat", &d->clat, j->report.clat_percentiles },
		{ "lat", &d->lat, j->report.lat_percentiles },
		{ "sched", &d->sched_lat, true },
	};
	bool any = false;
	size_t i;

	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		any = any || lat[i].h->count;
	if (!any)
		return;
	print_lat_head(f);
	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		if (lat[i].h->count)
			print_lat_row(f, lat[i].name, lat[i].h);
	for (i = 0; i < sizeof(lat) / sizeof(lat[0]); i++)
		if (lat[i].h->count && lat[i].pct && j->report.npercentiles)
			print_pct_table(f, lat[i].name, lat[i].h, j);
}

/*
 * fsync=N/fdatasync=N calls and their latencies; then the time of the
 * runtime that was thinking (thinktime=) or the final fsyncs (end_fsync,
 * fsync_on_close).
 */
static void print_sync_think(FILE *f, const struct job_stats *s,
			     const struct job *j)
{
	char think[32], end[32];

	if (s->sync.count) {
		fprintf(f, "  sync   %" PRIu64 " fsync/fdatasync calls\n",
			s->sync.count);
		print_lat_head(f);
		print_lat_row(f, "lat", &s->sync);
		if ((j->report.clat_percentiles || j->report.lat_percentiles) &&
		    j->report.npercentiles)
			print_pct_table(f, "lat", &s->sync, j);
	}
	if (!s->think_ns && !s->end_sync_ns)
		return;
	value_fmt_ns((double)s->think_ns, think, sizeof(think));
	value_fmt_ns((double)s->end_sync_ns, end, sizeof(end));
	fprintf(f, "  of the runtime:%s%s%s%s%s\n",
		s->think_ns ? " think " : "", s->think_ns ? think : "",
		s->think_ns && s->end_sync_ns ? "," : "",
		s->end_sync_ns ? " end fsync " : "",
		s->end_sync_ns ? end : "");
}

/* A paced direction: its target, what it achieved, and whether that
 * met it (stats_rate_met). */
static void print_pace(FILE *f, const struct dir_stats *d,
		       uint64_t runtime_ns)
{
	char lag[32], tb[32], ab[32];

	if (!(d->rate_bps > 0))
		return;
	value_fmt_ns((double)d->lag_ns, lag, sizeof(lag));
	if (d->rate_iops > 0) {
		fprintf(f, "    rate   target %.0f IOPS, achieved %.1f IOPS",
			d->rate_iops, stats_iops(d, runtime_ns));
	} else {
		value_fmt_bytes((uint64_t)d->rate_bps, tb, sizeof(tb));
		value_fmt_bytes((uint64_t)stats_bw(d, runtime_ns), ab,
				sizeof(ab));
		fprintf(f, "    rate   target %s/s, achieved %s/s", tb, ab);
	}
	fprintf(f, ": %s; backlog %" PRIu64 " I/Os, last I/O issued %s "
		"late\n", stats_rate_met(d, runtime_ns) ? "met" :
		"MISSED (behind the schedule)", d->backlog_ios, lag);
}

static void print_errors(FILE *f, const struct dir_stats *d)
{
	const char *name;

	if (!d->errors && !d->short_ios)
		return;
	fprintf(f, "    errors %" PRIu64 ", short %" PRIu64, d->errors,
		d->short_ios);
	if (d->first_errno) {
		name = strerrorname_np(d->first_errno);
		fprintf(f, "; first: %s at offset %" PRIu64 "%s%s (%s)",
			name ? name : "?", d->first_err_offset,
			d->first_err_file[0] ? " of " : "", d->first_err_file,
			strerror(d->first_errno));
		if (d->first_err_engine)
			fprintf(f, ", engine %s", d->first_err_engine);
	}
	fputc('\n', f);
}

static void print_cpu(FILE *f, const char *label, const struct cpu_usage *c)
{
	char us[32], sy[32];

	fmt_secs(c->utime_ns, us, sizeof(us));
	fmt_secs(c->stime_ns, sy, sizeof(sy));
	fprintf(f, "%-6s user %s  sys %s  ctx %" PRIu64 " vol / %" PRIu64
		" invol", label, us, sy, c->vcsw, c->ivcsw);
}

static void print_failure(FILE *f, const char *indent,
			  const struct job_stats *s)
{
	int e = s->err < 0 ? -s->err : s->err;

	/* err_msg is the whole story when there is one. */
	fprintf(f, "%s%s\n", indent, s->err_msg[0] ? s->err_msg :
		strerror(e));
}

static void print_header(FILE *f, const struct result_unit *u)
{
	const struct job *j = u->job;
	const struct job_stats *s = &u->stats;
	char rt[32];

	fprintf(f, "%s: ", j->desc.name ? j->desc.name : "(unnamed)");
	if (j->report.group_reporting)
		fprintf(f, "%u job%s merged, ", u->njobs,
			u->njobs == 1 ? "" : "s");
	else
		fprintf(f, "clone %u, ", j->plan.clone);
	fprintf(f, "group %u", j->plan.group);
	if (!s->nclones) {
		fputs(": not run\n", f);
		return;
	}
	if (s->nclones < u->njobs)
		fprintf(f, ", %u of %u ran", s->nclones, u->njobs);
	if (!s->nmeasured) {
		fprintf(f, ", not measured: stopped during ramp_time%s\n",
			s->interrupted ? ", interrupted" : "");
		return;
	}
	value_fmt_ns((double)s->runtime_ns, rt, sizeof(rt));
	fprintf(f, ", runtime %s, %" PRIu64 " loop%s%s\n", rt, s->loops_done,
		s->loops_done == 1 ? "" : "s",
		s->interrupted ? ", interrupted" : "");
}

/* A verify header's fields; found: with its write time. */
static void print_vhdr(FILE *f, const char *label, const struct verify_hdr *h,
		       bool gen_known, bool found)
{
	char when[64] = "?";
	time_t secs = (time_t)(h->time_ns / 1000000000ull);
	struct tm tm;

	fprintf(f, "      %-9s offset %" PRIu64 ", length %" PRIu32 ", seed %#"
		PRIx64, label, h->offset, h->len, h->seed);
	if (gen_known)
		fprintf(f, ", generation %" PRIu64 ", run %#" PRIx64,
			h->generation, h->run_id);
	if (found && gmtime_r(&secs, &tm)) {
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(f, ", written %s.%09" PRIu64 "Z", when,
			h->time_ns % (uint64_t)1000000000);
	}
	fputc('\n', f);
}

static void print_mismatch(FILE *f, const struct verify_mismatch *m)
{
	fprintf(f, "    %s at offset %" PRIu64 " of %s: %s\n",
		verify_class_name(m->cls), m->offset, m->file, m->detail);
	print_vhdr(f, "expected:", &m->expected, m->exp_gen, false);
	if (m->found_hdr)
		print_vhdr(f, "found:", &m->found, true, true);
	else
		fprintf(f, "      %-9s no header\n", "found:");
}

/*
 *   verify xxh3: 256 blocks (1MiB) checked in 1.20ms, 2 mismatches
 *     stale 1, zeroed 1
 *     stale at offset 8192 of f.dat: ...
 *       expected: offset 8192, length 4096, seed 0x..., generation ...
 *       found:    offset 8192, ..., written 2025-01-31T12:00:00.000000000Z
 */
static void print_verify(FILE *f, const struct verify_stats *v)
{
	char human[32], ns[32], rt[64];
	const char *sep = "    ";
	unsigned i;
	int c;

	if (!v->kind)
		return;
	value_fmt_bytes(v->bytes, human, sizeof(human));
	value_fmt_ns((double)v->runtime_ns, ns, sizeof(ns));
	/* no verification reads: the job's own reads checked the blocks
	 * (a job that only reads, or mixed rw without do_verify) */
	snprintf(rt, sizeof(rt), "%s%s", !v->runtime_ns && v->blocks_checked ?
		 "by the job's reads" : "in ", !v->runtime_ns &&
		 v->blocks_checked ? "" : ns);
	fprintf(f, "  verify %s: %" PRIu64 " block%s (%s) checked %s, %"
		PRIu64 " mismatch%s%s\n", verify_kind_name(v->kind),
		v->blocks_checked, v->blocks_checked == 1 ? "" : "s", human,
		rt, v->mismatches, v->mismatches == 1 ? "" : "es",
		v->stopped ? "; stopped at the first (verify_fatal)" : "");
	if (v->read_errors)
		fprintf(f, "    read errors %" PRIu64 "\n", v->read_errors);
	if (v->write_failed)
		fprintf(f, "    write failed %" PRIu64 " block%s: not checked "
			"(the run's last write of %s failed or was short)\n",
			v->write_failed, v->write_failed == 1 ? "" : "s",
			v->write_failed == 1 ? "it" : "them");
	for (c = 0; c < VC_NR; c++) {
		if (!v->by_class[c])
			continue;
		fprintf(f, "%s%s %" PRIu64, sep, verify_class_name(c),
			v->by_class[c]);
		sep = ", ";
	}
	if (v->mismatches)
		fputc('\n', f);
	for (i = 0; i < v->nfirst; i++)
		print_mismatch(f, &v->first[i]);
	if (v->mismatches > v->nfirst)
		fprintf(f, "    and %" PRIu64 " more\n",
			v->mismatches - v->nfirst);
}

/*
 *   host vm: kernel 6.1.0, AMD EPYC 7B13, 8 CPUs, 31.3GiB memory
 * Unknown parts are left out.
 */
static void print_host(FILE *f, const struct run_result *r)
{
	char mem[32];

	fprintf(f, "host %.*s: kernel %.*s", (int)sizeof(r->hostname),
		r->hostname[0] ? r->hostname : "?", (int)sizeof(r->kernel),
		r->kernel[0] ? r->kernel : "?");
	if (r->cpu_model[0])
		fprintf(f, ", %.*s", (int)sizeof(r->cpu_model), r->cpu_model);
	fprintf(f, ", %u CPU%s", r->ncpus, r->ncpus == 1 ? "" : "s");
	if (r->memory_bytes) {
		value_fmt_bytes(r->memory_bytes, mem, sizeof(mem));
		fprintf(f, ", %s memory", mem);
	}
	fputs("\n\n", f);
}

/*
 *   target f.dat (+1 more): file on ext4, device sda (ST4000NM0035,
 *     firmware TN04): 512/4096 B sectors, rotational, bfq, write back
 * on one line: the unit's first target; unknown parts are left out.
 */
static void print_device(FILE *f, const struct sysinfo_device *d)
{
	fprintf(f, "device %s", d->name);
	if (d->model[0] || d->firmware[0])
		fprintf(f, " (%s%s%s)", d->model, d->model[0] &&
			d->firmware[0] ? ", firmware " : d->firmware[0] ?
			"firmware " : "", d->firmware);
	fputs(":", f);
	if (d->logical_block_size)
		fprintf(f, " %" PRIu32 "/%" PRIu32 " B sectors,",
			d->logical_block_size, d->physical_block_size);
	if (d->rotational >= 0)
		fprintf(f, " %s,", d->rotational ? "rotational" :
			"non-rotational");
	if (d->scheduler[0])
		fprintf(f, " scheduler %s,", d->scheduler);
	if (d->write_cache[0])
		fprintf(f, " %s cache", d->write_cache);
}

static void print_target(FILE *f, const struct run_targets *rt,
			 const struct job *j)
{
	const struct run_target *t;

	if (!rt || !rt->n)
		return;
	t = &rt->t[0];
	if (t->info.kind == SYSINFO_NONE) {
		/* An engine that moves no data (null, cpuio, exec) */
		fprintf(f, "  target: none (%s engine)\n", j->eng.engine->name);
		return;
	}
	fprintf(f, "  target %s", t->path ? t->path : "?");
	if (rt->n > 1)
		fprintf(f, " (+%u more)", rt->n - 1);
	if (t->info.kind == SYSINFO_BLOCK)
		fputs(": block device, ", f);
	else
		fprintf(f, ": file on %s, ", t->info.fs_type[0] ?
			t->info.fs_type : "an unknown file system");
	if (t->info.has_device)
		print_device(f, &t->info.dev);
	else
		fputs("no block device known", f);
	fputc('\n', f);
}

/* Whether the unit's table shows direction d: the job does it. */
static bool interval_dir(const struct result_unit *u, int d)
{
	return dir_active(&u->stats.dir[d]) || rw_dirs(u->job->io.rw) >> d & 1;
}

/*
 *   intervals of 1s (time: the end of each, from the start of measuring)
 *          time  read IOPS     MB/s      p50      p99      max
 *        1.000s      13.2k     54.2  73.47us 125.18us   2.38ms
 */
static void print_intervals(FILE *f, const struct result_unit *u)
{
	struct ival_iter it = IVAL_ITER_INIT;
	const struct ival_sample *smp;
	const struct ival_series *s = u->stats.intervals;
	char buf[5][32];
	int d;

	if (!s || !ival_series_count(s))
		return;
	value_fmt_ns((double)s->interval_ns * (double)(1ull << s->fold),
		     buf[0], sizeof(buf[0]));
	fprintf(f, "  intervals of %s%s (time: the end of each, from the "
		"start of measuring)\n    %9s", buf[0], s->fold ?
		", a long run's folded; --stream has every one" : "", "time");
	for (d = 0; d < DDIR_NR; d++)
		if (interval_dir(u, d))
			fprintf(f, "  %5s IOPS %8s %8s %8s %8s", dir_name[d],
				"MB/s", "p50", "p99", "max");
	fputc('\n', f);
	while ((smp = ival_iter_next(&it, s))) {
		fprintf(f, "    %8.3fs", (double)smp->end_ns / 1e9);
		for (d = 0; d < DDIR_NR; d++) {
			const struct hist_sparse *h = &smp->dir[d].lat;

			if (!interval_dir(u, d))
				continue;
			fmt_scaled(ival_iops(smp, d), &scale_count, "",
				   buf[0], sizeof(buf[0]));
			snprintf(buf[1], sizeof(buf[1]), "%.1f",
				 ival_bw(smp, d) / 1e6);
			value_fmt_ns((double)hist_sparse_percentile(h, 50),
				     buf[2], sizeof(buf[2]));
			value_fmt_ns((double)hist_sparse_percentile(h, 99),
				     buf[3], sizeof(buf[3]));
			value_fmt_ns(h->count ? (double)h->max : 0, buf[4],
				     sizeof(buf[4]));
			fprintf(f, "  %10s %8s %8s %8s %8s", buf[0], buf[1],
				buf[2], buf[3], buf[4]);
		}
		fputc('\n', f);
	}
}

/* unified_rw_reporting: reads and writes as one "mixed" line. */
static void print_mixed(FILE *f, const struct job_stats *s,
			const struct job *j, bool lat)
{
	struct dir_stats m;

	if (!j || j->report.unified_rw_reporting == UNIFIED_NONE)
		return;
	stats_mixed(&m, s);
	fputs("  ", f);
	print_rate_line(f, "mixed", &m, s->runtime_ns, j);
	if (lat)
		print_latencies(f, &m, j);
}

/*
 * steadystate: whether attained, when, the criterion's last value and
 * the window's means, as fio's "steadystate" line says them.
 */
static void print_steady(FILE *f, const struct steady_rec *r)
{
	char bw[32], at[32] = "";

	if (!r)
		return;
	fmt_scaled(steady_mean(r, r->bw), &scale_bin, " ", bw, sizeof(bw));
	if (r->attained)
		fmt_secs(r->at_ns, at, sizeof(at));
	fprintf(f, "  steadystate %s:%g%s: attained=%s%s%s, bw=%s, "
		"iops=%.1f, ", steady_kind_name(r->crit.kind), r->crit.limit,
		r->crit.pct ? "%" : "", r->attained ? "yes" : "no",
		r->attained ? " at " : "", at, bw, steady_mean(r, r->iops));
	if (r->judged)
		fprintf(f, "%s=%.3f%s\n", steady_is_slope(r->crit.kind) ?
			"slope" : "mean dev", r->criterion,
			r->crit.pct ? "%" : "");
	else
		fprintf(f, "window not filled (%u of %u samples)\n",
			r->count, r->n);
}

/* zonemode=zbd: the zones of the region, before and after (stats.h). */
static void zbd_count(const struct zbd_stats *z, int at, uint64_t *data,
		      unsigned *open, unsigned *full, unsigned *empty)
{
	unsigned i;

	*data = 0;
	*open = *full = *empty = 0;
	for (i = 0; i < z->n; i++) {
		unsigned c = z->z[i].cond[at];

		if (z->z[i].type == ZBD_TYPE_CONV)
			continue;
		*data += z->z[i].wp[at];
		*open += c == ZBD_COND_IMP_OPEN || c == ZBD_COND_EXP_OPEN ||
			 c == ZBD_COND_CLOSED;
		*full += c == ZBD_COND_FULL;
		*empty += c == ZBD_COND_EMPTY;
	}
}

static void print_zbd(FILE *f, const struct zbd_stats *z)
{
	static const char *const model[] = { "emulated", "host-aware",
					     "host-managed" };
	char zs[32], data[32];
	unsigned open, full, empty;
	uint64_t bytes;
	int at;

	if (!z)
		return;
	value_fmt_bytes(z->zone_size, zs, sizeof(zs));
	fprintf(f, "  zones %s, %u of %s: %" PRIu64 " zone resets, at most "
		"%u open", z->model >= 0 && z->model <= 2 ? model[z->model] :
		"?", z->n, zs, z->resets, z->max_open_seen);
	if (z->max_open)
		fprintf(f, " (limit %u)", z->max_open);
	fputc('\n', f);
	for (at = 0; at < 2; at++) {
		zbd_count(z, at, &bytes, &open, &full, &empty);
		value_fmt_bytes(bytes, data, sizeof(data));
		fprintf(f, "    %s: %u empty, %u open or closed, %u full, %s "
			"below the write pointers\n", at ? "after " : "before",
			empty, open, full, data);
	}
}

static void print_unit(FILE *f, const struct run_result *r,
		       const struct result_unit *u)
{
	const struct job_stats *s = &u->stats;
	char per_io[32];
	bool any = false;
	int d;

	print_header(f, u);
	if (!s->nclones)
		return;
	print_target(f, result_targets(r, u), u->job);
	if (s->err)
		print_failure(f, "  failed: ", s);
	if (s->abandoned)
		fputs("  abandoned: an I/O was still blocked when the stop "
		      "grace period ran out; I/Os in flight then are not "
		      "counted\n", f);
	if (!s->nmeasured) {
		for (d = 0; d < DDIR_NR; d++)
			print_errors(f, &s->dir[d]);
		return;
	}
	for (d = 0; d < DDIR_NR; d++) {
		const struct dir_stats *ds = &s->dir[d];

		if (!dir_active(ds))
			continue;
		any = true;
		/* mixed: only the one direction, printed below */
		if (u->job->report.unified_rw_reporting == UNIFIED_MIXED)
			continue;
		fputs("  ", f);
		print_rate_line(f, dir_name[d], ds, s->runtime_ns, u->job);
		print_pace(f, ds, s->runtime_ns);
		print_samples(f, ds, u->job);
		print_latencies(f, ds, u->job);
		print_errors(f, ds);
	}
	if (!any)
		fputs("  no I/O\n", f);
	print_mixed(f, s, u->job, true);
	print_depths(f, &s->depth);
	print_depth_mean(f, s, u->job);
	print_sync_think(f, s, u->job);
	print_verify(f, &s->verify);
	fputs("  ", f);
	print_cpu(f, "cpu", &s->cpu);
	value_fmt_ns(stats_cpu_us_per_io(s) * 1000.0, per_io, sizeof(per_io));
	fprintf(f, "  %s cpu/io\n", per_io);
	if (s->cpus[0])
		fprintf(f, "  cpus allowed %s\n", s->cpus);
	print_steady(f, s->steady);
	print_zbd(f, s->zbd);
	print_intervals(f, u);
}

static void print_group(FILE *f, const struct result_set *rs, unsigned id)
{
	const struct job_stats *g = &rs->groups[id];
	const struct job *first = rs->group_first ? rs->group_first[id] :
				  NULL;
	unsigned njobs = rs->group_njobs ? rs->group_njobs[id] : 0;
	char rt[32];
	int d;

	if (!njobs)
		return;		/* stats=0, all of them */
	fprintf(f, "group %u: %u job%s", id, njobs, njobs == 1 ? "" : "s");
	if (!g->nclones) {
		fputs(", not run\n", f);
		return;
	}
	if (!g->nmeasured) {
		fprintf(f, ", %u ran, not measured: stopped during "
			"ramp_time\n", g->nclones);
		return;
	}
	value_fmt_ns((double)g->runtime_ns, rt, sizeof(rt));
	fprintf(f, ", %u ran, runtime %s\n", g->nclones, rt);
	for (d = 0; d < DDIR_NR; d++) {
		if (!dir_active(&g->dir[d]) || (first &&
		    first->report.unified_rw_reporting == UNIFIED_MIXED))
			continue;
		fputs("  ", f);
		print_rate_line(f, dir_name[d], &g->dir[d], g->runtime_ns,
				first);
	}
	print_mixed(f, g, first, false);
}

/* disk_util: fio's "Disk stats (read/write)". */
static void print_disks(FILE *f, const struct sysinfo_disks *s)
{
	unsigned i;

	if (!s->n)
		return;
	fputs("Disk stats (read/write):\n", f);
	for (i = 0; i < s->n; i++) {
		const struct sysinfo_diskstat *d = &s->d[i].sum;

		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64
			"/%" PRIu64 ", sectors=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64
			", util=%.2f%%\n", d->name, d->rd_ios, d->wr_ios,
			d->rd_merges, d->wr_merges, d->rd_sectors,
			d->wr_sectors, d->rd_ticks, d->wr_ticks,
			d->time_in_queue, sysinfo_disk_util(&s->d[i]));
	}
	fputc('\n', f);
}

/* The NVMe namespaces under the targets: identity, health, its change. */
/* The error log's entries logged during the run, newest first. */
static void print_nvme_errors(FILE *f, const struct nvmedev_dev *d)
{
	const struct nvmedev_errent *e;
	const char *why;
	unsigned i;

	for (i = 0; i < d->nerrs; i++) {
		e = &d->errs[i];
		why = nvmedev_status_text(e->status);
		fprintf(f, "    error log entry %" PRIu64 ": ", e->count);
		if (why)
			fputs(why, f);
		else
			fprintf(f, "NVMe status 0x%03x", e->status);
		fprintf(f, ", queue %u, command %u, nsid %u, LBA %" PRIu64
			", parameter 0x%x\n", e->sqid, e->cmdid, e->nsid,
			e->lba, e->pel);
	}
}

static void print_nvme(FILE *f, const struct nvmedev_set *s)
{
	const struct nvmedev_health *a, *b;
	struct nvmedev_health dh;
	unsigned i;

	if (!s->n)
		return;
	fputs("NVMe devices (identify, SMART / health log):\n", f);
	for (i = 0; i < s->n; i++) {
		const struct nvmedev_dev *d = &s->d[i];

		fprintf(f, "  %s (%s): %s, serial %s, firmware %s, nsid %u, "
			"%" PRIu64 " blocks of %u B (LBA format %u), metadata "
			"%u B%s, PI type %u%s\n", d->name, d->target,
			d->id.model, d->id.serial, d->id.firmware, d->id.nsid,
			d->id.nsze, d->id.lba_size, d->id.lbaf, d->id.ms,
			d->id.extended ? " (extended LBA)" : "",
			d->id.pi_type, d->id.zoned ? ", zoned" : "");
		if (d->err)
			fprintf(f, "    not read: %s\n", strerror(-d->err));
		if (!d->have_before || !d->have_after)
			continue;
		a = &d->before;
		b = &d->after;
		nvmedev_health_sub(&dh, b, a);
		fprintf(f, "    health before: critical warning 0x%x, %d C, "
			"spare %u%%, used %u%%, media errors %" PRIu64
			", error log entries %" PRIu64 "\n",
			a->critical_warning, a->temperature, a->avail_spare,
			a->percentage_used, a->media_errors,
			a->error_log_entries);
		fprintf(f, "    health after:  critical warning 0x%x, %d C, "
			"spare %u%%, used %u%%, media errors %" PRIu64
			", error log entries %" PRIu64 "\n",
			b->critical_warning, b->temperature, b->avail_spare,
			b->percentage_used, b->media_errors,
			b->error_log_entries);
		fprintf(f, "    during the run: host read commands +%" PRIu64
			", host write commands +%" PRIu64 ", data units read +%"
			PRIu64 ", written +%" PRIu64 ", media errors +%" PRIu64
			", error log entries +%" PRIu64 "\n",
			dh.host_read_commands, dh.host_write_commands,
			dh.data_units_read, dh.data_units_written,
			dh.media_errors, dh.error_log_entries);
		print_nvme_errors(f, d);
	}
	fputc('\n', f);
}

static void print_footer(FILE *f, const struct run_result *r,
			 const struct result_unit *u, int nunits)
{
	char wall[32], sig[32];
	int i;

	print_cpu(f, "process", &r->proc_cpu);
	value_fmt_ns((double)r->wall_ns, wall, sizeof(wall));
	fprintf(f, "\n        wall %s  faults %" PRIu64 " minor / %" PRIu64
		" major\n", wall, r->proc_cpu.minflt, r->proc_cpu.majflt);
	if (r->signo)
		fprintf(f, "interrupted by %s: figures cover the run until "
			"then\n", sig_name(r->signo, sig, sizeof(sig)));
	for (i = 0; i < nunits; i++) {
		if (!u[i].stats.err)
			continue;
		fprintf(f, "failed: %s (group %u): ",
			u[i].job->desc.name ? u[i].job->desc.name : "(unnamed)",
			u[i].job->plan.group);
		print_failure(f, "", &u[i].stats);
	}
	for (i = 0; i < nunits; i++)
		if (u[i].stats.verify.mismatches)
			fprintf(f, "verification: %s (group %u): %" PRIu64
				" of %" PRIu64 " blocks did not verify\n",
				u[i].job->desc.name ? u[i].job->desc.name :
				"(unnamed)",
				u[i].job->plan.group,
				u[i].stats.verify.mismatches,
				u[i].stats.verify.blocks_checked);
}

/*
 *   repeats: 3 runs               mean       stddev           cv  ...
 *     read.iops               12.20k       123.45        1.01%  ...
 */
static void print_repeats(FILE *f, const struct check_unit *cu)
{
	const char *const head[] = { "mean", "stddev", "cv", "min", "max" };
	char v[5][48];
	unsigned k;
	int u;

	if (!cu->repeated || !cu->nfigs || !cu->figs[0].spread.n)
		return;
	snprintf(v[0], sizeof(v[0]), "repeats: %u run%s", cu->figs[0].spread.n,
		 cu->figs[0].spread.n == 1 ? "" : "s");
	fprintf(f, "  %-21s", v[0]);
	for (k = 0; k < 5; k++)
		fprintf(f, " %12s", head[k]);
	fputc('\n', f);
	for (k = 0; k < cu->nfigs; k++) {
		const struct check_fig *g = &cu->figs[k];

		u = metric_unit(&g->m);
		metric_format(u, g->spread.mean, v[0], sizeof(v[0]));
		metric_format(u, g->spread.stddev, v[1], sizeof(v[1]));
		metric_format(MU_PCT, g->spread.cv_pct, v[2], sizeof(v[2]));
		metric_format(u, g->spread.min, v[3], sizeof(v[3]));
		metric_format(u, g->spread.max, v[4], sizeof(v[4]));
		fprintf(f, "    %-17s %12s %12s %12s %12s %12s\n", g->m.name,
			v[0], v[1], v[2], v[3], v[4]);
	}
}

/*
 *   baseline                     value     baseline       change
 *     read.iops               12.20k       11.90k       +2.52%
 */
static void print_baseline(FILE *f, const struct check_unit *cu)
{
	char v[48], b[48], c[48];
	unsigned k;
	int u;

	if (!cu->in_baseline)
		return;
	fprintf(f, "  %-21s %12s %12s %12s\n", "baseline", "value",
		"baseline", "change");
	for (k = 0; k < cu->nfigs; k++) {
		const struct check_fig *g = &cu->figs[k];

		if (!g->has_base)
			continue;
		u = metric_unit(&g->m);
		metric_format(u, g->value, v, sizeof(v));
		metric_format(u, g->base, b, sizeof(b));
		if (g->has_change)
			snprintf(c, sizeof(c), "%+.2f%%", g->change_pct);
		else
			snprintf(c, sizeof(c), "-");
		fprintf(f, "    %-17s %12s %12s %12s\n", g->m.name, v, b, c);
	}
}

static void print_unit_extras(FILE *f, const struct check_unit *cu)
{
	if (!cu)
		return;
	print_repeats(f, cu);
	print_baseline(f, cu);
}

/* checks: 2 passed, 1 failed, 0 n/a; then one line per check. */
static void print_checks(FILE *f, const struct check_report *cr)
{
	char line[1024];
	size_t i;

	if (!cr || !cr->nresults)
		return;
	fprintf(f, "\nchecks: %u passed, %u failed, %u n/a\n", cr->npass,
		cr->nfail, cr->nna);
	for (i = 0; i < cr->nresults; i++) {
		check_result_text(&cr->results[i], line, sizeof(line));
		fprintf(f, "  %-4s  %s\n",
			check_status_name(cr->results[i].status), line);
	}
}

int report_text(FILE *f, const struct run_result *r)
{
	struct curve_set cs;
	struct result_set rs;
	int i, ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	print_host(f, r);
	for (i = 0; i < rs.nunits; i++) {
		if (rs.units[i].hidden)
			continue;
		print_unit(f, r, &rs.units[i]);
		print_unit_extras(f, check_unit_at(r->checks, i));
		fputc('\n', f);
	}
	for (i = 0; i < rs.ngroups; i++)
		print_group(f, &rs, (unsigned)i);
	if (rs.ngroups)
		fputc('\n', f);
	if (!curve_collect(r, &cs)) {
		curve_print(f, &cs);
		curve_set_free(&cs);
	} else {
		ret = -ENOMEM;
	}
	print_disks(f, &r->disks);
	print_nvme(f, &r->nvme);
	print_footer(f, r, rs.units, rs.nunits);
	print_checks(f, r->checks);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	result_set_free(&rs);
	return ret;
}
