// SPDX-License-Identifier: MIT
/* plan.c: inheritance, kb_base, clones, groups, filters, cross checks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "jobfile.h"
#include "plan.h"

static int build(struct plan *p, const char *text, const char **sections,
		 struct err_rec *e)
{
	struct raw_doc doc = { 0 };
	struct plan_filter f = { .sections = sections };
	int ret;

	memset(e, 0, sizeof(*e));
	ret = jobfile_parse_string(&doc, "t.job", text, e);
	if (!ret)
		ret = plan_build(p, &doc, &f, e);
	raw_doc_free(&doc);
	return ret;
}

static void test_globals_apply_below(void **state)
{
	struct err_rec e;
	struct plan p;

	(void)state;
	assert_int_equal(build(&p,
		"[a]\nsize=1m\n"
		"[global]\nbs=8k\nsize=2m\n"
		"[b]\n"
		"[c]\nsize=3m\n", NULL, &e), 0);
	assert_int_equal(p.njobs, 3);
	assert_string_equal(p.jobs[0].desc.name, "a");
	assert_int_equal(p.jobs[0].io.bs_min[0], 4096);
	assert_int_equal(p.jobs[1].io.bs_min[0], 8192);
	assert_int_equal(p.jobs[1].target.size, 2 << 20);
	assert_int_equal(p.jobs[2].target.size, 3 << 20);
	assert_string_equal(p.jobs[2].plan.section_file, "t.job");
	assert_int_equal(p.jobs[2].plan.section_line, 7);
	plan_free(&p);
}

/* kb_base is read first, so sizes before it in the section use it too. */
static void test_kb_base_first(void **state)
{
	struct err_rec e;
	struct plan p;

	(void)state;
	assert_int_equal(build(&p, "[global]\nsize=1k\n[a]\nkb_base=1000\n"
			       "bs=2k\n", NULL, &e), 0);
	assert_int_equal(p.jobs[0].target.size, 1000);
	assert_int_equal(p.jobs[0].io.bs_min[0], 2000);
	plan_free(&p);
}

static void test_clones_and_groups(void **state)
{
	struct err_rec e;
	struct plan p;

	(void)state;
	assert_int_equal(build(&p,
		"[a]\nnumjobs=2\n"
		"[b]\n"
		"[c]\nnew_group\n"
		"[d]\nstonewall\nnumjobs=3\n", NULL, &e), 0);
	assert_int_equal(p.njobs, 7);
	assert_int_equal(p.jobs[0].plan.clone, 0);
	assert_int_equal(p.jobs[1].plan.clone, 1);
	/* a, a, b: group 0; c: group 1 (same start); d x3: group 2, waits */
	assert_int_equal(p.jobs[2].plan.group, 0);
	assert_int_equal(p.jobs[3].plan.group, 1);
	assert_int_equal(p.jobs[3].plan.wait_group, 0);
	assert_int_equal(p.jobs[4].plan.group, 2);
	assert_int_equal(p.jobs[6].plan.group, 2);
	assert_int_equal(p.jobs[4].plan.wait_group, 1);
	assert_int_equal(p.ngroups, 3);
	assert_int_equal(p.nwait_groups, 2);
	plan_free(&p);
}

static void test_section_filter(void **state)
{
	const char *only[] = { "b", NULL };
	const char *none[] = { "zz", NULL };
	struct err_rec e;
	struct plan p;

	(void)state;
	assert_int_equal(build(&p, "[a]\n[b]\n[c]\n", only, &e), 0);
	assert_int_equal(p.njobs, 1);
	assert_string_equal(p.jobs[0].desc.name, "b");
	plan_free(&p);
	assert_int_equal(build(&p, "[a]\n", none, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "--section"));
}

struct bad_case {
	const char *text;
	int line;
	const char *option;
};

static const struct bad_case bad[] = {
	{ "[a]\nsize=1.3\n", 2, "size" },
	{ "[a]\n\nruntime=1x\n", 3, "runtime" },
	{ "[a]\nbs=abc,4k\n", 2, "bs" },
	{ "[a]\niodepth=0:4\n", 2, "iodepth" },
	{ "[global]\nverify=crc7\n[a]\n", 2, "verify" },
	{ "[a]\nsize=1.5m\n", 2, "size" },
	{ "[a]\nbs=2g\n", 2, "bs" },
	{ "[a]\nbs=16Ki\nkb_base=1000\n", 2, "bs" },
	{ "[a]\nnumjobs=4000\n[b]\nnumjobs=200\n", 3, "numjobs" },
	{ "[global]\nsize=1m\n", 0, "" },
};

static void test_errors_name_place(void **state)
{
	struct err_rec e;
	struct plan p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (build(&p, bad[i].text, NULL, &e) != -EINVAL)
			fail_msg("case %zu accepted: %s", i, bad[i].text);
		assert_int_equal(e.line, bad[i].line);
		assert_string_equal(e.option, bad[i].option);
		assert_true(e.msg[0] != '\0');
		assert_int_equal(p.njobs, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_globals_apply_below),
		cmocka_unit_test(test_kb_base_first),
		cmocka_unit_test(test_clones_and_groups),
		cmocka_unit_test(test_section_filter),
		cmocka_unit_test(test_errors_name_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
