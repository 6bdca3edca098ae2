/* SPDX-License-Identifier: MIT */
/*
 * What the files of `iorig plot` share (src/report/plot*.c; the command's
 * interface is include/plot.h): where charts are drawn (struct ctx), one
 * chart being written (struct draw), what the charts read of a result
 * (struct pres, pjob, pdir), and the functions one file gives another.
 */
#ifndef IORIG_PLOT_INT_H
#define IORIG_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "plot.h"
#include "result.h"

extern const char *const plot_dirs[];	/* "read", "write", "trim" */
#define NDIRS 3
/* latency histogram bars per decade */
#define LAT_BINS 20

/* Where and how charts are drawn. */
struct ctx {
	const char *dir;	/* NAME.dat, NAME.gp and the picture go here */
	const char *fmt;	/* "svg" or "png" */
	const char *prefix;	/* of every name: "" or "RESULT-" */
	bool keep;		/* plot_run: files stay, names printed */
	struct plot_chart *out;	/* in process: the charts drawn */
	int n, cap;
	struct err_rec *e;
	struct names *used;	/* the names drawn so far (one run) */
	/* the one axis range of every latency histogram drawn (the
	 * points of a sweep, the results compared), set before the
	 * first; NULL: result_charts takes its result's */
	const struct lat_range *lat;
};

/* The ranges latency histograms share: x (log) in us, y in % of I/Os. */
struct lat_range {
	double lo, hi;		/* the lowest bar's low edge, the highest's
				 * high one */
	double ymax;		/* the tallest bar */
};

/* Names given, so that two jobs of one name do not share a file. */
struct names {
	char **v;
	size_t n;
};


/* One chart being written. */
struct draw {
	struct ctx *c;
	char *name, *title, *dat_path, *gp_path, *pic_path;
	FILE *dat, *gp;
	char *datbuf, *gpbuf;
	size_t datlen, gplen;
};

/* ---- what the charts read of a result ---- */

/* A histogram bucket as a chart draws it: [lo, hi] ns holding n I/Os. */
struct prow {
	double lo, hi, n;
};

/* One direction of a unit. */
struct pdir {
	double ios, iops, bw;		/* bw in B/s */
	const char *which;		/* "lat" or "clat": the latency drawn;
					 * NULL when neither has I/Os */
	double count;			/* its I/Os */
	struct prow *rows;		/* its non-empty buckets, ascending */
	size_t nrows;
	double mark[3];			/* its p50, p99, p99.9 in us; < 0 */
	double p99;			/* the comparison's p99 in us; < 0 */
};

/* One reported unit. */
struct pjob {
	char label[512];		/* "NAME[ SWEEP-POINT][ clone N]" */
	bool ran;
	const char *name, *sweep_point;	/* "" for none */
	char engine[64], rw[64], iodepth[64], interval[64];
	double bs;			/* bs= in bytes; 0: not one size */
	const char *path;		/* of its first target; NULL: none */
	const char *dev;		/* that target's device name, or "" */
	size_t ntargets;
	struct pdir dir[NDIRS];
	const struct ival_series *iv;	/* interval= samples, or NULL */
	double iops, reqs, us_per_io;	/* its summary row */
};

/*
 * One result: of the result model (an iorig result, read back when
 * saved), or fio's JSON (pres_fio: what fio wrote, its bins and
 * percentiles as they are).
 */
struct pres {
	const char *host, *time;
	struct pjob *jobs;
	size_t njobs;
	char timebuf[64];
	struct result_doc doc;		/* a saved iorig result */
	struct result_set rs;		/* the units of a run's result */
	bool have_rs;
	bool only_clat;			/* draw clat, even where lat was
					 * measured (pres_model) */
	struct json_t *fio;		/* fio's document (jansson's json_t:
					 * only plot.c reads it) */
};

/* One result for the comparison. */
struct cmp_in {
	const char *label;	/* its file name without .json */
	bool owned;		/* label is ours (else the path given) */
	struct pres res;
};

/* A log file of write_bw_log, write_iops_log or write_lat_log (iorig's
 * or fio's): its rows as data blocks per direction. */
struct logdat {
	const char *path;
	const char *what, *ylabel;	/* of its kind */
	double div;			/* value to the axis unit */
	char *dat[NDIRS];
	size_t len[NDIRS], rows[NDIRS];
	/* a per-I/O latency log (every line has a bs): its samples */
	bool per_io;
	double end_s, vmin, vmax;	/* the last time; the values drawn
					 * (> 0 on a latency's log axis) */
	struct sample { double t_ms, v; } *raw[NDIRS];
	size_t nraw[NDIRS], capraw[NDIRS];
};

/* plot.c */
void names_free(struct names *u);
int names_take(struct names *u, char *stem, size_t len);
void name_part(char *buf, size_t len, const char *s);
void pres_free(struct pres *p);
int pres_model(const struct run_result *r, const struct result_set *rs,
	       struct pres *p);
void job_stem(const struct pjob *j, char *buf, size_t len);
void sub_add(char *buf, size_t len, const char *fmt, const char *v);
void sub_target(char *buf, size_t len, const struct pjob *j);
void subtitle(const struct pres *res, const struct pjob *j, char *buf,
	      size_t len);

/* plot_cmp.c */
int chart_compare(struct ctx *c, const struct cmp_in *in, size_t n,
		  bool base);

/* plot_draw.c */
void put_text(FILE *f, const char *s, const char *bad);
int oom(struct ctx *c);
int draw_begin(struct ctx *c, struct draw *d, const char *name,
	       const char *title, const char *sub, const char *xlabel,
	       const char *ylabel);
void draw_free(struct draw *d);
int draw_end(struct draw *d);
void ns_text(double ns, unsigned sig, char *buf, size_t len);
const char *time_unit(double max_ns, double *div);
double step125(double v, bool up);
void log_tics(FILE *gp, const char *axis, double lo, double hi);
void lin_top(FILE *gp, const char *axis, double max);
void time_end(FILE *gp, double end_s);

/* plot_lat.c */
int lat_range_res(struct lat_range *r, const struct pres *res);
int dbl_cmp(const void *a, const void *b);
int result_charts(struct ctx *c, const struct pres *res);

/* plot_log.c */
void logdat_free(struct logdat *l);
int log_read(struct logdat *l, struct err_rec *e);
int chart_log(struct ctx *c, struct logdat *l);
int chart_log_p99(struct ctx *c, struct logdat *l);


#endif
