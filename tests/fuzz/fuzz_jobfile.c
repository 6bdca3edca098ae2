// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: job-file text -> jobfile_parse_string -> plan_build.
 *
 * An input with an include line is skipped: an include opens a file, and
 * a target parses and plans only. The include limits (depth, cycles) are
 * tested on real files in tests/unit/test_jobfile.c.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "jobfile.h"
#include "plan.h"
#include "plan_check.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The reader's rule, loosely: "include" and a blank at a line's start. */
static int has_include(const char *s)
{
	const char *p = s;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (!strncmp(p, "include", 7) && is_blank(p[7]))
			return 1;
		p = strchr(p, '\n');
		if (!p)
			return 0;
		p++;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct raw_doc doc = { 0 };
	struct err_rec e = { 0 };
	struct plan p;
	char *text;
	int ret;

	text = fuzz_cstr(data, size);
	if (!text)
		return 0;
	if (has_include(text)) {
		free(text);
		return -1;	/* libFuzzer: do not keep this input */
	}
	ret = jobfile_parse_string(&doc, "fuzz.job", text, &e);
	if (!ret)
		ret = plan_build(&p, &doc, NULL, &e);
	FUZZ_CHECK(ret <= 0);
	if (ret) {
		fuzz_err_check(&e);
	} else {
		fuzz_plan_check(&p);
		fuzz_checks_check(&p, NULL, 0);
		plan_free(&p);
	}
	raw_doc_free(&doc);
	free(text);
	return 0;
}
