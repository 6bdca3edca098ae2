// SPDX-License-Identifier: MIT
/* Spawning gnuplot and quoting for its scripts (include/gnuplot.h). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "runprog.h"

void gnuplot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
	}
	fputc('\'', f);
}

int gnuplot_run(const char *script, int out, bool *missing)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)"gnuplot", (char *)script, NULL };
	pid_t pid;
	int st, r;

	*missing = false;
	if (posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, STDOUT_FILENO);
	r = prog_start(&pid, "gnuplot", true, &fa, argv);
	posix_spawn_file_actions_destroy(&fa);
	if (r) {
		*missing = r == ENOENT;
		return -1;
	}
	if (prog_wait(pid, &st))
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
