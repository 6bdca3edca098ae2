// SPDX-License-Identifier: MIT
/*
 * --history=FILE.db (include/history.h): runs recorded in SQLite, the
 * figures of earlier runs for the checks, and `iorig history` (histcmd.c)
 * reading them back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <sqlite3.h>

#include "door.h"
#include "history.h"
#include "histdb.h"
#include "options.h"
#include "result.h"

/*
 * The schema (version HISTORY_SCHEMA_VERSION; man/iorig.1 documents it).
 * A later version adds to it; a reader of version N reads N and older.
 */
static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS runs ("
	" id INTEGER PRIMARY KEY,"
	" started_ms INTEGER NOT NULL,"
	" started TEXT NOT NULL,"
	" recorded_ms INTEGER NOT NULL,"
	" host TEXT NOT NULL, kernel TEXT NOT NULL, cpu_model TEXT,"
	" ncpus INTEGER, memory_bytes INTEGER,"
	" iorig_version TEXT NOT NULL, command TEXT NOT NULL,"
	" wall_ns INTEGER NOT NULL, signal TEXT, exit_code INTEGER NOT NULL,"
	" result_json TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS units ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL,"
	" job TEXT NOT NULL, sweep_point TEXT, clone INTEGER,"
	" options TEXT NOT NULL, options_hash TEXT NOT NULL,"
	" target TEXT, device TEXT, device_model TEXT NOT NULL,"
	" device_serial TEXT, device_firmware TEXT,"
	" ran INTEGER NOT NULL, measured INTEGER NOT NULL,"
	" runtime_ns INTEGER NOT NULL, error TEXT,"
	" UNIQUE (run_id, idx));"
	"CREATE INDEX IF NOT EXISTS units_job ON units"
	" (options_hash, device_model);"
	"CREATE TABLE IF NOT EXISTS figures ("
	" unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,"
	" metric TEXT NOT NULL, value REAL NOT NULL,"
	" UNIQUE (unit_id, metric));"
	"CREATE TABLE IF NOT EXISTS histograms ("
	" unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,"
	" direction TEXT NOT NULL, kind TEXT NOT NULL,"
	" count INTEGER NOT NULL, overflow INTEGER NOT NULL,"
	" min_ns INTEGER NOT NULL, max_ns INTEGER NOT NULL,"
	" mean_ns REAL NOT NULL, stddev_ns REAL NOT NULL,"
	" buckets TEXT NOT NULL,"
	" PRIMARY KEY (unit_id, direction, kind)) WITHOUT ROWID;";

struct history {
	sqlite3 *db;
	struct door_db dd;
	char *path;		/* as given */
	bool readonly;
	bool empty;		/* read only, and no schema yet */
};

const char *history_path(const struct history *h)
{
	return h->path;
}

bool history_readonly(const struct history *h)
{
	return h->readonly;
}

/* ---- opening ---- */

static int one_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(buf, len, "%s",
			 (const char *)sqlite3_column_text(st, 0) ?: "");
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

#define NOT_OURS "left as it is; give an iorig history file or a new name"

/* Another connection holds a lock SQLite's busy handler does not wait
 * for (a change of journal mode, a schema being made): try again. */
static bool busy(int rc)
{
	return rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
}

/* What is there is ours, of a version we read, and whole. new: no
 * schema at all yet (an empty file or database). 0 or -EINVAL with e. */
static int history_validate(struct history *h, const char *option,
			    bool *new, struct err_rec *e)
{
	long long app = 0, ver = 0, ntab = 0;
	sqlite3_stmt *st;
	char qc[256] = "";
	int rc;

	*new = false;
	/* one statement: one snapshot, whoever is making the schema */
	rc = sqlite3_prepare_v2(h->db, "SELECT (SELECT application_id FROM "
				"pragma_application_id), (SELECT user_version "
				"FROM pragma_user_version), (SELECT count(*) "
				"FROM sqlite_master)", -1, &st, NULL);
	if (!rc) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			app = sqlite3_column_int64(st, 0);
			ver = sqlite3_column_int64(st, 1);
			ntab = sqlite3_column_int64(st, 2);
			rc = 0;
		}
		sqlite3_finalize(st);
	}
	if (busy(rc))
		return -EAGAIN;
	if (rc) {
		err_set(e, h->path, 0, option, "is not a database SQLite can "
			"read (%s): " NOT_OURS, sqlite3_errmsg(h->db));
		return -EINVAL;
	}
	if (!app && !ntab && !ver) {
		*new = true;
		return 0;
	}
	if (app != HISTORY_APP_ID || ver < 1) {
		err_set(e, h->path, 0, option, "is an SQLite database of "
			"another kind (application_id 0x%llx, user_version "
			"%lld, %lld tables), not an iorig history: "
			NOT_OURS, app, ver, ntab);
		return -EINVAL;
	}
	if (ver > HISTORY_SCHEMA_VERSION) {
		err_set(e, h->path, 0, option, "is a history of schema "
			"version %lld, written by a newer iorig; this one "
			"reads up to version %d: " NOT_OURS, ver,
			HISTORY_SCHEMA_VERSION);
		return -EINVAL;
	}
	rc = one_text(h->db, "PRAGMA quick_check", qc, sizeof(qc));
	if (busy(rc))
		return -EAGAIN;
	if (rc || strcmp(qc, "ok")) {
		err_set(e, h->path, 0, option, "is damaged (PRAGMA "
			"quick_check: %s): left as it is", rc ?
			sqlite3_errmsg(h->db) : qc);
		return -EINVAL;
	}
	return 0;
}

/* WAL (several writers wait for each other, readers never block) and
 * the schema, made once by whichever run comes first. */
static int history_init(struct history *h, bool new, struct err_rec *e,
			const char *option)
{
	char mode[32] = "";
	char sql[128];
	int rc;

	rc = one_text(h->db, "PRAGMA journal_mode", mode, sizeof(mode));
	if (!rc && strcmp(mode, "wal"))
		rc = one_text(h->db, "PRAGMA journal_mode=WAL", mode,
			      sizeof(mode));
	if (!rc && new) {
		snprintf(sql, sizeof(sql), "BEGIN IMMEDIATE; PRAGMA "
			 "application_id=%d; PRAGMA user_version=%d;",
			 HISTORY_APP_ID, HISTORY_SCHEMA_VERSION);
		rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);
		if (!rc)
			rc = sqlite3_exec(h->db, schema_sql, NULL, NULL, NULL);
		rc = rc ? rc : sqlite3_exec(h->db, "COMMIT", NULL, NULL,
					    NULL);
		if (rc)
			sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	}
	if (busy(rc))
		return -EAGAIN;
	if (rc) {
		err_set(e, h->path, 0, option, "cannot be made a history: %s",
			sqlite3_errmsg(h->db));
		return -EIO;
	}
	return 0;
}

static const char magic[16] = "SQLite format 3";

int history_check(const char *path, const char *option, bool readonly,
		  struct err_rec *e)
{
	struct door_db dd;
	int r = door_db_check(&dd, path, option, magic, sizeof(magic),
			      readonly, NULL, e);

	door_db_free(&dd);
	return r;
}

int history_open(struct history **hp, const char *path, const char *option,
		 bool readonly, const struct door_fence *f, struct err_rec *e)
{
	struct history *h = calloc(1, sizeof(*h));
	int flags, r, tries;
	bool new;

	*hp = NULL;
	if (!h || !(h->path = strdup(path))) {
		free(h);
		err_set(e, path, 0, option, "out of memory");
		return -ENOMEM;
	}
	h->readonly = readonly;
	r = door_db_check(&h->dd, path, option, magic, sizeof(magic),
			  readonly, f, e);
	if (r)
		goto fail;
	flags = (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE |
		 SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOFOLLOW |
		SQLITE_OPEN_NOMUTEX;
	r = -EINVAL;
	if (sqlite3_open_v2(h->dd.path, &h->db, flags, NULL)) {
		err_set(e, path, 0, option, "cannot be opened: %s",
			h->db ? sqlite3_errmsg(h->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(h->db, 120000);
	sqlite3_extended_result_codes(h->db, 0);
	/* Locks the busy handler does not wait for: every 10 ms, for as
	 * long as the busy timeout. */
	for (tries = 0; tries < 12000; tries++) {
		r = history_validate(h, option, &new, e);
		if (!r && !readonly)
			r = history_init(h, new, e, option);
		if (r != -EAGAIN)
			break;
		usleep(10000);
	}
	if (r == -EAGAIN)
		err_set(e, path, 0, option, "is locked by another program "
			"(for 2 minutes now)");
	if (r)
		goto fail;
	/* What SQLite has open is what the door saw (or made just now). */
	if (!door_db_same(&h->dd) && h->dd.exists) {
		err_set(e, path, 0, option, "was replaced while it was "
			"opened; try again");
		r = -EINVAL;
		goto fail;
	}
	h->empty = readonly && new;
	*hp = h;
	return 0;
fail:
	history_close(h);
	return r;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	door_db_free(&h->dd);
	free(h->path);
	free(h);
}

/* ---- a unit's identity ---- */

/* The rows of the job table (the others are engines'). */
static bool job_row(const struct opt_def *o)
{
	const struct opt_def *t;

	for (t = options_table; t->name; t++)
		if (t == o)
			return true;
	return false;
}

/*
 * The job's effective options that differ from the defaults, "name=value"
 * a line, in the table's order (an option iorig adds later with its
 * default leaves the text as it was), check= left out (what is judged,
 * not what runs); its SHA-256 in hex.
 */
int histdb_options(const struct job *j, char **text, char hash[65])
{
	struct job *dj = calloc(1, sizeof(*dj));
	const struct opt_def *o;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0, i;
	char a[1024], b[1024];
	size_t len = 0;
	FILE *m;

	*text = NULL;
	if (!dj || options_defaults(dj)) {
		free(dj);
		return -ENOMEM;
	}
	m = open_memstream(text, &len);
	for (o = options_next(j, NULL); m && o; o = options_next(j, o)) {
		if (!strcmp(o->name, "check"))
			continue;
		options_format(j, o, a, sizeof(a));
		if (job_row(o)) {
			options_format(dj, o, b, sizeof(b));
			if (!strcmp(a, b))
				continue;
		} else if (!options_engine_is_set(j, j->eng.engine,
						  j->eng.eopts, o)) {
			continue;
		}
		fprintf(m, "%s=%s\n", o->name, a);
	}
	job_free(dj);
	free(dj);
	if (!m || fclose(m) || !*text) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	if (!EVP_Digest(*text, len, md, &mdlen, EVP_sha256(), NULL)) {
		free(*text);
		*text = NULL;
		return -EIO;
	}
	for (i = 0; i < mdlen && i < 32; i++)
		snprintf(hash + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/* The device under the unit's first target, or NULL. */
static const struct sysinfo_target *unit_target(const struct run_result *r,
						const struct result_unit *u,
						const char **path)
{
	const struct run_targets *rt = result_targets(r, u);

	*path = NULL;
	if (!rt || !rt->n || !rt->t)
		return NULL;
	*path = rt->t[0].path;
	return &rt->t[0].info;
}

static const char *unit_model(const struct run_result *r,
			      const struct result_unit *u)
{
	const char *p;
	const struct sysinfo_target *t = unit_target(r, u, &p);

	return t && t->has_device ? t->dev.model : "";
}

/* ---- recording ---- */

static const char *const hkinds[] = { "slat", "clat", "lat" };
static const char *const hstats[] = {
	"min", "max", "mean", "stddev", "p1", "p5", "p10", "p25", "p50",
	"p75", "p90", "p95", "p99", "p99.5", "p99.9", "p99.99",
};
static const char *const dfields[] = {
	"iops", "bw", "io_bytes", "ios", "errors", "short_ios",
};
static const char *const ufields[] = {
	"errors", "cpu.us_per_io", "cpu.pct", "runtime", "verify.mismatches",
};

#define NFIGS_DIR (sizeof(dfields) / sizeof(dfields[0]) + \
		   3 * sizeof(hstats) / sizeof(hstats[0]))

/* The names of the figures recorded for a unit doing dirs (1 << DDIR_*);
 * *n of them in names (room for HISTDB_FIGS_MAX). */
unsigned histdb_fig_names(unsigned dirs, char (*names)[METRIC_NAME_MAX])
{
	unsigned n = 0, d, k, s;

	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		if (!(dirs & (1u << d)))
			continue;
		for (k = 0; k < sizeof(dfields) / sizeof(dfields[0]); k++)
			snprintf(names[n++], METRIC_NAME_MAX, "%s.%s",
				 ddir_str(d), dfields[k]);
		for (k = 0; k < 3; k++)
			for (s = 0; s < sizeof(hstats) / sizeof(hstats[0]);
			     s++)
				snprintf(names[n++], METRIC_NAME_MAX,
					 "%s.%s.%s", ddir_str(d), hkinds[k],
					 hstats[s]);
	}
	for (k = 0; k < sizeof(ufields) / sizeof(ufields[0]); k++)
		snprintf(names[n++], METRIC_NAME_MAX, "%s", ufields[k]);
	return n;
}

struct rec {
	sqlite3 *db;
	sqlite3_stmt *unit, *fig, *hist;
	const struct run_result *r;
	const struct metric *extra;
	size_t nextra;
	char names[HISTDB_FIGS_MAX][METRIC_NAME_MAX];
};

static int put_fig(struct rec *c, long long uid, const struct metric *m,
		   const struct job_stats *s, const struct result_row *row)
{
	sqlite3_reset(c->fig);
	sqlite3_bind_int64(c->fig, 1, uid);
	sqlite3_bind_text(c->fig, 2, m->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(c->fig, 3, result_metric(m, s, row));
	return sqlite3_step(c->fig) == SQLITE_DONE ? 0 : -EIO;
}

/* The figures of a unit that measured: the list's, then the checks'. */
static int put_figs(struct rec *c, long long uid, const struct result_unit *u)
{
	struct result_row row;
	struct metric m;
	char why[256];
	unsigned dirs = rw_dirs(u->job->io.rw) & 3u, n, i;
	size_t k;
	int r = 0;

	result_row(c->r, u, &row);
	n = histdb_fig_names(dirs, c->names);
	for (i = 0; !r && i < n; i++) {
		if (metric_parse(c->names[i], strlen(c->names[i]), &m, why,
				 sizeof(why)))
			continue;
		r = put_fig(c, uid, &m, &u->stats, &row);
	}
	for (k = 0; !r && k < c->nextra; k++) {
		for (i = 0; i < n && strcmp(c->names[i], c->extra[k].name);
		     i++)
			;
		if (i < n || (c->extra[k].dir >= 0 &&
			      !(dirs & (1u << c->extra[k].dir))))
			continue;
		/* one the list has, or asked twice: kept once (INSERT OR
		 * IGNORE) */
		r = put_fig(c, uid, &c->extra[k], &u->stats, &row);
	}
	return r;
}

/* A histogram's non-empty buckets as the JSON report lists them. */
static char *buckets_json(const struct hist *h)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	unsigned i;
	bool first = true;

	if (!m)
		return NULL;
	fputc('[', m);
	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		fprintf(m, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
			first ? "" : ",", hist_bucket_low(i),
			hist_bucket_high(i), h->b[i]);
		first = false;
	}
	fputc(']', m);
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static int put_hists(struct rec *c, long long uid, const struct result_unit *u)
{
	unsigned dirs = rw_dirs(u->job->io.rw), d, k;
	const struct hist *h;
	char *b;
	int r = 0;

	for (d = 0; !r && d < DDIR_NR; d++) {
		if (!(dirs & (1u << d)))
			continue;
		for (k = 0; !r && k < 3; k++) {
			h = k == 0 ? &u->stats.dir[d].slat : k == 1 ?
			    &u->stats.dir[d].clat : &u->stats.dir[d].lat;
			b = buckets_json(h);
			if (!b)
				return -ENOMEM;
			sqlite3_reset(c->hist);
			sqlite3_bind_int64(c->hist, 1, uid);
			sqlite3_bind_text(c->hist, 2, ddir_str(d), -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(c->hist, 3, hkinds[k], -1,
					  SQLITE_STATIC);
			sqlite3_bind_int64(c->hist, 4, (sqlite3_int64)h->count);
			sqlite3_bind_int64(c->hist, 5,
					   (sqlite3_int64)h->overflow);
			sqlite3_bind_int64(c->hist, 6, h->count ?
					   (sqlite3_int64)h->min : 0);
			sqlite3_bind_int64(c->hist, 7, h->count ?
					   (sqlite3_int64)h->max : 0);
			sqlite3_bind_double(c->hist, 8, h->count ?
					    hist_mean(h) : 0);
			sqlite3_bind_double(c->hist, 9, h->count ?
					    hist_stddev(h) : 0);
			sqlite3_bind_text(c->hist, 10, b, -1, free);
			r = sqlite3_step(c->hist) == SQLITE_DONE ? 0 : -EIO;
		}
	}
	return r;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s && s[0])
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int put_unit(struct rec *c, long long run, int idx,
		    const struct result_unit *u)
{
	const struct job *j = u->job;
	const struct sysinfo_target *t;
	const char *tpath;
	char hash[65] = "", *opts = NULL;
	long long uid;
	int r;

	if ((r = histdb_options(j, &opts, hash)))
		return r;
	t = unit_target(c->r, u, &tpath);
	sqlite3_reset(c->unit);
	sqlite3_clear_bindings(c->unit);
	sqlite3_bind_int64(c->unit, 1, run);
	sqlite3_bind_int(c->unit, 2, idx);
	sqlite3_bind_text(c->unit, 3, j->desc.name, -1, SQLITE_TRANSIENT);
	bind_text_or_null(c->unit, 4, j->plan.sweep_point);
	if (!j->report.group_reporting)
		sqlite3_bind_int(c->unit, 5, (int)j->plan.clone);
	sqlite3_bind_text(c->unit, 6, opts, -1, free);
	sqlite3_bind_text(c->unit, 7, hash, -1, SQLITE_TRANSIENT);
	bind_text_or_null(c->unit, 8, tpath);
	sqlite3_bind_text(c->unit, 10, "", -1, SQLITE_STATIC);
	if (t && t->has_device) {
		bind_text_or_null(c->unit, 9, t->dev.name);
		sqlite3_bind_text(c->unit, 10, t->dev.model, -1,
				  SQLITE_TRANSIENT);
		bind_text_or_null(c->unit, 11, t->dev.serial);
		bind_text_or_null(c->unit, 12, t->dev.firmware);
	}
	sqlite3_bind_int(c->unit, 13, u->stats.nclones > 0);
	sqlite3_bind_int(c->unit, 14, u->stats.nmeasured > 0);
	sqlite3_bind_int64(c->unit, 15, (sqlite3_int64)u->stats.runtime_ns);
	bind_text_or_null(c->unit, 16, u->stats.err ? u->stats.err_msg :
			  stats_errors(&u->stats) ? "I/O errors" : NULL);
	if (sqlite3_step(c->unit) != SQLITE_DONE)
		return -EIO;
	uid = sqlite3_last_insert_rowid(c->db);
	if (!u->stats.nclones || !u->stats.nmeasured)
		return 0;
	r = put_figs(c, uid, u);
	return r ? r : put_hists(c, uid, u);
}

static char *command_line(const struct run_result *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	int i;

	if (!m)
		return NULL;
	for (i = 0; i < r->argc; i++)
		fprintf(m, "%s%s", i ? " " : "", r->argv[i]);
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static int put_run(struct rec *c, int code, const char *json, long long *id)
{
	const struct run_result *r = c->r;
	sqlite3_stmt *st;
	struct timespec now;
	char iso[64], sig[32];
	char *cmd = command_line(r);
	int rc;

	if (!cmd)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &now);
	result_time_iso(r->start_time, iso, sizeof(iso));
	rc = sqlite3_prepare_v2(c->db, "INSERT INTO runs (started_ms, "
		"started, recorded_ms, host, kernel, cpu_model, ncpus, "
		"memory_bytes, iorig_version, command, wall_ns, signal, "
		"exit_code, result_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
		"?8, ?9, ?10, ?11, ?12, ?13, ?14)", -1, &st, NULL);
	if (rc) {
		free(cmd);
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, (sqlite3_int64)r->start_time_ms);
	sqlite3_bind_text(st, 2, iso, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)now.tv_sec * 1000 +
			   now.tv_nsec / 1000000);
	sqlite3_bind_text(st, 4, r->hostname, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, r->kernel, -1, SQLITE_TRANSIENT);
	bind_text_or_null(st, 6, r->cpu_model);
	sqlite3_bind_int(st, 7, (int)r->ncpus);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)r->memory_bytes);
	sqlite3_bind_text(st, 9, r->version ? r->version : "", -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 10, cmd, -1, free);
	sqlite3_bind_int64(st, 11, (sqlite3_int64)r->wall_ns);
	bind_text_or_null(st, 12, r->signo ?
			  result_signal_name(r->signo, sig, sizeof(sig)) :
			  NULL);
	sqlite3_bind_int(st, 13, code);
	sqlite3_bind_text(st, 14, json, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(c->db);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int rec_units(struct rec *c, long long run)
{
	struct result_set rs;
	int i, idx, r = result_collect(c->r, &rs);

	if (r)
		return r;
	for (i = 0, idx = 0; !r && i < rs.nunits; i++)
		if (!rs.units[i].hidden)
			r = put_unit(c, run, idx++, &rs.units[i]);
	result_set_free(&rs);
	return r;
}

long long history_record(struct history *h, const struct run_result *r,
			 int exit_code, const char *json,
			 const struct metric *extra,
			 size_t nextra, char *why, size_t whylen)
{
	struct rec *c = calloc(1, sizeof(*c));
	long long run = 0;
	int ret = -ENOMEM;

	if (!c)
		goto out;
	c->db = h->db;
	c->r = r;
	c->extra = extra;
	c->nextra = nextra;
	ret = -EIO;
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL))
		goto out;
	if (sqlite3_prepare_v2(h->db, "INSERT INTO units (run_id, idx, job, "
		"sweep_point, clone, options, options_hash, target, device, "
		"device_model, device_serial, device_firmware, ran, measured, "
		"runtime_ns, error) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
		"?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)", -1, &c->unit, NULL) ||
	    sqlite3_prepare_v2(h->db, "INSERT OR IGNORE INTO figures (unit_id, "
		"metric, value) VALUES (?1, ?2, ?3)", -1, &c->fig, NULL) ||
	    sqlite3_prepare_v2(h->db, "INSERT INTO histograms (unit_id, "
		"direction, kind, count, overflow, min_ns, max_ns, mean_ns, "
		"stddev_ns, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
		"?9, ?10)", -1, &c->hist, NULL))
		goto rollback;
	ret = put_run(c, exit_code, json, &run);
	if (!ret)
		ret = rec_units(c, run);
	if (!ret && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL))
		ret = -EIO;
rollback:
	if (ret)
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
out:
	if (ret)
		snprintf(why, whylen, "%s", ret == -EIO ?
			 sqlite3_errmsg(h->db) : strerror(-ret));
	if (c) {
		sqlite3_finalize(c->unit);
		sqlite3_finalize(c->fig);
		sqlite3_finalize(c->hist);
	}
	free(c);
	return ret ? ret : run;
}

/* ---- the history of a unit ---- */

/* The points of unit u's history for metric m, newest first. */
static int history_query(struct history *h, const struct run_result *r,
			 const struct result_unit *u, const struct metric *m,
			 unsigned last, struct history_point **out,
			 unsigned *n)
{
	struct history_point *a = NULL, *na;
	sqlite3_stmt *st;
	char hash[65] = "", *opts = NULL;
	size_t cap = 0;
	int ret, rc;

	*out = NULL;
	*n = 0;
	if (h->empty)
		return 0;
	if ((ret = histdb_options(u->job, &opts, hash)))
		return ret;
	free(opts);
	if (sqlite3_prepare_v2(h->db, "SELECT r.id, r.started_ms, f.value, "
		"r.wall_ns "
		"FROM figures f JOIN units u ON u.id = f.unit_id JOIN runs r "
		"ON r.id = u.run_id WHERE u.options_hash = ?1 AND "
		"u.device_model = ?2 AND f.metric = ?3 AND u.ran AND "
		"u.measured AND u.error IS NULL AND r.signal IS NULL ORDER BY "
		"r.started_ms DESC, r.id DESC LIMIT ?4", -1, &st, NULL))
		return -EIO;
	sqlite3_bind_text(st, 1, hash, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, unit_model(r, u), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, m->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, last ? (sqlite3_int64)last : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			na = realloc(a, cap * sizeof(*a));
			if (!na) {
				ret = -ENOMEM;
				break;
			}
			a = na;
		}
		a[*n].run = sqlite3_column_int64(st, 0);
		a[*n].started_ms = sqlite3_column_int64(st, 1);
		a[*n].wall_ns = sqlite3_column_int64(st, 3);
		a[(*n)++].value = sqlite3_column_double(st, 2);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	if (ret) {
		free(a);
		*n = 0;
		return ret;
	}
	*out = a;
	return 0;
}

int history_values(struct history *h, const struct run_result *r,
		   const struct result_unit *u, const struct metric *m,
		   unsigned last, double **v, unsigned *n)
{
	struct history_point *p;
	unsigned i;
	int ret = history_query(h, r, u, m, last, &p, n);

	*v = NULL;
	if (ret || !*n) {
		free(p);
		return ret;
	}
	*v = malloc(*n * sizeof(**v));
	if (!*v) {
		free(p);
		*n = 0;
		return -ENOMEM;
	}
	for (i = 0; i < *n; i++)
		(*v)[i] = p[i].value;
	free(p);
	return 0;
}

int history_series(struct history *h, const struct run_result *r,
		   const struct result_unit *u, const struct metric *m,
		   unsigned last, struct history_point **pts, unsigned *n)
{
	struct history_point t;
	unsigned i;
	int ret = history_query(h, r, u, m, last, pts, n);

	for (i = 0; !ret && i < *n / 2; i++) {
		t = (*pts)[i];
		(*pts)[i] = (*pts)[*n - 1 - i];
		(*pts)[*n - 1 - i] = t;
	}
	return ret;
}

sqlite3 *histdb_handle(struct history *h)
{
	return h->empty ? NULL : h->db;
}
