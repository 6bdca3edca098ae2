// SPDX-License-Identifier: MIT
/*
 * Unit tests for src/lib/door.c: the rules (a table of paths and what
 * the door says of each), the fence (by inode: a hard link, a symlink;
 * by resolved name: a file not made yet), the symlink rule of shared
 * directories, whole-file replacement, removal only of the inode made.
 * Each test works in a fresh directory under TMPDIR (else /tmp).
 */
#include <errno.h>
#include <fcntl.h>
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

#include "unit.h"

#include "door.h"

static char dir[256];	/* short: dir/name always fits PATH_MAX */

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/iorig-door-XXXXXX", t && *t ? t :
		 "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* dir/name into buf */
static const char *at(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* ---- the rules ---- */

struct rule_case {
	const char *path;	/* "@name": dir/name */
	int want;
	const char *msg;	/* in e.msg when refused */
};

static const struct rule_case rules[] = {
	{ "/dev/null", 0, NULL },
	{ "/dev/stdout", 0, NULL },
	{ "/dev/iorig-unit-no-such-name", -EINVAL,
	  "iorig makes no regular file in /dev" },
	{ "/dev/iorig-unit-no-dir/x", -EINVAL,
	  "iorig makes no regular file in /dev" },
	{ "@", -EINVAL, "is a directory" },
	{ "@new.txt", 0, NULL },
	{ "@old.txt", 0, NULL },
};

static void test_rules(void **state)
{
	char p[PATH_MAX];
	struct err_rec e;
	size_t i;
	int r;

	(void)state;
	put(at(p, "old.txt"), "old\n");
	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const char *path = rules[i].path[0] == '@' ?
				   at(p, rules[i].path + 1) : rules[i].path;

		memset(&e, 0, sizeof(e));
		r = door_check(path, "output", NULL, &e);
		CHECK(r == rules[i].want, "%s: %d, expected %d (%s)", path, r,
		      rules[i].want, e.msg);
		if (rules[i].msg)
			CHECK(strstr(e.msg, rules[i].msg), "%s: '%s' lacks "
			      "'%s'", path, e.msg, rules[i].msg);
	}
	if (!access("/dev/mem", F_OK)) {
		r = door_check("/dev/mem", "output", NULL, &e);
		assert_int_equal(r, -EINVAL);
		assert_non_null(strstr(e.msg, "character device other than"));
	}
}

/* ---- the fence ---- */

static void test_fence(void **state)
{
	char t[PATH_MAX], h[PATH_MAX], s[PATH_MAX], n[PATH_MAX], x[PATH_MAX];
	char alias[PATH_MAX + 8];
	struct door_fence *f = door_fence_new();
	struct err_rec e;

	(void)state;
	assert_non_null(f);
	put(at(t, "target"), "data\n");
	assert_int_equal(door_fence_add(f, t, "a file of job 'j' ('target')"),
			 0);
	assert_int_equal(door_fence_add(f, at(n, "later"), "a file job 'k' "
					"makes ('later')"), 0);
	assert_int_equal(link(t, at(h, "hard")), 0);
	assert_int_equal(symlink("target", at(s, "soft")), 0);
	/* by inode: the target, a hard link, a symlink */
	assert_string_equal(door_fence_hit(f, t), "a file of job 'j' "
			    "('target')");
	assert_non_null(door_fence_hit(f, h));
	assert_non_null(door_fence_hit(f, s));
	/* by resolved name: not made yet, named another way */
	snprintf(alias, sizeof(alias), "%s/./later", dir);
	assert_string_equal(door_fence_hit(f, alias), "a file job 'k' makes "
			    "('later')");
	/* a dangling symlink to it is where the file would be made */
	assert_int_equal(symlink("later", at(x, "tolater")), 0);
	assert_non_null(door_fence_hit(f, x));
	assert_null(door_fence_hit(f, at(x, "other")));
	assert_int_equal(door_check(h, "write_iolog", f, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "is a file of job 'j' ('target')"));
	door_fence_free(f);
}

/* ---- symlinks in shared directories ---- */

static void test_shared_links(void **state)
{
	char sh[PATH_MAX], v[PATH_MAX], l[PATH_MAX], own[PATH_MAX];
	struct err_rec e;

	(void)state;
	if (geteuid()) {
		print_message("not root: no link of another owner, skipped\n");
		return;
	}
	assert_int_equal(mkdir(at(sh, "shared"), 01777), 0);
	assert_int_equal(chmod(sh, 01777), 0);
	put(at(v, "victim"), "victim\n");
	assert_int_equal(symlink("../victim", at(l, "shared/l")), 0);
	assert_int_equal(lchown(l, 65534, 65534), 0);
	assert_int_equal(door_check(l, "stream", NULL, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "through the symlink"));
	/* the caller's own link, and the same link out of a sticky
	 * directory, are followed */
	assert_int_equal(symlink("../victim", at(own, "shared/own")), 0);
	assert_int_equal(door_check(own, "stream", NULL, &e), 0);
	assert_int_equal(chmod(sh, 0777), 0);
	assert_int_equal(door_check(l, "stream", NULL, &e), 0);
}

/* ---- writing whole ---- */

static void test_whole(void **state)
{
	char p[PATH_MAX], buf[64];
	struct door_out o;
	struct err_rec e;
	struct stat st;

	(void)state;
	put(at(p, "report"), "previous\n");
	assert_int_equal(chmod(p, 0640), 0);
	assert_int_equal(door_open(&o, p, "output", DOOR_WHOLE, NULL, &e), 0);
	fputs("new report\n", o.f);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "previous\n");	/* not before the close */
	assert_int_equal(door_close(&o), 0);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "new report\n");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_true(st.st_ino == o.ino && st.st_dev == o.dev);
	/* discarded: the previous file stays */
	assert_int_equal(door_open(&o, p, "output", DOOR_WHOLE, NULL, &e), 0);
	fputs("lost\n", o.f);
	door_discard(&o);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "new report\n");
}

/* ---- removal ---- */

static void test_remove(void **state)
{
	char p[PATH_MAX], q[PATH_MAX], buf[64];
	struct door_made m = DOOR_MADE_NONE;
	struct err_rec e;
	struct stat st;
	int fd;

	(void)state;
	fd = door_create(&m, at(p, "made"), O_RDWR, 0600, "donorname", NULL,
			 &e);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(door_remove(&m), 0);
	assert_int_equal(access(p, F_OK), -1);
	/* an existing file is never made over */
	put(p, "theirs\n");
	assert_int_equal(door_create(&m, p, O_RDWR, 0600, "donorname", NULL,
				     &e), -EEXIST);
	assert_int_equal(unlink(p), 0);
	/* made, then another file put at its name: left alone */
	fd = door_create(&m, p, O_RDWR, 0600, "donorname", NULL, &e);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	put(at(q, "other"), "precious\n");
	assert_int_equal(rename(q, p), 0);
	assert_int_equal(door_remove(&m), -ESTALE);
	get(p, buf, sizeof(buf));
	assert_string_equal(buf, "precious\n");
	assert_int_equal(door_unlink_own(p, st.st_dev, st.st_ino), -ESTALE);
	assert_int_equal(access(p, F_OK), 0);
}

static void test_names(void **state)
{
	struct door_names l = { 0 };
	int i;

	(void)state;
	for (i = 0; i < 20; i++)
		assert_int_equal(door_names_add(&l, "write_bw_log",
						"p_bw.%d.log", i + 1), 0);
	assert_int_equal(l.n, 20);
	assert_string_equal(l.v[19].path, "p_bw.20.log");
	assert_string_equal(l.v[0].option, "write_bw_log");
	assert_false(l.v[3].socket);
	door_names_free(&l);
	assert_int_equal(l.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_links, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
