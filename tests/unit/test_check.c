// SPDX-License-Identifier: MIT
/*
 * check.c: the expression grammar (tables of good and bad expressions),
 * matching checks to the units of a plan with the usage errors found
 * there, and the evaluation of checks and repeats on synthetic results.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "unit.h"

#include "check.h"
#include "jobfile.h"
#include "plan.h"
#include "report.h"
#include "run.h"

static bool near(double a, double b)
{
	return near_tol(a, b, 1e-9);
}

/* ---- check_parse ---- */

struct good_case {
	const char *in;
	const char *scope;
	int func;
	const char *metric;
	int op;
	int unit;
	bool baseline;
	double value;		/* threshold, or factor with baseline */
	const char *body;	/* the text after the scope */
};

static const struct good_case good[] = {
	{ "read.iops>=50000", "", CHECK_F_NONE, "read.iops", CHECK_GE,
	  MU_RATE, false, 50000, "read.iops>=50000" },
	{ "read.iops>=50k", "", CHECK_F_NONE, "read.iops", CHECK_GE,
	  MU_RATE, false, 50000, NULL },
	{ "read.clat.p99<=2ms", "", CHECK_F_NONE, "read.clat.p99", CHECK_LE,
	  MU_NS, false, 2e6, NULL },
	{ "write.bw>=1.5GiB/s", "", CHECK_F_NONE, "write.bw", CHECK_GE,
	  MU_BW, false, 1.5 * 1073741824, NULL },
	{ "cpu.us_per_io<=3", "", CHECK_F_NONE, "cpu.us_per_io", CHECK_LE,
	  MU_US, false, 3, NULL },
	{ "errors==0", "", CHECK_F_NONE, "errors", CHECK_EQ, MU_COUNT, false,
	  0, NULL },
	{ "verify.mismatches!=1", "", CHECK_F_NONE, "verify.mismatches",
	  CHECK_NE, MU_COUNT, false, 1, NULL },
	{ "runtime>10s", "", CHECK_F_NONE, "runtime", CHECK_GT, MU_NS, false,
	  1e10, NULL },
	{ "cpu.pct<150%", "", CHECK_F_NONE, "cpu.pct", CHECK_LT, MU_PCT,
	  false, 150, NULL },
	{ "seqread:read.iops>=1k", "seqread", CHECK_F_NONE, "read.iops",
	  CHECK_GE, MU_RATE, false, 1000, "read.iops>=1k" },
	{ " seq read : read.iops >= 1k ", "seq read", CHECK_F_NONE,
	  "read.iops", CHECK_GE, MU_RATE, false, 1000, "read.iops >= 1k " },
	{ "a:b:read.ios>=1", "a:b", CHECK_F_NONE, "read.ios", CHECK_GE,
	  MU_COUNT, false, 1, "read.ios>=1" },
	{ "cv(read.iops)<=5%", "", CHECK_F_CV, "read.iops", CHECK_LE, MU_PCT,
	  false, 5, NULL },
	{ "cv( read.iops )<=5", "", CHECK_F_CV, "read.iops", CHECK_LE,
	  MU_PCT, false, 5, NULL },
	{ "min(read.iops)>=40k", "", CHECK_F_MIN, "read.iops", CHECK_GE,
	  MU_RATE, false, 40000, NULL },
	{ "max(write.clat.p99.9)<1ms", "", CHECK_F_MAX, "write.clat.p99.9",
	  CHECK_LT, MU_NS, false, 1e6, NULL },
	{ "mean(read.bw)>=100m", "", CHECK_F_MEAN, "read.bw", CHECK_GE,
	  MU_BW, false, 104857600, NULL },
	{ "stddev(read.lat.mean)<=10us", "", CHECK_F_STDDEV, "read.lat.mean",
	  CHECK_LE, MU_NS, false, 10000, NULL },
	{ "read.iops>=0.95*baseline", "", CHECK_F_NONE, "read.iops",
	  CHECK_GE, MU_RATE, true, 0.95, NULL },
	{ "read.clat.p99<=1.1 * baseline", "", CHECK_F_NONE, "read.clat.p99",
	  CHECK_LE, MU_NS, true, 1.1, NULL },
	{ "read.clat.p99<=baseline*1.1", "", CHECK_F_NONE, "read.clat.p99",
	  CHECK_LE, MU_NS, true, 1.1, NULL },
	{ "mean(read.iops)>=baseline", "", CHECK_F_MEAN, "read.iops",
	  CHECK_GE, MU_RATE, true, 1, NULL },
};

struct bad_case {
	const char *in;
	const char *why;	/* a part of the message */
};

static const struct bad_case bad[] = {
	{ "", "empty check" },
	{ "   ", "empty check" },
	{ "read.iops", "no comparison" },
	{ "read.iops 50k", "no comparison" },
	{ "read.iops=50k", "'=' is not a comparison" },
	{ "read.iops=>50k", "'=' is not a comparison" },
	{ "read.iops!50k", "'!' is not a comparison" },
	{ "read.iops>=", "no value after '>='" },
	{ ">=5", "no metric" },
	{ "read.iop>=5", "unknown metric 'read.iop'" },
	{ "read.clat.p0<=1ms", "unknown metric" },
	{ "read.clat.p101<=1ms", "unknown metric" },
	{ "foo(read.iops)>=1", "unknown function 'foo'" },
	{ "cv(read.iops>=1", "expected FUNCTION(METRIC)" },
	{ "cv(cv(read.iops))>=1", "expected FUNCTION(METRIC)" },
	{ "cv()>=1", "no metric" },
	{ ":read.iops>=1", "expected JOB:" },
	{ "read.iops>=1x", "the value for read.iops" },
	{ "read.iops>=1.5GiB/s", "has unknown unit" },
	{ "read.bw>=fast", "the value for read.bw" },
	{ "read.clat.p99<=2 parsecs", "the value for read.clat.p99" },
	{ "cv(read.iops)<=5x", "the value for cv(read.iops)" },
	{ "read.io_bytes>=1.3", "not a whole number" },
	{ "errors==-1", "negative" },
	{ "read.iops>=0.95*baselines", "expected baseline, F*baseline" },
	{ "read.iops>=baseline+1", "expected baseline, F*baseline" },
	{ "read.iops>=x*baseline", "the factor" },
	{ "read.iops>=-1*baseline", "the factor" },
	{ "cv(read.iops)<=baseline", "not cv()" },
	{ "min(read.iops)>=0.9*baseline", "not min()" },
	{ "read.iops>=history", "expected history.STAT" },
	{ "read.iops>=history.p", "expected history.STAT" },
	{ "read.iops>=history.p101", "expected history.STAT" },
	{ "read.iops>=history.avg", "expected history.STAT" },
	{ "read.iops>=history[0].mean", "expected history.STAT" },
	{ "read.iops>=history[x].mean", "expected history.STAT" },
	{ "read.iops>=history.mean+history.p5+history.p10",
	  "expected history.STAT" },
	{ "read.iops>=history.mean+1x", "expected history.STAT" },
	{ "read.iops>=x*history.mean", "expected history.STAT" },
	{ "cv(read.iops)<=history.mean", "not cv()" },
};

/* The history's terms: their stats, factors, windows, and the plain
 * values added; check_hstat on a known sample. */
struct hist_case {
	const char *in;
	unsigned nhist;
	int stat[2];
	double pct[2], factor[2];
	unsigned last[2];
	double plain;		/* x.threshold: the plain values' sum */
};

static const struct hist_case hist_good[] = {
	{ "read.iops>=history.p10", 1, { CHECK_H_PCT }, { 10 }, { 1 }, { 0 },
	  0 },
	{ "read.lat.p99 <= history.mean + 3*history.stddev", 2,
	  { CHECK_H_MEAN, CHECK_H_STDDEV }, { 0, 0 }, { 1, 3 }, { 0, 0 }, 0 },
	{ "read.lat.p99<=history[20].mean+3*history[20].stddev", 2,
	  { CHECK_H_MEAN, CHECK_H_STDDEV }, { 0, 0 }, { 1, 3 }, { 20, 20 },
	  0 },
	{ "write.bw>=history.median*0.9", 1, { CHECK_H_MEDIAN }, { 0 },
	  { 0.9 }, { 0 }, 0 },
	{ "read.iops>=history[5].min-history[5].stddev+1k", 2,
	  { CHECK_H_MIN, CHECK_H_STDDEV }, { 0, 0 }, { 1, -1 }, { 5, 5 },
	  1000 },
	{ "read.clat.p99<=history.max+50us", 1, { CHECK_H_MAX }, { 0 },
	  { 1 }, { 0 }, 50000 },
	{ "mean(read.iops)>=history.p99.5", 1, { CHECK_H_PCT }, { 99.5 },
	  { 1 }, { 0 }, 0 },
};

static void test_parse_history(void **state)
{
	struct check_expr x;
	struct check_hterm t = { 0 };
	double v[] = { 5, 1, 4, 2, 3 }, out;
	char why[1024];
	size_t i;
	unsigned k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hist_good); i++) {
		const struct hist_case *c = &hist_good[i];

		why[0] = '\0';
		CHECK(!check_parse(c->in, 1024, &x, why, sizeof(why)),
		      "'%s': %s", c->in, why);
		CHECK(x.nhist == c->nhist, "'%s': %u terms", c->in, x.nhist);
		CHECK(near(x.threshold, c->plain), "'%s': plain %g", c->in,
		      x.threshold);
		for (k = 0; k < c->nhist; k++) {
			CHECK(x.hist[k].stat == c->stat[k], "'%s' %u: stat",
			      c->in, k);
			CHECK(near(x.hist[k].pct, c->pct[k]), "'%s' %u: pct",
			      c->in, k);
			CHECK(near(x.hist[k].factor, c->factor[k]),
			      "'%s' %u: factor %g", c->in, k,
			      x.hist[k].factor);
			CHECK(x.hist[k].last == c->last[k], "'%s' %u: last",
			      c->in, k);
		}
	}
	/* 1..5: numpy's linear percentiles, the sample's stddev */
	t.stat = CHECK_H_PCT;
	t.pct = 10;
	assert_true(check_hstat(&t, v, 5, &out) && near(out, 1.4));
	t.stat = CHECK_H_MEDIAN;
	assert_true(check_hstat(&t, v, 5, &out) && near(out, 3));
	t.stat = CHECK_H_STDDEV;
	assert_true(check_hstat(&t, v, 5, &out) && near(out, sqrt(2.5)));
	assert_false(check_hstat(&t, v, 1, &out));
	t.stat = CHECK_H_MAX;
	assert_true(check_hstat(&t, v, 1, &out));
	assert_false(check_hstat(&t, v, 0, &out));
}

static void test_parse_good(void **state)
{
	struct check_expr x;
	char why[1024];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		const struct good_case *c = &good[i];

		why[0] = '\0';
		CHECK(!check_parse(c->in, 1024, &x, why, sizeof(why)),
		      "'%s': %s", c->in, why);
		CHECK(!strcmp(x.scope, c->scope), "'%s': scope '%s'", c->in,
		      x.scope);
		CHECK(x.func == c->func, "'%s': func %d", c->in, x.func);
		CHECK(!strcmp(x.m.name, c->metric), "'%s': metric %s", c->in,
		      x.m.name);
		CHECK(x.op == c->op, "'%s': op %d", c->in, x.op);
		CHECK(x.unit == c->unit, "'%s': unit %d", c->in, x.unit);
		CHECK(x.baseline == c->baseline, "'%s': baseline", c->in);
		CHECK(near(c->baseline ? x.factor : x.threshold, c->value),
		      "'%s': value %.17g", c->in, c->baseline ? x.factor :
		      x.threshold);
		if (c->body)
			CHECK(!strcmp(c->in + x.body, c->body),
			      "'%s': body '%s'", c->in, c->in + x.body);
	}
}

static void test_parse_bad(void **state)
{
	struct check_expr x;
	char why[1024];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct bad_case *c = &bad[i];
		char quoted[128];

		why[0] = '\0';
		CHECK(check_parse(c->in, 1024, &x, why, sizeof(why)) < 0,
		      "'%s' was accepted", c->in);
		CHECK(strstr(why, c->why), "'%s': why '%s' lacks '%s'", c->in,
		      why, c->why);
		/* The message quotes the expression and what was expected. */
		snprintf(quoted, sizeof(quoted), "'%s'", c->in);
		CHECK(!strncmp(why, quoted, strlen(quoted)),
		      "'%s': why '%s' does not quote it", c->in, why);
	}
	/* Long expressions are shortened in the message. */
	assert_true(check_parse("read.iops>=1xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				"xxxxxxxxxxxxxxxxxx", 1024, &x, why,
				sizeof(why)) < 0);
	assert_non_null(strstr(why, "...'"));
	/* kb_base applies to sizes in thresholds. */
	assert_int_equal(check_parse("read.io_bytes>=1m", 1000, &x, why,
				     sizeof(why)), 0);
	assert_true(x.threshold == 1e6);
}

/* ---- check_build ---- */

static int build_plan(struct plan *p, const char *text, struct err_rec *e)
{
	struct raw_doc doc = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ret = jobfile_parse_string(&doc, "t.job", text, e);
	if (!ret)
		ret = plan_build(p, &doc, NULL, e);
	raw_doc_free(&doc);
	return ret;
}

/* Plan text and --check args; the check set in cs. */
static int build(struct plan *p, struct check_set *cs, const char *text,
		 const char *const *cli, const struct baseline *bl,
		 struct err_rec *e)
{
	struct check_arg args[8];
	size_t n = 0;
	int ret;

	ret = build_plan(p, text, e);
	assert_int_equal(ret, 0);
	for (n = 0; cli && cli[n]; n++) {
		args[n].expr = cli[n];
		args[n].argi = (int)n + 1;
	}
	memset(e, 0, sizeof(*e));
	return check_build(cs, p, args, n, bl, e);
}

#define JOBS_RW								\
	"[global]\nioengine=null\nsize=1m\ncheck=errors==0\n"		\
	"check=write.iops>=1\n"						\
	"[r]\nrw=randread\n"						\
	"[w]\nrw=write\ncheck=write.clat.p99<=1ms\n"

static void test_build_units(void **state)
{
	const char *const cli[] = { "read.iops>=5", NULL };
	const struct check_item *it;
	struct check_set cs;
	struct err_rec e;
	struct plan p;
	char src[300];

	(void)state;
	assert_int_equal(build(&p, &cs, JOBS_RW, cli, NULL, &e), 0);
	/* Unit r: two global checks, then the command line's; unit w: two
	 * global checks, its own, the command line's. */
	assert_int_equal(cs.nitems, 7);
	it = cs.items;
	assert_int_equal(it[0].unit, 0);
	assert_string_equal(cs.defs[it[0].def].text, "errors==0");
	assert_int_equal(cs.defs[it[0].def].origin, CHECK_GLOBAL);
	check_source(&cs.defs[it[0].def], src, sizeof(src));
	assert_string_equal(src, "t.job:4");
	assert_false(it[0].na);
	assert_string_equal(cs.defs[it[1].def].text, "write.iops>=1");
	assert_true(it[1].na);		/* r does no writes: n/a */
	assert_string_equal(cs.defs[it[2].def].text, "read.iops>=5");
	assert_int_equal(cs.defs[it[2].def].origin, CHECK_CMDLINE);
	check_source(&cs.defs[it[2].def], src, sizeof(src));
	assert_string_equal(src, "command line");
	assert_false(it[2].na);
	assert_int_equal(it[3].unit, 1);
	assert_int_equal(it[3].def, it[0].def);	/* one def, two units */
	assert_false(it[4].na);
	assert_string_equal(cs.defs[it[5].def].text, "write.clat.p99<=1ms");
	assert_int_equal(cs.defs[it[5].def].origin, CHECK_SECTION);
	check_source(&cs.defs[it[5].def], src, sizeof(src));
	assert_string_equal(src, "t.job:10");
	assert_string_equal(cs.defs[it[6].def].text, "read.iops>=5");
	assert_true(it[6].na);
	check_set_free(&cs);
	plan_free(&p);
}

struct unit_count {
	const char *text;
	const char *cli;
	size_t nitems;
};

/* One result per reported unit: clones, sweep points; repeats fold. */
static const struct unit_count unit_counts[] = {
	{ "[a]\nioengine=null\nsize=1m\ncheck=errors==0\n", NULL, 1 },
	{ "[a]\nioengine=null\nsize=1m\nnumjobs=3\ncheck=errors==0\n", NULL,
	  3 },
	{ "[a]\nioengine=null\nsize=1m\nnumjobs=3\ngroup_reporting\n"
	  "check=errors==0\n", NULL, 1 },
	{ "[a]\nioengine=null\nsize=1m\nsweep=bs:4k,8k\ncheck=errors==0\n",
	  NULL, 2 },
	{ "[a]\nioengine=null\nsize=1m\nrepeat=3\ncheck=errors==0\n", NULL,
	  1 },
	{ "[a]\nioengine=null\nsize=1m\nrepeat=3\nnumjobs=2\n"
	  "sweep=bs:4k,8k\n", "errors==0", 4 },
	{ "[a]\nioengine=null\nsize=1m\n[b]\nioengine=null\nsize=1m\n",
	  "b:errors==0", 1 },
	{ "[a]\nioengine=null\nsize=1m\nnumjobs=2\n[b]\nioengine=null\n"
	  "size=1m\n", "a:errors==0", 2 },
	{ "[global]\ncheck=b:errors==0\n[a]\nioengine=null\nsize=1m\n"
	  "[b]\nioengine=null\nsize=1m\n", NULL, 1 },
};

static void test_build_counts(void **state)
{
	const char *cli[2] = { NULL, NULL };
	struct check_set cs;
	struct err_rec e;
	struct plan p;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(unit_counts); i++) {
		cli[0] = unit_counts[i].cli;
		CHECK(!build(&p, &cs, unit_counts[i].text, cli, NULL, &e),
		      "case %zu: %s", i, e.msg);
		CHECK(cs.nitems == unit_counts[i].nitems, "case %zu: %zu "
		      "items, want %zu", i, cs.nitems,
		      unit_counts[i].nitems);
		check_set_free(&cs);
		plan_free(&p);
	}
}

struct build_bad {
	const char *text;
	const char *cli;
	int line;		/* where e points; argv index for --check */
	const char *why;
};

#define NULLJOB "ioengine=null\nsize=1m\n"

static const struct build_bad build_errors[] = {
	/* A job's own check on a direction it does not do. */
	{ "[a]\n" NULLJOB "rw=read\ncheck=write.iops>=1\n", NULL, 5,
	  "job 'a' does no writes" },
	{ "[a]\n" NULLJOB "rw=write\ncheck=read.clat.p99<=1ms\n", NULL, 5,
	  "job 'a' does no reads" },
	{ "[a]\n" NULLJOB "rw=randrw\nrwmixread=100\n"
	  "check=write.iops>=1\n", NULL, 6, "does no writes" },
	{ "[a]\nsize=1m\nfilename=v.dat\nrw=write\nverify=crc32c\n"
	  "verify_only=1\n"
	  "check=write.iops>=1\n", NULL, 7, "verify_only" },
	/* A scoped --check likewise. */
	{ "[a]\n" NULLJOB "rw=read\n", "a:write.bw>=1", 1,
	  "job 'a' does no writes" },
	/* Scopes naming no job. */
	{ "[a]\n" NULLJOB, "b:read.iops>=1", 1, "no job called 'b' runs" },
	{ "[b]\n" NULLJOB "[global]\ncheck=b:errors==0\n[a]\n" NULLJOB, NULL,
	  5, "no job called 'b' follows this global section" },
	{ "[a]\n" NULLJOB "check=b:errors==0\n", NULL, 4,
	  "a check in the section of job 'a' cannot name job 'b'" },
	/* baseline without --baseline. */
	{ "[a]\n" NULLJOB, "read.iops>=0.9*baseline", 1,
	  "no --baseline=FILE was given" },
	{ "[a]\n" NULLJOB "check=read.iops>=baseline\n", NULL, 4,
	  "no --baseline=FILE was given" },
	/* Bad expressions on the command line. */
	{ "[a]\n" NULLJOB, "read.iop>=1", 1, "unknown metric 'read.iop'" },
	{ "[a]\n" NULLJOB, "read.iops", 1, "no comparison" },
};

static void test_build_errors(void **state)
{
	const char *cli[3] = { NULL, NULL, NULL };
	struct check_set cs;
	struct err_rec e;
	struct plan p;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(build_errors); i++) {
		const struct build_bad *c = &build_errors[i];

		cli[0] = c->cli;
		CHECK(build(&p, &cs, c->text, cli, NULL, &e) == -EINVAL,
		      "case %zu was accepted", i);
		CHECK(strstr(e.msg, c->why), "case %zu: '%s' lacks '%s'", i,
		      e.msg, c->why);
		CHECK(e.line == c->line, "case %zu: line %d, want %d", i,
		      e.line, c->line);
		CHECK(!strcmp(e.option, "check"), "case %zu: option '%s'", i,
		      e.option);
		CHECK(!strcmp(e.file, c->cli ? ERR_CMDLINE : "t.job"),
		      "case %zu: file '%s'", i, e.file);
		check_set_free(&cs);
		plan_free(&p);
	}
	/* A bad check= is refused by the option itself, with its line. */
	assert_int_equal(build_plan(&p, "[a]\n" NULLJOB "check=cv(x)>1\n",
				    &e), -EINVAL);
	assert_int_equal(e.line, 4);
	assert_string_equal(e.option, "check");
	assert_non_null(strstr(e.msg, "unknown metric 'x'"));
	assert_int_equal(build_plan(&p, "[a]\n" NULLJOB
				    "check=errors==0;errors<1\n", &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "one check per check= line"));
}

/*
 * A small baseline file with job "a" (clone 0), "g" (merged) and "s"
 * (stopped during ramp_time: no rates), read back into the model: its
 * figures are what result_metric computes from it (iops: its I/Os over
 * its runtime).
 */
static const char baseline_json[] =
	"{\"schema_version\": 1, \"iorig_version\": \"0.1.0\","
	" \"time\": \"2025-01-31T12:00:00Z\", \"jobs\": ["
	"{\"name\": \"a\", \"sweep_point\": null, \"clone\": 0, \"ran\": true,"
	" \"runtime_ns\": 1000000000,"
	" \"read\": {\"iops\": 1000.0, \"bw_bytes\": 4096000.0,"
	"  \"io_bytes\": 4096000, \"ios\": 1000, \"errors\": 0,"
	"  \"short_ios\": 0, \"clat_ns\": {\"count\": 2, \"min\": 10,"
	"  \"max\": 20, \"mean\": 15.0, \"stddev\": 5.0, \"overflow\": 0,"
	"  \"percentiles\": {}, \"buckets\": [[10, 10, 1], [20, 20, 1]]}},"
	" \"write\": {\"iops\": 0.0, \"errors\": 0},"
	" \"summary\": {\"us_per_io\": 2.5, \"cpu_pct\": 50.0},"
	" \"verify\": null, \"repeats\": null},"
	"{\"name\": \"g\", \"sweep_point\": null, \"clone\": null,"
	" \"ran\": true, \"runtime_ns\": 1000000000,"
	" \"read\": {\"ios\": 10}},"
	"{\"name\": \"s\", \"sweep_point\": null, \"clone\": 0,"
	" \"ran\": true, \"measured\": false, \"read\": {\"ios\": 0}}]}";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void test_build_baseline(void **state)
{
	const char *cli[3] = { "read.iops>=0.9*baseline",
			       "read.clat.p99<=baseline", NULL };
	char path[] = "/tmp/test_check.XXXXXX";
	struct baseline bl;
	struct check_set cs;
	struct err_rec e;
	struct plan p;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, baseline_json);
	assert_int_equal(baseline_load(&bl, path, &e), 0);
	assert_int_equal(build(&p, &cs, "[a]\n" NULLJOB, cli, &bl, &e), 0);
	assert_int_equal(cs.nitems, 2);
	assert_true(cs.items[0].base == 1000);
	assert_true(cs.items[1].base == 20);	/* from the buckets */
	check_set_free(&cs);
	plan_free(&p);
	/* A job the baseline lacks, or a figure it lacks. */
	assert_int_equal(build(&p, &cs, "[b]\n" NULLJOB, cli, &bl, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "has no result for job 'b'"));
	check_set_free(&cs);
	plan_free(&p);
	assert_int_equal(build(&p, &cs, "[a]\n" NULLJOB "numjobs=2\n", cli,
			       &bl, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "has no result for job 'a clone 1'"));
	check_set_free(&cs);
	plan_free(&p);
	cli[0] = "read.iops>=baseline";
	cli[1] = NULL;
	assert_int_equal(build(&p, &cs, "[s]\n" NULLJOB, cli, &bl, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "has no read.iops for job 's'"));
	check_set_free(&cs);
	plan_free(&p);
	/* Merged units match a null clone. */
	cli[0] = "read.iops>=baseline";
	assert_int_equal(build(&p, &cs, "[g]\n" NULLJOB "numjobs=2\n"
			       "group_reporting\n", cli, &bl, &e), 0);
	assert_true(cs.items[0].base == 10);
	check_set_free(&cs);
	plan_free(&p);
	baseline_free(&bl);
	unlink(path);
}

/* ---- check_eval ---- */

struct fixture {
	struct plan p;
	struct run_result r;
};

/* The plan of text with stats for every job: reads of ios[i] I/Os of
 * 4 KiB in one second, clat 1 us each. */
static void fixture(struct fixture *fx, const char *text,
		    const unsigned *ios)
{
	struct err_rec e;
	size_t i;
	unsigned k;

	memset(fx, 0, sizeof(*fx));
	assert_int_equal(build_plan(&fx->p, text, &e), 0);
	fx->r.plan = &fx->p;
	fx->r.stats = calloc(fx->p.njobs, sizeof(*fx->r.stats));
	fx->r.ran = calloc(fx->p.njobs, sizeof(*fx->r.ran));
	fx->r.phases = calloc(fx->p.nwait_groups, sizeof(*fx->r.phases));
	fx->r.nphases = fx->p.nwait_groups;
	assert_true(fx->r.stats && fx->r.ran && fx->r.phases);
	for (i = 0; i < fx->p.njobs; i++) {
		struct dir_stats *d = &fx->r.stats[i].dir[DDIR_READ];

		stats_init(&fx->r.stats[i]);
		fx->r.ran[i] = true;
		for (k = 0; k < ios[i]; k++)
			hist_add(&d->clat, 1000);
		d->ios = ios[i];
		d->bytes = ios[i] * 4096ull;
		fx->r.stats[i].runtime_ns = 1000000000ull;
		fx->r.phases[fx->p.jobs[i].plan.wait_group].ios += ios[i];
	}
}

static void fixture_free(struct fixture *fx)
{
	run_result_free(&fx->r);
	plan_free(&fx->p);
}

static int eval(struct fixture *fx, const char *const *cli,
		struct check_set *cs, struct check_report *cr)
{
	struct err_rec e;
	struct check_arg args[16];
	size_t n;

	for (n = 0; cli[n]; n++) {
		args[n].expr = cli[n];
		args[n].argi = (int)n + 1;
	}
	assert_int_equal(check_build(cs, &fx->p, args, n, NULL, &e), 0);
	return check_eval(cs, &fx->r, cr);
}

static void test_eval_repeats(void **state)
{
	static const unsigned ios[] = { 100, 200, 300 };
	static const char *const cli[] = {
		"read.iops>=150",		/* mean 200: pass */
		"min(read.iops)>=150",		/* 100: fail */
		"max(read.iops)==300",		/* pass */
		"cv(read.iops)<=50%",		/* 100 / 200: pass */
		"stddev(read.iops)>100",	/* 100: fail */
		"mean(read.ios)==200",		/* pass */
		"write.iops>=1",		/* n/a */
		"read.clat.p99<=1us",		/* pass */
		NULL,
	};
	static const int want[] = {
		CHECK_PASS, CHECK_FAIL, CHECK_PASS, CHECK_PASS, CHECK_FAIL,
		CHECK_PASS, CHECK_NA, CHECK_PASS,
	};
	const struct check_unit *cu;
	struct check_report cr;
	struct check_set cs;
	struct fixture fx;
	struct result_unit *u;
	size_t i;

	(void)state;
	fixture(&fx, "[a]\n" NULLJOB "rw=read\nrepeat=3\n", ios);
	assert_int_equal(fx.p.njobs, 3);
	assert_int_equal(eval(&fx, cli, &cs, &cr), 0);
	assert_int_equal(cr.nresults, ARRAY_SIZE(want));
	for (i = 0; i < cr.nresults; i++)
		CHECK(cr.results[i].status == want[i], "%s: status %d, want "
		      "%d (value %g)", cli[i], cr.results[i].status, want[i],
		      cr.results[i].value);
	assert_true(near(cr.results[0].value, 200));
	assert_true(near(cr.results[1].value, 100));
	assert_true(near(cr.results[3].value, 50));
	assert_string_equal(cr.results[6].reason, "the job does no writes");
	assert_int_equal(cr.npass, 5);
	assert_int_equal(cr.nfail, 2);
	assert_int_equal(cr.nna, 1);
	/* The repeats figures: one per run, in run order. */
	assert_int_equal(cr.nunits, 1);
	cu = check_unit_at(&cr, 0);
	assert_ptr_equal(cu, &cr.units[0]);
	assert_null(check_unit_at(&cr, 1));
	assert_null(check_unit_at(&cr, -1));
	assert_null(check_unit_at(NULL, 0));
	assert_true(cu->repeated);
	assert_false(cu->in_baseline);
	assert_int_equal(cu->nfigs, 5);
	assert_string_equal(cu->figs[0].m.name, "read.iops");
	assert_int_equal(cu->figs[0].spread.n, 3);
	for (i = 0; i < 3; i++)
		assert_true(near(cu->figs[0].values[i], ios[i]));
	assert_true(near(cu->figs[0].spread.stddev, 100));
	assert_true(near(cu->figs[0].value, 200));
	/* The unit is the runs together: counts add up, runtimes too. */
	assert_int_equal(result_units(&fx.r, &u), 1);
	assert_int_equal(u[0].nruns, 3);
	assert_int_equal(u[0].njobs, 3);
	assert_int_equal(u[0].stats.dir[DDIR_READ].ios, 600);
	assert_int_equal(u[0].stats.runtime_ns, 3000000000ull);
	free(u);
	check_report_free(&cr);
	check_set_free(&cs);
	fixture_free(&fx);
}

static void test_eval_not_run(void **state)
{
	static const unsigned ios[] = { 100, 200, 300, 50 };
	static const char *const cli[] = { "read.iops>=1", NULL };
	struct check_report cr;
	struct check_set cs;
	struct fixture fx;

	(void)state;
	fixture(&fx, "[a]\n" NULLJOB "repeat=3\n[b]\n" NULLJOB, ios);
	/* The last run of a did not run; b did not either. */
	fx.r.ran[2] = false;
	fx.r.ran[3] = false;
	assert_int_equal(eval(&fx, cli, &cs, &cr), 0);
	assert_int_equal(cr.nresults, 2);
	assert_int_equal(cr.results[0].status, CHECK_PASS);
	assert_true(near(cr.results[0].value, 150));
	assert_int_equal(cr.units[0].figs[0].spread.n, 2);
	assert_int_equal(cr.results[1].status, CHECK_NA);
	assert_string_equal(cr.results[1].reason, "not run");
	check_report_free(&cr);
	check_set_free(&cs);
	fixture_free(&fx);
}

/* cpu.us_per_io: the process's CPU over the unit's phases, per I/O; a
 * repeated unit's phases are those of all its runs. */
static void test_eval_cpu(void **state)
{
	static const unsigned ios[] = { 1000, 1000, 4000 };
	static const char *const cli[] = {
		"a:cpu.us_per_io<=100", "b:cpu.us_per_io<=100", NULL,
	};
	struct result_set rs;
	struct result_row row;
	struct check_report cr;
	struct check_set cs;
	struct fixture fx;

	(void)state;
	fixture(&fx, "[a]\n" NULLJOB "repeat=2\n[b]\n" NULLJOB, ios);
	assert_int_equal(fx.p.nwait_groups, 3);
	fx.r.phases[0].proc.utime_ns = 10000000;	/* 10 us per I/O */
	fx.r.phases[1].proc.utime_ns = 30000000;	/* 30 */
	fx.r.phases[2].proc.stime_ns = 4000000;		/* 1 */
	fx.r.phases[0].wall_ns = fx.r.phases[1].wall_ns = 100000000;
	assert_int_equal(eval(&fx, cli, &cs, &cr), 0);
	assert_true(near(cr.results[0].value, 20));	/* mean of runs */
	assert_true(near(cr.results[1].value, 1));
	/* The merged unit's row covers both runs' phases. */
	assert_int_equal(result_collect(&fx.r, &rs), 0);
	result_row(&fx.r, &rs.units[0], &row);
	assert_true(near(row.us_per_io, 20));
	assert_true(near(row.cpu_pct, 20));
	result_set_free(&rs);
	check_report_free(&cr);
	check_set_free(&cs);
	fixture_free(&fx);
}

static void test_result_text(void **state)
{
	static const unsigned ios[] = { 100 };
	static const char *const cli[] = {
		"a:read.iops>=1k", "write.ios>=1", NULL,
	};
	struct check_report cr;
	struct check_set cs;
	struct fixture fx;
	char buf[512];

	(void)state;
	fixture(&fx, "[a]\n" NULLJOB, ios);
	assert_int_equal(eval(&fx, cli, &cs, &cr), 0);
	check_result_text(&cr.results[0], buf, sizeof(buf));
	assert_string_equal(buf, "a: read.iops>=1k  100.00, threshold "
			    "1.00k  (command line)");
	assert_string_equal(check_status_name(cr.results[0].status), "FAIL");
	check_result_text(&cr.results[1], buf, sizeof(buf));
	assert_string_equal(buf, "a: write.ios>=1  the job does no writes  "
			    "(command line)");
	check_report_free(&cr);
	check_set_free(&cs);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_history),
		cmocka_unit_test(test_build_units),
		cmocka_unit_test(test_build_counts),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_build_baseline),
		cmocka_unit_test(test_eval_repeats),
		cmocka_unit_test(test_eval_not_run),
		cmocka_unit_test(test_eval_cpu),
		cmocka_unit_test(test_result_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
