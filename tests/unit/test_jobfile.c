// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "defines.h"
#include "jobfile.h"

/* Per-test scratch directory, passed through cmocka's state. */
struct fixture {
	char dir[64];
	struct raw_doc doc;
	struct err_rec e;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/test_jobfile.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	raw_doc_free(&f->doc);
	nftw(f->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* Full path of `name` inside the scratch directory (static buffer ring). */
static const char *fpath(struct fixture *f, const char *name)
{
	static char bufs[4][PATH_MAX];
	static int i;
	char *b = bufs[i++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", f->dir, name);
	return b;
}

static void write_file(struct fixture *f, const char *name, const char *text)
{
	FILE *fp = fopen(fpath(f, name), "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static void make_dir(struct fixture *f, const char *name)
{
	assert_int_equal(mkdir(fpath(f, name), 0700), 0);
}

static int parse_str(struct fixture *f, const char *text)
{
	return jobfile_parse_string(&f->doc, "job.fio", text, &f->e);
}

static void check_opt(const struct raw_section *sec, size_t i,
		      const char *name, const char *value, int line)
{
	assert_true(i < sec->nopts);
	assert_string_equal(sec->opts[i].name, name);
	if (value)
		assert_string_equal(sec->opts[i].value, value);
	else
		assert_null(sec->opts[i].value);
	assert_int_equal(sec->opts[i].line, line);
}

static void check_err(const struct err_rec *e, const char *file, int line,
		      const char *option, const char *msg_part)
{
	assert_string_equal(e->file, file);
	assert_int_equal(e->line, line);
	assert_string_equal(e->option, option);
	if (!strstr(e->msg, msg_part))
		fail_msg("message '%s' lacks '%s'", e->msg, msg_part);
}

/* ---- good input ---- */

static void test_basic(void **state)
{
	struct fixture *f = *state;
	const struct raw_section *s;

	assert_int_equal(parse_str(f,
		"\n"
		"[global]\n"
		"  bs = 4k  \n"
		"ioengine=sync\n"
		"\n"
		"[job one]\n"
		"rw=randread\n"
		"time_based\n"
		"description=two words here\n"
		"empty=\n"
		"rw=write\n"
		"\t[ job2 ]\t\n"
		"size = 1g\n"), 0);
	assert_int_equal(f->doc.nsecs, 3);

	s = &f->doc.secs[0];
	assert_string_equal(s->name, "global");
	assert_int_equal(s->is_global, 1);
	assert_int_equal(s->line, 2);
	assert_string_equal(s->file, "job.fio");
	assert_int_equal(s->nopts, 2);
	check_opt(s, 0, "bs", "4k", 3);
	check_opt(s, 1, "ioengine", "sync", 4);

	s = &f->doc.secs[1];
	assert_string_equal(s->name, "job one");
	assert_int_equal(s->is_global, 0);
	assert_int_equal(s->line, 6);
	assert_int_equal(s->nopts, 5);
	check_opt(s, 0, "rw", "randread", 7);
	check_opt(s, 1, "time_based", NULL, 8);
	check_opt(s, 2, "description", "two words here", 9);
	check_opt(s, 3, "empty", "", 10);
	/* Duplicates are kept in order; the caller decides who wins. */
	check_opt(s, 4, "rw", "write", 11);
	assert_string_equal(s->opts[4].file, "job.fio");

	s = &f->doc.secs[2];
	assert_string_equal(s->name, "job2");
	assert_int_equal(s->line, 12);
	check_opt(s, 0, "size", "1g", 13);
}

static void test_globals(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *name;
		int is_global;
	} cases[] = {
		{ "global", 1 }, { "global-2", 1 }, { "globalfoo", 1 },
		{ "glob", 0 }, { "myglobal", 0 }, { "Global", 0 },
	};
	char text[1024] = "";
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strcat(text, "[");
		strcat(text, cases[i].name);
		strcat(text, "]\nx=1\n");
	}
	assert_int_equal(parse_str(f, text), 0);
	assert_int_equal(f->doc.nsecs, sizeof(cases) / sizeof(cases[0]));
	for (i = 0; i < f->doc.nsecs; i++) {
		assert_string_equal(f->doc.secs[i].name, cases[i].name);
		assert_int_equal(f->doc.secs[i].is_global,
				 cases[i].is_global);
	}
}

static void test_comments(void **state)
{
	struct fixture *f = *state;
	const struct raw_section *s;

	assert_int_equal(parse_str(f,
		"; leading comment\n"
		"# another\n"
		"   ;indented\n"
		"\t# tab indented\n"
		"[job] ; header comment\n"
		"filename=a#b\n"
		"opt=x;y\n"
		"desc=keep this # not this\n"
		"other = v\t; tabbed comment\n"
		"bare # comment\n"
		"#[notasection]\n"
		"last=1;\n"), 0);
	assert_int_equal(f->doc.nsecs, 1);
	s = &f->doc.secs[0];
	assert_string_equal(s->name, "job");
	assert_int_equal(s->nopts, 6);
	check_opt(s, 0, "filename", "a#b", 6);
	check_opt(s, 1, "opt", "x;y", 7);
	check_opt(s, 2, "desc", "keep this", 8);
	check_opt(s, 3, "other", "v", 9);
	check_opt(s, 4, "bare", NULL, 10);
	check_opt(s, 5, "last", "1;", 12);
}

static void test_crlf_and_final_newline(void **state)
{
	struct fixture *f = *state;
	const struct raw_section *s;

	assert_int_equal(parse_str(f,
		"[a]\r\n"
		"x=1\r\n"
		"\r\n"
		"flag\r\n"
		"y = two words \r\n"
		"z=3"), 0);
	s = &f->doc.secs[0];
	assert_int_equal(s->nopts, 4);
	check_opt(s, 0, "x", "1", 2);
	check_opt(s, 1, "flag", NULL, 4);
	check_opt(s, 2, "y", "two words", 5);
	check_opt(s, 3, "z", "3", 6);
}

static void test_file_crlf(void **state)
{
	struct fixture *f = *state;
	const char *p = fpath(f, "crlf.fio");

	write_file(f, "crlf.fio", "[a]\r\nx=1\r\n[b]\r\ny");
	assert_int_equal(jobfile_parse_file(&f->doc, p, &f->e), 0);
	assert_int_equal(f->doc.nsecs, 2);
	assert_string_equal(f->doc.secs[0].file, p);
	check_opt(&f->doc.secs[0], 0, "x", "1", 2);
	check_opt(&f->doc.secs[1], 0, "y", NULL, 4);
}

static void test_empty_input(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse_str(f, ""), 0);
	assert_int_equal(parse_str(f, "\n\n; only comments\n"), 0);
	assert_int_equal(f->doc.nsecs, 0);
}

/* ---- syntax errors ---- */

static void test_option_before_section(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse_str(f, "; c\n\n  bs=4k\n[job]\n"), -EINVAL);
	check_err(&f->e, "job.fio", 3, "", "before any section");
	assert_non_null(strstr(f->e.msg, "'bs'"));
}

static void test_bad_headers(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *line;
		const char *msg;
	} cases[] = {
		{ "[abc", "expected [name]" },
		{ "[", "expected [name]" },
		{ "[]", "empty section name" },
		{ "[  ]", "empty section name" },
		{ "[a] extra", "expected [name]" },
		{ "[a]b", "expected [name]" },
		{ "[a]]", "contains '[' or ']'" },
		{ "[[a]", "contains '[' or ']'" },
	};
	char text[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "[ok]\nx=1\n\n%s\n",
			 cases[i].line);
		memset(&f->e, 0, sizeof(f->e));
		assert_int_equal(parse_str(f, text), -EINVAL);
		check_err(&f->e, "job.fio", 4, "", cases[i].msg);
		raw_doc_free(&f->doc);
	}
}

static void test_bad_options(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(parse_str(f, "[a]\n = 3\n"), -EINVAL);
	check_err(&f->e, "job.fio", 2, "", "missing option name");
	raw_doc_free(&f->doc);

	assert_int_equal(parse_str(f, "[a]\ninclude=x.fio\n"), -EINVAL);
	check_err(&f->e, "job.fio", 2, "", "expected 'include FILE'");
	raw_doc_free(&f->doc);

	assert_int_equal(parse_str(f, "[a]\n\ninclude = x.fio\n"), -EINVAL);
	check_err(&f->e, "job.fio", 3, "", "expected 'include FILE'");
	raw_doc_free(&f->doc);

	assert_int_equal(parse_str(f, "[a]\ninclude   # nothing\n"), -EINVAL);
	check_err(&f->e, "job.fio", 2, "", "expected 'include FILE'");
	raw_doc_free(&f->doc);

	/* A word that merely starts with "include" is an ordinary option. */
	assert_int_equal(parse_str(f, "[a]\nincludes=1\n"), 0);
	check_opt(&f->doc.secs[0], 0, "includes", "1", 2);
}

static void test_long_line(void **state)
{
	struct fixture *f = *state;
	size_t max = JOBFILE_MAX_LINE, n;
	char *text = malloc(4 * max + 64);
	char *p;

	assert_non_null(text);

	/* Exactly the limit (with and without "\r\n") is accepted. */
	p = text + sprintf(text, "[a]\n");
	p += sprintf(p, "x=");
	memset(p, 'v', max - 2);
	p += max - 2;
	p += sprintf(p, "\r\ny=");
	memset(p, 'w', max - 2);
	p += max - 2;
	strcpy(p, "\n");
	assert_int_equal(parse_str(f, text), 0);
	assert_int_equal(strlen(f->doc.secs[0].opts[0].value), max - 2);
	assert_int_equal(strlen(f->doc.secs[0].opts[1].value), max - 2);
	raw_doc_free(&f->doc);

	/* One more byte is an error on that line, newline or not. */
	for (n = 0; n < 2; n++) {
		p = text + sprintf(text, "[a]\n; c\n");
		memset(p, 'z', max + 1);
		p += max + 1;
		strcpy(p, n ? "" : "\nnext=1\n");
		assert_int_equal(parse_str(f, text), -EINVAL);
		check_err(&f->e, "job.fio", 3, "", "longer than 8192");
		raw_doc_free(&f->doc);
	}

	/* Much longer, from a file. */
	p = text + sprintf(text, "[a]\n");
	memset(p, 'q', 3 * max);
	strcpy(p + 3 * max, "\n");
	write_file(f, "long.fio", text);
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "long.fio"),
					    &f->e), -EINVAL);
	check_err(&f->e, fpath(f, "long.fio"), 2, "", "longer than 8192");
	free(text);
}

static void test_nul_byte(void **state)
{
	struct fixture *f = *state;
	const char *p = fpath(f, "nul.fio");
	FILE *fp = fopen(p, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite("[a]\nx=1\ny=\0z\n", 1, 14, fp), 14);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(jobfile_parse_file(&f->doc, p, &f->e), -EINVAL);
	check_err(&f->e, p, 3, "", "NUL byte");
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;
	const char *p = fpath(f, "nope.fio");

	assert_int_equal(jobfile_parse_file(&f->doc, p, &f->e), -ENOENT);
	check_err(&f->e, p, 0, "", strerror(ENOENT));
	raw_doc_free(&f->doc);

	assert_int_equal(jobfile_parse_file(&f->doc, f->dir, &f->e), -EISDIR);
	check_err(&f->e, f->dir, 0, "", "directory");
}

static void test_limits(void **state)
{
	struct fixture *f = *state;
	size_t n = JOBFILE_MAX_SECTIONS + 1, i;
	char *text = malloc(n * 8 + 16), *p;

	assert_non_null(text);
	for (p = text, i = 0; i < n; i++)
		p += sprintf(p, "[s]\n");
	assert_int_equal(parse_str(f, text), -EINVAL);
	check_err(&f->e, "job.fio", (int)n, "", "too many sections");
	assert_int_equal(f->doc.nsecs, JOBFILE_MAX_SECTIONS);
	raw_doc_free(&f->doc);

	n = JOBFILE_MAX_OPTIONS + 1;
	free(text);
	text = malloc(n * 8 + 16);
	assert_non_null(text);
	p = text + sprintf(text, "[s]\n");
	for (i = 0; i < n; i++)
		p += sprintf(p, "o=1\n");
	assert_int_equal(parse_str(f, text), -EINVAL);
	check_err(&f->e, "job.fio", (int)n + 1, "o", "too many options");
	free(text);
}

/* ---- includes ---- */

static void test_include_relative_nested(void **state)
{
	struct fixture *f = *state;
	const struct raw_section *s;
	char inc_sub[PATH_MAX], inc_more[PATH_MAX];

	make_dir(f, "sub");
	write_file(f, "main.fio",
		"[global]\n"
		"bs=4k\n"
		"include sub/inc.fio   ; comment\n"
		"after=1\n"
		"[last]\n"
		"z=9\n");
	write_file(f, "sub/inc.fio",
		"# leading options continue the includer's section\n"
		"from_inc=1\n"
		"include more.fio\n"
		"[inc_job]\n"
		"y=2\n");
	write_file(f, "sub/more.fio",
		"from_more=${IORIG_TEST_VAL}\n");
	setenv("IORIG_TEST_VAL", "hello", 1);
	strcpy(inc_sub, fpath(f, "sub/inc.fio"));
	strcpy(inc_more, fpath(f, "sub/more.fio"));

	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "main.fio"),
					    &f->e), 0);
	assert_int_equal(f->doc.nsecs, 3);

	s = &f->doc.secs[0];
	assert_string_equal(s->name, "global");
	assert_int_equal(s->nopts, 3);
	check_opt(s, 0, "bs", "4k", 2);
	assert_string_equal(s->opts[0].file, fpath(f, "main.fio"));
	check_opt(s, 1, "from_inc", "1", 2);
	assert_string_equal(s->opts[1].file, inc_sub);
	check_opt(s, 2, "from_more", "hello", 1);
	assert_string_equal(s->opts[2].file, inc_more);

	/* Textual inclusion: "after" lands in the last included section. */
	s = &f->doc.secs[1];
	assert_string_equal(s->name, "inc_job");
	assert_string_equal(s->file, inc_sub);
	assert_int_equal(s->line, 4);
	check_opt(s, 0, "y", "2", 5);
	check_opt(s, 1, "after", "1", 4);
	assert_string_equal(s->opts[1].file, fpath(f, "main.fio"));

	s = &f->doc.secs[2];
	assert_string_equal(s->name, "last");
	check_opt(s, 0, "z", "9", 6);
	unsetenv("IORIG_TEST_VAL");
}

static void test_include_absolute_and_env(void **state)
{
	struct fixture *f = *state;
	char text[PATH_MAX + 64];

	write_file(f, "abs.fio", "[abs]\nk=v\n");
	snprintf(text, sizeof(text),
		 "include %s\ninclude ${IORIG_TEST_DIR}/abs.fio\n",
		 fpath(f, "abs.fio"));
	setenv("IORIG_TEST_DIR", f->dir, 1);
	/* The string's name has a directory that must not be used. */
	assert_int_equal(jobfile_parse_string(&f->doc, "/nonexistent/x.fio",
					      text, &f->e), 0);
	assert_int_equal(f->doc.nsecs, 2);
	assert_string_equal(f->doc.secs[0].name, "abs");
	assert_string_equal(f->doc.secs[1].file, fpath(f, "abs.fio"));
	unsetenv("IORIG_TEST_DIR");
}

static void test_include_from_string_base(void **state)
{
	struct fixture *f = *state;

	make_dir(f, "d");
	write_file(f, "d/part.fio", "[p]\nq=1\n");
	assert_int_equal(jobfile_parse_string(&f->doc, fpath(f, "d/x.fio"),
					      "include part.fio\n", &f->e), 0);
	assert_int_equal(f->doc.nsecs, 1);
	assert_string_equal(f->doc.secs[0].file, fpath(f, "d/part.fio"));
}

static void test_include_option_before_section(void **state)
{
	struct fixture *f = *state;
	const char *inc = fpath(f, "opts.fio");

	write_file(f, "opts.fio", "; c\nbs=4k\n");
	write_file(f, "top.fio", "include opts.fio\n[job]\n");
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "top.fio"),
					    &f->e), -EINVAL);
	check_err(&f->e, inc, 2, "", "before any section");
}

static void test_include_missing(void **state)
{
	struct fixture *f = *state;
	char msg[PATH_MAX + 128];

	write_file(f, "m.fio", "[a]\nx=1\n\ninclude gone.fio\n");
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "m.fio"),
					    &f->e), -ENOENT);
	snprintf(msg, sizeof(msg), "'%s': %s", fpath(f, "gone.fio"),
		 strerror(ENOENT));
	check_err(&f->e, fpath(f, "m.fio"), 4, "", msg);
	raw_doc_free(&f->doc);

	make_dir(f, "adir");
	write_file(f, "m2.fio", "[a]\ninclude adir\n");
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "m2.fio"),
					    &f->e), -EISDIR);
	check_err(&f->e, fpath(f, "m2.fio"), 2, "", "is a directory");
}

static void test_include_depth(void **state)
{
	struct fixture *f = *state;
	char name[32], text[64];
	int i, last = JOBFILE_MAX_INCLUDE + 1;

	/* f0 includes f1 ... includes f<last>: one level too many. */
	for (i = 0; i <= last; i++) {
		snprintf(name, sizeof(name), "f%d.fio", i);
		if (i < last)
			snprintf(text, sizeof(text),
				 "[s%d]\n; c\ninclude f%d.fio\n", i, i + 1);
		else
			snprintf(text, sizeof(text), "[s%d]\n", i);
		write_file(f, name, text);
	}
	/* Starting one file later the chain is exactly at the limit. */
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "f1.fio"),
					    &f->e), 0);
	assert_int_equal(f->doc.nsecs, JOBFILE_MAX_INCLUDE + 1);
	raw_doc_free(&f->doc);

	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "f0.fio"),
					    &f->e), -EINVAL);
	snprintf(name, sizeof(name), "f%d.fio", JOBFILE_MAX_INCLUDE);
	check_err(&f->e, fpath(f, name), 3, "", "nested more than 16");
}

static void test_include_cycle(void **state)
{
	struct fixture *f = *state;
	char b[PATH_MAX];

	write_file(f, "self.fio", "[a]\n\ninclude self.fio\n");
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "self.fio"),
					    &f->e), -EINVAL);
	check_err(&f->e, fpath(f, "self.fio"), 3, "", "include cycle");
	raw_doc_free(&f->doc);

	make_dir(f, "x");
	write_file(f, "a.fio", "[a]\ninclude x/b.fio\n");
	write_file(f, "x/b.fio", "[b]\nk=1\n\ninclude ../a.fio\n");
	strcpy(b, fpath(f, "x/b.fio"));
	assert_int_equal(jobfile_parse_file(&f->doc, fpath(f, "a.fio"),
					    &f->e), -EINVAL);
	check_err(&f->e, b, 4, "", "include cycle");
	assert_non_null(strstr(f->e.msg, "x/../a.fio"));
}

/* ---- stdin ---- */

/* Parse `text` as "-" with stdin replaced by a pipe. */
static int parse_stdin(struct fixture *f, const char *text)
{
	int fds[2], saved, ret;
	size_t len = strlen(text);

	assert_int_equal(pipe(fds), 0);
	assert_true(len < 4096);	/* fits the pipe buffer */
	assert_int_equal(write(fds[1], text, len), (ssize_t)len);
	close(fds[1]);
	saved = dup(STDIN_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	clearerr(stdin);
	ret = jobfile_parse_file(&f->doc, "-", &f->e);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	clearerr(stdin);
	return ret;
}

static void test_stdin(void **state)
{
	struct fixture *f = *state;
	int cwd = open(".", O_RDONLY | O_DIRECTORY);

	assert_true(cwd >= 0);
	write_file(f, "inc.fio", "[inc]\nv=2\n");
	/* Relative includes from stdin are taken from the current dir. */
	assert_int_equal(chdir(f->dir), 0);
	assert_int_equal(parse_stdin(f, "[job]\nrw=read\ninclude inc.fio\n"),
			 0);
	assert_int_equal(fchdir(cwd), 0);
	close(cwd);
	assert_int_equal(f->doc.nsecs, 2);
	assert_string_equal(f->doc.secs[0].file, "<stdin>");
	check_opt(&f->doc.secs[0], 0, "rw", "read", 2);
	assert_string_equal(f->doc.secs[1].file, "inc.fio");
	raw_doc_free(&f->doc);

	assert_int_equal(parse_stdin(f, "[job]\n\n[bad\n"), -EINVAL);
	check_err(&f->e, "<stdin>", 3, "", "expected [name]");
}

/* ---- expansion ---- */

static void test_env(void **state)
{
	struct fixture *f = *state;

	setenv("IORIG_TEST_A", "/mnt/x", 1);
	setenv("IORIG_TEST_B", "$ncpus", 1);
	unsetenv("IORIG_TEST_UNSET");
	assert_int_equal(parse_str(f,
		"[a]\n"
		"filename=${IORIG_TEST_A}/f${IORIG_TEST_A}\n"
		"raw=${IORIG_TEST_B}\n"), 0);
	check_opt(&f->doc.secs[0], 0, "filename", "/mnt/x/f/mnt/x", 2);
	/* Substituted text is not expanded again. */
	check_opt(&f->doc.secs[0], 1, "raw", "$ncpus", 3);
	raw_doc_free(&f->doc);

	assert_int_equal(parse_str(f, "[a]\nx=1\ndir = ${IORIG_TEST_UNSET}\n"),
			 -EINVAL);
	check_err(&f->e, "job.fio", 3, "dir",
		  "environment variable IORIG_TEST_UNSET is not set "
		  "(${IORIG_TEST_UNSET:-DEFAULT} gives a default)");
	raw_doc_free(&f->doc);

	/* ${NAME:-TEXT}: TEXT, literally, when NAME is unset or empty. */
	setenv("IORIG_TEST_EMPTY", "", 1);
	assert_int_equal(parse_str(f,
		"[a]\n"
		"f1=${IORIG_TEST_UNSET:-scratch.dat}\n"
		"f2=${IORIG_TEST_A:-unused}\n"
		"f3=${IORIG_TEST_EMPTY:-e $x}\n"
		"f4=${IORIG_TEST_UNSET:-}\n"), 0);
	check_opt(&f->doc.secs[0], 0, "f1", "scratch.dat", 2);
	check_opt(&f->doc.secs[0], 1, "f2", "/mnt/x", 3);
	check_opt(&f->doc.secs[0], 2, "f3", "e $x", 4);
	check_opt(&f->doc.secs[0], 3, "f4", "", 5);
	unsetenv("IORIG_TEST_EMPTY");
	unsetenv("IORIG_TEST_A");
	unsetenv("IORIG_TEST_B");
}

static void test_builtin_vars(void **state)
{
	struct fixture *f = *state;
	char want[128];
	unsigned long long mb = ((unsigned long long)sysconf(_SC_PHYS_PAGES) *
				 sysconf(_SC_PAGESIZE)) >> 20;

	assert_int_equal(parse_str(f,
		"[a]\n"
		"numjobs=$ncpus\n"
		"bs=$pagesize\n"
		"size=$mb_memory*1m/2\n"
		"mix=$ncpus-$pagesize:$mb_memory\n"), 0);
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	check_opt(&f->doc.secs[0], 0, "numjobs", want, 2);
	snprintf(want, sizeof(want), "%ld", sysconf(_SC_PAGESIZE));
	check_opt(&f->doc.secs[0], 1, "bs", want, 3);
	snprintf(want, sizeof(want), "%llu*1m/2", mb);
	check_opt(&f->doc.secs[0], 2, "size", want, 4);
	snprintf(want, sizeof(want), "%ld-%ld:%llu",
		 sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_PAGESIZE), mb);
	check_opt(&f->doc.secs[0], 3, "mix", want, 5);
}

static void test_bad_vars(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *value;
		const char *msg;
	} cases[] = {
		{ "$foo", "unknown variable $foo; expected $ncpus, $pagesize, "
			  "$mb_memory or ${ENV}" },
		{ "$ncpusx", "unknown variable $ncpusx;" },
		{ "1$", "'$' without a variable name" },
		{ "$ ", "'$' without a variable name" },
		{ "$$", "'$' without a variable name" },
		{ "${HOME", "'${' without a closing '}'" },
		{ "${}", "bad variable name '${}'" },
		{ "${1A}", "bad variable name" },
		{ "${A-B}", "bad variable name" },
	};
	char text[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "[a]\n\nopt=%s\n", cases[i].value);
		assert_int_equal(parse_str(f, text), -EINVAL);
		check_err(&f->e, "job.fio", 3, "opt", cases[i].msg);
		raw_doc_free(&f->doc);
	}
}

static void test_expand_direct(void **state)
{
	char out[8], why[256];

	assert_int_equal(jobfile_expand("abc", out, sizeof(out), why,
					sizeof(why)), 0);
	assert_string_equal(out, "abc");
	assert_int_equal(jobfile_expand("", out, sizeof(out), why,
					sizeof(why)), 0);
	assert_string_equal(out, "");
	/* 7 characters fit in 8 bytes, 8 do not. */
	assert_int_equal(jobfile_expand("1234567", out, sizeof(out), why,
					sizeof(why)), 0);
	assert_int_equal(jobfile_expand("12345678", out, sizeof(out), why,
					sizeof(why)), -E2BIG);
	assert_non_null(strstr(why, "longer than 7 bytes"));
	setenv("IORIG_TEST_LONG", "0123456789", 1);
	assert_int_equal(jobfile_expand("${IORIG_TEST_LONG}", out, sizeof(out),
					why, sizeof(why)), -E2BIG);
	unsetenv("IORIG_TEST_LONG");
	assert_int_equal(jobfile_expand("x", out, 0, why, sizeof(why)),
			 -E2BIG);
	/* why may be omitted. */
	assert_int_equal(jobfile_expand("$nope", out, sizeof(out), NULL, 0),
			 -EINVAL);
}

/* iorig-mpi's names (RANK...) win over the environment's; others do not
 * change; a redefinition replaces; limits are refused. */
static void test_expand_defined(void **state)
{
	char out[64], why[256], big[300];

	setenv("RANK", "env", 1);
	setenv("IORIG_TEST_OTHER", "o", 1);
	assert_int_equal(jobfile_expand("f.${RANK}.${IORIG_TEST_OTHER}", out,
					sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "f.env.o");
	assert_null(defines_get("RANK"));
	assert_int_equal(defines_set("RANK", "3"), 0);
	assert_int_equal(defines_set("RANK", "7"), 0);
	assert_string_equal(defines_get("RANK"), "7");
	assert_int_equal(jobfile_expand("f.${RANK}.${IORIG_TEST_OTHER}", out,
					sizeof(out), why, sizeof(why)), 0);
	assert_string_equal(out, "f.7.o");
	assert_int_equal(jobfile_expand("${RANK:-x}", out, sizeof(out), why,
					sizeof(why)), 0);
	assert_string_equal(out, "7");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(defines_set("LONG", big), -E2BIG);
	assert_int_equal(defines_set(big, "x"), -E2BIG);
	unsetenv("RANK");
	unsetenv("IORIG_TEST_OTHER");
}

static void test_expand_too_long_in_file(void **state)
{
	struct fixture *f = *state;
	char *big = malloc(JOBFILE_MAX_LINE + 1);

	assert_non_null(big);
	memset(big, 'e', JOBFILE_MAX_LINE);
	big[JOBFILE_MAX_LINE] = '\0';
	setenv("IORIG_TEST_BIG", big, 1);
	assert_int_equal(parse_str(f, "[a]\nv=x${IORIG_TEST_BIG}\n"), -EINVAL);
	check_err(&f->e, "job.fio", 2, "v", "after expansion");
	unsetenv("IORIG_TEST_BIG");
	free(big);
}

/* ---- raw_doc helpers ---- */

static void test_raw_doc(void **state)
{
	struct raw_doc doc = { 0 };
	struct raw_section *sec;
	char name[] = "job", file[] = "<command line>";
	const char *a, *b;
	size_t i;

	a = raw_doc_intern(&doc, file);
	b = raw_doc_intern(&doc, "<command line>");
	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, file);
	assert_int_equal(doc.nfiles, 1);

	sec = raw_doc_add_section(&doc, name, file, 0);
	assert_non_null(sec);
	assert_int_equal(sec->is_global, 0);
	assert_ptr_equal(sec->file, a);
	assert_int_equal(raw_section_add(&doc, sec, "bs", "${NOT_EXPANDED}",
					 file, 0), 0);
	assert_int_equal(raw_section_add(&doc, sec, "time_based", NULL,
					 "other", 1), 0);
	/* Copies, not references. */
	name[0] = 'X';
	assert_string_equal(doc.secs[0].name, "job");
	assert_string_equal(doc.secs[0].opts[0].value, "${NOT_EXPANDED}");
	assert_null(doc.secs[0].opts[1].value);
	assert_string_equal(doc.secs[0].opts[1].file, "other");
	assert_int_equal(doc.nfiles, 2);

	for (i = 2; i < JOBFILE_MAX_OPTIONS; i++)
		assert_int_equal(raw_section_add(&doc, &doc.secs[0], "o", "1",
						 file, 0), 0);
	assert_int_equal(raw_section_add(&doc, &doc.secs[0], "o", "1", file,
					 0), -E2BIG);

	sec = raw_doc_add_section(&doc, "global-x", file, 0);
	assert_non_null(sec);
	assert_int_equal(sec->is_global, 1);
	for (i = 2; i < JOBFILE_MAX_SECTIONS; i++)
		assert_non_null(raw_doc_add_section(&doc, "s", file, 0));
	errno = 0;
	assert_null(raw_doc_add_section(&doc, "s", file, 0));
	assert_int_equal(errno, E2BIG);

	raw_doc_free(&doc);
	assert_int_equal(doc.nsecs, 0);
	assert_null(doc.secs);
	assert_null(doc.files);
	raw_doc_free(&doc);	/* freeing an empty doc is fine */
}

static void test_err_format(void **state)
{
	struct fixture *f = *state;
	char buf[512];

	unsetenv("IORIG_TEST_UNSET");
	assert_int_equal(parse_str(f, "[a]\nsize=${IORIG_TEST_UNSET}\n"),
			 -EINVAL);
	err_format(&f->e, buf, sizeof(buf));
	assert_string_equal(buf,
		"job.fio:2: option 'size': environment variable IORIG_TEST_UNSET is not set (${IORIG_TEST_UNSET:-DEFAULT} gives a default)");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_basic),
		T(test_globals),
		T(test_comments),
		T(test_crlf_and_final_newline),
		T(test_file_crlf),
		T(test_empty_input),
		T(test_option_before_section),
		T(test_bad_headers),
		T(test_bad_options),
		T(test_long_line),
		T(test_nul_byte),
		T(test_missing_file),
		T(test_limits),
		T(test_include_relative_nested),
		T(test_include_absolute_and_env),
		T(test_include_from_string_base),
		T(test_include_option_before_section),
		T(test_include_missing),
		T(test_include_depth),
		T(test_include_cycle),
		T(test_stdin),
		T(test_env),
		T(test_builtin_vars),
		T(test_bad_vars),
		T(test_expand_direct),
		T(test_expand_defined),
		T(test_expand_too_long_in_file),
		T(test_raw_doc),
		T(test_err_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
