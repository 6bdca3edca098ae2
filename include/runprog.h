// SPDX-License-Identifier: MIT
#ifndef IORIG_RUNPROG_H
#define IORIG_RUNPROG_H

#include <spawn.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * Start a program as a program expects to start: no signal blocked (the
 * worker threads block some) and every signal iorig ignores or handles
 * at its default (iorig ignores SIGPIPE and SIGXFSZ, and a shell started
 * with SIGPIPE ignored sees "Broken pipe" errors where a pipeline should
 * end quietly). file is looked up in PATH when search is set; fa (NULL:
 * none) are the caller's redirections. 0, or an errno value (ENOENT: no
 * such program).
 */
int prog_start(pid_t *pid, const char *file, bool search,
		  const posix_spawn_file_actions_t *fa, char *const argv[]);

/* Wait for pid to end (EINTR retried): 0 with its status, or -errno. */
int prog_wait(pid_t pid, int *status);

#endif
