// SPDX-License-Identifier: MIT
/*
 * `iorig history list|show|compare FILE.db`: the runs a --history
 * database holds, one run's units and figures (or its JSON result as
 * recorded), two runs side by side; as text or JSON (--json) on
 * standard output. The file is opened read only, checked as --history
 * checks it (history_open).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmdargs.h"
#include "histdb.h"
#include "history.h"

struct hargs {
	const char *cmd, *path;
	bool json, result;
	const char *job;
	unsigned long last;
	long long run[2];
	int nrun;
	/* the operands after FILE.db (hargs_runs reads them) */
	const char *ops[3];
	int nops;
};

static const char history_usage[] =
	"usage: iorig history list [--json] [--job=NAME] [--last=N] "
	"FILE.db\n"
	"       iorig history show [--json|--result] FILE.db [RUN]\n"
	"       iorig history compare [--json] FILE.db [RUN_A [RUN_B]]\n"
	"  list: the runs recorded with --history=FILE.db, oldest first;\n"
	"  show: one run (default: the last) with its jobs' devices, "
	"options and figures\n"
	"        (--result: its JSON result as recorded, for iorig "
	"report);\n"
	"  compare: the figures of two runs side by side (default: "
	"the last two;\n"
	"        one RUN: it against the run before it).\n";

static int h_last(void *ctx, const char *v, char *why, size_t len)
{
	struct hargs *a = ctx;
	char *end;

	a->last = strtoul(v, &end, 10);
	if (end == v || *end || !a->last) {
		snprintf(why, len, "'%s' is not a count of runs (1 or more)",
			 v);
		return -EINVAL;
	}
	return 0;
}

/* FILE.db, then the runs: each checked once all are read (hargs_runs) */
static int h_operand(void *ctx, const char *v, char *why, size_t len)
{
	struct hargs *a = ctx;

	(void)why, (void)len;
	if (!a->path)
		a->path = v;
	else if (a->nops < 3)	/* a third is refused (hargs_runs) */
		a->ops[a->nops++] = v;
	return 0;
}

static const struct cmd_opt history_opts[] = {
	{ .name = "json", .off = offsetof(struct hargs, json) },
	{ .name = "result", .off = offsetof(struct hargs, result) },
	{ .name = "job", .value = "NAME", .off = offsetof(struct hargs, job) },
	{ .name = "last", .value = "N", .set = h_last },
	{ .name = NULL },
};

static const struct cmd_def history_cmd = {
	.prefix = "iorig: history",
	.usage = history_usage,
	.operands = "FILE.db [RUN...]",
	.opts = history_opts,
	.first = 2,		/* after the command word */
	.operand = h_operand,
};

/* The runs given after FILE.db: as many as the command takes (at most
 * two), each an id. 0, or 2 (said). */
static int hargs_runs(struct hargs *a)
{
	int max = !strcmp(a->cmd, "compare") ? 2 :
		  !strcmp(a->cmd, "show") ? 1 : 0;
	char *end = NULL;
	int i;

	for (i = 0; i < a->nops; i++) {
		if (i < max)
			a->run[i] = strtoll(a->ops[i], &end, 10);
		if (i >= max || end == a->ops[i] || *end || a->run[i] < 1) {
			fprintf(stderr, "iorig: history %s: '%s': expected "
				"%s\n", a->cmd, a->ops[i], max ?
				"a run's id (iorig history list shows them)" :
				"no more arguments");
			return 2;
		}
		a->nrun = i + 1;
	}
	return 0;
}

/* 0 to go on, else the exit code (said). */
static int hargs_parse(int argc, char **argv, struct hargs *a)
{
	int code;

	memset(a, 0, sizeof(*a));
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(history_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : fflush(stdout) || ferror(stdout) ? 1 : -1;
	}
	a->cmd = argv[1];
	if (strcmp(a->cmd, "list") && strcmp(a->cmd, "show") &&
	    strcmp(a->cmd, "compare"))
		return cmd_usage_error(&history_cmd, "'%s' is not a command; "
				       "expected list, show or compare",
				       a->cmd);
	if (cmd_args(&history_cmd, argc, argv, a, &code))
		return code ? code : -1;
	if (!a->path) {
		fprintf(stderr, "iorig: history %s: give the database file\n%s",
			a->cmd, history_usage);
		return 2;
	}
	if (hargs_runs(a))
		return 2;
	if ((a->json || a->job || a->last) && a->result) {
		fprintf(stderr, "iorig: history show: --result prints the "
			"recorded JSON result alone\n");
		return 2;
	}
	return 0;
}

/* ---- list ---- */

static json_t *jtext(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? json_string(s) : json_null();
}

static const char *ctext(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

static const char list_sql[] =
	"SELECT r.id, r.started, r.started_ms, r.host, r.kernel, "
	"r.iorig_version, r.signal, r.exit_code, r.wall_ns, "
	"(SELECT group_concat(job, ',') FROM (SELECT DISTINCT job FROM units "
	" WHERE run_id = r.id ORDER BY idx)), "
	"(SELECT group_concat(m, ',') FROM (SELECT DISTINCT "
	" CASE device_model WHEN '' THEN '-' ELSE device_model END AS m "
	" FROM units WHERE run_id = r.id)) "
	"FROM runs r WHERE (?1 IS NULL OR EXISTS (SELECT 1 FROM units u "
	" WHERE u.run_id = r.id AND u.job = ?1)) "
	"AND r.id IN (SELECT id FROM runs r2 WHERE (?1 IS NULL OR EXISTS "
	" (SELECT 1 FROM units u WHERE u.run_id = r2.id AND u.job = ?1)) "
	" ORDER BY started_ms DESC, id DESC LIMIT ?2) "
	"ORDER BY r.started_ms, r.id";

static int cmd_list(sqlite3 *db, const struct hargs *a, json_t *root)
{
	sqlite3_stmt *st;
	json_t *runs = json_array(), *o;
	int rc;

	if (sqlite3_prepare_v2(db, list_sql, -1, &st, NULL))
		return -EIO;
	if (a->job)
		sqlite3_bind_text(st, 1, a->job, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, a->last ? (sqlite3_int64)a->last : -1);
	if (!a->json)
		printf("%5s  %-20s  %-16s  %-8s  %5s  %-10s  %s\n", "run",
		       "started (UTC)", "host", "iorig", "exit", "device",
		       "jobs");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!a->json) {
			printf("%5lld  %-20s  %-16s  %-8s  %5s  %-10s  %s\n",
			       (long long)sqlite3_column_int64(st, 0),
			       ctext(st, 1), ctext(st, 3), ctext(st, 5),
			       sqlite3_column_type(st, 6) == SQLITE_NULL ?
			       ctext(st, 7) : ctext(st, 6), ctext(st, 10),
			       ctext(st, 9));
			continue;
		}
		o = json_object();
		json_object_set_new(o, "id", json_integer(
				    sqlite3_column_int64(st, 0)));
		json_object_set_new(o, "started", jtext(st, 1));
		json_object_set_new(o, "started_ms", json_integer(
				    sqlite3_column_int64(st, 2)));
		json_object_set_new(o, "host", jtext(st, 3));
		json_object_set_new(o, "kernel", jtext(st, 4));
		json_object_set_new(o, "iorig_version", jtext(st, 5));
		json_object_set_new(o, "signal", jtext(st, 6));
		json_object_set_new(o, "exit_code", json_integer(
				    sqlite3_column_int(st, 7)));
		json_object_set_new(o, "wall_ns", json_integer(
				    sqlite3_column_int64(st, 8)));
		json_object_set_new(o, "jobs", jtext(st, 9));
		json_array_append_new(runs, o);
	}
	sqlite3_finalize(st);
	json_object_set_new(root, "runs", runs);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* ---- show ---- */

/* The last run's id (before: the one before it), or 0. */
static long long run_before(sqlite3 *db, long long before)
{
	sqlite3_stmt *st;
	long long id = 0;

	if (sqlite3_prepare_v2(db, "SELECT id FROM runs WHERE ?1 = 0 OR "
			       "(started_ms, id) < (SELECT started_ms, id "
			       "FROM runs WHERE id = ?1) ORDER BY started_ms "
			       "DESC, id DESC LIMIT 1", -1, &st, NULL))
		return 0;
	sqlite3_bind_int64(st, 1, before);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* "12.3k" in the metric's unit; the raw value for an unknown name. */
static void fig_text(const char *name, double v, char *buf, size_t len)
{
	struct metric m;
	char why[128];

	if (metric_parse(name, strlen(name), &m, why, sizeof(why)))
		snprintf(buf, len, "%g", v);
	else
		metric_format(metric_unit(&m), v, buf, len);
}

/* The headline figures of the text reports: which names. */
static bool headline(const char *name)
{
	static const char *const sfx[] = {
		".iops", ".bw", ".lat.mean", ".lat.p99",
	};
	size_t i, n = strlen(name), k;

	if (!strcmp(name, "cpu.us_per_io"))
		return true;
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		k = strlen(sfx[i]);
		if (n > k && !strcmp(name + n - k, sfx[i]) &&
		    (!strncmp(name, "read.", 5) || !strncmp(name, "write.", 6)))
			return true;
	}
	return false;
}

static json_t *unit_figs(sqlite3 *db, long long uid, bool text)
{
	sqlite3_stmt *st;
	json_t *o = json_object();
	char v[48];

	if (sqlite3_prepare_v2(db, "SELECT metric, value FROM figures WHERE "
			       "unit_id = ?1 ORDER BY rowid", -1, &st, NULL))
		return o;
	sqlite3_bind_int64(st, 1, uid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *n = ctext(st, 0);
		double x = sqlite3_column_double(st, 1);

		if (text && headline(n)) {
			fig_text(n, x, v, sizeof(v));
			printf("    %-24s %s\n", n, v);
		}
		json_object_set_new(o, n, json_real(x));
	}
	sqlite3_finalize(st);
	return o;
}

static json_t *unit_hists(sqlite3 *db, long long uid)
{
	sqlite3_stmt *st;
	json_t *a = json_array(), *o, *b;

	if (sqlite3_prepare_v2(db, "SELECT direction, kind, count, overflow, "
			       "min_ns, max_ns, mean_ns, stddev_ns, buckets "
			       "FROM histograms WHERE unit_id = ?1", -1, &st,
			       NULL))
		return a;
	sqlite3_bind_int64(st, 1, uid);
	while (sqlite3_step(st) == SQLITE_ROW) {
		o = json_object();
		json_object_set_new(o, "direction", jtext(st, 0));
		json_object_set_new(o, "kind", jtext(st, 1));
		json_object_set_new(o, "count",
				    json_integer(sqlite3_column_int64(st, 2)));
		json_object_set_new(o, "overflow",
				    json_integer(sqlite3_column_int64(st, 3)));
		json_object_set_new(o, "min_ns",
				    json_integer(sqlite3_column_int64(st, 4)));
		json_object_set_new(o, "max_ns",
				    json_integer(sqlite3_column_int64(st, 5)));
		json_object_set_new(o, "mean_ns",
				    json_real(sqlite3_column_double(st, 6)));
		json_object_set_new(o, "stddev_ns",
				    json_real(sqlite3_column_double(st, 7)));
		b = json_loads(ctext(st, 8), 0, NULL);
		json_object_set_new(o, "buckets", b ? b : json_array());
		json_array_append_new(a, o);
	}
	sqlite3_finalize(st);
	return a;
}

static const char unit_cols[] =
	"SELECT id, idx, job, sweep_point, clone, options, options_hash, "
	"target, device, device_model, device_serial, device_firmware, ran, "
	"measured, runtime_ns, error FROM units WHERE run_id = ?1 "
	"ORDER BY idx";

static const char *const unit_keys[] = {
	NULL, "index", "job", "sweep_point", "clone", "options",
	"options_hash", "target", "device", "device_model", "device_serial",
	"device_firmware", "ran", "measured", "runtime_ns", "error",
};

static json_t *col_json(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL: return json_null();
	case SQLITE_INTEGER: return json_integer(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT: return json_real(sqlite3_column_double(st, i));
	default: return jtext(st, i);
	}
}

static void print_options(const char *s)
{
	const char *e;

	for (; *s; s = *e ? e + 1 : e) {
		e = strchr(s, '\n');
		e = e ? e : s + strlen(s);
		printf("    %.*s\n", (int)(e - s), s);
	}
}

static int show_units(sqlite3 *db, long long run, const struct hargs *a,
		      json_t *runo)
{
	sqlite3_stmt *st;
	json_t *units = json_array(), *o;
	size_t k;
	int rc;

	if (sqlite3_prepare_v2(db, unit_cols, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long uid = sqlite3_column_int64(st, 0);

		o = json_object();
		for (k = 1; k < sizeof(unit_keys) / sizeof(unit_keys[0]); k++)
			json_object_set_new(o, unit_keys[k], col_json(st,
							(int)k));
		json_object_set(o, "ran", json_boolean(
				sqlite3_column_int(st, 12)));
		json_object_set(o, "measured", json_boolean(
				sqlite3_column_int(st, 13)));
		if (!a->json) {
			printf("\njob %s%s%s%s", ctext(st, 2),
			       sqlite3_column_type(st, 3) == SQLITE_NULL ? "" :
			       "[", ctext(st, 3),
			       sqlite3_column_type(st, 3) == SQLITE_NULL ? "" :
			       "]");
			if (sqlite3_column_type(st, 4) != SQLITE_NULL)
				printf(" clone %d", sqlite3_column_int(st, 4));
			printf("%s%s\n", sqlite3_column_type(st, 15) ==
			       SQLITE_NULL ? "" : ": ", ctext(st, 15));
			printf("  target %s, device %s, model %s, serial %s, "
			       "firmware %s\n  options (sha256 %.16s...):\n",
			       ctext(st, 7)[0] ? ctext(st, 7) : "-",
			       ctext(st, 8)[0] ? ctext(st, 8) : "-",
			       ctext(st, 9)[0] ? ctext(st, 9) : "-",
			       ctext(st, 10)[0] ? ctext(st, 10) : "-",
			       ctext(st, 11)[0] ? ctext(st, 11) : "-",
			       ctext(st, 6));
			print_options(ctext(st, 5));
			printf("  figures%s\n", sqlite3_column_int(st, 13) ?
			       " (all of them: --json)" : ": none measured");
		}
		json_object_set_new(o, "figures", unit_figs(db, uid, !a->json));
		json_object_set_new(o, "histograms", unit_hists(db, uid));
		json_array_append_new(units, o);
	}
	sqlite3_finalize(st);
	json_object_set_new(runo, "units", units);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int cmd_show(sqlite3 *db, const struct hargs *a, json_t *root)
{
	sqlite3_stmt *st;
	long long run = a->nrun ? a->run[0] : run_before(db, 0);
	json_t *o;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT id, started, started_ms, host, "
			       "kernel, cpu_model, ncpus, memory_bytes, "
			       "iorig_version, command, wall_ns, signal, "
			       "exit_code, result_json FROM runs WHERE id = "
			       "?1", -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc == SQLITE_DONE ? -ENOENT : -EIO;
	}
	if (a->result) {
		fputs(ctext(st, 13), stdout);
		sqlite3_finalize(st);
		return 0;
	}
	if (!a->json)
		printf("run %lld, started %s on %s (kernel %s, %d CPUs), "
		       "iorig %s, exit %d%s%s\n  %s\n",
		       (long long)sqlite3_column_int64(st, 0), ctext(st, 1),
		       ctext(st, 3), ctext(st, 4), sqlite3_column_int(st, 6),
		       ctext(st, 8), sqlite3_column_int(st, 12),
		       sqlite3_column_type(st, 11) == SQLITE_NULL ? "" :
		       ", stopped by ", ctext(st, 11), ctext(st, 9));
	o = json_object();
	json_object_set_new(o, "id", col_json(st, 0));
	json_object_set_new(o, "started", col_json(st, 1));
	json_object_set_new(o, "started_ms", col_json(st, 2));
	json_object_set_new(o, "host", col_json(st, 3));
	json_object_set_new(o, "kernel", col_json(st, 4));
	json_object_set_new(o, "cpu_model", col_json(st, 5));
	json_object_set_new(o, "ncpus", col_json(st, 6));
	json_object_set_new(o, "memory_bytes", col_json(st, 7));
	json_object_set_new(o, "iorig_version", col_json(st, 8));
	json_object_set_new(o, "command", col_json(st, 9));
	json_object_set_new(o, "wall_ns", col_json(st, 10));
	json_object_set_new(o, "signal", col_json(st, 11));
	json_object_set_new(o, "exit_code", col_json(st, 12));
	sqlite3_finalize(st);
	json_object_set_new(root, "run", o);
	return show_units(db, run, a, o);
}

/* ---- compare ---- */

static const char cmp_sql[] =
	"SELECT ua.job, ua.sweep_point, ua.clone, fa.metric, fa.value, "
	"fb.value, ua.options_hash = ub.options_hash, "
	"ua.device_model = ub.device_model FROM units ua "
	"JOIN units ub ON ub.run_id = ?2 AND ub.job = ua.job AND "
	" ub.sweep_point IS ua.sweep_point AND ub.clone IS ua.clone "
	"JOIN figures fa ON fa.unit_id = ua.id "
	"JOIN figures fb ON fb.unit_id = ub.id AND fb.metric = fa.metric "
	"WHERE ua.run_id = ?1 ORDER BY ua.idx, fa.rowid";

static int cmd_compare(sqlite3 *db, const struct hargs *a, json_t *root)
{
	sqlite3_stmt *st;
	long long ra, rb;
	json_t *units = json_array(), *u = NULL, *figs = NULL, *f;
	char key[512], prev[512] = "", va[48], vb[48], ch[48];
	int rc;

	rb = a->nrun == 2 ? a->run[1] : a->nrun ? a->run[0] :
	     run_before(db, 0);
	ra = a->nrun == 2 ? a->run[0] : run_before(db, rb);
	if (!ra || !rb)
		return -ENOENT;
	if (sqlite3_prepare_v2(db, cmp_sql, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, ra);
	sqlite3_bind_int64(st, 2, rb);
	json_object_set_new(root, "run_a", json_integer(ra));
	json_object_set_new(root, "run_b", json_integer(rb));
	if (!a->json)
		printf("run %lld (a) against run %lld (b)\n", ra, rb);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = ctext(st, 3);
		double x = sqlite3_column_double(st, 4);
		double y = sqlite3_column_double(st, 5);
		bool has = x != 0;

		snprintf(key, sizeof(key), "%s|%s|%s", ctext(st, 0),
			 ctext(st, 1), ctext(st, 2));
		if (strcmp(key, prev)) {
			snprintf(prev, sizeof(prev), "%s", key);
			u = json_object();
			figs = json_object();
			json_object_set_new(u, "job", jtext(st, 0));
			json_object_set_new(u, "sweep_point", jtext(st, 1));
			json_object_set_new(u, "clone", col_json(st, 2));
			json_object_set_new(u, "same_options", json_boolean(
					    sqlite3_column_int(st, 6)));
			json_object_set_new(u, "same_device_model",
					    json_boolean(
					    sqlite3_column_int(st, 7)));
			json_object_set_new(u, "figures", figs);
			json_array_append_new(units, u);
			if (!a->json)
				printf("\njob %s%s%s%s%s%s\n  %-24s %12s %12s "
				       "%9s\n", ctext(st, 0),
				       ctext(st, 1)[0] ? "[" : "",
				       ctext(st, 1), ctext(st, 1)[0] ? "]" :
				       "", sqlite3_column_int(st, 6) ? "" :
				       "  (options differ)",
				       sqlite3_column_int(st, 7) ? "" :
				       "  (device models differ)", "", "a",
				       "b", "change");
		}
		f = json_object();
		json_object_set_new(f, "a", json_real(x));
		json_object_set_new(f, "b", json_real(y));
		json_object_set_new(f, "change_pct", has ?
				    json_real((y - x) / fabs(x) * 100) :
				    json_null());
		json_object_set_new(figs, n, f);
		if (a->json || !headline(n))
			continue;
		fig_text(n, x, va, sizeof(va));
		fig_text(n, y, vb, sizeof(vb));
		if (has)
			snprintf(ch, sizeof(ch), "%+.1f%%",
				 (y - x) / fabs(x) * 100);
		else
			snprintf(ch, sizeof(ch), "-");
		printf("  %-24s %12s %12s %9s\n", n, va, vb, ch);
	}
	sqlite3_finalize(st);
	json_object_set_new(root, "units", units);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int history_main(int argc, char **argv)
{
	struct history *h = NULL;
	struct hargs a;
	struct err_rec e;
	json_t *root = NULL;
	char text[ERR_TEXT_MAX + 64];
	sqlite3 *db;
	int ret;

	ret = hargs_parse(argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;	/* -1: --help */
	if (history_open(&h, a.path, "history", true, NULL, &e)) {
		err_format(&e, text, sizeof(text));
		fprintf(stderr, "iorig: history: %s\n", text);
		return 2;
	}
	db = histdb_handle(h);
	root = json_object();
	json_object_set_new(root, "history", json_string(a.path));
	json_object_set_new(root, "schema_version",
			    json_integer(HISTORY_SCHEMA_VERSION));
	if (!db)
		ret = !strcmp(a.cmd, "list") ? 0 : -ENOENT;
	else if (!strcmp(a.cmd, "list"))
		ret = cmd_list(db, &a, root);
	else if (!strcmp(a.cmd, "show"))
		ret = cmd_show(db, &a, root);
	else
		ret = cmd_compare(db, &a, root);
	if (!db && !ret)
		json_object_set_new(root, "runs", json_array());
	if (ret == -ENOENT) {
		fprintf(stderr, "iorig: history %s: %s: %s\n", a.cmd, a.path,
			a.nrun ? "no such run (iorig history list shows "
			"them)" : !strcmp(a.cmd, "compare") ?
			"fewer than two runs recorded" : "no run recorded");
		ret = 2;
	} else if (ret) {
		fprintf(stderr, "iorig: history %s: %s: %s\n", a.cmd, a.path,
			db ? sqlite3_errmsg(db) : strerror(-ret));
		ret = 1;
	} else if (a.json) {
		json_dumpf(root, stdout, JSON_INDENT(2) |
			   JSON_REAL_PRECISION(17));
		fputc('\n', stdout);
	}
	json_decref(root);
	history_close(h);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "iorig: history: writing to stdout: %s\n",
			strerror(errno));
		ret = 1;
	}
	return ret;
}
