// SPDX-License-Identifier: MIT
/* Starting other programs: prerun/postrun, gnuplot, the exec engine
 * (include/runprog.h). */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "runprog.h"

extern char **environ;

int prog_start(pid_t *pid, const char *file, bool search,
		  const posix_spawn_file_actions_t *fa, char *const argv[])
{
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int r;

	r = posix_spawnattr_init(&at);
	if (r)
		return r;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGXFSZ);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	r = posix_spawnattr_setsigmask(&at, &none);
	if (!r)
		r = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!r)
		r = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
					     POSIX_SPAWN_SETSIGDEF);
	if (!r)
		r = search ? posix_spawnp(pid, file, fa, &at, argv, environ) :
			     posix_spawn(pid, file, fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	return r;
}

int prog_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}
