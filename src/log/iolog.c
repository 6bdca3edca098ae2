// SPDX-License-Identifier: MIT
/*
 * fio's log files and the per-I/O traces (iolog.h).
 *
 * fio's line: "time_ms, value, ddir, bs[, offset], prio" (log_offset adds
 * the offset; log_window_value=both a second value after the first). Per
 * I/O (log_avg_msec=0) the time is the completion's, bs and offset the
 * I/O's; averaged, one line per direction per window, at the window's
 * end, bs and offset 0. bw is KiB/s (averaged) or bytes*10^6/lat_ns (per
 * I/O, as fio computes it); latencies are ns.
 *
 * log_unix_epoch / log_alternate_epoch add the chosen clock's time at the
 * measured phase's start (ms) to every time. log_store_compressed writes
 * the bw, iops and latency logs as fio keeps its samples in memory and
 * stores them in a .fz file: each line a record (time, value, ddir with
 * fio's offset and priority flags, priority, bs[, offset]; native byte
 * order, as fio writes it), the records deflated into one zlib stream
 * (logz.h); fio --inflate-log prints them as lines.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddir.h"
#include "err.h"
#include "iolog.h"
#include "logz.h"
#include "procattr.h"
#include "door.h"
#include "target.h"

enum { L_BW, L_IOPS, L_SLAT, L_CLAT, L_LAT, L_HIST, L_TRACE, L_IOLOG,
       L_DEBUG, L_NR };
enum { WIN_AVG = 0, WIN_MAX = 1, WIN_BOTH = 2 };

#define BUF_SIZE (1u << 20)

static const char *const log_kind[L_NR] = {
	"bw", "iops", "slat", "clat", "lat", "clat_hist", NULL, NULL, NULL };
static const char *const log_option[L_NR] = {
	"write_bw_log", "write_iops_log", "write_lat_log", "write_lat_log",
	"write_lat_log", "write_hist_log", "write_io_trace", "write_iolog",
	"IORIG_IO_TRACE" };

struct lfile {
	struct door_out out;
	char *path;
	FILE *f;		/* out.f, or z; NULL: this log is off */
	FILE *z;		/* log_store_compressed: deflates into out.f,
				 * or into mem for a shared file */
	FILE *mem;		/* a shared .fz file's stream, held */
	char *mbuf;		/* mem's bytes */
	size_t mlen;
};

/* fio's in-memory sample, as its .fz files hold it (fio's iolog.h
 * layout on a 64-bit Linux: 32 bytes, 40 with the offset) */
struct fz_sample {
	uint64_t time;
	uint64_t value;
	uint32_t ddir;		/* | FZ_OFFSET, | FZ_PRIO */
	uint16_t prio;
	uint16_t pad;
	uint64_t bs;
	uint64_t offset;	/* written only with log_offset */
};
#define FZ_OFFSET 0x80000000u
#define FZ_PRIO 0x40000000u

struct win_dir {
	uint64_t n, bytes;
	uint64_t sum[3], max[3];	/* slat, clat, lat */
	uint64_t n_slat;
	bool seen;			/* any I/O since the start */
};

struct iolog {
	const struct clock *clk;
	struct lfile lf[L_NR];
	bool fio;		/* any of fio's logs */
	uint64_t t0;
	uint64_t avg_ms, hist_ms;
	int window;
	bool offset;
	char prio_txt[12];	/* the line's last field and its newline */
	uint16_t prio;		/* the job's ioprio value (.fz records) */
	bool log_prio;
	bool epoch;		/* log_unix_epoch, log_alternate_epoch */
	clockid_t epoch_clock;
	uint64_t epoch_ms;	/* added to every time */
	unsigned coarse;	/* log_hist_coarseness */
	uint64_t win_end, win_start;	/* ms */
	struct win_dir w[DDIR_NR];
	uint64_t hist_end;		/* ms */
	uint64_t *hist[DDIR_NR];
	uint64_t hist_n[DDIR_NR], hist_bs[DDIR_NR];
	/* write_iolog: its time base (ticks), the job's file names */
	uint64_t io_start;
	const char **names;
	unsigned nnames;
};

unsigned iolog_hist_bin(uint64_t ns)
{
	unsigned msb, shift, idx;

	if (ns < (1u << IOLOG_HIST_BITS))
		return (unsigned)ns;
	msb = 63 - (unsigned)__builtin_clzll(ns);
	shift = msb - IOLOG_HIST_BITS;
	idx = ((shift + 1) << IOLOG_HIST_BITS) +
	      (unsigned)((ns >> shift) & ((1u << IOLOG_HIST_BITS) - 1));
	return idx < IOLOG_HIST_NR ? idx : IOLOG_HIST_NR - 1;
}

/* Decimal digits of v at p, backwards from the end; returns the start. */
static char *utoa_end(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_u(FILE *f, uint64_t v, const char *sep)
{
	char b[24], *p = utoa_end(b + sizeof(b), v);

	fwrite_unlocked(p, 1, (size_t)(b + sizeof(b) - p), f);
	fputs_unlocked(sep, f);
}

/* fio's line: time, value[, value1], ddir, bs[, offset], prio; in a .fz
 * file its record (fio's samples have one value: v) */
static void fio_line(const struct iolog *l, const struct lfile *lf,
		     uint64_t ms, uint64_t v, uint64_t v1, bool two,
		     unsigned ddir, uint64_t bs, uint64_t off)
{
	FILE *f = lf->f;

	ms += l->epoch_ms;
	if (lf->z) {
		struct fz_sample s = {
			.time = ms, .value = v, .ddir = ddir |
			(l->offset ? FZ_OFFSET : 0) |
			(l->log_prio ? FZ_PRIO : 0), .prio = l->prio,
			.bs = bs, .offset = off };

		fwrite_unlocked(&s, l->offset ? sizeof(s) :
				offsetof(struct fz_sample, offset), 1, f);
		return;
	}
	put_u(f, ms, ", ");
	put_u(f, v, ", ");
	if (two)
		put_u(f, v1, ", ");
	put_u(f, ddir, ", ");
	put_u(f, bs, ", ");
	if (l->offset)
		put_u(f, off, ", ");
	/* The job's I/O priority (prio=, prioclass=: procattr.h), as
	 * fio: log_prio=1 the whole value in hex, else 1 for the realtime
	 * class, 0 otherwise. */
	fputs_unlocked(l->prio_txt, f);
}

int iolog_inflate(FILE *f, FILE *out)
{
	const size_t head = offsetof(struct fz_sample, offset);
	FILE *in = logz_open_read(f);
	struct fz_sample r;
	unsigned prio;
	size_t n = 0;
	int ret;

	if (!in)
		return -ENOMEM;
	while ((n = fread(&r, 1, head, in)) == head) {
		if ((r.ddir & FZ_OFFSET) &&
		    fread(&r.offset, 1, sizeof(r.offset), in) !=
		    sizeof(r.offset))
			break;
		/* fio's log_prio: the value in hex; else 1 for the RT
		 * class (the value's top 3 bits), as fio_line writes */
		prio = r.ddir & FZ_PRIO ? r.prio : (r.prio >> 13) == 1;
		fprintf(out, "%" PRIu64 ", %" PRId64 ", %u, %" PRIu64,
			r.time, (int64_t)r.value,
			r.ddir & ~(FZ_OFFSET | FZ_PRIO), r.bs);
		if (r.ddir & FZ_OFFSET)
			fprintf(out, ", %" PRIu64, r.offset);
		fprintf(out, r.ddir & FZ_PRIO ? ", 0x%04x\n" : ", %u\n",
			prio);
	}
	ret = ferror(in) ? -(errno ? errno : EIO) : n ? -EINVAL : 0;
	fclose(in);
	return ret;
}

/* Ends a .fz file's zlib stream; keep: appends a shared one's whole
 * stream in one write (door_write_whole), else drops it. 0 or
 * -errno. */
static int lfile_finish(struct lfile *lf, bool keep)
{
	int r = lf->z && fclose(lf->z) ? -(errno ? errno : EIO) : 0;

	lf->z = NULL;
	if (lf->mem) {
		if (fclose(lf->mem) && !r)
			r = -(errno ? errno : EIO);
		lf->mem = NULL;
		if (!r && keep)
			r = door_write_whole(&lf->out, lf->mbuf, lf->mlen);
		free(lf->mbuf);
		lf->mbuf = NULL;
	}
	return r;
}

/* Frees lf; a file not finished is discarded (door.h). */
static void lfile_free(struct lfile *lf)
{
	lfile_finish(lf, false);
	if (lf->out.f)
		door_discard(&lf->out);
	lf->f = NULL;
	free(lf->path);
	lf->path = NULL;
}

static int open_one(struct iolog *l, unsigned k, char *path, bool append,
		    bool gz, const struct door_fence *fence, char *msg,
		    size_t msglen)
{
	struct lfile *lf = &l->lf[k];
	struct err_rec e = { 0 };
	int ret;

	lf->path = path;
	ret = door_open(&lf->out, path, log_option[k], append ? DOOR_APPEND :
			DOOR_WHOLE, fence, &e);
	if (ret) {
		err_format(&e, msg, msglen);
		return ret;
	}
	lf->f = lf->out.f;
	/* A shared file (append) gets each job's zlib stream whole at its
	 * end, one write: streams in chunks would interleave. */
	if (gz && ((append && !(lf->mem = open_memstream(&lf->mbuf,
							   &lf->mlen))) ||
		   !(lf->f = lf->z = logz_open(append ? lf->mem :
						lf->out.f)))) {
		snprintf(msg, msglen, "%s: out of memory", path);
		lfile_free(lf);
		return -ENOMEM;
	}
	if (setvbuf(lf->f, NULL, _IOFBF, BUF_SIZE)) {
		snprintf(msg, msglen, "%s: out of memory", path);
		lfile_free(lf);
		return -ENOMEM;
	}
	return 0;
}

/* fio's name of a log: PREFIX_KIND.N.log, PREFIX_KIND.log shared
 * (.log.fz compressed). */
static char *fio_name(const struct job *j, const char *prefix,
		      const char *kind, unsigned jobnum, bool gz)
{
	const char *sfx = gz ? "log.fz" : "log";
	char *s;
	int r;

	if (!*prefix)
		prefix = j->desc.name;
	if (j->logs.per_job_logs)
		r = asprintf(&s, "%s_%s.%u.%s", prefix, kind, jobnum, sfx);
	else
		r = asprintf(&s, "%s_%s.%s", prefix, kind, sfx);
	return r < 0 ? NULL : s;
}

/* The prefix of log k (k < L_TRACE) the job asks for; NULL: none. */
static const char *log_prefix(const struct job *j, unsigned k)
{
	const char *pfx[L_TRACE] = {
		j->logs.write_bw_log, j->logs.write_iops_log,
			j->logs.write_lat_log,
		j->logs.write_lat_log, j->logs.write_lat_log,
		j->logs.write_hist_log };

	return pfx[k];
}

/* fio's compressed hist log holds its memory's pointers, not counts:
 * iorig writes that one as text (plan.c warns) */
static bool log_gz(const struct job *j, unsigned k)
{
	return j->logs.log_store_compressed && k < L_HIST;
}

/*
 * The file of log k for job j (fio's jobnum), or NULL: not asked for;
 * *err -ENOMEM when out of memory. dbg: IORIG_IO_TRACE's value.
 */
static char *log_path(const struct job *j, unsigned k, unsigned jobnum,
		      const char *dbg, int *err)
{
	char *path = NULL;

	*err = 0;
	if (k < L_TRACE) {
		if (!log_prefix(j, k))
			return NULL;
		path = fio_name(j, log_prefix(j, k), log_kind[k], jobnum,
				log_gz(j, k));
	} else if (k == L_TRACE && j->logs.write_io_trace) {
		path = strdup(j->logs.write_io_trace);
	} else if (k == L_IOLOG && j->logs.write_iolog) {
		/* fio's clones share one file, lines interleaved, which its
		 * read_iolog cannot replay: clone N>0 writes its own FILE.N */
		if (!j->plan.clone)
			path = strdup(j->logs.write_iolog);
		else if (asprintf(&path, "%s.%u", j->logs.write_iolog,
				  j->plan.clone) < 0)
			path = NULL;
	} else if (k == L_DEBUG && dbg) {
		if (asprintf(&path, "%s.%s.%u", dbg, j->desc.name,
			     j->plan.clone) < 0)
			path = NULL;
	} else {
		return NULL;
	}
	if (!path)
		*err = -ENOMEM;
	return path;
}

/* IORIG_IO_TRACE, the debugging trace's prefix; NULL: none. */
static const char *debug_trace(void)
{
	const char *dbg = getenv("IORIG_IO_TRACE");

	return dbg && *dbg ? dbg : NULL;
}

int iolog_names(const struct job *j, unsigned jobnum, struct door_names *l)
{
	const char *dbg = debug_trace();
	unsigned k;
	char *path;
	int err;

	for (k = 0; k < L_NR; k++) {
		path = log_path(j, k, jobnum, dbg, &err);
		if (err)
			return err;
		if (!path)
			continue;
		err = door_names_add(l, log_option[k], "%s", path);
		free(path);
		if (err)
			return err;
	}
	return 0;
}

int iolog_open(struct iolog **out, const struct job *j, unsigned jobnum,
	       const struct clock *clk, const struct door_fence *fence,
	       char *msg, size_t msglen)
{
	const char *dbg = debug_trace();
	struct iolog *l;
	unsigned k, d;
	char *path;
	int ret = 0, err;

	*out = NULL;
	for (k = 0; k < L_TRACE && !log_prefix(j, k); k++)
		;
	if (k == L_TRACE && !j->logs.write_io_trace && !j->logs.write_iolog &&
	    !dbg)
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		goto nomem;
	l->clk = clk;
	l->avg_ms = j->logs.log_avg_msec;
	l->hist_ms = j->logs.log_hist_msec;
	l->window = j->logs.log_window_value;
	l->offset = j->logs.log_offset;
	l->log_prio = j->logs.log_prio;
	l->prio = (uint16_t)procattr_ioprio(j);
	l->epoch = j->logs.log_unix_epoch || j->logs.log_alternate_epoch;
	l->epoch_clock = (clockid_t)j->logs.log_alternate_epoch_clock_id;
	l->coarse = (unsigned)j->logs.log_hist_coarseness;
	if (j->logs.log_prio)
		snprintf(l->prio_txt, sizeof(l->prio_txt), "0x%04x\n",
			 procattr_ioprio(j));
	else
		snprintf(l->prio_txt, sizeof(l->prio_txt), "%d\n",
			 procattr_ioprio(j) >> 13 == 1);
	for (k = 0; k < L_NR && !ret; k++) {
		path = log_path(j, k, jobnum, dbg, &err);
		if (err)
			goto nomem;
		if (!path)
			continue;
		ret = open_one(l, k, path,
			       (k < L_TRACE && !j->logs.per_job_logs) ||
			       k == L_IOLOG, log_gz(j, k), fence, msg, msglen);
		if (!ret && k < L_TRACE)
			l->fio = true;
	}
	if (ret) {
		iolog_discard(l);
		return ret;
	}
	if (l->lf[L_HIST].f && l->hist_ms)
		for (d = 0; d < DDIR_NR; d++)
			if (!(l->hist[d] = calloc(IOLOG_HIST_NR,
						  sizeof(uint64_t))))
				goto nomem;
	if (l->lf[L_TRACE].f)
		fputs_unlocked("# time_us dir offset bytes slat_ns clat_ns "
			       "lat_ns\n", l->lf[L_TRACE].f);
	l->io_start = clock_ticks(clk);
	if (l->lf[L_IOLOG].f)
		fputs_unlocked("fio version 3 iolog\n", l->lf[L_IOLOG].f);
	if (l->lf[L_DEBUG].f)
		fputs_unlocked("# ddir offset len t_queue t_submit t_done "
			       "slat_ns clat_ns lat_ns phase\n",
			       l->lf[L_DEBUG].f);
	*out = l;
	return 0;
nomem:
	snprintf(msg, msglen, "log files: out of memory");
	iolog_discard(l);
	return -ENOMEM;
}

void iolog_start(struct iolog *l, uint64_t t0)
{
	struct timespec ts;
	uint64_t ns;
	unsigned d;

	l->t0 = t0;
	/* The clock's time at t0: now, less the time since t0 */
	if (l->epoch && !clock_gettime(l->epoch_clock, &ts)) {
		ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec -
		     clock_delta_ns(l->clk, t0, clock_ticks(l->clk));
		l->epoch_ms = ns / 1000000;
	}
	l->win_start = 0;
	l->win_end = l->avg_ms;
	l->hist_end = l->hist_ms;
	memset(l->w, 0, sizeof(l->w));
	for (d = 0; d < DDIR_NR; d++) {
		l->hist_n[d] = 0;
		if (l->hist[d])
			memset(l->hist[d], 0, IOLOG_HIST_NR * sizeof(uint64_t));
	}
}

/* The averaged lines of the window that ends at ms (started win_start). */
static void win_flush(struct iolog *l, uint64_t ms)
{
	uint64_t span = ms - l->win_start;
	static const unsigned lk[3] = { L_SLAT, L_CLAT, L_LAT };
	unsigned d, i;

	for (d = 0; d < DDIR_NR && span; d++) {
		struct win_dir *w = &l->w[d];

		if (!w->seen)
			continue;
		if (l->lf[L_BW].f)
			fio_line(l, &l->lf[L_BW], ms,
				 w->bytes * 1000 / 1024 / span,
				 w->bytes * 1000 / 1024 / span,
				 l->window == WIN_BOTH, d, 0, 0);
		if (l->lf[L_IOPS].f)
			fio_line(l, &l->lf[L_IOPS], ms, w->n * 1000 / span,
				 w->n * 1000 / span, l->window == WIN_BOTH, d,
				 0, 0);
		for (i = 0; i < 3; i++) {
			uint64_t n = i ? w->n : w->n_slat;

			if (!l->lf[lk[i]].f || !n)
				continue;
			fio_line(l, &l->lf[lk[i]], ms, l->window == WIN_MAX ?
				 w->max[i] : w->sum[i] / n, w->max[i],
				 l->window == WIN_BOTH, d, 0, 0);
		}
		w->n = w->bytes = w->n_slat = 0;
		memset(w->sum, 0, sizeof(w->sum));
		memset(w->max, 0, sizeof(w->max));
	}
	l->win_start = ms;
}

static void hist_flush(struct iolog *l, uint64_t ms)
{
	FILE *f = l->lf[L_HIST].f;
	unsigned d, i, k, stride = 1u << l->coarse;
	uint64_t sum;

	for (d = 0; d < DDIR_NR; d++) {
		if (!l->hist_n[d])
			continue;
		put_u(f, ms + l->epoch_ms, ", ");
		put_u(f, d, ", ");
		put_u(f, l->hist_bs[d], "");
		/* log_hist_coarseness: each 2^N bins summed into one (N <= 6
		 * divides the 1856 bins) */
		for (i = 0; i < IOLOG_HIST_NR; i += stride) {
			for (sum = 0, k = 0; k < stride; k++)
				sum += l->hist[d][i + k];
			fputs_unlocked(", ", f);
			put_u(f, sum, "");
		}
		fputc_unlocked('\n', f);
		memset(l->hist[d], 0, IOLOG_HIST_NR * sizeof(uint64_t));
		l->hist_n[d] = 0;
	}
}

static void per_io(struct iolog *l, const struct iolog_io *io, uint64_t ms)
{
	static const unsigned lk[3] = { L_SLAT, L_CLAT, L_LAT };
	const uint64_t v[3] = { io->slat, io->clat, io->lat };
	unsigned i;

	if (l->lf[L_BW].f)
		fio_line(l, &l->lf[L_BW], ms, io->lat ? io->bytes *
			 1000000 / io->lat : 0, 0, false, io->ddir,
			 io->bytes, io->offset);
	if (l->lf[L_IOPS].f)
		fio_line(l, &l->lf[L_IOPS], ms, 1, 0, false, io->ddir,
			 io->bytes, io->offset);
	for (i = io->has_slat ? 0 : 1; i < 3; i++)
		if (l->lf[lk[i]].f)
			fio_line(l, &l->lf[lk[i]], ms, v[i], 0, false,
				 io->ddir, io->bytes, io->offset);
}

static void fio_io(struct iolog *l, const struct iolog_io *io, uint64_t ns)
{
	uint64_t ms = ns / 1000000;
	struct win_dir *w = &l->w[io->ddir];
	const uint64_t v[3] = { io->slat, io->clat, io->lat };
	unsigned i;

	if (!l->avg_ms) {
		per_io(l, io, ms);
	} else {
		while (ms >= l->win_end) {
			win_flush(l, l->win_end);
			l->win_end += l->avg_ms;
		}
		w->seen = true;
		w->n++;
		w->bytes += io->bytes;
		w->n_slat += io->has_slat;
		for (i = io->has_slat ? 0 : 1; i < 3; i++) {
			w->sum[i] += v[i];
			if (v[i] > w->max[i])
				w->max[i] = v[i];
		}
	}
	if (l->hist[0]) {
		while (ms >= l->hist_end) {
			hist_flush(l, l->hist_end);
			l->hist_end += l->hist_ms;
		}
		l->hist[io->ddir][iolog_hist_bin(io->clat)]++;
		l->hist_n[io->ddir]++;
		l->hist_bs[io->ddir] = io->bytes;
	}
}

void iolog_io(struct iolog *l, const struct iolog_io *io)
{
	static const char *const dn[DDIR_NR] = DDIR_NAMES;
	uint64_t ns;
	FILE *f;

	if ((f = l->lf[L_DEBUG].f))
		fprintf(f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
			" %s\n", dn[io->ddir], io->offset, io->bytes,
			io->t_queue, io->t_submit, io->t_done, io->slat,
			io->clat, io->lat, io->ramp ? "ramp" : "measured");
	if (io->ramp)
		return;
	ns = clock_delta_ns(l->clk, l->t0, io->t_done);
	if ((f = l->lf[L_TRACE].f)) {
		put_u(f, ns / 1000, io->ddir ? " W " : " R ");
		put_u(f, io->offset, " ");
		put_u(f, io->bytes, " ");
		put_u(f, io->slat, " ");
		put_u(f, io->clat, " ");
		put_u(f, io->lat, "\n");
	}
	if (l->fio)
		fio_io(l, io, ns);
}

/* write_iolog's "TIME FILE ACTION" line for each file of the job */
static void iolog_file_lines(struct iolog *l, const char *act)
{
	FILE *f = l->lf[L_IOLOG].f;
	uint64_t us = clock_delta_ns(l->clk, l->io_start,
				     clock_ticks(l->clk)) / 1000;
	unsigned i;

	for (i = 0; i < l->nnames; i++) {
		put_u(f, us, " ");
		fputs_unlocked(l->names[i], f);
		fputc_unlocked(' ', f);
		fputs_unlocked(act, f);
		fputc_unlocked('\n', f);
	}
}

int iolog_files(struct iolog *l, const struct target *t)
{
	unsigned i;

	if (!l || !l->lf[L_IOLOG].f)
		return 0;
	l->names = calloc(t->nfiles ? t->nfiles : 1, sizeof(*l->names));
	if (!l->names)
		return -ENOMEM;
	for (i = 0; i < t->nfiles; i++)
		l->names[i] = t->files[i].path;
	l->nnames = t->nfiles;
	iolog_file_lines(l, "add");
	iolog_file_lines(l, "open");
	return 0;
}

void iolog_issue(struct iolog *l, unsigned file, unsigned ddir,
		 uint64_t offset, uint64_t len, uint64_t t_queue)
{
	static const char *const dn[DDIR_NR + 2] = {
		"read", "write", "trim", "sync", "datasync" };
	FILE *f = l->lf[L_IOLOG].f;

	if (!f || file >= l->nnames)
		return;
	put_u(f, clock_delta_ns(l->clk, l->io_start, t_queue) / 1000, " ");
	fputs_unlocked(l->names[file], f);
	fputc_unlocked(' ', f);
	fputs_unlocked(dn[ddir < DDIR_NR + 2 ? ddir : DDIR_NR], f);
	fputc_unlocked(' ', f);
	put_u(f, offset, " ");
	put_u(f, len, "\n");
}

void iolog_discard(struct iolog *l)
{
	unsigned k, d;

	if (!l)
		return;
	for (k = 0; k < L_NR; k++)
		lfile_free(&l->lf[k]);
	for (d = 0; d < DDIR_NR; d++)
		free(l->hist[d]);
	free(l->names);
	free(l);
}

int iolog_close(struct iolog *l, uint64_t end, char *msg, size_t msglen)
{
	uint64_t ms = clock_delta_ns(l->clk, l->t0, end) / 1000000;
	unsigned k;
	int ret = 0, r;

	if (l->avg_ms && ms >= l->win_start)
		win_flush(l, ms);
	if (l->hist[0])
		hist_flush(l, ms);
	if (l->lf[L_IOLOG].f)
		iolog_file_lines(l, "close");
	for (k = 0; k < L_NR; k++) {
		if (!l->lf[k].f)
			continue;
		l->lf[k].f = NULL;
		/* the zlib stream's end, then the file */
		r = lfile_finish(&l->lf[k], true);
		if (r)
			door_discard(&l->lf[k].out);
		else
			r = door_close(&l->lf[k].out);
		if (r && !ret) {
			ret = r;
			snprintf(msg, msglen, "writing log %s: %s",
				 l->lf[k].path, strerror(-r));
		}
	}
	iolog_discard(l);
	return ret;
}
