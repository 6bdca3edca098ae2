// SPDX-License-Identifier: MIT
/*
 * exec: no I/O; runs program= with arguments= for the job's runtime, as
 * fio's exec engine. The first request starts it (posix_spawnp: found in
 * PATH; the arguments are split at spaces, after %r became the runtime
 * in seconds and %n the job's name), with stdout and stderr in
 * NAME.stdout and NAME.stderr when std_redirect (the default), written
 * through the door (door.h: each replaced whole when the job ends); each
 * later request is a 50 ms wait (a thinktime its plan sets).
 * At the end of the job (exit), the program gets SIGTERM, and SIGKILL if
 * it is still there grace_time seconds later (10 ms once iorig was told
 * to stop by a signal: the run ends within 100 ms of it); it is reaped
 * either way.
 * Requests move nothing: the report counts them with 0 bytes, as fio's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "clock.h"
#include "door.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"
#include "runprog.h"
#include "target.h"

struct exec_opts {
	char *program;		/* NULL: none (refused) */
	char *arguments;	/* %r runtime (s), %n job name */
	uint64_t grace_time;	/* s from SIGTERM to SIGKILL */
	bool std_redirect;	/* NAME.stdout, NAME.stderr */
};

#define O(field) offsetof(struct exec_opts, field)

static const struct opt_def exec_options[] = {
	{ .name = "program", .type = OPT_STR, .off = O(program),
	  .category = "engine",
	  .help = "exec: the program to run (found in PATH); needed by exec" },
	{ .name = "arguments", .type = OPT_STR, .off = O(arguments),
	  .category = "engine",
	  .help = "exec: its arguments, split at spaces; %r: the runtime in "
		  "seconds, %n: the job's name" },
	{ .name = "grace_time", .type = OPT_UINT, .off = O(grace_time),
	  .def = "1", .min = 0, .max = INT32_MAX, .category = "engine",
	  .help = "exec: seconds from SIGTERM at the end of the runtime to "
		  "SIGKILL" },
	{ .name = "std_redirect", .type = OPT_BOOL, .off = O(std_redirect),
	  .def = "1", .category = "engine",
	  .help = "exec: the program's stdout and stderr to NAME.stdout and "
		  "NAME.stderr (0: iorig's own)" },
	{ .name = NULL },
};

struct execeng {
	char *cmd;		/* program and arguments, expanded */
	bool redirect;		/* std_redirect: out and err are open */
	struct door_out out, err;	/* NAME.stdout, NAME.stderr */
	uint64_t grace_s;
	pid_t pid;		/* 0: not started */
};

/* s with every `pat` replaced by `with`, in a new string (NULL: ENOMEM). */
static char *subst(const char *s, const char *pat, const char *with)
{
	size_t lp = strlen(pat), lw = strlen(with), n = 0;
	const char *p;
	char *r, *o;

	for (p = s; (p = strstr(p, pat)); p += lp)
		n++;
	r = malloc(strlen(s) + n * lw + 1);
	if (!r)
		return NULL;
	for (o = r; (p = strstr(s, pat)); s = p + lp) {
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		memcpy(o, with, lw);
		o += lw;
	}
	strcpy(o, s);
	return r;
}

/* NAME.stdout and NAME.stderr, opened through the door: 0 or -errno. */
static int open_redirects(struct execeng *x, const struct engine_ctx *ctx)
{
	const char *name = ctx->job->desc.name;
	char *o = NULL, *e = NULL;
	struct err_rec er;
	int r = -ENOMEM;

	if (asprintf(&o, "%s.stdout", name) < 0 ||
	    asprintf(&e, "%s.stderr", name) < 0) {
		o = e = NULL;
		goto out;
	}
	r = door_open(&x->out, o, "std_redirect", DOOR_WHOLE,
		      ctx->tgt->fence, &er);
	if (r)
		goto out;
	r = door_open(&x->err, e, "std_redirect", DOOR_WHOLE,
		      ctx->tgt->fence, &er);
	if (r) {
		door_discard(&x->out);
		goto out;
	}
	x->redirect = true;
	return 0;	/* the door_outs keep the names */
out:
	free(o);
	free(e);
	return r;
}

static int exec_names(const struct job *j, struct door_names *l)
{
	const struct exec_opts *o = j->eng.eopts;
	int r;

	if (!o->std_redirect)
		return 0;
	r = door_names_add(l, "std_redirect", "%s.stdout", j->desc.name);
	return r ? r :
		door_names_add(l, "std_redirect", "%s.stderr", j->desc.name);
}

static int exec_init(struct engine_ctx *ctx)
{
	const struct exec_opts *op = ctx->eo;
	struct execeng *x = calloc(1, sizeof(*x));
	char rt[24], *a = NULL, *b = NULL;
	int ok, r = 0;

	if (!x)
		return -ENOMEM;
	snprintf(rt, sizeof(rt), "%llu",
		 (unsigned long long)(ctx->job->time.runtime_ns / 1000000000));
	ok = (a = subst(op->arguments ? op->arguments : "", "%r", rt)) &&
	     (b = subst(a, "%n", ctx->job->desc.name)) &&
	     asprintf(&x->cmd, "%s %s", op->program, b) >= 0;
	if (!ok)
		x->cmd = NULL;
	free(a);
	free(b);
	x->grace_s = op->grace_time;
	ctx->priv = x;
	if (ok && op->std_redirect)
		r = open_redirects(x, ctx);
	return !ok ? -ENOMEM : r;
}

/* Start the program: 0 or -errno. */
static int exec_start(struct execeng *x)
{
	posix_spawn_file_actions_t fa;
	char **argv = NULL, *tok, *save = NULL;
	size_t n = 0;
	int ret;

	for (tok = strtok_r(x->cmd, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char **nv = realloc(argv, (n + 2) * sizeof(*argv));

		if (!nv) {
			free(argv);
			return -ENOMEM;
		}
		argv = nv;
		argv[n++] = tok;
		argv[n] = NULL;
	}
	if (!argv)
		return -ENOENT;
	posix_spawn_file_actions_init(&fa);
	if (x->redirect) {
		posix_spawn_file_actions_adddup2(&fa, x->out.fd, 1);
		posix_spawn_file_actions_adddup2(&fa, x->err.fd, 2);
	}
	ret = prog_start(&x->pid, argv[0], true, &fa, argv);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (ret) {
		x->pid = 0;
		return -ret;
	}
	return 0;
}

static int exec_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct execeng *x = ctx->priv;
	int ret;

	if (!x->pid && (ret = exec_start(x)))
		return ret;
	req->len = 0;
	req->res = 0;
	req->t_done = clock_ticks(ctx->clk);
	return ENGINE_DONE;
}

/* How long the program has after SIGTERM once iorig itself was told to
 * stop (SIGINT, SIGTERM): the run ends within 100 ms of its signal. */
#define EXEC_STOP_GRACE_MS	10

/*
 * Reaped within ms milliseconds: true. A signal to iorig (stop) cuts
 * the grace to EXEC_STOP_GRACE_MS from when it is seen (at once when
 * it came before).
 */
static bool reaped(pid_t pid, uint64_t ms, const atomic_int *stop)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	uint64_t k, end = ms / 5;

	for (k = 0; k <= end; k++) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return true;
		if (stop && atomic_load(stop) &&
		    end > k + EXEC_STOP_GRACE_MS / 5)
			end = k + EXEC_STOP_GRACE_MS / 5;
		nanosleep(&ts, NULL);
	}
	return false;
}

static void exec_exit(struct engine_ctx *ctx)
{
	struct execeng *x = ctx->priv;

	if (!x)
		return;
	if (x->pid > 0) {
		kill(x->pid, SIGTERM);
		if (!reaped(x->pid, x->grace_s * 1000, ctx->stop)) {
			kill(x->pid, SIGKILL);
			while (waitpid(x->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	/* what the program wrote replaces the previous files; a program
	 * never started leaves them as they were */
	if (x->redirect) {
		char *o = (char *)x->out.path, *e = (char *)x->err.path;

		if (x->pid > 0) {
			door_close(&x->out);
			door_close(&x->err);
		} else {
			door_discard(&x->out);
			door_discard(&x->err);
		}
		free(o);
		free(e);
	}
	free(x->cmd);
	free(x);
	ctx->priv = NULL;
}

/*
 * program= is needed; the job checks on its program every 50 ms (a
 * thinktime after every request, as fio), and a runtime makes it
 * time_based.
 */
static int exec_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const struct exec_opts *o = j->eng.eopts;

	if (!o->program || !*o->program) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"program",
			"ioengine=exec needs program=, the program to run");
		return -EINVAL;
	}
	j->time.thinktime_ns = 50000000;	/* fio's check every 50 ms */
	j->time.thinktime_spin_ns = 0;
	j->time.thinktime_blocks = 1;
	j->time.thinktime_blocks_type = THINK_COMPLETE;
	if (j->time.runtime_ns)
		j->time.time_based = true;
	return 0;
}

const struct engine_ops engine_exec = {
	.name = "exec",
	.help = "no I/O: runs program= for the job's runtime",
	.flags = ENGINE_SYNC | ENGINE_NOIO | ENGINE_NODATA | ENGINE_NOT_IO,
	.options = exec_options,
	.options_size = sizeof(struct exec_opts),
	.plan = exec_plan,
	.names = exec_names,
	.init = exec_init,
	.queue = exec_queue,
	.exit = exec_exit,
};
