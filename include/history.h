/* SPDX-License-Identifier: MIT */
#ifndef IORIG_HISTORY_H
#define IORIG_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "err.h"
#include "metric.h"

/*
 * --history=FILE.db: a history of runs in an SQLite database (schema in
 * man/iorig.1, HISTORY DATABASE). Each run is one transaction: the run
 * (host, kernel, version, command, its JSON result), each reported unit
 * (job, sweep point, clone, the effective options that differ from the
 * defaults and their SHA-256, the device under its first target: name,
 * model, serial, firmware) with its figures (every headline metric and
 * those the checks name, as result_metric gives them) and latency
 * histograms (per direction: lat, clat, slat, the JSON report's buckets).
 *
 * The file goes through the door (door_db_check) before SQLite opens it:
 * a file that is not an iorig history (another program's database,
 * random bytes, a damaged one, a newer schema) is refused untouched
 * (exit 2, nothing run). WAL mode and a busy timeout let several runs
 * record at once; a run killed before its commit leaves the earlier rows
 * and a valid file.
 */
#define HISTORY_SCHEMA_VERSION	1
/* PRAGMA application_id: "iorg" */
#define HISTORY_APP_ID		0x696f7267

struct history;
struct run_result;
struct result_unit;
struct door_fence;

/*
 * Opens path (option: how messages name it) after door_db_check: made
 * with its schema when new, else checked (ours, a schema this iorig
 * reads, PRAGMA quick_check). readonly: read only, never made or
 * written (--readonly). 0, or -errno with e (a usage error).
 */
int history_open(struct history **h, const char *path, const char *option,
		 bool readonly, const struct door_fence *f, struct err_rec *e);
void history_close(struct history *h);
/* history_open's look at path alone (door_db_check: the name, what is
 * there), nothing opened: 0, or -errno with e. */
int history_check(const char *path, const char *option, bool readonly,
		  struct err_rec *e);
const char *history_path(const struct history *h);
bool history_readonly(const struct history *h);

/*
 * Records run r (its units as result_collect gives them, those with
 * stats=0 left out, as the JSON report does) with the exit code it gets
 * and json, its JSON result (--output-format=json's document), in one
 * transaction; extra: metrics to record besides the headline ones
 * (the checks'). Returns the run's id (> 0), or -errno with why.
 */
long long history_record(struct history *h, const struct run_result *r,
			 int exit_code, const char *json,
			 const struct metric *extra,
			 size_t nextra, char *why, size_t whylen);

/*
 * The figures of metric m of the runs recorded before for the same job
 * as unit u of r (same options' hash) on the same device model, newest
 * first, at most last (0: all); only units that ran and measured without
 * an error, of runs no signal stopped. *v (free it) gets *n values.
 * 0, or -errno.
 */
int history_values(struct history *h, const struct run_result *r,
		   const struct result_unit *u, const struct metric *m,
		   unsigned last, double **v, unsigned *n);

/* One run's figure in a series: its id, start, wall time, value. */
struct history_point {
	long long run;
	long long started_ms;
	long long wall_ns;
	double value;
};

/* The same runs as history_values, oldest first, with their ids and
 * starts (the HTML report's trend). *pts (free it) gets *n points. */
int history_series(struct history *h, const struct run_result *r,
		   const struct result_unit *u, const struct metric *m,
		   unsigned last, struct history_point **pts, unsigned *n);


#endif
