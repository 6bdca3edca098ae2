// SPDX-License-Identifier: MIT
/* The option table: consistency, round trips, special options. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fcntl.h>

#include "dist.h"
#include "options.h"
#include "procattr.h"

static void test_table_consistent(void **state)
{
	const struct opt_def *o, *p;

	(void)state;
	for (o = options_table; o->name; o++) {
		assert_non_null(o->help);
		assert_non_null(o->category);
		assert_false(options_is_fio_only(o->name));
		if (o->type == OPT_ENUM)
			assert_non_null(o->choices);
		if (o->type == OPT_SPECIAL)
			assert_non_null(o->set);
		for (p = o + 1; p->name; p++) {
			assert_string_not_equal(o->name, p->name);
			if (o->alias)
				assert_string_not_equal(o->alias, p->name);
			if (p->alias)
				assert_string_not_equal(o->name, p->alias);
		}
		assert_ptr_equal(options_find(o->name), o);
		if (o->alias)
			assert_ptr_equal(options_find(o->alias), o);
	}
}

/* format(j) -> set -> format again gives the same text for every option. */
static void test_round_trip(void **state)
{
	const struct opt_def *o;
	struct job j;
	struct err_rec e;
	char a[1024], b[1024];

	(void)state;
	assert_int_equal(options_defaults(&j), 0);
	assert_int_equal(options_set(&j, "name", "rt", "t", 1, &e), 0);
	assert_int_equal(options_set(&j, "filename", "x:y", "t", 1, &e), 0);
	assert_int_equal(options_set(&j, "size", "1536k", "t", 1, &e), 0);
	assert_int_equal(options_set(&j, "runtime", "90s", "t", 1, &e), 0);
	assert_int_equal(options_set(&j, "bsrange", "4k-8k,64k", "t", 1, &e),
			 0);
	for (o = options_table; o->name; o++) {
		options_format(&j, o, a, sizeof(a));
		if (!a[0])
			continue;
		assert_int_equal(options_set(&j, o->name, a, "t", 1, &e), 0);
		options_format(&j, o, b, sizeof(b));
		assert_string_equal(a, b);
	}
	job_free(&j);
}

struct set_case {
	const char *name, *value;
	const char *check;	/* option to format afterwards */
	const char *expect;	/* its text, or NULL: must fail */
};

static const struct set_case set_cases[] = {
	{ "size", "1536k", "size", "1572864" },
	{ "size", "50%", "size", "50%" },
	{ "size", "1.3", "size", NULL },
	{ "size", "0%", "size", NULL },
	/* fio's parts: one value is that value; two are refused */
	{ "size", "6400K:6400K", "size", "6553600" },
	{ "size", "1m,1m,", "size", "1048576" },
	{ "size", "10%:10%", "size", "10%" },
	{ "size", "1m:2m", "size", NULL },
	{ "size", "1m:10%", "size", NULL },
	{ "offset", "4k,8k", "offset", NULL },
	/* fio splits at '-' too: no subtraction in fio's options, but in
	 * parentheses (which fio 3.33 as Debian builds it refuses) */
	{ "numjobs", "3-1", "numjobs", NULL },
	{ "size", "(1m-4k)", "size", "1044480" },
	{ "size", "4k*2", "size", NULL },
	{ "size", "(4k*2)", "size", "8192" },
	{ "iodepth", "2+2", "iodepth", NULL },
	{ "runtime", "3s-1s", "runtime", NULL },
	{ "interval", "2s-1s", "interval", "1s" },
	/* a profile's option: read, no effect; fio refuses what it cannot
	 * read */
	{ "threads", "1", "size", "" },
	{ "threads", "abc", "size", NULL },
	/* verify_pattern alone is verify=pattern */
	{ "verify_pattern", "0xff", "verify", "pattern" },
	{ "runtime", "1x", "runtime", NULL },
	{ "runtime", "90", "runtime", "90s" },
	{ "runtime", "1500ms", "runtime", "1500ms" },
	/* interval: 0 (off) or 10ms to 1d */
	{ "interval", "0", "interval", "0" },
	{ "interval", "10ms", "interval", "10ms" },
	{ "interval", "1", "interval", "1s" },
	{ "interval", "1d", "interval", "1d" },
	{ "interval", "9999999ns", "interval", NULL },
	{ "interval", "1ns", "interval", NULL },
	{ "interval", "86400001ms", "interval", NULL },
	{ "interval", "1x", "interval", NULL },
	{ "bs", "abc,4k", "bs", NULL },
	{ "bs", "4k,64k", "bs", "4096,65536" },
	/* fio's meaning: read-write, not a range; bsrange has ranges. */
	{ "bs", "4k-64k", "bs", "4096,65536" },
	{ "bs", "4k:64k", "bs", "4096,65536" },
	{ "bs", "64k-4k", "bs", "65536,4096" },
	{ "bs", "4k-8k,64k", "bs", NULL },
	{ "bsrange", "4k-64k", "bsrange", "4096-65536" },
	{ "bsrange", "64k-4k", "bsrange", "4096-65536" },
	{ "blocksize", "8k", "bs", "8192" },
	{ "bsrange", "512-4k", "bsrange", "512-4096" },
	{ "iodepth", "0:4", "iodepth", NULL },
	{ "iodepth", "0", "iodepth", NULL },
	{ "iodepth", "32", "iodepth", "32" },
	{ "rwmixwrite", "30", "rwmixread", "70" },
	{ "rwmixread", "101", "rwmixread", NULL },
	{ "buffered", "0", "direct", "1" },
	{ "direct", "yes", "buffered", "0" },
	{ "continue_on_error", "io", "continue_on_error", "io" },
	{ "continue_on_error", "1", "continue_on_error", "all" },
	{ "continue_on_error", "0", "continue_on_error", "none" },
	{ "continue_on_error", "reads", "continue_on_error", NULL },
	{ "rw", "randrw", "rw", "randrw" },
	{ "readwrite", "readwrite", "rw", "rw" },
	{ "rw", "trim", "rw", "trim" },
	{ "rw", "randtrimwrite", "rw", "randtrimwrite" },
	{ "rw", "trimread", "rw", NULL },
	{ "sync", "dsync", "sync", "dsync" },
	{ "sync", "1", "sync", "sync" },
	{ "fadvise_hint", "random", "fadvise_hint", "random" },
	{ "fadvise_hint", "maybe", "fadvise_hint", NULL },
	{ "percentile_list", "50:99.9", "percentile_list", "50:99.9" },
	{ "percentile_list", "50::99", "percentile_list", NULL },
	{ "percentile_list", "0", "percentile_list", NULL },
	{ "percentile_list", "100.5", "percentile_list", NULL },
	{ "ioengine", "psync", "ioengine", "sync" },
	{ "ioengine", "nosuch", "ioengine", NULL },
	{ "kb_base", "1000", "kb_base", "1000" },
	{ "kb_base", "999", "kb_base", NULL },
	{ "numjobs", "100000", "numjobs", NULL },
	{ "name", "", "name", NULL },
	{ "timeout", "2m", "runtime", "2m" },
};

static void test_set_cases(void **state)
{
	struct err_rec e;
	struct job j;
	char buf[256];
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct set_case *c = &set_cases[i];

		assert_int_equal(options_defaults(&j), 0);
		memset(&e, 0, sizeof(e));
		ret = options_set(&j, c->name, c->value, "f.job", 7, &e);
		if (!c->expect) {
			if (ret == 0)
				fail_msg("%s=%s was accepted", c->name,
					 c->value);
			assert_string_equal(e.file, "f.job");
			assert_int_equal(e.line, 7);
			assert_true(e.msg[0] != '\0');
		} else {
			if (ret)
				fail_msg("%s=%s: %s", c->name, c->value,
					 e.msg);
			options_format(&j, options_find(c->check), buf,
				       sizeof(buf));
			assert_string_equal(buf, c->expect);
		}
		job_free(&j);
	}
}

static void test_kb_base_applies(void **state)
{
	struct err_rec e;
	struct job j;

	(void)state;
	assert_int_equal(options_defaults(&j), 0);
	assert_int_equal(options_set(&j, "kb_base", "1000", "t", 1, &e), 0);
	assert_int_equal(options_set(&j, "size", "1k", "t", 1, &e), 0);
	assert_int_equal(j.target.size, 1000);
	assert_int_equal(options_set(&j, "size", "1KiB", "t", 1, &e), 0);
	assert_int_equal(j.target.size, 1024);
	job_free(&j);
}

static void test_unknown_and_fio_only(void **state)
{
	struct err_rec e;
	struct job j;

	(void)state;
	assert_int_equal(options_defaults(&j), 0);
	assert_int_equal(options_set(&j, "blocksze", "4k", "f", 3, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "'bs'"));
	assert_string_equal(e.option, "blocksze");
	assert_int_equal(options_set(&j, "verb", "read", "f", 4, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "fio has this option"));
	/* later fios' options: fio 3.33 refuses them too */
	assert_int_equal(options_set(&j, "verify_pattern_interval", "2", "f",
				     4, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "not an option of fio 3.33"));
	assert_int_equal(options_set(&j, "zzzzzzzz", "1", "f", 5, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "unknown option"));
	/* Bare names are booleans only. */
	assert_int_equal(options_set(&j, "time_based", NULL, "f", 6, &e), 0);
	assert_true(j.time.time_based);
	assert_int_equal(options_set(&j, "size", NULL, "f", 6, &e), -EINVAL);
	assert_string_equal(options_suggest("runtim"), "runtime");
	assert_null(options_suggest("qqqqqqqqqqqq"));
	job_free(&j);
}

static void test_copy_is_deep(void **state)
{
	struct err_rec e;
	struct job a, b;

	(void)state;
	assert_int_equal(options_defaults(&a), 0);
	assert_int_equal(options_set(&a, "filename", "f1", "t", 1, &e), 0);
	assert_int_equal(job_copy(&b, &a), 0);
	assert_ptr_not_equal(a.target.filename, b.target.filename);
	assert_string_equal(a.target.filename, b.target.filename);
	job_free(&a);
	assert_string_equal(b.target.filename, "f1");
	job_free(&b);
}

/*
 * The values that need more than their type's parser are parsed once, by
 * their setters, into the job's typed fields (the run reads those); the
 * text stays for --parse-only; an engine's (cmdprio_*) into the engine's
 * options struct. A refused value leaves the earlier one; a copy owns its
 * values (patterns' bytes shared, counted).
 */
static void test_parsed_once(void **state)
{
	static const struct { const char *name, *value; } set[] = {
		{ "kb_base", "1000" },
		{ "bssplit", "4k/50:8k/50" },
		{ "random_distribution", "zipf:1.2" },
		{ "cpumask", "0x1" },
		{ "steadystate", "iops_slope:0.1%" },
		{ "sync_file_range", "wait_before,write:8" },
		{ "write_hint", "extreme" },
		{ "numa_cpu_nodes", "0,2" },
		{ "numa_mem_policy", "interleave:0-1" },
		{ "nice", "-3" },
		{ "mem", "mmap:/tmp/x" },
		{ "buffer_pattern", "0xdeadbeef" },
		{ "verify_pattern", "\"ab\"" },
		/* an engine's rows: into the engine's struct (job.eng.eopts) */
		{ "ioengine", "libaio" },
		{ "cmdprio_percentage", "30,60" },
		{ "cmdprio_bssplit", "4k/20/3/1:8k/40,4k/10" },
		{ "cmdprio_class", "2,3" },
		{ "cmdprio", "5" },
		{ "cmdprio_hint", "7" },
	};
	const struct cmdprio_opts *cp;
	struct cmdprio_tab tab[2];
	struct err_rec e;
	struct job a, b;
	size_t i;

	(void)state;
	assert_int_equal(options_defaults(&a), 0);
	assert_null(a.io.bss);
	assert_int_equal(a.cache.write_hint_rwh, 0);
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		assert_int_equal(options_set(&a, set[i].name, set[i].value,
					     "t", 1, &e), 0);
	/* refused: the value before stays, text and typed */
	assert_int_equal(options_set(&a, "bssplit", "4k/200", "t", 2, &e),
			 -EINVAL);
	assert_string_equal(a.io.bssplit, "4k/50:8k/50");
	assert_int_equal(a.io.bss->n[DDIR_READ], 2);
	assert_int_equal(a.io.bss->e[DDIR_READ][0].bs, 4000);
	assert_int_equal(a.io.bss->e[DDIR_WRITE][1].bs, 8000);
	assert_int_equal(a.rnd.dist->kind, DIST_ZIPF);
	assert_true(a.rnd.dist->param == 1.2);
	assert_string_equal(a.cpu.cpus_allowed, "0");
	assert_int_equal(CPU_COUNT(&a.cpu.cpus), 1);
	assert_true(CPU_ISSET(0, &a.cpu.cpus));
	assert_int_equal(a.ss.ss_crit.kind, SS_IOPS_SLOPE);
	assert_true(a.ss.ss_crit.limit == 0.1 && a.ss.ss_crit.pct);
	assert_int_equal(a.cache.sfr_flags, SYNC_FILE_RANGE_WAIT_BEFORE |
			 SYNC_FILE_RANGE_WRITE);
	assert_int_equal(a.cache.sfr_nr, 8);
	/* RWH_WRITE_LIFE_EXTREME */
	assert_int_equal(a.cache.write_hint_rwh, 5);
	assert_int_equal(a.cpu.numa_cpu_mask, 5);
	assert_int_equal(a.cpu.numa_mpol_mode, 3);	/* MPOL_INTERLEAVE */
	assert_int_equal(a.cpu.numa_mpol_mask, 3);
	assert_int_equal(a.cpu.nice_inc, -3);
	assert_int_equal(a.eng.mem_kind, MEM_MMAP);
	assert_string_equal(a.eng.mem_file, "/tmp/x");
	assert_int_equal(a.buf.buffer_pat->len, 4);
	assert_memory_equal(a.buf.buffer_pat->data, "\xde\xad\xbe\xef", 4);
	assert_int_equal(a.vfy.verify_pat->len, 2);
	assert_memory_equal(a.vfy.verify_pat->data, "ab", 2);
	/* cmdprio_*: refused, the value before stays, text and typed */
	assert_int_equal(options_set(&a, "cmdprio_bssplit", "4k/60:4k/50",
				     "t", 2, &e), -EINVAL);
	assert_int_equal(options_set(&a, "cmdprio_class", "4", "t", 2, &e),
			 -EINVAL);
	cp = a.eng.eopts;		/* libaio's struct begins with them */
	assert_string_equal(cp->bssplit, "4k/20/3/1:8k/40,4k/10");
	assert_string_equal(cp->prio_class, "2,3");
	assert_true(cp->pct[0] == 30 && cp->pct[1] == 60);
	assert_true(cp->cls[0] == 2 && cp->cls[1] == 3);
	assert_true(cp->lvl[0] == 5 && cp->lvl[1] == 5);
	assert_true(cp->hnt[0] == 7 && cp->hnt[1] == 7);
	assert_true(cp->split);
	assert_int_equal(cp->split_tab[0].n, 2);
	assert_int_equal(cp->split_tab[0].e[0].bs, 4000);	/* kb_base */
	assert_int_equal(cp->split_tab[0].e[1].cum, 40);
	assert_int_equal(cp->dflt[0], 2);	/* 8k/40: the pairs' */
	assert_int_equal(cp->split_tab[1].n, 1);
	assert_int_equal(cp->dflt[1], 1);

	assert_int_equal(job_copy(&b, &a), 0);
	assert_ptr_not_equal(a.io.bss, b.io.bss);
	assert_ptr_not_equal(a.rnd.dist, b.rnd.dist);
	assert_ptr_not_equal(a.eng.mem_file, b.eng.mem_file);
	assert_ptr_equal(a.buf.buffer_pat, b.buf.buffer_pat);
	assert_int_equal(b.buf.buffer_pat->refs, 2);
	job_free(&a);
	assert_int_equal(b.buf.buffer_pat->refs, 1);
	assert_int_equal(b.io.bss->e[DDIR_READ][0].bs, 4000);
	assert_true(b.rnd.dist->param == 1.2);
	assert_string_equal(b.eng.mem_file, "/tmp/x");
	assert_memory_equal(b.vfy.verify_pat->data, "ab", 2);
	/* the copy's cmdprio values, and the tables the worker draws from
	 * (class << 13 | hint << 3 | level) */
	cp = b.eng.eopts;
	assert_string_equal(cp->bssplit, "4k/20/3/1:8k/40,4k/10");
	assert_true(procattr_cmdprio(cp, tab));
	assert_int_equal(tab[0].n, 2);
	assert_int_equal(tab[0].e[0].bs, 4000);
	assert_int_equal(tab[0].e[0].cum, 20);
	assert_int_equal(tab[0].e[0].val, 3 << 13 | 1);
	assert_int_equal(tab[0].e[1].bs, 8000);
	assert_int_equal(tab[0].e[1].cum, 40);
	assert_int_equal(tab[0].e[1].val, 2 << 13 | 7 << 3 | 5);
	assert_int_equal(tab[1].n, 1);
	assert_int_equal(tab[1].e[0].cum, 10);
	assert_int_equal(tab[1].e[0].val, 3 << 13 | 7 << 3 | 5);
	/* random is the uniform law: no spec */
	assert_int_equal(options_set(&b, "random_distribution", "random",
				     "t", 3, &e), 0);
	assert_null(b.rnd.dist);
	job_free(&b);

	/* cmdprio_percentage= alone: one entry of any size per direction */
	assert_int_equal(options_defaults(&a), 0);
	assert_int_equal(options_set(&a, "ioengine", "io_uring", "t", 1, &e),
			 0);
	cp = a.eng.eopts;
	assert_false(procattr_cmdprio(cp, tab));	/* defaults: none */
	assert_false(cp->split);
	assert_true(cp->cls[0] == 1 && cp->cls[1] == 1);
	assert_int_equal(options_set(&a, "cmdprio_percentage", "0,25", "t",
				     1, &e), 0);
	assert_int_equal(options_set(&a, "cmdprio", "4,6", "t", 1, &e), 0);
	assert_true(procattr_cmdprio(cp, tab));
	assert_int_equal(tab[0].n, 0);
	assert_int_equal(tab[1].n, 1);
	assert_int_equal(tab[1].e[0].bs, 0);
	assert_int_equal(tab[1].e[0].cum, 25);
	assert_int_equal(tab[1].e[0].val, 1 << 13 | 6);
	job_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_set_cases),
		cmocka_unit_test(test_kb_base_applies),
		cmocka_unit_test(test_unknown_and_fio_only),
		cmocka_unit_test(test_copy_is_deep),
		cmocka_unit_test(test_parsed_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
