// SPDX-License-Identifier: MIT
/*
 * --output-format=junit: JUnit XML, the test report every CI system reads.
 * Each reported unit (a job, a clone, a sweep point) is a <testsuite>;
 * its first <testcase>, "ran", says whether the job itself went well (an
 * <error> for a fatal error, I/O errors, an interrupted run; a <failure>
 * for blocks that did not verify; <skipped> when it never started or
 * measured nothing), and each check (--check, check=) on it is a
 * <testcase> of its own: a <failure> whose message gives the value and
 * the threshold in the check's unit ("read.lat.p99 4.44 ms > 50.0 µs"),
 * <skipped> when n/a. A testcase's time is the job's runtime. The unit's
 * headline figures are its <properties>, named as checks name them and
 * in their units (bw in bytes/s, latencies in ns). Everything comes from
 * the result model, so a saved or merged result gives the same document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "esc.h"
#include "report.h"
#include "value.h"

/* What a failing check's message says: the comparison that holds. */
static const char *op_negated(int op)
{
	switch (op) {
	case CHECK_GE: return "<";
	case CHECK_LE: return ">";
	case CHECK_GT: return "<=";
	case CHECK_LT: return ">=";
	case CHECK_EQ: return "!=";
	default: return "==";
	}
}

/*
 * "read.lat.p99 4.44 ms > 50.0 µs": the figure, the comparison that
 * failed and the threshold, with as many figures as it takes for the two
 * to differ when they do.
 */
static void failure_message(const struct check_result *x, char *buf,
			    size_t len)
{
	const struct check_def *d = x->def;
	const char *fn = check_func_name(d->x.func);
	char v[64], t[64], b[64], base[96] = "";

	check_fmt_figures(x, v, t, sizeof(v));
	if (x->has_base) {
		metric_fmt(d->x.unit, x->base, 3, b, sizeof(b));
		snprintf(base, sizeof(base), " (%g x baseline %s)",
			 d->x.factor, b);
	}
	snprintf(buf, len, "%s%s%s%s %s %s %s%s", fn ? fn : "", fn ? "(" : "",
		 d->x.m.name, fn ? ")" : "", v, op_negated(d->x.op), t, base);
}

static void attr(FILE *f, const char *name, const char *val)
{
	fprintf(f, " %s=\"", name);
	esc_xml(f, val);
	fputc('"', f);
}

/* A testcase's opening tag, left open for what it holds. */
static void case_open(FILE *f, const char *label, const char *what,
		      double secs)
{
	fputs("    <testcase classname=\"iorig\" name=\"", f);
	esc_xml(f, label);
	fputs(": ", f);
	esc_xml(f, what);
	fprintf(f, "\" time=\"%.6f\"", secs);
}

/* <TAG message="MSG" type="TYPE"/> inside a testcase, then its end. */
static void case_outcome(FILE *f, const char *tag, const char *msg,
			 const char *type, const char *body)
{
	if (!tag) {
		fputs("/>\n", f);
		return;
	}
	fprintf(f, ">\n      <%s", tag);
	attr(f, "message", msg);
	if (type)
		attr(f, "type", type);
	if (body) {
		fputc('>', f);
		esc_xml(f, body);
		fprintf(f, "</%s>\n", tag);
	} else {
		fputs("/>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* How the job itself went: tag NULL (passed) or error/failure/skipped. */
struct job_outcome {
	const char *tag;
	const char *type;
	char msg[ERR_TEXT_MAX + 64];
};

static void job_outcome(const struct run_result *r,
			const struct result_unit *u, struct job_outcome *o)
{
	const struct job_stats *s = &u->stats;
	char sig[32];

	o->tag = NULL;
	o->type = NULL;
	o->msg[0] = '\0';
	if (s->err) {
		o->tag = "error";
		o->type = "error";
		result_error_text(s, o->msg, sizeof(o->msg));
	} else if (stats_errors(s)) {
		o->tag = "error";
		o->type = "io_errors";
		snprintf(o->msg, sizeof(o->msg), "%" PRIu64 " read, %" PRIu64
			 " write and %" PRIu64 " trim errors "
			 "(continue_on_error)", s->dir[DDIR_READ].errors,
			 s->dir[DDIR_WRITE].errors, s->dir[DDIR_TRIM].errors);
	} else if (s->interrupted || (r->signo && s->nclones)) {
		o->tag = "error";
		o->type = "interrupted";
		snprintf(o->msg, sizeof(o->msg), "interrupted by %s: the "
			 "figures cover the run until then",
			 r->signo ? result_signal_name(r->signo, sig,
						       sizeof(sig)) :
			 "a signal");
	} else if (s->verify.mismatches) {
		o->tag = "failure";
		o->type = "verify";
		snprintf(o->msg, sizeof(o->msg), "%" PRIu64 " of %" PRIu64
			 " blocks did not verify", s->verify.mismatches,
			 s->verify.blocks_checked);
	} else if (!s->nclones) {
		o->tag = "skipped";
		snprintf(o->msg, sizeof(o->msg), "never started");
	} else if (!s->nmeasured) {
		o->tag = "skipped";
		snprintf(o->msg, sizeof(o->msg), "not measured: stopped "
			 "during ramp_time");
	}
}

static void prop(FILE *f, const char *name, const char *val)
{
	fputs("      <property", f);
	attr(f, "name", name);
	attr(f, "value", val);
	fputs("/>\n", f);
}

/* The directions the unit did I/O in, as bits 1 << DDIR_*. */
static unsigned unit_dirs(const struct result_unit *u)
{
	unsigned d, dirs = 0;

	for (d = 0; d < DDIR_NR; d++)
		if (u->stats.dir[d].ios)
			dirs |= 1u << d;
	return dirs;
}

static void properties(FILE *f, const struct run_result *r,
		       const struct result_unit *u)
{
	const struct run_targets *rt = result_targets(r, u);
	const struct job *j = u->job;
	struct metric m[METRIC_HEADLINE_MAX];
	struct result_row row;
	char buf[64];
	unsigned i, n;

	fputs("    <properties>\n", f);
	prop(f, "job", j->desc.name);
	prop(f, "engine", j->eng.ioengine && j->eng.ioengine[0] ?
	     j->eng.ioengine : j->eng.engine ? j->eng.engine->name : "");
	if (r->hostname[0])
		prop(f, "host", r->hostname);
	for (i = 0; rt && i < rt->n; i++) {
		if (rt->t[i].path && i == 0)
			prop(f, "target", rt->t[i].path);
		if (rt->t[i].info.has_device &&
		    rt->t[i].info.dev.model[0]) {
			prop(f, "device_model", rt->t[i].info.dev.model);
			break;
		}
	}
	if (u->stats.nmeasured) {
		result_row(r, u, &row);
		snprintf(buf, sizeof(buf), "%" PRIu64, row.ios);
		prop(f, "ios", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, row.bytes);
		prop(f, "io_bytes", buf);
		snprintf(buf, sizeof(buf), "%" PRIu64, row.runtime_ns);
		prop(f, "runtime_ns", buf);
		n = metric_headlines(unit_dirs(u), m);
		for (i = 0; i < n; i++) {
			/* 12 digits, as the JSON report: the same
			 * text from a result saved and read back */
			snprintf(buf, sizeof(buf), "%.12g",
				 result_metric(&m[i], &u->stats, &row));
			prop(f, m[i].name, buf);
		}
	}
	fputs("    </properties>\n", f);
}

/* Tests, failures, errors and skipped of unit i, its "ran" case first. */
struct tally {
	unsigned tests, failures, errors, skipped;
};

static void tally_add(struct tally *t, const char *tag)
{
	t->tests++;
	if (!tag)
		return;
	if (!strcmp(tag, "error"))
		t->errors++;
	else if (!strcmp(tag, "failure"))
		t->failures++;
	else
		t->skipped++;
}

static const char *check_tag(const struct check_result *x)
{
	return x->status == CHECK_PASS ? NULL : x->status == CHECK_FAIL ?
	       "failure" : "skipped";
}

static void unit_tally(const struct run_result *r,
		       const struct result_unit *u, int i, struct tally *t)
{
	const struct check_report *cr = r->checks;
	struct job_outcome o;
	size_t k;

	memset(t, 0, sizeof(*t));
	job_outcome(r, u, &o);
	tally_add(t, o.tag);
	for (k = 0; cr && k < cr->nresults; k++)
		if (cr->results[k].unit == i)
			tally_add(t, check_tag(&cr->results[k]));
}

/*
 * Result k's case name: its expression, and its source when another
 * result of the unit has the same one (a merge's rank: check, once per
 * member: "read.ios>=512 (b.json:0)").
 */
static void check_case_name(const struct check_report *cr, size_t k,
			    char *buf, size_t len)
{
	const struct check_result *x = &cr->results[k];
	const char *e = x->def->text + x->def->x.body;
	char src[300];
	size_t i;

	snprintf(buf, len, "%s", e);
	for (i = 0; i < cr->nresults; i++) {
		const struct check_def *d = cr->results[i].def;

		if (i == k || cr->results[i].unit != x->unit ||
		    strcmp(d->text + d->x.body, e))
			continue;
		check_source(x->def, src, sizeof(src));
		snprintf(buf, len, "%s (%s)", e, src);
		return;
	}
}

static void write_suite(FILE *f, const struct run_result *r,
			const struct result_unit *u, int i)
{
	const struct check_report *cr = r->checks;
	double secs = (double)u->stats.runtime_ns / 1e9;
	char label[320], iso[64], msg[512], text[1024], name[640];
	struct job_outcome o;
	struct tally t;
	size_t k;

	check_unit_label(u->job, label, sizeof(label));
	unit_tally(r, u, i, &t);
	fputs("  <testsuite", f);
	attr(f, "name", label);
	fprintf(f, " tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		"skipped=\"%u\" time=\"%.6f\"", t.tests, t.failures, t.errors,
		t.skipped, secs);
	result_time_iso(r->start_time, iso, sizeof(iso));
	if (r->start_time && iso[0])
		attr(f, "timestamp", iso);
	if (r->hostname[0])
		attr(f, "hostname", r->hostname);
	fputs(">\n", f);
	properties(f, r, u);
	job_outcome(r, u, &o);
	case_open(f, label, "ran", secs);
	case_outcome(f, o.tag, o.msg, o.type, NULL);
	for (k = 0; cr && k < cr->nresults; k++) {
		const struct check_result *x = &cr->results[k];

		if (x->unit != i)
			continue;
		check_case_name(cr, k, name, sizeof(name));
		case_open(f, label, name, secs);
		check_result_text(x, text, sizeof(text));
		if (x->status == CHECK_FAIL) {
			failure_message(x, msg, sizeof(msg));
			case_outcome(f, "failure", msg, "check", text);
		} else if (x->status == CHECK_NA) {
			case_outcome(f, "skipped", x->reason, NULL, NULL);
		} else {
			case_outcome(f, NULL, NULL, NULL, NULL);
		}
	}
	fputs("  </testsuite>\n", f);
}

int report_junit(FILE *f, const struct run_result *r)
{
	struct tally all = { 0 }, t;
	struct result_set rs;
	int i, ret;

	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	for (i = 0; i < rs.nunits; i++) {
		if (rs.units[i].hidden)
			continue;
		unit_tally(r, &rs.units[i], i, &t);
		all.tests += t.tests;
		all.failures += t.failures;
		all.errors += t.errors;
		all.skipped += t.skipped;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"iorig\" tests=\"%u\" failures=\"%u\" "
		"errors=\"%u\" skipped=\"%u\" time=\"%.6f\">\n", all.tests,
		all.failures, all.errors, all.skipped,
		(double)r->wall_ns / 1e9);
	for (i = 0; i < rs.nunits; i++)
		if (!rs.units[i].hidden)
			write_suite(f, r, &rs.units[i], i);
	fputs("</testsuites>\n", f);
	if (fflush(f) || ferror(f))
		ret = -EIO;
	result_set_free(&rs);
	return ret;
}
