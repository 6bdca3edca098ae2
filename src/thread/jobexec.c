// SPDX-License-Identifier: MIT
/* exec_prerun=, exec_postrun=: see jobexec.h. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobexec.h"
#include "door.h"
#include "path.h"
#include "procattr.h"
#include "runprog.h"

void jobexec_path(const struct job *j, const char *mode, char *buf,
		  size_t len)
{
	snprintf(buf, len, "%s.%s.txt", j->desc.name, mode);
}

static int check_one(const struct job *j, const char *cmd, const char *mode,
		     struct err_rec *e)
{
	char path[4096], opt[16], *dir;
	struct err_rec oe;
	struct stat st;
	bool ok;

	if (!cmd)
		return 0;
	snprintf(opt, sizeof(opt), "exec_%s", mode);
	if (!*cmd) {
		err_set(e, j->plan.section_file, j->plan.section_line, opt,
			"an empty command");
		return -EINVAL;
	}
	jobexec_path(j, mode, path, sizeof(path));
	if (door_check(path, opt, NULL, &oe)) {
		err_set(e, j->plan.section_file, j->plan.section_line, opt,
			"its output " "file %s: %s", path, oe.msg);
		return -EINVAL;
	}
	/* the job's name may hold a '/': a directory that must exist */
	dir = path_dir(path);
	if (!dir)
		return -ENOMEM;
	ok = !stat(dir, &st) && S_ISDIR(st.st_mode);
	if (!ok)
		err_set(e, j->plan.section_file, j->plan.section_line, opt,
			"its output "
			"file %s (named after the job) cannot be made: "
			"directory '%s' does not exist", path, dir);
	free(dir);
	return ok ? 0 : -EINVAL;
}

int jobexec_check(const struct job *j, struct err_rec *e)
{
	int ret = check_one(j, j->order.exec_prerun, "prerun", e);

	return ret ? ret : check_one(j, j->order.exec_postrun, "postrun", e);
}

struct spawn {
	const char *cmd;
	int fd;
	pid_t pid;
};

/* sh -c cmd with standard output and error on fd: 0 or -errno. */
static int spawn(void *arg)
{
	struct spawn *sp = arg;
	posix_spawn_file_actions_t fa;
	char *argv[] = { "sh", "-c", (char *)sp->cmd, NULL };
	int r;

	if ((r = posix_spawn_file_actions_init(&fa)))
		return -r;
	r = posix_spawn_file_actions_adddup2(&fa, sp->fd, 1);
	if (!r)
		r = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (!r)
		r = prog_start(&sp->pid, "/bin/sh", false, &fa, argv);
	posix_spawn_file_actions_destroy(&fa);
	return -r;
}

/* As the job's user (uid=, gid=: fio runs them in the job's process,
 * which has switched to them); its wait status. */
static int spawn_wait(const struct job *j, const char *cmd, int fd,
		      int *status, char *why, size_t whylen)
{
	struct spawn sp = { .cmd = cmd, .fd = fd };
	int r = procattr_as_job(j, spawn, &sp, why, whylen);

	return r ? r : prog_wait(sp.pid, status);
}

int jobexec_names(const struct job *j, struct door_names *l)
{
	char path[4096];
	int r = 0;

	if (j->order.exec_prerun) {
		jobexec_path(j, "prerun", path, sizeof(path));
		r = door_names_add(l, "exec_prerun", "%s", path);
	}
	if (!r && j->order.exec_postrun) {
		jobexec_path(j, "postrun", path, sizeof(path));
		r = door_names_add(l, "exec_postrun", "%s", path);
	}
	return r;
}

int jobexec_run(const struct job *j, const char *cmd, const char *mode,
		const struct door_fence *fence, char *why, size_t whylen)
{
	struct door_out o = { .fd = -1 };
	struct err_rec e;
	char path[4096];
	int ret, st = 0, cret;

	jobexec_path(j, mode, path, sizeof(path));
	ret = door_open(&o, path, mode, DOOR_WHOLE, fence, &e);
	if (ret) {
		snprintf(why, whylen, "exec_%s: %s: %s", mode, path,
			 e.msg);
		return ret;
	}
	why[0] = '\0';
	ret = spawn_wait(j, cmd, o.fd, &st, why, whylen);
	cret = door_close(&o);
	if (ret) {
		char how[512];

		snprintf(how, sizeof(how), "%s", why);
		snprintf(why, whylen, "exec_%s: cannot run /bin/sh: %s", mode,
			 how[0] ? how : strerror(-ret));
		return ret;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st)) {
		if (cret)
			snprintf(why, whylen, "exec_%s: writing %s: %s", mode,
				 path, strerror(-cret));
		return cret;
	}
	if (WIFEXITED(st))
		snprintf(why, whylen, "exec_%s '%s' exited with status %d "
			 "(its output: %s)", mode, cmd, WEXITSTATUS(st), path);
	else
		snprintf(why, whylen, "exec_%s '%s' was killed by signal %d "
			 "(its output: %s)", mode, cmd,
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0, path);
	return -ECANCELED;
}
